//! TFRecord shards as an output format: the records of the inputs, in
//! order, into N shards balanced by records or shards of at most a size,
//! byte for byte, named as Beam and TFDS name shards; one set of shards
//! per group ([`reshape`]: `tfr reshard`, and `tfr split` with one group
//! per split).
//!
//! The records are read by the one reader ([`batches::run`]), framed again
//! on the workers ([`Frame`]: the same bytes) and written in order by one
//! thread into the current shard ([`ShardWriter`]: one shard open at a
//! time, gzip compressed on `-j` threads). [`Sharding::Shards`] needs the
//! number of records first: a first pass counts them (the same reader,
//! without copying records out), so stdin, which cannot be read twice, is
//! refused there; memory stays bounded either way. Every shard goes to a
//! temporary file and all are renamed together at the end
//! ([`OutputSet`]): on an error (a damaged input) or a signal, none is
//! left.

use crate::error::{bail, Result};
use crate::example::filter::UnmatchedNames;
use crate::io::{Compression, Input, OutputSet};
use crate::pipeline::batches::{self, Reading, Types};
use crate::pipeline::reshape::{Frame, Framed, Keys, Route};
use crate::pipeline::{self, Stopped};
use crate::record::shards::{Policy, ShardWriter};
use std::path::PathBuf;

/// How each output is cut.
#[derive(Clone, Copy, Debug)]
pub enum Sharding {
    /// One file per output, named as given.
    One,
    /// N shards balanced by records.
    Shards(usize),
    /// Shards of at most this many bytes as written.
    Size(u64),
}

/// A progress display per pass over the inputs: made with the inputs'
/// total size (when known), told the bytes and records read; dropped at
/// the end of its pass.
pub type Progress<'a> = &'a dyn Fn(Option<u64>) -> Box<dyn Fn(u64, u64) + Sync + 'a>;

/// first record decides (Example or SequenceExample).
pub fn untouched_unless(decoded: bool) -> Types {
    if decoded {
        Types::Dataset
    } else {
        Types::Fixed(crate::example::MessageType::Raw)
    }
}

/// What [`reshape`] writes.
pub struct Plan<'a> {
    /// The inputs.
    pub inputs: &'a [Input],
    /// How they are read.
    pub reading: &'a Reading<'a>,
    /// Worker threads.
    pub jobs: usize,
    /// Split's rule; `None`: every record to `outputs[0]`.
    pub route: Option<&'a Route>,
    /// One output name per group.
    pub outputs: Vec<PathBuf>,
    /// How each output is cut into shards.
    pub sharding: Sharding,
    /// Forced; else from each output's name.
    pub compression: Option<Compression>,
    /// `--strict`: split's `--by` feature in no record read is an error.
    pub strict: bool,
}

/// What [`reshape`] wrote: per output its records and shards; with split's
/// `--by`, the keys' tally.
pub struct Done {
    /// Per output: records written and shards made.
    pub outputs: Vec<(u64, usize)>,
    /// With split's `--by`: the records per key.
    pub keys: Keys,
}

/// Writes the records of the inputs into the outputs of the plan (each
/// record to its group's), all of them appearing together at the end.
/// Returns per output its records and shards.
pub fn reshape(plan: &Plan<'_>, progress: Progress<'_>) -> Result<Done> {
    let counting = matches!(plan.sharding, Sharding::Shards(_));
    if counting && plan.inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        bail!("--shards reads the inputs twice (to count their records first): stdin cannot be; use --shard-size, or write stdin to a file");
    }
    if plan.outputs.iter().any(|p| p.as_os_str() == "-") {
        bail!("-o -: reshard and split write files (or objects), not stdout");
    }
    let mut set = OutputSet::new(plan.inputs, &[], "-o");
    let policy = match plan.sharding {
        Sharding::One => Policy::One,
        Sharding::Shards(n) => Policy::Count { shards: n, total: 0 },
        Sharding::Size(max) => Policy::Size { max },
    };
    // Every output's first shard is created before any reading: an
    // unwritable or refused output fails at once.
    let mut writers = Vec::with_capacity(plan.outputs.len());
    for path in &plan.outputs {
        writers.push(ShardWriter::new(&mut set, path, policy, plan.compression, plan.jobs)?);
    }
    let workers = pipeline::workers(plan.jobs);
    let total_size = crate::io::input::total_size(plan.inputs);
    if counting {
        let mut totals = vec![0u64; plan.outputs.len()];
        let update = progress(total_size);
        let count = |out: &Framed| {
            for &(group, _) in &out.records {
                totals[group as usize] += 1;
            }
            Ok(())
        };
        let work = Frame {
            route: plan.route,
            keep: false,
        };
        let (_, result) = batches::run(plan.inputs, plan.reading, workers, &work, count, &*update);
        drop(update);
        result?;
        for (w, total) in writers.iter_mut().zip(&totals) {
            w.set_total(*total);
        }
    }
    let update = progress(total_size);
    let mut failed = None;
    let mut keys = Keys::default();
    let write = |out: &Framed| {
        keys.add(out);
        for (group, framed) in out.each() {
            if let Err(e) = writers[group as usize].write(&mut set, framed) {
                failed = Some(e);
                return Err(std::io::Error::other(Stopped));
            }
        }
        Ok(())
    };
    let work = Frame {
        route: plan.route,
        keep: true,
    };
    let (_, result) = batches::run(plan.inputs, plan.reading, workers, &work, write, &*update);
    drop(update);
    if let Some(e) = failed {
        return Err(e.into());
    }
    result?;
    if let Some(route) = plan.route.filter(|_| plan.strict) {
        let names = route.unmatched();
        if !names.is_empty() {
            return Err(UnmatchedNames { flag: "--by", names }.into());
        }
    }
    let mut done = Vec::with_capacity(writers.len());
    for w in writers {
        if let Policy::Count { total, .. } = w.policy() {
            if w.records() != total {
                bail!(
                    "the inputs changed while being read: {total} records counted, then {} read",
                    w.records()
                );
            }
        }
        let records = w.records();
        done.push((records, w.finish(&mut set)?));
    }
    set.commit()?;
    Ok(Done { outputs: done, keys })
}

/// Refuses `--shards` over a stream among `inputs`: the `what` (rows,
/// samples) are counted in a first pass, and a stream cannot be read twice.
pub fn refuse_streams_for_count(inputs: &[Input], what: &str) -> Result<()> {
    if let Some(stream) = inputs.iter().find(|i| i.is_stream()) {
        bail!(
            "{}: --shards reads the inputs twice (to count their {what} first): a stream cannot be; \
             use --shard-size, or write it to a file",
            stream.display()
        );
    }
    Ok(())
}

/// One `-o OUT` of a converter that makes records (from-parquet,
/// from-arrow, from-wds) cut as `--shards`/`--shard-size` say: runs of
/// framed records in, each record into its shard, every shard appearing
/// at [`Self::finish`] (or none).
pub struct ShardedOutput {
    set: OutputSet,
    writer: ShardWriter,
}

impl ShardedOutput {
    /// The first shard of `path` created now (an unwritable target fails
    /// before any work); `path` refused among the `inputs`. With
    /// [`Sharding::Shards`], [`Self::set_total`] is to be told the records
    /// before the first is written.
    pub fn create(
        inputs: &[Input],
        path: &std::path::Path,
        sharding: Sharding,
        compression: Option<Compression>,
        jobs: usize,
    ) -> Result<ShardedOutput> {
        if path.as_os_str() == "-" {
            bail!("--shards and --shard-size write files (or objects), not stdout: -o DIR/NAME.tfrecord");
        }
        let policy = match sharding {
            Sharding::One => Policy::One,
            Sharding::Shards(n) => Policy::Count { shards: n, total: 0 },
            Sharding::Size(max) => Policy::Size { max },
        };
        let mut set = OutputSet::new(inputs, &[], "-o");
        let writer = ShardWriter::new(&mut set, path, policy, compression, jobs)?;
        Ok(ShardedOutput { set, writer })
    }

    /// How many records there will be ([`Sharding::Shards`] balances them).
    pub fn set_total(&mut self, records: u64) {
        self.writer.set_total(records);
    }

    /// A run of whole framed records (a worker's output), each into its
    /// shard.
    pub fn write_run(&mut self, mut run: &[u8]) -> Result<()> {
        while !run.is_empty() {
            let len = match run.first_chunk::<8>() {
                Some(head) => u64::from_le_bytes(*head),
                None => bail!("a run of framed records ends inside a header"),
            };
            let end = usize::try_from(len)
                .ok()
                .and_then(|n| n.checked_add(16))
                .filter(|&end| end <= run.len());
            let Some(end) = end else {
                bail!("a run of framed records ends inside a record");
            };
            self.writer.write(&mut self.set, &run[..end])?;
            run = &run[end..];
        }
        Ok(())
    }

    /// Ends the last shard (makes the shards no record reached), renames
    /// them all into place; the records written and the shards made.
    pub fn finish(mut self) -> Result<(u64, usize)> {
        let records = self.writer.records();
        if let Policy::Count { total, .. } = self.writer.policy() {
            if records != total {
                bail!("the inputs changed while being read: {total} records counted, then {records} written");
            }
        }
        let shards = self.writer.finish(&mut self.set)?;
        self.set.commit()?;
        Ok((records, shards))
    }
}

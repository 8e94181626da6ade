//! `tfr reshard`: the records of the inputs, in order, into N shards
//! balanced by records (`--shards`) or shards of at most a size
//! (`--shard-size`), byte for byte, named as Beam and TFDS name shards;
//! also how files are merged and recompressed. [`reshape`] is shared with
//! `tfr split` (one set of shards per split).
//!
//! The records are read by the one reader ([`batches::run`]), framed again
//! on the workers ([`reshape::Frame`]: the same bytes) and written in
//! order by one thread into the current shard ([`ShardWriter`]: one shard
//! open at a time, gzip compressed on `-j` threads). `--shards N` needs
//! the number of records first: a first pass counts them (the same
//! reader, without copying records out), so stdin, which cannot be read
//! twice, is refused there; memory stays bounded either way. Every shard
//! goes to a temporary file and all are renamed together at the end
//! ([`OutputSet`]): on an error (a damaged input) or a signal, none is left.

use crate::args::{InputArgs, JobsArg};
use crate::example::filter::UnmatchedNames;
use crate::exit::Exit;
use crate::io::{Compression, Input, OutputSet};
use crate::output::Ctx;
use crate::pipeline::batches::{self, Range, Reading, Types};
use crate::pipeline::reshape::{Frame, Framed, Keys, Route};
use crate::pipeline::{self, Stopped};
use crate::record::shards::{Policy, ShardWriter};
use anyhow::{bail, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct ReshardArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// The output: without --shards or --shard-size, exactly this file
    /// (merged, recompressed as its name says, filtered with --where);
    /// with them, DIR/NAME.tfrecord[.gz] writes
    /// DIR/NAME-00000-of-0000N.tfrecord[.gz] (5 digits, more from 100000
    /// shards). Missing local directories are created (and removed again
    /// if the run fails); an object-store URL works the same.
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) sharding: ShardingArgs,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// `--shards` / `--shard-size` / `--output-compression` (reshard, split).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ShardingArgs {
    /// N shards, balanced by records (their counts differ by at most one;
    /// with more shards than records, some are empty). The records are
    /// counted in a first pass: the inputs are read twice (not stdin).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "shard_size")]
    pub(crate) shards: Option<u32>,

    /// Shards of at most SIZE bytes as written (compressed, for a
    /// compressed output; K, M, G: binary units, 100M = 104857600 bytes):
    /// a new shard starts when the next record could go over it; a record
    /// larger than SIZE alone has a shard of its own. One pass; local
    /// outputs only (the count is known at the end).
    #[arg(long, value_name = "SIZE", value_parser = crate::args::parse_size)]
    pub(crate) shard_size: Option<u64>,

    /// Compression of the output [default: from OUT's name: .gz gzip, .zz
    /// or .zlib zlib, .snappy SNAPPY, else none] (--compression is the
    /// inputs').
    #[arg(long, value_enum, value_name = "KIND", hide_possible_values = true)]
    pub(crate) output_compression: Option<Compression>,
}

/// How each output is cut.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sharding {
    /// One file per output, named as given.
    One,
    Shards(usize),
    Size(u64),
}

impl ShardingArgs {
    pub(crate) fn sharding(&self) -> Sharding {
        match (self.shards, self.shard_size) {
            (Some(n), _) => Sharding::Shards(n as usize),
            (None, Some(max)) => Sharding::Size(max),
            (None, None) => Sharding::One,
        }
    }
}

pub(crate) fn run(args: &ReshardArgs, ctx: &Ctx) -> Result<Exit> {
    let sharding = args.sharding.sharding();
    let inputs = args.input.expand()?;
    let reading = Reading {
        open: &args.input.options(),
        types: untouched_unless(args.filter.get().is_some()),
        jobs: args.jobs.for_inputs(&inputs),
        range: Range::default(),
        sample: None,
        probe_limit: false,
        filter: args.filter.get(),
    };
    let plan = Plan {
        inputs: &inputs,
        reading: &reading,
        jobs: args.jobs.get(),
        route: None,
        outputs: vec![args.output.clone()],
        sharding,
        compression: args.sharding.output_compression,
        strict: args.filter.strict,
    };
    let done = reshape(&plan, ctx)?;
    let (records, shards) = done.outputs.first().copied().unwrap_or_default();
    let mut out = crate::output::stdout();
    let what = match sharding {
        Sharding::One => crate::io::input::escape_name(args.output.as_os_str().as_encoded_bytes()),
        _ => format!("{shards} shards"),
    };
    writeln!(out, "{records} records into {what}")?;
    out.flush()?;
    Ok(Exit::Success)
}

/// The payload type records are read with: raw (nothing decoded) unless
/// their features are read (`--where`, split's `--by`): then the dataset's
/// first record decides (Example or SequenceExample).
pub(crate) fn untouched_unless(decoded: bool) -> Types {
    if decoded {
        Types::Dataset
    } else {
        Types::Fixed(crate::example::MessageType::Raw)
    }
}

/// What [`reshape`] writes.
pub(crate) struct Plan<'a> {
    pub(crate) inputs: &'a [Input],
    pub(crate) reading: &'a Reading<'a>,
    pub(crate) jobs: usize,
    /// Split's rule; `None`: every record to `outputs[0]`.
    pub(crate) route: Option<&'a Route>,
    /// One output name per group.
    pub(crate) outputs: Vec<PathBuf>,
    pub(crate) sharding: Sharding,
    /// Forced; else from each output's name.
    pub(crate) compression: Option<Compression>,
    /// `--strict`: split's `--by` feature in no record read is an error.
    pub(crate) strict: bool,
}

/// What [`reshape`] wrote: per output its records and shards; with split's
/// `--by`, the keys' tally.
pub(crate) struct Done {
    pub(crate) outputs: Vec<(u64, usize)>,
    pub(crate) keys: Keys,
}

/// Writes the records of the inputs into the outputs of the plan (each
/// record to its group's), all of them appearing together at the end.
/// Returns per output its records and shards.
pub(crate) fn reshape(plan: &Plan<'_>, ctx: &Ctx) -> Result<Done> {
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
        let progress = ctx.progress(total_size);
        let update = |bytes, records| progress.update(bytes, records);
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
        let (_, result) = batches::run(plan.inputs, plan.reading, workers, &work, count, &update);
        progress.finish();
        result?;
        for (w, total) in writers.iter_mut().zip(&totals) {
            w.set_total(*total);
        }
    }
    let progress = ctx.progress(total_size);
    let update = |bytes, records| progress.update(bytes, records);
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
    let (_, result) = batches::run(plan.inputs, plan.reading, workers, &work, write, &update);
    progress.finish();
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

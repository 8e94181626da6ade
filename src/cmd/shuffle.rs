//! `tfr shuffle`: the records of the inputs, byte for byte, in a uniform
//! random order (`pipeline::shuffle`), into one output or `--shards N`
//! (Beam/TFDS names), all appearing together (`io::OutputSet`).
//!
//! Within `--memory` the records are sorted in memory by random keys; beyond
//! it they spill to temporary files under `--temp-dir`, removed on
//! every exit. The order depends on `--seed` and the records only (not on
//! `-j` or `--memory`).

use crate::args::{parse_size, InputArgs, JobsArg, RangeArgs};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::io::output_set::{shard_name, OutputSet};
use crate::io::same_file::refuse_input_as_output;
use crate::output::Ctx;
use crate::pipeline;
use crate::pipeline::shuffle::{self, Emit, Options, MIN_MEMORY};
use crate::record::shards::{Policy, ShardWriter};
use crate::record::RecordWriter;
use anyhow::{bail, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("output_compression", |a| crate::args::beside_input_compression(a, "output(s)")))]
pub(crate) struct ShuffleArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Write to OUT (`.gz`, `.zz`/`.zlib`, `.snappy` compress it; `-` is
    /// stdout). With --shards, OUT names the shards: out/train.tfrecord.gz
    /// gives out/train-00000-of-00004.tfrecord.gz and so on. Missing local
    /// directories are created (and removed again if the run fails).
    #[arg(short = 'o', long, value_name = "OUT")]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) compression: crate::args::OutputCompressionArg,

    /// Write N shards of (nearly) equal record counts, consecutive runs of
    /// the shuffled order; all appear together, or none.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub(crate) shards: Option<u32>,

    /// Seed of the order: the same seed and records give the same output
    /// (whatever -j and --memory); default: a new order each run.
    #[arg(long, value_name = "SEED")]
    pub(crate) seed: Option<u64>,

    /// Records held in memory at most (K, M, G: binary units; 16M or
    /// more); beyond it they spill to temporary files, and tfr's peak
    /// memory stays about this much plus the reader's (-j × 1 MB).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub(crate) memory: u64,

    /// Where the temporary files go when the records exceed --memory (they
    /// take about the dataset's uncompressed size, and are removed on every
    /// exit); default: $TMPDIR, else /tmp.
    #[arg(long, value_name = "DIR")]
    pub(crate) temp_dir: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &ShuffleArgs, ctx: &Ctx) -> Result<Exit> {
    if args.memory < MIN_MEMORY {
        bail!("--memory {}: below the smallest budget, 16M", args.memory);
    }
    let inputs = args.input.expand()?;
    let jobs = args.jobs.get();
    // Every output created first: an unwritable target fails before any work.
    let mut set = OutputSet::new(&inputs, &[], "-o");
    let writer = create_outputs(args, &inputs, &mut set, jobs)?;
    let options = Options {
        seed: args.seed.unwrap_or_else(random_seed),
        memory: args.memory,
        temp_dir: args.temp_dir.clone().unwrap_or_else(std::env::temp_dir),
    };
    let open = args.input.options();
    // Every record, as raw bytes: nothing is decoded (unless --where
    // reads features: then the dataset's first record decides the type).
    let mut how = RangeArgs::default().reading(&open, Some(MessageType::Raw), jobs);
    how.filter = args.filter.get();
    how.types = crate::formats::tfrecord_out::untouched_unless(how.filter.is_some());
    let progress = ctx.progress(None);
    let update = |bytes, records| progress.update(bytes, records);
    let mut out = Shards {
        set: &mut set,
        writer,
        written: 0,
    };
    let (_, result) = shuffle::shuffle(&inputs, &how, pipeline::workers(jobs), &options, &mut out, &update);
    result?;
    let written = out.written;
    // Shards past the last record (more shards than records) are made empty.
    let count = match out.writer.take() {
        Some(w) => w.finish(&mut set)?,
        None => 1,
    };
    set.commit()?;
    // What was written, as split and reshard say it (not when the records
    // themselves went to stdout).
    if args.output.as_os_str() != "-" {
        let mut stdout = crate::output::stdout();
        match args.shards {
            None => {
                let name = crate::io::input::escape_name(args.output.as_os_str().as_encoded_bytes());
                writeln!(stdout, "{written} records shuffled into {name}")?;
            }
            Some(_) => writeln!(stdout, "{written} records shuffled into {count} shards")?,
        }
        stdout.flush()?;
    }
    Ok(Exit::Success)
}

/// The one output (`None`), or `--shards`' writer with its shard 0: made
/// in `set` before any record is read.
fn create_outputs(
    args: &ShuffleArgs,
    inputs: &[crate::io::Input],
    set: &mut OutputSet,
    jobs: usize,
) -> Result<Option<ShardWriter>> {
    Ok(match args.shards {
        None => {
            set.create_whole(&args.output, args.compression.forced(), jobs)?;
            None
        }
        Some(n) => {
            if args.output.as_os_str() == "-" {
                bail!("--shards: the shards need a name (-o DIR/NAME.tfrecord), not stdout");
            }
            // Shard 0 now (an unwritable directory fails here), the others
            // when the order reaches them: the shards are filled one after
            // the other, so only one holds a compressor (~300 KB for gzip)
            // at a time, and --memory holds whatever N. Every name is
            // checked against the inputs now.
            for k in 1..n as usize {
                refuse_input_as_output(inputs, &[], &shard_name(&args.output, k, n as usize), "-o")?;
            }
            // Balanced by count as reshard's (the total is known when the
            // shuffle begins to emit).
            let policy = Policy::Count {
                shards: n as usize,
                total: 0,
            };
            Some(ShardWriter::new(
                set,
                &args.output,
                policy,
                args.compression.forced(),
                jobs,
            )?)
        }
    })
}

/// A seed for a run without --seed.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(t);
    h.write_u32(std::process::id());
    h.finish()
}

/// The shuffled records into the one output, or into the shards of
/// reshard's count-balanced [`ShardWriter`] (shard `k` of `N` takes records
/// `total × k / N` up to the next).
struct Shards<'s> {
    set: &'s mut OutputSet,
    /// `--shards`; `None`: the one output (number 0 of the set).
    writer: Option<ShardWriter>,
    written: u64,
}

/// A failed write to `out`, named.
fn write_failed(out: &crate::io::AtomicOutput, e: std::io::Error) -> tfr_engine::Error {
    tfr_engine::Error::from(e).context(format!("{}: write failed", out.display()))
}

impl Emit for Shards<'_> {
    fn begin(&mut self, total: u64) -> tfr_engine::Result<()> {
        if let Some(w) = self.writer.as_mut() {
            w.set_total(total);
        }
        Ok(())
    }

    fn record(&mut self, payload: &[u8], crc: u32) -> tfr_engine::Result<()> {
        match self.writer.as_mut() {
            Some(w) => w.write_record(self.set, payload, crc)?,
            None => {
                let out = self.set.get(0);
                RecordWriter::new(&mut *out)
                    .write_record_with_crc(payload, crc)
                    .map_err(|e| write_failed(out, e))?;
            }
        }
        self.written += 1;
        Ok(())
    }

    fn framed(&mut self, record: &[u8]) -> tfr_engine::Result<()> {
        match self.writer.as_mut() {
            Some(w) => w.write(self.set, record)?,
            None => {
                let out = self.set.get(0);
                out.write_all(record).map_err(|e| write_failed(out, e))?;
            }
        }
        self.written += 1;
        Ok(())
    }
}

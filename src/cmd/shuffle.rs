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
use crate::io::Compression;
use crate::output::Ctx;
use crate::pipeline;
use crate::pipeline::shuffle::{self, Emit, Options, MIN_MEMORY};
use crate::record::RecordWriter;
use anyhow::{bail, Result};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

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
    let shards = args.shards.unwrap_or(1) as usize;
    // Every output created first: an unwritable target fails before any work.
    let mut set = OutputSet::new(&inputs, &[], "-o");
    match args.shards {
        None => {
            set.create_whole(&args.output, args.compression.forced(), jobs)?;
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
                refuse_input_as_output(&inputs, &[], &shard_name(&args.output, k, n as usize), "-o")?;
            }
            set.create(
                &shard_name(&args.output, 0, n as usize),
                args.compression.forced(),
                shard_threads(jobs),
            )?;
        }
    }
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
        path: &args.output,
        compression: args.compression.forced(),
        count: shards,
        total: 0,
        written: 0,
        shard: 0,
        jobs,
    };
    let (_, result) = shuffle::shuffle(&inputs, &how, pipeline::workers(jobs), &options, &mut out, &update);
    result?;
    // Shards past the last record (more shards than records) are empty.
    while out.shard + 1 < out.count {
        out.next_shard()?;
    }
    let (written, count) = (out.written, out.count);
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

/// Threads a gzip shard is compressed on, as reshard's shards: at least
/// two, so in independent chunks on threads of their own. (One
/// compressor per shard on the main thread, each freed before the next is
/// made, fragmented glibc's heap: 600 gzip shards took 195 MB.)
fn shard_threads(jobs: usize) -> usize {
    jobs.clamp(2, crate::record::shards::COMPRESSION_THREADS)
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

/// The shuffled records, framed, into the outputs of the set in turn:
/// shard `k` of `count` takes records `total × k / count` up to the next.
struct Shards<'s> {
    set: &'s mut OutputSet,
    /// -o, the name of the shards.
    path: &'s Path,
    compression: Option<Compression>,
    /// -j: threads each gzip shard is compressed on ([`shard_threads`]).
    jobs: usize,
    count: usize,
    total: u64,
    written: u64,
    shard: usize,
}

impl Shards<'_> {
    /// Where shard `k` starts.
    fn start(&self, k: usize) -> u64 {
        (u128::from(self.total) * k as u128 / self.count as u128) as u64
    }

    /// Ends the current shard (its compressor freed) and creates the next.
    fn next_shard(&mut self) -> tfr_engine::Result<()> {
        self.set.end(self.shard)?;
        self.shard += 1;
        let name = shard_name(self.path, self.shard, self.count);
        self.set.create(&name, self.compression, shard_threads(self.jobs))?;
        Ok(())
    }
}

impl Emit for Shards<'_> {
    fn begin(&mut self, total: u64) -> tfr_engine::Result<()> {
        self.total = total;
        Ok(())
    }

    fn record(&mut self, payload: &[u8], crc: u32) -> tfr_engine::Result<()> {
        // A shard is full: end it (its compressor's threads freed).
        while self.shard + 1 < self.count && self.written >= self.start(self.shard + 1) {
            self.next_shard()?;
        }
        let out = self.set.get(self.shard);
        if let Err(e) = RecordWriter::new(&mut *out).write_record_with_crc(payload, crc) {
            return Err(tfr_engine::Error::from(e).context(format!("{}: write failed", out.display())));
        }
        self.written += 1;
        Ok(())
    }

    fn framed(&mut self, record: &[u8]) -> tfr_engine::Result<()> {
        while self.shard + 1 < self.count && self.written >= self.start(self.shard + 1) {
            self.next_shard()?;
        }
        let out = self.set.get(self.shard);
        if let Err(e) = out.write_all(record) {
            return Err(tfr_engine::Error::from(e).context(format!("{}: write failed", out.display())));
        }
        self.written += 1;
        Ok(())
    }
}

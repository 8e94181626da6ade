//! `tfr from-wds`: WebDataset tar shards back into TFRecord records, one
//! Example per sample ([`crate::formats::wds::read`]). The records go
//! through an [`AtomicOutput`]: OUT appears only when every shard
//! converted.

use crate::args::JobsArg;
use crate::args::PayloadType;
use crate::example::MessageType;
use crate::exit::Exit;
use crate::formats::tfrecord_out::{ShardedOutput, Sharding};
use crate::formats::wds::read::{convert, count_samples, FromOptions};
use crate::io::input::{expand_as, Looks};
use crate::io::AtomicOutput;
use crate::output::Ctx;
use anyhow::{bail, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct FromWdsArgs {
    /// WebDataset shards: tar files (plain, gzip or zlib), quoted globs,
    /// directories (their .tar files), '-' for stdin.
    #[arg(value_name = "TARS")]
    pub(crate) files: Vec<std::ffi::OsString>,

    /// The TFRecord file written (compression from its name: .gz, .zz or
    /// .zlib, .snappy; else none). With --shards or --shard-size,
    /// DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz]
    /// ..., all appearing together.
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) sharding: crate::args::ShardingArgs,

    /// What each sample becomes: auto (a SequenceExample when its .json is
    /// one, with "context" or "feature_lists", else an Example), example,
    /// sequence (the members' features go to the context; `{}` is then an
    /// empty SequenceExample).
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// Keep each sample's key as a bytes feature of this name.
    #[arg(long, value_name = "FEATURE")]
    pub(crate) key: Option<String>,

    /// The largest member (and sample) held in memory (bytes; K, M, G
    /// suffixes): a larger one is refused with an error.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = crate::args::parse_size)]
    pub(crate) max_record_size: u64,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &FromWdsArgs, ctx: &Ctx) -> Result<Exit> {
    let forced = args.payload.fixed();
    if let Some(t @ (MessageType::Raw | MessageType::Elwc)) = forced {
        bail!("--type {}: from-wds writes Examples and SequenceExamples", t.name());
    }
    let inputs = expand_as(&args.files, Looks::Tar)?;
    crate::io::same_file::refuse_input_as_output(&inputs, &[], &args.output, "-o")?;
    if args.output.as_os_str() == "-" {
        bail!("-o -: from-wds writes a file (or an object)");
    }
    let jobs = args.jobs.get();
    let opts = FromOptions {
        forced,
        key: args.key.as_deref(),
        max_record_size: args.max_record_size,
        workers: crate::pipeline::workers(jobs),
    };
    let sharding = args.sharding.sharding();
    if let Sharding::One = sharding {
        let compression = args.sharding.output.of(&args.output);
        let mut out = AtomicOutput::create_threaded(&args.output, compression, jobs)?;
        let progress = ctx.progress(crate::io::input::total_size(&inputs));
        convert(&inputs, &opts, &mut |run| Ok(out.write_all(run)?), &|bytes| {
            progress.update(bytes, 0)
        })?;
        progress.finish();
        out.commit()?;
        return Ok(Exit::Success);
    }
    let forced_compression = args.sharding.output.forced();
    let mut out = ShardedOutput::create(&inputs, &args.output, sharding, forced_compression, jobs)?;
    if let Sharding::Shards(_) = sharding {
        out.set_total(count_samples(&inputs, args.max_record_size)?);
    }
    let progress = ctx.progress(crate::io::input::total_size(&inputs));
    convert(&inputs, &opts, &mut |run| out.write_run(run), &|bytes| {
        progress.update(bytes, 0)
    })?;
    progress.finish();
    let (records, shards) = out.finish()?;
    // What was written, as reshard says it.
    let mut stdout = crate::output::stdout();
    writeln!(stdout, "{records} records into {shards} shards")?;
    stdout.flush()?;
    Ok(Exit::Success)
}

//! `tfr from-wds`: WebDataset tar shards back into TFRecord records, one
//! Example per sample ([`crate::formats::wds::read`]). The records go
//! through an [`AtomicOutput`]: OUT appears only when every shard
//! converted.

use crate::args::JobsArg;
use crate::args::PayloadType;
use crate::example::MessageType;
use crate::exit::Exit;
use crate::formats::tfrecord_out::{ShardedOutput, Sharding};
use crate::formats::wds::read::{convert, count_samples, Converted, FromOptions};
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

    /// What each sample becomes: auto (SequenceExamples when the first
    /// sample's .json is one, with "context" or "feature_lists", else
    /// Examples: one type in the output), example,
    /// sequence (the members' features go to the context; `{}` is then an
    /// empty SequenceExample).
    #[arg(long = "type", short = 't', value_parser = crate::args::record_types(), default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// Keep each sample's key as a bytes feature of this name.
    #[arg(long, value_name = "FEATURE")]
    pub(crate) key: Option<String>,

    /// A schema from `tfr schema --format json`: forces the kind (int64,
    /// float, bytes) of each .json feature it names (nested objects are
    /// named a/b); others are inferred.
    #[arg(long, value_name = "FILE", conflicts_with = "keep_json")]
    pub(crate) schema: Option<PathBuf>,

    /// Keep each sample's .json whole, as one bytes feature (named json,
    /// or FEATURE), instead of a feature per key.
    #[arg(long, value_name = "FEATURE", num_args = 0..=1, default_missing_value = "json", require_equals = true)]
    pub(crate) keep_json: Option<String>,

    /// The largest member (and sample) held in memory (bytes; K, M, G
    /// suffixes): a larger one is refused with an error.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = crate::args::parse_size)]
    pub(crate) max_record_size: u64,

    /// Write the member feature OLD (its extension, its PAX name, or
    /// --keep-json's) as NEW (repeatable): `--rename jpg=image/encoded
    /// --rename png=image/encoded`. A .json's keys keep their names.
    #[arg(long, value_name = "OLD=NEW", value_parser = crate::args::parse_rename)]
    pub(crate) rename: Vec<(String, String)>,

    #[command(flatten)]
    pub(crate) aux: crate::args::AuxSizeArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &FromWdsArgs, ctx: &Ctx) -> Result<Exit> {
    let forced = args.payload.fixed();
    if let Some(t @ (MessageType::Raw | MessageType::Elwc)) = forced {
        bail!("--type {}: from-wds writes Examples and SequenceExamples", t.name());
    }
    crate::args::check_renames(&args.rename)?;
    let inputs = expand_as(&args.files, Looks::Tar)?;
    let aux: Vec<&std::path::Path> = args.schema.iter().map(|p| p.as_path()).collect();
    crate::io::same_file::refuse_input_as_output(&inputs, &aux, &args.output, "-o")?;
    if args.output.as_os_str() == "-" {
        bail!("-o -: from-wds writes a file (or an object)");
    }
    let jobs = args.jobs.get();
    let opts = FromOptions {
        forced,
        key: args.key.as_deref(),
        max_record_size: args.max_record_size,
        workers: crate::pipeline::workers(jobs),
        schema: args.schema.as_deref().map(|p| args.aux.read_kinds(p)).transpose()?,
        keep_json: args.keep_json.as_deref(),
        rename: &args.rename,
    };
    let sharding = args.sharding.sharding();
    if let Sharding::One = sharding {
        let compression = args.sharding.output.of(&args.output);
        let mut out = AtomicOutput::create_threaded(&args.output, compression, jobs)?;
        let progress = ctx.progress(crate::io::input::total_size(&inputs));
        let converted = convert(&inputs, &opts, &mut |run| Ok(out.write_all(run)?), &|bytes| {
            progress.update(bytes, 0)
        })?;
        progress.finish();
        out.commit()?;
        warn(&converted);
        return Ok(Exit::Success);
    }
    let forced_compression = args.sharding.output.forced();
    let mut out = ShardedOutput::create(&inputs, &args.output, sharding, forced_compression, jobs)?;
    if let Sharding::Shards(_) = sharding {
        out.set_total(count_samples(&inputs, args.max_record_size)?);
    }
    let progress = ctx.progress(crate::io::input::total_size(&inputs));
    let converted = convert(&inputs, &opts, &mut |run| out.write_run(run), &|bytes| {
        progress.update(bytes, 0)
    })?;
    progress.finish();
    let (records, shards) = out.finish()?;
    warn(&converted);
    // What was written, as reshard says it.
    let mut stdout = crate::output::stdout();
    writeln!(stdout, "{records} records into {shards} shards")?;
    stdout.flush()?;
    Ok(Exit::Success)
}

fn warn(converted: &Converted) {
    for line in converted.warnings() {
        crate::output::error_line(format_args!("{line}"));
    }
}

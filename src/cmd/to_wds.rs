//! `tfr to-wds`: records as WebDataset tar shards, one sample per record
//! ([`crate::formats::wds::write`]).

use crate::args::{InputArgs, JobsArg};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::formats::wds::write::{shard_path, stale_shards, write, OneValue, ToOptions};
use crate::io::input::show_path;
use crate::io::Input;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches::{self, Types};
use anyhow::{bail, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct ToWdsArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// The shards: DIR/NAME.tar writes DIR/NAME-000000.tar, ... (a local
    /// directory, created if missing, or an object-store prefix).
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    /// Shards of at most SIZE bytes (K, M, G: binary units); a sample
    /// larger than SIZE has a shard of its own.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = crate::args::parse_size)]
    pub(crate) shard_size: u64,

    /// At most N samples in a shard.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) shard_records: Option<u64>,

    /// Each sample's key from this feature's one value (its '.', '/' and
    /// control characters written '_'), instead of the record's number; a
    /// key given twice within a shard is an error.
    #[arg(long, value_name = "FEATURE")]
    pub(crate) key: Option<String>,

    /// The int64 feature written as KEY.cls [default: one named label or
    /// ending /label, with one value].
    #[arg(long, value_name = "FEATURE")]
    pub(crate) cls: Option<String>,

    /// Every feature in KEY.json as a list, as the JSONL mapping writes
    /// it ([7], ["cat"]), without the first pass over the records that
    /// finds the features holding one value in every record (written bare:
    /// 7, "cat"). Reading stdin, there is no first pass: lists.
    #[arg(long)]
    pub(crate) lists: bool,

    #[command(flatten)]
    pub(crate) payload: crate::args::DatasetTypeArg,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &ToWdsArgs, ctx: &Ctx) -> Result<Exit> {
    let out = &args.output;
    let lower = out.as_os_str().as_encoded_bytes().to_ascii_lowercase();
    if !lower.ends_with(b".tar") || out.file_name().is_none_or(|n| n.len() <= 4) {
        bail!(
            "-o {}: name the shards DIR/NAME.tar (NAME-000000.tar, NAME-000001.tar, ... are written)",
            show_path(out)
        );
    }
    let fixed = args.payload.fixed();
    if let Some(t @ (MessageType::Raw | MessageType::Elwc)) = fixed {
        bail!("--type {}: to-wds writes Examples and SequenceExamples", t.name());
    }
    let inputs = args.input.expand()?;
    let open = args.input.options();
    let how = batches::Reading {
        open: &open,
        types: Types::given(fixed, Types::Dataset),
        jobs: args.jobs.for_inputs(&inputs),
        range: batches::Range::default(),
        sample: None,
        probe_limit: false,
        filter: args.filter.get(),
    };
    let one_value = match args.lists || inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        true => None,
        false => Some(one_value(&inputs, args, ctx)?),
    };
    let opts = ToOptions {
        output: out,
        shard_size: args.shard_size,
        shard_records: args.shard_records,
        key: args.key.as_deref(),
        cls: args.cls.as_deref(),
        scalars: one_value.as_ref(),
    };
    let progress = ctx.progress(crate::io::input::total_size(&inputs));
    let update = |bytes, records| progress.update(bytes, records);
    let warn = |line: &str| output::error_line(format_args!("{line}"));
    let written = write(&inputs, &how, pipeline::workers(args.jobs.get()), &opts, &update, &warn);
    progress.finish();
    let written = written?;
    let made = written.shards;
    // Shards of an earlier, larger run with the same name are left alone
    // (they are not this run's to remove), but said: a glob over the shards
    // would read their samples too.
    let stale = stale_shards(out, made);
    if stale > 0 {
        output::error_line(format_args!(
            "warning: {stale} shard{} of an earlier run remain{} after these, from {}: a glob over the shards reads {} too (remove {})",
            if stale == 1 { "" } else { "s" },
            if stale == 1 { "s" } else { "" },
            show_path(&shard_path(out, made)),
            if stale == 1 { "it" } else { "them" },
            if stale == 1 { "it" } else { "them" },
        ));
    }
    let mut stdout = output::stdout();
    writeln!(
        stdout,
        "{} samples in {made} shard{}: {} ...",
        written.samples,
        if made == 1 { "" } else { "s" },
        show_path(&shard_path(out, 0))
    )?;
    stdout.flush()?;
    Ok(Exit::Success)
}

/// The first pass: which features hold one value in every record written.
fn one_value(inputs: &[Input], args: &ToWdsArgs, ctx: &Ctx) -> Result<OneValue> {
    let opts = crate::schema::Options {
        open: args.input.options(),
        ty: args.payload.fixed(),
        limit: None,
        workers: pipeline::workers(args.jobs.get()),
        keep: None,
        deep: false,
        light: true,
        filter: args.filter.get().cloned().map(std::sync::Arc::new),
        annotate: None,
    };
    let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(inputs));
    let progress = |bytes, records| bar.update(bytes, records);
    let (scan, error) = crate::schema::scan(inputs, &opts, &progress);
    bar.finish();
    match error {
        Some(e) => Err(e.into()),
        None => Ok(OneValue::of(&scan)),
    }
}

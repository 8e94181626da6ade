//! `tfr extract`: each value of one bytes feature to a file of its own
//! (images out of a dataset, an image folder per class):
//! [`crate::formats::files`].

use crate::args::{InputArgs, JobsArg, RangeArgs};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::formats::files::{extract, Target, Template};
use crate::io::input::show_path;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches::Types;
use anyhow::{bail, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct ExtractArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// The bytes feature whose values are written (an Example's feature, a
    /// SequenceExample's context feature).
    #[arg(long, value_name = "NAME", required = true)]
    pub(crate) feature: String,

    /// The directory the files go to (created if missing).
    #[arg(short = 'o', long, value_name = "DIR", required = true)]
    pub(crate) output: PathBuf,

    /// Each file's name: {record} (the record's number among those read,
    /// from 0; {record:06} zero-padded), {index} (its index in its input
    /// file), {value} (the value's index), {FEATURE} (that feature's one
    /// value), '{{' and '}}' for braces; the extension is added.
    #[arg(long, value_name = "TEMPLATE", default_value = "{record}")]
    pub(crate) name: String,

    #[command(flatten)]
    pub(crate) payload: crate::args::DatasetTypeArg,

    #[command(flatten)]
    pub(crate) range: RangeArgs,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &ExtractArgs, ctx: &Ctx) -> Result<Exit> {
    let template = Template::parse(&args.name)?;
    let inputs = args.input.expand()?;
    let fixed = args.payload.fixed();
    if let Some(t @ (MessageType::Raw | MessageType::Elwc)) = fixed {
        bail!(
            "--type {}: extract reads a feature of Examples (a SequenceExample's context)",
            t.name()
        );
    }
    let target = Target::prepare(&args.output)?;
    let jobs = args.jobs.get();
    let open = args.input.options();
    let mut how = args.range.reading(&open, fixed, jobs);
    how.types = Types::given(fixed, Types::Dataset);
    how.filter = args.filter.get();
    let progress = ctx.progress(crate::io::input::total_size(&inputs));
    let update = |bytes, records| progress.update(bytes, records);
    let workers = pipeline::workers(jobs);
    let done = extract(&inputs, &how, workers, &args.feature, &template, &target, &update);
    progress.finish();
    let done = done?;
    if done.missing > 0 {
        output::error_line(format_args!(
            "warning: {} of {} records have no feature {}: nothing written for them",
            done.missing,
            done.records,
            crate::io::input::escape_name(args.feature.as_bytes())
        ));
    }
    let dir = target.dir().to_path_buf();
    target.keep();
    let mut out = output::stdout();
    writeln!(out, "{} files written to {}", done.files, show_path(&dir))?;
    out.flush()?;
    Ok(Exit::Success)
}

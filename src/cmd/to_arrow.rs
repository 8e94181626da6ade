//! `tfr to-arrow`: records as an Arrow IPC file, or (`-o -`) an Arrow IPC
//! stream on stdout for programs that read Arrow batches from a pipe.
//!
//! The same columns as to-parquet ([`crate::args::ColumnArgs`]: a
//! schema pass or `--schema`), built on the workers, one record batch per
//! batch of records, written in record order by one thread; every batch
//! has the one schema written first. A stream is flushed whenever the
//! writer waits for records, so a reader gets each batch as it is made.
//! Payloads of any protobuf message (`--message`, event files) have the
//! columns of [`crate::proto::arrow`] instead (`run_message`).

use crate::args::{ColumnArgs, InputArgs, JobsArg, RangeArgs};
use crate::columnar::build::{Convert, Rows};
use crate::exit::Exit;
use crate::io::{AtomicOutput, Compression};
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches;
use anyhow::{bail, Result};
use arrow_ipc::writer::{FileWriter, StreamWriter};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct ToArrowArgs {
    /// The Arrow IPC file to write (Feather v2; a local path or an
    /// object-store URL), or '-': an Arrow IPC stream on stdout.
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) input: InputArgs,

    #[command(flatten)]
    pub(crate) columns: ColumnArgs,

    #[command(flatten)]
    pub(crate) range: RangeArgs,

    #[command(flatten)]
    pub(crate) proto: crate::args::ProtoArgs,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &ToArrowArgs, ctx: &Ctx) -> Result<Exit> {
    let stream = args.output.as_os_str() == "-";
    if stream && std::io::stdout().is_terminal() {
        bail!("refusing to write an Arrow stream to a terminal (pipe it, or use -o FILE)");
    }
    if args.proto.wanted(args.columns.payload, &args.input.files) {
        let inputs = args.input.expand()?;
        if let Some(message) = args.proto.message(args.columns.payload, &inputs)? {
            return run_message(args, ctx, &inputs, &message);
        }
    }
    let inputs = args.input.expand()?;
    let jobs = args.jobs.get();
    let aux: Vec<&std::path::Path> = args.columns.schema.iter().map(|p| p.as_path()).collect();
    crate::io::same_file::refuse_input_as_output(&inputs, &aux, &args.output, "-o")?;
    let columns = args.columns.columns(&args.input, jobs)?;
    let warn = |line: &str| output::error_line(format_args!("{line}"));
    let planned = columns.plan(&inputs, false, &|total| ctx.lazy_pass(total), &warn)?;
    let convert = Convert::new(
        planned.plan.clone(),
        columns.wanted(&planned.plan),
        args.columns.schema.is_some(),
    );
    let mut how = columns.reading(&planned.plan, jobs)?;
    let range = args.range.reading(&columns.open, None, jobs);
    (how.range, how.sample) = (range.range, range.sample);
    let check = || convert.nothing_planned_error().map_or(Ok(()), |e| Err(e.into()));
    write(args, ctx, &inputs, &how, &convert, &convert.schema(), &check)?;
    if let Some(w) = convert.unplanned_warning() {
        output::error_line(format_args!("{w}"));
    }
    Ok(Exit::Success)
}

/// The payloads of `inputs` as rows of `message`'s columns
/// ([`crate::proto::arrow`]).
fn run_message(
    args: &ToArrowArgs,
    ctx: &Ctx,
    inputs: &[crate::io::Input],
    message: &crate::proto::Message,
) -> Result<Exit> {
    let (layout, warnings) = args.columns.message_layout(message)?;
    for w in warnings {
        output::error_line(format_args!("{w}"));
    }
    crate::io::same_file::refuse_input_as_output(inputs, &[], &args.output, "-o")?;
    let jobs = args.jobs.get();
    let open = args.input.options();
    let filter = args.columns.filter.for_message(Some(message))?;
    let mut how = args.range.reading(&open, Some(crate::example::MessageType::Raw), jobs);
    how.filter = filter.as_ref();
    let work = crate::proto::arrow::MessageWork::new(message, &layout);
    write(args, ctx, inputs, &how, &work, &layout.schema(), &|| Ok(()))?;
    if let Some(w) = work.warning() {
        output::error_line(format_args!("{w}"));
    }
    Ok(Exit::Success)
}

/// Writes what `work` makes of the records of `inputs` (read as `how`
/// says) as an Arrow IPC file or stream of `schema`; `check` runs after
/// the last record, before the output is finished.
fn write<W: batches::Work<Out = Rows>>(
    args: &ToArrowArgs,
    ctx: &Ctx,
    inputs: &[crate::io::Input],
    how: &batches::Reading<'_>,
    work: &W,
    schema: &arrow_schema::Schema,
    check: &dyn Fn() -> Result<()>,
) -> Result<()> {
    let jobs = args.jobs.get();
    let stream = args.output.as_os_str() == "-";
    let progress = ctx.progress(if stream {
        None
    } else {
        crate::io::input::total_size(inputs)
    });
    let update = |bytes, records| progress.update(bytes, records);
    // A closed pipe stays an io::Error of its kind (a quiet exit 0).
    let io_err = |e: arrow_schema::ArrowError| match e {
        arrow_schema::ArrowError::IoError(_, e) => e,
        e => std::io::Error::other(e.to_string()),
    };
    // The records converted into `sink`; an error, or no column planned,
    // before the output is finished.
    let convert_into = |sink: &mut (dyn FnMut(&Rows) -> std::io::Result<()> + Send)| -> Result<()> {
        let (_, result) = batches::run(inputs, how, pipeline::workers(jobs), work, sink, &update);
        progress.finish();
        result?;
        check()
    };
    if stream {
        let out = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout());
        let mut writer = StreamWriter::try_new(out, schema).map_err(io_err)?;
        // The schema goes out at once: a reader knows the columns before
        // the first batch is ready.
        writer.flush().map_err(io_err)?;
        convert_into(&mut |rows: &Rows| {
            if rows.batches.is_empty() {
                return writer.flush().map_err(io_err);
            }
            rows.batches.iter().try_for_each(|b| writer.write(b).map_err(io_err))
        })?;
        // The stream's end marker only after every record converted.
        writer.finish().map_err(io_err)?;
        writer.into_inner().map_err(io_err)?.flush()?;
    } else {
        let out = AtomicOutput::create(&args.output, Compression::None)?;
        let mut writer = FileWriter::try_new(out, schema)?;
        convert_into(&mut |rows: &Rows| rows.batches.iter().try_for_each(|b| writer.write(b).map_err(io_err)))?;
        writer.finish()?;
        writer.into_inner()?.commit()?;
    }
    Ok(())
}

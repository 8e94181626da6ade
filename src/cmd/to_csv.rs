//! `tfr to-csv`: records as CSV rows, one per record, a header of feature
//! names first ([`crate::formats::csv`]).
//!
//! The columns come from a schema: a pass over the inputs first
//! ([`schema::scan`], the scan of `tfr schema`), or `--schema FILE` (the
//! JSON `tfr schema -f json` writes), which skips it. The rows go to
//! stdout or through an [`AtomicOutput`] (`-o`).

use crate::args::{AuxSizeArg, InputArgs, JobsArg};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::formats::csv::{self as csv_out, columns_of, Lists};
use crate::io::Input;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches::Types;
use crate::schema;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct ToCsvArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    #[command(flatten)]
    pub(crate) payload: crate::args::DatasetTypeArg,

    #[command(flatten)]
    pub(crate) output: crate::args::TextOutputArg,

    /// The columns from this schema (the JSON of `tfr schema -f json`)
    /// instead of a first pass over the inputs (needed for stdin).
    /// Features of the records that it does not name are left out.
    #[arg(long, short = 's', value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    /// Features with more than one value in some record: a JSON array in
    /// the cell (json), or left out with a note (omit).
    #[arg(long, value_enum, default_value_t = ListsArg::Json, value_name = "HOW")]
    pub(crate) lists: ListsArg,

    /// For a spreadsheet: a text cell or feature name that begins with
    /// '=', '+', '-', '@', a tab, a carriage return or a NUL (which a
    /// spreadsheet reads as a formula: `=HYPERLINK(...)` makes a link
    /// that sends data away, `=cmd|...` can start a program) gets a leading
    /// "'", so it is shown as text. Numbers (int64 and float cells, `-3`,
    /// `-Infinity`) are left as they are; JSON cells begin with '[' or '{'.
    #[arg(long)]
    pub(crate) safe_spreadsheet: bool,

    #[command(flatten)]
    pub(crate) pick: crate::args::PickArgs,

    #[command(flatten)]
    pub(crate) aux: AuxSizeArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// The schema document the columns come from (`--schema`, or a first
/// pass), and where a first pass stopped at damage (its error and the
/// records before it): the columns of the records before it (and the rows
/// are theirs, then the same error, as to-jsonl gives).
fn schema_doc(
    args: &ToCsvArgs,
    ctx: &Ctx,
    inputs: &[Input],
    fixed: Option<MessageType>,
) -> Result<(serde_json::Value, Option<(anyhow::Error, u64)>)> {
    if let Some(path) = &args.schema {
        let bytes = args.aux.read(path)?;
        let doc = serde_json::from_slice::<serde_json::Value>(&bytes)
            .with_context(|| format!("--schema {}: not JSON", crate::io::input::show_path(path)))?;
        return Ok((doc, None));
    }
    if inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        bail!("to-csv reads its inputs twice (the columns from a first pass): stdin cannot be; give --schema FILE (from `tfr schema -f json`)");
    }
    // With -n (and no --sample) the rows are the first skip + n
    // records (matches, with --where): the columns are theirs, and
    // the pass stops there, as the writing pass does.
    let limit = match args.pick.range.sample {
        None => args.pick.range.limit.map(|n| n.saturating_add(args.pick.range.skip)),
        Some(_) => None,
    };
    let opts = schema::Options {
        open: args.input.options(),
        ty: fixed,
        limit,
        workers: pipeline::workers(args.jobs.get()),
        // The columns chosen by --features are the ones tracked.
        keep: args
            .pick
            .select
            .projection()
            .map(|p| schema::KeepShared(std::sync::Arc::new(move |key: &str| p.keeps(key)))),
        deep: false,
        light: false,
        filter: args.pick.filter.get().cloned().map(std::sync::Arc::new),
        annotate: None,
    };
    let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(inputs));
    let progress = |bytes, records| bar.update(bytes, records);
    let (scan, error) = schema::scan(inputs, &opts, &progress);
    let error = error.map(anyhow::Error::from);
    bar.finish();
    let stopped = match error {
        Some(e) if scan.stats.records <= args.pick.range.skip => return Err(e),
        Some(e) => Some((e, scan.stats.records)),
        None => None,
    };
    let doc = schema::json::to_json(&scan);
    // Features past the scan's tracking limit have no column: an
    // error rather than a CSV that silently lacks them.
    if let Some(e) = csv_out::untracked(&doc, schema::stats::MAX_FEATURES) {
        return Err(e.into());
    }
    Ok((doc, stopped))
}

pub(crate) fn run(args: &ToCsvArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    let aux: Vec<&std::path::Path> = args.schema.iter().map(|p| p.as_path()).collect();
    // Opened first: an unwritable target fails before any work.
    let mut target = super::TextTarget::open(&args.output, &inputs, &aux)?;
    let fixed = args.payload.fixed();
    if let Some(t @ (MessageType::Raw | MessageType::Elwc)) = fixed {
        bail!(
            "--type {}: to-csv writes the features of Examples and SequenceExamples",
            t.name()
        );
    }
    let projection = args.pick.select.projection();
    let keep = |key: &str| projection.as_ref().is_none_or(|p| p.keeps(key));
    let (doc, stopped) = schema_doc(args, ctx, &inputs, fixed)?;
    let (schema_ty, all, lists) = columns_of(&doc).with_context(|| match &args.schema {
        Some(p) => format!("--schema {}", crate::io::input::show_path(p)),
        None => "the schema pass".to_string(),
    })?;
    let (columns, omitted) = csv_out::choose(all, keep, args.lists.into());
    warn_columns(args, &omitted, lists, columns.is_empty());
    let jobs = args.jobs.get();
    let progress = ctx.progress(None);
    let written = {
        let flush_idle = target.flush_idle();
        let out = target.writer();
        let open = args.input.options();
        let update = |bytes, records| progress.update(bytes, records);
        let mut how = args.pick.range.reading(&open, fixed, jobs);
        how.types = Types::given(fixed.or(schema_ty), Types::Dataset);
        how.filter = args.pick.filter.get();
        if let Some((_, records)) = &stopped {
            let before = records - args.pick.range.skip;
            how.range.limit = Some(how.range.limit.map_or(before, |n| n.min(before)));
        }
        let workers = pipeline::workers(jobs);
        let table = csv_out::Table {
            columns: &columns,
            safe: args.safe_spreadsheet,
        };
        csv_out::write(&inputs, &how, workers, &table, out, flush_idle, &update)?
    };
    let records = written.records;
    if let Some(path) = args.schema.as_ref().filter(|_| records > 0 && written.with_cells == 0) {
        if !columns.is_empty() {
            output::error_line(format_args!(
                "warning: --schema {}: none of its {} column(s) is a feature of the {records} record(s) written: every cell is empty",
                crate::io::input::show_path(path),
                columns.len()
            ));
        }
    }
    if let Some((e, _)) = stopped {
        // The rows before the damage are out (on stdout); a file is not kept.
        return Err(e);
    }
    target.commit(projection.as_ref())
}

/// The warnings about the columns: those left out by `--lists omit`, the
/// feature lists left out, no columns at all.
fn warn_columns(args: &ToCsvArgs, omitted: &[String], lists: usize, none: bool) {
    if !omitted.is_empty() {
        output::error_line(format_args!(
            "warning: {} feature(s) with more than one value left out (--lists omit): {}",
            omitted.len(),
            crate::io::input::escape_name(omitted.join(", ").as_bytes())
        ));
    }
    if lists > 0 {
        output::error_line(format_args!(
            "warning: the {lists} feature list(s) of the SequenceExamples are left out: CSV holds their context features"
        ));
    }
    // No column: CSV has no line for a row of no cells (the csv crate
    // writes `""`, a cell with an empty name or value), so nothing is
    // written.
    if none {
        output::error_line(format_args!(
            "warning: no columns (no feature in the records{}): nothing is written",
            if args.schema.is_some() {
                " of --schema"
            } else {
                " read, or none kept"
            }
        ));
    }
}

/// `--lists`: how a feature with several values goes in a cell (the
/// format's [`Lists`], as a flag value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ListsArg {
    /// A JSON array in the cell (the JSONL mapping of the feature).
    Json,
    /// Left out (one note on stderr names them).
    Omit,
}

impl From<ListsArg> for Lists {
    fn from(l: ListsArg) -> Lists {
        match l {
            ListsArg::Json => Lists::Json,
            ListsArg::Omit => Lists::Omit,
        }
    }
}

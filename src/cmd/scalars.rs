//! `tfr scalars`: every scalar of every run under TensorBoard log
//! directories as one table ([`crate::proto::scalars`]): run, tag, step,
//! wall_time, value; as a table, CSV, JSON lines or Parquet.

use crate::args::{JobsArg, TextOutputArg};
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::proto::scalars::{event_files, read_file, FileScalars, Table};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::Write;

/// How the table is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ScalarsFormat {
    /// Aligned columns.
    Table,
    /// CSV with a header (floats as Python writes them: NaN empty, inf).
    Csv,
    /// One JSON object a line.
    Jsonl,
    /// A Parquet file (needs -o): run, tag (string), step (int64),
    /// wall_time, value (double).
    Parquet,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct ScalarsArgs {
    /// Log directories (local, or object-store prefixes ending with /), or
    /// event files.
    #[arg(value_name = "LOGDIR", required = true)]
    pub(crate) logdirs: Vec<std::ffi::OsString>,

    /// Output form.
    #[arg(short = 'f', long, value_enum, default_value_t = ScalarsFormat::Table)]
    pub(crate) format: ScalarsFormat,

    #[command(flatten)]
    pub(crate) output: TextOutputArg,

    /// Only tags this regular expression finds a match in (`--tags '^loss'`).
    #[arg(long, value_name = "REGEX")]
    pub(crate) tags: Option<String>,

    /// Only runs this regular expression finds a match in (the run of a
    /// file directly in LOGDIR is the empty string).
    #[arg(long, value_name = "REGEX")]
    pub(crate) runs: Option<String>,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &ScalarsArgs, ctx: &Ctx) -> Result<Exit> {
    let regex = |what: &str, r: &Option<String>| -> Result<Option<regex::Regex>> {
        r.as_deref()
            .map(|r| regex::Regex::new(r).with_context(|| format!("--{what} {r:?}: not a regular expression")))
            .transpose()
    };
    let (tags, runs) = (regex("tags", &args.tags)?, regex("runs", &args.runs)?);
    if args.format == ScalarsFormat::Parquet && args.output.output.as_ref().is_none_or(|p| p.as_os_str() == "-") {
        bail!("-f parquet writes a file: give -o FILE.parquet");
    }
    let several = args.logdirs.len() > 1;
    let mut files = Vec::new();
    for logdir in &args.logdirs {
        let shown = logdir.to_string_lossy().trim_end_matches('/').to_string();
        for (input, run) in event_files(logdir)? {
            // Several log directories: runs are named below each.
            let run = match (several, run.is_empty()) {
                (false, _) => run,
                (true, true) => shown.clone(),
                (true, false) => format!("{shown}/{run}"),
            };
            if runs.as_ref().is_none_or(|r| r.is_match(&run)) {
                files.push((input, run));
            }
        }
    }
    if files.is_empty() {
        output::error_line(format_args!(
            "warning: no event files (names holding \"tfevents\") found"
        ));
    }
    let table = read_all(&files, args, ctx, tags.as_ref())?;
    let inputs: Vec<crate::io::Input> = files.into_iter().map(|f| f.0).collect();
    write(&table, args, &inputs)?;
    Ok(Exit::Success)
}

/// Reads the files (several at once), adding them in order.
fn read_all(
    files: &[(crate::io::Input, String)],
    args: &ScalarsArgs,
    ctx: &Ctx,
    tags: Option<&regex::Regex>,
) -> Result<Table> {
    let open = crate::record::OpenOptions::default();
    let jobs = args.jobs.get().max(1);
    let progress = ctx.progress(Some(files.len() as u64));
    let mut table = Table::default();
    for chunk in files.chunks(jobs) {
        let read: Vec<Result<FileScalars, tfr_engine::Error>> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|(input, _)| s.spawn(|| read_file(input, &open)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(tfr_engine::Error::msg("a reader panicked")))
                })
                .collect()
        });
        for ((_, run), file) in chunk.iter().zip(read) {
            let file = file?;
            if let Some(damage) = &file.damage {
                // As TensorBoard reads a file being appended to: every
                // intact event, then a warning.
                output::error_line(format_args!("warning: {damage} (the events before it are read)"));
            }
            table.add(run, file, |t| tags.is_none_or(|r| r.is_match(t)));
        }
        progress.update(0, table.rows.len() as u64);
    }
    table.sort();
    Ok(table)
}

/// Writes the table in the chosen form.
fn write(table: &Table, args: &ScalarsArgs, inputs: &[crate::io::Input]) -> Result<()> {
    if args.format == ScalarsFormat::Parquet {
        let path = args.output.output.as_ref().context("-o")?;
        crate::io::same_file::refuse_input_as_output(inputs, &[], path, "-o")?;
        return crate::proto::scalars_parquet::write(table, path).map_err(anyhow::Error::from);
    }
    let mut target = super::TextTarget::open(&args.output, inputs, &[])?;
    let out = target.writer();
    match args.format {
        ScalarsFormat::Csv => csv(table, out)?,
        ScalarsFormat::Jsonl => jsonl(table, out)?,
        _ => aligned(table, out)?,
    }
    target.commit(None)?;
    Ok(())
}

/// A float as Python writes it (`repr`); `nan` as given.
fn float(v: f64, nan: &str) -> String {
    if v.is_nan() {
        return nan.to_string();
    }
    let mut out = Vec::new();
    crate::example::text::write_double(v, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    match s.contains([',', '"', '\n', '\r']) {
        true => format!("\"{}\"", s.replace('"', "\"\"")),
        false => s.to_string(),
    }
}

fn csv(table: &Table, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "run,tag,step,wall_time,value")?;
    for r in &table.rows {
        writeln!(
            out,
            "{},{},{},{},{}",
            csv_field(&table.runs[r.run as usize]),
            csv_field(&table.tags[r.tag as usize]),
            r.step,
            float(r.wall_time, ""),
            float(r.value, "")
        )?;
    }
    Ok(())
}

/// A JSON number, or `"NaN"`/`"Infinity"`/`"-Infinity"` (as to-jsonl writes them).
fn json_float(v: f64) -> String {
    match (v.is_nan(), v.is_infinite()) {
        (true, _) => "\"NaN\"".into(),
        (_, true) if v > 0.0 => "\"Infinity\"".into(),
        (_, true) => "\"-Infinity\"".into(),
        _ => float(v, ""),
    }
}

fn jsonl(table: &Table, out: &mut dyn Write) -> Result<()> {
    for r in &table.rows {
        writeln!(
            out,
            "{{\"run\":{},\"tag\":{},\"step\":{},\"wall_time\":{},\"value\":{}}}",
            serde_json::to_string(&table.runs[r.run as usize])?,
            serde_json::to_string(&table.tags[r.tag as usize])?,
            r.step,
            json_float(r.wall_time),
            json_float(r.value)
        )?;
    }
    Ok(())
}

/// Aligned columns: text left, numbers right; control characters in
/// names escaped.
fn aligned(table: &Table, out: &mut dyn Write) -> Result<()> {
    let runs: Vec<String> = table
        .runs
        .iter()
        .map(|r| output::escape_controls(r).into_owned())
        .collect();
    let tags: Vec<String> = table
        .tags
        .iter()
        .map(|t| output::escape_controls(t).into_owned())
        .collect();
    let width = |names: &[String], head: &str| {
        names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(head.len())
    };
    let (rw, tw) = (width(&runs, "run"), width(&tags, "tag"));
    let cells: Vec<[String; 3]> = table
        .rows
        .iter()
        .map(|r| [r.step.to_string(), float(r.wall_time, "nan"), float(r.value, "nan")])
        .collect();
    let col = |i: usize, head: &str| cells.iter().map(|c| c[i].len()).max().unwrap_or(0).max(head.len());
    let (sw, ww, vw) = (col(0, "step"), col(1, "wall_time"), col(2, "value"));
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    writeln!(
        out,
        "{}  {}  {:>sw$}  {:>ww$}  {:>vw$}",
        pad("run", rw),
        pad("tag", tw),
        "step",
        "wall_time",
        "value"
    )?;
    for (r, c) in table.rows.iter().zip(&cells) {
        writeln!(
            out,
            "{}  {}  {:>sw$}  {:>ww$}  {:>vw$}",
            pad(&runs[r.run as usize], rw),
            pad(&tags[r.tag as usize], tw),
            c[0],
            c[1],
            c[2]
        )?;
    }
    Ok(())
}

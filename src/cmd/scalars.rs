//! `tfr scalars`: every scalar of every run under TensorBoard log
//! directories as one table ([`crate::proto::scalars`]): run, tag, step,
//! wall_time, value; as a table, CSV, JSON lines or Parquet.

use crate::args::{JobsArg, TextOutputArg};
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::proto::scalars::{event_files, read_file, FileScalars, Point, Table};
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
            .map(|r| {
                regex::Regex::new(r).map_err(|e| {
                    // The regex crate's message spans lines: one line here.
                    let why = e.to_string().lines().last().unwrap_or_default().trim().to_string();
                    anyhow::anyhow!("--{what} {r:?}: not a regular expression: {why}")
                })
            })
            .transpose()
    };
    let (tags, runs) = (regex("tags", &args.tags)?, regex("runs", &args.runs)?);
    if args.format == ScalarsFormat::Parquet && args.output.output.as_ref().is_none_or(|p| p.as_os_str() == "-") {
        bail!("-f parquet writes a file: give -o FILE.parquet");
    }
    let several = args.logdirs.len() > 1;
    let mut files = Vec::new();
    for logdir in &args.logdirs {
        // As inputs are shown: a URL's query (a signed URL's credential)
        // redacted, control characters escaped.
        let shown = match crate::io::remote::parse(logdir.as_encoded_bytes()) {
            Some(_) => crate::io::Input::Url(logdir.to_string_lossy().into_owned()).display(),
            None => crate::io::input::escape_name(logdir.as_encoded_bytes()),
        };
        let shown = shown.trim_end_matches('/').to_string();
        let (found, skipped) = event_files(logdir)?;
        for dir in skipped {
            output::error_line(format_args!(
                "warning: {}: a directory already read (through a symbolic link), not read again",
                output::escape_controls(&dir)
            ));
        }
        for (input, run) in found {
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
    let mut table = read_all(&files, args, ctx, tags.as_ref())?;
    let inputs: Vec<crate::io::Input> = files.into_iter().map(|f| f.0).collect();
    write(&table.sorted(), args, &inputs)?;
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
        progress.update(0, table.len as u64);
    }
    Ok(table)
}

/// The series as sorted.
type Series<'a> = [(&'a str, &'a str, &'a [Point])];

/// Writes the table in the chosen form.
fn write(series: &Series<'_>, args: &ScalarsArgs, inputs: &[crate::io::Input]) -> Result<()> {
    if args.format == ScalarsFormat::Parquet {
        let path = args.output.output.as_ref().context("-o")?;
        crate::io::same_file::refuse_input_as_output(inputs, &[], path, "-o")?;
        #[cfg(feature = "parquet")]
        return crate::proto::scalars_parquet::write(series, path).map_err(anyhow::Error::from);
        #[cfg(not(feature = "parquet"))]
        bail!("-f parquet: this tfr was built without Parquet (the cargo feature `parquet`)");
    }
    let mut target = super::TextTarget::open(&args.output, inputs, &[])?;
    let out = target.writer();
    match args.format {
        ScalarsFormat::Csv => csv(series, out)?,
        ScalarsFormat::Jsonl => jsonl(series, out)?,
        _ => aligned(series, out)?,
    }
    target.commit(None)?;
    Ok(())
}

/// Appends a float as Python writes it (`repr`); NaN as `nan`.
fn float(v: f64, nan: &[u8], out: &mut Vec<u8>) {
    match v.is_nan() {
        true => out.extend_from_slice(nan),
        false => crate::example::text::write_double(v, out),
    }
}

/// Appends a CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str, out: &mut Vec<u8>) {
    match s.contains([',', '"', '\n', '\r']) {
        true => {
            out.push(b'"');
            out.extend_from_slice(s.replace('"', "\"\"").as_bytes());
            out.push(b'"');
        }
        false => out.extend_from_slice(s.as_bytes()),
    }
}

/// Writes `buf` once it holds 1 MiB (and at the end).
fn spill(buf: &mut Vec<u8>, out: &mut dyn Write, end: bool) -> Result<()> {
    if end || buf.len() >= 1 << 20 {
        out.write_all(buf).context("writing output")?;
        buf.clear();
    }
    Ok(())
}

fn csv(series: &Series<'_>, out: &mut dyn Write) -> Result<()> {
    let mut buf = b"run,tag,step,wall_time,value\n".to_vec();
    let mut num = itoa::Buffer::new();
    for (run, tag, points) in series {
        let (mut head, mut tail) = (Vec::new(), Vec::new());
        csv_field(run, &mut head);
        head.push(b',');
        csv_field(tag, &mut tail);
        for p in *points {
            buf.extend_from_slice(&head);
            buf.extend_from_slice(&tail);
            buf.push(b',');
            buf.extend_from_slice(num.format(p.step).as_bytes());
            buf.push(b',');
            float(p.wall_time, b"", &mut buf);
            buf.push(b',');
            float(p.value, b"", &mut buf);
            buf.push(b'\n');
            spill(&mut buf, out, false)?;
        }
    }
    spill(&mut buf, out, true)
}

/// Appends a JSON number, or `"NaN"`/`"Infinity"`/`"-Infinity"` (as
/// to-jsonl writes them).
fn json_float(v: f64, out: &mut Vec<u8>) {
    match (v.is_nan(), v.is_infinite()) {
        (true, _) => out.extend_from_slice(b"\"NaN\""),
        (_, true) if v > 0.0 => out.extend_from_slice(b"\"Infinity\""),
        (_, true) => out.extend_from_slice(b"\"-Infinity\""),
        _ => float(v, b"", out),
    }
}

fn jsonl(series: &Series<'_>, out: &mut dyn Write) -> Result<()> {
    let mut buf = Vec::new();
    let mut num = itoa::Buffer::new();
    for (run, tag, points) in series {
        let head = format!(
            "{{\"run\":{},\"tag\":{},\"step\":",
            serde_json::to_string(run)?,
            serde_json::to_string(tag)?
        );
        for p in *points {
            buf.extend_from_slice(head.as_bytes());
            buf.extend_from_slice(num.format(p.step).as_bytes());
            buf.extend_from_slice(b",\"wall_time\":");
            json_float(p.wall_time, &mut buf);
            buf.extend_from_slice(b",\"value\":");
            json_float(p.value, &mut buf);
            buf.extend_from_slice(b"}\n");
            spill(&mut buf, out, false)?;
        }
    }
    spill(&mut buf, out, true)
}

/// Aligned columns: text left, numbers right; control characters in
/// names escaped.
fn aligned(series: &Series<'_>, out: &mut dyn Write) -> Result<()> {
    let text = |v: f64| {
        let mut b = Vec::new();
        float(v, b"nan", &mut b);
        String::from_utf8_lossy(&b).into_owned()
    };
    let names: Vec<(String, String)> = series
        .iter()
        .map(|(r, t, _)| {
            (
                output::escape_controls(r).into_owned(),
                output::escape_controls(t).into_owned(),
            )
        })
        .collect();
    let width =
        |w: &dyn Fn(&(String, String)) -> usize, head: &str| names.iter().map(w).max().unwrap_or(0).max(head.len());
    let (rw, tw) = (
        width(&|n| n.0.chars().count(), "run"),
        width(&|n| n.1.chars().count(), "tag"),
    );
    let points = || series.iter().flat_map(|s| s.2.iter());
    let sw = points().map(|p| p.step.to_string().len()).max().unwrap_or(0).max(4);
    let ww = points().map(|p| text(p.wall_time).len()).max().unwrap_or(0).max(9);
    let vw = points().map(|p| text(p.value).len()).max().unwrap_or(0).max(5);
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    let mut buf = format!(
        "{}  {}  {:>sw$}  {:>ww$}  {:>vw$}\n",
        pad("run", rw),
        pad("tag", tw),
        "step",
        "wall_time",
        "value"
    )
    .into_bytes();
    for ((_, _, pts), (run, tag)) in series.iter().zip(&names) {
        let (run, tag) = (pad(run, rw), pad(tag, tw));
        for p in *pts {
            let line = format!(
                "{run}  {tag}  {:>sw$}  {:>ww$}  {:>vw$}\n",
                p.step,
                text(p.wall_time),
                text(p.value)
            );
            buf.extend_from_slice(line.as_bytes());
            spill(&mut buf, out, false)?;
        }
    }
    spill(&mut buf, out, true)
}

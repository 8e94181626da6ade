//! `tfr count`: records per input, by hopping from header to header.

use crate::args::{InputArgs, JobsArg};
use crate::exit::Exit;
use crate::io::Input;
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::record::{self, Check, ReadError, RecordReader};
use anyhow::{Context, Result};
use clap::Args;
use comfy_table::CellAlignment;
use std::io::Write;

#[derive(Args, Debug, Clone)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Print JSON: {"files": [{"file", "records"[, "error"]}], "total"}.
    #[arg(long)]
    pub(crate) json: bool,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// One row of output.
struct Row {
    name: String,
    records: u64,
    error: Option<String>,
}

/// The count of one input.
struct FileCount {
    name: String,
    records: u64,
    /// Why the input could not be opened or read to the end.
    error: Option<anyhow::Error>,
}

pub(crate) fn run(args: &CountArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    let total_bytes = crate::io::input::total_size(&inputs);
    let progress = ctx.progress(total_bytes);
    let jobs = args.jobs.for_inputs(&inputs);
    let counts = if inputs.len() == 1 {
        // One input: its threads hop through parts of it.
        vec![count_input(&inputs[0], args, jobs, &progress)]
    } else {
        count_parallel(&inputs, args, jobs.min(inputs.len()), &progress)
    };
    progress.finish();
    let mut exit = Exit::Success;
    let single = counts.len() == 1 && !args.json;
    let mut rows = Vec::with_capacity(counts.len());
    for c in counts {
        if let Some(e) = c.error {
            if single {
                return Err(e);
            }
            output::error_line(format_args!("{e:#}"));
            exit = Exit::Error;
            rows.push(Row {
                name: c.name,
                records: c.records,
                error: Some(format!("{e:#}")),
            });
        } else {
            rows.push(Row {
                name: c.name,
                records: c.records,
                error: None,
            });
        }
    }
    let mut out = output::stdout();
    let written = (|| -> Result<()> {
        if args.json {
            write_json(&mut out, &rows)?;
        } else if rows.len() == 1 {
            writeln!(out, "{}", rows[0].records)?;
        } else {
            write_table(&mut out, &rows)?;
        }
        out.flush().context("writing output")
    })();
    output::keep_verdict(written, exit)
}

/// Counts inputs on `jobs` threads, each taking the next uncounted input;
/// results come back in input order.
fn count_parallel(inputs: &[Input], args: &CountArgs, jobs: usize, progress: &output::Progress) -> Vec<FileCount> {
    let mut counts = Vec::with_capacity(inputs.len());
    let read = |i: usize, emit: &mut dyn FnMut(FileCount) -> Result<(), pipeline::Stopped>| {
        emit(count_input(&inputs[i], args, 1, progress))?;
        Ok(())
    };
    pipeline::in_input_order(inputs.len(), jobs, read, |c| {
        counts.push(c);
        Ok(())
    })
    .expect("counting reports errors per input");
    counts
}

/// Opens and counts one input on up to `jobs` threads; an error keeps the
/// records counted before it.
fn count_input(input: &Input, args: &CountArgs, jobs: usize, progress: &output::Progress) -> FileCount {
    let name = input.display();
    let mut reader = match args.input.open(input) {
        Ok(r) => r,
        Err(e) => {
            return FileCount {
                name,
                records: 0,
                error: Some(e),
            }
        }
    };
    // A large plain file: threads hop through parts of it, and the count
    // below goes on from where they stopped (at the end, for a clean file).
    if let Some((file, size)) = reader.shared_file() {
        let prefix = record::clean_prefix(&file, size, jobs, Check::Headers, &|b, r| progress.add(b, r));
        if prefix.end > 0 {
            if let Err(e) = reader.seek_to(prefix.end, prefix.records) {
                return FileCount {
                    records: prefix.records,
                    error: Some(anyhow::Error::new(e).context(format!("{name}: seek failed"))),
                    name,
                };
            }
        }
    }
    let (mut shown_at, mut shown) = (reader.offset(), reader.index());
    let result = count_records(&mut reader, |bytes, records| {
        progress.add((bytes - shown_at) as i64, (records - shown) as i64);
        (shown_at, shown) = (bytes, records);
    });
    match result {
        Ok(records) => FileCount {
            name,
            records,
            error: None,
        },
        Err(e) => FileCount {
            name,
            records: reader.index(),
            error: Some(record::read_error(input, e)),
        },
    }
}

/// Counts the records of one input, from where the reader stands: header
/// hops (no payload held, no data CRC; plain files are not even read
/// between headers, compressed input is inflated and stepped over). Returns the reader's record index at the end.
pub(crate) fn count_records(reader: &mut RecordReader, mut progress: impl FnMut(u64, u64)) -> Result<u64, ReadError> {
    let mut n = reader.index();
    // Payloads are stepped over, never held (seeking on plain files).
    while reader.skip_record()?.is_some() {
        n += 1;
        if n & 0xffff == 0 {
            progress(reader.offset(), n);
        }
    }
    Ok(n)
}

fn write_json(out: &mut dyn Write, counts: &[Row]) -> Result<()> {
    let files: Vec<serde_json::Value> = counts
        .iter()
        .map(|c| {
            let mut v = serde_json::json!({"file": c.name, "records": c.records});
            if let Some(e) = &c.error {
                v["error"] = serde_json::Value::String(output::escape_controls(e).into_owned());
            }
            v
        })
        .collect();
    let total: u64 = counts.iter().map(|c| c.records).sum();
    let doc = serde_json::json!({"files": files, "total": total});
    writeln!(out, "{doc}")?;
    Ok(())
}

fn write_table(out: &mut dyn Write, counts: &[Row]) -> Result<()> {
    let mut table = output::table();
    table.set_header(vec!["file", "records"]);
    for c in counts {
        let records = match &c.error {
            Some(_) => format!("{} (error)", c.records),
            None => c.records.to_string(),
        };
        table.add_row(vec![c.name.clone(), records]);
    }
    let total: u64 = counts.iter().map(|c| c.records).sum();
    table.add_row(vec!["total".to_string(), total.to_string()]);
    if let Some(col) = table.column_mut(1) {
        col.set_cell_alignment(CellAlignment::Right);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

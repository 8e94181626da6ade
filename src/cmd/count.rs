//! `tfr count`: records per input, by hopping from header to header.

use crate::cli::{InputArgs, JobsArg};
use crate::exit::Exit;
use crate::input::Input;
use crate::output::{self, Ctx};
use crate::record::{Compression, ReadError, RecordReader};
use anyhow::{Context, Result};
use clap::Args;
use comfy_table::CellAlignment;
use std::io::Write;

#[derive(Args, Debug, Clone)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Print JSON: {"files": [{"file", "records"[, "error"]}], "total"}.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub jobs: JobsArg,
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
    /// Bytes of the input walked (for progress).
    bytes: u64,
}

pub fn run(args: &CountArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = super::inputs(&args.input)?;
    let total_bytes = crate::input::total_size(&inputs);
    let progress = ctx.progress(total_bytes);
    let jobs = args.jobs.get().clamp(1, inputs.len().max(1));
    let counts = if jobs == 1 {
        let mut done = 0u64;
        let mut counts = Vec::with_capacity(inputs.len());
        for input in &inputs {
            let c = count_input(input, args, |bytes, records| progress.update(done + bytes, records));
            done += c.bytes;
            counts.push(c);
        }
        counts
    } else {
        count_parallel(&inputs, args, jobs, &progress)
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
    if args.json {
        write_json(&mut out, &rows)?;
    } else if rows.len() == 1 {
        writeln!(out, "{}", rows[0].records)?;
    } else {
        write_table(&mut out, &rows)?;
    }
    out.flush().context("writing output")?;
    Ok(exit)
}

/// Counts inputs on `jobs` threads, each taking the next uncounted input;
/// results come back in input order.
fn count_parallel(inputs: &[Input], args: &CountArgs, jobs: usize, progress: &output::Progress) -> Vec<FileCount> {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let (done_bytes, done_records) = (AtomicU64::new(0), AtomicU64::new(0));
    let slots: Vec<Mutex<Option<FileCount>>> = inputs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(input) = inputs.get(i) else { break };
                let c = count_input(input, args, |_, _| {});
                let bytes = done_bytes.fetch_add(c.bytes, Relaxed) + c.bytes;
                let records = done_records.fetch_add(c.records, Relaxed) + c.records;
                progress.update(bytes, records);
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(c);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every input counted")
        })
        .collect()
}

/// Opens and counts one input; an error keeps the records counted before it.
fn count_input(input: &Input, args: &CountArgs, progress: impl FnMut(u64, u64)) -> FileCount {
    let name = input.display();
    let mut reader = match super::open_input(input, &args.input) {
        Ok(r) => r,
        Err(e) => {
            return FileCount {
                name,
                records: 0,
                error: Some(e),
                bytes: 0,
            }
        }
    };
    let result = count_records(&mut reader, progress);
    let bytes = reader.source_mut().size().unwrap_or(0);
    match result {
        Ok(records) => FileCount {
            name,
            records,
            error: None,
            bytes,
        },
        Err(e) => FileCount {
            name,
            records: reader.index(),
            error: Some(super::read_error(input, e)),
            bytes,
        },
    }
}

/// Counts the records of one input: header hops on plain input (no payload
/// reads, no data CRC), a full decompressing read otherwise.
pub fn count_records(reader: &mut RecordReader, mut progress: impl FnMut(u64, u64)) -> Result<u64, ReadError> {
    let mut n = 0u64;
    if reader.compression() == Compression::None {
        while reader.skip_record()?.is_some() {
            n += 1;
            if n & 0xffff == 0 {
                progress(reader.offset(), n);
            }
        }
    } else {
        reader.set_check_data_crc(false);
        while reader.next_record()?.is_some() {
            n += 1;
            if n & 0xffff == 0 {
                progress(reader.offset(), n);
            }
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
                v["error"] = serde_json::Value::String(e.clone());
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

//! `tfr count`: records per input, by hopping from header to header.

use crate::cli::InputArgs;
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
}

/// The count of one input.
struct FileCount {
    name: String,
    records: u64,
    error: Option<String>,
}

pub fn run(args: &CountArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = super::inputs(&args.input)?;
    let total_bytes = inputs
        .iter()
        .map(|i| match i {
            Input::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            Input::Stdin => None,
        })
        .sum::<Option<u64>>();
    let progress = ctx.progress(total_bytes);
    let mut counts = Vec::with_capacity(inputs.len());
    let mut exit = Exit::Success;
    let mut done_bytes = 0u64;
    for input in &inputs {
        let mut reader = match super::open_input(input, &args.input) {
            Ok(r) => r,
            Err(e) if inputs.len() > 1 => {
                exit = Exit::Error;
                eprintln!("tfr: {e:#}");
                counts.push(FileCount {
                    name: input.display(),
                    records: 0,
                    error: Some(format!("{e:#}")),
                });
                continue;
            }
            Err(e) => return Err(e),
        };
        let result = count_records(&mut reader, |bytes, records| {
            progress.update(done_bytes + bytes, records)
        });
        done_bytes += reader.source_mut().size().unwrap_or(0);
        let (records, error) = match result {
            Ok(n) => (n, None),
            Err(e) => {
                let n = reader.index();
                let err = super::read_error(input, e);
                if inputs.len() == 1 && !args.json {
                    return Err(err);
                }
                eprintln!("tfr: {err:#}");
                exit = Exit::Error;
                (n, Some(format!("{err:#}")))
            }
        };
        counts.push(FileCount {
            name: input.display(),
            records,
            error,
        });
    }
    progress.finish();
    let mut out = output::stdout();
    if args.json {
        write_json(&mut out, &counts)?;
    } else if counts.len() == 1 {
        writeln!(out, "{}", counts[0].records)?;
    } else {
        write_table(&mut out, &counts)?;
    }
    out.flush().context("writing output")?;
    Ok(exit)
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

fn write_json(out: &mut dyn Write, counts: &[FileCount]) -> Result<()> {
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

fn write_table(out: &mut dyn Write, counts: &[FileCount]) -> Result<()> {
    let mut table = output::table();
    table.set_header(vec!["file", "records"]);
    for c in counts {
        let records = match &c.error {
            Some(_) => format!("{} (damaged)", c.records),
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

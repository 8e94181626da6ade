//! `tfr verify-crc`: check both CRCs of every record, report every fault
//! (resynchronising after each), summarise, and optionally salvage the
//! intact records.

mod report;
mod scan;

use crate::args::{InputArgs, JobsArg, PayloadType};
use crate::exit::Exit;
use crate::io::{AtomicOutput, Compression};
use crate::output::{self, Ctx};
use crate::pipeline::{self, Stopped};
use anyhow::{Context, Result};
use clap::Args;
use report::{summary_line, write_json, write_table, FileReport};
use scan::{verify_input, Event};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub(crate) struct VerifyCrcArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Print the report as one JSON document on stdout:
    /// {"files": [{"file", "compression", "intact_records", "faults": [{"record",
    /// "offset", "kind", "message", "bytes_skipped", "resumed"}], "bytes_lost",
    /// "status"[, "error"]}], "total": {...}, "intact": bool}.
    #[arg(long)]
    pub(crate) json: bool,

    /// Write every intact record of every input, in order and byte-identical,
    /// to OUT ('-' for stdout). OUT is written through a temporary file and
    /// renamed into place at the end; its directory must exist.
    #[arg(long, value_name = "OUT")]
    pub(crate) salvage: Option<PathBuf>,

    /// Compression of the salvage file [default: from OUT's name: .gz
    /// gzip, .zz or .zlib zlib, .snappy SNAPPY, else none].
    #[arg(long, value_enum, value_name = "KIND", requires = "salvage")]
    pub(crate) salvage_compression: Option<crate::args::CompressionKind>,

    /// Also check every intact payload as TensorFlow's C++ parser reads it
    /// (tf.io.parse_example, parse_single_example: what training uses):
    /// each record it would reject, or read other values from than
    /// protobuf (and tfr) does, is reported with the reason; exit 1. Checks
    /// Examples (parse_example) and SequenceExamples (parse_sequence_example),
    /// each file by its first record; ELWC files are said to be unchecked.
    /// A record over --max-record-size is not held: its CRCs are checked as
    /// it streams past, its payload is reported as not checked (exit 1).
    #[arg(long)]
    pub(crate) payloads: bool,

    /// With --payloads: what the payloads are. Auto decides by the first
    /// record, and takes a file for SequenceExamples as soon as a record
    /// has feature_lists (a SequenceExample with only a context is, byte
    /// for byte, an Example).
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE", requires = "payloads")]
    pub(crate) payload: PayloadType,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &VerifyCrcArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    if let Some(out) = &args.salvage {
        crate::io::same_file::refuse_input_as_output(&inputs, &[], out, "--salvage")?;
    }
    let total_bytes = crate::io::input::total_size(&inputs);
    let progress = ctx.progress(total_bytes);
    // Created (so an unwritable OUT fails) before anything is read; its
    // compression from its name unless forced.
    let mut salvage = match &args.salvage {
        Some(path) => Some(AtomicOutput::create(
            path,
            Compression::for_output(path, args.salvage_compression.map(Compression::from)),
        )?),
        None => None,
    };
    // One input: its threads walk parts of it. Several: one thread per
    // input, faults and salvage still in input order.
    let jobs = args.jobs.for_inputs(&inputs);
    let (across, within) = if inputs.len() == 1 { (1, jobs) } else { (jobs, 1) };
    let keep = salvage.is_some();
    let mut reports = Vec::with_capacity(inputs.len());
    let mut failed = None;
    let read = |i: usize, emit: &mut dyn FnMut(Event) -> Result<(), Stopped>| {
        verify_input(&inputs[i], args, within, keep, &progress, emit).map_err(tfr_engine::Error::other)
    };
    let result = pipeline::in_input_order(inputs.len(), across, read, |event| {
        pass_on(event, salvage.as_mut(), &mut reports).map_err(|e| {
            failed = Some(e);
            Stopped
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    result?;
    progress.finish();
    let summary_to_stdout = args.salvage.as_ref().is_none_or(|p| p.as_os_str() != "-");
    // When no input could be read at all, there is nothing to salvage: an
    // existing OUT is left untouched rather than replaced by an empty file.
    if let Some(s) = salvage.filter(|_| reports.iter().any(|r| r.error.is_none())) {
        s.commit()?;
    }
    let exit = reports.iter().fold(Exit::Success, |e, r| e.max(r.exit()));
    output::keep_verdict(write_summary(args, &reports, summary_to_stdout), exit)
}

/// One event of the inputs' scans, in order: salvage bytes to OUT, a line
/// to stderr, a report kept.
fn pass_on(event: Event, salvage: Option<&mut AtomicOutput>, reports: &mut Vec<FileReport>) -> Result<()> {
    match (event, salvage) {
        (Event::Intact(framed), Some(out)) => {
            let target = out.display();
            out.write_all(&framed)
                .with_context(|| format!("{target}: write failed"))
        }
        (Event::Spooled(mut long), Some(out)) => {
            let target = out.display();
            std::io::copy(&mut long, out)
                .map(drop)
                .with_context(|| format!("{target}: write failed"))
        }
        (Event::Intact(_) | Event::Spooled(_), None) => Ok(()),
        (Event::Line(line), _) => {
            output::error_line(format_args!("{line}"));
            Ok(())
        }
        (Event::Report(r), _) => {
            reports.push(r);
            Ok(())
        }
    }
}

/// The summary: one line for one readable input, a table for several,
/// or the JSON document; on stdout, or stderr when salvage goes there.
fn write_summary(args: &VerifyCrcArgs, reports: &[FileReport], to_stdout: bool) -> Result<()> {
    let mut out: Box<dyn Write> = if to_stdout {
        output::stdout()
    } else {
        Box::new(std::io::stderr())
    };
    if args.json {
        write_json(&mut out, reports)?;
    } else if let [one] = reports {
        if one.error.is_none() {
            writeln!(out, "{}", summary_line(one))?;
        }
    } else {
        write_table(&mut out, reports)?;
    }
    out.flush().context("writing output")
}

//! `tfr verify-crc`: check both CRCs of every record, report every fault
//! (resynchronising after each), summarise, and optionally salvage the
//! intact records.

use crate::args::{InputArgs, JobsArg, PayloadType};
use crate::example::tf_parser::{self, Verdict};
use crate::example::{resolve_auto, with_decoder, MessageType};
use crate::exit::Exit;
use crate::io::{AtomicOutput, Compression, Input};
use crate::output::{self, Ctx, Progress};
use crate::pipeline::{self, Stopped};
use crate::record::{self, counted, Check, DamageKind, Fault, Scanner, Step};
use anyhow::{Context, Result};
use clap::Args;
use comfy_table::CellAlignment;
use serde_json::json;
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

/// A record TensorFlow's parser rejects or reads differently.
struct PayloadIssue {
    record: u64,
    offset: u64,
    /// "rejects", "differs" or "not_protobuf".
    verdict: &'static str,
    reason: String,
}

/// The verdict on one input.
struct FileReport {
    name: String,
    compression: Option<Compression>,
    intact: u64,
    faults: Vec<Fault>,
    /// With `--payloads`: the records TensorFlow reads differently.
    payload_issues: Vec<PayloadIssue>,
    /// With `--payloads`: why the payloads were not checked (not Examples).
    unchecked: Option<String>,
    /// With `--payloads`: intact records over `--max-record-size`, streamed
    /// for their CRCs but whose payloads were not checked.
    too_long_to_check: u64,
    /// Why the input could not be read at all (open or I/O failure, not a TFRecord).
    error: Option<String>,
    /// Why TensorFlow's reader cannot read the file although it is intact
    /// (a SNAPPY block over 256 KiB).
    tensorflow_unreadable: Option<String>,
}

impl FileReport {
    fn bytes_lost(&self) -> u64 {
        self.faults.iter().map(|f| f.skipped).sum()
    }

    fn status(&self) -> &'static str {
        match (&self.error, self.faults.is_empty(), self.payload_issues.is_empty()) {
            (Some(_), _, _) => "unreadable",
            (None, false, _) => "damaged",
            (None, true, false) => "payloads differ",
            (None, true, true) if self.too_long_to_check > 0 => "payloads not checked",
            (None, true, true) => "ok",
        }
    }

    fn exit(&self) -> Exit {
        match self.status() {
            "unreadable" => Exit::Error,
            "damaged" | "payloads differ" | "payloads not checked" => Exit::DamageFound,
            _ => Exit::Success,
        }
    }
}

/// What verifying one input hands to the thread that reports, in order.
enum Event {
    /// Intact records, framed as stored, for the salvage output.
    Intact(Vec<u8>),
    /// One long intact record, framed as stored, in a temporary file.
    Spooled(record::LongRecord),
    /// A line for stderr: a fault, or why the input cannot be read.
    Line(String),
    /// The verdict on the input, last.
    Report(FileReport),
}

/// Bytes of intact records handed over at once for salvage.
const SALVAGE_BATCH: usize = 256 * 1024;
/// Intact records between progress updates.
const PROGRESS_EVERY: u64 = 1 << 14;

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
        verify_input(&inputs[i], args, within, keep, &progress, emit)
    };
    let result = pipeline::in_input_order(inputs.len(), across, read, |event| {
        let done = match event {
            Event::Intact(framed) => match salvage.as_mut() {
                Some(out) => {
                    let target = out.display();
                    out.write_all(&framed)
                        .with_context(|| format!("{target}: write failed"))
                }
                None => Ok(()),
            },
            Event::Spooled(mut long) => match salvage.as_mut() {
                Some(out) => {
                    let target = out.display();
                    std::io::copy(&mut long, out)
                        .map(drop)
                        .with_context(|| format!("{target}: write failed"))
                }
                None => Ok(()),
            },
            Event::Line(line) => {
                output::error_line(format_args!("{line}"));
                Ok(())
            }
            Event::Report(r) => {
                reports.push(r);
                Ok(())
            }
        };
        done.map_err(|e| {
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
    let mut out: Box<dyn Write> = if summary_to_stdout {
        output::stdout()
    } else {
        Box::new(std::io::stderr())
    };
    let written = (|| -> Result<()> {
        if args.json {
            write_json(&mut out, &reports)?;
        } else if let [one] = &reports[..] {
            if one.error.is_none() {
                writeln!(out, "{}", summary_line(one))?;
            }
        } else {
            write_table(&mut out, &reports)?;
        }
        out.flush().context("writing output")
    })();
    output::keep_verdict(written, exit)
}

/// Verifies one input on up to `jobs` threads, emitting its faults as they
/// are found, its intact records when `salvage` is on, and its report.
/// With `--payloads`, the payloads are checked on `jobs` workers
/// ([`pipeline::run`]), their verdicts kept in record order among the
/// other lines.
fn verify_input(
    input: &Input,
    args: &VerifyCrcArgs,
    jobs: usize,
    salvage: bool,
    progress: &Progress,
    emit: &mut dyn FnMut(Event) -> Result<(), Stopped>,
) -> Result<()> {
    let name = input.display();
    let mut report = FileReport {
        name: name.clone(),
        compression: None,
        intact: 0,
        faults: Vec::new(),
        payload_issues: Vec::new(),
        unchecked: None,
        too_long_to_check: 0,
        error: None,
        tensorflow_unreadable: None,
    };
    let workers = pipeline::workers(jobs);
    if !args.payloads || workers == 0 {
        let mut feed = Direct {
            emit: &mut *emit,
            name: &name,
            issues: Vec::new(),
        };
        scan_input(input, args, jobs, salvage, progress, &mut feed, &mut report)?;
        report.payload_issues = feed.issues;
        return emit(Event::Report(report)).map_err(Into::into);
    }
    // Verdicts come back from the workers in order ([`Sink`]), and go on
    // from this thread (which owns `emit`) after each batch it sends.
    let done: std::sync::Mutex<Vec<Checked>> = std::sync::Mutex::new(Vec::new());
    let sink = Verdicts(&done);
    let work = |batch: &mut Queued, out: &mut Checked| -> Result<()> {
        let mut start = 0;
        for item in batch.items.drain(..) {
            match item {
                Item::Payload {
                    end,
                    ty,
                    record,
                    offset,
                } => {
                    out.0
                        .extend(check_payload(ty, &batch.data[start..end], record, offset).map(Done::Issue));
                    start = end;
                }
                Item::Event(e) => out.0.push(Done::Event(e)),
            }
        }
        Ok(())
    };
    let mut issues = Vec::new();
    let mut forward = |emit: &mut Emit<'_>| -> Result<(), Stopped> {
        let checked = std::mem::take(&mut *done.lock().unwrap_or_else(|e| e.into_inner()));
        for done in checked.into_iter().flat_map(|c| c.0) {
            match done {
                Done::Event(e) => emit(e)?,
                Done::Issue((issue, line)) => {
                    issues.push(issue);
                    emit(Event::Line(format!("{name}: {line}")))?;
                }
            }
        }
        Ok(())
    };
    let produce = |tx: &mut pipeline::Sender<'_, Queued>| {
        let mut feed = Queue {
            tx,
            batch: Queued::default(),
            emit: &mut *emit,
            forward: &mut forward,
        };
        let scanned = scan_input(input, args, jobs, salvage, progress, &mut feed, &mut report);
        feed.send()?;
        scanned
    };
    let result = pipeline::run(workers, produce, work, sink);
    forward(&mut *emit)?;
    result?;
    report.payload_issues = issues;
    emit(Event::Report(report))?;
    Ok(())
}

/// Where the scan of an input sends what it finds, in order: straight to
/// the reporting thread, or (`--payloads` on several threads) through the
/// workers that check the payloads.
trait Feed {
    /// A fault line, salvage bytes, ...
    fn event(&mut self, event: Event) -> Result<(), Stopped>;
    /// An intact payload to check as `ty`.
    fn payload(&mut self, ty: MessageType, payload: &[u8], record: u64, offset: u64) -> Result<(), Stopped>;
}

/// Events straight on; payloads checked here.
struct Direct<'a> {
    emit: &'a mut dyn FnMut(Event) -> Result<(), Stopped>,
    name: &'a str,
    issues: Vec<PayloadIssue>,
}

impl Feed for Direct<'_> {
    fn event(&mut self, event: Event) -> Result<(), Stopped> {
        (self.emit)(event)
    }

    fn payload(&mut self, ty: MessageType, payload: &[u8], record: u64, offset: u64) -> Result<(), Stopped> {
        if let Some((issue, line)) = check_payload(ty, payload, record, offset) {
            self.issues.push(issue);
            (self.emit)(Event::Line(format!("{}: {line}", self.name)))?;
        }
        Ok(())
    }
}

/// Payload bytes and items per batch of payloads to check.
const CHECK_BATCH: usize = 256 * 1024;
const CHECK_ITEMS: usize = 4096;

/// What the scan hands to the workers: payloads to check, and the events
/// between them, in order.
#[derive(Default)]
struct Queued {
    data: Vec<u8>,
    items: Vec<Item>,
}

enum Item {
    /// An intact payload (ending at `end` in the batch's data).
    Payload {
        end: usize,
        ty: MessageType,
        record: u64,
        offset: u64,
    },
    Event(Event),
}

/// What a worker made of a batch: the events, with the verdicts on the
/// payloads TensorFlow reads differently among them.
#[derive(Default)]
struct Checked(Vec<Done>);

enum Done {
    Event(Event),
    Issue((PayloadIssue, String)),
}

impl pipeline::Output for Checked {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

/// The in-order side of the payload check: each batch's events and
/// verdicts, kept for the scanning thread to pass on.
struct Verdicts<'a>(&'a std::sync::Mutex<Vec<Checked>>);

impl pipeline::Sink<Checked> for Verdicts<'_> {
    fn batch(&mut self, checked: &mut Checked) -> std::io::Result<()> {
        if !checked.0.is_empty() {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(std::mem::take(checked));
        }
        Ok(())
    }
}

/// Where events go on to the reporting thread.
type Emit<'e> = dyn FnMut(Event) -> Result<(), Stopped> + 'e;

/// Events and payloads into batches for the workers; after each batch
/// sent, the verdicts that came back are passed on (`forward`).
struct Queue<'a, 's> {
    tx: &'a mut pipeline::Sender<'s, Queued>,
    batch: Queued,
    emit: &'a mut dyn FnMut(Event) -> Result<(), Stopped>,
    forward: &'a mut dyn FnMut(&mut Emit<'_>) -> Result<(), Stopped>,
}

impl Queue<'_, '_> {
    fn send(&mut self) -> Result<(), Stopped> {
        if !self.batch.items.is_empty() {
            let mut next = self.tx.spares().take().unwrap_or_default();
            next.data.clear();
            next.items.clear();
            self.tx.send(std::mem::replace(&mut self.batch, next))?;
        }
        (self.forward)(&mut *self.emit)
    }
}

impl Feed for Queue<'_, '_> {
    fn event(&mut self, event: Event) -> Result<(), Stopped> {
        self.batch.items.push(Item::Event(event));
        if self.batch.items.len() >= CHECK_ITEMS {
            self.send()?;
        }
        Ok(())
    }

    fn payload(&mut self, ty: MessageType, payload: &[u8], record: u64, offset: u64) -> Result<(), Stopped> {
        self.batch.data.extend_from_slice(payload);
        self.batch.items.push(Item::Payload {
            end: self.batch.data.len(),
            ty,
            record,
            offset,
        });
        if self.batch.data.len() >= CHECK_BATCH || self.batch.items.len() >= CHECK_ITEMS {
            self.send()?;
        }
        Ok(())
    }
}

/// The scan of one input: its faults, intact records (for salvage) and
/// payloads into `feed`, the counts into `report`.
fn scan_input(
    input: &Input,
    args: &VerifyCrcArgs,
    jobs: usize,
    salvage: bool,
    progress: &Progress,
    feed: &mut dyn Feed,
    report: &mut FileReport,
) -> Result<()> {
    let name = input.display();
    let mut reader = match args.input.open(input) {
        Ok(r) => r,
        Err(e) => {
            feed.event(Event::Line(format!("{e:#}")))?;
            report.error = Some(format!("{e:#}"));
            return Ok(());
        }
    };
    report.compression = Some(reader.compression());
    // A large plain file: threads prove the clean part of it, and the scan
    // below goes on from where they stopped (at the end, for a clean file).
    // Not when salvaging or checking payloads: the scan reads each intact
    // record.
    if let (Some((file, size)), false) = (reader.shared_file(), salvage || args.payloads) {
        let prefix = record::clean_prefix(&file, size, jobs, Check::Both, &|b, r| progress.add(b, r));
        if prefix.end > 0 {
            reader
                .seek_to(prefix.end, prefix.records)
                .with_context(|| format!("{name}: seek failed"))?;
            report.intact = prefix.records;
        }
    }
    let snappy_blocks = reader.snappy_blocks();
    let mut scanner = Scanner::new(reader);
    // Records too long to hold are streamed; salvage gets them through a
    // temporary file.
    scanner.set_spool(salvage);
    scanner.set_spool_limit(args.input.max_record_size);
    let mut payloads = args.payloads.then(|| Payloads {
        ty: args.payload.fixed(),
        auto: args.payload == PayloadType::Auto,
    });
    if payloads.is_some() {
        // Each payload is checked: records up to --max-record-size are held
        // (the hold limit counts the framing too).
        let framing = (record::HEADER_LEN + record::FOOTER_LEN) as u64;
        scanner.set_hold_limit(args.input.max_record_size.saturating_add(framing));
    }
    let (mut batch, mut shown_at, mut shown) = (Vec::new(), scanner.offset(), report.intact);
    loop {
        let step = match scanner.next_step() {
            Ok(Some(step)) => step,
            Ok(None) => break,
            Err(e) => {
                let err = anyhow::Error::new(e).context(format!("{name}: read failed"));
                feed.event(Event::Line(format!("{err:#}")))?;
                report.error = Some(format!("{err:#}"));
                break;
            }
        };
        match step {
            Step::Intact { framed, record } => {
                if let Some(p) = payloads.as_mut() {
                    match p.decide(record.data, report) {
                        Ok(ty) => feed.payload(ty, record.data, record.index, record.offset)?,
                        Err(Some(why)) => feed.event(Event::Line(format!("{name}: {why}")))?,
                        Err(None) => {}
                    }
                }
                if salvage {
                    batch.extend_from_slice(framed);
                    if batch.len() >= SALVAGE_BATCH {
                        feed.event(Event::Intact(std::mem::take(&mut batch)))?;
                    }
                }
                report.intact += 1;
                if report.intact - shown == PROGRESS_EVERY {
                    progress.add((scanner.offset() - shown_at) as i64, (report.intact - shown) as i64);
                    (shown_at, shown) = (scanner.offset(), report.intact);
                }
            }
            Step::IntactStreamed {
                spooled,
                index,
                offset,
                length,
            } => {
                match spooled {
                    Some(long) => {
                        if !batch.is_empty() {
                            feed.event(Event::Intact(std::mem::take(&mut batch)))?;
                        }
                        feed.event(Event::Spooled(long))?;
                    }
                    None if salvage => {
                        // Intact, but too long to copy from a stream: the
                        // salvage file lacks it, which is said as a fault.
                        let limit = args.input.max_record_size;
                        let fault = Fault {
                            damage: record::Damage {
                                kind: DamageKind::TooLarge { length, limit },
                                record: index,
                                offset,
                                compression: scanner.compression(),
                            },
                            skipped: 0,
                            resumed: true,
                        };
                        feed.event(Event::Line(format!(
                            "{name}: {}: intact, but not salvaged (from a pipe or compressed input, long records are copied through a temporary file up to that size)",
                            fault.damage
                        )))?;
                        report.faults.push(fault);
                    }
                    None => {}
                }
                if payloads.is_some() {
                    // A check not made is not a check passed.
                    report.too_long_to_check += 1;
                    let limit = crate::record::human_size(args.input.max_record_size);
                    feed.event(Event::Line(format!(
                        "{name}: record {index} at byte {offset}: payload not checked: record of {length} bytes, \
                         over --max-record-size ({limit})"
                    )))?;
                }
                report.intact += 1;
                progress.add((scanner.offset() - shown_at) as i64, (report.intact - shown) as i64);
                (shown_at, shown) = (scanner.offset(), report.intact);
            }
            Step::Fault(fault) => {
                if let DamageKind::NotTfrecord { .. } = fault.damage.kind {
                    feed.event(Event::Line(format!("{name}: {}", fault.damage)))?;
                    report.error = Some(fault.damage.to_string());
                    break;
                }
                feed.event(Event::Line(format!("{name}: {}", fault_message(&fault))))?;
                report.faults.push(fault);
            }
        }
    }
    progress.add(
        scanner.offset().saturating_sub(shown_at) as i64,
        (report.intact - shown) as i64,
    );
    if !batch.is_empty() {
        feed.event(Event::Intact(batch))?;
    }
    // TensorFlow writes a record over 256 KiB into a SNAPPY block of its
    // own, which its reader then refuses: intact, but not for TensorFlow.
    let largest = snappy_blocks.map_or(0, |b| b.load(std::sync::atomic::Ordering::Relaxed));
    if largest > crate::io::snappy::TF_READ_BUFFER {
        let why = format!(
            "a SNAPPY block holds {} bytes, more than the 256 KiB TensorFlow's SNAPPY reader takes: \
             TensorFlow cannot read this file (`tfr verify-crc --salvage OUT --salvage-compression snappy` \
             rewrites it in blocks it can)",
            crate::example::media::thousands(largest)
        );
        feed.event(Event::Line(format!("warning: {name}: {why}")))?;
        report.tensorflow_unreadable = Some(why);
    }
    Ok(())
}

/// `--payloads`: the payload type of an input (decided by its first
/// record) and the check of each payload.
struct Payloads {
    ty: Option<MessageType>,
    /// `--type auto`: an Example file may still turn out to hold
    /// SequenceExamples (whose first records had no feature_lists).
    auto: bool,
}

impl Payloads {
    /// The type one intact payload is checked as (on the scanning thread,
    /// in record order: auto may switch an input from Examples to
    /// SequenceExamples); `Err` when it is not checked, with the line to
    /// print once why the file is not.
    fn decide(&mut self, payload: &[u8], report: &mut FileReport) -> Result<MessageType, Option<String>> {
        let auto = |payload: &[u8]| match resolve_auto(payload) {
            Ok(MessageType::Elwc) => MessageType::Elwc,
            Ok(MessageType::SequenceExample) => MessageType::SequenceExample,
            _ => MessageType::Example,
        };
        let mut ty = *self.ty.get_or_insert_with(|| auto(payload));
        // Field 2 is a SequenceExample's feature_lists or an ELWC's context.
        if self.auto && ty == MessageType::Example && has_feature_lists(payload) {
            let resolved = auto(payload);
            if matches!(resolved, MessageType::SequenceExample | MessageType::Elwc) {
                ty = resolved;
                self.ty = Some(ty);
            }
        }
        match ty {
            MessageType::Example | MessageType::SequenceExample => Ok(ty),
            _ if report.unchecked.is_none() => {
                let why = if ty == MessageType::Elwc {
                    "payloads not checked: the file holds ExampleListWithContext records, \
                     --payloads checks Examples and SequenceExamples"
                } else {
                    "payloads not checked: --type raw"
                }
                .to_string();
                report.unchecked = Some(why.clone());
                Err(Some(why))
            }
            _ => Err(None),
        }
    }
}

/// Checks one intact payload of type `ty` (an Example or a
/// SequenceExample) against TensorFlow's parser (on any thread): the issue
/// and the line to print when it reads it differently.
fn check_payload(ty: MessageType, payload: &[u8], record: u64, offset: u64) -> Option<(PayloadIssue, String)> {
    let check = match ty {
        MessageType::Example => tf_parser::check_example,
        MessageType::SequenceExample => tf_parser::check_sequence,
        _ => return None,
    };
    let (verdict, reason) = match with_decoder(|d| check(d, payload)) {
        Verdict::Same => return None,
        Verdict::Rejects(why) => ("rejects", format!("TensorFlow's parser rejects it: {why}")),
        Verdict::Differs(why) => ("differs", format!("TensorFlow's parser reads it differently: {why}")),
        Verdict::NotProtobuf(why) => {
            let what = match ty {
                MessageType::SequenceExample => "a SequenceExample",
                _ => "an Example",
            };
            ("not_protobuf", format!("not {what} for protobuf: {why}"))
        }
    };
    let line = format!("record {record} at byte {offset}: {reason}");
    let issue = PayloadIssue {
        record,
        offset,
        verdict,
        reason,
    };
    Some((issue, line))
}

/// Whether a payload has a length-delimited field 2 at its top level (a
/// SequenceExample's feature_lists; unknown to an Example).
fn has_feature_lists(payload: &[u8]) -> bool {
    let mut reader = crate::example::wire::Reader::new(payload);
    while let Ok(Some(f)) = reader.field() {
        if f.len_of(2).is_some() {
            return true;
        }
    }
    false
}

/// The fault as printed: where, what, and how much the scan skipped.
fn fault_message(fault: &Fault) -> String {
    let bytes = counted(fault.skipped, "byte");
    let skipped = if fault.resumed {
        format!(
            "{bytes} skipped to the next intact record at byte {}",
            fault.damage.offset + fault.skipped
        )
    } else if fault.skipped > 0 {
        format!("{bytes} lost to the end of input")
    } else {
        "nothing more could be read".to_string()
    };
    format!("{}; {skipped}", fault.damage)
}

/// The one-line summary of a single input.
fn summary_line(r: &FileReport) -> String {
    let issues = r.payload_issues.len() as u64;
    let mut line = if r.faults.is_empty() && issues > 0 {
        format!(
            "{}: {}, all intact; {} TensorFlow's parser rejects or reads differently",
            r.name,
            counted(r.intact, "record"),
            counted(issues, "payload")
        )
    } else if r.faults.is_empty() {
        format!("{}: {}, all intact", r.name, counted(r.intact, "record"))
    } else {
        format!(
            "{}: {} intact, {}, {} lost",
            r.name,
            counted(r.intact, "record"),
            counted(r.faults.len() as u64, "fault"),
            counted(r.bytes_lost(), "byte")
        )
    };
    if r.too_long_to_check > 0 {
        line += &format!(
            "; {} not checked (over --max-record-size)",
            counted(r.too_long_to_check, "payload")
        );
    }
    line
}

fn write_table(out: &mut dyn Write, reports: &[FileReport]) -> Result<()> {
    let mut table = output::table();
    table.set_header(vec![
        "file",
        "compression",
        "intact records",
        "faults",
        "bytes lost",
        "status",
    ]);
    for r in reports {
        table.add_row(vec![
            r.name.clone(),
            r.compression.map_or("-", |c| c.name()).to_string(),
            r.intact.to_string(),
            r.faults.len().to_string(),
            r.bytes_lost().to_string(),
            r.status().to_string(),
        ]);
    }
    let bad = reports.iter().filter(|r| r.status() != "ok").count();
    table.add_row(vec![
        format!("total ({})", counted(reports.len() as u64, "file")),
        String::new(),
        reports.iter().map(|r| r.intact).sum::<u64>().to_string(),
        reports.iter().map(|r| r.faults.len()).sum::<usize>().to_string(),
        reports.iter().map(FileReport::bytes_lost).sum::<u64>().to_string(),
        if bad == 0 {
            "ok".to_string()
        } else {
            format!("{bad} not ok")
        },
    ]);
    for col in 2..5 {
        if let Some(c) = table.column_mut(col) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{table}")?;
    Ok(())
}

fn write_json(out: &mut dyn Write, reports: &[FileReport]) -> Result<()> {
    let files: Vec<serde_json::Value> = reports.iter().map(file_json).collect();
    let total = json!({
        "files": reports.len(),
        "intact_records": reports.iter().map(|r| r.intact).sum::<u64>(),
        "faults": reports.iter().map(|r| r.faults.len()).sum::<usize>(),
        "bytes_lost": reports.iter().map(FileReport::bytes_lost).sum::<u64>(),
        "damaged_files": reports.iter().filter(|r| r.status() == "damaged").count(),
        "payload_issues": reports.iter().map(|r| r.payload_issues.len()).sum::<usize>(),
        "payloads_not_checked": reports.iter().map(|r| r.too_long_to_check).sum::<u64>(),
        "unreadable_files": reports.iter().filter(|r| r.status() == "unreadable").count(),
    });
    let intact = reports.iter().all(|r| r.status() == "ok");
    writeln!(out, "{}", json!({"files": files, "total": total, "intact": intact}))?;
    Ok(())
}

fn file_json(r: &FileReport) -> serde_json::Value {
    let faults: Vec<serde_json::Value> = r
        .faults
        .iter()
        .map(|f| {
            json!({
                "record": f.damage.record,
                "offset": f.damage.offset,
                "kind": f.damage.kind.code(),
                "message": f.damage.kind.to_string(),
                "bytes_skipped": f.skipped,
                "resumed": f.resumed,
            })
        })
        .collect();
    let mut v = json!({
        "file": r.name,
        "compression": r.compression.map(|c| c.name()),
        "intact_records": r.intact,
        "faults": faults,
        "bytes_lost": r.bytes_lost(),
        "status": r.status(),
    });
    if let Some(e) = &r.error {
        v["error"] = json!(output::escape_controls(e));
    }
    if !r.payload_issues.is_empty() {
        let issues: Vec<serde_json::Value> = r
            .payload_issues
            .iter()
            .map(|p| json!({"record": p.record, "offset": p.offset, "verdict": p.verdict, "reason": p.reason}))
            .collect();
        v["payload_issues"] = json!(issues);
    }
    if r.too_long_to_check > 0 {
        v["payloads_not_checked"] = json!(r.too_long_to_check);
    }
    if let Some(why) = &r.unchecked {
        v["payloads_unchecked"] = json!(why);
    }
    if let Some(why) = &r.tensorflow_unreadable {
        v["tensorflow_unreadable"] = json!(why);
    }
    v
}

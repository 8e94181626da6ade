//! The scan of one input for verify-crc: its faults, its intact records
//! (for `--salvage`) and, with `--payloads`, each payload checked against
//! TensorFlow's parser on the workers, everything handed on in order as
//! [`Event`]s.

use super::report::{fault_message, FileReport, PayloadIssue, PayloadVerdict};
use super::VerifyCrcArgs;
use crate::args::PayloadType;
use crate::example::tf_parser::{self, Verdict};
use crate::example::{resolve_auto, with_decoder, MessageType};
use crate::io::Input;
use crate::output::Progress;
use crate::pipeline::{self, Stopped};
use crate::record::{self, Check, DamageKind, Fault, Scanner, Step};
use anyhow::{Context, Result};

/// What verifying one input hands to the thread that reports, in order.
pub(super) enum Event {
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

/// Verifies one input on up to `jobs` threads, emitting its faults as they
/// are found, its intact records when `salvage` is on, and its report.
/// With `--payloads`, the payloads are checked on `jobs` workers
/// ([`pipeline::run`]), their verdicts kept in record order among the
/// other lines.
pub(super) fn verify_input(
    input: &Input,
    args: &VerifyCrcArgs,
    jobs: usize,
    salvage: bool,
    progress: &Progress,
    emit: &mut dyn FnMut(Event) -> Result<(), Stopped>,
) -> Result<()> {
    let name = input.display();
    let mut report = FileReport::new(name.clone());
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
    let work = |batch: &mut Queued, out: &mut Checked| -> tfr_engine::Result<()> {
        check_batch(batch, out);
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
        scanned.map_err(tfr_engine::Error::other)
    };
    let result = pipeline::run(workers, produce, work, sink);
    forward(&mut *emit)?;
    result?;
    report.payload_issues = issues;
    emit(Event::Report(report))?;
    Ok(())
}

/// A worker's part of `--payloads`: each payload of the batch checked, the
/// events kept among the verdicts in order.
fn check_batch(batch: &mut Queued, out: &mut Checked) {
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
    // Not when salvaging or checking payloads: the scan reads each intact
    // record.
    let prove = (!salvage && !args.payloads).then_some((jobs, progress));
    let Some(reader) = open_input(input, args, prove, feed, report)? else {
        return Ok(());
    };
    let snappy_blocks = reader.snappy_blocks();
    let mut scanner = scanner(reader, args, salvage);
    let payloads = args.payloads.then(|| Payloads {
        ty: args.payload.fixed(),
        auto: args.payload == PayloadType::Auto,
    });
    let mut walk = Walk {
        name: &name,
        limit: args.input.max_record_size,
        salvage,
        payloads,
        progress,
        batch: Vec::new(),
        shown_at: scanner.offset(),
        shown: report.intact,
    };
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
                walk.intact(framed, &record, feed, report)?;
                if report.intact - walk.shown == PROGRESS_EVERY {
                    walk.tick(scanner.offset(), report.intact);
                }
            }
            Step::IntactStreamed {
                spooled,
                index,
                offset,
                length,
            } => {
                let streamed = Streamed {
                    index,
                    offset,
                    length,
                    compression: scanner.compression(),
                };
                walk.streamed(spooled, streamed, feed, report)?;
                walk.tick(scanner.offset(), report.intact);
            }
            Step::Fault(fault) => {
                if !walk.fault(fault, feed, report)? {
                    break;
                }
            }
        }
    }
    walk.tick(scanner.offset(), report.intact);
    if !walk.batch.is_empty() {
        feed.event(Event::Intact(walk.batch))?;
    }
    snappy_warning(snappy_blocks, &name, feed, report)
}

/// The scanner of an input: records too long to hold are streamed (salvage
/// gets them through a temporary file); with `--payloads`, records up to
/// `--max-record-size` are held (the hold limit counts the framing too).
fn scanner(reader: record::RecordReader, args: &VerifyCrcArgs, salvage: bool) -> Scanner {
    let mut scanner = Scanner::new(reader);
    scanner.set_spool(salvage);
    scanner.set_spool_limit(args.input.max_record_size);
    if args.payloads {
        let framing = (record::HEADER_LEN + record::FOOTER_LEN) as u64;
        scanner.set_hold_limit(args.input.max_record_size.saturating_add(framing));
    }
    scanner
}

/// The input opened for the scan (`None`, said in `feed` and `report`,
/// when it cannot be). With `prove` (threads, progress) and a large plain
/// file: the threads prove the clean part of it, and the scan goes on from
/// where they stopped (at the end, for a clean file).
fn open_input(
    input: &Input,
    args: &VerifyCrcArgs,
    prove: Option<(usize, &Progress)>,
    feed: &mut dyn Feed,
    report: &mut FileReport,
) -> Result<Option<record::RecordReader>> {
    let mut reader = match args.input.open(input) {
        Ok(r) => r,
        Err(e) => {
            feed.event(Event::Line(format!("{e:#}")))?;
            report.error = Some(format!("{e:#}"));
            return Ok(None);
        }
    };
    report.compression = Some(reader.compression());
    if let (Some((file, size)), Some((jobs, progress))) = (reader.shared_file(), prove) {
        let prefix = record::clean_prefix(&file, size, jobs, Check::Both, &|b, r| progress.add(b, r));
        if prefix.end > 0 {
            reader
                .seek_to(prefix.end, prefix.records)
                .with_context(|| format!("{}: seek failed", input.display()))?;
            report.intact = prefix.records;
        }
    }
    Ok(Some(reader))
}

/// TensorFlow writes a record over 256 KiB into a SNAPPY block of its
/// own, which its reader then refuses: intact, but not for TensorFlow.
fn snappy_warning(
    blocks: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    name: &str,
    feed: &mut dyn Feed,
    report: &mut FileReport,
) -> Result<()> {
    let largest = blocks.map_or(0, |b| b.load(std::sync::atomic::Ordering::Relaxed));
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

/// An intact record streamed past (too long to hold).
struct Streamed {
    index: u64,
    offset: u64,
    length: u64,
    compression: crate::io::Compression,
}

/// What the scan of one input carries from record to record.
struct Walk<'a> {
    name: &'a str,
    /// `--max-record-size`.
    limit: u64,
    salvage: bool,
    payloads: Option<Payloads>,
    progress: &'a Progress,
    /// Intact records, framed, not yet handed on for salvage.
    batch: Vec<u8>,
    /// Where the progress bar was last moved: the offset, the records.
    shown_at: u64,
    shown: u64,
}

impl Walk<'_> {
    /// Moves the progress bar to `offset` and `intact` records.
    fn tick(&mut self, offset: u64, intact: u64) {
        self.progress.add(
            offset.saturating_sub(self.shown_at) as i64,
            (intact - self.shown) as i64,
        );
        (self.shown_at, self.shown) = (offset, intact);
    }

    /// An intact record: its payload checked, its bytes kept for salvage.
    fn intact(
        &mut self,
        framed: &[u8],
        record: &record::Record<'_>,
        feed: &mut dyn Feed,
        report: &mut FileReport,
    ) -> Result<(), Stopped> {
        if let Some(p) = self.payloads.as_mut() {
            match p.decide(record.data, report) {
                Ok(ty) => feed.payload(ty, record.data, record.index, record.offset)?,
                Err(Some(why)) => feed.event(Event::Line(format!("{}: {why}", self.name)))?,
                Err(None) => {}
            }
        }
        if self.salvage {
            self.batch.extend_from_slice(framed);
            if self.batch.len() >= SALVAGE_BATCH {
                feed.event(Event::Intact(std::mem::take(&mut self.batch)))?;
            }
        }
        report.intact += 1;
        Ok(())
    }

    /// An intact record too long to hold: spooled for salvage when it
    /// could be, else a fault of the salvage; its payload not checked.
    fn streamed(
        &mut self,
        spooled: Option<record::LongRecord>,
        r: Streamed,
        feed: &mut dyn Feed,
        report: &mut FileReport,
    ) -> Result<(), Stopped> {
        let name = self.name;
        match spooled {
            Some(long) => {
                if !self.batch.is_empty() {
                    feed.event(Event::Intact(std::mem::take(&mut self.batch)))?;
                }
                feed.event(Event::Spooled(long))?;
            }
            None if self.salvage => {
                // Intact, but too long to copy from a stream: the
                // salvage file lacks it, which is said as a fault.
                let fault = Fault {
                    damage: record::Damage {
                        kind: DamageKind::TooLarge {
                            length: r.length,
                            limit: self.limit,
                        },
                        record: r.index,
                        offset: r.offset,
                        compression: r.compression,
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
        if self.payloads.is_some() {
            // A check not made is not a check passed.
            report.too_long_to_check += 1;
            let limit = crate::record::human_size(self.limit);
            feed.event(Event::Line(format!(
                "{name}: record {} at byte {}: payload not checked: record of {} bytes, \
                 over --max-record-size ({limit})",
                r.index, r.offset, r.length
            )))?;
        }
        report.intact += 1;
        Ok(())
    }

    /// A fault: said and counted; `false` when the input is not a TFRecord
    /// at all (the scan stops).
    fn fault(&mut self, fault: Fault, feed: &mut dyn Feed, report: &mut FileReport) -> Result<bool, Stopped> {
        if let DamageKind::NotTfrecord { .. } = fault.damage.kind {
            feed.event(Event::Line(format!("{}: {}", self.name, fault.damage)))?;
            report.error = Some(fault.damage.to_string());
            return Ok(false);
        }
        feed.event(Event::Line(format!("{}: {}", self.name, fault_message(&fault))))?;
        report.faults.push(fault);
        Ok(true)
    }
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
        Verdict::Rejects(why) => (
            PayloadVerdict::Rejects,
            format!("TensorFlow's parser rejects it: {why}"),
        ),
        Verdict::Differs(why) => (
            PayloadVerdict::Differs,
            format!("TensorFlow's parser reads it differently: {why}"),
        ),
        Verdict::NotProtobuf(why) => {
            let what = match ty {
                MessageType::SequenceExample => "a SequenceExample",
                _ => "an Example",
            };
            (PayloadVerdict::NotProtobuf, format!("not {what} for protobuf: {why}"))
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

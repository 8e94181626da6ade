//! `tfr schema`: infer what a dataset holds, per feature, and print it as a
//! table, as JSON, or as a TensorFlow parse spec.
//!
//! One pass over the records of every input (shards taken as one dataset);
//! only per-feature aggregates are kept ([`crate::example::stats`]), so
//! memory is bounded by the number of features, not records.
//!
//! # `--format json`
//!
//! One pretty-printed JSON document. Keys are stable; new keys may be added.
//! `tfr from-jsonl --schema` reads only `type` and the `kind` of each
//! feature.
//!
//! ```jsonc
//! {
//!   "type": "example",          // or "sequence" (tf.train.SequenceExample)
//!   "records": 200,             // records scanned
//!   "complete": true,           // false: stopped by --limit or by an error
//!   "error": "...",             // only when an error stopped the scan
//!   "inputs": [{"file": "train.tfrecord", "records": 200, "compression": "none"}],
//!   "features": {"NAME": FEATURE, ...},       // Example only
//!   "context": {"NAME": FEATURE, ...},        // SequenceExample only
//!   "feature_lists": {"NAME": FEATURE, ...}   // SequenceExample only
//! }
//! FEATURE = {
//!   "kind": "int64" | "float" | "bytes"
//!         | "conflict"          // several kinds seen: see "kinds"
//!         | "none",             // never had a kind set (only empty `Feature {}`)
//!   "kinds": ["int64", "float"],// every kind seen, in the order first seen
//!   "first_seen": {"int64": {"file": "a.tfrecord", "record": 0}, ...},
//!   "present": 200,             // records holding the key
//!   "missing": 0,               // records without it
//!   "no_kind": 0,               // occurrences with no kind set (count as 0 values)
//!   "values": {"min": 1, "max": 1, "fixed": true},  // values per record; per
//!                               // step for feature lists; null if no occurrence
//!   "steps": {"min": 1, "max": 4, "fixed": false},  // feature lists only: steps per record
//!   "int64": {"count": 200, "min": 0, "max": 4},    // when int64 values were seen
//!   "float": {"count": 200, "min": -2.5, "max": 2.3, "nan": 0, "inf": 0, "-inf": 0},
//!                               // min/max ignore NaN; ±inf as "Infinity"/"-Infinity";
//!                               // null when every value is NaN
//!   "bytes": {"count": 200, "utf8": 1.0, "empty": 0, "shortest": 3, "longest": 7,
//!             "media": {"text": 200}},   // media: jpeg png gif webp tensor_proto json text binary
//!   "absent_in": ["b.tfrecord"],// inputs with records, none holding the key
//!   "flags": ["conflict", "always_empty", "absent_in_shards"]  // those that apply
//! }
//! ```
//!
//! # `--format tf`
//!
//! A Python snippet defining `feature_description` (Example) or
//! `context_features` and `sequence_features` (SequenceExample):
//! `tf.io.FixedLenFeature([n], dtype)` (shape `[]` for one value) where every
//! record has the same number of values, with a `default_value` where the
//! feature is sometimes missing; `tf.io.FixedLenSequenceFeature([n], dtype)`
//! (`allow_missing=True` where needed) where every step has the same number;
//! `tf.io.VarLenFeature(dtype)` otherwise, and for features that are always
//! empty (a zero-size FixedLen shape crashes TensorFlow 2.21's sequence
//! parser). A feature whose kind conflicts between records, or that never
//! has a kind, cannot be parsed with any single dtype: it is left out, with
//! a comment saying why. The spec parses every scanned record (checked
//! against TensorFlow by tests/oracle/check_schema.py).

use crate::cli::InputArgs;
use crate::example::stats::{self, Collector, FeatureStats};
use crate::example::{self, DecodeErrorKind, Decoder, Kind, MessageType};
use crate::exit::Exit;
use crate::input::Input;
use crate::output::{self, Ctx};
use crate::record::Compression;
use anyhow::{Context, Result};
use clap::Args;
use comfy_table::{presets, ColumnConstraint, ContentArrangement, Table, Width};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

/// `--format` of `tfr schema`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SchemaFormat {
    /// A table per feature, readable in an 80-column terminal.
    #[default]
    Table,
    /// One JSON document with every statistic (also `tfr from-jsonl --schema`
    /// input); documented in the man page and `cargo doc` (tfr::cmd::schema).
    Json,
    /// A ready-to-paste Python `feature_description` for tf.io.parse_example.
    Tf,
}

/// `--type` of `tfr schema`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SchemaType {
    /// The first record decides: a SequenceExample when it has
    /// feature_lists, else an Example; every other record must match.
    #[default]
    Auto,
    /// tf.train.Example.
    Example,
    /// tf.train.SequenceExample.
    Sequence,
}

#[derive(Args, Debug, Clone)]
pub struct SchemaArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Output format: table, json (every statistic; the input of `tfr
    /// from-jsonl --schema`), tf (a Python parse spec for TensorFlow).
    #[arg(long, short = 'f', value_enum, default_value_t = SchemaFormat::Table)]
    pub format: SchemaFormat,

    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Payload type (all inputs are one dataset of one type).
    #[arg(long = "type", short = 't', value_enum, default_value_t = SchemaType::Auto, value_name = "TYPE")]
    pub payload: SchemaType,

    /// Scan only the first N records (over all inputs together).
    #[arg(long, short = 'n', value_name = "N")]
    pub limit: Option<u64>,
}

/// One input as scanned.
struct FileScan {
    name: String,
    compression: Compression,
}

/// The result of the scan.
struct Scan {
    ty: MessageType,
    stats: Collector,
    files: Vec<FileScan>,
    /// Stopped by --limit before the end of the inputs.
    limited: bool,
    /// The error that stopped the scan, if any.
    error: Option<String>,
}

impl Scan {
    /// Records scanned from input `i`.
    fn records_of(&self, i: usize) -> u64 {
        self.stats.per_input.get(i).copied().unwrap_or(0)
    }
}

pub fn run(args: &SchemaArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = super::inputs(&args.input)?;
    // Two threads share the work; a payload that does not decode is then
    // found out of order, so the records before it are scanned again, alone
    // (stdin and pipes cannot be read twice: they are scanned by one thread).
    let parallel = inputs
        .iter()
        .all(|i| matches!(i, Input::Path(p) if std::fs::metadata(p).is_ok_and(|m| m.is_file())));
    let mut scan = new_scan(args);
    let mut result = scan_inputs(&mut scan, &inputs, args, ctx, u64::MAX, parallel);
    if let Err(Stop::Decode(failed)) = &result {
        if parallel {
            scan = new_scan(args);
            if let Err(stop) = scan_inputs(&mut scan, &inputs, args, ctx, failed.seq, false) {
                result = Err(stop);
            }
        }
    }
    let result = result.map_err(|stop| stop.into_error(&inputs));
    if let Err(e) = &result {
        if scan.stats.records == 0 {
            return result.map(|_| Exit::Success);
        }
        // Emit the schema of everything before the damage, then report it.
        scan.error = Some(format!("{e:#}"));
    }
    let format = if args.json { SchemaFormat::Json } else { args.format };
    let mut text = String::new();
    match format {
        SchemaFormat::Table => write_table(&mut text, &scan, table_width()),
        SchemaFormat::Json => {
            text = serde_json::to_string_pretty(&to_json(&scan)).expect("JSON");
            text.push('\n');
        }
        SchemaFormat::Tf => write_tf(&mut text, &scan),
    }
    let mut out = output::stdout();
    out.write_all(text.as_bytes()).context("writing output")?;
    out.flush().context("writing output")?;
    result.map(|_| Exit::Success)
}

fn new_scan(args: &SchemaArgs) -> Scan {
    Scan {
        ty: match args.payload {
            SchemaType::Sequence => MessageType::SequenceExample,
            _ => MessageType::Example,
        },
        stats: Collector::new(),
        files: Vec::new(),
        limited: false,
        error: None,
    }
}

/// The width tables are fitted to: the terminal's, else 80 columns.
fn table_width() -> Option<u16> {
    if std::io::stdout().is_terminal() {
        None
    } else {
        Some(80)
    }
}

/// Why a scan stopped early.
enum Stop {
    /// Opening or reading an input failed (damage, I/O).
    Read(anyhow::Error),
    /// A payload is not the expected message.
    Decode(Failed),
}

/// A payload that failed to decode, and where.
struct Failed {
    /// Its position in the whole scan (0-based).
    seq: u64,
    input: u32,
    index: u64,
    offset: u64,
    error: example::DecodeError,
}

impl Stop {
    fn into_error(self, inputs: &[Input]) -> anyhow::Error {
        match self {
            Stop::Read(e) => e,
            Stop::Decode(f) => {
                let name = inputs[f.input as usize].display();
                // schema has no --type raw: drop that advice from the message.
                let message = f
                    .error
                    .to_string()
                    .replace("; use --type raw to print payloads as bytes", "")
                    .replace(", or --type raw", "");
                anyhow::anyhow!(message).context(format!("{name}: record {} at byte {}", f.index, f.offset))
            }
        }
    }
}

/// Records copied out of the reader, to be decoded by either thread.
#[derive(Default)]
struct Batch {
    data: Vec<u8>,
    recs: Vec<BatchRec>,
}

struct BatchRec {
    end: usize,
    seq: u64,
    input: u32,
    index: u64,
    offset: u64,
}

/// Flush a batch at this many records or bytes.
const BATCH_RECORDS: usize = 2048;
const BATCH_BYTES: usize = 1 << 20;

impl Batch {
    fn is_full(&self) -> bool {
        self.recs.len() >= BATCH_RECORDS || self.data.len() >= BATCH_BYTES
    }

    fn clear(&mut self) {
        self.data.clear();
        self.recs.clear();
    }
}

/// Decodes records and collects their statistics (one per thread).
struct Worker {
    decoder: Decoder,
    stats: Collector,
    ty: MessageType,
    strict: bool,
}

impl Worker {
    fn process(&mut self, batch: &Batch) -> Result<(), Failed> {
        let mut start = 0;
        for r in &batch.recs {
            let payload = &batch.data[start..r.end];
            start = r.end;
            let failed = |error| Failed {
                seq: r.seq,
                input: r.input,
                index: r.index,
                offset: r.offset,
                error,
            };
            match self.ty {
                MessageType::SequenceExample => {
                    let se = self.decoder.sequence_example(payload, self.strict).map_err(failed)?;
                    self.stats.add_sequence(&se, r.input, r.index);
                }
                _ => {
                    let ex = self.decoder.example(payload, self.strict).map_err(failed)?;
                    self.stats.add_example(&ex, r.input, r.index);
                }
            }
        }
        Ok(())
    }
}

/// Reads the records of every input, at most `limit`, into `scan`; with
/// `parallel`, a second thread takes batches whenever it is free.
fn scan_inputs(
    scan: &mut Scan,
    inputs: &[Input],
    args: &SchemaArgs,
    ctx: &Ctx,
    stop_at: u64,
    parallel: bool,
) -> Result<(), Stop> {
    let limit = args.limit.unwrap_or(u64::MAX);
    let total_bytes = crate::input::total_size(inputs);
    // Shown only once the scan has run a moment: no flash on small inputs.
    let started = std::time::Instant::now();
    let mut progress: Option<output::Progress> = None;
    let strict = args.payload == SchemaType::Auto;
    let mut resolved = args.payload != SchemaType::Auto;
    let mut local = Worker {
        decoder: Decoder::new(),
        stats: Collector::new(),
        ty: scan.ty,
        strict,
    };
    let (to_worker, from_main) = std::sync::mpsc::sync_channel::<Typed>(1);
    let (to_main, spare) = std::sync::mpsc::channel::<Batch>();
    let outcome = std::thread::scope(|s| {
        let helper = parallel.then(|| {
            s.spawn(move || {
                let mut worker: Option<Worker> = None;
                for Typed { ty, mut batch } in from_main {
                    let w = worker.get_or_insert_with(|| Worker {
                        decoder: Decoder::new(),
                        stats: Collector::new(),
                        ty,
                        strict,
                    });
                    let result = w.process(&batch);
                    batch.clear();
                    let _ = to_main.send(batch);
                    if let Err(f) = result {
                        return (worker, Some(f));
                    }
                }
                (worker, None)
            })
        });
        let mut failed: Option<Failed> = None;
        let mut batch = Batch::default();
        let mut seq = 0u64;
        let mut done_bytes = 0u64;
        // Hands a full batch to the helper if it is free, else decodes it here.
        let flush = |batch: &mut Batch, local: &mut Worker, failed: &mut Option<Failed>| -> bool {
            if batch.recs.is_empty() {
                return true;
            }
            if parallel {
                let fresh = spare.try_recv().unwrap_or_default();
                let full = std::mem::replace(batch, fresh);
                match to_worker.try_send(Typed {
                    ty: local.ty,
                    batch: full,
                }) {
                    Ok(()) => return true,
                    Err(std::sync::mpsc::TrySendError::Full(t)) => *batch = t.batch,
                    // The helper stopped at a payload that does not decode.
                    Err(std::sync::mpsc::TrySendError::Disconnected(_)) => return false,
                }
            }
            let result = local.process(batch);
            batch.clear();
            match result {
                Ok(()) => true,
                Err(f) => {
                    *failed = Some(f);
                    false
                }
            }
        };
        let read = 'inputs: {
            for (i, input) in inputs.iter().enumerate() {
                if seq >= stop_at {
                    break;
                }
                if seq >= limit {
                    scan.limited = true;
                    break;
                }
                let mut reader = match super::open_input(input, &args.input) {
                    Ok(r) => r,
                    Err(e) => break 'inputs Err(e),
                };
                scan.files.push(FileScan {
                    name: input.display(),
                    compression: reader.compression(),
                });
                loop {
                    if seq >= stop_at {
                        break;
                    }
                    let rec = match reader.next_record() {
                        Ok(Some(rec)) => rec,
                        Ok(None) => break,
                        Err(e) => break 'inputs Err(super::read_error(input, e)),
                    };
                    if seq >= limit {
                        scan.limited = true;
                        break 'inputs Ok(());
                    }
                    if !resolved {
                        match example::resolve_auto(rec.data) {
                            Ok(ty) => local.ty = ty,
                            Err(e) => {
                                failed = Some(Failed {
                                    seq,
                                    input: i as u32,
                                    index: rec.index,
                                    offset: rec.offset,
                                    error: not_for_schema(e),
                                });
                                break 'inputs Ok(());
                            }
                        }
                        resolved = true;
                    }
                    batch.data.extend_from_slice(rec.data);
                    batch.recs.push(BatchRec {
                        end: batch.data.len(),
                        seq,
                        input: i as u32,
                        index: rec.index,
                        offset: rec.offset,
                    });
                    seq += 1;
                    if batch.is_full() {
                        if progress.is_none() && started.elapsed() > std::time::Duration::from_millis(300) {
                            progress = Some(ctx.progress(total_bytes));
                        }
                        if let Some(p) = &progress {
                            p.update(done_bytes + reader.offset(), seq);
                        }
                        if !flush(&mut batch, &mut local, &mut failed) {
                            break 'inputs Ok(());
                        }
                    }
                }
                done_bytes += reader.source_mut().size().unwrap_or(0);
            }
            Ok(())
        };
        if failed.is_none() {
            flush(&mut batch, &mut local, &mut failed);
        }
        drop(to_worker);
        if let Some(h) = helper {
            let (worker, helper_failed) = h.join().expect("schema helper thread");
            if let Some(w) = worker {
                local.stats.merge(&w.stats);
            }
            // The first failure in record order wins.
            if let Some(f) = helper_failed {
                if failed.as_ref().is_none_or(|g| f.seq < g.seq) {
                    failed = Some(f);
                }
            }
        }
        if let Some(p) = &progress {
            p.finish();
        }
        (read, failed)
    });
    scan.ty = local.ty;
    scan.stats = local.stats;
    match outcome {
        (_, Some(f)) => Err(Stop::Decode(f)),
        (Err(e), None) => Err(Stop::Read(e)),
        (Ok(()), None) => Ok(()),
    }
}

/// A batch with the message type its records are decoded as.
struct Typed {
    ty: MessageType,
    batch: Batch,
}

/// The auto-mode error without its `--type raw` hint, which schema lacks.
fn not_for_schema(e: example::DecodeError) -> example::DecodeError {
    match e.kind() {
        DecodeErrorKind::NotAnExample { reason } => {
            let reason = format!("{reason}; `tfr schema` reads only Examples and SequenceExamples, `tfr cat --type raw` shows the payloads");
            example::DecodeError::new(DecodeErrorKind::NotAnExample { reason }, e.offset())
        }
        _ => e,
    }
}

// ---------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------

/// The inputs (0-based) that had records but no record holding the feature.
fn absent_in(f: &FeatureStats, scan: &Scan) -> Vec<usize> {
    if scan.files.len() < 2 {
        return Vec::new();
    }
    (0..scan.files.len())
        .filter(|i| scan.records_of(*i) > 0 && f.inputs.binary_search(&(*i as u32)).is_err())
        .collect()
}

/// Where a kind was first seen, as `FILE record N`.
fn seen_at(scan: &Scan, seen: stats::Seen) -> String {
    let file = scan.files.get(seen.input as usize).map_or("?", |f| f.name.as_str());
    format!("{file} record {}", seen.record)
}

/// The kinds of a feature with where each was first seen.
fn kinds_first_seen(scan: &Scan, f: &FeatureStats) -> String {
    f.kinds()
        .into_iter()
        .map(|k| {
            let seen = f.first_seen[stats::kind_index(k).expect("a kind")].expect("seen");
            format!("{} (first in {})", stats::kind_name(k), seen_at(scan, seen))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A float32 as its shortest round-trip decimal (`1.0`, `0.1`, `1e-45`, `inf`, `NaN`).
fn shortest(v: f32) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        ryu::Buffer::new().format_finite(v).to_string()
    }
}

/// A float32 in at most 6 significant digits, for tables.
fn short_float(v: f32) -> String {
    let s = shortest(v);
    if !v.is_finite() {
        return s;
    }
    let rounded = round_sig(f64::from(v), 6);
    // The shortest form already has at most 6 digits when rounding loses nothing.
    if rounded.parse::<f32>() == Ok(v) {
        s
    } else {
        rounded
    }
}

/// `v` rounded to `digits` significant digits, trailing zeros dropped;
/// exponent form outside 1e-4 ..= 1e6.
fn round_sig(v: f64, digits: usize) -> String {
    let sci = format!("{v:.*e}", digits - 1);
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("exponent");
    if (-4..digits as i32).contains(&exp) {
        let s = format!("{v:.*}", (digits as i32 - 1 - exp) as usize);
        let s = if s.contains('.') { s.trim_end_matches('0') } else { &s };
        s.strip_suffix('.').unwrap_or(s).to_string()
    } else {
        let m = mantissa.trim_end_matches('0');
        format!("{}e{exp}", m.strip_suffix('.').unwrap_or(m))
    }
}

/// An int64 for tables: exact up to 12 digits, else 4 significant digits.
fn short_int(v: i64) -> String {
    if v.unsigned_abs() < 1_000_000_000_000 {
        v.to_string()
    } else {
        round_sig(v as f64, 4)
    }
}

/// `lo .. hi`, or just `lo` when both are the same.
fn span_str(lo: String, hi: String) -> String {
    if lo == hi {
        lo
    } else {
        format!("{lo} .. {hi}")
    }
}

/// `part` of `whole` as a percentage that is never rounded to 0% or 100%.
fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_string();
    }
    let p = part as f64 * 100.0 / whole as f64;
    if part == whole {
        "100%".to_string()
    } else if part == 0 {
        "0%".to_string()
    } else if p < 1.0 {
        "<1%".to_string()
    } else if p > 99.0 {
        ">99%".to_string()
    } else {
        format!("{p:.0}%")
    }
}

/// A count range: `3` when fixed, `0-3` otherwise, `-` when empty.
fn count_range(c: &stats::Counts) -> String {
    match c.range() {
        None => "-".to_string(),
        Some((a, b)) if a == b => a.to_string(),
        Some((a, b)) => format!("{a}-{b}"),
    }
}

/// A byte count, abbreviated: `512`, `3.9 KiB`, `1.2 MiB`.
fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return n.to_string();
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A feature name for tables and messages: control characters escaped.
fn display_name(name: &str) -> String {
    if name.is_empty() {
        return "\"\"".to_string();
    }
    let mut s = String::with_capacity(name.len());
    for c in name.chars() {
        if needs_escape(c) {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// Characters that would break a line or a table cell.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

// ---------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------

fn type_name(ty: MessageType) -> &'static str {
    match ty {
        MessageType::SequenceExample => "tf.train.SequenceExample",
        _ => "tf.train.Example",
    }
}

/// Summary line: what was scanned.
fn summary(scan: &Scan) -> String {
    let records = scan.stats.records;
    let what = match scan.files.as_slice() {
        [one] => one.name.clone(),
        files => format!("{} files", files.len()),
    };
    let mut s = format!(
        "{what}: {records} record{} of {}",
        if records == 1 { "" } else { "s" },
        type_name(scan.ty)
    );
    if scan.limited {
        s.push_str(" (--limit reached, not all records scanned)");
    }
    s
}

fn write_table(out: &mut String, scan: &Scan, width: Option<u16>) {
    let _ = writeln!(out, "{}", summary(scan));
    let records = scan.stats.records;
    let (mut notes, mut empty) = (Vec::new(), Vec::new());
    let sections: Vec<(&str, &stats::FeatureTable, bool)> = match scan.ty {
        MessageType::SequenceExample => vec![
            ("context feature", &scan.stats.features, false),
            ("feature list", &scan.stats.feature_lists, true),
        ],
        _ => vec![("feature", &scan.stats.features, false)],
    };
    for (title, table, lists) in sections {
        let plural = if table.len() == 1 { "" } else { "s" };
        let _ = writeln!(out, "\n{} {title}{plural}", table.len());
        if table.is_empty() {
            continue;
        }
        let mut t = Table::new();
        t.load_preset(presets::UTF8_FULL_CONDENSED);
        t.set_content_arrangement(ContentArrangement::Dynamic);
        if let Some(w) = width {
            t.set_width(w);
        }
        let mut header = vec!["feature", "kind", "present"];
        if lists {
            header.extend(["steps", "values/step"]);
        } else {
            header.push("values");
        }
        header.extend(["min .. max", "notes"]);
        t.set_header(header);
        // Names wrap only when they must: give them up to 24 columns (+ padding) first.
        let longest = table
            .features()
            .iter()
            .map(|f| display_name(&f.name).chars().count())
            .max();
        if let Some(col) = t.column_mut(0) {
            let min = longest.unwrap_or(7).clamp(7, 24) as u16 + 2;
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(min)));
        }
        for f in table.sorted() {
            t.add_row(table_row(scan, f, records, lists, &mut notes, &mut empty));
        }
        let _ = writeln!(out, "{t}");
    }
    for note in notes {
        let _ = writeln!(out, "{note}");
    }
    if !empty.is_empty() {
        let _ = writeln!(
            out,
            "! always empty (present, never with a value): {}",
            empty.join(", ")
        );
    }
    if let Some(e) = &scan.error {
        let _ = writeln!(
            out,
            "! stopped early (only the records before this error are counted): {e}"
        );
    }
}

fn table_row(
    scan: &Scan,
    f: &FeatureStats,
    records: u64,
    lists: bool,
    notes: &mut Vec<String>,
    empty: &mut Vec<String>,
) -> Vec<String> {
    let name = display_name(&f.name);
    let kinds = f.kinds();
    let kind = if kinds.is_empty() {
        "none".to_string()
    } else {
        kinds.iter().map(|k| stats::kind_name(*k)).collect::<Vec<_>>().join("/")
    };
    let present = if f.present == records {
        "all".to_string()
    } else {
        format!("{} ({})", f.present, pct(f.present, records))
    };
    let mut row = vec![name.clone(), kind, present];
    if lists {
        row.push(count_range(&f.steps));
    }
    row.push(count_range(&f.values));
    let mut range = Vec::new();
    let mut note = Vec::new();
    if f.int64.count > 0 {
        range.push(span_str(short_int(f.int64.min), short_int(f.int64.max)));
    }
    if f.float.count > 0 {
        match f.float.range() {
            Some((lo, hi)) => range.push(span_str(short_float(lo), short_float(hi))),
            None => range.push("NaN".to_string()),
        }
        if f.float.nan > 0 {
            note.push(format!("NaN {}", f.float.nan));
        }
        if f.float.pos_inf + f.float.neg_inf > 0 {
            note.push(format!("inf {}", f.float.pos_inf + f.float.neg_inf));
        }
    }
    let b = &f.bytes;
    if b.count > 0 {
        range.push(format!(
            "len {}",
            span_str(human_bytes(b.shortest), human_bytes(b.longest))
        ));
        let media = b.media_types();
        let shown: Vec<String> = match media.as_slice() {
            [] => Vec::new(),
            [(m, _)] => vec![m.name().to_string()],
            many => many.iter().take(3).map(|(m, n)| format!("{} {n}", m.name())).collect(),
        };
        note.extend(shown);
        if b.utf8 < b.count && b.utf8 > 0 {
            note.push(format!("utf-8 {}", pct(b.utf8, b.count)));
        }
    }
    if f.no_kind > 0 {
        note.push(format!("no kind {}", f.no_kind));
    }
    if f.is_conflict() {
        note.push("! CONFLICT".to_string());
        notes.push(format!("! {name}: kinds conflict: {}", kinds_first_seen(scan, f)));
    }
    if f.is_always_empty() {
        note.push("! always empty".to_string());
        empty.push(name.clone());
    }
    let absent = absent_in(f, scan);
    if !absent.is_empty() {
        let plural = if absent.len() == 1 { "" } else { "s" };
        note.push(format!("! absent in {} file{plural}", absent.len()));
        let names: Vec<&str> = absent.iter().map(|i| scan.files[*i].name.as_str()).collect();
        notes.push(format!("! {name}: absent from {}", names.join(", ")));
    }
    row.push(if range.is_empty() {
        "-".to_string()
    } else {
        range.join("; ")
    });
    row.push(note.join(", "));
    row
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

/// A float32 for JSON: its shortest decimal, infinities as strings.
fn f32_json(v: f32) -> Value {
    if v.is_finite() {
        let s = ryu::Buffer::new().format_finite(v).to_string();
        serde_json::Number::from_f64(s.parse().expect("float")).map_or(Value::Null, Value::Number)
    } else if v.is_nan() {
        Value::String("NaN".into())
    } else if v > 0.0 {
        Value::String("Infinity".into())
    } else {
        Value::String("-Infinity".into())
    }
}

fn counts_json(c: &stats::Counts) -> Value {
    match c.range() {
        Some((min, max)) => json!({"min": min, "max": max, "fixed": min == max}),
        None => Value::Null,
    }
}

fn to_json(scan: &Scan) -> Value {
    let records = scan.stats.records;
    let mut doc = Map::new();
    let ty = match scan.ty {
        MessageType::SequenceExample => "sequence",
        _ => "example",
    };
    doc.insert("type".into(), ty.into());
    doc.insert("records".into(), records.into());
    doc.insert("complete".into(), (!scan.limited && scan.error.is_none()).into());
    if let Some(e) = &scan.error {
        doc.insert("error".into(), e.clone().into());
    }
    let inputs: Vec<Value> = scan
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| json!({"file": f.name, "records": scan.records_of(i), "compression": f.compression.name()}))
        .collect();
    doc.insert("inputs".into(), inputs.into());
    let table = |t: &stats::FeatureTable, lists: bool| -> Value {
        let mut m = Map::new();
        for f in t.sorted() {
            m.insert(f.name.to_string(), feature_json(scan, f, records, lists));
        }
        Value::Object(m)
    };
    match scan.ty {
        MessageType::SequenceExample => {
            doc.insert("context".into(), table(&scan.stats.features, false));
            doc.insert("feature_lists".into(), table(&scan.stats.feature_lists, true));
        }
        _ => {
            doc.insert("features".into(), table(&scan.stats.features, false));
        }
    }
    Value::Object(doc)
}

fn feature_json(scan: &Scan, f: &FeatureStats, records: u64, lists: bool) -> Value {
    let mut m = Map::new();
    let kinds = f.kinds();
    let kind = match kinds.as_slice() {
        [] => "none",
        [k] => stats::kind_name(*k),
        _ => "conflict",
    };
    m.insert("kind".into(), kind.into());
    m.insert(
        "kinds".into(),
        kinds.iter().map(|k| stats::kind_name(*k)).collect::<Vec<_>>().into(),
    );
    let mut first = Map::new();
    for k in &kinds {
        let seen = f.first_seen[stats::kind_index(*k).expect("a kind")].expect("seen");
        let file = scan.files.get(seen.input as usize).map_or("", |f| f.name.as_str());
        first.insert(
            stats::kind_name(*k).into(),
            json!({"file": file, "record": seen.record}),
        );
    }
    m.insert("first_seen".into(), Value::Object(first));
    m.insert("present".into(), f.present.into());
    m.insert("missing".into(), (records - f.present).into());
    m.insert("no_kind".into(), f.no_kind.into());
    m.insert("values".into(), counts_json(&f.values));
    if lists {
        m.insert("steps".into(), counts_json(&f.steps));
    }
    if f.int64.count > 0 {
        m.insert(
            "int64".into(),
            json!({"count": f.int64.count, "min": f.int64.min, "max": f.int64.max}),
        );
    }
    let fl = &f.float;
    if fl.count > 0 {
        let (min, max) = match fl.range() {
            Some((lo, hi)) => (f32_json(lo), f32_json(hi)),
            None => (Value::Null, Value::Null),
        };
        m.insert(
            "float".into(),
            json!({"count": fl.count, "min": min, "max": max, "nan": fl.nan, "inf": fl.pos_inf, "-inf": fl.neg_inf}),
        );
    }
    let b = &f.bytes;
    if b.count > 0 {
        let media: Map<String, Value> = b
            .media_types()
            .into_iter()
            .map(|(m, n)| (m.name().to_string(), n.into()))
            .collect();
        let share = (b.utf8 as f64 / b.count as f64 * 1e4).round() / 1e4;
        m.insert(
            "bytes".into(),
            json!({"count": b.count, "utf8": share, "empty": b.empty, "shortest": b.shortest,
                   "longest": b.longest, "media": media}),
        );
    }
    let absent = absent_in(f, scan);
    if !absent.is_empty() {
        let names: Vec<&str> = absent.iter().map(|i| scan.files[*i].name.as_str()).collect();
        m.insert("absent_in".into(), names.into());
    }
    let mut flags = Vec::new();
    if f.is_conflict() {
        flags.push("conflict");
    }
    if f.is_always_empty() {
        flags.push("always_empty");
    }
    if !absent.is_empty() {
        flags.push("absent_in_shards");
    }
    m.insert("flags".into(), flags.into());
    Value::Object(m)
}

// ---------------------------------------------------------------------------
// TensorFlow parse spec
// ---------------------------------------------------------------------------

/// A Python string literal (double-quoted, control characters escaped).
fn py_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn tf_dtype(kind: Kind) -> &'static str {
    match kind {
        Kind::Int64 => "tf.int64",
        Kind::Float => "tf.float32",
        _ => "tf.string",
    }
}

fn tf_zero(kind: Kind) -> &'static str {
    match kind {
        Kind::Int64 => "0",
        Kind::Float => "0.0",
        _ => "b\"\"",
    }
}

/// One line of a spec dict: `"name": tf.io....,  # note` or a comment.
fn spec_line(scan: &Scan, f: &FeatureStats, records: u64, lists: bool) -> String {
    let name = py_str(&f.name);
    let mut notes = Vec::new();
    let absent = absent_in(f, scan);
    if !absent.is_empty() {
        let mut names: Vec<String> = absent.iter().take(3).map(|i| py_str(&scan.files[*i].name)).collect();
        if absent.len() > 3 {
            names.push("...".to_string());
        }
        notes.push(format!(
            "absent from {} of {} files: {}",
            absent.len(),
            scan.files.len(),
            names.join(", ")
        ));
    }
    let kind = match f.kind() {
        Some(k) => k,
        None if f.is_conflict() => {
            return format!(
                "    # {name}: LEFT OUT: its kind differs between records ({}); no single dtype parses them all.",
                kinds_first_seen(scan, f)
            );
        }
        None => {
            let what = if lists { "no step ever has" } else { "never has" };
            return format!("    # {name}: LEFT OUT: {what} a kind set, so no dtype is known.");
        }
    };
    let dtype = tf_dtype(kind);
    let missing = f.present < records;
    let spec = match f.values.range() {
        Some((n, m)) if n == m && n > 0 => {
            let shape = if n == 1 { "[]".to_string() } else { format!("[{n}]") };
            if lists {
                let allow = if missing { ", allow_missing=True" } else { "" };
                format!("tf.io.FixedLenSequenceFeature({shape}, {dtype}{allow})")
            } else if missing {
                let zero = tf_zero(kind);
                let default = if n == 1 {
                    zero.to_string()
                } else {
                    format!("[{zero}] * {n}")
                };
                notes.push(format!("missing in {} of {records} records", records - f.present));
                format!("tf.io.FixedLenFeature({shape}, {dtype}, default_value={default})")
            } else {
                format!("tf.io.FixedLenFeature({shape}, {dtype})")
            }
        }
        _ => {
            if f.is_always_empty() {
                notes.push("always empty".to_string());
            }
            format!("tf.io.VarLenFeature({dtype})")
        }
    };
    let mut line = format!("    {name}: {spec},");
    if !notes.is_empty() {
        let _ = write!(line, "  # {}", notes.join("; "));
    }
    line
}

fn spec_dict(out: &mut String, scan: &Scan, var: &str, table: &stats::FeatureTable, lists: bool) {
    let _ = writeln!(out, "{var} = {{");
    let mut described = 0;
    for f in table.sorted() {
        let line = spec_line(scan, f, scan.stats.records, lists);
        described += usize::from(!line.trim_start().starts_with('#'));
        let _ = writeln!(out, "{line}");
    }
    if described == 0 {
        let _ = writeln!(
            out,
            "    # (nothing to describe; TensorFlow refuses to parse with no features at all)"
        );
    }
    let _ = writeln!(out, "}}");
}

fn write_tf(out: &mut String, scan: &Scan) {
    let records = scan.stats.records;
    let files = match scan.files.as_slice() {
        [one] => py_str(&one.name),
        many => format!("{} files", many.len()),
    };
    let _ = writeln!(
        out,
        "# Parse spec inferred by `tfr schema` from {records} record{} of {files} ({}).",
        if records == 1 { "" } else { "s" },
        type_name(scan.ty)
    );
    if scan.limited {
        let _ = writeln!(out, "# Only the first {records} records were scanned (--limit).");
    }
    if let Some(e) = &scan.error {
        let _ = writeln!(
            out,
            "# INCOMPLETE: the scan stopped at an error: {}",
            e.replace('\n', " ")
        );
    }
    let mut compressions: Vec<Compression> = scan.files.iter().map(|f| f.compression).collect();
    compressions.dedup();
    let compression = match compressions.as_slice() {
        [Compression::Gzip] => ", compression_type=\"GZIP\"",
        [Compression::Zlib] => ", compression_type=\"ZLIB\"",
        _ => "",
    };
    if compressions.len() > 1 {
        let _ = writeln!(out, "# The files mix compressions: give each its own compression_type.");
    }
    let _ = writeln!(out, "import tensorflow as tf\n");
    match scan.ty {
        MessageType::SequenceExample => {
            spec_dict(out, scan, "context_features", &scan.stats.features, false);
            let _ = writeln!(out);
            spec_dict(out, scan, "sequence_features", &scan.stats.feature_lists, true);
            let _ = writeln!(out);
            let _ = writeln!(out, "def parse(serialized):");
            let _ = writeln!(out, "    return tf.io.parse_single_sequence_example(");
            let _ = writeln!(
                out,
                "        serialized, context_features=context_features, sequence_features=sequence_features)"
            );
        }
        _ => {
            spec_dict(out, scan, "feature_description", &scan.stats.features, false);
            let _ = writeln!(out);
            let _ = writeln!(out, "def parse(serialized):");
            let _ = writeln!(
                out,
                "    return tf.io.parse_single_example(serialized, feature_description)"
            );
        }
    }
    let _ = writeln!(
        out,
        "\n# dataset = tf.data.TFRecordDataset(FILES{compression}).map(parse)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::example::stats::Media;

    #[test]
    fn floats_are_short_in_tables() {
        assert_eq!(short_float(1.0), "1.0");
        assert_eq!(short_float(-2.5529897), "-2.55299");
        assert_eq!(short_float(0.33333334), "0.333333");
        assert_eq!(short_float(3.4028235e38), "3.40282e38");
        assert_eq!(short_float(1e-45), "1e-45");
        assert_eq!(short_float(f32::NEG_INFINITY), "-inf");
        assert_eq!(short_float(123456790.0), "1.23457e8");
    }

    #[test]
    fn python_literals_escape_what_python_needs() {
        assert_eq!(py_str("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(py_str("new\nline\ttab\r"), r#""new\nline\ttab\r""#);
        assert_eq!(py_str("ctl\x01\x1f\x7f"), r#""ctl\x01\x1f\x7f""#);
        assert_eq!(py_str("\u{85}\u{a0}\u{2028}ключ"), "\"\\x85\u{a0}\\u2028ключ\"");
        assert_eq!(py_str(""), "\"\"");
    }

    #[test]
    fn percentages_never_round_to_the_ends() {
        assert_eq!(pct(199, 200), ">99%");
        assert_eq!(pct(1, 200), "<1%");
        assert_eq!(pct(50, 200), "25%");
        assert_eq!(pct(0, 0), "-");
    }

    #[test]
    fn media_names_are_stable() {
        let names: Vec<&str> = Media::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(
            names,
            ["jpeg", "png", "gif", "webp", "tensor_proto", "json", "text", "binary"]
        );
    }
}

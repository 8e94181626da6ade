//! JSON lines to TFRecord records (`tfr from-jsonl`, the reverse of
//! to-jsonl): the line reading, the batches, and the reconciliation of
//! each feature's kind across lines ([`kind_log`]); the encoder itself is
//! [`crate::example::json`].
//!
//! One thread reads whole lines in batches, workers (one per core) encode
//! them as framed records, one thread writes them in order
//! ([`pipeline::run`]). A bad line stops the run with
//! `NAME:LINE:COLUMN key: reason`.

use crate::example::json::{self, Encoder, JsonFormat, Schema, Section};
use crate::example::Kind;
use crate::example::MessageType;
use crate::io::Input;
// Bytes of JSON lines handed to a worker at a time: the records' batch
// size, so memory is bounded as for the commands that read records.
use crate::error::{bail, err, Context, Result};
use crate::pipeline::batches::BATCH;
use crate::pipeline::{self, Sender};
use crate::record::append_framed;
use std::io::{self, Read, Write};
use std::sync::Arc;

mod kind_log;
mod message;
use kind_log::{change_message, pack, KindLog, LastLine, KIND_NAMES};
pub use message::convert_messages;

/// `--on-kind-change`: when a plain value has another kind than its
/// feature's first value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnKindChange {
    /// Integers after floats become floats; other changes are errors.
    Error,
    /// Every line as it reads; a warning per feature.
    Keep,
}

/// How the lines are read and encoded.
pub struct Options {
    /// Natural JSONL or protojson.
    pub format: JsonFormat,
    /// `--schema`: the kinds of the features it names.
    pub schema: Option<Schema>,
    /// The message type (`None`: from the first non-blank line).
    pub ty: Option<MessageType>,
    /// `--max-line-size`: the longest line read.
    pub max_line_size: u64,
    /// `--on-kind-change`.
    pub on_kind_change: OnKindChange,
    /// Worker threads ([`pipeline::workers`]).
    pub workers: usize,
}

/// What a conversion leaves to say once its output is in place.
pub struct Converted {
    kinds: KindLog,
    /// The first integer written rounded: where, its text, and how many
    /// more lines had one.
    rounded: Option<(String, String, u64)>,
}

impl Converted {
    /// The warning lines: an integer written rounded to float32, the
    /// features whose plain values change kind.
    pub fn warnings(&self, inputs: &[Input]) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some((at, text, more)) = &self.rounded {
            let more = match more {
                0 => String::new(),
                n => format!(" (and in {n} more lines)"),
            };
            lines.push(format!(
                "warning: {at}: integer {text} in a float list is written rounded to float32{more}: float32 \
                 holds integers exactly only up to 2^24"
            ));
        }
        lines.extend(self.kinds.warnings(inputs));
        lines
    }
}

/// Converts the JSON lines of `inputs` into framed records written in
/// order to `out`; `update` is told the bytes and lines read.
pub fn convert(
    inputs: &[Input],
    opts: &Options,
    out: &mut (impl Write + Send),
    update: &(dyn Fn(u64, u64) + Sync),
) -> Result<Converted> {
    let format = opts.format;
    let schema = &opts.schema;
    let mut ty = opts.ty;
    // Kinds seen are merged in line order by the writer, so which names
    // are tracked (the first KIND_NAMES) does not depend on thread timing.
    let mut kinds = KindLog::default();
    // The features the writer writes as floats, with a version: workers
    // encode with them coerced too, so a file whose float feature turns
    // integer (jq 1.6) is encoded on every core, not again by the writer.
    // A feature is added only once its first line (float) is written, so
    // every batch a worker encodes with it coerced comes after that line.
    let coerced = std::sync::RwLock::new((0u64, Schema::default()));
    let work = |batch: &mut Batch, out: &mut Encoded| -> Result<()> {
        thread_local! {
            static ENCODER: std::cell::RefCell<Option<(u64, Encoder)>> = const { std::cell::RefCell::new(None) };
        }
        ENCODER.with_borrow_mut(|slot| {
            let now = {
                let shared = coerced.read().unwrap_or_else(|e| e.into_inner());
                match slot {
                    Some((version, _)) if *version == shared.0 => None,
                    _ if shared.0 == 0 => Some((0, None)),
                    _ => Some((shared.0, Some(shared.1.clone()))),
                }
            };
            if let Some((version, floats)) = now {
                let encoder = Encoder::new(format, schema.clone());
                *slot = Some((
                    version,
                    match floats {
                        Some(floats) => encoder.coercing(floats),
                        None => encoder,
                    },
                ));
            }
            let (version, encoder) = slot.as_mut().expect("an encoder");
            let result = encode_batch(encoder, batch, &mut out.bytes, &mut out.kinds, &mut out.rounded);
            if result.is_err() && *version > 0 {
                // A line the coerced kinds refuse (strings where floats
                // were): encoded as read, for the writer to name both lines.
                out.bytes.clear();
                out.kinds = KindLog::default();
                out.rounded = None;
                let mut plain = Encoder::new(format, schema.clone());
                return encode_batch(&mut plain, batch, &mut out.bytes, &mut out.kinds, &mut out.rounded);
            }
            result
        })?;
        // The lines go on to the writer, which encodes them again when a
        // feature's kind changes.
        let recycled = std::mem::take(&mut out.spare);
        out.lines = Some(Lines {
            data: std::mem::replace(&mut batch.data, recycled),
            first_line: batch.first_line,
            input: batch.input,
            ty: batch.ty,
            name: batch.name.clone(),
        });
        Ok(())
    };
    let policy = opts.on_kind_change;
    let mut reconcile = Reconcile {
        coerced: &coerced,
        format,
        user: schema.clone(),
        forced: Schema::default(),
        plain: None,
        forcing: None,
        inputs,
        rounded: None,
        failed: None,
    };
    let (sink, log, rec) = (out, &mut kinds, &mut reconcile);
    let write = |encoded: &Encoded| {
        if policy == OnKindChange::Keep || !log.conflicts(&encoded.kinds) {
            log.merge(&encoded.kinds);
            if let Some((at, text, more)) = &encoded.rounded {
                rec.note_rounded(at, text, *more);
            }
            return sink.write_all(&encoded.bytes);
        }
        match rec.batch(log, encoded) {
            Ok(bytes) => sink.write_all(&bytes),
            Err(e) => {
                rec.failed = Some(e);
                Err(io::Error::other("kind change"))
            }
        }
    };
    let produce = |tx: &mut Sender<Batch>| produce(inputs, format, &mut ty, opts.max_line_size, update, tx);
    if let Err(e) = pipeline::run(opts.workers, produce, work, write) {
        return Err(reconcile.failed.take().unwrap_or(e));
    }
    Ok(Converted {
        kinds,
        rounded: reconcile.rounded,
    })
}

/// The lines of a batch, kept for the writer.
struct Lines {
    data: Vec<u8>,
    first_line: u64,
    input: usize,
    ty: MessageType,
    name: Arc<str>,
}

/// The writer's second look at a batch in which a feature's kind changes
/// (`--on-kind-change error`): line by line, in order, each feature's kind
/// is the kind of its first value; a feature seen as float has later plain
/// integers written as floats (the line encoded again with them coerced),
/// any other change of a plain value is an error naming both lines. A
/// typed value (`{"int64_list": ...}`: its kind written out, as to-jsonl
/// does where a name holds two kinds in one record) is taken as it is.
struct Reconcile<'a> {
    /// `forced` as the workers see it, with a version bumped on each change.
    coerced: &'a std::sync::RwLock<(u64, Schema)>,
    format: JsonFormat,
    /// `--schema`.
    user: Option<Schema>,
    /// The features whose plain integers are written as floats.
    forced: Schema,
    /// An encoder with `--schema` alone.
    plain: Option<Encoder>,
    /// An encoder with `--schema` and `forced` (made again when it grows).
    forcing: Option<Encoder>,
    inputs: &'a [Input],
    /// The first integer written rounded: where, its text, and how many
    /// more lines had one.
    rounded: Option<(String, String, u64)>,
    /// The error that stopped the writer.
    failed: Option<crate::Error>,
}

impl Reconcile<'_> {
    fn batch(&mut self, log: &mut KindLog, encoded: &Encoded) -> Result<Vec<u8>> {
        let lines = encoded.lines.as_ref().expect("a batch's lines");
        let mut out = Vec::with_capacity(encoded.bytes.len());
        let mut kinds: Vec<(Section, Vec<u8>, Kind, bool)> = Vec::new();
        for (n, line) in numbered_lines(&lines.data, lines.first_line) {
            let at = (lines.input, n);
            let (format, user) = (self.format, &self.user);
            let plain = self.plain.get_or_insert_with(|| Encoder::new(format, user.clone()));
            let record = out.len();
            append_framed(&mut out, |o| plain.encode(lines.ty, line, o))
                .map_err(|e| err!("{}:{n}:{}: {e}", lines.name, e.column(line)))?;
            kinds.clear();
            plain.for_each_kind(|section, name, kind, typed| kinds.push((section, name.to_vec(), kind, typed)));
            let plain_rounded = plain.inexact_integer();
            let mut coerce = false;
            for (section, name, kind, typed) in &kinds {
                match log.established(*section, name) {
                    None => log.note(*section, name, *kind, *typed, pack(at), KIND_NAMES),
                    Some(_) if *typed => {}
                    Some((was, _)) if was == *kind => {}
                    Some((Kind::Float, _)) if *kind == Kind::Int64 => {
                        coerce = true;
                        if self.force_float(*section, name) {
                            self.forcing = None;
                        }
                    }
                    Some((was, first)) => {
                        bail!(change_message(
                            self.inputs,
                            *section,
                            name,
                            &[(first, was), (at, *kind)],
                            true
                        ))
                    }
                }
            }
            if !coerce {
                if let Some((a, b)) = plain_rounded {
                    let text = String::from_utf8_lossy(&line[a..b]).into_owned();
                    self.note_rounded(&format!("{}:{n}", lines.name), &text, 0);
                }
                continue;
            }
            out.truncate(record);
            let (user, forced) = (&self.user, &self.forced);
            let forcing = self
                .forcing
                .get_or_insert_with(|| Encoder::new(format, user.clone()).coercing(forced.clone()));
            if let Err(e) = append_framed(&mut out, |o| forcing.encode(lines.ty, line, o)) {
                // Not expected (plain integers read as floats, a typed
                // form as it says), but named as a kind change if it happens.
                let coerced = kinds.iter().find_map(|(s, name, k, typed)| {
                    let first = log
                        .established(*s, name)
                        .filter(|e| e.0 == Kind::Float && *k == Kind::Int64 && !typed)?;
                    Some(change_message(
                        self.inputs,
                        *s,
                        name,
                        &[(first.1, Kind::Float), (at, *k)],
                        true,
                    ))
                });
                match coerced {
                    Some(text) => bail!("{text}; line {n} cannot be read as floats: {e}"),
                    None => bail!("{}:{n}:{}: {e}", lines.name, e.column(line)),
                }
            }
            if let Some((a, b)) = forcing.inexact_integer() {
                let text = String::from_utf8_lossy(&line[a..b]).into_owned();
                self.note_rounded(&format!("{}:{n}", lines.name), &text, 0);
            }
        }
        Ok(out)
    }

    /// Notes lines with an integer written rounded (the first is named).
    fn note_rounded(&mut self, at: &str, text: &str, more: u64) {
        match &mut self.rounded {
            Some((_, _, count)) => *count += 1 + more,
            None => self.rounded = Some((at.to_string(), text.to_string(), more)),
        }
    }

    /// Adds a feature to those whose integers are written as floats;
    /// whether it was new.
    fn force_float(&mut self, section: Section, name: &[u8]) -> bool {
        let map = match section {
            Section::Features => &mut self.forced.features,
            Section::Context => &mut self.forced.context,
            Section::FeatureLists => &mut self.forced.feature_lists,
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let new = map.insert(name, Kind::Float) != Some(Kind::Float);
        if new {
            let mut shared = self.coerced.write().unwrap_or_else(|e| e.into_inner());
            shared.0 += 1;
            shared.1 = self.forced.clone();
        }
        new
    }
}

/// What a worker makes of a batch: the framed records, and the kinds of
/// the features in its lines.
#[derive(Default)]
struct Encoded {
    bytes: Vec<u8>,
    kinds: KindLog,
    lines: Option<Lines>,
    /// The first line with an integer written rounded to float32, that
    /// integer, and how many more lines had one.
    rounded: Option<(String, String, u64)>,
    /// The buffer of the lines written before, emptied: it goes back to
    /// the reading thread in the next batch the worker is done with (a
    /// fresh buffer per batch cost the reading thread a page fault per
    /// 4 KiB, and it is the one thread every worker waits on).
    spare: Vec<u8>,
}

impl pipeline::Output for Encoded {
    fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.kinds.first.is_empty() && !self.kinds.untracked
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.kinds = KindLog::default();
        if let Some(lines) = self.lines.take() {
            self.spare = lines.data;
            self.spare.clear();
        }
        self.rounded = None;
    }
}

/// Whole lines of one input for a worker to encode.
struct Batch {
    data: Vec<u8>,
    /// The number of the first line.
    first_line: u64,
    /// Which input the lines are from.
    input: usize,
    ty: MessageType,
    name: Arc<str>,
}

/// Encodes the lines of a batch as framed records, noting feature kinds in `kinds`.
fn encode_batch(
    encoder: &mut Encoder,
    batch: &Batch,
    out: &mut Vec<u8>,
    kinds: &mut KindLog,
    rounded: &mut Option<(String, String, u64)>,
) -> Result<()> {
    let mut last = LastLine::default();
    for (n, line) in numbered_lines(&batch.data, batch.first_line) {
        if let Err(e) = append_framed(out, |out| encoder.encode(batch.ty, line, out)) {
            let at = format!("{}:{n}:{}", batch.name, e.column(line));
            let json_start = matches!(
                line.iter().find(|b| !b.is_ascii_whitespace()),
                Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
            );
            if n == 1 && e.offset == 0 && !json_start {
                bail!("{at}: {e} (this is not JSON text: a TFRecord file? `tfr to-jsonl` reads those)");
            }
            match e.key {
                Some(_) => bail!("{at} {e}"),
                None => bail!("{at}: {e}"),
            }
        }
        kinds.note_line(encoder, &mut last, (batch.input, n));
        if let Some((a, b)) = encoder.inexact_integer() {
            match rounded {
                Some((_, _, more)) => *more += 1,
                None => {
                    let text = String::from_utf8_lossy(&line[a..b]).into_owned();
                    *rounded = Some((format!("{}:{n}", batch.name), text, 0));
                }
            }
        }
    }
    Ok(())
}

/// Reads every input into batches of whole lines; decides `--type auto`
/// from the first non-blank line.
fn produce(
    inputs: &[Input],
    format: JsonFormat,
    ty: &mut Option<MessageType>,
    max_line: u64,
    update: &(dyn Fn(u64, u64) + Sync),
    tx: &mut Sender<Batch>,
) -> Result<()> {
    let spares = tx.spares();
    for (index, input) in inputs.iter().enumerate() {
        let name: Arc<str> = input.display().into();
        let mut chunks = Chunks::open(input, max_line)?;
        let next = |chunks: &mut Chunks| match chunks.next(spares.take().map(|b| b.data).unwrap_or_default()) {
            Err(e) if e.get_ref().is_some_and(|r| r.is::<LineTooLong>()) => Err(err!("{name}:{e}")),
            other => other.with_context(|| format!("{name}: read failed")),
        };
        while let Some((first_line, data)) = next(&mut chunks)? {
            let t = match *ty {
                Some(t) => t,
                None => match data
                    .split(|&b| b == b'\n')
                    .find(|l| !l.iter().all(u8::is_ascii_whitespace))
                {
                    Some(line) => *ty.insert(json::detect(format, line)),
                    None => MessageType::Example, // only blank lines so far
                },
            };
            tx.send(Batch {
                data,
                first_line,
                input: index,
                ty: t,
                name: name.clone(),
            })?;
            update(chunks.consumed, chunks.lines);
        }
    }
    Ok(())
}

/// A line longer than `--max-line-size`.
#[derive(Debug)]
struct LineTooLong {
    line: u64,
    limit: u64,
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: line longer than {} (--max-line-size), stopped there",
            self.line,
            crate::record::human_size(self.limit)
        )
    }
}

impl std::error::Error for LineTooLong {}

/// Whether a line (or its start) may be a record: its first byte that is
/// not white space (after a byte order mark) opens what a line holds — an
/// object (`{`), `null` (an empty Example) or a string (a raw payload).
fn may_be_json(line: &[u8]) -> bool {
    let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(b) => matches!(b, b'{' | b'"' | b'n'),
    }
}

/// The whole lines of one input in chunks of about [`BATCH`] bytes (the
/// last newline of each chunk dropped), with the number of each chunk's
/// first line. A leading UTF-8 byte order mark is taken off. Memory is
/// bounded by the chunk size and the longest line.
struct Chunks {
    src: Box<dyn Read + Send>,
    /// Bytes read after the last complete line.
    rest: Vec<u8>,
    eof: bool,
    /// Lines handed out so far.
    lines: u64,
    /// Input bytes consumed so far (decompressed), for progress.
    consumed: u64,
    /// The longest line read (`--max-line-size`).
    max_line: u64,
}

impl Chunks {
    /// Opens a file or stdin, inflating gzip or zlib (no JSON text starts
    /// with their first bytes).
    fn open(input: &Input, max_line: u64) -> Result<Chunks> {
        Ok(Chunks {
            src: input.open_decompressed()?,
            rest: Vec::new(),
            eof: false,
            lines: 0,
            consumed: 0,
            max_line,
        })
    }

    /// The next chunk of whole lines and the number of its first line, in
    /// `buf` (a used buffer, or an empty one).
    fn next(&mut self, mut buf: Vec<u8>) -> io::Result<Option<(u64, Vec<u8>)>> {
        buf.clear();
        buf.reserve(BATCH + BATCH / 4);
        buf.append(&mut self.rest);
        loop {
            let scanned = buf.len();
            if self.eof {
                if buf.is_empty() {
                    return Ok(None);
                }
                break;
            }
            // Read into the buffer's spare room (not zeroed first): up to
            // BATCH bytes, fewer only at the end of the input.
            let want = (scanned + BATCH).max(BATCH) - scanned;
            buf.reserve(want);
            let got = (&mut self.src).take(want as u64).read_to_end(&mut buf)?;
            if got < want {
                self.eof = true;
            }
            if let Some(last) = memchr::memrchr(b'\n', &buf[scanned..]) {
                // Whole lines up to the last newline; keep the rest.
                let cut = scanned + last;
                self.rest.extend_from_slice(&buf[cut + 1..]);
                buf.truncate(cut);
                break;
            }
            // No newline yet: one long line, read on, unless it cannot be
            // JSON (a NUL byte, which JSON text never holds; a first byte no
            // JSON value starts with): then it is handed out as it is, for
            // the error, rather than read to its end (/dev/zero, `yes` have
            // none). A line longer than the limit is an error of its own.
            if memchr::memchr(0, &buf[scanned..]).is_some() || !may_be_json(&buf) {
                break;
            }
            if buf.len() as u64 > self.max_line {
                return Err(io::Error::other(LineTooLong {
                    line: self.lines + 1,
                    limit: self.max_line,
                }));
            }
        }
        if self.lines == 0 && self.consumed == 0 && buf.starts_with(b"\xef\xbb\xbf") {
            buf.drain(..3);
            self.consumed += 3;
        }
        let first = self.lines + 1;
        self.lines += memchr::memchr_iter(b'\n', &buf).count() as u64 + 1;
        self.consumed += buf.len() as u64 + 1;
        Ok(Some((first, buf)))
    }
}

/// The lines of a batch that are not blank, each with its number from
/// `first` (a `\r` before its `\n` left out).
fn numbered_lines(data: &[u8], first: u64) -> impl Iterator<Item = (u64, &[u8])> {
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', data).chain([data.len()]);
    (first..).zip(ends).filter_map(move |(n, end)| {
        let line = &data[start..end];
        start = end + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        (!line.iter().all(u8::is_ascii_whitespace)).then_some((n, line))
    })
}

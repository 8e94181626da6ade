//! The one reader of records: every command that does something with each
//! record of its inputs (cat, to-jsonl, schema, stats, validate, the
//! report's statistics and gallery) reads them here and hands them to a
//! consumer ([`Work`] on the workers, a [`Sink`](super::Sink) in record
//! order) through [`run`].
//!
//! The reader: inputs are opened (and inflated) on up to `--jobs` threads
//! at once (one large plain file: its pieces, [`record::pieces`]), their
//! records copied into numbered batches that reach the workers in input
//! order ([`super::in_input_order`], then [`super::run`]); the payload type is resolved once ([`Types`]: fixed,
//! per input, or once for the dataset); `--skip/--limit` and `--sample`
//! ([`Reading`]); a record over [`HUGE`] is handed to the consumer by the
//! reading thread itself ([`Work::huge`]) instead of being copied; damage
//! ends the run after the records before it.
//!
//! `--where` ([`Reading::filter`]): when every record is read, the workers
//! drop the records that do not match from each batch before the consumer
//! sees it (every core evaluates); with `--skip/--limit` or `--sample`
//! the reading thread evaluates each record, so that they count matching
//! records only (`head -n 5 --where X`: the first 5 matches; `--skip 10`:
//! the first 10 matches skipped; `--sample 5`: 5 of the matches).

use super::rng::SplitMix;
use super::{Output, Sender, Sink, Spares, Stopped};
use crate::error::Result;
use crate::example::json::render::{KindNote, KindTable, Tracking};
use crate::example::{self, Decoder, MessageType, Out, Where};
use crate::io::{Compression, Input};
use crate::record;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};

mod render;
pub use render::{Render, Rendered};
mod read;
use read::*;
mod sample;
use sample::*;

/// A batch handed to a worker holds the records that start in one window
/// of this many bytes of its input (the record after a huge one starts a
/// new batch too).
pub const BATCH: usize = 256 * 1024;
const _: () = assert!(record::PIECE_ALIGN % BATCH as u64 == 0, "pieces start on batch windows");
/// A payload longer than this is handed to [`Work::huge`] by the reading
/// thread as it is read, not copied into a batch (memory: the record, plus
/// the pipeline's window of batches).
pub const HUGE: usize = 4 << 20;

/// Which records of the inputs taken together are read: skip the first
/// `skip`, then read at most `limit`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Range {
    /// Records skipped first.
    pub skip: u64,
    /// Records read at most after them.
    pub limit: Option<u64>,
}

impl Range {
    /// Every record.
    fn is_all(&self) -> bool {
        self.skip == 0 && self.limit.is_none()
    }
}

/// How the payload type of a record is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Types {
    /// `--type` given: every record is of it.
    Fixed(MessageType),
    /// Auto, per input: each input's first record decides (cat, to-jsonl).
    PerInput,
    /// Auto, one dataset: its first record decides for all the inputs
    /// (schema, stats, validate).
    Dataset,
}

impl Types {
    /// `Fixed(t)`, else `auto`.
    pub fn given(ty: Option<MessageType>, auto: Types) -> Types {
        ty.map_or(auto, Types::Fixed)
    }

    fn fixed(self) -> Option<MessageType> {
        match self {
            Types::Fixed(t) => Some(t),
            _ => None,
        }
    }
}

/// How the inputs of [`run`] are read.
#[derive(Clone, Copy, Debug)]
pub struct Reading<'a> {
    /// How each input is opened.
    pub open: &'a record::OpenOptions,
    /// The payload type (auto types are decoded strictly: unknown fields
    /// are an error).
    pub types: Types,
    /// Inputs read at once.
    pub jobs: usize,
    /// Which records.
    pub range: Range,
    /// A uniform random sample of the records instead (the range is then
    /// not used): its size and the seed.
    pub sample: Option<(u64, u64)>,
    /// With a limit: read one record past it, to tell whether it cut
    /// anything ([`Read::limited`]).
    pub probe_limit: bool,
    /// `--where`: only the records that match (the range and the sample
    /// then count matching records).
    pub filter: Option<&'a Where>,
}

impl Reading<'_> {
    /// The filter evaluated by the reading threads (with a range or a
    /// sample, which count matching records), not by the workers.
    fn filter_on_reader(&self) -> Option<&Where> {
        self.filter.filter(|_| self.sample.is_some() || !self.range.is_all())
    }

    /// The filter evaluated by the workers.
    fn filter_on_workers(&self) -> Option<&Where> {
        self.filter.filter(|_| self.sample.is_none() && self.range.is_all())
    }
}

/// Whether `record` matches `filter` (`--where`); a payload that does not
/// decode is an error naming the record, and so is a raw one.
pub fn keeps(filter: &Where, decoder: &mut Decoder, record: &Record<'_>) -> Result<bool> {
    if record.ty == MessageType::Raw && !filter.is_bound() {
        crate::error::bail!(
            "{}: record {} at byte {}: --where reads features, and a --type raw record has none",
            record.name,
            record.index,
            record.offset
        );
    }
    filter
        .matches_payload(decoder, record.ty, record.strict, record.payload)
        .map_err(|e| decode_error(record.name, record.index, record.offset, e))
}

/// One record handed to a consumer, with what its input says about it.
pub struct Record<'a> {
    /// The payload.
    pub payload: &'a [u8],
    /// Its index and byte offset in its input.
    pub index: u64,
    /// Its byte offset in its input.
    pub offset: u64,
    /// Its input: number (in the order given) and display name.
    pub input: u32,
    /// Its input's display name.
    pub name: &'a str,
    /// The type it is decoded as.
    pub ty: MessageType,
    /// Whether the type was guessed (auto: unknown fields are an error).
    pub strict: bool,
    /// Its footer (the masked CRC-32C of `payload`) when the reader
    /// checked it: a consumer writing the record out frames it without
    /// computing the CRC again.
    pub crc: Option<u32>,
}

impl<'a> Record<'a> {
    /// Its footer, the masked CRC-32C of the payload: the one the reader
    /// checked, computed only where it did not check one.
    pub fn footer(&self) -> u32 {
        self.crc.unwrap_or_else(|| record::masked_crc(self.payload))
    }

    /// A record read from input `input` (shown as `name`), of the type
    /// `known` gives, else the one `decide` finds for it (then kept in
    /// `known` for the records after it).
    fn typed(
        read: record::Record<'a>,
        (input, name): (usize, &'a str),
        strict: bool,
        known: &mut Option<MessageType>,
        decide: impl FnOnce(&Record<'_>) -> Result<MessageType>,
    ) -> Result<Record<'a>> {
        let mut record = Record {
            payload: read.data,
            index: read.index,
            offset: read.offset,
            input: input as u32,
            name,
            ty: MessageType::Raw,
            strict,
            crc: read.crc,
        };
        record.ty = match *known {
            Some(t) => t,
            None => *known.insert(decide(&record)?),
        };
        Ok(record)
    }
}

/// The worker side of a consumer of records: what a worker makes of the
/// records of one batch (`Out`, handed in batch order to the consumer's
/// [`Sink`](super::Sink), which keeps what must be kept across records).
pub trait Work: Sync {
    /// What one batch becomes.
    type Out: Output;

    /// One record into `out` (on error, what it added may stay: the
    /// records before it are kept).
    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut Self::Out) -> Result<()>;

    /// Every record of a batch, in order, stopping at the first error.
    fn batch(&self, batch: &Batch<Self::Out>, out: &mut Self::Out) -> Result<()> {
        each_record(self, batch, out)
    }

    /// [`Work::batch`], what the workers call: a consumer that keeps the
    /// payloads as they are takes them ([`Batch::take_payloads`]) instead
    /// of copying them.
    fn batch_mut(&self, batch: &mut Batch<Self::Out>, out: &mut Self::Out) -> Result<()> {
        self.batch(batch, out)
    }

    /// A record over [`HUGE`], on the reading thread: what it becomes,
    /// handed on in one or more outputs.
    fn huge(&self, record: &Record<'_>, emit: &mut dyn FnMut(Self::Out) -> Result<(), Stopped>) -> Result<()> {
        let mut out = Self::Out::default();
        example::with_decoder(|d| self.record(d, record, &mut out))?;
        emit(out)?;
        Ok(())
    }

    /// Auto: the payload type from a first record (`record.ty` is not yet
    /// known); an error names the record.
    fn resolve(&self, record: &Record<'_>) -> Result<MessageType> {
        example::resolve_auto(record.payload).map_err(|e| decode_error(record.name, record.index, record.offset, e))
    }

    /// The window a batch's records start in: [`BATCH`], or a smaller
    /// power of two for a consumer whose outputs are several times its
    /// input (a batch's output is held whole until written).
    fn window(&self) -> usize {
        BATCH
    }
}

/// [`Work::batch`]'s default: [`Work::record`] on every record.
pub fn each_record<W: Work + ?Sized>(work: &W, batch: &Batch<W::Out>, out: &mut W::Out) -> Result<()> {
    example::with_decoder(|decoder| {
        for record in batch.records() {
            work.record(decoder, &record, out)?;
        }
        Ok(())
    })
}

/// Consecutive records of one input, for a worker.
pub struct Batch<O> {
    data: Vec<u8>,
    /// Per record: end of its payload in `data`, index, byte offset.
    records: Vec<(usize, u64, u64, Option<u32>)>,
    /// The message type of every record of the batch.
    pub ty: MessageType,
    /// Whether the type was guessed (auto: unknown fields are an error).
    pub strict: bool,
    /// The input: number and display name.
    pub input: u32,
    /// Its display name.
    pub name: Arc<str>,
    /// Output already made by the reading thread (of a huge record); no records.
    done: Option<O>,
}

impl<O> Batch<O> {
    /// The payloads, back to back (record `i` ends where
    /// [`Batch::records`]' `i`-th one does), swapped for `into`'s buffer:
    /// the batch is left without records, to be filled again.
    pub fn take_payloads(&mut self, into: &mut Vec<u8>) {
        std::mem::swap(&mut self.data, into);
        self.data.clear();
        self.records.clear();
    }

    /// Keeps only the records that match `filter`. On an error, the
    /// matching records before the failing one are kept, the rest dropped.
    fn retain(&mut self, filter: &Where) -> Result<()> {
        let mut keep = Vec::with_capacity(self.records.len());
        let checked = example::with_decoder(|decoder| {
            for record in self.records() {
                keep.push(keeps(filter, decoder, &record)?);
            }
            Ok(())
        });
        // Compacts the kept payloads to the front, in order.
        let (mut start, mut to, mut n) = (0usize, 0usize, 0usize);
        for (k, &kept) in keep.iter().enumerate() {
            let (end, index, offset, crc) = self.records[k];
            if kept {
                self.data.copy_within(start..end, to);
                to += end - start;
                self.records[n] = (to, index, offset, crc);
                n += 1;
            }
            start = end;
        }
        self.records.truncate(n);
        self.data.truncate(to);
        checked
    }

    /// The records, in order.
    pub fn records(&self) -> impl Iterator<Item = Record<'_>> {
        let mut start = 0;
        self.records.iter().map(move |&(end, index, offset, crc)| {
            let payload = &self.data[start..end];
            start = end;
            Record {
                payload,
                index,
                offset,
                input: self.input,
                name: &self.name,
                ty: self.ty,
                strict: self.strict,
                crc,
            }
        })
    }
}

/// What [`run`] says about the reading.
#[derive(Debug, Default)]
pub struct Read {
    /// The inputs opened, in order, with their compression (up to the one
    /// that stopped the run, if it opened).
    pub files: Vec<(usize, Compression)>,
    /// `probe_limit`: the limit stopped the reading before the end.
    pub limited: bool,
    /// [`Types::Dataset`]: the type its first record decided.
    pub ty: Option<MessageType>,
}

/// Reads the records of the inputs (all, a range, or a sample, see
/// [`Reading`]) and hands them to `work` on `workers` threads (0: on this
/// one), what it makes of each batch to `sink` in record order. A damaged
/// input ends the run after the records before the damage. Memory: at most
/// `jobs` inputs read at once, each holding a few batches, and the
/// pipeline's window of batches ([`super::run`]). `progress(bytes,
/// records)` is called from the reading threads as batches go out.
pub fn run<W, S>(
    inputs: &[Input],
    how: &Reading<'_>,
    workers: usize,
    work: &W,
    sink: S,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> (Read, Result<()>)
where
    W: Work,
    S: Sink<W::Out>,
{
    let shared = Shared::new(how, inputs.len(), progress, work);
    let produce = |tx: &mut Sender<'_, Batch<W::Out>>| match how.sample {
        Some(sample) => produce_sample(inputs, &shared, sample, tx),
        None => produce(inputs, &shared, tx),
    };
    let filter = how.filter_on_workers();
    let each = |batch: &mut Batch<W::Out>, out: &mut W::Out| match batch.done.take() {
        Some(done) => {
            *out = done;
            Ok(())
        }
        None => match filter {
            None => work.batch_mut(batch, out),
            Some(f) => {
                // The matching records before a failing one still go on.
                let kept = batch.retain(f);
                work.batch_mut(batch, out)?;
                kept
            }
        },
    };
    let mut sink = sink;
    // One large plain file, every record: each thread reads a piece and
    // works on its batches itself ([`run_pieces`]).
    let result = match inputs {
        [input] if how.sample.is_none() && how.range.is_all() && workers > 0 && how.jobs >= PIECES_FROM_JOBS => {
            match run_pieces(input, &shared, &each, &mut sink) {
                Some(result) => result,
                None => super::run(workers, produce, each, sink),
            }
        }
        _ => super::run(workers, produce, each, sink),
    };
    // --strict: a --where name that no record read has fails the run
    // (before any output is committed).
    let result = result.and_then(|()| match how.filter.and_then(Where::strict_error) {
        Some(e) => Err(e.into()),
        None => Ok(()),
    });
    (shared.summary(), result)
}

/// A payload that is not the expected message, named by file, record and offset.
pub fn decode_error(name: &str, index: u64, offset: u64, e: example::DecodeError) -> crate::Error {
    crate::Error::from(e).context(format!("{name}: record {index} at byte {offset}"))
}

/// From this many jobs on, one large plain file is read by several threads
/// ([`run_pieces`]); below, one reads it (the walk over its headers
/// first would cost more than the threads win).
const PIECES_FROM_JOBS: usize = 4;

/// A skip this long through a plain file is done on several threads.
const LONG_SKIP: u64 = 1 << 15;

/// [`Types::Dataset`]: inputs settle in order (each once its first record
/// decided the type or it ended empty), so the type is the first record's
/// of the inputs taken together, whichever thread reads it.
struct Settle {
    /// The first input not yet settled.
    next: usize,
    ty: Option<MessageType>,
}

/// What every reading thread shares.
struct Shared<'a, W> {
    how: Reading<'a>,
    work: &'a W,
    records: AtomicU64,
    bytes: AtomicU64,
    progress: &'a (dyn Fn(u64, u64) + Sync),
    /// Records still to skip, and still to read (inputs read in turn);
    /// `to_read` is counted down only when `counts` (there is a limit).
    to_skip: AtomicU64,
    to_read: AtomicU64,
    counts: bool,
    limited: AtomicBool,
    settle: Mutex<Settle>,
    settled: Condvar,
    /// The run stops (an input failed, or the output did): threads waiting
    /// to settle give up.
    aborted: AtomicBool,
    /// Per input: its compression once opened, and whether it failed.
    opened: Mutex<Vec<(Option<Compression>, bool)>>,
}

impl<'a, W: Work> Shared<'a, W> {
    fn new(how: &Reading<'a>, inputs: usize, progress: &'a (dyn Fn(u64, u64) + Sync), work: &'a W) -> Self {
        let range = if how.sample.is_some() {
            Range::default()
        } else {
            how.range
        };
        Shared {
            how: *how,
            work,
            records: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            progress,
            to_skip: AtomicU64::new(range.skip),
            to_read: AtomicU64::new(range.limit.unwrap_or(u64::MAX)),
            counts: range.limit.is_some(),
            limited: AtomicBool::new(false),
            settle: Mutex::new(Settle {
                next: 0,
                ty: how.types.fixed(),
            }),
            settled: Condvar::new(),
            aborted: AtomicBool::new(false),
            opened: Mutex::new(vec![(None, false); inputs]),
        }
    }

    fn summary(&self) -> Read {
        let opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        let mut files = Vec::new();
        for (i, &(compression, failed)) in opened.iter().enumerate() {
            match compression {
                Some(c) => files.push((i, c)),
                None => break,
            }
            if failed {
                break;
            }
        }
        let ty = match self.how.types {
            Types::Dataset => self.settle.lock().unwrap_or_else(|e| e.into_inner()).ty,
            _ => None,
        };
        Read {
            files,
            limited: self.limited.load(Relaxed),
            ty,
        }
    }

    fn mark(&self, input: usize, f: impl FnOnce(&mut (Option<Compression>, bool))) {
        if let Some(slot) = self.opened.lock().unwrap_or_else(|e| e.into_inner()).get_mut(input) {
            f(slot);
        }
    }

    /// The run stops: no thread waits to settle any more.
    fn abort(&self) {
        self.aborted.store(true, Relaxed);
        let _g = self.settle.lock().unwrap_or_else(|e| e.into_inner());
        self.settled.notify_all();
    }

    /// Settles `input` once the inputs before it have: with its first
    /// record (which decides the type if none has), or without (it ended
    /// empty). Returns the dataset's type.
    fn settle(&self, input: usize, first: Option<&Record<'_>>) -> Result<Option<MessageType>> {
        let mut g = self.settle.lock().unwrap_or_else(|e| e.into_inner());
        while g.next < input && !self.aborted.load(Relaxed) {
            g = self.settled.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        if g.next < input {
            return Err(Stopped.into());
        }
        if let (None, Some(record)) = (g.ty, first) {
            g.ty = Some(self.work.resolve(record)?);
        }
        g.next = g.next.max(input + 1);
        self.settled.notify_all();
        Ok(g.ty)
    }

    /// The type of a record of `part` when its own type is not known yet.
    fn type_of(&self, part: Part, record: &Record<'_>, settled: &mut bool) -> Result<MessageType> {
        match self.how.types {
            Types::Fixed(t) => Ok(t),
            _ if !part.settles => self.work.resolve(record),
            _ => {
                *settled = true;
                Ok(self
                    .settle(part.slot, Some(record))?
                    .expect("a type from the first record"))
            }
        }
    }

    /// An empty batch (a spare one when there is one).
    fn batch(&self, spares: &Spares<Batch<W::Out>>, at: (MessageType, u32, &Arc<str>)) -> Batch<W::Out> {
        let (ty, input, name) = at;
        let strict = self.how.types.fixed().is_none();
        match spares.take() {
            Some(mut b) => {
                b.data.clear();
                b.records.clear();
                (b.ty, b.strict, b.input, b.name, b.done) = (ty, strict, input, name.clone(), None);
                b
            }
            None => Batch {
                data: Vec::with_capacity(self.work.window() * 5 / 4),
                records: Vec::with_capacity(2048),
                ty,
                strict,
                input,
                name: name.clone(),
                done: None,
            },
        }
    }

    /// Hands a huge record to the consumer on this thread.
    fn huge(
        &self,
        spares: &Spares<Batch<W::Out>>,
        record: &Record<'_>,
        name: &Arc<str>,
        emit: &mut dyn FnMut(Batch<W::Out>) -> Result<(), Stopped>,
    ) -> Result<()> {
        let mut put = |out: W::Out| {
            let mut b = self.batch(spares, (record.ty, record.input, name));
            b.done = Some(out);
            emit(b)
        };
        self.work.huge(record, &mut put)
    }

    /// Progress: the reader moved from `*at` to `now`, `n` more records.
    fn advanced(&self, at: &mut u64, now: u64, n: u64) {
        let bytes = self.bytes.fetch_add(now.saturating_sub(*at), Relaxed) + now.saturating_sub(*at);
        *at = now.max(*at);
        (self.progress)(bytes, self.records.fetch_add(n, Relaxed) + n);
    }
}

/// Reads every input (or the range) into batches for `tx`, in input order,
/// up to `jobs` inputs at once.
fn produce<W: Work>(inputs: &[Input], shared: &Shared<'_, W>, tx: &mut Sender<'_, Batch<W::Out>>) -> Result<()> {
    // A range counts over the inputs taken together: they are read one
    // after the other (skipped records hop from header to header).
    let jobs = if shared.how.range.is_all() { shared.how.jobs } else { 1 };
    let spares = tx.spares();
    let read = |i: usize, emit: &mut dyn FnMut(Batch<W::Out>) -> Result<(), Stopped>| {
        let _unwinding = AbortOnPanic(shared);
        let mut settled = false;
        // Past the limit, an input is still opened to probe for one more
        // (matching) record until one is found: an empty input, or one
        // without a match, does not make the read `limited`; one that
        // cannot be read (it was never to be read) makes it so.
        let past = shared.to_read.load(Relaxed) == 0;
        let result = if past && (!shared.how.probe_limit || shared.limited.load(Relaxed)) {
            Ok(())
        } else if past {
            if read_input(i, &inputs[i], shared, spares, &mut settled, emit).is_err() {
                shared.limited.store(true, Relaxed);
            }
            Ok(())
        } else {
            read_input(i, &inputs[i], shared, spares, &mut settled, emit)
        };
        if result.is_err() {
            shared.mark(i, |slot| slot.1 = true);
            shared.abort();
        } else if shared.how.types == Types::Dataset && !settled {
            shared.settle(i, None)?;
        }
        result
    };
    super::in_input_order(inputs.len(), jobs, read, |b| tx.send(b).inspect_err(|_| shared.abort()))
}

/// Stops the run when a reading thread panics, so that no other waits for
/// it to settle.
struct AbortOnPanic<'s, 'a, W: Work>(&'s Shared<'a, W>);

impl<W: Work> Drop for AbortOnPanic<'_, '_, W> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.abort();
        }
    }
}

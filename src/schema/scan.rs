//! The scan behind `tfr schema`: every record of every input (shards are
//! one dataset) decoded once. One thread reads records into batches,
//! workers decode them into per-batch statistics, and those are merged in
//! record order ([`crate::pipeline::run`]): the result is the same whatever
//! the number of threads, and a payload that does not decode stops the
//! scan with exactly the records before it counted.

use super::stats::Collector;
use super::{FileScan, Scan};
use crate::example::{self, DecodeErrorKind, Decoder, Keep, MessageType};
use crate::io::Input;
use crate::pipeline::{self, Sender};
use crate::record;
use anyhow::Result;

/// What to scan, and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// How inputs are opened (compression, record size limit).
    pub open: record::OpenOptions,
    /// The payload type (`None`: auto, decided by the first record; every
    /// other record must then match, see [`crate::example`]).
    pub ty: Option<MessageType>,
    /// Scan at most this many records (over all inputs together).
    pub limit: Option<u64>,
    /// Threads decoding records (besides the reader and the merger).
    pub workers: usize,
    /// Which features are counted (`None`: all).
    pub keep: Option<KeepShared>,
    /// Keep the full statistics of every feature ([`super::deep`]).
    pub deep: bool,
}

/// A feature-name filter shared by the scan's threads.
#[derive(Clone)]
pub struct KeepShared(pub std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>);

impl std::fmt::Debug for KeepShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeepShared(..)")
    }
}

/// Scans the inputs. Returns the statistics of every record read and the
/// error that stopped the scan early, if any (a damaged input, a payload
/// that does not decode): the records before it are in the scan, whose
/// `error` then says what stopped it. `progress(bytes, records)` is called
/// from this thread now and then.
pub fn scan(inputs: &[Input], opts: &Options, progress: &dyn Fn(u64, u64)) -> (Scan, Option<anyhow::Error>) {
    let mut ty = opts.ty;
    let new = || if opts.deep { Collector::deep() } else { Collector::new() };
    let mut stats = new();
    let all = |_: &str| true;
    let how = How {
        strict: opts.ty.is_none(),
        keep: opts.keep.as_ref().map_or(&all, |k| &*k.0),
    };
    let work = |batch: &mut Batch<Collector>, out: &mut Collector| -> Result<()> {
        if opts.deep && !out.is_deep() {
            out.keep_deep();
        }
        let ty = batch.ty;
        let done = example::with_decoder(|decoder| {
            batch.work(out, |payload, r, out| add(decoder, &how, ty, payload, r, out, inputs))
        });
        out.seal();
        done
    };
    let merge = |batch: &Collector| {
        stats.merge(batch);
        Ok(())
    };
    let resolve = |i: u32, index: u64, offset: u64, payload: &[u8]| {
        example::resolve_auto(payload).map_err(|e| decode_error(inputs, i, index, offset, not_for_schema(e)))
    };
    let huge = |t: MessageType, payload: &[u8], r: &BatchRec| {
        let mut collector = Box::new(new());
        example::with_decoder(|d| add(d, &how, t, payload, r, &mut collector, inputs))?;
        collector.seal();
        Ok(collector)
    };
    let reading = Reading {
        inputs,
        open: &opts.open,
        limit: opts.limit,
        resolve: &resolve,
        huge: &huge,
    };
    let mut read = Read::default();
    let produce = |tx: &mut Sender<Batch<Collector>>| read_batches(&reading, &mut ty, &mut read, progress, tx);
    let result = pipeline::run(opts.workers, produce, work, merge);
    let error = result.err();
    let scan = Scan {
        ty: ty.unwrap_or(MessageType::Example),
        stats,
        files: read.files,
        limited: read.limited,
        error: error.as_ref().map(|e| format!("{e:#}")),
    };
    (scan, error)
}

/// Records copied out of the reader for a worker, in any pass over the
/// records of a dataset (`T`: what a worker makes of a batch; the scan's
/// [`Collector`], validation's findings).
pub(crate) struct Batch<T> {
    pub(crate) ty: MessageType,
    data: Vec<u8>,
    recs: Vec<BatchRec>,
    /// A huge record already done by the reading thread (no copy of it).
    done: Option<Result<Box<T>>>,
}

/// Where a record of a batch is: the end of its payload in the batch,
/// its input, index and byte offset.
pub(crate) struct BatchRec {
    end: usize,
    pub(crate) input: u32,
    pub(crate) index: u64,
    pub(crate) offset: u64,
}

/// Flush a batch at this many records or bytes.
const BATCH_RECORDS: usize = 2048;
const BATCH_BYTES: usize = 1 << 20;
/// A payload longer than this is done where it is read, not copied.
const HUGE: usize = 4 << 20;

impl<T> Batch<T> {
    /// An empty batch: `spare` emptied, or a new one.
    fn new(ty: MessageType, spare: Option<Batch<T>>) -> Batch<T> {
        match spare {
            Some(mut b) => {
                b.ty = ty;
                b.data.clear();
                b.recs.clear();
                b.done = None;
                b
            }
            None => Batch {
                ty,
                data: Vec::with_capacity(BATCH_BYTES + BATCH_BYTES / 4),
                recs: Vec::with_capacity(BATCH_RECORDS),
                done: None,
            },
        }
    }

    fn is_full(&self) -> bool {
        self.recs.len() >= BATCH_RECORDS || self.data.len() >= BATCH_BYTES
    }

    /// The worker's part: the output of a huge record done by the reading
    /// thread, or `each` called on every record in order (stopping at the
    /// first error, the records before it done).
    pub(crate) fn work(
        &mut self,
        out: &mut T,
        mut each: impl FnMut(&[u8], &BatchRec, &mut T) -> Result<()>,
    ) -> Result<()> {
        if let Some(done) = self.done.take() {
            *out = *done?;
            return Ok(());
        }
        let mut start = 0;
        for r in &self.recs {
            each(&self.data[start..r.end], r, out)?;
            start = r.end;
        }
        Ok(())
    }
}

/// Auto mode's payload type from a record: input, index, offset, payload.
pub(crate) type Resolve<'a> = dyn Fn(u32, u64, u64, &[u8]) -> Result<MessageType> + 'a;
/// A huge record, done by the reading thread.
pub(crate) type Huge<'a, T> = dyn Fn(MessageType, &[u8], &BatchRec) -> Result<Box<T>> + 'a;

/// How [`read_batches`] reads: its inputs, how they open, how many records
/// at most, and what the reading thread does itself.
pub(crate) struct Reading<'a, T> {
    pub(crate) inputs: &'a [Input],
    pub(crate) open: &'a record::OpenOptions,
    pub(crate) limit: Option<u64>,
    /// The payload type of auto mode, from the first record: input number,
    /// record index, byte offset, payload.
    pub(crate) resolve: &'a Resolve<'a>,
    /// A huge record, done by the reading thread (no copy).
    pub(crate) huge: &'a Huge<'a, T>,
}

/// What [`read_batches`] says about the reading.
#[derive(Default)]
pub(crate) struct Read {
    /// Each input opened, with its compression.
    pub(crate) files: Vec<FileScan>,
    /// Stopped by the limit before the end of the inputs.
    pub(crate) limited: bool,
}

/// Reads the records of every input, at most `how.limit`, into batches;
/// decides the type from the first record when `ty` is auto. The records
/// before an error are sent, then the error returned.
pub(crate) fn read_batches<T>(
    how: &Reading<'_, T>,
    ty: &mut Option<MessageType>,
    read: &mut Read,
    progress: &dyn Fn(u64, u64),
    tx: &mut Sender<Batch<T>>,
) -> Result<()> {
    let limit = how.limit.unwrap_or(u64::MAX);
    let mut batch: Option<Batch<T>> = None;
    let mut seen = 0u64;
    let mut done_bytes = 0u64;
    let result = (|| -> Result<()> {
        for (i, input) in how.inputs.iter().enumerate() {
            if seen >= limit {
                read.limited = true;
                break;
            }
            let mut reader = how.open.open(input)?;
            read.files.push(FileScan {
                name: input.display(),
                compression: reader.compression(),
            });
            while let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? {
                if seen >= limit {
                    read.limited = true;
                    break;
                }
                let t = match *ty {
                    Some(t) => t,
                    None => *ty.insert((how.resolve)(i as u32, rec.index, rec.offset, rec.data)?),
                };
                let at = BatchRec {
                    end: 0,
                    input: i as u32,
                    index: rec.index,
                    offset: rec.offset,
                };
                seen += 1;
                if rec.data.len() > HUGE {
                    if let Some(b) = batch.take() {
                        tx.send(b)?;
                    }
                    let mut b = Batch::new(t, tx.spares().take());
                    b.done = Some((how.huge)(t, rec.data, &at));
                    tx.send(b)?;
                    progress(done_bytes + reader.offset(), seen);
                    continue;
                }
                let b = batch.get_or_insert_with(|| Batch::new(t, tx.spares().take()));
                b.data.extend_from_slice(rec.data);
                b.recs.push(BatchRec {
                    end: b.data.len(),
                    ..at
                });
                if b.is_full() {
                    tx.send(batch.take().expect("a batch"))?;
                    progress(done_bytes + reader.offset(), seen);
                }
            }
            done_bytes += reader.source_mut().size().unwrap_or(0);
        }
        Ok(())
    })();
    if let Some(b) = batch.take() {
        tx.send(b)?;
    }
    result
}

/// How records are decoded and counted.
struct How<'k> {
    strict: bool,
    keep: Keep<'k>,
}

/// Decodes one record into `out`.
fn add(
    decoder: &mut Decoder,
    how: &How<'_>,
    ty: MessageType,
    payload: &[u8],
    r: &BatchRec,
    out: &mut Collector,
    inputs: &[Input],
) -> Result<()> {
    let failed = |e| decode_error(inputs, r.input, r.index, r.offset, e);
    match ty {
        MessageType::SequenceExample => {
            let se = decoder.sequence_example(payload, how.strict).map_err(failed)?;
            out.add_sequence_where(&se, r.input, r.index, how.keep);
        }
        MessageType::Elwc => {
            let parts = example::elwc::checked(decoder, payload, how.strict).map_err(failed)?;
            out.add_elwc_where(decoder, payload, &parts, (r.input, r.index), how.keep);
        }
        _ => {
            let ex = decoder.example(payload, how.strict).map_err(failed)?;
            out.add_example_where(&ex, r.input, r.index, how.keep);
        }
    }
    Ok(())
}

impl pipeline::Output for Collector {
    fn is_empty(&self) -> bool {
        self.records == 0
    }

    fn clear(&mut self) {
        *self = Collector::default();
    }
}

/// A payload that does not decode, named by file, record and offset.
fn decode_error(inputs: &[Input], input: u32, index: u64, offset: u64, e: example::DecodeError) -> anyhow::Error {
    let name = inputs[input as usize].display();
    // schema has no --type raw: the message goes without that advice.
    let message = e.without_raw_hint().to_string();
    anyhow::anyhow!(message).context(format!("{name}: record {index} at byte {offset}"))
}

/// The auto-mode error without its `--type raw` hint, which schema lacks.
fn not_for_schema(e: example::DecodeError) -> example::DecodeError {
    match e.kind() {
        DecodeErrorKind::NotAnExample { reason } => {
            let reason = format!("{reason}; `tfr schema`, `stats` and `report` read only Examples, SequenceExamples and ExampleListWithContexts, `tfr cat --type raw` shows the payloads");
            example::DecodeError::new(DecodeErrorKind::NotAnExample { reason }, e.offset())
        }
        _ => e,
    }
}

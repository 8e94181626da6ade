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
    let mut files = Vec::new();
    let mut limited = false;
    let mut ty = opts.ty;
    let mut stats = if opts.deep { Collector::deep() } else { Collector::new() };
    let strict = opts.ty.is_none();
    let all = |_: &str| true;
    let keep: Keep<'_> = opts.keep.as_ref().map_or(&all, |k| &*k.0);
    let work = |batch: &mut Batch, out: &mut Collector| -> Result<()> {
        if let Some(done) = batch.done.take() {
            *out = *done?;
            return Ok(());
        }
        if opts.deep && !out.is_deep() {
            out.keep_deep();
        }
        let decoded = example::with_decoder(|decoder| batch.decode(decoder, strict, keep, out, inputs));
        out.seal();
        decoded
    };
    let merge = |batch: &Collector| {
        stats.merge(batch);
        Ok(())
    };
    let produce = |tx: &mut Sender<Batch>| read(inputs, opts, &mut ty, &mut files, &mut limited, progress, tx);
    let result = pipeline::run(opts.workers, produce, work, merge);
    let error = result.err();
    let scan = Scan {
        ty: ty.unwrap_or(MessageType::Example),
        stats,
        files,
        limited,
        error: error.as_ref().map(|e| format!("{e:#}")),
    };
    (scan, error)
}

/// Records copied out of the reader, for a worker to decode.
struct Batch {
    ty: MessageType,
    data: Vec<u8>,
    recs: Vec<BatchRec>,
    /// A huge record decoded by the reading thread (no copy of it).
    done: Option<Result<Box<Collector>>>,
}

struct BatchRec {
    end: usize,
    input: u32,
    index: u64,
    offset: u64,
}

/// Flush a batch at this many records or bytes.
const BATCH_RECORDS: usize = 2048;
const BATCH_BYTES: usize = 1 << 20;
/// A payload longer than this is decoded where it is read, not copied.
const HUGE: usize = 4 << 20;

impl Batch {
    /// An empty batch: `spare` emptied, or a new one.
    fn new(ty: MessageType, spare: Option<Batch>) -> Batch {
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

    /// Decodes the records into `out`; stops at the first that does not
    /// decode, with the ones before it added.
    fn decode(
        &self,
        decoder: &mut Decoder,
        strict: bool,
        keep: Keep<'_>,
        out: &mut Collector,
        inputs: &[Input],
    ) -> Result<()> {
        let mut start = 0;
        let how = How {
            ty: self.ty,
            strict,
            keep,
        };
        for r in &self.recs {
            let payload = &self.data[start..r.end];
            start = r.end;
            add(decoder, &how, payload, r, out, inputs)?;
        }
        Ok(())
    }
}

/// How records are decoded and counted.
struct How<'k> {
    ty: MessageType,
    strict: bool,
    keep: Keep<'k>,
}

/// Decodes one record into `out`.
fn add(
    decoder: &mut Decoder,
    how: &How<'_>,
    payload: &[u8],
    r: &BatchRec,
    out: &mut Collector,
    inputs: &[Input],
) -> Result<()> {
    let failed = |e| decode_error(inputs, r.input, r.index, r.offset, e);
    match how.ty {
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

impl Batch {}

impl pipeline::Output for Collector {
    fn is_empty(&self) -> bool {
        self.records == 0
    }

    fn clear(&mut self) {
        *self = Collector::default();
    }
}

/// Reads the records of every input, at most `opts.limit`, into batches;
/// decides the type from the first record when `ty` is auto.
fn read(
    inputs: &[Input],
    opts: &Options,
    ty: &mut Option<MessageType>,
    files: &mut Vec<FileScan>,
    limited: &mut bool,
    progress: &dyn Fn(u64, u64),
    tx: &mut Sender<Batch>,
) -> Result<()> {
    let limit = opts.limit.unwrap_or(u64::MAX);
    let mut batch: Option<Batch> = None;
    let mut seen = 0u64;
    let mut done_bytes = 0u64;
    let result = (|| -> Result<()> {
        for (i, input) in inputs.iter().enumerate() {
            if seen >= limit {
                *limited = true;
                break;
            }
            let mut reader = opts.open.open(input)?;
            files.push(FileScan {
                name: input.display(),
                compression: reader.compression(),
            });
            while let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? {
                if seen >= limit {
                    *limited = true;
                    break;
                }
                let t = match *ty {
                    Some(t) => t,
                    None => *ty.insert(
                        example::resolve_auto(rec.data)
                            .map_err(|e| decode_error(inputs, i as u32, rec.index, rec.offset, not_for_schema(e)))?,
                    ),
                };
                if rec.data.len() > HUGE {
                    if let Some(b) = batch.take() {
                        tx.send(b)?;
                    }
                    let r = BatchRec {
                        end: 0,
                        input: i as u32,
                        index: rec.index,
                        offset: rec.offset,
                    };
                    let mut collector = Box::new(if opts.deep { Collector::deep() } else { Collector::new() });
                    let all = |_: &str| true;
                    let how = How {
                        ty: t,
                        strict: opts.ty.is_none(),
                        keep: opts.keep.as_ref().map_or(&all, |k| &*k.0),
                    };
                    let added = example::with_decoder(|d| add(d, &how, rec.data, &r, &mut collector, inputs));
                    collector.seal();
                    let mut b = Batch::new(t, tx.spares().take());
                    b.done = Some(added.map(|_| collector));
                    tx.send(b)?;
                    seen += 1;
                    progress(done_bytes + reader.offset(), seen);
                    continue;
                }
                let b = batch.get_or_insert_with(|| Batch::new(t, tx.spares().take()));
                b.data.extend_from_slice(rec.data);
                b.recs.push(BatchRec {
                    end: b.data.len(),
                    input: i as u32,
                    index: rec.index,
                    offset: rec.offset,
                });
                seen += 1;
                if b.is_full() {
                    tx.send(batch.take().expect("a batch"))?;
                    progress(done_bytes + reader.offset(), seen);
                }
            }
            done_bytes += reader.source_mut().size().unwrap_or(0);
        }
        Ok(())
    })();
    // The records before an error are scanned, then the error reported.
    if let Some(b) = batch.take() {
        tx.send(b)?;
    }
    result
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

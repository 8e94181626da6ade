//! The scan behind `tfr schema`: every record of every input (shards are
//! one dataset) decoded once, per-feature statistics collected on two
//! threads and merged.

use super::stats::Collector;
use super::{FileScan, Scan};
use crate::example::{self, DecodeErrorKind, Decoder, MessageType};
use crate::io::{Compression, Input};
use crate::record;

/// What to scan, and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Forced input compression (`None`: detected per input).
    pub compression: Option<Compression>,
    /// The payload type (`None`: auto, decided by the first record; every
    /// other record must then match, see [`crate::example`]).
    pub ty: Option<MessageType>,
    /// Scan at most this many records (over all inputs together).
    pub limit: Option<u64>,
}

/// Scans the inputs. Returns the statistics of every record read and the
/// error that stopped the scan early, if any (a damaged input, a payload
/// that does not decode): the records before it are in the scan, whose
/// `error` then says what stopped it. `progress(bytes, records)` is called
/// from this thread now and then.
pub fn scan(inputs: &[Input], opts: &Options, progress: &dyn Fn(u64, u64)) -> (Scan, Option<anyhow::Error>) {
    // Two threads share the work; a payload that does not decode is then
    // found out of order, so the records before it are scanned again, alone
    // (stdin and pipes cannot be read twice: they are scanned by one thread).
    let parallel = inputs
        .iter()
        .all(|i| matches!(i, Input::Path(p) if std::fs::metadata(p).is_ok_and(|m| m.is_file())));
    let mut scan = new_scan(opts);
    let mut result = scan_inputs(&mut scan, inputs, opts, progress, u64::MAX, parallel);
    if let Err(Stop::Decode(failed)) = &result {
        if parallel {
            scan = new_scan(opts);
            if let Err(stop) = scan_inputs(&mut scan, inputs, opts, progress, failed.seq, false) {
                result = Err(stop);
            }
        }
    }
    let error = result.err().map(|stop| stop.into_error(inputs));
    if let Some(e) = &error {
        scan.error = Some(format!("{e:#}"));
    }
    (scan, error)
}

fn new_scan(opts: &Options) -> Scan {
    Scan {
        ty: opts.ty.unwrap_or(MessageType::Example),
        stats: Collector::new(),
        files: Vec::new(),
        limited: false,
        error: None,
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
    opts: &Options,
    progress: &dyn Fn(u64, u64),
    stop_at: u64,
    parallel: bool,
) -> Result<(), Stop> {
    let limit = opts.limit.unwrap_or(u64::MAX);
    let strict = opts.ty.is_none();
    let mut resolved = opts.ty.is_some();
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
                let mut reader = match record::open(input, opts.compression) {
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
                        Err(e) => break 'inputs Err(record::read_error(input, e)),
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
                        progress(done_bytes + reader.offset(), seq);
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

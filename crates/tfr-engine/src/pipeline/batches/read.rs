//! Reading one input into batches: whole, in pieces read by several threads (one large plain file), or in --part ranges.

use super::*;

/// Reads the records of one input into batches.
pub(super) fn read_input<W: Work>(
    i: usize,
    input: &Input,
    shared: &Shared<'_, W>,
    spares: &Spares<Batch<W::Out>>,
    settled: &mut bool,
    emit: &mut dyn FnMut(Batch<W::Out>) -> Result<(), Stopped>,
) -> Result<()> {
    let mut reader = shared.how.open.open(input)?;
    shared.mark(i, |slot| slot.0 = Some(reader.compression()));
    let part = Part {
        input: i,
        slot: i,
        end: None,
        settles: shared.how.types == Types::Dataset,
    };
    read_part(&mut reader, input, part, shared, spares, settled, emit)
}

/// What a reader reads: records of input `input` until `end` (or the end
/// of the input), settling the type as `slot` ([`Shared::settle`]) when
/// `settles`.
#[derive(Clone, Copy)]
pub(super) struct Part {
    pub(super) input: usize,
    pub(super) slot: usize,
    pub(super) end: Option<u64>,
    pub(super) settles: bool,
}

/// Reads the records of a part of an input (skipping first what the range
/// skips) into batches.
pub(super) fn read_part<W: Work>(
    reader: &mut record::RecordReader,
    input: &Input,
    part: Part,
    shared: &Shared<'_, W>,
    spares: &Spares<Batch<W::Out>>,
    settled: &mut bool,
    emit: &mut dyn FnMut(Batch<W::Out>) -> Result<(), Stopped>,
) -> Result<()> {
    let i = part.input;
    let stream = input.is_stream();
    let name: Arc<str> = input.display().into();
    let strict = shared.how.types.fixed().is_none();
    let mut ty = shared.how.types.fixed();
    let mut batch: Option<Batch<W::Out>> = None;
    let mut at = reader.offset();
    // With a range, the reader evaluates `--where` (the range counts
    // matches); else the workers do, but a huge record is filtered here.
    let on_reader = shared.how.filter_on_reader();
    // Without a limit nothing is counted per record: a shared counter
    // written by every reading thread for every record costs a cache-line
    // transfer each (it held 16 threads to one record per ~90 ns).
    let counts = shared.counts;
    let window = shared.work.window() as u64;
    debug_assert!(record::PIECE_ALIGN % window == 0, "pieces start on batch windows");
    let result = (|| -> Result<()> {
        // A long skip through a plain file: threads walk its headers and
        // the reader starts near the first record wanted (`--skip` costs
        // about what `count` does). With `--where`, skipped records are
        // matches: each is read and evaluated below.
        let want = if on_reader.is_some() {
            0
        } else {
            shared.to_skip.load(Relaxed)
        };
        if want >= LONG_SKIP {
            if let Some((file, size)) = reader.shared_file() {
                let (offset, index) = record::seek_near(&file, size, shared.how.jobs, want);
                if index > 0 {
                    reader
                        .seek_to(offset, index)
                        .map_err(|e| record::read_error(input, e.into()))?;
                    shared.to_skip.fetch_sub(index, Relaxed);
                    at = reader.offset();
                }
            }
        }
        while on_reader.is_none() && shared.to_skip.load(Relaxed) > 0 {
            if reader
                .skip_record()
                .map_err(|e| record::read_error(input, e))?
                .is_none()
            {
                return Ok(());
            }
            shared.to_skip.fetch_sub(1, Relaxed);
        }
        loop {
            if part.end.is_some_and(|end| reader.offset() >= end) {
                break;
            }
            if counts && shared.to_read.load(Relaxed) == 0 {
                if shared.how.probe_limit {
                    // Is there one more (matching) record?
                    while let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? {
                        let Some(f) = on_reader else {
                            shared.limited.store(true, Relaxed);
                            break;
                        };
                        let record =
                            Record::typed(rec, (i, &name), strict, &mut ty, |r| shared.type_of(part, r, settled))?;
                        if example::with_decoder(|d| keeps(f, d, &record))? {
                            shared.limited.store(true, Relaxed);
                            break;
                        }
                    }
                }
                break;
            }
            let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? else {
                break;
            };
            if counts && on_reader.is_none() {
                shared.to_read.fetch_sub(1, Relaxed);
            }
            let record = Record::typed(rec, (i, &name), strict, &mut ty, |r| shared.type_of(part, r, settled))?;
            if let Some(f) = on_reader {
                if !example::with_decoder(|d| keeps(f, d, &record))? {
                    continue;
                }
                if shared.to_skip.load(Relaxed) > 0 {
                    shared.to_skip.fetch_sub(1, Relaxed);
                    continue;
                }
                if counts {
                    shared.to_read.fetch_sub(1, Relaxed);
                }
            } else if let Some(f) = shared.how.filter.filter(|_| rec.data.len() > HUGE) {
                if !example::with_decoder(|d| keeps(f, d, &record))? {
                    continue;
                }
            }
            if rec.data.len() > HUGE {
                if let Some(b) = batch.take() {
                    let n = b.records.len() as u64;
                    emit(b)?;
                    shared.advanced(&mut at, rec.offset, n);
                }
                shared.huge(spares, &record, &name, emit)?;
                shared.advanced(&mut at, reader.offset(), 1);
                continue;
            }
            // A batch holds the records that start in one window of BATCH
            // bytes (or the work's smaller one): the same batches however
            // the input is cut into pieces (record::pieces), so statistics
            // merged batch by batch come out the same, to the last bit, for
            // any -j.
            if batch
                .as_ref()
                .is_some_and(|b| b.records[0].2 / window != rec.offset / window)
            {
                let b = batch.take().expect("a batch");
                let n = b.records.len() as u64;
                emit(b)?;
                shared.advanced(&mut at, rec.offset, n);
            }
            let b = batch.get_or_insert_with(|| shared.batch(spares, (record.ty, i as u32, &name)));
            b.data.extend_from_slice(rec.data);
            b.records.push((b.data.len(), rec.index, rec.offset, rec.crc));
            // A stream (stdin, a pipe) sends what it has before waiting for
            // more, so a slow producer's records are printed as they come.
            let waiting = stream && reader.source_mut().buffer().is_empty();
            if waiting {
                let n = b.records.len() as u64;
                emit(batch.take().expect("a batch"))?;
                shared.advanced(&mut at, reader.offset(), n);
            }
        }
        Ok(())
    })();
    // Everything before the damage goes out, then the error.
    if let Some(b) = batch.take() {
        let n = b.records.len() as u64;
        emit(b)?;
        shared.advanced(&mut at, reader.offset(), n);
    }
    result
}

/// Bytes of one large plain file cut into pieces at a time, per job
/// ([`record::pieces`]: its headers walked on every thread, then its pieces
/// read, each by one thread, while the part is in the page cache).
pub(super) const PIECES_PER_JOB: u64 = 64 << 20;
/// Smaller files are read by one thread.
pub(super) const PIECES_MIN_SIZE: u64 = 16 << 20;

/// One large plain file read by several threads, each working on what it
/// reads (no hand-over between a reading thread and a worker: each batch
/// is read, filtered and worked on by one thread while its bytes are in
/// that core's cache): its part ahead cut into pieces of about a megabyte
/// at record boundaries ([`record::pieces`]), each piece read and worked on
/// by one thread, the outputs handed to `sink` on this thread in piece
/// order. Memory: `2 × jobs` pieces in flight, each holding at most its
/// outputs (a piece has `PIECE_ALIGN / Work::window` batches), and one batch per
/// thread.
/// `None` (nothing read) when the input is not such a file.
pub(super) fn run_pieces<W, E, S>(input: &Input, shared: &Shared<'_, W>, each: &E, sink: &mut S) -> Option<Result<()>>
where
    W: Work,
    E: Fn(&mut Batch<W::Out>, &mut W::Out) -> Result<()> + Sync,
    S: Sink<W::Out>,
{
    // Only a regular file on disk (a stream would lose what a look took;
    // an object is read in order).
    let Input::Path(path) = input else {
        return None;
    };
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() >= PIECES_MIN_SIZE) {
        return None;
    }
    let first = match shared.how.open.open(input) {
        Ok(reader) => reader,
        Err(e) => {
            shared.mark(0, |s| s.1 = true);
            return Some(Err(e.into()));
        }
    };
    let (file, size) = first.shared_file()?;
    shared.mark(0, |slot| slot.0 = Some(first.compression()));
    let jobs = shared.how.jobs;
    let spares = Spares {
        pool: crate::pipeline::Pool(Mutex::new(Vec::new())),
        max: jobs,
    };
    let outs = crate::pipeline::Pool(Mutex::new(Vec::new()));
    let readers = Mutex::new(vec![first]);
    // Each thread reads and works on its whole piece (its outputs, and
    // its end) without waiting for the pieces before it to be handed on.
    // Twice as many pieces in flight as threads: a thread that finishes
    // early goes on with the next piece while a slower one ahead of it is
    // still being read (with as many, every thread waited for the slowest
    // piece of each round).
    let window = crate::pipeline::Ahead {
        inputs: 2 * jobs,
        depth: (record::PIECE_ALIGN / shared.work.window() as u64) as usize + 1,
    };
    let mut wrote = None;
    let mut from = (0u64, 0u64);
    let mut slots = 0usize;
    let result = (|| -> Result<()> {
        sink.begin()?;
        loop {
            let to = from.0.saturating_add(PIECES_PER_JOB * jobs as u64);
            let cut = record::pieces(&file, size, from, to, jobs);
            let n = cut.starts.len();
            let read = |k: usize, emit: &mut dyn FnMut(W::Out) -> Result<(), Stopped>| {
                let _unwinding = AbortOnPanic(shared);
                let (offset, index) = cut.starts[k];
                let end = match cut.starts.get(k + 1) {
                    Some(&(next, _)) => Some(next),
                    None => cut.next.map(|(next, _)| next),
                };
                let part = Part {
                    input: 0,
                    slot: slots + k,
                    end,
                    settles: shared.how.types.fixed().is_none(),
                };
                let mut settled = false;
                // A worker's error, after the output it made before it.
                let mut failed = None;
                let mut work = |mut batch: Batch<W::Out>| {
                    if failed.is_some() {
                        return Err(Stopped);
                    }
                    let mut out = outs.take();
                    let worked = each(&mut batch, &mut out);
                    spares.put(batch);
                    emit(out)?;
                    worked.map_err(|e| {
                        failed = Some(e);
                        Stopped
                    })
                };
                let taken = readers.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let result = match taken.map_or_else(|| shared.how.open.open(input), Ok) {
                    Ok(mut reader) => {
                        let done = reader
                            .seek_to(offset, index)
                            .map_err(|e| crate::Error::from(record::read_error(input, e.into())))
                            .and_then(|()| {
                                read_part(&mut reader, input, part, shared, &spares, &mut settled, &mut work)
                            });
                        readers.lock().unwrap_or_else(|e| e.into_inner()).push(reader);
                        done
                    }
                    Err(e) => Err(e.into()),
                };
                let result = match failed {
                    Some(e) => Err(e),
                    None => result,
                };
                if result.is_err() {
                    shared.mark(0, |slot| slot.1 = true);
                    shared.abort();
                } else if part.settles && !settled {
                    shared.settle(part.slot, None)?;
                }
                result
            };
            let forward = |mut out: W::Out| {
                let written = match Output::is_empty(&out) {
                    true => Ok(()),
                    false => sink.batch(&mut out),
                };
                outs.give(out);
                written.map_err(|e| {
                    wrote = Some(crate::Error::from(e).context("writing output"));
                    shared.abort();
                    Stopped
                })
            };
            crate::pipeline::in_order_with_depth(n, jobs, window, read, forward)?;
            slots += n;
            match cut.next {
                Some(next) if next.0 < size && n > 0 => from = next,
                _ => return Ok(()),
            }
        }
    })();
    Some(match wrote.take() {
        Some(e) => Err(e),
        None => result.and_then(|()| sink.finish()),
    })
}

//! The one ordered worker pool every command runs on.
//!
//! - [`in_input_order`]: several inputs read at once (up to `--jobs`), what
//!   they emit handed on in input order (count, verify-crc, and the readers
//!   of [`batches`]).
//! - [`run`]: one thread produces numbered batches (reading input),
//!   `workers` threads turn them into outputs, one thread hands the outputs
//!   to a [`Sink`] in the order the batches were made (from-jsonl,
//!   verify-crc --payloads, and every command through [`batches`]).
//! - [`batches`]: the one reader of records and the consumer trait
//!   ([`batches::Work`] on the workers, a [`Sink`] in order) that cat,
//!   to-jsonl, schema, stats, validate and the report plug into; one large
//!   plain file goes through [`in_order_with_depth`] alone, each thread
//!   reading a piece and working on it (no [`run`]).
//! - [`shuffle`]: the records of [`batches`] in a uniform random order,
//!   within a memory budget (temporary bucket files beyond it).
//!
//! Batches are numbered as they are sent; a worker takes the next from its
//! queue, and the writer puts the outputs back in number order (a
//! `BTreeMap` of those that came early). A worker error ends the output
//! after the bytes of the batches before it and what that worker converted
//! before the error (the records before a bad one are written, as when
//! reading damaged input); the first error in stream order wins: the
//! writer's (a worker's or an I/O error), else the producer's.
//!
//! Memory is bounded by `--jobs` × batch: [`run`] holds at most
//! `workers * (job_depth + 1) + 1` batches (and as many outputs) between the
//! producer and the writer, and [`in_input_order`] at most `DEPTH` items
//! per input in flight, `jobs` inputs at once ([`in_order_with_depth`]: a
//! piece of one file as many as it has batches, plus one, `2 × jobs`
//! pieces at once).
//! A batch holds the records starting in one [`batches::BATCH`] (256 KiB)
//! window of its input; ARCHITECTURE.md states the whole bound.

pub mod batches;
pub mod reshape;
pub mod rng;
pub mod shuffle;

use crate::error::Result;
use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::sync::mpsc::{sync_channel, TryRecvError};
use std::sync::{Condvar, Mutex};

/// Items each input in flight may hold in [`in_input_order`].
const DEPTH: usize = 2;
/// Batches queued for each worker of [`run`] besides the one it works on:
/// two for up to 4 workers (so they do not wait while the producing thread
/// works on a batch itself), one beyond (many workers keep one another
/// busy; more would only hold memory). One for 2 workers was tried (issue
/// 26: two batches and their outputs less, about 2.5 MB for cat of a gzip
/// file): `cat` took 13% longer on 2 cores (workers waited), not kept.
fn job_depth(workers: usize) -> usize {
    if workers <= 4 {
        2
    } else {
        1
    }
}

/// How many workers to run for a thread budget of `jobs`: one per job (no
/// cap below `--jobs`, itself at most 64). `-j 1` is 0: [`run`] then works
/// on the calling thread alone.
pub fn workers(jobs: usize) -> usize {
    match jobs {
        0 | 1 => 0,
        j => j,
    }
}

/// What an input reader hands to the forwarder.
enum Msg<T> {
    Item(T),
    Done,
    Failed(crate::Error),
}

/// Runs `read(i, emit)` for every input `i < n`, up to `jobs` of them at
/// once, and passes what they emit to `sink` in input order: everything of
/// input 0, then of input 1, and so on, exactly as a sequential loop would.
///
/// Stops at the first error in input order (an input's own, or the sink's):
/// what the inputs before it emitted, and what the failing input emitted
/// before failing, has gone to `sink`; later inputs' work is dropped. Memory
/// is bounded: each input in flight holds at most `DEPTH` items, and inputs
/// are taken in order, so at most `jobs` are in flight.
pub fn in_input_order<T, R, S>(n: usize, jobs: usize, read: R, sink: S) -> Result<()>
where
    T: Send,
    R: Fn(usize, &mut dyn FnMut(T) -> Result<(), Stopped>) -> Result<()> + Sync,
    S: FnMut(T) -> Result<(), Stopped>,
{
    in_order_with_depth(
        n,
        jobs,
        Ahead {
            inputs: jobs,
            depth: DEPTH,
        },
        read,
        sink,
    )
}

/// How far [`in_order_with_depth`] reads ahead of the sink.
#[derive(Clone, Copy, Debug)]
pub struct Ahead {
    /// Inputs in flight at most (at least the threads, which are `jobs`):
    /// input `i` starts only once input `i - inputs` has been forwarded.
    pub inputs: usize,
    /// Items each input in flight may hold.
    pub depth: usize,
}

/// [`in_input_order`] with a wider window: `window.depth` items held per
/// input in flight (the pieces of one file: as many as a piece has
/// batches, so that every thread reads its whole piece without waiting for
/// the ones before it), and up to `window.inputs` inputs in flight on the
/// `jobs` threads (more than `jobs`, so that one slow input does not hold
/// every thread back until it is forwarded).
pub fn in_order_with_depth<T, R, S>(n: usize, jobs: usize, window: Ahead, read: R, mut sink: S) -> Result<()>
where
    T: Send,
    R: Fn(usize, &mut dyn FnMut(T) -> Result<(), Stopped>) -> Result<()> + Sync,
    S: FnMut(T) -> Result<(), Stopped>,
{
    if jobs <= 1 || n <= 1 {
        for i in 0..n {
            read(i, &mut sink)?;
        }
        return Ok(());
    }
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    // Input i may start only while fewer than `window.inputs` inputs before
    // it wait to be forwarded (a slow sink then holds back the readers,
    // instead of every input being read ahead); in flight, input i uses
    // channel i % slots, free again once input i - slots has been forwarded.
    let threads = jobs.min(n);
    let slots = window.inputs.max(jobs).min(n);
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..slots).map(|_| sync_channel::<Msg<T>>(window.depth)).unzip();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let forwarding = (Mutex::new(0usize), Condvar::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (senders, next, stop, read, forwarding) = (&senders, &next, &stop, &read, &forwarding);
            spawn(scope, "tfr-read", move || {
                while !stop.load(Relaxed) {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= n {
                        break;
                    }
                    {
                        let (current, moved) = forwarding;
                        let mut at = current.lock().unwrap_or_else(|e| e.into_inner());
                        while i >= *at + slots && !stop.load(Relaxed) {
                            at = moved.wait(at).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                    if stop.load(Relaxed) {
                        break;
                    }
                    let tx = &senders[i % slots];
                    let mut emit = |t| tx.send(Msg::Item(t)).map_err(|_| Stopped);
                    let end = match read(i, &mut emit) {
                        Ok(()) => Msg::Done,
                        Err(e) => Msg::Failed(e),
                    };
                    let _ = tx.send(end);
                }
            });
        }
        let advance = |to: usize| {
            let (current, moved) = &forwarding;
            *current.lock().unwrap_or_else(|e| e.into_inner()) = to;
            moved.notify_all();
        };
        let forwarded = (|| -> Result<()> {
            for i in 0..n {
                let rx = &receivers[i % slots];
                loop {
                    match rx.recv() {
                        Ok(Msg::Item(t)) => sink(t)?,
                        Ok(Msg::Done) => break,
                        Ok(Msg::Failed(e)) => return Err(e),
                        Err(_) => crate::error::bail!("an input reader stopped"),
                    }
                }
                advance(i + 1);
            }
            Ok(())
        })();
        stop.store(true, Relaxed);
        advance(n);
        // The receivers are gone: readers blocked on a send fail and stop.
        drop(receivers);
        forwarded
    })
}

/// The writer or a worker stopped (its error is reported instead).
#[derive(Debug)]
pub struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("output stopped")
    }
}

impl std::error::Error for Stopped {}

/// Hands batches to [`run`]'s workers (or works on one itself when they
/// are all busy).
pub struct Sender<'a, In> {
    send: Box<dyn FnMut(In) -> Result<(), Stopped> + 'a>,
    spares: &'a Spares<In>,
}

/// Batches the workers are done with, to be filled again by the producer
/// instead of allocating new ones (large buffers freed and allocated again
/// cost a page fault per 4 KiB each time). Holds a few at most.
pub struct Spares<In> {
    pool: Pool<In>,
    max: usize,
}

impl<In> Spares<In> {
    /// A used batch, its contents as the worker left them.
    pub fn take(&self) -> Option<In> {
        self.pool.0.lock().ok()?.pop()
    }

    fn put(&self, batch: In) {
        if let Ok(mut v) = self.pool.0.lock() {
            if v.len() < self.max {
                v.push(batch);
            }
        }
    }
}

impl<'a, In> Sender<'a, In> {
    /// Sends the next batch; fails when the pipeline has stopped.
    pub fn send(&mut self, batch: In) -> Result<(), Stopped> {
        (self.send)(batch)
    }

    /// The batches the workers are done with (see [`Spares`]), usable
    /// from any thread while this sender lives.
    pub fn spares(&self) -> &'a Spares<In> {
        self.spares
    }
}

/// What a worker produces from one batch: bytes for the output (the usual
/// case), or any other result the writer combines in order (schema's
/// per-batch statistics). Outputs are recycled: `clear` empties one for
/// reuse, keeping its capacity where it can.
pub trait Output: Default + Send {
    /// Whether it holds nothing to hand on.
    fn is_empty(&self) -> bool;
    /// Empties it for reuse.
    fn clear(&mut self);
}

impl Output for Vec<u8> {
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }

    fn clear(&mut self) {
        Vec::clear(self)
    }
}

/// The in-order side of a consumer: what the workers made of each batch,
/// handed over on one thread in the order the batches were sent. A consumer
/// that keeps state across records (statistics merged, kinds logged, a
/// writer with a header or row groups) keeps it here. Any
/// `FnMut(&O) -> io::Result<()>` is a sink (its `batch`).
pub trait Sink<O>: Send {
    /// Before the first batch.
    fn begin(&mut self) -> Result<()> {
        Ok(())
    }

    /// One batch's output, in order. An empty output means the writer is
    /// about to wait for the next one: the moment to flush a stream (so a
    /// slow input's records are not held back).
    fn batch(&mut self, out: &mut O) -> io::Result<()>;

    /// After the last batch, when the run succeeded (not called when an
    /// error stopped it).
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

impl<O, F: FnMut(&O) -> io::Result<()> + Send> Sink<O> for F {
    fn batch(&mut self, out: &mut O) -> io::Result<()> {
        self(out)
    }
}

/// Spare outputs (or batches), shared by the threads of a pipeline.
struct Pool<O>(Mutex<Vec<O>>);

impl<O> Pool<O> {
    fn put(&self, o: O) {
        if let Ok(mut v) = self.0.lock() {
            v.push(o);
        }
    }
}

impl<O: Output> Pool<O> {
    fn take(&self) -> O {
        self.0.lock().map(|mut v| v.pop()).ok().flatten().unwrap_or_default()
    }

    fn give(&self, mut out: O) {
        out.clear();
        self.put(out);
    }
}

/// Counts the batches handed out and not yet written, so that at most
/// `limit` are in memory; `stopped` once the writer has ended.
struct Window {
    state: Mutex<(usize, bool)>,
    changed: Condvar,
    limit: usize,
}

impl Window {
    /// Waits for room for one more batch; fails once the writer has ended.
    fn acquire(&self) -> Result<(), Stopped> {
        let mut g = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while g.0 >= self.limit && !g.1 {
            g = self.changed.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        if g.1 {
            return Err(Stopped);
        }
        g.0 += 1;
        Ok(())
    }

    fn release(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 -= 1;
        self.changed.notify_all();
    }

    fn stop(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.changed.notify_all();
    }
}

/// Stops the window when the writer ends, however it ends.
struct StopOnDrop<'a>(&'a Window);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The batches waiting for a worker: one queue every worker takes from (the
/// window bounds how many wait), closed when the producer is done.
struct Jobs<In> {
    queue: Mutex<(VecDeque<(u64, In)>, bool)>,
    ready: Condvar,
}

impl<In> Jobs<In> {
    /// Queues a batch, or gives it back when `full` batches already wait
    /// (for the caller to work on).
    fn put(&self, job: (u64, In), full: Option<usize>) -> Option<(u64, In)> {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if full.is_some_and(|full| q.0.len() >= full) {
            return Some(job);
        }
        q.0.push_back(job);
        drop(q);
        self.ready.notify_one();
        None
    }

    /// The next batch; `None` once the queue is closed and empty.
    fn take(&self) -> Option<(u64, In)> {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(job) = q.0.pop_front() {
                return Some(job);
            }
            if q.1 {
                return None;
            }
            q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn close(&self) {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.ready.notify_all();
    }
}

/// A named thread of a scope (names show in `top -H`, `ps -L` and a
/// debugger); a thread that cannot be started is a panic, as with
/// `Scope::spawn`.
fn spawn<'scope, 'env, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    name: &str,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::thread::ScopedJoinHandle<'scope, T> {
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn_scoped(scope, f)
        .expect("failed to spawn a thread")
}

/// [`run`] with no threads: each batch is worked on and written as soon as
/// it is sent.
fn run_here<In, Out, P, W, S>(produce: P, work: W, sink: &mut S) -> Result<()>
where
    Out: Output,
    P: FnOnce(&mut Sender<'_, In>) -> Result<()>,
    W: Fn(&mut In, &mut Out) -> Result<()>,
    S: Sink<Out>,
{
    sink.begin()?;
    let spares = Spares {
        pool: Pool(Mutex::new(Vec::new())),
        max: 1,
    };
    let mut out = Out::default();
    let mut failed = None;
    let produced = {
        let mut sender = Sender {
            send: Box::new(|mut batch| {
                out.clear();
                let result = work(&mut batch, &mut out);
                spares.put(batch);
                // Written, then flushed (the producer may now wait for input).
                let written = match Output::is_empty(&out) {
                    true => Ok(()),
                    false => sink.batch(&mut out),
                }
                .and_then(|()| sink.batch(&mut Out::default()))
                .map_err(|e| crate::Error::from(e).context("writing output"));
                match written.and(result) {
                    Ok(()) => Ok(()),
                    Err(e) => {
                        failed = Some(e);
                        Err(Stopped)
                    }
                }
            }),
            spares: &spares,
        };
        produce(&mut sender)
    };
    match failed {
        Some(e) => Err(e),
        None => produced.and_then(|()| sink.finish()),
    }
}

/// Runs the pipeline: `produce` sends batches until its input ends (or
/// fails), `work` turns one batch into an output (an error keeps what was
/// appended before it), `sink` takes the outputs in the order the batches
/// were sent ([`Sink::batch`]; an empty output means the writer is about to
/// wait), after [`Sink::begin`]; [`Sink::finish`] ends a run that
/// succeeded.
///
/// Workers take batches from one queue; with up to 4 workers, when the
/// queue is full, the producing thread works on the batch itself, so the
/// reading thread's spare time is not lost (with more, it only hands out:
/// forwarding is then what every worker waits on). Outputs are numbered and put back in
/// order by the writer. Memory is bounded: at most `workers * (job_depth + 1)
/// + 1` batches are between `produce` and `write` at any time.
///
/// The first error in stream order wins: a worker's (after the outputs of
/// the batches before it and what it appended before failing) or the
/// writer's, else the producer's.
pub fn run<In, Out, P, W, S>(workers: usize, produce: P, work: W, mut sink: S) -> Result<()>
where
    In: Send,
    Out: Output,
    P: FnOnce(&mut Sender<'_, In>) -> Result<()>,
    W: Fn(&mut In, &mut Out) -> Result<()> + Sync,
    S: Sink<Out>,
{
    if workers == 0 {
        return run_here(produce, work, &mut sink);
    }
    let pool = Pool(Mutex::new(Vec::new()));
    let depth = job_depth(workers);
    let window = Window {
        state: Mutex::new((0, false)),
        changed: Condvar::new(),
        limit: workers * (depth + 1) + 1,
    };
    let spare = Spares {
        pool: Pool(Mutex::new(Vec::new())),
        max: workers + 2,
    };
    let jobs = Jobs {
        queue: Mutex::new((VecDeque::new(), false)),
        ready: Condvar::new(),
    };
    // Never full: no more results exist than batches in the window.
    let (result_tx, result_rx) = sync_channel::<(u64, Out, Result<()>)>(window.limit);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (work, pool, spare, jobs, result_tx) = (&work, &pool, &spare, &jobs, result_tx.clone());
            spawn(scope, "tfr-work", move || {
                while let Some((seq, mut batch)) = jobs.take() {
                    let mut out = pool.take();
                    let result = work(&mut batch, &mut out);
                    spare.put(batch);
                    if result_tx.send((seq, out, result)).is_err() {
                        return;
                    }
                }
            });
        }
        let (pool, window, sink) = (&pool, &window, &mut sink);
        let writer = spawn(scope, "tfr-write", move || -> Result<()> {
            let _stop = StopOnDrop(window);
            sink.begin()?;
            let failed = |e: io::Error| crate::Error::from(e).context("writing output");
            let mut idle = Out::default();
            let mut pending = BTreeMap::new();
            let mut next = 0u64;
            loop {
                while let Some((mut out, result)) = pending.remove(&next) {
                    if !Output::is_empty(&out) {
                        sink.batch(&mut out).map_err(failed)?;
                    }
                    pool.give(out);
                    window.release();
                    next += 1;
                    result?;
                }
                let received = match result_rx.try_recv() {
                    Err(TryRecvError::Empty) => {
                        sink.batch(&mut idle).map_err(failed)?;
                        result_rx.recv().ok()
                    }
                    other => other.ok(),
                };
                let Some((seq, out, result)) = received else {
                    return Ok(());
                };
                pending.insert(seq, (out, result));
            }
        });
        let produced = {
            let mut seq = 0u64;
            let (work, result_tx, spare, jobs) = (&work, &result_tx, &spare, &jobs);
            let mut sender = Sender {
                send: Box::new(|batch| {
                    window.acquire()?;
                    seq += 1;
                    // With a few workers, the producing thread works on a
                    // batch itself when every worker has `depth` waiting
                    // (its spare time is a core's worth on a small
                    // machine); with many, it only reads and hands out
                    // (the time it spent working held back every worker).
                    let Some((at, mut batch)) = jobs.put((seq - 1, batch), (workers <= 4).then_some(workers * depth))
                    else {
                        return Ok(());
                    };
                    let mut out = pool.take();
                    let result = work(&mut batch, &mut out);
                    spare.put(batch);
                    result_tx.send((at, out, result)).map_err(|_| Stopped)
                }),
                spares: spare,
            };
            produce(&mut sender)
        };
        jobs.close();
        drop(result_tx);
        let written = writer.join().expect("writer thread panicked");
        written?;
        produced
    })?;
    sink.finish()
}

#[cfg(test)]
mod tests;

//! The one ordered worker pool every command runs on.
//!
//! - [`in_input_order`]: several inputs read at once (up to `--jobs`), what
//!   they emit handed on in input order (count, verify-crc, schema, and
//!   the readers of cat and to-jsonl).
//! - [`run`]: one thread produces batches (reading input), several workers
//!   convert them, one thread writes the results in the order the batches
//!   were made (cat, to-jsonl, from-jsonl).
//! - [`batches`]: records of many inputs read into batches for [`run`].
//!
//! Batch `k` goes to worker `k % W` and the writer takes results round-robin
//! from the workers, so order needs no sequence numbers. A worker error ends
//! that worker's output after the bytes it converted before the error (the
//! records before a bad one are written, as when reading damaged input);
//! the first error in stream order wins: the writer's (a worker's or an
//! I/O error), else the producer's. Memory is bounded: each channel holds at
//! most two batches.

pub mod batches;

use anyhow::Result;
use std::io;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Mutex;

/// Batches each channel holds.
const DEPTH: usize = 2;

/// How many workers to run for a thread budget of `jobs`: at most 4.
pub fn workers(jobs: usize) -> usize {
    jobs.clamp(1, 4)
}

/// What an input reader hands to the forwarder.
enum Msg<T> {
    Item(T),
    Done,
    Failed(anyhow::Error),
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
pub fn in_input_order<T, R, S>(n: usize, jobs: usize, read: R, mut sink: S) -> Result<()>
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
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..n).map(|_| sync_channel::<Msg<T>>(DEPTH)).unzip();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(n) {
            let (senders, next, stop, read) = (&senders, &next, &stop, &read);
            scope.spawn(move || {
                while !stop.load(Relaxed) {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(tx) = senders.get(i) else { break };
                    let mut emit = |t| tx.send(Msg::Item(t)).map_err(|_| Stopped);
                    let end = match read(i, &mut emit) {
                        Ok(()) => Msg::Done,
                        Err(e) => Msg::Failed(e),
                    };
                    let _ = tx.send(end);
                }
            });
        }
        let forwarded = (|| -> Result<()> {
            for rx in receivers {
                loop {
                    match rx.recv() {
                        Ok(Msg::Item(t)) => sink(t)?,
                        Ok(Msg::Done) => break,
                        Ok(Msg::Failed(e)) => return Err(e),
                        Err(_) => anyhow::bail!("an input reader stopped"),
                    }
                }
            }
            Ok(())
        })();
        // The receivers are gone: readers blocked on a send fail and stop.
        stop.store(true, Relaxed);
        forwarded
    })
}

/// Hands batches to the workers, round-robin.
pub struct Sender<In> {
    txs: Vec<SyncSender<In>>,
    next: usize,
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

impl<In> Sender<In> {
    /// Sends the next batch; fails when the pipeline has stopped.
    pub fn send(&mut self, batch: In) -> Result<(), Stopped> {
        let i = self.next % self.txs.len();
        self.next += 1;
        self.txs[i].send(batch).map_err(|_| Stopped)
    }
}

/// Spare output buffers, shared by the workers and the writer.
struct Pool(Mutex<Vec<Vec<u8>>>);

impl Pool {
    fn take(&self) -> Vec<u8> {
        self.0.lock().map(|mut v| v.pop()).ok().flatten().unwrap_or_default()
    }

    fn give(&self, mut buf: Vec<u8>) {
        buf.clear();
        if let Ok(mut v) = self.0.lock() {
            v.push(buf);
        }
    }
}

/// Runs the pipeline: `produce` sends batches until its input ends (or
/// fails), `work` appends the output of one batch to a buffer (an error
/// keeps what was appended before it), `write` takes the outputs in order.
/// `write(&[])` means the writer is about to wait for the next output: the
/// moment to flush a stream (so a slow input's records are not held back).
pub fn run<In, P, W, S>(workers: usize, produce: P, work: W, mut write: S) -> Result<()>
where
    In: Send,
    P: FnOnce(&mut Sender<In>) -> Result<()>,
    W: Fn(In, &mut Vec<u8>) -> Result<()> + Sync,
    S: FnMut(&[u8]) -> io::Result<()> + Send,
{
    let workers = workers.max(1);
    let pool = Pool(Mutex::new(Vec::new()));
    std::thread::scope(|scope| {
        let mut txs = Vec::with_capacity(workers);
        let mut outs: Vec<Receiver<(Vec<u8>, Result<()>)>> = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (tx, rx) = sync_channel::<In>(DEPTH);
            let (out_tx, out_rx) = sync_channel::<(Vec<u8>, Result<()>)>(DEPTH);
            txs.push(tx);
            outs.push(out_rx);
            let (work, pool) = (&work, &pool);
            scope.spawn(move || {
                for batch in rx {
                    let mut out = pool.take();
                    let result = work(batch, &mut out);
                    let failed = result.is_err();
                    if out_tx.send((out, result)).is_err() || failed {
                        return;
                    }
                }
            });
        }
        let pool = &pool;
        let writer = scope.spawn(move || -> Result<()> {
            let failed = |e: io::Error| anyhow::Error::new(e).context("writing output");
            for k in 0.. {
                let next = &outs[k % outs.len()];
                let received = match next.try_recv() {
                    Err(std::sync::mpsc::TryRecvError::Empty) => {
                        write(&[]).map_err(failed)?;
                        next.recv().ok()
                    }
                    other => other.ok(),
                };
                let Some((buf, result)) = received else {
                    return Ok(());
                };
                if !buf.is_empty() {
                    write(&buf).map_err(failed)?;
                }
                pool.give(buf);
                result?;
            }
            Ok(())
        });
        let mut sender = Sender { txs, next: 0 };
        let produced = produce(&mut sender);
        drop(sender);
        let written = writer.join().expect("writer thread panicked");
        written?;
        produced
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_reports_the_first_error() {
        let mut out = Vec::new();
        run(
            3,
            |s: &mut Sender<u32>| {
                for i in 0..100 {
                    s.send(i)?;
                }
                Ok(())
            },
            |i, buf| {
                buf.extend_from_slice(format!("{i},").as_bytes());
                Ok(())
            },
            |b| {
                out.extend_from_slice(b);
                Ok(())
            },
        )
        .unwrap();
        let want: String = (0..100).map(|i| format!("{i},")).collect();
        assert_eq!(String::from_utf8(out).unwrap(), want);

        let mut out = Vec::new();
        let err = run(
            2,
            |s: &mut Sender<u32>| {
                for i in 0..100 {
                    s.send(i)?;
                }
                anyhow::bail!("producer error")
            },
            |i, buf| {
                buf.push(b'a' + (i % 26) as u8);
                if i == 7 {
                    anyhow::bail!("worker error at {i}")
                }
                Ok(())
            },
            |b| {
                out.extend_from_slice(b);
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "worker error at 7");
        assert_eq!(out, b"abcdefgh");

        let err = run(
            2,
            |s: &mut Sender<u32>| {
                s.send(1)?;
                anyhow::bail!("producer error")
            },
            |_, _| Ok(()),
            |_| Ok(()),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "producer error");
    }

    /// Input `i` emits `i * 10 .. i * 10 + i`; input `fail` fails after one item.
    fn read_numbers(
        fail: Option<usize>,
    ) -> impl Fn(usize, &mut dyn FnMut(usize) -> Result<(), Stopped>) -> Result<()> + Sync {
        move |i, emit| {
            for k in 0..i {
                std::thread::sleep(std::time::Duration::from_micros(((i * 7 + k) % 5) as u64 * 50));
                emit(i * 10 + k)?;
                if Some(i) == fail {
                    anyhow::bail!("input {i} failed")
                }
            }
            Ok(())
        }
    }

    #[test]
    fn inputs_come_out_in_order_whatever_the_jobs() {
        let want: Vec<usize> = (0..20).flat_map(|i| (0..i).map(move |k| i * 10 + k)).collect();
        for jobs in [1, 2, 3, 8, 30] {
            let mut got = Vec::new();
            in_input_order(20, jobs, read_numbers(None), |t| {
                got.push(t);
                Ok(())
            })
            .unwrap();
            assert_eq!(got, want, "jobs {jobs}");

            let mut got = Vec::new();
            let err = in_input_order(20, jobs, read_numbers(Some(6)), |t| {
                got.push(t);
                Ok(())
            })
            .unwrap_err();
            assert_eq!(err.to_string(), "input 6 failed");
            let upto: Vec<usize> = want.iter().copied().take_while(|&v| v <= 60).collect();
            assert_eq!(got, upto, "jobs {jobs}");

            let mut got = 0;
            let err = in_input_order(20, jobs, read_numbers(None), |_| {
                got += 1;
                if got == 30 {
                    return Err(Stopped);
                }
                Ok(())
            })
            .unwrap_err();
            assert_eq!(err.to_string(), "output stopped");
        }
    }
}

//! An ordered parallel pipeline for to-jsonl and from-jsonl: one thread
//! produces batches (reading input), several workers convert them, one
//! thread writes the results in the order the batches were made.
//!
//! Batch `k` goes to worker `k % W` and the writer takes results round-robin
//! from the workers, so order needs no sequence numbers. A worker error ends
//! that worker's output after the bytes it converted before the error (the
//! records before a bad one are written, as when reading damaged input);
//! the first error in stream order wins: the writer's (a worker's or an
//! I/O error), else the producer's. Memory is bounded: each channel holds at
//! most two batches.

use anyhow::Result;
use std::io;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Mutex;

/// Batches each channel holds.
const DEPTH: usize = 2;

/// How many workers to run: the cores available, at most 4.
pub fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 4)
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
            for k in 0.. {
                let Ok((buf, result)) = outs[k % outs.len()].recv() else {
                    return Ok(());
                };
                write(&buf).map_err(|e| anyhow::Error::new(e).context("writing output"))?;
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
}

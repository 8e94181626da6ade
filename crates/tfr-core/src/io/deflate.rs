//! Gzip compression on several threads, for gzip outputs (from-jsonl
//! `--compression gzip`, a gzip salvage file).
//!
//! The data is cut into chunks; each chunk is deflated on its own by a
//! worker (a fresh raw-deflate stream ended with a sync flush, so it stops
//! on a byte boundary without a final block); the chunks are written in
//! order behind one gzip header, the last one closes the stream with the
//! final block, and the trailer holds the CRC-32 of the whole data combined
//! from the chunks' CRCs. The result is one ordinary gzip member that any
//! reader inflates, TensorFlow's included. A chunk cannot refer back into
//! the previous one, which costs well under 1% of compression at this chunk
//! size (0.17% more output for 512 KiB chunks than for 1 MiB ones).

use super::inflate::GzipCrc;
use flate2::{Compress, Compression, FlushCompress, Status};
use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Uncompressed bytes per chunk: 512 KiB (1 MiB made the output 0.17%
/// smaller but held 1.5 MiB more, on 2 threads: from-jsonl
/// `--compression gzip` peaked at 19.9-20.4 MB instead of 17.2-18.2 MB,
/// at the same speed within noise, 2026-11-26).
const CHUNK: usize = 512 << 10;
/// Chunks in flight per worker: the one it deflates. The writer fills the
/// next chunk meanwhile and, when it is full, waits for the oldest one, so
/// each worker gets its next chunk as soon as it hands back its last; a
/// second chunk queued per worker bought no speed (deflate is what the
/// writer waits on either way) and held a chunk, and its output, more
/// per worker. Memory: `threads + 1` chunks of [`CHUNK`] (the one being filled
/// too), their deflated output, and each worker's deflate state.
const DEPTH: usize = 1;

/// The gzip header: no name, no mtime, default level, unknown OS (as flate2 writes it).
const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

struct Job {
    data: Vec<u8>,
    last: bool,
}

struct Done {
    /// The chunk, handed back for reuse.
    data: Vec<u8>,
    deflated: io::Result<Vec<u8>>,
    crc: GzipCrc,
}

/// A `Write` that gzips on `threads` worker threads; call [`finish`](ParallelGzip::finish).
pub struct ParallelGzip<W: Write> {
    inner: W,
    /// Uncompressed bytes per chunk.
    chunk_size: usize,
    chunk: Vec<u8>,
    spare: Vec<Vec<u8>>,
    /// Chunk buffers made so far (reused after: at most `threads + 1`).
    made: usize,
    jobs: Vec<SyncSender<Job>>,
    done: Vec<Receiver<Done>>,
    sent: usize,
    received: usize,
    crc: GzipCrc,
    workers: Vec<JoinHandle<()>>,
}

impl<W: Write> ParallelGzip<W> {
    /// Starts a gzip stream on `inner` (the header is written at once).
    pub fn new(inner: W, level: Compression, threads: usize) -> io::Result<ParallelGzip<W>> {
        ParallelGzip::with_chunk_size(inner, level, threads, CHUNK)
    }

    fn with_chunk_size(
        mut inner: W,
        level: Compression,
        threads: usize,
        chunk_size: usize,
    ) -> io::Result<ParallelGzip<W>> {
        inner.write_all(&HEADER)?;
        // More threads than cores only add memory (two chunks in flight each).
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = threads.clamp(1, cores.max(2));
        let (mut jobs, mut done, mut workers) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..threads {
            let (job_tx, job_rx) = sync_channel::<Job>(DEPTH);
            let (done_tx, done_rx) = sync_channel::<Done>(DEPTH);
            let worker = std::thread::Builder::new()
                .name("tfr-deflate".into())
                .spawn(move || deflate_chunks(level, job_rx, done_tx))?;
            jobs.push(job_tx);
            done.push(done_rx);
            workers.push(worker);
        }
        Ok(ParallelGzip {
            inner,
            chunk_size,
            chunk: Vec::with_capacity(chunk_size),
            spare: Vec::new(),
            made: 1,
            jobs,
            done,
            sent: 0,
            received: 0,
            crc: GzipCrc::default(),
            workers,
        })
    }

    /// Hands the current chunk to the next worker, first writing out the
    /// oldest result if that worker's queue could be full.
    fn dispatch(&mut self, last: bool) -> io::Result<()> {
        if self.sent - self.received == DEPTH * self.jobs.len() {
            self.collect()?;
        }
        let next = match self.spare.pop() {
            Some(spare) => spare,
            None => {
                self.made += 1;
                Vec::with_capacity(self.chunk_size)
            }
        };
        let data = std::mem::replace(&mut self.chunk, next);
        let worker = self.sent % self.jobs.len();
        self.jobs[worker]
            .send(Job { data, last })
            .map_err(|_| io::Error::other("a compression thread stopped"))?;
        self.sent += 1;
        Ok(())
    }

    /// Writes the oldest outstanding chunk.
    fn collect(&mut self) -> io::Result<()> {
        let worker = self.received % self.done.len();
        let done = self.done[worker]
            .recv()
            .map_err(|_| io::Error::other("a compression thread stopped"))?;
        self.received += 1;
        self.inner.write_all(&done.deflated?)?;
        self.crc.combine(&done.crc);
        let mut data = done.data;
        data.clear();
        self.spare.push(data);
        Ok(())
    }

    /// Compresses and writes out everything written so far (the current
    /// chunk ends early, with its sync flush), and flushes the inner
    /// writer: what it holds is then a prefix of the stream that ends on a
    /// byte boundary, and only the final block and trailer are missing.
    pub fn sync(&mut self) -> io::Result<()> {
        if !self.chunk.is_empty() {
            self.dispatch(false)?;
        }
        while self.received < self.sent {
            self.collect()?;
        }
        self.inner.flush()
    }

    /// Ends the stream (final block, CRC-32 and size trailer) and returns the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.dispatch(true)?;
        while self.received < self.sent {
            self.collect()?;
        }
        self.inner.write_all(&self.crc.sum().to_le_bytes())?;
        self.inner.write_all(&self.crc.amount().to_le_bytes())?;
        self.jobs.clear();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
        Ok(self.inner)
    }
}

impl<W: Write> Write for ParallelGzip<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = buf.len().min(self.chunk_size - self.chunk.len());
        self.chunk.extend_from_slice(&buf[..n]);
        if self.chunk.len() == self.chunk_size {
            self.dispatch(false)?;
        }
        Ok(n)
    }

    /// Writes out the chunks already compressed; the current chunk stays
    /// open (a gzip stream can only be cut at chunk ends).
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A worker: deflates each chunk it is given as a raw deflate fragment.
fn deflate_chunks(level: Compression, jobs: Receiver<Job>, done: SyncSender<Done>) {
    let mut compress = Compress::new(level, false);
    for Job { data, last } in jobs {
        compress.reset();
        let mut crc = GzipCrc::default();
        crc.update(&data);
        let deflated = deflate(&mut compress, &data, last);
        if done.send(Done { data, deflated, crc }).is_err() {
            return;
        }
    }
}

/// One chunk as raw deflate: ended by a sync flush (byte-aligned, not
/// final), or by the final block when `last`.
fn deflate(compress: &mut Compress, data: &[u8], last: bool) -> io::Result<Vec<u8>> {
    let flush = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Sync
    };
    // Deflate's worst case is a few bytes per 16 KB block over the input.
    let mut out = Vec::with_capacity(data.len() + data.len() / 1000 + 64);
    loop {
        let consumed = compress.total_in() as usize;
        let status = compress
            .compress_vec(&data[consumed..], &mut out, flush)
            .map_err(io::Error::other)?;
        let all_in = compress.total_in() as usize == data.len();
        match status {
            Status::StreamEnd => return Ok(out),
            // The flush is complete once all input is in and room is left over.
            Status::Ok | Status::BufError if !last && all_in && out.len() < out.capacity() => return Ok(out),
            Status::Ok | Status::BufError => out.reserve(out.capacity().max(4096)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).unwrap();
        out
    }

    /// Compressible but not trivial data.
    fn data(n: usize) -> Vec<u8> {
        let mut x = 12345u64;
        (0..n)
            .map(|i| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if i % 3 == 0 {
                    (x >> 60) as u8
                } else {
                    b"tfrecord"[i % 8]
                }
            })
            .collect()
    }

    /// Chunk size in the tests (small: the debug build deflates slowly).
    const TEST_CHUNK: usize = 16 * 1024;

    #[test]
    fn any_size_and_thread_count_gunzips_to_the_input() {
        let c = TEST_CHUNK;
        for n in [0, 1, 100, c - 1, c, c + 1, 13 * c + 12345] {
            let input = data(n);
            for threads in [1, 2, 3] {
                let mut z = ParallelGzip::with_chunk_size(Vec::new(), Compression::default(), threads, c).unwrap();
                // Uneven writes across chunk boundaries.
                for piece in input.chunks(7_777) {
                    z.write_all(piece).unwrap();
                }
                let gz = z.finish().unwrap();
                assert_eq!(gunzip(&gz), input, "{n} bytes, {threads} threads");
                let mut single = flate2::write::GzEncoder::new(Vec::new(), Compression::default());
                single.write_all(&input).unwrap();
                let single = single.finish().unwrap();
                // Independent 16 KB chunks cost more than 1 MB ones would.
                assert!(
                    gz.len() <= single.len() + single.len() / 5 + 64,
                    "{n} bytes: {} vs {}",
                    gz.len(),
                    single.len()
                );
            }
        }
    }

    #[test]
    fn holds_one_chunk_per_thread_and_the_one_being_filled() {
        let input = data(30 * TEST_CHUNK + 17);
        for threads in [1, 2, 3] {
            let mut z = ParallelGzip::with_chunk_size(Vec::new(), Compression::default(), threads, TEST_CHUNK).unwrap();
            let threads = z.jobs.len();
            z.write_all(&input).unwrap();
            assert_eq!(z.made, threads + 1, "{threads} threads");
            assert_eq!(gunzip(&z.finish().unwrap()), input);
        }
    }

    #[test]
    fn incompressible_data_fits() {
        let mut x = 99u64;
        let input: Vec<u8> = (0..3 * TEST_CHUNK + 5)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let mut z = ParallelGzip::with_chunk_size(Vec::new(), Compression::default(), 2, TEST_CHUNK).unwrap();
        z.write_all(&input).unwrap();
        assert_eq!(gunzip(&z.finish().unwrap()), input);
    }

    #[test]
    fn write_errors_surface() {
        struct Full(usize);
        impl Write for Full {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                if self.0 < buf.len() {
                    return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
                }
                self.0 -= buf.len();
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let input = data(40 * TEST_CHUNK);
        let mut z = ParallelGzip::with_chunk_size(Full(1000), Compression::default(), 2, TEST_CHUNK).unwrap();
        let r = z.write_all(&input).and_then(|_| z.finish().map(|_| ()));
        assert_eq!(r.unwrap_err().kind(), io::ErrorKind::StorageFull);
    }
}

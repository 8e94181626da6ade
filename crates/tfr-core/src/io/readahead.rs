//! Read-ahead on a second thread: a producer thread fills chunks from any
//! reader (typically a decompressor) while the consumer parses, so inflating
//! and record walking use both cores.
//!
//! The record reader takes whole chunks ([`ReadAhead::next_chunk`]) and
//! parses in them where they lie; each chunk keeps [`LEAD`] free bytes in
//! front of its data, where the reader puts the unread end of the previous
//! chunk (a record cut by the chunk boundary). Copying every byte once more
//! into the reader's own buffer cost the parsing thread a third of its work.

use std::io::{self, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Bytes per chunk handed from the producer to the consumer.
const CHUNK: usize = 256 * 1024;
/// Free bytes in front of each chunk's data (see the module doc): a record
/// shorter than this that straddles two chunks costs only its own copy.
pub const LEAD: usize = 64 * 1024;
/// Chunks waiting for the consumer (bounded, so memory stays flat: about
/// `DEPTH + 2` chunks with the one being filled and the consumer's). One
/// keeps the inflating thread as far ahead as two and three did (count and
/// verify-crc of a gzip file took the same time, 2026-11-26) with a chunk
/// less per compressed input: cat of a gzip file 20.3-20.5 -> 19.3-19.7 MB
/// peak RSS, to-jsonl over 8 gzip shards (two read at once on 2 cores)
/// 20.8 -> 17.5 MB (with `COMPRESSED_BUF` at 64 KiB). Smaller chunks
/// (128 KiB) saved as much but made count of a gzip file 9% slower: each
/// chunk handed over wakes the other thread.
const DEPTH: usize = 1;

/// A `Read` whose data is produced on another thread.
pub struct ReadAhead {
    full: Receiver<io::Result<Vec<u8>>>,
    empty: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    pos: usize,
    done: bool,
    thread: Option<JoinHandle<()>>,
}

impl ReadAhead {
    /// Starts reading `inner` on a new thread, in full chunks (a file).
    pub fn new(inner: Box<dyn Read + Send>) -> ReadAhead {
        ReadAhead::start(inner, false)
    }

    /// Starts reading `inner` on a new thread, handing over what it has
    /// whenever a read comes back short (a pipe that has nothing more for
    /// now): a slow stream's first records reach the reader at once
    /// instead of after a whole chunk.
    pub fn eager(inner: Box<dyn Read + Send>) -> ReadAhead {
        ReadAhead::start(inner, true)
    }

    fn start(mut inner: Box<dyn Read + Send>, eager: bool) -> ReadAhead {
        let (full_tx, full) = sync_channel::<io::Result<Vec<u8>>>(DEPTH);
        let (empty, empty_rx) = sync_channel::<Vec<u8>>(DEPTH + 2);
        let thread = std::thread::Builder::new()
            .name("tfr-readahead".into())
            .spawn(move || produce(&mut *inner, eager, &full_tx, &empty_rx))
            .expect("spawning the read-ahead thread");
        ReadAhead {
            full,
            empty,
            current: Vec::new(),
            pos: 0,
            done: false,
            thread: Some(thread),
        }
    }
}

/// The producer loop: fill a recycled buffer, send it, until EOF or error.
fn produce(inner: &mut dyn Read, eager: bool, full: &SyncSender<io::Result<Vec<u8>>>, empty: &Receiver<Vec<u8>>) {
    loop {
        let mut buf = empty.try_recv().unwrap_or_default();
        buf.resize(LEAD + CHUNK, 0);
        let mut filled = LEAD;
        let mut short = false;
        let result = loop {
            match inner.read(&mut buf[filled..]) {
                Ok(0) => break Ok(()),
                Ok(n) => {
                    let asked = buf.len() - filled;
                    filled += n;
                    if filled == buf.len() || (eager && n < asked) {
                        short = filled < buf.len();
                        break Ok(());
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        buf.truncate(filled);
        let end = (filled < LEAD + CHUNK && !short) || result.is_err();
        if filled > LEAD && full.send(Ok(buf)).is_err() {
            return; // the consumer is gone
        }
        if let Err(e) = result {
            let _ = full.send(Err(e));
            return;
        }
        if end {
            let _ = full.send(Ok(Vec::new()));
            return;
        }
    }
}

impl ReadAhead {
    /// The next chunk: its data is at `[LEAD..]` (never empty), the bytes
    /// before are free. `None` at the end; an error after the chunks that
    /// preceded it, then `None`. Pass chunks back through [`Self::recycle`].
    pub fn next_chunk(&mut self) -> io::Result<Option<Vec<u8>>> {
        if self.done {
            return Ok(None);
        }
        match self.full.recv() {
            Ok(Ok(chunk)) if chunk.is_empty() => {
                self.done = true;
                Ok(None)
            }
            Ok(Ok(chunk)) => Ok(Some(chunk)),
            Ok(Err(e)) => {
                self.done = true;
                Err(e)
            }
            Err(_) => {
                self.done = true;
                Err(io::Error::other("read-ahead thread stopped"))
            }
        }
    }

    /// Hands a used buffer back to the producer (saves allocating and
    /// zeroing a new one). One grown far beyond a chunk (it held a large
    /// record) is freed instead, so big buffers do not circulate.
    pub fn recycle(&mut self, buf: Vec<u8>) {
        if buf.capacity() <= 2 * (LEAD + CHUNK) {
            let _ = self.empty.try_send(buf);
        }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.current.len() {
            match self.next_chunk()? {
                None => return Ok(0),
                Some(chunk) => {
                    let old = std::mem::replace(&mut self.current, chunk);
                    self.recycle(old);
                    self.pos = LEAD;
                }
            }
        }
        let n = out.len().min(self.current.len() - self.pos);
        out[..n].copy_from_slice(&self.current[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Drop for ReadAhead {
    fn drop(&mut self) {
        // Unblock the producer (its sends fail once `full` is dropped), then
        // let it finish on its own: joining could wait on a slow input.
        let _ = self.thread.take();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn passes_everything_through_in_order() {
        let data: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        let mut r = ReadAhead::new(Box::new(io::Cursor::new(data.clone())));
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        assert_eq!(got, data);
    }

    /// A reader giving this many bytes of 7s, then an InvalidData error.
    pub(crate) struct Failing(pub usize);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "corrupt"));
            }
            let n = buf.len().min(self.0).min(1000);
            buf[..n].fill(7);
            self.0 -= n;
            Ok(n)
        }
    }

    /// Counts the bytes read from it.
    struct Counted(Arc<AtomicUsize>);

    impl Read for Counted {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(1);
            self.0.fetch_add(buf.len(), Ordering::SeqCst);
            Ok(buf.len())
        }
    }

    /// An endless input read by nobody: the producer stops DEPTH chunks
    /// ahead, plus the one it fills (memory stays flat).
    #[test]
    fn reads_ahead_at_most_depth_chunks_and_the_one_being_filled() {
        let read = Arc::new(AtomicUsize::new(0));
        let r = ReadAhead::new(Box::new(Counted(read.clone())));
        std::thread::sleep(std::time::Duration::from_millis(200));
        let ahead = read.load(Ordering::SeqCst);
        assert_eq!(ahead, (DEPTH + 1) * CHUNK);
        assert_eq!(DEPTH, 1);
        drop(r);
    }

    #[test]
    fn errors_arrive_after_the_data_before_them() {
        let mut r = ReadAhead::new(Box::new(Failing(5000)));
        let mut got = Vec::new();
        let err = r.read_to_end(&mut got).unwrap_err();
        assert_eq!(got.len(), 5000);
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }
}

//! A buffered byte source with look-ahead, used by the record reader.
//!
//! Unlike `BufReader`, it can hold a whole record contiguously however large,
//! growing its buffer only as data actually arrives (so a bogus length never
//! allocates more than the bytes present), and it skips by arithmetic on
//! inputs read by position (regular files, objects in a store). Over a read-ahead thread it parses in the thread's chunks
//! themselves instead of copying them (see [`crate::io::readahead`]).

use crate::io::at::At;
use crate::io::readahead::{ReadAhead, LEAD};
use std::fs::File;
use std::io::{self, Read};

/// Default buffer size: big enough to amortise system calls, small enough for cache.
const DEFAULT_CAPACITY: usize = 256 * 1024;

/// Largest single read from a stream (decompressor or pipe).
const STREAM_READ: usize = 64 * 1024;

enum Inner {
    /// A regular file or an object in a store: read by position, with a
    /// known size.
    Positional { file: At, size: u64 },
    /// Anything else: stdin, a pipe, a decompressor.
    Stream(Box<dyn Read + Send>),
    /// A read-ahead thread (a decompressor): its chunks become `buf`.
    Chunks(ReadAhead),
}

/// Buffered input with `fill(n)` look-ahead and cheap `skip(n)`.
pub struct Source {
    inner: Inner,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// Stream offset of `buf[pos]`.
    offset: u64,
    eof: bool,
    /// The bytes come from a regular file (maybe through a decompressor):
    /// the input ends, unlike a pipe or a device.
    file_backed: bool,
}

impl Source {
    /// A source over a regular file of known size, read from offset 0 with
    /// positional reads (the file's cursor is neither used nor moved).
    pub fn from_file(file: File, size: u64) -> Source {
        Source::from_at(At::file(file), size)
    }

    /// A source over positional reads of `size` bytes (a file or an
    /// object), read from offset 0.
    pub fn from_at(file: At, size: u64) -> Source {
        Source::new(Inner::Positional { file, size })
    }

    /// A source over any reader (no seeking, size unknown).
    pub fn from_reader(reader: Box<dyn Read + Send>) -> Source {
        Source::new(Inner::Stream(reader))
    }

    /// A source over a read-ahead thread, taking its chunks whole.
    pub fn from_read_ahead(reader: ReadAhead) -> Source {
        Source::new(Inner::Chunks(reader))
    }

    fn new(inner: Inner) -> Source {
        Source {
            file_backed: matches!(inner, Inner::Positional { .. }),
            inner,
            buf: Vec::new(),
            pos: 0,
            end: 0,
            offset: 0,
            eof: false,
        }
    }

    /// Stream offset of the next unconsumed byte.
    #[inline]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The buffered, unconsumed bytes.
    #[inline]
    pub fn buffer(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Bytes left from the current offset to the end, when the size is known.
    pub fn remaining(&self) -> Option<u64> {
        match &self.inner {
            Inner::Positional { size, .. } => Some(size.saturating_sub(self.offset)),
            Inner::Stream(_) | Inner::Chunks(_) => None,
        }
    }

    /// Marks a stream as coming from a regular file (a decompressor over one).
    pub fn set_file_backed(&mut self) {
        self.file_backed = true;
    }

    /// Whether the bytes come from a regular file, so that they end.
    pub fn file_backed(&self) -> bool {
        self.file_backed
    }

    /// The file or object read by position, for readers sharing it
    /// (parallel walks).
    pub fn file(&self) -> Option<&At> {
        match &self.inner {
            Inner::Positional { file, .. } => Some(file),
            Inner::Stream(_) | Inner::Chunks(_) => None,
        }
    }

    /// Total input size when known up front (files and objects read by position).
    pub fn size(&self) -> Option<u64> {
        match &self.inner {
            Inner::Positional { size, .. } => Some(*size),
            Inner::Stream(_) | Inner::Chunks(_) => None,
        }
    }

    /// Makes at least `n` bytes available in `buffer()` unless the input ends
    /// first; returns how many are available. The buffer grows at most to
    /// twice the bytes actually read, whatever `n` asks for.
    #[inline]
    pub fn fill(&mut self, n: usize) -> io::Result<usize> {
        // The common case, bytes already buffered, without a call: the
        // record reader asks twice per record.
        let held = self.end - self.pos;
        if held >= n {
            return Ok(held);
        }
        self.fill_more(n)
    }

    /// [`Self::fill`] when the buffer holds fewer than `n` bytes.
    fn fill_more(&mut self, n: usize) -> io::Result<usize> {
        while self.end - self.pos < n && !self.eof {
            if let Inner::Chunks(_) = self.inner {
                self.next_chunk(n)?;
                continue;
            }
            if self.end == self.buf.len() {
                self.make_room(0, n);
            }
            let got = match &mut self.inner {
                Inner::Positional { file, .. } => {
                    let at = self.offset + (self.end - self.pos) as u64;
                    // What is wanted, and what the source reads beyond it.
                    let want = n.saturating_sub(self.end - self.pos).saturating_add(file.read_beyond());
                    let stop = self.buf.len().min(self.end.saturating_add(want));
                    file.read_at(&mut self.buf[self.end..stop], at)?
                }
                // Small reads from decompressors: a corrupt block then loses
                // at most this much of the output decoded before it.
                Inner::Stream(r) => {
                    let stop = self.buf.len().min(self.end + STREAM_READ);
                    read_retry(r, &mut self.buf[self.end..stop])?
                }
                Inner::Chunks(_) => unreachable!("taken whole above"),
            };
            if got == 0 {
                self.eof = true;
            }
            self.end += got;
        }
        Ok(self.end - self.pos)
    }

    /// Adds the read-ahead thread's next chunk (at least one byte), or sets
    /// `eof`.
    fn next_chunk(&mut self, want: usize) -> io::Result<()> {
        let Inner::Chunks(ra) = &mut self.inner else {
            unreachable!("only for a read-ahead source")
        };
        let Some(mut chunk) = ra.next_chunk()? else {
            self.eof = true;
            return Ok(());
        };
        let held = self.end - self.pos;
        let spent = if held <= LEAD {
            // Parse in the chunk itself: the few unread bytes (the start of a
            // record the chunk boundary cut) go into its free lead space.
            let start = LEAD - held;
            chunk[start..LEAD].copy_from_slice(&self.buf[self.pos..self.end]);
            let old = std::mem::replace(&mut self.buf, chunk);
            self.pos = start;
            self.end = self.buf.len();
            old
        } else {
            // A record longer than the lead space: gather it in this
            // buffer, appending while there is room, else making room.
            let data = &chunk[LEAD..];
            if self.buf.len() - self.end < data.len() {
                self.make_room(data.len(), want);
            }
            let need = self.end + data.len();
            self.buf[self.end..need].copy_from_slice(data);
            self.end = need;
            chunk
        };
        if let Inner::Chunks(ra) = &mut self.inner {
            ra.recycle(spent);
        }
        Ok(())
    }

    /// Makes at least `more` bytes of room at the end of the buffer (or some
    /// room, for `more` 0): moves the unread bytes to the front, and doubles
    /// the buffer when they fill more than half of it. Doubling then, rather
    /// than moving the same long unread stretch again and again (a record
    /// being gathered, or a scan asking a little further each time), moves
    /// each byte a bounded number of times; and the buffer stays within
    /// twice the bytes actually read, whatever length a header announces.
    /// When the caller wants more than the buffer holds, it grows to what
    /// it wants if that is between 1.25x and 2x (a 200 MB record takes a
    /// 200 MB buffer, not 256 MB); growth stays geometric either way.
    fn make_room(&mut self, more: usize, want: usize) {
        let unread = self.end - self.pos;
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end = unread;
            self.pos = 0;
        }
        let cap = self.buf.len();
        if unread > cap / 2 || cap - unread < more.max(1) {
            let step = match want > cap {
                true => want.clamp(cap + cap / 4, cap.saturating_mul(2)),
                false => cap.saturating_mul(2),
            };
            let grown = step.max(unread + more).max(DEFAULT_CAPACITY);
            self.buf.resize(grown, 0);
        }
    }

    /// Moves a positional source to `offset`, dropping what is buffered.
    /// Streams cannot seek.
    pub fn seek_to(&mut self, offset: u64) -> io::Result<()> {
        if !matches!(self.inner, Inner::Positional { .. }) {
            return Err(io::Error::new(io::ErrorKind::Unsupported, "cannot seek a stream"));
        }
        self.pos = 0;
        self.end = 0;
        self.offset = offset;
        self.eof = false;
        Ok(())
    }

    /// Marks `n` buffered bytes as used. Panics if fewer are buffered (a bug).
    #[inline]
    pub fn consume(&mut self, n: usize) {
        assert!(n <= self.end - self.pos, "consume beyond buffer");
        self.pos += n;
        self.offset += n as u64;
    }

    /// A slice of the bytes consumed just now or still buffered, by buffer
    /// position relative to the current position (`back` bytes before it).
    #[inline]
    pub fn recent(&self, back: usize, len: usize) -> &[u8] {
        let start = self.pos - back;
        &self.buf[start..start + len]
    }

    /// Skips `n` bytes; returns how many were skipped (fewer only at the end).
    /// Positional inputs (files, objects) are skipped without reading.
    pub fn skip(&mut self, n: u64) -> io::Result<u64> {
        let held = (self.end - self.pos) as u64;
        if n <= held {
            self.consume(n as usize);
            return Ok(n);
        }
        let mut left = n - held;
        self.offset += held;
        self.pos = 0;
        self.end = 0;
        match &mut self.inner {
            Inner::Positional { size, .. } => {
                // Reads are positional: skipping is only arithmetic.
                let room = size.saturating_sub(self.offset);
                let step = left.min(room);
                self.offset += step;
                left -= step;
                if left > 0 {
                    self.eof = true;
                }
            }
            Inner::Stream(_) | Inner::Chunks(_) => {
                while left > 0 {
                    let want = usize::try_from(left).unwrap_or(usize::MAX);
                    let got = self.fill(want.min(DEFAULT_CAPACITY))?;
                    if got == 0 {
                        break;
                    }
                    let step = got.min(want);
                    self.consume(step);
                    left -= step as u64;
                }
            }
        }
        Ok(n - left)
    }
}

fn read_retry(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader handing out at most `chunk` bytes per call.
    struct Trickle(Vec<u8>, usize, usize);
    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.2).min(self.0.len() - self.1);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }

    #[test]
    fn fill_grows_only_with_data() {
        let mut s = Source::from_reader(Box::new(Trickle(vec![7; 1000], 0, 13)));
        assert_eq!(s.fill(1 << 40).unwrap(), 1000);
        assert!(s.buf.len() <= DEFAULT_CAPACITY);
        s.consume(10);
        assert_eq!(s.offset(), 10);
        assert_eq!(s.skip(5000).unwrap(), 990);
    }

    #[test]
    fn read_ahead_chunks_hold_records_across_boundaries() {
        use crate::io::Compression;
        use crate::record::{encode_header, masked_crc, RecordReader};
        // Records shorter and longer than the lead space and than a chunk,
        // so boundaries fall in headers, payloads and footers.
        let sizes = [0, 10, 70_000, 5, 300_000, 1, LEAD, LEAD + 1, 1_100_000, 3, 99_999];
        let mut stream = Vec::new();
        let mut payloads = Vec::new();
        for (i, &n) in sizes.iter().cycle().take(60).enumerate() {
            let data: Vec<u8> = (0..n).map(|j| (i * 31 + j) as u8).collect();
            stream.extend_from_slice(&encode_header(n as u64));
            stream.extend_from_slice(&data);
            stream.extend_from_slice(&masked_crc(&data).to_le_bytes());
            payloads.push(data);
        }
        let ra = ReadAhead::new(Box::new(Trickle(stream, 0, 50_000)));
        let mut r = RecordReader::new(Source::from_read_ahead(ra), Compression::Gzip);
        for want in &payloads {
            let rec = r.next_record().unwrap().expect("a record");
            assert_eq!(rec.data, &want[..]);
        }
        assert!(r.next_record().unwrap().is_none());
    }

    #[test]
    fn read_ahead_errors_come_after_the_bytes_before_them() {
        use crate::io::readahead::tests::Failing;
        let mut s = Source::from_read_ahead(ReadAhead::new(Box::new(Failing(700_000))));
        assert_eq!(s.fill(700_000).unwrap(), 700_000);
        assert!(s.buffer().iter().all(|&b| b == 7));
        assert_eq!(s.fill(700_001).unwrap_err().kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn large_fill_holds_everything_contiguously() {
        let data: Vec<u8> = (0..3_000_000u32).map(|i| i as u8).collect();
        let mut s = Source::from_reader(Box::new(Trickle(data.clone(), 0, 70_000)));
        s.fill(5).unwrap();
        s.consume(5);
        assert_eq!(s.fill(2_999_995).unwrap(), 2_999_995);
        assert_eq!(s.buffer(), &data[5..]);
        assert!(s.buf.len() < 2 * data.len());
    }
}

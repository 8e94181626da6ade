//! TensorFlow's SNAPPY stream (`compression_type="SNAPPY"`): not snappy's
//! own framing format but a run of blocks, each a 4-byte big-endian length
//! followed by that many bytes of one raw snappy block. Blocks are
//! independent of records (a record may span blocks).
//!
//! Measured with TensorFlow 2.21 (`tests/oracle/snappy.py`): its writer
//! buffers writes (a record's header, payload and footer are three) in 256
//! KiB and compresses the buffer as one block when the next write does not
//! fit; a write larger than the buffer becomes a block of its own. Its
//! reader has 256 KiB buffers and refuses a longer block ("Output buffer
//! too small"): TensorFlow cannot read back a SNAPPY file it wrote with a
//! record over 256 KiB. tfr reads such blocks (up to [`MAX_BLOCK`]) and
//! writes blocks that TensorFlow's reader always takes ([`BLOCK_INPUT`]).
//!
//! [`SnappyReader`] never loses output: a damaged block's error comes after
//! every byte of the blocks before it, as [`super::inflate::Inflater`]'s do.
//! Damage is a [`super::Corrupt`] error; an error of the input itself is
//! passed on unchanged (a read failure, not damage).
//! A block length is checked against [`MAX_BLOCK`] before anything is
//! allocated, so a hostile length cannot make it hold more than that.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The buffer TensorFlow's SNAPPY reader decompresses each block into
/// (256 KiB, whatever `buffer_size` says): a longer block fails there with
/// "Output buffer ... too small".
pub const TF_READ_BUFFER: u64 = 256 << 10;

/// How much input tfr compresses into one block: 192 KiB, so that even
/// incompressible data (snappy's worst case is 32 + n + n/6 bytes) stays
/// within the 256 KiB buffers of TensorFlow's reader.
pub const BLOCK_INPUT: usize = 192 << 10;

/// The longest block accepted, compressed or decompressed: 16 MiB, 64
/// times what TensorFlow's own reader takes (256 KiB: a SNAPPY file with a
/// longer block, which its writer makes for a record over 256 KiB, cannot
/// be read back by TensorFlow). A block is held whole while it is decoded,
/// so this bounds memory: a longer announced length is refused before
/// anything is allocated, and below it memory grows only with the bytes
/// present (a block's announced size is also checked against what its
/// compressed bytes can expand to).
pub const MAX_BLOCK: usize = 16 << 20;

/// The most one compressed byte can expand to: a 3-byte copy element
/// yields at most 64 bytes.
const MAX_EXPANSION: usize = 22;

/// Reads TensorFlow's SNAPPY stream, handing out the decompressed bytes.
pub struct SnappyReader<R> {
    input: R,
    decoder: snap::raw::Decoder,
    /// The current block, compressed.
    compressed: Vec<u8>,
    /// The current block, decompressed, and how much of it was handed out.
    block: Vec<u8>,
    pos: usize,
    /// An error to return once `block` is handed out.
    pending: Option<io::Error>,
    /// Offset of the next block's length in the compressed input.
    at: u64,
    /// The largest block so far, decompressed (shared: see
    /// [`Self::largest_block`]).
    largest: Arc<AtomicU64>,
}

impl<R: Read> SnappyReader<R> {
    /// Decodes `input`, a TensorFlow SNAPPY stream.
    pub fn new(input: R) -> SnappyReader<R> {
        SnappyReader {
            input,
            decoder: snap::raw::Decoder::new(),
            compressed: Vec::new(),
            block: Vec::new(),
            pos: 0,
            pending: None,
            at: 0,
            largest: Arc::default(),
        }
    }

    /// The size of the largest block decompressed so far, readable while
    /// the reader is in use elsewhere (on a read-ahead thread): a block
    /// over [`TF_READ_BUFFER`] is one TensorFlow's reader refuses.
    pub fn largest_block(&self) -> Arc<AtomicU64> {
        self.largest.clone()
    }

    /// Decodes the next block into `block`: `Ok(false)` at a clean end
    /// (the input ends where a block length would start).
    fn next_block(&mut self) -> io::Result<bool> {
        let start = self.at;
        let mut len = [0u8; 4];
        let n = read_up_to(&mut self.input, &mut len)?;
        if n == 0 {
            return Ok(false);
        }
        if n < len.len() {
            return Err(cut_short(format!(
                "the snappy stream is cut short: {n} of the 4 bytes of a block length at byte {start}"
            )));
        }
        let len = u32::from_be_bytes(len) as usize;
        // The first block's is the first thing read: a stream that is not
        // SNAPPY at all (a forced --compression) fails here.
        let hint = if start == 0 {
            " (is the input SNAPPY at all?)"
        } else {
            ""
        };
        if len > MAX_BLOCK {
            return Err(corrupt(format!(
                "block at byte {start} of the compressed stream announces {len} bytes, more than tfr reads in one block (16 MiB; TensorFlow reads 256 KiB){hint}"
            )));
        }
        self.compressed.clear();
        // Grows only with bytes that arrive (the length is checked above).
        let got = (&mut self.input).take(len as u64).read_to_end(&mut self.compressed)?;
        if got < len {
            return Err(cut_short(format!(
                "the snappy stream is cut short: block at byte {start} announces {len} bytes, {got} follow"
            )));
        }
        self.at = start + 4 + len as u64;
        let bad = |e: snap::Error| {
            let e = e.to_string();
            let e = e.strip_prefix("snappy: ").unwrap_or(&e);
            corrupt(format!(
                "block at byte {start} of the compressed stream is corrupt: {e}"
            ))
        };
        let size = snap::raw::decompress_len(&self.compressed).map_err(bad)?;
        if size > len.saturating_mul(MAX_EXPANSION) {
            return Err(corrupt(format!(
                "block at byte {start} of the compressed stream is corrupt: it announces {size} bytes from {len} compressed"
            )));
        }
        if size > MAX_BLOCK {
            return Err(corrupt(format!(
                "block at byte {start} of the compressed stream holds {size} bytes, more than tfr reads in one block (16 MiB; TensorFlow reads 256 KiB: its writer puts a larger record in a block of its own, which its reader then refuses too)"
            )));
        }
        self.block.resize(size, 0);
        let made = self
            .decoder
            .decompress(&self.compressed, &mut self.block)
            .map_err(bad)?;
        self.block.truncate(made);
        // TensorFlow's reader refuses a block that decompresses to more than
        // its output buffer ("Output buffer ... too small"); the compressed
        // size does not matter to it (measured: a block of 512 KiB that
        // decompresses to 256 KiB is read, with any buffer_size).
        self.largest.fetch_max(made as u64, Ordering::Relaxed);
        self.pos = 0;
        Ok(true)
    }
}

impl<R: Read> Read for SnappyReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.pos < self.block.len() {
                let n = buf.len().min(self.block.len() - self.pos);
                buf[..n].copy_from_slice(&self.block[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if let Some(e) = self.pending.take() {
                return Err(e);
            }
            match self.next_block() {
                Ok(true) => {}
                Ok(false) => return Ok(0),
                Err(e) => {
                    // Nothing of a damaged block is handed out; what came
                    // before it already was.
                    self.block.clear();
                    self.pos = 0;
                    return Err(e);
                }
            }
        }
    }
}

/// Writes TensorFlow's SNAPPY stream: blocks of [`BLOCK_INPUT`] bytes.
pub struct SnappyWriter<W: Write> {
    inner: W,
    encoder: snap::raw::Encoder,
    /// Input not yet compressed (less than a block).
    input: Vec<u8>,
    /// A compressed block, its 4-byte length first.
    block: Vec<u8>,
}

impl<W: Write> SnappyWriter<W> {
    /// Compresses onto `inner`.
    pub fn new(inner: W) -> SnappyWriter<W> {
        SnappyWriter {
            inner,
            encoder: snap::raw::Encoder::new(),
            input: Vec::with_capacity(BLOCK_INPUT),
            block: Vec::new(),
        }
    }

    /// Compresses `data` (at most a block) as one block onto `inner`.
    fn write_block(&mut self, data: &[u8]) -> io::Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        self.block.resize(4 + snap::raw::max_compress_len(data.len()), 0);
        let n = self
            .encoder
            .compress(data, &mut self.block[4..])
            .map_err(|e| io::Error::other(format!("snappy: {e}")))?;
        let len = u32::try_from(n).expect("a block is at most 256 KiB compressed");
        debug_assert!(n <= 256 << 10);
        self.block[..4].copy_from_slice(&len.to_be_bytes());
        self.inner.write_all(&self.block[..4 + n])
    }

    /// Compresses what is left and returns the inner writer (not flushed).
    pub fn finish(mut self) -> io::Result<W> {
        let rest = std::mem::take(&mut self.input);
        self.write_block(&rest)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for SnappyWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.input.is_empty() && buf.len() >= BLOCK_INPUT {
            // A whole block straight from the caller's buffer.
            self.write_block(&buf[..BLOCK_INPUT])?;
            return Ok(BLOCK_INPUT);
        }
        let n = buf.len().min(BLOCK_INPUT - self.input.len());
        self.input.extend_from_slice(&buf[..n]);
        if self.input.len() == BLOCK_INPUT {
            let full = std::mem::take(&mut self.input);
            let written = self.write_block(&full);
            self.input = full;
            self.input.clear();
            written?;
        }
        Ok(n)
    }

    /// Compresses what is buffered as a (short) block and flushes, as
    /// TensorFlow's writer does on `flush()`.
    fn flush(&mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.input);
        let written = self.write_block(&rest);
        self.input = rest;
        self.input.clear();
        written?;
        self.inner.flush()
    }
}

/// The first block of `head` decompressed, when `head` starts like
/// TensorFlow's SNAPPY stream: a plausible block length, then a raw snappy
/// block that decodes. Needs the whole first block in `head` ([`wanted`]
/// says how many bytes that takes).
pub fn first_block(head: &[u8]) -> Option<Vec<u8>> {
    let len = u32::from_be_bytes(head.get(..4)?.try_into().ok()?) as usize;
    if len == 0 || len > MAX_BLOCK {
        return None;
    }
    let block = head.get(4..4 + len)?;
    let size = snap::raw::decompress_len(block).ok()?;
    if size == 0 || size > MAX_BLOCK || size > len.saturating_mul(MAX_EXPANSION) {
        return None;
    }
    snap::raw::Decoder::new().decompress_vec(block).ok()
}

/// Whether `head` starts like TensorFlow's SNAPPY stream even though its
/// first block does not decode (damaged or cut short): a plausible block
/// length, a decompressed size its bytes can make (at least a record
/// header's 12; perhaps more than tfr reads in a block, which the reader
/// then says), then a literal, as every stream's first element is.
pub fn looks_like_start(head: &[u8]) -> bool {
    let Some(len) = head
        .get(..4)
        .map(|b| u32::from_be_bytes(b.try_into().expect("4 bytes")) as usize)
    else {
        return false;
    };
    let mut w = &head[4..];
    let mut size = 0usize;
    for i in 0..5 {
        let Some((&b, rest)) = w.split_first() else {
            return false;
        };
        w = rest;
        size |= usize::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            return (5..=MAX_BLOCK).contains(&len)
                && size >= 12
                && size <= len.saturating_mul(MAX_EXPANSION)
                && w.first().is_some_and(|tag| tag & 3 == 0);
        }
    }
    false
}

/// How many bytes [`first_block`] needs to see: the 4-byte length and the
/// block it announces (or 4 while the length is not known), `None` when the
/// length is implausible.
pub fn wanted(head: &[u8]) -> Option<usize> {
    match head.get(..4) {
        None => Some(4),
        Some(b) => {
            let len = u32::from_be_bytes(b.try_into().expect("4 bytes")) as usize;
            (len > 0 && len <= MAX_BLOCK).then_some(4 + len)
        }
    }
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The stream ends inside a block length or a block (damage, not a read failure).
fn cut_short(msg: String) -> io::Error {
    super::Corrupt::cut_short(msg)
}

/// A block that does not decode (damage, not a read failure).
fn corrupt(msg: String) -> io::Error {
    super::Corrupt::data(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compress(data: &[u8]) -> Vec<u8> {
        let mut w = SnappyWriter::new(Vec::new());
        w.write_all(data).unwrap();
        w.finish().unwrap()
    }

    fn decompress(data: &[u8]) -> (Vec<u8>, Option<io::Error>) {
        let mut out = Vec::new();
        let mut r = SnappyReader::new(data);
        let mut buf = [0u8; 1000];
        loop {
            match r.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    fn sample(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 % 251) as u8 ^ (i >> 9) as u8).collect()
    }

    #[test]
    fn round_trips_in_blocks() {
        for n in [
            0,
            1,
            1000,
            BLOCK_INPUT - 1,
            BLOCK_INPUT,
            BLOCK_INPUT + 1,
            3 * BLOCK_INPUT + 17,
        ] {
            let data = sample(n);
            let packed = compress(&data);
            let (out, err) = decompress(&packed);
            assert!(err.is_none(), "{n}: {err:?}");
            assert_eq!(out, data, "{n}");
            // One block per 256 KiB of input.
            let mut blocks = 0;
            let mut at = 0;
            while at < packed.len() {
                at += 4 + u32::from_be_bytes(packed[at..at + 4].try_into().unwrap()) as usize;
                blocks += 1;
            }
            assert_eq!(at, packed.len());
            assert_eq!(blocks, n.div_ceil(BLOCK_INPUT), "{n}");
        }
    }

    #[test]
    fn damage_comes_after_the_blocks_before_it() {
        let data = sample(2 * BLOCK_INPUT + 5);
        let packed = compress(&data);
        let first = 4 + u32::from_be_bytes(packed[..4].try_into().unwrap()) as usize;
        // Cut inside the second block.
        let (out, err) = decompress(&packed[..first + 10]);
        assert_eq!(out, &data[..BLOCK_INPUT]);
        let err = err.unwrap();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert!(err.to_string().contains("cut short"), "{err}");
        // Cut inside the length.
        let (out, err) = decompress(&packed[..first + 2]);
        assert_eq!(out, &data[..BLOCK_INPUT]);
        assert!(err.unwrap().to_string().contains("2 of the 4 bytes"));
        // A corrupt block.
        let mut bad = packed.clone();
        bad[first + 4] ^= 0xff;
        bad[first + 5] ^= 0xff;
        let (out, err) = decompress(&bad);
        assert_eq!(out, &data[..BLOCK_INPUT]);
        assert_eq!(err.unwrap().kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn a_huge_length_is_refused_before_allocating() {
        let mut bogus = u32::MAX.to_be_bytes().to_vec();
        bogus.extend_from_slice(&[0; 100]);
        let (out, err) = decompress(&bogus);
        assert!(out.is_empty());
        let err = err.unwrap();
        assert!(err.to_string().contains("more than tfr reads in one block"), "{err}");
    }

    #[test]
    fn first_block_sniffing() {
        let data = sample(5000);
        let packed = compress(&data);
        assert_eq!(wanted(&packed[..2]), Some(4));
        let want = wanted(&packed).unwrap();
        assert_eq!(want, packed.len());
        assert_eq!(first_block(&packed[..want]).unwrap(), data);
        assert!(first_block(&packed[..want - 1]).is_none());
        assert_eq!(wanted(b"\xff\xff\xff\xffxx"), None);
        assert!(first_block(b"hello world, not snappy").is_none());
        // A damaged or cut first block still looks like a SNAPPY start.
        assert!(looks_like_start(&packed[..20]));
        assert!(!looks_like_start(b"hello world, not snappy"));
        assert!(!looks_like_start(&[0, 0, 0, 0, 20, 0]));
    }
}

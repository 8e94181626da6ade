//! Gzip and zlib inputs read at any decompressed offset: the first walk
//! inflates the whole stream (gzip members and zlib streams back to back
//! read as one, each trailer checked) and keeps a checkpoint every so many
//! decompressed bytes: the compressed offset, the decompressed offset and
//! a copy of miniz_oxide's raw-deflate state there. A read inflates from
//! the checkpoint at or before its offset; the last inflated span and the
//! inflater after it are kept, so that records read in order are inflated
//! once.

use crate::io::at::At;
use crate::io::Corrupt;
use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
use std::io::{self, Read};
use std::sync::{Arc, Mutex, PoisonError};

/// The wrapper around the deflate data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// gzip (RFC 1952), members back to back.
    Gzip,
    /// zlib (RFC 1950), streams back to back.
    Zlib,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Zlib => "zlib",
        }
    }
}

/// A place inflating can start from.
#[derive(Clone)]
pub(crate) struct Checkpoint {
    /// Compressed bytes consumed.
    input: u64,
    /// Decompressed bytes produced.
    pub(crate) output: u64,
    /// The inflater there (`None`: at a member's header).
    state: Option<Box<InflateState>>,
}

impl Checkpoint {
    /// The stream's start.
    pub(crate) fn start() -> Checkpoint {
        Checkpoint {
            input: 0,
            output: 0,
            state: None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Header,
    Deflate,
    Trailer,
}

/// The running check of a member, while walking from its start.
enum Sums {
    Gzip(crc32fast::Hasher, u32),
    Zlib(u32, u32),
}

/// Checkpoints taken as a walk goes.
struct Marks {
    every: u64,
    next: u64,
    list: Arc<Mutex<Vec<Checkpoint>>>,
}

/// A gzip or zlib stream inflated from a checkpoint on, read by position.
pub(crate) struct Inflating {
    at: At,
    size: u64,
    format: Format,
    buf: Vec<u8>,
    /// The compressed offset of `buf[0]`.
    buf_start: u64,
    used: usize,
    cap: usize,
    state: Box<InflateState>,
    phase: Phase,
    out_pos: u64,
    members: u64,
    sums: Option<Sums>,
    marks: Option<Marks>,
}

impl Inflating {
    /// Inflates `at` (of `size` compressed bytes) from `from`, reading
    /// `cap` compressed bytes at a time.
    pub(crate) fn new(at: At, size: u64, format: Format, from: &Checkpoint, cap: usize) -> Inflating {
        let (state, phase) = match &from.state {
            Some(s) => (s.clone(), Phase::Deflate),
            None => (InflateState::new_boxed(DataFormat::Raw), Phase::Header),
        };
        Inflating {
            at,
            size,
            format,
            buf: Vec::new(),
            buf_start: from.input,
            used: 0,
            cap,
            state,
            phase,
            out_pos: from.output,
            members: u64::from(from.state.is_some()),
            sums: None,
            marks: None,
        }
    }

    /// A walk from the start: trailers checked, a checkpoint every `every`
    /// decompressed bytes put in `list` (the start's first).
    pub(crate) fn walk(at: At, size: u64, format: Format, every: u64, list: Arc<Mutex<Vec<Checkpoint>>>) -> Inflating {
        let mut me = Inflating::new(at, size, format, &Checkpoint::start(), 256 << 10);
        list.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Checkpoint::start());
        me.marks = Some(Marks {
            every: every.max(1),
            next: every.max(1),
            list,
        });
        me
    }

    /// Decompressed bytes produced so far.
    pub(crate) fn out_pos(&self) -> u64 {
        self.out_pos
    }

    fn pos(&self) -> u64 {
        self.buf_start + self.used as u64
    }

    /// Compressed bytes to read on; false at the input's end.
    fn refill(&mut self) -> io::Result<bool> {
        if self.used < self.buf.len() {
            return Ok(true);
        }
        self.buf_start += self.buf.len() as u64;
        self.used = 0;
        let left = self.size.saturating_sub(self.buf_start);
        let want = usize::try_from(left).unwrap_or(usize::MAX).min(self.cap);
        self.buf.resize(want, 0);
        let mut got = 0;
        while got < want {
            match self.at.read_at(&mut self.buf[got..], self.buf_start + got as u64)? {
                0 => break,
                n => got += n,
            }
        }
        self.buf.truncate(got);
        Ok(got > 0)
    }

    fn byte(&mut self) -> io::Result<Option<u8>> {
        if !self.refill()? {
            return Ok(None);
        }
        self.used += 1;
        Ok(Some(self.buf[self.used - 1]))
    }

    /// The next `N` bytes; cut short when the input ends first.
    fn bytes<const N: usize>(&mut self, what: &str) -> io::Result<[u8; N]> {
        let mut out = [0u8; N];
        for b in &mut out {
            *b = self.byte()?.ok_or_else(|| self.cut_short(what))?;
        }
        Ok(out)
    }

    fn cut_short(&self, what: &str) -> io::Error {
        Corrupt::cut_short(format!(
            "the {} stream ends inside a {what} (compressed byte {})",
            self.format.name(),
            self.pos()
        ))
    }

    fn bad(&self, what: impl std::fmt::Display) -> io::Error {
        Corrupt::data(format!("{what} at compressed byte {}", self.pos()))
    }

    /// Reads a member's header; false at a clean end.
    fn header(&mut self) -> io::Result<bool> {
        let at = self.pos();
        let Some(first) = self.byte()? else {
            return Ok(false);
        };
        let ok = match self.format {
            Format::Gzip => first == 0x1f && self.gzip_header()?,
            Format::Zlib => self.zlib_header(first)?,
        };
        if !ok {
            let what = match self.members {
                0 => format!("no {} header", self.format.name()),
                _ => format!(
                    "{} bytes after the end of the {} stream that are not another member",
                    self.size.saturating_sub(at),
                    self.format.name()
                ),
            };
            return Err(Corrupt::data(format!("{what} (compressed byte {at})")));
        }
        self.members += 1;
        self.state.reset(DataFormat::Raw);
        self.sums = match (self.format, self.marks.is_some()) {
            (_, false) => None,
            (Format::Gzip, true) => Some(Sums::Gzip(crc32fast::Hasher::new(), 0)),
            (Format::Zlib, true) => Some(Sums::Zlib(1, 0)),
        };
        Ok(true)
    }

    /// The rest of a gzip header after its first byte; false when it is not one.
    fn gzip_header(&mut self) -> io::Result<bool> {
        let [id2, cm, flags, _, _, _, _, _, _] = self.bytes::<9>("gzip header")?;
        if id2 != 0x8b || cm != 8 || flags & 0xe0 != 0 {
            return Ok(false);
        }
        if flags & 4 != 0 {
            let len = u16::from_le_bytes(self.bytes::<2>("gzip header")?);
            for _ in 0..len {
                self.bytes::<1>("gzip header")?;
            }
        }
        for flag in [8u8, 16] {
            if flags & flag != 0 {
                while self.bytes::<1>("gzip header")?[0] != 0 {}
            }
        }
        if flags & 2 != 0 {
            self.bytes::<2>("gzip header")?;
        }
        Ok(true)
    }

    /// The second byte of a zlib header; false when it is not one.
    fn zlib_header(&mut self, cmf: u8) -> io::Result<bool> {
        let [flg] = self.bytes::<1>("zlib header")?;
        let fits = cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0;
        if fits && flg & 0x20 != 0 {
            return Err(self.bad("a zlib stream with a preset dictionary"));
        }
        Ok(fits)
    }

    /// A member's trailer, checked against what was inflated when the
    /// member was inflated from its start.
    fn trailer(&mut self) -> io::Result<()> {
        match self.format {
            Format::Gzip => {
                let t = self.bytes::<8>("gzip trailer")?;
                let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                let isize = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
                if let Some(Sums::Gzip(h, n)) = self.sums.take() {
                    if h.finalize() != crc || n != isize {
                        return Err(self.bad("a gzip member whose CRC-32 or length does not match its data"));
                    }
                }
            }
            Format::Zlib => {
                let t = self.bytes::<4>("zlib trailer")?;
                if let Some(Sums::Zlib(a, b)) = self.sums.take() {
                    if (b << 16 | a) != u32::from_be_bytes(t) {
                        return Err(self.bad("a zlib stream whose Adler-32 does not match its data"));
                    }
                }
            }
        }
        Ok(())
    }

    /// One call of the inflater into `out`; the bytes written.
    fn inflate_some(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let more = self.refill()?;
        // A walk stops where its next checkpoint is due.
        let room = match &self.marks {
            Some(m) => usize::try_from(m.next.saturating_sub(self.out_pos))
                .unwrap_or(usize::MAX)
                .max(1),
            None => usize::MAX,
        };
        let len = room.min(out.len());
        let out = &mut out[..len];
        let r = inflate(&mut self.state, &self.buf[self.used..], out, MZFlush::None);
        self.used += r.bytes_consumed;
        let written = r.bytes_written;
        self.account(&out[..written]);
        match r.status {
            Ok(MZStatus::StreamEnd) => self.phase = Phase::Trailer,
            Ok(_) if written > 0 || r.bytes_consumed > 0 => {}
            Ok(_) | Err(MZError::Buf) if !more => return Err(self.cut_short("deflate block")),
            Ok(_) | Err(_) => return Err(self.bad("invalid deflate data")),
        }
        if self.phase == Phase::Deflate {
            self.mark();
        }
        Ok(written)
    }

    fn account(&mut self, data: &[u8]) {
        self.out_pos += data.len() as u64;
        match &mut self.sums {
            Some(Sums::Gzip(h, n)) => {
                h.update(data);
                *n = n.wrapping_add(data.len() as u32);
            }
            Some(Sums::Zlib(a, b)) => {
                for chunk in data.chunks(5552) {
                    for &x in chunk {
                        *a += u32::from(x);
                        *b += *a;
                    }
                    *a %= 65521;
                    *b %= 65521;
                }
            }
            None => {}
        }
    }

    /// A checkpoint here, when one is due.
    fn mark(&mut self) {
        let Some(marks) = &mut self.marks else {
            return;
        };
        if self.out_pos < marks.next {
            return;
        }
        marks.next = self.out_pos.saturating_add(marks.every);
        let point = Checkpoint {
            input: self.buf_start + self.used as u64,
            output: self.out_pos,
            state: Some(self.state.clone()),
        };
        marks.list.lock().unwrap_or_else(PoisonError::into_inner).push(point);
    }
}

impl Read for Inflating {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            match self.phase {
                Phase::Header => {
                    if !self.header()? {
                        return Ok(0);
                    }
                    self.phase = Phase::Deflate;
                }
                Phase::Trailer => {
                    self.trailer()?;
                    self.phase = Phase::Header;
                }
                Phase::Deflate => match self.inflate_some(out)? {
                    0 => continue,
                    n => return Ok(n),
                },
            }
        }
    }
}

/// How far ahead of the cached span a read still inflates on from it
/// rather than from a checkpoint.
const CHUNK: usize = 64 << 10;

/// A gzip or zlib input's checkpoints and its last inflated span.
pub(crate) struct Deflated {
    pub(crate) format: Format,
    pub(crate) every: u64,
    checkpoints: Vec<Checkpoint>,
    cache: Mutex<Option<Span>>,
}

/// Inflated bytes `start..start + bytes.len()` and the inflater after them.
struct Span {
    inf: Inflating,
    start: u64,
    bytes: Vec<u8>,
}

impl Span {
    fn end(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }

    /// Drops the bytes before `offset`.
    fn drop_before(&mut self, offset: u64) {
        let n = offset.saturating_sub(self.start).min(self.bytes.len() as u64);
        self.bytes.drain(..n as usize);
        self.start += n;
        if self.bytes.is_empty() {
            self.start = self.inf.out_pos();
        }
    }
}

impl Deflated {
    pub(crate) fn new(format: Format, every: u64, checkpoints: Vec<Checkpoint>) -> Deflated {
        Deflated {
            format,
            every,
            checkpoints,
            cache: Mutex::new(None),
        }
    }

    /// The decompressed bytes `offset..offset + len` appended to `out`;
    /// false when the stream ends first.
    pub(crate) fn read(&self, at: &At, size: u64, offset: u64, len: usize, out: &mut Vec<u8>) -> io::Result<bool> {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let near = |s: &Span| s.start <= offset && offset <= s.end().saturating_add(self.every.min(4 << 20));
        if !cache.as_ref().is_some_and(near) {
            let k = self.checkpoints.partition_point(|c| c.output <= offset).max(1) - 1;
            let from = self.checkpoints.get(k).cloned().unwrap_or_else(Checkpoint::start);
            let inf = Inflating::new(at.clone(), size, self.format, &from, CHUNK);
            *cache = Some(Span {
                inf,
                start: from.output,
                bytes: Vec::new(),
            });
        }
        let Some(span) = cache.as_mut() else {
            return Ok(false);
        };
        let result = fill(span, offset, len);
        match result {
            Ok(true) => {
                let from = (offset - span.start) as usize;
                out.extend_from_slice(&span.bytes[from..from + len]);
                Ok(true)
            }
            other => {
                *cache = None;
                other
            }
        }
    }

    /// The checkpoints (for tests and figures).
    #[cfg(test)]
    pub(crate) fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }
}

/// Inflates on until `span` holds `offset..offset + len`; false when the
/// stream ends first.
fn fill(span: &mut Span, offset: u64, len: usize) -> io::Result<bool> {
    span.drop_before(offset);
    let want = offset.saturating_add(len as u64);
    while span.end() < want {
        let old = span.bytes.len();
        span.bytes.resize(old + CHUNK.max(len.min(16 << 20)), 0);
        let n = span.inf.read(&mut span.bytes[old..]);
        span.bytes.truncate(old + *n.as_ref().unwrap_or(&0));
        match n? {
            0 => return Ok(false),
            _ => span.drop_before(offset),
        }
    }
    Ok(true)
}

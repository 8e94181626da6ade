//! The buffer renderers write to ([`Out`]): a `Vec<u8>` that, given a
//! sink, hands its contents on as it grows, so printing a record of
//! hundreds of megabytes holds a megabyte of rendering, not several times
//! the record.

use super::json::render::Tracking;
use super::short::Shorten;
use std::io;
use std::ops::{Deref, DerefMut};

/// Bytes gathered before they go to the sink.
const SPILL_AT: usize = 1 << 20;
/// A long value is escaped in pieces of this many input bytes.
const PIECE: usize = 256 * 1024;

/// Where a long value may be cut between two pieces.
#[derive(Clone, Copy)]
pub(crate) enum Cut {
    /// Anywhere (escapes of single bytes).
    Byte,
    /// At a multiple of 3 bytes (base64 without padding in between).
    Base64,
    /// At a UTF-8 character boundary.
    Char,
}

/// Which feature names are printed (`--features` / `--exclude`).
pub type Keep<'k> = &'k (dyn Fn(&str) -> bool + Sync);

/// Which features the natural JSON form writes as a bare value when they
/// hold exactly one: called with the name and whether it is a feature
/// list (whose steps are then bare values). `to-wds` passes the features
/// that hold one value in every record.
pub type Scalars<'k> = &'k (dyn Fn(&str, bool) -> bool + Sync);

/// Writes a bytes value its own way in the natural JSON form (`--decode`:
/// a serialized tensor as nested arrays): appends the JSON value and
/// returns true, or returns false to leave it to the usual form.
pub type BytesHook<'k> = &'k (dyn Fn(&[u8], &mut Vec<u8>) -> bool + Sync);

/// Names of int64 values, by feature: a TFDS ClassLabel's class names
/// (shown as a `# name` comment in the text format).
pub trait ClassNames: Sync {
    /// The name of `value` in feature `feature`, if it has one.
    fn name(&self, feature: &str, value: i64) -> Option<&str>;
}

impl ClassNames for std::collections::HashMap<String, Vec<String>> {
    fn name(&self, feature: &str, value: i64) -> Option<&str> {
        let names = self.get(feature)?;
        names.get(usize::try_from(value).ok()?).map(String::as_str)
    }
}

/// How a record is shown besides its format: shortened values, a subset
/// of the features.
#[derive(Clone, Copy, Default)]
pub struct Look<'k> {
    /// Long values shortened (`--short`).
    pub short: Option<Shorten>,
    /// Only the features it keeps (`--features`/`--exclude`).
    pub keep: Option<Keep<'k>>,
    /// One-value features written as bare values (natural JSON only).
    pub scalars: Option<Scalars<'k>>,
    /// Class names of int64 values (text format only).
    pub names: Option<&'k dyn ClassNames>,
    /// Bytes values written another way (natural JSON only).
    pub bytes: Option<BytesHook<'k>>,
}

/// Where an [`Out`] hands its bytes.
pub type Sink<'a> = &'a mut dyn FnMut(&[u8]) -> io::Result<()>;

/// A rendering buffer, optionally spilling into a sink.
///
/// It dereferences to the `Vec<u8>` it writes to; renderers call
/// [`Out::spill_point`] between values. Without a sink it is a plain
/// buffer and the caller writes it afterwards; with one, everything but
/// the last (< 1 MiB) part has gone to the sink when rendering ends, and a
/// sink error is kept for [`Out::finish`] (later output is dropped).
pub struct Out<'a> {
    buf: &'a mut Vec<u8>,
    sink: Option<Sink<'a>>,
    error: Option<io::Error>,
    short: Option<Shorten>,
    keep: Option<Keep<'a>>,
    scalars: Option<Scalars<'a>>,
    names: Option<&'a dyn ClassNames>,
    bytes: Option<BytesHook<'a>>,
    /// The first kinds of feature names across records, for the natural
    /// JSON form (see `json::render::kinds`).
    tracking: Option<&'a mut Tracking>,
    /// [`SPILL_AT`] and [`PIECE`] (smaller in fuzzing, to reach the cuts).
    spill_at: usize,
    piece: usize,
}

impl<'a> Out<'a> {
    /// A plain buffer.
    pub fn new(buf: &'a mut Vec<u8>) -> Out<'a> {
        Out {
            buf,
            sink: None,
            error: None,
            short: None,
            keep: None,
            scalars: None,
            names: None,
            bytes: None,
            tracking: None,
            spill_at: SPILL_AT,
            piece: PIECE,
        }
    }

    /// This buffer, tracking the first kinds of feature names with `t`.
    pub fn tracking_kinds(mut self, t: &'a mut Tracking) -> Out<'a> {
        self.tracking = Some(t);
        self
    }

    /// The tracking of first kinds, if any.
    #[inline]
    pub(crate) fn tracking(&mut self) -> Option<&mut Tracking> {
        self.tracking.as_deref_mut()
    }

    /// A buffer that hands each megabyte to `sink` as it fills.
    pub fn spilling(buf: &'a mut Vec<u8>, sink: Sink<'a>) -> Out<'a> {
        Self::spilling_every(buf, sink, SPILL_AT, PIECE)
    }

    /// [`Self::spilling`] at other sizes: spill past `spill_at` bytes, cut
    /// values longer than `piece` (at least 4, the longest UTF-8 character).
    pub fn spilling_every(buf: &'a mut Vec<u8>, sink: Sink<'a>, spill_at: usize, piece: usize) -> Out<'a> {
        Out {
            buf,
            sink: Some(sink),
            error: None,
            short: None,
            keep: None,
            scalars: None,
            names: None,
            bytes: None,
            tracking: None,
            spill_at,
            piece: piece.max(4),
        }
    }

    /// Runs `f` on this buffer and sink seen with `look`.
    pub(crate) fn with_look<T>(&mut self, look: &Look<'_>, f: impl FnOnce(&mut Out<'_>) -> T) -> T {
        let mut inner = Out {
            buf: &mut *self.buf,
            sink: match &mut self.sink {
                Some(s) => Some(&mut **s),
                None => None,
            },
            error: None,
            short: look.short,
            keep: look.keep,
            scalars: look.scalars,
            names: look.names,
            bytes: look.bytes,
            // Shortened values do not read back: nothing to track.
            tracking: match look.short {
                None => self.tracking.as_deref_mut(),
                Some(_) => None,
            },
            spill_at: self.spill_at,
            piece: self.piece,
        };
        let result = f(&mut inner);
        if let Some(e) = inner.error.take() {
            self.error.get_or_insert(e);
        }
        result
    }

    /// Whether the output is exactly the record (no sink, nothing
    /// shortened or left out): fast paths that write a whole record at
    /// once may be taken.
    pub(crate) fn is_plain(&self) -> bool {
        self.sink.is_none()
            && self.short.is_none()
            && self.keep.is_none()
            && self.scalars.is_none()
            && self.names.is_none()
            && self.bytes.is_none()
    }

    /// The limits of shortened output, if values are shortened.
    pub(crate) fn short(&self) -> Option<Shorten> {
        self.short
    }

    /// Whether the feature (`list`: feature list) named `key` is written as
    /// a bare value when it holds one (never in shortened output).
    #[inline]
    pub(crate) fn scalar(&self, key: &str, list: bool) -> bool {
        self.short.is_none() && self.scalars.is_some_and(|s| s(key, list))
    }

    /// The hook writing bytes values another way, if any.
    #[inline]
    pub(crate) fn bytes_hook(&self) -> Option<BytesHook<'a>> {
        self.bytes
    }

    /// The class names of int64 values, if any are known.
    #[inline]
    pub(crate) fn names(&self) -> Option<&'a dyn ClassNames> {
        self.names
    }

    /// Whether the feature named `key` is printed.
    #[inline]
    pub(crate) fn keeps(&self, key: &str) -> bool {
        self.keep.is_none_or(|keep| keep(key))
    }

    /// Hands the buffer to the sink if it has grown past the threshold.
    #[inline]
    pub(crate) fn spill_point(&mut self) {
        if self.buf.len() >= self.spill_at {
            self.spill();
        }
    }

    #[cold]
    fn spill(&mut self) {
        let Some(sink) = self.sink.as_mut() else { return };
        if self.error.is_none() {
            if let Err(e) = sink(self.buf) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }

    /// Writes a long value in pieces cut as `cut` allows, with a spill
    /// point after each (a short value, or no sink: in one go).
    pub(crate) fn pieces(&mut self, data: &[u8], cut: Cut, mut write: impl FnMut(&[u8], &mut Vec<u8>)) {
        let piece = self.piece;
        if data.len() <= piece || self.sink.is_none() {
            write(data, self.buf);
            return;
        }
        let mut rest = data;
        while !rest.is_empty() {
            let mut at = rest.len().min(piece);
            if at < rest.len() {
                match cut {
                    Cut::Byte => {}
                    Cut::Base64 => at -= at % 3,
                    Cut::Char => {
                        // Back off to a byte that starts a character (at
                        // most 3 continuation bytes in valid UTF-8).
                        while at > piece - 4 && rest[at] & 0xc0 == 0x80 {
                            at -= 1;
                        }
                    }
                }
            }
            let (piece, tail) = rest.split_at(at);
            write(piece, self.buf);
            self.spill_point();
            rest = tail;
        }
    }

    /// The sink's first error, if any.
    pub fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

impl Deref for Out<'_> {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        self.buf
    }
}

impl DerefMut for Out<'_> {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spilled(data: &[u8], cut: Cut) -> (Vec<Vec<u8>>, Vec<u8>) {
        let mut pieces = Vec::new();
        let mut sink = |b: &[u8]| {
            pieces.push(b.to_vec());
            Ok(())
        };
        let mut buf = Vec::new();
        let mut out = Out::spilling(&mut buf, &mut sink);
        for _ in 0..3 {
            out.pieces(data, cut, |p, o| o.extend_from_slice(p));
        }
        out.finish().unwrap();
        (pieces, buf)
    }

    #[test]
    fn long_values_go_out_in_megabytes_and_nothing_is_lost() {
        let data: Vec<u8> = "é€😀a".bytes().cycle().take(PIECE * 5 + 7).collect();
        for cut in [Cut::Byte, Cut::Base64, Cut::Char] {
            let (pieces, rest) = spilled(&data, cut);
            assert!(pieces.len() >= 3 && pieces.iter().all(|p| p.len() >= SPILL_AT && p.len() < SPILL_AT + PIECE));
            let all: Vec<u8> = pieces.concat().into_iter().chain(rest).collect();
            assert_eq!(all, data.repeat(3));
        }
    }

    #[test]
    fn cuts_respect_base64_and_characters() {
        let data = "é€😀a".repeat(PIECE / 4).into_bytes();
        let mut seen = Vec::new();
        let mut sink = |_: &[u8]| Ok(());
        let mut buf = Vec::new();
        let mut out = Out::spilling(&mut buf, &mut sink);
        out.pieces(&data, Cut::Char, |p, _| seen.push(std::str::from_utf8(p).is_ok()));
        assert!(seen.len() >= 3 && seen.iter().all(|&ok| ok), "{seen:?}");
        let mut lens = Vec::new();
        out.pieces(&data, Cut::Base64, |p, _| lens.push(p.len()));
        assert!(lens[..lens.len() - 1].iter().all(|l| l % 3 == 0));
    }

    #[test]
    fn a_sink_error_is_kept_and_later_output_dropped() {
        let mut calls = 0;
        let mut sink = |_: &[u8]| {
            calls += 1;
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        };
        let mut buf = Vec::new();
        let mut out = Out::spilling(&mut buf, &mut sink);
        for _ in 0..4 {
            out.extend_from_slice(&[0; SPILL_AT]);
            out.spill_point();
        }
        assert!(out.is_empty());
        assert_eq!(out.finish().unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(calls, 1);
    }
}

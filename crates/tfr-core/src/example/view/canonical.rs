//! The decoder's fast path: payloads encoded the way every protobuf
//! encoder writes these messages (upb, C++, prost, tfr itself) indexed in
//! one tight walk over the bytes, without the general wire reader.
//!
//! Canonical means: each message field once and in field-number order
//! (an Example's `features`; a SequenceExample's `context` then
//! `feature_lists`), map entries of a key then a value, a Feature of
//! exactly one list (or none), numbers packed in one field, tags and
//! lengths in their shortest encoding. Anything else (and anything
//! invalid) makes [`Decoder::canonical_example`] or
//! [`Decoder::canonical_sequence`] give up, and the general path indexes
//! the payload (or reports its error): the index built here is the one
//! the general path would build, so the views cannot tell which ran.

use super::super::{EntryRec, FeatureRec, Kind, ListEntryRec, ListRec};
use super::Decoder;

/// A cursor over part of a payload; positions are payload offsets.
struct Cursor<'a> {
    payload: &'a [u8],
    pos: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    fn new(payload: &'a [u8], (pos, end): (usize, usize)) -> Self {
        Cursor { payload, pos, end }
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.pos >= self.end
    }

    #[inline(always)]
    fn byte(&mut self) -> Option<u8> {
        if self.pos >= self.end {
            return None;
        }
        let b = *self.payload.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    /// A length prefix (at most 5 bytes, as the general reader allows)
    /// and the span of the bytes it covers, which must lie inside.
    #[inline(always)]
    fn len_span(&mut self) -> Option<(usize, usize)> {
        let mut len = 0usize;
        for i in 0..5 {
            let b = self.byte()?;
            len |= usize::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                let start = self.pos;
                let end = start.checked_add(len).filter(|&e| e <= self.end)?;
                self.pos = end;
                return Some((start, end));
            }
        }
        None
    }

    /// The span of length-delimited field `tag` (a one-byte tag), which
    /// must be next.
    #[inline(always)]
    fn field(&mut self, tag: u8) -> Option<(usize, usize)> {
        if self.byte()? != tag {
            return None;
        }
        self.len_span()
    }

    /// The span of field `tag` if it is next (`Some(None)` if another
    /// field or the end is; `None` if it is there but malformed).
    #[inline(always)]
    fn optional(&mut self, tag: u8) -> Option<Option<(usize, usize)>> {
        match self.payload.get(self.pos) {
            Some(&b) if b == tag && !self.done() => self.field(tag).map(Some),
            _ => Some(None),
        }
    }
}

/// Whether `packed` is a run of complete varints of at most 10 bytes each
/// (what the general reader accepts: bits past 64 dropped).
#[inline(always)]
fn varints_ok(packed: &[u8]) -> bool {
    let mut run = 0u32;
    for &b in packed {
        if b >= 0x80 {
            run += 1;
            if run >= 10 {
                return false;
            }
        } else {
            run = 0;
        }
    }
    run == 0
}

/// Whether `body` is a BytesList of `value` fields only (`0a LEN bytes`).
#[inline(always)]
fn bytes_items_ok(payload: &[u8], body: (usize, usize)) -> bool {
    let mut c = Cursor::new(payload, body);
    while !c.done() {
        if c.field(0x0a).is_none() {
            return false;
        }
    }
    true
}

impl Decoder {
    /// Indexes `payload` if it is a canonically encoded Example; returns
    /// whether it has `features`, or `None` (index partly filled) when it
    /// is not canonical.
    #[inline]
    pub(super) fn canonical_example(&mut self, payload: &[u8]) -> Option<bool> {
        let mut top = Cursor::new(payload, (0, payload.len()));
        if top.done() {
            return Some(false);
        }
        let features = top.field(0x0a)?;
        if !top.done() {
            return None;
        }
        self.canonical_features(payload, features)?;
        Some(true)
    }

    /// Indexes `payload` if it is a canonically encoded SequenceExample;
    /// returns whether it has `context` and `feature_lists`.
    #[inline]
    pub(super) fn canonical_sequence(&mut self, payload: &[u8]) -> Option<(bool, bool)> {
        let mut top = Cursor::new(payload, (0, payload.len()));
        let context = top.optional(0x0a)?;
        let lists = top.optional(0x12)?;
        if !top.done() {
            return None;
        }
        if let Some(span) = context {
            self.canonical_features(payload, span)?;
        }
        if let Some(span) = lists {
            self.canonical_feature_lists(payload, span)?;
        }
        Some((context.is_some(), lists.is_some()))
    }

    /// The entries of a `Features` message.
    #[inline(always)]
    fn canonical_features(&mut self, payload: &[u8], span: (usize, usize)) -> Option<()> {
        let mut map = Cursor::new(payload, span);
        while !map.done() {
            let mut entry = Cursor::new(payload, map.field(0x0a)?);
            let key = canonical_key(payload, &mut entry)?;
            let value = entry.field(0x12)?;
            if !entry.done() {
                return None;
            }
            let feature = self.canonical_feature(payload, value)?;
            self.entries.push(EntryRec { key, feature });
        }
        Some(())
    }

    /// The entries of a `FeatureLists` message.
    fn canonical_feature_lists(&mut self, payload: &[u8], span: (usize, usize)) -> Option<()> {
        let mut map = Cursor::new(payload, span);
        while !map.done() {
            let mut entry = Cursor::new(payload, map.field(0x0a)?);
            let key = canonical_key(payload, &mut entry)?;
            let mut list = Cursor::new(payload, entry.field(0x12)?);
            if !entry.done() {
                return None;
            }
            let first = self.steps.len();
            while !list.done() {
                let feature = self.canonical_feature(payload, list.field(0x0a)?)?;
                self.steps.push(feature);
            }
            self.list_entries.push(ListEntryRec {
                key,
                steps: first..self.steps.len(),
            });
        }
        Some(())
    }

    /// One `Feature`: no list, or exactly one.
    #[inline(always)]
    fn canonical_feature(&mut self, payload: &[u8], span: (usize, usize)) -> Option<FeatureRec> {
        let start = self.lists.len();
        let mut f = Cursor::new(payload, span);
        if f.done() {
            return Some(FeatureRec {
                kind: Kind::None,
                lists: start..start,
            });
        }
        let tag = f.byte()?;
        let body = f.len_span()?;
        if !f.done() {
            return None;
        }
        let (kind, values) = match tag {
            0x0a => {
                if !bytes_items_ok(payload, body) {
                    return None;
                }
                (Kind::Bytes, body)
            }
            0x12 | 0x1a => {
                let mut list = Cursor::new(payload, body);
                let values = match list.done() {
                    true => body,
                    false => list.field(0x0a)?,
                };
                if !list.done() {
                    return None;
                }
                let bytes = payload.get(values.0..values.1)?;
                let ok = match tag {
                    0x12 => bytes.len() % 4 == 0,
                    _ => varints_ok(bytes),
                };
                if !ok {
                    return None;
                }
                (if tag == 0x12 { Kind::Float } else { Kind::Int64 }, values)
            }
            _ => return None,
        };
        // `packed` for a BytesList: its `value` fields only, checked above
        // (the general path never marks a BytesList packed).
        self.lists.push(ListRec {
            span: values,
            packed: true,
        });
        Some(FeatureRec {
            kind,
            lists: start..start + 1,
        })
    }
}

/// A map entry's key (field 1, first), which must be UTF-8.
#[inline(always)]
fn canonical_key(payload: &[u8], entry: &mut Cursor<'_>) -> Option<(usize, usize)> {
    let key = entry.field(0x0a)?;
    let bytes = payload.get(key.0..key.1)?;
    if !bytes.is_ascii() && std::str::from_utf8(bytes).is_err() {
        return None;
    }
    Some(key)
}

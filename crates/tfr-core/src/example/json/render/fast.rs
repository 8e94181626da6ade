//! The fast path: canonical Examples rendered straight from the wire, without a decode.

use super::*;

// ---------------------------------------------------------------------------
// The fast path: canonical Examples straight from the wire
// ---------------------------------------------------------------------------

/// A cursor over wire bytes for [`fast_example`].
pub(super) struct Wire<'a> {
    pub(super) b: &'a [u8],
}

impl<'a> Wire<'a> {
    #[inline]
    pub(super) fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.b.split_first()?;
        self.b = rest;
        Some(first)
    }

    /// A varint of at most 10 bytes whose 10th byte is 0 or 1 (exactly
    /// 64 bits, as every canonical encoder writes).
    #[inline]
    pub(super) fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for i in 0..10 {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                return (i < 9 || b <= 1).then_some(value);
            }
        }
        None
    }

    /// A length-delimited value (after its tag).
    #[inline]
    pub(super) fn len_bytes(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.varint()?).ok()?;
        let (value, rest) = self.b.split_at_checked(len)?;
        self.b = rest;
        Some(value)
    }

    /// The value of field `tag` (a length-delimited field), which must be next.
    #[inline]
    pub(super) fn field(&mut self, tag: u8) -> Option<&'a [u8]> {
        if self.byte()? != tag {
            return None;
        }
        self.len_bytes()
    }
}

/// Appends the natural JSON of an Example encoded canonically (as upb and
/// prost write it: one `features` field, entries with key then value,
/// Features with one list, numbers packed, varints of at most 64 bits).
/// Returns false, with `out` untouched, for anything else: the decoder then
/// handles (or rejects) it. The output is identical to the general path's.
pub(super) fn fast_example(payload: &[u8], out: &mut Out<'_>) -> bool {
    let start = out.len();
    let notes = out.tracking().map(|t| t.notes.len());
    let done = fast_example_inner(payload, out).is_some();
    if !done {
        out.truncate(start);
        if let (Some(t), Some(n)) = (out.tracking(), notes) {
            t.notes.truncate(n);
        }
    }
    done
}

pub(super) fn fast_example_inner(payload: &[u8], out: &mut Out<'_>) -> Option<()> {
    if payload.is_empty() {
        out.extend_from_slice(b"null");
        return Some(());
    }
    let mut top = Wire { b: payload };
    let mut features = Wire { b: top.field(0x0a)? };
    if !top.b.is_empty() {
        return None;
    }
    out.push(b'{');
    let mut first = true;
    let mut seen = Seen::new(Section::Features);
    while !features.b.is_empty() {
        let mut entry = Wire {
            b: features.field(0x0a)?,
        };
        let key = entry.field(0x0a)?;
        let feature = entry.field(0x12)?;
        if !entry.b.is_empty() {
            return None;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        if is_plain(key) {
            out.push(b'"');
            out.extend_from_slice(key);
            out.push(b'"');
        } else {
            std::str::from_utf8(key).ok()?;
            json_string(key, out);
        }
        out.push(b':');
        let kind = match feature.first() {
            None => Kind::None,
            Some(0x0a) => Kind::Bytes,
            Some(0x12) => Kind::Float,
            Some(0x1a) => Kind::Int64,
            Some(_) => return None,
        };
        seen.value(key, kind, out, |typed, out| fast_feature(feature, typed, out))?;
    }
    out.push(b'}');
    Some(())
}

/// One Feature (typed when `typed`, as [`natural_feature_whole`]).
#[inline]
pub(super) fn fast_feature(feature: &[u8], typed: bool, out: &mut Vec<u8>) -> Option<()> {
    if feature.is_empty() {
        out.extend_from_slice(b"null");
        return Some(());
    }
    let mut f = Wire { b: feature };
    let tag = f.byte()?;
    let list = f.len_bytes()?;
    if !f.b.is_empty() {
        return None;
    }
    // Floats say their own typed form; empty lists always have one.
    let close = typed && tag != 0x12 && !list.is_empty();
    if close {
        out.extend_from_slice(typed_key(if tag == 0x0a { Kind::Bytes } else { Kind::Int64 }));
    }
    match tag {
        0x0a => {
            if list.is_empty() {
                out.extend_from_slice(b"{\"bytes_list\":[]}");
                return Some(());
            }
            let mut values = Wire { b: list };
            out.push(b'[');
            let mut first = true;
            while !values.b.is_empty() {
                let v = values.field(0x0a)?;
                if !first {
                    out.push(b',');
                }
                first = false;
                natural_bytes(v, &mut Out::new(out));
            }
            out.push(b']');
        }
        0x12 => {
            if list.is_empty() {
                out.extend_from_slice(b"{\"float_list\":[]}");
                return Some(());
            }
            let mut l = Wire { b: list };
            let packed = l.field(0x0a)?;
            if !l.b.is_empty() || packed.is_empty() || packed.len() % 4 != 0 {
                return None;
            }
            let values = packed
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
            natural_floats(values, typed, &mut Out::new(out));
        }
        0x1a => {
            if list.is_empty() {
                out.extend_from_slice(b"{\"int64_list\":[]}");
                return Some(());
            }
            let mut l = Wire { b: list };
            let mut packed = Wire { b: l.field(0x0a)? };
            if !l.b.is_empty() || packed.b.is_empty() {
                return None;
            }
            let mut buf = itoa::Buffer::new();
            out.push(b'[');
            let mut first = true;
            while !packed.b.is_empty() {
                let v = packed.varint()? as i64;
                if !first {
                    out.push(b',');
                }
                first = false;
                out.extend_from_slice(buf.format(v).as_bytes());
            }
            out.push(b']');
        }
        _ => return None,
    }
    if close {
        out.push(b'}');
    }
    Some(())
}

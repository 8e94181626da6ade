//! Shortened values, for a person at a terminal (`cat`/`head` when stdout
//! is a terminal, or `--max-bytes` / `--max-values`): a long bytes value
//! is cut and described (`JPEG 640x480, 102,400 bytes`), a long list shows
//! its first values and a summary of the rest. Every cut is marked in a
//! way no reader takes for data: in text format the quoted value is
//! followed by `...` (which no text-format parser accepts) and a comment;
//! in JSON a `{"shortened": "..."}` object stands where values were left
//! out (which `from-jsonl` refuses).

use super::media::{describe, thousands};
use super::text::write_float;
use super::view::{FeatureView, Kind};

/// Limits for shortened output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shorten {
    /// A bytes value longer than this is cut (text to this many bytes,
    /// binary data to its first 8) and described.
    pub max_bytes: usize,
    /// A list (or a feature list's steps) longer than this shows this many.
    pub max_values: usize,
}

/// Bytes of a binary value shown before the cut.
const BINARY_START: usize = 8;

/// The start of a value to show, when the value is longer than `max`.
pub(crate) fn cut(v: &[u8], max: usize) -> Option<&[u8]> {
    if v.len() <= max {
        return None;
    }
    Some(match std::str::from_utf8(v) {
        Ok(_) => {
            let mut at = max;
            while at > 0 && v[at] & 0xc0 == 0x80 {
                at -= 1;
            }
            &v[..at]
        }
        Err(e) if e.valid_up_to() >= max => &v[..max],
        Err(_) => &v[..BINARY_START.min(max)],
    })
}

/// What a cut value is: `JPEG 640x480, 102,400 bytes`.
pub(crate) fn what(v: &[u8]) -> String {
    describe(v)
}

/// The summary of the values of a list after the first `shown`:
/// `504 more (512 floats, min -2.3, max 2.1)`.
pub(crate) fn more(feature: &FeatureView<'_>, shown: usize) -> String {
    let (total, noun, detail) = match feature.kind() {
        Kind::Float => {
            let (mut n, mut nan, mut lo, mut hi) = (0usize, 0usize, f32::INFINITY, f32::NEG_INFINITY);
            for v in feature.floats() {
                n += 1;
                if v.is_nan() {
                    nan += 1;
                } else {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
            let mut range = Vec::new();
            if nan > 0 {
                range.extend_from_slice(format!(", {} NaN", thousands(nan as u64)).as_bytes());
            }
            if lo <= hi {
                range.extend_from_slice(b", min ");
                write_float(lo, &mut range);
                range.extend_from_slice(b", max ");
                write_float(hi, &mut range);
            }
            (n, "float", String::from_utf8_lossy(&range).into_owned())
        }
        Kind::Int64 => {
            let (mut n, mut lo, mut hi) = (0usize, i64::MAX, i64::MIN);
            for v in feature.int64s() {
                n += 1;
                lo = lo.min(v);
                hi = hi.max(v);
            }
            (n, "int", format!(", min {lo}, max {hi}"))
        }
        Kind::Bytes | Kind::None => {
            let (mut n, mut bytes) = (0usize, 0u64);
            for v in feature.bytes() {
                n += 1;
                bytes += v.len() as u64;
            }
            (n, "value", format!(", {} bytes in all", thousands(bytes)))
        }
    };
    format!(
        "{} more ({} {noun}{}{detail})",
        thousands(total.saturating_sub(shown) as u64),
        thousands(total as u64),
        if total == 1 { "" } else { "s" }
    )
}

/// Whether a feature holds more than `n` values.
pub(crate) fn longer_than(feature: &FeatureView<'_>, n: usize) -> bool {
    match feature.kind() {
        Kind::None => false,
        Kind::Bytes => feature.bytes().nth(n).is_some(),
        Kind::Float => feature.floats().nth(n).is_some(),
        Kind::Int64 => feature.int64s().nth(n).is_some(),
    }
}

/// The summary of a feature list's steps after the first `shown`.
pub(crate) fn more_steps(total: usize, shown: usize) -> String {
    format!(
        "{} more ({} steps)",
        thousands(total.saturating_sub(shown) as u64),
        thousands(total as u64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_text_at_characters_and_binary_short() {
        assert_eq!(cut(b"short", 8), None);
        assert_eq!(cut("ééééé".as_bytes(), 5), Some("éé".as_bytes()));
        assert_eq!(
            cut(b"\xff\xd8\xff\xe0 and a long tail", 16),
            Some(&b"\xff\xd8\xff\xe0 and"[..])
        );
        assert_eq!(cut(b"a long text then \xff", 8), Some(&b"a long t"[..]));
    }
}

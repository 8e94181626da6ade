//! Where the natural form must say a value's kind because of the values
//! before it in the same record.
//!
//! `from-jsonl` takes a feature's kind from its first value and checks
//! later plain values against it (so that jq's `100.0 → 100` is caught),
//! while a typed form (`{"float_list": [...]}`) is taken as it is. Within
//! one record a name can hold values of several kinds — a key repeated in
//! a Features map, the steps of a feature list — and each is legal
//! protobuf: such a value is written typed, so the line reads back byte
//! for byte.

use crate::example::json::Section;
use crate::example::view::Kind;
use crate::example::Out;

/// Names kept inline (no allocation: most records have fewer).
const INLINE: usize = 16;

/// The names of one section of one record (an Example's or a context's
/// features, a SequenceExample's feature lists with every step, the
/// features of all the Examples of an ExampleListWithContext), each with
/// the kind of its first value that has one.
///
/// Names are told apart by a 64-bit hash: two names that collide (never
/// seen in practice) may get a value written typed where the plain form
/// would have done; either form reads back exactly. A bit filter answers
/// "new name" for most names at once; only a name whose bit is set is
/// looked for among the names kept, and the filter grows with them (16
/// bits a name), so a record with many features costs a few compares a
/// feature, not a map.
pub(crate) struct Seen {
    /// Mixed into each name's hash: the section's (a name in the context
    /// and the same name in the feature lists are two features).
    salt: u64,
    /// One bit per name hash while the names are inline.
    filter: [u64; 4],
    /// The first names: (hash, kind of the first value).
    inline: [(u64, Kind); INLINE],
    len: usize,
    /// Past [`INLINE`] names: all of them, and their larger filter.
    more: Vec<(u64, Kind)>,
    bits: Vec<u64>,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen::new(Section::Features)
    }
}

impl Seen {
    /// The names of one `section` of a record.
    pub(crate) fn new(section: Section) -> Seen {
        let salt = match section {
            Section::Features => 0,
            Section::Context => 0x5851_f42d_4c95_7f2d,
            Section::FeatureLists => 0x1405_7b7e_f767_814f,
        };
        Seen {
            salt,
            filter: [0; 4],
            inline: [(0, Kind::None); INLINE],
            len: 0,
            more: Vec::new(),
            bits: Vec::new(),
        }
    }

    /// Writes a value of `kind` named `name` with `write(typed, out)`:
    /// typed when an earlier value of the name had another kind, in this
    /// record or (when `out` tracks kinds across records, see
    /// [`super::kinds`]) in an earlier one.
    #[inline]
    pub(crate) fn value<T>(
        &mut self,
        name: &[u8],
        kind: Kind,
        out: &mut Out<'_>,
        write: impl FnOnce(bool, &mut Out<'_>) -> T,
    ) -> T {
        if kind == Kind::None {
            return write(false, out);
        }
        let h = hash(name) ^ self.salt;
        let guess = self.differs_hash(h, kind);
        let (known, spans) = match out.tracking() {
            None => return write(guess, out),
            Some(t) => (t.known(h), t.spans()),
        };
        if let Some(first) = known {
            return write(first != kind, out);
        }
        // Not settled yet: the writer settles it ([`super::kinds::KindFix`]).
        let start = out.len();
        let result = write(guess || !spans, out);
        let end = out.len();
        if let Some(t) = out.tracking() {
            t.note(h, kind, start, end);
        }
        result
    }

    /// Notes a value of `kind` named `name`; true when it is to be written
    /// typed: an earlier value of that name had another kind. A value
    /// without a kind (`null`) is never typed and settles nothing.
    #[cfg(test)]
    #[inline]
    pub(crate) fn differs(&mut self, name: &[u8], kind: Kind) -> bool {
        if kind == Kind::None {
            return false;
        }
        self.differs_hash(hash(name) ^ self.salt, kind)
    }

    /// [`Seen::differs`] of a name's hash.
    #[inline]
    fn differs_hash(&mut self, h: u64, kind: Kind) -> bool {
        if !self.maybe_seen(h) {
            self.insert(h, kind);
            return false;
        }
        let names = if self.more.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.more[..]
        };
        match names.iter().find(|(x, _)| *x == h) {
            Some(&(_, first)) => first != kind,
            None => {
                self.insert(h, kind);
                false
            }
        }
    }

    /// Whether the filter has the bit of hash `h` (set now if not).
    #[inline]
    fn maybe_seen(&mut self, h: u64) -> bool {
        let (words, at) = if self.bits.is_empty() {
            (&mut self.filter[..], h)
        } else {
            (&mut self.bits[..], h >> 8)
        };
        let word = &mut words[(at >> 6) as usize & (words.len() - 1)];
        let bit = 1u64 << (at & 63);
        let set = *word & bit != 0;
        *word |= bit;
        set
    }

    #[inline]
    fn insert(&mut self, h: u64, kind: Kind) {
        if self.len < INLINE {
            self.inline[self.len] = (h, kind);
            self.len += 1;
        } else {
            self.insert_more(h, kind);
        }
    }

    /// A name past the inline ones.
    #[cold]
    #[inline(never)]
    fn insert_more(&mut self, h: u64, kind: Kind) {
        if self.more.is_empty() {
            self.more.reserve(4 * INLINE);
            self.more.extend_from_slice(&self.inline);
        }
        self.more.push((h, kind));
        // 16 bits a name (4 a word): the filter doubles as names come.
        if self.more.len() > 4 * self.bits.len() {
            let words = (2 * self.bits.len()).max(64);
            self.bits = vec![0; words];
            for &(x, _) in &self.more {
                let at = x >> 8;
                self.bits[(at >> 6) as usize & (words - 1)] |= 1 << (at & 63);
            }
        }
    }
}

/// A name's 64-bit hash (fixed, so output does not vary between runs):
/// 8 bytes at a time, the last 1 to 7 read as two overlapping words (or
/// three bytes), the length mixed in.
#[inline]
fn hash(name: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (name.len() as u64).wrapping_mul(K);
    let mut rest = name;
    while let Some((word, tail)) = rest.split_first_chunk::<8>() {
        h = (h ^ u64::from_le_bytes(*word)).wrapping_mul(K).rotate_left(29);
        rest = tail;
    }
    let n = rest.len();
    let last = if n >= 4 {
        let lo = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let hi = u32::from_le_bytes([rest[n - 4], rest[n - 3], rest[n - 2], rest[n - 1]]);
        (u64::from(hi) << 32) | u64::from(lo)
    } else if n > 0 {
        (u64::from(rest[0]) << 16) | (u64::from(rest[n / 2]) << 8) | u64::from(rest[n - 1])
    } else {
        0
    };
    h = (h ^ last).wrapping_mul(K);
    // Mixed so that the low bits (the filter's) depend on every byte.
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_value_of_another_kind_differs() {
        let mut seen = Seen::default();
        assert!(!seen.differs(b"a", Kind::Int64));
        assert!(!seen.differs(b"b", Kind::None));
        assert!(!seen.differs(b"b", Kind::Float));
        assert!(!seen.differs(b"a", Kind::Int64));
        assert!(seen.differs(b"a", Kind::Float));
        assert!(seen.differs(b"b", Kind::Bytes));
        assert!(!seen.differs(b"b", Kind::Float));
        // Past the inline names too, and names sharing a filter bit.
        for i in 0..2000 {
            let name = format!("name{i}");
            assert!(!seen.differs(name.as_bytes(), Kind::Bytes), "{name}");
        }
        for i in 0..2000 {
            let name = format!("name{i}");
            assert!(seen.differs(name.as_bytes(), Kind::Int64), "{name}");
            assert!(!seen.differs(name.as_bytes(), Kind::Bytes), "{name}");
        }
        assert!(seen.differs(b"a", Kind::Bytes));
    }
}

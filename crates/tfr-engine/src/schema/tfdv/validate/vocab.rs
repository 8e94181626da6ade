//! A string domain's values as checked: one sorted arena, searched by
//! halving (a schema's many large domains cost their bytes and 8 bytes a
//! value, not a set entry and an allocation per value).

/// The distinct values of a string domain, sorted, in one buffer.
#[derive(Debug, Default)]
pub(super) struct Vocab {
    bytes: Vec<u8>,
    /// Where each value starts in `bytes` (each ends where the next starts).
    starts: Vec<usize>,
}

impl Vocab {
    /// The vocabulary of `values`.
    pub(super) fn new<'a>(values: impl Iterator<Item = &'a str>) -> Vocab {
        let mut sorted: Vec<&str> = values.collect();
        sorted.sort_unstable();
        sorted.dedup();
        let mut v = Vocab {
            bytes: Vec::with_capacity(sorted.iter().map(|s| s.len()).sum()),
            starts: Vec::with_capacity(sorted.len()),
        };
        for s in sorted {
            v.starts.push(v.bytes.len());
            v.bytes.extend_from_slice(s.as_bytes());
        }
        v
    }

    fn get(&self, i: usize) -> &[u8] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.bytes.len());
        &self.bytes[self.starts[i]..end]
    }

    /// Whether `value` is one of the values.
    pub(super) fn contains(&self, value: &[u8]) -> bool {
        let (mut lo, mut hi) = (0, self.starts.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid).cmp(value) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::Vocab;

    #[test]
    fn holds_exactly_its_values() {
        let v = Vocab::new(["b", "", "abc", "b", "ab", "é"].into_iter());
        for s in ["", "ab", "abc", "b", "é"] {
            assert!(v.contains(s.as_bytes()), "{s}");
        }
        for s in ["a", "abcd", "c", "bb", "\u{0}"] {
            assert!(!v.contains(s.as_bytes()), "{s}");
        }
        assert!(!Vocab::new(std::iter::empty()).contains(b""));
    }
}

//! The largest distinct values, counted exactly: TFDV's top values where
//! counts tie, past [`super::TopK`]'s exact bounds.
//!
//! TFDV (`generate_statistics_from_tfrecord`) counts every value and ranks
//! them by (count, value), both descending: the top values of a feature of
//! all-distinct values are its largest values in byte order, each once.
//! A value among the `LARGEST_KEPT` largest of the whole data is among the
//! largest of every part it occurs in, from its first occurrence (the
//! least kept value only grows), so the counts kept here are exact, one
//! pass or merged.

use std::collections::BTreeMap;

/// Distinct values kept (TFDV's rank histogram's length).
pub const LARGEST_KEPT: usize = 1000;
/// Bytes of a value kept to order and show it (longer values are ordered
/// by this start, then by their hash, and shown by it).
pub const LARGEST_VALUE_MAX: usize = 4096;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    kept: Box<[u8]>,
    hash: u64,
}

/// The [`LARGEST_KEPT`] largest distinct values (their first
/// [`LARGEST_VALUE_MAX`] bytes, then their hash), each with its length
/// and exact count.
#[derive(Clone, Debug, Default)]
pub(super) struct Largest {
    map: BTreeMap<Key, (usize, u64)>,
}

impl Largest {
    /// Counts `n` times the value `v` (its start, at least the first
    /// [`LARGEST_VALUE_MAX`] bytes) of length `full`, hash `h`.
    #[inline]
    pub(super) fn add(&mut self, h: u64, v: &[u8], full: usize, n: u64) {
        let kept = &v[..v.len().min(LARGEST_VALUE_MAX)];
        if self.map.len() >= LARGEST_KEPT {
            if let Some((least, _)) = self.map.first_key_value() {
                if (kept, h) < (&*least.kept, least.hash) {
                    return;
                }
            }
        }
        let key = Key {
            kept: kept.into(),
            hash: h,
        };
        self.map.entry(key).or_insert((full, 0)).1 += n;
        if self.map.len() > LARGEST_KEPT {
            self.map.pop_first();
        }
    }

    /// Adds the counts of `o`.
    pub(super) fn merge(&mut self, o: &Largest) {
        for (k, &(full, n)) in &o.map {
            self.add(k.hash, &k.kept, full, n);
        }
    }

    /// The values, largest first: hash, kept bytes, length, count.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, &[u8], usize, u64)> {
        self.map.iter().rev().map(|(k, &(full, n))| (k.hash, &*k.kept, full, n))
    }
}

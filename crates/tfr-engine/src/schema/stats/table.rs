//! The feature table: interned names and their statistics, up to MAX_FEATURES names, the rest counted.

use super::*;

/// Distinct feature names a table keeps statistics for; the names past it
/// are only counted (memory stays bounded on datasets with millions of
/// names: each tracked name costs a few hundred bytes).
pub const MAX_FEATURES: usize = 5_000;
/// Distinct untracked names counted exactly; past it the count is a lower bound.
pub(super) const MAX_UNTRACKED: usize = 250_000;

/// Interned feature names and their statistics (the first [`MAX_FEATURES`]
/// distinct names; the others counted in [`FeatureTable::untracked`]).
#[derive(Clone, Debug, Default)]
pub struct FeatureTable {
    pub(super) stats: Vec<FeatureStats>,
    pub(super) index: HashMap<Box<str>, u32>,
    /// Hashes of the distinct names seen past [`MAX_FEATURES`].
    pub(super) untracked: std::collections::HashSet<u64>,
    /// More untracked names were seen than `untracked` holds.
    pub(super) untracked_overflow: bool,
    /// The slot of each entry position of the previous record.
    pub(super) cache: Vec<u32>,
    /// Storage for one record's features and lists, kept between records
    /// (empty; see [`recycle`]).
    pub(super) features_buf: Vec<(u32, FeatureView<'static>)>,
    pub(super) lists_buf: Vec<(u32, FeatureListView<'static>)>,
    /// New features keep full statistics ([`Deep`]).
    pub(super) deep: bool,
    /// Only what a column plan needs ([`Collector::keep_light`]).
    pub(super) light: bool,
}

/// A 64-bit hash of a name, the same in every table of the run (so counts
/// merge).
pub(super) fn untracked_hash(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

/// An empty vector of `T<'static>` from one of `T<'a>`, keeping its allocation
/// (collecting a mapped `IntoIter` into a type of the same layout reuses the
/// buffer; nothing is mapped, the vector is empty).
pub(super) fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().map(|_| unreachable!("empty")).collect()
}

impl FeatureTable {
    /// A table of features read back from a saved statistics file (with
    /// full statistics; a name given twice is merged).
    pub(crate) fn restored(features: Vec<FeatureStats>) -> Self {
        let mut saved = FeatureTable {
            deep: true,
            ..FeatureTable::default()
        };
        saved.stats = features;
        let mut t = FeatureTable {
            deep: true,
            ..FeatureTable::default()
        };
        t.merge(&saved);
        t
    }

    /// The features, in the order they were first seen.
    pub fn features(&self) -> &[FeatureStats] {
        &self.stats
    }

    /// The features sorted by name (code point order).
    pub fn sorted(&self) -> Vec<&FeatureStats> {
        let mut v: Vec<&FeatureStats> = self.stats.iter().collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    /// Names with statistics.
    pub fn len(&self) -> usize {
        self.stats.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.stats.is_empty()
    }

    /// Distinct feature names seen beyond [`MAX_FEATURES`], which have no
    /// statistics; `true` when that count is a lower bound.
    pub fn untracked(&self) -> (u64, bool) {
        (self.untracked.len() as u64, self.untracked_overflow)
    }

    /// Counts a name past the limit.
    pub(super) fn note_untracked(&mut self, key: &str) {
        let h = untracked_hash(key);
        if self.untracked.len() >= MAX_UNTRACKED {
            self.untracked_overflow |= !self.untracked.contains(&h);
            return;
        }
        self.untracked.insert(h);
    }

    /// Adds the features of another table (of other records).
    pub(super) fn merge(&mut self, o: &FeatureTable) {
        for f in &o.stats {
            let slot = match self.index.get(&*f.name) {
                Some(&slot) => slot as usize,
                None if self.stats.len() >= MAX_FEATURES => {
                    self.note_untracked(&f.name);
                    continue;
                }
                None => {
                    let slot = self.stats.len();
                    self.stats.push(FeatureStats::new(&f.name, self.deep));
                    self.index.insert(f.name.clone(), slot as u32);
                    slot
                }
            };
            self.stats[slot].merge(f);
        }
        for h in &o.untracked {
            if self.untracked.len() >= MAX_UNTRACKED {
                self.untracked_overflow = true;
                break;
            }
            self.untracked.insert(*h);
        }
        self.untracked_overflow |= o.untracked_overflow;
    }

    /// The slot of `key`, seen at entry position `pos`; `None` for a name
    /// `keep` leaves out, or a new name past [`MAX_FEATURES`] (counted, not
    /// tracked). Keys are compared as bytes: the name of the slot that
    /// entry position held in the record before is tried first.
    #[inline]
    pub(super) fn intern(&mut self, pos: usize, key: &[u8], keep: Keep<'_>) -> Option<usize> {
        if let Some(s) = self.cache.get(pos).and_then(|&slot| self.stats.get(slot as usize)) {
            if s.name.as_bytes() == key {
                return keep(&s.name).then_some(self.cache[pos] as usize);
            }
        }
        // Keys were validated as UTF-8 by the decoder.
        let key = std::str::from_utf8(key).unwrap_or("");
        if !keep(key) {
            return None;
        }
        let slot = match self.index.get(key) {
            Some(&slot) => slot,
            None if self.stats.len() >= MAX_FEATURES => {
                self.note_untracked(key);
                return None;
            }
            None => {
                let slot = self.stats.len() as u32;
                self.stats.push(FeatureStats::new(key, self.deep));
                self.index.insert(key.into(), slot);
                slot
            }
        };
        if pos < self.cache.len() {
            self.cache[pos] = slot;
        } else {
            self.cache.resize(pos, u32::MAX);
            self.cache.push(slot);
        }
        Some(slot as usize)
    }

    /// Interns the kept keys of one record's entries into `buf` (slot,
    /// value) and stamps their slots; returns whether a key occurs twice
    /// (then only its last position in `buf` counts).
    #[inline]
    pub(super) fn stamp<'a, V>(
        &mut self,
        entries: impl Iterator<Item = (&'a [u8], V)>,
        stamp: u64,
        keep: Keep<'_>,
        buf: &mut Vec<(u32, V)>,
    ) -> bool {
        let mut dups = false;
        for (pos, (key, value)) in entries.enumerate() {
            let Some(slot) = self.intern(pos, key, keep) else {
                continue;
            };
            let s = &mut self.stats[slot];
            dups |= s.stamp == stamp;
            s.stamp = stamp;
            s.pos = buf.len() as u32;
            buf.push((slot as u32, value));
        }
        dups
    }

    /// Adds the features of one record.
    pub(super) fn add_features<'a>(&mut self, fv: &FeaturesView<'a>, at: Seen, stamp: u64, keep: Keep<'_>) {
        let mut buf: Vec<(u32, FeatureView<'a>)> = std::mem::take(&mut self.features_buf);
        let dups = self.stamp(fv.raw_entries(), stamp, keep, &mut buf);
        for (pos, (slot, feature)) in buf.iter().enumerate() {
            let s = &mut self.stats[*slot as usize];
            if dups && s.pos as usize != pos {
                continue;
            }
            s.mark_present(at.input);
            match self.light {
                true => s.add_feature_light(feature, at),
                false => s.add_feature(feature, at),
            };
        }
        self.features_buf = recycle(buf);
    }

    /// Adds the feature lists of one record.
    pub(super) fn add_feature_lists<'a>(&mut self, lv: &FeatureListsView<'a>, at: Seen, stamp: u64, keep: Keep<'_>) {
        let mut buf: Vec<(u32, FeatureListView<'a>)> = std::mem::take(&mut self.lists_buf);
        let dups = self.stamp(lv.raw_entries(), stamp, keep, &mut buf);
        for (pos, (slot, list)) in buf.iter().enumerate() {
            let s = &mut self.stats[*slot as usize];
            if dups && s.pos as usize != pos {
                continue;
            }
            s.mark_present(at.input);
            s.steps.add(list.len() as u64);
            if let Some(d) = &mut s.deep {
                d.steps.add(list.len() as f64);
            }
            for step in list.features() {
                match self.light {
                    true => s.add_feature_light(&step, at),
                    false => s.add_feature(&step, at),
                };
            }
        }
        self.lists_buf = recycle(buf);
    }
}

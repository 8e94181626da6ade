//! The most frequent values: exact counts, then a Misra-Gries summary
//! and the largest values counted exactly.

use super::largest::Largest;
use super::*;

/// The most frequent values: exact counts of every distinct value (kept
/// whole) while there are at most [`EXACT_TOP`] of them holding at most
/// [`EXACT_TOP_BYTES`] bytes, then a Misra-Gries summary. Values are keyed
/// by their [`value_hash`] (computed once per value for this and
/// [`Distinct`]); their bytes are kept in one arena.
#[derive(Clone, Debug, Default)]
pub struct TopK {
    /// Hash -> index in `entries`.
    pub(super) slots: HashMap<u64, u32, IdBuild>,
    pub(super) entries: Vec<TopEntry>,
    pub(super) arena: Vec<u8>,
    /// Subtracted from every count so far (0 while exact): the most a
    /// reported count can be below the true one.
    pub(super) error: u64,
    /// Past the exact bounds: a Misra-Gries summary, values kept by their
    /// first [`TOP_VALUE_MAX`] bytes.
    pub(super) sketch: bool,
    /// Past the exact bounds: the largest distinct values and their exact
    /// counts (TFDV's top values among equal counts).
    pub(super) largest: Largest,
    /// A part merged in was a summary saved without its largest values
    /// (by an earlier tfr): they are not known.
    pub(super) largest_lost: bool,
}

/// A saved counter: hash, kept bytes, the value's length, count.
pub(crate) type Counter = (u64, Vec<u8>, usize, u64);

#[derive(Clone, Copy, Debug)]
pub(super) struct TopEntry {
    pub(super) hash: u64,
    pub(super) start: usize,
    /// Bytes kept (the whole value while exact, else at most
    /// [`TOP_VALUE_MAX`]).
    pub(super) len: usize,
    /// The value's own length.
    pub(super) full: usize,
    pub(super) count: u64,
}

impl TopK {
    /// Counts `v` (whose [`value_hash`] is `h`) `n` times.
    #[inline]
    pub fn add_hashed(&mut self, h: u64, v: &[u8], n: u64) {
        if self.sketch {
            self.largest.add(h, v, v.len(), n);
        }
        if let Some(&i) = self.slots.get(&h) {
            self.entries[i as usize].count += n;
            return;
        }
        self.insert(h, v, v.len(), n);
        // A huge record of distinct values: prune as it goes.
        let over = if self.sketch {
            self.entries.len() > TOP_HELD
        } else {
            self.over_exact()
        };
        if over {
            self.prune();
        }
    }

    pub(super) fn over_exact(&self) -> bool {
        self.entries.len() > EXACT_TOP || self.arena.len() > EXACT_TOP_BYTES
    }

    /// Keeps `value` (whole while exact, its start in a sketch).
    pub(super) fn insert(&mut self, h: u64, value: &[u8], full: usize, n: u64) {
        let kept = if self.sketch {
            &value[..value.len().min(TOP_VALUE_MAX)]
        } else {
            value
        };
        let start = self.arena.len();
        self.arena.extend_from_slice(kept);
        self.slots.insert(h, self.entries.len() as u32);
        self.entries.push(TopEntry {
            hash: h,
            start,
            len: kept.len(),
            full,
            count: n,
        });
    }

    pub(super) fn value(&self, e: &TopEntry) -> &[u8] {
        &self.arena[e.start..e.start + e.len]
    }

    /// Leaves the exact counts for the summary: values kept by their start.
    pub(super) fn become_sketch(&mut self) {
        if self.sketch {
            return;
        }
        let old = std::mem::take(self);
        self.sketch = true;
        self.error = old.error;
        self.largest_lost = old.largest_lost;
        for e in &old.entries {
            self.insert(e.hash, old.value(e), e.full, e.count);
            // (exact: values whole)
            self.largest.add(e.hash, old.value(e), e.full, e.count);
        }
    }

    /// Past the exact bounds, turns the counts into a summary of at most
    /// `2 * TOP_TRACKED` counters (called per batch and after merges).
    pub fn prune(&mut self) {
        if !self.sketch {
            if !self.over_exact() {
                return;
            }
            self.become_sketch();
        }
        if self.entries.len() <= 2 * TOP_TRACKED {
            return;
        }
        let mut c: Vec<u64> = self.entries.iter().map(|e| e.count).collect();
        c.sort_unstable_by(|a, b| b.cmp(a));
        let cut = c[TOP_TRACKED];
        let mut old = std::mem::take(self);
        self.sketch = true;
        self.largest = std::mem::take(&mut old.largest);
        self.largest_lost = old.largest_lost;
        self.error = old.error + cut;
        for e in old.entries.iter().filter(|e| e.count > cut) {
            self.insert(e.hash, old.value(e), e.full, e.count - cut);
        }
    }

    /// Adds the counts of `o`.
    pub fn merge(&mut self, o: &TopK) {
        if o.sketch {
            self.become_sketch();
            self.largest.merge(&o.largest);
            self.largest_lost |= o.largest_lost;
        }
        let whole = self.sketch && !o.sketch;
        for e in &o.entries {
            if whole {
                self.largest.add(e.hash, o.value(e), e.full, e.count);
            }
            match self.slots.get(&e.hash) {
                Some(&i) => self.entries[i as usize].count += e.count,
                None => self.insert(e.hash, o.value(e), e.full, e.count),
            }
        }
        self.error += o.error;
        self.prune();
    }

    /// How far below its true count a reported count may be.
    pub fn error(&self) -> u64 {
        self.error
    }

    /// Whether every distinct value is counted exactly and kept whole.
    pub fn is_exact(&self) -> bool {
        !self.sketch
    }

    /// The `k` most frequent values, most frequent first (ties: the larger
    /// value first, as TFDV orders them): (the value, whole while exact,
    /// else its start; its length; its count). Once the summary is
    /// approximate: the values counted more than [`Self::error`] times
    /// (their counts at most that much short), and the largest values with
    /// their exact counts (so a feature of all-distinct values gets TFDV's
    /// list: its largest values, each once).
    pub fn top(&self, k: usize) -> Vec<(&[u8], usize, u64)> {
        let largest = if self.sketch && !self.largest_lost {
            self.largest.entries().collect()
        } else {
            Vec::new()
        };
        let exact: HashSet<u64, IdBuild> = largest.iter().map(|e| e.0).collect();
        let mut v: Vec<(&[u8], usize, u64)> = self
            .entries
            .iter()
            .filter(|e| e.count > self.error && !exact.contains(&e.hash))
            .map(|e| (self.value(e), e.full, e.count))
            .chain(largest.iter().map(|e| (e.1, e.2, e.3)))
            .collect();
        let k = k.min(v.len());
        if k == 0 {
            return Vec::new();
        }
        let order = |a: &(&[u8], usize, u64), b: &(&[u8], usize, u64)| b.2.cmp(&a.2).then_with(|| b.0.cmp(a.0));
        if k < v.len() {
            v.select_nth_unstable_by(k - 1, order);
            v.truncate(k);
        }
        v.sort_unstable_by(order);
        v
    }

    /// Past the exact bounds, the largest values (for saving): hash, kept
    /// bytes, length, count; `None` when they are not known.
    pub(crate) fn largest(&self) -> Option<impl Iterator<Item = (u64, &[u8], usize, u64)>> {
        (self.sketch && !self.largest_lost).then(|| self.largest.entries())
    }

    /// Every counter (for saving): hash, kept bytes, length, count.
    pub(crate) fn counters(&self) -> impl Iterator<Item = (u64, &[u8], usize, u64)> {
        self.entries.iter().map(|e| (e.hash, self.value(e), e.full, e.count))
    }

    /// A summary from its saved counters; `sketch`: the saved one was past
    /// the exact bounds, with its `largest` values (`None`: not saved).
    pub(crate) fn from_state(counters: Vec<Counter>, error: u64, sketch: bool, largest: Option<Vec<Counter>>) -> Self {
        let mut t = TopK {
            sketch,
            largest_lost: sketch && largest.is_none(),
            ..TopK::default()
        };
        for (h, kept, full, n) in largest.into_iter().flatten() {
            t.largest.add(h, &kept, full, n);
        }
        for (h, kept, full, n) in counters {
            match t.slots.get(&h) {
                Some(&i) => t.entries[i as usize].count += n,
                None => t.insert(h, &kept, full.max(kept.len()), n),
            }
        }
        t.error = error;
        t.prune();
        t
    }
}

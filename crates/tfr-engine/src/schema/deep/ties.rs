//! Exact counts of the heavily repeated values of a [`super::Quantiles`]
//! once it is a t-digest.
//!
//! TFDV's quantiles sketch keeps a value seen many times as one entry of
//! exact weight, so its quantile boundaries inside such a tie are the tied
//! value, with the exact cumulative weight (60% zeros in 100,000 values:
//! five `[0, 0]` buckets of 59,940 / 5 each, the true count of zeros). A
//! t-digest blurs a tie over neighbouring centroids (58,501 there). So when
//! a summary turns into a t-digest, the values then repeated at least
//! `n / 1000` times (at most [`MAX_TIES`], the most repeated) are counted
//! from there on exactly: how many times each occurs, and how many values
//! are below it. A boundary whose rank falls in a tie is then that value,
//! at its exact cumulative weight. Values that become frequent only later
//! are not tracked; a merge keeps the ties both sides track exactly.

/// Ties tracked at most.
pub const MAX_TIES: usize = 64;

/// A tie's share of the values (at least one in this many) to be tracked.
const TIE_SHARE: u64 = 1000;

/// One tracked value: the value, its count, and the count of finite
/// values below it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tie {
    /// The value.
    pub value: f64,
    /// Times it occurs.
    pub count: u64,
    /// Finite values below it.
    pub below: u64,
}

/// The tracked ties, by value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ties(pub Vec<Tie>);

impl Ties {
    /// The ties of `runs` (sorted distinct values and counts, `n` values in
    /// all) worth tracking.
    pub fn of_runs(runs: &[(f64, u64)], n: u64) -> Ties {
        let floor = (n / TIE_SHARE).max(2);
        let mut below = 0u64;
        let mut all: Vec<Tie> = Vec::new();
        for &(value, count) in runs {
            if count >= floor {
                all.push(Tie { value, count, below });
            }
            below += count;
        }
        all.sort_by(|a, b| b.count.cmp(&a.count).then(a.value.total_cmp(&b.value)));
        all.truncate(MAX_TIES);
        all.sort_by(|a, b| a.value.total_cmp(&b.value));
        Ties(all)
    }

    /// Counts sorted distinct `runs` into the ties (one walk of both).
    pub fn add_runs(&mut self, runs: &[(f64, u64)]) {
        if self.0.is_empty() {
            return;
        }
        let (mut i, mut below) = (0usize, 0u64);
        for t in &mut self.0 {
            while i < runs.len() && runs[i].0 < t.value {
                below += runs[i].1;
                i += 1;
            }
            t.below += below;
            if i < runs.len() && runs[i].0 == t.value {
                t.count += runs[i].1;
            }
        }
    }

    /// The ties tracked on both sides, their counts added.
    pub fn intersect(&mut self, o: &Ties) {
        self.0.retain_mut(|t| match o.0.iter().find(|u| u.value == t.value) {
            Some(u) => {
                t.count += u.count;
                t.below += u.below;
                true
            }
            None => false,
        });
    }

    /// The tie holding finite rank `rank` (0-based): its value and
    /// cumulative weight (values at or below it).
    pub fn at(&self, rank: u64) -> Option<(f64, u64)> {
        self.0
            .iter()
            .find(|t| t.below <= rank && rank < t.below + t.count)
            .map(|t| (t.value, t.below + t.count))
    }

    /// Checks ties read back from a saved file: sorted distinct finite
    /// values, counted, within `n` values.
    pub fn check(&self, n: u64) -> Result<(), String> {
        let ok = self.0.len() <= MAX_TIES
            && self
                .0
                .iter()
                .all(|t| t.value.is_finite() && t.count > 0 && t.below.checked_add(t.count).is_some_and(|e| e <= n))
            && self
                .0
                .windows(2)
                .all(|w| w[0].value < w[1].value && w[0].below + w[0].count <= w[1].below);
        if ok {
            Ok(())
        } else {
            Err("its ties are not ones tfr wrote".into())
        }
    }
}

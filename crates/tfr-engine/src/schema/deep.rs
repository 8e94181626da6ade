//! Full statistics of a feature (`tfr stats`, `tfr schema -f tfdv-schema`):
//! what TensorFlow Data Validation computes, in bounded memory, mergeable.
//!
//! Every part merges (per batch, per thread, per shard, and from a saved
//! statistics file with `tfr stats --merge`). Batches do not depend on the
//! number of threads and merge in record order, so `-j` never changes a
//! result; statistics merged from saved parts equal one pass exactly while
//! exact, and within the sketches' bounds after:
//! - [`Quantiles`]: exact (sorted distinct values with their counts) while a
//!   feature has at most [`EXACT_DISTINCT`] distinct values; past that a
//!   t-digest (crate `tdigest`) of [`CENTROIDS`] centroids: a rank-error
//!   sketch, most accurate at the tails, whatever the values' offset or
//!   scale (tests/oracle/tfdv_check.py holds it to 1% of n in rank against
//!   the sorted data, the bound of TFDV's own sketch). Exact quantiles are
//!   TFDV's ([`Quantiles::boundaries`]: the value of rank `i * n / k` in
//!   integers, with the count of values at or below it).
//! - [`Moments`]: count, mean and sum of squared deviations, merged with
//!   Chan's formula (no loss of precision to large means).
//! - [`Distinct`]: exact (64-bit xxh3 hashes) up to [`EXACT_UNIQUE`]
//!   (65,536) values, then a HyperLogLog of 2^14 registers (standard error
//!   0.81%).
//! - [`TopK`]: exact counts of every distinct value, kept whole (so TFDV's
//!   top values and string domains hold the data's values), while at most
//!   [`EXACT_TOP`] (65,536) distinct values of at most [`EXACT_TOP_BYTES`]
//!   (4 MiB) together are seen; past that a Misra-Gries summary
//!   (mergeable, Agarwal et al. 2012) of [`TOP_TRACKED`] to
//!   `2 * TOP_TRACKED` counters: a count it reports is at most
//!   [`TopK::error`] below the true count, an error bounded by
//!   `n / (TOP_TRACKED + 1)`, and only values counted more than that are
//!   reported from it. Values are counted whole (by hash); in the summary
//!   only their first [`TOP_VALUE_MAX`] bytes are kept to show them.
//!   Beside it, the [`LARGEST_KEPT`] largest distinct values (their first
//!   [`LARGEST_VALUE_MAX`] bytes) with exact counts (`largest.rs`): TFDV
//!   ranks by (count, value), so on all-distinct values its top values are
//!   these.
//!
//! Memory: at most about 9 MB per feature (65,536 exact counters and
//! 4 MiB of their values, 65,536 hashes, 4,096 exact numbers; past them
//! 2,000 counters of up to 256 bytes, 1,000 values of up to 4 KiB, 16 KB
//! of HyperLogLog), reached only
//! by a feature with that many distinct values, for at most
//! [`super::stats::MAX_FEATURES`] features; the notebook benchmark (1M
//! records, 4 features) runs in under 10 MB.

use std::collections::{HashMap, HashSet};
use tdigest::{Centroid, TDigest};

/// Distinct values a [`Quantiles`] keeps exactly.
pub const EXACT_DISTINCT: usize = 4096;
/// Values gathered before they are folded into the summary.
const PENDING_MAX: usize = 1 << 20;
/// Counters a [`TopK`] may hold within a batch before it prunes.
const TOP_HELD: usize = 8 * TOP_TRACKED;

/// Runs of exact values from which [`Quantiles::seal`] also makes their
/// t-digest (fewer are digested quickly where they are merged).
const READY_RUNS: usize = 512;

/// Centroids of a t-digest.
pub const CENTROIDS: usize = 200;
/// Distinct values a [`Distinct`] counts exactly.
pub const EXACT_UNIQUE: usize = EXACT_TOP;
/// HyperLogLog precision: 2^14 registers.
const HLL_BITS: u32 = 14;
/// Values a [`TopK`] keeps counters for once past its exact bounds.
pub const TOP_TRACKED: usize = 1000;
/// Distinct values a [`TopK`] counts exactly (and a [`Distinct`] counts
/// exactly).
pub const EXACT_TOP: usize = 1 << 16;
/// Bytes of distinct values a [`TopK`] keeps whole while exact.
pub const EXACT_TOP_BYTES: usize = 4 << 20;
/// Bytes of a value a [`TopK`] keeps (longer values are counted whole,
/// by their hash, and shown by their start).
pub const TOP_VALUE_MAX: usize = 256;

/// Quantiles of a stream of numbers (exact, then a t-digest).
#[derive(Clone, Default)]
pub struct Quantiles {
    /// Finite values summarised.
    n: u64,
    /// Infinities, counted apart (they rank first and last).
    neg_inf: u64,
    pos_inf: u64,
    /// Sorted distinct values and their counts (while exact).
    exact: Vec<(f64, u64)>,
    digest: Option<Box<TDigest>>,
    /// Values added since the last [`Quantiles::seal`].
    pending: Vec<f64>,
    /// `digest_of(&exact)`, made by [`Quantiles::seal`] when `exact` holds
    /// at least [`READY_RUNS`] runs: what merging this summary into one
    /// that is a t-digest needs, made on the worker's thread (a batch's)
    /// rather than on the one thread that merges every batch in order.
    /// The merge gives the same digest either way; any change to `exact`
    /// drops it.
    ready: Option<Box<TDigest>>,
    /// With a t-digest: the values then repeated most, counted exactly.
    ties: Ties,
}

impl std::fmt::Debug for Quantiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Quantiles")
            .field("n", &self.n)
            .field("exact", &self.exact.len())
            .field("digest", &self.digest.is_some())
            .finish()
    }
}

/// Checks a saved t-digest before it is used: tfr's size, at most that
/// many sorted centroids of finite means and whole positive weights (each
/// stands for at least one value) that add up to the count exactly, within
/// [min, max], a finite sum, and at least one value (the crate unwraps the
/// centroids of a digest it is asked to merge).
fn check_digest(v: &serde_json::Value, n: u64) -> Result<(), String> {
    let bad = |why: &str| Err(format!("a t-digest is not one tfr wrote: {why}"));
    if v["max_size"].as_u64() != Some(CENTROIDS as u64) {
        return bad("its size");
    }
    let Some(centroids) = v["centroids"].as_array() else {
        return bad("no centroids");
    };
    if centroids.len() > 4 * CENTROIDS {
        return bad("too many centroids");
    }
    if n == 0 || centroids.is_empty() {
        return bad("no values");
    }
    if !v["sum"].as_f64().is_some_and(f64::is_finite) {
        return bad("its sum");
    }
    let (min, max) = match (v["min"].as_f64(), v["max"].as_f64()) {
        (Some(a), Some(b)) if a.is_finite() && b.is_finite() && a <= b => (a, b),
        _ => return bad("its range"),
    };
    let (mut total, mut last) = (0.0, f64::NEG_INFINITY);
    for c in centroids {
        match (c["mean"].as_f64(), c["weight"].as_f64()) {
            (Some(m), Some(w))
                if m.is_finite()
                    && w.is_finite()
                    && w >= 1.0
                    && w.fract() == 0.0
                    && m >= last
                    && m >= min
                    && m <= max =>
            {
                total += w;
                last = m;
            }
            _ => return bad("a centroid"),
        }
    }
    if total != n as f64 || v["count"].as_f64() != Some(n as f64) {
        return bad("its weights do not add up to its count");
    }
    Ok(())
}

/// A t-digest of sorted runs (value, count), compressed to [`CENTROIDS`].
fn digest_of(runs: &[(f64, u64)]) -> TDigest {
    if runs.is_empty() {
        return TDigest::new_with_size(CENTROIDS);
    }
    let centroids: Vec<Centroid> = runs.iter().map(|&(v, c)| Centroid::new(v, c as f64)).collect();
    let count: f64 = runs.iter().map(|r| r.1 as f64).sum();
    let sum: f64 = runs.iter().map(|&(v, c)| v * c as f64).sum();
    let (min, max) = (runs[0].0, runs[runs.len() - 1].0);
    let len = centroids.len();
    let whole = TDigest::new(centroids, sum, count, max, min, len);
    // merge_digests compresses to the size of the first digest given.
    TDigest::merge_digests(vec![TDigest::new_with_size(CENTROIDS), whole])
}

impl Quantiles {
    /// Adds a value (not NaN: the callers count NaN apart).
    #[inline]
    pub fn add(&mut self, v: f64) {
        if v.is_finite() {
            self.pending.push(v);
            // A huge record: fold as it goes (memory stays at this many
            // values, not the record's).
            if self.pending.len() >= PENDING_MAX {
                self.fold();
            }
        } else if v > 0.0 {
            self.pos_inf += 1;
        } else if v < 0.0 {
            self.neg_inf += 1;
        }
    }

    /// Folds the values added since the last call into the summary, and
    /// digests them ahead of a merge (see `ready`): called per batch, on
    /// the worker's thread.
    pub fn seal(&mut self) {
        self.fold();
        // A sealed batch is merged next, never added to again: its room for
        // pending values goes back now, not while it waits its turn.
        self.pending = Vec::new();
        if self.ready.is_none() && self.digest.is_none() && self.exact.len() >= READY_RUNS {
            self.ready = Some(Box::new(digest_of(&self.exact)));
        }
    }

    /// Folds the values added since the last call into the summary.
    fn fold(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_unstable_by(f64::total_cmp);
        let mut runs: Vec<(f64, u64)> = Vec::new();
        for v in pending.drain(..) {
            match runs.last_mut() {
                Some((last, c)) if *last == v => *c += 1,
                _ => runs.push((v, 1)),
            }
        }
        self.pending = pending;
        self.add_runs(&runs, None);
    }

    /// Adds sorted distinct `runs`; `ready` is their [`digest_of`], when
    /// made already.
    fn add_runs(&mut self, runs: &[(f64, u64)], ready: Option<&TDigest>) {
        if runs.is_empty() {
            return;
        }
        self.ready = None;
        self.n += runs.iter().map(|r| r.1).sum::<u64>();
        if let Some(d) = &mut self.digest {
            self.ties.add_runs(runs);
            let mine = std::mem::replace(&mut **d, TDigest::new_with_size(CENTROIDS));
            let theirs = ready.cloned().unwrap_or_else(|| digest_of(runs));
            **d = TDigest::merge_digests(vec![TDigest::new_with_size(CENTROIDS), mine, theirs]);
            return;
        }
        let mut merged = Vec::with_capacity(self.exact.len() + runs.len());
        let (mut a, mut b) = (self.exact.iter().peekable(), runs.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => match x.0.total_cmp(&y.0) {
                    std::cmp::Ordering::Less => *a.next().expect("peeked"),
                    std::cmp::Ordering::Greater => *b.next().expect("peeked"),
                    std::cmp::Ordering::Equal => {
                        let (x, y) = (a.next().expect("peeked"), b.next().expect("peeked"));
                        (x.0, x.1 + y.1)
                    }
                },
                (Some(_), None) => *a.next().expect("peeked"),
                (None, Some(_)) => *b.next().expect("peeked"),
                (None, None) => break,
            };
            merged.push(next);
        }
        self.exact = merged;
        if self.exact.len() > EXACT_DISTINCT {
            self.digest = Some(Box::new(digest_of(&self.exact)));
            self.ties = Ties::of_runs(&self.exact, self.n);
            self.exact = Vec::new();
        }
    }

    /// Adds the values of another summary (sealed).
    pub fn merge(&mut self, o: &Quantiles) {
        debug_assert!(o.pending.is_empty(), "merge a sealed summary");
        self.neg_inf += o.neg_inf;
        self.pos_inf += o.pos_inf;
        match &o.digest {
            None => self.add_runs(&o.exact, o.ready.as_deref()),
            Some(od) => {
                self.ready = None;
                let mine = match self.digest.take() {
                    Some(d) => {
                        self.ties.intersect(&o.ties);
                        *d
                    }
                    None => {
                        let runs = std::mem::take(&mut self.exact);
                        self.ties = o.ties.clone();
                        self.ties.add_runs(&runs);
                        digest_of(&runs)
                    }
                };
                let merged = TDigest::merge_digests(vec![TDigest::new_with_size(CENTROIDS), mine, (**od).clone()]);
                self.digest = Some(Box::new(merged));
                self.n += o.n;
            }
        }
    }

    /// Values summarised (infinities included).
    pub fn count(&self) -> u64 {
        self.n + self.neg_inf + self.pos_inf
    }

    /// The least and greatest finite values.
    pub fn finite_range(&self) -> Option<(f64, f64)> {
        if self.n == 0 {
            return None;
        }
        match &self.digest {
            Some(d) => Some((d.min(), d.max())),
            None => Some((self.exact[0].0, self.exact[self.exact.len() - 1].0)),
        }
    }

    /// Every distinct finite value with its count, ascending, while the
    /// summary is exact and sealed (`None` past [`EXACT_DISTINCT`] distinct
    /// values, or with values not yet folded).
    pub fn exact_counts(&self) -> Option<&[(f64, u64)]> {
        (self.digest.is_none() && self.pending.is_empty()).then_some(self.exact.as_slice())
    }

    /// Whether quantiles are exact.
    pub fn is_exact(&self) -> bool {
        self.digest.is_none()
    }

    /// The `q` quantile (0 to 1): exact, the value of rank `floor(q * n)`
    /// (TFDV's rule; infinities rank first and last); else the t-digest's
    /// estimate, within the values' range. `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * total as f64).floor() as u64).min(total - 1);
        if rank < self.neg_inf {
            return Some(f64::NEG_INFINITY);
        }
        if rank >= self.neg_inf + self.n {
            return Some(f64::INFINITY);
        }
        self.finite_at(rank - self.neg_inf)
    }

    /// The finite value of rank `rank` (0-based, among the finite ones).
    fn finite_at(&self, rank: u64) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        if let Some(d) = &self.digest {
            if let Some((v, _)) = self.ties.at(rank) {
                return Some(v);
            }
            let q = if self.n <= 1 {
                0.0
            } else {
                rank as f64 / (self.n - 1) as f64
            };
            let v = d.estimate_quantile(q.clamp(0.0, 1.0));
            return Some(v.clamp(d.min(), d.max()));
        }
        let mut seen = 0;
        for &(v, c) in &self.exact {
            seen += c;
            if seen > rank {
                return Some(v);
            }
        }
        self.exact.last().map(|r| r.0)
    }

    /// TFDV's quantile boundaries (`GetQuantilesAndCumulativeWeights(k)` of
    /// its sketch, exact while its sketch is): for `i` in `0..=k`, the value
    /// of 0-based rank `i * n / k` (integer division, so 0.7 * 360 is 252,
    /// not 251.99…; the last rank is `n - 1`) and its cumulative weight, the
    /// number of values at or below it. Infinities rank first and last.
    /// Past the exact range the values are the t-digest's and the weights
    /// their ranks (a boundary's weight is that of the last equal one).
    /// Empty when there is no value.
    pub fn boundaries(&self, k: usize) -> Vec<(f64, f64)> {
        let total = self.count();
        if total == 0 || k == 0 {
            return Vec::new();
        }
        let rank_of = |i: usize| ((i as u128 * u128::from(total) / k as u128) as u64).min(total - 1);
        let mut out = Vec::with_capacity(k + 1);
        if self.digest.is_some() {
            let mut last = f64::NEG_INFINITY;
            for i in 0..=k {
                let r = rank_of(i);
                // (the t-digest's estimates, made non-decreasing)
                let finite = r.checked_sub(self.neg_inf).filter(|f| *f < self.n);
                let tie = finite.and_then(|f| self.ties.at(f));
                let v = self.quantile_at(r).unwrap_or(0.0).max(last);
                last = v;
                let cum = match tie {
                    // Inside a tie: its exact cumulative weight.
                    Some((_, cum)) => self.neg_inf + cum,
                    None if i == k => total,
                    None => r + 1,
                };
                out.push((v, cum as f64));
            }
            for j in (0..k).rev() {
                if out[j].0 == out[j + 1].0 {
                    out[j].1 = out[j + 1].1;
                }
            }
            return out;
        }
        // Exact: walk the runs once (the ranks only grow).
        let (mut run, mut below) = (0usize, self.neg_inf);
        for i in 0..=k {
            let r = rank_of(i);
            if r < self.neg_inf {
                out.push((f64::NEG_INFINITY, self.neg_inf as f64));
                continue;
            }
            if r >= self.neg_inf + self.n {
                out.push((f64::INFINITY, total as f64));
                continue;
            }
            while run < self.exact.len() && below + self.exact[run].1 <= r {
                below += self.exact[run].1;
                run += 1;
            }
            let (v, c) = self.exact[run];
            out.push((v, (below + c) as f64));
        }
        out
    }

    /// The value of 0-based rank `rank` among all values (infinities first
    /// and last).
    fn quantile_at(&self, rank: u64) -> Option<f64> {
        if rank < self.neg_inf {
            return Some(f64::NEG_INFINITY);
        }
        if rank >= self.neg_inf + self.n {
            return Some(f64::INFINITY);
        }
        self.finite_at(rank - self.neg_inf)
    }

    /// `buckets` equal-width buckets over `[lo, hi]` (the last one closed;
    /// one bucket when `lo == hi`): `(low, high, count)`; exact counts
    /// while exact, else spread from 1,000 evenly spaced quantiles.
    pub fn equal_width(&self, lo: f64, hi: f64, buckets: usize) -> Vec<(f64, f64, f64)> {
        let buckets = if lo == hi { 1 } else { buckets };
        let width = (hi - lo) / buckets as f64;
        let mut out: Vec<(f64, f64, f64)> = (0..buckets)
            .map(|i| {
                let low = lo + width * i as f64;
                let high = if i + 1 == buckets {
                    hi
                } else {
                    lo + width * (i + 1) as f64
                };
                (low, high, 0.0)
            })
            .collect();
        if self.n == 0 {
            return out;
        }
        let out_low = |i: usize| lo + width * i as f64;
        // The bucket of v: its first estimate, then checked against the
        // bounds as the buckets state them (at large magnitudes the
        // division alone can round a value across a bound).
        let slot = |v: f64| -> usize {
            if width <= 0.0 || !width.is_finite() {
                return 0;
            }
            let mut i = (((v - lo) / width).floor().max(0.0) as usize).min(buckets - 1);
            while i > 0 && v < out_low(i) {
                i -= 1;
            }
            while i + 1 < buckets && v >= out_low(i + 1) {
                i += 1;
            }
            i
        };
        if self.digest.is_none() {
            for &(v, c) in &self.exact {
                out[slot(v)].2 += c as f64;
            }
        } else {
            const POINTS: u64 = 1000;
            let share = self.n as f64 / POINTS as f64;
            for i in 0..POINTS {
                let rank = ((i as f64 + 0.5) / POINTS as f64 * self.n as f64) as u64;
                if let Some(v) = self.finite_at(rank.min(self.n - 1)) {
                    out[slot(v)].2 += share;
                }
            }
        }
        out
    }

    /// The infinities counted: (-inf, +inf).
    pub(crate) fn infinities(&self) -> (u64, u64) {
        (self.neg_inf, self.pos_inf)
    }

    /// The ties counted exactly (with a t-digest).
    pub(crate) fn ties(&self) -> &[ties::Tie] {
        &self.ties.0
    }

    /// The exact runs, or the t-digest (as JSON).
    pub(crate) fn state(&self) -> Result<&[(f64, u64)], serde_json::Value> {
        match &self.digest {
            None => Ok(&self.exact),
            Some(d) => Err(serde_json::to_value(&**d).unwrap_or(serde_json::Value::Null)),
        }
    }

    /// A summary from [`Self::state`]'s parts: `n` values, exact runs or a
    /// t-digest.
    pub(crate) fn from_state(
        n: u64,
        (neg_inf, pos_inf): (u64, u64),
        exact: Vec<(f64, u64)>,
        digest: Option<(&serde_json::Value, Vec<ties::Tie>)>,
    ) -> Result<Self, String> {
        let mut tied = Ties::default();
        let digest = match digest {
            None => None,
            Some((v, t)) => {
                tied = Ties(t);
                tied.check(n)
                    .map_err(|e| format!("a t-digest is not one tfr wrote: {e}"))?;
                check_digest(v, n)?;
                let d: TDigest =
                    serde_json::from_value(v.clone()).map_err(|e| format!("a t-digest does not decode: {e}"))?;
                if d.count() != n as f64 {
                    return Err(format!("a t-digest holds {} values, not {n}", d.count()));
                }
                Some(Box::new(d))
            }
        };
        let mut q = Quantiles {
            n: 0,
            neg_inf,
            pos_inf,
            exact: Vec::new(),
            digest,
            pending: Vec::new(),
            ready: None,
            ties: tied,
        };
        if q.digest.is_some() {
            q.n = n;
        } else {
            // As tfr keeps them: at most EXACT_DISTINCT distinct finite
            // values, each counted at least once (their sum is `n`,
            // checked without overflowing).
            if exact.len() > EXACT_DISTINCT {
                return Err(format!(
                    "exact quantiles hold {} distinct values, more than {EXACT_DISTINCT}",
                    exact.len()
                ));
            }
            if exact.iter().any(|&(v, c)| !v.is_finite() || c == 0) {
                return Err("exact quantiles hold a value that is not finite or counted 0 times".into());
            }
            let total = exact.iter().try_fold(0u64, |t, r| t.checked_add(r.1));
            if total != Some(n) {
                return Err(format!("exact quantiles do not hold {n} values"));
            }
            let mut runs = exact;
            runs.sort_by(|a, b| a.0.total_cmp(&b.0));
            if runs.windows(2).any(|w| w[0].0.total_cmp(&w[1].0).is_eq()) {
                return Err("exact quantiles hold a value twice".into());
            }
            q.add_runs(&runs, None);
            if q.n != n {
                return Err(format!("exact quantiles hold {} values, not {n}", q.n));
            }
        }
        Ok(q)
    }
}

/// Count, mean and sum of squared deviations from the mean.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    /// Values counted.
    pub n: u64,
    /// Their mean.
    pub mean: f64,
    /// The sum of squared deviations from the mean (Welford).
    pub m2: f64,
}

impl Moments {
    #[inline]
    /// Adds one value.
    pub fn add(&mut self, v: f64) {
        self.n += 1;
        let d = v - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (v - self.mean);
    }

    /// Adds the values `o` counted (Chan et al.'s parallel update).
    pub fn merge(&mut self, o: &Moments) {
        if o.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *o;
            return;
        }
        let n = self.n + o.n;
        let d = o.mean - self.mean;
        self.mean += d * o.n as f64 / n as f64;
        self.m2 += o.m2 + d * d * self.n as f64 * o.n as f64 / n as f64;
        self.n = n;
    }

    /// Population standard deviation (TFDV's).
    pub fn std_dev(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            (self.m2.max(0.0) / self.n as f64).sqrt()
        }
    }
}

/// Statistics of the numbers of one kind of a feature.
#[derive(Clone, Debug, Default)]
pub struct Numeric {
    /// Finite values (NaN and infinities are counted by the caller).
    pub moments: Moments,
    /// Zeros.
    pub zeros: u64,
    /// Quantiles of every value but NaN.
    pub quantiles: Quantiles,
}

impl Numeric {
    #[inline]
    /// Adds one value.
    pub fn add(&mut self, v: f64) {
        if v.is_finite() {
            self.moments.add(v);
        }
        self.zeros += u64::from(v == 0.0);
        self.quantiles.add(v);
    }

    fn merge(&mut self, o: &Numeric) {
        self.moments.merge(&o.moments);
        self.zeros += o.zeros;
        self.quantiles.merge(&o.quantiles);
    }
}

/// A hasher for keys that are already hashes (xxh3): the key itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdBuild;

/// The hasher of [`IdBuild`].
#[derive(Clone, Copy, Debug, Default)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed with it; anything else is mixed in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

impl std::hash::BuildHasher for IdBuild {
    type Hasher = IdHasher;

    fn build_hasher(&self) -> IdHasher {
        IdHasher(0)
    }
}

/// The full statistics of one feature, besides what
/// [`super::stats::FeatureStats`] always keeps.
#[derive(Clone, Debug, Default)]
pub struct Deep {
    /// Values per occurrence (record; step for feature lists).
    pub counts: Quantiles,
    /// Feature lists: steps per record.
    pub steps: Quantiles,
    /// int64 values.
    pub int: Numeric,
    /// float values.
    pub float: Numeric,
    /// Bytes values: sizes, distinct count and most frequent values.
    pub sizes: Quantiles,
    /// The distinct bytes values.
    pub unique: Distinct,
    /// The most frequent bytes values.
    pub top: TopK,
}

impl Deep {
    /// Folds what was added since the last call (per batch, on the
    /// worker's thread).
    pub fn seal(&mut self) {
        self.counts.seal();
        self.steps.seal();
        self.int.quantiles.seal();
        self.float.quantiles.seal();
        self.sizes.seal();
        self.top.prune();
    }

    /// Adds what `o` collected (another batch or input).
    pub fn merge(&mut self, o: &Deep) {
        self.counts.merge(&o.counts);
        self.steps.merge(&o.steps);
        self.int.merge(&o.int);
        self.float.merge(&o.float);
        self.sizes.merge(&o.sizes);
        self.unique.merge(&o.unique);
        self.top.merge(&o.top);
    }

    #[inline]
    /// Adds one bytes value: its size, hash and count.
    pub fn add_bytes(&mut self, v: &[u8]) {
        let h = value_hash(v);
        self.sizes.add(v.len() as f64);
        self.unique.add_hash(h);
        self.top.add_hashed(h, v, 1);
    }
}

#[cfg(test)]
#[path = "deep_tests.rs"]
mod tests;

mod distinct;
pub use distinct::{value_hash, Distinct};
mod largest;
pub use largest::{LARGEST_KEPT, LARGEST_VALUE_MAX};
pub mod ties;
use ties::Ties;
mod top;
pub(crate) use top::Counter;
pub use top::TopK;

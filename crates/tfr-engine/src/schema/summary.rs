//! What a feature's full statistics say, as TFDV reports them: the numbers
//! every rendering of `tfr stats` (table, TFDV's statistics file, the
//! inferred TFDV schema) takes from [`FeatureStats`] and its [`Deep`] part.

use super::deep::{Deep, Quantiles};
use super::stats::{FeatureStats, KINDS};
use crate::example::Kind;

/// Buckets of the histograms (TFDV's default).
pub const BUCKETS: usize = 10;
/// Most frequent values reported (TFDV's default).
pub const TOP_VALUES: usize = 20;
/// Values in the rank histogram (TFDV's default).
pub const RANK_BUCKETS: usize = 1000;

/// TFDV's `FeatureNameStatistics.Type` of a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsType {
    /// int64 values.
    Int,
    /// float values.
    Float,
    /// Bytes, every value valid UTF-8.
    String,
    /// Bytes, not all UTF-8.
    Bytes,
}

impl StatsType {
    /// The name TFDV writes (`INT`, `FLOAT`, `STRING`, `BYTES`).
    pub fn name(self) -> &'static str {
        match self {
            StatsType::Int => "INT",
            StatsType::Float => "FLOAT",
            StatsType::String => "STRING",
            StatsType::Bytes => "BYTES",
        }
    }

    /// The enum number in statistics.proto.
    pub fn number(self) -> i32 {
        match self {
            StatsType::Int => 0,
            StatsType::Float => 1,
            StatsType::String => 2,
            StatsType::Bytes => 3,
        }
    }
}

/// A histogram bucket: low, high, sample count.
pub type Bucket = (f64, f64, f64);

/// Numbers of one feature.
#[derive(Clone, Debug, PartialEq)]
pub struct NumSummary {
    /// The finite values' mean.
    pub mean: f64,
    /// Their standard deviation.
    pub std_dev: f64,
    /// Zeros.
    pub zeros: u64,
    /// The smallest finite value.
    pub min: f64,
    /// The median.
    pub median: f64,
    /// The largest finite value.
    pub max: f64,
    /// NaN values.
    pub nan: u64,
    /// +infinity values.
    pub pos_inf: u64,
    /// -infinity values.
    pub neg_inf: u64,
    /// Equal-width buckets between the finite min and max, with exact
    /// counts (a value on a bound in the upper bucket; the last closed):
    /// tfr's own table and report.
    pub standard: Vec<Bucket>,
    /// The same buckets as TFDV counts them ([`tfdv_standard`]):
    /// interpolated from its quantiles, for TFDV's statistics file.
    pub tfdv_standard: Vec<Bucket>,
    /// Equal-mass buckets ([`quantile_buckets`]).
    pub quantiles: Vec<Bucket>,
    /// The quantiles are exact (else within the sketch's bound).
    pub exact: bool,
}

/// Bytes values of one feature.
#[derive(Clone, Debug, PartialEq)]
pub struct BytesSummary {
    /// Distinct values.
    pub unique: u64,
    /// Whether `unique` is exact (else a HyperLogLog estimate).
    pub unique_exact: bool,
    /// Most frequent values with their counts (at most [`TOP_VALUES`]
    /// here; [`RANK_BUCKETS`] in `ranked`).
    pub top: Vec<(Vec<u8>, u64)>,
    /// The most frequent values for TFDV's rank histogram.
    pub ranked: Vec<(Vec<u8>, u64)>,
    /// How far below the truth a count may be (0: exact).
    pub top_error: u64,
    /// Every distinct value counted exactly and kept whole (else the
    /// most frequent ones, by their start).
    pub top_exact: bool,
    /// The values' mean length.
    pub avg_len: f64,
    /// The shortest value's length.
    pub min_len: u64,
    /// The longest value's length.
    pub max_len: u64,
    /// Values that are not UTF-8.
    pub invalid_utf8: u64,
    /// Media types by count (see [`crate::example::media`]).
    pub media: Vec<(&'static str, u64)>,
    /// Equal-width buckets of the values' sizes in bytes.
    pub sizes: Vec<Bucket>,
}

/// Everything TFDV reports for one feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// TFDV's type (`None`: no values).
    pub ty: Option<StatsType>,
    /// Records (occurrences) where it is present.
    pub present: u64,
    /// Records where it is missing.
    pub missing: u64,
    /// Values per occurrence: the fewest (then the most, the mean, the total).
    pub min_values: u64,
    /// The most.
    pub max_values: u64,
    /// The mean.
    pub avg_values: f64,
    /// The total.
    pub tot_values: u64,
    /// Quantile buckets of the values per occurrence.
    pub values_histogram: Vec<Bucket>,
    /// Feature lists: quantile buckets of the steps per record.
    pub steps_histogram: Option<Vec<Bucket>>,
    /// The numbers' summary (int and float features).
    pub num: Option<NumSummary>,
    /// The bytes values' summary (string and bytes features).
    pub bytes: Option<BytesSummary>,
}

/// Quantiles TFDV computes for its standard histogram and median: its
/// `_NUM_QUANTILES_FACTOR_FOR_STD_HISTOGRAM` (100) times [`BUCKETS`].
pub const FINE_QUANTILES: usize = 100 * BUCKETS;

/// TFDV's quantile histogram: [`BUCKETS`] buckets bounded by the quantiles
/// `i / BUCKETS` ([`Quantiles::boundaries`]), each holding the values
/// between its bounds, ties spread over the buckets they bound
/// ([`bin_weights`]).
pub fn quantile_buckets(q: &Quantiles) -> Vec<Bucket> {
    bin_weights(&q.boundaries(BUCKETS))
}

/// TFDV's `quantiles_util._get_bin_weights`: the buckets between
/// successive boundaries `(value, cumulative weight)`, each weighing the
/// difference of the cumulative weights; buckets sharing an upper bound
/// share their weight evenly; the weight at the first boundary (the values
/// equal to the minimum) is spread over the leading buckets equal to the
/// first.
pub fn bin_weights(bounds: &[(f64, f64)]) -> Vec<Bucket> {
    if bounds.len() < 2 {
        return Vec::new();
    }
    let len = bounds.len() - 1;
    let low = |i: usize| bounds[i].0;
    let high = |i: usize| bounds[i + 1].0;
    let mut counts: Vec<f64> = bounds.windows(2).map(|w| w[1].1 - w[0].1).collect();
    let mut i = 0;
    while i < len {
        let mut j = i + 1;
        while j < len && high(i) == high(j) {
            j += 1;
        }
        if j > i + 1 {
            let share = counts[i..j].iter().sum::<f64>() / (j - i) as f64;
            counts[i..j].iter_mut().for_each(|c| *c = share);
        }
        i = j;
    }
    let same = (0..len).take_while(|&i| low(0) == low(i) && high(0) == high(i)).count();
    if same > 0 {
        let share = bounds[0].1 / same as f64;
        counts[..same].iter_mut().for_each(|c| *c += share);
    }
    (0..len).map(|i| (low(i), high(i), counts[i])).collect()
}

/// The share of a quantile bucket within `[lo, hi]` (TFDV's
/// `quantiles_util._overlap`): (fraction, precedes, follows).
fn overlap(b: Bucket, lo: f64, hi: f64, first: bool) -> (f64, bool, bool) {
    let (bl, bh) = (b.0, b.1);
    if bh == bl && bl == lo {
        return if first { (1.0, false, false) } else { (0.0, true, false) };
    }
    if bh < lo {
        return (0.0, true, false);
    }
    if bl > hi {
        return (0.0, false, true);
    }
    if lo <= bl && hi >= bh {
        return (1.0, false, false);
    }
    if lo <= bl {
        return ((hi - bl) / (bh - bl), false, false);
    }
    if hi >= bh {
        return ((bh - lo) / (bh - bl), false, false);
    }
    ((hi - lo) / (bh - bl), false, false)
}

/// `numpy.linspace(lo, hi, n + 1)`, as numpy computes it.
fn linspace(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let delta = hi - lo;
    let step = delta / n as f64;
    let mut v: Vec<f64> = (0..=n)
        .map(|i| {
            let y = if step == 0.0 {
                i as f64 / n as f64 * delta
            } else {
                i as f64 * step
            };
            y + lo
        })
        .collect();
    v[n] = hi;
    v
}

/// TFDV's standard histogram (`quantiles_util.generate_equi_width_histogram`):
/// [`BUCKETS`] equal widths over the finite values, each bucket's count
/// interpolated linearly from the [`FINE_QUANTILES`] quantile buckets
/// (`bounds`); the infinities in a bucket of their own at either end; with
/// no finite value, one bucket from `+inf` to `-inf` (TFDV's unset finite
/// range) holding every value.
pub fn tfdv_standard(bounds: &[(f64, f64)], finite: Option<(f64, f64)>, pos_inf: u64) -> Vec<Bucket> {
    let Some(&(_, total)) = bounds.last() else {
        return Vec::new();
    };
    let Some((min, max)) = finite else {
        return vec![(f64::INFINITY, f64::NEG_INFINITY, total)];
    };
    // Strip the infinities.
    let neg = bounds.iter().take_while(|b| b.0 == f64::NEG_INFINITY).count();
    let neg_count = if neg > 0 { bounds[neg - 1].1 } else { 0.0 };
    let mut q: Vec<(f64, f64)> = bounds[neg..].iter().map(|&(v, c)| (v, c - neg_count)).collect();
    if pos_inf > 0 {
        let finite_count = q.last().map_or(0.0, |b| b.1) - pos_inf as f64;
        q.retain(|b| b.0 < f64::INFINITY);
        q.push((max, finite_count));
    }
    let fine = bin_weights(&q);
    let edges = if min == max {
        vec![min, max]
    } else {
        linspace(min, max, BUCKETS)
    };
    if edges.iter().any(|e| !e.is_finite()) {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(edges.len() + 1);
    if neg_count != 0.0 {
        out.push((f64::NEG_INFINITY, f64::NEG_INFINITY, neg_count));
    }
    let mut start = 0;
    for (i, w) in edges.windows(2).enumerate() {
        let (lo, hi) = (w[0], w[1]);
        let mut count = 0.0;
        for (cur, b) in fine.iter().enumerate().skip(start) {
            let (share, precedes, follows) = overlap(*b, lo, hi, i == 0);
            if follows {
                break;
            }
            if precedes {
                start = cur;
            }
            count += share * b.2;
        }
        out.push((lo, hi, count));
    }
    if pos_inf > 0 {
        out.push((f64::INFINITY, f64::INFINITY, pos_inf as f64));
    }
    out
}

/// The type TFDV gives the feature (its one kind; the first seen when
/// several were).
pub fn stats_type(f: &FeatureStats) -> Option<StatsType> {
    let kind = f.kinds().first().copied()?;
    Some(match kind {
        Kind::Int64 => StatsType::Int,
        Kind::Float => StatsType::Float,
        Kind::Bytes if f.bytes.utf8 == f.bytes.count => StatsType::String,
        Kind::Bytes => StatsType::Bytes,
        Kind::None => return None,
    })
}

/// The summary of a feature present in `present` of `total` records (or
/// examples). `None` when the feature was collected without full
/// statistics.
pub fn summarize(f: &FeatureStats, total: u64) -> Option<Summary> {
    let deep: &Deep = f.deep.as_deref()?;
    let ty = stats_type(f);
    let tot_values: u64 = KINDS
        .iter()
        .zip(f.kind_count)
        .filter(|(_, n)| *n > 0)
        .map(|(k, _)| match k {
            Kind::Int64 => f.int64.count,
            Kind::Float => f.float.count,
            _ => f.bytes.count,
        })
        .sum();
    // TFDV's presence: occurrences with a kind set (an empty `Feature {}`
    // is missing to it); for feature lists, records holding the list.
    let lists = f.steps.n > 0;
    let present = if lists { f.present } else { deep.counts.count() };
    let (min_values, max_values) = if lists {
        f.values.range().unwrap_or((0, 0))
    } else {
        (
            deep.counts.quantile(0.0).unwrap_or(0.0) as u64,
            deep.counts.quantile(1.0).unwrap_or(0.0) as u64,
        )
    };
    let occurrences = if lists { f.values.n } else { present };
    let num = match ty {
        Some(StatsType::Int) => {
            let n = &deep.int;
            let range = (f.int64.min as f64, f.int64.max as f64);
            Some(numeric(
                &n.quantiles,
                range,
                n.moments.mean,
                n.moments.std_dev(),
                n.zeros,
                (0, 0, 0),
            ))
        }
        Some(StatsType::Float) => {
            let n = &deep.float;
            let fl = &f.float;
            let range = fl.range().map_or((0.0, 0.0), |(a, b)| (f64::from(a), f64::from(b)));
            // Infinities are in TFDV's mean (inf, -inf, or NaN for both),
            // and make its deviation 0; the histograms hold finite values.
            let (mean, std_dev) = match (fl.pos_inf > 0, fl.neg_inf > 0) {
                (false, false) => (n.moments.mean, n.moments.std_dev()),
                (true, false) => (f64::INFINITY, 0.0),
                (false, true) => (f64::NEG_INFINITY, 0.0),
                (true, true) => (f64::NAN, 0.0),
            };
            Some(numeric(
                &n.quantiles,
                range,
                mean,
                std_dev,
                n.zeros,
                (fl.nan, fl.pos_inf, fl.neg_inf),
            ))
        }
        _ => None,
    };
    let bytes = match ty {
        Some(StatsType::String | StatsType::Bytes) => {
            let b = &f.bytes;
            let ranked: Vec<(Vec<u8>, u64)> = deep
                .top
                .top(RANK_BUCKETS)
                .into_iter()
                .map(|(kept, len, n)| (label(kept, len), n))
                .collect();
            Some(BytesSummary {
                // (an estimate never says more than there are values)
                unique: deep.unique.count().min(b.count),
                unique_exact: deep.unique.is_exact(),
                top: ranked.iter().take(TOP_VALUES).cloned().collect(),
                ranked,
                top_error: deep.top.error(),
                top_exact: deep.top.is_exact(),
                avg_len: if b.count == 0 {
                    0.0
                } else {
                    b.total_len as f64 / b.count as f64
                },
                min_len: if b.count == 0 { 0 } else { b.shortest },
                max_len: b.longest,
                invalid_utf8: b.count.saturating_sub(b.utf8),
                media: b.media_types().into_iter().map(|(m, n)| (m.name(), n)).collect(),
                sizes: if deep.sizes.count() == 0 {
                    Vec::new()
                } else {
                    deep.sizes.equal_width(b.shortest as f64, b.longest as f64, BUCKETS)
                },
            })
        }
        _ => None,
    };
    Some(Summary {
        ty,
        present,
        missing: total.saturating_sub(present),
        min_values,
        max_values,
        avg_values: if occurrences == 0 {
            0.0
        } else {
            tot_values as f64 / occurrences as f64
        },
        tot_values,
        values_histogram: quantile_buckets(&deep.counts),
        steps_histogram: lists.then(|| quantile_buckets(&deep.steps)),
        num,
        bytes,
    })
}

/// How a ranked value is shown: whole; a long text cut at a character
/// boundary, then `…`; a long binary value by its start (still not UTF-8).
fn label(kept: &[u8], len: usize) -> Vec<u8> {
    if kept.len() == len {
        return kept.to_vec();
    }
    match std::str::from_utf8(kept) {
        Ok(t) => format!("{t}…").into_bytes(),
        Err(e) if e.valid_up_to() + 4 > kept.len() => {
            format!("{}…", std::str::from_utf8(&kept[..e.valid_up_to()]).unwrap_or("")).into_bytes()
        }
        Err(_) => kept.to_vec(),
    }
}

/// `range`: the exact min and max (infinities included); the histograms
/// cover the finite values.
fn numeric(
    q: &Quantiles,
    range: (f64, f64),
    mean: f64,
    std_dev: f64,
    zeros: u64,
    special: (u64, u64, u64),
) -> NumSummary {
    let finite = q.finite_range();
    let (min, max) = if q.count() == 0 { (0.0, 0.0) } else { range };
    let fine = q.boundaries(FINE_QUANTILES);
    let coarse: Vec<(f64, f64)> = fine.iter().step_by(FINE_QUANTILES / BUCKETS).copied().collect();
    NumSummary {
        mean,
        std_dev,
        zeros,
        min,
        median: fine.get(FINE_QUANTILES / 2).map_or(0.0, |b| b.0),
        max,
        nan: special.0,
        pos_inf: special.1,
        neg_inf: special.2,
        standard: {
            // The finite values in equal widths; infinities in buckets of
            // their own at either end (as TFDV draws them).
            let mut h = match finite {
                None => Vec::new(),
                Some((lo, hi)) => q.equal_width(lo, hi, BUCKETS),
            };
            if special.2 > 0 {
                h.insert(0, (f64::NEG_INFINITY, f64::NEG_INFINITY, special.2 as f64));
            }
            if special.1 > 0 {
                h.push((f64::INFINITY, f64::INFINITY, special.1 as f64));
            }
            h
        },
        tfdv_standard: tfdv_standard(&fine, finite, special.1),
        quantiles: bin_weights(&coarse),
        exact: q.is_exact(),
    }
}

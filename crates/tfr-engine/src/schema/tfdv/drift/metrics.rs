//! The distances TFDV 1.16.1's comparators measure between two features'
//! statistics (its C++ `anomalies/metrics.cc`), computed in the same order
//! of floating-point operations so the figures are the same to the last
//! bits, not only to the formulas:
//!
//! - categorical values are the statistics' rank histogram (label → count;
//!   a label seen twice keeps its first count, as `std::map::insert`),
//!   in byte order of the labels;
//! - L∞ ([`linf`]): each side's counts divided by its own total, the
//!   largest absolute difference (the last label in byte order among equal
//!   largest ones names it);
//! - normalized absolute difference ([`normalized_abs_difference`]): both
//!   sides' counts divided by the sum of both totals, the largest absolute
//!   difference;
//! - Jensen-Shannon divergence ([`jensen_shannon`]): of the value counts
//!   when both sides have them, else of the numeric histograms (standard,
//!   or quantiles when asked) after [`align`]ing them to the same buckets;
//!   base-2 logarithms, so it lies in [0, 1].

use super::super::statistics::{FeatureStat, Histogram};
use std::collections::BTreeMap;

/// A feature's categorical values and counts (its rank histogram).
pub fn value_counts(f: &FeatureStat) -> BTreeMap<Vec<u8>, f64> {
    let mut out = BTreeMap::new();
    if let Some(s) = &f.string {
        for (label, n) in &s.rank_histogram {
            out.entry(label.clone()).or_insert(*n);
        }
    }
    out
}

fn sum(m: &BTreeMap<Vec<u8>, f64>) -> f64 {
    m.values().fold(0.0, |a, v| a + v)
}

fn scale(m: &BTreeMap<Vec<u8>, f64>, by: f64) -> BTreeMap<Vec<u8>, f64> {
    if by == 0.0 {
        return m.clone();
    }
    m.iter().map(|(k, v)| (k.clone(), v / by)).collect()
}

/// The largest |a - b| over the labels of both, and its label.
fn largest_difference(a: BTreeMap<Vec<u8>, f64>, b: &BTreeMap<Vec<u8>, f64>) -> (Vec<u8>, f64) {
    let mut diff = a;
    for (k, v) in b {
        *diff.entry(k.clone()).or_insert(0.0) -= v;
    }
    let mut best = (Vec::new(), 0.0);
    for (k, v) in diff {
        let v = v.abs();
        if v >= best.1 {
            best = (k, v);
        }
    }
    best
}

/// TFDV's `LInftyDistance`: each side normalized by its own total.
pub fn linf(a: &FeatureStat, b: &FeatureStat) -> (Vec<u8>, f64) {
    let (ca, cb) = (value_counts(a), value_counts(b));
    let (sa, sb) = (sum(&ca), sum(&cb));
    largest_difference(scale(&ca, sa), &scale(&cb, sb))
}

/// TFDV's `NormalizedAbsoluteDifference`: both sides divided by the sum
/// of both totals.
pub fn normalized_abs_difference(a: &FeatureStat, b: &FeatureStat) -> (Vec<u8>, f64) {
    let (ca, cb) = (value_counts(a), value_counts(b));
    let total = sum(&ca) + sum(&cb);
    largest_difference(scale(&ca, total), &scale(&cb, total))
}

/// Why a Jensen-Shannon divergence has no value (TFDV then logs a warning
/// and reports no measurement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoDivergence {
    /// One side has value counts, the other a histogram.
    Mixed,
    /// A side has neither (or an empty histogram).
    Missing,
    /// A count is zero or negative (TFDV refuses those value counts).
    NonPositive,
    /// The histograms' buckets overlap or are out of order.
    Malformed,
}

impl NoDivergence {
    /// Why, in words.
    pub fn reason(self) -> &'static str {
        match self {
            NoDivergence::Mixed => "one side is numeric, the other categorical",
            NoDivergence::Missing => "no values or histogram to compare on one side",
            NoDivergence::NonPositive => "a value count is not positive",
            NoDivergence::Malformed => "a histogram's buckets overlap or are out of order",
        }
    }
}

/// TFDV's `JensenShannonDivergence` of two features: of their value
/// counts when both have some, else of their histograms (`quantiles`: the
/// quantiles histogram, else the standard one).
pub fn jensen_shannon(a: &FeatureStat, b: &FeatureStat, quantiles: bool) -> Result<f64, NoDivergence> {
    let (ca, cb) = (value_counts(a), value_counts(b));
    if !ca.is_empty() && !cb.is_empty() {
        return jsd_counts(&ca, &cb);
    }
    let ha = a.num.as_ref().and_then(|n| n.histogram(quantiles));
    let hb = b.num.as_ref().and_then(|n| n.histogram(quantiles));
    match (ha, hb) {
        (Some(ha), Some(hb)) => jsd_histograms(ha, hb),
        (ha, hb) if ca.is_empty() != cb.is_empty() && ha.is_none() != hb.is_none() => Err(NoDivergence::Mixed),
        _ => Err(NoDivergence::Missing),
    }
}

fn jsd_counts(a: &BTreeMap<Vec<u8>, f64>, b: &BTreeMap<Vec<u8>, f64>) -> Result<f64, NoDivergence> {
    let mut both: BTreeMap<&[u8], (f64, f64)> = BTreeMap::new();
    let (mut a_sum, mut b_sum) = (0.0, 0.0);
    for (k, v) in a {
        if *v <= 0.0 {
            return Err(NoDivergence::NonPositive);
        }
        both.entry(k).or_default().0 += v;
        a_sum += v;
    }
    for (k, v) in b {
        if *v <= 0.0 {
            return Err(NoDivergence::NonPositive);
        }
        both.entry(k).or_default().1 += v;
        b_sum += v;
    }
    let mut kl = 0.0;
    for (na, nb) in both.values() {
        let p = na / a_sum;
        let q = nb / b_sum;
        let m = (p + q) / 2.0;
        if *na != 0.0 {
            kl += p * (p / m).log2();
        }
        if *nb != 0.0 {
            kl += q * (q / m).log2();
        }
    }
    Ok(kl / 2.0)
}

/// A histogram being aligned: its buckets and NaN count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Buckets {
    /// Low, high, count.
    pub buckets: Vec<(f64, f64, f64)>,
    /// `num_nan` (dropped by a rebucketing, as in TFDV).
    pub num_nan: f64,
}

/// Finite buckets of non-zero width, the point masses by value, and the
/// mass of buckets with an infinite (or NaN) bound.
fn strip(h: &Histogram) -> (Buckets, BTreeMap<OrdF64, f64>, f64) {
    let mut out = Buckets {
        buckets: Vec::new(),
        num_nan: h.num_nan as f64,
    };
    let mut points: BTreeMap<OrdF64, f64> = BTreeMap::new();
    let mut infinite = 0.0;
    for &(lo, hi, n) in &h.buckets {
        if !lo.is_finite() || !hi.is_finite() {
            infinite += n;
        } else if lo == hi {
            *points.entry(OrdF64(lo)).or_insert(0.0) += n;
        } else {
            out.buckets.push((lo, hi, n));
        }
    }
    (out, points, infinite)
}

/// A finite double ordered as C++'s `std::set<double>` orders it (-0 and
/// 0 are one key).
#[derive(Clone, Copy, Debug)]
struct OrdF64(f64);

impl PartialEq for OrdF64 {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl Eq for OrdF64 {}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.partial_cmp(&o.0).unwrap_or(std::cmp::Ordering::Equal)
    }
}

fn boundaries(b: &Buckets) -> std::collections::BTreeSet<OrdF64> {
    b.buckets
        .iter()
        .flat_map(|&(lo, hi, _)| [OrdF64(lo), OrdF64(hi)])
        .collect()
}

/// TFDV's `RebucketHistogram`: the buckets split at every boundary,
/// counts spread uniformly over each bucket's width.
fn rebucket(bounds: &[f64], h: &Buckets) -> Result<Buckets, NoDivergence> {
    let at = |i: usize| bounds.get(i).copied().ok_or(NoDivergence::Malformed);
    let last = bounds.len().saturating_sub(1);
    let mut out = Vec::new();
    let mut i = 0usize;
    for &(lo, hi, n) in &h.buckets {
        while lo > at(i)? {
            if i + 1 > last {
                return Err(NoDivergence::Malformed);
            }
            out.push((at(i)?, at(i + 1)?, 0.0));
            i += 1;
        }
        if lo == hi && lo == at(i)? {
            out.push((at(i)?, at(i + 1)?, n));
            i += 1;
            continue;
        }
        let mut covered = Vec::new();
        while hi > at(i)? {
            covered.push(at(i)?);
            i += 1;
        }
        covered.push(at(i)?);
        let range = hi - lo;
        for w in covered.windows(2) {
            out.push((w[0], w[1], ((w[1] - w[0]) / range) * n));
        }
    }
    for j in i..last {
        out.push((at(j)?, at(j + 1)?, 0.0));
    }
    Ok(Buckets {
        buckets: out,
        num_nan: 0.0,
    })
}

/// TFDV's `AlignHistograms`: both histograms on the union of their bucket
/// boundaries, then one bucket per point mass, then the infinite masses
/// (each in a bucket of its own), then the NaNs (two buckets) when either
/// side still has a NaN count.
pub fn align(a: &Histogram, b: &Histogram) -> Result<(Buckets, Buckets), NoDivergence> {
    let (mut ha, pa, ia) = strip(a);
    let (mut hb, pb, ib) = strip(b);
    let (ba, bb) = (boundaries(&ha), boundaries(&hb));
    if ba != bb {
        let all: Vec<f64> = ba.union(&bb).map(|x| x.0).collect();
        ha = rebucket(&all, &ha)?;
        hb = rebucket(&all, &hb)?;
    }
    let points: std::collections::BTreeSet<OrdF64> = pa.keys().chain(pb.keys()).copied().collect();
    for p in points {
        ha.buckets.push((0.0, 0.0, pa.get(&p).copied().unwrap_or(0.0)));
        hb.buckets.push((0.0, 0.0, pb.get(&p).copied().unwrap_or(0.0)));
    }
    if ia != 0.0 {
        ha.buckets.push((0.0, 0.0, ia));
        hb.buckets.push((0.0, 0.0, 0.0));
    }
    if ib != 0.0 {
        ha.buckets.push((0.0, 0.0, 0.0));
        hb.buckets.push((0.0, 0.0, ib));
    }
    if ha.num_nan > 0.0 || hb.num_nan > 0.0 {
        ha.buckets.push((0.0, 0.0, 0.0));
        ha.buckets.push((0.0, 0.0, ha.num_nan));
        hb.buckets.push((0.0, 0.0, hb.num_nan));
        hb.buckets.push((0.0, 0.0, 0.0));
    }
    Ok((ha, hb))
}

fn normalized(h: &Buckets) -> Result<Vec<f64>, NoDivergence> {
    let total = h.buckets.iter().fold(0.0, |a, b| a + b.2);
    if total == 0.0 {
        return Err(NoDivergence::Missing);
    }
    Ok(h.buckets.iter().map(|b| b.2 / total).collect())
}

fn kl(p: &[f64], q: &[f64]) -> f64 {
    let mut out = 0.0;
    for (p, q) in p.iter().zip(q) {
        if *p > 0.0 && *q > 0.0 {
            out += p * (p / q).log2();
        }
    }
    out
}

/// The Jensen-Shannon divergence of two numeric histograms.
pub fn jsd_histograms(a: &Histogram, b: &Histogram) -> Result<f64, NoDivergence> {
    let (ha, hb) = align(a, b)?;
    if ha.buckets.len() != hb.buckets.len() {
        return Err(NoDivergence::Malformed);
    }
    let p = normalized(&ha)?;
    let q = normalized(&hb)?;
    let m: Vec<f64> = p.iter().zip(&q).map(|(p, q)| (p + q) / 2.0).collect();
    Ok((kl(&p, &m) + kl(&q, &m)) / 2.0)
}

/// A figure as absl's `SixDigits` writes it in TFDV's descriptions (`%g`:
/// six significant digits, exponent form outside 1e-4 ..= 1e6).
pub fn six_digits(v: f64) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "nan".into()
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let s = crate::schema::describe::round_sig(v, 6);
    match s.split_once('e') {
        Some((m, e)) => {
            let e: i32 = e.parse().unwrap_or(0);
            format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
        }
        None => s,
    }
}

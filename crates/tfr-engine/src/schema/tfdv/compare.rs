//! Two datasets' statistics side by side (`tfr stats --compare`, `tfr
//! report --compare`): per feature of either dataset its two statistics,
//! the distances TFDV's drift and skew comparators measure between them
//! ([`super::drift::metrics`]: L∞ of the value counts for categorical
//! features, the Jensen-Shannon divergence of the value counts or of the
//! standard histograms), and the order the comparison is shown in, most
//! divergent first ([`Row::order`]): the features in one dataset only,
//! then those of another type, then by the larger of L∞ and JSD, then
//! those with neither figure; ties by path.
//!
//! Both sides are [`DatasetStats`], whether they come from records
//! ([`super::statistics::from_scan`]) or from a statistics file
//! ([`sniff`] tells one from a file of records).

use super::drift::metrics::{self, NoDivergence};
use super::statistics::{self, DatasetStats, FeatureStat, StatType, StatsList};
use crate::error::Result;

/// Which of the two datasets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first dataset (the positional inputs).
    A,
    /// The second (`--compare`).
    B,
}

impl Side {
    /// `A` or `B`.
    pub fn letter(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }
}

/// One feature of either dataset, compared.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    /// The feature's path.
    pub path: &'a str,
    /// Its statistics in the first dataset.
    pub a: Option<&'a FeatureStat>,
    /// In the second.
    pub b: Option<&'a FeatureStat>,
    /// L∞ distance of the value counts (categorical features: either side
    /// has a rank histogram) and the value with the largest difference.
    pub linf: Option<(Vec<u8>, f64)>,
    /// Jensen-Shannon divergence (value counts, else standard histograms),
    /// or why there is none.
    pub jsd: std::result::Result<f64, NoDivergence>,
}

/// Where a row stands in the order: first the features in one dataset
/// only, then those of another type, then those with a figure, then the
/// rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// In one dataset only.
    OneOnly,
    /// Of different types in the two.
    TypeChanged,
    /// Compared: L∞ or JSD measured.
    Measured,
    /// No figure (no values to compare).
    Unmeasured,
}

impl<'a> Row<'a> {
    /// The one dataset the feature is in, when it is in one only.
    pub fn only_in(&self) -> Option<Side> {
        match (self.a, self.b) {
            (Some(_), None) => Some(Side::A),
            (None, Some(_)) => Some(Side::B),
            _ => None,
        }
    }

    /// Both sides' statistics types, when they differ.
    pub fn type_change(&self) -> Option<(StatType, StatType)> {
        let (a, b) = (self.a?, self.b?);
        (a.ty != b.ty).then_some((a.ty, b.ty))
    }

    /// The figure the order sorts by: the larger of L∞ and JSD.
    pub fn divergence(&self) -> Option<f64> {
        let linf = self.linf.as_ref().map(|l| l.1);
        let jsd = self.jsd.ok();
        match (linf, jsd) {
            (Some(l), Some(j)) => Some(l.max(j)),
            (l, j) => l.or(j),
        }
    }

    /// Where the row stands in the order.
    pub fn standing(&self) -> Standing {
        if self.only_in().is_some() {
            Standing::OneOnly
        } else if self.type_change().is_some() {
            Standing::TypeChanged
        } else if self.divergence().is_some() {
            Standing::Measured
        } else {
            Standing::Unmeasured
        }
    }

    /// The order of the comparison: [`Standing`], then the larger of L∞
    /// and JSD, largest first, then the path.
    pub fn order(&self, other: &Row<'_>) -> std::cmp::Ordering {
        let d = |r: &Row<'_>| r.divergence().filter(|v| !v.is_nan()).unwrap_or(-1.0);
        self.standing()
            .cmp(&other.standing())
            .then(d(other).total_cmp(&d(self)))
            .then(self.path.cmp(other.path))
    }

    /// The share of the dataset's examples with the feature (0 when the
    /// dataset has none).
    pub fn present(f: &FeatureStat, d: &DatasetStats) -> f64 {
        if d.num_examples == 0 {
            0.0
        } else {
            f.common.num_non_missing as f64 / d.num_examples as f64
        }
    }

    /// Categorical values seen on one side only (in the rank histograms),
    /// in byte order: those of `side`.
    pub fn values_only_in(&self, side: Side) -> Vec<Vec<u8>> {
        let (Some(a), Some(b)) = (self.a, self.b) else {
            return Vec::new();
        };
        let (mine, theirs) = match side {
            Side::A => (metrics::value_counts(a), metrics::value_counts(b)),
            Side::B => (metrics::value_counts(b), metrics::value_counts(a)),
        };
        if theirs.is_empty() {
            return Vec::new();
        }
        mine.into_keys().filter(|k| !theirs.contains_key(k)).collect()
    }

    /// [`Self::values_only_in`] for showing: how many, the first `n`
    /// each shown by `show`, and the words for the rest (`more(k)`).
    /// `None` when there is none.
    pub fn values_only_text(
        &self,
        side: Side,
        n: usize,
        show: impl Fn(&str) -> String,
        more: impl Fn(usize) -> String,
    ) -> Option<(usize, String)> {
        let only = self.values_only_in(side);
        if only.is_empty() {
            return None;
        }
        let shown: Vec<String> = only.iter().take(n).map(|v| show(&String::from_utf8_lossy(v))).collect();
        let rest = if only.len() > n {
            more(only.len() - n)
        } else {
            String::new()
        };
        Some((only.len(), format!("{}{rest}", shown.join(", "))))
    }
}

/// The share of examples with the feature as shown: `100%`, `99.5%`,
/// `0%` (a dataset without examples: `-`).
pub fn present_text(f: &FeatureStat, d: &DatasetStats) -> String {
    if d.num_examples == 0 {
        return "-".into();
    }
    let p = Row::present(f, d) * 100.0;
    if p == 100.0 || p == 0.0 {
        format!("{p:.0}%")
    } else {
        // Never rounded to 100% or 0% when some examples lack it (or have it).
        let s = format!("{p:.1}%");
        match s.as_str() {
            "100.0%" => "99.9%".into(),
            "0.0%" => "0.1%".into(),
            _ => s,
        }
    }
}

/// Values per example where present: `1`, or `0..5 (avg 2.10)`.
pub fn values_text(f: &FeatureStat) -> String {
    let c = &f.common;
    if c.min_num_values == c.max_num_values {
        c.min_num_values.to_string()
    } else {
        format!(
            "{}..{} (avg {:.2})",
            c.min_num_values, c.max_num_values, c.avg_num_values
        )
    }
}

/// A distance as shown: four decimals (`0.1234`), `0` exactly, and
/// small figures in exponent form (`3.2e-7`).
pub fn figure_text(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() < 1e-4 {
        format!("{v:.1e}")
    } else {
        format!("{v:.4}")
    }
}

/// Two datasets compared.
#[derive(Clone, Debug)]
pub struct Comparison<'a> {
    /// The first dataset.
    pub a: &'a DatasetStats,
    /// The second.
    pub b: &'a DatasetStats,
    /// Every feature of either, in [`Row::order`].
    pub rows: Vec<Row<'a>>,
}

impl Comparison<'_> {
    /// How many features are in one dataset only: (A only, B only).
    pub fn only_counts(&self) -> (usize, usize) {
        let n = |s| self.rows.iter().filter(|r| r.only_in() == Some(s)).count();
        (n(Side::A), n(Side::B))
    }

    /// How many features have different types in the two.
    pub fn type_changes(&self) -> usize {
        self.rows.iter().filter(|r| r.type_change().is_some()).count()
    }
}

/// Compares two datasets' statistics, feature by feature.
pub fn compare<'a>(a: &'a DatasetStats, b: &'a DatasetStats) -> Comparison<'a> {
    let mut rows: Vec<Row<'a>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in a.features.iter().chain(&b.features) {
        if !seen.insert(f.path.as_str()) {
            continue;
        }
        rows.push(row(f.path.as_str(), a.feature(&f.path), b.feature(&f.path)));
    }
    rows.sort_by(|x, y| x.order(y));
    Comparison { a, b, rows }
}

fn row<'a>(path: &'a str, a: Option<&'a FeatureStat>, b: Option<&'a FeatureStat>) -> Row<'a> {
    let (linf, jsd) = match (a, b) {
        (Some(fa), Some(fb)) => {
            let categorical = !metrics::value_counts(fa).is_empty() || !metrics::value_counts(fb).is_empty();
            let linf = categorical.then(|| metrics::linf(fa, fb));
            (linf, metrics::jensen_shannon(fa, fb, false))
        }
        _ => (None, Err(NoDivergence::Missing)),
    };
    Row { path, a, b, linf, jsd }
}

/// The dataset of a statistics list a comparison uses: the only one, or
/// the one named `All Examples` (TFDV's default slice); else an error
/// naming the datasets.
pub fn dataset_of(list: StatsList) -> Result<DatasetStats> {
    if super::drift::default_dataset(&list).is_none() {
        let names: Vec<String> = list.datasets.iter().take(5).map(|d| format!("{:?}", d.name)).collect();
        crate::error::bail!(
            "the statistics hold {} datasets ({}{}) and none is named \"All Examples\": compare one dataset at a time",
            list.datasets.len(),
            names.join(", "),
            if list.datasets.len() > 5 { ", …" } else { "" }
        );
    }
    let mut list = list;
    let index = if list.datasets.len() == 1 {
        0
    } else {
        list.datasets.iter().position(|d| d.name == "All Examples").unwrap_or(0)
    };
    Ok(list.datasets.swap_remove(index))
}

/// What the first bytes of a file say it is, for [`sniff`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Looks {
    /// Not a statistics file: a TFRecord file of more than one record, or
    /// bytes no statistics file starts with (gzip, zlib, ...).
    NotStatistics,
    /// Possibly a statistics file: read it whole and [`sniff`] it.
    Maybe,
}

/// Whether a file of `size` bytes starting with `head` (its first 12
/// bytes or fewer) may be a statistics file: a TFRecord file of one
/// record (TFDV's), a binary list (its first field's tag, 0x0a) or text.
/// A file of records is not read whole to find out.
pub fn looks(head: &[u8], size: u64) -> Looks {
    let maybe = match framed_length(head) {
        Some(len) => len.checked_add(16) == Some(size),
        None => head
            .first()
            .is_none_or(|b| *b == 0x0a || b.is_ascii_alphabetic() || b.is_ascii_whitespace() || *b == b'#'),
    };
    if maybe {
        Looks::Maybe
    } else {
        Looks::NotStatistics
    }
}

/// The length of the first record when `bytes` start with TFRecord
/// framing (a length and its CRC).
fn framed_length(bytes: &[u8]) -> Option<u64> {
    let len: [u8; 8] = bytes.get(..8)?.try_into().ok()?;
    let crc: [u8; 4] = bytes.get(8..12)?.try_into().ok()?;
    (crate::record::masked_crc(&len) == u32::from_le_bytes(crc)).then(|| u64::from_le_bytes(len))
}

/// A statistics file's dataset when `bytes` are one; `None` when they
/// are records: a TFRecord file whose record is a tf.Example or
/// SequenceExample with features (read as a list, it gives a dataset named
/// by its feature map entries, with neither examples nor features), or
/// bytes that are neither text nor a binary list. An error when they are
/// meant as statistics and are not readable: text (records are never
/// text), or a file of one record that is not an Example with features.
/// Statistics of no examples and no features (TFDV's of an empty span) are
/// a dataset.
pub fn sniff(bytes: &[u8]) -> Result<Option<DatasetStats>> {
    let framed = framed_length(bytes).is_some();
    let text = !framed
        && bytes
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'#');
    match statistics::load(bytes) {
        Ok(list)
            if list
                .datasets
                .iter()
                .any(|d| d.num_examples > 0 || !d.features.is_empty()) =>
        {
            dataset_of(list).map(Some)
        }
        Ok(_) if holds_records(bytes) => Ok(None),
        Ok(list) => dataset_of(list).map(Some),
        Err(e) if text || (framed && !holds_records(bytes)) => Err(e),
        Err(_) => Ok(None),
    }
}

/// Whether the (first) record in `bytes` is an Example or SequenceExample
/// with features.
fn holds_records(bytes: &[u8]) -> bool {
    let payload = match framed_length(bytes) {
        Some(len) => match usize::try_from(len)
            .ok()
            .and_then(|n| bytes.get(12..12usize.checked_add(n)?))
        {
            Some(p) => p,
            None => return false,
        },
        None => return false,
    };
    let mut decoder = crate::example::Decoder::new();
    if let Ok(ex) = decoder.example(payload, true) {
        if ex.features().is_some_and(|f| !f.is_empty()) {
            return true;
        }
    }
    decoder
        .sequence_example(payload, true)
        .is_ok_and(|se| se.context().is_some_and(|f| !f.is_empty()) || se.feature_lists().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::tfdv::statistics::{Common, Histogram, NumStats, StringStats};

    fn feature(path: &str, ty: StatType, present: u64) -> FeatureStat {
        FeatureStat {
            path: path.into(),
            ty,
            common: Common {
                num_non_missing: present,
                ..Common::default()
            },
            num: None,
            string: None,
            custom: Vec::new(),
        }
    }

    fn categorical(path: &str, counts: &[(&str, f64)]) -> FeatureStat {
        let mut f = feature(path, StatType::String, 10);
        f.string = Some(StringStats {
            rank_histogram: counts.iter().map(|(k, n)| (k.as_bytes().to_vec(), *n)).collect(),
            ..StringStats::default()
        });
        f
    }

    fn numeric(path: &str, buckets: &[(f64, f64, f64)]) -> FeatureStat {
        let mut f = feature(path, StatType::Float, 10);
        f.num = Some(NumStats {
            histograms: vec![Histogram {
                num_nan: 0,
                buckets: buckets.to_vec(),
                quantiles: false,
            }],
            ..NumStats::default()
        });
        f
    }

    fn dataset(features: Vec<FeatureStat>) -> DatasetStats {
        DatasetStats {
            name: "d".into(),
            num_examples: 10,
            features,
        }
    }

    #[test]
    fn rows_are_ordered_changed_then_most_divergent_then_unmeasured() {
        let a = dataset(vec![
            categorical("color", &[("red", 5.0), ("blue", 5.0)]),
            numeric("x", &[(0.0, 1.0, 5.0), (1.0, 2.0, 5.0)]),
            feature("dropped", StatType::Int, 10),
            feature("empty", StatType::Bytes, 0),
            numeric("same", &[(0.0, 1.0, 5.0)]),
        ]);
        let b = dataset(vec![
            categorical("color", &[("red", 5.0), ("purple", 5.0)]),
            numeric("x", &[(0.0, 1.0, 9.0), (1.0, 2.0, 1.0)]),
            feature("empty", StatType::Bytes, 0),
            numeric("same", &[(0.0, 1.0, 5.0)]),
            feature("added", StatType::String, 3),
        ]);
        let c = compare(&a, &b);
        let order: Vec<&str> = c.rows.iter().map(|r| r.path).collect();
        assert_eq!(order, ["added", "dropped", "color", "x", "same", "empty"]);
        assert_eq!(c.rows[0].standing(), Standing::OneOnly);
        let color = &c.rows[2];
        assert_eq!(color.linf, Some((b"purple".to_vec(), 0.5)));
        assert_eq!(color.jsd, Ok(0.5));
        assert_eq!(color.values_only_in(Side::B), vec![b"purple".to_vec()]);
        assert_eq!(color.values_only_in(Side::A), vec![b"blue".to_vec()]);
        // Numeric: no L∞, a JSD of the histograms.
        assert!(c.rows[3].linf.is_none() && c.rows[3].jsd.is_ok_and(|v| v > 0.0));
        assert_eq!(c.rows[4].jsd, Ok(0.0));
        assert_eq!(c.only_counts(), (1, 1));
        assert_eq!(c.rows[0].only_in(), Some(Side::B));
    }

    #[test]
    fn a_type_change_comes_first() {
        let a = dataset(vec![numeric("v", &[(0.0, 1.0, 5.0)]), numeric("w", &[(0.0, 1.0, 5.0)])]);
        let mut v = numeric("v", &[(0.0, 1.0, 5.0)]);
        v.ty = StatType::Int;
        let b = dataset(vec![v, numeric("w", &[(0.5, 1.0, 5.0)])]);
        let c = compare(&a, &b);
        assert_eq!(c.rows[0].path, "v");
        assert_eq!(c.rows[0].type_change(), Some((StatType::Float, StatType::Int)));
        assert_eq!(c.type_changes(), 1);
    }

    #[test]
    fn an_example_file_is_not_statistics() {
        // A one-record TFRecord file of a tf.Example (features { feature {
        // key: "a" value { int64_list { value: 1 } } } }) reads as a list
        // with one nameless dataset: not statistics.
        let example = [
            0x0a, 0x0c, 0x0a, 0x0a, 0x0a, 0x01, b'a', 0x12, 0x05, 0x1a, 0x03, 0x0a, 0x01, 0x01,
        ];
        let mut file = Vec::new();
        crate::record::append_framed_with_crc(&mut file, &example, crate::record::masked_crc(&example));
        assert_eq!(looks(&file[..12], file.len() as u64), Looks::Maybe);
        assert!(sniff(&file).unwrap().is_none());
        let mut two = file.clone();
        two.extend_from_slice(&file);
        assert_eq!(looks(&two[..12], two.len() as u64), Looks::NotStatistics);
        // Text that is not a statistics file is an error, not records.
        // A list whose datasets say nothing is statistics of no examples
        // (TFDV's of an empty span), not records.
        let empty = sniff(b"datasets { name: \"span\" }").unwrap().unwrap();
        assert_eq!((empty.num_examples, empty.features.len()), (0, 0));
        assert!(sniff(b"hello world").is_err());
        let text = b"datasets { name: \"x\" num_examples: 3 features { name: \"f\" type: INT } }";
        let d = sniff(text).unwrap().unwrap();
        assert_eq!((d.num_examples, d.features.len()), (3, 1));
    }
}

//! Drift and skew: a dataset's statistics compared with a control's, as
//! TFDV 1.16.1's `validate_statistics(previous_statistics=...,
//! serving_statistics=..., previous_version_statistics=...)` compares
//! them (its C++ `UpdateFeatureComparatorDirect` and
//! `UpdateNumExamplesComparatorDirect`):
//!
//! - per schema feature with a `drift_comparator` (against the previous
//!   span) or a `skew_comparator` (against serving data), for each
//!   threshold set: `infinity_norm` (L∞ of the value counts:
//!   `COMPARATOR_L_INFTY_HIGH`), `normalized_abs_difference`
//!   (`COMPARATOR_NORMALIZED_ABSOLUTE_DIFFERENCE_HIGH`) and
//!   `jensen_shannon_divergence` (value counts, or numeric histograms:
//!   `COMPARATOR_JENSEN_SHANNON_DIVERGENCE_HIGH`), an anomaly when the
//!   figure is above the threshold, a measurement ([`DriftSkewInfo`]) in
//!   any case; a control without the feature: `COMPARATOR_CONTROL_DATA_MISSING`;
//! - `dataset_constraints.num_examples_drift_comparator` (previous span)
//!   and `num_examples_version_comparator` (previous version): the ratio of
//!   the numbers of examples against `min_fraction_threshold` /
//!   `max_fraction_threshold` (`COMPARATOR_LOW_NUM_EXAMPLES`,
//!   `COMPARATOR_HIGH_NUM_EXAMPLES`).
//!
//! Only features present in the dataset (some record has a value) are
//! compared, and not those TFDV skips (deprecated, or without a type).
//! The figures are computed by [`metrics`] in TFDV's order of operations.

pub mod metrics;
#[cfg(test)]
mod tests;

use super::model::{Comparator, Domain, FeatureType, NumericComparator, Schema};
use super::statistics::{DatasetStats, FeatureStat};
use super::validate::{Anomaly, AnomalyKind};
use metrics::six_digits;

/// The control datasets' statistics (each optional).
#[derive(Clone, Copy, Debug, Default)]
pub struct Controls<'a> {
    /// The previous span (drift).
    pub previous: Option<&'a DatasetStats>,
    /// Serving data (skew).
    pub serving: Option<&'a DatasetStats>,
    /// The previous version of this dataset (`num_examples_version_comparator`).
    pub previous_version: Option<&'a DatasetStats>,
}

/// `DriftSkewInfo.Measurement.Type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeasurementType {
    /// `L_INFTY`.
    LInfty,
    /// `JENSEN_SHANNON_DIVERGENCE`.
    JensenShannonDivergence,
    /// `NORMALIZED_ABSOLUTE_DIFFERENCE`.
    NormalizedAbsoluteDifference,
}

impl MeasurementType {
    /// Its anomalies.proto name.
    pub fn name(self) -> &'static str {
        match self {
            MeasurementType::LInfty => "L_INFTY",
            MeasurementType::JensenShannonDivergence => "JENSEN_SHANNON_DIVERGENCE",
            MeasurementType::NormalizedAbsoluteDifference => "NORMALIZED_ABSOLUTE_DIFFERENCE",
        }
    }
}

/// One figure measured: `DriftSkewInfo.Measurement`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measurement {
    /// What was measured.
    pub kind: MeasurementType,
    /// The figure.
    pub value: f64,
    /// The schema's threshold.
    pub threshold: f64,
}

/// The figures measured for one feature: `DriftSkewInfo`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DriftSkewInfo {
    /// The feature.
    pub path: String,
    /// Against the previous span.
    pub drift: Vec<Measurement>,
    /// Against serving data.
    pub skew: Vec<Measurement>,
}

/// What [`compare`] found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The anomalies, features in the current statistics' order, then the
    /// dataset's.
    pub anomalies: Vec<Anomaly>,
    /// The figures, per feature compared.
    pub drift_skew: Vec<DriftSkewInfo>,
    /// Comparisons that had no figure (TFDV logs these as warnings).
    pub warnings: Vec<String>,
}

/// Drift (previous span) or skew (serving).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Against {
    Drift,
    Skew,
}

impl Against {
    /// TFDV's `ComparatorContext`: control and treatment names.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Against::Drift => ("previous", "current"),
            Against::Skew => ("serving", "training"),
        }
    }
}

/// Whether TFDV compares this schema feature: not deprecated, and with a
/// type (or a string domain, which makes it BYTES).
fn compared(f: &super::model::Feature) -> bool {
    let typed = f.kind != FeatureType::Unknown || matches!(f.domain, Some(Domain::String(_) | Domain::Named(_)));
    !f.not_validated && !f.deprecated && typed
}

/// Compares `current` with the controls as the schema's comparators say.
pub fn compare(schema: &Schema, current: &DatasetStats, controls: &Controls<'_>) -> Outcome {
    let mut out = Outcome::default();
    for stat in current.features.iter().filter(|s| s.common.num_non_missing > 0) {
        let Some(feature) = schema.features.iter().find(|f| f.name == stat.path) else {
            continue;
        };
        if !compared(feature) {
            continue;
        }
        let mut info = DriftSkewInfo {
            path: stat.path.clone(),
            ..DriftSkewInfo::default()
        };
        let sides = [
            (Against::Drift, feature.drift, controls.previous),
            (Against::Skew, feature.skew, controls.serving),
        ];
        for (against, comparator, control) in sides {
            let Some(c) = comparator else { continue };
            let measured = compare_feature(stat, &c, against, control, &mut out);
            match against {
                Against::Drift => info.drift = measured,
                Against::Skew => info.skew = measured,
            }
        }
        if !info.drift.is_empty() || !info.skew.is_empty() {
            out.drift_skew.push(info);
        }
    }
    if let Some(dc) = &schema.dataset_constraints {
        let sides = [
            (dc.num_examples_drift_comparator, controls.previous, "previous span"),
            (
                dc.num_examples_version_comparator,
                controls.previous_version,
                "previous version",
            ),
        ];
        for (comparator, control, name) in sides {
            if let (Some(c), Some(control)) = (comparator, control) {
                num_examples(current.num_examples, control.num_examples, &c, name, &mut out.anomalies);
            }
        }
    }
    out
}

fn anomaly(feature: Option<&str>, kind: AnomalyKind, detail: String) -> Anomaly {
    Anomaly {
        feature: feature.map(str::to_string),
        kind,
        records: 0,
        first: None,
        detail,
    }
}

/// One feature against one control: the measurements, and the anomalies
/// pushed to `out`.
fn compare_feature(
    stat: &FeatureStat,
    c: &Comparator,
    against: Against,
    control: Option<&DatasetStats>,
    out: &mut Outcome,
) -> Vec<Measurement> {
    let any =
        c.infinity_norm.is_some() || c.jensen_shannon_divergence.is_some() || c.normalized_abs_difference.is_some();
    let (control_name, treatment) = against.names();
    let name = Some(stat.path.as_str());
    let Some(dataset) = control.filter(|_| any) else {
        return Vec::new();
    };
    let Some(other) = dataset.feature(&stat.path) else {
        out.anomalies.push(anomaly(
            name,
            AnomalyKind::ComparatorControlDataMissing,
            format!("{control_name} data is missing."),
        ));
        return Vec::new();
    };
    let between = format!("between {treatment} and {control_name}");
    // Each figure asked for: what, value, threshold, the value named.
    let mut figures: Vec<(MeasurementType, f64, f64, Option<Vec<u8>>)> = Vec::new();
    if let Some(t) = c.infinity_norm {
        let (label, v) = metrics::linf(stat, other);
        figures.push((MeasurementType::LInfty, v, t, Some(label)));
    }
    if let Some(t) = c.normalized_abs_difference {
        let (label, v) = metrics::normalized_abs_difference(stat, other);
        figures.push((MeasurementType::NormalizedAbsoluteDifference, v, t, Some(label)));
    }
    if let Some(t) = c.jensen_shannon_divergence {
        match metrics::jensen_shannon(stat, other, c.jsd_source == Some(1)) {
            Ok(v) => figures.push((MeasurementType::JensenShannonDivergence, v, t, None)),
            Err(why) => out.warnings.push(format!(
                "feature {}: no Jensen-Shannon divergence {between}: {}",
                super::validate::quoted(&stat.path),
                why.reason()
            )),
        }
    }
    let mut measured = Vec::new();
    for (kind, value, threshold, max) in figures {
        measured.push(Measurement { kind, value, threshold });
        if let Some(a) = judge(kind, value, threshold, max, &between) {
            out.anomalies.push(anomaly(name, a.0, a.1));
        }
    }
    measured
}

/// A figure against its threshold as TFDV judges it: the anomaly and its
/// description when it is too high. L-infinity and the normalized
/// difference are fine when `value <= threshold` (a NaN on either side is
/// an anomaly), the divergence is an anomaly when `value > threshold`.
fn judge(
    kind: MeasurementType,
    value: f64,
    threshold: f64,
    max: Option<Vec<u8>>,
    between: &str,
) -> Option<(AnomalyKind, String)> {
    use std::cmp::Ordering::{Equal, Less};
    let (high, anomaly, what) = match kind {
        MeasurementType::JensenShannonDivergence => (
            value > threshold,
            AnomalyKind::ComparatorJensenShannonDivergenceHigh,
            "approximate Jensen-Shannon divergence",
        ),
        MeasurementType::LInfty => (
            !matches!(value.partial_cmp(&threshold), Some(Less | Equal)),
            AnomalyKind::ComparatorLInftyHigh,
            "Linfty distance",
        ),
        MeasurementType::NormalizedAbsoluteDifference => (
            !matches!(value.partial_cmp(&threshold), Some(Less | Equal)),
            AnomalyKind::ComparatorNormalizedAbsDifferenceHigh,
            "normalized absolute difference",
        ),
    };
    let max = max.map_or(String::new(), |v| {
        format!(
            " The feature value with maximum difference is: {}",
            String::from_utf8_lossy(&v)
        )
    });
    high.then(|| {
        (
            anomaly,
            format!(
                "The {what} {between} is {} (up to six significant digits), above the threshold {}.{max}",
                six_digits(value),
                six_digits(threshold)
            ),
        )
    })
}

/// `num_examples_*_comparator`: the ratio of the numbers of examples.
fn num_examples(current: u64, control: u64, c: &NumericComparator, name: &str, out: &mut Vec<Anomaly>) {
    let (current, control) = (current as f64, control as f64);
    let ratio = current / control;
    if let Some(max) = c.max_fraction {
        if control == 0.0 {
            out.push(anomaly(
                None,
                AnomalyKind::ComparatorHighNumExamples,
                format!(
                    "The {name} has 0 examples, so there is a high number of examples in the current dataset versus the {name}."
                ),
            ));
        } else if ratio > max {
            out.push(anomaly(
                None,
                AnomalyKind::ComparatorHighNumExamples,
                format!(
                    "The ratio of num examples in the current dataset versus the {name} is {} (up to six significant digits), which is above the threshold {}.",
                    six_digits(ratio),
                    six_digits(max)
                ),
            ));
        }
    }
    if let Some(min) = c.min_fraction {
        if control != 0.0 && ratio < min {
            out.push(anomaly(
                None,
                AnomalyKind::ComparatorLowNumExamples,
                format!(
                    "The ratio of num examples in the current dataset versus the {name} is {} (up to six significant digits), which is below the threshold {}.",
                    six_digits(ratio),
                    six_digits(min)
                ),
            ));
        }
    }
}

/// The one dataset of a statistics list TFDV validates: the only one, or
/// the one named `All Examples` (TFDV's default slice).
pub fn default_dataset(list: &super::statistics::StatsList) -> Option<&DatasetStats> {
    match list.datasets.as_slice() {
        [one] => Some(one),
        many => many.iter().find(|d| d.name == "All Examples"),
    }
}

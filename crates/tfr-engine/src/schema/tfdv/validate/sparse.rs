//! `sparse_feature` and `weighted_feature` checked on the records, as TFDV
//! 1.16.1 checks them from the custom statistics its
//! `SparseFeatureStatsGenerator` / `WeightedFeatureStatsGenerator` compute
//! when the schema is given to `generate_statistics`:
//!
//! - per sparse feature, over the records holding at least one of its
//!   components (value feature, index features): records without the value
//!   feature (`missing_value` → `SPARSE_FEATURE_MISSING_VALUE`), per index
//!   feature records without it (`missing_index` →
//!   `SPARSE_FEATURE_MISSING_INDEX`), and the least and greatest of
//!   `len(index) - len(value)` (an absent list counts 0; `min_length_diff`,
//!   `max_length_diff`, each one not 0 → `SPARSE_FEATURE_LENGTH_MISMATCH`);
//! - per weighted feature, over the records holding its values or its
//!   weights: records without the weights (`WEIGHTED_FEATURE_MISSING_WEIGHT`),
//!   without the values (`WEIGHTED_FEATURE_MISSING_VALUE`), and
//!   `len(weight) - len(value)` (`WEIGHTED_FEATURE_LENGTH_MISMATCH`).
//!
//! A component is "missing" in a record as TFDV's decoder makes it null: no
//! such key, or a `Feature {}` with no kind set (an empty list is there,
//! with length 0). A key given twice counts with its last occurrence.
//!
//! Names shared with a feature are `SPARSE_FEATURE_NAME_COLLISION` /
//! `WEIGHTED_FEATURE_NAME_COLLISION`, decided as TFDV's
//! `Schema::UpdateFeature` decides (see [`Claim`]). TFDV does not check
//! that indices fall within `dense_shape`, nor `is_sorted`; tfr does not
//! either.

use super::{AnomalyKind, Loc};
use crate::example::{FeaturesView, Kind};
use crate::schema::tfdv::model::Schema;
use std::collections::HashMap;

/// A count of records and the first of them.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Count {
    pub(super) records: u64,
    pub(super) first: Option<Loc>,
}

impl Count {
    fn add(&mut self, at: Loc) {
        self.records += 1;
        self.first.get_or_insert(at);
    }

    fn merge(&mut self, o: &Count) {
        self.records += o.records;
        self.first = match (self.first, o.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// The least and greatest length difference of two components, and the
/// first record where it is not 0.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Diff {
    pub(super) min: Option<i64>,
    pub(super) max: Option<i64>,
    pub(super) first_off: Option<(Loc, i64)>,
}

impl Diff {
    fn add(&mut self, d: i64, at: Loc) {
        self.min = Some(self.min.map_or(d, |m| m.min(d)));
        self.max = Some(self.max.map_or(d, |m| m.max(d)));
        if d != 0 && self.first_off.is_none() {
            self.first_off = Some((at, d));
        }
    }

    fn merge(&mut self, o: &Diff) {
        self.min = match (self.min, o.min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.max = match (self.max, o.max) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        self.first_off = match (self.first_off, o.first_off) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
    }

    /// TFDV's (min, max): 0 when no record counted.
    pub(super) fn figures(&self) -> (i64, i64) {
        (self.min.unwrap_or(0), self.max.unwrap_or(0))
    }
}

/// One sparse feature's components (component ids).
#[derive(Debug)]
pub(super) struct SparseRule {
    value: u32,
    value_name: String,
    index: Vec<u32>,
    pub(super) index_names: Vec<String>,
}

/// One weighted feature's components.
#[derive(Debug)]
pub(super) struct WeightedRule {
    value: u32,
    weight: u32,
}

/// What TFDV does with a name that a sparse or weighted feature has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Claim {
    /// Nothing is reported under the name (a deprecated feature or sparse
    /// feature of that name).
    Skip,
    /// `*_NAME_COLLISION`: only that is reported under the name.
    Collision(AnomalyKind),
    /// The sparse feature's checks.
    Sparse(usize),
    /// The weighted feature's checks (also when the weighted feature is
    /// deprecated: TFDV checks it all the same).
    Weighted(usize),
    /// The feature of that name is checked as usual (the sparse feature is
    /// deprecated), its statistics there even when the data lacks it.
    Feature,
}

/// The sparse and weighted features of a schema, ready to check records.
#[derive(Debug, Default)]
pub(super) struct Components {
    ids: HashMap<Box<str>, u32>,
    n: usize,
    pub(super) sparse: Vec<SparseRule>,
    pub(super) weighted: Vec<WeightedRule>,
    /// Per name, what is reported under it, in schema order.
    pub(super) claims: Vec<(String, Claim)>,
    /// A weighted feature has a nested path (never present in Examples).
    pub(super) nested_path: Vec<String>,
}

impl Components {
    pub(super) fn new(schema: &Schema) -> Components {
        let mut c = Components::default();
        for s in &schema.sparse_features {
            let value = c.id(&s.value);
            let index = s.index.iter().map(|i| c.id(i)).collect();
            c.sparse.push(SparseRule {
                value,
                value_name: s.value.clone(),
                index,
                index_names: s.index.clone(),
            });
        }
        for w in &schema.weighted_features {
            if w.feature.len() > 1 || w.weight.len() > 1 {
                c.nested_path.push(w.name.clone());
            }
            // A nested path names no Example feature: it is never present.
            let path = |p: &[String]| match p {
                [one] => one.clone(),
                _ => format!("\u{0}{}", p.join("\u{0}")),
            };
            let value = c.id(&path(&w.feature));
            let weight = c.id(&path(&w.weight));
            c.weighted.push(WeightedRule { value, weight });
        }
        c.claims = claims(schema);
        c
    }

    fn id(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.ids.get(name) {
            return i;
        }
        let i = self.n as u32;
        self.ids.insert(name.into(), i);
        self.n += 1;
        i
    }

    pub(super) fn is_empty(&self) -> bool {
        self.sparse.is_empty() && self.weighted.is_empty()
    }

    /// What is reported under `name`, if a sparse or weighted feature has it.
    pub(super) fn claim(&self, name: &str) -> Option<Claim> {
        self.claims.iter().find(|(n, _)| n == name).map(|(_, c)| *c)
    }
}

/// TFDV's `Schema::UpdateFeature` (with `FindChangesRecursively`'s skip of
/// deprecated paths) for each name a sparse or weighted feature has.
fn claims(schema: &Schema) -> Vec<(String, Claim)> {
    let mut out: Vec<(String, Claim)> = Vec::new();
    let names = schema
        .weighted_features
        .iter()
        .map(|w| &w.name)
        .chain(schema.sparse_features.iter().map(|s| &s.name));
    for name in names {
        if out.iter().any(|(n, _)| n == name) {
            continue;
        }
        let feature = schema.features.iter().find(|f| f.name == *name);
        let f_dep = feature.map(|f| f.not_validated);
        let sparse = schema.sparse_features.iter().position(|s| s.name == *name);
        let s_dep = sparse.map(|i| schema.sparse_features[i].not_validated);
        let weighted = schema.weighted_features.iter().position(|w| w.name == *name);
        let claim = match (weighted, f_dep, s_dep) {
            (_, Some(true), _) => Claim::Skip,
            (Some(_), None, Some(true)) => Claim::Skip,
            (Some(w), f, s) => {
                let w_dep = schema.weighted_features[w].not_validated;
                if (f.is_some() || s.is_some()) && !w_dep {
                    Claim::Collision(AnomalyKind::WeightedNameCollision)
                } else {
                    Claim::Weighted(w)
                }
            }
            (None, Some(false), Some(false)) => Claim::Collision(AnomalyKind::SparseNameCollision),
            (None, Some(false), _) => Claim::Feature,
            (None, None, Some(true)) => Claim::Skip,
            (None, None, _) => Claim::Sparse(sparse.unwrap_or(0)),
        };
        out.push((name.clone(), claim));
    }
    out
}

/// One sparse feature's findings.
#[derive(Clone, Debug, Default)]
pub(super) struct SparseFound {
    pub(super) missing_value: Count,
    pub(super) missing_index: Vec<Count>,
    pub(super) diff: Vec<Diff>,
}

/// One weighted feature's findings.
#[derive(Clone, Debug, Default)]
pub(super) struct WeightedFound {
    pub(super) missing_value: Count,
    pub(super) missing_weight: Count,
    pub(super) diff: Diff,
}

/// The findings of some records about the sparse and weighted features.
#[derive(Clone, Debug, Default)]
pub(super) struct Found {
    pub(super) sparse: Vec<SparseFound>,
    pub(super) weighted: Vec<WeightedFound>,
    /// Scratch: each component's length in the record (`None`: missing).
    lens: Vec<Option<u64>>,
}

impl Found {
    /// Checks one record.
    pub(super) fn record(&mut self, c: &Components, features: Option<FeaturesView<'_>>, at: Loc) {
        if c.is_empty() {
            return;
        }
        if self.sparse.len() < c.sparse.len() {
            self.sparse = c
                .sparse
                .iter()
                .map(|s| SparseFound {
                    missing_index: vec![Count::default(); s.index.len()],
                    diff: vec![Diff::default(); s.index.len()],
                    ..SparseFound::default()
                })
                .collect();
            self.weighted = vec![WeightedFound::default(); c.weighted.len()];
        }
        self.lens.clear();
        self.lens.resize(c.n, None);
        if let Some(fv) = features {
            for (key, value) in fv.entries() {
                if let Some(&i) = c.ids.get(key) {
                    self.lens[i as usize] = (value.kind() != Kind::None).then(|| value.count() as u64);
                }
            }
        }
        let lens = &self.lens;
        let len = |i: u32| lens[i as usize];
        let signed = |i: u32| len(i).unwrap_or(0) as i64;
        for (rule, found) in c.sparse.iter().zip(&mut self.sparse) {
            let any = len(rule.value).is_some() || rule.index.iter().any(|i| len(*i).is_some());
            if !any {
                continue;
            }
            if len(rule.value).is_none() {
                found.missing_value.add(at);
            }
            for (k, &i) in rule.index.iter().enumerate() {
                if len(i).is_none() {
                    found.missing_index[k].add(at);
                }
                found.diff[k].add(signed(i) - signed(rule.value), at);
            }
        }
        for (rule, found) in c.weighted.iter().zip(&mut self.weighted) {
            let (v, w) = (len(rule.value), len(rule.weight));
            if v.is_none() && w.is_none() {
                continue;
            }
            if v.is_none() {
                found.missing_value.add(at);
            }
            if w.is_none() {
                found.missing_weight.add(at);
            }
            found.diff.add(signed(rule.weight) - signed(rule.value), at);
        }
    }

    /// Adds the findings of later records.
    pub(super) fn merge(&mut self, o: &Found) {
        if self.sparse.len() < o.sparse.len() || self.weighted.len() < o.weighted.len() {
            self.sparse = o.sparse.clone();
            self.weighted = o.weighted.clone();
            return;
        }
        for (a, b) in self.sparse.iter_mut().zip(&o.sparse) {
            a.missing_value.merge(&b.missing_value);
            for (x, y) in a.missing_index.iter_mut().zip(&b.missing_index) {
                x.merge(y);
            }
            for (x, y) in a.diff.iter_mut().zip(&b.diff) {
                x.merge(y);
            }
        }
        for (a, b) in self.weighted.iter_mut().zip(&o.weighted) {
            a.missing_value.merge(&b.missing_value);
            a.missing_weight.merge(&b.missing_weight);
            a.diff.merge(&b.diff);
        }
    }

    pub(super) fn clear(&mut self) {
        self.sparse.clear();
        self.weighted.clear();
    }
}

/// One anomaly of a sparse or weighted feature: kind, records, first, detail.
pub(super) type Found1 = (AnomalyKind, u64, Option<Loc>, String);

/// The anomalies of sparse feature `i`, as TFDV's `UpdateSparseFeature`.
pub(super) fn sparse_anomalies(c: &Components, found: &Found, i: usize) -> Vec<Found1> {
    let rule = &c.sparse[i];
    let empty = SparseFound {
        missing_index: vec![Count::default(); rule.index.len()],
        diff: vec![Diff::default(); rule.index.len()],
        ..SparseFound::default()
    };
    let f = found.sparse.get(i).unwrap_or(&empty);
    let mut out = Vec::new();
    let value = &rule.value_name;
    if f.missing_value.records > 0 {
        out.push((
            AnomalyKind::SparseMissingValue,
            f.missing_value.records,
            f.missing_value.first,
            format!(
                "{} hold an index feature but not the value feature {}",
                records_text(f.missing_value.records),
                super::quoted(value)
            ),
        ));
    }
    for (k, name) in rule.index_names.iter().enumerate() {
        let m = f.missing_index.get(k).copied().unwrap_or_default();
        if m.records > 0 {
            out.push((
                AnomalyKind::SparseMissingIndex,
                m.records,
                m.first,
                format!(
                    "{} miss the index feature {} (missing_index)",
                    records_text(m.records),
                    super::quoted(name)
                ),
            ));
        }
    }
    let mut parts = Vec::new();
    let mut first: Option<(Loc, i64)> = None;
    for (k, name) in rule.index_names.iter().enumerate() {
        let d = f.diff.get(k).copied().unwrap_or_default();
        let (min, max) = d.figures();
        if min != 0 || max != 0 {
            parts.push(format!(
                "index feature {}: min_length_diff = {min}, max_length_diff = {max}",
                super::quoted(name)
            ));
            first = match (first, d.first_off) {
                (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
                (a, b) => a.or(b),
            };
        }
    }
    if !parts.is_empty() {
        let at = first.map(|(at, _)| at);
        let seen = first.map_or(String::new(), |(_, d)| {
            format!(" (first: index length - value length = {d})")
        });
        out.push((
            AnomalyKind::SparseLengthMismatch,
            0,
            at,
            format!(
                "lengths of the index and value features differ: {}{seen}",
                parts.join("; ")
            ),
        ));
    }
    out
}

fn records_text(n: u64) -> String {
    if n == 1 {
        "1 record".into()
    } else {
        format!("{n} records")
    }
}

/// The anomalies of weighted feature `i`, as TFDV's `UpdateWeightedFeature`.
pub(super) fn weighted_anomalies(found: &Found, i: usize) -> Vec<Found1> {
    let empty = WeightedFound::default();
    let f = found.weighted.get(i).unwrap_or(&empty);
    let mut out = Vec::new();
    if f.missing_weight.records > 0 {
        out.push((
            AnomalyKind::WeightedMissingWeight,
            f.missing_weight.records,
            f.missing_weight.first,
            format!(
                "{} records hold the values but not the weights",
                f.missing_weight.records
            ),
        ));
    }
    if f.missing_value.records > 0 {
        out.push((
            AnomalyKind::WeightedMissingValue,
            f.missing_value.records,
            f.missing_value.first,
            format!(
                "{} records hold the weights but not the values",
                f.missing_value.records
            ),
        ));
    }
    let (min, max) = f.diff.figures();
    if min != 0 || max != 0 {
        let seen = f.diff.first_off.map_or(String::new(), |(_, d)| {
            format!(" (first: weight length - value length = {d})")
        });
        out.push((
            AnomalyKind::WeightedLengthMismatch,
            0,
            f.diff.first_off.map(|(at, _)| at),
            format!("min_weight_length_diff = {min}, max_weight_length_diff = {max}{seen}"),
        ));
    }
    out
}

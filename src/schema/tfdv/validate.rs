//! The checks of `tfr validate`: records against a TFDV [`Schema`], with
//! the semantics of TensorFlow Data Validation 1.16.1's
//! `validate_statistics` (its C++ `anomalies/` code), but on the records
//! themselves, so each anomaly names the first file and record where it
//! happens.
//!
//! One pass over the records ([`validate`]): batches on the pipeline, each
//! checked into a [`Found`] (per schema feature and anomaly kind a count of
//! records and the first location, never a list), merged in record order.
//! Then the dataset-wide checks (presence, the share of values outside a
//! string domain, the number of examples) make the [`Report`].
//!
//! What is checked, per schema feature (features whose `lifecycle_stage`
//! TFDV does not validate — PLANNED, ALPHA, DEPRECATED, DEBUG_ONLY,
//! DISABLED — or `deprecated: true` are skipped):
//! - in no record while `presence` asks for it: `SCHEMA_MISSING_COLUMN`;
//!   in fewer records than `presence.min_count`:
//!   `FEATURE_TYPE_LOW_NUMBER_PRESENT`; in a smaller share than
//!   `presence.min_fraction` (or missing anywhere when it is 1.0):
//!   `FEATURE_TYPE_LOW_FRACTION_PRESENT`;
//! - a kind other than the schema's `type` (INT = int64_list, FLOAT =
//!   float_list, BYTES = bytes_list): `UNEXPECTED_DATA_TYPE`; no `type`:
//!   `FEATURE_MISSING_TYPE` (BYTES when it has a string domain, as TFDV);
//! - fewer / more values than `value_count` min / max:
//!   `FEATURE_TYPE_LOW_NUMBER_VALUES` / `FEATURE_TYPE_HIGH_NUMBER_VALUES`;
//!   a number of values other than the product of `shape`'s dims, or
//!   missing from a record, with a `shape`: `INVALID_FEATURE_SHAPE`;
//! - int64 values below / above `int_domain` min / max: `INT_TYPE_SMALL_INT`
//!   / `INT_TYPE_BIG_INT`; floats below / above `float_domain` min / max:
//!   `FLOAT_TYPE_SMALL_FLOAT` / `FLOAT_TYPE_BIG_FLOAT`, NaN with
//!   `disallow_nan`: `FLOAT_TYPE_HAS_NAN`, ±inf with `disallow_inf`:
//!   `FLOAT_TYPE_HAS_INF`;
//! - `bool_domain`: ints below 0 / above 1 `BOOL_TYPE_SMALL_INT` /
//!   `BOOL_TYPE_BIG_INT`, floats other than 0 and 1
//!   `BOOL_TYPE_UNEXPECTED_FLOAT`, strings other than its true_value /
//!   false_value `BOOL_TYPE_UNEXPECTED_STRING`;
//! - a bytes value outside the string domain (inline `string_domain`, or
//!   `domain: "NAME"` naming a top-level one): `ENUM_TYPE_UNEXPECTED_STRING_VALUES`
//!   when the share of such values among the feature's values is above
//!   `1 - distribution_constraints.min_domain_mass` (any, without
//!   distribution constraints); a value that is not UTF-8 there:
//!   `ENUM_TYPE_INVALID_UTF8`.
//!
//! And for the dataset: a feature the schema does not have:
//! `SCHEMA_NEW_COLUMN`; fewer / more records than `dataset_constraints`
//! min / max_examples_count: `DATASET_LOW_NUM_EXAMPLES` /
//! `DATASET_HIGH_NUM_EXAMPLES`.
//!
//! As in TFDV (and `tf.io.parse_example`): a feature key repeated in a
//! record counts once, with its last occurrence; a Feature with no kind set
//! is missing. A SequenceExample is checked on its context features: that
//! is what TFDV sees when it reads SequenceExamples (their `context` is
//! field 1, as an Example's `features`); feature lists are not checked
//! (TFDV's schema has no place for them outside STRUCT features).
//! Constraints tfr does not check (other domains, environments, skew
//! and drift comparators, ...) are listed in [`Report::not_checked`].

use super::model::{Domain, Feature, FeatureType, Schema};
use crate::example::{self, DecodeErrorKind, Decoder, FeatureView, FeaturesView, Kind, MessageType};
use crate::io::Input;
use crate::pipeline::{self, Sender};
use crate::record;
use crate::schema::scan::{read_batches, Batch, BatchRec, Read, Reading};
use anyhow::Result;
use std::collections::{HashMap, HashSet};

/// An anomaly kind: TFDV's `AnomalyInfo.Type` (proto/anomalies.proto of
/// tensorflow_metadata).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnomalyKind {
    SchemaMissingColumn,
    SchemaNewColumn,
    LowFractionPresent,
    LowNumberPresent,
    UnexpectedDataType,
    MissingType,
    LowNumberValues,
    HighNumberValues,
    InvalidFeatureShape,
    IntSmall,
    IntBig,
    FloatSmall,
    FloatBig,
    FloatNan,
    FloatInf,
    BoolSmallInt,
    BoolBigInt,
    BoolUnexpectedFloat,
    BoolUnexpectedString,
    EnumUnexpectedString,
    EnumInvalidUtf8,
    DatasetLowNumExamples,
    DatasetHighNumExamples,
}

impl AnomalyKind {
    /// Its `AnomalyInfo.Type` name.
    pub fn tfdv_name(self) -> &'static str {
        use AnomalyKind::*;
        match self {
            SchemaMissingColumn => "SCHEMA_MISSING_COLUMN",
            SchemaNewColumn => "SCHEMA_NEW_COLUMN",
            LowFractionPresent => "FEATURE_TYPE_LOW_FRACTION_PRESENT",
            LowNumberPresent => "FEATURE_TYPE_LOW_NUMBER_PRESENT",
            UnexpectedDataType => "UNEXPECTED_DATA_TYPE",
            MissingType => "FEATURE_MISSING_TYPE",
            LowNumberValues => "FEATURE_TYPE_LOW_NUMBER_VALUES",
            HighNumberValues => "FEATURE_TYPE_HIGH_NUMBER_VALUES",
            InvalidFeatureShape => "INVALID_FEATURE_SHAPE",
            IntSmall => "INT_TYPE_SMALL_INT",
            IntBig => "INT_TYPE_BIG_INT",
            FloatSmall => "FLOAT_TYPE_SMALL_FLOAT",
            FloatBig => "FLOAT_TYPE_BIG_FLOAT",
            FloatNan => "FLOAT_TYPE_HAS_NAN",
            FloatInf => "FLOAT_TYPE_HAS_INF",
            BoolSmallInt => "BOOL_TYPE_SMALL_INT",
            BoolBigInt => "BOOL_TYPE_BIG_INT",
            BoolUnexpectedFloat => "BOOL_TYPE_UNEXPECTED_FLOAT",
            BoolUnexpectedString => "BOOL_TYPE_UNEXPECTED_STRING",
            EnumUnexpectedString => "ENUM_TYPE_UNEXPECTED_STRING_VALUES",
            EnumInvalidUtf8 => "ENUM_TYPE_INVALID_UTF8",
            DatasetLowNumExamples => "DATASET_LOW_NUM_EXAMPLES",
            DatasetHighNumExamples => "DATASET_HIGH_NUM_EXAMPLES",
        }
    }

    /// A short description (TFDV's short descriptions, mostly).
    pub fn short(self) -> &'static str {
        use AnomalyKind::*;
        match self {
            SchemaMissingColumn => "Column dropped",
            SchemaNewColumn => "New column",
            LowFractionPresent | LowNumberPresent => "Column dropped (too rarely present)",
            UnexpectedDataType => "Unexpected data type",
            MissingType => "Schema gives no type",
            LowNumberValues => "Missing values",
            HighNumberValues => "Superfluous values",
            InvalidFeatureShape => "Shape not matched",
            IntSmall | IntBig | FloatSmall | FloatBig => "Out-of-range values",
            FloatNan | FloatInf | EnumInvalidUtf8 => "Invalid values",
            BoolSmallInt | BoolBigInt | BoolUnexpectedFloat | BoolUnexpectedString => "Non-boolean values",
            EnumUnexpectedString => "Unexpected string values",
            DatasetLowNumExamples => "Low num examples in dataset",
            DatasetHighNumExamples => "High num examples in dataset",
        }
    }
}

/// Where something was first seen: input (0-based, in the order given)
/// and record index in it.
pub type Loc = (u32, u64);

/// One anomaly of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Anomaly {
    /// The feature, `None` for the dataset's.
    pub feature: Option<String>,
    pub kind: AnomalyKind,
    /// Records where it was seen (0 for the dataset-wide ones: missing
    /// column, presence, number of examples).
    pub records: u64,
    /// The first record where it was seen, when one record shows it.
    pub first: Option<Loc>,
    /// What was seen (at `first`, when there is one).
    pub detail: String,
}

/// The result of [`validate`].
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub ty: Option<MessageType>,
    /// Records read, per input.
    pub per_input: Vec<u64>,
    pub records: u64,
    /// Every anomaly, features in schema order (new features after them,
    /// in the order first seen), then the dataset's.
    pub anomalies: Vec<Anomaly>,
    /// Schema constraints tfr did not check, one line each.
    pub not_checked: Vec<String>,
    /// Schema features checked.
    pub checked: usize,
    /// Distinct new feature names past [`MAX_NEW`] (not reported by name).
    pub new_untracked: bool,
}

/// New feature names reported by name at most (more are counted as one note).
pub const MAX_NEW: usize = 1000;

// ---------------------------------------------------------------------------
// The schema, compiled for checking records
// ---------------------------------------------------------------------------

/// One schema feature's checks.
#[derive(Debug)]
struct Rule {
    name: Box<str>,
    active: bool,
    kind: Option<Kind>,
    missing_type: bool,
    min_values: Option<u64>,
    max_values: Option<u64>,
    shape: Option<u64>,
    shape_text: String,
    int_min: Option<i64>,
    int_max: Option<i64>,
    float_min: Option<f32>,
    float_max: Option<f32>,
    nan: bool,
    inf: bool,
    /// bool_domain: the accepted strings.
    bool_domain: Option<Vec<Vec<u8>>>,
    /// The string domain's values and name, and the share of values allowed
    /// outside it.
    strings: Option<(HashSet<Vec<u8>>, String, f64)>,
    min_fraction: Option<f64>,
    min_count: Option<i64>,
    /// Checks that look at each value, per kind.
    int_values: bool,
    float_values: bool,
    bytes_values: bool,
}

/// A schema ready to check records with.
#[derive(Debug)]
pub struct Checker {
    rules: Vec<Rule>,
    index: HashMap<Box<str>, u32>,
    min_examples: Option<i64>,
    max_examples: Option<i64>,
    not_checked: Vec<String>,
}

/// Field names (after a feature's or the schema's) that are not
/// constraints: not worth a "not checked" note.
fn is_constraint(name: &str) -> bool {
    !matches!(
        name,
        "annotation"
            | "string_domain.is_categorical"
            | "float_domain.is_embedding"
            | "float_domain.is_categorical"
            | "float_domain.embedding_dim"
            | "float_domain.embedding_type"
            | "represent_variable_length_as_ragged"
            | "tensor_representation_group"
            | "generate_legacy_feature_spec"
            | "sequence_metadata"
            | "validation_derived_source"
            | "int_domain"
            | "float_domain"
    )
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Int64 => "INT",
        Kind::Float => "FLOAT",
        Kind::Bytes => "BYTES",
        Kind::None => "no kind",
    }
}

/// A feature name quoted for one line of output.
pub fn quoted(name: &str) -> String {
    format!(
        "\"{}\"",
        crate::io::input::escape_name(name.as_bytes()).replace('"', "\\\"")
    )
}

impl Checker {
    /// Compiles the schema's checks.
    pub fn new(schema: &Schema) -> Checker {
        let mut notes: Vec<(String, Vec<String>)> = Vec::new();
        let mut add_note = |what: String, feature: &str| match notes.iter_mut().find(|(w, _)| *w == what) {
            Some((_, fs)) => fs.push(feature.to_string()),
            None => notes.push((what, vec![feature.to_string()])),
        };
        let mut rules = Vec::new();
        let mut index = HashMap::new();
        for f in &schema.features {
            if index.contains_key(f.name.as_str()) {
                add_note(
                    "a second feature of the same name (TFDV uses the first)".into(),
                    &f.name,
                );
                continue;
            }
            for i in f.ignored.iter().filter(|i| is_constraint(i)) {
                add_note(i.clone(), &f.name);
            }
            if let Some(Domain::Other(d)) = &f.domain {
                add_note(d.clone(), &f.name);
            }
            if f.drift_linf.is_some() {
                add_note("drift_comparator (needs statistics to compare with)".into(), &f.name);
            }
            if f.kind == FeatureType::Struct {
                add_note("STRUCT features".into(), &f.name);
            }
            if let Some(Domain::Named(n)) = &f.domain {
                if schema.string_domain(n).is_none() {
                    add_note(
                        format!("domain: {} (no string_domain of that name)", quoted(n)),
                        &f.name,
                    );
                }
            }
            index.insert(f.name.as_str().into(), rules.len() as u32);
            rules.push(Rule::new(f, schema));
        }
        let mut not_checked: Vec<String> = notes
            .into_iter()
            .map(|(what, features)| {
                let list: Vec<String> = features.iter().take(5).map(|f| quoted(f)).collect();
                let more = match features.len() {
                    n if n > 5 => format!(" and {} more", n - 5),
                    _ => String::new(),
                };
                format!("{what} (feature {}{more})", list.join(", "))
            })
            .collect();
        for i in schema.ignored.iter().filter(|i| is_constraint(i)) {
            not_checked.push(match i.as_str() {
                "default_environment" => {
                    "environments (no environment is selected: every feature is checked, as TFDV does without one)"
                        .to_string()
                }
                _ => i.clone(),
            });
        }
        if schema
            .features
            .iter()
            .any(|f| f.ignored.iter().any(|i| i.ends_with("environment")))
            && !not_checked.iter().any(|n| n.starts_with("environments"))
        {
            not_checked.push(
                "environments (no environment is selected: every feature is checked, as TFDV does without one)".into(),
            );
        }
        not_checked.retain(|n| !n.starts_with("in_environment") && !n.starts_with("not_in_environment"));
        let dc = schema.dataset_constraints.unwrap_or_default();
        if dc.num_examples_drift_comparator.is_some() {
            not_checked
                .push("dataset_constraints.num_examples_drift_comparator (needs statistics to compare with)".into());
        }
        Checker {
            rules,
            index,
            min_examples: dc.min_examples_count,
            max_examples: dc.max_examples_count,
            not_checked,
        }
    }

    /// Schema features that are checked (their lifecycle allows it).
    pub fn checked(&self) -> usize {
        self.rules.iter().filter(|r| r.active).count()
    }
}

impl Rule {
    fn new(f: &Feature, schema: &Schema) -> Rule {
        let string_domain = match &f.domain {
            Some(Domain::String(d)) => Some((d, d.name.clone().unwrap_or_default())),
            Some(Domain::Named(n)) => schema.string_domain(n).map(|d| (d, n.clone())),
            _ => None,
        };
        // TFDV takes a feature without type but with a string domain as BYTES,
        // and does not check one without either.
        let (kind, missing_type) = match f.kind {
            FeatureType::Int => (Some(Kind::Int64), false),
            FeatureType::Float => (Some(Kind::Float), false),
            FeatureType::Bytes => (Some(Kind::Bytes), false),
            FeatureType::Unknown if string_domain.is_some() => (Some(Kind::Bytes), true),
            _ => (None, true),
        };
        let vc = f.value_count.unwrap_or_default();
        let min_values = vc.min.filter(|m| *m >= 0).map(|m| m as u64);
        let max_values = vc.max.map(|m| (m.max(vc.min.unwrap_or(0))).max(0) as u64);
        let shape = f
            .shape
            .as_ref()
            .filter(|dims| dims.iter().all(|d| *d > 0))
            .map(|dims| dims.iter().fold(1u64, |a, d| a.saturating_mul(*d as u64)));
        let shape_text = f
            .shape
            .as_ref()
            .map(|d| format!("[{}]", d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")))
            .unwrap_or_default();
        let mut r = Rule {
            name: f.name.as_str().into(),
            active: !f.not_validated,
            kind,
            missing_type,
            min_values,
            max_values,
            shape,
            shape_text,
            int_min: None,
            int_max: None,
            float_min: None,
            float_max: None,
            nan: false,
            inf: false,
            bool_domain: None,
            strings: None,
            min_fraction: f.presence.and_then(|p| p.min_fraction),
            min_count: f.presence.and_then(|p| p.min_count),
            int_values: false,
            float_values: false,
            bytes_values: false,
        };
        if f.kind == FeatureType::Struct {
            r.active = false;
        }
        match &f.domain {
            Some(Domain::Int(d)) => {
                r.int_min = d.min;
                r.int_max = d.max;
            }
            Some(Domain::Float(d)) => {
                r.float_min = d.min;
                r.float_max = d.max;
                r.nan = d.disallow_nan;
                r.inf = d.disallow_inf;
            }
            Some(Domain::Bool(d)) => {
                let mut ok = Vec::new();
                ok.extend(d.true_value.iter().map(|v| v.as_bytes().to_vec()));
                ok.extend(d.false_value.iter().map(|v| v.as_bytes().to_vec()));
                r.bool_domain = Some(ok);
            }
            _ => {}
        }
        if let Some((d, name)) = string_domain {
            let max_off = f.min_domain_mass.map_or(0.0, |m| 1.0 - m);
            r.strings = Some((d.values.iter().map(|v| v.as_bytes().to_vec()).collect(), name, max_off));
        }
        r.int_values = r.int_min.is_some() || r.int_max.is_some() || r.bool_domain.is_some();
        r.float_values = r.float_min.is_some() || r.float_max.is_some() || r.nan || r.inf || r.bool_domain.is_some();
        r.bytes_values = r.strings.is_some() || r.bool_domain.is_some();
        r
    }
}

// ---------------------------------------------------------------------------
// Per-batch findings
// ---------------------------------------------------------------------------

/// One anomaly kind of one feature within some records.
#[derive(Clone, Debug)]
struct Tally {
    kind: AnomalyKind,
    records: u64,
    first: Loc,
    detail: String,
    /// The record stamp last counted (a record counts once).
    stamp: u64,
}

/// What the records of a batch showed about one schema feature.
#[derive(Clone, Debug, Default)]
struct FeatureFound {
    present: u64,
    first_missing: Option<Loc>,
    /// Values of the feature (bytes, for the string domain's share) and
    /// those outside the domain.
    values: u64,
    off_domain: u64,
    tallies: Vec<Tally>,
    /// Scratch: the record stamp when last seen / present, and the entry
    /// position of the last occurrence.
    seen: u64,
    present_stamp: u64,
    pos: u32,
}

/// A feature not in the schema.
#[derive(Clone, Debug)]
struct NewFound {
    name: Box<str>,
    records: u64,
    first: Loc,
    seen: u64,
    pos: u32,
}

/// The findings of some records (one batch, or the merge of all so far).
#[derive(Debug, Default)]
pub struct Found {
    records: u64,
    per_input: Vec<u64>,
    features: Vec<FeatureFound>,
    new: Vec<NewFound>,
    new_index: HashMap<Box<str>, u32>,
    new_untracked: bool,
    /// Scratch: a stamp per record, the slot of each entry position of the
    /// previous record, and one record's entries.
    stamp: u64,
    cache: Vec<u32>,
    buf: Vec<(u32, u32, FeatureView<'static>)>,
}

/// A slot: schema features first, then new names (`u32::MAX`: untracked).
const UNTRACKED: u32 = u32::MAX;

impl pipeline::Output for Found {
    fn is_empty(&self) -> bool {
        self.records == 0
    }

    fn clear(&mut self) {
        self.records = 0;
        self.per_input.clear();
        self.features.clear();
        self.new.clear();
        self.new_index.clear();
        self.new_untracked = false;
        self.stamp = 0;
        self.cache.clear();
        self.buf.clear();
    }
}

impl FeatureFound {
    /// Counts `kind` at `at` (once per record); `detail` is called only for
    /// the first occurrence.
    #[inline]
    fn hit(&mut self, kind: AnomalyKind, at: Loc, stamp: u64, detail: impl FnOnce() -> String) {
        match self.tallies.iter_mut().find(|t| t.kind == kind) {
            Some(t) => {
                if t.stamp != stamp {
                    t.stamp = stamp;
                    t.records += 1;
                }
            }
            None => self.tallies.push(Tally {
                kind,
                records: 1,
                first: at,
                detail: detail(),
                stamp,
            }),
        }
    }

    fn merge(&mut self, o: &FeatureFound) {
        self.present += o.present;
        self.first_missing = earliest(self.first_missing, o.first_missing);
        self.values += o.values;
        self.off_domain += o.off_domain;
        for t in &o.tallies {
            match self.tallies.iter_mut().find(|s| s.kind == t.kind) {
                Some(s) => {
                    s.records += t.records;
                    if t.first < s.first {
                        s.first = t.first;
                        s.detail = t.detail.clone();
                    }
                }
                None => self.tallies.push(t.clone()),
            }
        }
    }
}

/// An empty vector of `T<'static>` from one of `T<'a>`, keeping its
/// allocation (the vector is emptied first; nothing is converted).
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

fn earliest(a: Option<Loc>, b: Option<Loc>) -> Option<Loc> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn float_text(v: f32) -> String {
    let mut out = Vec::new();
    example::text::write_float(v, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn bytes_text(v: &[u8]) -> String {
    let shown = &v[..v.len().min(64)];
    let mut out = Vec::new();
    example::text::escape_bytes(shown, &mut out);
    let more = if v.len() > 64 { "..." } else { "" };
    format!("\"{}{more}\"", String::from_utf8_lossy(&out))
}

impl Found {
    /// Checks the features of one record (`None`: an empty record).
    fn record(&mut self, ck: &Checker, features: Option<FeaturesView<'_>>, at: Loc) {
        self.records += 1;
        let i = at.0 as usize;
        if i >= self.per_input.len() {
            self.per_input.resize(i + 1, 0);
        }
        self.per_input[i] += 1;
        if self.features.len() < ck.rules.len() {
            self.features.resize(ck.rules.len(), FeatureFound::default());
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let n_rules = ck.rules.len() as u32;
        let mut present = 0usize;
        if let Some(fv) = features {
            // Slots of the entries; a key given twice counts with its last occurrence.
            let mut buf: Vec<(u32, u32, FeatureView<'_>)> = recycle(std::mem::take(&mut self.buf));
            let mut dups = false;
            for (pos, (key, value)) in fv.entries().enumerate() {
                let slot = self.intern(ck, pos, key, at);
                if slot == UNTRACKED {
                    continue;
                }
                let (seen, p) = if slot < n_rules {
                    let f = &mut self.features[slot as usize];
                    (&mut f.seen, &mut f.pos)
                } else {
                    let f = &mut self.new[(slot - n_rules) as usize];
                    (&mut f.seen, &mut f.pos)
                };
                dups |= *seen == stamp;
                *seen = stamp;
                *p = pos as u32;
                buf.push((slot, pos as u32, value));
            }
            for (slot, pos, f) in &buf {
                let (slot, pos) = (*slot, *pos);
                if slot >= n_rules {
                    let n = &mut self.new[(slot - n_rules) as usize];
                    if (dups && n.pos != pos) || f.kind() == Kind::None {
                        continue;
                    }
                    if n.records == 0 {
                        n.first = at;
                    }
                    n.records += 1;
                    continue;
                }
                let ff = &mut self.features[slot as usize];
                if (dups && ff.pos != pos) || f.kind() == Kind::None {
                    continue;
                }
                ff.present += 1;
                ff.present_stamp = stamp;
                present += 1;
                let rule = &ck.rules[slot as usize];
                if rule.active {
                    check(rule, ff, f, at, stamp);
                }
            }
            self.buf = recycle(buf);
        }
        if present < self.features.len() {
            for (ff, rule) in self.features.iter_mut().zip(&ck.rules) {
                if ff.present_stamp != stamp && ff.first_missing.is_none() && rule.active {
                    ff.first_missing = Some(at);
                }
            }
        }
    }

    /// The slot of `key` at entry position `pos`.
    #[inline]
    fn intern(&mut self, ck: &Checker, pos: usize, key: &str, at: Loc) -> u32 {
        let n_rules = ck.rules.len() as u32;
        if let Some(&slot) = self.cache.get(pos) {
            let name: &str = if slot < n_rules {
                &ck.rules[slot as usize].name
            } else if let Some(n) = self.new.get((slot - n_rules) as usize) {
                &n.name
            } else {
                ""
            };
            if slot != UNTRACKED && name == key {
                return slot;
            }
        }
        let slot = if let Some(&s) = ck.index.get(key) {
            s
        } else if let Some(&s) = self.new_index.get(key) {
            n_rules + s
        } else if self.new.len() >= MAX_NEW {
            self.new_untracked = true;
            UNTRACKED
        } else {
            let s = self.new.len() as u32;
            self.new.push(NewFound {
                name: key.into(),
                records: 0,
                first: at,
                seen: 0,
                pos: 0,
            });
            self.new_index.insert(key.into(), s);
            n_rules + s
        };
        if pos < self.cache.len() {
            self.cache[pos] = slot;
        } else if pos == self.cache.len() {
            self.cache.push(slot);
        }
        slot
    }

    /// Adds the findings of later records.
    pub fn merge(&mut self, o: &Found) {
        self.records += o.records;
        if o.per_input.len() > self.per_input.len() {
            self.per_input.resize(o.per_input.len(), 0);
        }
        for (a, b) in self.per_input.iter_mut().zip(&o.per_input) {
            *a += b;
        }
        if self.features.len() < o.features.len() {
            self.features.resize(o.features.len(), FeatureFound::default());
        }
        for (a, b) in self.features.iter_mut().zip(&o.features) {
            a.merge(b);
        }
        for n in &o.new {
            if n.records == 0 {
                continue;
            }
            match self.new_index.get(&n.name) {
                Some(&s) => {
                    let m = &mut self.new[s as usize];
                    m.records += n.records;
                    m.first = m.first.min(n.first);
                }
                None if self.new.len() >= MAX_NEW => self.new_untracked = true,
                None => {
                    self.new_index.insert(n.name.clone(), self.new.len() as u32);
                    self.new.push(n.clone());
                }
            }
        }
        self.new_untracked |= o.new_untracked;
    }
}

/// The checks of one present feature of one record.
#[inline]
fn check(rule: &Rule, ff: &mut FeatureFound, f: &FeatureView<'_>, at: Loc, stamp: u64) {
    let kind = f.kind();
    match rule.kind {
        Some(k) if k != kind => ff.hit(AnomalyKind::UnexpectedDataType, at, stamp, || {
            format!("expected {}, found {}", kind_name(k), kind_name(kind))
        }),
        _ => {}
    }
    if rule.missing_type {
        ff.hit(AnomalyKind::MissingType, at, stamp, || {
            format!("the schema gives it no type; found {}", kind_name(kind))
        });
        if rule.kind.is_none() {
            // TFDV sets such a feature aside after saying so.
            return;
        }
    }
    let n = match kind {
        Kind::Int64 if rule.int_values => {
            let mut n = 0u64;
            for v in f.int64s() {
                n += 1;
                int_value(rule, ff, v, at, stamp);
            }
            n
        }
        Kind::Float if rule.float_values => {
            let mut n = 0u64;
            for v in f.floats() {
                n += 1;
                float_value(rule, ff, v, at, stamp);
            }
            n
        }
        Kind::Bytes if rule.bytes_values => {
            let mut n = 0u64;
            for v in f.bytes() {
                n += 1;
                bytes_value(rule, ff, v, at, stamp);
            }
            if rule.strings.is_some() {
                ff.values += n;
            }
            n
        }
        Kind::Int64 => f.int64s().count() as u64,
        Kind::Float => f.floats().count() as u64,
        Kind::Bytes => f.bytes().count() as u64,
        Kind::None => 0,
    };
    if let Some(min) = rule.min_values {
        if n < min {
            ff.hit(AnomalyKind::LowNumberValues, at, stamp, || {
                format!("{n} values, value_count min is {min}")
            });
        }
    }
    if let Some(max) = rule.max_values {
        if n > max {
            ff.hit(AnomalyKind::HighNumberValues, at, stamp, || {
                format!("{n} values, value_count max is {max}")
            });
        }
    }
    if let Some(size) = rule.shape {
        if n != size {
            ff.hit(AnomalyKind::InvalidFeatureShape, at, stamp, || {
                format!("{n} values, shape {} holds {size}", rule.shape_text)
            });
        }
    }
}

#[inline]
fn int_value(rule: &Rule, ff: &mut FeatureFound, v: i64, at: Loc, stamp: u64) {
    if let Some(min) = rule.int_min {
        if v < min {
            ff.hit(AnomalyKind::IntSmall, at, stamp, || {
                format!("value {v} below int_domain min {min}")
            });
        }
    }
    if let Some(max) = rule.int_max {
        if v > max {
            ff.hit(AnomalyKind::IntBig, at, stamp, || {
                format!("value {v} above int_domain max {max}")
            });
        }
    }
    if rule.bool_domain.is_some() {
        if v < 0 {
            ff.hit(AnomalyKind::BoolSmallInt, at, stamp, || {
                format!("value {v} not in {{0, 1}} (bool_domain)")
            });
        } else if v > 1 {
            ff.hit(AnomalyKind::BoolBigInt, at, stamp, || {
                format!("value {v} not in {{0, 1}} (bool_domain)")
            });
        }
    }
}

#[inline]
fn float_value(rule: &Rule, ff: &mut FeatureFound, v: f32, at: Loc, stamp: u64) {
    if v.is_nan() {
        if rule.nan {
            ff.hit(AnomalyKind::FloatNan, at, stamp, || {
                "NaN, float_domain has disallow_nan".into()
            });
        }
    } else {
        if let Some(min) = rule.float_min {
            if v < min {
                ff.hit(AnomalyKind::FloatSmall, at, stamp, || {
                    format!("value {} below float_domain min {}", float_text(v), float_text(min))
                });
            }
        }
        if let Some(max) = rule.float_max {
            if v > max {
                ff.hit(AnomalyKind::FloatBig, at, stamp, || {
                    format!("value {} above float_domain max {}", float_text(v), float_text(max))
                });
            }
        }
        if rule.inf && v.is_infinite() {
            ff.hit(AnomalyKind::FloatInf, at, stamp, || {
                format!("value {}, float_domain has disallow_inf", float_text(v))
            });
        }
    }
    if rule.bool_domain.is_some() && v != 0.0 && v != 1.0 {
        ff.hit(AnomalyKind::BoolUnexpectedFloat, at, stamp, || {
            format!("value {} not in {{0, 1}} (bool_domain)", float_text(v))
        });
    }
}

#[inline]
fn bytes_value(rule: &Rule, ff: &mut FeatureFound, v: &[u8], at: Loc, stamp: u64) {
    if let Some((values, name, _)) = &rule.strings {
        if std::str::from_utf8(v).is_err() {
            ff.hit(AnomalyKind::EnumInvalidUtf8, at, stamp, || {
                format!("value {} is not UTF-8 (string domain)", bytes_text(v))
            });
        } else if !values.contains(v) {
            ff.off_domain += 1;
            ff.hit(AnomalyKind::EnumUnexpectedString, at, stamp, || {
                let domain = if name.is_empty() {
                    "the string_domain".to_string()
                } else {
                    format!("string_domain {}", quoted(name))
                };
                format!("value {} not in {domain}", bytes_text(v))
            });
        }
    }
    if let Some(ok) = &rule.bool_domain {
        if !ok.iter().any(|s| s.as_slice() == v) {
            ff.hit(AnomalyKind::BoolUnexpectedString, at, stamp, || {
                let list: Vec<String> = ok.iter().map(|s| bytes_text(s)).collect();
                format!("value {} not in {{{}}} (bool_domain)", bytes_text(v), list.join(", "))
            });
        }
    }
}

// ---------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".into();
    }
    let p = part as f64 * 100.0 / whole as f64;
    let s = format!("{p:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}%")
}

impl Checker {
    /// The report of everything found: the per-record anomalies and the
    /// dataset-wide checks.
    pub fn report(&self, found: &Found, ty: Option<MessageType>) -> Report {
        let records = found.records;
        let mut anomalies = Vec::new();
        let empty = FeatureFound::default();
        for (i, rule) in self.rules.iter().enumerate() {
            if !rule.active {
                continue;
            }
            let ff = found.features.get(i).unwrap_or(&empty);
            let name = Some(rule.name.to_string());
            let required = rule.kind.is_some()
                && (rule.min_count.is_some_and(|c| c > 0) || rule.min_fraction.is_some_and(|f| f > 0.0));
            if ff.present == 0 {
                // TFDV checks nothing else of a feature absent from the data.
                if required {
                    anomalies.push(Anomaly {
                        feature: name,
                        kind: AnomalyKind::SchemaMissingColumn,
                        records: 0,
                        first: None,
                        detail: format!("in none of the {records} records; the schema's presence requires it"),
                    });
                }
                continue;
            }
            let missing = records - ff.present;
            let mut tallies: Vec<Tally> = ff.tallies.clone();
            if rule.kind.is_none() {
                // No type: TFDV says so and checks nothing else.
                for t in tallies {
                    anomalies.push(Anomaly {
                        feature: name.clone(),
                        kind: t.kind,
                        records: t.records,
                        first: Some(t.first),
                        detail: t.detail,
                    });
                }
                continue;
            }
            if let Some(min) = rule.min_count {
                if (ff.present as i64) < min {
                    anomalies.push(Anomaly {
                        feature: name.clone(),
                        kind: AnomalyKind::LowNumberPresent,
                        records: missing,
                        first: ff.first_missing,
                        detail: format!("present in {} records, presence min_count is {min}", ff.present),
                    });
                }
            }
            if let Some(min) = rule.min_fraction {
                let fraction = ff.present as f64 / records.max(1) as f64;
                if fraction < min || (min >= 1.0 && missing > 0) {
                    anomalies.push(Anomaly {
                        feature: name.clone(),
                        kind: AnomalyKind::LowFractionPresent,
                        records: missing,
                        first: ff.first_missing,
                        detail: format!(
                            "present in {} of {records} records ({}), presence min_fraction is {}",
                            ff.present,
                            percent(ff.present, records),
                            super::pbtxt::python_repr(min)
                        ),
                    });
                }
            }
            if rule.shape.is_some() && missing > 0 {
                let at = ff.first_missing.unwrap_or((0, 0));
                let detail = format!("missing (shape {})", rule.shape_text);
                match tallies.iter_mut().find(|t| t.kind == AnomalyKind::InvalidFeatureShape) {
                    Some(t) => {
                        t.records += missing;
                        if at < t.first {
                            t.first = at;
                            t.detail = detail;
                        }
                    }
                    None => tallies.push(Tally {
                        kind: AnomalyKind::InvalidFeatureShape,
                        records: missing,
                        first: at,
                        detail,
                        stamp: 0,
                    }),
                }
            }
            tallies.sort_by_key(|t| t.kind);
            for t in tallies {
                let mut detail = t.detail;
                if t.kind == AnomalyKind::EnumUnexpectedString {
                    let max_off = rule.strings.as_ref().map_or(0.0, |s| s.2);
                    let share = ff.off_domain as f64 / ff.values.max(1) as f64;
                    if !(share > max_off || (max_off == 0.0 && ff.off_domain > 0)) {
                        continue;
                    }
                    detail = format!(
                        "{detail}; {} of {} values ({}) outside the domain",
                        ff.off_domain,
                        ff.values,
                        percent(ff.off_domain, ff.values)
                    );
                    if max_off > 0.0 {
                        detail.push_str(&format!(
                            ", min_domain_mass allows {}",
                            percent((max_off * 1e6).round() as u64, 1_000_000)
                        ));
                    }
                }
                anomalies.push(Anomaly {
                    feature: name.clone(),
                    kind: t.kind,
                    records: t.records,
                    first: Some(t.first),
                    detail,
                });
            }
        }
        for n in found.new.iter().filter(|n| n.records > 0) {
            anomalies.push(Anomaly {
                feature: Some(n.name.to_string()),
                kind: AnomalyKind::SchemaNewColumn,
                records: n.records,
                first: Some(n.first),
                detail: "not in the schema".into(),
            });
        }
        if let Some(min) = self.min_examples {
            if (records as i64) < min {
                anomalies.push(Anomaly {
                    feature: None,
                    kind: AnomalyKind::DatasetLowNumExamples,
                    records: 0,
                    first: None,
                    detail: format!("{records} records, dataset_constraints min_examples_count is {min}"),
                });
            }
        }
        if let Some(max) = self.max_examples {
            if records as i64 > max {
                anomalies.push(Anomaly {
                    feature: None,
                    kind: AnomalyKind::DatasetHighNumExamples,
                    records: 0,
                    first: None,
                    detail: format!("{records} records, dataset_constraints max_examples_count is {max}"),
                });
            }
        }
        let mut not_checked = self.not_checked.clone();
        let skipped: Vec<&Rule> = self.rules.iter().filter(|r| !r.active).collect();
        if !skipped.is_empty() {
            let list: Vec<String> = skipped.iter().take(5).map(|r| quoted(&r.name)).collect();
            let more = match skipped.len() {
                n if n > 5 => format!(" and {} more", n - 5),
                _ => String::new(),
            };
            not_checked.push(format!(
                "features TFDV does not validate either (lifecycle_stage, deprecated, STRUCT): {}{more}",
                list.join(", ")
            ));
        }
        if ty == Some(MessageType::SequenceExample) {
            not_checked.push(
                "feature lists of the SequenceExamples (their context features are checked, as TFDV reads them)".into(),
            );
        }
        Report {
            ty,
            per_input: found.per_input.clone(),
            records,
            anomalies,
            not_checked,
            checked: self.checked(),
            new_untracked: found.new_untracked,
        }
    }
}

// ---------------------------------------------------------------------------
// The pass over the records
// ---------------------------------------------------------------------------

/// How [`validate`] reads.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub open: record::OpenOptions,
    /// `None`: auto (the first record decides, see [`crate::example`]).
    pub ty: Option<MessageType>,
    /// Threads checking records besides the reader and the merger.
    pub workers: usize,
}

/// What every record is checked with.
struct Run<'a> {
    ck: &'a Checker,
    inputs: &'a [Input],
    strict: bool,
}

/// Checks one record (input, index, byte offset) into `out`.
fn check_record(
    run: &Run<'_>,
    decoder: &mut Decoder,
    ty: MessageType,
    payload: &[u8],
    at: (u32, u64, u64),
    out: &mut Found,
) -> Result<()> {
    let (ck, strict) = (run.ck, run.strict);
    let failed = |e: example::DecodeError| {
        let name = run.inputs.get(at.0 as usize).map(Input::display).unwrap_or_default();
        anyhow::anyhow!(without_raw_hint(e)).context(format!("{name}: record {} at byte {}", at.1, at.2))
    };
    match ty {
        MessageType::SequenceExample => {
            let se = decoder.sequence_example(payload, strict).map_err(failed)?;
            out.record(ck, se.context(), (at.0, at.1));
        }
        _ => {
            let ex = decoder.example(payload, strict).map_err(failed)?;
            out.record(ck, ex.features(), (at.0, at.1));
        }
    }
    Ok(())
}

fn without_raw_hint(e: example::DecodeError) -> String {
    match e.kind() {
        DecodeErrorKind::NotAnExample { reason } => {
            let reason = format!("{reason}; `tfr validate` reads Examples and SequenceExamples");
            example::DecodeError::new(DecodeErrorKind::NotAnExample { reason }, e.offset())
                .without_raw_hint()
                .to_string()
        }
        _ => e.without_raw_hint().to_string(),
    }
}

/// Checks every record of the inputs (one dataset) against the schema.
/// Returns the report of the records read and the error that stopped the
/// reading early (damage, a payload that does not decode), if any.
/// `progress(bytes, records)` is called from this thread now and then.
pub fn validate(
    ck: &Checker,
    inputs: &[Input],
    opts: &Options,
    progress: &dyn Fn(u64, u64),
) -> (Report, Option<anyhow::Error>) {
    let mut ty = opts.ty;
    let run = Run {
        ck,
        inputs,
        strict: opts.ty.is_none(),
    };
    let mut found = Found::default();
    if let Some(t) = opts.ty.filter(|t| !checkable(*t)) {
        let e = anyhow::anyhow!(not_checkable(t));
        return (ck.report(&found, opts.ty), Some(e));
    }
    let work = |batch: &mut Batch<Found>, out: &mut Found| -> Result<()> {
        let ty = batch.ty;
        example::with_decoder(|decoder| {
            batch.work(out, |payload, r, out| {
                check_record(&run, decoder, ty, payload, (r.input, r.index, r.offset), out)
            })
        })
    };
    let merge = |batch: &Found| {
        found.merge(batch);
        Ok(())
    };
    let resolve = |i: u32, index: u64, offset: u64, payload: &[u8]| -> Result<MessageType> {
        let input = inputs[i as usize].display();
        let t = example::resolve_auto(payload).map_err(|e| {
            anyhow::anyhow!(without_raw_hint(e)).context(format!("{input}: record {index} at byte {offset}"))
        })?;
        if !checkable(t) {
            anyhow::bail!("{input}: {}", not_checkable(t));
        }
        Ok(t)
    };
    let huge = |t: MessageType, payload: &[u8], r: &BatchRec| -> Result<Box<Found>> {
        let mut found = Box::<Found>::default();
        example::with_decoder(|d| check_record(&run, d, t, payload, (r.input, r.index, r.offset), &mut found))?;
        Ok(found)
    };
    let reading = Reading {
        inputs,
        open: &opts.open,
        limit: None,
        resolve: &resolve,
        huge: &huge,
    };
    let mut read = Read::default();
    let produce = |tx: &mut Sender<Batch<Found>>| read_batches(&reading, &mut ty, &mut read, progress, tx);
    let result = pipeline::run(opts.workers, produce, work, merge);
    let error = result.err();
    (ck.report(&found, ty), error)
}

/// Whether `tfr validate` checks payloads of this type.
fn checkable(t: MessageType) -> bool {
    matches!(t, MessageType::Example | MessageType::SequenceExample)
}

fn not_checkable(t: MessageType) -> String {
    format!(
        "`tfr validate` checks Examples and SequenceExamples, not {} payloads",
        if t == MessageType::Elwc {
            "ExampleListWithContext"
        } else {
            "raw"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::example::proto;
    use prost::Message;

    fn example(features: &[(&str, proto::feature::Kind)]) -> Vec<u8> {
        let mut ex = proto::Example::default();
        let mut f = proto::Features::default();
        for (k, v) in features {
            f.feature.push(proto::FeatureEntry {
                key: Some(k.to_string()),
                value: Some(proto::Feature { kind: Some(v.clone()) }),
            });
        }
        ex.features = Some(f);
        ex.encode_to_vec()
    }

    fn ints(v: &[i64]) -> proto::feature::Kind {
        proto::feature::Kind::Int64List(proto::Int64List { value: v.to_vec() })
    }

    fn floats(v: &[f32]) -> proto::feature::Kind {
        proto::feature::Kind::FloatList(proto::FloatList { value: v.to_vec() })
    }

    fn strs(v: &[&str]) -> proto::feature::Kind {
        proto::feature::Kind::BytesList(proto::BytesList {
            value: v.iter().map(|s| s.as_bytes().to_vec()).collect(),
        })
    }

    fn run(schema: &str, records: &[Vec<u8>]) -> Report {
        let schema = Schema::from_pbtxt(schema).unwrap();
        let ck = Checker::new(&schema);
        let mut found = Found::default();
        let mut d = Decoder::new();
        for (i, r) in records.iter().enumerate() {
            let ex = d.example(r, false).unwrap();
            found.record(&ck, ex.features(), (0, i as u64));
        }
        ck.report(&found, Some(MessageType::Example))
    }

    fn kinds(r: &Report) -> Vec<(String, &'static str, u64, Option<Loc>)> {
        r.anomalies
            .iter()
            .map(|a| {
                (
                    a.feature.clone().unwrap_or_default(),
                    a.kind.tfdv_name(),
                    a.records,
                    a.first,
                )
            })
            .collect()
    }

    const SCHEMA: &str = r#"
feature { name: "a" type: INT int_domain { min: 0 max: 9 } presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }
feature { name: "f" type: FLOAT float_domain { min: 0 max: 1 disallow_nan: true disallow_inf: true } value_count { min: 1 max: 2 } }
feature { name: "s" type: BYTES domain: "S" presence { min_count: 1 } }
feature { name: "b" type: INT bool_domain { } }
feature { name: "gone" type: INT presence { min_count: 1 } }
feature { name: "old" type: INT lifecycle_stage: DEPRECATED presence { min_count: 1 } }
string_domain { name: "S" value: "x" value: "y" }
dataset_constraints { min_examples_count: 5 }
"#;

    #[test]
    fn clean_records_have_no_anomaly_but_the_dataset_ones() {
        let recs: Vec<Vec<u8>> = (0..3)
            .map(|i| {
                example(&[
                    ("a", ints(&[i])),
                    ("f", floats(&[0.5])),
                    ("s", strs(&["x"])),
                    ("b", ints(&[1])),
                ])
            })
            .collect();
        let r = run(SCHEMA, &recs);
        assert_eq!(
            kinds(&r),
            vec![
                ("gone".into(), "SCHEMA_MISSING_COLUMN", 0, None),
                (String::new(), "DATASET_LOW_NUM_EXAMPLES", 0, None)
            ]
        );
    }

    #[test]
    fn each_kind_is_found_at_its_first_record() {
        let mut recs = vec![
            example(&[
                ("a", ints(&[1])),
                ("f", floats(&[0.5])),
                ("s", strs(&["x"])),
                ("gone", ints(&[1])),
            ]),
            example(&[
                ("a", ints(&[10])),
                ("f", floats(&[f32::NAN, 2.0, -1.0])),
                ("s", strs(&["z"])),
            ]),
            example(&[
                ("a", floats(&[1.0])),
                ("f", floats(&[f32::INFINITY])),
                ("b", ints(&[2])),
                ("new", ints(&[1])),
            ]),
            example(&[("f", floats(&[])), ("b", ints(&[-1]))]),
            example(&[("a", ints(&[1, 2])), ("f", floats(&[0.0])), ("new", ints(&[1]))]),
        ];
        // A repeated key counts with its last occurrence (two encodings
        // concatenated are one message, its map entries merged).
        recs.push(
            [
                example(&[("a", floats(&[3.0]))]),
                example(&[("a", ints(&[3])), ("f", floats(&[0.1]))]),
            ]
            .concat(),
        );
        let r = run(SCHEMA, &recs);
        let k = kinds(&r);
        let expect = vec![
            ("a".to_string(), "FEATURE_TYPE_LOW_FRACTION_PRESENT", 1, Some((0, 3))),
            ("a".into(), "UNEXPECTED_DATA_TYPE", 1, Some((0, 2))),
            ("a".into(), "INVALID_FEATURE_SHAPE", 2, Some((0, 3))),
            ("a".into(), "INT_TYPE_BIG_INT", 1, Some((0, 1))),
            ("f".into(), "FEATURE_TYPE_LOW_NUMBER_VALUES", 1, Some((0, 3))),
            ("f".into(), "FEATURE_TYPE_HIGH_NUMBER_VALUES", 1, Some((0, 1))),
            ("f".into(), "FLOAT_TYPE_SMALL_FLOAT", 1, Some((0, 1))),
            ("f".into(), "FLOAT_TYPE_BIG_FLOAT", 2, Some((0, 1))),
            ("f".into(), "FLOAT_TYPE_HAS_NAN", 1, Some((0, 1))),
            ("f".into(), "FLOAT_TYPE_HAS_INF", 1, Some((0, 2))),
            ("s".into(), "ENUM_TYPE_UNEXPECTED_STRING_VALUES", 1, Some((0, 1))),
            ("b".into(), "BOOL_TYPE_SMALL_INT", 1, Some((0, 3))),
            ("b".into(), "BOOL_TYPE_BIG_INT", 1, Some((0, 2))),
            ("new".into(), "SCHEMA_NEW_COLUMN", 2, Some((0, 2))),
        ];
        assert_eq!(k, expect, "{:#?}", r.anomalies);
        assert!(
            r.not_checked.iter().any(|n| n.contains("\"old\"")),
            "{:?}",
            r.not_checked
        );
    }

    #[test]
    fn min_domain_mass_tolerates_a_share() {
        let schema = r#"feature { name: "s" type: BYTES string_domain { value: "x" } distribution_constraints { min_domain_mass: 0.5 } }"#;
        let two = [example(&[("s", strs(&["x"]))]), example(&[("s", strs(&["z"]))])];
        assert!(run(schema, &two).anomalies.is_empty());
        let three = [two[0].clone(), two[1].clone(), example(&[("s", strs(&["q"]))])];
        assert_eq!(kinds(&run(schema, &three))[0].1, "ENUM_TYPE_UNEXPECTED_STRING_VALUES");
    }
}

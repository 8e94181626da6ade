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
//! - in no record while `presence` asks for it: `SCHEMA_MISSING_COLUMN`,
//!   or `FEATURE_TYPE_NOT_PRESENT` when some records name it, but only
//!   as an empty `Feature {}` (no kind set);
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
//! And for the dataset: a feature the schema does not have (an empty
//! `Feature {}` included): `SCHEMA_NEW_COLUMN`; fewer / more records than `dataset_constraints`
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
use crate::error::Result;
use crate::example::{self, DecodeErrorKind, Decoder, FeatureView, FeaturesView, Kind, MessageType};
use crate::io::Input;
use crate::pipeline;
use crate::pipeline::batches::{self, Range, Reading, Record, Types, Work};
use crate::record;
use std::collections::HashMap;

/// An anomaly kind: TFDV's `AnomalyInfo.Type` (proto/anomalies.proto of
/// tensorflow_metadata).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnomalyKind {
    /// TFDV's `SCHEMA_MISSING_COLUMN`.
    SchemaMissingColumn,
    /// TFDV's `TYPE_NOT_PRESENT`.
    TypeNotPresent,
    /// TFDV's `SCHEMA_NEW_COLUMN`.
    SchemaNewColumn,
    /// TFDV's `LOW_FRACTION_PRESENT`.
    LowFractionPresent,
    /// TFDV's `LOW_NUMBER_PRESENT`.
    LowNumberPresent,
    /// TFDV's `UNEXPECTED_DATA_TYPE`.
    UnexpectedDataType,
    /// TFDV's `MISSING_TYPE`.
    MissingType,
    /// TFDV's `LOW_NUMBER_VALUES`.
    LowNumberValues,
    /// TFDV's `HIGH_NUMBER_VALUES`.
    HighNumberValues,
    /// TFDV's `INVALID_FEATURE_SHAPE`.
    InvalidFeatureShape,
    /// TFDV's `INT_SMALL`.
    IntSmall,
    /// TFDV's `INT_BIG`.
    IntBig,
    /// TFDV's `FLOAT_SMALL`.
    FloatSmall,
    /// TFDV's `FLOAT_BIG`.
    FloatBig,
    /// TFDV's `FLOAT_NAN`.
    FloatNan,
    /// TFDV's `FLOAT_INF`.
    FloatInf,
    /// TFDV's `BOOL_SMALL_INT`.
    BoolSmallInt,
    /// TFDV's `BOOL_BIG_INT`.
    BoolBigInt,
    /// TFDV's `BOOL_UNEXPECTED_FLOAT`.
    BoolUnexpectedFloat,
    /// TFDV's `BOOL_UNEXPECTED_STRING`.
    BoolUnexpectedString,
    /// TFDV's `ENUM_UNEXPECTED_STRING`.
    EnumUnexpectedString,
    /// TFDV's `ENUM_INVALID_UTF8`.
    EnumInvalidUtf8,
    /// TFDV's `DATASET_LOW_NUM_EXAMPLES`.
    DatasetLowNumExamples,
    /// TFDV's `DATASET_HIGH_NUM_EXAMPLES`.
    DatasetHighNumExamples,
}

impl AnomalyKind {
    /// Its `AnomalyInfo.Type` name.
    pub fn tfdv_name(self) -> &'static str {
        use AnomalyKind::*;
        match self {
            SchemaMissingColumn => "SCHEMA_MISSING_COLUMN",
            TypeNotPresent => "FEATURE_TYPE_NOT_PRESENT",
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
            SchemaMissingColumn | TypeNotPresent => "Column dropped",
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
    /// Which anomaly, as TFDV names it.
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
    /// The payload type the records were read as.
    pub ty: Option<MessageType>,
    /// Records read, per input.
    pub per_input: Vec<u64>,
    /// Records read in all.
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
    /// The records' annotations and their problems ([`Checks::annotations`];
    /// empty when they were not checked).
    pub annotations: crate::annotate::check::Tally,
}

/// New feature names reported by name at most (more are counted as one note).
pub const MAX_NEW: usize = 1000;

// ---------------------------------------------------------------------------
// The schema, compiled for checking records
// ---------------------------------------------------------------------------

/// A string domain as checked: its values, its name, and the share of
/// values allowed outside it.
type StringRule = (Arc<Vocab>, String, f64);

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
    bool_domain: Option<Box<[Vec<u8>]>>,
    /// The string domain's values and name, and the share of values allowed
    /// outside it.
    strings: Option<Box<StringRule>>,
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
        let mut vocabs = HashMap::new();
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
            rules.push(Rule::new(f, schema, &mut vocabs));
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
    fn new(f: &Feature, schema: &Schema, vocabs: &mut HashMap<String, Arc<Vocab>>) -> Rule {
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
                r.bool_domain = Some(ok.into_boxed_slice());
            }
            _ => {}
        }
        if let Some((d, name)) = string_domain {
            let max_off = f.min_domain_mass.map_or(0.0, |m| 1.0 - m);
            // (a named domain compiled once, whichever features use it)
            let vocab = match vocabs.get(&name) {
                Some(v) if matches!(f.domain, Some(Domain::Named(_))) => Arc::clone(v),
                _ => {
                    let v = Arc::new(Vocab::new(d.values.iter().map(String::as_str)));
                    if matches!(f.domain, Some(Domain::Named(_))) {
                        vocabs.insert(name.clone(), Arc::clone(&v));
                    }
                    v
                }
            };
            r.strings = Some(Box::new((vocab, name, max_off)));
        }
        r.int_values = r.int_min.is_some() || r.int_max.is_some() || r.bool_domain.is_some();
        r.float_values = r.float_min.is_some() || r.float_max.is_some() || r.nan || r.inf || r.bool_domain.is_some();
        r.bytes_values = r.strings.is_some() || r.bool_domain.is_some();
        r
    }
}

mod found;
#[cfg(test)]
mod tests;
mod vocab;
use std::sync::Arc;
use vocab::Vocab;

use found::Found;

// ---------------------------------------------------------------------------
// The pass over the records
// ---------------------------------------------------------------------------

/// How [`validate`] reads.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// How the inputs are opened.
    pub open: record::OpenOptions,
    /// `None`: auto (the first record decides, see [`crate::example`]).
    pub ty: Option<MessageType>,
    /// Threads checking records besides the reader and the merger.
    pub workers: usize,
}

/// What [`validate_checks`] checks the records for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Checks<'a> {
    /// Against a schema.
    pub schema: Option<&'a Checker>,
    /// Their annotations ([`crate::annotate`]: boxes, classes), with these
    /// options.
    pub annotations: Option<&'a crate::annotate::Options>,
}

/// What every record is checked with.
struct Run<'a> {
    ck: &'a Checker,
    /// Whether `ck` is the schema's (else only records are counted).
    schema: bool,
    annotations: Option<&'a crate::annotate::Options>,
    inputs: &'a [Input],
    strict: bool,
}

/// Checks one record (input, index, byte offset) into `out`, its maps
/// read as C++ protobuf (TFDV) reads them.
fn check_record(
    run: &Run<'_>,
    decoder: &mut Decoder,
    ty: MessageType,
    payload: &[u8],
    at: (u32, u64, u64),
    out: &mut Found,
) -> Result<()> {
    decoder.set_cpp_map_entries(true);
    let strict = run.strict;
    let failed = |e: example::DecodeError| {
        let name = run.inputs.get(at.0 as usize).map(Input::display).unwrap_or_default();
        crate::error::err!(without_raw_hint(e)).context(format!("{name}: record {} at byte {}", at.1, at.2))
    };
    let mut check = |features: Option<FeaturesView<'_>>| {
        let loc = (at.0, at.1);
        if run.schema {
            out.record(run.ck, features, loc);
        } else {
            out.count(loc);
        }
        if let Some(opts) = run.annotations {
            out.annotations(opts, features, loc);
        }
    };
    let checked = match ty {
        MessageType::SequenceExample => decoder.sequence_example(payload, strict).map(|se| check(se.context())),
        _ => decoder.example(payload, strict).map(|ex| check(ex.features())),
    };
    decoder.set_cpp_map_entries(false);
    checked.map_err(failed)
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
/// `progress(bytes, records)` is called from the reading threads now and
/// then.
pub fn validate(
    ck: &Checker,
    inputs: &[Input],
    opts: &Options,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> (Report, Option<crate::Error>) {
    let checks = Checks {
        schema: Some(ck),
        annotations: None,
    };
    validate_checks(&checks, inputs, opts, progress)
}

/// [`validate`] with the schema optional and the annotations checked too
/// (in the same pass): the report's anomalies are the schema's, its
/// [`Report::annotations`] the annotations' tally, whose problems are
/// counted per kind with the first record of each (in record order, at
/// any number of workers).
pub fn validate_checks(
    checks: &Checks<'_>,
    inputs: &[Input],
    opts: &Options,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> (Report, Option<crate::Error>) {
    let no_schema;
    let ck = match checks.schema {
        Some(ck) => ck,
        None => {
            no_schema = Checker::new(&Schema::default());
            &no_schema
        }
    };
    let run = Run {
        ck,
        schema: checks.schema.is_some(),
        annotations: checks.annotations,
        inputs,
        strict: opts.ty.is_none(),
    };
    let mut found = Found::default();
    if let Some(t) = opts.ty.filter(|t| !checkable(*t)) {
        let e = crate::error::err!(not_checkable(t));
        return (ck.report(&found, opts.ty), Some(e));
    }
    let merge = |batch: &Found| {
        found.merge(batch);
        Ok(())
    };
    let reading = Reading {
        open: &opts.open,
        types: Types::given(opts.ty, Types::Dataset),
        jobs: opts.workers.max(1),
        range: Range::default(),
        sample: None,
        probe_limit: false,
        filter: None,
    };
    let (read, result) = batches::run(inputs, &reading, opts.workers, &run, merge, progress);
    let error = result.err();
    let mut report = ck.report(&found, opts.ty.or(read.ty));
    report.annotations = std::mem::take(&mut found.annotations);
    if checks.schema.is_none() {
        // Notes about a schema's constraints: there is none.
        report.not_checked.clear();
    }
    (report, error)
}

/// Validation's consumer: each batch's findings (merged in order by
/// [`validate`]).
impl Work for Run<'_> {
    type Out = Found;

    fn record(&self, decoder: &mut Decoder, r: &Record<'_>, out: &mut Found) -> Result<()> {
        check_record(self, decoder, r.ty, r.payload, (r.input, r.index, r.offset), out)
    }

    fn resolve(&self, r: &Record<'_>) -> Result<MessageType> {
        let input = r.name;
        let t = example::resolve_auto(r.payload).map_err(|e| {
            crate::error::err!(without_raw_hint(e)).context(format!("{input}: record {} at byte {}", r.index, r.offset))
        })?;
        if !checkable(t) {
            crate::error::bail!("{input}: {}", not_checkable(t));
        }
        Ok(t)
    }
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

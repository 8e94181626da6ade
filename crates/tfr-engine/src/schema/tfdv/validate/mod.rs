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
//!
//! Also: environments ([`Checker::with_environment`]: a feature not in it
//! is not required, and `SCHEMA_NEW_COLUMN` when present), the schema's own
//! mistakes ([`schema_self`]: `INVALID_SCHEMA_SPECIFICATION`,
//! `DOMAIN_INVALID_FOR_TYPE`, `INVALID_DOMAIN_SPECIFICATION`,
//! `FEATURE_MISSING_NAME`), `value_counts` (`VALUE_NESTEDNESS_MISMATCH`
//! beyond one level), `unique_constraints` (`FEATURE_TYPE_LOW_UNIQUE`,
//! `_HIGH_UNIQUE`, `_NO_UNIQUE`), `image_domain.max_image_byte_size`
//! (`MAX_IMAGE_BYTE_SIZE_EXCEEDED`), sparse and weighted features
//! ([`sparse`]). Constraints tfr does not check (drift and skew
//! comparators, natural-language constraints, ...) are listed, with the
//! reason, in [`Report::not_checked`].

use super::model::{Domain, Feature, FeatureType, Schema, ValueCount};
use crate::error::Result;
use crate::example::{self, DecodeErrorKind, Decoder, FeatureView, FeaturesView, Kind, MessageType};
use crate::io::Input;
use crate::pipeline;
use crate::pipeline::batches::{self, Range, Reading, Record, Types, Work};
use crate::record;
use std::collections::{HashMap, HashSet};

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
    /// TFDV's `COMPARATOR_L_INFTY_HIGH` ([`super::drift`]).
    ComparatorLInftyHigh,
    /// TFDV's `COMPARATOR_NORMALIZED_ABSOLUTE_DIFFERENCE_HIGH`.
    ComparatorNormalizedAbsDifferenceHigh,
    /// TFDV's `COMPARATOR_JENSEN_SHANNON_DIVERGENCE_HIGH`.
    ComparatorJensenShannonDivergenceHigh,
    /// TFDV's `COMPARATOR_CONTROL_DATA_MISSING`.
    ComparatorControlDataMissing,
    /// TFDV's `COMPARATOR_LOW_NUM_EXAMPLES`.
    ComparatorLowNumExamples,
    /// TFDV's `COMPARATOR_HIGH_NUM_EXAMPLES`.
    ComparatorHighNumExamples,
    /// TFDV's `SCHEMA_NEW_COLUMN` "Column missing in environment": a
    /// feature of the schema in the data, but not in `--environment`.
    NotInEnvironment,
    /// TFDV's `FEATURE_MISSING_NAME`.
    FeatureMissingName,
    /// TFDV's `INVALID_SCHEMA_SPECIFICATION`.
    InvalidSchemaSpecification,
    /// TFDV's `DOMAIN_INVALID_FOR_TYPE`.
    DomainInvalidForType,
    /// TFDV's `INVALID_DOMAIN_SPECIFICATION`.
    InvalidDomainSpecification,
    /// TFDV's `VALUE_NESTEDNESS_MISMATCH`.
    ValueNestednessMismatch,
    /// TFDV's `FEATURE_TYPE_LOW_UNIQUE`.
    LowUnique,
    /// TFDV's `FEATURE_TYPE_HIGH_UNIQUE`.
    HighUnique,
    /// TFDV's `FEATURE_TYPE_NO_UNIQUE`.
    NoUnique,
    /// TFDV's `MAX_IMAGE_BYTE_SIZE_EXCEEDED`.
    MaxImageByteSizeExceeded,
    /// TFDV's `SPARSE_FEATURE_NAME_COLLISION`.
    SparseNameCollision,
    /// TFDV's `SPARSE_FEATURE_MISSING_VALUE`.
    SparseMissingValue,
    /// TFDV's `SPARSE_FEATURE_MISSING_INDEX`.
    SparseMissingIndex,
    /// TFDV's `SPARSE_FEATURE_LENGTH_MISMATCH`.
    SparseLengthMismatch,
    /// TFDV's `WEIGHTED_FEATURE_NAME_COLLISION`.
    WeightedNameCollision,
    /// TFDV's `WEIGHTED_FEATURE_MISSING_VALUE`.
    WeightedMissingValue,
    /// TFDV's `WEIGHTED_FEATURE_MISSING_WEIGHT`.
    WeightedMissingWeight,
    /// TFDV's `WEIGHTED_FEATURE_LENGTH_MISMATCH`.
    WeightedLengthMismatch,
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
            ComparatorLInftyHigh => "COMPARATOR_L_INFTY_HIGH",
            ComparatorNormalizedAbsDifferenceHigh => "COMPARATOR_NORMALIZED_ABSOLUTE_DIFFERENCE_HIGH",
            ComparatorJensenShannonDivergenceHigh => "COMPARATOR_JENSEN_SHANNON_DIVERGENCE_HIGH",
            ComparatorControlDataMissing => "COMPARATOR_CONTROL_DATA_MISSING",
            ComparatorLowNumExamples => "COMPARATOR_LOW_NUM_EXAMPLES",
            ComparatorHighNumExamples => "COMPARATOR_HIGH_NUM_EXAMPLES",
            NotInEnvironment => "SCHEMA_NEW_COLUMN",
            FeatureMissingName => "FEATURE_MISSING_NAME",
            InvalidSchemaSpecification => "INVALID_SCHEMA_SPECIFICATION",
            DomainInvalidForType => "DOMAIN_INVALID_FOR_TYPE",
            InvalidDomainSpecification => "INVALID_DOMAIN_SPECIFICATION",
            ValueNestednessMismatch => "VALUE_NESTEDNESS_MISMATCH",
            LowUnique => "FEATURE_TYPE_LOW_UNIQUE",
            HighUnique => "FEATURE_TYPE_HIGH_UNIQUE",
            NoUnique => "FEATURE_TYPE_NO_UNIQUE",
            MaxImageByteSizeExceeded => "MAX_IMAGE_BYTE_SIZE_EXCEEDED",
            SparseNameCollision => "SPARSE_FEATURE_NAME_COLLISION",
            SparseMissingValue => "SPARSE_FEATURE_MISSING_VALUE",
            SparseMissingIndex => "SPARSE_FEATURE_MISSING_INDEX",
            SparseLengthMismatch => "SPARSE_FEATURE_LENGTH_MISMATCH",
            WeightedNameCollision => "WEIGHTED_FEATURE_NAME_COLLISION",
            WeightedMissingValue => "WEIGHTED_FEATURE_MISSING_VALUE",
            WeightedMissingWeight => "WEIGHTED_FEATURE_MISSING_WEIGHT",
            WeightedLengthMismatch => "WEIGHTED_FEATURE_LENGTH_MISMATCH",
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
            ComparatorLInftyHigh => "High Linfty distance",
            ComparatorNormalizedAbsDifferenceHigh => "High normalized absolute difference",
            ComparatorJensenShannonDivergenceHigh => "High approximate Jensen-Shannon divergence",
            ComparatorControlDataMissing => "Control data missing",
            ComparatorLowNumExamples => "Low num examples versus the control",
            ComparatorHighNumExamples => "High num examples versus the control",
            NotInEnvironment => "Column missing in environment",
            FeatureMissingName => "Feature without a name",
            InvalidSchemaSpecification => "Invalid schema specification",
            DomainInvalidForType => "The domain does not match the type",
            InvalidDomainSpecification => "Invalid domain specification",
            ValueNestednessMismatch => "Mismatched value nest level",
            LowUnique => "Low number of unique values",
            HighUnique => "High number of unique values",
            NoUnique => "No unique values",
            MaxImageByteSizeExceeded => "Num bytes exceeds the max byte size",
            SparseNameCollision => "Sparse feature name collision",
            SparseMissingValue | WeightedMissingValue => "Missing value feature",
            SparseMissingIndex => "Missing index feature",
            SparseLengthMismatch => "Length mismatch between value and index feature",
            WeightedNameCollision => "Weighted feature name collision",
            WeightedMissingWeight => "Missing weight feature",
            WeightedLengthMismatch => "Length mismatch between value and weight feature",
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
    /// The figures drift and skew comparators measured ([`super::drift`];
    /// empty without controls).
    pub drift_skew: Vec<super::drift::DriftSkewInfo>,
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
    /// In the environment validated (always, without `--environment`).
    in_env: bool,
    /// Its absence is an anomaly (TFDV's `IsExistenceRequired`).
    required: bool,
    /// The schema's own mistakes in this feature ([`schema_self`]).
    self_anomalies: Vec<(AnomalyKind, String)>,
    /// No name: only `FEATURE_MISSING_NAME`.
    nameless: bool,
    /// `value_counts` with other than one level.
    nestedness_mismatch: bool,
    /// The value count is `value_counts`' level 0.
    from_levels: bool,
    /// `unique_constraints` as TFDV reads them (an unset bound is 0).
    unique: Option<(i64, i64)>,
    /// Its int64 / float values are categorical (counted as strings by TFDV).
    ints_categorical: bool,
    floats_categorical: bool,
    /// `image_domain`: its bytes are BYTES to TFDV (no unique count).
    image: bool,
    /// `image_domain.max_image_byte_size`.
    max_image_bytes: Option<u64>,
}

/// A schema ready to check records with.
#[derive(Debug)]
pub struct Checker {
    rules: Vec<Rule>,
    index: HashMap<Box<str>, u32>,
    min_examples: Option<i64>,
    max_examples: Option<i64>,
    not_checked: Vec<String>,
    /// The sparse and weighted features.
    components: sparse::Components,
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

mod compile;
mod found;
mod report;
mod schema_self;
mod sparse;
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

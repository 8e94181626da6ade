//! The part of tensorflow_metadata's `Schema` (proto/schema.proto) that tfr
//! writes (`tfr schema --format tfdv-schema`) and checks (`tfr validate`).
//!
//! Field names follow schema.proto. Anything a schema file holds that is
//! not modelled here is kept by name in `ignored` so `tfr validate` can say
//! which constraints it did not check.

/// `FeatureType` of schema.proto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureType {
    /// `TYPE_UNKNOWN`.
    Unknown,
    /// `BYTES`.
    Bytes,
    /// `INT`.
    Int,
    /// `FLOAT`.
    Float,
    /// `STRUCT`.
    Struct,
}

/// `FeaturePresence`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Presence {
    /// `min_fraction`: the least share of records holding the feature.
    pub min_fraction: Option<f64>,
    /// `min_count`: the fewest records holding the feature.
    pub min_count: Option<i64>,
}

/// `ValueCount`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueCount {
    /// `min`: the fewest values.
    pub min: Option<i64>,
    /// `max`: the most values.
    pub max: Option<i64>,
}

/// `IntDomain`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntDomain {
    /// `name` (of a top-level domain).
    pub name: Option<String>,
    /// `min`.
    pub min: Option<i64>,
    /// `max`.
    pub max: Option<i64>,
    /// `is_categorical`.
    pub is_categorical: bool,
}

/// `FloatDomain`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FloatDomain {
    /// `name`.
    pub name: Option<String>,
    /// `min`.
    pub min: Option<f32>,
    /// `max`.
    pub max: Option<f32>,
    /// `disallow_nan`.
    pub disallow_nan: bool,
    /// `disallow_inf`.
    pub disallow_inf: bool,
}

/// `StringDomain` (inline in a feature, or a top-level named one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringDomain {
    /// `name`.
    pub name: Option<String>,
    /// `value`: the values allowed.
    pub values: Vec<String>,
}

/// `BoolDomain`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoolDomain {
    /// `name`.
    pub name: Option<String>,
    /// `true_value`.
    pub true_value: Option<String>,
    /// `false_value`.
    pub false_value: Option<String>,
}

/// The `domain_info` oneof of a feature.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// `domain: "NAME"`: a top-level `string_domain` (resolved by
    /// [`Schema::string_domain`]).
    Named(String),
    /// `int_domain`.
    Int(IntDomain),
    /// `float_domain`.
    Float(FloatDomain),
    /// `string_domain` (inline, or a top-level one by `domain: "NAME"`).
    String(StringDomain),
    /// `bool_domain`.
    Bool(BoolDomain),
    /// Any other domain (image, URL, ...), by its field name: not checked.
    Other(String),
}

/// `Feature`.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    /// `name`.
    pub name: String,
    /// `type`.
    pub kind: FeatureType,
    /// `presence`.
    pub presence: Option<Presence>,
    /// `value_count` (one of this or `shape`).
    pub value_count: Option<ValueCount>,
    /// `shape { dim { size: N } ... }`: the sizes.
    pub shape: Option<Vec<i64>>,
    /// The value domain.
    pub domain: Option<Domain>,
    /// `distribution_constraints { min_domain_mass }`.
    pub min_domain_mass: Option<f64>,
    /// `drift_comparator`.
    pub drift: Option<Comparator>,
    /// `skew_comparator`.
    pub skew: Option<Comparator>,
    /// `lifecycle_stage` when it is one TFDV does not validate
    /// (PLANNED, ALPHA, DEBUG_ONLY, DEPRECATED, DISABLED).
    pub not_validated: bool,
    /// Field names of this feature that tfr keeps but does not check.
    pub ignored: Vec<String>,
    /// `deprecated: true` (the old way to say DEPRECATED; TFDV skips the
    /// feature).
    pub deprecated: bool,
    /// `lifecycle_stage`, as written (`None`: not set).
    pub lifecycle_stage: Option<LifecycleStage>,
    /// Whether the schema gives the feature a `name` (TFDV flags a nameless
    /// one `FEATURE_MISSING_NAME` when the data has a feature named "").
    pub named: bool,
    /// `in_environment`.
    pub in_environment: Vec<String>,
    /// `not_in_environment`.
    pub not_in_environment: Vec<String>,
    /// `value_counts { value_count ... }`: one per nesting level (one of
    /// this, `value_count` or `shape`).
    pub value_counts: Option<Vec<ValueCount>>,
    /// `unique_constraints { min max }` (each as written).
    pub unique_constraints: Option<ValueCount>,
    /// `image_domain { max_image_byte_size }`.
    pub max_image_byte_size: Option<i64>,
}

/// `SparseFeature`: a sparse tensor made of index features and a value
/// feature (top-level features of the same names).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SparseFeature {
    /// `name`.
    pub name: String,
    /// `index_feature { name }`, in order.
    pub index: Vec<String>,
    /// `value_feature { name }`.
    pub value: String,
    /// `deprecated: true` or a `lifecycle_stage` TFDV does not validate.
    pub not_validated: bool,
}

/// `WeightedFeature`: a feature's values with a weight each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WeightedFeature {
    /// `name`.
    pub name: String,
    /// `feature { step ... }`: the values' path.
    pub feature: Vec<String>,
    /// `weight_feature { step ... }`: the weights' path.
    pub weight: Vec<String>,
    /// A `lifecycle_stage` TFDV does not validate.
    pub not_validated: bool,
}

/// `LifecycleStage` of schema.proto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LifecycleStage {
    /// `UNKNOWN_STAGE`.
    UnknownStage,
    /// `PLANNED`.
    Planned,
    /// `ALPHA`.
    Alpha,
    /// `BETA`.
    Beta,
    /// `PRODUCTION`.
    Production,
    /// `DEPRECATED`.
    Deprecated,
    /// `DEBUG_ONLY`.
    DebugOnly,
    /// `DISABLED`.
    Disabled,
    /// `VALIDATION_DERIVED`.
    ValidationDerived,
}

impl LifecycleStage {
    /// Every stage, with its name and number in schema.proto.
    pub const ALL: [(LifecycleStage, &'static str, i64); 9] = [
        (LifecycleStage::UnknownStage, "UNKNOWN_STAGE", 0),
        (LifecycleStage::Planned, "PLANNED", 1),
        (LifecycleStage::Alpha, "ALPHA", 2),
        (LifecycleStage::Beta, "BETA", 3),
        (LifecycleStage::Production, "PRODUCTION", 4),
        (LifecycleStage::Deprecated, "DEPRECATED", 5),
        (LifecycleStage::DebugOnly, "DEBUG_ONLY", 6),
        (LifecycleStage::Disabled, "DISABLED", 7),
        (LifecycleStage::ValidationDerived, "VALIDATION_DERIVED", 9),
    ];

    /// Its name in schema.proto.
    pub fn name(self) -> &'static str {
        LifecycleStage::ALL
            .iter()
            .find(|(s, _, _)| *s == self)
            .map_or("UNKNOWN_STAGE", |(_, n, _)| n)
    }

    /// Whether TFDV skips features at this stage (`LifecycleStageIsDeprecated`).
    pub fn is_not_validated(self) -> bool {
        matches!(
            self,
            LifecycleStage::Planned
                | LifecycleStage::Alpha
                | LifecycleStage::Deprecated
                | LifecycleStage::DebugOnly
                | LifecycleStage::Disabled
        )
    }
}

impl Feature {
    /// A feature of `kind` with nothing else set.
    pub fn new(name: &str, kind: FeatureType) -> Self {
        Feature {
            name: name.to_string(),
            kind,
            presence: None,
            value_count: None,
            shape: None,
            domain: None,
            min_domain_mass: None,
            drift: None,
            skew: None,
            not_validated: false,
            ignored: Vec::new(),
            deprecated: false,
            lifecycle_stage: None,
            named: true,
            in_environment: Vec::new(),
            not_in_environment: Vec::new(),
            value_counts: None,
            unique_constraints: None,
            max_image_byte_size: None,
        }
    }
}

/// `FeatureComparator` (`drift_comparator`, `skew_comparator`): each
/// threshold as set (`None`: not set, which TFDV reads as "not checked";
/// proto2's `has_threshold`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Comparator {
    /// `infinity_norm { threshold }`.
    pub infinity_norm: Option<f64>,
    /// `jensen_shannon_divergence { threshold }`.
    pub jensen_shannon_divergence: Option<f64>,
    /// `jensen_shannon_divergence { source { type } }` (0 DEFAULT,
    /// 1 QUANTILES, 2 STANDARD; only QUANTILES picks the quantiles histogram).
    pub jsd_source: Option<i64>,
    /// `normalized_abs_difference { threshold }`.
    pub normalized_abs_difference: Option<f64>,
}

/// `NumericValueComparator`: the thresholds as set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NumericComparator {
    /// `min_fraction_threshold`.
    pub min_fraction: Option<f64>,
    /// `max_fraction_threshold`.
    pub max_fraction: Option<f64>,
}

impl NumericComparator {
    fn read(f: &pbtxt::Field) -> ParseResult<NumericComparator> {
        let mut c = NumericComparator::default();
        for h in f.message()? {
            match h.name.as_str() {
                "min_fraction_threshold" => c.min_fraction = Some(h.float()?),
                "max_fraction_threshold" => c.max_fraction = Some(h.float()?),
                _ => return unknown(h, "NumericValueComparator"),
            }
        }
        Ok(c)
    }

    fn write(&self, w: &mut Writer, field: &str) {
        w.open(field);
        if let Some(x) = self.min_fraction {
            w.double("min_fraction_threshold", x);
        }
        if let Some(x) = self.max_fraction {
            w.double("max_fraction_threshold", x);
        }
        w.close();
    }
}

/// `DatasetConstraints`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DatasetConstraints {
    /// `min_examples_count`.
    pub min_examples_count: Option<i64>,
    /// `num_examples_drift_comparator`.
    pub num_examples_drift_comparator: Option<NumericComparator>,
    /// `num_examples_version_comparator`.
    pub num_examples_version_comparator: Option<NumericComparator>,
    /// `max_examples_count`.
    pub max_examples_count: Option<i64>,
}

/// `Schema`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    /// `feature`, in order.
    pub features: Vec<Feature>,
    /// Top-level `string_domain`s, referred to by `domain: "NAME"`.
    pub string_domains: Vec<StringDomain>,
    /// `dataset_constraints`.
    pub dataset_constraints: Option<DatasetConstraints>,
    /// Top-level field names tfr keeps but does not check.
    pub ignored: Vec<String>,
    /// `default_environment`, in order.
    pub default_environment: Vec<String>,
    /// `sparse_feature`, in order.
    pub sparse_features: Vec<SparseFeature>,
    /// `weighted_feature`, in order.
    pub weighted_features: Vec<WeightedFeature>,
}

impl Schema {
    /// The top-level string domain called `name`.
    pub fn string_domain(&self, name: &str) -> Option<&StringDomain> {
        self.string_domains.iter().find(|d| d.name.as_deref() == Some(name))
    }
}

// ---------------------------------------------------------------------------
// Reading and writing schema.pbtxt
// ---------------------------------------------------------------------------

use super::pbtxt::{self, EnumValue, Field, Writer};

/// Result of reading a schema: errors name a line and column.
pub type ParseResult<T> = Result<T, pbtxt::Error>;

impl Schema {
    /// Reads a `Schema` in protobuf text format (`schema.pbtxt`, as
    /// `tfdv.write_schema_text` writes it). Fields of schema.proto that tfr
    /// does not model are kept by name in `ignored`; a name schema.proto
    /// does not have, a value of the wrong kind or a syntax error is an
    /// error at its line and column.
    pub fn from_pbtxt(text: &str) -> ParseResult<Schema> {
        let mut schema = Schema::default();
        // One top-level field at a time, a string domain one value at a
        // time: the tree of a large schema is never held whole, only the
        // model made from it.
        let mut open: Option<StringDomain> = None;
        pbtxt::parse_pieces(text, &|name| name == "string_domain", &mut |piece| {
            match (piece, &mut open) {
                (pbtxt::Piece::Open(_), _) => open = Some(StringDomain::default()),
                (pbtxt::Piece::Field(f), Some(d)) => d.read_field(&f, &mut schema.ignored, "string_domain")?,
                (pbtxt::Piece::Field(f), None) => schema.read_top(&f)?,
                (pbtxt::Piece::Close, _) => schema.string_domains.extend(open.take()),
            }
            Ok(())
        })?;
        Ok(schema)
    }

    /// Reads one top-level field of a `schema.pbtxt` into the schema.
    fn read_top(&mut self, f: &pbtxt::Field) -> ParseResult<()> {
        let schema = self;
        {
            match f.name.as_str() {
                "feature" => schema.features.push(Feature::read(f.message()?)?),
                "string_domain" => {
                    let d = StringDomain::read(f.message()?, &mut schema.ignored, "string_domain")?;
                    schema.string_domains.push(d);
                }
                "dataset_constraints" => {
                    let mut c = DatasetConstraints::default();
                    for g in f.message()? {
                        match g.name.as_str() {
                            "min_examples_count" => c.min_examples_count = Some(g.int()?),
                            "max_examples_count" => c.max_examples_count = Some(g.int()?),
                            "num_examples_drift_comparator" => {
                                c.num_examples_drift_comparator = Some(NumericComparator::read(g)?)
                            }
                            "num_examples_version_comparator" => {
                                c.num_examples_version_comparator = Some(NumericComparator::read(g)?)
                            }
                            _ => return unknown(g, "DatasetConstraints"),
                        }
                    }
                    schema.dataset_constraints = Some(c);
                }
                "default_environment" => schema.default_environment.push(f.string()?),
                "sparse_feature" => schema.sparse_features.push(SparseFeature::read(f.message()?)?),
                "weighted_feature" => schema.weighted_features.push(WeightedFeature::read(f.message()?)?),
                name if SCHEMA_OTHER.contains(&name) => note(&mut schema.ignored, name.to_string()),
                _ => return unknown(f, "Schema"),
            }
        }
        Ok(())
    }

    /// The schema in protobuf text format, as `tfdv.write_schema_text`
    /// writes it: fields in schema.proto field-number order, two-space
    /// indent, strings C-escaped (non-ASCII bytes in octal), doubles as
    /// Python's `repr`. Fields kept only by name (`ignored`, and the
    /// settings of [`Domain::Other`] domains) are not written, nor (as
    /// tfr's inferred schemas never have them) environments,
    /// `value_counts`, `unique_constraints`, sparse and weighted features.
    pub fn to_pbtxt(&self) -> String {
        let mut w = Writer::new();
        for f in &self.features {
            f.write(&mut w);
        }
        for d in &self.string_domains {
            d.write(&mut w, "string_domain");
        }
        if let Some(c) = &self.dataset_constraints {
            w.open("dataset_constraints");
            if let Some(n) = &c.num_examples_drift_comparator {
                n.write(&mut w, "num_examples_drift_comparator");
            }
            if let Some(n) = &c.num_examples_version_comparator {
                n.write(&mut w, "num_examples_version_comparator");
            }
            if let Some(n) = c.min_examples_count {
                w.int("min_examples_count", n);
            }
            if let Some(n) = c.max_examples_count {
                w.int("max_examples_count", n);
            }
            w.close();
        }
        w.finish()
    }

    /// A schema inferred from tfr's own schema JSON (`tfr schema -f json`,
    /// documented in [`crate::schema`]), by `tfdv.infer_schema`'s rules on
    /// what that file holds: `kind` gives the type (a feature whose kind
    /// conflicts or was never set gets none: TFDV would not check it);
    /// present in every record: `presence { min_fraction: 1 min_count: 1 }`,
    /// else `min_count: 1`; the same number of values N in every record:
    /// `shape [N]` (when always present) or `value_count { min: N max: N }`,
    /// else at least one value everywhere: `value_count { min: 1 }`; int64
    /// values all 0 or 1: `bool_domain`. For a SequenceExample the
    /// `context` features (as TFDV sees a SequenceExample: its context).
    /// Errors carry the line and column of the JSON.
    pub fn from_tfr_json(text: &str) -> ParseResult<Schema> {
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| pbtxt::Error {
            line: e.line() as u32,
            col: e.column() as u32,
            message: format!("not a tfr schema JSON: {e}"),
        })?;
        let bad = |message: &str| pbtxt::Error {
            line: 1,
            col: 1,
            message: message.to_string(),
        };
        let records = doc
            .get("records")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| bad("not a tfr schema JSON (`tfr schema -f json`): no \"records\" count"))?;
        let section = doc
            .get("features")
            .or_else(|| doc.get("context"))
            .and_then(serde_json::Value::as_object)
            .ok_or_else(|| bad("not a tfr schema JSON (`tfr schema -f json`): no \"features\" or \"context\""))?;
        let mut schema = Schema::default();
        for (name, f) in section {
            let kind = match f.get("kind").and_then(serde_json::Value::as_str) {
                Some("int64") => FeatureType::Int,
                Some("float") => FeatureType::Float,
                Some("bytes") => FeatureType::Bytes,
                _ => FeatureType::Unknown,
            };
            let mut out = Feature::new(name, kind);
            let present = f.get("present").and_then(serde_json::Value::as_u64).unwrap_or(0);
            let always = present == records && records > 0;
            out.presence = Some(Presence {
                min_fraction: always.then_some(1.0),
                min_count: Some(1),
            });
            let values = f.get("values");
            let num = |k: &str| values.and_then(|v| v.get(k)).and_then(serde_json::Value::as_i64);
            if let (Some(min), Some(max)) = (num("min"), num("max")) {
                if min == max && min > 0 {
                    if always {
                        out.shape = Some(vec![min]);
                    } else {
                        out.value_count = Some(ValueCount {
                            min: Some(min),
                            max: Some(max),
                        });
                    }
                } else if min >= 1 {
                    out.value_count = Some(ValueCount {
                        min: Some(1),
                        max: None,
                    });
                }
            }
            if kind == FeatureType::Int {
                let ints = f.get("int64");
                let v = |k: &str| ints.and_then(|i| i.get(k)).and_then(serde_json::Value::as_i64);
                if let (Some(min), Some(max)) = (v("min"), v("max")) {
                    if min >= 0 && max <= 1 {
                        out.domain = Some(Domain::Bool(BoolDomain::default()));
                    }
                }
            }
            schema.features.push(out);
        }
        Ok(schema)
    }

    /// Reads a schema file's text: tfr's schema JSON when it starts with
    /// `{`, else `schema.pbtxt`.
    pub fn from_text(text: &str) -> ParseResult<Schema> {
        if text.trim_start().starts_with('{') {
            Schema::from_tfr_json(text)
        } else {
            Schema::from_pbtxt(text)
        }
    }
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;

mod features;
use features::*;

//! The part of tensorflow_metadata's `Schema` (proto/schema.proto) that tfr
//! writes (`tfr schema --format tfdv-schema`) and checks (`tfr validate`).
//!
//! Field names follow schema.proto. Anything a schema file holds that is
//! not modelled here is kept by name in `ignored` so `tfr validate` can say
//! which constraints it did not check.

/// `FeatureType` of schema.proto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureType {
    Unknown,
    Bytes,
    Int,
    Float,
    Struct,
}

/// `FeaturePresence`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Presence {
    pub min_fraction: Option<f64>,
    pub min_count: Option<i64>,
}

/// `ValueCount`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueCount {
    pub min: Option<i64>,
    pub max: Option<i64>,
}

/// `IntDomain`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntDomain {
    pub name: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub is_categorical: bool,
}

/// `FloatDomain`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FloatDomain {
    pub name: Option<String>,
    pub min: Option<f32>,
    pub max: Option<f32>,
    pub disallow_nan: bool,
    pub disallow_inf: bool,
}

/// `StringDomain` (inline in a feature, or a top-level named one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringDomain {
    pub name: Option<String>,
    pub values: Vec<String>,
}

/// `BoolDomain`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoolDomain {
    pub name: Option<String>,
    pub true_value: Option<String>,
    pub false_value: Option<String>,
}

/// The `domain_info` oneof of a feature.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// `domain: "NAME"`: a top-level `string_domain` (resolved by
    /// [`Schema::string_domain`]).
    Named(String),
    Int(IntDomain),
    Float(FloatDomain),
    String(StringDomain),
    Bool(BoolDomain),
    /// Any other domain (image, URL, ...), by its field name: not checked.
    Other(String),
}

/// `Feature`.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    pub name: String,
    pub kind: FeatureType,
    pub presence: Option<Presence>,
    /// `value_count` (one of this or `shape`).
    pub value_count: Option<ValueCount>,
    /// `shape { dim { size: N } ... }`: the sizes.
    pub shape: Option<Vec<i64>>,
    pub domain: Option<Domain>,
    /// `distribution_constraints { min_domain_mass }`.
    pub min_domain_mass: Option<f64>,
    /// `drift_comparator { infinity_norm { threshold } }`.
    pub drift_linf: Option<f64>,
    /// `lifecycle_stage` when it is one TFDV does not validate
    /// (PLANNED, ALPHA, DEBUG_ONLY, DEPRECATED, DISABLED).
    pub not_validated: bool,
    /// Field names of this feature that tfr keeps but does not check.
    pub ignored: Vec<String>,
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
            drift_linf: None,
            not_validated: false,
            ignored: Vec::new(),
        }
    }
}

/// `DatasetConstraints`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DatasetConstraints {
    pub min_examples_count: Option<i64>,
    pub num_examples_drift_comparator: Option<(f64, f64)>,
}

/// `Schema`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    pub features: Vec<Feature>,
    /// Top-level `string_domain`s, referred to by `domain: "NAME"`.
    pub string_domains: Vec<StringDomain>,
    pub dataset_constraints: Option<DatasetConstraints>,
    /// Top-level field names tfr keeps but does not check.
    pub ignored: Vec<String>,
}

impl Schema {
    /// The top-level string domain called `name`.
    pub fn string_domain(&self, name: &str) -> Option<&StringDomain> {
        self.string_domains.iter().find(|d| d.name.as_deref() == Some(name))
    }
}

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
    /// `deprecated: true` (the old way to say DEPRECATED; TFDV skips the
    /// feature).
    pub deprecated: bool,
    /// `lifecycle_stage`, as written (`None`: not set).
    pub lifecycle_stage: Option<LifecycleStage>,
}

/// `LifecycleStage` of schema.proto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LifecycleStage {
    UnknownStage,
    Planned,
    Alpha,
    Beta,
    Production,
    Deprecated,
    DebugOnly,
    Disabled,
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
            drift_linf: None,
            not_validated: false,
            ignored: Vec::new(),
            deprecated: false,
            lifecycle_stage: None,
        }
    }
}

/// `DatasetConstraints`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DatasetConstraints {
    pub min_examples_count: Option<i64>,
    /// `(min_fraction_threshold, max_fraction_threshold)`.
    pub num_examples_drift_comparator: Option<(f64, f64)>,
    pub max_examples_count: Option<i64>,
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

// ---------------------------------------------------------------------------
// Reading and writing schema.pbtxt
// ---------------------------------------------------------------------------

use super::pbtxt::{self, EnumValue, Field, Writer};

/// Result of reading a schema: errors name a line and column.
pub type ParseResult<T> = Result<T, pbtxt::Error>;

/// Fields of schema.proto's messages that tfr reads but does not model:
/// kept by name (a name outside these lists is an error, as in protobuf).
const SCHEMA_OTHER: &[&str] = &[
    "sparse_feature",
    "weighted_feature",
    "float_domain",
    "int_domain",
    "default_environment",
    "generate_legacy_feature_spec",
    "represent_variable_length_as_ragged",
    "annotation",
    "tensor_representation_group",
];
const FEATURE_OTHER: &[&str] = &[
    "group_presence",
    "value_counts",
    "annotation",
    "skew_comparator",
    "in_environment",
    "not_in_environment",
    "unique_constraints",
    "validation_derived_source",
    "sequence_metadata",
];
/// The domains of the `domain_info` oneof tfr does not check.
const OTHER_DOMAINS: &[&str] = &[
    "struct_domain",
    "natural_language_domain",
    "image_domain",
    "mid_domain",
    "url_domain",
    "time_domain",
    "time_of_day_domain",
];

/// The field number of each `domain_info` member (for writing in order).
fn domain_number(name: &str) -> u32 {
    match name {
        "natural_language_domain" => 24,
        "image_domain" => 25,
        "mid_domain" => 26,
        "url_domain" => 27,
        "time_domain" => 28,
        "struct_domain" => 29,
        "time_of_day_domain" => 30,
        _ => 7,
    }
}

fn unknown<T>(f: &Field, message: &str) -> ParseResult<T> {
    f.error(format!("no field \"{}\" in {message}", f.name))
}

fn note(ignored: &mut Vec<String>, name: String) {
    if !ignored.contains(&name) {
        ignored.push(name);
    }
}

impl FeatureType {
    /// Its name in schema.proto.
    pub fn name(self) -> &'static str {
        match self {
            FeatureType::Unknown => "TYPE_UNKNOWN",
            FeatureType::Bytes => "BYTES",
            FeatureType::Int => "INT",
            FeatureType::Float => "FLOAT",
            FeatureType::Struct => "STRUCT",
        }
    }

    fn read(f: &Field) -> ParseResult<FeatureType> {
        Ok(match f.enum_value()? {
            EnumValue::Name("TYPE_UNKNOWN") | EnumValue::Number(0) => FeatureType::Unknown,
            EnumValue::Name("BYTES") | EnumValue::Number(1) => FeatureType::Bytes,
            EnumValue::Name("INT") | EnumValue::Number(2) => FeatureType::Int,
            EnumValue::Name("FLOAT") | EnumValue::Number(3) => FeatureType::Float,
            EnumValue::Name("STRUCT") | EnumValue::Number(4) => FeatureType::Struct,
            _ => return f.error("type is one of TYPE_UNKNOWN, BYTES, INT, FLOAT, STRUCT"),
        })
    }
}

impl LifecycleStage {
    fn read(f: &Field) -> ParseResult<LifecycleStage> {
        let v = f.enum_value()?;
        LifecycleStage::ALL
            .iter()
            .find(|(_, name, num)| v == EnumValue::Name(name) || v == EnumValue::Number(*num))
            .map(|(s, _, _)| *s)
            .map_or_else(
                || f.error("not a LifecycleStage value (PLANNED, ALPHA, BETA, PRODUCTION, ...)"),
                Ok,
            )
    }
}

impl StringDomain {
    fn read(fields: &[Field], ignored: &mut Vec<String>, prefix: &str) -> ParseResult<StringDomain> {
        let mut d = StringDomain::default();
        for f in fields {
            match f.name.as_str() {
                "name" => d.name = Some(f.string()?),
                "value" => d.values.push(f.string()?),
                "is_categorical" => note(ignored, format!("{prefix}.is_categorical")),
                _ => return unknown(f, "StringDomain"),
            }
        }
        Ok(d)
    }

    fn write(&self, w: &mut Writer, field: &str) {
        w.open(field);
        if let Some(n) = &self.name {
            w.string("name", n.as_bytes());
        }
        for v in &self.values {
            w.string("value", v.as_bytes());
        }
        w.close();
    }
}

impl Feature {
    fn read(fields: &[Field]) -> ParseResult<Feature> {
        let mut out = Feature::new("", FeatureType::Unknown);
        let mut named = false;
        let ignored = &mut out.ignored;
        for f in fields {
            match f.name.as_str() {
                "name" => {
                    out.name = f.string()?;
                    named = true;
                }
                "deprecated" => out.deprecated = f.boolean()?,
                "type" => out.kind = FeatureType::read(f)?,
                "presence" => {
                    let mut p = Presence::default();
                    for g in f.message()? {
                        match g.name.as_str() {
                            "min_fraction" => p.min_fraction = Some(g.float()?),
                            "min_count" => p.min_count = Some(g.int()?),
                            _ => return unknown(g, "FeaturePresence"),
                        }
                    }
                    out.presence = Some(p);
                }
                "group_presence" => {
                    out.presence = None;
                    note(ignored, f.name.clone());
                }
                "value_count" => {
                    let mut v = ValueCount::default();
                    for g in f.message()? {
                        match g.name.as_str() {
                            "min" => v.min = Some(g.int()?),
                            "max" => v.max = Some(g.int()?),
                            _ => return unknown(g, "ValueCount"),
                        }
                    }
                    out.value_count = Some(v);
                    out.shape = None;
                }
                "shape" => {
                    let mut dims = Vec::new();
                    for g in f.message()? {
                        if g.name != "dim" {
                            return unknown(g, "FixedShape");
                        }
                        let mut size = 0;
                        for h in g.message()? {
                            match h.name.as_str() {
                                "size" => size = h.int()?,
                                "name" => {
                                    h.string()?;
                                }
                                _ => return unknown(h, "FixedShape.Dim"),
                            }
                        }
                        dims.push(size);
                    }
                    out.shape = Some(dims);
                    out.value_count = None;
                }
                "value_counts" => {
                    out.shape = None;
                    out.value_count = None;
                    note(ignored, f.name.clone());
                }
                "domain" => out.domain = Some(Domain::Named(f.string()?)),
                "int_domain" => {
                    let mut d = IntDomain::default();
                    for g in f.message()? {
                        match g.name.as_str() {
                            "name" => d.name = Some(g.string()?),
                            "min" => d.min = Some(g.int()?),
                            "max" => d.max = Some(g.int()?),
                            "is_categorical" => d.is_categorical = g.boolean()?,
                            _ => return unknown(g, "IntDomain"),
                        }
                    }
                    out.domain = Some(Domain::Int(d));
                }
                "float_domain" => {
                    let mut d = FloatDomain::default();
                    for g in f.message()? {
                        match g.name.as_str() {
                            "name" => d.name = Some(g.string()?),
                            "min" => d.min = Some(g.float()? as f32),
                            "max" => d.max = Some(g.float()? as f32),
                            "disallow_nan" => d.disallow_nan = g.boolean()?,
                            "disallow_inf" => d.disallow_inf = g.boolean()?,
                            "is_embedding" | "is_categorical" | "embedding_dim" | "embedding_type" => {
                                note(ignored, format!("float_domain.{}", g.name))
                            }
                            _ => return unknown(g, "FloatDomain"),
                        }
                    }
                    out.domain = Some(Domain::Float(d));
                }
                "string_domain" => {
                    out.domain = Some(Domain::String(StringDomain::read(
                        f.message()?,
                        ignored,
                        "string_domain",
                    )?))
                }
                "bool_domain" => {
                    let mut d = BoolDomain::default();
                    for g in f.message()? {
                        match g.name.as_str() {
                            "name" => d.name = Some(g.string()?),
                            "true_value" => d.true_value = Some(g.string()?),
                            "false_value" => d.false_value = Some(g.string()?),
                            _ => return unknown(g, "BoolDomain"),
                        }
                    }
                    out.domain = Some(Domain::Bool(d));
                }
                name if OTHER_DOMAINS.contains(&name) => {
                    f.message()?;
                    out.domain = Some(Domain::Other(name.to_string()));
                }
                "distribution_constraints" => {
                    // min_domain_mass defaults to 1.0 when the message is there.
                    let mut mass = 1.0;
                    for g in f.message()? {
                        match g.name.as_str() {
                            "min_domain_mass" => mass = g.float()?,
                            _ => return unknown(g, "DistributionConstraints"),
                        }
                    }
                    out.min_domain_mass = Some(mass);
                }
                "drift_comparator" => {
                    for g in f.message()? {
                        match g.name.as_str() {
                            "infinity_norm" => {
                                let mut threshold = 0.0;
                                for h in g.message()? {
                                    match h.name.as_str() {
                                        "threshold" => threshold = h.float()?,
                                        _ => return unknown(h, "InfinityNorm"),
                                    }
                                }
                                out.drift_linf = Some(threshold);
                            }
                            "jensen_shannon_divergence" | "normalized_abs_difference" => {
                                g.message()?;
                                note(ignored, format!("drift_comparator.{}", g.name));
                            }
                            _ => return unknown(g, "FeatureComparator"),
                        }
                    }
                }
                "lifecycle_stage" => out.lifecycle_stage = Some(LifecycleStage::read(f)?),
                name if FEATURE_OTHER.contains(&name) => note(ignored, name.to_string()),
                _ => return unknown(f, "Feature"),
            }
        }
        if !named {
            if let Some(f) = fields.first() {
                return f.error("a feature without a name");
            }
            return Err(pbtxt::Error {
                line: 0,
                col: 0,
                message: "a feature without a name".into(),
            });
        }
        out.not_validated = out.deprecated || out.lifecycle_stage.is_some_and(LifecycleStage::is_not_validated);
        Ok(out)
    }

    /// Writes the feature's fields in field-number order (as Python's
    /// text_format does).
    fn write(&self, w: &mut Writer) {
        w.open("feature");
        w.string("name", self.name.as_bytes());
        if self.deprecated {
            w.boolean("deprecated", true);
        }
        if let Some(v) = &self.value_count {
            w.open("value_count");
            if let Some(min) = v.min {
                w.int("min", min);
            }
            if let Some(max) = v.max {
                w.int("max", max);
            }
            w.close();
        }
        if self.kind != FeatureType::Unknown {
            w.enum_name("type", self.kind.name());
        }
        let other_domain = match &self.domain {
            Some(Domain::Other(name)) if domain_number(name) > 23 => Some(name.as_str()),
            Some(d) => {
                write_domain(w, d);
                None
            }
            None => None,
        };
        if let Some(p) = &self.presence {
            w.open("presence");
            if let Some(x) = p.min_fraction {
                w.double("min_fraction", x);
            }
            if let Some(n) = p.min_count {
                w.int("min_count", n);
            }
            w.close();
        }
        if let Some(mass) = self.min_domain_mass {
            w.open("distribution_constraints");
            w.double("min_domain_mass", mass);
            w.close();
        }
        if let Some(t) = self.drift_linf {
            w.open("drift_comparator");
            w.open("infinity_norm");
            w.double("threshold", t);
            w.close();
            w.close();
        }
        let stage = match self.lifecycle_stage {
            Some(s) => Some(s),
            None if self.not_validated && !self.deprecated => Some(LifecycleStage::Deprecated),
            None => None,
        };
        if let Some(s) = stage {
            w.enum_name("lifecycle_stage", s.name());
        }
        if let Some(dims) = &self.shape {
            w.open("shape");
            for d in dims {
                w.open("dim");
                w.int("size", *d);
                w.close();
            }
            w.close();
        }
        if let Some(name) = other_domain {
            w.empty(name);
        }
        w.close();
    }
}

/// A domain of the `domain_info` oneof numbered below `presence`.
fn write_domain(w: &mut Writer, d: &Domain) {
    match d {
        Domain::Named(n) => w.string("domain", n.as_bytes()),
        Domain::Int(d) => {
            w.open("int_domain");
            if let Some(n) = &d.name {
                w.string("name", n.as_bytes());
            }
            if let Some(v) = d.min {
                w.int("min", v);
            }
            if let Some(v) = d.max {
                w.int("max", v);
            }
            if d.is_categorical {
                w.boolean("is_categorical", true);
            }
            w.close();
        }
        Domain::Float(d) => {
            w.open("float_domain");
            if let Some(n) = &d.name {
                w.string("name", n.as_bytes());
            }
            if let Some(v) = d.min {
                w.float("min", v);
            }
            if let Some(v) = d.max {
                w.float("max", v);
            }
            if d.disallow_nan {
                w.boolean("disallow_nan", true);
            }
            if d.disallow_inf {
                w.boolean("disallow_inf", true);
            }
            w.close();
        }
        Domain::String(d) => d.write(w, "string_domain"),
        Domain::Bool(d) => {
            w.open("bool_domain");
            if let Some(n) = &d.name {
                w.string("name", n.as_bytes());
            }
            if let Some(v) = &d.true_value {
                w.string("true_value", v.as_bytes());
            }
            if let Some(v) = &d.false_value {
                w.string("false_value", v.as_bytes());
            }
            w.close();
        }
        // Unmodelled domains are written empty (their settings are not kept).
        Domain::Other(name) => w.empty(name),
    }
}

impl Schema {
    /// Reads a `Schema` in protobuf text format (`schema.pbtxt`, as
    /// `tfdv.write_schema_text` writes it). Fields of schema.proto that tfr
    /// does not model are kept by name in `ignored`; a name schema.proto
    /// does not have, a value of the wrong kind or a syntax error is an
    /// error at its line and column.
    pub fn from_pbtxt(text: &str) -> ParseResult<Schema> {
        let mut schema = Schema::default();
        // One top-level field at a time: the tree of a large schema is
        // never held whole, only the model made from it.
        pbtxt::parse_each(text, &mut |f| schema.read_top(&f))?;
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
                                let (mut lo, mut hi) = (0.0, 0.0);
                                for h in g.message()? {
                                    match h.name.as_str() {
                                        "min_fraction_threshold" => lo = h.float()?,
                                        "max_fraction_threshold" => hi = h.float()?,
                                        _ => return unknown(h, "NumericValueComparator"),
                                    }
                                }
                                c.num_examples_drift_comparator = Some((lo, hi));
                            }
                            "num_examples_version_comparator" => {
                                g.message()?;
                                note(
                                    &mut schema.ignored,
                                    "dataset_constraints.num_examples_version_comparator".into(),
                                );
                            }
                            _ => return unknown(g, "DatasetConstraints"),
                        }
                    }
                    schema.dataset_constraints = Some(c);
                }
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
    /// settings of [`Domain::Other`] domains) are not written.
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
            if let Some((lo, hi)) = c.num_examples_drift_comparator {
                w.open("num_examples_drift_comparator");
                w.double("min_fraction_threshold", lo);
                w.double("max_fraction_threshold", hi);
                w.close();
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

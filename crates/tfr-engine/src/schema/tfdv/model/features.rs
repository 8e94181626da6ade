//! Reading and writing a schema's features in protobuf text format: their types, domains, presence and lifecycle.

use super::*;

/// Fields of schema.proto's messages that tfr reads but does not model:
/// kept by name (a name outside these lists is an error, as in protobuf).
pub(super) const SCHEMA_OTHER: &[&str] = &[
    "float_domain",
    "int_domain",
    "generate_legacy_feature_spec",
    "represent_variable_length_as_ragged",
    "annotation",
    "tensor_representation_group",
];
pub(super) const FEATURE_OTHER: &[&str] = &["annotation", "validation_derived_source", "sequence_metadata"];
/// The domains of the `domain_info` oneof tfr does not check.
pub(super) const OTHER_DOMAINS: &[&str] = &[
    "struct_domain",
    "natural_language_domain",
    "image_domain",
    "mid_domain",
    "url_domain",
    "time_domain",
    "time_of_day_domain",
];

/// The field number of each `domain_info` member (for writing in order).
pub(super) fn domain_number(name: &str) -> u32 {
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

pub(super) fn unknown<T>(f: &Field, message: &str) -> ParseResult<T> {
    f.error(format!("no field \"{}\" in {message}", f.name))
}

pub(super) fn note(ignored: &mut Vec<String>, name: String) {
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

    pub(super) fn read(f: &Field) -> ParseResult<FeatureType> {
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
    pub(super) fn read(f: &Field) -> ParseResult<LifecycleStage> {
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

impl ValueCount {
    pub(super) fn read(fields: &[Field]) -> ParseResult<ValueCount> {
        let mut v = ValueCount::default();
        for g in fields {
            match g.name.as_str() {
                "min" => v.min = Some(g.int()?),
                "max" => v.max = Some(g.int()?),
                _ => return unknown(g, "ValueCount"),
            }
        }
        Ok(v)
    }
}

/// A `lifecycle_stage` or `deprecated` field of a sparse or weighted
/// feature: whether it makes the feature one TFDV does not validate.
fn not_validated(f: &Field) -> ParseResult<Option<bool>> {
    Ok(match f.name.as_str() {
        "deprecated" => Some(f.boolean()?),
        "lifecycle_stage" => Some(LifecycleStage::read(f)?.is_not_validated()),
        _ => None,
    })
}

/// The `name` inside a message (`index_feature`, `value_feature`).
fn inner_name(fields: &[Field], message: &str) -> ParseResult<String> {
    let mut name = String::new();
    for g in fields {
        match g.name.as_str() {
            "name" => name = g.string()?,
            _ => return unknown(g, message),
        }
    }
    Ok(name)
}

/// The steps of a `Path`.
fn path_steps(fields: &[Field]) -> ParseResult<Vec<String>> {
    let mut steps = Vec::new();
    for g in fields {
        match g.name.as_str() {
            "step" => steps.push(g.string()?),
            _ => return unknown(g, "Path"),
        }
    }
    Ok(steps)
}

impl SparseFeature {
    pub(super) fn read(fields: &[Field]) -> ParseResult<SparseFeature> {
        let mut out = SparseFeature::default();
        for f in fields {
            if let Some(v) = not_validated(f)? {
                out.not_validated |= v;
                continue;
            }
            match f.name.as_str() {
                "name" => out.name = f.string()?,
                "index_feature" => out.index.push(inner_name(f.message()?, "SparseFeature.IndexFeature")?),
                "value_feature" => out.value = inner_name(f.message()?, "SparseFeature.ValueFeature")?,
                // Not checked by TFDV (nor by tfr): the dense shape, sortedness,
                // the deprecated presence and type.
                "dense_shape" | "presence" => {
                    f.message()?;
                }
                "is_sorted" => {
                    f.boolean()?;
                }
                "type" => {
                    FeatureType::read(f)?;
                }
                _ => return unknown(f, "SparseFeature"),
            }
        }
        Ok(out)
    }
}

impl WeightedFeature {
    pub(super) fn read(fields: &[Field]) -> ParseResult<WeightedFeature> {
        let mut out = WeightedFeature::default();
        for f in fields {
            match f.name.as_str() {
                "name" => out.name = f.string()?,
                "feature" => out.feature = path_steps(f.message()?)?,
                "weight_feature" => out.weight = path_steps(f.message()?)?,
                "lifecycle_stage" => out.not_validated = LifecycleStage::read(f)?.is_not_validated(),
                _ => return unknown(f, "WeightedFeature"),
            }
        }
        Ok(out)
    }
}

impl StringDomain {
    pub(super) fn read(fields: &[Field], ignored: &mut Vec<String>, prefix: &str) -> ParseResult<StringDomain> {
        let mut d = StringDomain::default();
        for f in fields {
            d.read_field(f, ignored, prefix)?;
        }
        Ok(d)
    }

    /// Reads one field of a `StringDomain` message into it.
    pub(super) fn read_field(&mut self, f: &Field, ignored: &mut Vec<String>, prefix: &str) -> ParseResult<()> {
        match f.name.as_str() {
            "name" => self.name = Some(f.string()?),
            "value" => self.values.push(f.string()?),
            "is_categorical" => note(ignored, format!("{prefix}.is_categorical")),
            _ => return unknown(f, "StringDomain"),
        }
        Ok(())
    }

    pub(super) fn write(&self, w: &mut Writer, field: &str) {
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
    pub(super) fn read(fields: &[Field]) -> ParseResult<Feature> {
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
                    // TFDV checks no group presence.
                    f.message()?;
                    out.presence = None;
                }
                "value_count" => {
                    out.value_count = Some(ValueCount::read(f.message()?)?);
                    out.shape = None;
                    out.value_counts = None;
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
                    out.value_counts = None;
                }
                "value_counts" => {
                    let mut levels = Vec::new();
                    for g in f.message()? {
                        if g.name != "value_count" {
                            return unknown(g, "ValueCountList");
                        }
                        levels.push(ValueCount::read(g.message()?)?);
                    }
                    out.shape = None;
                    out.value_count = None;
                    out.value_counts = Some(levels);
                }
                "in_environment" => out.in_environment.push(f.string()?),
                "not_in_environment" => out.not_in_environment.push(f.string()?),
                "unique_constraints" => out.unique_constraints = Some(ValueCount::read(f.message()?)?),
                "image_domain" => {
                    for g in f.message()? {
                        match g.name.as_str() {
                            "max_image_byte_size" => out.max_image_byte_size = Some(g.int()?),
                            "minimum_supported_image_fraction" => {
                                g.float()?;
                                note(ignored, "image_domain.minimum_supported_image_fraction".into());
                            }
                            _ => return unknown(g, "ImageDomain"),
                        }
                    }
                    out.domain = Some(Domain::Other(f.name.clone()));
                }
                "natural_language_domain" => {
                    for g in f.message()? {
                        if matches!(g.name.as_str(), "coverage" | "token_constraints") {
                            note(ignored, format!("natural_language_domain.{}", g.name));
                        }
                    }
                    out.domain = Some(Domain::Other(f.name.clone()));
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
                "drift_comparator" => out.drift = Some(Comparator::read(f)?),
                "skew_comparator" => out.skew = Some(Comparator::read(f)?),
                "lifecycle_stage" => out.lifecycle_stage = Some(LifecycleStage::read(f)?),
                name if FEATURE_OTHER.contains(&name) => note(ignored, name.to_string()),
                _ => return unknown(f, "Feature"),
            }
        }
        // A feature without a name is TFDV's FEATURE_MISSING_NAME when the
        // data has a feature named "" (it matches that name).
        out.named = named;
        out.not_validated = out.deprecated || out.lifecycle_stage.is_some_and(LifecycleStage::is_not_validated);
        Ok(out)
    }

    /// Writes the feature's fields in field-number order (as Python's
    /// text_format does).
    pub(super) fn write(&self, w: &mut Writer) {
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
        if let Some(c) = &self.skew {
            c.write(w, "skew_comparator");
        }
        if let Some(c) = &self.drift {
            c.write(w, "drift_comparator");
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
pub(super) fn write_domain(w: &mut Writer, d: &Domain) {
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

impl Comparator {
    fn read(f: &Field) -> ParseResult<Comparator> {
        let mut c = Comparator::default();
        for g in f.message()? {
            let mut threshold = None;
            for h in g.message()? {
                match (g.name.as_str(), h.name.as_str()) {
                    (_, "threshold") => threshold = Some(h.float()?),
                    ("jensen_shannon_divergence", "source") => {
                        for t in h.message()? {
                            match t.name.as_str() {
                                "type" => {
                                    c.jsd_source = Some(match t.enum_value()? {
                                        EnumValue::Number(n @ 0..=2) => n,
                                        EnumValue::Number(n) => {
                                            return t
                                                .error(format!("HistogramSelection.Type has no value numbered {n}"))
                                        }
                                        EnumValue::Name("DEFAULT") => 0,
                                        EnumValue::Name("QUANTILES") => 1,
                                        EnumValue::Name("STANDARD") => 2,
                                        EnumValue::Name(other) => {
                                            return t.error(format!("unknown HistogramSelection.Type {other}"))
                                        }
                                    })
                                }
                                _ => return unknown(t, "HistogramSelection"),
                            }
                        }
                    }
                    _ => return unknown(h, "a comparator"),
                }
            }
            match g.name.as_str() {
                "infinity_norm" => c.infinity_norm = threshold,
                "jensen_shannon_divergence" => c.jensen_shannon_divergence = threshold,
                "normalized_abs_difference" => c.normalized_abs_difference = threshold,
                _ => return unknown(g, "FeatureComparator"),
            }
        }
        Ok(c)
    }

    /// Writes the comparator's thresholds in field-number order.
    fn write(&self, w: &mut Writer, field: &str) {
        w.open(field);
        if let Some(t) = self.infinity_norm {
            w.open("infinity_norm");
            w.double("threshold", t);
            w.close();
        }
        if self.jensen_shannon_divergence.is_some() || self.jsd_source.is_some() {
            w.open("jensen_shannon_divergence");
            if let Some(t) = self.jensen_shannon_divergence {
                w.double("threshold", t);
            }
            if let Some(s) = self.jsd_source {
                w.open("source");
                let name = match s {
                    1 => "QUANTILES",
                    2 => "STANDARD",
                    _ => "DEFAULT",
                };
                w.enum_name("type", name);
                w.close();
            }
            w.close();
        }
        if let Some(t) = self.normalized_abs_difference {
            w.open("normalized_abs_difference");
            w.double("threshold", t);
            w.close();
        }
        w.close();
    }
}

//! The schema compiled for checking records: a [`Rule`] per feature (its
//! constraints as TFDV checks them after `UpdateFeatureSelf`, its
//! environment), the sparse and weighted features, and the notes on what
//! is not checked.

use super::*;

impl Checker {
    /// Compiles the schema's checks, validating without an environment
    /// (every feature is in it, as TFDV without one).
    pub fn new(schema: &Schema) -> Checker {
        Checker::build(schema, None)
    }

    /// Compiles the schema's checks for validating in `environment` (TFDV's
    /// `validate_statistics(..., environment=NAME)`): a feature is in it by
    /// its `in_environment`, else not by its `not_in_environment`, else by
    /// the schema's `default_environment`. As TFDV's Python API, an
    /// environment the schema's `default_environment` does not list is an
    /// error (TFDV: "Environment NAME not found in the schema").
    pub fn with_environment(schema: &Schema, environment: Option<&str>) -> Result<Checker> {
        if let Some(env) = environment {
            if !schema.default_environment.iter().any(|e| e == env) {
                let listed = match schema.default_environment.len() {
                    0 => "the schema lists no default_environment".to_string(),
                    _ => format!(
                        "its default_environment lists {}",
                        schema
                            .default_environment
                            .iter()
                            .map(|e| quoted(e))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                crate::error::bail!(
                    "--environment {}: not an environment of the schema ({listed}; TFDV refuses it too)",
                    quoted(env)
                );
            }
        }
        Ok(Checker::build(schema, environment))
    }

    fn build(schema: &Schema, environment: Option<&str>) -> Checker {
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
                add_note(not_checked_reason(i), &f.name);
            }
            if f.kind == FeatureType::Struct {
                add_note("STRUCT features".into(), &f.name);
            }
            if f.kind == FeatureType::Bytes && !f.not_validated && !f.deprecated {
                match &f.domain {
                    Some(Domain::Int(_)) => add_note(
                        "int_domain of a BYTES feature (TFDV checks that its most frequent strings are ints: INT_TYPE_NOT_INT_STRING)".into(),
                        &f.name,
                    ),
                    Some(Domain::Float(_)) => add_note(
                        "float_domain of a BYTES feature (TFDV checks that its most frequent strings are floats: FLOAT_TYPE_STRING_NOT_FLOAT)".into(),
                        &f.name,
                    ),
                    _ => {}
                }
            }
            index.insert(f.name.as_str().into(), rules.len() as u32);
            rules.push(Rule::new(f, schema, environment, &mut vocabs));
        }
        let components = sparse::Components::new(schema);
        for w in &components.nested_path {
            add_note(
                "weighted_feature with a nested path (never present in Examples)".into(),
                w,
            );
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
        not_checked.extend(schema.ignored.iter().filter(|i| is_constraint(i)).cloned());
        let dc = schema.dataset_constraints.unwrap_or_default();
        Checker {
            rules,
            index,
            min_examples: dc.min_examples_count,
            max_examples: dc.max_examples_count,
            not_checked,
            components,
        }
    }

    /// Schema features that are checked (their lifecycle allows it).
    pub fn checked(&self) -> usize {
        self.rules.iter().filter(|r| r.active).count()
    }
}

/// The words of a "not checked" note for a field tfr keeps by name.
fn not_checked_reason(field: &str) -> String {
    match field {
        "image_domain.minimum_supported_image_fraction" => format!(
            "{field} (TFDV checks it only from the image statistics of enable_semantic_domain_stats, off by \
             default; tfr does not compute them)"
        ),
        "natural_language_domain.coverage" | "natural_language_domain.token_constraints" => {
            format!("{field} (needs TFDV's natural-language token statistics, which tfr does not compute)")
        }
        _ => field.to_string(),
    }
}

/// Whether a feature is in the environment (TFDV's `IsFeatureInEnvironment`).
fn in_environment(f: &Feature, schema: &Schema, environment: Option<&str>) -> bool {
    let Some(env) = environment else {
        return true;
    };
    if f.in_environment.iter().any(|e| e == env) {
        return true;
    }
    if f.not_in_environment.iter().any(|e| e == env) {
        return false;
    }
    schema.default_environment.iter().any(|e| e == env)
}

impl Rule {
    fn new(f: &Feature, schema: &Schema, environment: Option<&str>, vocabs: &mut HashMap<String, Arc<Vocab>>) -> Rule {
        let fixed = schema_self::check(f, schema);
        let string_domain = match &fixed.domain {
            Some(Domain::String(d)) => Some((d, d.name.clone().unwrap_or_default())),
            Some(Domain::Named(n)) => schema.string_domain(n).map(|d| (d, n.clone())),
            _ => None,
        };
        // TFDV takes a feature without type but with a string domain as BYTES,
        // and does not check one without either.
        let with_string_domain = matches!(f.domain, Some(Domain::Named(_) | Domain::String(_)));
        let (kind, missing_type) = match f.kind {
            FeatureType::Int => (Some(Kind::Int64), false),
            FeatureType::Float => (Some(Kind::Float), false),
            FeatureType::Bytes => (Some(Kind::Bytes), false),
            FeatureType::Unknown if with_string_domain => (Some(Kind::Bytes), true),
            _ => (None, true),
        };
        let vc = if fixed.nestedness_mismatch {
            ValueCount::default()
        } else {
            fixed.value_count.unwrap_or_default()
        };
        let min_values = vc.min.filter(|m| *m >= 0).map(|m| m as u64);
        let max_values = vc.max.map(|m| (m.max(vc.min.unwrap_or(0))).max(0) as u64);
        let shape = fixed
            .shape
            .as_ref()
            .map(|dims| dims.iter().fold(1u64, |a, d| a.saturating_mul(*d as u64)));
        let shape_text = fixed
            .shape
            .as_ref()
            .map(|d| format!("[{}]", d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")))
            .unwrap_or_default();
        let in_env = in_environment(f, schema, environment);
        let presence = f.presence.unwrap_or_default();
        let image = matches!(&fixed.domain, Some(Domain::Other(n)) if n == "image_domain");
        let categorical = match &f.domain {
            Some(Domain::Int(d)) => d.is_categorical,
            Some(Domain::Bool(_)) => true,
            Some(Domain::Other(n)) => n == "natural_language_domain",
            _ => false,
        };
        let mut r = Rule {
            name: f.name.as_str().into(),
            active: !f.not_validated && f.kind != FeatureType::Struct,
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
            min_fraction: fixed.min_fraction,
            min_count: presence.min_count,
            int_values: false,
            float_values: false,
            bytes_values: false,
            in_env,
            required: kind.is_some()
                && in_env
                && (presence.min_count.is_some_and(|c| c > 0) || presence.min_fraction.is_some_and(|m| m > 0.0)),
            nameless: fixed.nameless,
            nestedness_mismatch: fixed.nestedness_mismatch,
            from_levels: fixed.from_levels,
            unique: f.unique_constraints.map(|u| (u.min.unwrap_or(0), u.max.unwrap_or(0))),
            // TFDV's is_categorical_feature: a BYTES type counts any values.
            ints_categorical: f.kind == FeatureType::Bytes || (f.kind == FeatureType::Int && categorical),
            floats_categorical: f.kind == FeatureType::Bytes
                || (f.kind == FeatureType::Float && f.ignored.iter().any(|i| i == "float_domain.is_categorical")),
            image,
            max_image_bytes: f.max_image_byte_size.filter(|_| image).map(|m| m.max(0) as u64),
            self_anomalies: fixed.anomalies,
        };
        match &fixed.domain {
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
            let max_off = fixed.min_domain_mass.map_or(0.0, |m| 1.0 - m);
            // (a named domain compiled once, whichever features use it)
            let named = matches!(fixed.domain, Some(Domain::Named(_)));
            let vocab = match vocabs.get(&name) {
                Some(v) if named => Arc::clone(v),
                _ => {
                    let v = Arc::new(Vocab::new(d.values.iter().map(String::as_str)));
                    if named {
                        vocabs.insert(name.clone(), Arc::clone(&v));
                    }
                    v
                }
            };
            r.strings = Some(Box::new((vocab, name, max_off)));
        }
        let unique = r.unique.is_some();
        r.int_values =
            r.int_min.is_some() || r.int_max.is_some() || r.bool_domain.is_some() || unique && r.ints_categorical;
        r.float_values = r.float_min.is_some()
            || r.float_max.is_some()
            || r.nan
            || r.inf
            || r.bool_domain.is_some()
            || unique && r.floats_categorical;
        r.bytes_values = r.strings.is_some() || r.bool_domain.is_some() || unique || r.max_image_bytes.is_some();
        r
    }
}

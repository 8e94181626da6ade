//! A schema feature's own mistakes, as TFDV 1.16.1's
//! `Schema::UpdateFeatureSelf` finds (and repairs) them before it looks at
//! the data. TFDV reports them only for a feature its statistics name (in
//! the data, or only as an empty `Feature {}`), and checks the feature
//! with the repaired constraints; [`SelfChecked`] holds both.
//!
//! - `FEATURE_MISSING_NAME`: a feature without `name` (it matches the data's
//!   feature named ""); nothing else is checked;
//! - `INVALID_SCHEMA_SPECIFICATION`: `presence.min_fraction` below 0 (taken
//!   as unset) or above 1 (taken as 1); `value_count.min` below 0 (unset);
//!   `value_count.max` below `min` (taken as `min`); the same per level of
//!   `value_counts`; a `shape` dim not positive (shape dropped);
//!   `distribution_constraints` with a bool, int, float, struct or semantic
//!   domain or none (dropped);
//! - `DOMAIN_INVALID_FOR_TYPE`: a domain the `type` does not allow (TFDV's
//!   `AllowedFeatureTypes`; the domain is dropped);
//! - `INVALID_DOMAIN_SPECIFICATION`: `domain: "NAME"` with no top-level
//!   `string_domain` of that name, or a `time_of_day_domain` (TFDV's
//!   switch has no case for it; dropped).

use super::AnomalyKind;
use crate::schema::tfdv::model::{Domain, Feature, FeatureType, Schema, ValueCount};

/// The feature as TFDV checks it after `UpdateFeatureSelf`.
#[derive(Debug, Default)]
pub(super) struct SelfChecked {
    /// What it reports (kind, description), in TFDV's order.
    pub(super) anomalies: Vec<(AnomalyKind, String)>,
    /// No name: nothing else is checked.
    pub(super) nameless: bool,
    pub(super) min_fraction: Option<f64>,
    pub(super) value_count: Option<ValueCount>,
    /// `value_counts` with a number of levels other than 1 (Examples have
    /// one): `VALUE_NESTEDNESS_MISMATCH`, value counts not checked.
    pub(super) nestedness_mismatch: bool,
    /// The value count came from `value_counts` (level 0).
    pub(super) from_levels: bool,
    pub(super) shape: Option<Vec<i64>>,
    /// The domain, or `None` when TFDV dropped it.
    pub(super) domain: Option<Domain>,
    pub(super) min_domain_mass: Option<f64>,
}

fn invalid(out: &mut SelfChecked, what: &str) {
    out.anomalies
        .push((AnomalyKind::InvalidSchemaSpecification, what.to_string()));
}

/// The field name of a domain (TFDV's `GetDomainInfoName`).
fn domain_name(d: &Domain) -> &str {
    match d {
        Domain::Named(_) => "domain",
        Domain::Int(_) => "int_domain",
        Domain::Float(_) => "float_domain",
        Domain::String(_) => "string_domain",
        Domain::Bool(_) => "bool_domain",
        Domain::Other(n) => n,
    }
}

/// TFDV's `AllowedFeatureTypes` of a domain.
fn allowed(d: &Domain, t: FeatureType) -> bool {
    use FeatureType::*;
    match domain_name(d) {
        "domain" | "string_domain" | "image_domain" | "mid_domain" | "url_domain" => t == Bytes,
        "bool_domain" => matches!(t, Int | Bytes | Float),
        "int_domain" | "time_domain" => matches!(t, Int | Bytes),
        "float_domain" => matches!(t, Float | Bytes),
        "struct_domain" => t == Struct,
        "natural_language_domain" => matches!(t, Bytes | Int),
        _ => matches!(t, Int | Float | Bytes | Struct),
    }
}

/// Checks a value count as TFDV does (`level`: of `value_counts`).
fn value_count(out: &mut SelfChecked, v: ValueCount, level: Option<usize>) -> ValueCount {
    let mut v = v;
    let (name, at) = match level {
        Some(i) => ("ValueCounts", format!(" at level {i}")),
        None => ("ValueCount", String::new()),
    };
    if v.min.is_some_and(|m| m < 0) {
        v.min = None;
        invalid(out, &format!("{name}.min should not be negative{at}"));
    }
    if let Some(max) = v.max {
        let min = v.min.unwrap_or(0);
        if max < min {
            v.max = Some(min);
            invalid(out, &format!("{name}.max should not be less than min{at}"));
        }
    }
    v
}

/// `UpdateFeatureSelf` of one feature (the feature is one TFDV validates).
pub(super) fn check(f: &Feature, schema: &Schema) -> SelfChecked {
    let mut out = SelfChecked {
        min_fraction: f.presence.and_then(|p| p.min_fraction),
        value_count: f.value_count,
        shape: f.shape.clone(),
        domain: f.domain.clone(),
        min_domain_mass: f.min_domain_mass,
        ..SelfChecked::default()
    };
    if !f.named {
        out.nameless = true;
        out.anomalies.push((
            AnomalyKind::FeatureMissingName,
            "the schema's feature has no name (it matches the data's feature named \"\")".into(),
        ));
        return out;
    }
    // A missing type (FEATURE_MISSING_TYPE) is counted per record.
    let has_string_domain = matches!(f.domain, Some(Domain::Named(_) | Domain::String(_)));
    let ty = match f.kind {
        FeatureType::Unknown if has_string_domain => FeatureType::Bytes,
        FeatureType::Unknown => return out,
        t => t,
    };
    match out.min_fraction {
        Some(m) if m < 0.0 => {
            out.min_fraction = None;
            invalid(&mut out, "min_fraction should not be negative: clear is equal to zero");
        }
        Some(m) if m > 1.0 => {
            out.min_fraction = Some(1.0);
            invalid(&mut out, "min_fraction should not greater than 1");
        }
        _ => {}
    }
    if let Some(v) = out.value_count {
        out.value_count = Some(value_count(&mut out, v, None));
    }
    if let Some(levels) = &f.value_counts {
        let checked: Vec<ValueCount> = levels
            .iter()
            .enumerate()
            .map(|(i, v)| value_count(&mut out, *v, Some(i)))
            .collect();
        if checked.len() == 1 {
            out.value_count = Some(checked[0]);
            out.from_levels = true;
        } else {
            out.nestedness_mismatch = true;
        }
    }
    if out.shape.as_ref().is_some_and(|dims| dims.iter().any(|d| *d <= 0)) {
        out.shape = None;
        invalid(&mut out, "Shape.dim.size must be a positive integer");
    }
    if let Some(d) = &out.domain {
        if !allowed(d, ty) {
            out.anomalies.push((
                AnomalyKind::DomainInvalidForType,
                format!(
                    "the domain \"{}\" does not match the type {}",
                    domain_name(d),
                    ty.name()
                ),
            ));
            out.domain = None;
        }
    }
    let constraints = out.min_domain_mass.is_some();
    let unsupported = match &out.domain {
        Some(Domain::Named(n)) => {
            if schema.string_domain(n).is_none() {
                out.anomalies.push((
                    AnomalyKind::InvalidDomainSpecification,
                    format!("missing domain: no string_domain named {}", super::quoted(n)),
                ));
                out.domain = None;
            }
            None
        }
        Some(Domain::String(_)) => None,
        Some(Domain::Bool(_)) => Some("distribution constraints not supported for bool domains."),
        Some(Domain::Int(_)) => Some("distribution constraints not supported for int domains."),
        Some(Domain::Float(_)) => Some("distribution constraints not supported for float domains."),
        Some(Domain::Other(n)) if n == "struct_domain" => {
            Some("distribution constraints not supported for struct domains.")
        }
        Some(Domain::Other(n)) if n == "time_of_day_domain" => {
            out.anomalies.push((
                AnomalyKind::InvalidDomainSpecification,
                "internal issue: unknown domain_info type (TFDV 1.16.1 has no case for time_of_day_domain)".into(),
            ));
            out.domain = None;
            None
        }
        Some(Domain::Other(_)) => Some("distribution constraints not supported for semantic domains."),
        None => Some("distribution constraints require domain or string domain."),
    };
    if let (Some(what), true) = (unsupported, constraints) {
        out.min_domain_mass = None;
        invalid(&mut out, what);
    }
    out
}

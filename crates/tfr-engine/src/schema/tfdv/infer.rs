//! A TFDV schema inferred from a scan's full statistics, by the rules of
//! `tfdv.infer_schema` (TFDV 1.16.1, `infer_feature_shape=True`,
//! `max_string_domain_size=100`), checked against it on the fixtures by
//! tests/oracle/tfdv_check.py:
//! - `type`: INT, FLOAT or BYTES (a feature seen with several kinds takes
//!   the first);
//! - `presence`: `min_count: 1`, and `min_fraction: 1.0` when no record
//!   lacks the feature;
//! - present in every record with the same number of values N in each:
//!   `shape { dim { size: N } }`; else the same N everywhere:
//!   `value_count { min: N max: N }`; else at least one value everywhere:
//!   `value_count { min: 1 }`;
//! - an int feature whose values are 0 or 1, 1 among them: `bool_domain {}`;
//!   a text feature of one or two distinct values, one of `TRUE true SET
//!   set 1 ""` and/or one of `FALSE false CLEAR clear 0`: a `bool_domain`
//!   naming them;
//! - `presence.min_count` is 0 for a feature never holding a value (an
//!   empty `Feature {}` counts as missing, as in TFDV's statistics), which
//!   is BYTES;
//! - any other text feature (every value UTF-8) with at most 100 distinct values:
//!   a top-level `string_domain` named after the feature, its values in
//!   byte order, referred to by `domain: "NAME"`.
//!
//! Features are sorted by name (TFDV's order follows its decoder's map
//! iteration; compare by name). For a SequenceExample the context
//! features are inferred (feature lists are not part of TFDV's
//! Example-shaped schema and are left out); for an ExampleListWithContext,
//! the context features and the examples' features together.

use super::model::{BoolDomain, Domain, Feature, FeatureType, Presence, Schema, StringDomain, ValueCount};
use crate::example::{Kind, MessageType};
use crate::schema::stats::{FeatureStats, FeatureTable};
use crate::schema::summary::{self, StatsType};
use crate::schema::Scan;

/// Largest vocabulary given a string domain (TFDV's default).
pub const MAX_STRING_DOMAIN: u64 = 100;

/// The schema TFDV would infer from the scan (which must have been made
/// with full statistics).
pub fn infer(scan: &Scan) -> Schema {
    let mut schema = Schema::default();
    let records = scan.stats.records;
    let mut tables: Vec<(&FeatureTable, u64)> = vec![(&scan.stats.features, records)];
    if scan.ty == MessageType::Elwc {
        tables.push((&scan.stats.examples, scan.stats.example_count));
    }
    for (table, total) in tables {
        for f in table.sorted() {
            let feature = infer_feature(f, total, &mut schema.string_domains);
            schema.features.push(feature);
        }
    }
    schema
}

fn infer_feature(f: &FeatureStats, total: u64, domains: &mut Vec<StringDomain>) -> Feature {
    let kind = match f.kinds().first() {
        Some(Kind::Int64) => FeatureType::Int,
        Some(Kind::Float) => FeatureType::Float,
        // Bytes, and no kind ever set (STRING statistics to TFDV).
        _ => FeatureType::Bytes,
    };
    let mut out = Feature::new(&f.name, kind);
    let Some(s) = summary::summarize(f, total) else {
        return out;
    };
    let always = s.present == total && total > 0;
    out.presence = Some(Presence {
        min_fraction: always.then_some(1.0),
        min_count: Some(i64::from(s.present > 0)),
    });
    if s.present > 0 {
        let (min, max) = (s.min_values, s.max_values);
        if min == max && min > 0 {
            if always {
                out.shape = Some(vec![min as i64]);
            } else {
                out.value_count = Some(ValueCount {
                    min: Some(min as i64),
                    max: Some(max as i64),
                });
            }
        } else if min >= 1 {
            out.value_count = Some(ValueCount {
                min: Some(1),
                max: None,
            });
        }
    }
    match s.ty {
        Some(StatsType::Int) if f.int64.count > 0 && f.int64.min >= 0 && f.int64.max == 1 => {
            out.domain = Some(Domain::Bool(BoolDomain::default()));
        }
        Some(StatsType::String) => {
            let Some(b) = s.bytes else {
                return out;
            };
            if let Some(bool_domain) = bool_from_strings(&b.ranked) {
                out.domain = Some(Domain::Bool(bool_domain));
            } else if b.unique_exact
                && b.unique <= MAX_STRING_DOMAIN
                && b.unique > 0
                && b.top_exact
                && b.ranked.len() as u64 == b.unique
            {
                let mut values: Vec<String> = b
                    .ranked
                    .iter()
                    .filter_map(|(v, _)| String::from_utf8(v.clone()).ok())
                    .collect();
                values.sort();
                domains.push(StringDomain {
                    name: Some(f.name.to_string()),
                    values,
                });
                out.domain = Some(Domain::Named(f.name.to_string()));
            }
        }
        _ => {}
    }
    out
}

/// Strings TFDV reads as true, and as false.
const TRUE_STRINGS: [&[u8]; 6] = [b"TRUE", b"true", b"SET", b"set", b"1", b""];
const FALSE_STRINGS: [&[u8]; 5] = [b"FALSE", b"false", b"CLEAR", b"clear", b"0"];

/// TFDV's bool domain of a text feature: one or two distinct values, at
/// most one of them true-like and one false-like.
fn bool_from_strings(values: &[(Vec<u8>, u64)]) -> Option<BoolDomain> {
    if values.is_empty() || values.len() > 2 {
        return None;
    }
    let mut domain = BoolDomain::default();
    for (v, _) in values {
        let text = String::from_utf8(v.clone()).ok()?;
        if domain.true_value.is_none() && TRUE_STRINGS.contains(&v.as_slice()) {
            domain.true_value = Some(text);
        } else if domain.false_value.is_none() && FALSE_STRINGS.contains(&v.as_slice()) {
            domain.false_value = Some(text);
        } else {
            return None;
        }
    }
    Some(domain)
}

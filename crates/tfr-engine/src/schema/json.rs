//! `tfr schema --format json`: the scan as one JSON document (the format is
//! documented in [`crate::schema`]).

use super::describe::*;
use super::stats::{self, FeatureStats};
use super::Scan;
use crate::example::MessageType;
use serde_json::{json, Map, Value};

/// A float32 for JSON: its shortest decimal, infinities as strings.
fn f32_json(v: f32) -> Value {
    if v.is_finite() {
        let s = ryu::Buffer::new().format_finite(v).to_string();
        serde_json::Number::from_f64(s.parse().expect("float")).map_or(Value::Null, Value::Number)
    } else if v.is_nan() {
        Value::String("NaN".into())
    } else if v > 0.0 {
        Value::String("Infinity".into())
    } else {
        Value::String("-Infinity".into())
    }
}

fn counts_json(c: &stats::Counts) -> Value {
    match c.range() {
        Some((min, max)) => json!({"min": min, "max": max, "fixed": min == max}),
        None => Value::Null,
    }
}

/// The scan as tfr's JSON document (`tfr schema --json`, `tfr stats -f json`).
pub fn to_json(scan: &Scan) -> Value {
    let records = scan.stats.records;
    let mut doc = Map::new();
    let ty = match scan.ty {
        MessageType::SequenceExample => "sequence",
        MessageType::Elwc => "elwc",
        _ => "example",
    };
    doc.insert("type".into(), ty.into());
    doc.insert("records".into(), records.into());
    if scan.ty == MessageType::Elwc {
        doc.insert("examples_scanned".into(), scan.stats.example_count.into());
    }
    doc.insert("complete".into(), (!scan.limited && scan.error.is_none()).into());
    if let Some(e) = &scan.error {
        doc.insert("error".into(), e.clone().into());
    }
    let inputs: Vec<Value> = scan
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| json!({"file": f.name, "records": scan.records_of(i), "compression": f.compression.name()}))
        .collect();
    doc.insert("inputs".into(), inputs.into());
    let table = |t: &stats::FeatureTable, lists: bool, records: u64| -> Value {
        let mut m = Map::new();
        for f in t.sorted() {
            m.insert(f.name.to_string(), feature_json(scan, f, records, lists));
        }
        Value::Object(m)
    };
    let mut untracked = Map::new();
    for (key, t) in [
        ("features", &scan.stats.features),
        ("feature_lists", &scan.stats.feature_lists),
        ("examples", &scan.stats.examples),
    ] {
        let (count, lower_bound) = t.untracked();
        if count > 0 {
            let key = match (key, scan.ty) {
                ("features", MessageType::SequenceExample | MessageType::Elwc) => "context",
                _ => key,
            };
            untracked.insert(key.into(), json!({"count": count, "lower_bound": lower_bound}));
        }
    }
    if !untracked.is_empty() {
        untracked.insert("limit".into(), stats::MAX_FEATURES.into());
        doc.insert("untracked".into(), Value::Object(untracked));
    }
    match scan.ty {
        MessageType::SequenceExample => {
            doc.insert("context".into(), table(&scan.stats.features, false, records));
            doc.insert("feature_lists".into(), table(&scan.stats.feature_lists, true, records));
        }
        MessageType::Elwc => {
            doc.insert("context".into(), table(&scan.stats.features, false, records));
            let examples = scan.stats.example_count;
            doc.insert("examples".into(), table(&scan.stats.examples, false, examples));
        }
        _ => {
            doc.insert("features".into(), table(&scan.stats.features, false, records));
        }
    }
    Value::Object(doc)
}

fn feature_json(scan: &Scan, f: &FeatureStats, records: u64, lists: bool) -> Value {
    let mut m = Map::new();
    let kinds = f.kinds();
    let kind = match kinds.as_slice() {
        [] => "none",
        [k] => k.name(),
        _ => "conflict",
    };
    m.insert("kind".into(), kind.into());
    m.insert(
        "kinds".into(),
        kinds.iter().map(|k| k.name()).collect::<Vec<_>>().into(),
    );
    let mut first = Map::new();
    for k in &kinds {
        let seen = f.first_seen[stats::kind_index(*k).expect("a kind")].expect("seen");
        let file = scan.files.get(seen.input as usize).map_or("", |f| f.name.as_str());
        first.insert(k.name().into(), json!({"file": file, "record": seen.record}));
    }
    m.insert("first_seen".into(), Value::Object(first));
    m.insert("present".into(), f.present.into());
    m.insert("missing".into(), (records - f.present).into());
    m.insert("no_kind".into(), f.no_kind.into());
    m.insert("values".into(), counts_json(&f.values));
    if lists {
        m.insert("steps".into(), counts_json(&f.steps));
    }
    if f.int64.count > 0 {
        m.insert(
            "int64".into(),
            json!({"count": f.int64.count, "min": f.int64.min, "max": f.int64.max}),
        );
    }
    let fl = &f.float;
    if fl.count > 0 {
        let (min, max) = match fl.range() {
            Some((lo, hi)) => (f32_json(lo), f32_json(hi)),
            None => (Value::Null, Value::Null),
        };
        m.insert(
            "float".into(),
            json!({"count": fl.count, "min": min, "max": max, "nan": fl.nan, "inf": fl.pos_inf, "-inf": fl.neg_inf}),
        );
    }
    let b = &f.bytes;
    if b.count > 0 {
        let media: Map<String, Value> = b
            .media_types()
            .into_iter()
            .map(|(m, n)| (m.name().to_string(), n.into()))
            .collect();
        let mut share = (b.utf8 as f64 / b.count as f64 * 1e4).round() / 1e4;
        if b.utf8 < b.count {
            // 1.0 only when every value is UTF-8 (to-parquet's string rule).
            share = share.min(0.9999);
        }
        m.insert(
            "bytes".into(),
            json!({"count": b.count, "utf8": share, "empty": b.empty, "shortest": b.shortest,
                   "longest": b.longest, "media": media}),
        );
    }
    let absent = absent_in(f, scan);
    if !absent.is_empty() {
        let names: Vec<&str> = absent.iter().map(|i| scan.files[*i].name.as_str()).collect();
        m.insert("absent_in".into(), names.into());
    }
    let mut flags = Vec::new();
    if f.is_conflict() {
        flags.push("conflict");
    }
    if f.is_always_empty() {
        flags.push("always_empty");
    }
    if !absent.is_empty() {
        flags.push("absent_in_shards");
    }
    m.insert("flags".into(), flags.into());
    Value::Object(m)
}

//! `tfr stats --format json`: the full statistics of a dataset with the
//! state of every summary, so that files saved shard by shard (on many
//! machines) merge into the statistics of the whole (`tfr stats --merge`)
//! exactly as one pass over all the records would give them.
//!
//! ```jsonc
//! {
//!   "tfr_stats": 1,                 // format version
//!   "type": "example",              // example | sequence | elwc
//!   "records": 200, "example_count": 0,
//!   "inputs": [{"file": "a.tfrecord", "records": 200, "compression": "none"}],
//!   "features": [FEATURE, ...], "feature_lists": [...], "examples": [...],
//!   "annotations": TALLY,          // when the records have annotations (boxes, classes)
//! }
//! FEATURE = {"name", "present", "no_kind", "kinds": [int64, float, bytes occurrences],
//!   "first_seen": [[input, record] | null x3], "values": [n, min, max], "steps": [n, min, max],
//!   "int64": [count, min, max], "float": [count, nan, +inf, -inf, min, max],
//!   "bytes": [count, utf8, empty, shortest, longest, total_len, [media x8]],
//!   "in_inputs": [input, ...],
//!   "deep": {"counts": Q, "steps": Q, "int": NUM, "float": NUM,
//!            "unique": {"hashes": [u64...]} | {"hll": base64},
//!            "top": {"error": n, "sketch": bool,   // exact counts, values whole; or a summary
//!                    "values": [[xxh3, base64 of the value (its first 256 bytes in a summary), length, count], ...],
//!                    "largest": [[xxh3, base64 of its first 4,096 bytes, length, count], ...]}}}  // a summary's largest values
//!            "sizes": Q,   // bytes values' lengths
//! Q = {"n": finite values, "-inf": n, "+inf": n (when any), "exact": [[value, count], ...]} | {"n": n, "tdigest": {...}, "ties": [[value, count, below], ...]}  // crate tdigest's serde form; ties: the values counted exactly (deep/ties.rs)
//! NUM = {"n", "mean", "m2", "zeros", "quantiles": Q}
//! TALLY: crate::annotate::check::Tally's saved form (annotate/saved.rs)
//! ```
//!
//! A file without `"annotations"` (none in its records, or saved before
//! tfr counted them) merges as a part with no annotations.

use super::deep::Counter;
use super::deep::{
    value_hash, Deep, Distinct, Moments, Numeric, Quantiles, TopK, EXACT_TOP, EXACT_TOP_BYTES, LARGEST_KEPT,
    LARGEST_VALUE_MAX, TOP_TRACKED, TOP_VALUE_MAX,
};
use super::stats::{BytesStats, Collector, Counts, FeatureStats, FeatureTable, FloatStats, IntStats, Seen};
use super::{FileScan, Scan};
use crate::example::MessageType;
use crate::io::Compression;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde_json::{json, Value};

/// The saved form of a scan made with full statistics.
pub fn to_json(scan: &Scan) -> Value {
    let s = &scan.stats;
    let mut doc = json!({
        "tfr_stats": 1,
        "type": type_name(scan.ty),
        "records": s.records,
        "example_count": s.example_count,
        "inputs": scan.files.iter().enumerate().map(|(i, f)| json!({
            "file": f.name,
            "records": scan.records_of(i),
            "compression": f.compression.name(),
        })).collect::<Vec<_>>(),
        "features": table(&s.features),
        "feature_lists": table(&s.feature_lists),
        "examples": table(&s.examples),
    });
    if s.annotations.any() || !s.annotations.problems.is_empty() {
        doc["annotations"] = s.annotations.to_json();
    }
    doc
}

fn type_name(ty: MessageType) -> &'static str {
    match ty {
        MessageType::SequenceExample => "sequence",
        MessageType::Elwc => "elwc",
        _ => "example",
    }
}

fn table(t: &FeatureTable) -> Value {
    Value::Array(t.features().iter().map(feature).collect())
}

fn seen(s: Option<Seen>) -> Value {
    s.map_or(Value::Null, |s| json!([s.input, s.record]))
}

fn counts(c: &Counts) -> Value {
    json!([c.n, c.min, c.max])
}

fn quantiles(q: &Quantiles) -> Value {
    let (neg, pos) = q.infinities();
    let finite = q.count() - neg - pos;
    let mut v = match q.state() {
        Ok(runs) => json!({"n": finite, "exact": runs.iter().map(|(v, c)| json!([v, c])).collect::<Vec<_>>()}),
        Err(digest) => {
            let ties: Vec<Value> = q.ties().iter().map(|t| json!([t.value, t.count, t.below])).collect();
            json!({"n": finite, "tdigest": digest, "ties": ties})
        }
    };
    if neg + pos > 0 {
        v["-inf"] = json!(neg);
        v["+inf"] = json!(pos);
    }
    v
}

fn numeric(n: &Numeric) -> Value {
    json!({
        "n": n.moments.n, "mean": n.moments.mean, "m2": n.moments.m2, "zeros": n.zeros,
        "quantiles": quantiles(&n.quantiles),
    })
}

fn feature(f: &FeatureStats) -> Value {
    let b = &f.bytes;
    let fl = &f.float;
    let mut v = json!({
        "name": &*f.name,
        "present": f.present,
        "no_kind": f.no_kind,
        "kinds": f.kind_count,
        "first_seen": f.first_seen.iter().map(|s| seen(*s)).collect::<Vec<_>>(),
        "values": counts(&f.values),
        "steps": counts(&f.steps),
        "int64": [f.int64.count, f.int64.min, f.int64.max],
        "float": [fl.count, fl.nan, fl.pos_inf, fl.neg_inf, finite_or_null(fl.min), finite_or_null(fl.max)],
        "bytes": [b.count, b.utf8, b.empty, b.shortest, b.longest, b.total_len, b.media],
        "in_inputs": f.inputs,
    });
    if let Some(d) = &f.deep {
        let unique = match d.unique.state() {
            Ok(hashes) => json!({"hashes": hashes}),
            Err(registers) => json!({"hll": B64.encode(registers)}),
        };
        let mut top: Vec<(u64, &[u8], usize, u64)> = d.top.counters().collect();
        // Sorted: the file does not depend on the order counters were made.
        top.sort_unstable();
        v["deep"] = json!({
            "counts": quantiles(&d.counts),
            "steps": quantiles(&d.steps),
            "int": numeric(&d.int),
            "float": numeric(&d.float),
            "sizes": quantiles(&d.sizes),
            "unique": unique,
            "top": {"error": d.top.error(), "sketch": !d.top.is_exact(), "values": top.iter().map(|(h, k, len, n)| json!([h, B64.encode(k), len, n])).collect::<Vec<_>>()},
        });
        if let Some(largest) = d.top.largest() {
            v["deep"]["top"]["largest"] = largest
                .map(|(h, k, len, n)| json!([h, B64.encode(k), len, n]))
                .collect();
        }
    }
    v
}

/// ±inf as strings (JSON has no infinities).
fn finite_or_null(v: f32) -> Value {
    if v.is_finite() {
        json!(v)
    } else if v.is_nan() {
        json!("NaN")
    } else if v > 0.0 {
        json!("Infinity")
    } else {
        json!("-Infinity")
    }
}

/// Reads a saved statistics file; its inputs are numbered from `first_input`
/// (so several files merge with distinct input numbers).
pub fn from_json(text: &str, first_input: u32) -> Result<Scan, String> {
    let failed = std::cell::RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = serde::Deserializer::deserialize_map(&mut de, Document { failed: &failed }).and_then(|d| {
        de.end()?;
        Ok(d)
    });
    let (v, [features, feature_lists, examples]) = match parsed {
        Ok((top, tables)) => (Value::Object(top), tables),
        Err(e) => {
            return Err(failed
                .take()
                .unwrap_or_else(|| format!("not a tfr statistics file: {e}")))
        }
    };
    if v["tfr_stats"].as_u64() != Some(1) {
        return Err("not a tfr statistics file (saved by `tfr stats --format json`, version 1)".into());
    }
    let ty = match v["type"].as_str() {
        Some("example") => MessageType::Example,
        Some("sequence") => MessageType::SequenceExample,
        Some("elwc") => MessageType::Elwc,
        _ => return Err("\"type\" is not example, sequence or elwc".into()),
    };
    let mut files = Vec::new();
    let mut per_input = vec![0; first_input as usize];
    for i in arr(&v["inputs"], "inputs")? {
        let name = i["file"].as_str().ok_or("an input without \"file\"")?.to_string();
        let compression = match i["compression"].as_str() {
            Some("gzip") => Compression::Gzip,
            Some("zlib") => Compression::Zlib,
            Some("snappy") => Compression::Snappy,
            _ => Compression::None,
        };
        files.push(FileScan { name, compression });
        per_input.push(u(&i["records"], "input records")?);
    }
    let mut collector = Collector::deep();
    collector.records = u(&v["records"], "records")?;
    collector.example_count = u(&v["example_count"], "example_count")?;
    let inputs = Inputs {
        first: first_input,
        count: files.len(),
    };
    let records = collector.records;
    collector.features = check_table(features, inputs, records)?;
    collector.feature_lists = check_table(feature_lists, inputs, records)?;
    collector.examples = check_table(examples, inputs, collector.example_count)?;
    let sum = per_input.iter().try_fold(0u64, |t, &n| t.checked_add(n));
    if sum != Some(collector.records) {
        return Err(format!("its inputs do not hold {} records", collector.records));
    }
    collector.per_input = per_input;
    if let Some(a) = v.get("annotations") {
        collector.annotations = crate::annotate::check::Tally::from_json(a, first_input.into(), files.len() as u64)?;
    }
    Ok(Scan {
        ty,
        stats: collector,
        files,
        limited: false,
        error: None,
    })
}

/// The three tables of features, as read.
type Tables = [Vec<FeatureStats>; 3];

/// A saved file read in one pass: each feature is turned into its
/// statistics as soon as its JSON is parsed (and that JSON dropped), so
/// a large file is never held as a tree of JSON values (ten to twenty times
/// its size); the other keys are kept as JSON. The first error of a
/// feature is put in `failed` (serde's own would add a line and column).
struct Document<'a> {
    failed: &'a std::cell::RefCell<Option<String>>,
}

impl<'de> serde::de::Visitor<'de> for Document<'_> {
    type Value = (serde_json::Map<String, Value>, Tables);

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut top = serde_json::Map::new();
        let mut tables: Tables = Default::default();
        while let Some(key) = map.next_key::<String>()? {
            // JSON lets the last of two values win: a forged file could
            // show one count to a reader and another to tfr.
            if top.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("\"{key}\" is given twice")));
            }
            let slot = match key.as_str() {
                "features" => 0,
                "feature_lists" => 1,
                "examples" => 2,
                _ => {
                    let value: Value = map.next_value()?;
                    top.insert(key, value);
                    continue;
                }
            };
            tables[slot] = map.next_value_seed(Table { failed: self.failed })?;
            top.insert(key, Value::Bool(true));
        }
        for key in ["features", "feature_lists", "examples"] {
            if !top.contains_key(key) {
                return Err(serde::de::Error::custom(format!("no \"{key}\"")));
            }
        }
        Ok((top, tables))
    }
}

/// One table of features: a list, read one feature at a time.
struct Table<'a> {
    failed: &'a std::cell::RefCell<Option<String>>,
}

impl<'de> serde::de::DeserializeSeed<'de> for Table<'_> {
    type Value = Vec<FeatureStats>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Table<'_> {
    type Value = Vec<FeatureStats>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of features")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(x) = seq.next_element::<Value>()? {
            match read_feature(&x) {
                Ok(f) => out.push(f),
                Err(e) => {
                    *self.failed.borrow_mut() = Some(e.clone());
                    return Err(serde::de::Error::custom(e));
                }
            }
        }
        Ok(out)
    }
}

fn arr<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array().ok_or_else(|| format!("\"{what}\" is not a list"))
}

/// The largest count a saved file may hold: sums of a million such files
/// still fit in 64 bits.
const MAX_COUNT: u64 = 1 << 44;

/// A count (at most [`MAX_COUNT`]).
fn u(v: &Value, what: &str) -> Result<u64, String> {
    let n = hash(v, what)?;
    if n > MAX_COUNT {
        return Err(format!("\"{what}\" is too large for a count ({n})"));
    }
    Ok(n)
}

/// A 64-bit value (a hash).
fn hash(v: &Value, what: &str) -> Result<u64, String> {
    v.as_u64().ok_or_else(|| format!("\"{what}\" is not a count"))
}

fn i(v: &Value, what: &str) -> Result<i64, String> {
    v.as_i64().ok_or_else(|| format!("\"{what}\" is not an integer"))
}

fn f(v: &Value, what: &str) -> Result<f64, String> {
    match v {
        Value::String(s) if s == "Infinity" => Ok(f64::INFINITY),
        Value::String(s) if s == "-Infinity" => Ok(f64::NEG_INFINITY),
        Value::String(s) if s == "NaN" => Ok(f64::NAN),
        _ => v.as_f64().ok_or_else(|| format!("\"{what}\" is not a number")),
    }
}

fn nth<'a>(v: &'a Value, n: usize, what: &str) -> Result<&'a Value, String> {
    arr(v, what)?.get(n).ok_or_else(|| format!("\"{what}\" is too short"))
}

fn read_counts(v: &Value, what: &str) -> Result<Counts, String> {
    Ok(Counts {
        n: u(nth(v, 0, what)?, what)?,
        // u64::MAX while nothing was counted.
        min: hash(nth(v, 1, what)?, what)?,
        max: hash(nth(v, 2, what)?, what)?,
    })
}

fn read_quantiles(v: &Value, what: &str) -> Result<Quantiles, String> {
    let n = u(&v["n"], what)?;
    let count_or_0 = |x: &Value, k: &str| {
        if x.is_null() {
            Ok(0)
        } else {
            u(x, &format!("{what}.{k}"))
        }
    };
    let inf = (count_or_0(&v["-inf"], "-inf")?, count_or_0(&v["+inf"], "+inf")?);
    if v["tdigest"].is_object() {
        // (files of an earlier tfr have no ties)
        let mut ties = Vec::new();
        if !v["ties"].is_null() {
            for t in arr(&v["ties"], what)? {
                ties.push(crate::schema::deep::ties::Tie {
                    value: f(nth(t, 0, what)?, what)?,
                    count: u(nth(t, 1, what)?, what)?,
                    below: u(nth(t, 2, what)?, what)?,
                });
            }
        }
        return Quantiles::from_state(n, inf, Vec::new(), Some((&v["tdigest"], ties)))
            .map_err(|e| format!("\"{what}\": {e}"));
    }
    let mut runs = Vec::new();
    for r in arr(&v["exact"], what)? {
        runs.push((f(nth(r, 0, what)?, what)?, u(nth(r, 1, what)?, what)?));
    }
    Quantiles::from_state(n, inf, runs, None).map_err(|e| format!("\"{what}\": {e}"))
}

fn read_numeric(v: &Value, what: &str) -> Result<Numeric, String> {
    let n = Numeric {
        moments: Moments {
            n: u(&v["n"], what)?,
            mean: f(&v["mean"], what)?,
            m2: f(&v["m2"], what)?,
        },
        zeros: u(&v["zeros"], what)?,
        quantiles: read_quantiles(&v["quantiles"], what)?,
    };
    // The moments are of the finite values the quantiles hold.
    let (neg, pos) = n.quantiles.infinities();
    let finite = n.quantiles.count() - neg - pos;
    let m = &n.moments;
    if m.n != finite || !m.mean.is_finite() || !m.m2.is_finite() || m.m2 < 0.0 || n.zeros > finite {
        return Err(format!("\"{what}\": its moments do not match its values"));
    }
    Ok(n)
}

fn read_deep(v: &Value) -> Result<Deep, String> {
    let unique = if let Some(s) = v["unique"]["hll"].as_str() {
        let r = B64.decode(s).map_err(|e| format!("\"unique\": {e}"))?;
        Distinct::from_state(Vec::new(), Some(r))?
    } else {
        let hashes = arr(&v["unique"]["hashes"], "unique")?
            .iter()
            .map(|h| hash(h, "unique"))
            .collect::<Result<Vec<u64>, String>>()?;
        Distinct::from_state(hashes, None)?
    };
    let mut counters = Vec::new();
    let saved = arr(&v["top"]["values"], "top")?;
    let error = u(&v["top"]["error"], "top")?;
    // Exact counts (values whole), or a summary (values by their start);
    // a file of an earlier tfr has no flag (and its limits): a summary once
    // it lost a count or cut a value.
    let flag = match &v["top"]["sketch"] {
        Value::Bool(b) => Some(*b),
        Value::Null => None,
        _ => return Err("\"top\": \"sketch\" is not true or false".into()),
    };
    let sketch = flag.unwrap_or(true);
    let (most, longest) = if sketch {
        (2 * TOP_TRACKED, TOP_VALUE_MAX)
    } else {
        (EXACT_TOP, EXACT_TOP_BYTES)
    };
    if saved.len() > most {
        return Err(format!("\"top\": {} counters, more than tfr keeps", saved.len()));
    }
    let mut bytes = 0usize;
    let mut seen = std::collections::HashSet::new();
    for t in saved {
        let key = B64
            .decode(nth(t, 1, "top")?.as_str().unwrap_or(""))
            .map_err(|e| format!("\"top\": {e}"))?;
        let len = usize::try_from(u(nth(t, 2, "top")?, "top")?).map_err(|_| "\"top\": a length too large")?;
        let (h, n) = (hash(nth(t, 0, "top")?, "top")?, u(nth(t, 3, "top")?, "top")?);
        bytes += key.len();
        let cut = if sketch { key.len() > len } else { key.len() != len };
        if n == 0 || !seen.insert(h) || key.len() > longest || cut || bytes > EXACT_TOP_BYTES {
            return Err("\"top\": a counter is not one tfr wrote".into());
        }
        counters.push((h, key, len, n));
    }
    let sketch = flag.unwrap_or_else(|| error > 0 || counters.iter().any(|c| c.1.len() < c.2));
    Ok(Deep {
        counts: read_quantiles(&v["counts"], "counts")?,
        steps: read_quantiles(&v["steps"], "steps")?,
        int: read_numeric(&v["int"], "int")?,
        float: read_numeric(&v["float"], "float")?,
        sizes: read_quantiles(&v["sizes"], "sizes")?,
        unique,
        top: TopK::from_state(counters, error, sketch, read_largest(&v["top"]["largest"])?),
    })
}

/// A summary's largest values, exact counts (`None`: a file of an earlier
/// tfr, which did not keep them).
fn read_largest(v: &Value) -> Result<Option<Vec<Counter>>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let saved = arr(v, "largest")?;
    if saved.len() > LARGEST_KEPT {
        return Err(format!("\"largest\": {} values, more than tfr keeps", saved.len()));
    }
    let mut out = Vec::with_capacity(saved.len());
    let mut seen = std::collections::HashSet::new();
    for t in saved {
        let kept = B64
            .decode(nth(t, 1, "largest")?.as_str().unwrap_or(""))
            .map_err(|e| format!("\"largest\": {e}"))?;
        let len =
            usize::try_from(u(nth(t, 2, "largest")?, "largest")?).map_err(|_| "\"largest\": a length too large")?;
        let (h, n) = (
            hash(nth(t, 0, "largest")?, "largest")?,
            u(nth(t, 3, "largest")?, "largest")?,
        );
        let whole = kept.len() == len && value_hash(&kept) == h;
        let cut = kept.len() == LARGEST_VALUE_MAX && len > kept.len();
        if n == 0 || !seen.insert(h) || !(whole || cut) {
            return Err("\"largest\": a value is not one tfr wrote".into());
        }
        out.push((h, kept, len, n));
    }
    Ok(Some(out))
}

/// The inputs a saved file lists: numbered from `first` (after those of
/// the files merged before it), `count` of them.
#[derive(Clone, Copy)]
struct Inputs {
    first: u32,
    count: usize,
}

impl Inputs {
    /// An input number of the file (as read), numbered in the merge.
    fn number(self, n: u32, what: &str) -> Result<u32, String> {
        usize::try_from(n)
            .ok()
            .filter(|&n| n < self.count)
            .and_then(|_| self.first.checked_add(n))
            .ok_or_else(|| format!("\"{what}\" names input {n}, not one of the {} listed", self.count))
    }
}

/// A table of features, each present in at most `records` records (or
/// examples), each name once, naming inputs the file lists (renumbered
/// from `inputs.first`).
fn check_table(features: Vec<FeatureStats>, inputs: Inputs, records: u64) -> Result<FeatureTable, String> {
    let mut out = Vec::with_capacity(features.len());
    let mut names = std::collections::HashSet::new();
    for mut f in features {
        for seen in f.first_seen.iter_mut().flatten() {
            seen.input = inputs.number(seen.input, "first_seen")?;
        }
        for n in f.inputs.iter_mut() {
            *n = inputs.number(*n, "in_inputs")?;
        }
        if f.present > records {
            return Err(format!(
                "feature \"{}\" is present in {} records, more than the {records} read",
                f.name, f.present
            ));
        }
        if !names.insert(f.name.clone()) {
            return Err(format!("feature \"{}\" is listed twice", f.name));
        }
        out.push(f);
    }
    Ok(FeatureTable::restored(out))
}

/// One feature as saved; its input numbers are the file's own (see
/// [`check_table`]).
fn read_feature(x: &Value) -> Result<FeatureStats, String> {
    let name = x["name"].as_str().ok_or("a feature without \"name\"")?;
    let mut s = FeatureStats::new(name, true);
    let what = |k: &str| format!("{name}.{k}");
    s.present = u(&x["present"], &what("present"))?;
    s.no_kind = u(&x["no_kind"], &what("no_kind"))?;
    for k in 0..3 {
        s.kind_count[k] = u(nth(&x["kinds"], k, "kinds")?, &what("kinds"))?;
        let at = nth(&x["first_seen"], k, "first_seen")?;
        s.first_seen[k] = if at.is_null() {
            None
        } else {
            let input = u(nth(at, 0, "first_seen")?, "first_seen")?;
            Some(Seen {
                input: u32::try_from(input).map_err(|_| format!("\"first_seen\" names input {input}"))?,
                record: u(nth(at, 1, "first_seen")?, "first_seen")?,
            })
        };
    }
    s.values = read_counts(&x["values"], "values")?;
    s.steps = read_counts(&x["steps"], "steps")?;
    let iv = &x["int64"];
    s.int64 = IntStats {
        count: u(nth(iv, 0, "int64")?, "int64")?,
        min: i(nth(iv, 1, "int64")?, "int64")?,
        max: i(nth(iv, 2, "int64")?, "int64")?,
    };
    let fv = &x["float"];
    s.float = FloatStats {
        count: u(nth(fv, 0, "float")?, "float")?,
        nan: u(nth(fv, 1, "float")?, "float")?,
        pos_inf: u(nth(fv, 2, "float")?, "float")?,
        neg_inf: u(nth(fv, 3, "float")?, "float")?,
        min: f(nth(fv, 4, "float")?, "float")? as f32,
        max: f(nth(fv, 5, "float")?, "float")? as f32,
    };
    let bv = &x["bytes"];
    let mut media = [0u64; 8];
    for (k, m) in media.iter_mut().enumerate() {
        *m = u(nth(nth(bv, 6, "bytes")?, k, "media")?, "media")?;
    }
    s.bytes = BytesStats {
        count: u(nth(bv, 0, "bytes")?, "bytes")?,
        utf8: u(nth(bv, 1, "bytes")?, "bytes")?,
        empty: u(nth(bv, 2, "bytes")?, "bytes")?,
        shortest: hash(nth(bv, 3, "bytes")?, "bytes")?,
        longest: hash(nth(bv, 4, "bytes")?, "bytes")?,
        total_len: u(nth(bv, 5, "bytes")?, "bytes")?,
        media,
    };
    let b = &s.bytes;
    if b.utf8 > b.count || b.empty > b.count || b.media.iter().sum::<u64>() > b.count {
        return Err(format!("feature \"{name}\": its bytes counts do not add up"));
    }
    s.inputs = arr(&x["in_inputs"], "in_inputs")?
        .iter()
        .map(|n| u(n, "in_inputs").and_then(|n| u32::try_from(n).map_err(|_| format!("\"in_inputs\" names input {n}"))))
        .collect::<Result<Vec<u32>, String>>()?;
    let ordered = |n: u64, min: u64, max: u64| n == 0 || min <= max;
    if !ordered(s.values.n, s.values.min, s.values.max)
        || !ordered(s.steps.n, s.steps.min, s.steps.max)
        || (s.int64.count > 0 && s.int64.min > s.int64.max)
        || (s.bytes.count > 0 && s.bytes.shortest > s.bytes.longest)
        || s.float
            .nan
            .checked_add(s.float.pos_inf)
            .and_then(|n| n.checked_add(s.float.neg_inf))
            .is_none_or(|n| n > s.float.count)
    {
        return Err(format!("feature \"{name}\": its counts do not add up"));
    }
    s.deep = Some(Box::new(
        read_deep(&x["deep"]).map_err(|e| format!("feature \"{name}\": {e}"))?,
    ));
    Ok(s)
}

//! `tfr stats`: TFDV's numbers on the notebook fixture (the figures below
//! are what TFDV 1.16.1's generate_statistics_from_tfrecord printed for
//! tests/data/notebook.tfrecord; tests/oracle/tfdv_check.py compares every
//! fixture with TFDV itself), sketches that give the same answer whatever
//! the threads or the sharding, saved statistics that merge, field numbers
//! that are statistics.proto's.

use crate::proto::{Example, Feature, FeatureEntry, Features};
use crate::util::*;
use prost::Message;

fn example(features: Vec<(&str, Feature)>) -> Vec<u8> {
    Example {
        features: Some(Features {
            feature: features.into_iter().map(|(k, f)| FeatureEntry::new(k, f)).collect(),
        }),
    }
    .encode_to_vec()
}

/// The value of `field:` in the text-format block of feature `name`.
fn field_of<'a>(text: &'a str, feature: &str, field: &str) -> Vec<&'a str> {
    // Features end with their path: the block is what precedes it.
    let marker = format!("step: \"{feature}\"");
    let end = text.find(&marker).unwrap_or_else(|| panic!("no feature {feature}"));
    let start = text[..end].rfind("  features {").expect("block start");
    text[start..end]
        .lines()
        .filter_map(|l| l.trim().strip_prefix(&format!("{field}: ")))
        .collect()
}

#[test]
fn notebook_statistics_are_tfdvs() {
    let text = tfr(&["stats", "-f", "tfdv-stats-text", &data("notebook.tfrecord")])
        .run()
        .ok();
    assert!(text.contains("num_examples: 200"), "{text}");
    assert_eq!(field_of(&text, "feature0", "mean"), ["0.505"]);
    // Deviations agree to the last bits or so (TFDV sums in another order).
    let close = |feature: &str, field: &str, want: f64| {
        let got: f64 = field_of(&text, feature, field)[0].parse().unwrap();
        assert!(
            (got - want).abs() <= 1e-12 * want.abs(),
            "{feature}.{field}: {got} vs {want}"
        );
    };
    close("feature0", "std_dev", 0.4999749993749687);
    assert_eq!(field_of(&text, "feature0", "num_zeros"), ["99"]);
    assert_eq!(field_of(&text, "feature0", "median"), ["1.0"]);
    close("feature1", "std_dev", 1.4229458879381183);
    close("feature3", "mean", -0.12801448378129862);
    close("feature3", "std_dev", 0.9432581608244722);
    assert_eq!(field_of(&text, "feature1", "median"), ["2.0"]);
    assert_eq!(field_of(&text, "feature3", "median"), ["-0.13594970107078552"]);
    assert_eq!(field_of(&text, "feature3", "min"), ["-2.772592782974243"]);
    assert_eq!(field_of(&text, "feature3", "max"), ["2.3039166927337646"]);
    assert_eq!(field_of(&text, "feature2", "type")[0], "STRING");
    assert_eq!(field_of(&text, "feature2", "unique"), ["5"]);
    assert_eq!(field_of(&text, "feature2", "avg_length"), ["4.385"]);
    assert_eq!(
        field_of(&text, "feature2", "value"),
        ["\"horse\"", "\"cat\"", "\"goat\"", "\"chicken\"", "\"dog\""]
    );
    assert_eq!(
        field_of(&text, "feature2", "frequency"),
        ["51.0", "45.0", "35.0", "35.0", "34.0"]
    );
    // The quantile buckets of feature3 are bounded by the values of rank
    // 20, 40, ... (TFDV's); here the last of the inner bounds.
    let bounds = field_of(&text, "feature3", "high_value");
    assert!(bounds.contains(&"1.0777437686920166"), "{bounds:?}");
    let table = tfr(&["stats", &data("notebook.tfrecord")]).run().ok();
    assert!(table.contains("top: horse (51), cat (45), goat (35)"), "{table}");
}

/// Every (number, name) the statistics writer uses is a field of
/// proto/statistics.proto (or path.proto).
#[test]
fn field_numbers_are_statistics_protos() {
    let root = env!("CARGO_MANIFEST_DIR");
    let source = std::fs::read_to_string(format!("{root}/crates/tfr-engine/src/schema/tfdv/stats_file.rs")).unwrap();
    let proto = std::fs::read_to_string(format!("{root}/proto/statistics.proto")).unwrap()
        + &std::fs::read_to_string(format!("{root}/proto/path.proto")).unwrap();
    let mut checked = 0;
    for (i, _) in source.match_indices("(") {
        let rest = &source[i + 1..];
        let Some((number, tail)) = rest.split_once(", \"") else {
            continue;
        };
        let Ok(number) = number.trim().parse::<u32>() else {
            continue;
        };
        let Some((name, _)) = tail.split_once('"') else {
            continue;
        };
        let declared = proto.lines().any(|l| {
            let l = l.trim();
            !l.starts_with("//")
                && l.split_once('=').is_some_and(|(lhs, rhs)| {
                    lhs.split_whitespace().last() == Some(name)
                        && rhs.trim().trim_end_matches(';').trim().split(' ').next() == Some(&number.to_string())
                })
        });
        assert!(declared, "field {name} = {number} is not in statistics.proto");
        checked += 1;
    }
    assert!(checked > 40, "only {checked} fields found");
}

/// 30,000 records: ints with 10,000 distinct values (sketched), floats with
/// NaN and infinities, a categorical string, a variable-length list, an
/// optional feature.
fn dataset(dir: &Dir, shards: usize) -> Vec<String> {
    let n = 30_000usize;
    let per = n.div_ceil(shards);
    let mut names = Vec::new();
    for s in 0..shards {
        let recs: Vec<Vec<u8>> = (s * per..((s + 1) * per).min(n))
            .map(|i| {
                let x = match i % 1000 {
                    7 => f32::NAN,
                    8 => f32::INFINITY,
                    _ => ((i * 7919) % 10_007) as f32 / 100.0 - 20.0,
                };
                let mut f = vec![
                    ("id", Feature::int64s(vec![((i * 31) % 10_000) as i64])),
                    ("x", Feature::floats(vec![x])),
                    (
                        "kind",
                        Feature::bytes(vec![["cat", "dog", "emu"][i % 3].as_bytes().to_vec()]),
                    ),
                    ("list", Feature::int64s((0..(i % 5) as i64).collect())),
                ];
                if i % 4 == 0 {
                    f.push(("opt", Feature::bytes(vec![format!("v{}", i % 300).into_bytes()])));
                }
                example(f)
            })
            .collect();
        let refs: Vec<&[u8]> = recs.iter().map(|r| r.as_slice()).collect();
        let name = format!("part-{s}.tfrecord");
        dir.write(&name, &records(&refs));
        names.push(name);
    }
    names
}

/// Text-format statistics equal but for the last bits of floating point
/// (the mean and deviation merge in another order) and, where a t-digest
/// summarises (`id`: 10,000 distinct values in 0..10,000, 30,000 values),
/// for its merge order: a median or bound within 1% of the range, a
/// bucket's count within 1% of the values.
#[track_caller]
fn assert_same_stats(a: &str, b: &str) {
    assert_lines_close(a, b, |key, fx| match key.trim() {
        "median" | "low_value" | "high_value" => 100.0,
        "sample_count" => 300.0,
        _ => 1e-9 * fx.abs().max(1.0),
    });
}

#[test]
fn threads_and_saved_shards_give_one_passs_statistics() {
    let dir = Dir::new();
    let names = dataset(&dir, 3);
    let mut args = vec!["stats", "-f", "tfdv-stats-text"];
    args.extend(names.iter().map(String::as_str));
    let one = dir.tfr(&args).run().ok();
    args.extend(["-j", "1"]);
    let single = dir.tfr(&args).run().ok();
    assert_eq!(one, single, "-j 1 and -j 2 differ");
    // The sketches are in use: 10,000 distinct ids.
    let table = dir.tfr(&["stats", &names[0], &names[1], &names[2]]).run().ok();
    assert!(table.contains("median ~"), "{table}");
    assert!(table.contains("NaN 30, inf 30"), "{table}");
    for name in &names {
        let saved = dir.tfr(&["stats", "-f", "json", name]).run().ok();
        dir.write(&format!("{name}.json"), saved.as_bytes());
    }
    let two_saved = [
        "stats",
        "-f",
        "tfdv-stats-text",
        "--merge",
        "part-0.tfrecord.json",
        "--merge",
        "part-1.tfrecord.json",
    ];
    let merged = dir
        .tfr(&[&two_saved[..], &["--merge", "part-2.tfrecord.json"]].concat())
        .run()
        .ok();
    assert_same_stats(&one, &merged);
    // Saved statistics plus a file scanned now.
    let mixed = dir.tfr(&[&two_saved[..], &["part-2.tfrecord"]].concat()).run().ok();
    assert_same_stats(&one, &mixed);
    let binary = dir.tfr(&["stats", "-f", "tfdv-stats", &names[0]]).run();
    assert_eq!(binary.code, 0);
    // One TFRecord holding the DatasetFeatureStatisticsList.
    let listed = dir.tfr(&["count", "-"]).stdin(&binary.stdout).run().ok();
    assert_eq!(listed.trim(), "1");
}

#[test]
fn bad_saved_statistics_are_one_line_errors() {
    let dir = Dir::new();
    dir.write("junk.json", b"{\"tfr_stats\": 1, \"type\": \"example\"");
    let err = dir.tfr(&["stats", "--merge", "junk.json"]).run().fails(2);
    assert!(err.starts_with("tfr: junk.json: not a tfr statistics file"), "{err}");
    dir.write("other.json", b"{\"features\": []}");
    let err = dir.tfr(&["stats", "--merge", "other.json"]).run().fails(2);
    assert!(err.contains("other.json: not a tfr statistics file"), "{err}");
    let seq = dir.tfr(&["stats", "-f", "json", &data("sequence.tfrecord")]).run().ok();
    dir.write("seq.json", seq.as_bytes());
    let err = dir
        .tfr(&["stats", "--merge", "seq.json", &data("notebook.tfrecord")])
        .run()
        .fails(2);
    assert!(err.contains("cannot be merged"), "{err}");
    let err = dir.tfr(&["stats", "--merge", "missing.json"]).run().fails(2);
    assert!(err.contains("missing.json"), "{err}");
}

/// `tfr schema -f tfdv-schema` prints, byte for byte, what TFDV's
/// infer_schema infers (tests/data/tfdv/, by
/// tests/oracle/gen_tfdv_expected.py), on fixtures with bool domains, string
/// domains, fixed shapes, optional and empty features, escapes and UTF-8.
#[test]
fn tfdv_schema_is_tfdvs_inference() {
    for name in ["notebook", "images", "edge", "sequence"] {
        let want = std::fs::read_to_string(data_dir().join("tfdv").join(format!("{name}.schema.pbtxt"))).unwrap();
        let got = tfr(&["schema", "-f", "tfdv-schema", &data(&format!("{name}.tfrecord"))])
            .run()
            .ok();
        assert_eq!(got, want, "{name}");
    }
}

/// Names past the tracked limit are said, never dropped in silence; a
/// schema that would lack them is refused; several kinds are said too.
#[test]
fn features_past_the_limit_and_mixed_kinds_are_said() {
    let dir = Dir::new();
    let many: Vec<(String, Feature)> = (0..5003)
        .map(|i| (format!("f{i:05}"), Feature::int64s(vec![1])))
        .collect();
    let rec = example(many.iter().map(|(k, f)| (k.as_str(), f.clone())).collect());
    dir.write("wide.tfrecord", &records(&[&rec]));
    let ran = dir.tfr(&["stats", "-f", "json", "wide.tfrecord"]).run();
    assert_eq!(ran.code, 0);
    assert!(
        ran.stderr
            .contains("3 feature names past the first 5000 have no statistics"),
        "{}",
        ran.stderr
    );
    let err = dir
        .tfr(&["schema", "-f", "tfdv-schema", "wide.tfrecord"])
        .run()
        .fails(2);
    assert!(err.contains("cannot write a complete schema"), "{err}");
    let mixed = [
        example(vec![("m", Feature::int64s(vec![1]))]),
        example(vec![("m", Feature::floats(vec![0.5]))]),
    ];
    dir.write("mixed.tfrecord", &records(&[&mixed[0], &mixed[1]]));
    for cmd in [
        &["stats", "mixed.tfrecord"][..],
        &["schema", "-f", "tfdv-schema", "mixed.tfrecord"],
    ] {
        let ran = dir.tfr(cmd).run();
        assert_eq!(ran.code, 0, "{cmd:?}");
        assert!(
            ran.stderr.contains("feature \"m\" seen with several kinds"),
            "{cmd:?}: {}",
            ran.stderr
        );
    }
}

/// The index of feature `name` in saved statistics.
fn feature_index(v: &serde_json::Value, name: &str) -> usize {
    let features = v["features"].as_array().unwrap();
    features.iter().position(|f| f["name"] == name).unwrap()
}

/// Regression (issue 27, item 3): `stats --merge` of a saved file whose
/// t-digest has count 0 and one centroid of weight 1e-9 panicked inside the
/// tdigest crate. Every field of a saved file is checked on load: each
/// forgery below is one line, exit 2, never a panic.
#[test]
fn forged_saved_statistics_are_refused_in_one_line() {
    let dir = Dir::new();
    let lines: String = (0..5000)
        .map(|i| format!("{{\"x\": [{}.5], \"s\": [\"v{}\"]}}\n", i, i % 7))
        .collect();
    dir.write("d.jsonl", lines.as_bytes());
    dir.tfr(&["from-jsonl", "d.jsonl", "-o", "d.tfrecord"]).run().ok();
    let saved = dir.tfr(&["stats", "--format", "json", "d.tfrecord"]).run().ok();
    dir.write("good.json", saved.as_bytes());
    dir.tfr(&["stats", "--merge", "good.json"]).run().ok();
    let good: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let x = |v: &mut serde_json::Value| -> usize {
        let names: Vec<&str> = v["features"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        names.iter().position(|n| *n == "x").unwrap()
    };
    type Forge = fn(&mut serde_json::Value, usize);
    let forgeries: Vec<(&str, Forge)> = vec![
        ("tdigest of no values", |v, i| {
            let q = &mut v["features"][i]["deep"]["float"]["quantiles"];
            q["n"] = 0.into();
            let t = &mut q["tdigest"];
            t["count"] = 0.into();
            t["centroids"] = serde_json::json!([{"mean": 1.0, "weight": 1e-9}]);
            t["min"] = 1.0.into();
            t["max"] = 1.0.into();
        }),
        ("fractional weight", |v, i| {
            let t = &mut v["features"][i]["deep"]["float"]["quantiles"]["tdigest"];
            t["centroids"][0]["weight"] = 0.5.into();
            t["centroids"][1]["weight"] = 1.5.into();
        }),
        ("infinite sum", |v, i| {
            v["features"][i]["deep"]["float"]["quantiles"]["tdigest"]["sum"] = "Infinity".into();
        }),
        ("present > records", |v, i| v["features"][i]["present"] = 5001.into()),
        ("first_seen input out of range", |v, i| {
            v["features"][i]["first_seen"][1] = serde_json::json!([4294967295u64, 0])
        }),
        ("in_inputs out of range", |v, i| {
            v["features"][i]["in_inputs"] = serde_json::json!([7])
        }),
        ("moments of other values", |v, i| {
            v["features"][i]["deep"]["float"]["n"] = 3.into()
        }),
        ("negative m2", |v, i| {
            v["features"][i]["deep"]["float"]["m2"] = (-1.0).into()
        }),
        ("infinities not a count", |v, i| {
            v["features"][i]["deep"]["float"]["quantiles"]["+inf"] = serde_json::json!(u64::MAX)
        }),
        ("exact counts overflowing", |v, _| {
            let s = feature_index(v, "s");
            let q = &mut v["features"][s]["deep"]["sizes"];
            q["n"] = 5000.into();
            q["exact"] = serde_json::json!([[1.0, 17592186044416u64], [2.0, 17592186044416u64]]);
        }),
        ("top counter twice", |v, _| {
            let s = feature_index(v, "s");
            let top = v["features"][s]["deep"]["top"]["values"].as_array_mut().unwrap();
            let first = top[0].clone();
            top.push(first);
        }),
        ("feature twice", |v, i| {
            let f = v["features"][i].clone();
            v["features"].as_array_mut().unwrap().push(f);
        }),
        ("inputs overflowing", |v, _| {
            v["inputs"] = serde_json::json!([
                {"file": "a", "records": 17592186044416u64},
                {"file": "b", "records": 17592186044416u64}
            ]);
            v["records"] = 5000.into();
        }),
        ("values min > max", |v, i| {
            v["features"][i]["values"] = serde_json::json!([5000, 3, 1])
        }),
    ];
    for (what, forge) in forgeries {
        let mut v = good.clone();
        let i = x(&mut v);
        forge(&mut v, i);
        dir.write("bad.json", v.to_string().as_bytes());
        let line = dir.tfr(&["stats", "--merge", "bad.json"]).run().fails(2);
        assert!(!line.contains("internal error"), "{what}: {line}");
        assert_eq!(line.lines().count(), 1, "{what}: {line}");
    }
    // A key given twice (JSON's last value would win unseen), found by
    // review: accepted before.
    let text = good.to_string();
    for (key, twice) in [
        ("records", text.replacen("{", "{\"records\":1,", 1)),
        ("features", text.replacen("{", "{\"features\":[],", 1)),
    ] {
        dir.write("twice.json", twice.as_bytes());
        let line = dir.tfr(&["stats", "--merge", "twice.json"]).run().fails(2);
        assert!(line.contains(&format!("\"{key}\" is given twice")), "{line}");
    }
}

// ---------------------------------------------------------------------------
// Issue 28: TFDV to the last field
// ---------------------------------------------------------------------------

use tfr::schema::tfdv::pbtxt::{self, Field, Scalar, Value};

/// The issue-28 cases (tests/data/tfdv/issue28, written with TensorFlow by
/// tests/oracle/gen_tfdv_expected.py --issue28 with TFDV 1.16.1's answers).
const ISSUE_28: [&str; 9] = [
    "long_strings",
    "empty_feature",
    "bounds",
    "ties",
    "distinct_2001",
    "ranks_360",
    "infinities",
    "map_entry_unknown",
    "example_field2",
];

/// A number of text format (`1.5`, `nan`, `-inf`), or `None`.
fn number(s: &Scalar) -> Option<f64> {
    match s {
        Scalar::Number(n) => n.parse().ok(),
        Scalar::Ident(i) => match i.as_str() {
            "nan" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        Scalar::Str(_) => None,
    }
}

/// The fields of a statistics message that tfr and TFDV must agree on:
/// all but the dataset's name and tfr's own `custom_stats` (media_type).
fn compared(fields: &[Field]) -> Vec<&Field> {
    fields
        .iter()
        .filter(|f| {
            let tfr_own = f.name == "custom_stats"
                && matches!(&f.value, Value::Message(m) if m.iter().any(|x| x.name == "name"
                    && x.value == Value::Scalar(Scalar::Str(b"media_type".to_vec()))));
            let dataset_name = f.name == "name"
                && matches!(f.value, Value::Scalar(Scalar::Str(_)))
                && fields.iter().any(|x| x.name == "num_examples");
            !(tfr_own || dataset_name)
        })
        .collect()
}

/// Where two statistics differ (`path: tfr …, TFDV …`), numbers compared
/// as doubles (every bit: both are shortest round-trip forms).
fn differences(mine: &[Field], theirs: &[Field], path: &str, out: &mut Vec<String>) {
    let (a, b) = (compared(mine), compared(theirs));
    if a.len() != b.len() {
        let names = |v: &[&Field]| v.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(",");
        out.push(format!("{path}: tfr fields [{}], TFDV [{}]", names(&a), names(&b)));
        return;
    }
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let here = format!("{path}.{}[{i}]", x.name);
        if x.name != y.name {
            out.push(format!("{here}: tfr {}, TFDV {}", x.name, y.name));
            continue;
        }
        match (&x.value, &y.value) {
            (Value::Message(m), Value::Message(n)) => differences(m, n, &here, out),
            (Value::Scalar(s), Value::Scalar(t)) => {
                let same = match (number(s), number(t)) {
                    (Some(p), Some(q)) => p == q || (p.is_nan() && q.is_nan()),
                    _ => s == t,
                };
                if !same {
                    out.push(format!("{here}: tfr {s:?}, TFDV {t:?}"));
                }
            }
            _ => out.push(format!("{here}: tfr {:?}, TFDV {:?}", x.value, y.value)),
        }
    }
}

/// Issue 28, items 3 to 9: on each case, `tfr stats -f tfdv-stats-text`
/// is what TFDV 1.16.1 wrote, field for field and number for number
/// (boundary values in the lower standard bucket, quantile and
/// num_values counts with ties spread, 0.7 * 360 as rank 252, NaN means
/// with infinities, 20 top values and 1,000 ranks of 2,001 distinct
/// values, the feature of a map entry with an unknown field kept, an
/// Example carrying field 2 read).
#[test]
fn tfdv_statistics_equal_tfdvs_on_the_issue_28_cases() {
    let mut all = Vec::new();
    for case in ISSUE_28 {
        let text = tfr(&[
            "stats",
            "-q",
            "-f",
            "tfdv-stats-text",
            &data(&format!("tfdv/issue28/{case}.tfrecord")),
        ])
        .run()
        .ok();
        let expected = std::fs::read_to_string(data(&format!("tfdv/issue28/{case}.stats.pbtxt"))).unwrap();
        let mine = pbtxt::parse(&text).unwrap_or_else(|e| panic!("{case}: {e}"));
        let theirs = pbtxt::parse(&expected).unwrap();
        let mut diffs = Vec::new();
        differences(&mine, &theirs, case, &mut diffs);
        all.extend(diffs.into_iter().take(8));
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// Issue 28, items 1 and 5: the schema tfr infers is TFDV's, byte for byte
/// (string values longer than 256 bytes whole in the string domain; no
/// domain for 2,001 distinct values), and it validates the data it came
/// from.
#[test]
fn tfdv_schemas_of_the_issue_28_cases_are_tfdvs_and_validate_their_data() {
    let dir = Dir::new();
    for case in ["long_strings", "distinct_2001"] {
        let want = std::fs::read_to_string(data(&format!("tfdv/issue28/{case}.schema.pbtxt"))).unwrap();
        let file = data(&format!("tfdv/issue28/{case}.tfrecord"));
        let got = tfr(&["schema", "-q", "-f", "tfdv-schema", &file]).run().ok();
        assert_eq!(got, want, "{case}");
        let schema = dir.write(&format!("{case}.pbtxt"), got.as_bytes());
        let ran = tfr(&["validate", "--schema", &schema, &file]).run();
        assert_eq!(ran.code, 0, "{case}: {}", ran.stderr);
    }
}

/// Issue 28, item 9 (and issue 47): 20,000 distinct file names are counted exactly
/// (TFDV's `unique: 20000`, its top values the largest names, once each),
/// not estimated above the number of values; past the exact range the
/// estimate never says more distinct values than values.
#[test]
fn distinct_counts_never_exceed_the_values() {
    let dir = Dir::new();
    let names = |n: usize| -> Vec<u8> {
        let recs: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                example(vec![(
                    "file",
                    Feature::bytes(vec![format!("img_{i:06}.jpg").into_bytes()]),
                )])
            })
            .collect();
        records(&recs.iter().map(|r| r.as_slice()).collect::<Vec<_>>())
    };
    dir.write("files.tfrecord", &names(20_000));
    let text = dir
        .tfr(&["stats", "-q", "-f", "tfdv-stats-text", "files.tfrecord"])
        .run()
        .ok();
    assert_eq!(field_of(&text, "file", "unique"), ["20000"]);
    assert_eq!(field_of(&text, "file", "value")[0], "\"img_019999.jpg\"");
    assert_eq!(field_of(&text, "file", "frequency")[0], "1.0");
    assert_eq!(field_of(&text, "file", "frequency").len(), 20);
    let table = dir.tfr(&["stats", "-q", "files.tfrecord"]).run().ok();
    assert!(table.contains("unique 20000"), "{table}");
    // The report: the exact count and the top value's frequency.
    dir.tfr(&["report", "-q", "-o", "files.html", "files.tfrecord"])
        .run()
        .ok();
    let html = std::fs::read_to_string(dir.path("files.html")).unwrap();
    assert!(
        html.contains("<td>1</td><td>20000</td><td class=\"name\">img_019999.jpg</td><td>1</td>"),
        "{}",
        &html[html.find("Text features").unwrap_or(0)..][..600]
    );
    dir.write("more.tfrecord", &names(70_000));
    let text = dir
        .tfr(&["stats", "-q", "-f", "tfdv-stats-text", "more.tfrecord"])
        .run()
        .ok();
    let unique: u64 = field_of(&text, "file", "unique")[0].parse().unwrap();
    assert_eq!(field_of(&text, "file", "value")[0], "\"img_069999.jpg\"");
    assert_eq!(field_of(&text, "file", "value")[19], "\"img_069980.jpg\"");
    assert_eq!(field_of(&text, "file", "label").len(), 1000);
    assert!(unique <= 70_000 && unique > 68_000, "{unique}");
    // Past the exact range the report says "about" for the count, and
    // TFDV's top value: the largest name, its count exact (issue 47).
    dir.tfr(&["report", "-q", "-o", "more.html", "more.tfrecord"])
        .run()
        .ok();
    let html = std::fs::read_to_string(dir.path("more.html")).unwrap();
    assert!(
        html.contains(&format!(
            "\">≈</span>{unique}</td><td class=\"name\">img_069999.jpg</td><td>1</td>"
        )),
        "{}",
        &html[html.find("Text features").unwrap_or(0)..][..600]
    );
}

/// Issue 28: exact top values (whole), distinct counts and TFDV's
/// histograms merge from saved statistics exactly as one pass gives them,
/// whatever `-j`.
#[test]
fn issue_28_statistics_merge_and_thread_as_one_pass() {
    let dir = Dir::new();
    for case in ["long_strings", "distinct_2001", "ties", "infinities"] {
        let bytes = std::fs::read(data(&format!("tfdv/issue28/{case}.tfrecord"))).unwrap();
        dir.write("a.tfrecord", &bytes);
        dir.write("b.tfrecord", &bytes);
        for part in ["a", "b"] {
            let saved = dir
                .tfr(&["stats", "-q", "-f", "json", &format!("{part}.tfrecord")])
                .run()
                .ok();
            dir.write(&format!("{part}.json"), saved.as_bytes());
        }
        let without_name = |t: String| -> String {
            t.lines()
                .filter(|l| !l.starts_with("  name: "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let merged = without_name(
            dir.tfr(&[
                "stats",
                "-q",
                "-f",
                "tfdv-stats-text",
                "--merge",
                "a.json",
                "--merge",
                "b.json",
            ])
            .run()
            .ok(),
        );
        for j in ["1", "2"] {
            let once = without_name(
                dir.tfr(&[
                    "stats",
                    "-q",
                    "-j",
                    j,
                    "-f",
                    "tfdv-stats-text",
                    "a.tfrecord",
                    "b.tfrecord",
                ])
                .run()
                .ok(),
            );
            assert_eq!(merged, once, "{case} -j {j}");
        }
    }
}

/// Statistics saved by an earlier tfr (no `sketch` flag on top values)
/// still merge: exact while no count was lost and no value cut.
#[test]
fn saved_statistics_without_the_sketch_flag_still_merge() {
    let dir = Dir::new();
    let file = data("notebook.tfrecord");
    let saved = dir.tfr(&["stats", "-q", "-f", "json", &file]).run().ok();
    assert!(saved.contains("\"sketch\":false"), "{saved}");
    dir.write("new.json", saved.as_bytes());
    dir.write("old.json", saved.replace("\"sketch\":false,", "").as_bytes());
    let text = |f: &str| {
        dir.tfr(&["stats", "-q", "-f", "tfdv-stats-text", "--merge", f])
            .run()
            .ok()
    };
    assert_eq!(text("old.json"), text("new.json"));
    let broken = saved.replace("\"sketch\":false", "\"sketch\":1");
    dir.write("bad.json", broken.as_bytes());
    let err = dir.tfr(&["stats", "-q", "--merge", "bad.json"]).run().fails(2);
    assert!(err.contains("sketch"), "{err}");
}

/// Issue 47 (tests/data/tfdv/issue47, by tests/oracle/gen_tfdv_expected.py
/// --issue47 with TFDV 1.16.1's answers): 16,500 long, all-distinct texts
/// and blobs (past tfr's exact top-value bounds) get TFDV's 20 top values
/// and 1,000-bucket rank histogram (their largest values, once each), and
/// no string domain in the inferred schema; a file whose first record's
/// field 2 reads as an empty FeatureLists and whose others' field 2 is text
/// is read (as TFDV reads Examples), not refused. Merged from saved parts
/// and with any -j, the same.
#[test]
fn tfdv_statistics_equal_tfdvs_on_the_issue_47_cases() {
    let dir = Dir::new();
    let mut all = Vec::new();
    for case in ["long_text", "example_field2_mixed"] {
        let file = data(&format!("tfdv/issue47/{case}.tfrecord.gz"));
        let text = tfr(&["stats", "-q", "-f", "tfdv-stats-text", &file]).run().ok();
        let expected = std::fs::read_to_string(data(&format!("tfdv/issue47/{case}.stats.pbtxt"))).unwrap();
        let mine = pbtxt::parse(&text).unwrap_or_else(|e| panic!("{case}: {e}"));
        let theirs = pbtxt::parse(&expected).unwrap();
        let mut diffs = Vec::new();
        differences(&mine, &theirs, case, &mut diffs);
        all.extend(diffs.into_iter().take(8));
        // Two halves saved and merged, and -j 1, give the same.
        let saved = dir.tfr(&["stats", "-q", "-f", "json", &file]).run().ok();
        dir.write("part.json", saved.as_bytes());
        let merged = dir
            .tfr(&["stats", "-q", "-f", "tfdv-stats-text", "--merge", "part.json"])
            .run()
            .ok();
        let one = tfr(&["stats", "-q", "-j", "1", "-f", "tfdv-stats-text", &file])
            .run()
            .ok();
        let body = |t: &str| {
            t.lines()
                .filter(|l| !l.starts_with("  name: "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&merged), body(&text), "{case} merged");
        assert_eq!(body(&one), body(&text), "{case} -j 1");
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
    let want = std::fs::read_to_string(data("tfdv/issue47/long_text.schema.pbtxt")).unwrap();
    let file = data("tfdv/issue47/long_text.tfrecord.gz");
    let got = tfr(&["schema", "-q", "-f", "tfdv-schema", &file]).run().ok();
    assert_eq!(got, want);
    assert!(!got.contains("string_domain"), "{got}");
}

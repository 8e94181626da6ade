//! `tfr validate`: TFDV-written schemas (tests/data/validate, made by
//! TFDV 1.16.1: tests/oracle/tfdv_validate.py --fixtures) load and their
//! data conforms; every anomaly kind is named with its file, first record
//! and TFDV type; bad schemas and damaged data exit 2.

use crate::proto::{Example, Feature, FeatureEntry, Features};
use crate::util::*;
use prost::Message;
use serde_json::Value;

fn example(features: Vec<(&str, Feature)>) -> Vec<u8> {
    Example {
        features: Some(Features {
            feature: features.into_iter().map(|(k, f)| FeatureEntry::new(k, f)).collect(),
        }),
    }
    .encode_to_vec()
}

fn schema_path(name: &str) -> String {
    data(&format!("validate/{name}.pbtxt"))
}

/// The anomalies of a `--json` run: (feature, type, file name, record).
fn anomalies(doc: &Value) -> Vec<(String, String, String, Option<u64>)> {
    doc["anomalies"]
        .as_array()
        .expect("anomalies")
        .iter()
        .map(|a| {
            let file = a["first"]["file"].as_str().unwrap_or("");
            let file = std::path::Path::new(file)
                .file_name()
                .map_or(String::new(), |f| f.to_string_lossy().into());
            (
                a["feature"].as_str().unwrap_or("").to_string(),
                a["type"].as_str().unwrap().to_string(),
                file,
                a["first"]["record"].as_u64(),
            )
        })
        .collect()
}

#[test]
fn tfdv_written_schemas_load_and_their_data_conforms() {
    for (schema, file) in [
        ("notebook", "notebook.tfrecord"),
        ("notebook", "notebook.tfrecord.gz"),
        ("notebook", "notebook.snappy.tfrecord"),
        ("base20", "base20.tfrecord"),
        ("images", "images.tfrecord"),
        ("sequence", "sequence.tfrecord"),
    ] {
        let ran = tfr(&["validate", "--schema", &schema_path(schema), &data(file)]).run();
        assert_eq!(ran.code, 0, "{schema} on {file}: {}", ran.stderr);
        assert!(ran.stdout_str().contains("no anomalies"), "{}", ran.stdout_str());
        // Only notes: SequenceExamples say their feature lists are not checked.
        assert!(
            ran.stderr.lines().all(|l| l.starts_with("tfr: note: ")),
            "{}",
            ran.stderr
        );
        let json = tfr(&["validate", "--json", "-s", &schema_path(schema), &data(file)]).run();
        assert_eq!(json.code, 0);
        let doc: Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(doc["conforms"], true);
        assert_eq!(doc["anomalies"], serde_json::json!([]));
    }
}

#[test]
fn tfdv_written_schemas_are_written_back_byte_for_byte() {
    for name in ["notebook", "base20", "images", "sequence"] {
        let text = std::fs::read_to_string(schema_path(name)).unwrap();
        let schema = tfr::schema::tfdv::model::Schema::from_pbtxt(&text).unwrap();
        assert_eq!(schema.to_pbtxt(), text, "{name}");
    }
}

/// A clean shard and a drifted one against the notebook schema (feature0:
/// INT bool_domain, feature1: INT, feature2: BYTES in {cat, chicken, dog,
/// goat, horse}, feature3: FLOAT; all shape [1], always present).
fn drifted(dir: &Dir) -> (String, String) {
    let good = |i: i64| {
        example(vec![
            ("feature0", Feature::int64s(vec![i % 2])),
            ("feature1", Feature::int64s(vec![i])),
            ("feature2", Feature::bytes(vec![b"dog".to_vec()])),
            ("feature3", Feature::floats(vec![0.5])),
        ])
    };
    let clean: Vec<Vec<u8>> = (0..5).map(good).collect();
    let mut bad: Vec<Vec<u8>> = (0..6).map(good).collect();
    // record 1: feature1 becomes a float; record 2: feature2 out of domain,
    // a new feature; record 3: feature0 = 2 (not boolean) and two values
    // of feature3; record 4: feature3 missing.
    bad[1] = example(vec![
        ("feature0", Feature::int64s(vec![0])),
        ("feature1", Feature::floats(vec![1.5])),
        ("feature2", Feature::bytes(vec![b"cat".to_vec()])),
        ("feature3", Feature::floats(vec![0.5])),
    ]);
    bad[2] = example(vec![
        ("feature0", Feature::int64s(vec![1])),
        ("feature1", Feature::int64s(vec![1])),
        ("feature2", Feature::bytes(vec![b"zebra".to_vec()])),
        ("feature3", Feature::floats(vec![0.5])),
        ("extra", Feature::int64s(vec![1])),
    ]);
    bad[3] = example(vec![
        ("feature0", Feature::int64s(vec![2])),
        ("feature1", Feature::int64s(vec![1])),
        ("feature2", Feature::bytes(vec![b"dog".to_vec()])),
        ("feature3", Feature::floats(vec![0.5, 0.25])),
    ]);
    bad[4] = example(vec![
        ("feature0", Feature::int64s(vec![1])),
        ("feature1", Feature::int64s(vec![1])),
        ("feature2", Feature::bytes(vec![b"dog".to_vec()])),
    ]);
    let refs = |v: &[Vec<u8>]| records(&v.iter().map(|r| r.as_slice()).collect::<Vec<_>>());
    (
        dir.write("train-0.tfrecord", &refs(&clean)),
        dir.write("train-1.tfrecord", &refs(&bad)),
    )
}

#[test]
fn a_drifted_shard_names_each_anomaly_with_file_and_first_record() {
    let dir = Dir::new();
    let (clean, bad) = drifted(&dir);
    let schema = schema_path("notebook");
    tfr(&["validate", "-s", &schema, &clean]).run().ok();
    let ran = tfr(&["validate", "-s", &schema, &clean, &bad]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let b = "train-1.tfrecord";
    for want in [
        format!("{b}: feature \"feature1\": expected INT, found FLOAT in record 1 [UNEXPECTED_DATA_TYPE]"),
        format!("{b}: feature \"feature2\": value \"zebra\" not in string_domain \"feature2\"; 1 of 11 values (9.09%) outside the domain in record 2 [ENUM_TYPE_UNEXPECTED_STRING_VALUES]"),
        format!("{b}: feature \"extra\": not in the schema; first in record 2 [SCHEMA_NEW_COLUMN]"),
        format!("{b}: feature \"feature0\": value 2 not in {{0, 1}} (bool_domain) in record 3 [BOOL_TYPE_BIG_INT]"),
        format!("{b}: feature \"feature3\": 2 values, shape [1] holds 1 in record 3 (and 1 more records) [INVALID_FEATURE_SHAPE]"),
        format!("{b}: feature \"feature3\": present in 10 of 11 records (90.91%), presence min_fraction is 1.0; first missing in record 4 [FEATURE_TYPE_LOW_FRACTION_PRESENT]"),
    ] {
        assert!(ran.stderr.lines().any(|l| l == format!("tfr: {}{want}", dir.path("").display())), "no line\n  {want}\nin\n{}", ran.stderr);
    }
    assert_eq!(ran.stderr.lines().count(), 6, "{}", ran.stderr);
    let table = ran.stdout_str();
    assert!(
        table.contains("UNEXPECTED_DATA_TYPE") && table.contains("6 anomalies in 5 features"),
        "{table}"
    );

    let json = tfr(&["validate", "--json", "-s", &schema, &clean, &bad]).run();
    assert_eq!(json.code, 1);
    let doc: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["conforms"], false);
    assert_eq!(doc["records"], 11);
    let s = |x: &str| x.to_string();
    assert_eq!(
        anomalies(&doc),
        vec![
            (s("feature0"), s("BOOL_TYPE_BIG_INT"), s(b), Some(3)),
            (s("feature1"), s("UNEXPECTED_DATA_TYPE"), s(b), Some(1)),
            (s("feature2"), s("ENUM_TYPE_UNEXPECTED_STRING_VALUES"), s(b), Some(2)),
            (s("feature3"), s("FEATURE_TYPE_LOW_FRACTION_PRESENT"), s(b), Some(4)),
            (s("feature3"), s("INVALID_FEATURE_SHAPE"), s(b), Some(3)),
            (s("extra"), s("SCHEMA_NEW_COLUMN"), s(b), Some(2)),
        ]
    );
    // The same answer on one thread and on many.
    for j in ["1", "3"] {
        let again = tfr(&["validate", "--json", "-j", j, "-s", &schema, &clean, &bad]).run();
        assert_eq!(again.stdout, json.stdout, "-j {j}");
    }
}

#[test]
fn every_domain_and_count_check() {
    let dir = Dir::new();
    let schema = dir.write(
        "schema.pbtxt",
        br#"# hand-written, TFDV's field names
feature { name: "i" type: INT int_domain { min: 0 max: 10 } value_count { min: 1 max: 2 } }
feature { name: "f" type: FLOAT float_domain { min: -1 max: 1 disallow_nan: true disallow_inf: true } }
feature { name: "s" type: BYTES string_domain { value: "a" value: "b" } distribution_constraints { min_domain_mass: 0.6 } }
feature { name: "t" type: BYTES bool_domain { true_value: "yes" false_value: "no" } }
feature { name: "g" type: FLOAT bool_domain { } }
feature { name: "req" type: INT presence { min_count: 1 } }
feature { name: "few" type: INT presence { min_count: 3 } }
feature { name: "planned" type: INT presence { min_count: 1 } lifecycle_stage: PLANNED }
feature { name: "skewed" type: INT skew_comparator { infinity_norm { threshold: 0.1 } } }
dataset_constraints { min_examples_count: 10 }
"#,
    );
    let recs = [
        example(vec![
            ("i", Feature::int64s(vec![5])),
            ("f", Feature::floats(vec![0.5])),
            ("s", Feature::bytes(vec![b"a".to_vec()])),
            ("t", Feature::bytes(vec![b"yes".to_vec()])),
            ("g", Feature::floats(vec![1.0])),
            ("few", Feature::int64s(vec![1])),
        ]),
        example(vec![
            ("i", Feature::int64s(vec![-1, 11, 3])),
            ("f", Feature::floats(vec![-2.0, f32::NAN])),
            ("s", Feature::bytes(vec![b"z".to_vec()])),
            ("t", Feature::bytes(vec![b"maybe".to_vec()])),
            ("g", Feature::floats(vec![0.5])),
        ]),
        example(vec![
            ("i", Feature::int64s(vec![])),
            ("f", Feature::floats(vec![f32::INFINITY])),
            ("s", Feature::bytes(vec![b"b".to_vec()])),
        ]),
    ];
    let file = dir.write(
        "d.tfrecord",
        &records(&recs.iter().map(|r| r.as_slice()).collect::<Vec<_>>()),
    );
    let ran = tfr(&["validate", "--json", "-s", &schema, &file]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    let got: Vec<(String, String, Option<u64>)> = anomalies(&doc).into_iter().map(|(f, t, _, r)| (f, t, r)).collect();
    let a = |f: &str, t: &str, r: Option<u64>| (f.to_string(), t.to_string(), r);
    assert_eq!(
        got,
        vec![
            a("i", "FEATURE_TYPE_LOW_NUMBER_VALUES", Some(2)),
            a("i", "FEATURE_TYPE_HIGH_NUMBER_VALUES", Some(1)),
            a("i", "INT_TYPE_SMALL_INT", Some(1)),
            a("i", "INT_TYPE_BIG_INT", Some(1)),
            a("f", "FLOAT_TYPE_SMALL_FLOAT", Some(1)),
            a("f", "FLOAT_TYPE_BIG_FLOAT", Some(2)),
            a("f", "FLOAT_TYPE_HAS_NAN", Some(1)),
            a("f", "FLOAT_TYPE_HAS_INF", Some(2)),
            // 1 of 3 values outside: within min_domain_mass 0.6, so no
            // ENUM_TYPE_UNEXPECTED_STRING_VALUES for "s".
            a("t", "BOOL_TYPE_UNEXPECTED_STRING", Some(1)),
            a("g", "BOOL_TYPE_UNEXPECTED_FLOAT", Some(1)),
            a("req", "SCHEMA_MISSING_COLUMN", None),
            a("few", "FEATURE_TYPE_LOW_NUMBER_PRESENT", Some(1)),
            a("", "DATASET_LOW_NUM_EXAMPLES", None),
        ]
    );
    let notes: Vec<&str> = doc["not_checked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("skew_comparator") && n.contains("\"skewed\"")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("\"planned\"")), "{notes:?}");
    let stderr = tfr(&["validate", "-s", &schema, &file]).run().stderr;
    assert!(
        stderr.contains("tfr: note: not checked: skew_comparator (no --serving to compare with) (feature \"skewed\")"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "tfr: dataset: 3 records, dataset_constraints min_examples_count is 10 [DATASET_LOW_NUM_EXAMPLES]"
        ),
        "{stderr}"
    );
}

#[test]
fn bad_schemas_exit_2_with_line_and_column() {
    let dir = Dir::new();
    let data = data("notebook.tfrecord");
    for (text, want) in [
        (
            "feature {\n  name: \"a\"\n  type INT\n}\n",
            "schema.pbtxt:3:8: expected ':' or '{' after field name \"type\"",
        ),
        (
            "feature {\n  name: \"a\"\n  presense { min_count: 1 }\n}\n",
            "schema.pbtxt:3:3: no field \"presense\" in Feature",
        ),
        (
            "feature {\n  name: \"a\n\"}\n",
            "schema.pbtxt:2:11: newline in a string",
        ),
        (
            "feature { name: \"a\" type: INT\n",
            "schema.pbtxt:2:1: expected '}' before the end of input",
        ),
        (
            "feature { name: \"a\" value_count { min: x } }",
            "schema.pbtxt:1:35: \"min\" takes an integer",
        ),
    ] {
        let path = dir.write("schema.pbtxt", text.as_bytes());
        let line = tfr(&["validate", "-s", &path, &data]).run().fails(2);
        assert!(line.starts_with("tfr: ") && line.contains(want), "{line}\nwant {want}");
        assert_eq!(line.lines().count(), 1);
    }
    let deep = dir.write("deep.pbtxt", "feature {".repeat(200_000).as_bytes());
    let line = tfr(&["validate", "-s", &deep, &data]).run().fails(2);
    assert!(line.contains("nested more than"), "{line}");
    let json = dir.write("s.json", b"{\"records\": 3,\n \"features\": [}");
    let line = tfr(&["validate", "-s", &json, &data]).run().fails(2);
    assert!(line.contains("s.json:2:"), "{line}");
    let line = tfr(&["validate", "-s", &dir.path("missing.pbtxt").to_string_lossy(), &data])
        .run()
        .fails(2);
    assert!(line.contains("missing.pbtxt"), "{line}");
}

#[test]
fn tfr_schema_json_is_a_schema_too() {
    let dir = Dir::new();
    let json = tfr(&["schema", "-f", "json", &data("notebook.tfrecord")]).run().ok();
    let schema = dir.write("schema.json", json.as_bytes());
    let ran = tfr(&["validate", "-s", &schema, &data("notebook.tfrecord")]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let (clean, bad) = drifted(&dir);
    let doc: Value =
        serde_json::from_slice(&tfr(&["validate", "--json", "-s", &schema, &clean, &bad]).run().stdout).unwrap();
    let kinds: Vec<String> = anomalies(&doc)
        .into_iter()
        .map(|(f, t, _, _)| format!("{f} {t}"))
        .collect();
    // No string domain in tfr's JSON: "zebra" passes.
    for want in [
        "feature0 BOOL_TYPE_BIG_INT",
        "feature1 UNEXPECTED_DATA_TYPE",
        "feature3 FEATURE_TYPE_LOW_FRACTION_PRESENT",
        "extra SCHEMA_NEW_COLUMN",
    ] {
        assert!(kinds.iter().any(|k| k == want), "{want} not in {kinds:?}");
    }
}

#[test]
fn damaged_data_exits_2_after_the_anomalies_before_it() {
    let line = tfr(&[
        "validate",
        "-s",
        &schema_path("notebook"),
        &data("truncated_payload.tfrecord"),
    ])
    .run();
    assert_eq!(line.code, 2, "{}", line.stderr);
    assert!(line.stderr.contains("truncated"), "{}", line.stderr);
    let raw = tfr(&["validate", "-s", &schema_path("notebook"), &data("raw_text.tfrecord")]).run();
    assert_eq!(raw.code, 2, "{}", raw.stderr);
}

#[test]
fn sequence_examples_are_checked_on_their_context() {
    let ran = tfr(&["validate", "-s", &schema_path("notebook"), &data("sequence.tfrecord")]).run();
    assert_eq!(ran.code, 1);
    assert!(
        ran.stderr.contains("feature \"feature0\": in none of the 12 records"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr
            .contains("feature \"length\": not in the schema; first in record 0"),
        "{}",
        ran.stderr
    );
    ran.stderr_has("note: not checked: feature lists");
}

/// Issue 28, item 2: a schema feature present in the data only as an empty
/// `Feature {}` (no kind set) in every record is FEATURE_TYPE_NOT_PRESENT,
/// as TFDV 1.16.1 says (SCHEMA_MISSING_COLUMN is for a key in no record);
/// such a feature not in the schema is a new column, as in TFDV.
#[test]
fn a_feature_only_empty_is_type_not_present() {
    let dir = Dir::new();
    let required = dir.write(
        "s.pbtxt",
        b"feature {\n  name: \"x\"\n  type: INT\n  presence {\n    min_fraction: 1.0\n    min_count: 1\n  }\n}\n\
feature {\n  name: \"y\"\n  type: INT\n  presence {\n    min_fraction: 1.0\n    min_count: 1\n  }\n  shape {\n    dim {\n      size: 1\n    }\n  }\n}\n\
feature {\n  name: \"z\"\n  type: INT\n  presence {\n    min_count: 1\n  }\n}\n",
    );
    let file = data("tfdv/issue28/empty_feature.tfrecord");
    let ran = tfr(&["validate", "--json", "--schema", &required, &file]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(
        anomalies(&doc),
        [
            (
                "y".into(),
                "FEATURE_TYPE_NOT_PRESENT".into(),
                "empty_feature.tfrecord".into(),
                Some(0)
            ),
            ("z".into(), "SCHEMA_MISSING_COLUMN".into(), String::new(), None),
        ]
    );
    assert!(ran.stderr.contains("empty Feature"), "{}", ran.stderr);
    let only_x = dir.write(
        "x.pbtxt",
        b"feature {\n  name: \"x\"\n  type: INT\n  presence {\n    min_count: 1\n  }\n}\n",
    );
    let ran = tfr(&["validate", "--json", "--schema", &only_x, &file]).run();
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(
        anomalies(&doc),
        [(
            "y".into(),
            "SCHEMA_NEW_COLUMN".into(),
            "empty_feature.tfrecord".into(),
            Some(0)
        )]
    );
}

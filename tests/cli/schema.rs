//! `tfr schema`: statistics against Python protobuf (tests/data/schema,
//! written by tests/oracle/check_schema.py, which also checks the `--format
//! tf` snippets in TensorFlow), tables, flags, sharded datasets.

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

fn json_of(args: &[&str]) -> Value {
    let mut all = vec!["schema", "--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&tfr(&all).run().ok()).expect("schema JSON")
}

/// Three shards of `label` + `x`; the middle shard has `label` as a float.
fn conflicting_shards(dir: &Dir) {
    let rec = |label: Feature, x: f32| example(vec![("label", label), ("x", Feature::floats(vec![x, x]))]);
    dir.write(
        "train-00000-of-00003",
        &records(&[&rec(Feature::int64s(vec![1]), 0.5), &rec(Feature::int64s(vec![2]), 1.5)]),
    );
    dir.write(
        "train-00001-of-00003",
        &records(&[
            &rec(Feature::int64s(vec![3]), 2.5),
            &rec(Feature::floats(vec![0.5]), 3.5),
        ]),
    );
    dir.write("train-00002-of-00003", &records(&[&rec(Feature::int64s(vec![4]), 4.5)]));
}

#[test]
fn json_matches_python_protobuf_on_every_fixture() {
    let mut checked = 0;
    for f in manifest()["fixtures"].as_array().unwrap() {
        if !f["damage"].is_null() || !matches!(f["payload"].as_str(), Some("example" | "sequence")) {
            continue;
        }
        let Some(rel) = f["expected"].as_str() else { continue };
        let stem = std::path::Path::new(rel).file_stem().unwrap().to_str().unwrap();
        let Ok(text) = std::fs::read_to_string(data_dir().join("schema").join(format!("{stem}.json"))) else {
            continue;
        };
        let want: Value = serde_json::from_str(&text).unwrap();
        let name = f["name"].as_str().unwrap();
        let got = json_of(&[&data(f["file"].as_str().unwrap())]);
        assert_eq!(got["type"], want["type"], "{name}");
        assert_eq!(got["records"], want["records"], "{name}");
        assert_eq!(got["complete"], true, "{name}");
        for section in ["features", "context", "feature_lists"] {
            let (Some(w), Some(g)) = (want[section].as_object(), got[section].as_object()) else {
                assert_eq!(want[section].is_null(), got[section].is_null(), "{name} {section}");
                continue;
            };
            let wk: Vec<&String> = w.keys().collect();
            let gk: Vec<&String> = g.keys().collect();
            assert_eq!(gk, wk, "{name} {section}: feature names");
            for (feature, wf) in w {
                for (key, wv) in wf.as_object().unwrap() {
                    let gv = &g[feature][key];
                    if key == "bytes" {
                        // Python does not sniff media types: compare the rest.
                        for (bk, bv) in wv.as_object().unwrap() {
                            assert_eq!(&gv[bk], bv, "{name} {section} {feature:?} bytes.{bk}");
                        }
                    } else {
                        assert_eq!(gv, wv, "{name} {section} {feature:?} {key}");
                    }
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fixtures have expected schemas");
}

#[test]
fn notebook_spec_is_fixed_length_scalars() {
    let out = tfr(&["schema", "--format", "tf", &data("notebook.tfrecord.gz")])
        .run()
        .ok();
    for line in [
        "feature_description = {",
        r#"    "feature0": tf.io.FixedLenFeature([], tf.int64),"#,
        r#"    "feature1": tf.io.FixedLenFeature([], tf.int64),"#,
        r#"    "feature2": tf.io.FixedLenFeature([], tf.string),"#,
        r#"    "feature3": tf.io.FixedLenFeature([], tf.float32),"#,
        "    return tf.io.parse_single_example(serialized, feature_description)",
        r#"# dataset = tf.data.TFRecordDataset(FILES, compression_type="GZIP").map(parse)"#,
    ] {
        assert!(out.lines().any(|l| l == line), "missing {line:?} in\n{out}");
    }
}

#[test]
fn images_are_sniffed_and_lists_are_shaped() {
    let doc = json_of(&[&data("images.tfrecord")]);
    let enc = &doc["features"]["image/encoded"]["bytes"];
    assert_eq!(enc["media"], serde_json::json!({"jpeg": 4, "png": 4}));
    assert_eq!(enc["utf8"], 0.0);
    assert_eq!(
        doc["features"]["image/format"]["bytes"]["media"],
        serde_json::json!({"text": 8})
    );
    let out = tfr(&["schema", "-f", "tf", &data("images.tfrecord")]).run().ok();
    assert!(
        out.contains(r#""embedding": tf.io.FixedLenFeature([16], tf.float32),"#),
        "{out}"
    );
    let table = tfr(&["schema", &data("images.tfrecord")]).run().ok();
    assert!(table.contains("jpeg 4, png 4"), "{table}");
}

#[test]
fn sequence_spec_uses_sequence_features() {
    let out = tfr(&["schema", "--format", "tf", &data("sequence.tfrecord")])
        .run()
        .ok();
    for line in [
        r#"    "frames": tf.io.FixedLenSequenceFeature([3], tf.float32, allow_missing=True),"#,
        r#"    "ids": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),"#,
        r#"    "tokens": tf.io.VarLenFeature(tf.int64),"#,
        r#"    "label": tf.io.FixedLenFeature([], tf.int64, default_value=0),  # missing in 7 of 12 records"#,
    ] {
        assert!(out.lines().any(|l| l == line), "missing {line:?} in\n{out}");
    }
    // Never a kind: no dtype, left out with the reason.
    assert!(
        out.contains(r#"# "no_kind": LEFT OUT: no step ever has a kind set"#),
        "{out}"
    );
    let doc = json_of(&[&data("sequence.tfrecord")]);
    assert_eq!(doc["type"], "sequence");
    assert!(doc["features"].is_null());
    assert_eq!(
        doc["feature_lists"]["frames"]["steps"],
        serde_json::json!({"min": 2, "max": 4, "fixed": false})
    );
    assert_eq!(
        doc["feature_lists"]["frames"]["values"],
        serde_json::json!({"min": 3, "max": 3, "fixed": true})
    );
    assert_eq!(doc["feature_lists"]["no_kind"]["kind"], "none");
    let table = tfr(&["schema", &data("sequence.tfrecord")]).run().ok();
    assert!(
        table.contains("7 context features") && table.contains("9 feature lists"),
        "{table}"
    );
}

#[test]
fn tables_fit_80_columns() {
    for name in [
        "notebook.tfrecord",
        "images.tfrecord",
        "edge.tfrecord",
        "sequence.tfrecord",
    ] {
        // Relative names: the title line names the input, and the
        // repository's own path must not decide the width.
        let dir = Dir::new();
        std::fs::copy(data(name), dir.path(name)).unwrap();
        let out = dir.tfr(&["schema", name]).run().ok();
        let table_lines = out.lines().filter(|l| !l.starts_with('!'));
        for line in table_lines {
            assert!(line.chars().count() <= 80, "{name}: line wider than 80:\n{line}\n{out}");
        }
    }
    let out = tfr(&["schema", &data("notebook.tfrecord")]).run().ok();
    let row = out.lines().find(|l| l.contains("feature1")).unwrap();
    assert!(
        row.contains("int64") && row.contains("all") && row.contains("0 .. 4"),
        "{out}"
    );
    assert!(out.starts_with(&format!(
        "{}: 200 records of tf.train.Example\n",
        data("notebook.tfrecord")
    )));
}

#[test]
fn a_shard_that_disagrees_on_a_kind_is_named_in_every_format() {
    let dir = Dir::new();
    conflicting_shards(&dir);
    let table = dir.tfr(&["schema", "train-*"]).run().ok();
    assert!(
        table.contains("! label: kinds conflict: int64 (first in train-00000-of-00003 record 0), float (first in train-00001-of-00003 record 1)"),
        "{table}"
    );
    assert!(table.contains("int64/float") && table.contains("CONFLICT"), "{table}");

    let doc: Value = serde_json::from_str(&dir.tfr(&["schema", "--json", "train-*"]).run().ok()).unwrap();
    let label = &doc["features"]["label"];
    assert_eq!(label["kind"], "conflict");
    assert_eq!(label["kinds"], serde_json::json!(["int64", "float"]));
    assert_eq!(
        label["first_seen"]["float"],
        serde_json::json!({"file": "train-00001-of-00003", "record": 1})
    );
    assert_eq!(label["flags"], serde_json::json!(["conflict"]));
    assert_eq!(doc["features"]["x"]["kind"], "float");
    assert_eq!(doc["records"], 5);
    assert_eq!(
        doc["inputs"][1],
        serde_json::json!({"file": "train-00001-of-00003", "records": 2, "compression": "none"})
    );

    let spec = dir.tfr(&["schema", "--format", "tf", "train-*"]).run().ok();
    assert!(
        spec.contains(r#"    # "label": LEFT OUT: its kind differs between records (int64 (first in train-00000-of-00003 record 0), float (first in train-00001-of-00003 record 1))"#),
        "{spec}"
    );
    assert!(
        spec.contains(r#"    "x": tf.io.FixedLenFeature([2], tf.float32),"#),
        "{spec}"
    );
}

#[test]
fn features_absent_from_a_shard_and_always_empty_are_flagged() {
    let dir = Dir::new();
    let a = example(vec![
        ("id", Feature::int64s(vec![1])),
        ("extra", Feature::bytes(vec![])),
    ]);
    let b = example(vec![("id", Feature::int64s(vec![2]))]);
    dir.write("part-0", &records(&[&a, &a]));
    dir.write("part-1", &records(&[&b]));
    dir.write("part-2", &gzip(&records(&[&a])));
    let doc: Value = serde_json::from_str(&dir.tfr(&["schema", "--json", "part-*"]).run().ok()).unwrap();
    let extra = &doc["features"]["extra"];
    assert_eq!(extra["absent_in"], serde_json::json!(["part-1"]));
    assert_eq!(extra["flags"], serde_json::json!(["always_empty", "absent_in_shards"]));
    assert_eq!(
        (extra["present"].as_u64(), extra["missing"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(doc["features"]["id"]["flags"], serde_json::json!([]));
    let table = dir.tfr(&["schema", "part-*"]).run().ok();
    assert!(table.contains("! extra: absent from part-1"), "{table}");
    assert!(
        table.contains("! always empty (present, never with a value): extra"),
        "{table}"
    );
    let spec = dir.tfr(&["schema", "-f", "tf", "part-*"]).run().ok();
    assert!(
        spec.contains(
            r#"    "extra": tf.io.VarLenFeature(tf.string),  # absent from 1 of 3 files: "part-1"; always empty"#
        ),
        "{spec}"
    );
    assert!(spec.contains("mix compressions"), "{spec}");
}

#[test]
fn limit_stops_early_and_says_so() {
    let doc = json_of(&["--limit", "5", &data("notebook.tfrecord")]);
    assert_eq!(doc["records"], 5);
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["features"]["feature0"]["present"], 5);
    let table = tfr(&["schema", "-n", "5", &data("notebook.tfrecord")]).run().ok();
    assert!(table.contains("5 records") && table.contains("--limit"), "{table}");
}

#[test]
fn damage_prints_the_schema_so_far_then_fails() {
    let ran = tfr(&["schema", "--json", &data("truncated_payload.tfrecord")]).run();
    let line = ran.fails(2);
    assert!(
        line.contains("truncated payload") && line.contains("record 7"),
        "{line}"
    );
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(doc["records"], 7);
    assert_eq!(doc["complete"], false);
    assert!(doc["error"].as_str().unwrap().contains("truncated payload"));
}

#[test]
fn payloads_that_are_not_examples_are_refused() {
    let line = tfr(&["schema", &data("raw_text.tfrecord")]).run().fails(2);
    assert!(
        line.contains("only Examples, SequenceExamples and ExampleListWithContexts"),
        "{line}"
    );
    // A SequenceExample among Examples: the hint names --type sequence.
    let dir = Dir::new();
    let seq = crate::proto::SequenceExample {
        context: None,
        feature_lists: Some(crate::proto::FeatureLists {
            feature_list: vec![crate::proto::FeatureListEntry::new(
                "f",
                crate::proto::FeatureList {
                    feature: vec![Feature::int64s(vec![1])],
                },
            )],
        }),
    }
    .encode_to_vec();
    let ex = example(vec![("a", Feature::int64s(vec![1]))]);
    let path = dir.write("mixed.tfrecord", &records(&[&ex, &seq]));
    let line = tfr(&["schema", &path]).run().fails(2);
    assert!(line.contains("--type sequence"), "{line}");
}

#[test]
fn empty_input_has_an_empty_schema() {
    let dir = Dir::new();
    let path = dir.write("empty.tfrecord", b"");
    let doc = json_of(&[&path]);
    assert_eq!(doc["records"], 0);
    assert_eq!(doc["features"], serde_json::json!({}));
    let out = tfr(&["schema", &path]).run().ok();
    assert!(out.contains("0 records") && out.contains("0 features"), "{out}");
}

/// Regression: with two threads the bad payload is found out of order; the
/// schema printed must still hold exactly the records before it.
#[test]
fn a_bad_payload_deep_in_a_file_stops_the_scan_exactly_there() {
    let dir = Dir::new();
    let good = example(vec![("a", Feature::int64s(vec![7]))]);
    let bad = b"\x12\x00".to_vec(); // feature_lists in an Example file
    let mut payloads: Vec<&[u8]> = vec![&good; 5000];
    payloads.push(&bad);
    payloads.extend(std::iter::repeat_n(&good[..], 5000));
    let path = dir.write("big.tfrecord", &records(&payloads));
    let ran = tfr(&["schema", "--json", &path]).run();
    let line = ran.fails(2);
    assert!(
        line.contains("record 5000") && line.contains("--type sequence"),
        "{line}"
    );
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(doc["records"], 5000);
    assert_eq!(doc["features"]["a"]["present"], 5000);
    assert_eq!(doc["inputs"][0]["records"], 5000);
    // Read from stdin (one thread), the same.
    let bytes = std::fs::read(&path).unwrap();
    let ran = tfr(&["schema", "--json"]).stdin(&bytes).run();
    assert!(ran.fails(2).contains("record 5000"));
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(doc["records"], 5000);
}

#[test]
fn many_records_from_files_and_stdin_agree() {
    let dir = Dir::new();
    let recs: Vec<Vec<u8>> = (0..20_000)
        .map(|i| {
            let mut f = vec![("i", Feature::int64s(vec![i]))];
            if i % 3 == 0 {
                f.push(("s", Feature::bytes(vec![b"{\"x\": 1}".to_vec()])));
            }
            example(f)
        })
        .collect();
    let refs: Vec<&[u8]> = recs.iter().map(|r| &r[..]).collect();
    let (first, second) = refs.split_at(7_000);
    dir.write("p-0", &records(first));
    dir.write("p-1", &gzip(&records(second)));
    let from_files: Value = serde_json::from_str(&dir.tfr(&["schema", "--json", "p-*"]).run().ok()).unwrap();
    assert_eq!(from_files["records"], 20_000);
    assert_eq!(
        from_files["features"]["i"]["int64"],
        serde_json::json!({"count": 20000, "min": 0, "max": 19999})
    );
    assert_eq!(from_files["features"]["s"]["present"], 6667);
    assert_eq!(
        from_files["features"]["s"]["bytes"]["media"],
        serde_json::json!({"json": 6667})
    );
    assert_eq!(from_files["inputs"][1]["records"], 13_000);
    let from_stdin: Value =
        serde_json::from_str(&tfr(&["schema", "--json"]).stdin(&records(&refs)).run().ok()).unwrap();
    let without_files = |doc: &Value| {
        let mut f = doc["features"].clone();
        for v in f.as_object_mut().unwrap().values_mut() {
            v.as_object_mut().unwrap().remove("first_seen");
        }
        f
    };
    assert_eq!(without_files(&from_stdin), without_files(&from_files));
    assert_eq!(from_stdin["features"]["s"]["first_seen"]["bytes"]["file"], "<stdin>");
}

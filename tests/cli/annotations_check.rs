//! Annotation checks and tallies: `tfr validate` names each broken box
//! (outside [0, 1], xmin > xmax, ymin > ymax, zero area, lists of
//! different lengths, classes not one per box, class ids outside the label
//! map) once, with its first file and record, on data written by
//! TensorFlow in the Object Detection API's layout
//! (tests/data/annotations, by tests/oracle/annotations_make.py, which
//! lists the planted problems in coco_broken.expected.json and every
//! stored box in annotations.json) and by tensorflow-datasets
//! (tests/data/tfds/tfr_detect); `tfr stats` and `tfr report` show boxes
//! per image and per class, counted against annotations.json.

use crate::proto::{Example, Feature, FeatureEntry, Features, SequenceExample};
use crate::util::*;
use prost::Message;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn ann(name: &str) -> String {
    data(&format!("annotations/{name}"))
}

fn json_file(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The `--json` problem type of each kind coco_broken.expected.json names.
fn type_of(kind: &str) -> &'static str {
    match kind {
        "outside_unit_range" => "BBOX_OUT_OF_RANGE",
        "xmin_gt_xmax" => "BBOX_XMIN_GREATER_THAN_XMAX",
        "ymin_gt_ymax" => "BBOX_YMIN_GREATER_THAN_YMAX",
        "zero_area" => "BBOX_ZERO_AREA",
        "coordinate_lengths_differ" => "BBOX_LENGTHS_DIFFER",
        "class_lengths_differ" => "BBOX_CLASS_COUNT_MISMATCH",
        "class_not_in_label_map" => "CLASS_NOT_IN_LABEL_MAP",
        other => panic!("a kind the test does not know: {other}"),
    }
}

/// The planted problems: type → records, from coco_broken.expected.json.
fn planted() -> BTreeMap<&'static str, Vec<u64>> {
    let expected = json_file(&ann("coco_broken.expected.json"));
    expected["problems"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(kind, records)| {
            let records = records
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_u64().unwrap())
                .collect();
            (type_of(kind), records)
        })
        .collect()
}

/// The payloads of a TFRecord file (its framing read here: length, CRC,
/// payload, CRC).
fn payloads(path: &str) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        out.push(bytes[at + 12..at + 12 + len].to_vec());
        at += 12 + len + 4;
    }
    out
}

/// The anomalies of a `--json` run: type → (feature, records, file name, first record).
fn anomalies(doc: &Value) -> BTreeMap<String, (String, u64, String, u64)> {
    doc["anomalies"]
        .as_array()
        .expect("anomalies")
        .iter()
        .map(|a| {
            let file = a["first"]["file"].as_str().unwrap_or("");
            let file = std::path::Path::new(file)
                .file_name()
                .map_or(String::new(), |f| f.to_string_lossy().into_owned());
            let ty = a["type"].as_str().unwrap().to_string();
            let value = (
                a["feature"].as_str().unwrap_or("").to_string(),
                a["records"].as_u64().unwrap(),
                file,
                a["first"]["record"].as_u64().unwrap_or(u64::MAX),
            );
            (ty, value)
        })
        .collect()
}

#[test]
fn each_planted_problem_is_named_once_with_its_first_record_and_nothing_else() {
    let planted = planted();
    assert_eq!(planted.len(), 7, "every kind is planted");
    let file = ann("coco_broken.tfrecord");
    let map = ann("label_map.pbtxt");
    let ran = tfr(&["validate", &file, "--label-map", &map]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    // One line per kind on stderr, naming the feature, the first record and the type.
    let lines: Vec<&str> = ran.stderr.lines().collect();
    assert_eq!(lines.len(), planted.len(), "{}", ran.stderr);
    for (ty, records) in &planted {
        let line = lines
            .iter()
            .find(|l| l.ends_with(&format!("[{ty}]")))
            .unwrap_or_else(|| panic!("{ty}: {}", ran.stderr));
        assert!(
            line.starts_with("tfr: ") && line.contains("coco_broken.tfrecord: feature \"image/object/"),
            "{line}"
        );
        assert!(
            line.contains(&format!(" in record {} ", records[0]))
                || line.contains(&format!(" in record {} [", records[0])),
            "{line}"
        );
        let more = records.len() - 1;
        assert_eq!(line.contains(&format!("(and {more} more records)")), more > 0, "{line}");
    }
    let table = ran.stdout_str();
    for ty in planted.keys() {
        assert_eq!(table.matches(ty).count(), 1, "{ty} in\n{table}");
    }
    assert!(
        table.contains("12 records in 1 file checked for annotation problems"),
        "{table}"
    );
    assert!(table.contains("7 annotation problems in 3 features"), "{table}");

    let json = tfr(&["validate", "--json", &file, "--label-map", &map]).run();
    assert_eq!(json.code, 1);
    let doc: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["conforms"], false);
    assert_eq!(doc["schema"], Value::Null);
    let found = anomalies(&doc);
    assert_eq!(
        found.keys().map(String::as_str).collect::<Vec<_>>(),
        planted.keys().copied().collect::<Vec<_>>()
    );
    for (ty, records) in &planted {
        let (_, count, name, first) = &found[*ty];
        assert_eq!(
            (*count, name.as_str(), *first),
            (records.len() as u64, "coco_broken.tfrecord", records[0]),
            "{ty}"
        );
    }
    let problem_records: BTreeSet<u64> = planted.values().flatten().copied().collect();
    assert_eq!(doc["annotations"]["records"], 12);
    assert_eq!(
        doc["annotations"]["records_with_problems"],
        problem_records.len() as u64
    );
}

/// Each record on its own: the kinds reported for it are exactly those
/// planted in it (the clean ones have none), so no other record is named.
#[test]
fn the_problems_of_each_record_alone_are_the_planted_ones() {
    let planted = planted();
    let dir = Dir::new();
    let map = ann("label_map.pbtxt");
    let all = payloads(&ann("coco_broken.tfrecord"));
    assert_eq!(all.len(), 12);
    for (i, payload) in all.iter().enumerate() {
        let one = dir.write(&format!("r{i}.tfrecord"), &records(&[payload]));
        let ran = tfr(&["validate", "--json", &one, "--label-map", &map]).run();
        let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
        let got: BTreeSet<String> = anomalies(&doc).into_keys().collect();
        let want: BTreeSet<String> = planted
            .iter()
            .filter(|(_, records)| records.contains(&(i as u64)))
            .map(|(ty, _)| ty.to_string())
            .collect();
        assert_eq!(got, want, "record {i}: {}", ran.stderr);
        assert_eq!(ran.code, if want.is_empty() { 0 } else { 1 }, "record {i}");
    }
}

#[test]
fn clean_data_has_no_problems_and_its_boxes_are_counted() {
    let written = json_file(&ann("annotations.json"));
    for name in ["coco_val.tfrecord", "pixels.tfrecord", "classify.tfrecord"] {
        for map in [None, Some(ann("label_map.pbtxt"))] {
            let mut args = vec!["validate".to_string(), "--json".into(), ann(name)];
            args.extend(map.iter().flat_map(|m| ["--label-map".to_string(), m.clone()]));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let ran = tfr(&args).run();
            let stdout = ran.ok();
            let doc: Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(doc["conforms"], true, "{name}");
            assert_eq!(doc["anomalies"], serde_json::json!([]));
            let summary = &written["files"][name]["summary"];
            let stored = written["files"][name]["records"].as_array().unwrap();
            assert_eq!(doc["records"], summary["records"], "{name}");
            assert_eq!(doc["annotations"]["boxes"], summary["boxes"], "{name}");
            // Records with box features (one of coco_val's has them as empty lists).
            let with_boxes = stored
                .iter()
                .filter(|r| {
                    r["object_features"] == true || r.get("boxes").is_some_and(|b| !b.as_array().unwrap().is_empty())
                })
                .count();
            assert_eq!(doc["annotations"]["records_with_boxes"], with_boxes as u64, "{name}");
        }
    }
    let text = tfr(&["validate", &ann("coco_val.tfrecord")]).run().ok();
    assert_eq!(
        text,
        "30 records in 1 file checked for annotation problems (90 boxes in 28 records): no problems\n"
    );
}

#[test]
fn the_verdict_is_the_same_at_any_number_of_threads() {
    let (val, broken, map) = (
        ann("coco_val.tfrecord"),
        ann("coco_broken.tfrecord"),
        ann("label_map.pbtxt"),
    );
    // Several inputs, several batches: the first of each kind is in the
    // first copy of coco_broken (input 1).
    let inputs = [val.as_str(), broken.as_str(), val.as_str(), broken.as_str()];
    let run = |jobs: &str, json: bool| {
        let mut args = vec!["validate", "-j", jobs, "--label-map", &map];
        if json {
            args.push("--json");
        }
        args.extend(inputs);
        let ran = tfr(&args).run();
        assert_eq!(ran.code, 1, "{}", ran.stderr);
        (ran.stdout_str(), ran.stderr)
    };
    for json in [false, true] {
        let one = run("1", json);
        assert_eq!(run("3", json), one);
        assert_eq!(run("8", json), one);
    }
    let doc: Value = serde_json::from_str(&run("3", true).0).unwrap();
    for (ty, records) in planted() {
        let a = &anomalies(&doc)[ty];
        assert_eq!((a.1, a.3), (2 * records.len() as u64, records[0]), "{ty}");
    }
    assert_eq!(doc["annotations"]["records"], 84);
}

/// A schema inferred from the data itself: the data conforms to it, so the
/// annotation problems are all there is; one of other data: both.
#[test]
fn with_a_schema_the_schema_and_the_annotations_are_checked_in_one_pass() {
    let dir = Dir::new();
    let (broken, map) = (ann("coco_broken.tfrecord"), ann("label_map.pbtxt"));
    let own = tfr(&["schema", "-f", "tfdv-schema", &broken]).run().ok();
    let own = dir.write("own.pbtxt", own.as_bytes());
    let ran = tfr(&["validate", "-s", &own, "--label-map", &map, "--json", &broken]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert!(doc["features_checked"].as_u64().unwrap() > 10);
    let types: Vec<String> = anomalies(&doc).into_keys().collect();
    assert_eq!(types, planted().keys().map(|t| t.to_string()).collect::<Vec<_>>());
    let table = tfr(&["validate", "-s", &own, "--label-map", &map, &broken]).run();
    let last = table.stdout_str().lines().last().unwrap().to_string();
    assert!(
        last.contains("checked against")
            && last.contains("and for annotation problems (32 boxes in 11 records): 7 annotation problems"),
        "{last}"
    );
    // Against classify's schema: its features are missing, coco's are new.
    let other = tfr(&["schema", "-f", "tfdv-schema", &ann("classify.tfrecord")])
        .run()
        .ok();
    let other = dir.write("other.pbtxt", other.as_bytes());
    let ran = tfr(&["validate", "-s", &other, "--label-map", &map, "--json", &broken]).run();
    assert_eq!(ran.code, 1);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    let found = anomalies(&doc);
    assert!(found.contains_key("SCHEMA_NEW_COLUMN"), "{found:?}");
    for ty in planted().keys() {
        assert!(found.contains_key(*ty), "{ty}");
    }
    // Data without annotations against its schema: as before.
    let ran = tfr(&[
        "validate",
        "-s",
        &data("validate/notebook.pbtxt"),
        &data("notebook.tfrecord"),
    ])
    .run();
    assert_eq!(
        ran.ok(),
        format!(
            "200 records in 1 file checked against {} (4 features): no anomalies\n",
            data("validate/notebook.pbtxt")
        )
    );
}

#[test]
fn without_a_schema_data_without_annotations_passes_and_says_so() {
    let out = tfr(&["validate", &data("notebook.tfrecord")]).run().ok();
    assert!(out.contains("no boxes, classes or masks found; no --schema"), "{out}");
    let doc: Value =
        serde_json::from_str(&tfr(&["validate", "--json", &data("notebook.tfrecord")]).run().ok()).unwrap();
    assert_eq!(doc["annotations"]["annotated"], 0);
    assert_eq!(doc["conforms"], true);
}

/// A TFDS folder: objects/bbox ([ymin, xmin, ymax, xmax]) with
/// objects/label's ClassLabel names, written by tensorflow-datasets.
#[test]
fn a_tfds_folder_is_checked_with_its_class_names() {
    let folder = data("tfds/tfr_detect/1.0.0");
    let expected = json_file(&data("tfds/tfr_detect.expected.json"));
    let records = expected["records"].as_array().unwrap();
    let boxes: usize = records
        .iter()
        .map(|r| r["objects"]["bbox"].as_array().unwrap().len())
        .sum();
    let ran = tfr(&["validate", "--json", &folder]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(doc["annotations"]["boxes"], boxes as u64);
    assert_eq!(doc["annotations"]["records"], records.len() as u64);
    let stats = tfr(&["stats", "-f", "json", &folder]).run();
    let stats: Value = serde_json::from_slice(&stats.stdout).unwrap();
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for r in records {
        let names = r["objects"]["label_name"].as_array().unwrap();
        for (id, name) in r["objects"]["label"].as_array().unwrap().iter().zip(names) {
            *want.entry(format!("{} ({id})", name.as_str().unwrap())).or_default() += 1;
        }
    }
    let got: BTreeMap<String, u64> = serde_json::from_value(stats["annotations"]["per_class"].clone()).unwrap();
    assert_eq!(got, want);
}

fn example(features: Vec<(&str, Feature)>) -> Features {
    Features {
        feature: features.into_iter().map(|(k, f)| FeatureEntry::new(k, f)).collect(),
    }
}

/// `--bbox` names boxes tfr does not find by their names; a
/// SequenceExample's context is checked.
#[test]
fn bbox_names_other_boxes_and_sequence_examples_are_checked_on_their_context() {
    let dir = Dir::new();
    let good = Example {
        features: Some(example(vec![("rects", Feature::floats(vec![0.1, 0.1, 0.5, 0.5]))])),
    }
    .encode_to_vec();
    let bad = Example {
        features: Some(example(vec![("rects", Feature::floats(vec![0.1, 0.6, 0.5, 0.5, 0.2]))])),
    }
    .encode_to_vec();
    let file = dir.write("rects.tfrecord", &records(&[&good, &bad]));
    let plain = tfr(&["validate", "--json", &file]).run();
    let doc: Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!((plain.code, doc["annotations"]["boxes"].as_u64()), (0, Some(0)));
    let ran = tfr(&["validate", "--json", "--bbox", "rects", &file]).run();
    assert_eq!(ran.code, 1);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    let found = anomalies(&doc);
    // [ymin, xmin, ymax, xmax]: xmin 0.6 > xmax 0.5 in record 1, and a fifth value.
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        ["BBOX_LENGTHS_DIFFER", "BBOX_XMIN_GREATER_THAN_XMAX"]
    );
    assert_eq!(found["BBOX_XMIN_GREATER_THAN_XMAX"].0, "rects");
    assert_eq!(found["BBOX_XMIN_GREATER_THAN_XMAX"].3, 1);

    let seq = |xmax: f32| {
        SequenceExample {
            context: Some(example(vec![
                ("image/object/bbox/xmin", Feature::floats(vec![0.2])),
                ("image/object/bbox/ymin", Feature::floats(vec![0.2])),
                ("image/object/bbox/xmax", Feature::floats(vec![xmax])),
                ("image/object/bbox/ymax", Feature::floats(vec![0.4])),
            ])),
            feature_lists: None,
        }
        .encode_to_vec()
    };
    let file = dir.write("seq.tfrecord", &records(&[&seq(0.4), &seq(0.4), &seq(0.2)]));
    let ran = tfr(&["validate", "--json", "-t", "sequence", &file]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    let found = anomalies(&doc);
    assert_eq!(found.keys().collect::<Vec<_>>(), ["BBOX_ZERO_AREA"]);
    assert_eq!(found["BBOX_ZERO_AREA"].3, 2);
}

/// `tfr stats`: boxes per image and per class, as TensorFlow wrote them.
#[test]
fn stats_show_boxes_per_image_and_per_class() {
    let written = json_file(&ann("annotations.json"));
    let val = ann("coco_val.tfrecord");
    let stored = written["files"]["coco_val.tfrecord"]["records"].as_array().unwrap();
    let table = tfr(&["stats", &val]).run().ok();
    assert!(table.contains("annotations: 28 of 30 records annotated"), "{table}");
    assert!(
        table.contains("boxes per image: 90 boxes in 28 records with box features, mean 3.21"),
        "{table}"
    );
    assert!(table.contains("boxes per class: 12 classes"), "{table}");
    let doc: Value = serde_json::from_str(&tfr(&["stats", "-f", "json", &val]).run().ok()).unwrap();
    let a = &doc["annotations"];
    // Boxes per image, from the boxes stored.
    let mut per_image: BTreeMap<u64, u64> = BTreeMap::new();
    for r in stored.iter().filter(|r| r["object_features"] == true) {
        *per_image
            .entry(r["boxes"].as_array().unwrap().len() as u64)
            .or_default() += 1;
    }
    let got: BTreeMap<u64, u64> = a["boxes_per_image"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect();
    assert_eq!(got, per_image);
    // Per class: "name (id)" of each box's text and label.
    let mut per_class: BTreeMap<String, u64> = BTreeMap::new();
    for b in stored.iter().flat_map(|r| r["boxes"].as_array().into_iter().flatten()) {
        *per_class
            .entry(format!("{} ({})", b["text"].as_str().unwrap(), b["label"]))
            .or_default() += 1;
    }
    let got: BTreeMap<String, u64> = serde_json::from_value(a["per_class"].clone()).unwrap();
    assert_eq!(got, per_class);
    for (name, n) in &written["files"]["coco_val.tfrecord"]["summary"]["boxes_per_class"]
        .as_object()
        .unwrap()
        .clone()
    {
        let row = table
            .lines()
            .find(|l| l.contains(&format!("│ {name} (")))
            .unwrap_or_else(|| panic!("{name}"));
        assert!(row.contains(&format!("┆ {n} ")), "{row}");
    }
    // Classification: image classes.
    let classify = tfr(&["stats", &ann("classify.tfrecord")]).run().ok();
    assert!(
        classify.contains("image classes (classification labels): 3 classes"),
        "{classify}"
    );
    // TFDV's formats are TFDV's.
    let text = tfr(&["stats", "-f", "tfdv-stats-text", &val]).run().ok();
    assert!(!text.contains("per_class") && !text.contains("boxes_per_image"));
}

/// Saved statistics carry the tally: merged, they are the statistics of
/// the inputs read together.
#[test]
fn merged_saved_statistics_keep_the_annotation_tally() {
    let dir = Dir::new();
    let (val, broken) = (ann("coco_val.tfrecord"), ann("coco_broken.tfrecord"));
    let a = dir.write("a.json", tfr(&["stats", "-f", "json", &val]).run().ok().as_bytes());
    let b = dir.write("b.json", tfr(&["stats", "-f", "json", &broken]).run().ok().as_bytes());
    let merged: Value = serde_json::from_str(
        &dir.tfr(&["stats", "-f", "json", "--merge", &a, "--merge", &b])
            .run()
            .ok(),
    )
    .unwrap();
    let together: Value = serde_json::from_str(&tfr(&["stats", "-f", "json", &val, &broken]).run().ok()).unwrap();
    assert_eq!(merged["annotations"], together["annotations"]);
    // The first broken record is in the second input.
    let problems = together["annotations"]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 6, "without a label map, class 250 is a class");
    assert!(problems.iter().all(|p| p["first"][0] == 1), "{problems:?}");
    // A saved file whose tally does not add up is refused in one line.
    let text = std::fs::read_to_string(&b)
        .unwrap()
        .replace("\"with_boxes\":11", "\"with_boxes\":99");
    assert!(text.contains("\"with_boxes\":99"));
    let bad = dir.write("bad.json", text.as_bytes());
    let err = dir.tfr(&["stats", "--merge", &bad]).run().fails(2);
    assert!(err.contains("\"annotations\": its counts do not add up"), "{err}");
}

/// `tfr report`: an Annotations section only where there are annotations.
#[cfg(feature = "report")]
#[test]
fn the_report_shows_boxes_per_image_and_per_class() {
    let dir = Dir::new();
    let page = dir.path("r.html");
    let page = page.to_str().unwrap();
    tfr(&["report", &ann("coco_val.tfrecord"), "-o", page]).run().ok();
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("<h2 id=\"annotations\">Annotations</h2>"));
    assert!(
        html.contains("<title>5 boxes: 9 records</title>"),
        "boxes per image chart"
    );
    assert!(html.contains("<td class=\"name\">person (1)</td><td>19</td>"));
    tfr(&["report", &data("notebook.tfrecord"), "-o", page]).run().ok();
    let html = std::fs::read_to_string(page).unwrap();
    assert!(!html.contains("id=\"annotations\""));
}

//! `tfr validate --previous/--serving/--previous-version`: drift and skew
//! against TFDV 1.16.1's own answers (tests/data/drift/expected.json,
//! written with the fixtures by tests/oracle/tfdv_drift.py): the same
//! anomaly types per feature, the comparators' descriptions word for word,
//! and every `drift_skew_info` figure within 1e-9 relative — whether the
//! controls are given as records (tfr computes their statistics) or as
//! TFDV's statistics files (binary or text format).

use crate::util::*;
use serde_json::Value;
use std::collections::BTreeMap;

fn drift(name: &str) -> String {
    data(&format!("drift/{name}"))
}

fn expected(case: &str) -> Value {
    let text = std::fs::read_to_string(drift("expected.json")).expect("expected.json");
    let all: Value = serde_json::from_str(&text).expect("json");
    all[case].clone()
}

/// tfr's `--json` run: (anomalies per feature: type, description), the
/// dataset's anomalies, and the figures per feature.
struct Answer {
    features: BTreeMap<String, Vec<(String, String)>>,
    dataset: Vec<(String, String)>,
    figures: BTreeMap<String, (Vec<Figure>, Vec<Figure>)>,
}

/// A measurement: type, value, threshold.
type Figure = (String, f64, f64);

fn measurements(list: &Value) -> Vec<Figure> {
    list.as_array()
        .map(|l| {
            l.iter()
                .map(|m| {
                    (
                        m["type"].as_str().unwrap().to_string(),
                        m["value"].as_f64().unwrap(),
                        // NaN: tfr's JSON has null, TFDV's answer "NaN".
                        m["threshold"].as_f64().unwrap_or(f64::NAN),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn run(args: &[&str]) -> Answer {
    let mut all = vec!["validate", "--json"];
    all.extend_from_slice(args);
    let ran = tfr(&all).run();
    assert!(ran.code == 0 || ran.code == 1, "exit {}: {}", ran.code, ran.stderr);
    let doc: Value = serde_json::from_slice(&ran.stdout).expect("json");
    let mut features: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut dataset = Vec::new();
    for a in doc["anomalies"].as_array().unwrap() {
        let entry = (
            a["type"].as_str().unwrap().to_string(),
            a["description"].as_str().unwrap().to_string(),
        );
        match a["feature"].as_str() {
            Some(f) => features.entry(f.to_string()).or_default().push(entry),
            None => dataset.push(entry),
        }
    }
    let mut figures = BTreeMap::new();
    for i in doc["drift_skew_info"].as_array().cloned().unwrap_or_default() {
        let path = i["path"]["step"][0].as_str().unwrap().to_string();
        figures.insert(
            path,
            (
                measurements(&i["drift_measurements"]),
                measurements(&i["skew_measurements"]),
            ),
        );
    }
    Answer {
        features,
        dataset,
        figures,
    }
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// tfr's answer equals TFDV's: anomaly types per feature (as sets, with
/// counts), comparator descriptions exactly, figures within 1e-9.
#[track_caller]
fn same(case: &str, got: &Answer) {
    let want = expected(case);
    let comparator = |t: &str| t.starts_with("COMPARATOR_");
    let mut want_features: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (f, reasons) in want["features"].as_object().unwrap() {
        for r in reasons.as_array().unwrap() {
            let t = r["type"].as_str().unwrap().to_string();
            want_features
                .entry(f.clone())
                .or_default()
                .push((t, r["description"].as_str().unwrap().into()));
        }
    }
    let keys = |m: &BTreeMap<String, Vec<(String, String)>>| -> BTreeMap<String, Vec<String>> {
        m.iter()
            .map(|(f, v)| {
                let mut t: Vec<String> = v.iter().map(|(t, _)| t.clone()).collect();
                t.sort();
                (f.clone(), t)
            })
            .collect()
    };
    assert_eq!(
        keys(&got.features),
        keys(&want_features),
        "{case}: anomaly types per feature"
    );
    for (f, reasons) in &want_features {
        for (t, d) in reasons.iter().filter(|(t, _)| comparator(t)) {
            assert!(
                got.features[f].iter().any(|(gt, gd)| gt == t && gd == d),
                "{case}: feature {f}: {t} {d:?} not in {:?}",
                got.features[f]
            );
        }
    }
    let want_dataset: Vec<(String, String)> = want["dataset"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["type"].as_str().unwrap().into(),
                r["description"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(got.dataset, want_dataset, "{case}: dataset anomalies");
    let want_figures = want["drift_skew_info"].as_object().unwrap();
    assert_eq!(
        got.figures.keys().collect::<Vec<_>>(),
        want_figures.keys().collect::<Vec<_>>(),
        "{case}: features measured"
    );
    for (f, w) in want_figures {
        let (drift, skew) = &got.figures[f];
        for (got, want) in [(drift, measurements(&w["drift"])), (skew, measurements(&w["skew"]))] {
            assert_eq!(got.len(), want.len(), "{case}: {f}: {got:?} vs {want:?}");
            for (g, w) in got.iter().zip(&want) {
                let same_threshold = g.2 == w.2 || g.2.is_nan() && w.2.is_nan();
                assert!(
                    g.0 == w.0 && close(g.1, w.1) && same_threshold,
                    "{case}: {f}: {g:?} vs TFDV {w:?}"
                );
            }
        }
    }
}

#[test]
fn drift_against_previous_span_records_and_stats_files() {
    let schema = drift("schema.pbtxt");
    let current = drift("span2.tfrecord");
    for previous in ["span1.tfrecord", "span1.stats", "span1.stats.pbtxt"] {
        let got = run(&["--schema", &schema, "--previous", &drift(previous), &current]);
        same("previous", &got);
    }
}

#[test]
fn skew_against_serving_data() {
    let schema = drift("schema.pbtxt");
    let current = drift("span2.tfrecord");
    for serving in ["serving.tfrecord", "serving.stats"] {
        let got = run(&["--schema", &schema, "--serving", &drift(serving), &current]);
        same("serving", &got);
    }
}

#[test]
fn every_control_at_once_and_every_figure() {
    let current = drift("span2.tfrecord");
    let (prev, serving) = (drift("span1.tfrecord"), drift("serving.stats"));
    let got = run(&[
        "--schema",
        &drift("schema.pbtxt"),
        "--previous",
        &prev,
        "--serving",
        &serving,
        "--previous-version",
        &drift("span1.stats"),
        &current,
    ]);
    same("all", &got);
    // Thresholds of 0: every figure is an anomaly (and a measurement).
    let zero = run(&[
        "--schema",
        &drift("schema_zero.pbtxt"),
        "--previous",
        &prev,
        "--serving",
        &serving,
        &current,
    ]);
    same("zero", &zero);
    let quantiles = run(&[
        "--schema",
        &drift("schema_quantiles.pbtxt"),
        "--previous",
        &prev,
        &current,
    ]);
    same("quantiles", &quantiles);
}

#[test]
fn nan_thresholds_judged_as_tfdv_judges_them() {
    let (prev, serving) = (drift("span1.stats"), drift("serving.stats"));
    let got = run(&[
        "--schema",
        &drift("schema_nan.pbtxt"),
        "--previous",
        &prev,
        "--serving",
        &serving,
        &drift("span2.tfrecord"),
    ]);
    same("nan", &got);
}

#[test]
fn a_span_against_itself() {
    // Identical statistics: every figure 0, except income's JSD, which TFDV
    // makes 1/60 by putting each side's NaN count in a bucket of its own.
    let span1 = drift("span1.tfrecord");
    let got = run(&[
        "--schema",
        &drift("schema_zero.pbtxt"),
        "--previous",
        &drift("span1.stats"),
        &span1,
    ]);
    same("self", &got);
}

#[test]
fn without_controls_comparators_are_noted_not_checked() {
    let ran = tfr(&[
        "validate",
        "--json",
        "--schema",
        &drift("schema.pbtxt"),
        &drift("span2.tfrecord"),
    ])
    .run();
    let doc: Value = serde_json::from_slice(&ran.stdout).expect("json");
    same(
        "none",
        &run(&["--schema", &drift("schema.pbtxt"), &drift("span2.tfrecord")]),
    );
    let notes: Vec<&str> = doc["not_checked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        notes.iter().any(|n| n.starts_with("drift_comparator (no --previous")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.starts_with("skew_comparator (no --serving")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("num_examples_version_comparator (no --previous-version")),
        "{notes:?}"
    );
    assert!(doc.get("drift_skew_info").is_none());
}

#[test]
fn table_lines_name_the_figures_and_thresholds() {
    let ran = tfr(&[
        "validate",
        "--schema",
        &drift("schema.pbtxt"),
        "--previous",
        &drift("span1.stats"),
        &drift("span2.tfrecord"),
    ])
    .run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(ran.stderr.contains(
        "feature \"city\": The Linfty distance between current and previous is 0.436667 (up to six significant \
         digits), above the threshold 0.05. The feature value with maximum difference is: Paris \
         [COMPARATOR_L_INFTY_HIGH]"
    ));
    assert!(ran.stdout_str().contains("COMPARATOR_HIGH_NUM_EXAMPLES"));
}

#[test]
fn stdin_empty_controls_and_raw_binary_statistics() {
    let dir = Dir::new();
    let schema = drift("schema.pbtxt");
    let span2 = std::fs::read(drift("span2.tfrecord")).unwrap();
    // The records are read twice: not from stdin.
    let ran = tfr(&[
        "validate",
        "--schema",
        &schema,
        "--previous",
        &drift("span1.stats"),
        "-",
    ])
    .stdin(&span2)
    .run();
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("not on stdin"), "{}", ran.stderr);
    // Empty statistics (TFDV's of an empty span): no control, as TFDV.
    let empty = dir.write("empty.pbtxt", b"datasets {\n}\n");
    let ran = tfr(&[
        "validate",
        "--json",
        "--schema",
        &schema,
        "--previous",
        &empty,
        &drift("span2.tfrecord"),
    ])
    .run();
    assert!(
        ran.stderr.contains("no examples: nothing compared with it"),
        "{}",
        ran.stderr
    );
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(doc["drift_skew_info"], serde_json::json!([]));
    // The TFDV file without its TFRecord framing: a raw binary list.
    let framed = std::fs::read(drift("span1.stats")).unwrap();
    let raw = dir.write("raw.stats", &framed[12..framed.len() - 4]);
    same(
        "previous",
        &run(&["--schema", &schema, "--previous", &raw, &drift("span2.tfrecord")]),
    );
}

#[test]
fn bad_controls_are_one_line_errors() {
    let dir = Dir::new();
    let schema = drift("schema.pbtxt");
    let current = drift("span2.tfrecord");
    // Not a statistics file and not records.
    let junk = dir.write("junk.stats", b"datasets { num_examples: -3 }");
    let line = tfr(&["validate", "--schema", &schema, "--previous", &junk, &current])
        .run()
        .fails(2);
    assert!(line.contains("--previous"), "{line}");
    let missing = dir.path("nope").to_string_lossy().into_owned();
    tfr(&["validate", "--schema", &schema, "--serving", &missing, &current])
        .run()
        .fails(2);
    // A control needs a schema (its comparators say what to compare).
    let ran = tfr(&["validate", "--previous", &drift("span1.stats"), &current]).run();
    assert_eq!(ran.code, 2, "{}", ran.stderr);
}

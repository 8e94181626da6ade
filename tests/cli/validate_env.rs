//! `tfr validate` held to TFDV 1.16.1's answers on environments, sparse and
//! weighted features, the schema's own mistakes (INVALID_SCHEMA_SPECIFICATION,
//! DOMAIN_INVALID_FOR_TYPE, INVALID_DOMAIN_SPECIFICATION,
//! FEATURE_MISSING_NAME), unique_constraints, value_counts and image_domain.
//! The data (written with TensorFlow), the schemas and TFDV's anomalies are
//! committed under tests/data/validate/oracle/, written by
//! tests/oracle/tfdv_env_sparse.py.

use crate::util::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn oracle(name: &str) -> String {
    data(&format!("validate/oracle/{name}"))
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(oracle("cases.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// TFDV's anomaly key of a feature: its path serialized (an empty step is `''`).
fn tfdv_key(feature: &str) -> String {
    if feature.is_empty() {
        "''".into()
    } else {
        feature.to_string()
    }
}

/// The integers in a description (what TFDV's and tfr's figures are compared by).
fn figures(text: &str) -> BTreeSet<i64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// Kinds whose descriptions' figures are compared (the others' words differ
/// from TFDV's: tfr's name records and shares).
fn figures_compared(kind: &str) -> bool {
    kind.starts_with("SPARSE_FEATURE_")
        || kind.starts_with("WEIGHTED_FEATURE_")
        || kind.ends_with("_UNIQUE")
        || kind == "MAX_IMAGE_BYTE_SIZE_EXCEEDED"
}

fn run_case(case: &Value) -> (i32, Value, String) {
    let schema = oracle(case["schema"].as_str().unwrap());
    let input = oracle(case["data"].as_str().unwrap());
    let mut args = vec!["validate", "--json", "-s", &schema, &input];
    if let Some(env) = case["environment"].as_str() {
        args.extend(["--environment", env]);
    }
    let ran = tfr(&args).run();
    let doc = serde_json::from_slice(&ran.stdout).unwrap_or(Value::Null);
    (ran.code, doc, ran.stderr)
}

#[test]
fn anomalies_are_tfdvs_per_feature_with_its_figures() {
    let cases = cases();
    assert!(cases.len() >= 15);
    for case in &cases {
        let what = format!("{} on {} env {}", case["schema"], case["data"], case["environment"]);
        let (code, doc, stderr) = run_case(case);
        if let Some(error) = case["error"].as_str() {
            // TFDV: "Environment NOPE not found in the schema."
            assert!(error.contains("not found in the schema"), "{error}");
            assert_eq!(code, 2, "{what}: {stderr}");
            assert!(stderr.contains("not an environment of the schema"), "{what}: {stderr}");
            continue;
        }
        let mut want: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut want_text: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for (feature, reasons) in case["anomalies"].as_object().unwrap() {
            for r in reasons.as_array().unwrap() {
                let kind = r[0].as_str().unwrap().to_string();
                want.entry(feature.clone()).or_default().insert(kind.clone());
                let text = format!("{} {}", r[1].as_str().unwrap(), r[2].as_str().unwrap());
                want_text.entry((feature.clone(), kind)).or_default().push(text);
            }
        }
        for r in case["dataset"].as_array().unwrap() {
            want.entry("(dataset)".into())
                .or_default()
                .insert(r[0].as_str().unwrap().into());
        }
        let mut got: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut got_text: BTreeMap<(String, String), String> = BTreeMap::new();
        for a in doc["anomalies"].as_array().unwrap_or(&Vec::new()) {
            let feature = a["feature"].as_str().map_or("(dataset)".to_string(), tfdv_key);
            let kind = a["type"].as_str().unwrap().to_string();
            got.entry(feature.clone()).or_default().insert(kind.clone());
            got_text.insert((feature, kind), a["description"].as_str().unwrap().to_string());
        }
        assert_eq!(got, want, "{what}: {stderr}");
        assert_eq!(code, if want.is_empty() { 0 } else { 1 }, "{what}");
        for ((feature, kind), texts) in &want_text {
            if !figures_compared(kind) {
                continue;
            }
            let mine = figures(&got_text[&(feature.clone(), kind.clone())]);
            for t in texts {
                let theirs = figures(t);
                assert!(
                    theirs.is_subset(&mine),
                    "{what}: {feature} {kind}: TFDV says {t:?}, tfr {:?}",
                    got_text[&(feature.clone(), kind.clone())]
                );
            }
        }
        // Nothing TFDV checks is left in the notes (the deprecated feature
        // TFDV skips too is the only one).
        for note in doc["not_checked"].as_array().unwrap() {
            assert!(
                note.as_str()
                    .unwrap()
                    .starts_with("features TFDV does not validate either"),
                "{what}: {note}"
            );
        }
    }
}

fn first_of(doc: &Value, feature: &str, kind: &str) -> (u64, Option<u64>) {
    let a = doc["anomalies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["feature"] == feature && a["type"] == kind)
        .unwrap_or_else(|| panic!("{feature} {kind} in {doc}"));
    (a["records"].as_u64().unwrap(), a["first"]["record"].as_u64())
}

#[test]
fn sparse_and_weighted_anomalies_name_the_first_record() {
    let ran = tfr(&[
        "validate",
        "--json",
        "-s",
        &oracle("sparse.pbtxt"),
        &oracle("sparse_bad.tfrecord"),
    ])
    .run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    // Record 2 lost its values, record 3 its second index feature, record 4
    // has a longer index; 6 lost the weights, 7 the weighted values, 8 has
    // more weights; record 9 holds none of them (not counted).
    assert_eq!(first_of(&doc, "sp", "SPARSE_FEATURE_MISSING_VALUE"), (1, Some(2)));
    assert_eq!(first_of(&doc, "sp", "SPARSE_FEATURE_MISSING_INDEX"), (1, Some(3)));
    assert_eq!(first_of(&doc, "sp", "SPARSE_FEATURE_LENGTH_MISMATCH").1, Some(2));
    assert_eq!(first_of(&doc, "sp_one", "SPARSE_FEATURE_LENGTH_MISMATCH").1, Some(2));
    assert_eq!(first_of(&doc, "wf", "WEIGHTED_FEATURE_MISSING_WEIGHT"), (1, Some(6)));
    assert_eq!(first_of(&doc, "wf", "WEIGHTED_FEATURE_MISSING_VALUE"), (1, Some(7)));
    assert_eq!(first_of(&doc, "wf", "WEIGHTED_FEATURE_LENGTH_MISMATCH").1, Some(6));
    // The same at any number of workers.
    for jobs in ["1", "3"] {
        let again = tfr(&[
            "validate",
            "--json",
            "-j",
            jobs,
            "-s",
            &oracle("sparse.pbtxt"),
            &oracle("sparse_bad.tfrecord"),
        ])
        .run();
        let d: Value = serde_json::from_slice(&again.stdout).unwrap();
        assert_eq!(d["anomalies"], doc["anomalies"], "-j {jobs}");
    }
}

#[test]
fn a_serving_set_without_the_label_conforms_in_serving() {
    let schema = oracle("env.pbtxt");
    let serving = oracle("env_serving.tfrecord");
    let ran = tfr(&["validate", "-s", &schema, "--environment", "SERVING", &serving]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stdout_str().contains("no anomalies"), "{}", ran.stdout_str());
    // No environment: every feature is required where presence says so.
    let ran = tfr(&["validate", "-s", &schema, &serving]).run();
    assert_eq!(ran.code, 1);
    ran.stderr_has("SCHEMA_MISSING_COLUMN");
    // The label in serving data: a new column of that environment, with the
    // first record holding it.
    let ran = tfr(&[
        "validate",
        "--json",
        "-s",
        &schema,
        "--environment",
        "SERVING",
        &oracle("env_serving_label.tfrecord"),
    ])
    .run();
    let doc: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(first_of(&doc, "label", "SCHEMA_NEW_COLUMN"), (5, Some(0)));
    // --environment needs a schema.
    tfr(&["validate", "--environment", "SERVING", &serving]).run().fails(2);
}

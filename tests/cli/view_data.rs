//! `tfr view` on datasets as their own tools wrote them: a TFDS folder
//! (tensorflow-datasets' detection dataset, its ClassLabel names and
//! `objects/bbox`), and 100,000 Object Detection API records in 4 shards
//! written by TensorFlow (tests/oracle/many_images_make.py), browsed by a
//! glob, a jump to the last record answered within a second.

use crate::util::*;
use crate::view::view;
use serde_json::Value;
use std::time::{Duration, Instant};

#[test]
fn a_tfds_folder_shows_its_boxes_with_their_class_names() {
    let dir = Dir::new();
    let text = std::fs::read_to_string(data("tfds/tfr_detect.expected.json")).unwrap();
    let want: Value = serde_json::from_str(&text).unwrap();
    let v = view(&dir, &["--split", "train", &data("tfds/tfr_detect/1.0.0")]);
    let recs = v.all();
    let stored = want["records"].as_array().unwrap();
    assert_eq!(recs.len(), stored.len());
    for (rec, want) in recs.iter().zip(stored) {
        assert!(
            rec["file"].as_str().unwrap().ends_with(want["file"].as_str().unwrap()),
            "{rec}"
        );
        assert_eq!(rec["record"], want["index"]);
        let boxes = rec["annotations"]["boxes"].as_array().unwrap();
        let names: Vec<&str> = boxes.iter().map(|b| b["class"]["name"].as_str().unwrap()).collect();
        let want_names: Vec<&str> = want["objects"]["label_name"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(names, want_names, "{rec}");
        // TFDS's [ymin, xmin, ymax, xmax], drawn as corners.
        for (b, w) in boxes.iter().zip(want["objects"]["bbox"].as_array().unwrap()) {
            let close = |a: &Value, b: &Value| (a.as_f64().unwrap() - b.as_f64().unwrap()).abs() < 1e-6;
            assert!(close(&b["ymin"], &w[0]) && close(&b["xmin"], &w[1]), "{b} {w}");
            assert!(close(&b["ymax"], &w[2]) && close(&b["xmax"], &w[3]), "{b} {w}");
        }
        let svg = rec["overlay"]["image"].as_str().unwrap();
        assert_eq!(svg.matches("<rect").count(), boxes.len());
        // The picture's class, by its ClassLabel name.
        assert_eq!(
            rec["caption"]["text"],
            format!("{} ({})", want["label_name"].as_str().unwrap(), want["label"])
        );
    }
}

#[test]
#[ignore = "external: TensorFlow writes 100,000 OD API records (tests/oracle/many_images_make.py, ~20 s): cargo test -- --include-ignored"]
fn a_glob_of_100000_tensorflow_records_is_browsed_and_jumped_through() {
    let dir = Dir::new();
    let script = oracle_script("many_images_make.py");
    if !python_in(&dir, &[&script, &dir.path("data").to_string_lossy()]) {
        skip_or_fail("TensorFlow (TFR_TF_PYTHON) could not write tests/oracle/many_images_make.py's records");
        return;
    }
    let start = Instant::now();
    let v = view(&dir, &["data/train-*"]);
    let listening = start.elapsed();
    for n in [99_999u64, 0, 73_210, 25_000, 24_999, 99_999] {
        let asked = Instant::now();
        let page = v.json(&format!("/api/records?offset={n}&limit=1"));
        let took = asked.elapsed();
        let rec = &page["records"][0];
        assert_eq!(rec["features"]["image/source_id"][0], n.to_string(), "{page}");
        assert_eq!(rec["record"], n % 25_000);
        assert!(rec["file"]
            .as_str()
            .unwrap()
            .ends_with(&format!("train-{:05}-of-00004.tfrecord", n / 25_000)));
        let boxes = rec["annotations"]["boxes"].as_array().unwrap().len();
        assert_eq!(
            rec["overlay"]["image/encoded"]
                .as_str()
                .unwrap()
                .matches("<rect")
                .count(),
            boxes
        );
        eprintln!(
            "record {n}: {took:?} (listening after {listening:?}; complete: {})",
            page["complete"]
        );
        // Under a second is bench/run.py's `tfr.view.jump` target, on the
        // release build; a debug build on a busy machine only must not
        // scan for long.
        assert!(took < Duration::from_secs(10), "record {n}: {took:?}");
    }
    let info = v.info();
    assert_eq!(info["total"], 100_000);
    let status = std::fs::read_to_string(format!("/proc/{}/status", v.pid())).unwrap();
    let peak = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap().to_string();
    eprintln!("{peak}; index {}", info["index"]);
}

#[test]
#[ignore = "slow: a Python HTTP server (tests/oracle/objstore.py) serving 3,000 records, plain with its index file and gzipped: cargo test -- --include-ignored"]
fn objects_over_http_are_read_by_ranges_or_forward() {
    let Some(python) = crate::remote::venv().map(|v| v.join("bin/python")).or_else(python3) else {
        return skip_or_fail("python3 missing (the HTTP server runs on it)");
    };
    let dir = Dir::new();
    let file = crate::view::many_images(&dir, 3000);
    dir.tfr(&["index", &file]).run().ok();
    dir.write("many.tfrecord.gz", &gzip(&std::fs::read(&file).unwrap()));
    let lines = crate::view::jsonl(&[&file]);
    let counter = dir.path("sent");
    let mut cmd = std::process::Command::new(python);
    cmd.arg(crate::remote::helper())
        .arg("http")
        .arg(dir.path(""))
        .arg(&counter);
    let server = crate::remote::start(cmd, |l| l.trim().parse().ok());
    for (name, indexed_by, random) in [("many.tfrecord", "idx", true), ("many.tfrecord.gz", "scan", false)] {
        let url = format!("http://127.0.0.1:{}/{name}", server.port);
        let v = view(&dir, &[&url]);
        let info = v.info();
        assert_eq!(info["total"], 3000, "{info}");
        assert_eq!(info["inputs"][0]["indexed_by"], indexed_by, "{info}");
        assert_eq!(info["inputs"][0]["random_access"], random, "{info}");
        for n in [2999usize, 17, 1500, 0] {
            let rec = &v.json(&format!("/api/records?offset={n}&limit=1"))["records"][0];
            assert_eq!(rec["features"]["id"], serde_json::json!([n]), "{rec}");
            crate::view::same_record(&v, rec, &lines[n]);
        }
    }
}

//! TensorBoard event files (`events.out.tfevents.*`), read as tf.Event with
//! no flags: `cat` and `to-jsonl` print each event byte for byte as Python
//! protobuf prints it (tests/oracle/events_ref.py wrote
//! tests/data/events/expected/<path>.txt|json from the TensorFlow-written
//! files; see tests/data/events/NOTES.md); `--type event` for other names;
//! count, head, and the error for event files mixed with others. The
//! ignored test at the end runs events_ref.py live.

use crate::util::*;
use std::path::{Path, PathBuf};

/// tests/data/events.
fn events_dir() -> PathBuf {
    data_dir().join("events")
}

/// The event files under tests/data/events (names containing `tfevents`,
/// the references in expected/ and the forged files of hostile/ left
/// out), as paths relative to it, sorted.
fn event_files() -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if rel != "expected" && rel != "hostile" {
                    walk(root, &path, out);
                }
            } else if path.file_name().unwrap().to_string_lossy().contains("tfevents") {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(&events_dir(), &events_dir(), &mut out);
    out.sort();
    out
}

/// The one event file whose last record is cut (a file still being written).
const TRUNCATED: &str = "logs/sweep/lr_0.01/events.out.tfevents.1700000006.fixture.0";

/// A v1 FileWriter file with every kind of summary value.
const EVAL: &str = "logs/eval/events.out.tfevents.1700000003.fixture.0";

/// expected/REL.EXT, as Python wrote it.
fn reference(rel: &str, ext: &str) -> String {
    let path = events_dir().join("expected").join(format!("{rel}.{ext}"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The absolute path of an event file.
fn event(rel: &str) -> String {
    events_dir().join(rel).to_string_lossy().into_owned()
}

/// The one-line error for the cut record of [`TRUNCATED`], named `path`.
fn truncated_line(path: &str) -> String {
    format!(
        "tfr: {path}: record 4 at byte 253: truncated payload (the record needs 47 bytes after its header, only 21 \
         present)"
    )
}

/// The first `n` records of a text reference.
fn first_records(text: &str, n: usize) -> String {
    match text.find(&format!("# record {n}\n")) {
        Some(at) => text[..at].to_string(),
        None => text.to_string(),
    }
}

/// tfr's text of events without the comment lines that show tensors'
/// values (Python's text_format prints none; its Parse skips them).
fn plain(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("# values: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The `# record N` and `# values: V` lines of tfr's text, each value
/// parsed.
fn shown_values(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .filter_map(|l| match l.trim_start().strip_prefix("# values: ") {
            Some(v) => Some(serde_json::from_str(v).unwrap_or_else(|e| panic!("{v}: {e}"))),
            None => l
                .starts_with("# record ")
                .then(|| serde_json::Value::String(l.to_string())),
        })
        .collect()
}

/// Whether two values are equal, a number also when equal as float32 (tfr
/// shows a float32 as its shortest digits, numpy's tolist() widened).
fn same_values(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::{Array, Number};
    match (a, b) {
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_values(x, y)),
        (Number(x), Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y || (x as f32) == (y as f32)
        }
        _ => a == b,
    }
}

/// The first `n` lines of a text.
fn first_lines(text: &str, n: usize) -> String {
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

#[test]
fn every_event_file_prints_as_python_prints_it() {
    let files = event_files();
    assert_eq!(files.len(), 9, "{files:?}");
    assert!(files.iter().any(|f| f == TRUNCATED));
    for rel in &files {
        let path = event(rel);
        let (text, json) = (reference(rel, "txt"), reference(rel, "json"));
        assert_eq!(text.matches("# record ").count(), json.lines().count(), "{rel}");
        let cat = tfr(&["cat", &path]).run();
        let jsonl = tfr(&["to-jsonl", &path]).run();
        let cat_json = tfr(&["cat", "-f", "json", &path]).run();
        if rel == TRUNCATED {
            // The intact records, then the damage: exit 2, one line.
            for r in [&cat, &jsonl, &cat_json] {
                assert_eq!(r.fails(2), truncated_line(&path));
            }
            assert_eq!(json.lines().count(), 4);
            assert_eq!(plain(&cat.stdout_str()), text);
            assert_eq!(jsonl.stdout_str(), json);
            assert_eq!(cat_json.stdout_str(), json);
        } else {
            assert_eq!(plain(&cat.ok()), text, "{rel}");
            assert_eq!(jsonl.ok(), json, "{rel}");
            assert_eq!(cat_json.ok(), json, "{rel}");
        }
    }
}

#[test]
fn summary_tensors_show_the_values_tensorflow_reads() {
    let mut shown = 0;
    for rel in event_files() {
        let want: Vec<serde_json::Value> = reference(&rel, "values")
            .lines()
            .map(|l| match l.starts_with("# record ") {
                true => serde_json::Value::String(l.to_string()),
                false => serde_json::from_str(l).expect("JSON"),
            })
            .collect();
        let r = tfr(&["cat", &event(&rel)]).run();
        let got = shown_values(&r.stdout_str());
        assert_eq!(got.len(), want.len(), "{rel}: {got:?} {want:?}");
        for (g, w) in got.iter().zip(&want) {
            assert!(same_values(g, w), "{rel}: tfr {g}, TensorFlow {w}");
        }
        shown += got
            .iter()
            .filter(|v| !v.is_string() || !v.as_str().unwrap_or("").starts_with("# "))
            .count();
    }
    assert!(shown >= 15, "{shown}");
}

#[test]
fn type_event_reads_an_event_file_of_another_name() {
    let dir = Dir::new();
    let x = dir.write("x.tfrecord", &std::fs::read(event(EVAL)).unwrap());
    let (text, json) = (reference(EVAL, "txt"), reference(EVAL, "json"));
    assert_eq!(plain(&tfr(&["cat", "--type", "event", &x]).run().ok()), text);
    assert_eq!(tfr(&["cat", "-t", "event", "-f", "json", &x]).run().ok(), json);
    assert_eq!(tfr(&["to-jsonl", "--type", "event", &x]).run().ok(), json);
    assert_eq!(
        plain(&tfr(&["head", "-n", "2", "--type", "event", &x]).run().ok()),
        first_records(&text, 2)
    );
    // Without it the name does not say event file: read as an Example, which it is not.
    let line = tfr(&["cat", &x]).run().fails(2);
    assert!(
        line.contains("x.tfrecord: record 0") && line.contains("not a tf.train.Example"),
        "{line}"
    );
    // --type event on an event file changes nothing.
    assert_eq!(plain(&tfr(&["cat", "--type", "event", &event(EVAL)]).run().ok()), text);
    // Both together: each record's comment names its file.
    let mut both = tfr(&["cat", "--type", "event", "x.tfrecord", &event(EVAL)]);
    both.cmd.current_dir(dir.path(""));
    let want = text.replace("# record ", "# x.tfrecord record ")
        + &text.replace("# record ", &format!("# {} record ", event(EVAL)));
    assert_eq!(plain(&both.run().ok()), want);
}

#[test]
fn count_counts_the_events() {
    let files: Vec<String> = event_files().into_iter().filter(|f| f != TRUNCATED).collect();
    let mut total = 0;
    for rel in &files {
        let n = reference(rel, "txt").matches("# record ").count();
        assert_eq!(tfr(&["count", &event(rel)]).run().ok(), format!("{n}\n"), "{rel}");
        total += n;
    }
    assert_eq!(total, 63);
    let mut all = tfr(&[
        &["count", "--json"][..],
        &files.iter().map(String::as_str).collect::<Vec<_>>(),
    ]
    .concat());
    all.cmd.current_dir(events_dir());
    let json: serde_json::Value = serde_json::from_str(&all.run().ok()).unwrap();
    assert_eq!(json["total"], total);
    assert_eq!(json["files"][0]["file"], files[0].as_str());
    // The cut one: the intact records, and the damage.
    let r = tfr(&["count", &event(TRUNCATED)]).run();
    assert_eq!(r.fails(2), truncated_line(&event(TRUNCATED)));
    let mut r = tfr(&["count", "--json", TRUNCATED, EVAL]);
    r.cmd.current_dir(events_dir());
    let r = r.run();
    assert_eq!(r.fails(2), truncated_line(TRUNCATED));
    let json: serde_json::Value = serde_json::from_str(&r.stdout_str()).unwrap();
    assert_eq!(json["files"][0]["records"], 4);
    assert_eq!(json["total"], 4 + 11);
}

#[test]
fn event_files_and_other_files_need_type_event() {
    let shapes = data("proto/shapes.tfrecord");
    let want = "tfr: event files (events.out.tfevents.*) and other files in one run: give --type event, or read them \
                apart";
    for cmd in ["cat", "head", "to-jsonl"] {
        for files in [[event(EVAL), shapes.clone()], [shapes.clone(), event(EVAL)]] {
            let r = tfr(&[cmd, &files[0], &files[1]]).run();
            assert_eq!(r.fails(2), want, "{cmd} {files:?}");
            assert!(r.stdout.is_empty());
        }
    }
}

#[test]
fn head_prints_the_first_events() {
    for rel in [
        EVAL,
        TRUNCATED,
        "logs/train/events.out.tfevents.1700000001.fixture.0.v2",
    ] {
        let (text, json) = (reference(rel, "txt"), reference(rel, "json"));
        let got = plain(&tfr(&["head", "-n", "2", &event(rel)]).run().ok());
        assert_eq!(got, first_records(&text, 2), "{rel}");
        assert_eq!(got.matches("# record ").count(), 2);
        let got = tfr(&["head", "-n", "2", "-f", "json", &event(rel)]).run().ok();
        assert_eq!(got, first_lines(&json, 2), "{rel}");
    }
    // Past the cut record of the truncated file: its 4 events, then the error.
    let r = tfr(&["head", "-n", "9", &event(TRUNCATED)]).run();
    assert_eq!(r.fails(2), truncated_line(&event(TRUNCATED)));
    assert_eq!(plain(&r.stdout_str()), reference(TRUNCATED, "txt"));
}

#[test]
#[ignore = "external: TensorFlow and Python protobuf 7 (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn python_prints_the_events_tfr_prints() {
    let py = tf_python();
    if !python_has(&py, "tensorflow") {
        skip_or_fail("no Python with TensorFlow (TFR_TF_PYTHON)");
        return;
    }
    let script = oracle_script("events_ref.py");
    // v1 FileWriter (every value kind, hand-made events), v2 writer,
    // restart (SessionLog START), no file_version, a cut last record.
    for rel in [
        EVAL,
        "logs/train/events.out.tfevents.1700000001.fixture.0.v2",
        "restart/events.out.tfevents.1700000007.fixture.0",
        "noversion/events.out.tfevents.1700000008.fixture.0",
        TRUNCATED,
    ] {
        let path = event(rel);
        for (mode, cmd) in [("--text", "cat"), ("--json", "to-jsonl")] {
            let out = std::process::Command::new(&py)
                .args([&script, &path, mode])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{rel} {mode}: {stderr}");
            let python = String::from_utf8(out.stdout).unwrap();
            let r = tfr(&[cmd, &path]).run();
            if rel == TRUNCATED {
                // Python stops quietly at the cut record; tfr says so.
                assert!(stderr.contains("4 records, truncated tail"), "{stderr}");
                assert_eq!(r.fails(2), truncated_line(&path));
                assert_eq!(plain(&r.stdout_str()), python, "{rel} {mode}");
            } else {
                assert_eq!(plain(&r.ok()), python, "{rel} {mode}");
            }
        }
    }
}

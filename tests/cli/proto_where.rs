//! `--where` over a message's field paths and `count --by PATH` (cat,
//! head, to-jsonl, count with `--descriptor-set`/`--message`, and event
//! files), against Python protobuf: tests/oracle/proto_where.py asks each
//! question of the parsed messages through Python's message API and wrote
//! tests/data/proto/expected/where.json; the last test runs it live.

use crate::util::*;
use serde_json::Value;
use std::path::PathBuf;

const SAMPLE: [&str; 4] = ["--descriptor-set", "shapes.pb", "--message", "tfr.test.Sample"];

fn proto_dir() -> PathBuf {
    data_dir().join("proto")
}

/// `tfr ARGS` run in tests/data/proto.
fn in_proto_dir(args: &[&str]) -> Ran {
    let mut run = tfr(args);
    run.cmd.current_dir(proto_dir());
    run.run()
}

fn reference() -> Value {
    let path = proto_dir().join("expected/where.json");
    serde_json::from_str(&std::fs::read_to_string(&path).expect("where.json")).expect("JSON")
}

/// The record indices `cat --where EXPR` prints.
fn matching(expr: &str, extra: &[&str]) -> Vec<u64> {
    let args = [&["cat"][..], &SAMPLE, extra, &["--where", expr, "shapes.tfrecord"]].concat();
    let text = in_proto_dir(&args).ok();
    text.lines()
        .filter_map(|l| l.strip_prefix("# record "))
        .map(|n| n.parse().expect("index"))
        .collect()
}

#[test]
fn where_over_message_fields_matches_what_python_reads() {
    let want = reference();
    let cases = want["where"].as_object().expect("where");
    assert!(cases.len() >= 40);
    for (expr, indices) in cases {
        let want: Vec<u64> = indices
            .as_array()
            .expect("list")
            .iter()
            .map(|v| v.as_u64().expect("index"))
            .collect();
        assert_eq!(matching(expr, &[]), want, "--where '{expr}'");
        assert_eq!(matching(expr, &["-j", "3"]), want, "--where '{expr}' -j 3");
        let args = [&["count"][..], &SAMPLE, &["--where", expr, "shapes.tfrecord"]].concat();
        assert_eq!(
            in_proto_dir(&args).ok().trim(),
            want.len().to_string(),
            "count --where '{expr}'"
        );
        let args = [&["to-jsonl"][..], &SAMPLE, &["--where", expr, "shapes.tfrecord"]].concat();
        assert_eq!(
            in_proto_dir(&args).ok().lines().count(),
            want.len(),
            "to-jsonl --where '{expr}'"
        );
    }
    // head counts matching records.
    let args = [
        &["head", "-n", "2", "--skip", "1"][..],
        &SAMPLE,
        &["--where", "b == false", "shapes.tfrecord"],
    ]
    .concat();
    let heads: Vec<String> = in_proto_dir(&args)
        .ok()
        .lines()
        .filter(|l| l.starts_with("# record"))
        .map(str::to_string)
        .collect();
    assert_eq!(heads, ["# record 2", "# record 3"]);
}

/// (value, records) pairs, order aside.
fn pairs(values: &Value) -> Vec<String> {
    let mut out: Vec<String> = values
        .as_array()
        .expect("values")
        .iter()
        .map(|v| match v {
            Value::Array(p) => format!("{} {}", p[0], p[1]),
            Value::Object(o) => format!("{} {}", o["value"], o["records"]),
            _ => panic!("{v}"),
        })
        .collect();
    out.sort();
    out
}

#[test]
fn count_by_a_field_path_tallies_what_python_reads() {
    let want = reference();
    for (path, tally) in want["by"].as_object().expect("by") {
        let args = [&["count"][..], &SAMPLE, &["--by", path, "--json", "shapes.tfrecord"]].concat();
        let got: Value = serde_json::from_str(&in_proto_dir(&args).ok()).expect("JSON");
        assert_eq!(got["missing"], tally["missing"], "--by {path}");
        assert_eq!(got["total"], 15, "--by {path}");
        assert_eq!(pairs(&got["values"]), pairs(&tally["values"]), "--by {path}");
    }
    for (path, tally) in want["serving_by"].as_object().expect("serving_by") {
        let serving = [
            "--descriptor-set",
            "serving.pb",
            "--message",
            "tensorflow.serving.PredictionLog",
        ];
        let args = [&["count"][..], &serving, &["--by", path, "--json", "warmup.tfrecord"]].concat();
        let got: Value = serde_json::from_str(&in_proto_dir(&args).ok()).expect("JSON");
        assert_eq!(got["missing"], tally["missing"], "--by {path}");
        assert_eq!(pairs(&got["values"]), pairs(&tally["values"]), "--by {path}");
    }
    // The table names enum values.
    let args = [&["count"][..], &SAMPLE, &["--by", "color", "shapes.tfrecord"]].concat();
    let table = in_proto_dir(&args).ok();
    assert!(table.contains("│ COLOR_UNSPECIFIED ┆      13 ┆ 86.7 │"), "{table}");
}

#[test]
fn a_path_no_field_has_is_an_error_before_reading() {
    for (args, says) in [
        (
            &["cat", "--where", "sub.nme == \"x\""][..],
            "--where: 'sub.nme': tfr.test.Sub has no field 'nme' (its fields: name, id, leaf, leaves)",
        ),
        (
            &["count", "--where", "counts.k == 1"],
            "tfr.test.Sample.counts is a map: read '.key' or '.value', not 'k'",
        ),
        (
            &["to-jsonl", "--where", "i32.x == 1"],
            "tfr.test.Sample.i32 is not a message: it has no field 'x'",
        ),
        (
            &["count", "--by", "sub"],
            "--by: 'sub' is a message or a map, not a value: name one of its fields",
        ),
        (
            &["count", "--by", "counts"],
            "--by: 'counts' is a message or a map, not a value",
        ),
        (
            &["cat", "--where", "sub.leaf == 1"],
            "--where: 'sub.leaf' is a message or a map, not a value: name one of its fields (has() and len() take it)",
        ),
        (
            &["cat", "--where", "len(counts) > 1 && counts ~ \"a\""],
            "--where: 'counts' is a message or a map",
        ),
        (
            &["count", "--by", "counts.key.x"],
            "tfr.test.Sample.counts.key is not a message: it has no field 'x'",
        ),
        (
            &["count", "--where", "`a\nb` == 1"],
            "--where: 'a\\nb': tfr.test.Sample has no field 'a\\nb'",
        ),
        (
            &["count", "--where", "u64 == 18446744073709551616"],
            "an integer out of the int64 and uint64 ranges",
        ),
    ] {
        let all = [args, &SAMPLE, &["shapes.tfrecord"]].concat();
        let err = in_proto_dir(&all).fails(2);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // --features picks Example features: refused with a message.
    for cmd in ["cat", "head", "to-jsonl"] {
        let err = in_proto_dir(&[&[cmd][..], &SAMPLE, &["--features", "i32", "shapes.tfrecord"]].concat()).fails(2);
        assert!(
            err.contains("--features/--exclude pick Example features"),
            "{cmd}: {err}"
        );
    }
    // A record that is not the message: damage, naming it.
    let err = in_proto_dir(&[&["cat"][..], &SAMPLE, &["--where", "i32 == 1", "bad.tfrecord"]].concat()).fails(2);
    assert!(err.contains("bad.tfrecord: record 0 at byte 0"), "{err}");
}

#[test]
fn event_files_take_where_and_count_by_without_flags() {
    let logs = data_dir().join("events/logs/train");
    let mut run = tfr(&["count", "--by", "summary.value.tag", "--json", "."]);
    run.cmd.current_dir(&logs);
    let by: Value = serde_json::from_str(&run.run().ok()).expect("JSON");
    let mut run = tfr(&["to-jsonl", "."]);
    run.cmd.current_dir(&logs);
    let events: Vec<Value> = run
        .run()
        .ok()
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    // What the JSON of each event says, tallied.
    let mut tags: std::collections::BTreeMap<String, u64> = Default::default();
    let mut missing = 0;
    for e in &events {
        let mut seen: Vec<String> = e["summary"]["value"]
            .as_array()
            .map(|vs| vs.iter().map(|v| v["tag"].as_str().unwrap_or("").to_string()).collect())
            .unwrap_or_default();
        seen.sort();
        seen.dedup();
        missing += u64::from(seen.is_empty());
        for t in seen {
            *tags.entry(t).or_default() += 1;
        }
    }
    assert!(tags.len() >= 2, "{tags:?}");
    assert_eq!(by["missing"], missing);
    let got: std::collections::BTreeMap<String, u64> = by["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| {
            (
                v["value"].as_str().expect("tag").to_string(),
                v["records"].as_u64().expect("n"),
            )
        })
        .collect();
    assert_eq!(got, tags);
    let (tag, n) = tags.iter().next().expect("a tag");
    let mut run = tfr(&[
        "count",
        "--json",
        "--where",
        &format!("summary.value.tag == \"{tag}\""),
        ".",
    ]);
    run.cmd.current_dir(&logs);
    let counted: Value = serde_json::from_str(&run.run().ok()).expect("JSON");
    assert_eq!(counted["total"], *n);
}

#[test]
fn python_asks_the_same_questions_live() {
    if !python_has(&tf_python(), "google.protobuf") || !python_has(&tf_python(), "tensorflow") {
        return skip_or_fail("no Python with TensorFlow and protobuf (TFR_TF_PYTHON)");
    }
    let out = std::process::Command::new(tf_python())
        .arg(oracle_script("proto_where.py"))
        .output()
        .expect("proto_where.py");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let live: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(live, reference(), "tests/oracle/proto_where.py --write");
}

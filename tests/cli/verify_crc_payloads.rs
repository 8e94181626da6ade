//! `tfr verify-crc` on the TensorFlow-made fixtures, and `--payloads`:
//! what TensorFlow's parsers read differently (verify_crc.rs has the
//! framing's damage).

use crate::util::*;
use crate::verify_crc::json;

/// The damage kind tfr names for a fixture: TensorFlow's, except where tfr
/// is more precise (a 6-byte text file is not a TFRecord at all).
fn expected_kind(fixture: &serde_json::Value) -> String {
    match fixture["name"].as_str().unwrap() {
        "tiny_text" => "not_tfrecord".into(),
        _ => fixture["damage"]["kind"].as_str().unwrap().into(),
    }
}

#[test]
fn tensorflow_fixtures_are_judged_right() {
    let manifest = manifest();
    for fx in manifest["fixtures"].as_array().unwrap() {
        let name = fx["name"].as_str().unwrap();
        let file = data(fx["file"].as_str().unwrap());
        let (code, doc, err) = json(&[&file]);
        let f = &doc["files"][0];
        if fx["damage"].is_null() {
            assert_eq!((code, err.len()), (0, 0), "{name}: {err:?}");
            assert_eq!(f["intact_records"], fx["intact_records"], "{name}");
            continue;
        }
        let kind = expected_kind(fx);
        if kind == "not_tfrecord" {
            assert_eq!(code, 2, "{name}");
            assert_eq!(f["status"], "unreadable", "{name}");
            assert!(err[0].contains("not a TFRecord file"), "{name}: {err:?}");
            continue;
        }
        assert_eq!(code, 1, "{name}: {err:?}");
        let faults = f["faults"].as_array().unwrap();
        let intact = f["intact_records"].as_u64().unwrap();
        let want_intact = fx["intact_records"].as_u64().unwrap();
        if kind == "corrupt_compressed" {
            // TensorFlow inflates whole buffers and loses what precedes a bad
            // block or trailer; tfr keeps every record that checks.
            assert!(
                faults.iter().any(|x| x["kind"] == "corrupt_compressed"),
                "{name}: {faults:?}"
            );
            assert!(intact >= want_intact, "{name}: {intact} < {want_intact}");
            continue;
        }
        assert_eq!(faults[0]["kind"], kind.as_str(), "{name}: {faults:?}");
        assert_eq!(faults[0]["record"], fx["damage"]["record"], "{name}");
        assert_eq!(faults[0]["offset"], fx["damage"]["offset"], "{name}");
        assert_eq!(intact, want_intact, "{name}");
    }
}

/// `--payloads` flags exactly the records TensorFlow's C++ parser rejects
/// or reads differently from protobuf, as TensorFlow itself judged them
/// (the expected files' `tf_parser`, from tests/oracle/gen_fixtures.py):
/// every case of payloads_noncanonical.tfrecord, none of the canonical
/// fixtures.
#[test]
fn payloads_flags_what_tensorflow_reads_differently() {
    let mut checked = 0;
    let mut flagged_total = 0;
    for f in manifest()["fixtures"].as_array().unwrap() {
        if !f["damage"].is_null() {
            continue;
        }
        let Some(exp) = expected(f) else { continue };
        let Some(verdicts) = exp["tf_parser"].as_array() else {
            continue;
        };
        let name = f["name"].as_str().unwrap();
        let want: Vec<usize> = verdicts
            .iter()
            .enumerate()
            .filter(|(_, v)| v.as_str() != Some("same"))
            .map(|(i, _)| i)
            .collect();
        let ran = tfr(&["verify-crc", "--payloads", "--json", &data(f["file"].as_str().unwrap())]).run();
        let report: serde_json::Value = serde_json::from_str(&ran.stdout_str()).unwrap();
        let file = &report["files"][0];
        let got: Vec<usize> = file["payload_issues"]
            .as_array()
            .map(|a| a.iter().map(|p| p["record"].as_u64().unwrap() as usize).collect())
            .unwrap_or_default();
        if got != want {
            let cases = f["cases"].as_array();
            let label = |i: &usize| cases.map_or(i.to_string(), |c| format!("{i} {}", c[*i]));
            panic!(
                "{name}: flagged {:?}, TensorFlow: {:?}",
                got.iter().map(label).collect::<Vec<_>>(),
                want.iter().map(label).collect::<Vec<_>>()
            );
        }
        assert_eq!(ran.code, if want.is_empty() { 0 } else { 1 }, "{name}: {}", ran.stderr);
        assert_eq!(
            ran.stderr.lines().count(),
            want.len(),
            "{name}: one line per record: {}",
            ran.stderr
        );
        flagged_total += want.len();
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fixtures");
    assert!(flagged_total >= 30, "only {flagged_total} records flagged");
}

/// A record TensorFlow rejects for a feature's first byte ("Unsupported
/// datatype") names the feature, as every other per-feature reason does.
#[test]
fn a_bad_datatype_names_its_feature() {
    let ran = tfr(&["verify-crc", "--payloads", &data("payloads_noncanonical.tfrecord")]).run();
    let lines: Vec<&str> = ran
        .stderr
        .lines()
        .filter(|l| l.contains("first byte is not a list tag"))
        .collect();
    assert!(lines.len() >= 2, "{}", ran.stderr);
    for line in lines {
        assert!(
            line.contains("rejects it: feature \"x\": a Feature whose first byte"),
            "{line}"
        );
    }
}

/// A SequenceExample file whose first record has only a context (byte for
/// byte an Example) is still checked as SequenceExamples once a record has
/// feature_lists: its second record has a step in two packed chunks, which
/// tf.io.parse_sequence_example rejects ("Error in sequence feature s").
#[test]
fn payloads_take_a_file_for_sequences_when_a_later_record_has_feature_lists() {
    let context_only: &[u8] = b"\x0a\x0c\x0a\x0a\x0a\x01c\x12\x05\x1a\x03\x0a\x01\x01";
    let mut two_chunks = context_only.to_vec();
    two_chunks.extend_from_slice(b"\x12\x11\x0a\x0f\x0a\x01s\x12\x0a\x0a\x08\x1a\x06\x0a\x01\x01\x0a\x01\x02");
    let dir = Dir::new();
    dir.write("seq.tfrecord", &records(&[context_only, &two_chunks, context_only]));
    for ty in [None, Some("sequence")] {
        let mut args = vec!["verify-crc", "--payloads", "--json", "seq.tfrecord"];
        if let Some(t) = ty {
            args.extend(["--type", t]);
        }
        let ran = dir.tfr(&args).run();
        assert_eq!(ran.code, 1, "{ty:?}: {}", ran.stderr);
        let report: serde_json::Value = serde_json::from_str(&ran.stdout_str()).unwrap();
        let issues = report["files"][0]["payload_issues"].as_array().unwrap();
        assert_eq!(issues.len(), 1, "{ty:?}: {issues:?}");
        assert_eq!(issues[0]["record"], 1);
        assert_eq!(issues[0]["verdict"], "rejects", "{issues:?}");
    }
    // --type says what --payloads checks, and only with it.
    let err = dir
        .tfr(&["verify-crc", "--type", "sequence", "seq.tfrecord"])
        .run()
        .fails(2);
    assert!(err.contains("--payloads"), "{err}");
    let raw = dir
        .tfr(&["verify-crc", "--payloads", "--type", "raw", "seq.tfrecord"])
        .run();
    assert_eq!(raw.code, 0, "{}", raw.stderr);
    raw.stderr_has("payloads not checked: --type raw");
}

/// Regression (issue 27, item 7): `verify-crc --payloads --max-record-size 1`
/// on records TensorFlow rejects said "all intact", exit 0: payloads over
/// the limit were streamed for their CRCs and never checked. Each is now
/// said not to be checked, naming the flag, and the verdict is exit 1.
#[test]
fn payloads_over_max_record_size_are_reported_not_checked() {
    let dir = Dir::new();
    // Not Examples for protobuf (a truncated varint field), rejected by TF.
    dir.write("bad.tfrecord", &records(&[b"\x08", b"\x08\xff"]));
    let ran = dir
        .tfr(&["verify-crc", "--payloads", "--max-record-size", "1", "bad.tfrecord"])
        .run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(!ran.stdout_str().contains("all intact\n"), "{}", ran.stdout_str());
    assert!(
        ran.stdout_str()
            .contains("1 payload not checked (over --max-record-size)"),
        "{}",
        ran.stdout_str()
    );
    assert!(
        ran.stderr
            .contains("record 1 at byte 17: payload not checked: record of 2 bytes, over --max-record-size (1 byte)"),
        "{}",
        ran.stderr
    );
    // Record 0 fits: it is checked (and rejected).
    assert!(
        ran.stderr.contains("record 0 at byte 0: not an Example"),
        "{}",
        ran.stderr
    );
    let json = dir
        .tfr(&[
            "verify-crc",
            "--payloads",
            "--json",
            "--max-record-size",
            "0",
            "bad.tfrecord",
        ])
        .run();
    assert_eq!(json.code, 1);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["total"]["payloads_not_checked"], 2);
    assert_eq!(v["files"][0]["status"], "payloads not checked");
    assert_eq!(v["intact"], false);
    // Without --payloads, CRCs only: nothing is unchecked.
    dir.tfr(&["verify-crc", "--max-record-size", "1", "bad.tfrecord"])
        .run()
        .ok();
}

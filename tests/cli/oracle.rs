//! tfr against TensorFlow's own answers, for every fixture in tests/data
//! (written by tests/oracle/gen_fixtures.py with TensorFlow 2.21).

use crate::util::*;
use serde_json::Value;

fn fixtures() -> Vec<Value> {
    manifest()["fixtures"].as_array().expect("fixtures").clone()
}

/// The phrase tfr prints for a damage kind named in the manifest.
fn phrase(kind: &str) -> &'static str {
    match kind {
        "truncated_header" => "truncated header",
        "truncated_payload" => "truncated payload",
        "length_crc" => "length checksum mismatch",
        "data_crc" => "data checksum mismatch",
        "length_beyond_end" => "beyond the end of input",
        "corrupt_compressed" => "corrupt compressed stream",
        // Reading commands cannot tell garbage from a damaged header without scanning.
        "trailing_garbage" => "length checksum mismatch",
        "not_tfrecord" => "not a TFRecord file",
        other => panic!("unknown damage kind {other}"),
    }
}

#[test]
fn count_equals_tensorflow_on_every_intact_fixture() {
    let mut checked = 0;
    for f in fixtures().iter().filter(|f| f["damage"].is_null()) {
        let path = data(f["file"].as_str().unwrap());
        let out = tfr(&["count", &path]).run().ok();
        assert_eq!(out.trim(), f["tf_records"].to_string(), "{}", f["name"]);
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} intact fixtures");
}

#[test]
fn cat_equals_text_format_on_every_example_fixture() {
    let mut checked = 0;
    for f in fixtures().iter().filter(|f| f["damage"].is_null()) {
        let payload = f["payload"].as_str().unwrap();
        if !matches!(payload, "example" | "sequence" | "elwc") {
            continue;
        }
        let Some(exp) = expected(f) else { continue };
        let texts = exp["text"].as_array().expect("text");
        if texts.iter().any(Value::is_null) {
            // Python cannot parse some record (see bad_utf8_key_is_an_error).
            continue;
        }
        let want: String = texts
            .iter()
            .enumerate()
            .map(|(i, t)| format!("# record {i}\n{}", t.as_str().unwrap()))
            .collect();
        let path = data(f["file"].as_str().unwrap());
        let got = tfr(&["cat", &path]).run().ok();
        if got != want {
            let (g, w): (Vec<_>, Vec<_>) = (got.lines().collect(), want.lines().collect());
            let at = g
                .iter()
                .zip(&w)
                .position(|(a, b)| a != b)
                .unwrap_or(g.len().min(w.len()));
            panic!(
                "{}: first difference at line {}:\n  tfr: {:?}\n  TF:  {:?}",
                f["name"],
                at + 1,
                g.get(at),
                w.get(at)
            );
        }
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} fixtures compared");
}

#[test]
fn raw_cat_prints_every_payload() {
    let mut checked = 0;
    for f in fixtures().iter().filter(|f| f["damage"].is_null()) {
        let Some(exp) = expected(f) else { continue };
        checked += 1;
        let n = exp["payloads_b64"].as_array().unwrap().len();
        let path = data(f["file"].as_str().unwrap());
        let out = tfr(&["cat", "--type", "raw", &path]).run().ok();
        assert_eq!(
            out.lines().filter(|l| l.starts_with("# record ")).count(),
            n,
            "{}",
            f["name"]
        );
    }
    assert!(checked >= 20, "only {checked} fixtures with expected payloads");
}

#[test]
fn every_damaged_fixture_gives_one_line_with_record_and_offset() {
    let mut checked = 0;
    for f in fixtures().iter().filter(|f| !f["damage"].is_null()) {
        let name = f["name"].as_str().unwrap();
        let d = &f["damage"];
        let kind = d["kind"].as_str().unwrap();
        let path = data(f["file"].as_str().unwrap());
        let ran = tfr(&["cat", "--type", "raw", &path]).run();
        let line = ran.fails(2);
        assert_eq!(line.lines().count(), 1, "{name}: {line}");
        assert!(
            line.contains(f["file"].as_str().unwrap()),
            "{name}: file not named: {line}"
        );
        let tiny = name == "tiny_text";
        if tiny {
            // 6 bytes of text: diagnosed, not reported as a truncated header.
            assert!(
                line.contains("not a TFRecord file (only 6 bytes") && line.contains("the input is text"),
                "{name}: {line}"
            );
        } else {
            assert!(line.contains(phrase(kind)), "{name}: expected {kind}: {line}");
        }
        if !matches!(kind, "corrupt_compressed" | "not_tfrecord") && !tiny {
            let at = format!("record {} at byte {}", d["record"], d["offset"]);
            assert!(line.contains(&at), "{name}: expected `{at}`: {line}");
            // Everything before the damage is printed.
            let printed = ran.stdout_str().lines().filter(|l| l.starts_with("# record ")).count();
            assert_eq!(printed as u64, d["record"].as_u64().unwrap(), "{name}");
        }
        if f["tf_compression"] != "" && kind != "not_tfrecord" {
            assert!(
                line.contains("decompressed"),
                "{name}: offset should say decompressed: {line}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} damaged fixtures");
}

#[test]
fn huge_length_fixture_fails_fast() {
    let f = fixtures()
        .into_iter()
        .find(|f| f["name"] == "huge_length")
        .expect("huge_length fixture");
    assert_eq!(f["tf_signal"], "SIGSEGV", "TensorFlow crashes on this one");
    let start = std::time::Instant::now();
    let line = tfr(&["count", &data(f["file"].as_str().unwrap())]).run().fails(2);
    assert!(line.contains("beyond the end of input"), "{line}");
    assert!(start.elapsed().as_secs_f64() < 2.0);
}

/// Python protobuf refuses a feature key that is not UTF-8; so does tfr,
/// naming the record, unless asked for raw payloads.
#[test]
fn bad_utf8_key_is_an_error() {
    let f = fixtures()
        .into_iter()
        .find(|f| f["name"] == "bad_utf8_key")
        .expect("bad_utf8_key fixture");
    let exp = expected(&f).unwrap();
    let bad = exp["text"]
        .as_array()
        .unwrap()
        .iter()
        .position(Value::is_null)
        .expect("a record Python rejects");
    let path = data(f["file"].as_str().unwrap());
    let ran = tfr(&["cat", &path]).run();
    let line = ran.fails(2);
    assert!(
        line.contains(&format!("record {bad} ")) && line.contains("UTF-8"),
        "{line}"
    );
    assert!(ran
        .stdout_str()
        .starts_with(&format!("# record 0\n{}", exp["text"][0].as_str().unwrap())));
    tfr(&["cat", "--type", "raw", &path]).run().ok();
}

//! ExampleListWithContext (`--type elwc`) as a user meets it: TF-Ranking's
//! files print, convert and describe without a flag; JSON lines come back
//! as ELWC payloads. (tests/oracle.rs and jsonl.rs compare the text and
//! protojson of the ELWC fixtures with Python protobuf's.)

use crate::util::*;
use serde_json::Value;

#[test]
fn ranking_files_are_recognised_and_never_print_garbage() {
    let path = data("ranking_elwc.tfrecord");
    let auto = tfr(&["head", "-n", "1", &path]).run().ok();
    assert_eq!(auto, tfr(&["head", "-n", "1", "--type", "elwc", &path]).run().ok());
    assert!(auto.starts_with("# record 0\nexamples {\n  features {\n"), "{auto}");
    assert!(auto.contains("context {"), "{auto}");
    assert!(!auto.contains("\\n"), "nested protobuf printed as names: {auto}");
    // Read as a SequenceExample, names are nested protobuf: what auto avoids.
    let forced = tfr(&["head", "-n", "1", "--type", "sequence", &path]).run().ok();
    assert!(forced.contains("key: \"\\n"), "{forced}");
}

#[test]
fn natural_lines_round_trip_and_are_detected() {
    let dir = Dir::new();
    let path = data("ranking_elwc.tfrecord");
    let lines = tfr(&["to-jsonl", &path]).run().ok();
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["context"]["query_tokens"][0], "this");
    assert_eq!(first["examples"].as_array().unwrap().len(), 2);
    assert_eq!(first["examples"][0]["relevance"], serde_json::json!([1]));
    dir.tfr(&["from-jsonl", "-o", "back.tfrecord"])
        .stdin(lines.as_bytes())
        .run()
        .ok();
    assert_eq!(
        std::fs::read(dir.path("back.tfrecord")).unwrap(),
        std::fs::read(&path).unwrap()
    );
    // Hand-written lines; null is an Example without features.
    let hand = "{\"examples\": [{\"doc\": [\"a\"], \"rel\": [1]}, null], \"context\": {\"q\": [\"pizza\"]}}\n\
                {\"examples\": []}\n";
    dir.tfr(&["from-jsonl", "-o", "hand.tfrecord"])
        .stdin(hand.as_bytes())
        .run()
        .ok();
    let text = dir.tfr(&["cat", "--type", "elwc", "hand.tfrecord"]).run().ok();
    let want = "# record 0\nexamples {\n  features {\n    feature {\n      key: \"doc\"\n      value {\n        bytes_list {\n          value: \"a\"\n        }\n      }\n    }\n    feature {\n      key: \"rel\"\n      value {\n        int64_list {\n          value: 1\n        }\n      }\n    }\n  }\n}\nexamples {\n}\ncontext {\n  features {\n    feature {\n      key: \"q\"\n      value {\n        bytes_list {\n          value: \"pizza\"\n        }\n      }\n    }\n  }\n}\n# record 1\n";
    assert_eq!(text, want);
    // A key an ELWC does not have is named.
    let err = dir
        .tfr(&["from-jsonl", "--type", "elwc", "-o", "bad.tfrecord"])
        .stdin(b"{\"examples\": [], \"label\": [1]}\n")
        .run()
        .fails(2);
    assert!(err.contains("only \"context\" and \"examples\""), "{err}");
}

#[test]
fn projection_applies_to_context_and_examples() {
    let path = data("ranking_elwc.tfrecord");
    let out = tfr(&["to-jsonl", "-n", "1", "--features", "relevance,query_tokens", &path])
        .run()
        .ok();
    let line: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(line["context"]["query_tokens"].is_array());
    assert!(line["examples"][0]["relevance"].is_array());
    assert!(line["examples"][0].get("document_tokens").is_none(), "{out}");
}

#[test]
fn schema_counts_context_per_record_and_examples_per_example() {
    let path = data("elwc_edge.tfrecord");
    let json: Value = serde_json::from_str(&tfr(&["schema", "-f", "json", &path]).run().ok()).unwrap();
    assert_eq!(json["type"], "elwc");
    assert_eq!(json["records"], 7);
    assert_eq!(json["examples_scanned"], 8);
    assert_eq!(json["context"]["query"]["present"], 4);
    assert_eq!(json["context"]["query"]["missing"], 3);
    assert_eq!(json["examples"]["cuisine"]["present"], 5);
    assert_eq!(json["examples"]["cuisine"]["missing"], 3);
    assert_eq!(json["examples"]["score"]["float"]["nan"], 2);
    let table = tfr(&["schema", &path]).run().ok();
    assert!(
        table.contains("7 records of tensorflow.serving.ExampleListWithContext, 8 examples"),
        "{table}"
    );
    assert!(
        table.contains("2 context features") && table.contains("5 example features"),
        "{table}"
    );
    let spec = tfr(&["schema", "-f", "tf", &data("ranking_elwc.tfrecord")]).run().ok();
    assert!(
        spec.contains("context_feature_spec = {\n    \"query_tokens\": tf.io.FixedLenFeature([5], tf.string),"),
        "{spec}"
    );
    assert!(
        spec.contains("\"relevance\": tf.io.FixedLenFeature([], tf.int64),"),
        "{spec}"
    );
    assert!(spec.contains("tfr.data.parse_from_example_list("), "{spec}");
    // The JSON schema forces kinds when ELWC lines are converted back.
    let dir = Dir::new();
    let schema = dir.write("s.json", tfr(&["schema", "-f", "json", &path]).run().ok().as_bytes());
    let line = "{\"context\": {\"query_id\": [7]}, \"examples\": [{\"score\": [1]}]}\n";
    dir.tfr(&["from-jsonl", "--schema", &schema, "-o", "f.tfrecord"])
        .stdin(line.as_bytes())
        .run()
        .ok();
    let back = dir.tfr(&["to-jsonl", "f.tfrecord"]).run().ok();
    assert_eq!(
        back,
        "{\"context\":{\"query_id\":[7]},\"examples\":[{\"score\":[1.0]}]}\n"
    );
}

/// Found by review: an Example (or SequenceExample) whose names hold
/// control characters stays one (the ELWC reading of it has unknown
/// fields); an ELWC whose context is present but empty, or whose first
/// record has no examples, comes back through both JSON forms.
#[test]
fn odd_names_stay_examples_and_edge_elwc_lines_round_trip() {
    let dir = Dir::new();
    for line in [
        "{\"\\n user_country_code_from_ip_lookup\":[42]}\n",
        "{\"context\":{\"\\n\\u0001a\":[1]},\"feature_lists\":{\"\\n\\u0001b\":[[2]]}}\n",
    ] {
        dir.tfr(&["from-jsonl", "-o", "odd.tfrecord"])
            .stdin(line.as_bytes())
            .run()
            .ok();
        assert_eq!(dir.tfr(&["to-jsonl", "odd.tfrecord"]).run().ok(), line);
    }
    // Context present but empty: natural null.
    let lines = "{\"context\":null,\"examples\":[{\"x\":[1]}]}\n";
    dir.tfr(&["from-jsonl", "-o", "c.tfrecord"])
        .stdin(lines.as_bytes())
        .run()
        .ok();
    assert_eq!(dir.tfr(&["to-jsonl", "--type", "elwc", "c.tfrecord"]).run().ok(), lines);
    // First record without examples: protojson leaves "examples" out.
    let natural = "{\"context\":{\"q\":[1]}}\n".to_string() + "{\"context\":{\"q\":[2]},\"examples\":[{\"d\":[3]}]}\n";
    dir.tfr(&["from-jsonl", "--type", "elwc", "-o", "e.tfrecord"])
        .stdin(natural.as_bytes())
        .run()
        .ok();
    let proto = dir
        .tfr(&["to-jsonl", "--type", "elwc", "-f", "protojson", "e.tfrecord"])
        .run()
        .ok();
    assert!(proto.starts_with("{\"context\": {\"features\""), "{proto}");
    dir.tfr(&["from-jsonl", "-f", "protojson", "-o", "back.tfrecord"])
        .stdin(proto.as_bytes())
        .run()
        .ok();
    assert_eq!(
        std::fs::read(dir.path("back.tfrecord")).unwrap(),
        std::fs::read(dir.path("e.tfrecord")).unwrap()
    );
}

/// A file whose first record is empty is taken for Examples; a later
/// ELWC record (its context is field 2) stops with a hint naming
/// `--type elwc`, which then reads it.
#[test]
fn an_elwc_after_an_empty_first_record_suggests_type_elwc() {
    let dir = Dir::new();
    // One example with `a: [1]`, an empty context.
    let elwc: &[u8] = b"\x0a\x0e\x0a\x0c\x0a\x0a\x0a\x01a\x12\x05\x1a\x03\x0a\x01\x01\x12\x00";
    let path = dir.write("x.tfrecord", &records(&[b"", elwc]));
    let err = tfr(&["cat", &path]).run().fails(2);
    assert!(err.contains("--type elwc if it holds ExampleListWithContext"), "{err}");
    tfr(&["cat", "--type", "elwc", &path]).run().ok();
    // verify-crc --payloads takes the file for ELWC (unchecked), not for
    // Examples it would call rejected.
    let ran = tfr(&["verify-crc", "--payloads", &path]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("payloads not checked: the file holds ExampleListWithContext"),
        "{}",
        ran.stderr
    );
}

//! Unit tests of the JSON-lines encoder.

use super::*;

fn encode(ty: MessageType, line: &str) -> Result<Vec<u8>, LineError> {
    let mut out = b"keep".to_vec();
    let r = Encoder::new(JsonFormat::Natural, None).encode(ty, line.as_bytes(), &mut out);
    match r {
        Ok(()) => Ok(out[4..].to_vec()),
        Err(e) => {
            assert_eq!(out, b"keep", "output left as it was");
            Err(e)
        }
    }
}

#[test]
fn encodes_like_upb() {
    // Bytes from Python protobuf 7.36.2 (see tests/data/README.md).
    let ex = |l| encode(MessageType::Example, l).unwrap();
    assert_eq!(
        ex(r#"{"": [5]}"#),
        [0x0a, 0x0b, 0x0a, 0x09, 0x0a, 0x00, 0x12, 0x05, 0x1a, 0x03, 0x0a, 0x01, 0x05]
    );
    assert_eq!(ex(r#"{"": null}"#), [0x0a, 0x06, 0x0a, 0x04, 0x0a, 0x00, 0x12, 0x00]);
    assert_eq!(
        ex(r#"{"k": {"int64_list": []}}"#),
        [0x0a, 0x09, 0x0a, 0x07, 0x0a, 0x01, b'k', 0x12, 0x02, 0x1a, 0x00]
    );
    assert_eq!(ex("{}"), [0x0a, 0x00]);
    assert_eq!(ex("null"), b"");
    let seq = encode(
        MessageType::SequenceExample,
        r#"{"context": {}, "feature_lists": {"x": []}}"#,
    )
    .unwrap();
    assert_eq!(seq, [0x0a, 0x00, 0x12, 0x07, 0x0a, 0x05, 0x0a, 0x01, b'x', 0x12, 0x00]);
}

#[test]
fn detects_the_message_type() {
    let d = |l: &str| detect(JsonFormat::Natural, l.as_bytes());
    assert_eq!(d(r#"{"feature_lists": {}}"#), MessageType::SequenceExample);
    assert_eq!(
        d(r#"{"context": {"a": [1]}, "feature_lists": {"b": [[1]]}}"#),
        MessageType::SequenceExample
    );
    // Regression: to-jsonl -t sequence of a record without feature_lists
    // did not read back.
    assert_eq!(d(r#"{"context": {"a": [1]}}"#), MessageType::SequenceExample);
    assert_eq!(d(r#"{"context": {}}"#), MessageType::SequenceExample);
    assert_eq!(d(r#"{"context": {"int64_list": [1]}}"#), MessageType::Example);
    assert_eq!(d(r#"{"context": {"base64": "AA=="}}"#), MessageType::Example);
    assert_eq!(d(r#"{"context": [1]}"#), MessageType::Example);
    assert_eq!(d(r#"{"context": {"a": [1]}, "b": [2]}"#), MessageType::Example);
    assert_eq!(d(r#"{"feature_lists": {}, "label": [1]}"#), MessageType::Example);
    assert_eq!(d(r#"{"feature_lists": [1]"#), MessageType::Example);
    assert_eq!(d("null"), MessageType::Example);
    // ExampleListWithContext.
    assert_eq!(
        d(r#"{"context": {"q": ["a"]}, "examples": [{"d": [1]}, null]}"#),
        MessageType::Elwc
    );
    assert_eq!(d(r#"{"examples": []}"#), MessageType::Elwc);
    assert_eq!(d(r#"{"examples": [null]}"#), MessageType::Elwc);
    assert_eq!(d(r#"{"context": null, "examples": [{"x": [1]}]}"#), MessageType::Elwc);
    assert_eq!(d(r#"{"context": null}"#), MessageType::Example);
    assert_eq!(d(r#"{"examples": [{"base64": "AA=="}]}"#), MessageType::Example);
    assert_eq!(d(r#"{"examples": ["text"]}"#), MessageType::Example);
    assert_eq!(d(r#"{"examples": [{"a": [1]}], "label": [1]}"#), MessageType::Example);
    assert_eq!(
        d(r#"{"examples": [{"a": [1]}], "feature_lists": {}}"#),
        MessageType::Example
    );
    let p = |l: &str| detect(JsonFormat::Protojson, l.as_bytes());
    assert_eq!(p(r#"{"examples": [{}], "context": {}}"#), MessageType::Elwc);
    assert_eq!(p(r#"{"context": {"features": {"feature": {}}}}"#), MessageType::Elwc);
    assert_eq!(p(r#"{"context": {"feature": {}}}"#), MessageType::SequenceExample);
    assert_eq!(p(r#"{"context": {}}"#), MessageType::SequenceExample);
    assert_eq!(p(r#"{"featureLists": {}}"#), MessageType::SequenceExample);
    assert_eq!(p(r#"{"features": {}}"#), MessageType::Example);
    // Deep nesting does not overflow the stack.
    let deep = format!("{{\"feature_lists\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(d(&deep), MessageType::Example);
}

#[test]
fn json_grammar_is_strict() {
    for bad in [
        "{\"a\": [+1]}",
        "{\"a\": [.5]}",
        "{\"a\": [1.]}",
        "{\"a\": [1e]}",
        "{\"a\": [0x1]}",
        "{\"a\": [NaN]}",
        "{'a': [1]}",
        "{\"a\": [1],}",
        "{\"a\": \"\\u12\"}",
        "{\"a\": [1]}}",
    ] {
        assert!(encode(MessageType::Example, bad).is_err(), "{bad} accepted");
        assert!(serde_json::from_str::<serde_json::Value>(bad).is_err(), "{bad} is JSON");
    }
    for good in [
        "{\"a\": [1E+2, -0, 0.5e-3]}",
        " {\"a\":[\"\\/\\b\\f\"]}\t",
        "{\"a\": \"\\uD83D\\uDE00\"}",
    ] {
        assert!(encode(MessageType::Example, good).is_ok(), "{good} rejected");
    }
}

#[test]
fn varint_lengths() {
    for (v, n) in [
        (0u64, 1),
        (127, 1),
        (128, 2),
        (16383, 2),
        (16384, 3),
        (u64::MAX, 10),
        (1 << 63, 10),
    ] {
        assert_eq!(varint_len(v), n, "{v}");
        let mut out = Vec::new();
        put_varint(&mut out, v);
        assert_eq!(out.len(), n);
    }
}

#[test]
fn schema_reads_only_kinds() {
    let s = Schema::parse(
        r#"{"type": "sequence", "context": {"a": {"kind": "int64", "min": 1}}, "feature_lists": {"b": {"kind": ["float", "bytes"]}, "c": {"kind": "bytes"}}, "other": 1}"#,
    )
    .unwrap();
    assert_eq!(s.message, Some(MessageType::SequenceExample));
    assert_eq!(s.context.get("a"), Some(&Kind::Int64));
    assert_eq!(s.feature_lists.get("b"), None);
    assert_eq!(s.feature_lists.get("c"), Some(&Kind::Bytes));
    assert!(Schema::parse("[1]").is_err());
    assert!(Schema::parse(r#"{"features": 5}"#).is_err());
}

/// protojson keys given twice in one JSON object are refused, as Python's
/// json_format refuses them ("duplicate key"); a field under its JSON name
/// and under its proto name is two keys, which it takes. Each line's verdict
/// here is json_format.Parse's (TensorFlow 2.21's protobuf).
#[test]
fn protojson_refuses_duplicate_keys_as_json_format_does() {
    let cases: [(MessageType, &str, bool); 13] = [
        (
            MessageType::Example,
            r#"{"features": {"feature": {"a": {"int64List": {"value": ["1"]}}}}}"#,
            true,
        ),
        (
            MessageType::Example,
            r#"{"features": {"feature": {}}, "features": {}}"#,
            false,
        ),
        (MessageType::Example, r#"{"features": null, "features": {}}"#, false),
        (
            MessageType::Example,
            r#"{"features": {"feature": {"a": {}, "b": {}, "a": {}}}}"#,
            false,
        ),
        (
            MessageType::Example,
            r#"{"features": {"feature": {"a\u0062": {}, "ab": {}}}}"#,
            false,
        ),
        (
            MessageType::Example,
            r#"{"features": {"feature": {}, "feature": {}}}"#,
            false,
        ),
        (
            MessageType::Example,
            r#"{"features": {"feature": {"a": {"int64List": {"value": ["1"], "value": ["2"]}}}}}"#,
            false,
        ),
        (
            MessageType::Example,
            r#"{"features": {"feature": {"a": {"int64List": {"value": ["1"]}, "int64List": null}}}}"#,
            false,
        ),
        (
            MessageType::Example,
            r#"{"features": {"feature": {"a": {"int64List": null, "int64_list": {"value": ["2"]}}}}}"#,
            true,
        ),
        (
            MessageType::Example,
            r#"{"features": {"feature": {"a": {"floatList": null, "int64List": {"value": ["2"]}}}}}"#,
            true,
        ),
        (
            MessageType::SequenceExample,
            r#"{"featureLists": {"featureList": {}}, "feature_lists": {"featureList": {}}}"#,
            true,
        ),
        (
            MessageType::SequenceExample,
            r#"{"featureLists": {"featureList": {"a": {"feature": []}}, "feature_list": {"a": {"feature": []}}}}"#,
            true,
        ),
        (
            MessageType::SequenceExample,
            r#"{"context": {}, "context": null}"#,
            false,
        ),
    ];
    for (ty, line, accepted) in cases {
        let got = Encoder::new(JsonFormat::Protojson, None).encode(ty, line.as_bytes(), &mut Vec::new());
        assert_eq!(got.is_ok(), accepted, "{line}: {got:?}");
        if let Err(e) = got {
            assert!(e.to_string().contains("given twice"), "{line}: {e}");
        }
    }
}

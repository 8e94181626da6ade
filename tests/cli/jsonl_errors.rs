//! from-jsonl's errors: one line, LINE:COLUMN key: reason, nothing
//! written (jsonl.rs has the JSONL mapping itself).

use crate::util::*;

// ---------------------------------------------------------------------------
// Errors: one line, LINE:COLUMN key: reason, nothing written
// ---------------------------------------------------------------------------

#[test]
fn bad_lines_are_reported_with_line_column_and_key() {
    let cases = [
        (r#"{"a": {"b": 1}}"#, "1:7 a: nested object"),
        (r#"{"a": [[1]]}"#, "1:8 a: nested array"),
        (
            r#"{"a": [1, {"b": 2}]}"#,
            "1:11 a: nested object: the only object in a list is {\"base64\": \"...\"}",
        ),
        (
            r#"{"a": [99999999999999999999]}"#,
            "1:8 a: integer 99999999999999999999 is outside the int64 range",
        ),
        (
            r#"{"a": [-9223372036854775809]}"#,
            "1:8 a: integer -9223372036854775809 is outside the int64 range",
        ),
        (
            r#"{"a": {"int64_list": [1, 1.5]}}"#,
            "1:26 a: float 1.5 in an int64_list",
        ),
        (r#"{"a": {"bytes_list": [1]}}"#, "1:23 a: integer in a bytes_list"),
        (
            r#"{"a": {"float_list": ["x"]}}"#,
            "1:23 a: string in a float_list (the only strings there are \"NaN\", \"Infinity\", \"-Infinity\")",
        ),
        (r#"{"a": [1, "x"]}"#, "1:11 a: string \"x\" in a list of numbers"),
        (
            r#"{"a": [1, {"base64": "AA=="}]}"#,
            "1:11 a: {\"base64\"} value in a list of numbers",
        ),
        (r#"{"a": {"base64": "a!b="}}"#, "1:18 a: bad base64: '!' at offset 1"),
        (
            r#"{"a": {"base64": 5}}"#,
            "1:18 a: the value of \"base64\" must be a string",
        ),
        (r#"{"a": []}"#, "1:7 a: empty list: its kind is unknown"),
        (r#"{"a": [1e39]}"#, "1:8 a: 1e39 is outside the float32 range"),
        (r#"{"a": [null]}"#, "1:8 a: null in a list"),
        (r#"{"a": "\ud800"}"#, "1:8 a: lone surrogate \\ud800 is not Unicode"),
        (r#"{"a": "\x"}"#, "1:9 a: bad escape"),
        (r#"{"a": 01}"#, "1:7 a: invalid number"),
        (r#"{"a": tru}"#, "1:7 a: expected a value"),
        (r#"{"a": [1,]}"#, "1:10 a: expected a value"),
        (r#"{"a": [1] "b": 2}"#, "1:11: expected ',' or '}'"),
        (r#"{"a": [1]"#, "1:10: unexpected end of line: expected ',' or '}'"),
        (
            r#"{"a": [1]} x"#,
            "1:12: unexpected characters after the record's JSON value",
        ),
        (r#"[1, 2]"#, "1:1: expected an Example: a JSON object"),
        (r#"{a: 1}"#, "1:2: expected a key (a JSON string)"),
        (r#"{"a b": {"x": 1}}"#, "1:9 \"a b\": nested object"),
        (r#"{"ключ": ["é", 1]}"#, "1:11 ключ: string \"é\" in a list of numbers"),
        (
            r#"{"feature_lists": {"f": [[1], {"q": 1}]}}"#,
            "1:31 feature_lists.f[1]: nested object",
        ),
        (
            r#"{"context": {"c": []}, "feature_lists": {}}"#,
            "1:19 context.c: empty list",
        ),
        (
            r#"{"feature_lists": {"f": 5}}"#,
            "1:25 feature_lists.f: a feature list is an array of features",
        ),
        (
            r#"{"feature_lists": {}, "x": [1]}"#,
            "1:23: unknown key x: a SequenceExample has only",
        ),
    ];
    let dir = Dir::new();
    for (line, want) in cases {
        // Good lines first: the bad one is line 3 after a blank line.
        let good = if line.starts_with("{\"context\"") || line.starts_with("{\"feature_lists\"") {
            "{\"feature_lists\": {\"ok\": [1]}}"
        } else {
            "{\"ok\": 1}"
        };
        let input = format!("{good}\n\n{line}\n{good}\n");
        let src = dir.write("in.jsonl", input.as_bytes());
        dir.write("out.tfrecord", b"old");
        let got = dir.tfr(&["from-jsonl", &src, "-o", "out.tfrecord"]).run().fails(2);
        let want = format!("tfr: {src}:{}", want.replacen("1:", "3:", 1));
        assert!(got.starts_with(&want), "input {line}\n got: {got}\nwant: {want}...");
        assert_eq!(got.lines().count(), 1, "{got}");
        assert_eq!(
            std::fs::read(dir.path("out.tfrecord")).unwrap(),
            b"old",
            "output touched by {line}"
        );
    }
    let left: Vec<_> = std::fs::read_dir(dir.path(""))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "temporary files left: {left:?}");
}

/// Invalid UTF-8 in the input is an error at its column.
#[test]
fn invalid_utf8_is_an_error() {
    let dir = Dir::new();
    let line = dir
        .tfr(&["from-jsonl", "-o", "x.tfrecord"])
        .stdin(b"{\"a\": [\"ok\", \"b\xffd\"]}\n")
        .run()
        .fails(2);
    assert_eq!(line, "tfr: <stdin>:1:16 a: invalid UTF-8");
    assert!(!dir.path("x.tfrecord").exists());
}

/// The error names the right line deep into a large input (batches are
/// encoded in parallel), and no output file appears.
#[test]
fn error_line_numbers_hold_across_batches() {
    let dir = Dir::new();
    let mut input = String::new();
    for i in 0..40_000 {
        if i == 31_234 {
            input.push_str("{\"label\": [1, \"x\"]}\n");
        } else if i % 1000 == 0 {
            input.push('\n');
        } else {
            input.push_str(&format!("{{\"label\": [{i}], \"name\": \"record number {i}\"}}\n"));
        }
    }
    let src = dir.write("big.jsonl", input.as_bytes());
    let line = dir.tfr(&["from-jsonl", &src, "-o", "big.tfrecord"]).run().fails(2);
    assert_eq!(
        line,
        format!("tfr: {src}:31235:15 label: string \"x\" in a list of numbers")
    );
    assert!(!dir.path("big.tfrecord").exists());
}

/// A TFRecord file given to from-jsonl says so.
#[test]
fn binary_input_gets_a_hint() {
    let dir = Dir::new();
    let line = dir
        .tfr(&["from-jsonl", &data("notebook.tfrecord"), "-o", "x"])
        .run()
        .fails(2);
    assert!(
        line.contains("notebook.tfrecord:1:1: ") && line.contains("`tfr to-jsonl` reads those"),
        "{line}"
    );
}

#[test]
fn endless_binary_input_fails_at_once() {
    // /dev/zero has no newline: reading "the first line" to its end would
    // never finish (and fill memory); a NUL byte is never JSON text.
    let dir = Dir::new();
    let out = dir.path("x.tfrecord");
    let err = tfr(&["from-jsonl", "/dev/zero", "-o", out.to_str().unwrap()])
        .run_within(30)
        .fails(2);
    assert!(
        err.contains("/dev/zero:1:1: ") && err.contains("not JSON text"),
        "{err}"
    );
    assert!(!dir.path("x.tfrecord").exists());

    // A NUL further into a line is reported where it is.
    let mut input = b"{\"a\": [1]}\n{\"a\": [2]".to_vec();
    input.extend_from_slice(&[0; 3_000_000]);
    let line = tfr(&["from-jsonl", "-o", "-"]).stdin(&input).run().fails(2);
    assert!(line.contains("<stdin>:2:10: "), "{line}");
}

#[test]
fn output_is_required_and_stdout_works() {
    let ran = tfr(&["from-jsonl"]).stdin(b"{}\n").run();
    assert_eq!(ran.code, 2);
    let ran = tfr(&["from-jsonl", "-o", "-"]).stdin(b"{\"a\": 1}\n").run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    // Example{features{feature{key: "a" value{int64_list{value: 1}}}}}, as upb writes it.
    assert_eq!(
        ran.stdout,
        records(&[b"\x0a\x0c\x0a\x0a\x0a\x01a\x12\x05\x1a\x03\x0a\x01\x01"])
    );
}

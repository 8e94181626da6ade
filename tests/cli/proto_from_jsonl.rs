//! `tfr from-jsonl --message`: JSON lines of any protobuf message back to
//! records, byte for byte what Python protobuf 7 gives for each line:
//! `json_format.Parse(line, msg, descriptor_pool=POOL)` then
//! `msg.SerializeToString(deterministic=True)` (deterministic: upb's plain
//! serialization writes map entries in hash order). The references in
//! tests/data/proto/expected/*from_json*.txt were written by
//! tests/oracle/proto_from_json.py (one line per input line: the bytes in
//! hex, or `ERROR ...`); the ignored test at the end runs it live.

use crate::util::*;
use std::path::PathBuf;

/// tests/data/proto.
fn proto_dir() -> PathBuf {
    data_dir().join("proto")
}

/// A path in tests/data/proto.
fn proto(name: &str) -> String {
    proto_dir().join(name).to_string_lossy().into_owned()
}

/// tests/data/proto/NAME as text.
fn read(name: &str) -> String {
    let path = proto_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A reference: per line, `Ok(bytes)` or `Err(Python's error)`.
fn reference(text: &str) -> Vec<Result<Vec<u8>, String>> {
    text.lines()
        .map(|l| match l.strip_prefix("ERROR ") {
            Some(e) => Err(e.to_string()),
            None => Ok(hex(l)),
        })
        .collect()
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The payloads of a TFRecord file (no compression; CRCs not checked).
fn payloads(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        out.push(bytes[at + 12..at + 12 + len].to_vec());
        at += 12 + len + 4;
    }
    out
}

/// `tfr from-jsonl --descriptor-set PB --message NAME` of `lines`: the
/// payloads written.
fn from_jsonl(dir: &Dir, pb: &str, message: &str, lines: &[&str]) -> Vec<Vec<u8>> {
    let input = dir.write("in.jsonl", (lines.join("\n") + "\n").as_bytes());
    let out = dir.path("out.tfrecord").to_string_lossy().into_owned();
    let flags = [
        "from-jsonl",
        "--descriptor-set",
        &proto(pb),
        "--message",
        message,
        &input,
        "-o",
        &out,
    ];
    tfr(&flags).run().ok();
    payloads(&std::fs::read(&out).unwrap())
}

/// The lines of `jsonl` Python reads, converted by tfr, are Python's
/// bytes; each line Python refuses, tfr refuses too (exit 2 naming it).
fn check_lines(pb: &str, message: &str, jsonl: &str, expected: &str) {
    let dir = Dir::new();
    let lines: Vec<&str> = jsonl.lines().filter(|l| !l.trim().is_empty()).collect();
    let want = reference(expected);
    assert_eq!(lines.len(), want.len(), "{jsonl:?}");
    let good: Vec<&str> = lines
        .iter()
        .zip(&want)
        .filter(|(_, w)| w.is_ok())
        .map(|(l, _)| *l)
        .collect();
    let got = from_jsonl(&dir, pb, message, &good);
    let wanted: Vec<&Vec<u8>> = want.iter().filter_map(|w| w.as_ref().ok()).collect();
    assert_eq!(got.len(), wanted.len());
    for ((line, g), w) in good.iter().zip(&got).zip(&wanted) {
        assert_eq!(g, *w, "{message}: {line}");
    }
    for (line, w) in lines.iter().zip(&want) {
        let Err(python) = w else { continue };
        let input = dir.write(
            "bad.jsonl",
            format!("{}\n{line}\n", good.first().unwrap_or(&"{}")).as_bytes(),
        );
        let out = dir.path("bad.tfrecord").to_string_lossy().into_owned();
        let flags = [
            "from-jsonl",
            "--descriptor-set",
            &proto(pb),
            "--message",
            message,
            &input,
            "-o",
            &out,
        ];
        let err = tfr(&flags).run().fails(2);
        assert!(
            err.starts_with(&format!("tfr: {input}:2: ")),
            "{line}: {err} (Python: {python})"
        );
        assert!(!dir.path("bad.tfrecord").exists(), "{line}");
    }
}

#[test]
fn hand_written_spellings_are_pythons_bytes() {
    check_lines(
        "shapes.pb",
        "tfr.test.Sample",
        &read("from_json/sample.jsonl"),
        &read("expected/from_json.sample.txt"),
    );
    check_lines(
        "legacy.pb",
        "tfr.legacy.Record",
        &read("from_json/record.jsonl"),
        &read("expected/from_json.record.txt"),
    );
    check_lines(
        "jsonin.pb",
        "tfr.jsonin.Wkt",
        &read("from_json/wkt.jsonl"),
        &read("expected/from_json.wkt.txt"),
    );
}

#[test]
fn every_line_python_refuses_is_refused() {
    let want = reference(&read("expected/from_json.errors.txt"));
    assert!(want.iter().all(|w| w.is_err()));
    check_lines(
        "shapes.pb",
        "tfr.test.Sample",
        &read("from_json/errors.jsonl"),
        &read("expected/from_json.errors.txt"),
    );
}

/// to-jsonl then from-jsonl: Python's bytes for each line; the original
/// payload where it was canonical.
fn round_trip(pb: &str, message: &str, file: &str, expected: &str, not_canonical: &[usize]) {
    let dir = Dir::new();
    let flags = [
        "to-jsonl",
        "--descriptor-set",
        &proto(pb),
        "--message",
        message,
        &proto(file),
    ];
    let text = tfr(&flags).run().ok();
    let lines: Vec<&str> = text.lines().collect();
    let want = reference(&read(expected));
    let original = payloads(&std::fs::read(proto(file)).unwrap());
    assert_eq!(lines.len(), original.len());
    // Python's lines are tfr's (proto_message.rs), but for legacy line 5
    // (invalid UTF-8, which Python prints as "b'...'"): read back as tfr
    // wrote it, U+FFFD.
    let python_lines = read(&expected.replace(".from_json.txt", ".json"));
    let taken: Vec<usize> = (0..lines.len())
        .filter(|&i| want[i].is_ok() || i == 3 && file == "shapes.tfrecord")
        .collect();
    let got = from_jsonl(&dir, pb, message, &taken.iter().map(|&i| lines[i]).collect::<Vec<_>>());
    for (&i, g) in taken.iter().zip(&got) {
        if not_canonical.contains(&i) {
            assert_ne!(*g, original[i], "{file} record {i} was not canonical");
        } else {
            assert_eq!(*g, original[i], "{file} record {i}");
        }
        match &want[i] {
            Ok(w) if python_lines.lines().nth(i) == Some(lines[i]) => assert_eq!(g, w, "{file} line {}", i + 1),
            Ok(_) => assert!(
                g.windows(3).any(|w| w == "\u{fffd}".as_bytes()),
                "{file} line {}",
                i + 1
            ),
            // shapes line 4: FLT_MAX as Python prints it, which Python's
            // parser refuses; tfr reads it back.
            Err(e) => assert!(e.contains("Float value too large"), "{e}"),
        }
    }
}

#[test]
fn to_jsonl_then_from_jsonl_gives_pythons_bytes() {
    round_trip(
        "shapes.pb",
        "tfr.test.Sample",
        "shapes.tfrecord",
        "expected/shapes.from_json.txt",
        // Map entries out of order and a key twice; unknown fields.
        &[8, 12, 13],
    );
    // Record 2: closed-enum unknowns dropped; 3: packed and unpacked
    // swapped; 5: invalid UTF-8.
    round_trip(
        "legacy.pb",
        "tfr.legacy.Record",
        "legacy.tfrecord",
        "expected/legacy.from_json.txt",
        &[2, 3, 5],
    );
}

#[test]
fn a_missing_required_field_stops_the_run_naming_the_line() {
    // legacy record 4 lacks its required id: SerializeToString raises.
    let dir = Dir::new();
    let flags = [
        "to-jsonl",
        "--descriptor-set",
        &proto("legacy.pb"),
        "--message",
        "tfr.legacy.Record",
        &proto("legacy.tfrecord"),
    ];
    let text = tfr(&flags).run().ok();
    let input = dir.write("legacy.jsonl", text.as_bytes());
    let out = dir.path("out.tfrecord").to_string_lossy().into_owned();
    let flags = [
        "from-jsonl",
        "--descriptor-set",
        &proto("legacy.pb"),
        "--message",
        "tfr.legacy.Record",
        &input,
        "-o",
        &out,
    ];
    let err = tfr(&flags).run().fails(2);
    assert_eq!(
        err,
        format!("tfr: {input}:5: tfr.legacy.Record: required field missing: id")
    );
    assert!(!dir.path("out.tfrecord").exists());
}

#[test]
fn bad_lines_name_the_input_line_and_field() {
    let dir = Dir::new();
    let pb = proto("shapes.pb");
    let cases = [
        (
            r#"{"nope": 1}"#,
            r#"tfr.test.Sample: no field named "nope" in tfr.test.Sample"#,
        ),
        (r#"{"i32": "abc"}"#, r#"tfr.test.Sample.i32: "abc" is not an integer"#),
        (
            r#"{"i32": 2147483648}"#,
            "tfr.test.Sample.i32: 2147483648 is out of range for int32",
        ),
        (
            r#"{"c_text": "a", "cNum": "1"}"#,
            "tfr.test.Sample.cNum: a second member of oneof choice (one at most)",
        ),
        (r#"{"by": "abcde"}"#, r#"tfr.test.Sample.by: "abcde" is not base64"#),
        (
            r#"{"sub": {"leaf": {"x": "y"}}}"#,
            r#"tfr.test.Sample.sub.leaf.x: "y" is not a number"#,
        ),
        (
            "{\"i32\": 1,}",
            "not JSON: expecting a property name in double quotes (column 11)",
        ),
        (
            r#"{"any": {"@type": "x/tfr.no.Such"}}"#,
            "tfr.test.Sample.any: x/tfr.no.Such: no such message",
        ),
    ];
    for (line, want) in cases {
        let input = dir.write("in.jsonl", format!("{{}}\n\n{line}\n{{}}\n").as_bytes());
        let out = dir.path("out.tfrecord").to_string_lossy().into_owned();
        let err = tfr(&[
            "from-jsonl",
            "--descriptor-set",
            &pb,
            "--message",
            "tfr.test.Sample",
            &input,
            "-o",
            &out,
        ])
        .run()
        .fails(2);
        assert!(err.starts_with(&format!("tfr: {input}:3: {want}")), "{err}");
        assert!(!dir.path("out.tfrecord").exists());
    }
    // Deep nesting is an error, not a stack overflow: Any in Any 200 deep
    // (protobuf's limit is 100 messages), 100,000 brackets.
    let mut deep = "{}".to_string();
    for _ in 0..200 {
        deep = format!(r#"{{"@type": "type.googleapis.com/tfr.test.Sample", "any": {deep}}}"#);
    }
    for (line, want) in [
        (
            format!(r#"{{"any": {deep}}}"#),
            "nested deeper than 100 messages (protobuf's limit)",
        ),
        (
            format!(r#"{{"ri32": {}}}"#, "[".repeat(100_000)),
            "nested deeper than 256 levels",
        ),
    ] {
        let input = dir.write("deep.jsonl", format!("{line}\n").as_bytes());
        let out = dir.path("out.tfrecord").to_string_lossy().into_owned();
        let err = tfr(&[
            "from-jsonl",
            "--descriptor-set",
            &pb,
            "--message",
            "tfr.test.Sample",
            &input,
            "-o",
            &out,
        ])
        .run()
        .fails(2);
        assert!(
            err.starts_with(&format!("tfr: {input}:1: ")) && err.contains(want),
            "{}",
            &err[..err.len().min(300)]
        );
    }
    // A TFRecord file given as input.
    let out = dir.path("out.tfrecord").to_string_lossy().into_owned();
    let err = tfr(&[
        "from-jsonl",
        "--descriptor-set",
        &pb,
        "--message",
        "tfr.test.Sample",
        &proto("shapes.tfrecord"),
        "-o",
        &out,
    ])
    .run()
    .fails(2);
    assert!(err.contains(":1: not ") && err.contains("tfr to-jsonl"), "{err}");
}

#[test]
fn proto_files_jobs_and_compression_give_the_same_records() {
    let dir = Dir::new();
    let lines = read("from_json/wkt.jsonl");
    let input = dir.write("wkt.jsonl", lines.as_bytes());
    let base = ["from-jsonl", "--message", "tfr.jsonin.Wkt", &input];
    let pb = proto("jsonin.pb");
    let src = proto("jsonin.proto");
    let runs: [(&str, Vec<&str>); 3] = [
        ("a.tfrecord", vec!["--descriptor-set", &pb, "-j", "1"]),
        ("b.tfrecord", vec!["--proto", &src, "-j", "2"]),
        ("c.tfrecord.gz", vec!["--descriptor-set", &pb]),
    ];
    for (name, flags) in &runs {
        let out = dir.path(name).to_string_lossy().into_owned();
        let args: Vec<&str> = base
            .iter()
            .copied()
            .chain(flags.iter().copied())
            .chain(["-o", &out])
            .collect();
        tfr(&args).run().ok();
    }
    let a = std::fs::read(dir.path("a.tfrecord")).unwrap();
    assert_eq!(a, std::fs::read(dir.path("b.tfrecord")).unwrap());
    let c = dir.path("c.tfrecord.gz").to_string_lossy().into_owned();
    let plain = tfr(&["cat", "--descriptor-set", &pb, "--message", "tfr.jsonin.Wkt", &c])
        .run()
        .ok();
    let a_path = dir.path("a.tfrecord").to_string_lossy().into_owned();
    assert_eq!(
        plain,
        tfr(&["cat", "--descriptor-set", &pb, "--message", "tfr.jsonin.Wkt", &a_path])
            .run()
            .ok()
    );
    assert_eq!(payloads(&a).len(), lines.lines().count());
}

#[test]
fn flags_for_examples_are_refused_with_a_message() {
    let dir = Dir::new();
    let input = dir.write("in.jsonl", b"{}\n");
    let schema = dir.write("schema.json", b"{}");
    let out = dir.path("out.tfrecord").to_string_lossy().into_owned();
    let pb = proto("shapes.pb");
    let base = [
        "from-jsonl",
        "--descriptor-set",
        &pb,
        "--message",
        "tfr.test.Sample",
        &input,
        "-o",
        &out,
    ];
    for (extra, want) in [
        (
            vec!["--schema", &schema],
            "--schema: not with --message tfr.test.Sample",
        ),
        (
            vec!["--format", "protojson"],
            "--format protojson: not with --message tfr.test.Sample",
        ),
        (
            vec!["--type", "example"],
            "--message tfr.test.Sample: not with --type example",
        ),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra).collect();
        let err = tfr(&args).run().fails(2);
        assert!(err.starts_with(&format!("tfr: {want}")), "{err}");
    }
    let err = tfr(&["from-jsonl", "--message", "tfr.test.Sample", &input, "-o", &out])
        .run()
        .fails(2);
    assert!(err.contains("--proto") && err.contains("--descriptor-set"), "{err}");
    assert!(!dir.path("out.tfrecord").exists());
    // --type raw is taken (the payloads are the message's bytes).
    let args: Vec<&str> = base.iter().copied().chain(["--type", "raw"]).collect();
    tfr(&args).run().ok();
}

/// Python in tests/data/proto ([`python_ok`]).
fn python(args: &[&str]) -> String {
    python_ok(Some(&proto_dir()), args)
}

#[test]
#[ignore = "external: Python protobuf 7 and grpcio-tools (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn python_protobuf_reads_the_lines_as_tfr_does() {
    let py = tf_python();
    if !python_has(&py, "google.protobuf") || !python_has(&py, "grpc_tools.protoc") {
        skip_or_fail("no Python with protobuf and grpcio-tools (TFR_TF_PYTHON)");
        return;
    }
    let dir = Dir::new();
    let script = oracle_script("proto_from_json.py");
    // protoc compiles jsonin.proto afresh: the committed .pb is judged too.
    let fresh = dir.path("jsonin.pb").to_string_lossy().into_owned();
    python(&[
        "-m",
        "grpc_tools.protoc",
        "-I.",
        "--include_imports",
        &format!("--descriptor_set_out={fresh}"),
        "jsonin.proto",
    ]);
    let files = [
        (
            "shapes.pb",
            "tfr.test.Sample",
            "from_json/sample.jsonl",
            "expected/from_json.sample.txt",
        ),
        (
            "legacy.pb",
            "tfr.legacy.Record",
            "from_json/record.jsonl",
            "expected/from_json.record.txt",
        ),
        (
            "jsonin.pb",
            "tfr.jsonin.Wkt",
            "from_json/wkt.jsonl",
            "expected/from_json.wkt.txt",
        ),
        (
            fresh.as_str(),
            "tfr.jsonin.Wkt",
            "from_json/wkt.jsonl",
            "expected/from_json.wkt.txt",
        ),
        (
            "shapes.pb",
            "tfr.test.Sample",
            "from_json/errors.jsonl",
            "expected/from_json.errors.txt",
        ),
        (
            "shapes.pb",
            "tfr.test.Sample",
            "expected/shapes.json",
            "expected/shapes.from_json.txt",
        ),
        (
            "legacy.pb",
            "tfr.legacy.Record",
            "expected/legacy.json",
            "expected/legacy.from_json.txt",
        ),
    ];
    for (pb, message, jsonl, expected) in files {
        let live = python(&[&script, "--descriptor-set", pb, "--message", message, jsonl]);
        assert_eq!(live, read(expected), "{jsonl}: the committed reference is Python's");
    }
    // tfr's own to-jsonl lines (legacy line 5 differs from Python's),
    // read back by both.
    for (pb, message, file) in [
        ("shapes.pb", "tfr.test.Sample", "shapes.tfrecord"),
        ("legacy.pb", "tfr.legacy.Record", "legacy.tfrecord"),
    ] {
        let text = tfr(&[
            "to-jsonl",
            "--descriptor-set",
            &proto(pb),
            "--message",
            message,
            &proto(file),
        ])
        .run()
        .ok();
        let lines = dir.write("lines.jsonl", text.as_bytes());
        let live = python(&[&script, "--descriptor-set", pb, "--message", message, &lines]);
        let want = reference(&live);
        let taken: Vec<&str> = text
            .lines()
            .zip(&want)
            .filter(|(_, w)| w.is_ok())
            .map(|(l, _)| l)
            .collect();
        let got = from_jsonl(&dir, pb, message, &taken);
        let wanted: Vec<Vec<u8>> = want.into_iter().filter_map(Result::ok).collect();
        assert_eq!(got, wanted, "{file}");
    }
}

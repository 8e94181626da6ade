//! `tfr to-jsonl`, `tfr from-jsonl`, `cat --format json|protojson`: the
//! JSONL mapping both ways, checked against the TensorFlow-written fixtures
//! and tests/data/jsonl/expected.json (made by
//! tests/oracle/check_from_jsonl.py, which has TensorFlow read what
//! from-jsonl wrote). Its errors are in jsonl_errors.rs, random messages
//! in jsonl_random.rs.

use crate::proto::{Example, Feature, FeatureEntry, Features};
use crate::util::*;
use prost::Message;
use serde_json::Value;
use std::io::Read;
use tfr::example::json::{render_json, Encoder, JsonFormat};
use tfr::example::MessageType;

/// The intact fixtures with an expected file and a payload kind, with the
/// `--type` to read them as.
fn fixtures() -> Vec<(Value, Value, &'static str)> {
    let mut out = Vec::new();
    for f in manifest()["fixtures"].as_array().unwrap() {
        if !f["damage"].is_null() {
            continue;
        }
        let ty = match f["payload"].as_str().unwrap() {
            "example" => "example",
            "sequence" => "sequence",
            "elwc" => "elwc",
            "raw" => "raw",
            _ => continue,
        };
        let Some(exp) = expected(f) else { continue };
        out.push((f.clone(), exp, ty));
    }
    out
}

fn payloads(exp: &Value) -> Vec<Vec<u8>> {
    use base64::Engine as _;
    exp["payloads_b64"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            base64::engine::general_purpose::STANDARD
                .decode(p.as_str().unwrap())
                .unwrap()
        })
        .collect()
}

/// Python could not parse some record (bad_utf8_key): tfr refuses it too.
fn python_parses(exp: &Value) -> bool {
    exp["text"].as_array().is_none_or(|t| t.iter().all(|t| !t.is_null()))
}

pub fn inflate(bytes: &[u8], gzip: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if gzip {
        flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out).unwrap();
    } else {
        flate2::read::ZlibDecoder::new(bytes).read_to_end(&mut out).unwrap();
    }
    out
}

// ---------------------------------------------------------------------------
// Lossless round trips
// ---------------------------------------------------------------------------

/// `to-jsonl | from-jsonl` gives back every TF-written record byte for byte
/// (so the CRCs match too), with every output compression.
#[test]
fn round_trip_is_byte_identical_on_every_tf_fixture() {
    let dir = Dir::new();
    let mut checked = 0;
    for (f, exp, ty) in fixtures() {
        let name = f["name"].as_str().unwrap();
        if name.ends_with("noncanonical") || !python_parses(&exp) {
            continue;
        }
        let type_args: &[&str] = if ty == "raw" { &["--type", "raw"] } else { &[] };
        let jsonl = tfr(&[&["to-jsonl", &data(f["file"].as_str().unwrap())], type_args].concat())
            .run()
            .ok();
        let want = records(&payloads(&exp).iter().map(Vec::as_slice).collect::<Vec<_>>());
        for comp in ["none", "gzip", "zlib"] {
            let out = dir.path(&format!("{name}.{comp}")).to_string_lossy().into_owned();
            dir.tfr(&[&["from-jsonl", "-o", &out, "--compression", comp], type_args].concat())
                .stdin(jsonl.as_bytes())
                .run()
                .ok();
            let bytes = std::fs::read(&out).unwrap();
            let got = match comp {
                "gzip" => inflate(&bytes, true),
                "zlib" => inflate(&bytes, false),
                _ => bytes,
            };
            assert!(got == want, "{name}: round trip ({comp}) is not byte-identical");
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} fixtures");
}

/// A non-canonical record (unpacked lists, repeated keys, two kinds in one
/// Feature, ...) comes back as the same message: the text format, which
/// shows what protobuf parses, is unchanged.
#[test]
fn noncanonical_round_trip_parses_to_the_same_messages() {
    let dir = Dir::new();
    for name in ["noncanonical.tfrecord", "elwc_noncanonical.tfrecord"] {
        let src = data(name);
        let jsonl = tfr(&["to-jsonl", &src]).run().ok();
        dir.tfr(&["from-jsonl", "-o", "rt.tfrecord"])
            .stdin(jsonl.as_bytes())
            .run()
            .ok();
        let before = tfr(&["cat", &src]).run().ok();
        let after = dir.tfr(&["cat", "rt.tfrecord"]).run().ok();
        assert_eq!(after, before, "{name}");
        // And the JSONL of the round trip is the same JSONL.
        assert_eq!(dir.tfr(&["to-jsonl", "rt.tfrecord"]).run().ok(), jsonl, "{name}");
    }
}

/// Duplicate keys are written as they are on the wire (JSON allows them;
/// `jq` keeps the last, as protobuf does) and read back in order.
#[test]
fn repeated_keys_keep_wire_order() {
    let dir = Dir::new();
    let line = "{\"dup\":[1],\"x\":[2],\"dup\":[3]}\n";
    dir.tfr(&["from-jsonl", "-o", "d.tfrecord"])
        .stdin(line.as_bytes())
        .run()
        .ok();
    assert_eq!(dir.tfr(&["to-jsonl", "d.tfrecord"]).run().ok(), line);
    assert!(dir.tfr(&["cat", "d.tfrecord"]).run().ok().contains("value: 3"));
}

/// The hand-written JSONL files convert to the payloads TensorFlow checked
/// (tests/data/jsonl/expected.json), and to-jsonl gives them back in the
/// canonical form.
#[test]
fn hand_written_jsonl_converts_to_the_tf_checked_payloads() {
    let exp: Value = serde_json::from_str(
        &std::fs::read_to_string(data_dir().join("jsonl").join("expected.json")).expect("expected.json"),
    )
    .unwrap();
    let dir = Dir::new();
    for (name, ty) in [("natural", "auto"), ("sequence", "auto"), ("raw", "raw")] {
        let src = data_dir().join("jsonl").join(format!("{name}.jsonl"));
        let out = format!("{name}.tfrecord");
        let ran = dir
            .tfr(&["from-jsonl", &src.to_string_lossy(), "-o", &out, "--type", ty])
            .run();
        ran.warns();
        // natural.jsonl:4 has 16777217 in a float list: said, once.
        let rounded = "natural.jsonl:4: integer 16777217 in a float list is written rounded to float32: ";
        assert_eq!(
            ran.stderr.lines().count(),
            usize::from(name == "natural"),
            "{}",
            ran.stderr
        );
        assert!(name != "natural" || ran.stderr.contains(rounded), "{}", ran.stderr);
        let want = records(&payloads(&exp[name]).iter().map(Vec::as_slice).collect::<Vec<_>>());
        assert!(
            std::fs::read(dir.path(&out)).unwrap() == want,
            "{name}: payloads differ"
        );
        let canonical: String = exp[name]["canonical"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| format!("{}\n", l.as_str().unwrap()))
            .collect();
        let to_type = if ty == "raw" { "raw" } else { "auto" };
        assert_eq!(
            dir.tfr(&["to-jsonl", "--type", to_type, &out]).run().ok(),
            canonical,
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------
// protojson
// ---------------------------------------------------------------------------

/// `--format protojson` equals `json_format.MessageToJson` (as JSON values;
/// keys in wire order, not sorted), and reads back byte for byte.
#[test]
fn protojson_equals_message_to_json_and_round_trips() {
    let dir = Dir::new();
    let mut checked = 0;
    for (f, exp, ty) in fixtures() {
        if ty == "raw" || !python_parses(&exp) {
            continue;
        }
        let name = f["name"].as_str().unwrap();
        let path = data(f["file"].as_str().unwrap());
        let out = tfr(&["to-jsonl", "--format", "protojson", &path]).run().ok();
        let got: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let want: Vec<Value> = exp["protojson"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| serde_json::from_str(l.as_str().unwrap()).unwrap())
            .collect();
        assert!(got == want, "{name}: protojson differs");
        if !name.ends_with("noncanonical") {
            dir.tfr(&["from-jsonl", "--format", "protojson", "-o", "pj.tfrecord"])
                .stdin(out.as_bytes())
                .run()
                .ok();
            let want = records(&payloads(&exp).iter().map(Vec::as_slice).collect::<Vec<_>>());
            assert!(
                std::fs::read(dir.path("pj.tfrecord")).unwrap() == want,
                "{name}: protojson round trip"
            );
        }
        checked += 1;
    }
    assert!(checked >= 12, "only {checked}");
}

/// A record whose keys are in sorted order prints exactly as
/// `MessageToJson(msg, indent=None, sort_keys=True)` does.
#[test]
fn protojson_is_byte_identical_to_python_for_sorted_keys() {
    let (_, exp, _) = fixtures().into_iter().find(|f| f.0["name"] == "sequence").unwrap();
    let out = tfr(&["to-jsonl", "--format", "protojson", &data("sequence.tfrecord")])
        .run()
        .ok();
    let same = out
        .lines()
        .zip(exp["protojson"].as_array().unwrap())
        .filter(|(a, b)| *a == b.as_str().unwrap())
        .count();
    assert!(same >= 10, "only {same} lines identical");
}

/// protojson input accepts what protobuf's parser accepts: original field
/// names, int64 as numbers, floats as strings, unpadded / URL-safe base64,
/// null fields.
#[test]
fn protojson_input_is_lenient_like_protobuf() {
    let dir = Dir::new();
    let lines = concat!(
        "{\"features\": {\"feature\": {\"a\": {\"int64_list\": {\"value\": [1, \"-2\"]}}, ",
        "\"b\": {\"floatList\": {\"value\": [\"1.5\", 2, \"NaN\"]}}, \"c\": {\"bytesList\": {\"value\": [\"_-8\", \"AP8=\"]}}, ",
        "\"d\": {}, \"e\": {\"int64List\": null}}}}\n",
        "{\"features\": null}\n",
    );
    dir.tfr(&["from-jsonl", "-f", "protojson", "-o", "p.tfrecord"])
        .stdin(lines.as_bytes())
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "p.tfrecord"]).run().ok(),
        "{\"a\":[1,-2],\"b\":[1.5,2.0,\"NaN\"],\"c\":[{\"base64\":\"/+8=\"},{\"base64\":\"AP8=\"}],\"d\":null,\"e\":null}\nnull\n"
    );
    let line = dir
        .tfr(&["from-jsonl", "-f", "protojson", "-o", "p.tfrecord"])
        .stdin(b"{\"features\": {\"feature\": {\"a\": {\"int64List\": {}, \"floatList\": {}}}}}\n")
        .run()
        .fails(2);
    assert_eq!(
        line,
        "tfr: <stdin>:1:50 a: a Feature holds one list (its kind is a oneof)"
    );
}

// ---------------------------------------------------------------------------
// cat / head --format json|protojson
// ---------------------------------------------------------------------------

#[test]
fn cat_and_head_print_json_lines() {
    let path = data("notebook.tfrecord.gz");
    let jsonl = tfr(&["to-jsonl", &path]).run().ok();
    assert_eq!(tfr(&["cat", "--format", "json", &path]).run().ok(), jsonl);
    let two: String = jsonl.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert_eq!(tfr(&["head", "-n", "2", "-f", "json", &path]).run().ok(), two);
    let pj = tfr(&["to-jsonl", "--format", "protojson", &path]).run().ok();
    assert_eq!(tfr(&["cat", "--format", "protojson", &path]).run().ok(), pj);
    assert_eq!(pj.lines().count(), 200);
    assert!(pj.starts_with("{\"features\": {\"feature\": {\"feature2\": {\"bytesList\": {\"value\": [\""));
}

// ---------------------------------------------------------------------------
// The natural form: conveniences and the canonical output
// ---------------------------------------------------------------------------

/// One JSON line in, the canonical line out.
fn canonical(line: &str) -> String {
    let dir = Dir::new();
    dir.tfr(&["from-jsonl", "-o", "x.tfrecord"])
        .stdin(format!("{line}\n").as_bytes())
        .run()
        .ok();
    dir.tfr(&["to-jsonl", "x.tfrecord"]).run().ok().trim_end().to_string()
}

#[test]
fn conveniences_read_as_documented() {
    let cases = [
        // A scalar for a one-value list.
        (
            r#"{"a": 1, "b": 0.5, "c": "x", "d": {"base64": "AP8="}}"#,
            r#"{"a":[1],"b":[0.5],"c":["x"],"d":[{"base64":"AP8="}]}"#,
        ),
        // Booleans are int64 1/0.
        (r#"{"a": true, "b": [false, true, 7]}"#, r#"{"a":[1],"b":[0,1,7]}"#),
        // Integers with floats are floats; NaN/Infinity next to numbers too.
        (
            r#"{"a": [1, 2.5], "b": [1, "NaN"], "c": [1e2], "d": [-0.0]}"#,
            r#"{"a":[1.0,2.5],"b":[1.0,"NaN"],"c":[100.0],"d":[-0.0]}"#,
        ),
        // A list of strings is bytes, even "NaN".
        (r#"{"a": ["NaN", "Infinity"]}"#, r#"{"a":["NaN","Infinity"]}"#),
        // The typed form forces a kind, and is kept where it is needed.
        (
            r#"{"a": {"float_list": [1, 2]}, "b": {"bytes_list": []}, "c": {"float_list": ["NaN"]}, "d": {"int64_list": 5}}"#,
            r#"{"a":[1.0,2.0],"b":{"bytes_list":[]},"c":{"float_list":["NaN"]},"d":[5]}"#,
        ),
        // Unset Feature, empty features, empty payload.
        (r#"{"a": null}"#, r#"{"a":null}"#),
        ("{}", "{}"),
        ("null", "null"),
        // Whitespace anywhere JSON allows it; escapes; unicode keys.
        (
            "  { \"k\\u00e9\" : [ 1 , 2 ] ,\"\":[\"\\ud83d\\ude00\\t\"] }  ",
            r#"{"ké":[1,2],"":["😀\t"]}"#,
        ),
        // Exact int64 extremes; float32 extremes, rounding to float32.
        (
            r#"{"a": [-9223372036854775808, 9223372036854775807], "b": [3.4028235e38, 1e-45, 16777217.0, 0.1]}"#,
            r#"{"a":[-9223372036854775808,9223372036854775807],"b":[3.4028235e38,1e-45,16777216.0,0.1]}"#,
        ),
        // Padding is optional in base64; invalid UTF-8 stays base64.
        (
            r#"{"a": {"base64": "/w"}, "b": [{"base64": "aGk="}]}"#,
            r#"{"a":[{"base64":"/w=="}],"b":["hi"]}"#,
        ),
    ];
    for (input, want) in cases {
        assert_eq!(canonical(input), want, "input {input}");
    }
}

/// `--schema` (from `tfr schema --format json`) forces kinds by name and
/// ignores what it does not know.
#[test]
fn schema_forces_kinds() {
    let dir = Dir::new();
    let schema = r#"{"type": "example", "records": 3, "features": {
        "x": {"kind": "float", "present": 3}, "y": {"kind": "bytes"}, "z": {"kind": "conflict", "kinds": ["int64", "float"]},
        "e": {"kind": "int64"}, "w": {"kinds": ["int64"]}}}"#;
    dir.write("schema.json", schema.as_bytes());
    let lines = "{\"x\": [1, 2], \"y\": \"NaN\", \"z\": [1], \"e\": [], \"w\": [3]}\n";
    dir.tfr(&["from-jsonl", "--schema", "schema.json", "-o", "s.tfrecord"])
        .stdin(lines.as_bytes())
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "s.tfrecord"]).run().ok(),
        "{\"x\":[1.0,2.0],\"y\":[\"NaN\"],\"z\":[1],\"e\":{\"int64_list\":[]},\"w\":[3]}\n"
    );
    for (line, want) in [
        (
            r#"{"y": [1]}"#,
            "tfr: <stdin>:1:8 y: integer in a bytes feature (--schema)",
        ),
        (
            r#"{"e": [1.5]}"#,
            "tfr: <stdin>:1:8 e: float 1.5 in an int64 feature (--schema)",
        ),
        (
            r#"{"x": {"int64_list": [1]}}"#,
            "tfr: <stdin>:1:8 x: int64_list but the schema says float",
        ),
    ] {
        let got = dir
            .tfr(&["from-jsonl", "--schema", "schema.json", "-o", "s.tfrecord"])
            .stdin(format!("{line}\n").as_bytes())
            .run()
            .fails(2);
        assert_eq!(got, want);
    }
    // A SequenceExample schema: context and feature lists apart.
    let schema =
        r#"{"type": "sequence", "context": {"c": {"kind": "float"}}, "feature_lists": {"f": {"kind": "float"}}}"#;
    dir.write("seq.json", schema.as_bytes());
    dir.tfr(&["from-jsonl", "--schema", "seq.json", "-o", "q.tfrecord"])
        .stdin(b"{\"context\": {\"c\": 1}, \"feature_lists\": {\"f\": [[1], 2, []]}}\n")
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "q.tfrecord"]).run().ok(),
        "{\"context\":{\"c\":[1.0]},\"feature_lists\":{\"f\":[[1.0],[2.0],{\"float_list\":[]}]}}\n"
    );
    let line = dir
        .tfr(&["from-jsonl", "--schema", "nope.json", "-o", "q.tfrecord"])
        .stdin(b"{}\n")
        .run()
        .fails(2);
    assert!(line.contains("nope.json"), "{line}");
}

/// The schema `tfr schema --format json` writes works as `--schema`: round
/// trips stay byte-identical, and hand-written integers become the floats
/// the dataset holds.
#[test]
fn schema_from_tfr_schema_works() {
    let dir = Dir::new();
    for name in ["edge", "sequence", "notebook"] {
        let src = data(&format!("{name}.tfrecord"));
        let schema = tfr(&["schema", "--format", "json", &src]).run().ok();
        dir.write("schema.json", schema.as_bytes());
        let jsonl = tfr(&["to-jsonl", &src]).run().ok();
        dir.tfr(&["from-jsonl", "--schema", "schema.json", "-o", "rt.tfrecord"])
            .stdin(jsonl.as_bytes())
            .run()
            .ok();
        assert!(
            std::fs::read(dir.path("rt.tfrecord")).unwrap() == std::fs::read(&src).unwrap(),
            "{name}"
        );
    }
    let line = "{\"feature2\": \"dog\", \"feature3\": 1, \"feature0\": true, \"feature1\": 1}\n";
    dir.tfr(&["from-jsonl", "--schema", "schema.json", "-o", "one.tfrecord"])
        .stdin(line.as_bytes())
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "one.tfrecord"]).run().ok(),
        "{\"feature2\":[\"dog\"],\"feature3\":[1.0],\"feature0\":[1],\"feature1\":[1]}\n"
    );
    // Not a schema: binary, endless (/dev/zero must not be read to the end), missing.
    for (schema, want) in [
        (data("notebook.tfrecord"), "not a tfr schema: not UTF-8 text"),
        ("/dev/zero".to_string(), "over the --max-aux-size limit (64 MiB)"),
        (data("missing.json"), "cannot read"),
    ] {
        let line = tfr(&["from-jsonl", "--schema", &schema, "-o", "-"])
            .stdin(b"{}\n")
            .run()
            .fails(2);
        assert!(line.contains(want), "{schema}: {line}");
    }
}

// ---------------------------------------------------------------------------
// Input and output handling
// ---------------------------------------------------------------------------

#[test]
fn blank_lines_crlf_bom_and_several_inputs() {
    let dir = Dir::new();
    let a = dir.write("a.jsonl", b"\xef\xbb\xbf{\"a\": 1}\r\n\r\n   \n{\"a\": 2}\r\n");
    let b = dir.write("b.jsonl", b"{\"a\": 3}");
    dir.tfr(&["from-jsonl", &a, "-", &b, "-o", "out.tfrecord"])
        .stdin(b"\n{\"a\": 4}\n\n")
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "out.tfrecord"]).run().ok(),
        "{\"a\":[1]}\n{\"a\":[2]}\n{\"a\":[4]}\n{\"a\":[3]}\n"
    );
    // Globs are expanded, sorted.
    dir.tfr(&["from-jsonl", "*.jsonl", "-o", "glob.tfrecord"]).run().ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "glob.tfrecord"]).run().ok(),
        "{\"a\":[1]}\n{\"a\":[2]}\n{\"a\":[3]}\n"
    );
    // No lines at all: an empty file.
    dir.tfr(&["from-jsonl", "-o", "empty.tfrecord"])
        .stdin(b"\n\n")
        .run()
        .ok();
    assert_eq!(std::fs::read(dir.path("empty.tfrecord")).unwrap(), b"");
}

#[test]
fn compressed_output_and_input() {
    let dir = Dir::new();
    let jsonl = tfr(&["to-jsonl", &data("notebook.tfrecord")]).run().ok();
    let plain = std::fs::read(data("notebook.tfrecord")).unwrap();
    for (comp, magic) in [("gzip", &[0x1f, 0x8b][..]), ("zlib", &[0x78][..])] {
        let out = format!("nb.{comp}");
        dir.tfr(&["from-jsonl", "-o", &out, "--compression", comp])
            .stdin(jsonl.as_bytes())
            .run()
            .ok();
        let bytes = std::fs::read(dir.path(&out)).unwrap();
        assert!(bytes.starts_with(magic), "{comp}");
        assert_eq!(inflate(&bytes, comp == "gzip"), plain, "{comp}");
        assert_eq!(dir.tfr(&["to-jsonl", &out]).run().ok(), jsonl, "{comp}");
    }
    // gzip or zlib JSONL input is inflated.
    dir.write("in.jsonl.gz", &gzip(jsonl.as_bytes()));
    dir.write("in.jsonl.z", &zlib(jsonl.as_bytes()));
    for src in ["in.jsonl.gz", "in.jsonl.z"] {
        dir.tfr(&["from-jsonl", src, "-o", "from-gz.tfrecord"]).run().ok();
        assert_eq!(std::fs::read(dir.path("from-gz.tfrecord")).unwrap(), plain, "{src}");
    }
}

#[test]
fn long_lines_and_many_records() {
    let dir = Dir::new();
    // One 3 MB value (longer than a batch), between short lines.
    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let sizes: Vec<Vec<u8>> = (0..5000u32).map(|i| vec![b'x'; (i % 300) as usize]).collect();
    let mut payloads: Vec<Vec<u8>> = Vec::new();
    for (i, s) in sizes.iter().enumerate() {
        let e = Example {
            features: Some(Features {
                feature: vec![
                    FeatureEntry::new("s", Feature::bytes(vec![s.clone()])),
                    FeatureEntry::new("i", Feature::int64s(vec![i as i64])),
                ],
            }),
        };
        payloads.push(e.encode_to_vec());
        if i == 2500 {
            let e = Example {
                features: Some(Features {
                    feature: vec![FeatureEntry::new("big", Feature::bytes(vec![big.clone()]))],
                }),
            };
            payloads.push(e.encode_to_vec());
        }
    }
    let file = records(&payloads.iter().map(Vec::as_slice).collect::<Vec<_>>());
    let src = dir.write("in.tfrecord", &file);
    dir.tfr(&["to-jsonl", &src, "-o", "x.jsonl"]).run().ok();
    dir.tfr(&["from-jsonl", "x.jsonl", "-o", "rt.tfrecord"]).run().ok();
    assert!(std::fs::read(dir.path("rt.tfrecord")).unwrap() == file);
}

/// With `-o`, to-jsonl writes nothing when the input is damaged; on stdout
/// the lines before the damage come out, then the error.
#[test]
fn to_jsonl_output_file_is_atomic() {
    let dir = Dir::new();
    let src = data("data_crc.tfrecord");
    let ran = dir.tfr(&["to-jsonl", &src, "-o", "out.jsonl"]).run();
    let line = ran.fails(2);
    assert!(
        line.contains("record 5") && line.contains("data checksum mismatch"),
        "{line}"
    );
    assert!(!dir.path("out.jsonl").exists());
    assert_eq!(
        std::fs::read_dir(dir.path("")).unwrap().count(),
        0,
        "temporary file left"
    );
    let ran = tfr(&["to-jsonl", &src]).run();
    ran.fails(2);
    assert_eq!(ran.stdout_str().lines().count(), 5);
    // Success: the file holds what stdout would.
    dir.tfr(&["to-jsonl", &data("base20.tfrecord"), "-o", "ok.jsonl"])
        .run()
        .ok();
    assert_eq!(
        std::fs::read_to_string(dir.path("ok.jsonl")).unwrap(),
        tfr(&["to-jsonl", &data("base20.tfrecord")]).run().ok()
    );
}

/// A record that is not UTF-8 keyed stops to-jsonl after the records before
/// it; `--type raw` prints every payload.
#[test]
fn to_jsonl_bad_record_suggests_raw() {
    let src = data("bad_utf8_key.tfrecord");
    let ran = tfr(&["to-jsonl", &src]).run();
    let line = ran.fails(2);
    assert!(line.contains("record 1") && line.contains("UTF-8"), "{line}");
    assert_eq!(ran.stdout_str().lines().count(), 1);
    let raw = tfr(&["to-jsonl", "--type", "raw", &src]).run().ok();
    assert_eq!(raw.lines().count(), 3);
}

#[test]
fn type_detection_and_forcing() {
    let dir = Dir::new();
    // A first line with only feature_lists (and context) is a SequenceExample.
    let seq = "{\"feature_lists\": {\"f\": [[1]]}}\n{\"context\": {\"c\": [1]}}\n";
    dir.tfr(&["from-jsonl", "-o", "s.tfrecord"])
        .stdin(seq.as_bytes())
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "--type", "sequence", "s.tfrecord"]).run().ok(),
        "{\"feature_lists\":{\"f\":[[1]]}}\n{\"context\":{\"c\":[1]}}\n"
    );
    // ... unless told otherwise: then it is an Example with that feature.
    let ex = "{\"feature_lists\": {\"int64_list\": [1]}}\n";
    dir.tfr(&["from-jsonl", "--type", "example", "-o", "e.tfrecord"])
        .stdin(ex.as_bytes())
        .run()
        .ok();
    assert_eq!(
        dir.tfr(&["to-jsonl", "e.tfrecord"]).run().ok(),
        "{\"feature_lists\":[1]}\n"
    );
    // An Example line in a SequenceExample file says what to do.
    let line = dir
        .tfr(&["from-jsonl", "-o", "s.tfrecord"])
        .stdin(b"{\"feature_lists\": {}}\n{\"label\": 1}\n")
        .run()
        .fails(2);
    assert!(
        line.contains(":2:2: unknown key label") && line.contains("--type example"),
        "{line}"
    );
    // And a string line in an Example file.
    let line = dir
        .tfr(&["from-jsonl", "-o", "s.tfrecord"])
        .stdin(b"\"text\"\n")
        .run()
        .fails(2);
    assert_eq!(line, "tfr: <stdin>:1:1: expected an Example: a JSON object");
    // Protojson: the fields decide.
    let pj = "{\"featureLists\": {}}\n";
    dir.tfr(&["from-jsonl", "-f", "protojson", "-o", "p.tfrecord"])
        .stdin(pj.as_bytes())
        .run()
        .ok();
    assert_eq!(std::fs::read(dir.path("p.tfrecord")).unwrap(), records(&[b"\x12\x00"]));
}

#[test]
fn raw_payloads_round_trip() {
    let dir = Dir::new();
    let payloads: [&[u8]; 5] = [b"hello", b"", b"\xff\x00", "é\n\"".as_bytes(), b"{\"json\": 1}"];
    let src = dir.write("raw.tfrecord", &records(&payloads));
    let jsonl = dir.tfr(&["to-jsonl", "-t", "raw", &src]).run().ok();
    assert_eq!(
        jsonl,
        "\"hello\"\n\"\"\n{\"base64\":\"/wA=\"}\n\"é\\n\\\"\"\n\"{\\\"json\\\": 1}\"\n"
    );
    dir.tfr(&["from-jsonl", "-t", "raw", "-o", "rt.tfrecord"])
        .stdin(jsonl.as_bytes())
        .run()
        .ok();
    assert_eq!(std::fs::read(dir.path("rt.tfrecord")).unwrap(), records(&payloads));
    let pj = dir.tfr(&["to-jsonl", "-t", "raw", "-f", "protojson", &src]).run().ok();
    assert_eq!(pj.lines().next(), Some("\"aGVsbG8=\""));
    dir.tfr(&["from-jsonl", "-t", "raw", "-f", "protojson", "-o", "rt2.tfrecord"])
        .stdin(pj.as_bytes())
        .run()
        .ok();
    assert_eq!(std::fs::read(dir.path("rt2.tfrecord")).unwrap(), records(&payloads));
    let line = dir
        .tfr(&["from-jsonl", "-t", "raw", "-o", "x"])
        .stdin(b"5\n")
        .run()
        .fails(2);
    assert_eq!(
        line,
        "tfr: <stdin>:1:1: a raw payload is a JSON string or {\"base64\": \"...\"}"
    );
}

/// NaN payload bits cannot survive the text "NaN": every NaN comes back as
/// the canonical quiet NaN 0x7fc00000 (what TensorFlow and numpy write).
#[test]
fn nan_payload_bits_become_canonical() {
    let e = |bits: u32| Example {
        features: Some(Features {
            feature: vec![FeatureEntry::new("f", Feature::floats(vec![1.0, f32::from_bits(bits)]))],
        }),
    };
    let mut line = Vec::new();
    render_json(MessageType::Example, false, &e(0x7fc0_0001).encode_to_vec(), &mut line).unwrap();
    assert_eq!(line, b"{\"f\":[1.0,\"NaN\"]}\n");
    let mut back = Vec::new();
    Encoder::new(JsonFormat::Natural, None)
        .encode(MessageType::Example, &line[..line.len() - 1], &mut back)
        .unwrap();
    assert_eq!(back, e(0x7fc0_0000).encode_to_vec());
}

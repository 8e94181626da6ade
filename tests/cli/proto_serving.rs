//! A real TF Serving file: tests/data/proto/warmup.tfrecord is a warm-up
//! file (`assets.extra/tf_serving_warmup_requests`) of
//! `tensorflow.serving.PredictionLog` records, and serving.pb the descriptors
//! of TF Serving's .proto files as the tensorflow-serving-api 2.21.0 wheel
//! carries them (tests/oracle/predictionlog_make.py wrote both). `tfr cat`,
//! `head` and `to-jsonl` with `--descriptor-set serving.pb --message
//! tensorflow.serving.PredictionLog` print what Python protobuf prints,
//! byte for byte (tests/data/proto/expected/warmup.{txt,json}, from
//! tests/oracle/proto_ref.py; tests/data/proto/NOTES.md).

use crate::util::*;

const LOG: [&str; 2] = ["--message", "tensorflow.serving.PredictionLog"];

/// A path in tests/data/proto.
fn proto(name: &str) -> String {
    data_dir().join("proto").join(name).to_string_lossy().into_owned()
}

/// tests/data/proto/expected/NAME, as Python wrote it.
fn reference(name: &str) -> String {
    let path = data_dir().join("proto").join("expected").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tfr CMD --descriptor-set PB --message tensorflow.serving.PredictionLog
/// EXTRA.. FILE`.
fn run(cmd: &str, pb: &str, extra: &[&str], file: &str) -> Ran {
    let args: Vec<&str> = [cmd, "--descriptor-set", pb]
        .iter()
        .chain(&LOG)
        .chain(extra)
        .chain([&file])
        .copied()
        .collect();
    tfr(&args).run()
}

/// The first `n` `# record N` blocks of a text reference.
fn first_records(text: &str, n: usize) -> String {
    match text.find(&format!("# record {n}\n")) {
        Some(at) => text[..at].to_string(),
        None => text.to_string(),
    }
}

#[test]
fn cat_prints_the_prediction_logs_as_python_text_format() {
    let want = reference("warmup.txt");
    assert_eq!(want.matches("# record ").count(), 9);
    // Every kind of log is in the file.
    for kind in [
        "\npredict_log {\n",
        "\nclassify_log {\n",
        "\nregress_log {\n",
        "\nmulti_inference_log {\n",
        "\nsession_run_log {\n",
        "\nlog_metadata {\n",
        "tensor_content: ",
        "examples {\n",
    ] {
        assert!(want.contains(kind), "{kind}");
    }
    let got = run("cat", &proto("serving.pb"), &[], &proto("warmup.tfrecord")).ok();
    assert_eq!(got, want);
    // --type raw is what --message refines.
    let got = run("cat", &proto("serving.pb"), &["-t", "raw"], &proto("warmup.tfrecord")).ok();
    assert_eq!(got, want);
}

#[test]
fn head_prints_the_first_two_logs() {
    let want = reference("warmup.txt");
    let (pb, file) = (proto("serving.pb"), proto("warmup.tfrecord"));
    let got = run("head", &pb, &["-n", "2"], &file).ok();
    assert_eq!(got, first_records(&want, 2));
    assert_eq!(got.matches("# record ").count(), 2);
    let json = reference("warmup.json");
    let lines: String = json.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert_eq!(run("head", &pb, &["-n", "2", "-f", "json"], &file).ok(), lines);
}

#[test]
fn to_jsonl_prints_the_prediction_logs_as_python_json_format() {
    let want = reference("warmup.json");
    assert_eq!(want.lines().count(), 9);
    // Int64Value as a string, bytes (tensor_content) as base64, enums by name.
    assert!(want.contains(r#""version": "3""#));
    assert!(want.contains(r#""tensor_content": "AAAAAAAAgD8=""#));
    assert!(want.contains(r#""dtype": "DT_FLOAT""#));
    let (pb, file) = (proto("serving.pb"), proto("warmup.tfrecord"));
    assert_eq!(run("to-jsonl", &pb, &[], &file).ok(), want);
    assert_eq!(run("cat", &pb, &["-f", "json"], &file).ok(), want);
    let dir = Dir::new();
    let out = dir.path("warmup.jsonl").to_string_lossy().into_owned();
    run("to-jsonl", &pb, &["-o", &out], &file).ok();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
}

#[test]
fn count_verify_crc_and_raw_read_the_file_as_any_tfrecord() {
    let file = proto("warmup.tfrecord");
    assert_eq!(tfr(&["count", &file]).run().ok(), "9\n");
    let ok = tfr(&["verify-crc", &file]).run().ok();
    assert!(ok.contains("9 records, all intact"), "{ok}");
    let raw = tfr(&["cat", "-t", "raw", &file]).run().ok();
    assert_eq!(raw.matches("# record ").count(), 9);
    assert!(raw.contains("half_plus_two"), "{raw}");
    // The payloads are not Examples: one line pointing at --type raw.
    let err = tfr(&["cat", &file]).run().fails(2);
    assert!(err.contains("--type raw"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_cut_prediction_log_is_damage_naming_the_record() {
    // Record 1 of the fixture, its payload cut inside a tensor: the first
    // record is printed, then one line naming file, record and byte.
    let bytes = std::fs::read(proto("warmup.tfrecord")).unwrap();
    let len0 = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let first = &bytes[12..12 + len0];
    let at = 12 + len0 + 4;
    let len1 = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let second = &bytes[at + 12..at + 12 + len1];
    let dir = Dir::new();
    let file = dir.write("cut.tfrecord", &records(&[first, &second[..len1 / 2]]));
    let r = run("cat", &proto("serving.pb"), &[], &file);
    assert_eq!(r.stdout_str(), first_records(&reference("warmup.txt"), 1));
    let err = r.fails(2);
    assert!(err.contains("cut.tfrecord") && err.contains("record 1"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Python ([`python_ok`]).
fn python(args: &[&str]) -> String {
    python_ok(None, args)
}

#[test]
#[ignore = "external: TensorFlow, Python protobuf 7 and tensorflow-serving-api (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn tf_serving_and_python_protobuf_agree_with_tfr() {
    let py = tf_python();
    if !python_has(&py, "tensorflow") || !python_has(&py, "tensorflow_serving.apis") {
        skip_or_fail("no Python with TensorFlow and tensorflow-serving-api (TFR_TF_PYTHON)");
        return;
    }
    // The fixture made afresh is the committed one, byte for byte.
    let dir = Dir::new();
    let out = dir.path("fresh");
    let out_s = out.to_string_lossy().into_owned();
    python(&[&oracle_script("predictionlog_make.py"), "--out", &out_s]);
    for name in ["serving.pb", "warmup.tfrecord"] {
        let fresh = std::fs::read(out.join(name)).unwrap();
        let committed = std::fs::read(proto(name)).unwrap();
        assert!(fresh == committed, "{name} made afresh differs from the committed one");
    }
    let fresh = |name: &str| -> String { out.join(name).to_string_lossy().into_owned() };
    let script = oracle_script("proto_ref.py");
    let (pb, file) = (fresh("serving.pb"), fresh("warmup.tfrecord"));
    for (mode, cmd, reference_name) in [("--text", "cat", "warmup.txt"), ("--json", "to-jsonl", "warmup.json")] {
        let oracle = python(&[&script, "--descriptor-set", &pb, "--message", LOG[1], &file, mode]);
        assert_eq!(oracle, reference(reference_name), "{mode}: committed reference");
        assert_eq!(run(cmd, &pb, &[], &file).ok(), oracle, "{mode}");
    }
}

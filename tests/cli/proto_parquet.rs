//! `to-parquet` / `to-arrow` of any protobuf message (`--descriptor-set`,
//! `--proto`, `--message`; `--type event` and event files as tf.Event):
//! one column per field, typed by the descriptor (docs/GUIDE.md, "Any
//! message"). The columns and cells are read back here with the parquet
//! crate; the ignored test at the end has pyarrow, pandas and Python
//! protobuf judge every column type and cell
//! (tests/oracle/proto_parquet.py).

use crate::util::*;
use arrow_array::{Array, RecordBatch};
use std::path::{Path, PathBuf};

/// A path in tests/data/proto.
fn proto(name: &str) -> String {
    data_dir().join("proto").join(name).to_string_lossy().into_owned()
}

/// The two event files converted together (a TF2 writer's tensors, a v1
/// writer's simple values, LogMessage and TaggedRunMetadata).
fn event_files() -> [String; 2] {
    [
        data("events/logs/train/events.out.tfevents.1700000001.fixture.0.v2"),
        data("events/logs/eval/events.out.tfevents.1700000003.fixture.0"),
    ]
}

/// The rows of a Parquet file, as one batch.
fn read_parquet(path: &Path) -> RecordBatch {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.map(|b| b.unwrap()).collect();
    // (the fixtures' rows fit the reader's one batch)
    assert_eq!(batches.len(), 1, "{}", path.display());
    batches.into_iter().next().unwrap()
}

fn shapes_args(out: &str) -> Vec<String> {
    [
        "--descriptor-set",
        &proto("shapes.pb"),
        "--message",
        "tfr.test.Sample",
        &proto("shapes.tfrecord"),
        "-o",
        out,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn shapes_columns_follow_the_descriptor() {
    let dir = Dir::new();
    let mut args = vec!["to-parquet".to_string()];
    args.extend(shapes_args("x.parquet"));
    dir.tfr(&strs(&args)).run().ok();
    let batch = read_parquet(&dir.path("x.parquet"));
    assert_eq!(batch.num_rows(), 15);
    let schema = batch.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    // Declaration order, not field numbers (field_1_name is 36).
    assert_eq!(&names[..4], ["field_1_name", "d", "f", "i32"]);
    assert_eq!(names.len(), 40);
    let field = |n: &str| schema.field_with_name(n).unwrap().clone();
    use arrow_schema::DataType as D;
    for (name, ty, nullable) in [
        ("u64", D::UInt64, false),
        ("fx32", D::UInt32, false),
        ("sfx64", D::Int64, false),
        ("f", D::Float32, false),
        ("by", D::Binary, false),
        ("color", D::Utf8, false),
        ("opt_i32", D::Int32, true),
        ("c_num", D::Int64, true),
    ] {
        let f = field(name);
        assert_eq!((f.data_type(), f.is_nullable()), (&ty, nullable), "{name}");
    }
    assert!(matches!(field("sub").data_type(), D::Struct(_)) && field("sub").is_nullable());
    assert!(matches!(field("ri32").data_type(), D::List(_)) && !field("ri32").is_nullable());
    assert!(matches!(field("by_id").data_type(), D::Map(_, false)));
    // Enum names; an unknown number of an open enum as its digits.
    let colors = batch.column_by_name("color").unwrap();
    let colors = colors.as_any().downcast_ref::<arrow_array::StringArray>().unwrap();
    assert_eq!(colors.value(0), "COLOR_UNSPECIFIED");
    assert_eq!(colors.value(1), "GREEN");
    assert!(colors.iter().any(|c| c == Some("42")), "{colors:?}");
    // An absent oneof member is null; an absent implicit scalar its default.
    let c_num = batch.column_by_name("c_num").unwrap();
    assert!(c_num.is_null(0));
    let i32s = batch.column_by_name("i32").unwrap();
    assert_eq!(i32s.null_count(), 0);
}

#[test]
fn to_arrow_writes_the_same_columns_as_a_file_and_a_stream() {
    let dir = Dir::new();
    let mut args = vec!["to-arrow".to_string()];
    args.extend(shapes_args("x.arrow"));
    dir.tfr(&strs(&args)).run().ok();
    let file = std::fs::File::open(dir.path("x.arrow")).unwrap();
    let reader = arrow_ipc::reader::FileReader::try_new(file, None).unwrap();
    let schema = reader.schema();
    let rows: usize = reader.map(|b| b.unwrap().num_rows()).sum();
    assert_eq!(rows, 15);
    let mut args = vec!["to-arrow".to_string()];
    args.extend(shapes_args("-"));
    let stream = dir.tfr(&strs(&args)).run();
    assert_eq!(stream.code, 0, "{}", stream.stderr);
    let reader = arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(stream.stdout), None).unwrap();
    assert_eq!(reader.schema(), schema);
    // --proto compiles the same descriptor: the same columns.
    let mut args = vec!["to-parquet".to_string()];
    args.extend(shapes_args("x.parquet"));
    args[1] = "--proto".into();
    args[2] = proto("shapes.proto");
    dir.tfr(&strs(&args)).run().ok();
    assert_eq!(read_parquet(&dir.path("x.parquet")).schema(), schema);
}

#[test]
fn proto2_extensions_groups_and_lossy_strings() {
    let dir = Dir::new();
    let r = dir
        .tfr(&[
            "to-parquet",
            "--descriptor-set",
            &proto("legacy.pb"),
            "--message",
            "tfr.legacy.Record",
            &proto("legacy.tfrecord"),
            "-o",
            "l.parquet",
        ])
        .run();
    r.warns();
    r.stderr_has("1 strings of tfr.legacy.Record were not UTF-8");
    let batch = read_parquet(&dir.path("l.parquet"));
    let schema = batch.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names[names.len() - 4..],
        [
            "sub",
            "[tfr.legacy.ext]",
            "[tfr.legacy.ext_marks]",
            "[tfr.legacy.Holder.holder_ext]"
        ]
    );
    // Groups are structs named by their field; proto2 fields have presence.
    assert!(matches!(
        schema.field_with_name("point").unwrap().data_type(),
        arrow_schema::DataType::Struct(_)
    ));
    assert!(schema.field_with_name("score").unwrap().is_nullable());
    let names = batch.column_by_name("name").unwrap();
    let names = names.as_any().downcast_ref::<arrow_array::StringArray>().unwrap();
    assert!(names.is_null(0), "absent proto2 field: null, not its default");
    assert_eq!(names.value(5), "ok \u{fffd}( \u{fffd} end");
}

#[test]
fn event_files_convert_as_tf_event() {
    let dir = Dir::new();
    let [train, eval] = event_files();
    // By their names, or with --type event.
    dir.tfr(&["to-parquet", &train, &eval, "-o", "e.parquet"]).run().ok();
    let batch = read_parquet(&dir.path("e.parquet"));
    assert_eq!(batch.num_rows(), 34);
    let schema = batch.schema();
    assert_eq!(schema.field(0).name(), "wall_time");
    assert!(!schema.field(0).is_nullable());
    let copy = dir.path("copy.tfrecord");
    std::fs::copy(&train, &copy).unwrap();
    dir.tfr(&["to-arrow", "-t", "event", "copy.tfrecord", "-o", "e.arrow"])
        .run()
        .ok();
    let file = std::fs::File::open(dir.path("e.arrow")).unwrap();
    let reader = arrow_ipc::reader::FileReader::try_new(file, None).unwrap();
    assert_eq!(reader.schema().fields().len(), schema.fields().len());
    // A directory of event files: its files decide, as for cat.
    let logs = data("events/logs/train");
    dir.tfr(&["to-parquet", &logs, "-o", "d.parquet"]).run().ok();
    let counted = dir.tfr(&["count", "--json", &logs]).run().ok();
    let total: serde_json::Value = serde_json::from_str(&counted).unwrap();
    assert_eq!(
        read_parquet(&dir.path("d.parquet")).num_rows() as u64,
        total["total"].as_u64().unwrap()
    );
    dir.tfr(&["to-arrow", &logs, "-o", "d.arrow"]).run().ok();
}

#[test]
fn a_recursive_message_is_json_below_its_first_occurrence() {
    let dir = Dir::new();
    dir.tfr(&[
        "to-parquet",
        "--descriptor-set",
        &proto("struct.pb"),
        "--message",
        "google.protobuf.Struct",
        &proto("struct.tfrecord"),
        "-o",
        "s.parquet",
    ])
    .run()
    .ok();
    let batch = read_parquet(&dir.path("s.parquet"));
    let arrow_schema::DataType::Map(entries, _) = batch.schema().field(0).data_type().clone() else {
        panic!("fields is not a map");
    };
    let arrow_schema::DataType::Struct(kv) = entries.data_type() else {
        panic!()
    };
    let arrow_schema::DataType::Struct(value) = kv[1].data_type() else {
        panic!()
    };
    let struct_value = value.iter().find(|f| f.name() == "struct_value").unwrap();
    assert_eq!(struct_value.data_type(), &arrow_schema::DataType::Utf8);
    let maps = batch
        .column(0)
        .as_any()
        .downcast_ref::<arrow_array::MapArray>()
        .unwrap();
    let values = maps
        .values()
        .as_any()
        .downcast_ref::<arrow_array::StructArray>()
        .unwrap();
    let json = values.column_by_name("struct_value").unwrap();
    let json = json.as_any().downcast_ref::<arrow_array::StringArray>().unwrap();
    assert!(
        json.iter()
            .flatten()
            .any(|j| j == r#"{"c": [1.0, "two", null, true, {"d": []}]}"#),
        "{json:?}"
    );
}

#[test]
fn damage_is_exit_2_naming_the_record_and_nothing_is_written() {
    let dir = Dir::new();
    for (cmd, out) in [("to-parquet", "x.parquet"), ("to-arrow", "x.arrow")] {
        let r = dir
            .tfr(&[
                cmd,
                "--descriptor-set",
                &proto("shapes.pb"),
                "--message",
                "tfr.test.Sample",
                &proto("shapes.tfrecord"),
                &proto("bad.tfrecord"),
                "-o",
                out,
            ])
            .run();
        let line = r.fails(2);
        assert!(line.contains("bad.tfrecord: record 0 at byte 0: "), "{line}");
        assert!(!dir.path(out).exists(), "{cmd}: {out} written");
    }
    // A proto3 string that is not UTF-8 is damage too (Python refuses it).
    let r = dir
        .tfr(&[
            "to-parquet",
            "--descriptor-set",
            &proto("shapes.pb"),
            "--message",
            "tfr.test.Sample",
            &proto("bad_utf8.tfrecord"),
            "-o",
            "u.parquet",
        ])
        .run();
    assert!(r.fails(2).contains("bad_utf8.tfrecord: record 0 at byte 0: "));
    assert!(!dir.path("u.parquet").exists());
}

#[test]
fn a_recursive_part_json_cannot_write_is_damage() {
    // Struct{a: Value{struct_value: Struct{x: Value{number_value: NaN}}}}:
    // the inner Struct is a column of JSON, and JSON has no NaN.
    let nan = [&[0x11u8][..], &f64::NAN.to_le_bytes()].concat();
    let inner_entry = [&[0x0a, 1, b'x', 0x12, nan.len() as u8][..], &nan].concat();
    let inner = [&[0x0a, inner_entry.len() as u8][..], &inner_entry].concat();
    let value = [&[0x2a, inner.len() as u8][..], &inner].concat();
    let entry = [&[0x0a, 1, b'a', 0x12, value.len() as u8][..], &value].concat();
    let payload = [&[0x0a, entry.len() as u8][..], &entry].concat();
    let dir = Dir::new();
    let input = dir.write("nan.tfrecord", &records(&[&payload]));
    let r = dir
        .tfr(&[
            "to-parquet",
            "--descriptor-set",
            &proto("struct.pb"),
            "--message",
            "google.protobuf.Struct",
            &input,
            "-o",
            "n.parquet",
        ])
        .run();
    let line = r.fails(2);
    assert!(
        line.contains("nan.tfrecord: record 0 at byte 0: ") && line.contains("NaN"),
        "{line}"
    );
    assert!(!dir.path("n.parquet").exists());
}

#[test]
fn flags_that_read_examples_are_refused_with_a_message() {
    let dir = Dir::new();
    let base = ["--descriptor-set", &proto("shapes.pb"), "--message", "tfr.test.Sample"];
    let shapes = proto("shapes.tfrecord");
    for (cmd, extra, says) in [
        (
            "to-parquet",
            vec!["--where", "x == 1"],
            "--where: 'x': tfr.test.Sample has no field 'x'",
        ),
        (
            "to-arrow",
            vec!["--where", "sub.x == 1"],
            "--where: 'sub.x': tfr.test.Sub has no field 'x'",
        ),
        (
            "to-parquet",
            vec!["--schema", "s.json"],
            "--schema: the columns of tfr.test.Sample",
        ),
        ("to-parquet", vec!["-t", "example"], "not with --type example"),
        ("to-parquet", vec!["--features", "nothing*"], "no field to write"),
    ] {
        let mut args = vec![cmd];
        args.extend(base);
        args.extend(extra);
        args.extend([shapes.as_str(), "-o", "x.out"]);
        let r = dir.tfr(&args).run();
        let line = r.fails(2);
        assert!(line.contains(says), "{cmd}: {line}");
        assert!(!dir.path("x.out").exists());
    }
}

#[test]
fn where_keeps_the_rows_whose_fields_match() {
    let dir = Dir::new();
    // Records 1 and 13 have b == true (tests/data/proto/expected/where.json).
    for (cmd, out) in [("to-parquet", "w.parquet"), ("to-arrow", "w.arrow")] {
        let mut args = vec![cmd.to_string()];
        args.extend(shapes_args(out));
        args.extend(["--where", "b == true"].map(String::from));
        dir.tfr(&strs(&args)).run().warns();
    }
    let batch = read_parquet(&dir.path("w.parquet"));
    assert_eq!(batch.num_rows(), 2);
    let s = batch.column_by_name("s").expect("s");
    let s = s.as_any().downcast_ref::<arrow_array::StringArray>().expect("strings");
    assert_eq!((s.value(0), s.value(1)), ("plain text", ""));
    let file = std::fs::File::open(dir.path("w.arrow")).unwrap();
    let reader = arrow_ipc::reader::FileReader::try_new(file, None).unwrap();
    let rows: usize = reader.map(|b| b.unwrap().num_rows()).sum();
    assert_eq!(rows, 2);
    // With --shards the rows counted first are the matching ones.
    let mut args = vec!["to-parquet".to_string()];
    args.extend(shapes_args("s/x.parquet"));
    args.extend(["--where", "has(sub) || has(counts)", "--shards", "2"].map(String::from));
    dir.tfr(&strs(&args)).run().warns();
    let rows: Vec<usize> = ["s/x-00000-of-00002.parquet", "s/x-00001-of-00002.parquet"]
        .iter()
        .map(|f| read_parquet(&dir.path(f)).num_rows())
        .collect();
    // (5 records match: count --where says so too)
    assert_eq!(rows, [2, 3]);
}

#[test]
fn features_pick_columns_and_shards_cut_rows() {
    let dir = Dir::new();
    let mut args = vec!["to-parquet".to_string()];
    args.extend(shapes_args("out/x.parquet"));
    args.extend(["--features", "sub,c_*", "--shards", "2"].map(String::from));
    dir.tfr(&strs(&args)).run().ok();
    let mut rows = 0;
    for k in 0..2 {
        let path: PathBuf = dir.path(&format!("out/x-0000{k}-of-00002.parquet"));
        let batch = read_parquet(&path);
        let schema = batch.schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names, ["sub", "c_text", "c_num", "c_sub"]);
        rows += batch.num_rows();
    }
    assert_eq!(rows, 15);
}

#[test]
fn the_same_bytes_for_any_jobs_and_from_stdin() {
    let dir = Dir::new();
    let mut outputs = Vec::new();
    for jobs in ["1", "2", "16"] {
        let out = format!("j{jobs}.parquet");
        let mut args = vec!["to-parquet".to_string()];
        args.extend(shapes_args(&out));
        args.extend(["-j".to_string(), jobs.to_string()]);
        dir.tfr(&strs(&args)).run().ok();
        outputs.push(std::fs::read(dir.path(&out)).unwrap());
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    // A stream is read once: no schema pass is needed.
    let shapes = std::fs::read(proto("shapes.tfrecord")).unwrap();
    let mut args = vec!["to-parquet".to_string()];
    args.extend(shapes_args("stdin.parquet"));
    args[5] = "-".into();
    dir.tfr(&strs(&args)).stdin(&shapes).run().ok();
    assert_eq!(std::fs::read(dir.path("stdin.parquet")).unwrap(), outputs[0]);
    args.extend(["--shards".to_string(), "2".to_string()]);
    let r = dir.tfr(&strs(&args)).stdin(&shapes).run();
    assert!(r.fails(2).contains("a stream cannot be read twice"));
}

#[test]
#[ignore = "external: pyarrow, pandas, Python protobuf 7 and TensorFlow (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn pyarrow_and_python_protobuf_read_what_tfr_writes() {
    let py = tf_python();
    if !python_has(&py, "tensorflow") || !python_has(&py, "pyarrow") || !python_has(&py, "pandas") {
        skip_or_fail("no Python with TensorFlow, pyarrow and pandas (TFR_TF_PYTHON)");
        return;
    }
    let dir = Dir::new();
    let shapes = ("shapes.pb", "tfr.test.Sample", vec![proto("shapes.tfrecord")]);
    let legacy = ("legacy.pb", "tfr.legacy.Record", vec![proto("legacy.tfrecord")]);
    let structs = ("struct.pb", "google.protobuf.Struct", vec![proto("struct.tfrecord")]);
    let serving = (
        "serving.pb",
        "tensorflow.serving.PredictionLog",
        vec![proto("warmup.tfrecord")],
    );
    let events = ("", "tensorflow.Event", event_files().to_vec());
    for (k, (pb, message, inputs)) in [shapes, legacy, structs, serving, events].into_iter().enumerate() {
        let mut source: Vec<String> = match pb {
            "" => vec![],
            pb => vec!["--descriptor-set".into(), proto(pb), "--message".into(), message.into()],
        };
        source.extend(inputs.iter().cloned());
        let out = |ext: &str| format!("{k}.{ext}");
        for (cmd, o) in [
            ("to-parquet", out("parquet")),
            ("to-arrow", out("arrow")),
            ("to-jsonl", out("jsonl")),
        ] {
            let mut args = vec![cmd.to_string()];
            args.extend(source.iter().cloned());
            args.extend(["-o".to_string(), o]);
            dir.tfr(&strs(&args)).run().warns();
        }
        let mut args = vec!["to-arrow".to_string()];
        args.extend(source.iter().cloned());
        args.extend(["-o", "-"].map(String::from));
        let stream = dir.tfr(&strs(&args)).run();
        assert_eq!(stream.code, 0, "{}", stream.stderr);
        dir.write(&out("arrows"), &stream.stdout);
        let mut check = vec![oracle_script("proto_parquet.py"), "check".into()];
        match pb {
            "" => check.push("--event".into()),
            pb => check.extend(["--descriptor-set".into(), proto(pb), "--message".into(), message.into()]),
        }
        for (flag, ext) in [
            ("--parquet", "parquet"),
            ("--arrow", "arrow"),
            ("--stream", "arrows"),
            ("--jsonl", "jsonl"),
        ] {
            check.extend([flag.to_string(), dir.path(&out(ext)).to_string_lossy().into_owned()]);
        }
        check.extend(inputs);
        let ran = std::process::Command::new(&py).args(&check).output().unwrap();
        assert!(
            ran.status.success(),
            "{message}: {}{}",
            String::from_utf8_lossy(&ran.stdout),
            String::from_utf8_lossy(&ran.stderr)
        );
    }
}

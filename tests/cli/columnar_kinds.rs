//! `tfr from-parquet` / `from-arrow` over inputs that disagree on a
//! feature's kind (issue 43): int64 in one file and float in another is
//! float in every record (with a warning); bytes against a number is one
//! error line naming both files; a stream, read once, is checked as it
//! comes. TensorFlow parses what pandas-written files become.

use crate::util::*;

/// A Parquet file of `lines` (JSON lines of Examples) made by tfr itself.
fn parquet(dir: &Dir, name: &str, lines: &str) {
    let jsonl = dir.write(&format!("{name}.jsonl"), lines.as_bytes());
    let tfrecord = dir.path(&format!("{name}.tfrecord")).display().to_string();
    dir.tfr(&["from-jsonl", &jsonl, "-o", &tfrecord]).run().ok();
    dir.tfr(&["to-parquet", &tfrecord, "-o", name]).run().ok();
}

/// Runs `run`, which must succeed with warnings at most: its stderr.
#[track_caller]
#[test]
fn int64_in_one_file_and_float_in_another_is_float_in_every_record() {
    let dir = Dir::new();
    parquet(
        &dir,
        "ints.parquet",
        "{\"id\": 1, \"score\": 3}\n{\"id\": 2, \"score\": 4}\n",
    );
    parquet(&dir, "floats.parquet", "{\"id\": 3, \"score\": 0.5}\n");
    let e = warnings(dir.tfr(&["from-parquet", "ints.parquet", "floats.parquet", "-o", "x.tfrecord"]));
    assert!(
        e.contains("feature score changes kind: int64 in ints.parquet, float in floats.parquet: written as float in every record"),
        "{e}"
    );
    assert!(!e.contains("feature id"), "{e}");
    let printed = dir.tfr(&["to-jsonl", "x.tfrecord"]).run().ok();
    assert_eq!(
        printed,
        "{\"id\":[1],\"score\":[3.0]}\n{\"id\":[2],\"score\":[4.0]}\n{\"id\":[3],\"score\":[0.5]}\n"
    );
    // One kind per feature: the schema has every feature.
    let spec = dir.tfr(&["schema", "-f", "tf", "x.tfrecord"]).run().ok();
    assert!(
        spec.contains("\"score\": tf.io.FixedLenFeature([], tf.float32)"),
        "{spec}"
    );
    // The other order: the same, the files named as they come.
    let e = warnings(dir.tfr(&["from-parquet", "floats.parquet", "ints.parquet", "-o", "y.tfrecord"]));
    assert!(e.contains("float in floats.parquet, int64 in ints.parquet"), "{e}");
}

#[test]
fn bytes_against_a_number_is_one_line_naming_both_files_and_no_output() {
    let dir = Dir::new();
    parquet(&dir, "a.parquet", "{\"label\": 1}\n");
    parquet(&dir, "b.parquet", "{\"label\": \"cat\"}\n");
    let e = dir
        .tfr(&["from-parquet", "a.parquet", "b.parquet", "-o", "x.tfrecord"])
        .run()
        .fails(2);
    assert!(
        e.contains("feature label changes kind: int64 in a.parquet, bytes in b.parquet (tf.io.parse_example reads one kind per feature"),
        "{e}"
    );
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    assert!(!dir.path("x.tfrecord").exists(), "no output after an error");
}

#[test]
fn a_stream_that_disagrees_with_an_earlier_file_is_refused() {
    // stdin cannot be read twice: its schema is not known before the
    // files before it are written, so a change of kind there is an error.
    let dir = Dir::new();
    parquet(&dir, "ints.parquet", "{\"score\": 3}\n");
    parquet(&dir, "floats.parquet", "{\"score\": 0.5}\n");
    let piped = std::fs::read(dir.path("floats.parquet")).unwrap();
    let e = dir
        .tfr(&["from-parquet", "ints.parquet", "-", "-o", "x.tfrecord"])
        .stdin(&piped)
        .run()
        .fails(2);
    assert!(
        e.contains("feature score changes kind: int64 in ints.parquet, float in <stdin>"),
        "{e}"
    );
    assert!(!dir.path("x.tfrecord").exists());
    // from-arrow reads the same way.
    dir.tfr(&["to-arrow", "ints.parquet.tfrecord", "-o", "ints.arrow"])
        .run()
        .ok();
    dir.tfr(&["to-arrow", "floats.parquet.tfrecord", "-o", "floats.arrow"])
        .run()
        .ok();
    let e = warnings(dir.tfr(&["from-arrow", "ints.arrow", "floats.arrow", "-o", "y.tfrecord"]));
    assert!(e.contains("int64 in ints.arrow, float in floats.arrow"), "{e}");
}

#[test]
#[ignore = "external: pandas and TensorFlow (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn pandas_files_with_drifting_dtypes_become_records_tensorflow_parses() {
    // pandas stores a column with a missing value as float64 (NaN) and the
    // same column without one as int64: the drift users meet.
    let python = tf_python();
    let dir = Dir::new();
    let script = oracle_script("drift.py");
    let made = std::process::Command::new(&python)
        .current_dir(dir.path(""))
        .arg(&script)
        .arg("write")
        .output();
    match &made {
        Ok(o) if o.status.success() => {}
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("ModuleNotFoundError") => {
            skip_or_fail("no Python with pandas and TensorFlow (target/venv-tf)");
            return;
        }
        Ok(o) => panic!("{}", String::from_utf8_lossy(&o.stderr)),
        Err(_) => {
            skip_or_fail("no Python (TFR_TF_PYTHON)");
            return;
        }
    }
    let e = warnings(dir.tfr(&[
        "from-parquet",
        "drift_0.parquet",
        "drift_1.parquet",
        "drift_2.parquet",
        "-o",
        "x.tfrecord",
    ]));
    assert!(e.contains("feature score changes kind"), "{e}");
    let spec = dir.tfr(&["schema", "-f", "tf", "x.tfrecord"]).run().ok();
    dir.write("spec.py", spec.as_bytes());
    let out = oracle_check(&dir, "drift.py", "check");
    assert!(out.contains("rows agree: 30"), "{out}");
}

#[test]
fn features_exclude_and_rename_choose_and_name_the_columns() {
    let dir = Dir::new();
    parquet(&dir, "a.parquet", "{\"id\": 1, \"img\": \"AAA\", \"note\": \"x\"}\n");
    let e = warnings(dir.tfr(&[
        "from-parquet",
        "a.parquet",
        "-o",
        "x.tfrecord",
        "--exclude",
        "note",
        "--rename",
        "img=image/encoded",
        "--rename",
        "nothing=y",
        "--features",
        "id,img,absent*",
    ]));
    assert!(
        e.contains("warning: --rename nothing=…: no column of the inputs gives a feature nothing"),
        "{e}"
    );
    assert!(
        e.contains("warning: --features absent*: no feature of the records read matches it"),
        "{e}"
    );
    let printed = dir.tfr(&["to-jsonl", "x.tfrecord"]).run().ok();
    assert_eq!(printed, "{\"id\":[1],\"image/encoded\":[\"AAA\"]}\n");
    let e = dir
        .tfr(&["from-parquet", "a.parquet", "-o", "y.tfrecord", "--rename", "id"])
        .run()
        .fails(2);
    assert!(e.contains("write OLD=NEW"), "{e}");
}

#[test]
#[ignore = "external: DuckDB and TensorFlow (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn duckdb_decimals_maps_and_nulls_in_lists_convert_as_tensorflow_reads_them() {
    // DuckDB types `i * 1.5` as DECIMAL(21,1); an INTERVAL has no feature
    // kind; a list may hold NULL.
    let dir = Dir::new();
    if !python_in(&dir, &[&oracle_script("duckdb_casts.py"), "write"]) {
        skip_or_fail("no Python with duckdb (pip install duckdb into target/venv-tf)");
        return;
    }
    let e = dir
        .tfr(&["from-parquet", "d.parquet", "-o", "x.tfrecord"])
        .run()
        .fails(2);
    assert!(
        e.contains("column span: Interval(DayTime) has no TFRecord feature kind (int64, float or bytes): --exclude it"),
        "{e}"
    );
    let e = dir
        .tfr(&["from-parquet", "d.parquet", "--exclude", "span", "-o", "x.tfrecord"])
        .run()
        .fails(2);
    assert!(e.contains("row 0: column xs: a null inside a list"), "{e}");
    assert!(e.contains("--null-in-list drop"), "{e}");
    let base = [
        "from-parquet",
        "d.parquet",
        "--exclude",
        "span",
        "--null-in-list",
        "drop",
    ];
    let e = warnings(dir.tfr(&[&base[..], &["-o", "x.tfrecord"]].concat()));
    assert!(
        e.contains("warning: column price: Decimal128(21, 1) written as float32 (--decimal text keeps every digit"),
        "{e}"
    );
    let spec = dir.tfr(&["schema", "-f", "tf", "x.tfrecord"]).run().ok();
    dir.write("spec.py", spec.as_bytes());
    assert!(oracle_check(&dir, "duckdb_casts.py", "check").contains("20 rows agree"));
    dir.tfr(&[&base[..], &["--decimal", "text", "-o", "y.tfrecord"]].concat())
        .run()
        .ok();
    let spec = dir.tfr(&["schema", "-f", "tf", "y.tfrecord"]).run().ok();
    dir.write("spec.py", spec.as_bytes());
    assert!(oracle_check(&dir, "duckdb_casts.py", "check-text").contains("20 rows agree"));
    // A map entry may not give a feature a column gives (TensorFlow would
    // keep one of the two).
    let made = python_in(
        &dir,
        &[
            "-c",
            "import duckdb; duckdb.sql(\"COPY (SELECT MAP {'a': 1} AS m, 5 AS \\\"m/a\\\") TO 'clash.parquet' (FORMAT PARQUET)\")",
        ],
    );
    assert!(made, "duckdb wrote clash.parquet");
    let e = dir
        .tfr(&["from-parquet", "clash.parquet", "-o", "c.tfrecord"])
        .run()
        .fails(2);
    assert!(
        e.contains("column m: an entry gives the feature m/a, which a column gives too"),
        "{e}"
    );
}

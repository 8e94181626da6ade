//! `-j/--jobs`: several inputs read at once give exactly the output of one
//! at a time (stdout, stderr, exit code), with and without damage.

use crate::util::*;

/// An Example with one int64 feature `x` = [i] and a bytes feature `s`.
fn example(i: u64) -> Vec<u8> {
    example_text(i, &format!("row {i}"))
}

/// [`example`] with `s` = `text` (the Example under 128 bytes).
fn example_text(i: u64, text: &str) -> Vec<u8> {
    let mut varint = Vec::new();
    let mut v = i;
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            varint.push(b);
            break;
        }
        varint.push(b | 0x80);
    }
    let field = |tag: u8, body: &[u8]| {
        let mut out = vec![tag, body.len() as u8];
        out.extend_from_slice(body);
        out
    };
    let int64 = field(0x1a, &field(0x0a, &varint)); // Feature.int64_list{value: [i]}
    let bytes = field(0x0a, &field(0x0a, text.as_bytes())); // Feature.bytes_list{value: [text]}
    let entry_x = [field(0x0a, b"x"), field(0x12, &int64)].concat();
    let entry_s = [field(0x0a, b"s"), field(0x12, &bytes)].concat();
    let features = [field(0x0a, &entry_x), field(0x0a, &entry_s)].concat();
    field(0x0a, &features)
}

/// A file of `n` Examples starting at `first`.
fn examples(first: u64, n: u64) -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = (first..first + n).map(example).collect();
    let refs: Vec<&[u8]> = payloads.iter().map(|p| p.as_slice()).collect();
    records(&refs)
}

/// Inputs of every kind, some large enough for many batches.
fn inputs(dir: &Dir) -> Vec<String> {
    vec![
        dir.write("a.tfrecord", &examples(0, 20_000)),
        data("notebook.tfrecord.gz"),
        dir.write("b.tfrecord.gz", &gzip(&examples(20_000, 30_000))),
        data("notebook.zlib.tfrecord"),
        dir.write("c.tfrecord", &examples(50_000, 3)),
        data("empty.tfrecord"),
        dir.write("d.tfrecord", &zlib(&examples(60_000, 15_000))),
        data("notebook.tfrecord"),
    ]
}

/// Runs `tfr ARGS INPUTS` with `-j 1` and several other job counts; all
/// must give the same exit code, stdout and stderr. Returns the `-j 1` run.
fn same_for_any_jobs(args: &[&str], inputs: &[String]) -> Ran {
    let run = |jobs: &str| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["-j", jobs]);
        all.extend(inputs.iter().map(String::as_str));
        tfr(&all).run()
    };
    let one = run("1");
    for jobs in ["2", "16"] {
        let many = run(jobs);
        assert_eq!(many.code, one.code, "{args:?} -j {jobs}: exit code");
        assert_eq!(many.stderr, one.stderr, "{args:?} -j {jobs}: stderr");
        assert!(many.stdout == one.stdout, "{args:?} -j {jobs}: stdout differs");
    }
    one
}

#[test]
#[ignore = "slow: a dozen commands over five inputs at -j 1, 2 and 16: cargo test -- --include-ignored"]
fn output_is_the_same_for_any_jobs() {
    let dir = Dir::new();
    let inputs = inputs(&dir);
    for args in [
        &["cat"][..],
        &["cat", "-f", "json"],
        &["cat", "-f", "protojson"],
        &["to-jsonl"],
        &["count"],
        &["count", "--json"],
        &["verify-crc"],
        &["verify-crc", "--json"],
    ] {
        let ran = same_for_any_jobs(args, &inputs);
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
    }
    // The lines are all there, in input order.
    let ran = same_for_any_jobs(&["to-jsonl"], &inputs);
    let text = String::from_utf8(ran.stdout).unwrap();
    let xs: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("{\"x\":[")?.split(']').next()?.parse().ok())
        .collect();
    let want: Vec<u64> = (0..20_000).chain(20_000..50_003).chain(60_000..75_000).collect();
    assert!(xs == want, "{} lines with x, {} expected", xs.len(), want.len());
}

#[test]
#[ignore = "slow: eight --where and --by commands over 75,000 records at -j 1, 2 and 16: cargo test -- --include-ignored"]
fn where_and_count_by_are_the_same_for_any_jobs() {
    let dir = Dir::new();
    let inputs = inputs(&dir);
    let expr = "x >= 19000 && x < 21000 || s ~ \"^row 6[0-9]{3}5$\" || has(feature1)";
    for args in [
        &["cat", "-f", "json", "--where", expr][..],
        &["to-jsonl", "--where", expr],
        &["to-jsonl", "--where", expr, "--skip", "1500", "-n", "700"],
        &["count", "--where", expr],
        &["count", "--where", expr, "--json"],
        &["count", "--by", "x", "--json"],
        &["count", "--by", "x", "--where", "x < 20010"],
        &["schema", "--json", "--where", expr],
        &["stats", "-f", "json", "--where", expr],
    ] {
        let ran = same_for_any_jobs(args, &inputs);
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
    }
    // The matches, in input order.
    let ran = same_for_any_jobs(
        &["to-jsonl", "--where", "x >= 19990 && x < 20010 || x == 60005"],
        &inputs,
    );
    let text = ran.stdout_str();
    let xs: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("{\"x\":[")?.split(']').next()?.parse().ok())
        .collect();
    let want: Vec<u64> = (19_990..20_010).chain([60_005]).collect();
    assert_eq!(xs, want);
}

#[test]
#[ignore = "slow: a damaged 100,000-record gzip input among others, at -j 1, 2 and 16: cargo test -- --include-ignored"]
fn damage_stops_at_the_same_place_for_any_jobs() {
    let dir = Dir::new();
    let mut inputs = inputs(&dir);
    // Damage in the middle of a large gzip input: its records before the
    // damage are printed, the inputs after it are not.
    let mut bad = examples(100_000, 12_000);
    let mid = bad.len() / 2;
    bad[mid] ^= 0x40;
    inputs.insert(3, dir.write("bad.tfrecord.gz", &gzip(&bad)));
    for args in [&["cat"][..], &["cat", "-f", "json"], &["to-jsonl"]] {
        let ran = same_for_any_jobs(args, &inputs);
        assert_eq!(ran.code, 2, "{args:?}");
        assert!(ran.stderr.contains("bad.tfrecord.gz"), "{}", ran.stderr);
        assert!(!ran.stdout.is_empty());
    }
    let ran = same_for_any_jobs(&["to-jsonl"], &inputs);
    let text = String::from_utf8(ran.stdout).unwrap();
    let last = text.lines().last().unwrap();
    assert!(last.contains("\"x\":[10"), "last line before the damage: {last}");
    // verify-crc reads on past the damaged input and reports every input;
    // the salvaged records are the same, in the same order.
    let ran = same_for_any_jobs(&["verify-crc"], &inputs);
    assert_eq!(ran.code, 1);
    assert!(ran.stderr.contains("bad.tfrecord.gz: record 6000"), "{}", ran.stderr);
    assert!(ran.stdout_str().contains("1 not ok"), "{}", ran.stdout_str());
    let mut salvaged = Vec::new();
    for jobs in ["1", "2", "16"] {
        let out = dir.path(&format!("salvage{jobs}.tfrecord"));
        let mut args = vec!["verify-crc", "-j", jobs, "--salvage", out.to_str().unwrap()];
        args.extend(inputs.iter().map(String::as_str));
        assert_eq!(tfr(&args).run().code, 1);
        salvaged.push(std::fs::read(&out).unwrap());
    }
    assert!(salvaged.iter().all(|s| *s == salvaged[0]), "salvage differs with -j");
    let count = dir
        .tfr(&["count", dir.path("salvage1.tfrecord").to_str().unwrap()])
        .run()
        .ok();
    let report = same_for_any_jobs(&["verify-crc", "--json"], &inputs).stdout_str();
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(count.trim(), report["total"]["intact_records"].to_string());

    // A missing input and one that is not a TFRecord: the same.
    let mut inputs = self::inputs(&dir);
    inputs.insert(2, dir.path("missing.tfrecord").to_string_lossy().into_owned());
    let ran = same_for_any_jobs(&["cat"], &inputs);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("missing.tfrecord"), "{}", ran.stderr);
    let mut inputs = self::inputs(&dir);
    inputs.insert(5, data("not_tfrecord.csv"));
    let ran = same_for_any_jobs(&["to-jsonl"], &inputs);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("not a TFRecord"), "{}", ran.stderr);
}

#[test]
fn jobs_must_be_positive() {
    for cmd in ["cat", "count", "verify-crc", "to-jsonl", "from-jsonl"] {
        let ran = tfr(&[cmd, "-j", "0", "x"]).run();
        assert_eq!(ran.code, 2, "{cmd}");
        assert!(ran.stderr.contains("-j"), "{cmd}: {}", ran.stderr);
    }
}

#[test]
fn gzip_output_is_the_same_records_for_any_jobs() {
    let dir = Dir::new();
    // Several megabytes of JSON lines: several compression chunks.
    let jsonl: String = (0..60_000u64)
        .map(|i| {
            format!(
                "{{\"x\": [{i}], \"s\": [\"row {i} {}\"]}}\n",
                "pad".repeat((i % 40) as usize)
            )
        })
        .collect();
    let input = dir.write("in.jsonl", jsonl.as_bytes());
    let mut plain = None;
    for jobs in ["1", "2", "3"] {
        let out = format!("out{jobs}.tfrecord.gz");
        dir.tfr(&["from-jsonl", "-j", jobs, &input, "-o", &out, "--compression", "gzip"])
            .run()
            .ok();
        let bytes = std::fs::read(dir.path(&out)).unwrap();
        let mut inflated = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut inflated).unwrap();
        match &plain {
            None => plain = Some(inflated),
            Some(p) => assert!(*p == inflated, "-j {jobs}: different records"),
        }
        let back = dir.tfr(&["to-jsonl", &out]).run().ok();
        assert!(back.lines().count() == 60_000, "-j {jobs}");
    }
}

/// A plain file of `n` records of 1000 bytes (12 MB for 12,000): large
/// enough to be walked by several threads.
fn large(n: u32) -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            (0..1000u32)
                .map(|j| (i.wrapping_mul(7919) ^ j.wrapping_mul(31)) as u8)
                .collect()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(|p| p.as_slice()).collect();
    records(&refs)
}

#[test]
#[ignore = "slow: a 12,000-record file and its damaged copies verified at several -j: cargo test -- --include-ignored"]
fn one_large_file_walked_by_several_threads_reports_what_one_does() {
    let dir = Dir::new();
    let clean = large(12_000);
    let size = clean.len();
    let input = dir.write("clean.tfrecord", &clean);
    let ran = same_for_any_jobs(&["verify-crc"], std::slice::from_ref(&input));
    assert!(
        ran.stdout_str().contains("12000 records, all intact"),
        "{}",
        ran.stdout_str()
    );
    assert_eq!(same_for_any_jobs(&["count"], &[input]).stdout_str(), "12000\n");
    // Damage before, at and after the cuts between the threads' ranges
    // (at 1/2, 1/3, 2/3 ... of the file), and in the tail.
    for at in [5, size / 3 - 3, size / 2, size / 2 + 700, size * 2 / 3 + 1, size - 10] {
        for (name, bytes) in [
            ("flip", {
                let mut b = clean.clone();
                b[at] ^= 0x08;
                b
            }),
            ("cut", clean[..at].to_vec()),
            ("garbage", {
                let mut b = clean.clone();
                b.splice(at..at, b"some garbage".iter().copied());
                b
            }),
        ] {
            let input = dir.write(&format!("{name}{at}.tfrecord"), &bytes);
            let ran = same_for_any_jobs(&["verify-crc", "--json"], std::slice::from_ref(&input));
            // Records are 1016 bytes framed: a cut at a multiple is a clean
            // file, a flip after the header (payload or its CRC) is not seen by count, and 5
            // bytes are not a TFRecord file at all.
            let (boundary, in_payload) = (at % 1016 == 0, (12..1016).contains(&(at % 1016)));
            let (verify, count) = match name {
                "flip" => (1, if in_payload { 0 } else { 2 }),
                "cut" if boundary => (0, 0),
                "cut" if at == 5 => (2, 2),
                "cut" => (1, 2),
                _ => (1, 2),
            };
            assert_eq!(ran.code, verify, "{name} at {at}: {}", ran.stderr);
            let ran = same_for_any_jobs(&["count"], std::slice::from_ref(&input));
            assert_eq!(ran.code, count, "{name} at {at}: {}", ran.stderr);
        }
    }
}

/// A long `--skip` through a plain file starts near the wanted record (its
/// headers walked on several threads): the same records as walking every
/// header on one, at every distance, across inputs, and past the end.
#[test]
fn long_skips_land_on_the_same_record_with_any_jobs() {
    let dir = Dir::new();
    let payloads: Vec<Vec<u8>> = (0..120_000u32)
        .map(|i| format!("record {i} {}", "x".repeat((i % 97) as usize)).into_bytes())
        .collect();
    let file = records(&payloads.iter().map(Vec::as_slice).collect::<Vec<_>>());
    assert!(file.len() > 8 << 20, "big enough to split in two: {}", file.len());
    dir.write("a.tfrecord", &file);
    dir.write("b.tfrecord", &records(&[b"first of b", b"second of b"]));
    for skip in [
        "0", "32767", "32768", "49151", "100000", "119995", "120000", "120001", "130000",
    ] {
        for inputs in [&["a.tfrecord"][..], &["a.tfrecord", "b.tfrecord"][..]] {
            let run = |jobs: &str| {
                let mut args = vec!["cat", "--type", "raw", "-j", jobs, "--skip", skip, "-n", "3"];
                args.extend_from_slice(inputs);
                dir.tfr(&args).run().ok()
            };
            let one = run("1");
            assert_eq!(run("2"), one, "--skip {skip} {inputs:?}");
            assert_eq!(run("8"), one, "--skip {skip} {inputs:?}");
            if skip == "100000" {
                // Several inputs name the file in each record's comment.
                let want = match inputs.len() {
                    1 => "# record 100000\n\"record 100000 ",
                    _ => "# a.tfrecord record 100000\n\"record 100000 ",
                };
                assert!(one.starts_with(want), "{one}");
            }
        }
    }
}

/// `verify-crc --payloads` checks payloads on several threads, `schema`,
/// `stats` and `validate` read several inputs at once: the lines, their
/// order, the reports and the exit codes are those of `-j 1`.
#[test]
#[ignore = "slow: 30,000 payloads checked and scanned at -j 1, 2 and 16 by four commands: cargo test -- --include-ignored"]
fn payload_checks_and_scans_are_the_same_for_any_jobs() {
    let dir = Dir::new();
    // A SequenceExample with a context only (byte for byte an Example), and
    // one with a step in two packed chunks, which TensorFlow rejects.
    let context_only: &[u8] = b"\x0a\x0c\x0a\x0a\x0a\x01c\x12\x05\x1a\x03\x0a\x01\x01";
    let mut two_chunks = context_only.to_vec();
    two_chunks.extend_from_slice(b"\x12\x11\x0a\x0f\x0a\x01s\x12\x0a\x0a\x08\x1a\x06\x0a\x01\x01\x0a\x01\x02");
    let payloads: Vec<&[u8]> = (0..30_000)
        .map(|i| if i % 997 == 500 { &two_chunks[..] } else { context_only })
        .collect();
    let seq = dir.write("seq.tfrecord", &records(&payloads));
    let ran = same_for_any_jobs(&["verify-crc", "--payloads"], std::slice::from_ref(&seq));
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let flagged: Vec<&str> = ran.stderr.lines().filter(|l| l.contains("rejects it")).collect();
    assert_eq!(flagged.len(), 30, "{}", ran.stderr);
    assert!(flagged[0].contains("record 500 at"), "{}", flagged[0]);
    assert!(flagged[29].contains("record 29413 at"), "{}", flagged[29]);
    let report = same_for_any_jobs(&["verify-crc", "--payloads", "--json"], std::slice::from_ref(&seq));
    assert!(
        report.stdout_str().contains("\"payload_issues\":30"),
        "{}",
        report.stdout_str()
    );
    // Several inputs with the payloads checked: the lines in input order.
    let inputs = inputs(&dir);
    let mut with_seq = inputs.clone();
    with_seq.insert(3, seq.clone());
    let ran = same_for_any_jobs(&["verify-crc", "--payloads"], &with_seq);
    assert_eq!(ran.code, 1, "{}", ran.stderr);

    for args in [&["schema"][..], &["schema", "-f", "json"], &["stats", "-f", "json"]] {
        let ran = same_for_any_jobs(args, &inputs);
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
    }
    let schema = tfr(&[
        &["schema", "-f", "tfdv-schema"][..],
        &inputs.iter().map(String::as_str).collect::<Vec<_>>(),
    ]
    .concat())
    .run()
    .ok();
    let schema = dir.write("schema.pbtxt", schema.as_bytes());
    let ran = same_for_any_jobs(&["validate", "--schema", &schema], &inputs);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    // The dataset's type is its first record's, whichever thread reads it:
    // an empty input first, then Examples; the SequenceExamples after them
    // stop the scan at the same record for any -j.
    let mut typed = vec![data("empty.tfrecord")];
    typed.extend(inputs.iter().cloned());
    typed.push(seq);
    for args in [
        &["schema"][..],
        &["stats", "-f", "json"],
        &["validate", "--schema", &schema],
    ] {
        let ran = same_for_any_jobs(args, &typed);
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.stderr);
        assert!(
            ran.stderr.contains("seq.tfrecord: record 500"),
            "{args:?}: {}",
            ran.stderr
        );
    }
}

/// Issue 26: one large plain file is read by several threads, a piece
/// each (from -j 4 on): the output, the statistics to the last bit, and
/// where damage stops the run are those of one reader.
#[test]
#[ignore = "slow: an 18 MB file (pieces start at 16 MB) read 30 times: cargo test -- --include-ignored"]
fn one_large_file_read_in_pieces_gives_what_one_reader_does() {
    let dir = Dir::new();
    // About 18 MB of Examples whose bytes feature pads them to ~110 bytes.
    let payloads: Vec<Vec<u8>> = (0..160_000u64)
        .map(|i| example_text(i, &format!("row {i} {}", "p".repeat(60))))
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let mut bytes = records(&refs);
    assert!(bytes.len() > 17 << 20, "{} bytes", bytes.len());
    let big = dir.write("big.tfrecord", &bytes);
    for args in [
        &["cat"][..],
        &["to-jsonl"],
        &["schema", "-f", "json"],
        &["stats", "-f", "json"],
    ] {
        let ran = same_for_any_jobs(args, std::slice::from_ref(&big));
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
    }
    // Damage: a payload byte of record 90,000, then (another file) the
    // length of record 120,000.
    let offset_of = |n: usize| refs[..n].iter().map(|p| p.len() + 16).sum::<usize>();
    let mut payload_bad = bytes.clone();
    payload_bad[offset_of(90_000) + 12 + 5] ^= 0x20;
    bytes[offset_of(120_000) + 2] ^= 0x01;
    let inputs = [
        dir.write("payload_bad.tfrecord", &payload_bad),
        dir.write("length_bad.tfrecord", &bytes),
    ];
    // A record whose frame checks but whose payload is no Example: the
    // worker's error, after the records before it, whatever thread read it.
    let mut not_example = refs.clone();
    not_example[100_000] = b"\xff\xff\xff\xff";
    let inputs = [
        inputs[0].clone(),
        inputs[1].clone(),
        dir.write("not_example.tfrecord", &records(&not_example)),
    ];
    for (input, record) in inputs.iter().zip(["record 90000", "record 120000", "record 100000"]) {
        for args in [&["to-jsonl"][..], &["stats", "-f", "json"]] {
            let ran = same_for_any_jobs(args, std::slice::from_ref(input));
            assert_eq!(ran.code, 2, "{args:?} {input}: {}", ran.stderr);
            assert!(ran.stderr.contains(record), "{args:?}: {}", ran.stderr);
        }
    }
}

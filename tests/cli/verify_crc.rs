//! `tfr verify-crc`: every damage kind found, named and located; resync;
//! summaries, tables and JSON; `--salvage` byte-identical; exit codes; the
//! TensorFlow-made fixtures (judged in verify_crc_payloads.rs, with
//! `--payloads`).

use crate::util::*;
use std::io::Read;

/// `n` payloads of varied sizes (0..=300 bytes), distinct contents.
fn payloads(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| (0..(i * 37) % 301).map(|j| (i * 131 + j * 7) as u8).collect())
        .collect()
}

fn framed(payloads: &[Vec<u8>]) -> Vec<u8> {
    let refs: Vec<&[u8]> = payloads.iter().map(|p| &p[..]).collect();
    records(&refs)
}

/// Byte offset of record `i` of `framed(payloads)`.
fn offset_of(payloads: &[Vec<u8>], i: usize) -> usize {
    payloads[..i].iter().map(|p| p.len() + 16).sum()
}

/// The records of `payloads` without those at `skip`, framed.
fn without(payloads: &[Vec<u8>], skip: &[usize]) -> Vec<u8> {
    let kept: Vec<Vec<u8>> = payloads
        .iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, p)| p.clone())
        .collect();
    framed(&kept)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out).unwrap();
    out
}

/// The stderr lines of a run (each must be a `tfr: ` line).
fn lines(ran: &Ran) -> Vec<String> {
    ran.stderr.lines().map(str::to_string).collect()
}

/// Runs with `--json` and parses stdout.
pub(crate) fn json(args: &[&str]) -> (i32, serde_json::Value, Vec<String>) {
    let mut all = vec!["verify-crc", "--json"];
    all.extend_from_slice(args);
    let ran = tfr(&all).run();
    let doc = serde_json::from_slice(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.stdout_str()));
    (ran.code, doc, lines(&ran))
}

#[test]
fn one_flipped_bit_in_record_500_of_1000() {
    let dir = Dir::new();
    let p = payloads(1000);
    let mut bytes = framed(&p);
    let at = offset_of(&p, 500);
    bytes[at + 12 + p[500].len() / 2] ^= 0x08;
    let path = dir.write("d.tfrecord", &bytes);
    let out = dir.path("salvaged.tfrecord");
    let ran = tfr(&["verify-crc", &path, "--salvage", out.to_str().unwrap()]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let err = lines(&ran);
    assert_eq!(err.len(), 1, "{err:?}");
    let skipped = p[500].len() + 16;
    assert_eq!(
        err[0],
        format!(
            "tfr: {path}: record 500 at byte {at}: data checksum mismatch; {skipped} bytes skipped to the next intact record at byte {}",
            at + skipped
        )
    );
    assert_eq!(
        ran.stdout_str(),
        format!("{path}: 999 records intact, 1 fault, {skipped} bytes lost\n")
    );
    assert_eq!(std::fs::read(&out).unwrap(), without(&p, &[500]));
    // The salvaged file is clean.
    let out = out.to_str().unwrap();
    assert_eq!(
        tfr(&["verify-crc", out]).run().ok(),
        format!("{out}: 999 records, all intact\n")
    );
}

#[test]
fn clean_file_exits_0_and_salvage_is_a_copy() {
    let dir = Dir::new();
    let bytes = framed(&payloads(50));
    let path = dir.write("c.tfrecord", &bytes);
    let out = dir.path("copy.tfrecord");
    let stdout = tfr(&["verify-crc", &path, "--salvage", out.to_str().unwrap()])
        .run()
        .ok();
    assert_eq!(stdout, format!("{path}: 50 records, all intact\n"));
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path(".")).unwrap().collect();
    assert_eq!(leftovers.len(), 2, "no temporary file left behind");
}

#[test]
fn damaged_length_field_is_a_length_checksum_mismatch() {
    let dir = Dir::new();
    let p = payloads(100);
    let mut bytes = framed(&p);
    let at = offset_of(&p, 40);
    bytes[at + 2] ^= 0x01;
    let path = dir.write("l.tfrecord", &bytes);
    let out = dir.path("s.tfrecord");
    let (code, doc, err) = json(&[&path, "--salvage", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(err.len(), 1);
    assert!(
        err[0].contains(&format!("record 40 at byte {at}: length checksum mismatch")),
        "{err:?}"
    );
    let f = &doc["files"][0];
    assert_eq!(f["intact_records"], 99);
    assert_eq!(f["status"], "damaged");
    assert_eq!(f["faults"][0]["kind"], "length_crc");
    assert_eq!(f["faults"][0]["offset"], at);
    assert_eq!(f["faults"][0]["bytes_skipped"], p[40].len() + 16);
    assert_eq!(f["faults"][0]["resumed"], true);
    assert_eq!(doc["intact"], false);
    assert_eq!(std::fs::read(&out).unwrap(), without(&p, &[40]));
}

#[test]
fn tails_truncated_or_garbage_are_named_and_the_rest_salvaged() {
    let dir = Dir::new();
    let p = payloads(20);
    let good = framed(&p);
    let last = offset_of(&p, 19);
    let end = good.len();
    let cases: Vec<(&str, Vec<u8>, String, Vec<usize>)> = vec![
        (
            "cut.tfrecord",
            good[..good.len() - 10].to_vec(),
            format!("record 19 at byte {last}: truncated payload"),
            vec![19],
        ),
        (
            "header.tfrecord",
            [&good[..], &good[..7]].concat(),
            format!("record 20 at byte {end}: truncated header (7 trailing bytes"),
            vec![],
        ),
        (
            "garbage.tfrecord",
            [&good[..], b"<this is garbage appended to the file>"].concat(),
            format!("record 20 at byte {end}: trailing garbage (38 bytes"),
            vec![],
        ),
    ];
    for (name, bytes, want, lost) in cases {
        let path = dir.write(name, &bytes);
        let out = dir.path(&format!("salvaged-{name}"));
        let ran = tfr(&["verify-crc", &path, "--salvage", out.to_str().unwrap()]).run();
        assert_eq!(ran.code, 1, "{name}: {}", ran.stderr);
        let err = lines(&ran);
        assert_eq!(err.len(), 1, "{name}: {err:?}");
        assert!(err[0].contains(&want), "{name}: {err:?} should contain {want}");
        assert!(err[0].contains("lost to the end of input"), "{name}: {err:?}");
        assert_eq!(std::fs::read(&out).unwrap(), without(&p, &lost), "{name}");
    }
}

#[test]
fn length_of_2_pow_62_is_beyond_the_end_plain_gzip_and_stdin() {
    let dir = Dir::new();
    let p = payloads(30);
    let at = offset_of(&p, 10);
    let mut bytes = framed(&p[..10]);
    bytes.extend_from_slice(&tfr::record::encode_header(1 << 62));
    bytes.extend_from_slice(b"12345678");
    bytes.extend_from_slice(&framed(&p[10..]));
    let want = format!("record 10 at byte {at}");
    for (name, input) in [("huge.tfrecord", bytes.clone()), ("huge.tfrecord.gz", gzip(&bytes))] {
        let path = dir.write(name, &input);
        let out = dir.path(&format!("salvaged-{name}"));
        let ran = tfr(&["verify-crc", &path, "--salvage", out.to_str().unwrap()]).run();
        assert_eq!(ran.code, 1, "{name}: {}", ran.stderr);
        let err = lines(&ran);
        assert_eq!(err.len(), 1, "{name}: {err:?}");
        assert!(err[0].contains(&want), "{name}: {err:?}");
        assert!(
            err[0].contains("length 4611686018427387904 beyond the end of input"),
            "{name}: {err:?}"
        );
        assert!(
            err[0].contains("20 bytes skipped to the next intact record"),
            "{name}: {err:?}"
        );
        let salvaged = std::fs::read(&out).unwrap();
        let salvaged = if name.ends_with(".gz") {
            gunzip(&salvaged)
        } else {
            salvaged
        };
        assert_eq!(salvaged, framed(&p), "{name}");
    }
    let ran = tfr(&["verify-crc"]).stdin(&gzip(&bytes)).run();
    assert_eq!(ran.code, 1);
    assert!(
        ran.stderr.contains(&format!("{want} of the decompressed gzip stream")),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.stdout_str(), "<stdin>: 30 records intact, 1 fault, 20 bytes lost\n");
}

#[test]
fn truncated_gzip_stream_salvages_the_records_before_the_cut() {
    let dir = Dir::new();
    let p = payloads(1000);
    let plain = framed(&p);
    let gz = gzip(&plain);
    let path = dir.write("cut.tfrecord.gz", &gz[..gz.len() / 2]);
    let out = dir.path("s.tfrecord.gz");
    let (code, doc, err) = json(&[&path, "--salvage", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(
        err[0].contains("corrupt compressed stream (the gzip stream is cut short)"),
        "{err:?}"
    );
    assert!(err[0].contains("of the decompressed gzip stream"), "{err:?}");
    let f = &doc["files"][0];
    assert_eq!(f["compression"], "gzip");
    assert_eq!(f["faults"][0]["kind"], "corrupt_compressed");
    let intact = f["intact_records"].as_u64().unwrap() as usize;
    assert!(intact > 300 && intact < 1000, "{intact}");
    assert_eq!(f["faults"][0]["record"], intact);
    assert_eq!(f["faults"][0]["offset"], offset_of(&p, intact));
    // Same compression as the input; the records before the cut, byte-identical.
    let salvaged = std::fs::read(&out).unwrap();
    assert_eq!(&salvaged[..2], &[0x1f, 0x8b]);
    assert_eq!(gunzip(&salvaged), framed(&p[..intact]));
}

#[test]
fn corrupted_gzip_stream_is_reported_and_the_intact_records_kept_in_order() {
    let dir = Dir::new();
    let p = payloads(1000);
    let plain = framed(&p);
    let mut gz = gzip(&plain);
    let mid = gz.len() / 2;
    gz[mid..mid + 8].copy_from_slice(&[0xff; 8]);
    let path = dir.write("bad.tfrecord.gz", &gz);
    let out = dir.path("s.tfrecord");
    let ran = tfr(&[
        "verify-crc",
        &path,
        "--salvage",
        out.to_str().unwrap(),
        "--salvage-compression",
        "none",
    ])
    .run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let err = lines(&ran);
    assert!(err.last().unwrap().contains("corrupt compressed stream"), "{err:?}");
    // Every salvaged record is an original one, in order.
    let salvaged = std::fs::read(&out).unwrap();
    let mut originals = p.iter().map(|x| framed(std::slice::from_ref(x)));
    let mut at = 0;
    let mut count = 0;
    while at < salvaged.len() {
        let len = u64::from_le_bytes(salvaged[at..at + 8].try_into().unwrap()) as usize + 16;
        let rec = &salvaged[at..at + len];
        assert!(
            originals.any(|o| o == rec),
            "salvaged record {count} is not an original"
        );
        at += len;
        count += 1;
    }
    assert!(count > 100, "only {count} records salvaged");
}

#[test]
fn damage_inside_zlib_is_located_in_the_decompressed_stream() {
    let dir = Dir::new();
    let p = payloads(100);
    let mut plain = framed(&p);
    let at = offset_of(&p, 33);
    plain[at + 20] ^= 0x80;
    let path = dir.write("z.tfrecord", &zlib(&plain));
    let out = dir.path("s.tfrecord.zz");
    let ran = tfr(&["verify-crc", &path, "--salvage", out.to_str().unwrap()]).run();
    assert_eq!(ran.code, 1);
    let err = lines(&ran);
    assert_eq!(err.len(), 1);
    assert!(
        err[0].contains(&format!(
            "record 33 at byte {at} of the decompressed zlib stream: data checksum mismatch"
        )),
        "{err:?}"
    );
    let salvaged = std::fs::read(&out).unwrap();
    assert_eq!(&salvaged[..1], &[0x78], "zlib, as its name says");
    let mut inflated = Vec::new();
    flate2::read::ZlibDecoder::new(&salvaged[..])
        .read_to_end(&mut inflated)
        .unwrap();
    assert_eq!(inflated, without(&p, &[33]));
}

#[test]
fn two_faults_in_one_file_are_both_reported() {
    let dir = Dir::new();
    let p = payloads(50);
    let mut bytes = framed(&p);
    let (a, b) = (offset_of(&p, 5), offset_of(&p, 45));
    bytes[a + 14] ^= 1;
    bytes[b + 9] ^= 1;
    let path = dir.write("two.tfrecord", &bytes);
    let (code, doc, err) = json(&[&path]);
    assert_eq!(code, 1);
    assert_eq!(err.len(), 2, "{err:?}");
    let faults = doc["files"][0]["faults"].as_array().unwrap();
    let got: Vec<(u64, u64, &str)> = faults
        .iter()
        .map(|f| {
            (
                f["record"].as_u64().unwrap(),
                f["offset"].as_u64().unwrap(),
                f["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, vec![(5, a as u64, "data_crc"), (45, b as u64, "length_crc")]);
    assert_eq!(doc["files"][0]["intact_records"], 48);
}

#[test]
fn clean_multi_file_dataset_prints_a_table_and_exits_0() {
    let dir = Dir::new();
    let p = payloads(30);
    dir.write("train-00.tfrecord", &framed(&p[..10]));
    dir.write("train-01.tfrecord", &gzip(&framed(&p[10..20])));
    dir.write("train-02.tfrecord", &zlib(&framed(&p[20..])));
    let table = dir.tfr(&["verify-crc", "train-*"]).run().ok();
    for needle in [
        "train-00.tfrecord",
        "train-01.tfrecord",
        "train-02.tfrecord",
        "gzip",
        "zlib",
        "total (3 files)",
    ] {
        assert!(table.contains(needle), "{needle} missing from\n{table}");
    }
    assert!(
        table
            .lines()
            .any(|l| l.contains("total") && l.contains("30") && l.contains("ok")),
        "{table}"
    );
    let ran = dir.tfr(&["verify-crc", "--json", "train-*"]).run();
    let doc: serde_json::Value = serde_json::from_str(&ran.ok()).unwrap();
    assert_eq!(doc["intact"], true);
    assert_eq!(doc["total"]["intact_records"], 30);
    assert_eq!(doc["total"]["faults"], 0);
    assert_eq!(doc["files"].as_array().unwrap().len(), 3);
    // Salvaging several inputs concatenates their records.
    let ran = dir
        .tfr(&[
            "verify-crc",
            "train-*",
            "--salvage",
            "all.tfrecord",
            "--salvage-compression",
            "none",
        ])
        .run();
    ran.ok();
    assert_eq!(std::fs::read(dir.path("all.tfrecord")).unwrap(), framed(&p));
}

#[test]
fn mixed_dataset_reports_each_file_and_the_worst_exit() {
    let dir = Dir::new();
    let p = payloads(10);
    let mut bad = framed(&p);
    bad[20] ^= 1;
    let good = dir.write("good.tfrecord", &framed(&p));
    let bad = dir.write("bad.tfrecord", &bad);
    let (code, doc, _) = json(&[&good, &bad]);
    assert_eq!(code, 1);
    assert_eq!(doc["total"]["damaged_files"], 1);
    let statuses: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["ok", "damaged"]);
    let missing = dir.path("missing.tfrecord");
    let (code, doc, err) = json(&[&good, &bad, missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(doc["files"][2]["status"], "unreadable");
    assert!(
        err.iter().any(|l| l.contains("missing.tfrecord: cannot open")),
        "{err:?}"
    );
    let table = tfr(&["verify-crc", &good, &bad]).run();
    assert_eq!(table.code, 1);
    assert!(table.stdout_str().contains("damaged"), "{}", table.stdout_str());
    assert!(table.stdout_str().contains("1 not ok"), "{}", table.stdout_str());
}

#[test]
fn text_file_exits_2_with_a_diagnosis() {
    let dir = Dir::new();
    let path = dir.write("notes.txt", b"id,label\n1,cat\n2,dog\n3,bird\n");
    let line = tfr(&["verify-crc", &path]).run().fails(2);
    assert_eq!(
        line,
        format!("tfr: {path}: not a TFRecord file (the input is text: was it meant for `tfr from-jsonl`, or is it the wrong file?)")
    );
    let path = dir.write("page.tfrecord", b"<!DOCTYPE html>\n<html><body>Sign in</body></html>\n");
    let line = tfr(&["verify-crc", &path]).run().fails(2);
    assert!(line.contains("HTML page"), "{line}");
    let path = dir.write("tiny.txt", b"hi\n");
    let line = tfr(&["verify-crc", &path]).run().fails(2);
    assert!(line.contains("not a TFRecord file (only 3 bytes"), "{line}");
}

#[test]
fn endless_stream_that_is_not_a_tfrecord_ends() {
    // The scan for a first record after a bad first header used to read
    // /dev/zero forever; a stream is searched only so far (16 MiB).
    let err = tfr(&["verify-crc", "/dev/zero"]).run_within(60).fails(2);
    assert!(err.contains("/dev/zero: not a TFRecord file"), "{err}");
    // A file is finite: garbage before its first record is skipped and reported.
    let dir = Dir::new();
    let mut bytes = vec![0u8; 20 << 20];
    bytes.extend_from_slice(&framed(&payloads(3)));
    let input = dir.write("late.tfrecord", &bytes);
    let ran = tfr(&["verify-crc", &input]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("record 0 at byte 0: length checksum mismatch; 20971520 bytes skipped"),
        "{}",
        ran.stderr
    );
    assert!(ran.stdout_str().contains("3 records intact"), "{}", ran.stdout_str());
    // A gzip file is finite too, whatever its decompressed stream holds
    // (the limit was once applied to every stream, gzip files included).
    let gz = dir.write("late.tfrecord.gz", &gzip(&bytes));
    let ran = tfr(&["verify-crc", &gz]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("of the decompressed gzip stream: length checksum mismatch; 20971520 bytes skipped"),
        "{}",
        ran.stderr
    );
    // A pipe may never end: it is searched 16 MiB deep.
    let ran = tfr(&["verify-crc"]).stdin(&bytes).run();
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("<stdin>: not a TFRecord file"), "{}", ran.stderr);
}

#[test]
fn overlapping_look_alike_headers_cannot_make_the_scan_quadratic() {
    // After a bad header, 100,000 headers that check, back to back, each
    // announcing a 1 MiB payload: checking every one read 100 GB (minutes
    // in a debug build). The scan now stops checking bytes over and over
    // and counts the rest as lost.
    let dir = Dir::new();
    let mut bytes = framed(&payloads(3));
    bytes.extend_from_slice(&[0; 12]);
    let look_alike = tfr::record::encode_header(1 << 20);
    for _ in 0..100_000 {
        bytes.extend_from_slice(&look_alike);
    }
    bytes.extend_from_slice(&vec![0; 1 << 20]);
    let input = dir.write("crafted.tfrecord", &bytes);
    let ran = tfr(&["verify-crc", &input]).run_within(60);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stdout_str().contains("3 records intact, 1 fault"),
        "{}",
        ran.stdout_str()
    );
}

#[test]
fn a_damaged_record_whose_payload_is_headers_loses_at_most_one_span_after_it() {
    // A 5 MB payload made of headers each announcing 3 MiB, its own header
    // damaged: the scan cannot afford to check every look-alike, jumps past
    // the spans it checked and resumes among the records after the payload
    // (it once counted the whole rest of the file as lost).
    let dir = Dir::new();
    let mut p = payloads(3000);
    let tail = payloads(20_000);
    p.push(tfr::record::encode_header(3 << 20).repeat(5_000_000 / 12));
    p.extend(tail.iter().cloned());
    let mut bytes = framed(&p);
    let big = offset_of(&p, 3000);
    bytes[big + 2] ^= 0x01;
    let input = dir.write("headers.tfrecord", &bytes);
    let ran = tfr(&["verify-crc", "--json", &input]).run_within(120);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
    let fault = &doc["files"][0]["faults"][0];
    assert_eq!(
        (fault["offset"].as_u64(), fault["resumed"].as_bool()),
        (Some(big as u64), Some(true)),
        "{doc}"
    );
    let payload_end = offset_of(&p, 3001) as u64;
    let resumed_at = big as u64 + fault["bytes_skipped"].as_u64().unwrap();
    assert!(
        resumed_at >= payload_end && resumed_at <= payload_end + (3 << 20) + 16,
        "{doc}"
    );
    assert_eq!(doc["files"][0]["faults"].as_array().unwrap().len(), 1, "{doc}");
}

#[test]
fn damage_next_to_a_large_damaged_record_still_resumes_after_it() {
    // A bad header, then a 6 MB record whose payload fails: the scan checks
    // that record once, walks over it and resumes at the next one.
    let dir = Dir::new();
    let mut p = payloads(5);
    p.insert(2, vec![0x5a; 6 << 20]);
    let mut bytes = framed(&p);
    let (a, b) = (offset_of(&p, 1), offset_of(&p, 2));
    bytes[a + 3] ^= 0x20;
    bytes[b + 12 + 1000] ^= 0x01;
    let input = dir.write("two.tfrecord", &bytes);
    let ran = tfr(&["verify-crc", &input]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains(&format!("record 1 at byte {a}: length checksum mismatch")),
        "{}",
        ran.stderr
    );
    let resumed = offset_of(&p, 3);
    assert!(
        ran.stderr.contains(&format!("next intact record at byte {resumed}")),
        "{}",
        ran.stderr
    );
    assert!(ran.stdout_str().contains("4 records intact"), "{}", ran.stdout_str());
}

#[test]
fn salvage_to_stdout_moves_the_summary_to_stderr() {
    let p = payloads(10);
    let mut bytes = framed(&p);
    let at = offset_of(&p, 3);
    bytes[at + 12] ^= 2;
    let ran = tfr(&["verify-crc", "-", "--salvage", "-"]).stdin(&bytes).run();
    assert_eq!(ran.code, 1);
    assert_eq!(ran.stdout, without(&p, &[3]));
    let lost = p[3].len() + 16;
    let summary = format!("\n<stdin>: 9 records intact, 1 fault, {lost} bytes lost\n");
    assert!(ran.stderr.ends_with(&summary), "{}", ran.stderr);
}

#[test]
fn salvage_compression_can_be_forced() {
    let dir = Dir::new();
    let p = payloads(10);
    let path = dir.write("in.tfrecord", &framed(&p));
    for (kind, magic) in [("gzip", 0x1f_u8), ("zlib", 0x78)] {
        let out = dir.path(kind);
        tfr(&[
            "verify-crc",
            &path,
            "--salvage",
            out.to_str().unwrap(),
            "--salvage-compression",
            kind,
        ])
        .run()
        .ok();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(bytes[0], magic, "{kind}");
        let back = tfr(&["verify-crc", out.to_str().unwrap()]).run().ok();
        assert!(back.contains("10 records, all intact"), "{back}");
    }
    let line = tfr(&["verify-crc", &path, "--salvage-compression", "gzip"]).run();
    assert_eq!(line.code, 2, "--salvage-compression needs --salvage");
}

#[test]
fn unwritable_salvage_fails_without_leaving_files() {
    let dir = Dir::new();
    let path = dir.write("in.tfrecord", &framed(&payloads(3)));
    // Under a file no directory can be made: one line, nothing left.
    let out = dir.path("in.tfrecord/dir/out.tfrecord");
    let line = tfr(&["verify-crc", &path, "--salvage", out.to_str().unwrap()])
        .run()
        .fails(2);
    assert!(line.contains("cannot create the directory"), "{line}");
    assert_eq!(std::fs::read_dir(dir.path("")).unwrap().count(), 1);
}

//! `--part K/N` (issue 31): the parts of the inputs are disjoint and cover
//! them exactly once, in order, for one file cut by bytes and for many
//! files dealt out whole, plain and compressed; counts add up and
//! statistics merge to one run's.

use crate::util::*;

/// A dataset in `dir`: the notebook fixture's 200 Examples repeated
/// `times` times in one file (about 20 KB each time).
fn notebook_times(dir: &Dir, name: &str, times: usize) -> String {
    let one = std::fs::read(data("notebook.tfrecord")).unwrap();
    dir.write(name, &one.repeat(times))
}

/// The stdout of `tfr ARGS --part k/n` for every k, concatenated.
fn parts(dir: &Dir, args: &[&str], n: u64) -> Vec<u8> {
    let mut all = Vec::new();
    for k in 0..n {
        let part = format!("{k}/{n}");
        let mut a = args.to_vec();
        a.extend(["--part", &part]);
        let ran = dir.tfr(&a).run();
        assert_eq!(ran.code, 0, "{a:?}: {}", ran.stderr);
        all.extend(ran.stdout);
    }
    all
}

#[test]
#[ignore = "slow: a 1,000-record file converted in 1 to 16 parts, a process per part: cargo test -- --include-ignored"]
fn parts_of_one_plain_file_are_the_whole_in_order() {
    let dir = Dir::new();
    notebook_times(&dir, "big.tfrecord", 5);
    let whole = dir.tfr(&["to-jsonl", "big.tfrecord"]).run().ok();
    assert_eq!(whole.lines().count(), 1000);
    for n in [1, 2, 3, 4, 7, 16] {
        let joined = parts(&dir, &["to-jsonl", "big.tfrecord"], n);
        assert_eq!(String::from_utf8(joined).unwrap(), whole, "{n} parts");
    }
    // More parts than records (many of them empty), on the 200-record
    // file: a process per part.
    notebook_times(&dir, "small.tfrecord", 1);
    let small = dir.tfr(&["to-jsonl", "small.tfrecord"]).run().ok();
    let joined = parts(&dir, &["to-jsonl", "small.tfrecord"], 300);
    assert_eq!(String::from_utf8(joined).unwrap(), small, "300 parts of 200 records");
    // Every worker of a 3-way split gets about a third, cut at records.
    for k in 0..3 {
        let part = format!("{k}/3");
        let count: u64 = dir
            .tfr(&["count", "big.tfrecord", "--part", &part])
            .run()
            .ok()
            .trim()
            .parse()
            .unwrap();
        assert!((300..=370).contains(&count), "part {k}: {count}");
    }
    // A part of a file is named with its bytes.
    let json = dir
        .tfr(&["count", "--json", "big.tfrecord", "--part", "1/2"])
        .run()
        .ok();
    assert!(json.contains("\"file\":\"big.tfrecord [bytes "), "{json}");
}

#[test]
fn parts_of_many_files_deal_them_whole() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path("data")).unwrap();
    for i in 0..5 {
        notebook_times(&dir, &format!("data/train-{i}.tfrecord"), 1 + i % 2);
    }
    let whole = dir.tfr(&["to-jsonl", "data/train-*"]).run().ok();
    for n in [2, 3, 5] {
        let joined = parts(&dir, &["to-jsonl", "data/train-*"], n);
        assert_eq!(String::from_utf8(joined).unwrap(), whole, "{n} parts");
        // Files whole: every part's count --json names whole files only.
        for k in 0..n {
            let part = format!("{k}/{n}");
            let json = dir
                .tfr(&["count", "--json", "data/train-*", "--part", &part])
                .run()
                .ok();
            assert!(!json.contains("[bytes"), "{json}");
        }
    }
    // 2 of 5 files in part 0 of 2 (files 0..2), 3 in part 1 (2..5).
    let first = dir
        .tfr(&["count", "--json", "data/train-*", "--part", "0/2"])
        .run()
        .ok();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["files"].as_array().unwrap().len(), 2, "{first}");
    // More parts than files: files cut by bytes.
    let joined = parts(&dir, &["to-jsonl", "data/train-*"], 8);
    assert_eq!(String::from_utf8(joined).unwrap(), whole, "8 parts of 5 files");
}

#[test]
fn compressed_files_go_whole_to_one_part() {
    let dir = Dir::new();
    let plain = std::fs::read(data("notebook.tfrecord")).unwrap();
    dir.write("a.tfrecord.gz", &gzip(&plain.repeat(3)));
    dir.write("b.tfrecord", &plain.repeat(2));
    dir.write("c.tfrecord.zz", &zlib(&plain));
    let inputs = ["a.tfrecord.gz", "b.tfrecord", "c.tfrecord.zz"];
    let mut args = vec!["to-jsonl"];
    args.extend(inputs);
    let whole = dir.tfr(&args).run().ok();
    for n in [4, 6, 9] {
        let joined = parts(&dir, &args, n);
        assert_eq!(String::from_utf8(joined).unwrap(), whole, "{n} parts");
    }
    // One gzip file: one part holds it, the others are empty.
    let mut total = 0;
    for k in 0..4 {
        let part = format!("{k}/4");
        let n: u64 = dir
            .tfr(&["count", "a.tfrecord.gz", "--part", &part])
            .run()
            .ok()
            .trim()
            .parse()
            .unwrap();
        assert!(n == 0 || n == 600, "{n}");
        total += n;
    }
    assert_eq!(total, 600);
}

#[test]
fn counts_checks_and_statistics_of_the_parts_add_up() {
    let dir = Dir::new();
    notebook_times(&dir, "big.tfrecord", 4);
    notebook_times(&dir, "small.tfrecord", 1);
    let inputs = ["big.tfrecord", "small.tfrecord"];
    let n = 5u64;
    let (mut counted, mut intact) = (0, 0);
    let mut merge = Vec::new();
    for k in 0..n {
        let part = format!("{k}/{n}");
        let with = |cmd: &[&str]| {
            let mut a = cmd.to_vec();
            a.extend(inputs);
            a.extend(["--part", &part]);
            dir.tfr(&a).run().ok()
        };
        let c: serde_json::Value = serde_json::from_str(&with(&["count", "--json"])).unwrap();
        counted += c["total"].as_u64().unwrap();
        let v: serde_json::Value = serde_json::from_str(&with(&["verify-crc", "--json"])).unwrap();
        assert_eq!(v["intact"], true);
        intact += v["total"]["intact_records"].as_u64().unwrap();
        let saved = format!("part{k}.json");
        dir.write(&saved, with(&["stats", "-q", "-f", "json"]).as_bytes());
        merge.extend(["--merge".to_string(), saved]);
    }
    assert_eq!((counted, intact), (1000, 1000));
    let without_name = |t: String| -> String {
        t.lines()
            .filter(|l| !l.starts_with("  name: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut args = vec!["stats", "-q", "-f", "tfdv-stats-text"];
    args.extend(merge.iter().map(String::as_str));
    let merged = without_name(dir.tfr(&args).run().ok());
    let once = without_name(
        dir.tfr(&["stats", "-q", "-f", "tfdv-stats-text", "big.tfrecord", "small.tfrecord"])
            .run()
            .ok(),
    );
    same_but_rounding(&merged, &once);
    // schema and validate read parts too.
    let schema = dir
        .tfr(&["schema", "--format", "json", "big.tfrecord", "--part", "2/3"])
        .run()
        .ok();
    assert!(schema.contains("feature2"), "{schema}");
}

/// Text-format statistics equal but for the last bits of sums (the parts'
/// means and deviations are merged in another order than one pass adds).
#[track_caller]
fn same_but_rounding(a: &str, b: &str) {
    assert_lines_close(a, b, |_, fx| 1e-12 * fx.abs().max(1.0));
}

#[test]
fn an_empty_part_has_no_records() {
    let dir = Dir::new();
    notebook_times(&dir, "one.tfrecord", 1);
    // 200 records, 1000 parts: most hold none.
    assert_eq!(
        dir.tfr(&["count", "one.tfrecord", "--part", "999/1000"]).run().ok(),
        "0\n"
    );
    assert_eq!(
        dir.tfr(&["to-jsonl", "one.tfrecord", "--part", "998/1000"]).run().ok(),
        ""
    );
}

#[test]
fn bad_parts_are_one_line_errors() {
    let dir = Dir::new();
    notebook_times(&dir, "one.tfrecord", 1);
    for bad in ["3/3", "0/0", "1", "x/2", "-1/2"] {
        let flag = format!("--part={bad}");
        let line = dir.tfr(&["count", "one.tfrecord", &flag]).run().fails(2);
        assert!(line.contains("--part"), "{bad}: {line}");
    }
    let line = dir
        .tfr(&["count", "-", "--part", "0/2"])
        .stdin(&std::fs::read(data("notebook.tfrecord")).unwrap())
        .run()
        .fails(2);
    assert!(line.contains("standard input"), "{line}");
    // index writes offsets of whole files: a byte range is refused.
    let line = dir.tfr(&["index", "one.tfrecord", "--part", "1/2"]).run().fails(2);
    assert!(line.contains("byte range"), "{line}");
}

#[test]
fn a_cut_inside_a_record_fails_the_part_before_it() {
    // A payload holding a TFRecord file of its own: a cut in the middle of
    // it finds the inner records' starts. The part before the cut then
    // meets its last record cut short and fails (the job fails rather than
    // reading records twice); without such look-alikes, parts are exact.
    let dir = Dir::new();
    let inner: Vec<Vec<u8>> = (0..400).map(|i| vec![b'x'; 50 + i % 3]).collect();
    let inner_refs: Vec<&[u8]> = inner.iter().map(|r| r.as_slice()).collect();
    let nested = records(&inner_refs);
    dir.write("nested.tfrecord", &records(&[b"head", &nested, b"tail"]));
    let mut failed = 0;
    for k in 0..2 {
        let part = format!("{k}/2");
        let ran = dir.tfr(&["count", "--json", "nested.tfrecord", "--part", &part]).run();
        if ran.code != 0 {
            failed += 1;
        }
    }
    assert!(failed >= 1, "a look-alike cut must fail a part");
}

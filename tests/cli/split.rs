//! `tfr split`: records into splits by a stable hash (of the payload, or of
//! a feature's values with `--by`), in the ratios asked, the same records
//! on every run and for any `-j`, byte for byte, optionally sharded, all
//! outputs atomic.

use crate::reshard::{files, framed};
use crate::util::*;
use std::collections::{HashMap, HashSet};

/// Framed records of `n` distinct payloads.
fn distinct(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| format!("record {i} {}", "x".repeat(i % 50)).into_bytes())
        .collect()
}

/// Splits a file of framed records into its payloads.
fn unframe(mut bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
        out.push(bytes[12..12 + len].to_vec());
        bytes = &bytes[16 + len..];
    }
    out
}

#[test]
fn ratios_hold_and_the_same_records_go_to_the_same_split_for_any_jobs() {
    let dir = Dir::new();
    let p = distinct(20_000);
    let input = dir.write("data.tfrecord", &framed(&p));
    let mut runs = Vec::new();
    for jobs in ["1", "2", "16", "2"] {
        let out = dir.path(&format!("j{jobs}-{}", runs.len()));
        std::fs::create_dir(&out).unwrap();
        let pattern = format!("{}/{{split}}.tfrecord", out.display());
        let printed = dir
            .tfr(&["split", "-j", jobs, &input, "--ratio", "train=8,eval=2", "-o", &pattern])
            .run()
            .ok();
        let got = files(&out);
        assert_eq!(
            got.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            ["eval.tfrecord", "train.tfrecord"]
        );
        let eval = unframe(&got[0].1);
        let train = unframe(&got[1].1);
        assert_eq!(eval.len() + train.len(), p.len());
        let share = eval.len() as f64 / p.len() as f64;
        assert!((0.19..=0.21).contains(&share), "eval holds {share}");
        assert!(printed.contains(&format!("eval: {} records", eval.len())), "{printed}");
        // Each split keeps the input's order, and every record is in one.
        let index: HashMap<&[u8], usize> = p.iter().enumerate().map(|(i, r)| (r.as_slice(), i)).collect();
        for split in [&eval, &train] {
            let at: Vec<usize> = split.iter().map(|r| index[r.as_slice()]).collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "input order kept");
        }
        runs.push(got);
    }
    assert!(
        runs.iter().all(|r| *r == runs[0]),
        "the same split for every run and -j"
    );
    // Another seed: another split, in the same ratios.
    let out = dir.path("seeded");
    std::fs::create_dir(&out).unwrap();
    let pattern = format!("{}/{{split}}.tfrecord", out.display());
    dir.tfr(&[
        "split",
        &input,
        "--ratio",
        "train=8,eval=2",
        "-o",
        &pattern,
        "--seed",
        "7",
    ])
    .run()
    .ok();
    assert!(files(&out) != runs[0]);
}

#[test]
fn by_a_feature_keeps_each_value_in_one_split() {
    let dir = Dir::new();
    let mut jsonl = String::new();
    for i in 0..3000 {
        let user = format!("user{}", i % 150);
        jsonl.push_str(&format!("{{\"user_id\": [\"{user}\"], \"x\": [{i}]}}\n"));
    }
    dir.write("in.jsonl", jsonl.as_bytes());
    dir.tfr(&["from-jsonl", "in.jsonl", "-o", "data.tfrecord.gz"])
        .run()
        .ok();
    let printed = dir
        .tfr(&[
            "split",
            "data.tfrecord.gz",
            "--ratio",
            "train=8,eval=1,test=1",
            "--by",
            "user_id",
            "-o",
            "{split}.tfrecord.gz",
        ])
        .run()
        .warns();
    let mut seen: HashMap<String, &str> = HashMap::new();
    let mut total = 0;
    for split in ["train", "eval", "test"] {
        let file = format!("{split}.tfrecord.gz");
        let raw = std::fs::read(dir.path(&file)).unwrap();
        assert_eq!(raw[..2], [0x1f, 0x8b], "gzip, as the name says");
        let lines = dir.tfr(&["to-jsonl", &file]).run().ok();
        let mut users = HashSet::new();
        for line in lines.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            users.insert(v["user_id"][0].as_str().unwrap().to_string());
            total += 1;
        }
        assert!(!users.is_empty(), "{split} is not empty: {printed}");
        for u in users {
            assert!(seen.insert(u.clone(), split).is_none(), "{u} in two splits");
        }
    }
    assert_eq!(total, 3000);
    assert_eq!(seen.len(), 150);
    // --by on records that are not Examples is one line.
    dir.write("raw.tfrecord", &records(&[b"\xff\xff"]));
    let err = dir
        .tfr(&[
            "split",
            "raw.tfrecord",
            "--ratio",
            "a=1,b=1",
            "--by",
            "user_id",
            "-o",
            "{split}",
        ])
        .run()
        .fails(2);
    assert!(err.contains("raw.tfrecord"), "{err}");
    assert!(!dir.path("a").exists() && !dir.path("b").exists());
}

#[test]
fn splits_combine_with_shards() {
    let dir = Dir::new();
    let p = distinct(1000);
    let input = dir.write("data.tfrecord", &framed(&p));
    std::fs::create_dir(dir.path("out")).unwrap();
    let printed = dir
        .tfr(&[
            "split",
            &input,
            "--ratio",
            "train=9,eval=1",
            "-o",
            "out/{split}.tfrecord",
            "--shards",
            "4",
        ])
        .run()
        .ok();
    assert!(printed.contains("in 4 shards"), "{printed}");
    let got = files(&dir.path("out"));
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    let mut want = Vec::new();
    for split in ["eval", "train"] {
        for k in 0..4 {
            want.push(format!("{split}-{k:05}-of-00004.tfrecord"));
        }
    }
    assert_eq!(names, want);
    let all: usize = got.iter().map(|(_, b)| unframe(b).len()).sum();
    assert_eq!(all, 1000);
    // Balanced within each split.
    let train: Vec<usize> = got[4..].iter().map(|(_, b)| unframe(b).len()).collect();
    assert!(
        train.iter().max().unwrap() - train.iter().min().unwrap() <= 1,
        "{train:?}"
    );
}

#[test]
fn mistakes_are_one_line_and_leave_nothing() {
    let dir = Dir::new();
    let p = distinct(100);
    let mut bad = framed(&p);
    let n = bad.len();
    bad[n - 2] ^= 1; // the last record's data checksum
    dir.write("bad.tfrecord", &bad);
    dir.write("good.tfrecord", &framed(&p));
    for (args, want) in [
        (
            vec!["good.tfrecord", "--ratio", "a=1,b=1", "-o", "out.tfrecord"],
            "{split}",
        ),
        (
            vec!["good.tfrecord", "--ratio", "a=1,a=2", "-o", "{split}"],
            "named twice",
        ),
        (vec!["good.tfrecord", "--ratio", "a=1", "-o", "{split}"], "at least two"),
        (vec!["good.tfrecord", "--ratio", "a=0,b=1", "-o", "{split}"], "positive"),
        (
            vec!["good.tfrecord", "--ratio", "../x=1,b=1", "-o", "{split}"],
            "a split's name",
        ),
        (
            vec!["bad.tfrecord", "--ratio", "a=1,b=1", "-o", "{split}"],
            "data checksum",
        ),
        (
            vec!["good.tfrecord", "--ratio", "good=1,b=1", "-o", "{split}.tfrecord"],
            "is also an input",
        ),
    ] {
        let mut full = vec!["split"];
        full.extend(args.iter());
        let err = dir.tfr(&full).run().fails(2);
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let left: Vec<String> = files(&dir.path(".")).into_iter().map(|(n, _)| n).collect();
    assert_eq!(left, ["bad.tfrecord", "good.tfrecord"]);
}

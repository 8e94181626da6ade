//! Issue 41: what a third hostile review and a new user's first hour found
//! (NaN keys, many regexes, overflowing ratios, misspelt names, subsets to
//! one file, missing directories, split --by shares, smaller messages).

use crate::proto::{Example, Feature, FeatureEntry, Features};
use crate::util::*;
use prost::Message;
use std::path::Path;

/// An Example of the given features.
fn example(features: Vec<FeatureEntry>) -> Vec<u8> {
    Example {
        features: Some(Features { feature: features }),
    }
    .encode_to_vec()
}

/// A file of the payloads.
fn file(dir: &Dir, name: &str, payloads: &[Vec<u8>]) -> String {
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    dir.write(name, &records(&refs))
}

/// 5,000 records as a dataset of images has them: `image/class/label`
/// (i % 10), `user_id` (u0 holds a quarter of the records, the others one
/// each), `image/encoded`.
fn images(dir: &Dir) -> String {
    let payloads: Vec<Vec<u8>> = (0..5000)
        .map(|i| {
            let user = if i % 4 == 0 { "u0".to_string() } else { format!("u{i}") };
            example(vec![
                FeatureEntry::new("image/class/label", Feature::int64s(vec![i % 10])),
                FeatureEntry::new("user_id", Feature::bytes(vec![user.into_bytes()])),
                FeatureEntry::new("image/encoded", Feature::bytes(vec![vec![0xff, 0xd8, 0xff]])),
            ])
        })
        .collect();
    file(dir, "images.tfrecord", &payloads)
}

#[test]
fn count_by_puts_every_nan_in_one_row() {
    let dir = Dir::new();
    // numpy's NaN (0x7fc00000), x86's default NaN (0xffc00000), and
    // 1,000 NaN payloads of other bits: one value.
    let mut bits = vec![0x7fc0_0000u32, 0xffc0_0000];
    bits.extend((1..=1000u32).map(|k| 0x7f80_0000 | k));
    let mut payloads: Vec<Vec<u8>> = bits
        .iter()
        .map(|&b| example(vec![FeatureEntry::new("x", Feature::floats(vec![f32::from_bits(b)]))]))
        .collect();
    payloads.push(example(vec![FeatureEntry::new("x", Feature::floats(vec![1.5]))]));
    let f = file(&dir, "nan.tfrecord", &payloads);
    let json: serde_json::Value = serde_json::from_str(&tfr(&["count", "--by", "x", "--json", &f]).run().ok()).unwrap();
    let values = json["values"].as_array().expect("values");
    assert_eq!(values.len(), 2, "{json}");
    assert_eq!(values[0]["value"], "nan", "{json}");
    assert_eq!(values[0]["records"], 1002, "{json}");
}

#[test]
fn many_regexes_are_refused_in_one_line_and_share_a_budget() {
    let dir = Dir::new();
    let f = images(&dir);
    let many: Vec<String> = (0..1000).map(|i| format!("user_id ~ \"^u{i}[0-9]*$\"")).collect();
    let line = tfr(&["count", "--where", &many.join(" || "), &f])
        .run_within(10)
        .fails(2);
    assert!(line.contains("more than 64 regexes"), "{line}");
    assert_eq!(line.lines().count(), 1, "{line}");
    // 64 are allowed, each within its share of the budget; together
    // they answer at once.
    let some = many[..64].join(" || ");
    let counted = tfr(&["count", "--where", &some, &f]).run_within(30).ok();
    assert!(counted.trim().parse::<u64>().unwrap() > 0, "{counted}");
    // A regex that fits alone (under 1 MiB compiled) but not in its
    // share among 64 is refused, naming the share.
    let big = format!("user_id ~ \"{}\"", "\\w{20}".repeat(20));
    let alone = tfr(&["count", "--where", &big, &f]).run_within(30);
    let mut crowd = vec![big.clone()];
    crowd.extend(many[..63].iter().cloned());
    let line = tfr(&["count", "--where", &crowd.join(" || "), &f])
        .run_within(30)
        .fails(2);
    assert!(
        alone.code == 0 || alone.stderr.contains("over 1 MiB"),
        "{}",
        alone.stderr
    );
    assert!(line.contains("each regex's share"), "{line}");
}

#[test]
fn split_weights_whose_sum_overflows_still_share() {
    let dir = Dir::new();
    let payloads: Vec<Vec<u8>> = (0..2000).map(|i| format!("record {i}").into_bytes()).collect();
    let f = file(&dir, "data.tfrecord", &payloads);
    let out = dir.path("{split}.tfrecord");
    let printed = tfr(&["split", &f, "--ratio", "a=1e308,b=1e308", "-o", out.to_str().unwrap()])
        .run()
        .ok();
    for line in printed.lines() {
        let share: f64 = line
            .split('(')
            .nth(1)
            .unwrap()
            .split('%')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((45.0..55.0).contains(&share), "{printed}");
    }
}

#[test]
fn a_name_no_record_has_is_a_warning_with_the_likely_name_or_an_error_under_strict() {
    let dir = Dir::new();
    let f = images(&dir);
    let out = dir.path("one.tfrecord");
    let o = out.to_str().unwrap();
    // reshard --where: a warning naming the likely feature; 0 records.
    let ran = tfr(&["reshard", &f, "--where", "label == 1", "-o", o]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("--where: no record read has a feature 'label' (did you mean 'image/class/label'?)"),
        "{}",
        ran.stderr
    );
    // --strict: exit 2, one line, nothing written.
    std::fs::remove_file(&out).unwrap();
    let line = tfr(&["reshard", &f, "--where", "label == 1", "--strict", "-o", o])
        .run()
        .fails(2);
    assert!(
        line.contains("no record read has a feature 'label'") && line.contains("--strict"),
        "{line}"
    );
    assert!(!out.exists());
    // A name that is there: no warning, under --strict too.
    let ran = tfr(&["reshard", &f, "--where", "image/class/label == 1", "--strict", "-o", o]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(!ran.stderr.contains("warning"), "{}", ran.stderr);
    // count --by and split --by alike.
    let ran = tfr(&["count", "--by", "label", &f]).run();
    assert_eq!(ran.code, 0);
    assert!(
        ran.stderr.contains("--by: no record read has a feature 'label'"),
        "{}",
        ran.stderr
    );
    tfr(&["count", "--by", "label", "--strict", &f]).run().fails(2);
    let pattern = dir.path("s/{split}.tfrecord");
    let p = pattern.to_str().unwrap();
    let ran = tfr(&["split", &f, "--ratio", "train=9,eval=1", "--by", "userid", "-o", p]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("no record read has a feature 'userid' (did you mean 'user_id'?)"),
        "{}",
        ran.stderr
    );
    std::fs::remove_dir_all(dir.path("s")).unwrap();
    let line = tfr(&[
        "split",
        &f,
        "--ratio",
        "train=9,eval=1",
        "--by",
        "userid",
        "--strict",
        "-o",
        p,
    ])
    .run()
    .fails(2);
    assert!(line.contains("'userid'"), "{line}");
    assert!(!dir.path("s").exists(), "no split and no directory left");
    // cat and to-jsonl warn too (after their output).
    let ran = tfr(&["to-jsonl", &f, "--where", "has(user_ld)"]).run();
    assert!(
        ran.stderr.contains("'user_ld' (did you mean 'user_id'?)"),
        "{}",
        ran.stderr
    );
}

#[test]
fn reshard_without_a_cut_writes_exactly_the_file_named() {
    let dir = Dir::new();
    let f = images(&dir);
    let gz = dir.path("sub/us.tfrecord.gz");
    let printed = tfr(&[
        "reshard",
        &f,
        "--where",
        "image/class/label == 3",
        "-o",
        gz.to_str().unwrap(),
    ])
    .run()
    .ok();
    assert!(printed.contains("500 records into"), "{printed}");
    let names: Vec<_> = std::fs::read_dir(dir.path("sub"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["us.tfrecord.gz"]);
    let bytes = std::fs::read(&gz).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b], "gzip, as the name says");
    assert_eq!(tfr(&["count", gz.to_str().unwrap()]).run().ok().trim(), "500");
    // Merged and recompressed: the records byte for byte.
    let plain = dir.path("merged.tfrecord");
    tfr(&["reshard", gz.to_str().unwrap(), &f, "-o", plain.to_str().unwrap()])
        .run()
        .ok();
    assert_eq!(tfr(&["count", plain.to_str().unwrap()]).run().ok().trim(), "5500");
    // shuffle says what it wrote too.
    let sh = dir.path("sh.tfrecord");
    let said = tfr(&["shuffle", &f, "-o", sh.to_str().unwrap(), "--seed", "1"])
        .run()
        .ok();
    assert!(said.contains("5000 records shuffled into"), "{said}");
}

#[test]
fn every_writer_makes_missing_directories_and_removes_them_on_failure() {
    let dir = Dir::new();
    let f = images(&dir);
    let jsonl = dir.write("x.jsonl", b"{\"a\": [1]}\n");
    let out = dir.path("a/b/x.tfrecord");
    tfr(&["from-jsonl", &jsonl, "-o", out.to_str().unwrap()]).run().ok();
    assert!(out.is_file());
    // A failing run leaves no directory behind.
    let bad = dir.write("bad.jsonl", b"{\"a\": [1]}\n{\"a\": \n");
    let out = dir.path("c/d/x.tfrecord");
    tfr(&["from-jsonl", &bad, "-o", out.to_str().unwrap()]).run().fails(2);
    assert!(!dir.path("c").exists());
    // index --out-dir, to-jsonl -o, verify-crc --salvage.
    let idx = dir.path("idx/dir");
    let printed = tfr(&["index", &f, "--out-dir", idx.to_str().unwrap()]).run().ok();
    assert!(printed.contains("5000 records"), "{printed}");
    assert!(idx.join("images.tfrecord.idx").is_file());
    let j = dir.path("j/out.jsonl");
    tfr(&["to-jsonl", &f, "-n", "2", "-o", j.to_str().unwrap()]).run().ok();
    assert!(j.is_file());
    let s = dir.path("salv/x.tfrecord");
    tfr(&["verify-crc", &f, "--salvage", s.to_str().unwrap()]).run().ok();
    assert!(s.is_file());
}

#[test]
fn split_by_prints_record_and_value_shares_the_heaviest_value_and_warns_when_they_stray() {
    let dir = Dir::new();
    let f = images(&dir);
    let pattern = dir.path("{split}.tfrecord");
    let ran = tfr(&[
        "split",
        &f,
        "--ratio",
        "train=9,eval=1",
        "--by",
        "user_id",
        "-o",
        pattern.to_str().unwrap(),
    ])
    .run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let out = ran.stdout_str();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // u0's 1,250 records are in one split; 3,751 distinct values in all.
    let values: u64 = lines[..2]
        .iter()
        .map(|l| {
            l.split(", ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(values, 3751, "{out}");
    assert!(
        lines[2].starts_with("heaviest value: user_id = \"u0\", 1250 records (25.0%), in "),
        "{out}"
    );
    let u0_in_eval = lines[2].ends_with("in eval");
    assert_eq!(
        ran.stderr.contains("stray from --ratio"),
        u0_in_eval,
        "a quarter of the records in the 10% split strays; in train it does not: {}",
        ran.stderr
    );
}

#[test]
fn smaller_messages_say_what_was_not_checked_and_how_strings_are_quoted() {
    let dir = Dir::new();
    let f = images(&dir);
    let line = tfr(&["count", "--where", "user_id == 'u0'", &f]).run().fails(2);
    assert!(line.contains("strings take double quotes"), "{line}");
    let json: serde_json::Value = serde_json::from_str(&tfr(&["count", "--json", &f]).run().ok()).unwrap();
    assert_eq!(json["payloads_checked"], false);
    let json: serde_json::Value =
        serde_json::from_str(&tfr(&["count", "--json", "--where", "has(user_id)", &f]).run().ok()).unwrap();
    assert_eq!(json["payloads_checked"], true);
    // A table in a pipe: no note (the note is for a terminal, see
    // process::progress_only_on_a_terminal).
    let two = tfr(&["count", &f, &f]).run().ok();
    assert!(!two.contains("payloads not read"), "{two}");
    // A pipe gets the bare number.
    assert_eq!(tfr(&["count", &f]).run().ok(), "5000\n");
    assert!(Path::new(&f).exists());
}

#[test]
fn strict_holds_for_head_and_count_prints_nothing_under_it() {
    let dir = Dir::new();
    let f = images(&dir);
    let line = tfr(&["head", "--where", "label == 1", "--strict", &f]).run().fails(2);
    assert!(line.contains("(did you mean 'image/class/label'?)"), "{line}");
    let ran = tfr(&["head", "--where", "label == 1", &f]).run();
    assert!(
        ran.stderr.contains("no record read has a feature 'label'"),
        "{}",
        ran.stderr
    );
    let ran = tfr(&["count", "--where", "label == 1", "--strict", &f]).run();
    assert_eq!(ran.code, 2);
    assert!(ran.stdout.is_empty(), "{}", ran.stdout_str());
    let ran = tfr(&["count", "--by", "label", "--json", "--strict", &f]).run();
    assert_eq!(ran.code, 2);
    assert!(ran.stdout.is_empty(), "{}", ran.stdout_str());
}

#[test]
fn one_output_named_whole_may_be_a_device_and_a_fifo_at_a_made_name_is_refused() {
    let dir = Dir::new();
    let f = images(&dir);
    tfr(&["reshard", &f, "-o", "/dev/null"]).run().ok();
    tfr(&["shuffle", &f, "-o", "/dev/null", "--seed", "1"]).run().ok();
    // index makes INPUT.idx: a FIFO there is refused, never opened.
    let fifo = format!("{f}.idx");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return skip_or_fail("mkfifo is needed");
    }
    let ran = tfr(&["index", &f]).run_within(20);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("FIFO"), "{}", ran.stderr);
}

#[test]
fn split_by_blames_heavy_values_only_and_takes_every_nan_as_one() {
    let dir = Dir::new();
    // 60 distinct ids: record shares are value shares; no value is heavy.
    let payloads: Vec<Vec<u8>> = (0..60)
        .map(|i| example(vec![FeatureEntry::new("id", Feature::int64s(vec![i]))]))
        .collect();
    let f = file(&dir, "u.tfrecord", &payloads);
    for seed in ["0", "1", "2", "3", "4", "5"] {
        let o = dir.path(&format!("s{seed}/{{split}}.tfrecord"));
        let ran = tfr(&[
            "split",
            &f,
            "--ratio",
            "a=1,b=1",
            "--by",
            "id",
            "--seed",
            seed,
            "-o",
            o.to_str().unwrap(),
        ])
        .run();
        assert!(!ran.stderr.contains("stray"), "seed {seed}: {}", ran.stderr);
    }
    // NaNs of ten bit patterns: one value, in one split.
    let payloads: Vec<Vec<u8>> = (1..=10u32)
        .map(|k| {
            example(vec![FeatureEntry::new(
                "x",
                Feature::floats(vec![f32::from_bits(0x7f80_0000 | k)]),
            )])
        })
        .collect();
    let f = file(&dir, "nan.tfrecord", &payloads);
    let o = dir.path("nan/{split}.tfrecord");
    let out = tfr(&[
        "split",
        &f,
        "--ratio",
        "a=1,b=1",
        "--by",
        "x",
        "-o",
        o.to_str().unwrap(),
    ])
    .run()
    .warns();
    assert!(out.contains("heaviest value: x = NaN, 10 records (100.0%)"), "{out}");
}

#[test]
fn extract_leaves_no_new_directory_when_it_fails() {
    let dir = Dir::new();
    let f = images(&dir);
    let out = dir.path("new/sub");
    let ran = tfr(&[
        "extract",
        &f,
        "--feature",
        "image/encoded",
        "-o",
        out.to_str().unwrap(),
        "--where",
        "lable == 1",
        "--strict",
    ])
    .run();
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(!dir.path("new").exists());
}

#[test]
fn index_suggests_a_command_the_shell_reads_back_and_a_new_name() {
    let dir = Dir::new();
    let g = dir.write("my data.tfrecord.gz", &gzip(&records(&[b"a", b"b"])));
    dir.write("my data.tfrecord", b"someone's file");
    let line = tfr(&["index", &g]).run().fails(2);
    let plain = format!("{}.plain", g.strip_suffix(".gz").unwrap());
    assert!(line.contains(&format!("tfr reshard '{g}' -o '{plain}'")), "{line}");
}

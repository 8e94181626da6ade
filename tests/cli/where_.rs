//! `--where EXPR` (issue 29): the records each command keeps, how
//! `--skip/--limit/--sample` count matches, errors with their column.

use crate::proto::{Example, Feature, FeatureEntry, Features, SequenceExample};
use crate::util::*;
use prost::Message;

/// Record i: label = i % 3, score = i / 10, country = US (odd) or FR,
/// image/filename = img_NNNN.jpg, tags = [1, 2] on every fifth record.
fn payload(i: u32) -> Vec<u8> {
    let mut f = vec![
        FeatureEntry::new("label", Feature::int64s(vec![i64::from(i % 3)])),
        FeatureEntry::new("score", Feature::floats(vec![i as f32 / 10.0])),
        FeatureEntry::new(
            "country",
            Feature::bytes(vec![if i % 2 == 1 { b"US".to_vec() } else { b"FR".to_vec() }]),
        ),
        FeatureEntry::new(
            "image/filename",
            Feature::bytes(vec![format!("img_{i:04}.jpg").into_bytes()]),
        ),
    ];
    if i % 5 == 0 {
        f.push(FeatureEntry::new("tags", Feature::int64s(vec![1, 2])));
    }
    Example {
        features: Some(Features { feature: f }),
    }
    .encode_to_vec()
}

/// A file of records `from..to`.
fn file(dir: &Dir, name: &str, from: u32, to: u32) -> String {
    let payloads: Vec<Vec<u8>> = (from..to).map(payload).collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    dir.write(name, &records(&refs))
}

/// The `image/filename` numbers of to-jsonl's lines.
fn numbers(jsonl: &str) -> Vec<u32> {
    jsonl
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let name = v["image/filename"][0].as_str().expect("a file name");
            name[4..8].parse().expect("a number")
        })
        .collect()
}

#[test]
fn each_command_keeps_the_matching_records() {
    let dir = Dir::new();
    let f = file(&dir, "a.tfrecord", 0, 100);
    let want: Vec<u32> = (0..100).filter(|i| i % 3 == 1 && i % 2 == 1).collect();
    let expr = "label == 1 && country == \"US\"";
    let out = tfr(&["to-jsonl", "--where", expr, &f]).run().ok();
    assert_eq!(numbers(&out), want);
    let out = tfr(&["cat", "-f", "json", "--where", expr, &f]).run().ok();
    assert_eq!(numbers(&out), want);
    assert_eq!(
        tfr(&["count", "--where", expr, &f]).run().ok().trim(),
        want.len().to_string()
    );
    let schema: serde_json::Value =
        serde_json::from_str(&tfr(&["schema", "--json", "--where", "has(tags)", &f]).run().ok()).unwrap();
    assert_eq!(schema["records"], 20, "{schema}");
    let stats = tfr(&["stats", "--where", "score >= 5", "-f", "json", &f]).run().ok();
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(stats["records"], 50);
    // A regex on bytes, anchored; names with '/' as written.
    let out = tfr(&["to-jsonl", "--where", "image/filename ~ \"^img_00[0-1]5\"", &f])
        .run()
        .ok();
    assert_eq!(numbers(&out), [5, 15]);
    // Several inputs: the filter runs over all of them, in order.
    let g = file(&dir, "b.tfrecord.gz", 100, 200);
    std::fs::write(&g, gzip(&std::fs::read(&g).unwrap())).unwrap();
    let out = tfr(&["to-jsonl", "--where", "label == 2 && score < 12", &f, &g])
        .run()
        .ok();
    let want: Vec<u32> = (0..120).filter(|i| i % 3 == 2).collect();
    assert_eq!(numbers(&out), want);
}

#[test]
fn skip_limit_and_sample_count_matching_records() {
    let dir = Dir::new();
    let f = file(&dir, "a.tfrecord", 0, 300);
    let odd = |out: &str| numbers(out);
    // head -n 5: the first five matches; --skip 2 skips two matches.
    let out = tfr(&["head", "-n", "5", "-f", "json", "--where", "country == \"US\"", &f])
        .run()
        .ok();
    assert_eq!(odd(&out), [1, 3, 5, 7, 9]);
    for cmd in ["head", "cat"] {
        let out = tfr(&[cmd, "-n", "3", "--skip", "2", "-f", "json", "--where", "label == 0", &f])
            .run()
            .ok();
        assert_eq!(odd(&out), [6, 9, 12], "{cmd}");
    }
    let out = tfr(&["to-jsonl", "--skip", "40000", "--where", "label == 0", &f])
        .run()
        .ok();
    assert_eq!(out, "");
    // --sample: a sample of the matches only.
    let out = tfr(&["to-jsonl", "--sample", "10", "--seed", "3", "--where", "has(tags)", &f])
        .run()
        .ok();
    let got = odd(&out);
    assert_eq!(got.len(), 10);
    assert!(got.iter().all(|i| i % 5 == 0), "{got:?}");
    // schema --limit counts matches too.
    let schema: serde_json::Value = serde_json::from_str(
        &tfr(&["schema", "--json", "-n", "7", "--where", "has(tags)", &f])
            .run()
            .ok(),
    )
    .unwrap();
    assert_eq!(schema["records"], 7, "{schema}");
}

#[test]
fn lists_match_on_any_value_and_missing_features_never() {
    let dir = Dir::new();
    let f = file(&dir, "a.tfrecord", 0, 20);
    let count = |expr: &str| tfr(&["count", "--where", expr, &f]).run().warns().trim().to_string();
    assert_eq!(count("tags == 2"), "4");
    assert_eq!(count("tags != 1"), "4", "[1, 2] has a value that is not 1");
    assert_eq!(count("!(tags == 1)"), "16");
    assert_eq!(count("tags == 0"), "0");
    assert_eq!(count("!has(tags)"), "16");
    assert_eq!(count("len(tags) == 2"), "4");
    assert_eq!(count("len(tags) == 0"), "16");
    assert_eq!(count("nothing == 1 || nothing != 1"), "0");
    assert_eq!(count("label == \"1\""), "0", "a string never equals an int64");
    assert_eq!(count("label in [0, 2] || score == 0.1"), "14");
}

#[test]
fn a_sequence_example_is_filtered_by_its_context() {
    let dir = Dir::new();
    let payloads: Vec<Vec<u8>> = (0..6i64)
        .map(|i| {
            SequenceExample {
                context: Some(Features {
                    feature: vec![FeatureEntry::new("user", Feature::int64s(vec![i % 2]))],
                }),
                feature_lists: Some(crate::proto::FeatureLists {
                    feature_list: vec![crate::proto::FeatureListEntry::new(
                        "clicks",
                        crate::proto::FeatureList {
                            feature: vec![Feature::int64s(vec![i])],
                        },
                    )],
                }),
            }
            .encode_to_vec()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let f = dir.write("seq.tfrecord", &records(&refs));
    assert_eq!(tfr(&["count", "--where", "user == 1", &f]).run().ok(), "3\n");
    // clicks is a feature list, not in the context: 0, and a warning.
    assert_eq!(tfr(&["count", "--where", "has(clicks)", &f]).run().warns(), "0\n");
}

#[test]
fn errors_point_at_the_column_in_one_line() {
    let dir = Dir::new();
    let f = file(&dir, "a.tfrecord", 0, 3);
    for (cmd, expr, words) in [
        ("count", "label ==", "at column 9"),
        ("cat", "label = 1", "at column 7"),
        ("head", "(label == 1", "at column 12"),
        ("to-jsonl", "country == US", "strings are quoted"),
        ("schema", "x ~ \"(\"", "a bad regex"),
        ("stats", "label == 1 & y", "write '&&'"),
    ] {
        let line = tfr(&[cmd, "--where", expr, &f]).run().fails(2);
        assert!(line.contains("--where") && line.contains(words), "{cmd} {expr}: {line}");
        assert_eq!(line.lines().count(), 1, "{line}");
    }
}

#[test]
fn records_that_cannot_be_read_as_features_are_errors() {
    let dir = Dir::new();
    let f = file(&dir, "a.tfrecord", 0, 3);
    let line = tfr(&["cat", "--type", "raw", "--where", "has(x)", &f]).run().fails(2);
    assert!(line.contains("--type raw"), "{line}");
    let line = tfr(&["head", "--type", "raw", "--where", "has(x)", &f]).run().fails(2);
    assert!(line.contains("--type raw"), "{line}");
    // A payload that is not an Example names its record; the matches
    // before it are printed.
    let mut bytes = std::fs::read(&f).unwrap();
    bytes.extend(records(&[b"\x0a\x05ab"]));
    let bad = dir.write("bad.tfrecord", &bytes);
    let ran = tfr(&["to-jsonl", "--where", "has(label)", &bad]).run();
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("record 3"), "{}", ran.stderr);
    assert_eq!(numbers(&ran.stdout_str()), [0, 1, 2]);
}

#[test]
fn records_over_4_mib_are_filtered_by_their_reading_thread() {
    // Records over 4 MiB skip the batches (handed on by the thread that
    // reads them): the filter must see them there too.
    let dir = Dir::new();
    let big = |label: i64| {
        Example {
            features: Some(Features {
                feature: vec![
                    FeatureEntry::new("label", Feature::int64s(vec![label])),
                    FeatureEntry::new("blob", Feature::bytes(vec![vec![b'x'; 5 << 20]])),
                ],
            }),
        }
        .encode_to_vec()
    };
    let payloads = [big(1), payload(1), big(2), payload(2), big(1)];
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let f = dir.write("big.tfrecord", &records(&refs));
    for jobs in ["1", "4"] {
        assert_eq!(
            tfr(&["count", "-j", jobs, "--where", "label == 1 && has(blob)", &f])
                .run()
                .ok(),
            "2\n"
        );
        assert_eq!(
            tfr(&["count", "-j", jobs, "--where", "label == 2", &f]).run().ok(),
            "2\n"
        );
        let out = tfr(&["cat", "-j", jobs, "--where", "label == 2", &f]).run().ok();
        assert!(
            out.contains("# record 2") && out.contains("# record 3"),
            "{}",
            &out[..200]
        );
        assert!(!out.contains("# record 0") && !out.contains("# record 4"));
        let out = tfr(&["cat", "-j", jobs, "-n", "1", "--skip", "1", "--where", "has(blob)", &f])
            .run()
            .ok();
        assert!(out.starts_with("# record 2\n"), "{}", &out[..40]);
        assert_eq!(out.matches("# record").count(), 1);
    }
}

/// The reshaping commands keep only the matching records too, byte for
/// byte and in their own order (reshard and split: input order; shuffle:
/// a permutation of the matches).
#[test]
fn reshard_split_and_shuffle_write_only_the_matches() {
    let dir = Dir::new();
    let f = file(&dir, "in.tfrecord", 0, 200);
    let expr = "label == 1 && country == \"US\"";
    let want: Vec<u32> = (0..200).filter(|i| i % 3 == 1 && i % 2 == 1).collect();
    let jsonl_of = |paths: &[String]| {
        let mut args = vec!["to-jsonl"];
        args.extend(paths.iter().map(String::as_str));
        tfr(&args).run().ok()
    };

    let s = |p: std::path::PathBuf| p.to_string_lossy().into_owned();
    let out = s(dir.path("r/t.tfrecord.gz"));
    std::fs::create_dir_all(dir.path("r")).unwrap();
    tfr(&["reshard", "--where", expr, "--shards", "3", "-o", &out, &f])
        .run()
        .ok();
    let shards: Vec<String> = (0..3)
        .map(|k| s(dir.path(&format!("r/t-0000{k}-of-00003.tfrecord.gz"))))
        .collect();
    assert_eq!(numbers(&jsonl_of(&shards)), want);

    let out = s(dir.path("{split}.tfrecord"));
    tfr(&["split", "--where", expr, "--ratio", "a=1,b=1", "-o", &out, &f])
        .run()
        .ok();
    let mut got = numbers(&jsonl_of(&[s(dir.path("a.tfrecord")), s(dir.path("b.tfrecord"))]));
    got.sort_unstable();
    assert_eq!(got, want);

    let out = s(dir.path("s.tfrecord"));
    tfr(&["shuffle", "--where", expr, "--seed", "3", "-o", &out, &f])
        .run()
        .ok();
    let mut got = numbers(&jsonl_of(std::slice::from_ref(&out)));
    assert_ne!(got, want, "shuffled");
    got.sort_unstable();
    assert_eq!(got, want);
}

#[test]
fn hostile_expressions_are_one_line_errors_or_answers_never_a_crash() {
    let dir = Dir::new();
    let f = file(&dir, "a.tfrecord", 0, 30);
    // A chain of 9,000 `||` (about 110 KB, under the 128 KiB a command
    // line argument may hold): it used to overflow the stack.
    let chain = vec!["label == 7"; 9_000].join(" || ") + " || label == 1";
    for jobs in ["1", "2"] {
        assert_eq!(tfr(&["count", "-j", jobs, "--where", &chain, &f]).run().ok(), "10\n");
    }
    let chain = vec!["has(label)"; 9_000].join(" && ");
    assert_eq!(tfr(&["count", "--where", &chain, &f]).run().ok(), "30\n");
    // A line break in the expression: still one line, with the column.
    let line = tfr(&["count", "--where", "`a\nb` 1", &f]).run().fails(2);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.contains("`a\\nb` 1") && line.contains("at column 7"), "{line}");
    let line = tfr(&["count", "--where", "label == 1 &&\r\n(", &f]).run().fails(2);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.contains("at column 17"), "{line}");
}

#[test]
fn a_limit_reached_in_one_input_is_complete_when_later_inputs_have_no_match() {
    let dir = Dir::new();
    let f = file(&dir, "a.tfrecord", 0, 30);
    let empty = dir.write("empty.tfrecord", b"");
    // Records 30..60: none is named img_000x to img_002x.
    let g = file(&dir, "b.tfrecord", 30, 60);
    let complete = |args: &[&str]| {
        let mut all = vec!["schema", "--json"];
        all.extend_from_slice(args);
        let doc: serde_json::Value = serde_json::from_str(&tfr(&all).run().ok()).unwrap();
        doc["complete"].clone()
    };
    // has(tags): 6 matches in a (0, 5, ..., 25), 6 in b.
    assert_eq!(complete(&["-n", "6", "--where", "has(tags)", &f, &empty]), true);
    assert_eq!(
        complete(&[
            "-n",
            "6",
            "--where",
            "has(tags) && image/filename ~ \"^img_00[0-2]\"",
            &f,
            &g
        ]),
        true
    );
    assert_eq!(complete(&["-n", "6", "--where", "has(tags)", &f, &g]), false);
    assert_eq!(complete(&["-n", "30", &f, &empty]), true);
    assert_eq!(complete(&["-n", "30", &f, &empty, &g]), false);
    assert_eq!(complete(&["-n", "5", "--where", "has(tags)", &f, &empty, &g]), false);
    // An input past the limit that cannot be read is no error (as before):
    // the read is not complete.
    let bad = dir.write("bad.tfrecord", b"0123456789abcdefghij");
    assert_eq!(complete(&["-n", "30", &f, &bad]), false);
    assert_eq!(complete(&["-n", "30", &f, &empty, "missing.tfrecord"]), false);
}

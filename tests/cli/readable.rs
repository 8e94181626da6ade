//! Readable output on real datasets (issue 12): shortened values on a
//! terminal (tested under a pseudo-terminal), byte-exact pipes, feature
//! projection, record ranges and samples.

use crate::proto::{Example, Feature, FeatureEntry, Features};
use crate::util::*;
use prost::Message;

/// A JPEG-looking value of `len` bytes: SOI, a JFIF APP0 and a baseline
/// SOF0 header giving `width` x `height`, then noise.
fn jpeg(width: u16, height: u16, len: usize, seed: u32) -> Vec<u8> {
    let mut v = vec![0xff, 0xd8, 0xff, 0xe0, 0, 16];
    v.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
    v.extend_from_slice(&[0xff, 0xc0, 0, 17, 8]);
    v.extend_from_slice(&height.to_be_bytes());
    v.extend_from_slice(&width.to_be_bytes());
    v.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    let mut x = seed.wrapping_mul(2654435761) | 1;
    while v.len() < len {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v.push(x as u8);
    }
    v
}

fn floats(i: u32) -> Vec<f32> {
    (0..512).map(|j| ((i * 512 + j) % 1000) as f32 / 250.0 - 2.0).collect()
}

/// The issue's image dataset, smaller: `n` records of a 100 KB JPEG, 512
/// floats and a label.
fn image_dataset(n: u32) -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            Example {
                features: Some(Features {
                    feature: vec![
                        FeatureEntry::new("image/encoded", Feature::bytes(vec![jpeg(640, 480, 102_400, i)])),
                        FeatureEntry::new("image/format", Feature::bytes(vec![b"jpeg".to_vec()])),
                        FeatureEntry::new("embedding", Feature::floats(floats(i))),
                        FeatureEntry::new("label", Feature::int64s(vec![i64::from(i % 10)])),
                    ],
                }),
            }
            .encode_to_vec()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    records(&refs)
}

/// Runs `tfr ARGS` with stdout on a pseudo-terminal (`script`); returns
/// what it printed, `\r\n` turned back into `\n`. `None`: no `script`.
fn in_terminal(dir: &Dir, args: &str) -> Option<String> {
    if std::process::Command::new("script").arg("--version").output().is_err() {
        skip_or_fail("`script` (util-linux) is not installed");
        return None;
    }
    let bin = env!("CARGO_BIN_EXE_tfr");
    let out = std::process::Command::new("script")
        .args(["-qec", &format!("'{bin}' --color never {args}"), "/dev/null"])
        .current_dir(dir.path("."))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap())
        .env("TERM", "xterm")
        .output()
        .expect("script");
    assert!(out.status.success(), "{args}: {}", String::from_utf8_lossy(&out.stdout));
    Some(String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
}

#[test]
fn head_on_a_terminal_is_short_and_names_each_image() {
    let dir = Dir::new();
    dir.write("images.tfrecord", &image_dataset(20));
    let Some(shown) = in_terminal(&dir, "head -n 5 images.tfrecord") else {
        return;
    };
    assert!(shown.len() < 10_000, "{} bytes on the terminal", shown.len());
    assert_eq!(shown.matches("# JPEG 640x480, 102,400 bytes").count(), 5, "{shown}");
    assert_eq!(shown.matches("# ... 504 more (512 floats, min ").count(), 5, "{shown}");
    assert!(
        shown.contains("value: \"\\377\\330\\377\\340\\000\\020JF\"... # JPEG"),
        "{shown}"
    );
    // The pipe is byte-exact, as before: every byte of every value.
    let piped = dir.tfr(&["head", "-n", "5", "images.tfrecord"]).run().ok();
    assert!(piped.len() > 5 * 102_400, "{}", piped.len());
    assert!(!piped.contains("..."));
    assert_eq!(piped.matches("value: ").count(), 5 * (1 + 1 + 512 + 1));
    // --full on a terminal prints exactly what the pipe gets.
    let full = in_terminal(&dir, "head -n 5 --full images.tfrecord").unwrap();
    assert!(full == piped, "--full differs from the pipe");
    // JSON on a terminal: a marker object where bytes were left out.
    let json = in_terminal(&dir, "cat -f json images.tfrecord").unwrap();
    assert_eq!(json.lines().count(), 20);
    assert!(json.len() < 20 * 600, "{} bytes", json.len());
    assert!(
        json.lines().next().unwrap().starts_with(
            r#"{"image/encoded":[{"shortened":"JPEG 640x480, 102,400 bytes"}],"image/format":["jpeg"],"embedding":[-2.0,-1.996,"#
        ),
        "{json}"
    );
}

#[test]
fn limits_given_on_a_pipe_shorten_there_too_and_never_pass_for_data() {
    let dir = Dir::new();
    dir.write("images.tfrecord", &image_dataset(2));
    let text = dir
        .tfr(&[
            "head",
            "-n",
            "1",
            "--max-values",
            "3",
            "--max-bytes",
            "4",
            "images.tfrecord",
        ])
        .run()
        .ok();
    assert!(
        text.contains("value: \"\\377\\330\\377\\340\"... # JPEG 640x480, 102,400 bytes\n"),
        "{text}"
    );
    assert!(text.contains("value: \"jpeg\"\n"), "{text}");
    assert!(
        text.contains("        value: -1.992\n        # ... 509 more (512 floats, min -2.0, max 0.04399991)\n"),
        "{text}"
    );
    // Shortened JSON is refused by from-jsonl: nobody loads it as data.
    let json = dir
        .tfr(&["cat", "-f", "json", "--max-values", "3", "images.tfrecord"])
        .run()
        .ok();
    assert!(
        json.contains(r#"{"shortened":"509 more (512 floats, min -2.0, max 0.04399991)"}"#),
        "{json}"
    );
    dir.write("short.jsonl", json.as_bytes());
    dir.tfr(&["from-jsonl", "short.jsonl", "-o", "back.tfrecord"])
        .run()
        .fails(2);
    assert!(!dir.path("back.tfrecord").exists());
    // Short lists and values are printed whole.
    let small = dir.tfr(&[
        "head",
        "-n",
        "1",
        "--max-values",
        "600",
        "--max-bytes",
        "200000",
        "images.tfrecord",
    ]);
    let piped = dir.tfr(&["head", "-n", "1", "images.tfrecord"]).run().ok();
    assert_eq!(small.run().ok(), piped);
}

#[test]
fn each_limit_on_a_pipe_shortens_only_its_own_kind() {
    let dir = Dir::new();
    dir.write("images.tfrecord", &image_dataset(1));
    let piped = dir.tfr(&["head", "-n", "1", "images.tfrecord"]).run().ok();
    // --max-values cuts the float list, not the 102,400-byte JPEG.
    let lists = dir
        .tfr(&["head", "-n", "1", "--max-values", "3", "images.tfrecord"])
        .run()
        .ok();
    assert!(lists.contains("# ... 509 more (512 floats"), "{lists}");
    assert!(!lists.contains("bytes\n") && !lists.contains("# JPEG"), "{lists}");
    assert!(lists.len() > 100_000);
    // --max-bytes cuts the JPEG, not the list.
    let bytes = dir
        .tfr(&["head", "-n", "1", "--max-bytes", "4", "images.tfrecord"])
        .run()
        .ok();
    assert!(bytes.contains("# JPEG 640x480, 102,400 bytes"), "{bytes}");
    assert!(!bytes.contains("more (512 floats"), "{bytes}");
    assert_eq!(bytes.matches("value: ").count(), piped.matches("value: ").count());
    // NaN in a shortened list is counted in its summary.
    dir.write(
        "nan.jsonl",
        br#"{"f": ["NaN", 1.5, "NaN", -2.0, 3.0, "Infinity"], "g": {"float_list": ["NaN", "NaN", "NaN"]}}"#,
    );
    dir.tfr(&["from-jsonl", "nan.jsonl", "-o", "nan.tfrecord"]).run().ok();
    let text = dir.tfr(&["cat", "--max-values", "1", "nan.tfrecord"]).run().ok();
    assert!(
        text.contains("# ... 5 more (6 floats, 2 NaN, min -2.0, max inf)"),
        "{text}"
    );
    assert!(text.contains("# ... 2 more (3 floats, 3 NaN)"), "{text}");
    // An empty pattern is a usage error, not a projection onto nothing.
    for flag in ["--features", "--exclude"] {
        let err = dir.tfr(&["cat", flag, "", "nan.tfrecord"]).run().fails(2);
        assert!(err.contains("an empty pattern"), "{err}");
    }
}

#[test]
fn sequence_examples_shorten_their_steps() {
    let text = tfr(&["head", "-n", "1", "--max-values", "1", &data("sequence.tfrecord")])
        .run()
        .ok();
    assert!(text.contains("# ... 2 more (3 steps)"), "{text}");
    let json = tfr(&[
        "head",
        "-n",
        "1",
        "-f",
        "json",
        "--max-values",
        "1",
        &data("sequence.tfrecord"),
    ])
    .run()
    .ok();
    assert!(
        json.contains(
            r#""tokens":[[1,{"shortened":"1 more (2 ints, min 1, max 2)"}],{"shortened":"2 more (3 steps)"}]"#
        ),
        "{json}"
    );
}

fn jsonl_keys(line: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn features_and_exclude_project_and_round_trip() {
    let dir = Dir::new();
    dir.write("images.tfrecord", &image_dataset(3));
    let run = dir
        .tfr(&["to-jsonl", "--features", "image/*,label", "images.tfrecord"])
        .run();
    assert_eq!(run.code, 0);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    for line in run.stdout_str().lines() {
        assert_eq!(jsonl_keys(line), ["image/encoded", "image/format", "label"]);
    }
    let excluded = dir
        .tfr(&["to-jsonl", "--exclude", "image/*", "images.tfrecord"])
        .run()
        .ok();
    for line in excluded.lines() {
        assert_eq!(jsonl_keys(line), ["embedding", "label"]);
    }
    // An unknown name warns once, after the output.
    let run = dir
        .tfr(&[
            "to-jsonl",
            "--features",
            "label,nosuch",
            "--exclude",
            "image/*",
            "images.tfrecord",
        ])
        .run();
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout_str().lines().count(), 3);
    assert_eq!(
        run.stderr.trim(),
        "tfr: warning: --features nosuch: no feature of the records read matches it"
    );
    // A projected dataset round-trips as a smaller dataset.
    dir.write("small.jsonl", excluded.as_bytes());
    dir.tfr(&["from-jsonl", "small.jsonl", "-o", "small.tfrecord"])
        .run()
        .ok();
    assert_eq!(dir.tfr(&["to-jsonl", "small.tfrecord"]).run().ok(), excluded);
    // cat, head and schema take the same flags.
    let text = dir.tfr(&["cat", "--features", "label", "images.tfrecord"]).run().ok();
    assert_eq!(text.matches("key: ").count(), 3);
    let head = dir
        .tfr(&[
            "head",
            "-n",
            "1",
            "--exclude",
            "embedding,image/encoded",
            "images.tfrecord",
        ])
        .run()
        .ok();
    assert_eq!(head.matches("key: ").count(), 2, "{head}");
    let schema = dir
        .tfr(&["schema", "--json", "--features", "emb*", "images.tfrecord"])
        .run()
        .ok();
    let v: serde_json::Value = serde_json::from_str(&schema).unwrap();
    let names: Vec<&String> = v["features"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["embedding"]);
}

#[test]
fn projection_applies_to_context_and_feature_lists() {
    let all = tfr(&["to-jsonl", &data("sequence.tfrecord")]).run().ok();
    let first: serde_json::Value = serde_json::from_str(all.lines().next().unwrap()).unwrap();
    let out = tfr(&["to-jsonl", "--features", "name,tokens", &data("sequence.tfrecord")])
        .run()
        .ok();
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["context"], serde_json::json!({"name": first["context"]["name"]}));
    assert_eq!(
        line["feature_lists"],
        serde_json::json!({"tokens": first["feature_lists"]["tokens"]})
    );
    let proto = tfr(&[
        "cat",
        "-f",
        "protojson",
        "--exclude",
        "tokens,scores,words,length,weight",
        &data("sequence.tfrecord"),
    ])
    .run()
    .ok();
    assert!(
        proto
            .lines()
            .next()
            .unwrap()
            .contains(r#""context": {"feature": {"name": "#),
        "{proto}"
    );
    assert!(!proto.contains("tokens"));
}

/// The text records of `tfr cat` split at their comment lines.
fn text_records(text: &str) -> Vec<String> {
    text.split_inclusive('\n').fold(Vec::new(), |mut recs, line| {
        if line.starts_with("# ") {
            recs.push(String::new());
        }
        recs.last_mut().unwrap().push_str(line);
        recs
    })
}

fn numbered(n: u32) -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            Example {
                features: Some(Features {
                    feature: vec![FeatureEntry::new("i", Feature::int64s(vec![i64::from(i)]))],
                }),
            }
            .encode_to_vec()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    records(&refs)
}

#[test]
fn skip_and_limit_cover_the_inputs_taken_together() {
    let dir = Dir::new();
    dir.write("a.tfrecord", &numbered(30));
    dir.write("b.tfrecord", &gzip(&numbered(5)));
    let all = text_records(&dir.tfr(&["cat", "a.tfrecord"]).run().ok());
    assert_eq!(all.len(), 30);
    for jobs in ["1", "4"] {
        let some = dir
            .tfr(&["cat", "--skip", "10", "-n", "3", "-j", jobs, "a.tfrecord"])
            .run()
            .ok();
        assert_eq!(text_records(&some), &all[10..13]);
    }
    // Over two inputs: the skip runs through the first into the second.
    let lines = |args: &[&str]| first_is(&dir.tfr(args).run().ok());
    assert_eq!(
        lines(&["to-jsonl", "--skip", "28", "-n", "4", "a.tfrecord", "b.tfrecord"]),
        [28, 29, 0, 1]
    );
    assert_eq!(
        lines(&["to-jsonl", "--skip", "31", "a.tfrecord", "b.tfrecord"]),
        [1, 2, 3, 4]
    );
    assert_eq!(
        lines(&["to-jsonl", "--skip", "99", "a.tfrecord", "b.tfrecord"]),
        Vec::<i64>::new()
    );
    assert_eq!(lines(&["to-jsonl", "-n", "0", "a.tfrecord"]), Vec::<i64>::new());
    // head --skip, and from a pipe.
    let head = dir
        .tfr(&[
            "head",
            "-n",
            "2",
            "--skip",
            "29",
            "-f",
            "json",
            "a.tfrecord",
            "b.tfrecord",
        ])
        .run()
        .ok();
    assert_eq!(head, "{\"i\":[29]}\n{\"i\":[0]}\n");
    let piped = dir
        .tfr(&["cat", "--skip", "3", "-n", "1", "-f", "json"])
        .stdin(&numbered(10))
        .run()
        .ok();
    assert_eq!(piped, "{\"i\":[3]}\n");
    // The record numbers stay those of the file.
    let text = dir
        .tfr(&["cat", "--skip", "28", "-n", "3", "a.tfrecord", "b.tfrecord"])
        .run()
        .ok();
    let labels: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        labels,
        [
            "# a.tfrecord record 28",
            "# a.tfrecord record 29",
            "# b.tfrecord record 0"
        ]
    );
}

#[test]
fn skip_hops_over_damage_it_does_not_read() {
    // A payload checksum error in a skipped record is not seen (as count).
    let dir = Dir::new();
    let mut file = numbered(10);
    file[16 + 12] ^= 1; // record 0's payload (records are 16 + 9 bytes)
    dir.write("x.tfrecord", &file);
    let out = dir.tfr(&["cat", "--skip", "1", "-f", "json", "x.tfrecord"]).run().ok();
    assert_eq!(out.lines().count(), 9);
    dir.tfr(&["cat", "x.tfrecord"]).run().fails(2);
}

fn sample(dir: &Dir, n: &str, seed: &str) -> Vec<i64> {
    first_is(
        &dir.tfr(&["to-jsonl", "--sample", n, "--seed", seed, "x.tfrecord"])
            .run()
            .ok(),
    )
}

/// The first value of feature `i` of each JSON line.
fn first_is(jsonl: &str) -> Vec<i64> {
    jsonl
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["i"][0]
                .as_i64()
                .unwrap()
        })
        .collect()
}

#[test]
#[ignore = "slow: --sample over 400 seeds for a chi-square test of uniformity: cargo test -- --include-ignored"]
fn samples_are_deterministic_by_seed_and_uniform() {
    let dir = Dir::new();
    dir.write("x.tfrecord", &numbered(1000));
    let one = sample(&dir, "100", "1");
    assert_eq!(one.len(), 100);
    assert!(one.windows(2).all(|w| w[0] < w[1]), "in input order, distinct: {one:?}");
    assert_eq!(sample(&dir, "100", "1"), one);
    assert_ne!(sample(&dir, "100", "2"), one);
    assert_eq!(sample(&dir, "5000", "3"), (0..1000).collect::<Vec<_>>());
    // Over 400 seeds every record is picked about 40 times. Each run
    // picks 100 of the 1,000 without replacement, so a record's count is
    // Binomial(400, 0.1): variance 36, not 40. Pearson's statistic with
    // that variance is about chi-square with 999 degrees of freedom; it
    // stays under 999 + 5 sd. Runs go on two threads.
    let mut counts = vec![0u32; 1000];
    let picks: Vec<Vec<i64>> = std::thread::scope(|s| {
        let half = |from: u32| {
            let dir = &dir;
            s.spawn(move || {
                (from..from + 200)
                    .flat_map(|seed| sample(dir, "100", &seed.to_string()))
                    .collect()
            })
        };
        let (a, b) = (half(0), half(200));
        vec![a.join().unwrap(), b.join().unwrap()]
    });
    for i in picks.into_iter().flatten() {
        counts[i as usize] += 1;
    }
    let chi2: f64 = counts.iter().map(|&c| (f64::from(c) - 40.0).powi(2) / 36.0).sum();
    let bound = 999.0 + 5.0 * (2.0f64 * 999.0).sqrt();
    assert!(chi2 < bound, "chi-square {chi2:.0} >= {bound:.0}: {counts:?}");
    // Each count is 40 ± 6: none near 0 (a record never picked).
    assert!(counts.iter().all(|&c| c > 12), "{counts:?}");
    // cat samples the same records.
    let text = dir
        .tfr(&["cat", "--sample", "100", "--seed", "1", "x.tfrecord"])
        .run()
        .ok();
    let labels: Vec<i64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# record "))
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(labels, one);
    // --sample with --skip or --limit is refused.
    let refused = dir.tfr(&["cat", "--sample", "3", "--skip", "1", "x.tfrecord"]).run();
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("cannot be used with"), "{}", refused.stderr);
}

//! from-jsonl on hostile input (issue 17): a line that cannot be JSON stops
//! at once, a line over --max-line-size stops at the limit, and millions of
//! feature names do not fill memory.

use crate::util::*;

#[test]
fn an_endless_line_that_is_not_json_stops_at_once() {
    let dir = Dir::new();
    // `yes | tr -d '\n'`: 8 MB of "yyyy..." without a newline (an endless
    // stream is read no further than its first chunk).
    let line = dir
        .tfr(&["from-jsonl", "-o", "out.tfrecord"])
        .stdin(&vec![b'y'; 8 << 20])
        .run()
        .fails(2);
    assert!(line.contains("<stdin>:1:1"), "{line}");
    assert!(!dir.path("out.tfrecord").exists());
    // Binary data whose second "line" is long.
    let mut bin = b"\x12\x05hello\n".to_vec();
    bin.extend(std::iter::repeat_n(0x80u8, 4 << 20));
    let line = dir
        .tfr(&["from-jsonl", "-o", "out.tfrecord"])
        .stdin(&bin)
        .run()
        .fails(2);
    assert!(line.contains("<stdin>:1:"), "{line}");
}

#[test]
fn a_line_over_the_limit_stops_there() {
    let dir = Dir::new();
    let mut text = b"{\"a\": [".to_vec();
    for i in 0..400_000 {
        text.extend_from_slice(format!("{i},").as_bytes());
    }
    text.extend_from_slice(b"0]}\n");
    let path = dir.write("big.jsonl", &text);
    let line = dir
        .tfr(&["from-jsonl", "--max-line-size", "1M", &path, "-o", "out.tfrecord"])
        .run()
        .fails(2);
    assert!(
        line.contains("big.jsonl:1: line longer than 1 MiB (--max-line-size)"),
        "{line}"
    );
    assert!(!dir.path("out.tfrecord").exists());
    dir.tfr(&["from-jsonl", "--max-line-size", "8M", &path, "-o", "out.tfrecord"])
        .run()
        .ok();
}

#[test]
fn millions_of_feature_names_keep_kind_tracking_bounded() {
    let dir = Dir::new();
    // 30,000 distinct names, one per line, the last one changing kind.
    let mut text = Vec::new();
    for i in 0..30_000 {
        text.extend_from_slice(format!("{{\"f{i}\": [1]}}\n").as_bytes());
    }
    text.extend_from_slice(b"{\"f0\": [1.5]}\n{\"f29999\": [2.5]}\n");
    let path = dir.write("names.jsonl", &text);
    let ran = dir
        .tfr(&["from-jsonl", "--on-kind-change", "keep", &path, "-o", "out.tfrecord"])
        .run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stderr.contains("feature f0 changes kind"), "{}", ran.stderr);
    assert!(!ran.stderr.contains("feature f29999 changes kind"), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("tracked for the first 20000 distinct feature names only"),
        "{}",
        ran.stderr
    );
}

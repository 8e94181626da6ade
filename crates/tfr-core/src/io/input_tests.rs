#[test]
fn which_files_of_a_directory_are_taken() {
    use super::Looks::{Jsonl, Records};
    for name in [
        "train.tfrecord",
        "x.TFRecords",
        "mnist-train.tfrecord-00000-of-00001",
        "data_tfrecord-00000-of-00001.gz",
        "train-00003-of-00010",
        "a.tfrec",
        "b.tfr.gz",
        "c.tfrecord.snappy",
        "events.out.tfevents.1700000001.host.0.v2",
    ] {
        assert!(Records.matches(name.as_bytes()), "{name}");
    }
    for name in [
        "dataset_info.json",
        "features.json",
        "label.labels.txt",
        ".x.tfrecord",
        "_SUCCESS",
        "train-of-10",
        "notes-3-of-x",
        "readme",
        "my.events.out.tfevents.1",
        "train.tfrecord.idx",
        "train-00000-of-00002.idx",
    ] {
        assert!(!Records.matches(name.as_bytes()), "{name}");
    }
    assert!(Jsonl.matches(b"a.jsonl") && Jsonl.matches(b"b.json.gz") && Jsonl.matches(b"c.NDJSON"));
    assert!(!Jsonl.matches(b"a.tfrecord") && !Jsonl.matches(b".a.jsonl"));
}

use super::*;

#[test]
fn a_globs_index_files_beside_their_data_are_left_out() {
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let kept = without_indexes(
        names(&["a-0", "a-0.idx", "a-1", "b.idx", "c.tfrecord.idx.idx"]),
        |s: &String| s.as_bytes().to_vec(),
    );
    // An index without its data (b.idx) is what the glob named.
    assert_eq!(kept, names(&["a-0", "a-1", "b.idx", "c.tfrecord.idx.idx"]));
}

#[test]
fn globs_match_bytes() {
    assert!(matches(b"train-*", b"train-00001"));
    assert!(matches(b"*.tfrecord", b"a.tfrecord"));
    assert!(matches(b"*.tfrecord", b".hidden.tfrecord"));
    assert!(matches(b"x?[0-9][!a]", b"xy5b"));
    assert!(!matches(b"x?[0-9][!a]", b"xy5a"));
    assert!(matches(b"*", b"\xff\xfe"));
    assert!(matches(b"a[", b"a["));
    let path = |s: &'static str| s.split('/').map(str::as_bytes).collect::<Vec<_>>();
    assert!(matches_path(&path("data/train-*"), &path("data/train-1")));
    assert!(!matches_path(&path("data/*"), &path("data/sub/train-1")));
    assert!(matches_path(&path("data/**/t*"), &path("data/sub/x/train-1")));
    assert!(matches_path(&path("data/**/t*"), &path("data/train-1")));
}

/// The backtracking matcher tfr had before issue 26 (exponential in
/// the number of stars), the reference for the semantics.
fn old_matches(p: &[u8], n: &[u8]) -> bool {
    match p.split_first() {
        None => n.is_empty(),
        Some((b'*', rest)) => (0..=n.len()).any(|i| old_matches(rest, &n[i..])),
        Some((b'?', rest)) => !n.is_empty() && old_matches(rest, &n[1..]),
        Some((b'[', rest)) => {
            let Some(close) = rest.iter().skip(1).position(|&b| b == b']').map(|i| i + 1) else {
                return n.first() == Some(&b'[') && old_matches(rest, &n[1..]);
            };
            let Some((&c, after)) = n.split_first() else {
                return false;
            };
            let (negate, set) = match rest[..close].split_first() {
                Some((b'!' | b'^', set)) => (true, set),
                _ => (false, &rest[..close]),
            };
            super::in_set(set, c) != negate && old_matches(&rest[close + 1..], after)
        }
        Some((&b, rest)) => n.first() == Some(&b) && old_matches(rest, &n[1..]),
    }
}

fn old_matches_path(pattern: &[&[u8]], parts: &[&[u8]]) -> bool {
    match pattern.split_first() {
        None => parts.is_empty(),
        Some((&b"**", rest)) => (0..=parts.len()).any(|i| old_matches_path(rest, &parts[i..])),
        Some((first, rest)) => parts
            .split_first()
            .is_some_and(|(head, tail)| old_matches(first, head) && old_matches_path(rest, tail)),
    }
}

/// Every string of length up to `max` over `alphabet`.
fn all_strings(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|s| {
                alphabet.iter().map(move |&c| {
                    let mut s = s.clone();
                    s.push(c);
                    s
                })
            })
            .collect();
        out.extend(last.iter().cloned());
    }
    out
}

/// Issue 26: the linear matcher agrees with the old one on every
/// pattern of up to 5 bytes over the glob syntax against every name of
/// up to 4 bytes.
#[test]
fn the_linear_matcher_has_the_old_semantics() {
    let names = all_strings(b"ab]-", 4);
    for pattern in all_strings(b"a*?[]!-", 5) {
        for name in &names {
            assert_eq!(
                matches(&pattern, name),
                old_matches(&pattern, name),
                "{} against {}",
                escape_name(&pattern),
                escape_name(name)
            );
        }
    }
    let comps: [&[u8]; 3] = [b"**", b"a*", b"b"];
    let parts: [&[u8]; 2] = [b"a", b"b"];
    for pattern in all_strings(&[0, 1, 2], 4) {
        let pattern: Vec<&[u8]> = pattern.iter().map(|&i| comps[usize::from(i)]).collect();
        for path in all_strings(&[0, 1], 4) {
            let path: Vec<&[u8]> = path.iter().map(|&i| parts[usize::from(i)]).collect();
            assert_eq!(
                matches_path(&pattern, &path),
                old_matches_path(&pattern, &path),
                "{pattern:?} against {path:?}"
            );
        }
    }
}

/// Issue 26: a pattern with many stars against a long name that it
/// does not match took minutes (backtracking); now microseconds.
#[test]
fn many_stars_match_in_linear_time() {
    let started = std::time::Instant::now();
    let name = vec![b'a'; 150];
    assert!(!matches(b"*a*a*a*a*a*a*a*a*b", &name));
    assert!(!matches(&b"*a".repeat(40), &name[..39]));
    assert!(matches(b"*a*a*a*a*a*a*a*a*a", &name));
    let many: Vec<&[u8]> = std::iter::repeat_n(&b"**"[..], 30).chain([&b"*a*a*a*b"[..]]).collect();
    let deep: Vec<&[u8]> = std::iter::repeat_n(&name[..], 60).collect();
    assert!(!matches_path(&many, &deep));
    let elapsed = started.elapsed();
    assert!(elapsed < std::time::Duration::from_millis(500), "{elapsed:?}");
}

#[test]
fn many_double_stars_walk_in_polynomial_time() {
    // Review 4: 30 directories deep, 7 `**` pairs: each way of
    // splitting the path among the `**`s was walked again (>30 s).
    let root = std::env::temp_dir().join(format!("tfr-glob-deep-{}", std::process::id()));
    let mut deep = root.join("lgd");
    for _ in 0..30 {
        deep.push("a");
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("q"), b"").unwrap();
    std::fs::write(root.join("lgd/a/q"), b"").unwrap();
    let mut pattern = format!("{}/lgd", root.display());
    for _ in 0..7 {
        pattern.push_str("/**/a");
    }
    pattern.push_str("/**/q");
    let start = std::time::Instant::now();
    let found = glob(pattern.as_bytes()).unwrap();
    let took = start.elapsed();
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(found, vec![deep.join("q")]);
    assert!(took < std::time::Duration::from_millis(500), "{took:?}");
}

#[test]
fn names_are_escaped_for_printing() {
    assert_eq!(escape_name(b"data/train-1.tfrecord"), "data/train-1.tfrecord");
    assert_eq!(escape_name("é ü".as_bytes()), "é ü");
    assert_eq!(escape_name(b"a\nb\x1b[31m"), "a\\nb\\x1b[31m");
    assert_eq!(escape_name(b"bad\xff"), "bad\\xff");
    assert_eq!(
        escape_name("a\u{202e}gpj.exe\u{9b}".as_bytes()),
        "a\\u{202e}gpj.exe\\x9b"
    );
}

//! `tfr to-wds` / `tfr from-wds`: WebDataset tar shards both ways. Media
//! bytes as `.jpg`/`.png` members, the label as `.cls`, the rest `.json`;
//! keys safe for the webdataset library's split; shards cut by size or
//! count, all appearing together or none; `from-wds` gives the records
//! back (`tfr cat` equal) and reads foreign shards by extension; hostile
//! tars (`..`, absolute names, links, truncation, giant sizes, bad
//! checksums) are one-line errors. The webdataset library itself reads the
//! shards in tests/oracle/formats.py.

use crate::to_csv::from_lines;
use crate::util::*;

/// The members of a tar: (name, bytes), PAX and other headers skipped.
fn members(tar: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 512 <= tar.len() && tar[at..at + 512].iter().any(|&b| b != 0) {
        let h = &tar[at..at + 512];
        let name = String::from_utf8(h[..100].iter().take_while(|&&b| b != 0).copied().collect()).unwrap();
        let size_field = std::str::from_utf8(&h[124..136])
            .unwrap()
            .trim_matches(|c| c == '\0' || c == ' ');
        let size = usize::from_str_radix(size_field, 8).unwrap();
        let data = tar[at + 512..at + 512 + size].to_vec();
        if h[156] == b'0' || h[156] == 0 {
            out.push((name, data));
        }
        at += 512 + size.div_ceil(512) * 512;
    }
    out
}

/// A ustar header block for `name` of `size` bytes and type `ty`.
fn header(name: &[u8], size: &[u8], ty: u8) -> Vec<u8> {
    let mut h = vec![0u8; 512];
    h[..name.len()].copy_from_slice(name);
    h[100..107].copy_from_slice(b"0000644");
    h[124..124 + size.len()].copy_from_slice(size);
    h[156] = ty;
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    h
}

/// A tar of regular files.
pub(crate) fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, data) in files {
        out.extend(header(name.as_bytes(), format!("{:011o}", data.len()).as_bytes(), b'0'));
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.extend([0u8; 1024]);
    out
}

/// `tfr cat` of a file without its comment lines.
fn printed(dir: &Dir, path: &str) -> String {
    let text = dir.tfr(&["cat", path]).run().ok();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn images_become_media_members_and_come_back() {
    let dir = Dir::new();
    let said = dir
        .tfr(&["to-wds", &data("images.tfrecord"), "-o", "wds/shard.tar"])
        .run()
        .ok();
    assert_eq!(said, "8 samples in 1 shard: wds/shard-000000.tar ...\n");
    let tar = std::fs::read(dir.path("wds/shard-000000.tar")).unwrap();
    let got = members(&tar);
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names[..6],
        [
            "000000000.png",
            "000000000.cls",
            "000000000.json",
            "000000001.jpg",
            "000000001.cls",
            "000000001.json"
        ]
    );
    assert_eq!(got.len(), 24);
    assert!(got[3].1.starts_with(&[0xff, 0xd8, 0xff]), "a JPEG");
    assert_eq!(got[1].1, b"4");
    let json: serde_json::Value = serde_json::from_slice(&got[2].1).unwrap();
    assert_eq!(
        json["image/format"],
        serde_json::json!("png"),
        "one value in every record: bare"
    );
    assert_eq!(json["embedding"].as_array().map(Vec::len), Some(16));
    assert!(json.get("image/encoded").is_none() && json.get("label").is_none());
    // The feature's name rides in a PAX header, which GNU tar and Python's
    // tarfile read as an extended attribute.
    let text = String::from_utf8_lossy(&tar);
    assert!(text.contains("SCHILY.xattr.user.tfr.feature=image/encoded\n"));
    assert!(text.contains("SCHILY.xattr.user.tfr.feature=label\n"));
    // Back: the same records.
    dir.tfr(&["from-wds", "wds", "-o", "back.tfrecord.gz"]).run().ok();
    assert_eq!(
        printed(&dir, "back.tfrecord.gz"),
        printed(&dir, &data("images.tfrecord"))
    );
    let gallery = data("gallery.tfrecord");
    dir.tfr(&["to-wds", &gallery, "-o", "g/s.tar", "-j", "1"]).run().ok();
    dir.tfr(&["from-wds", "g/s-000000.tar", "-o", "g.tfrecord"]).run().ok();
    assert_eq!(printed(&dir, "g.tfrecord"), printed(&dir, &gallery));
    // SequenceExamples: the context's label as .cls, the rest (feature
    // lists too) in .json; back with --type sequence (where `{}` is an
    // empty SequenceExample, not an Example with empty features).
    let seq = data("sequence.tfrecord");
    dir.tfr(&["to-wds", &seq, "-o", "q/s.tar"]).run().ok();
    let got = members(&std::fs::read(dir.path("q/s-000000.tar")).unwrap());
    assert!(
        got.iter().any(|(n, d)| n == "000000007.cls" && d == b"0"),
        "the context's label"
    );
    dir.tfr(&["from-wds", "q", "-o", "q.tfrecord", "--type", "sequence"])
        .run()
        .ok();
    assert_eq!(printed(&dir, "q.tfrecord"), printed(&dir, &seq));
}

/// The `.json` members of a to-wds run's first shard, parsed.
fn json_members(dir: &Dir, shard: &str) -> Vec<serde_json::Value> {
    members(&std::fs::read(dir.path(shard)).unwrap())
        .iter()
        .filter(|(n, _)| n.ends_with(".json"))
        .map(|(_, d)| serde_json::from_slice(d).unwrap())
        .collect()
}

#[test]
fn features_with_one_value_in_every_record_are_bare_in_json_and_read_back() {
    let dir = Dir::new();
    // a, t, f, blob: one value wherever present; b: two in one record;
    // m: none in one record; n: one NaN (its natural form is typed).
    let lines = r#"{"a": [1], "b": [1, 2], "t": ["x"], "f": [0.5], "blob": [{"base64": "/wA="}], "n": {"float_list": ["NaN"]}, "m": [3]}
{"a": [2], "b": [3], "m": {"int64_list": []}, "n": {"float_list": ["NaN"]}}
{"t": ["y"], "f": [-1e-45], "blob": ["ok"]}
"#;
    let input = from_lines(&dir, "in.tfrecord", lines);
    dir.tfr(&["to-wds", &input, "-o", "w/s.tar"]).run().ok();
    let got = json_members(&dir, "w/s-000000.tar");
    let want: Vec<serde_json::Value> = [
        r#"{"a": 1, "b": [1, 2], "t": "x", "f": 0.5, "blob": {"base64": "/wA="}, "n": {"float_list": ["NaN"]}, "m": [3]}"#,
        r#"{"a": 2, "b": [3], "m": {"int64_list": []}, "n": {"float_list": ["NaN"]}}"#,
        r#"{"t": "y", "f": -1e-45, "blob": "ok"}"#,
    ]
    .iter()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect();
    assert_eq!(got, want);
    // from-wds reads the bare values back as the records' one-value lists.
    dir.tfr(&["from-wds", "w", "-o", "back.tfrecord"]).run().ok();
    assert_eq!(printed(&dir, "back.tfrecord"), printed(&dir, &input));
    // --lists, and stdin (no first pass), write every feature as a list.
    dir.tfr(&["to-wds", &input, "-o", "l/s.tar", "--lists"]).run().ok();
    assert_eq!(json_members(&dir, "l/s-000000.tar")[2]["t"], serde_json::json!(["y"]));
    let bytes = std::fs::read(&input).unwrap();
    dir.tfr(&["to-wds", "-", "-o", "i/s.tar"]).stdin(&bytes).run().ok();
    assert_eq!(json_members(&dir, "i/s-000000.tar")[0]["a"], serde_json::json!([1]));
    // --where: the records written decide (b holds one value in those).
    dir.tfr(&["to-wds", &input, "-o", "q/s.tar", "--where", "has(a)"])
        .run()
        .ok();
    let got = json_members(&dir, "q/s-000000.tar");
    assert_eq!(got[0]["b"], serde_json::json!([1, 2]));
    dir.tfr(&["to-wds", &input, "-o", "r/s.tar", "--where", "b == 3"])
        .run()
        .ok();
    assert_eq!(json_members(&dir, "r/s-000000.tar")[0]["b"], serde_json::json!(3));
}

#[test]
fn feature_lists_with_one_value_per_step_are_arrays_of_values() {
    let dir = Dir::new();
    let lines = r#"{"context": {"id": [7]}, "feature_lists": {"act": [[1], [2]], "obs": [[0.5, 1.5], [2.5]]}}
{"context": {"id": [8]}, "feature_lists": {"act": [[3]], "obs": [[1.0]]}}
"#;
    let path = dir.path("seq.tfrecord").to_string_lossy().into_owned();
    dir.tfr(&["from-jsonl", "--type", "sequence", "-o", &path])
        .stdin(lines.as_bytes())
        .run()
        .ok();
    dir.tfr(&["to-wds", &path, "-o", "w/s.tar"]).run().ok();
    let got = json_members(&dir, "w/s-000000.tar");
    assert_eq!(
        got[0],
        serde_json::json!({"context": {"id": 7}, "feature_lists": {"act": [1, 2], "obs": [[0.5, 1.5], [2.5]]}})
    );
    dir.tfr(&["from-wds", "w", "-o", "back.tfrecord", "--type", "sequence"])
        .run()
        .ok();
    assert_eq!(printed(&dir, "back.tfrecord"), printed(&dir, &path));
}

#[test]
fn shards_are_cut_by_count_and_size_and_appear_together_or_not_at_all() {
    let dir = Dir::new();
    let gallery = data("gallery.tfrecord");
    let said = dir
        .tfr(&["to-wds", &gallery, "-o", "c/s.tar", "--shard-records", "5"])
        .run()
        .ok();
    assert!(said.starts_with("16 samples in 4 shards"), "{said}");
    let count = |name: &str| members(&std::fs::read(dir.path(name)).unwrap()).len() / 3;
    assert_eq!([0, 1, 2, 3].map(|k| count(&format!("c/s-00000{k}.tar"))), [5, 5, 5, 1]);
    dir.tfr(&["to-wds", &gallery, "-o", "z/s.tar", "--shard-size", "8K"])
        .run()
        .ok();
    let mut total = 0;
    for entry in std::fs::read_dir(dir.path("z")).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(bytes.len() <= 8192, "{}", bytes.len());
        total += members(&bytes).len() / 3;
    }
    assert_eq!(total, 16);
    // Damage after the first records: exit 2, no shard left, no directory.
    let e = dir
        .tfr(&[
            "to-wds",
            &data("data_crc.tfrecord"),
            "-o",
            "d/s.tar",
            "--shard-records",
            "1",
        ])
        .run()
        .fails(2);
    assert!(e.contains("checksum"), "{e}");
    assert!(!dir.path("d").exists());
    let e = dir.tfr(&["to-wds", &gallery, "-o", "x.tgz"]).run().fails(2);
    assert!(e.contains("DIR/NAME.tar"), "{e}");
}

#[test]
fn keys_from_a_feature_are_safe_for_webdataset() {
    let dir = Dir::new();
    let lines =
        "{\"name\": [\"a.b/c\"], \"v\": [1]}\n{\"name\": [\"d\"], \"v\": [2]}\n{\"name\": [\"d\"], \"v\": [3]}\n";
    let input = from_lines(&dir, "k.tfrecord", lines);
    let e = dir
        .tfr(&["to-wds", &input, "-o", "k/s.tar", "--key", "name"])
        .run()
        .fails(2);
    assert!(e.contains("two samples in a row") && e.contains("record 2"), "{e}");
    assert!(!dir.path("k").exists());
    let input = from_lines(&dir, "k2.tfrecord", &lines[..lines.rfind("{\"name\"").unwrap()]);
    dir.tfr(&["to-wds", &input, "-o", "k/s.tar", "--key", "name"])
        .run()
        .ok();
    let got = members(&std::fs::read(dir.path("k/s-000000.tar")).unwrap());
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    // No label here: every feature in the .json; the key's '.' and '/' as '_'.
    assert_eq!(names, ["a_b_c.json", "d.json"]);
    let e = dir
        .tfr(&["to-wds", &input, "-o", "m/s.tar", "--key", "missing"])
        .run()
        .fails(2);
    assert!(e.contains("--key missing"), "{e}");
}

#[test]
fn foreign_shards_give_features_named_by_extension() {
    let dir = Dir::new();
    let jpeg = b"\xff\xd8\xff\xe0fake jpeg";
    let tar = tar_of(&[
        ("s1.jpg", jpeg),
        ("s1.txt", b"a caption"),
        ("s1.cls", b" 7\n"),
        ("s1.json", br#"{"w": 3, "tags": ["x", "y"]}"#),
        ("dir/s2.seg.png", b"\x89PNG..."),
        ("__meta__", b"skipped: no extension"),
        ("s3.JPG", jpeg),
    ]);
    let t = dir.write("f.tar", &tar);
    dir.tfr(&["from-wds", &t, "-o", "f.tfrecord", "--key", "key"])
        .run()
        .ok();
    let got = dir.tfr(&["to-jsonl", "f.tfrecord"]).run().ok();
    let want = concat!(
        r#"{"w":[3],"tags":["x","y"],"jpg":[{"base64":"/9j/4GZha2UganBlZw=="}],"txt":["a caption"],"cls":[7],"key":["s1"]}"#,
        "\n",
        r#"{"seg.png":[{"base64":"iVBORy4uLg=="}],"key":["dir/s2"]}"#,
        "\n",
        r#"{"jpg":[{"base64":"/9j/4GZha2UganBlZw=="}],"key":["s3"]}"#,
        "\n"
    );
    assert_eq!(got, want);
    // gzip-compressed shards are read too.
    let gz = dir.write("f.tar.gz", &gzip(&tar));
    dir.tfr(&["from-wds", &gz, "-o", "g.tfrecord", "--key", "key"])
        .run()
        .ok();
    assert_eq!(dir.tfr(&["to-jsonl", "g.tfrecord"]).run().ok(), want);
    // Two members of one extension in a sample, a .cls that is no number.
    let e = dir
        .tfr(&[
            "from-wds",
            &dir.write("d.tar", &tar_of(&[("a.txt", b"1"), ("a.txt", b"2")])),
            "-o",
            "o.tfrecord",
        ])
        .run()
        .fails(2);
    assert!(e.contains("two .txt members"), "{e}");
    let e = dir
        .tfr(&[
            "from-wds",
            &dir.write("c.tar", &tar_of(&[("a.cls", b"cat")])),
            "-o",
            "o.tfrecord",
        ])
        .run()
        .fails(2);
    assert!(e.contains("not an integer"), "{e}");
    assert!(!dir.path("o.tfrecord").exists());
}

#[test]
fn hostile_tars_are_one_line_errors() {
    let dir = Dir::new();
    let ok = tar_of(&[("a.txt", &[b'x'; 1000])]);
    let mut cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("dotdot", tar_of(&[("../evil.txt", b"x")]), "'..' part"),
        ("absolute", tar_of(&[("/etc/evil.txt", b"x")]), "absolute name"),
        ("truncated", ok[..600].to_vec(), "truncated tar"),
        ("cut header", ok[..1536 + 300].to_vec(), "header cut short at byte 1836"),
        ("short", ok[..300].to_vec(), "not a tar file: it ends after 300 bytes"),
        (
            "not a tar",
            b"just some text, not a tar at all".repeat(20),
            "not a tar file",
        ),
    ];
    let mut link = header(b"a.jpg", b"00000000000", b'2');
    link.extend([0u8; 1024]);
    cases.push(("symlink", link, "symbolic link"));
    let mut hard = header(b"a.jpg", b"00000000000", b'1');
    hard.extend([0u8; 1024]);
    cases.push(("hard link", hard, "hard link"));
    // A size field of 8 GiB with 10 bytes behind it: refused before any
    // allocation (over --max-record-size), and with a larger limit read
    // only as far as the bytes go.
    let mut giant = header(b"a.bin", b"77777777777", b'0');
    giant.extend([1u8; 10]);
    cases.push(("giant", giant.clone(), "over the limit"));
    let mut long = header(b"././@LongLink", b"77777777777", b'L');
    long.extend([1u8; 10]);
    cases.push(("giant long name", long, "a GNU long name"));
    for (what, bytes, want) in &cases {
        let t = dir.write("h.tar", bytes);
        let e = dir.tfr(&["from-wds", &t, "-o", "h.tfrecord"]).run().fails(2);
        assert!(e.contains(want), "{what}: {e}");
        assert!(!dir.path("h.tfrecord").exists(), "{what}");
    }
    let t = dir.write("h.tar", &giant);
    let e = dir
        .tfr(&["from-wds", &t, "-o", "h.tfrecord", "--max-record-size", "16G"])
        .run()
        .fails(2);
    assert!(e.contains("has 10 of its 8589934591 bytes"), "{e}");
    // Nothing was written outside: the parent directory holds no evil.txt.
    assert!(!dir.path("../evil.txt").exists());
}

#[test]
fn from_wds_gives_the_same_bytes_for_any_jobs() {
    // 3,000 samples: several batches for the workers, in order.
    let dir = Dir::new();
    let lines: String = (0..3000)
        .map(|i| format!("{{\"label\": [{}], \"text\": [\"row {i}\"], \"x\": [{i}.5]}}\n", i % 7))
        .collect();
    let src = from_lines(&dir, "src.tfrecord", &lines);
    dir.tfr(&["to-wds", &src, "-o", "w/s.tar", "--shard-records", "1000"])
        .run()
        .ok();
    let mut outs = Vec::new();
    for jobs in ["1", "4"] {
        let out = format!("back{jobs}.tfrecord");
        dir.tfr(&["from-wds", "w", "-o", &out, "-j", jobs]).run().ok();
        outs.push(std::fs::read(dir.path(&out)).unwrap());
    }
    assert_eq!(outs[0], outs[1]);
    assert_eq!(printed(&dir, "back4.tfrecord"), printed(&dir, &src));
}

#[test]
fn a_context_feature_named_as_a_feature_list_stays_in_the_json() {
    // The .json keeps features by name: a context "label" with a feature
    // list "label" beside it stays there (else the list would be lost).
    let dir = Dir::new();
    let line = "{\"context\": {\"label\": [3], \"id\": [7]}, \"feature_lists\": {\"label\": [[1], [2]]}}\n";
    let src = from_lines(&dir, "s.tfrecord", line);
    dir.tfr(&["to-wds", &src, "-o", "w/s.tar", "--cls", "label"]).run().ok();
    let got = members(&std::fs::read(dir.path("w/s-000000.tar")).unwrap());
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["000000000.json"]);
    dir.tfr(&["from-wds", "w", "-o", "back.tfrecord", "--type", "sequence"])
        .run()
        .ok();
    assert_eq!(printed(&dir, "back.tfrecord"), printed(&dir, &src));
}

/// A PAX header giving `path` for the member that follows.
fn pax_path(path: &str) -> Vec<u8> {
    pax_record("path", path)
}

#[test]
fn member_names_count_toward_the_sample_limit() {
    // 20 empty members of key `a` with 100 KB PAX names: 2 MB of names
    // in one sample, over --max-record-size 1M although no member holds
    // a byte (before: exit 0 and a 2 MB record; a larger tar of such
    // names took gigabytes of memory).
    let dir = Dir::new();
    let mut tar = Vec::new();
    for i in 0..20 {
        tar.extend(pax_path(&format!("a.{i}{}", "x".repeat(100_000))));
        tar.extend(header(b"a.x", b"00000000000", b'0'));
    }
    tar.extend([0u8; 1024]);
    let t = dir.write("long.tar", &gzip(&tar));
    let e = dir
        .tfr(&["from-wds", &t, "-o", "x.tfrecord", "--max-record-size", "1M"])
        .run()
        .fails(2);
    assert!(
        e.contains("sample 'a' holds more than 1048576 bytes with its names"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(!dir.path("x.tfrecord").exists());
}

#[test]
fn a_sample_of_many_members_is_refused_quickly() {
    // 100,000 empty members `a.e0` ... of one sample: refused at the
    // cap, quickly (before: each member was compared with every earlier
    // one, about a minute, then exit 0).
    let dir = Dir::new();
    let mut tar = Vec::new();
    for i in 0..100_000 {
        tar.extend(header(format!("a.e{i}").as_bytes(), b"00000000000", b'0'));
    }
    tar.extend([0u8; 1024]);
    let t = dir.write("many.tar.gz", &gzip(&tar));
    drop(tar);
    let e = dir.tfr(&["from-wds", &t, "-o", "x.tfrecord"]).run_within(20).fails(2);
    assert!(e.contains("sample 'a' has more than 10000 members"), "{e}");
    assert!(!dir.path("x.tfrecord").exists());
}

#[test]
fn a_feature_name_given_twice_in_a_sample_is_refused() {
    // Before: the Example held the name twice and readers kept only the
    // last value (the other silently lost), exit 0.
    let dir = Dir::new();
    let cases: Vec<(Vec<u8>, Vec<&str>)> = vec![
        (tar_of(&[("a.json", br#"{"txt": ["j"]}"#), ("a.txt", b"t")]), vec![]),
        (
            tar_of(&[("a.json", br#"{"k": ["j"]}"#), ("a.txt", b"t")]),
            vec!["--key", "k"],
        ),
        (tar_of(&[("a.txt", b"t"), ("a.bin", b"b")]), vec!["--key", "bin"]),
    ];
    for (tar, extra) in &cases {
        let t = dir.write("d.tar", tar);
        let mut args = vec!["from-wds", t.as_str(), "-o", "d.tfrecord"];
        args.extend(extra);
        let e = dir.tfr(&args).run().fails(2);
        assert!(e.contains("sample 'a': two features named"), "{extra:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(!dir.path("d.tfrecord").exists());
    }
    // Distinct names still convert.
    let t = dir.write("d.tar", &tar_of(&[("a.json", br#"{"label": [1]}"#), ("a.txt", b"t")]));
    dir.tfr(&["from-wds", &t, "-o", "d.tfrecord", "--key", "k"]).run().ok();
}

#[test]
fn colliding_member_names_take_linear_time() {
    // 6,000 PNG features whose names all become `a_`: members `png`,
    // `a_.png`, `a_1.png`, ... (before: each number was checked against
    // every member from 1 up, cubic time, minutes for this record).
    let dir = Dir::new();
    let fields: Vec<String> = (0..6000)
        .map(|i| {
            format!(
                "\"a{}\": [{{\"base64\": \"iVBORw0KGgo=\"}}]",
                char::from_u32(0x100 + i).unwrap()
            )
        })
        .collect();
    let src = from_lines(&dir, "c.tfrecord", &format!("{{{}}}\n", fields.join(", ")));
    dir.tfr(&["to-wds", &src, "-o", "w/s.tar"]).run_within(10).ok();
    let got = members(&std::fs::read(dir.path("w/s-000000.tar")).unwrap());
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 6001);
    assert_eq!(&names[..3], ["000000000.png", "000000000.a_.png", "000000000.a_1.png"]);
    assert_eq!(names[5999], "000000000.a_5998.png");
    dir.tfr(&["from-wds", "w", "-o", "back.tfrecord"]).run().ok();
    assert_eq!(printed(&dir, "back.tfrecord"), printed(&dir, &src));
}

#[test]
fn size_errors_name_the_limit_that_applies() {
    // Before: every one blamed --max-record-size, which sets none of
    // these two.
    let dir = Dir::new();
    let mut long = header(b"././@LongLink", b"77777777777", b'L');
    long.extend([1u8; 10]);
    let mut d = header(b"d/", b"00000000010", b'5');
    d.extend([0u8; 512]);
    d.extend([0u8; 1024]);
    for (bytes, want) in [
        (long, "(the fixed limit of such headers)"),
        (d, "(a directory holds no data)"),
    ] {
        let t = dir.write("s.tar", &bytes);
        let e = dir.tfr(&["from-wds", &t, "-o", "s.tfrecord"]).run().fails(2);
        assert!(e.contains(want) && !e.contains("--max-record-size"), "{e}");
    }
}

#[test]
fn a_cls_feature_that_cannot_be_a_label_is_an_error() {
    let dir = Dir::new();
    let src = from_lines(
        &dir,
        "s.tfrecord",
        "{\"label\": [1], \"text\": [\"a\"], \"two\": [1, 2]}\n",
    );
    // A misspelt name: no record has it.
    let e = dir
        .tfr(&["to-wds", &src, "-o", "w/s.tar", "--cls", "lable"])
        .run()
        .fails(2);
    assert!(e.contains("--cls lable: no record has this feature"), "{e}");
    // A bytes feature, or more than one value.
    let e = dir
        .tfr(&["to-wds", &src, "-o", "w/s.tar", "--cls", "text"])
        .run()
        .fails(2);
    assert!(
        e.contains("record 0") && e.contains("--cls text: bytes with one value"),
        "{e}"
    );
    let e = dir
        .tfr(&["to-wds", &src, "-o", "w/s.tar", "--cls", "two"])
        .run()
        .fails(2);
    assert!(e.contains("--cls two: int64 with more than one value"), "{e}");
    assert!(!dir.path("w/s-000000.tar").exists(), "no shard after an error");
    dir.tfr(&["to-wds", &src, "-o", "w/s.tar", "--cls", "label"]).run().ok();
    let got = members(&std::fs::read(dir.path("w/s-000000.tar")).unwrap());
    assert!(got.iter().any(|(n, b)| n == "000000000.cls" && b == b"1"), "{got:?}");
}

#[test]
fn shards_left_by_an_earlier_larger_run_are_said() {
    let dir = Dir::new();
    let lines: String = (0..30).map(|i| format!("{{\"label\": [{i}]}}\n")).collect();
    let src = from_lines(&dir, "s.tfrecord", &lines);
    dir.tfr(&["to-wds", &src, "-o", "w/s.tar", "--shard-records", "10"])
        .run()
        .ok();
    assert!(dir.path("w/s-000002.tar").exists());
    let ran = dir
        .tfr(&["to-wds", &src, "-o", "w/s.tar", "--shard-records", "20"])
        .run();
    ran.warns();
    assert!(
        ran.stderr
            .contains("warning: 1 shard of an earlier run remains after these, from w/s-000002.tar"),
        "{}",
        ran.stderr
    );
    // A run as large as the last says nothing.
    let ran = dir
        .tfr(&["to-wds", &src, "-o", "w/s.tar", "--shard-records", "10"])
        .run();
    ran.ok();
    assert!(ran.stderr.is_empty(), "{}", ran.stderr);
}

#[test]
fn a_key_given_twice_within_a_shard_is_refused() {
    // `a.b.c` and `a_b_c` both become the key a_b_c; before, with a
    // sample between them, both were written (two samples of one
    // __key__).
    let dir = Dir::new();
    let lines = "{\"name\": [\"a.b.c\"]}\n{\"name\": [\"x\"]}\n{\"name\": [\"a_b_c\"]}\n";
    let input = from_lines(&dir, "k.tfrecord", lines);
    let e = dir
        .tfr(&["to-wds", &input, "-o", "k/s.tar", "--key", "name"])
        .run()
        .fails(2);
    assert!(
        e.contains("record 2") && e.contains("--key gives 'a_b_c' to two samples of one shard"),
        "{e}"
    );
    assert!(!dir.path("k").exists());
    // In shards of their own, the keys are the shards' own.
    dir.tfr(&[
        "to-wds",
        &input,
        "-o",
        "k/s.tar",
        "--key",
        "name",
        "--shard-records",
        "2",
    ])
    .run()
    .ok();
    let names: Vec<String> = ["k/s-000000.tar", "k/s-000001.tar"]
        .iter()
        .flat_map(|s| members(&std::fs::read(dir.path(s)).unwrap()))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(names, ["a_b_c.json", "x.json", "a_b_c.json"]);
}

#[test]
fn inputs_that_are_not_plain_tars_say_what_they_are() {
    // Before: "truncated tar: a header cut short at byte N" for all of
    // these (bzip2 and xz tars, a short text file).
    let dir = Dir::new();
    let mut xz = b"\xfd7zXZ\0".to_vec();
    xz.extend([0x55u8; 2000]);
    let cases: [(&str, Vec<u8>, &str); 5] = [
        (
            "b.tar.bz2",
            b"BZh91AY&SY\x12\x34 not really".to_vec(),
            "bzip2-compressed, which from-wds does not read",
        ),
        ("x.tar.xz", xz, "xz-compressed, which from-wds does not read"),
        ("z.tar.zst", b"\x28\xb5\x2f\xfd\x00\x58".to_vec(), "zstd-compressed"),
        ("t.txt", b"hello\n".to_vec(), "not a tar file: it ends after 6 bytes"),
        (
            "big.txt",
            b"hello, not a tar\n".repeat(64),
            "not a tar file: its first 512 bytes are not a tar header",
        ),
    ];
    for (name, bytes, want) in cases {
        dir.write(name, &bytes);
        let e = dir.tfr(&["from-wds", name, "-o", "o.tfrecord"]).run().fails(2);
        assert!(e.contains(name) && e.contains(want), "{name}: {e}");
        assert!(!e.contains("truncated"), "{name}: {e}");
    }
}

#[test]
fn names_with_a_dot_part_group_as_the_webdataset_library_groups_them() {
    // `a/.hidden` and `a/.x`: the library's regex gives key `a/` with
    // extensions hidden and x (before: both dropped silently).
    let dir = Dir::new();
    let t = dir.write(
        "d.tar",
        &tar_of(&[
            ("a/.hidden", b"h"),
            ("a/.x", b"xx"),
            ("b.c/.d", b"skipped"),
            ("k.txt", b"t"),
        ]),
    );
    dir.tfr(&["from-wds", &t, "--key", "key", "-o", "d.tfrecord"])
        .run()
        .ok();
    let lines = dir.tfr(&["to-jsonl", "d.tfrecord"]).run().ok();
    assert_eq!(
        lines,
        "{\"hidden\":[\"h\"],\"x\":[\"xx\"],\"key\":[\"a/\"]}\n{\"txt\":[\"t\"],\"key\":[\"k\"]}\n"
    );
}

/// A PAX header block holding one record `key=value`.
fn pax_record(key: &str, value: &str) -> Vec<u8> {
    let record = |len: usize| format!("{len} {key}={value}\n");
    let mut len = record(0).len();
    while record(len).len() != len {
        len = record(len).len();
    }
    let data = record(len).into_bytes();
    let mut out = header(b"pax", format!("{:011o}", data.len()).as_bytes(), b'x');
    out.extend_from_slice(&data);
    out.resize(out.len().div_ceil(512) * 512, 0);
    out
}

#[test]
fn a_pax_size_gives_the_member_its_size() {
    // The ustar field says 0, the PAX header 5: before, the 5 bytes were
    // read as the next header (a wrong checksum).
    let dir = Dir::new();
    let mut tar = pax_record("size", "5");
    tar.extend(header(b"a.txt", b"00000000000", b'0'));
    tar.extend(b"hello");
    tar.resize(tar.len().div_ceil(512) * 512, 0);
    tar.extend(tar_of(&[("b.txt", b"bye")]));
    let t = dir.write("p.tar", &tar);
    dir.tfr(&["from-wds", &t, "-o", "p.tfrecord"]).run().ok();
    let lines = dir.tfr(&["to-jsonl", "p.tfrecord"]).run().ok();
    assert_eq!(lines, "{\"txt\":[\"hello\"]}\n{\"txt\":[\"bye\"]}\n");
    // A size that is no number of bytes: one line naming it.
    for bad in ["12x", "-1", "", "99999999999999999999999"] {
        let mut tar = pax_record("size", bad);
        tar.extend(tar_of(&[("a.txt", b"x")]));
        let t = dir.write("bad.tar", &tar);
        let e = dir.tfr(&["from-wds", &t, "-o", "b.tfrecord"]).run().fails(2);
        assert!(
            e.contains(&format!("its size '{bad}' is not a number of bytes")),
            "{bad}: {e}"
        );
    }
    // A PAX size over the member's bytes: truncated, not a desync.
    let mut tar = pax_record("size", "100000");
    tar.extend(tar_of(&[("a.txt", b"x")]));
    let t = dir.write("big.tar", &tar);
    let e = dir.tfr(&["from-wds", &t, "-o", "b.tfrecord"]).run().fails(2);
    assert!(e.contains("truncated tar"), "{e}");
}

/// A gzip-compressed tar written by Python's tarfile: per member, its name
/// and its size in zero bytes (streamed, never held). `false` (skipped, or
/// a failure under CI) without python3.
pub fn python_tar_of_zeros(path: &std::path::Path, members: &[(&str, u64)]) -> bool {
    let Some(py) = python3() else {
        skip_or_fail("python3 is needed to write the tar");
        return false;
    };
    let script = r#"
import sys, tarfile
class Zeros:
    def __init__(self, n): self.left = n
    def read(self, n=-1):
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        return bytes(n)
with tarfile.open(sys.argv[1], "w:gz", format=tarfile.USTAR_FORMAT) as t:
    for name, size in zip(sys.argv[2::2], sys.argv[3::2]):
        info = tarfile.TarInfo(name)
        info.size = int(size)
        t.addfile(info, Zeros(int(size)))
"#;
    let mut cmd = std::process::Command::new(py);
    cmd.args(["-c", script]).arg(path);
    for (name, size) in members {
        cmd.arg(name).arg(size.to_string());
    }
    let out = cmd.output().expect("python3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    true
}

/// Issue 41: the limit holds at its edge, for a member and its sample
/// alike: a sample of exactly --max-record-size bytes with its names
/// (member `a.bin`: 5 + 2 × 3 bytes of names) is read, one byte more is
/// refused from the header; `>` on both sides.
#[test]
fn the_record_size_limit_holds_at_its_edge() {
    let dir = Dir::new();
    let limit: u64 = 1 << 20;
    let names = 5 + 2 * 3;
    let t = dir.path("edge.tar.gz");
    if !python_tar_of_zeros(&t, &[("a.bin", limit - names)]) {
        return;
    }
    let t = t.to_str().unwrap();
    dir.tfr(&["from-wds", t, "-o", "ok.tfrecord", "--max-record-size", "1M"])
        .run()
        .ok();
    let got = dir.tfr(&["count", "ok.tfrecord"]).run().ok();
    assert_eq!(got.trim(), "1");
    for size in [limit - names + 1, limit, limit + 1] {
        let t = dir.path("over.tar.gz");
        python_tar_of_zeros(&t, &[("a.bin", size)]);
        let e = dir
            .tfr(&[
                "from-wds",
                t.to_str().unwrap(),
                "-o",
                "x.tfrecord",
                "--max-record-size",
                "1M",
            ])
            .run()
            .fails(2);
        let want = if size > limit {
            "the member 'a.bin' at byte 512 is 1048577 bytes, over the limit of 1048576 (--max-record-size)"
        } else {
            "sample 'a' holds more than 1048576 bytes with its names (--max-record-size)"
        };
        assert!(e.contains(want), "{size}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(!dir.path("x.tfrecord").exists());
    }
}

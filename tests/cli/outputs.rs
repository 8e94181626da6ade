//! Output files (`-o`, `--salvage`): atomic for regular files, written in
//! place for devices, through symlinks, keeping an existing file's mode.

use crate::util::*;

/// Regression: `-o /dev/null` replaced the device with a regular file (as root).
#[test]
fn devices_are_written_in_place_not_replaced() {
    let dir = Dir::new();
    let path = dir.write("x.tfrecord", &records(&[b"", b""]));
    tfr(&["to-jsonl", &path, "-o", "/dev/null"]).run().ok();
    tfr(&["verify-crc", &path, "--salvage", "/dev/null"]).run().ok();
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(meta.file_type().is_char_device(), "/dev/null is no longer a device");
}

#[test]
fn symlinks_are_written_through_and_modes_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new();
    let input = dir.write("x.tfrecord", &records(&[b""]));
    let real = dir.write("real.jsonl", b"old\n");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&real, dir.path("link.jsonl")).unwrap();
    dir.tfr(&["to-jsonl", &input, "-o", "link.jsonl"]).run().ok();
    let link = std::fs::symlink_metadata(dir.path("link.jsonl")).unwrap();
    assert!(link.file_type().is_symlink(), "the symlink was replaced");
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "null\n");
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "mode of the replaced file");
}

/// Regression: a failed verify-crc run emptied an existing salvage file.
#[test]
fn salvage_is_untouched_when_nothing_could_be_read() {
    let dir = Dir::new();
    let out = dir.write("saved.tfrecord", b"keep");
    dir.tfr(&["verify-crc", "missing.tfrecord", "--salvage", "saved.tfrecord"])
        .run()
        .fails(2);
    let html = dir.write("page.html", b"<!DOCTYPE html><html></html>");
    dir.tfr(&["verify-crc", &html, "--salvage", "saved.tfrecord"])
        .run()
        .fails(2);
    assert_eq!(std::fs::read(&out).unwrap(), b"keep");
    assert_eq!(
        std::fs::read_dir(dir.path(".")).unwrap().count(),
        2,
        "no temporary files left"
    );
}

/// Regression: `eprintln!` panicked when stderr was closed or full.
#[test]
fn full_stderr_does_not_panic() {
    let dir = Dir::new();
    let mut bytes = records(&[b"a", b"b", b"c"]);
    bytes[18] ^= 1; // the length of record 1
    let path = dir.write("bad.tfrecord", &bytes);
    // The verdict survives an unwritable stderr: verify-crc found damage
    // (1, its summary still on stdout); count and cat met damaged input (2).
    for (args, want, stdout) in [
        (vec!["verify-crc", &path], 1, "2 records intact, 1 fault, 17 bytes lost"),
        (vec!["count", &path], 2, ""),
        (vec!["cat", "-t", "raw", &path], 2, "# record 0\n\"a\"\n"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tfr"))
            .args(&args)
            .stderr(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(want), "{args:?}");
        let printed = String::from_utf8_lossy(&out.stdout);
        let as_expected = match want {
            1 => printed.ends_with(&format!(": {stdout}\n")),
            _ => printed == stdout,
        };
        assert!(as_expected, "{args:?}: {printed:?}");
    }
}

/// Interrupted runs remove their temporary file.
#[test]
fn sigterm_leaves_no_temporary_file() {
    let dir = Dir::new();
    // An open stdin keeps from-jsonl busy until the signal arrives.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tfr"))
        .args(["from-jsonl", "-o", "out.tfrecord"])
        .current_dir(dir.path("."))
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"{\"a\": [1]}\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let temps = || std::fs::read_dir(dir.path(".")).unwrap().count();
    assert_eq!(temps(), 1, "the temporary file exists while running");
    let _ = std::process::Command::new("kill").arg(child.id().to_string()).status();
    let status = child.wait().unwrap();
    drop(stdin);
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(15), "killed by SIGTERM itself: {status:?}");
    }
    assert_eq!(temps(), 0, "temporary file left behind");
}

/// Regression (issue 27, item 8): `report data.tfrecord -o data.tfrecord`
/// replaced the dataset with the page, exit 0; to-jsonl, from-jsonl and
/// verify-crc --salvage onto their own input did the same. Refused, also
/// through a symlink, a hard link and `./`, and the input is untouched.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = Dir::new();
    let bytes = records(&[b"", b""]);
    let data = dir.write("data.tfrecord", &bytes);
    std::os::unix::fs::symlink(&data, dir.path("link.tfrecord")).unwrap();
    std::fs::hard_link(&data, dir.path("hard.tfrecord")).unwrap();
    let jsonl = dir.write("data.jsonl", b"{}\n");
    let schema_text = dir.tfr(&["schema", "data.tfrecord", "--format", "json"]).run().ok();
    let schema = dir.write("schema.json", schema_text.as_bytes());
    let cases: Vec<Vec<&str>> = vec![
        vec!["report", "data.tfrecord", "-o", "data.tfrecord"],
        vec!["report", "data.tfrecord", "-o", "./link.tfrecord"],
        vec!["to-jsonl", "data.tfrecord", "-o", "hard.tfrecord"],
        vec!["to-jsonl", "./data.tfrecord", "-o", "data.tfrecord"],
        vec!["verify-crc", "data.tfrecord", "--salvage", "link.tfrecord"],
        vec!["verify-crc", "*.tfrecord", "--salvage", "data.tfrecord"],
    ];
    for args in &cases {
        let line = dir.tfr(args).run().fails(2);
        assert!(line.contains("is also an input"), "{args:?}: {line}");
        assert_eq!(std::fs::read(&data).unwrap(), bytes, "{args:?} touched the input");
    }
    for args in [
        vec!["from-jsonl", "data.jsonl", "-o", "data.jsonl"],
        vec![
            "from-jsonl",
            "data.jsonl",
            "--schema",
            "schema.json",
            "-o",
            "schema.json",
        ],
    ] {
        let line = dir.tfr(&args).run().fails(2);
        assert!(line.contains("is also an input"), "{args:?}: {line}");
    }
    assert_eq!(std::fs::read(&jsonl).unwrap(), b"{}\n");
    assert_eq!(std::fs::read_to_string(&schema).unwrap(), schema_text);
    // stdin redirected from the output file.
    let mut cmd = dir.tfr(&["from-jsonl", "-o", "data.jsonl"]).cmd;
    cmd.stdin(std::fs::File::open(&jsonl).unwrap());
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&jsonl).unwrap(), b"{}\n");
    // Another file is still written.
    dir.tfr(&["to-jsonl", "data.tfrecord", "-o", "other.jsonl"]).run().ok();
}

/// Regression (issue 29): `from-jsonl -o x.tfrecord.gz` wrote plain records
/// under a gzip name. Every TFRecord writer takes its compression from the
/// output's name (`.gz`, `.zz`/`.zlib`, `.snappy`, else none) unless forced.
#[test]
fn output_compression_follows_the_name_unless_forced() {
    let dir = Dir::new();
    let jsonl = dir.write("in.jsonl", b"{\"a\": [1]}\n{\"a\": [2]}\n");
    let plain_records = dir.write("in.tfrecord", &records(&[b"x", b"y"]));
    let gz_input = dir.write("in2.tfrecord", &gzip(&records(&[b"x", b"y"])));
    let first = |name: &str| std::fs::read(dir.path(name)).unwrap()[..2].to_vec();
    for (name, magic) in [
        ("a.tfrecord.gz", Some(0x1f_u8)),
        ("a.tfrecord.zz", Some(0x78)),
        ("a.tfrecord.ZLIB", Some(0x78)),
        ("a.tfrecord", None),
    ] {
        dir.tfr(&["from-jsonl", &jsonl, "-o", name]).run().ok();
        let salvage = format!("s-{name}");
        dir.tfr(&["verify-crc", &gz_input, "--salvage", &salvage]).run().ok();
        for out in [name, salvage.as_str()] {
            match magic {
                Some(m) => assert_eq!(first(out)[0], m, "{out}"),
                None => assert_eq!(
                    dir.tfr(&["count", "--compression", "none", out]).run().ok(),
                    "2\n",
                    "{out}"
                ),
            }
            assert_eq!(dir.tfr(&["count", out]).run().ok(), "2\n", "{out}");
        }
    }
    dir.tfr(&["from-jsonl", &jsonl, "-o", "b.tfrecord.snappy"]).run().ok();
    let err = dir
        .tfr(&["count", "--compression", "none", "b.tfrecord.snappy"])
        .run()
        .fails(2);
    assert!(err.contains("b.tfrecord.snappy"), "{err}");
    assert_eq!(
        dir.tfr(&["count", "--compression", "snappy", "b.tfrecord.snappy"])
            .run()
            .ok(),
        "2\n"
    );
    // --compression (--salvage-compression) overrides the name.
    dir.tfr(&["from-jsonl", &jsonl, "-o", "c.tfrecord.gz", "--compression", "none"])
        .run()
        .ok();
    dir.tfr(&[
        "verify-crc",
        &plain_records,
        "--salvage",
        "d.gz",
        "--salvage-compression",
        "zlib",
    ])
    .run()
    .ok();
    assert_eq!(std::fs::read(dir.path("c.tfrecord.gz")).unwrap()[1..8], [0; 7], "plain");
    assert_eq!(first("d.gz")[0], 0x78);
}

/// Framed records `0`, `1`, ... (small), for runs with many outputs.
fn numbered(n: usize) -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = (0..n).map(|i| i.to_string().into_bytes()).collect();
    let refs: Vec<&[u8]> = payloads.iter().map(|p| p.as_slice()).collect();
    records(&refs)
}

/// Regression: an ended shard kept its file open until the commit, so
/// `--shards` above the descriptor limit (1024 by default) failed with
/// "Too many open files".
#[cfg(unix)]
#[test]
#[ignore = "slow: 600 shards written twice under a 128-descriptor limit: cargo test -- --include-ignored"]
fn outputs_many_shards_under_a_low_descriptor_limit() {
    let dir = Dir::new();
    dir.write("in.tfrecord", &numbered(1200));
    for (cmd, out) in [("reshard", "r/t.tfrecord"), ("shuffle", "s/t.tfrecord")] {
        std::fs::create_dir_all(dir.path(out).parent().unwrap()).unwrap();
        let script = format!("ulimit -n 128 && exec \"$0\" {cmd} in.tfrecord -o {out} --shards 600");
        let ran = std::process::Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_tfr")])
            .current_dir(dir.path("."))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&ran.stderr);
        assert!(ran.status.success(), "{cmd}: {stderr}");
        let n = std::fs::read_dir(dir.path(out).parent().unwrap()).unwrap().count();
        assert_eq!(n, 600, "{cmd}: every shard in place");
    }
}

/// Regression: each new output was compared with every earlier one (and
/// the clean-up list scanned), so 4000 shards took 18 s and 15000 three
/// minutes; now creating N outputs is linear.
#[test]
#[ignore = "slow: 15,000 shard files, a time limit: cargo test -- --include-ignored"]
fn outputs_thousands_of_shards_in_seconds() {
    let dir = Dir::new();
    dir.write("in.tfrecord", &numbered(15000));
    std::fs::create_dir(dir.path("out")).unwrap();
    // 1.5 to 13 s here (the kernel's time creating 15,000 files varies
    // with the load: a CI run beside a build took over 25 s); 3 minutes
    // before the fix.
    let started = std::time::Instant::now();
    dir.tfr(&["reshard", "in.tfrecord", "-o", "out/t.tfrecord", "--shards", "15000"])
        .run_within(60)
        .ok();
    let took = started.elapsed();
    assert_eq!(std::fs::read_dir(dir.path("out")).unwrap().count(), 15000);
    assert!(took.as_secs() < 60, "15000 shards took {took:?}");
}

/// Missing directories of the outputs are made (as `mkdir -p` would), and
/// removed again when the run fails; an error names the output, never the
/// temporary file (which had tempfile's `at path ".NAME.XXXXXX.tmp"`).
#[test]
fn outputs_missing_directories_are_made_and_removed_on_failure() {
    let dir = Dir::new();
    dir.write("in.tfrecord", &numbered(100));
    let split = "split in.tfrecord --ratio train=9,eval=1 -o out/{split}.tfrecord --shards 4";
    dir.tfr(&split.split(' ').collect::<Vec<_>>()).run().ok();
    assert_eq!(std::fs::read_dir(dir.path("out")).unwrap().count(), 8);
    dir.tfr(&["reshard", "in.tfrecord", "-o", "a/b/train.tfrecord.gz", "--shards", "2"])
        .run()
        .ok();
    assert_eq!(std::fs::read_dir(dir.path("a/b")).unwrap().count(), 2);
    dir.tfr(&["shuffle", "in.tfrecord", "-o", "c/d/s.tfrecord", "--seed", "1"])
        .run()
        .ok();
    assert!(dir.path("c/d/s.tfrecord").is_file());
    // A damaged input: no output, and no directory made for it.
    let mut damaged = numbered(100);
    let at = damaged.len() - 3;
    damaged[at] ^= 0xff;
    dir.write("bad.tfrecord", &damaged);
    for cmd in [
        vec!["reshard", "bad.tfrecord", "-o", "x/y/t.tfrecord", "--shards", "3"],
        vec![
            "split",
            "bad.tfrecord",
            "--ratio",
            "a=1,b=1",
            "-o",
            "x/y/{split}.tfrecord",
        ],
        vec!["shuffle", "bad.tfrecord", "-o", "x/y/t.tfrecord", "--shards", "2"],
    ] {
        dir.tfr(&cmd).run().fails(2);
        assert!(!dir.path("x").exists(), "{cmd:?}: directory left behind");
    }
    // A file in the way of a directory: one line naming the output.
    dir.write("file", b"");
    let err = dir
        .tfr(&["reshard", "in.tfrecord", "-o", "file/t.tfrecord", "--shards", "2"])
        .run()
        .fails(2);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("file/t-00000-of-00002.tfrecord"), "{err}");
    assert!(!err.contains(".tmp") && !err.contains("at path"), "{err}");
}

/// A signal removes the directories made for the outputs, with the outputs.
#[cfg(unix)]
#[test]
fn outputs_directories_made_are_removed_on_a_signal() {
    let dir = Dir::new();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tfr"))
        .args(["reshard", "-o", "new/sub/t.tfrecord", "--shard-size", "2K", "-"])
        .current_dir(dir.path("."))
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, &crate::reshard::framed(&crate::reshard::payloads(300))).unwrap();
    let entries = || std::fs::read_dir(dir.path("new/sub")).map_or(0, |d| d.count());
    let started = std::time::Instant::now();
    while entries() < 3 && started.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(entries() >= 3, "several shards are being written");
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait().unwrap();
    drop(stdin);
    assert!(!dir.path("new").exists(), "directories left behind");
}

/// Issue 41: an output whose name tfr makes (a shard's) holding a FIFO was
/// opened for writing: the run waited for a reader for ever (a device
/// would have been written into, outside the all-or-nothing commit). The
/// outputs of a set are regular files: refused in one line, the FIFO left
/// as it is, no temporary file. A FIFO the user names whole with `-o`
/// (to-jsonl's one output) is still written into, as `/dev/null` is.
#[cfg(unix)]
#[test]
fn a_fifo_at_a_shard_name_is_refused_one_named_whole_is_written() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Dir::new();
    dir.write("in.tfrecord", &numbered(10));
    std::fs::create_dir(dir.path("out")).unwrap();
    if !crate::extract::mkfifo(&dir.path("out/t-00000-of-00002.tfrecord")) {
        return;
    }
    for args in [
        &["reshard", "in.tfrecord", "-o", "out/t.tfrecord", "--shards", "2"][..],
        &["shuffle", "in.tfrecord", "-o", "out/t.tfrecord", "--shards", "2"],
    ] {
        let e = dir.tfr(args).run_within(20).fails(2);
        assert!(
            e.contains("t-00000-of-00002.tfrecord: is a FIFO, not a regular file"),
            "{args:?}: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        let names: Vec<String> = std::fs::read_dir(dir.path("out"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["t-00000-of-00002.tfrecord"], "{args:?}");
        let meta = std::fs::symlink_metadata(dir.path("out/t-00000-of-00002.tfrecord")).unwrap();
        assert!(meta.file_type().is_fifo(), "{args:?}: the FIFO was replaced");
    }
    // Named whole: written into, with a reader at the other end.
    let fifo = dir.path("out/t-00000-of-00002.tfrecord");
    let reader = std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap());
    dir.tfr(&[
        "to-jsonl",
        "in.tfrecord",
        "--type",
        "raw",
        "-o",
        "out/t-00000-of-00002.tfrecord",
    ])
    .run_within(20)
    .ok();
    assert_eq!(reader.join().unwrap().lines().count(), 10);
}

//! The process around an output file (issue 17): every catchable
//! terminating signal removes the temporary file and exits 128 + the
//! signal; `-o` through a dangling symlink creates its target; a read-only
//! target is refused; help into a full disk is an error.

use crate::util::*;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The temporary files next to `out.tfrecord` in `dir`.
fn temp_files(dir: &Dir) -> Vec<String> {
    std::fs::read_dir(dir.path("."))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".out.tfrecord.") && n.ends_with(".tmp"))
        .collect()
}

#[cfg(unix)]
#[test]
fn every_terminating_signal_removes_the_temporary_file() {
    for (name, number) in [
        ("HUP", 1),
        ("INT", 2),
        ("QUIT", 3),
        ("USR1", 10),
        ("USR2", 12),
        ("ALRM", 14),
        ("TERM", 15),
    ] {
        let dir = Dir::new();
        dir.write("out.tfrecord", b"old");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tfr"))
            .args(["from-jsonl", "-o", "out.tfrecord"])
            .current_dir(dir.path("."))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Mid-write: lines sent, the input still open.
        let mut stdin = child.stdin.take().unwrap();
        for i in 0..2000 {
            writeln!(stdin, "{{\"a\": [{i}]}}").unwrap();
        }
        stdin.flush().unwrap();
        let start = Instant::now();
        while temp_files(&dir).is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{name}: no temporary file appeared"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(50));
        let killed = Command::new("kill")
            .args(["-s", name, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.code(), Some(128 + number), "SIG{name}: {status:?}");
        assert!(temp_files(&dir).is_empty(), "SIG{name}: temporary file left");
        assert_eq!(std::fs::read(dir.path("out.tfrecord")).unwrap(), b"old", "SIG{name}");
    }
}

#[cfg(unix)]
#[test]
fn output_through_a_dangling_symlink_creates_its_target() {
    let dir = Dir::new();
    dir.write("in.jsonl", b"{\"a\": [1]}\n");
    std::os::unix::fs::symlink("target.tfrecord", dir.path("link.tfrecord")).unwrap();
    dir.tfr(&["from-jsonl", "in.jsonl", "-o", "link.tfrecord"]).run().ok();
    let link = std::fs::symlink_metadata(dir.path("link.tfrecord")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let out = dir.tfr(&["to-jsonl", "target.tfrecord"]).run().ok();
    assert_eq!(out, "{\"a\":[1]}\n");
}

#[cfg(unix)]
#[test]
fn a_read_only_target_is_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new();
    dir.write("in.jsonl", b"{\"a\": [1]}\n");
    let out = dir.write("ro.tfrecord", b"keep me");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
    let line = dir.tfr(&["from-jsonl", "in.jsonl", "-o", "ro.tfrecord"]).run().fails(2);
    assert!(line.contains("ro.tfrecord: is read-only"), "{line}");
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    let line = dir.tfr(&["verify-crc", "--salvage", "ro.tfrecord", "in.jsonl"]).run();
    assert_eq!(line.code, 2, "{}", line.stderr);
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
}

#[test]
fn output_names_are_escaped_in_messages() {
    let dir = Dir::new();
    dir.write("in.jsonl", b"{\"a\": [1]}\n");
    let line = dir
        .tfr(&["from-jsonl", "in.jsonl", "-o", "no\x1bdir/out\n.tfrecord"])
        .run()
        .fails(2);
    assert!(
        line.starts_with("tfr: no\\x1bdir/out\\n.tfrecord: cannot create"),
        "{line}"
    );
    assert!(!line.contains('\n') && !line.contains('\x1b'), "{line:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn help_into_a_full_disk_is_an_error() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_tfr"))
        .arg("--help")
        .stdout(full)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_tfr"))
        .args(["count", &data("base20.tfrecord")])
        .stdout(full)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

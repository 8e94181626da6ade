//! The process around an output file (issue 17): every catchable
//! terminating signal removes the temporary file, then tfr dies by that
//! signal (issue 26: so a shell loop around it stops on Ctrl-C); `-o` through a dangling symlink creates its target; a read-only
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

/// `tfr from-jsonl -o out.tfrecord` reading a stdin that stays open, run
/// without core dumps (SIGQUIT's default action dumps one), once its
/// temporary file exists.
#[cfg(unix)]
fn busy_writer(dir: &Dir) -> (std::process::Child, std::process::ChildStdin) {
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -c 0; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_tfr"))
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
    while temp_files(dir).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(5), "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(50));
    (child, stdin)
}

#[cfg(unix)]
fn kill(signal: &str, pid: &str) {
    let killed = Command::new("kill").args(["-s", signal, "--", pid]).status().unwrap();
    assert!(killed.success(), "kill -s {signal} {pid}");
}

#[cfg(unix)]
#[test]
fn every_terminating_signal_removes_the_temporary_file() {
    if skipped_for_ignored_signals() {
        return;
    }
    use std::os::unix::process::ExitStatusExt;
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
        let (mut child, stdin) = busy_writer(&dir);
        kill(name, &child.id().to_string());
        let status = child.wait().unwrap();
        drop(stdin);
        // Issue 26: killed by the signal itself (it was exit 128 + signal).
        assert_eq!(status.signal(), Some(number), "SIG{name}: {status:?}");
        assert!(temp_files(&dir).is_empty(), "SIG{name}: temporary file left");
        assert_eq!(std::fs::read(dir.path("out.tfrecord")).unwrap(), b"old", "SIG{name}");
    }
}

/// A second signal while the first one's clean-up runs also kills tfr by
/// a signal (never an exit code a shell would take for a handled one).
#[cfg(unix)]
#[test]
fn a_second_signal_also_kills_by_the_signal() {
    if skipped_for_ignored_signals() {
        return;
    }
    use std::os::unix::process::ExitStatusExt;
    let dir = Dir::new();
    let (mut child, stdin) = busy_writer(&dir);
    let pid = child.id().to_string();
    kill("INT", &pid);
    // May arrive during the clean-up, or find the process gone.
    let _ = Command::new("kill")
        .args(["-s", "TERM", "--", &pid])
        .stderr(Stdio::null())
        .status();
    let status = child.wait().unwrap();
    drop(stdin);
    assert!(matches!(status.signal(), Some(2 | 15)), "{status:?}");
}

/// Issue 26: Ctrl-C (SIGINT to the foreground process group: bash and
/// tfr) during `for i in 1 2 3; do tfr ... -o out$i; done` stops the loop,
/// as bash does when its child dies of SIGINT; when tfr exited 130 bash
/// took the signal as handled and ran the next iteration.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_shell_loop() {
    if skipped_for_ignored_signals() {
        return;
    }
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    if Command::new("bash").arg("--version").output().is_err() {
        return skip_or_fail("bash missing");
    }
    let dir = Dir::new();
    let mut bash = Command::new("bash")
        .args([
            "-c",
            "for i in 1 2 3; do \"$0\" from-jsonl -o out$i.tfrecord; echo \"$i $?\" >> log; done",
        ])
        .arg(env!("CARGO_BIN_EXE_tfr"))
        .current_dir(dir.path("."))
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = bash.stdin.take().unwrap();
    writeln!(stdin, "{{\"a\": [1]}}").unwrap();
    stdin.flush().unwrap();
    let is_temp = |n: &str| n.starts_with(".out1.tfrecord.") && n.ends_with(".tmp");
    let names = || -> Vec<String> {
        std::fs::read_dir(dir.path("."))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let start = Instant::now();
    while !names().iter().any(|n| is_temp(n)) {
        assert!(start.elapsed() < Duration::from_secs(5), "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(50));
    kill("INT", &format!("-{}", bash.id()));
    // Once tfr has cleaned up, the input ends: a next iteration, if any,
    // reads an ended input and finishes. (Ending it at once could let tfr
    // finish its output before it sees the signal.)
    let start = Instant::now();
    while names().iter().any(|n| is_temp(n)) {
        assert!(start.elapsed() < Duration::from_secs(10), "the temporary file stays");
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(stdin);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = bash.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = bash.kill();
            panic!("the loop did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.signal(), Some(2), "bash: {status:?}; files: {:?}", names());
    // Nothing after the interrupted tfr ran; its temporary file is gone.
    assert_eq!(names(), Vec::<String>::new());
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
    // A directory cannot be made under a file: the error names both.
    let line = dir
        .tfr(&["from-jsonl", "in.jsonl", "-o", "in.jsonl/no\x1bdir/out\n.tfrecord"])
        .run()
        .fails(2);
    assert!(
        line.starts_with("tfr: in.jsonl/no\\x1bdir/out\\n.tfrecord: cannot create the directory in.jsonl/no\\x1bdir"),
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

/// A signal tfr was started with ignored stays ignored: a background job
/// of a shell without job control (`cmd &` in a script: SIGINT and SIGQUIT
/// ignored), like `nohup` (SIGHUP), is not ended by them.
#[cfg(unix)]
#[test]
fn a_signal_ignored_on_entry_stays_ignored() {
    if Command::new("bash").arg("--version").output().is_err() {
        return skip_or_fail("bash missing");
    }
    let dir = Dir::new();
    assert!(Command::new("mkfifo").arg(dir.path("fifo")).status().unwrap().success());
    // bash starts tfr in the background (SIGINT ignored there), says its
    // pid, then waits for it.
    let mut bash = Command::new("bash")
        .args([
            "-c",
            "\"$0\" from-jsonl -o out.tfrecord < fifo & echo $! > pid; wait $!; echo $? > status",
        ])
        .arg(env!("CARGO_BIN_EXE_tfr"))
        .current_dir(dir.path("."))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut fifo = std::fs::OpenOptions::new().write(true).open(dir.path("fifo")).unwrap();
    writeln!(fifo, "{{\"a\": [1]}}").unwrap();
    fifo.flush().unwrap();
    // The temporary file, and bash's line naming tfr's pid (bash may
    // write it after tfr has started: under load the file was still empty).
    let pid = || {
        let text = std::fs::read_to_string(dir.path("pid")).unwrap_or_default();
        text.ends_with('\n').then(|| text.trim().to_string())
    };
    let start = Instant::now();
    while !temp_files(&dir).iter().any(|n| n.starts_with(".out.tfrecord.")) || pid().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no temporary file or pid appeared"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    kill("INT", &pid().unwrap());
    std::thread::sleep(Duration::from_millis(300));
    // Still running: its temporary file is there; the input ends, it finishes.
    assert!(
        !temp_files(&dir).is_empty(),
        "SIGINT ended a tfr that was started with it ignored"
    );
    drop(fifo);
    let status = bash.wait().unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(dir.path("status")).unwrap().trim(), "0");
    assert!(dir.path("out.tfrecord").exists());
}

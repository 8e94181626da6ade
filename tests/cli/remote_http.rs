//! HTTP(S) inputs against tests/oracle/objstore.py's Range-honouring
//! server (remote.rs starts it), which counts the bytes it sends: it needs
//! only Python's standard library.

use crate::remote::*;
use crate::util::*;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
#[ignore = "slow: a 200 MB file written, then served over HTTP: cargo test -- --include-ignored"]
fn http_reads_a_prefix_for_head() {
    let Some(python) = http_python() else {
        return skip_or_fail("python3 missing (the HTTP server runs on it)");
    };
    let dir = Dir::new();
    // 200 MB: 2,000 records of 100 KB.
    {
        let file = std::fs::File::create(dir.path("big.tfrecord")).unwrap();
        let mut out = std::io::BufWriter::new(file);
        let mut payload = vec![0u8; 100_000];
        for i in 0..2000u32 {
            payload[..4].copy_from_slice(&i.to_le_bytes());
            out.write_all(&records(&[&payload])).unwrap();
        }
        out.flush().unwrap();
    }
    let counter = dir.path("sent");
    let mut cmd = Command::new(python);
    cmd.arg(helper()).arg("http").arg(dir.path("")).arg(&counter);
    let server = start(cmd, |l| l.trim().parse().ok());
    let base = format!("http://127.0.0.1:{}", server.port);
    let sent = || -> u64 {
        std::fs::read_to_string(&counter)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    };

    let started = Instant::now();
    let head = tfr(&["head", "-n", "2", "--type", "raw", &format!("{base}/big.tfrecord")]).run_within(60);
    assert_eq!(head.code, 0, "{}", head.stderr);
    std::thread::sleep(Duration::from_millis(200));
    let bytes = sent();
    assert!(bytes < 1_000_000, "head -n 2 fetched {bytes} bytes of a 200 MB object");
    eprintln!("head -n 2: {bytes} bytes in {:?}", started.elapsed());

    let count = tfr(&["count", &format!("{base}/big.tfrecord")]).run_within(120).ok();
    assert_eq!(count, "2000\n");
    // Payloads longer than the read-ahead are hopped over, not fetched:
    // count reads the headers of 12 records of 12 MiB (151 MB).
    {
        let file = std::fs::File::create(dir.path("huge.tfrecord")).unwrap();
        let mut out = std::io::BufWriter::new(file);
        let payload = vec![7u8; 12 << 20];
        for _ in 0..12 {
            out.write_all(&records(&[&payload])).unwrap();
        }
        out.flush().unwrap();
    }
    let before = sent();
    for jobs in ["1", "16"] {
        let count = tfr(&["count", "-j", jobs, &format!("{base}/huge.tfrecord")])
            .run_within(60)
            .ok();
        assert_eq!(count, "12\n");
    }
    std::thread::sleep(Duration::from_millis(200));
    let bytes = sent() - before;
    assert!(
        bytes < 12_000_000,
        "count fetched {bytes} bytes of a 151 MB object twice"
    );
    let skipped = tfr(&["cat", "--skip", "11", "--type", "raw", &format!("{base}/huge.tfrecord")])
        .run_within(60)
        .ok();
    assert!(
        skipped.starts_with("# record 11"),
        "{}",
        &skipped[..80.min(skipped.len())]
    );
    let line = tfr(&["count", &format!("{base}/*.tfrecord")]).run().fails(2);
    assert!(line.contains("globs cannot be expanded over HTTP"), "{line}");
    let line = tfr(&["count", &format!("{base}/missing.tfrecord")]).run().fails(2);
    assert!(line.contains("no such object"), "{line}");

    // A presigned URL: its query string is sent as given, and its size
    // comes from a ranged GET (it is signed for GET only: HEAD is refused).
    std::fs::create_dir(dir.path("signed")).unwrap();
    std::fs::copy(data("base20.tfrecord"), dir.path("signed/x.tfrecord")).unwrap();
    let signed = format!("{base}/signed/x.tfrecord?X-Amz-Expires=60&sig=ok");
    let want = tfr(&["to-jsonl", &data("base20.tfrecord")]).run().ok();
    assert_eq!(tfr(&["to-jsonl", &signed]).run().ok(), want);
    assert_eq!(tfr(&["count", &signed]).run().ok(), "20\n");
    let line = tfr(&["count", &format!("{base}/signed/x.tfrecord?sig=no")])
        .run()
        .fails(2);
    // The query (a signature) is not printed.
    assert!(
        line.contains("signed/x.tfrecord?...:") && !line.contains("sig=no"),
        "{line}"
    );
}

/// Python for objstore.py's HTTP server, which needs only the standard
/// library: the remote venv's, else `python3` on PATH.
fn http_python() -> Option<PathBuf> {
    if let Some(venv) = venv() {
        return Some(venv.join("bin/python"));
    }
    python3()
}

/// Issue 26: a gzip object whose connection is cut midway (on every try,
/// so the retries fail too) is a read failure, exit 2, naming the cause;
/// it was reported as damage ("corrupt compressed stream", and 1 fault
/// with exit 1 from verify-crc) because any error without an OS code out
/// of the decoder counted as the decoder's.
#[test]
#[ignore = "slow: a Python server cutting an 800 KB gzip object on every retry: cargo test -- --include-ignored"]
fn http_connection_cut_midway_is_a_read_failure() {
    let Some(python) = http_python() else {
        return skip_or_fail("python3 missing (the HTTP server runs on it)");
    };
    let dir = Dir::new();
    std::fs::create_dir(dir.path("cut")).unwrap();
    // 800 KB of gzip: incompressible payloads, so the cut at 300,000 bytes
    // falls inside the deflate data.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let payloads: Vec<Vec<u8>> = (0..40)
        .map(|_| {
            (0..20_000)
                .map(|_| {
                    state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (state >> 56) as u8
                })
                .collect()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let gz = gzip(&records(&refs));
    assert!(gz.len() > 600_000, "{}", gz.len());
    std::fs::write(dir.path("cut/x.tfrecord.gz"), &gz).unwrap();
    let mut cmd = Command::new(python);
    cmd.arg(helper()).args([
        "http",
        &dir.path("").to_string_lossy(),
        &dir.path("sent").to_string_lossy(),
        "300000",
    ]);
    let server = start(cmd, |l| l.trim().parse().ok());
    let url = format!("http://127.0.0.1:{}/cut/x.tfrecord.gz", server.port);
    for args in [
        vec!["verify-crc", url.as_str()],
        vec!["verify-crc", "--json", url.as_str()],
        vec!["cat", "--type", "raw", url.as_str()],
        vec!["to-jsonl", "--type", "raw", url.as_str()],
    ] {
        let line = tfr(&args).run_within(120).fails(2);
        assert!(
            line.contains("read failed") && line.contains("end of file before message length reached"),
            "{args:?}: {line}"
        );
        assert!(!line.contains("corrupt"), "{args:?}: {line}");
    }
    // The same bytes cut short in a file are damage, as before.
    let local = dir.write("short.tfrecord.gz", &gz[..300_000]);
    let ran = tfr(&["verify-crc", &local]).run();
    let all = format!("{}{}", ran.stdout_str(), ran.stderr);
    assert_eq!(ran.code, 1, "{all}");
    assert!(
        all.contains("1 fault") && all.contains("corrupt compressed stream"),
        "{all}"
    );
}

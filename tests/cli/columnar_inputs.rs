//! `tfr to-parquet`, `to-arrow`, `from-parquet`, `from-arrow` on damaged
//! or hostile input (one line, exit 2, no output), outputs they cannot
//! write, and stdin (columnar.rs has the round trips).

use crate::columnar::{example, example_float, example_int, printed};
use crate::util::*;

#[test]
fn damaged_and_foreign_inputs_are_one_line_and_leave_no_output() {
    let dir = Dir::new();
    let src = data("notebook.tfrecord");
    dir.tfr(&["to-parquet", &src, "-o", "good.parquet", "--output-compression", "none"])
        .run()
        .ok();
    dir.tfr(&["to-arrow", &src, "-o", "good.arrow"]).run().ok();
    let good = std::fs::read(dir.path("good.parquet")).unwrap();
    let arrow = std::fs::read(dir.path("good.arrow")).unwrap();
    let mut flipped = good.clone();
    // Damage the column data (after the magic, before the footer).
    for b in &mut flipped[8..good.len() / 2] {
        *b ^= 0x5a;
    }
    let mut footer = good.clone();
    let n = footer.len();
    for b in &mut footer[n - 200..n - 8] {
        *b = 0xff;
    }
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("text.parquet", b"a,b,c\n1,2,3\n".to_vec(), "not a Parquet file"),
        ("empty.parquet", Vec::new(), "not a Parquet file"),
        ("cut.parquet", good[..good.len() / 2].to_vec(), "damaged Parquet file"),
        ("flipped.parquet", flipped, "a damaged Parquet file: "),
        ("footer.parquet", footer, "a damaged Parquet file: "),
        (
            "magic.parquet",
            b"PAR1\x10\x00\x00\x00PAR1".to_vec(),
            "a damaged Parquet file: ",
        ),
        (
            "huge.parquet",
            [&b"PAR1"[..], &[0xff; 8], &0x7fff_fff0u32.to_le_bytes(), b"PAR1"].concat(),
            "a damaged Parquet file: ",
        ),
        ("arrow.parquet", arrow.clone(), "it is Arrow IPC (use from-arrow)"),
    ];
    for (name, bytes, says) in cases {
        dir.write(name, &bytes);
        let e = dir.tfr(&["from-parquet", name, "-o", "out.tfrecord"]).run().fails(2);
        assert!(
            e.contains(name) && e.contains(says) && !e.contains("internal error"),
            "{name}: {e}"
        );
        // The library's reason, not its error kinds or a Debug dump.
        assert!(
            !e.contains("Parquet error") && !e.contains("argument error") && !e.contains(" { "),
            "{name}: {e}"
        );
        assert!(!dir.path("out.tfrecord").exists(), "{name}");
    }
    let arrow_cases: Vec<(&str, Vec<u8>)> = vec![
        ("cut.arrow", arrow[..arrow.len() / 2].to_vec()),
        ("head.arrow", arrow[..12].to_vec()),
        (
            "stream.arrows",
            [&[0xff, 0xff, 0xff, 0xff][..], &[0x7f; 4], &[0; 16]].concat(),
        ),
        ("good.parquet.arrow", good.clone()),
    ];
    for (name, bytes) in arrow_cases {
        dir.write(name, &bytes);
        let e = dir.tfr(&["from-arrow", name, "-o", "out.tfrecord"]).run().fails(2);
        assert!(e.contains(name) && !e.contains("internal error"), "{name}: {e}");
        assert!(
            e.contains(": a damaged Arrow IPC ") || e.contains("not an Arrow IPC file"),
            "{name}: {e}"
        );
        assert!(!e.contains("argument error") && !e.contains(" { "), "{name}: {e}");
        assert!(!dir.path("out.tfrecord").exists(), "{name}");
    }
    // A damaged TFRecord input: nothing is written.
    let e = dir
        .tfr(&["to-parquet", &data("truncated_payload.tfrecord"), "-o", "t.parquet"])
        .run()
        .fails(2);
    assert!(e.contains("truncated"), "{e}");
    assert!(!dir.path("t.parquet").exists());
}

#[test]
fn outputs_are_refused_where_they_cannot_go() {
    let dir = Dir::new();
    let src = data("notebook.tfrecord");
    let copy = dir.write("n.tfrecord", &std::fs::read(&src).unwrap());
    let e = dir.tfr(&["to-parquet", &copy, "-o", &copy]).run().fails(2);
    assert!(e.contains("-o"), "{e}");
    let e = dir.tfr(&["to-parquet", &src, "-o", "-"]).run().fails(2);
    assert!(e.contains("to-arrow -o -"), "{e}");
    let e = dir
        .tfr(&[
            "to-parquet",
            &data("raw_text.tfrecord"),
            "--type",
            "raw",
            "-o",
            "x.parquet",
        ])
        .run()
        .fails(2);
    assert!(e.contains("column mapping"), "{e}");
}

#[test]
fn an_arrow_stream_into_a_closed_pipe_is_quiet_success() {
    // Regression: the stream writer's broken pipe came back as an
    // "Io error" line with exit 2.
    let dir = Dir::new();
    let payload = example_int("x", 7);
    let many: Vec<&[u8]> = (0..50_000).map(|_| &payload[..]).collect();
    let path = dir.write("big.tfrecord", &records(&many));
    let schema = dir.tfr(&["schema", "-f", "json", &path]).run().ok();
    dir.write("schema.json", schema.as_bytes());
    dir.tfr(&["to-arrow", "--schema", "schema.json", &path, "-o", "-", "-j", "2"])
        .quiet_when_stdout_closes();
}

#[test]
#[ignore = "slow: about 1,350 tfr runs, one per changed byte: cargo test -- --include-ignored"]
fn damaged_arrow_files_and_streams_are_one_line_never_a_panic() {
    // arrow-ipc panics on a buffer offset or length past its message body;
    // a single-byte change of a small file (and stream) written by tfr must
    // be an error line naming the input, or a clean conversion: every byte
    // of the first and last 160 (magic, schema message, footer), one in
    // four between (a process per change: every byte took 20 s).
    let dir = Dir::new();
    let src = records(&[
        &example_int("a", 7),
        &example_float("b", 1.5),
        &example("s", crate::proto::Feature::bytes(vec![b"xyz".to_vec(), Vec::new()])),
    ]);
    dir.write("small.tfrecord", &src);
    dir.tfr(&["to-arrow", "small.tfrecord", "-o", "small.arrow"]).run().ok();
    let file = std::fs::read(dir.path("small.arrow")).unwrap();
    let stream = dir.tfr(&["to-arrow", "small.tfrecord", "-o", "-"]).run();
    assert_eq!(stream.code, 0, "{}", stream.stderr);
    let mut changes = Vec::new();
    for (kind, good) in [("file", &file), ("stream", &stream.stdout)] {
        let ends = |at: usize| at < 160 || at + 160 >= good.len();
        for at in (0..good.len()).filter(|&at| ends(at) || at % 4 == 0) {
            let value = if at % 2 == 0 { 0x80 } else { 0xff };
            if good[at] != value {
                changes.push((kind, good, at, value));
            }
        }
    }
    // Four threads, each its own files: one after the other, the processes
    // made this test last as long as the rest of the suite together.
    let threads = 4;
    let damaged: usize = std::thread::scope(|scope| {
        let runs: Vec<_> = (0..threads)
            .map(|t| {
                let (dir, changes) = (&dir, &changes);
                scope.spawn(move || {
                    let (input, output) = (format!("m{t}.arrow"), format!("m{t}.tfrecord"));
                    let mut damaged = 0;
                    for &(kind, good, at, value) in changes.iter().skip(t).step_by(threads) {
                        let mut bytes = good.clone();
                        bytes[at] = value;
                        dir.write(&input, &bytes);
                        let r = dir.tfr(&["from-arrow", &input, "-o", &output]).run();
                        let what = format!("{kind}: byte {at} set to {value:#x}: exit {}: {}", r.code, r.stderr);
                        assert!(!r.stderr.contains("internal error"), "{what}");
                        if r.code != 0 {
                            damaged += 1;
                            let line = r.fails(2);
                            assert!(line.contains(&input) && !line.contains('\n'), "{what}");
                            assert!(!dir.path(&output).exists(), "{what}");
                        }
                        let _ = std::fs::remove_file(dir.path(&output));
                    }
                    damaged
                })
            })
            .collect();
        runs.into_iter()
            .map(|run| run.join().expect("a thread of changes"))
            .sum()
    });
    assert!(damaged > 0);
}

#[test]
fn stdin_is_checked_for_a_magic_and_an_arrow_stream_read_as_it_comes() {
    // Neither Arrow nor Parquet: refused at once, not copied to the end
    // (an endless stdin would fill the disk).
    let dir = Dir::new();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tfr"))
        .current_dir(dir.path(""))
        .args(["from-arrow", "-", "-o", "x.tfrecord"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The pipe is never closed: tfr must answer from the first bytes.
    let writer = std::thread::spawn(move || {
        let zeros = vec![0u8; 64 * 1024];
        for _ in 0..4096 {
            if std::io::Write::write_all(&mut stdin, &zeros).is_err() {
                return true;
            }
        }
        false
    });
    let out = child.wait_with_output().unwrap();
    assert!(writer.join().unwrap(), "tfr read 256 MiB of zeros");
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{e}");
    assert!(e.contains("not an Arrow IPC file or stream"), "{e}");
    // An Arrow IPC stream on stdin (read as it comes, not copied) converts.
    let src = data("notebook.tfrecord");
    let stream = dir.tfr(&["to-arrow", &src, "-o", "-"]).run();
    assert_eq!(stream.code, 0, "{}", stream.stderr);
    dir.tfr(&["from-arrow", "-o", "s.tfrecord"])
        .stdin(&stream.stdout)
        .run()
        .ok();
    assert_eq!(printed(&dir, "s.tfrecord"), printed(&dir, &src));
}

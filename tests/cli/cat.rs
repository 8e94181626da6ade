//! `tfr cat` and `tfr head`: text output, limits, payload types.

use crate::util::*;

#[test]
fn head_stops_before_later_damage() {
    let dir = Dir::new();
    let mut bytes = records(&[b"", b"", b""]);
    let n = bytes.len();
    bytes[n - 1] ^= 1; // the last record's data CRC
    let path = dir.write("x.tfrecord", &bytes);
    assert_eq!(tfr(&["head", "-n", "2", &path]).run().ok(), "# record 0\n# record 1\n");
    let ran = tfr(&["cat", &path]).run();
    assert_eq!(
        ran.stdout_str(),
        "# record 0\n# record 1\n",
        "records before the damage are printed"
    );
    let line = ran.fails(2);
    assert!(
        line.contains("record 2") && line.contains("data checksum mismatch"),
        "{line}"
    );
}

#[test]
fn head_counts_across_inputs() {
    let dir = Dir::new();
    dir.write("a.tfrecord", &records(&[b"", b""]));
    dir.write("b.tfrecord", &records(&[b"", b""]));
    let out = dir.tfr(&["head", "-n", "3", "a.tfrecord", "b.tfrecord"]).run().ok();
    assert_eq!(
        out,
        "# a.tfrecord record 0\n# a.tfrecord record 1\n# b.tfrecord record 0\n"
    );
}

#[test]
fn raw_payloads_print_escaped() {
    let dir = Dir::new();
    let path = dir.write("raw.tfrecord", &records(&[b"hello \"world\"\n", b"\xff\x00"]));
    let out = tfr(&["cat", "--type", "raw", &path]).run().ok();
    assert_eq!(
        out,
        "# record 0\n\"hello \\\"world\\\"\\n\"\n# record 1\n\"\\377\\000\"\n"
    );
}

#[test]
fn non_example_payload_suggests_raw() {
    let dir = Dir::new();
    let path = dir.write("text.tfrecord", &records(&[b"just some text, not a protobuf"]));
    let line = tfr(&["cat", &path]).run().fails(2);
    assert!(line.contains("record 0") && line.contains("--type raw"), "{line}");
}

/// Records from a slow stream are printed as they arrive, not held back
/// until a batch or an output buffer fills (cat and to-jsonl).
#[test]
fn slow_streams_are_printed_as_they_come() {
    use std::io::{BufRead, BufReader, Write};
    for (cmd, first) in [("cat", "# record 0"), ("to-jsonl", "null")] {
        let (mut child, mut stdin) = tfr(&[cmd]).spawn_piped();
        let (tx, rx) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let _ = tx.send(line.unwrap());
            }
        });
        stdin.write_all(&records(&[b""])).unwrap();
        stdin.flush().unwrap();
        // The first record shows while the input is still open.
        let got = rx.recv_timeout(std::time::Duration::from_secs(20));
        assert_eq!(got.as_deref(), Ok(first), "{cmd}: the first record was held back");
        stdin.write_all(&records(&[b"", b""])).unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
        let rest: Vec<String> = rx.iter().collect();
        assert_eq!(rest.len(), 2, "{cmd}: {rest:?}");
    }
}

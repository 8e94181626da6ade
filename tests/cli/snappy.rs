//! TensorFlow's SNAPPY files: read without a flag (files and pipes), written
//! by from-jsonl and salvage in blocks TensorFlow's reader takes, damage
//! located in the decompressed stream, hostile block lengths refused.
//! (tests/oracle.rs checks the TF-written fixtures against TensorFlow's
//! answers; tests/oracle/check_from_jsonl.py has TensorFlow read tfr's
//! SNAPPY output.)

use crate::util::*;

/// TensorFlow's framing of one block: 4-byte big-endian length, raw snappy.
fn block(data: &[u8]) -> Vec<u8> {
    let packed = snap::raw::Encoder::new().compress_vec(data).unwrap();
    [(packed.len() as u32).to_be_bytes().to_vec(), packed].concat()
}

/// The lengths of a SNAPPY stream's blocks, compressed and decompressed.
fn blocks(stream: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < stream.len() {
        let n = u32::from_be_bytes(stream[at..at + 4].try_into().unwrap()) as usize;
        let raw = &stream[at + 4..at + 4 + n];
        out.push((n, snap::raw::decompress_len(raw).unwrap()));
        at += 4 + n;
    }
    assert_eq!(at, stream.len());
    out
}

#[test]
fn tensorflow_snappy_files_read_as_their_plain_twins_from_files_and_pipes() {
    let plain = tfr(&["to-jsonl", &data("notebook.tfrecord")]).run().ok();
    let snappy = data("notebook.snappy.tfrecord");
    assert_eq!(tfr(&["to-jsonl", &snappy]).run().ok(), plain);
    let bytes = std::fs::read(&snappy).unwrap();
    assert_eq!(tfr(&["to-jsonl", "-"]).stdin(&bytes).run().ok(), plain);
    assert_eq!(tfr(&["to-jsonl", "--compression", "snappy", &snappy]).run().ok(), plain);
    let text = tfr(&["cat", &data("notebook.tfrecord")]).run().ok();
    assert_eq!(tfr(&["cat", "-j", "2", &snappy]).run().ok(), text);
    let ok = tfr(&["verify-crc", &data("blocks.snappy.tfrecord")]).run().ok();
    assert!(ok.contains("10 records, all intact"), "{ok}");
    let schema = tfr(&["schema", "--format", "tf", &snappy]).run().ok();
    assert!(schema.contains("compression_type=\"SNAPPY\""), "{schema}");
    // Named in count's table.
    let table = tfr(&["verify-crc", &snappy, &data("notebook.tfrecord")]).run().ok();
    assert!(table.contains("snappy"), "{table}");
}

#[test]
fn a_record_in_a_block_of_its_own_is_read() {
    // TensorFlow's writer puts a record larger than its 256 KiB buffer in a
    // block of its own (its reader then refuses it; tfr reads it).
    let dir = Dir::new();
    let big: Vec<u8> = (0..700_000u32).map(|i| (i * 31 % 253) as u8).collect();
    let plain = records(&[b"small", &big, b"after"]);
    let header = 12 + 5 + 4 + 12;
    let stream = [
        block(&plain[..header]),
        block(&plain[header..header + big.len()]),
        block(&plain[header + big.len()..]),
    ]
    .concat();
    let path = dir.write("big.snappy", &stream);
    assert_eq!(tfr(&["count", &path]).run().ok(), "3\n");
    let want = dir.write("big.tfrecord", &plain);
    let raw = tfr(&["cat", "--type", "raw", "--full", &want]).run().ok();
    assert_eq!(tfr(&["cat", "--type", "raw", "--full", &path]).run().ok(), raw);
    // verify-crc: intact (exit 0), but it says TensorFlow cannot read it,
    // and a salvage in tfr's blocks is one TensorFlow can.
    let ran = tfr(&["verify-crc", "--json", &path]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr.contains(
            "big.snappy: a SNAPPY block holds 700,000 bytes, more than the 256 KiB TensorFlow's SNAPPY reader takes"
        ),
        "{}",
        ran.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&ran.stdout_str()).unwrap();
    assert!(report["files"][0]["tensorflow_unreadable"].is_string(), "{report}");
    let out = dir.path("fixed.snappy");
    let out = out.to_str().unwrap();
    tfr(&["verify-crc", &path, "--salvage", out, "--salvage-compression", "snappy"])
        .run()
        .warns();
    let fixed = tfr(&["verify-crc", out]).run();
    assert_eq!((fixed.code, fixed.stderr.as_str()), (0, ""));
    assert!(blocks(&std::fs::read(out).unwrap())
        .iter()
        .all(|&(_, n)| n <= 256 << 10));
    // TensorFlow-sized blocks draw no warning.
    let tf = tfr(&["verify-crc", &data("blocks.snappy.tfrecord")]).run();
    assert_eq!((tf.code, tf.stderr.as_str()), (0, ""));
}

/// A raw snappy block of literals one byte long: twice the size of its
/// data, the longest encoding there is.
fn literal_block(data: &[u8]) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut n = data.len();
    while n >= 0x80 {
        raw.push((n as u8) | 0x80);
        n >>= 7;
    }
    raw.push(n as u8);
    for &b in data {
        raw.extend([0, b]);
    }
    let mut out = (raw.len() as u32).to_be_bytes().to_vec();
    out.extend(raw);
    out
}

#[test]
fn only_the_decompressed_size_of_a_block_matters_to_tensorflow() {
    // Measured with TensorFlow 2.21's tf.data.TFRecordDataset (any
    // buffer_size): a block of 512 KiB that decompresses to 256 KiB is
    // read; one that decompresses to 256 KiB + 1 is refused ("Output
    // buffer(size: 262144 bytes) too small").
    let dir = Dir::new();
    let payload: Vec<u8> = (0..(256 << 10) - 16u32).map(|i| (i * 7 % 251) as u8).collect();
    let plain = records(&[&payload]);
    assert_eq!(plain.len(), 256 << 10);
    let path = dir.write("wide.snappy", &literal_block(&plain));
    let ran = tfr(&["verify-crc", &path]).run();
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""));
    let payload: Vec<u8> = (0..(256 << 10) - 15u32).map(|i| (i * 7 % 251) as u8).collect();
    let path = dir.write("over.snappy", &block(&records(&[&payload])));
    let ran = tfr(&["verify-crc", &path]).run();
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("a SNAPPY block holds 262,145 bytes, more than the 256 KiB"),
        "{}",
        ran.stderr
    );
}

#[test]
fn tfr_writes_blocks_tensorflow_reads() {
    // Records of every size, one over a megabyte: blocks hold at most 192
    // KiB of input, under 256 KiB compressed even for random bytes.
    let dir = Dir::new();
    let mut noise = 0x9e3779b97f4a7c15u64;
    let big: String = (0..1_500_000)
        .map(|_| {
            noise ^= noise << 13;
            noise ^= noise >> 7;
            noise ^= noise << 17;
            char::from(b'a' + (noise % 26) as u8)
        })
        .collect();
    let lines = format!("{{\"a\": [1.5]}}\n{{\"text\": \"{big}\"}}\n{{\"a\": [1.5, 2.5]}}\n");
    let input = dir.write("in.jsonl", lines.as_bytes());
    let out = dir.path("out.snappy");
    let out_s = out.to_str().unwrap();
    tfr(&["from-jsonl", "--compression", "snappy", "-o", out_s, &input])
        .run()
        .ok();
    let stream = std::fs::read(&out).unwrap();
    let sizes = blocks(&stream);
    assert!(sizes.len() >= 8, "{sizes:?}");
    for (compressed, decompressed) in sizes {
        assert!(decompressed <= 192 << 10 && compressed <= 256 << 10);
    }
    let back = tfr(&["to-jsonl", out_s]).run().ok();
    assert_eq!(back.lines().count(), 3);
    assert!(back.contains(&big));
    let plain = dir.path("out.tfrecord");
    tfr(&["from-jsonl", "-o", plain.to_str().unwrap(), &input]).run().ok();
    assert_eq!(tfr(&["to-jsonl", plain.to_str().unwrap()]).run().ok(), back);
}

#[test]
fn salvage_named_snappy_is_snappy_and_damage_is_located() {
    let dir = Dir::new();
    let damaged = data("snappy_corrupt.tfrecord");
    let out = dir.path("salvaged.tfrecord.snappy");
    let out_s = out.to_str().unwrap();
    let ran = tfr(&["verify-crc", "--salvage", out_s, &damaged]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("record 8 at byte 240468 of the decompressed snappy stream"),
        "{}",
        ran.stderr
    );
    assert!(!ran.stderr.contains("snappy: snappy"), "{}", ran.stderr);
    let salvaged = std::fs::read(&out).unwrap();
    assert!(!blocks(&salvaged).is_empty(), "salvage is SNAPPY, as its name says");
    assert_eq!(tfr(&["count", out_s]).run().ok(), "8\n");
    let err = tfr(&["count", &damaged]).run().fails(2);
    assert!(err.contains("corrupt compressed stream"), "{err}");
    let err = tfr(&["count", &data("snappy_truncated.tfrecord")]).run().fails(2);
    assert!(err.contains("the snappy stream is cut short"), "{err}");
}

#[test]
fn hostile_block_lengths_are_refused_without_holding_them() {
    let dir = Dir::new();
    // Over the largest block: refused before reading on.
    let path = dir.write("huge.snappy", &[&u32::MAX.to_be_bytes()[..], &[0; 64]].concat());
    let err = tfr(&["count", "--compression", "snappy", &path]).run().fails(2);
    assert!(err.contains("more than tfr reads in one block"), "{err}");
    // A plausible length, few bytes: cut short, at once.
    let path = dir.write("short.snappy", &[&(1u32 << 20).to_be_bytes()[..], &[7; 64]].concat());
    let err = tfr(&["count", "--compression", "snappy", &path]).run().fails(2);
    assert!(err.contains("cut short"), "{err}");
    // A block announcing far more than its bytes can expand to.
    let mut lying = vec![0, 0, 0, 6];
    lying.extend_from_slice(&[0xff, 0xff, 0xff, 0x7f, 0x00, 0x00]);
    let path = dir.write("lying.snappy", &lying);
    let err = tfr(&["count", "--compression", "snappy", &path]).run().fails(2);
    assert!(err.contains("corrupt"), "{err}");
}

#[test]
fn a_forced_wrong_compression_names_snappy() {
    let snappy = data("notebook.snappy.tfrecord");
    let err = tfr(&["count", "--compression", "none", &snappy]).run().fails(2);
    assert!(err.contains("SNAPPY-compressed: drop `--compression none`"), "{err}");
    // Text is not taken for SNAPPY.
    let err = tfr(&["count", &data("not_tfrecord.csv")]).run().fails(2);
    assert!(err.contains("not a TFRecord file"), "{err}");
}

/// Found by review: damage in the first SNAPPY block is damage in a SNAPPY
/// stream (not "not a TFRecord file"), and verify-crc recovers the records
/// after it; a block over tfr's 16 MiB says it is tfr's limit.
#[test]
fn damage_in_the_first_block_is_located_and_passed() {
    let dir = Dir::new();
    let good = std::fs::read(data("blocks.snappy.tfrecord")).unwrap();
    let mut flipped = good.clone();
    flipped[10] ^= 1;
    let path = dir.write("flip.snappy", &flipped);
    let ran = tfr(&["verify-crc", &path]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("record 0 at byte 0 of the decompressed snappy stream"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stdout_str().contains("7 records intact, 1 fault"),
        "{}",
        ran.stdout_str()
    );
    let path = dir.write("cut.snappy", &good[..100]);
    let err = tfr(&["count", &path]).run().fails(2);
    assert!(err.contains("the snappy stream is cut short"), "{err}");
    // 17 MiB of zeros in one block (as TensorFlow's writer makes it).
    let big = records(&[&vec![0u8; 17 << 20]]);
    let path = dir.write("big.snappy", &block(&big));
    let err = tfr(&["count", &path]).run().fails(2);
    assert!(err.contains("more than tfr reads in one block (16 MiB"), "{err}");
}

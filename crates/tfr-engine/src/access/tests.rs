use super::*;
use crate::example::proto;
use crate::record::RecordWriter;
use flate2::write::{GzEncoder, ZlibEncoder};
use prost::Message;
use std::io::Write;

/// Payloads of varied sizes, some longer than a small checkpoint interval.
fn payloads(n: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut x = seed | 1;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = if i % 17 == 3 {
                5000 + (x % 3000) as usize
            } else {
                (x % 300) as usize
            };
            (0..len).map(|j| (x as usize + j * 31 + i) as u8).collect()
        })
        .collect()
}

fn framed(payloads: &[Vec<u8>]) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new());
    for p in payloads {
        w.write_record(p).unwrap();
    }
    w.into_inner()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> Input {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    Input::Path(path)
}

fn opts(every: u64) -> Options {
    Options {
        index: IndexSource::Build,
        checkpoint_every: every,
        jobs: 2,
        ..Options::default()
    }
}

/// Every record read by number in a scrambled order, and all in order,
/// agree with the payloads written.
fn reads_all(records: &Records, want: &[Vec<u8>]) {
    assert_eq!(records.len(), want.len() as u64);
    let mut buf = Vec::new();
    let n = want.len() as u64;
    for i in 0..n {
        let k = (i * 7919 + 13) % n;
        let at = records.read(k, &mut buf).unwrap();
        assert_eq!(buf, want[k as usize], "record {k}");
        assert_eq!(at.len, want[k as usize].len() as u64);
        assert_eq!(records.locate(k), Some(at));
    }
    let mut seen = Vec::new();
    records
        .read_range(0, n, &mut |k, at, data| {
            assert_eq!(at.len, data.len() as u64);
            seen.push((k, data.to_vec()));
            Ok(())
        })
        .unwrap();
    assert_eq!(seen.len(), want.len());
    for (k, data) in seen {
        assert_eq!(data, want[k as usize]);
    }
    assert!(records.locate(n).is_none());
    let e = records.read(n, &mut buf).unwrap_err().to_string();
    assert!(e.contains(&format!("record {n} is past the end")), "{e}");
}

#[test]
fn plain_gzip_and_zlib_read_by_number() {
    let dir = tempfile::tempdir().unwrap();
    let want = payloads(400, 7);
    let plain = framed(&want);
    for (name, bytes) in [
        ("a.tfrecord", plain.clone()),
        ("a.gz", gzip(&plain)),
        ("a.zz", zlib(&plain)),
    ] {
        let input = write(&dir, name, &bytes);
        let records = Records::open(vec![input], opts(1000)).unwrap();
        reads_all(&records, &want);
        if let Some(d) = &records.parts[0].deflated {
            // Records longer than the interval: checkpoints inside them.
            assert!(d.checkpoints().len() > 100, "{}", d.checkpoints().len());
        }
    }
}

#[test]
fn concatenated_gzip_members_split_mid_record() {
    let dir = tempfile::tempdir().unwrap();
    let want = payloads(300, 11);
    let plain = framed(&want);
    let mut bytes = Vec::new();
    for piece in plain.chunks(plain.len() / 5 + 7) {
        bytes.extend(gzip(piece));
    }
    let input = write(&dir, "m.gz", &bytes);
    let records = Records::open(vec![input], opts(4096)).unwrap();
    reads_all(&records, &want);
    // Trailing bytes that are not a member: an error naming the file.
    bytes.extend_from_slice(b"junk");
    let input = write(&dir, "j.gz", &bytes);
    let e = format!("{:#}", Records::open(vec![input], opts(4096)).err().unwrap());
    assert!(e.contains("j.gz") && e.contains("not another member"), "{e}");
}

#[test]
fn several_inputs_are_numbered_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (payloads(50, 1), payloads(70, 2));
    let inputs = vec![
        write(&dir, "a.tfrecord", &framed(&a)),
        write(&dir, "e.tfrecord", b""),
        write(&dir, "b.gz", &gzip(&framed(&b))),
    ];
    let records = Records::open(inputs, Options::default()).unwrap();
    let all: Vec<Vec<u8>> = a.iter().chain(&b).cloned().collect();
    reads_all(&records, &all);
    let at = records.locate(50).unwrap();
    assert_eq!((at.input, at.record, at.offset), (2, 0, 0));
    assert_eq!(records.counts(), vec![50, 0, 70]);
    assert_eq!(records.name(2), records.inputs()[2].display());
    // Threads read at once.
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let (records, all) = (&records, &all);
            s.spawn(move || {
                let mut buf = Vec::new();
                for k in (t..120).step_by(4) {
                    records.read(k, &mut buf).unwrap();
                    assert_eq!(buf, all[k as usize]);
                }
            });
        }
    });
}

#[test]
fn damage_names_the_record_and_its_byte() {
    let dir = tempfile::tempdir().unwrap();
    let want = payloads(40, 3);
    let mut bytes = framed(&want);
    let records = Records::open(vec![write(&dir, "ok.tfrecord", &bytes)], opts(1000)).unwrap();
    let at = records.locate(9).unwrap();
    bytes[at.offset as usize + 12] ^= 0x40;
    let input = write(&dir, "d.tfrecord", &bytes);
    let records = Records::open(vec![input], opts(1000)).unwrap();
    let mut buf = Vec::new();
    let e = format!("{:#}", records.read(9, &mut buf).unwrap_err());
    assert!(
        e.contains(&format!(
            "d.tfrecord: record 9 at byte {}: data checksum mismatch",
            at.offset
        )),
        "{e}"
    );
    records.read(10, &mut buf).unwrap();
    assert_eq!(buf, want[10]);
    // Compressed: a flipped byte fails the walk (or the member's CRC).
    let mut gz = gzip(&framed(&want));
    let mid = gz.len() / 2;
    gz[mid] ^= 0x55;
    let e = format!(
        "{:#}",
        Records::open(vec![write(&dir, "d.gz", &gz)], opts(1000)).err().unwrap()
    );
    assert!(e.contains("d.gz") && e.contains("gzip"), "{e}");
    // Cut short.
    let gz = gzip(&framed(&want));
    let e = format!(
        "{:#}",
        Records::open(vec![write(&dir, "c.gz", &gz[..gz.len() - 20])], opts(1000))
            .err()
            .unwrap()
    );
    assert!(e.contains("c.gz") && e.contains("cut short"), "{e}");
}

#[test]
fn index_files_are_used_when_they_match_and_rebuilt_when_not() {
    let dir = tempfile::tempdir().unwrap();
    let want = payloads(120, 5);
    let bytes = framed(&want);
    let input = write(&dir, "x.tfrecord", &bytes);
    let built = Records::open(vec![input.clone()], Options::default()).unwrap();
    assert!(built.parts[0].built);
    let saved = built.save_index(None).unwrap();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let idx = dir.path().join("x.tfrecord.idx");
    let text = std::fs::read_to_string(&idx).unwrap();
    assert_eq!(text.lines().count(), 120);
    let used = Records::open(vec![input.clone()], Options::default()).unwrap();
    assert!(!used.parts[0].built);
    reads_all(&used, &want);
    assert!(used.save_index(None).unwrap().is_empty());
    // In another folder.
    let other = tempfile::tempdir().unwrap();
    built.save_index(Some(other.path())).unwrap();
    let o = Options {
        index: IndexSource::Dir(other.path().to_path_buf()),
        ..Options::default()
    };
    assert!(!Records::open(vec![input.clone()], o).unwrap().parts[0].built);
    // Garbage, lines out of order, past the end, a record's size wrong:
    // each is refused and the file walked instead.
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(3, 4);
    let swapped = lines.join("\n") + "\n";
    let past = text.clone() + &format!("{} 40\n", bytes.len());
    let shifted = text.replacen("0 ", "1 ", 1);
    for bad in [
        "garbage\n\u{0}\u{1}",
        &swapped,
        &past,
        &shifted,
        "0 99999999999999999999\n",
        "",
    ] {
        std::fs::write(&idx, bad).unwrap();
        let r = Records::open(vec![input.clone()], Options::default()).unwrap();
        assert!(r.parts[0].built, "{bad:?}");
        reads_all(&r, &want);
    }
    // The file cut short since it was indexed: the index does not match.
    std::fs::write(&idx, &text).unwrap();
    std::fs::write(dir.path().join("x.tfrecord"), &bytes[..bytes.len() - 10]).unwrap();
    let e = Records::open(vec![input], Options::default())
        .err()
        .map(|e| format!("{e:#}"))
        .unwrap_or_default();
    assert!(e.contains("x.tfrecord"), "{e}");
}

#[test]
fn a_stale_index_that_fits_at_its_ends_is_caught_on_read() {
    let dir = tempfile::tempdir().unwrap();
    let want = payloads(10, 9);
    let bytes = framed(&want);
    let input = write(&dir, "s.tfrecord", &bytes);
    let built = Records::open(vec![input.clone()], Options::default()).unwrap();
    // Records 3 and 4 merged into one line: the ends still fit.
    let mut text = String::new();
    for k in 0..10 {
        let (_, off, len) = built.parts[0].table.get(k);
        match k {
            3 => text.push_str(&format!("{off} {}\n", len + 16 + want[4].len() as u64 + 16)),
            4 => {}
            _ => text.push_str(&format!("{off} {}\n", len + 16)),
        }
    }
    std::fs::write(dir.path().join("s.tfrecord.idx"), text).unwrap();
    let r = Records::open(vec![input], Options::default()).unwrap();
    assert_eq!(r.len(), 9);
    let mut buf = Vec::new();
    let e = format!("{:#}", r.read(3, &mut buf).unwrap_err());
    assert!(
        e.contains("s.tfrecord: record 3") && e.contains("does not match"),
        "{e}"
    );
    let e = format!("{:#}", r.read_range(0, 9, &mut |_, _, _| Ok(())).unwrap_err());
    assert!(e.contains("changed since it was indexed"), "{e}");
}

#[test]
fn exported_indexes_round_trip_and_refuse_other_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (payloads(60, 21), payloads(30, 22));
    let inputs = vec![
        write(&dir, "a.tfrecord", &framed(&a)),
        write(&dir, "b.gz", &gzip(&framed(&b))),
    ];
    let records = Records::open(inputs.clone(), opts(2000)).unwrap();
    let bytes = records.export_index();
    assert!(bytes.len() < 90 * 8 + 200, "{}", bytes.len());
    let again = Records::open_with_index(inputs.clone(), opts(2000), &bytes).unwrap();
    let all: Vec<Vec<u8>> = a.iter().chain(&b).cloned().collect();
    reads_all(&again, &all);
    let refused = |inputs: Vec<Input>, bytes: &[u8]| Records::open_with_index(inputs, opts(2000), bytes).is_err();
    assert!(refused(inputs.clone(), &bytes[..bytes.len() - 1]));
    assert!(refused(inputs.clone(), b"garbage"));
    assert!(refused(inputs.clone(), &[]));
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    assert!(refused(inputs.clone(), &flipped));
    assert!(refused(vec![inputs[0].clone()], &bytes));
    assert!(refused(vec![inputs[1].clone(), inputs[0].clone()], &bytes));
    let with_filter = Options {
        filter: Some(Arc::new(Where::parse("has(x)").unwrap())),
        ..opts(2000)
    };
    assert!(Records::open_with_index(inputs.clone(), with_filter, &bytes).is_err());
    // An input that changed size.
    std::fs::write(dir.path().join("a.tfrecord"), framed(&a[..59])).unwrap();
    assert!(refused(inputs, &bytes));
}

fn example(label: i64) -> Vec<u8> {
    let mut f = proto::Features::default();
    f.feature.push(proto::FeatureEntry {
        key: Some("label".into()),
        value: Some(proto::Feature {
            kind: Some(proto::feature::Kind::Int64List(proto::Int64List { value: vec![label] })),
        }),
    });
    proto::Example { features: Some(f) }.encode_to_vec()
}

#[test]
fn a_filter_numbers_the_records_it_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let all: Vec<Vec<u8>> = (0..90).map(|i| example(i % 3)).collect();
    let bytes = framed(&all);
    let inputs = vec![write(&dir, "f.tfrecord", &bytes), write(&dir, "f.gz", &gzip(&bytes))];
    let o = Options {
        filter: Some(Arc::new(Where::parse("label == 1").unwrap())),
        ..opts(500)
    };
    let records = Records::open(inputs.clone(), o.clone()).unwrap();
    let kept: Vec<Vec<u8>> = all.iter().filter(|p| **p == example(1)).cloned().collect();
    let twice: Vec<Vec<u8>> = kept.iter().chain(&kept).cloned().collect();
    reads_all(&records, &twice);
    assert_eq!(records.locate(1).unwrap().record, 4);
    assert_eq!(
        records.locate(31).unwrap(),
        Located {
            input: 1,
            record: 4,
            offset: records.locate(1).unwrap().offset,
            len: kept[0].len() as u64
        }
    );
    let again = Records::open_with_index(inputs, o, &records.export_index()).unwrap();
    reads_all(&again, &twice);
    assert!(records.save_index(None).unwrap().is_empty());
}

#[test]
fn snappy_and_streams_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = crate::io::snappy::SnappyWriter::new(Vec::new());
    w.write_all(&framed(&payloads(5, 1))).unwrap();
    let input = write(&dir, "s.snappy", &w.finish().unwrap());
    let e = format!("{:#}", Records::open(vec![input], Options::default()).err().unwrap());
    assert!(e.contains("SNAPPY") && e.contains("tfr cat"), "{e}");
    let e = format!(
        "{:#}",
        Records::open(vec![Input::Stdin], Options::default()).err().unwrap()
    );
    assert!(e.contains("not a stream"), "{e}");
}

#[test]
fn records_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<Records>();
}

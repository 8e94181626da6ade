use super::super::{encode_header, file_of};
use super::check as fuzz_check;
use super::*;
use std::io::Write;

/// `n` payloads of varied sizes and contents.
fn payloads(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| (0..(i * 7) % 50 + 1).map(|j| (i * 31 + j) as u8).collect())
        .collect()
}

/// The intact records (framed) and the faults found in `bytes`, read as a stream.
fn scan(bytes: &[u8]) -> (Vec<Vec<u8>>, Vec<Fault>) {
    scan_with(Scanner::new(RecordReader::new(
        Source::from_reader(Box::new(io::Cursor::new(bytes.to_vec()))),
        Compression::None,
    )))
}

/// The same, read from a regular file (sizes known, lengths checked against them).
fn scan_file(bytes: &[u8]) -> (Vec<Vec<u8>>, Vec<Fault>) {
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(bytes).unwrap();
    use std::io::Seek;
    f.rewind().unwrap();
    let src = Source::from_file(f, bytes.len() as u64);
    scan_with(Scanner::new(RecordReader::new(src, Compression::None)))
}

fn scan_with(mut s: Scanner) -> (Vec<Vec<u8>>, Vec<Fault>) {
    let (mut recs, mut faults) = (Vec::new(), Vec::new());
    while let Some(step) = s.next_step().unwrap() {
        match step {
            Step::Intact { framed, .. } => recs.push(framed.to_vec()),
            Step::IntactStreamed { spooled, length, .. } => {
                let mut framed = Vec::new();
                if let Some(mut f) = spooled {
                    io::Read::read_to_end(&mut f, &mut framed).unwrap();
                    assert_eq!(framed.len() as u64, length + 16);
                }
                recs.push(framed);
            }
            Step::Fault(f) => faults.push(f),
        }
    }
    (recs, faults)
}

/// Scans `bytes` as a stream and as a file holding at most `hold`
/// bytes of a record, spooling the long ones.
fn scan_holding(bytes: &[u8], hold: u64) -> [(Vec<Vec<u8>>, Vec<Fault>); 2] {
    let mut stream = Scanner::new(RecordReader::new(
        Source::from_reader(Box::new(io::Cursor::new(bytes.to_vec()))),
        Compression::None,
    ));
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(bytes).unwrap();
    let mut file = Scanner::new(RecordReader::new(
        Source::from_file(f, bytes.len() as u64),
        Compression::None,
    ));
    for s in [&mut stream, &mut file] {
        s.set_hold_limit(hold);
        s.set_spool(true);
    }
    [scan_with(stream), scan_with(file)]
}

#[test]
fn long_records_stream_past_and_spool_exactly() {
    let mut p = payloads(30);
    for (i, at) in [3, 4, 17, 29].into_iter().enumerate() {
        p[at] = (0..5000 + i * 333).map(|j| (j * 7 + i) as u8).collect();
    }
    let bytes = file_of(&p);
    for (recs, faults) in scan_holding(&bytes, 1000) {
        assert!(faults.is_empty(), "{faults:?}");
        assert_eq!(recs, framed(&p));
    }
}

#[test]
fn a_damaged_long_record_is_stepped_over() {
    let mut p = payloads(30);
    p[10] = vec![0x55; 8000];
    p[11] = vec![0x66; 9000];
    let mut bytes = file_of(&p);
    let at = offset_of(&p, 10);
    bytes[at + 12 + 4000] ^= 0x10;
    let [(stream_recs, stream_faults), (file_recs, file_faults)] = scan_holding(&bytes, 1000);
    // The file checks the long record after it by position and resumes there.
    assert_eq!(file_faults.len(), 1, "{file_faults:?}");
    assert_eq!(file_faults[0].damage.kind, DamageKind::DataCrcMismatch);
    assert_eq!(file_faults[0].damage.offset, at as u64);
    assert_eq!(file_faults[0].skipped, 8016);
    assert!(file_faults[0].resumed);
    let mut want = framed(&p);
    want.remove(10);
    assert_eq!(file_recs, want);
    // A stream cannot look at it without holding it: it joins the damage.
    assert_eq!(stream_faults.len(), 1, "{stream_faults:?}");
    assert_eq!(stream_faults[0].damage.offset, at as u64);
    assert_eq!(stream_faults[0].skipped, offset_of(&p, 12) as u64 - at as u64);
    assert!(stream_faults[0].resumed);
    want.remove(10);
    assert_eq!(stream_recs, want);
    // A short record after the damaged long one: both resume on it.
    let mut q = payloads(30);
    q[10] = vec![0x55; 8000];
    let mut bytes = file_of(&q);
    bytes[at + 12 + 4000] ^= 0x10;
    for (recs, faults) in scan_holding(&bytes, 1000) {
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!((faults[0].skipped, faults[0].resumed), (8016, true));
        assert_eq!(recs.len(), 29);
    }
}

#[test]
fn a_long_record_cut_short_is_reported_without_holding_it() {
    let mut p = payloads(5);
    p.push(vec![9; 50_000]);
    let bytes = file_of(&p);
    let cut = &bytes[..bytes.len() - 20_000];
    let at = offset_of(&p, 5) as u64;
    for (recs, faults) in scan_holding(cut, 1000) {
        assert_eq!(recs.len(), 5);
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(faults[0].damage.offset, at);
        assert!(matches!(
            faults[0].damage.kind,
            DamageKind::TruncatedPayload { .. } | DamageKind::LengthBeyondEnd { .. }
        ));
        assert!(!faults[0].resumed);
    }
}

/// Framed records of `payloads`, each as its own file image.
fn framed(payloads: &[Vec<u8>]) -> Vec<Vec<u8>> {
    payloads.iter().map(|p| file_of(std::slice::from_ref(p))).collect()
}

/// Offset of record `i` in `file_of(payloads)`.
fn offset_of(payloads: &[Vec<u8>], i: usize) -> usize {
    payloads[..i].iter().map(|p| p.len() + 16).sum()
}

fn both(bytes: &[u8]) -> (Vec<Vec<u8>>, Vec<Fault>) {
    let streamed = scan(bytes);
    let filed = scan_file(bytes);
    assert_eq!(streamed, filed, "stream and file scans differ");
    fuzz_check::stream(bytes);
    fuzz_check::file(bytes);
    streamed
}

#[test]
fn clean_file_is_all_intact_and_byte_identical() {
    let p = payloads(40);
    let (recs, faults) = both(&file_of(&p));
    assert!(faults.is_empty());
    assert_eq!(recs, framed(&p));
}

#[test]
fn flipped_payload_bit_is_one_data_fault() {
    let p = payloads(30);
    let mut bytes = file_of(&p);
    let at = offset_of(&p, 12);
    bytes[at + 12] ^= 0x10;
    let (recs, faults) = both(&bytes);
    assert_eq!(faults.len(), 1);
    let f = &faults[0];
    assert_eq!((f.damage.record, f.damage.offset), (12, at as u64));
    assert_eq!(f.damage.kind, DamageKind::DataCrcMismatch);
    assert_eq!((f.skipped, f.resumed), (p[12].len() as u64 + 16, true));
    let mut want = framed(&p);
    want.remove(12);
    assert_eq!(recs, want);
}

#[test]
fn damaged_length_field_resynchronises() {
    let p = payloads(30);
    for i in [0, 7, 29] {
        let mut bytes = file_of(&p);
        let at = offset_of(&p, i);
        bytes[at + 1] ^= 0x40;
        let (recs, faults) = both(&bytes);
        assert_eq!(faults.len(), 1, "record {i}");
        assert_eq!(faults[0].damage.kind, DamageKind::LengthCrcMismatch, "record {i}");
        assert_eq!(
            (faults[0].damage.record, faults[0].damage.offset),
            (i as u64, at as u64)
        );
        assert_eq!(faults[0].resumed, i != 29);
        assert_eq!(recs.len(), 29);
    }
}

#[test]
fn garbage_in_the_middle_is_skipped_exactly() {
    let p = payloads(10);
    let mut bytes = file_of(&p);
    let at = offset_of(&p, 4);
    let garbage: Vec<u8> = (0..5000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    bytes.splice(at..at, garbage.iter().copied());
    let (recs, faults) = both(&bytes);
    assert_eq!(recs, framed(&p));
    assert_eq!(faults.len(), 1);
    assert_eq!((faults[0].damage.offset, faults[0].skipped), (at as u64, 5000));
    assert_eq!(faults[0].damage.kind, DamageKind::LengthCrcMismatch);
}

#[test]
fn tails_are_named() {
    let p = payloads(5);
    let good = file_of(&p);
    let end = good.len() as u64;
    let kinds = |bytes: &[u8]| -> Vec<(DamageKind, u64, u64)> {
        both(bytes)
            .1
            .into_iter()
            .map(|f| (f.damage.kind, f.damage.offset, f.skipped))
            .collect()
    };
    let mut t = good.clone();
    t.extend_from_slice(&encode_header(9)[..5]);
    assert_eq!(kinds(&t), vec![(DamageKind::TruncatedHeader { bytes: 5 }, end, 5)]);
    let mut t = good.clone();
    t.extend_from_slice(b"not a record, just some trailing junk");
    assert_eq!(kinds(&t), vec![(DamageKind::TrailingGarbage { bytes: 37 }, end, 37)]);
    let t = &good[..good.len() - 3];
    let last = offset_of(&p, 4) as u64;
    let len = p[4].len() as u64;
    assert_eq!(
        kinds(t),
        vec![(
            DamageKind::TruncatedPayload {
                length: len,
                present: len + 1
            },
            last,
            len + 13
        )]
    );
}

#[test]
fn huge_length_neither_allocates_nor_stops_the_scan() {
    let p = payloads(6);
    let mut bytes = file_of(&p[..3]);
    let at = bytes.len() as u64;
    bytes.extend_from_slice(&encode_header(1 << 62));
    bytes.extend_from_slice(b"12345678");
    bytes.extend_from_slice(&file_of(&p[3..]));
    let (recs, faults) = both(&bytes);
    assert_eq!(recs, framed(&p));
    assert_eq!(faults.len(), 1);
    assert_eq!(faults[0].damage.offset, at);
    assert!(matches!(faults[0].damage.kind, DamageKind::LengthBeyondEnd { length, .. } if length == 1 << 62));
    assert_eq!(faults[0].skipped, 20);
}

#[test]
fn embedded_record_in_a_damaged_payload_is_not_salvaged() {
    let inner = file_of(&[b"inner".to_vec()]);
    let mut outer = b"prefix".to_vec();
    outer.extend_from_slice(&inner);
    let p = vec![b"first".to_vec(), outer, b"last".to_vec()];
    let mut bytes = file_of(&p);
    let at = offset_of(&p, 1);
    bytes[at + 12] ^= 1;
    let (recs, faults) = both(&bytes);
    assert_eq!(recs, framed(&[p[0].clone(), p[2].clone()]));
    assert_eq!(faults[0].skipped, p[1].len() as u64 + 16);
}

#[test]
fn text_is_not_a_tfrecord() {
    for text in [&b"hello, world\nthis is text\n"[..], b"hi\n"] {
        let (recs, faults) = both(text);
        assert!(recs.is_empty());
        assert_eq!(faults.len(), 1);
        assert!(matches!(&faults[0].damage.kind, DamageKind::NotTfrecord { hint } if hint.contains("text")));
    }
    assert_eq!(both(b""), (vec![], vec![]));
}

#[test]
fn compressed_streams_are_checked_and_cut_streams_reported() {
    let p = payloads(200);
    let plain = file_of(&p);
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&plain).unwrap();
    let gz = e.finish().unwrap();
    fuzz_check::file(&gz);
    let reader = |bytes: Vec<u8>| {
        // tfr's own decoder: only its errors are damage (flate2's reader's are not).
        let decoder = crate::io::decoder(io::Cursor::new(bytes), Compression::Gzip).ok();
        let src = Source::from_reader(decoder.expect("a gzip decoder"));
        Scanner::new(RecordReader::new(src, Compression::Gzip))
    };
    let (recs, faults) = scan_with(reader(gz.clone()));
    assert_eq!((recs.len(), faults.len()), (200, 0));
    let (recs, faults) = scan_with(reader(gz[..gz.len() / 2].to_vec()));
    assert_eq!(faults.len(), 1);
    assert!(
        matches!(faults[0].damage.kind, DamageKind::CorruptCompressed { .. }),
        "{faults:?}"
    );
    assert!(!recs.is_empty() && recs.len() < 200);
    assert_eq!(recs, framed(&p[..recs.len()]));
}

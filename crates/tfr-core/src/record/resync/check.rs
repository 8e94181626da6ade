//! The resync scanner's invariants, checked on any input: what the
//! `record_reader` fuzz target and the scanner's tests assert.

use crate::io::{Compression, Input};
use crate::record::{
    encode_header, masked_crc, parse_header, DamageKind, ReadError, RecordReader, Scanner, Source, Step, HEADER_LEN,
};
use std::io::{Cursor, Write};

/// Checks `data` read as a plain stream (no size known): the scanner's
/// accounting, agreement with [`RecordReader`] up to its first error, and
/// that re-scanning the salvaged records finds them all intact.
pub fn stream(data: &[u8]) {
    let salvaged = scan(plain_stream(data), Some(data));
    agree_with_reader(data, &salvaged);
    let again = scan(plain_stream(&salvaged), Some(&salvaged));
    assert_eq!(again, salvaged, "salvaged records re-scan differently");
    // Records over a tiny hold limit are streamed and spooled: the same
    // accounting holds.
    scan(holding(plain_stream(data), 64), Some(data));
}

/// A scanner that streams records over `hold` bytes, spooling them.
fn holding(mut scanner: Scanner, hold: u64) -> Scanner {
    scanner.set_hold_limit(hold);
    scanner.set_spool(true);
    scanner
}

/// Checks `bytes` as a regular file opened by [`crate::record::open`] (sniffing
/// gzip/zlib/snappy/plain), so the file-size shortcuts and decompressors are used.
pub fn file(bytes: &[u8]) {
    file_as(bytes, None);
}

/// [`file`] with the compression forced (`None`: sniffed).
pub fn file_as(bytes: &[u8], forced: Option<Compression>) {
    let mut temp = tempfile::NamedTempFile::new().expect("temp file");
    temp.write_all(bytes).expect("write temp file");
    let reader = crate::record::open(&Input::Path(temp.path().to_path_buf()), forced).expect("open temp file");
    let plain = (reader.compression() == Compression::None).then_some(bytes);
    let salvaged = scan(Scanner::new(reader), plain);
    let again = scan(plain_stream(&salvaged), Some(&salvaged));
    assert_eq!(again, salvaged, "salvaged records re-scan differently");
    let reader = crate::record::open(&Input::Path(temp.path().to_path_buf()), forced).expect("open temp file");
    scan(holding(Scanner::new(reader), 64), plain);
}

fn plain_stream(data: &[u8]) -> Scanner {
    let src = Source::from_reader(Box::new(Cursor::new(data.to_vec())));
    Scanner::new(RecordReader::new(src, Compression::None))
}

/// Runs a scanner to the end, checking that records and faults tile the
/// stream without gaps, that each intact record really checks (and, for
/// plain input, is the input's bytes), and that a resumed fault is followed
/// by an intact record. Returns the salvaged bytes.
fn scan(mut scanner: Scanner, plain: Option<&[u8]>) -> Vec<u8> {
    let mut salvaged = Vec::new();
    let mut at = 0u64;
    let mut next_index = 0u64;
    let mut want_intact = false;
    // After a fault that does not resume, only the failing decompressor's
    // fault may follow; after that, nothing.
    let (mut ended, mut stream_failed) = (false, false);
    while let Some(step) = scanner.next_step().expect("no I/O errors in memory") {
        assert!(!stream_failed, "a step after the decompressor failed");
        let is_stream_fault =
            matches!(&step, Step::Fault(f) if matches!(f.damage.kind, DamageKind::CorruptCompressed { .. }));
        assert!(!ended || is_stream_fault, "a step after a final fault");
        stream_failed = is_stream_fault;
        match step {
            Step::Intact { record, framed } => {
                assert_eq!(record.offset, at, "intact record off the tiling");
                assert_eq!(record.index, next_index, "record index");
                let header: &[u8; HEADER_LEN] = framed[..HEADER_LEN].try_into().unwrap();
                assert_eq!(parse_header(header), Some(record.data.len() as u64));
                let stored = u32::from_le_bytes(framed[framed.len() - 4..].try_into().unwrap());
                assert_eq!(masked_crc(record.data), stored);
                if let Some(p) = plain {
                    assert_eq!(framed, &p[at as usize..at as usize + framed.len()]);
                }
                at += framed.len() as u64;
                salvaged.extend_from_slice(framed);
                want_intact = false;
            }
            Step::IntactStreamed {
                index,
                offset,
                length,
                spooled,
            } => {
                assert_eq!(offset, at, "streamed record off the tiling");
                assert_eq!(index, next_index, "record index");
                let mut framed = Vec::new();
                std::io::Read::read_to_end(&mut spooled.expect("spooled"), &mut framed).expect("spool");
                assert_eq!(framed.len() as u64, length + 16);
                if let Some(p) = plain {
                    assert_eq!(framed, &p[at as usize..at as usize + framed.len()]);
                }
                at += framed.len() as u64;
                salvaged.extend_from_slice(&framed);
                want_intact = false;
            }
            Step::Fault(f) => {
                assert!(!want_intact, "resumed fault not followed by an intact record");
                assert_eq!(f.damage.offset, at, "fault off the tiling: {f:?}");
                assert_eq!(f.damage.record, next_index, "fault index");
                at += f.skipped;
                want_intact = f.resumed;
                ended = !f.resumed;
            }
        }
        next_index += 1;
    }
    assert!(!want_intact, "resumed fault at the end");
    assert_eq!(at, scanner.offset(), "bytes unaccounted for");
    if let Some(p) = plain {
        assert_eq!(at, p.len() as u64, "plain input not fully accounted for");
    }
    salvaged
}

/// The plain reader must return the same records as the scanner up to its
/// first error, and report that error where the scanner's first fault is.
fn agree_with_reader(data: &[u8], salvaged: &[u8]) {
    let mut reader = RecordReader::new(
        Source::from_reader(Box::new(Cursor::new(data.to_vec()))),
        Compression::None,
    );
    let mut read = Vec::new();
    let end = loop {
        match reader.next_record() {
            Ok(Some(rec)) => {
                read.extend_from_slice(&encode_header(rec.data.len() as u64));
                read.extend_from_slice(rec.data);
                read.extend_from_slice(&masked_crc(rec.data).to_le_bytes());
            }
            Ok(None) => break None,
            Err(ReadError::Damage(d)) => break Some(d),
            Err(ReadError::Io(e)) => panic!("I/O error in memory: {e}"),
        }
    };
    match end {
        None => assert_eq!(read, salvaged, "clean read differs from the scan"),
        Some(d) => {
            assert!(
                salvaged.starts_with(&read),
                "reader records are not a prefix of the scan's"
            );
            assert_eq!(d.offset, read.len() as u64, "reader error offset: {d}");
        }
    }
}

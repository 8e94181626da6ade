//! Invariant checks over the record reader and the resynchronising scanner,
//! shared by the fuzz targets (fuzz/) and their regression tests.
//!
//! Each function panics when an invariant breaks; any input is allowed.

use super::{masked_crc, parse_header, Compression, ReadError, RecordReader, Scanner, Source, Step, HEADER_LEN};
use crate::input::{self, Input};
use std::io::Cursor;

/// Checks `data` read as a plain stream (no size known): the scanner's
/// accounting, agreement with [`RecordReader`] up to its first error, and
/// that re-scanning the salvaged records finds them all intact.
pub fn stream(data: &[u8]) {
    let salvaged = scan(plain_stream(data), Some(data));
    agree_with_reader(data, &salvaged);
    let again = scan(plain_stream(&salvaged), Some(&salvaged));
    assert_eq!(again, salvaged, "salvaged records re-scan differently");
}

/// Checks `bytes` as a regular file opened by [`input::open`] (sniffing
/// gzip/zlib/plain), so the file-size shortcuts and decompressors are used.
pub fn file(bytes: &[u8]) {
    let path = std::env::temp_dir().join(format!("tfr-fuzz-{}", std::process::id()));
    std::fs::write(&path, bytes).expect("write temp file");
    let reader = input::open(&Input::Path(path.clone()), None).expect("open temp file");
    let plain = (reader.compression() == Compression::None).then_some(bytes);
    let salvaged = scan(Scanner::new(reader), plain);
    let again = scan(plain_stream(&salvaged), Some(&salvaged));
    assert_eq!(again, salvaged, "salvaged records re-scan differently");
    let _ = std::fs::remove_file(&path);
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
    let mut ended = false;
    while let Some(step) = scanner.next_step().expect("no I/O errors in memory") {
        assert!(!ended, "a step after a final fault");
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
    let mut reader = RecordReader::new(Source::from_reader(Box::new(Cursor::new(data.to_vec()))), Compression::None);
    let mut read = Vec::new();
    let end = loop {
        match reader.next_record() {
            Ok(Some(rec)) => {
                read.extend_from_slice(&crate::record::encode_header(rec.data.len() as u64));
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
            assert!(salvaged.starts_with(&read), "reader records are not a prefix of the scan's");
            assert_eq!(d.offset, read.len() as u64, "reader error offset: {d}");
        }
    }
}

//! The streaming record reader shared by every command.

use super::damage::{diagnose_not_tfrecord, Damage, DamageKind, ReadError};
use super::source::Source;
use super::{masked_crc, parse_header, FOOTER_LEN, HEADER_LEN};
use crate::io::Compression;
use std::io;

/// One record: its index, where its header starts, and its payload.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    /// Its number in its input, from 0.
    pub index: u64,
    /// Its header's byte offset (in the decompressed stream).
    pub offset: u64,
    /// Its payload.
    pub data: &'a [u8],
    /// Its footer (the masked CRC-32C of `data`) when it was checked
    /// against it: a writer copying the record frames it without
    /// computing the CRC again.
    pub crc: Option<u32>,
}

/// A record's place and size, for readers that skip payloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordMeta {
    /// Its number in its input, from 0.
    pub index: u64,
    /// Its header's byte offset.
    pub offset: u64,
    /// Its payload's length.
    pub length: u64,
}

/// Reads records one after the other from a [`Source`], checking CRCs.
///
/// Memory is bounded by the largest record; a record is never allocated
/// for before its bytes arrive.
pub struct RecordReader {
    src: Source,
    compression: Compression,
    index: u64,
    check_data_crc: bool,
    /// The longest payload `next_record` holds.
    max_record: u64,
    /// A SNAPPY input's largest block so far (set by `open`).
    pub(super) snappy_blocks: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

impl RecordReader {
    /// A reader of `src`, whose bytes are compressed as `compression` says.
    pub fn new(src: Source, compression: Compression) -> RecordReader {
        RecordReader {
            src,
            compression,
            index: 0,
            check_data_crc: true,
            max_record: super::DEFAULT_MAX_RECORD,
            snappy_blocks: None,
        }
    }

    /// A SNAPPY input's largest block so far, decompressed (`None` for
    /// other compressions): a block over `io::snappy::TF_READ_BUFFER` makes
    /// the file one TensorFlow's reader cannot read. Readable from another
    /// thread (the handle is shared with the decoder).
    pub fn snappy_blocks(&self) -> Option<std::sync::Arc<std::sync::atomic::AtomicU64>> {
        self.snappy_blocks.clone()
    }

    /// The longest payload [`next_record`](Self::next_record) holds in
    /// memory: a longer one is a [`DamageKind::TooLarge`] error (readers
    /// that need not hold records, `skip_record` and the scanner, stream them).
    pub fn set_max_record(&mut self, bytes: u64) {
        self.max_record = bytes;
    }

    /// Turns off the payload CRC check (faster counting; the length CRC is always checked).
    pub fn set_check_data_crc(&mut self, yes: bool) {
        self.check_data_crc = yes;
    }

    /// The input's compression.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// Index of the next record.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Offset of the next record (in the decompressed stream).
    pub fn offset(&self) -> u64 {
        self.src.offset()
    }

    /// Goes on from `offset` of a regular uncompressed file, as record
    /// `index` (where a parallel walk left off).
    pub fn seek_to(&mut self, offset: u64, index: u64) -> io::Result<()> {
        self.src.seek_to(offset)?;
        self.index = index;
        Ok(())
    }

    /// Another handle on the regular uncompressed file being read, and its
    /// size, for threads walking parts of it (positional reads: the handles
    /// do not disturb each other). Not for an object in a store: it is read
    /// in order, hopping over long payloads.
    pub fn shared_file(&self) -> Option<(crate::io::at::At, u64)> {
        let size = self.size()?;
        let file = self.src.file().filter(|f| f.splittable())?;
        Some((file.clone(), size))
    }

    /// The underlying source (for resynchronising readers).
    pub fn source_mut(&mut self) -> &mut Source {
        &mut self.src
    }

    /// Input size when known up front (regular uncompressed files).
    pub fn size(&self) -> Option<u64> {
        if self.compression == Compression::None {
            self.src.size()
        } else {
            None
        }
    }

    /// The next record, `None` at a clean end of input.
    pub fn next_record(&mut self) -> Result<Option<Record<'_>>, ReadError> {
        let Some(length) = self.header()? else {
            return Ok(None);
        };
        let offset = self.src.offset();
        let body = self.body_len(length)?;
        if length > self.max_record {
            // A stream that ends soon after, before the record's end, is a
            // record cut short (the better message); a record present whole
            // (an intact one, over the limit) or anything longer is refused
            // unread, naming the flag.
            let look = (HEADER_LEN + (64 << 10)).min(HEADER_LEN.saturating_add(body));
            let got = self.fill(look)?;
            if got < look {
                return Err(self.short_record(length, got));
            }
            let limit = self.max_record;
            return Err(self.damage(DamageKind::TooLarge { length, limit }));
        }
        let total = HEADER_LEN + body;
        let got = self.fill(total)?;
        if got < total {
            return Err(self.short_record(length, got));
        }
        let buf = self.src.buffer();
        let data = &buf[HEADER_LEN..HEADER_LEN + body - FOOTER_LEN];
        let mut crc = None;
        if self.check_data_crc {
            let stored = u32::from_le_bytes(buf[total - 4..total].try_into().expect("4 bytes"));
            if masked_crc(data) != stored {
                return Err(self.damage(DamageKind::DataCrcMismatch));
            }
            crc = Some(stored);
        }
        self.src.consume(total);
        let index = self.index;
        self.index += 1;
        Ok(Some(Record {
            index,
            offset,
            data: self.src.recent(total - HEADER_LEN, body - FOOTER_LEN),
            crc,
        }))
    }

    /// Counts the records from where the reader stands to the end: header
    /// hops (no payload held, no data CRC; plain files are not even read
    /// between headers, compressed input is inflated and stepped over).
    /// Returns the reader's record index at the end; `progress` gets
    /// (offset, records) now and then.
    pub fn count_rest(&mut self, mut progress: impl FnMut(u64, u64)) -> Result<u64, ReadError> {
        let mut n = self.index();
        while self.skip_record()?.is_some() {
            n += 1;
            if n & 0xffff == 0 {
                progress(self.offset(), n);
            }
        }
        Ok(n)
    }

    /// Steps over the next record without reading its payload (seeking on
    /// regular files) and without checking the data CRC.
    pub fn skip_record(&mut self) -> Result<Option<RecordMeta>, ReadError> {
        let Some(length) = self.header()? else {
            return Ok(None);
        };
        let offset = self.src.offset();
        let body = self.body_len(length)?;
        let held = self.src.buffer().len();
        if held < HEADER_LEN + body {
            // Only part of the record is buffered: skip the rest.
            self.src.consume(HEADER_LEN);
            let skipped = self.src.skip(body as u64).map_err(|e| {
                // A decompressor failing inside the record: reported at its start.
                match self.io_error(e) {
                    ReadError::Damage(d) => ReadError::Damage(Damage { offset, ..d }),
                    other => other,
                }
            })?;
            if skipped < body as u64 {
                let present = HEADER_LEN + skipped as usize;
                // Report at the record's start.
                return Err(self.short_record_at(offset, length, present));
            }
        } else {
            self.src.consume(HEADER_LEN + body);
        }
        let index = self.index;
        self.index += 1;
        Ok(Some(RecordMeta { index, offset, length }))
    }

    /// Reads and checks the next header, leaving it unconsumed.
    fn header(&mut self) -> Result<Option<u64>, ReadError> {
        let got = self.fill(HEADER_LEN)?;
        if got == 0 {
            return Ok(None);
        }
        let buf = self.src.buffer();
        if got < HEADER_LEN {
            if self.index == 0 {
                let hint = format!(
                    "only {got} byte{}, shorter than a record header; {}",
                    if got == 1 { "" } else { "s" },
                    diagnose_not_tfrecord(buf, self.compression)
                );
                return Err(self.damage(DamageKind::NotTfrecord { hint }));
            }
            return Err(self.damage(DamageKind::TruncatedHeader { bytes: got }));
        }
        let header: &[u8; HEADER_LEN] = buf[..HEADER_LEN].try_into().expect("12 bytes");
        match parse_header(header) {
            Some(length) => Ok(Some(length)),
            None if self.index == 0 && self.src.offset() == 0 => {
                let _ = self.fill(512);
                let hint = diagnose_not_tfrecord(self.src.buffer(), self.compression);
                Err(self.damage(DamageKind::NotTfrecord { hint }))
            }
            None => Err(self.damage(DamageKind::LengthCrcMismatch)),
        }
    }

    /// Bytes after the header (payload + footer), failing fast when the
    /// length cannot fit in the input.
    fn body_len(&self, length: u64) -> Result<usize, ReadError> {
        let body = length.saturating_add(FOOTER_LEN as u64);
        if let Some(remaining) = self.src.remaining() {
            let after_header = remaining.saturating_sub(HEADER_LEN as u64);
            if body > after_header {
                let present = HEADER_LEN + usize::try_from(after_header).unwrap_or(usize::MAX - HEADER_LEN);
                return Err(self.short_record_at(self.src.offset(), length, present));
            }
        }
        // On a stream, a length beyond what memory could address still reads
        // to the end of the input (bounded by the bytes present), then reports
        // how many there were.
        Ok(usize::try_from(body).unwrap_or(usize::MAX).min(usize::MAX - HEADER_LEN))
    }

    /// Damage for a record whose bytes end early: `present` bytes from its header on.
    fn short_record(&self, length: u64, present: usize) -> ReadError {
        self.short_record_at(self.src.offset(), length, present)
    }

    fn short_record_at(&self, offset: u64, length: u64, present: usize) -> ReadError {
        let after = present.saturating_sub(HEADER_LEN) as u64;
        // A length that exceeds the whole input cannot be a record cut short.
        let total_input = offset + present as u64;
        let kind = if length > total_input {
            DamageKind::LengthBeyondEnd {
                length,
                remaining: after,
            }
        } else {
            DamageKind::TruncatedPayload { length, present: after }
        };
        ReadError::Damage(Damage {
            kind,
            record: self.index,
            offset,
            compression: self.compression,
        })
    }

    fn fill(&mut self, n: usize) -> Result<usize, ReadError> {
        self.src.fill(n).map_err(|e| self.io_error(e))
    }

    /// A read failure, or the damage a decompressor found.
    fn io_error(&self, e: io::Error) -> ReadError {
        match crate::io::corrupt(&e) {
            Some(corrupt) if self.compression != Compression::None => {
                let reason = if corrupt.is_cut_short() {
                    format!("the {} stream is cut short", self.compression.name())
                } else {
                    corrupt.to_string()
                };
                self.damage(DamageKind::CorruptCompressed { reason })
            }
            _ => ReadError::Io(e),
        }
    }

    fn damage(&self, kind: DamageKind) -> ReadError {
        ReadError::Damage(Damage {
            kind,
            record: self.index,
            offset: self.src.offset(),
            compression: self.compression,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{file_of, Source};
    use super::*;

    fn reader(bytes: Vec<u8>) -> RecordReader {
        RecordReader::new(Source::from_reader(Box::new(io::Cursor::new(bytes))), Compression::None)
    }

    fn read_all(bytes: Vec<u8>) -> (Vec<Vec<u8>>, Option<Damage>) {
        let mut r = reader(bytes);
        let mut out = Vec::new();
        loop {
            match r.next_record() {
                Ok(Some(rec)) => out.push(rec.data.to_vec()),
                Ok(None) => return (out, None),
                Err(ReadError::Damage(d)) => return (out, Some(d)),
                Err(ReadError::Io(e)) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn reads_back_what_was_written() {
        let big = vec![9u8; 700_000];
        let (recs, err) = read_all(file_of::<&[u8]>(&[b"foo", b"", &big, b"bar"]));
        assert!(err.is_none());
        assert_eq!(recs, vec![b"foo".to_vec(), vec![], big, b"bar".to_vec()]);
    }

    #[test]
    fn every_truncation_is_reported_not_panicking() {
        let bytes = file_of::<&[u8]>(&[b"alpha", b"beta"]);
        for cut in (1..bytes.len()).filter(|&c| c != 21) {
            let (recs, err) = read_all(bytes[..cut].to_vec());
            let d = err.expect("damage");
            assert_eq!(recs.len() as u64, d.record);
            assert!(cut < 21 || d.offset == 21, "{cut}: {d}");
        }
    }

    #[test]
    fn huge_length_fails_fast() {
        let mut bytes = super::super::encode_header(1 << 62).to_vec();
        bytes.extend_from_slice(b"tiny");
        let (_, err) = read_all(bytes);
        assert!(matches!(err.unwrap().kind, DamageKind::LengthBeyondEnd { length, .. } if length == 1 << 62));
    }

    #[test]
    fn a_record_over_the_limit_is_refused_unread() {
        let mut bytes = super::super::encode_header(10 << 20).to_vec();
        bytes.resize(3 << 20, 0);
        let mut r = RecordReader::new(Source::from_reader(Box::new(io::Cursor::new(bytes))), Compression::None);
        r.set_max_record(1 << 20);
        match r.next_record() {
            Err(ReadError::Damage(d)) => {
                assert_eq!(
                    d.kind,
                    DamageKind::TooLarge {
                        length: 10 << 20,
                        limit: 1 << 20
                    }
                );
                assert_eq!((d.record, d.offset), (0, 0));
                assert!(d.to_string().contains("--max-record-size limit (1 MiB)"), "{d}");
            }
            other => panic!("{other:?}"),
        }
        // Only the look-ahead was read.
        assert!(r.source_mut().buffer().len() < 1 << 20);
    }

    #[test]
    fn flipped_payload_bit_is_a_data_crc_mismatch() {
        let mut bytes = file_of::<&[u8]>(&[b"alpha", b"beta", b"gamma"]);
        bytes[21 + 12] ^= 4;
        let (recs, err) = read_all(bytes);
        let d = err.unwrap();
        assert_eq!((recs.len(), d.record, d.offset), (1, 1, 21));
        assert_eq!(d.kind, DamageKind::DataCrcMismatch);
    }

    /// The first `n` bytes of `bytes`, then `fail` (a read error) or a clean end.
    struct CutAt {
        bytes: Vec<u8>,
        at: usize,
        fail: bool,
    }

    impl io::Read for CutAt {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.at == self.bytes.len() {
                return match self.fail {
                    true => Err(io::Error::other(
                        "the connection ended 5 bytes before the end of a range",
                    )),
                    false => Ok(0),
                };
            }
            let n = buf.len().min(self.bytes.len() - self.at).min(4096);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// Issue 26: an error of the decoder's input is a read failure, not damage;
    /// the same input ending there is a gzip stream cut short (damage).
    #[test]
    fn an_input_failing_under_the_decoder_is_a_read_failure() {
        use std::io::Write;
        let mut state = 7u64;
        let noise: Vec<u8> = (0..200_000)
            .map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (state >> 56) as u8
            })
            .collect();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&file_of::<&[u8]>(&[&noise[..100_000], &noise[100_000..]]))
            .unwrap();
        let mut gz = gz.finish().unwrap();
        gz.truncate(150_000);
        for fail in [true, false] {
            let input = io::BufReader::new(CutAt {
                bytes: gz.clone(),
                at: 0,
                fail,
            });
            let decoded = crate::io::decoder(input, Compression::Gzip).ok().expect("a decoder");
            let mut r = RecordReader::new(Source::from_reader(decoded), Compression::Gzip);
            assert_eq!(
                r.next_record().map(|r| r.map(|r| r.data.len())).ok(),
                Some(Some(100_000))
            );
            match (fail, r.next_record()) {
                (true, Err(ReadError::Io(e))) => {
                    assert!(e.to_string().contains("connection ended"), "{e}");
                    assert!(crate::io::corrupt(&e).is_none());
                }
                (false, Err(ReadError::Damage(d))) => {
                    assert_eq!(
                        d.kind,
                        DamageKind::CorruptCompressed {
                            reason: "the gzip stream is cut short".into()
                        }
                    );
                }
                (_, other) => panic!("fail={fail}: {other:?}"),
            }
        }
    }
}

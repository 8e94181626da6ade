//! Opening an input as a [`RecordReader`]: the compression is detected from
//! the first bytes (or forced), and the reader gets the fastest source the
//! input allows.

use super::{parse_header, ReadError, RecordReader, Source, HEADER_LEN};
use crate::error::{Context, Result};
use crate::io::at::AtReader;
use crate::io::input::{Opened, COMPRESSED_BUF};
use crate::io::readahead::ReadAhead;
use crate::io::{decoder, snappy, sniff_magic, Compression, Input};
use std::io::{self, Read};

/// Decides the compression of a TFRecord stream from its first bytes.
///
/// A valid 12-byte record header means plain (even if it looks like zlib);
/// then the gzip magic or a zlib header ([`sniff_magic`]); then SNAPPY when
/// `head` holds a whole first snappy block that decodes to bytes starting
/// with a valid record header (see [`sniff_len`]), or starts like a SNAPPY
/// stream whose first block does not decode (damage, reported as such);
/// else plain.
pub fn sniff(head: &[u8]) -> Compression {
    if starts_with_header(head) {
        return Compression::None;
    }
    if let Some(c) = sniff_magic(head) {
        return c;
    }
    if snappy::first_block(head).is_some_and(|block| starts_with_header(&block)) {
        return Compression::Snappy;
    }
    // Not a record, but the start of a SNAPPY stream whose first block is
    // damaged (it does not decode, or not to a record header): read as
    // SNAPPY, so that the damage is reported as such.
    if head.len() >= HEADER_LEN && snappy::looks_like_start(head) {
        return Compression::Snappy;
    }
    Compression::None
}

/// The longest first snappy block [`sniff`] looks into (TensorFlow's own
/// blocks are at most 256 KiB before a large record; `--compression snappy`
/// reads any).
pub(crate) const SNIFF_LIMIT: usize = 1 << 20;

/// How many first bytes [`sniff`] needs, given the first 12: just those,
/// unless they are neither a record header nor a compression magic and
/// start like a SNAPPY stream, whose first block it then needs whole.
pub(crate) fn sniff_len(head: &[u8]) -> usize {
    if head.len() < HEADER_LEN || starts_with_header(head) || sniff_magic(head).is_some() {
        return head.len();
    }
    match snappy::wanted(head) {
        Some(want) if want <= SNIFF_LIMIT => want.max(head.len()),
        _ => head.len(),
    }
}

fn starts_with_header(head: &[u8]) -> bool {
    head.get(..HEADER_LEN)
        .is_some_and(|h| parse_header(h.try_into().expect("12 bytes")).is_some())
}

/// Reads the first bytes of an input into `head`: 12, and as many more as
/// [`sniff_len`] asks for when the compression is not forced.
fn peek(r: &mut impl Read, head: &mut Vec<u8>, forced: Option<Compression>) -> io::Result<()> {
    r.take(HEADER_LEN as u64).read_to_end(head)?;
    if forced.is_none() {
        let want = sniff_len(head);
        r.take((want - head.len()) as u64).read_to_end(head)?;
    }
    Ok(())
}

/// How inputs are opened as record readers.
#[derive(Clone, Copy, Debug)]
pub struct OpenOptions {
    /// Forced compression (`None`: detected from the first bytes).
    pub compression: Option<Compression>,
    /// The longest payload `next_record` holds ([`RecordReader::set_max_record`]).
    pub max_record: u64,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            compression: None,
            max_record: super::DEFAULT_MAX_RECORD,
        }
    }
}

impl OpenOptions {
    /// Opens `input` with these options.
    pub fn open(&self, input: &Input) -> Result<RecordReader> {
        let mut reader = open(input, self.compression)?;
        reader.set_max_record(self.max_record);
        Ok(reader)
    }
}

/// Opens an input as a record reader, detecting or forcing compression.
///
/// A plain regular file is read by position (it can be split between
/// threads, and skipped through without reading payloads); compressed input
/// is inflated on a second thread ([`ReadAhead`]) while this one walks the
/// records.
pub fn open(input: &Input, forced: Option<Compression>) -> Result<RecordReader> {
    let name = input.display();
    let opened = input.open()?;
    let regular = matches!(opened, Opened::File(..));
    // An object in a store ends like a file: read in full chunks.
    let mut object = false;
    // Peek at the first bytes without losing them.
    let mut head = Vec::with_capacity(HEADER_LEN);
    let rest: Box<dyn Read + Send> = match opened {
        Opened::File(mut file, len) => {
            peek(&mut file, &mut head, forced).with_context(|| format!("{name}: read failed"))?;
            if forced.unwrap_or_else(|| sniff(&head)) == Compression::None {
                // The source reads by position, from offset 0.
                return Ok(RecordReader::new(Source::from_file(file, len), Compression::None));
            }
            Box::new(file)
        }
        Opened::Object(at, len) => {
            let mut raw = AtReader::new(at.clone(), 0);
            peek(&mut raw, &mut head, forced).with_context(|| format!("{name}: read failed"))?;
            if forced.unwrap_or_else(|| sniff(&head)) == Compression::None {
                // Read by position, like a plain file: skipped payloads are
                // not fetched, and threads can share the object.
                return Ok(RecordReader::new(Source::from_at(at, len), Compression::None));
            }
            object = true;
            Box::new(raw)
        }
        Opened::Stream(mut raw) => {
            peek(&mut raw, &mut head, forced).with_context(|| format!("{name}: read failed"))?;
            raw
        }
    };
    let compression = forced.unwrap_or_else(|| sniff(&head));
    let regular = regular || object;
    let joined: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(rest));
    // tfr's decoders, not flate2's readers: they keep the bytes decoded
    // before a corrupt block and report a zlib stream cut short.
    let buffered = io::BufReader::with_capacity(COMPRESSED_BUF, joined);
    let mut snappy_blocks = None;
    let decoded = match compression {
        Compression::Snappy => {
            let reader = snappy::SnappyReader::new(buffered);
            snappy_blocks = Some(reader.largest_block());
            Ok(Box::new(reader) as Box<dyn Read + Send>)
        }
        _ => decoder(buffered, compression),
    };
    let mut source = match decoded {
        Err(plain) => Source::from_reader(Box::new(plain.into_inner())),
        // A regular file is decoded in full chunks; a pipe eagerly, so
        // that a slow stream's records show at once.
        Ok(decoded) if regular => Source::from_read_ahead(ReadAhead::new(decoded)),
        Ok(decoded) => Source::from_read_ahead(ReadAhead::eager(decoded)),
    };
    if regular {
        source.set_file_backed();
    }
    let mut reader = RecordReader::new(source, compression);
    reader.snappy_blocks = snappy_blocks;
    Ok(reader)
}

/// Names the input in a reader error.
pub fn read_error(input: &Input, e: ReadError) -> crate::error::Error {
    let name = input.display();
    match e {
        damage @ ReadError::Damage(_) => crate::error::Error::from(damage).context(name),
        ReadError::Io(e) => crate::error::Error::from(e).context(format!("{name}: read failed")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_by_content() {
        assert_eq!(sniff(&[0x1f, 0x8b, 8, 0]), Compression::Gzip);
        assert_eq!(sniff(&[0x78, 0x9c, 1, 2]), Compression::Zlib);
        assert_eq!(sniff(&[0x78, 0x01]), Compression::Zlib);
        assert_eq!(sniff(b"hello"), Compression::None);
        assert_eq!(sniff(b""), Compression::None);
        // A plain record whose length byte looks like a zlib header stays plain.
        let h = super::super::encode_header(0x9c78);
        assert_eq!(&h[..2], &[0x78, 0x9c]);
        assert_eq!(sniff(&h), Compression::None);
    }

    #[test]
    fn sniffs_snappy_by_its_first_block() {
        use std::io::Write;
        let mut records = super::super::RecordWriter::new(Vec::new());
        records.write_record(b"payload").unwrap();
        let plain = records.into_inner();
        let mut w = snappy::SnappyWriter::new(Vec::new());
        w.write_all(&plain).unwrap();
        let packed = w.finish().unwrap();
        assert_eq!(sniff_len(&packed[..HEADER_LEN]), packed.len());
        assert_eq!(sniff(&packed), Compression::Snappy);
        // Not the whole first block: still the start of a SNAPPY stream.
        assert_eq!(sniff(&packed[..packed.len() - 1]), Compression::Snappy);
        // A SNAPPY stream of something else is read as SNAPPY (and then
        // said not to hold records).
        let mut w = snappy::SnappyWriter::new(Vec::new());
        w.write_all(b"just some text, no record header here").unwrap();
        assert_eq!(sniff(&w.finish().unwrap()), Compression::Snappy);
        assert_eq!(sniff(b"just some text, no record header here"), Compression::None);
        // Plain records and gzip need no more than 12 bytes.
        assert_eq!(sniff_len(&plain[..HEADER_LEN]), HEADER_LEN);
        assert_eq!(sniff_len(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]), HEADER_LEN);
        // An implausible length does not make it read on.
        assert_eq!(sniff_len(&[0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0]), HEADER_LEN);
    }
}

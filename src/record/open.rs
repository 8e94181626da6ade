//! Opening an input as a [`RecordReader`]: the compression is detected from
//! the first bytes (or forced), and the reader gets the fastest source the
//! input allows.

use super::{parse_header, ReadError, RecordReader, Source, HEADER_LEN};
use crate::io::inflate::Inflater;
use crate::io::input::{Opened, COMPRESSED_BUF};
use crate::io::readahead::ReadAhead;
use crate::io::{sniff_magic, Compression, Input};
use anyhow::{Context, Result};
use std::io::{self, Read};

/// Decides the compression of a TFRecord stream from its first bytes.
///
/// A valid 12-byte record header means plain (even if it looks like zlib);
/// then the gzip magic or a zlib header ([`sniff_magic`]); else plain.
pub fn sniff(head: &[u8]) -> Compression {
    if let Some(h) = head.get(..HEADER_LEN) {
        if parse_header(h.try_into().expect("12 bytes")).is_some() {
            return Compression::None;
        }
    }
    sniff_magic(head).unwrap_or(Compression::None)
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
    // Peek at up to 12 bytes without losing them.
    let mut head = Vec::with_capacity(HEADER_LEN);
    let rest: Box<dyn Read + Send> = match opened {
        Opened::File(mut file, len) => {
            (&mut file)
                .take(HEADER_LEN as u64)
                .read_to_end(&mut head)
                .with_context(|| format!("{name}: read failed"))?;
            if forced.unwrap_or_else(|| sniff(&head)) == Compression::None {
                // The source reads by position, from offset 0.
                return Ok(RecordReader::new(Source::from_file(file, len), Compression::None));
            }
            Box::new(file)
        }
        Opened::Stream(mut raw) => {
            (&mut raw)
                .take(HEADER_LEN as u64)
                .read_to_end(&mut head)
                .with_context(|| format!("{name}: read failed"))?;
            raw
        }
    };
    let compression = forced.unwrap_or_else(|| sniff(&head));
    let joined: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(rest));
    // Inflater, not flate2's readers: it keeps the bytes inflated before a
    // corrupt block and reports a zlib stream cut short.
    let buffered = io::BufReader::with_capacity(COMPRESSED_BUF, joined);
    let mut source = match Inflater::for_compression(buffered, compression) {
        Err(plain) => Source::from_reader(Box::new(plain.into_inner())),
        // A regular file is inflated in full chunks; a pipe eagerly, so
        // that a slow stream's records show at once.
        Ok(inflater) if regular => Source::from_read_ahead(ReadAhead::new(Box::new(inflater))),
        Ok(inflater) => Source::from_read_ahead(ReadAhead::eager(Box::new(inflater))),
    };
    if regular {
        source.set_file_backed();
    }
    Ok(RecordReader::new(source, compression))
}

/// Names the input in a reader error.
pub fn read_error(input: &Input, e: ReadError) -> anyhow::Error {
    let name = input.display();
    match e {
        ReadError::Damage(d) => anyhow::Error::new(d).context(name),
        ReadError::Io(e) => anyhow::Error::new(e).context(format!("{name}: read failed")),
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
}

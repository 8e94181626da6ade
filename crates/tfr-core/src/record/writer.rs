//! The record writer: framing and masked CRCs.

use super::{encode_header, masked_crc, HEADER_LEN};
use std::io::{self, Write};

/// Writes payloads as TFRecord records to any `Write`.
pub struct RecordWriter<W: Write> {
    out: W,
    records: u64,
}

impl<W: Write> RecordWriter<W> {
    /// A writer of records to `out`.
    pub fn new(out: W) -> Self {
        RecordWriter { out, records: 0 }
    }

    /// Frames and writes one payload.
    pub fn write_record(&mut self, payload: &[u8]) -> io::Result<()> {
        self.write_record_with_crc(payload, masked_crc(payload))
    }

    /// Frames and writes one payload whose footer, its masked CRC-32C, is
    /// known (read and checked with it).
    pub fn write_record_with_crc(&mut self, payload: &[u8], crc: u32) -> io::Result<()> {
        self.out.write_all(&encode_header(payload.len() as u64))?;
        self.out.write_all(payload)?;
        self.out.write_all(&crc.to_le_bytes())?;
        self.records += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The output.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The output, the writer done with.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Appends one framed record to `out`: `payload`, with its footer `crc`
/// (its masked CRC-32C, known from reading it).
pub fn append_framed_with_crc(out: &mut Vec<u8>, payload: &[u8], crc: u32) {
    out.extend_from_slice(&encode_header(payload.len() as u64));
    out.extend_from_slice(payload);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// Appends one framed record to `out`, its payload written in place by
/// `payload` (no copy: the header is filled in once the length is known).
/// On error `out` is left as it was.
pub fn append_framed<E>(out: &mut Vec<u8>, payload: impl FnOnce(&mut Vec<u8>) -> Result<(), E>) -> Result<(), E> {
    let start = out.len();
    out.resize(start + HEADER_LEN, 0);
    if let Err(e) = payload(out) {
        out.truncate(start);
        return Err(e);
    }
    let len = out.len() - start - HEADER_LEN;
    out[start..start + HEADER_LEN].copy_from_slice(&encode_header(len as u64));
    let crc = masked_crc(&out[start + HEADER_LEN..]);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_contract_vectors() {
        let mut w = RecordWriter::new(Vec::new());
        w.write_record(b"foo").unwrap();
        w.write_record(b"").unwrap();
        let expected: Vec<u8> = [
            &[3, 0, 0, 0, 0, 0, 0, 0, 0xb0, 0x99, 0x49, 0x0e][..],
            b"foo",
            &[0x61, 0x8a, 0xbe, 0xfe],
            &[0; 8],
            &[0x29, 0x03, 0x98, 0x07],
            &[0xd8, 0xea, 0x82, 0xa2],
        ]
        .concat();
        assert_eq!(w.into_inner(), expected);
        let mut framed = vec![9];
        append_framed(&mut framed, |o| {
            o.extend_from_slice(b"foo");
            Ok::<_, ()>(())
        })
        .unwrap();
        append_framed(&mut framed, |_| Ok::<_, ()>(())).unwrap();
        assert_eq!(
            append_framed(&mut framed, |o| {
                o.push(1);
                Err(())
            }),
            Err(())
        );
        assert_eq!(framed[1..], expected[..]);
        assert_eq!(framed[0], 9);
    }
}

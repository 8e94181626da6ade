//! The record writer: framing and masked CRCs.

use super::{encode_header, masked_crc};
use std::io::{self, Write};

/// Writes payloads as TFRecord records to any `Write`.
pub struct RecordWriter<W: Write> {
    out: W,
    records: u64,
}

impl<W: Write> RecordWriter<W> {
    pub fn new(out: W) -> Self {
        RecordWriter { out, records: 0 }
    }

    /// Frames and writes one payload.
    pub fn write_record(&mut self, payload: &[u8]) -> io::Result<()> {
        self.out.write_all(&encode_header(payload.len() as u64))?;
        self.out.write_all(payload)?;
        self.out.write_all(&masked_crc(payload).to_le_bytes())?;
        self.records += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    pub fn into_inner(self) -> W {
        self.out
    }
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
    }
}

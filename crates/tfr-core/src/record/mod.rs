//! TFRecord framing: masked CRC-32C, opening an input, the streaming
//! reader, the writer, damage kinds, the resynchronising scanner and the
//! parallel walk of one large file.
//!
//! A file is records back to back, with no header or index:
//! `u64 length (LE) | u32 masked_crc32c(length bytes) | data | u32 masked_crc32c(data)`.

mod damage;
pub mod index_file;
mod open;
mod parallel;
pub mod part;
mod reader;
mod resync;
pub mod shards;
mod source;
mod writer;

pub use damage::{counted, diagnose_not_tfrecord, human_size, Damage, DamageKind, ReadError};
pub use open::{open, read_error, sniff, OpenOptions};
pub use parallel::{clean_prefix, next_start, pieces, seek_near, Check, CleanPrefix, Pieces, PIECE_ALIGN};
pub use reader::{Record, RecordMeta, RecordReader};
/// The scanner's invariants, for the fuzz targets.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub use resync::check as resync_check;
pub use resync::{Fault, LongRecord, Scanner, Step, HOLD_LIMIT};
pub use source::Source;
pub use writer::{append_framed, append_framed_with_crc, RecordWriter};

/// The largest payload a command holds in memory unless told otherwise
/// (`--max-record-size`): far beyond real records (an image, a video clip),
/// and a bogus length stops here instead of filling memory.
pub const DEFAULT_MAX_RECORD: u64 = 1 << 30;

/// Bytes in a record header: the length and its masked CRC.
pub const HEADER_LEN: usize = 12;
/// Bytes after the payload: its masked CRC.
pub const FOOTER_LEN: usize = 4;

const MASK_DELTA: u32 = 0xa282_ead8;

/// Masks a CRC-32C the way TFRecord stores it: rotate right by 15, add a constant.
#[inline]
pub fn mask(crc: u32) -> u32 {
    crc.rotate_right(15).wrapping_add(MASK_DELTA)
}

/// The masked CRC-32C (Castagnoli) of `data`, as stored in a TFRecord.
#[inline]
pub fn masked_crc(data: &[u8]) -> u32 {
    mask(crc32c::crc32c(data))
}

/// The masked CRC-32C of a header's 8 length bytes, by slicing-by-8 tables.
///
/// The same value as [`masked_crc`], but about a fifth of the instructions:
/// for 8 bytes the `crc32c` crate's call, feature check and block set-up
/// cost ~90 instructions, paid once per record (a tenth of a gzip count's
/// parsing thread). The hardware instruction itself would need `unsafe`.
#[inline]
pub fn masked_crc_u64(bytes: [u8; 8]) -> u32 {
    let v = u64::from_le_bytes(bytes) ^ 0xffff_ffff;
    let t = &CRC32C_SLICES;
    let b = |i: u32| (v >> (8 * i)) as u8 as usize;
    let crc = t[7][b(0)] ^ t[6][b(1)] ^ t[5][b(2)] ^ t[4][b(3)] ^ t[3][b(4)] ^ t[2][b(5)] ^ t[1][b(6)] ^ t[0][b(7)];
    mask(!crc)
}

/// Slicing-by-8 tables for CRC-32C (reflected polynomial 0x82F63B78):
/// `[0]` is the byte-at-a-time table, `[k][i]` the CRC of byte `i`
/// followed by `k` zero bytes.
static CRC32C_SLICES: [[u32; 256]; 8] = crc32c_slices();

const fn crc32c_slices() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0x82f6_3b78 } else { c >> 1 };
            bit += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[k - 1][i];
            t[k][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            i += 1;
        }
        k += 1;
    }
    t
}

/// The 12-byte header announcing a payload of `len` bytes.
pub fn encode_header(len: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&len.to_le_bytes());
    let crc = masked_crc_u64(len.to_le_bytes());
    h[8..].copy_from_slice(&crc.to_le_bytes());
    h
}

/// Parses a header: the payload length when its CRC checks, `None` otherwise.
#[inline]
pub fn parse_header(h: &[u8; HEADER_LEN]) -> Option<u64> {
    let len_bytes: [u8; 8] = h[..8].try_into().expect("8 bytes");
    let stored = u32::from_le_bytes(h[8..].try_into().expect("4 bytes"));
    (masked_crc_u64(len_bytes) == stored).then(|| u64::from_le_bytes(len_bytes))
}

/// A file image of records with these payloads (for tests).
#[cfg(test)]
pub(crate) fn file_of<P: AsRef<[u8]>>(payloads: &[P]) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new());
    for p in payloads {
        w.write_record(p.as_ref()).unwrap();
    }
    w.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_vectors_from_the_contract() {
        // Record "foo": 03 00.. | b0 99 49 0e | foo | 61 8a be fe
        let h = encode_header(3);
        assert_eq!(h, [3, 0, 0, 0, 0, 0, 0, 0, 0xb0, 0x99, 0x49, 0x0e]);
        assert_eq!(masked_crc(b"foo").to_le_bytes(), [0x61, 0x8a, 0xbe, 0xfe]);
        // The empty record: 8 zero bytes, 29 03 98 07, then d8 ea 82 a2.
        let h = encode_header(0);
        assert_eq!(&h[8..], &[0x29, 0x03, 0x98, 0x07]);
        assert_eq!(masked_crc(b"").to_le_bytes(), [0xd8, 0xea, 0x82, 0xa2]);
        assert_eq!(parse_header(&encode_header(1 << 62)), Some(1 << 62));
        let mut bad = encode_header(3);
        bad[0] ^= 1;
        assert_eq!(parse_header(&bad), None);
    }

    #[test]
    fn header_crc_tables_agree_with_crc32c() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..100_000u64 {
            // Small lengths (the common case), then scattered 64-bit values.
            let v = if i < 70_000 { i } else { x };
            x = x.rotate_left(13).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ i;
            assert_eq!(masked_crc_u64(v.to_le_bytes()), masked_crc(&v.to_le_bytes()), "{v:#x}");
        }
    }
}

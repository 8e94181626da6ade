//! What can be wrong with a TFRecord input, and how it is reported.

use crate::io::Compression;
use std::fmt;
use std::io;

/// The kind of damage found at one place in an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DamageKind {
    /// The input ends inside a 12-byte header (TensorFlow silently ignores this).
    TruncatedHeader {
        /// The header bytes there are.
        bytes: usize,
    },
    /// The header checks, but the input ends before the payload and its CRC do.
    TruncatedPayload {
        /// The payload length the header announces.
        length: u64,
        /// The bytes there are after the header.
        present: u64,
    },
    /// The header's length field fails its CRC.
    LengthCrcMismatch,
    /// The payload fails its CRC.
    DataCrcMismatch,
    /// The header checks but announces more bytes than the whole input holds.
    LengthBeyondEnd {
        /// The payload length the header announces.
        length: u64,
        /// The bytes left in the input after the header.
        remaining: u64,
    },
    /// The gzip/zlib/snappy stream is corrupt or cut short.
    CorruptCompressed {
        /// The decompressor's reason.
        reason: String,
    },
    /// Bytes after the last record that do not form a record.
    TrailingGarbage {
        /// How many bytes.
        bytes: u64,
    },
    /// The input does not start with a TFRecord header.
    NotTfrecord {
        /// What the input looks like instead, in words.
        hint: String,
    },
    /// The header checks but announces a payload longer than the reader
    /// may hold (`--max-record-size`): not damage, a limit.
    TooLarge {
        /// The payload length the header announces.
        length: u64,
        /// The most the reader holds.
        limit: u64,
    },
}

impl DamageKind {
    /// A stable machine name for `--json` output.
    pub fn code(&self) -> &'static str {
        match self {
            DamageKind::TruncatedHeader { .. } => "truncated_header",
            DamageKind::TruncatedPayload { .. } => "truncated_payload",
            DamageKind::LengthCrcMismatch => "length_crc",
            DamageKind::DataCrcMismatch => "data_crc",
            DamageKind::LengthBeyondEnd { .. } => "length_beyond_end",
            DamageKind::CorruptCompressed { .. } => "corrupt_compressed",
            DamageKind::TrailingGarbage { .. } => "trailing_garbage",
            DamageKind::NotTfrecord { .. } => "not_tfrecord",
            DamageKind::TooLarge { .. } => "too_large",
        }
    }
}

impl fmt::Display for DamageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DamageKind::TruncatedHeader { bytes } => write!(
                f,
                "truncated header ({bytes} trailing byte{} where a 12-byte header should be)",
                plural(*bytes as u64)
            ),
            DamageKind::TruncatedPayload { length, present } => write!(
                f,
                "truncated payload (the record needs {} bytes after its header, only {present} present)",
                length + 4
            ),
            DamageKind::LengthCrcMismatch => write!(f, "length checksum mismatch"),
            DamageKind::DataCrcMismatch => write!(f, "data checksum mismatch"),
            DamageKind::LengthBeyondEnd { length, remaining } => write!(
                f,
                "length {length} beyond the end of input ({remaining} byte{} left after the header)",
                plural(*remaining)
            ),
            DamageKind::CorruptCompressed { reason } => {
                write!(f, "corrupt compressed stream ({reason})")
            }
            DamageKind::TrailingGarbage { bytes } => {
                write!(
                    f,
                    "trailing garbage ({bytes} byte{} that are not a record)",
                    plural(*bytes)
                )
            }
            DamageKind::NotTfrecord { hint } => write!(f, "not a TFRecord file ({hint})"),
            DamageKind::TooLarge { length, limit } => write!(
                f,
                "record of {length} bytes, over the --max-record-size limit ({}) on a record held in memory",
                human_size(*limit)
            ),
        }
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A byte count in binary units when it is a whole number of them: `1 GiB`,
/// `512 MiB`, else `N bytes`.
pub fn human_size(n: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if n >= 1 << shift && n % (1 << shift) == 0 {
            return format!("{} {unit}", n >> shift);
        }
    }
    counted(n, "byte")
}

/// `n` things: "1 record", "2 records".
pub fn counted(n: u64, what: &str) -> String {
    format!("{n} {what}{}", plural(n))
}

/// Damage at a place in an input: which record, at which byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// What is wrong.
    pub kind: DamageKind,
    /// Index of the record that could not be read (0-based).
    pub record: u64,
    /// Byte offset of that record's header, in the decompressed stream for
    /// compressed input.
    pub offset: u64,
    /// The input's compression (an offset is in its decompressed stream).
    pub compression: Compression,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let DamageKind::NotTfrecord { .. } = self.kind {
            return write!(f, "{}", self.kind);
        }
        write!(f, "record {} at byte {}", self.record, self.offset)?;
        if self.compression != Compression::None {
            write!(f, " of the decompressed {} stream", self.compression.name())?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for Damage {}

/// Why a record could not be read: damage in the input, or an I/O failure.
#[derive(Debug)]
pub enum ReadError {
    /// Damage in the input.
    Damage(Damage),
    /// The input could not be read.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Damage(d) => d.fmt(f),
            ReadError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Damage(_) => None,
            ReadError::Io(e) => Some(e),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Says what the first bytes of an input that is not a TFRecord file look
/// like: a hint for the user.
pub fn diagnose_not_tfrecord(head: &[u8], compression: Compression) -> String {
    let text = String::from_utf8_lossy(&head[..head.len().min(512)]);
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let lower = trimmed.to_ascii_lowercase();
    if head.is_empty() {
        return "empty".into();
    }
    if compression == Compression::None && head.starts_with(&[0x1f, 0x8b]) {
        return "it is gzip-compressed: drop `--compression none`".into();
    }
    if compression == Compression::None && super::open::sniff(head) == Compression::Snappy {
        return "it is SNAPPY-compressed: drop `--compression none`".into();
    }
    if lower.starts_with("version https://git-lfs.github.com/spec") {
        return "it is a Git LFS pointer: run `git lfs pull` to fetch the real file".into();
    }
    if lower.starts_with("<!doctype html") || lower.starts_with("<html") || lower.contains("<html") {
        return "it is an HTML page: was the download URL a web page instead of the file?".into();
    }
    let inner = match compression {
        Compression::None => String::new(),
        c => format!(" after {} decompression", c.name()),
    };
    let printable = head
        .iter()
        .take(512)
        .filter(|&&b| b == b'\n' || b == b'\r' || b == b'\t' || (0x20..0x7f).contains(&b) || b >= 0x80)
        .count();
    let sample = &head[..head.len().min(512)];
    // Text has no NUL bytes (a run of zeros is valid UTF-8, but not text).
    let looks_text =
        !sample.contains(&0) && (std::str::from_utf8(sample).is_ok() || printable * 10 >= sample.len() * 9);
    if looks_text {
        let what = if trimmed.starts_with('{') || trimmed.starts_with('[') {
            "JSON text"
        } else {
            "text"
        };
        return format!("the input{inner} is {what}: was it meant for `tfr from-jsonl`, or is it the wrong file?");
    }
    match compression {
        Compression::None => "the first 12 bytes are not a valid record header: \
             is it compressed with something other than gzip/zlib/snappy, or not a TFRecord at all?"
            .into(),
        c => format!(
            "the first 12 bytes{inner} are not a valid record header: wrong `--compression`? it was read as {}",
            c.name()
        ),
    }
}

//! Bytes in and out, below the record layer: where inputs come from, how
//! they are decompressed, and how outputs are written safely.
//!
//! - [`Compression`] and [`sniff_magic`]: the one compression enum and the
//!   one magic-byte sniffer (the record layer adds its "a valid record
//!   header wins" rule in record/open.rs).
//! - [`aux_file`]: schema and statistics files, read within a size limit.
//! - [`at`]: positional reads of a file or an object in a store.
//! - [`input`]: command-line inputs (paths, `-`, quoted globs) as bytes.
//! - [`inflate`]: gzip/zlib decoding that never loses output; [`readahead`]
//!   runs it on a second thread.
//! - [`snappy`]: TensorFlow's SNAPPY stream, both ways.
//! - [`decoder`]: the decoder for a [`Compression`]; [`Corrupt`], the one
//!   error a decoder raises for damaged data, told apart from an I/O failure
//!   by [`corrupt`].
//! - [`deflate`]: gzip output compressed on several threads.
//! - [`output_file`]: atomic output files (temporary file, renamed on success;
//!   an upload completed on success).
//! - [`output_set`]: several outputs that appear together or not at all
//!   (shards, splits), and the Beam/TFDS shard names.
//! - [`same_file`]: refusing an output that is one of the inputs.
//! - [`remote`]: object stores and HTTP(S) (`s3://`, `gs://`, `az://`,
//!   `https://`), read by ranges, written by multipart upload.
//!
//! Nothing here knows about TFRecord framing or tf.train.Example.

pub mod at;
pub mod aux_file;
pub mod braces;
pub mod deflate;
pub mod inflate;
pub mod input;
pub mod made_dirs;
pub mod output_file;
pub mod output_set;
pub mod readahead;
pub mod remote;
pub mod same_file;
pub mod snappy;

pub use input::Input;
pub use output_file::AtomicOutput;
pub use output_set::OutputSet;

/// How a stream's bytes are compressed (the whole file is one stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain, not compressed.
    None,
    /// gzip (TensorFlow: compression_type="GZIP"); concatenated members are one stream.
    Gzip,
    /// zlib (TensorFlow: compression_type="ZLIB").
    Zlib,
    /// TensorFlow's SNAPPY stream (tf.data: compression_type="SNAPPY"):
    /// blocks of raw snappy, each after its 4-byte big-endian length.
    Snappy,
}

impl Compression {
    /// The compression an output's name announces: `.gz` gzip, `.zz` or
    /// `.zlib` zlib, `.snappy` TensorFlow's SNAPPY, anything else (and `-`,
    /// stdout) none. Case is ignored; for a URL the query (`?...`) is not
    /// part of the name. Every TFRecord writer picks its compression this
    /// way unless `--compression` forces one ([`Compression::for_output`]).
    pub fn from_name(path: &std::path::Path) -> Compression {
        let bytes = path.as_os_str().as_encoded_bytes();
        let bytes = match remote::parse(bytes) {
            Some(_) => bytes.split(|&b| b == b'?').next().unwrap_or(bytes),
            None => bytes,
        };
        let name = bytes
            .rsplit(|&b| b == b'/')
            .next()
            .unwrap_or(bytes)
            .to_ascii_lowercase();
        let ends = |suffix: &[u8]| name.len() > suffix.len() && name.ends_with(suffix);
        if ends(b".gz") {
            Compression::Gzip
        } else if ends(b".zz") || ends(b".zlib") {
            Compression::Zlib
        } else if ends(b".snappy") {
            Compression::Snappy
        } else {
            Compression::None
        }
    }

    /// The compression of an output: `forced` (`--compression`), else the
    /// one its name announces ([`Compression::from_name`]).
    pub fn for_output(path: &std::path::Path, forced: Option<Compression>) -> Compression {
        forced.unwrap_or_else(|| Compression::from_name(path))
    }

    /// Human name, as TensorFlow's `compression_type` spells it in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Zlib => "zlib",
            Compression::Snappy => "snappy",
        }
    }
}

/// The compression announced by a stream's first bytes: the gzip magic
/// `1f 8b`, or a zlib header (deflate method, window up to 32 KiB, header
/// checksum divisible by 31); `None` for anything else.
pub fn sniff_magic(head: &[u8]) -> Option<Compression> {
    match head {
        [0x1f, 0x8b, ..] => Some(Compression::Gzip),
        [cmf, flg, ..] if cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0 => {
            Some(Compression::Zlib)
        }
        _ => None,
    }
}

/// The decoder of a `compression`ed stream, as one reader of its
/// decompressed bytes; plain data needs none and gets its input back as the
/// error. Decoders never lose output: an error comes after every byte
/// decoded before it.
pub fn decoder<R: std::io::BufRead + Send + 'static>(
    input: R,
    compression: Compression,
) -> Result<Box<dyn std::io::Read + Send>, R> {
    match compression {
        Compression::None => Err(input),
        Compression::Gzip => Ok(Box::new(inflate::Inflater::gzip(input))),
        Compression::Zlib => Ok(Box::new(inflate::Inflater::zlib(input))),
        Compression::Snappy => Ok(Box::new(snappy::SnappyReader::new(input))),
    }
}

/// Damage a decoder found in its compressed input (a corrupt gzip, zlib
/// or snappy stream, or one cut short), as opposed to a failure to read
/// that input (a disk error, a connection cut mid-object).
///
/// Only the decoders make one, always inside an [`std::io::Error`] (of kind
/// `InvalidData`, or `UnexpectedEof` when cut short) so that it passes
/// through readers unchanged; [`corrupt`] finds it again. Any other error
/// out of a decoder is its input's, and is reported as a read failure.
#[derive(Debug)]
pub struct Corrupt {
    message: String,
    cut_short: bool,
}

impl Corrupt {
    /// An `io::Error` for damaged data, `message` saying what is wrong.
    pub fn data(message: impl Into<String>) -> std::io::Error {
        Corrupt::wrap(message.into(), false)
    }

    /// An `io::Error` for a stream that ends inside a block, header or
    /// trailer (its input ended cleanly, too early).
    pub fn cut_short(message: impl Into<String>) -> std::io::Error {
        Corrupt::wrap(message.into(), true)
    }

    fn wrap(message: String, cut_short: bool) -> std::io::Error {
        let kind = match cut_short {
            true => std::io::ErrorKind::UnexpectedEof,
            false => std::io::ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, Corrupt { message, cut_short })
    }

    /// Whether the stream merely ends too early (rather than holding bad data).
    pub fn is_cut_short(&self) -> bool {
        self.cut_short
    }
}

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Corrupt {}

/// The damage a decoder reported, when `e` is one (the one test of
/// "damage or read failure" for a decompressed stream).
pub fn corrupt(e: &std::io::Error) -> Option<&Corrupt> {
    e.get_ref()?.downcast_ref::<Corrupt>()
}

/// Where the library's warnings go (see [`set_warnings`]).
static WARNINGS: std::sync::OnceLock<fn(std::fmt::Arguments<'_>)> = std::sync::OnceLock::new();

/// Sends the warnings of the io layer (a listed object skipped for its
/// name, …) to `print`; without it they are dropped (the library prints
/// nothing itself). The `tfr` binary prints each as one line on stderr.
pub fn set_warnings(print: fn(std::fmt::Arguments<'_>)) {
    let _ = WARNINGS.set(print);
}

/// Hands one warning (or note) to the program's printer, if it set one.
pub fn warn(msg: std::fmt::Arguments<'_>) {
    if let Some(print) = WARNINGS.get() {
        print(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_is_told_from_read_failures() {
        let e = Corrupt::data("bad block");
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(e.to_string(), "bad block");
        assert!(!corrupt(&e).expect("damage").is_cut_short());
        let e = Corrupt::cut_short("ends early");
        assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
        assert!(corrupt(&e).expect("damage").is_cut_short());
        // What a connection cut mid-object or a disk error looks like: never damage.
        for e in [
            std::io::Error::other("the connection ended 5 bytes before the end of a range"),
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not from a decoder"),
            std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "failed to fill whole buffer"),
            std::io::Error::from_raw_os_error(5),
        ] {
            assert!(corrupt(&e).is_none(), "{e}");
        }
    }

    #[test]
    fn sniffs_magic_bytes() {
        assert_eq!(sniff_magic(&[0x1f, 0x8b, 8, 0]), Some(Compression::Gzip));
        assert_eq!(sniff_magic(&[0x78, 0x9c, 1, 2]), Some(Compression::Zlib));
        assert_eq!(sniff_magic(&[0x78, 0x01]), Some(Compression::Zlib));
        assert_eq!(sniff_magic(&[0x78, 0x9d]), None);
        assert_eq!(sniff_magic(b"hello"), None);
        assert_eq!(sniff_magic(b"{\"a\": 1}"), None);
        assert_eq!(sniff_magic(b""), None);
    }
}

//! Inputs: paths, `-` for stdin, quoted globs, and compression sniffing.

use crate::inflate::{self, Inflater};
use crate::record::{parse_header, Compression, RecordReader, Source, HEADER_LEN};
use anyhow::{bail, Context, Result};
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;

/// One input named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Stdin,
    Path(PathBuf),
}

impl Input {
    /// How the input is named in messages and output.
    pub fn display(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(p) => p.display().to_string(),
        }
    }
}

/// Turns command-line arguments into inputs: `-` is stdin, a pattern with
/// `*`, `?` or `[` that is not an existing path is expanded (sorted), and no
/// argument at all means stdin when it is not a terminal.
pub fn expand(args: &[String]) -> Result<Vec<Input>> {
    if args.is_empty() {
        if io::stdin().is_terminal() {
            bail!("no input files given (pass file names, or pipe data into stdin with `-`)");
        }
        return Ok(vec![Input::Stdin]);
    }
    let mut inputs = Vec::new();
    let mut stdin_seen = false;
    for arg in args {
        if arg == "-" {
            if stdin_seen {
                bail!("stdin (`-`) can only be read once");
            }
            stdin_seen = true;
            inputs.push(Input::Stdin);
        } else if is_pattern(arg) && !std::path::Path::new(arg).exists() {
            let mut matched: Vec<PathBuf> = glob::glob(arg)
                .with_context(|| format!("bad glob pattern '{arg}'"))?
                .collect::<Result<_, _>>()
                .with_context(|| format!("expanding '{arg}'"))?;
            matched.retain(|p| !p.is_dir());
            if matched.is_empty() {
                bail!("no files match '{arg}'");
            }
            matched.sort();
            inputs.extend(matched.into_iter().map(Input::Path));
        } else {
            inputs.push(Input::Path(PathBuf::from(arg)));
        }
    }
    Ok(inputs)
}

/// The inputs' total size in bytes (for a progress bar), when every input
/// is a file whose size is known.
pub fn total_size(inputs: &[Input]) -> Option<u64> {
    inputs
        .iter()
        .map(|i| match i {
            Input::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            Input::Stdin => None,
        })
        .sum()
}

fn is_pattern(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// `--compression` for reading: detect from the first bytes, or force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CompressionArg {
    /// Detect from the first bytes (gzip magic, zlib header, else plain).
    #[default]
    Auto,
    None,
    Gzip,
    Zlib,
}

impl CompressionArg {
    pub fn forced(self) -> Option<Compression> {
        match self {
            CompressionArg::Auto => None,
            CompressionArg::None => Some(Compression::None),
            CompressionArg::Gzip => Some(Compression::Gzip),
            CompressionArg::Zlib => Some(Compression::Zlib),
        }
    }
}

/// Decides the compression of an input from its first bytes.
///
/// A valid 12-byte record header means plain (even if it looks like zlib);
/// then the gzip magic `1f 8b`; then a zlib header (deflate method, window
/// up to 32 KiB, header checksum divisible by 31); else plain.
pub fn sniff(head: &[u8]) -> Compression {
    if let Some(h) = head.get(..HEADER_LEN) {
        if parse_header(h.try_into().expect("12 bytes")).is_some() {
            return Compression::None;
        }
    }
    match head {
        [0x1f, 0x8b, ..] => Compression::Gzip,
        [cmf, flg, ..] if cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0 => {
            Compression::Zlib
        }
        _ => Compression::None,
    }
}

/// Size of the read buffer in front of a decompressor.
const COMPRESSED_BUF: usize = 256 * 1024;

/// Opens an input as a record reader, detecting or forcing compression.
pub fn open(input: &Input, forced: Option<Compression>) -> Result<RecordReader> {
    let (raw, size): (Box<dyn Read + Send>, Option<(File, u64)>) = match input {
        Input::Stdin => (Box::new(io::stdin()), None),
        Input::Path(p) => {
            let file = File::open(p).with_context(|| format!("{}: cannot open", p.display()))?;
            let meta = file
                .metadata()
                .with_context(|| format!("{}: cannot stat", p.display()))?;
            if meta.is_dir() {
                bail!("{}: is a directory", p.display());
            }
            if meta.is_file() {
                (Box::new(io::empty()), Some((file, meta.len())))
            } else {
                (Box::new(file), None)
            }
        }
    };
    let name = input.display();
    let regular = size.is_some();
    // Peek at up to 12 bytes without losing them.
    let (mut head, rest): (Vec<u8>, Box<dyn Read + Send>) = match size {
        Some((mut file, len)) => {
            let mut head = Vec::with_capacity(HEADER_LEN);
            (&mut file)
                .take(HEADER_LEN as u64)
                .read_to_end(&mut head)
                .with_context(|| format!("{name}: read failed"))?;
            let compression = forced.unwrap_or_else(|| sniff(&head));
            if compression == Compression::None {
                // The source reads by position, from offset 0.
                return Ok(RecordReader::new(Source::from_file(file, len), Compression::None));
            }
            (head, Box::new(file))
        }
        None => {
            let mut raw = raw;
            let mut head = Vec::with_capacity(HEADER_LEN);
            (&mut raw)
                .take(HEADER_LEN as u64)
                .read_to_end(&mut head)
                .with_context(|| format!("{name}: read failed"))?;
            (head, raw)
        }
    };
    let compression = forced.unwrap_or_else(|| sniff(&head));
    let joined: Box<dyn Read + Send> = Box::new(io::Cursor::new(std::mem::take(&mut head)).chain(rest));
    let stream: Box<dyn Read + Send> = match compression {
        Compression::None => joined,
        // Inflater, not flate2's readers: it keeps the bytes inflated before
        // a corrupt block and reports a zlib stream cut short.
        Compression::Gzip => Box::new(Inflater::new(
            io::BufReader::with_capacity(COMPRESSED_BUF, joined),
            inflate::Format::Gzip,
        )),
        Compression::Zlib => Box::new(Inflater::new(
            io::BufReader::with_capacity(COMPRESSED_BUF, joined),
            inflate::Format::Zlib,
        )),
    };
    // Inflate on a second thread while this one walks the records.
    let mut source = match compression {
        Compression::None => Source::from_reader(stream),
        _ => Source::from_read_ahead(crate::readahead::ReadAhead::new(stream)),
    };
    if regular {
        source.set_file_backed();
    }
    Ok(RecordReader::new(source, compression))
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
        let h = crate::record::encode_header(0x9c78);
        assert_eq!(&h[..2], &[0x78, 0x9c]);
        assert_eq!(sniff(&h), Compression::None);
    }
}

//! Inputs: paths, `-` for stdin, quoted globs; opening them as bytes.

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

/// Size of the read buffer in front of a decompressor.
pub(crate) const COMPRESSED_BUF: usize = 256 * 1024;

impl Input {
    /// Opens the input as a byte stream: stdin, or a file that is not a
    /// directory. A regular file comes with its size (it can be read by
    /// position and split between threads).
    pub fn open(&self) -> Result<Opened> {
        match self {
            Input::Stdin => Ok(Opened::Stream(Box::new(io::stdin()))),
            Input::Path(p) => {
                let file = File::open(p).with_context(|| format!("{}: cannot open", p.display()))?;
                let meta = file
                    .metadata()
                    .with_context(|| format!("{}: cannot stat", p.display()))?;
                if meta.is_dir() {
                    bail!("{}: is a directory", p.display());
                }
                if meta.is_file() {
                    Ok(Opened::File(file, meta.len()))
                } else {
                    Ok(Opened::Stream(Box::new(file)))
                }
            }
        }
    }

    /// Opens the input as a byte stream, inflated (on a second thread) when
    /// its first bytes are a gzip or zlib header ([`super::sniff_magic`]).
    /// For inputs that are not records: from-jsonl's JSON lines.
    pub fn open_decompressed(&self) -> Result<Box<dyn Read + Send>> {
        let name = self.display();
        let mut src: Box<dyn Read + Send> = match self.open()? {
            Opened::File(f, _) => Box::new(f),
            Opened::Stream(s) => s,
        };
        let mut head = Vec::with_capacity(3);
        (&mut src)
            .take(3)
            .read_to_end(&mut head)
            .with_context(|| format!("{name}: read failed"))?;
        let joined = io::Cursor::new(head.clone()).chain(src);
        let compression = super::sniff_magic(&head).unwrap_or(super::Compression::None);
        let buffered = io::BufReader::with_capacity(COMPRESSED_BUF, joined);
        Ok(match super::inflate::Inflater::for_compression(buffered, compression) {
            Ok(inflater) => Box::new(super::readahead::ReadAhead::new(Box::new(inflater))),
            Err(plain) => Box::new(plain.into_inner()),
        })
    }
}

/// An opened input.
pub enum Opened {
    /// A regular file and its size.
    File(File, u64),
    /// stdin, a pipe, a device.
    Stream(Box<dyn Read + Send>),
}

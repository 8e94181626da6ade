//! Any input tfr reads, as Parquet's and Arrow IPC's readers need it:
//! positional reads of something with a size. A file or an object is read
//! where it is ([`crate::io::at::At`]); a stream (stdin, a pipe) that starts
//! with Parquet's or an Arrow IPC file's magic is first copied to an unnamed
//! temporary file (removed by the OS when closed); an Arrow IPC stream is
//! read as it comes; anything else is not read past its first 8 bytes.

use crate::error::{Context, Result};
use crate::io::at::{At, AtReader};
use crate::io::input::{Input, Opened};
use bytes::Bytes;
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};
use std::io::{self, BufReader, Read, Seek, SeekFrom};

/// An input read by position, with its size.
#[derive(Clone)]
pub struct Source {
    at: At,
    len: u64,
    name: String,
    /// An Arrow IPC stream not copied (see [`Source::take_stream`]).
    live: Option<Live>,
}

/// A stream taken once by whichever clone of the [`Source`] asks first.
type Live = std::sync::Arc<std::sync::Mutex<Option<Box<dyn Read + Send>>>>;

impl Source {
    /// Opens an input; a stream is copied to a temporary file first.
    pub fn open(input: &Input) -> Result<Source> {
        let name = input.display();
        let (at, len) = match input.open()? {
            Opened::File(f, len) => (At::file(f), len),
            Opened::Object(at, len) => (at, len),
            Opened::Stream(mut s) => {
                // The magic first: a stream that is neither Parquet nor
                // Arrow is not copied (only its first bytes, for the
                // message), and an Arrow IPC stream is read as it comes.
                let mut head = Vec::with_capacity(8);
                (&mut s)
                    .take(8)
                    .read_to_end(&mut head)
                    .with_context(|| format!("{name}: read failed"))?;
                let mut tmp = tempfile::tempfile().context("creating a temporary file for a stream input")?;
                io::Write::write_all(&mut tmp, &head).with_context(|| format!("{name}: writing a temporary file"))?;
                let mut len = head.len() as u64;
                if head.starts_with(&[0xff; 4]) {
                    let live = Box::new(io::Cursor::new(head).chain(s));
                    let live: Box<dyn Read + Send> = live;
                    return Ok(Source {
                        at: At::file(tmp),
                        len,
                        name,
                        live: Some(std::sync::Arc::new(std::sync::Mutex::new(Some(live)))),
                    });
                }
                if head.starts_with(b"PAR1") || head.starts_with(b"ARROW1") {
                    len += io::copy(&mut s, &mut tmp).with_context(|| format!("{name}: read failed"))?;
                }
                (At::file(tmp), len)
            }
        };
        Ok(Source {
            at,
            len,
            name,
            live: None,
        })
    }

    /// An Arrow IPC stream from stdin or a pipe, read as it comes (taken
    /// once; its size and positional reads cover only its first bytes).
    pub fn take_stream(&self) -> Option<Box<dyn Read + Send>> {
        self.live.as_ref().and_then(|l| l.lock().ok()?.take())
    }

    /// The input's name as shown in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its size in bytes.
    pub fn size(&self) -> u64 {
        self.len
    }

    /// The first `n` bytes (fewer if it is shorter).
    pub fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        let mut buf = vec![0; n.min(self.len as usize)];
        self.at.read_exact_at(&mut buf, 0)?;
        Ok(buf)
    }

    /// Fills `buf` from `offset`; false if the input ends first.
    pub fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<bool> {
        self.at.read_exact_at(buf, offset)
    }

    /// A sequential, seekable reader from the start (Arrow IPC).
    pub fn reader(&self) -> SeekReader {
        SeekReader {
            at: self.at.clone(),
            pos: 0,
            len: self.len,
        }
    }
}

impl Length for Source {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for Source {
    type T = BufReader<AtReader>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        Ok(BufReader::with_capacity(
            64 * 1024,
            AtReader::new(self.at.clone(), start),
        ))
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        // A length read from a damaged footer is checked before any
        // allocation: never more than the file holds.
        let fits = start.checked_add(length as u64).is_some_and(|end| end <= self.len);
        if !fits {
            return Err(ParquetError::EOF(format!(
                "{length} bytes at offset {start} are past the end of the file ({} bytes)",
                self.len
            )));
        }
        let mut buf = vec![0; length];
        match self.at.read_exact_at(&mut buf, start) {
            Ok(true) => Ok(Bytes::from(buf)),
            Ok(false) => Err(ParquetError::EOF(format!(
                "the file ended before byte {}",
                start + length as u64
            ))),
            Err(e) => Err(ParquetError::External(Box::new(e))),
        }
    }
}

/// [`Source`] as `Read + Seek`.
pub struct SeekReader {
    at: At,
    pos: u64,
    len: u64,
}

impl Read for SeekReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.at.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for SeekReader {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.pos)
    }
}

//! Any input tfr reads, as Parquet's and Arrow IPC's readers need it:
//! positional reads of something with a size. A file or an object is read
//! where it is ([`crate::io::at::At`]); a stream (stdin, a pipe) is first
//! copied to an unnamed temporary file (removed by the OS when closed).

use crate::io::at::{At, AtReader};
use crate::io::input::{Input, Opened};
use anyhow::{Context, Result};
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
}

impl Source {
    /// Opens an input; a stream is copied to a temporary file first.
    pub fn open(input: &Input) -> Result<Source> {
        let name = input.display();
        let (at, len) = match input.open()? {
            Opened::File(f, len) => (At::file(f), len),
            Opened::Object(at, len) => (at, len),
            Opened::Stream(mut s) => {
                let mut tmp = tempfile::tempfile().context("creating a temporary file for a stream input")?;
                let len = io::copy(&mut s, &mut tmp).with_context(|| format!("{name}: read failed"))?;
                (At::file(tmp), len)
            }
        };
        Ok(Source { at, len, name })
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

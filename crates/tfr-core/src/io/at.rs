//! Bytes read by position: a regular file, or an object in a store.
//!
//! The record layer reads a plain input through [`At`] whatever it is: it
//! skips payloads by arithmetic (count's header hops, `cat --skip`), reads
//! a stretch again (verify-crc's resynchronisation) and, for a file only
//! ([`At::splittable`]), splits it between threads (parallel walks). A file
//! answers with `pread`; an object with ranged requests that keep streaming
//! while reads follow on (`io/remote/object.rs`).

use std::fs::File;
use std::io;
use std::sync::Arc;

/// Something read by position. Reads from several threads at once do not
/// disturb each other.
pub trait ReadAt: Send + Sync {
    /// Reads at `offset` into `buf`; 0 only at the end.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;

    /// Whether reads far apart are cheap, so that threads may each walk a
    /// part (a file: yes; an object: no, each jump is a request, and a walk
    /// confirming where records start reads whole records).
    fn splittable(&self) -> bool {
        false
    }

    /// How much a buffered reader should read beyond what it needs: as
    /// much as its buffer holds for a file (a system call per read), a
    /// little for an object, whose reads are copies out of memory already
    /// received (so that `count`, hopping over payloads, does not copy
    /// them).
    fn read_beyond(&self) -> usize {
        usize::MAX
    }
}

/// A handle for positional reads; clones share the one open file or object
/// (so a parallel walk reads what was opened, even if a path is replaced).
#[derive(Clone)]
pub struct At(Arc<dyn ReadAt>);

impl std::fmt::Debug for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("At")
    }
}

impl At {
    /// Positional reads of an open file (its cursor is neither used nor moved).
    pub fn file(file: File) -> At {
        At(Arc::new(file))
    }

    #[cfg_attr(not(feature = "remote"), allow(dead_code))]
    pub(crate) fn new(source: Arc<dyn ReadAt>) -> At {
        At(source)
    }

    /// The bytes `start..start + len` of this file or object, read as a
    /// file or object of their own (offset 0 is `start`; it ends after
    /// `len` bytes): `--part`'s byte ranges. Splittable as the whole is.
    pub fn window(&self, start: u64, len: u64) -> At {
        At(Arc::new(Window {
            whole: self.clone(),
            start,
            len,
        }))
    }

    /// Whether threads may each walk a part of it (see [`ReadAt::splittable`]).
    pub fn splittable(&self) -> bool {
        self.0.splittable()
    }

    /// See [`ReadAt::read_beyond`].
    pub fn read_beyond(&self) -> usize {
        self.0.read_beyond()
    }

    /// Reads at `offset`, retrying interrupted reads; 0 only at the end.
    pub fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        loop {
            match self.0.read_at(buf, offset) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }

    /// Fills `buf` from `offset`; false if the bytes end first.
    pub fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<bool> {
        let mut done = 0;
        while done < buf.len() {
            match self.read_at(&mut buf[done..], offset + done as u64)? {
                0 => return Ok(false),
                n => done += n,
            }
        }
        Ok(true)
    }
}

impl ReadAt for File {
    fn splittable(&self) -> bool {
        true
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        #[cfg(unix)]
        return std::os::unix::fs::FileExt::read_at(self, buf, offset);
        #[cfg(windows)]
        return std::os::windows::fs::FileExt::seek_read(self, buf, offset);
        #[cfg(not(any(unix, windows)))]
        {
            use std::io::{Read, Seek, SeekFrom};
            let mut f = self;
            f.seek(SeekFrom::Start(offset)).and_then(|_| f.read(buf))
        }
    }
}

/// Writes all of `buf` at `offset` of `file` (its position unchanged where
/// the OS has positional writes: threads may write different ranges).
pub fn write_all_at(file: &File, mut buf: &[u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::write_at(file, buf, offset);
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_write(file, buf, offset);
        #[cfg(not(any(unix, windows)))]
        let n = {
            use std::io::{Seek, SeekFrom, Write};
            let mut f = file;
            f.seek(SeekFrom::Start(offset)).and_then(|_| f.write(buf))
        };
        match n {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => {
                buf = &buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A byte range of an [`At`] ([`At::window`]).
struct Window {
    whole: At,
    start: u64,
    len: u64,
}

impl ReadAt for Window {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let left = self.len.saturating_sub(offset);
        let take = usize::try_from(left).unwrap_or(usize::MAX).min(buf.len());
        if take == 0 {
            return Ok(0);
        }
        self.whole.0.read_at(&mut buf[..take], self.start + offset)
    }

    fn splittable(&self) -> bool {
        self.whole.splittable()
    }

    fn read_beyond(&self) -> usize {
        self.whole.read_beyond()
    }
}

/// A sequential reader over positional reads, from an offset on.
pub struct AtReader {
    at: At,
    offset: u64,
}

impl AtReader {
    /// A reader of `at` from byte `offset`.
    pub fn new(at: At, offset: u64) -> AtReader {
        AtReader { at, offset }
    }
}

impl io::Read for AtReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let got = self.at.read_at(buf, self.offset)?;
        self.offset += got as u64;
        Ok(got)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn files_read_by_position_and_in_order() {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"0123456789").unwrap();
        let at = At::file(f);
        let mut buf = [0u8; 4];
        assert_eq!(at.read_at(&mut buf, 3).unwrap(), 4);
        assert_eq!(&buf, b"3456");
        assert!(!at.read_exact_at(&mut buf, 8).unwrap());
        let mut all = String::new();
        AtReader::new(at.clone(), 5).read_to_string(&mut all).unwrap();
        assert_eq!(all, "56789");
    }

    #[test]
    fn a_window_reads_its_bytes_only() {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"0123456789").unwrap();
        let window = At::file(f).window(2, 5);
        assert!(window.splittable());
        let mut all = String::new();
        AtReader::new(window.clone(), 0).read_to_string(&mut all).unwrap();
        assert_eq!(all, "23456");
        let mut buf = [0u8; 8];
        assert_eq!(window.read_at(&mut buf, 3).unwrap(), 2);
        assert_eq!(&buf[..2], b"56");
        assert_eq!(window.read_at(&mut buf, 5).unwrap(), 0);
        assert_eq!(window.read_at(&mut buf, u64::MAX).unwrap(), 0);
    }
}

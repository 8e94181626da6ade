//! The tar side of WebDataset shards: reading members header by header
//! ([`Walk`]; the `tar` crate's header type reads the fields and
//! checksums) and writing them ([`append_member`]: ustar, a PAX header
//! naming the member's feature where the member's name does not, and the
//! long name where it is over 100 bytes).
//!
//! Reading takes regular members only (directories skipped; links,
//! devices and FIFOs refused), checks names (absolute or holding `..`:
//! refused), reads PAX and GNU long names within 1 MiB, and reads a
//! member only as far as its bytes are really there and never over the
//! limit it is given (nothing is allocated from a size field alone).

use super::PAX_FEATURE;
use crate::error::{bail, Context, Result};
use crate::io::input::escape_name;
use std::io::{Read, Write};

/// A PAX or GNU long-name header's data is read up to this.
const MAX_EXTENDED: u64 = 1 << 20;

/// One member of a tar: its name, the feature its PAX header names, its bytes.
pub(super) struct Member {
    pub(super) name: String,
    pub(super) feature: Option<String>,
    pub(super) data: Vec<u8>,
}

/// A regular member's header, its bytes not read yet: [`Walk::read`]
/// reads them (or [`Walk::skip`] passes over them), so a member that
/// would take its sample over the limit is refused unread.
pub(super) struct Head {
    pub(super) name: String,
    pub(super) feature: Option<String>,
    pub(super) size: u64,
}

/// Walks the members of one tar stream.
pub(super) struct Walk<R> {
    src: R,
    name: String,
    /// Bytes read so far (for messages).
    at: u64,
    max: u64,
    done: bool,
}

/// The webdataset library's split of a member name into key and
/// extension (`^((?:.*/|)[^.]+)[.]([^/]*)$`): the key runs to the first
/// `.` of the last part; `None` for a name it skips (no `.` there). A
/// last part starting with `.` (`a/.hidden`) is split there, the key
/// ending with the `/` (`a/`, extension `hidden`), as that regex does,
/// unless the part before it holds a `.` too (or there is none).
pub(super) fn split_name(name: &str) -> Option<(&str, &str)> {
    let last = name.rfind('/').map_or(0, |i| i + 1);
    let dot = name[last..].find('.')? + last;
    if dot == last {
        // `[^.]+` must then take the whole part before the last one.
        let before = name[..last.checked_sub(1)?].rfind('/').map_or(0, |i| i + 1);
        if name[before..dot].contains('.') {
            return None;
        }
    }
    Some((&name[..dot], &name[dot + 1..]))
}

impl<R: Read> Walk<R> {
    /// A walk over the tar `src` (`name` in messages), reading members of
    /// at most `max` bytes.
    pub(super) fn new(src: R, name: String, max: u64) -> Self {
        Walk {
            src,
            name,
            at: 0,
            max,
            done: false,
        }
    }

    /// Reads exactly `buf.len()` bytes; false at a clean end before any.
    fn block(&mut self, buf: &mut [u8]) -> Result<bool> {
        let mut got = 0;
        while got < buf.len() {
            match self.src.read(&mut buf[got..]) {
                Ok(0) if got == 0 => return Ok(false),
                Ok(0) if self.at == 0 => bail!("{}", not_a_tar(&self.name, &buf[..got], got)),
                Ok(0) => bail!(
                    "{}: truncated tar: a header cut short at byte {}",
                    self.name,
                    self.at + got as u64
                ),
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e).with_context(|| format!("{}: read failed", self.name)),
            }
        }
        self.at += got as u64;
        Ok(true)
    }

    /// Refuses `size` bytes over `max` (nothing read or allocated).
    fn check(&self, size: u64, max: u64, what: &str) -> Result<()> {
        if size > max {
            bail!(
                "{}: {what} at byte {} is {size} bytes, over the limit of {max} ({})",
                self.name,
                self.at,
                if max == self.max {
                    "--max-record-size"
                } else if max == MAX_EXTENDED {
                    "the fixed limit of such headers"
                } else {
                    "a directory holds no data"
                }
            );
        }
        Ok(())
    }

    /// The bytes of the member `head` (its header the last one
    /// [`next`](Self::next) gave), and its padding.
    pub(super) fn read(&mut self, head: &Head) -> Result<Vec<u8>> {
        self.data(head.size, self.max, &member_what(&head.name))
    }

    /// Passes over the bytes of the member `head` (and its padding)
    /// without holding them.
    pub(super) fn skip(&mut self, head: &Head) -> Result<()> {
        self.bytes(head.size, &member_what(&head.name), None)
    }

    /// Reads a member's `size` bytes (and its padding), at most `max`.
    fn data(&mut self, size: u64, max: u64, what: &str) -> Result<Vec<u8>> {
        self.check(size, max, what)?;
        let mut data = Vec::with_capacity(size.min(1 << 20) as usize);
        self.bytes(size, what, Some(&mut data))?;
        Ok(data)
    }

    /// Reads `size` bytes (and the padding after them) into `to`, or past
    /// them when `None`: only as far as they are really there.
    fn bytes(&mut self, size: u64, what: &str, to: Option<&mut Vec<u8>>) -> Result<()> {
        let mut src = (&mut self.src).take(size);
        let got = match to {
            Some(data) => src.read_to_end(data).map(|n| n as u64),
            None => std::io::copy(&mut src, &mut std::io::sink()),
        }
        .with_context(|| format!("{}: read failed", self.name))?;
        if got < size {
            bail!(
                "{}: truncated tar: {what} at byte {} has {got} of its {size} bytes",
                self.name,
                self.at
            );
        }
        self.at += size;
        let pad = (512 - size % 512) % 512;
        let mut padding = [0u8; 512];
        let mut read = 0;
        while read < pad as usize {
            match self.src.read(&mut padding[read..pad as usize]) {
                Ok(0) => break,
                Ok(n) => read += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e).with_context(|| format!("{}: read failed", self.name)),
            }
        }
        self.at += read as u64;
        Ok(())
    }

    /// The next regular member's header (its size checked against
    /// `--max-record-size`), or `None` at the end of the archive. Its
    /// bytes come next: [`read`](Self::read) or [`skip`](Self::skip) them.
    pub(super) fn next(&mut self) -> Result<Option<Head>> {
        let mut long_name: Option<String> = None;
        let mut feature: Option<String> = None;
        // A PAX `size` record: the next member's size (the ustar field
        // holds at most 8 GiB; a PAX writer puts a larger one here).
        let mut pax_size: Option<u64> = None;
        let mut block = [0u8; 512];
        loop {
            if self.done || !self.block(&mut block)? {
                return Ok(None);
            }
            let start = self.at - 512;
            if block.iter().all(|&b| b == 0) {
                // The end of the archive (what follows is not read).
                self.done = true;
                return Ok(None);
            }
            let header = tar::Header::from_byte_slice(&block);
            let sum: u32 = block[..148]
                .iter()
                .chain(&[b' '; 8])
                .chain(&block[156..])
                .map(|&b| u32::from(b))
                .sum();
            if header.cksum().ok() != Some(sum) && start == 0 {
                bail!("{}", not_a_tar(&self.name, &block, 512));
            }
            if header.cksum().ok() != Some(sum) {
                bail!(
                    "{}: not a tar file, or damaged: the header at byte {start} has a wrong checksum",
                    self.name
                );
            }
            let ustar_size = header
                .entry_size()
                .map_err(|_| crate::error::err!("{}: the header at byte {start} has a bad size field", self.name));
            // A PAX size applies to the member its header precedes (not to
            // another PAX or GNU header in between).
            let meta = matches!(
                header.entry_type(),
                tar::EntryType::XHeader
                    | tar::EntryType::XGlobalHeader
                    | tar::EntryType::GNULongName
                    | tar::EntryType::GNULongLink
            );
            let size = match pax_size {
                Some(size) if !meta => {
                    pax_size = None;
                    size
                }
                _ => ustar_size?,
            };
            let raw_name = || -> Result<String> {
                let bytes = header.path_bytes();
                String::from_utf8(bytes.into_owned()).map_err(|e| {
                    crate::error::err!(
                        "{}: the member at byte {start} has a name that is not UTF-8: {}",
                        self.name,
                        escape_name(e.as_bytes())
                    )
                })
            };
            match header.entry_type() {
                tar::EntryType::XHeader => {
                    let records = self.data(size, MAX_EXTENDED, "a PAX header")?;
                    for (key, value) in pax_records(&records)
                        .with_context(|| format!("{}: the PAX header at byte {start}", self.name))?
                    {
                        let text = String::from_utf8(value.to_vec()).map_err(|_| {
                            crate::error::err!("{}: the PAX header at byte {start}: {key} is not UTF-8", self.name)
                        })?;
                        match key {
                            "path" => long_name = Some(text),
                            "size" => {
                                let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
                                let size = text.parse::<u64>().ok().filter(|_| digits);
                                let Some(size) = size else {
                                    bail!(
                                        "{}: the PAX header at byte {start}: its size '{}' is not a number of bytes",
                                        self.name,
                                        escape_name(text.as_bytes())
                                    );
                                };
                                pax_size = Some(size);
                            }
                            k if k == PAX_FEATURE => feature = Some(text),
                            _ => {}
                        }
                    }
                }
                tar::EntryType::XGlobalHeader => {
                    self.data(size, MAX_EXTENDED, "a PAX global header")?;
                }
                tar::EntryType::GNULongName => {
                    let mut bytes = self.data(size, MAX_EXTENDED, "a GNU long name")?;
                    while bytes.last() == Some(&0) {
                        bytes.pop();
                    }
                    long_name = Some(String::from_utf8(bytes).map_err(|e| {
                        crate::error::err!(
                            "{}: the long name at byte {start} is not UTF-8: {}",
                            self.name,
                            escape_name(e.as_bytes())
                        )
                    })?);
                }
                tar::EntryType::GNULongLink => {
                    self.data(size, MAX_EXTENDED, "a GNU long link name")?;
                }
                tar::EntryType::Directory => {
                    self.data(size, 0, "a directory")?;
                    long_name = None;
                    feature = None;
                }
                tar::EntryType::Regular | tar::EntryType::Continuous => {
                    let name = match long_name.take() {
                        Some(n) => n,
                        None => raw_name()?,
                    };
                    check_name(&name).with_context(|| {
                        format!(
                            "{}: the member at byte {start}, '{}'",
                            self.name,
                            escape_name(name.as_bytes())
                        )
                    })?;
                    self.check(size, self.max, &member_what(&name))?;
                    return Ok(Some(Head {
                        name,
                        feature: feature.take(),
                        size,
                    }));
                }
                other => {
                    let name = long_name.take().map_or_else(raw_name, Ok)?;
                    let what = match other {
                        tar::EntryType::Symlink => "a symbolic link",
                        tar::EntryType::Link => "a hard link",
                        tar::EntryType::Char | tar::EntryType::Block => "a device",
                        tar::EntryType::Fifo => "a FIFO",
                        _ => "of a kind from-wds does not read",
                    };
                    bail!(
                        "{}: the member at byte {start}, '{}', is {what}: WebDataset shards hold regular files",
                        self.name,
                        escape_name(name.as_bytes())
                    );
                }
            }
        }
    }
}

/// A member in messages.
fn member_what(name: &str) -> String {
    format!("the member '{}'", escape_name(name.as_bytes()))
}

/// Why a stream is not read as a tar, from its first bytes (`got` of
/// them, under 512 when it ends within the first header): another
/// compression than gzip or zlib, a zip archive, or just not a tar.
fn not_a_tar(name: &str, head: &[u8], got: usize) -> String {
    let magic: [(&[u8], &str); 5] = [
        (b"BZh", "bzip2-compressed"),
        (b"\xfd7zXZ\0", "xz-compressed"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed"),
        (b"\x04\x22\x4d\x18", "LZ4-compressed"),
        (b"PK\x03\x04", "a zip archive"),
    ];
    match magic.iter().find(|(m, _)| head.starts_with(m)) {
        Some((_, what)) => format!(
            "{name}: {what}, which from-wds does not read: it reads tars, plain or gzip- or \
             zlib-compressed (decompress it first)"
        ),
        None if got < 512 => {
            format!("{name}: not a tar file: it ends after {got} bytes, within the first 512-byte header")
        }
        None => format!("{name}: not a tar file: its first 512 bytes are not a tar header (wrong checksum)"),
    }
}

/// A member name that would leave a directory if extracted is refused:
/// absolute, or with a `..` part.
fn check_name(name: &str) -> Result<()> {
    if name.starts_with('/') {
        bail!("an absolute name");
    }
    if name.split('/').any(|p| p == "..") {
        bail!("a name with a '..' part");
    }
    if name.contains('\0') {
        bail!("a NUL byte in the name");
    }
    Ok(())
}

/// The records of a PAX header: `LEN KEY=VALUE\n`, LEN counting itself.
fn pax_records(mut data: &[u8]) -> Result<Vec<(&str, &[u8])>> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let space = data
            .iter()
            .position(|&b| b == b' ')
            .context("a record without its length")?;
        let len: usize = std::str::from_utf8(&data[..space])
            .ok()
            .and_then(|s| s.parse().ok())
            .context("a record with a bad length")?;
        if len <= space + 1 || len > data.len() || data[len - 1] != b'\n' {
            bail!("a record with a bad length");
        }
        let record = &data[space + 1..len - 1];
        let eq = record.iter().position(|&b| b == b'=').context("a record without '='")?;
        let key = std::str::from_utf8(&record[..eq]).context("a key that is not UTF-8")?;
        out.push((key, &record[eq + 1..]));
        data = &data[len..];
    }
    Ok(out)
}

/// Appends one PAX record (`LEN KEY=VALUE\n`, LEN counting itself).
fn pax_record(out: &mut Vec<u8>, key: &str, value: &[u8]) {
    let base = key.len() + value.len() + 3;
    let mut len = base + 1;
    while len != base + len.to_string().len() {
        len = base + len.to_string().len();
    }
    out.extend_from_slice(len.to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(key.as_bytes());
    out.push(b'=');
    out.extend_from_slice(value);
    out.push(b'\n');
}

/// Zeros to the next 512-byte block.
fn pad(out: &mut impl Write, len: u64) -> std::io::Result<()> {
    let rest = (512 - len % 512) % 512;
    out.write_all(&[0u8; 512][..rest as usize])
}

/// A header of a regular file (or of a PAX header with `ty`).
fn header(name: &str, size: u64, ty: tar::EntryType) -> tar::Header {
    let mut h = tar::Header::new_ustar();
    // Names over 100 bytes are cut here; the PAX path gives them whole.
    let mut cut = name.len().min(100);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let bytes = &name.as_bytes()[..cut];
    if let Some(ustar) = h.as_ustar_mut() {
        ustar.name[..bytes.len()].copy_from_slice(bytes);
    }
    h.set_size(size);
    h.set_mode(0o444);
    h.set_mtime(0);
    h.set_uid(0);
    h.set_gid(0);
    h.set_entry_type(ty);
    h.set_cksum();
    h
}

/// Writes one member: a PAX header (the feature's name, the whole path
/// when over 100 bytes) if needed, the ustar header, the data, padding.
pub(super) fn append_member(
    out: &mut impl Write,
    name: &str,
    data: &[u8],
    feature: Option<&str>,
) -> std::io::Result<()> {
    if feature.is_some() || name.len() > 100 {
        let mut records = Vec::new();
        if name.len() > 100 {
            pax_record(&mut records, "path", name.as_bytes());
        }
        if let Some(f) = feature {
            pax_record(&mut records, PAX_FEATURE, f.as_bytes());
        }
        let h = header("././@PaxHeader", records.len() as u64, tar::EntryType::XHeader);
        out.write_all(h.as_bytes())?;
        out.write_all(&records)?;
        pad(out, records.len() as u64)?;
    }
    let h = header(name, data.len() as u64, tar::EntryType::Regular);
    out.write_all(h.as_bytes())?;
    out.write_all(data)?;
    pad(out, data.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_as_webdataset_splits_them() {
        assert_eq!(split_name("000001.jpg"), Some(("000001", "jpg")));
        assert_eq!(split_name("a/b/c.seg.png"), Some(("a/b/c", "seg.png")));
        assert_eq!(split_name("dir.v2/c.txt"), Some(("dir.v2/c", "txt")));
        assert_eq!(split_name("noext"), None);
        assert_eq!(split_name("a/b"), None);
        // A last part starting with '.': what Python's re gives for the
        // library's regex.
        assert_eq!(split_name("a/.hidden"), Some(("a/", "hidden")));
        assert_eq!(split_name("x/y/.z"), Some(("x/y/", "z")));
        assert_eq!(split_name("a/.x.y"), Some(("a/", "x.y")));
        assert_eq!(split_name("a/..x"), Some(("a/", ".x")));
        assert_eq!(split_name("d/."), Some(("d/", "")));
        assert_eq!(split_name("a//.x"), Some(("a//", "x")));
        assert_eq!(split_name("x.y/.z"), None);
        assert_eq!(split_name("a/b.c/.d"), None);
        assert_eq!(split_name(".hidden"), None);
    }

    #[test]
    fn pax_records_are_read_back() {
        let recs = pax_records(b"29 TFR.feature=image/encoded\n12 path=a/b\n").unwrap();
        assert_eq!(recs, [("TFR.feature", &b"image/encoded"[..]), ("path", b"a/b")]);
        for bad in [&b"5 a=b"[..], b"x a=b\n", b"99 a=b\n", b"6 ab\n\n"] {
            assert!(pax_records(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn pax_records_count_their_own_length() {
        let mut out = Vec::new();
        pax_record(&mut out, "TFR.feature", b"image/encoded");
        assert_eq!(out, b"29 TFR.feature=image/encoded\n");
        let mut out = Vec::new();
        pax_record(&mut out, "path", &[b'a'; 94]);
        // 94 + 4 + 3 = 101 bytes, plus 3 digits: 104.
        assert_eq!(out.len(), 104);
        assert!(out.starts_with(b"104 path="));
    }
}

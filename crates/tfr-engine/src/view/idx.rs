//! The index files `tfr index` writes beside its inputs (`NAME.idx`, one
//! line per record: the byte offset of its header, a space, its framed
//! size), used by the viewer instead of reading a plain input through.
//!
//! An index file is trusted only when it still describes its input: not
//! older than the input (local files), each record starting where the one
//! before it ends, the last ending at the input's end, and the first and
//! last records' headers in the input (length and its CRC) saying the
//! sizes the file says. Otherwise a warning says why and the input is
//! read through.

use super::source::{seekable, Source};
use super::View;
use crate::error::Result;
use crate::io::Input;
use std::io::{BufRead, BufReader, Read};

/// The longest line read (two 20-digit numbers, a space, a newline).
const MAX_LINE: u64 = 64;

/// A reason the index file does not match.
type Stale = String;

/// Hands `each` the (record, offset) of every record of `src` from its
/// index file, and returns the number of records; `None` when there is
/// no index file, the input is compressed, or the file does not match (a
/// warning then says why).
pub(crate) fn load(view: &View, src: &Source, each: &mut dyn FnMut(u64, u64)) -> Result<Option<u64>> {
    let Some(idx) = index_file(src) else {
        return Ok(None);
    };
    let shown = idx.display();
    let mut reader = src.open(view)?;
    let Some(size) = reader.size().filter(|_| seekable(&reader)) else {
        return Ok(None);
    };
    // The first and the last record: their headers are checked below.
    let mut ends: Vec<(u64, u64, u64)> = Vec::new();
    let walked = lines(&idx, |k, offset, framed| {
        if ends.len() == 2 {
            ends[1] = (k, offset, framed);
        } else {
            ends.push((k, offset, framed));
        }
        true
    });
    let first = match walked {
        Ok(Ok((n, end))) if end == size => n,
        Ok(Ok((_, end))) => {
            warn(
                &shown,
                src,
                &format!("its records end at byte {end}, the file at {size}"),
            );
            return Ok(None);
        }
        Ok(Err(why)) => {
            warn(&shown, src, &why);
            return Ok(None);
        }
        Err(e) if e.core_error().is_some_and(|c| c.is_not_found()) => return Ok(None),
        Err(e) => {
            warn(&shown, src, &format!("{e:#}"));
            return Ok(None);
        }
    };
    for (k, offset, framed) in ends {
        let said = reader
            .seek_to(offset, k)
            .ok()
            .and_then(|_| reader.skip_record().ok().flatten())
            .map(|m| m.length + 16);
        if said != Some(framed) {
            warn(
                &shown,
                src,
                &format!("record {k} at byte {offset} is not the {framed} bytes it says"),
            );
            return Ok(None);
        }
    }
    match lines(&idx, |k, offset, _| {
        each(k, offset);
        true
    })? {
        Ok((n, _)) if n == first => Ok(Some(n)),
        _ => crate::error::bail!("{shown}: it changed while being read"),
    }
}

/// The index file beside an input, when there may be one (a local one
/// exists and is not older than its file).
fn index_file(src: &Source) -> Option<Input> {
    match &src.input {
        Input::Path(p) => {
            let mut name = p.as_os_str().to_owned();
            name.push(".idx");
            let path = std::path::PathBuf::from(name);
            if !path.is_file() {
                return None;
            }
            let modified = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
            if let (Some(idx), Some(data)) = (modified(&path), modified(p)) {
                if idx < data {
                    warn(&path.display().to_string(), src, "it is older than the file");
                    return None;
                }
            }
            Some(Input::Path(path))
        }
        Input::Url(u) => Some(Input::Url(format!("{u}.idx"))),
        Input::Stdin | Input::Part { .. } => None,
    }
}

fn warn(idx: &str, src: &Source, why: &str) {
    crate::io::warn(format_args!(
        "warning: {idx} does not match {} ({why}): reading the file through instead",
        src.name
    ));
}

/// Reads an index file, handing `each` each record's number, offset and
/// framed size (it stops when `each` says false); the records and where
/// the last ends, or why the file is not an index of consecutive records.
fn lines(idx: &Input, mut each: impl FnMut(u64, u64, u64) -> bool) -> Result<std::result::Result<(u64, u64), Stale>> {
    let mut file = BufReader::with_capacity(256 << 10, idx.open_decompressed()?);
    let mut line = Vec::with_capacity(MAX_LINE as usize);
    let (mut k, mut end) = (0u64, 0u64);
    loop {
        line.clear();
        (&mut file).take(MAX_LINE).read_until(b'\n', &mut line)?;
        if line.is_empty() {
            return Ok(Ok((k, end)));
        }
        let Some((offset, framed)) = parse(&line) else {
            return Ok(Err(format!("line {} is not `OFFSET SIZE`", k + 1)));
        };
        if offset != end || framed < 16 {
            return Ok(Err(format!(
                "line {} says a record of {framed} bytes at {offset}, not after the one before",
                k + 1
            )));
        }
        if !each(k, offset, framed) {
            return Ok(Ok((k, end)));
        }
        end = offset.saturating_add(framed);
        k += 1;
    }
}

/// `OFFSET SIZE\n` (digits only).
fn parse(line: &[u8]) -> Option<(u64, u64)> {
    let text = std::str::from_utf8(line.strip_suffix(b"\n")?).ok()?;
    let (a, b) = text.split_once(' ')?;
    let number = |s: &str| (!s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())).then(|| s.parse().ok())?;
    Some((number(a)?, number(b)?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_parse_strictly() {
        use super::parse;
        assert_eq!(parse(b"0 28\n"), Some((0, 28)));
        assert_eq!(parse(b"28 116\n"), Some((28, 116)));
        assert_eq!(parse(b"0 28"), None);
        assert_eq!(parse(b"0  28\n"), None);
        assert_eq!(parse(b"-1 28\n"), None);
        assert_eq!(parse(b"0 +28\n"), None);
        assert_eq!(parse(b"99999999999999999999999 1\n"), None);
    }
}

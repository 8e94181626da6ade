//! The index files `tfr index` writes beside its inputs (`NAME.idx`, one
//! line per record: the byte offset of its header, a space, its framed
//! size), and when one is trusted (the viewer and `access` read them).
//!
//! An index file is trusted only when it still describes its input: not
//! older than the input (local files), each record starting where the one
//! before it ends, the last ending at the input's end, and the first and
//! last records' headers in the input (length and its CRC) saying the
//! sizes the file says.

use crate::error::Result;
use crate::io::at::At;
use crate::io::Input;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The longest line read (two 20-digit numbers, a space, a newline).
const MAX_LINE: u64 = 64;

/// Why an index file does not match its input, in words.
pub type Stale = String;

/// Where an input's index file is looked for.
#[derive(Debug)]
pub enum Found {
    /// There is none (stdin, a part, no such local file).
    Missing,
    /// A local index file older than its input (its name as shown).
    Older(String),
    /// The index file to read (a URL's may not exist: reading it says so).
    File(Input),
}

/// The name of `input`'s index file: `NAME.idx` beside it, or in `dir`
/// (`None` for stdin and parts).
pub fn path_for(input: &Input, dir: Option<&Path>) -> Option<Input> {
    let beside = match input {
        Input::Path(p) => {
            let mut name = p.as_os_str().to_owned();
            name.push(".idx");
            Input::Path(name.into())
        }
        Input::Url(u) => Input::Url(format!("{u}.idx")),
        Input::Stdin | Input::Part { .. } => return None,
    };
    let Some(dir) = dir else {
        return Some(beside);
    };
    let name: std::ffi::OsString = match &beside {
        Input::Path(p) => p.file_name()?.to_owned(),
        Input::Url(u) => u.rsplit('/').next().filter(|s| !s.is_empty())?.into(),
        _ => return None,
    };
    Some(Input::Path(dir.join(name)))
}

/// Looks for `input`'s index file (beside it, or in `dir`): a local one
/// must exist and not be older than a local input.
pub fn find(input: &Input, dir: Option<&Path>) -> Found {
    let Some(idx) = path_for(input, dir) else {
        return Found::Missing;
    };
    if let Input::Path(path) = &idx {
        if !path.is_file() {
            return Found::Missing;
        }
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        if let (Input::Path(data), Some(i)) = (input, modified(path)) {
            if modified(data).is_some_and(|d| i < d) {
                return Found::Older(idx.display());
            }
        }
    }
    Found::File(idx)
}

/// Reads an index file, handing `each` each record's number, offset and
/// framed size (it stops when `each` says false); the records and where
/// the last ends, or why the file is not an index of consecutive records.
pub fn lines(
    idx: &Input,
    mut each: impl FnMut(u64, u64, u64) -> bool,
) -> Result<std::result::Result<(u64, u64), Stale>> {
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

/// Checks an index file against its input of `size` bytes: its records
/// are back to back and end at `size`, and the first and last records'
/// headers (`length` reads the payload length the header at an offset
/// says, `None` when there is none) say the sizes it says. `each` sees
/// every line as it is read (on a mismatch some were handed already:
/// drop them). The number of records, or why the file does not match;
/// an error when the index file cannot be read (`is_not_found` when it
/// does not exist).
pub fn check(
    idx: &Input,
    size: u64,
    length: &mut dyn FnMut(u64, u64) -> Option<u64>,
    each: &mut dyn FnMut(u64, u64, u64),
) -> Result<std::result::Result<u64, Stale>> {
    // The first and the last record: their headers are checked below.
    let mut ends: Vec<(u64, u64, u64)> = Vec::with_capacity(2);
    let walked = lines(idx, |k, offset, framed| {
        if ends.len() == 2 {
            ends[1] = (k, offset, framed);
        } else {
            ends.push((k, offset, framed));
        }
        each(k, offset, framed);
        true
    })?;
    let n = match walked {
        Ok((n, end)) if end == size => n,
        Ok((_, end)) => return Ok(Err(format!("its records end at byte {end}, the file at {size}"))),
        Err(why) => return Ok(Err(why)),
    };
    for (k, offset, framed) in ends {
        if length(k, offset).map(|l| l.saturating_add(16)) != Some(framed) {
            return Ok(Err(format!(
                "record {k} at byte {offset} is not the {framed} bytes it says"
            )));
        }
    }
    Ok(Ok(n))
}

/// The payload length the record header at `offset` of `at` says (`None`
/// when the bytes there are not a header).
pub fn header_length(at: &At, offset: u64) -> Option<u64> {
    let mut h = [0u8; super::HEADER_LEN];
    at.read_exact_at(&mut h, offset).ok().filter(|&whole| whole)?;
    super::parse_header(&h)
}

/// One line of an index file: `OFFSET FRAMED\n`.
pub fn line(offset: u64, framed: u64) -> String {
    format!("{offset} {framed}\n")
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
    use super::*;

    #[test]
    fn lines_parse_strictly() {
        assert_eq!(parse(b"0 28\n"), Some((0, 28)));
        assert_eq!(parse(b"28 116\n"), Some((28, 116)));
        assert_eq!(parse(b"0 28"), None);
        assert_eq!(parse(b"0  28\n"), None);
        assert_eq!(parse(b"-1 28\n"), None);
        assert_eq!(parse(b"0 +28\n"), None);
        assert_eq!(parse(b"99999999999999999999999 1\n"), None);
    }

    #[test]
    fn index_files_are_named_beside_or_in_a_folder() {
        let p = Input::Path("/data/a.tfrecord".into());
        assert_eq!(path_for(&p, None), Some(Input::Path("/data/a.tfrecord.idx".into())));
        assert_eq!(
            path_for(&p, Some(Path::new("/idx"))),
            Some(Input::Path("/idx/a.tfrecord.idx".into()))
        );
        let u = Input::Url("s3://b/x/a.tfrecord".into());
        assert_eq!(path_for(&u, None), Some(Input::Url("s3://b/x/a.tfrecord.idx".into())));
        assert_eq!(
            path_for(&u, Some(Path::new("/idx"))),
            Some(Input::Path("/idx/a.tfrecord.idx".into()))
        );
        assert_eq!(path_for(&Input::Stdin, None), None);
    }
}

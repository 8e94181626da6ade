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
use std::io::Read;
use std::path::Path;

/// The longest line read (two 20-digit numbers, a space, a newline).
const MAX_LINE: usize = 64;

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
/// (`None` for stdin and parts, and beside an HTTP(S) URL with a query: a
/// presigned URL's signature is for its own object).
pub fn path_for(input: &Input, dir: Option<&Path>) -> Option<Input> {
    let (beside, name): (Option<Input>, std::ffi::OsString) = match input {
        Input::Path(p) => {
            let mut name = p.as_os_str().to_owned();
            name.push(".idx");
            let file = Path::new(&name).file_name()?.to_owned();
            (Some(Input::Path(name.into())), file)
        }
        Input::Url(u) => {
            let http = u.starts_with("http://") || u.starts_with("https://");
            let (path, query) = match u.split_once('?') {
                Some((path, _)) if http => (path, true),
                _ => (u.as_str(), false),
            };
            let file = path.rsplit('/').next().filter(|s| !s.is_empty())?;
            let beside = (!query).then(|| Input::Url(format!("{u}.idx")));
            (beside, format!("{file}.idx").into())
        }
        Input::Stdin | Input::Part { .. } => return None,
    };
    match dir {
        None => beside,
        Some(dir) => Some(Input::Path(dir.join(name))),
    }
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
/// Every line is checked: `OFFSET SIZE\n`, digits only, each record right
/// after the one before (the lines are cut out of 1 MiB reads with
/// `memchr` and their numbers parsed in place: a million lines in a few
/// milliseconds).
pub fn lines(
    idx: &Input,
    mut each: impl FnMut(u64, u64, u64) -> bool,
) -> Result<std::result::Result<(u64, u64), Stale>> {
    let mut file = idx.open_decompressed()?;
    let mut buf = vec![0u8; 1 << 20];
    let (mut filled, mut k, mut end) = (0usize, 0u64, 0u64);
    loop {
        let n = match file.read(&mut buf[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        filled += n;
        let mut at = 0;
        for nl in memchr::memchr_iter(b'\n', &buf[..filled]) {
            let Some((offset, framed)) = (nl - at < MAX_LINE).then(|| parse(&buf[at..nl])).flatten() else {
                return Ok(Err(not_a_line(k)));
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
            at = nl + 1;
        }
        let rest = filled - at;
        // A line without its newline: too long, or cut at the file's end.
        if rest >= MAX_LINE || (n == 0 && rest > 0) {
            return Ok(Err(not_a_line(k)));
        }
        if n == 0 {
            return Ok(Ok((k, end)));
        }
        buf.copy_within(at..filled, 0);
        filled = rest;
    }
}

fn not_a_line(k: u64) -> Stale {
    format!("line {} is not `OFFSET SIZE`", k + 1)
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

/// `OFFSET SIZE` (a line without its newline; digits only, each number
/// at most `u64::MAX`), in one pass over its bytes.
fn parse(line: &[u8]) -> Option<(u64, u64)> {
    let mut at = 0;
    let offset = number(line, &mut at)?;
    if line.get(at) != Some(&b' ') {
        return None;
    }
    at += 1;
    let framed = number(line, &mut at)?;
    (at == line.len()).then_some((offset, framed))
}

/// The decimal digits (at least one) of `line` from `*at` on, as a `u64`
/// (`None`: no digit, or too large); `*at` moves past them.
fn number(line: &[u8], at: &mut usize) -> Option<u64> {
    let rest = line.get(*at..)?;
    let len = rest.iter().position(|c| !c.is_ascii_digit()).unwrap_or(rest.len());
    let digits = &rest[..len];
    *at += len;
    match len {
        0 => None,
        // Up to 19 digits cannot overflow; longer ones (leading zeros
        // allowed) are summed checked.
        1..=19 => Some(digits.iter().fold(0u64, |n, &c| n * 10 + u64::from(c - b'0'))),
        _ => digits
            .iter()
            .try_fold(0u64, |n, &c| n.checked_mul(10)?.checked_add(u64::from(c - b'0'))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_strictly() {
        assert_eq!(parse(b"0 28"), Some((0, 28)));
        assert_eq!(parse(b"28 116"), Some((28, 116)));
        assert_eq!(parse(b"007 16"), Some((7, 16)));
        assert_eq!(parse(b"18446744073709551615 16"), Some((u64::MAX, 16)));
        assert_eq!(parse(b"18446744073709551616 16"), None);
        for bad in [
            &b"0  28"[..],
            b"-1 28",
            b"0 +28",
            b"0 28 ",
            b" 0 28",
            b"0 28\r",
            b"0",
            b"0 ",
            b" 28",
            b"",
            b"0\t28",
            b"99999999999999999999999 1",
        ] {
            assert_eq!(parse(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    /// `lines` over an index file holding `text`: the records and where
    /// they end, or why not.
    fn lines_of(text: &[u8]) -> std::result::Result<(u64, u64), Stale> {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("tfr-lines-{}-{n}.idx", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let got = lines(&Input::Path(path.clone()), |_, _, _| true).unwrap();
        let _ = std::fs::remove_file(&path);
        got
    }

    #[test]
    fn every_line_is_checked() {
        assert_eq!(lines_of(b""), Ok((0, 0)));
        assert_eq!(lines_of(b"0 28\n28 116\n"), Ok((2, 144)));
        assert_eq!(lines_of(b"0 28\n28 116"), Err("line 2 is not `OFFSET SIZE`".into()));
        assert_eq!(
            lines_of(b"0 28\n29 116\n").unwrap_err(),
            "line 2 says a record of 116 bytes at 29, not after the one before"
        );
        assert_eq!(
            lines_of(b"0 15\n").unwrap_err(),
            "line 1 says a record of 15 bytes at 0, not after the one before"
        );
        // The longest line: 63 bytes and its newline.
        let long = format!("{:0>60} 16\n", 0);
        assert_eq!(lines_of(long.as_bytes()), Ok((1, 16)));
        let longer = format!("{:0>61} 16\n", 0);
        assert_eq!(lines_of(longer.as_bytes()), Err("line 1 is not `OFFSET SIZE`".into()));
        assert_eq!(lines_of(&[b'1'; 200]), Err("line 1 is not `OFFSET SIZE`".into()));
        // Lines across the 1 MiB reads.
        let mut many = String::new();
        for k in 0..200_000u64 {
            many.push_str(&line(k * 20, 20));
        }
        assert!(many.len() > 2 << 20);
        assert_eq!(lines_of(many.as_bytes()), Ok((200_000, 4_000_000)));
        many.insert(1_500_000, 'x');
        assert!(lines_of(many.as_bytes()).is_err());
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
        // A presigned URL has none beside it; a folder's is named without the query.
        let signed = Input::Url("https://h/x/a.tfrecord?sig=1".into());
        assert_eq!(path_for(&signed, None), None);
        assert_eq!(
            path_for(&signed, Some(Path::new("/idx"))),
            Some(Input::Path("/idx/a.tfrecord.idx".into()))
        );
        let h = Input::Url("https://h/x/a.tfrecord".into());
        assert_eq!(
            path_for(&h, None),
            Some(Input::Url("https://h/x/a.tfrecord.idx".into()))
        );
    }
}

//! Auxiliary files read whole (a `--schema`, a `--merge` statistics file):
//! read through a size limit, so `/dev/zero` or a forged 10 GB file is
//! refused in one line instead of filling memory.

use super::input::show_path;
use crate::error::{bail, Context, Result};
use std::io::Read;
use std::path::Path;

/// The default of `--max-aux-size`.
pub const DEFAULT_MAX_AUX: u64 = 64 << 20;

/// The bytes of `path`, at most `limit` of them: a file over the limit
/// (also one that never ends) is refused naming the file, its size when
/// known and `--max-aux-size`. Reads at most `limit + 1` bytes.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let name = show_path(path);
    let file = std::fs::File::open(path).with_context(|| format!("{name}: cannot read"))?;
    let known = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    if let Some(size) = known.filter(|&s| s > limit) {
        bail!(
            "{name}: {size} bytes, over the --max-aux-size limit ({}) on a schema or statistics file",
            shown_size(limit)
        );
    }
    let capacity = known.unwrap_or(0).min(limit) as usize;
    match read_at_most(file, limit, capacity).with_context(|| format!("{name}: cannot read"))? {
        Some(bytes) => Ok(bytes),
        None => bail!(
            "{name}: more than {} bytes, over the --max-aux-size limit ({}) on a schema or statistics file",
            limit,
            shown_size(limit)
        ),
    }
}

/// All of `reader` if it holds at most `limit` bytes, else `None`; reads
/// at most `limit + 1` bytes (a reader that never ends costs the limit).
/// Shared by every auxiliary file tfr reads whole (schemas, saved
/// statistics, credentials and configuration).
pub fn read_at_most(reader: impl Read, limit: u64, capacity: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::with_capacity(capacity);
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// A limit as printed: whole MiB or GiB as such, else bytes.
fn shown_size(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n => format!("{n} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_file_over_the_limit_and_an_endless_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_bounded(&path, 10).unwrap(), b"0123456789");
        let err = format!("{:#}", read_bounded(&path, 9).unwrap_err());
        assert!(
            err.contains("10 bytes, over the --max-aux-size limit (9 bytes)"),
            "{err}"
        );
        #[cfg(unix)]
        {
            let err = format!("{:#}", read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err());
            assert!(
                err.contains("more than 1048576 bytes") && err.contains("(1 MiB)"),
                "{err}"
            );
        }
    }
}

//! The index files `tfr index` writes beside its inputs (`NAME.idx`),
//! used by the viewer instead of reading a plain input through. When one
//! is trusted is `record::index_file`'s (shared with `access`); otherwise
//! a warning says why and the input is read through.

use super::source::{seekable, Source};
use super::View;
use crate::error::Result;
use crate::record::index_file::{self, Found};

/// Hands `each` the (record, offset) of every record of `src` from its
/// index file, and returns the number of records; `None` when there is
/// no index file, the input is compressed, or the file does not match (a
/// warning then says why).
pub(crate) fn load(view: &View, src: &Source, each: &mut dyn FnMut(u64, u64)) -> Result<Option<u64>> {
    let idx = match index_file::find(&src.input, None) {
        Found::Missing => return Ok(None),
        Found::Older(shown) => {
            warn(&shown, src, "it is older than the file");
            return Ok(None);
        }
        Found::File(idx) => idx,
    };
    let shown = idx.display();
    let mut reader = src.open(view)?;
    let Some(size) = reader.size().filter(|_| seekable(&reader)) else {
        return Ok(None);
    };
    let mut length = |k: u64, offset: u64| {
        reader
            .seek_to(offset, k)
            .ok()
            .and_then(|_| reader.skip_record().ok().flatten())
            .map(|m| m.length)
    };
    let first = match index_file::check(&idx, size, &mut length, &mut |_, _, _| {}) {
        Ok(Ok(n)) => n,
        Ok(Err(why)) => {
            warn(&shown, src, &why);
            return Ok(None);
        }
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => {
            warn(&shown, src, &format!("{e:#}"));
            return Ok(None);
        }
    };
    match index_file::lines(&idx, |k, offset, _| {
        each(k, offset);
        true
    })? {
        Ok((n, _)) if n == first => Ok(Some(n)),
        _ => crate::error::bail!("{shown}: it changed while being read"),
    }
}

fn warn(idx: &str, src: &Source, why: &str) {
    crate::io::warn(format_args!(
        "warning: {idx} does not match {} ({why}): reading the file through instead",
        src.name
    ));
}

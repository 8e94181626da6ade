//! The index as bytes (for worker processes) and back, checked against the
//! inputs; and `NAME.idx` files written for walked plain inputs.
//!
//! Layout (little-endian): `TFRACCIX`, version `u32` (1), the number of
//! inputs `u32`, the filter's text (`u32` length, UTF-8), then per input
//! its size `u64`, compression `u8` (0 plain, 1 gzip, 2 zlib), checkpoint
//! interval `u64`, where its last record ends `u64`, its number of records
//! `u64`, whether a filter kept them `u8`, the offsets (`u64` each) and,
//! when kept, their lengths and numbers; last the CRC-32C of all before.

use super::build::{compression, open_at, walk_inflate};
use super::deflated::{Deflated, Format};
use super::{Options, Part, Records, Table};
use crate::error::{bail, Context, Result};
use crate::io::{AtomicOutput, Compression, Input};
use crate::record::index_file;
use std::io::Write;

const MAGIC: &[u8; 8] = b"TFRACCIX";
const VERSION: u32 = 1;

pub(super) fn export(records: &Records) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + records.total as usize * 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(records.parts.len() as u32).to_le_bytes());
    out.extend_from_slice(&(records.filter_text.len() as u32).to_le_bytes());
    out.extend_from_slice(records.filter_text.as_bytes());
    for p in &records.parts {
        let code: u8 = match p.compression {
            Compression::Gzip => 1,
            Compression::Zlib => 2,
            _ => 0,
        };
        let every = p.deflated.as_ref().map_or(0, |d| d.every);
        out.extend_from_slice(&p.size.to_le_bytes());
        out.push(code);
        for v in [every, p.table.end, p.table.len()] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.push(u8::from(p.table.kept.is_some()));
        let mut put = |vs: &[u64]| vs.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        put(&p.table.offsets);
        if let Some((lens, numbers)) = &p.table.kept {
            put(lens);
            put(numbers);
        }
    }
    let crc = crc32c::crc32c(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Reads what [`export`] wrote.
struct Bytes<'a> {
    rest: &'a [u8],
}

impl Bytes<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        if self.rest.len() < n {
            bail!("the exported index is cut short");
        }
        let (head, rest) = self.rest.split_at(n);
        self.rest = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap_or_default()))
    }

    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap_or_default()))
    }

    /// `n` numbers (refused before anything is allocated when the bytes
    /// cannot hold them).
    fn u64s(&mut self, n: u64) -> Result<Vec<u64>> {
        if n.saturating_mul(8) > self.rest.len() as u64 {
            bail!("the exported index is cut short");
        }
        let raw = self.take(n as usize * 8)?;
        Ok(raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect())
    }
}

pub(super) fn import(inputs: &[Input], opts: &Options, exported: &[u8]) -> Result<Vec<Part>> {
    let refuse = |why: String| crate::error::err!("the exported index does not fit these inputs: {why}");
    let Some((body, crc)) = exported.split_last_chunk::<4>() else {
        return Err(refuse("too short".into()));
    };
    if !body.starts_with(MAGIC) || crc32c::crc32c(body) != u32::from_le_bytes(*crc) {
        return Err(refuse("not an exported index (or damaged)".into()));
    }
    let mut b = Bytes { rest: &body[8..] };
    if b.u32()? != VERSION {
        return Err(refuse("another version's".into()));
    }
    let n = b.u32()? as usize;
    if n != inputs.len() {
        return Err(refuse(format!("it is of {n} inputs, not {}", inputs.len())));
    }
    let len = b.u32()? as usize;
    let filter = opts.filter.as_ref().map_or("", |f| f.text());
    if b.take(len)? != filter.as_bytes() {
        return Err(refuse("it was made with another --where filter".into()));
    }
    let mut parts = Vec::with_capacity(n);
    for input in inputs {
        parts.push(
            import_one(input, opts, &mut b)
                .map_err(|e| e.context("the exported index does not fit"))
                .with_context(|| input.display())?,
        );
    }
    if !b.rest.is_empty() {
        return Err(refuse("bytes after the last input's".into()));
    }
    Ok(parts)
}

fn import_one(input: &Input, opts: &Options, b: &mut Bytes<'_>) -> Result<Part> {
    let name = input.display();
    let (at, size) = open_at(input)?;
    let (said_size, code) = (b.u64()?, b.u8()?);
    let (every, end, count) = (b.u64()?, b.u64()?, b.u64()?);
    let kept = b.u8()? != 0;
    if said_size != size {
        bail!("the file is {size} bytes, the index was made of {said_size}");
    }
    // Each checkpoint holds ~44 KB: at most 4,096 of them, or one per
    // 64 KiB inflated, however close the bytes say they are.
    let checkpoints = end / every.max(1);
    if code != 0 && checkpoints > (end / super::MIN_CHECKPOINT_EVERY).max(4096) {
        bail!("its checkpoints are {every} bytes apart: {checkpoints} of them is more than is allowed");
    }
    let c = compression(input, &at, size, opts.open.compression)?;
    let format = match (code, c) {
        (0, Compression::None) => None,
        (1, Compression::Gzip) => Some(Format::Gzip),
        (2, Compression::Zlib) => Some(Format::Zlib),
        _ => bail!("its compression is not the index's"),
    };
    let offsets = b.u64s(count)?;
    let kept = match kept {
        true => Some((b.u64s(count)?, b.u64s(count)?)),
        false => None,
    };
    let table = Table { offsets, kept, end };
    check_table(&table, size, format.is_none())?;
    let deflated = match format {
        None => None,
        Some(f) => {
            let (out, checkpoints) = walk_inflate(&at, size, f, every.max(1))?;
            if out < end || (table.kept.is_none() && out != end) {
                bail!("it inflates to {out} bytes, the index says {end}");
            }
            Some(Deflated::new(f, every.max(1), checkpoints))
        }
    };
    let part = Part::new(name, at, size, c, table, false, deflated);
    check_ends(&part)?;
    Ok(part)
}

/// The table's records in order, within the input, at least a header and
/// a footer each; a plain input's records end at its end.
fn check_table(t: &Table, size: u64, plain: bool) -> Result<()> {
    if plain && (t.end > size || (t.kept.is_none() && t.end != size)) {
        bail!("its records end at byte {}, the file at {size}", t.end);
    }
    for k in 0..t.offsets.len() {
        let next = t.offsets.get(k + 1).copied().unwrap_or(t.end);
        let (number, offset, len) = t.get(k);
        let framed_end = offset.checked_add(len).and_then(|e| e.checked_add(16));
        if framed_end.is_none_or(|e| e > next) || (t.kept.is_none() && framed_end != Some(next)) {
            bail!("record {number} at byte {offset} overlaps the next or the end");
        }
        if let Some((_, numbers)) = &t.kept {
            if k > 0 && numbers[k - 1] >= number {
                bail!("its record numbers are out of order");
            }
        }
    }
    Ok(())
}

/// The first and last records' headers say the lengths the table says.
fn check_ends(p: &Part) -> Result<()> {
    let n = p.table.offsets.len();
    for k in [0, n.saturating_sub(1)].into_iter().filter(|&k| k < n) {
        let (number, offset, len) = p.table.get(k);
        let mut head = Vec::with_capacity(12);
        let said = match &p.deflated {
            None => index_file::header_length(&p.at, offset),
            Some(d) => match d.read(&p.at, p.size, offset, 12, &mut head) {
                Ok(true) => crate::record::parse_header(head[..12].try_into().unwrap_or(&[0; 12])),
                _ => None,
            },
        };
        if said != Some(len) {
            bail!("record {number} at byte {offset} is not the {len} bytes the index says");
        }
    }
    Ok(())
}

pub(super) fn save(records: &Records, dir: Option<&std::path::Path>) -> Result<Vec<String>> {
    let mut written = Vec::new();
    for (p, input) in records.parts.iter().zip(&records.inputs) {
        if !p.built || p.deflated.is_some() || p.table.kept.is_some() {
            continue;
        }
        let target = match index_file::path_for(input, dir) {
            Some(Input::Path(path)) => path,
            Some(Input::Url(u)) => std::path::PathBuf::from(u),
            _ => continue,
        };
        let mut out = AtomicOutput::create_file(&target, Compression::None)?;
        let shown = out.display();
        let mut text = String::with_capacity(64 << 10);
        for k in 0..p.table.offsets.len() {
            let (_, offset, len) = p.table.get(k);
            text.push_str(&index_file::line(offset, len + 16));
            if text.len() >= 60 << 10 {
                out.write_all(text.as_bytes())
                    .with_context(|| format!("{shown}: write failed"))?;
                text.clear();
            }
        }
        out.write_all(text.as_bytes())
            .with_context(|| format!("{shown}: write failed"))?;
        out.commit()?;
        written.push(shown);
    }
    Ok(written)
}

//! Records of several inputs by number: `tfr cat --records` and the Python
//! reader's `ds[i]` (0-based over all the inputs in order).
//!
//! Each input gets a table of where its records start: from its `tfr
//! index` file when one still matches it (`record::index_file`'s rules),
//! else built by walking its records (inputs on `jobs` threads). A plain
//! input (a file, an object in a store) is then read by position: one read
//! of a record's header, payload and footer, both CRCs checked, no lock. A
//! gzip or zlib input gets a seek index on its walk (`deflated`): a copy
//! of the inflater every `checkpoint_every` decompressed bytes; a read
//! inflates from the one at or before its record. SNAPPY inputs are
//! refused (read them through). With a `filter`, the walk decodes each
//! record and the numbers count the records kept.
//!
//! The table is 8 bytes a record (offsets; a length is where the next
//! record starts), 16 with a filter. [`Records::export_index`] hands it
//! over as bytes, [`Records::open_with_index`] takes it back without
//! walking plain inputs again (worker processes).

mod build;
mod deflated;
mod export;
mod list;
#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::example::filter::Where;
use crate::example::MessageType;
use crate::io::at::At;
use crate::io::{Compression, Input};
use crate::record::{self, Damage, DamageKind, ReadError, FOOTER_LEN, HEADER_LEN};
pub use list::{parse_list, EachListed};
use std::path::PathBuf;
use std::sync::Arc;

/// An exported index may ask for checkpoints this close together only for
/// small data (at most 4,096 of them): each is a copy of the inflater,
/// about 44 KB.
pub const MIN_CHECKPOINT_EVERY: u64 = 64 << 10;

/// How [`Records::open`] finds and builds the inputs' indexes.
#[derive(Clone)]
pub struct Options {
    /// Forced compression, the largest record.
    pub open: record::OpenOptions,
    /// Where indexes come from.
    pub index: IndexSource,
    /// Only the records this keeps are numbered (each record is decoded
    /// on the walk; an index file is not used).
    pub filter: Option<Arc<Where>>,
    /// The payload type the filter reads (`None`: detected from each
    /// input's first record).
    pub ty: Option<MessageType>,
    /// gzip/zlib: decompressed bytes between seek checkpoints (each is a
    /// copy of the inflater, about 44 KB).
    pub checkpoint_every: u64,
    /// Threads building indexes (inputs in parallel).
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            open: record::OpenOptions::default(),
            index: IndexSource::Auto,
            filter: None,
            ty: None,
            checkpoint_every: 1 << 20,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// Where an input's index comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexSource {
    /// `NAME.idx` beside the input when it still matches it (else a warning
    /// and a walk), else a walk.
    Auto,
    /// `NAME.idx` in this folder (when it matches), else a walk.
    Dir(PathBuf),
    /// Always a walk of the records.
    Build,
}

/// What [`Records::read_range`] hands each record to: its number, where
/// it is, its payload.
pub type EachRecord<'a> = dyn FnMut(u64, &Located, &[u8]) -> Result<()> + 'a;

/// Where a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// Its input (in the order given).
    pub input: usize,
    /// Its number in its input (counting every record, kept or not).
    pub record: u64,
    /// Its header's byte offset (in the decompressed stream for gzip/zlib).
    pub offset: u64,
    /// Its payload's length.
    pub len: u64,
}

/// The records of an input: where each starts (and its number when a
/// filter kept only some).
pub(crate) struct Table {
    offsets: Vec<u64>,
    /// With a filter: each kept record's payload length and number.
    kept: Option<(Vec<u64>, Vec<u64>)>,
    /// Where the last record ends.
    end: u64,
}

impl Table {
    fn len(&self) -> u64 {
        self.offsets.len() as u64
    }

    /// Record `k` (of this table): its number, offset and payload length.
    fn get(&self, k: usize) -> (u64, u64, u64) {
        let offset = self.offsets[k];
        match &self.kept {
            Some((lens, numbers)) => (numbers[k], offset, lens[k]),
            None => {
                let next = self.offsets.get(k + 1).copied().unwrap_or(self.end);
                (k as u64, offset, next.saturating_sub(offset + 16))
            }
        }
    }
}

/// One input, ready to read.
pub(crate) struct Part {
    name: String,
    at: At,
    size: u64,
    compression: Compression,
    table: Table,
    /// Walked (not read from an index file).
    built: bool,
    deflated: Option<deflated::Deflated>,
}

/// Records of several inputs by number. `&self` reads from several
/// threads at once (plain inputs without any lock; a gzip/zlib input's
/// reads take turns on its inflater).
pub struct Records {
    inputs: Vec<Input>,
    parts: Vec<Part>,
    /// The number of each input's first record.
    starts: Vec<u64>,
    total: u64,
    max_record: u64,
    filter_text: String,
    /// Each input's payload type (its first record's), once asked.
    types: Vec<std::sync::OnceLock<MessageType>>,
}

impl Records {
    /// Opens the inputs and their indexes (read, or built by walking).
    pub fn open(inputs: Vec<Input>, opts: Options) -> Result<Records> {
        let parts = build::parts(&inputs, &opts)?;
        Ok(Records::from_parts(inputs, parts, &opts))
    }

    fn from_parts(inputs: Vec<Input>, parts: Vec<Part>, opts: &Options) -> Records {
        let mut starts = Vec::with_capacity(parts.len());
        let mut total = 0u64;
        for p in &parts {
            starts.push(total);
            total += p.table.len();
        }
        let types = parts.iter().map(|_| std::sync::OnceLock::new()).collect();
        Records {
            inputs,
            parts,
            starts,
            total,
            max_record: opts.open.max_record,
            filter_text: opts.filter.as_ref().map_or(String::new(), |f| f.text().to_string()),
            types,
        }
    }

    /// The payload type of input `input`: its first (kept) record's, as
    /// the record reader settles it for a whole input (Example when it has
    /// none); read once, then remembered.
    pub fn input_type(&self, input: usize) -> Result<MessageType> {
        if let Some(t) = self.types.get(input).and_then(|t| t.get()) {
            return Ok(*t);
        }
        let first = self.first_of(input);
        let found = match self.locate(first).filter(|l| l.input == input) {
            None => MessageType::Example,
            Some(_) => {
                let mut buf = Vec::new();
                let at = self.read(first, &mut buf)?;
                crate::example::resolve_auto(&buf)
                    .map_err(|e| crate::pipeline::batches::decode_error(self.name(input), at.record, at.offset, e))?
            }
        };
        Ok(*self.types[input].get_or_init(|| found))
    }

    /// The number of records (kept by the filter).
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The inputs, in order.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// Input `input`'s name as errors show it.
    pub fn name(&self, input: usize) -> &str {
        self.parts.get(input).map_or("", |p| &p.name)
    }

    /// Each input's number of records (kept by the filter).
    pub fn counts(&self) -> Vec<u64> {
        self.parts.iter().map(|p| p.table.len()).collect()
    }

    /// The number of input `input`'s first record (kept record, with a
    /// filter), whether or not it has any.
    pub fn first_of(&self, input: usize) -> u64 {
        self.starts.get(input).copied().unwrap_or(self.total)
    }

    /// Where record `n` is; `None` past the end.
    pub fn locate(&self, n: u64) -> Option<Located> {
        if n >= self.total {
            return None;
        }
        let input = self.starts.partition_point(|&s| s <= n).checked_sub(1)?;
        let k = usize::try_from(n - self.starts[input]).ok()?;
        let (record, offset, len) = self.parts[input].table.get(k);
        Some(Located {
            input,
            record,
            offset,
            len,
        })
    }

    /// An error for a number past the end.
    fn past_end(&self, n: u64) -> crate::error::Error {
        crate::error::err!(
            "record {n} is past the end: there {} {}",
            if self.total == 1 { "is" } else { "are" },
            record::counted(self.total, "record")
        )
    }

    /// Record `n`'s payload into `buf` (cleared first), both CRCs checked;
    /// errors name the input, the record and its byte offset.
    pub fn read(&self, n: u64, buf: &mut Vec<u8>) -> Result<Located> {
        let at = self.locate(n).ok_or_else(|| self.past_end(n))?;
        let part = &self.parts[at.input];
        part.read(&self.inputs[at.input], &at, buf, self.max_record)?;
        Ok(at)
    }

    /// Records `start..end` in order, each handed to `each` with its number
    /// and place; plain inputs are read in order through one buffered
    /// reader, not a request a record.
    pub fn read_range(&self, start: u64, end: u64, each: &mut EachRecord<'_>) -> Result<()> {
        if end > self.total {
            return Err(self.past_end(end - 1));
        }
        let mut n = start;
        let mut buf = Vec::new();
        while n < end {
            let Some(at) = self.locate(n) else {
                return Err(self.past_end(n));
            };
            let part = &self.parts[at.input];
            let in_input = self.starts[at.input] + part.table.len() - n;
            let take = in_input.min(end - n);
            // A few records are a read each (a buffered walk reads 256 KiB
            // at a time: scattered numbers would each cost that).
            if part.deflated.is_none() && part.table.kept.is_none() && take > 8 {
                build::read_through(
                    part,
                    &self.inputs[at.input],
                    &at,
                    take,
                    self.max_record,
                    &mut |k, loc, data| each(n + k, loc, data),
                )?;
            } else {
                for k in 0..take {
                    let loc = self.read(n + k, &mut buf)?;
                    each(n + k, &loc, &buf)?;
                }
            }
            n += take;
        }
        Ok(())
    }

    /// Writes `NAME.idx` (`tfr index`'s format) for each plain input whose
    /// index was built by walking it (not with a filter), into `dir` or
    /// beside the input; the paths written.
    pub fn save_index(&self, dir: Option<&std::path::Path>) -> Result<Vec<String>> {
        export::save(self, dir)
    }

    /// The whole index as bytes, for [`Records::open_with_index`].
    pub fn export_index(&self) -> Vec<u8> {
        export::export(self)
    }

    /// Opens the inputs with an index [`Records::export_index`] made, without
    /// walking plain inputs again (gzip/zlib inputs are inflated once more
    /// for their checkpoints). Bytes that do not fit the inputs (sizes,
    /// compression, counts, filter) are refused.
    pub fn open_with_index(inputs: Vec<Input>, opts: Options, exported: &[u8]) -> Result<Records> {
        let parts = export::import(&inputs, &opts, exported)?;
        Ok(Records::from_parts(inputs, parts, &opts))
    }
}

impl Part {
    /// Reads a located record's framed bytes and checks them; `buf` holds
    /// its payload.
    fn read(&self, input: &Input, at: &Located, buf: &mut Vec<u8>, max_record: u64) -> Result<()> {
        self.read_framed(at, buf, max_record)
            .map_err(|e| crate::error::Error::from(record::read_error(input, e)))?
    }

    /// [`Part::read`]: damage as a `ReadError`, a stale index as the inner error.
    fn read_framed(
        &self,
        at: &Located,
        buf: &mut Vec<u8>,
        max_record: u64,
    ) -> std::result::Result<Result<()>, ReadError> {
        let damage = |kind| {
            ReadError::Damage(Damage {
                kind,
                record: at.record,
                offset: at.offset,
                compression: self.compression,
            })
        };
        if at.len > max_record {
            return Err(damage(DamageKind::TooLarge {
                length: at.len,
                limit: max_record,
            }));
        }
        let framed = at.len as usize + HEADER_LEN + FOOTER_LEN;
        buf.clear();
        let whole = match &self.deflated {
            None => {
                buf.resize(framed, 0);
                // As much as there is (a file cut since it was indexed
                // says how much is left).
                let mut got = 0;
                while got < framed {
                    match self.at.read_at(&mut buf[got..], at.offset + got as u64)? {
                        0 => break,
                        n => got += n,
                    }
                }
                buf.truncate(got);
                got == framed
            }
            Some(d) => {
                d.read(&self.at, self.size, at.offset, framed, buf)
                    .map_err(|e| match crate::io::corrupt(&e) {
                        Some(c) => damage(DamageKind::CorruptCompressed { reason: c.to_string() }),
                        None => ReadError::Io(e),
                    })?
            }
        };
        if !whole {
            let present = buf.len().saturating_sub(HEADER_LEN) as u64;
            return Err(damage(DamageKind::TruncatedPayload {
                length: at.len,
                present,
            }));
        }
        match check_framed(buf, at.len) {
            Ok(()) => {}
            Err(Err(kind)) => return Err(damage(kind)),
            Err(Ok(said)) => return Ok(Err(crate::error::err!(
                "{}: record {} at byte {}: its header says {said} bytes, the index {}: the index does not match the file (it changed since it was indexed)",
                self.name,
                at.record,
                at.offset,
                at.len
            ))),
        }
        buf.copy_within(HEADER_LEN..HEADER_LEN + at.len as usize, 0);
        buf.truncate(at.len as usize);
        Ok(Ok(()))
    }
}

/// Checks a record's framing: the header says `len` (its CRC checks), the
/// payload's CRC checks. `Err(Ok(l))`: the header says `l` bytes.
fn check_framed(framed: &[u8], len: u64) -> std::result::Result<(), std::result::Result<u64, DamageKind>> {
    let end = HEADER_LEN + len as usize;
    let (Some(header), Some(footer)) = (framed.get(..HEADER_LEN), framed.get(end..end + FOOTER_LEN)) else {
        return Err(Err(DamageKind::LengthCrcMismatch));
    };
    let header: &[u8; HEADER_LEN] = header.try_into().map_err(|_| Err(DamageKind::LengthCrcMismatch))?;
    match record::parse_header(header) {
        Some(l) if l == len => {}
        Some(l) => return Err(Ok(l)),
        None => return Err(Err(DamageKind::LengthCrcMismatch)),
    }
    let stored = u32::from_le_bytes(footer.try_into().map_err(|_| Err(DamageKind::DataCrcMismatch))?);
    if record::masked_crc(&framed[HEADER_LEN..end]) != stored {
        return Err(Err(DamageKind::DataCrcMismatch));
    }
    Ok(())
}

//! Opening the inputs: their compression, their tables (from an index
//! file that matches, or by walking the records, inputs on several
//! threads), and reading a run of a plain input's records in order.

use super::deflated::{Deflated, Format, Inflating};
use super::{IndexSource, Located, Options, Part, Table};
use crate::error::{bail, Result};
use crate::example::{self, Decoder};
use crate::io::at::At;
use crate::io::input::Opened;
use crate::io::{Compression, Input};
use crate::pipeline::batches;
use crate::record::index_file::{self, Found};
use crate::record::{self, RecordReader, Source};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Each input opened and indexed, on up to `opts.jobs` threads.
pub(super) fn parts(inputs: &[Input], opts: &Options) -> Result<Vec<Part>> {
    let jobs = opts.jobs.clamp(1, inputs.len().max(1));
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Result<Part>>>> = inputs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(i) else {
                    break;
                };
                let done = part(input, opts);
                if done.is_err() {
                    // The first error ends the run: no more inputs started.
                    next.store(inputs.len(), Ordering::Relaxed);
                }
                *slots[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(done);
            });
        }
    });
    let mut parts = Vec::with_capacity(inputs.len());
    for slot in slots {
        // None: not started, after an error in an earlier input.
        if let Some(done) = slot.into_inner().unwrap_or_else(PoisonError::into_inner) {
            parts.push(done?);
        }
    }
    if parts.len() < inputs.len() {
        bail!("indexing stopped early");
    }
    Ok(parts)
}

/// The positional reader of an input and its size.
pub(super) fn open_at(input: &Input) -> Result<(At, u64)> {
    match input.open()? {
        Opened::File(f, len) => Ok((At::file(f), len)),
        Opened::Object(at, len) => Ok((at, len)),
        Opened::Stream(_) => bail!(
            "{}: records by number need a file or an object, not a stream (stdin, a pipe): save it to a file first",
            input.display()
        ),
    }
}

/// The compression of an input, forced or from its first bytes.
pub(super) fn compression(input: &Input, at: &At, size: u64, forced: Option<Compression>) -> Result<Compression> {
    let c = match forced {
        Some(c) => c,
        None => {
            let mut head = vec![0u8; size.min(64 << 10) as usize];
            let whole = at.read_exact_at(&mut head, 0)?;
            if !whole {
                bail!("{}: it changed while being read", input.display());
            }
            record::sniff(&head)
        }
    };
    if c == Compression::Snappy {
        let name = input.display();
        bail!(
            "{name}: SNAPPY-compressed, which has no seek index: read it through (tfr cat {name}), or convert it to plain or gzip records first (tfr reshard {name} -o PLAIN.tfrecord)"
        );
    }
    Ok(c)
}

/// One input, opened and indexed.
fn part(input: &Input, opts: &Options) -> Result<Part> {
    let name = input.display();
    let (at, size) = open_at(input)?;
    let compression = compression(input, &at, size, opts.open.compression)?;
    let format = match compression {
        Compression::Gzip => Format::Gzip,
        Compression::Zlib => Format::Zlib,
        _ => {
            if let Some(table) = from_index_file(input, &name, &at, size, opts)? {
                return Ok(Part::new(name, at, size, compression, table, false, None));
            }
            let mut reader = RecordReader::new(Source::from_at(at.clone(), size), Compression::None);
            let table = walk(&mut reader, input, &name, opts)?;
            return Ok(Part::new(name, at, size, compression, table, true, None));
        }
    };
    let (table, deflated) = walk_deflated(input, &name, (&at, size), format, opts)?;
    Ok(Part::new(name, at, size, compression, table, true, Some(deflated)))
}

impl Part {
    pub(super) fn new(
        name: String,
        at: At,
        size: u64,
        compression: Compression,
        table: Table,
        built: bool,
        deflated: Option<Deflated>,
    ) -> Part {
        Part {
            name,
            at,
            size,
            compression,
            table,
            built,
            deflated,
        }
    }
}

/// Walks a gzip/zlib input: its table and its checkpoints.
pub(super) fn walk_deflated(
    input: &Input,
    name: &str,
    (at, size): (&At, u64),
    format: Format,
    opts: &Options,
) -> Result<(Table, Deflated)> {
    let list = Arc::new(Mutex::new(Vec::new()));
    let every = opts.checkpoint_every.max(1);
    let inflating = Inflating::walk(at.clone(), size, format, every, list.clone());
    let compression = match format {
        Format::Gzip => Compression::Gzip,
        Format::Zlib => Compression::Zlib,
    };
    let mut reader = RecordReader::new(Source::from_reader(Box::new(inflating)), compression);
    let table = walk(&mut reader, input, name, opts)?;
    drop(reader);
    let checkpoints = std::mem::take(&mut *list.lock().unwrap_or_else(PoisonError::into_inner));
    Ok((table, Deflated::new(format, every, checkpoints)))
}

/// The table of a plain input from its index file, when there is one
/// that matches (else a warning says why, and `None`).
fn from_index_file(input: &Input, name: &str, at: &At, size: u64, opts: &Options) -> Result<Option<Table>> {
    let dir = match &opts.index {
        _ if opts.filter.is_some() => return Ok(None),
        IndexSource::Build => return Ok(None),
        IndexSource::Auto => None,
        IndexSource::Dir(d) => Some(d.as_path()),
    };
    let idx = match index_file::find(input, dir) {
        Found::Missing => return Ok(None),
        Found::Older(shown) => {
            warn(&shown, name, "it is older than the file");
            return Ok(None);
        }
        Found::File(idx) => idx,
    };
    let shown = idx.display();
    let mut offsets = Vec::new();
    let mut length = |_, offset| index_file::header_length(at, offset);
    // Lines past the file's end are not kept (the check refuses them).
    let mut each = |_, offset, _| {
        if offset < size {
            offsets.push(offset);
        }
    };
    match index_file::check(&idx, size, &mut length, &mut each) {
        Ok(Ok(_)) => Ok(Some(Table {
            offsets,
            kept: None,
            end: size,
        })),
        Ok(Err(why)) => {
            warn(&shown, name, &why);
            Ok(None)
        }
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => {
            warn(&shown, name, &format!("{e:#}"));
            Ok(None)
        }
    }
}

fn warn(idx: &str, name: &str, why: &str) {
    crate::io::warn(format_args!(
        "warning: {idx} does not match {name} ({why}): indexing the file by reading its records instead"
    ));
}

/// Walks an input's records: where each starts (with a filter: those it
/// keeps, their lengths and numbers).
fn walk(reader: &mut RecordReader, input: &Input, name: &str, opts: &Options) -> Result<Table> {
    reader.set_max_record(opts.open.max_record);
    let failed = |e| record::read_error(input, e);
    let mut offsets = Vec::new();
    let Some(filter) = &opts.filter else {
        while let Some(m) = reader.skip_record().map_err(failed)? {
            offsets.push(m.offset);
        }
        let end = reader.offset();
        return Ok(Table {
            offsets,
            kept: None,
            end,
        });
    };
    let (strict, mut ty) = (opts.ty.is_none(), opts.ty);
    let mut decoder = Decoder::default();
    let (mut lens, mut numbers) = (Vec::new(), Vec::new());
    while let Some(rec) = reader.next_record().map_err(failed)? {
        let t = match ty {
            Some(t) => t,
            None => *ty.insert(
                example::resolve_auto(rec.data).map_err(|e| batches::decode_error(name, rec.index, rec.offset, e))?,
            ),
        };
        let r = batches::Record {
            payload: rec.data,
            index: rec.index,
            offset: rec.offset,
            input: 0,
            name,
            ty: t,
            strict,
            crc: rec.crc,
        };
        if batches::keeps(filter, &mut decoder, &r)? {
            offsets.push(rec.offset);
            lens.push(rec.data.len() as u64);
            numbers.push(rec.index);
        }
    }
    let end = reader.offset();
    Ok(Table {
        offsets,
        kept: Some((lens, numbers)),
        end,
    })
}

/// Reads `take` records of a plain input from `at` on, in order through
/// one buffered reader, checking each is where the table says.
pub(super) fn read_through(
    part: &Part,
    input: &Input,
    at: &Located,
    take: u64,
    max_record: u64,
    each: &mut super::EachRecord<'_>,
) -> Result<()> {
    let mut reader = RecordReader::new(Source::from_at(part.at.clone(), part.size), Compression::None);
    reader.set_max_record(max_record);
    reader.seek_to(at.offset, at.record)?;
    for k in 0..take {
        let n = at.record + k;
        let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? else {
            bail!(
                "{}: it ends before record {n}: it changed since it was indexed",
                part.name
            );
        };
        let (_, offset, len) = part.table.get(n as usize);
        if rec.offset != offset || rec.data.len() as u64 != len {
            bail!(
                "{}: record {n} at byte {}: not the {len}-byte record at byte {offset} the index says: the file changed since it was indexed",
                part.name,
                rec.offset
            );
        }
        let loc = Located {
            input: at.input,
            record: n,
            offset,
            len,
        };
        each(k, &loc, rec.data)?;
    }
    Ok(())
}

/// Inflates a whole gzip/zlib input once more for its checkpoints: the
/// decompressed size and the checkpoints.
pub(super) fn walk_inflate(
    at: &At,
    size: u64,
    format: Format,
    every: u64,
) -> Result<(u64, Vec<super::deflated::Checkpoint>)> {
    use std::io::Read;
    let list = Arc::new(Mutex::new(Vec::new()));
    let mut inflating = Inflating::walk(at.clone(), size, format, every, list.clone());
    let mut sink = vec![0u8; 256 << 10];
    while inflating.read(&mut sink)? > 0 {}
    let out = inflating.out_pos();
    drop(inflating);
    let checkpoints = std::mem::take(&mut *list.lock().unwrap_or_else(PoisonError::into_inner));
    Ok((out, checkpoints))
}

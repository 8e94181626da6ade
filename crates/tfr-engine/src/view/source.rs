//! Reading the viewer's records where the index says they are: one cursor
//! per input, moved by position where the input allows it (a plain file,
//! a plain object in a store: `seek_to` an offset), else read forward (a
//! compressed input: records are skipped from where the cursor stands; a
//! jump backwards opens the input again).

use super::index::Mark;
use super::View;
use crate::error::{Context, Result};
use crate::example::{Decoder, MessageType};
use crate::io::{Compression, Input};
use crate::pipeline::batches;
use crate::record::{self, RecordReader};
use std::sync::{Mutex, OnceLock};

/// One input of the viewer.
pub(crate) struct Source {
    /// The input.
    pub(crate) input: Input,
    /// Its name, as shown.
    pub(crate) name: String,
    /// Its payload type, and whether it was guessed (auto: unknown fields
    /// are then an error), once known.
    ty: OnceLock<(MessageType, bool)>,
    /// Its compression, and whether it is read by position, once opened.
    pub(crate) access: OnceLock<(Compression, bool)>,
    /// The reader requests move about.
    cursor: Mutex<Option<RecordReader>>,
}

/// A record read for a page.
#[derive(Debug)]
pub(crate) struct Rec {
    /// Its number among the records shown.
    pub(crate) n: u64,
    /// Its input (number).
    pub(crate) input: usize,
    /// Its number in its input.
    pub(crate) record: u64,
    /// Its type, and whether guessed.
    pub(crate) ty: (MessageType, bool),
    /// Its payload.
    pub(crate) payload: Vec<u8>,
}

/// Whether a reader reads by position (so it can seek to an offset).
pub(crate) fn seekable(r: &RecordReader) -> bool {
    r.compression() == Compression::None && r.size().is_some()
}

impl Source {
    pub(crate) fn new(input: Input) -> Source {
        Source {
            name: input.display(),
            input,
            ty: OnceLock::new(),
            access: OnceLock::new(),
            cursor: Mutex::new(None),
        }
    }

    /// Opens the input afresh.
    pub(crate) fn open(&self, view: &View) -> Result<RecordReader> {
        let reader = view.opts.open.open(&self.input)?;
        let _ = self.access.set((reader.compression(), seekable(&reader)));
        Ok(reader)
    }

    /// The payload type: `--type`, else the first record's.
    pub(crate) fn ty(&self, view: &View) -> Result<(MessageType, bool)> {
        if let Some(ty) = view.opts.ty {
            return Ok((ty, false));
        }
        if let Some(known) = self.ty.get() {
            return Ok(*known);
        }
        let mut reader = self.open(view)?;
        let found = match reader.next_record().map_err(|e| record::read_error(&self.input, e))? {
            Some(first) => crate::example::resolve_auto(first.data)
                .map_err(|e| batches::decode_error(&self.name, 0, first.offset, e))?,
            None => MessageType::Example,
        };
        Ok(*self.ty.get_or_init(|| (found, true)))
    }

    /// The cursor, standing before record `record` at `offset`.
    fn place<'a>(
        &self,
        view: &View,
        cursor: &'a mut Option<RecordReader>,
        record: u64,
        offset: u64,
    ) -> Result<&'a mut RecordReader> {
        let usable = match cursor.as_mut() {
            Some(r) if r.index() == record => true,
            Some(r) if seekable(r) => {
                r.seek_to(offset, record).context(self.name.clone())?;
                true
            }
            // A compressed input read forward from where it stands.
            Some(r) => r.index() < record,
            None => false,
        };
        if !usable {
            let mut r = self.open(view)?;
            if seekable(&r) {
                r.seek_to(offset, record).context(self.name.clone())?;
            }
            *cursor = Some(r);
        }
        let r = cursor.as_mut().context("no cursor")?;
        while r.index() < record {
            if r.skip_record()
                .map_err(|e| record::read_error(&self.input, e))?
                .is_none()
            {
                crate::error::bail!(
                    "{}: it ends before record {record}: it changed while being viewed",
                    self.name
                );
            }
        }
        Ok(r)
    }
}

/// Up to `limit` records shown from number `first` on, walking from the
/// mark at or before it; the records read before an error, and the error.
pub(crate) fn read(view: &View, mark: Mark, first: u64, limit: usize) -> (Vec<Rec>, Option<crate::error::Error>) {
    let mut out = Vec::new();
    let mut walk = Walk {
        n: mark.n,
        first,
        limit,
        decoder: Decoder::default(),
    };
    let (mut record, mut offset) = (mark.at.record, mark.at.offset);
    for input in mark.at.input as usize..view.sources.len() {
        if out.len() >= limit {
            break;
        }
        if let Err(e) = walk.input(view, input, (record, offset), &mut out) {
            return (out, Some(e));
        }
        (record, offset) = (0, 0);
    }
    (out, None)
}

/// A walk over the records from a mark.
struct Walk {
    /// The number of the next record shown.
    n: u64,
    first: u64,
    limit: usize,
    decoder: Decoder,
}

impl Walk {
    /// Walks input `i` from `(record, offset)` to its end or the page's.
    fn input(&mut self, view: &View, i: usize, (record, offset): (u64, u64), out: &mut Vec<Rec>) -> Result<()> {
        let src = &view.sources[i];
        let ty = src.ty(view)?;
        let mut guard = src.cursor.lock().unwrap_or_else(|e| e.into_inner());
        let result = self.input_from(view, src, &mut guard, (i, record, offset), ty, out);
        if result.is_err() {
            // A reader that failed is not trusted again.
            *guard = None;
        }
        result
    }

    fn input_from(
        &mut self,
        view: &View,
        src: &Source,
        cursor: &mut Option<RecordReader>,
        (i, record, offset): (usize, u64, u64),
        ty: (MessageType, bool),
        out: &mut Vec<Rec>,
    ) -> Result<()> {
        let reader = src.place(view, cursor, record, offset)?;
        let filter = view.opts.filter.as_ref();
        while out.len() < self.limit {
            if filter.is_none() && self.n < self.first {
                // Shown, but before the page: stepped over unread.
                match reader.skip_record().map_err(|e| record::read_error(&src.input, e))? {
                    Some(_) => self.n += 1,
                    None => break,
                }
                continue;
            }
            let Some(rec) = reader.next_record().map_err(|e| record::read_error(&src.input, e))? else {
                break;
            };
            if let Some(f) = filter {
                let r = batches::Record {
                    payload: rec.data,
                    index: rec.index,
                    offset: rec.offset,
                    input: i as u32,
                    name: &src.name,
                    ty: ty.0,
                    strict: ty.1,
                    crc: rec.crc,
                };
                if !batches::keeps(f, &mut self.decoder, &r)? {
                    continue;
                }
            }
            if self.n >= self.first {
                out.push(Rec {
                    n: self.n,
                    input: i,
                    record: rec.index,
                    ty,
                    payload: rec.data.to_vec(),
                });
            }
            self.n += 1;
        }
        Ok(())
    }
}

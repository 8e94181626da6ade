//! The index builder: one background thread that reads the inputs in
//! order and tells the index (see [`super::index`]) where each record
//! shown is. Without `--where` a plain input is stepped through by its
//! headers (payloads are not read), or its `tfr index` file is used when
//! it still matches the input ([`super::idx`]); with `--where` every
//! record is read and the filter evaluated. Damage stops the index there:
//! the records before it are shown, and `/api/info` says why it stopped.

use super::index::Hit;
use super::source::Source;
use super::View;
use crate::error::Result;
use crate::example::Decoder;
use crate::pipeline::batches;
use crate::record;
use std::time::{Duration, Instant};

/// Hits handed to the index at once at most.
const BATCH: usize = 4096;
/// Time between two hand-overs at most (so a slow input's records show).
const EVERY: Duration = Duration::from_millis(50);

/// Hits not yet handed to the index.
struct Pending {
    hits: Vec<Hit>,
    /// Records read so far, over all inputs.
    read: u64,
    since: Instant,
}

impl Pending {
    fn push(&mut self, view: &View, hit: Hit) {
        self.hits.push(hit);
        if self.hits.len() >= BATCH || (self.hits.len() % 256 == 0 && self.since.elapsed() >= EVERY) {
            self.flush(view);
        }
    }

    /// Called now and then while records are read without a hit.
    fn tick(&mut self, view: &View) {
        if self.since.elapsed() >= EVERY {
            self.flush(view);
        }
    }

    fn flush(&mut self, view: &View) {
        let read = self.read;
        let hits = std::mem::take(&mut self.hits);
        view.index.update(|index| {
            index.extend(&hits);
            index.read = read;
        });
        self.hits = hits;
        self.hits.clear();
        self.since = Instant::now();
    }
}

/// Builds the index of every input, in order.
pub(crate) fn build(view: &View) {
    let mut pending = Pending {
        hits: Vec::with_capacity(BATCH),
        read: 0,
        since: Instant::now(),
    };
    for (i, src) in view.sources.iter().enumerate() {
        let from_idx = match view.opts.filter.is_none() && view.opts.use_idx {
            true => super::idx::load(view, src, &mut |record, offset| {
                let read = pending.read;
                pending.push(
                    view,
                    Hit {
                        input: i as u32,
                        record,
                        offset,
                        read,
                    },
                );
                pending.read += 1;
            }),
            false => Ok(None),
        };
        let done = match from_idx {
            Ok(Some(records)) => Ok(("idx", records, records)),
            Ok(None) => scan(view, i, src, &mut pending).map(|(records, shown)| ("scan", records, shown)),
            Err(e) => Err(e),
        };
        pending.flush(view);
        match done {
            Ok((how, records, shown)) => view.index.update(|index| {
                index.inputs[i] = Some(super::index::Counted { records, shown });
                index.how[i] = Some(how);
            }),
            Err(e) => {
                view.index.update(|index| {
                    index.error = Some(format!("{e:#}"));
                    index.complete = true;
                });
                return;
            }
        }
    }
    // The names of --where that no record has: a warning, or with
    // --strict what stopped the index.
    let strict = view.opts.filter.as_ref().and_then(|f| f.strict_error());
    if let (Some(f), None) = (&view.opts.filter, &strict) {
        for name in f.unmatched() {
            crate::io::warn(format_args!("warning: --where: {name}"));
        }
    }
    view.index.update(|index| {
        index.error = strict.map(|e| e.to_string());
        index.complete = true;
    });
}

/// Reads input `i` through: its records, and those shown.
fn scan(view: &View, i: usize, src: &Source, pending: &mut Pending) -> Result<(u64, u64)> {
    let mut reader = src.open(view)?;
    let filter = view.opts.filter.as_ref();
    let ty = match filter {
        Some(_) => Some(src.ty(view)?),
        None => None,
    };
    let mut decoder = Decoder::default();
    let mut shown = 0u64;
    let read_error = |e| record::read_error(&src.input, e);
    loop {
        let (index, offset, keep) = match (filter, ty) {
            (Some(f), Some((ty, strict))) => {
                let Some(rec) = reader.next_record().map_err(read_error)? else {
                    break;
                };
                let r = batches::Record {
                    payload: rec.data,
                    index: rec.index,
                    offset: rec.offset,
                    input: i as u32,
                    name: &src.name,
                    ty,
                    strict,
                    crc: rec.crc,
                };
                let keep = batches::keeps(f, &mut decoder, &r)?;
                (rec.index, rec.offset, keep)
            }
            _ => match reader.skip_record().map_err(read_error)? {
                Some(meta) => (meta.index, meta.offset, true),
                None => break,
            },
        };
        if keep {
            let hit = Hit {
                input: i as u32,
                record: index,
                offset,
                read: pending.read,
            };
            pending.push(view, hit);
            shown += 1;
        } else if index % 256 == 0 {
            pending.tick(view);
        }
        pending.read += 1;
    }
    Ok((reader.index(), shown))
}

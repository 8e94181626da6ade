//! Records read into batches for the rendering pipeline of `cat` and
//! `to-jsonl`: inputs are read (and inflated) on up to `--jobs` threads at
//! once, and the batches reach the workers in input order
//! ([`super::in_input_order`]).

use super::{Sender, Spares, Stopped};
use crate::example::{self, Decoder, MessageType, Out};
use crate::io::Input;
use crate::record;
use anyhow::Result;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Payload bytes per batch handed to a worker.
const BATCH: usize = 256 * 1024;
/// Records per batch at most.
const BATCH_RECORDS: usize = 8192;
/// A payload longer than this is rendered by the reading thread as it is
/// read, its output handed on in megabyte batches, so neither the payload
/// nor its rendering is copied whole (memory: the record, plus a few
/// megabytes).
const HUGE: usize = 4 << 20;

/// One record to render, with what its input says about it.
pub struct Record<'a> {
    pub payload: &'a [u8],
    pub index: u64,
    pub offset: u64,
    pub ty: MessageType,
    pub strict: bool,
    pub name: &'a str,
}

/// How a command turns one record into output (appended to the [`Out`];
/// a decode error already names the record, see [`decode_error`]).
pub type Render<'r> = dyn Fn(&mut Decoder, &Record<'_>, &mut Out<'_>) -> Result<()> + Sync + 'r;

/// Consecutive records of one input, for a worker to render.
pub struct Batch {
    data: Vec<u8>,
    /// Per record: end of its payload in `data`, index, byte offset.
    records: Vec<(usize, u64, u64)>,
    /// The message type of every record of the input.
    pub ty: MessageType,
    /// Whether the type was guessed (auto: unknown fields are an error).
    pub strict: bool,
    /// The input's display name.
    pub name: Arc<str>,
    /// Output already rendered by the reading thread (a part of a huge
    /// record's rendering), in `data`; no records.
    rendered: bool,
}

impl Batch {
    /// Renders every record of the batch, in order, with `render` (or
    /// passes on what the reading thread rendered).
    pub fn render(&self, render: &Render<'_>, out: &mut Vec<u8>) -> Result<()> {
        if self.rendered {
            out.extend_from_slice(&self.data);
            return Ok(());
        }
        example::with_decoder(|decoder| {
            let mut out = Out::new(out);
            for (payload, index, offset) in self.records() {
                let record = Record {
                    payload,
                    index,
                    offset,
                    ty: self.ty,
                    strict: self.strict,
                    name: &self.name,
                };
                render(decoder, &record, &mut out)?;
            }
            Ok(())
        })
    }

    /// The records: payload, index, byte offset.
    pub fn records(&self) -> impl Iterator<Item = (&[u8], u64, u64)> {
        let mut start = 0;
        self.records.iter().map(move |&(end, index, offset)| {
            let payload = &self.data[start..end];
            start = end;
            (payload, index, offset)
        })
    }
}

/// Reads every record of every input into batches for `send`, in input
/// order, reading up to `jobs` inputs at once. A damaged input ends the run
/// after the batches of the records before the damage.
///
/// `ty` is the message type of every record, or `None` to decide it per
/// input from its first record (auto: decoded strictly, see
/// [`crate::example`]). `progress(bytes, records)` is called from the
/// reading threads as batches go out.
pub fn produce(
    inputs: &[Input],
    open: &record::OpenOptions,
    ty: Option<MessageType>,
    jobs: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
    render: &Render<'_>,
    tx: &mut Sender<'_, Batch>,
) -> Result<()> {
    let records = AtomicU64::new(0);
    let spares = tx.spares();
    let read = |i: usize, emit: &mut dyn FnMut(Batch) -> Result<(), Stopped>| {
        let shared = Shared {
            open,
            fixed: ty,
            records: &records,
            progress,
            spares,
            render,
        };
        read_input(&inputs[i], &shared, emit)
    };
    super::in_input_order(inputs.len(), jobs, read, |b| tx.send(b))
}

/// A payload that is not the expected message, named by file, record and offset.
pub fn decode_error(name: &str, index: u64, offset: u64, e: example::DecodeError) -> anyhow::Error {
    anyhow::Error::new(e).context(format!("{name}: record {index} at byte {offset}"))
}

/// What every reading thread shares.
struct Shared<'a, 'r> {
    open: &'a record::OpenOptions,
    fixed: Option<MessageType>,
    records: &'a AtomicU64,
    progress: &'a (dyn Fn(u64, u64) + Sync),
    spares: &'a Spares<Batch>,
    render: &'a Render<'r>,
}

impl Shared<'_, '_> {
    /// An empty batch (a spare one when there is one).
    fn batch(&self, ty: MessageType, strict: bool, name: &Arc<str>) -> Batch {
        match self.spares.take() {
            Some(mut b) => {
                b.data.clear();
                b.records.clear();
                (b.ty, b.strict, b.name, b.rendered) = (ty, strict, name.clone(), false);
                b
            }
            None => Batch {
                data: Vec::with_capacity(BATCH + BATCH / 4),
                records: Vec::with_capacity(BATCH_RECORDS / 2),
                ty,
                strict,
                name: name.clone(),
                rendered: false,
            },
        }
    }

    /// Renders a huge record here, handing its output on in batches.
    fn render_here(&self, record: &Record<'_>, emit: &mut dyn FnMut(Batch) -> Result<(), Stopped>) -> Result<()> {
        let name: Arc<str> = record.name.into();
        let mut stopped = false;
        let mut sink = |bytes: &[u8]| {
            let mut b = self.batch(record.ty, record.strict, &name);
            b.rendered = true;
            b.data.extend_from_slice(bytes);
            emit(b).map_err(|_| {
                stopped = true;
                std::io::Error::other(Stopped)
            })
        };
        let mut buf = Vec::new();
        let mut out = Out::spilling(&mut buf, &mut sink);
        let rendered = example::with_decoder(|decoder| (self.render)(decoder, record, &mut out));
        let flushed = out.finish();
        rendered?;
        flushed?;
        if !buf.is_empty() {
            sink(&buf)?;
        }
        if stopped {
            return Err(Stopped.into());
        }
        Ok(())
    }
}

/// Reads the records of one input into batches.
fn read_input(
    input: &Input,
    shared: &Shared<'_, '_>,
    emit: &mut dyn FnMut(Batch) -> Result<(), Stopped>,
) -> Result<()> {
    let Shared {
        open,
        fixed,
        records,
        progress,
        ..
    } = *shared;
    let mut reader = open.open(input)?;
    let stream = match input {
        Input::Stdin => true,
        Input::Path(p) => std::fs::metadata(p).is_ok_and(|m| !m.is_file()),
    };
    let name: Arc<str> = input.display().into();
    let strict = fixed.is_none();
    let mut ty = fixed;
    let mut batch: Option<Batch> = None;
    let result = (|| -> Result<()> {
        while let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? {
            let t = match ty {
                Some(t) => t,
                None => *ty.insert(
                    example::resolve_auto(rec.data).map_err(|e| decode_error(&name, rec.index, rec.offset, e))?,
                ),
            };
            if rec.data.len() > HUGE {
                if let Some(b) = batch.take() {
                    records.fetch_add(b.records.len() as u64, Relaxed);
                    emit(b)?;
                }
                let record = Record {
                    payload: rec.data,
                    index: rec.index,
                    offset: rec.offset,
                    ty: t,
                    strict,
                    name: &name,
                };
                shared.render_here(&record, emit)?;
                progress(reader.offset(), records.fetch_add(1, Relaxed) + 1);
                continue;
            }
            let b = batch.get_or_insert_with(|| shared.batch(t, strict, &name));
            b.data.extend_from_slice(rec.data);
            b.records.push((b.data.len(), rec.index, rec.offset));
            // A stream (stdin, a pipe) sends what it has before waiting for
            // more, so a slow producer's records are printed as they come.
            let waiting = stream && reader.source_mut().buffer().is_empty();
            if b.data.len() >= BATCH || b.records.len() >= BATCH_RECORDS || waiting {
                let n = b.records.len() as u64;
                emit(batch.take().expect("a batch"))?;
                progress(reader.offset(), records.fetch_add(n, Relaxed) + n);
            }
        }
        Ok(())
    })();
    // Everything before the damage goes out, then the error.
    if let Some(b) = batch.take() {
        records.fetch_add(b.records.len() as u64, Relaxed);
        emit(b)?;
    }
    result
}

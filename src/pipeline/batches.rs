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
/// read, its output handed on in batches of about [`BATCH`] bytes, so
/// neither the payload nor its rendering is copied whole (memory: the
/// record, plus the pipeline's window of such batches: a few megabytes).
const HUGE: usize = 4 << 20;

/// Which records of the inputs taken together are read: skip the first
/// `skip`, then read at most `limit`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Range {
    pub skip: u64,
    pub limit: Option<u64>,
}

impl Range {
    /// Every record.
    fn is_all(&self) -> bool {
        self.skip == 0 && self.limit.is_none()
    }
}

/// How the inputs of [`produce`] are read.
#[derive(Clone, Copy, Debug)]
pub struct Reading<'a> {
    /// How each input is opened.
    pub open: &'a record::OpenOptions,
    /// The message type of every record, or `None` to decide it per input
    /// from its first record read (auto: decoded strictly).
    pub ty: Option<MessageType>,
    /// Inputs read at once.
    pub jobs: usize,
    /// Which records.
    pub range: Range,
    /// A uniform random sample of the records instead (the range is then
    /// not used): its size and the seed.
    pub sample: Option<(u64, u64)>,
}

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

/// Reads the records of the inputs (all, a range, or a sample, see
/// [`Reading`]) into batches for `send`, in input order, reading up to
/// `jobs` inputs at once. A damaged input ends the run after the batches of
/// the records before the damage. `progress(bytes, records)` is called from
/// the reading threads as batches go out.
pub fn produce(
    inputs: &[Input],
    how: &Reading<'_>,
    progress: &(dyn Fn(u64, u64) + Sync),
    render: &Render<'_>,
    tx: &mut Sender<'_, Batch>,
) -> Result<()> {
    let Reading {
        jobs, range, sample, ..
    } = *how;
    if let Some(sample) = sample {
        return produce_sample(inputs, how, sample, progress, render, tx);
    }
    // A range counts over the inputs taken together: they are read one
    // after the other (skipped records hop from header to header).
    let jobs = if range.is_all() { jobs } else { 1 };
    let shared = Shared::new(how, progress, tx.spares(), render);
    let read = |i: usize, emit: &mut dyn FnMut(Batch) -> Result<(), Stopped>| {
        if shared.to_read.load(Relaxed) == 0 {
            return Ok(());
        }
        read_input(&inputs[i], &shared, emit)
    };
    super::in_input_order(inputs.len(), jobs, read, |b| tx.send(b))
}

/// A payload that is not the expected message, named by file, record and offset.
pub fn decode_error(name: &str, index: u64, offset: u64, e: example::DecodeError) -> anyhow::Error {
    anyhow::Error::new(e).context(format!("{name}: record {index} at byte {offset}"))
}

/// A skip this long through a plain file is done on several threads.
const LONG_SKIP: u64 = 1 << 15;

/// What every reading thread shares.
struct Shared<'a, 'r> {
    open: &'a record::OpenOptions,
    fixed: Option<MessageType>,
    records: AtomicU64,
    progress: &'a (dyn Fn(u64, u64) + Sync),
    spares: &'a Spares<Batch>,
    render: &'a Render<'r>,
    /// Records still to skip, and still to read (inputs read in turn).
    to_skip: AtomicU64,
    to_read: AtomicU64,
    /// Threads a long skip through a plain file may walk it with.
    jobs: usize,
}

impl<'a, 'r> Shared<'a, 'r> {
    fn new(
        how: &Reading<'a>,
        progress: &'a (dyn Fn(u64, u64) + Sync),
        spares: &'a Spares<Batch>,
        render: &'a Render<'r>,
    ) -> Self {
        let Reading {
            open, ty, range, jobs, ..
        } = *how;
        Shared {
            open,
            fixed: ty,
            records: AtomicU64::new(0),
            progress,
            spares,
            render,
            to_skip: AtomicU64::new(range.skip),
            to_read: AtomicU64::new(range.limit.unwrap_or(u64::MAX)),
            jobs,
        }
    }
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
        // Long values are escaped in pieces of BATCH / 4 bytes (at most
        // BATCH once escaped), so no batch is much over 2 * BATCH.
        let mut out = Out::spilling_every(&mut buf, &mut sink, BATCH, BATCH / 4);
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
        ref records,
        progress,
        ..
    } = *shared;
    let mut reader = open.open(input)?;
    let stream = input.is_stream();
    let name: Arc<str> = input.display().into();
    let strict = fixed.is_none();
    let mut ty = fixed;
    let mut batch: Option<Batch> = None;
    let result = (|| -> Result<()> {
        // A long skip through a plain file: threads walk its headers and
        // the reader starts near the first record wanted (`--skip` costs
        // about what `count` does).
        let want = shared.to_skip.load(Relaxed);
        if want >= LONG_SKIP {
            if let Some((file, size)) = reader.shared_file() {
                let (offset, index) = record::seek_near(&file, size, shared.jobs, want);
                if index > 0 {
                    reader
                        .seek_to(offset, index)
                        .map_err(|e| record::read_error(input, e.into()))?;
                    shared.to_skip.fetch_sub(index, Relaxed);
                }
            }
        }
        while shared.to_skip.load(Relaxed) > 0 {
            if reader
                .skip_record()
                .map_err(|e| record::read_error(input, e))?
                .is_none()
            {
                return Ok(());
            }
            shared.to_skip.fetch_sub(1, Relaxed);
        }
        loop {
            if shared.to_read.load(Relaxed) == 0 {
                break;
            }
            let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? else {
                break;
            };
            shared.to_read.fetch_sub(1, Relaxed);
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

/// A kept record of a sample.
struct Kept {
    input: usize,
    index: u64,
    offset: u64,
    payload: Vec<u8>,
}

/// `--sample N`: reservoir sampling over the inputs taken together (Li's
/// algorithm L: the gaps between picks are drawn, and the records in a gap
/// hop from header to header), then the kept records go out in input
/// order. Holds N payloads.
fn produce_sample(
    inputs: &[Input],
    how: &Reading<'_>,
    (n, seed): (u64, u64),
    progress: &(dyn Fn(u64, u64) + Sync),
    render: &Render<'_>,
    tx: &mut Sender<'_, Batch>,
) -> Result<()> {
    let mut rng = SplitMix(seed);
    let k = usize::try_from(n).unwrap_or(usize::MAX);
    let mut kept: Vec<Kept> = Vec::new();
    if k > 0 {
        let mut w = (rng.unit().ln() / k as f64).exp();
        let mut seen = 0u64;
        // The position (over all inputs) of the next record to take.
        let mut next = k as u64;
        for (i, input) in inputs.iter().enumerate() {
            let mut reader = how.open.open(input)?;
            loop {
                let take = kept.len() < k || seen == next;
                if !take {
                    let Some(_) = reader.skip_record().map_err(|e| record::read_error(input, e))? else {
                        break;
                    };
                    seen += 1;
                    continue;
                }
                let Some(rec) = reader.next_record().map_err(|e| record::read_error(input, e))? else {
                    break;
                };
                let record = Kept {
                    input: i,
                    index: rec.index,
                    offset: rec.offset,
                    payload: rec.data.to_vec(),
                };
                if kept.len() < k {
                    kept.push(record);
                } else {
                    kept[rng.below(k as u64) as usize] = record;
                    w *= (rng.unit().ln() / k as f64).exp();
                }
                if kept.len() == k && seen + 1 >= next {
                    let gap = (rng.unit().ln() / (1.0 - w).ln()).floor();
                    next = seen + 1 + if gap.is_finite() { gap as u64 } else { u64::MAX / 2 };
                }
                seen += 1;
                if seen & 0xffff == 0 {
                    progress(reader.offset(), seen);
                }
            }
        }
    }
    kept.sort_by_key(|r| (r.input, r.index));
    let spares = tx.spares();
    let mut types: Vec<Option<MessageType>> = vec![how.ty; inputs.len()];
    let strict = how.ty.is_none();
    let mut batch: Option<Batch> = None;
    let mut emit = |b: Batch| tx.send(b);
    let all = Reading {
        range: Range::default(),
        ..*how
    };
    let shared = Shared::new(&all, progress, spares, render);
    for r in &kept {
        let name: Arc<str> = inputs[r.input].display().into();
        let t = match types[r.input] {
            Some(t) => t,
            None => *types[r.input]
                .insert(example::resolve_auto(&r.payload).map_err(|e| decode_error(&name, r.index, r.offset, e))?),
        };
        if batch.as_ref().is_some_and(|b| b.name != name || b.data.len() >= BATCH) || r.payload.len() > HUGE {
            if let Some(b) = batch.take() {
                emit(b)?;
            }
        }
        if r.payload.len() > HUGE {
            let record = Record {
                payload: &r.payload,
                index: r.index,
                offset: r.offset,
                ty: t,
                strict,
                name: &name,
            };
            shared.render_here(&record, &mut emit)?;
            continue;
        }
        let b = batch.get_or_insert_with(|| shared.batch(t, strict, &name));
        b.data.extend_from_slice(&r.payload);
        b.records.push((b.data.len(), r.index, r.offset));
    }
    if let Some(b) = batch.take() {
        emit(b)?;
    }
    Ok(())
}

/// A small deterministic generator (SplitMix64) for `--sample --seed`.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    fn unit(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (n > 0), without modulo bias worth noticing
    /// (multiply-shift over 64 bits).
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

#[cfg(test)]
mod sample_tests {
    use super::SplitMix;

    #[test]
    fn the_generator_is_uniform_enough() {
        let mut rng = SplitMix(7);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[rng.below(10) as usize] += 1;
            let u = rng.unit();
            assert!(u > 0.0 && u <= 1.0);
        }
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
    }
}

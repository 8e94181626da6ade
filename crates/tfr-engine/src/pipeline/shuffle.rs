//! `tfr shuffle`'s engine: the records of the inputs in a uniform random
//! order, in memory bounded by a budget however large the inputs are.
//!
//! Each record, in record order (so whatever `-j`), draws a 64-bit key from
//! a generator seeded by the seed ([`Xoshiro`]); the output is the records
//! sorted by key. Sorting by independent uniform keys gives every order the
//! same probability; records with equal keys (about N² / 2⁶⁵ pairs: none in
//! practice) are put in an order of their own drawn from the seed and the
//! key. The order depends on the seed and the records only, not on the
//! budget or on how the records were held.
//!
//! When the records (with 28 bytes of bookkeeping each) fit in the budget
//! they are sorted in memory and written: one pass. When they do not, the
//! records held so far and every one after go to [`FANOUT`] temporary
//! buckets, by the top 8 bits of their key (buckets are then key ranges,
//! written in order); afterwards each bucket that fits is read whole,
//! sorted and written, and one that does not (a skewed draw, or a dataset
//! over `FANOUT` × the budget) is split again by the next 8 bits.
//!
//! A bucket is a run of `key (u64 LE) | length (u64 LE) | CRC (u32 LE) |
//! payload` (the CRC is the record's footer as read: the input's CRCs are
//! checked as it is read, and the output is framed with them), kept
//! in chunks (its write buffer's worth each) of one of [`SEGMENTS`] spill
//! files, which each hold the chunks of `FANOUT / SEGMENTS` neighbouring
//! buckets; a file is removed once its last bucket is read. Few files:
//! making 256 files cost the reading pass more than writing 100 MB into
//! them (a file system skips the inodes of files deleted moments before,
//! one by one), and the disk holds at most 1/16 of the spill beside the
//! output. Full buffers are written by a second thread. The temporary
//! directory is removed on every exit: on return (also on error), and by a
//! hook on a terminating signal.
//!
//! Memory: the records held (payloads and bookkeeping) stay within the
//! budget, less the buckets' write buffers (1/16 of it); once they are
//! written out, the buffers take the budget (nothing is held while
//! spilling). Read back, a bucket of at most half the budget is read and
//! sorted on a second thread while the one before it is emitted (two
//! buckets held, within the budget); a larger one alone. A single record
//! larger than the budget is still held whole.

use super::batches::{self, Batch, Read, Reading, Record, Work};
use super::rng::{splitmix, Xoshiro};
use super::Output;
use crate::error::Result;
use crate::example::{Decoder, MessageType};
use crate::io::at::{write_all_at, ReadAt as _};
use crate::io::output_file::cleanup;
use crate::io::Input;
use crate::record;
use std::fs::File;
use std::io::{self, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

/// Buckets a spill (or a split of a bucket) makes: the next 8 bits of the key.
pub const FANOUT: usize = 256;
/// Spill files a set of buckets is written to (each holds the chunks of
/// `FANOUT / SEGMENTS` neighbouring buckets, read back in turn).
const SEGMENTS: usize = 16;
/// Full write buffers queued for the writing thread (beside the buckets'
/// own): the buffers' share of the budget is split among both.
const IN_FLIGHT: usize = 8;
/// Bookkeeping held per record beside its payload (its key, start, length).
const ENTRY: u64 = std::mem::size_of::<Entry>() as u64;
/// Bytes a bucket holds per record beside its payload: key, length, CRC.
const FRAME: u64 = 20;
/// Bytes held in memory per record beside its payload and its [`Entry`]:
/// its CRC, just before the payload.
const CRC_LEN: usize = 4;
/// The smallest budget the command line accepts (below it the bucket
/// files' buffers would not fit 1/16 of it).
pub const MIN_MEMORY: u64 = 16 << 20;

/// How to shuffle.
#[derive(Clone, Debug)]
pub struct Options {
    /// The same seed and records give the same order.
    pub seed: u64,
    /// The budget, in bytes, for the records held ([`MIN_MEMORY`] or more
    /// keeps the buckets' write buffers within it).
    pub memory: u64,
    /// Where the spill files go (in a new directory removed at the end).
    pub temp_dir: PathBuf,
}

/// Where the shuffled records go.
pub trait Emit {
    /// Before the first record: how many records follow.
    fn begin(&mut self, total: u64) -> Result<()>;
    /// The next record of the shuffled order, with its footer (the
    /// masked CRC-32C of `payload`, as read and checked).
    fn record(&mut self, payload: &[u8], crc: u32) -> Result<()>;

    /// The next record, already framed as a TFRecord (header, payload,
    /// footer): the records read back from spill files are framed where
    /// they lie in the buffer they were read into.
    fn framed(&mut self, record: &[u8]) -> Result<()> {
        let end = record.len() - record::FOOTER_LEN;
        let crc = u32::from_le_bytes(record[end..].try_into().expect("4 bytes"));
        self.record(&record[record::HEADER_LEN..end], crc)
    }
}

/// What [`shuffle`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shuffled {
    /// Records written.
    pub records: u64,
    /// Bytes written to spill files (0: everything fitted in the budget).
    pub spilled: u64,
}

/// Reads the records of `inputs` (see [`batches::run`]), then hands them to
/// `emit` in a uniform random order drawn from `options.seed`, holding at
/// most `options.memory` bytes of them (see the module's documentation).
/// Nothing reaches `emit` if the reading fails.
pub fn shuffle(
    inputs: &[Input],
    how: &Reading<'_>,
    workers: usize,
    options: &Options,
    emit: &mut dyn Emit,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> (Read, Result<Shuffled>) {
    let mut gather = Gather::new(options, workers > 0);
    let (read, result) = batches::run(inputs, how, workers, &Copy, Pass(&mut gather), progress);
    if let Some(e) = gather.failed.take() {
        return (read, Err(e.into()));
    }
    if let Err(e) = result {
        return (read, Err(e));
    }
    let result = gather.finish(emit);
    (read, result)
}

/// The workers' side: each batch's payloads copied out, as they are.
struct Copy;

/// The payloads of one batch, back to back, with their CRCs.
#[derive(Default)]
struct Payloads {
    data: Vec<u8>,
    ends: Vec<usize>,
    crcs: Vec<u32>,
}

impl Output for Payloads {
    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn clear(&mut self) {
        self.data.clear();
        self.ends.clear();
        self.crcs.clear();
    }
}

impl Payloads {
    fn each(&self, mut f: impl FnMut(&[u8], u32) -> io::Result<()>) -> io::Result<()> {
        let mut start = 0;
        for (&end, &crc) in self.ends.iter().zip(&self.crcs) {
            f(&self.data[start..end], crc)?;
            start = end;
        }
        Ok(())
    }

    fn push(&mut self, record: &Record<'_>) {
        self.data.extend_from_slice(record.payload);
        self.ends.push(self.data.len());
        self.crcs.push(record.footer());
    }
}

impl Work for Copy {
    type Out = Payloads;

    fn record(&self, _: &mut Decoder, record: &Record<'_>, out: &mut Payloads) -> Result<()> {
        out.push(record);
        Ok(())
    }

    fn batch(&self, batch: &Batch<Payloads>, out: &mut Payloads) -> Result<()> {
        for record in batch.records() {
            out.push(&record);
        }
        Ok(())
    }

    /// The batch's payloads taken as they are, not copied.
    fn batch_mut(&self, batch: &mut Batch<Payloads>, out: &mut Payloads) -> Result<()> {
        if !out.ends.is_empty() {
            return self.batch(batch, out);
        }
        let mut end = 0;
        for record in batch.records() {
            end += record.payload.len();
            out.ends.push(end);
            out.crcs.push(record.footer());
        }
        batch.take_payloads(&mut out.data);
        Ok(())
    }

    /// Any bytes are a record to shuffle: a first record that is not an
    /// Example is raw bytes, not an error.
    fn resolve(&self, record: &Record<'_>) -> Result<MessageType> {
        Ok(crate::example::resolve_auto(record.payload).unwrap_or(MessageType::Raw))
    }
}

/// One record held in memory: its key and where its payload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: u64,
    start: u64,
    len: u64,
}

/// Records held in memory, each payload after its CRC (or a bucket file
/// read back: each payload after its 20-byte frame, which ends with its
/// CRC).
#[derive(Default)]
struct Held {
    data: Vec<u8>,
    entries: Vec<Entry>,
    /// Whether each payload is framed as a TFRecord where it lies
    /// ([`Held::frame`]).
    framed: bool,
}

impl Held {
    fn cost(&self) -> u64 {
        self.data.len() as u64 + self.entries.len() as u64 * ENTRY
    }

    fn push(&mut self, key: u64, payload: &[u8], crc: u32) {
        self.data.extend_from_slice(&crc.to_le_bytes());
        let start = self.data.len() as u64;
        self.data.extend_from_slice(payload);
        self.entries.push(Entry {
            key,
            start,
            len: payload.len() as u64,
        });
    }

    /// The memory it holds (its buffers' capacity).
    fn capacity(&self) -> u64 {
        self.data.capacity() as u64 + self.entries.capacity() as u64 * ENTRY
    }

    /// Sorts by key (ties: in record order, then in an order drawn from
    /// the seed and the key).
    fn sort(&mut self, seed: u64) {
        sort_entries(&mut self.entries, seed);
    }

    /// The CRC held just before the payload at `start` (until framed).
    fn crc(&self, start: usize) -> u32 {
        u32::from_le_bytes(self.data[start - CRC_LEN..start].try_into().expect("4 bytes"))
    }

    /// Hands the payloads to `emit`, in the order of the entries.
    fn emit(&self, emit: &mut dyn Emit) -> Result<()> {
        for e in &self.entries {
            let (start, end) = (e.start as usize, (e.start + e.len) as usize);
            match self.framed {
                true => emit.framed(&self.data[start - record::HEADER_LEN..end + record::FOOTER_LEN])?,
                false => emit.record(&self.data[start..end], self.crc(start))?,
            }
        }
        Ok(())
    }

    /// A bucket read back and sorted: framed (on the emitting thread: the
    /// reading one has the larger share of the work), then emitted.
    fn emit_read_back(&mut self, emit: &mut dyn Emit) -> Result<()> {
        if !self.framed {
            self.frame();
        }
        self.emit(emit)
    }

    /// Frames every record as a TFRecord where it lies, for a bucket read
    /// back (once its entries are parsed, the frames before the payloads
    /// are free but for the CRCs they end with): the header in the last 12
    /// bytes of its 20-byte frame (its CRC, the last 4, taken first), the
    /// footer over the first 4 of the next record's frame (4 bytes added
    /// after the last).
    fn frame(&mut self) {
        const _: () = assert!(record::HEADER_LEN <= FRAME as usize, "the header fits in the frame");
        const _: () = assert!(
            record::FOOTER_LEN <= FRAME as usize,
            "the footer fits in the next frame"
        );
        const _: () = assert!(
            record::FOOTER_LEN + record::HEADER_LEN <= FRAME as usize,
            "a footer does not reach the next record's header or CRC"
        );
        self.data.extend_from_slice(&[0; record::FOOTER_LEN]);
        for e in &self.entries {
            let (start, end) = (e.start as usize, (e.start + e.len) as usize);
            let footer = self.crc(start).to_le_bytes();
            self.data[start - record::HEADER_LEN..start].copy_from_slice(&record::encode_header(e.len));
            self.data[end..end + record::FOOTER_LEN].copy_from_slice(&footer);
        }
        self.framed = true;
    }
}

/// Sorts entries by key; a run of equal keys (held in record order, so
/// `start` orders it the same way for any budget) is then shuffled by a
/// generator seeded from `seed` and the key.
fn sort_entries(entries: &mut [Entry], seed: u64) {
    match entries.len() > RADIX_MAX {
        true => entries.sort_unstable(),
        false => radix_sort(entries, 56),
    }
    let mut i = 0;
    while i < entries.len() {
        let key = entries[i].key;
        let run = entries[i..].iter().take_while(|e| e.key == key).count();
        if run > 1 {
            let mut rng = Xoshiro::new(seed ^ splitmix(&mut key.clone()));
            rng.shuffle(&mut entries[i..i + run]);
        }
        i += run;
    }
}

/// Runs this short are sorted by comparison.
const RADIX_MIN: usize = 64;
/// Entries past this many (held in memory, not a bucket read back) are
/// sorted by comparison: the radix sort's first pass, swaps all over tens
/// of megabytes, made sorting a million entries 5% slower, not faster.
const RADIX_MAX: usize = 1 << 16;

/// Sorts entries as `sort_unstable` does (by key, then start and length),
/// faster for keys drawn uniformly: the entries are permuted in place into
/// 256 runs by the 8 bits of their key at `shift` (an American flag sort:
/// no second array, so the memory the entries are counted at holds), then
/// each run is sorted by the next 8 bits, down to runs of [`RADIX_MIN`]
/// sorted by comparison. A bucket of 4,000 entries, whose top bits are all
/// the same, takes one pass that moves nothing, one that spreads it, and
/// 256 short sorts: about a third of comparison sorting's time, which was
/// the largest part of reading a bucket back.
fn radix_sort(entries: &mut [Entry], shift: u32) {
    if entries.len() <= RADIX_MIN {
        entries.sort_unstable();
        return;
    }
    let digit = |e: &Entry| ((e.key >> shift) & 0xff) as usize;
    let mut ends = [0usize; 256];
    for e in entries.iter() {
        ends[digit(e)] += 1;
    }
    let mut sum = 0;
    for end in ends.iter_mut() {
        sum += *end;
        *end = sum;
    }
    // Where each run starts, and the next place in it not yet filled.
    let mut starts = [0usize; 256];
    starts[1..].copy_from_slice(&ends[..255]);
    let mut next = starts;
    for d in 0..256 {
        while next[d] < ends[d] {
            let t = digit(&entries[next[d]]);
            if t != d {
                // Into its own run; what was there is looked at next.
                entries.swap(next[d], next[t]);
            }
            next[t] += 1;
        }
    }
    for d in 0..256 {
        let run = &mut entries[starts[d]..ends[d]];
        match shift {
            0 => run.sort_unstable(),
            _ => radix_sort(run, shift - 8),
        }
    }
}

/// The in-order side of the reading: draws each record's key, holds the
/// records, or spills them once they outgrow the budget.
struct Gather<'a> {
    rng: Xoshiro,
    held: Held,
    /// The budget less the buckets' write buffers.
    hold_limit: u64,
    spill: Option<Spill>,
    options: &'a Options,
    records: u64,
    /// A spill file that could not be made or written.
    failed: Option<io::Error>,
    /// Whether spill files are written, and read back, on second threads.
    threaded: bool,
}

/// [`Gather`] as the reader's [`super::Sink`].
struct Pass<'g, 'a>(&'g mut Gather<'a>);

impl super::Sink<Payloads> for Pass<'_, '_> {
    fn batch(&mut self, out: &mut Payloads) -> io::Result<()> {
        let g = &mut *self.0;
        out.each(|payload, crc| g.push(payload, crc)).map_err(|e| {
            // Reported as it is, not as the pipeline's "writing output".
            g.failed = Some(e);
            io::Error::other("the shuffle's temporary files failed")
        })
    }
}

impl<'a> Gather<'a> {
    fn new(options: &'a Options, threaded: bool) -> Gather<'a> {
        let memory = options.memory;
        let buffers = (FANOUT + IN_FLIGHT) as u64 * write_buffer(memory) as u64;
        Gather {
            rng: Xoshiro::new(options.seed),
            held: Held::default(),
            hold_limit: memory.saturating_sub(buffers).max(memory / 2),
            spill: None,
            options,
            records: 0,
            failed: None,
            threaded,
        }
    }

    /// The next record, in record order (with its CRC): its key drawn,
    /// held or spilled.
    fn push(&mut self, payload: &[u8], crc: u32) -> io::Result<()> {
        let key = self.rng.next_u64();
        self.records += 1;
        // A record that would take the held ones over the budget starts the
        // spill before it is copied (a long one is not held at all).
        if self.spill.is_none() && self.held.cost() + (CRC_LEN + payload.len()) as u64 + ENTRY > self.hold_limit {
            self.start_spill()?;
        }
        match &mut self.spill {
            Some(spill) => spill.top.push(key, payload, crc),
            None => {
                self.held.push(key, payload, crc);
                Ok(())
            }
        }
    }

    /// The budget is exceeded: the records held go to the spill files, as
    /// will every record after them.
    fn start_spill(&mut self) -> io::Result<()> {
        let dir = SpillDir::new(&self.options.temp_dir)?;
        let mut top = dir.buckets(0, self.options.memory, self.threaded)?;
        let held = std::mem::take(&mut self.held);
        for e in &held.entries {
            let start = e.start as usize;
            top.push(e.key, &held.data[start..start + e.len as usize], held.crc(start))?;
        }
        drop(held);
        // Nothing is held from now on: the budget goes to the buffers.
        top.grow(spill_buffer(self.options.memory));
        self.spill = Some(Spill { dir, top });
        Ok(())
    }

    /// After the reading: the records, sorted, to `emit`; with `threaded`,
    /// spill files are read back and sorted on a second thread while this
    /// one emits the bucket before.
    fn finish(self, emit: &mut dyn Emit) -> Result<Shuffled> {
        let threaded = self.threaded;
        let memory = self.options.memory;
        let seed = self.options.seed;
        emit.begin(self.records)?;
        match self.spill {
            None => {
                let mut held = self.held;
                held.sort(seed);
                held.emit(emit)?;
                Ok(Shuffled {
                    records: self.records,
                    spilled: 0,
                })
            }
            Some(spill) => {
                let buckets = spill.top.close()?;
                let top = buckets.iter().map(|b| b.bytes).sum::<u64>();
                let again = drain(&spill.dir, memory, seed, buckets, emit, threaded)?;
                Ok(Shuffled {
                    records: self.records,
                    spilled: top + again,
                })
            }
        }
    }
}

#[cfg(test)]
#[path = "shuffle_tests.rs"]
mod tests;

mod spill;
use spill::*;
mod drain;
use drain::*;

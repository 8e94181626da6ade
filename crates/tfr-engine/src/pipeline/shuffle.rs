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
use crate::example::{Decoder, MessageType};
use crate::io::at::{write_all_at, ReadAt as _};
use crate::io::output_file::cleanup;
use crate::io::Input;
use crate::record;
use anyhow::Result;
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

/// Each bucket's write buffer while records are held (the ones held when
/// the spill starts are written out), and in a split: 1/16 of the budget
/// over the buckets' buffers and those queued for writing (4 KiB to 1 MiB
/// each).
fn write_buffer(memory: u64) -> usize {
    (memory / 16 / (FANOUT + IN_FLIGHT) as u64).clamp(4 << 10, 1 << 20) as usize
}

/// Each bucket's write buffer once the spill is under way (nothing held
/// then): the budget over the buffers (4 KiB to 1 MiB each). 16 times
/// fewer, larger writes (4 KiB ones took half the spreading thread's time).
fn spill_buffer(memory: u64) -> usize {
    (memory / (FANOUT + IN_FLIGHT) as u64).clamp(4 << 10, 1 << 20) as usize
}

/// The spill: its directory and the top level's buckets being written.
struct Spill {
    dir: SpillDir,
    top: Buckets,
}

/// The temporary directory of the spill files: removed when dropped (a
/// return, an error) and, while it lives, on a terminating signal.
struct SpillDir {
    dir: tempfile::TempDir,
    _hook: cleanup::HookGuard,
    /// Files made so far (their names).
    made: AtomicU64,
}

impl SpillDir {
    fn new(parent: &Path) -> io::Result<SpillDir> {
        let dir = tempfile::Builder::new()
            .prefix(".tfr-shuffle-")
            .tempdir_in(parent)
            .map_err(|e| {
                // The OS's reason alone (tempfile's message adds the path).
                let text = e.to_string();
                let reason = text.split(" at path ").next().unwrap_or_default();
                io::Error::new(
                    e.kind(),
                    format!(
                        "{}: cannot create a temporary directory (--temp-dir): {reason}",
                        crate::io::input::show_path(parent)
                    ),
                )
            })?;
        let path = dir.path().to_path_buf();
        let hook = cleanup::on_signal(Box::new(move || {
            // A file made meanwhile by the thread still spilling makes a
            // removal fail: try again.
            for _ in 0..5 {
                if std::fs::remove_dir_all(&path).is_ok() || !path.exists() {
                    break;
                }
            }
        }));
        Ok(SpillDir {
            dir,
            _hook: hook,
            made: AtomicU64::new(0),
        })
    }

    /// A fresh set of [`FANOUT`] buckets for keys split at `level` (0: the
    /// top 8 bits), in [`SEGMENTS`] files (each made on its first chunk);
    /// full buffers written by a second thread if `threaded`.
    fn buckets(&self, level: u32, memory: u64, threaded: bool) -> io::Result<Buckets> {
        let segments = (0..SEGMENTS)
            .map(|_| {
                let n = self.made.fetch_add(1, Relaxed);
                Segment {
                    shared: Arc::new(SegmentFile {
                        path: self.dir.path().join(format!("{n}")),
                    }),
                    file: None,
                    end: 0,
                }
            })
            .collect();
        let files = (0..FANOUT)
            .map(|_| Bucket {
                buf: Vec::new(),
                chunks: Vec::new(),
                records: 0,
                bytes: 0,
            })
            .collect();
        Ok(Buckets {
            files,
            level,
            segments,
            capacity: write_buffer(memory),
            writer: Writer::new(threaded)?,
        })
    }
}

/// An error of a spill file, naming it and the way out.
fn spill_error(path: &Path, what: &str, e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!(
            "{}: {what} a temporary file of the shuffle (--temp-dir chooses where they go): {e}",
            crate::io::input::show_path(path)
        ),
    )
}

/// A set of buckets being written: each bucket's records in its write
/// buffer, full buffers appended to the bucket's spill file (by the
/// writing thread, or here), the bucket's chunks noted.
struct Buckets {
    files: Vec<Bucket>,
    level: u32,
    /// The spill files, each made on its first chunk.
    segments: Vec<Segment>,
    /// Each bucket's write buffer, in bytes.
    capacity: usize,
    writer: Writer,
}

struct Bucket {
    /// Records not written yet (allocated on the first).
    buf: Vec<u8>,
    /// Where its records are: (offset, length) in its spill file.
    chunks: Vec<(u64, u64)>,
    records: u64,
    bytes: u64,
}

/// A spill file of a set of buckets, being written.
struct Segment {
    /// Removes the file once the buckets read from it are gone.
    shared: Arc<SegmentFile>,
    file: Option<Arc<File>>,
    /// Bytes given out (written, or on their way).
    end: u64,
}

/// A spill file: removed when the last holder (its buckets being written,
/// then the ones written and not read yet) is gone.
struct SegmentFile {
    path: PathBuf,
}

impl Drop for SegmentFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A bucket written and closed: its chunks, in order.
struct Written {
    segment: Arc<SegmentFile>,
    chunks: Vec<(u64, u64)>,
    records: u64,
    bytes: u64,
}

/// A full write buffer on its way to its spill file.
struct Chunk {
    file: Arc<File>,
    segment: Arc<SegmentFile>,
    offset: u64,
    data: Vec<u8>,
}

/// Who writes full buffers.
enum Writer {
    /// This thread, at once.
    Here,
    /// The writing thread: chunks go to it and their buffers come back;
    /// its first error ends it (and is its result).
    Thread {
        tx: Option<SyncSender<Chunk>>,
        back: Receiver<Vec<u8>>,
        thread: Option<std::thread::JoinHandle<io::Result<()>>>,
    },
}

impl Writer {
    fn new(threaded: bool) -> io::Result<Writer> {
        if !threaded {
            return Ok(Writer::Here);
        }
        let (tx, rx) = sync_channel::<Chunk>(IN_FLIGHT);
        let (back_tx, back) = std::sync::mpsc::channel::<Vec<u8>>();
        let thread = std::thread::Builder::new()
            .name("tfr-spill".into())
            .spawn(move || -> io::Result<()> {
                for chunk in rx {
                    write_chunk(&chunk)?;
                    let mut data = chunk.data;
                    data.clear();
                    // The bucket side may be gone (an error there).
                    let _ = back_tx.send(data);
                }
                Ok(())
            })?;
        Ok(Writer::Thread {
            tx: Some(tx),
            back,
            thread: Some(thread),
        })
    }

    /// Writes `chunk` (now, or on the writing thread); a spare buffer back.
    fn write(&mut self, chunk: Chunk) -> io::Result<Option<Vec<u8>>> {
        match self {
            Writer::Here => {
                write_chunk(&chunk)?;
                let mut data = chunk.data;
                data.clear();
                Ok(Some(data))
            }
            Writer::Thread { tx, back, .. } => {
                let sent = tx.as_ref().map(|tx| tx.send(chunk));
                if !matches!(sent, Some(Ok(()))) {
                    // The writing thread stopped: its error.
                    return Err(self
                        .finish()
                        .err()
                        .unwrap_or_else(|| io::Error::other("spill writer stopped")));
                }
                Ok(back.try_recv().ok())
            }
        }
    }

    /// Waits for every chunk to be written; the first error.
    fn finish(&mut self) -> io::Result<()> {
        match self {
            Writer::Here => Ok(()),
            Writer::Thread { tx, thread, .. } => {
                drop(tx.take());
                match thread.take().map(|t| t.join()) {
                    None | Some(Ok(Ok(()))) => Ok(()),
                    Some(Ok(Err(e))) => Err(e),
                    Some(Err(_)) => Err(io::Error::other("the shuffle's spill thread panicked")),
                }
            }
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

fn write_chunk(chunk: &Chunk) -> io::Result<()> {
    write_all_at(&chunk.file, &chunk.data, chunk.offset)
        .map_err(|e| spill_error(&chunk.segment.path, "cannot write", e))
}

/// Which bucket a key goes to at `level`.
fn bucket_of(key: u64, level: u32) -> usize {
    ((key >> (56 - 8 * level)) & 0xff) as usize
}

/// A record's payload, in memory or to be read.
enum Payload<'a> {
    Bytes(&'a [u8]),
    Read(&'a mut dyn io::Read),
}

impl Buckets {
    fn push(&mut self, key: u64, payload: &[u8], crc: u32) -> io::Result<()> {
        self.write(key, payload.len() as u64, crc, Payload::Bytes(payload))
    }

    /// Gives every bucket a write buffer of `capacity` bytes from now on.
    fn grow(&mut self, capacity: usize) {
        self.capacity = capacity;
    }

    /// Appends a record of `len` payload bytes to its bucket: to the
    /// bucket's buffer, or, larger than a buffer, straight to its file.
    fn write(&mut self, key: u64, len: u64, crc: u32, payload: Payload<'_>) -> io::Result<()> {
        let b = bucket_of(key, self.level);
        let size = FRAME + len;
        let capacity = self.capacity as u64;
        if self.files[b].buf.len() as u64 + size > capacity && !self.files[b].buf.is_empty() {
            self.flush(b)?;
        }
        let mut header = [0u8; FRAME as usize];
        header[..8].copy_from_slice(&key.to_le_bytes());
        header[8..16].copy_from_slice(&len.to_le_bytes());
        header[16..].copy_from_slice(&crc.to_le_bytes());
        if size <= capacity {
            let buf = &mut self.files[b].buf;
            if buf.capacity() < self.capacity {
                buf.reserve_exact(self.capacity - buf.len());
            }
            buf.extend_from_slice(&header);
            match payload {
                Payload::Bytes(bytes) => buf.extend_from_slice(bytes),
                Payload::Read(from) => {
                    let at = buf.len();
                    buf.resize(at + len as usize, 0);
                    from.read_exact(&mut buf[at..])?;
                }
            }
        } else {
            self.write_long(b, &header, len, payload)?;
        }
        let bucket = &mut self.files[b];
        bucket.records += 1;
        bucket.bytes += size;
        Ok(())
    }

    /// A record longer than a buffer, written here, straight to its place
    /// in the bucket's file (the buffer before it is written first).
    fn write_long(&mut self, b: usize, header: &[u8], len: u64, payload: Payload<'_>) -> io::Result<()> {
        let (file, segment) = self.segment_file(b)?;
        let s = &mut self.segments[b / (FANOUT / SEGMENTS)];
        let start = s.end;
        s.end += FRAME + len;
        self.files[b].chunks.push((start, FRAME + len));
        let fail = |e| spill_error(&segment.path, "cannot write", e);
        write_all_at(&file, header, start).map_err(fail)?;
        let at = start + FRAME;
        match payload {
            Payload::Bytes(bytes) => write_all_at(&file, bytes, at).map_err(fail)?,
            Payload::Read(from) => {
                let mut piece = vec![0u8; self.capacity.max(64 << 10)];
                let mut done = 0u64;
                while done < len {
                    let n = piece.len().min((len - done) as usize);
                    from.read_exact(&mut piece[..n])?;
                    write_all_at(&file, &piece[..n], at + done).map_err(fail)?;
                    done += n as u64;
                }
            }
        }
        Ok(())
    }

    /// The file of bucket `b`'s segment (made now if it is its first chunk).
    fn segment_file(&mut self, b: usize) -> io::Result<(Arc<File>, Arc<SegmentFile>)> {
        let s = &mut self.segments[b / (FANOUT / SEGMENTS)];
        let file = match &s.file {
            Some(file) => file.clone(),
            None => {
                let path = &s.shared.path;
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                    .map_err(|e| spill_error(path, "cannot create", e))?;
                s.file.insert(Arc::new(file)).clone()
            }
        };
        Ok((file, s.shared.clone()))
    }

    /// Writes bucket `b`'s buffer to its file (or hands it to the writing
    /// thread) and gives the bucket a spare one.
    fn flush(&mut self, b: usize) -> io::Result<()> {
        let (file, segment) = self.segment_file(b)?;
        let s = &mut self.segments[b / (FANOUT / SEGMENTS)];
        let bucket = &mut self.files[b];
        let data = std::mem::take(&mut bucket.buf);
        let len = data.len() as u64;
        let offset = s.end;
        s.end += len;
        match bucket.chunks.last_mut() {
            // Right after its last chunk: one longer chunk.
            Some((at, n)) if *at + *n == offset => *n += len,
            _ => bucket.chunks.push((offset, len)),
        }
        let chunk = Chunk {
            file,
            segment,
            offset,
            data,
        };
        if let Some(spare) = self.writer.write(chunk)? {
            self.files[b].buf = spare;
        }
        Ok(())
    }

    /// Writes every buffer, waits for the writes, closes the files.
    fn close(mut self) -> io::Result<Vec<Written>> {
        for b in 0..FANOUT {
            if !self.files[b].buf.is_empty() {
                self.flush(b)?;
            }
        }
        self.writer.finish()?;
        let per = FANOUT / SEGMENTS;
        let segments: Vec<Arc<SegmentFile>> = self.segments.iter().map(|s| s.shared.clone()).collect();
        Ok(std::mem::take(&mut self.files)
            .into_iter()
            .enumerate()
            .map(|(b, bucket)| Written {
                segment: segments[b / per].clone(),
                chunks: bucket.chunks,
                records: bucket.records,
                bytes: bucket.bytes,
            })
            .collect())
    }
}

/// A bucket's chunks as one stream (for a split).
struct ChunkReader<'a> {
    file: File,
    chunks: &'a [(u64, u64)],
    /// Read of the first chunk left.
    done: u64,
}

impl io::Read for ChunkReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(&(offset, len)) = self.chunks.first() {
            if self.done == len {
                self.chunks = &self.chunks[1..];
                self.done = 0;
                continue;
            }
            let n = buf.len().min((len - self.done) as usize);
            let got = self.file.read_at(&mut buf[..n], offset + self.done)?;
            if got == 0 && n > 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            self.done += got as u64;
            return Ok(got);
        }
        Ok(0)
    }
}

/// The second pass: the buckets read back in key order, each read whole
/// and sorted by [`Drain`] (a spill file removed once its last bucket is
/// read), then framed where it lies and its records handed to `emit`
/// ([`Held::emit_read_back`]). Threaded, `Drain` runs on a second thread
/// and hands each sorted bucket over (reading, parsing and sorting one
/// bucket while this thread frames and emits the one before: the pass
/// took about 0.1 s instead of 0.25 s for 100 MB on 2 cores; sorting
/// here instead made this thread the slower one); else both take turns
/// here. Returns the bytes written to spill files by splits.
fn drain(
    dir: &SpillDir,
    memory: u64,
    seed: u64,
    buckets: Vec<Written>,
    emit: &mut dyn Emit,
    threaded: bool,
) -> Result<u64> {
    if !threaded {
        let mut drain = Drain::new(dir, memory, seed, Lend::Here(emit));
        drain.buckets(buckets, 0)?;
        return Ok(drain.spilled);
    }
    // Rendezvous: a sorted bucket waits for this thread, which then
    // holds it while the next one is read.
    let (tx, rx) = sync_channel::<Result<Held>>(0);
    let (back_tx, back) = sync_channel::<Held>(BUFFERS);
    std::thread::scope(|scope| {
        let loader = std::thread::Builder::new()
            .name("tfr-drain".into())
            .spawn_scoped(scope, move || {
                let mut drain = Drain::new(dir, memory, seed, Lend::There { tx, back, lent: 0 });
                let result = drain.buckets(buckets, 0);
                if let (Err(e), Lend::There { tx, .. }) = (result, &drain.lend) {
                    // Dropped unsent when the emitting side has stopped.
                    let _ = tx.send(Err(e));
                }
                drain.spilled
            })
            .expect("failed to spawn a thread");
        let emitted = (|| -> Result<()> {
            for held in &rx {
                let mut held = held?;
                held.emit_read_back(emit)?;
                // The loader may have ended (an error): the buffer is then freed.
                let _ = back_tx.send(held);
            }
            Ok(())
        })();
        // The loader stops at its next hand-over once these are gone.
        drop(rx);
        drop(back_tx);
        let spilled = loader.join().expect("the shuffle's drain thread panicked");
        emitted.map(|()| spilled)
    })
}

/// Buffers of buckets read whole, in turn: one being emitted while the
/// next is read.
const BUFFERS: usize = 2;

/// Where [`Drain`] hands the sorted buckets.
enum Lend<'e> {
    /// Emitted at once, on this thread.
    Here(&'e mut dyn Emit),
    /// To the emitting thread, which sends each buffer back once emitted.
    There {
        tx: SyncSender<Result<Held>>,
        back: Receiver<Held>,
        /// Buffers handed over and not back yet.
        lent: usize,
    },
}

/// The emitting side stopped (its error is the one reported).
fn stopped() -> anyhow::Error {
    anyhow::anyhow!("the shuffle's output stopped")
}

/// Reads the spill files back, in key order: each that fits the budget
/// read whole and sorted, one that does not split again by the next 8
/// bits of the keys.
///
/// Memory: [`BUFFERS`] buffers in turn. A bucket of at most half the
/// budget is read while the one before it is emitted, each buffer then
/// kept within half the budget; a larger one, or a split, waits for the
/// buffers to come back and frees them first, so that the buckets held
/// stay within the budget (or a single record larger than it).
struct Drain<'d> {
    dir: &'d SpillDir,
    memory: u64,
    seed: u64,
    /// Buffers not handed over.
    spare: Vec<Held>,
    lend: Lend<'d>,
    spilled: u64,
}

/// The last level whose buckets can be split: past it, all 64 bits of the
/// keys in a bucket are the same.
const LAST_LEVEL: u32 = 7;

impl<'d> Drain<'d> {
    fn new(dir: &'d SpillDir, memory: u64, seed: u64, lend: Lend<'d>) -> Drain<'d> {
        Drain {
            dir,
            memory,
            seed,
            spare: (0..BUFFERS).map(|_| Held::default()).collect(),
            lend,
            spilled: 0,
        }
    }

    /// Every bucket of `level`, in order: read whole, sorted and handed over if
    /// it fits the budget, else split by the next level's bits first.
    fn buckets(&mut self, buckets: Vec<Written>, level: u32) -> Result<()> {
        for bucket in buckets {
            let cost = bucket.bytes + bucket.records * ENTRY;
            // A spill file is removed once the last of its buckets is
            // dropped: read (or split), or left by an error.
            if bucket.records > 1 && cost > self.memory && level < LAST_LEVEL {
                self.split(bucket, level + 1)?;
            } else {
                self.whole(bucket, cost)?;
            }
        }
        Ok(())
    }

    /// Every buffer back from the emitting side.
    fn reclaim(&mut self) -> Result<()> {
        if let Lend::There { back, lent, .. } = &mut self.lend {
            while *lent > 0 {
                self.spare.push(back.recv().map_err(|_| stopped())?);
                *lent -= 1;
            }
        }
        Ok(())
    }

    /// A buffer for a bucket of `cost` bytes (see [`Drain`] for the bound).
    fn buffer(&mut self, cost: u64) -> Result<Held> {
        let half = self.memory / 2;
        if cost > half {
            self.reclaim()?;
            self.spare.sort_by_key(Held::capacity);
            let held = self.spare.pop().unwrap_or_default();
            self.spare.iter_mut().for_each(|h| *h = Held::default());
            return Ok(held);
        }
        let held = match (self.spare.pop(), &mut self.lend) {
            (Some(h), _) => h,
            (None, Lend::There { back, lent, .. }) => {
                *lent -= 1;
                back.recv().map_err(|_| stopped())?
            }
            (None, Lend::Here(_)) => Held::default(),
        };
        // Two buffers in use at once: neither over half the budget.
        let held = if held.capacity() > half { Held::default() } else { held };
        for h in &mut self.spare {
            if h.capacity() > half {
                *h = Held::default();
            }
        }
        Ok(held)
    }

    /// A bucket read, sorted, to the emitting side.
    fn hand_over(&mut self, mut held: Held) -> Result<()> {
        held.sort(self.seed);
        match &mut self.lend {
            Lend::Here(emit) => {
                let result = held.emit_read_back(&mut **emit);
                self.spare.push(held);
                result
            }
            Lend::There { tx, lent, .. } => {
                tx.send(Ok(held)).map_err(|_| stopped())?;
                *lent += 1;
                Ok(())
            }
        }
    }

    /// A bucket read into memory, sorted, handed over.
    fn whole(&mut self, bucket: Written, cost: u64) -> Result<()> {
        if bucket.records == 0 {
            return Ok(());
        }
        let path = &bucket.segment.path;
        let mut held = self.buffer(cost)?;
        held.entries.clear();
        held.framed = false;
        // Read over the last bucket's bytes: only a longer bucket's excess
        // is zeroed first (read_to_end zeroed all of it, every time).
        let bytes = bucket.bytes as usize;
        if held.data.capacity() < bytes + record::FOOTER_LEN {
            held.data.clear();
            held.data.reserve_exact(bytes + record::FOOTER_LEN);
        }
        held.data.resize(bytes, 0);
        bucket
            .reader()?
            .read_exact(&mut held.data)
            .map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => damaged(path),
                _ => spill_error(path, "cannot read", e),
            })?;
        held.entries.reserve_exact(bucket.records as usize);
        let data = &held.data;
        let mut at = 0usize;
        while at < data.len() {
            let (key, len, _) = frame(&data[at..]).ok_or_else(|| damaged(path))?;
            let start = at + FRAME as usize;
            if len > (data.len() - start) as u64 {
                return Err(damaged(path).into());
            }
            held.entries.push(Entry {
                key,
                start: start as u64,
                len,
            });
            at = start + len as usize;
        }
        if held.entries.len() as u64 != bucket.records {
            return Err(damaged(path).into());
        }
        // Its spill file can go once its last bucket is read.
        drop(bucket);
        self.hand_over(held)
    }

    /// A bucket too large for the budget, split into the next level's
    /// buckets (streamed: no record held), which are then drained.
    fn split(&mut self, bucket: Written, level: u32) -> Result<()> {
        // The buffers of the buckets read whole go back first.
        self.reclaim()?;
        self.spare.iter_mut().for_each(|h| *h = Held::default());
        let path = &bucket.segment.path;
        let mut input = BufReader::with_capacity(write_buffer(self.memory).max(64 << 10), bucket.reader()?);
        let threaded = matches!(self.lend, Lend::There { .. });
        let mut next = self.dir.buckets(level, self.memory, threaded)?;
        let mut header = [0u8; FRAME as usize];
        let mut left = bucket.bytes;
        for _ in 0..bucket.records {
            input
                .read_exact(&mut header)
                .map_err(|e| spill_error(path, "cannot read", e))?;
            let (key, len, crc) = frame(&header).ok_or_else(|| damaged(path))?;
            // A length past what the bucket holds (a spill file changed
            // underneath) is damage, not an overflow.
            let size = FRAME.checked_add(len).ok_or_else(|| damaged(path))?;
            left = left.checked_sub(size).ok_or_else(|| damaged(path))?;
            next.write(key, len, crc, Payload::Read(&mut input))
                .map_err(|e| match e.kind() {
                    io::ErrorKind::UnexpectedEof => damaged(path),
                    _ => e,
                })?;
        }
        drop(input);
        drop(bucket);
        let written = next.close()?;
        self.spilled += written.iter().map(|b| b.bytes).sum::<u64>();
        self.buckets(written, level)
    }
}

impl Written {
    /// Its chunks, read in order.
    fn reader(&self) -> io::Result<ChunkReader<'_>> {
        let path = &self.segment.path;
        let file = File::open(path).map_err(|e| spill_error(path, "cannot open", e))?;
        Ok(ChunkReader {
            file,
            chunks: &self.chunks,
            done: 0,
        })
    }
}

/// A bucket's record header: key, payload length and CRC.
fn frame(bytes: &[u8]) -> Option<(u64, u64, u32)> {
    let bytes = bytes.get(..FRAME as usize)?;
    let key = u64::from_le_bytes(bytes[..8].try_into().ok()?);
    let len = u64::from_le_bytes(bytes[8..16].try_into().ok()?);
    let crc = u32::from_le_bytes(bytes[16..20].try_into().ok()?);
    Some((key, len, crc))
}

fn damaged(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{}: a temporary file of the shuffle changed while tfr was using it",
            crate::io::input::show_path(path)
        ),
    )
}

#[cfg(test)]
#[path = "shuffle_tests.rs"]
mod tests;

//! The spilled buckets drained in a random order: each read back, split again when over the budget, shuffled and emitted.

use super::*;

/// A bucket's chunks as one stream (for a split).
pub(super) struct ChunkReader<'a> {
    pub(super) file: File,
    pub(super) chunks: &'a [(u64, u64)],
    /// Read of the first chunk left.
    pub(super) done: u64,
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
pub(super) fn drain(
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
pub(super) const BUFFERS: usize = 2;

/// Where [`Drain`] hands the sorted buckets.
pub(super) enum Lend<'e> {
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
pub(super) fn stopped() -> crate::Error {
    crate::error::err!("the shuffle's output stopped")
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
pub(super) struct Drain<'d> {
    pub(super) dir: &'d SpillDir,
    pub(super) memory: u64,
    pub(super) seed: u64,
    /// Buffers not handed over.
    pub(super) spare: Vec<Held>,
    pub(super) lend: Lend<'d>,
    pub(super) spilled: u64,
}

/// The last level whose buckets can be split: past it, all 64 bits of the
/// keys in a bucket are the same.
pub(super) const LAST_LEVEL: u32 = 7;

impl<'d> Drain<'d> {
    pub(super) fn new(dir: &'d SpillDir, memory: u64, seed: u64, lend: Lend<'d>) -> Drain<'d> {
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
    pub(super) fn buckets(&mut self, buckets: Vec<Written>, level: u32) -> Result<()> {
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
    pub(super) fn reclaim(&mut self) -> Result<()> {
        if let Lend::There { back, lent, .. } = &mut self.lend {
            while *lent > 0 {
                self.spare.push(back.recv().map_err(|_| stopped())?);
                *lent -= 1;
            }
        }
        Ok(())
    }

    /// A buffer for a bucket of `cost` bytes (see [`Drain`] for the bound).
    pub(super) fn buffer(&mut self, cost: u64) -> Result<Held> {
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
    pub(super) fn hand_over(&mut self, mut held: Held) -> Result<()> {
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
    pub(super) fn whole(&mut self, bucket: Written, cost: u64) -> Result<()> {
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
    pub(super) fn split(&mut self, bucket: Written, level: u32) -> Result<()> {
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
    pub(super) fn reader(&self) -> io::Result<ChunkReader<'_>> {
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
pub(super) fn frame(bytes: &[u8]) -> Option<(u64, u64, u32)> {
    let bytes = bytes.get(..FRAME as usize)?;
    let key = u64::from_le_bytes(bytes[..8].try_into().ok()?);
    let len = u64::from_le_bytes(bytes[8..16].try_into().ok()?);
    let crc = u32::from_le_bytes(bytes[16..20].try_into().ok()?);
    Some((key, len, crc))
}

pub(super) fn damaged(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{}: a temporary file of the shuffle changed while tfr was using it",
            crate::io::input::show_path(path)
        ),
    )
}

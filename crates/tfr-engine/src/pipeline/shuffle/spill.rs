//! The shuffle beyond its memory budget: records spilled into buckets of temporary segment files, written on their own thread.

use super::*;

/// Each bucket's write buffer while records are held (the ones held when
/// the spill starts are written out), and in a split: 1/16 of the budget
/// over the buckets' buffers and those queued for writing (4 KiB to 1 MiB
/// each).
pub(super) fn write_buffer(memory: u64) -> usize {
    (memory / 16 / (FANOUT + IN_FLIGHT) as u64).clamp(4 << 10, 1 << 20) as usize
}

/// Each bucket's write buffer once the spill is under way (nothing held
/// then): the budget over the buffers (4 KiB to 1 MiB each). 16 times
/// fewer, larger writes (4 KiB ones took half the spreading thread's time).
pub(super) fn spill_buffer(memory: u64) -> usize {
    (memory / (FANOUT + IN_FLIGHT) as u64).clamp(4 << 10, 1 << 20) as usize
}

/// The spill: its directory and the top level's buckets being written.
pub(super) struct Spill {
    pub(super) dir: SpillDir,
    pub(super) top: Buckets,
}

/// The temporary directory of the spill files: removed when dropped (a
/// return, an error) and, while it lives, on a terminating signal.
pub(super) struct SpillDir {
    pub(super) dir: tempfile::TempDir,
    pub(super) _hook: cleanup::HookGuard,
    /// Files made so far (their names).
    pub(super) made: AtomicU64,
}

impl SpillDir {
    pub(super) fn new(parent: &Path) -> io::Result<SpillDir> {
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
    pub(super) fn buckets(&self, level: u32, memory: u64, threaded: bool) -> io::Result<Buckets> {
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
pub(super) fn spill_error(path: &Path, what: &str, e: io::Error) -> io::Error {
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
pub(super) struct Buckets {
    pub(super) files: Vec<Bucket>,
    pub(super) level: u32,
    /// The spill files, each made on its first chunk.
    pub(super) segments: Vec<Segment>,
    /// Each bucket's write buffer, in bytes.
    pub(super) capacity: usize,
    pub(super) writer: Writer,
}

pub(super) struct Bucket {
    /// Records not written yet (allocated on the first).
    pub(super) buf: Vec<u8>,
    /// Where its records are: (offset, length) in its spill file.
    pub(super) chunks: Vec<(u64, u64)>,
    pub(super) records: u64,
    pub(super) bytes: u64,
}

/// A spill file of a set of buckets, being written.
pub(super) struct Segment {
    /// Removes the file once the buckets read from it are gone.
    pub(super) shared: Arc<SegmentFile>,
    pub(super) file: Option<Arc<File>>,
    /// Bytes given out (written, or on their way).
    pub(super) end: u64,
}

/// A spill file: removed when the last holder (its buckets being written,
/// then the ones written and not read yet) is gone.
pub(super) struct SegmentFile {
    pub(super) path: PathBuf,
}

impl Drop for SegmentFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A bucket written and closed: its chunks, in order.
pub(super) struct Written {
    pub(super) segment: Arc<SegmentFile>,
    pub(super) chunks: Vec<(u64, u64)>,
    pub(super) records: u64,
    pub(super) bytes: u64,
}

/// A full write buffer on its way to its spill file.
pub(super) struct Chunk {
    pub(super) file: Arc<File>,
    pub(super) segment: Arc<SegmentFile>,
    pub(super) offset: u64,
    pub(super) data: Vec<u8>,
}

/// Who writes full buffers.
pub(super) enum Writer {
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
    pub(super) fn new(threaded: bool) -> io::Result<Writer> {
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
    pub(super) fn write(&mut self, chunk: Chunk) -> io::Result<Option<Vec<u8>>> {
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
    pub(super) fn finish(&mut self) -> io::Result<()> {
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

pub(super) fn write_chunk(chunk: &Chunk) -> io::Result<()> {
    write_all_at(&chunk.file, &chunk.data, chunk.offset)
        .map_err(|e| spill_error(&chunk.segment.path, "cannot write", e))
}

/// Which bucket a key goes to at `level`.
pub(super) fn bucket_of(key: u64, level: u32) -> usize {
    ((key >> (56 - 8 * level)) & 0xff) as usize
}

/// A record's payload, in memory or to be read.
pub(super) enum Payload<'a> {
    Bytes(&'a [u8]),
    Read(&'a mut dyn io::Read),
}

impl Buckets {
    pub(super) fn push(&mut self, key: u64, payload: &[u8], crc: u32) -> io::Result<()> {
        self.write(key, payload.len() as u64, crc, Payload::Bytes(payload))
    }

    /// Gives every bucket a write buffer of `capacity` bytes from now on.
    pub(super) fn grow(&mut self, capacity: usize) {
        self.capacity = capacity;
    }

    /// Appends a record of `len` payload bytes to its bucket: to the
    /// bucket's buffer, or, larger than a buffer, straight to its file.
    pub(super) fn write(&mut self, key: u64, len: u64, crc: u32, payload: Payload<'_>) -> io::Result<()> {
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
    pub(super) fn write_long(&mut self, b: usize, header: &[u8], len: u64, payload: Payload<'_>) -> io::Result<()> {
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
    pub(super) fn segment_file(&mut self, b: usize) -> io::Result<(Arc<File>, Arc<SegmentFile>)> {
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
    pub(super) fn flush(&mut self, b: usize) -> io::Result<()> {
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
    pub(super) fn close(mut self) -> io::Result<Vec<Written>> {
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

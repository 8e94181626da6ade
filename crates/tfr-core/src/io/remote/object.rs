//! Reading an object by position (see [`crate::io::at`]): its size from a
//! HEAD, then cursors of ranged GETs (below), so that reads which follow on
//! cost no new request and a hop over a long payload costs one.

use super::*;
use crate::io::at::{At, ReadAt};

/// The first ranged read: small, so that `head` on a large object fetches
/// little; each next range is twice as large (64 KiB, 128 KiB, 256 KiB), and
/// is requested once the bytes requested but not yet read are down to half
/// the range before (so it arrives while they are read). From
/// [`STREAM_AT`] bytes on, the next range is the rest of the object, streamed.
const FIRST_RANGE: u64 = 64 * 1024;
/// A cursor that has read this far goes on with one GET of the rest,
/// streamed as it arrives: as fast as a plain download, with memory bounded
/// by [`STREAM_CHUNKS`] (TCP holds back the rest while the reader is busy,
/// or after it has jumped elsewhere, until the cursor is dropped).
const STREAM_AT: u64 = 512 * 1024;
/// The streamed rest is handed to the reader in buffers of this size,
/// gathered from what the connection delivers (16 to 400 KiB at a time):
/// one hand-over, and at most one wake-up of the reader, per buffer; the
/// buffers the reader is done with are filled again ([`Recycled`]); and
/// each piece is copied out as it arrives, so the HTTP client's own read
/// buffer is free to be reused in place. (Handing the client's pieces on
/// as they were cost twice curl's CPU time per byte: a wake-up per piece,
/// and a page fault per 4 KiB of the fresh buffers the client allocated
/// while the reader still held the pieces of its last one.)
const STREAM_BUF: usize = 256 * 1024;
/// Buffers of the streamed rest held between the network and the reader.
const STREAM_CHUNKS: usize = 4;
/// A buffer not yet full is handed over at most this long after its first
/// byte arrived (a slow connection's bytes are not held).
const STREAM_WAIT: std::time::Duration = std::time::Duration::from_millis(5);

/// Opens an object for reading: its size (a HEAD request, which also
/// finds a missing object or refused credentials now) and positional reads
/// of it, with ranged read-ahead.
pub(crate) fn open(loc: &Location) -> Result<(At, u64)> {
    let name = loc.shown();
    let client = client(loc)?;
    let path = object_path(loc)?;
    let rt = runtime()?;
    // A presigned URL is signed for GET only (S3 refuses a HEAD with it):
    // the size comes from a one-byte ranged GET's Content-Range.
    let signed_get = async {
        let first = object_store::GetOptions {
            range: Some(object_store::GetRange::Bounded(0..1)),
            ..object_store::GetOptions::default()
        };
        match client.store.get_opts(&path, first).await {
            Ok(got) => Ok(got.meta),
            // An empty object has no byte 0 to ask for (416, which
            // object_store reports as a generic error, its status private):
            // a plain GET (of nothing; its body is never read) gives its
            // size, and a failure of another kind fails it the same way.
            // Errors object_store names (not found, access denied) are the
            // answer.
            Err(object_store::Error::Generic { .. }) => client
                .store
                .get_opts(&path, object_store::GetOptions::default())
                .await
                .map(|got| got.meta),
            Err(e) => Err(e),
        }
    };
    let head = async {
        if !loc.query.is_empty() {
            return signed_get.await;
        }
        match client.store.head(&path).await {
            // A web server that refuses HEAD (405; object_store calls it
            // "not found") is asked for a byte instead, as a presigned URL is.
            Err(e) if loc.kind == Kind::Http && method_not_allowed(&e) => signed_get.await,
            other => other,
        }
    };
    let meta = match wait(rt, head) {
        Ok(meta) => meta,
        Err(e @ object_store::Error::NotFound { .. }) if loc.kind != Kind::Http => {
            // HEAD has no body to tell a missing bucket from a missing key:
            // a listing of one key does (one more request, whatever the
            // bucket holds).
            let Some(lister) = client.lister.clone() else {
                return Err(store_error(&name, &e));
            };
            let one = object_store::list::PaginatedListOptions {
                max_keys: Some(1),
                ..Default::default()
            };
            let listed = wait(rt, async move { lister.list_paginated(None, one).await });
            return Err(match listed {
                Err(object_store::Error::NotFound { .. }) => err!("{name}: no such bucket or container"),
                Err(other) => err!("{name}: {}", one_line(&other)),
                Ok(_) => store_error(&name, &e),
            });
        }
        Err(e) => return Err(store_error(&name, &e)),
    };
    let object = Object {
        client,
        path,
        size: meta.size,
        e_tag: meta.e_tag,
        runtime: rt,
        cursors: Mutex::new(VecDeque::new()),
    };
    Ok((At::new(Arc::new(object)), meta.size))
}

/// Cursors kept per object: the few a reader leaves behind when it jumps
/// (back after damage, or past a long payload), and one per thread should
/// several read it; the least recently used go first.
const CURSORS: usize = 32;
/// A read this far past a cursor's position continues it, discarding what
/// lies between (its ranges are on their way); a longer jump starts a new
/// cursor with a new request, so a skipped payload is not downloaded. 8 MiB
/// take ~80 ms at 100 MB/s, a few times a cloud store's first-byte latency.
const SKIP_AHEAD: u64 = 8 << 20;

/// An object read by position. Each read takes the cursor it continues
/// (one whose stream has reached, or soon will reach, that offset), so
/// reads that follow on from each other, in one thread or several, cost no
/// new request; a read anywhere else opens a cursor there.
struct Object {
    client: Arc<Client>,
    path: ObjectPath,
    size: u64,
    /// The object's version when it was opened (S3, GCS, Azure): a later
    /// request for a changed object fails instead of mixing versions.
    e_tag: Option<String>,
    runtime: &'static Runtime,
    cursors: Mutex<VecDeque<Cursor>>,
}

/// What a buffered reader reads of an object beyond what it needs (see
/// [`ReadAt::read_beyond`]): `count` over HTTP copied every payload it
/// hopped over into its buffer (a tenth of its CPU time) when reads
/// filled the 256 KiB buffer.
const READ_BEYOND: usize = 16 * 1024;

impl ReadAt for Object {
    fn read_beyond(&self) -> usize {
        READ_BEYOND
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        if offset >= self.size || buf.is_empty() {
            return Ok(0);
        }
        let found = {
            let mut cursors = self.cursors.lock().unwrap_or_else(|e| e.into_inner());
            // The nearest: threads reading parts of the object keep theirs.
            let near = cursors.iter().enumerate().filter(|(_, c)| c.reaches(offset));
            let i = near.min_by_key(|(_, c)| offset.saturating_sub(c.pos)).map(|(i, _)| i);
            i.and_then(|i| cursors.remove(i))
        };
        let mut cursor = found.unwrap_or_else(|| self.cursor(offset));
        let got = cursor.read_at(self, buf, offset)?;
        let mut cursors = self.cursors.lock().unwrap_or_else(|e| e.into_inner());
        cursors.push_back(cursor);
        if cursors.len() > CURSORS {
            cursors.pop_front();
        }
        Ok(got)
    }
}

impl Object {
    fn cursor(&self, offset: u64) -> Cursor {
        Cursor {
            next: offset,
            step: FIRST_RANGE,
            last: 0,
            pending: VecDeque::new(),
            chunk: Bytes::new(),
            chunk_at: offset,
            pos: offset,
            recycled: Arc::default(),
        }
    }

    fn options(&self, range: object_store::GetRange) -> object_store::GetOptions {
        object_store::GetOptions {
            range: Some(range),
            if_match: self.e_tag.clone(),
            ..object_store::GetOptions::default()
        }
    }
}

/// A requested range: gathered whole, or streamed as it arrives.
enum Range {
    Whole(JoinHandle<object_store::Result<Bytes>>),
    Streamed {
        chunks: tokio::sync::mpsc::Receiver<object_store::Result<Bytes>>,
        task: JoinHandle<()>,
        /// Bytes of it received so far.
        got: u64,
    },
}

/// Sequential reads of an object from where it was opened: ranged GETs
/// growing from [`FIRST_RANGE`], then the streamed rest (see there).
struct Cursor {
    /// Offset of the next range to request.
    next: u64,
    /// Length of the next range.
    step: u64,
    /// Length of the range requested last.
    last: u64,
    /// Requested ranges, in order, with their lengths.
    pending: VecDeque<(u64, Range)>,
    /// The range or streamed chunk being read, and its offset.
    chunk: Bytes,
    chunk_at: u64,
    /// Where the last read ended.
    pos: u64,
    /// Streamed buffers read, to be filled again.
    recycled: Arc<Recycled>,
}

/// The buffers of a cursor's streamed range that the reader is done with.
#[derive(Default)]
struct Recycled(Mutex<Vec<Vec<u8>>>);

impl Recycled {
    /// An empty buffer of [`STREAM_BUF`] bytes' capacity: one read before,
    /// else a new one.
    fn take(&self) -> Vec<u8> {
        let old = self.0.lock().ok().and_then(|mut v| v.pop());
        old.unwrap_or_else(|| Vec::with_capacity(STREAM_BUF))
    }

    /// A chunk the reader is done with: kept if it is a streamed buffer no
    /// one else holds.
    fn give(&self, chunk: Bytes) {
        let Ok(unique) = chunk.try_into_mut() else {
            return;
        };
        let mut buf = Vec::from(unique);
        if buf.capacity() != STREAM_BUF {
            return;
        }
        buf.clear();
        if let Ok(mut v) = self.0.lock() {
            if v.len() < STREAM_CHUNKS {
                v.push(buf);
            }
        }
    }
}

/// Streams `got`'s body to `tx` in buffers of [`STREAM_BUF`] bytes (see
/// there), the last one, or one whose first byte came [`STREAM_WAIT`] ago,
/// shorter; an error after the bytes before it.
async fn stream_body(
    got: object_store::GetResult,
    tx: tokio::sync::mpsc::Sender<object_store::Result<Bytes>>,
    recycled: Arc<Recycled>,
) {
    let mut stream = got.into_stream();
    let mut buf = recycled.take();
    // When the bytes in `buf` go, full or not.
    let mut due = tokio::time::Instant::now();
    loop {
        let next = match buf.is_empty() {
            true => stream.next().await,
            false => match tokio::time::timeout_at(due, stream.next()).await {
                Ok(next) => next,
                // Its first byte came a while ago: what is here goes now.
                Err(_) => match hand_over(&tx, &mut buf, &recycled).await {
                    true => continue,
                    false => return,
                },
            },
        };
        let piece = match next {
            Some(Ok(piece)) => piece,
            Some(Err(e)) => {
                if !buf.is_empty() && tx.send(Ok(Bytes::from(buf))).await.is_err() {
                    return;
                }
                let _ = tx.send(Err(e)).await;
                return;
            }
            None => break,
        };
        let mut rest = &piece[..];
        while !rest.is_empty() {
            if buf.is_empty() {
                due = tokio::time::Instant::now() + STREAM_WAIT;
            }
            let n = rest.len().min(STREAM_BUF - buf.len());
            buf.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
            if buf.len() == STREAM_BUF && !hand_over(&tx, &mut buf, &recycled).await {
                return;
            }
        }
    }
    if !buf.is_empty() {
        let _ = tx.send(Ok(Bytes::from(buf))).await;
    }
}

/// Sends `buf`'s bytes to the reader, `buf` left an empty recycled
/// buffer; false once the reader is gone.
async fn hand_over(
    tx: &tokio::sync::mpsc::Sender<object_store::Result<Bytes>>,
    buf: &mut Vec<u8>,
    recycled: &Recycled,
) -> bool {
    let full = std::mem::replace(buf, recycled.take());
    tx.send(Ok(Bytes::from(full))).await.is_ok()
}

impl Cursor {
    /// Whether a read at `offset` continues this cursor: it is in the
    /// chunk being read or at most [`SKIP_AHEAD`] past where it is.
    fn reaches(&self, offset: u64) -> bool {
        offset >= self.chunk_at && offset.saturating_sub(self.pos) <= SKIP_AHEAD
    }

    fn read_at(&mut self, object: &Object, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        while offset >= self.chunk_at + self.chunk.len() as u64 {
            let chunk_at = self.chunk_at + self.chunk.len() as u64;
            // Skipping ahead: what is skipped keeps the requests going.
            self.pos = self.pos.max(chunk_at);
            self.request_ahead(object);
            let chunk = self.next_bytes(object)?;
            if chunk.is_empty() {
                return Ok(0);
            }
            let done = std::mem::replace(&mut self.chunk, chunk);
            self.chunk_at = chunk_at;
            self.recycled.give(done);
        }
        let from = (offset - self.chunk_at) as usize;
        let n = buf.len().min(self.chunk.len() - from);
        buf[..n].copy_from_slice(&self.chunk[from..from + n]);
        self.pos = offset + n as u64;
        self.request_ahead(object);
        Ok(n)
    }

    /// Requests the next range once what is requested but unread is down
    /// to half the last range: it arrives while that is read, and a reader
    /// that stops early (head) has not asked for a range twice as large.
    fn request_ahead(&mut self, object: &Object) {
        if self.next >= object.size || self.next.saturating_sub(self.pos) > self.last / 2 {
            return;
        }
        let streamed = self.step >= STREAM_AT;
        let len = match streamed {
            true => object.size - self.next,
            false => self.step.min(object.size - self.next),
        };
        let store = object.client.store.clone();
        let path = object.path.clone();
        let options = object.options(object_store::GetRange::Bounded(self.next..self.next + len));
        let range = if streamed {
            let (tx, chunks) = tokio::sync::mpsc::channel(STREAM_CHUNKS);
            let recycled = self.recycled.clone();
            let task = object.runtime.spawn(async move {
                match store.get_opts(&path, options).await {
                    Ok(got) => stream_body(got, tx, recycled).await,
                    Err(e) => {
                        let _ = tx.send(Err(e)).await;
                    }
                }
            });
            Range::Streamed { chunks, task, got: 0 }
        } else {
            Range::Whole(object.runtime.spawn(async move {
                let got = store.get_opts(&path, options).await?;
                got.bytes().await
            }))
        };
        self.pending.push_back((len, range));
        self.next += len;
        self.last = len;
        self.step *= 2;
    }

    /// The next bytes of the object; empty at its end.
    fn next_bytes(&mut self, object: &Object) -> io::Result<Bytes> {
        let changed = |len: u64, got: u64| {
            io::Error::other(format!(
                "the object changed while being read (a range of {len} bytes returned {got})"
            ))
        };
        loop {
            let Some((len, range)) = self.pending.front_mut() else {
                return Ok(Bytes::new());
            };
            let len = *len;
            return match range {
                Range::Whole(task) => {
                    let got = object
                        .runtime
                        .block_on(task)
                        .map_err(|e| io::Error::other(format!("ranged read failed: {e}")))?
                        .map_err(|e| io::Error::other(one_line(&e)))?;
                    self.pending.pop_front();
                    match got.len() as u64 == len {
                        true => Ok(got),
                        false => Err(changed(len, got.len() as u64)),
                    }
                }
                Range::Streamed { chunks, got, .. } => match chunks.blocking_recv() {
                    Some(Ok(chunk)) if chunk.is_empty() => continue,
                    Some(Ok(chunk)) => {
                        *got += chunk.len() as u64;
                        if *got > len {
                            return Err(changed(len, *got));
                        }
                        if *got == len {
                            self.pending.pop_front();
                        }
                        Ok(chunk)
                    }
                    Some(Err(e)) => Err(io::Error::other(one_line(&e))),
                    None => Err(io::Error::other(format!(
                        "the connection ended {} bytes before the end of a range",
                        len - *got
                    ))),
                },
            };
        }
    }
}

impl Drop for Cursor {
    fn drop(&mut self) {
        for (_, range) in &self.pending {
            match range {
                Range::Whole(task) => task.abort(),
                Range::Streamed { task, .. } => task.abort(),
            }
        }
    }
}

#[cfg(test)]
#[path = "object_tests.rs"]
mod tests;

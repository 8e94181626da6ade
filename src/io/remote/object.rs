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
/// Chunks of the streamed rest (each what the connection delivered, ~16
/// KiB) held between the network and the reader.
const STREAM_CHUNKS: usize = 8;

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
            // An empty object has no byte 0 to ask for (416): a plain GET
            // (of nothing) gives its size. Any other error is the answer.
            Err(e) if causes(&e).contains("416") => client
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
                bail!("{name}: {}", one_line(&e));
            };
            let one = object_store::list::PaginatedListOptions {
                max_keys: Some(1),
                ..Default::default()
            };
            let listed = wait(rt, async move { lister.list_paginated(None, one).await });
            return Err(match listed {
                Err(object_store::Error::NotFound { .. }) => anyhow!("{name}: no such bucket or container"),
                Err(other) => anyhow!("{name}: {}", one_line(&other)),
                Ok(_) => anyhow!("{name}: {}", one_line(&e)),
            });
        }
        Err(e) => bail!("{name}: {}", one_line(&e)),
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

impl ReadAt for Object {
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
            (self.chunk, self.chunk_at) = (chunk, chunk_at);
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
            let task = object.runtime.spawn(async move {
                match store.get_opts(&path, options).await {
                    Ok(got) => {
                        let mut stream = got.into_stream();
                        while let Some(chunk) = stream.next().await {
                            let failed = chunk.is_err();
                            if tx.send(chunk).await.is_err() || failed {
                                break;
                            }
                        }
                    }
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

//! Positional reads of an object ([`Object`]) against object_store's
//! in-memory store: every pattern of reads returns the object's bytes, and
//! reads that follow on share a cursor.

use super::*;
use object_store::memory::InMemory;

/// Bytes that differ at every offset (a wrong offset shows).
fn data(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[1])
        .collect()
}

fn object(store: Arc<InMemory>, bytes: &[u8]) -> Object {
    let rt = runtime().unwrap();
    let path = ObjectPath::from("o");
    let meta = rt
        .block_on(async {
            store.put(&path, PutPayload::from(bytes.to_vec())).await?;
            store.head(&path).await
        })
        .unwrap();
    Object {
        client: Arc::new(Client {
            store,
            multipart: None,
            lister: None,
        }),
        path,
        size: meta.size,
        e_tag: meta.e_tag,
        runtime: rt,
        cursors: Mutex::new(VecDeque::new()),
    }
}

fn cursors(o: &Object) -> usize {
    o.cursors.lock().unwrap().len()
}

/// Reads `len` bytes at `at` as the record layer does (short reads taken).
fn read(o: &Object, at: u64, len: usize) -> Vec<u8> {
    let mut buf = vec![0u8; len];
    let mut done = 0;
    while done < len {
        match o.read_at(&mut buf[done..], at + done as u64).unwrap() {
            0 => break,
            n => done += n,
        }
    }
    buf.truncate(done);
    buf
}

#[test]
fn sequential_reads_share_one_cursor() {
    let bytes = data(3 << 20);
    let o = object(Arc::new(InMemory::new()), &bytes);
    let mut got = Vec::new();
    while got.len() < bytes.len() {
        let chunk = read(&o, got.len() as u64, 100_000);
        assert!(!chunk.is_empty());
        got.extend(chunk);
    }
    assert!(got == bytes);
    assert_eq!(cursors(&o), 1);
    assert!(read(&o, bytes.len() as u64, 10).is_empty());
}

#[test]
fn jumps_back_and_far_ahead_read_the_right_bytes() {
    let len = 40 << 20;
    let bytes = data(len);
    let o = object(Arc::new(InMemory::new()), &bytes);
    // Forward within the skip distance, back into the chunk just read, far
    // ahead (a new cursor), back to the start (another), and on from each.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut at = 0u64;
    for step in 0..400 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        at = match step % 5 {
            0 => at + state % (1 << 20),
            1 => at.saturating_sub(state % 4096),
            2 => at + (SKIP_AHEAD + state % (SKIP_AHEAD * 2)),
            3 => state % len as u64,
            _ => at,
        } % len as u64;
        let n = 1 + (state >> 20) as usize % 300_000;
        let want = &bytes[at as usize..(at as usize + n).min(len)];
        assert!(read(&o, at, n) == want, "step {step}: {n} bytes at {at}");
        at += n as u64;
        assert!(cursors(&o) <= CURSORS);
    }
}

#[test]
fn threads_reading_their_own_parts_get_their_own_bytes() {
    let len = 12 << 20;
    let bytes = data(len);
    let o = object(Arc::new(InMemory::new()), &bytes);
    std::thread::scope(|s| {
        for part in 0..4u64 {
            let (o, bytes) = (&o, &bytes);
            s.spawn(move || {
                let (start, end) = (part * len as u64 / 4, (part + 1) * len as u64 / 4);
                let mut at = start;
                while at < end {
                    let n = 65_536.min((end - at) as usize);
                    assert!(read(o, at, n) == bytes[at as usize..at as usize + n]);
                    at += n as u64;
                }
            });
        }
    });
    assert!(cursors(&o) <= CURSORS);
}

#[test]
fn an_object_replaced_while_read_is_an_error_not_a_mix() {
    let store = Arc::new(InMemory::new());
    let bytes = data(4 << 20);
    let o = object(store.clone(), &bytes);
    assert!(read(&o, 0, 1000) == bytes[..1000]);
    let rt = runtime().unwrap();
    rt.block_on(store.put(&o.path, PutPayload::from(data(5 << 20))))
        .unwrap();
    let mut buf = vec![0u8; 1 << 20];
    let mut at = 1000u64;
    let failed = loop {
        match o.read_at(&mut buf, at) {
            Ok(0) => break None,
            Ok(n) => {
                assert!(
                    buf[..n] == bytes[at as usize..at as usize + n],
                    "bytes of the new object at {at}"
                );
                at += n as u64;
            }
            Err(e) => break Some(e),
        }
    };
    let e = failed.expect("the replaced object was read to the end");
    assert!(e.to_string().contains("the object changed while being read"), "{e}");
}

/// A response of `len` bytes whose body is `stream`.
fn body(
    stream: impl futures_util::Stream<Item = object_store::Result<Bytes>> + Send + 'static,
    len: u64,
) -> object_store::GetResult {
    object_store::GetResult {
        payload: object_store::GetResultPayload::Stream(Box::pin(stream)),
        meta: object_store::ObjectMeta {
            location: ObjectPath::from("o"),
            last_modified: Default::default(),
            size: len,
            e_tag: None,
            version: None,
        },
        range: 0..len,
        attributes: Default::default(),
        extensions: Default::default(),
    }
}

/// The streamed rest of an object: the connection's small pieces gathered
/// into full buffers, a buffer not yet full handed over when the
/// connection stalls, every byte in order, then the error that cut it.
#[test]
fn streamed_pieces_are_gathered_handed_over_on_a_stall_and_end_with_the_error() {
    let rt = runtime().unwrap();
    let bytes = data(2 * STREAM_BUF + 5000);
    let pieces: Vec<Bytes> = bytes.chunks(1000).map(Bytes::copy_from_slice).collect();
    let n = pieces.len();
    // The connection stalls after the first three pieces.
    let stream = futures_util::stream::unfold(0usize, move |i| {
        let piece = pieces.get(i).cloned();
        async move {
            if i == 3 {
                tokio::time::sleep(STREAM_WAIT * 20).await;
            }
            match (piece, i == n) {
                (Some(p), _) => Some((Ok(p), i + 1)),
                (None, true) => Some((
                    Err(object_store::Error::Generic {
                        store: "test",
                        source: "connection reset".into(),
                    }),
                    i + 1,
                )),
                (None, false) => None,
            }
        }
    });
    let got = body(stream, bytes.len() as u64);
    let (tx, mut rx) = tokio::sync::mpsc::channel(STREAM_CHUNKS);
    let recycled = Arc::new(Recycled::default());
    rt.spawn(stream_body(got, tx, recycled.clone()));
    let mut lens = Vec::new();
    let mut all = Vec::new();
    let mut failed = None;
    while let Some(chunk) = rx.blocking_recv() {
        match chunk {
            Ok(chunk) => {
                lens.push(chunk.len());
                all.extend_from_slice(&chunk);
                recycled.give(chunk);
            }
            Err(e) => failed = Some(e.to_string()),
        }
    }
    assert_eq!(all, bytes, "every byte, in order");
    assert_eq!(
        lens,
        [3000, STREAM_BUF, STREAM_BUF, 2000],
        "gathered, and handed over on the stall"
    );
    assert!(
        failed.is_some_and(|e| e.contains("connection reset")),
        "the error comes last"
    );
    // A buffer handed back is filled again, not allocated anew.
    let buf = Bytes::from(recycled.take());
    let at = buf.as_ptr();
    recycled.give(buf);
    let again = recycled.take();
    assert_eq!(again.as_ptr(), at);
}

/// A connection trickling small pieces closer together than
/// [`STREAM_WAIT`]: what arrived goes to the reader within that long of its
/// first byte, not once a whole buffer has gathered.
#[test]
fn a_trickle_is_handed_over_as_it_comes() {
    let rt = runtime().unwrap();
    let bytes = data(30 * 100);
    let pieces: Vec<Bytes> = bytes.chunks(100).map(Bytes::copy_from_slice).collect();
    let stream = futures_util::stream::unfold(0usize, move |i| {
        let piece = pieces.get(i).cloned();
        async move {
            tokio::time::sleep(STREAM_WAIT / 3).await;
            piece.map(|p| (Ok(p), i + 1))
        }
    });
    let got = body(stream, bytes.len() as u64);
    let (tx, mut rx) = tokio::sync::mpsc::channel(STREAM_CHUNKS);
    rt.spawn(stream_body(got, tx, Arc::new(Recycled::default())));
    let mut all = Vec::new();
    let mut handed = 0;
    while let Some(chunk) = rx.blocking_recv() {
        all.extend_from_slice(&chunk.unwrap());
        handed += 1;
    }
    assert_eq!(all, bytes);
    // 30 pieces over about 50 ms: a hand-over every 5 ms or so, not one.
    assert!(handed >= 4, "{handed} hand-overs");
}

//! Unit tests of the shuffle: the generator, the order's uniformity, and
//! the same order in memory and through bucket files.

use super::*;

/// Collects what [`Emit`] is given.
#[derive(Default)]
struct Collect {
    total: Option<u64>,
    records: Vec<Vec<u8>>,
    /// Fail on this record (0-based), to test the clean-up on error.
    fail_at: Option<usize>,
    /// The records given framed, as given.
    framed: Vec<Vec<u8>>,
}

impl Emit for Collect {
    fn begin(&mut self, total: u64) -> Result<()> {
        self.total = Some(total);
        Ok(())
    }

    fn record(&mut self, payload: &[u8], crc: u32) -> Result<()> {
        // The footer carried from the input (or the spill files) is the payload's.
        assert_eq!(crc, record::masked_crc(payload), "record {}'s CRC", self.records.len());
        if self.fail_at == Some(self.records.len()) {
            crate::error::bail!("emit failed on purpose");
        }
        self.records.push(payload.to_vec());
        Ok(())
    }

    fn framed(&mut self, record: &[u8]) -> Result<()> {
        self.framed.push(record.to_vec());
        let end = record.len() - record::FOOTER_LEN;
        let crc = u32::from_le_bytes(record[end..].try_into().unwrap());
        self.record(&record[record::HEADER_LEN..end], crc)
    }
}

fn options(seed: u64, memory: u64, dir: &Path) -> Options {
    Options {
        seed,
        memory,
        temp_dir: dir.to_path_buf(),
    }
}

/// The records in the order drawn, with what the shuffle did: the same
/// whether the bucket files are read back on a second thread or not.
fn run(payloads: &[Vec<u8>], options: &Options) -> (Vec<Vec<u8>>, Shuffled) {
    run_framed(payloads, options).0
}

/// The records in the order drawn, and what the shuffle did.
type Ran = (Vec<Vec<u8>>, Shuffled);

/// [`run`], with the records given framed (read back from bucket files).
fn run_framed(payloads: &[Vec<u8>], options: &Options) -> (Ran, Vec<Vec<u8>>) {
    run_ways(payloads, options, &[true, false])
}

/// The records drawn with the bucket files read back on a second thread
/// only (for the many-seed statistics; [`run`] checks that both ways agree).
fn run_threaded(payloads: &[Vec<u8>], options: &Options) -> Ran {
    run_ways(payloads, options, &[true]).0
}

/// [`run_framed`] for each of `ways` (read back threaded or not), which
/// must give the same order.
fn run_ways(payloads: &[Vec<u8>], options: &Options, ways: &[bool]) -> (Ran, Vec<Vec<u8>>) {
    let runs: Vec<_> = ways
        .iter()
        .map(|&threaded| {
            let mut gather = Gather::new(options, threaded);
            for p in payloads {
                gather.push(p, record::masked_crc(p)).unwrap();
            }
            let mut out = Collect::default();
            let done = gather.finish(&mut out).unwrap();
            assert_eq!(out.total, Some(payloads.len() as u64));
            ((out.records, done), out.framed)
        })
        .collect();
    assert!(
        runs.windows(2).all(|w| w[0] == w[1]),
        "threaded and not, the same order"
    );
    runs.into_iter().next().unwrap()
}

/// `n` distinct payloads of varied lengths (0 to 300 bytes).
fn payloads(n: usize) -> Vec<Vec<u8>> {
    let mut rng = Xoshiro::new(99);
    (0..n)
        .map(|i| {
            let mut p = (i as u32).to_le_bytes().to_vec();
            let extra = rng.below(297) as usize;
            p.extend((0..extra).map(|_| rng.next_u64() as u8));
            if i == 0 {
                p.clear(); // an empty payload is a record too
            }
            p
        })
        .collect()
}

fn sorted(mut v: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    v.sort();
    v
}

/// A temporary directory for bucket files: in memory (/dev/shm) where
/// there is one, as these tests make and remove over 100,000 files and a
/// disk's journal made them take seconds; else the system's.
fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    match shm.is_dir() {
        true => tempfile::tempdir_in(shm).or_else(|_| tempfile::tempdir()),
        false => tempfile::tempdir(),
    }
    .unwrap()
}

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn xoshiro_and_splitmix_match_their_reference_outputs() {
    // The first outputs of xoshiro256** from the state {1, 2, 3, 4}, and of
    // SplitMix64 from 0, as their authors' C code gives them.
    let mut x = Xoshiro([1, 2, 3, 4]);
    let first: Vec<u64> = (0..4).map(|_| x.next_u64()).collect();
    assert_eq!(first, [11520, 0, 1509978240, 1215971899390074240]);
    assert_eq!(splitmix(&mut 0), 0xe220_a839_7b1d_cdaf);
}

#[test]
fn below_is_in_range_and_even() {
    let mut x = Xoshiro::new(1);
    let mut counts = [0u32; 7];
    for _ in 0..70_000 {
        counts[x.below(7) as usize] += 1;
    }
    // Chi-square, 6 degrees of freedom: 22.46 is its 0.999 quantile.
    let chi: f64 = counts
        .iter()
        .map(|&c| (f64::from(c) - 10_000.0).powi(2) / 10_000.0)
        .sum();
    assert!(chi < 22.46, "{counts:?} chi² {chi}");
    assert_eq!(x.below(1), 0);
}

#[test]
fn every_order_of_four_records_is_equally_likely() {
    // 24,000 seeds: each of the 24 orders expected 1,000 times.
    let dir = scratch();
    let records: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i]).collect();
    let mut counts = std::collections::HashMap::new();
    for seed in 0..24_000 {
        let (out, done) = run(&records, &options(seed, 1 << 20, dir.path()));
        assert_eq!(done.spilled, 0);
        *counts.entry(out.concat()).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 24);
    // Chi-square, 23 degrees of freedom: 49.73 is its 0.999 quantile.
    let chi: f64 = counts.values().map(|&c| (f64::from(c) - 1000.0).powi(2) / 1000.0).sum();
    assert!(chi < 49.73, "chi² {chi}: {counts:?}");
}

#[test]
fn positions_are_uniform_when_spilled() {
    // 64 records of ~100 bytes in a budget of 2 KiB: every seed spills
    // (and splits buckets). Per record, its position in 8 bins of 8,
    // counted over 400 seeds (50 expected per cell).
    let dir = scratch();
    let records: Vec<Vec<u8>> = (0..64u8).map(|i| vec![i; 100]).collect();
    let mut cells = vec![[0u32; 8]; 64];
    for seed in 0..400 {
        let (out, done) = run_threaded(&records, &options(seed, 2 << 10, dir.path()));
        assert!(done.spilled > 0);
        for (position, r) in out.iter().enumerate() {
            cells[r[0] as usize][position / 8] += 1;
        }
    }
    // Chi-square with 63 × 7 = 441 degrees of freedom: mean 441, standard
    // deviation 29.7; 537 is about its 0.999 quantile, 352 its 0.001.
    let chi: f64 = cells
        .iter()
        .flatten()
        .map(|&c| (f64::from(c) - 50.0).powi(2) / 50.0)
        .sum();
    assert!((352.0..537.0).contains(&chi), "chi² {chi}");
    assert!(is_empty_dir(dir.path()), "bucket files left behind");
}

#[test]
fn neighbours_are_not_kept_together() {
    // A shuffle that moved blocks of records (by bucket) would keep input
    // neighbours adjacent: among 10,000 records, a pair adjacent in the
    // input is adjacent in the output with probability 2 / n.
    let dir = scratch();
    let records: Vec<Vec<u8>> = (0..10_000u32).map(|i| i.to_le_bytes().to_vec()).collect();
    let (out, done) = run(&records, &options(5, 16 << 10, dir.path()));
    assert!(done.spilled > 0);
    let index = |r: &Vec<u8>| u32::from_le_bytes(r[..4].try_into().unwrap());
    let adjacent = out
        .windows(2)
        .filter(|w| index(&w[0]).abs_diff(index(&w[1])) == 1)
        .count();
    assert!(adjacent < 10, "{adjacent} input neighbours stayed together");
    let increasing = out.windows(2).filter(|w| index(&w[0]) < index(&w[1])).count();
    assert!(
        (4_800..5_200).contains(&increasing),
        "{increasing} ascending steps of 9,999"
    );
}

#[test]
fn spilled_and_split_orders_equal_the_in_memory_order() {
    let dir = scratch();
    let records = payloads(3000);
    let (in_memory, done) = run(&records, &options(7, 64 << 20, dir.path()));
    assert_eq!(done.spilled, 0);
    assert_eq!(sorted(in_memory.clone()), sorted(records.clone()));
    assert_ne!(in_memory, records);
    let total: u64 = records.iter().map(|r| r.len() as u64 + FRAME).sum();
    // 64 KiB: the records spill to 256 buckets of ~2 KiB, each read whole.
    let (spilled, done) = run(&records, &options(7, 64 << 10, dir.path()));
    assert_eq!(done.spilled, total);
    assert_eq!(spilled, in_memory);
    // 1 KiB: buckets over the budget are split again (written twice).
    let (split, done) = run(&records, &options(7, 1 << 10, dir.path()));
    assert!(done.spilled > total, "{} of {total}", done.spilled);
    assert_eq!(split, in_memory);
    // Read back, the records are framed where they lie, as a
    // RecordWriter frames them.
    let ((_, _), framed) = run_framed(&records, &options(7, 64 << 10, dir.path()));
    let want: Vec<Vec<u8>> = in_memory
        .iter()
        .map(|p| {
            let mut w = record::RecordWriter::new(Vec::new());
            w.write_record(p).unwrap();
            w.into_inner()
        })
        .collect();
    assert!(framed == want, "framed as a RecordWriter frames");
    // Another seed, another order.
    let (other, _) = run(&records, &options(8, 64 << 20, dir.path()));
    assert_ne!(other, in_memory);
    assert!(is_empty_dir(dir.path()), "bucket files left behind");
}

#[test]
fn equal_keys_are_ordered_by_the_seed_and_uniformly() {
    let mut counts = std::collections::HashMap::new();
    for seed in 0..6000 {
        let mut entries: Vec<Entry> = (0..3)
            .map(|i| Entry {
                key: 42,
                start: i,
                len: 0,
            })
            .collect();
        entries.push(Entry {
            key: 1,
            start: 3,
            len: 0,
        });
        sort_entries(&mut entries, seed);
        assert_eq!(entries[0].start, 3, "the smaller key first");
        let order: Vec<u64> = entries[1..].iter().map(|e| e.start).collect();
        *counts.entry(order).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 6);
    // Chi-square, 5 degrees of freedom: 20.52 is its 0.999 quantile.
    let chi: f64 = counts.values().map(|&c| (f64::from(c) - 1000.0).powi(2) / 1000.0).sum();
    assert!(chi < 20.52, "chi² {chi}: {counts:?}");
}

/// The radix sort orders entries exactly as a comparison sort does:
/// uniform keys, keys sharing their top bits (a bucket read back), runs of
/// equal keys and of keys equal but in their lowest byte, any length.
#[test]
fn the_radix_sort_orders_as_sort_unstable() {
    let mut rng = Xoshiro::new(9);
    for n in [0usize, 1, 2, 63, 64, 65, 300, 5000, 70_000] {
        for shape in 0..4 {
            let mut entries: Vec<Entry> = (0..n as u64)
                .map(|i| {
                    let r = rng.next_u64();
                    let key = match shape {
                        0 => r,
                        1 => (0xAB << 56) | (r >> 8),
                        2 => r % 7,
                        _ => (r & 0xff) | (0x1234 << 40),
                    };
                    Entry {
                        key,
                        start: n as u64 - i,
                        len: r % 3,
                    }
                })
                .collect();
            let mut want = entries.clone();
            want.sort_unstable();
            radix_sort(&mut entries, 56);
            assert!(entries == want, "n {n}, shape {shape}");
        }
    }
}

#[test]
fn a_failed_emit_leaves_no_bucket_file() {
    for threaded in [true, false] {
        let dir = scratch();
        let records = payloads(2000);
        let opts = options(3, 32 << 10, dir.path());
        let mut gather = Gather::new(&opts, threaded);
        for p in &records {
            gather.push(p, record::masked_crc(p)).unwrap();
        }
        assert!(!is_empty_dir(dir.path()), "the records were spilled");
        let mut out = Collect {
            fail_at: Some(1000),
            ..Collect::default()
        };
        let err = gather.finish(&mut out).unwrap_err();
        assert!(format!("{err:#}").contains("on purpose"), "{err:#}");
        assert_eq!(out.records.len(), 1000);
        assert!(is_empty_dir(dir.path()), "bucket files left behind");
    }
}

/// Two buckets are held at once (one emitted, the next read): each buffer
/// then stays within half the budget; a bucket over half of it is read
/// alone, the other buffers freed first.
#[test]
fn the_buffers_of_buckets_read_back_stay_within_the_budget() {
    let dir = scratch();
    let spill_dir = SpillDir::new(dir.path()).unwrap();
    let mut out = Collect::default();
    let memory = 1 << 20;
    let mut drain = Drain::new(&spill_dir, memory, 1, Lend::Here(&mut out));
    let big = |n: usize| Held {
        data: Vec::with_capacity(n),
        ..Held::default()
    };
    drain.spare = vec![big(900 << 10), big(100 << 10)];
    let small = drain.buffer(200 << 10).unwrap();
    assert!(small.capacity() <= memory / 2);
    assert!(drain.spare.iter().all(|h| h.capacity() <= memory / 2));
    drain.spare = vec![big(100 << 10), big(900 << 10), big(300 << 10)];
    let large = drain.buffer(800 << 10).unwrap();
    assert_eq!(large.capacity(), 900 << 10, "the largest buffer kept");
    assert!(drain.spare.iter().all(|h| h.capacity() == 0), "the others freed");
}

/// Once the records held are written out, the buckets' write buffers take
/// the budget (with 1/16 of it, 4 KiB writes were most of the reading
/// pass's time), shared with the buffers queued for the writing thread.
#[test]
fn once_spilling_the_bucket_files_buffer_the_budget() {
    for threaded in [true, false] {
        let dir = scratch();
        let memory = 4 << 20;
        let opts = options(3, memory, dir.path());
        let mut gather = Gather::new(&opts, threaded);
        while gather.spill.is_none() {
            gather.push(&[7; 1000], record::masked_crc(&[7; 1000])).unwrap();
        }
        for _ in 0..1000 {
            gather.push(&[8; 1000], record::masked_crc(&[8; 1000])).unwrap();
        }
        let top = &gather.spill.as_ref().unwrap().top;
        assert_eq!(write_buffer(opts.memory), 4 << 10);
        let each = top.capacity;
        assert!(each * (FANOUT + IN_FLIGHT) <= memory as usize, "{each}");
        assert!(each * (FANOUT + IN_FLIGHT) > memory as usize * 9 / 10, "{each}");
        assert!(top.files.iter().all(|b| b.buf.capacity() <= each));
        let buffered = top.files.iter().filter(|b| b.buf.capacity() == each).count();
        assert!(buffered > 200, "{buffered}");
        // Few files: one per segment.
        let files = std::fs::read_dir(dir.path()).unwrap().next().unwrap().unwrap().path();
        let made = std::fs::read_dir(files).unwrap().count();
        assert_eq!(made, SEGMENTS);
    }
}

/// A record longer than a write buffer goes straight to the file, in its
/// place among the bucket's records; read back and split, order and bytes
/// are the same as in memory.
#[test]
fn records_longer_than_a_buffer_keep_their_place() {
    let dir = scratch();
    let mut records = payloads(3000);
    for i in (0..records.len()).step_by(97) {
        records[i] = vec![(i % 251) as u8; 40 << 10];
    }
    let total: u64 = records.iter().map(|r| r.len() as u64 + FRAME).sum();
    let (in_memory, _) = run(&records, &options(11, 1 << 30, dir.path()));
    // 1.7 MB of records: 4 KiB buffers (the long records go straight to
    // the files); with 48 KiB, buckets holding a long record are split
    // (streamed, the long records again straight to the files).
    for memory in [1 << 20, 256 << 10, 48 << 10] {
        let (spilled, done) = run(&records, &options(11, memory, dir.path()));
        assert!(done.spilled >= total, "{} of {total}", done.spilled);
        if memory == 48 << 10 {
            assert!(done.spilled > total, "split: written twice");
        }
        assert!(spilled == in_memory, "the same order with {memory} bytes");
        assert!(is_empty_dir(dir.path()), "spill files left behind");
    }
}

#[test]
fn an_unusable_temp_dir_is_one_clear_error() {
    let dir = scratch();
    let missing = dir.path().join("no/such/dir");
    let opts = options(3, 4 << 10, &missing);
    let mut gather = Gather::new(&opts, true);
    let err = (0..100)
        .try_for_each(|_| gather.push(&[0; 100], record::masked_crc(&[0; 100])))
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("cannot create a temporary directory (--temp-dir)"),
        "{text}"
    );
    assert!(text.contains("no/such/dir"), "{text}");
}

#[test]
fn a_bucket_file_changed_underneath_is_an_error_not_a_panic() {
    let dir = scratch();
    let records = payloads(500);
    let opts = options(3, 8 << 10, dir.path());
    let mut gather = Gather::new(&opts, true);
    for p in &records {
        gather.push(p, record::masked_crc(p)).unwrap();
    }
    let Spill { dir: spill_dir, top } = gather.spill.take().unwrap();
    let written = top.close().unwrap();
    // Cut every spill file short, once written.
    let mut paths: Vec<_> = written
        .iter()
        .filter(|b| b.records > 0)
        .map(|b| b.segment.path.clone())
        .collect();
    paths.dedup();
    for path in paths {
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let len = file.metadata().unwrap().len();
        file.set_len(len / 2).unwrap();
    }
    drain_fails_as_damage(spill_dir, &opts, written, dir.path());
}

/// Draining spill files changed underneath: the shuffle's error, and no
/// file left in `dir` once the spill directory is dropped.
fn drain_fails_as_damage(spill_dir: SpillDir, opts: &Options, written: Vec<Written>, dir: &Path) {
    let err = drain(
        &spill_dir,
        opts.memory,
        opts.seed,
        written,
        &mut Collect::default(),
        true,
    )
    .unwrap_err();
    assert!(format!("{err:#}").contains("temporary file of the shuffle"), "{err:#}");
    drop(spill_dir);
    assert!(is_empty_dir(dir));
}

/// A record length in a spill file changed to a huge value (the files
/// rewritten underneath) in a bucket split again is damage: an error, not
/// an overflow or a panic. (Read whole, see the test above.)
#[test]
fn a_huge_length_in_a_bucket_file_is_an_error_not_a_panic() {
    let dir = scratch();
    let opts = options(3, 8 << 10, dir.path());
    let mut gather = Gather::new(&opts, true);
    let payload = [7u8; 1000];
    for _ in 0..3000 {
        gather.push(&payload, record::masked_crc(&payload)).unwrap();
    }
    let Spill { dir: spill_dir, top } = gather.spill.take().unwrap();
    let written = top.close().unwrap();
    // Buckets of about 12 KB, most over the 8 KiB budget: split again.
    // Only those are changed (the others are read whole, intact).
    let split = |b: &&Written| b.records > 1 && b.bytes + b.records * ENTRY > opts.memory;
    assert!(written.iter().filter(split).count() > 100);
    for b in written.iter().filter(split) {
        let file = std::fs::OpenOptions::new().write(true).open(&b.segment.path).unwrap();
        // The first record's length field: 8 bytes after its key.
        write_all_at(&file, &u64::MAX.to_le_bytes(), b.chunks[0].0 + 8).unwrap();
    }
    drain_fails_as_damage(spill_dir, &opts, written, dir.path());
}

/// A write to a spill file that fails (a full disk, say) is the shuffle's
/// error, whether this thread or the writing one made it.
#[test]
fn a_failed_spill_write_is_an_error_from_either_writer() {
    for threaded in [true, false] {
        let dir = scratch();
        let path = dir.path().join("read-only");
        std::fs::write(&path, b"").unwrap();
        // Opened for reading only: every write fails.
        let file = Arc::new(File::open(&path).unwrap());
        let segment = Arc::new(SegmentFile { path: path.clone() });
        let mut writer = Writer::new(threaded).unwrap();
        let chunk = || Chunk {
            file: file.clone(),
            segment: segment.clone(),
            offset: 0,
            data: vec![1; 10],
        };
        // Threaded, the error shows at a later write or at the end.
        let mut result = Ok(());
        for _ in 0..2 * IN_FLIGHT {
            result = writer.write(chunk()).map(|_| ());
            if result.is_err() {
                break;
            }
        }
        let err = result.and_then(|()| writer.finish()).unwrap_err();
        assert!(
            err.to_string().contains("cannot write a temporary file of the shuffle"),
            "{err}"
        );
    }
}

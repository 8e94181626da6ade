//! One large plain file walked on several threads (`count` and `verify-crc`
//! on a single input).
//!
//! The file is cut into byte ranges, one per thread. Every thread but the
//! first looks for where records start after its cut: the first offset whose
//! header checks, whose payload fits in the file and checks, and which is
//! followed by another header that checks (or by the end of the file). Then
//! each thread walks records from its start up to the next thread's start.
//!
//! The walks are joined in order, and a range counts only when the walk
//! before it landed exactly on its start. So every record boundary is proven
//! by the unbroken chain of lengths from byte 0, exactly as one sequential
//! walk would prove it: a look-alike start (a TFRecord file stored inside a
//! payload, say) can only make the previous walk miss it, which ends the
//! proven part there. Whatever is not proven clean (damage, a missed start, a
//! range where no start was found, an I/O error) is left to the caller's
//! sequential reader, which goes on from the end of the clean prefix and
//! reports it exactly as it would have from the start.

use super::resync::{find_header, payload_checks, SCAN_CHUNK};
use super::{parse_header, Compression, RecordReader, Source, FOOTER_LEN, HEADER_LEN};
use std::fs::File;
use std::path::Path;

/// Smallest range worth a thread of its own.
const MIN_RANGE: u64 = 4 << 20;
/// How far past its cut a thread looks for a record start before leaving its
/// range to the thread before it.
const START_WINDOW: u64 = 4 << 20;
/// Largest record read to confirm a start; a range starting inside a larger
/// one is left to the thread before it.
const START_MAX_RECORD: u64 = 16 << 20;
/// Records between progress reports.
const PROGRESS_EVERY: u64 = 1 << 14;

/// What each record's walk checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The length CRC only; payloads are skipped, not read (count).
    Headers,
    /// Both CRCs (verify-crc).
    Both,
}

/// The part of a file proven intact from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CleanPrefix {
    /// Records in it.
    pub records: u64,
    /// Where it ends: a record boundary, the file size when all of it is clean.
    pub end: u64,
}

/// Walks the regular, uncompressed file at `path` (`size` bytes) on up to
/// `jobs` threads and returns its clean prefix. Files too small to split
/// (or `jobs` 1) give an empty prefix: the caller reads them itself.
/// `progress(bytes, records)` is called with increments, from any thread.
pub fn clean_prefix(
    path: &Path,
    size: u64,
    jobs: usize,
    check: Check,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> CleanPrefix {
    let ranges = (size / MIN_RANGE).min(jobs as u64);
    if ranges < 2 {
        return CleanPrefix::default();
    }
    walk_ranges(path, size, ranges, START_WINDOW, check, progress)
}

/// [`clean_prefix`] over exactly `ranges` ranges, each thread looking at
/// most `window` bytes past its cut for a start.
fn walk_ranges(
    path: &Path,
    size: u64,
    ranges: u64,
    window: u64,
    check: Check,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> CleanPrefix {
    let cuts: Vec<u64> = (1..ranges).map(|k| size / ranges * k).collect();
    // Where records start after each cut (searching up to the next cut).
    let found: Vec<Option<u64>> = std::thread::scope(|scope| {
        let searches: Vec<_> = cuts
            .iter()
            .enumerate()
            .map(|(k, &cut)| {
                let limit = cuts.get(k + 1).copied().unwrap_or(size).min(cut.saturating_add(window));
                scope.spawn(move || find_start(path, size, cut, limit))
            })
            .collect();
        searches.into_iter().map(|s| s.join().ok().flatten()).collect()
    });
    let starts: Vec<u64> = std::iter::once(0).chain(found.into_iter().flatten()).collect();
    let walks: Vec<Walk> = std::thread::scope(|scope| {
        let walks: Vec<_> = starts
            .iter()
            .enumerate()
            .map(|(i, &start)| {
                let target = starts.get(i + 1).copied().unwrap_or(size);
                scope.spawn(move || walk(path, size, start, target, check, progress))
            })
            .collect();
        walks
            .into_iter()
            .zip(&starts)
            .map(|(w, &start)| w.join().unwrap_or(Walk::nothing(start)))
            .collect()
    });
    let mut prefix = CleanPrefix::default();
    for w in walks {
        prefix.records += w.records;
        prefix.end = w.end;
        if !w.reached {
            break;
        }
    }
    prefix
}

/// One thread's walk.
#[derive(Clone, Copy, Debug)]
struct Walk {
    /// Intact records walked.
    records: u64,
    /// The offset after the last of them.
    end: u64,
    /// Whether the walk landed exactly on its target.
    reached: bool,
}

impl Walk {
    fn nothing(start: u64) -> Walk {
        Walk {
            records: 0,
            end: start,
            reached: false,
        }
    }
}

/// A reader over the file from `offset`, or `None` if it cannot be opened.
fn open_at(path: &Path, size: u64, offset: u64) -> Option<Source> {
    let mut src = Source::from_file(File::open(path).ok()?, size);
    src.seek_to(offset).ok()?;
    Some(src)
}

/// Walks intact records from `start` until `target` is reached or passed,
/// or a record does not check.
fn walk(path: &Path, size: u64, start: u64, target: u64, check: Check, progress: &(dyn Fn(u64, u64) + Sync)) -> Walk {
    let Some(src) = open_at(path, size, start) else {
        return Walk::nothing(start);
    };
    let mut reader = RecordReader::new(src, Compression::None);
    reader.set_check_data_crc(check == Check::Both);
    let (mut records, mut reported, mut reported_at) = (0u64, 0u64, start);
    let done = loop {
        let end = reader.offset();
        if end >= target {
            break Walk {
                records,
                end,
                reached: end == target,
            };
        }
        let src = reader.source_mut();
        let ok = match buffered_record(src.buffer(), check) {
            Some(total) => {
                src.consume(total);
                Ok(true)
            }
            // Not all buffered (or not intact): the reader reads on, and
            // says no when the record does not check.
            None => match check {
                Check::Headers => reader.skip_record().map(|r| r.is_some()),
                Check::Both => reader.next_record().map(|r| r.is_some()),
            },
        };
        if !matches!(ok, Ok(true)) {
            break Walk {
                records,
                end,
                reached: false,
            };
        }
        records += 1;
        if records - reported == PROGRESS_EVERY {
            progress(reader.offset() - reported_at, records - reported);
            (reported, reported_at) = (records, reader.offset());
        }
    };
    progress(done.end - reported_at, records - reported);
    done
}

/// The framed size of the record at the start of `buf` when all of it is
/// buffered and it checks: the walk's fast path, without the reader's
/// bookkeeping (a third of the instructions per small record).
#[inline]
fn buffered_record(buf: &[u8], check: Check) -> Option<usize> {
    let header: &[u8; HEADER_LEN] = buf.get(..HEADER_LEN)?.try_into().ok()?;
    let length = usize::try_from(parse_header(header)?).ok()?;
    let framed = buf.get(..length.checked_add(HEADER_LEN + FOOTER_LEN)?)?;
    (check == Check::Headers || payload_checks(framed)).then_some(framed.len())
}

/// The first record start at or after `from` and before `limit`: its header
/// checks, its payload fits and checks, and another header that checks (or
/// the end of the file) follows it.
fn find_start(path: &Path, size: u64, from: u64, limit: u64) -> Option<u64> {
    let mut src = open_at(path, size, from)?;
    while src.offset() < limit {
        let got = src.fill(SCAN_CHUNK).ok()?;
        if got < HEADER_LEN {
            return None;
        }
        match find_header(&src.buffer()[..got]) {
            None => src.consume(got - (HEADER_LEN - 1)),
            Some(i) => {
                src.consume(i);
                if src.offset() >= limit {
                    return None;
                }
                if starts_here(&mut src, size)? {
                    return Some(src.offset());
                }
                src.consume(1);
            }
        }
    }
    None
}

/// Whether the record whose header (already found to check) is at the
/// source's offset is intact and followed by a header or the end.
fn starts_here(src: &mut Source, size: u64) -> Option<bool> {
    let header: &[u8; HEADER_LEN] = src.buffer()[..HEADER_LEN].try_into().ok()?;
    let length = parse_header(header)?;
    if length > START_MAX_RECORD {
        return Some(false);
    }
    let total = length + (HEADER_LEN + FOOTER_LEN) as u64;
    let after = src.offset() + total;
    if after > size {
        return Some(false);
    }
    let total = total as usize;
    let need = if after == size { total } else { total + HEADER_LEN };
    if src.fill(need).ok()? < need || !payload_checks(&src.buffer()[..total]) {
        return Some(false);
    }
    if after == size {
        return Some(true);
    }
    let next: &[u8; HEADER_LEN] = src.buffer()[total..need].try_into().ok()?;
    Some(parse_header(next).is_some())
}

#[cfg(test)]
mod tests {
    use super::super::{encode_header, file_of, Scanner, Step};
    use super::*;
    use std::io::Write;

    fn temp(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f.flush().unwrap();
        f
    }

    /// What a sequential scan of the whole file finds: intact records and
    /// the (offset, kind) of every fault.
    fn sequential(path: &Path, size: u64, from: CleanPrefix) -> (u64, Vec<(u64, u64, String)>) {
        let mut reader = RecordReader::new(open_at(path, size, 0).unwrap(), Compression::None);
        reader.seek_to(from.end, from.records).unwrap();
        let mut scanner = Scanner::new(reader);
        let (mut intact, mut faults) = (from.records, Vec::new());
        while let Some(step) = scanner.next_step().unwrap() {
            match step {
                Step::Intact { .. } => intact += 1,
                Step::Fault(f) => faults.push((f.damage.record, f.damage.offset, f.damage.kind.to_string())),
            }
        }
        (intact, faults)
    }

    /// What a sequential header walk finds: records, and the offset where it
    /// stopped.
    fn hops(path: &Path, size: u64, from: CleanPrefix) -> (u64, u64) {
        let mut reader = RecordReader::new(open_at(path, size, 0).unwrap(), Compression::None);
        reader.seek_to(from.end, from.records).unwrap();
        while let Ok(Some(_)) = reader.skip_record() {}
        (reader.index(), reader.offset())
    }

    /// Every split of `bytes` into 2..=5 ranges, with either check, gives a
    /// clean prefix after which a sequential scan finds exactly what a scan
    /// from the start finds; returns the prefixes.
    fn agrees_with_sequential(bytes: &[u8]) -> Vec<CleanPrefix> {
        let f = temp(bytes);
        let size = bytes.len() as u64;
        let want = sequential(f.path(), size, CleanPrefix::default());
        let mut prefixes = Vec::new();
        for ranges in 2..=5 {
            for check in [Check::Headers, Check::Both] {
                let counted = std::sync::atomic::AtomicU64::new(0);
                let progress = |_: u64, r: u64| {
                    counted.fetch_add(r, std::sync::atomic::Ordering::Relaxed);
                };
                let p = walk_ranges(f.path(), size, ranges, size, check, &progress);
                assert!(p.end <= size);
                if check == Check::Both {
                    assert_eq!(sequential(f.path(), size, p), want, "{ranges} ranges: {p:?}");
                    // Progress counts every walked record, proven or not.
                    assert!(counted.into_inner() >= p.records);
                    prefixes.push(p);
                } else {
                    let want = hops(f.path(), size, CleanPrefix::default());
                    assert_eq!(hops(f.path(), size, p), want, "{ranges} ranges, headers: {p:?}");
                }
            }
        }
        prefixes
    }

    fn payloads(n: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| (0..(i * 37) % 300 + 1).map(|j| (i * 31 + j * 7) as u8).collect())
            .collect()
    }

    #[test]
    fn clean_file_is_proven_whole() {
        let bytes = file_of(&payloads(2000));
        for p in agrees_with_sequential(&bytes) {
            assert_eq!(
                p,
                CleanPrefix {
                    records: 2000,
                    end: bytes.len() as u64
                }
            );
        }
    }

    #[test]
    fn damage_anywhere_ends_the_prefix_before_it() {
        let p = payloads(2000);
        let clean = file_of(&p);
        for at in [
            0,
            13,
            clean.len() / 3,
            clean.len() / 2 + 5,
            clean.len() - 30,
            clean.len() - 1,
        ] {
            for flip in [0x01u8, 0x80] {
                let mut bytes = clean.clone();
                bytes[at] ^= flip;
                for prefix in agrees_with_sequential(&bytes) {
                    assert!(prefix.end <= at as u64, "damage at {at}: {prefix:?}");
                }
            }
        }
    }

    #[test]
    fn tails_garbage_and_huge_lengths_are_left_to_the_scanner() {
        let clean = file_of(&payloads(1500));
        let mut t = clean.clone();
        t.extend_from_slice(&encode_header(9)[..5]);
        agrees_with_sequential(&t);
        let mut t = clean.clone();
        t.truncate(clean.len() - 3);
        agrees_with_sequential(&t);
        let mut t = clean.clone();
        let mid = clean.len() / 2;
        t.splice(mid..mid, encode_header(1 << 62));
        agrees_with_sequential(&t);
        agrees_with_sequential(b"not a tfrecord file at all, just a line of text\n");
    }

    #[test]
    fn payloads_holding_tfrecord_files_do_not_fool_the_walk() {
        // Every payload is itself a TFRecord file: look-alike starts everywhere.
        let inner = file_of(&payloads(40));
        let outer: Vec<Vec<u8>> = (0..60).map(|i| inner[i * 13 % 500..].to_vec()).collect();
        let bytes = file_of(&outer);
        let prefixes = agrees_with_sequential(&bytes);
        // The look-alikes were taken for starts, and the walks missed them.
        assert!(prefixes.iter().any(|p| p.end < bytes.len() as u64), "{prefixes:?}");
    }

    #[test]
    fn a_record_larger_than_a_range_is_walked_by_the_thread_before() {
        let mut p = payloads(100);
        p.insert(50, vec![0xab; 300_000]);
        let bytes = file_of(&p);
        for prefix in agrees_with_sequential(&bytes) {
            assert_eq!(
                prefix,
                CleanPrefix {
                    records: 101,
                    end: bytes.len() as u64
                }
            );
        }
    }

    #[test]
    fn small_files_and_one_job_are_left_to_the_caller() {
        let bytes = file_of(&payloads(10));
        let f = temp(&bytes);
        let none = |_: u64, _: u64| {};
        assert_eq!(
            clean_prefix(f.path(), bytes.len() as u64, 8, Check::Both, &none),
            CleanPrefix::default()
        );
        assert_eq!(
            clean_prefix(f.path(), 1 << 30, 1, Check::Both, &none),
            CleanPrefix::default()
        );
    }
}

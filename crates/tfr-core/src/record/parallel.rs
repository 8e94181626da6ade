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
use super::{mask, parse_header, RecordReader, Source, FOOTER_LEN, HEADER_LEN};
use crate::io::at::At;
use crate::io::Compression;

/// Smallest range worth a thread of its own.
const MIN_RANGE: u64 = 4 << 20;
/// How far past its cut a thread looks for a record start before leaving its
/// range to the thread before it.
const START_WINDOW: u64 = 4 << 20;
/// Largest record read to confirm a start; a range starting inside a larger
/// one is left to the thread before it.
const START_MAX_RECORD: u64 = 16 << 20;
/// Bytes a thread may read for look-alike starts that fail (a payload made
/// of headers, say) before leaving its range to the thread before it.
const START_WORK: u64 = 32 << 20;
/// Records longer than this are checked as they stream past (see
/// `streams_intact`), in pieces of `STREAM_PIECE` bytes.
const STREAM_OVER: u64 = 1 << 20;
const STREAM_PIECE: usize = 256 * 1024;
/// Records between progress reports.
const PROGRESS_EVERY: u64 = 1 << 14;
/// The pieces of [`pieces`] start at the first record that starts in a new
/// window of this many bytes.
pub const PIECE_ALIGN: u64 = 1 << 20;

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

/// Walks the regular, uncompressed `file` (`size` bytes) on up to
/// `jobs` threads and returns its clean prefix. Files too small to split
/// (or `jobs` 1) give an empty prefix: the caller reads them itself.
/// `progress(bytes, records)` is called with increments, from any thread,
/// as the walks go; work they did past the proven prefix is taken back at
/// the end (negative increments), so the totals are the prefix's.
pub fn clean_prefix(file: &At, size: u64, jobs: usize, check: Check, progress: Added<'_>) -> CleanPrefix {
    let ranges = (size / MIN_RANGE).min(jobs as u64);
    if ranges < 2 {
        return CleanPrefix::default();
    }
    walk_ranges(file, size, ranges, START_WINDOW, check, progress)
}

/// Where record `n` (counting from 0) of the regular, uncompressed `file`
/// is, found on up to `jobs` threads walking record headers: the offset
/// and index of the nearest record boundary at or before it that the walks
/// proved (at most 16,384 records before it). The caller skips the rest
/// itself, as it would from `(0, 0)`, which is the answer when the file is
/// too small to split.
pub fn seek_near(file: &At, size: u64, jobs: usize, n: u64) -> (u64, u64) {
    let ranges = (size / MIN_RANGE).min(jobs as u64);
    if ranges < 2 {
        return (0, 0);
    }
    let (starts, walks) = walk_all(file, size, (0, size), ranges, START_WINDOW, Check::Headers, &|_, _| {});
    let mut best = (0, 0);
    let mut before = 0;
    for (w, &start) in walks.iter().zip(&starts) {
        for &(records, offset) in std::iter::once(&(0, start)).chain(&w.marks) {
            if before + records > n {
                return best;
            }
            best = (offset, before + records);
        }
        if !w.reached {
            break;
        }
        before += w.records;
    }
    best
}

/// Where `--part`'s byte ranges of the regular, uncompressed `file`
/// (`size` bytes) meet near `cut`: the first record start at or after it
/// that the parallel walks would take (its header, its payload and the
/// header after it check; see `find_start`), searched up to the end of the
/// file; `size` when there is none. Every worker computes the same
/// boundary for the same cut, so the parts are disjoint and cover the file.
pub fn next_start(file: &At, size: u64, cut: u64) -> u64 {
    if cut == 0 || cut >= size {
        return cut.min(size);
    }
    find_start(file, size, cut, size).unwrap_or(size)
}

/// A part of a regular, uncompressed file cut into pieces for threads to
/// read one each ([`pieces`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    /// Where each piece starts: a record boundary (byte offset, record
    /// index), in order. A piece ends where the next starts; the last at
    /// `next`.
    pub starts: Vec<(u64, u64)>,
    /// Where the next part starts (a piece start), `None` when this part
    /// goes to the end of the file: its last piece then reads on to the
    /// end, meeting a record that does not check there as a reader from the
    /// start would.
    pub next: Option<(u64, u64)>,
}

/// Cuts the regular, uncompressed `file` (`size` bytes) from `from` (a
/// piece start: offset 0, or a boundary given as `next`) to about `to` into
/// pieces, on up to `jobs` threads walking record headers (payloads are
/// hopped over: their CRCs are left to the readers of the pieces). A piece
/// starts at the first record that starts in a new window of
/// [`PIECE_ALIGN`] bytes, wherever the walks were cut, so the pieces (and
/// batches cut at such windows within them) are the same for any `jobs`.
/// Every start is proven by the unbroken chain of record lengths from
/// `from`, as [`clean_prefix`]'s are. The walk reads the part once, so its
/// pieces read right after are in the page cache.
pub fn pieces(file: &At, size: u64, from: (u64, u64), to: u64, jobs: usize) -> Pieces {
    let to = to.clamp(from.0, size);
    let ranges = ((to - from.0) / MIN_RANGE).clamp(1, jobs.max(1) as u64);
    let (starts, walks) = walk_all(
        file,
        size,
        (from.0, to),
        ranges,
        START_WINDOW,
        Check::Headers,
        &|_, _| {},
    );
    let mut out = Pieces {
        starts: vec![from],
        next: None,
    };
    let mut before = from.1;
    for (w, k) in walks.iter().zip(1..) {
        out.starts
            .extend(w.cuts.iter().map(|&(r, offset)| (offset, before + r)));
        if !w.reached || k == starts.len() {
            if w.reached && w.end >= size {
                // The whole file: the last piece reads to its end.
                return out;
            }
            break;
        }
        before += w.records;
    }
    // The records after the last start are walked again by the next part;
    // a part with no start past `from` (a record longer than the walk)
    // is read to the end.
    if out.starts.len() > 1 {
        out.next = out.starts.pop();
    }
    out
}

/// Where the walks add what they proved: bytes and records (a correction
/// may be negative).
type Added<'a> = &'a (dyn Fn(i64, i64) + Sync);

/// [`clean_prefix`] over exactly `ranges` ranges, each thread looking at
/// most `window` bytes past its cut for a start.
fn walk_ranges(file: &At, size: u64, ranges: u64, window: u64, check: Check, progress: Added<'_>) -> CleanPrefix {
    let (starts, walks) = walk_all(file, size, (0, size), ranges, window, check, progress);
    let mut prefix = CleanPrefix::default();
    for w in &walks {
        prefix.records += w.records;
        prefix.end = w.end;
        if !w.reached {
            break;
        }
    }
    let walked_bytes: u64 = walks.iter().zip(&starts).map(|(w, &start)| w.end - start).sum();
    let walked_records: u64 = walks.iter().map(|w| w.records).sum();
    progress(
        signed(prefix.end) - signed(walked_bytes),
        signed(prefix.records) - signed(walked_records),
    );
    prefix
}

/// The walks of [`walk_ranges`]: where each started, and what it found.
fn walk_all(
    file: &At,
    size: u64,
    (from, to): (u64, u64),
    ranges: u64,
    window: u64,
    check: Check,
    progress: Added<'_>,
) -> (Vec<u64>, Vec<Walk>) {
    let cuts: Vec<u64> = (1..ranges).map(|k| from + (to - from) / ranges * k).collect();
    // Where records start after each cut (searching up to the next cut).
    let found: Vec<Option<u64>> = std::thread::scope(|scope| {
        let searches: Vec<_> = cuts
            .iter()
            .enumerate()
            .map(|(k, &cut)| {
                let limit = cuts.get(k + 1).copied().unwrap_or(to).min(cut.saturating_add(window));
                scope.spawn(move || find_start(file, size, cut, limit))
            })
            .collect();
        searches.into_iter().map(|s| s.join().ok().flatten()).collect()
    });
    let starts: Vec<u64> = std::iter::once(from).chain(found.into_iter().flatten()).collect();
    let walks: Vec<Walk> = std::thread::scope(|scope| {
        let walks: Vec<_> = starts
            .iter()
            .enumerate()
            .map(|(i, &start)| {
                let target = starts.get(i + 1).copied().unwrap_or(to);
                scope.spawn(move || walk(file, size, start, target, check, progress))
            })
            .collect();
        walks
            .into_iter()
            .zip(&starts)
            .map(|(w, &start)| w.join().unwrap_or(Walk::nothing(start)))
            .collect()
    });
    (starts, walks)
}

fn signed(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// One thread's walk.
#[derive(Clone, Debug)]
struct Walk {
    /// Intact records walked.
    records: u64,
    /// The offset after the last of them.
    end: u64,
    /// Whether the walk landed exactly on its target.
    reached: bool,
    /// Record boundaries passed, every `PROGRESS_EVERY` records: (records
    /// walked before it, offset).
    marks: Vec<(u64, u64)>,
    /// Record boundaries where the next record starts in a new window of
    /// [`PIECE_ALIGN`] bytes: (records walked before it, offset).
    cuts: Vec<(u64, u64)>,
}

impl Walk {
    fn nothing(start: u64) -> Walk {
        Walk {
            records: 0,
            end: start,
            reached: false,
            marks: Vec::new(),
            cuts: Vec::new(),
        }
    }
}

/// A reader of its own over the file or object from `offset` (positional
/// reads on a shared handle: the very file the caller opened, whatever
/// happens to its path).
fn open_at(file: &At, size: u64, offset: u64) -> Source {
    let mut src = Source::from_at(file.clone(), size);
    src.skip(offset).expect("skipping a positional source is arithmetic");
    src
}

/// Walks intact records from `start` until `target` is reached or passed,
/// or a record does not check.
fn walk(file: &At, size: u64, start: u64, target: u64, check: Check, progress: Added<'_>) -> Walk {
    let src = open_at(file, size, start);
    let mut reader = RecordReader::new(src, Compression::None);
    reader.set_check_data_crc(check == Check::Both);
    let (mut records, mut reported, mut reported_at) = (0u64, 0u64, start);
    let (mut marks, mut cuts) = (Vec::new(), Vec::new());
    let done = loop {
        let end = reader.offset();
        if end >= target {
            break Walk {
                records,
                end,
                reached: end == target,
                marks,
                cuts,
            };
        }
        let src = reader.source_mut();
        let ok = match buffered_record(src.buffer(), check) {
            Some(total) => {
                src.consume(total);
                Ok(true)
            }
            // Not all buffered (or not intact): the reader reads on, and
            // says no when the record does not check; a large record is
            // checked as it streams past, not held.
            None => match check {
                Check::Headers => reader.skip_record().map(|r| r.is_some()),
                Check::Both if announces_more_than(src, STREAM_OVER) => Ok(streams_intact(src, size)),
                Check::Both => reader.next_record().map(|r| r.is_some()),
            },
        };
        if !matches!(ok, Ok(true)) {
            break Walk {
                records,
                end,
                reached: false,
                marks,
                cuts,
            };
        }
        records += 1;
        if records - reported == PROGRESS_EVERY {
            progress(signed(reader.offset() - reported_at), signed(records - reported));
            (reported, reported_at) = (records, reader.offset());
            marks.push((records, reader.offset()));
        }
        if reader.offset() / PIECE_ALIGN != end / PIECE_ALIGN {
            cuts.push((records, reader.offset()));
        }
    };
    progress(signed(done.end - reported_at), signed(records - reported));
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

/// Whether the header at the source's offset checks and announces a
/// payload of more than `n` bytes.
fn announces_more_than(src: &mut Source, n: u64) -> bool {
    matches!(src.fill(HEADER_LEN), Ok(got) if got >= HEADER_LEN)
        && src.buffer()[..HEADER_LEN]
            .try_into()
            .ok()
            .and_then(parse_header)
            .is_some_and(|length| length > n)
}

/// Checks the record at the source's offset (its header already checked)
/// by passing its payload through the CRC a buffer at a time, so a walk
/// holds no record whole; true if it is intact (and then consumed).
fn streams_intact(src: &mut Source, size: u64) -> bool {
    let header: [u8; HEADER_LEN] = src.buffer()[..HEADER_LEN].try_into().expect("12 bytes buffered");
    let Some(length) = parse_header(&header) else {
        return false;
    };
    if length.saturating_add((HEADER_LEN + FOOTER_LEN) as u64) > size.saturating_sub(src.offset()) {
        return false;
    }
    src.consume(HEADER_LEN);
    let (mut crc, mut left) = (0u32, length);
    while left > 0 {
        let want = usize::try_from(left).unwrap_or(usize::MAX).min(STREAM_PIECE);
        let Ok(got) = src.fill(want) else { return false };
        let take = got.min(want);
        if take == 0 {
            return false;
        }
        crc = crc32c::crc32c_append(crc, &src.buffer()[..take]);
        src.consume(take);
        left -= take as u64;
    }
    if !matches!(src.fill(FOOTER_LEN), Ok(got) if got >= FOOTER_LEN) {
        return false;
    }
    let stored = u32::from_le_bytes(src.buffer()[..FOOTER_LEN].try_into().expect("4 bytes"));
    src.consume(FOOTER_LEN);
    mask(crc) == stored
}

/// The first record start at or after `from` and before `limit`: its header
/// checks, another header that checks (or the end of the file) follows it,
/// and its payload checks. Gives up (`None`: the range goes to the thread
/// before) once candidates that fail have cost `START_WORK` bytes read.
fn find_start(file: &At, size: u64, from: u64, limit: u64) -> Option<u64> {
    let mut src = open_at(file, size, from);
    let mut spent = 0u64;
    while src.offset() < limit && spent <= START_WORK {
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
                match starts_here(file, &mut src, size)? {
                    Ok(()) => return Some(src.offset()),
                    Err(cost) => spent += cost,
                }
                src.consume(1);
            }
        }
    }
    None
}

/// Whether the record whose header (already found to check) is at the
/// source's offset is followed by a header that checks (or the end), and
/// is intact: `Err` with the bytes it cost to find out if not.
fn starts_here(file: &At, src: &mut Source, size: u64) -> Option<Result<(), u64>> {
    let header: &[u8; HEADER_LEN] = src.buffer()[..HEADER_LEN].try_into().ok()?;
    let length = parse_header(header)?;
    if length > START_MAX_RECORD {
        return Some(Err(0));
    }
    let total = length + (HEADER_LEN + FOOTER_LEN) as u64;
    let after = src.offset() + total;
    if after > size {
        return Some(Err(0));
    }
    if after < size {
        // The next header first: one small read, where the payload's CRC
        // would read the whole record.
        let mut next = [0u8; HEADER_LEN];
        if !file.read_exact_at(&mut next, after).ok()? || parse_header(&next).is_none() {
            return Some(Err(HEADER_LEN as u64));
        }
    }
    let total = total as usize;
    if src.fill(total).ok()? < total {
        return Some(Err(total as u64));
    }
    Some(if payload_checks(&src.buffer()[..total]) {
        Ok(())
    } else {
        Err(total as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::super::{encode_header, file_of, Scanner, Step};
    use super::*;
    use std::io::Write;

    fn at(f: &tempfile::NamedTempFile) -> At {
        At::file(f.as_file().try_clone().unwrap())
    }

    fn temp(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f.flush().unwrap();
        f
    }

    /// What a sequential scan of the whole file finds: intact records and
    /// the (offset, kind) of every fault.
    fn sequential(file: &At, size: u64, from: CleanPrefix) -> (u64, Vec<(u64, u64, String)>) {
        let mut reader = RecordReader::new(open_at(file, size, 0), Compression::None);
        reader.seek_to(from.end, from.records).unwrap();
        let mut scanner = Scanner::new(reader);
        let (mut intact, mut faults) = (from.records, Vec::new());
        while let Some(step) = scanner.next_step().unwrap() {
            match step {
                Step::Intact { .. } | Step::IntactStreamed { .. } => intact += 1,
                Step::Fault(f) => faults.push((f.damage.record, f.damage.offset, f.damage.kind.to_string())),
            }
        }
        (intact, faults)
    }

    /// What a sequential header walk finds: records, and the offset where it
    /// stopped.
    fn hops(file: &At, size: u64, from: CleanPrefix) -> (u64, u64) {
        let mut reader = RecordReader::new(open_at(file, size, 0), Compression::None);
        reader.seek_to(from.end, from.records).unwrap();
        while let Ok(Some(_)) = reader.skip_record() {}
        (reader.index(), reader.offset())
    }

    /// Every split of `bytes` into 2..=5 ranges, with either check, gives a
    /// clean prefix after which a sequential scan finds exactly what a scan
    /// from the start finds; returns the prefixes.
    /// Every split of `bytes` proves the whole file: `records` records.
    fn proven_whole(bytes: &[u8], records: u64) {
        let whole = CleanPrefix {
            records,
            end: bytes.len() as u64,
        };
        for prefix in agrees_with_sequential(bytes) {
            assert_eq!(prefix, whole);
        }
    }

    fn agrees_with_sequential(bytes: &[u8]) -> Vec<CleanPrefix> {
        let f = temp(bytes);
        let size = bytes.len() as u64;
        let want = sequential(&at(&f), size, CleanPrefix::default());
        let mut prefixes = Vec::new();
        for ranges in 2..=5 {
            for check in [Check::Headers, Check::Both] {
                let counted = std::sync::atomic::AtomicI64::new(0);
                let walked = std::sync::atomic::AtomicI64::new(0);
                let progress = |b: i64, r: i64| {
                    walked.fetch_add(b, std::sync::atomic::Ordering::Relaxed);
                    counted.fetch_add(r, std::sync::atomic::Ordering::Relaxed);
                };
                let p = walk_ranges(&at(&f), size, ranges, size, check, &progress);
                assert!(p.end <= size);
                if check == Check::Both {
                    assert_eq!(sequential(&at(&f), size, p), want, "{ranges} ranges: {p:?}");
                    // Progress ends at the proven prefix, whatever was walked.
                    assert_eq!(
                        (walked.into_inner(), counted.into_inner()),
                        (p.end as i64, p.records as i64)
                    );
                    prefixes.push(p);
                } else {
                    let want = hops(&at(&f), size, CleanPrefix::default());
                    assert_eq!(hops(&at(&f), size, p), want, "{ranges} ranges, headers: {p:?}");
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
        proven_whole(&bytes, 2000);
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
        proven_whole(&bytes, 101);
    }

    #[test]
    fn large_records_are_checked_as_they_stream_past() {
        // Records over STREAM_OVER are not held whole by a walk; damage in
        // their payload or CRC is still found exactly where it is.
        let mut p = payloads(300);
        for (i, at) in [40, 150, 151, 260].into_iter().enumerate() {
            p.insert(at, vec![i as u8 + 1; (3 << 19) + i * 1000]);
        }
        let clean = file_of(&p);
        proven_whole(&clean, 304);
        let big: usize = p[..151].iter().map(|x| x.len() + 16).sum();
        let len = p[151].len();
        for at in [big + 12, big + 12 + len / 2, big + 12 + len, big + 15 + len] {
            let mut bytes = clean.clone();
            bytes[at] ^= 0x04;
            agrees_with_sequential(&bytes);
        }
    }

    #[test]
    fn a_payload_made_of_headers_costs_a_bounded_search() {
        // A large record whose payload is look-alike headers, each
        // announcing about 3 MiB. With the first length the "header" each
        // one points to does not check (a cheap no); with the second it is
        // another look-alike, so each would cost a 3 MiB read and CRC: the
        // search gives up after START_WORK and the thread before walks over
        // the record instead.
        for length in [3 << 20, (3 << 20) + 8] {
            assert_eq!((length + 16) % 12 == 0, length != 3 << 20);
            let mut p = payloads(3000);
            p.insert(1500, encode_header(length).repeat(400_000));
            let bytes = file_of(&p);
            let f = temp(&bytes);
            let none = |_: i64, _: i64| {};
            for check in [Check::Headers, Check::Both] {
                let prefix = walk_ranges(&at(&f), bytes.len() as u64, 3, START_WINDOW, check, &none);
                assert_eq!(
                    prefix,
                    CleanPrefix {
                        records: 3001,
                        end: bytes.len() as u64
                    }
                );
            }
        }
    }

    #[test]
    fn the_walk_reads_the_file_opened_even_if_its_path_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let clean = file_of(&payloads(1000));
        let mut damaged = clean.clone();
        damaged[clean.len() / 2] ^= 1;
        std::fs::write(&a, &clean).unwrap();
        std::fs::write(&b, &damaged).unwrap();
        let opened = std::fs::File::open(&a).unwrap();
        std::fs::rename(&b, &a).unwrap();
        let none = |_: i64, _: i64| {};
        let prefix = walk_ranges(
            &At::file(opened),
            clean.len() as u64,
            2,
            START_WINDOW,
            Check::Both,
            &none,
        );
        assert_eq!(
            prefix,
            CleanPrefix {
                records: 1000,
                end: clean.len() as u64
            }
        );
    }

    #[test]
    fn small_files_and_one_job_are_left_to_the_caller() {
        let bytes = file_of(&payloads(10));
        let f = temp(&bytes);
        let none = |_: i64, _: i64| {};
        assert_eq!(
            clean_prefix(&at(&f), bytes.len() as u64, 8, Check::Both, &none),
            CleanPrefix::default()
        );
        assert_eq!(
            clean_prefix(&at(&f), 1 << 30, 1, Check::Both, &none),
            CleanPrefix::default()
        );
    }
}

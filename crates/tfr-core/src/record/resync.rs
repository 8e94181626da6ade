//! The resynchronising scan behind `tfr verify-crc`: every record checked,
//! every fault reported and stepped over, every intact record handed out.
//!
//! After damage at offset `p`, the scan looks for the next offset whose
//! 12-byte header checks *and* whose payload CRC then checks, and goes on
//! from there. A payload that fails its CRC under a header that checks is
//! first assumed to have the right length (a flipped bit in the data): the
//! record right after it is tried before scanning byte by byte.
//!
//! Guarantees: every step consumes at least one byte or ends the input (no
//! hang); nothing is allocated for a length before its bytes arrive (a
//! regular file's size rejects a bogus length without reading); a header
//! candidate costs one CRC of 8 bytes, the payload CRC is computed only for
//! candidates whose header checks.
//!
//! An input that is not a regular file (stdin, a pipe, a device) and does
//! not start with a record is searched only 16 MiB deep for one before it is
//! called "not a TFRecord file": it may never end (`/dev/zero`). A regular
//! file, compressed or not, is searched to its end.
//!
//! The work spent on look-alike headers whose payloads fail is bounded by
//! a multiple of the bytes scanned (see `RESYNC_FREE_WORK`): a payload made
//! of headers, or a crafted file, cannot make the scan quadratic; it may
//! make the scan skip intact records within one look-alike's span.
//!
//! Memory is bounded: a record longer than the hold limit
//! ([`HOLD_LIMIT`], 16 MiB) is checked as it streams past (its payload CRC
//! computed chunk by chunk) and never held; with [`Scanner::set_spool`] it is
//! copied to an anonymous temporary file for the caller (verify-crc
//! `--salvage`). When such a record fails its CRC and no record follows it,
//! a regular uncompressed file is searched again from just after its start
//! (positional reads), while a stream goes on from its end: on a stream, the
//! look-alike headers inside a damaged long record are not candidates. A
//! resynchronisation candidate announcing more than the hold limit is
//! checked by position on a regular uncompressed file (its payload CRC and
//! the header after it), and not taken on a stream, where it cannot be seen
//! without holding it: after damage on a stream, a long record is counted in
//! the damaged stretch.
//!
//! Once a decompressor fails, the bytes it had already produced are still
//! checked, and the stream ends there.

use super::damage::{diagnose_not_tfrecord, Damage, DamageKind};
use super::reader::{Record, RecordReader};
use super::source::Source;
use super::{masked_crc, parse_header, FOOTER_LEN, HEADER_LEN};
use crate::io::Compression;
use std::io;

/// Bytes examined per round of the byte-by-byte header search.
pub(super) const SCAN_CHUNK: usize = 64 * 1024;
/// Largest tail checked for "a whole record whose length field is damaged"
/// before calling it trailing garbage.
const TAIL_CHECK: usize = 4 * 1024 * 1024;
/// Bytes of a pipe or device searched for a first record when it does not
/// start with one, before calling it "not a TFRecord file".
const FIRST_SCAN_LIMIT: u64 = 16 << 20;
/// Work one resynchronisation may spend checking bytes again for
/// candidates that fail (a candidate's span overlapping an earlier one's):
/// this much, plus this many times the bytes it scanned. The spans of real
/// records do not overlap, so damage among them never comes near it; a run
/// of overlapping look-alike headers, each announcing a long payload (a
/// payload made of headers, or crafted), would otherwise make the scan
/// quadratic. Past it, only candidates followed by another header are
/// checked; past twice it, the scan jumps over every span checked so far
/// (the records there are counted as skipped) and checks nothing until the
/// bytes skipped have earned the budget back. Work stays linear.
const RESYNC_FREE_WORK: u64 = 256 << 20;
const RESYNC_WORK_PER_BYTE: u64 = 16;
/// Records longer than this (framed) are checked as they stream past,
/// never held in memory.
pub const HOLD_LIMIT: u64 = 16 << 20;
/// Bytes checked per step of a streamed record.
const STREAM_CHUNK: usize = 1 << 20;
/// Bytes kept from the start of an input to say what it is when it is not a TFRecord.
const DIAGNOSE_LEN: usize = 512;

/// One fault: the damage found, and how far the scan went to get past it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The damage.
    pub damage: Damage,
    /// Bytes from the damage's offset to the next intact record (or to the end).
    pub skipped: u64,
    /// Whether an intact record follows (the scan resumed at `offset + skipped`).
    pub resumed: bool,
}

/// What the scan found next.
#[derive(Debug)]
pub enum Step<'a> {
    /// A record whose header and payload CRCs both check. `framed` is the
    /// whole record as stored (header, payload, CRC), for byte-identical copies.
    Intact {
        /// The record.
        record: Record<'a>,
        /// The record as stored.
        framed: &'a [u8],
    },
    /// A record longer than the hold limit whose CRCs both check, streamed
    /// past: its index, offset and payload length, and (when spooling) the
    /// whole record as stored, to copy without holding it.
    IntactStreamed {
        /// The record's number in its input.
        index: u64,
        /// Its header's byte offset.
        offset: u64,
        /// Its payload's length.
        length: u64,
        /// The whole record as stored, when spooling.
        spooled: Option<LongRecord>,
    },
    /// Damage, already stepped over.
    Fault(Fault),
}

/// What one step decided, before borrowing the record from the buffer.
enum Outcome {
    Record {
        index: u64,
        offset: u64,
        total: usize,
    },
    Streamed {
        index: u64,
        offset: u64,
        length: u64,
        spooled: Option<LongRecord>,
    },
    Fault(Fault),
}

/// A long intact record, framed as stored, read without holding it: from
/// the input file itself by position (a regular uncompressed file), or
/// from the anonymous temporary file it was copied to as it streamed past.
#[derive(Debug)]
pub struct LongRecord {
    file: crate::io::at::At,
    at: u64,
    left: u64,
}

impl io::Read for LongRecord {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        if n == 0 {
            return Ok(0);
        }
        let got = self.file.read_at(&mut buf[..n], self.at)?;
        if got == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the record's file got shorter",
            ));
        }
        self.at += got as u64;
        self.left -= got as u64;
        Ok(got)
    }
}

/// Reads every record of an input, checking both CRCs and resynchronising
/// after damage (see the module doc).
pub struct Scanner {
    reader: RecordReader,
    /// Index of the next record; a damaged stretch counts as one record.
    index: u64,
    /// Why the decompressor failed, once it has.
    dead: Option<String>,
    /// Nothing more to report.
    done: bool,
    /// Records longer than this (framed) are streamed, not held.
    hold: u64,
    /// Copy streamed records to a temporary file (for salvage).
    spool: bool,
    /// The longest record copied to a temporary file.
    spool_limit: u64,
}

impl Scanner {
    /// A scanner over a reader, from where it stands (the start of the
    /// input, or a record boundary it was moved to).
    pub fn new(reader: RecordReader) -> Scanner {
        Scanner {
            index: reader.index(),
            reader,
            dead: None,
            done: false,
            hold: HOLD_LIMIT,
            spool: false,
            spool_limit: super::DEFAULT_MAX_RECORD,
        }
    }

    /// The longest record copied to a temporary file when spooling (a
    /// pipe could announce and send a terabyte): a longer intact record is
    /// still checked, and handed out with `spooled: None`.
    pub fn set_spool_limit(&mut self, bytes: u64) {
        self.spool_limit = bytes;
    }

    /// Hands streamed (long) intact records over in a temporary file
    /// ([`Step::IntactStreamed`]), for a caller that copies them.
    pub fn set_spool(&mut self, yes: bool) {
        self.spool = yes;
    }

    /// Sets the hold limit (tests use a small one).
    pub fn set_hold_limit(&mut self, bytes: u64) {
        self.hold = bytes.max((HEADER_LEN + FOOTER_LEN) as u64);
    }

    /// The input's compression.
    pub fn compression(&self) -> Compression {
        self.reader.compression()
    }

    /// Bytes consumed so far (of the decompressed stream for compressed input).
    pub fn offset(&self) -> u64 {
        self.reader.offset()
    }

    /// Input size when known up front (regular uncompressed files).
    pub fn size(&mut self) -> Option<u64> {
        self.reader.size()
    }

    /// The next intact record or fault; `None` at the end. An `Err` is an
    /// I/O failure of the input itself (not damage): the input cannot be read.
    pub fn next_step(&mut self) -> io::Result<Option<Step<'_>>> {
        match self.step()? {
            None => Ok(None),
            Some(Outcome::Fault(f)) => Ok(Some(Step::Fault(f))),
            Some(Outcome::Streamed {
                index,
                offset,
                length,
                spooled,
            }) => Ok(Some(Step::IntactStreamed {
                index,
                offset,
                length,
                spooled,
            })),
            Some(Outcome::Record { index, offset, total }) => {
                let framed = self.src_ref().recent(total, total);
                let data = &framed[HEADER_LEN..total - FOOTER_LEN];
                // Intact: its footer was checked.
                let crc = Some(u32::from_le_bytes(
                    framed[total - FOOTER_LEN..].try_into().expect("4 bytes"),
                ));
                Ok(Some(Step::Intact {
                    record: Record {
                        index,
                        offset,
                        data,
                        crc,
                    },
                    framed,
                }))
            }
        }
    }

    fn src(&mut self) -> &mut Source {
        self.reader.source_mut()
    }

    fn src_ref(&mut self) -> &Source {
        self.reader.source_mut()
    }

    /// One record or one fault from the current offset.
    fn step(&mut self) -> io::Result<Option<Outcome>> {
        if self.done {
            return Ok(None);
        }
        let offset = self.offset();
        let got = self.avail(HEADER_LEN)?;
        if got < HEADER_LEN {
            return Ok(self.tail(got));
        }
        let header: &[u8; HEADER_LEN] = self.src().buffer()[..HEADER_LEN].try_into().expect("12 bytes");
        let Some(length) = parse_header(header) else {
            return self.bad_header(offset).map(Some);
        };
        if self.too_long(length) {
            return self.streamed(offset, length).map(Some);
        }
        let Some(total) = self.record_len(0, length)? else {
            return self.short_record(offset, length).map(Some);
        };
        if !payload_checks(&self.src().buffer()[..total]) {
            return self.bad_payload(offset, total).map(Some);
        }
        let index = self.index;
        self.src().consume(total);
        self.index += 1;
        Ok(Some(Outcome::Record { index, offset, total }))
    }

    /// Makes up to `n` bytes available, without reading once the
    /// decompressor has failed; returns how many are buffered.
    fn avail(&mut self, n: usize) -> io::Result<usize> {
        if self.dead.is_none() {
            match self.src().fill(n) {
                Ok(got) => return Ok(got),
                Err(e) if self.compression() != Compression::None && crate::io::corrupt(&e).is_some() => {
                    self.dead = Some(stream_reason(&e, self.compression()));
                }
                Err(e) => return Err(e),
            }
        }
        Ok(self.src().buffer().len())
    }

    /// The framed size of a record of `length` bytes whose header is `rel`
    /// bytes ahead, when all of it is present (and buffered).
    fn record_len(&mut self, rel: usize, length: u64) -> io::Result<Option<usize>> {
        // Saturating: a length near 2^64 reads to the end of a stream like any
        // other impossible length, so the report can say what was there.
        let total = length.saturating_add((HEADER_LEN + FOOTER_LEN) as u64);
        if let Some(remaining) = self.src_ref().remaining() {
            if total > remaining.saturating_sub(rel as u64) {
                return Ok(None);
            }
        }
        let need = usize::try_from(total).unwrap_or(usize::MAX).saturating_add(rel);
        let got = self.avail(need)?;
        Ok((got >= need).then_some(total as usize))
    }

    /// The framed size of the intact record `rel` bytes ahead, if there is one.
    fn intact_at(&mut self, rel: usize) -> io::Result<Option<usize>> {
        if self.avail(rel + HEADER_LEN)? < rel + HEADER_LEN {
            return Ok(None);
        }
        let header: &[u8; HEADER_LEN] = self.src().buffer()[rel..rel + HEADER_LEN].try_into().expect("12 bytes");
        let Some(length) = parse_header(header) else {
            return Ok(None);
        };
        if self.too_long(length) {
            // Not held: on a regular uncompressed file its payload CRC is
            // checked by position (and the header after it); a stream cannot
            // show it without holding it, so it is not taken there.
            let span = length.saturating_add((HEADER_LEN + FOOTER_LEN) as u64);
            let intact = self.header_far_ahead((rel as u64).saturating_add(span))?
                && self.payload_checks_far(rel as u64, length)?;
            return Ok(intact.then_some(usize::MAX));
        }
        let Some(total) = self.record_len(rel, length)? else {
            return Ok(None);
        };
        Ok(payload_checks(&self.src().buffer()[rel..rel + total]).then_some(total))
    }

    /// Whether a record of `length` bytes is longer than the hold limit.
    fn too_long(&self, length: u64) -> bool {
        length.saturating_add((HEADER_LEN + FOOTER_LEN) as u64) > self.hold
    }

    /// On a regular uncompressed file: whether a header that checks (or
    /// the exact end of the file) is `ahead` bytes from here, read by
    /// position without buffering. Elsewhere: false (it cannot be seen
    /// without holding everything before it).
    fn header_far_ahead(&mut self, ahead: u64) -> io::Result<bool> {
        let at = self.offset().saturating_add(ahead);
        let Some(remaining) = self.src_ref().remaining() else {
            return Ok(false);
        };
        let Some(file) = self.src_ref().file() else {
            return Ok(false);
        };
        if ahead >= remaining {
            return Ok(ahead == remaining);
        }
        let mut h = [0u8; HEADER_LEN];
        Ok(file.read_exact_at(&mut h, at)? && parse_header(&h).is_some())
    }

    /// On a regular uncompressed file: whether the record whose header is
    /// `ahead` bytes from here has a payload of `length` bytes matching its
    /// CRC, read by position in chunks (never held).
    fn payload_checks_far(&mut self, ahead: u64, length: u64) -> io::Result<bool> {
        let start = self.offset() + ahead + HEADER_LEN as u64;
        let Some(file) = self.src_ref().file() else {
            return Ok(false);
        };
        let mut buf = vec![0u8; STREAM_CHUNK];
        let (mut crc, mut done) = (0u32, 0u64);
        while done < length {
            let n = usize::try_from(length - done).unwrap_or(usize::MAX).min(STREAM_CHUNK);
            if !file.read_exact_at(&mut buf[..n], start + done)? {
                return Ok(false);
            }
            crc = crc32c::crc32c_append(crc, &buf[..n]);
            done += n as u64;
        }
        let mut stored = [0u8; FOOTER_LEN];
        if !file.read_exact_at(&mut stored, start + length)? {
            return Ok(false);
        }
        Ok(super::mask(crc) == u32::from_le_bytes(stored))
    }

    /// The record at `offset` (the current one) announces `length` bytes,
    /// more than the hold limit: its payload CRC is computed as it streams
    /// past (copied to a temporary file when spooling), never held.
    fn streamed(&mut self, offset: u64, length: u64) -> io::Result<Outcome> {
        use std::io::Write;
        let total = length.saturating_add((HEADER_LEN + FOOTER_LEN) as u64);
        if self.src_ref().remaining().is_some_and(|r| total > r) {
            return self.short_record(offset, length);
        }
        // A stream that ends within the hold limit is held and searched
        // like any short input.
        let look = usize::try_from(self.hold).unwrap_or(usize::MAX);
        if self.src_ref().remaining().is_none() && self.avail(look)? < look {
            return self.short_record(offset, length);
        }
        // A regular uncompressed file is read again by position to copy
        // the record; anything else is copied to a temporary file as it goes.
        let positional = match (self.spool, self.src_ref().remaining(), self.src_ref().file()) {
            (true, Some(_), Some(f)) => Some(f.clone()),
            _ => None,
        };
        let mut spool = match self.spool && positional.is_none() && length <= self.spool_limit {
            true => Some(tempfile::tempfile()?),
            false => None,
        };
        if let Some(f) = spool.as_mut() {
            f.write_all(&self.src().buffer()[..HEADER_LEN])?;
        }
        self.src().consume(HEADER_LEN);
        let (mut crc, mut left) = (0u32, length);
        while left > 0 {
            let got = self.avail(STREAM_CHUNK.min(usize::try_from(left).unwrap_or(usize::MAX)))?;
            if got == 0 {
                break;
            }
            let n = got.min(usize::try_from(left).unwrap_or(usize::MAX));
            let chunk = &self.reader.source_mut().buffer()[..n];
            crc = crc32c::crc32c_append(crc, chunk);
            if let Some(f) = spool.as_mut() {
                f.write_all(chunk)?;
            }
            self.src().consume(n);
            left -= n as u64;
        }
        let footer = self.avail(FOOTER_LEN)?;
        if left > 0 || footer < FOOTER_LEN {
            // The input ends (or its decompressor fails) inside the record.
            let present = length - left + footer as u64;
            self.src().consume(footer.min(FOOTER_LEN));
            self.done = true;
            let kind = match self.dead.clone() {
                Some(reason) => DamageKind::CorruptCompressed { reason },
                None if length > offset + present => DamageKind::LengthBeyondEnd {
                    length,
                    remaining: present,
                },
                None => DamageKind::TruncatedPayload { length, present },
            };
            return Ok(Outcome::Fault(self.fault(
                kind,
                offset,
                HEADER_LEN as u64 + present,
                false,
            )));
        }
        let stored_bytes: [u8; FOOTER_LEN] = self.src().buffer()[..FOOTER_LEN].try_into().expect("4 bytes");
        self.src().consume(FOOTER_LEN);
        if super::mask(crc) == u32::from_le_bytes(stored_bytes) {
            if let Some(f) = spool.as_mut() {
                f.write_all(&stored_bytes)?;
            }
            let spooled = match (positional, spool) {
                (Some(file), _) => Some(LongRecord {
                    file,
                    at: offset,
                    left: total,
                }),
                (None, Some(file)) => Some(LongRecord {
                    file: crate::io::at::At::file(file),
                    at: 0,
                    left: total,
                }),
                (None, None) => None,
            };
            let index = self.index;
            self.index += 1;
            return Ok(Outcome::Streamed {
                index,
                offset,
                length,
                spooled,
            });
        }
        // The payload fails its CRC. Its length is taken as right when a
        // record (or the end) follows; else a regular file is searched again
        // from just after its start, a stream from here.
        if self.avail(HEADER_LEN)? == 0 {
            return Ok(Outcome::Fault(self.fault(
                DamageKind::DataCrcMismatch,
                offset,
                total,
                false,
            )));
        }
        if self.intact_at(0)?.is_some() {
            return Ok(Outcome::Fault(self.fault(
                DamageKind::DataCrcMismatch,
                offset,
                total,
                true,
            )));
        }
        let (skipped, resumed) = if self.src().seek_to(offset).is_ok() {
            self.avail(HEADER_LEN)?;
            self.resync(1, u64::MAX)?
        } else {
            let (more, resumed) = self.resync(0, u64::MAX)?;
            (total + more, resumed)
        };
        Ok(Outcome::Fault(self.fault(
            DamageKind::DataCrcMismatch,
            offset,
            skipped,
            resumed,
        )))
    }

    /// Fewer than 12 bytes left (`got` of them): the end, or damage at the end.
    fn tail(&mut self, got: usize) -> Option<Outcome> {
        self.done = true;
        let first = self.index == 0 && self.offset() == 0;
        let kind = if let Some(reason) = self.dead.clone() {
            DamageKind::CorruptCompressed { reason }
        } else if got == 0 {
            return None;
        } else if first {
            let compression = self.compression();
            let hint = format!(
                "only {got} byte{}, shorter than a record header; {}",
                if got == 1 { "" } else { "s" },
                diagnose_not_tfrecord(self.src_ref().buffer(), compression)
            );
            DamageKind::NotTfrecord { hint }
        } else {
            DamageKind::TruncatedHeader { bytes: got }
        };
        let fault = self.fault(kind, self.offset(), got as u64, false);
        self.src().consume(got);
        Some(Outcome::Fault(fault))
    }

    /// The header at `offset` (the current one) fails its CRC.
    fn bad_header(&mut self, offset: u64) -> io::Result<Outcome> {
        let first = self.index == 0 && offset == 0;
        let head = if first {
            let n = self.avail(DIAGNOSE_LEN)?;
            Some(self.src().buffer()[..n].to_vec())
        } else {
            None
        };
        let whole_record_to_end = self.rest_is_one_record()?;
        // A stream that does not start with a record may never end
        // (`/dev/zero`, a pipe of something else): look only so far into it.
        let limit = match first && !self.src_ref().file_backed() {
            true => FIRST_SCAN_LIMIT,
            false => u64::MAX,
        };
        let (skipped, resumed) = self.resync(1, limit)?;
        let kind = match (resumed, head) {
            (true, _) => DamageKind::LengthCrcMismatch,
            (false, _) if whole_record_to_end => DamageKind::LengthCrcMismatch,
            (false, Some(head)) => DamageKind::NotTfrecord {
                hint: diagnose_not_tfrecord(&head, self.compression()),
            },
            (false, _) => DamageKind::TrailingGarbage { bytes: skipped },
        };
        Ok(Outcome::Fault(self.fault(kind, offset, skipped, resumed)))
    }

    /// Whether everything from the current offset to the end (when it is
    /// short enough to check) is one record whose payload CRC checks: its
    /// length field alone is damaged.
    fn rest_is_one_record(&mut self) -> io::Result<bool> {
        if self.src_ref().remaining().is_some_and(|r| r > TAIL_CHECK as u64) {
            return Ok(false);
        }
        let n = self.avail(TAIL_CHECK + 1)?;
        Ok(n <= TAIL_CHECK
            && self.dead.is_none()
            && n >= HEADER_LEN + FOOTER_LEN
            && payload_checks(&self.src().buffer()[..n]))
    }

    /// The header at `offset` (the current one) checks but announces more
    /// bytes than the input holds.
    fn short_record(&mut self, offset: u64, length: u64) -> io::Result<Outcome> {
        let present = match self.src_ref().remaining() {
            Some(r) => r,
            None => self.src_ref().buffer().len() as u64,
        };
        if let Some(reason) = self.dead.clone() {
            // The record was cut by the failing decompressor.
            self.done = true;
            let fault = self.fault(DamageKind::CorruptCompressed { reason }, offset, present, false);
            let held = self.src_ref().buffer().len();
            self.src().consume(held);
            return Ok(Outcome::Fault(fault));
        }
        let after = present.saturating_sub(HEADER_LEN as u64);
        // A length beyond the whole input cannot be a record cut short.
        let kind = if length > offset + present {
            DamageKind::LengthBeyondEnd {
                length,
                remaining: after,
            }
        } else {
            DamageKind::TruncatedPayload { length, present: after }
        };
        let (skipped, resumed) = self.resync(1, u64::MAX)?;
        Ok(Outcome::Fault(self.fault(kind, offset, skipped, resumed)))
    }

    /// The record of `total` framed bytes at `offset` (the current one)
    /// fails its payload CRC.
    fn bad_payload(&mut self, offset: u64, total: usize) -> io::Result<Outcome> {
        let (skipped, resumed) = if self.intact_at(total)?.is_some() {
            self.src().consume(total);
            (total as u64, true)
        } else {
            self.resync(1, u64::MAX)?
        };
        Ok(Outcome::Fault(self.fault(
            DamageKind::DataCrcMismatch,
            offset,
            skipped,
            resumed,
        )))
    }

    /// Skips `from` bytes, then consumes bytes until an intact record starts
    /// (true) or the input ends or `limit` bytes are skipped (false). Returns
    /// the bytes skipped.
    fn resync(&mut self, from: usize, limit: u64) -> io::Result<(u64, bool)> {
        let start = self.offset();
        self.src().consume(from);
        // Bytes read and checksummed again for candidates that failed (the
        // spans of real records do not overlap), and how far they reached.
        let (mut spent, mut checked_until) = (0u64, 0u64);
        loop {
            if self.offset() - start >= limit {
                return Ok((self.offset() - start, false));
            }
            let budget = RESYNC_FREE_WORK.saturating_add((self.offset() - start).saturating_mul(RESYNC_WORK_PER_BYTE));
            if spent > budget.saturating_mul(2) {
                // Even candidates followed by a header that checks keep
                // failing (real records after a payload made of headers, or
                // a crafted chain): jump past every span checked so far, and
                // check no candidate until the bytes skipped have earned
                // the budget back.
                let jump = checked_until.saturating_sub(self.offset()).max(1);
                let got = self.avail(usize::try_from(jump).unwrap_or(usize::MAX).min(SCAN_CHUNK))?;
                if got == 0 {
                    return Ok((self.offset() - start, false));
                }
                self.src().consume(got.min(usize::try_from(jump).unwrap_or(usize::MAX)));
                continue;
            }
            let got = self.avail(SCAN_CHUNK)?;
            if got < HEADER_LEN {
                self.src().consume(got);
                return Ok((self.offset() - start, false));
            }
            match find_header(&self.src().buffer()[..got]) {
                None => self.src().consume(got - (HEADER_LEN - 1)),
                Some(i) => {
                    self.src().consume(i);
                    let header: &[u8; HEADER_LEN] = self.src().buffer()[..HEADER_LEN].try_into().expect("12 bytes");
                    let span =
                        parse_header(header).map_or(0, |len| len.saturating_add((HEADER_LEN + FOOTER_LEN) as u64));
                    // Past the budget (look-alike headers whose spans overlap,
                    // as in a payload made of headers), only candidates that
                    // another header follows are worth their payload's CRC.
                    if spent > budget && !self.followed_by_header(span)? {
                        self.src().consume(1);
                        continue;
                    }
                    if self.intact_at(0)?.is_some() {
                        return Ok((self.offset() - start, true));
                    }
                    // Work on bytes an earlier candidate already covered.
                    let (at, buffered) = (self.offset(), self.src_ref().buffer().len() as u64);
                    // A candidate over the hold limit was checked by position, all of it.
                    let work = if span > self.hold { span } else { span.min(buffered) };
                    spent = spent.saturating_add(checked_until.saturating_sub(at).min(work));
                    checked_until = checked_until.max(at.saturating_add(work));
                    self.src().consume(1);
                }
            }
        }
    }

    /// Whether `span` bytes ahead there is a header that checks, or the end
    /// of the input (what follows an intact record that is not the last).
    fn followed_by_header(&mut self, span: u64) -> io::Result<bool> {
        if span > self.hold {
            return self.header_far_ahead(span);
        }
        if let Some(remaining) = self.src_ref().remaining() {
            if span >= remaining {
                return Ok(span == remaining);
            }
        }
        let Ok(need) = usize::try_from(span.saturating_add(HEADER_LEN as u64)) else {
            return Ok(false);
        };
        let got = self.avail(need)?;
        if got < need {
            return Ok(got as u64 == span);
        }
        let next: &[u8; HEADER_LEN] = self.src().buffer()[need - HEADER_LEN..need]
            .try_into()
            .expect("12 bytes");
        Ok(parse_header(next).is_some())
    }

    /// A fault at `offset` for the current record index, which it advances.
    fn fault(&mut self, kind: DamageKind, offset: u64, skipped: u64, resumed: bool) -> Fault {
        let fault = Fault {
            damage: Damage {
                kind,
                record: self.index,
                offset,
                compression: self.compression(),
            },
            skipped,
            resumed,
        };
        self.index += 1;
        fault
    }
}

/// Whether a buffer holding exactly one framed record (header already
/// checked or not) has a payload matching its stored CRC.
#[inline]
pub(super) fn payload_checks(framed: &[u8]) -> bool {
    let total = framed.len();
    let stored = u32::from_le_bytes(framed[total - FOOTER_LEN..].try_into().expect("4 bytes"));
    masked_crc(&framed[HEADER_LEN..total - FOOTER_LEN]) == stored
}

/// The first position in `buf` where a 12-byte header checks.
pub(super) fn find_header(buf: &[u8]) -> Option<usize> {
    buf.windows(HEADER_LEN)
        .position(|w| parse_header(w.try_into().expect("12 bytes")).is_some())
}

/// Why a decompressor stopped, for the report.
fn stream_reason(e: &io::Error, compression: Compression) -> String {
    match crate::io::corrupt(e) {
        Some(c) if c.is_cut_short() => format!("the {} stream is cut short", compression.name()),
        _ => format!("{}: {e}", compression.name()),
    }
}

#[cfg(test)]
mod tests;

#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod check;

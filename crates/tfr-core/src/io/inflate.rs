//! A gzip (multi-member) and zlib decoder that never loses output: the
//! bytes inflated before a corrupt block or a bad trailer are returned
//! first, and the error only on the next read.
//!
//! flate2's `read` decoders return an error *instead of* the bytes they
//! produced in the same call, so a corrupt block loses up to a whole read of
//! good records before it; and its zlib decoder reports a stream cut short
//! as a clean end and ignores whatever follows the end of a stream. This one
//! keeps every byte and names every fault.
//!
//! After the end of a gzip member or a zlib stream, more input must be
//! another member (stream) of the same format, read on as one stream as
//! TensorFlow reads concatenated gzip members; anything else is damage
//! naming how many bytes trail.
//!
//! Damage (bad data, a stream cut short) is always a [`Corrupt`] error; an
//! error of the input itself is passed on unchanged, so that a read failure
//! is never taken for damage.

use super::Corrupt;
use flate2::{Decompress, FlushDecompress, Status};
use std::io::{self, BufRead, Read};

/// CRC-32 (gzip's) and length (mod 2^32) of a gzip member's bytes, by
/// crc32fast: its PCLMULQDQ kernel is one `target_feature` function, fast
/// at any opt-level, where flate2's `Crc` (zlib-rs's, with the zlib-rs
/// backend) left its fold step out of line at opt-level "s" (18% of a gzip
/// `count`).
#[derive(Clone, Default)]
pub(crate) struct GzipCrc {
    hasher: crc32fast::Hasher,
    amount: u32,
}

impl GzipCrc {
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.hasher.update(data);
        self.amount = self.amount.wrapping_add(data.len() as u32);
    }

    pub(crate) fn sum(&self) -> u32 {
        self.hasher.clone().finalize()
    }

    /// The length mod 2^32 (gzip's ISIZE).
    pub(crate) fn amount(&self) -> u32 {
        self.amount
    }

    pub(crate) fn reset(&mut self) {
        *self = GzipCrc::default();
    }

    /// Appends the bytes `other` summed (as if they had followed).
    pub(crate) fn combine(&mut self, other: &GzipCrc) {
        self.hasher.combine(&other.hasher);
        self.amount = self.amount.wrapping_add(other.amount);
    }
}

/// Which wrapper the deflate stream has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// gzip, RFC 1952; concatenated members are read as one stream.
    Gzip,
    /// zlib, RFC 1950; concatenated streams are read as one stream.
    Zlib,
}

/// Inflates a gzip or zlib stream from a buffered reader.
///
/// gzip members are framed here (header, raw deflate, CRC-32 and size
/// trailer), as flate2's own gzip reader does, so that each member's end is
/// seen and what follows it judged (another member, or trailing data).
pub struct Inflater<R> {
    input: R,
    format: Format,
    state: Decompress,
    /// Where in the stream (or the current gzip member) we are.
    phase: Phase,
    /// CRC-32 and size of the current gzip member's output.
    crc: GzipCrc,
    /// An error to return on the next read, after the bytes that preceded it.
    pending: Option<io::Error>,
    /// Whether a gzip member or zlib stream has ended: more input must be
    /// another one, else it is trailing data.
    ended_one: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before a gzip member's header.
    Header,
    /// Inside the deflate data.
    Body,
    /// After the deflate data: a gzip member's trailer, then maybe another
    /// member; or maybe another zlib stream.
    Trailer,
    /// The end of the stream.
    End,
}

impl<R: BufRead> Inflater<R> {
    /// Inflates a gzip stream (one or more members).
    pub fn gzip(input: R) -> Inflater<R> {
        Inflater::new(input, Format::Gzip)
    }

    /// Inflates a zlib stream (one or more streams back to back).
    pub fn zlib(input: R) -> Inflater<R> {
        Inflater::new(input, Format::Zlib)
    }

    fn new(input: R, format: Format) -> Inflater<R> {
        let (state, phase) = match format {
            Format::Gzip => (Decompress::new(false), Phase::Header),
            Format::Zlib => (Decompress::new(true), Phase::Body),
        };
        Inflater {
            input,
            format,
            state,
            phase,
            crc: GzipCrc::default(),
            pending: None,
            ended_one: false,
        }
    }

    /// Reads into `buf` until it is full or the input ends; returns how
    /// many bytes were read.
    fn read_up_to(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            match self.input.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    /// Fills `buf` from the input; an input that ends first is a stream
    /// cut short.
    fn read_full(&mut self, buf: &mut [u8]) -> io::Result<()> {
        match self.read_up_to(buf)? == buf.len() {
            true => Ok(()),
            false => Err(cut_short()),
        }
    }

    /// The error for input after the end of the last whole member or
    /// stream: `already` bytes of it were read, the rest is counted here.
    fn trailing(&mut self, already: usize) -> io::Error {
        let rest = match io::copy(&mut self.input, &mut io::sink()) {
            Ok(rest) => rest,
            Err(e) => return e,
        };
        let what = match self.format {
            Format::Gzip => "after the gzip stream",
            Format::Zlib => "after the end of the zlib stream",
        };
        let n = already as u64 + rest;
        let bytes = if n == 1 { "byte" } else { "bytes" };
        invalid(&format!("{n} {bytes} of trailing data {what}"))
    }

    /// Reads and checks a gzip member header (RFC 1952, 2.3).
    fn read_header(&mut self) -> io::Result<()> {
        const MAGIC: [u8; 3] = [0x1f, 0x8b, 8];
        let mut fixed = [0u8; 10];
        let n = self.read_up_to(&mut fixed)?;
        let k = n.min(MAGIC.len());
        if self.ended_one && fixed[..k] != MAGIC[..k] {
            // Not the start of another member (zero padding, say).
            return Err(self.trailing(n));
        }
        if n < fixed.len() {
            return Err(cut_short());
        }
        if fixed[..3] != MAGIC {
            return Err(invalid("not a gzip member header"));
        }
        let flags = fixed[3];
        if flags & 0x04 != 0 {
            let mut len = [0u8; 2];
            self.read_full(&mut len)?;
            let len = u64::from(u16::from_le_bytes(len));
            let skipped = io::copy(&mut (&mut self.input).take(len), &mut io::sink())?;
            if skipped < len {
                return Err(cut_short());
            }
        }
        for flag in [0x08, 0x10] {
            if flags & flag != 0 {
                let mut text = Vec::new();
                self.input.read_until(0, &mut text)?;
                if text.last() != Some(&0) {
                    return Err(cut_short());
                }
            }
        }
        if flags & 0x02 != 0 {
            self.read_full(&mut [0u8; 2])?;
        }
        self.state.reset(false);
        self.crc.reset();
        self.phase = Phase::Body;
        Ok(())
    }

    /// Reads and checks a gzip member trailer, then looks for another member.
    fn read_trailer(&mut self) -> io::Result<()> {
        let mut trailer = [0u8; 8];
        self.read_full(&mut trailer)?;
        let crc = u32::from_le_bytes(trailer[..4].try_into().expect("4 bytes"));
        let size = u32::from_le_bytes(trailer[4..].try_into().expect("4 bytes"));
        if crc != self.crc.sum() || size != self.crc.amount() {
            return Err(invalid("incorrect data check (gzip trailer)"));
        }
        self.ended_one = true;
        self.phase = if self.input.fill_buf()?.is_empty() {
            Phase::End
        } else {
            Phase::Header
        };
        Ok(())
    }

    /// After a zlib stream: the end of the input, or the header of another
    /// stream (fed to the reset decompressor), or trailing data.
    fn next_zlib_stream(&mut self) -> io::Result<()> {
        self.ended_one = true;
        let mut header = [0u8; 2];
        let n = self.read_up_to(&mut header)?;
        if n == 0 {
            self.phase = Phase::End;
            return Ok(());
        }
        if n < header.len() || !is_zlib_header(header) {
            return Err(self.trailing(n));
        }
        self.state.reset(true);
        // A header alone produces no output; the scratch byte just keeps
        // the output buffer non-empty.
        let (in_before, out_before) = (self.state.total_in(), self.state.total_out());
        let status = self.state.decompress(&header, &mut [0u8; 1], FlushDecompress::None);
        let consumed = self.state.total_in() - in_before;
        if status.is_err() || consumed != 2 || self.state.total_out() != out_before {
            return Err(self.trailing(n));
        }
        self.phase = Phase::Body;
        Ok(())
    }

    /// Inflates into `out`: the bytes produced, and the error that stopped
    /// the stream if any. Zero bytes and no error means the data ended
    /// (`phase` says how).
    fn inflate(&mut self, out: &mut [u8]) -> (usize, Option<io::Error>) {
        loop {
            let input = match self.input.fill_buf() {
                Ok(i) => i,
                Err(e) => return (0, Some(e)),
            };
            let eof = input.is_empty();
            let (in_before, out_before) = (self.state.total_in(), self.state.total_out());
            let flush = if eof {
                FlushDecompress::Finish
            } else {
                FlushDecompress::None
            };
            let status = self.state.decompress(input, out, flush);
            let consumed = (self.state.total_in() - in_before) as usize;
            let produced = (self.state.total_out() - out_before) as usize;
            self.input.consume(consumed);
            if self.format == Format::Gzip {
                self.crc.update(&out[..produced]);
            }
            let error = match status {
                Ok(Status::StreamEnd) => {
                    self.phase = Phase::Trailer;
                    return (produced, None);
                }
                Ok(_) if eof && produced == 0 => Some(cut_short()),
                Ok(_) if consumed == 0 && produced == 0 => Some(invalid("the decompressor makes no progress")),
                Ok(_) => None,
                Err(e) => Some(invalid(&describe(&e))),
            };
            if produced > 0 || error.is_some() {
                return (produced, error);
            }
        }
    }
}

/// Whether two bytes are a zlib header (RFC 1950, 2.2) this decoder can
/// inflate: deflate with a window of at most 32 KiB, no preset dictionary,
/// and a valid check.
fn is_zlib_header([cmf, flg]: [u8; 2]) -> bool {
    cmf & 0x0f == 8 && cmf >> 4 <= 7 && flg & 0x20 == 0 && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0
}

/// An error for data that is not valid gzip/zlib.
fn invalid(msg: &str) -> io::Error {
    Corrupt::data(msg)
}

/// The stream ends inside a header, the deflate data or a trailer.
fn cut_short() -> io::Error {
    Corrupt::cut_short("the compressed stream is cut short")
}

/// The decompressor's message without flate2's prefix. zlib-rs may first
/// report a corrupt block as progress and only the next call as "repeated
/// call with bad state": that is said plainly.
fn describe(e: &flate2::DecompressError) -> String {
    let text = e.to_string();
    let msg = text.strip_prefix("deflate decompression error: ").unwrap_or(&text);
    match msg {
        "repeated call with bad state" | "deflate decompression error" => "corrupt deflate data".to_string(),
        m => m.to_string(),
    }
}

impl<R: BufRead> Read for Inflater<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            match self.phase {
                Phase::End => return Ok(0),
                Phase::Header | Phase::Trailer => {
                    let framing = match (self.phase, self.format) {
                        (Phase::Header, _) => self.read_header(),
                        (_, Format::Gzip) => self.read_trailer(),
                        (_, Format::Zlib) => self.next_zlib_stream(),
                    };
                    if let Err(e) = framing {
                        self.phase = Phase::End;
                        return Err(e);
                    }
                }
                Phase::Body => match self.inflate(out) {
                    (0, None) => continue,
                    (n, None) => return Ok(n),
                    (0, Some(e)) => return Err(e),
                    (n, Some(e)) => {
                        self.pending = Some(e);
                        return Ok(n);
                    }
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_crc_is_crc32_and_size_and_combines() {
        // The CRC-32 check value of "123456789" (RFC 1952's polynomial).
        let mut crc = GzipCrc::default();
        crc.update(b"1234");
        crc.update(b"56789");
        assert_eq!((crc.sum(), crc.amount()), (0xCBF4_3926, 9));
        // Long input (the folding kernels) against flate2's own CRC.
        let data: Vec<u8> = (0..100_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut whole = GzipCrc::default();
        whole.update(&data);
        let mut reference = flate2::Crc::new();
        reference.update(&data);
        assert_eq!((whole.sum(), whole.amount()), (reference.sum(), reference.amount()));
        // Two halves combined, as the parallel gzip writer does.
        let (a, b) = data.split_at(33_333);
        let (mut first, mut second) = (GzipCrc::default(), GzipCrc::default());
        first.update(a);
        second.update(b);
        first.combine(&second);
        assert_eq!((first.sum(), first.amount()), (whole.sum(), whole.amount()));
        first.reset();
        assert_eq!((first.sum(), first.amount()), (0, 0));
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Reads everything, in small reads; returns the bytes and the error that ended them.
    fn inflate(bytes: &[u8], format: Format) -> (Vec<u8>, Option<io::Error>) {
        let mut r = Inflater::new(io::BufReader::with_capacity(100, bytes), format);
        let mut out = Vec::new();
        let mut buf = [0u8; 777];
        loop {
            match r.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    fn text(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| format!("line {i} of some text\n").into_bytes())
            .collect()
    }

    #[test]
    fn round_trips_gzip_multi_member_and_zlib() {
        let data = text(5000);
        let (a, b) = data.split_at(12345);
        let multi = [gzip(a), gzip(b)].concat();
        assert_eq!(inflate(&multi, Format::Gzip).0, data);
        assert!(inflate(&multi, Format::Gzip).1.is_none());
        assert_eq!(inflate(&zlib(&data), Format::Zlib).0, data);
        let (empty, err) = inflate(&gzip(b""), Format::Gzip);
        assert!(empty.is_empty() && err.is_none());
    }

    #[test]
    fn cut_streams_are_errors_after_all_their_bytes() {
        let data = text(5000);
        for (bytes, format) in [(gzip(&data), Format::Gzip), (zlib(&data), Format::Zlib)] {
            let (got, err) = inflate(&bytes[..bytes.len() / 2], format);
            assert!(data.starts_with(&got) && got.len() > data.len() / 4, "{format:?}");
            assert_eq!(
                err.expect("an error").kind(),
                io::ErrorKind::UnexpectedEof,
                "{format:?}"
            );
        }
    }

    #[test]
    fn corrupt_blocks_keep_the_bytes_before_them() {
        let data = text(5000);
        let mut bytes = gzip(&data);
        let mid = bytes.len() / 2;
        bytes[mid..mid + 6].copy_from_slice(&[0xff; 6]);
        let (got, err) = inflate(&bytes, Format::Gzip);
        assert!(err.is_some());
        let same = got.iter().zip(&data).take_while(|(a, b)| a == b).count();
        assert!(same > data.len() / 3, "only {same} bytes kept");
        // A bad trailer after a complete stream keeps every byte.
        let mut bytes = gzip(&data);
        let n = bytes.len();
        bytes[n - 6] ^= 1;
        let (got, err) = inflate(&bytes, Format::Gzip);
        assert_eq!(got, data);
        assert_eq!(err.expect("a trailer error").kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn concatenated_zlib_streams_are_read_whole() {
        let data = text(5000);
        let (a, b) = data.split_at(23456);
        let (got, err) = inflate(&[zlib(a), zlib(b), zlib(b"")].concat(), Format::Zlib);
        assert_eq!(got, data);
        assert!(err.is_none(), "{err:?}");
        // Every split of the header across reads.
        for cut in [1, 2, 3] {
            let first = zlib(&data[..100]);
            let bytes = [first.clone(), zlib(b"xyz")].concat();
            let split = first.len() + cut - 2;
            let reader = io::BufReader::with_capacity(4, &bytes[..split]).chain(&bytes[split..]);
            let mut out = Vec::new();
            Inflater::new(io::BufReader::with_capacity(7, reader), Format::Zlib)
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, [&data[..100], b"xyz"].concat());
        }
    }

    #[test]
    fn trailing_data_is_an_error_after_all_the_bytes() {
        let data = text(5000);
        let garbage: &[&[u8]] = &[b"\0", &[0; 5], b"some text after it\n", &[0x78], &[0x78, 0x9d, 1, 2]];
        for &tail in garbage {
            for format in [Format::Zlib, Format::Gzip] {
                let (compressed, what) = match format {
                    Format::Zlib => (zlib(&data), "after the end of the zlib stream"),
                    Format::Gzip => (gzip(&data), "after the gzip stream"),
                };
                let (got, err) = inflate(&[compressed, tail.to_vec()].concat(), format);
                assert_eq!(got, data, "{format:?} {tail:?}");
                let err = err.expect("an error");
                assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{format:?} {tail:?}");
                let n = tail.len();
                let want = format!("{n} {} of trailing data {what}", if n == 1 { "byte" } else { "bytes" });
                assert_eq!(err.to_string(), want);
            }
        }
        // A TFRecord file after a zlib stream is trailing data too.
        let tfrecord = [&3u64.to_le_bytes()[..], b"\xb0\x99\x49\x0efoo\x61\x8a\xbe\xfe"].concat();
        let (_, err) = inflate(&[zlib(&data), tfrecord].concat(), Format::Zlib);
        assert_eq!(
            err.unwrap().to_string(),
            "19 bytes of trailing data after the end of the zlib stream"
        );
    }

    #[test]
    fn a_second_stream_cut_short_or_corrupt_is_not_trailing_data() {
        let data = text(5000);
        let second = zlib(&data);
        let (got, err) = inflate(
            &[zlib(b"first"), second[..second.len() / 2].to_vec()].concat(),
            Format::Zlib,
        );
        assert!(got.starts_with(b"first") && got.len() > 5);
        assert_eq!(err.unwrap().kind(), io::ErrorKind::UnexpectedEof);
        let second = gzip(&data);
        let (_, err) = inflate(&[gzip(b"first"), second[..5].to_vec()].concat(), Format::Gzip);
        assert_eq!(err.unwrap().kind(), io::ErrorKind::UnexpectedEof);
        let mut bad = zlib(&data);
        let mid = bad.len() / 2;
        bad[mid..mid + 6].copy_from_slice(&[0xff; 6]);
        let (got, err) = inflate(&[zlib(b"first"), bad].concat(), Format::Zlib);
        assert!(got.starts_with(b"first"));
        let err = err.expect("an error");
        assert!(!err.to_string().contains("trailing"), "{err}");
    }

    #[test]
    fn zlib_headers() {
        assert!(is_zlib_header([0x78, 0x9c]) && is_zlib_header([0x78, 0x01]) && is_zlib_header([0x78, 0xda]));
        assert!(is_zlib_header([0x08, 0x1d]));
        assert!(!is_zlib_header([0x78, 0x9d]) && !is_zlib_header([0x00, 0x00]));
        assert!(!is_zlib_header([0x78, 0xbb]), "a preset dictionary");
        assert!(!is_zlib_header([0x88, 0x1c]), "a 64 KiB window");
    }
}

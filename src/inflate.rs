//! A gzip (multi-member) and zlib decoder that never loses output: the
//! bytes inflated before a corrupt block or a bad trailer are returned
//! first, and the error only on the next read.
//!
//! flate2's `read` decoders return an error *instead of* the bytes they
//! produced in the same call, so a corrupt block loses up to a whole read of
//! good records before it; and its zlib decoder reports a stream cut short
//! as a clean end. This one keeps every byte and names both faults.

use flate2::{Crc, Decompress, FlushDecompress, Status};
use std::io::{self, BufRead, Read};

/// Which wrapper the deflate stream has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// gzip, RFC 1952; concatenated members are read as one stream.
    Gzip,
    /// zlib, RFC 1950.
    Zlib,
}

/// Inflates a gzip or zlib stream from a buffered reader.
///
/// gzip members are framed here (header, raw deflate, CRC-32 and size
/// trailer) as flate2's own gzip reader does: its CRC-32 is much faster than
/// the one zlib-rs runs inside a gzip-mode inflate.
pub struct Inflater<R> {
    input: R,
    format: Format,
    state: Decompress,
    /// Where in the stream (or the current gzip member) we are.
    phase: Phase,
    /// CRC-32 and size of the current gzip member's output.
    crc: Crc,
    /// An error to return on the next read, after the bytes that preceded it.
    pending: Option<io::Error>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before a gzip member's header.
    Header,
    /// Inside the deflate data.
    Body,
    /// After the deflate data of a gzip member: its trailer, then maybe another member.
    Trailer,
    /// The end of the stream.
    End,
}

impl<R: BufRead> Inflater<R> {
    pub fn new(input: R, format: Format) -> Inflater<R> {
        let (state, phase) = match format {
            Format::Gzip => (Decompress::new(false), Phase::Header),
            Format::Zlib => (Decompress::new(true), Phase::Body),
        };
        Inflater {
            input,
            format,
            state,
            phase,
            crc: Crc::new(),
            pending: None,
        }
    }

    /// Reads and checks a gzip member header (RFC 1952, 2.3).
    fn read_header(&mut self) -> io::Result<()> {
        let mut fixed = [0u8; 10];
        self.input.read_exact(&mut fixed).map_err(cut_short)?;
        if fixed[..3] != [0x1f, 0x8b, 8] {
            return Err(invalid("not a gzip member header"));
        }
        let flags = fixed[3];
        if flags & 0x04 != 0 {
            let mut len = [0u8; 2];
            self.input.read_exact(&mut len).map_err(cut_short)?;
            let len = u64::from(u16::from_le_bytes(len));
            let skipped = io::copy(&mut (&mut self.input).take(len), &mut io::sink())?;
            if skipped < len {
                return Err(cut_short(io::ErrorKind::UnexpectedEof.into()));
            }
        }
        for flag in [0x08, 0x10] {
            if flags & flag != 0 {
                let mut text = Vec::new();
                self.input.read_until(0, &mut text)?;
                if text.last() != Some(&0) {
                    return Err(cut_short(io::ErrorKind::UnexpectedEof.into()));
                }
            }
        }
        if flags & 0x02 != 0 {
            self.input.read_exact(&mut [0u8; 2]).map_err(cut_short)?;
        }
        self.state.reset(false);
        self.crc.reset();
        self.phase = Phase::Body;
        Ok(())
    }

    /// Reads and checks a gzip member trailer, then looks for another member.
    fn read_trailer(&mut self) -> io::Result<()> {
        let mut trailer = [0u8; 8];
        self.input.read_exact(&mut trailer).map_err(cut_short)?;
        let crc = u32::from_le_bytes(trailer[..4].try_into().expect("4 bytes"));
        let size = u32::from_le_bytes(trailer[4..].try_into().expect("4 bytes"));
        if crc != self.crc.sum() || size != self.crc.amount() {
            return Err(invalid("incorrect data check (gzip trailer)"));
        }
        self.phase = if self.input.fill_buf()?.is_empty() {
            Phase::End
        } else {
            Phase::Header
        };
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
                    self.phase = match self.format {
                        Format::Gzip => Phase::Trailer,
                        Format::Zlib => Phase::End,
                    };
                    return (produced, None);
                }
                Ok(_) if eof && produced == 0 => Some(cut_short(io::ErrorKind::UnexpectedEof.into())),
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

/// An error for data that is not valid gzip/zlib.
fn invalid(msg: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.to_string())
}

/// The stream ends inside a header, the deflate data or a trailer.
fn cut_short(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        io::Error::new(io::ErrorKind::UnexpectedEof, "the compressed stream is cut short")
    } else {
        e
    }
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
                    let framing = if self.phase == Phase::Header {
                        self.read_header()
                    } else {
                        self.read_trailer()
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

/// Runs `inner` (typically an [`Inflater`]) on a second thread, so that
/// inflating and parsing use both cores (see [`crate::readahead`]).
pub fn threaded(inner: Box<dyn Read + Send>) -> crate::readahead::ReadAhead {
    crate::readahead::ReadAhead::new(inner)
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
}

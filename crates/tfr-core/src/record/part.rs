//! `--part K/N`: the K-th of N disjoint parts of the inputs, so that N
//! workers of any engine (a job array, Ray tasks, `xargs -P`) cover a
//! dataset exactly once, and the parts' outputs, concatenated in K order,
//! are the output of one run over everything.
//!
//! - At least N inputs: they are dealt out whole and in order, by count:
//!   part K takes inputs `M·K/N .. M·(K+1)/N` of the M (sorted, as
//!   expanded). By count rather than size, since sizes of thousands of
//!   listed objects would cost a request each.
//! - Fewer: the inputs are laid end to end as one line of T bytes, cut at
//!   `T·K/N`. A plain file or object (its first 12 bytes a record header,
//!   or `--compression none`) is cut where records start after each cut
//!   ([`super::next_start`], the parallel walk's test), and part K reads
//!   the records that start in its bytes as an [`Input::Part`]. A
//!   compressed or streamed input cannot be cut: it goes whole to the part
//!   in which its first byte lies, and other parts may be empty.
//!
//! Every worker computes the same cuts from the same bytes, so two parts
//! agree on the boundary between them. Should a cut land on a look-alike
//! record start inside a payload (a TFRecord file stored in a record), the
//! part before it meets a record cut short at its end and fails, so the job
//! fails instead of reading records twice.

use super::{parse_header, HEADER_LEN};
use crate::error::{bail, Context, Result};
use crate::io::at::At;
use crate::io::input::{Input, Opened};
use crate::io::Compression;

/// Which part: `index` of `count` (`0 ≤ index < count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// Which part (from 0).
    pub index: u64,
    /// Of how many.
    pub count: u64,
}

impl std::str::FromStr for Part {
    type Err = String;

    /// `K/N`, e.g. `0/4` (the first of four parts).
    fn from_str(s: &str) -> Result<Part, String> {
        let bad = || format!("not a part: '{s}' (write K/N, the K-th of N parts counting from 0: 0/4 to 3/4)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 {
            return Err(format!("'{s}': N must be at least 1"));
        }
        if index >= count {
            return Err(format!(
                "'{s}': K must be below N (the parts are 0/{count} to {}/{count})",
                count - 1
            ));
        }
        Ok(Part { index, count })
    }
}

/// `floor(total · k / n)`, without overflow.
fn cut(total: u64, k: u64, n: u64) -> u64 {
    (u128::from(total) * u128::from(k) / u128::from(n)) as u64
}

/// The part whose bytes `cut(total, p, n) .. cut(total, p + 1, n)` hold
/// byte `x` (the last part for `x == total`).
fn owner(x: u64, total: u64, n: u64) -> u64 {
    if total == 0 {
        return 0;
    }
    let mut p = ((u128::from(x) * u128::from(n)) / u128::from(total)).min(u128::from(n - 1)) as u64;
    while p + 1 < n && cut(total, p + 1, n) <= x {
        p += 1;
    }
    while p > 0 && cut(total, p, n) > x {
        p -= 1;
    }
    p
}

/// One input as `--part` sees it: its size, and for a plain file or
/// object the handle its cuts are searched in.
struct Unit {
    input: Input,
    size: u64,
    plain: Option<At>,
}

impl Unit {
    fn of(input: Input, forced: Option<Compression>) -> Result<Unit> {
        let name = input.display();
        let (at, size) = match input.open()? {
            Opened::File(file, size) => (At::file(file), size),
            Opened::Object(at, size) => (at, size),
            Opened::Stream(_) => {
                return Ok(Unit {
                    input,
                    size: 0,
                    plain: None,
                })
            }
        };
        let plain = match forced {
            Some(c) => c == Compression::None,
            None => {
                let mut head = [0u8; HEADER_LEN];
                let whole = at
                    .read_exact_at(&mut head, 0)
                    .with_context(|| format!("{name}: read failed"))?;
                size == 0 || (whole && parse_header(&head).is_some())
            }
        };
        Ok(Unit {
            input,
            size,
            plain: plain.then_some(at),
        })
    }
}

/// The inputs of part `part` of `inputs` (see the module's doc). A part
/// that holds nothing (more parts than records, say) is an empty byte range
/// of the first input, so that commands read it as an input without
/// records (count prints 0, the statistics have no records).
pub fn select(inputs: Vec<Input>, part: Part, forced: Option<Compression>) -> Result<Vec<Input>> {
    let Part { index: k, count: n } = part;
    if inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        bail!("--part: standard input cannot be divided into parts (name the files)");
    }
    if n == 1 {
        return Ok(inputs);
    }
    let m = inputs.len() as u64;
    if m >= n {
        let (from, to) = (cut(m, k, n), cut(m, k + 1, n));
        return Ok(inputs
            .into_iter()
            .skip(from as usize)
            .take((to - from) as usize)
            .collect());
    }
    let Some(first_input) = inputs.first().cloned() else {
        return Ok(inputs);
    };
    let units = inputs
        .into_iter()
        .map(|i| Unit::of(i, forced))
        .collect::<Result<Vec<_>>>()?;
    let total = units
        .iter()
        .try_fold(0u64, |t, u| t.checked_add(u.size))
        .context("--part: the inputs' sizes add up to more than 2^64 bytes")?;
    let (lo, hi) = (cut(total, k, n), cut(total, k + 1, n));
    let mut out = Vec::new();
    let mut first = 0u64;
    for unit in units {
        let last = first + unit.size;
        let here = first;
        first = last;
        let Some(file) = unit.plain else {
            if owner(here, total, n) == k {
                out.push(unit.input);
            }
            continue;
        };
        // The records starting in this part's bytes of the file.
        let (a, b) = (lo.clamp(here, last) - here, hi.clamp(here, last) - here);
        if a >= b {
            continue;
        }
        let start = super::next_start(&file, unit.size, a);
        let end = super::next_start(&file, unit.size, b);
        if start > end {
            bail!(
                "--part: {}: no consistent record boundaries near bytes {a} and {b} (damage?); verify-crc it, or use fewer parts",
                unit.input.display()
            );
        }
        if start == end {
            continue;
        }
        if start == 0 && end == unit.size {
            out.push(unit.input);
        } else {
            out.push(Input::Part {
                whole: Box::new(unit.input),
                start,
                end,
            });
        }
    }
    if out.is_empty() {
        out.push(Input::Part {
            whole: Box::new(first_input),
            start: 0,
            end: 0,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_parse_and_are_checked() {
        assert_eq!("2/5".parse::<Part>(), Ok(Part { index: 2, count: 5 }));
        assert_eq!("0/1".parse::<Part>(), Ok(Part { index: 0, count: 1 }));
        for bad in ["3/3", "0/0", "1", "a/2", "-1/2", "1/2/3", ""] {
            assert!(bad.parse::<Part>().is_err(), "{bad}");
        }
    }

    #[test]
    fn owners_agree_with_the_cuts() {
        for total in [1u64, 2, 3, 7, 100, 101] {
            for n in 1..9u64 {
                for x in 0..total {
                    let p = owner(x, total, n);
                    assert!(cut(total, p, n) <= x && x < cut(total, p + 1, n), "{x} {total} {n}");
                }
                assert_eq!(owner(total, total, n), n - 1);
            }
        }
    }

    fn records(n: usize, len: usize) -> Vec<u8> {
        let mut w = super::super::RecordWriter::new(Vec::new());
        for i in 0..n {
            w.write_record(&vec![i as u8; len + i % 7]).unwrap();
        }
        w.into_inner()
    }

    /// The records of an input (whole or a part), as payloads.
    fn payloads(input: &Input) -> Vec<Vec<u8>> {
        let mut r = super::super::open(input, None).unwrap();
        let mut out = Vec::new();
        while let Some(rec) = r.next_record().unwrap() {
            out.push(rec.data.to_vec());
        }
        out
    }

    #[test]
    fn parts_of_one_file_cover_it_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.tfrecord");
        std::fs::write(&path, records(500, 40)).unwrap();
        let whole = payloads(&Input::Path(path.clone()));
        for n in [1u64, 2, 3, 7, 64, 1000] {
            let mut joined = Vec::new();
            for k in 0..n {
                let inputs = select(vec![Input::Path(path.clone())], Part { index: k, count: n }, None).unwrap();
                for input in &inputs {
                    joined.extend(payloads(input));
                }
            }
            assert_eq!(joined, whole, "{n} parts");
        }
    }
}

//! `--split`: a TFDS split, or a slice of splits in TFDS's split syntax
//! (`train`, `train[:10%]`, `test[-500:]`, `train[10:20]+test`, `all`),
//! as the inputs to read: whole shards, and at a slice's ends the byte
//! range of a shard that holds its records (found by walking the record
//! headers of that shard only).
//!
//! Percent bounds round as TFDS's default (`closest`): `round(p * n /
//! 100)`, halves to even, as Python's `round`.

use super::refuse;
use super::{Folder, SplitInfo};
use crate::error::{Context, Result};
use crate::io::Input;

/// One bound of a slice.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    Records(i64),
    Percent(f64),
}

/// `NAME[FROM:TO]` of a split spec.
#[derive(Clone, Debug, PartialEq)]
struct Part {
    name: String,
    from: Option<Bound>,
    to: Option<Bound>,
}

/// What a spec selects, for messages: `train (records 0..6000 of 60000)`.
#[derive(Clone, Debug)]
pub struct Picked {
    /// The inputs, in order.
    pub inputs: Vec<Input>,
    /// One line per part of the spec: the split, and the records when sliced.
    pub parts: Vec<String>,
    /// Records selected, by `dataset_info.json`'s counts.
    pub records: u64,
}

fn parse_bound(s: &str, spec: &str) -> Result<Option<Bound>> {
    if s.is_empty() {
        return Ok(None);
    }
    let bad = || {
        crate::Error::Tfds(super::TfdsError::Split(format!(
            "--split {spec}: {s:?} is not a record number or a percentage"
        )))
    };
    let number =
        |t: &str| !t.is_empty() && !t.starts_with('+') && t.bytes().all(|b| b.is_ascii_digit() || b"-.".contains(&b));
    if !number(s.strip_suffix('%').unwrap_or(s)) {
        return Err(bad());
    }
    match s.strip_suffix('%') {
        Some(p) => {
            let v: f64 = p.parse().map_err(|_| bad())?;
            if !v.is_finite() || !(-100.0..=100.0).contains(&v) {
                refuse!(Split, "--split {spec}: {s} is not between -100% and 100%");
            }
            Ok(Some(Bound::Percent(v)))
        }
        None => s.parse().map(|v| Some(Bound::Records(v))).map_err(|_| bad()),
    }
}

/// Parses `train[:10%]+test`.
fn parse(spec: &str) -> Result<Vec<Part>> {
    let mut parts = Vec::new();
    // '+' joins parts outside brackets only.
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in spec.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '+' if depth == 0 => {
                pieces.push(&spec[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&spec[start..]);
    for piece in pieces {
        let piece = piece.trim();
        let (name, slice) = match piece.find('[') {
            None => (piece, None),
            Some(open) => {
                let Some(inner) = piece[open + 1..].strip_suffix(']') else {
                    refuse!(
                        Split,
                        "--split {spec}: {piece:?} has '[' without a closing ']' at its end"
                    );
                };
                (&piece[..open], Some(inner))
            }
        };
        if name.is_empty() || name.contains(['[', ']', '/', ':']) {
            refuse!(Split, "--split {spec}: {piece:?} does not start with a split's name");
        }
        let (from, to) = match slice {
            None => (None, None),
            Some(inner) => {
                let Some((a, b)) = inner.split_once(':') else {
                    refuse!(
                        Split,
                        "--split {spec}: a slice is [FROM:TO] (either may be left out: [:10%], [-500:])"
                    );
                };
                let (mut from, mut to) = (parse_bound(a, spec)?, parse_bound(b, spec)?);
                // As TFDS reads `train[10:50%]`: one unit for both bounds,
                // the one a bound gives.
                if matches!(from, Some(Bound::Percent(_))) || matches!(to, Some(Bound::Percent(_))) {
                    for bound in [&mut from, &mut to] {
                        if let Some(Bound::Records(v)) = *bound {
                            if v.unsigned_abs() > 100 {
                                refuse!(Split, "--split {spec}: {v} is not between -100% and 100%");
                            }
                            *bound = Some(Bound::Percent(v as f64));
                        }
                    }
                }
                (from, to)
            }
        };
        parts.push(Part {
            name: name.to_string(),
            from,
            to,
        });
    }
    Ok(parts)
}

/// Python's `round` of a non-negative value: halves to even.
fn round_half_even(x: f64) -> i64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        (r - x.signum()) as i64
    } else {
        r as i64
    }
}

/// A bound as a record index in `0..=n`; `None` for a record number
/// beyond the split (which TFDS refuses).
fn absolute(b: Option<Bound>, n: u64, default: u64) -> Option<u64> {
    let n_i = n as i64;
    let v = match b {
        None => return Some(default),
        Some(Bound::Records(v)) if v.unsigned_abs() > n => return None,
        Some(Bound::Records(v)) => v,
        Some(Bound::Percent(p)) => round_half_even(p * n as f64 / 100.0),
    };
    let v = if v < 0 { n_i.saturating_add(v) } else { v };
    Some(v.clamp(0, n_i) as u64)
}

/// The inputs of `spec` in `folder`.
pub fn pick(folder: &Folder, spec: &str) -> Result<Picked> {
    folder.check_format()?;
    let mut picked = Picked {
        inputs: Vec::new(),
        parts: Vec::new(),
        records: 0,
    };
    for part in parse(spec)? {
        let splits: Vec<&SplitInfo> = match part.name.as_str() {
            "all" if folder.info.splits.iter().all(|s| s.name != "all") => folder.info.splits.iter().collect(),
            name => vec![folder.split(name)?],
        };
        let sliced = part.from.is_some() || part.to.is_some();
        if sliced && splits.len() > 1 {
            refuse!(
                Split,
                "--split {spec}: slice the splits one by one (train[:10%]+test[:10%]), not all"
            );
        }
        for split in splits {
            let n = split.records();
            let (Some(from), Some(to)) = (absolute(part.from, n, 0), absolute(part.to, n, n)) else {
                refuse!(
                    Split,
                    "--split {spec}: a bound beyond the {n} records of {} (as TFDS refuses it)",
                    split.name
                );
            };
            if from >= to {
                refuse!(
                    Split,
                    "--split {spec}: {} selects no records of {}'s {n}",
                    slice_text(&part),
                    split.name
                );
            }
            picked.records += to - from;
            picked.parts.push(match sliced {
                true => format!("{} (records {from}..{to} of {n})", split.name),
                false => split.name.clone(),
            });
            shards_of(folder, split, from, to, &mut picked.inputs)?;
        }
    }
    Ok(picked)
}

/// `train[10:20]` as given.
fn slice_text(p: &Part) -> String {
    let b = |b: Option<Bound>| match b {
        None => String::new(),
        Some(Bound::Records(v)) => v.to_string(),
        Some(Bound::Percent(v)) => format!("{v}%"),
    };
    format!("{}[{}:{}]", p.name, b(p.from), b(p.to))
}

/// The inputs holding records `from..to` of `split`.
fn shards_of(folder: &Folder, split: &SplitInfo, from: u64, to: u64, out: &mut Vec<Input>) -> Result<()> {
    let names = folder.shard_names(split)?;
    let mut first = 0u64;
    for (name, len) in names.iter().zip(&split.shard_lengths) {
        let (start, end) = (first, first + len.0);
        first = end;
        let (lo, hi) = (from.max(start), to.min(end));
        if lo >= hi {
            continue;
        }
        let input = folder.place.file(name);
        if lo == start && hi == end {
            out.push(input);
            continue;
        }
        let (a, b) = record_bytes(&input, lo - start, hi - start).with_context(|| {
            format!(
                "--split: {}: finding records {}..{}",
                input.display(),
                lo - start,
                hi - start
            )
        })?;
        out.push(Input::Part {
            whole: Box::new(input),
            start: a,
            end: b,
        });
    }
    Ok(())
}

/// The byte range of records `from..to` of an uncompressed TFRecord file,
/// found by the record reader stepping over their headers (each length
/// checked by its CRC; the payloads are not read).
fn record_bytes(input: &Input, from: u64, to: u64) -> Result<(u64, u64)> {
    let mut reader = crate::record::OpenOptions::default().open(input)?;
    if reader.compression() != crate::io::Compression::None {
        refuse!(
            Metadata,
            "a slice reads byte ranges of plain shards, and this one is {:?}",
            reader.compression()
        );
    }
    let mut start = None;
    for k in 0..to {
        if k == from {
            start = Some(reader.offset());
        }
        if reader.skip_record()?.is_none() {
            refuse!(
                Metadata,
                "the shard ends after {k} records (dataset_info.json counts more; `tfr info --check` reads them all)"
            );
        }
    }
    let end = reader.offset();
    Ok((start.unwrap_or(end), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_as_tfds_writes_them() {
        let p = parse("train[:10%]+test[-5:]+validation").unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].to, Some(Bound::Percent(10.0)));
        assert_eq!(p[1].from, Some(Bound::Records(-5)));
        assert_eq!((p[2].from, p[2].to), (None, None));
        for bad in [
            "train[",
            "train[5]",
            "[1:2]",
            "train[a:b]",
            "train[:200%]",
            "",
            "train[ :5]",
            "train[:+5]",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bounds_round_as_python_does() {
        assert_eq!(absolute(Some(Bound::Percent(10.0)), 25, 0), Some(2)); // 2.5 → 2
        assert_eq!(absolute(Some(Bound::Percent(30.0)), 25, 0), Some(8)); // 7.5 → 8
        assert_eq!(absolute(Some(Bound::Percent(-10.0)), 100, 0), Some(90));
        assert_eq!(absolute(Some(Bound::Records(-3)), 3, 0), Some(0));
        assert_eq!(absolute(Some(Bound::Records(-5)), 3, 0), None);
        assert_eq!(absolute(Some(Bound::Records(500)), 30, 0), None);
        assert_eq!(absolute(None, 30, 30), Some(30));
    }
}

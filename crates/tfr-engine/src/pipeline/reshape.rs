//! The consumer of records behind `tfr reshard` and `tfr split`: records
//! framed again (the payload's bytes as read, so each record is byte for
//! byte what it was: TFRecord framing is a function of the payload) on the
//! workers, each given a group (the split it goes to), and handed in record
//! order to a [`Sink`](super::Sink) that writes them into shards
//! ([`crate::record::shards`]).
//!
//! [`Route`] is split's rule: a record's group is chosen by a hash (xxh3,
//! seeded, then mixed) of its payload, or of one feature's values (`--by`), mapped onto
//! the cumulative ratios: the same record (the same value) goes to the same
//! split on every run, machine and `-j`.

use super::batches::{Record, Work};
use super::Output;
use crate::error::{bail, Result};
use crate::example::sought::{Sought, Unmatched};
use crate::example::{Decoder, FeatureView, Kind};
use crate::record::append_framed_with_crc;
use std::collections::hash_map::Entry;

/// What one batch becomes: its records framed, back to back, and per
/// record its group and where it ends in `bytes`.
#[derive(Default)]
pub struct Framed {
    /// The framed records, back to back.
    pub bytes: Vec<u8>,
    /// Per record: its group and where it ends in `bytes`.
    pub records: Vec<(u32, usize)>,
    /// With split's `--by`: per record, the hash of its key (the feature's
    /// values) and where the key ends in `keys`.
    pub key_ends: Vec<(u64, usize)>,
    /// The keys, back to back.
    pub keys: Vec<u8>,
}

impl Output for Framed {
    fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.records.clear();
        self.key_ends.clear();
        self.keys.clear();
    }
}

impl Framed {
    /// Each record: its group and its framed bytes (empty when the records
    /// were only routed, not kept).
    pub fn each(&self) -> impl Iterator<Item = (u32, &[u8])> {
        let mut start = 0;
        self.records.iter().map(move |&(group, end)| {
            let framed = &self.bytes[start.min(end)..end];
            start = end;
            (group, framed)
        })
    }
}

/// The workers' side: frames (when `keep`) and routes each record.
pub struct Frame<'a> {
    /// Split's rule; `None`: every record is in group 0.
    pub route: Option<&'a Route>,
    /// Keep the framed bytes (false: only count the records per group).
    pub keep: bool,
}

impl Work for Frame<'_> {
    type Out = Framed;

    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut Framed) -> Result<()> {
        let group = match self.route {
            Some(route) if route.by.is_some() => {
                let (group, hash) = route.group_keyed(decoder, record, &mut out.keys)?;
                out.key_ends.push((hash, out.keys.len()));
                group
            }
            Some(route) => route.group(decoder, record)?,
            None => 0,
        };
        if self.keep {
            // The footer checked on reading, not computed again.
            append_framed_with_crc(&mut out.bytes, record.payload, record.footer());
        }
        out.records.push((group, out.bytes.len()));
        Ok(())
    }
}

/// How split chooses a record's group.
#[derive(Debug)]
pub struct Route {
    /// Upper ends of the groups' shares of [0, 1), cumulative; the last is 1.
    ends: Vec<f64>,
    seed: u64,
    /// `--by`: the feature whose values are hashed (an Example's feature, a
    /// SequenceExample's context feature), and whether a record read has it.
    by: Option<String>,
    sought: Sought,
}

impl Route {
    /// Groups with these weights (positive, any scale), hashed with `seed`.
    pub fn new(weights: &[f64], seed: u64, by: Option<String>) -> Result<Route> {
        if weights.is_empty() || weights.iter().any(|w| !(w.is_finite() && *w > 0.0)) {
            bail!("each ratio must be a positive number");
        }
        // Scaled by the largest first: each is then in (0, 1] and their sum
        // at most their number, finite whatever the weights (1e308 twice
        // would otherwise sum to infinity and send every record to the last).
        let largest = weights.iter().copied().fold(0.0, f64::max);
        let scaled: Vec<f64> = weights.iter().map(|w| w / largest).collect();
        let total: f64 = scaled.iter().sum();
        let mut acc = 0.0;
        let mut ends: Vec<f64> = scaled
            .iter()
            .map(|w| {
                acc += w;
                acc / total
            })
            .collect();
        *ends.last_mut().expect("not empty") = 1.0;
        let sought = Sought::new(by.as_deref());
        Ok(Route { ends, seed, by, sought })
    }

    /// Each group's share of [0, 1) (what --ratio asks of it).
    pub fn shares(&self) -> Vec<f64> {
        let mut start = 0.0;
        self.ends
            .iter()
            .map(|&end| {
                let share = end - start;
                start = end;
                share
            })
            .collect()
    }

    /// `--by`: the feature if no record read has it (with a likely name meant).
    pub fn unmatched(&self) -> Vec<Unmatched> {
        self.sought.unmatched()
    }

    /// The group of a hash: where its top 53 bits, as a fraction of 1,
    /// fall among the cumulative shares.
    pub fn group_of(&self, hash: u64) -> u32 {
        let u = (mix(hash) >> 11) as f64 / (1u64 << 53) as f64;
        self.ends.iter().position(|&end| u < end).unwrap_or(self.ends.len() - 1) as u32
    }

    /// The group of one record.
    pub fn group(&self, decoder: &mut Decoder, record: &Record<'_>) -> Result<u32> {
        let hash = match &self.by {
            None => xxhash_rust::xxh3::xxh3_64_with_seed(record.payload, self.seed),
            Some(name) => {
                let mut key = Vec::with_capacity(64);
                self.hash_feature(decoder, record, name, &mut key)?
            }
        };
        Ok(self.group_of(hash))
    }

    /// With `--by`: the group of one record and the hash of its key, the
    /// key appended to `keys` (see [`describe_key`]).
    pub fn group_keyed(&self, decoder: &mut Decoder, record: &Record<'_>, keys: &mut Vec<u8>) -> Result<(u32, u64)> {
        let name = self.by.as_deref().unwrap_or_default();
        let hash = self.hash_feature(decoder, record, name, keys)?;
        Ok((self.group_of(hash), hash))
    }

    /// The hash of feature `name`'s values: its kind and each value (int64
    /// and float as 8 and 4 little-endian bytes, bytes with their length),
    /// so equal values hash equal whatever the record's other features or
    /// their order. A record without it hashes as "missing": all such
    /// records go to one split.
    fn hash_feature(&self, decoder: &mut Decoder, record: &Record<'_>, name: &str, key: &mut Vec<u8>) -> Result<u64> {
        let features = crate::example::filter::features_or_context(decoder, record.ty, record.strict, record.payload);
        let Some(features) = features else {
            bail!(
                "{}: --by {name}: the records are {}; --by reads a feature of an Example or a SequenceExample's context",
                record.name,
                record.ty.name()
            )
        };
        let features =
            features.map_err(|e| super::batches::decode_error(record.name, record.index, record.offset, e))?;
        self.sought.note(features);
        // The last entry of a name wins, as protobuf reads a map.
        let value = features.and_then(|f| {
            f.raw_entries()
                .filter(|(k, _)| *k == name.as_bytes())
                .last()
                .map(|(_, v)| v)
        });
        let start = key.len();
        match value {
            None => key.push(0xff),
            Some(v) => value_key(&v, key),
        }
        Ok(xxhash_rust::xxh3::xxh3_64_with_seed(&key[start..], self.seed))
    }
}

/// A final avalanche over the hash (murmur3's fmix64), so that its top
/// bits, which pick the split, depend on every bit (without it, xxh3 of
/// 20,000 short, similar payloads put 21.1% instead of 20% in one split,
/// 3.7 standard deviations off, for seed 0).
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The bytes a feature's values hash as.
fn value_key(v: &FeatureView<'_>, key: &mut Vec<u8>) {
    match v.kind() {
        Kind::None => key.push(0),
        Kind::Int64 => {
            key.push(1);
            v.int64s().for_each(|x| key.extend_from_slice(&x.to_le_bytes()));
        }
        Kind::Float => {
            key.push(2);
            // Every NaN is one value, whatever its bits (as count --by).
            v.floats().for_each(|x| {
                let x = if x.is_nan() { f32::NAN } else { x };
                key.extend_from_slice(&x.to_bits().to_le_bytes())
            });
        }
        Kind::Bytes => {
            key.push(3);
            v.bytes().for_each(|x| {
                key.extend_from_slice(&(x.len() as u64).to_le_bytes());
                key.extend_from_slice(x);
            });
        }
    }
}

/// A key as [`value_key`] wrote it, for people: `(missing)`, `(no kind)`,
/// one value as it is (a string quoted), several as a list.
pub fn describe_key(key: &[u8]) -> String {
    let Some((&tag, rest)) = key.split_first() else {
        return String::new();
    };
    let mut values: Vec<String> = Vec::new();
    match tag {
        0xff => return "(missing)".to_owned(),
        0 => return "(no kind)".to_owned(),
        1 => values.extend(
            rest.chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().unwrap_or_default()).to_string()),
        ),
        2 => values.extend(
            rest.chunks_exact(4)
                .map(|c| f32::from_bits(u32::from_le_bytes(c.try_into().unwrap_or_default())).to_string()),
        ),
        _ => {
            let mut at = rest;
            while at.len() >= 8 {
                let n = (u64::from_le_bytes(at[..8].try_into().unwrap_or_default()) as usize).min(at.len() - 8);
                let v = &at[8..8 + n];
                values.push(match std::str::from_utf8(v) {
                    Ok(t) => format!("{t:?}"),
                    Err(_) => format!("<{} bytes>", v.len()),
                });
                at = &at[8 + n..];
            }
        }
    }
    match values.len() {
        0 => "(no values)".to_owned(),
        1 => values.swap_remove(0),
        _ => format!("[{}]", values.join(", ")),
    }
}

/// Distinct `--by` keys counted by [`Keys`]: 7/8 of 2^19, what a table of
/// 2^19 slots holds (about 13 MB; 20 MB while it grows into it); later new
/// keys are not counted.
pub const MAX_KEYS: usize = 458_752;

/// split `--by`: records and distinct keys per split, and the heaviest key.
#[derive(Debug, Default)]
pub struct Keys {
    /// Per key hash: its records and its group.
    counts: std::collections::HashMap<u64, (u64, u32)>,
    /// More than [`MAX_KEYS`] distinct keys were met.
    pub capped: bool,
    /// The key with the most records: its hash, records, group and bytes.
    heaviest: Option<(u64, u64, u32, Vec<u8>)>,
}

impl Keys {
    /// Tallies one batch's records (in record order).
    pub fn add(&mut self, framed: &Framed) {
        let mut start = 0;
        for (&(group, _), &(hash, end)) in framed.records.iter().zip(&framed.key_ends) {
            let key = &framed.keys[start.min(end)..end];
            start = end;
            let full = self.counts.len() >= MAX_KEYS;
            let n = match self.counts.entry(hash) {
                Entry::Occupied(mut e) => {
                    e.get_mut().0 += 1;
                    e.get().0
                }
                Entry::Vacant(e) if !full => e.insert((1, group)).0,
                Entry::Vacant(_) => {
                    self.capped = true;
                    continue;
                }
            };
            match &mut self.heaviest {
                Some((h, most, ..)) if *h == hash => *most = n,
                Some((_, most, ..)) if *most >= n => {}
                _ => self.heaviest = Some((hash, n, group, key.to_vec())),
            }
        }
    }

    /// Distinct keys counted per group (of `groups`).
    pub fn per_group(&self, groups: usize) -> Vec<u64> {
        let mut keys = vec![0u64; groups];
        for &(_, g) in self.counts.values() {
            if let Some(k) = keys.get_mut(g as usize) {
                *k += 1;
            }
        }
        keys
    }

    /// The key with the most records: described, its records and group.
    pub fn heaviest(&self) -> Option<(String, u64, u32)> {
        self.heaviest.as_ref().map(|(_, n, g, key)| (describe_key(key), *n, *g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_follow_the_ratios() {
        let route = Route::new(&[8.0, 1.0, 1.0], 0, None).unwrap();
        let mut counts = [0u32; 3];
        for i in 0..100_000u64 {
            counts[route.group_of(xxhash_rust::xxh3::xxh3_64_with_seed(&i.to_le_bytes(), 7)) as usize] += 1;
        }
        assert!((79_000..81_000).contains(&counts[0]), "{counts:?}");
        assert!((9_500..10_500).contains(&counts[1]), "{counts:?}");
        assert!((9_500..10_500).contains(&counts[2]), "{counts:?}");
        assert_eq!(route.group_of(0), 0, "mix(0) is 0");
        // Weights whose sum overflows, or that underflow when divided by
        // their sum, still share the records as their ratios say.
        for weights in [[1e308, 1e308], [f64::MAX, f64::MAX], [5e-324, 5e-324]] {
            let route = Route::new(&weights, 0, None).unwrap();
            assert_eq!(route.ends, [0.5, 1.0], "{weights:?}");
        }
        assert!(Route::new(&[1.0, 0.0], 0, None).is_err());
        assert!(Route::new(&[], 0, None).is_err());
    }
}

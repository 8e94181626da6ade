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
use crate::example::{Decoder, FeatureView, Kind, MessageType};
use crate::record::append_framed_with_crc;
use anyhow::{bail, Result};

/// What one batch becomes: its records framed, back to back, and per
/// record its group and where it ends in `bytes`.
#[derive(Default)]
pub struct Framed {
    pub bytes: Vec<u8>,
    pub records: Vec<(u32, usize)>,
}

impl Output for Framed {
    fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.records.clear();
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
    /// SequenceExample's context feature).
    by: Option<String>,
}

impl Route {
    /// Groups with these weights (positive, any scale), hashed with `seed`.
    pub fn new(weights: &[f64], seed: u64, by: Option<String>) -> Result<Route> {
        if weights.is_empty() || weights.iter().any(|w| !(w.is_finite() && *w > 0.0)) {
            bail!("each ratio must be a positive number");
        }
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        let mut ends: Vec<f64> = weights
            .iter()
            .map(|w| {
                acc += w;
                acc / total
            })
            .collect();
        *ends.last_mut().expect("not empty") = 1.0;
        Ok(Route { ends, seed, by })
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
            Some(name) => self.hash_feature(decoder, record, name)?,
        };
        Ok(self.group_of(hash))
    }

    /// The hash of feature `name`'s values: its kind and each value (int64
    /// and float as 8 and 4 little-endian bytes, bytes with their length),
    /// so equal values hash equal whatever the record's other features or
    /// their order. A record without it hashes as "missing": all such
    /// records go to one split.
    fn hash_feature(&self, decoder: &mut Decoder, record: &Record<'_>, name: &str) -> Result<u64> {
        let features = match record.ty {
            MessageType::Example => decoder.example(record.payload, record.strict).map(|e| e.features()),
            MessageType::SequenceExample => decoder
                .sequence_example(record.payload, record.strict)
                .map(|s| s.context()),
            other => bail!(
                "{}: --by {name}: the records are {}; --by reads a feature of an Example or a SequenceExample's context",
                record.name,
                other.name()
            ),
        }
        .map_err(|e| super::batches::decode_error(record.name, record.index, record.offset, e))?;
        // The last entry of a name wins, as protobuf reads a map.
        let value = features.and_then(|f| {
            f.raw_entries()
                .filter(|(k, _)| *k == name.as_bytes())
                .last()
                .map(|(_, v)| v)
        });
        let mut key = Vec::with_capacity(64);
        match value {
            None => key.push(0xff),
            Some(v) => value_key(&v, &mut key),
        }
        Ok(xxhash_rust::xxh3::xxh3_64_with_seed(&key, self.seed))
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
            v.floats()
                .for_each(|x| key.extend_from_slice(&x.to_bits().to_le_bytes()));
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
        assert!(Route::new(&[1.0, 0.0], 0, None).is_err());
        assert!(Route::new(&[], 0, None).is_err());
    }
}

//! Per-feature statistics over many records: what `tfr schema` infers.
//!
//! A [`Collector`] takes decoded [`ExampleView`]s or
//! [`SequenceExampleView`]s one at a time and keeps one aggregate per
//! feature name ([`FeatureStats`]): memory grows with the number of distinct
//! features, never with the number of records. Feature names are interned
//! once; after the first records, adding a record allocates nothing (a
//! cache of the previous record's key order makes the lookup a string
//! comparison when records share their layout, as TensorFlow-written
//! datasets do).
//!
//! Semantics, chosen to match how TensorFlow's parsers read the records:
//! - A key repeated within one record counts once, with its **last**
//!   occurrence (protobuf's map rule, which `tf.io.parse_example` follows).
//! - A Feature with no kind set counts as present with zero values (it is
//!   what `tf.io.parse_single_sequence_example` does; `parse_example` treats
//!   it as missing, so a spec built on "zero values" stays valid for both).
//! - Feature lists (SequenceExample) are counted per record (present,
//!   number of steps) and per step (kind, values per step, value stats).
//! - An ExampleListWithContext's context features are counted per record
//!   (as an Example's), its examples' features per example: "present"
//!   counts examples, out of [`Collector::example_count`].

use super::deep::Deep;
use crate::example::view::ElwcParts;
use crate::example::{
    elwc, Decoder, ExampleView, FeatureListView, FeatureListsView, FeatureView, FeaturesView, Kind, SequenceExampleView,
};
use std::collections::HashMap;

/// The three value kinds, in the order used by per-kind arrays.
pub const KINDS: [Kind; 3] = [Kind::Int64, Kind::Float, Kind::Bytes];

/// The index of `kind` in [`KINDS`], `None` for [`Kind::None`].
#[inline]
pub fn kind_index(kind: Kind) -> Option<usize> {
    match kind {
        Kind::Int64 => Some(0),
        Kind::Float => Some(1),
        Kind::Bytes => Some(2),
        Kind::None => None,
    }
}

/// Where something was first seen: input number (0-based, in the order the
/// inputs were given) and record index within that input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The input's number.
    pub input: u32,
    /// The record's index in that input.
    pub record: u64,
}

/// Minimum and maximum of a count over its occurrences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Occurrences counted.
    pub n: u64,
    /// The smallest count.
    pub min: u64,
    /// The largest count.
    pub max: u64,
}

impl Default for Counts {
    fn default() -> Self {
        Counts {
            n: 0,
            min: u64::MAX,
            max: 0,
        }
    }
}

impl Counts {
    #[inline]
    fn add(&mut self, v: u64) {
        self.n += 1;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    fn merge(&mut self, o: &Counts) {
        self.n += o.n;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    /// `(min, max)`, or `None` when nothing was counted.
    pub fn range(&self) -> Option<(u64, u64)> {
        (self.n > 0).then_some((self.min, self.max))
    }

    /// Whether every occurrence had the same count.
    pub fn is_fixed(&self) -> bool {
        self.n > 0 && self.min == self.max
    }
}

/// Statistics of int64 values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntStats {
    /// Values.
    pub count: u64,
    /// The smallest value.
    pub min: i64,
    /// The largest value.
    pub max: i64,
}

impl Default for IntStats {
    fn default() -> Self {
        IntStats {
            count: 0,
            min: i64::MAX,
            max: i64::MIN,
        }
    }
}

/// Statistics of float32 values: min / max ignore NaN (and include the
/// infinities, which are also counted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatStats {
    /// Values (NaN and infinities included).
    pub count: u64,
    /// NaN values.
    pub nan: u64,
    /// +infinity values.
    pub pos_inf: u64,
    /// -infinity values.
    pub neg_inf: u64,
    /// The smallest value that is not NaN.
    pub min: f32,
    /// The largest value that is not NaN.
    pub max: f32,
}

impl Default for FloatStats {
    fn default() -> Self {
        FloatStats {
            count: 0,
            nan: 0,
            pos_inf: 0,
            neg_inf: 0,
            min: f32::INFINITY,
            max: f32::NEG_INFINITY,
        }
    }
}

impl IntStats {
    fn merge(&mut self, o: &IntStats) {
        self.count += o.count;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }
}

impl FloatStats {
    fn merge(&mut self, o: &FloatStats) {
        self.count += o.count;
        self.nan += o.nan;
        self.pos_inf += o.pos_inf;
        self.neg_inf += o.neg_inf;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    /// `(min, max)` over the values that are not NaN.
    pub fn range(&self) -> Option<(f32, f32)> {
        (self.count > self.nan).then_some((self.min, self.max))
    }
}

pub use crate::example::media::{sniff, Media};
use crate::example::Keep;

/// Statistics of bytes values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BytesStats {
    /// Values.
    pub count: u64,
    /// Values that are valid UTF-8 (the empty value included).
    pub utf8: u64,
    /// Values of length 0 (not sniffed).
    pub empty: u64,
    /// The shortest value's length.
    pub shortest: u64,
    /// The longest value's length.
    pub longest: u64,
    /// All values' lengths added up.
    pub total_len: u64,
    /// Non-empty values per [`Media`], in the order of [`Media::ALL`].
    pub media: [u64; 8],
}

impl Default for BytesStats {
    fn default() -> Self {
        BytesStats {
            count: 0,
            utf8: 0,
            empty: 0,
            shortest: u64::MAX,
            longest: 0,
            total_len: 0,
            media: [0; 8],
        }
    }
}

impl BytesStats {
    #[inline]
    fn add(&mut self, v: &[u8]) {
        self.count += 1;
        let len = v.len() as u64;
        self.shortest = self.shortest.min(len);
        self.longest = self.longest.max(len);
        self.total_len += len;
        if v.is_empty() {
            self.empty += 1;
            self.utf8 += 1;
            return;
        }
        let utf8 = std::str::from_utf8(v).is_ok();
        self.utf8 += u64::from(utf8);
        self.media[sniff(v, utf8) as usize] += 1;
    }

    fn merge(&mut self, o: &BytesStats) {
        self.count += o.count;
        self.utf8 += o.utf8;
        self.empty += o.empty;
        self.shortest = self.shortest.min(o.shortest);
        self.longest = self.longest.max(o.longest);
        self.total_len += o.total_len;
        for (a, b) in self.media.iter_mut().zip(o.media) {
            *a += b;
        }
    }

    /// The media types seen, most frequent first (ties in [`Media::ALL`] order).
    pub fn media_types(&self) -> Vec<(Media, u64)> {
        let mut m: Vec<(Media, u64)> = Media::ALL
            .iter()
            .zip(self.media)
            .filter(|(_, n)| *n > 0)
            .map(|(m, n)| (*m, n))
            .collect();
        m.sort_by_key(|m| std::cmp::Reverse(m.1));
        m
    }
}

/// Everything known about one feature (or one feature list).
#[derive(Clone, Debug)]
pub struct FeatureStats {
    /// The feature's name.
    pub name: Box<str>,
    /// Records in which the key appears.
    pub present: u64,
    /// Occurrences (features; steps for feature lists) with no kind set.
    pub no_kind: u64,
    /// Occurrences with each kind, in [`KINDS`] order.
    pub kind_count: [u64; 3],
    /// Where each kind was first seen, in [`KINDS`] order.
    pub first_seen: [Option<Seen>; 3],
    /// Values per record (Example, context) or per step (feature lists);
    /// an occurrence with no kind counts as zero values.
    pub values: Counts,
    /// Feature lists only: steps per record.
    pub steps: Counts,
    /// Its int64 values.
    pub int64: IntStats,
    /// Its float values.
    pub float: FloatStats,
    /// Its bytes values.
    pub bytes: BytesStats,
    /// The inputs (0-based, ascending) with at least one record holding the key.
    pub inputs: Vec<u32>,
    /// The full statistics (`tfr stats`), when the collector keeps them.
    pub deep: Option<Box<Deep>>,
    /// Scratch: the record stamp and entry position of the last occurrence.
    stamp: u64,
    pos: u32,
}

impl FeatureStats {
    pub(crate) fn new(name: &str, deep: bool) -> Self {
        FeatureStats {
            deep: deep.then(Box::default),
            name: name.into(),
            present: 0,
            no_kind: 0,
            kind_count: [0; 3],
            first_seen: [None; 3],
            values: Counts::default(),
            steps: Counts::default(),
            int64: IntStats::default(),
            float: FloatStats::default(),
            bytes: BytesStats::default(),
            inputs: Vec::new(),
            stamp: 0,
            pos: 0,
        }
    }

    /// Adds the statistics of the same feature over other records.
    fn merge(&mut self, o: &FeatureStats) {
        self.present += o.present;
        self.no_kind += o.no_kind;
        for k in 0..3 {
            self.kind_count[k] += o.kind_count[k];
            self.first_seen[k] = match (self.first_seen[k], o.first_seen[k]) {
                (Some(a), Some(b)) => Some(if (b.input, b.record) < (a.input, a.record) {
                    b
                } else {
                    a
                }),
                (a, b) => a.or(b),
            };
        }
        self.values.merge(&o.values);
        self.steps.merge(&o.steps);
        self.int64.merge(&o.int64);
        self.float.merge(&o.float);
        self.bytes.merge(&o.bytes);
        self.inputs.extend_from_slice(&o.inputs);
        self.inputs.sort_unstable();
        self.inputs.dedup();
        if let (Some(a), Some(b)) = (&mut self.deep, &o.deep) {
            a.merge(b);
        }
    }

    /// The kinds seen, in the order they were first seen.
    pub fn kinds(&self) -> Vec<Kind> {
        let mut k: Vec<(Seen, Kind)> = KINDS
            .iter()
            .zip(self.first_seen)
            .filter_map(|(k, s)| s.map(|s| (s, *k)))
            .collect();
        k.sort_by_key(|(s, _)| (s.input, s.record));
        k.into_iter().map(|(_, k)| k).collect()
    }

    /// The one kind seen, or `None` for no kind or several.
    pub fn kind(&self) -> Option<Kind> {
        match self.kinds().as_slice() {
            [k] => Some(*k),
            _ => None,
        }
    }

    /// More than one kind was seen.
    pub fn is_conflict(&self) -> bool {
        self.kind_count.iter().filter(|n| **n > 0).count() > 1
    }

    /// Present, but never with a value.
    pub fn is_always_empty(&self) -> bool {
        self.present > 0 && self.values.max == 0
    }

    #[inline]
    fn mark_present(&mut self, input: u32) {
        self.present += 1;
        if self.inputs.last() != Some(&input) {
            self.inputs.push(input);
        }
    }

    /// Adds one Feature: only its number of values, its kind and, for
    /// bytes, how many values are UTF-8 (what a column plan needs: see
    /// [`Collector::keep_light`]); returns its number of values.
    #[inline]
    fn add_feature_light(&mut self, f: &FeatureView<'_>, at: Seen) -> u64 {
        let n = match f.kind() {
            Kind::None => {
                self.no_kind += 1;
                0
            }
            Kind::Int64 => {
                let n = f.count() as u64;
                self.int64.count += n;
                n
            }
            Kind::Float => {
                let n = f.count() as u64;
                self.float.count += n;
                n
            }
            Kind::Bytes => {
                let mut n = 0u64;
                for v in f.bytes() {
                    n += 1;
                    self.bytes.utf8 += u64::from(std::str::from_utf8(v).is_ok());
                }
                self.bytes.count += n;
                n
            }
        };
        self.note_kind(f.kind(), at);
        self.values.add(n);
        n
    }

    /// Counts an occurrence of `kind`.
    #[inline]
    fn note_kind(&mut self, kind: Kind, at: Seen) {
        if let Some(k) = kind_index(kind) {
            self.kind_count[k] += 1;
            if self.first_seen[k].is_none() {
                self.first_seen[k] = Some(at);
            }
        }
    }

    /// Adds one Feature; returns its number of values.
    #[inline]
    fn add_feature(&mut self, f: &FeatureView<'_>, at: Seen) -> u64 {
        let n = match f.kind() {
            Kind::None => {
                self.no_kind += 1;
                0
            }
            Kind::Int64 => {
                let s = &mut self.int64;
                let mut n = 0u64;
                for v in f.int64s() {
                    n += 1;
                    s.min = s.min.min(v);
                    s.max = s.max.max(v);
                }
                s.count += n;
                n
            }
            Kind::Float => {
                let s = &mut self.float;
                let mut n = 0u64;
                for v in f.floats() {
                    n += 1;
                    if v.is_nan() {
                        s.nan += 1;
                        continue;
                    }
                    s.min = s.min.min(v);
                    s.max = s.max.max(v);
                    if v.is_infinite() {
                        if v > 0.0 {
                            s.pos_inf += 1;
                        } else {
                            s.neg_inf += 1;
                        }
                    }
                }
                s.count += n;
                n
            }
            Kind::Bytes => {
                let mut n = 0u64;
                for v in f.bytes() {
                    n += 1;
                    self.bytes.add(v);
                }
                n
            }
        };
        self.note_kind(f.kind(), at);
        self.values.add(n);
        if let Some(d) = &mut self.deep {
            // TFDV counts a Feature with no kind set as missing.
            if f.kind() != Kind::None {
                d.counts.add(n as f64);
            }
            match f.kind() {
                Kind::Int64 => f.int64s().for_each(|v| d.int.add(v as f64)),
                Kind::Float => f
                    .floats()
                    .filter(|v| !v.is_nan())
                    .for_each(|v| d.float.add(f64::from(v))),
                Kind::Bytes => f.bytes().for_each(|v| d.add_bytes(v)),
                Kind::None => {}
            }
        }
        n
    }
}
/// Accumulates the statistics of a dataset, one record at a time.
#[derive(Clone, Debug, Default)]
pub struct Collector {
    /// Records added.
    pub records: u64,
    /// Records added per input.
    pub per_input: Vec<u64>,
    /// Example features, or SequenceExample context features.
    pub features: FeatureTable,
    /// SequenceExample feature lists.
    pub feature_lists: FeatureTable,
    /// ExampleListWithContext: the features of the examples (the
    /// context's are in `features`).
    pub examples: FeatureTable,
    /// ExampleListWithContext: examples added (what `examples`' presence
    /// counts out of).
    pub example_count: u64,
    /// The records' annotations (boxes per image and per class), when the
    /// scan reads them ([`super::scan::Options::annotate`]).
    pub annotations: crate::annotate::check::Tally,
}

impl Collector {
    /// An empty collector.
    pub fn new() -> Self {
        Collector::default()
    }

    /// A collector keeping the full statistics of every feature
    /// ([`Deep`]: quantiles, moments, distinct and most frequent values).
    pub fn deep() -> Self {
        let mut c = Collector::default();
        c.keep_deep();
        c
    }

    /// Makes features seen from now on keep full statistics.
    pub fn keep_deep(&mut self) {
        for t in [&mut self.features, &mut self.feature_lists, &mut self.examples] {
            t.deep = true;
        }
    }

    /// Makes the collector count only what a column plan needs
    /// (`to-parquet`, `to-arrow`): per feature its kinds, presence, values
    /// per record and, for bytes, the count and how many are UTF-8. Value
    /// ranges, float NaN/infinity counts, byte lengths and media types are
    /// left at their defaults, so its statistics are not for display.
    pub fn keep_light(&mut self) {
        for t in [&mut self.features, &mut self.feature_lists, &mut self.examples] {
            t.light = true;
        }
    }

    /// Whether the collector counts only what a column plan needs.
    pub fn is_light(&self) -> bool {
        self.features.light
    }

    /// Whether the collector keeps full statistics.
    pub fn is_deep(&self) -> bool {
        self.features.deep
    }

    /// Folds the values gathered since the last call into the summaries
    /// (sorting them): done per batch on the worker's thread, so merging
    /// is cheap.
    pub fn seal(&mut self) {
        for t in [&mut self.features, &mut self.feature_lists, &mut self.examples] {
            for f in &mut t.stats {
                if let Some(d) = &mut f.deep {
                    d.seal();
                }
            }
        }
    }

    /// Counts one record of `input`.
    #[inline]
    fn count(&mut self, input: u32) {
        self.records += 1;
        let i = input as usize;
        if i >= self.per_input.len() {
            self.per_input.resize(i + 1, 0);
        }
        self.per_input[i] += 1;
    }

    /// Numbers the inputs from `by` instead of 0 (before merging with the
    /// statistics of `by` other inputs).
    pub fn shift_inputs(&mut self, by: u32) {
        let mut per = vec![0; by as usize];
        per.append(&mut self.per_input);
        self.per_input = per;
        for t in [&mut self.features, &mut self.feature_lists, &mut self.examples] {
            for f in &mut t.stats {
                for s in f.first_seen.iter_mut().flatten() {
                    s.input += by;
                }
                for i in &mut f.inputs {
                    *i += by;
                }
            }
        }
        self.annotations.shift_inputs(u64::from(by));
    }

    /// Adds the statistics of other records (of the same dataset).
    pub fn merge(&mut self, o: &Collector) {
        self.records += o.records;
        if o.per_input.len() > self.per_input.len() {
            self.per_input.resize(o.per_input.len(), 0);
        }
        for (a, b) in self.per_input.iter_mut().zip(&o.per_input) {
            *a += b;
        }
        self.features.merge(&o.features);
        self.feature_lists.merge(&o.feature_lists);
        self.examples.merge(&o.examples);
        self.example_count += o.example_count;
        if o.annotations.records > 0 {
            self.annotations.merge(o.annotations.clone());
        }
    }

    /// Adds an Example: record `record` of input `input`.
    pub fn add_example(&mut self, ex: &ExampleView<'_>, input: u32, record: u64) {
        self.add_example_where(ex, input, record, &|_| true);
    }

    /// [`Self::add_example`], counting only the features `keep` names.
    pub fn add_example_where(&mut self, ex: &ExampleView<'_>, input: u32, record: u64, keep: Keep<'_>) {
        self.count(input);
        if let Some(f) = ex.features() {
            self.features
                .add_features(&f, Seen { input, record }, self.records, keep);
        }
    }

    /// Adds a SequenceExample: record `record` of input `input`.
    pub fn add_sequence(&mut self, se: &SequenceExampleView<'_>, input: u32, record: u64) {
        self.add_sequence_where(se, input, record, &|_| true);
    }

    /// [`Self::add_sequence`], counting only the context features and
    /// feature lists `keep` names.
    pub fn add_sequence_where(&mut self, se: &SequenceExampleView<'_>, input: u32, record: u64, keep: Keep<'_>) {
        self.count(input);
        let at = Seen { input, record };
        if let Some(c) = se.context() {
            self.features.add_features(&c, at, self.records, keep);
        }
        if let Some(l) = se.feature_lists() {
            self.feature_lists.add_feature_lists(&l, at, self.records, keep);
        }
    }

    /// Adds an ExampleListWithContext, checked into `parts` by
    /// [`elwc::checked`]: record `record` of input `input`, counting only
    /// the features `keep` names.
    pub(crate) fn add_elwc_where(
        &mut self,
        decoder: &mut Decoder,
        payload: &[u8],
        parts: &ElwcParts<'_>,
        at: (u32, u64),
        keep: Keep<'_>,
    ) {
        let (input, record) = at;
        self.count(input);
        let at = Seen { input, record };
        let records = self.records;
        let features = &mut self.features;
        elwc::with_context(decoder, payload, parts, |view| {
            if let Some(f) = view.features() {
                features.add_features(&f, at, records, keep);
            }
        });
        let (examples, count) = (&mut self.examples, &mut self.example_count);
        elwc::each_example(decoder, payload, parts, |view| {
            *count += 1;
            if let Some(f) = view.features() {
                examples.add_features(&f, at, *count, keep);
            }
        });
    }
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;

mod table;
#[cfg(test)]
use table::recycle;
pub use table::{FeatureTable, MAX_FEATURES};

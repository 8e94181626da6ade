//! What a dataset holds, per feature: one scan over the records
//! ([`scan()`]), its statistics ([`stats`]), and two renderings of them
//! ([`json`], [`tf`]); the table is drawn by the `schema` command.
//!
//! One pass over the records of every input (shards taken as one dataset);
//! only per-feature aggregates are kept ([`stats`]), so
//! memory is bounded by the number of features, not records.
//!
//! # `--format json`
//!
//! One pretty-printed JSON document. Keys are stable; new keys may be added.
//! `tfr from-jsonl --schema` reads only `type` and the `kind` of each
//! feature.
//!
//! ```jsonc
//! {
//!   "type": "example",          // or "sequence" (tf.train.SequenceExample)
//!   "records": 200,             // records scanned
//!   "complete": true,           // false: stopped by --limit or by an error
//!   "error": "...",             // only when an error stopped the scan
//!   "inputs": [{"file": "train.tfrecord", "records": 200, "compression": "none"}],
//!   "untracked": {"limit": 5000, "features": {"count": 5, "lower_bound": false}},
//!                               // only when a section had more distinct names than
//!                               // the limit: those past it have no statistics
//!                               // ("context"/"feature_lists" for SequenceExample)
//!   "features": {"NAME": FEATURE, ...},       // Example only
//!   "context": {"NAME": FEATURE, ...},        // SequenceExample only
//!   "feature_lists": {"NAME": FEATURE, ...}   // SequenceExample only
//! }
//! FEATURE = {
//!   "kind": "int64" | "float" | "bytes"
//!         | "conflict"          // several kinds seen: see "kinds"
//!         | "none",             // never had a kind set (only empty `Feature {}`)
//!   "kinds": ["int64", "float"],// every kind seen, in the order first seen
//!   "first_seen": {"int64": {"file": "a.tfrecord", "record": 0}, ...},
//!   "present": 200,             // records holding the key
//!   "missing": 0,               // records without it
//!   "no_kind": 0,               // occurrences with no kind set (count as 0 values)
//!   "values": {"min": 1, "max": 1, "fixed": true},  // values per record; per
//!                               // step for feature lists; null if no occurrence
//!   "steps": {"min": 1, "max": 4, "fixed": false},  // feature lists only: steps per record
//!   "int64": {"count": 200, "min": 0, "max": 4},    // when int64 values were seen
//!   "float": {"count": 200, "min": -2.5, "max": 2.3, "nan": 0, "inf": 0, "-inf": 0},
//!                               // min/max ignore NaN; ±inf as "Infinity"/"-Infinity";
//!                               // null when every value is NaN
//!   "bytes": {"count": 200, "utf8": 1.0, "empty": 0, "shortest": 3, "longest": 7,
//!             "media": {"text": 200}},   // media: jpeg png gif webp tensor_proto json text binary
//!   "absent_in": ["b.tfrecord"],// inputs with records, none holding the key
//!   "flags": ["conflict", "always_empty", "absent_in_shards"]  // those that apply
//! }
//! ```
//!
//! # `--format tf`
//!
//! A Python snippet defining `feature_description` (Example) or
//! `context_features` and `sequence_features` (SequenceExample):
//! `tf.io.FixedLenFeature([n], dtype)` (shape `[]` for one value) where every
//! record has the same number of values, with a `default_value` where the
//! feature is sometimes missing; `tf.io.FixedLenSequenceFeature([n], dtype)`
//! (`allow_missing=True` where needed) where every step has the same number;
//! `tf.io.VarLenFeature(dtype)` otherwise, and for features that are always
//! empty (a zero-size FixedLen shape crashes TensorFlow 2.21's sequence
//! parser). A feature whose kind conflicts between records, or that never
//! has a kind, cannot be parsed with any single dtype: it is left out, with
//! a comment saying why. The spec parses every scanned record (checked
//! against TensorFlow by tests/oracle/check_schema.py).

// The table (in the CLI) uses most of these; the library only a few.
pub mod deep;
pub mod describe;
pub mod json;
pub mod saved;
mod scan;
pub mod stats;
pub mod summary;
pub mod tf;
pub mod tfdv;

pub use scan::{scan, KeepShared, Options};

use crate::example::MessageType;
use crate::io::Compression;
use stats::Collector;

/// One input as scanned.
pub struct FileScan {
    /// Its display name.
    pub name: String,
    /// Its compression.
    pub compression: Compression,
}

/// The result of the scan.
pub struct Scan {
    /// The payload type the records were read as.
    pub ty: MessageType,
    /// The statistics.
    pub stats: Collector,
    /// The inputs, in order.
    pub files: Vec<FileScan>,
    /// Stopped by --limit before the end of the inputs.
    pub limited: bool,
    /// The error that stopped the scan, if any.
    pub error: Option<String>,
}

/// A table of a scan's statistics: whose features it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// An Example's features.
    Features,
    /// A SequenceExample's or an ExampleListWithContext's context.
    Context,
    /// A SequenceExample's feature lists (values per step).
    FeatureLists,
    /// The features of an ExampleListWithContext's examples.
    Examples,
}

impl Scan {
    /// The tables of the statistics in the order they are shown, each with
    /// the count its features are out of (records, or an ELWC's examples).
    pub fn parts(&self) -> Vec<(Part, &stats::FeatureTable, u64)> {
        let (s, records) = (&self.stats, self.stats.records);
        match self.ty {
            MessageType::SequenceExample => vec![
                (Part::Context, &s.features, records),
                (Part::FeatureLists, &s.feature_lists, records),
            ],
            MessageType::Elwc => vec![
                (Part::Context, &s.features, records),
                (Part::Examples, &s.examples, s.example_count),
            ],
            _ => vec![(Part::Features, &s.features, records)],
        }
    }

    /// Records scanned from input `i`.
    pub fn records_of(&self, i: usize) -> u64 {
        self.stats.per_input.get(i).copied().unwrap_or(0)
    }
}

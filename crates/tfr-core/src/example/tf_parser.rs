//! What a training job sees: TensorFlow's C++ Example parser
//! (`tf.io.parse_example`, `parse_single_example`; its "fast" parser) reads
//! some legal protobuf encodings differently from protobuf, which tfr
//! follows. [`check_example`] says, for one payload, whether TensorFlow
//! rejects it or reads other values, and why (`verify-crc --payloads`).
//!
//! The rules, each measured with TensorFlow 2.21 on hand-made encodings
//! (tests/oracle/gen_fixtures.py `make_payloads`, fixtures
//! `payloads_noncanonical.tfrecord` and
//! `payloads_sequence_noncanonical.tfrecord`, whose expected files hold
//! TensorFlow's verdict for every record):
//! - In the Example, only a `features` field whose tag is the one byte
//!   `0a` is read; any other field is skipped (an overlong tag hides the
//!   features), and a group rejects the record.
//! - In `Features`, every field must be a map entry with the one-byte tag
//!   `0a`; anything else rejects the record.
//! - A map entry must hold exactly two fields, a key and a value, in either
//!   order (tags may be overlong): a missing, repeated or unknown field
//!   rejects the record. A key given twice without a value is read as
//!   protobuf reads it (the last key, an empty Feature).
//! - Entries are read last first; the first byte of every one is checked
//!   (see below), an empty Feature is passed over, and a key already seen
//!   is skipped: the last non-empty entry of a key wins, where protobuf
//!   takes the last entry, empty or not (so does parse_example's batch path
//!   for VarLenFeature; parse_single_example and dense features read the
//!   earlier values: a record one path reads differently is flagged).
//! - A Feature is read from its first byte: `0a`, `12` or `1a` (bytes,
//!   float or int64 list) and that one list; whatever follows the list is
//!   ignored (a second list, of the same kind or another, is dropped where
//!   protobuf merges or replaces). An empty Feature is missing; any other
//!   first byte fails when the feature is parsed ("Unsupported datatype").
//! - In a float or int64 list, the first field decides: packed (`0a`) reads
//!   that one chunk and ignores the rest; unpacked (`0d` / `08`) requires
//!   every field to be unpacked. In a bytes list every field must be `0a`.
//!   Anything else fails when the feature is parsed.
//!
//! [`check_sequence`] models `tf.io.parse_sequence_example` /
//! `parse_single_sequence_example`, whose parser differs:
//! - At the top, `context` (`0a`) and `feature_lists` (`12`) are read,
//!   other fields skipped (a group rejects); several of either are merged.
//! - Every map entry (context and feature lists) must be exactly a key with
//!   tag `0a`, then a value with tag `12`: another order, an overlong tag,
//!   or any other field rejects the record.
//! - Context features are read as an Example's features are.
//! - A FeatureList must hold only steps (tag `0a`); each step is one list
//!   and nothing after it; its list is one packed chunk or unpacked values
//!   only. Anything else, and steps of different kinds, reject the record.

use super::view::{Decoder, FeatureListsView, FeatureView, FeaturesView, Kind};
use std::collections::HashMap;

/// TensorFlow's reading of a payload, against protobuf's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// TensorFlow reads what protobuf reads.
    Same,
    /// TensorFlow's parser fails on the record (when the feature named is
    /// parsed, for a failure inside one feature).
    Rejects(String),
    /// TensorFlow's parser reads other values.
    Differs(String),
    /// Protobuf does not parse it as an Example (tfr cannot either).
    NotProtobuf(String),
}

/// TensorFlow's C++ parser on `payload`, an Example, against protobuf's
/// reading (tfr's [`Decoder`]).
pub fn check_example(decoder: &mut Decoder, payload: &[u8]) -> Verdict {
    // Protobuf first: a payload that is no Example at all (text, say) is
    // said to be that, rather than what TensorFlow trips on in it.
    let view = match decoder.example(payload, false) {
        Ok(view) => view,
        Err(e) => return Verdict::NotProtobuf(e.to_string()),
    };
    let tf = match tf_maps(payload, false) {
        Ok(maps) => maps,
        Err(why) => return Verdict::Rejects(why.to_string()),
    };
    compare_features(&tf.context, view.features().as_ref(), "")
}

/// TensorFlow's C++ sequence parser on `payload`, a SequenceExample,
/// against protobuf's reading.
pub fn check_sequence(decoder: &mut Decoder, payload: &[u8]) -> Verdict {
    let view = match decoder.sequence_example(payload, false) {
        Ok(view) => view,
        Err(e) => return Verdict::NotProtobuf(e.to_string()),
    };
    let tf = match tf_maps(payload, true) {
        Ok(maps) => maps,
        Err(why) => return Verdict::Rejects(why.to_string()),
    };
    match compare_features(&tf.context, view.context().as_ref(), "context ") {
        Verdict::Same => compare_lists(&tf.lists, view.feature_lists().as_ref()),
        other => other,
    }
}

/// Protobuf's map, last entry of each key, and the keys in first-seen order.
fn last_wins<'a, V>(entries: impl Iterator<Item = (&'a str, V)>) -> (HashMap<&'a str, V>, Vec<&'a str>) {
    let (mut map, mut order) = (HashMap::new(), Vec::new());
    for (key, value) in entries {
        if map.insert(key, value).is_none() {
            order.push(key);
        }
    }
    (map, order)
}

/// TensorFlow's reading of a features map against protobuf's; `what`
/// prefixes the feature's name ("context ").
fn compare_features(tf: &HashMap<&[u8], &[u8]>, pb: Option<&FeaturesView<'_>>, what: &str) -> Verdict {
    let (protobuf, order) = last_wins(pb.into_iter().flat_map(|f| f.entries()));
    // Problems in protobuf's order of names, then names only TensorFlow sees.
    for key in &order {
        let pb = &protobuf[key];
        let Some(bytes) = tf.get(key.as_bytes()) else {
            if pb.kind() != Kind::None {
                return Verdict::Differs(format!(
                    "{what}feature {} is missing for TensorFlow (behind a tag TensorFlow does not read)",
                    quoted(key)
                ));
            }
            continue;
        };
        let read = match tf_feature(bytes) {
            Ok(read) => read,
            Err(why) => return Verdict::Rejects(format!("{what}feature {}: {why}", quoted(key))),
        };
        if let Some(why) = differs(&read.values, read.ignored, pb) {
            return Verdict::Differs(format!("{what}feature {}: {why}", quoted(key)));
        }
    }
    only_tensorflow(tf.keys(), &protobuf, what)
}

/// A name TensorFlow reads and protobuf does not.
fn only_tensorflow<V>(tf: impl Iterator<Item = impl AsRef<[u8]>>, pb: &HashMap<&str, V>, what: &str) -> Verdict {
    for key in tf {
        let key = key.as_ref();
        if !std::str::from_utf8(key).is_ok_and(|k| pb.contains_key(k)) {
            return Verdict::Differs(format!(
                "{what}feature {} is read by TensorFlow, not by protobuf",
                quoted(&String::from_utf8_lossy(key))
            ));
        }
    }
    Verdict::Same
}

/// TensorFlow's reading of the feature lists against protobuf's.
fn compare_lists(tf: &HashMap<&[u8], &[u8]>, pb: Option<&FeatureListsView<'_>>) -> Verdict {
    let (protobuf, order) = last_wins(pb.into_iter().flat_map(|l| l.entries()));
    for key in &order {
        let name = quoted(key);
        let pb = &protobuf[key];
        let Some(bytes) = tf.get(key.as_bytes()) else {
            if !pb.is_empty() {
                return Verdict::Differs(format!(
                    "feature list {name} is missing for TensorFlow (behind a tag TensorFlow does not read)"
                ));
            }
            continue;
        };
        let steps = match tf_steps(bytes) {
            Ok(steps) => steps,
            Err(why) => return Verdict::Rejects(format!("feature list {name}: {why}")),
        };
        if steps.len() != pb.len() {
            return Verdict::Differs(format!(
                "feature list {name}: TensorFlow reads {} steps, protobuf {}",
                steps.len(),
                pb.len()
            ));
        }
        for (i, (step, feature)) in steps.iter().zip(pb.features()).enumerate() {
            if let Some(why) = differs(step, Ignored::default(), &feature) {
                return Verdict::Differs(format!("feature list {name}, step {i}: {why}"));
            }
        }
    }
    only_tensorflow(tf.keys(), &protobuf, "list ")
}

fn quoted(key: &str) -> String {
    serde_json::to_string(key).unwrap_or_default()
}

/// A cursor over wire bytes, with CodedInputStream's reads.
struct Wire<'a> {
    b: &'a [u8],
}

impl<'a> Wire<'a> {
    fn at_end(&self) -> bool {
        self.b.is_empty()
    }

    fn peek(&self) -> Option<u8> {
        self.b.first().copied()
    }

    /// A varint of up to 10 bytes.
    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for i in 0..10 {
            let byte = *self.b.get(i)?;
            v |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                self.b = &self.b[i + 1..];
                return Some(v);
            }
        }
        None
    }

    fn take(&mut self, n: u64) -> Option<&'a [u8]> {
        let n = usize::try_from(n).ok()?;
        let (head, rest) = (self.b.get(..n)?, &self.b[n..]);
        self.b = rest;
        Some(head)
    }

    /// A length (varint, read as 32 bits) and that many bytes.
    fn len_delimited(&mut self) -> Option<&'a [u8]> {
        let n = self.varint()? as u32;
        self.take(u64::from(n))
    }

    /// The exact one-byte tag `tag` (CodedInputStream::ExpectTag).
    fn expect(&mut self, tag: u8) -> bool {
        if self.peek() == Some(tag) {
            self.b = &self.b[1..];
            true
        } else {
            false
        }
    }

    /// Skips a field TensorFlow does not read (SkipExtraneousTag): groups
    /// and invalid wire types fail.
    fn skip_field(&mut self) -> Result<(), Reject> {
        let tag = self.varint().ok_or(Reject::Truncated)?;
        let skipped = match tag & 7 {
            0 => self.varint().map(drop),
            1 => self.take(8).map(drop),
            2 => self.varint().map(|n| {
                // TensorFlow ignores a skip past the end.
                let n = (n as u32 as usize).min(self.b.len());
                self.b = &self.b[n..];
            }),
            5 => self.take(4).map(drop),
            3 | 4 => return Err(Reject::Group),
            _ => None,
        };
        skipped.ok_or(Reject::Truncated)
    }
}

/// Why TensorFlow's parser rejects a record.
#[derive(Clone, Debug)]
enum Reject {
    Group,
    Truncated,
    FeaturesField,
    Entry,
    SeqEntry,
    /// The feature's name, quoted.
    Datatype(String),
}

impl std::fmt::Display for Reject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Reject::Group => "a group field (TensorFlow: \"Could not parse example input\")",
            Reject::Truncated => "a field runs past its message (TensorFlow: \"Could not parse example input\")",
            Reject::FeaturesField => {
                "a field in Features other than a map entry with a one-byte tag (TensorFlow: \"Could not parse example input\")"
            }
            Reject::Entry => {
                "a map entry that is not exactly one key and one value (TensorFlow: \"Could not parse example input\")"
            }
            Reject::Datatype(name) => {
                return write!(
                    f,
                    "feature {name}: a Feature whose first byte is not a list tag, in any entry of its name (TensorFlow: \"Unsupported datatype\")"
                )
            }
            Reject::SeqEntry => {
                "a map entry that is not a key then a value, with one-byte tags and nothing else (TensorFlow: \"Bad ProtoBuf map<string, Feature>\")"
            }
        };
        f.write_str(text)
    }
}

/// The maps TensorFlow reads (the last entry of each key): an Example's
/// features, or a SequenceExample's context and feature lists.
struct TfMaps<'a> {
    context: HashMap<&'a [u8], &'a [u8]>,
    lists: HashMap<&'a [u8], &'a [u8]>,
}

fn tf_maps(payload: &[u8], sequence: bool) -> Result<TfMaps<'_>, Reject> {
    let (mut context, mut lists) = (Vec::new(), Vec::new());
    let mut top = Wire { b: payload };
    while !top.at_end() {
        let into = if top.expect(0x0a) {
            &mut context
        } else if sequence && top.expect(0x12) {
            &mut lists
        } else {
            top.skip_field()?;
            continue;
        };
        let map = top.len_delimited().ok_or(Reject::Truncated)?;
        let mut w = Wire { b: map };
        while !w.at_end() {
            if !w.expect(0x0a) {
                return Err(Reject::FeaturesField);
            }
            let entry = w.len_delimited().ok_or(Reject::Truncated)?;
            into.push(if sequence { seq_entry(entry)? } else { tf_entry(entry)? });
        }
    }
    Ok(TfMaps {
        context: if sequence {
            last_of_each(context)
        } else {
            example_features(context)?
        },
        lists: last_of_each(lists),
    })
}

/// The feature each name takes in tf.io.parse_example: entries are read
/// last first, each one's first byte checked (a byte other than a list tag
/// rejects the record, even in an entry a later one overrides); an empty
/// Feature is passed over without counting as seen, so an earlier entry of
/// the name is used; the first non-empty one read wins.
fn example_features<'a>(entries: Vec<(&'a [u8], &'a [u8])>) -> Result<HashMap<&'a [u8], &'a [u8]>, Reject> {
    let mut map = HashMap::new();
    for (key, value) in entries.into_iter().rev() {
        match value.first() {
            None => continue,
            Some(0x0a | 0x12 | 0x1a) => {}
            Some(_) => return Err(Reject::Datatype(quoted(&String::from_utf8_lossy(key)))),
        }
        map.entry(key).or_insert(value);
    }
    Ok(map)
}

/// The last entry of each key.
fn last_of_each<'a>(entries: Vec<(&'a [u8], &'a [u8])>) -> HashMap<&'a [u8], &'a [u8]> {
    let mut map = HashMap::new();
    for (key, value) in entries.into_iter().rev() {
        map.entry(key).or_insert(value);
    }
    map
}

/// A map entry as the sequence parser reads it: key (`0a`), value (`12`),
/// nothing else.
fn seq_entry(entry: &[u8]) -> Result<(&[u8], &[u8]), Reject> {
    let mut w = Wire { b: entry };
    let key = w.expect(0x0a).then(|| w.len_delimited()).flatten();
    let value = w.expect(0x12).then(|| w.len_delimited()).flatten();
    match (key, value) {
        (Some(key), Some(value)) if w.at_end() => Ok((key, value)),
        _ => Err(Reject::SeqEntry),
    }
}

/// One map entry: exactly two fields, each a key or a value.
fn tf_entry(entry: &[u8]) -> Result<(&[u8], &[u8]), Reject> {
    let mut w = Wire { b: entry };
    let (mut key, mut value): (&[u8], &[u8]) = (b"", b"");
    for _ in 0..2 {
        // ReadTag: 0 at the end.
        let tag = if w.at_end() {
            0
        } else {
            w.varint().ok_or(Reject::Entry)?
        };
        match tag {
            10 => key = w.len_delimited().ok_or(Reject::Entry)?,
            18 => value = w.len_delimited().ok_or(Reject::Entry)?,
            _ => return Err(Reject::Entry),
        }
    }
    if !w.at_end() {
        return Err(Reject::Entry);
    }
    Ok((key, value))
}

/// A Feature as TensorFlow reads it.
#[derive(Debug)]
struct TfFeature<'a> {
    values: TfValues<'a>,
    ignored: Ignored,
}

/// What TensorFlow's reading of a Feature left out.
#[derive(Clone, Copy, Debug, Default)]
struct Ignored {
    /// Bytes after the first list.
    rest: bool,
    /// List fields after a first packed chunk.
    chunks: bool,
}

#[derive(Clone, Debug)]
enum TfValues<'a> {
    Missing,
    Bytes(Vec<&'a [u8]>),
    Float(Vec<u32>),
    Int64(Vec<i64>),
}

fn tf_feature(feature: &[u8]) -> Result<TfFeature<'_>, &'static str> {
    let mut w = Wire { b: feature };
    let Some(first) = w.peek() else {
        return Ok(TfFeature {
            values: TfValues::Missing,
            ignored: Ignored::default(),
        });
    };
    w.b = &w.b[1..];
    const BAD: &str = "TensorFlow's parser fails on it (\"Unsupported datatype\" or \"Key: ..., Index: 0\")";
    let list = w.len_delimited().ok_or(BAD)?;
    let rest_ignored = !w.at_end();
    let mut l = Wire { b: list };
    let mut chunks_ignored = false;
    let values = match first {
        0x0a => {
            let mut values = Vec::new();
            while !l.at_end() {
                if !l.expect(0x0a) {
                    return Err(BAD);
                }
                values.push(l.len_delimited().ok_or(BAD)?);
            }
            TfValues::Bytes(values)
        }
        0x12 => {
            let mut values = Vec::new();
            match l.peek() {
                None => {}
                Some(0x0a) => {
                    l.b = &l.b[1..];
                    let chunk = l.len_delimited().ok_or(BAD)?;
                    values.extend(
                        chunk
                            .chunks_exact(4)
                            .map(|c| u32::from_le_bytes(c.try_into().expect("4"))),
                    );
                    chunks_ignored = !l.at_end();
                }
                Some(0x0d) => {
                    while !l.at_end() {
                        if !l.expect(0x0d) {
                            return Err(BAD);
                        }
                        let v = l.take(4).ok_or(BAD)?;
                        values.push(u32::from_le_bytes(v.try_into().expect("4")));
                    }
                }
                Some(_) => return Err(BAD),
            }
            TfValues::Float(values)
        }
        0x1a => {
            let mut values = Vec::new();
            match l.peek() {
                None => {}
                Some(0x0a) => {
                    l.b = &l.b[1..];
                    let mut chunk = Wire {
                        b: l.len_delimited().ok_or(BAD)?,
                    };
                    while !chunk.at_end() {
                        values.push(chunk.varint().ok_or(BAD)? as i64);
                    }
                    chunks_ignored = !l.at_end();
                }
                Some(0x08) => {
                    while !l.at_end() {
                        if !l.expect(0x08) {
                            return Err(BAD);
                        }
                        values.push(l.varint().ok_or(BAD)? as i64);
                    }
                }
                Some(_) => return Err(BAD),
            }
            TfValues::Int64(values)
        }
        _ => return Err(BAD),
    };
    Ok(TfFeature {
        values,
        ignored: Ignored {
            rest: rest_ignored,
            chunks: chunks_ignored,
        },
    })
}

/// Why a feature list whose steps have different kinds is rejected: not an
/// encoding TensorFlow reads differently but content no dtype parses (what
/// from-jsonl writes when asked to, with a kind-change warning).
pub const MIXED_KINDS: &str = "steps of different kinds (TensorFlow fails whatever dtype is asked)";

/// The steps of a FeatureList as the sequence parser reads them: only
/// steps, each one list and nothing after it, of one kind.
fn tf_steps(list: &[u8]) -> Result<Vec<TfValues<'_>>, &'static str> {
    const BAD_LIST: &str = "a FeatureList field that is not a step (TensorFlow rejects the record)";
    let mut w = Wire { b: list };
    let mut steps = Vec::new();
    let mut kind = Kind::None;
    while !w.at_end() {
        if !w.expect(0x0a) {
            return Err(BAD_LIST);
        }
        let step = tf_step(w.len_delimited().ok_or(BAD_LIST)?)?;
        let this = match step {
            TfValues::Missing => Kind::None,
            TfValues::Bytes(_) => Kind::Bytes,
            TfValues::Float(_) => Kind::Float,
            TfValues::Int64(_) => Kind::Int64,
        };
        if this != Kind::None {
            if kind != Kind::None && kind != this {
                return Err(MIXED_KINDS);
            }
            kind = this;
        }
        steps.push(step);
    }
    Ok(steps)
}

/// One step (a Feature) as the sequence parser reads it.
fn tf_step(feature: &[u8]) -> Result<TfValues<'_>, &'static str> {
    const BAD: &str =
        "a step that is not one list (one packed chunk, or unpacked values) and nothing else (TensorFlow rejects the record)";
    let read = tf_feature(feature).map_err(|_| BAD)?;
    if read.ignored.rest || read.ignored.chunks {
        return Err(BAD);
    }
    Ok(read.values)
}

/// How many values protobuf reads in a feature.
fn values(pb: &FeatureView<'_>) -> usize {
    match pb.kind() {
        Kind::None => 0,
        Kind::Bytes => pb.bytes().count(),
        Kind::Float => pb.floats().count(),
        Kind::Int64 => pb.int64s().count(),
    }
}

/// How TensorFlow's reading differs from protobuf's, if it does.
fn differs(tf: &TfValues<'_>, ignored: Ignored, pb: &FeatureView<'_>) -> Option<String> {
    let (tf_kind, n) = match tf {
        TfValues::Missing => (Kind::None, 0),
        TfValues::Bytes(v) => (Kind::Bytes, v.len()),
        TfValues::Float(v) => (Kind::Float, v.len()),
        TfValues::Int64(v) => (Kind::Int64, v.len()),
    };
    let same = tf_kind == pb.kind()
        && match tf {
            TfValues::Missing => true,
            TfValues::Bytes(v) => pb.bytes().eq(v.iter().copied()),
            TfValues::Float(v) => pb.floats().map(f32::to_bits).eq(v.iter().copied()),
            TfValues::Int64(v) => pb.int64s().eq(v.iter().copied()),
        };
    if same {
        return None;
    }
    let why = if pb.kind() == Kind::None {
        "TensorFlow passes over an empty Feature and reads an earlier entry of the name"
    } else if tf_kind != pb.kind() {
        "TensorFlow reads the Feature's first list, protobuf its last"
    } else if ignored.chunks {
        "TensorFlow reads only the first packed chunk of a list"
    } else if ignored.rest {
        "TensorFlow reads only the first list of a Feature that has several"
    } else {
        "the encoding is read differently"
    };
    let count = |kind: Kind, n: usize| match kind {
        Kind::None => "no kind".to_string(),
        k => format!("{n} {} value{}", k.name(), if n == 1 { "" } else { "s" }),
    };
    Some(format!(
        "TensorFlow reads {}, protobuf {} ({why})",
        count(tf_kind, n),
        count(pb.kind(), values(pb)),
    ))
}

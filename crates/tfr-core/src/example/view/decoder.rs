//! The [`Decoder`]: validates a payload the way Python protobuf does and
//! indexes where each feature's values are, for the views of the parent
//! module.

use super::num;
use super::{
    ElwcParts, EntryRec, ExampleView, FeatureListsView, FeatureRec, FeaturesView, Kind, ListEntryRec, ListRec,
    SequenceExampleView,
};
use crate::example::error::{DecodeError, DecodeErrorKind as K};
use crate::example::wire::Reader;

#[path = "canonical.rs"]
mod canonical;

/// Validates payloads and indexes their features; reuse one for every
/// record to avoid allocating.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    /// Entries of `features` (Example) or `context` (SequenceExample).
    entries: Vec<EntryRec>,
    /// Entries of `feature_lists`.
    list_entries: Vec<ListEntryRec>,
    /// The features of every FeatureList.
    pub(super) steps: Vec<FeatureRec>,
    /// The list messages of every Feature.
    pub(super) lists: Vec<ListRec>,
    /// Map entries with other fields are kept, as C++ protobuf does
    /// ([`Decoder::set_cpp_map_entries`]).
    cpp_entries: bool,
}

/// The payload range of a reader's bytes.
fn span(r: &Reader<'_>) -> (usize, usize) {
    (r.start(), r.start() + r.bytes().len())
}

/// Walks the fields of a nested message, calling `on_len` for each
/// length-delimited one (the others are only checked and skipped).
#[inline(always)]
fn walk<'a>(
    r: Reader<'a>,
    mut on_len: impl FnMut(u32, Reader<'a>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    let mut r = r.nested()?;
    while !r.is_empty() {
        if let (number, Some(sub)) = r.next_len()? {
            on_len(number, sub)?;
        }
    }
    Ok(())
}

/// Checks a map key: a proto3 `string` must be valid UTF-8.
#[inline]
fn check_key(key: &Reader<'_>) -> Result<(usize, usize), DecodeError> {
    match std::str::from_utf8(key.bytes()) {
        Ok(_) => Ok(span(key)),
        Err(e) => Err(DecodeError::new(K::InvalidUtf8Key, key.start() + e.valid_up_to())),
    }
}

/// Checks a list message of `kind` and describes where its values are.
#[inline]
fn check_list(kind: Kind, list: Reader<'_>) -> Result<ListRec, DecodeError> {
    let mut r = list.nested()?;
    let (mut fields, mut packed) = (0usize, None);
    while !r.is_empty() {
        fields += 1;
        let (number, Some(sub)) = r.next_len()? else { continue };
        if number != num::LIST_VALUE {
            continue;
        }
        match kind {
            Kind::Float if sub.bytes().len() % 4 != 0 => {
                return Err(DecodeError::new(K::BadPackedLength, sub.start()));
            }
            Kind::Int64 => {
                let mut values = sub;
                while !values.is_empty() {
                    values.varint()?;
                }
            }
            _ => {}
        }
        packed = Some(sub);
    }
    Ok(match packed {
        // One packed field and nothing else: the canonical encoding.
        Some(p) if fields == 1 && kind != Kind::Bytes => ListRec {
            span: span(&p),
            packed: true,
        },
        _ => ListRec {
            span: span(&list),
            packed: false,
        },
    })
}

impl Decoder {
    /// A decoder with empty buffers.
    pub fn new() -> Self {
        Decoder::default()
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.list_entries.clear();
        self.steps.clear();
        self.lists.clear();
    }

    /// How a `Features` or `FeatureLists` map entry holding another field
    /// (an unknown number, or key or value with another wire type) is read:
    /// left out, as Python protobuf (upb) does (the default: what `cat`
    /// prints), or kept with the key and value it has (defaults for those
    /// it lacks), as C++ protobuf does (`true`: what TFDV and TensorFlow's
    /// readers see; statistics, schemas and validation use it).
    pub fn set_cpp_map_entries(&mut self, cpp: bool) {
        self.cpp_entries = cpp;
    }

    /// Validates `payload` as a `tf.train.Example` and indexes it.
    ///
    /// With `strict` (auto mode), a field 2 that reads as a
    /// SequenceExample's `feature_lists` or an ExampleListWithContext's
    /// `context` (empty, a FeatureLists holding a list, an Example holding
    /// features) is an error, and so is a record whose top-level fields are
    /// all unknown; otherwise unknown fields (any other field 2 included)
    /// are skipped, as protobuf does.
    pub fn example<'a>(&'a mut self, payload: &'a [u8], strict: bool) -> Result<ExampleView<'a>, DecodeError> {
        self.clear();
        if let Some(has_features) = self.canonical_example(payload) {
            return Ok(self.example_view(payload, has_features));
        }
        self.example_general(payload, strict)
    }

    /// [`Self::example`] through the general wire reader only (the fast
    /// path for canonical payloads is checked against it).
    pub fn example_general<'a>(&'a mut self, payload: &'a [u8], strict: bool) -> Result<ExampleView<'a>, DecodeError> {
        self.clear();
        let mut has_features = false;
        check_top(payload, strict, "Example", |number, at, sub| match number {
            num::FEATURES => {
                self.index_features(sub)?;
                has_features = true;
                Ok(true)
            }
            // A SequenceExample's feature_lists: not to be silently dropped.
            num::FEATURE_LISTS if strict && is_other_message(sub) => Err(unexpected(number, at, "Example")),
            _ => Ok(false),
        })?;
        Ok(self.example_view(payload, has_features))
    }

    /// Validates `payload` as a `tf.train.SequenceExample` and indexes it.
    ///
    /// With `strict` (auto mode), a record whose top-level fields are all
    /// unknown (neither `context` nor `feature_lists`) is an error, and a
    /// field 2 that does not read as a `FeatureLists` is an unknown field
    /// (an Example's, read as the context alone); otherwise unknown fields
    /// are skipped.
    pub fn sequence_example<'a>(
        &'a mut self,
        payload: &'a [u8],
        strict: bool,
    ) -> Result<SequenceExampleView<'a>, DecodeError> {
        self.clear();
        let (has_context, has_lists) = match self.canonical_sequence(payload) {
            Some(found) => found,
            None => self.general_sequence(payload, strict)?,
        };
        Ok(self.sequence_view(payload, has_context, has_lists))
    }

    /// [`Self::sequence_example`] through the general wire reader only.
    #[cfg(any(test, feature = "fuzzing"))]
    pub fn sequence_example_general<'a>(
        &'a mut self,
        payload: &'a [u8],
        strict: bool,
    ) -> Result<SequenceExampleView<'a>, DecodeError> {
        let (has_context, has_lists) = self.general_sequence(payload, strict)?;
        Ok(self.sequence_view(payload, has_context, has_lists))
    }

    /// The view of the SequenceExample just indexed.
    fn sequence_view<'a>(&'a self, payload: &'a [u8], has_context: bool, has_lists: bool) -> SequenceExampleView<'a> {
        let dec = self;
        SequenceExampleView {
            context: has_context.then_some(FeaturesView {
                payload,
                dec,
                entries: &dec.entries,
            }),
            feature_lists: has_lists.then_some(FeatureListsView {
                payload,
                dec,
                entries: &dec.list_entries,
            }),
        }
    }

    /// [`Self::sequence_example`] through the general wire reader: whether
    /// `context` and `feature_lists` were found.
    fn general_sequence(&mut self, payload: &[u8], strict: bool) -> Result<(bool, bool), DecodeError> {
        self.clear();
        let (mut has_context, mut has_lists) = (false, false);
        check_top(payload, strict, "SequenceExample", |number, _, sub| {
            match number {
                num::CONTEXT => {
                    self.index_features(sub)?;
                    has_context = true;
                }
                num::FEATURE_LISTS if strict => {
                    // Auto mode: a field 2 that is no FeatureLists is an
                    // Example's unknown field (protobuf, and so TFDV, skip
                    // it), not damage: the record is read as its context.
                    let kept = (self.list_entries.len(), self.steps.len(), self.lists.len());
                    if self.index_feature_lists(sub).is_err() {
                        self.list_entries.truncate(kept.0);
                        self.steps.truncate(kept.1);
                        self.lists.truncate(kept.2);
                        return Ok(false);
                    }
                    has_lists = true;
                }
                num::FEATURE_LISTS => {
                    self.index_feature_lists(sub)?;
                    has_lists = true;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok((has_context, has_lists))
    }

    /// Splits `payload` as a `tensorflow.serving.ExampleListWithContext`
    /// (`repeated Example examples = 1; Example context = 2`) into its
    /// examples and its context; each is then decoded by
    /// [`Decoder::nested_example`]. Only the top level is checked here.
    ///
    /// With `strict` (auto mode), a record whose top-level fields are all
    /// unknown is an error; otherwise unknown fields are skipped.
    pub(crate) fn elwc_parts(payload: &[u8], strict: bool) -> Result<ElwcParts<'_>, DecodeError> {
        let mut parts = ElwcParts {
            examples: Vec::new(),
            context: Vec::new(),
        };
        check_top(payload, strict, "ExampleListWithContext", |number, _, sub| {
            match number {
                num::EXAMPLES => parts.examples.push(sub),
                num::ELWC_CONTEXT => parts.context.push(sub),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(parts)
    }

    /// Validates the Example held by `parts` of `payload` (the occurrences
    /// of one message field, which protobuf merges: one example of an
    /// [`ElwcParts`], or all of its context) and indexes it; spans and
    /// error offsets count from the start of `payload`. Unknown fields are
    /// skipped.
    pub(crate) fn nested_example<'a>(
        &'a mut self,
        payload: &'a [u8],
        parts: &[Reader<'a>],
    ) -> Result<ExampleView<'a>, DecodeError> {
        self.clear();
        let mut has_features = false;
        for part in parts {
            walk(*part, |number, sub| {
                if number == num::FEATURES {
                    self.index_features(sub)?;
                    has_features = true;
                }
                Ok(())
            })?;
        }
        Ok(self.example_view(payload, has_features))
    }

    /// The view of the Example just indexed.
    fn example_view<'a>(&'a self, payload: &'a [u8], has_features: bool) -> ExampleView<'a> {
        let features = has_features.then(|| FeaturesView {
            payload,
            dec: self,
            entries: &self.entries,
        });
        ExampleView { features }
    }

    /// Indexes the entries of a `Features` message.
    fn index_features(&mut self, r: Reader<'_>) -> Result<(), DecodeError> {
        walk(r, |n, entry| {
            if n == num::MAP_ENTRY {
                self.index_entry(entry)
            } else {
                Ok(())
            }
        })
    }

    /// Indexes one `Features` map entry. An entry with any other field (an
    /// unknown number, or key or value with another wire type) is left out,
    /// as Python protobuf (upb) does: it keeps such an entry as unknown data
    /// of the map, not as a feature.
    fn index_entry(&mut self, r: Reader<'_>) -> Result<(), DecodeError> {
        let mut key = (0, 0);
        let lists = self.lists.len();
        let mut feature = FeatureRec {
            kind: Kind::None,
            lists: lists..lists,
        };
        let mut unknown = false;
        let mut r = r.nested()?;
        while !r.is_empty() {
            match r.next_len()? {
                (num::KEY, Some(sub)) => key = check_key(&sub)?,
                (num::VALUE, Some(sub)) => self.index_feature(sub, &mut feature)?,
                _ => unknown = true,
            }
        }
        if unknown && !self.cpp_entries {
            self.lists.truncate(lists);
            return Ok(());
        }
        feature.lists.end = self.lists.len();
        self.entries.push(EntryRec { key, feature });
        Ok(())
    }

    /// Indexes the entries of a `FeatureLists` message.
    fn index_feature_lists(&mut self, r: Reader<'_>) -> Result<(), DecodeError> {
        walk(r, |n, entry| {
            if n == num::MAP_ENTRY {
                self.index_list_entry(entry)
            } else {
                Ok(())
            }
        })
    }

    /// Indexes one `FeatureLists` map entry (merging repeated values); an
    /// entry with any other field is left out, as in [`Self::index_entry`].
    fn index_list_entry(&mut self, r: Reader<'_>) -> Result<(), DecodeError> {
        let (mut key, first, lists) = ((0, 0), self.steps.len(), self.lists.len());
        let mut unknown = false;
        let mut r = r.nested()?;
        while !r.is_empty() {
            match r.next_len()? {
                (num::KEY, Some(sub)) => key = check_key(&sub)?,
                (num::VALUE, Some(sub)) => walk(sub, |n, f| {
                    if n == num::FEATURE {
                        let start = self.lists.len();
                        let mut feature = FeatureRec {
                            kind: Kind::None,
                            lists: start..start,
                        };
                        self.index_feature(f, &mut feature)?;
                        feature.lists.end = self.lists.len();
                        self.steps.push(feature);
                    }
                    Ok(())
                })?,
                _ => unknown = true,
            }
        }
        if unknown && !self.cpp_entries {
            self.steps.truncate(first);
            self.lists.truncate(lists);
            return Ok(());
        }
        self.list_entries.push(ListEntryRec {
            key,
            steps: first..self.steps.len(),
        });
        Ok(())
    }

    /// Merges one `Feature` message into `feature` (whose lists are the
    /// tail of `self.lists` from `feature.lists.start`).
    fn index_feature(&mut self, r: Reader<'_>, feature: &mut FeatureRec) -> Result<(), DecodeError> {
        walk(r, |n, list| {
            let kind = match n {
                num::BYTES_LIST => Kind::Bytes,
                num::FLOAT_LIST => Kind::Float,
                num::INT64_LIST => Kind::Int64,
                _ => return Ok(()),
            };
            let rec = check_list(kind, list)?;
            if kind != feature.kind {
                // Setting another member of the oneof clears the previous one.
                self.lists.truncate(feature.lists.start);
                feature.kind = kind;
            }
            self.lists.push(rec);
            Ok(())
        })
    }
}

/// Whether a field 2 of an Example is another message's own field: a
/// SequenceExample's `feature_lists` or an ExampleListWithContext's
/// `context`: it is empty, or reads as a FeatureLists holding a list, or
/// as an Example holding features. Anything else is an unknown field,
/// which protobuf and TensorFlow's parsers (and so TFDV) skip.
fn is_other_message(sub: Reader<'_>) -> bool {
    if sub.is_empty() {
        return true;
    }
    let mut scratch = Decoder::new();
    if scratch.index_feature_lists(sub).is_ok() && !scratch.list_entries.is_empty() {
        return true;
    }
    let mut features = false;
    let read = walk(sub, |n, f| {
        if n == num::FEATURES {
            features = true;
            scratch.index_features(f)?;
        }
        Ok(())
    });
    read.is_ok() && features
}

/// Validates the top-level fields of a payload: `check(number, at, bytes)`
/// for each length-delimited field returns whether it was a known one.
///
/// In strict mode, a record with unknown top-level fields and no known one
/// is an error for a file of `file_type`s: it is not that message, it only
/// happened to parse (text, random bytes). Unknown fields next to known ones
/// are skipped, as protobuf does.
fn check_top<'a>(
    payload: &'a [u8],
    strict: bool,
    file_type: &'static str,
    mut check: impl FnMut(u32, usize, Reader<'a>) -> Result<bool, DecodeError>,
) -> Result<(), DecodeError> {
    let mut root = Reader::new(payload);
    let (mut known, mut first_unknown) = (false, None);
    while !root.is_empty() {
        let at = root.offset();
        let (number, sub) = root.next_len()?;
        if let Some(sub) = sub {
            if check(number, at, sub)? {
                known = true;
                continue;
            }
        }
        first_unknown.get_or_insert((number, at));
    }
    match first_unknown {
        Some((field, at)) if strict && !known => Err(unexpected(field, at, file_type)),
        _ => Ok(()),
    }
}

/// The strict-mode error for top-level field `field` at `at`.
fn unexpected(field: u32, at: usize, file_type: &'static str) -> DecodeError {
    DecodeError::new(K::UnexpectedField { field, file_type }, at)
}

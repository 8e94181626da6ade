//! Zero-copy, validated views of Example and SequenceExample payloads.
//!
//! A [`Decoder`] (one per thread, reused for every record) walks a payload
//! once: it checks everything Python protobuf checks (wire structure, packed
//! lengths, UTF-8 of keys, nesting depth) and records where each feature's
//! values are, as offsets into the payload. The views it returns borrow the
//! payload and that index: walking them cannot fail and allocates nothing
//! (after the first records have sized the decoder's buffers).
//!
//! The views follow protobuf's parse semantics exactly:
//! - a message field that occurs several times is one message, merged
//!   (`features` twice is one map; a map entry's `value` twice is one
//!   Feature, its lists concatenated);
//! - packed and unpacked numeric values are both accepted and concatenated;
//! - in `Feature`'s oneof the last kind on the wire wins, and switching kind
//!   drops the values of the previous one;
//! - a field with an unknown number or an unexpected wire type is skipped;
//! - a map entry without key or value has the empty key / an empty Feature;
//!   a map entry with the key field twice keeps the last key.
//!
//! Maps are exposed in wire order with duplicates ([`FeaturesView::entries`]);
//! [`FeaturesView::sorted`] gives protobuf's map view (last duplicate wins,
//! sorted by key) for the text format.

use std::ops::Range;

use super::wire::{Fields, Reader, Value};

/// Field numbers of the schema (see proto/example.proto, proto/feature.proto).
mod num {
    pub(super) const FEATURES: u32 = 1;
    pub(super) const CONTEXT: u32 = 1;
    pub(super) const FEATURE_LISTS: u32 = 2;
    pub(super) const MAP_ENTRY: u32 = 1;
    pub(super) const KEY: u32 = 1;
    pub(super) const VALUE: u32 = 2;
    pub(super) const BYTES_LIST: u32 = 1;
    pub(super) const FLOAT_LIST: u32 = 2;
    pub(super) const INT64_LIST: u32 = 3;
    pub(super) const LIST_VALUE: u32 = 1;
    pub(super) const FEATURE: u32 = 1;
    pub(super) const EXAMPLES: u32 = 1;
    pub(super) const ELWC_CONTEXT: u32 = 2;
}

// ---------------------------------------------------------------------------
// The index
// ---------------------------------------------------------------------------

/// Which list a Feature holds (its `kind` oneof).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// No kind set: an empty `Feature {}`.
    None,
    /// `bytes_list`.
    Bytes,
    /// `float_list`.
    Float,
    /// `int64_list`.
    Int64,
}

impl Kind {
    /// Its name in schemas and messages: `int64`, `float`, `bytes` (`none` when unset).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int64 => "int64",
            Kind::Float => "float",
            Kind::Bytes => "bytes",
            Kind::None => "none",
        }
    }

    /// The Feature field that holds it: `int64_list`, `float_list`,
    /// `bytes_list` (`no kind` when unset).
    pub fn list_field(self) -> &'static str {
        match self {
            Kind::Int64 => "int64_list",
            Kind::Float => "float_list",
            Kind::Bytes => "bytes_list",
            Kind::None => "no kind",
        }
    }
}

/// One list message of a Feature (several when a Feature is merged).
#[derive(Clone, Copy, Debug)]
struct ListRec {
    /// Payload range of the list message, or of its only field's packed
    /// bytes when `packed` (the canonical encoding, read directly).
    span: (usize, usize),
    packed: bool,
}

/// A Feature: its kind and its list messages in `Decoder::lists`.
#[derive(Clone, Debug)]
struct FeatureRec {
    kind: Kind,
    lists: Range<usize>,
}

/// A `Features` map entry (opaque: reached through [`FeaturesView`]).
#[derive(Clone, Debug)]
pub struct EntryRec {
    key: (usize, usize),
    feature: FeatureRec,
}

/// A `FeatureLists` map entry: its features in `Decoder::steps` (opaque:
/// reached through [`FeatureListsView`]).
#[derive(Clone, Debug)]
pub struct ListEntryRec {
    key: (usize, usize),
    steps: Range<usize>,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::EntryRec {}
    impl Sealed for super::ListEntryRec {}
}

/// An entry of one of the two maps of these messages (`Features`,
/// `FeatureLists`): its key and the view of its value.
pub trait MapEntry: sealed::Sealed {
    /// The view of the entry's value.
    type Value<'a>
    where
        Self: 'a;
    #[doc(hidden)]
    fn key(&self) -> (usize, usize);
    #[doc(hidden)]
    fn value<'a>(&'a self, payload: &'a [u8], dec: &'a Decoder) -> Self::Value<'a>;
}

impl MapEntry for EntryRec {
    type Value<'a> = FeatureView<'a>;

    #[inline]
    fn key(&self) -> (usize, usize) {
        self.key
    }

    #[inline]
    fn value<'a>(&'a self, payload: &'a [u8], dec: &'a Decoder) -> FeatureView<'a> {
        FeatureView::new(payload, dec, &self.feature)
    }
}

impl MapEntry for ListEntryRec {
    type Value<'a> = FeatureListView<'a>;

    #[inline]
    fn key(&self) -> (usize, usize) {
        self.key
    }

    #[inline]
    fn value<'a>(&'a self, payload: &'a [u8], dec: &'a Decoder) -> FeatureListView<'a> {
        let steps = dec.steps.get(self.steps.clone()).unwrap_or_default();
        FeatureListView { payload, dec, steps }
    }
}

mod decoder;

pub use decoder::Decoder;

// ---------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------

/// The key of an entry (validated UTF-8).
#[inline]
fn key_str(payload: &[u8], (start, end): (usize, usize)) -> &str {
    // Keys were checked during validation; "" is unreachable.
    payload
        .get(start..end)
        .and_then(|k| std::str::from_utf8(k).ok())
        .unwrap_or("")
}

/// A validated `tf.train.Example`.
#[derive(Clone, Copy, Debug)]
pub struct ExampleView<'a> {
    features: Option<FeaturesView<'a>>,
}

impl<'a> ExampleView<'a> {
    /// The `features` field, or `None` when it is absent (an empty message).
    pub fn features(&self) -> Option<FeaturesView<'a>> {
        self.features
    }
}

/// The top level of a `tensorflow.serving.ExampleListWithContext`
/// ([`Decoder::elwc_parts`]): where each example is, and the context's
/// occurrences (empty: no context). Each is decoded by
/// [`Decoder::nested_example`].
#[derive(Clone, Debug)]
pub struct ElwcParts<'a> {
    pub(crate) examples: Vec<Reader<'a>>,
    pub(crate) context: Vec<Reader<'a>>,
}

/// A validated `tf.train.SequenceExample`.
#[derive(Clone, Copy, Debug)]
pub struct SequenceExampleView<'a> {
    context: Option<FeaturesView<'a>>,
    feature_lists: Option<FeatureListsView<'a>>,
}

impl<'a> SequenceExampleView<'a> {
    /// The `context` field, or `None` when it is absent.
    pub fn context(&self) -> Option<FeaturesView<'a>> {
        self.context
    }

    /// The `feature_lists` field, or `None` when it is absent.
    pub fn feature_lists(&self) -> Option<FeatureListsView<'a>> {
        self.feature_lists
    }
}

/// A map of these messages, in wire order: a `Features` message
/// ([`FeaturesView`]: name → [`FeatureView`]) or a `FeatureLists` message
/// ([`FeatureListsView`]: name → [`FeatureListView`]).
#[derive(Debug)]
pub struct MapView<'a, E> {
    payload: &'a [u8],
    dec: &'a Decoder,
    entries: &'a [E],
}

impl<E> Clone for MapView<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for MapView<'_, E> {}

/// A `Features` message: a map from feature name to [`FeatureView`].
pub type FeaturesView<'a> = MapView<'a, EntryRec>;
/// A `FeatureLists` message: a map from name to [`FeatureListView`].
pub type FeatureListsView<'a> = MapView<'a, ListEntryRec>;

impl<'a, E: MapEntry> MapView<'a, E> {
    /// All entries in wire order, duplicate keys included.
    pub fn entries(&self) -> MapEntries<'a, E> {
        MapEntries {
            payload: self.payload,
            dec: self.dec,
            iter: self.entries.iter(),
        }
    }

    /// [`Self::entries`] with each key as its bytes (UTF-8, validated):
    /// for callers that compare keys with names they hold, which then
    /// need no `&str` of each.
    #[inline]
    pub fn raw_entries(&self) -> impl Iterator<Item = (&'a [u8], E::Value<'a>)> + 'a {
        let (payload, dec) = (self.payload, self.dec);
        self.entries.iter().map(move |e| {
            let (start, end) = e.key();
            (payload.get(start..end).unwrap_or_default(), e.value(payload, dec))
        })
    }

    /// The number of entries on the wire (duplicate keys included).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The map as protobuf sees it: sorted by key (code point order), and
    /// for a key present several times only its last entry.
    pub fn sorted(&self) -> Vec<(&'a str, E::Value<'a>)> {
        sorted_unique(self.entries().collect())
    }
}

/// Iterator over the entries of a [`MapView`], in wire order.
#[derive(Debug)]
pub struct MapEntries<'a, E> {
    payload: &'a [u8],
    dec: &'a Decoder,
    iter: std::slice::Iter<'a, E>,
}

impl<E> Clone for MapEntries<'_, E> {
    fn clone(&self) -> Self {
        MapEntries {
            payload: self.payload,
            dec: self.dec,
            iter: self.iter.clone(),
        }
    }
}

/// The entries of a [`FeaturesView`].
pub type FeatureEntries<'a> = MapEntries<'a, EntryRec>;
/// The entries of a [`FeatureListsView`].
pub type FeatureListEntries<'a> = MapEntries<'a, ListEntryRec>;

impl<'a, E: MapEntry> Iterator for MapEntries<'a, E> {
    type Item = (&'a str, E::Value<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let e = self.iter.next()?;
        Some((key_str(self.payload, e.key()), e.value(self.payload, self.dec)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

/// Sorts entries by key (stable) and keeps the last of each run of equal keys.
fn sorted_unique<T>(mut entries: Vec<(&str, T)>) -> Vec<(&str, T)> {
    // Byte order of UTF-8 is code point order, as Python's sorted(str).
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut out: Vec<(&str, T)> = Vec::with_capacity(entries.len());
    for entry in entries {
        match out.last_mut() {
            Some(last) if last.0 == entry.0 => *last = entry,
            _ => out.push(entry),
        }
    }
    out
}

/// A `FeatureList` message: a sequence of [`FeatureView`]s.
#[derive(Clone, Copy, Debug)]
pub struct FeatureListView<'a> {
    payload: &'a [u8],
    dec: &'a Decoder,
    steps: &'a [FeatureRec],
}

impl<'a> FeatureListView<'a> {
    /// The features, in order.
    pub fn features(&self) -> FeatureListIter<'a> {
        FeatureListIter {
            payload: self.payload,
            dec: self.dec,
            iter: self.steps.iter(),
        }
    }

    /// The number of features.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the list has no features.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// Iterator over the features of a [`FeatureListView`].
#[derive(Clone, Debug)]
pub struct FeatureListIter<'a> {
    payload: &'a [u8],
    dec: &'a Decoder,
    iter: std::slice::Iter<'a, FeatureRec>,
}

impl<'a> Iterator for FeatureListIter<'a> {
    type Item = FeatureView<'a>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        Some(FeatureView::new(self.payload, self.dec, self.iter.next()?))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

/// A `Feature`: one list of bytes, float32 or int64 values (or none).
#[derive(Clone, Copy, Debug)]
pub struct FeatureView<'a> {
    payload: &'a [u8],
    kind: Kind,
    lists: &'a [ListRec],
}

impl<'a> FeatureView<'a> {
    #[inline]
    fn new(payload: &'a [u8], dec: &'a Decoder, rec: &FeatureRec) -> Self {
        let lists = dec.lists.get(rec.lists.clone()).unwrap_or_default();
        FeatureView {
            payload,
            kind: rec.kind,
            lists,
        }
    }

    /// Which list is set.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Whether the list holds no values (or no kind is set).
    pub fn is_empty(&self) -> bool {
        match self.kind {
            Kind::None => true,
            Kind::Bytes => self.bytes().next().is_none(),
            Kind::Float => self.floats().next().is_none(),
            Kind::Int64 => self.int64s().next().is_none(),
        }
    }

    /// The number of values, counted without decoding them where the
    /// list is one packed field (a varint ends at each byte under 0x80).
    #[inline]
    pub fn count(&self) -> usize {
        match (self.kind, self.lists) {
            (Kind::Int64, [one]) if one.packed => {
                let packed = self.payload.get(one.span.0..one.span.1).unwrap_or_default();
                packed.iter().filter(|&&b| b < 0x80).count()
            }
            (Kind::Float, [one]) if one.packed => (one.span.1 - one.span.0) / 4,
            (Kind::None, _) => 0,
            (Kind::Bytes, _) => self.bytes().count(),
            (Kind::Float, _) => self.floats().count(),
            (Kind::Int64, _) => self.int64s().count(),
        }
    }

    /// The list messages if the kind is `kind`, else none.
    #[inline]
    fn items(&self, kind: Kind) -> ListItems<'a> {
        let lists = if self.kind == kind { self.lists } else { &[] };
        ListItems {
            payload: self.payload,
            lists: lists.iter(),
            fields: Reader::new(&[]).fields(),
        }
    }

    /// The bytes values (empty unless the kind is [`Kind::Bytes`]).
    pub fn bytes(&self) -> BytesValues<'a> {
        let (items, canonical) = self.start(Kind::Bytes);
        BytesValues { items, canonical }
    }

    /// The float32 values (empty unless the kind is [`Kind::Float`]).
    pub fn floats(&self) -> FloatValues<'a> {
        let (items, packed) = self.start(Kind::Float);
        FloatValues {
            items,
            packed: packed.bytes(),
        }
    }

    /// The int64 values (empty unless the kind is [`Kind::Int64`]).
    pub fn int64s(&self) -> Int64Values<'a> {
        let (items, packed) = self.start(Kind::Int64);
        Int64Values { items, packed }
    }

    /// The list messages if the kind is `kind`, with the bytes of the
    /// first one taken out when it is packed (the common case of a single
    /// canonical list, read without the walk over lists).
    #[inline]
    fn start(&self, kind: Kind) -> (ListItems<'a>, Reader<'a>) {
        let mut items = self.items(kind);
        match items.lists.as_slice().first() {
            Some(first) if first.packed => {
                items.lists.next();
                (items, Reader::span(self.payload, first.span))
            }
            _ => (items, Reader::new(&[])),
        }
    }
}

/// One step of walking a Feature's lists.
enum Item<'a> {
    /// A list message's `value` field.
    Value(Value<'a>),
    /// The packed bytes of a canonical list.
    Packed(Reader<'a>),
}

/// The `value` fields of a Feature's list messages, in order.
#[derive(Clone, Debug)]
struct ListItems<'a> {
    payload: &'a [u8],
    lists: std::slice::Iter<'a, ListRec>,
    /// The fields of the current (non-canonical) list message.
    fields: Fields<'a>,
}

impl<'a> Iterator for ListItems<'a> {
    type Item = Item<'a>;

    #[inline]
    fn next(&mut self) -> Option<Item<'a>> {
        loop {
            if let Some(f) = self.fields.find(|f| f.number == num::LIST_VALUE) {
                return Some(Item::Value(f.value));
            }
            let list = self.lists.next()?;
            let r = Reader::span(self.payload, list.span);
            if list.packed {
                return Some(Item::Packed(r));
            }
            self.fields = r.fields();
        }
    }
}

/// Iterator over the values of a `BytesList`.
#[derive(Clone, Debug)]
pub struct BytesValues<'a> {
    items: ListItems<'a>,
    /// The rest of a canonical BytesList (its `value` fields only).
    canonical: Reader<'a>,
}

impl<'a> Iterator for BytesValues<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        loop {
            if !self.canonical.is_empty() {
                // Validated: `value` fields only, each complete.
                return match self.canonical.next_len() {
                    Ok((_, Some(value))) => Some(value.bytes()),
                    _ => None,
                };
            }
            match self.items.next()? {
                Item::Value(Value::Len(r)) => return Some(r.bytes()),
                Item::Packed(r) => self.canonical = r,
                Item::Value(_) => {}
            }
        }
    }
}

/// Iterator over the values of a `FloatList` (packed and unpacked).
#[derive(Clone, Debug)]
pub struct FloatValues<'a> {
    items: ListItems<'a>,
    packed: &'a [u8],
}

impl Iterator for FloatValues<'_> {
    type Item = f32;

    #[inline]
    fn next(&mut self) -> Option<f32> {
        loop {
            if let Some((head, rest)) = self.packed.split_first_chunk::<4>() {
                self.packed = rest;
                return Some(f32::from_le_bytes(*head));
            }
            match self.items.next()? {
                Item::Value(Value::Fixed32(bits)) => return Some(f32::from_bits(bits)),
                Item::Value(Value::Len(r)) | Item::Packed(r) => self.packed = r.bytes(),
                Item::Value(_) => {}
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.packed.len() / 4, None)
    }
}

/// Iterator over the values of an `Int64List` (packed and unpacked).
#[derive(Clone, Debug)]
pub struct Int64Values<'a> {
    items: ListItems<'a>,
    packed: Reader<'a>,
}

impl Iterator for Int64Values<'_> {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        loop {
            if !self.packed.is_empty() {
                // Validated: every packed varint is complete.
                return self.packed.varint().ok().map(|v| v as i64);
            }
            match self.items.next()? {
                Item::Value(Value::Varint(v)) => return Some(v as i64),
                Item::Value(Value::Len(r)) | Item::Packed(r) => self.packed = r,
                Item::Value(_) => {}
            }
        }
    }
}

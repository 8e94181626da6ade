//! The JSONL mapping (`tfr to-jsonl`, `cat --format json`) and protobuf's
//! JSON mapping (`--format protojson`): rendering. Parsing is in
//! [`encode`](super::encode).
//!
//! # The natural form (one compact line per record)
//!
//! An Example is `{"name": FEATURE, ...}` with the map entries in wire order
//! (duplicates kept); an Example with no `features` field (the empty
//! payload) is `null`, one with an empty `features` is `{}`.
//! FEATURE is, in its natural form:
//! - Int64List: `[1, -2]`, JSON integers exact over all of i64;
//! - FloatList: `[1.0, 0.1, 1e-45, 3.4028235e38, "NaN", "Infinity",
//!   "-Infinity"]`: the shortest decimal that reads back to the same float32
//!   (ryu's f32 shortest: exponent as `e` and digits, no `+`, at least one
//!   digit after a `.` otherwise), always with a `.` or an exponent so that
//!   it never reads back as an integer;
//! - BytesList: `["text", {"base64": "/9j/"}]`: a JSON string when the value
//!   is valid UTF-8, else standard padded base64.
//!
//! The typed form `{"int64_list": [...]}`, `{"float_list": [...]}`,
//! `{"bytes_list": [...]}` is used exactly where the natural form would read
//! back as something else: an empty list (any kind), a float list whose
//! values are all non-finite (`["NaN"]` alone would read back as bytes),
//! and a value whose name had another kind earlier in its record's section
//! ([`seen`]: `from-jsonl` gives a plain value its feature's first kind,
//! to catch jq's `100.0 → 100`). Every other list reads back
//! unambiguously: a list with a number is numeric (float if any value has
//! a `.` or exponent or is `"NaN"`/`"Infinity"`/`"-Infinity"`, else
//! int64), a list of only strings and `{"base64"}` objects is bytes. A
//! Feature with no kind set is `null`.
//!
//! A SequenceExample is `{"context": {...}, "feature_lists": {"name":
//! [FEATURE, ...]}}`, each key present exactly when the field is (the empty
//! payload is `{}`). An ExampleListWithContext (`--type elwc`) is
//! `{"context": EXAMPLE, "examples": [EXAMPLE, ...]}`, each EXAMPLE as an
//! Example's line (`null` for one without `features`), `context` present
//! exactly when the field is, `examples` always. A raw payload (`--type raw`) is a JSON string when it
//! is valid UTF-8, else `{"base64": ...}`.
//!
//! Strings escape only what JSON requires (`"`, `\`, controls below 0x20,
//! with `\n`, `\r`, `\t`, `\b`, `\f` short); other characters stay UTF-8.
//!
//! NaN payload bits do not survive the text `"NaN"`: every NaN reads back
//! as the canonical quiet NaN (0x7fc00000), so only canonical NaNs round-trip
//! byte for byte (TensorFlow and numpy produce that one).
//!
//! # protojson
//!
//! `json_format.MessageToJson(msg, indent=None)` of Python protobuf 7:
//! lowerCamelCase names, int64 as strings, bytes as standard base64, floats
//! as the text format prints them (`1e-05`, `1.4013e-45`, `"NaN"`), Python's
//! `", "` / `": "` separators and `ensure_ascii` escaping. Maps are in wire
//! order with a repeated key written once, where its last value wins (what
//! protobuf keeps), so canonical records round-trip through
//! `from-jsonl --format protojson` byte for byte. With sorted keys the line
//! is byte-identical to `MessageToJson(msg, indent=None, sort_keys=True)`.
//! A raw payload is a base64 JSON string (protobuf's mapping of `bytes`).
//! An ExampleListWithContext is `{"examples": [...], "context": {...}}`
//! (field-number order; each left out when unset, as MessageToJson does).

use base64::Engine as _;

use crate::example::out::{Cut, Out};
use crate::example::short::{self, Shorten};
use crate::example::view::ElwcParts;
use crate::example::view::{
    ExampleView, FeatureListsView, FeatureView, FeaturesView, Kind, MapEntry, MapView, SequenceExampleView,
};
use crate::example::{elwc, DecodeError, Decoder, Format, MessageType};

mod kinds;
mod proto;
mod seen;
use super::Section;
pub use kinds::Tracking;
pub use kinds::{KindFix, KindNote, KindTable};
pub use proto::ascii_json_string;
#[cfg(test)]
use proto::dedup_last;
pub(crate) use proto::PROTOJSON;
use seen::Seen;

/// Standard, padded base64 (RFC 4648), as both mappings write it.
pub(crate) const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// Appends the natural JSON line of `payload` (decoded as `ty`) and a newline.
///
/// `strict` is as for [`render`](crate::example::render). On error `out`
/// is left as it was.
pub fn render_json(ty: MessageType, strict: bool, payload: &[u8], out: &mut Vec<u8>) -> Result<(), DecodeError> {
    crate::example::render(Format::Json, ty, strict, payload, out)
}

/// Appends the protobuf JSON line of `payload` (decoded as `ty`) and a newline.
///
/// On error `out` is left as it was.
pub fn render_protojson(ty: MessageType, strict: bool, payload: &[u8], out: &mut Vec<u8>) -> Result<(), DecodeError> {
    crate::example::render(Format::Protojson, ty, strict, payload, out)
}

/// The natural form ([`crate::example::render_with`]).
pub(crate) const NATURAL: Mapping = Mapping {
    fast: Some(fast_example),
    example: natural_example_in,
    sequence: natural_sequence,
    elwc: ElwcKeys {
        context: b"\"context\":",
        examples: b"\"examples\":[",
        sep: b",",
        context_first: true,
        empty_examples: true,
    },
    raw: natural_bytes,
};

/// How a mapping writes an ExampleListWithContext object.
pub(crate) struct ElwcKeys {
    /// The context's key (and its separator).
    pub(crate) context: &'static [u8],
    /// The examples' key and the array's `[`.
    pub(crate) examples: &'static [u8],
    /// Between members and between examples.
    pub(crate) sep: &'static [u8],
    /// Context before examples (else field-number order).
    pub(crate) context_first: bool,
    /// Whether an empty list of examples is written (`[]`).
    pub(crate) empty_examples: bool,
}

/// A writer straight from wire bytes: false, with nothing written, when
/// the payload is not what it handles.
type Fast = fn(&[u8], &mut Out<'_>) -> bool;

/// The writers of one JSON mapping, by message type.
pub(crate) struct Mapping {
    /// A path straight from the wire for plain Example output; false when
    /// it does not apply (nothing written).
    fast: Option<Fast>,
    /// An Example; `seen` holds the names of the section it is in (the
    /// natural form writes a value typed where its name had another kind).
    example: fn(&ExampleView<'_>, &mut Seen, &mut Out<'_>),
    sequence: fn(&SequenceExampleView<'_>, &mut Out<'_>),
    elwc: ElwcKeys,
    /// A whole raw payload (unless it is shortened).
    raw: fn(&[u8], &mut Out<'_>),
}

impl Mapping {
    /// Decodes `payload` as `ty` and writes its line.
    pub(crate) fn line(
        &self,
        decoder: &mut Decoder,
        ty: MessageType,
        strict: bool,
        payload: &[u8],
        out: &mut Out<'_>,
    ) -> Result<(), DecodeError> {
        let fast = |out: &mut Out<'_>| out.is_plain() && self.fast.is_some_and(|fast| fast(payload, out));
        match ty {
            MessageType::Example if fast(out) => {}
            MessageType::Example => {
                let mut seen = Seen::new(Section::Features);
                (self.example)(&decoder.example(payload, strict)?, &mut seen, out)
            }
            MessageType::SequenceExample => (self.sequence)(&decoder.sequence_example(payload, strict)?, out),
            MessageType::Elwc => {
                let parts = elwc::checked(decoder, payload, strict)?;
                self.elwc_object(decoder, payload, &parts, out);
            }
            MessageType::Raw => match out.short().and_then(|s| short::cut(payload, s.max_bytes)) {
                Some(start) => shortened_value(payload, start, out),
                None => (self.raw)(payload, out),
            },
        }
        out.push(b'\n');
        Ok(())
    }

    /// An ExampleListWithContext object of checked `parts`.
    fn elwc_object(&self, decoder: &mut Decoder, payload: &[u8], parts: &ElwcParts<'_>, out: &mut Out<'_>) {
        let keys = &self.elwc;
        let has_examples = keys.empty_examples || !parts.examples.is_empty();
        let context = |decoder: &mut Decoder, out: &mut Out<'_>| {
            out.extend_from_slice(keys.context);
            elwc::with_context(decoder, payload, parts, |view| {
                (self.example)(view, &mut Seen::new(Section::Context), out)
            });
        };
        // The examples are one section (from-jsonl tracks their kinds together).
        let examples = |decoder: &mut Decoder, out: &mut Out<'_>| {
            out.extend_from_slice(keys.examples);
            let mut first = true;
            let mut seen = Seen::new(Section::Features);
            elwc::each_example(decoder, payload, parts, |view| {
                if !first {
                    out.extend_from_slice(keys.sep);
                }
                first = false;
                (self.example)(view, &mut seen, out);
            });
            out.push(b']');
        };
        let has_context = !parts.context.is_empty();
        let order = if keys.context_first {
            [true, false]
        } else {
            [false, true]
        };
        out.push(b'{');
        let mut first = true;
        for is_context in order {
            if !(if is_context { has_context } else { has_examples }) {
                continue;
            }
            if !first {
                out.extend_from_slice(keys.sep);
            }
            first = false;
            if is_context {
                context(decoder, out);
            } else {
                examples(decoder, out);
            }
        }
        out.push(b'}');
    }
}

// ---------------------------------------------------------------------------
// The natural form
// ---------------------------------------------------------------------------

#[cfg(test)]
fn natural_example(view: &ExampleView<'_>, out: &mut Out<'_>) {
    natural_example_in(view, &mut Seen::default(), out)
}

fn natural_example_in(view: &ExampleView<'_>, seen: &mut Seen, out: &mut Out<'_>) {
    match view.features() {
        Some(features) => natural_features_in(&features, seen, out),
        None => out.extend_from_slice(b"null"),
    }
}

fn natural_sequence(view: &SequenceExampleView<'_>, out: &mut Out<'_>) {
    let keys = [&b"\"context\":"[..], b",", b"\"feature_lists\":"];
    sequence(view, keys, natural_features, natural_feature_lists, out);
}

/// A SequenceExample object: `keys` are the context key, the separator and
/// the feature-lists key, each present exactly when its field is.
fn sequence(
    view: &SequenceExampleView<'_>,
    [context_key, sep, lists_key]: [&[u8]; 3],
    features: fn(&FeaturesView<'_>, &mut Out<'_>),
    lists: fn(&FeatureListsView<'_>, &mut Out<'_>),
    out: &mut Out<'_>,
) {
    out.push(b'{');
    if let Some(context) = view.context() {
        out.extend_from_slice(context_key);
        features(&context, out);
    }
    if let Some(l) = view.feature_lists() {
        if view.context().is_some() {
            out.extend_from_slice(sep);
        }
        out.extend_from_slice(lists_key);
        lists(&l, out);
    }
    out.push(b'}');
}

fn natural_features(features: &FeaturesView<'_>, out: &mut Out<'_>) {
    natural_features_in(features, &mut Seen::new(Section::Context), out)
}

/// A features map; a value whose name had another kind before (in `seen`) is typed.
fn natural_features_in(features: &FeaturesView<'_>, seen: &mut Seen, out: &mut Out<'_>) {
    natural_map(
        features,
        |key, feature, out| {
            seen.value(key.as_bytes(), feature.kind(), out, |typed, out| {
                if typed || !out.scalar(key, false) || !natural_scalar(feature, out) {
                    natural_feature(feature, typed, out)
                }
            })
        },
        out,
    );
}

/// The feature lists; a step whose list's name had another kind at an
/// earlier step (of this list or of an earlier list of that name) is typed.
fn natural_feature_lists(lists: &FeatureListsView<'_>, out: &mut Out<'_>) {
    let mut seen = Seen::new(Section::FeatureLists);
    natural_map(
        lists,
        |key, list, out| {
            out.push(b'[');
            let shown = out.short().map_or(usize::MAX, |s| s.max_values);
            let scalar = out.scalar(key, true);
            joined(list.features().take(shown), b",", out, |f, out| {
                seen.value(key.as_bytes(), f.kind(), out, |typed, out| {
                    if typed || !scalar || !natural_scalar(&f, out) {
                        natural_feature(&f, typed, out)
                    }
                })
            });
            if list.len() > shown {
                if shown > 0 {
                    out.push(b',');
                }
                shortened(&short::more_steps(list.len(), shown), None, out);
            }
            out.push(b']');
        },
        out,
    );
}

/// Writes each item with `write`, `sep` between them.
#[inline]
fn joined<T>(items: impl Iterator<Item = T>, sep: &[u8], out: &mut Out<'_>, mut write: impl FnMut(T, &mut Out<'_>)) {
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.extend_from_slice(sep);
        }
        write(item, out);
        out.spill_point();
    }
}

/// A map as one JSON object, entries in wire order (duplicates kept).
#[inline]
fn natural_map<'a, E: MapEntry + 'a>(
    map: &MapView<'a, E>,
    mut value: impl FnMut(&str, &E::Value<'a>, &mut Out<'_>),
    out: &mut Out<'_>,
) {
    out.push(b'{');
    let mut first = true;
    for (key, v) in map.entries() {
        if !out.keeps(key) {
            continue;
        }
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        json_string(key.as_bytes(), out);
        out.push(b':');
        value(key, &v, out);
        out.spill_point();
    }
    out.push(b'}');
}

/// A float list: the typed form when `typed` or no value is finite (only
/// a finite value marks a list as numbers), else the natural one.
#[inline]
fn natural_floats(values: impl Iterator<Item = f32> + Clone, typed: bool, out: &mut Out<'_>) {
    let typed = typed || !values.clone().any(f32::is_finite);
    if typed {
        out.extend_from_slice(b"{\"float_list\":");
    }
    out.push(b'[');
    let mut buf = ryu::Buffer::new();
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        natural_float(v, &mut buf, out);
        out.spill_point();
    }
    out.push(b']');
    if typed {
        out.push(b'}');
    }
}

/// A `{"shortened": WHAT}` marker (with the start of a text value).
fn shortened(what: &str, start: Option<&[u8]>, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"shortened\":");
    json_string(what.as_bytes(), out);
    if let Some(start) = start {
        out.extend_from_slice(b",\"start\":");
        json_string(start, out);
    }
    out.push(b'}');
}

/// A cut bytes value's marker: its start is shown when it is text.
fn shortened_value(value: &[u8], start: &[u8], out: &mut Vec<u8>) {
    let text = std::str::from_utf8(value).is_ok();
    shortened(&short::what(value), text.then_some(start), out);
}

/// [`natural_feature`] with long values and lists shortened: the first
/// values, then a marker object (which `from-jsonl` refuses).
fn natural_feature_short(feature: &FeatureView<'_>, typed: bool, s: Shorten, out: &mut Out<'_>) {
    let shown = s.max_values;
    let more = short::longer_than(feature, shown);
    let typed = match feature.kind() {
        Kind::None => return out.extend_from_slice(b"null"),
        _ if feature.is_empty() => return natural_feature_whole(feature, typed, out),
        Kind::Float => typed || !feature.floats().any(f32::is_finite),
        _ => typed,
    };
    if typed {
        out.extend_from_slice(typed_key(feature.kind()));
    }
    out.push(b'[');
    match feature.kind() {
        Kind::Int64 => {
            let mut buf = itoa::Buffer::new();
            joined(feature.int64s().take(shown), b",", out, |v, out| {
                out.extend_from_slice(buf.format(v).as_bytes())
            });
        }
        Kind::Float => {
            let mut buf = ryu::Buffer::new();
            joined(feature.floats().take(shown), b",", out, |v, out| {
                natural_float(v, &mut buf, out)
            });
        }
        _ => joined(feature.bytes().take(shown), b",", out, |v, out| {
            match short::cut(v, s.max_bytes) {
                Some(start) => shortened_value(v, start, out),
                None => natural_bytes(v, out),
            }
        }),
    }
    if more {
        if shown > 0 {
            out.push(b',');
        }
        shortened(&short::more(feature, shown), None, out);
    }
    out.push(b']');
    if typed {
        out.push(b'}');
    }
}

/// Appends one Feature in the JSONL mapping (its natural form, or the
/// typed form where that would read back differently): a cell of `to-csv`,
/// a value of `to-wds`'s `.json`.
pub fn feature_json(feature: &FeatureView<'_>, out: &mut Vec<u8>) {
    natural_feature_whole(feature, false, &mut Out::new(out))
}

/// A feature's first value as text (an int64 in decimal, a float as the
/// JSONL mapping writes it, bytes as they are) appended to `out`, and how
/// many values it has, counted up to 2 (a name or key takes exactly one).
pub fn first_value_text(v: &crate::example::FeatureView<'_>, out: &mut Vec<u8>) -> usize {
    use crate::example::Kind;
    match v.kind() {
        Kind::Int64 => {
            v.int64s()
                .take(1)
                .for_each(|x| out.extend_from_slice(itoa::Buffer::new().format(x).as_bytes()));
            v.int64s().take(2).count()
        }
        Kind::Float => {
            v.floats().take(1).for_each(|x| float_text(x, out));
            v.floats().take(2).count()
        }
        Kind::Bytes => {
            v.bytes().take(1).for_each(|x| out.extend_from_slice(x));
            v.bytes().take(2).count()
        }
        Kind::None => 0,
    }
}

/// Appends a float32 as the JSONL mapping writes it, unquoted: the
/// shortest digits that read back to it, `NaN`, `Infinity`, `-Infinity`.
pub fn float_text(v: f32, out: &mut Vec<u8>) {
    if v.is_finite() {
        natural_float(v, &mut ryu::Buffer::new(), out);
    } else {
        let quoted = non_finite(v);
        out.extend_from_slice(&quoted[1..quoted.len() - 1]);
    }
}

/// One Feature, natural form unless it would read back differently (or
/// `typed`: its name had another kind before in the record).
#[inline]
fn natural_feature(feature: &FeatureView<'_>, typed: bool, out: &mut Out<'_>) {
    if let Some(s) = out.short() {
        return natural_feature_short(feature, typed, s, out);
    }
    natural_feature_whole(feature, typed, out)
}

/// A Feature of exactly one value written bare (`7`, `0.5`, `"cat"`,
/// `{"base64": ...}`), which from-jsonl reads back as that one-value
/// list; false, with nothing written, for any other Feature and for a
/// lone non-finite float (whose natural form is typed).
fn natural_scalar(feature: &FeatureView<'_>, out: &mut Out<'_>) -> bool {
    fn one<T>(mut values: impl Iterator<Item = T>) -> Option<T> {
        let first = values.next()?;
        values.next().is_none().then_some(first)
    }
    match feature.kind() {
        Kind::Int64 => one(feature.int64s()).map(|v| out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes())),
        Kind::Float => one(feature.floats())
            .filter(|v| v.is_finite())
            .map(|v| natural_float(v, &mut ryu::Buffer::new(), out)),
        Kind::Bytes => one(feature.bytes()).map(|v| natural_bytes(v, out)),
        Kind::None => None,
    }
    .is_some()
}

/// The start of a typed form of `kind` (a Feature with a kind).
fn typed_key(kind: Kind) -> &'static [u8] {
    match kind {
        Kind::Int64 => b"{\"int64_list\":",
        Kind::Float => b"{\"float_list\":",
        _ => b"{\"bytes_list\":",
    }
}

/// One Feature with all its values, typed when `typed` (or where the
/// natural form would read back differently).
#[inline]
fn natural_feature_whole(feature: &FeatureView<'_>, typed: bool, out: &mut Out<'_>) {
    match feature.kind() {
        Kind::Float => return natural_floats(feature.floats(), typed, out),
        Kind::None => return out.extend_from_slice(b"null"),
        _ => {}
    }
    if typed {
        out.extend_from_slice(typed_key(feature.kind()));
    }
    natural_feature_inner(feature, typed, out);
    if typed {
        out.push(b'}');
    }
}

/// [`natural_feature_whole`] inside the typed form's braces when `typed`.
#[inline]
fn natural_feature_inner(feature: &FeatureView<'_>, typed: bool, out: &mut Out<'_>) {
    match feature.kind() {
        Kind::None => out.extend_from_slice(b"null"),
        Kind::Int64 => {
            let mut values = feature.int64s();
            let Some(first) = values.next() else {
                out.extend_from_slice(if typed { b"[]" } else { b"{\"int64_list\":[]}" });
                return;
            };
            let mut buf = itoa::Buffer::new();
            out.push(b'[');
            out.extend_from_slice(buf.format(first).as_bytes());
            for v in values {
                out.push(b',');
                out.extend_from_slice(buf.format(v).as_bytes());
                out.spill_point();
            }
            out.push(b']');
        }
        Kind::Float => natural_floats(feature.floats(), typed, out),
        Kind::Bytes => {
            let mut values = feature.bytes();
            let Some(first) = values.next() else {
                out.extend_from_slice(if typed { b"[]" } else { b"{\"bytes_list\":[]}" });
                return;
            };
            out.push(b'[');
            natural_bytes(first, out);
            for v in values {
                out.push(b',');
                natural_bytes(v, out);
                out.spill_point();
            }
            out.push(b']');
        }
    }
}

/// A float32: ryu's shortest round-trip digits, or a quoted non-finite name.
#[inline]
fn natural_float(v: f32, buf: &mut ryu::Buffer, out: &mut Vec<u8>) {
    if v.is_finite() {
        if v.to_bits() & 0x7fff_ffff == DOUBLE_ROUNDED {
            // See DOUBLE_ROUNDED: one more digit than the shortest.
            out.extend_from_slice(if v < 0.0 { b"-7.0385307e-26" } else { b"7.0385307e-26" });
            return;
        }
        // ryu always writes a `.` or an exponent: "1.0", "1e-45", "3.4028235e38".
        out.extend_from_slice(buf.format_finite(v).as_bytes());
    } else {
        out.extend_from_slice(non_finite(v));
    }
}

/// The one float32 (with its negative) whose shortest digits read back
/// wrong through a double: ryu's `7.038531e-26` is the nearest float32 to
/// that decimal, but the nearest double to it rounds to the next float32
/// (0x15ae43fe), which is what Python's `json` + `numpy.float32`, protobuf
/// and `from-jsonl` read. Found by checking every finite float32 (parse as
/// f32, parse as f64 then `as f32`, and serde_json): all others agree.
const DOUBLE_ROUNDED: u32 = 0x15ae_43fd;

/// The quoted JSON name of a non-finite float.
fn non_finite(v: f32) -> &'static [u8] {
    if v.is_nan() {
        b"\"NaN\""
    } else if v > 0.0 {
        b"\"Infinity\""
    } else {
        b"\"-Infinity\""
    }
}

/// A bytes value: a JSON string when valid UTF-8, else `{"base64": ...}`.
#[inline]
fn natural_bytes(v: &[u8], out: &mut Out<'_>) {
    if let Some(hook) = out.bytes_hook() {
        if hook(v, out) {
            return;
        }
    }
    if is_plain(v) {
        out.push(b'"');
        out.pieces(v, Cut::Byte, |p, out| out.extend_from_slice(p));
        out.push(b'"');
    } else if std::str::from_utf8(v).is_ok() {
        out.push(b'"');
        out.pieces(v, Cut::Byte, json_string_body);
        out.push(b'"');
    } else {
        out.extend_from_slice(b"{\"base64\":");
        base64_out(v, out);
        out.push(b'}');
    }
}

/// A double-quoted standard base64 string, in pieces when long.
fn base64_out(v: &[u8], out: &mut Out<'_>) {
    out.push(b'"');
    out.pieces(v, Cut::Base64, base64_body);
    out.push(b'"');
}

fn base64_body(v: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    let len = base64::encoded_len(v.len(), true).expect("base64 length fits usize");
    out.resize(start + len, 0);
    let written = BASE64.encode_slice(v, &mut out[start..]).expect("sized exactly");
    out.truncate(start + written);
}

/// What a byte becomes inside a JSON string: 0 kept, `u` as `\u00XX`, else
/// the letter of a short escape.
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Whether bytes are ASCII that a JSON string holds unescaped (the common
/// case: copied as is, with no UTF-8 check needed).
#[inline]
fn is_plain(s: &[u8]) -> bool {
    s.iter().all(|&b| b < 0x80 && ESCAPE[b as usize] == 0)
}

/// A JSON string of valid UTF-8, escaping only what JSON requires.
#[inline]
pub(crate) fn json_string(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    json_string_body(s, out);
    out.push(b'"');
}

/// [`json_string`] without the quotes; escapes are per byte, so a string
/// may be written in pieces cut anywhere.
fn json_string_body(s: &[u8], out: &mut Vec<u8>) {
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        let esc = ESCAPE[b as usize];
        if esc == 0 {
            continue;
        }
        out.extend_from_slice(&s[start..i]);
        start = i + 1;
        if esc == b'u' {
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
        } else {
            out.extend_from_slice(&[b'\\', esc]);
        }
    }
    out.extend_from_slice(&s[start..]);
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;

mod fast;
use fast::*;

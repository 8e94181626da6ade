//! JSON lines → payloads (`tfr from-jsonl`): the natural JSONL form and
//! protojson, parsed straight into protobuf wire bytes.
//!
//! A small JSON parser walks each line once into a reused index of features
//! (names and values in arenas, map entries in the order written), then
//! encodes it exactly as upb (Python protobuf, TensorFlow) does: map entries
//! with key and value always present, numbers packed. Nothing is allocated
//! per line once the buffers have grown, and JSON object order is kept, so
//! a round trip through [`render_json`](super::render_json) gives back the
//! payload byte for byte for canonically encoded records.
//!
//! # What the natural form accepts
//!
//! Everything `to-jsonl` writes (see [`json`](super)), and:
//! - a scalar for a one-value list: `"label": 1`, `"name": "cat"`,
//!   `"img": {"base64": "..."}`;
//! - `true` / `false` as the integers 1 / 0;
//! - integers and floats mixed as a float list (`[1, 2.5]`); `"NaN"`,
//!   `"Infinity"`, `"-Infinity"` next to numbers are floats;
//! - the typed form `{"int64_list"|"float_list"|"bytes_list": [...]}`
//!   anywhere, to force a kind (integers are fine in a float list); such
//!   a value is marked typed, and `from-jsonl` does not check its kind
//!   against the feature's first one (see [`Encoder::for_each_kind`]);
//! - a schema ([`Schema`], from `tfr schema --format json`) that forces the
//!   kind of each named feature, as the typed form does;
//! - base64 with or without padding.
//!
//! Floats are read the way Python's `json` then `numpy.float32` (and
//! protobuf) read them: the decimal to the nearest double, then to the
//! nearest float32. Every string `to-jsonl` writes reads back exactly.
//!
//! Rejected, with the byte offset and the feature's name: anything that is
//! not JSON, a line that is not an object, nested objects or arrays, an
//! empty list with no kind to give it, integers outside i64 in an int64
//! list, floats in an int64 list, numbers beyond the float32 range, strings
//! in a numeric list (other than the three non-finite names), numbers in a
//! bytes list, bad base64, and strings that are not Unicode (lone
//! surrogates).

use std::fmt;

use base64::Engine as _;

use super::lexer::{Parser, Str};
use super::JsonFormat;
use super::Schema;
use crate::example::view::Kind;
use crate::example::MessageType;

mod detect;
mod elwc;
mod natural;
mod protojson;
pub use detect::detect;
#[cfg(test)]
mod tests;

/// Why a line was rejected, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// Byte offset in the line.
    pub offset: usize,
    /// The feature it is about, as `name`, `context.name` or
    /// `feature_lists.name[STEP]`.
    pub key: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl LineError {
    #[cold]
    pub(crate) fn new(offset: usize, reason: impl Into<String>) -> LineError {
        LineError {
            offset,
            key: None,
            reason: reason.into(),
        }
    }

    /// The 1-based column (in characters) of the error in `line`.
    pub fn column(&self, line: &[u8]) -> usize {
        let end = self.offset.min(line.len());
        String::from_utf8_lossy(&line[..end]).chars().count() + 1
    }

    #[cold]
    fn in_key(mut self, key: impl FnOnce() -> String) -> LineError {
        if self.key.is_none() {
            self.key = Some(key());
        }
        self
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(key) => write!(f, "{key}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for LineError {}

/// A feature name as it appears in messages: as is when plain, else quoted.
fn show_key(key: &[u8]) -> String {
    let s = String::from_utf8_lossy(key);
    let plain = !s.is_empty()
        && !s
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || "\"':[].".contains(c));
    if plain {
        s.into_owned()
    } else {
        let mut out = Vec::new();
        super::render::json_string(s.as_bytes(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// One feature: its name (in the arena), kind and values, and its sizes.
#[derive(Clone, Copy, Debug)]
struct Feat {
    key: (usize, usize),
    kind: Kind,
    /// Range in `ints`, `floats` or `bytes`, by kind.
    vals: (usize, usize),
    /// Size of the list's packed data (numbers) or of its fields (bytes).
    inner: usize,
    /// Size of the `Feature` message.
    size: usize,
    /// Its kind was written out (the typed form, or protojson): taken as
    /// it is, not checked against the kind of the name's first value.
    typed: bool,
}

/// A feature list: its name and its features in `steps`.
#[derive(Clone, Copy, Debug)]
struct ListEntry {
    key: (usize, usize),
    steps: (usize, usize),
    /// Size of the `FeatureList` message.
    size: usize,
}

/// The kind of a value seen in a natural list, before the list's kind is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    /// A JSON integer within i64 (`int`).
    Int,
    /// A JSON integer outside i64 (text in the line).
    BigInt,
    /// A JSON number with a fraction or exponent (text in the line).
    Float,
    /// `true` / `false` (`int` 1 / 0).
    Bool,
    /// A string (unescaped in the arena).
    Str,
    /// `{"base64": ...}` (decoded in the arena).
    Bytes,
}

/// One value of a natural list.
#[derive(Clone, Copy, Debug)]
struct Item {
    tag: Tag,
    /// Where it starts in the line (for errors).
    at: usize,
    /// Text span in the line (numbers) or arena range (strings, bytes).
    span: (usize, usize),
    int: i64,
}

/// Where a list's kind came from, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Forced {
    /// Inferred from the values.
    No,
    /// The typed form.
    Typed,
    /// `--schema`.
    Schema,
}

/// Encodes JSON lines as payloads; reuse one for every line.
#[derive(Debug)]
pub struct Encoder {
    format: JsonFormat,
    schema: Option<Schema>,
    /// Features whose plain integers are read as floats (the name was
    /// seen as float before); unlike `schema` a typed form overrides it.
    coerce: Option<Schema>,
    /// Feature names and bytes values, unescaped.
    arena: Vec<u8>,
    /// Example features or SequenceExample context.
    feats: Vec<Feat>,
    /// Feature lists.
    lists: Vec<ListEntry>,
    /// The features of every feature list.
    steps: Vec<Feat>,
    ints: Vec<i64>,
    floats: Vec<f32>,
    bytes: Vec<(usize, usize)>,
    /// The list being read.
    items: Vec<Item>,
    /// Unescaped structural keys.
    scratch: Vec<u8>,
    /// The message type of the last line encoded.
    last_type: MessageType,
    /// The feature kinds of an ELWC line's examples and context.
    elwc_kinds: Vec<elwc::ElwcKind>,
    /// The span in the line of the first integer stored in a float list
    /// that float32 does not hold exactly (past 2^24).
    inexact: Option<(usize, usize)>,
}

impl Encoder {
    /// An encoder for lines in `format`, with kinds forced by `schema`.
    pub fn new(format: JsonFormat, schema: Option<Schema>) -> Encoder {
        Encoder {
            format,
            schema,
            coerce: None,
            arena: Vec::new(),
            feats: Vec::new(),
            lists: Vec::new(),
            steps: Vec::new(),
            ints: Vec::new(),
            floats: Vec::new(),
            bytes: Vec::new(),
            items: Vec::new(),
            scratch: Vec::new(),
            last_type: MessageType::Raw,
            elwc_kinds: Vec::new(),
            inexact: None,
        }
    }

    /// Reads plain integers of the features `floats` names as floats
    /// (a typed form keeps its kind).
    pub fn coercing(mut self, floats: Schema) -> Encoder {
        self.coerce = Some(floats);
        self
    }

    fn clear(&mut self) {
        self.arena.clear();
        self.feats.clear();
        self.lists.clear();
        self.steps.clear();
        self.ints.clear();
        self.floats.clear();
        self.bytes.clear();
        self.elwc_kinds.clear();
        self.inexact = None;
    }

    /// The span (in the line) of the first integer of the line just
    /// encoded that went into a float list rounded: float32 holds every
    /// integer up to 2^24 exactly, and only some beyond.
    pub fn inexact_integer(&self) -> Option<(usize, usize)> {
        self.inexact
    }

    /// Appends the payload of one JSON `line`, read as a `ty` message, to
    /// `out`. On error `out` is left as it was.
    pub fn encode(&mut self, ty: MessageType, line: &[u8], out: &mut Vec<u8>) -> Result<(), LineError> {
        let start = out.len();
        let result = self.encode_inner(ty, line, out);
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// Calls `f(section, name, kind, typed)`, in line order, for each
    /// feature of the line just encoded that has a kind: an Example's
    /// features (`Features`), a SequenceExample's context (`Context`) and,
    /// once per step, its feature lists (`FeatureLists`); an
    /// ExampleListWithContext's context and the features of all its
    /// Examples. Nothing for raw payloads. A `typed` value (its kind was
    /// written out) is reported only when it is the first value of its
    /// name in its section of the line: only then can it settle the
    /// feature's kind, and a typed value is never checked against it.
    pub fn for_each_kind(&self, mut f: impl FnMut(Section, &[u8], Kind, bool)) {
        let name = |key: (usize, usize)| &self.arena[key.0..key.1];
        let typed = |f: &Feat| f.typed && f.kind != Kind::None;
        let any_typed =
            self.feats.iter().any(typed) || self.steps.iter().any(typed) || self.elwc_kinds.iter().any(|k| k.3);
        if !any_typed {
            // The usual line.
            return self.each_kind(|section, key, kind, typed| f(section, name(key), kind, typed));
        }
        // Whether a typed value is the first of its name: a look back in
        // a short line, a set of the names in a long one.
        let n = self.feats.len() + self.steps.len() + self.elwc_kinds.len();
        let mut names: Vec<(Section, &[u8])> = Vec::with_capacity(n.min(32));
        let mut set = (n > 32).then(std::collections::HashSet::new);
        self.each_kind(|section, key, kind, typed| {
            let this = name(key);
            let first = match &mut set {
                Some(set) => set.insert((section, this)),
                None => {
                    let first = !typed || !names.iter().any(|&(s, n)| s == section && n == this);
                    names.push((section, this));
                    first
                }
            };
            if first || !typed {
                f(section, this, kind, typed);
            }
        });
    }

    /// Calls `f(section, name span, kind, typed)` for each feature of the
    /// line just encoded that has a kind, in line order.
    #[inline]
    fn each_kind(&self, mut f: impl FnMut(Section, (usize, usize), Kind, bool)) {
        let section = match self.last_type {
            MessageType::Raw => return,
            MessageType::SequenceExample => Section::Context,
            _ => Section::Features,
        };
        // An ELWC line has its kinds in `elwc_kinds` (its `feats` drained).
        for feat in self.feats.iter().filter(|f| f.kind != Kind::None) {
            f(section, feat.key, feat.kind, feat.typed);
        }
        for list in &self.lists {
            let steps = &self.steps[list.steps.0..list.steps.1];
            for step in steps.iter().filter(|s| s.kind != Kind::None) {
                f(Section::FeatureLists, list.key, step.kind, step.typed);
            }
        }
        for &(section, key, kind, typed) in &self.elwc_kinds {
            f(section, key, kind, typed);
        }
    }

    fn encode_inner(&mut self, ty: MessageType, line: &[u8], out: &mut Vec<u8>) -> Result<(), LineError> {
        // UTF-8 is checked string by string (only strings may hold non-ASCII).
        self.clear();
        self.last_type = ty;
        let mut p = Parser { s: line, i: 0 };
        p.ws();
        match (ty, self.format) {
            (MessageType::Raw, format) => self.raw(&mut p, format, out)?,
            (MessageType::Example, JsonFormat::Natural) => {
                if !p.null()? {
                    p.require_object("an Example")?;
                    self.natural_features(&mut p, Section::Features)?;
                    self.write_example(out);
                }
            }
            (MessageType::SequenceExample, JsonFormat::Natural) => {
                if !p.null()? {
                    p.require_object("a SequenceExample")?;
                    let (context, lists) = self.natural_sequence(&mut p)?;
                    self.write_sequence(context, lists, out);
                }
            }
            (MessageType::Elwc, _) => {
                p.require_object("an ExampleListWithContext")?;
                self.elwc(&mut p, out)?;
            }
            (MessageType::Example, JsonFormat::Protojson) => {
                p.require_object("an Example")?;
                let features = self.proto_example(&mut p, Section::Features)?;
                if features {
                    self.write_example(out);
                }
            }
            (MessageType::SequenceExample, JsonFormat::Protojson) => {
                p.require_object("a SequenceExample")?;
                let (context, lists) = self.proto_sequence(&mut p)?;
                self.write_sequence(context, lists, out);
            }
        }
        p.ws();
        if p.i < line.len() {
            return Err(p.err("unexpected characters after the record's JSON value"));
        }
        Ok(())
    }

    /// `--type raw`: a string, or base64 (`{"base64": ...}` in the natural
    /// form, a base64 string in protojson).
    fn raw(&mut self, p: &mut Parser<'_>, format: JsonFormat, out: &mut Vec<u8>) -> Result<(), LineError> {
        match (p.peek(), format) {
            (Some(b'"'), JsonFormat::Natural) => {
                let s = p.string()?;
                p.unescape(s, out)?;
            }
            (Some(b'"'), JsonFormat::Protojson) => {
                let s = p.string()?;
                self.scratch.clear();
                p.unescape(s, &mut self.scratch)?;
                decode_base64(&self.scratch, true, out).map_err(|r| LineError::new(s.at, r))?;
            }
            (Some(b'{'), JsonFormat::Natural) => {
                self.base64_object_start(p, "a raw payload is a JSON string or {\"base64\": \"...\"}")?;
                self.base64_value(p, out)?;
                p.ws();
                p.expect(b'}', "'}' (a {\"base64\": ...} object has one key)")?;
            }
            _ => {
                return Err(p.err(match format {
                    JsonFormat::Natural => "a raw payload is a JSON string or {\"base64\": \"...\"}",
                    JsonFormat::Protojson => "a raw payload is a base64 JSON string",
                }))
            }
        }
        Ok(())
    }

    /// Whether the JSON string `s` equals `lit`.
    fn key_is(&mut self, p: &Parser<'_>, s: Str, lit: &str) -> Result<bool, LineError> {
        if !s.escaped {
            return Ok(&p.s[s.span.0..s.span.1] == lit.as_bytes());
        }
        self.scratch.clear();
        p.unescape(s, &mut self.scratch)?;
        Ok(self.scratch == lit.as_bytes())
    }

    /// Reads a member's key (a feature name) into the arena, and the colon
    /// after it; returns the name's span in the arena.
    fn member_key(&mut self, p: &mut Parser<'_>) -> Result<(usize, usize), LineError> {
        let key = p.string()?;
        let start = self.arena.len();
        p.unescape(key, &mut self.arena)?;
        p.colon()?;
        Ok((start, self.arena.len()))
    }

    /// Reads `{"base64": ` up to the value, at an opening brace; a key other
    /// than "base64" is an error saying `what`. Returns where the object starts.
    fn base64_object_start(&mut self, p: &mut Parser<'_>, what: &str) -> Result<usize, LineError> {
        let at = p.i;
        p.i += 1;
        p.ws();
        let key = p.string()?;
        if !self.key_is(p, key, "base64")? {
            return Err(LineError::new(at, what));
        }
        p.colon()?;
        Ok(at)
    }

    /// The unescaped text of a structural key (for messages and matching).
    fn key_text(&mut self, p: &Parser<'_>, s: Str) -> Result<String, LineError> {
        self.scratch.clear();
        p.unescape(s, &mut self.scratch)?;
        Ok(String::from_utf8_lossy(&self.scratch).into_owned())
    }

    /// Reads a `{"base64": "..."}` value's string, decoded, into `out`.
    fn base64_value(&mut self, p: &mut Parser<'_>, out: &mut Vec<u8>) -> Result<(), LineError> {
        p.ws();
        if p.peek() != Some(b'"') {
            return Err(p.err("the value of \"base64\" must be a string"));
        }
        let s = p.string()?;
        let text = &p.s[s.span.0..s.span.1];
        if s.escaped {
            self.scratch.clear();
            p.unescape(s, &mut self.scratch)?;
            decode_base64(&self.scratch, false, out)
        } else {
            decode_base64(text, false, out)
        }
        .map_err(|r| LineError::new(s.at, r))
    }

    // -- the natural form ---------------------------------------------------
}

impl Encoder {
    /// Computes the sizes of the features in `feats[range]` (or `steps`).
    fn size_features(&self, feats: &mut [Feat]) {
        for f in feats {
            let (a, b) = f.vals;
            f.inner = match f.kind {
                Kind::None => 0,
                Kind::Int64 => self.ints[a..b].iter().map(|&v| varint_len(v as u64)).sum(),
                Kind::Float => 4 * (b - a),
                Kind::Bytes => self.bytes[a..b].iter().map(|&(s, e)| field_len(e - s)).sum(),
            };
            let list = match f.kind {
                Kind::None => 0,
                Kind::Bytes => f.inner,
                _ if a == b => 0,
                _ => field_len(f.inner),
            };
            f.size = if f.kind == Kind::None { 0 } else { field_len(list) };
        }
    }

    /// Size of a `Features` message holding `feats`.
    fn features_size(feats: &[Feat]) -> usize {
        feats
            .iter()
            .map(|f| field_len(field_len(f.key.1 - f.key.0) + field_len(f.size)))
            .sum()
    }

    fn write_example(&mut self, out: &mut Vec<u8>) {
        let mut feats = std::mem::take(&mut self.feats);
        keep_last_if_empty(&mut feats, &self.arena);
        self.size_features(&mut feats);
        put_tag_len(out, 0x0a, Self::features_size(&feats));
        self.write_features(&feats, out);
        self.feats = feats;
    }

    fn write_sequence(&mut self, context: bool, lists: bool, out: &mut Vec<u8>) {
        let mut feats = std::mem::take(&mut self.feats);
        let mut steps = std::mem::take(&mut self.steps);
        self.size_features(&mut feats);
        self.size_features(&mut steps);
        if context {
            put_tag_len(out, 0x0a, Self::features_size(&feats));
            self.write_features(&feats, out);
        }
        if lists {
            let mut total = 0;
            for entry in &mut self.lists {
                entry.size = steps[entry.steps.0..entry.steps.1]
                    .iter()
                    .map(|f| field_len(f.size))
                    .sum();
                total += field_len(field_len(entry.key.1 - entry.key.0) + field_len(entry.size));
            }
            put_tag_len(out, 0x12, total);
            for entry in &self.lists {
                let key = &self.arena[entry.key.0..entry.key.1];
                put_tag_len(out, 0x0a, field_len(key.len()) + field_len(entry.size));
                put_tag_len(out, 0x0a, key.len());
                out.extend_from_slice(key);
                put_tag_len(out, 0x12, entry.size);
                for f in &steps[entry.steps.0..entry.steps.1] {
                    put_tag_len(out, 0x0a, f.size);
                    self.write_feature(f, out);
                }
            }
        }
        self.feats = feats;
        self.steps = steps;
    }

    /// The entries of a `Features` message.
    fn write_features(&self, feats: &[Feat], out: &mut Vec<u8>) {
        for f in feats {
            let key = &self.arena[f.key.0..f.key.1];
            put_tag_len(out, 0x0a, field_len(key.len()) + field_len(f.size));
            put_tag_len(out, 0x0a, key.len());
            out.extend_from_slice(key);
            put_tag_len(out, 0x12, f.size);
            self.write_feature(f, out);
        }
    }

    /// The body of a `Feature` message.
    #[inline]
    fn write_feature(&self, f: &Feat, out: &mut Vec<u8>) {
        let (a, b) = f.vals;
        match f.kind {
            Kind::None => {}
            Kind::Bytes => {
                put_tag_len(out, 0x0a, f.inner);
                for &(s, e) in &self.bytes[a..b] {
                    put_tag_len(out, 0x0a, e - s);
                    out.extend_from_slice(&self.arena[s..e]);
                }
            }
            Kind::Float => {
                if a == b {
                    out.extend_from_slice(&[0x12, 0]);
                    return;
                }
                put_tag_len(out, 0x12, field_len(f.inner));
                put_tag_len(out, 0x0a, f.inner);
                for v in &self.floats[a..b] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            Kind::Int64 => {
                if a == b {
                    out.extend_from_slice(&[0x1a, 0]);
                    return;
                }
                put_tag_len(out, 0x1a, field_len(f.inner));
                put_tag_len(out, 0x0a, f.inner);
                for &v in &self.ints[a..b] {
                    put_varint(out, v as u64);
                }
            }
        }
    }
}

/// Which map a feature is in, for sizes, schemas and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    /// An Example's features.
    Features,
    /// A SequenceExample's context.
    Context,
    /// A SequenceExample's feature lists.
    FeatureLists,
}

impl Section {
    /// The path of a feature in messages.
    pub fn path(self, key: &[u8], step: Option<usize>) -> String {
        let key = show_key(key);
        match (self, step) {
            (Section::Features, _) => key,
            (Section::Context, _) => format!("context.{key}"),
            (Section::FeatureLists, None) => format!("feature_lists.{key}"),
            (Section::FeatureLists, Some(s)) => format!("feature_lists.{key}[{s}]"),
        }
    }
}

/// "an int64 list", "an int64_list", "an int64 feature (--schema)".
fn in_list(kind: Kind, forced: Forced) -> String {
    let article = if kind == Kind::Int64 { "an" } else { "a" };
    match forced {
        Forced::No => format!("{article} {} list", kind.name()),
        Forced::Typed => format!("{article} {}", kind.list_field()),
        Forced::Schema => format!("{article} {} feature (--schema)", kind.name()),
    }
}

fn tag_name(tag: Tag) -> &'static str {
    match tag {
        Tag::Int | Tag::BigInt => "integer",
        Tag::Float => "float",
        Tag::Bool => "boolean",
        Tag::Str => "string",
        Tag::Bytes => "{\"base64\"} value",
    }
}

/// `"NaN"`, `"Infinity"`, `"-Infinity"`.
fn special(s: &[u8]) -> Option<f32> {
    match s {
        b"NaN" => Some(f32::NAN),
        b"Infinity" => Some(f32::INFINITY),
        b"-Infinity" => Some(f32::NEG_INFINITY),
        _ => None,
    }
}

/// A JSON number's text as float32, via the nearest double (as Python and
/// protobuf read it); finite numbers beyond the float32 range are errors.
fn parse_float(text: &[u8]) -> Result<f32, String> {
    let s = std::str::from_utf8(text).map_err(|_| "not a number".to_string())?;
    let wide: f64 = s.parse().map_err(|_| format!("{s} is not a number"))?;
    let v = wide as f32;
    if v.is_infinite() {
        return Err(format!("{s} is outside the float32 range"));
    }
    Ok(v)
}

/// Decodes standard base64 (padding optional; URL-safe too with `url_ok`).
fn decode_base64(text: &[u8], url_ok: bool, out: &mut Vec<u8>) -> Result<(), String> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const CONFIG: GeneralPurposeConfig =
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
    const STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, CONFIG);
    const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, CONFIG);
    let start = out.len();
    out.resize(start + base64::decoded_len_estimate(text.len()), 0);
    let result = match STANDARD.decode_slice(text, &mut out[start..]) {
        Err(_) if url_ok => URL_SAFE.decode_slice(text, &mut out[start..]),
        r => r,
    };
    match result {
        Ok(n) => {
            out.truncate(start + n);
            Ok(())
        }
        Err(e) => {
            out.truncate(start);
            use base64::DecodeError as E;
            let e = match e {
                base64::DecodeSliceError::DecodeError(e) => e,
                base64::DecodeSliceError::OutputSliceTooSmall => E::InvalidLength(text.len()),
            };
            Err(match e {
                E::InvalidByte(at, b) => format!("bad base64: {} at offset {at}", show_byte(b)),
                E::InvalidLength(_) => format!("bad base64: {} characters is not a valid length", text.len()),
                E::InvalidLastSymbol(at, b) => {
                    format!("bad base64: {} at offset {at} has bits past the end", show_byte(b))
                }
                E::InvalidPadding => "bad base64: wrong padding".to_string(),
            })
        }
    }
}

/// A string value for messages: JSON-quoted, shortened past 40 characters.
fn quote(s: &[u8]) -> String {
    let text = String::from_utf8_lossy(s);
    let short: String = text.chars().take(40).collect();
    let mut out = Vec::new();
    super::render::json_string(short.as_bytes(), &mut out);
    let mut q = String::from_utf8_lossy(&out).into_owned();
    if short.len() < text.len() {
        q.push_str("...");
    }
    q
}

/// A byte of base64 text, for messages.
fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

// ---------------------------------------------------------------------------
// Wire encoding
// ---------------------------------------------------------------------------

// The writers are `example::wire`'s.
use crate::example::wire::{field_len, put_tag_len, put_varint, varint_len};

#[inline]
/// Of a name given several times whose last value has no kind (`null`),
/// only that last entry is kept: protobuf reads the name as the last entry,
/// but tf.io.parse_example passes over an empty Feature and reads an
/// earlier one (see `example::tf_parser`); with one entry both read it as
/// missing. Other repeated names are written as given (both read the last).
fn keep_last_if_empty(feats: &mut Vec<Feat>, arena: &[u8]) {
    if feats.len() < 2 || feats.iter().all(|f| f.kind != Kind::None) {
        return;
    }
    let key = |f: &Feat| &arena[f.key.0..f.key.1];
    let mut last = std::collections::HashMap::with_capacity(feats.len());
    for (i, f) in feats.iter().enumerate() {
        last.insert(key(f), i);
    }
    let shadowed: Vec<bool> = feats
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let l = last[key(f)];
            l != i && feats[l].kind == Kind::None
        })
        .collect();
    let mut i = 0;
    feats.retain(|_| {
        i += 1;
        !shadowed[i - 1]
    });
}

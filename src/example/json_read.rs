//! JSON lines → payloads (`tfr from-jsonl`): the natural JSONL form and
//! protojson, parsed straight into protobuf wire bytes.
//!
//! A small JSON parser walks each line once into a reused index of features
//! (names and values in arenas, map entries in the order written), then
//! encodes it exactly as upb (Python protobuf, TensorFlow) does: map entries
//! with key and value always present, numbers packed. Nothing is allocated
//! per line once the buffers have grown, and JSON object order is kept, so
//! a round trip through [`render_json`](super::json::render_json) gives back the
//! payload byte for byte for canonically encoded records.
//!
//! # What the natural form accepts
//!
//! Everything `to-jsonl` writes (see [`json`](super::json)), and:
//! - a scalar for a one-value list: `"label": 1`, `"name": "cat"`,
//!   `"img": {"base64": "..."}`;
//! - `true` / `false` as the integers 1 / 0;
//! - integers and floats mixed as a float list (`[1, 2.5]`); `"NaN"`,
//!   `"Infinity"`, `"-Infinity"` next to numbers are floats;
//! - the typed form `{"int64_list"|"float_list"|"bytes_list": [...]}`
//!   anywhere, to force a kind (integers are fine in a float list);
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

use std::collections::HashMap;
use std::fmt;

use base64::Engine as _;

use super::view::Kind;
use super::MessageType;

/// The syntax of the input lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonFormat {
    /// The natural JSONL mapping (`tfr to-jsonl`).
    Natural,
    /// Protobuf's JSON mapping (`json_format.MessageToJson`).
    Protojson,
}

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
    fn new(offset: usize, reason: impl Into<String>) -> LineError {
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
        super::json::json_string(s.as_bytes(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

// ---------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------

/// Feature kinds forced by `--schema` (the output of `tfr schema --format
/// json`). Only the `kind` of each feature is read; a kind that is absent,
/// `"conflict"`, a list or anything else leaves the feature to inference.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    /// The schema's `type`, when given.
    pub message: Option<MessageType>,
    /// Example features.
    pub features: HashMap<String, Kind>,
    /// SequenceExample context features.
    pub context: HashMap<String, Kind>,
    /// SequenceExample feature lists.
    pub feature_lists: HashMap<String, Kind>,
}

impl Schema {
    /// Reads the JSON document written by `tfr schema --format json`.
    pub fn parse(text: &str) -> Result<Schema, String> {
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let obj = doc.as_object().ok_or("not a JSON object")?;
        let message = match obj.get("type").and_then(|t| t.as_str()) {
            Some("example") => Some(MessageType::Example),
            Some("sequence") | Some("sequence_example") => Some(MessageType::SequenceExample),
            _ => None,
        };
        let kinds = |name: &str| -> Result<HashMap<String, Kind>, String> {
            let mut map = HashMap::new();
            let Some(section) = obj.get(name) else {
                return Ok(map);
            };
            let section = section
                .as_object()
                .ok_or_else(|| format!("\"{name}\" is not an object"))?;
            for (key, info) in section {
                let kind = match info.get("kind").and_then(|k| k.as_str()) {
                    Some("int64") => Kind::Int64,
                    Some("float") => Kind::Float,
                    Some("bytes") => Kind::Bytes,
                    _ => continue,
                };
                map.insert(key.clone(), kind);
            }
            Ok(map)
        };
        Ok(Schema {
            message,
            features: kinds("features")?,
            context: kinds("context")?,
            feature_lists: kinds("feature_lists")?,
        })
    }
}

// ---------------------------------------------------------------------------
// The index of one line
// ---------------------------------------------------------------------------

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
}

impl Encoder {
    /// An encoder for lines in `format`, with kinds forced by `schema`.
    pub fn new(format: JsonFormat, schema: Option<Schema>) -> Encoder {
        Encoder {
            format,
            schema,
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
        }
    }

    fn clear(&mut self) {
        self.arena.clear();
        self.feats.clear();
        self.lists.clear();
        self.steps.clear();
        self.ints.clear();
        self.floats.clear();
        self.bytes.clear();
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

    /// Calls `f(section, name, kind)` for each feature of the line just
    /// encoded that has a kind: an Example's features (`Features`), a
    /// SequenceExample's context (`Context`) and, once per step, its
    /// feature lists (`FeatureLists`). Nothing for raw payloads.
    pub fn for_each_kind(&self, mut f: impl FnMut(Section, &[u8], Kind)) {
        let section = match self.last_type {
            MessageType::Raw => return,
            MessageType::Example => Section::Features,
            MessageType::SequenceExample => Section::Context,
        };
        for feat in self.feats.iter().filter(|f| f.kind != Kind::None) {
            f(section, &self.arena[feat.key.0..feat.key.1], feat.kind);
        }
        for list in &self.lists {
            let key = &self.arena[list.key.0..list.key.1];
            for step in self.steps[list.steps.0..list.steps.1]
                .iter()
                .filter(|s| s.kind != Kind::None)
            {
                f(Section::FeatureLists, key, step.kind);
            }
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
            (MessageType::Example, JsonFormat::Protojson) => {
                p.require_object("an Example")?;
                let features = self.proto_example(&mut p)?;
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
                let at = p.i;
                p.i += 1;
                p.ws();
                let key = p.string()?;
                if !self.key_is(p, key, "base64")? {
                    return Err(LineError::new(
                        at,
                        "a raw payload is a JSON string or {\"base64\": \"...\"}",
                    ));
                }
                p.colon()?;
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

    /// Reads a features object (the whole Example, or a context) into `feats`.
    fn natural_features(&mut self, p: &mut Parser<'_>, section: Section) -> Result<(), LineError> {
        p.members(|p| {
            let key = p.string()?;
            let kstart = self.arena.len();
            p.unescape(key, &mut self.arena)?;
            let kspan = (kstart, self.arena.len());
            p.colon()?;
            let forced = self.schema_kind(section, kspan);
            let feat = self
                .natural_feature(p, forced)
                .map_err(|e| e.in_key(|| section.path(&self.arena[kspan.0..kspan.1], None)))?;
            self.feats.push(Feat { key: kspan, ..feat });
            Ok(())
        })
    }

    /// The kind `--schema` forces for a feature.
    fn schema_kind(&self, section: Section, key: (usize, usize)) -> Option<Kind> {
        let schema = self.schema.as_ref()?;
        let map = match section {
            Section::Features => &schema.features,
            Section::Context => &schema.context,
            Section::FeatureLists => &schema.feature_lists,
        };
        if map.is_empty() {
            return None;
        }
        let name = std::str::from_utf8(&self.arena[key.0..key.1]).ok()?;
        map.get(name).copied()
    }

    /// Reads `{"context": {...}, "feature_lists": {...}}`; returns which are present.
    fn natural_sequence(&mut self, p: &mut Parser<'_>) -> Result<(bool, bool), LineError> {
        let (mut context, mut lists) = (false, false);
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            let is_context = if self.key_is(p, key, "context")? {
                true
            } else if self.key_is(p, key, "feature_lists")? {
                false
            } else {
                let name = self.key_text(p, key)?;
                return Err(LineError::new(
                    at,
                    format!(
                        "unknown key {}: a SequenceExample has only \"context\" and \"feature_lists\" (Examples? use --type example)",
                        show_key(name.as_bytes())
                    ),
                ));
            };
            let seen = if is_context { &mut context } else { &mut lists };
            if *seen {
                return Err(LineError::new(at, "repeated key"));
            }
            if p.null()? {
                return Ok(());
            }
            *seen = true;
            if is_context {
                p.require_object("the context (a features object)")?;
                self.natural_features(p, Section::Context)
            } else {
                p.require_object("the feature lists (an object of arrays of features)")?;
                self.natural_feature_lists(p)
            }
        })?;
        Ok((context, lists))
    }

    /// Reads `{"name": [FEATURE, ...], ...}` into `lists` and `steps`.
    fn natural_feature_lists(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
        p.members(|p| {
            let key = p.string()?;
            let kstart = self.arena.len();
            p.unescape(key, &mut self.arena)?;
            let kspan = (kstart, self.arena.len());
            p.colon()?;
            let forced = self.schema_kind(Section::FeatureLists, kspan);
            let first = self.steps.len();
            let path = |arena: &[u8], step: Option<usize>| Section::FeatureLists.path(&arena[kspan.0..kspan.1], step);
            if p.peek() != Some(b'[') {
                return Err(p
                    .err("a feature list is an array of features, one per step")
                    .in_key(|| path(&self.arena, None)));
            }
            p.i += 1;
            p.ws();
            if !p.eat(b']') {
                loop {
                    p.ws();
                    let feat = self
                        .natural_feature(p, forced)
                        .map_err(|e| e.in_key(|| path(&self.arena, Some(self.steps.len() - first))))?;
                    self.steps.push(Feat { key: (0, 0), ..feat });
                    if p.list_next()? {
                        break;
                    }
                }
            }
            self.lists.push(ListEntry {
                key: kspan,
                steps: (first, self.steps.len()),
                size: 0,
            });
            Ok(())
        })
    }

    /// Reads one FEATURE of the natural form.
    fn natural_feature(&mut self, p: &mut Parser<'_>, schema: Option<Kind>) -> Result<Feat, LineError> {
        self.items.clear();
        let at = p.i;
        let mut forced = schema.map_or(Forced::No, |_| Forced::Schema);
        let mut kind = schema;
        match p.peek() {
            Some(b'n') => {
                p.literal("null")?;
                return Ok(Feat {
                    key: (0, 0),
                    kind: Kind::None,
                    vals: (0, 0),
                    inner: 0,
                    size: 0,
                });
            }
            Some(b'[') => self.natural_list(p)?,
            Some(b'{') => {
                let at = p.i;
                p.i += 1;
                p.ws();
                let key = p.string()?;
                p.colon()?;
                let typed = if self.key_is(p, key, "int64_list")? {
                    Some(Kind::Int64)
                } else if self.key_is(p, key, "float_list")? {
                    Some(Kind::Float)
                } else if self.key_is(p, key, "bytes_list")? {
                    Some(Kind::Bytes)
                } else if self.key_is(p, key, "base64")? {
                    None
                } else {
                    return Err(LineError::new(
                        at,
                        "nested object: a feature is a list, a scalar, null, {\"int64_list\"|\"float_list\"|\"bytes_list\": [...]} or {\"base64\": \"...\"}",
                    ));
                };
                match typed {
                    Some(t) => {
                        if let Some(s) = schema.filter(|&s| s != t) {
                            return Err(LineError::new(
                                key.at,
                                format!("{} but the schema says {}", typed_name(t), kind_name(s)),
                            ));
                        }
                        kind = Some(t);
                        forced = Forced::Typed;
                        if p.peek() == Some(b'[') {
                            self.natural_list(p)?;
                        } else {
                            self.natural_scalar(p)?;
                        }
                    }
                    None => self.natural_base64(p, at)?,
                }
                p.ws();
                if !p.eat(b'}') {
                    return Err(p.err(if typed.is_some() {
                        "expected '}': the typed form has one key"
                    } else {
                        "expected '}': {\"base64\": ...} has one key"
                    }));
                }
            }
            _ => self.natural_scalar(p)?,
        }
        self.resolve(p.s, at, kind, forced)
    }

    /// Reads `[v, ...]` into `items`.
    fn natural_list(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
        p.i += 1;
        p.ws();
        if p.eat(b']') {
            return Ok(());
        }
        loop {
            p.ws();
            match p.peek() {
                Some(b'[') => return Err(p.err("nested array: a list holds numbers, strings or {\"base64\": ...}")),
                Some(b'{') => {
                    let at = p.i;
                    p.i += 1;
                    p.ws();
                    let key = p.string()?;
                    if !self.key_is(p, key, "base64")? {
                        return Err(LineError::new(
                            at,
                            "nested object: the only object in a list is {\"base64\": \"...\"}",
                        ));
                    }
                    p.colon()?;
                    self.natural_base64(p, at)?;
                    p.ws();
                    if !p.eat(b'}') {
                        return Err(p.err("expected '}': {\"base64\": ...} has one key"));
                    }
                }
                Some(b'n') => {
                    p.literal("null")?;
                    return Err(LineError::new(p.i - 4, "null in a list"));
                }
                _ => self.natural_scalar(p)?,
            }
            if p.list_next()? {
                return Ok(());
            }
        }
    }

    /// Reads the string of `{"base64": "..."}` (the key is read) into `items`.
    fn natural_base64(&mut self, p: &mut Parser<'_>, at: usize) -> Result<(), LineError> {
        let start = self.arena.len();
        let mut arena = std::mem::take(&mut self.arena);
        let result = self.base64_value(p, &mut arena);
        let end = arena.len();
        self.arena = arena;
        result?;
        self.items.push(Item {
            tag: Tag::Bytes,
            at,
            span: (start, end),
            int: 0,
        });
        Ok(())
    }

    /// Reads one number, string or boolean into `items`.
    fn natural_scalar(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
        let at = p.i;
        let item = match p.peek() {
            Some(b'"') => {
                let s = p.string()?;
                let start = self.arena.len();
                p.unescape(s, &mut self.arena)?;
                Item {
                    tag: Tag::Str,
                    at,
                    span: (start, self.arena.len()),
                    int: 0,
                }
            }
            Some(b't') => {
                p.literal("true")?;
                Item {
                    tag: Tag::Bool,
                    at,
                    span: (at, p.i),
                    int: 1,
                }
            }
            Some(b'f') => {
                p.literal("false")?;
                Item {
                    tag: Tag::Bool,
                    at,
                    span: (at, p.i),
                    int: 0,
                }
            }
            Some(b'-' | b'0'..=b'9') => {
                let n = p.number()?;
                Item {
                    tag: match n.int {
                        Some(_) => Tag::Int,
                        None if n.integral => Tag::BigInt,
                        None => Tag::Float,
                    },
                    at,
                    span: (at, p.i),
                    int: n.int.unwrap_or(0),
                }
            }
            Some(b'n') => {
                p.literal("null")?;
                return Err(LineError::new(at, "null is a whole feature (no kind), not a value"));
            }
            Some(_) => return Err(p.err("expected a value")),
            None => return Err(p.err("unexpected end of line")),
        };
        self.items.push(item);
        Ok(())
    }

    /// Decides the kind of the list in `items` and stores its values.
    fn resolve(&mut self, line: &[u8], at: usize, kind: Option<Kind>, forced: Forced) -> Result<Feat, LineError> {
        let kind = match kind {
            Some(k) => k,
            None => self.infer(at)?,
        };
        let (start, end);
        match kind {
            Kind::Int64 => {
                start = self.ints.len();
                for item in &self.items {
                    let v = match item.tag {
                        Tag::Int | Tag::Bool => item.int,
                        Tag::BigInt => {
                            return Err(LineError::new(
                                item.at,
                                format!(
                                    "integer {} is outside the int64 range",
                                    String::from_utf8_lossy(&line[item.span.0..item.span.1])
                                ),
                            ))
                        }
                        Tag::Float => {
                            return Err(LineError::new(
                                item.at,
                                format!(
                                    "float {} in {}",
                                    String::from_utf8_lossy(&line[item.span.0..item.span.1]),
                                    in_list(Kind::Int64, forced)
                                ),
                            ))
                        }
                        Tag::Str | Tag::Bytes => {
                            return Err(LineError::new(
                                item.at,
                                format!("string in {}", in_list(Kind::Int64, forced)),
                            ))
                        }
                    };
                    self.ints.push(v);
                }
                end = self.ints.len();
            }
            Kind::Float => {
                start = self.floats.len();
                for item in &self.items {
                    let v = match item.tag {
                        Tag::Bool => item.int as f32,
                        Tag::Int | Tag::BigInt | Tag::Float => {
                            parse_float(&line[item.span.0..item.span.1]).map_err(|r| LineError::new(item.at, r))?
                        }
                        Tag::Str => match special(&self.arena[item.span.0..item.span.1]) {
                            Some(v) => v,
                            None => {
                                return Err(LineError::new(
                                    item.at,
                                    format!(
                                    "string in {} (the only strings there are \"NaN\", \"Infinity\", \"-Infinity\")",
                                    in_list(Kind::Float, forced)
                                ),
                                ))
                            }
                        },
                        Tag::Bytes => {
                            return Err(LineError::new(
                                item.at,
                                format!("bytes in {}", in_list(Kind::Float, forced)),
                            ))
                        }
                    };
                    self.floats.push(v);
                }
                end = self.floats.len();
            }
            Kind::Bytes => {
                start = self.bytes.len();
                for item in &self.items {
                    match item.tag {
                        Tag::Str | Tag::Bytes => self.bytes.push(item.span),
                        _ => {
                            return Err(LineError::new(
                                item.at,
                                format!("{} in {}", tag_name(item.tag), in_list(Kind::Bytes, forced)),
                            ))
                        }
                    }
                }
                end = self.bytes.len();
            }
            Kind::None => unreachable!("lists always have a kind"),
        }
        Ok(Feat {
            key: (0, 0),
            kind,
            vals: (start, end),
            inner: 0,
            size: 0,
        })
    }

    /// The kind the values in `items` read as, with no type given.
    fn infer(&self, at: usize) -> Result<Kind, LineError> {
        if self.items.is_empty() {
            return Err(LineError::new(
                at,
                "empty list: its kind is unknown (write {\"int64_list\": []}, {\"float_list\": []} or {\"bytes_list\": []})",
            ));
        }
        let numeric = self
            .items
            .iter()
            .any(|i| matches!(i.tag, Tag::Int | Tag::BigInt | Tag::Float | Tag::Bool));
        if !numeric {
            return Ok(Kind::Bytes);
        }
        let mut float = false;
        for item in &self.items {
            match item.tag {
                Tag::Float => float = true,
                Tag::Str if special(&self.arena[item.span.0..item.span.1]).is_some() => float = true,
                Tag::Str => {
                    let text = String::from_utf8_lossy(&self.arena[item.span.0..item.span.1]);
                    return Err(LineError::new(
                        item.at,
                        format!("string {} in a list of numbers", quote(text.as_bytes())),
                    ));
                }
                Tag::Bytes => return Err(LineError::new(item.at, "{\"base64\"} value in a list of numbers")),
                _ => {}
            }
        }
        Ok(if float { Kind::Float } else { Kind::Int64 })
    }

    // -- protojson ----------------------------------------------------------

    /// Reads a protojson Example; returns whether `features` is present.
    fn proto_example(&mut self, p: &mut Parser<'_>) -> Result<bool, LineError> {
        let mut features = false;
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if !self.key_is(p, key, "features")? {
                let name = self.key_text(p, key)?;
                return Err(LineError::new(
                    at,
                    format!(
                        "unknown field {} in an Example (SequenceExamples? use --type sequence)",
                        show_key(name.as_bytes())
                    ),
                ));
            }
            if p.null()? {
                return Ok(());
            }
            features = true;
            self.proto_features(p, Section::Features)
        })?;
        Ok(features)
    }

    /// Reads a protojson SequenceExample; returns which fields are present.
    fn proto_sequence(&mut self, p: &mut Parser<'_>) -> Result<(bool, bool), LineError> {
        let (mut context, mut lists) = (false, false);
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if self.key_is(p, key, "context")? {
                if p.null()? {
                    return Ok(());
                }
                context = true;
                self.proto_features(p, Section::Context)
            } else if self.key_is(p, key, "featureLists")? || self.key_is(p, key, "feature_lists")? {
                if p.null()? {
                    return Ok(());
                }
                lists = true;
                self.proto_feature_lists(p)
            } else {
                let name = self.key_text(p, key)?;
                Err(LineError::new(
                    at,
                    format!(
                        "unknown field {} in a SequenceExample (Examples? use --type example)",
                        show_key(name.as_bytes())
                    ),
                ))
            }
        })?;
        Ok((context, lists))
    }

    /// Reads `{"feature": {"name": Feature, ...}}`.
    fn proto_features(&mut self, p: &mut Parser<'_>, section: Section) -> Result<(), LineError> {
        p.require_object("a Features message")?;
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if !self.key_is(p, key, "feature")? {
                let name = self.key_text(p, key)?;
                return Err(LineError::new(
                    at,
                    format!("unknown field {} in Features", show_key(name.as_bytes())),
                ));
            }
            if p.null()? {
                return Ok(());
            }
            p.require_object("the feature map")?;
            p.members(|p| {
                let key = p.string()?;
                let kstart = self.arena.len();
                p.unescape(key, &mut self.arena)?;
                let kspan = (kstart, self.arena.len());
                p.colon()?;
                let feat = self
                    .proto_feature(p)
                    .map_err(|e| e.in_key(|| section.path(&self.arena[kspan.0..kspan.1], None)))?;
                self.feats.push(Feat { key: kspan, ..feat });
                Ok(())
            })
        })
    }

    /// Reads `{"featureList": {"name": {"feature": [Feature, ...]}, ...}}`.
    fn proto_feature_lists(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
        p.require_object("a FeatureLists message")?;
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if !(self.key_is(p, key, "featureList")? || self.key_is(p, key, "feature_list")?) {
                let name = self.key_text(p, key)?;
                return Err(LineError::new(
                    at,
                    format!("unknown field {} in FeatureLists", show_key(name.as_bytes())),
                ));
            }
            if p.null()? {
                return Ok(());
            }
            p.require_object("the feature list map")?;
            p.members(|p| {
                let key = p.string()?;
                let kstart = self.arena.len();
                p.unescape(key, &mut self.arena)?;
                let kspan = (kstart, self.arena.len());
                p.colon()?;
                let first = self.steps.len();
                let path =
                    |arena: &[u8], step: Option<usize>| Section::FeatureLists.path(&arena[kspan.0..kspan.1], step);
                if !p.null()? {
                    p.require_object("a FeatureList message")
                        .map_err(|e| e.in_key(|| path(&self.arena, None)))?;
                    self.proto_repeated(p, "feature", "a FeatureList", "Features", |this, p| {
                        let feat = this.proto_feature(p)?;
                        this.steps.push(feat);
                        Ok(())
                    })
                    .map_err(|e| e.in_key(|| path(&self.arena, Some(self.steps.len() - first))))?;
                }
                self.lists.push(ListEntry {
                    key: kspan,
                    steps: (first, self.steps.len()),
                    size: 0,
                });
                Ok(())
            })
        })
    }

    /// Reads a protojson Feature: `{}` or `{"int64List": {"value": [...]}}`.
    fn proto_feature(&mut self, p: &mut Parser<'_>) -> Result<Feat, LineError> {
        let mut feat = Feat {
            key: (0, 0),
            kind: Kind::None,
            vals: (0, 0),
            inner: 0,
            size: 0,
        };
        if p.null()? {
            return Ok(feat);
        }
        p.require_object("a Feature message")?;
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            let kind = if self.key_is(p, key, "int64List")? || self.key_is(p, key, "int64_list")? {
                Kind::Int64
            } else if self.key_is(p, key, "floatList")? || self.key_is(p, key, "float_list")? {
                Kind::Float
            } else if self.key_is(p, key, "bytesList")? || self.key_is(p, key, "bytes_list")? {
                Kind::Bytes
            } else {
                let name = self.key_text(p, key)?;
                return Err(LineError::new(
                    at,
                    format!("unknown field {} in a Feature", show_key(name.as_bytes())),
                ));
            };
            if p.null()? {
                return Ok(());
            }
            if feat.kind != Kind::None {
                return Err(LineError::new(at, "a Feature holds one list (its kind is a oneof)"));
            }
            let (start, end) = self.proto_list(p, kind)?;
            feat.kind = kind;
            feat.vals = (start, end);
            Ok(())
        })?;
        Ok(feat)
    }

    /// Reads the members of a protojson message whose only field, `field`,
    /// is repeated: `null` or an array whose elements `each` reads. `message`
    /// and `items` name the message and its elements in errors.
    fn proto_repeated(
        &mut self,
        p: &mut Parser<'_>,
        field: &str,
        message: &str,
        items: &str,
        mut each: impl FnMut(&mut Self, &mut Parser<'_>) -> Result<(), LineError>,
    ) -> Result<(), LineError> {
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if !self.key_is(p, key, field)? {
                let name = self.key_text(p, key)?;
                return Err(LineError::new(
                    at,
                    format!("unknown field {} in {message}", show_key(name.as_bytes())),
                ));
            }
            if p.null()? {
                return Ok(());
            }
            if !p.eat(b'[') {
                return Err(p.err(&format!("expected an array of {items}")));
            }
            p.ws();
            if p.eat(b']') {
                return Ok(());
            }
            loop {
                p.ws();
                each(self, p)?;
                if p.list_next()? {
                    return Ok(());
                }
            }
        })
    }

    /// Reads a list message `{"value": [...]}` of `kind` into the value vectors.
    fn proto_list(&mut self, p: &mut Parser<'_>, kind: Kind) -> Result<(usize, usize), LineError> {
        let start = match kind {
            Kind::Int64 => self.ints.len(),
            Kind::Float => self.floats.len(),
            _ => self.bytes.len(),
        };
        p.require_object("a list message ({\"value\": [...]})")?;
        self.proto_repeated(p, "value", "a list message", "values", |this, p| {
            this.proto_value(p, kind)
        })?;
        Ok(match kind {
            Kind::Int64 => (start, self.ints.len()),
            Kind::Float => (start, self.floats.len()),
            _ => (start, self.bytes.len()),
        })
    }

    /// One protojson value of a list of `kind`.
    fn proto_value(&mut self, p: &mut Parser<'_>, kind: Kind) -> Result<(), LineError> {
        let at = p.i;
        match (kind, p.peek()) {
            (Kind::Int64, Some(b'"')) => {
                let s = p.string()?;
                self.scratch.clear();
                p.unescape(s, &mut self.scratch)?;
                let v = std::str::from_utf8(&self.scratch)
                    .ok()
                    .and_then(|t| t.parse::<i64>().ok())
                    .ok_or_else(|| LineError::new(at, "not an int64 (a decimal integer, as a number or a string)"))?;
                self.ints.push(v);
            }
            (Kind::Int64, Some(b'-' | b'0'..=b'9')) => {
                let n = p.number()?;
                let v = n
                    .int
                    .ok_or_else(|| LineError::new(at, "not an int64 (a decimal integer, as a number or a string)"))?;
                self.ints.push(v);
            }
            (Kind::Float, Some(b'"')) => {
                let s = p.string()?;
                self.scratch.clear();
                p.unescape(s, &mut self.scratch)?;
                let v = match special(&self.scratch) {
                    Some(v) => v,
                    None => parse_float(&self.scratch).map_err(|_| {
                        LineError::new(at, "not a float (a number, \"NaN\", \"Infinity\" or \"-Infinity\")")
                    })?,
                };
                self.floats.push(v);
            }
            (Kind::Float, Some(b'-' | b'0'..=b'9')) => {
                p.number()?;
                let v = parse_float(&p.s[at..p.i]).map_err(|r| LineError::new(at, r))?;
                self.floats.push(v);
            }
            (Kind::Bytes, Some(b'"')) => {
                let s = p.string()?;
                self.scratch.clear();
                p.unescape(s, &mut self.scratch)?;
                let start = self.arena.len();
                decode_base64(&self.scratch, true, &mut self.arena).map_err(|r| LineError::new(at, r))?;
                self.bytes.push((start, self.arena.len()));
            }
            (Kind::Bytes, _) => return Err(p.err("expected a base64 string")),
            (Kind::Int64, _) => return Err(p.err("expected an int64 (a number or a string)")),
            _ => return Err(p.err("expected a float (a number or a string)")),
        }
        Ok(())
    }

    // -- encoding -----------------------------------------------------------

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
    Features,
    Context,
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

fn typed_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Int64 => "int64_list",
        Kind::Float => "float_list",
        Kind::Bytes => "bytes_list",
        Kind::None => "no kind",
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Int64 => "int64",
        Kind::Float => "float",
        Kind::Bytes => "bytes",
        Kind::None => "none",
    }
}

/// "an int64 list", "an int64_list", "an int64 feature (--schema)".
fn in_list(kind: Kind, forced: Forced) -> String {
    let article = if kind == Kind::Int64 { "an" } else { "a" };
    match forced {
        Forced::No => format!("{article} {} list", kind_name(kind)),
        Forced::Typed => format!("{article} {}", typed_name(kind)),
        Forced::Schema => format!("{article} {} feature (--schema)", kind_name(kind)),
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
    super::json::json_string(short.as_bytes(), &mut out);
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

#[inline]
fn varint_len(v: u64) -> usize {
    // 1 byte per 7 bits, at least one.
    (64 - (v | 1).leading_zeros() as usize).div_ceil(7)
}

/// Size of a length-delimited field (1-byte tag) with `len` bytes of content.
#[inline]
fn field_len(len: usize) -> usize {
    1 + varint_len(len as u64) + len
}

#[inline]
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
fn put_tag_len(out: &mut Vec<u8>, tag: u8, len: usize) {
    out.push(tag);
    put_varint(out, len as u64);
}

// ---------------------------------------------------------------------------
// Type detection
// ---------------------------------------------------------------------------

/// `--type auto`: the message type of a file from its first line.
///
/// Natural form: a SequenceExample when the line is an object with a
/// `feature_lists` key or a `context` key holding an object of features, and
/// no key other than `context` and `feature_lists`; else an Example. Protojson: a SequenceExample when the object has a
/// `context` or `featureLists` (`feature_lists`) key; else an Example.
pub fn detect(format: JsonFormat, line: &[u8]) -> MessageType {
    let mut p = Parser { s: line, i: 0 };
    p.ws();
    if p.peek() != Some(b'{') {
        return MessageType::Example;
    }
    let (mut lists, mut context, mut other) = (false, false, false);
    let scanned = p.members(|p| {
        let s = p.string()?;
        let key = &p.s[s.span.0..s.span.1];
        match key {
            b"context" if format == JsonFormat::Natural => {
                p.colon()?;
                // A context is an object of features; a feature named
                // "context" can only be an object in the typed form.
                if context_like(p) {
                    context = true;
                } else {
                    other = true;
                }
                return p.skip_value(0);
            }
            b"context" => context = true,
            b"feature_lists" => lists = true,
            b"featureLists" if format == JsonFormat::Protojson => lists = true,
            _ => other = true,
        }
        p.colon()?;
        p.skip_value(0)
    });
    let sequence = match format {
        JsonFormat::Natural => (lists || context) && !other,
        JsonFormat::Protojson => lists || context,
    };
    if scanned.is_ok() && sequence {
        MessageType::SequenceExample
    } else {
        MessageType::Example
    }
}

/// Whether the value at the parser's position is an object that is not a
/// typed-form feature (`{"int64_list": ...}` etc.) nor `{"base64": ...}`.
/// Leaves the position unchanged.
fn context_like(p: &mut Parser<'_>) -> bool {
    let start = p.i;
    p.ws();
    let mut result = false;
    if p.peek() == Some(b'{') {
        p.i += 1;
        p.ws();
        result = match p.peek() {
            Some(b'}') => true,
            Some(b'"') => match p.string() {
                Ok(k) => !matches!(
                    &p.s[k.span.0..k.span.1],
                    b"int64_list" | b"float_list" | b"bytes_list" | b"base64"
                ),
                Err(_) => false,
            },
            _ => false,
        };
    }
    p.i = start;
    result
}

// ---------------------------------------------------------------------------
// The JSON parser
// ---------------------------------------------------------------------------

/// A JSON string in the line: its content span (between the quotes).
#[derive(Clone, Copy, Debug)]
struct Str {
    /// Where the opening quote is.
    at: usize,
    span: (usize, usize),
    escaped: bool,
}

/// A JSON number just read.
struct Number {
    /// Its value when it is an integer within i64.
    int: Option<i64>,
    /// No fraction or exponent.
    integral: bool,
}

/// A cursor over one line (UTF-8 is checked in strings, the only place
/// non-ASCII may appear).
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

/// Bytes that end the fast scan of a string: quote, backslash, controls
/// (1), and non-ASCII (2, checked as UTF-8 at the end of the string).
static STRING_STOP: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = 1;
        i += 1;
    }
    t[b'"' as usize] = 1;
    t[b'\\' as usize] = 1;
    while i < 0x100 {
        if i >= 0x80 {
            t[i] = 2;
        }
        i += 1;
    }
    t
};

impl<'a> Parser<'a> {
    #[cold]
    fn err(&self, reason: &str) -> LineError {
        if self.i >= self.s.len() {
            return LineError::new(self.i, format!("unexpected end of line: {reason}"));
        }
        LineError::new(self.i, reason)
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r' | b'\n') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    #[inline]
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<(), LineError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(&format!("expected {what}")))
        }
    }

    /// `:` and the whitespace around it.
    #[inline]
    fn colon(&mut self) -> Result<(), LineError> {
        self.ws();
        if !self.eat(b':') {
            return Err(self.err("expected ':'"));
        }
        self.ws();
        Ok(())
    }

    /// After a list value: `,` (false: more follow) or `]` (true: done).
    #[inline]
    fn list_next(&mut self) -> Result<bool, LineError> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.i += 1;
                Ok(false)
            }
            Some(b']') => {
                self.i += 1;
                Ok(true)
            }
            _ => Err(self.err("expected ',' or ']'")),
        }
    }

    /// Checks that an object starts here, naming what was expected.
    fn require_object(&self, what: &str) -> Result<(), LineError> {
        match self.peek() {
            Some(b'{') => Ok(()),
            Some(_) => Err(self.err(&format!("expected {what}: a JSON object"))),
            None => Err(self.err(&format!("expected {what}"))),
        }
    }

    /// Reads `null` if it is next.
    #[inline]
    fn null(&mut self) -> Result<bool, LineError> {
        if self.peek() == Some(b'n') {
            self.literal("null")?;
            return Ok(true);
        }
        Ok(false)
    }

    fn literal(&mut self, word: &str) -> Result<(), LineError> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(())
        } else {
            Err(self.err("expected a value"))
        }
    }

    /// Walks the members of the object starting here: `f` reads the key
    /// (the cursor is on its quote), the colon and the value.
    #[inline]
    fn members(&mut self, mut f: impl FnMut(&mut Self) -> Result<(), LineError>) -> Result<(), LineError> {
        self.i += 1; // '{'
        self.ws();
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a key (a JSON string)"));
            }
            f(self)?;
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    /// Reads a string (the cursor is on its opening quote); checks escapes.
    #[inline]
    fn string(&mut self) -> Result<Str, LineError> {
        let at = self.i;
        if !self.eat(b'"') {
            return Err(self.err("expected a string"));
        }
        let start = self.i;
        let mut escaped = false;
        let mut ascii = true;
        loop {
            while self.i < self.s.len() && STRING_STOP[self.s[self.i] as usize] == 0 {
                self.i += 1;
            }
            match self.peek() {
                Some(0x80..=0xff) => {
                    ascii = false;
                    self.i += 1;
                }
                Some(b'"') => {
                    let end = self.i;
                    if !ascii {
                        if let Err(e) = std::str::from_utf8(&self.s[start..end]) {
                            return Err(LineError::new(start + e.valid_up_to(), "invalid UTF-8"));
                        }
                    }
                    self.i += 1;
                    return Ok(Str {
                        at,
                        span: (start, end),
                        escaped,
                    });
                }
                Some(b'\\') => {
                    escaped = true;
                    self.i += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 1,
                        Some(b'u') => {
                            let hex = self.s.get(self.i + 1..self.i + 5);
                            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                return Err(self.err("bad \\u escape (4 hex digits expected)"));
                            }
                            self.i += 5;
                        }
                        _ => return Err(self.err("bad escape")),
                    }
                }
                Some(_) => return Err(self.err("control character in a string (escape it)")),
                None => return Err(LineError::new(at, "unterminated string")),
            }
        }
    }

    /// Appends the unescaped content of `s` to `out`.
    fn unescape(&self, s: Str, out: &mut Vec<u8>) -> Result<(), LineError> {
        let text = &self.s[s.span.0..s.span.1];
        if !s.escaped {
            out.extend_from_slice(text);
            return Ok(());
        }
        let mut i = 0;
        while i < text.len() {
            let b = text[i];
            if b != b'\\' {
                out.push(b);
                i += 1;
                continue;
            }
            let c = text[i + 1];
            i += 2;
            let simple = match c {
                b'"' => b'"',
                b'\\' => b'\\',
                b'/' => b'/',
                b'b' => 8,
                b'f' => 12,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                _ => 0,
            };
            if c != b'u' {
                out.push(simple);
                continue;
            }
            let at = s.span.0 + i - 2;
            let hex4 = |j: usize| -> u32 {
                text[j..j + 4]
                    .iter()
                    .fold(0, |acc, &h| acc * 16 + (h as char).to_digit(16).unwrap_or(0))
            };
            let unit = hex4(i);
            i += 4;
            let code = if (0xd800..0xdc00).contains(&unit) {
                // A high surrogate must be followed by a low one.
                let low = (text.get(i..i + 2) == Some(b"\\u")).then(|| hex4(i + 2));
                match low {
                    Some(low) if (0xdc00..0xe000).contains(&low) => {
                        i += 6;
                        0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
                    }
                    _ => {
                        return Err(LineError::new(
                            at,
                            format!("lone surrogate \\u{unit:04x} is not Unicode"),
                        ))
                    }
                }
            } else if (0xdc00..0xe000).contains(&unit) {
                return Err(LineError::new(
                    at,
                    format!("lone surrogate \\u{unit:04x} is not Unicode"),
                ));
            } else {
                unit
            };
            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
        Ok(())
    }

    /// Reads a JSON number; its value when it is an integer within i64.
    #[inline]
    fn number(&mut self) -> Result<Number, LineError> {
        let start = self.i;
        let negative = self.eat(b'-');
        let digits = self.i;
        let mut acc: u64 = 0;
        let mut overflow = false;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            match acc.checked_mul(10).and_then(|a| a.checked_add(u64::from(d - b'0'))) {
                Some(a) => acc = a,
                None => overflow = true,
            }
            self.i += 1;
        }
        let n = self.i - digits;
        if n == 0 || (n > 1 && self.s[digits] == b'0') {
            self.i = start;
            return Err(self.err("invalid number"));
        }
        let mut integral = true;
        if self.eat(b'.') {
            integral = false;
            let frac = self.i;
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
            if self.i == frac {
                return Err(self.err("invalid number: digits expected after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integral = false;
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            let exp = self.i;
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
            if self.i == exp {
                return Err(self.err("invalid number: digits expected in the exponent"));
            }
        }
        let int = if !integral || overflow {
            None
        } else if negative {
            (acc <= 1 << 63).then(|| (acc as i64).wrapping_neg())
        } else {
            i64::try_from(acc).ok()
        };
        Ok(Number { int, integral })
    }

    /// Skips any JSON value (for type detection), checking its syntax.
    fn skip_value(&mut self, depth: usize) -> Result<(), LineError> {
        if depth > 128 {
            return Err(self.err("nested too deeply"));
        }
        match self.peek() {
            Some(b'{') => self.members(|p| {
                p.string()?;
                p.colon()?;
                p.skip_value(depth + 1)
            }),
            Some(b'[') => {
                self.i += 1;
                self.ws();
                if self.eat(b']') {
                    return Ok(());
                }
                loop {
                    self.ws();
                    self.skip_value(depth + 1)?;
                    if self.list_next()? {
                        return Ok(());
                    }
                }
            }
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.literal("true"),
            Some(b'f') => self.literal("false"),
            Some(b'n') => self.literal("null"),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            _ => Err(self.err("expected a value")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(ty: MessageType, line: &str) -> Result<Vec<u8>, LineError> {
        let mut out = b"keep".to_vec();
        let r = Encoder::new(JsonFormat::Natural, None).encode(ty, line.as_bytes(), &mut out);
        match r {
            Ok(()) => Ok(out[4..].to_vec()),
            Err(e) => {
                assert_eq!(out, b"keep", "output left as it was");
                Err(e)
            }
        }
    }

    #[test]
    fn encodes_like_upb() {
        // Bytes from Python protobuf 7.36.2 (see tests/data/README.md).
        let ex = |l| encode(MessageType::Example, l).unwrap();
        assert_eq!(
            ex(r#"{"": [5]}"#),
            [0x0a, 0x0b, 0x0a, 0x09, 0x0a, 0x00, 0x12, 0x05, 0x1a, 0x03, 0x0a, 0x01, 0x05]
        );
        assert_eq!(ex(r#"{"": null}"#), [0x0a, 0x06, 0x0a, 0x04, 0x0a, 0x00, 0x12, 0x00]);
        assert_eq!(
            ex(r#"{"k": {"int64_list": []}}"#),
            [0x0a, 0x09, 0x0a, 0x07, 0x0a, 0x01, b'k', 0x12, 0x02, 0x1a, 0x00]
        );
        assert_eq!(ex("{}"), [0x0a, 0x00]);
        assert_eq!(ex("null"), b"");
        let seq = encode(
            MessageType::SequenceExample,
            r#"{"context": {}, "feature_lists": {"x": []}}"#,
        )
        .unwrap();
        assert_eq!(seq, [0x0a, 0x00, 0x12, 0x07, 0x0a, 0x05, 0x0a, 0x01, b'x', 0x12, 0x00]);
    }

    #[test]
    fn detects_the_message_type() {
        let d = |l: &str| detect(JsonFormat::Natural, l.as_bytes());
        assert_eq!(d(r#"{"feature_lists": {}}"#), MessageType::SequenceExample);
        assert_eq!(
            d(r#"{"context": {"a": [1]}, "feature_lists": {"b": [[1]]}}"#),
            MessageType::SequenceExample
        );
        // Regression: to-jsonl -t sequence of a record without feature_lists
        // did not read back.
        assert_eq!(d(r#"{"context": {"a": [1]}}"#), MessageType::SequenceExample);
        assert_eq!(d(r#"{"context": {}}"#), MessageType::SequenceExample);
        assert_eq!(d(r#"{"context": {"int64_list": [1]}}"#), MessageType::Example);
        assert_eq!(d(r#"{"context": {"base64": "AA=="}}"#), MessageType::Example);
        assert_eq!(d(r#"{"context": [1]}"#), MessageType::Example);
        assert_eq!(d(r#"{"context": {"a": [1]}, "b": [2]}"#), MessageType::Example);
        assert_eq!(d(r#"{"feature_lists": {}, "label": [1]}"#), MessageType::Example);
        assert_eq!(d(r#"{"feature_lists": [1]"#), MessageType::Example);
        assert_eq!(d("null"), MessageType::Example);
        let p = |l: &str| detect(JsonFormat::Protojson, l.as_bytes());
        assert_eq!(p(r#"{"context": {}}"#), MessageType::SequenceExample);
        assert_eq!(p(r#"{"featureLists": {}}"#), MessageType::SequenceExample);
        assert_eq!(p(r#"{"features": {}}"#), MessageType::Example);
        // Deep nesting does not overflow the stack.
        let deep = format!("{{\"feature_lists\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(d(&deep), MessageType::Example);
    }

    #[test]
    fn json_grammar_is_strict() {
        for bad in [
            "{\"a\": [+1]}",
            "{\"a\": [.5]}",
            "{\"a\": [1.]}",
            "{\"a\": [1e]}",
            "{\"a\": [0x1]}",
            "{\"a\": [NaN]}",
            "{'a': [1]}",
            "{\"a\": [1],}",
            "{\"a\": \"\\u12\"}",
            "{\"a\": [1]}}",
        ] {
            assert!(encode(MessageType::Example, bad).is_err(), "{bad} accepted");
            assert!(serde_json::from_str::<serde_json::Value>(bad).is_err(), "{bad} is JSON");
        }
        for good in [
            "{\"a\": [1E+2, -0, 0.5e-3]}",
            " {\"a\":[\"\\/\\b\\f\"]}\t",
            "{\"a\": \"\\uD83D\\uDE00\"}",
        ] {
            assert!(encode(MessageType::Example, good).is_ok(), "{good} rejected");
        }
    }

    #[test]
    fn varint_lengths() {
        for (v, n) in [
            (0u64, 1),
            (127, 1),
            (128, 2),
            (16383, 2),
            (16384, 3),
            (u64::MAX, 10),
            (1 << 63, 10),
        ] {
            assert_eq!(varint_len(v), n, "{v}");
            let mut out = Vec::new();
            put_varint(&mut out, v);
            assert_eq!(out.len(), n);
        }
    }

    #[test]
    fn schema_reads_only_kinds() {
        let s = Schema::parse(
            r#"{"type": "sequence", "context": {"a": {"kind": "int64", "min": 1}}, "feature_lists": {"b": {"kind": ["float", "bytes"]}, "c": {"kind": "bytes"}}, "other": 1}"#,
        )
        .unwrap();
        assert_eq!(s.message, Some(MessageType::SequenceExample));
        assert_eq!(s.context.get("a"), Some(&Kind::Int64));
        assert_eq!(s.feature_lists.get("b"), None);
        assert_eq!(s.feature_lists.get("c"), Some(&Kind::Bytes));
        assert!(Schema::parse("[1]").is_err());
        assert!(Schema::parse(r#"{"features": 5}"#).is_err());
    }
}

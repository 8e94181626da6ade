//! The natural JSONL form → the encoder's feature index (see the parent
//! module for what it accepts).

use super::*;

/// A kind a feature's values are read as, whatever they look like.
#[derive(Clone, Copy, Debug)]
pub(super) struct Forcing {
    kind: Kind,
    /// Coercion (integers after floats), which a typed form overrides;
    /// else `--schema`, which it must agree with.
    soft: bool,
}

impl Encoder {
    /// Reads a features object (the whole Example, or a context) into `feats`.
    pub(super) fn natural_features(&mut self, p: &mut Parser<'_>, section: Section) -> Result<(), LineError> {
        p.members(|p| {
            let kspan = self.member_key(p)?;
            let forced = self.schema_kind(section, kspan);
            let feat = self
                .natural_feature(p, forced)
                .map_err(|e| e.in_key(|| section.path(&self.arena[kspan.0..kspan.1], None)))?;
            self.feats.push(Feat { key: kspan, ..feat });
            Ok(())
        })
    }

    /// The kind `--schema` forces for a feature, else the one coercion
    /// gives its plain values (then `soft`: a typed form overrides it).
    #[inline]
    pub(super) fn schema_kind(&self, section: Section, key: (usize, usize)) -> Option<Forcing> {
        if self.schema.is_none() && self.coerce.is_none() {
            return None;
        }
        let lookup = |schema: &Option<Schema>| {
            let schema = schema.as_ref()?;
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
        };
        if let Some(kind) = lookup(&self.schema) {
            return Some(Forcing { kind, soft: false });
        }
        lookup(&self.coerce).map(|kind| Forcing { kind, soft: true })
    }

    /// Reads `{"context": {...}, "feature_lists": {...}}`; returns which are present.
    pub(super) fn natural_sequence(&mut self, p: &mut Parser<'_>) -> Result<(bool, bool), LineError> {
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
    pub(super) fn natural_feature_lists(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
        p.members(|p| {
            let kspan = self.member_key(p)?;
            let forced = self.schema_kind(Section::FeatureLists, kspan);
            let first = self.steps.len();
            let path = |arena: &[u8], step: Option<usize>| Section::FeatureLists.path(&arena[kspan.0..kspan.1], step);
            if p.peek() != Some(b'[') {
                return Err(p
                    .err("a feature list is an array of features, one per step")
                    .in_key(|| path(&self.arena, None)));
            }
            p.elements(|p| {
                let feat = self
                    .natural_feature(p, forced)
                    .map_err(|e| e.in_key(|| path(&self.arena, Some(self.steps.len() - first))))?;
                self.steps.push(Feat { key: (0, 0), ..feat });
                Ok(())
            })?;
            self.lists.push(ListEntry {
                key: kspan,
                steps: (first, self.steps.len()),
                size: 0,
            });
            Ok(())
        })
    }

    /// Reads one FEATURE of the natural form.
    pub(super) fn natural_feature(&mut self, p: &mut Parser<'_>, forcing: Option<Forcing>) -> Result<Feat, LineError> {
        self.items.clear();
        let at = p.i;
        let mut forced = forcing.map_or(Forced::No, |_| Forced::Schema);
        let mut kind = forcing.map(|f| f.kind);
        let schema = forcing.filter(|f| !f.soft).map(|f| f.kind);
        match p.peek() {
            Some(b'n') => {
                p.literal("null")?;
                return Ok(Feat {
                    key: (0, 0),
                    kind: Kind::None,
                    vals: (0, 0),
                    inner: 0,
                    size: 0,
                    typed: false,
                });
            }
            Some(b'[') => {
                if matches!(kind, None | Some(Kind::Int64)) {
                    let start = self.ints.len();
                    if self.fast_int_list(p) {
                        return Ok(Feat {
                            key: (0, 0),
                            kind: Kind::Int64,
                            vals: (start, self.ints.len()),
                            inner: 0,
                            size: 0,
                            typed: false,
                        });
                    }
                }
                self.natural_list(p)?
            }
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
                                format!("{} but the schema says {}", t.list_field(), s.name()),
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

    /// Reads a non-empty list of plain integers within i64 straight into
    /// `ints` (the common case, and the one that matters for memory: no
    /// per-value record of where it was); anything else in it (a float, a
    /// string, `true`, an error) puts everything back and returns false, for
    /// [`Self::natural_list`] to read it with all its rules and messages.
    fn fast_int_list(&mut self, p: &mut Parser<'_>) -> bool {
        let (at, start) = (p.i, self.ints.len());
        let mut read = || -> Option<()> {
            p.i += 1;
            p.ws();
            if p.peek() == Some(b']') {
                return None;
            }
            loop {
                p.ws();
                if !matches!(p.peek(), Some(b'-' | b'0'..=b'9')) {
                    return None;
                }
                // A float is seen before it is parsed (then parsed once, slowly).
                let digits = p.s[p.i..].iter().skip(1).take_while(|b| b.is_ascii_digit()).count();
                if matches!(p.s.get(p.i + 1 + digits), Some(b'.' | b'e' | b'E')) {
                    return None;
                }
                self.ints.push(p.number().ok()?.int?);
                if p.list_next().ok()? {
                    return Some(());
                }
            }
        };
        if read().is_some() {
            return true;
        }
        p.i = at;
        self.ints.truncate(start);
        false
    }

    /// Reads `[v, ...]` into `items`.
    pub(super) fn natural_list(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
        p.elements(|p| match p.peek() {
            Some(b'[') => Err(p.err("nested array: a list holds numbers, strings or {\"base64\": ...}")),
            Some(b'{') => {
                let at =
                    self.base64_object_start(p, "nested object: the only object in a list is {\"base64\": \"...\"}")?;
                self.natural_base64(p, at)?;
                p.ws();
                if !p.eat(b'}') {
                    return Err(p.err("expected '}': {\"base64\": ...} has one key"));
                }
                Ok(())
            }
            Some(b'n') => {
                p.literal("null")?;
                Err(LineError::new(p.i - 4, "null in a list"))
            }
            _ => self.natural_scalar(p),
        })
    }

    /// Reads the string of `{"base64": "..."}` (the key is read) into `items`.
    pub(super) fn natural_base64(&mut self, p: &mut Parser<'_>, at: usize) -> Result<(), LineError> {
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
    pub(super) fn natural_scalar(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
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
    pub(super) fn resolve(
        &mut self,
        line: &[u8],
        at: usize,
        kind: Option<Kind>,
        forced: Forced,
    ) -> Result<Feat, LineError> {
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
                            let v =
                                parse_float(&line[item.span.0..item.span.1]).map_err(|r| LineError::new(item.at, r))?;
                            // An integer a float32 holds only rounded (past
                            // 2^24): the first one is noted for the caller.
                            let exact = match item.tag {
                                Tag::Int => v as i128 == item.int as i128,
                                Tag::BigInt => false,
                                _ => true,
                            };
                            if !exact && self.inexact.is_none() {
                                self.inexact = Some(item.span);
                            }
                            v
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
            typed: forced == Forced::Typed,
        })
    }

    /// The kind the values in `items` read as, with no type given.
    pub(super) fn infer(&self, at: usize) -> Result<Kind, LineError> {
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
}

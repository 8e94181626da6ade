//! protojson (protobuf's JSON mapping) → the encoder's feature index.

use super::*;

impl Encoder {
    /// Reads a protojson Example; returns whether `features` is present.
    pub(super) fn proto_example(&mut self, p: &mut Parser<'_>, section: Section) -> Result<bool, LineError> {
        let (mut features, mut seen) = (false, 0u8);
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
            once(&mut seen, 1, at, "features")?;
            if p.null()? {
                return Ok(());
            }
            features = true;
            self.proto_features(p, section)
        })?;
        Ok(features)
    }

    /// Reads a protojson SequenceExample; returns which fields are present.
    pub(super) fn proto_sequence(&mut self, p: &mut Parser<'_>) -> Result<(bool, bool), LineError> {
        let (mut context, mut lists, mut seen) = (false, false, 0u8);
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if self.key_is(p, key, "context")? {
                once(&mut seen, 1, at, "context")?;
                if p.null()? {
                    return Ok(());
                }
                context = true;
                self.proto_features(p, Section::Context)
            } else if let Some(name) = self.key_among(p, key, ["featureLists", "feature_lists"])? {
                once(&mut seen, if name == "featureLists" { 2 } else { 4 }, at, name)?;
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
    pub(super) fn proto_features(&mut self, p: &mut Parser<'_>, section: Section) -> Result<(), LineError> {
        let names = ["feature", "feature"];
        self.proto_map(
            p,
            ["Features", "a Features message", "the feature map"],
            names,
            |name| section.path(name, None),
            |this, p, kspan| {
                let feat = this
                    .proto_feature(p)
                    .map_err(|e| e.in_key(|| section.path(&this.arena[kspan.0..kspan.1], None)))?;
                this.feats.push(Feat { key: kspan, ..feat });
                Ok(())
            },
        )
    }

    /// Reads `{"featureList": {"name": {"feature": [Feature, ...]}, ...}}`.
    pub(super) fn proto_feature_lists(&mut self, p: &mut Parser<'_>) -> Result<(), LineError> {
        let names = ["featureList", "feature_list"];
        self.proto_map(
            p,
            ["FeatureLists", "a FeatureLists message", "the feature list map"],
            names,
            |name| Section::FeatureLists.path(name, None),
            |this, p, kspan| {
                let first = this.steps.len();
                let path =
                    |arena: &[u8], step: Option<usize>| Section::FeatureLists.path(&arena[kspan.0..kspan.1], step);
                if !p.null()? {
                    p.require_object("a FeatureList message")
                        .map_err(|e| e.in_key(|| path(&this.arena, None)))?;
                    this.proto_repeated(p, "feature", "a FeatureList", "Features", |this, p| {
                        let feat = this.proto_feature(p)?;
                        this.steps.push(feat);
                        Ok(())
                    })
                    .map_err(|e| e.in_key(|| path(&this.arena, Some(this.steps.len() - first))))?;
                }
                this.lists.push(ListEntry {
                    key: kspan,
                    steps: (first, this.steps.len()),
                    size: 0,
                });
                Ok(())
            },
        )
    }

    /// protobuf's JSON parser rejects a JSON object that names a key twice
    /// (Python's json_format: "duplicate key"); `keys` are the names' arena
    /// spans in one map object, the error is placed at `at` (the object).
    fn unique_names(
        &self,
        keys: &[(usize, usize)],
        at: usize,
        path: impl Fn(&[u8]) -> String,
    ) -> Result<(), LineError> {
        let name = |k: &(usize, usize)| &self.arena[k.0..k.1];
        let mut sorted: Vec<&(usize, usize)> = keys.iter().collect();
        sorted.sort_unstable_by(|a, b| name(a).cmp(name(b)));
        match sorted.windows(2).find(|w| name(w[0]) == name(w[1])) {
            Some(w) => Err(LineError::new(
                at,
                format!(
                    "feature {} is given twice (protobuf's JSON parser rejects a duplicate key)",
                    path(name(w[0]))
                ),
            )),
            None => Ok(()),
        }
    }

    /// Reads a message whose only field is a map (`{"FIELD": {"name":
    /// VALUE, ...}}`, FIELD in its JSON or its proto name; null for the
    /// map is no entries): `entry` reads each VALUE, given the name's span
    /// in the arena. The message's name, with an article, and the map's, for errors.
    fn proto_map(
        &mut self,
        p: &mut Parser<'_>,
        [message, a_message, map]: [&str; 3],
        [json_name, proto_name]: [&str; 2],
        path: impl Fn(&[u8]) -> String,
        mut entry: impl FnMut(&mut Self, &mut Parser<'_>, (usize, usize)) -> Result<(), LineError>,
    ) -> Result<(), LineError> {
        p.require_object(a_message)?;
        let mut seen = 0u8;
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            let Some(name) = self.key_among(p, key, [json_name, proto_name])? else {
                return Err(self.unknown_field(p, key, at, message));
            };
            once(&mut seen, if name == json_name { 1 } else { 2 }, at, name)?;
            if p.null()? {
                return Ok(());
            }
            p.require_object(map)?;
            let (map_at, mut names) = (p.i, Vec::new());
            p.members(|p| {
                let kspan = self.member_key(p)?;
                names.push(kspan);
                entry(self, p, kspan)
            })?;
            self.unique_names(&names, map_at, &path)
        })
    }

    /// Which of `names` the key `key` is, if any.
    fn key_among<'n, const N: usize>(
        &mut self,
        p: &Parser<'_>,
        key: Str,
        names: [&'n str; N],
    ) -> Result<Option<&'n str>, LineError> {
        for name in names {
            if self.key_is(p, key, name)? {
                return Ok(Some(name));
            }
        }
        Ok(None)
    }

    /// The error for a field `key` (at byte `at`) that `message` does not have.
    fn unknown_field(&mut self, p: &Parser<'_>, key: Str, at: usize, message: &str) -> LineError {
        match self.key_text(p, key) {
            Ok(name) => LineError::new(at, format!("unknown field {} in {message}", show_key(name.as_bytes()))),
            Err(e) => e,
        }
    }

    /// Reads a protojson Feature: `{}` or `{"int64List": {"value": [...]}}`.
    pub(super) fn proto_feature(&mut self, p: &mut Parser<'_>) -> Result<Feat, LineError> {
        let mut feat = Feat {
            key: (0, 0),
            kind: Kind::None,
            vals: (0, 0),
            inner: 0,
            size: 0,
            // protojson names every kind.
            typed: true,
        };
        if p.null()? {
            return Ok(feat);
        }
        p.require_object("a Feature message")?;
        let mut seen = 0u8;
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            const NAMES: [&str; 6] = [
                "int64List",
                "int64_list",
                "floatList",
                "float_list",
                "bytesList",
                "bytes_list",
            ];
            let Some(name) = self.key_among(p, key, NAMES)? else {
                return Err(self.unknown_field(p, key, at, "a Feature"));
            };
            let i = NAMES.iter().position(|&n| n == name).unwrap_or(0);
            let kind = [Kind::Int64, Kind::Float, Kind::Bytes][i / 2];
            once(&mut seen, 1 << i, at, name)?;
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
    pub(super) fn proto_repeated(
        &mut self,
        p: &mut Parser<'_>,
        field: &str,
        message: &str,
        items: &str,
        mut each: impl FnMut(&mut Self, &mut Parser<'_>) -> Result<(), LineError>,
    ) -> Result<(), LineError> {
        let mut seen = 0u8;
        p.members(|p| {
            let at = p.i;
            let key = p.string()?;
            p.colon()?;
            if !self.key_is(p, key, field)? {
                return Err(self.unknown_field(p, key, at, message));
            }
            once(&mut seen, 1, at, field)?;
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
    pub(super) fn proto_list(&mut self, p: &mut Parser<'_>, kind: Kind) -> Result<(usize, usize), LineError> {
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
    pub(super) fn proto_value(&mut self, p: &mut Parser<'_>, kind: Kind) -> Result<(), LineError> {
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
}

/// Marks key `bit` of a message as given; the same key a second time is an
/// error, as in protobuf's JSON parser (a field under its JSON name and
/// under its proto name is two keys, which it takes).
fn once(seen: &mut u8, bit: u8, at: usize, field: &str) -> Result<(), LineError> {
    if *seen & bit != 0 {
        return Err(LineError::new(
            at,
            format!("key \"{field}\" is given twice (protobuf's JSON parser rejects a duplicate key)"),
        ));
    }
    *seen |= bit;
    Ok(())
}

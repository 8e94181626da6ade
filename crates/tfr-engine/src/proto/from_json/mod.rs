//! JSON lines back to protobuf messages (`tfr from-jsonl --message`): one
//! JSON text read as Python's `json_format.Parse(text, msg,
//! descriptor_pool=POOL)` reads it, and the message written as
//! `msg.SerializeToString(deterministic=True)` writes it.
//!
//! Read ([`lex`]): Python's `json.loads` (bare `NaN`/`Infinity`, a key
//! twice refused). Converted (here, [`scalar`], [`wkt`]): field names as
//! proto names or JSON names, `[full.name]` extensions; integers as
//! numbers, integral floats or strings; floats with "NaN"/"Infinity";
//! bytes in either base64 alphabet; enums by name or number; `null` unsets
//! a field (a `google.protobuf.Value` it sets to null); two members of a
//! oneof, an unknown name, a wrong type are errors; the well-known types
//! (Any through the pool, Timestamp, Duration, FieldMask, Struct, Value,
//! ListValue, wrappers) in their JSON forms; messages nested deeper than
//! 100 are refused (protobuf's limit). Written ([`encode`]): fields in
//! number order and then extensions in descending number order, repeated
//! scalars packed where the field is (proto3's default), implicit-presence
//! fields only when not zero, map entries in upb's deterministic order
//! ([`Key`]) with both key and value, groups as groups; a proto2 required
//! field missing is an error (SerializeToString raises).
//!
//! Where tfr differs from Python: a float field takes a number above
//! FLT_MAX that rounds to it (Python refuses the 3.4028235e+38 it prints
//! itself); a string with an unpaired surrogate escape is refused;
//! integer strings take ASCII digits only.

mod encode;
mod lex;
mod scalar;
mod wkt;

use super::field::Field;
use super::Message;
use lex::J;
use prost_reflect::{Kind, MessageDescriptor};
use std::collections::BTreeMap;

/// Python protobuf's `max_recursion_depth` default.
const MAX_DEPTH: usize = 100;

/// Reads one JSON text as `msg` and appends the message's bytes to `out`.
/// An error says where in the message and what: `tfr.test.Sample.i32:
/// "abc" is not an integer`.
pub fn encode_json(msg: &Message, text: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let json = lex::parse(text)?;
    let mut conv = Conv { msg, depth: 0 };
    let mut built = Built::new(&msg.desc);
    let root = msg.desc.full_name().to_string();
    conv.message(&json, &mut built, &root)?;
    let mut missing = Vec::new();
    encode::missing(&built, "", &mut missing);
    if !missing.is_empty() {
        return Err(format!("{root}: required field missing: {}", missing.join(", ")));
    }
    encode::message(&built, out);
    Ok(())
}

/// A value of a field.
#[derive(Debug, Clone)]
pub(super) enum V {
    I(i64),
    U(u64),
    F32(f32),
    F64(f64),
    Bool(bool),
    Str(String),
    Bytes(Vec<u8>),
    Enum(i32),
    Msg(Built),
}

/// A map key, ordered as upb's deterministic serialization writes them
/// (found by trying it): integers and bools descending by their unsigned
/// value (so -1 first, 0 last), strings ascending by their bytes, a
/// string before its own prefix (`"ab"`, `"a"`, `""`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Key {
    B(bool),
    I(i64),
    U(u64),
    S(String),
}

impl Key {
    fn unsigned(&self) -> u64 {
        match self {
            Key::B(b) => u64::from(*b),
            Key::I(n) => *n as u64,
            Key::U(n) => *n,
            Key::S(_) => 0,
        }
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        match (self, other) {
            (Key::S(a), Key::S(b)) => {
                let n = a.len().min(b.len());
                a.as_bytes()[..n].cmp(&b.as_bytes()[..n]).then(b.len().cmp(&a.len()))
            }
            (Key::S(_), _) => std::cmp::Ordering::Greater,
            (_, Key::S(_)) => std::cmp::Ordering::Less,
            _ => other.unsigned().cmp(&self.unsigned()),
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// What a field holds.
#[derive(Debug, Clone)]
pub(super) enum Set {
    One(V),
    Many(Vec<V>),
    Map(BTreeMap<Key, V>),
}

/// A message being built: its fields (and extensions) by number.
#[derive(Debug, Clone)]
pub(super) struct Built {
    pub(super) desc: MessageDescriptor,
    pub(super) fields: BTreeMap<u32, (Field, Set)>,
}

impl Built {
    pub(super) fn new(desc: &MessageDescriptor) -> Built {
        Built {
            desc: desc.clone(),
            fields: BTreeMap::new(),
        }
    }

    /// Sets field `number` of this message (a well-known type's own).
    pub(super) fn set(&mut self, number: u32, set: Set) {
        if let Some(f) = self.desc.get_field(number) {
            self.fields.insert(number, (Field::Plain(f), set));
        }
    }
}

struct Conv<'a> {
    msg: &'a Message,
    /// Messages entered (json_format's recursion depth).
    depth: usize,
}

/// Whether a message is one of wrappers.proto's.
fn is_wrapper(desc: &MessageDescriptor) -> bool {
    desc.parent_file().name() == "google/protobuf/wrappers.proto"
}

impl Conv<'_> {
    /// `ConvertMessage`: a message, a wrapper or another well-known type,
    /// merged into `into`.
    fn message(&mut self, v: &J, into: &mut Built, path: &str) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!(
                "{path}: nested deeper than {MAX_DEPTH} messages (protobuf's limit)"
            ));
        }
        let desc = into.desc.clone();
        if is_wrapper(&desc) {
            self.wrapper(v, into, path)?;
        } else {
            match desc.full_name() {
                "google.protobuf.Any" => self.any(v, into, path)?,
                "google.protobuf.Timestamp" => wkt::timestamp(v, into).map_err(|e| format!("{path}: {e}"))?,
                "google.protobuf.Duration" => wkt::duration(v, into).map_err(|e| format!("{path}: {e}"))?,
                "google.protobuf.FieldMask" => wkt::field_mask(v, into).map_err(|e| format!("{path}: {e}"))?,
                "google.protobuf.Struct" => self.structure(v, into, path)?,
                "google.protobuf.Value" => self.value(v, into, path)?,
                "google.protobuf.ListValue" => self.list_value(v, into, path)?,
                _ => self.fields(v, into, path)?,
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn wrapper(&mut self, v: &J, into: &mut Built, path: &str) -> Result<(), String> {
        let f = into
            .desc
            .get_field(1)
            .ok_or_else(|| format!("{path}: a wrapper without its value"))?;
        let value = scalar(&f.kind(), v).map_err(|e| format!("{path}: {e}"))?;
        into.set(1, Set::One(value));
        Ok(())
    }

    /// `_ConvertFieldValuePair`: an object's members, each a field.
    fn fields(&mut self, v: &J, into: &mut Built, path: &str) -> Result<(), String> {
        let members = match v {
            J::Obj(members) => members,
            // Python iterates the value for names: an empty string or
            // array is an empty message.
            J::Str(s) if s.is_empty() => return Ok(()),
            J::Arr(a) if a.is_empty() => return Ok(()),
            _ => {
                let what = v.show();
                return Err(format!(
                    "{path}: {what} where a {} object belongs",
                    into.desc.full_name()
                ));
            }
        };
        let mut oneofs: Vec<String> = Vec::new();
        for (name, value) in members {
            let at = format!("{path}.{name}");
            let field = self
                .field(&into.desc, name)
                .ok_or_else(|| format!("{path}: no field named {name:?} in {}", into.desc.full_name()))?;
            if let (Some(o), false) = (field.containing_oneof(), *value == J::Null) {
                if oneofs.iter().any(|n| n == o.name()) {
                    return Err(format!("{at}: a second member of oneof {} (one at most)", o.name()));
                }
                oneofs.push(o.name().to_string());
            }
            self.field_value(field, value, into, &at)?;
        }
        Ok(())
    }

    /// The field a member's name names: a JSON name, a proto name, an
    /// extension's `[full.name]`.
    fn field(&self, desc: &MessageDescriptor, name: &str) -> Option<Field> {
        if let Some(f) = desc
            .get_field_by_json_name(name)
            .or_else(|| desc.get_field_by_name(name))
        {
            return Some(Field::Plain(f));
        }
        let inner = name.strip_prefix('[')?.strip_suffix(']')?;
        if !inner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')
        {
            return None;
        }
        let ext = self.msg.pool.get_extension_by_name(inner)?;
        (ext.containing_message() == *desc).then_some(Field::Ext(ext))
    }

    fn field_value(&mut self, field: Field, v: &J, into: &mut Built, at: &str) -> Result<(), String> {
        let number = field.number();
        let kind = field.kind();
        if *v == J::Null {
            match &kind {
                Kind::Message(m) if m.full_name() == "google.protobuf.Value" => {
                    let mut null = Built::new(m);
                    null.set(1, Set::One(V::Enum(0)));
                    into.fields.insert(number, (field, Set::One(V::Msg(null))));
                }
                Kind::Enum(e) if e.full_name() == "google.protobuf.NullValue" => {
                    into.fields.insert(number, (field, Set::One(V::Enum(0))));
                }
                _ => {
                    into.fields.remove(&number);
                }
            }
            return Ok(());
        }
        if field.is_map() {
            let map = self.map(&kind, v, at)?;
            into.fields.insert(number, (field, Set::Map(map)));
            return Ok(());
        }
        if field.cardinality() == prost_reflect::Cardinality::Repeated {
            let J::Arr(items) = v else {
                return Err(format!("{at}: {} where an array belongs (a repeated field)", v.show()));
            };
            let mut list = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let at = format!("{at}[{i}]");
                list.push(self.element(&kind, item, &at)?);
            }
            into.fields.insert(number, (field, Set::Many(list)));
            return Ok(());
        }
        let value = match &kind {
            Kind::Message(m) => {
                // Set again (a JSON name and a proto name): merged.
                let mut sub = match into.fields.remove(&number) {
                    Some((_, Set::One(V::Msg(b)))) => b,
                    _ => Built::new(m),
                };
                self.message(v, &mut sub, at)?;
                V::Msg(sub)
            }
            k => scalar(k, v).map_err(|e| format!("{at}: {e}"))?,
        };
        into.fields.insert(number, (field, Set::One(value)));
        Ok(())
    }

    /// One element of a repeated field (`null` only for a Value).
    fn element(&mut self, kind: &Kind, item: &J, at: &str) -> Result<V, String> {
        match kind {
            Kind::Message(m) => {
                if *item == J::Null && m.full_name() != "google.protobuf.Value" {
                    return Err(format!("{at}: null in a repeated field"));
                }
                let mut sub = Built::new(m);
                self.message(item, &mut sub, at)?;
                Ok(V::Msg(sub))
            }
            _ if *item == J::Null => Err(format!("{at}: null in a repeated field")),
            k => scalar(k, item).map_err(|e| format!("{at}: {e}")),
        }
    }

    /// A map field's object (keys as strings).
    fn map(&mut self, kind: &Kind, v: &J, at: &str) -> Result<BTreeMap<Key, V>, String> {
        let Kind::Message(entry) = kind else {
            return Err(format!("{at}: not a map"));
        };
        let J::Obj(members) = v else {
            return Err(format!("{at}: {} where an object belongs (a map)", v.show()));
        };
        let (key_field, value_field) = (entry.map_entry_key_field(), entry.map_entry_value_field());
        let mut map = BTreeMap::new();
        for (k, value) in members {
            let key = map_key(&key_field.kind(), k).map_err(|e| format!("{at}.key: {e}"))?;
            let at = format!("{at}[{k}]");
            let value = match value_field.kind() {
                Kind::Message(m) => {
                    let mut sub = match map.remove(&key) {
                        Some(V::Msg(b)) => b,
                        _ => Built::new(&m),
                    };
                    self.message(value, &mut sub, &at)?;
                    V::Msg(sub)
                }
                k => scalar(&k, value).map_err(|e| format!("{at}: {e}"))?,
            };
            map.insert(key, value);
        }
        Ok(map)
    }

    /// `_ConvertAnyMessage`: `{}`, or `{"@type": URL, ...fields}` (a
    /// well-known type's JSON under "value"), the type found in the pool.
    fn any(&mut self, v: &J, into: &mut Built, path: &str) -> Result<(), String> {
        let J::Obj(members) = v else {
            return Err(format!("{path}: {} where an Any object belongs", v.show()));
        };
        if members.is_empty() {
            return Ok(());
        }
        let member = |name: &str| members.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let url = match member("@type") {
            Some(J::Str(url)) => url.clone(),
            Some(other) => return Err(format!("{path}: \"@type\" is {}, not a type URL", other.show())),
            None => return Err(format!("{path}: an Any without \"@type\"")),
        };
        let name = url.rsplit('/').next().unwrap_or_default();
        let Some(desc) = self.msg.pool.get_message_by_name(name) else {
            return Err(format!("{path}: {url}: no such message in the descriptors given"));
        };
        let mut sub = Built::new(&desc);
        if is_wrapper(&desc) || wkt::is_special(desc.full_name()) {
            let Some(value) = member("value") else {
                return Err(format!("{path}: an Any of {} without \"value\"", desc.full_name()));
            };
            let at = format!("{path}.value");
            if is_wrapper(&desc) {
                self.wrapper(value, &mut sub, &at)?;
            } else {
                self.message(value, &mut sub, &at)?;
            }
        } else {
            let rest: Vec<(String, J)> = members.iter().filter(|(k, _)| k != "@type").cloned().collect();
            self.fields(&J::Obj(rest), &mut sub, path)?;
        }
        let mut missing = Vec::new();
        encode::missing(&sub, "", &mut missing);
        if !missing.is_empty() {
            return Err(format!(
                "{path}: {}: required field missing: {}",
                desc.full_name(),
                missing.join(", ")
            ));
        }
        let mut bytes = Vec::new();
        encode::message(&sub, &mut bytes);
        into.set(1, Set::One(V::Str(url)));
        into.set(2, Set::One(V::Bytes(bytes)));
        Ok(())
    }

    fn structure(&mut self, v: &J, into: &mut Built, path: &str) -> Result<(), String> {
        let J::Obj(members) = v else {
            return Err(format!("{path}: {} where a Struct object belongs", v.show()));
        };
        let value_desc =
            wkt::struct_value_desc(&into.desc).ok_or_else(|| format!("{path}: a Struct without fields"))?;
        let mut map = BTreeMap::new();
        for (k, item) in members {
            let mut sub = Built::new(&value_desc);
            self.message(item, &mut sub, &format!("{path}.{k}"))?;
            map.insert(Key::S(k.clone()), V::Msg(sub));
        }
        into.fields.clear();
        into.set(1, Set::Map(map));
        Ok(())
    }

    fn value(&mut self, v: &J, into: &mut Built, path: &str) -> Result<(), String> {
        into.fields.clear();
        let (number, value) = match v {
            J::Null => (1, V::Enum(0)),
            // Python's float of the number: an integer too large for a
            // double is an error, a float literal that large is infinite.
            J::Num { text, float } => match text.parse::<f64>() {
                Ok(f) if *float || f.is_finite() => (2, V::F64(f)),
                _ => return Err(format!("{path}: {text} is out of range for a double")),
            },
            J::Str(s) => (3, V::Str(s.clone())),
            J::Bool(b) => (4, V::Bool(*b)),
            J::Obj(_) | J::Arr(_) => {
                let number = if matches!(v, J::Obj(_)) { 5 } else { 6 };
                let Some(f) = into.desc.get_field(number) else {
                    return Err(format!("{path}: a Value without its fields"));
                };
                let Kind::Message(m) = f.kind() else {
                    return Err(format!("{path}: a Value without its fields"));
                };
                let mut sub = Built::new(&m);
                self.message(v, &mut sub, path)?;
                (number, V::Msg(sub))
            }
        };
        into.set(number, Set::One(value));
        Ok(())
    }

    fn list_value(&mut self, v: &J, into: &mut Built, path: &str) -> Result<(), String> {
        let J::Arr(items) = v else {
            return Err(format!("{path}: {} where a ListValue array belongs", v.show()));
        };
        let Some(Kind::Message(value_desc)) = into.desc.get_field(1).map(|f| f.kind()) else {
            return Err(format!("{path}: a ListValue without values"));
        };
        let mut list = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let mut sub = Built::new(&value_desc);
            self.message(item, &mut sub, &format!("{path}[{i}]"))?;
            list.push(V::Msg(sub));
        }
        into.set(1, Set::Many(list));
        Ok(())
    }
}

/// A scalar field's value (not a message).
fn scalar(kind: &Kind, v: &J) -> Result<V, String> {
    match kind {
        Kind::Double => scalar::float_of(false, v),
        Kind::Float => scalar::float_of(true, v),
        Kind::Bool => scalar::bool_of(v, false),
        Kind::String => match v {
            J::Str(s) => Ok(V::Str(s.clone())),
            other => Err(format!("{} is not a string", other.show())),
        },
        Kind::Bytes => match v {
            J::Str(s) => scalar::base64(s).map(V::Bytes),
            other => Err(format!("{} is not a base64 string", other.show())),
        },
        Kind::Enum(e) => scalar::enum_of(e, v),
        Kind::Message(m) => Err(format!("{} is not a {}", v.show(), m.full_name())),
        k => scalar::int_of(k, v),
    }
}

/// A map key from its JSON string.
fn map_key(kind: &Kind, k: &str) -> Result<Key, String> {
    let text = J::Str(k.to_string());
    Ok(match kind {
        Kind::String => Key::S(k.to_string()),
        Kind::Bool => match scalar::bool_of(&text, true)? {
            V::Bool(b) => Key::B(b),
            _ => unreachable!("bool_of gives a bool"),
        },
        k => match scalar::int_of(k, &text)? {
            V::I(n) => Key::I(n),
            V::U(n) => Key::U(n),
            _ => unreachable!("int_of gives an integer"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Message {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/proto");
        let sources = crate::proto::Sources {
            descriptor_sets: vec![dir.join("jsonin.pb")],
            message: Some("tfr.jsonin.Wkt".to_string()),
            ..Default::default()
        };
        Message::load(&sources).unwrap().unwrap()
    }

    #[test]
    fn mangled_lines_are_errors_or_messages_never_panics() {
        let msg = sample();
        // The hand-written lines of tests/data/proto/from_json, the
        // Sample ones inside a Wkt.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/proto/from_json");
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let mut lines: Vec<String> = read("wkt.jsonl").lines().map(str::to_string).collect();
        lines.extend(read("sample.jsonl").lines().map(|l| format!("{{\"sample\": {l}}}")));
        // A fixed xorshift: every run tries the same mangled lines.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let alphabet = b"{}[]\",:0123456789-+.eEtfnul aZ_\\";
        let mut out = Vec::new();
        let mut accepted = 0;
        for _ in 0..50_000 {
            let mut line = lines[(next() % lines.len() as u64) as usize].as_bytes().to_vec();
            for _ in 0..1 + next() % 4 {
                let at = (next() as usize) % line.len();
                match next() % 3 {
                    0 => line[at] = alphabet[(next() as usize) % alphabet.len()],
                    1 => {
                        line.remove(at);
                    }
                    _ => line.insert(at, alphabet[(next() as usize) % alphabet.len()]),
                }
            }
            out.clear();
            if encode_json(&msg, &line, &mut out).is_err() {
                assert!(out.is_empty(), "nothing appended on an error");
                continue;
            }
            accepted += 1;
            // What is written reads back, prints (unless Python could not
            // print it either) and reads again to the same bytes.
            let mut json = Vec::new();
            // (A NullValue field holding a number other than 0, as `"nv":
            // 1.5` gives, prints as null, as Python prints it.)
            let null_value = line.windows(4).any(|w| w == b"\"nv\"");
            if msg.render(&out, crate::proto::Form::Json, &mut json).is_ok() && !null_value {
                let mut again = Vec::new();
                encode_json(&msg, &json, &mut again)
                    .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&json)));
                assert_eq!(again, out, "{}", String::from_utf8_lossy(&line));
            }
        }
        assert!(accepted > 1000, "{accepted}");
    }
}

//! Field paths of a message (`frame.context.name`) as `--where` and
//! `count --by` read them: resolved once against the descriptor (a name
//! no field has is an error before anything is read), then walked in each
//! decoded payload.
//!
//! What a path reads, in each payload:
//! - a repeated field, or a path through one, reads every element (a
//!   comparison matches when any does);
//! - a map field's entries are read through `.key` and `.value`
//!   (`labels.key == "x"`);
//! - a `oneof`'s name reads the name of its member that is set (Python's
//!   `WhichOneof`: `log_type == "predict_log"`), nothing when none is;
//! - a field that tracks presence (a message, a member of a `oneof`, a
//!   proto2 or proto3 `optional` field) reads nothing when it is not set;
//!   a proto3 scalar without presence reads its value, zero when not
//!   written (as Python reads `msg.field`);
//! - `has(PATH)` is whether it is set (a repeated field or map: not
//!   empty; a proto3 scalar without presence: not zero; a map's key or
//!   value: the map has an entry) and `len(PATH)` how many values a
//!   comparison reads there (a map or a message at its end: its entries,
//!   the messages set);
//! - a comparison of a path that ends at a message or a map is an error
//!   (compare one of its fields), as is `count --by` of one.

use super::decode::{default_of, is_zero, Msg, Slot, Val};
use super::field::Field;
use super::Message;
use crate::error::{Error, Result};
use crate::example::error::DecodeError;
use crate::example::filter::{Fields, PayloadFields, Value};
use prost_reflect::{Cardinality, FieldDescriptor, Kind, MessageDescriptor, OneofDescriptor};
use std::collections::HashMap;

/// One step of a path.
#[derive(Clone, Debug)]
enum Step {
    /// A field of the message the path has reached.
    Field(FieldDescriptor),
    /// The key of a map's entries.
    Key(FieldDescriptor),
    /// The value of a map's entries.
    Value(FieldDescriptor),
    /// The member of a `oneof` that is set, by its name (a last step).
    Oneof(OneofDescriptor),
}

/// A resolved path.
#[derive(Clone, Debug)]
struct Path(Vec<Step>);

/// The names of an expression (or `--by`) resolved in a message type,
/// reading its payloads ([`PayloadFields`]).
#[derive(Debug)]
pub struct MessageFields {
    desc: MessageDescriptor,
    paths: HashMap<String, Path>,
}

impl MessageFields {
    /// Resolves `names` (named by `flag` in errors) in `m`'s fields; those
    /// of `values` must end at a value (not a message or a map).
    pub fn new<'a>(
        m: &Message,
        names: impl IntoIterator<Item = &'a str>,
        values: &[&str],
        flag: &str,
    ) -> Result<MessageFields> {
        let mut paths = HashMap::new();
        for name in names {
            // (a name in backticks, or a forged descriptor's, may hold any
            // character: the error stays one line)
            let shown = crate::io::input::escape_name(name.as_bytes());
            let path = resolve(&m.desc, name).map_err(|why| {
                let why = crate::io::input::escape_name(why.as_bytes());
                Error::Invalid(format!("{flag}: '{shown}': {why}"))
            })?;
            if values.contains(&name) && !path.ends_at_value() {
                return Err(Error::Invalid(format!(
                    "{flag}: '{shown}' is a message or a map, not a value: name one of its fields{}",
                    if flag == "--where" {
                        " (has() and len() take it)"
                    } else {
                        ""
                    }
                )));
            }
            paths.insert(name.to_string(), path);
        }
        Ok(MessageFields {
            desc: m.desc.clone(),
            paths,
        })
    }
}

impl PayloadFields for MessageFields {
    fn read(&self, payload: &[u8], f: &mut dyn FnMut(&dyn Fields) -> bool) -> Result<bool, DecodeError> {
        let msg = Msg::decode(&self.desc, payload)?;
        Ok(f(&Read {
            msg: &msg,
            fields: self,
        }))
    }
}

/// A decoded payload read by its resolved paths.
struct Read<'a> {
    msg: &'a Msg,
    fields: &'a MessageFields,
}

impl Read<'_> {
    fn path(&self, name: &str) -> &[Step] {
        self.fields.paths.get(name).map_or(&[], |p| p.0.as_slice())
    }
}

impl Fields for Read<'_> {
    fn any(&self, name: &str, each: &mut dyn FnMut(Value<'_>) -> bool) -> bool {
        let mut found = false;
        walk(self.msg, self.path(name), &mut |f, v| {
            found = found || (v.is_some() || !f.supports_presence()) && leaf(f, v, each);
            found
        });
        found
    }

    fn has(&self, name: &str) -> bool {
        walk_slots(self.msg, self.path(name), &mut |f, slot, entry| match slot {
            Slot::One(v) => entry || f.supports_presence() || !is_zero(v),
            Slot::List(vs) => !vs.is_empty(),
            Slot::Map(es) => !es.is_empty(),
        })
    }

    fn count(&self, name: &str) -> usize {
        let mut n = 0;
        walk(self.msg, self.path(name), &mut |f, v| {
            n += usize::from(v.is_some() || !f.supports_presence());
            false
        });
        n
    }
}

/// Calls `each` with the values of a leaf field (`v`: its value, or none
/// when not set, then its default); whether it returned true.
fn leaf(f: &FieldDescriptor, v: Option<&Val>, each: &mut dyn FnMut(Value<'_>) -> bool) -> bool {
    let default;
    let v = match v {
        Some(v) => v,
        None => {
            default = default_of(&Field::Plain(f.clone()));
            &default
        }
    };
    let enum_name = |n: i32| match f.kind() {
        Kind::Enum(e) => e.get_value(n).map(|v| v.name().to_string()),
        _ => None,
    };
    match v {
        Val::I32(x) => each(Value::Int(i64::from(*x))),
        Val::I64(x) => each(Value::Int(*x)),
        Val::U32(x) => each(Value::UInt(u64::from(*x))),
        Val::U64(x) => each(Value::UInt(*x)),
        Val::F32(x) => each(Value::F32(*x)),
        Val::F64(x) => each(Value::F64(*x)),
        Val::Bool(x) => each(Value::Bool(*x)),
        Val::Bytes(b) => each(Value::Bytes(b)),
        Val::Enum(n) => each(Value::Enum(*n, enum_name(*n).as_deref())),
        Val::Msg(_) => false,
    }
}

/// Walks `steps` from `msg`, calling `at` with each leaf field and each
/// value it holds (a single field not set: once, with none); stops when
/// `at` returns true.
fn walk(msg: &Msg, steps: &[Step], at: &mut dyn FnMut(&FieldDescriptor, Option<&Val>) -> bool) -> bool {
    if let [Step::Oneof(o)] = steps {
        return set_member(msg, o).is_some_and(|(f, name)| at(&f, Some(&name)));
    }
    let Some((Step::Field(f), rest)) = steps.split_first() else {
        return false;
    };
    let slot = msg.fields.get(&f.number()).map(|(_, s)| s);
    match (slot, rest.first()) {
        (None, _) => f.cardinality() != Cardinality::Repeated && rest.is_empty() && at(f, None),
        (Some(Slot::One(v)), None) => at(f, Some(v)),
        (Some(Slot::List(vs)), None) => vs.iter().any(|v| at(f, Some(v))),
        // (only len() reads a map itself: a comparison of one is refused)
        (Some(Slot::Map(es)), None) => es.iter().any(|(k, _)| at(f, Some(k))),
        (Some(Slot::One(Val::Msg(m))), Some(_)) => walk(m, rest, at),
        (Some(Slot::List(vs)), Some(_)) => vs.iter().any(|v| matches!(v, Val::Msg(m) if walk(m, rest, at))),
        (Some(Slot::Map(es)), Some(Step::Key(k))) => es.iter().any(|(key, _)| at(k, Some(key))),
        (Some(Slot::Map(es)), Some(Step::Value(v))) => match rest.get(1) {
            None => es.iter().any(|(_, val)| at(v, Some(val))),
            Some(_) => es
                .iter()
                .any(|(_, val)| matches!(val, Val::Msg(m) if walk(m, &rest[1..], at))),
        },
        _ => false,
    }
}

/// Walks `steps` from `msg` to the slots of the last field (each set one),
/// calling `at` with each (and whether it is a map entry's key or value);
/// stops when `at` returns true.
fn walk_slots(msg: &Msg, steps: &[Step], at: &mut dyn FnMut(&Field, &Slot, bool) -> bool) -> bool {
    if let [Step::Oneof(o)] = steps {
        return set_member(msg, o).is_some_and(|(f, name)| at(&Field::Plain(f), &Slot::One(name), false));
    }
    let Some((Step::Field(f), rest)) = steps.split_first() else {
        return false;
    };
    let Some((field, slot)) = msg.fields.get(&f.number()) else {
        return false;
    };
    let inner = |v: &Val, rest: &[Step], at: &mut dyn FnMut(&Field, &Slot, bool) -> bool| match v {
        Val::Msg(m) => walk_slots(m, rest, at),
        _ => false,
    };
    match (slot, rest.first()) {
        (_, None) => at(field, slot, false),
        (Slot::One(v), Some(_)) => inner(v, rest, at),
        (Slot::List(vs), Some(_)) => vs.iter().any(|v| inner(v, rest, at)),
        (Slot::Map(es), Some(Step::Key(k))) => es
            .iter()
            .any(|(key, _)| at(&Field::Plain(k.clone()), &Slot::One(key.clone()), true)),
        (Slot::Map(es), Some(Step::Value(v))) => match rest.get(1) {
            None => es
                .iter()
                .any(|(_, val)| at(&Field::Plain(v.clone()), &Slot::One(val.clone()), true)),
            Some(_) => es.iter().any(|(_, val)| inner(val, &rest[1..], at)),
        },
        _ => false,
    }
}

/// The member of `o` set in `msg`, and its name as a value.
fn set_member(msg: &Msg, o: &OneofDescriptor) -> Option<(FieldDescriptor, Val)> {
    let f = o.fields().find(|f| msg.fields.contains_key(&f.number()))?;
    let name = Val::Bytes(f.name().as_bytes().to_vec());
    Some((f, name))
}

impl Path {
    /// Whether its last step is a value (not a message or a map).
    fn ends_at_value(&self) -> bool {
        let last = match self.0.last() {
            Some(Step::Field(f) | Step::Key(f) | Step::Value(f)) => f,
            Some(Step::Oneof(_)) => return true,
            None => return false,
        };
        let map_itself = matches!(self.0.last(), Some(Step::Field(f)) if f.is_map());
        !map_itself && !matches!(last.kind(), Kind::Message(_))
    }
}

/// Resolves a dotted path in `desc`; the error says which part names no
/// field, and the fields there are.
fn resolve(desc: &MessageDescriptor, name: &str) -> std::result::Result<Path, String> {
    let mut steps = Vec::new();
    let mut at = desc.clone();
    let mut parts = name.split('.').peekable();
    while let Some(part) = parts.next() {
        let oneof = at.oneofs().find(|o| o.name() == part && !o.is_synthetic());
        if let (Some(o), None, None) = (oneof, at.get_field_by_name(part), parts.peek()) {
            steps.push(Step::Oneof(o));
            break;
        }
        let Some(f) = at.get_field_by_name(part) else {
            let mut known: Vec<String> = at.fields().map(|f| f.name().to_string()).collect();
            known.extend(
                at.oneofs()
                    .filter(|o| !o.is_synthetic())
                    .map(|o| format!("oneof {}", o.name())),
            );
            return Err(format!(
                "{} has no field '{part}' (its fields: {})",
                at.full_name(),
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            ));
        };
        steps.push(Step::Field(f.clone()));
        let Some(next) = parts.peek().copied() else {
            break;
        };
        let Kind::Message(inner) = f.kind() else {
            return Err(format!("{} is not a message: it has no field '{next}'", f.full_name()));
        };
        if f.is_map() {
            let (key, value) = (inner.map_entry_key_field(), inner.map_entry_value_field());
            parts.next();
            match next {
                "key" => steps.push(Step::Key(key)),
                "value" => steps.push(Step::Value(value.clone())),
                _ => {
                    return Err(format!(
                        "{} is a map: read '.key' or '.value', not '{next}'",
                        f.full_name()
                    ))
                }
            }
            match (parts.peek(), value.kind()) {
                (Some(_), Kind::Message(m)) if next == "value" => at = m,
                (Some(more), _) => {
                    return Err(format!(
                        "{}.{next} is not a message: it has no field '{more}'",
                        f.full_name()
                    ))
                }
                (None, _) => break,
            }
        } else {
            at = inner;
        }
    }
    Ok(Path(steps))
}

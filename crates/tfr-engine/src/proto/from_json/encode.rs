//! A built message in protobuf's wire format, as upb's deterministic
//! serialization writes it: fields in number order, then extensions in
//! descending number order,
//! implicit-presence fields only when not zero, repeated scalars packed
//! where the field is, map entries sorted by key with key and value both
//! written, groups between their start and end tags.

use super::super::field::Field;
use super::{Built, Key, Set, V};
use prost_reflect::{Cardinality, Kind};

/// Appends `b`'s bytes: its fields in number order, then its extensions
/// in descending number order (where upb's deterministic serialization
/// puts them).
pub(super) fn message(b: &Built, out: &mut Vec<u8>) {
    let plain = b.fields.iter().filter(|(_, (f, _))| matches!(f, Field::Plain(_)));
    let ext = b.fields.iter().rev().filter(|(_, (f, _))| matches!(f, Field::Ext(_)));
    for (number, (field, set)) in plain.chain(ext) {
        let kind = field.kind();
        match set {
            Set::One(v) => {
                if field.supports_presence() || !is_zero(v) {
                    value(*number, &kind, field.is_group(), v, out);
                }
            }
            Set::Many(list) if list.is_empty() => {}
            Set::Many(list) if field.is_packed() && !matches!(kind, Kind::Message(_) | Kind::String | Kind::Bytes) => {
                let mut body = Vec::new();
                for v in list {
                    raw(&kind, v, &mut body);
                }
                tag(*number, 2, out);
                varint(body.len() as u64, out);
                out.extend_from_slice(&body);
            }
            Set::Many(list) => {
                for v in list {
                    value(*number, &kind, field.is_group(), v, out);
                }
            }
            Set::Map(map) => {
                let Kind::Message(entry) = &kind else { continue };
                let (k, vf) = (entry.map_entry_key_field(), entry.map_entry_value_field());
                for (key, v) in map {
                    let mut body = Vec::new();
                    value(1, &k.kind(), false, &key_value(key), &mut body);
                    value(2, &vf.kind(), false, v, &mut body);
                    tag(*number, 2, out);
                    varint(body.len() as u64, out);
                    out.extend_from_slice(&body);
                }
            }
        }
    }
}

/// The paths of required fields left unset in `b` and the messages in it
/// (as Python names them: `id`, `item[1].key`).
pub(super) fn missing(b: &Built, prefix: &str, out: &mut Vec<String>) {
    for f in b.desc.fields() {
        if f.cardinality() == Cardinality::Required && !b.fields.contains_key(&f.number()) {
            out.push(format!("{prefix}{}", f.name()));
        }
    }
    for (field, set) in b.fields.values() {
        let name = match field {
            Field::Plain(f) => f.name().to_string(),
            Field::Ext(e) => format!("({})", e.full_name()),
        };
        match set {
            Set::One(V::Msg(m)) => missing(m, &format!("{prefix}{name}."), out),
            Set::Many(list) => {
                for (i, v) in list.iter().enumerate() {
                    if let V::Msg(m) = v {
                        missing(m, &format!("{prefix}{name}[{i}]."), out);
                    }
                }
            }
            Set::Map(map) => {
                for (k, v) in map {
                    if let V::Msg(m) = v {
                        missing(m, &format!("{prefix}{name}[{}].", show_key(k)), out);
                    }
                }
            }
            Set::One(_) => {}
        }
    }
}

fn show_key(k: &Key) -> String {
    match k {
        Key::B(b) => b.to_string(),
        Key::I(n) => n.to_string(),
        Key::U(n) => n.to_string(),
        Key::S(s) => s.clone(),
    }
}

fn key_value(k: &Key) -> V {
    match k {
        Key::B(b) => V::Bool(*b),
        Key::I(n) => V::I(*n),
        Key::U(n) => V::U(*n),
        Key::S(s) => V::Str(s.clone()),
    }
}

/// Whether an implicit-presence value is zero (a float's bits, so -0.0
/// is written).
fn is_zero(v: &V) -> bool {
    match v {
        V::I(n) => *n == 0,
        V::U(n) => *n == 0,
        V::F32(f) => f.to_bits() == 0,
        V::F64(f) => f.to_bits() == 0,
        V::Bool(b) => !b,
        V::Str(s) => s.is_empty(),
        V::Bytes(b) => b.is_empty(),
        V::Enum(n) => *n == 0,
        V::Msg(_) => false,
    }
}

fn tag(number: u32, wire: u8, out: &mut Vec<u8>) {
    varint((u64::from(number) << 3) | u64::from(wire), out);
}

fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn wire_type(kind: &Kind) -> u8 {
    match kind {
        Kind::Double | Kind::Fixed64 | Kind::Sfixed64 => 1,
        Kind::Float | Kind::Fixed32 | Kind::Sfixed32 => 5,
        Kind::String | Kind::Bytes | Kind::Message(_) => 2,
        _ => 0,
    }
}

/// A field's tag and value (a group between its tags).
fn value(number: u32, kind: &Kind, group: bool, v: &V, out: &mut Vec<u8>) {
    if let V::Msg(m) = v {
        if group {
            tag(number, 3, out);
            message(m, out);
            tag(number, 4, out);
            return;
        }
        let mut body = Vec::new();
        message(m, &mut body);
        tag(number, 2, out);
        varint(body.len() as u64, out);
        out.extend_from_slice(&body);
        return;
    }
    tag(number, wire_type(kind), out);
    raw(kind, v, out);
}

/// A value without its tag (length-prefixed for strings and bytes).
fn raw(kind: &Kind, v: &V, out: &mut Vec<u8>) {
    match (kind, v) {
        (Kind::Sint32 | Kind::Sint64, V::I(n)) => varint(((n << 1) ^ (n >> 63)) as u64, out),
        (Kind::Sfixed32, V::I(n)) => out.extend_from_slice(&(*n as i32).to_le_bytes()),
        (Kind::Sfixed64, V::I(n)) => out.extend_from_slice(&n.to_le_bytes()),
        (Kind::Fixed32, V::U(n)) => out.extend_from_slice(&(*n as u32).to_le_bytes()),
        (Kind::Fixed64, V::U(n)) => out.extend_from_slice(&n.to_le_bytes()),
        (_, V::I(n)) => varint(*n as u64, out),
        (_, V::U(n)) => varint(*n, out),
        (_, V::Enum(n)) => varint(i64::from(*n) as u64, out),
        (_, V::Bool(b)) => out.push(u8::from(*b)),
        (_, V::F32(f)) => out.extend_from_slice(&f.to_le_bytes()),
        (_, V::F64(f)) => out.extend_from_slice(&f.to_le_bytes()),
        (_, V::Str(s)) => {
            varint(s.len() as u64, out);
            out.extend_from_slice(s.as_bytes());
        }
        (_, V::Bytes(b)) => {
            varint(b.len() as u64, out);
            out.extend_from_slice(b);
        }
        (_, V::Msg(_)) => {}
    }
}

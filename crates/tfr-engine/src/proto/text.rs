//! A decoded message in protobuf's text format, byte for byte as Python's
//! `text_format.MessageToString` prints it with its defaults: fields in
//! number order, two spaces of indent a level, `name: value` for scalars
//! and `name {` ... `}` for messages, each repeated value on its own line,
//! map entries sorted by key (`key` and `value` as the entry message's
//! fields), enums by name (an unknown number as the number), strings and
//! strings C-escaped with their non-ASCII characters kept (protobuf 7's
//! `as_utf8=True`), bytes with octal for non-ASCII bytes, floats as
//! `ToShortestFloat`, doubles as `str()`, bools `true`/`false`; unknown
//! fields are not printed. A `google.protobuf.Any` whose type is among the
//! descriptors given is expanded (`[type.googleapis.com/pkg.Msg] {`), as
//! Python expands the types its pool knows; other Anys print their two
//! fields. With [`Print::tensors`] (event files), a `tensorflow.TensorProto`
//! of numbers ends with a comment line of its values (`# values: [0.5,
//! 1.0]`), which Python's text_format.Parse skips.

use super::decode::{is_zero, Msg, Slot, Val};
use super::field::Field;
use crate::example::text::{escape_bytes, escape_str, write_double, write_float};
use prost_reflect::{DescriptorPool, Kind};

/// How a message is printed.
#[derive(Clone, Copy)]
pub struct Print<'a> {
    /// Resolves the types of Any.
    pub pool: &'a DescriptorPool,
    /// Whether a TensorProto's values are shown in a comment line.
    pub tensors: bool,
}

/// The most values a tensor's comment line shows (a larger tensor has
/// none).
pub const TENSOR_VALUES: usize = 1024;

/// Appends `msg` at `indent`.
pub fn message(msg: &Msg, p: Print<'_>, indent: usize, out: &mut Vec<u8>) {
    if msg.desc.full_name() == "google.protobuf.Any" && any(msg, p, indent, out) {
        return;
    }
    for (field, slot) in msg.fields.values() {
        match slot {
            Slot::One(v) if !field.supports_presence() && is_zero(v) => {}
            Slot::One(v) => one(field, v, p, indent, out),
            Slot::List(values) => values.iter().for_each(|v| one(field, v, p, indent, out)),
            Slot::Map(entries) => {
                let mut sorted: Vec<&(Val, Val)> = entries.iter().collect();
                sorted.sort_by(|a, b| key_order(&a.0, &b.0));
                let Kind::Message(entry) = field.kind() else { continue };
                let (kf, vf) = (
                    Field::Plain(entry.map_entry_key_field()),
                    Field::Plain(entry.map_entry_value_field()),
                );
                for (k, v) in sorted {
                    name(field, indent, out);
                    out.extend_from_slice(b" {\n");
                    entry_field(&kf, k, p, indent + 2, out);
                    entry_field(&vf, v, p, indent + 2, out);
                    out.resize(out.len() + indent, b' ');
                    out.extend_from_slice(b"}\n");
                }
            }
        }
    }
    if p.tensors && !msg.tensor.is_empty() {
        if let Some(values) = crate::tfds::decode::tensor_values(&msg.tensor, TENSOR_VALUES) {
            out.resize(out.len() + indent, b' ');
            out.extend_from_slice(b"# values: ");
            out.extend_from_slice(&values);
            out.push(b'\n');
        }
    }
}

/// A map entry's key or value: listed as the entry message lists it (a
/// proto3 entry leaves out a zero scalar).
fn entry_field(field: &Field, v: &Val, p: Print<'_>, indent: usize, out: &mut Vec<u8>) {
    if field.supports_presence() || !is_zero(v) {
        one(field, v, p, indent, out);
    }
}

/// Python's `sorted()` of map keys: numbers by value, strings by code
/// point (their UTF-8 bytes sort the same), false before true.
pub(super) fn key_order(a: &Val, b: &Val) -> std::cmp::Ordering {
    match (a, b) {
        (Val::I32(x), Val::I32(y)) => x.cmp(y),
        (Val::I64(x), Val::I64(y)) => x.cmp(y),
        (Val::U32(x), Val::U32(y)) => x.cmp(y),
        (Val::U64(x), Val::U64(y)) => x.cmp(y),
        (Val::Bool(x), Val::Bool(y)) => x.cmp(y),
        (Val::Bytes(x), Val::Bytes(y)) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    }
}

/// The field's name as Python prints it (a group by its type's name).
fn name(field: &Field, indent: usize, out: &mut Vec<u8>) {
    out.resize(out.len() + indent, b' ');
    match field.kind() {
        Kind::Message(m) if field.is_group() && matches!(field, Field::Plain(_)) => {
            out.extend_from_slice(m.name().as_bytes())
        }
        _ => out.extend_from_slice(field.printed_name().as_bytes()),
    }
}

/// One `name: value` line, or a message block.
fn one(field: &Field, v: &Val, p: Print<'_>, indent: usize, out: &mut Vec<u8>) {
    name(field, indent, out);
    if let Val::Msg(m) = v {
        out.extend_from_slice(b" {\n");
        message(m, p, indent + 2, out);
        out.resize(out.len() + indent, b' ');
        out.extend_from_slice(b"}\n");
        return;
    }
    out.extend_from_slice(b": ");
    scalar(field, v, out);
    out.push(b'\n');
}

/// A scalar value.
fn scalar(field: &Field, v: &Val, out: &mut Vec<u8>) {
    let mut num = itoa::Buffer::new();
    match v {
        Val::I32(x) => out.extend_from_slice(num.format(*x).as_bytes()),
        Val::I64(x) => out.extend_from_slice(num.format(*x).as_bytes()),
        Val::U32(x) => out.extend_from_slice(num.format(*x).as_bytes()),
        Val::U64(x) => out.extend_from_slice(num.format(*x).as_bytes()),
        Val::F32(x) => write_float(*x, out),
        Val::F64(x) => write_double(*x, out),
        Val::Bool(x) => out.extend_from_slice(if *x { b"true" } else { b"false" }),
        Val::Bytes(b) => {
            // Python (protobuf 7) prints a string's characters as they are
            // (`as_utf8=True`), a bytes field's non-ASCII bytes in octal.
            out.push(b'"');
            match std::str::from_utf8(b) {
                Ok(s) if field.kind() == Kind::String => escape_str(s, out),
                _ => escape_bytes(b, out),
            }
            out.push(b'"');
        }
        Val::Enum(n) => match field.kind() {
            Kind::Enum(e) => match e.get_value(*n) {
                Some(value) => out.extend_from_slice(value.name().as_bytes()),
                None => out.extend_from_slice(num.format(*n).as_bytes()),
            },
            _ => out.extend_from_slice(num.format(*n).as_bytes()),
        },
        Val::Msg(_) => {}
    }
}

/// An Any whose packed type is known, expanded: `[URL] {` ... `}`. False
/// (nothing written) when its type is not known or its bytes do not
/// decode.
fn any(msg: &Msg, p: Print<'_>, indent: usize, out: &mut Vec<u8>) -> bool {
    let bytes = |n: u32| match msg.fields.get(&n) {
        Some((_, Slot::One(Val::Bytes(b)))) => b.as_slice(),
        _ => &[],
    };
    let url = String::from_utf8_lossy(bytes(1)).into_owned();
    let Some((_, type_name)) = url.rsplit_once('/') else {
        return false;
    };
    let Some(desc) = p.pool.get_message_by_name(type_name) else {
        return false;
    };
    let Ok(inner) = Msg::decode(&desc, bytes(2)) else {
        return false;
    };
    out.resize(out.len() + indent, b' ');
    out.push(b'[');
    out.extend_from_slice(url.as_bytes());
    out.extend_from_slice(b"] {\n");
    message(&inner, p, indent + 2, out);
    out.resize(out.len() + indent, b' ');
    out.extend_from_slice(b"}\n");
    true
}

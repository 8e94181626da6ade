//! A payload decoded by a message descriptor, as Python protobuf (upb)
//! decodes it: fields by number, the last value of a singular scalar, a
//! singular message merged from all its occurrences, one member of a
//! `oneof`, packed and unpacked repeated scalars alike, map entries in
//! the order their keys first appear (a repeated key replaces its value
//! in place), unknown fields and unknown values of closed enums dropped,
//! proto3 strings checked to be UTF-8. Every read is bounded by the
//! payload (tfr-core's wire reader: lengths checked, 100 levels at most).

use super::field::Field;
use crate::example::error::{DecodeError, DecodeErrorKind};
use crate::example::wire::{Reader, Value as Wire};
use prost_reflect::{Cardinality, Kind, MessageDescriptor, Syntax};
use std::collections::BTreeMap;

/// One value.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// int32, sint32, sfixed32.
    I32(i32),
    /// int64, sint64, sfixed64.
    I64(i64),
    /// uint32, fixed32.
    U32(u32),
    /// uint64, fixed64.
    U64(u64),
    /// float.
    F32(f32),
    /// double.
    F64(f64),
    /// bool.
    Bool(bool),
    /// string (UTF-8 checked in proto3) or bytes.
    Bytes(Vec<u8>),
    /// An enum's number.
    Enum(i32),
    /// A message (boxed: a value is 32 bytes).
    Msg(Box<Msg>),
}

/// A field's value(s).
#[derive(Clone, Debug, PartialEq)]
pub enum Slot {
    /// A singular field.
    One(Val),
    /// A repeated field.
    List(Vec<Val>),
    /// A map: (key, value) in first-appearance order.
    Map(Vec<(Val, Val)>),
}

/// A decoded message: its present fields by number.
#[derive(Clone, Debug, PartialEq)]
pub struct Msg {
    /// Its descriptor.
    pub desc: MessageDescriptor,
    /// Fields by number (ascending: the order Python lists them).
    pub fields: BTreeMap<u32, (Field, Slot)>,
    /// Whether it held a field its descriptor does not know (or one of the
    /// wrong wire type): a map entry that does is dropped, as upb drops it.
    pub unknown: bool,
    /// A `tensorflow.TensorProto`'s bytes (all its occurrences, as
    /// protobuf merges them), so that its values can be shown; empty for
    /// other messages.
    pub tensor: Vec<u8>,
}

impl Msg {
    /// An empty message of `desc`.
    pub fn new(desc: MessageDescriptor) -> Msg {
        Msg {
            desc,
            fields: BTreeMap::new(),
            unknown: false,
            tensor: Vec::new(),
        }
    }

    /// Decodes `payload` as a message of `desc`.
    pub fn decode(desc: &MessageDescriptor, payload: &[u8]) -> Result<Msg, DecodeError> {
        VALUES.with(|v| v.set(0));
        let mut msg = Msg::new(desc.clone());
        msg.merge(Reader::new(payload))?;
        Ok(msg)
    }

    /// Merges the fields read by `r` into this message.
    fn merge(&mut self, mut r: Reader<'_>) -> Result<(), DecodeError> {
        if self.desc.full_name() == TENSOR_PROTO {
            self.tensor.extend_from_slice(r.bytes());
        }
        while !r.is_empty() {
            let at = r.offset();
            let (number, wire) = r.tag()?;
            let field = (self.desc.get_field(number).map(Field::Plain))
                .or_else(|| self.desc.get_extension(number).map(Field::Ext));
            if wire == 3 {
                // A group: read as its field's message when it is one.
                let inner = r.group(number, at - r.start())?;
                match field.filter(|f| f.is_group()) {
                    Some(field) => self.group(&field, inner)?,
                    None => self.unknown = true,
                }
                continue;
            }
            let value = r.value(number, wire, at - r.start())?;
            // Unknown, or of another wire type than the field's (which upb
            // takes for an unknown field): dropped, as Python prints
            // nothing of it.
            match field.filter(|f| fits(f, &value)) {
                Some(field) => self.field(&field, value, at)?,
                None => self.unknown = true,
            }
        }
        Ok(())
    }

    /// One occurrence of a known field.
    fn field(&mut self, field: &Field, value: Wire<'_>, at: usize) -> Result<(), DecodeError> {
        let number = field.number();
        if field.is_map() {
            let Wire::Len(entry) = value else {
                return Err(bad(field, "a map entry that is not length-delimited", at));
            };
            let Some((k, v)) = map_entry(field, entry.nested()?)? else {
                return Ok(());
            };
            count(1, at)?;
            let slot = self.slot(field, || Slot::Map(Vec::new()));
            if let Slot::Map(entries) = slot {
                match entries.iter_mut().find(|(key, _)| *key == k) {
                    Some(e) => e.1 = v,
                    None => entries.push((k, v)),
                }
            }
            return Ok(());
        }
        if field.cardinality() == Cardinality::Repeated {
            let mut values = Vec::new();
            match value {
                // (unpack counts each value as it reads it)
                Wire::Len(packed) if is_packable(&field.kind()) => unpack(field, packed, &mut values)?,
                other => {
                    values.extend(single(field, other, at)?);
                    count(values.len(), at)?;
                }
            }
            if let Slot::List(list) = self.slot(field, || Slot::List(Vec::new())) {
                list.extend(values);
            }
            return Ok(());
        }
        // Singular: a message merges, a scalar's last value wins; a oneof
        // keeps its last member only.
        if let (Kind::Message(desc), Wire::Len(inner)) = (field.kind(), value) {
            self.clear_oneof(field);
            let slot = self.slot(field, || Slot::One(Val::Msg(Box::new(Msg::new(desc.clone())))));
            if let Slot::One(Val::Msg(m)) = slot {
                m.merge(inner.nested()?)?;
            }
            return Ok(());
        }
        match single(field, value, at)? {
            Some(v) => {
                self.clear_oneof(field);
                self.fields.insert(number, (field.clone(), Slot::One(v)));
            }
            // A closed enum's unknown value: an unknown field, as upb keeps
            // it (the oneof it is in untouched; a map entry holding it is
            // dropped).
            None => self.unknown = true,
        }
        Ok(())
    }

    /// Removes the other members of the oneof `field` is in.
    fn clear_oneof(&mut self, field: &Field) {
        if let Some(oneof) = field.containing_oneof().filter(|o| !o.is_synthetic()) {
            for other in oneof.fields().filter(|f| f.number() != field.number()) {
                self.fields.remove(&other.number());
            }
        }
    }

    /// One occurrence of a group field (its fields read by `inner`).
    fn group(&mut self, field: &Field, inner: Reader<'_>) -> Result<(), DecodeError> {
        let Kind::Message(desc) = field.kind() else {
            return Ok(());
        };
        if field.cardinality() == Cardinality::Repeated {
            let mut m = Msg::new(desc);
            m.merge(inner)?;
            count(1, 0)?;
            if let Slot::List(list) = self.slot(field, || Slot::List(Vec::new())) {
                list.push(Val::Msg(Box::new(m)));
            }
            return Ok(());
        }
        if let Slot::One(Val::Msg(m)) = self.slot(field, || Slot::One(Val::Msg(Box::new(Msg::new(desc.clone()))))) {
            m.merge(inner)?;
        }
        Ok(())
    }

    /// The slot of `field`, made by `new` when absent.
    fn slot(&mut self, field: &Field, new: impl FnOnce() -> Slot) -> &mut Slot {
        &mut self
            .fields
            .entry(field.number())
            .or_insert_with(|| (field.clone(), new()))
            .1
    }
}

/// The message whose bytes a [`Msg`] keeps.
pub const TENSOR_PROTO: &str = "tensorflow.TensorProto";

/// The most values one record decodes to (repeated elements and map
/// entries, all fields together): 8,388,608, 256 MiB of values. A larger
/// record is refused rather than held.
pub const MAX_VALUES: usize = 1 << 23;

thread_local! {
    /// Values of the record being decoded on this thread.
    static VALUES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts `n` more values of the record, refusing past [`MAX_VALUES`].
fn count(n: usize, at: usize) -> Result<(), DecodeError> {
    let total = VALUES.with(|v| {
        let t = v.get().saturating_add(n);
        v.set(t);
        t
    });
    match total > MAX_VALUES {
        true => Err(DecodeError::new(
            DecodeErrorKind::BadValue {
                reason: format!("more than {MAX_VALUES} repeated values in one record (tfr's bound)"),
            },
            at,
        )),
        false => Ok(()),
    }
}

/// Whether a value of this wire type can be the field's: otherwise upb
/// takes it for an unknown field.
fn fits(field: &Field, wire: &Wire<'_>) -> bool {
    let kind = field.kind();
    if field.is_map() {
        return matches!(wire, Wire::Len(_));
    }
    let packed = field.cardinality() == Cardinality::Repeated && is_packable(&kind);
    match wire {
        Wire::Len(_) => {
            packed
                || matches!(kind, Kind::String | Kind::Bytes)
                || matches!(kind, Kind::Message(_)) && !field.is_group()
        }
        Wire::Varint(_) => matches!(
            kind,
            Kind::Int32
                | Kind::Int64
                | Kind::Uint32
                | Kind::Uint64
                | Kind::Sint32
                | Kind::Sint64
                | Kind::Bool
                | Kind::Enum(_)
        ),
        Wire::Fixed32(_) => matches!(kind, Kind::Fixed32 | Kind::Sfixed32 | Kind::Float),
        Wire::Fixed64(_) => matches!(kind, Kind::Fixed64 | Kind::Sfixed64 | Kind::Double),
        Wire::Group => false,
    }
}

fn bad(field: &Field, what: &str, at: usize) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::BadValue {
            reason: format!("field {} ({}): {what}", field.number(), field.full_name()),
        },
        at,
    )
}

/// Whether values of `kind` may come packed.
fn is_packable(kind: &Kind) -> bool {
    !matches!(kind, Kind::String | Kind::Bytes | Kind::Message(_))
}

/// The values of a packed run.
fn unpack(field: &Field, mut r: Reader<'_>, out: &mut Vec<Val>) -> Result<(), DecodeError> {
    let kind = field.kind();
    while !r.is_empty() {
        let at = r.offset();
        let wire = match kind {
            Kind::Double | Kind::Fixed64 | Kind::Sfixed64 => Wire::Fixed64(r.fixed64()?),
            Kind::Float | Kind::Fixed32 | Kind::Sfixed32 => Wire::Fixed32(r.fixed32()?),
            _ => Wire::Varint(r.varint()?),
        };
        count(1, at)?;
        out.extend(single(field, wire, at)?);
    }
    Ok(())
}

/// One value of a field from its wire value (`None`: an unknown value of
/// a closed enum, which protobuf drops).
fn single(field: &Field, wire: Wire<'_>, at: usize) -> Result<Option<Val>, DecodeError> {
    let kind = field.kind();
    let mismatch = || bad(field, "a value of the wrong wire type", at);
    Ok(Some(match (&kind, wire) {
        (Kind::Int32, Wire::Varint(v)) => Val::I32(v as i32),
        (Kind::Sint32, Wire::Varint(v)) => Val::I32(zigzag32(v as u32)),
        (Kind::Sfixed32, Wire::Fixed32(v)) => Val::I32(v as i32),
        (Kind::Int64, Wire::Varint(v)) => Val::I64(v as i64),
        (Kind::Sint64, Wire::Varint(v)) => Val::I64(((v >> 1) as i64) ^ -((v & 1) as i64)),
        (Kind::Sfixed64, Wire::Fixed64(v)) => Val::I64(v as i64),
        (Kind::Uint32, Wire::Varint(v)) => Val::U32(v as u32),
        (Kind::Fixed32, Wire::Fixed32(v)) => Val::U32(v),
        (Kind::Uint64, Wire::Varint(v)) => Val::U64(v),
        (Kind::Fixed64, Wire::Fixed64(v)) => Val::U64(v),
        (Kind::Float, Wire::Fixed32(v)) => Val::F32(f32::from_bits(v)),
        (Kind::Double, Wire::Fixed64(v)) => Val::F64(f64::from_bits(v)),
        (Kind::Bool, Wire::Varint(v)) => Val::Bool(v != 0),
        (Kind::Enum(e), Wire::Varint(v)) => {
            let n = v as i32;
            // An enum of a proto2 file is closed: unknown numbers are dropped.
            if e.parent_file().syntax() == Syntax::Proto2 && e.get_value(n).is_none() {
                return Ok(None);
            }
            Val::Enum(n)
        }
        (Kind::String, Wire::Len(r)) => {
            let b = r.bytes();
            if field.parent_file().syntax() == Syntax::Proto3 {
                if let Err(e) = std::str::from_utf8(b) {
                    return Err(bad(
                        field,
                        "a string that is not valid UTF-8",
                        r.start() + e.valid_up_to(),
                    ));
                }
            }
            Val::Bytes(b.to_vec())
        }
        (Kind::Bytes, Wire::Len(r)) => Val::Bytes(r.bytes().to_vec()),
        (Kind::Message(desc), Wire::Len(r)) => {
            let mut m = Msg::new(desc.clone());
            m.merge(r.nested()?)?;
            Val::Msg(Box::new(m))
        }
        (Kind::Message(_), Wire::Group) => return Err(bad(field, "a group (not read by tfr)", at)),
        _ => return Err(mismatch()),
    }))
}

fn zigzag32(v: u32) -> i32 {
    ((v >> 1) as i32) ^ -((v & 1) as i32)
}

/// A map entry's key and value (defaults where absent); `None` for an
/// entry holding a field it does not know, which upb drops.
fn map_entry(field: &Field, r: Reader<'_>) -> Result<Option<(Val, Val)>, DecodeError> {
    let Kind::Message(entry) = field.kind() else {
        return Err(bad(field, "a map without its entry type", r.offset()));
    };
    let mut m = Msg::new(entry.clone());
    m.merge(r)?;
    let take = |n: u32| -> Option<Val> {
        match m.fields.get(&n) {
            Some((_, Slot::One(v))) => Some(v.clone()),
            _ => None,
        }
    };
    let key_field = Field::Plain(entry.map_entry_key_field());
    let value_field = Field::Plain(entry.map_entry_value_field());
    if m.unknown {
        return Ok(None);
    }
    let key = take(1).unwrap_or_else(|| default_of(&key_field));
    let value = take(2).unwrap_or_else(|| default_of(&value_field));
    Ok(Some((key, value)))
}

/// The default value of a field (its proto2 default, else zero).
pub fn default_of(field: &Field) -> Val {
    use prost_reflect::Value as V;
    match field.default_value() {
        V::I32(v) => Val::I32(v),
        V::I64(v) => Val::I64(v),
        V::U32(v) => Val::U32(v),
        V::U64(v) => Val::U64(v),
        V::F32(v) => Val::F32(v),
        V::F64(v) => Val::F64(v),
        V::Bool(v) => Val::Bool(v),
        V::String(s) => Val::Bytes(s.into_bytes()),
        V::Bytes(b) => Val::Bytes(b.to_vec()),
        V::EnumNumber(n) => Val::Enum(n),
        _ => match field.kind() {
            Kind::Message(d) => Val::Msg(Box::new(Msg::new(d))),
            _ => Val::I32(0),
        },
    }
}

/// Whether `v` is its type's zero (a proto3 field without presence holding
/// it is not listed by Python).
pub fn is_zero(v: &Val) -> bool {
    match v {
        Val::I32(x) => *x == 0,
        Val::I64(x) => *x == 0,
        Val::U32(x) => *x == 0,
        Val::U64(x) => *x == 0,
        Val::F32(x) => x.to_bits() == 0,
        Val::F64(x) => x.to_bits() == 0,
        Val::Bool(x) => !x,
        Val::Bytes(b) => b.is_empty(),
        Val::Enum(n) => *n == 0,
        Val::Msg(_) => false,
    }
}

//! The values `count --by` tallies ([`Key`]): a feature's, or a
//! message field's (`--message`, event files), and how each is printed.

use crate::example::{self, filter::Value};
use crate::output;

/// A value of the `--by` feature, as a key of the tally (ordered by kind,
/// then by value: floats by IEEE total order, so -inf, -0.0, 0.0, inf,
/// nan).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Key {
    Int(i64),
    /// A float32 by its bits (NaNs with the same bits are one value).
    Float(u32),
    Bytes(Vec<u8>),
    /// A message's uint64 above every int64.
    UInt(u64),
    /// A message's double by its bits.
    Double(u64),
    /// A message's bool.
    Bool(bool),
    /// A message's enum value, by its name.
    Name(String),
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        match (self, other) {
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Float(a), Key::Float(b)) => f32::from_bits(*a).total_cmp(&f32::from_bits(*b)),
            (Key::Bytes(a), Key::Bytes(b)) => a.cmp(b),
            (Key::UInt(a), Key::UInt(b)) => a.cmp(b),
            (Key::Double(a), Key::Double(b)) => f64::from_bits(*a).total_cmp(&f64::from_bits(*b)),
            (Key::Bool(a), Key::Bool(b)) => a.cmp(b),
            (Key::Name(a), Key::Name(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Key {
    /// The order of the kinds.
    fn rank(&self) -> u8 {
        match self {
            Key::Int(_) => 0,
            Key::Float(_) => 1,
            Key::Bytes(_) => 2,
            Key::UInt(_) => 3,
            Key::Double(_) => 4,
            Key::Bool(_) => 5,
            Key::Name(_) => 6,
        }
    }

    pub(super) fn size(&self) -> usize {
        match self {
            Key::Bytes(b) => b.len() + 32,
            Key::Name(n) => n.len() + 32,
            _ => 32,
        }
    }

    /// A message field's value (every NaN is one value, whatever its
    /// bits; an enum by its name, by its number when it has none).
    pub(super) fn of(v: Value<'_>) -> Key {
        match v {
            Value::Int(x) => Key::Int(x),
            Value::UInt(x) => i64::try_from(x).map_or(Key::UInt(x), Key::Int),
            Value::F32(x) => Key::Float(if x.is_nan() { f32::NAN } else { x }.to_bits()),
            Value::F64(x) => Key::Double(if x.is_nan() { f64::NAN } else { x }.to_bits()),
            Value::Bool(b) => Key::Bool(b),
            Value::Bytes(b) => Key::Bytes(b.to_vec()),
            Value::Enum(_, Some(name)) => Key::Name(name.to_string()),
            Value::Enum(n, None) => Key::Int(i64::from(n)),
        }
    }
}

/// A double as Python's repr prints it (the shortest that reads back).
fn double_text(v: f64) -> String {
    let mut buf = Vec::new();
    example::text::write_double(v, &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// A value as printed in the table: numbers as TensorFlow prints them,
/// bytes as text when UTF-8 (controls escaped), else as escaped bytes;
/// an enum value by its name.
pub(super) fn key_text(k: &Key) -> String {
    match k {
        Key::Int(v) => v.to_string(),
        Key::UInt(v) => v.to_string(),
        Key::Bool(b) => b.to_string(),
        Key::Name(n) => output::escape_controls(n).into_owned(),
        Key::Double(bits) => double_text(f64::from_bits(*bits)),
        Key::Float(bits) => {
            let mut buf = Vec::new();
            example::text::write_float(f32::from_bits(*bits), &mut buf);
            String::from_utf8_lossy(&buf).into_owned()
        }
        Key::Bytes(b) => match std::str::from_utf8(b) {
            Ok(t) => format!("\"{}\"", output::escape_controls(t)),
            Err(_) => format!("\"{}\"", b.escape_ascii()),
        },
    }
}

/// A value in JSON: a number, a string, or {"base64": ...} for bytes that
/// are not UTF-8 (as to-jsonl writes them); a float that is not finite is
/// a string ("nan", "inf", "-inf").
pub(super) fn key_json(k: &Key) -> serde_json::Value {
    use base64::Engine;
    let number = |text: String| serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
    match k {
        Key::Int(v) => serde_json::json!(v),
        Key::UInt(v) => serde_json::json!(v),
        Key::Bool(b) => serde_json::json!(b),
        Key::Name(n) => serde_json::json!(n),
        Key::Double(bits) => {
            let v = f64::from_bits(*bits);
            match v.is_finite() {
                true => number(ryu::Buffer::new().format(v).to_string()),
                false => number(double_text(v)),
            }
        }
        Key::Float(bits) => {
            let v = f32::from_bits(*bits);
            match v.is_finite() {
                true => number(ryu::Buffer::new().format(v).to_string()),
                false => number(key_text(k)),
            }
        }
        Key::Bytes(b) => match std::str::from_utf8(b) {
            Ok(t) => serde_json::Value::String(t.to_owned()),
            Err(_) => serde_json::json!({"base64": base64::engine::general_purpose::STANDARD.encode(b)}),
        },
    }
}

/// A TFDS ClassLabel's name of an int64 value.
pub(super) fn class_of<'a>(k: &Key, names: Option<&'a [String]>) -> Option<&'a str> {
    match k {
        Key::Int(v) => names?.get(usize::try_from(*v).ok()?).map(String::as_str),
        _ => None,
    }
}

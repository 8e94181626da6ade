//! `--where` over payloads that are not Examples: any protobuf message
//! (`--message`, event files), read through [`Fields`], which the
//! engine's message reader implements. A name is a path of field names
//! (`frame.context.name`); the language and its rules are the same as for
//! features: a path with several values (a repeated field, or a path
//! through one) matches when any value does, a path with no value makes
//! every comparison false.

use super::{DecodeError, Lit, Node, Op};
use std::cmp::Ordering;

/// One value a name reads in a message.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// A signed integer (int32, int64, sint*, sfixed*).
    Int(i64),
    /// An unsigned integer (uint32, uint64, fixed*).
    UInt(u64),
    /// A float (compared in float32, as stored).
    F32(f32),
    /// A double.
    F64(f64),
    /// A bool (compares as 1 or 0; `true` and `false` are those literals).
    Bool(bool),
    /// A string or bytes.
    Bytes(&'a [u8]),
    /// An enum value: its number and its name (none for a number the enum
    /// does not define). It equals its name as a string and its number as
    /// a number.
    Enum(i32, Option<&'a str>),
}

/// The values of a record's names (the engine's decoded message).
pub trait Fields {
    /// Calls `each` with every value `name` reads until it returns true;
    /// whether one did.
    fn any(&self, name: &str, each: &mut dyn FnMut(Value<'_>) -> bool) -> bool;
    /// Whether `name` is set (`has(NAME)`).
    fn has(&self, name: &str) -> bool;
    /// How many values `name` holds (`len(NAME)`).
    fn count(&self, name: &str) -> usize;
}

/// Decodes a payload into [`Fields`] (shared by the worker threads).
pub trait PayloadFields: Send + Sync {
    /// Decodes `payload` and calls `f` with its fields; an error is damage
    /// of the record.
    fn read(&self, payload: &[u8], f: &mut dyn FnMut(&dyn Fields) -> bool) -> Result<bool, DecodeError>;
}

impl Node {
    /// Whether a record read through `fs` matches.
    pub(super) fn eval_fields(&self, fs: &dyn Fields) -> bool {
        match self {
            Node::Or(all) => all.iter().any(|n| n.eval_fields(fs)),
            Node::And(all) => all.iter().all(|n| n.eval_fields(fs)),
            Node::Not(a) => !a.eval_fields(fs),
            Node::Has(name) => fs.has(name),
            Node::Len(name, op, n) => op.holds((fs.count(name) as i64).cmp(n)),
            Node::Cmp(name, op, lit) => fs.any(name, &mut |v| holds(v, *op, lit)),
            Node::In(name, lits) => fs.any(name, &mut |v| lits.iter().any(|lit| holds(v, Op::Eq, lit))),
            Node::Regex(name, re, negated) => fs.any(name, &mut |v| match v {
                Value::Bytes(b) => re.is_match(b) != *negated,
                Value::Enum(_, Some(n)) => re.is_match(n.as_bytes()) != *negated,
                _ => false,
            }),
        }
    }
}

/// An int64 compared with a float, exactly.
pub(super) fn cmp_int_float(v: i64, x: f64) -> Option<Ordering> {
    // 2^63: the first float above every int64 (`i64::MAX as f64` rounds
    // up to it, so it must not be compared as a float).
    const TWO_63: f64 = 9.223_372_036_854_776e18;
    if x.is_nan() {
        None
    } else if x >= TWO_63 {
        Some(Ordering::Less)
    } else if x < -TWO_63 {
        Some(Ordering::Greater)
    } else if x.fract() == 0.0 {
        Some(v.cmp(&(x as i64)))
    } else {
        // Not integral: below 2^52 in magnitude, where every int64 it
        // could tie with is exact as an f64.
        (v as f64).partial_cmp(&x)
    }
}

/// A uint64 compared with a float, exactly.
pub(super) fn cmp_uint_float(v: u64, x: f64) -> Option<Ordering> {
    // 2^64: the first float above every uint64.
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if x.is_nan() {
        None
    } else if x >= TWO_64 {
        Some(Ordering::Less)
    } else if x < 0.0 {
        Some(Ordering::Greater)
    } else if x.fract() == 0.0 {
        Some(v.cmp(&(x as u64)))
    } else {
        // Not integral: below 2^52, where every uint64 it could tie with
        // is exact as an f64.
        (v as f64).partial_cmp(&x)
    }
}

/// Whether `v` stands in `op` to `lit` (values of another kind than the
/// literal: false).
pub(super) fn holds(v: Value<'_>, op: Op, lit: &Lit) -> bool {
    let o = match (v, lit) {
        (Value::Int(v), Lit::Int(n)) => Some(v.cmp(n)),
        (Value::Int(v), Lit::Float(x)) => cmp_int_float(v, *x),
        (Value::Bool(b), Lit::Int(n)) => Some(i64::from(b).cmp(n)),
        (Value::Enum(v, _), Lit::Int(n)) => Some(i64::from(v).cmp(n)),
        (Value::Enum(_, Some(name)), Lit::Bytes(b)) => Some(name.as_bytes().cmp(b.as_slice())),
        (Value::UInt(v), Lit::Int(n)) => Some(match u64::try_from(*n) {
            Ok(n) => v.cmp(&n),
            Err(_) => Ordering::Greater,
        }),
        (Value::UInt(v), Lit::Float(x)) => cmp_uint_float(v, *x),
        (Value::UInt(v), Lit::UInt(n)) => Some(v.cmp(n)),
        (Value::Int(_) | Value::Bool(_) | Value::Enum(..), Lit::UInt(_)) => Some(Ordering::Less),
        (Value::F32(v), Lit::UInt(n)) => cmp_uint_float(*n, f64::from(v)).map(Ordering::reverse),
        (Value::F64(v), Lit::UInt(n)) => cmp_uint_float(*n, v).map(Ordering::reverse),
        (Value::F32(v), Lit::Float(x)) => v.partial_cmp(&(*x as f32)),
        (Value::F32(v), Lit::Int(n)) => cmp_int_float(*n, f64::from(v)).map(Ordering::reverse),
        (Value::F64(v), Lit::Float(x)) => v.partial_cmp(x),
        (Value::F64(v), Lit::Int(n)) => cmp_int_float(*n, v).map(Ordering::reverse),
        (Value::Bytes(v), Lit::Bytes(b)) => Some(v.cmp(b.as_slice())),
        _ => return false,
    };
    op.holds_partial(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::example::Where;
    use std::collections::HashMap;

    /// Names with their values, as a message reader would give them.
    struct Map(HashMap<&'static str, Vec<Value<'static>>>);

    impl Fields for Map {
        fn any(&self, name: &str, each: &mut dyn FnMut(Value<'_>) -> bool) -> bool {
            self.0.get(name).is_some_and(|vs| vs.iter().any(|v| each(*v)))
        }
        fn has(&self, name: &str) -> bool {
            self.0.contains_key(name)
        }
        fn count(&self, name: &str) -> usize {
            self.0.get(name).map_or(0, Vec::len)
        }
    }

    impl PayloadFields for Map {
        fn read(&self, _: &[u8], f: &mut dyn FnMut(&dyn Fields) -> bool) -> Result<bool, DecodeError> {
            Ok(f(self))
        }
    }

    fn eval(expr: &str, m: Map) -> bool {
        let w = Where::parse(expr).unwrap().bind(std::sync::Arc::new(m));
        let mut d = crate::example::view::Decoder::new();
        w.matches_payload(&mut d, crate::example::MessageType::Raw, false, b"")
            .unwrap()
    }

    fn record() -> Map {
        Map(HashMap::from([
            ("i", vec![Value::Int(-3), Value::Int(7)]),
            ("u", vec![Value::UInt(u64::MAX)]),
            ("f", vec![Value::F32(0.1)]),
            ("d", vec![Value::F64(0.1)]),
            ("b", vec![Value::Bool(true)]),
            ("s", vec![Value::Bytes(b"hello")]),
            ("e", vec![Value::Enum(2, Some("BLUE"))]),
            ("x", vec![Value::Enum(9, None)]),
            ("none", vec![]),
        ]))
    }

    #[test]
    fn each_kind_compares_with_its_literals() {
        for (expr, want) in [
            ("i == 7", true),
            ("i < -2", true),
            ("i > 7", false),
            ("i == 7.0", true),
            ("u > 9223372036854775807", true),
            ("u == -1", false),
            ("u > 1e19", true),
            ("u > 2e19", false),
            ("u == 18446744073709551615", true),
            ("u < 18446744073709551615", false),
            ("u == 1.8446744073709552e19", false),
            ("u < 1.8446744073709552e19", true),
            ("i < 9223372036854775808", true),
            ("d < 9223372036854775808", true),
            ("f == 0.1", true),
            ("d == 0.1", true),
            ("d == 0", false),
            ("b == true", true),
            ("b == 1", true),
            ("b == false", false),
            ("s == \"hello\"", true),
            ("s ~ \"^he\"", true),
            ("s == 1", false),
            ("e == \"BLUE\"", true),
            ("e == 2", true),
            ("e ~ \"LU\"", true),
            ("e in [\"RED\", \"BLUE\"]", true),
            ("x == 9", true),
            ("x == \"BLUE\"", false),
            ("has(none) && len(none) == 0", true),
            ("len(i) == 2", true),
            ("has(missing)", false),
            ("!(missing == 1)", true),
        ] {
            assert_eq!(eval(expr, record()), want, "{expr}");
        }
    }
}

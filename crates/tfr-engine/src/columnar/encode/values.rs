//! A leaf array's values as Feature values: the kind each Arrow type
//! becomes ([`kind_of`]) and the getters that read it ([`Leaf`]).

use super::{Casts, Kind};
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrowPrimitiveType, PrimitiveArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, TimeUnit};
use std::borrow::Cow;

/// The feature kind of a value type, with a note for a conversion that
/// changes the value's meaning (units) or precision.
pub(super) fn kind_of(ty: &DataType, casts: Casts) -> Option<(Kind, Option<String>)> {
    let unit = |u: &TimeUnit| match u {
        TimeUnit::Second => "seconds",
        TimeUnit::Millisecond => "milliseconds",
        TimeUnit::Microsecond => "microseconds",
        TimeUnit::Nanosecond => "nanoseconds",
    };
    Some(match ty {
        DataType::Boolean
        | DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::Int64
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::UInt64 => (Kind::Int64, None),
        DataType::Float16 | DataType::Float32 => (Kind::Float, None),
        DataType::Float64 => (
            Kind::Float,
            Some("double values narrowed to float32 (float_list)".into()),
        ),
        DataType::Utf8
        | DataType::LargeUtf8
        | DataType::Utf8View
        | DataType::Binary
        | DataType::LargeBinary
        | DataType::BinaryView
        | DataType::FixedSizeBinary(_) => (Kind::Bytes, None),
        DataType::Timestamp(u, _) => (
            Kind::Int64,
            Some(format!("{ty} written as int64 {} since 1970-01-01", unit(u))),
        ),
        DataType::Date32 => (
            Kind::Int64,
            Some(format!("{ty} written as int64 days since 1970-01-01")),
        ),
        DataType::Date64 => (
            Kind::Int64,
            Some(format!("{ty} written as int64 milliseconds since 1970-01-01")),
        ),
        DataType::Time32(u) | DataType::Time64(u) => (
            Kind::Int64,
            Some(format!("{ty} written as int64 {} since midnight", unit(u))),
        ),
        DataType::Duration(u) => (Kind::Int64, Some(format!("{ty} written as int64 {}", unit(u)))),
        DataType::Dictionary(_, values) => return kind_of(values, casts),
        DataType::Decimal32(..) | DataType::Decimal64(..) | DataType::Decimal128(..) | DataType::Decimal256(..) => {
            if casts.decimal_text {
                (Kind::Bytes, None)
            } else {
                (
                    Kind::Float,
                    Some(format!(
                        "{ty} written as float32 (--decimal text keeps every digit, as bytes)"
                    )),
                )
            }
        }
        _ => return None,
    })
}

/// A feature's values as they are gathered for one row.
#[derive(Default)]
pub(super) struct Feature<'a> {
    pub(super) kind: Option<Kind>,
    pub(super) ints: Vec<i64>,
    pub(super) floats: Vec<f32>,
    pub(super) bytes: Vec<Cow<'a, [u8]>>,
}

impl Feature<'_> {
    pub(super) fn clear(&mut self) {
        self.ints.clear();
        self.floats.clear();
        self.bytes.clear();
    }
}

/// Buffers reused from row to row.
#[derive(Default)]
pub(super) struct Scratch<'a> {
    pub(super) feature: Feature<'a>,
    pub(super) packed: Vec<u8>,
    pub(super) steps: Vec<u8>,
    pub(super) context: Vec<u8>,
    pub(super) lists: Vec<u8>,
}

/// Reads the values of one leaf array, whatever its Arrow type.
pub(super) enum Getter<'a> {
    Int(Box<dyn Fn(usize) -> Result<i64, String> + 'a>),
    Float(Box<dyn Fn(usize) -> f32 + 'a>),
    Bytes(Box<dyn Fn(usize) -> &'a [u8] + 'a>),
    /// Bytes made from the value (a decimal's digits).
    Text(Box<dyn Fn(usize) -> Vec<u8> + 'a>),
}

/// A leaf array with its getter and its (logical) nulls.
pub(super) struct Leaf<'a> {
    pub(super) get: Getter<'a>,
    pub(super) nulls: Option<NullBuffer>,
    /// Integers as floats ([`Layout::write_as_float`]).
    pub(super) as_float: bool,
    /// Nulls among a list's values left out (`--null-in-list drop`).
    pub(super) drop_nulls: bool,
}

impl<'a> Leaf<'a> {
    pub(super) fn new(a: &'a dyn Array, as_float: bool, casts: Casts) -> Result<Leaf<'a>, String> {
        Ok(Leaf {
            get: getter(a, casts)?,
            nulls: a.logical_nulls(),
            as_float,
            drop_nulls: casts.drop_list_nulls,
        })
    }

    pub(super) fn push(&self, i: usize, f: &mut Feature<'a>) -> Result<(), String> {
        match &self.get {
            Getter::Int(g) if self.as_float => {
                f.kind = Some(Kind::Float);
                f.floats.push(g(i)? as f32);
            }
            Getter::Int(g) => {
                f.kind = Some(Kind::Int64);
                f.ints.push(g(i)?);
            }
            Getter::Float(g) => {
                f.kind = Some(Kind::Float);
                f.floats.push(g(i));
            }
            Getter::Bytes(g) => {
                f.kind = Some(Kind::Bytes);
                f.bytes.push(Cow::Borrowed(g(i)));
            }
            Getter::Text(g) => {
                f.kind = Some(Kind::Bytes);
                f.bytes.push(Cow::Owned(g(i)));
            }
        }
        Ok(())
    }

    pub(super) fn set_kind(&self, f: &mut Feature<'a>) {
        f.kind = Some(match self.get {
            Getter::Int(_) if self.as_float => Kind::Float,
            Getter::Int(_) => Kind::Int64,
            Getter::Float(_) => Kind::Float,
            Getter::Bytes(_) | Getter::Text(_) => Kind::Bytes,
        });
    }

    /// The one value of row `i`.
    pub(super) fn one(&self, i: usize, f: &mut Feature<'a>) -> Result<(), String> {
        self.push(i, f)
    }

    /// Values `a..z` (a list's items): a null among them is an error, or
    /// left out (`--null-in-list drop`).
    pub(super) fn many(&self, a: usize, z: usize, f: &mut Feature<'a>) -> Result<(), String> {
        self.set_kind(f);
        for i in a..z {
            if self.nulls.as_ref().is_some_and(|n| n.is_null(i)) {
                if self.drop_nulls {
                    continue;
                }
                return Err(
                    "a null inside a list (a Feature's values cannot be null; --null-in-list drop leaves them out)"
                        .into(),
                );
            }
            self.push(i, f)?;
        }
        Ok(())
    }
}

pub(super) fn prim<'a, T: ArrowPrimitiveType>(
    a: &'a dyn Array,
    f: impl Fn(T::Native) -> Result<i64, String> + 'a,
) -> Getter<'a> {
    let a: &'a PrimitiveArray<T> = a.as_primitive::<T>();
    Getter::Int(Box::new(move |i| f(a.value(i))))
}

/// A decimal's values: as float32, or (`--decimal text`) its digits.
fn decimal<T: DecimalType>(a: &dyn Array, text: bool) -> Getter<'_> {
    let d = a.as_primitive::<T>();
    if text {
        Getter::Text(Box::new(move |i| d.value_as_string(i).into_bytes()))
    } else {
        // Through the digits: the nearest float32 of the exact value.
        Getter::Float(Box::new(move |i| {
            d.value_as_string(i).parse::<f64>().map_or(f32::NAN, |v| v as f32)
        }))
    }
}

pub(super) fn getter(a: &dyn Array, casts: Casts) -> Result<Getter<'_>, String> {
    pub(super) fn ok(v: i64) -> Result<i64, String> {
        Ok(v)
    }
    Ok(match a.data_type() {
        DataType::Boolean => {
            let b = a.as_boolean();
            Getter::Int(Box::new(move |i| Ok(i64::from(b.value(i)))))
        }
        DataType::Int8 => prim::<Int8Type>(a, |v| ok(v.into())),
        DataType::Int16 => prim::<Int16Type>(a, |v| ok(v.into())),
        DataType::Int32 => prim::<Int32Type>(a, |v| ok(v.into())),
        DataType::Int64 => prim::<Int64Type>(a, ok),
        DataType::UInt8 => prim::<UInt8Type>(a, |v| ok(v.into())),
        DataType::UInt16 => prim::<UInt16Type>(a, |v| ok(v.into())),
        DataType::UInt32 => prim::<UInt32Type>(a, |v| ok(v.into())),
        DataType::UInt64 => prim::<UInt64Type>(a, |v| {
            i64::try_from(v).map_err(|_| format!("the uint64 value {v} does not fit in int64"))
        }),
        DataType::Float16 => {
            let f = a.as_primitive::<Float16Type>();
            Getter::Float(Box::new(move |i| f.value(i).to_f32()))
        }
        DataType::Float32 => {
            let f = a.as_primitive::<Float32Type>();
            Getter::Float(Box::new(move |i| f.value(i)))
        }
        DataType::Float64 => {
            let f = a.as_primitive::<Float64Type>();
            Getter::Float(Box::new(move |i| f.value(i) as f32))
        }
        DataType::Utf8 => {
            let s = a.as_string::<i32>();
            Getter::Bytes(Box::new(move |i| s.value(i).as_bytes()))
        }
        DataType::LargeUtf8 => {
            let s = a.as_string::<i64>();
            Getter::Bytes(Box::new(move |i| s.value(i).as_bytes()))
        }
        DataType::Utf8View => {
            let s = a.as_string_view();
            Getter::Bytes(Box::new(move |i| s.value(i).as_bytes()))
        }
        DataType::Binary => {
            let s = a.as_binary::<i32>();
            Getter::Bytes(Box::new(move |i| s.value(i)))
        }
        DataType::LargeBinary => {
            let s = a.as_binary::<i64>();
            Getter::Bytes(Box::new(move |i| s.value(i)))
        }
        DataType::BinaryView => {
            let s = a.as_binary_view();
            Getter::Bytes(Box::new(move |i| s.value(i)))
        }
        DataType::FixedSizeBinary(_) => {
            let s = a.as_fixed_size_binary();
            Getter::Bytes(Box::new(move |i| s.value(i)))
        }
        DataType::Timestamp(TimeUnit::Second, _) => prim::<TimestampSecondType>(a, ok),
        DataType::Timestamp(TimeUnit::Millisecond, _) => prim::<TimestampMillisecondType>(a, ok),
        DataType::Timestamp(TimeUnit::Microsecond, _) => prim::<TimestampMicrosecondType>(a, ok),
        DataType::Timestamp(TimeUnit::Nanosecond, _) => prim::<TimestampNanosecondType>(a, ok),
        DataType::Date32 => prim::<Date32Type>(a, |v| ok(v.into())),
        DataType::Date64 => prim::<Date64Type>(a, ok),
        DataType::Time32(TimeUnit::Second) => prim::<Time32SecondType>(a, |v| ok(v.into())),
        DataType::Time32(_) => prim::<Time32MillisecondType>(a, |v| ok(v.into())),
        DataType::Time64(TimeUnit::Microsecond) => prim::<Time64MicrosecondType>(a, ok),
        DataType::Time64(_) => prim::<Time64NanosecondType>(a, ok),
        DataType::Duration(TimeUnit::Second) => prim::<DurationSecondType>(a, ok),
        DataType::Duration(TimeUnit::Millisecond) => prim::<DurationMillisecondType>(a, ok),
        DataType::Duration(TimeUnit::Microsecond) => prim::<DurationMicrosecondType>(a, ok),
        DataType::Duration(TimeUnit::Nanosecond) => prim::<DurationNanosecondType>(a, ok),
        DataType::Dictionary(_, _) => {
            let d = a.as_any_dictionary();
            let keys = d.normalized_keys();
            match getter(d.values().as_ref(), casts)? {
                Getter::Int(g) => Getter::Int(Box::new(move |i| g(keys[i]))),
                Getter::Float(g) => Getter::Float(Box::new(move |i| g(keys[i]))),
                Getter::Bytes(g) => Getter::Bytes(Box::new(move |i| g(keys[i]))),
                Getter::Text(g) => Getter::Text(Box::new(move |i| g(keys[i]))),
            }
        }
        DataType::Decimal32(..) => decimal::<Decimal32Type>(a, casts.decimal_text),
        DataType::Decimal64(..) => decimal::<Decimal64Type>(a, casts.decimal_text),
        DataType::Decimal128(..) => decimal::<Decimal128Type>(a, casts.decimal_text),
        DataType::Decimal256(..) => decimal::<Decimal256Type>(a, casts.decimal_text),
        other => return Err(format!("{other} has no TFRecord feature kind (int64, float or bytes)")),
    })
}

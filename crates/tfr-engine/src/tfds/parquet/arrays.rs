//! A column's Arrow array from the rows gathered for it: the values back to
//! back with each row's shape, nested into `fixed_size_list`s and `list`s
//! by the column's levels, the innermost values in the column's exact type.

use super::{image_fields, Column, Level, Prim};
use crate::error::{bail, Result};
use crate::tfds::features::Kind;
use crate::tfds::tensor::Values;
use arrow_array::{
    builder::BooleanBuilder, ArrayRef, BinaryArray, FixedSizeListArray, Float32Array, Float64Array, Int16Array,
    Int32Array, Int64Array, Int8Array, ListArray, StringArray, StructArray, UInt16Array, UInt32Array, UInt64Array,
    UInt8Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::Field;
use std::sync::Arc;

/// A column's rows being gathered: values back to back, each row's shape
/// (`None`: null).
#[derive(Default)]
pub(super) struct Gather {
    pub(super) values: Option<Values>,
    pub(super) shapes: Vec<Option<Vec<usize>>>,
}

pub(super) fn extend(into: &mut Option<Values>, from: &Values, start: usize, len: usize) {
    let range = start..start + len;
    match (into.get_or_insert_with(|| empty_like(from)), from) {
        (Values::Int(a), Values::Int(b)) => a.extend_from_slice(&b[range]),
        (Values::UInt(a), Values::UInt(b)) => a.extend_from_slice(&b[range]),
        (Values::Float(a), Values::Float(b)) => a.extend_from_slice(&b[range]),
        (Values::Bool(a), Values::Bool(b)) => a.extend_from_slice(&b[range]),
        (Values::Bytes(a), Values::Bytes(b)) => a.extend(b[range].iter().cloned()),
        _ => {}
    }
}

fn empty_like(v: &Values) -> Values {
    match v {
        Values::Int(_) => Values::Int(Vec::new()),
        Values::UInt(_) => Values::UInt(Vec::new()),
        Values::Float(_) => Values::Float(Vec::new()),
        Values::Bool(_) => Values::Bool(Vec::new()),
        Values::Bytes(_) => Values::Bytes(Vec::new()),
    }
}

/// A column's array from its gathered rows.
pub(super) fn build(c: &Column, g: &mut Gather) -> Result<ArrayRef> {
    // A null row takes the values of its smallest shape (0 per variable level).
    let null_shape: Vec<usize> = c
        .levels
        .iter()
        .map(|l| match l {
            Level::Fixed(n) => *n,
            Level::Var => 0,
        })
        .collect();
    let fill: usize = null_shape.iter().product();
    let mut values = g.values.take().unwrap_or_else(|| empty_values(c.prim));
    let mut shapes = Vec::with_capacity(g.shapes.len());
    let mut valid = Vec::with_capacity(g.shapes.len());
    let mut flat = Vec::new();
    for s in &g.shapes {
        valid.push(s.is_some());
        flat.push(s.is_none());
        shapes.push(s.clone().unwrap_or_else(|| null_shape.clone()));
    }
    // Null rows' filler values go where their rows are.
    if fill > 0 && flat.iter().any(|&n| n) {
        values = with_fillers(&values, &shapes, &flat, fill);
    }
    for s in &shapes {
        if s.len() != c.levels.len() {
            bail!(
                "a value of {} dimensions where the column has {}",
                s.len(),
                c.levels.len()
            );
        }
        for (d, l) in s.iter().zip(&c.levels) {
            if let Level::Fixed(n) = l {
                if d != n {
                    bail!("a dimension of {d} where features.json says {n}");
                }
            }
        }
    }
    let nulls = valid.iter().any(|v| !v).then(|| NullBuffer::from(valid.clone()));
    let scalar_nulls = if c.levels.is_empty() { nulls.clone() } else { None };
    let mut array = prim_array(c.prim, &c.leaf_kind, values, scalar_nulls)?;
    for j in (0..c.levels.len()).rev() {
        let item = Arc::new(Field::new("item", array.data_type().clone(), true));
        let outer_nulls = if j == 0 { nulls.clone() } else { None };
        array = match c.levels[j] {
            Level::Fixed(n) => Arc::new(FixedSizeListArray::try_new(item, n as i32, array, outer_nulls)?),
            Level::Var => {
                let mut lengths = Vec::new();
                for s in &shapes {
                    let items: usize = s[..j].iter().product();
                    lengths.extend(std::iter::repeat_n(s[j], items));
                }
                Arc::new(ListArray::try_new(
                    item,
                    OffsetBuffer::from_lengths(lengths),
                    array,
                    outer_nulls,
                )?)
            }
        };
    }
    Ok(array)
}

/// `values` with `fill` default values inserted for each null row.
fn with_fillers(values: &Values, shapes: &[Vec<usize>], null: &[bool], fill: usize) -> Values {
    let mut out = Some(empty_like(values));
    let mut at = 0;
    for (s, &is_null) in shapes.iter().zip(null) {
        if is_null {
            if let Some(v) = out.as_mut() {
                push_defaults(v, fill);
            }
        } else {
            let n: usize = s.iter().product();
            extend(&mut out, values, at, n);
            at += n;
        }
    }
    out.unwrap_or_else(|| empty_like(values))
}

fn push_defaults(v: &mut Values, n: usize) {
    match v {
        Values::Int(a) => a.resize(a.len() + n, 0),
        Values::UInt(a) => a.resize(a.len() + n, 0),
        Values::Float(a) => a.resize(a.len() + n, 0.0),
        Values::Bool(a) => a.resize(a.len() + n, false),
        Values::Bytes(a) => a.resize(a.len() + n, Vec::new()),
    }
}

fn empty_values(prim: Prim) -> Values {
    match prim {
        Prim::Bool => Values::Bool(Vec::new()),
        Prim::Int(_) => Values::Int(Vec::new()),
        Prim::UInt(_) => Values::UInt(Vec::new()),
        Prim::Float32 | Prim::Float64 => Values::Float(Vec::new()),
        Prim::Utf8 | Prim::Binary | Prim::Image => Values::Bytes(Vec::new()),
    }
}

/// The innermost array: the values as the column's Arrow type.
fn prim_array(prim: Prim, kind: &Kind, values: Values, nulls: Option<NullBuffer>) -> Result<ArrayRef> {
    fn ints<T: TryFrom<i64>>(v: &[i64]) -> Result<Vec<T>> {
        v.iter()
            .map(|&x| T::try_from(x).map_err(|_| crate::Error::Invalid(format!("{x} does not fit the dtype"))))
            .collect()
    }
    fn uints<T: TryFrom<u64>>(v: &[u64]) -> Result<Vec<T>> {
        v.iter()
            .map(|&x| T::try_from(x).map_err(|_| crate::Error::Invalid(format!("{x} does not fit the dtype"))))
            .collect()
    }
    let array: ArrayRef = match (prim, values) {
        (Prim::Bool, Values::Bool(v)) => {
            let mut b = BooleanBuilder::with_capacity(v.len());
            b.append_slice(&v);
            let a = b.finish();
            Arc::new(arrow_array::BooleanArray::new(a.values().clone(), nulls))
        }
        (Prim::Int(1), Values::Int(v)) => Arc::new(Int8Array::new(ints(&v)?.into(), nulls)),
        (Prim::Int(2), Values::Int(v)) => Arc::new(Int16Array::new(ints(&v)?.into(), nulls)),
        (Prim::Int(4), Values::Int(v)) => Arc::new(Int32Array::new(ints(&v)?.into(), nulls)),
        (Prim::Int(_), Values::Int(v)) => Arc::new(Int64Array::new(v.into(), nulls)),
        (Prim::UInt(1), Values::UInt(v)) => Arc::new(UInt8Array::new(uints(&v)?.into(), nulls)),
        (Prim::UInt(2), Values::UInt(v)) => Arc::new(UInt16Array::new(uints(&v)?.into(), nulls)),
        (Prim::UInt(4), Values::UInt(v)) => Arc::new(UInt32Array::new(uints(&v)?.into(), nulls)),
        (Prim::UInt(_), Values::UInt(v)) => Arc::new(UInt64Array::new(v.into(), nulls)),
        (Prim::Float32, Values::Float(v)) => Arc::new(Float32Array::new(
            v.iter().map(|&x| x as f32).collect::<Vec<_>>().into(),
            nulls,
        )),
        (Prim::Float64, Values::Float(v)) => Arc::new(Float64Array::new(v.into(), nulls)),
        (Prim::Utf8, Values::Bytes(v)) => {
            let mut texts = Vec::with_capacity(v.len());
            for b in &v {
                texts.push(std::str::from_utf8(b).map_err(|_| crate::Error::Invalid("text that is not UTF-8".into()))?);
            }
            Arc::new(StringArray::new(
                arrow_buffer::OffsetBuffer::from_lengths(texts.iter().map(|t| t.len())),
                texts.concat().into_bytes().into(),
                nulls,
            ))
        }
        (Prim::Binary, Values::Bytes(v)) => Arc::new(BinaryArray::new(
            arrow_buffer::OffsetBuffer::from_lengths(v.iter().map(Vec::len)),
            v.concat().into(),
            nulls,
        )),
        (Prim::Image, Values::Bytes(v)) => {
            let n = v.len();
            let bytes: ArrayRef = Arc::new(BinaryArray::new(
                arrow_buffer::OffsetBuffer::from_lengths(v.iter().map(Vec::len)),
                v.concat().into(),
                None,
            ));
            let paths: ArrayRef = Arc::new(StringArray::new_null(n));
            Arc::new(StructArray::try_new(image_fields(), vec![bytes, paths], nulls)?)
        }
        (prim, values) => bail!(
            "{values:?} values for a {prim:?} column ({kind:?})",
            values = values.len()
        ),
    };
    Ok(array)
}

//! A tensor serialized by `tf.io.serialize_tensor`: the bytes of a
//! `tensorflow.TensorProto` (tensor.proto), read back strictly, so that a
//! bytes feature holding one can be told from text, an image or any other
//! bytes.
//!
//! The fields read (TensorFlow's tensor.proto, tensor_shape.proto,
//! types.proto): `dtype` = 1 (a `DataType`), `tensor_shape` = 2 (`dim` = 2,
//! each `{size = 1, name = 2}`; `unknown_rank` = 3), `version_number` = 3,
//! `tensor_content` = 4 (raw little-endian row-major elements), and the
//! typed values `float_val` = 5, `double_val` = 6, `int_val` = 7 (int32,
//! int16, int8, uint8, uint16), `string_val` = 8, `int64_val` = 10,
//! `bool_val` = 11, `half_val` = 13 (the 16 bits of a half or bfloat16),
//! `uint32_val` = 16, `uint64_val` = 17. Any other field (complex,
//! resource, variant, float8 values, unknown numbers) makes the bytes not a
//! tensor tfr decodes. Fields may come in any order, repeated numeric
//! values packed or not (or both); a singular field given twice takes its
//! last value and a shape given twice is merged, as protobuf parses them.
//!
//! The rules, TensorFlow's `Tensor::FromProto` where it is strict, stricter
//! where it is lenient (what `tf.io.serialize_tensor` never writes):
//! - `dtype` and `tensor_shape` must both be there (TensorFlow reads a
//!   proto without a shape as a scalar); the dtype one of those [`DType`]
//!   names; no `unknown_rank` (TensorFlow ignores it), no negative
//!   dimension, at most 254 dimensions (TensorFlow's limit);
//! - the shape holds at most [`MAX_ELEMENTS`] elements, counting the
//!   dimensions other than 0 (so `[0, 2^62]` is refused, as `shape_of` in
//!   [`super::tensor`] refuses it);
//! - non-empty `tensor_content` must be exactly the elements' bytes and
//!   comes alone (TensorFlow ignores typed values beside it); a bool's
//!   bytes are 0 or 1; strings never come as `tensor_content`
//!   (`serialize_tensor` writes `string_val`);
//! - typed values come only in the dtype's own field (TensorFlow ignores
//!   the others and gives zeros); fewer values than elements repeat the
//!   last one and none give zeros, as TensorFlow does (that is how
//!   `tf.make_tensor_proto(5.0, shape=[2, 2])` is written); more values than
//!   elements are refused (TensorFlow drops the extra ones);
//! - `int_val` and `half_val` are narrowed as TensorFlow narrows them (300
//!   in a uint8 is 44, `half_val` keeps its low 16 bits);
//! - strings: exactly one `string_val` per element (TensorFlow repeats the
//!   last string too; tfr refuses, so that a few bytes never turn into
//!   millions of strings).
//!
//! Memory: besides the values the input holds (bounded by its length), a
//! broadcast fills at most [`MAX_ELEMENTS`] numbers.

use super::tensor::{f16_value, from_raw, DType, Tensor, Values, MAX_ELEMENTS};
use tfr_core::example::wire::{Reader, Value};

/// TensorFlow's most dimensions (`TensorShape::MaxDimensions`).
const MAX_DIMS: usize = 254;

/// The numbers of the typed value fields tfr reads.
const VALUE_FIELDS: [u32; 9] = [5, 6, 7, 8, 10, 11, 13, 16, 17];

/// The dtype of a `DataType` number (types.proto), where tfr decodes it.
fn dtype_of(code: u32) -> Option<DType> {
    Some(match code {
        1 => DType::Float(4),  // DT_FLOAT
        2 => DType::Float(8),  // DT_DOUBLE
        3 => DType::Int(4),    // DT_INT32
        4 => DType::UInt(1),   // DT_UINT8
        5 => DType::Int(2),    // DT_INT16
        6 => DType::Int(1),    // DT_INT8
        7 => DType::String,    // DT_STRING
        9 => DType::Int(8),    // DT_INT64
        10 => DType::Bool,     // DT_BOOL
        14 => DType::BFloat16, // DT_BFLOAT16
        17 => DType::UInt(2),  // DT_UINT16
        19 => DType::Float(2), // DT_HALF
        22 => DType::UInt(4),  // DT_UINT32
        23 => DType::UInt(8),  // DT_UINT64
        _ => return None,
    })
}

/// The field holding typed values of `dtype` (TensorFlow's `ProtoHelper`).
fn value_field(dtype: DType) -> u32 {
    match dtype {
        DType::Float(4) => 5,
        DType::Float(8) => 6,
        DType::Float(_) | DType::BFloat16 => 13,
        DType::String => 8,
        DType::Int(8) => 10,
        DType::Int(_) | DType::UInt(1) | DType::UInt(2) => 7,
        DType::UInt(4) => 16,
        DType::UInt(_) => 17,
        DType::Bool => 11,
    }
}

/// Whether `value` has a wire type field `number` may have: strings are
/// length-delimited; numbers are their scalar wire type, or packed.
fn wire_fits(number: u32, value: &Value<'_>) -> bool {
    matches!(
        (number, value),
        (_, Value::Len(_)) | (5, Value::Fixed32(_)) | (6, Value::Fixed64(_))
    ) || (number != 5 && number != 6 && number != 8 && matches!(value, Value::Varint(_)))
}

/// A `TensorShapeProto` as parsed so far.
#[derive(Default)]
struct Shape {
    dims: Vec<i64>,
    unknown_rank: bool,
}

/// Parses one occurrence of `tensor_shape` into `shape` (merging).
fn read_shape(mut r: Reader<'_>, shape: &mut Shape) -> Option<()> {
    while let Some(f) = r.field().ok()? {
        match (f.number, f.value) {
            (2, Value::Len(dim)) if shape.dims.len() < MAX_DIMS => shape.dims.push(read_dim(dim)?),
            (3, Value::Varint(v)) => shape.unknown_rank = v != 0,
            _ => return None,
        }
    }
    Some(())
}

/// A `TensorShapeProto.Dim`'s size (its name, a proto3 string, must be
/// UTF-8 and is dropped).
fn read_dim(mut r: Reader<'_>) -> Option<i64> {
    let mut size = 0;
    while let Some(f) = r.field().ok()? {
        match (f.number, f.value) {
            (1, Value::Varint(v)) => size = v as i64,
            (2, Value::Len(name)) => {
                std::str::from_utf8(name.bytes()).ok()?;
            }
            _ => return None,
        }
    }
    Some(size)
}

/// The dimensions of a shape, and its element count, within the rules.
fn dims_of(shape: &Shape) -> Option<(Vec<usize>, usize)> {
    if shape.unknown_rank {
        return None;
    }
    let mut arrays = 1usize;
    let mut dims = Vec::with_capacity(shape.dims.len());
    for &d in &shape.dims {
        let d = usize::try_from(d).ok()?;
        if d > 0 {
            arrays = arrays.checked_mul(d).filter(|&a| a <= MAX_ELEMENTS)?;
        }
        dims.push(d);
    }
    let count = if dims.contains(&0) { 0 } else { arrays };
    Some((dims, count))
}

/// Decodes `bytes` as a serialized `TensorProto`: its tensor and dtype, or
/// `None` when the bytes are not one, strictly (the module's rules).
pub fn parse(bytes: &[u8]) -> Option<(Tensor, DType)> {
    parse_with(bytes, false)
}

/// [`parse`], but a missing `tensor_shape` is a scalar, as TensorFlow
/// reads it (what a TensorBoard summary written without a shape holds).
pub fn parse_summary(bytes: &[u8]) -> Option<(Tensor, DType)> {
    parse_with(bytes, true)
}

fn parse_with(bytes: &[u8], no_shape_is_scalar: bool) -> Option<(Tensor, DType)> {
    let mut dtype = None;
    let mut shape: Option<Shape> = None;
    let mut content: &[u8] = &[];
    let mut seen = 0u32;
    let mut r = Reader::new(bytes);
    while let Some(f) = r.field().ok()? {
        match (f.number, f.value) {
            // An enum is an int32: the low 32 bits.
            (1, Value::Varint(v)) => dtype = Some(v as u32),
            (2, Value::Len(s)) => read_shape(s, shape.get_or_insert_with(Shape::default))?,
            (3, Value::Varint(_)) => {}
            (4, Value::Len(c)) => content = c.bytes(),
            (n, v) if VALUE_FIELDS.contains(&n) && wire_fits(n, &v) => seen |= 1 << n,
            _ => return None,
        }
    }
    let ty = dtype_of(dtype?)?;
    let shape = match shape {
        None if no_shape_is_scalar => Shape::default(),
        shape => shape?,
    };
    let (dims, count) = dims_of(&shape)?;
    let field = value_field(ty);
    if seen & !(1 << field) != 0 {
        return None;
    }
    let values = if !content.is_empty() {
        // An empty tensor_content is an absent one (proto3).
        if seen != 0 || ty == DType::String || content.len() != count * ty.size() {
            return None;
        }
        if ty == DType::Bool && content.iter().any(|&b| b > 1) {
            return None;
        }
        from_raw(content, ty).ok()?
    } else if ty == DType::String {
        strings(bytes, count)?
    } else {
        typed(bytes, field, ty, count)?
    };
    let tensor = Tensor { shape: dims, values };
    Some((tensor, ty))
}

/// The one value of a 0-d numeric TensorProto, read as TensorFlow reads it
/// for TensorBoard's scalars (more leniently than [`parse`]): a missing
/// shape is a scalar, `tensor_content` wins over typed values, no value at
/// all is zero. `None` for anything else (a shape with dimensions, a
/// string, not a TensorProto).
pub fn parse_scalar(bytes: &[u8]) -> Option<f64> {
    let mut dtype = None;
    let mut shape: Option<Shape> = None;
    let mut content: &[u8] = &[];
    let mut r = Reader::new(bytes);
    while let Some(f) = r.field().ok()? {
        match (f.number, f.value) {
            (1, Value::Varint(v)) => dtype = Some(v as u32),
            (2, Value::Len(s)) => read_shape(s, shape.get_or_insert_with(Shape::default))?,
            (4, Value::Len(c)) => content = c.bytes(),
            _ => {}
        }
    }
    if shape.is_some_and(|s| !s.dims.is_empty()) {
        return None;
    }
    let ty = dtype_of(dtype?)?;
    let values = match (content.is_empty(), ty) {
        (_, DType::String) => return None,
        (false, _) if content.len() == ty.size() => from_raw(content, ty).ok()?,
        (false, _) => return None,
        (true, _) => typed(bytes, value_field(ty), ty, 1)?,
    };
    match values {
        Values::Float(v) => v.first().copied(),
        Values::Int(v) => v.first().map(|&x| x as f64),
        Values::UInt(v) => v.first().map(|&x| x as f64),
        Values::Bool(v) => v.first().map(|&x| f64::from(u8::from(x))),
        Values::Bytes(_) => None,
    }
}

/// The `string_val`s of an already validated message: exactly `count`.
fn strings(bytes: &[u8], count: usize) -> Option<Values> {
    let mut out = Vec::new();
    for f in Reader::new(bytes).fields().filter(|f| f.number == 8) {
        let Value::Len(s) = f.value else { return None };
        if out.len() == count {
            return None;
        }
        out.push(s.bytes().to_vec());
    }
    (out.len() == count).then_some(Values::Bytes(out))
}

/// The elements of field `field` of an already validated message, as
/// their wire values (varints whole, fixed bits), at most `count`.
fn raw_values(bytes: &[u8], field: u32, count: usize) -> Option<Vec<u64>> {
    let mut raw = Vec::new();
    let mut push = |x: u64| {
        if raw.len() == count {
            return None;
        }
        raw.push(x);
        Some(())
    };
    for f in Reader::new(bytes).fields().filter(|f| f.number == field) {
        match f.value {
            Value::Varint(v) | Value::Fixed64(v) => push(v)?,
            Value::Fixed32(v) => push(v.into())?,
            Value::Len(packed) => {
                let b = packed.bytes();
                match field {
                    5 if b.len() % 4 == 0 => {
                        for c in b.chunks_exact(4) {
                            push(u32::from_le_bytes(c.try_into().ok()?).into())?;
                        }
                    }
                    6 if b.len() % 8 == 0 => {
                        for c in b.chunks_exact(8) {
                            push(u64::from_le_bytes(c.try_into().ok()?))?;
                        }
                    }
                    5 | 6 => return None,
                    _ => {
                        let mut p = packed;
                        while !p.is_empty() {
                            push(p.varint().ok()?)?;
                        }
                    }
                }
            }
            Value::Group => return None,
        }
    }
    Some(raw)
}

/// `values` filled to `count` with the last (TensorFlow's broadcast), or
/// zeros when there is none.
fn filled<T: Copy + Default>(mut values: Vec<T>, count: usize) -> Vec<T> {
    let last = values.last().copied().unwrap_or_default();
    values.resize(count, last);
    values
}

/// The typed values (field `field`) of an already validated message, as
/// `dtype`, `count` of them.
fn typed(bytes: &[u8], field: u32, dtype: DType, count: usize) -> Option<Values> {
    let raw = raw_values(bytes, field, count)?;
    let int = |f: fn(u64) -> i64| Values::Int(filled(raw.iter().map(|&x| f(x)).collect(), count));
    let uint = |f: fn(u64) -> u64| Values::UInt(filled(raw.iter().map(|&x| f(x)).collect(), count));
    let float = |f: fn(u64) -> f64| Values::Float(filled(raw.iter().map(|&x| f(x)).collect(), count));
    Some(match dtype {
        DType::Float(4) => float(|x| f64::from(f32::from_bits(x as u32))),
        DType::Float(8) => float(f64::from_bits),
        DType::Float(_) => float(|x| f16_value(x as u16)),
        DType::BFloat16 => float(|x| f64::from(f32::from_bits(u32::from(x as u16) << 16))),
        DType::Int(1) => int(|x| i64::from(x as i8)),
        DType::Int(2) => int(|x| i64::from(x as i16)),
        DType::Int(4) => int(|x| i64::from(x as i32)),
        DType::Int(_) => int(|x| x as i64),
        DType::UInt(1) => uint(|x| u64::from(x as u8)),
        DType::UInt(2) => uint(|x| u64::from(x as u16)),
        DType::UInt(4) => uint(|x| u64::from(x as u32)),
        DType::UInt(_) => uint(|x| x),
        DType::Bool => Values::Bool(filled(raw.iter().map(|&x| x != 0).collect(), count)),
        DType::String => return None,
    })
}

#[cfg(test)]
#[path = "tensorproto_tests.rs"]
mod tests;

//! A TFDS feature's value as TFDS decodes it: the Example feature a leaf
//! of the tree is stored as ([`super::features::Leaf`]), turned into typed
//! values with a shape. Tensors stored as lists (`encoding: none`) take
//! their dtype and shape from `features.json`; those stored as bytes
//! (`encoding: bytes`, little-endian, row-major) or `zlib` (the same bytes,
//! deflated) are decoded; a leaf inside a `Sequence` or `Dataset` gets a
//! leading dimension of its length. Images stay their encoded bytes; text
//! stays bytes (UTF-8).

use super::features::{Kind, Leaf};
use crate::example::FeatureView;
use crate::example::Kind as ValueKind;
use std::io::Read;

/// A tensor's element type, as TFDS names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    /// `bool`.
    Bool,
    /// `int8`, `int16`, `int32`, `int64` (bytes each).
    Int(u8),
    /// `uint8`, `uint16`, `uint32`, `uint64`.
    UInt(u8),
    /// `float16`, `float32`, `float64`.
    Float(u8),
    /// `bfloat16`.
    BFloat16,
    /// `string` (bytes).
    String,
}

impl DType {
    /// From TFDS's name (`float32`, `tf.int64` is written `int64`).
    pub fn parse(name: &str) -> Option<DType> {
        Some(match name {
            "bool" => DType::Bool,
            "int8" => DType::Int(1),
            "int16" => DType::Int(2),
            "int32" => DType::Int(4),
            "int64" => DType::Int(8),
            "uint8" => DType::UInt(1),
            "uint16" => DType::UInt(2),
            "uint32" => DType::UInt(4),
            "uint64" => DType::UInt(8),
            "float16" => DType::Float(2),
            "bfloat16" => DType::BFloat16,
            "float32" => DType::Float(4),
            "float64" => DType::Float(8),
            "string" | "str" | "object" => DType::String,
            _ => return None,
        })
    }

    /// Bytes per element when stored raw (strings have none).
    pub fn size(self) -> usize {
        match self {
            DType::Bool => 1,
            DType::Int(n) | DType::UInt(n) | DType::Float(n) => n as usize,
            DType::BFloat16 => 2,
            DType::String => 0,
        }
    }
}

/// Typed values, flat, row-major.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Signed integers (and ClassLabel indices).
    Int(Vec<i64>),
    /// Unsigned integers.
    UInt(Vec<u64>),
    /// Floats (float16/32 widened exactly).
    Float(Vec<f64>),
    /// Booleans.
    Bool(Vec<bool>),
    /// Bytes: text, encoded images, strings.
    Bytes(Vec<Vec<u8>>),
}

impl Values {
    /// How many values.
    pub fn len(&self) -> usize {
        match self {
            Values::Int(v) => v.len(),
            Values::UInt(v) => v.len(),
            Values::Float(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::Bytes(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A decoded value: flat values and their shape (the product of the shape
/// is the number of values).
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// Dimensions, outermost first (a sequence's length first).
    pub shape: Vec<usize>,
    /// The values.
    pub values: Values,
}

/// The most elements one feature of one record decodes to (a tensor
/// stored encoded, or a shape, claiming more is refused): 16,777,216,
/// 128 MiB as 64-bit values.
pub const MAX_ELEMENTS: usize = 1 << 24;

/// The most bytes the encoded items of one feature inflate to, together.
const MAX_INFLATED: u64 = (MAX_ELEMENTS * 8) as u64;

/// A half-precision float's value.
pub(super) fn f16_value(bits: u16) -> f64 {
    let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = ((bits >> 10) & 0x1f) as i32;
    let frac = (bits & 0x3ff) as f64;
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Raw little-endian elements of `dtype`.
pub(super) fn from_raw(raw: &[u8], dtype: DType) -> Result<Values, String> {
    let size = dtype.size();
    if size > 0 && raw.len() / size > MAX_ELEMENTS {
        return Err(format!("more than {MAX_ELEMENTS} elements"));
    }
    if size == 0 || raw.len() % size != 0 {
        return Err(format!("{} bytes are not whole {dtype:?} elements", raw.len()));
    }
    let chunks = raw.chunks_exact(size);
    let le = |c: &[u8]| {
        let mut b = [0u8; 8];
        b[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(b)
    };
    Ok(match dtype {
        DType::Bool => Values::Bool(raw.iter().map(|&b| b != 0).collect()),
        DType::Int(n) => {
            let shift = 64 - 8 * n as u32;
            Values::Int(chunks.map(|c| ((le(c) << shift) as i64) >> shift).collect())
        }
        DType::UInt(_) => Values::UInt(chunks.map(le).collect()),
        DType::Float(2) => Values::Float(chunks.map(|c| f16_value(le(c) as u16)).collect()),
        DType::Float(4) => Values::Float(chunks.map(|c| f32::from_bits(le(c) as u32) as f64).collect()),
        DType::Float(_) => Values::Float(chunks.map(|c| f64::from_bits(le(c))).collect()),
        DType::BFloat16 => Values::Float(chunks.map(|c| f32::from_bits((le(c) as u32) << 16) as f64).collect()),
        DType::String => unreachable!("size 0"),
    })
}

/// Values of a list feature as `dtype` (`encoding: none`).
fn from_list(v: &FeatureView<'_>, dtype: DType) -> Result<Values, String> {
    Ok(match (v.kind(), dtype) {
        (ValueKind::None, DType::String) => Values::Bytes(Vec::new()),
        (ValueKind::None, DType::Float(_) | DType::BFloat16) => Values::Float(Vec::new()),
        (ValueKind::None, DType::Bool) => Values::Bool(Vec::new()),
        (ValueKind::None, DType::UInt(_)) => Values::UInt(Vec::new()),
        (ValueKind::None, _) => Values::Int(Vec::new()),
        (ValueKind::Int64, DType::Bool) => Values::Bool(v.int64s().map(|x| x != 0).collect()),
        (ValueKind::Int64, DType::UInt(n)) => {
            let max = if n >= 8 { i64::MAX } else { (1i64 << (8 * n)) - 1 };
            let bad = v.int64s().find(|&x| !(0..=max).contains(&x));
            if let Some(x) = bad {
                return Err(format!("{x} does not fit {dtype:?}"));
            }
            Values::UInt(v.int64s().map(|x| x as u64).collect())
        }
        (ValueKind::Int64, DType::Int(n)) => {
            let bits = 8 * n as u32;
            let fits = |x: i64| bits >= 64 || (x >= -(1i64 << (bits - 1)) && x < (1i64 << (bits - 1)));
            if let Some(x) = v.int64s().find(|&x| !fits(x)) {
                return Err(format!("{x} does not fit {dtype:?}"));
            }
            Values::Int(v.int64s().collect())
        }
        (ValueKind::Float, DType::Float(_) | DType::BFloat16) => Values::Float(v.floats().map(f64::from).collect()),
        (ValueKind::Bytes, DType::String) => Values::Bytes(v.bytes().map(<[u8]>::to_vec).collect()),
        (kind, dtype) => return Err(format!("stored as {}, where features.json says {dtype:?}", kind.name())),
    })
}

/// The raw bytes of an encoded tensor value.
/// Appends the raw bytes of an encoded tensor value to `out`, which may
/// hold at most [`MAX_INFLATED`] bytes in all.
fn raw_bytes(value: &[u8], zlib: bool, out: &mut Vec<u8>) -> Result<(), String> {
    let room = MAX_INFLATED.saturating_sub(out.len() as u64);
    let too_big =
        || format!("the encoded tensor holds more than {MAX_INFLATED} bytes ({MAX_ELEMENTS} elements at most)");
    if !zlib {
        if value.len() as u64 > room {
            return Err(too_big());
        }
        out.extend_from_slice(value);
        return Ok(());
    }
    let before = out.len();
    flate2::read::ZlibDecoder::new(value)
        .take(room + 1)
        .read_to_end(out)
        .map_err(|e| format!("zlib: {e}"))?;
    if (out.len() - before) as u64 > room {
        return Err(too_big());
    }
    Ok(())
}

/// A shape as features.json gives it, as Python writes it: `(2, ?)`.
fn shown(dims: &[Option<u64>]) -> String {
    let d: Vec<String> = dims.iter().map(|d| d.map_or("?".into(), |v| v.to_string())).collect();
    match d.len() {
        1 => format!("({},)", d[0]),
        _ => format!("({})", d.join(", ")),
    }
}

/// The shape of `n` values: the sequences' lengths (`within` levels, the
/// outermost `outer` when known), then `dims`; one unknown dimension is
/// inferred from `n`.
fn shape_of(n: usize, within: usize, outer: Option<usize>, dims: &[Option<u64>]) -> Result<Vec<usize>, String> {
    let mut shape: Vec<Option<usize>> = vec![None; within];
    if let (Some(first), Some(len)) = (shape.first_mut(), outer) {
        *first = Some(len);
    }
    shape.extend(dims.iter().map(|d| d.map(|v| v as usize)));
    // The arrays a shape makes, values or not (a dimension of 0 aside):
    // bounded, so that no shape claims more than the values could fill.
    let arrays = shape
        .iter()
        .flatten()
        .filter(|&&d| d > 0)
        .try_fold(1usize, |t, &d| t.checked_mul(d));
    if arrays.is_none_or(|a| a > MAX_ELEMENTS) {
        return Err(format!(
            "the shape {} holds more than {MAX_ELEMENTS} elements",
            shown(dims)
        ));
    }
    let known: usize = shape.iter().flatten().product();
    let fill = match shape.iter().filter(|d| d.is_none()).count() {
        0 => 0,
        1 if known > 0 && n % known == 0 => n / known,
        1 if known == 0 && n == 0 => 0,
        _ => {
            return Err(format!(
                "{n} values do not make the shape {} (within {within} sequences)",
                shown(dims)
            ))
        }
    };
    let shape: Vec<usize> = shape.into_iter().map(|d| d.unwrap_or(fill)).collect();
    if shape.iter().product::<usize>() != n {
        return Err(format!("{n} values do not fill the shape {shape:?}"));
    }
    Ok(shape)
}

/// Decodes leaf `leaf`'s feature `v` of one record.
pub fn decode(leaf: &Leaf<'_>, v: &FeatureView<'_>) -> Result<Tensor, String> {
    let within = leaf.within.len();
    let count = |v: &FeatureView<'_>| match v.kind() {
        ValueKind::Int64 => v.int64s().count(),
        ValueKind::Float => v.floats().count(),
        ValueKind::Bytes => v.bytes().count(),
        ValueKind::None => 0,
    };
    match &leaf.node.kind {
        Kind::Tensor { shape, dtype, encoding } => {
            let ty = DType::parse(dtype).ok_or_else(|| format!("the dtype {dtype} is not one tfr decodes"))?;
            match encoding.as_str() {
                "bytes" | "zlib" if ty != DType::String => {
                    let items: Vec<&[u8]> = v.bytes().collect();
                    if v.kind() != ValueKind::Bytes {
                        return Err(format!(
                            "stored as {}, where an encoded tensor is bytes",
                            v.kind().name()
                        ));
                    }
                    let mut raw = Vec::new();
                    for item in &items {
                        raw_bytes(item, encoding == "zlib", &mut raw)?;
                    }
                    let values = from_raw(&raw, ty)?;
                    let outer = (within > 0).then_some(items.len());
                    Ok(Tensor {
                        shape: shape_of(values.len(), within, outer, shape)?,
                        values,
                    })
                }
                _ => {
                    let values = from_list(v, ty)?;
                    Ok(Tensor {
                        shape: shape_of(values.len(), within, None, shape)?,
                        values,
                    })
                }
            }
        }
        Kind::ClassLabel { .. } => {
            let values = from_list(v, DType::Int(8))?;
            Ok(Tensor {
                shape: shape_of(values.len(), within, None, &[])?,
                values,
            })
        }
        Kind::Text | Kind::Image { .. } => {
            let values = from_list(v, DType::String)?;
            Ok(Tensor {
                shape: shape_of(count(v), within, None, &[])?,
                values,
            })
        }
        other => Err(format!("a {other:?} feature is not one tfr decodes")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_elements_read_little_endian() {
        assert_eq!(
            from_raw(&[0xac, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], DType::Int(4)).unwrap(),
            Values::Int(vec![172, -1])
        );
        assert_eq!(
            from_raw(&[1, 0, 2], DType::Bool).unwrap(),
            Values::Bool(vec![true, false, true])
        );
        assert_eq!(
            from_raw(&[0x00, 0x3c], DType::Float(2)).unwrap(),
            Values::Float(vec![1.0])
        );
        assert_eq!(
            from_raw(&[0x80, 0x3f], DType::BFloat16).unwrap(),
            Values::Float(vec![1.0])
        );
        assert!(from_raw(&[1, 2, 3], DType::Int(2)).is_err());
    }

    #[test]
    fn a_zlib_bomb_or_a_huge_shape_is_refused_not_allocated() {
        use std::io::Write;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..=(MAX_INFLATED >> 20) {
            z.write_all(&zeros).unwrap();
        }
        let bomb = z.finish().unwrap();
        let mut out = Vec::new();
        assert!(raw_bytes(&bomb, true, &mut out).unwrap_err().contains("more than"));
        // Items of a sequence count together.
        let mut out = vec![0u8; MAX_INFLATED as usize - 2];
        assert!(raw_bytes(&[1, 2, 3], false, &mut out).is_err());
        assert!(shape_of(0, 0, None, &[Some(1 << 32), Some(1 << 32)]).is_err());
        assert!(shape_of(0, 0, None, &[Some(100_000_000_000), Some(0)]).is_err());
        assert_eq!(shape_of(0, 0, None, &[Some(2), Some(0)]).unwrap(), vec![2, 0]);
    }

    #[test]
    fn shapes_take_sequences_and_one_unknown_dimension() {
        assert_eq!(shape_of(6, 0, None, &[Some(2), Some(3)]).unwrap(), vec![2, 3]);
        assert_eq!(shape_of(6, 1, None, &[Some(2)]).unwrap(), vec![3, 2]);
        assert_eq!(shape_of(6, 0, None, &[None, Some(3)]).unwrap(), vec![2, 3]);
        assert_eq!(shape_of(0, 1, None, &[Some(2)]).unwrap(), vec![0, 2]);
        assert!(shape_of(3, 0, None, &[]).is_err());
        assert_eq!(shape_of(1, 0, None, &[]).unwrap(), Vec::<usize>::new());
        assert!(shape_of(7, 0, None, &[Some(2), Some(3)]).is_err());
    }
}

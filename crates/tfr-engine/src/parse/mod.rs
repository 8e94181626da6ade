//! Records decoded into typed values by a parse spec, as TensorFlow's
//! `tf.io.parse_example` decodes them (the Python reader's records,
//! `tfr_cli.TFRecordDataset`).
//!
//! A [`Spec`] names features, each a [`FeatureSpec`]: `Fixed` (TensorFlow's
//! `FixedLenFeature`: exactly as many values as its shape holds, a default
//! standing in when the feature is missing) or `Var` (`VarLenFeature`: any
//! number). [`Spec::infer`] makes the spec `tfr schema --format tf` prints.
//! A [`Parser`] appends each record's values to [`Columns`], one per spec
//! feature, so a batch of records is one buffer per feature.
//!
//! TensorFlow's rules, followed here (checked against `tf.io.parse_example`
//! by tests/python/reader_check.py): a Feature with no kind set is missing;
//! of several entries of one key the last with a kind wins; a kind other
//! than the spec's dtype is an error ("Data types don't match"); a Fixed
//! feature with another number of values is an error; a missing Fixed
//! feature without a default is an error; a default must hold exactly the
//! shape's number of values (TensorFlow reshapes it: a scalar stands in
//! for a shape of one value only), and a default of no values is none (the
//! feature is then required, as TensorFlow has it). For a VarLen feature
//! the last entry of a key wins, one with no kind making it empty.
//!
//! [`stored`] decodes a record without a spec: each feature as it is
//! stored (the reader's `spec=None`).

mod decode;
pub mod stored;

pub use decode::{Column, Columns, Parser};

use crate::error::{bail, Result};
use crate::example::Kind;
use crate::schema::tf::{described, Described};
use crate::schema::Scan;

/// The most values a Fixed feature's shape may hold (a shape is checked
/// before any buffer is sized from it).
pub const MAX_FIXED_VALUES: u64 = 1 << 28;

/// A value type of a parse spec: TensorFlow's three (`tf.int64`,
/// `tf.float32`, `tf.string`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// `tf.int64`: an Int64List.
    Int64,
    /// `tf.float32`: a FloatList.
    Float32,
    /// `tf.string`: a BytesList.
    Bytes,
}

impl DType {
    /// The Feature kind it reads.
    pub fn kind(self) -> Kind {
        match self {
            DType::Int64 => Kind::Int64,
            DType::Float32 => Kind::Float,
            DType::Bytes => Kind::Bytes,
        }
    }

    /// The dtype reading a Feature kind (`None` for no kind).
    pub fn of_kind(kind: Kind) -> Option<DType> {
        match kind {
            Kind::Int64 => Some(DType::Int64),
            Kind::Float => Some(DType::Float32),
            Kind::Bytes => Some(DType::Bytes),
            Kind::None => None,
        }
    }

    /// TensorFlow's name: `int64`, `float32`, `string`.
    pub fn name(self) -> &'static str {
        match self {
            DType::Int64 => "int64",
            DType::Float32 => "float32",
            DType::Bytes => "string",
        }
    }

    /// The dtype a name means: TensorFlow's and numpy's names (`int64`,
    /// `float32`, `string`, `bytes`, `object`, `str`).
    pub fn parse(name: &str) -> Option<DType> {
        match name {
            "int64" | "i8" | "<i8" | "long" => Some(DType::Int64),
            "float32" | "f4" | "<f4" | "float" => Some(DType::Float32),
            "string" | "bytes" | "object" | "str" | "bytes_" | "object_" | "S" | "O" => Some(DType::Bytes),
            _ => None,
        }
    }
}

/// Values of one dtype, flat.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// int64 values.
    Int64(Vec<i64>),
    /// float32 values.
    Float32(Vec<f32>),
    /// Byte strings.
    Bytes(Vec<Vec<u8>>),
}

impl Values {
    /// No values of `dtype`.
    pub fn empty(dtype: DType) -> Values {
        match dtype {
            DType::Int64 => Values::Int64(Vec::new()),
            DType::Float32 => Values::Float32(Vec::new()),
            DType::Bytes => Values::Bytes(Vec::new()),
        }
    }

    /// Their dtype.
    pub fn dtype(&self) -> DType {
        match self {
            Values::Int64(_) => DType::Int64,
            Values::Float32(_) => DType::Float32,
            Values::Bytes(_) => DType::Bytes,
        }
    }

    /// How many.
    pub fn len(&self) -> usize {
        match self {
            Values::Int64(v) => v.len(),
            Values::Float32(v) => v.len(),
            Values::Bytes(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes them all, keeping the buffers.
    pub fn clear(&mut self) {
        match self {
            Values::Int64(v) => v.clear(),
            Values::Float32(v) => v.clear(),
            Values::Bytes(v) => v.clear(),
        }
    }

    /// Appends `other`'s values (of the same dtype; others are ignored).
    pub fn extend_from(&mut self, other: &Values) {
        match (self, other) {
            (Values::Int64(a), Values::Int64(b)) => a.extend_from_slice(b),
            (Values::Float32(a), Values::Float32(b)) => a.extend_from_slice(b),
            (Values::Bytes(a), Values::Bytes(b)) => a.extend(b.iter().cloned()),
            _ => {}
        }
    }
}

/// How one feature is parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum FeatureSpec {
    /// `FixedLenFeature(shape, dtype, default_value)`.
    Fixed {
        /// The shape of one record's values (`[]`: one value).
        shape: Vec<u64>,
        /// Their type.
        dtype: DType,
        /// The values standing in when the feature is missing (as many
        /// as the shape holds), or none: missing is then an error.
        default: Option<Values>,
    },
    /// `VarLenFeature(dtype)`: any number of values, none when missing.
    Var {
        /// Their type.
        dtype: DType,
    },
}

impl FeatureSpec {
    /// Its value type.
    pub fn dtype(&self) -> DType {
        match self {
            FeatureSpec::Fixed { dtype, .. } | FeatureSpec::Var { dtype } => *dtype,
        }
    }

    /// For a Fixed feature, how many values its shape holds.
    pub fn size(&self) -> Option<u64> {
        match self {
            FeatureSpec::Fixed { shape, .. } => Some(shape.iter().product()),
            FeatureSpec::Var { .. } => None,
        }
    }
}

/// Which features are parsed, and how, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    features: Vec<(String, FeatureSpec)>,
}

/// `[2, 3]`, as shapes are written.
pub fn show_shape(shape: &[u64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(", "))
}

impl Spec {
    /// A spec of these features, checked: names unique, shapes at most
    /// [`MAX_FIXED_VALUES`] values, defaults of the feature's dtype with
    /// as many values as its shape holds.
    pub fn new(mut features: Vec<(String, FeatureSpec)>) -> Result<Spec> {
        // A default without values is none: TensorFlow's parser then
        // requires the feature ("required but could not be found").
        for (_, f) in &mut features {
            if let FeatureSpec::Fixed { default, .. } = f {
                if default.as_ref().is_some_and(Values::is_empty) {
                    *default = None;
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (name, f) in &features {
            if !seen.insert(name.as_str()) {
                bail!("spec: the feature {name:?} is given twice");
            }
            let FeatureSpec::Fixed { shape, dtype, default } = f else {
                continue;
            };
            let size = shape
                .iter()
                .try_fold(1u64, |n, d| n.checked_mul(*d))
                .filter(|n| *n <= MAX_FIXED_VALUES && shape.iter().all(|d| *d <= MAX_FIXED_VALUES));
            let Some(size) = size else {
                bail!(
                    "spec: feature {name:?}: the shape {} holds more than {MAX_FIXED_VALUES} values",
                    show_shape(shape)
                );
            };
            if let Some(d) = default {
                if d.dtype() != *dtype {
                    bail!(
                        "spec: feature {name:?}: its default is {} where its dtype is {}",
                        d.dtype().name(),
                        dtype.name()
                    );
                }
                if d.len() as u64 != size {
                    bail!(
                        "spec: feature {name:?}: its default holds {} values where the shape {} holds {size} (TensorFlow reshapes the default to the shape)",
                        d.len(),
                        show_shape(shape)
                    );
                }
            }
        }
        Ok(Spec { features })
    }

    /// The spec `tfr schema --format tf` writes for `scan`'s features (of
    /// Example records): Fixed where every record holding a feature has the
    /// same number of values (shape `[]` for one, `[n]` else; zeros as the
    /// default where it is sometimes missing), Var otherwise; a feature
    /// whose kind differs between records, or that never has one, is left
    /// out. Features in name order.
    pub fn infer(scan: &Scan) -> Result<Spec> {
        if scan.ty != crate::example::MessageType::Example {
            bail!(
                "spec=\"auto\": the records are {}: a parse spec describes tf.train.Example records (decode the others with spec=None)",
                crate::schema::describe::type_name(scan.ty)
            );
        }
        let records = scan.stats.records;
        let mut features = Vec::new();
        for f in scan.stats.features.sorted() {
            let spec = match described(f, records) {
                Described::Fixed { n, kind, missing } => {
                    let Some(dtype) = DType::of_kind(kind) else { continue };
                    let shape = if n == 1 { Vec::new() } else { vec![n] };
                    let default = missing.then(|| zeros(dtype, n as usize));
                    FeatureSpec::Fixed { shape, dtype, default }
                }
                Described::Var { kind } => match DType::of_kind(kind) {
                    Some(dtype) => FeatureSpec::Var { dtype },
                    None => continue,
                },
                Described::Conflict | Described::NoKind => continue,
            };
            features.push((f.name.to_string(), spec));
        }
        Spec::new(features)
    }

    /// The features, in order.
    pub fn features(&self) -> &[(String, FeatureSpec)] {
        &self.features
    }

    /// Keeps only the features `keep` says yes to.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.features.retain(|(name, _)| keep(name));
    }

    /// Whether it names no feature.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }
}

/// `n` zeros (empty strings) of `dtype`.
fn zeros(dtype: DType, n: usize) -> Values {
    match dtype {
        DType::Int64 => Values::Int64(vec![0; n]),
        DType::Float32 => Values::Float32(vec![0.0; n]),
        DType::Bytes => Values::Bytes(vec![Vec::new(); n]),
    }
}

#[cfg(test)]
mod tests;

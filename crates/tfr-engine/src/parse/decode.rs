//! A record's features into columns, by a spec.

use super::{show_shape, FeatureSpec, Spec, Values};
use crate::error::{bail, Result};
use crate::example::{Decoder, FeatureView, Kind};
use std::collections::HashMap;

/// One spec feature's values over the records parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Every record's values, one after the other.
    pub values: Values,
    /// Where each record's values end in `values`.
    pub ends: Vec<usize>,
}

impl Column {
    /// Record `row`'s values: their range in `values`.
    pub fn row(&self, row: usize) -> std::ops::Range<usize> {
        let start = if row == 0 { 0 } else { self.ends[row - 1] };
        start..self.ends[row]
    }
}

/// Records parsed by one spec: a column per spec feature, in its order.
#[derive(Clone, Debug, PartialEq)]
pub struct Columns {
    /// The columns.
    pub columns: Vec<Column>,
    /// How many records.
    pub rows: usize,
}

impl Columns {
    /// Empties every column, keeping the buffers.
    pub fn clear(&mut self) {
        for c in &mut self.columns {
            c.values.clear();
            c.ends.clear();
        }
        self.rows = 0;
    }
}

/// Parses records by a spec (one per thread: it keeps a decoder).
pub struct Parser {
    spec: Spec,
    /// Feature name → its place in the spec.
    place: HashMap<Vec<u8>, usize>,
    decoder: Decoder,
}

impl Parser {
    /// A parser of `spec`.
    pub fn new(spec: Spec) -> Parser {
        let place = spec
            .features()
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (name.as_bytes().to_vec(), i))
            .collect();
        Parser {
            spec,
            place,
            decoder: Decoder::default(),
        }
    }

    /// Its spec.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// Empty columns for this spec.
    pub fn columns(&self) -> Columns {
        let columns = self
            .spec
            .features()
            .iter()
            .map(|(_, f)| Column {
                values: Values::empty(f.dtype()),
                ends: Vec::new(),
            })
            .collect();
        Columns { columns, rows: 0 }
    }

    /// Appends the record `payload` (a serialized tf.train.Example) to
    /// `out`; on an error (naming the feature) `out` is as it was.
    pub fn parse(&mut self, payload: &[u8], out: &mut Columns) -> Result<()> {
        let example = self.decoder.example(payload, false)?;
        let mut found: Vec<Option<FeatureView<'_>>> = vec![None; self.spec.features().len()];
        if let Some(features) = example.features() {
            for (key, feature) in features.raw_entries() {
                let Some(&i) = self.place.get(key) else { continue };
                // TensorFlow's parser: for a FixedLen feature a Feature with
                // no kind set is missing, and of several entries the last
                // with a kind wins; for a VarLen one the last entry wins,
                // an empty one making it empty.
                let fixed = matches!(self.spec.features()[i].1, FeatureSpec::Fixed { .. });
                if fixed && feature.kind() == Kind::None {
                    continue;
                }
                found[i] = Some(feature);
            }
        }
        for (i, (name, spec)) in self.spec.features().iter().enumerate() {
            check(name, spec, found[i].as_ref())?;
        }
        for (i, (_, spec)) in self.spec.features().iter().enumerate() {
            let column = &mut out.columns[i];
            match (found[i], spec) {
                (Some(feature), _) => append(&mut column.values, &feature),
                (None, FeatureSpec::Fixed { default: Some(d), .. }) => column.values.extend_from(d),
                (None, _) => {}
            }
            column.ends.push(column.values.len());
        }
        out.rows += 1;
        Ok(())
    }
}

/// Whether `feature` (or its absence) parses by `spec`.
fn check(name: &str, spec: &FeatureSpec, feature: Option<&FeatureView<'_>>) -> Result<()> {
    let dtype = spec.dtype();
    match (feature, spec) {
        (Some(f), FeatureSpec::Var { .. }) if f.kind() == Kind::None => Ok(()),
        (Some(f), _) if f.kind() != dtype.kind() => bail!(
            "feature {name:?}: its values are {} where the spec says {} (TensorFlow: Data types don't match)",
            f.kind().name(),
            dtype.name()
        ),
        (Some(f), FeatureSpec::Fixed { shape, .. }) => {
            let n = f.count() as u64;
            let size = spec.size().unwrap_or(0);
            if n != size {
                bail!(
                    "feature {name:?}: {n} value{} where the spec's shape {} holds {size}",
                    if n == 1 { "" } else { "s" },
                    show_shape(shape)
                );
            }
            Ok(())
        }
        (None, FeatureSpec::Fixed { default: None, .. }) => {
            bail!("feature {name:?} is missing, and the spec gives it no default")
        }
        _ => Ok(()),
    }
}

/// Appends a Feature's values (of `values`' dtype, checked) to `values`.
fn append(values: &mut Values, feature: &FeatureView<'_>) {
    match values {
        Values::Int64(v) => v.extend(feature.int64s()),
        Values::Float32(v) => v.extend(feature.floats()),
        Values::Bytes(v) => v.extend(feature.bytes().map(<[u8]>::to_vec)),
    }
}

//! Decoded values as Python objects: int64 and float32 values as numpy
//! arrays (made from Rust's buffers, writable), byte strings as `bytes`.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use tfr_engine::parse::stored::{Features, Stored};
use tfr_engine::parse::{Column, Columns, FeatureSpec, Spec, Values};

/// `values[range]` as a 1-D array (numbers) or a list of bytes.
pub(crate) fn slice<'py>(
    py: Python<'py>,
    values: &Values,
    range: std::ops::Range<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match values {
        Values::Int64(v) => PyArray1::from_slice(py, &v[range]).into_any(),
        Values::Float32(v) => PyArray1::from_slice(py, &v[range]).into_any(),
        Values::Bytes(v) => PyList::new(py, v[range].iter().map(|b| PyBytes::new(py, b)))?.into_any(),
    })
}

/// The values as a flat Python list (a spec's default).
pub(crate) fn flat_list<'py>(py: Python<'py>, values: &Values) -> PyResult<Bound<'py, PyAny>> {
    Ok(match values {
        Values::Int64(v) => PyList::new(py, v)?.into_any(),
        Values::Float32(v) => PyList::new(py, v)?.into_any(),
        Values::Bytes(v) => PyList::new(py, v.iter().map(|b| PyBytes::new(py, b)))?.into_any(),
    })
}

/// numpy, for the shapes of arrays of byte strings.
fn numpy(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("numpy")
}

/// Values of a Fixed feature of `shape`, with `lead` in front of the
/// shape (a batch's records): a numeric array of that shape; byte strings
/// as one `bytes` (shape `[]`, no lead), a list of `bytes` (shape `[]`
/// under a lead), else a numpy object array of that shape.
fn fixed<'py>(
    py: Python<'py>,
    values: &Values,
    range: std::ops::Range<usize>,
    lead: Option<usize>,
    shape: &[u64],
) -> PyResult<Bound<'py, PyAny>> {
    let mut dims: Vec<usize> = lead.into_iter().collect();
    dims.extend(shape.iter().map(|&d| d as usize));
    match values {
        Values::Int64(v) => Ok(PyArray1::from_slice(py, &v[range]).reshape(dims)?.into_any()),
        Values::Float32(v) => Ok(PyArray1::from_slice(py, &v[range]).reshape(dims)?.into_any()),
        Values::Bytes(v) => {
            if dims.is_empty() {
                return Ok(PyBytes::new(py, v.get(range.start).map_or(&[][..], Vec::as_slice)).into_any());
            }
            let list = PyList::new(py, v[range].iter().map(|b| PyBytes::new(py, b)))?;
            if lead.is_some() && shape.is_empty() {
                return Ok(list.into_any());
            }
            let np = numpy(py)?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("dtype", "object")?;
            let flat = np.call_method("array", (list,), Some(&kwargs))?;
            flat.call_method1("reshape", (dims,))
        }
    }
}

/// One column's values for the records parsed: stacked (Fixed) or a list
/// of each record's (Var).
fn column<'py>(
    py: Python<'py>,
    spec: &FeatureSpec,
    c: &Column,
    rows: usize,
    lead: bool,
) -> PyResult<Bound<'py, PyAny>> {
    match spec {
        FeatureSpec::Fixed { shape, .. } => {
            let lead = lead.then_some(rows);
            fixed(py, &c.values, 0..c.values.len(), lead, shape)
        }
        FeatureSpec::Var { .. } if !lead => slice(py, &c.values, c.row(0)),
        FeatureSpec::Var { .. } => {
            let items: Vec<Bound<'py, PyAny>> = (0..rows)
                .map(|r| slice(py, &c.values, c.row(r)))
                .collect::<PyResult<_>>()?;
            Ok(PyList::new(py, items)?.into_any())
        }
    }
}

/// Parsed records as a dict name → values: one record's (`lead` false:
/// `columns` holds one) or a batch's (stacked under a first dimension).
pub(crate) fn columns<'py>(py: Python<'py>, spec: &Spec, cols: &Columns, lead: bool) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for ((name, f), c) in spec.features().iter().zip(&cols.columns) {
        dict.set_item(name, column(py, f, c, cols.rows, lead)?)?;
    }
    Ok(dict)
}

/// Parsed records one by one: a dict per record.
pub(crate) fn rows<'py>(py: Python<'py>, spec: &Spec, cols: &Columns) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut out = Vec::with_capacity(cols.rows);
    for r in 0..cols.rows {
        let dict = PyDict::new(py);
        for ((name, f), c) in spec.features().iter().zip(&cols.columns) {
            let range = c.row(r);
            let value = match f {
                FeatureSpec::Fixed { shape, .. } => fixed(py, &c.values, range, None, shape)?,
                FeatureSpec::Var { .. } => slice(py, &c.values, range)?,
            };
            dict.set_item(name, value)?;
        }
        out.push(dict.into_any());
    }
    Ok(out)
}

/// Features as stored: a dict name → values (None: no kind set).
fn features<'py>(py: Python<'py>, features: &Features) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, values) in features {
        match values {
            Some(v) => dict.set_item(name, slice(py, v, 0..v.len())?)?,
            None => dict.set_item(name, py.None())?,
        }
    }
    Ok(dict)
}

/// A record as stored: an Example's features, or a SequenceExample's
/// `{"context": {...}, "feature_lists": {name: [values per step]}}`.
pub(crate) fn stored<'py>(py: Python<'py>, record: &Stored) -> PyResult<Bound<'py, PyAny>> {
    match record {
        Stored::Example(f) => Ok(features(py, f)?.into_any()),
        Stored::Sequence { context, feature_lists } => {
            let lists = PyDict::new(py);
            for (name, steps) in feature_lists {
                let items = PyList::empty(py);
                for step in steps {
                    match step {
                        Some(v) => items.append(slice(py, v, 0..v.len())?)?,
                        None => items.append(py.None())?,
                    }
                }
                lists.set_item(name, items)?;
            }
            let dict = PyDict::new(py);
            dict.set_item("context", features(py, context)?)?;
            dict.set_item("feature_lists", lists)?;
            Ok(dict.into_any())
        }
    }
}

//! The reader's arguments from Python: inputs, index, `where`, columns,
//! the parse spec; and tfr's errors as Python exceptions.

use crate::TFRecordError;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use std::ffi::{OsStr, OsString};
use tfr_core::io::Input;
use tfr_engine::parse::{DType, FeatureSpec, Spec, Values};

/// A tfr error as a Python exception: a missing file is
/// `FileNotFoundError`, anything else `TFRecordError`; URL secrets hidden.
pub(crate) fn py_err(e: &tfr_engine::Error) -> PyErr {
    let text = format!("{e:#}");
    let text = tfr_core::io::remote::redact_text(&text).into_owned();
    if e.core_error().is_some_and(|c| c.is_not_found()) {
        return PyFileNotFoundError::new_err(text);
    }
    TFRecordError::new_err(text)
}

/// Whether a name is a pattern (`*`, `?`, `[`, `{`).
fn is_pattern(arg: &OsStr) -> bool {
    arg.as_encoded_bytes()
        .iter()
        .any(|b| matches!(b, b'*' | b'?' | b'[' | b'{'))
}

/// Whether a name is a URL (an object, not a path).
fn is_url(arg: &OsStr) -> bool {
    tfr_core::io::remote::parse(arg.as_encoded_bytes()).is_some()
}

/// The inputs named (files, globs, folders, URLs), as tfr's commands
/// expand them. Standard input, pipes and devices are refused: records
/// are read by number, from files and objects. A name or pattern that
/// finds nothing is `FileNotFoundError`.
pub(crate) fn inputs(paths: &[OsString]) -> PyResult<Vec<Input>> {
    if paths.is_empty() {
        return Err(PyValueError::new_err("TFRecordDataset: no paths given"));
    }
    let mut found = Vec::new();
    for arg in paths {
        let shown = arg.to_string_lossy();
        if arg == "-" {
            return Err(PyValueError::new_err(
                "TFRecordDataset: standard input cannot be read by record number (name files)",
            ));
        }
        let local = !is_url(arg) && !is_pattern(arg);
        if local {
            match std::fs::metadata(arg) {
                Ok(m) if !m.is_file() && !m.is_dir() => {
                    return Err(PyValueError::new_err(format!(
                        "TFRecordDataset: {shown} is not a regular file (records are read by number from files and objects)"
                    )))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(PyFileNotFoundError::new_err(format!("{shown}: no such file")))
                }
                _ => {}
            }
        }
        let one = match tfr_core::io::input::expand(std::slice::from_ref(arg)) {
            Ok(one) => one,
            // A pattern, or a URL, that matched nothing.
            Err(e) if !local && e.io_error().is_none() && e.remote_error().is_none() => {
                return Err(PyFileNotFoundError::new_err(format!("{e:#}")))
            }
            Err(e) => return Err(py_err(&e.into())),
        };
        found.extend(one);
    }
    if found.is_empty() {
        return Err(PyFileNotFoundError::new_err(format!(
            "TFRecordDataset: no files in {}",
            paths.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(found)
}

/// The compression named (`None`: detected).
pub(crate) fn compression(name: Option<&str>) -> PyResult<Option<tfr_core::io::Compression>> {
    use tfr_core::io::Compression;
    Ok(match name.map(str::to_ascii_lowercase).as_deref() {
        None | Some("auto") => None,
        Some("gzip") => Some(Compression::Gzip),
        Some("zlib") => Some(Compression::Zlib),
        Some("none") | Some("") => Some(Compression::None),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "compression={other:?}: one of \"gzip\", \"zlib\", \"none\" (or None: detected)"
            )))
        }
    })
}

/// `where=`: a tfr `--where` expression.
pub(crate) fn filter(text: Option<&str>) -> PyResult<Option<std::sync::Arc<tfr_core::example::Where>>> {
    let Some(text) = text else { return Ok(None) };
    let parsed =
        tfr_core::example::Where::parse(text).map_err(|e| PyValueError::new_err(format!("where={text:?}: {e}")))?;
    Ok(Some(std::sync::Arc::new(parsed)))
}

/// `columns=`: feature names or globs (as `--features`).
pub(crate) type Keep = std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>;

pub(crate) fn keep(columns: Option<Vec<String>>) -> Option<Keep> {
    let patterns = columns?;
    Some(std::sync::Arc::new(move |name: &str| {
        patterns
            .iter()
            .any(|p| tfr_core::io::input::matches(p.as_bytes(), name.as_bytes()))
    }))
}

/// One feature of a spec as python/tfr_cli/dataset.py hands it over:
/// `(name, "fixed" | "var", shape, dtype, default)`; a default is a flat
/// list (or None).
type PyFeature<'py> = (String, String, Vec<u64>, String, Option<Bound<'py, PyAny>>);

/// The spec from Python's normalised form.
pub(crate) fn spec(features: Vec<PyFeature<'_>>) -> PyResult<Spec> {
    let mut out = Vec::with_capacity(features.len());
    for (name, kind, shape, dtype_name, default) in features {
        let Some(dtype) = DType::parse(&dtype_name) else {
            return Err(PyValueError::new_err(format!(
                "spec: feature {name:?}: the dtype {dtype_name:?} is not one TensorFlow parses (int64, float32, string)"
            )));
        };
        let f = match kind.as_str() {
            "var" => FeatureSpec::Var { dtype },
            "fixed" => FeatureSpec::Fixed {
                shape,
                dtype,
                default: default.map(|d| values(&name, dtype, &d)).transpose()?,
            },
            other => return Err(PyValueError::new_err(format!("spec: feature {name:?}: kind {other:?}"))),
        };
        out.push((name, f));
    }
    Spec::new(out).map_err(|e| PyValueError::new_err(format!("{e:#}")))
}

/// A default's values (a flat list) of `dtype`.
fn values(name: &str, dtype: DType, list: &Bound<'_, PyAny>) -> PyResult<Values> {
    let wrong = |e: PyErr| PyValueError::new_err(format!("spec: feature {name:?}: its default: {e}"));
    Ok(match dtype {
        DType::Int64 => Values::Int64(list.extract().map_err(wrong)?),
        DType::Float32 => Values::Float32(list.extract().map_err(wrong)?),
        DType::Bytes => Values::Bytes(list.extract().map_err(wrong)?),
    })
}

/// A spec in Python's normalised form (`spec()` of the reader, for
/// pickling an inferred one).
pub(crate) fn spec_to_py<'py>(py: Python<'py>, spec: &Spec) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let items = pyo3::types::PyList::empty(py);
    for (name, f) in spec.features() {
        let (kind, shape, default) = match f {
            FeatureSpec::Fixed { shape, default, .. } => {
                let default = default.as_ref().map(|d| crate::convert::flat_list(py, d)).transpose()?;
                ("fixed", shape.clone(), default)
            }
            FeatureSpec::Var { .. } => ("var", Vec::new(), None),
        };
        items.append((name, kind, shape, f.dtype().name(), default))?;
    }
    Ok(items)
}

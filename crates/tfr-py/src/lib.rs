//! `tfr_cli._native`: the native part of the Python reader
//! (`tfr_cli.TFRecordDataset`, python/tfr_cli/dataset.py), over tfr's
//! libraries: records by number (`tfr_engine::access`), decoded as stored
//! or by a parse spec (`tfr_engine::parse`) into numpy arrays, `bytes` and
//! lists. Python's lock is released while records are read and decoded;
//! only the Python objects are made under it.

mod convert;
mod options;
mod reader;

use pyo3::prelude::*;

pyo3::create_exception!(
    _native,
    TFRecordError,
    pyo3::exceptions::PyValueError,
    "Damaged records, records a parse spec refuses, and other bad input: the message names the file, the record and its byte offset."
);

/// tfr's warnings (an index file that no longer matches its input, ...)
/// as Python warnings (`UserWarning`), from whichever thread says them.
fn warning(msg: std::fmt::Arguments<'_>) {
    let text = format!("tfr: {msg}");
    // URL secrets hidden, as in the errors.
    let text = tfr_core::io::remote::redact_text(&text).replace('\0', " ");
    let Ok(text) = std::ffi::CString::new(text) else { return };
    Python::attach(|py| {
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        if let Err(e) = PyErr::warn(py, category.as_any(), &text, 1) {
            // A filter turned warnings into errors: raised where the
            // call returns is not possible from here, so it is shown.
            e.print(py);
        }
    });
}

/// The module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    tfr_core::io::set_warnings(warning);
    m.add_class::<reader::Reader>()?;
    m.add("TFRecordError", m.py().get_type::<TFRecordError>())?;
    Ok(())
}

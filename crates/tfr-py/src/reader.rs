//! `tfr_cli._native.Reader`: records by number, decoded. The Python class
//! `tfr_cli.TFRecordDataset` (python/tfr_cli/dataset.py) wraps it with
//! Python's protocols (indexing, slices, iteration, views, pickling).

use crate::convert;
use crate::options::{self, py_err, Keep};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use std::ffi::OsString;
use std::sync::{Arc, Mutex};
use tfr_core::example::{Decoder, MessageType};
use tfr_engine::access::{IndexSource, Options, Records};
use tfr_engine::parse::stored::{self, Stored};
use tfr_engine::parse::{Columns, Parser, Spec};

/// How records are handed over.
enum Decode {
    /// The payload bytes.
    Raw,
    /// Each feature as stored.
    Stored,
    /// By a parse spec.
    Spec(Spec),
}

/// Records read and decoded, before they become Python objects.
enum Decoded {
    Raw(Vec<Vec<u8>>),
    Stored(Vec<Stored>),
    Columns(Columns),
}

/// Records being decoded: the output so far, and the decoder or parser.
enum Acc {
    Raw(Vec<Vec<u8>>),
    Stored(Vec<Stored>, Decoder),
    Columns(Columns, Parser),
}

/// Which records.
#[derive(Clone, Copy)]
enum Which<'a> {
    List(&'a [u64]),
    Range(u64, u64),
}

/// The native reader.
#[pyclass(module = "tfr_cli._native", frozen)]
pub(crate) struct Reader {
    records: Arc<Records>,
    decode: Decode,
    keep: Option<Keep>,
    /// Parsers (spec) and decoders (as stored) for the calls at work.
    parsers: Mutex<Vec<Parser>>,
    decoders: Mutex<Vec<Decoder>>,
}

/// The error of a record that did not decode: it names the input, the
/// record and its byte offset.
fn at(records: &Records, n: u64, e: tfr_engine::Error) -> tfr_engine::Error {
    match records.locate(n) {
        Some(l) => e.context(format!(
            "{}: record {} at byte {}",
            records.name(l.input),
            l.record,
            l.offset
        )),
        None => e,
    }
}

impl Reader {
    /// Reads and decodes `which` (Python's lock released by the caller),
    /// each record decoded straight from the read buffer.
    fn load(&self, which: Which<'_>) -> tfr_engine::Result<Decoded> {
        let mut acc = self.start();
        match which {
            Which::List(list) => {
                let mut buf = Vec::new();
                for &n in list {
                    let at = self.records.read(n, &mut buf)?;
                    self.add(&mut acc, (n, at.input), &buf)?;
                }
            }
            Which::Range(start, end) => {
                self.records.read_range(start, end, &mut |n, at, payload| {
                    self.add(&mut acc, (n, at.input), payload)
                })?;
            }
        }
        Ok(self.finish(acc))
    }

    /// An empty accumulator (with a pooled decoder or parser).
    fn start(&self) -> Acc {
        match &self.decode {
            Decode::Raw => Acc::Raw(Vec::new()),
            Decode::Stored => {
                let decoder = self.decoders.lock().ok().and_then(|mut d| d.pop()).unwrap_or_default();
                Acc::Stored(Vec::new(), decoder)
            }
            Decode::Spec(spec) => {
                let pooled = self.parsers.lock().ok().and_then(|mut p| p.pop());
                let parser = pooled.unwrap_or_else(|| Parser::new(spec.clone()));
                let cols = parser.columns();
                Acc::Columns(cols, parser)
            }
        }
    }

    /// Decodes record `n` (of input `input`) into `acc`.
    fn add(&self, acc: &mut Acc, (n, input): (u64, usize), payload: &[u8]) -> tfr_engine::Result<()> {
        match acc {
            Acc::Raw(all) => all.push(payload.to_vec()),
            Acc::Stored(out, decoder) => {
                let ty = self.records.input_type(input)?;
                let all = |_: &str| true;
                let keep: &dyn Fn(&str) -> bool = self.keep.as_deref().map_or(&all, |k| k);
                out.push(stored::decode(decoder, payload, ty, keep).map_err(|e| at(&self.records, n, e))?);
            }
            Acc::Columns(cols, parser) => {
                let ty = self.records.input_type(input)?;
                if ty != MessageType::Example {
                    return Err(tfr_engine::Error::Invalid(format!(
                        "{}: its records are {}: a parse spec describes tf.train.Example records (spec=None decodes them as stored)",
                        self.records.name(input),
                        type_name(ty)
                    )));
                }
                parser.parse(payload, cols).map_err(|e| at(&self.records, n, e))?;
            }
        }
        Ok(())
    }

    /// The records decoded; the decoder or parser back to the pool.
    fn finish(&self, acc: Acc) -> Decoded {
        match acc {
            Acc::Raw(all) => Decoded::Raw(all),
            Acc::Stored(out, decoder) => {
                if let Ok(mut d) = self.decoders.lock() {
                    d.push(decoder);
                }
                Decoded::Stored(out)
            }
            Acc::Columns(cols, parser) => {
                if let Ok(mut pool) = self.parsers.lock() {
                    pool.push(parser);
                }
                Decoded::Columns(cols)
            }
        }
    }

    /// `which`, one Python object per record.
    fn records_py<'py>(&self, py: Python<'py>, which: Which<'_>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let decoded = py.detach(|| self.load(which)).map_err(|e| py_err(&e))?;
        match (decoded, &self.decode) {
            (Decoded::Raw(all), _) => Ok(all.iter().map(|p| PyBytes::new(py, p).into_any()).collect()),
            (Decoded::Stored(all), _) => all.iter().map(|r| convert::stored(py, r)).collect(),
            (Decoded::Columns(cols), Decode::Spec(spec)) => convert::rows(py, spec, &cols),
            (Decoded::Columns(_), _) => Err(PyValueError::new_err("no spec")),
        }
    }

    /// Checks that `n` is a record's number.
    fn check(&self, n: u64) -> PyResult<()> {
        if n >= self.records.len() {
            return Err(PyIndexError::new_err(format!(
                "record {n} is past the last ({} records)",
                self.records.len()
            )));
        }
        Ok(())
    }

    /// `which` as a batch: a dict name → stacked values (a spec), else
    /// the list of records.
    fn batch_py<'py>(&self, py: Python<'py>, which: Which<'_>) -> PyResult<Bound<'py, PyAny>> {
        let Decode::Spec(spec) = &self.decode else {
            return Ok(PyList::new(py, self.records_py(py, which)?)?.into_any());
        };
        match py.detach(|| self.load(which)).map_err(|e| py_err(&e))? {
            Decoded::Columns(cols) => Ok(convert::columns(py, spec, &cols, true)?.into_any()),
            _ => Err(PyValueError::new_err("no columns")),
        }
    }

    /// The range `start..stop`, checked.
    fn range_of(&self, start: u64, stop: u64) -> PyResult<Which<'static>> {
        let stop = stop.min(self.records.len());
        if start > stop {
            return Err(PyIndexError::new_err(format!("range {start}..{stop}")));
        }
        Ok(Which::Range(start, stop))
    }
}

/// The options of `Records::open` from the reader's arguments.
fn open_options(
    index: Option<OsString>,
    walk: bool,
    compression: Option<&str>,
    filter_text: Option<&str>,
) -> PyResult<Options> {
    let mut opts = Options::default();
    opts.open.compression = options::compression(compression)?;
    opts.index = match (walk, index) {
        (true, _) => IndexSource::Build,
        (false, None) => IndexSource::Auto,
        (false, Some(dir)) => IndexSource::Dir(dir.into()),
    };
    opts.filter = options::filter(filter_text)?;
    Ok(opts)
}

/// A payload type as errors name it.
fn type_name(ty: MessageType) -> &'static str {
    match ty {
        MessageType::SequenceExample => "tf.train.SequenceExample",
        MessageType::Example => "tf.train.Example",
        MessageType::Elwc => "ExampleListWithContext",
        _ => "not Examples",
    }
}

/// The spec `tfr schema --format tf` infers from the inputs.
fn infer(inputs: &[tfr_core::io::Input], opts: &Options, keep: Option<&Keep>) -> tfr_engine::Result<Spec> {
    let scan_opts = tfr_engine::schema::Options {
        open: opts.open,
        ty: None,
        limit: None,
        workers: opts.jobs.max(1),
        keep: keep.map(|k| tfr_engine::schema::KeepShared(k.clone())),
        deep: false,
        light: false,
        filter: opts.filter.clone(),
        annotate: None,
    };
    let (scan, error) = tfr_engine::schema::scan(inputs, &scan_opts, &|_, _| {});
    if let Some(e) = error {
        return Err(e.context("spec=\"auto\": the scan stopped"));
    }
    Spec::infer(&scan)
}

#[pymethods]
impl Reader {
    #[new]
    #[pyo3(signature = (paths, *, index=None, walk=false, columns=None, filter=None, spec=None, raw=false, compression=None, exported=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        paths: Vec<OsString>,
        index: Option<OsString>,
        walk: bool,
        columns: Option<Vec<String>>,
        filter: Option<String>,
        spec: Option<Bound<'_, PyAny>>,
        raw: bool,
        compression: Option<String>,
        exported: Option<Vec<u8>>,
    ) -> PyResult<Reader> {
        let inputs = py.detach(|| options::inputs(&paths))?;
        let opts = open_options(index, walk, compression.as_deref(), filter.as_deref())?;
        if raw && (columns.is_some() || spec.is_some()) {
            return Err(PyValueError::new_err(
                "raw=True gives whole payloads: columns= and spec= do not apply",
            ));
        }
        let keep = options::keep(columns);
        let auto = spec.as_ref().and_then(|s| s.extract::<String>().ok());
        let decode = match (raw, auto.as_deref(), spec) {
            (true, _, _) => Decode::Raw,
            (_, Some("auto"), _) => {
                let found = py
                    .detach(|| infer(&inputs, &opts, keep.as_ref()))
                    .map_err(|e| py_err(&e))?;
                Decode::Spec(found)
            }
            (_, Some(other), _) => {
                return Err(PyValueError::new_err(format!(
                    "spec={other:?}: \"auto\", a dict of features, or None"
                )))
            }
            (_, None, Some(list)) => {
                let mut given = options::spec(list.extract()?)?;
                if let Some(k) = &keep {
                    given.retain(|name| k(name));
                    if given.is_empty() {
                        return Err(PyValueError::new_err("columns= keeps none of the spec's features"));
                    }
                }
                Decode::Spec(given)
            }
            (_, None, None) => Decode::Stored,
        };
        let records = py
            .detach(|| match exported {
                Some(bytes) => Records::open_with_index(inputs, opts, &bytes),
                None => Records::open(inputs, opts),
            })
            .map_err(|e| py_err(&e))?;
        Ok(Reader {
            records: Arc::new(records),
            decode,
            keep,
            parsers: Mutex::new(Vec::new()),
            decoders: Mutex::new(Vec::new()),
        })
    }

    fn __len__(&self) -> usize {
        self.records.len() as usize
    }

    /// Record `n` (0 ≤ n < len).
    fn get<'py>(&self, py: Python<'py>, n: u64) -> PyResult<Bound<'py, PyAny>> {
        self.check(n)?;
        let mut one = self.records_py(py, Which::List(&[n]))?;
        one.pop().ok_or_else(|| PyValueError::new_err("no record"))
    }

    /// The records numbered in `list`, in its order.
    fn get_many<'py>(&self, py: Python<'py>, list: Vec<u64>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        for &n in &list {
            self.check(n)?;
        }
        self.records_py(py, Which::List(&list))
    }

    /// Records `start..stop` (read in order).
    fn range<'py>(&self, py: Python<'py>, start: u64, stop: u64) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let which = self.range_of(start, stop)?;
        self.records_py(py, which)
    }

    /// The records numbered in `list` as one batch (a spec: a dict of
    /// stacked values; else a list of records).
    fn batch<'py>(&self, py: Python<'py>, list: Vec<u64>) -> PyResult<Bound<'py, PyAny>> {
        for &n in &list {
            self.check(n)?;
        }
        self.batch_py(py, Which::List(&list))
    }

    /// Records `start..stop` as one batch.
    fn batch_range<'py>(&self, py: Python<'py>, start: u64, stop: u64) -> PyResult<Bound<'py, PyAny>> {
        let which = self.range_of(start, stop)?;
        self.batch_py(py, which)
    }

    /// The parse spec in use (`None`: as stored or raw), in the form
    /// `spec=` takes it normalised.
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        match &self.decode {
            Decode::Spec(spec) => Ok(Some(options::spec_to_py(py, spec)?)),
            _ => Ok(None),
        }
    }

    /// The payload type of input `input` (by its first record):
    /// "example", "sequence_example", "elwc" or "raw".
    #[pyo3(signature = (input=0))]
    fn message_type(&self, py: Python<'_>, input: usize) -> PyResult<&'static str> {
        let inputs = self.records.inputs().len();
        if input >= inputs {
            return Err(PyIndexError::new_err(format!("input {input}: there are {inputs}")));
        }
        let ty = py.detach(|| self.records.input_type(input)).map_err(|e| py_err(&e))?;
        Ok(match ty {
            MessageType::SequenceExample => "sequence_example",
            MessageType::Example => "example",
            MessageType::Elwc => "elwc",
            _ => "raw",
        })
    }

    /// Where record `n` is: (input name, number in its input, byte offset).
    fn locate(&self, n: u64) -> PyResult<(String, u64, u64)> {
        self.check(n)?;
        let l = self.records.locate(n).ok_or_else(|| PyIndexError::new_err(n))?;
        Ok((self.records.name(l.input).to_string(), l.record, l.offset))
    }

    /// Writes NAME.idx files; the paths written.
    #[pyo3(signature = (folder=None))]
    fn save_index(&self, py: Python<'_>, folder: Option<String>) -> PyResult<Vec<String>> {
        let records = &self.records;
        py.detach(|| records.save_index(folder.as_deref().map(std::path::Path::new)))
            .map_err(|e| py_err(&e))
    }

    /// The index as bytes (for `exported=` in another process).
    fn export_index<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| self.records.export_index());
        PyBytes::new(py, &bytes)
    }
}

//! Records as CSV rows, one per record, a header of feature names first
//! (`tfr to-csv`).
//!
//! The columns come from a schema document (`tfr schema -f json`, or the
//! scan the command makes first): [`columns_of`]. A feature with at most
//! one value in every record is a plain column; one with more is a JSON
//! array in its cell ([`Lists::Json`]) or left out ([`Lists::Omit`]).
//! Cells: int64 as decimal, float32 as the JSONL mapping writes it
//! (shortest digits, `NaN`, `Infinity`), bytes as text when UTF-8, else
//! `{"base64":"..."}`; a missing feature is an empty cell, an empty list
//! `[]`. SequenceExamples: their context features (feature lists are left
//! out). Quoting is RFC 4180's (a field holding a comma, a quote or a line
//! break is quoted, quotes doubled); lines end with `\n`. `safe` puts a
//! `'` before a text cell (or feature name) that a spreadsheet would take
//! for a formula ([`write_text`]).
//!
//! The rows are made on the workers, a batch at a time, and written in
//! record order ([`batches::run`]) by [`write`].

use crate::error::{bail, Context, Result};
use crate::example::filter::features_or_context;
use crate::example::json::render::{feature_json, float_text};
use crate::example::{Decoder, FeatureView, FeaturesView, Kind, MessageType};
use crate::io::Input;
use crate::pipeline::batches::{self, decode_error, Reading, Record, Work};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// `--lists`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lists {
    /// A JSON array in the cell (the JSONL mapping of the feature).
    Json,
    /// Left out (one note on stderr names them).
    Omit,
}

/// every record.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The feature.
    pub name: String,
    /// Whether it has at most one value in every record.
    pub scalar: bool,
}

/// The columns a schema document (`tfr schema -f json`) gives: its
/// features (a SequenceExample's context), in its order; the payload type
/// it names; the feature lists it holds (left out).
pub fn columns_of(doc: &serde_json::Value) -> Result<(Option<MessageType>, Vec<Column>, usize)> {
    let obj = doc.as_object().context("not a JSON object")?;
    let ty = match obj.get("type").and_then(|t| t.as_str()) {
        Some("example") => Some(MessageType::Example),
        Some("sequence") | Some("sequence_example") => Some(MessageType::SequenceExample),
        Some(other) => bail!("the schema is of {other} records: to-csv writes Examples and SequenceExamples"),
        None => None,
    };
    let section = match ty {
        Some(MessageType::SequenceExample) => "context",
        _ => "features",
    };
    let mut columns = Vec::new();
    if let Some(features) = obj.get(section) {
        let features = features
            .as_object()
            .with_context(|| format!("\"{section}\" is not an object"))?;
        for (name, info) in features {
            let max = info.pointer("/values/max").and_then(|m| m.as_u64());
            columns.push(Column {
                name: name.clone(),
                scalar: max.is_some_and(|m| m <= 1),
            });
        }
    } else if !obj.contains_key("feature_lists") {
        bail!("no \"features\" (is it the JSON of `tfr schema -f json`?)");
    }
    let lists = obj
        .get("feature_lists")
        .and_then(|l| l.as_object())
        .map_or(0, |l| l.len());
    Ok((ty, columns, lists))
}

/// The error for a scan's document with features past its tracking limit
/// (they would have no column): `None` when every feature was tracked.
pub fn untracked(doc: &serde_json::Value, max_features: usize) -> Option<crate::Error> {
    for section in ["features", "context"] {
        if let Some(u) = doc.pointer(&format!("/untracked/{section}")) {
            let count = u.get("count").and_then(|c| c.as_u64()).unwrap_or(0);
            let at_least = if u.get("lower_bound").and_then(|b| b.as_bool()) == Some(true) {
                "at least "
            } else {
                ""
            };
            return Some(crate::error::err!(
                "the schema pass tracks at most {max_features} features: {at_least}{count} more would have no column; choose the columns with --features, or give --schema FILE"
            ));
        }
    }
    None
}

/// The columns kept of `all` (`keep` takes a name; [`Lists::Omit`] leaves
/// out the features with more than one value), and the names left out so.
pub fn choose(all: Vec<Column>, keep: impl Fn(&str) -> bool, lists: Lists) -> (Vec<Column>, Vec<String>) {
    let mut columns = Vec::new();
    let mut omitted = Vec::new();
    for c in all {
        if !keep(&c.name) {
            continue;
        }
        match (c.scalar, lists) {
            (false, Lists::Omit) => omitted.push(c.name),
            _ => columns.push(c),
        }
    }
    (columns, omitted)
}

/// What [`write`] wrote.
pub struct Written {
    /// Rows (records) written.
    pub records: u64,
    /// Rows with a feature in a column.
    pub with_cells: u64,
}

/// What [`write`] writes.
pub struct Table<'a> {
    /// The columns, in order.
    pub columns: &'a [Column],
    /// `--safe-spreadsheet`: a `'` before a text cell a spreadsheet would
    /// take for a formula.
    pub safe: bool,
}

/// Writes the header and a row per record of `inputs` (read as `how`
/// says, on `workers` threads) to `out`, flushing it when the workers are
/// idle if `flush_idle` (stdout), and at the end; `update` is told the
/// bytes and records read.
pub fn write(
    inputs: &[Input],
    how: &Reading<'_>,
    workers: usize,
    table: &Table<'_>,
    out: &mut (dyn Write + Send),
    flush_idle: bool,
    update: &(dyn Fn(u64, u64) + Sync),
) -> Result<Written> {
    let (columns, safe) = (table.columns, table.safe);
    let index: HashMap<&str, usize> = columns.iter().enumerate().map(|(i, c)| (c.name.as_str(), i)).collect();
    let rows = Rows {
        columns,
        index: &index,
        safe,
        records: AtomicU64::new(0),
        with_cells: AtomicU64::new(0),
    };
    if !columns.is_empty() {
        let mut header = csv::WriterBuilder::new().from_writer(Vec::new());
        header
            .write_record(columns.iter().map(|c| {
                let mut name = Vec::new();
                write_text(c.name.as_bytes(), safe, &mut name);
                name
            }))
            .context("writing the header")?;
        out.write_all(&header.into_inner().map_err(|e| crate::error::err!("{}", e.error()))?)
            .context("writing output")?;
    }
    let write = |bytes: &Vec<u8>| match bytes.is_empty() {
        true if flush_idle => out.flush(),
        _ => out.write_all(bytes),
    };
    let (_, result) = batches::run(inputs, how, workers, &rows, write, update);
    let flushed = out.flush().context("writing output");
    result?;
    flushed?;
    Ok(Written {
        records: rows.records.into_inner(),
        with_cells: rows.with_cells.into_inner(),
    })
}

/// The workers' side: each record of a batch as one CSV row.
struct Rows<'a> {
    columns: &'a [Column],
    index: &'a HashMap<&'a str, usize>,
    /// `--safe-spreadsheet`.
    safe: bool,
    /// Rows written, and those with a feature in a column.
    records: AtomicU64,
    with_cells: AtomicU64,
}

impl Work for Rows<'_> {
    type Out = Vec<u8>;

    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut Vec<u8>) -> Result<()> {
        let mut writer = csv::WriterBuilder::new().from_writer(std::mem::take(out));
        let mut cell = Vec::new();
        let done = self.row(decoder, record, &mut writer, &mut cell);
        *out = writer.into_inner().map_err(|e| crate::error::err!("{}", e.error()))?;
        done
    }

    fn batch(&self, batch: &batches::Batch<Vec<u8>>, out: &mut Vec<u8>) -> Result<()> {
        let mut writer = csv::WriterBuilder::new().from_writer(std::mem::take(out));
        let mut cell = Vec::new();
        let done = crate::example::with_decoder(|decoder| {
            for record in batch.records() {
                self.row(decoder, &record, &mut writer, &mut cell)?;
            }
            Ok(())
        });
        *out = writer.into_inner().map_err(|e| crate::error::err!("{}", e.error()))?;
        done
    }
}

impl Rows<'_> {
    /// One record's row.
    fn row(
        &self,
        decoder: &mut Decoder,
        record: &Record<'_>,
        writer: &mut csv::Writer<Vec<u8>>,
        cell: &mut Vec<u8>,
    ) -> Result<()> {
        let Some(features) = features_or_context(decoder, record.ty, record.strict, record.payload) else {
            bail!(
                "{}: the records are {}: to-csv writes the features of Examples and SequenceExamples",
                record.name,
                record.ty.name()
            )
        };
        let features: Option<FeaturesView<'_>> =
            features.map_err(|e| decode_error(record.name, record.index, record.offset, e))?;
        let mut cells: Vec<Option<FeatureView<'_>>> = (0..self.columns.len()).map(|_| None).collect();
        // The last entry of a name wins, as protobuf reads a map.
        let mut any = false;
        for (name, value) in features.iter().flat_map(|f| f.entries()) {
            if let Some(&i) = self.index.get(name) {
                cells[i] = Some(value);
                any = true;
            }
        }
        self.records.fetch_add(1, Ordering::Relaxed);
        if any {
            self.with_cells.fetch_add(1, Ordering::Relaxed);
        }
        if self.columns.is_empty() {
            // Read (damage is still found), not written: see run().
            return Ok(());
        }
        let csv_error = |e: csv::Error| crate::error::err!("writing CSV: {e}");
        for (column, value) in self.columns.iter().zip(cells.iter()) {
            cell.clear();
            if let Some(v) = value {
                write_cell(v, column.scalar, self.safe, cell);
            }
            writer.write_field(&cell[..]).map_err(csv_error)?;
        }
        writer.write_record(None::<&[u8]>).map_err(csv_error)?;
        Ok(())
    }
}

/// The first characters that make a spreadsheet read a cell as a formula
/// (`=`, `+`, `-`, `@`) or that it passes over before one (tab, carriage
/// return, NUL): the ones OWASP's CSV-injection advice and ASVS 1.2.10
/// name.
const FORMULA_START: &[u8] = b"=+-@\t\r\0";

/// A text cell (a bytes value, a feature name) as it is, or with `safe`
/// (`--safe-spreadsheet`), behind a `'` when it begins as a formula does.
fn write_text(text: &[u8], safe: bool, out: &mut Vec<u8>) {
    if safe && text.first().is_some_and(|b| FORMULA_START.contains(b)) {
        out.push(b'\'');
    }
    out.extend_from_slice(text);
}

/// One feature's cell: its one value as it is (in a column of at most one
/// value per record; text behind a `'` where `safe` says, see
/// [`write_text`]), else the JSONL mapping of the list (`[]` when empty).
fn write_cell(v: &FeatureView<'_>, scalar: bool, safe: bool, out: &mut Vec<u8>) {
    let n = match v.kind() {
        Kind::None => return,
        Kind::Int64 => v.int64s().take(2).count(),
        Kind::Float => v.floats().take(2).count(),
        Kind::Bytes => v.bytes().take(2).count(),
    };
    if n == 0 {
        out.extend_from_slice(b"[]");
        return;
    }
    if !(scalar && n == 1) {
        feature_json(v, out);
        return;
    }
    match v.kind() {
        Kind::Int64 => {
            let x = v.int64s().next().unwrap_or_default();
            out.extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
        }
        Kind::Float => float_text(v.floats().next().unwrap_or_default(), out),
        Kind::Bytes => {
            let b = v.bytes().next().unwrap_or_default();
            if std::str::from_utf8(b).is_ok() {
                write_text(b, safe, out);
            } else {
                // The JSONL mapping's form of a value that is not UTF-8.
                feature_json(v, out);
                // `[{"base64":"..."}]` → `{"base64":"..."}`
                out.pop();
                out.remove(0);
            }
        }
        Kind::None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_come_from_the_schema_json() {
        let doc: serde_json::Value = serde_json::from_str(
            r#"{"type": "example", "features": {"a": {"kind": "int64", "values": {"max": 1}},
                "b": {"kind": "float", "values": {"max": 3}}, "c": {"kind": "bytes", "values": {"max": 0}}}}"#,
        )
        .unwrap();
        let (ty, columns, lists) = columns_of(&doc).unwrap();
        assert_eq!(ty, Some(MessageType::Example));
        assert_eq!(lists, 0);
        let got: Vec<(&str, bool)> = columns.iter().map(|c| (c.name.as_str(), c.scalar)).collect();
        assert_eq!(got, [("a", true), ("b", false), ("c", true)]);
        let seq: serde_json::Value = serde_json::from_str(
            r#"{"type": "sequence", "context": {"id": {"values": {"max": 1}}}, "feature_lists": {"f": {}}}"#,
        )
        .unwrap();
        let (ty, columns, lists) = columns_of(&seq).unwrap();
        assert_eq!((ty, columns.len(), lists), (Some(MessageType::SequenceExample), 1, 1));
        assert!(columns_of(&serde_json::json!({"type": "raw"})).is_err());
        assert!(columns_of(&serde_json::json!([1])).is_err());
    }
}

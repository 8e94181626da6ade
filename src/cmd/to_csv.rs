//! `tfr to-csv`: records as CSV rows, one per record, a header of feature
//! names first.
//!
//! The columns come from a schema: a pass over the inputs first
//! ([`schema::scan`], the scan of `tfr schema`), or `--schema FILE` (the
//! JSON `tfr schema -f json` writes), which skips it. A feature with at
//! most one value in every record is a plain column; one with more is a
//! JSON array in its cell (`--lists json`, the default) or left out with
//! a note (`--lists omit`). Cells: int64 as decimal, float32 as the JSONL
//! mapping writes it (shortest digits, `NaN`, `Infinity`), bytes as text
//! when UTF-8, else `{"base64":"..."}`; a missing feature is an empty
//! cell, an empty list `[]`. SequenceExamples: their context features
//! (feature lists are left out, with a note). Quoting is RFC 4180's (a
//! field holding a comma, a quote or a line break is quoted, quotes
//! doubled); lines end with `\n`. `--safe-spreadsheet` puts a `'` before
//! a text cell (or feature name) that a spreadsheet would take for a
//! formula ([`write_text`]).
//!
//! The rows are made on the workers, a batch at a time, and written in
//! record order ([`batches::run`]), to stdout or through an
//! [`AtomicOutput`] (`-o`).

use crate::args::{AuxSizeArg, FeatureArgs, InputArgs, JobsArg, PayloadType, RangeArgs};
use crate::example::json::render::{feature_json, float_text};
use crate::example::{Decoder, FeatureView, FeaturesView, Kind, MessageType};
use crate::exit::Exit;
use crate::io::{AtomicOutput, Compression, Input};
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches::{self, decode_error, Record, Types, Work};
use crate::schema;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Args, Debug, Clone)]
pub(crate) struct ToCsvArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Payload type (all inputs are one dataset: its first record decides).
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// Write to OUT (through a temporary file renamed on success) instead
    /// of stdout.
    #[arg(short = 'o', long, value_name = "OUT")]
    pub(crate) output: Option<PathBuf>,

    /// The columns from this schema (the JSON of `tfr schema -f json`)
    /// instead of a first pass over the inputs (needed for stdin).
    /// Features of the records that it does not name are left out.
    #[arg(long, short = 's', value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    /// Features with more than one value in some record: a JSON array in
    /// the cell (json), or left out with a note (omit).
    #[arg(long, value_enum, default_value_t = Lists::Json, value_name = "HOW")]
    pub(crate) lists: Lists,

    /// For a spreadsheet: a text cell or feature name that begins with
    /// '=', '+', '-', '@', a tab, a carriage return or a NUL (which a
    /// spreadsheet reads as a formula: `=HYPERLINK(...)` makes a link
    /// that sends data away, `=cmd|...` can start a program) gets a leading
    /// "'", so it is shown as text. Numbers (int64 and float cells, `-3`,
    /// `-Infinity`) are left as they are; JSON cells begin with '[' or '{'.
    #[arg(long)]
    pub(crate) safe_spreadsheet: bool,

    #[command(flatten)]
    pub(crate) select: FeatureArgs,

    #[command(flatten)]
    pub(crate) range: RangeArgs,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) aux: AuxSizeArg,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// `--lists`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Lists {
    /// A JSON array in the cell (the JSONL mapping of the feature).
    Json,
    /// Left out (one note on stderr names them).
    Omit,
}

/// One column: a feature name, and whether it has at most one value in
/// every record.
#[derive(Clone, Debug, PartialEq)]
struct Column {
    name: String,
    scalar: bool,
}

/// The columns a schema document (`tfr schema -f json`) gives: its
/// features (a SequenceExample's context), in its order; the payload type
/// it names; the feature lists it holds (left out).
fn columns_of(doc: &serde_json::Value) -> Result<(Option<MessageType>, Vec<Column>, usize)> {
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

pub(crate) fn run(args: &ToCsvArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    let aux: Vec<&std::path::Path> = args.schema.iter().map(|p| p.as_path()).collect();
    if let Some(out) = &args.output {
        crate::io::same_file::refuse_input_as_output(&inputs, &aux, out, "-o")?;
    }
    let fixed = args.payload.fixed();
    if let Some(t @ (MessageType::Raw | MessageType::Elwc)) = fixed {
        bail!(
            "--type {}: to-csv writes the features of Examples and SequenceExamples",
            t.name()
        );
    }
    let projection = args.select.projection();
    let keep = |key: &str| projection.as_ref().is_none_or(|p| p.keeps(key));
    // The columns: from --schema, or a first pass. A first pass that
    // stopped at damage gives the columns of the records before it (and
    // the rows are theirs, then the same error, as to-jsonl gives).
    let (doc, stopped) = match &args.schema {
        Some(path) => {
            let bytes = args.aux.read(path)?;
            let doc = serde_json::from_slice::<serde_json::Value>(&bytes)
                .with_context(|| format!("--schema {}: not JSON", crate::io::input::show_path(path)))?;
            (doc, None)
        }
        None => {
            if inputs.iter().any(|i| matches!(i, Input::Stdin)) {
                bail!("to-csv reads its inputs twice (the columns from a first pass): stdin cannot be; give --schema FILE (from `tfr schema -f json`)");
            }
            // With -n (and no --sample) the rows are the first skip + n
            // records (matches, with --where): the columns are theirs, and
            // the pass stops there, as the writing pass does.
            let limit = match args.range.sample {
                None => args.range.limit.map(|n| n.saturating_add(args.range.skip)),
                Some(_) => None,
            };
            let opts = schema::Options {
                open: args.input.options(),
                ty: fixed,
                limit,
                workers: pipeline::workers(args.jobs.get()),
                // The columns chosen by --features are the ones tracked.
                keep: args
                    .select
                    .projection()
                    .map(|p| schema::KeepShared(std::sync::Arc::new(move |key: &str| p.keeps(key)))),
                deep: false,
                light: false,
                filter: args.filter.get().cloned().map(std::sync::Arc::new),
            };
            let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(&inputs));
            let progress = |bytes, records| bar.update(bytes, records);
            let (scan, error) = schema::scan(&inputs, &opts, &progress);
            bar.finish();
            let stopped = match error {
                Some(e) if scan.stats.records <= args.range.skip => return Err(e),
                Some(e) => Some((e, scan.stats.records)),
                None => None,
            };
            let doc = schema::json::to_json(&scan);
            // Features past the scan's tracking limit have no column: an
            // error rather than a CSV that silently lacks them.
            for section in ["features", "context"] {
                if let Some(u) = doc.pointer(&format!("/untracked/{section}")) {
                    let count = u.get("count").and_then(|c| c.as_u64()).unwrap_or(0);
                    let at_least = if u.get("lower_bound").and_then(|b| b.as_bool()) == Some(true) {
                        "at least "
                    } else {
                        ""
                    };
                    bail!(
                        "the schema pass tracks at most {} features: {at_least}{count} more would have no column; choose the columns with --features, or give --schema FILE",
                        schema::stats::MAX_FEATURES
                    );
                }
            }
            (doc, stopped)
        }
    };
    let (schema_ty, all, lists) = columns_of(&doc).with_context(|| match &args.schema {
        Some(p) => format!("--schema {}", crate::io::input::show_path(p)),
        None => "the schema pass".to_string(),
    })?;
    let mut columns = Vec::new();
    let mut omitted = Vec::new();
    for c in all {
        if !keep(&c.name) {
            continue;
        }
        match (c.scalar, args.lists) {
            (false, Lists::Omit) => omitted.push(c.name),
            _ => columns.push(c),
        }
    }
    if !omitted.is_empty() {
        output::error_line(format_args!(
            "warning: {} feature(s) with more than one value left out (--lists omit): {}",
            omitted.len(),
            crate::io::input::escape_name(omitted.join(", ").as_bytes())
        ));
    }
    if lists > 0 {
        output::error_line(format_args!(
            "warning: the {lists} feature list(s) of the SequenceExamples are left out: CSV holds their context features"
        ));
    }
    let index: HashMap<&str, usize> = columns.iter().enumerate().map(|(i, c)| (c.name.as_str(), i)).collect();
    let rows = Rows {
        columns: &columns,
        index: &index,
        safe: args.safe_spreadsheet,
        records: AtomicU64::new(0),
        with_cells: AtomicU64::new(0),
    };
    // No column: CSV has no line for a row of no cells (the csv crate
    // writes `""`, a cell with an empty name or value), so nothing is
    // written.
    if columns.is_empty() {
        output::error_line(format_args!(
            "warning: no columns (no feature in the records{}): nothing is written",
            if args.schema.is_some() {
                " of --schema"
            } else {
                " read, or none kept"
            }
        ));
    }
    let mut atomic = match &args.output {
        Some(path) if path.as_os_str() != "-" => Some(AtomicOutput::create(path, Compression::None)?),
        _ => None,
    };
    let jobs = args.jobs.get();
    let progress = ctx.progress(None);
    {
        let flush_idle = atomic.is_none();
        let mut stdout;
        let out: &mut (dyn Write + Send) = match &mut atomic {
            Some(a) => a,
            None => {
                stdout = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout());
                &mut stdout
            }
        };
        if !columns.is_empty() {
            let mut header = csv::WriterBuilder::new().from_writer(Vec::new());
            header
                .write_record(columns.iter().map(|c| {
                    let mut name = Vec::new();
                    write_text(c.name.as_bytes(), args.safe_spreadsheet, &mut name);
                    name
                }))
                .context("writing the header")?;
            out.write_all(&header.into_inner().map_err(|e| anyhow::anyhow!("{}", e.error()))?)
                .context("writing output")?;
        }
        let write = |bytes: &Vec<u8>| match bytes.is_empty() {
            true if flush_idle => out.flush(),
            _ => out.write_all(bytes),
        };
        let open = args.input.options();
        let update = |bytes, records| progress.update(bytes, records);
        let mut how = args.range.reading(&open, fixed, jobs);
        how.types = Types::given(fixed.or(schema_ty), Types::Dataset);
        how.filter = args.filter.get();
        if let Some((_, records)) = &stopped {
            let before = records - args.range.skip;
            how.range.limit = Some(how.range.limit.map_or(before, |n| n.min(before)));
        }
        let (_, result) = batches::run(&inputs, &how, pipeline::workers(jobs), &rows, write, &update);
        let flushed = out.flush().context("writing output");
        result?;
        flushed?;
    }
    let records = rows.records.into_inner();
    if let Some(path) = args
        .schema
        .as_ref()
        .filter(|_| records > 0 && rows.with_cells.into_inner() == 0)
    {
        if !columns.is_empty() {
            output::error_line(format_args!(
                "warning: --schema {}: none of its {} column(s) is a feature of the {records} record(s) written: every cell is empty",
                crate::io::input::show_path(path),
                columns.len()
            ));
        }
    }
    if let Some((e, _)) = stopped {
        // The rows before the damage are out (on stdout); a file is not kept.
        return Err(e);
    }
    if let Some(a) = atomic {
        a.commit()?;
    }
    if let Some(p) = &projection {
        for warning in p.unmatched() {
            output::error_line(format_args!("{warning}"));
        }
    }
    Ok(Exit::Success)
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
        *out = writer.into_inner().map_err(|e| anyhow::anyhow!("{}", e.error()))?;
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
        *out = writer.into_inner().map_err(|e| anyhow::anyhow!("{}", e.error()))?;
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
        let features: Option<FeaturesView<'_>> = match record.ty {
            MessageType::Example => decoder.example(record.payload, record.strict).map(|e| e.features()),
            MessageType::SequenceExample => decoder
                .sequence_example(record.payload, record.strict)
                .map(|s| s.context()),
            other => bail!(
                "{}: the records are {}: to-csv writes the features of Examples and SequenceExamples",
                record.name,
                other.name()
            ),
        }
        .map_err(|e| decode_error(record.name, record.index, record.offset, e))?;
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
        let csv_error = |e: csv::Error| anyhow::anyhow!("writing CSV: {e}");
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

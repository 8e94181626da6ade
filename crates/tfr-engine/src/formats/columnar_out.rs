//! Records as Arrow columns, written out (`tfr to-parquet`, `tfr
//! to-arrow`): which columns ([`Columns::plan`]: from a schema document,
//! or a scan of the inputs, or a guess from the first records), how the
//! write pass reads the records, and the Parquet files cut by rows
//! (`ParquetFiles`).
//!
//! The column types come from a schema ([`columnar::Plan`]). The one
//! reader of records hands batches to the workers, which build one Arrow
//! record batch each ([`columnar::build::Convert`]); one thread encodes
//! them into the current file's row group (parquet's `ArrowWriter`).
//! Files go through an [`OutputSet`]: all appear at the end, or none.

use crate::columnar::{self, build::Convert, build::Rows, Plan};
use crate::error::{bail, err, Context, Result};
use crate::example::{MessageType, Where};
use crate::io::{Compression, Input, OutputSet};
use crate::pipeline;
use crate::pipeline::batches::{self, Range, Reading, Types};
use crate::record::OpenOptions;
use crate::schema;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `--features` / `--exclude`: which features have a column, noting the
/// patterns that matched nothing.
pub trait Select: Send + Sync {
    /// Whether the feature `name` is kept.
    fn keeps(&self, name: &str) -> bool;
    /// Of `name`, whether it is included (by a `--features` pattern, or
    /// because none was given) and whether an `--exclude` pattern matches
    /// it: for a tree of features, whose leaf is kept when a name on its
    /// path is included and none is excluded.
    fn verdict(&self, name: &str) -> (bool, bool);
    /// A warning line per pattern that matched no feature.
    fn unmatched(&self) -> Vec<String>;
}

/// A progress display for a scan of the inputs: made with their total
/// size (when known), told the bytes and records read; dropped at its end.
pub type Progress<'a> = &'a dyn Fn(Option<u64>) -> Box<dyn Fn(u64, u64) + Sync + 'a>;

/// What to-parquet and to-arrow share: which records, which features,
/// which schema.
pub struct Columns<'a> {
    /// `--type`: an Example or a SequenceExample (`None`: auto).
    pub ty: Option<MessageType>,
    /// `--schema`: its name (as shown) and its bytes.
    pub schema: Option<(String, Vec<u8>)>,
    /// `--features` / `--exclude` (`None`: every feature).
    pub select: Option<Arc<dyn Select>>,
    /// `--where`.
    pub filter: Option<&'a Where>,
    /// How the inputs are opened.
    pub open: OpenOptions,
    /// The thread budget (`-j`).
    pub jobs: usize,
}

/// The columns to write and, when the inputs were scanned, how many
/// records the scan read.
pub struct Planned {
    /// The columns.
    pub plan: Plan,
    /// Records the scan read.
    pub records: Option<u64>,
}

/// Records the plan is guessed from when to-parquet skips its schema pass.
const GUESS_RECORDS: u64 = 1 << 16;

impl Columns<'_> {
    /// The message type the plan asks for, checked against `--type`.
    fn reading_type(&self, plan: &Plan) -> Result<MessageType> {
        let ty = if plan.sequence {
            MessageType::SequenceExample
        } else {
            MessageType::Example
        };
        match self.ty {
            Some(t) if t != ty && self.schema.is_some() => {
                bail!("--type {} does not match the schema's type ({})", t.name(), ty.name())
            }
            _ => Ok(ty),
        }
    }

    fn keep(&self) -> Option<schema::KeepShared> {
        self.select
            .clone()
            .map(|p| schema::KeepShared(Arc::new(move |key: &str| p.keeps(key))))
    }

    /// The column plan: from `--schema`, or from a scan of the inputs
    /// (`count` also asks for the number of records, which only a scan
    /// gives: then the scan runs even with `--schema`); `warn` gets the
    /// warning lines.
    pub fn plan(&self, inputs: &[Input], count: bool, progress: Progress<'_>, warn: &dyn Fn(&str)) -> Result<Planned> {
        let given = match &self.schema {
            Some((shown, bytes)) => {
                let doc: serde_json::Value =
                    serde_json::from_slice(bytes).map_err(|e| err!("{shown}: not a tfr schema: not JSON: {e}"))?;
                let keep = |name: &str| self.select.as_ref().is_none_or(|p| p.keeps(name));
                Some(Plan::from_schema(&doc, &keep).map_err(|e| err!("{shown}: {e}"))?)
            }
            None => None,
        };
        if let (Some(plan), false) = (&given, count) {
            return self.planned(plan.clone(), None, true, warn);
        }
        if let Some(stdin) = inputs.iter().find(|i| i.is_stream()) {
            bail!(
                "{}: the inputs are read twice (a schema pass first{}), and a stream cannot be: \
                 give --schema FILE (from `tfr schema --format json`){}",
                stdin.display(),
                if count {
                    ", and a count of the records for the files"
                } else {
                    ""
                },
                if count { " and no --shards/--rows-per-file" } else { "" }
            );
        }
        let opts = schema::Options {
            open: self.open,
            ty: self.ty,
            limit: None,
            workers: pipeline::workers(self.jobs),
            keep: self.keep(),
            deep: false,
            light: true,
            filter: self.filter.cloned().map(Arc::new),
            annotate: None,
        };
        let bar = progress(crate::io::input::total_size(inputs));
        let (scan, error) = schema::scan(inputs, &opts, &*bar);
        drop(bar);
        if let Some(e) = error {
            return Err(e);
        }
        let records = scan.stats.records;
        let plan = match given {
            Some(plan) => plan,
            None => Plan::from_schema(&schema::json::to_json(&scan), &|_| true).map_err(|e| err!("{e}"))?,
        };
        self.planned(plan, Some(records), true, warn)
    }

    /// A plan from a light scan of the first [`GUESS_RECORDS`] records
    /// (none where the plan must come from every record: `--schema`,
    /// `--features`/`--exclude`, a stream, or a first scan that fails or
    /// plans nothing). With it, whether it saw every record (then it is
    /// the plan of all of them, not a guess).
    pub fn guess(&self, inputs: &[Input]) -> Option<(Plan, bool)> {
        if self.schema.is_some() || self.select.is_some() || inputs.iter().any(Input::is_stream) {
            return None;
        }
        let opts = schema::Options {
            open: self.open,
            ty: self.ty,
            limit: Some(GUESS_RECORDS),
            workers: pipeline::workers(self.jobs),
            keep: None,
            deep: false,
            light: true,
            filter: self.filter.cloned().map(Arc::new),
            annotate: None,
        };
        let (scan, error) = schema::scan(inputs, &opts, &|_, _| {});
        if error.is_some() {
            return None;
        }
        let plan = Plan::from_schema(&schema::json::to_json(&scan), &|_| true).ok()?;
        columnar::check_columns(&plan).ok()?;
        Some((plan, !scan.limited))
    }

    /// The plan checked, its warnings given to `warn` (with `unmatched`,
    /// the `--features/--exclude` patterns that matched nothing first).
    pub fn planned(&self, plan: Plan, records: Option<u64>, unmatched: bool, warn: &dyn Fn(&str)) -> Result<Planned> {
        let select = self.select.as_ref().filter(|_| unmatched);
        for warning in select.iter().flat_map(|p| p.unmatched()) {
            warn(&warning);
        }
        for line in &plan.left_out {
            warn(line);
        }
        columnar::check_columns(&plan)?;
        Ok(Planned { plan, records })
    }

    /// Which features of the records are meant to have a column: those
    /// `--features/--exclude` keep, but not those the plan left out.
    pub fn wanted(&self, plan: &Plan) -> columnar::build::Wanted {
        let select = self.select.clone();
        let left: std::collections::HashSet<String> = plan.left_out_names.iter().cloned().collect();
        Box::new(move |name| !left.contains(name) && select.as_ref().is_none_or(|p| p.keeps(name)))
    }

    /// How the write pass reads the records.
    pub fn reading<'a>(&'a self, plan: &Plan, jobs: usize) -> Result<Reading<'a>> {
        Ok(Reading {
            open: &self.open,
            types: Types::Fixed(self.reading_type(plan)?),
            jobs,
            range: Range::default(),
            sample: None,
            probe_limit: false,
            filter: self.filter,
        })
    }
}

/// How to-parquet writes its file(s).
pub struct ParquetOptions<'a> {
    /// `-o`: the file, or the name of the files (`NAME-00000-of-0000N.parquet`).
    pub output: &'a Path,
    /// `--shards`: N files balanced by rows.
    pub shards: Option<u32>,
    /// `--rows-per-file`: files of at most N rows.
    pub rows_per_file: Option<u64>,
    /// The column data's compression.
    pub compression: parquet::basic::Compression,
    /// `--row-group-size`: a row group ends at this many bytes, encoded.
    pub row_group_size: u64,
    /// `--skip`, `-n`: the records converted.
    pub range: batches::Range,
    /// `--sample N` (with its seed) instead.
    pub sample: Option<(u64, u64)>,
}

impl ParquetOptions<'_> {
    /// Of `records`, how many the range or the sample selects.
    fn selected(&self, records: u64) -> u64 {
        match self.sample {
            Some((n, _)) => records.min(n),
            None => (records.saturating_sub(self.range.skip)).min(self.range.limit.unwrap_or(u64::MAX)),
        }
    }

    /// Whether the rows are cut into several files (the records are
    /// counted first).
    pub fn sharded(&self) -> bool {
        self.shards.is_some() || self.rows_per_file.is_some()
    }
}

/// The write pass of to-parquet: the records of `inputs` as rows of the
/// planned columns, into the output file(s) (`aux`: the auxiliary files
/// an output may not be); a warning line for the features without a
/// column, if any.
pub fn write_parquet(
    inputs: &[Input],
    aux: &[&Path],
    columns: &Columns<'_>,
    planned: &Planned,
    convert: Convert,
    opts: &ParquetOptions<'_>,
    progress: Progress<'_>,
) -> Result<Option<String>> {
    let selected = planned.records.map(|n| opts.selected(n));
    let split = split(opts, selected.filter(|_| opts.sharded()))?;
    let props = WriterProperties::builder()
        .set_compression(opts.compression)
        .set_max_row_group_row_count(Some(1 << 20))
        .set_max_row_group_bytes(Some(opts.row_group_size.clamp(1, usize::MAX as u64) as usize))
        .set_created_by(format!("tfr {}", env!("CARGO_PKG_VERSION")))
        // In the footer's key-value metadata too (not only inside the
        // embedded Arrow schema): readers that do not read Arrow schemas
        // (DuckDB's parquet_kv_metadata, Polars' read_parquet_metadata) see it.
        .set_key_value_metadata(Some(vec![parquet::file::metadata::KeyValue::new(
            columnar::METADATA_KEY.to_string(),
            planned.plan.metadata(),
        )]))
        .build();
    let mut set = OutputSet::new(inputs, aux, "-o");
    let mut files = ParquetFiles::new(convert.schema(), props, split, &mut set);
    // The first file is created now: an unwritable target fails before any work.
    files.open(0)?;
    let mut how = columns.reading(&planned.plan, columns.jobs)?;
    (how.range, how.sample) = (opts.range, opts.sample);
    let update = progress(crate::io::input::total_size(inputs));
    let sink = |rows: &Rows| files.write(rows);
    let (_, result) = batches::run(inputs, &how, pipeline::workers(columns.jobs), &convert, sink, &*update);
    drop(update);
    result?;
    if let Some(e) = convert.nothing_planned_error() {
        return Err(e);
    }
    files.finish()?;
    drop(files);
    set.commit()?;
    Ok(convert.unplanned_warning())
}

/// Files of rows: which rows go to which file.
pub(crate) struct Split {
    /// The output names.
    names: Vec<PathBuf>,
    /// Rows of each file (`None`: one file, however many).
    rows: Option<Vec<u64>>,
}

/// Up to this many files, some may be empty (more shards than rows).
const MAX_EMPTY_SHARDS: u64 = 10_000;

/// More shards than rows, and more than [`MAX_EMPTY_SHARDS`], is refused (a
/// huge N would allocate and create files for nothing); --rows-per-file
/// makes at most one file per row.
fn split(opts: &ParquetOptions<'_>, total: Option<u64>) -> Result<Split> {
    cut(opts.output, opts.shards, opts.rows_per_file, total)
}

/// The files `--shards`/`--rows-per-file` cut `total` rows into, named
/// after `output` ([`shard_path`]); one file, `output`, without a total.
pub(crate) fn cut(output: &Path, shards: Option<u32>, rows_per_file: Option<u64>, total: Option<u64>) -> Result<Split> {
    let one = || Split {
        names: vec![output.to_path_buf()],
        rows: None,
    };
    let Some(total) = total else { return Ok(one()) };
    let counts: Vec<u64> = match (shards, rows_per_file) {
        (Some(n), _) => {
            let n = u64::from(n);
            let most = total.max(MAX_EMPTY_SHARDS);
            if n > most {
                bail!("--shards {n}: more files than the {total} rows selected (at most {most}: one row each, or up to {MAX_EMPTY_SHARDS} files with some empty)");
            }
            (0..n).map(|k| (k + 1) * total / n - k * total / n).collect()
        }
        (None, Some(r)) => {
            let files = total.div_ceil(r).max(1);
            (0..files).map(|k| (total - k * r).min(r)).collect()
        }
        (None, None) => return Ok(one()),
    };
    let n = counts.len();
    Ok(Split {
        names: (0..n).map(|k| shard_path(output, k, n)).collect(),
        rows: Some(counts),
    })
}

/// `DIR/NAME.parquet` → `DIR/NAME-00003-of-00064.parquet`.
fn shard_path(path: &Path, k: usize, n: usize) -> PathBuf {
    let bytes = path.as_os_str().as_encoded_bytes();
    let lower = bytes.to_ascii_lowercase();
    let ext = [&b".parquet"[..], b".pq"]
        .into_iter()
        .find(|e| lower.ends_with(e) && bytes.len() > e.len());
    match ext {
        Some(e) => {
            let stem = &bytes[..bytes.len() - e.len()];
            let stem = PathBuf::from(String::from_utf8_lossy(stem).into_owned());
            let mut name = crate::io::output_set::shard_name(&stem, k, n).into_os_string();
            name.push(String::from_utf8_lossy(&bytes[bytes.len() - e.len()..]).as_ref());
            PathBuf::from(name)
        }
        None => crate::io::output_set::shard_name(path, k, n),
    }
}

/// The Parquet files being written, one at a time, into an output set
/// (put in place by its owner's commit).
pub(crate) struct ParquetFiles<'s> {
    schema: arrow_schema::SchemaRef,
    props: WriterProperties,
    split: Split,
    set: &'s mut OutputSet,
    /// The open file: its writer (writing to memory, drained into the
    /// output set's file) and its number in the set.
    current: Option<(ArrowWriter<Vec<u8>>, usize)>,
    file: usize,
    rows_in_file: u64,
    rows: u64,
}

/// Bytes the writer holds before they are drained into the file.
const DRAIN: usize = 1 << 20;

impl<'s> ParquetFiles<'s> {
    /// The files of `split`, of `schema`, written as `props` says into `set`.
    pub(crate) fn new(
        schema: arrow_schema::SchemaRef,
        props: WriterProperties,
        split: Split,
        set: &'s mut OutputSet,
    ) -> ParquetFiles<'s> {
        ParquetFiles {
            schema,
            props,
            split,
            set,
            current: None,
            file: 0,
            rows_in_file: 0,
            rows: 0,
        }
    }

    /// Starts file `k` (the first, 0, before any row: an unwritable target
    /// fails before any work).
    pub(crate) fn open(&mut self, k: usize) -> Result<()> {
        let i = match self.split.names.len() {
            // The one output, named as given (a FIFO, a device too).
            1 => self
                .set
                .create_whole(&self.split.names[k], Some(Compression::None), 1)?,
            _ => self.set.create(&self.split.names[k], Some(Compression::None), 1)?,
        };
        let writer = ArrowWriter::try_new(Vec::new(), self.schema.clone(), Some(self.props.clone()))?;
        self.current = Some((writer, i));
        self.file = k;
        self.rows_in_file = 0;
        Ok(())
    }

    /// Rows the current file still takes (`u64::MAX`: one file).
    fn room(&self) -> u64 {
        match &self.split.rows {
            Some(rows) => rows.get(self.file).map_or(0, |n| n - self.rows_in_file),
            None => u64::MAX,
        }
    }

    fn close(&mut self) -> Result<()> {
        if let Some((writer, i)) = self.current.take() {
            let rest = writer.into_inner()?;
            let out = self.set.get(i);
            out.write_all(&rest)
                .with_context(|| format!("writing {}", out.display()))?;
            self.set.end(i)?;
        }
        Ok(())
    }

    /// Writes `batch`'s rows, going on to the next file(s) as each fills.
    pub(crate) fn write_batch(&mut self, batch: &arrow_array::RecordBatch) -> Result<()> {
        let mut batch = batch.clone();
        while batch.num_rows() > 0 {
            let mut room = self.room();
            while room == 0 {
                if self.split.rows.as_ref().is_some_and(|r| self.file + 1 >= r.len()) {
                    bail!("the inputs hold more records than the schema pass counted: were they changed meanwhile?");
                }
                self.close()?;
                self.open(self.file + 1)?;
                room = self.room();
            }
            let take = (batch.num_rows() as u64).min(room) as usize;
            let (writer, i) = self.current.as_mut().expect("an open file");
            writer.write(&batch.slice(0, take))?;
            self.rows_in_file += take as u64;
            self.rows += take as u64;
            if writer.inner().len() >= DRAIN {
                let out = self.set.get(*i);
                let bytes = std::mem::take(writer.inner_mut());
                out.write_all(&bytes)
                    .with_context(|| format!("writing {}", out.display()))?;
            }
            batch = batch.slice(take, batch.num_rows() - take);
        }
        Ok(())
    }

    fn write(&mut self, rows: &Rows) -> std::io::Result<()> {
        for batch in &rows.batches {
            self.write_batch(batch)
                .map_err(|e| std::io::Error::other(format!("{e:#}")))?;
        }
        Ok(())
    }

    /// Closes the last file and writes the empty ones left.
    pub(crate) fn finish(&mut self) -> Result<()> {
        if let Some(rows) = &self.split.rows {
            let total: u64 = rows.iter().sum();
            if self.rows != total {
                bail!(
                    "the inputs held {} records where the schema pass counted {total}: were they changed meanwhile?",
                    self.rows
                );
            }
        }
        let files = self.split.names.len();
        self.close()?;
        for k in self.file + 1..files {
            self.open(k)?;
            self.close()?;
        }
        Ok(())
    }
}

//! `tfr to-parquet`: records as rows of a Parquet file (or of N files).
//!
//! The column types come from a schema ([`columnar::Plan`]): `--schema
//! FILE` (from `tfr schema --format json`), else a first pass over the
//! inputs (the schema scan, on every core). Then the one reader of records
//! hands batches to the workers, which build one Arrow record batch each
//! ([`columnar::build::Convert`]); one thread encodes them into the
//! current file's row group (parquet's `ArrowWriter`), a row group ending
//! at `--row-group-size` bytes (encoded) or 1,048,576 rows. Memory: the
//! row group being encoded, plus the reader's window of batches. Files go
//! through an [`OutputSet`]: all appear at the end, or none.

use crate::args::{AuxSizeArg, FeatureArgs, InputArgs, JobsArg, PayloadType};
use crate::columnar::{self, build::Convert, build::Rows, Plan};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::io::{Compression, Input, OutputSet};
use crate::output::{self, Ctx};
use crate::pipeline;
use crate::pipeline::batches::{self, Range, Reading, Types};
use crate::schema;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub(crate) struct ToParquetArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// The Parquet file to write. With --shards or --rows-per-file,
    /// DIR/NAME.parquet writes DIR/NAME-00000-of-0000N.parquet ... (the
    /// directory is created if missing). A local path or an object-store URL.
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) columns: ColumnArgs,

    /// N files, balanced by rows (their counts differ by at most one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "rows_per_file")]
    pub(crate) shards: Option<u32>,

    /// Files of at most N rows each (the last may hold fewer).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) rows_per_file: Option<u64>,

    /// Compression of the column data: zstd (level 1), snappy (pyarrow's
    /// default), or none.
    #[arg(long, value_enum, default_value_t = ParquetCompression::Zstd, value_name = "KIND")]
    pub(crate) output_compression: ParquetCompression,

    /// A row group ends when its encoded size reaches SIZE (bytes; K, M, G
    /// suffixes) or at 1,048,576 rows: the memory a row group takes
    /// while it is written.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = crate::args::parse_size)]
    pub(crate) row_group_size: u64,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

/// The column data's compression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ParquetCompression {
    Zstd,
    Snappy,
    None,
}

/// What to-parquet and to-arrow share: which records, which features,
/// which schema.
#[derive(Args, Debug, Clone)]
pub(crate) struct ColumnArgs {
    /// Payload type: auto (the first record decides), example or sequence
    /// (SequenceExample: context features as columns, each feature list a
    /// list<list<…>> column).
    #[arg(long = "type", short = 't', value_enum, default_value_t = PayloadType::Auto, value_name = "TYPE")]
    pub(crate) payload: PayloadType,

    /// The column types from this schema (`tfr schema --format json`)
    /// instead of a first pass over the inputs (needed for stdin, which
    /// cannot be read twice). Features of the records that it does not
    /// name are left out (with a warning); when no record has a feature it
    /// names but records hold others, that is an error (a schema of other
    /// data).
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) select: FeatureArgs,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) aux: AuxSizeArg,
}

/// The columns to write and, when the inputs were scanned, how many
/// records the scan read.
pub(crate) struct Planned {
    pub(crate) plan: Plan,
    pub(crate) records: Option<u64>,
}

impl ColumnArgs {
    /// The message type the plan asks for, checked against `--type`.
    fn reading_type(&self, plan: &Plan) -> Result<MessageType> {
        let ty = if plan.sequence {
            MessageType::SequenceExample
        } else {
            MessageType::Example
        };
        match self.payload.fixed() {
            Some(t) if t != ty && self.schema.is_some() => {
                bail!("--type {} does not match the schema's type ({})", t.name(), ty.name())
            }
            _ => Ok(ty),
        }
    }

    /// The column plan: from `--schema`, or from a scan of the inputs
    /// (`count` also asks for the number of records, which only a scan
    /// gives: then the scan runs even with `--schema`).
    pub(crate) fn plan(
        &self,
        inputs: &[Input],
        input: &InputArgs,
        jobs: usize,
        count: bool,
        ctx: &Ctx,
    ) -> Result<Planned> {
        if matches!(self.payload, PayloadType::Raw | PayloadType::Elwc) {
            bail!(
                "--type {}: only Examples and SequenceExamples have a column mapping",
                self.payload.fixed().map_or("", |t| t.name())
            );
        }
        let projection = self.select.projection().map(std::sync::Arc::new);
        let given = match &self.schema {
            Some(path) => {
                let shown = crate::io::input::show_path(path);
                let bytes = self.aux.read(path)?;
                let doc: serde_json::Value =
                    serde_json::from_slice(&bytes).map_err(|e| anyhow!("{shown}: not a tfr schema: not JSON: {e}"))?;
                let keep = |name: &str| projection.as_ref().is_none_or(|p| p.keeps(name));
                Some(Plan::from_schema(&doc, &keep).map_err(|e| anyhow!("{shown}: {e}"))?)
            }
            None => None,
        };
        if let (Some(plan), false) = (&given, count) {
            return self.planned(plan.clone(), None, projection.as_deref());
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
        let ty = match self.payload {
            PayloadType::Example => Some(MessageType::Example),
            PayloadType::Sequence => Some(MessageType::SequenceExample),
            _ => None,
        };
        let opts = schema::Options {
            open: input.options(),
            ty,
            limit: None,
            workers: pipeline::workers(jobs),
            keep: projection
                .clone()
                .map(|p| schema::KeepShared(std::sync::Arc::new(move |key: &str| p.keeps(key)))),
            deep: false,
            light: true,
            filter: self.filter.get().cloned().map(std::sync::Arc::new),
        };
        let bar = output::LazyProgress::new(ctx, crate::io::input::total_size(inputs));
        let progress = |bytes, records| bar.update(bytes, records);
        let (scan, error) = schema::scan(inputs, &opts, &progress);
        bar.finish();
        if let Some(e) = error {
            return Err(e);
        }
        let records = scan.stats.records;
        let plan = match given {
            Some(plan) => plan,
            None => Plan::from_schema(&schema::json::to_json(&scan), &|_| true).map_err(|e| anyhow!("{e}"))?,
        };
        self.planned(plan, Some(records), projection.as_deref())
    }

    /// A plan from a light scan of the first [`GUESS_RECORDS`] records
    /// (none where the plan must come from every record: `--schema`,
    /// `--features`/`--exclude`, a stream, or a first scan that fails or
    /// plans nothing). With it, whether it saw every record (then it is
    /// the plan of all of them, not a guess).
    fn guess(&self, inputs: &[Input], input: &InputArgs, jobs: usize) -> Option<(Plan, bool)> {
        if self.schema.is_some() || self.select.projection().is_some() || inputs.iter().any(Input::is_stream) {
            return None;
        }
        if matches!(self.payload, PayloadType::Raw | PayloadType::Elwc) {
            return None;
        }
        let opts = schema::Options {
            open: input.options(),
            ty: self.payload.fixed(),
            limit: Some(GUESS_RECORDS),
            workers: pipeline::workers(jobs),
            keep: None,
            deep: false,
            light: true,
            filter: self.filter.get().cloned().map(std::sync::Arc::new),
        };
        let (scan, error) = schema::scan(inputs, &opts, &|_, _| {});
        if error.is_some() {
            return None;
        }
        let plan = Plan::from_schema(&schema::json::to_json(&scan), &|_| true).ok()?;
        columnar::check_columns(&plan).ok()?;
        Some((plan, !scan.limited))
    }

    fn planned(
        &self,
        plan: Plan,
        records: Option<u64>,
        projection: Option<&crate::args::Projection>,
    ) -> Result<Planned> {
        for warning in projection.iter().flat_map(|p| p.unmatched()) {
            output::error_line(format_args!("{warning}"));
        }
        for line in &plan.left_out {
            output::error_line(format_args!("{line}"));
        }
        columnar::check_columns(&plan)?;
        Ok(Planned { plan, records })
    }

    /// Which features of the records are meant to have a column: those
    /// `--features/--exclude` keep, but not those the plan left out.
    pub(crate) fn wanted(&self, plan: &Plan) -> crate::columnar::build::Wanted {
        let projection = self.select.projection();
        let left: std::collections::HashSet<String> = plan.left_out_names.iter().cloned().collect();
        Box::new(move |name| !left.contains(name) && projection.as_ref().is_none_or(|p| p.keeps(name)))
    }

    /// How the write pass reads the records.
    pub(crate) fn reading<'a>(
        &'a self,
        open: &'a crate::record::OpenOptions,
        plan: &Plan,
        jobs: usize,
    ) -> Result<Reading<'a>> {
        Ok(Reading {
            open,
            types: Types::Fixed(self.reading_type(plan)?),
            jobs,
            range: Range::default(),
            sample: None,
            probe_limit: false,
            filter: self.filter.get(),
        })
    }
}

/// Records the plan is guessed from when to-parquet skips its schema pass.
const GUESS_RECORDS: u64 = 1 << 16;

/// Files of rows: which rows go to which file.
struct Split {
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
fn split(args: &ToParquetArgs, total: Option<u64>) -> Result<Split> {
    let one = || Split {
        names: vec![args.output.clone()],
        rows: None,
    };
    let Some(total) = total else { return Ok(one()) };
    let counts: Vec<u64> = match (args.shards, args.rows_per_file) {
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
        names: (0..n).map(|k| shard_path(&args.output, k, n)).collect(),
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

pub(crate) fn run(args: &ToParquetArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = args.input.expand()?;
    let jobs = args.jobs.get();
    let aux: Vec<&Path> = args.columns.schema.iter().map(|p| p.as_path()).collect();
    let sharded = args.shards.is_some() || args.rows_per_file.is_some();
    crate::io::same_file::refuse_input_as_output(&inputs, &aux, &args.output, "-o")?;
    if args.output.as_os_str() == "-" {
        bail!("-o -: a Parquet file is written to a file or an object, not to stdout (its footer points back into it); to stream, use to-arrow -o -");
    }
    // Most datasets hold the same features, of the same types, in every
    // record: a plan from the first records is then the plan of all, and
    // the schema pass over everything can be skipped. A record that does
    // not fit it fails that attempt, whose files are dropped; then the
    // records are scanned first, as always (which also reports any error
    // as the scan does).
    if !sharded {
        if let Some((plan, complete)) = args.columns.guess(&inputs, &args.input, jobs) {
            let convert = Convert::new(plan.clone(), args.columns.wanted(&plan), false);
            let planned = Planned { plan, records: None };
            if complete {
                args.columns.planned(planned.plan.clone(), None, None)?;
                return write(args, &inputs, &aux, &planned, convert, ctx);
            }
            if let Ok(exit) = write(args, &inputs, &aux, &planned, convert.guessed(), ctx) {
                args.columns.planned(planned.plan, None, None)?;
                return Ok(exit);
            }
        }
    }
    let planned = args.columns.plan(&inputs, &args.input, jobs, sharded, ctx)?;
    let convert = Convert::new(
        planned.plan.clone(),
        args.columns.wanted(&planned.plan),
        args.columns.schema.is_some(),
    );
    write(args, &inputs, &aux, &planned, convert, ctx)
}

/// The write pass: the records as rows of the planned columns, into the
/// output file(s).
fn write(
    args: &ToParquetArgs,
    inputs: &[Input],
    aux: &[&Path],
    planned: &Planned,
    convert: Convert,
    ctx: &Ctx,
) -> Result<Exit> {
    let sharded = args.shards.is_some() || args.rows_per_file.is_some();
    let jobs = args.jobs.get();
    let split = split(args, planned.records.filter(|_| sharded))?;
    let props = WriterProperties::builder()
        .set_compression(match args.output_compression {
            ParquetCompression::Zstd => parquet::basic::Compression::ZSTD(Default::default()),
            ParquetCompression::Snappy => parquet::basic::Compression::SNAPPY,
            ParquetCompression::None => parquet::basic::Compression::UNCOMPRESSED,
        })
        .set_max_row_group_row_count(Some(1 << 20))
        .set_max_row_group_bytes(Some(args.row_group_size.clamp(1, usize::MAX as u64) as usize))
        .set_created_by(format!("tfr {}", env!("CARGO_PKG_VERSION")))
        // In the footer's key-value metadata too (not only inside the
        // embedded Arrow schema): readers that do not read Arrow schemas
        // (DuckDB's parquet_kv_metadata, Polars' read_parquet_metadata) see it.
        .set_key_value_metadata(Some(vec![parquet::file::metadata::KeyValue::new(
            columnar::METADATA_KEY.to_string(),
            planned.plan.metadata(),
        )]))
        .build();
    let mut files = Files {
        schema: convert.schema(),
        props,
        split,
        set: OutputSet::new(inputs, aux, "-o"),
        current: None,
        file: 0,
        rows_in_file: 0,
        rows: 0,
    };
    // The first file is created now: an unwritable target fails before any work.
    files.open(0)?;
    let open = args.input.options();
    let how = args.columns.reading(&open, &planned.plan, jobs)?;
    let progress = ctx.progress(crate::io::input::total_size(inputs));
    let update = |bytes, records| progress.update(bytes, records);
    let sink = |rows: &Rows| files.write(rows);
    let (_, result) = batches::run(inputs, &how, pipeline::workers(jobs), &convert, sink, &update);
    progress.finish();
    result?;
    if let Some(e) = convert.nothing_planned_error() {
        return Err(e);
    }
    files.finish()?;
    files.set.commit()?;
    if let Some(w) = convert.unplanned_warning() {
        output::error_line(format_args!("{w}"));
    }
    Ok(Exit::Success)
}

/// The Parquet files being written, one at a time.
struct Files {
    schema: arrow_schema::SchemaRef,
    props: WriterProperties,
    split: Split,
    set: OutputSet,
    /// The open file: its writer (writing to memory, drained into the
    /// output set's file) and its number in the set.
    current: Option<(ArrowWriter<Vec<u8>>, usize)>,
    file: usize,
    rows_in_file: u64,
    rows: u64,
}

/// Bytes the writer holds before they are drained into the file.
const DRAIN: usize = 1 << 20;

impl Files {
    fn open(&mut self, k: usize) -> Result<()> {
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

    fn write_batch(&mut self, batch: &arrow_array::RecordBatch) -> Result<()> {
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
    fn finish(&mut self) -> Result<()> {
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

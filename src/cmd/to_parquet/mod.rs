//! `tfr to-parquet`: records as rows of a Parquet file (or of N files):
//! [`crate::formats::columnar_out`].
//!
//! The column types come from a schema: `--schema FILE` (from `tfr schema
//! --format json`), else a first pass over the inputs (the schema scan, on
//! every core). A row group ends at `--row-group-size` bytes (encoded) or
//! 1,048,576 rows. Memory: the row group being encoded, plus the reader's
//! window of batches. Files appear together at the end, or none.
//!
//! Payloads of any protobuf message (`--message`, event files) go another
//! way first (`message.rs`: the columns from the message's descriptor), and
//! a TFDS folder another (`tfds.rs`: from its features.json).

mod message;
mod tfds;

use crate::args::{ColumnArgs, InputArgs, JobsArg, RangeArgs};
use crate::columnar::build::Convert;
use crate::exit::Exit;
use crate::formats::columnar_out::{write_parquet, ParquetOptions, Planned};
use crate::output::{self, Ctx};
use anyhow::{bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub(crate) struct ToParquetArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// The Parquet file to write. With --shards or --rows-per-file,
    /// DIR/NAME.parquet writes DIR/NAME-00000-of-0000N.parquet ... (the
    /// directory is created if missing). A local path or an object-store
    /// URL. Of a TFDS folder, {split} stands for each split's name
    /// (hf/{split}.parquet --shards 2: hf/train-00000-of-00002.parquet ...).
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) columns: ColumnArgs,

    #[command(flatten)]
    pub(crate) range: RangeArgs,

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
    /// while it is written [default: 64M; 8M for a TFDS dataset with
    /// images, whose readers fetch a row group at a time].
    #[arg(long, value_name = "SIZE", value_parser = crate::args::parse_size)]
    pub(crate) row_group_size: Option<u64>,

    /// Of a TFDS folder: the steps of this Dataset feature (an RLDS
    /// dataset's steps) as rows, one per step, with episode_index,
    /// step_index and the episode's other features repeated (the step
    /// features without the 'steps/' prefix). Default: one row per episode,
    /// each step feature a list.
    #[arg(long, value_name = "FEATURE")]
    pub(crate) explode: Option<String>,

    /// A TFDS folder's records as any records (columns from a scan of the
    /// values), not typed by its features.json.
    #[arg(long, conflicts_with = "explode")]
    pub(crate) plain: bool,

    #[command(flatten)]
    pub(crate) proto: crate::args::ProtoArgs,

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

impl ParquetCompression {
    /// The Parquet codec.
    fn codec(self) -> parquet::basic::Compression {
        match self {
            ParquetCompression::Zstd => parquet::basic::Compression::ZSTD(Default::default()),
            ParquetCompression::Snappy => parquet::basic::Compression::SNAPPY,
            ParquetCompression::None => parquet::basic::Compression::UNCOMPRESSED,
        }
    }
}

impl ToParquetArgs {
    /// The output's options: files, row groups, compression; the records
    /// `range` or `sample` keeps.
    fn parquet_options(
        &self,
        range: crate::pipeline::batches::Range,
        sample: Option<(u64, u64)>,
    ) -> ParquetOptions<'_> {
        ParquetOptions {
            output: &self.output,
            shards: self.shards,
            rows_per_file: self.rows_per_file,
            compression: self.output_compression.codec(),
            row_group_size: self.row_group_size.unwrap_or(64 << 20),
            range,
            sample,
        }
    }
}

pub(crate) fn run(args: &ToParquetArgs, ctx: &Ctx) -> Result<Exit> {
    if let Some(exit) = message::run(args, ctx)? {
        return Ok(exit);
    }
    if !args.plain {
        if let Some(exit) = tfds::run(args, ctx)? {
            return Ok(exit);
        }
    }
    let inputs = args.input.expand()?;
    let jobs = args.jobs.get();
    let aux: Vec<&Path> = args.columns.schema.iter().map(|p| p.as_path()).collect();
    let opts = args.parquet_options(Default::default(), None);
    crate::io::same_file::refuse_input_as_output(&inputs, &aux, &args.output, "-o")?;
    if args.output.as_os_str() == "-" {
        bail!("-o -: a Parquet file is written to a file or an object, not to stdout (its footer points back into it); to stream, use to-arrow -o -");
    }
    let columns = args.columns.columns(&args.input, jobs)?;
    let range = args.range.reading(&columns.open, None, jobs);
    let opts = ParquetOptions {
        range: range.range,
        sample: range.sample,
        ..opts
    };
    let warn = |line: &str| output::error_line(format_args!("{line}"));
    // The write pass, and its warning.
    let write = |planned: &Planned, convert: Convert| -> Result<Exit> {
        let pass = |total| ctx.progress_pass(total);
        if let Some(w) = write_parquet(&inputs, &aux, &columns, planned, convert, &opts, &pass)? {
            output::error_line(format_args!("{w}"));
        }
        Ok(Exit::Success)
    };
    // Most datasets hold the same features, of the same types, in every
    // record: a plan from the first records is then the plan of all, and
    // the schema pass over everything can be skipped. A record that does
    // not fit it fails that attempt, whose files are dropped; then the
    // records are scanned first, as always (which also reports any error
    // as the scan does).
    if !opts.sharded() {
        if let Some((plan, complete)) = columns.guess(&inputs) {
            let convert = Convert::new(plan.clone(), columns.wanted(&plan), false);
            let planned = Planned { plan, records: None };
            if complete {
                columns.planned(planned.plan.clone(), None, false, &warn)?;
                return write(&planned, convert);
            }
            if let Ok(exit) = write(&planned, convert.guessed()) {
                columns.planned(planned.plan, None, false, &warn)?;
                return Ok(exit);
            }
        }
    }
    let planned = columns.plan(&inputs, opts.sharded(), &|total| ctx.lazy_pass(total), &warn)?;
    let convert = Convert::new(
        planned.plan.clone(),
        columns.wanted(&planned.plan),
        args.columns.schema.is_some(),
    );
    write(&planned, convert)
}

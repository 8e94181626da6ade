//! `tfr from-parquet` and `tfr from-arrow`: rows of Parquet files or Arrow
//! IPC files/streams as `tf.train.Example` records, written atomically
//! (the conversion: `formats::columnar_in`).

use crate::args::JobsArg;
use crate::columnar::encode::{Casts, Selection};
use crate::exit::Exit;
use crate::formats::columnar_in::{convert, count_rows, Format};
use crate::formats::tfrecord_out::{ShardedOutput, Sharding};
use crate::io::AtomicOutput;
use crate::output::{self, Ctx};
use crate::pipeline;
use anyhow::{bail, Result};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("output_compression", crate::args::alias_compression))]
pub(crate) struct FromColumnsArgs {
    /// Input files: paths, quoted globs, directories (their files named for
    /// the format), object-store URLs, or '-' for stdin (the default when
    /// piped).
    #[arg(value_name = "FILES")]
    pub(crate) files: Vec<std::ffi::OsString>,

    /// The TFRecord file to write ('-' for stdout). It appears only when
    /// every row converted. With --shards or --shard-size,
    /// DIR/NAME.tfrecord[.gz] writes DIR/NAME-00000-of-0000N.tfrecord[.gz]
    /// ... (missing local directories are created), all appearing together.
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) sharding: crate::args::ShardingArgs,

    #[command(flatten)]
    pub(crate) select: crate::args::FeatureArgs,

    /// Write the feature OLD as NEW (repeatable; after --features and
    /// --exclude, which name the columns' features): `--rename
    /// image/bytes=image/encoded`.
    #[arg(long, value_name = "OLD=NEW", value_parser = crate::args::parse_rename)]
    pub(crate) rename: Vec<(String, String)>,

    /// A DECIMAL column's values (DuckDB types `i * 1.5` as one): float
    /// (float32, with a warning) or text (every digit, as bytes: "1.50").
    #[arg(long, value_enum, default_value_t = DecimalArg::Float, value_name = "AS")]
    pub(crate) decimal: DecimalArg,

    /// A null among a list's values (no Feature value is null): error, or
    /// drop (left out of the list).
    #[arg(long, value_enum, default_value_t = NullInListArg::Error, value_name = "WHAT")]
    pub(crate) null_in_list: NullInListArg,

    /// Read the files an image or audio column ({bytes, path}, as Hugging
    /// Face `datasets` saves files loaded from local paths) names where a
    /// row holds the path but no bytes: only files under DIR (a relative
    /// path is taken from DIR; symbolic links are followed, and must stay
    /// under DIR).
    #[arg(long, value_name = "DIR")]
    pub(crate) read_paths: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) jobs: JobsArg,
}

pub(crate) fn run(args: &FromColumnsArgs, format: Format, _ctx: &Ctx) -> Result<Exit> {
    let to_stdout = args.output.as_os_str() == "-";
    if to_stdout && std::io::stdout().is_terminal() {
        bail!("refusing to write binary records to a terminal (redirect stdout, or use -o FILE)");
    }
    let looks = match format {
        Format::Parquet => crate::io::input::Looks::Parquet,
        Format::Arrow => crate::io::input::Looks::Arrow,
    };
    crate::args::check_renames(&args.rename)?;
    let inputs = crate::io::input::expand_as(&args.files, looks)?;
    crate::io::same_file::refuse_input_as_output(&inputs, &[], &args.output, "-o")?;
    let jobs = args.jobs.get();
    let workers = pipeline::workers(jobs);
    let projection = args.select.projection();
    let keep = |name: &str| projection.as_ref().is_none_or(|p| p.keeps(name));
    let root = args.read_paths.as_deref().map(read_root).transpose()?;
    let selection = Selection {
        read_paths: root.as_deref(),
        keep: projection.is_some().then_some(&keep),
        rename: &args.rename,
        casts: Casts {
            decimal_text: args.decimal == DecimalArg::Text,
            drop_list_nulls: args.null_in_list == NullInListArg::Drop,
        },
    };
    let sharding = args.sharding.sharding();
    let (notes, done) = match sharding {
        Sharding::One => {
            let compression = args.sharding.output.of(&args.output);
            let mut out = AtomicOutput::create_threaded(&args.output, compression, jobs)?;
            let notes = convert(&inputs, format, &selection, workers, &mut |run| Ok(out.write_all(run)?))?;
            out.commit()?;
            (notes, None)
        }
        _ => {
            let forced = args.sharding.output.forced();
            let mut out = ShardedOutput::create(&inputs, &args.output, sharding, forced, jobs)?;
            if let Sharding::Shards(_) = sharding {
                out.set_total(count_rows(&inputs, format)?);
            }
            let notes = convert(&inputs, format, &selection, workers, &mut |run| out.write_run(run))?;
            (notes, Some(out.finish()?))
        }
    };
    for note in &notes {
        output::error_line(format_args!("warning: {note}"));
    }
    for warning in projection.iter().flat_map(|p| p.unmatched()) {
        output::error_line(format_args!("{warning}"));
    }
    // What was written, as reshard says it.
    if let Some((records, shards)) = done {
        let mut stdout = output::stdout();
        writeln!(stdout, "{records} records into {shards} shards")?;
        stdout.flush()?;
    }
    Ok(Exit::Success)
}

/// `--decimal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DecimalArg {
    /// float32 (a warning says so).
    Float,
    /// The digits, as bytes.
    Text,
}

/// `--null-in-list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum NullInListArg {
    /// One error line naming the column and row.
    Error,
    /// Left out of the list.
    Drop,
}

/// `--read-paths DIR`: the directory, canonical (the files read must lie
/// under it).
fn read_root(dir: &std::path::Path) -> Result<PathBuf> {
    let shown = crate::io::input::show_path(dir);
    let root = std::fs::canonicalize(dir).map_err(|e| anyhow::anyhow!("--read-paths {shown}: {e}"))?;
    if !root.is_dir() {
        bail!("--read-paths: {shown} is not a directory");
    }
    Ok(root)
}

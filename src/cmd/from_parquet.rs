//! `tfr from-parquet` and `tfr from-arrow`: rows of Parquet files or Arrow
//! IPC files/streams as `tf.train.Example` records, written atomically
//! (the conversion: `formats::columnar_in`).

use crate::args::JobsArg;
use crate::exit::Exit;
use crate::formats::columnar_in::{convert, Format};
use crate::io::AtomicOutput;
use crate::output::{self, Ctx};
use crate::pipeline;
use anyhow::{bail, Result};
use clap::Args;
use std::io::IsTerminal;
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
    /// every row converted.
    #[arg(short = 'o', long, value_name = "OUT", required = true)]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) compression: crate::args::OutputCompressionArg,

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
    let inputs = crate::io::input::expand_as(&args.files, looks)?;
    crate::io::same_file::refuse_input_as_output(&inputs, &[], &args.output, "-o")?;
    let jobs = args.jobs.get();
    let compression = args.compression.of(&args.output);
    let mut out = AtomicOutput::create_threaded(&args.output, compression, jobs)?;
    let notes = convert(&inputs, format, pipeline::workers(jobs), &mut out)?;
    out.commit()?;
    for note in &notes {
        output::error_line(format_args!("warning: {note}"));
    }
    Ok(Exit::Success)
}

//! The command-line definition (clap derive). The `///` comments are the help text.

use crate::input::CompressionArg;
use crate::output::ColorChoice;
use clap::{Args, Parser, Subcommand};

/// Inspect and convert TFRecord files without TensorFlow.
///
/// Inputs are paths, `-` for stdin, or nothing (stdin when piped). Quoted
/// globs ('data/train-*') are expanded by tfr, sorted. Compression (gzip,
/// zlib) is detected from the content, never from the file name.
///
/// Exit codes: 0 success, 1 a check found damage (verify-crc), 2 any error
/// (usage, I/O, damaged input).
#[derive(Parser, Debug)]
#[command(name = "tfr", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// Flags accepted by every command.
#[derive(Args, Debug, Clone)]
pub struct GlobalArgs {
    /// Never show progress bars.
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// When to use colour: auto (terminal and no NO_COLOR), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true, value_name = "WHEN")]
    pub color: ColorChoice,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print every record.
    ///
    /// Examples:
    ///   tfr cat train.tfrecord
    ///   tfr cat 'data/train-*.tfrecord.gz' | less
    ///   tfr cat --type raw lines.tfrecord
    #[command(verbatim_doc_comment)]
    Cat(crate::cmd::cat::CatArgs),

    /// Print the first records (10 by default) of the inputs, taken together.
    ///
    /// Stops reading as soon as N records are printed, so it is instant on
    /// any file size.
    ///
    /// Examples:
    ///   tfr head train.tfrecord
    ///   tfr head -n 1 train.tfrecord.gz
    ///   tfr head -n 3 'shards/train-*-of-*'
    #[command(verbatim_doc_comment)]
    Head(crate::cmd::cat::HeadArgs),

    /// Count the records of each input.
    ///
    /// One input prints just the number; several print a table with a total.
    /// Plain files are counted by hopping from header to header (checking
    /// each length CRC) without reading payloads.
    ///
    /// Examples:
    ///   tfr count train.tfrecord
    ///   tfr count 'data/train-*' --json
    #[command(verbatim_doc_comment)]
    Count(crate::cmd::count::CountArgs),

    /// Check both CRCs of every record; report every fault; salvage the rest.
    ///
    /// After damage the scan resynchronises (finds the next offset whose
    /// header and payload CRCs both check) and goes on, so every fault is
    /// reported, one line on stderr each: file, record, byte offset (in the
    /// decompressed stream for gzip/zlib), kind, and bytes skipped. A summary
    /// follows on stdout: one line for one input, a table with totals for
    /// several (--json: one JSON document).
    ///
    /// Record indices count a damaged stretch as one record.
    ///
    /// Exit codes: 0 every record intact, 1 damage found, 2 an input could not
    /// be read at all (missing, unreadable, not a TFRecord file).
    ///
    /// Examples:
    ///   tfr verify-crc 'data/*.tfrecord.gz' || exit 1
    ///   tfr verify-crc --json train.tfrecord
    ///   tfr verify-crc damaged.tfrecord --salvage repaired.tfrecord
    #[command(verbatim_doc_comment)]
    VerifyCrc(crate::cmd::verify_crc::VerifyCrcArgs),
}

/// Input options shared by the commands that read records.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files: paths, quoted globs, or '-' for stdin (the default when piped).
    #[arg(value_name = "FILES")]
    pub files: Vec<String>,

    /// Input compression: detected from the first bytes unless forced.
    #[arg(long, value_enum, default_value_t = CompressionArg::Auto, value_name = "KIND")]
    pub compression: CompressionArg,
}

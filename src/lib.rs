//! tfr: inspect and convert TFRecord files without TensorFlow.
//!
//! The library holds everything: the streaming record reader and writer
//! ([`record`]), input handling with compression sniffing ([`input`]), the
//! tf.train.Example decoder and renderers ([`example`]), and one module per
//! subcommand ([`cmd`]). The `tfr` binary only calls [`main_entry`].

pub mod cli;
pub mod cmd;
pub mod deflate;
pub mod example;
pub mod exit;
#[doc(hidden)]
pub mod fuzz_check;
pub mod inflate;
pub mod input;
pub mod output;
pub mod output_file;
pub mod readahead;
pub mod record;

use clap::Parser;
use exit::Exit;

/// Parses the command line, runs the command, and turns the outcome into an
/// exit code: errors print as one `tfr: ` line; a closed output pipe is success.
pub fn main_entry() -> std::process::ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { Exit::Error } else { Exit::Success };
            // Help and version go to stdout; a closed pipe there is fine.
            let _ = e.print();
            return code.into();
        }
    };
    match run(&cli) {
        Ok(code) => code.into(),
        Err(e) if output::is_broken_pipe(&e) => Exit::Success.into(),
        Err(e) => {
            output::error_line(format_args!("{e:#}"));
            Exit::Error.into()
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: &cli::Cli) -> anyhow::Result<Exit> {
    let ctx = output::Ctx::detect(cli.global.color, cli.global.quiet);
    match &cli.command {
        cli::Command::Cat(args) => cmd::cat::run_cat(args, &ctx),
        cli::Command::Head(args) => cmd::cat::run_head(args, &ctx),
        cli::Command::Count(args) => cmd::count::run(args, &ctx),
        cli::Command::VerifyCrc(args) => cmd::verify_crc::run(args, &ctx),
        cli::Command::ToJsonl(args) => cmd::to_jsonl::run(args, &ctx),
        cli::Command::FromJsonl(args) => cmd::from_jsonl::run(args, &ctx),
        cli::Command::Schema(args) => cmd::schema::run(args, &ctx),
    }
}

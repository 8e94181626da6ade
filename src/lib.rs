//! tfr: inspect and convert TFRecord files without TensorFlow.
//!
//! The workspace is layered; each layer uses only the ones above it in
//! this list (ARCHITECTURE.md has the whole map), and the crates make the
//! compiler hold the line between them:
//!
//! - `tfr-core`: [`io`] (bytes: inputs, compression, atomic outputs, object
//!   stores), [`record`] (TFRecord framing), [`example`] (payloads: the
//!   decoders, text format, the JSONL mapping both ways).
//! - `tfr-engine`: [`pipeline`] (the ordered worker pool), [`schema`]
//!   (statistics, schemas, anomalies), [`report`], `columnar` (feature
//!   `parquet`: records as Arrow columns and back), [`formats`] (the
//!   conversion formats: WebDataset, JSON lines, CSV, files, Parquet/Arrow
//!   outputs, TFRecord shards, one module each).
//! - this crate: with the default `cli` feature, the command line on top:
//!   shared arguments, terminal output, one module per subcommand, and
//!   [`main_entry`], all the `tfr` binary calls.
//!
//! The libraries' modules are re-exported here under their old paths.

pub use tfr_core::{example, io, record};
#[cfg(feature = "parquet")]
pub use tfr_engine::columnar;
#[cfg(feature = "report")]
pub use tfr_engine::report;
pub use tfr_engine::{annotate, formats, pipeline, proto, schema, tfds};

#[cfg(feature = "cli")]
mod args;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
mod cmd;
#[cfg(feature = "cli")]
mod exit;
#[cfg(feature = "cli")]
mod output;
#[cfg(feature = "cli")]
mod signals;

#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzz_check;

#[cfg(feature = "cli")]
pub use cli_main::main_entry;

#[cfg(feature = "cli")]
mod cli_main {
    use crate::exit::Exit;
    use crate::{cli, cmd, output};
    use clap::Parser;
    use std::io::Write as _;

    /// Parses the command line, runs the command, and turns the outcome into an
    /// exit code: errors print as one `tfr: ` line; a closed output pipe is success.
    pub fn main_entry() -> std::process::ExitCode {
        crate::signals::arm();
        crate::io::set_warnings(output::error_line);
        // A panic is a bug: one line, the clean-up a signal gets (temporary
        // files, open uploads), exit 2 at once, from any thread. Unwinding
        // could leave the other threads waiting for the one that panicked.
        std::panic::set_hook(Box::new(|info| {
            // A panic that a library makes of damaged input (Arrow IPC's
            // reader, prost-reflect's descriptor checks), which the caller
            // catches and turns into an error.
            if tfr_engine::error::panic_is_caught() {
                return;
            }
            let what = info.to_string().replace('\n', ": ");
            output::error_line(format_args!("internal error, a bug in tfr (please report it): {what}"));
            crate::io::output_file::cleanup::remove_pending();
            std::process::exit(Exit::Error as i32);
        }));
        let cli = match cli::Cli::try_parse() {
            Ok(cli) => cli,
            // `tfr` alone: the whole help, on stderr, exit 2.
            Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = write!(std::io::stderr(), "{}", e.render());
                return Exit::Error.into();
            }
            Err(e) if e.use_stderr() => {
                output::error_line(format_args!("{}", usage_error(&e)));
                return Exit::Error.into();
            }
            Err(e) => {
                let code = Exit::Success;
                // Help and version go to stdout: a closed pipe there is fine,
                // a full disk or another write failure is not.
                return match e.print() {
                    Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
                        output::error_line(format_args!("writing output: {err}"));
                        Exit::Error.into()
                    }
                    _ => code.into(),
                };
            }
        };
        let mut ran = run(&cli);
        if ran.is_ok() {
            if let Some(filter) = cli.command.filter() {
                // A command that reads without batches::run (head) is
                // held to --strict here; the others failed already.
                match filter.strict_error() {
                    Some(e) => ran = Err(e.into()),
                    None => filter
                        .warnings()
                        .iter()
                        .for_each(|w| output::error_line(format_args!("{w}"))),
                }
            }
        }
        // A terminating signal arrived: its clean-up ends the process by
        // that signal. Returning first (the input ended meanwhile, say)
        // would exit 0 or 2 instead, and a shell loop would go on.
        crate::signals::wait_if_signalled();
        match ran {
            Ok(code) => code.into(),
            Err(e) if output::is_broken_pipe(&e) => Exit::Success.into(),
            Err(e) => {
                output::error_line(format_args!("{e:#}"));
                Exit::Error.into()
            }
        }
    }

    /// A usage error as one line (clap writes several): the message, the
    /// items of a list it introduces, its tip, and the usage line.
    /// `error: unexpected argument '--fast' found` + `tip: ...` + `Usage:
    /// tfr count [OPTIONS] [FILES]...` → `unexpected argument '--fast'
    /// found; tip: ...; usage: tfr count [OPTIONS] [FILES]...`.
    fn usage_error(e: &clap::Error) -> String {
        let text = e.render().to_string();
        let mut lines = text.lines().map(str::trim_end).peekable();
        let mut out = lines
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_owned();
        if out.ends_with(':') {
            let mut items = Vec::new();
            while let Some(item) = lines.next_if(|l| l.starts_with(' ')) {
                items.push(item.trim());
            }
            out = format!("{} {}", out, items.join(", "));
        }
        for line in lines {
            if let Some(values) = line.trim_start().strip_prefix('[') {
                // `[possible values: auto, example, ...]`
                out = format!("{out} [{values}");
            } else if let Some(tip) = line.strip_prefix("tip: ").or_else(|| line.strip_prefix("  tip: ")) {
                out = format!("{out}; tip: {tip}");
            } else if let Some(usage) = line.strip_prefix("Usage: ") {
                out = format!("{out}; usage: {usage}");
            }
        }
        out
    }

    /// Runs a parsed command line.
    fn run(cli: &cli::Cli) -> anyhow::Result<Exit> {
        let ctx = output::Ctx::detect(cli.global.color, cli.global.quiet);
        crate::io::remote::set_no_sign_request(cli.global.no_sign_request);
        if let Some(limit) = cli.global.timeout {
            crate::signals::set_timeout(limit);
        }
        match &cli.command {
            cli::Command::Cat(args) => cmd::cat::run_cat(args, &ctx),
            cli::Command::Head(args) => cmd::cat::run_head(args, &ctx),
            cli::Command::Count(args) => cmd::count::run(args, &ctx),
            cli::Command::VerifyCrc(args) => cmd::verify_crc::run(args, &ctx),
            cli::Command::ToJsonl(args) => cmd::to_jsonl::run(args, &ctx),
            cli::Command::FromJsonl(args) => cmd::from_jsonl::run(args, &ctx),
            cli::Command::Reshard(args) => cmd::reshard::run(args, &ctx),
            cli::Command::Split(args) => cmd::split::run(args, &ctx),
            #[cfg(feature = "csv")]
            cli::Command::ToCsv(args) => cmd::to_csv::run(args, &ctx),
            #[cfg(feature = "wds")]
            cli::Command::ToWds(args) => cmd::to_wds::run(args, &ctx),
            #[cfg(feature = "wds")]
            cli::Command::FromWds(args) => cmd::from_wds::run(args, &ctx),
            cli::Command::Extract(args) => cmd::extract::run(args, &ctx),
            cli::Command::Info(args) => cmd::info::run(args, &ctx),
            cli::Command::Scalars(args) => cmd::scalars::run(args, &ctx),
            cli::Command::Schema(args) => cmd::schema::run(args, &ctx),
            cli::Command::Stats(args) => cmd::stats::run(args, &ctx),
            #[cfg(feature = "report")]
            cli::Command::Report(args) => cmd::report::run(args, &ctx),
            #[cfg(feature = "view")]
            cli::Command::View(args) => cmd::view::run(args, &ctx),
            cli::Command::Validate(args) => cmd::validate::run(args, &ctx),
            cli::Command::Index(args) => cmd::index::run(args, &ctx),
            cli::Command::Shuffle(args) => cmd::shuffle::run(args, &ctx),
            #[cfg(feature = "parquet")]
            cli::Command::ToParquet(args) => cmd::to_parquet::run(args, &ctx),
            #[cfg(feature = "parquet")]
            cli::Command::ToArrow(args) => cmd::to_arrow::run(args, &ctx),
            #[cfg(feature = "parquet")]
            cli::Command::FromParquet(args) => {
                cmd::from_parquet::run(args, crate::formats::columnar_in::Format::Parquet, &ctx)
            }
            #[cfg(feature = "parquet")]
            cli::Command::FromArrow(args) => {
                cmd::from_parquet::run(args, crate::formats::columnar_in::Format::Arrow, &ctx)
            }
        }
    }
}

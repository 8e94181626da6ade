//! Terminal behaviour decided once at start-up: stdout writer, colour, progress.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// `--color`: when to colour output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is not set.
    #[default]
    Auto,
    Always,
    Never,
}

/// What the process may do with the terminal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    /// Colour escapes in stdout output.
    pub(crate) color: bool,
    /// Progress bars on stderr.
    pub(crate) progress: bool,
}

impl Ctx {
    /// Decides colour and progress from the flags, the environment and the terminals.
    pub(crate) fn detect(color: ColorChoice, quiet: bool) -> Ctx {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                !no_color && io::stdout().is_terminal() && std::env::var("TERM").map_or(true, |t| t != "dumb")
            }
        };
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
        Ctx {
            color,
            progress: !quiet && !ci && io::stderr().is_terminal(),
        }
    }

    /// A progress bar that never shows.
    pub(crate) fn progress_hidden(&self) -> Progress {
        Progress(ProgressBar::hidden(), AtomicU64::new(0))
    }

    /// A progress bar for one pass of a format's run, as the closure the
    /// formats take (`formats::tfrecord_out::Progress`): finished when
    /// dropped.
    pub(crate) fn progress_pass(&self, total: Option<u64>) -> Box<dyn Fn(u64, u64) + Sync + '_> {
        let bar = self.progress(total);
        Box::new(move |bytes, records| bar.update(bytes, records))
    }

    /// [`progress_pass`](Self::progress_pass) with a [`LazyProgress`].
    #[cfg(feature = "parquet")]
    pub(crate) fn lazy_pass(&self, total: Option<u64>) -> Box<dyn Fn(u64, u64) + Sync + '_> {
        let bar = LazyProgress::new(self, total);
        Box::new(move |bytes, records| bar.update(bytes, records))
    }

    /// A bar over `total` bytes (a spinner when unknown), hidden unless allowed.
    pub(crate) fn progress(&self, total: Option<u64>) -> Progress {
        if !self.progress {
            return Progress(ProgressBar::hidden(), AtomicU64::new(0));
        }
        let bar = match total {
            Some(t) => ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr_with_hz(10)).with_style(
                ProgressStyle::with_template(
                    "{bar:30.cyan/blue} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg} ETA {eta}",
                )
                .expect("valid template"),
            ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10)).with_style(
                ProgressStyle::with_template("{spinner} {bytes} {binary_bytes_per_sec} {msg} {elapsed}")
                    .expect("valid template"),
            ),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(bar, AtomicU64::new(0))
    }
}

/// A progress bar (possibly hidden) counting bytes, with records as its message.
pub(crate) struct Progress(ProgressBar, AtomicU64);

impl Progress {
    /// Updates position and record count; cheap enough to call per batch of records.
    pub(crate) fn update(&self, bytes: u64, records: u64) {
        if !self.0.is_hidden() {
            self.0.set_position(bytes);
            self.0.set_message(format!("{records} records"));
        }
    }

    /// Adds bytes and records done, from any thread (for work shared by
    /// threads, where no one knows the totals); negative increments take
    /// back work that turned out not to count.
    pub(crate) fn add(&self, bytes: i64, records: i64) {
        let records = self
            .1
            .fetch_add(records as u64, Ordering::Relaxed)
            .wrapping_add(records as u64);
        if !self.0.is_hidden() {
            match u64::try_from(bytes) {
                Ok(b) => self.0.inc(b),
                Err(_) => self.0.dec(bytes.unsigned_abs()),
            }
            self.0.set_message(format!("{records} records"));
        }
    }

    pub(crate) fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// A progress bar shown only once the work has run a moment (300 ms): no
/// flash on small inputs. `update` may be called from any thread.
pub(crate) struct LazyProgress<'a> {
    ctx: &'a Ctx,
    total: Option<u64>,
    started: std::time::Instant,
    bar: std::sync::Mutex<Option<Progress>>,
}

impl<'a> LazyProgress<'a> {
    pub(crate) fn new(ctx: &'a Ctx, total: Option<u64>) -> Self {
        LazyProgress {
            ctx,
            total,
            started: std::time::Instant::now(),
            bar: std::sync::Mutex::new(None),
        }
    }

    pub(crate) fn update(&self, bytes: u64, records: u64) {
        let mut bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        if bar.is_none() && self.started.elapsed() > Duration::from_millis(300) {
            *bar = Some(self.ctx.progress(self.total));
        }
        if let Some(p) = bar.as_ref() {
            p.update(bytes, records);
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(p) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            p.finish();
        }
    }
}

/// Writes `bytes` to stdout and flushes.
pub(crate) fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut out = stdout();
    out.write_all(bytes).context("writing output")?;
    out.flush().context("writing output")
}

/// Stdout: line-buffered on a terminal, block-buffered otherwise.
pub(crate) fn stdout() -> Box<dyn Write> {
    let out = io::stdout();
    if out.is_terminal() {
        Box::new(io::LineWriter::new(out.lock()))
    } else {
        Box::new(io::BufWriter::with_capacity(256 * 1024, out.lock()))
    }
}

/// ANSI styling used for comment lines when colour is on.
pub(crate) fn dim(s: &str, color: bool) -> String {
    if color {
        format!("\x1b[2m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// The exit code of a check whose report could not be written: a closed
/// pipe (`tfr verify-crc x | true`) keeps the verdict (damage stays exit 1,
/// never success); any other write failure is an error.
pub(crate) fn keep_verdict(written: anyhow::Result<()>, exit: crate::exit::Exit) -> anyhow::Result<crate::exit::Exit> {
    match written {
        Ok(()) => Ok(exit),
        Err(e) if is_broken_pipe(&e) => Ok(exit),
        Err(e) => Err(e),
    }
}

/// Whether an error (anywhere in its chain) is a closed pipe on output.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    let broken = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>().is_some_and(broken)
            || e.downcast_ref::<tfr_engine::Error>()
                .is_some_and(tfr_engine::Error::is_broken_pipe)
            || e.downcast_ref::<tfr_core::Error>()
                .and_then(tfr_core::Error::io_error)
                .is_some_and(broken)
    })
}

/// A comfy-table in the house style, fitted to the terminal's width when
/// stdout is one ([`tty_width`]; unconstrained in pipes, so file names are
/// not wrapped).
pub(crate) fn table() -> comfy_table::Table {
    table_of_width(tty_width())
}

/// A comfy-table in the house style, fitted to `width` columns when given.
pub(crate) fn table_of_width(width: Option<u16>) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    if let Some(width) = width {
        table.set_width(width);
    }
    table
}

/// Fewer columns than this is not a width a terminal means (a pseudo
/// terminal nobody sized, as under `script` or some CI runners, reports 0).
const MIN_COLUMNS: u16 = 20;

/// The width tables are fitted to when stdout is a terminal (None when it
/// is not): the terminal's, unless it reports fewer than 20 columns; then
/// `COLUMNS` when that is a number of at least 20; else 80.
pub(crate) fn tty_width() -> Option<u16> {
    if !io::stdout().is_terminal() {
        return None;
    }
    // comfy-table asks the terminal (TIOCGWINSZ) for a table on a tty.
    let reported = comfy_table::Table::new().width();
    Some(fit_width(reported, std::env::var("COLUMNS").ok().as_deref()))
}

/// [`tty_width`]'s rule, given what the terminal reported and `COLUMNS`.
fn fit_width(reported: Option<u16>, columns: Option<&str>) -> u16 {
    match reported {
        Some(w) if w >= MIN_COLUMNS => w,
        _ => columns
            .and_then(|c| c.trim().parse::<u16>().ok())
            .filter(|&c| c >= MIN_COLUMNS)
            .unwrap_or(80),
    }
}

/// Writes one `tfr: ...` line to stderr. A closed or full stderr is ignored
/// (unlike `eprintln!`, which would panic): the exit code still tells.
///
/// Every error and warning passes here, so this is where what a server or
/// a file chose (an HTTP error body, an S3 `<Message>`, a key) is made
/// harmless: control characters are escaped ([`escape_controls`]) and the
/// user, password and query string of an HTTP(S) URL are hidden.
pub(crate) fn error_line(msg: std::fmt::Arguments<'_>) {
    let text = msg.to_string();
    let text = crate::io::remote::redact_text(&text);
    let _ = writeln!(io::stderr().lock(), "tfr: {}", escape_controls(&text));
}

/// A text with each control character that could drive a terminal or
/// break the line shown as a visible escape: C0 (`\n`, `\t`, `\r`, else
/// `\x1b`), DEL and C1 (`\x7f`, `\x9b`), and the line separators and
/// format characters of [`crate::io::input::hidden_char`] (shown
/// `\u{202e}`), which reorder or hide what follows them. Text already escaped (a file name shown as
/// `\x1b`) has no raw control character left and is unchanged.
pub(crate) fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let harmful = crate::io::input::hidden_char;
    if !text.chars().any(harmful) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        crate::io::input::push_escaped(&mut out, c);
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_of_no_width_gets_a_sensible_one() {
        assert_eq!(fit_width(Some(120), Some("40")), 120);
        assert_eq!(fit_width(Some(0), None), 80);
        assert_eq!(fit_width(None, None), 80);
        assert_eq!(fit_width(Some(0), Some("132")), 132);
        assert_eq!(fit_width(Some(3), Some("5")), 80);
        assert_eq!(fit_width(Some(0), Some("wide")), 80);
    }

    #[test]
    fn escapes_what_drives_a_terminal() {
        assert_eq!(escape_controls("plain: a/b.tfrecord"), "plain: a/b.tfrecord");
        assert_eq!(
            escape_controls("x\u{1b}]0;title\u{7}\u{1b}[2J\u{7f}\u{9b}1m\nend\t"),
            "x\\x1b]0;title\\x07\\x1b[2J\\x7f\\x9b1m\\nend\\t"
        );
        assert_eq!(escape_controls("a\u{202e}b\u{2066}c"), "a\\u{202e}b\\u{2066}c");
        // Already escaped: unchanged (no double escaping).
        assert_eq!(escape_controls("bad\\x1bname"), "bad\\x1bname");
        assert_eq!(escape_controls("é ü 日本"), "é ü 日本");
    }
}

//! `tfr view`: a local web viewer of the inputs' records
//! ([`tfr_engine::view`]): the flags become its options, the server
//! listens, the URL is printed (stdout: the URL alone, for scripts; stderr:
//! a line for people), `--open` hands it to the desktop's opener, and the
//! requests are answered until the process is stopped.
//!
//! Stopping: tfr view writes no file, so nothing needs cleaning up; the
//! process's signal policy (`src/signals.rs`) installs its handlers only
//! once an output exists, so Ctrl-C (SIGINT) and SIGTERM end it at once by
//! the signal's default action: a shell sees it killed by the signal (exit
//! 130 for Ctrl-C), as with any other tfr command stopped while reading.

use crate::args::{AnnotateArgs, DatasetTypeArg, HighlightArg, InputArgs, WhereArg};
use crate::exit::Exit;
use crate::output::Ctx;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use tfr_engine::view;

/// Threads answering requests.
const WORKERS: usize = 8;

#[derive(Args, Debug, Clone)]
pub(crate) struct ViewArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    #[command(flatten)]
    pub(crate) payload: DatasetTypeArg,

    #[command(flatten)]
    pub(crate) filter: WhereArg,

    #[command(flatten)]
    pub(crate) annotate: AnnotateArgs,

    #[command(flatten)]
    pub(crate) highlight: HighlightArg,

    /// Listen on this address: 127.0.0.1 (this machine only) by default;
    /// another address (0.0.0.0: every interface) lets anyone who can
    /// reach it read the inputs, and a warning says so.
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1", help_heading = "Server")]
    pub(crate) host: String,

    /// Listen on this port (0, the default: a free one, printed).
    #[arg(long, value_name = "PORT", default_value_t = 0, help_heading = "Server")]
    pub(crate) port: u16,

    /// Open the page in the default browser (xdg-open; open on macOS).
    #[arg(long, help_heading = "Server")]
    pub(crate) open: bool,

    /// Do not use the index files `tfr index` wrote beside the inputs
    /// (NAME.idx): index each plain input by reading it through.
    #[arg(long)]
    pub(crate) no_idx: bool,

    /// The page's title (default: the inputs).
    #[arg(long, value_name = "TEXT")]
    pub(crate) title: Option<String>,
}

pub(crate) fn run(args: &ViewArgs, _ctx: &Ctx) -> Result<Exit> {
    let classes = crate::tfds::inputs::class_names(&args.input.files);
    let annotate = args
        .annotate
        .options(&args.input.files, classes.as_ref(), &args.highlight.highlight)?;
    let filter = args.filter.for_message(None)?;
    let (addr, host_name) = address(&args.host, args.port)?;
    let inputs = args.input.expand()?;
    let count = inputs.len();
    let title = args.title.clone().unwrap_or_else(|| super::default_title(&inputs));
    let opts = view::Options {
        open: args.input.options(),
        ty: args.payload.fixed(),
        filter,
        annotate,
        title,
        host_name,
        use_idx: !args.no_idx,
    };
    let viewer = view::Viewer::start(addr, inputs, opts)?;
    let url = viewer.url();
    if !viewer.addr().ip().is_loopback() {
        crate::output::error_line(format_args!(
            "warning: listening on {}, not a loopback address: anyone who can reach it can read the inputs",
            viewer.addr()
        ));
    }
    let plural = if count == 1 { "" } else { "s" };
    let _ = writeln!(
        std::io::stderr().lock(),
        "tfr view: {url} ({count} input{plural}; Ctrl-C stops)"
    );
    // The URL alone on stdout, for scripts (a closed stdout is no reason
    // to stop).
    let _ = crate::output::write_stdout(format!("{url}\n").as_bytes());
    if args.open {
        open_browser(&url);
    }
    viewer.serve(WORKERS).context("serving the viewer")?;
    Ok(Exit::Success)
}

/// The address to listen on, and `--host` when it is a name (accepted in
/// the `Host` header).
fn address(host: &str, port: u16) -> Result<(SocketAddr, Option<String>)> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok((SocketAddr::new(ip, port), None));
    }
    let addr = (host, port)
        .to_socket_addrs()
        .with_context(|| format!("--host {host}: no such address"))?
        .next()
        .with_context(|| format!("--host {host}: no such address"))?;
    Ok((addr, Some(host.to_string())))
}

/// `--open`: the desktop's opener started on the URL; a warning when it
/// cannot be (the URL is printed all the same).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match started {
        Ok(mut child) => {
            let opener = opener.to_string();
            // Reaped when it ends; a failure said.
            let _ = std::thread::Builder::new().name("tfr-open".into()).spawn(move || {
                if let Ok(status) = child.wait() {
                    if !status.success() {
                        crate::output::error_line(format_args!(
                            "warning: --open: {opener} failed ({status}): open the URL yourself"
                        ));
                    }
                }
            });
        }
        Err(e) => crate::output::error_line(format_args!(
            "warning: --open: cannot start {opener} ({e}): open the URL yourself"
        )),
    }
}

//! The process's policy on signals and `--timeout` (the libraries catch no
//! signal and never exit): on a terminating signal, the temporary outputs
//! the libraries registered are removed and their uploads aborted
//! (`cleanup::remove_pending`), then tfr dies by that signal; past
//! `--timeout`, the same clean-up and exit 2.

use crate::io::output_file::cleanup;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Set when a terminating signal arrived (its clean-up then ends the
/// process by it).
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Arranges for the clean-up to run on a signal, from the first output on.
pub(crate) fn arm() {
    cleanup::on_first_registration(install);
}

/// Parks the calling thread for good once a terminating signal has
/// arrived: the clean-up thread ends the process by that signal, which
/// must win over an ordinary exit.
pub(crate) fn wait_if_signalled() {
    if SIGNALLED.load(Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// On every terminating signal that can be caught: remove the temporary
/// files and run the hooks, then die by that same signal (its default
/// action, re-raised), so that a shell sees a process killed by it (`$?`
/// is 128 + the signal) and a loop around tfr stops on Ctrl-C. A second
/// signal during the clean-up (an upload's abort can take seconds) dies by
/// that one at once. SIGPIPE stays ignored (a closed output pipe is a
/// write error, handled as success).
#[cfg(unix)]
fn install() {
    use signal_hook::consts::signal::*;
    let ignored = ignored_on_entry();
    // A signal tfr was started with ignored stays ignored: `nohup`
    // (SIGHUP), a background job of a shell without job control (SIGINT,
    // SIGQUIT) mean the caller does not want it to end tfr.
    let caught: Vec<i32> = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
    ]
    .into_iter()
    .filter(|&sig| ignored & (1u64 << (sig - 1)) == 0)
    .collect();
    let Ok(mut signals) = signal_hook::iterator::Signals::new(caught) else {
        return;
    };
    let _ = std::thread::Builder::new().name("tfr-signals".into()).spawn(move || {
        let mut signals = signals.forever();
        if let Some(sig) = signals.next() {
            SIGNALLED.store(true, Ordering::SeqCst);
            // The clean-up runs beside this thread, which waits for a
            // second signal (here, when no thread could be started).
            let cleaning = std::thread::Builder::new().name("tfr-cleanup".into()).spawn(move || {
                cleanup::remove_pending();
                die_by(sig);
            });
            if cleaning.is_err() {
                cleanup::remove_pending();
                die_by(sig);
            }
            if let Some(again) = signals.next() {
                die_by(again);
            }
        }
    });
}

/// The signals ignored when tfr started (bit `n - 1` for signal `n`), from
/// Linux's /proc/self/status; none known elsewhere.
#[cfg(unix)]
fn ignored_on_entry() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
            u64::from_str_radix(line.trim(), 16).ok()
        })
        .unwrap_or(0)
}

/// Ends the process by `sig` with its default action (terminate, or dump
/// core for SIGQUIT and SIGXCPU); 128 + `sig` should that fail.
#[cfg(unix)]
fn die_by(sig: i32) -> ! {
    let _ = signal_hook::low_level::emulate_default_handler(sig);
    std::process::exit(128 + sig)
}

#[cfg(not(unix))]
fn install() {
    let _ = ctrlc::set_handler(|| {
        cleanup::remove_pending();
        std::process::exit(130);
    });
}

/// `--timeout`: when it was given (the command's start) and the limit.
static TIMEOUT: OnceLock<(Instant, Duration)> = OnceLock::new();

/// The command line's `--timeout`: a command that reads or writes a URL
/// and has not finished `limit` after now ends with one error line and
/// exit 2 (temporary outputs removed, uploads aborted). Off by default: a
/// stalled connection then fails after 30 s without a byte (retried up to
/// 4 times); one that trickles bytes is waited for.
pub(crate) fn set_timeout(limit: Duration) {
    let _ = TIMEOUT.set((Instant::now(), limit));
    crate::io::remote::on_first_url(start_deadline);
}

/// The `--timeout` watchdog, started when the first URL is used.
fn start_deadline() {
    let Some(&(start, limit)) = TIMEOUT.get() else { return };
    let _ = std::thread::Builder::new()
        .name("tfr-timeout".to_string())
        .spawn(move || {
            std::thread::sleep((start + limit).saturating_duration_since(Instant::now()));
            crate::output::error_line(format_args!(
                "timed out: the command did not finish within {} (--timeout)",
                humane(limit)
            ));
            cleanup::remove_pending();
            std::process::exit(crate::exit::Exit::Error as i32);
        });
}

/// A duration as given (`90s`, `1.5s`).
fn humane(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

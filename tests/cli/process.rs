//! Process behaviour: exit codes, closed pipes, help, version, colour.

use crate::util::*;

#[test]
fn cli_definition_is_consistent() {
    tfr::cli::command().debug_assert();
}

#[test]
fn version_and_help() {
    let out = tfr(&["--version"]).run().ok();
    assert_eq!(out, format!("tfr {}\n", env!("CARGO_PKG_VERSION")));
    let help = tfr(&["--help"]).run().ok();
    let names: Vec<String> = tfr::cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    // to-parquet, to-arrow, from-parquet, from-arrow with the `parquet` feature.
    let columnar = if cfg!(feature = "parquet") { 4 } else { 0 };
    // view with the `view` feature.
    let view = usize::from(cfg!(feature = "view"));
    assert_eq!(names.len(), 20 + columnar + view, "{names:?}");
    for cmd in &names {
        assert!(help.contains(cmd.as_str()), "{cmd} missing from help:\n{help}");
    }
    for cmd in &names {
        let help = tfr(&[cmd.as_str(), "--help"]).run().ok();
        assert!(
            help.contains("Examples:"),
            "`tfr {cmd} --help` has no examples:\n{help}"
        );
    }
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    // Like every other error: one `tfr: ` line (fails() checks it), with
    // clap's list, tip and usage folded into it.
    let err = tfr(&["count", "--no-such-flag"]).run().fails(2);
    assert!(err.contains("unexpected argument '--no-such-flag'"), "{err}");
    assert!(err.contains("usage: tfr count"), "{err}");
    let err = tfr(&["frobnicate"]).run().fails(2);
    assert!(err.contains("unrecognized subcommand 'frobnicate'"), "{err}");
    let err = tfr(&["reshard", "x.tfrecord"]).run().fails(2);
    assert!(
        err.contains("the following required arguments were not provided: --output <OUT>;"),
        "{err}"
    );
    let err = tfr(&["cat", "-n", "many", "x.tfrecord"]).run().fails(2);
    assert!(err.contains("invalid value 'many' for '--limit <N>'"), "{err}");
    let err = tfr(&["cat", "--type", "foo", "x.tfrecord"]).run().fails(2);
    assert!(
        err.ends_with("[possible values: auto, example, sequence, elwc, raw, event]"),
        "{err}"
    );
    // `tfr` alone: the whole help on stderr (the commands to choose from), exit 2.
    let bare = tfr(&[]).run();
    assert_eq!(bare.code, 2);
    assert!(
        bare.stderr.contains("Usage: tfr") && bare.stderr.contains("Commands:"),
        "{}",
        bare.stderr
    );
}

#[test]
fn missing_file_is_one_line_exit_2() {
    let line = tfr(&["count", "/no/such/file.tfrecord"]).run().fails(2);
    assert!(line.contains("/no/such/file.tfrecord"), "{line}");
    assert_eq!(line.lines().count(), 1);
}

#[test]
fn glob_without_match_is_an_error() {
    let dir = Dir::new();
    let line = dir.tfr(&["count", "nothing-*.tfrecord"]).run().fails(2);
    assert!(line.contains("no files match"), "{line}");
}

#[test]
fn stdin_twice_is_refused() {
    let line = tfr(&["count", "-", "-"]).stdin(b"").run().fails(2);
    assert!(line.contains("stdin"), "{line}");
}

/// Regression: output into a closed pipe must end quietly with exit 0.
#[test]
fn closed_pipe_is_quiet_success() {
    let dir = Dir::new();
    let payload = vec![b'x'; 1000];
    let many: Vec<&[u8]> = (0..20_000).map(|_| &payload[..]).collect();
    let path = dir.write("big.tfrecord", &records(&many));
    tfr(&["cat", "--type", "raw", &path]).quiet_when_stdout_closes();
}

#[test]
fn colour_only_when_asked() {
    let dir = Dir::new();
    let path = dir.write("one.tfrecord", &records(&[b""]));
    let plain = tfr(&["cat", &path]).run().ok();
    assert!(!plain.contains('\x1b'));
    let forced = tfr(&["cat", "--color", "always", &path]).run().ok();
    assert!(forced.contains('\x1b'));
    let never = tfr(&["cat", "--color", "never", &path]).env("NO_COLOR", "1").run().ok();
    assert!(!never.contains('\x1b'));
}

/// Progress bars: shown when stderr is a terminal (here a pseudo-terminal
/// made by `script`), never when it is a pipe or file, never with --quiet.
#[test]
#[ignore = "slow: tfr in a pseudo-terminal behind a 1.5 s trickle of input, three times: cargo test -- --include-ignored"]
fn progress_only_on_a_terminal() {
    if std::process::Command::new("script").arg("--version").output().is_err() {
        return skip_or_fail("`script` (util-linux) is not installed");
    }
    let dir = Dir::new();
    let path = dir.write("x.tfrecord", &records(&[&b"abc"[..]; 100]));
    let bin = env!("CARGO_BIN_EXE_tfr");
    // A slow stdin keeps the command running long enough for the bar to draw.
    let feed = format!("(cat '{path}'; sleep 1.5) | '{bin}'");
    let in_pty = |args: &str| -> String {
        let out = std::process::Command::new("script")
            .args(["-qec", &format!("{feed} {args}"), "/dev/null"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap())
            .env("TERM", "xterm")
            .output()
            .expect("script");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let shown = in_pty("count");
    assert!(shown.contains("/s"), "no progress bar on a terminal: {shown:?}");
    // The bar is cleared before the count is printed, alone on its line
    // (stdout and stderr share the terminal: "100" is always there); on a
    // terminal the count says what it did not check.
    let note = "  (record headers checked, payloads not read: tfr verify-crc checks them)";
    assert!(
        shown.ends_with(&format!("\r\x1b[2K100{note}\r\n")),
        "{:?}",
        &shown[shown.len().saturating_sub(100)..]
    );
    let quiet = in_pty("count --quiet");
    assert_eq!(quiet, format!("100{note}\r\n"), "--quiet still shows progress");
    // Piped: stderr stays empty.
    let out = std::process::Command::new("sh")
        .args(["-c", &format!("{feed} count")])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "100\n");
    assert!(out.stderr.is_empty(), "{:?}", String::from_utf8_lossy(&out.stderr));
}

//! The one line plain `cargo test` ends with: how many tests it left out
//! and how to run them. A test target without libtest's harness
//! (`harness = false` in Cargo.toml), so what it prints is shown as is.
//!
//! The tests of `tests/cli/` that start an external tool are
//! `#[ignore = "external: …"]`, the few whose data or limits take long
//! `#[ignore = "slow: …"]`; `cargo test -- --include-ignored` (README's
//! whole-suite command, `.ci/run`) runs them all. This binary gets the
//! same arguments as the others: with `--ignored` or `--include-ignored`
//! those tests ran, so it says nothing; with `--list` (`cargo test --
//! --list`, cargo-nextest's discovery) it lists no test and says nothing;
//! with a filter (`cargo test FILTER`) it says nothing either.

use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let asked = |flag: &str| args.iter().any(|a| a == flag);
    if asked("--ignored") || asked("--include-ignored") || asked("--list") || filtered(&args) {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let (external, slow) = count_ignored(&dir);
    let mut kinds = Vec::new();
    if external > 0 {
        kinds.push(format!("{external} external-tool"));
    }
    if slow > 0 {
        kinds.push(format!("{slow} slow"));
    }
    if kinds.is_empty() {
        return;
    }
    println!(
        "note: {} tests were not run (listed as ignored above); run them with: \
         cargo test -- --include-ignored (CI=true fails a test whose tool is missing; .ci/run installs them)",
        kinds.join(" and ")
    );
}

/// Whether libtest's arguments name a filter (`cargo test FILTER`): then
/// the ignored tests may not be the ones left out, and nothing is said.
fn filtered(args: &[String]) -> bool {
    // libtest's options that take the next argument as their value.
    const VALUED: [&str; 7] = [
        "--test-threads",
        "--skip",
        "--logfile",
        "--format",
        "--color",
        "-Z",
        "--shuffle-seed",
    ];
    let mut value_next = false;
    for arg in args {
        if std::mem::take(&mut value_next) {
            continue;
        }
        if VALUED.contains(&arg.as_str()) {
            value_next = true;
        } else if !arg.starts_with('-') {
            return true;
        }
    }
    false
}

/// The `#[ignore = "external: …"]` and `#[ignore = "slow: …"]` attributes
/// in the `.rs` files of `dir` (tests/cli/suite.rs checks that every
/// ignored test says one of the two).
fn count_ignored(dir: &Path) -> (usize, usize) {
    let (mut external, mut slow) = (0, 0);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 0);
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for line in text.lines().map(str::trim_start) {
            if line.starts_with("#[ignore = \"external:") {
                external += 1;
            } else if line.starts_with("#[ignore = \"slow:") {
                slow += 1;
            }
        }
    }
    (external, slow)
}

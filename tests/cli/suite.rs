//! The test suite itself: every ignored test says why in a form
//! tests/ignored.rs counts ("external: …" for a test that starts a tool
//! tfr does not ship, "slow: …" for one whose data or limits take long)
//! and how to run it, so the line plain `cargo test` ends with is true.

use std::path::Path;

#[test]
fn every_ignored_test_says_external_or_slow_and_how_to_run_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let mut bad = Vec::new();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_start();
            if !line.starts_with("#[ignore") {
                continue;
            }
            seen += 1;
            let kind = line.starts_with("#[ignore = \"external: ") || line.starts_with("#[ignore = \"slow: ");
            if !kind || !line.ends_with(": cargo test -- --include-ignored\"]") {
                bad.push(format!("{}:{}: {line}", path.display(), n + 1));
            }
        }
    }
    assert!(seen > 0, "no ignored test found in {}", dir.display());
    assert!(
        bad.is_empty(),
        "an ignored test's reason must be \"external: …\" or \"slow: …\" ending in \
         \": cargo test -- --include-ignored\" (tests/ignored.rs counts them):\n{}",
        bad.join("\n")
    );
}

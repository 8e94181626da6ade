//! The layers of ARCHITECTURE.md depend one way: no module imports from a
//! layer below it, and nothing outside the command line imports from it.

use std::path::Path;

/// Each layer (a folder or file under src/) and the crate modules it must
/// not name.
const RULES: &[(&str, &[&str])] = &[
    (
        "io",
        &[
            "record", "example", "pipeline", "schema", "args", "output", "exit", "cmd", "cli",
        ],
    ),
    (
        "record",
        &["example", "pipeline", "schema", "args", "output", "exit", "cmd", "cli"],
    ),
    (
        "example",
        &[
            "io", "record", "pipeline", "schema", "args", "output", "exit", "cmd", "cli",
        ],
    ),
    ("pipeline", &["schema", "args", "output", "exit", "cmd", "cli"]),
    ("schema", &["args", "output", "exit", "cmd", "cli"]),
    ("args.rs", &["cmd", "cli", "output"]),
    ("output.rs", &["cmd", "cli", "args"]),
    ("exit.rs", &["cmd", "cli"]),
    ("cmd", &["cli"]),
];

fn rust_files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            rust_files(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn layers_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut broken = Vec::new();
    let mut checked = 0;
    for (layer, forbidden) in RULES {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "no sources for layer {layer}");
        for file in files {
            checked += 1;
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                for module in *forbidden {
                    for pattern in [
                        format!("crate::{module}::"),
                        format!("crate::{module};"),
                        format!("crate::{{{module}"),
                    ] {
                        if line.contains(&pattern) {
                            broken.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 40, "only {checked} files checked");
    assert!(
        broken.is_empty(),
        "imports against the layering:\n{}",
        broken.join("\n")
    );
}

//! The layers of ARCHITECTURE.md depend one way: no module imports from a
//! layer below it, and nothing outside the command line imports from it.
//! Between the crates the compiler holds the line (tfr-core cannot name
//! tfr-engine or tfr, tfr-engine cannot name tfr); within a crate, this
//! test does.

use std::path::Path;

/// Each layer (a folder or file under its crate's src/) and the crate
/// modules it must not name.
const RULES: &[(&str, &[&str])] = &[
    (
        "io",
        &[
            "record", "example", "pipeline", "schema", "columnar", "report", "args", "output", "exit", "cmd", "cli",
        ],
    ),
    (
        "record",
        &[
            "example", "pipeline", "schema", "columnar", "report", "args", "output", "exit", "cmd", "cli",
        ],
    ),
    (
        "example",
        &[
            "io", "record", "pipeline", "schema", "columnar", "report", "args", "output", "exit", "cmd", "cli",
        ],
    ),
    (
        "pipeline",
        &["schema", "columnar", "report", "args", "output", "exit", "cmd", "cli"],
    ),
    (
        "schema",
        &["columnar", "report", "args", "output", "exit", "cmd", "cli"],
    ),
    ("columnar", &["report", "args", "output", "exit", "cmd", "cli"]),
    (
        "access",
        &[
            "schema", "columnar", "annotate", "report", "formats", "view", "args", "output", "exit", "cmd", "cli",
        ],
    ),
    (
        "parse",
        &[
            "access", "columnar", "annotate", "report", "formats", "view", "args", "output", "exit", "cmd", "cli",
        ],
    ),
    (
        "annotate",
        &[
            "io", "record", "pipeline", "schema", "columnar", "report", "formats", "args", "output", "exit", "cmd",
            "cli",
        ],
    ),
    ("report", &["args", "output", "exit", "cmd", "cli"]),
    ("formats", &["args", "output", "exit", "cmd", "cli"]),
    ("view", &["formats", "args", "output", "exit", "cmd", "cli"]),
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

/// The first path segment of each top-level item of a `{…}` use group
/// (`text` starts just after the opening brace).
fn group_heads(text: &str) -> Vec<String> {
    let (mut heads, mut depth, mut item) = (Vec::new(), 0, String::new());
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => heads.push(std::mem::take(&mut item)),
            _ if depth == 0 => item.push(c),
            _ => {}
        }
    }
    heads.push(item);
    heads
        .iter()
        .map(|i| i.trim().split("::").next().unwrap_or("").trim().to_string())
        .filter(|h| !h.is_empty())
        .collect()
}

#[test]
fn group_heads_reads_nested_groups() {
    assert_eq!(
        group_heads("io::{self, X}, record,\n  example::view::Y };"),
        ["io", "record", "example"]
    );
}

#[test]
fn layers_depend_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for (layer, forbidden) in RULES {
        let krate = match *layer {
            "io" | "record" | "example" => "crates/tfr-core/src",
            "pipeline" | "schema" | "columnar" | "access" | "parse" | "annotate" | "report" | "formats" | "view" => {
                "crates/tfr-engine/src"
            }
            _ => "src",
        };
        let mut files = Vec::new();
        rust_files(&root.join(krate).join(layer), &mut files);
        assert!(!files.is_empty(), "no sources for layer {layer}");
        for file in files {
            checked += 1;
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                for module in *forbidden {
                    for pattern in [format!("crate::{module}::"), format!("crate::{module};")] {
                        if line.contains(&pattern) {
                            broken.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                        }
                    }
                }
            }
            // `use crate::{a, b::c, …}` groups, possibly over several lines.
            for (at, _) in text.match_indices("crate::{") {
                let line = text[..at].lines().count().max(1);
                for module in group_heads(&text[at + "crate::{".len()..]) {
                    if forbidden.contains(&module.as_str()) {
                        broken.push(format!("{}:{line}: crate::{{… {module} …}}", file.display()));
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

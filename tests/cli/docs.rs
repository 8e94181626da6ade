//! Completions and man pages: generated from the clap definition, committed
//! in completions/ and man/, and checked here for staleness.
//!
//! Regenerate them with: `TFR_REGENERATE=1 cargo test --test cli docs`

use crate::util::skip_or_fail;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every generated file: path relative to the repository, and its content.
fn generated() -> Vec<(String, Vec<u8>)> {
    use clap_complete::Shell;
    let mut files = Vec::new();
    for (shell, name) in [
        (Shell::Bash, "tfr.bash"),
        (Shell::Zsh, "_tfr"),
        (Shell::Fish, "tfr.fish"),
        (Shell::PowerShell, "_tfr.ps1"),
        (Shell::Elvish, "tfr.elv"),
    ] {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut tfr::cli::command(), "tfr", &mut buf);
        files.push((format!("completions/{name}"), buf));
    }
    let cmd = tfr::cli::command();
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut buf).expect("render man");
    files.push(("man/tfr.1".to_string(), buf));
    for sub in cmd.get_subcommands() {
        let name: &'static str = Box::leak(format!("tfr-{}", sub.get_name()).into_boxed_str());
        let sub = sub.clone().name(name).version(env!("CARGO_PKG_VERSION"));
        let mut buf = Vec::new();
        clap_mangen::Man::new(sub).render(&mut buf).expect("render man");
        files.push((format!("man/{name}.1"), buf));
    }
    files
}

#[test]
fn completions_and_man_pages_are_current() {
    let regenerate = std::env::var_os("TFR_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (rel, content) in generated() {
        let path = root().join(&rel);
        if regenerate {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &content).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(&content[..]) {
            stale.push(rel);
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}: run `TFR_REGENERATE=1 cargo test --test cli docs` and commit them"
    );
}

#[test]
fn bash_completion_lists_every_command() {
    let bash = std::fs::read_to_string(root().join("completions/tfr.bash")).expect("completions/tfr.bash");
    for sub in tfr::cli::command().get_subcommands() {
        assert!(bash.contains(sub.get_name()), "{} missing", sub.get_name());
    }
}

/// Sources the committed completion in a real bash and asks for completions
/// after `tfr ` and after `tfr count --`.
#[test]
fn bash_completion_works_in_bash() {
    let script = root().join("completions/tfr.bash");
    let run = |words: &str, cword: usize| -> String {
        let prog = format!(
            "source '{}'; COMP_WORDS=({words}); COMP_CWORD={cword}; _tfr tfr \"${{COMP_WORDS[$COMP_CWORD]}}\" \"${{COMP_WORDS[$COMP_CWORD-1]}}\"; echo \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(prog)
            .output()
            .expect("bash");
        String::from_utf8(out.stdout).unwrap()
    };
    let top = run("tfr ''", 1);
    for sub in tfr::cli::command().get_subcommands() {
        assert!(
            top.split_whitespace().any(|w| w == sub.get_name()),
            "{} not offered: {top}",
            sub.get_name()
        );
    }
    let flags = run("tfr count --", 2);
    assert!(flags.contains("--json") && flags.contains("--compression"), "{flags}");
}

/// The man page renders with `man -l` (when man is installed).
#[test]
fn man_page_renders() {
    let Ok(out) = std::process::Command::new("man")
        .arg("-l")
        .arg(root().join("man/tfr.1"))
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
    else {
        return skip_or_fail("man (man-db) is not installed");
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("TFRecord"), "{text}");
}

//! The Python reader `tfr_cli.TFRecordDataset` (issue 48), judged by
//! TensorFlow: tests/oracle/reader_make.py (run with the TensorFlow venv,
//! `TFR_TF_PYTHON`) writes the TFRecord files and what
//! tf.io.parse_single_example returns or refuses for them into a temporary
//! directory; tests/python/reader_check.py (run with the reader venv,
//! `TFR_READER_PYTHON`, else `target/venv-reader` as `.ci/run` makes it:
//! numpy, pyarrow, torch, grain, jax, tfrecord) reads them through the
//! reader and compares, inside real torch DataLoader and grain workers too;
//! tests/python/training_examples.py runs the docs' training-loop snippets
//! (PyTorch, JAX + Grain) on the same files.
//! Skipped with the reason when a venv is missing; a failure under
//! `CI=true`.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `python` has the packages the checks use (without importing
/// them: torch's import costs a second of CPU, which the checks pay anyway).
fn has_packages(python: &Path) -> bool {
    Command::new(python)
        .args([
            "-c",
            "import importlib.util as u, sys; \
             sys.exit(not all(u.find_spec(m) for m in ('numpy', 'pyarrow', 'torch', 'grain', 'tfrecord')))",
        ])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn output_of(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The venvs, or `None` after [`skip_or_fail`].
fn pythons() -> Option<(PathBuf, PathBuf)> {
    if !python_has(&tf_python(), "tensorflow") {
        skip_or_fail("TensorFlow is not installed (TFR_TF_PYTHON, or target/venv-tf)");
        return None;
    }
    // The venv with this checkout's wheel installed (built once per run
    // by tests/cli/wheel.rs).
    let python = match crate::wheel::reader_python() {
        Ok(python) if has_packages(&python) => python,
        Ok(python) => {
            skip_or_fail(&format!(
                "{} lacks numpy, pyarrow, torch, grain or tfrecord (.ci/run installs them into target/venv-reader)",
                python.display()
            ));
            return None;
        }
        Err(why) => {
            skip_or_fail(&why);
            return None;
        }
    };
    Some((tf_python(), python))
}

/// reader_make.py's files in `dir`/data, then `script` (under
/// tests/python) run on them by the reader venv: its stdout.
fn make_then_run(tf: &Path, python: &Path, script: &str, args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Dir::new();
    let made = output_of(
        Command::new(tf)
            .arg(root.join("tests/oracle/reader_make.py"))
            .arg(dir.path("data"))
            .args(["--tfr", env!("CARGO_BIN_EXE_tfr")])
            .env("TF_CPP_MIN_LOG_LEVEL", "3"),
        "reader_make.py",
    );
    assert!(made.contains("\"records\": 120"), "{made}");
    output_of(
        Command::new(python)
            .arg(root.join("tests/python").join(script))
            .arg(dir.path("data"))
            .args(args)
            // Out of the checkout: `tfr_cli` is the installed wheel's,
            // not python/tfr_cli without its native module.
            .current_dir(dir.path(""))
            .env("CUDA_VISIBLE_DEVICES", "")
            .env("PYTHONDONTWRITEBYTECODE", "1"),
        script,
    )
}

#[test]
#[ignore = "external: TensorFlow, torch and grain (TFR_TF_PYTHON, TFR_READER_PYTHON): cargo test -- --include-ignored"]
fn the_python_reader_reads_what_tensorflow_parses() {
    let Some((tf, python)) = pythons() else { return };
    let out = make_then_run(&tf, &python, "reader_check.py", &[env!("CARGO_BIN_EXE_tfr")]);
    assert!(out.contains("all checks passed"), "{out}");
}

#[test]
#[ignore = "external: TensorFlow, torch, grain and jax (TFR_TF_PYTHON, TFR_READER_PYTHON): cargo test -- --include-ignored"]
fn the_training_loop_snippets_run() {
    let Some((tf, python)) = pythons() else { return };
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/GUIDE.md");
    let out = make_then_run(&tf, &python, "training_examples.py", &[guide.to_str().unwrap()]);
    assert!(out.contains("training examples ran"), "{out}");
}

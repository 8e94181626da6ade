//! TensorFlow itself reads what tfr writes: the oracle scripts of
//! tests/oracle run (side by side, in children of one Python process that
//! imported TensorFlow) against the built binary with a Python that has
//! TensorFlow 2.21 (`TFR_TF_PYTHON`, else `.venv-tf/bin/python`, else
//! `target/venv-tf/bin/python`, which `.ci/run` installs). Skipped with
//! the reason on a machine without one; a failure under `CI=true`.
//!
//! - `check_from_jsonl.py`: from-jsonl output in every compression
//!   (SNAPPY included) read by `tf.data.TFRecordDataset` as the intended
//!   messages, accepted by TensorFlow's parsers; every fixture round-trips;
//!   protojson equals MessageToJson; floats read back exactly.
//! - `snappy.py`: TensorFlow's SNAPPY framing as measured, and TensorFlow
//!   reading tfr's SNAPPY output (a 1.5 MB record included).
//! - `reshape.py`: TensorFlow reading `reshard`'s gzip shards (and zlib
//!   shards cut by size) back as the source's records in order, and
//!   `split --by`'s outputs.
//! - `shuffle.py`: `tfr shuffle` output (plain, SNAPPY, gzip shards; in
//!   memory and spilled) read by TensorFlow as the same payloads.
//! - `columnar.py` (needs pyarrow too): pyarrow reading `to-parquet` and
//!   `to-arrow` output with the stated types and values, and TensorFlow
//!   parsing what `from-parquet` makes of a file pyarrow wrote.
//! - `formats.py`: the webdataset library reading `to-wds` shards (and
//!   `from-wds` reading webdataset's TarWriter), Python's csv module
//!   reading `to-csv`, TensorFlow decoding `extract`'s images (needs
//!   webdataset in the same Python: `.ci/run` installs it).

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tf_python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("TFR_TF_PYTHON").map(PathBuf::from),
        Some(root.join(".venv-tf/bin/python")),
        Some(root.join("target/venv-tf/bin/python")),
    ];
    candidates.into_iter().flatten().find(|p| p.exists())
}

/// Runs the oracle scripts (tests/oracle/run_tf_oracles.py: TensorFlow
/// imported once, about 3.5 s of CPU each time, then a child forked per
/// script, the scripts side by side).
fn run_oracles(scripts: &[&str]) {
    let Some(python) = tf_python() else {
        skip_or_fail("no Python with TensorFlow 2.21 (TFR_TF_PYTHON, .venv-tf or target/venv-tf)");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(&python)
        .arg(root.join("tests/oracle/run_tf_oracles.py"))
        .args(["--tfr", env!("CARGO_BIN_EXE_tfr")])
        .args(scripts)
        .current_dir(root)
        .env("TF_CPP_MIN_LOG_LEVEL", "3")
        .output()
        .expect("run the oracle scripts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "an oracle failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for script in scripts {
        assert!(
            stdout.contains(&format!("==== {script}: passed")),
            "{script}:\n{stdout}"
        );
    }
}

/// Every script above, each with its own checks (their output names each).
#[test]
#[ignore = "external: TensorFlow 2.21 (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn tensorflow_and_the_python_readers_read_what_tfr_writes() {
    let mut scripts = vec![
        "check_from_jsonl.py",
        "snappy.py",
        "reshape.py",
        "shuffle.py",
        "formats.py",
    ];
    if cfg!(feature = "parquet") {
        scripts.push("columnar.py");
    }
    run_oracles(&scripts);
}

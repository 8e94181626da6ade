//! `tfr_cli.ray.read_tfrecords` on a local Ray cluster (issue 31): the
//! script tests/oracle/ray_check.py, run with a Python that has Ray Data
//! and pyarrow (`TFR_RAY_PYTHON`, else the TensorFlow venv's,
//! `target/venv-tf`, where `.ci/run` installs them) against the built
//! binary and the checkout's `python/tfr_cli`. Skipped with the reason
//! without one; a failure under `CI=true`.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn ray_python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("TFR_RAY_PYTHON").map(PathBuf::from),
        std::env::var_os("TFR_TF_PYTHON").map(PathBuf::from),
        Some(root.join(".venv-tf/bin/python")),
        Some(root.join("target/venv-tf/bin/python")),
    ];
    // Whether the packages are there, without importing them (importing
    // ray.data costs a second of CPU, which ray_check.py pays anyway).
    candidates.into_iter().flatten().find(|p| {
        Command::new(p)
            .args([
                "-c",
                "import importlib.util as u, os, sys; r, a = u.find_spec('ray'), u.find_spec('pyarrow'); \
                 sys.exit(not (r and a and os.path.isfile(os.path.join(r.submodule_search_locations[0], 'data', '__init__.py'))))",
            ])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
#[ignore = "external: Ray Data (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn ray_reads_tfrecords_through_tfr() {
    let Some(python) = ray_python() else {
        skip_or_fail("no Python with Ray Data and pyarrow (TFR_RAY_PYTHON, or target/venv-tf with ray[data])");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let home = Dir::new();
    let out = Command::new(&python)
        .arg(root.join("tests/oracle/ray_check.py"))
        .args(["--tfr", env!("CARGO_BIN_EXE_tfr")])
        .current_dir(root)
        // Ray writes its session files under the home directory and /tmp.
        .env("HOME", home.path(""))
        .env("RAY_USAGE_STATS_ENABLED", "0")
        .env_remove("RAY_ADDRESS")
        .output()
        .expect("run ray_check.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "ray_check.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
}

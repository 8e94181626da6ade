//! A TFDS dataset folder under an object-store prefix (moto's S3, started
//! by remote.rs): `tfr info` reads its metadata by URL, `--split` picks
//! shards and byte ranges of objects, class names show, `info --check`
//! reads every object; the results equal the local folder's.

use crate::remote::*;
use crate::util::*;

#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn a_tfds_folder_in_a_bucket_reads_like_the_local_one() {
    // The server runs while `_server` lives.
    let Some(Moto {
        py,
        endpoint,
        env,
        server: _server,
        ..
    }) = moto()
    else {
        return;
    };
    let local = data_dir().join("tfds/tfr_toy/1.0.0");
    for entry in std::fs::read_dir(&local).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let key = format!("tfds/tfr_toy/1.0.0/{name}");
        py.call(&["s3-put", &endpoint, "bkt", &key, path.to_str().unwrap()]);
    }
    let url = "s3://bkt/tfds/tfr_toy/1.0.0/";
    let here = local.to_string_lossy().into_owned();
    let remote_info = tfr_env(&env, &["info", url, "--json"]).run().ok();
    let local_info = tfr(&["info", &here, "--json"]).run().ok();
    let strip = |text: &str| {
        let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
        v.as_object_mut().unwrap().remove("folder");
        v
    };
    assert_eq!(strip(&remote_info), strip(&local_info));
    for spec in ["train", "test[:50%]", "train[5:20]", "train[-3:]+test[:1]"] {
        let got = tfr_env(&env, &["to-jsonl", url, "--split", spec]).run().ok();
        let want = tfr(&["to-jsonl", &here, "--split", spec]).run().ok();
        assert_eq!(got, want, "--split {spec}");
    }
    let head = tfr_env(
        &env,
        &["head", "-n", "1", url, "--split", "test", "--features", "label"],
    )
    .run()
    .ok();
    assert!(head.contains("value: 1  # dog"), "{head}");
    let checked = tfr_env(&env, &["info", "--check", url]).run().ok();
    assert!(checked.contains("checked: all 6 shards"), "{checked}");
    // A shard that is not there: --check names it, exit 1.
    py.call(&[
        "s3-put",
        &endpoint,
        "bkt",
        "short/tfr_toy/1.0.0/dataset_info.json",
        local.join("dataset_info.json").to_str().unwrap(),
    ]);
    let r = tfr_env(&env, &["info", "--check", "s3://bkt/short/tfr_toy/1.0.0/"]).run();
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("split train shard 0 of 3: missing"), "{}", r.stderr);
}

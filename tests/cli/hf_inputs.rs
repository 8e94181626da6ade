//! `tfr from-parquet` of Parquet files Hugging Face `datasets` writes
//! (issue 43): an `Image()` column built from local files holds only their
//! paths, and the conversion says so loudly (or reads the files, with
//! `--read-paths DIR`); one with the images' bytes converts without a word.

use crate::util::*;

/// The Python with `datasets` and Pillow: `TFR_HF_PYTHON`, else
/// `.ci/run`'s `target/venv-hf`.
fn hf_python() -> std::path::PathBuf {
    std::env::var_os("TFR_HF_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/venv-hf/bin/python"))
}

/// The bytes of the images `image/bytes` of `file` holds, extracted.
fn image_bytes(dir: &Dir, file: &str) -> u64 {
    let out = format!("{file}.images");
    dir.tfr(&["extract", file, "--feature", "image/bytes", "-o", &out])
        .run()
        .ok();
    std::fs::read_dir(dir.path(&out))
        .unwrap()
        .map(|f| f.unwrap().metadata().unwrap().len())
        .sum()
}

#[test]
#[ignore = "external: Hugging Face datasets (TFR_HF_PYTHON): cargo test -- --include-ignored"]
fn an_image_column_of_paths_only_is_said_loudly() {
    let dir = Dir::new();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/hf_images.py");
    let made = std::process::Command::new(hf_python())
        .current_dir(dir.path(""))
        .arg(&script)
        .output();
    let png_bytes: u64 = match &made {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().parse().unwrap(),
        _ => {
            skip_or_fail("no Python with datasets and Pillow (pip install datasets pillow into target/venv-hf)");
            return;
        }
    };
    let r = dir
        .tfr(&["from-parquet", "local.parquet", "-o", "local.tfrecord"])
        .run();
    r.warns();
    assert!(
        r.stderr.contains(
            "tfr: warning: column image: 3 row(s) (first in local.parquet) hold a path (image/path) but no bytes"
        ),
        "{}",
        r.stderr
    );
    let printed = dir.tfr(&["to-jsonl", "local.tfrecord"]).run().ok();
    assert!(
        printed.contains("\"image/path\"") && !printed.contains("image/bytes"),
        "{printed}"
    );
    // --read-paths DIR: the files read, from DIR only.
    dir.tfr(&[
        "from-parquet",
        "local.parquet",
        "--read-paths",
        "imgs",
        "-o",
        "read.tfrecord",
    ])
    .run()
    .ok();
    assert_eq!(
        image_bytes(&dir, "read.tfrecord"),
        png_bytes,
        "the PNG files' bytes, read"
    );
    std::fs::create_dir(dir.path("other")).unwrap();
    let e = dir
        .tfr(&[
            "from-parquet",
            "local.parquet",
            "--read-paths",
            "other",
            "-o",
            "x.tfrecord",
        ])
        .run()
        .fails(2);
    assert!(
        e.contains("local.parquet: row 0: column image/bytes: '")
            && e.contains("(--read-paths reads only files under it)"),
        "{e}"
    );
    assert!(!dir.path("x.tfrecord").exists());
    // The images' bytes in the dataset: no warning, the bytes in the records.
    dir.tfr(&["from-parquet", "embedded.parquet", "-o", "embedded.tfrecord"])
        .run()
        .ok();
    let stats = dir.tfr(&["stats", "--format", "json", "embedded.tfrecord"]).run().ok();
    assert!(stats.contains("image/bytes"), "{stats}");
    assert_eq!(
        image_bytes(&dir, "embedded.tfrecord"),
        png_bytes,
        "the PNG files' bytes, whole"
    );
}

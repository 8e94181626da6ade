//! TFDS datasets against TensorFlow Datasets and Hugging Face `datasets`
//! (issue 44): `to-jsonl --decode` gives `tfds.as_numpy`'s values
//! (tests/oracle/tfds_decode.py), and `to-parquet` of a TFDS folder opens
//! in `datasets` with the dataset's features (ClassLabel names, Image) and
//! TFDS's values, per record and, for an RLDS dataset with `--explode
//! steps`, per step (tests/oracle/tfds_hf.py). The datasets are the ones
//! tensorflow-datasets wrote (tests/data/tfds, tests/oracle/tfds_make.py).

use crate::util::*;
use std::process::Command;

pub(crate) fn hf_python() -> std::path::PathBuf {
    std::env::var_os("TFR_HF_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/venv-hf/bin/python"))
}

fn data_dir() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tfds")
        .to_string_lossy()
        .into_owned()
}

/// TFDS's values of a split, one JSON line a record
/// (tests/oracle/tfds_dump.py under `tf`, the datasets below `data`).
pub(crate) fn tfds_dump(tf: &std::path::Path, data: &str, name: &str, split: &str) -> Vec<u8> {
    let out = Command::new(tf)
        .arg(oracle_script("tfds_dump.py"))
        .args([data, name, split])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Runs `python script args` in `dir`; its stdout, which must hold no FAIL.
pub(crate) fn oracle(dir: &Dir, python: &std::path::Path, script: &str, args: &[&str]) -> String {
    let out = Command::new(python)
        .current_dir(dir.path(""))
        .arg(oracle_script(script))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{script}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && !stdout.contains("FAIL"),
        "{script} {args:?}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
#[ignore = "external: tensorflow-datasets (TFR_TF_PYTHON) and Hugging Face datasets (TFR_HF_PYTHON): cargo test -- --include-ignored"]
fn tfds_folders_decode_and_convert_to_the_values_tfds_gives() {
    let (tf, hf) = (tf_python(), hf_python());
    if !python_has(&tf, "tensorflow_datasets") || !python_has(&hf, "datasets") {
        skip_or_fail("no Python with tensorflow-datasets (TFR_TF_PYTHON) and one with datasets (TFR_HF_PYTHON)");
        return;
    }
    let dir = Dir::new();
    let tfr = env!("CARGO_BIN_EXE_tfr");
    let data = data_dir();
    for (name, split) in [("tfr_toy", "train"), ("tfr_toy", "test[:50%]"), ("tfr_rlds", "train")] {
        oracle(&dir, &tf, "tfds_decode.py", &["--tfr", tfr, &data, name, split]);
    }
    // TFDS's values per record, then the Parquet files against them.
    let dump = |name: &str, split: &str, file: &str| {
        dir.write(file, &tfds_dump(&tf, &data, name, split));
    };
    dump("tfr_toy", "train", "toy_train.jsonl");
    dump("tfr_toy", "test", "toy_test.jsonl");
    dump("tfr_rlds", "train", "rlds.jsonl");
    let toy = format!("{data}/tfr_toy/1.0.0");
    let rlds = format!("{data}/tfr_rlds/1.0.0");
    dir.tfr(&["to-parquet", &toy, "-o", "toy/{split}.parquet"]).run().ok();
    dir.tfr(&["to-parquet", &rlds, "-o", "episodes.parquet"]).run().ok();
    dir.tfr(&[
        "to-parquet",
        &rlds,
        "--split",
        "train",
        "--explode",
        "steps",
        "-o",
        "steps.parquet",
    ])
    .run()
    .ok();
    let names = ["--names", "cat,dog,bird"];
    for (dump, parquet) in [
        ("toy_train.jsonl", "toy/train.parquet"),
        ("toy_test.jsonl", "toy/test.parquet"),
    ] {
        let mut args = vec!["--dump", dump, "--parquet", parquet];
        args.extend(names);
        oracle(&dir, &hf, "tfds_hf.py", &args);
    }
    oracle(
        &dir,
        &hf,
        "tfds_hf.py",
        &["--dump", "rlds.jsonl", "--parquet", "episodes.parquet"],
    );
    let out = oracle(
        &dir,
        &hf,
        "tfds_hf.py",
        &[
            "--dump",
            "rlds.jsonl",
            "--parquet",
            "steps.parquet",
            "--explode",
            "steps",
        ],
    );
    assert!(out.contains("datasets reads 19 rows, TFDS gives 19"), "{out}");
}

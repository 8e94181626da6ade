//! `tfr index` (issue 29): the index files of DALI's `tfrecord2idx` and of
//! the `tfrecord` package, checked against that package's own tool, and
//! `--check`.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The index lines of framed payloads, worked out by hand.
fn expected_index(payloads: &[&[u8]]) -> String {
    let mut at = 0;
    let mut out = String::new();
    for p in payloads {
        let size = 16 + p.len();
        out.push_str(&format!("{at} {size}\n"));
        at += size;
    }
    out
}

#[test]
fn writes_one_line_per_record_beside_each_input() {
    let dir = Dir::new();
    let a: Vec<&[u8]> = vec![b"a", b"", b"ccc", &[7u8; 300]];
    let b: Vec<&[u8]> = vec![b"x"; 5000];
    let fa = dir.write("a.tfrecord", &records(&a));
    let fb = dir.write("b.tfrecord", &records(&b));
    let empty = dir.write("e.tfrecord", b"");
    let out = tfr(&["index", "-j", "3", &fa, &fb, &empty]).run().ok();
    assert!(out.contains("a.tfrecord.idx: 4 records"), "{out}");
    assert!(out.contains("b.tfrecord.idx: 5000 records"), "{out}");
    assert_eq!(
        std::fs::read_to_string(format!("{fa}.idx")).unwrap(),
        expected_index(&a)
    );
    assert_eq!(
        std::fs::read_to_string(format!("{fb}.idx")).unwrap(),
        expected_index(&b)
    );
    assert_eq!(std::fs::read_to_string(format!("{empty}.idx")).unwrap(), "");
    // --out-dir: DIR/NAME.idx, nothing beside the input.
    std::fs::create_dir(dir.path("idx")).unwrap();
    std::fs::remove_file(format!("{fa}.idx")).unwrap();
    dir.tfr(&["index", "--out-dir", "idx", "a.tfrecord"]).run().ok();
    assert_eq!(
        std::fs::read_to_string(dir.path("idx/a.tfrecord.idx")).unwrap(),
        expected_index(&a)
    );
    assert!(!Path::new(&format!("{fa}.idx")).exists());
    // A missing --out-dir is made (as every writer makes its directories);
    // a file there is refused.
    dir.tfr(&["index", "--out-dir", "new/dir", "a.tfrecord"]).run().ok();
    assert!(dir.path("new/dir/a.tfrecord.idx").is_file());
    let line = dir
        .tfr(&["index", "--out-dir", "a.tfrecord", "a.tfrecord"])
        .run()
        .fails(2);
    assert!(line.contains("not a directory"), "{line}");
    // Two inputs of one name would write one index: refused before any.
    std::fs::create_dir(dir.path("sub")).unwrap();
    std::fs::write(dir.path("sub/a.tfrecord"), records(&a)).unwrap();
    std::fs::remove_file(dir.path("idx/a.tfrecord.idx")).unwrap();
    let line = dir
        .tfr(&["index", "--out-dir", "idx", "a.tfrecord", "sub/a.tfrecord"])
        .run()
        .fails(2);
    assert!(line.contains("the same index file"), "{line}");
    assert!(!dir.path("idx/a.tfrecord.idx").exists());
}

#[test]
fn damaged_compressed_and_piped_inputs_get_no_index() {
    let dir = Dir::new();
    let good = records(&[b"alpha", b"beta", b"gamma"]);
    let mut bad = good.clone();
    bad[16 + 5 + 14] ^= 1; // the second payload
    let f = dir.write("bad.tfrecord", &bad);
    let line = tfr(&["index", &f]).run().fails(2);
    assert!(
        line.contains("bad.tfrecord: record 1") && line.contains("checksum"),
        "{line}"
    );
    assert!(!Path::new(&format!("{f}.idx")).exists());
    // An existing index is left as it was.
    std::fs::write(format!("{f}.idx"), "old\n").unwrap();
    tfr(&["index", &f]).run().fails(2);
    assert_eq!(std::fs::read_to_string(format!("{f}.idx")).unwrap(), "old\n");
    let g = dir.write("x.tfrecord.gz", &gzip(&good));
    let line = tfr(&["index", &g]).run().fails(2);
    assert!(
        line.contains("gzip-compressed") && line.contains("decompress"),
        "{line}"
    );
    assert!(!Path::new(&format!("{g}.idx")).exists());
    // The command it names writes the uncompressed copy, which indexes.
    let plain = g.strip_suffix(".gz").unwrap();
    assert!(
        line.contains(&format!("tfr reshard {g} -o {plain}, then tfr index {plain}")),
        "{line}"
    );
    tfr(&["reshard", &g, "-o", plain]).run().ok();
    assert_eq!(std::fs::read(plain).unwrap(), good);
    tfr(&["index", plain]).run().ok();
    let line = tfr(&["index", "-"]).stdin(&good).run().fails(2);
    assert!(line.contains("standard input"), "{line}");
    // One bad input among good ones: the good ones are indexed, exit 2.
    let ok = dir.write("ok.tfrecord", &good);
    let ran = tfr(&["index", &ok, &f]).run();
    assert_eq!(ran.code, 2);
    assert!(Path::new(&format!("{ok}.idx")).exists());
}

#[test]
fn check_finds_truncated_and_changed_files() {
    let dir = Dir::new();
    let payloads: Vec<&[u8]> = vec![b"one", b"two", b"three", b"four"];
    let f = dir.write("d.tfrecord", &records(&payloads));
    tfr(&["index", &f]).run().ok();
    let out = tfr(&["index", "--check", &f]).run().ok();
    assert!(out.contains("d.tfrecord.idx: ok (4 records)"), "{out}");
    // Truncated mid-record, and at a record boundary.
    let full = std::fs::read(&f).unwrap();
    std::fs::write(&f, &full[..full.len() - 3]).unwrap();
    let ran = tfr(&["index", "--check", &f]).run();
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(ran.stdout_str().contains("does not match") && ran.stdout_str().contains("truncated"));
    std::fs::write(&f, &full[..full.len() - (16 + 4)]).unwrap();
    let ran = tfr(&["index", "--check", &f]).run();
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout_str()
            .contains("the file has 3 records, the index more lines"),
        "{}",
        ran.stdout_str()
    );
    // A record rewritten with another length.
    let changed: Vec<&[u8]> = vec![b"one", b"TWO!", b"three", b"four"];
    std::fs::write(&f, records(&changed)).unwrap();
    let ran = tfr(&["index", "--check", &f]).run();
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout_str().contains("line 2 is '19 19', the file has '19 20'"),
        "{}",
        ran.stdout_str()
    );
    // More records than lines; a missing index.
    std::fs::write(&f, records(&[payloads.clone(), vec![b"five"]].concat())).unwrap();
    let ran = tfr(&["index", "--check", &f]).run();
    assert_eq!(ran.code, 1);
    assert!(ran.stdout_str().contains("it ends at line 5"), "{}", ran.stdout_str());
    let other = dir.write("o.tfrecord", &records(&payloads));
    let ran = tfr(&["index", "--check", &other]).run();
    assert_eq!(ran.code, 1);
    assert!(ran.stdout_str().contains("no index file"), "{}", ran.stdout_str());
    // Re-indexing makes it match again.
    tfr(&["index", &f, &other]).run().ok();
    tfr(&["index", "--check", &f, &other]).run().ok();
}

fn python_with_tfrecord() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("TFR_TF_PYTHON").map(PathBuf::from),
        Some(root.join(".venv-tf/bin/python")),
        Some(root.join("target/venv-tf/bin/python")),
    ];
    // Whether the package is there, without importing it (the test's own
    // run does).
    candidates.into_iter().flatten().find(|p| {
        p.exists()
            && Command::new(p)
                .args([
                    "-c",
                    "import importlib.util, sys; sys.exit(importlib.util.find_spec('tfrecord') is None)",
                ])
                .output()
                .is_ok_and(|o| o.status.success())
    })
}

#[test]
#[ignore = "external: the tfrecord package (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn equals_the_tfrecord_packages_tfrecord2idx() {
    let Some(python) = python_with_tfrecord() else {
        skip_or_fail("no Python with the tfrecord package (pip install tfrecord into target/venv-tf)");
        return;
    };
    let dir = Dir::new();
    let big = vec![b'z'; 70_000];
    let payloads: Vec<&[u8]> = vec![b"a", b"", &big, b"tail"];
    let inputs = [
        dir.write("small.tfrecord", &records(&payloads)),
        data("notebook.tfrecord"),
        data("images.tfrecord"),
    ];
    // tfrecord2idx's create_index (what `python -m
    // tfrecord.tools.tfrecord2idx INPUT INDEX` runs) for every input, in
    // one Python process.
    let theirs = |k: usize| dir.path(&format!("theirs{k}.idx"));
    let mut made = Command::new(&python);
    made.args([
        "-c",
        "import sys; from tfrecord.tools.tfrecord2idx import create_index; \
         [create_index(i, o) for i, o in zip(sys.argv[1::2], sys.argv[2::2])]",
    ]);
    for (k, input) in inputs.iter().enumerate() {
        made.arg(input).arg(theirs(k));
    }
    let out = made.output().expect("run tfrecord2idx");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (k, input) in inputs.iter().enumerate() {
        let ours = dir.path(&format!("ours{k}"));
        std::fs::create_dir(&ours).unwrap();
        tfr(&["index", "--out-dir", ours.to_str().unwrap(), input]).run().ok();
        let name = Path::new(input).file_name().unwrap().to_str().unwrap();
        let want = std::fs::read_to_string(theirs(k)).unwrap();
        let got = std::fs::read_to_string(ours.join(format!("{name}.idx"))).unwrap();
        assert!(!want.is_empty(), "{input}");
        assert_eq!(got, want, "{input}");
    }
}

/// After `tfr index`, the usual glob of a dataset (`'data/train-*'`) and
/// the dataset's directory still mean its records: the `.idx` files beside
/// them are left out (they are not TFRecord files).
#[test]
fn globs_and_directories_leave_the_index_files_out() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path("data")).unwrap();
    dir.write("data/train-00000-of-00002", &records(&[b"a", b"b"]));
    dir.write("data/train-00001-of-00002", &records(&[b"c"]));
    dir.tfr(&["index", "data/train-*"]).run().ok();
    assert!(dir.path("data/train-00000-of-00002.idx").exists());
    let json = dir.tfr(&["count", "--json", "data/train-*"]).run().ok();
    assert!(!json.contains(".idx") && json.contains("\"total\":3"), "{json}");
    let json = dir.tfr(&["count", "--json", "data"]).run().ok();
    assert!(!json.contains(".idx") && json.contains("\"total\":3"), "{json}");
    // Named on purpose, an index file is what it is: not a TFRecord file.
    dir.tfr(&["count", "data/train-00000-of-00002.idx"]).run().fails(2);
    dir.tfr(&["index", "--check", "data/train-*"]).run().ok();
}

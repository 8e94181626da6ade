//! `--shards N` / `--shard-size SIZE` on from-parquet and from-arrow
//! (issue 43): the rows into shards named and balanced as reshard's, in
//! order, all appearing together; stdin and stdout refused where they
//! cannot be.

use crate::util::*;

/// `tfr to-jsonl` of `paths`, one after the other.
fn printed(dir: &Dir, paths: &[&str]) -> String {
    let mut args = vec!["to-jsonl"];
    args.extend_from_slice(paths);
    dir.tfr(&args).run().ok()
}

#[test]
fn shards_hold_the_rows_in_order_balanced_as_reshards() {
    let dir = Dir::new();
    let src = data("notebook.tfrecord");
    dir.tfr(&["to-parquet", &src, "-o", "nb.parquet"]).run().ok();
    dir.tfr(&["to-arrow", &src, "-o", "nb.arrow"]).run().ok();
    dir.tfr(&["from-parquet", "nb.parquet", "nb.parquet", "-o", "one.tfrecord"])
        .run()
        .ok();
    let out = dir
        .tfr(&[
            "from-parquet",
            "nb.parquet",
            "nb.parquet",
            "-o",
            "out/train.tfrecord.gz",
            "--shards",
            "3",
        ])
        .run()
        .ok();
    assert_eq!(out, "400 records into 3 shards\n");
    let names: Vec<String> = (0..3)
        .map(|k| format!("out/train-0000{k}-of-00003.tfrecord.gz"))
        .collect();
    let counts = dir
        .tfr(&["count", "--json", &names[0], &names[1], &names[2]])
        .run()
        .ok();
    for n in ["133", "133", "134"] {
        assert!(counts.contains(&format!("\"records\":{n}")), "{counts}");
    }
    let shards: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(printed(&dir, &shards), printed(&dir, &["one.tfrecord"]));
    // By size, one pass; from-arrow the same way.
    let out = dir
        .tfr(&["from-arrow", "nb.arrow", "-o", "sz/x.tfrecord", "--shard-size", "4K"])
        .run()
        .ok();
    let made: Vec<_> = std::fs::read_dir(dir.path("sz")).unwrap().collect();
    assert_eq!(out, format!("200 records into {} shards\n", made.len()));
    assert!(made.len() > 2, "{out}");
    for f in &made {
        let len = f.as_ref().unwrap().metadata().unwrap().len();
        assert!(len <= 4096, "{len}");
    }
    let out = dir
        .tfr(&["from-arrow", "nb.arrow", "-o", "ar/x.tfrecord", "--shards", "2"])
        .run()
        .ok();
    assert_eq!(out, "200 records into 2 shards\n");
    dir.tfr(&["from-arrow", "nb.arrow", "-o", "one_arrow.tfrecord"])
        .run()
        .ok();
    assert_eq!(
        printed(&dir, &["ar/x-00000-of-00002.tfrecord", "ar/x-00001-of-00002.tfrecord"]),
        printed(&dir, &["one_arrow.tfrecord"])
    );
}

#[test]
fn stdin_cannot_be_counted_and_stdout_cannot_hold_shards() {
    let dir = Dir::new();
    dir.tfr(&["to-parquet", &data("notebook.tfrecord"), "-o", "nb.parquet"])
        .run()
        .ok();
    let piped = std::fs::read(dir.path("nb.parquet")).unwrap();
    let e = dir
        .tfr(&["from-parquet", "-", "-o", "y/x.tfrecord", "--shards", "2"])
        .stdin(&piped)
        .run()
        .fails(2);
    assert!(e.contains("<stdin>: --shards reads the inputs twice"), "{e}");
    assert!(!dir.path("y").exists(), "nothing left after an error");
    // --shard-size reads once: stdin works.
    dir.tfr(&["from-parquet", "-", "-o", "z/x.tfrecord", "--shard-size", "1M"])
        .stdin(&piped)
        .run()
        .ok();
    assert!(dir.path("z/x-00000-of-00001.tfrecord").exists());
    let e = dir
        .tfr(&["from-parquet", "nb.parquet", "-o", "-", "--shards", "2"])
        .run()
        .fails(2);
    assert!(e.contains("not stdout"), "{e}");
}

#[test]
#[cfg(feature = "wds")]
fn from_wds_shards_hold_the_samples_in_order() {
    let dir = Dir::new();
    let src = data("notebook.tfrecord");
    dir.tfr(&["to-wds", &src, "-o", "wds/shard.tar", "--shard-size", "8K"])
        .run()
        .ok();
    dir.tfr(&["from-wds", "wds/", "-o", "one.tfrecord"]).run().ok();
    let out = dir
        .tfr(&["from-wds", "wds/", "-o", "out/x.tfrecord.gz", "--shards", "3"])
        .run()
        .ok();
    assert_eq!(out, "200 records into 3 shards\n");
    let shards: Vec<String> = (0..3).map(|k| format!("out/x-0000{k}-of-00003.tfrecord.gz")).collect();
    let shards: Vec<&str> = shards.iter().map(String::as_str).collect();
    assert_eq!(printed(&dir, &shards), printed(&dir, &["one.tfrecord"]));
    let counts = dir
        .tfr(&["count", "--json", shards[0], shards[1], shards[2]])
        .run()
        .ok();
    for n in ["66", "67", "67"] {
        assert!(counts.contains(&format!("\"records\":{n}")), "{counts}");
    }
    let out = dir
        .tfr(&["from-wds", "wds/", "-o", "sz/x.tfrecord", "--shard-size", "16K"])
        .run()
        .ok();
    assert!(out.starts_with("200 records into "), "{out}");
    // stdin is read once: --shards cannot count it.
    let tar = std::fs::read(dir.path("wds/shard-000000.tar")).unwrap();
    let e = dir
        .tfr(&["from-wds", "-", "-o", "y/x.tfrecord", "--shards", "2"])
        .stdin(&tar)
        .run()
        .fails(2);
    assert!(e.contains("--shards reads the inputs twice"), "{e}");
    assert!(!dir.path("y").exists());
}

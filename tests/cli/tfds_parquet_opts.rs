//! `tfr to-parquet` of a TFDS folder with `--features`/`--exclude`,
//! `--shards`/`--rows-per-file`, and several splits at once, on the
//! fixtures tensorflow-datasets wrote (tests/data/tfds): a selection keeps
//! leaves by any name on their path (a dict whole by its name), the
//! schema and its `huggingface` features being exactly the kept columns;
//! the files of a split are named as plain to-parquet names them, each of
//! the same schema, their rows in order those of the one file; a split
//! that fails leaves no file of any split (old files untouched); nonsense
//! is one line. Hugging Face `datasets` reads the selections and the cut
//! files with TFDS's features and values (tests/oracle/tfds_hf.py, an
//! external test).

use crate::util::*;
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::path::Path;

fn toy() -> String {
    data("tfds/tfr_toy/1.0.0")
}

fn rlds() -> String {
    data("tfds/tfr_rlds/1.0.0")
}

/// A Parquet file's Arrow schema (with its metadata) and record batches.
fn read(path: &Path) -> (SchemaRef, Vec<RecordBatch>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = builder.schema().clone();
    let batches = builder.build().unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    (schema, batches)
}

/// The column names of a schema.
fn names(schema: &SchemaRef) -> Vec<String> {
    schema.fields().iter().map(|f| f.name().clone()).collect()
}

/// The feature names of a schema's `huggingface` metadata, sorted.
fn hf_features(schema: &SchemaRef) -> Vec<String> {
    let meta = schema.metadata().get("huggingface").expect("huggingface metadata");
    let doc: serde_json::Value = serde_json::from_str(meta).unwrap();
    let mut out: Vec<String> = doc["info"]["features"].as_object().unwrap().keys().cloned().collect();
    out.sort();
    out
}

/// Rows of `batches` as one value per named column (each a one-row slice).
fn rows(batches: &[RecordBatch], columns: &[String]) -> Vec<Vec<arrow_array::ArrayRef>> {
    let mut out = Vec::new();
    for b in batches {
        for i in 0..b.num_rows() {
            out.push(
                columns
                    .iter()
                    .map(|c| {
                        b.column_by_name(c)
                            .unwrap_or_else(|| panic!("no column {c}"))
                            .slice(i, 1)
                    })
                    .collect(),
            );
        }
    }
    out
}

/// The files of directory `dir`, sorted (hidden ones too: none may be left).
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A selection's file: exactly `want` columns (in features.json order),
/// the `huggingface` features the same, each column equal to the whole
/// file's.
fn selected(dir: &Dir, folder: &str, flags: &[&str], whole: &str, want: &[&str]) {
    let mut args = vec!["to-parquet", folder, "-o", "sel.parquet"];
    args.extend(flags);
    dir.tfr(&args).run().ok();
    let (schema, batches) = read(&dir.path("sel.parquet"));
    assert_eq!(names(&schema), want, "{flags:?}");
    let mut sorted: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    sorted.sort();
    assert_eq!(hf_features(&schema), sorted, "{flags:?}");
    let (_, all) = read(&dir.path(whole));
    let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    let (got, expected) = (rows(&batches, &want), rows(&all, &want));
    assert!(!got.is_empty());
    assert!(
        got == expected,
        "{flags:?}: the kept columns differ from the whole file's"
    );
}

#[test]
fn features_and_exclude_keep_leaves_by_any_name_on_their_path() {
    let dir = Dir::new();
    let toy = toy();
    dir.tfr(&["to-parquet", &toy, "--split", "train", "-o", "all.parquet"])
        .run()
        .ok();
    let train = ["--split", "train"];
    // A dict by its name keeps all its leaves; a leaf by its path.
    let flags = [&train[..], &["--features", "image,meta"]].concat();
    selected(&dir, &toy, &flags, "all.parquet", &["image", "meta/id", "meta/source"]);
    let flags = [&train[..], &["--features", "label,meta/id"]].concat();
    selected(&dir, &toy, &flags, "all.parquet", &["label", "meta/id"]);
    let flags = [&train[..], &["--features", "meta", "--exclude", "meta/source"]].concat();
    selected(&dir, &toy, &flags, "all.parquet", &["meta/id"]);
    let flags = [&train[..], &["--exclude", "meta/*,image,t*"]].concat();
    selected(
        &dir,
        &toy,
        &flags,
        "all.parquet",
        &["label", "packed", "raw", "score", "vec"],
    );
    // Exploded steps: by the stored path or the column's name; the
    // indices always stay; no step feature kept still counts the steps.
    let rlds = rlds();
    dir.tfr(&["to-parquet", &rlds, "--explode", "steps", "-o", "steps.parquet"])
        .run()
        .ok();
    let flags = ["--explode", "steps", "--features", "steps/observation,reward"];
    let want = [
        "episode_index",
        "step_index",
        "observation/image",
        "observation/state",
        "reward",
    ];
    selected(&dir, &rlds, &flags, "steps.parquet", &want);
    let flags = ["--explode", "steps", "--features", "episode_metadata"];
    let want = ["episode_index", "step_index", "episode_metadata/file_path"];
    selected(&dir, &rlds, &flags, "steps.parquet", &want);
    let (_, batches) = read(&dir.path("sel.parquet"));
    assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 19);
    // Episodes as rows: the steps' features by the Dataset's name.
    dir.tfr(&["to-parquet", &rlds, "-o", "episodes.parquet"]).run().ok();
    let flags = ["--exclude", "steps"];
    selected(&dir, &rlds, &flags, "episodes.parquet", &["episode_metadata/file_path"]);
}

#[test]
fn a_pattern_that_matches_nothing_warns_and_leaving_out_everything_is_an_error() {
    let dir = Dir::new();
    let toy = toy();
    let r = dir
        .tfr(&[
            "to-parquet",
            &toy,
            "--split",
            "test",
            "--features",
            "label,nosuch*",
            "-o",
            "t.parquet",
        ])
        .run();
    r.warns();
    assert_eq!(
        r.stderr.trim(),
        "tfr: warning: --features nosuch*: no feature of the records read matches it"
    );
    assert_eq!(names(&read(&dir.path("t.parquet")).0), ["label"]);
    for flags in [&["--exclude", "*"][..], &["--features", "meta", "--exclude", "meta"]] {
        let mut args = vec!["to-parquet", &toy, "-o", "x/{split}.parquet"];
        args.extend(flags);
        let e = dir.tfr(&args).run().fails(2);
        assert!(e.contains("leave out every feature of features.json"), "{e}");
        assert!(!dir.path("x").exists());
    }
    let e = dir
        .tfr(&[
            "to-parquet",
            &rlds(),
            "--explode",
            "steps",
            "--exclude",
            "*",
            "-o",
            "y.parquet",
        ])
        .run()
        .fails(2);
    assert!(e.contains("leave out every feature"), "{e}");
    assert!(!dir.path("y.parquet").exists());
}

/// Flags, and the files each split is cut into.
type Flags<'a> = &'a [&'a str];
type Files<'a> = &'a [(&'a str, usize)];

#[test]
fn shards_and_rows_per_file_are_named_as_plain_to_parquet_names_them_and_add_up_to_the_one_file() {
    let dir = Dir::new();
    let toy = toy();
    dir.tfr(&["to-parquet", &toy, "-o", "one/{split}.parquet"]).run().ok();
    let cases: [(Flags, Files); 2] = [
        (&["--shards", "3"], &[("test", 3), ("train", 3)]),
        (&["--rows-per-file", "5"], &[("test", 3), ("train", 8)]),
    ];
    for (flags, counts) in cases {
        let mut args = vec!["to-parquet", &toy, "-o", "cut/{split}.parquet"];
        args.extend(flags);
        dir.tfr(&args).run().ok();
        let mut want = Vec::new();
        for (split, n) in counts {
            want.extend((0..*n).map(|k| format!("{split}-{k:05}-of-{n:05}.parquet")));
        }
        assert_eq!(listing(&dir.path("cut")), want, "{flags:?}");
        // Plain to-parquet names a split's files the same.
        let shard = dir.path(&format!("{}/{}", toy, "tfr_toy-test.tfrecord-0000*"));
        let shard = shard.to_string_lossy().into_owned();
        let mut plain = vec!["to-parquet", "--plain", &shard, "-o", "plain/test.parquet"];
        plain.extend(flags);
        dir.tfr(&plain).run().ok();
        let test: Vec<String> = want.iter().filter(|n| n.starts_with("test-")).cloned().collect();
        assert_eq!(listing(&dir.path("plain")), test, "{flags:?}");
        std::fs::remove_dir_all(dir.path("plain")).unwrap();
        for (split, n) in counts {
            let (schema, whole) = read(&dir.path(&format!("one/{split}.parquet")));
            let mut got = Vec::new();
            for k in 0..*n {
                let (s, batches) = read(&dir.path(&format!("cut/{split}-{k:05}-of-{n:05}.parquet")));
                assert_eq!(s, schema, "{split} file {k}: the schema and its metadata");
                let count: usize = batches.iter().map(|b| b.num_rows()).sum();
                assert!(count > 0, "{split} file {k} is empty");
                got.extend(rows(&batches, &names(&schema)));
            }
            assert!(got == rows(&whole, &names(&schema)), "{flags:?}: {split} in order");
        }
        std::fs::remove_dir_all(dir.path("cut")).unwrap();
    }
    // Steps, selected and cut: 19 rows in files of at most 7.
    let rlds = rlds();
    let common = ["to-parquet", &rlds, "--explode", "steps", "--features", "action"];
    dir.tfr(&[&common[..], &["-o", "steps.parquet"]].concat()).run().ok();
    dir.tfr(&[&common[..], &["-o", "s/steps.parquet", "--rows-per-file", "7"]].concat())
        .run()
        .ok();
    let want: Vec<String> = (0..3).map(|k| format!("steps-{k:05}-of-00003.parquet")).collect();
    assert_eq!(listing(&dir.path("s")), want);
    let (schema, whole) = read(&dir.path("steps.parquet"));
    let mut got = Vec::new();
    for (k, name) in want.iter().enumerate() {
        let (s, batches) = read(&dir.path(&format!("s/{name}")));
        assert_eq!(s, schema);
        assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), [7, 7, 5][k]);
        got.extend(rows(&batches, &names(&schema)));
    }
    assert!(got == rows(&whole, &names(&schema)));
    // The rows of a range, balanced: 10 records in 3 files of 3, 3, 4.
    dir.tfr(&[
        "to-parquet",
        &toy,
        "--split",
        "train",
        "-n",
        "10",
        "--shards",
        "3",
        "-o",
        "r/t.parquet",
    ])
    .run()
    .ok();
    for (k, n) in [3, 3, 4].into_iter().enumerate() {
        let (_, batches) = read(&dir.path(&format!("r/t-{k:05}-of-00003.parquet")));
        assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), n);
    }
}

#[test]
fn a_damaged_second_split_leaves_no_file_of_any_split_and_old_files_untouched() {
    let dir = Dir::new();
    let folder = dir.path("toy");
    std::fs::create_dir(&folder).unwrap();
    for entry in std::fs::read_dir(toy()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
    }
    let folder = folder.to_string_lossy().into_owned();
    // The test split comes after train; one of its shards loses its end.
    let shard = Path::new(&folder).join("tfr_toy-test.tfrecord-00001-of-00003");
    let len = std::fs::metadata(&shard).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&shard)
        .unwrap()
        .set_len(len - 10)
        .unwrap();
    for flags in [&[][..], &["--shards", "2"], &["--rows-per-file", "7"]] {
        let mut args = vec!["to-parquet", &folder, "-o", "hf/{split}.parquet"];
        args.extend(flags);
        let e = dir.tfr(&args).run().fails(2);
        assert!(
            e.contains("split test") && e.contains("tfr_toy-test.tfrecord-00001-of-00003"),
            "{e}"
        );
        assert!(!dir.path("hf").exists(), "{flags:?}: {:?}", listing(&dir.path("hf")));
    }
    // Files already there stay as they were, and nothing is added.
    std::fs::create_dir(dir.path("hf")).unwrap();
    dir.write("hf/train.parquet", b"old train");
    let e = dir
        .tfr(&["to-parquet", &folder, "-o", "hf/{split}.parquet"])
        .run()
        .fails(2);
    assert!(e.contains("truncated"), "{e}");
    assert_eq!(listing(&dir.path("hf")), ["train.parquet"]);
    assert_eq!(std::fs::read(dir.path("hf/train.parquet")).unwrap(), b"old train");
    // The damaged split alone fails too; the sound one alone is written.
    dir.tfr(&["to-parquet", &folder, "--split", "train", "-o", "hf/{split}.parquet"])
        .run()
        .ok();
    assert_eq!(
        read(&dir.path("hf/train.parquet"))
            .1
            .iter()
            .map(|b| b.num_rows())
            .sum::<usize>(),
        40
    );
}

#[test]
fn nonsense_counts_are_refused_in_one_line() {
    let dir = Dir::new();
    let toy = toy();
    for (flags, says) in [
        (&["--shards", "0"][..], "0 is not in 1.."),
        (&["--rows-per-file", "0"], "0 is not in 1.."),
        (&["--shards", "2", "--rows-per-file", "5"], "cannot be used with"),
        (&["--shards", "20000"], "--shards 20000: more files than the"),
    ] {
        let mut args = vec!["to-parquet", &toy, "-o", "o/{split}.parquet"];
        args.extend(flags);
        let e = dir.tfr(&args).run().fails(2);
        assert!(e.contains(says), "{flags:?}: {e}");
        assert!(!dir.path("o").exists(), "{flags:?}");
    }
}

use crate::tfds_oracle::{hf_python, oracle, tfds_dump};

#[test]
#[ignore = "external: tensorflow-datasets (TFR_TF_PYTHON) and Hugging Face datasets (TFR_HF_PYTHON): cargo test -- --include-ignored"]
fn hf_datasets_reads_selections_and_cut_files_with_tfds_features_and_values() {
    let (tf, hf) = (tf_python(), hf_python());
    if !python_has(&tf, "tensorflow_datasets") || !python_has(&hf, "datasets") {
        skip_or_fail("no Python with tensorflow-datasets (TFR_TF_PYTHON) and one with datasets (TFR_HF_PYTHON)");
        return;
    }
    let dir = Dir::new();
    let data = data("tfds");
    let dump = |name: &str, split: &str, file: &str| {
        dir.write(file, &tfds_dump(&tf, &data, name, split));
    };
    dump("tfr_toy", "train", "train.jsonl");
    dump("tfr_toy", "test", "test.jsonl");
    dump("tfr_rlds", "train", "rlds.jsonl");
    let (toy, rlds) = (toy(), rlds());
    // By top-level name (a dict whole) and by leaf, both splits, cut.
    let flags = ["--features", "image,label,meta,vec", "--exclude", "meta/source"];
    let keep = "image,label,meta/id,vec";
    dir.tfr(&[&["to-parquet", &toy, "-o", "sel/{split}.parquet"][..], &flags].concat())
        .run()
        .ok();
    dir.tfr(
        &[
            &["to-parquet", &toy, "-o", "cut/{split}.parquet", "--shards", "3"][..],
            &flags,
        ]
        .concat(),
    )
    .run()
    .ok();
    for split in ["train", "test"] {
        let dump = format!("{split}.jsonl");
        let one = format!("sel/{split}.parquet");
        let names = ["--names", "cat,dog,bird", "--keep", keep];
        oracle(
            &dir,
            &hf,
            "tfds_hf.py",
            &[&["--dump", &dump, "--parquet", &one][..], &names].concat(),
        );
        let files: Vec<String> = (0..3).map(|k| format!("cut/{split}-{k:05}-of-00003.parquet")).collect();
        let mut args = vec!["--dump", &dump, "--parquet"];
        args.extend(files.iter().map(String::as_str));
        args.extend(names);
        let out = oracle(&dir, &hf, "tfds_hf.py", &args);
        assert!(out.contains("every value equals TFDS's"), "{out}");
    }
    // Everything but one dict, every column: the oracle's whole check.
    dir.tfr(&[
        "to-parquet",
        &toy,
        "--split",
        "test",
        "--rows-per-file",
        "5",
        "-o",
        "all.parquet",
    ])
    .run()
    .ok();
    let files: Vec<String> = (0..3).map(|k| format!("all-{k:05}-of-00003.parquet")).collect();
    let mut args = vec!["--dump", "test.jsonl", "--names", "cat,dog,bird", "--parquet"];
    args.extend(files.iter().map(String::as_str));
    oracle(&dir, &hf, "tfds_hf.py", &args);
    // Steps: the observation by its short name, the episode's path, cut.
    dir.tfr(&[
        "to-parquet",
        &rlds,
        "--explode",
        "steps",
        "--features",
        "observation,episode_metadata/file_path",
        "--rows-per-file",
        "8",
        "-o",
        "steps.parquet",
    ])
    .run()
    .ok();
    let files: Vec<String> = (0..3).map(|k| format!("steps-{k:05}-of-00003.parquet")).collect();
    let mut args = vec!["--dump", "rlds.jsonl", "--explode", "steps", "--parquet"];
    args.extend(files.iter().map(String::as_str));
    args.extend([
        "--keep",
        "observation/image,observation/state,episode_metadata/file_path",
    ]);
    let out = oracle(&dir, &hf, "tfds_hf.py", &args);
    assert!(out.contains("datasets reads 19 rows, TFDS gives 19"), "{out}");
}

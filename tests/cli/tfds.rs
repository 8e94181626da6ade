//! TFDS (TensorFlow Datasets) version folders, on fixtures that
//! tensorflow-datasets 4.9.10 wrote itself (tests/data/tfds, made by
//! tests/oracle/tfds_make.py): `tfr info` describes one (title,
//! description, splits table, features table with ClassLabel names,
//! `--json`) from dataset_info.json and features.json alone, without
//! reading a shard; `info --check` counts each shard's records against
//! dataset_info.json and names a shard truncated, grown or missing;
//! `--split` picks a split, `all`, or TFDS's slices (by index or percent,
//! joined with `+`) on the commands that read records, a slice being
//! exactly the records at its positions (partial shards read as byte
//! ranges); bad specs and folders are one-line usage errors; without
//! `--split` a note names the splits and every record is read; ClassLabel
//! values carry their class names in text output and `count --by`, never
//! in JSON records. TFDS itself picks the same records for each slice in
//! tests/oracle/tfds_split.py (an external test here).

use crate::util::*;
use std::path::Path;
use std::process::Command;

/// The TFDS-written toy dataset: splits train (13, 14, 13 records) and
/// test (4, 4, 4), every common feature kind.
fn toy() -> String {
    data("tfds/tfr_toy/1.0.0")
}

/// The TFDS-written RLDS-shaped dataset: split train (3, 3 episodes).
fn rlds() -> String {
    data("tfds/tfr_rlds/1.0.0")
}

/// The shard files of the toy dataset, in split order.
const TRAIN: [&str; 3] = [
    "tfr_toy-train.tfrecord-00000-of-00003",
    "tfr_toy-train.tfrecord-00001-of-00003",
    "tfr_toy-train.tfrecord-00002-of-00003",
];
const TEST: [&str; 3] = [
    "tfr_toy-test.tfrecord-00000-of-00003",
    "tfr_toy-test.tfrecord-00001-of-00003",
    "tfr_toy-test.tfrecord-00002-of-00003",
];

/// A copy of the toy dataset's folder as `dir/toy`: its path.
fn copy_toy(dir: &Dir) -> String {
    let to = dir.path("toy");
    std::fs::create_dir(&to).unwrap();
    for entry in std::fs::read_dir(toy()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
    to.to_string_lossy().into_owned()
}

/// The cells of each row of a table `tfr` printed (header row first).
fn rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| l.trim_matches('│').split('┆').map(|c| c.trim().to_string()).collect())
        .collect()
}

/// `tfr count --json DIR --split SPEC`: the total.
fn total(spec: &str) -> u64 {
    let out = tfr(&["count", "--json", &toy(), "--split", spec]).run().ok();
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    doc["total"].as_u64().unwrap()
}

/// `tfr to-jsonl DIR --split SPEC` (with more arguments): its lines.
fn jsonl(spec: &str, more: &[&str]) -> Vec<String> {
    let dir = toy();
    let mut args = vec!["to-jsonl", dir.as_str(), "--split", spec];
    args.extend(more);
    tfr(&args).run().ok().lines().map(str::to_string).collect()
}

/// The byte offset at which record `n` of a plain TFRecord file starts.
fn record_offset(path: &Path, n: usize) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let mut at = 0;
    for _ in 0..n {
        let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        at += 16 + len;
    }
    at
}

#[test]
fn info_prints_the_title_the_description_the_splits_and_the_features() {
    let dir = toy();
    let out = tfr(&["info", &dir]).run().ok();
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(format!("tfr_toy 1.0.0 ({dir})").as_str()), "{out}");
    assert_eq!(
        lines.next(),
        Some("Toy dataset for tfr tests: every common TFDS feature kind."),
        "{out}"
    );
    assert!(out.contains("homepage: https://example.invalid/tfr_toy\n"), "{out}");
    assert!(
        out.contains("citation: @misc{tfr_toy, title={tfr toy dataset}, year={2024}}\n"),
        "{out}"
    );
    let rows = rows(&out);
    let splits: Vec<&[String]> = rows.iter().take(4).map(Vec::as_slice).collect();
    assert_eq!(
        splits,
        [
            ["split", "shards", "records", "bytes"],
            ["train", "3", "40", "20868"],
            ["test", "3", "12", "6303"],
            ["total", "6", "52", "27171"],
        ],
        "{out}"
    );
    let features: Vec<Vec<String>> = rows[4..].to_vec();
    assert_eq!(features[0], ["feature", "type", "dtype", "shape", "notes"], "{out}");
    let want = [
        ["image", "Image", "uint8", "(8, 8, 3)", "png bytes"],
        ["label", "ClassLabel", "int64", "()", "3 classes: cat, dog, bird"],
        ["meta/id", "Tensor", "int64", "()", ""],
        ["meta/source", "Text", "string", "()", "UTF-8"],
        ["packed", "Tensor", "int32", "(2, 2)", "stored zlib-encoded"],
        ["raw", "Tensor", "uint8", "(4,)", "stored bytes-encoded"],
        ["score", "Scalar", "float32", "()", ""],
        ["tags", "Text in Sequence", "string", "(n,)", "UTF-8"],
        ["text", "Text", "string", "()", "UTF-8"],
        ["vec", "Tensor", "float32", "(2, 3)", ""],
    ];
    assert_eq!(features[1..], want, "{out}");
}

#[test]
fn info_json_holds_the_splits_with_their_shards_and_the_features() {
    let out = tfr(&["info", "--json", &toy()]).run().ok();
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["name"], "tfr_toy");
    assert_eq!(doc["version"], "1.0.0");
    let splits = doc["splits"].as_array().unwrap();
    assert_eq!(splits.len(), 2, "{out}");
    assert_eq!(splits[0]["name"], "train");
    assert_eq!(splits[0]["shards"], serde_json::json!(TRAIN));
    assert_eq!(splits[0]["shard_records"], serde_json::json!([13, 14, 13]));
    assert_eq!(splits[0]["records"], 40);
    assert_eq!(splits[0]["bytes"], 20868);
    assert_eq!(splits[1]["name"], "test");
    assert_eq!(splits[1]["shards"], serde_json::json!(TEST));
    assert_eq!(splits[1]["shard_records"], serde_json::json!([4, 4, 4]));
    assert_eq!(splits[1]["records"], 12);
    assert_eq!(splits[1]["bytes"], 6303);

    let features = doc["features"].as_array().unwrap();
    let names: Vec<&str> = features.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "image",
            "label",
            "meta/id",
            "meta/source",
            "packed",
            "raw",
            "score",
            "tags",
            "text",
            "vec"
        ]
    );
    let feature = |name: &str| features.iter().find(|f| f["name"] == name).unwrap();
    let label = feature("label");
    assert_eq!(label["type"], "ClassLabel");
    assert_eq!(label["dtype"], "int64");
    assert_eq!(label["shape"], "()");
    assert_eq!(label["num_classes"], 3);
    assert_eq!(label["names"], serde_json::json!(["cat", "dog", "bird"]));
    assert_eq!(label["within"], serde_json::json!([]));
    let image = feature("image");
    assert_eq!((&image["type"], &image["dtype"]), (&"Image".into(), &"uint8".into()));
    assert_eq!(
        (&image["shape"], &image["encoding"]),
        (&"(8, 8, 3)".into(), &"png".into())
    );
    assert_eq!(feature("packed")["encoding"], "zlib");
    assert_eq!(feature("raw")["encoding"], "bytes");
    assert_eq!(feature("tags")["within"], serde_json::json!(["Sequence"]));
    assert_eq!(feature("tags")["type"], "Text");
}

#[test]
fn info_reads_no_shard_so_a_folder_without_them_is_described_all_the_same() {
    let dir = Dir::new();
    let copy = copy_toy(&dir);
    for shard in TRAIN.iter().chain(&TEST) {
        std::fs::remove_file(Path::new(&copy).join(shard)).unwrap();
    }
    let out = tfr(&["info", &copy]).run().ok();
    assert!(
        rows(&out).contains(&vec!["total".into(), "6".into(), "52".into(), "27171".into()]),
        "{out}"
    );
    let out = tfr(&["info", "--json", &copy]).run().ok();
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["splits"][0]["records"], 40);
    assert_eq!(doc["splits"][0]["shard_records"], serde_json::json!([13, 14, 13]));
    assert_eq!(doc["splits"][1]["records"], 12);
}

#[test]
fn info_of_an_rlds_dataset_lists_the_step_features_within_their_dataset() {
    let out = tfr(&["info", &rlds()]).run().ok();
    assert!(out.starts_with(&format!("tfr_rlds 1.0.0 ({})\n", rlds())), "{out}");
    let rows = rows(&out);
    assert_eq!(rows[1], ["train", "2", "6", "4841"], "{out}");
    let action = rows.iter().find(|r| r[0] == "steps/action").unwrap();
    assert_eq!(action[1..4], ["Tensor in Dataset", "float32", "(n, 2)"], "{out}");
    let checked = tfr(&["info", "--check", &rlds()]).run().ok();
    assert!(
        checked.contains("checked: all 2 shards hold the records dataset_info.json says"),
        "{checked}"
    );
    let out = tfr(&["count", "--json", &rlds(), "--split", "train[1:5]"]).run().ok();
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["total"], 4, "{out}");
}

#[test]
fn info_check_counts_every_shard_against_dataset_info() {
    let out = tfr(&["info", "--check", &toy()]).run().ok();
    assert!(
        out.lines().last() == Some("checked: all 6 shards hold the records dataset_info.json says"),
        "{out}"
    );
}

#[test]
fn info_check_names_a_truncated_a_grown_and_a_missing_shard_with_both_counts() {
    let dir = Dir::new();
    let copy = copy_toy(&dir);
    let shard = |i: usize| Path::new(&copy).join(TRAIN[i]);

    // Shard 1 cut in the middle of its record 5 (of 14).
    let whole = std::fs::read(shard(1)).unwrap();
    let cut = record_offset(&shard(1), 5) + 100;
    std::fs::write(shard(1), &whole[..cut]).unwrap();
    let r = tfr(&["info", "--check", &copy]).run();
    let e = r.fails(1);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains(TRAIN[1]) && e.contains("split train shard 1 of 3"), "{e}");
    assert!(
        e.contains("after 5 records") && e.contains("dataset_info.json says 14"),
        "{e}"
    );
    std::fs::write(shard(1), &whole).unwrap();
    tfr(&["info", "--check", &copy]).run().ok();

    // Shard 2 with a record appended (14 where 13 are said).
    let mut grown = std::fs::read(shard(2)).unwrap();
    grown.extend(records(&[b"one more"]));
    std::fs::write(shard(2), grown).unwrap();
    let r = tfr(&["info", "--check", &copy]).run();
    let e = r.fails(1);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains(TRAIN[2]) && e.contains("split train shard 2 of 3"), "{e}");
    assert!(e.contains("14 records, dataset_info.json says 13"), "{e}");
    assert!(
        r.stdout_str()
            .contains("checked: 1 of 6 shards differ from dataset_info.json"),
        "{}",
        r.stdout_str()
    );

    // And shard 0 deleted as well: two lines, one per shard.
    std::fs::remove_file(shard(0)).unwrap();
    let e = tfr(&["info", "--check", &copy]).run().fails(1);
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 2, "{e}");
    assert!(
        lines[0].contains(TRAIN[0]) && lines[0].contains("split train shard 0 of 3"),
        "{e}"
    );
    assert!(lines[0].contains("missing (dataset_info.json says 13 records)"), "{e}");
    assert!(lines[1].contains(TRAIN[2]), "{e}");
}

#[test]
fn split_picks_a_split_all_of_them_or_slices_of_them() {
    assert_eq!(total("train"), 40);
    assert_eq!(total("test"), 12);
    assert_eq!(total("all"), 52);
    assert_eq!(total("train[:10%]"), 4);
    assert_eq!(total("train[5:20]"), 15);
    assert_eq!(total("train[-3:]+test[:1]"), 4);
    assert_eq!(total("test[:50%]"), 6);

    // The text table: one row per shard of the split, and the total.
    let out = tfr(&["count", &toy(), "--split", "train"]).run().ok();
    let rows = rows(&out);
    assert_eq!(rows.len(), 5, "{out}");
    for (row, (shard, n)) in rows[1..4].iter().zip(TRAIN.iter().zip(["13", "14", "13"])) {
        assert!(row[0].ends_with(shard) && row[1] == n, "{out}");
    }
    assert_eq!(rows[4], ["total", "40"], "{out}");
}

#[test]
fn a_slice_across_two_shards_reads_a_byte_range_of_each() {
    let out = tfr(&["count", "--json", &toy(), "--split", "train[5:20]"]).run().ok();
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 2, "{out}");
    let first = Path::new(&toy()).join(TRAIN[0]);
    let second = Path::new(&toy()).join(TRAIN[1]);
    let (from, len) = (record_offset(&first, 5), std::fs::metadata(&first).unwrap().len());
    let to = record_offset(&second, 7);
    assert_eq!(
        files[0]["file"],
        format!("{} [bytes {from}..{len}]", first.display()),
        "{out}"
    );
    assert_eq!(files[0]["records"], 8);
    assert_eq!(
        files[1]["file"],
        format!("{} [bytes 0..{to}]", second.display()),
        "{out}"
    );
    assert_eq!(files[1]["records"], 7);
}

#[test]
fn a_slice_is_exactly_the_records_at_those_positions_of_its_split() {
    let train = jsonl("train", &[]);
    let test = jsonl("test", &[]);
    assert_eq!((train.len(), test.len()), (40, 12));
    assert_eq!(jsonl("train[5:20]", &[]), train[5..20]);
    assert_eq!(jsonl("train[:10%]", &[]), train[..4]);
    assert_eq!(jsonl("train[-7:]", &[]), train[33..]);
    assert_eq!(jsonl("test[:50%]", &[]), test[..6]);
    let joined: Vec<String> = train[37..].iter().chain(&test[..1]).cloned().collect();
    assert_eq!(jsonl("train[-3:]+test[:1]", &[]), joined);
    let all: Vec<String> = train.iter().chain(&test).cloned().collect();
    assert_eq!(jsonl("all", &[]), all);

    // The same records through cat and head.
    let dir = toy();
    let cat = tfr(&["cat", &dir, "--split", "train[5:20]", "-f", "json"]).run().ok();
    let head = tfr(&["head", "-n", "3", &dir, "--split", "train[5:20]", "-f", "json"])
        .run()
        .ok();
    let parsed =
        |text: &str| -> Vec<serde_json::Value> { text.lines().map(|l| serde_json::from_str(l).unwrap()).collect() };
    let want: Vec<serde_json::Value> = parsed(&train[5..20].join("\n"));
    assert_eq!(parsed(&cat), want);
    assert_eq!(parsed(&head), want[..3]);
}

#[test]
fn a_bad_split_or_a_folder_that_is_not_tfds_is_a_one_line_usage_error() {
    let dir = toy();
    let e = tfr(&["count", &dir, "--split", "val"]).run().fails(2);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("val") && e.contains("train, test"), "{e}");
    // As TFDS refuses them: bounds past the split, empty slices, spaces
    // inside the brackets, a '+' in a bound.
    for spec in [
        "train[5]",
        "train[",
        "train[:101%]",
        "train+",
        "+train",
        "train[:41]",
        "train[-41:]",
        "train[30:100]",
        "train[40:]",
        "train[:0]",
        "train[10:5]",
        "train[ :5]",
        "train[:+5]",
    ] {
        let e = tfr(&["count", &dir, "--split", spec]).run().fails(2);
        assert_eq!(e.lines().count(), 1, "{spec}: {e}");
        assert!(e.starts_with(&format!("tfr: --split {spec}: ")), "{e}");
    }

    let scratch = Dir::new();
    scratch.write("a.tfrecord", &records(&[b"x"]));
    let e = scratch.tfr(&["count", ".", "--split", "train"]).run().fails(2);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("dataset_info.json"), "{e}");

    let shard = Path::new(&dir).join(TRAIN[0]).to_string_lossy().into_owned();
    let e = tfr(&["to-jsonl", &shard, "--split", "train"]).run().fails(2);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("is not a directory"), "{e}");
}

#[test]
fn without_split_a_note_names_the_splits_and_every_record_is_read() {
    let dir = toy();
    let note = format!(
        "tfr: note: {dir} is TFDS's tfr_toy 1.0.0: reading every split: train (40 records), \
         test (12 records); pick one with --split\n"
    );
    let r = tfr(&["to-jsonl", &dir]).run();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, note);
    // dataset_info.json's order of the splits, as the note says (and as
    // --split all reads them).
    let lines: Vec<String> = r.stdout_str().lines().map(str::to_string).collect();
    assert_eq!(lines, jsonl("all", &[]));
    assert_eq!(lines[..40], jsonl("train", &[])[..]);

    let r = tfr(&["count", "--json", &dir]).run();
    assert_eq!(r.stderr, note);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout_str()).unwrap();
    assert_eq!(doc["total"], 52);
}

#[test]
fn class_labels_show_their_names_in_text_and_in_count_by_but_not_in_json_records() {
    let dir = toy();
    let text = tfr(&["head", "-n", "2", &dir, "--split", "test", "--features", "label"])
        .run()
        .ok();
    let labels: Vec<&str> = text.lines().filter(|l| l.trim().starts_with("value: ")).collect();
    assert_eq!(labels.len(), 2, "{text}");
    for l in &labels {
        assert_eq!(l.trim(), "value: 1  # dog", "{text}");
    }
    let json = tfr(&[
        "head",
        "-n",
        "2",
        &dir,
        "--split",
        "test",
        "--features",
        "label",
        "-f",
        "json",
    ])
    .run()
    .ok();
    assert_eq!(json, "{\"label\":[1]}\n{\"label\":[1]}\n");

    let out = tfr(&["count", "--by", "label", &dir, "--split", "train"]).run().ok();
    let rows = rows(&out);
    let counts: Vec<[&str; 2]> = rows[1..4].iter().map(|r| [r[0].as_str(), r[1].as_str()]).collect();
    assert_eq!(
        counts,
        [["0 (cat)", "17"], ["1 (dog)", "12"], ["2 (bird)", "11"]],
        "{out}"
    );
    let out = tfr(&["count", "--by", "label", &dir, "--split", "train", "--json"])
        .run()
        .ok();
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["values"],
        serde_json::json!([
            {"value": 0, "name": "cat", "records": 17},
            {"value": 1, "name": "dog", "records": 12},
            {"value": 2, "name": "bird", "records": 11},
        ]),
        "{out}"
    );
}

/// Fails with exit 2 and one line saying `says`.
fn one_line(args: &[&str], says: &str) {
    let e = tfr(args).run().fails(2);
    assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
    assert!(e.contains(says), "{args:?}: {e}");
}

/// `--decode` on cat and head writes what to-jsonl --decode writes (JSON
/// lines whatever -f, but not protojson), and on a TFDS folder refuses a
/// feature selection.
#[test]
fn cat_and_head_decode_as_to_jsonl_does() {
    let dir = toy();
    let all = jsonl("test", &["--decode"]);
    assert_eq!(all.len(), 12);
    assert!(all[0].starts_with("{\"image\":{\"base64\":"), "{}", all[0]);
    let cat = tfr(&["cat", "--decode", &dir, "--split", "test"]).run().ok();
    assert_eq!(cat.lines().collect::<Vec<_>>(), all);
    let cat = tfr(&["cat", "--decode", "-f", "json", "-j", "2", &dir, "--split", "test"])
        .run()
        .ok();
    assert_eq!(cat.lines().collect::<Vec<_>>(), all);
    let head = tfr(&["head", "-n", "2", "--skip", "3", "--decode", &dir, "--split", "test"])
        .run()
        .ok();
    assert_eq!(head.lines().collect::<Vec<_>>(), all[3..5]);
    one_line(
        &["head", "--decode", "-f", "protojson", &dir, "--split", "test"],
        "protojson",
    );
    one_line(
        &["cat", "--decode", &dir, "--split", "test", "--exclude", "image"],
        "--features/--exclude",
    );
}

/// `tfr report` on a TFDS folder: a table of each ClassLabel's classes by
/// count (the counts `count --by` gives), and the cards show the names.
#[test]
fn report_shows_each_class_label_by_class_with_its_names() {
    let dir = toy();
    let tmp = Dir::new();
    let page = tmp.path("r.html").to_string_lossy().into_owned();
    tfr(&["report", &dir, "--split", "train", "-o", &page]).run().ok();
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html.find("<h3 id=\"classes\">").expect("a Classes table");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    for (class, n) in [("0 (cat)", 17), ("1 (dog)", 12), ("2 (bird)", 11)] {
        assert!(
            table.contains(&format!("<title>{class}: {n}</title>")),
            "{class}: {table}"
        );
    }
    assert!(table.contains("<td class=\"name\">0 (cat) × 17</td>"), "{table}");
    assert!(table.contains("<td class=\"name\">2 (bird) × 11</td>"), "{table}");
    assert!(
        table.contains("<td class=\"name\">none</td>"),
        "no class unseen: {table}"
    );
    assert!(
        html.contains("<dt>label</dt><dd>2 (bird)</dd>"),
        "a card names its class"
    );
    // A split where a class never occurs says which.
    tfr(&["report", &dir, "--split", "test[:2]", "-o", &page]).run().ok();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<td class=\"name\">0 (cat), 2 (bird)</td>"), "{html}");
    // Plain files have no classes table.
    let plain = format!("{dir}/tfr_toy-train.tfrecord-00000-of-00003");
    tfr(&["report", &plain, "-o", &page]).run().ok();
    assert!(!std::fs::read_to_string(&page).unwrap().contains("id=\"classes\""));
}

/// tests/oracle/tfds_split.py: tensorflow-datasets 4.9.10 reading the toy
/// dataset picks, for each split spec, the same records in the same order
/// as `tfr to-jsonl --split`, and knows the split sizes `tfr info --json`
/// states.
#[test]
#[ignore = "external: tensorflow-datasets 4.9.10 (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn tensorflow_datasets_picks_the_same_records_for_each_split_spec() {
    let scratch = Dir::new();
    if !python_in(&scratch, &["-c", "import tensorflow_datasets"]) {
        skip_or_fail("no Python with tensorflow-datasets (TFR_TF_PYTHON or target/venv-tf)");
        return;
    }
    let out = Command::new(tf_python())
        .current_dir(scratch.path(""))
        .args([&oracle_script("tfds_split.py"), "--tfr", env!("CARGO_BIN_EXE_tfr")])
        .env("TF_CPP_MIN_LOG_LEVEL", "3")
        .output()
        .expect("run tests/oracle/tfds_split.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "tfds_split.py:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A hostile review's findings: metadata that lies, outputs over the
/// dataset, options that do not apply. Each is one line, exit 2, nothing
/// written.
#[test]
fn lying_metadata_and_misdirected_options_are_refused_in_one_line() {
    let dir = Dir::new();
    let folder = copy_toy(&dir);
    let info_path = Path::new(&folder).join("dataset_info.json");
    let original = std::fs::read_to_string(&info_path).unwrap();
    // Shard counts that add up past 2^64, or a split listed twice.
    let lying = original.replacen("\"13\"", "\"18446744073709551615\"", 1);
    std::fs::write(&info_path, &lying).unwrap();
    one_line(&["info", &folder], "add up to more than 2^64");
    one_line(&["count", &folder, "--split", "train"], "add up to more than 2^64");
    std::fs::write(
        &info_path,
        original.replace("\"name\": \"test\"", "\"name\": \"train\""),
    )
    .unwrap();
    one_line(&["info", &folder], "listed twice");
    // A template that leaves the folder.
    std::fs::write(
        &info_path,
        original.replacen("{DATASET}-{SPLIT}", "../{DATASET}-{SPLIT}", 1),
    )
    .unwrap();
    one_line(&["count", &folder, "--split", "train"], "leaves the folder");
    std::fs::write(&info_path, &original).unwrap();
    // Class names as TFDS reads them: stripped, blank lines dropped; a
    // count that is not features.json's is an error.
    let labels = Path::new(&folder).join("label.labels.txt");
    std::fs::write(&labels, "cat\n\n  dog \nbird\n").unwrap();
    let by = tfr(&["count", "--by", "label", &folder, "--split", "test"]).run().ok();
    assert!(by.contains("1 (dog)") && !by.contains("()"), "{by}");
    std::fs::write(&labels, "cat\ndog\n").unwrap();
    one_line(&["info", &folder], "2 class names, where features.json says 3 classes");
    std::fs::write(&labels, "cat\ndog\nbird\n").unwrap();
    // The dataset's own metadata is not an output.
    one_line(
        &[
            "to-parquet",
            &folder,
            "--split",
            "test",
            "-o",
            info_path.to_str().unwrap(),
        ],
        "-o",
    );
    assert_eq!(std::fs::read_to_string(&info_path).unwrap(), original);
    // --explode names a Dataset, not a feature inside one.
    let out = dir.path("x.parquet").to_string_lossy().into_owned();
    one_line(
        &["to-parquet", &rlds(), "--explode", "steps/action", "-o", &out],
        "no Dataset feature of that name",
    );
    assert!(!Path::new(&out).exists());
    // --decode writes whole records.
    one_line(
        &["to-jsonl", "--decode", &toy(), "--split", "test", "--features", "label"],
        "--features/--exclude",
    );
}

#[test]
fn a_slice_with_one_percent_bound_is_in_percent_as_tfds_reads_it() {
    assert_eq!(total("train[10:50%]"), 16);
    assert_eq!(total("train[10%:20]"), 4);
}

#[test]
fn a_record_lacking_a_feature_is_null_in_parquet_with_a_warning() {
    let dir = Dir::new();
    let folder = copy_toy(&dir);
    let shard = Path::new(&folder).join(TEST[0]).to_string_lossy().into_owned();
    let lines = tfr(&["to-jsonl", &shard]).run().ok();
    let edited: Vec<String> = lines
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if i == 1 {
                v.as_object_mut().unwrap().remove("text");
            }
            v.to_string()
        })
        .collect();
    tfr(&["from-jsonl", "-o", &shard])
        .stdin(format!("{}\n", edited.join("\n")).as_bytes())
        .run()
        .ok();
    let out = dir.path("t.parquet").to_string_lossy().into_owned();
    let r = tfr(&["to-parquet", &folder, "--split", "test", "-o", &out]).run();
    r.warns();
    assert_eq!(
        r.stderr.trim(),
        "tfr: warning: split test: 1 of 12 records lack feature text (null in its column; TFDS itself would fail on them)"
    );
}

/// A second hostile review: `--decode` of a TFDS folder with another input
/// is refused (the other's records would be read by the folder's
/// features); `{split}` names files by split names, not slices; to-parquet
/// counts ClassLabel values that name no class.
#[test]
fn mixed_decode_sliced_split_names_and_unnamed_classes() {
    let plain = data("tensors/serialized.tfrecord");
    for args in [
        ["cat", "--decode", &plain, &toy()],
        ["to-jsonl", "--decode", &toy(), &plain],
    ] {
        // (after the note naming the folder's splits)
        let ran = tfr(&args).run();
        assert_eq!(ran.code, 2, "{}", ran.stderr);
        assert!(ran.stdout.is_empty());
        ran.stderr_has("decode them apart");
    }
    let dir = Dir::new();
    let out = dir.path("p/{split}.parquet").to_string_lossy().into_owned();
    one_line(
        &["to-parquet", &toy(), "--split", "train[:5]", "-o", &out],
        "{split} names a file by a split's name",
    );
    assert!(!dir.path("p").exists());
    // A test shard whose labels are 7 (of 3 classes).
    let folder = copy_toy(&dir);
    let shard = format!("{folder}/{}", TEST[0]);
    let lines = tfr(&["to-jsonl", &shard])
        .run()
        .ok()
        .replace("\"label\":[1]", "\"label\":[7]");
    assert!(lines.contains("\"label\":[7]"));
    let forged = dir.write("forged.jsonl", lines.as_bytes());
    tfr(&["from-jsonl", &forged, "-o", &shard]).run().ok();
    let out = dir.path("x.parquet").to_string_lossy().into_owned();
    let ran = tfr(&["to-parquet", &folder, "--split", "test", "-o", &out]).run();
    ran.warns();
    ran.stderr_has("values of ClassLabel label name no class");
}

/// `tfr info` of plain TFRecord inputs: each file's records (as `count`
/// counts them), bytes and compression, and the first record's payload
/// type and features.
#[test]
fn info_of_plain_files_counts_records_and_names_the_first_records_features() {
    let (plain, gz) = (data("notebook.tfrecord"), data("concat.tfrecord.gz"));
    let doc: serde_json::Value = serde_json::from_str(&tfr(&["info", "--json", &plain, &gz]).run().ok()).unwrap();
    let counted: serde_json::Value = serde_json::from_str(&tfr(&["count", "--json", &plain, &gz]).run().ok()).unwrap();
    assert_eq!(doc["records"], counted["total"], "{doc}");
    assert_eq!(doc["files"][1]["compression"], "gzip");
    assert_eq!(doc["files"][0]["bytes"], std::fs::metadata(&plain).unwrap().len());
    assert_eq!(doc["payload"], "tf.train.Example");
    let names: Vec<&str> = doc["first_record_features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["feature2", "feature3", "feature0", "feature1"]);
    let text = tfr(&["info", &plain]).run().ok();
    assert!(
        text.contains("payload: tf.train.Example") && text.contains("feature3"),
        "{text}"
    );
}

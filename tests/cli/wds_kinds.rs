//! `tfr from-wds` over samples whose `.json` gives a feature another kind
//! than an earlier sample did (issue 43): one error line naming both
//! samples, no output (TensorFlow parses one kind per feature).

use crate::util::*;
use crate::wds::tar_of;

#[test]
fn a_feature_whose_kind_changes_across_samples_is_one_error_and_no_output() {
    // int64 in one shard's samples, float in the next's: TensorFlow would
    // fail on the output ("Data types don't match").
    let dir = Dir::new();
    dir.write(
        "a.tar",
        &tar_of(&[("s0.json", b"{\"score\": 1}"), ("s1.json", b"{\"score\": 2}")]),
    );
    dir.write(
        "b.tar",
        &tar_of(&[
            ("s2.json", b"{\"score\": 0.5, \"tag\": \"x\"}"),
            ("s3.json", b"{\"tag\": 3}"),
        ]),
    );
    let e = dir
        .tfr(&["from-wds", "a.tar", "b.tar", "-o", "x.tfrecord"])
        .run()
        .fails(2);
    assert!(
        e.contains("feature score changes kind: int64 at a.tar:s0, float at b.tar:s2 (tf.io.parse_example reads one kind per feature; whole numbers read as int64"),
        "{e}"
    );
    assert!(!dir.path("x.tfrecord").exists(), "no output after an error");
    // Within one batch too, and bytes against a number.
    let e = dir.tfr(&["from-wds", "b.tar", "-o", "y.tfrecord"]).run().fails(2);
    assert!(
        e.contains("feature tag changes kind: bytes at b.tar:s2, int64 at b.tar:s3"),
        "{e}"
    );
    // Typed values settle it.
    dir.write("c.tar", &tar_of(&[("s4.json", b"{\"score\": {\"float_list\": [1]}}")]));
    dir.write("d.tar", &tar_of(&[("s5.json", b"{\"score\": 0.5}")]));
    dir.tfr(&["from-wds", "c.tar", "d.tar", "-o", "z.tfrecord"]).run().ok();
}

#[test]
#[ignore = "external: webdataset (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn webdataset_tarwriter_shards_with_drifting_json_kinds_are_refused_by_name() {
    let dir = Dir::new();
    let made = python_in(
        &dir,
        &[
            "-c",
            "import webdataset as wds, json\n\
             with wds.ShardWriter('part-%02d.tar', maxcount=2) as w:\n\
             \x20   for i, s in enumerate([1, 2, 0.5, 3]):\n\
             \x20       w.write({'__key__': f'k{i}', 'json': json.dumps({'score': s}).encode(), 'txt': b'x'})\n",
        ],
    );
    if !made {
        skip_or_fail("no Python with webdataset (pip install webdataset into target/venv-tf)");
        return;
    }
    let e = dir
        .tfr(&["from-wds", "part-00.tar", "part-01.tar", "-o", "x.tfrecord"])
        .run()
        .fails(2);
    assert!(
        e.contains("feature score changes kind: int64 at part-00.tar:k0, float at part-01.tar:k2"),
        "{e}"
    );
    assert!(!dir.path("x.tfrecord").exists());
}

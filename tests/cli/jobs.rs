//! `-j/--jobs`: several inputs read at once give exactly the output of one
//! at a time (stdout, stderr, exit code), with and without damage.

use crate::util::*;

/// An Example with one int64 feature `x` = [i] and a bytes feature `s`.
fn example(i: u64) -> Vec<u8> {
    let mut varint = Vec::new();
    let mut v = i;
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            varint.push(b);
            break;
        }
        varint.push(b | 0x80);
    }
    let field = |tag: u8, body: &[u8]| {
        let mut out = vec![tag, body.len() as u8];
        out.extend_from_slice(body);
        out
    };
    let int64 = field(0x1a, &field(0x0a, &varint)); // Feature.int64_list{value: [i]}
    let text = format!("row {i}");
    let bytes = field(0x0a, &field(0x0a, text.as_bytes())); // Feature.bytes_list{value: [text]}
    let entry_x = [field(0x0a, b"x"), field(0x12, &int64)].concat();
    let entry_s = [field(0x0a, b"s"), field(0x12, &bytes)].concat();
    let features = [field(0x0a, &entry_x), field(0x0a, &entry_s)].concat();
    field(0x0a, &features)
}

/// A file of `n` Examples starting at `first`.
fn examples(first: u64, n: u64) -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = (first..first + n).map(example).collect();
    let refs: Vec<&[u8]> = payloads.iter().map(|p| p.as_slice()).collect();
    records(&refs)
}

/// Inputs of every kind, some large enough for many batches.
fn inputs(dir: &Dir) -> Vec<String> {
    vec![
        dir.write("a.tfrecord", &examples(0, 20_000)),
        data("notebook.tfrecord.gz"),
        dir.write("b.tfrecord.gz", &gzip(&examples(20_000, 30_000))),
        data("notebook.zlib.tfrecord"),
        dir.write("c.tfrecord", &examples(50_000, 3)),
        data("empty.tfrecord"),
        dir.write("d.tfrecord", &zlib(&examples(60_000, 15_000))),
        data("notebook.tfrecord"),
    ]
}

/// Runs `tfr ARGS INPUTS` with `-j 1` and several other job counts; all
/// must give the same exit code, stdout and stderr. Returns the `-j 1` run.
fn same_for_any_jobs(args: &[&str], inputs: &[String]) -> Ran {
    let run = |jobs: &str| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["-j", jobs]);
        all.extend(inputs.iter().map(String::as_str));
        tfr(&all).run()
    };
    let one = run("1");
    for jobs in ["2", "16"] {
        let many = run(jobs);
        assert_eq!(many.code, one.code, "{args:?} -j {jobs}: exit code");
        assert_eq!(many.stderr, one.stderr, "{args:?} -j {jobs}: stderr");
        assert!(many.stdout == one.stdout, "{args:?} -j {jobs}: stdout differs");
    }
    one
}

#[test]
fn output_is_the_same_for_any_jobs() {
    let dir = Dir::new();
    let inputs = inputs(&dir);
    for args in [
        &["cat"][..],
        &["cat", "-f", "json"],
        &["cat", "-f", "protojson"],
        &["to-jsonl"],
        &["count"],
        &["count", "--json"],
    ] {
        let ran = same_for_any_jobs(args, &inputs);
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
    }
    // The lines are all there, in input order.
    let ran = same_for_any_jobs(&["to-jsonl"], &inputs);
    let text = String::from_utf8(ran.stdout).unwrap();
    let xs: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("{\"x\":[")?.split(']').next()?.parse().ok())
        .collect();
    let want: Vec<u64> = (0..20_000).chain(20_000..50_003).chain(60_000..75_000).collect();
    assert!(xs == want, "{} lines with x, {} expected", xs.len(), want.len());
}

#[test]
fn damage_stops_at_the_same_place_for_any_jobs() {
    let dir = Dir::new();
    let mut inputs = inputs(&dir);
    // Damage in the middle of a large gzip input: its records before the
    // damage are printed, the inputs after it are not.
    let mut bad = examples(100_000, 12_000);
    let mid = bad.len() / 2;
    bad[mid] ^= 0x40;
    inputs.insert(3, dir.write("bad.tfrecord.gz", &gzip(&bad)));
    for args in [&["cat"][..], &["cat", "-f", "json"], &["to-jsonl"]] {
        let ran = same_for_any_jobs(args, &inputs);
        assert_eq!(ran.code, 2, "{args:?}");
        assert!(ran.stderr.contains("bad.tfrecord.gz"), "{}", ran.stderr);
        assert!(!ran.stdout.is_empty());
    }
    let ran = same_for_any_jobs(&["to-jsonl"], &inputs);
    let text = String::from_utf8(ran.stdout).unwrap();
    let last = text.lines().last().unwrap();
    assert!(last.contains("\"x\":[10"), "last line before the damage: {last}");

    // A missing input and one that is not a TFRecord: the same.
    let mut inputs = self::inputs(&dir);
    inputs.insert(2, dir.path("missing.tfrecord").to_string_lossy().into_owned());
    let ran = same_for_any_jobs(&["cat"], &inputs);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("missing.tfrecord"), "{}", ran.stderr);
    let mut inputs = self::inputs(&dir);
    inputs.insert(5, data("not_tfrecord.csv"));
    let ran = same_for_any_jobs(&["to-jsonl"], &inputs);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("not a TFRecord"), "{}", ran.stderr);
}

#[test]
fn jobs_must_be_positive() {
    for cmd in ["cat", "count", "to-jsonl", "from-jsonl"] {
        let ran = tfr(&[cmd, "-j", "0", "x"]).run();
        assert_eq!(ran.code, 2, "{cmd}");
        assert!(ran.stderr.contains("-j"), "{cmd}: {}", ran.stderr);
    }
}

#[test]
fn gzip_output_is_the_same_records_for_any_jobs() {
    let dir = Dir::new();
    // Several megabytes of JSON lines: several compression chunks.
    let jsonl: String = (0..60_000u64)
        .map(|i| {
            format!(
                "{{\"x\": [{i}], \"s\": [\"row {i} {}\"]}}\n",
                "pad".repeat((i % 40) as usize)
            )
        })
        .collect();
    let input = dir.write("in.jsonl", jsonl.as_bytes());
    let mut plain = None;
    for jobs in ["1", "2", "3"] {
        let out = format!("out{jobs}.tfrecord.gz");
        dir.tfr(&["from-jsonl", "-j", jobs, &input, "-o", &out, "--compression", "gzip"])
            .run()
            .ok();
        let bytes = std::fs::read(dir.path(&out)).unwrap();
        let mut inflated = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut inflated).unwrap();
        match &plain {
            None => plain = Some(inflated),
            Some(p) => assert!(*p == inflated, "-j {jobs}: different records"),
        }
        let back = dir.tfr(&["to-jsonl", &out]).run().ok();
        assert!(back.lines().count() == 60_000, "-j {jobs}");
    }
}

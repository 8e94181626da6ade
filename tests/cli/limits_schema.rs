//! Bounded memory for large schemas (issue 47): `tfr validate --schema` of
//! a schema.pbtxt of large string domains peaks at no more than
//! 64 MB + 4 x the schema's size (it peaked at 812 MB on a 19 MB schema;
//! a domain named by 200 features took a set per feature).

use crate::proto::{Example, Feature, FeatureEntry, Features};
use crate::util::*;
use prost::Message;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `tfr ARGS` in `dir` under GNU time: the exit code, stdout, and the
/// peak RSS in MB. `None` when /usr/bin/time is missing (skipped, or a
/// failure under CI).
fn measured(dir: &Dir, args: &[&str]) -> Option<(i32, String, u64)> {
    if !std::path::Path::new("/usr/bin/time").exists() {
        skip_or_fail("GNU time (/usr/bin/time) is not installed");
        return None;
    }
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("PEAK_KB=%M")
        .arg(env!("CARGO_BIN_EXE_tfr"))
        .args(args)
        .current_dir(dir.path("."))
        .env_clear()
        .stdin(Stdio::null())
        .output()
        .expect("spawn");
    let (_, peak_mb) = split_peak(&String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Some((out.status.code().unwrap_or(-1), stdout, peak_mb))
}

/// A schema of `features` BYTES features over string domains of `values`
/// values each: one domain per feature, or (`shared`) one named by all.
fn schema(path: &std::path::Path, features: usize, values: usize, shared: bool) -> u64 {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for f in 0..features {
        let domain = if shared { 0 } else { f };
        writeln!(
            w,
            "feature {{\n  name: \"f{f:03}\"\n  type: BYTES\n  domain: \"d{domain:03}\"\n}}"
        )
        .unwrap();
    }
    for d in 0..(if shared { 1 } else { features }) {
        writeln!(w, "string_domain {{\n  name: \"d{d:03}\"").unwrap();
        for i in 0..values {
            writeln!(w, "  value: \"v{d:03}_{i:07}\"").unwrap();
        }
        writeln!(w, "}}").unwrap();
    }
    w.flush().unwrap();
    drop(w);
    std::fs::metadata(path).unwrap().len()
}

/// A few records holding values in and out of the domains.
fn data(dir: &Dir) {
    let recs: Vec<Vec<u8>> = (0..50)
        .map(|i| {
            let value = if i % 2 == 0 {
                format!("v000_{i:07}")
            } else {
                "not in the domain".to_string()
            };
            let feature = vec![FeatureEntry::new("f000", Feature::bytes(vec![value.into_bytes()]))];
            Example {
                features: Some(Features { feature }),
            }
            .encode_to_vec()
        })
        .collect();
    dir.write(
        "data.tfrecord",
        &records(&recs.iter().map(|r| r.as_slice()).collect::<Vec<_>>()),
    );
}

#[test]
fn validate_of_a_large_schema_holds_about_its_size() {
    let dir = Dir::new();
    data(&dir);
    // 200 domains of 4,300 values; one of 860,000; one of 860,000 named by
    // 200 features: each about 19 MB.
    for (features, values, shared) in [(200, 4300, false), (1, 860_000, false), (200, 860_000, true)] {
        let size = schema(&dir.path("schema.pbtxt"), features, values, shared);
        assert!(size > 15 << 20, "{size}");
        let Some((code, out, peak)) = measured(&dir, &["validate", "--schema", "schema.pbtxt", "data.tfrecord"]) else {
            return;
        };
        // The anomalies are found: f000's odd records are outside its domain.
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains("ENUM_TYPE_UNEXPECTED_STRING_VALUES") && out.contains(" 25 "),
            "{out}"
        );
        let bound = 64 + 4 * (size >> 20);
        assert!(
            peak <= bound,
            "{features} x {values} (shared {shared}): peak {peak} MB > {bound} MB"
        );
    }
}

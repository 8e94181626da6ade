//! from-parquet and from-arrow on files that hold far more than their size
//! or lie about it (issue 41), written by pyarrow
//! (tests/oracle/columnar_files.py): a dictionary column with one 1 MiB
//! value that every row points at is converted within a few megabytes
//! per batch in flight, and a footer that says a file holds 0 rows does
//! not lose the rows its row group holds.

use crate::util::*;
use std::io::Read;
use std::process::{Command, Stdio};

/// Runs tests/oracle/columnar_files.py ARGS in `dir` with a Python that
/// has pyarrow; false (skipped, or a failure under CI) without one.
fn pyarrow_files(dir: &Dir, args: &[&str]) -> bool {
    let python = tf_python();
    let made = Command::new(&python)
        .current_dir(dir.path(""))
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/columnar_files.py"))
        .args(args)
        .output();
    match made {
        Ok(o) if o.status.success() => true,
        Ok(o) if !String::from_utf8_lossy(&o.stderr).contains("No module named") => {
            panic!("columnar_files.py {args:?}: {}", String::from_utf8_lossy(&o.stderr))
        }
        _ => {
            skip_or_fail("no Python with pyarrow (set TFR_TF_PYTHON, or pip install pyarrow into target/venv-tf)");
            false
        }
    }
}

/// `tfr ARGS -o - | tfr count -` in `dir` (stdin from `stdin`, a file in
/// `dir`, when given), the first under GNU time: its exit code, stderr
/// without time's line, its peak RSS in MB, and what count printed.
/// `None` when /usr/bin/time is missing (skipped, or a failure under CI).
fn measured(dir: &Dir, args: &[&str], stdin: Option<&str>) -> Option<(i32, String, u64, String)> {
    if !std::path::Path::new("/usr/bin/time").exists() {
        skip_or_fail("GNU time (/usr/bin/time) is not installed");
        return None;
    }
    let input = match stdin {
        Some(f) => Stdio::from(std::fs::File::open(dir.path(f)).unwrap()),
        None => Stdio::null(),
    };
    let mut convert = Command::new("/usr/bin/time")
        .args(["-f", "PEAK_KB=%M", env!("CARGO_BIN_EXE_tfr")])
        .args(args)
        .args(["-o", "-"])
        .current_dir(dir.path(""))
        .stdin(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let count = Command::new(env!("CARGO_BIN_EXE_tfr"))
        .args(["count", "-"])
        .stdin(convert.stdout.take().unwrap())
        .output()
        .unwrap();
    let mut err = String::new();
    convert.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = convert.wait().unwrap();
    let (rest, peak_mb) = split_peak(&err);
    let counted = String::from_utf8_lossy(&count.stdout).trim().to_string();
    Some((status.code().unwrap_or(-1), rest, peak_mb, counted))
}

#[test]
#[ignore = "external: pyarrow (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn a_dictionary_value_many_rows_point_at_is_converted_in_bounded_memory() {
    // A few hundred bytes of Arrow or Parquet for 600 MB of records: one
    // 1 MiB value, 600 rows pointing at it. Batches were sized by their
    // memory (the value counted once): from-arrow made all 600 records in
    // one batch (peak ~600 MB; 8,000 rows aborted under a 4 GiB limit,
    // leaving the output's temporary file), from-parquet 64 at a time
    // (a window of 7 such batches, ~450 MB).
    let dir = Dir::new();
    if !pyarrow_files(&dir, &["dictionary", "600", "1048576", "."]) {
        return;
    }
    assert!(std::fs::metadata(dir.path("d.arrow")).unwrap().len() < 4096);
    let cases: [(&[&str], Option<&str>); 5] = [
        (&["from-arrow", "d.arrow"], None),
        (&["from-arrow", "d.arrows"], None),
        // A stream on stdin is read as it comes.
        (&["from-arrow"], Some("d.arrows")),
        (&["from-parquet", "d.parquet"], None),
        // The column as plain binary: the reader decodes the values.
        (&["from-parquet", "plain.parquet"], None),
    ];
    for (args, stdin) in cases {
        let args = [args, &["-j", "2"]].concat();
        let Some((code, err, peak, count)) = measured(&dir, &args, stdin) else {
            return;
        };
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(count, "600", "{args:?}: {err}");
        eprintln!("{args:?} (stdin {stdin:?}): peak RSS {peak} MB");
        // A batch in flight holds at most about a megabyte of records (or
        // one larger record): the window of -j 2 is 7 of them.
        assert!(peak < 64, "{args:?} (stdin {stdin:?}): peak RSS {peak} MB");
    }
}

#[test]
#[ignore = "external: pyarrow (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn a_footer_that_says_zero_rows_does_not_lose_the_row_groups_rows() {
    // pyarrow writes 1,000 rows in one row group; the footer's
    // FileMetaData.num_rows is then rewritten to 0 (columnar_files.py
    // walks the Thrift compact footer to field 3 and writes a 0 varint).
    // pyarrow still reads the 1,000 rows; tfr wrote none, exit 0.
    let dir = Dir::new();
    if !pyarrow_files(&dir, &["zero-footer", "1000", "zero.parquet"]) {
        return;
    }
    let r = dir.tfr(&["from-parquet", "zero.parquet", "-o", "z.tfrecord"]).run();
    let warned = r.warns();
    assert!(warned.is_empty());
    assert!(
        r.stderr
            .contains("zero.parquet: its footer says it holds 0 rows, its row groups hold 1000"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert_eq!(dir.tfr(&["count", "z.tfrecord"]).run().ok().trim(), "1000");
    let jsonl = dir.tfr(&["to-jsonl", "z.tfrecord"]).run().ok();
    // Each line holds the one feature `i` and its value.
    let ids: Vec<i64> = jsonl
        .lines()
        .map(|l| {
            l.split(|c: char| !c.is_ascii_digit())
                .find(|d| !d.is_empty())
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(ids, (0..1000).collect::<Vec<_>>());
}

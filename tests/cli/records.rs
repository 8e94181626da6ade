//! `--records LIST` (issue 48): cat, head and to-jsonl read just the listed
//! records by number (through `tfr_engine::access`), byte for byte as they
//! print them when reading everything.

use crate::util::*;

/// The JSON lines of every record of the inputs, as to-jsonl writes them.
fn all_lines(inputs: &[&str]) -> Vec<String> {
    let mut args = vec!["to-jsonl"];
    args.extend_from_slice(inputs);
    tfr(&args).run().ok().lines().map(str::to_string).collect()
}

/// cat's text output cut into one block per record.
fn blocks(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("# ") {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push_str(line);
        }
    }
    out
}

#[test]
fn listed_records_print_as_cat_prints_them_in_the_order_given() {
    let base = data("base20.tfrecord");
    let all = all_lines(&[&base]);
    assert_eq!(all.len(), 20);
    let got = tfr(&["to-jsonl", "--records", "17,3-5,0,3", &base]).run().ok();
    let want: Vec<&str> = [17, 3, 4, 5, 0, 3].iter().map(|&k| all[k].as_str()).collect();
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
    // Text: the same blocks, "# record N" comment lines and all.
    let text = blocks(&tfr(&["cat", &base]).run().ok());
    let got = blocks(&tfr(&["cat", "--records", "19,2", &base]).run().ok());
    assert_eq!(got, vec![text[19].clone(), text[2].clone()]);
    let head = tfr(&["head", "--records", "7", "-f", "json", &base]).run().ok();
    assert_eq!(head.trim_end(), all[7]);
}

#[test]
fn numbers_count_over_the_inputs_and_gzip_is_read_by_number() {
    let (base, gz) = (data("base20.tfrecord"), data("concat.tfrecord.gz"));
    let all = all_lines(&[&base, &gz]);
    assert_eq!(all.len(), 220);
    let got = tfr(&["to-jsonl", "--records", "219,20,150-152,19", &base, &gz])
        .run()
        .ok();
    let want: Vec<&str> = [219, 20, 150, 151, 152, 19].iter().map(|&k| all[k].as_str()).collect();
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
    let text = blocks(&tfr(&["cat", &base, &gz]).run().ok());
    let got = blocks(&tfr(&["cat", "--records", "120", &base, &gz]).run().ok());
    assert_eq!(got, vec![text[120].clone()]);
    assert!(
        got[0].starts_with("# ") && got[0].contains("concat.tfrecord.gz record 100"),
        "{}",
        got[0]
    );
}

#[test]
fn where_applies_to_the_listed_records() {
    let base = data("base20.tfrecord");
    let all = all_lines(&[&base]);
    let every = tfr(&["to-jsonl", "--records", "0-19", &base]).run().ok();
    assert_eq!(every.lines().count(), 20);
    let matching: Vec<usize> = (0..20).filter(|&k| all[k].contains("\"feature1\":[1]")).collect();
    assert!(matching.len() > 1 && matching.len() < 20, "{matching:?}");
    let listed = "19,0-18";
    let kept = tfr(&["to-jsonl", "--where", "feature1 == 1", "--records", listed, &base])
        .run()
        .ok();
    let mut want: Vec<&str> = matching
        .iter()
        .filter(|&&k| k == 19)
        .map(|&k| all[k].as_str())
        .collect();
    want.extend(matching.iter().filter(|&&k| k < 19).map(|&k| all[k].as_str()));
    assert_eq!(kept.lines().collect::<Vec<_>>(), want);
}

#[test]
fn numbers_past_the_end_and_bad_lists_are_one_line_and_exit_2() {
    let base = data("base20.tfrecord");
    let err = tfr(&["cat", "--records", "3,20", &base]).run().fails(2);
    assert!(err.contains("record 20 is past the end: there are 20 records"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = tfr(&["cat", "--records", "3,20", &base]).run();
    assert_eq!(out.stdout_str(), "", "nothing printed before the error");
    for bad in ["", "3-1", "x", "1,,2"] {
        let err = tfr(&["cat", "--records", bad, &base]).run().fails(2);
        assert!(err.contains("--records"), "{bad}: {err}");
    }
    for other in [
        &["--skip", "1"][..],
        &["-n", "1"],
        &["--sample", "2"],
        &["--part", "0/2"],
    ] {
        let mut args = vec!["cat", "--records", "1"];
        args.extend_from_slice(other);
        args.push(&base);
        let err = tfr(&args).run().fails(2);
        assert!(err.contains("cannot be used with"), "{other:?}: {err}");
    }
    let err = tfr(&["head", "--records", "1", "-n", "3", &base]).run().fails(2);
    assert!(err.contains("cannot be used with"), "{err}");
    // Damage: the record's own CRC, named with its byte.
    let damaged = data("data_crc.tfrecord");
    let err = tfr(&["cat", "--records", "5", &damaged]).run().fails(2);
    assert!(err.contains("record 5 at byte 500: data checksum mismatch"), "{err}");
    tfr(&["cat", "--records", "6", &damaged]).run().ok();
    // SNAPPY is read through, not by number.
    let err = tfr(&["cat", "--records", "0", &data("blocks.snappy.tfrecord")])
        .run()
        .fails(2);
    assert!(err.contains("SNAPPY") && err.contains("tfr cat"), "{err}");
}

#[test]
fn an_index_file_is_used_and_a_stale_one_warned_about() {
    let dir = Dir::new();
    let bytes = std::fs::read(data("base20.tfrecord")).unwrap();
    let f = dir.write("x.tfrecord", &bytes);
    let all = all_lines(&[&f]);
    tfr(&["index", &f]).run().ok();
    let ran = tfr(&["to-jsonl", "--records", "18,1", &f]).run();
    assert_eq!(
        ran.ok().lines().collect::<Vec<_>>(),
        vec![all[18].as_str(), all[1].as_str()]
    );
    // An index that does not match: a warning, the records still right.
    std::fs::write(format!("{f}.idx"), "0 16\n").unwrap();
    let ran = tfr(&["to-jsonl", "--records", "18", &f]).run();
    assert_eq!(ran.warns().trim_end(), all[18]);
    ran.stderr_has("x.tfrecord.idx does not match");
}

//! `tfr scalars`: TensorBoard's scalars of the event files TensorFlow 2.21
//! wrote (tests/data/events, made by tests/oracle/events_make.py), equal
//! byte for byte to tbparse's tables (tests/oracle/tbparse_scalars.py
//! --tfr: `.scalars`, the v1 simple_values, and the rows of `.tensors`
//! whose tags carry the scalars plugin, the v2 tf.summary.scalar values;
//! committed in tests/data/events/expected/tfr and recomputed live by the
//! external test): runs named and rows ordered and purged as TensorBoard's
//! accumulator does, a truncated file read to its damage with one
//! warning; the other forms hold the same rows; --tags and --runs filter.

use crate::util::*;

fn expected(name: &str) -> String {
    std::fs::read_to_string(data(&format!("events/expected/tfr/{name}.csv"))).unwrap()
}

/// The CSV records of a run's output (header dropped; a quoted field may
/// hold a line break).
fn csv_rows(csv: &str) -> Vec<String> {
    let (mut rows, mut row, mut quoted) = (Vec::new(), String::new(), false);
    for c in csv.chars() {
        match c {
            '"' => quoted = !quoted,
            '\n' if !quoted => {
                rows.push(std::mem::take(&mut row));
                continue;
            }
            _ => {}
        }
        row.push(c);
    }
    rows.into_iter().skip(1).collect()
}

#[test]
fn scalars_equal_tensorboards_rows_for_runs_restarts_and_steps_going_back() {
    for name in ["restart", "noversion"] {
        let out = tfr(&["scalars", &data(&format!("events/{name}")), "-f", "csv"])
            .run()
            .ok();
        assert_eq!(out, expected(name), "{name}");
    }
    // The truncated file is read to its damage, with one warning.
    let ran = tfr(&["scalars", &data("events/logs"), "-f", "csv"]).run();
    let out = ran.warns();
    assert_eq!(out, expected("logs"));
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    ran.stderr_has("lr_0.01/events.out.tfevents.1700000006.fixture.0: record 4");
    // Both kinds of scalars are there, and a non-scalar (histogram,
    // image, text, a plain tensor) is not.
    assert!(out.contains("train,accuracy,0,"), "v2 scalars");
    assert!(out.contains("eval,loss,0,"), "v1 scalars");
    for absent in [",plain_tensor,", ",hist", ",image", ",text"] {
        assert!(!out.contains(absent), "{absent}: {out}");
    }
}

#[test]
fn every_form_holds_the_same_rows() {
    let logs = data("events/logs");
    let csv = tfr(&["scalars", &logs, "-f", "csv"]).run().warns();
    let rows = csv_rows(&csv);
    let jsonl = tfr(&["scalars", &logs, "-f", "jsonl"]).run().warns();
    assert_eq!(jsonl.lines().count(), rows.len());
    for (line, row) in jsonl.lines().zip(&rows) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let step = v["step"].as_i64().unwrap().to_string();
        assert!(row.contains(&format!(",{step},")), "{line} vs {row}");
        let value = match &v["value"] {
            serde_json::Value::String(s) if s == "NaN" => String::new(),
            serde_json::Value::String(s) if s == "Infinity" => "inf".into(),
            serde_json::Value::String(s) if s == "-Infinity" => "-inf".into(),
            n => {
                let x = n.as_f64().unwrap();
                let mut s = format!("{x:?}");
                if s.contains('e') {
                    s = row.rsplit(',').next().unwrap().to_string();
                }
                s
            }
        };
        assert!(row.ends_with(&format!(",{value}")), "{line} vs {row}");
    }
    let table = tfr(&["scalars", &logs]).run().warns();
    let mut lines = table.lines();
    let head: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(head, ["run", "tag", "step", "wall_time", "value"]);
    // One line a row: a tag's line break is shown escaped.
    assert_eq!(lines.count(), rows.len());
    assert!(table.contains("we\"ird\\tag\\nné"), "{table}");
    // Parquet needs a file; the file holds every row.
    let dir = Dir::new();
    let pq = dir.path("s.parquet").to_string_lossy().into_owned();
    tfr(&["scalars", &logs, "-f", "parquet", "-o", &pq]).run().warns();
    assert!(std::fs::metadata(&pq).unwrap().len() > 100);
    let e = tfr(&["scalars", &logs, "-f", "parquet"]).run().fails(2);
    assert!(e.contains("-o"), "{e}");
}

#[test]
fn tags_and_runs_filter_by_regular_expression() {
    let logs = data("events/logs");
    let all = csv_rows(&tfr(&["scalars", &logs, "-f", "csv"]).run().warns());
    let loss = csv_rows(&tfr(&["scalars", &logs, "-f", "csv", "--tags", "^loss$"]).run().warns());
    let want: Vec<String> = all
        .iter()
        .filter(|r| r.split(',').nth(1) == Some("loss"))
        .cloned()
        .collect();
    assert_eq!(loss, want);
    assert!(!loss.is_empty());
    let sweep = csv_rows(&tfr(&["scalars", &logs, "-f", "csv", "--runs", "^sweep/"]).run().warns());
    let want: Vec<String> = all.iter().filter(|r| r.starts_with("sweep/")).cloned().collect();
    assert_eq!(sweep, want);
    // A run's own directory as LOGDIR: its rows, with the run "".
    let eval = csv_rows(&tfr(&["scalars", &format!("{logs}/eval"), "-f", "csv"]).run().ok());
    let want: Vec<String> = all
        .iter()
        .filter_map(|r| r.strip_prefix("eval,").map(|rest| format!(",{rest}")))
        .collect();
    assert_eq!(eval, want);
    let e = tfr(&["scalars", &logs, "--tags", "("]).run().fails(2);
    assert!(e.contains("--tags"), "{e}");
    let e = tfr(&["scalars", &format!("{logs}/nowhere")]).run().fails(2);
    assert!(e.contains("nowhere"), "{e}");
}

#[test]
fn several_log_directories_name_runs_below_each() {
    let (a, b) = (data("events/restart"), data("events/noversion"));
    let out = tfr(&["scalars", &a, &b, "-f", "csv"]).run().ok();
    let rows = csv_rows(&out);
    assert_eq!(
        rows.len(),
        csv_rows(&expected("restart")).len() + csv_rows(&expected("noversion")).len()
    );
    assert!(rows.iter().any(|r| r.starts_with(&format!("{a},"))), "{out}");
    assert!(rows.iter().any(|r| r.starts_with(&format!("{b},"))), "{out}");
}

/// tbparse itself (tests/oracle/tbparse_scalars.py --tfr), run now on each
/// log directory, gives exactly `tfr scalars -f csv`.
#[test]
#[ignore = "external: tbparse and TensorFlow (TFR_TF_PYTHON): cargo test -- --include-ignored"]
fn tbparse_gives_the_same_table() {
    let python = tf_python();
    if !python_has(&python, "tbparse") {
        skip_or_fail("no Python with tbparse (pip install tbparse==0.0.9 into target/venv-tf)");
        return;
    }
    for name in ["logs", "restart", "noversion"] {
        let dir = data(&format!("events/{name}"));
        let out = std::process::Command::new(&python)
            .args([oracle_script("tbparse_scalars.py").as_str(), dir.as_str(), "--tfr"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mine = tfr(&["scalars", &dir, "-f", "csv"]).run().warns();
        assert_eq!(mine, String::from_utf8(out.stdout).unwrap(), "{name}");
    }
}

/// A log directory under an object-store prefix (moto's S3): listed at
/// every depth, its runs named and its rows the local directory's.
#[test]
#[ignore = "external: an object-store server (target/venv-remote, target/npm-remote): cargo test -- --include-ignored"]
fn a_log_directory_in_a_bucket_gives_the_local_table() {
    use crate::remote::*;
    let Some(Moto {
        py,
        endpoint,
        env,
        server: _server,
        ..
    }) = moto()
    else {
        return;
    };
    let local = data_dir().join("events/logs");
    let mut stack = vec![local.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path.strip_prefix(&local).unwrap().to_string_lossy().into_owned();
            py.call(&[
                "s3-put",
                &endpoint,
                "bkt",
                &format!("runs/logs/{rel}"),
                path.to_str().unwrap(),
            ]);
        }
    }
    let remote = tfr_env(&env, &["scalars", "s3://bkt/runs/logs/", "-f", "csv"]).run();
    assert_eq!(remote.warns(), expected("logs"));
    assert!(remote.stderr.contains("record 4"), "{}", remote.stderr);
    let tagged = tfr_env(
        &env,
        &["scalars", "s3://bkt/runs/logs", "-f", "csv", "--runs", "^eval$"],
    )
    .run();
    let want: Vec<String> = csv_rows(&expected("logs"))
        .into_iter()
        .filter(|r| r.starts_with("eval,"))
        .collect();
    assert_eq!(csv_rows(&tagged.ok()), want);
}

//! Every command line the README and the `--help` examples show is run
//! (issue 28 item 11: the README showed a `-c` that does not exist).
//!
//! - README.md and docs/GUIDE.md: in a ```sh / ```bash / ```shell / ```console block every
//!   line that starts with `tfr ` (or `$ tfr `), and in any other block
//!   every line that starts with `$ tfr `; the lines that follow a
//!   `$ tfr ` line up to the next `$ ` line or the block's end are the
//!   output it shows, compared with stdout. Lines run in README order in
//!   one directory, so a line may use what an earlier one wrote.
//! - `tfr CMD --help` for every command: each example line (indented, starts
//!   with `tfr `), run in order in a fresh directory per command.
//!
//! Each line runs with `sh -c` in a scratch directory holding the fixtures
//! of [`fixtures`] (the names the examples use), with the built `tfr` first
//! on PATH, and must exit 0 ([`EXIT`] lists the lines that show a check
//! failing). A `tfr view` line starts a server that does not end: it runs
//! until it prints its URL on stdout, its `/api/info` must answer 200,
//! then SIGTERM stops it ([`run_server`]). Object-store URLs (`s3://BUCKET/KEY`, `gs://`, `az://`) cannot
//! be reached offline: the lines in [`URL_LINES`] run with each such URL
//! replaced by the local path KEY, so their flags are still checked; a URL
//! in a line not listed there fails the test (it is not skipped silently),
//! as does a listed line the README or help no longer has. How to make a
//! new example runnable: ARCHITECTURE.md, "Runnable examples".

use crate::util::*;
use std::path::Path;
use std::process::{Command, Stdio};

/// Lines (exactly as written) that show a failing check: their exit code.
const EXIT: &[(&str, i32)] = &[
    ("tfr verify-crc broken.tfrecord --salvage repaired.tfrecord", 1),
    ("tfr verify-crc damaged.tfrecord --salvage repaired.tfrecord", 1),
    (
        "tfr validate tests/data/annotations/coco_broken.tfrecord --label-map tests/data/annotations/label_map.pbtxt",
        1,
    ),
    (
        "tfr validate --schema tests/data/drift/schema.pbtxt --previous tests/data/drift/span1.tfrecord --serving tests/data/drift/serving.stats tests/data/drift/span2.tfrecord",
        1,
    ),
];

/// Lines (exactly as written, comment included) whose object-store URLs
/// are replaced by the local path of the key.
const URL_LINES: &[&str] = &[
    "tfr count 's3://bkt/data/train-*'            # a table per object, -j 16 by default",
    "tfr head -n 2 gs://bkt/train-00000-of-01024  # a ranged prefix, not the object",
    "tfr --no-sign-request cat -n 1 s3://public-bucket/x.tfrecord",
    "tfr to-jsonl s3://bkt/a.tfrecord | tfr from-jsonl -o s3://bkt/b.tfrecord.gz --compression gzip",
    "tfr index --out-dir idx/ 's3://bucket/train-*.tfrecord'",
    "tfr info gs://bkt/tfds/tfr_toy/1.0.0/ --json",
];

/// One example: where it is shown, the command line, the output shown.
#[derive(Debug)]
struct Example {
    at: String,
    line: String,
    output: Option<String>,
}

/// The examples of a README-style Markdown text.
fn markdown_examples(name: &str, text: &str) -> Vec<Example> {
    let mut found = find_examples(name, text);
    // A `$ tfr` line with nothing shown after it shows no output.
    for e in &mut found {
        if e.output.as_deref() == Some("") {
            e.output = None;
        }
    }
    found
}

fn find_examples(name: &str, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut block: Option<String> = None;
    let mut current: Option<Example> = None;
    for (n, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if let Some(fence) = trimmed.strip_prefix("```") {
            if block.is_some() {
                found.extend(current.take());
                block = None;
            } else {
                block = Some(fence.trim().to_string());
            }
            continue;
        }
        let Some(lang) = &block else { continue };
        let shell = matches!(lang.as_str(), "sh" | "bash" | "shell" | "console");
        let command = match trimmed.strip_prefix("$ ") {
            Some(rest) if rest.starts_with("tfr ") => Some((rest, true)),
            Some(_) => None,
            None if shell && trimmed.starts_with("tfr ") => Some((trimmed, false)),
            None => None,
        };
        match command {
            Some((line, dollar)) => {
                found.extend(current.take());
                let example = Example {
                    at: format!("{name}:{}", n + 1),
                    line: line.trim_end().to_string(),
                    output: dollar.then(String::new),
                };
                if dollar {
                    current = Some(example);
                } else {
                    found.push(example);
                }
            }
            None if trimmed.starts_with("$ ") => found.extend(current.take()),
            None => {
                if let Some(Example { output: Some(out), .. }) = &mut current {
                    out.push_str(raw);
                    out.push('\n');
                }
            }
        }
    }
    found.extend(current);
    found
}

/// The example lines of one `--help` text.
fn help_examples(name: &str, text: &str) -> Vec<Example> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(' ') && l.trim_start().starts_with("tfr "))
        .map(|(n, l)| Example {
            at: format!("{name} line {}", n + 1),
            line: l.trim().to_string(),
            output: None,
        })
        .collect()
}

fn run_tfr_here(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_tfr"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run tfr");
    assert!(
        out.status.success(),
        "fixture: tfr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The files the examples name, made from the fixtures in tests/data.
fn fixtures(dir: &Path) {
    let read = |name: &str| std::fs::read(data(name)).expect("fixture");
    let put = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    let images = read("images.tfrecord");
    // `tests/data/...` as from the repository's root.
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::os::unix::fs::symlink(data_dir(), dir.join("tests/data")).unwrap();
    // The TFDS datasets, where the object-store examples name them.
    std::os::unix::fs::symlink(data_dir().join("tfds"), dir.join("tfds")).unwrap();
    for name in [
        "train.tfrecord",
        "x.tfrecord",
        "a.tfrecord",
        "train-00000-of-01024",
        "shard-00",
        "shard-01",
        "shards/train-00000-of-00002",
        "shards/train-00001-of-00002",
        "data/eval-00000-of-00001.tfrecord",
        "data/mnist/3.0.1/mnist-train.tfrecord-00000-of-00002",
        "data/mnist/3.0.1/mnist-train.tfrecord-00001-of-00002",
        // The reshaping and index examples.
        "raw/a.tfrecord",
        "raw/b.tfrecord",
        "big.tfrecord",
        "data.tfrecord",
        "part-0",
        "part-1",
        "data/train-00000-of-00002.tfrecord",
        "data/train-00001-of-00002.tfrecord",
        "train-00000-of-00001.tfrecord",
    ] {
        put(name, &images);
    }
    std::fs::create_dir_all(dir.join("idx")).unwrap();
    put("big.tfrecord.gz", &gzip(&images));
    put("data/mnist/3.0.1/dataset_info.json", b"{}\n");
    for name in [
        "train.tfrecord.gz",
        "new.tfrecord.gz",
        "data/train-00000-of-00002.tfrecord.gz",
        "data/train-00001-of-00002.tfrecord.gz",
    ] {
        put(name, &gzip(&images));
    }
    put("lines.tfrecord", &read("raw_text.tfrecord"));
    // Object-detection examples (TensorFlow's, in the OD API layout).
    put("coco_val.tfrecord", &read("annotations/coco_val.tfrecord"));
    put("label_map.pbtxt", &read("annotations/label_map.pbtxt"));
    put("clips.tfrecord", &read("sequence.tfrecord"));
    put("train_elwc.tfrecord", &read("ranking_elwc.tfrecord"));
    put("broken.tfrecord", &read("data_crc.tfrecord"));
    put("damaged.tfrecord", &read("data_crc.tfrecord"));
    let jsonl = run_tfr_here(dir, &["to-jsonl", "train.tfrecord"]);
    put("data.jsonl", &jsonl);
    put("edited.jsonl", &jsonl);
    put(
        "schema.json",
        &run_tfr_here(dir, &["schema", "--format", "json", "train.tfrecord"]),
    );
    put(
        "part2.json",
        &run_tfr_here(dir, &["stats", "-f", "json", "train.tfrecord"]),
    );
    // A dataset whose pictures are under another name.
    let faces = String::from_utf8(jsonl)
        .unwrap()
        .replace("\"image/encoded\"", "\"face/raw\"");
    put("faces.jsonl", faces.as_bytes());
    run_tfr_here(dir, &["from-jsonl", "faces.jsonl", "-o", "faces.tfrecord"]);
    // The Parquet and Arrow examples.
    #[cfg(feature = "parquet")]
    for (cmd, out) in [
        ("to-parquet", "train.parquet"),
        ("to-parquet", "parts/a.parquet"),
        ("to-parquet", "parts/b.parquet"),
        ("to-arrow", "train.arrow"),
    ] {
        std::fs::create_dir_all(dir.join("parts")).unwrap();
        run_tfr_here(dir, &[cmd, "train.tfrecord", "-o", out]);
    }
    // Two datasets to compare (--compare): the drift fixtures' spans, the
    // first also as TFDV's statistics file; a TFDS folder's two splits.
    put("train/part-0.tfrecord", &read("drift/span1.tfrecord"));
    put("eval/part-0.tfrecord", &read("drift/span2.tfrecord"));
    put("train_stats.tfrecord", &read("drift/span1.stats"));
    std::os::unix::fs::symlink(data_dir().join("tfds/tfr_toy/1.0.0"), dir.join("ds")).unwrap();
    // WebDataset shards for from-wds's examples.
    run_tfr_here(dir, &["to-wds", "train.tfrecord", "-o", "wds/shard.tar"]);
}

/// Copies the directory `from` into `to` (which exists): files by their
/// bytes, symbolic links as links.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src).unwrap(), &dst).unwrap();
        } else if kind.is_dir() {
            std::fs::create_dir(&dst).unwrap();
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Object-store URLs in a line, as `scheme://bucket/`.
fn url_prefixes(line: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for scheme in ["s3://", "s3a://", "gs://", "az://", "abfs://"] {
        let mut from = 0;
        while let Some(i) = line[from..].find(scheme) {
            let start = from + i;
            let after = start + scheme.len();
            let bucket_end = line[after..].find('/').map_or(line.len(), |j| after + j + 1);
            found.push((start, bucket_end));
            from = bucket_end;
        }
    }
    found.sort();
    found
}

/// The line as it is run: object-store URLs replaced by local paths when
/// the line is listed in [`URL_LINES`].
fn runnable(example: &Example) -> Result<String, String> {
    let urls = url_prefixes(&example.line);
    if urls.is_empty() {
        return Ok(example.line.clone());
    }
    if !URL_LINES.contains(&example.line.as_str()) {
        return Err(format!(
            "{}: `{}` names an object store: list it in URL_LINES (tests/cli/readme.rs) to run it on local files",
            example.at, example.line
        ));
    }
    let mut line = example.line.clone();
    for (start, end) in urls.into_iter().rev() {
        line.replace_range(start..end, "");
    }
    Ok(line)
}

/// Runs examples in order in `dir`; returns one message per failure.
fn run_examples(dir: &Path, examples: &[Example], failures: &mut Vec<String>) {
    let bin = Path::new(env!("CARGO_BIN_EXE_tfr")).parent().unwrap().to_path_buf();
    let mut path = std::ffi::OsString::from(&bin);
    if let Some(rest) = std::env::var_os("PATH") {
        path.push(":");
        path.push(rest);
    }
    let has_jq = Command::new("jq").arg("--version").output().is_ok();
    for example in examples {
        let line = match runnable(example) {
            Ok(line) => line,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        if line.contains("| jq ") && !has_jq {
            skip_or_fail(&format!("no jq to run {}: `{}`", example.at, example.line));
            continue;
        }
        if line.starts_with("tfr view ") {
            if let Err(e) = run_server(dir, &line, &path) {
                failures.push(format!("{}: `{}`: {e}", example.at, example.line));
            }
            continue;
        }
        let out = Command::new("sh")
            .args(["-c", &line])
            .current_dir(dir)
            .env_clear()
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .expect("run sh");
        let want = EXIT.iter().find(|(l, _)| *l == example.line).map_or(0, |e| e.1);
        let code = out.status.code().unwrap_or(-1);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if code != want || stderr.contains("panicked") {
            failures.push(format!(
                "{}: `{}`: exit {code}, expected {want}: {}",
                example.at,
                example.line,
                stderr.trim_end()
            ));
            continue;
        }
        if let Some(shown) = &example.output {
            let got = String::from_utf8_lossy(&out.stdout);
            if got.trim_end() != shown.trim_end() {
                failures.push(format!(
                    "{}: `{}`: the output differs from the one shown:\n--- shown\n{shown}--- got\n{got}",
                    example.at, example.line
                ));
            }
        }
    }
}

/// Runs a `tfr view` line until it prints its URL, asks its `/api/info`,
/// and stops it with SIGTERM (it must die by the signal; not SIGINT, which
/// a test run in the background inherits ignored, and tfr keeps ignored).
fn run_server(dir: &Path, line: &str, path: &std::ffi::OsStr) -> Result<(), String> {
    use std::io::{BufRead, Read, Write};
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new("sh")
        .args(["-c", &format!("exec {line}")])
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sh");
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut url = String::new();
        let _ = std::io::BufReader::new(out).read_line(&mut url);
        let _ = tx.send(url);
    });
    let url = rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap_or_default();
    let port = url
        .trim_end()
        .strip_prefix("http://127.0.0.1:")
        .and_then(|p| p.strip_suffix('/'))
        .and_then(|p| p.parse::<u16>().ok());
    let answer = port.map(|port| {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
        let req = format!("GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
        let mut got = String::new();
        let _ = s.read_to_string(&mut got);
        Ok::<String, String>(got)
    });
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        match child.try_wait().expect("wait") {
            Some(status) => break status,
            None if std::time::Instant::now() > deadline => {
                let _ = child.kill();
                break child.wait().expect("wait");
            }
            None => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    };
    let mut stderr = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
    match answer {
        None => Err(format!("no URL on stdout ({url:?}); stderr: {}", stderr.trim_end())),
        Some(Err(e)) => Err(format!("{url}: {e}")),
        Some(Ok(got)) if !got.starts_with("HTTP/1.1 200 ") => Err(format!("/api/info: {got}")),
        Some(Ok(_)) if status.signal() != Some(15) || stderr.contains("panicked") => Err(format!(
            "not stopped by SIGTERM: {status:?}; stderr: {}",
            stderr.trim_end()
        )),
        Some(Ok(_)) => Ok(()),
    }
}

#[test]
#[ignore = "slow: every command line of README.md and docs/GUIDE.md run in order: cargo test -- --include-ignored"]
fn every_readme_and_guide_command_line_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // README.md, then docs/GUIDE.md, in one directory: a guide line may
    // use what a README line wrote.
    let mut examples = Vec::new();
    for name in ["README.md", "docs/GUIDE.md"] {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        let found = markdown_examples(name, &text);
        assert!(found.len() > 5, "only {} examples found in {name}", found.len());
        examples.extend(found);
    }
    let dir = Dir::new();
    let here = dir.path("");
    fixtures(&here);
    let mut failures = Vec::new();
    run_examples(&here, &examples, &mut failures);
    let help = every_help_example();
    for listed in URL_LINES.iter().chain(EXIT.iter().map(|e| &e.0)) {
        if !examples.iter().chain(&help).any(|e| e.line == *listed) {
            failures.push(format!("`{listed}` is listed in tests/cli/readme.rs but shown nowhere"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn every_help_example() -> Vec<Example> {
    let main = String::from_utf8(tfr(&["--help"]).run().stdout).unwrap();
    let commands: Vec<String> = main
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A description wrapped onto its own line is indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 10, "{main}");
    let mut examples = help_examples("tfr --help", &main);
    for command in &commands {
        let text = tfr(&[command, "--help"]).run().ok();
        examples.extend(help_examples(&format!("tfr {command} --help"), &text));
    }
    examples
}

#[test]
#[ignore = "slow: every example of every command's --help run in order: cargo test -- --include-ignored"]
fn every_help_example_runs() {
    let examples = every_help_example();
    assert!(examples.len() > 20, "only {} examples found", examples.len());
    let mut failures = Vec::new();
    // One directory per command: its examples run in order.
    let mut by_command: Vec<(String, Vec<Example>)> = Vec::new();
    for example in examples {
        let key = example.at.split(" --help").next().unwrap_or("").to_string();
        match by_command.last_mut() {
            Some((k, list)) if *k == key => list.push(example),
            _ => by_command.push((key, vec![example])),
        }
    }
    // The fixtures are made once and copied into each command's directory
    // (made anew for each, they were most of this test's time).
    let made = Dir::new();
    fixtures(&made.path(""));
    for (_, list) in by_command {
        let dir = Dir::new();
        let here = dir.path("");
        copy_tree(&made.path(""), &here);
        run_examples(&here, &list, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The harness finds what it should, and refuses an unlisted URL.
#[test]
fn the_example_finder_reads_blocks_as_documented() {
    let text = "intro `tfr x`\n```sh\ntfr count a  # c\ncargo test\n  tfr head b\n```\n\
                ```text\n$ tfr cat c\nline 1\nline 2\n$ echo\nnot output\n```\n\
                ```\ntfr schema d\n$ tfr stats e\n```\n";
    let found = markdown_examples("R", text);
    let lines: Vec<(&str, &str, Option<&str>)> = found
        .iter()
        .map(|e| (e.at.as_str(), e.line.as_str(), e.output.as_deref()))
        .collect();
    assert_eq!(
        lines,
        [
            ("R:3", "tfr count a  # c", None),
            ("R:5", "tfr head b", None),
            ("R:8", "tfr cat c", Some("line 1\nline 2\n")),
            ("R:16", "tfr stats e", None),
        ]
    );
    let unlisted = Example {
        at: "R:1".into(),
        line: "tfr count s3://b/k".into(),
        output: None,
    };
    assert!(runnable(&unlisted).is_err());
    let listed = Example {
        at: "R:1".into(),
        line: URL_LINES[3].into(),
        output: None,
    };
    assert_eq!(
        runnable(&listed).unwrap(),
        "tfr to-jsonl a.tfrecord | tfr from-jsonl -o b.tfrecord.gz --compression gzip"
    );
}

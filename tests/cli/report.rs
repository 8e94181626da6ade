//! `tfr report`: a self-contained page (no URL but `data:`), histograms
//! that are the statistics' own numbers, and a real headless Chromium
//! (Debian's `chromium`; `.ci/run` installs it) that loads the page without
//! a script error and decodes every thumbnail.

use crate::util::*;
use std::path::Path;
use std::process::Command;

fn report(dir: &Dir, fixture: &str, extra: &[&str]) -> String {
    let out = dir.path(&format!("{fixture}.html"));
    let mut args = vec!["report", "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let input = data(&format!("{fixture}.tfrecord"));
    args.push(&input);
    dir.tfr(&args).run().ok();
    std::fs::read_to_string(out).unwrap()
}

/// Every `src=`/`href=` is a `data:` URL, and no `http(s)://` appears.
#[test]
fn no_external_url_appears() {
    let dir = Dir::new();
    for fixture in ["gallery", "notebook", "sequence", "ranking_elwc"] {
        let html = report(&dir, fixture, &[]);
        assert!(!html.contains("http://") && !html.contains("https://"), "{fixture}");
        for attr in ["src=\"", "href=\""] {
            for (i, _) in html.match_indices(attr) {
                let value = &html[i + attr.len()..];
                assert!(
                    value.starts_with("data:"),
                    "{fixture}: {}",
                    &value[..40.min(value.len())]
                );
            }
        }
        assert!(html.starts_with("<!doctype html>"), "{fixture}");
        assert!(html.trim_end().ends_with("</html>"), "{fixture}");
    }
}

/// The tooltips of a chart in a feature's row: `(low, high, count)`.
fn bars(html: &str, feature: &str, class: &str) -> Vec<(String, String, String)> {
    let row = html
        .find(&format!("data-name=\"{feature}\""))
        .unwrap_or_else(|| panic!("no row {feature}"));
    let row = &html[row..html[row..].find("</tr>").unwrap() + row];
    let svg = &row[row.find(&format!("<svg class=\"{class}\"")).expect("chart")..];
    let svg = &svg[..svg.find("</svg>").unwrap()];
    svg.split("<title>")
        .skip(1)
        .map(|t| {
            let t = &t[..t.find("</title>").unwrap()];
            let (range, count) = t.rsplit_once(": ").unwrap();
            let (lo, hi) = range.split_once(" to ").unwrap();
            (lo.to_string(), hi.to_string(), count.to_string())
        })
        .collect()
}

/// The notebook's four features with the histograms of `tfr stats`.
#[test]
fn notebook_histograms_are_the_statistics() {
    let dir = Dir::new();
    let html = report(&dir, "notebook", &[]);
    for f in ["feature0", "feature1", "feature2", "feature3"] {
        assert!(html.contains(&format!("data-name=\"{f}\"")), "{f}");
    }
    let text = tfr(&["stats", "-f", "tfdv-stats-text", &data("notebook.tfrecord")])
        .run()
        .ok();
    // feature0: 99 zeros and 101 ones in the first and last of 10 buckets.
    let b = bars(&html, "feature0", "standard");
    assert_eq!(b.len(), 10);
    assert_eq!((b[0].0.as_str(), b[0].2.as_str()), ("0", "99"));
    assert_eq!((b[9].1.as_str(), b[9].2.as_str()), ("1", "101"));
    assert!(b[1..9].iter().all(|x| x.2 == "0"), "{b:?}");
    // Every numeric histogram has the buckets of the statistics: the
    // report draws the exact counts, the TFDV statistics file holds TFDV's
    // (interpolated from its quantiles, issue 28): both count every value.
    for f in ["feature0", "feature1", "feature3"] {
        let start = text.find(&format!("step: \"{f}\"")).unwrap();
        let block_start = text[..start].rfind("  features {").unwrap();
        let block = &text[block_start..start];
        // The standard histogram is the first of the two (its type,
        // STANDARD, is the default and is not written).
        let standard = &block[block.find("histograms {").unwrap() + 12..];
        let standard = &standard[..standard.find("histograms {").unwrap()];
        let counts: Vec<f64> = standard
            .lines()
            .filter_map(|l| l.trim().strip_prefix("sample_count: "))
            .map(|c| c.parse().unwrap())
            .collect();
        let drawn: Vec<f64> = bars(&html, f, "standard")
            .iter()
            .map(|x| x.2.parse().unwrap())
            .collect();
        assert_eq!(drawn.len(), 10, "{f}");
        assert!(drawn.iter().all(|c| c.fract() == 0.0), "{f}: {drawn:?}");
        assert_eq!(drawn.iter().sum::<f64>(), 200.0, "{f}");
        assert!((counts.iter().sum::<f64>() - 200.0).abs() < 1e-9, "{f}: {counts:?}");
    }
    // feature2's top values, as a bar chart.
    assert!(html.contains("<title>horse: 51</title>"), "top values");
    // The quantile view of feature3 (200 distinct values): 10 buckets as
    // TFDV weighs them, the values between each bucket's bounds (the
    // minimum in the first, the maximum's bucket ending at rank 199).
    let q = bars(&html, "feature3", "quantiles");
    let counts: Vec<&str> = q.iter().map(|x| x.2.as_str()).collect();
    assert_eq!(
        counts,
        ["21", "20", "20", "20", "20", "20", "20", "20", "20", "19"],
        "{q:?}"
    );
}

#[test]
fn damage_is_shown_and_streams_are_refused() {
    let dir = Dir::new();
    // Damage: the page holds the statistics of the records before it and
    // says where it is; the damage is still an error (exit 2).
    let err = dir
        .tfr(&["report", "-o", "damaged.html", &data("data_crc.tfrecord")])
        .run()
        .fails(2);
    assert!(err.contains("data_crc.tfrecord"), "{err}");
    let html = std::fs::read_to_string(dir.path("damaged.html")).unwrap();
    assert!(html.contains("damaged"), "integrity line");
    let err = dir
        .tfr(&["report", "-o", "damaged.html/dir/r.html", &data("notebook.tfrecord")])
        .run()
        .fails(2);
    assert!(err.starts_with("tfr: "), "{err}");
}

pub fn chromium() -> Option<String> {
    for c in ["chromium", "chromium-browser", "google-chrome"] {
        if Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(c.to_string());
        }
    }
    None
}

/// Headless Chromium, as oracles.md measured it on this machine: no
/// sandbox (root), no GPU, no background networking (the closed network
/// refuses it), a fresh profile.
pub fn headless(dir: &Dir, chrome: &str) -> Command {
    let mut c = Command::new(chrome);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
    ])
    .arg(format!("--user-data-dir={}", dir.path("profile").display()));
    c
}

/// What the page's self-check (`#check`) reports when `browser` loads
/// it: the JSON it writes into the DOM.
pub fn self_check(mut browser: Command, page: &Path) -> serde_json::Value {
    let dom = browser
        .args(["--virtual-time-budget=10000", "--dump-dom"])
        .arg(format!("file://{}#check", page.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    let check = dom
        .split("<pre id=\"tfr-check\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| panic!("the page's self-check did not run: {dom:.2000}"));
    serde_json::from_str(&check.replace("&quot;", "\"")).unwrap()
}

#[test]
#[ignore = "external: headless Chromium: cargo test -- --include-ignored"]
fn chromium_renders_the_page_and_every_thumbnail() {
    let Some(chrome) = chromium() else {
        skip_or_fail("headless Chromium (Debian's chromium) is not installed");
        return;
    };
    let dir = Dir::new();
    report(&dir, "gallery", &[]);
    let page = dir.path("gallery.html");
    let page = std::fs::canonicalize(page).unwrap();
    let v = self_check(headless(&dir, &chrome), &page);
    assert_eq!(v["errors"], serde_json::json!([]), "script errors");
    assert_eq!(v["images"], 16, "{v}");
    assert_eq!(v["decoded"], 16, "{v}");
    for size in v["sizes"].as_array().unwrap() {
        assert_eq!(size, &serde_json::json!([96, 64]), "{v}");
    }
    assert!(v["charts"].as_u64().unwrap() > 40, "{v}");
    // Sorted by missing share, "weight" (missing once) comes first.
    assert_eq!(v["by_missing"][0], "weight", "{v}");
    // And it draws: a screenshot.
    let shot = dir.path("shot.png");
    let status = headless(&dir, &chrome)
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1300,1400")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "{} bytes", png.len());
}

/// `--schema`: the anomalies of `tfr validate`, the features marked.
#[test]
fn anomalies_against_a_schema_are_listed_and_marked() {
    let dir = Dir::new();
    let schema = data_dir().join("validate").join("notebook.pbtxt");
    let schema = schema.to_str().unwrap();
    let clean = report(&dir, "notebook", &["--schema", schema]);
    assert!(clean.contains("None: the data conforms to the schema."), "clean");
    assert!(!clean.contains("class=\"row anomalous\""));
    let drifted = report(&dir, "images", &["--schema", schema]);
    assert!(drifted.contains("SCHEMA_MISSING_COLUMN"), "missing columns");
    assert!(drifted.contains("SCHEMA_NEW_COLUMN"), "new columns");
    // The new feature's row is marked, with its anomaly's name.
    let row = drifted.find("data-name=\"label\"").expect("label row");
    let start = drifted[..row].rfind("<tr").unwrap();
    assert!(
        drifted[start..row].contains("anomalous"),
        "{}",
        &drifted[start..row + 60]
    );
    assert!(drifted[row..]
        .split("</tr>")
        .next()
        .unwrap()
        .contains("SCHEMA_NEW_COLUMN"));
    let err = dir
        .tfr(&[
            "report",
            "-o",
            "x.html",
            "--schema",
            "nope.pbtxt",
            &data("notebook.tfrecord"),
        ])
        .run()
        .fails(2);
    assert!(err.contains("nope.pbtxt"), "{err}");
    assert!(!dir.path("x.html").exists());
}

/// An image whose header announces 9000x9000 is described, not decoded
/// (a few hundred bytes could otherwise cost a second and 240 MB each).
#[test]
fn huge_announced_images_are_not_decoded() {
    use crate::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    // A JPEG start: SOI, then a baseline SOF0 of 9000x9000, 3 components.
    let mut jpeg = vec![0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08];
    jpeg.extend_from_slice(&9000u16.to_be_bytes());
    jpeg.extend_from_slice(&9000u16.to_be_bytes());
    jpeg.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    jpeg.extend_from_slice(&[0xff, 0xd9]);
    let ex = Example {
        features: Some(Features {
            feature: vec![FeatureEntry::new("image/encoded", Feature::bytes(vec![jpeg]))],
        }),
    }
    .encode_to_vec();
    let dir = Dir::new();
    dir.write("bomb.tfrecord", &records(&[&ex, &ex, &ex]));
    dir.tfr(&["report", "-o", "bomb.html", "bomb.tfrecord"]).run().ok();
    let html = std::fs::read_to_string(dir.path("bomb.html")).unwrap();
    assert_eq!(
        html.matches("9000x9000 is over 8 megapixels").count(),
        3,
        "{html:.3000}"
    );
}

/// Regression (issue 27, item 9): bidirectional override and isolate
/// characters (U+202E...) in a feature name or value reached the page raw,
/// making text read as something else; they are escaped like controls.
#[test]
fn bidi_formatting_characters_are_escaped() {
    use crate::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    let sneaky = "label\u{202e}gnp.exe\u{2066}x\u{2069}\u{200f}";
    let ex = Example {
        features: Some(Features {
            feature: vec![FeatureEntry::new(
                sneaky,
                Feature::bytes(vec![sneaky.as_bytes().to_vec()]),
            )],
        }),
    }
    .encode_to_vec();
    let dir = Dir::new();
    dir.write("b.tfrecord", &records(&[&ex]));
    dir.tfr(&["report", "-o", "b.html", "b.tfrecord", "--title", sneaky])
        .run()
        .warns();
    let html = std::fs::read_to_string(dir.path("b.html")).unwrap();
    for c in ['\u{202e}', '\u{2066}', '\u{2069}', '\u{200f}'] {
        assert!(!html.contains(c), "U+{:04X} is on the page raw", c as u32);
    }
    assert!(html.contains("label\\u{202e}gnp.exe"), "{html:.2000}");
}

/// The cells of a feature's row in the page: their text, tags removed.
fn row_cells(html: &str, feature: &str) -> Vec<String> {
    let start = html
        .find(&format!("<tr class=\"row\" data-name=\"{feature}\""))
        .unwrap_or_else(|| panic!("no row {feature}"));
    let row = &html[start..start + html[start..].find("</tr>").unwrap()];
    row.split("<td")
        .skip(1)
        .map(|cell| {
            let inner = &cell[cell.find('>').unwrap() + 1..];
            let inner = inner.split("</td>").next().unwrap();
            // Charts and tags out: the text left.
            let inner = inner.split("<svg").next().unwrap();
            let mut text = String::new();
            let mut in_tag = false;
            for c in inner.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            text
        })
        .collect()
}

/// Issue 28 item 14: integers such as timestamps and ids printed as
/// `1.600G`; the "≈" of an estimated median stood on the exact minimum,
/// unexplained; long names wrapped mid-word.
#[test]
fn integers_keep_their_digits_and_only_estimates_are_marked() {
    let dir = Dir::new();
    let mut lines = String::new();
    for i in 0..6000u64 {
        lines.push_str(&format!(
            "{{\"ts\": [{}], \"small\": [{}]}}\n",
            1_600_000_000 + i * 7,
            i % 10
        ));
    }
    dir.write("t.jsonl", lines.as_bytes());
    dir.tfr(&[
        "from-jsonl",
        "t.jsonl",
        "-o",
        "a-long_file-name.for.the.overview.tfrecord",
    ])
    .run()
    .ok();
    dir.tfr(&["report", "a-long_file-name.for.the.overview.tfrecord", "-o", "r.html"])
        .run()
        .ok();
    let html = std::fs::read_to_string(dir.path("r.html")).unwrap();
    // feature, count, missing, values, mean, std dev, zeros, min, median, max
    let ts = row_cells(&html, "ts");
    assert_eq!(ts[4], "1600020996", "mean: {ts:?}");
    assert_eq!(ts[7], "1600000000", "min: {ts:?}");
    assert_eq!(ts[9], "1600041993", "max: {ts:?}");
    assert!(
        ts[8].starts_with('≈') && ts[8][3..].parse::<u64>().is_ok(),
        "median: {ts:?}"
    );
    let small = row_cells(&html, "small");
    assert_eq!(
        (
            small[4].as_str(),
            small[7].as_str(),
            small[8].as_str(),
            small[9].as_str()
        ),
        ("4.5", "0", "5", "9")
    );
    assert!(html.contains("class=\"approx\" title=\"estimated: more than 4,096 distinct values"));
    assert!(html.contains("≈ median: estimated"));
    assert!(html.contains("a-<wbr>long_<wbr>file-<wbr>name.<wbr>for.<wbr>the.<wbr>overview.<wbr>tfrecord"));
    // Names break where <wbr> allows, a word only when a part cannot fit.
    for rule in ["td.name{", ".card header{"] {
        let css = html[html.find(rule).unwrap()..].split('}').next().unwrap();
        assert!(
            !css.contains("break-all") && css.contains("overflow-wrap:anywhere"),
            "{css}"
        );
    }
}

/// Issue 28 item 14: the gallery's cards fill a wide window (more columns,
/// no empty band on the right), in a real browser.
#[test]
#[ignore = "external: headless Chromium: cargo test -- --include-ignored"]
fn the_gallery_fills_a_wide_window() {
    let Some(chrome) = chromium() else {
        skip_or_fail("headless Chromium (Debian's chromium) is not installed");
        return;
    };
    let dir = Dir::new();
    report(&dir, "gallery", &[]);
    let page = std::fs::canonicalize(dir.path("gallery.html")).unwrap();
    let mut columns = Vec::new();
    for width in [1300, 2400] {
        let mut browser = headless(&dir, &chrome);
        browser.arg(format!("--window-size={width},1400"));
        let v = self_check(browser, &page);
        let (used, all) = (v["cards_used"].as_f64().unwrap(), v["cards_width"].as_f64().unwrap());
        assert!(
            all > 0.0 && used >= all - 2.0,
            "{width}: cards use {used} of {all} px: {v}"
        );
        columns.push(v["columns"].as_u64().unwrap());
    }
    assert!(columns[0] >= 3 && columns[1] >= 6, "{columns:?}");
}

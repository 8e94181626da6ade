//! Annotations drawn over `tfr report`'s thumbnails: every box of the
//! records TensorFlow wrote in the Object Detection API's layout
//! (`tests/oracle/annotations_make.py`; what it wrote is in
//! `tests/data/annotations/annotations.json`), with its class's name, in
//! the right place; `--highlight`; pixel boxes; classification captions;
//! broken boxes listed on their cards; and headless Chromium drawing them.

use crate::report::{chromium, headless, self_check};
use crate::util::*;
use serde_json::Value;

fn ann(name: &str) -> String {
    data(&format!("annotations/{name}"))
}

/// What annotations_make.py wrote for one file: its records.
fn written(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(ann("annotations.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["files"][file]["records"].as_array().unwrap().clone()
}

fn report(dir: &Dir, name: &str, extra: &[&str]) -> String {
    let out = dir.path(&format!("{name}.html"));
    let input = ann(name);
    let mut args = vec!["report", "--records", "100", "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.push(&input);
    dir.tfr(&args).run().ok();
    std::fs::read_to_string(out).unwrap()
}

/// The gallery's cards: (record number, the card's HTML).
fn cards(html: &str) -> Vec<(u64, String)> {
    html.split("<article class=\"card\">")
        .skip(1)
        .map(|c| {
            let n = c.split("<b>#").nth(1).unwrap().split("</b>").next().unwrap();
            (n.parse().unwrap(), c.split("</article>").next().unwrap().to_string())
        })
        .collect()
}

/// The boxes drawn on a card: (group class, title, x, y, width, height).
fn boxes(card: &str) -> Vec<(String, String, [f64; 4])> {
    card.split("<g class=\"")
        .skip(1)
        .map(|g| {
            let group = g.split('"').next().unwrap().to_string();
            let attr = |name: &str| -> f64 {
                let key = format!(" {name}=\"");
                g.split(&key)
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            let title = g.split("<title>").nth(1).unwrap().split("</title>").next().unwrap();
            (
                group,
                title.to_string(),
                [attr("x"), attr("y"), attr("width"), attr("height")],
            )
        })
        .collect()
}

#[test]
fn every_box_is_drawn_where_tensorflow_wrote_it_with_its_class() {
    let dir = Dir::new();
    let label_map = ann("label_map.pbtxt");
    let html = report(&dir, "coco_val.tfrecord", &["--label-map", &label_map]);
    let records = written("coco_val.tfrecord");
    let cards = cards(&html);
    assert_eq!(cards.len(), records.len());
    let mut drawn = 0;
    for ((n, card), want) in cards.iter().zip(&records) {
        assert_eq!(*n, want["record"].as_u64().unwrap());
        let want_boxes = want["boxes"].as_array().unwrap();
        let got = boxes(card);
        assert_eq!(got.len(), want_boxes.len(), "record {n}");
        // 64x48 pictures are shown at 160x120.
        let (sw, sh) = (160.0, 120.0);
        for ((group, title, [x, y, w, h]), b) in got.iter().zip(want_boxes) {
            assert_eq!(group, "box");
            let f = |k: &str| b[k].as_f64().unwrap();
            assert_eq!(title, &format!("{} ({})", b["text"].as_str().unwrap(), b["label"]));
            let close = |a: f64, b: f64| (a - b).abs() < 0.01;
            assert!(
                close(*x, f("xmin") * sw) && close(*y, f("ymin") * sh),
                "record {n}: {title}"
            );
            assert!(close(*w, (f("xmax") - f("xmin")) * sw), "record {n}: {title}");
            assert!(close(*h, (f("ymax") - f("ymin")) * sh), "record {n}: {title}");
        }
        if want_boxes.is_empty() {
            assert!(!card.contains("<svg class=\"ov\""), "record {n} has no box");
        } else {
            assert!(card.contains(&format!("{} box", want_boxes.len())), "caption of {n}");
        }
        drawn += got.len();
        if want["mask"].as_bool() == Some(true) {
            assert!(
                card.contains("<image class=\"mask\" href=\"data:image/png;base64,"),
                "mask of {n}"
            );
        }
        let keypoints = want["keypoints"].as_u64().unwrap_or(0) as usize;
        assert_eq!(
            card.matches("<circle class=\"kp\"").count(),
            keypoints,
            "keypoints of {n}"
        );
    }
    assert_eq!(drawn, 90);
    // No problem in the clean file.
    assert!(!html.contains("class=\"problem\""));
}

#[test]
fn highlight_marks_the_named_classes_and_dims_the_rest() {
    let dir = Dir::new();
    let label_map = ann("label_map.pbtxt");
    let html = report(
        &dir,
        "coco_val.tfrecord",
        &["--label-map", &label_map, "--highlight", "person,6"],
    );
    let mut seen = (0, 0);
    for (_, card) in cards(&html) {
        for (group, title, _) in boxes(&card) {
            let wanted = title.starts_with("person (") || title.starts_with("bus (6)");
            assert_eq!(group, if wanted { "box hl" } else { "box dim" }, "{title}");
            if wanted {
                seen.0 += 1;
            } else {
                seen.1 += 1;
            }
        }
    }
    // person: 19 boxes, bus: 7 (annotations.json's summary).
    assert_eq!(seen, (26, 64));
}

#[test]
fn pixel_boxes_are_drawn_as_their_normalised_corners() {
    let dir = Dir::new();
    let html = report(&dir, "pixels.tfrecord", &[]);
    let records = written("pixels.tfrecord");
    for ((n, card), want) in cards(&html).iter().zip(&records) {
        let got = boxes(card);
        let want_boxes = want["boxes"].as_array().unwrap();
        assert_eq!(got.len(), want_boxes.len(), "record {n}");
        for ((_, _, [x, _, w, _]), b) in got.iter().zip(want_boxes) {
            let f = |k: &str| b[k].as_f64().unwrap();
            assert!((x - f("xmin") * 160.0).abs() < 0.01, "record {n}");
            assert!((w - (f("xmax") - f("xmin")) * 160.0).abs() < 0.01, "record {n}");
        }
        assert!(!card.contains("class=\"problem\""), "record {n}: {card}");
    }
}

#[test]
fn a_classified_picture_is_captioned_with_its_class() {
    let dir = Dir::new();
    let html = report(&dir, "classify.tfrecord", &[]);
    let records = written("classify.tfrecord");
    let cards = cards(&html);
    assert_eq!(cards.len(), records.len());
    for ((n, card), want) in cards.iter().zip(&records) {
        let class = format!(
            "{} ({})",
            want["class"]["text"].as_str().expect("class text"),
            want["class"]["label"].as_i64().expect("class label")
        );
        assert!(card.contains(&format!(">{class}</span>")), "record {n}: {class}");
    }
}

#[test]
fn each_broken_box_is_listed_on_its_card_and_only_there() {
    let dir = Dir::new();
    let label_map = ann("label_map.pbtxt");
    let html = report(&dir, "coco_broken.tfrecord", &["--label-map", &label_map]);
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(ann("coco_broken.expected.json")).unwrap()).unwrap();
    let kinds = [
        ("outside_unit_range", "BBOX_OUT_OF_RANGE"),
        ("xmin_gt_xmax", "BBOX_XMIN_GREATER_THAN_XMAX"),
        ("ymin_gt_ymax", "BBOX_YMIN_GREATER_THAN_YMAX"),
        ("zero_area", "BBOX_ZERO_AREA"),
        ("coordinate_lengths_differ", "BBOX_LENGTHS_DIFFER"),
        ("class_lengths_differ", "BBOX_CLASS_COUNT_MISMATCH"),
        ("class_not_in_label_map", "CLASS_NOT_IN_LABEL_MAP"),
    ];
    for (n, card) in cards(&html) {
        let mut want: Vec<&str> = kinds
            .iter()
            .filter(|(k, _)| expected["problems"][k].as_array().unwrap().iter().any(|r| r == n))
            .map(|(_, name)| *name)
            .collect();
        let mut got: Vec<&str> = card
            .split("<p class=\"problem\" title=\"")
            .skip(1)
            .map(|p| p.split('"').next().unwrap())
            .collect();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "record {n}");
        // A broken box is still drawn, dashed.
        if want.iter().any(|k| k.contains("GREATER") || k.contains("RANGE")) {
            assert!(card.contains("<rect class=\"broken\""), "record {n}");
        }
    }
}

/// Class names come from the data: escaped in the title, the label and
/// the caption; a label map that is not one is a one-line error.
#[test]
fn hostile_class_names_are_escaped_and_bad_label_maps_refused() {
    let dir = Dir::new();
    // A real JPEG from the fixture, with hostile class text.
    let first = tfr(&["to-jsonl", "-n", "1", &ann("coco_val.tfrecord")]).run().ok();
    let mut v: Value = serde_json::from_str(first.trim()).unwrap();
    v["image/object/class/text"] = serde_json::json!(vec!["<script>alert(1)</script>\"&'"; 5]);
    v["image/class/text"] = serde_json::json!(["<img src=x onerror=alert(2)>"]);
    v["image/class/label"] = serde_json::json!([1]);
    let jsonl = dir.write("evil.jsonl", format!("{v}\n").as_bytes());
    let evil = dir.path("evil.tfrecord");
    dir.tfr(&["from-jsonl", &jsonl, "-o", evil.to_str().unwrap()])
        .run()
        .ok();
    let out = dir.path("evil.html");
    dir.tfr(&["report", "-o", out.to_str().unwrap(), evil.to_str().unwrap()])
        .run()
        .ok();
    let html = std::fs::read_to_string(out).unwrap();
    assert!(
        !html.contains("<script>alert") && !html.contains("<img src=x"),
        "not escaped"
    );
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;"));
    assert!(html.contains("&lt;img src=x onerror=alert(2)&gt; (1)"));

    let bad = dir.write("bad.pbtxt", b"item {\n  id: 1\n  name: 'x\n}\n");
    let err = dir
        .tfr(&["report", "--label-map", &bad, "-o", "r.html", &ann("coco_val.tfrecord")])
        .run()
        .fails(2);
    assert!(
        err.starts_with("tfr: ") && err.contains("bad.pbtxt") && err.contains("line 3"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!dir.path("r.html").exists());
    let err = dir
        .tfr(&[
            "report",
            "--label-map",
            "missing.pbtxt",
            "-o",
            "r.html",
            &ann("coco_val.tfrecord"),
        ])
        .run()
        .fails(2);
    assert!(err.contains("missing.pbtxt"), "{err}");
}

#[test]
#[ignore = "external: headless Chromium: cargo test -- --include-ignored"]
fn chromium_draws_every_box_over_its_picture_at_two_widths() {
    let Some(chrome) = chromium() else {
        skip_or_fail("headless Chromium (Debian's chromium) is not installed");
        return;
    };
    let dir = Dir::new();
    let label_map = ann("label_map.pbtxt");
    report(
        &dir,
        "coco_val.tfrecord",
        &["--label-map", &label_map, "--highlight", "person"],
    );
    let page = std::fs::canonicalize(dir.path("coco_val.tfrecord.html")).unwrap();
    let v = self_check(headless(&dir, &chrome), &page);
    assert_eq!(v["errors"], serde_json::json!([]), "script errors");
    let records = written("coco_val.tfrecord");
    let drawn = v["boxes"].as_array().unwrap();
    assert_eq!(drawn.len(), records.len());
    for (got, want) in drawn.iter().zip(&records) {
        let titles: Vec<String> = want["boxes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| format!("{} ({})", b["text"].as_str().unwrap(), b["label"]))
            .collect();
        assert_eq!(got, &serde_json::json!(titles), "record {}", want["record"]);
    }
    // Each overlay lies exactly over its picture.
    let with_boxes = records
        .iter()
        .filter(|r| !r["boxes"].as_array().unwrap().is_empty())
        .count();
    assert!(v["overlays"].as_u64().unwrap() >= with_boxes as u64, "{v}");
    assert_eq!(v["aligned"], v["overlays"], "{v}");
    for width in [420, 1280] {
        let shot = dir.path(&format!("shot-{width}.png"));
        let out = headless(&dir, &chrome)
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("--window-size={width},2000"))
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("chromium runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let png = std::fs::read(&shot).unwrap();
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 20_000,
            "{width}: {} bytes",
            png.len()
        );
    }
}

/// A TFDS folder written by tensorflow-datasets (`tests/oracle/tfds_detect_make.py`):
/// `objects/bbox` in `[ymin, xmin, ymax, xmax]` order, classes named by
/// the folder's ClassLabel files, as TFDS itself read them back
/// (`tfr_detect.expected.json`).
#[test]
fn a_tfds_folders_boxes_are_drawn_with_its_class_names() {
    let dir = Dir::new();
    let out = dir.path("tfds.html");
    let folder = data("tfds/tfr_detect/1.0.0");
    dir.tfr(&[
        "report",
        "--records",
        "100",
        "--split",
        "train",
        "-o",
        out.to_str().unwrap(),
        &folder,
    ])
    .run()
    .ok();
    let html = std::fs::read_to_string(out).unwrap();
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(data_dir().join("tfds/tfr_detect.expected.json")).unwrap())
            .unwrap();
    let records = expected["records"].as_array().unwrap();
    let cards = cards(&html);
    assert_eq!(cards.len(), records.len());
    let mut total = 0;
    for ((n, card), want) in cards.iter().zip(records) {
        assert_eq!(*n, want["index"].as_u64().unwrap());
        let objects = &want["objects"];
        let got = boxes(card);
        let want_boxes = objects["bbox"].as_array().unwrap();
        assert_eq!(got.len(), want_boxes.len(), "{}", want["tfds_id"]);
        for (i, (_, title, [x, y, w, h])) in got.iter().enumerate() {
            let b: Vec<f64> = want_boxes[i]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let (ymin, xmin, ymax, xmax) = (b[0], b[1], b[2], b[3]);
            let close = |a: f64, b: f64| (a - b).abs() < 0.01;
            assert!(
                close(*x, xmin * 160.0) && close(*y, ymin * 120.0),
                "{}",
                want["tfds_id"]
            );
            assert!(close(*w, (xmax - xmin) * 160.0) && close(*h, (ymax - ymin) * 120.0));
            let class = format!(
                "{} ({})",
                objects["label_name"][i].as_str().unwrap(),
                objects["label"][i]
            );
            assert_eq!(title, &class);
        }
        total += got.len();
        // The picture's own ClassLabel.
        let caption = format!(">{} ({})</span>", want["label_name"].as_str().unwrap(), want["label"]);
        assert!(card.contains(&caption), "{caption}");
    }
    assert_eq!(total as u64, expected["boxes"].as_u64().unwrap());
}

/// A BBoxFeature's `bboxFormat` decides the order of its four values: the
/// same folder said to hold `[xmin, ymin, xmax, ymax]` draws each box
/// transposed.
#[test]
fn a_tfds_bbox_format_is_followed() {
    let dir = Dir::new();
    let folder = data_dir().join("tfds/tfr_detect/1.0.0");
    let copy = dir.path("tfr_detect/1.0.0");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let entry = entry.unwrap();
        let mut bytes = std::fs::read(entry.path()).unwrap();
        if entry.file_name() == "features.json" {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains("REL_YXYX"));
            bytes = text.replace("REL_YXYX", "REL_XYXY").into_bytes();
        }
        std::fs::write(copy.join(entry.file_name()), bytes).unwrap();
    }
    let page = |from: &std::path::Path, name: &str| {
        let out = dir.path(name);
        dir.tfr(&[
            "report",
            "--split",
            "train",
            "-o",
            out.to_str().unwrap(),
            from.to_str().unwrap(),
        ])
        .run()
        .ok();
        std::fs::read_to_string(out).unwrap()
    };
    let (yx, xy) = (page(&folder, "yx.html"), page(&copy, "xy.html"));
    let (yx, xy) = (cards(&yx), cards(&xy));
    let mut compared = 0;
    for ((_, a), (_, b)) in yx.iter().zip(&xy) {
        for ((_, _, [ax, ay, aw, ah]), (_, _, [bx, by, bw, bh])) in boxes(a).iter().zip(boxes(b).iter()) {
            // 64x48 pictures shown at 160x120: x/160 and y/120 swap.
            let close = |p: f64, q: f64| (p - q).abs() < 0.02;
            assert!(close(bx / 160.0, ay / 120.0) && close(by / 120.0, ax / 160.0));
            assert!(close(bw / 160.0, ah / 120.0) && close(bh / 120.0, aw / 160.0));
            compared += 1;
        }
    }
    assert_eq!(compared, 28);
}

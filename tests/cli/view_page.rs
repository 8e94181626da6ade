//! `tfr view`'s page in headless Chromium (tests/browser/drive.mjs): the
//! grid draws as many boxes as TensorFlow stored in the records shown,
//! ← → page, a jump finds its record, Enter opens it (its boxes drawn),
//! Escape goes back, the address keeps the place, and nothing the page
//! does is refused by its Content-Security-Policy (a refusal is a console
//! error); screenshots at two widths.

use crate::util::*;
use crate::view::view;
use serde_json::{json, Value};

/// The boxes TensorFlow stored in each record of coco_val.tfrecord.
fn stored_boxes() -> Vec<usize> {
    let text = std::fs::read_to_string(data("annotations/annotations.json")).unwrap();
    let stored: Value = serde_json::from_str(&text).unwrap();
    stored["files"]["coco_val.tfrecord"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["boxes"].as_array().unwrap().len())
        .collect()
}

#[test]
#[ignore = "external: headless Chromium driven by node + playwright-core: cargo test -- --include-ignored"]
fn the_page_pages_jumps_and_opens_records_with_their_boxes() {
    let dir = Dir::new();
    let file = data("annotations/coco_val.tfrecord");
    let map = data("annotations/label_map.pbtxt");
    let v = view(&dir, &["--label-map", &map, "--highlight", "person", &file]);
    let boxes = stored_boxes();
    let (wide, narrow) = (dir.path("wide.png"), dir.path("narrow.png"));
    let cards = "document.querySelectorAll('#grid .card')";
    let first_card = "document.querySelector('#grid .card b')?.textContent";
    let plan = json!({
        "viewport": {"width": 1280, "height": 900},
        "steps": [
            {"goto": v.url},
            {"wait_for": format!("{cards}.length === 24")},
            {"wait_for": "[...document.images].every(i => i.complete && i.naturalWidth > 0)"},

            {"count": "#grid svg.ov rect", "as": "grid_boxes"},
            {"count": "#grid svg.ov g.hl rect", "as": "grid_highlighted"},
            {"eval": "document.querySelector('#grid svg.ov rect title').textContent", "as": "a_title"},
            {"text": "#status", "as": "status"},
            {"screenshot": wide, "full_page": true},
            {"press": "ArrowRight"},
            {"wait_for": format!("location.hash === '#g=24' && {first_card} === '#24'")},
            {"count": "#grid .card", "as": "second_page"},
            {"count": "#grid svg.ov rect", "as": "second_boxes"},
            {"press": "ArrowLeft"},
            {"wait_for": format!("location.hash === '#g=0' && {first_card} === '#0'")},
            {"fill": "#jump-n", "text": "14"},
            {"press": "Enter", "selector": "#jump-n"},
            {"wait_for": "document.activeElement?.dataset?.n === '14'"},
            {"press": "Enter"},
            {"wait_for": "location.hash === '#n=14' && document.querySelector('#single-images svg.ov rect') !== null"},
            {"count": "#single-images svg.ov rect", "as": "record_boxes"},
            // The grid is gone from the screen, not only marked hidden.
            {"eval": "getComputedStyle(document.getElementById('grid')).display", "as": "grid_display"},
            {"text": "#single-head", "as": "head"},
            {"eval": "JSON.parse(document.querySelector('#single-features').textContent)['image/object/class/text']", "as": "classes"},
            {"press": "ArrowRight"},
            {"wait_for": "location.hash === '#n=15' && document.querySelector('#single-head').textContent.startsWith('#15 ')"},
            {"press": "Escape"},
            // Back on the grid's page, the record left focused.
            {"wait_for": format!("location.hash === '#g=0' && {cards}.length === 24 && document.activeElement?.dataset?.n === '15'")},
            {"viewport": {"width": 480, "height": 900}},
            {"goto": format!("{}#n=29", v.url)},
            {"wait_for": "document.querySelector('#single-head').textContent.startsWith('#29 ')"},
            {"eval": "document.getElementById('next').disabled", "as": "last_next_disabled"},
            {"screenshot": narrow, "full_page": true},
        ]
    });
    let Some(out) = browser(&plan) else { return };
    let named = &out["named"];
    assert_eq!(named["grid_boxes"], boxes[..24].iter().sum::<usize>(), "{out}");
    assert_eq!(named["second_page"], 6, "{out}");
    assert_eq!(named["second_boxes"], boxes[24..].iter().sum::<usize>(), "{out}");
    assert_eq!(named["record_boxes"], boxes[14], "{out}");
    assert_eq!(named["grid_display"], "none", "{out}");
    assert!(named["grid_highlighted"].as_u64().unwrap() > 0, "{out}");
    assert!(named["a_title"].as_str().unwrap().contains(" ("), "{out}");
    assert_eq!(named["status"], "30 records", "{out}");
    assert!(named["head"].as_str().unwrap().starts_with("#14 "), "{out}");
    assert!(
        named["head"]
            .as_str()
            .unwrap()
            .contains("coco_val.tfrecord · record 14"),
        "{out}"
    );
    assert_eq!(named["classes"].as_array().map(Vec::len), Some(boxes[14]), "{out}");
    assert_eq!(named["last_next_disabled"], true, "{out}");
    for list in ["page_errors", "console_errors", "http_errors", "failed_requests"] {
        assert_eq!(out[list], json!([]), "{list}: {out}");
    }
    for (shot, width) in [(&wide, 1280), (&narrow, 480)] {
        let png = std::fs::read(shot).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", shot.display());
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), width);
    }
}

//! The browser harness itself (tests/browser/drive.mjs through
//! `util::browser`): headless Chromium, driven by playwright-core, loads a
//! small page, and the steps' answers come back as JSON; the page tests of
//! `tfr report` and `tfr view` build on it.

use crate::util::*;
use serde_json::json;

/// Two boxes in an SVG, a key handler, an image that is not there.
const PAGE: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>harness</title></head><body>
<svg class="ov" width="64" height="48" viewBox="0 0 64 48">
<rect x="2" y="2" width="20" height="10" fill="none" stroke="red"><title>car (3)</title></rect>
<rect x="30" y="20" width="12" height="20" fill="none" stroke="blue"><title>person (1)</title></rect>
</svg>
<p id="n">0</p>
<img src="not-there.png" alt="">
<script>
document.addEventListener("keydown", (e) => {
  const n = document.getElementById("n");
  if (e.key === "ArrowRight") n.textContent = String(Number(n.textContent) + 1);
  if (e.key === "ArrowLeft") n.textContent = String(Number(n.textContent) - 1);
});
</script>
</body></html>
"#;

#[test]
#[ignore = "external: headless Chromium driven by node + playwright-core: cargo test -- --include-ignored"]
fn drives_chromium_through_a_plan() {
    let dir = Dir::new();
    dir.write("page.html", PAGE.as_bytes());
    let url = file_url(&dir.path("page.html"));
    let (narrow, wide) = (dir.path("narrow.png"), dir.path("wide.png"));
    let plan = json!({
        "viewport": {"width": 360, "height": 400},
        "steps": [
            {"goto": url},
            {"wait": "svg.ov rect"},
            {"count": "svg.ov rect", "as": "boxes"},
            {"eval": "[...document.querySelectorAll('svg.ov rect > title')].map(t => t.textContent)", "as": "titles"},
            {"press": "ArrowRight"},
            {"press": "ArrowRight"},
            {"press": "ArrowLeft"},
            {"text": "#n", "as": "counter"},
            {"screenshot": narrow, "full_page": true},
            {"viewport": {"width": 1100, "height": 700}},
            {"eval": "[innerWidth, innerHeight]", "as": "size"},
            {"screenshot": wide},
        ]
    });
    let Some(v) = browser(&plan) else { return };
    assert_eq!(v["named"]["boxes"], 2, "{v}");
    assert_eq!(v["results"][1], 2, "wait answers the matches: {v}");
    assert_eq!(v["named"]["titles"], json!(["car (3)", "person (1)"]), "{v}");
    assert_eq!(v["named"]["counter"], "1", "{v}");
    assert_eq!(v["named"]["size"], json!([1100, 700]), "{v}");
    assert_eq!(v["page_errors"], json!([]), "{v}");
    // The missing image is seen.
    let failed = v["failed_requests"].as_array().unwrap();
    assert!(
        failed.len() == 1 && failed[0]["url"].as_str().unwrap().ends_with("/not-there.png"),
        "{v}"
    );
    for shot in [&narrow, &wide] {
        let png = std::fs::read(shot).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", shot.display());
        // The IHDR's width: the viewport's.
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        assert_eq!(width, if shot == &narrow { 360 } else { 1100 }, "{}", shot.display());
    }
}

/// A step that cannot succeed fails the run with one line naming it; an
/// exception in the page is reported.
#[test]
#[ignore = "external: headless Chromium driven by node + playwright-core: cargo test -- --include-ignored"]
fn a_failing_step_is_one_line_naming_it() {
    let dir = Dir::new();
    dir.write(
        "page.html",
        b"<!doctype html><p>x</p><script>throw new Error('boom 46')</script>",
    );
    let url = file_url(&dir.path("page.html"));
    let plan = json!({"steps": [
        {"goto": url},
        {"count": "p"},
        {"wait": "#never", "timeout_ms": 300},
        {"count": "p"},
    ]});
    let Some(r) = browser_try(&plan) else { return };
    let err = r.expect_err("a wait for nothing fails");
    assert!(err.starts_with("drive: step 2 (wait \"#never\"): "), "{err}");
    assert!(err.contains("Timeout 300ms"), "{err}");
    assert!(err.contains("boom 46"), "the page's exception is named: {err}");
    assert!(!err.contains('\n'), "{err}");
    // The same page without the failing step: the exception is listed.
    let plan = json!({"steps": [{"goto": url}, {"count": "p"}]});
    let v = browser(&plan).unwrap();
    assert_eq!(v["results"][1], 1, "{v}");
    assert!(v["page_errors"][0].as_str().unwrap().contains("boom 46"), "{v}");
}

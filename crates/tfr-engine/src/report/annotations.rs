//! The report's Annotations section, when the records have annotations
//! ([`crate::annotate`]): boxes per image as a bar chart, boxes per class
//! and image classes by count (a table of the first 20 and a chart of the
//! first 10).

use super::{escape, pct, svg};
use crate::annotate::check::Tally;
use crate::annotate::summary::{bucket_name, by_count};
use std::fmt::Write as _;

/// Classes listed by name in a table at most.
const TOP: usize = 20;

/// The section (nothing when no record has annotations).
pub(super) fn section(h: &mut String, t: &Tally, records: u64) {
    if !t.any() {
        return;
    }
    let mut facts = vec![format!("{} of {records} records annotated", t.annotated)];
    if let Some((min, max)) = t.boxes_range() {
        facts.push(format!(
            "{} boxes in {} records with box features (mean {:.2}, min {min}, max {})",
            t.boxes,
            t.with_boxes_features,
            t.mean_boxes(),
            bucket_name(max)
        ));
    }
    for (n, what) in [
        (t.with_masks, "with a segmentation mask"),
        (t.with_keypoints, "with keypoints"),
    ] {
        if n > 0 {
            facts.push(format!("{n} {what}"));
        }
    }
    let _ = write!(
        h,
        "<h2 id=\"annotations\">Annotations</h2><p class=\"sub\">{}</p>",
        escape(&facts.join("; "))
    );
    if t.with_problems > 0 {
        let _ = write!(
            h,
            "<p class=\"warn\">{} records with broken annotations: <code>tfr validate</code> names them</p>",
            t.with_problems
        );
    }
    if t.with_boxes_features > 0 {
        let _ = write!(
            h,
            "<h3 id=\"boxes-per-image\">Boxes per image</h3>{}",
            bars(&t.boxes_distribution())
        );
    }
    if !t.per_class.is_empty() {
        let _ = write!(h, "<h3 id=\"boxes-per-class\">Boxes per class</h3>");
        classes(h, &t.per_class, t.other_classes, "boxes");
    }
    if !t.image_classes.is_empty() {
        let _ = write!(
            h,
            "<h3 id=\"image-classes\">Image classes <span class=\"sub\">(classification labels)</span></h3>"
        );
        classes(h, &t.image_classes, 0, "images");
    }
    h.push('\n');
}

/// A vertical bar per row (label under it, count in its tooltip).
fn bars(rows: &[(String, u64)]) -> String {
    let (width, height, axis) = (svg::WIDTH * 1.5, svg::HEIGHT + 8.0, 14.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="boxes-per-image" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">"#
    );
    let plot = height - axis;
    let most = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1) as f64;
    let w = width / rows.len().max(1) as f64;
    for (i, (label, n)) in rows.iter().enumerate() {
        let bar = if *n > 0 {
            (*n as f64 / most * (plot - 2.0)).max(1.0)
        } else {
            0.0
        };
        let x = i as f64 * w;
        let _ = write!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bar:.1}"><title>{} boxes: {n} records</title></rect><text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            x + 0.5,
            plot - bar,
            (w - 1.0).max(0.5),
            escape(label),
            x + w / 2.0,
            height - 2.0,
            escape(label),
        );
    }
    let _ = write!(s, r#"<line x1="0" y1="{plot}" x2="{width}" y2="{plot}"/></svg>"#);
    s
}

/// Classes by count: a table of the first [`TOP`] (and the rest as one
/// row) beside a chart of the first 10.
fn classes(h: &mut String, counts: &std::collections::BTreeMap<String, u64>, other: u64, what: &str) {
    let total = counts.values().sum::<u64>() + other;
    let (shown, rest, more) = by_count(counts, TOP);
    let _ = write!(
        h,
        "<table class=\"classes\"><thead><tr><th class=\"name\">class</th><th>{what}</th><th>share</th><th></th></tr></thead><tbody>"
    );
    for (i, (name, n)) in shown.iter().enumerate() {
        let chart = if i == 0 {
            format!(
                "<td rowspan=\"{}\">{}</td>",
                shown.len() + usize::from(rest + other > 0),
                svg::top_values(&shown, "classes")
            )
        } else {
            String::new()
        };
        let _ = write!(
            h,
            "<tr class=\"class\"><td class=\"name\">{}</td><td>{n}</td><td>{}</td>{chart}</tr>",
            escape(name),
            pct(*n, total)
        );
    }
    if rest + other > 0 {
        let label = match (more, other) {
            (m, 0) => format!("{m} more classes"),
            (0, _) => "classes not counted by name".to_string(),
            (m, _) => format!("{m} more classes, and classes not counted by name"),
        };
        let _ = write!(
            h,
            "<tr class=\"more\"><td class=\"name\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&label),
            rest + other,
            pct(rest + other, total)
        );
    }
    h.push_str("</tbody></table>");
}

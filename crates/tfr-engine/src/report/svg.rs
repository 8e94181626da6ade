//! Inline SVG charts for the report: a histogram (equal-width or quantile
//! buckets) and a bar chart of the most frequent values. Plain SVG, no
//! script; every number drawn is also in a `<title>` (the tooltip).

use super::escape;
use crate::schema::summary::Bucket;
use std::fmt::Write as _;

/// Width and height of a chart, in CSS pixels.
pub const WIDTH: f64 = 220.0;
/// The chart's height.
pub const HEIGHT: f64 = 72.0;
/// Room at the bottom for the axis labels.
const AXIS: f64 = 14.0;

/// A short form of a number for an axis: `1.5k`, `0.25`, `-3e-5`.
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if a >= 1e9 {
        format!("{:.3}G", v / 1e9).replace(".000", "")
    } else if a >= 1e6 {
        format!("{:.2}M", v / 1e6).replace(".00", "")
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3).replace(".0", "")
    } else if a >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else if a >= 0.01 {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.1e}")
    }
}

/// A histogram of `buckets` (low, high, count); `quantiles`: the buckets
/// hold equal counts and are drawn with equal widths, their bounds shown.
pub fn histogram(buckets: &[Bucket], quantiles: bool, class: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="{class}" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img">"#
    );
    if buckets.is_empty() {
        s.push_str(r#"<text x="4" y="14" class="none">no values</text></svg>"#);
        return s;
    }
    let plot = HEIGHT - AXIS;
    let n = buckets.len() as f64;
    let w = WIDTH / n;
    // Quantile buckets hold equal counts: their height is the density.
    let heights: Vec<f64> = buckets
        .iter()
        .map(|&(lo, hi, c)| {
            if quantiles {
                let span = hi - lo;
                if span > 0.0 {
                    c / span
                } else {
                    f64::INFINITY
                }
            } else {
                c
            }
        })
        .collect();
    let finite_max = heights.iter().copied().filter(|h| h.is_finite()).fold(0.0, f64::max);
    let top = if finite_max > 0.0 { finite_max } else { 1.0 };
    for (i, (&(lo, hi, c), h)) in buckets.iter().zip(&heights).enumerate() {
        let bar = if h.is_finite() {
            (h / top) * (plot - 2.0)
        } else {
            plot - 2.0
        };
        let bar = if c > 0.0 { bar.max(1.0) } else { 0.0 };
        let x = i as f64 * w;
        let _ = write!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"><title>{} to {}: {}</title></rect>"#,
            x + 0.5,
            plot - bar,
            (w - 1.0).max(0.5),
            bar,
            escape(&short_number(lo)),
            escape(&short_number(hi)),
            escape(&count_text(c)),
        );
    }
    let first = buckets.first().map_or(0.0, |b| b.0);
    let last = buckets.last().map_or(0.0, |b| b.1);
    let _ = write!(
        s,
        r#"<line x1="0" y1="{plot}" x2="{WIDTH}" y2="{plot}"/><text x="0" y="{}" class="lo">{}</text><text x="{WIDTH}" y="{}" class="hi">{}</text></svg>"#,
        HEIGHT - 2.0,
        escape(&short_number(first)),
        HEIGHT - 2.0,
        escape(&short_number(last)),
    );
    s
}

/// A count as drawn in a tooltip: whole numbers plain, fractions to 2 places.
fn count_text(c: f64) -> String {
    if c == c.trunc() {
        format!("{c:.0}")
    } else {
        format!("{c:.2}")
    }
}

/// Horizontal bars for the most frequent values, largest first.
pub fn top_values(values: &[(String, u64)], class: &str) -> String {
    let rows = values.len().min(10);
    let row = 13.0;
    let height = (rows as f64 * row).max(row);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="{class}" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" role="img">"#
    );
    let max = values.iter().map(|v| v.1).max().unwrap_or(1).max(1) as f64;
    let label_w = 80.0;
    for (i, (label, count)) in values.iter().take(rows).enumerate() {
        let y = i as f64 * row;
        let w = (*count as f64 / max) * (WIDTH - label_w - 40.0);
        let shown: String = if label.chars().count() > 12 {
            label.chars().take(11).chain(std::iter::once('…')).collect()
        } else {
            label.clone()
        };
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" class="label">{}</text><rect x="{label_w}" y="{:.1}" width="{:.1}" height="{:.1}"><title>{}: {count}</title></rect><text x="{:.1}" y="{:.1}" class="n">{}</text>"#,
            label_w - 3.0,
            y + 10.0,
            escape(&shown),
            y + 1.5,
            w.max(1.0),
            row - 3.0,
            escape(label),
            label_w + w + 3.0,
            y + 10.0,
            escape(&short_number(*count as f64)),
        );
    }
    s.push_str("</svg>");
    s
}

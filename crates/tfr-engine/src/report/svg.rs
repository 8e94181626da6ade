//! Inline SVG charts for the report: a histogram (equal-width or quantile
//! buckets) and a bar chart of the most frequent values. Plain SVG, no
//! script; every number drawn is also in a `<title>` (the tooltip).

use super::escape;
use crate::schema::summary::Bucket;
use crate::schema::tfdv::statistics::Histogram;
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

/// The two datasets' charts: width, and how many equal-width buckets the
/// overlaid histogram has.
pub const PAIR_WIDTH: f64 = 320.0;
const PAIR_BUCKETS: usize = 20;

/// A share as a tooltip or a label shows it: `12.3%`, `<0.1%`.
fn share_text(v: f64) -> String {
    if v > 0.0 && v < 0.0005 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", v * 100.0)
    }
}

/// The range both histograms cover (finite bounds only).
fn common_range(sides: &[Option<&Histogram>; 2]) -> Option<(f64, f64)> {
    let bounds = sides
        .iter()
        .flatten()
        .flat_map(|h| h.buckets.iter())
        .filter(|b| b.0.is_finite() && b.1.is_finite() && b.2 > 0.0)
        .flat_map(|b| [b.0, b.1]);
    bounds.fold(None, |r, v| match r {
        None => Some((v, v)),
        Some((lo, hi)) => Some((f64::min(lo, v), f64::max(hi, v))),
    })
}

/// A histogram's counts spread over `n` equal buckets of `lo..hi` (each
/// bucket's count spread evenly over its width; a bucket of no width goes
/// where its value falls), as shares of its total.
fn spread(h: &Histogram, (lo, hi): (f64, f64), n: usize) -> Vec<f64> {
    let width = (hi - lo) / n as f64;
    let at = |v: f64| {
        if width > 0.0 {
            (((v - lo) / width).floor().max(0.0) as usize).min(n - 1)
        } else {
            0
        }
    };
    let mut out = vec![0.0; n];
    for &(l, r, c) in &h.buckets {
        if !l.is_finite() || !r.is_finite() || c <= 0.0 {
            continue;
        }
        if r <= l || width <= 0.0 {
            out[at(l)] += c;
            continue;
        }
        for (i, slot) in out.iter_mut().enumerate().take(at(r) + 1).skip(at(l)) {
            let (bl, br) = (lo + i as f64 * width, lo + (i + 1) as f64 * width);
            let overlap = r.min(br) - l.max(bl);
            if overlap > 0.0 {
                *slot += c * overlap / (r - l);
            }
        }
    }
    let total: f64 = out.iter().sum();
    if total > 0.0 {
        out.iter_mut().for_each(|v| *v /= total);
    }
    out
}

/// Both datasets' standard histograms on one axis: the range both cover
/// in equal-width buckets, each dataset's share of its values per bucket
/// side by side (`rect.a`, `rect.b`), so datasets of different sizes
/// compare.
pub fn overlaid_histogram(a: Option<&Histogram>, b: Option<&Histogram>) -> String {
    let sides = [a, b];
    let mut s = String::new();
    let (w, h) = (PAIR_WIDTH, HEIGHT + 8.0);
    let _ = write!(s, r#"<svg class="pair" viewBox="0 0 {w} {h}" role="img">"#);
    let Some(range) = common_range(&sides) else {
        s.push_str(r#"<text x="4" y="14" class="none">no values to draw</text></svg>"#);
        return s;
    };
    let n = if range.1 > range.0 { PAIR_BUCKETS } else { 1 };
    let shares: Vec<Option<Vec<f64>>> = sides.iter().map(|h| h.map(|h| spread(h, range, n))).collect();
    let top = shares
        .iter()
        .flatten()
        .flatten()
        .copied()
        .fold(0.0, f64::max)
        .max(1e-12);
    let plot = h - AXIS;
    let slot = w / n as f64;
    // One bucket (every value the same): two bars of a bucket's usual width.
    let bar_w = ((slot - 2.0) / 2.0).clamp(0.5, 18.0);
    let left = (slot - 2.0 * bar_w) / 2.0;
    let step = (range.1 - range.0) / n as f64;
    for (side, (values, class)) in shares.iter().zip(["a", "b"]).enumerate() {
        let Some(values) = values else { continue };
        for (i, v) in values.iter().enumerate() {
            let bar = if *v > 0.0 {
                ((v / top) * (plot - 2.0)).max(1.0)
            } else {
                0.0
            };
            let (lo, hi) = (range.0 + i as f64 * step, range.0 + (i + 1) as f64 * step);
            let _ = write!(
                s,
                r#"<rect class="{class}" x="{:.1}" y="{:.1}" width="{bar_w:.1}" height="{bar:.1}"><title>{}: {} to {}: {}</title></rect>"#,
                i as f64 * slot + left + side as f64 * bar_w,
                plot - bar,
                class.to_uppercase(),
                escape(&short_number(lo)),
                escape(&short_number(hi)),
                share_text(*v),
            );
        }
    }
    let _ = write!(
        s,
        r#"<line x1="0" y1="{plot}" x2="{w}" y2="{plot}"/><text x="0" y="{}" class="lo">{}</text><text x="{w}" y="{}" class="hi">{}</text></svg>"#,
        h - 2.0,
        escape(&short_number(range.0)),
        h - 2.0,
        escape(&short_number(range.1)),
    );
    s
}

/// The most frequent values of both datasets, each value's share in A and
/// in B as two bars (`rect.a` above `rect.b`), a value one side lacks
/// drawn as 0 for it. `rows`: label, share in A, share in B (`None`: the
/// dataset does not have the feature).
pub fn paired_values(rows: &[(String, Option<f64>, Option<f64>)]) -> String {
    let row = 24.0;
    let height = (rows.len() as f64 * row).max(row);
    let mut s = String::new();
    let w = PAIR_WIDTH;
    let _ = write!(s, r#"<svg class="pair" viewBox="0 0 {w} {height}" role="img">"#);
    if rows.is_empty() {
        s.push_str(r#"<text x="4" y="14" class="none">no values to draw</text></svg>"#);
        return s;
    }
    let top = rows
        .iter()
        .flat_map(|r| [r.1, r.2])
        .flatten()
        .fold(0.0, f64::max)
        .max(1e-12);
    let (label_w, room) = (104.0, w - 104.0 - 46.0);
    for (i, (label, sa, sb)) in rows.iter().enumerate() {
        let y = i as f64 * row;
        let shown: String = if label.chars().count() > 16 {
            label.chars().take(15).chain(std::iter::once('…')).collect()
        } else {
            label.clone()
        };
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" class="label"><title>{}</title>{}</text>"#,
            label_w - 4.0,
            y + 14.0,
            escape(label),
            escape(&shown)
        );
        for (k, (share, class)) in [(sa, "a"), (sb, "b")].into_iter().enumerate() {
            let Some(v) = share else { continue };
            let bw = if *v > 0.0 { ((v / top) * room).max(1.0) } else { 0.0 };
            let by = y + 3.0 + k as f64 * 9.0;
            let _ = write!(
                s,
                r#"<rect class="{class}" x="{label_w}" y="{by:.1}" width="{bw:.1}" height="8"><title>{}: {}: {}</title></rect><text x="{:.1}" y="{:.1}" class="n">{}</text>"#,
                class.to_uppercase(),
                escape(label),
                share_text(*v),
                label_w + bw + 3.0,
                by + 7.5,
                share_text(*v),
            );
        }
    }
    s.push_str("</svg>");
    s
}

//! `tfr report A --compare B`: one self-contained HTML page with two
//! datasets side by side, from a [`Comparison`] of their statistics:
//! per feature both datasets' charts in two colours (numbers: both
//! standard histograms on one axis; categorical values: the most frequent
//! of both as paired bars), presence, values per example and type of both
//! with the differences marked, the features only one dataset has, and
//! TFDV's drift figures (L∞, Jensen-Shannon divergence), the most
//! divergent features first.
//!
//! As the one-dataset page: the style sheet, the SVG charts ([`super::svg`])
//! and a little script (sorting, the name filter) are inline; nothing is
//! fetched. Every name and value is escaped.

use super::{breakable, escape, svg};
use crate::schema::tfdv::compare::{self, Comparison, Row, Side};
use crate::schema::tfdv::drift::metrics::{self, NoDivergence};
use crate::schema::tfdv::statistics::{DatasetStats, FeatureStat, Histogram};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One dataset as the page names it.
#[derive(Clone, Debug)]
pub struct Dataset<'a> {
    /// What it is called (the inputs, or the statistics file).
    pub name: &'a str,
    /// Where its statistics come from (`records`, `statistics file`).
    pub source: &'a str,
}

/// What the page shows.
pub struct Page<'a> {
    /// The page's title.
    pub title: &'a str,
    /// The two datasets, A then B.
    pub datasets: [Dataset<'a>; 2],
    /// The comparison of their statistics.
    pub comparison: &'a Comparison<'a>,
    /// Warnings about either dataset (shown under the overview).
    pub notes: &'a [String],
}

const STYLE: &str = r#"
:root{--a:#1a73e8;--b:#e8710a}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#202124;background:#fff}
h1{font-size:22px;margin:0 0 4px;overflow-wrap:anywhere}h2{font-size:17px;margin:26px 0 8px;border-bottom:1px solid #dadce0;padding-bottom:4px}
.sub{color:#5f6368;margin:2px 0 10px}
.legend{display:flex;flex-wrap:wrap;gap:8px 18px;margin:10px 0}
.legend span{display:inline-flex;align-items:center;gap:6px;overflow-wrap:anywhere}
.sw{display:inline-block;width:14px;height:14px;border-radius:3px;flex:none}.sw.a{background:var(--a)}.sw.b{background:var(--b)}
table{border-collapse:collapse}th,td{padding:3px 8px;text-align:left;vertical-align:top}
table.overview th{background:#f1f3f4;font-weight:600}table.overview td{overflow-wrap:anywhere;max-width:420px}
th.a,td.a{border-left:3px solid var(--a)}th.b,td.b{border-left:3px solid var(--b)}
.only{display:flex;flex-wrap:wrap;gap:12px}.only div{border:1px solid #dadce0;border-radius:8px;padding:6px 12px;min-width:200px;max-width:100%;box-sizing:border-box}
.only ul{margin:4px 0;padding-left:18px}.only li{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;overflow-wrap:anywhere}
.controls{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:6px 0 12px}
.controls input{font:inherit;padding:2px 6px;border:1px solid #dadce0;border-radius:4px}
button{font:inherit;border:1px solid #dadce0;background:#fff;border-radius:4px;padding:1px 8px;cursor:pointer}button.on{background:#e8f0fe}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:12px}
.feat{border:1px solid #dadce0;border-radius:8px;padding:10px 12px;min-width:0}
.feat.changed{border-color:#f4b400}
.feat h3{font:600 14px ui-monospace,Menlo,Consolas,monospace;margin:0 0 4px;overflow-wrap:anywhere}
.tag{display:inline-block;border-radius:8px;padding:0 7px;margin:0 4px 2px 0;font:12px system-ui,sans-serif;background:#fef7e0;color:#b06000}
.tag.only{background:#fce8e6;color:#c5221f}
.figs{display:flex;flex-wrap:wrap;gap:4px 16px;margin:4px 0 6px;font-size:13px}
.figs b{font-variant-numeric:tabular-nums}.figs .none{color:#80868b}
.feat table{font-size:12.5px;width:100%;margin:2px 0 6px}.feat td,.feat th{padding:1px 6px}
.feat th{font-weight:normal;color:#5f6368}.feat td{font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.feat td.d{background:#fef7e0;font-weight:600}
.notes{font-size:12px;color:#5f6368;margin:2px 0 6px;overflow-wrap:anywhere}
svg.pair{width:100%;max-width:320px;height:auto;display:block}
svg rect.a{fill:var(--a)}svg rect.b{fill:var(--b)}svg line{stroke:#9aa0a6}svg text{font-size:10px;fill:#5f6368}
svg text.hi{text-anchor:end}svg text.label{text-anchor:end;fill:#202124;font-size:11px}svg text.n{font-size:9.5px}
details{margin:8px 0}summary{cursor:pointer;color:#1a73e8}details p{margin:6px 0;max-width:820px}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
@media (max-width:520px){body{margin:12px}.cards{grid-template-columns:1fr}}
"#;

const SCRIPT: &str = r#"
function tfrSort(key){
  var box=document.querySelector('.cards');if(!box){return;}
  var cards=Array.from(box.children);
  cards.sort(function(a,b){
    if(key==='name'){return a.dataset.name<b.dataset.name?-1:a.dataset.name>b.dataset.name?1:0;}
    return Number(a.dataset.order)-Number(b.dataset.order);});
  cards.forEach(function(c){box.appendChild(c);});
  document.querySelectorAll('button[data-sort]').forEach(function(b){b.classList.toggle('on',b.dataset.sort===key);});
}
document.querySelectorAll('button[data-sort]').forEach(function(b){
  b.addEventListener('click',function(){tfrSort(b.dataset.sort);});});
var filter=document.getElementById('filter');
if(filter){filter.addEventListener('input',function(){
  var q=filter.value.toLowerCase(),shown=0;
  document.querySelectorAll('.feat').forEach(function(c){
    var on=c.dataset.name.toLowerCase().indexOf(q)>=0;c.style.display=on?'':'none';if(on){shown++;}});
  document.getElementById('shown').textContent=shown;});}
"#;

/// The page.
pub fn html(page: &Page<'_>) -> String {
    let c = page.comparison;
    let mut h = String::with_capacity(64 << 10);
    let [a, b] = &page.datasets;
    let _ = write!(
        h,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{} — tfr report</title><style>{STYLE}</style>\
         <script>window.tfrErrors=[];window.addEventListener('error',function(e){{window.tfrErrors.push(String(e.message||e));}});</script>\
         </head><body>\n<h1>{}</h1><p class=\"sub\">tfr report --compare · tfr {}</p>\n\
         <div class=\"legend\"><span><i class=\"sw a\"></i><b>A</b> {}</span><span><i class=\"sw b\"></i><b>B</b> {}</span></div>\n",
        escape(page.title),
        breakable(page.title),
        env!("CARGO_PKG_VERSION"),
        breakable(a.name),
        breakable(b.name),
    );
    overview(&mut h, page);
    only_lists(&mut h, c);
    let _ = write!(
        h,
        "<h2 id=\"features\">Features</h2><div class=\"controls\"><span>sort by \
         <button data-sort=\"order\" class=\"on\">divergence</button> <button data-sort=\"name\">name</button></span>\
         <label>filter <input id=\"filter\" type=\"search\" placeholder=\"feature name\"></label>\
         <span class=\"sub\"><span id=\"shown\">{}</span> shown</span></div>\n<div class=\"cards\">\n",
        c.rows.len()
    );
    for (i, row) in c.rows.iter().enumerate() {
        card(&mut h, i, row, c);
    }
    let _ = writeln!(h, "</div>\n<script>{SCRIPT}</script></body></html>");
    h
}

fn overview(h: &mut String, page: &Page<'_>) {
    let c = page.comparison;
    let [a, b] = &page.datasets;
    let both = c.rows.iter().filter(|r| r.only_in().is_none()).count();
    let (only_a, only_b) = c.only_counts();
    let _ = write!(
        h,
        "<h2 id=\"overview\">Overview</h2><table class=\"overview\"><thead><tr><th></th><th class=\"a\">A</th><th class=\"b\">B</th></tr></thead><tbody>\
         <tr><th>dataset</th><td class=\"a\">{}</td><td class=\"b\">{}</td></tr>\
         <tr><th>statistics of</th><td class=\"a\">{}</td><td class=\"b\">{}</td></tr>\
         <tr><th>examples</th><td class=\"a\">{}</td><td class=\"b\">{}</td></tr>\
         <tr><th>features</th><td class=\"a\">{}</td><td class=\"b\">{}</td></tr></tbody></table>",
        breakable(a.name),
        breakable(b.name),
        escape(a.source),
        escape(b.source),
        c.a.num_examples,
        c.b.num_examples,
        c.a.features.len(),
        c.b.features.len(),
    );
    for note in page.notes {
        let _ = write!(h, "<p class=\"notes\">{}</p>", escape(note));
    }
    let _ = write!(
        h,
        "<p>{} features: {both} in both, {only_a} only in A, {only_b} only in B, {} of another type in B.</p>\
         <p class=\"sub\">Order: features in one dataset only first, then those of another type, then by the \
         larger of L∞ and JS divergence, largest first; features with neither figure last; ties by name.</p>",
        c.rows.len(),
        c.type_changes(),
    );
    h.push_str(
        "<details><summary>How to read the figures</summary>\
         <p><b>L∞</b> (categorical features: strings, and any feature with a rank histogram): each dataset's value \
         counts divided by its own total, the largest difference of one value's share between A and B (0: the same \
         shares, 1: no value in common). The value named is the one with that difference. TFDV's \
         <code>infinity_norm</code> drift and skew comparator measures it.</p>\
         <p><b>JSD</b>, the Jensen-Shannon divergence with base-2 logarithms (0: the same distribution, 1: \
         disjoint): of the value counts for categorical features; of the standard (equal-width) histograms for \
         numbers, both first split at every bucket boundary of either, counts spread evenly over a bucket's width. \
         TFDV's <code>jensen_shannon_divergence</code> comparator measures it. Both figures are computed as TFDV \
         1.16.1 computes them; <code>tfr validate --previous</code> checks them against a schema's thresholds.</p>\
         <p>Charts show each dataset's <em>share</em> of its values, so datasets of different sizes compare: \
         numbers on one axis (the range of both, 20 equal buckets), values as paired bars (the most frequent of \
         either). Marked cells differ between A and B as shown.</p></details>",
    );
}

fn only_lists(h: &mut String, c: &Comparison<'_>) {
    let (only_a, only_b) = c.only_counts();
    if only_a + only_b == 0 {
        return;
    }
    h.push_str("<h2 id=\"only\">Features in one dataset only</h2><div class=\"only\">");
    for side in [Side::A, Side::B] {
        let names: Vec<&str> = c
            .rows
            .iter()
            .filter(|r| r.only_in() == Some(side))
            .map(|r| r.path)
            .collect();
        if names.is_empty() {
            continue;
        }
        let _ = write!(
            h,
            "<div><i class=\"sw {}\"></i> <b>only in {}</b> ({})<ul>",
            side.letter().to_lowercase(),
            side.letter(),
            names.len()
        );
        for n in names {
            let _ = write!(h, "<li>{}</li>", breakable(&crate::schema::describe::display_name(n)));
        }
        h.push_str("</ul></div>");
    }
    h.push_str("</div>\n");
}

/// The figures of a row: L∞ (with its value) and JSD, or why not.
fn figures(row: &Row<'_>) -> String {
    let mut f = String::new();
    if let Some((value, v)) = &row.linf {
        let _ = write!(
            f,
            "<span title=\"{}\">L∞ <b>{}</b>{}</span>",
            v,
            compare::figure_text(*v),
            if value.is_empty() {
                String::new()
            } else {
                format!(
                    " <span class=\"sub\">({})</span>",
                    escape(&String::from_utf8_lossy(value))
                )
            }
        );
    }
    match row.jsd {
        Ok(v) => {
            let _ = write!(f, "<span title=\"{v}\">JSD <b>{}</b></span>", compare::figure_text(v));
        }
        Err(why) if row.only_in().is_none() => {
            let why = match why {
                NoDivergence::Mixed => "one side numeric, the other categorical",
                NoDivergence::Missing => "no values to compare",
                NoDivergence::NonPositive => "a value count is not positive",
                NoDivergence::Malformed => "a histogram's buckets overlap",
            };
            let _ = write!(f, "<span class=\"none\">no JSD: {why}</span>");
        }
        Err(_) => {}
    }
    f
}

/// A statistic of both sides as two cells, marked when they differ.
fn pair_row(t: &mut String, what: &str, a: Option<String>, b: Option<String>) {
    let differ = a.is_some() && b.is_some() && a != b;
    let cell = |side: &str, v: &Option<String>| {
        format!(
            "<td class=\"{side}{}\">{}</td>",
            if differ { " d" } else { "" },
            v.as_deref().map_or("—".to_string(), escape)
        )
    };
    let _ = write!(t, "<tr><th>{what}</th>{}{}</tr>", cell("a", &a), cell("b", &b));
}

fn card(h: &mut String, i: usize, row: &Row<'_>, c: &Comparison<'_>) {
    let changed = row.standing() <= compare::Standing::TypeChanged;
    let mut tags = String::new();
    if let Some(side) = row.only_in() {
        let _ = write!(tags, "<span class=\"tag only\">only in {}</span>", side.letter());
    }
    if let Some((ta, tb)) = row.type_change() {
        let _ = write!(tags, "<span class=\"tag\">type {} → {}</span>", ta.name(), tb.name());
    }
    let _ = write!(
        h,
        "<article class=\"feat{}\" id=\"f{i}\" data-name=\"{}\" data-order=\"{i}\"><h3>{}</h3>{tags}<div class=\"figs\">{}</div>",
        if changed { " changed" } else { "" },
        escape(row.path),
        breakable(&crate::schema::describe::display_name(row.path)),
        figures(row),
    );
    let mut t =
        String::from("<table><thead><tr><th></th><th class=\"a\">A</th><th class=\"b\">B</th></tr></thead><tbody>");
    let each = |f: &dyn Fn(&FeatureStat, &DatasetStats) -> Option<String>| {
        (row.a.and_then(|x| f(x, c.a)), row.b.and_then(|x| f(x, c.b)))
    };
    let (ta, tb) = each(&|f, _| Some(f.ty.name().to_string()));
    pair_row(&mut t, "type", ta, tb);
    let (pa, pb) = each(&|f, d| Some(compare::present_text(f, d)));
    pair_row(&mut t, "present", pa, pb);
    let (va, vb) = each(&|f, _| (f.common.num_non_missing > 0).then(|| compare::values_text(f)));
    pair_row(&mut t, "values/example", va, vb);
    stat_rows(&mut t, row, &each);
    t.push_str("</tbody></table>");
    h.push_str(&t);
    notes(h, row);
    h.push_str(&chart(row));
    h.push_str("</article>\n");
}

type Each<'a> = dyn Fn(&dyn Fn(&FeatureStat, &DatasetStats) -> Option<String>) -> (Option<String>, Option<String>) + 'a;

/// Numbers: mean, standard deviation, min, median, max; strings: unique
/// values and average length.
fn stat_rows(t: &mut String, row: &Row<'_>, each: &Each<'_>) {
    let numeric = row.a.or(row.b).is_some_and(|f| f.num.is_some());
    if numeric {
        type Pick = fn(&crate::schema::tfdv::statistics::NumStats) -> f64;
        let stats: [(&str, Pick); 5] = [
            ("mean", |n| n.mean),
            ("std dev", |n| n.std_dev),
            ("min", |n| n.min),
            ("median", |n| n.median),
            ("max", |n| n.max),
        ];
        for (what, pick) in stats {
            let (a, b) = each(&|f, _| {
                f.num
                    .as_ref()
                    .filter(|_| f.common.num_non_missing > 0)
                    .map(|n| svg::short_number(pick(n)))
            });
            pair_row(t, what, a, b);
        }
    }
    if row.a.or(row.b).is_some_and(|f| f.string.is_some()) {
        let (a, b) = each(&|f, _| f.string.as_ref().map(|s| s.unique.to_string()));
        pair_row(t, "unique", a, b);
        let (a, b) = each(&|f, _| f.string.as_ref().map(|s| format!("{:.1}", s.avg_length)));
        pair_row(t, "avg length", a, b);
    }
}

/// Categorical values in one dataset only, and NaNs.
fn notes(h: &mut String, row: &Row<'_>) {
    let mut notes = Vec::new();
    for side in [Side::A, Side::B] {
        let shown = row.values_only_text(side, 5, |v| format!("“{v}”"), |k| format!(" and {k} more"));
        if let Some((_, shown)) = shown {
            notes.push(format!("values only in {}: {shown}", side.letter()));
        }
    }
    for (side, f) in [(Side::A, row.a), (Side::B, row.b)] {
        let nan = f
            .and_then(|f| f.num.as_ref())
            .and_then(|n| n.histogram(false))
            .map_or(0, |h| h.num_nan);
        if nan > 0 {
            notes.push(format!("{nan} NaN in {} (not drawn)", side.letter()));
        }
    }
    if !notes.is_empty() {
        let _ = write!(h, "<p class=\"notes\">{}</p>", escape(&notes.join("; ")));
    }
}

/// Value shares of a categorical feature: its rank histogram (else its
/// top values), each count over their total.
fn shares(f: &FeatureStat) -> BTreeMap<Vec<u8>, f64> {
    let mut counts = metrics::value_counts(f);
    if counts.is_empty() {
        for (k, v) in f.string.iter().flat_map(|s| &s.top_values) {
            counts.entry(k.clone()).or_insert(*v);
        }
    }
    let total: f64 = counts.values().sum();
    if total <= 0.0 {
        return BTreeMap::new();
    }
    counts.values_mut().for_each(|v| *v /= total);
    counts
}

/// The chart of a row: paired value bars for categorical features,
/// overlaid histograms for numbers.
fn chart(row: &Row<'_>) -> String {
    let categorical = [row.a, row.b].iter().flatten().any(|f| f.string.is_some());
    if !categorical {
        fn hist(f: Option<&FeatureStat>) -> Option<&Histogram> {
            f.and_then(|f| f.num.as_ref()).and_then(|n| n.histogram(false))
        }
        if hist(row.a).is_none() && hist(row.b).is_none() {
            return String::new();
        }
        return svg::overlaid_histogram(hist(row.a), hist(row.b));
    }
    let (sa, sb) = (row.a.map(shares), row.b.map(shares));
    let mut largest: BTreeMap<&[u8], f64> = BTreeMap::new();
    for (k, v) in sa.iter().chain(&sb).flatten() {
        let e = largest.entry(k.as_slice()).or_insert(0.0);
        *e = e.max(*v);
    }
    let mut labels: Vec<(&[u8], f64)> = largest.into_iter().collect();
    labels.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(y.0)));
    let find = |s: &Option<BTreeMap<Vec<u8>, f64>>, k: &[u8]| s.as_ref().map(|s| s.get(k).copied().unwrap_or(0.0));
    let rows: Vec<(String, Option<f64>, Option<f64>)> = labels
        .iter()
        .take(10)
        .map(|(k, _)| (String::from_utf8_lossy(k).into_owned(), find(&sa, k), find(&sb, k)))
        .collect();
    svg::paired_values(&rows)
}

//! `tfr report`: one self-contained HTML page about a dataset — an
//! overview, per-feature statistics with charts in the manner of TFDV's
//! Facets Overview (from [`crate::schema::summary`]), anomalies against a
//! schema, and a gallery of records with image thumbnails ([`gallery`]).
//!
//! Everything is inline: the style sheet, the SVG charts ([`svg`]), the
//! thumbnails (`data:` URLs) and a little script for sorting and for the
//! chart toggle. Nothing is fetched when the page opens; no URL other than
//! `data:` appears in it.

mod annotations;
pub mod compare;
pub mod gallery;
pub mod overlay;
pub mod svg;

use crate::example::MessageType;
use crate::schema::stats::FeatureTable;
use crate::schema::summary::{self, StatsType, Summary};
use crate::schema::Scan;
use std::fmt::Write as _;

/// The overlays' style sheet (boxes, keypoints, masks over thumbnails).
const OVERLAY_CSS: &str = overlay::CSS;

/// HTML-escapes text (for element content and quoted attributes).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Controls would make the page invalid, and format characters
            // (bidirectional overrides, isolates and marks, zero-width and
            // invisible ones) and line separators would make a value read
            // as something else: shown as escapes, as names are printed.
            c if c != '\n' && c != '\t' && crate::io::input::hidden_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// [`escape`], with a line break allowed after each `/`, `-`, `_` and `.`
/// (`<wbr>`): a long file or feature name wraps between its parts, not in
/// the middle of a word (CSS breaks a word only when a part is still too
/// long for the column).
pub fn breakable(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut part = String::new();
    for c in s.chars() {
        part.push(c);
        if matches!(c, '/' | '-' | '_' | '.') {
            out.push_str(&escape(&part));
            out.push_str("<wbr>");
            part.clear();
        }
    }
    out.push_str(&escape(&part));
    out
}

/// A number of an integer feature (mean, min, median, max): every digit
/// of its integer part, as timestamps and ids need (`1600000000`, not
/// `1.600G`); under 10,000, and for floats, shortened.
fn value_text(v: f64, integers: bool) -> String {
    if integers && v.is_finite() && v.abs() >= 1e4 && v.abs() < 1e19 {
        format!("{v:.0}")
    } else {
        svg::short_number(v)
    }
}

/// The mark of a figure estimated by a sketch, with what it means.
fn approx(estimated: bool, what: &str) -> String {
    if estimated {
        format!("<span class=\"approx\" title=\"{}\">≈</span>", escape(what))
    } else {
        String::new()
    }
}

/// What `≈` means in the median column.
const MEDIAN_SKETCH: &str = "estimated: more than 4,096 distinct values, so quantiles come from a t-digest \
     (within 1% of the count in rank); min and max are always exact";

/// What `≈` means in the unique column.
const UNIQUE_SKETCH: &str = "estimated: more than 65,536 distinct values, counted by a HyperLogLog \
     (0.8% standard error)";

/// One anomaly of a feature, as the page shows it.
#[derive(Clone, Debug)]
pub struct Anomaly {
    /// The feature (as named in the data or the schema).
    pub feature: String,
    /// TFDV's anomaly type name (`UNEXPECTED_DATA_TYPE`, ...).
    pub kind: String,
    /// What is wrong, with the first file and record.
    pub text: String,
}

/// What the page is made of besides the statistics.
pub struct Page<'a> {
    /// The page's title.
    pub title: &'a str,
    /// The statistics (made with full statistics).
    pub scan: &'a Scan,
    /// The gallery's cards (HTML), and what they are ("the first 24
    /// records", "24 records sampled with seed 1").
    pub cards: &'a str,
    /// What the cards are.
    pub cards_title: &'a str,
    /// Anomalies against `--schema`, when one was given (its name).
    pub anomalies: Option<(&'a str, &'a [Anomaly])>,
    /// What the statistics leave out or simplify (shown in the overview).
    pub notes: &'a [String],
    /// Class names of int features (a TFDS folder's ClassLabels): each
    /// gets a table of its classes by count (`3 (cat)`).
    pub classes: Option<&'a std::collections::HashMap<String, Vec<String>>>,
}

const STYLE: &str = r#"
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#202124;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #dadce0;padding-bottom:4px}
.sub{color:#5f6368;margin:2px 0 10px}
table{border-collapse:collapse}th,td{padding:4px 8px;text-align:right;vertical-align:middle}
th{background:#e8f0fe;font-weight:600;white-space:nowrap}
button{font:inherit;border:1px solid #dadce0;background:#fff;border-radius:4px;padding:1px 8px;cursor:pointer}button.on{background:#e8f0fe}td.name,th.name{text-align:left}td.name{font-family:ui-monospace,Menlo,Consolas,monospace;max-width:260px;overflow-wrap:anywhere}
tr.row{border-top:1px solid #eee}tr.anomalous td.name{color:#c5221f;font-weight:600}
.warn{color:#c5221f;font-weight:600}.ok{color:#188038;font-weight:600}
.badge{display:inline-block;background:#fce8e6;color:#c5221f;border-radius:8px;padding:0 6px;margin-left:6px;font-size:12px}
svg rect{fill:#4285f4}svg line{stroke:#9aa0a6}svg text{font-size:10px;fill:#5f6368}svg text.hi{text-anchor:end}svg text.label{text-anchor:end;fill:#202124}
body.quantiles svg.standard,body:not(.quantiles) svg.quantiles{display:none}
.controls{margin:6px 0 10px}.controls label{margin-right:14px}
table.overview td,table.overview th{text-align:left}
ul.anomalies{padding-left:20px}ul.anomalies li{margin:2px 0}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:12px}
.card{border:1px solid #dadce0;border-radius:8px;padding:8px;min-width:0;overflow:hidden}
.card header{font-size:12px;color:#5f6368;margin-bottom:6px;overflow-wrap:anywhere}
span.approx{cursor:help;border-bottom:1px dotted #5f6368}
.pics{display:flex;flex-wrap:wrap;gap:6px}figure{margin:0}figure img{display:block;max-width:160px;max-height:160px;min-width:48px;image-rendering:pixelated;border-radius:4px}
figcaption{font-size:11px;color:#5f6368}figure.broken div{width:160px;height:60px;background:#f1f3f4;font-size:11px;padding:4px;box-sizing:border-box}
dl{display:grid;grid-template-columns:max-content 1fr;gap:1px 8px;margin:6px 0 0;font-size:12px}
dt{font-family:ui-monospace,Menlo,Consolas,monospace;color:#5f6368}dd{margin:0;word-break:break-all}
"#;

/// The script: errors seen are kept for the self-check, columns sort on a
/// click, the chart toggle switches all histograms. With `#check` in the
/// address the page reports what a test needs to know in `#tfr-check`.
const SCRIPT: &str = r#"
function tfrSort(key){
  document.querySelectorAll('table.sortable').forEach(function(t){
    var body=t.tBodies[0],rows=Array.from(body.rows);
    rows.sort(function(a,b){
      if(key==='name'){return a.dataset.name<b.dataset.name?-1:a.dataset.name>b.dataset.name?1:0;}
      var c=parseFloat(b.dataset[key])-parseFloat(a.dataset[key]);
      return c!==0?c:(a.dataset.name<b.dataset.name?-1:1);});
    rows.forEach(function(r){body.appendChild(r);});
  });
  document.querySelectorAll('button[data-sort]').forEach(function(b){b.classList.toggle('on',b.dataset.sort===key);});
}
document.querySelectorAll('button[data-sort]').forEach(function(b){
  b.addEventListener('click',function(){tfrSort(b.dataset.sort);});});
var toggle=document.getElementById('quantiles');
if(toggle){toggle.addEventListener('change',function(){document.body.classList.toggle('quantiles',toggle.checked);});}
function tfrCheck(){
  var imgs=Array.from(document.images);
  var report={errors:window.tfrErrors,images:imgs.length,
    decoded:imgs.filter(function(i){return i.complete&&i.naturalWidth>0;}).length,
    sizes:imgs.map(function(i){return [i.naturalWidth,i.naturalHeight];}),
    features:Array.from(document.querySelectorAll('tr.row')).map(function(r){return r.dataset.name;}),
    charts:document.querySelectorAll('svg:not(.ov) rect').length,
    boxes:Array.from(document.querySelectorAll('.card')).map(function(c){
      return Array.from(c.querySelectorAll('svg.ov rect')).map(function(r){return r.querySelector('title').textContent;});}),
    aligned:Array.from(document.querySelectorAll('svg.ov')).filter(function(o){
      var a=o.getBoundingClientRect(),b=o.parentNode.querySelector('img').getBoundingClientRect();
      return a.width>0&&Math.abs(a.left-b.left)<1&&Math.abs(a.top-b.top)<1&&Math.abs(a.width-b.width)<1&&Math.abs(a.height-b.height)<1;}).length,
    overlays:document.querySelectorAll('svg.ov').length,
    columns:(function(){var c=Array.from(document.querySelectorAll('.card'));
      return c.filter(function(x){return x.offsetTop===c[0].offsetTop;}).length;})(),
    cards_width:(function(){var g=document.querySelector('.cards');return g?g.getBoundingClientRect().width:0;})(),
    cards_used:(function(){var c=Array.from(document.querySelectorAll('.card'));var g=document.querySelector('.cards');
      if(!c.length||!g){return 0;}
      var row=c.filter(function(x){return x.offsetTop===c[0].offsetTop;});
      return row[row.length-1].getBoundingClientRect().right-g.getBoundingClientRect().left;})()};
  tfrSort('missing');
  report.by_missing=Array.from(document.querySelectorAll('tr.row')).map(function(r){return r.dataset.name;});
  tfrSort('name');
  var pre=document.createElement('pre');pre.id='tfr-check';pre.textContent=JSON.stringify(report);
  document.body.appendChild(pre);
}
if(location.hash==='#check'){window.addEventListener('load',tfrCheck);}
"#;

/// The page.
pub fn html(page: &Page<'_>) -> String {
    let scan = page.scan;
    let mut h = String::with_capacity(64 << 10);
    let _ = write!(
        h,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{} — tfr report</title><style>{STYLE}{OVERLAY_CSS}</style>\
         <script>window.tfrErrors=[];window.addEventListener('error',function(e){{window.tfrErrors.push(String(e.message||e));}});</script>\
         </head><body>\n<h1>{}</h1><p class=\"sub\">tfr report · tfr {}</p>\n",
        escape(page.title),
        escape(page.title),
        env!("CARGO_PKG_VERSION"),
    );
    overview(&mut h, page);
    if let Some((schema, anomalies)) = page.anomalies {
        let _ = write!(h, "<h2 id=\"anomalies\">Anomalies against {}</h2>", escape(schema));
        if anomalies.is_empty() {
            h.push_str("<p class=\"ok\">None: the data conforms to the schema.</p>");
        } else {
            h.push_str("<ul class=\"anomalies\">");
            for a in anomalies {
                let _ = write!(
                    h,
                    "<li><b>{}</b> <code>{}</code>: {}</li>",
                    escape(&a.feature),
                    escape(&a.kind),
                    escape(&a.text)
                );
            }
            h.push_str("</ul>");
        }
    }
    h.push_str(
        "<h2 id=\"features\">Features</h2><div class=\"controls\"><label><input type=\"checkbox\" id=\"quantiles\"> \
         quantile histograms (equal counts per bucket) instead of equal-width buckets</label>\
         sort by <button data-sort=\"name\" class=\"on\">name</button> <button data-sort=\"missing\">missing</button> \
         <button data-sort=\"anomalies\">anomalies</button></div>\n",
    );
    let anomalies = page.anomalies.map(|a| a.1).unwrap_or(&[]);
    let sections: Vec<(&str, &FeatureTable, u64)> = match scan.ty {
        MessageType::SequenceExample => vec![
            ("Context features", &scan.stats.features, scan.stats.records),
            (
                "Feature lists (values per step)",
                &scan.stats.feature_lists,
                scan.stats.records,
            ),
        ],
        MessageType::Elwc => vec![
            ("Context features", &scan.stats.features, scan.stats.records),
            ("Example features", &scan.stats.examples, scan.stats.example_count),
        ],
        _ => vec![("", &scan.stats.features, scan.stats.records)],
    };
    for (title, table, total) in sections {
        if !title.is_empty() {
            let _ = write!(h, "<h2>{}</h2>", escape(title));
        }
        features(&mut h, table, total, anomalies);
    }
    if let Some(names) = page.classes {
        classes(&mut h, &scan.stats.features, names);
    }
    annotations::section(&mut h, &scan.stats.annotations, scan.stats.records);
    let _ = writeln!(
        h,
        "<h2 id=\"gallery\">Records</h2><p class=\"sub\">{}</p><div class=\"cards\">\n{}</div>",
        escape(page.cards_title),
        page.cards
    );
    let _ = writeln!(h, "<script>{SCRIPT}</script></body></html>");
    h
}

fn overview(h: &mut String, page: &Page<'_>) {
    let scan = page.scan;
    let ty = match scan.ty {
        MessageType::SequenceExample => "tf.train.SequenceExample",
        MessageType::Elwc => "ExampleListWithContext (TF-Ranking)",
        _ => "tf.train.Example",
    };
    let _ = write!(
        h,
        "<h2 id=\"overview\">Overview</h2><table class=\"overview\"><tr><th>records</th><td>{}</td></tr>\
         <tr><th>payload</th><td>{ty}</td></tr>",
        scan.stats.records
    );
    if scan.ty == MessageType::Elwc {
        let _ = write!(h, "<tr><th>examples</th><td>{}</td></tr>", scan.stats.example_count);
    }
    let integrity = match &scan.error {
        None if scan.limited => "<span class=\"sub\">not all records read (--limit)</span>".to_string(),
        None => "<span class=\"ok\">intact</span>: every record's length and data CRC-32C checked".to_string(),
        Some(e) => format!(
            "<span class=\"warn\">damaged</span>: {} (statistics cover the records before it; \
             <code>tfr verify-crc</code> lists all damage and salvages the rest)",
            escape(e)
        ),
    };
    let _ = write!(
        h,
        "<tr><th>integrity</th><td>{integrity}</td></tr>{}</table>\
         <table><thead><tr><th class=\"name\">file</th><th>records</th><th>compression</th></tr></thead><tbody>",
        page.notes
            .iter()
            .map(|n| format!("<tr><th>note</th><td class=\"warn\">{}</td></tr>", escape(n)))
            .collect::<String>()
    );
    for (i, f) in scan.files.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td></tr>",
            breakable(&f.name),
            scan.records_of(i),
            f.compression.name()
        );
    }
    h.push_str("</tbody></table>\n");
}

fn pct(part: u64, total: u64) -> String {
    if total == 0 {
        "0%".into()
    } else {
        let p = part as f64 * 100.0 / total as f64;
        if p == 0.0 || p == 100.0 {
            format!("{p:.0}%")
        } else {
            format!("{p:.1}%")
        }
    }
}

fn features(h: &mut String, table: &FeatureTable, total: u64, anomalies: &[Anomaly]) {
    let mut numeric = String::new();
    let mut text = String::new();
    let mut bytes = String::new();
    for f in table.sorted() {
        let Some(s) = summary::summarize(f, total) else {
            continue;
        };
        let bad: Vec<&Anomaly> = anomalies.iter().filter(|a| a.feature == *f.name).collect();
        let badge = if bad.is_empty() {
            String::new()
        } else {
            let kinds: Vec<&str> = bad.iter().map(|a| a.kind.as_str()).collect();
            format!(
                "<span class=\"badge\" title=\"{}\">{}</span>",
                escape(&kinds.join(", ")),
                bad.len()
            )
        };
        let row_start = format!(
            "<tr class=\"row{}\" data-name=\"{}\" data-missing=\"{}\" data-anomalies=\"{}\"><td class=\"name\">{}{badge}</td><td>{}</td><td>{}</td>",
            if bad.is_empty() { "" } else { " anomalous" },
            escape(&f.name),
            s.missing,
            bad.len(),
            breakable(&crate::schema::describe::display_name(&f.name)),
            s.present,
            pct(s.missing, total),
        );
        match (&s.num, &s.bytes, s.ty) {
            (Some(n), _, ty) => {
                // Min and max are exact; the median is a quantile, which a
                // sketch estimates past 4,096 distinct values.
                let approx = approx(!n.exact, MEDIAN_SKETCH);
                let ints = ty == Some(StatsType::Int);
                let _ = writeln!(
                    numeric,
                    "{row_start}<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{approx}{}</td><td>{}</td><td>{}{}</td></tr>",
                    values_text(&s),
                    value_text(n.mean, ints),
                    svg::short_number(n.std_dev),
                    pct(n.zeros, s.tot_values),
                    value_text(n.min, ints),
                    value_text(n.median, ints),
                    value_text(n.max, ints),
                    svg::histogram(&n.standard, false, "standard"),
                    svg::histogram(&n.quantiles, true, "quantiles"),
                );
            }
            (None, Some(b), Some(StatsType::String)) => {
                let top: Vec<(String, u64)> = b
                    .top
                    .iter()
                    .map(|(v, n)| (String::from_utf8_lossy(v).into_owned(), *n))
                    .collect();
                // No value known past the sketch's bound: say nothing, not 0.
                let (first, freq) = top
                    .first()
                    .map_or((String::new(), "-".to_string()), |t| (t.0.clone(), t.1.to_string()));
                let approx = approx(!b.unique_exact, UNIQUE_SKETCH);
                let _ = writeln!(
                    text,
                    "{row_start}<td>{}</td><td>{approx}{}</td><td class=\"name\">{}</td><td>{}</td><td>{:.1}</td><td>{}</td></tr>",
                    values_text(&s),
                    b.unique,
                    escape(&first),
                    freq,
                    b.avg_len,
                    svg::top_values(&top, "top"),
                );
            }
            (None, Some(b), _) => {
                let media = b.media.first().map_or("-", |m| m.0);
                let _ = writeln!(
                    bytes,
                    "{row_start}<td>{}</td><td>{}</td><td>{media}</td><td>{}</td><td>{:.0}</td><td>{}</td><td>{}</td></tr>",
                    values_text(&s),
                    b.unique,
                    b.min_len,
                    b.avg_len,
                    b.max_len,
                    svg::histogram(&b.sizes, false, "sizes"),
                );
            }
            (None, None, _) => {
                let _ = writeln!(
                    bytes,
                    "{row_start}<td>{}</td><td>0</td><td>-</td><td>-</td><td>-</td><td>-</td><td>no values</td></tr>",
                    values_text(&s)
                );
            }
        }
    }
    let head = |title: &str, cols: &[&str]| {
        let mut t = format!(
            "<h3>{title}</h3><table class=\"sortable\"><thead><tr><th class=\"name\">feature</th><th>count</th><th>missing</th>"
        );
        for c in cols {
            let _ = write!(t, "<th>{c}</th>");
        }
        t.push_str("</tr></thead><tbody>\n");
        t
    };
    if !numeric.is_empty() {
        h.push_str(&head(
            "Numeric features",
            &[
                "values",
                "mean",
                "std dev",
                "zeros",
                "min",
                "median",
                "max",
                "histogram",
            ],
        ));
        let _ = writeln!(h, "{numeric}</tbody></table>");
        if numeric.contains("class=\"approx\"") {
            let _ = writeln!(h, "<p class=\"sub\">≈ median: {}</p>", escape(MEDIAN_SKETCH));
        }
    }
    if !text.is_empty() {
        h.push_str(&head(
            "Text features",
            &["values", "unique", "top", "freq top", "avg length", "top values"],
        ));
        let _ = writeln!(h, "{text}</tbody></table>");
        if text.contains("class=\"approx\"") {
            let _ = writeln!(h, "<p class=\"sub\">≈ unique: {}</p>", escape(UNIQUE_SKETCH));
        }
    }
    if !bytes.is_empty() {
        h.push_str(&head(
            "Bytes features",
            &[
                "values",
                "unique",
                "media",
                "min bytes",
                "avg bytes",
                "max bytes",
                "sizes",
            ],
        ));
        let _ = writeln!(h, "{bytes}</tbody></table>");
    }
}

/// The classes of each feature with class names (a TFDS ClassLabel), by
/// count: how many of them occur, the most and least frequent, those
/// never seen and values that name no class. Counts come from the exact
/// quantiles (a feature with more than [`crate::schema::deep::EXACT_DISTINCT`]
/// distinct values gets a line saying so).
fn classes(h: &mut String, table: &FeatureTable, names: &std::collections::HashMap<String, Vec<String>>) {
    let mut rows = String::new();
    for f in table.sorted() {
        let (Some(names), Some(deep)) = (names.get(&*f.name), f.deep.as_deref()) else {
            continue;
        };
        if summary::stats_type(f) != Some(StatsType::Int) {
            continue;
        }
        let Some(exact) = deep.int.quantiles.exact_counts() else {
            let _ = writeln!(
                rows,
                "<tr class=\"class\"><td class=\"name\">{}</td><td>{}</td><td colspan=\"5\">more than {} distinct values: not counted by class</td></tr>",
                breakable(&f.name),
                names.len(),
                crate::schema::deep::EXACT_DISTINCT
            );
            continue;
        };
        let label = |v: i64| match usize::try_from(v).ok().and_then(|i| names.get(i)) {
            Some(n) => format!("{v} ({n})"),
            None => v.to_string(),
        };
        let mut counts: Vec<(i64, u64)> = exact.iter().map(|&(v, n)| (v as i64, n)).collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let named = |v: i64| usize::try_from(v).is_ok_and(|i| i < names.len());
        let seen = counts.iter().filter(|c| named(c.0)).count();
        let outside: u64 = counts.iter().filter(|c| !named(c.0)).map(|c| c.1).sum();
        let unseen: Vec<String> = (0..names.len())
            .filter(|&i| !counts.iter().any(|c| c.0 == i as i64))
            .map(|i| label(i as i64))
            .collect();
        let unseen_text = match unseen.len() {
            0 => "none".to_string(),
            n if n <= 8 => escape(&unseen.join(", ")),
            n => format!("{n}: {}, …", escape(&unseen[..8].join(", "))),
        };
        let outside_text = match outside {
            0 => "0".to_string(),
            n => format!("<span class=\"warn\">{n}</span>"),
        };
        let first = counts
            .first()
            .map_or("-".to_string(), |c| format!("{} × {}", escape(&label(c.0)), c.1));
        let last = counts
            .last()
            .map_or("-".to_string(), |c| format!("{} × {}", escape(&label(c.0)), c.1));
        let top: Vec<(String, u64)> = counts.iter().map(|&(v, n)| (label(v), n)).collect();
        let _ = writeln!(
            rows,
            "<tr class=\"class\"><td class=\"name\">{}</td><td>{}</td><td>{seen}</td><td class=\"name\">{first}</td><td class=\"name\">{last}</td><td class=\"name\">{unseen_text}</td><td>{outside_text}</td><td>{}</td></tr>",
            breakable(&f.name),
            names.len(),
            svg::top_values(&top, "classes"),
        );
    }
    if rows.is_empty() {
        return;
    }
    h.push_str(
        "<h3 id=\"classes\">Classes</h3><table><thead><tr><th class=\"name\">feature</th><th>classes</th><th>seen</th>\
         <th class=\"name\">most frequent</th><th class=\"name\">least frequent</th><th class=\"name\">never seen</th>\
         <th>not a class</th><th>top classes</th></tr></thead><tbody>\n",
    );
    let _ = writeln!(h, "{rows}</tbody></table>");
}

/// Values per record: `1`, or `0..5 (avg 2.1)`.
fn values_text(s: &Summary) -> String {
    if s.min_values == s.max_values {
        s.min_values.to_string()
    } else {
        format!("{}..{} (avg {:.1})", s.min_values, s.max_values, s.avg_values)
    }
}

#[cfg(test)]
mod escape_tests {
    #[test]
    fn names_break_between_parts_and_integers_keep_their_digits() {
        assert_eq!(
            super::breakable("data/train-0001.tfrecord<x>"),
            "data/<wbr>train-<wbr>0001.<wbr>tfrecord&lt;x&gt;"
        );
        assert_eq!(super::value_text(1_600_000_000.0, true), "1600000000");
        assert_eq!(super::value_text(-9_007_199_254_740_992.0, true), "-9007199254740992");
        assert_eq!(super::value_text(1_600_000_000.0, false), "1.600G");
        assert_eq!(super::value_text(f64::NAN, true), super::svg::short_number(f64::NAN));
        assert_eq!(super::value_text(4.5, true), "4.5");
        assert_eq!(super::value_text(1_600_020_996.5, true), "1600020996");
    }

    #[test]
    fn hidden_characters_are_escaped() {
        // The class names and error lines share (review 7).
        assert_eq!(
            super::escape("a\u{200b}b\u{2028}c\u{61c}<"),
            "a\\u{200b}b\\u{2028}c\\u{61c}&lt;"
        );
        assert_eq!(super::escape("x\ny\tz"), "x\ny\tz");
    }
}

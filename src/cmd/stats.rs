//! `tfr stats`: the full statistics of a dataset, as TensorFlow Data
//! Validation computes them ([`crate::schema::deep`] for the sketches and
//! their error bounds, [`crate::schema::summary`] for what is reported), as
//! a table, TFDV's statistics file (binary or text) or tfr's saved JSON
//! ([`crate::schema::saved`]) that `--merge` combines. When the records
//! have annotations ([`crate::annotate`]), the table shows boxes per image,
//! boxes per class and image classes, and the saved JSON keeps their tally.

use super::{conflicts_note, scan_annotated, untracked_note, ScanArgs};
use crate::annotate::check::Tally;
use crate::annotate::summary::{bucket_name, by_count};
use crate::args::{AnnotateArgs, InputArgs, ScanFlags};
use crate::example::MessageType;
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::schema::summary::{self, StatsType, Summary};
use crate::schema::{saved, tfdv, Part, Scan};
use anyhow::{bail, Result};
use clap::Args;
use std::fmt::Write as _;
use std::io::IsTerminal;

/// `--format` of `tfr stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum StatsFormat {
    /// A table per feature.
    #[default]
    Table,
    /// tfr's statistics with the state of every sketch: the input of
    /// `tfr stats --merge`.
    Json,
    /// TFDV's DatasetFeatureStatisticsList as binary protobuf in a
    /// TFRecord (what tfdv.generate_statistics_from_tfrecord writes;
    /// tfdv.load_statistics reads it).
    TfdvStats,
    /// TFDV's DatasetFeatureStatisticsList in protobuf text format
    /// (tfdv.load_stats_text).
    TfdvStatsText,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct StatsArgs {
    /// Output format: table, json (tfr's, mergeable), tfdv-stats (binary,
    /// for tfdv.load_statistics), tfdv-stats-text (tfdv.load_stats_text).
    #[arg(long, short = 'f', value_enum, default_value_t = StatsFormat::Table)]
    pub(crate) format: StatsFormat,

    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Merge statistics saved by `tfr stats --format json` (repeatable;
    /// the FILES, if any, are added to them).
    #[arg(long, value_name = "STATS.json", conflicts_with = "compare")]
    pub(crate) merge: Vec<std::path::PathBuf>,

    #[command(flatten)]
    pub(crate) aux: crate::args::AuxSizeArg,

    #[command(flatten)]
    pub(crate) scan: ScanFlags,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,

    #[command(flatten)]
    pub(crate) annotate: AnnotateArgs,

    #[command(flatten)]
    pub(crate) compare: crate::args::CompareArgs,

    /// The same as --format json (with --compare: the comparison as JSON).
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
}

pub(crate) fn run(args: &StatsArgs, ctx: &Ctx) -> Result<Exit> {
    let format = if args.json { StatsFormat::Json } else { args.format };
    if !args.compare.compare.is_empty() {
        return run_compare(args, format, ctx);
    }
    if args.format == StatsFormat::TfdvStats && std::io::stdout().is_terminal() {
        bail!("--format tfdv-stats is binary: redirect it to a file (or use --format tfdv-stats-text)");
    }
    // A TFDS folder's ClassLabel names: the boxes' and images' classes by name.
    let classes = crate::tfds::inputs::class_names(&args.input.files);
    let annotate = args.annotate.options(&args.input.files, classes.as_ref(), &[])?;
    let mut merged: Option<Scan> = None;
    for path in &args.merge {
        let shown = crate::io::input::show_path(path);
        let text = String::from_utf8(args.aux.read(path)?)
            .map_err(|_| anyhow::anyhow!("{shown}: not a tfr statistics file: not UTF-8 text"))?;
        let first = merged.as_ref().map_or(0, |m| m.files.len() as u32);
        let part = saved::from_json(&text, first).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        drop(text);
        merged = Some(match merged {
            None => part,
            Some(m) => combine(m, part, &path.display().to_string(), false)?,
        });
    }
    let scan_args = ScanArgs {
        input: &args.input,
        flags: &args.scan,
        deep: true,
        filter: args.filter.get(),
    };
    let mut error = None;
    let scan = if args.merge.is_empty() || !args.input.files.is_empty() {
        let inputs = args.input.expand()?;
        let (mut scan, e) = scan_annotated(&inputs, &scan_args, Some(annotate), ctx)?;
        error = e;
        if let Some(m) = merged {
            scan = combine(m, scan, "the inputs", true)?;
        }
        scan
    } else {
        merged.expect("--merge given")
    };
    let mut names: Vec<&str> = scan.files.iter().map(|f| f.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        output::error_line(format_args!(
            "warning: {} is counted twice (given twice, or in a merged file and again)",
            w[0]
        ));
    }
    for note in [untracked_note(&scan), conflicts_note(&scan)].into_iter().flatten() {
        output::error_line(format_args!("warning: {note}"));
    }
    let bytes = match format {
        StatsFormat::Table => {
            let mut text = String::new();
            write_table(&mut text, &scan);
            text.into_bytes()
        }
        StatsFormat::Json => {
            let mut text = serde_json::to_string(&saved::to_json(&scan)).expect("JSON");
            text.push('\n');
            text.into_bytes()
        }
        StatsFormat::TfdvStats => tfdv::stats_file::as_tfrecord(&tfdv::stats_file::write(&scan, false)),
        StatsFormat::TfdvStatsText => tfdv::stats_file::write(&scan, true),
    };
    output::write_stdout(&bytes)?;
    match error {
        Some(e) => Err(e),
        None => Ok(Exit::Success),
    }
}

/// Two statistics of one dataset's parts taken together. `shift`: `b`'s
/// inputs are numbered from 0 (a scan) and are renumbered after `a`'s;
/// else they already are (read with [`saved::from_json`]'s `first_input`).
fn combine(mut a: Scan, b: Scan, what: &str, shift: bool) -> Result<Scan> {
    if a.ty != b.ty {
        bail!(
            "{what}: statistics of {} records cannot be merged with statistics of {} records",
            type_label(b.ty),
            type_label(a.ty)
        );
    }
    let mut b_stats = b.stats;
    if shift {
        b_stats.shift_inputs(a.files.len() as u32);
    }
    a.stats.merge(&b_stats);
    a.files.extend(b.files);
    a.limited |= b.limited;
    a.error = a.error.or(b.error);
    Ok(a)
}

fn type_label(ty: MessageType) -> &'static str {
    match ty {
        MessageType::SequenceExample => "SequenceExample",
        MessageType::Elwc => "ExampleListWithContext",
        _ => "Example",
    }
}

fn write_table(out: &mut String, scan: &Scan) {
    let records = scan.stats.records;
    let files = scan.files.len();
    let _ = writeln!(
        out,
        "{records} records in {files} file{}",
        if files == 1 { "" } else { "s" }
    );
    let title = |part| match part {
        Part::Features => "features",
        Part::Context => "context features",
        Part::FeatureLists => "feature lists (values per step)",
        Part::Examples => "example features",
    };
    let sections = scan
        .parts()
        .into_iter()
        .map(|(part, table, total)| (title(part), table, total));
    let width = Some(crate::output::tty_width().unwrap_or(100));
    for (title, table, total) in sections {
        let _ = writeln!(out, "\n{} {title}", table.len());
        if table.is_empty() {
            continue;
        }
        let mut t = output::table_of_width(width);
        t.set_header(vec!["feature", "type", "missing", "values", "statistics"]);
        for f in table.sorted() {
            let Some(s) = summary::summarize(f, total) else {
                continue;
            };
            t.add_row(vec![
                crate::schema::describe::display_name(&f.name),
                s.ty.map_or("-", StatsType::name).to_string(),
                missing(&s, total),
                values(&s),
                details(&s),
            ]);
        }
        let _ = writeln!(out, "{t}");
    }
    write_annotations(out, &scan.stats.annotations, records, width);
}

/// Boxes per image, boxes per class and image classes, when the records
/// have annotations.
fn write_annotations(out: &mut String, t: &Tally, records: u64, width: Option<u16>) {
    if !t.any() {
        return;
    }
    let _ = writeln!(out, "\nannotations: {} of {records} records annotated", t.annotated);
    let extras: Vec<String> = [
        (t.with_masks, "with a segmentation mask"),
        (t.with_keypoints, "with keypoints"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if !extras.is_empty() {
        let _ = writeln!(out, "{}", extras.join(", "));
    }
    if t.with_problems > 0 {
        let _ = writeln!(
            out,
            "{} records with broken annotations (`tfr validate` names them)",
            t.with_problems
        );
    }
    if let Some((min, max)) = t.boxes_range() {
        let _ = writeln!(
            out,
            "\nboxes per image: {} boxes in {} records with box features, mean {:.2}, min {min}, max {}",
            t.boxes,
            t.with_boxes_features,
            t.mean_boxes(),
            bucket_name(max)
        );
        let mut table = output::table_of_width(width);
        table.set_header(vec!["boxes", "records", ""]);
        let rows = t.boxes_distribution();
        let most = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1);
        for (label, n) in rows {
            let bar = "█".repeat((n * 30).div_ceil(most) as usize);
            table.add_row(vec![label, n.to_string(), bar]);
        }
        let _ = writeln!(out, "{table}");
    }
    if !t.per_class.is_empty() {
        let _ = writeln!(out, "\nboxes per class: {}", classes_text(t.per_class.len()));
        class_table(out, &t.per_class, t.other_classes, width, "boxes");
    }
    if !t.image_classes.is_empty() {
        let _ = writeln!(
            out,
            "\nimage classes (classification labels): {}",
            classes_text(t.image_classes.len())
        );
        class_table(out, &t.image_classes, 0, width, "images");
    }
}

fn classes_text(n: usize) -> String {
    if n == 1 {
        "1 class".into()
    } else {
        format!("{n} classes")
    }
}

/// Classes by count (most first, then by name): the first 20 and the rest
/// as one row (`other`: counted past the classes tracked by name).
fn class_table(
    out: &mut String,
    counts: &std::collections::BTreeMap<String, u64>,
    other: u64,
    width: Option<u16>,
    what: &str,
) {
    let total = counts.values().sum::<u64>() + other;
    let (shown, rest, more) = by_count(counts, 20);
    let share = |n: u64| format!("{:.1}%", n as f64 * 100.0 / total.max(1) as f64);
    let mut table = output::table_of_width(width);
    table.set_header(vec!["class", what, "share"]);
    for (name, n) in shown {
        table.add_row(vec![
            crate::schema::describe::display_name(&name),
            n.to_string(),
            share(n),
        ]);
    }
    if rest + other > 0 {
        let label = match (more, other) {
            (m, 0) => format!("{m} more classes"),
            (0, _) => "classes not counted by name".to_string(),
            (m, _) => format!("{m} more classes, and classes not counted by name"),
        };
        table.add_row(vec![label, (rest + other).to_string(), share(rest + other)]);
    }
    let _ = writeln!(out, "{table}");
}

fn missing(s: &Summary, total: u64) -> String {
    if total == 0 {
        return "-".into();
    }
    let pct = s.missing as f64 * 100.0 / total as f64;
    if s.missing == 0 {
        "0".into()
    } else {
        format!("{} ({pct:.1}%)", s.missing)
    }
}

fn values(s: &Summary) -> String {
    if s.min_values == s.max_values {
        return s.min_values.to_string();
    }
    format!("{}..{} (avg {:.2})", s.min_values, s.max_values, s.avg_values)
}

/// A number in at most ~8 characters.
fn num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 1e6 || (v != 0.0 && v.abs() < 1e-3) {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

fn details(s: &Summary) -> String {
    let mut d = String::new();
    if let Some(n) = s.num.as_ref().filter(|n| n.standard.is_empty()) {
        // No number to summarise.
        if n.nan > 0 {
            let _ = write!(d, "all NaN ({})", n.nan);
        } else {
            d.push_str("no values");
        }
    } else if let Some(n) = &s.num {
        let approx = if n.exact { "" } else { "~" };
        let _ = write!(
            d,
            "mean {} std {}\nmin {} median {approx}{} max {}",
            num(n.mean),
            num(n.std_dev),
            num(n.min),
            num(n.median),
            num(n.max)
        );
        let mut extra = Vec::new();
        if n.zeros > 0 {
            extra.push(format!("zeros {}", n.zeros));
        }
        if n.nan > 0 {
            extra.push(format!("NaN {}", n.nan));
        }
        if n.pos_inf + n.neg_inf > 0 {
            extra.push(format!("inf {}", n.pos_inf + n.neg_inf));
        }
        if !extra.is_empty() {
            let _ = write!(d, "\n{}", extra.join(", "));
        }
    }
    if let Some(b) = &s.bytes {
        let approx = if b.unique_exact { "" } else { "~" };
        if s.ty == Some(StatsType::String) {
            let top: Vec<String> = b
                .top
                .iter()
                .take(3)
                .map(|(v, n)| {
                    format!(
                        "{} ({n})",
                        crate::schema::describe::display_name(&String::from_utf8_lossy(v))
                    )
                })
                .collect();
            let _ = write!(d, "unique {approx}{}, avg length {:.1}", b.unique, b.avg_len);
            if !top.is_empty() {
                let _ = write!(d, "\ntop: {}", top.join(", "));
            }
        } else {
            let media = b.media.first().map_or("", |m| m.0);
            let _ = write!(
                d,
                "{media} unique {approx}{}, size {}..{} (avg {:.0})",
                b.unique, b.min_len, b.max_len, b.avg_len
            );
            if b.invalid_utf8 > 0 {
                let _ = write!(d, "\nnot UTF-8: {}", b.invalid_utf8);
            }
        }
    }
    d
}

/// `--compare`: both datasets' statistics compared feature by feature
/// ([`tfdv::compare`]), as a table or JSON, most divergent first. Exit 0
/// however much they differ (`tfr validate --previous` checks thresholds).
fn run_compare(args: &StatsArgs, format: StatsFormat, ctx: &Ctx) -> Result<Exit> {
    if !matches!(format, StatsFormat::Table | StatsFormat::Json) {
        bail!("--compare prints a table or --format json: TFDV's statistics files hold one dataset (write each with its own tfr stats)");
    }
    let second = args.compare.input(&args.input);
    let scan_of = |input| ScanArgs {
        input,
        flags: &args.scan,
        deep: true,
        filter: args.filter.get(),
    };
    let (a, damage_a) = super::compare_side(&scan_of(&args.input), &args.aux, ctx)?;
    let (b, damage_b) = super::compare_side(&scan_of(&second), &args.aux, ctx)?;
    let comparison = tfdv::compare::compare(&a.stats, &b.stats);
    let text = match format {
        StatsFormat::Json => {
            let mut t = serde_json::to_string_pretty(&compare_json(&comparison, [&a, &b])).expect("JSON");
            t.push('\n');
            t
        }
        _ => compare_table(&comparison, [&a, &b]),
    };
    output::write_stdout(text.as_bytes())?;
    match damage_a.or(damage_b) {
        Some(e) => Err(e),
        None => Ok(Exit::Success),
    }
}

/// What a compared feature's row notes: in one dataset only, another
/// type, values in one only, a presence change, no JSD.
fn compare_notes(row: &tfdv::compare::Row<'_>, c: &tfdv::compare::Comparison<'_>) -> Vec<String> {
    use tfdv::compare::{Row, Side};
    let mut notes = Vec::new();
    if let Some(side) = row.only_in() {
        notes.push(format!("only in {}", side.letter()));
        return notes;
    }
    if let Some((ta, tb)) = row.type_change() {
        notes.push(format!("type {} -> {}", ta.name(), tb.name()));
    }
    if let (Some(fa), Some(fb)) = (row.a, row.b) {
        let change = (Row::present(fb, c.b) - Row::present(fa, c.a)) * 100.0;
        if change.abs() >= 0.05 {
            notes.push(format!("present {change:+.1} points"));
        }
    }
    for side in [Side::A, Side::B] {
        let shown = row.values_only_text(side, 3, |v| format!("{v:?}"), |k| format!(" +{k} more"));
        if let Some((n, shown)) = shown {
            let s = if n == 1 { "" } else { "s" };
            notes.push(format!("{n} value{s} only in {}: {shown}", side.letter()));
        }
    }
    notes
}

/// The comparison as a table: both datasets named, then a row per
/// feature in the comparison's order.
fn compare_table(c: &tfdv::compare::Comparison<'_>, sides: [&super::CompareSide; 2]) -> String {
    use tfdv::compare::{figure_text, present_text};
    let mut out = String::new();
    for (letter, side) in ["A", "B"].iter().zip(sides) {
        let _ = writeln!(
            out,
            "{letter}: {} ({} examples, {} features; {})",
            side.name,
            side.stats.num_examples,
            side.stats.features.len(),
            side.source
        );
    }
    let (only_a, only_b) = c.only_counts();
    let _ = writeln!(
        out,
        "{} features: {} in both, {only_a} only in A, {only_b} only in B, {} of another type in B\n\
         most divergent first: features in one dataset only, of another type, then by the larger of L-inf and JSD\n",
        c.rows.len(),
        c.rows.len() - only_a - only_b,
        c.type_changes()
    );
    let mut t = output::table_of_width(Some(crate::output::tty_width().unwrap_or(120)));
    t.set_header(vec![
        "feature",
        "type A",
        "type B",
        "present A",
        "present B",
        "L-inf",
        "JSD",
        "notes",
    ]);
    let cell = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    for row in &c.rows {
        t.add_row(vec![
            crate::schema::describe::display_name(row.path),
            cell(row.a.map(|f| f.ty.name().to_string())),
            cell(row.b.map(|f| f.ty.name().to_string())),
            cell(row.a.map(|f| present_text(f, c.a))),
            cell(row.b.map(|f| present_text(f, c.b))),
            cell(row.linf.as_ref().map(|l| figure_text(l.1))),
            cell(row.jsd.ok().map(figure_text)),
            compare_notes(row, c).join("; "),
        ]);
    }
    let _ = writeln!(out, "{t}");
    out
}

/// The comparison as JSON (stable keys; a figure not measured is null).
fn compare_json(c: &tfdv::compare::Comparison<'_>, sides: [&super::CompareSide; 2]) -> serde_json::Value {
    use serde_json::json;
    use tfdv::compare::Row;
    let side = |s: &super::CompareSide| {
        json!({
            "name": s.name,
            "source": if s.file.is_some() { "statistics" } else { "records" },
            "dataset": s.stats.name,
            "examples": s.stats.num_examples,
            "features": s.stats.features.len(),
        })
    };
    let features: Vec<serde_json::Value> = c
        .rows
        .iter()
        .map(|row| {
            let values = |f: Option<&tfdv::statistics::FeatureStat>| {
                f.map(|f| json!({"min": f.common.min_num_values, "max": f.common.max_num_values, "avg": f.common.avg_num_values}))
            };
            json!({
                "feature": row.path,
                "in": row.only_in().map_or("both", |s| s.letter()),
                "type_a": row.a.map(|f| f.ty.name()),
                "type_b": row.b.map(|f| f.ty.name()),
                "present_a": row.a.map(|f| Row::present(f, c.a)),
                "present_b": row.b.map(|f| Row::present(f, c.b)),
                "values_a": values(row.a),
                "values_b": values(row.b),
                "linf": row.linf.as_ref().map(|l| l.1),
                "linf_value": row.linf.as_ref().map(|l| String::from_utf8_lossy(&l.0).into_owned()),
                "jsd": row.jsd.ok(),
                "notes": compare_notes(row, c),
            })
        })
        .collect();
    json!({
        "a": side(sides[0]),
        "b": side(sides[1]),
        "order": "features in one dataset only first, then those of another type, then by the larger of linf and jsd (largest first); features with neither last; ties by name",
        "features": features,
    })
}

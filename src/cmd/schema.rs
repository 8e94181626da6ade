//! `tfr schema`: infer what a dataset holds, per feature, and print it as a
//! table, as JSON ([`crate::schema::json`], whose format is documented in
//! [`crate::schema`]), or as a TensorFlow parse spec ([`crate::schema::tf`]).

use super::{conflicts_note, scan, untracked_note, ScanArgs};
use crate::args::{InputArgs, ScanFlags};
use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::schema::stats::{self, FeatureStats};
use crate::schema::{self, describe::*, Part, Scan};
use anyhow::Result;
use clap::Args;
use comfy_table::{ColumnConstraint, Width};
use std::fmt::Write as _;

/// `--format` of `tfr schema`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum SchemaFormat {
    /// A table per feature, readable in an 80-column terminal.
    #[default]
    Table,
    /// One JSON document with every statistic (also `tfr from-jsonl --schema`
    /// input); documented in the man page and `cargo doc` (tfr::cmd::schema).
    Json,
    /// A ready-to-paste Python `feature_description` for tf.io.parse_example.
    Tf,
    /// A TFDV schema (tensorflow_metadata Schema, text format) as
    /// tfdv.infer_schema infers it: for tfdv.load_schema_text and `tfr
    /// validate --schema`.
    TfdvSchema,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct SchemaArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,

    /// Output format: table, json (every statistic; the input of `tfr
    /// from-jsonl --schema`), tf (a Python parse spec for TensorFlow),
    /// tfdv-schema (schema.pbtxt as TFDV infers it, for `tfr validate`).
    #[arg(long, short = 'f', value_enum, default_value_t = SchemaFormat::Table)]
    pub(crate) format: SchemaFormat,

    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,

    #[command(flatten)]
    pub(crate) scan: ScanFlags,

    #[command(flatten)]
    pub(crate) filter: crate::args::WhereArg,
}

pub(crate) fn run(args: &SchemaArgs, ctx: &Ctx) -> Result<Exit> {
    let format = if args.json { SchemaFormat::Json } else { args.format };
    let scan_args = ScanArgs {
        input: &args.input,
        flags: &args.scan,
        deep: format == SchemaFormat::TfdvSchema,
        filter: args.filter.get(),
    };
    let (scan, error) = scan(&scan_args, ctx)?;
    if format == SchemaFormat::TfdvSchema {
        // A schema without some features would fail validation of the very
        // data it came from.
        if let Some(note) = untracked_note(&scan) {
            anyhow::bail!("cannot write a complete schema: {note}");
        }
        if let Some(note) = conflicts_note(&scan) {
            output::error_line(format_args!("warning: {note}"));
        }
    }
    // The schema of everything before the damage, then the error.
    let mut text = String::new();
    match format {
        SchemaFormat::Table => write_table(&mut text, &scan, table_width()),
        SchemaFormat::Json => {
            text = serde_json::to_string_pretty(&schema::json::to_json(&scan)).expect("JSON");
            text.push('\n');
        }
        SchemaFormat::Tf => schema::tf::write_tf(&mut text, &scan),
        SchemaFormat::TfdvSchema => text = schema::tfdv::infer::infer(&scan).to_pbtxt(),
    }
    output::write_stdout(text.as_bytes())?;
    match error {
        Some(e) => Err(e),
        None => Ok(Exit::Success),
    }
}

/// The width tables are fitted to: the terminal's, else 80 columns.
fn table_width() -> Option<u16> {
    Some(output::tty_width().unwrap_or(80))
}

fn write_table(out: &mut String, scan: &Scan, width: Option<u16>) {
    let _ = writeln!(out, "{}", summary(scan));
    let (mut notes, mut empty) = (Vec::new(), Vec::new());
    for (part, table, records) in scan.parts() {
        let lists = part == Part::FeatureLists;
        let title = match part {
            Part::Features => "feature",
            Part::Context => "context feature",
            Part::FeatureLists => "feature list",
            Part::Examples => "example feature",
        };
        let plural = if table.len() == 1 { "" } else { "s" };
        let _ = writeln!(out, "\n{} {title}{plural}", table.len());
        let (untracked, lower_bound) = table.untracked();
        if untracked > 0 {
            let more = if lower_bound { "at least " } else { "" };
            let _ = writeln!(
                out,
                "({more}{untracked} more {title}s seen, without statistics: only the first {} distinct names are tracked)",
                stats::MAX_FEATURES
            );
        }
        if table.is_empty() {
            continue;
        }
        let mut t = output::table_of_width(width);
        let mut header = vec!["feature", "kind", "present"];
        if lists {
            header.extend(["steps", "values/step"]);
        } else {
            header.push("values");
        }
        header.extend(["min .. max", "notes"]);
        t.set_header(header);
        // Names wrap only when they must: give them up to 24 columns (+ padding) first.
        let longest = table
            .features()
            .iter()
            .map(|f| display_name(&f.name).chars().count())
            .max();
        if let Some(col) = t.column_mut(0) {
            let min = longest.unwrap_or(7).clamp(7, 24) as u16 + 2;
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(min)));
        }
        for f in table.sorted() {
            t.add_row(table_row(scan, f, records, lists, &mut notes, &mut empty));
        }
        let _ = writeln!(out, "{t}");
    }
    for note in notes {
        let _ = writeln!(out, "{note}");
    }
    if !empty.is_empty() {
        let _ = writeln!(
            out,
            "! always empty (present, never with a value): {}",
            empty.join(", ")
        );
    }
    if let Some(e) = &scan.error {
        let _ = writeln!(
            out,
            "! stopped early (only the records before this error are counted): {e}"
        );
    }
}

fn table_row(
    scan: &Scan,
    f: &FeatureStats,
    records: u64,
    lists: bool,
    notes: &mut Vec<String>,
    empty: &mut Vec<String>,
) -> Vec<String> {
    let name = display_name(&f.name);
    let kinds = f.kinds();
    let kind = if kinds.is_empty() {
        "none".to_string()
    } else {
        kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join("/")
    };
    let present = if f.present == records {
        "all".to_string()
    } else {
        format!("{} ({})", f.present, pct(f.present, records))
    };
    let mut row = vec![name.clone(), kind, present];
    if lists {
        row.push(count_range(&f.steps));
    }
    row.push(count_range(&f.values));
    let (range, mut note) = value_ranges(f);
    if f.no_kind > 0 {
        note.push(format!("no kind {}", f.no_kind));
    }
    if f.is_conflict() {
        note.push("! CONFLICT".to_string());
        notes.push(format!("! {name}: kinds conflict: {}", kinds_first_seen(scan, f)));
    }
    if f.is_always_empty() {
        note.push("! always empty".to_string());
        empty.push(name.clone());
    }
    let absent = absent_in(f, scan);
    if !absent.is_empty() {
        let plural = if absent.len() == 1 { "" } else { "s" };
        note.push(format!("! absent in {} file{plural}", absent.len()));
        let names: Vec<&str> = absent.iter().map(|i| scan.files[*i].name.as_str()).collect();
        notes.push(format!("! {name}: absent from {}", names.join(", ")));
    }
    row.push(if range.is_empty() {
        "-".to_string()
    } else {
        range.join("; ")
    });
    row.push(note.join(", "));
    row
}

/// A feature's value ranges (int64, float, bytes' lengths) and the notes on
/// its values (NaN, infinities, media types, UTF-8).
fn value_ranges(f: &FeatureStats) -> (Vec<String>, Vec<String>) {
    let mut range = Vec::new();
    let mut note = Vec::new();
    if f.int64.count > 0 {
        range.push(span_str(short_int(f.int64.min), short_int(f.int64.max)));
    }
    if f.float.count > 0 {
        match f.float.range() {
            Some((lo, hi)) => range.push(span_str(short_float(lo), short_float(hi))),
            None => range.push("NaN".to_string()),
        }
        if f.float.nan > 0 {
            note.push(format!("NaN {}", f.float.nan));
        }
        if f.float.pos_inf + f.float.neg_inf > 0 {
            note.push(format!("inf {}", f.float.pos_inf + f.float.neg_inf));
        }
    }
    let b = &f.bytes;
    if b.count > 0 {
        range.push(format!(
            "len {}",
            span_str(human_bytes(b.shortest), human_bytes(b.longest))
        ));
        let media = b.media_types();
        let shown: Vec<String> = match media.as_slice() {
            [] => Vec::new(),
            [(m, _)] => vec![m.name().to_string()],
            many => many.iter().take(3).map(|(m, n)| format!("{} {n}", m.name())).collect(),
        };
        note.extend(shown);
        if b.utf8 < b.count && b.utf8 > 0 {
            note.push(format!("utf-8 {}", pct(b.utf8, b.count)));
        }
    }
    (range, note)
}

//! `tfr info`: what a TFDS dataset folder says of itself (splits, counts,
//! features), and `--split` for the commands that read records.

use crate::tfds::{Folder, Place};
use anyhow::Result;

use crate::exit::Exit;
use crate::output::{self, Ctx};
use crate::tfds::features::{Kind, Leaf};
use crate::tfds::SplitInfo;
use clap::Args;
use serde_json::json;
use std::io::Write;

#[derive(Args, Debug, Clone)]
pub(crate) struct InfoArgs {
    /// A TFDS dataset folder (the version folder holding dataset_info.json:
    /// ~/tensorflow_datasets/mnist/3.0.1, gs://bucket/mnist/3.0.1/), or
    /// plain TFRecord inputs (files, globs, directories): their records,
    /// bytes and compression, and the first record's payload type and
    /// features.
    #[arg(value_name = "FOLDER|FILES", required = true)]
    pub(crate) paths: Vec<std::ffi::OsString>,

    /// Print one JSON document instead of the tables.
    #[arg(long)]
    pub(crate) json: bool,

    /// Read every shard and check it holds the records dataset_info.json
    /// says: exit 1, naming split, shard and both counts, where one differs
    /// or a shard is missing.
    #[arg(long)]
    pub(crate) check: bool,

    /// Class names shown per ClassLabel (--json lists all).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub(crate) names: usize,
}

pub(crate) fn run(args: &InfoArgs, ctx: &Ctx) -> Result<Exit> {
    // One TFDS folder; anything else is plain TFRecord inputs.
    let folder = match args.paths.as_slice() {
        [arg] => match Place::of_arg(arg) {
            Some(place) => Folder::open(&place)?,
            None => None,
        },
        _ => None,
    };
    let Some(folder) = folder else {
        return plain(args, ctx);
    };
    let shards = folder
        .info
        .splits
        .iter()
        .map(|s| folder.shard_names(s))
        .collect::<tfr_engine::Result<Vec<_>>>()?;
    let mut out = output::stdout();
    match args.json {
        true => writeln!(out, "{}", serde_json::to_string_pretty(&info_json(&folder))?)?,
        false => write_info(&mut out, &folder, args.names)?,
    }
    out.flush()?;
    if !args.check {
        return Ok(Exit::Success);
    }
    check(&folder, &shards, ctx)
}

/// The features as rows: name, type, dtype, shape, stored as, notes.
fn feature_rows(folder: &Folder, names: usize) -> Vec<[String; 5]> {
    let Some(tree) = &folder.features else {
        return Vec::new();
    };
    tree.leaves().iter().map(|l| feature_row(l, names)).collect()
}

fn dims(shape: &[Option<u64>], within: usize) -> String {
    let mut d: Vec<String> = (0..within).map(|_| "n".to_string()).collect();
    d.extend(shape.iter().map(|x| x.map_or("?".to_string(), |v| v.to_string())));
    // As Python writes a shape: (), (4,), (2, 3).
    match d.len() {
        0 => "()".to_string(),
        1 => format!("({},)", d[0]),
        _ => format!("({})", d.join(", ")),
    }
}

fn feature_row(l: &Leaf<'_>, names: usize) -> [String; 5] {
    let within = l.within.len();
    let around: Vec<&str> = l.within.iter().map(|n| n.type_name()).collect();
    let mut ty = l.node.type_name().to_string();
    if !around.is_empty() {
        ty = format!("{ty} in {}", around.join(" in "));
    }
    let (dtype, shape, notes) = match &l.node.kind {
        Kind::Tensor { shape, dtype, encoding } => {
            let note = match encoding.as_str() {
                "none" => String::new(),
                e => format!("stored {e}-encoded"),
            };
            (dtype.clone(), dims(shape, within), note)
        }
        Kind::ClassLabel { num_classes, names: n } => {
            let note = match n {
                Some(n) => {
                    let mut shown: Vec<&str> = n.iter().take(names).map(String::as_str).collect();
                    if n.len() > names {
                        shown.push("...");
                    }
                    format!("{num_classes} classes: {}", shown.join(", "))
                }
                None => format!("{num_classes} classes"),
            };
            ("int64".into(), dims(&[], within), note)
        }
        Kind::Image { shape, dtype, format } => {
            let f = if format.is_empty() { "encoded" } else { format.as_str() };
            (dtype.clone(), dims(shape, within), format!("{f} bytes"))
        }
        Kind::Text => ("string".into(), dims(&[], within), "UTF-8".into()),
        Kind::Other(c) => (String::new(), String::new(), format!("{c} (not decoded by tfr)")),
        _ => Default::default(),
    };
    let shown = |t: &str| output::escape_controls(t).into_owned();
    [shown(&l.name), shown(&ty), shown(&dtype), shape, shown(&notes)]
}

fn write_info(out: &mut dyn Write, folder: &Folder, names: usize) -> Result<()> {
    let i = &folder.info;
    writeln!(
        out,
        "{} ({})",
        output::escape_controls(&folder.title()),
        folder.place.shown()
    )?;
    if !i.description.trim().is_empty() {
        writeln!(out, "{}", output::escape_controls(i.description.trim()))?;
    }
    if let Some(url) = i.location.urls.first() {
        writeln!(out, "homepage: {}", output::escape_controls(url))?;
    }
    if let Some(first) = i.citation.lines().find(|l| !l.trim().is_empty()) {
        writeln!(out, "citation: {}", output::escape_controls(first.trim()))?;
    }
    let width = output::tty_width();
    let mut t = output::table_of_width(width);
    t.set_header(["split", "shards", "records", "bytes"]);
    let (mut records, mut bytes, mut shards) = (0u64, 0u64, 0usize);
    for s in &i.splits {
        t.add_row([
            output::escape_controls(&s.name).into_owned(),
            s.shard_lengths.len().to_string(),
            s.records().to_string(),
            s.num_bytes.0.to_string(),
        ]);
        records += s.records();
        bytes += s.num_bytes.0;
        shards += s.shard_lengths.len();
    }
    if i.splits.len() > 1 {
        t.add_row([
            "total".to_string(),
            shards.to_string(),
            records.to_string(),
            bytes.to_string(),
        ]);
    }
    for c in 1..4 {
        if let Some(col) = t.column_mut(c) {
            col.set_cell_alignment(comfy_table::CellAlignment::Right);
        }
    }
    writeln!(out, "\n{t}")?;
    let rows = feature_rows(folder, names);
    if rows.is_empty() {
        writeln!(out, "\nno features.json: the features are those `tfr schema` finds")?;
        return Ok(());
    }
    let mut t = output::table_of_width(width);
    t.set_header(["feature", "type", "dtype", "shape", "notes"]);
    for r in rows {
        t.add_row(r);
    }
    writeln!(out, "\n{t}")?;
    Ok(())
}

fn info_json(folder: &Folder) -> serde_json::Value {
    let i = &folder.info;
    let splits: Vec<serde_json::Value> = i
        .splits
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "shards": folder.shard_names(s).unwrap_or_default(),
                "shard_records": s.shard_lengths.iter().map(|c| c.0).collect::<Vec<_>>(),
                "records": s.records(),
                "bytes": s.num_bytes.0,
            })
        })
        .collect();
    let features: Vec<serde_json::Value> = folder
        .features
        .iter()
        .flat_map(|t| t.leaves())
        .map(|l| {
            let [_, _, dtype, shape, _] = feature_row(&l, 0);
            let mut f = json!({"name": l.name, "type": l.node.type_name(), "dtype": dtype, "shape": shape, "within": l.within.iter().map(|n| n.type_name()).collect::<Vec<_>>()});
            match &l.node.kind {
                Kind::ClassLabel { num_classes, names } => {
                    f["num_classes"] = json!(num_classes);
                    f["names"] = json!(names);
                }
                Kind::Tensor { encoding, .. } => f["encoding"] = json!(encoding),
                Kind::Image { format, .. } => f["encoding"] = json!(format),
                _ => {}
            }
            f
        })
        .collect();
    json!({
        "name": i.name,
        "config": i.config_name,
        "version": i.version,
        "folder": folder.place.shown(),
        "description": i.description,
        "citation": i.citation,
        "homepage": i.location.urls.first(),
        "file_format": if i.file_format.is_empty() { "tfrecord" } else { i.file_format.as_str() },
        "splits": splits,
        "features": features,
    })
}

/// `--check`: every shard read, its records counted by their headers.
fn check(folder: &Folder, shards: &[Vec<String>], ctx: &Ctx) -> Result<Exit> {
    folder.check_format()?;
    let progress = ctx.progress(None);
    let mut bad = 0u64;
    let mut total = 0usize;
    for (split, names) in folder.info.splits.iter().zip(shards) {
        for (k, (name, want)) in names.iter().zip(&split.shard_lengths).enumerate() {
            total += 1;
            if let Some(problem) = check_shard(folder, split, name, want.0, &progress) {
                output::error_line(format_args!(
                    "{}: split {} shard {k} of {}: {problem}",
                    folder.place.file(name).display(),
                    split.name,
                    names.len()
                ));
                bad += 1;
            }
        }
    }
    progress.finish();
    let mut out = output::stdout();
    match bad {
        0 => writeln!(
            out,
            "checked: all {total} shards hold the records dataset_info.json says"
        )?,
        n => writeln!(out, "checked: {n} of {total} shards differ from dataset_info.json")?,
    }
    out.flush()?;
    Ok(if bad == 0 { Exit::Success } else { Exit::DamageFound })
}

/// What is wrong with one shard, if anything.
fn check_shard(
    folder: &Folder,
    _split: &SplitInfo,
    name: &str,
    want: u64,
    progress: &output::Progress,
) -> Option<String> {
    let input = folder.place.file(name);
    let mut reader = match crate::record::OpenOptions::default().open(&input) {
        Ok(r) => r,
        Err(e) => {
            let missing = e.io_error().is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
                || crate::io::remote::is_not_found(&e);
            return Some(match missing {
                true => format!("missing (dataset_info.json says {want} records)"),
                false => format!("{e:#}"),
            });
        }
    };
    match reader.count_rest(|b, r| progress.update(b, r)) {
        Ok(n) if n == want => None,
        Ok(n) => Some(format!("{n} records, dataset_info.json says {want}")),
        Err(e) => Some(format!(
            "{e} (after {} records; dataset_info.json says {want})",
            reader.index()
        )),
    }
}

/// `tfr info FILES`: each input's records (counted: record headers and
/// their checksums), bytes and compression, and the first record's payload
/// type and features (name, kind, values).
fn plain(args: &InfoArgs, ctx: &Ctx) -> Result<Exit> {
    let inputs = crate::io::input::expand(&args.paths)?;
    let progress = ctx.progress(crate::io::input::total_size(&inputs));
    let mut files = Vec::new();
    let mut first: Option<Vec<u8>> = None;
    for input in &inputs {
        let mut reader = crate::record::OpenOptions::default().open(input)?;
        if first.is_none() {
            first = reader
                .next_record()
                .map_err(|e| crate::record::read_error(input, e))?
                .map(|r| r.data.to_vec());
            reader = crate::record::OpenOptions::default().open(input)?;
        }
        let records = reader
            .count_rest(|b, r| progress.update(b, r))
            .map_err(|e| crate::record::read_error(input, e))?;
        let size = crate::io::input::total_size(std::slice::from_ref(input)).unwrap_or(0);
        files.push((input.display(), records, size, reader.compression().name()));
    }
    drop(progress);
    let mut features: Vec<(String, &'static str, usize)> = Vec::new();
    let payload = match first.as_deref().map(crate::example::resolve_auto) {
        Some(Ok(ty)) => {
            if let (crate::example::MessageType::Example, Some(data)) = (ty, first.as_deref()) {
                let mut decoder = crate::example::Decoder::default();
                let view = decoder.example(data, false)?;
                for (name, f) in view.features().iter().flat_map(|f| f.entries()) {
                    features.push((name.to_string(), f.kind().name(), f.count()));
                }
            }
            match ty {
                crate::example::MessageType::Example => "tf.train.Example",
                crate::example::MessageType::SequenceExample => "tf.train.SequenceExample",
                crate::example::MessageType::Elwc => "tensorflow.serving.ExampleListWithContext",
                _ => "raw",
            }
            .to_string()
        }
        Some(Err(_)) => "not an Example or SequenceExample (see --type raw)".to_string(),
        None => "no records".to_string(),
    };
    write_plain(args.json, &files, &payload, &features)?;
    Ok(Exit::Success)
}

/// A plain input's row: name, records, bytes, compression.
type FileRow = (String, u64, u64, &'static str);

/// What `plain` prints: tables, or one JSON document.
fn write_plain(json: bool, files: &[FileRow], payload: &str, features: &[(String, &'static str, usize)]) -> Result<()> {
    let total: u64 = files.iter().map(|f| f.1).sum();
    let mut out = output::stdout();
    if json {
        let doc = json!({
            "files": files.iter().map(|f| json!({"name": f.0, "records": f.1, "bytes": f.2, "compression": f.3})).collect::<Vec<_>>(),
            "records": total,
            "payload": payload,
            "first_record_features": features.iter().map(|f| json!({"name": f.0, "kind": f.1, "values": f.2})).collect::<Vec<_>>(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        let mut table = output::table();
        table.set_header(vec!["file", "records", "bytes", "compression"]);
        for f in files {
            table.add_row(vec![
                output::escape_controls(&f.0).into_owned(),
                f.1.to_string(),
                f.2.to_string(),
                f.3.to_string(),
            ]);
        }
        table.add_row(vec![
            "total".to_string(),
            total.to_string(),
            files.iter().map(|f| f.2).sum::<u64>().to_string(),
            String::new(),
        ]);
        writeln!(out, "{table}")?;
        writeln!(out, "payload: {payload}")?;
        if !features.is_empty() {
            let mut table = output::table();
            table.set_header(vec!["feature (first record)", "kind", "values"]);
            for f in features {
                table.add_row(vec![
                    output::escape_controls(&f.0).into_owned(),
                    f.1.to_string(),
                    f.2.to_string(),
                ]);
            }
            writeln!(out, "{table}")?;
        }
    }
    out.flush()?;
    Ok(())
}

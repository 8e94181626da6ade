//! `tfr to-parquet` of a TFDS dataset folder: the records typed by its
//! features.json, as Parquet that Hugging Face `datasets` opens with the
//! dataset's features ([`crate::tfds::parquet`]); per split, or the steps
//! of an RLDS dataset as rows (`--explode steps`).

use super::ToParquetArgs;
use crate::exit::Exit;
use crate::formats::columnar_out::Select;
use crate::io::OutputSet;
use crate::output::{self, Ctx};
use crate::tfds::features::FeatureTree;
use crate::tfds::parquet::{write, Target, TfdsPlan, Written};
use crate::tfds::{split, Folder, Place};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// The TFDS folder among the inputs, if any (exactly one folder argument).
fn folder_of(args: &ToParquetArgs) -> Result<Option<Folder>> {
    let files = &args.input.files;
    let mut found = None;
    for arg in files {
        let Some(place) = Place::of_arg(arg) else { continue };
        if let Some(folder) = Folder::open(&place)? {
            if found.is_some() || files.len() > 1 {
                bail!("to-parquet of a TFDS dataset reads one folder at a time (or add --plain)");
            }
            found = Some(folder);
        }
    }
    Ok(found)
}

/// Converts a TFDS folder; `None` when the inputs are not one. Every
/// split's files go into one output set: they appear together when all
/// splits converted, or none does.
pub(crate) fn run(args: &ToParquetArgs, ctx: &Ctx) -> Result<Option<Exit>> {
    let Some(folder) = folder_of(args)? else {
        if let Some(e) = &args.explode {
            bail!("--explode {e}: needs a TFDS dataset folder (holding dataset_info.json and features.json)");
        }
        return Ok(None);
    };
    let Some(tree) = &folder.features else {
        bail!(
            "{}: no features.json, so the columns cannot be typed as TFDS says (add --plain to convert by the values)",
            folder.place.shown()
        );
    };
    if args.columns.schema.is_some() {
        bail!("--schema with a TFDS folder: not supported (the columns come from features.json; add --plain)");
    }
    if args.output.as_os_str() == "-" {
        bail!("-o -: a Parquet file is written to a file or an object, not to stdout (its footer points back into it); to stream, use to-arrow -o -");
    }
    let projection = args.columns.select.projection();
    let select = projection.as_ref().map(|p| p as &dyn Select);
    let plan = TfdsPlan::new(tree, args.explode.as_deref(), select);
    for warning in projection.iter().flat_map(|p| p.unmatched()) {
        output::error_line(format_args!("{warning}"));
    }
    let plan = plan?;
    let jobs = outputs(args, &folder)?;
    // The folder's metadata is as much the dataset as its shards.
    let metadata: Vec<PathBuf> = match &folder.place {
        crate::tfds::Place::Dir(d) => std::fs::read_dir(d)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "txt"))
            .collect(),
        crate::tfds::Place::Prefix(_) => Vec::new(),
    };
    let aux: Vec<&Path> = metadata.iter().map(PathBuf::as_path).collect();
    let every: Vec<crate::io::Input> = jobs.iter().flat_map(|(_, inputs, _)| inputs.iter().cloned()).collect();
    for (_, _, path) in &jobs {
        crate::io::same_file::refuse_input_as_output(&every, &aux, path, "-o")?;
    }
    let mut set = OutputSet::new(&every, &aux, "-o");
    for (name, inputs, path) in &jobs {
        let result = convert(args, ctx, (&plan, tree), inputs, path, &mut set);
        let written = match jobs.len() {
            1 => result?,
            _ => result.with_context(|| format!("split {name} (no file of any split written)"))?,
        };
        warn(name, &written);
    }
    set.commit()?;
    Ok(Some(Exit::Success))
}

/// One split's records as `plan`'s rows into `set`, named after `path`.
fn convert(
    args: &ToParquetArgs,
    ctx: &Ctx,
    (plan, tree): (&TfdsPlan, &FeatureTree),
    inputs: &[crate::io::Input],
    path: &Path,
    set: &mut OutputSet,
) -> Result<Written> {
    let open = args.input.options();
    let threads = args.jobs.get();
    let mut how = args
        .range
        .reading(&open, Some(crate::example::MessageType::Example), threads);
    how.filter = args.columns.filter.get();
    let target = Target {
        set,
        output: path,
        shards: args.shards,
        rows_per_file: args.rows_per_file,
        compression: args.output_compression.codec(),
        row_group_size: args.row_group_size.unwrap_or(match plan.has_images() {
            true => 8 << 20,
            false => 64 << 20,
        }),
    };
    let progress = |total| ctx.progress_pass(total);
    Ok(write(
        inputs,
        &how,
        crate::pipeline::workers(threads),
        plan,
        tree,
        target,
        &progress,
    )?)
}

/// The warnings of a split's conversion.
fn warn(name: &str, written: &Written) {
    for (feature, n) in &written.missing {
        output::error_line(format_args!(
            "warning: split {name}: {n} of {} records lack feature {} (null in its column; TFDS itself would fail on them)",
            written.records,
            output::escape_controls(feature)
        ));
    }
    for (feature, n) in &written.unnamed {
        output::error_line(format_args!(
            "warning: split {name}: {n} values of ClassLabel {} name no class (outside 0..numClasses; written as they are)",
            output::escape_controls(feature)
        ));
    }
    if written.empty_episodes > 0 {
        output::error_line(format_args!(
            "warning: split {name}: {} episodes have no steps, so no rows",
            written.empty_episodes
        ));
    }
}

/// The splits converted: each one's name, inputs and output (`{split}` in
/// `-o` names each split's file; `--split` gives one).
fn outputs(args: &ToParquetArgs, folder: &Folder) -> Result<Vec<(String, Vec<crate::io::Input>, PathBuf)>> {
    let out = args.output.to_string_lossy().into_owned();
    if let Some(spec) = args.input.split.as_deref().filter(|_| out.contains("{split}")) {
        // A file name, not TFDS's slice syntax (`train[:10%]`'s brackets are
        // glob characters to shells and to `datasets`' data_files).
        if !spec.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            bail!("-o {out}: {{split}} names a file by a split's name; with --split {spec}, give -o the file's name");
        }
    }
    Ok(match &args.input.split {
        Some(spec) => vec![(
            spec.clone(),
            args.input.expand()?,
            PathBuf::from(out.replace("{split}", spec)),
        )],
        None if folder.info.splits.len() == 1 || out.contains("{split}") => {
            let mut jobs = Vec::new();
            for name in folder.split_names() {
                let inputs = split::pick(folder, name)?.inputs;
                jobs.push((name.to_string(), inputs, PathBuf::from(out.replace("{split}", name))));
            }
            jobs
        }
        None => bail!(
            "{} has {} splits ({}): write each with -o 'DIR/{{split}}.parquet', or pick one with --split",
            folder.title(),
            folder.info.splits.len(),
            folder.split_names().join(", ")
        ),
    })
}

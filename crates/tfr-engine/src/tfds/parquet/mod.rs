//! A TFDS dataset as Parquet that Hugging Face `datasets` opens with its
//! features: one column per leaf of the feature tree (named as it is
//! stored, `meta/id`), typed by `features.json` (the dtype's exact Arrow
//! type; a fixed dimension a `fixed_size_list`, a variable one or a
//! Sequence/Dataset a `list`), ClassLabel an int64 column with its names,
//! Image a `struct<bytes, path>` of the encoded bytes, Text `string`; the
//! `huggingface` schema metadata says so as `datasets` writes it
//! (`{"info": {"features": ...}}`).
//!
//! `explode`: an RLDS dataset's `steps` as one row per step
//! (`episode_index`, `step_index`, the step's features without the
//! `steps/` prefix, the episode's other features repeated).
//!
//! `--features`/`--exclude` pick leaves by any name on their path (`meta`
//! or `meta/id`; exploded, `observation` or `observation/image` too); the
//! schema and its `huggingface` features are the kept columns'. The rows
//! go into one file or, cut by `--shards`/`--rows-per-file` after a pass
//! that counts them, into several ([`crate::formats::columnar_out`]'s
//! files and names), joining an [`OutputSet`] that the caller commits
//! (every split's files appear together, or none).

mod arrays;

use super::features::{FeatureTree, Kind, Leaf};
use super::tensor::{decode, DType, Tensor};
use crate::error::{bail, Context, Result};
use crate::example::Decoder;
use crate::formats::columnar_out::{cut, ParquetFiles, Progress, Select};
use crate::io::OutputSet;
use crate::pipeline::batches::{decode_error, Batch, Record, Work};
use crate::pipeline::Output;
use arrays::{build, extend, Gather};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, RecordBatchOptions};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// A column's values, innermost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prim {
    Bool,
    Int(u8),
    UInt(u8),
    Float32,
    Float64,
    Utf8,
    Binary,
    Image,
}

impl Prim {
    fn data_type(self) -> DataType {
        match self {
            Prim::Bool => DataType::Boolean,
            Prim::Int(1) => DataType::Int8,
            Prim::Int(2) => DataType::Int16,
            Prim::Int(4) => DataType::Int32,
            Prim::Int(_) => DataType::Int64,
            Prim::UInt(1) => DataType::UInt8,
            Prim::UInt(2) => DataType::UInt16,
            Prim::UInt(4) => DataType::UInt32,
            Prim::UInt(_) => DataType::UInt64,
            Prim::Float32 => DataType::Float32,
            Prim::Float64 => DataType::Float64,
            Prim::Utf8 => DataType::Utf8,
            Prim::Binary => DataType::Binary,
            Prim::Image => DataType::Struct(image_fields()),
        }
    }

    /// `datasets`' Value dtype.
    fn hf_dtype(self) -> &'static str {
        match self {
            Prim::Bool => "bool",
            Prim::Int(1) => "int8",
            Prim::Int(2) => "int16",
            Prim::Int(4) => "int32",
            Prim::Int(_) => "int64",
            Prim::UInt(1) => "uint8",
            Prim::UInt(2) => "uint16",
            Prim::UInt(4) => "uint32",
            Prim::UInt(_) => "uint64",
            Prim::Float32 => "float32",
            Prim::Float64 => "float64",
            Prim::Utf8 => "string",
            Prim::Binary | Prim::Image => "binary",
        }
    }

    fn of(dtype: DType) -> Prim {
        match dtype {
            DType::Bool => Prim::Bool,
            DType::Int(n) => Prim::Int(n),
            DType::UInt(n) => Prim::UInt(n),
            DType::Float(8) => Prim::Float64,
            DType::Float(_) | DType::BFloat16 => Prim::Float32,
            DType::String => Prim::Binary,
        }
    }
}

/// `struct<bytes: binary, path: string>`, `datasets`' Image storage.
fn image_fields() -> Fields {
    Fields::from(vec![
        Field::new("bytes", DataType::Binary, true),
        Field::new("path", DataType::Utf8, true),
    ])
}

/// A dimension of a column above its values, outermost first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Fixed(usize),
    Var,
}

/// One output column.
#[derive(Clone, Debug)]
struct Column {
    /// The column's name.
    name: String,
    /// The feature it is stored as in the records.
    feature: String,
    leaf_kind: Kind,
    levels: Vec<Level>,
    prim: Prim,
    hf: Value,
    /// A feature of the exploded Dataset (one value per step row).
    per_step: bool,
}

/// What the rows are: the columns of a TFDS feature tree.
#[derive(Clone, Debug)]
pub struct TfdsPlan {
    columns: Vec<Column>,
    /// The exploded Dataset's path (`steps`), if rows are steps.
    explode: Option<String>,
    /// With `explode`, when no column is one of the steps' features: one
    /// that is decoded (not written) to count each episode's steps.
    counter: Option<Column>,
    schema: SchemaRef,
}

fn arrow_type(prim: Prim, levels: &[Level]) -> DataType {
    levels.iter().rev().fold(prim.data_type(), |inner, level| {
        let item = Arc::new(Field::new("item", inner, true));
        match level {
            Level::Fixed(n) => DataType::FixedSizeList(item, *n as i32),
            Level::Var => DataType::List(item),
        }
    })
}

fn hf_type(prim: Prim, kind: &Kind, levels: &[Level]) -> Value {
    let value = match (prim, kind) {
        (Prim::Image, _) => json!({"_type": "Image"}),
        (_, Kind::ClassLabel { names: Some(n), .. }) => json!({"names": n, "_type": "ClassLabel"}),
        _ => json!({"dtype": prim.hf_dtype(), "_type": "Value"}),
    };
    levels.iter().rev().fold(value, |inner, level| match level {
        Level::Fixed(n) => json!({"feature": inner, "length": n, "_type": "List"}),
        Level::Var => json!({"feature": inner, "_type": "List"}),
    })
}

impl TfdsPlan {
    /// The columns of `tree`; `explode`: the Dataset feature (`steps`) whose
    /// steps become rows; `select`: which leaves have a column (by any name
    /// on their path, [`selected`]).
    pub fn new(tree: &FeatureTree, explode: Option<&str>, select: Option<&dyn Select>) -> Result<TfdsPlan> {
        let leaves = tree.leaves();
        if let Some(path) = explode {
            let datasets = tree.dataset_paths();
            if !datasets.iter().any(|d| d == path) {
                bail!(
                    "--explode {path}: no Dataset feature of that name in features.json{}",
                    match datasets.is_empty() {
                        true => String::new(),
                        false => format!(" (it has {})", datasets.join(", ")),
                    }
                );
            }
        }
        let mut columns = Vec::new();
        for leaf in &leaves {
            if select.is_none_or(|s| selected(s, leaf, explode)) {
                columns.push(column(leaf, explode)?);
            }
        }
        if columns.is_empty() && select.is_some() {
            bail!(
                "--features/--exclude leave out every feature of features.json (it has {})",
                leaves.iter().map(|l| l.name.as_str()).collect::<Vec<_>>().join(", ")
            );
        }
        let mut seen = std::collections::HashSet::new();
        for c in &columns {
            if !seen.insert(c.name.clone())
                || (explode.is_some() && ["episode_index", "step_index"].contains(&c.name.as_str()))
            {
                bail!(
                    "two columns would be named {} (--explode drops the steps' prefix)",
                    c.name
                );
            }
        }
        let counter = match explode.is_some() && !columns.iter().any(|c| c.per_step) {
            true => leaves
                .iter()
                .filter_map(|l| column(l, explode).ok())
                .find(|c| c.per_step),
            false => None,
        };
        Ok(TfdsPlan {
            schema: schema_of(&columns, explode.is_some()),
            columns,
            explode: explode.map(str::to_string),
            counter,
        })
    }

    /// The plan of a pass that only counts the rows: no column, the steps
    /// counted by one of their features (decoded, not written).
    fn counting(&self) -> TfdsPlan {
        let counter = match &self.explode {
            Some(_) => self
                .counter
                .clone()
                .or_else(|| self.columns.iter().find(|c| c.per_step).cloned()),
            None => None,
        };
        TfdsPlan {
            columns: Vec::new(),
            explode: self.explode.clone(),
            counter,
            schema: schema_of(&[], self.explode.is_some()),
        }
    }

    /// The Arrow schema, with the `huggingface` metadata.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Whether a column holds images.
    pub fn has_images(&self) -> bool {
        self.columns.iter().any(|c| c.prim == Prim::Image)
    }

    /// The `huggingface` metadata value.
    pub fn hf_metadata(&self) -> String {
        self.schema.metadata().get("huggingface").cloned().unwrap_or_default()
    }
}

/// The Arrow schema of `columns` (after `episode_index` and `step_index`
/// when `explode`), with the `huggingface` metadata of exactly those.
fn schema_of(columns: &[Column], explode: bool) -> SchemaRef {
    let mut fields = Vec::new();
    let mut hf = serde_json::Map::new();
    if explode {
        for name in ["episode_index", "step_index"] {
            fields.push(Field::new(name, DataType::Int64, false));
            hf.insert(name.into(), json!({"dtype": "int64", "_type": "Value"}));
        }
    }
    for c in columns {
        fields.push(Field::new(&c.name, arrow_type(c.prim, &c.levels), true));
        hf.insert(c.name.clone(), c.hf.clone());
    }
    let meta = json!({"info": {"features": hf}}).to_string();
    let schema = Schema::new_with_metadata(fields, HashMap::from([("huggingface".to_string(), meta)]));
    Arc::new(schema)
}

/// Whether `select` keeps `leaf`: some name on its path (`meta`,
/// `meta/id`; exploded, also the column's name without the steps' prefix
/// and its parents) is included, and none is excluded.
fn selected(select: &dyn Select, leaf: &Leaf<'_>, explode: Option<&str>) -> bool {
    let short = match (per_step(leaf, explode), explode) {
        (true, Some(p)) => leaf.name.strip_prefix(&format!("{p}/")),
        _ => None,
    };
    let (mut included, mut excluded) = (false, false);
    for name in std::iter::once(leaf.name.as_str()).chain(short) {
        let parents = name.match_indices('/').map(|(i, _)| &name[..i]);
        for path in parents.chain(std::iter::once(name)) {
            let (i, e) = select.verdict(path);
            included |= i;
            excluded |= e;
        }
    }
    included && !excluded
}

/// Whether `leaf` is one of the exploded Dataset's step features.
fn per_step(leaf: &Leaf<'_>, explode: Option<&str>) -> bool {
    explode.is_some_and(|p| {
        (leaf.name == p || leaf.name.starts_with(&format!("{p}/")))
            && leaf
                .within
                .first()
                .is_some_and(|w| matches!(w.kind, Kind::Dataset { .. }))
    })
}

/// The column of a leaf.
fn column(leaf: &Leaf<'_>, explode: Option<&str>) -> Result<Column> {
    let per_step = per_step(leaf, explode);
    let mut levels: Vec<Level> = leaf
        .within
        .iter()
        .skip(usize::from(per_step))
        .map(|w| match w.kind {
            Kind::Sequence { length: Some(n), .. } => Level::Fixed(n as usize),
            _ => Level::Var,
        })
        .collect();
    let prim = match &leaf.node.kind {
        Kind::Tensor { shape, dtype, .. } => {
            let ty = DType::parse(dtype)
                .with_context(|| format!("feature {}: the dtype {dtype} is not one tfr converts", leaf.name))?;
            levels.extend(shape.iter().map(|d| d.map_or(Level::Var, |n| Level::Fixed(n as usize))));
            Prim::of(ty)
        }
        Kind::ClassLabel { .. } => Prim::Int(8),
        Kind::Text => Prim::Utf8,
        Kind::Image { .. } => Prim::Image,
        other => bail!(
            "feature {}: TFDS's {} ({other:?}) is not one tfr converts (leave it out with --exclude)",
            leaf.name,
            leaf.node.type_name()
        ),
    };
    let name = match (per_step, explode) {
        (true, Some(p)) => leaf
            .name
            .strip_prefix(&format!("{p}/"))
            .unwrap_or(&leaf.name)
            .to_string(),
        _ => leaf.name.clone(),
    };
    Ok(Column {
        hf: hf_type(prim, &leaf.node.kind, &levels),
        name,
        feature: leaf.name.clone(),
        leaf_kind: leaf.node.kind.clone(),
        levels,
        prim,
        per_step,
    })
}

/// One batch's rows.
#[derive(Default)]
pub struct TfdsRows {
    gathers: Vec<Gather>,
    /// Per row: the episode (record) it came from, counted in the batch,
    /// and its step (exploded rows only).
    episode: Vec<u64>,
    step: Vec<u64>,
    records: u64,
    /// Episodes without steps (no rows).
    pub(crate) empty_episodes: u64,
    /// Per column, the records without its feature (null there).
    missing: Vec<u64>,
    /// Per column, ClassLabel values that name no class (outside
    /// 0..numClasses).
    unnamed: Vec<u64>,
    /// The batches built, in order, with the records they hold.
    pub batches: Vec<(RecordBatch, u64)>,
}

impl Output for TfdsRows {
    fn is_empty(&self) -> bool {
        self.batches.is_empty()
            && self.empty_episodes == 0
            && self.missing.iter().all(|&n| n == 0)
            && self.unnamed.iter().all(|&n| n == 0)
    }

    fn clear(&mut self) {
        self.gathers.clear();
        self.episode.clear();
        self.step.clear();
        self.records = 0;
        self.empty_episodes = 0;
        self.missing.clear();
        self.unnamed.clear();
        self.batches.clear();
    }
}

/// The workers' side: records decoded into rows, a record batch per batch.
pub struct TfdsWork<'a> {
    plan: &'a TfdsPlan,
    /// The leaf of each column.
    leaves: Vec<Leaf<'a>>,
    /// The plan's counter's leaf.
    counter: Option<Leaf<'a>>,
}

impl<'a> TfdsWork<'a> {
    /// The work of `plan`, made of `tree`.
    pub fn new(plan: &'a TfdsPlan, tree: &'a FeatureTree) -> TfdsWork<'a> {
        let all = tree.leaves();
        let leaf = |c: &Column| {
            all.iter()
                .find(|l| l.name == c.feature)
                .cloned()
                .expect("planned from this tree")
        };
        TfdsWork {
            plan,
            leaves: plan.columns.iter().map(leaf).collect(),
            counter: plan.counter.as_ref().map(leaf),
        }
    }

    /// Ends a batch: its gathered rows as one record batch.
    fn seal(&self, out: &mut TfdsRows) -> Result<()> {
        if out.gathers.is_empty() && out.records == 0 {
            return Ok(());
        }
        let rows = match self.plan.explode {
            Some(_) => out.episode.len(),
            None => out.records as usize,
        };
        let mut arrays: Vec<ArrayRef> = Vec::new();
        if self.plan.explode.is_some() {
            arrays.push(Arc::new(Int64Array::from_iter_values(
                out.episode.iter().map(|&e| e as i64),
            )));
            arrays.push(Arc::new(Int64Array::from_iter_values(
                out.step.iter().map(|&s| s as i64),
            )));
        }
        out.gathers.resize_with(self.plan.columns.len(), Gather::default);
        for (c, g) in self.plan.columns.iter().zip(&mut out.gathers) {
            g.shapes.resize(rows, None);
            arrays.push(build(c, g).with_context(|| format!("feature {}", c.feature))?);
        }
        // A counting pass's batch may have no column: its rows are counted.
        let rows = RecordBatchOptions::new().with_row_count(Some(rows));
        let batch = RecordBatch::try_new_with_options(self.plan.schema.clone(), arrays, &rows)?;
        out.batches.push((batch, out.records));
        out.gathers.clear();
        out.episode.clear();
        out.step.clear();
        out.records = 0;
        Ok(())
    }

    fn add(&self, record: &Record<'_>, decoder: &mut Decoder, out: &mut TfdsRows) -> Result<()> {
        let example = decoder
            .example(record.payload, record.strict)
            .map_err(|e| decode_error(record.name, record.index, record.offset, e))?;
        let mut stored = HashMap::new();
        for (name, v) in example.features().iter().flat_map(|f| f.entries()) {
            stored.insert(name, v);
        }
        let at = || format!("{}: record {} at byte {}", record.name, record.index, record.offset);
        let decoded = |leaf: &Leaf<'_>| -> Result<Option<Tensor>> {
            let Some(v) = stored.get(leaf.name.as_str()) else {
                return Ok(None);
            };
            let t =
                decode(leaf, v).map_err(|e| crate::Error::Invalid(format!("{}: feature {}: {e}", at(), leaf.name)))?;
            Ok(Some(t))
        };
        let mut tensors: Vec<Option<Tensor>> = Vec::with_capacity(self.leaves.len());
        out.missing.resize(self.leaves.len(), 0);
        out.unnamed.resize(self.leaves.len(), 0);
        for (i, leaf) in self.leaves.iter().enumerate() {
            let t = decoded(leaf)?;
            out.missing[i] += u64::from(t.is_none());
            if let (Kind::ClassLabel { num_classes, .. }, Some(crate::tfds::tensor::Values::Int(v))) =
                (&leaf.node.kind, t.as_ref().map(|t| &t.values))
            {
                let outside = v
                    .iter()
                    .filter(|&&x| u64::try_from(x).map_or(true, |x| x >= *num_classes));
                out.unnamed[i] += outside.count() as u64;
            }
            tensors.push(t);
        }
        let counted = self.counter.as_ref().map(decoded).transpose()?.flatten();
        out.gathers.resize_with(self.plan.columns.len(), Gather::default);
        let episode = out.records;
        out.records += 1;
        let Some(_) = &self.plan.explode else {
            for (g, t) in out.gathers.iter_mut().zip(&tensors) {
                match t {
                    Some(t) => {
                        extend(&mut g.values, &t.values, 0, t.values.len());
                        g.shapes.push(Some(t.shape.clone()));
                    }
                    None => g.shapes.push(None),
                }
            }
            return Ok(());
        };
        // Steps: all of the Dataset's features agree on how many.
        let mut steps: Option<usize> = counted.map(|t| t.shape.first().copied().unwrap_or(0));
        for (c, t) in self.plan.columns.iter().zip(&tensors) {
            if let (true, Some(t)) = (c.per_step, t) {
                let n = t.shape.first().copied().unwrap_or(0);
                match steps {
                    Some(m) if m != n => bail!("{}: feature {} has {n} steps where another has {m}", at(), c.feature),
                    _ => steps = Some(n),
                }
            }
        }
        let steps = steps.unwrap_or(0);
        if steps == 0 {
            out.empty_episodes += 1;
        }
        for s in 0..steps {
            out.episode.push(episode);
            out.step.push(s as u64);
            for ((c, g), t) in self.plan.columns.iter().zip(out.gathers.iter_mut()).zip(&tensors) {
                match t {
                    None => g.shapes.push(None),
                    Some(t) if c.per_step => {
                        let inner: usize = t.shape.iter().skip(1).product();
                        extend(&mut g.values, &t.values, s * inner, inner);
                        g.shapes.push(Some(t.shape[1..].to_vec()));
                    }
                    Some(t) => {
                        extend(&mut g.values, &t.values, 0, t.values.len());
                        g.shapes.push(Some(t.shape.clone()));
                    }
                }
            }
        }
        Ok(())
    }
}

impl Work for TfdsWork<'_> {
    type Out = TfdsRows;

    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut TfdsRows) -> Result<()> {
        self.add(record, decoder, out)
    }

    /// A batch's rows are held decoded, then as arrays, until written:
    /// smaller batches than the default keep that within a few MB.
    fn window(&self) -> usize {
        crate::pipeline::batches::BATCH / 8
    }

    fn batch(&self, batch: &Batch<TfdsRows>, out: &mut TfdsRows) -> Result<()> {
        let result = crate::pipeline::batches::each_record(self, batch, out);
        // The rows before an error are kept, as the records before it.
        self.seal(out)?;
        result
    }

    fn huge(
        &self,
        record: &Record<'_>,
        emit: &mut dyn FnMut(TfdsRows) -> Result<(), crate::pipeline::Stopped>,
    ) -> Result<()> {
        let mut out = TfdsRows::default();
        crate::example::with_decoder(|d| self.record(d, record, &mut out))?;
        self.seal(&mut out)?;
        emit(out)?;
        Ok(())
    }
}

/// What a TFDS Parquet file received.
#[derive(Debug, Default)]
pub struct Written {
    /// Rows written.
    pub rows: u64,
    /// Records (episodes) read.
    pub records: u64,
    /// Episodes without a step (no rows; with `explode`).
    pub empty_episodes: u64,
    /// The features some records lack (TFDS writes every feature): each
    /// with how many records (their cells are null).
    pub missing: Vec<(String, u64)>,
    /// ClassLabel features with values that name no class: each with how
    /// many values (written as they are).
    pub unnamed: Vec<(String, u64)>,
}

/// Where a split's rows go, and how they are encoded.
pub struct Target<'a> {
    /// The set its files join (committed by the caller, with the other
    /// splits' files).
    pub set: &'a mut OutputSet,
    /// `-o`: the file, or the name of the files
    /// (`NAME-00000-of-0000N.parquet`, as plain to-parquet names them).
    pub output: &'a std::path::Path,
    /// `--shards`: N files balanced by rows.
    pub shards: Option<u32>,
    /// `--rows-per-file`: files of at most N rows.
    pub rows_per_file: Option<u64>,
    /// The column data's compression.
    pub compression: parquet::basic::Compression,
    /// A row group ends at this many bytes, encoded.
    pub row_group_size: u64,
}

/// Writes the records of `inputs` (read as `how` says) as the rows of
/// `plan` into `target`'s file, or files (the rows counted first, in a
/// pass of their own); they appear when the caller commits the set.
#[allow(clippy::too_many_arguments)]
pub fn write(
    inputs: &[crate::io::Input],
    how: &crate::pipeline::batches::Reading<'_>,
    workers: usize,
    plan: &TfdsPlan,
    tree: &FeatureTree,
    target: Target<'_>,
    progress: Progress<'_>,
) -> Result<Written> {
    use parquet::file::properties::WriterProperties;
    let total = match target.shards.is_some() || target.rows_per_file.is_some() {
        true => Some(count(inputs, how, workers, plan, tree, progress)?),
        false => None,
    };
    let split = cut(target.output, target.shards, target.rows_per_file, total)?;
    let props = WriterProperties::builder()
        .set_compression(target.compression)
        .set_max_row_group_row_count(Some(1 << 20))
        .set_max_row_group_bytes(Some(target.row_group_size.clamp(1, usize::MAX as u64) as usize))
        .set_created_by(format!("tfr {}", env!("CARGO_PKG_VERSION")))
        .set_key_value_metadata(Some(vec![parquet::file::metadata::KeyValue::new(
            "huggingface".to_string(),
            plan.hf_metadata(),
        )]))
        .build();
    let mut files = ParquetFiles::new(plan.schema(), props, split, target.set);
    // The first file is created now: an unwritable target fails before any work.
    files.open(0)?;
    let work = TfdsWork::new(plan, tree);
    let mut written = Written::default();
    let explode = plan.explode.is_some();
    let mut failed: Option<crate::Error> = None;
    let mut missing: Vec<u64> = Vec::new();
    let mut unnamed: Vec<u64> = Vec::new();
    let sink = |rows: &TfdsRows| -> std::io::Result<()> {
        written.empty_episodes += rows.empty_episodes;
        for (total, part) in [(&mut missing, &rows.missing), (&mut unnamed, &rows.unnamed)] {
            total.resize(part.len().max(total.len()), 0);
            for (m, n) in total.iter_mut().zip(part) {
                *m += n;
            }
        }
        for (batch, records) in rows.batches.iter().cloned() {
            let batch = match explode {
                // Episodes were counted within their batch: now over all.
                true => with_episode_offset(batch, written.records),
                false => Ok(batch),
            };
            let result = batch.and_then(|b| {
                written.rows += b.num_rows() as u64;
                files.write_batch(&b)
            });
            written.records += records;
            if let Err(e) = result {
                let line = format!("{e:#}");
                failed = Some(e);
                return Err(std::io::Error::other(line));
            }
        }
        Ok(())
    };
    let bar = progress(crate::io::input::total_size(inputs));
    let (_, result) = crate::pipeline::batches::run(inputs, how, workers, &work, sink, &*bar);
    drop(bar);
    if let Some(e) = failed {
        return Err(e);
    }
    result?;
    files.finish()?;
    let counted = |per: &[u64]| -> Vec<(String, u64)> {
        plan.columns
            .iter()
            .zip(per)
            .filter(|(_, &n)| n > 0)
            .map(|(c, &n)| (c.feature.clone(), n))
            .collect()
    };
    written.missing = counted(&missing);
    written.unnamed = counted(&unnamed);
    Ok(written)
}

/// The rows `plan` makes of the records of `inputs`: a pass that decodes
/// no column (with `explode`, one step feature, to count the steps).
fn count(
    inputs: &[crate::io::Input],
    how: &crate::pipeline::batches::Reading<'_>,
    workers: usize,
    plan: &TfdsPlan,
    tree: &FeatureTree,
    progress: Progress<'_>,
) -> Result<u64> {
    let counting = plan.counting();
    let work = TfdsWork::new(&counting, tree);
    let mut rows = 0u64;
    let sink = |out: &TfdsRows| -> std::io::Result<()> {
        rows += out.batches.iter().map(|(b, _)| b.num_rows() as u64).sum::<u64>();
        Ok(())
    };
    let bar = progress(crate::io::input::total_size(inputs));
    let (_, result) = crate::pipeline::batches::run(inputs, how, workers, &work, sink, &*bar);
    drop(bar);
    result?;
    Ok(rows)
}

/// `batch` with `offset` added to its `episode_index` column (the first).
fn with_episode_offset(batch: RecordBatch, offset: u64) -> Result<RecordBatch> {
    let mut columns = batch.columns().to_vec();
    let Some(episodes) = columns.first().and_then(|c| c.as_any().downcast_ref::<Int64Array>()) else {
        return Ok(batch);
    };
    let shifted: ArrayRef = Arc::new(Int64Array::from_iter_values(
        episodes.values().iter().map(|&e| e + offset as i64),
    ));
    columns[0] = shifted;
    Ok(RecordBatch::try_new(batch.schema(), columns)?)
}

//! Arrow rows → `tf.train.Example` / `SequenceExample` payloads (from-parquet,
//! from-arrow). [`Layout::new`] reads an Arrow schema once (which column
//! gives which feature, refusing types that have no feature kind);
//! [`Layout::encode`] turns a record batch's rows into framed records.
//!
//! The payloads are canonical, as TensorFlow and protobuf write them:
//! packed int64 and float lists, map entries key then value.

use super::{Section, Shape, Step, METADATA_KEY};
use crate::error::{err, Result};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Schema};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

mod media;
mod values;
use values::{kind_of, Feature, Leaf, Scratch};

/// The kind of Feature a column's values become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `int64_list`.
    Int64,
    /// `float_list`.
    Float,
    /// `bytes_list`.
    Bytes,
}

impl From<Kind> for crate::example::Kind {
    fn from(k: Kind) -> crate::example::Kind {
        match k {
            Kind::Int64 => crate::example::Kind::Int64,
            Kind::Float => crate::example::Kind::Float,
            Kind::Bytes => crate::example::Kind::Bytes,
        }
    }
}

/// One feature and where its values are.
#[derive(Clone, Debug)]
struct Source {
    /// The feature's name: the column's, `column/field` inside a struct.
    name: String,
    /// The column's index, then each struct field's index on the way.
    path: Vec<usize>,
    shape: Shape,
    section: Section,
    /// The kind of its values.
    kind: Kind,
    /// Integers written as floats (the feature is float in other inputs).
    as_float: bool,
    casts: Casts,
    /// A MAP column: a feature `NAME/KEY` per entry of a row.
    keyed: bool,
    /// A media struct's `bytes` field, filled from the file its `path`
    /// field (this index) names where null (`--read-paths`, this root).
    fill: Option<(usize, Arc<PathBuf>)>,
}

/// How values without one obvious feature value are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Casts {
    /// A decimal as its digits (bytes) rather than float32.
    pub decimal_text: bool,
    /// Nulls inside a list left out rather than refused.
    pub drop_list_nulls: bool,
}

/// Which feature each column of a schema gives.
#[derive(Clone, Debug)]
pub struct Layout {
    /// SequenceExamples (feature lists present), else Examples.
    pub sequence: bool,
    sources: Vec<Source>,
    /// One line per column converted with a loss or a change of unit
    /// (double narrowed, timestamps as integers), to warn about once.
    pub notes: Vec<String>,
    /// Struct columns of the shape of Hugging Face's `Image` and `Audio`
    /// features (`{bytes, path}`).
    media: Vec<Media>,
    /// Which of the selection's renames found their feature (by index).
    pub renamed: Vec<usize>,
    casts: Casts,
    /// `--read-paths`: media rows are filled, so none is path-only.
    fills: bool,
    /// The names of the features that are not a MAP's (a MAP entry may
    /// not give one of them).
    fixed_names: HashSet<String>,
}

/// A `{bytes: binary, path: string}` struct column (Hugging Face's `Image`
/// and `Audio` features): a row may hold only the path of a file on the
/// machine that wrote it, and then its record has no image.
#[derive(Clone, Debug)]
struct Media {
    /// The column's name.
    name: String,
    /// Where the struct is, then each field's index in it.
    path: Vec<usize>,
    bytes_field: usize,
    path_field: usize,
}

/// Which features of a schema's columns are written, and under which
/// names (`--features`/`--exclude`, `--rename OLD=NEW`).
#[derive(Clone, Copy, Default)]
pub struct Selection<'a> {
    /// Whether a feature (a column's name, `column/field` in a struct) is
    /// kept; `None`: every one.
    pub keep: Option<&'a (dyn Fn(&str) -> bool + Sync)>,
    /// Features renamed: (old name, new name).
    pub rename: &'a [(String, String)],
    /// `--decimal`, `--null-in-list`.
    pub casts: Casts,
    /// `--read-paths DIR` (canonical): a media struct's missing bytes read
    /// from the file its path names, under DIR.
    pub read_paths: Option<&'a std::path::Path>,
}

/// Of the rows of a batch, those with a media column's `path` but no
/// `bytes`: per media column, its name and the count.
pub type PathOnly = Vec<(String, u64)>;

impl Layout {
    /// Reads a schema: every column must map to features (an error names
    /// the first that does not). tfr's own metadata ([`METADATA_KEY`]),
    /// when present, says which `list<list<…>>` columns are feature lists
    /// and whether the records are SequenceExamples.
    pub fn new(schema: &Schema) -> Result<Layout, String> {
        Layout::selected(schema, &Selection::default())
    }

    /// [`Layout::new`] of the features `selection` keeps (a column it
    /// leaves out is not read, whatever its type), renamed as it says.
    pub fn selected(schema: &Schema, selection: &Selection<'_>) -> Result<Layout, String> {
        let meta = schema
            .metadata()
            .get(METADATA_KEY)
            .and_then(|m| serde_json::from_str::<serde_json::Value>(m).ok());
        let meta_sequence = meta.as_ref().and_then(|m| m.get("type")).and_then(|t| t.as_str()) == Some("sequence");
        // The `list<…>` columns tfr wrote from feature lists of one value
        // a step.
        let step_values: HashSet<String> = (meta.as_ref())
            .and_then(|m| m.get("columns"))
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
            .filter(|c| c.get("section").and_then(|v| v.as_str()) == Some("feature_lists"))
            .filter(|c| c.get("shape").and_then(|v| v.as_str()) == Some("step_values"))
            .filter_map(|c| c.get("name").and_then(|v| v.as_str()).map(str::to_string))
            .collect();
        let mut layout = Layout {
            sequence: meta_sequence,
            sources: Vec::new(),
            notes: Vec::new(),
            media: Vec::new(),
            renamed: Vec::new(),
            casts: selection.casts,
            fills: selection.read_paths.is_some(),
            fixed_names: HashSet::new(),
        };
        let keep = |name: &str| selection.keep.is_none_or(|keep| keep(name));
        for (i, field) in schema.fields().iter().enumerate() {
            layout.walk(field, vec![i], field.name().clone(), &keep)?;
            if step_values.contains(field.name()) {
                if let Some(s) = layout
                    .sources
                    .last_mut()
                    .filter(|s| s.path == [i] && s.shape == Shape::List)
                {
                    s.shape = Shape::Steps(Step::One);
                    s.section = Section::FeatureLists;
                }
            }
        }
        if let Some(root) = selection.read_paths {
            let root = Arc::new(root.to_path_buf());
            for m in &layout.media {
                let mut bytes = m.path.clone();
                bytes.push(m.bytes_field);
                if let Some(s) = layout.sources.iter_mut().find(|s| s.path == bytes) {
                    s.fill = Some((m.path_field, root.clone()));
                }
            }
        }
        for s in &mut layout.sources {
            if let Some(k) = selection.rename.iter().position(|(old, _)| *old == s.name) {
                s.name = selection.rename[k].1.clone();
                layout.renamed.push(k);
            }
        }
        if layout.sources.iter().any(|s| matches!(s.shape, Shape::Steps(_))) {
            layout.sequence = true;
        }
        layout.fixed_names = (layout.sources.iter())
            .filter(|s| !s.keyed && s.section == Section::Features)
            .map(|s| s.name.clone())
            .collect();
        let mut names = HashSet::new();
        for s in &layout.sources {
            if !names.insert((s.section == Section::FeatureLists, s.name.as_str())) {
                return Err(format!(
                    "two columns give the feature {}: a feature name is used once",
                    shown(&s.name)
                ));
            }
        }
        Ok(layout)
    }

    fn walk(
        &mut self,
        field: &Field,
        path: Vec<usize>,
        name: String,
        keep: &dyn Fn(&str) -> bool,
    ) -> Result<(), String> {
        let ty = field.data_type();
        let (shape, leaf) = match ty {
            DataType::Null => return Ok(()),
            DataType::Struct(fields) => {
                let find = |want: &str, ok: fn(&DataType) -> bool| {
                    fields.iter().position(|f| f.name() == want && ok(f.data_type()))
                };
                let binary =
                    |t: &DataType| matches!(t, DataType::Binary | DataType::LargeBinary | DataType::BinaryView);
                let text = |t: &DataType| matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
                let kept = keep(&format!("{name}/path"));
                if let (Some(bytes_field), Some(path_field), true) = (find("bytes", binary), find("path", text), kept) {
                    self.media.push(Media {
                        name: name.clone(),
                        path: path.clone(),
                        bytes_field,
                        path_field,
                    });
                }
                for (j, f) in fields.iter().enumerate() {
                    let mut sub = path.clone();
                    sub.push(j);
                    self.walk(f, sub, format!("{name}/{}", f.name()), keep)?;
                }
                return Ok(());
            }
            DataType::Map(entries, _) => match entries.data_type() {
                // One feature NAME/KEY per entry: its value.
                DataType::Struct(kv) if kv.len() == 2 && keep(&name) => {
                    let (key, value) = (kv[0].data_type(), kv[1].data_type());
                    let refuse = |why: &str| format!("column {}: {ty} {why}", shown(&name));
                    if !matches!(kind_of(key, self.casts), Some((Kind::Int64 | Kind::Bytes, _))) {
                        return Err(refuse("has keys that cannot name a feature: --exclude it"));
                    }
                    if list_item(value).is_some() || matches!(value, DataType::Struct(_) | DataType::Map(..)) {
                        return Err(refuse(
                            "has lists, structs or maps as values, which a feature per key does not hold: --exclude it",
                        ));
                    }
                    (Shape::One, value)
                }
                _ => return Ok(()),
            },
            _ => match list_item(ty) {
                Some(item) => match list_item(item.data_type()) {
                    Some(inner) => (Shape::Steps(Step::List), inner.data_type()),
                    None => (Shape::List, item.data_type()),
                },
                None => (Shape::One, ty),
            },
        };
        if !keep(&name) {
            return Ok(());
        }
        let refuse = |why: &str| format!("column {}: {} {why}", shown(&name), describe(ty));
        let kind = match kind_of(leaf, self.casts) {
            Some((kind, note)) => {
                if let Some(note) = note {
                    self.notes.push(format!("column {}: {note}", shown(&name)));
                }
                kind
            }
            None if matches!(leaf, DataType::Struct(_)) => {
                return Err(refuse("is a list of structs, which no Feature holds (a struct column gives one feature per field; a list of them does not)"))
            }
            None => {
                return Err(refuse(
                    "has no TFRecord feature kind (int64, float or bytes): --exclude it to convert the other columns",
                ))
            }
        };
        let section = match shape {
            Shape::Steps(_) => Section::FeatureLists,
            _ => Section::Features,
        };
        self.sources.push(Source {
            name,
            path,
            shape,
            section,
            kind,
            as_float: false,
            casts: self.casts,
            keyed: matches!(ty, DataType::Map(..)),
            fill: None,
        });
        Ok(())
    }

    /// The rows of `batch` whose media column holds a path but no bytes
    /// (a record with the file's name and no image), per media column
    /// that has any.
    pub fn path_only(&self, batch: &RecordBatch) -> PathOnly {
        let mut found = Vec::new();
        if self.fills {
            return found;
        }
        for m in &self.media {
            let mut array: &ArrayRef = batch.column(m.path[0]);
            let mut present = array.logical_nulls();
            for &j in &m.path[1..] {
                array = array.as_struct().column(j);
                present = NullBuffer::union(present.as_ref(), array.logical_nulls().as_ref());
            }
            let fields = array.as_struct();
            let (bytes, path) = (fields.column(m.bytes_field), fields.column(m.path_field));
            let (bytes_nulls, path_nulls) = (bytes.logical_nulls(), path.logical_nulls());
            let valid = |n: &Option<NullBuffer>, i: usize| n.as_ref().is_none_or(|n| n.is_valid(i));
            let n = (0..batch.num_rows())
                .filter(|&i| valid(&present, i) && valid(&path_nulls, i) && !valid(&bytes_nulls, i))
                .count() as u64;
            if n > 0 {
                found.push((m.name.clone(), n));
            }
        }
        found
    }

    /// Whether rows get files' bytes (`--read-paths` with a media column).
    pub fn reads_files(&self) -> bool {
        self.sources.iter().any(|s| s.fill.is_some())
    }

    /// Each feature's section, name and kind as written.
    pub fn kinds(&self) -> impl Iterator<Item = (Section, &str, Kind)> {
        self.sources.iter().map(|s| {
            let kind = if s.as_float { Kind::Float } else { s.kind };
            (s.section, s.name.as_str(), kind)
        })
    }

    /// Writes the int64 feature `name` of `section` as float (its values
    /// converted to float32, as TensorFlow would read them); whether there
    /// is one.
    pub fn write_as_float(&mut self, section: Section, name: &str) -> bool {
        let found = self
            .sources
            .iter_mut()
            .find(|s| s.section == section && s.name == name && s.kind == Kind::Int64);
        found.map(|s| s.as_float = true).is_some()
    }

    /// The rows of `batch` as framed records appended to `out`; `first_row`
    /// is the number of the batch's first row in its file (for errors).
    pub fn encode(&self, batch: &RecordBatch, first_row: u64, out: &mut Vec<u8>) -> Result<()> {
        let bound = self
            .sources
            .iter()
            .map(|s| Bound::new(batch, s))
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| err!(e))?;
        let mut scratch = Scratch::default();
        for row in 0..batch.num_rows() {
            let at = |e: String| err!("row {}: {e}", first_row + row as u64);
            crate::record::append_framed(out, |o| self.row(&bound, row, o, &mut scratch)).map_err(at)?;
        }
        Ok(())
    }

    /// One row's payload.
    fn row<'a>(&self, bound: &[Bound<'a>], row: usize, out: &mut Vec<u8>, s: &mut Scratch<'a>) -> Result<(), String> {
        s.context.clear();
        s.lists.clear();
        for (source, b) in self.sources.iter().zip(bound) {
            if !b.present(row) {
                continue;
            }
            match &b.values {
                Values::Filled(bytes, path, root) => {
                    let null = |l: &Leaf<'_>| l.nulls.as_ref().is_some_and(|n| n.is_null(row));
                    s.feature.clear();
                    if !null(bytes) {
                        bytes.one(row, &mut s.feature).map_err(|e| in_column(&source.name, e))?;
                    } else if !null(path) {
                        let mut named = Feature::default();
                        path.one(row, &mut named).map_err(|e| in_column(&source.name, e))?;
                        let data = media::read_under(root, &named.bytes[0]).map_err(|e| in_column(&source.name, e))?;
                        s.feature.kind = Some(Kind::Bytes);
                        s.feature.bytes.push(std::borrow::Cow::Owned(data));
                    } else {
                        continue;
                    }
                    put_entry(&mut s.context, &source.name, &s.feature, &mut s.packed);
                }
                Values::Keyed(map, key, get) => {
                    let (a, z) = map.range(row);
                    let mut names: Vec<String> = Vec::with_capacity(z - a);
                    for e in a..z {
                        if get.nulls.as_ref().is_some_and(|n| n.is_null(e)) {
                            continue;
                        }
                        let name = format!("{}/{}", source.name, key(e).map_err(|e| in_column(&source.name, e))?);
                        if names.contains(&name) {
                            return Err(in_column(
                                &source.name,
                                format!("the key of {} twice in one map", shown(&name)),
                            ));
                        }
                        if self.fixed_names.contains(&name) {
                            return Err(in_column(
                                &source.name,
                                format!("an entry gives the feature {}, which a column gives too", shown(&name)),
                            ));
                        }
                        s.feature.clear();
                        get.one(e, &mut s.feature).map_err(|e| in_column(&source.name, e))?;
                        put_entry(&mut s.context, &name, &s.feature, &mut s.packed);
                        names.push(name);
                    }
                }
                Values::One(get) => {
                    s.feature.clear();
                    get.one(row, &mut s.feature).map_err(|e| in_column(&source.name, e))?;
                    put_entry(&mut s.context, &source.name, &s.feature, &mut s.packed);
                }
                Values::List(list, get) => {
                    s.feature.clear();
                    let (a, z) = list.range(row);
                    get.many(a, z, &mut s.feature).map_err(|e| in_column(&source.name, e))?;
                    put_entry(&mut s.context, &source.name, &s.feature, &mut s.packed);
                }
                Values::Steps(outer, inner, get) => {
                    s.steps.clear();
                    let (a, z) = outer.range(row);
                    for step in a..z {
                        // Without inner lists, each value is a step.
                        let null = match inner {
                            Some(inner) => inner.is_null(step),
                            None => get.nulls.as_ref().is_some_and(|n| n.is_null(step)),
                        };
                        if null {
                            return Err(in_column(&source.name, "a null step inside a list".into()));
                        }
                        s.feature.clear();
                        let (b, y) = inner.as_ref().map_or((step, step + 1), |inner| inner.range(step));
                        get.many(b, y, &mut s.feature).map_err(|e| in_column(&source.name, e))?;
                        let len = feature_len(&s.feature, &mut s.packed);
                        out_tag_len(&mut s.steps, 0x0a, len);
                        put_feature(&mut s.steps, &s.feature, &s.packed);
                    }
                    // FeatureLists entry: key, then the FeatureList.
                    let entry = field_len(source.name.len()) + field_len(s.steps.len());
                    out_tag_len(&mut s.lists, 0x0a, entry);
                    out_tag_len(&mut s.lists, 0x0a, source.name.len());
                    s.lists.extend_from_slice(source.name.as_bytes());
                    out_tag_len(&mut s.lists, 0x12, s.steps.len());
                    s.lists.extend_from_slice(&s.steps);
                }
            }
        }
        if self.sequence {
            if !s.context.is_empty() {
                out_tag_len(out, 0x0a, s.context.len());
                out.extend_from_slice(&s.context);
            }
            if !s.lists.is_empty() {
                out_tag_len(out, 0x12, s.lists.len());
                out.extend_from_slice(&s.lists);
            }
        } else {
            out_tag_len(out, 0x0a, s.context.len());
            out.extend_from_slice(&s.context);
        }
        Ok(())
    }
}

fn in_column(name: &str, e: String) -> String {
    format!("column {}: {e}", shown(name))
}

fn shown(name: &str) -> String {
    crate::io::input::escape_name(name.as_bytes())
}

/// How a type is named in messages (Arrow's names).
fn describe(ty: &DataType) -> String {
    format!("{ty}")
}

/// The item field of a list type.
fn list_item(ty: &DataType) -> Option<&Field> {
    match ty {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => Some(f),
        _ => None,
    }
}

/// A MAP column's arrays: `None` when it is not one (its type changed).
fn keyed<'a>(a: &'a dyn Array, s: &Source) -> Option<Result<Values<'a>, String>> {
    let DataType::Map(..) = a.data_type() else {
        return None;
    };
    let m = a.as_map();
    let o = m.value_offsets();
    let entries = List {
        range: Box::new(move |i| (o[i] as usize, o[i + 1] as usize)),
        nulls: a.logical_nulls(),
        child: m.entries().column(0),
    };
    let key: Box<dyn Fn(usize) -> Result<String, String>> = match values::getter(m.keys().as_ref(), s.casts) {
        Ok(values::Getter::Int(g)) => Box::new(move |i| g(i).map(|v| v.to_string())),
        Ok(values::Getter::Bytes(g)) => Box::new(move |i| Ok(String::from_utf8_lossy(g(i)).into_owned())),
        Ok(values::Getter::Text(g)) => Box::new(move |i| Ok(String::from_utf8_lossy(&g(i)).into_owned())),
        Ok(values::Getter::Float(_)) => return Some(Err(in_column(&s.name, "float keys name no feature".into()))),
        Err(e) => return Some(Err(e)),
    };
    Some(Leaf::new(m.values().as_ref(), s.as_float, s.casts).map(|leaf| Values::Keyed(entries, key, leaf)))
}

/// The ranges of a list array's rows in its child array.
struct List<'a> {
    range: Box<dyn Fn(usize) -> (usize, usize) + 'a>,
    nulls: Option<NullBuffer>,
    child: &'a ArrayRef,
}

impl<'a> List<'a> {
    fn new(a: &'a dyn Array) -> Option<List<'a>> {
        let nulls = a.logical_nulls();
        Some(match a.data_type() {
            DataType::List(_) => {
                let l = a.as_list::<i32>();
                let o = l.value_offsets();
                List {
                    range: Box::new(move |i| (o[i] as usize, o[i + 1] as usize)),
                    nulls,
                    child: l.values(),
                }
            }
            DataType::LargeList(_) => {
                let l = a.as_list::<i64>();
                let o = l.value_offsets();
                List {
                    range: Box::new(move |i| (o[i] as usize, o[i + 1] as usize)),
                    nulls,
                    child: l.values(),
                }
            }
            DataType::FixedSizeList(_, n) => {
                let l = a.as_fixed_size_list();
                let n = *n as usize;
                List {
                    range: Box::new(move |i| (i * n, (i + 1) * n)),
                    nulls,
                    child: l.values(),
                }
            }
            _ => return None,
        })
    }

    fn range(&self, i: usize) -> (usize, usize) {
        (self.range)(i)
    }

    fn is_null(&self, i: usize) -> bool {
        self.nulls.as_ref().is_some_and(|n| n.is_null(i))
    }
}

enum Values<'a> {
    One(Leaf<'a>),
    /// A MAP column: each row's entries, the key of an entry (as text) and
    /// the values.
    Keyed(List<'a>, Box<dyn Fn(usize) -> Result<String, String> + 'a>, Leaf<'a>),
    /// A media struct's bytes, else the file its path names: the bytes,
    /// the path, the root.
    Filled(Leaf<'a>, Leaf<'a>, &'a std::path::Path),
    List(List<'a>, Leaf<'a>),
    /// A feature list: its steps, each step's values (`None`: one value a
    /// step, the steps' own), the values.
    Steps(List<'a>, Option<List<'a>>, Leaf<'a>),
}

/// A source's arrays in one record batch.
struct Bound<'a> {
    /// Null where the feature is absent (a null column, struct or list).
    absent: Option<NullBuffer>,
    values: Values<'a>,
}

impl<'a> Bound<'a> {
    fn new(batch: &'a RecordBatch, s: &'a Source) -> Result<Bound<'a>, String> {
        if let Some((path_field, root)) = &s.fill {
            return Bound::filled(batch, s, *path_field, root);
        }
        let mut array: &'a ArrayRef = batch.column(s.path[0]);
        let mut absent = array.logical_nulls();
        for &j in &s.path[1..] {
            array = array.as_struct().column(j);
            absent = NullBuffer::union(absent.as_ref(), array.logical_nulls().as_ref());
        }
        let bad = || in_column(&s.name, "its type differs from the first batch's".into());
        let values = match s.shape {
            Shape::One if s.keyed => keyed(array.as_ref(), s).ok_or_else(bad)??,
            Shape::One => Values::One(Leaf::new(array.as_ref(), s.as_float, s.casts)?),
            Shape::List | Shape::Fixed(_) => {
                let list = List::new(array.as_ref()).ok_or_else(bad)?;
                let leaf = Leaf::new(list.child.as_ref(), s.as_float, s.casts)?;
                Values::List(list, leaf)
            }
            Shape::Steps(Step::One) => {
                let outer = List::new(array.as_ref()).ok_or_else(bad)?;
                let leaf = Leaf::new(outer.child.as_ref(), s.as_float, s.casts)?;
                Values::Steps(outer, None, leaf)
            }
            Shape::Steps(_) => {
                let outer = List::new(array.as_ref()).ok_or_else(bad)?;
                let inner = List::new(outer.child.as_ref()).ok_or_else(bad)?;
                let leaf = Leaf::new(inner.child.as_ref(), s.as_float, s.casts)?;
                Values::Steps(outer, Some(inner), leaf)
            }
        };
        Ok(Bound { absent, values })
    }

    /// A media struct's bytes field with `--read-paths`: absent only
    /// where the struct is; the path field read where the bytes are null.
    fn filled(
        batch: &'a RecordBatch,
        s: &Source,
        path_field: usize,
        root: &'a std::path::Path,
    ) -> Result<Bound<'a>, String> {
        let (last, up) = s.path.split_last().expect("a struct field's path");
        let mut array: &'a ArrayRef = batch.column(up[0]);
        let mut absent = array.logical_nulls();
        for &j in &up[1..] {
            array = array.as_struct().column(j);
            absent = NullBuffer::union(absent.as_ref(), array.logical_nulls().as_ref());
        }
        let fields = array.as_struct();
        let bytes = Leaf::new(fields.column(*last).as_ref(), false, s.casts)?;
        let path = Leaf::new(fields.column(path_field).as_ref(), false, s.casts)?;
        Ok(Bound {
            absent,
            values: Values::Filled(bytes, path, root),
        })
    }

    fn present(&self, row: usize) -> bool {
        self.absent.as_ref().is_none_or(|n| n.is_valid(row))
    }
}

// ---------------------------------------------------------------------------
// Wire format
// ---------------------------------------------------------------------------

// The writers are `example::wire`'s.
use crate::example::wire::{field_len, put_tag_len as out_tag_len, put_varint};

/// The size of a Feature message holding `f`; packed int64s are written
/// to `packed` on the way.
fn feature_len(f: &Feature<'_>, packed: &mut Vec<u8>) -> usize {
    let list = match f.kind {
        Some(Kind::Int64) => {
            packed.clear();
            for &v in &f.ints {
                put_varint(packed, v as u64);
            }
            if packed.is_empty() {
                0
            } else {
                field_len(packed.len())
            }
        }
        Some(Kind::Float) if f.floats.is_empty() => 0,
        Some(Kind::Float) => field_len(4 * f.floats.len()),
        Some(Kind::Bytes) => f.bytes.iter().map(|b| field_len(b.len())).sum(),
        None => return 0,
    };
    field_len(list)
}

/// A Feature message's bytes (after [`feature_len`] filled `packed`).
fn put_feature(out: &mut Vec<u8>, f: &Feature<'_>, packed: &[u8]) {
    match f.kind {
        Some(Kind::Int64) => {
            let list = if packed.is_empty() { 0 } else { field_len(packed.len()) };
            out_tag_len(out, 0x1a, list);
            if !packed.is_empty() {
                out_tag_len(out, 0x0a, packed.len());
                out.extend_from_slice(packed);
            }
        }
        Some(Kind::Float) => {
            let n = 4 * f.floats.len();
            let list = if n == 0 { 0 } else { field_len(n) };
            out_tag_len(out, 0x12, list);
            if n > 0 {
                out_tag_len(out, 0x0a, n);
                for v in &f.floats {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        Some(Kind::Bytes) => {
            let list = f.bytes.iter().map(|b| field_len(b.len())).sum();
            out_tag_len(out, 0x0a, list);
            for b in &f.bytes {
                out_tag_len(out, 0x0a, b.len());
                out.extend_from_slice(b);
            }
        }
        None => {}
    }
}

/// A `Features.feature` map entry (tag, length, key, Feature).
fn put_entry(out: &mut Vec<u8>, name: &str, f: &Feature<'_>, packed: &mut Vec<u8>) {
    let feature = feature_len(f, packed);
    out_tag_len(out, 0x0a, field_len(name.len()) + field_len(feature));
    out_tag_len(out, 0x0a, name.len());
    out.extend_from_slice(name.as_bytes());
    out_tag_len(out, 0x12, feature);
    put_feature(out, f, packed);
}

/// The notes of several layouts, each line once.
pub fn notes_once(seen: &mut HashMap<String, ()>, layout: &Layout) -> Vec<String> {
    layout
        .notes
        .iter()
        .filter(|n| seen.insert((*n).clone(), ()).is_none())
        .cloned()
        .collect()
}

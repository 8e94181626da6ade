//! TensorBoard's scalars out of event files (`tfr scalars`): every scalar
//! of every run, as TensorBoard's event accumulator keeps them (and
//! `tbparse` reads them):
//! - a value is a v1 `simple_value` (any plugin), or a 0-d numeric tensor
//!   of the `scalars` plugin (v2 `tf.summary.scalar`; the plugin named on
//!   that tag's first value in the file is enough), widened to a double;
//! - a file's rows are purged as the accumulator purges them: in a file
//!   whose `file_version` is `brain.Event:2` or later, a `SessionLog`
//!   START at step S drops that file's earlier rows with step >= S; in an
//!   older file, an event with a summary whose step goes back below the
//!   most recent one drops the earlier rows of its tags with step >= it;
//! - a damaged or truncated file gives its intact events before the damage
//!   (TensorBoard stops there too), and the damage is reported;
//! - rows are sorted by run, tag and step; rows equal in all three keep
//!   file order (files by name, events in order).
//!
//! The events are read straight from the wire (field numbers of
//! tensorflow/core/util/event.proto and framework/summary.proto), not
//! through the dynamic message decoder: 1M events take well under a
//! second.

use crate::example::wire::{Reader, Value as Wire};
use crate::io::Input;
use crate::record::OpenOptions;
use std::collections::HashMap;

/// The scalars of one event file, and where it is damaged, if it is.
#[derive(Debug, Default)]
pub struct FileScalars {
    /// The tags, in the order first seen.
    pub tags: Vec<String>,
    /// Each tag's simple_value points in file order, purged (by tag index).
    pub series: Vec<Vec<Point>>,
    /// Each tag's 0-d tensor points in file order, purged: scalars when
    /// their tag's values name the scalars plugin, here or in another file
    /// of the run.
    pub tensors: Vec<Vec<Point>>,
    /// Whether a value of the tag names the scalars plugin.
    pub scalar_plugin: Vec<bool>,
    /// The damage that ended the file early (its intact events are in
    /// `series`).
    pub damage: Option<String>,
    /// Purges done (TensorBoard warns of each).
    pub purges: u64,
}

/// One event's parts that scalars need.
#[derive(Default)]
struct Event<'a> {
    wall_time: f64,
    step: i64,
    file_version: Option<&'a [u8]>,
    session_start: bool,
    has_summary: bool,
    /// Each summary value: tag, its plugin name (if metadata names one),
    /// its simple_value, and its tensor's bytes.
    values: Vec<SummaryValue<'a>>,
}

#[derive(Default)]
struct SummaryValue<'a> {
    tag: &'a [u8],
    plugin: Option<&'a [u8]>,
    simple: Option<f32>,
    tensor: Option<&'a [u8]>,
}

fn event(payload: &[u8]) -> Result<Event<'_>, crate::example::DecodeError> {
    let mut ev = Event::default();
    let mut r = Reader::new(payload);
    while let Some(f) = r.field()? {
        match (f.number, f.value) {
            (1, Wire::Fixed64(v)) => ev.wall_time = f64::from_bits(v),
            (2, Wire::Varint(v)) => ev.step = v as i64,
            (3, Wire::Len(s)) => ev.file_version = Some(s.bytes()),
            (5, Wire::Len(s)) => {
                ev.has_summary = true;
                summary(s, &mut ev.values)?;
            }
            (7, Wire::Len(s)) => {
                let mut log = s.nested()?;
                let mut status = 0;
                while let Some(g) = log.field()? {
                    if let (1, Wire::Varint(v)) = (g.number, g.value) {
                        status = v;
                    }
                }
                ev.session_start = status == 1;
            }
            _ => {}
        }
    }
    Ok(ev)
}

/// The values of a Summary (field 1, repeated Summary.Value).
fn summary<'a>(s: Reader<'a>, out: &mut Vec<SummaryValue<'a>>) -> Result<(), crate::example::DecodeError> {
    let mut r = s.nested()?;
    while let Some(f) = r.field()? {
        let (1, Wire::Len(v)) = (f.number, f.value) else {
            continue;
        };
        let mut value = SummaryValue::default();
        let mut vr = v.nested()?;
        while let Some(g) = vr.field()? {
            match (g.number, g.value) {
                (1, Wire::Len(t)) => value.tag = t.bytes(),
                (2, Wire::Fixed32(x)) => value.simple = Some(f32::from_bits(x)),
                (8, Wire::Len(t)) => value.tensor = Some(t.bytes()),
                (9, Wire::Len(m)) => value.plugin = plugin_name(m)?,
                _ => {}
            }
        }
        out.push(value);
    }
    Ok(())
}

/// SummaryMetadata.plugin_data.plugin_name.
fn plugin_name(m: Reader<'_>) -> Result<Option<&[u8]>, crate::example::DecodeError> {
    let mut r = m.nested()?;
    let mut name = None;
    while let Some(f) = r.field()? {
        if let (1, Wire::Len(pd)) = (f.number, f.value) {
            let mut p = pd.nested()?;
            while let Some(g) = p.field()? {
                if let (1, Wire::Len(n)) = (g.number, g.value) {
                    name = Some(n.bytes());
                }
            }
        }
    }
    Ok(name)
}

/// TensorBoard's `_ParseFileVersion`: the number after the last `:`
/// (`brain.Event:2`), -1 when it is not one.
fn file_version(v: &[u8]) -> f64 {
    let text = String::from_utf8_lossy(v);
    let last = text.rsplit(':').next().unwrap_or("");
    last.trim().parse::<f64>().unwrap_or(-1.0)
}

/// Reads the scalars of one event file, as run `run`.
pub fn read_file(input: &Input, open: &OpenOptions) -> crate::Result<FileScalars> {
    let mut reader = open.open(input)?;
    let name = input.display();
    let mut out = FileScalars::default();
    // Each tag's index, and whether its plugin is `scalars`.
    let mut tags: HashMap<Vec<u8>, (u32, bool)> = HashMap::new();
    let mut version: Option<f64> = None;
    let mut most_recent: i64 = -1;
    loop {
        let rec = match reader.next_record() {
            Ok(Some(rec)) => rec,
            Ok(None) => break,
            Err(e) => {
                out.damage = Some(format!("{:#}", crate::record::read_error(input, e)));
                break;
            }
        };
        let ev = match event(rec.data) {
            Ok(ev) => ev,
            Err(e) => {
                out.damage = Some(format!(
                    "{name}: record {} at byte {}: not a tf.Event: {e}",
                    rec.index, rec.offset
                ));
                break;
            }
        };
        if let Some(v) = ev.file_version {
            version = Some(file_version(v));
        }
        // The accumulator's purge of orphaned data, before the event's own.
        match version {
            Some(v) if v != 0.0 && v >= 2.0 => {
                if ev.session_start {
                    purge(&mut out, ev.step, None);
                }
            }
            _ if ev.step < most_recent && ev.has_summary => {
                let purged: Vec<&[u8]> = ev.values.iter().map(|v| v.tag).collect();
                purge(&mut out, ev.step, Some((&purged, &tags)));
            }
            _ => most_recent = ev.step,
        }
        for v in &ev.values {
            if !tags.contains_key(v.tag) {
                tags.insert(v.tag.to_vec(), (out.tags.len() as u32, false));
                out.tags.push(String::from_utf8_lossy(v.tag).into_owned());
                out.series.push(Vec::new());
                out.tensors.push(Vec::new());
                out.scalar_plugin.push(false);
            }
            let Some(entry) = tags.get_mut(v.tag) else { continue };
            let i = entry.0 as usize;
            out.scalar_plugin[i] |= v.plugin == Some(b"scalars".as_slice());
            let point = |value| Point {
                step: ev.step,
                wall_time: ev.wall_time,
                value,
            };
            match (v.simple, v.tensor) {
                (Some(x), _) => out.series[i].push(point(f64::from(x))),
                (None, Some(t)) => {
                    if let Some(x) = crate::tfds::tensorproto::parse_scalar(t) {
                        out.tensors[i].push(point(x));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// The tags an out-of-order event names, and every tag's index.
type TagFilter<'t> = (&'t [&'t [u8]], &'t HashMap<Vec<u8>, (u32, bool)>);

/// Drops rows with step >= `step` (of the given tags only, when given).
fn purge(out: &mut FileScalars, step: i64, tags: Option<TagFilter<'_>>) {
    let ids: Vec<usize> = match tags {
        None => (0..out.series.len()).collect(),
        Some((names, known)) => names
            .iter()
            .filter_map(|n| known.get(*n).map(|e| e.0 as usize))
            .collect(),
    };
    let mut dropped = false;
    for i in ids {
        for points in [&mut out.series[i], &mut out.tensors[i]] {
            let before = points.len();
            points.retain(|p| p.step < step);
            dropped |= points.len() != before;
        }
    }
    if dropped {
        out.purges += 1;
    }
}

/// Whether a file name is read as an event file, as tbparse and
/// TensorBoard take them: its name holds `tfevents` and does not end
/// `.profile-empty`.
pub fn is_event_name(name: &str) -> bool {
    name.contains("tfevents") && !name.ends_with(".profile-empty")
}

/// One point of a series: step, wall time, value (24 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The step.
    pub step: i64,
    /// The wall time.
    pub wall_time: f64,
    /// The value.
    pub value: f64,
}

/// Every scalar of the files added, as one series of points per run and
/// tag (24 bytes a point; each series grown exactly as files add to it).
#[derive(Debug, Default)]
pub struct Table {
    /// Runs by index.
    pub runs: Vec<String>,
    /// Tags by index.
    pub tags: Vec<String>,
    /// The series by (run, tag) index.
    series: HashMap<(u32, u32), Vec<Point>>,
    /// 0-d tensor points by (run, tag), scalars if the run's values of the
    /// tag name the scalars plugin (`scalar_tags`).
    tensors: HashMap<(u32, u32), Vec<Point>>,
    scalar_tags: std::collections::HashSet<(u32, u32)>,
    run_ids: HashMap<String, u32>,
    tag_ids: HashMap<String, u32>,
    /// Points in all.
    pub len: usize,
}

impl Table {
    /// Adds a file's rows as run `run`, those whose tag `keep` takes (in
    /// file order, after the rows of earlier files).
    pub fn add(&mut self, run: &str, file: FileScalars, keep: impl Fn(&str) -> bool) {
        let run_id = intern(&mut self.runs, &mut self.run_ids, run);
        let FileScalars {
            tags,
            series,
            tensors,
            scalar_plugin,
            ..
        } = file;
        for (((tag, points), tensor_points), plugin) in tags.iter().zip(series).zip(tensors).zip(scalar_plugin) {
            if !keep(tag) {
                continue;
            }
            let id = intern(&mut self.tags, &mut self.tag_ids, tag);
            // (tensor points counted too: the count while reading; sorted()
            // settles it)
            self.len += points.len() + tensor_points.len();
            if plugin {
                self.scalar_tags.insert((run_id, id));
            }
            append(self.series.entry((run_id, id)).or_default(), points);
            append(self.tensors.entry((run_id, id)).or_default(), tensor_points);
        }
    }

    /// The series in TensorBoard's order: by run, then tag (as strings, by
    /// code point), each by step, points of one step in the order added
    /// (simple values before tensors).
    pub fn sorted(&mut self) -> Vec<(&str, &str, &[Point])> {
        for (key, points) in std::mem::take(&mut self.tensors) {
            if self.scalar_tags.contains(&key) {
                append(self.series.entry(key).or_default(), points);
            }
        }
        self.series.retain(|_, points| !points.is_empty());
        self.len = self.series.values().map(Vec::len).sum();
        for points in self.series.values_mut() {
            points.sort_by_key(|p| p.step);
        }
        let mut keys: Vec<(u32, u32)> = self.series.keys().copied().collect();
        keys.sort_by(|a, b| {
            (self.runs[a.0 as usize].as_bytes(), self.tags[a.1 as usize].as_bytes())
                .cmp(&(self.runs[b.0 as usize].as_bytes(), self.tags[b.1 as usize].as_bytes()))
        });
        keys.into_iter()
            .filter_map(|k| {
                let points = self.series.get(&k)?;
                Some((
                    self.runs[k.0 as usize].as_str(),
                    self.tags[k.1 as usize].as_str(),
                    points.as_slice(),
                ))
            })
            .collect()
    }
}

/// Appends `points` to `series` (moved when the series is empty).
fn append(series: &mut Vec<Point>, points: Vec<Point>) {
    match series.is_empty() {
        true => *series = points,
        false => {
            series.reserve_exact(points.len());
            series.extend(points);
        }
    }
}

fn intern(names: &mut Vec<String>, ids: &mut HashMap<String, u32>, name: &str) -> u32 {
    if let Some(&id) = ids.get(name) {
        return id;
    }
    let id = names.len() as u32;
    names.push(name.to_string());
    ids.insert(name.to_string(), id);
    id
}

/// Event files with their runs.
pub type EventFiles = Vec<(Input, String)>;

/// The event files of a log directory with their runs, as TensorBoard
/// names them: every file below it whose name holds `tfevents` (hidden
/// ones too), its run the path of its directory relative to the log
/// directory (`""` for a file directly in it, and for a log directory that
/// is itself a file); sorted by run, then name. A URL prefix is listed
/// (`gs://bucket/logs/`, every object below it). A directory reached a
/// second time through symbolic links is skipped; the second list says
/// where.
pub fn event_files(logdir: &std::ffi::OsStr) -> crate::Result<(EventFiles, Vec<String>)> {
    let bytes = logdir.as_encoded_bytes();
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    if crate::io::remote::parse(bytes).is_some() {
        let url = logdir
            .to_str()
            .ok_or_else(|| crate::Error::msg("a URL that is not UTF-8"))?;
        let prefix = if url.ends_with('/') {
            url.to_string()
        } else {
            format!("{url}/")
        };
        let glob = std::ffi::OsString::from(format!("{prefix}**"));
        for input in crate::io::input::expand(&[glob])? {
            let Input::Url(u) = &input else { continue };
            let rel = u.strip_prefix(&prefix).unwrap_or(u);
            let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
            if is_event_name(name) {
                found.push((dir.to_string(), name.to_string(), input.clone()));
            }
        }
    } else {
        let root = std::path::Path::new(logdir);
        let meta = std::fs::metadata(root)
            .map_err(|e| crate::Error::msg(format!("{}: {e}", crate::io::input::show_path(root))))?;
        if meta.is_file() {
            return Ok((vec![(Input::Path(root.to_path_buf()), String::new())], skipped));
        }
        let mut walk = Walk {
            seen: std::collections::HashSet::new(),
            found: &mut found,
            skipped: &mut skipped,
        };
        walk.dir(root, "", 0)?;
    }
    found.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()).then_with(|| a.1.cmp(&b.1)));
    Ok((found.into_iter().map(|(run, _, input)| (input, run)).collect(), skipped))
}

/// Directories below a log directory are followed at most this deep.
const MAX_DEPTH: usize = 64;

/// A walk of a local log directory.
struct Walk<'a> {
    /// Directories entered (by their canonical path).
    seen: std::collections::HashSet<std::path::PathBuf>,
    /// (run, file name, input).
    found: &'a mut Vec<(String, String, Input)>,
    /// Directories not entered again, as found.
    skipped: &'a mut Vec<String>,
}

impl Walk<'_> {
    fn dir(&mut self, dir: &std::path::Path, run: &str, depth: usize) -> crate::Result<()> {
        let shown = crate::io::input::show_path(dir);
        let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !self.seen.insert(canonical) || depth > MAX_DEPTH {
            self.skipped.push(shown);
            return Ok(());
        }
        let entries = std::fs::read_dir(dir)
            .map_err(|e| crate::Error::msg(format!("{shown}: cannot list the directory: {e}")))?;
        for entry in entries {
            let entry = entry.map_err(|e| crate::Error::msg(format!("{shown}: cannot list the directory: {e}")))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            // Symbolic links are followed (to a file or a directory), as
            // TensorBoard follows them; a directory already entered is not
            // entered again (a link back up would loop).
            let Ok(meta) = std::fs::metadata(&path) else { continue };
            if meta.is_dir() {
                let sub = if run.is_empty() {
                    name.clone()
                } else {
                    format!("{run}/{name}")
                };
                self.dir(&path, &sub, depth + 1)?;
            } else if meta.is_file() && is_event_name(&name) {
                self.found.push((run.to_string(), name, Input::Path(path)));
            }
        }
        Ok(())
    }
}

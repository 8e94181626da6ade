//! Each value of one bytes feature to a file of its own (`tfr extract`:
//! images out of a dataset, an image folder per class).
//!
//! Workers decode the records and copy out the feature's values and the
//! template's fields ([`Pick`]); one thread, in record order, names each
//! file from the template ([`Template`]), checks that the name stays in
//! the output directory (no absolute path, no `..`, no symbolic link on
//! the way or at the end, no FIFO or device at the end, not written
//! twice in the run) and writes it
//! through an [`AtomicOutput`] (a temporary file renamed into place, or
//! an upload completed only when whole).

use crate::error::{bail, Context, Result};
use crate::example::filter::features_or_context;
use crate::example::json::render::first_value_text;
use crate::example::{Decoder, FeatureView, Kind};
use crate::io::input::show_path;
use crate::io::made_dirs::MadeDirs;
use crate::io::{AtomicOutput, Compression, Input};
use crate::pipeline;
use crate::pipeline::batches::{self, decode_error, Reading, Record, Work};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One piece of a name template.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Text(String),
    /// `{record}`, with a zero-padded width.
    Record(usize),
    /// `{index}`: the record's index in its input.
    Index(usize),
    /// `{value}`: the value's index in the feature.
    Value(usize),
    /// `{NAME}`: a feature's one value.
    Feature(String),
}

/// A parsed `--name`.
#[derive(Debug, PartialEq)]
pub struct Template {
    parts: Vec<Part>,
}

impl Template {
    /// Parses a `--name` template: its literal text and `{field}`s (a lone brace, or an empty template, is an error).
    pub fn parse(text: &str) -> Result<Template> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    literal.push('}');
                }
                '}' => bail!("--name {text}: a '}}' without its '{{' (write '}}}}' for a brace)"),
                '{' => {
                    let mut field = String::new();
                    loop {
                        match chars.next() {
                            Some('}') => break,
                            Some(c) => field.push(c),
                            None => bail!("--name {text}: a '{{' without its '}}' (write '{{{{' for a brace)"),
                        }
                    }
                    if !literal.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut literal)));
                    }
                    parts.push(Self::field(text, &field)?);
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        if parts.is_empty() {
            bail!("--name: an empty template");
        }
        Ok(Template { parts })
    }

    /// One `{...}` field.
    fn field(text: &str, field: &str) -> Result<Part> {
        if field.is_empty() {
            bail!("--name {text}: an empty '{{}}' (name a field: {{record}}, {{value}}, {{FEATURE}})");
        }
        for (word, make) in [
            ("record", Part::Record as fn(usize) -> Part),
            ("index", Part::Index),
            ("value", Part::Value),
        ] {
            if field == word {
                return Ok(make(0));
            }
            if let Some(width) = field.strip_prefix(word).and_then(|r| r.strip_prefix(':')) {
                let digits = width.strip_prefix('0').unwrap_or(width);
                return match digits.parse::<usize>() {
                    Ok(w) if w <= 40 => Ok(make(w)),
                    _ => bail!("--name {text}: {{{field}}}: write {{{word}:06}} for a zero-padded width"),
                };
            }
        }
        Ok(Part::Feature(field.to_string()))
    }

    fn has_value(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, Part::Value(_)))
    }

    /// The feature names the template reads.
    fn features(&self) -> Vec<String> {
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Feature(f) => Some(f.clone()),
                _ => None,
            })
            .collect()
    }

    /// The name of value `value` of record number `record` (index `index`
    /// in its input), `fields` the template's feature values in order.
    fn render(&self, record: u64, index: u64, value: usize, fields: &[String]) -> String {
        let mut out = String::new();
        let mut fields = fields.iter();
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Record(w) => out.push_str(&format!("{record:0w$}")),
                Part::Index(w) => out.push_str(&format!("{index:0w$}")),
                Part::Value(w) => out.push_str(&format!("{value:0w$}")),
                // Control characters (a newline, an escape sequence) from a
                // value become '_', as to-wds's keys do.
                Part::Feature(_) => out.extend(fields.next().map_or("", |s| s.as_str()).chars().map(|c| {
                    if c.is_control() {
                        '_'
                    } else {
                        c
                    }
                })),
            }
        }
        out
    }
}

/// What the workers make of a batch: per record, the template's fields
/// and the feature's values (copied, back to back in `data`).
#[derive(Default)]
struct Picked {
    data: Vec<u8>,
    records: Vec<PickedRecord>,
}

struct PickedRecord {
    index: u64,
    fields: Vec<String>,
    /// Per value: where it ends in `data`, and its extension.
    values: Vec<(usize, &'static str)>,
    /// The feature is absent from the record.
    missing: bool,
}

impl pipeline::Output for Picked {
    fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn clear(&mut self) {
        self.data.clear();
        self.records.clear();
    }
}

/// The workers' side: the feature's values and the template's fields.
struct Pick<'a> {
    feature: &'a str,
    fields: Vec<String>,
}

/// The extension of a value written to a file.
fn extension_of(v: &[u8]) -> &'static str {
    match crate::example::media::extension(v) {
        Some(ext) => ext,
        None if std::str::from_utf8(v).is_ok() => "txt",
        None => "bin",
    }
}

impl Work for Pick<'_> {
    type Out = Picked;

    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut Picked) -> Result<()> {
        let at = || format!("{}: record {} at byte {}", record.name, record.index, record.offset);
        let Some(features) = features_or_context(decoder, record.ty, record.strict, record.payload) else {
            bail!(
                "{}: the records are {}: extract reads a feature of Examples (a SequenceExample's context)",
                record.name,
                record.ty.name()
            )
        };
        let features = features.map_err(|e| decode_error(record.name, record.index, record.offset, e))?;
        let mut fields = Vec::with_capacity(self.fields.len());
        for name in &self.fields {
            let Some(v) = crate::example::filter::lookup(features, name) else {
                bail!("{}: --name {{{name}}}: the record has no feature {name}", at());
            };
            fields.push(single_value(&v).with_context(|| format!("{}: --name {{{name}}}", at()))?);
        }
        let mut picked = PickedRecord {
            index: record.index,
            fields,
            values: Vec::new(),
            missing: false,
        };
        match crate::example::filter::lookup(features, self.feature) {
            None => picked.missing = true,
            Some(v) => match v.kind() {
                Kind::Bytes | Kind::None => {
                    for value in v.bytes() {
                        out.data.extend_from_slice(value);
                        picked.values.push((out.data.len(), extension_of(value)));
                    }
                }
                Kind::Int64 | Kind::Float => bail!(
                    "{}: --feature {}: an {} feature; extract writes bytes values",
                    at(),
                    self.feature,
                    v.kind().name()
                ),
            },
        }
        out.records.push(picked);
        Ok(())
    }
}

/// A feature's one value as text, for a name.
fn single_value(v: &FeatureView<'_>) -> Result<String> {
    let mut text = Vec::new();
    let count = first_value_text(v, &mut text);
    if count != 1 {
        bail!(
            "the feature has {} values; a name takes a feature with one",
            if count == 0 { "no" } else { "several" }
        );
    }
    String::from_utf8(text).map_err(|_| crate::error::err!("the value is not UTF-8 text"))
}

/// Whether `name` (a relative path, '/' between its parts) stays inside
/// the output directory: not absolute, no empty, `.` or `..` part, no NUL.
fn check_name(name: &str) -> Result<()> {
    if name.is_empty() {
        bail!("an empty file name");
    }
    if name.starts_with('/') {
        bail!("an absolute path");
    }
    if name.contains('\0') {
        bail!("a NUL byte in the name");
    }
    for part in name.split('/') {
        match part {
            "" => bail!("an empty part ('//' or a trailing '/')"),
            "." | ".." => bail!("a '{part}' part would leave the directory or alias another name"),
            _ => {}
        }
    }
    Ok(())
}

/// Whether any part of `rel` below `dir` (the parent directories and the
/// file itself) is a symbolic link, or a parent is not a directory, or
/// the file is not a regular file (a directory, a FIFO, a device).
fn check_links(dir: &Path, rel: &str) -> Result<()> {
    let mut at = dir.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                bail!(
                    "{} is a symbolic link: extract writes only inside the directory",
                    show_path(&at)
                )
            }
            Ok(m) if i + 1 < parts.len() && !m.is_dir() => bail!("{} is not a directory", show_path(&at)),
            Ok(m) if i + 1 == parts.len() && m.is_dir() => bail!("{} is a directory", show_path(&at)),
            // A FIFO would block the run for ever, a device be written into.
            Ok(m) if i + 1 == parts.len() && !m.is_file() => bail!(
                "{} is {}: extract writes regular files (remove it first)",
                show_path(&at),
                crate::io::output_file::kind_of(&m)
            ),
            Ok(_) => {}
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// DIR as the output layer reads it: a local path (a `file://` URL's too,
/// and one with an unknown scheme such as `x://y`, which is the local
/// `x:/y`), or `None` for an object-store URL (`s3://...`).
fn local_dir(path: &Path) -> Option<PathBuf> {
    if path.as_os_str() == "-" {
        return Some(path.to_path_buf());
    }
    crate::io::output_set::local_path(path)
}

/// The directory the files go to (`-o`): a local one, made if missing
/// (removed again, as every writer's, when the run fails before a file is
/// in it), or an object-store prefix.
pub struct Target {
    dir: PathBuf,
    remote: bool,
    made: Option<MadeDirs>,
}

impl Target {
    /// The target `output` names, checked (a local one made if missing).
    pub fn prepare(output: &Path) -> Result<Target> {
        let local = local_dir(output);
        let remote = local.is_none();
        let dir = local.unwrap_or_else(|| output.to_path_buf());
        let mut made = None;
        if !remote {
            match std::fs::metadata(&dir) {
                Ok(m) if !m.is_dir() => bail!("-o {}: not a directory", show_path(&dir)),
                Ok(_) => {}
                Err(_) => made = Some(MadeDirs::at(&dir, "-o")?),
            }
        }
        Ok(Target { dir, remote, made })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Keeps the directories made (the run succeeded).
    pub fn keep(self) {
        if let Some(made) = self.made {
            made.keep();
        }
    }
}

/// What was extracted.
pub struct Extracted {
    /// Records read.
    pub records: u64,
    /// Files written.
    pub files: u64,
    /// Records without the feature.
    pub missing: u64,
}

/// Writes each value of `feature` in the records of `inputs` (read as
/// `how` says, on `workers` threads) to a file of `target` named by
/// `template`; `update` is told the bytes and records read.
pub fn extract(
    inputs: &[Input],
    how: &Reading<'_>,
    workers: usize,
    feature: &str,
    template: &Template,
    target: &Target,
    update: &(dyn Fn(u64, u64) + Sync),
) -> Result<Extracted> {
    let pick = Pick {
        feature,
        fields: template.features(),
    };
    let (dir, remote) = (&target.dir, target.remote);
    let mut written: HashSet<String> = HashSet::new();
    let (mut records, mut files, mut missing) = (0u64, 0u64, 0u64);
    let mut failed = None;
    let several = !template.has_value();
    let write = |out: &Picked| {
        let mut start = 0;
        for r in &out.records {
            let number = records;
            records += 1;
            missing += u64::from(r.missing);
            for (i, &(end, ext)) in r.values.iter().enumerate() {
                let value = &out.data[start..end];
                start = end;
                let mut name = template.render(number, r.index, i, &r.fields);
                if name.is_empty() {
                    failed = Some(crate::error::err!(
                        "record {number}: --name gives an empty name (its features have no value there)"
                    ));
                    return Err(std::io::Error::other(pipeline::Stopped));
                }
                if several && r.values.len() > 1 {
                    name.push_str(&format!("-{i}"));
                }
                let lower = name.to_ascii_lowercase();
                let has_ext = [
                    ext,
                    if ext == "jpg" { "jpeg" } else { ext },
                    if ext == "tif" { "tiff" } else { ext },
                ]
                .iter()
                .any(|e| lower.ends_with(&format!(".{e}")));
                if !has_ext {
                    name.push('.');
                    name.push_str(ext);
                }
                if let Some(long) = name.split('/').find(|part| part.len() > 255) {
                    let start: String = long.chars().take(40).collect();
                    failed = Some(crate::error::err!(
                        "record {number}: a file name of {} bytes, over the 255 a file system takes: {}...",
                        long.len(),
                        crate::io::input::escape_name(start.as_bytes())
                    ));
                    return Err(std::io::Error::other(pipeline::Stopped));
                }
                if let Err(e) = write_file(dir, remote, &name, value, &mut written, inputs) {
                    failed = Some(e.context(format!("record {number}")));
                    return Err(std::io::Error::other(pipeline::Stopped));
                }
                files += 1;
            }
        }
        Ok(())
    };
    let (_, result) = batches::run(inputs, how, workers, &pick, write, update);
    if let Some(e) = failed {
        return Err(e);
    }
    result?;
    Ok(Extracted {
        records,
        files,
        missing,
    })
}

/// Writes one value to DIR/NAME (checked first), atomically.
fn write_file(
    dir: &Path,
    remote: bool,
    name: &str,
    value: &[u8],
    written: &mut HashSet<String>,
    inputs: &[Input],
) -> Result<()> {
    let shown = crate::io::input::escape_name(name.as_bytes());
    check_name(name).with_context(|| format!("--name gives '{shown}'"))?;
    if !written.insert(name.to_string()) {
        bail!("--name gives '{shown}' twice: make names unique ({{record}}, {{value}})");
    }
    let path = dir.join(name);
    if !remote {
        check_links(dir, name)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create the directory {}", show_path(parent)))?;
        }
        crate::io::same_file::refuse_input_as_output(inputs, &[], &path, "-o")?;
    }
    let mut out = AtomicOutput::create_file(&path, Compression::None)?;
    out.write_all(value)
        .with_context(|| format!("{}: cannot write", show_path(&path)))?;
    Ok(out.commit()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_parse_and_render() {
        let t = Template::parse("{label}/img_{record:06}-{{x}}").unwrap();
        assert_eq!(t.features(), ["label"]);
        assert_eq!(t.render(42, 7, 0, &["3".into()]), "3/img_000042-{x}");
        let t = Template::parse("{index}_{value:3}").unwrap();
        assert_eq!(t.render(1, 5, 2, &[]), "5_002");
        assert!(t.has_value());
        for bad in ["", "{", "}", "{}", "a{record", "{record:x}"] {
            assert!(Template::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_that_leave_the_directory_are_refused() {
        for bad in ["/etc/passwd", "../x", "a/../../x", "a//b", "a/", "./a", "a\0b", ""] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        for good in ["a.jpg", "3/a.jpg", "..a", "a..b/c"] {
            assert!(check_name(good).is_ok(), "{good:?}");
        }
    }
}

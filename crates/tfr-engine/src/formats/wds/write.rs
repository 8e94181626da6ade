//! Records as WebDataset tar shards, one sample per record (`tfr to-wds`).
//!
//! Workers decode each record and lay out its members ([`Layout`]): a
//! bytes feature whose one value is a media file (by its magic number,
//! [`crate::example::media::extension`]) is `KEY.jpg` (`KEY.NAME.jpg` for
//! a second feature of the same type in the record), the label `KEY.cls`,
//! the other features `KEY.json` (the JSONL mapping). One thread, in
//! record order, gives each sample its key (the record's number, or
//! `--key`'s value), writes the tar headers ([`append_member`]) and cuts
//! the shards by size or count. The shards are an [`OutputSet`]: all
//! appear at the end, or none.
//!
//! Keys follow the `webdataset` library's split of a member name
//! (`^((?:.*/|)[^.]+)[.]([^/]*)$`: the key runs to the first `.` of the
//! last part): a key holds no `.` or `/` (a `--key` value's are written
//! `_`), and two samples in a row never share one (the library would
//! merge them).

use super::archive::append_member;
use crate::error::{bail, Context, Result};
use crate::example::json::render::first_value_text;
use crate::example::{self, Decoder, FeatureView, Format, Kind, Look, MessageType, Out};
use crate::io::{Compression, Input, OutputSet};
use crate::pipeline;
use crate::pipeline::batches::{self, decode_error, Reading, Record, Work};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What to-wds is asked, beside its inputs and how they are read.
pub struct ToOptions<'a> {
    /// `-o DIR/NAME.tar`: the shards are `DIR/NAME-000000.tar`, ...
    pub output: &'a Path,
    /// `--shard-size`: shards of at most this many bytes.
    pub shard_size: u64,
    /// `--shard-records`: at most this many samples in a shard.
    pub shard_records: Option<u64>,
    /// `--key`: each sample's key from this feature's one value.
    pub key: Option<&'a str>,
    /// `--cls`: the int64 feature written as `KEY.cls`.
    pub cls: Option<&'a str>,
    /// The features written in `.json` as a bare value, not a one-element
    /// list ([`OneValue::of`]); `None`: every feature as a list.
    pub scalars: Option<&'a OneValue>,
}

/// The features that hold exactly one value (of one kind) in every record
/// that has them, and the feature lists with one value in every step:
/// to-wds writes them in `.json` as bare values (`"label": 3`), as
/// WebDataset users expect, and as `to-parquet` makes them scalar columns.
#[derive(Debug, Default)]
pub struct OneValue {
    features: HashSet<String>,
    steps: HashSet<String>,
}

impl OneValue {
    /// From a scan of the records to be written. Features past the scan's
    /// tracking limit stay lists.
    pub fn of(scan: &crate::schema::Scan) -> OneValue {
        let one = |table: &crate::schema::stats::FeatureTable| -> HashSet<String> {
            table
                .features()
                .iter()
                .filter(|f| {
                    f.kind().is_some() && !f.is_conflict() && f.no_kind == 0 && f.values.range() == Some((1, 1))
                })
                .map(|f| f.name.to_string())
                .collect()
        };
        let stats = &scan.stats;
        OneValue {
            features: one(&stats.features),
            steps: match scan.ty {
                MessageType::SequenceExample => one(&stats.feature_lists),
                _ => HashSet::new(),
            },
        }
    }

    /// Whether the feature (`list`: the feature list) `name` is written bare.
    pub fn holds(&self, name: &str, list: bool) -> bool {
        match list {
            true => self.steps.contains(name),
            false => self.features.contains(name),
        }
    }
}

/// What was written.
pub struct Written {
    /// Samples (records) written.
    pub samples: u64,
    /// Shards written.
    pub shards: u64,
}

/// One batch's samples: their members' bytes back to back, and what
/// names them, all in a few buffers reused batch after batch (no
/// allocation per record: the outputs in flight are most of to-wds's
/// memory).
#[derive(Default)]
struct Samples {
    data: Vec<u8>,
    /// Members' extensions, PAX feature names and `--key` values, back to back.
    text: String,
    members: Vec<Member>,
    samples: Vec<Sample>,
    /// The input the records came from (a batch holds records of one input).
    name: String,
}

/// A span of [`Samples::text`].
type Span = (usize, usize);

struct Member {
    /// Its extension (after `KEY.`).
    ext: Span,
    /// The feature it holds, when the extension does not say it.
    feature: Option<Span>,
    /// Where its bytes end in [`Samples::data`].
    end: usize,
}

struct Sample {
    /// `--key`'s value, made safe.
    key: Option<Span>,
    /// Where its members end in [`Samples::members`].
    members: usize,
    /// The record's index and byte offset in its input (for errors).
    index: u64,
    offset: u64,
}

impl Samples {
    fn text(&self, (start, end): Span) -> &str {
        &self.text[start..end]
    }

    fn put_text(&mut self, s: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(s);
        (start, self.text.len())
    }

    fn push_member(&mut self, ext: &str, feature: Option<&str>) {
        let ext = self.put_text(ext);
        let feature = feature.map(|f| self.put_text(f));
        let end = self.data.len();
        self.members.push(Member { ext, feature, end });
    }

    /// Where a sample's record was, for an error.
    fn at(&self, sample: &Sample) -> String {
        format!("{}: record {} at byte {}", self.name, sample.index, sample.offset)
    }

    /// Bytes held (capacity), for the bound on an output's size.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.data.capacity()
            + self.text.capacity()
            + self.name.capacity()
            + self.members.capacity() * std::mem::size_of::<Member>()
            + self.samples.capacity() * std::mem::size_of::<Sample>()
    }
}

impl pipeline::Output for Samples {
    fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn clear(&mut self) {
        self.data.clear();
        self.text.clear();
        self.members.clear();
        self.samples.clear();
    }
}

/// The workers' side: each record's members.
struct Layout<'a> {
    key: Option<&'a str>,
    cls: Option<&'a str>,
    /// Whether a record held the `--cls` feature given.
    cls_seen: std::sync::atomic::AtomicBool,
    scalars: Option<&'a OneValue>,
}

/// Whether a feature name is taken as the label by default.
fn is_label(name: &str) -> bool {
    name == "label" || name.ends_with("/label")
}

/// A feature name as part of a member's extension: lower case (the
/// library lower-cases extensions), letters, digits, '_' and '-' kept,
/// every other character '_'.
fn ext_name(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '_' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect()
}

/// A key made of a value: '.', '/', '\\' and control characters as '_'.
fn safe_key(value: &str) -> String {
    value
        .chars()
        .map(|c| match c {
            '.' | '/' | '\\' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect()
}

/// The one value of a feature, as text (a key).
fn one_value(v: &FeatureView<'_>) -> Option<String> {
    let mut text = Vec::new();
    let n = first_value_text(v, &mut text);
    (n == 1).then(|| String::from_utf8(text).ok()).flatten()
}

impl Work for Layout<'_> {
    type Out = Samples;

    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut Samples) -> Result<()> {
        if out.name != record.name {
            out.name.clear();
            out.name.push_str(record.name);
        }
        let (key, taken) = self.members(decoder, record, out)?;
        // The other features: the JSONL mapping (a SequenceExample's
        // feature lists too).
        let keep = |name: &str| !taken.contains(name);
        let one = |name: &str, list: bool| self.scalars.is_some_and(|s| s.holds(name, list));
        let look = Look {
            short: None,
            keep: Some(&keep),
            scalars: self.scalars.map(|_| &one as crate::example::Scalars<'_>),
            names: None,
            bytes: None,
        };
        example::render_out(
            decoder,
            Format::Json,
            &look,
            record.ty,
            record.strict,
            record.payload,
            &mut Out::new(&mut out.data),
        )
        .map_err(|e| decode_error(record.name, record.index, record.offset, e))?;
        if out.data.last() == Some(&b'\n') {
            out.data.pop();
        }
        out.push_member("json", None);
        out.samples.push(Sample {
            key,
            members: out.members.len(),
            index: record.index,
            offset: record.offset,
        });
        Ok(())
    }
}

/// Where a record is, for an error.
fn record_at(record: &Record<'_>) -> String {
    format!("{}: record {} at byte {}", record.name, record.index, record.offset)
}

impl Layout<'_> {
    /// The media and label members of a record (copied to `out.data`,
    /// named in `out.members`), its key (in `out.text`), and the names of
    /// the features they hold.
    fn members(
        &self,
        decoder: &mut Decoder,
        record: &Record<'_>,
        out: &mut Samples,
    ) -> Result<(Option<Span>, HashSet<String>)> {
        // A SequenceExample's feature lists stay in the .json, and so does
        // a context feature with a feature list of its name (the .json's
        // filter takes names, not sections).
        let mut lists: Vec<&str> = Vec::new();
        let features = match record.ty {
            MessageType::Example => decoder.example(record.payload, record.strict).map(|e| e.features()),
            MessageType::SequenceExample => decoder.sequence_example(record.payload, record.strict).map(|s| {
                lists.extend(s.feature_lists().iter().flat_map(|l| l.entries()).map(|(k, _)| k));
                s.context()
            }),
            other => bail!(
                "{}: the records are {}: to-wds writes Examples and SequenceExamples",
                record.name,
                other.name()
            ),
        }
        .map_err(|e| decode_error(record.name, record.index, record.offset, e))?;
        // The features by name (the last entry of a name wins, as protobuf
        // reads a map), in name order.
        let mut by_name: HashMap<&str, FeatureView<'_>> = HashMap::new();
        for (name, value) in features.iter().flat_map(|f| f.entries()) {
            by_name.insert(name, value);
        }
        let mut names: Vec<&str> = by_name.keys().copied().collect();
        names.sort_unstable();
        let key = match self.key {
            None => None,
            Some(k) => {
                let value = by_name.get(k).and_then(one_value).with_context(|| {
                    format!(
                        "{}: --key {k}: the record has no one-value feature {k} (text or a number)",
                        record_at(record)
                    )
                })?;
                let key = safe_key(&value);
                if key.is_empty() {
                    bail!("{}: --key {k}: an empty value", record_at(record));
                }
                Some(out.put_text(&key))
            }
        };
        let cls = match self.cls {
            Some(c) => Some(c),
            None => names.iter().copied().find(|n| is_label(n)),
        };
        let mut taken: HashSet<String> = HashSet::new();
        // The members' suffixes, and per `NAME.EXT` the next number to try.
        let mut used: HashSet<String> = HashSet::new();
        let mut next: HashMap<String, usize> = HashMap::new();
        for &name in &names {
            if self.cls == Some(name) {
                self.cls_seen.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            if lists.contains(&name) {
                continue;
            }
            let v = &by_name[name];
            if self.cls == Some(name) {
                // Given by name: a label that cannot be one is an error,
                // not a sample silently without its .cls.
                let n = match v.kind() {
                    Kind::Int64 => v.int64s().take(2).count(),
                    Kind::Float => v.floats().take(2).count(),
                    Kind::Bytes => v.bytes().take(2).count(),
                    Kind::None => 0,
                };
                if v.kind() != Kind::Int64 || n != 1 {
                    let values = ["no value", "one value", "more than one value"][n];
                    bail!(
                        "{}: --cls {}: {} with {values}, where .cls holds one int64",
                        record_at(record),
                        crate::io::input::escape_name(name.as_bytes()),
                        v.kind().name(),
                    );
                }
            }
            if Some(name) == cls && v.kind() == Kind::Int64 && v.int64s().take(2).count() == 1 {
                let x = v.int64s().next().unwrap_or_default();
                out.data.extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
                out.push_member("cls", (name != "cls").then_some(name));
                used.insert("cls".into());
                taken.insert(name.to_string());
                continue;
            }
            if v.kind() != Kind::Bytes || v.bytes().take(2).count() != 1 {
                continue;
            }
            let value = v.bytes().next().unwrap_or_default();
            let Some(ext) = example::media::extension(value) else {
                continue;
            };
            let mut suffix = ext.to_string();
            if used.contains(&suffix) {
                let base = ext_name(name);
                suffix = format!("{base}.{ext}");
                // The numbers below `n` are all in use already (never
                // freed), so the search goes on from there: the same
                // names as counting from 1, in linear time.
                let n = next.entry(suffix.clone()).or_insert(1);
                while used.contains(&suffix) {
                    suffix = format!("{base}{n}.{ext}");
                    *n += 1;
                }
            }
            used.insert(suffix.clone());
            out.data.extend_from_slice(value);
            out.push_member(&suffix, (name != suffix).then_some(name));
            taken.insert(name.to_string());
        }
        Ok((key, taken))
    }
}

/// `DIR/NAME.tar` → `DIR/NAME-000003.tar`.
pub fn shard_path(out: &Path, k: u64) -> PathBuf {
    let mut name = out.file_stem().unwrap_or_default().to_os_string();
    name.push(format!("-{k:06}.tar"));
    out.with_file_name(name)
}

/// The shards being written.
struct Shards<'a> {
    set: &'a mut OutputSet,
    out: &'a Path,
    max_size: u64,
    max_records: u64,
    /// The open shard: its index in the set, bytes and samples in it.
    current: Option<(usize, u64, u64)>,
    made: u64,
}

impl Shards<'_> {
    /// Makes room for a sample of `size` bytes: a new shard when the open
    /// one is full.
    fn room(&mut self, size: u64) -> Result<usize> {
        if let Some((i, bytes, samples)) = self.current {
            if samples > 0 && (bytes + size + 1024 > self.max_size || samples >= self.max_records) {
                self.close()?;
            } else {
                return Ok(i);
            }
        }
        let path = shard_path(self.out, self.made);
        let i = self.set.create(&path, Some(Compression::None), 1)?;
        self.made += 1;
        self.current = Some((i, 0, 0));
        Ok(i)
    }

    fn wrote(&mut self, size: u64) {
        if let Some((_, bytes, samples)) = &mut self.current {
            *bytes += size;
            *samples += 1;
        }
    }

    /// Ends the open shard: the two zero blocks that end a tar.
    fn close(&mut self) -> Result<()> {
        if let Some((i, _, _)) = self.current.take() {
            let shard = self.set.get(i);
            shard
                .write_all(&[0u8; 1024])
                .with_context(|| format!("{}: cannot write", shard.display()))?;
            self.set.end(i)?;
        }
        Ok(())
    }
}

/// With `--key`, the keys of a shard checked for repeats: 16 bytes each
/// (a 128-bit hash), about 34 MiB with the table's spare room. A 1 GiB shard holds
/// at most this many samples (each at least a header and a block).
const MAX_SHARD_KEYS: usize = 1 << 20;

/// Writes the records of `inputs` (read as `how` says, on `workers`
/// threads) as shards; `update` is told the bytes and records read,
/// `warn` gets a warning line. The shards appear together at the end, or
/// none.
pub fn write(
    inputs: &[Input],
    how: &Reading<'_>,
    workers: usize,
    opts: &ToOptions<'_>,
    update: &(dyn Fn(u64, u64) + Sync),
    warn: &(dyn Fn(&str) + Sync),
) -> Result<Written> {
    let out = opts.output;
    let mut set = OutputSet::new(inputs, &[], "-o");
    let mut shards = Shards {
        set: &mut set,
        out,
        max_size: opts.shard_size,
        max_records: opts.shard_records.unwrap_or(u64::MAX),
        current: None,
        made: 0,
    };
    // The first shard exists before any reading: an unwritable output fails at once.
    shards.room(0)?;
    let layout = Layout {
        key: opts.key,
        cls: opts.cls,
        cls_seen: std::sync::atomic::AtomicBool::new(false),
        scalars: opts.scalars,
    };
    let mut number = 0u64;
    let mut last_key = String::new();
    let mut keys: HashSet<u128> = HashSet::new();
    let mut keys_of: Option<u64> = None;
    let mut unchecked = false;
    let hashers = (std::hash::RandomState::new(), std::hash::RandomState::new());
    let mut failed = None;
    let mut member = Vec::new();
    // A sample's members: `out.members[first..]` up to the sample's own,
    // their bytes `out.data[base..]` up to each member's end.
    let mut write_sample = |shards: &mut Shards<'_>,
                            out: &Samples,
                            (first, base): (usize, usize),
                            sample: &Sample|
     -> Result<()> {
        let key = match sample.key {
            Some(k) => out.text(k).to_string(),
            None => format!("{number:09}"),
        };
        number += 1;
        if key == last_key {
            bail!(
                "{}: --key gives '{}' to two samples in a row: the webdataset library would merge them",
                out.at(sample),
                crate::io::input::escape_name(key.as_bytes())
            );
        }
        member.clear();
        let mut start = base;
        for m in &out.members[first..sample.members] {
            append_member(
                &mut member,
                &format!("{key}.{}", out.text(m.ext)),
                &out.data[start..m.end],
                m.feature.map(|f| out.text(f)),
            )?;
            start = m.end;
        }
        let i = shards.room(member.len() as u64)?;
        // A key repeated further apart would give the dataset two
        // samples of one __key__ (two distinct values can also become one
        // key: 'a.b' and 'a_b'): refused within a shard, which remembers
        // a 128-bit hash of each of its first MAX_SHARD_KEYS keys.
        if sample.key.is_some() {
            let shard = shards.made;
            if keys_of != Some(shard) {
                keys.clear();
                keys_of = Some(shard);
            }
            if keys.len() < MAX_SHARD_KEYS {
                let hash = |s: &std::hash::RandomState| u128::from(std::hash::BuildHasher::hash_one(s, &key));
                let h = hash(&hashers.0) << 64 | hash(&hashers.1);
                if !keys.insert(h) {
                    bail!(
                        "{}: --key gives '{}' to two samples of one shard (as written: '.', '/', '\\' and \
                         control characters become '_'): a WebDataset's keys are unique",
                        out.at(sample),
                        crate::io::input::escape_name(key.as_bytes())
                    );
                }
            } else if !unchecked {
                unchecked = true;
                warn(&format!(
                    "warning: --key: a shard holds over {MAX_SHARD_KEYS} samples: keys past those are not checked for repeats"
                ));
            }
        }
        let shard = shards.set.get(i);
        shard
            .write_all(&member)
            .with_context(|| format!("{}: cannot write", shard.display()))?;
        shards.wrote(member.len() as u64);
        last_key = key;
        Ok(())
    };
    let write = |out: &Samples| {
        let (mut first, mut start) = (0, 0);
        for sample in &out.samples {
            if let Err(e) = write_sample(&mut shards, out, (first, start), sample) {
                failed = Some(e);
                return Err(std::io::Error::other(pipeline::Stopped));
            }
            first = sample.members;
            start = out.members[first - 1].end;
        }
        Ok(())
    };
    let (_, result) = batches::run(inputs, how, workers, &layout, write, update);
    if let Some(e) = failed {
        return Err(e);
    }
    result?;
    if let Some(c) = layout.cls.filter(|_| number > 0 && !layout.cls_seen.into_inner()) {
        bail!(
            "--cls {}: no record has this feature (a misspelt name?): no sample would have a .cls",
            crate::io::input::escape_name(c.as_bytes())
        );
    }
    shards.close()?;
    let made = shards.made;
    set.commit()?;
    Ok(Written {
        samples: number,
        shards: made,
    })
}

/// How many shards of an earlier, larger run with the same name remain
/// after the `made` of this one (a local output only).
pub fn stale_shards(out: &Path, made: u64) -> u64 {
    if out.to_string_lossy().contains("://") {
        return 0;
    }
    (made..).take_while(|&k| shard_path(out, k).is_file()).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outputs in flight are most of to-wds's memory (issue 26): a
    /// batch's samples are a few buffers, not strings and lists per record
    /// (which took about 400 bytes a record beside its members' bytes).
    #[test]
    fn a_batch_of_samples_holds_a_few_buffers_not_allocations_per_record() {
        let mut payload = Vec::new();
        example::json::Encoder::new(example::json::JsonFormat::Natural, None)
            .encode(
                MessageType::Example,
                br#"{"label":[3],"x":[1.5,2.5],"name":["abc"]}"#,
                &mut payload,
            )
            .unwrap();
        let layout = Layout {
            key: Some("name"),
            cls: None,
            cls_seen: std::sync::atomic::AtomicBool::new(false),
            scalars: Some(&OneValue::default()),
        };
        let mut out = Samples::default();
        let n = 3000;
        example::with_decoder(|decoder| {
            for i in 0..n {
                let record = Record {
                    payload: &payload,
                    index: i,
                    offset: 100 * i,
                    input: 0,
                    name: "in.tfrecord",
                    ty: MessageType::Example,
                    strict: false,
                    crc: None,
                };
                layout.record(decoder, &record, &mut out).unwrap();
            }
        });
        assert_eq!(out.samples.len(), n as usize);
        let sample = &out.samples[7];
        assert_eq!(out.at(sample), "in.tfrecord: record 7 at byte 700");
        assert_eq!(sample.key.map(|k| out.text(k)), Some("abc"));
        let members: Vec<&str> = out.members[2 * 7..sample.members]
            .iter()
            .map(|m| out.text(m.ext))
            .collect();
        assert_eq!(members, ["cls", "json"]);
        assert_eq!(out.members[2 * 7].feature.map(|f| out.text(f)), Some("label"));
        // Members' bytes aside: a Sample, two Members and their names
        // (about 150 bytes), in vectors up to twice as long as filled.
        let beside = (out.held() - out.data.capacity()) / n as usize;
        assert!(beside <= 320, "{beside} bytes a record beside its members'");
    }

    #[test]
    fn names_and_keys_are_safe_for_webdataset() {
        assert_eq!(ext_name("image/Encoded.v2"), "image_encoded_v2");
        assert_eq!(safe_key("img_001.jpg"), "img_001_jpg");
        assert_eq!(safe_key("a/b\n"), "a_b_");
        assert_eq!(
            shard_path(Path::new("wds/shard.tar"), 3),
            Path::new("wds/shard-000003.tar")
        );
        assert!(is_label("label") && is_label("image/class/label") && !is_label("labels"));
    }
}

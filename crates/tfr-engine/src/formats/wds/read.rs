//! WebDataset shards back into TFRecord records, one Example per sample
//! (`tfr from-wds`).
//!
//! Members are grouped into samples as the `webdataset` library groups
//! them ([`split_name`]: the key runs to the first `.` of the last part of
//! the name; a sample is a run of members with one key, never across
//! shards). A sample becomes a payload ([`Sample::encode`]): its `.json`
//! through the JSONL encoder ([`Encoder`]; metadata that is not the JSONL
//! mapping is mapped first, [`super::json`]), then a feature per other
//! member (`.cls`: int64; others: bytes), named by the member's PAX record
//! [`PAX_FEATURE`] (what to-wds writes) or else by its extension. The
//! reading thread walks the tars ([`Walk`]); samples are encoded on
//! workers ([`pipeline::run`]) and written in order.
//!
//! One kind per feature: the writer checks each feature's kind against
//! the first sample's ([`check_kinds`]). A feature seen as float whose
//! later samples hold integers has those written as floats (the batch is
//! encoded again, and the workers told); any other change is an error.

use super::archive::{split_name, Head, Member, Walk};
#[cfg(doc)]
use super::PAX_FEATURE;
use crate::error::{bail, Context, Result};
use crate::example::json::{self, Encoder, JsonFormat, Schema, Section};
use crate::example::wire::{put_field as field, put_varint as varint};
use crate::example::Kind;
use crate::example::MessageType;
use crate::io::input::escape_name;
use crate::io::Input;
use crate::pipeline;
use crate::record::append_framed;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::RwLock;

/// What from-wds is asked, beside its inputs and output.
pub struct FromOptions<'a> {
    /// `--type`: the message each sample becomes (`None`: from its
    /// `.json`); an Example or a SequenceExample.
    pub forced: Option<MessageType>,
    /// `--key`: keep each sample's key as a bytes feature of this name.
    pub key: Option<&'a str>,
    /// `--max-record-size`: the largest member (and sample) held.
    pub max_record_size: u64,
    /// Worker threads ([`pipeline::workers`]).
    pub workers: usize,
    /// `--schema`: the kinds of the `.json` features it names.
    pub schema: Option<Schema>,
    /// `--keep-json`: each sample's `.json` as one bytes feature of this
    /// name, not mapped into features.
    pub keep_json: Option<&'a str>,
    /// `--rename OLD=NEW`: the members' features renamed (the name from
    /// the extension or the PAX record, or `--keep-json`'s).
    pub rename: &'a [(String, String)],
}

/// What a conversion leaves to say once its output is in place.
#[derive(Debug, Default)]
pub struct Converted {
    /// Features of `.json` members kept as JSON text: name, samples, and
    /// the first (`SHARD:KEY`).
    kept: Vec<(String, u64, String)>,
    /// Features whose integers were written as floats: path and the
    /// first sample that had one.
    coerced: Vec<(String, String)>,
    /// `--rename OLD=NEW`s whose OLD no member had.
    unmatched: Vec<String>,
    /// Which `--rename`s were applied (by index).
    renamed: Vec<bool>,
}

impl Converted {
    /// The warning lines.
    pub fn warnings(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (name, samples, first) in &self.kept {
            let plural = if *samples == 1 { "" } else { "s" };
            lines.push(format!(
                "warning: .json feature '{}' has no Example kind in {samples} sample{plural} (first: {first}): \
                 kept as its JSON text, one bytes value (--keep-json keeps the whole .json)",
                escape_name(name.as_bytes())
            ));
        }
        for (path, first) in &self.coerced {
            lines.push(format!(
                "warning: feature {path} is float, and from {first} on some samples hold integers: \
                 written as floats (exact up to 2^24)"
            ));
        }
        for old in &self.unmatched {
            let shown = escape_name(old.as_bytes());
            lines.push(format!(
                "warning: --rename {shown}=…: no sample has a member feature {shown}"
            ));
        }
        lines
    }
}

/// What encoding a sample tells: each `.json` feature's kind, a feature
/// kept as JSON text, a `--rename` applied (by index).
struct Notes<'n> {
    kinds: &'n mut dyn FnMut(Section, &[u8], Kind),
    kept: &'n mut dyn FnMut(&str),
    renamed: &'n dyn Fn(usize),
}

/// How each sample is encoded.
struct How<'a> {
    forced: Option<MessageType>,
    /// Without `--type`: the message type of the first sample's `.json`,
    /// set before any sample is encoded.
    decided: &'a std::sync::OnceLock<MessageType>,
    key: Option<&'a str>,
    keep_json: Option<&'a str>,
    schema: Option<&'a Schema>,
    rename: &'a [(String, String)],
}

/// A sample holds at most this many members (a WebDataset sample holds a
/// few; more is a broken or hostile shard).
const MAX_MEMBERS: usize = 10_000;

/// The members of one sample, gathered.
#[derive(Default)]
struct Sample {
    key: String,
    members: Vec<(String, Member)>,
    /// The extensions of `members` (a repeated one is refused).
    exts: HashSet<String>,
    size: u64,
}

/// The top-level fields of an encoded Example or SequenceExample (all
/// length-delimited, as the encoder writes them): tag and contents.
fn top_fields(mut payload: &[u8]) -> Result<Vec<(u8, &[u8])>> {
    let mut out = Vec::new();
    while let Some((&tag, rest)) = payload.split_first() {
        let (mut len, mut shift, mut r) = (0u64, 0, rest);
        loop {
            let Some((&b, more)) = r.split_first() else {
                bail!("an encoded record cut short");
            };
            len |= u64::from(b & 0x7f) << shift;
            shift += 7;
            r = more;
            if b & 0x80 == 0 || shift > 63 {
                break;
            }
        }
        if tag & 7 != 2 || len > r.len() as u64 {
            bail!("an encoded record with an unexpected field");
        }
        out.push((tag, &r[..len as usize]));
        payload = &r[len as usize..];
    }
    Ok(out)
}

impl Sample {
    /// The sample as a payload: the `.json`'s features (or its
    /// SequenceExample), then one feature per other member.
    fn encode(
        &self,
        encoder: &mut Encoder,
        how: &How<'_>,
        shard: &str,
        out: &mut Vec<u8>,
        notes: &mut Notes<'_>,
    ) -> Result<()> {
        let (forced, key_feature) = (how.forced, how.key);
        let at = || format!("{shard}: sample '{}'", escape_name(self.key.as_bytes()));
        // With --keep-json the .json is a member like the others.
        let mapped = |ext: &str| ext == "json" && how.keep_json.is_none();
        let json = self.members.iter().find(|(ext, _)| mapped(ext));
        let others = self.members.iter().filter(|(ext, _)| !mapped(ext));
        let name_of = |ext: &str, m: &Member| {
            let name = match how.keep_json {
                Some(name) if ext == "json" => name,
                _ => m.feature.as_deref().unwrap_or(ext),
            };
            match how.rename.iter().position(|(old, _)| old == name) {
                Some(k) => {
                    (notes.renamed)(k);
                    how.rename[k].1.clone()
                }
                None => name.to_string(),
            }
        };
        // The features (an Example's; a SequenceExample's context) and the
        // message's other fields (its feature lists), as wire bytes.
        let mut features = Vec::new();
        let mut rest = Vec::new();
        let mut had_features = false;
        if let Some((_, m)) = json {
            // A UTF-8 byte order mark, as some Windows tools write, is not JSON.
            let data = m.data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&m.data);
            let line = data.trim_ascii();
            // `--type`, else what the first sample's .json is: one type
            // in the whole output.
            let ty = forced
                .or_else(|| how.decided.get().copied())
                .unwrap_or(MessageType::Example);
            let mut payload = Vec::new();
            if let Err(e) = encoder.encode(ty, line, &mut payload) {
                // Metadata that is not the JSONL mapping: mapped, then
                // encoded again.
                let named = |e: &dyn std::fmt::Display, column: String| {
                    let json = escape_name(self.key.as_bytes());
                    crate::error::err!("{}: {json}.json: {column}{e}", at())
                };
                let remapped = match ty {
                    MessageType::Example => {
                        super::json::map_line(line, how.schema).map_err(|m| named(&m, String::new()))?
                    }
                    _ => None,
                };
                let Some((text, kept_here)) = remapped else {
                    return Err(named(&e, format!("column {}: ", e.column(line))));
                };
                encoder
                    .encode(ty, &text, &mut payload)
                    .map_err(|e| named(&e, String::new()))?;
                kept_here.iter().for_each(|name| (notes.kept)(name));
            }
            encoder.for_each_kind(|section, name, kind, _| {
                if kind != Kind::None {
                    (notes.kinds)(section, name, kind);
                }
            });
            // Field 1 (Features, or the context) gets the members' features.
            for (tag, bytes) in top_fields(&payload).with_context(at)? {
                if tag == 0x0a {
                    had_features = true;
                    features.extend_from_slice(bytes);
                } else {
                    field(&mut rest, tag, bytes);
                }
            }
        } else if self.members.is_empty() {
            return Ok(());
        }
        // Every feature name once: an Example with a name twice keeps only
        // its last value when read, so a repeat is refused.
        let mut names: HashSet<Vec<u8>> = HashSet::new();
        for (tag, entry) in top_fields(&features).with_context(at)? {
            if tag == 0x0a {
                if let Some((_, name)) = top_fields(entry)
                    .with_context(at)?
                    .into_iter()
                    .find(|(t, _)| *t == 0x0a)
                {
                    names.insert(name.to_vec());
                }
            }
        }
        let mut once = |name: &str| -> Result<()> {
            if !names.insert(name.as_bytes().to_vec()) {
                bail!(
                    "{}: two features named '{}' (from its members, .json or --key)",
                    at(),
                    escape_name(name.as_bytes())
                );
            }
            Ok(())
        };
        for (ext, m) in self.members.iter().filter(|(ext, _)| !mapped(ext)) {
            once(&name_of(ext, m))?;
        }
        if let Some(k) = key_feature {
            once(k)?;
        }
        let mut entry = Vec::new();
        let mut feature = Vec::new();
        let mut list = Vec::new();
        let mut add = |name: &str, value: &[u8], int: Option<i64>| {
            list.clear();
            feature.clear();
            entry.clear();
            match int {
                Some(x) => {
                    // Int64List: packed field 1.
                    let mut packed = Vec::new();
                    varint(&mut packed, x as u64);
                    field(&mut list, 0x0a, &packed);
                    field(&mut feature, 0x1a, &list);
                }
                None => {
                    field(&mut list, 0x0a, value);
                    field(&mut feature, 0x0a, &list);
                }
            }
            field(&mut entry, 0x0a, name.as_bytes());
            field(&mut entry, 0x12, &feature);
            field(&mut features, 0x0a, &entry);
        };
        for (ext, m) in others {
            let name = &name_of(ext, m);
            if ext == "cls" {
                let text = std::str::from_utf8(&m.data).ok().map(str::trim);
                let Some(x) = text.and_then(|t| t.parse::<i64>().ok()) else {
                    bail!(
                        "{}: {}: not an integer (a .cls member holds a class number)",
                        at(),
                        escape_name(m.name.as_bytes())
                    );
                };
                add(name, &[], Some(x));
            } else {
                add(name, &m.data, None);
            }
        }
        if let Some(k) = key_feature {
            add(k, self.key.as_bytes(), None);
        }
        if had_features || !features.is_empty() {
            field(out, 0x0a, &features);
        }
        out.extend_from_slice(&rest);
        Ok(())
    }
}

/// The samples of the tars `inputs` (members walked, not read), for
/// `--shards`: a sample is a run of members with one key, as
/// [`convert`] groups them.
pub fn count_samples(inputs: &[Input], max_record_size: u64) -> Result<u64> {
    crate::formats::tfrecord_out::refuse_streams_for_count(inputs, "samples")?;
    let mut samples = 0u64;
    for input in inputs {
        let mut walk = Walk::new(input.open_decompressed()?, input.display(), max_record_size);
        let mut last: Option<String> = None;
        while let Some(head) = walk.next()? {
            walk.skip(&head)?;
            let Some((key, _)) = split_name(&head.name) else {
                continue;
            };
            if last.as_deref() != Some(key) {
                samples += 1;
                last = Some(key.to_string());
            }
        }
    }
    Ok(samples)
}

/// Converts the tars `inputs` into runs of framed records handed in order
/// to `write`; `update` is told the bytes of each run.
pub fn convert(
    inputs: &[Input],
    opts: &FromOptions<'_>,
    write: &mut (dyn FnMut(&[u8]) -> Result<()> + Send),
    update: &(dyn Fn(u64) + Sync),
) -> Result<Converted> {
    let decided = std::sync::OnceLock::new();
    // The reading thread walks the tars and gathers samples into batches;
    // workers encode and frame them; the writer writes them in order.
    let produce = |tx: &mut pipeline::Sender<'_, Samples>| -> Result<()> {
        let mut batch = Samples::default();
        for input in inputs {
            let name = input.display();
            let mut walk = Walk::new(input.open_decompressed()?, name.clone(), opts.max_record_size);
            batch.shard = name.clone();
            let mut sample = Sample::default();
            while let Some(head) = walk.next()? {
                let Some((key, ext)) = split_name(&head.name) else {
                    walk.skip(&head)?;
                    continue;
                };
                let ext = ext.to_lowercase();
                if key != sample.key {
                    if !sample.members.is_empty() {
                        batch.bytes += sample.size;
                        batch.samples.push(std::mem::take(&mut sample));
                        if batch.bytes >= BATCH_BYTES || batch.samples.len() >= BATCH_SAMPLES {
                            let next = Samples {
                                shard: name.clone(),
                                ..Samples::default()
                            };
                            decide(&decided, &batch, opts.keep_json.is_some());
                            tx.send(std::mem::replace(&mut batch, next))?;
                        }
                    }
                    sample.key = key.to_string();
                }
                if sample.members.len() >= MAX_MEMBERS {
                    bail!(
                        "{name}: sample '{}' has more than {MAX_MEMBERS} members",
                        escape_name(sample.key.as_bytes())
                    );
                }
                if !sample.exts.insert(ext.clone()) {
                    bail!(
                        "{name}: sample '{}' has two .{ext} members",
                        escape_name(sample.key.as_bytes())
                    );
                }
                // Names and extensions are held too: they count. Checked
                // from the header, before the member's bytes are read: a
                // member that takes its sample over the limit (one of
                // exactly the limit, with its name) is refused unread.
                let names = head.name.len() + 2 * ext.len() + head.feature.as_ref().map_or(0, String::len);
                sample.size = sample.size.saturating_add(head.size).saturating_add(names as u64);
                if sample.size > opts.max_record_size {
                    bail!(
                        "{name}: sample '{}' holds more than {} bytes with its names (--max-record-size)",
                        escape_name(sample.key.as_bytes()),
                        opts.max_record_size
                    );
                }
                let data = walk.read(&head)?;
                let Head {
                    name: member, feature, ..
                } = head;
                sample.members.push((
                    ext,
                    Member {
                        name: member,
                        feature,
                        data,
                    },
                ));
            }
            if !sample.members.is_empty() {
                batch.samples.push(sample);
            }
            // Samples never span shards; a batch holds one shard's.
            let next = Samples::default();
            decide(&decided, &batch, opts.keep_json.is_some());
            tx.send(std::mem::replace(&mut batch, next))?;
        }
        Ok(())
    };
    let how = How {
        forced: opts.forced,
        decided: &decided,
        key: opts.key,
        keep_json: opts.keep_json,
        schema: opts.schema.as_ref(),
        rename: opts.rename,
    };
    // The features whose integers are written as floats, with a version:
    // a worker whose encoder is older makes a new one.
    let coerced = RwLock::new((0u64, Schema::default()));
    let work = |batch: &mut Samples, out: &mut Encoded| -> Result<()> {
        let (version, floats) = {
            let shared = coerced.read().unwrap_or_else(|e| e.into_inner());
            let stale = out.encoder.as_ref().is_none_or(|(v, _)| *v != shared.0);
            (shared.0, stale.then(|| shared.1.clone()))
        };
        let (_, mut encoder) = match floats {
            Some(floats) => (version, new_encoder(&how, floats)),
            None => out.encoder.take().expect("an encoder of this version"),
        };
        let result = encode_batch(&batch.samples, &batch.shard, &mut encoder, &how, out);
        out.encoder = Some((version, encoder));
        // Kept for the writer, which encodes them again when a float
        // feature's integers turn up.
        out.samples = std::mem::take(&mut batch.samples);
        out.shard = std::mem::take(&mut batch.shard);
        result
    };
    // The writer's error, kept whole (the pipeline's sink says only that
    // it stopped).
    let mut failed = None;
    let mut kinds: HashMap<(Section, Vec<u8>), (Kind, String)> = HashMap::new();
    let mut converted = Converted::default();
    let sink = |encoded: &Encoded| {
        update(encoded.bytes.len() as u64);
        let settled = settle(&mut kinds, &coerced, encoded, &how, &mut converted);
        settled.and_then(|bytes| write(&bytes)).map_err(|e| {
            failed = Some(e);
            std::io::Error::other(pipeline::Stopped)
        })
    };
    let result = pipeline::run(opts.workers, produce, work, sink);
    match failed {
        Some(e) => Err(e),
        None => result.map(|()| {
            converted.unmatched = (opts.rename.iter().enumerate())
                .filter(|(k, _)| !converted.renamed.get(*k).copied().unwrap_or(false))
                .map(|(_, (old, _))| old.clone())
                .collect();
            converted
        }),
    }
}

/// The message type of every sample, from the first one's `.json` (a
/// SequenceExample's, with `context` or `feature_lists`, or an Example),
/// once there is a first sample.
fn decide(decided: &std::sync::OnceLock<MessageType>, batch: &Samples, keep_json: bool) {
    let Some(first) = batch.samples.first() else {
        return;
    };
    decided.get_or_init(|| {
        let json = first.members.iter().find(|(ext, _)| ext == "json" && !keep_json);
        match json.map(|(_, m)| json::detect(JsonFormat::Natural, m.data.trim_ascii())) {
            Some(MessageType::SequenceExample) => MessageType::SequenceExample,
            _ => MessageType::Example,
        }
    });
}

/// An encoder of `.json` members: `--schema`'s kinds, and `floats`'
/// integers read as floats.
fn new_encoder(how: &How<'_>, floats: Schema) -> Encoder {
    Encoder::new(JsonFormat::Natural, how.schema.cloned()).coercing(floats)
}

/// Encodes the samples of one shard into `out`: framed records, the kinds
/// of their `.json` features (each the first time in the batch), and the
/// features kept as JSON text.
fn encode_batch(
    samples: &[Sample],
    shard: &str,
    encoder: &mut Encoder,
    how: &How<'_>,
    out: &mut Encoded,
) -> Result<()> {
    // (A name is copied only the first time: most samples of a dataset
    // repeat the kinds already seen.)
    let mut firsts: HashMap<Vec<u8>, Vec<(Section, Kind)>> = HashMap::new();
    out.renamed.resize_with(how.rename.len(), Default::default);
    for sample in samples {
        let at = || format!("{shard}:{}", escape_name(sample.key.as_bytes()));
        let seen = &mut out.kinds;
        let mut kinds = |section: Section, name: &[u8], kind: Kind| {
            if firsts.get(name).is_some_and(|seen| seen.contains(&(section, kind))) {
                return;
            }
            firsts.entry(name.to_vec()).or_default().push((section, kind));
            seen.push(SeenKind {
                section,
                name: name.to_vec(),
                kind,
                at: at(),
            });
        };
        let kept = &mut out.kept;
        let mut keep = |name: &str| match kept.iter_mut().find(|(n, _, _)| n == name) {
            Some((_, count, _)) => *count += 1,
            None => kept.push((name.to_string(), 1, at())),
        };
        let renamed = &out.renamed;
        let found = |k: usize| renamed[k].set(true);
        append_framed(&mut out.bytes, |b| {
            let mut notes = Notes {
                kinds: &mut kinds,
                kept: &mut keep,
                renamed: &found,
            };
            sample.encode(encoder, how, shard, b, &mut notes)
        })?;
    }
    Ok(())
}

/// The records of a worker's batch as they are written, once its kinds
/// agree with the first samples' ([`check_kinds`]): as encoded, or, when
/// a float feature's integers turned up, encoded again with them as
/// floats (and the workers told).
fn settle<'e>(
    first: &mut HashMap<(Section, Vec<u8>), (Kind, String)>,
    coerced: &RwLock<(u64, Schema)>,
    encoded: &'e Encoded,
    how: &How<'_>,
    converted: &mut Converted,
) -> Result<Cow<'e, [u8]>> {
    // (An output no batch went through has none: the flags only grow.)
    if converted.renamed.len() < encoded.renamed.len() {
        converted.renamed.resize(encoded.renamed.len(), false);
    }
    for (seen, applied) in converted.renamed.iter_mut().zip(&encoded.renamed) {
        *seen |= applied.get();
    }
    for (name, count, at) in &encoded.kept {
        match converted.kept.iter_mut().find(|(n, _, _)| n == name) {
            Some((_, total, _)) => *total += count,
            None => converted.kept.push((name.clone(), *count, at.clone())),
        }
    }
    let floats = check_kinds(first, &encoded.kinds, true)?;
    if floats.is_empty() {
        return Ok(Cow::Borrowed(&encoded.bytes));
    }
    let schema = {
        let mut shared = coerced.write().unwrap_or_else(|e| e.into_inner());
        for s in floats {
            let map = match s.section {
                Section::Features => &mut shared.1.features,
                Section::Context => &mut shared.1.context,
                Section::FeatureLists => &mut shared.1.feature_lists,
            };
            let name = String::from_utf8_lossy(&s.name).into_owned();
            if map.insert(name, Kind::Float).is_none() {
                converted.coerced.push((s.section.path(&s.name, None), s.at.clone()));
            }
        }
        shared.0 += 1;
        shared.1.clone()
    };
    let mut again = Encoded::default();
    let mut encoder = new_encoder(how, schema);
    encode_batch(&encoded.samples, &encoded.shard, &mut encoder, how, &mut again)?;
    // Integers in the typed form ({"int64_list": [...]}) stay integers.
    check_kinds(first, &again.kinds, false)?;
    Ok(Cow::Owned(again.bytes))
}

/// A worker's batch encoded: the framed records, the kinds their `.json`
/// features have (each the first time in the batch), the features kept as
/// JSON text (name, samples, the first), and the samples themselves.
#[derive(Default)]
struct Encoded {
    bytes: Vec<u8>,
    kinds: Vec<SeenKind>,
    kept: Vec<(String, u64, String)>,
    samples: Vec<Sample>,
    shard: String,
    /// Which `--rename`s were applied (by index).
    renamed: Vec<std::cell::Cell<bool>>,
    /// The worker's encoder, and the version of the coerced floats it
    /// was made with.
    encoder: Option<(u64, Encoder)>,
}

impl pipeline::Output for Encoded {
    fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.kinds.is_empty() && self.kept.is_empty()
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.kinds.clear();
        self.kept.clear();
        self.samples.clear();
        self.renamed.iter().for_each(|r| r.set(false));
    }
}

/// A feature's kind in a sample (`SHARD:KEY`).
struct SeenKind {
    section: Section,
    name: Vec<u8>,
    kind: Kind,
    at: String,
}

/// One kind per feature across the samples (TensorFlow parses one kind
/// per feature): a later sample whose `.json` gives a feature another kind
/// than the first sample that had it is an error naming both (nothing is
/// written: the output is not committed), except integers in a feature
/// first seen as float, when `coerce` allows: those are returned, to be
/// written as floats.
fn check_kinds<'s>(
    first: &mut HashMap<(Section, Vec<u8>), (Kind, String)>,
    seen: &'s [SeenKind],
    coerce: bool,
) -> Result<Vec<&'s SeenKind>> {
    let mut floats = Vec::new();
    for s in seen {
        match first.get(&(s.section, s.name.clone())) {
            None => {
                first.insert((s.section, s.name.clone()), (s.kind, s.at.clone()));
            }
            Some((kind, _)) if *kind == s.kind => {}
            Some((Kind::Float, _)) if coerce && s.kind == Kind::Int64 => floats.push(s),
            Some((kind, at)) => {
                let whole = if matches!((kind, s.kind), (Kind::Int64, Kind::Float) | (Kind::Float, Kind::Int64)) {
                    "whole numbers read as int64: pin the kind with --schema, write 1.0, or use {\"float_list\": [...]}"
                } else {
                    "pin the kind with --schema, or use the typed form ({\"bytes_list\": [...]} etc.)"
                };
                bail!(
                    "feature {} changes kind: {} at {at}, {} at {} (tf.io.parse_example reads one kind per feature; {whole} in the .json)",
                    s.section.path(&s.name, None),
                    kind.name(),
                    s.kind.name(),
                    s.at
                );
            }
        }
    }
    Ok(floats)
}

/// A batch of samples for a worker: about this many bytes of members...
const BATCH_BYTES: u64 = 1 << 20;
/// ... or this many samples.
const BATCH_SAMPLES: usize = 1024;

/// Samples of one shard, for a worker.
#[derive(Default)]
struct Samples {
    shard: String,
    samples: Vec<Sample>,
    bytes: u64,
}

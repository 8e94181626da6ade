//! WebDataset shards back into TFRecord records, one Example per sample
//! (`tfr from-wds`).
//!
//! Members are grouped into samples as the `webdataset` library groups
//! them ([`split_name`]: the key runs to the first `.` of the last part of
//! the name; a sample is a run of members with one key, never across
//! shards). A sample becomes a payload ([`Sample::encode`]): its `.json`
//! through the JSONL encoder ([`Encoder`]), then a feature per other
//! member (`.cls`: int64; others: bytes), named by the member's PAX record
//! [`PAX_FEATURE`] (what to-wds writes) or else by its extension. The
//! reading thread walks the tars ([`Walk`]); samples are encoded on
//! workers ([`pipeline::run`]) and written in order.

use super::archive::{split_name, Head, Member, Walk};
#[cfg(doc)]
use super::PAX_FEATURE;
use crate::error::{bail, Context, Result};
use crate::example::json::{self, Encoder, JsonFormat, Section};
use crate::example::wire::{put_field as field, put_varint as varint};
use crate::example::Kind;
use crate::example::MessageType;
use crate::io::input::escape_name;
use crate::io::Input;
use crate::pipeline;
use crate::record::append_framed;
use std::collections::{HashMap, HashSet};

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
        forced: Option<MessageType>,
        key_feature: Option<&str>,
        shard: &str,
        out: &mut Vec<u8>,
        kinds: &mut dyn FnMut(Section, &[u8], Kind),
    ) -> Result<()> {
        let at = || format!("{shard}: sample '{}'", escape_name(self.key.as_bytes()));
        let json = self.members.iter().find(|(ext, _)| ext == "json");
        let others = self.members.iter().filter(|(ext, _)| ext != "json");
        // The features (an Example's; a SequenceExample's context) and the
        // message's other fields (its feature lists), as wire bytes.
        let mut features = Vec::new();
        let mut rest = Vec::new();
        let mut had_features = false;
        if let Some((_, m)) = json {
            let line = m.data.trim_ascii();
            let ty = match forced.unwrap_or_else(|| json::detect(JsonFormat::Natural, line)) {
                MessageType::SequenceExample => MessageType::SequenceExample,
                _ => MessageType::Example,
            };
            let mut payload = Vec::new();
            encoder.encode(ty, line, &mut payload).map_err(|e| {
                crate::error::err!(
                    "{}: {}.json: column {}: {}",
                    at(),
                    escape_name(self.key.as_bytes()),
                    e.column(line),
                    e
                )
            })?;
            encoder.for_each_kind(|section, name, kind, _| {
                if kind != Kind::None {
                    kinds(section, name, kind);
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
        for (ext, m) in self.members.iter().filter(|(ext, _)| ext != "json") {
            once(m.feature.as_deref().unwrap_or(ext))?;
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
            let name = m.feature.as_deref().unwrap_or(ext);
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
) -> Result<()> {
    let forced = opts.forced;
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
            tx.send(std::mem::replace(&mut batch, next))?;
        }
        Ok(())
    };
    let key = opts.key;
    let work = |batch: &mut Samples, out: &mut Encoded| -> Result<()> {
        thread_local! {
            static ENCODER: std::cell::RefCell<Encoder> = std::cell::RefCell::new(Encoder::new(JsonFormat::Natural, None));
        }
        ENCODER.with_borrow_mut(|encoder| {
            // Each feature's kinds, the first sample of each in the batch.
            // (A name is copied only the first time: most samples of a
            // dataset repeat the kinds already seen.)
            let mut firsts: HashMap<Vec<u8>, Vec<(Section, Kind)>> = HashMap::new();
            for sample in &batch.samples {
                let mut kinds = |section: Section, name: &[u8], kind: Kind| {
                    if firsts.get(name).is_some_and(|seen| seen.contains(&(section, kind))) {
                        return;
                    }
                    firsts.entry(name.to_vec()).or_default().push((section, kind));
                    out.kinds.push(SeenKind {
                        section,
                        name: name.to_vec(),
                        kind,
                        at: format!("{}:{}", batch.shard, escape_name(sample.key.as_bytes())),
                    });
                };
                append_framed(&mut out.bytes, |b| {
                    sample.encode(encoder, forced, key, &batch.shard, b, &mut kinds)
                })?;
            }
            Ok(())
        })
    };
    // The writer's error, kept whole (the pipeline's sink says only that
    // it stopped).
    let mut failed = None;
    let mut kinds: HashMap<(Section, Vec<u8>), (Kind, String)> = HashMap::new();
    let sink = |encoded: &Encoded| {
        update(encoded.bytes.len() as u64);
        let checked = check_kinds(&mut kinds, &encoded.kinds);
        checked.and_then(|()| write(&encoded.bytes)).map_err(|e| {
            failed = Some(e);
            std::io::Error::other(pipeline::Stopped)
        })
    };
    let result = pipeline::run(opts.workers, produce, work, sink);
    match failed {
        Some(e) => Err(e),
        None => result,
    }
}

/// A worker's batch encoded: the framed records, and the kinds their
/// `.json` features have (each the first time in the batch).
#[derive(Default)]
struct Encoded {
    bytes: Vec<u8>,
    kinds: Vec<SeenKind>,
}

impl pipeline::Output for Encoded {
    fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.kinds.is_empty()
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.kinds.clear();
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
/// written: the output is not committed).
fn check_kinds(first: &mut HashMap<(Section, Vec<u8>), (Kind, String)>, seen: &[SeenKind]) -> Result<()> {
    for s in seen {
        match first.get(&(s.section, s.name.clone())) {
            None => {
                first.insert((s.section, s.name.clone()), (s.kind, s.at.clone()));
            }
            Some((kind, _)) if *kind == s.kind => {}
            Some((kind, at)) => {
                let whole = if matches!((kind, s.kind), (Kind::Int64, Kind::Float) | (Kind::Float, Kind::Int64)) {
                    "whole numbers read as int64: write 1.0, or force the kind with {\"float_list\": [...]}"
                } else {
                    "force one kind with the typed form ({\"bytes_list\": [...]} etc.)"
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
    Ok(())
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

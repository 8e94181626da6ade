//! Which kind each feature has in `from-jsonl`: the kind of its first
//! value, in line order and then in order within the line, whatever `-j`;
//! the lines where plain values change kind, for the writer to reconcile
//! and for the warnings.

use super::{Encoder, Input, Kind, Section};
use std::collections::HashMap;

/// Where each feature was first seen with each kind, to warn when a
/// feature's kind changes between lines: TensorFlow parses a feature as one
/// kind, and jq 1.6 (among others) prints a float `1.0` as `1`, which then
/// reads as int64.
///
/// Plain values (whose kind is read from how they look) and typed ones
/// (`{"float_list": ...}`, protojson) are kept apart: a typed value is
/// never a change of kind, but the first value of a feature settles its
/// kind whichever it is. Typed values are noted only when first of their
/// name in their line ([`Encoder::for_each_kind`]), so on one line a typed
/// value came before the plain ones: ties go to it.
#[derive(Default)]
pub(super) struct KindLog {
    /// Per feature: the first line with each kind (int64, float, bytes)
    /// of a plain value, then of a typed value, packed by [`pack`] (0: not
    /// seen). Keyed by the section's byte ([`section_key`]) and the name.
    pub(super) first: HashMap<Box<[u8]>, Firsts>,
    /// Names seen past [`KIND_NAMES`], not tracked.
    pub(super) untracked: bool,
}

/// A feature's first lines: plain int64, float, bytes; typed int64, float, bytes.
pub(super) type Firsts = [u64; 6];

const KINDS: [Kind; 3] = [Kind::Int64, Kind::Float, Kind::Bytes];

/// The first value of a feature: its kind and line (the slot with the
/// earliest line; a typed one on a tie).
fn first_of(firsts: &Firsts) -> Option<(Kind, u64)> {
    let slot = (0..6).filter(|&i| firsts[i] > 0).min_by_key(|&i| (firsts[i], i < 3))?;
    Some((KINDS[slot % 3], firsts[slot]))
}

/// The kinds a feature is seen with that matter: its first value's, and
/// those of its plain values; for each, where it was first seen.
fn kinds_seen(firsts: &Firsts) -> Vec<(u64, Kind)> {
    let first = first_of(firsts);
    KINDS
        .iter()
        .enumerate()
        .filter_map(|(i, &kind)| match first {
            Some((k, at)) if k == kind => Some((at, kind)),
            _ => (firsts[i] > 0).then_some((firsts[i], kind)),
        })
        .collect()
}

/// Whether a plain value of the feature has another kind than its first value.
fn changes(firsts: &Firsts) -> bool {
    match first_of(firsts) {
        None => false,
        Some((kind, _)) => KINDS.iter().enumerate().any(|(i, &k)| k != kind && firsts[i] > 0),
    }
}

/// Feature names whose kinds are tracked (memory stays bounded with
/// millions of distinct names); kind changes of later names go unreported.
/// Each batch's log keeps its first `KIND_NAMES` too (a single line may
/// hold a million names); past that the warning says tracking was partial.
pub(super) const KIND_NAMES: usize = 20_000;

/// A line as one number ordered like (input, line): the input in the top
/// 24 bits, the line + 1 in the low 40 (0 is "not seen"); beyond 16M inputs
/// or 1T lines the numbers saturate (the order of such lines may be off).
pub(super) fn pack((input, line): Line) -> u64 {
    let input = (input as u64).min((1 << 24) - 1);
    (input << 40) | line.saturating_add(1).min((1 << 40) - 1)
}

/// A feature's key in a [`KindLog`]: its section's byte, then its name.
fn section_key(section: Section, name: &[u8]) -> Vec<u8> {
    let tag = match section {
        Section::Features => 0,
        Section::Context => 1,
        Section::FeatureLists => 2,
    };
    let mut key = Vec::with_capacity(name.len() + 1);
    key.push(tag);
    key.extend_from_slice(name);
    key
}

fn split_key(key: &[u8]) -> (Section, &[u8]) {
    let section = match key[0] {
        0 => Section::Features,
        1 => Section::Context,
        _ => Section::FeatureLists,
    };
    (section, &key[1..])
}

fn unpack(packed: u64) -> Option<Line> {
    match packed {
        0 => None,
        p => Some(((p >> 40) as usize, (p & ((1 << 40) - 1)) - 1)),
    }
}
/// Features of one line remembered to skip map lookups on the next line.
const LAST_LINE_MAX: usize = 4096;

/// A line: input index and line number, in stream order.
pub(super) type Line = (usize, u64);

/// The feature kinds of the previous line of a batch: a line with the same
/// features in the same order (the usual case) needs no map lookups.
#[derive(Default)]
pub(super) struct LastLine(Vec<(Section, Vec<u8>, Kind, bool)>);

impl KindLog {
    /// Notes `name` with `kind` (`typed`: written out) at `at`, unless
    /// `cap` names are tracked and it is not one of them.
    pub(super) fn note(&mut self, section: Section, name: &[u8], kind: Kind, typed: bool, at: u64, cap: usize) {
        let slot = match kind {
            Kind::Int64 => 0,
            Kind::Float => 1,
            Kind::Bytes => 2,
            Kind::None => return,
        } + if typed { 3 } else { 0 };
        self.note_slot(section, name, slot, at, cap);
    }

    fn note_slot(&mut self, section: Section, name: &[u8], slot: usize, at: u64, cap: usize) {
        let key = section_key(section, name);
        if self.first.len() >= cap && !self.first.contains_key(&key[..]) {
            self.untracked = true;
            return;
        }
        let firsts = match self.first.get_mut(&key[..]) {
            Some(firsts) => firsts,
            None => self.first.entry(key.into_boxed_slice()).or_default(),
        };
        if firsts[slot] == 0 || at < firsts[slot] {
            firsts[slot] = at;
        }
    }

    /// Notes the kinds of the line just encoded.
    pub(super) fn note_line(&mut self, encoder: &Encoder, last: &mut LastLine, at: Line) {
        let (at, mut i) = (pack(at), 0);
        encoder.for_each_kind(|section, name, kind, typed| {
            if i >= LAST_LINE_MAX {
                self.note(section, name, kind, typed, at, KIND_NAMES);
                return;
            }
            match last.0.get_mut(i) {
                Some((s, n, k, t)) if *s == section && *k == kind && *t == typed && n[..] == *name => {}
                Some(entry) => {
                    self.note(section, name, kind, typed, at, KIND_NAMES);
                    *entry = (section, name.to_vec(), kind, typed);
                }
                None => {
                    self.note(section, name, kind, typed, at, KIND_NAMES);
                    last.0.push((section, name.to_vec(), kind, typed));
                }
            }
            i += 1;
        });
        last.0.truncate(i.min(LAST_LINE_MAX));
    }

    /// A feature's kind: the kind of its first value, and that value's line.
    pub(super) fn established(&self, section: Section, name: &[u8]) -> Option<(Kind, Line)> {
        let (kind, at) = first_of(self.first.get(&section_key(section, name)[..])?)?;
        Some((kind, unpack(at)?))
    }

    /// Whether a batch's kinds, taken with those seen before, give some
    /// feature a plain value of another kind than its first value's.
    pub(super) fn conflicts(&self, batch: &KindLog) -> bool {
        batch.first.iter().any(|(key, firsts)| {
            let before = self.first.get(key).copied().unwrap_or_default();
            let mut both = *firsts;
            for (a, b) in both.iter_mut().zip(before) {
                if *a == 0 || (b > 0 && b < *a) {
                    *a = b;
                }
            }
            changes(&both)
        })
    }

    pub(super) fn merge(&mut self, other: &KindLog) {
        self.untracked |= other.untracked;
        // In the order the names first appear, so that which names fit
        // under the limit does not depend on hashing.
        let mut entries: Vec<_> = other.first.iter().collect();
        let first_seen = |firsts: &Firsts| firsts.iter().copied().filter(|&at| at > 0).min();
        entries.sort_by(|(a, fa), (b, fb)| first_seen(fa).cmp(&first_seen(fb)).then(a.cmp(b)));
        for (key, firsts) in entries {
            let (section, name) = split_key(key);
            for (slot, &at) in firsts.iter().enumerate() {
                if at > 0 {
                    self.note_slot(section, name, slot, at, KIND_NAMES);
                }
            }
        }
    }

    /// One warning line per feature whose plain values change kind.
    pub(super) fn warnings(&self, inputs: &[Input]) -> Vec<String> {
        const MAX: usize = 20;
        let mut mixed: Vec<_> = self
            .first
            .iter()
            .filter(|(_, f)| changes(f))
            .map(|(key, firsts)| {
                let (section, name) = split_key(key);
                let mut kinds: Vec<(Line, &str)> = kinds_seen(firsts)
                    .into_iter()
                    .filter_map(|(at, kind)| Some((unpack(at)?, kind_name(kind))))
                    .collect();
                kinds.sort();
                let list = matches!(section, Section::FeatureLists);
                (kinds[1].0, section.path(name, None), kinds, list)
            })
            .collect();
        // In the order the changes happen.
        mixed.sort();
        let mut lines = Vec::new();
        for (_, path, kinds, list) in mixed.iter().take(MAX) {
            lines.push(format!("warning: {}", change_text(inputs, path, kinds, *list, false)));
        }
        if self.untracked {
            lines.push(format!(
                "warning: kind changes are tracked for the first {KIND_NAMES} distinct feature names only"
            ));
        }
        if mixed.len() > MAX {
            lines.push(format!("warning: {} more features change kind", mixed.len() - MAX));
        }
        lines
    }
}

/// "feature X changes kind: K at FILE:LINE, ..." with what TensorFlow
/// makes of it and how to settle the kind.
fn change_text(inputs: &[Input], path: &str, kinds: &[(Line, &str)], list: bool, stops: bool) -> String {
    let seen: Vec<String> = kinds
        .iter()
        .map(|((input, line), kind)| format!("{kind} at {}:{line}", inputs[*input].display()))
        .collect();
    let names: Vec<&str> = kinds.iter().map(|(_, k)| *k).collect();
    let hint = if names.len() == 2 && names.contains(&"int64") && names.contains(&"float") {
        "whole numbers read as int64: write 1.0, or force the kind with {\"float_list\": [...]} or --schema"
    } else {
        "force one kind with the typed form ({\"bytes_list\": [...]} etc.) or --schema"
    };
    // Within a feature list the steps of one record changing kind
    // make TensorFlow reject that record (verify-crc --payloads
    // flags it); across records, each parse reads one kind.
    let reads = if list {
        "tf.io.parse_sequence_example reads one kind per feature list and rejects a record whose steps differ in kind"
    } else {
        "tf.io.parse_example reads one kind per feature"
    };
    let keep = if stops {
        "; --on-kind-change keep writes the lines as they read"
    } else {
        ""
    };
    format!(
        "feature {path} changes kind: {} ({reads}; {hint}{keep})",
        seen.join(", ")
    )
}

/// [`change_text`] for a change found while writing.
pub(super) fn change_message(
    inputs: &[Input],
    section: Section,
    name: &[u8],
    kinds: &[(Line, Kind)],
    stops: bool,
) -> String {
    let kinds: Vec<(Line, &str)> = kinds.iter().map(|&(at, kind)| (at, kind_name(kind))).collect();
    let list = matches!(section, Section::FeatureLists);
    change_text(inputs, &section.path(name, None), &kinds, list, stops)
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Int64 => "int64",
        Kind::Float => "float",
        _ => "bytes",
    }
}

#[cfg(test)]
mod kind_log_tests {
    use super::*;

    #[test]
    fn packed_lines_keep_their_order_and_value() {
        let lines: [Line; 5] = [(0, 0), (0, 1), (0, 1 << 30), (1, 0), (70_000, 5)];
        for pair in lines.windows(2) {
            assert!(pack(pair[0]) < pack(pair[1]), "{pair:?}");
        }
        for line in lines {
            assert_eq!(unpack(pack(line)), Some(line));
        }
        assert_eq!(unpack(0), None);
        for section in [Section::Features, Section::Context, Section::FeatureLists] {
            let key = section_key(section, b"name");
            assert_eq!(split_key(&key), (section, &b"name"[..]));
        }
    }
}

//! The first kind of each feature name over a whole output, so that a
//! value whose name had another kind in an *earlier record* is written in
//! the typed form too ([`super::seen`] does it within one record).
//!
//! `from-jsonl` gives a plain value its feature's first kind in line
//! order. Records are rendered by several workers out of order, so the
//! first kinds are settled by the one thread that writes the lines, in
//! order ([`KindFix`]), and published to the workers from time to time
//! ([`KindTable`]): a worker writes a value of a name already published
//! exactly as it must be, and notes every value of a name it does not know
//! yet ([`KindNote`]: its kind and where its text is). The writer settles
//! the noted values in order and rewrites the few whose form was guessed
//! wrong: `[1]` becomes `{"int64_list":[1]}` or back. A record rendered
//! in pieces (one larger than a batch) cannot be rewritten once a piece is
//! out, so its values of unknown names are all written typed, which reads
//! back the same whichever value was first.

use crate::example::view::Kind;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, RwLock};

/// Names whose first kind is kept: past this many (a dataset whose every
/// record has new names), a value of a name not kept is written typed.
const MAX_NAMES: usize = 1 << 20;

/// Up to this many names, every batch that adds one publishes the table
/// (a cheap copy); past it, when the table has doubled.
const PUBLISH_ALWAYS: usize = 4096;

/// Name hashes (already mixed, see [`super::seen`]) to first kinds.
pub(crate) type Kinds = HashMap<u64, Kind, BuildHasherDefault<Mixed>>;

/// A hasher for keys that are already good hashes.
#[derive(Default)]
pub(crate) struct Mixed(u64);

impl Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The first kinds settled so far, as the workers see them.
#[derive(Default)]
pub struct KindTable {
    published: RwLock<Arc<Kinds>>,
}

impl KindTable {
    /// An empty table.
    pub fn new() -> KindTable {
        KindTable::default()
    }

    /// The first kinds published so far (they never change once settled).
    pub(crate) fn snapshot(&self) -> Arc<Kinds> {
        match self.published.read() {
            Ok(p) => Arc::clone(&p),
            Err(_) => Arc::default(),
        }
    }
}

/// A value a worker could not judge: its name's hash and its kind, and
/// where its text is in the batch's output (none: written typed, in a
/// record rendered in pieces).
#[derive(Clone, Copy, Debug)]
pub struct KindNote {
    hash: u64,
    kind: Kind,
    span: Option<(usize, usize)>,
}

/// What a worker renders with: the published first kinds and the notes of
/// its batch.
pub struct Tracking {
    known: Arc<Kinds>,
    /// The values of names not yet published, noted for the writer.
    pub notes: Vec<KindNote>,
    /// Whether the text of a value stays where it was written (false for a
    /// record rendered in pieces).
    spans: bool,
}

impl Tracking {
    /// Tracking against `table`'s names as published now, noting into
    /// `notes` (reused); `spans`: whether each value's text stays where it
    /// was written (a record rendered whole).
    pub fn new(table: &KindTable, notes: Vec<KindNote>, spans: bool) -> Tracking {
        Tracking {
            known: table.snapshot(),
            notes,
            spans,
        }
    }

    /// The first kind of name hash `h`, if settled and published.
    #[inline]
    pub fn known(&self, h: u64) -> Option<Kind> {
        if self.known.is_empty() {
            return None;
        }
        self.known.get(&h).copied()
    }

    /// Whether a noted value's text can be rewritten; if not it must be
    /// written typed.
    #[inline]
    pub fn spans(&self) -> bool {
        self.spans
    }

    /// Notes a value of an unknown name, its text at `start..end`.
    #[inline]
    pub fn note(&mut self, hash: u64, kind: Kind, start: usize, end: usize) {
        let span = self.spans.then_some((start, end));
        self.notes.push(KindNote { hash, kind, span });
    }
}

/// The writer's side: settles the noted values in output order and
/// rewrites the ones written in the wrong form.
pub struct KindFix<'t> {
    table: &'t KindTable,
    first: Kinds,
    published: usize,
    buf: Vec<u8>,
}

/// A rewrite of one value's text.
enum Edit {
    /// Into the typed form of this kind.
    Wrap(Kind),
    /// Out of it: the prefix's length.
    Unwrap(usize),
}

impl<'t> KindFix<'t> {
    /// Settles the first kinds of `table`'s output.
    pub fn new(table: &'t KindTable) -> KindFix<'t> {
        KindFix {
            table,
            first: Kinds::default(),
            published: 0,
            buf: Vec::new(),
        }
    }

    /// The lines `bytes` (a batch's output, whose unknown values are
    /// `notes`) as they must be written.
    pub fn fix<'b>(&'b mut self, bytes: &'b [u8], notes: &[KindNote]) -> &'b [u8] {
        if notes.is_empty() {
            return bytes;
        }
        let mut edits = Vec::new();
        for n in notes {
            let typed = match self.first.get(&n.hash) {
                Some(&first) => first != n.kind,
                None if self.first.len() < MAX_NAMES => {
                    self.first.insert(n.hash, n.kind);
                    false
                }
                None => true,
            };
            let Some((start, end)) = n.span else { continue };
            let text = &bytes[start..end];
            let written = text.first() == Some(&b'{');
            if typed && !written {
                edits.push((start, end, Edit::Wrap(n.kind)));
            } else if !typed && written {
                let prefix = super::typed_key(n.kind).len();
                if text.len() > prefix && !plain_is_ambiguous(n.kind, &text[prefix..text.len() - 1]) {
                    edits.push((start, end, Edit::Unwrap(prefix)));
                }
            }
        }
        self.publish();
        if edits.is_empty() {
            return bytes;
        }
        self.buf.clear();
        let mut at = 0;
        for (start, end, edit) in edits {
            self.buf.extend_from_slice(&bytes[at..start]);
            match edit {
                Edit::Wrap(kind) => {
                    self.buf.extend_from_slice(super::typed_key(kind));
                    self.buf.extend_from_slice(&bytes[start..end]);
                    self.buf.push(b'}');
                }
                Edit::Unwrap(prefix) => self.buf.extend_from_slice(&bytes[start + prefix..end - 1]),
            }
            at = end;
        }
        self.buf.extend_from_slice(&bytes[at..]);
        &self.buf
    }

    /// Hands the workers the first kinds settled so far, when it is worth
    /// a copy.
    fn publish(&mut self) {
        let n = self.first.len();
        if n == self.published || (n > PUBLISH_ALWAYS && n < 2 * self.published) {
            return;
        }
        if let Ok(mut p) = self.table.published.write() {
            *p = Arc::new(self.first.clone());
            self.published = n;
        }
    }
}

/// Whether a value's plain form `inner` would read back as another kind:
/// an empty list, or floats none of which is finite (only a finite float
/// is written with a digit).
fn plain_is_ambiguous(kind: Kind, inner: &[u8]) -> bool {
    inner == b"[]" || (kind == Kind::Float && !inner.iter().any(u8::is_ascii_digit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(hash: u64, kind: Kind, span: (usize, usize)) -> KindNote {
        KindNote {
            hash,
            kind,
            span: Some(span),
        }
    }

    /// Where `value` is in `line` (its `n`-th occurrence).
    fn at(line: &[u8], value: &str, n: usize) -> (usize, usize) {
        let v = value.as_bytes();
        let start = (0..line.len()).filter(|&i| line[i..].starts_with(v)).nth(n).unwrap();
        (start, start + v.len())
    }

    #[test]
    fn later_values_of_another_kind_are_wrapped_and_wrong_guesses_unwrapped() {
        let table = KindTable::new();
        let mut fix = KindFix::new(&table);
        let line = b"{\"x\":[0.5],\"y\":[\"a\"]}\n";
        let notes = [
            note(1, Kind::Float, at(line, "[0.5]", 0)),
            note(2, Kind::Bytes, at(line, "[\"a\"]", 0)),
        ];
        assert_eq!(fix.fix(line, &notes), line);
        assert_eq!(table.snapshot().get(&1), Some(&Kind::Float));
        let line = b"{\"x\":[100]}\n";
        let notes = [note(1, Kind::Int64, at(line, "[100]", 0))];
        assert_eq!(fix.fix(line, &notes), b"{\"x\":{\"int64_list\":[100]}}\n");
        // A record whose first y is an int64 (guessed plain, its bytes
        // typed): y was bytes first in an earlier record.
        let line = b"{\"y\":[1],\"y\":{\"bytes_list\":[\"b\"]}}\n";
        let notes = [
            note(2, Kind::Int64, at(line, "[1]", 0)),
            note(2, Kind::Bytes, at(line, "{\"bytes_list\":[\"b\"]}", 0)),
        ];
        assert_eq!(fix.fix(line, &notes), b"{\"y\":{\"int64_list\":[1]},\"y\":[\"b\"]}\n");
        // A typed form that must stay: empty, or no finite float.
        let line = b"{\"x\":{\"float_list\":[\"NaN\"]},\"z\":{\"int64_list\":[]}}\n";
        let notes = [
            note(1, Kind::Float, at(line, "{\"float_list\":[\"NaN\"]}", 0)),
            note(3, Kind::Int64, at(line, "{\"int64_list\":[]}", 0)),
        ];
        assert_eq!(fix.fix(line, &notes), line);
        // Past the names kept, values of new names are typed.
        for h in 10..(MAX_NAMES as u64 + 10) {
            fix.first.insert(h, Kind::Bytes);
        }
        let line = b"{\"w\":[1]}\n";
        let notes = [note(5, Kind::Int64, at(line, "[1]", 0))];
        assert_eq!(fix.fix(line, &notes), b"{\"w\":{\"int64_list\":[1]}}\n");
    }
}

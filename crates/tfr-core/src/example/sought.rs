//! [`Sought`]: whether the feature names a command reads (`--where`,
//! `count --by`, `split --by`) were found in any record read, so that a
//! misspelt name (`label` for `image/class/label`) is a warning, or an
//! error under `--strict`, instead of a silently empty or lopsided result.
//!
//! Names are looked up on every record only until each has been found
//! once (one atomic load per record after that); while one is missing, the
//! feature names of the first records read are also searched for a likely
//! meant one (the same name in another case, a name ending in `/NAME`,
//! `_NAME`, `.NAME` or `:NAME`, or one a few edits away), which the message
//! suggests.

use super::view::FeaturesView;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Names sought in the records read, shared by the threads that read them.
#[derive(Debug)]
pub struct Sought {
    names: Vec<String>,
    seen: Vec<AtomicBool>,
    /// Names not found yet (0: nothing left to look for).
    left: AtomicUsize,
    /// Whether any record was looked at.
    looked: AtomicBool,
    /// Per name, the likeliest name meant, from the records read.
    hints: Mutex<Vec<Option<(u8, String)>>>,
    /// Records still searched for a likely name ([`HINT_RECORDS`] at
    /// first): a name never found costs one look-up per record after that.
    hint_records: AtomicUsize,
}

/// How many records are searched for the name a missing one may mean.
const HINT_RECORDS: usize = 256;

/// A name found in no record read, and the name it may have meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched {
    /// The name.
    pub name: String,
    /// A name seen that is close to it.
    pub hint: Option<String>,
}

impl std::fmt::Display for Unmatched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no record read has a feature '{}'", self.name)?;
        if let Some(h) = &self.hint {
            write!(f, " (did you mean '{h}'?)")?;
        }
        Ok(())
    }
}

impl Sought {
    /// Seeks `names` (repeats are sought once).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Sought {
        let mut distinct: Vec<String> = Vec::new();
        for n in names {
            if !distinct.iter().any(|d| d == n) {
                distinct.push(n.to_owned());
            }
        }
        let n = distinct.len();
        Sought {
            seen: (0..n).map(|_| AtomicBool::new(false)).collect(),
            left: AtomicUsize::new(n),
            looked: AtomicBool::new(false),
            hints: Mutex::new(vec![None; n]),
            hint_records: AtomicUsize::new(HINT_RECORDS),
            names: distinct,
        }
    }

    /// Notes the features of one record read (an Example's, a
    /// SequenceExample's context; `None`: a record without them).
    #[inline]
    pub fn note(&self, features: Option<FeaturesView<'_>>) {
        if self.left.load(Relaxed) == 0 {
            return;
        }
        self.note_slow(features);
    }

    #[cold]
    fn note_slow(&self, features: Option<FeaturesView<'_>>) {
        if !self.looked.load(Relaxed) {
            self.looked.store(true, Relaxed);
        }
        let Some(fs) = features else {
            return;
        };
        let hinting = self.hint_records.load(Relaxed) > 0;
        if hinting {
            let _ = self.hint_records.fetch_update(Relaxed, Relaxed, |n| n.checked_sub(1));
        }
        for (i, name) in self.names.iter().enumerate() {
            if self.seen[i].load(Relaxed) {
                continue;
            }
            if fs.raw_entries().any(|(k, _)| k == name.as_bytes()) {
                if !self.seen[i].swap(true, Relaxed) {
                    self.left.fetch_sub(1, Relaxed);
                }
                continue;
            }
            if !hinting {
                continue;
            }
            let best = fs
                .raw_entries()
                .filter_map(|(k, _)| {
                    let k = std::str::from_utf8(k).ok()?;
                    Some((likeness(name, k)?, k))
                })
                .min_by_key(|(rank, _)| *rank);
            if let Some((rank, k)) = best {
                let mut hints = self.hints.lock().unwrap_or_else(|e| e.into_inner());
                if hints[i].as_ref().is_none_or(|(r, _)| rank < *r) {
                    hints[i] = Some((rank, k.to_owned()));
                }
            }
        }
    }

    /// Marks `name` as found (a caller that looked it up itself).
    pub fn found(&self, name: &str) {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            if !self.seen[i].swap(true, Relaxed) {
                self.left.fetch_sub(1, Relaxed);
            }
        }
    }

    /// The names found in no record read (none when no record was read).
    pub fn unmatched(&self) -> Vec<Unmatched> {
        if !self.looked.load(Relaxed) || self.left.load(Relaxed) == 0 {
            return Vec::new();
        }
        let hints = self.hints.lock().unwrap_or_else(|e| e.into_inner());
        self.names
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.seen[*i].load(Relaxed))
            .map(|(i, name)| Unmatched {
                name: name.clone(),
                hint: hints[i].as_ref().map(|(_, h)| h.clone()),
            })
            .collect()
    }
}

/// How likely `key` is the name meant by `name` (lower is likelier), or
/// `None` when it is not a likely one.
fn likeness(name: &str, key: &str) -> Option<u8> {
    if key.eq_ignore_ascii_case(name) {
        return Some(0);
    }
    if key.len() > name.len() {
        let (head, tail) = key.split_at(key.len() - name.len());
        if tail.eq_ignore_ascii_case(name) && head.ends_with(['/', '_', '.', ':', '-']) {
            return Some(1);
        }
    }
    let limit = match name.chars().count() {
        0..=3 => 1,
        4..=8 => 2,
        _ => 3,
    };
    edits_within(&name.to_ascii_lowercase(), &key.to_ascii_lowercase(), limit).map(|d| 1 + d as u8)
}

/// The edit distance of `a` and `b` when at most `limit` (names of up to
/// 64 characters; longer ones are not compared).
fn edits_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > 64 || b.len() > 64 || a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|&d| d <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn likely_names_rank_by_closeness() {
        assert_eq!(likeness("label", "LABEL"), Some(0));
        assert_eq!(likeness("label", "image/class/label"), Some(1));
        assert_eq!(likeness("userid", "user_id"), Some(2));
        assert_eq!(likeness("label", "lable"), Some(3));
        assert_eq!(likeness("label", "image/encoded"), None);
        assert_eq!(likeness("id", "xlabel"), None);
        assert_eq!(edits_within("kitten", "sitting", 3), Some(3));
        assert_eq!(edits_within("kitten", "sitting", 2), None);
    }
}

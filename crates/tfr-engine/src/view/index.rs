//! Where the viewer's records are: a sparse index of the records shown
//! (every record, or with `--where` the matching ones), built in the
//! background while pages are served.
//!
//! The index keeps a [`Mark`] (input, record number, byte offset) for
//! record `n` every `stride` records shown, and wherever the previous mark
//! lies `stride` or more records read behind (so that with a rare match a
//! walk from the mark before it is short too). Finding record `n` is a
//! binary search for the mark at or before it and a walk of fewer than
//! `3 × stride` records from there. Memory is bounded: past
//! [`MAX_MARKS`] marks the stride doubles and the marks are thinned to
//! the new stride (a dataset of a billion small records keeps at most
//! [`MAX_MARKS`] marks, 20 MiB).

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Records between two marks at first.
pub(crate) const STRIDE: u64 = 64;

/// The most marks kept (40 bytes each): then they are thinned.
pub(crate) const MAX_MARKS: usize = 1 << 19;

/// A record that is shown (a match of `--where`, or any record) and where
/// it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Its input (number, in the order given).
    pub(crate) input: u32,
    /// Its number in its input.
    pub(crate) record: u64,
    /// Its header's byte offset (in the decompressed stream).
    pub(crate) offset: u64,
    /// Records read before it, over all inputs (shown or not).
    pub(crate) read: u64,
}

/// A hit remembered, with its number among the records shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    /// Its number among the records shown.
    pub(crate) n: u64,
    /// Where it is.
    pub(crate) at: Hit,
}

/// What the index knows of one input once it has been read through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counted {
    /// Records in it.
    pub(crate) records: u64,
    /// Those shown.
    pub(crate) shown: u64,
}

/// The index so far.
#[derive(Debug)]
pub(crate) struct Index {
    marks: Vec<Mark>,
    stride: u64,
    /// Records shown found so far.
    pub(crate) found: u64,
    /// Records read so far (shown or not).
    pub(crate) read: u64,
    /// Each input's counts, once read through.
    pub(crate) inputs: Vec<Option<Counted>>,
    /// Whether every input has been read through (or an error stopped it).
    pub(crate) complete: bool,
    /// What stopped the index before the end: damage, an unreadable input.
    pub(crate) error: Option<String>,
    /// How each input was indexed (`idx`: its `tfr index` file; `scan`:
    /// read through).
    pub(crate) how: Vec<Option<&'static str>>,
}

impl Index {
    /// An empty index of `inputs` inputs.
    pub(crate) fn new(inputs: usize) -> Index {
        Index {
            // Never reallocated: the pages are touched only as marks are
            // added, and the peak is this, not twice it.
            marks: Vec::with_capacity(MAX_MARKS),
            stride: STRIDE,
            found: 0,
            read: 0,
            inputs: vec![None; inputs],
            complete: false,
            error: None,
            how: vec![None; inputs],
        }
    }

    /// Adds the next records shown, in order.
    pub(crate) fn extend(&mut self, hits: &[Hit]) {
        for hit in hits {
            if self.marks.len() >= MAX_MARKS {
                self.thin();
            }
            let far = self
                .marks
                .last()
                .is_none_or(|m| self.found - m.n >= self.stride || hit.read - m.at.read >= self.stride);
            if far {
                self.marks.push(Mark {
                    n: self.found,
                    at: *hit,
                });
            }
            self.found += 1;
        }
    }

    /// Doubles the stride until the marks fit in half of [`MAX_MARKS`],
    /// keeping those the rule keeps at the new stride (a record is then
    /// fewer than 3 strides' walk from a mark: fewer than one to the mark
    /// that was before it, and fewer than two from the mark kept before
    /// that one).
    fn thin(&mut self) {
        while self.marks.len() > MAX_MARKS / 2 {
            self.stride *= 2;
            let stride = self.stride;
            let mut last: Option<Mark> = None;
            self.marks.retain(|m| {
                let keep = last.is_none_or(|l| m.n - l.n >= stride || m.at.read - l.at.read >= stride);
                if keep {
                    last = Some(*m);
                }
                keep
            });
        }
    }

    /// The mark at or before record `n` shown.
    pub(crate) fn locate(&self, n: u64) -> Option<Mark> {
        let after = self.marks.partition_point(|m| m.n <= n);
        after.checked_sub(1).map(|i| self.marks[i])
    }

    /// The number of marks (for tests and `/api/info`).
    pub(crate) fn marks(&self) -> usize {
        self.marks.len()
    }

    /// The stride now.
    pub(crate) fn stride(&self) -> u64 {
        self.stride
    }
}

/// The index shared between its builder and the requests.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) index: Mutex<Index>,
    grown: Condvar,
}

impl Shared {
    pub(crate) fn new(inputs: usize) -> Shared {
        Shared {
            index: Mutex::new(Index::new(inputs)),
            grown: Condvar::new(),
        }
    }

    /// The index, locked (a builder that panicked left it as it was).
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Index> {
        self.index.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the index and wakes the requests waiting for it.
    pub(crate) fn update(&self, f: impl FnOnce(&mut Index)) {
        f(&mut self.lock());
        self.grown.notify_all();
    }

    /// Waits until record `n` shown is indexed, the index is complete, or
    /// `wait` has passed; returns the records found and whether the index
    /// is complete.
    pub(crate) fn wait_for(&self, n: u64, wait: Duration) -> (u64, bool) {
        let deadline = Instant::now() + wait;
        let mut index = self.lock();
        loop {
            if n < index.found || index.complete {
                return (index.found, index.complete);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return (index.found, index.complete);
            }
            index = match self.grown.wait_timeout(index, left) {
                Ok((guard, _)) => guard,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(record: u64, read: u64) -> Hit {
        Hit {
            input: 0,
            record,
            offset: record * 100,
            read,
        }
    }

    #[test]
    fn every_record_shown_is_marked_every_stride() {
        let mut index = Index::new(1);
        let hits: Vec<Hit> = (0..1000).map(|i| hit(i, i)).collect();
        index.extend(&hits);
        assert_eq!(index.found, 1000);
        assert_eq!(index.marks(), 1000usize.div_ceil(STRIDE as usize));
        assert_eq!(index.locate(0).unwrap().n, 0);
        assert_eq!(index.locate(63).unwrap().n, 0);
        assert_eq!(index.locate(64).unwrap().n, 64);
        assert_eq!(index.locate(999).unwrap().at.record, 960);
        assert_eq!(index.locate(5000).unwrap().n, 960);
    }

    #[test]
    fn rare_matches_are_each_marked() {
        let mut index = Index::new(1);
        // A match every 1000 records read: each is a mark.
        let hits: Vec<Hit> = (0..10).map(|i| hit(i * 1000, i * 1000)).collect();
        index.extend(&hits);
        assert_eq!(index.marks(), 10);
        assert_eq!(index.locate(7).unwrap().at.record, 7000);
    }

    #[test]
    fn thinning_keeps_every_record_within_three_strides() {
        let mut index = Index::new(1);
        let total = (MAX_MARKS as u64 + 10) * STRIDE;
        let mut batch = Vec::new();
        for i in 0..total {
            batch.push(hit(i, i));
            if batch.len() == 4096 {
                index.extend(&batch);
                batch.clear();
            }
        }
        index.extend(&batch);
        assert!(index.marks() <= MAX_MARKS, "{}", index.marks());
        assert_eq!(index.marks.capacity(), MAX_MARKS, "never reallocated");
        assert!(index.stride() > STRIDE);
        for n in [0, 1, total / 3, total - 1] {
            let m = index.locate(n).unwrap();
            assert!(m.n <= n && n - m.n < 3 * index.stride(), "{n}: {m:?}");
        }
    }

    #[test]
    fn waiting_ends_when_found_or_after_the_wait() {
        let shared = std::sync::Arc::new(Shared::new(1));
        let start = Instant::now();
        assert_eq!(shared.wait_for(5, Duration::from_millis(50)), (0, false));
        assert!(start.elapsed() >= Duration::from_millis(50));
        let builder = {
            let shared = shared.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                shared.update(|i| i.extend(&(0..10).map(|r| hit(r, r)).collect::<Vec<_>>()));
            })
        };
        assert_eq!(shared.wait_for(5, Duration::from_secs(10)), (10, false));
        builder.join().unwrap();
        shared.update(|i| i.complete = true);
        assert_eq!(shared.wait_for(50, Duration::from_secs(10)), (10, true));
    }
}

//! A [`Tally`] summarised for display (`tfr stats`' tables, `tfr report`'s
//! Annotations section): the records by their number of boxes in a few
//! rows, the classes by count.

use super::check::{Tally, MAX_BOXES_BUCKET};
use std::collections::BTreeMap;

/// Rows of a distribution at most (numbers of boxes beyond this many are
/// grouped into ranges).
const ROWS: usize = 12;

/// A number of boxes as a bucket: the last one is that many or more.
pub fn bucket_name(n: usize) -> String {
    if n >= MAX_BOXES_BUCKET {
        format!("{MAX_BOXES_BUCKET}+")
    } else {
        n.to_string()
    }
}

impl Tally {
    /// The fewest and the most boxes a record with box features has (the
    /// most: [`MAX_BOXES_BUCKET`] for that many or more).
    pub fn boxes_range(&self) -> Option<(usize, usize)> {
        Some((
            *self.boxes_per_image.keys().next()?,
            *self.boxes_per_image.keys().next_back()?,
        ))
    }

    /// The records by their number of boxes: (label, records), one row per
    /// number from the fewest to the most when they are at most 12, else
    /// about 10 ranges of equal width (`3-5`; `100+` for the last bucket).
    pub fn boxes_distribution(&self) -> Vec<(String, u64)> {
        let Some((min, max)) = self.boxes_range() else {
            return Vec::new();
        };
        if max - min < ROWS {
            return (min..=max)
                .map(|n| (bucket_name(n), self.boxes_per_image.get(&n).copied().unwrap_or(0)))
                .collect();
        }
        let step = (max - min + 1).div_ceil(10);
        (min..=max)
            .step_by(step)
            .map(|lo| {
                let hi = (lo + step - 1).min(max);
                let n = self.boxes_per_image.range(lo..=hi).map(|(_, r)| r).sum();
                let label = match (lo, hi) {
                    (lo, hi) if hi >= MAX_BOXES_BUCKET => format!("{lo}+"),
                    (lo, hi) if lo == hi => lo.to_string(),
                    (lo, hi) => format!("{lo}-{hi}"),
                };
                (label, n)
            })
            .collect()
    }
}

/// Classes by count, most first (ties by name), the first `top` of them,
/// and the count of the rest with how many classes they are.
pub fn by_count(counts: &BTreeMap<String, u64>, top: usize) -> (Vec<(String, u64)>, u64, usize) {
    let mut sorted: Vec<(&String, &u64)> = counts.iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let rest: u64 = sorted.iter().skip(top).map(|(_, n)| **n).sum();
    let more = sorted.len().saturating_sub(top);
    let shown = sorted.into_iter().take(top).map(|(k, n)| (k.clone(), *n)).collect();
    (shown, rest, more)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(per_image: &[(usize, u64)]) -> Tally {
        Tally {
            boxes_per_image: per_image.iter().copied().collect(),
            ..Tally::default()
        }
    }

    #[test]
    fn a_few_numbers_are_a_row_each_and_gaps_are_zero() {
        let t = tally(&[(1, 4), (3, 2)]);
        let rows = t.boxes_distribution();
        assert_eq!(rows, vec![("1".into(), 4), ("2".into(), 0), ("3".into(), 2)]);
    }

    #[test]
    fn many_numbers_are_ranges_and_the_last_bucket_is_open() {
        let t = tally(&[(0, 1), (7, 2), (40, 3), (MAX_BOXES_BUCKET, 5)]);
        let rows = t.boxes_distribution();
        assert_eq!(rows.first(), Some(&("0-10".to_string(), 3)));
        assert_eq!(rows.last(), Some(&("99+".to_string(), 5)));
        assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 11);
    }

    #[test]
    fn classes_by_count_then_name_with_the_rest_counted() {
        let counts: BTreeMap<String, u64> = [("b", 2), ("a", 2), ("c", 5), ("d", 1)]
            .iter()
            .map(|(k, n)| (k.to_string(), *n))
            .collect();
        let (shown, rest, more) = by_count(&counts, 3);
        assert_eq!(shown, vec![("c".into(), 5), ("a".into(), 2), ("b".into(), 2)]);
        assert_eq!((rest, more), (1, 1));
    }
}

use super::*;

#[test]
fn exact_quantiles_are_tfdv_ranks_and_merge_in_any_split() {
    let mut one = Quantiles::default();
    for i in 0..200 {
        one.add(f64::from(199 - i));
    }
    one.seal();
    assert_eq!(one.quantile(0.5), Some(100.0));
    assert_eq!(one.quantile(0.1), Some(20.0));
    assert_eq!(one.quantile(1.0), Some(199.0));
    assert_eq!(one.quantile(0.0), Some(0.0));
    let (mut a, mut b) = (Quantiles::default(), Quantiles::default());
    for i in 0..200 {
        if i % 3 == 0 {
            a.add(f64::from(i))
        } else {
            b.add(f64::from(i))
        }
    }
    a.seal();
    b.seal();
    a.merge(&b);
    for q in [0.0, 0.1, 0.25, 0.5, 0.9, 1.0] {
        assert_eq!(a.quantile(q), one.quantile(q));
    }
    let h = one.equal_width(0.0, 199.0, 10);
    assert_eq!(h.iter().map(|b| b.2).sum::<f64>(), 200.0);
    assert_eq!(h[9].1, 199.0);
}

#[test]
fn sketched_quantiles_stay_within_one_percent_of_rank_in_any_split() {
    // Values with a large offset (timestamps) and a narrow range: a
    // relative-value sketch would put them all in one bin.
    let base = 1.7e9;
    let values: Vec<f64> = (0..100_000u32)
        .map(|i| base + f64::from((i * 7919) % 100_000))
        .collect();
    let mut one = Quantiles::default();
    for (i, v) in values.iter().enumerate() {
        one.add(*v);
        if i % 2048 == 0 {
            one.seal();
        }
    }
    one.seal();
    assert!(!one.is_exact());
    let mut parts = Quantiles::default();
    for chunk in values.chunks(3000).rev() {
        let mut p = Quantiles::default();
        for v in chunk {
            p.add(*v);
        }
        p.seal();
        parts.merge(&p);
    }
    for q in [0.0, 0.01, 0.1, 0.25, 0.5, 0.9, 0.99, 1.0] {
        for got in [one.quantile(q).unwrap(), parts.quantile(q).unwrap()] {
            // The rank of the value returned, against the true rank.
            let rank = got - base;
            assert!((rank - q * 100_000.0).abs() <= 1_000.0, "q {q}: rank {rank}");
        }
    }
    assert_eq!(one.count(), 100_000);
    assert_eq!(parts.count(), 100_000);
    assert_eq!(one.quantile(0.0), Some(base));
    assert_eq!(one.quantile(1.0), Some(base + 99_999.0));
}

#[test]
fn moments_merge_like_one_pass() {
    let mut one = Moments::default();
    let (mut a, mut b) = (Moments::default(), Moments::default());
    for i in 0..1000 {
        let v = 1e9 + f64::from(i % 17);
        one.add(v);
        if i < 300 {
            a.add(v)
        } else {
            b.add(v)
        }
    }
    a.merge(&b);
    assert!((a.mean - one.mean).abs() < 1e-6);
    assert!((a.std_dev() - one.std_dev()).abs() < 1e-6);
}

#[test]
fn distinct_counts_are_exact_then_close() {
    let mut d = Distinct::default();
    for i in 0..1000u32 {
        d.add_hash(value_hash(&(i % 500).to_le_bytes()));
    }
    assert_eq!(d.count(), 500);
    let mut big = Distinct::default();
    for i in 0..200_000u32 {
        big.add_hash(value_hash(&i.to_le_bytes()));
    }
    let n = big.count() as f64;
    assert!((n - 200_000.0).abs() < 200_000.0 * 0.03, "{n}");
}

#[test]
fn top_values_are_exact_then_bounded() {
    let mut t = TopK::default();
    for i in 0..100_000u32 {
        let v = if i % 4 == 0 {
            b"heavy".to_vec()
        } else {
            i.to_string().into_bytes()
        };
        t.add_hashed(value_hash(&v), &v, 1);
        if i % 2048 == 0 {
            t.prune();
        }
    }
    t.prune();
    let top = t.top(1);
    assert_eq!(top[0].0, b"heavy");
    assert!(top[0].2 <= 25_000 && top[0].2 + t.error() >= 25_000);
    assert!(t.error() <= 100_000 / (TOP_TRACKED as u64 + 1));
}

fn quantiles_of(values: &[f64]) -> Quantiles {
    let mut q = Quantiles::default();
    values.iter().for_each(|v| q.add(*v));
    q.seal();
    q
}

/// Issue 28, item 6: boundary ranks in integers (0.7 * 360 is rank 252,
/// where floating point says 251.99…), with cumulative weights.
#[test]
fn boundaries_rank_in_integers() {
    let q = quantiles_of(&(0..360).map(f64::from).collect::<Vec<_>>());
    let b = q.boundaries(10);
    assert_eq!(b[7], (252.0, 253.0));
    assert_eq!(b[0], (0.0, 1.0));
    assert_eq!(b[10], (359.0, 360.0));
    // Ties: every boundary's weight counts the values at or below it.
    let q = quantiles_of(&[1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let values: Vec<f64> = q.boundaries(10).iter().map(|b| b.0).collect();
    let weights: Vec<f64> = q.boundaries(10).iter().map(|b| b.1).collect();
    assert_eq!(values, [1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 6.0]);
    assert_eq!(weights, [5.0, 5.0, 5.0, 5.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 10.0]);
    // Infinities rank first and last.
    let q = quantiles_of(&[1.0, 2.0, f64::INFINITY]);
    let b = q.boundaries(10);
    assert_eq!(b[3], (1.0, 1.0));
    assert_eq!(b[4], (2.0, 2.0));
    assert_eq!(b[7], (f64::INFINITY, 3.0));
}

/// Issue 28, items 3 and 4, with the figures TFDV 1.16.1 wrote: quantile
/// buckets with ties spread (1.25 x 4, 1 x 4, 0.5 x 2), and the standard
/// histogram interpolated from 1,000 quantiles (a value on a bound in the
/// lower bucket).
#[test]
fn histograms_are_tfdvs() {
    use crate::schema::summary::{bin_weights, tfdv_standard, FINE_QUANTILES};
    let q = quantiles_of(&[1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let counts: Vec<f64> = bin_weights(&q.boundaries(10)).iter().map(|b| b.2).collect();
    assert_eq!(counts, [1.25, 1.25, 1.25, 1.25, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5]);
    let q = quantiles_of(&[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    let h = tfdv_standard(&q.boundaries(FINE_QUANTILES), q.finite_range(), 0);
    let counts: Vec<f64> = h.iter().map(|b| b.2).collect();
    assert_eq!(
        counts,
        [
            3.00200000000002,
            0.002,
            0.002000000000000001,
            0.0019999999999999996,
            3.991999999999959,
            0.0019933554817275763,
            0.001993355481727574,
            0.001993355481727574,
            0.001993355481727574,
            2.992026578073079
        ]
    );
    assert_eq!((h[4].0, h[4].1), (0.8, 1.0));
    assert_eq!(h[2].1, 0.6000000000000001);
    // No finite value: one bucket from +inf to -inf holding them all.
    let q = quantiles_of(&[f64::NEG_INFINITY, f64::NEG_INFINITY]);
    let h = tfdv_standard(&q.boundaries(FINE_QUANTILES), q.finite_range(), 0);
    assert_eq!(h, [(f64::INFINITY, f64::NEG_INFINITY, 2.0)]);
}

/// Issue 28, items 1 and 5: values are counted exactly, and kept whole,
/// far past 2,000 distinct values; past the bounds a summary of their
/// starts.
#[test]
fn top_values_are_exact_and_whole_within_the_bounds() {
    let long = vec![b'x'; 300];
    let mut t = TopK::default();
    t.add_hashed(value_hash(&long), &long, 2);
    for i in 0..(EXACT_TOP as u32 - 1) {
        let v = i.to_string().into_bytes();
        t.add_hashed(value_hash(&v), &v, 1);
    }
    t.prune();
    assert!(t.is_exact());
    assert_eq!(t.error(), 0);
    let top = t.top(20);
    assert_eq!((top[0].0.len(), top[0].2), (300, 2));
    assert_eq!(top[1].0, b"9999");
    assert_eq!(t.top(usize::MAX).len(), EXACT_TOP);
    let v = b"one more".to_vec();
    t.add_hashed(value_hash(&v), &v, 1);
    assert!(!t.is_exact());
    // Bytes past the budget: a summary too, values by their start.
    let mut t = TopK::default();
    for i in 0..(EXACT_TOP_BYTES / 100_000 + 1) {
        let v = vec![i as u8; 100_000];
        t.add_hashed(value_hash(&v), &v, 1);
    }
    assert!(!t.is_exact());
    // (the largest kept by their first 4 KiB, their length whole)
    let top = t.top(1);
    assert_eq!((top[0].0.len(), top[0].1), (LARGEST_VALUE_MAX, 100_000));
    assert!(t.counters().all(|v| v.1.len() <= TOP_VALUE_MAX));
}

/// A batch digested on its worker (`ready`) merges into a t-digest exactly
/// as digesting it at the merge does, and a merge into an exact summary
/// or a later change to the batch does not use a stale digest.
#[test]
fn a_digest_made_at_seal_merges_as_one_made_at_the_merge() {
    let whole = quantiles_of(&(0..6000).map(|i| f64::from(i) * 0.37).collect::<Vec<_>>());
    assert!(whole.digest.is_some());
    let values: Vec<f64> = (0..3000).map(|i| f64::from(i * 7 % 2999) + 0.5).collect();
    let batch = quantiles_of(&values);
    assert!(
        batch.ready.is_some(),
        "a batch of {} runs is digested at seal",
        batch.exact.len()
    );
    let mut plain = batch.clone();
    plain.ready = None;
    let (mut a, mut b) = (whole.clone(), whole.clone());
    a.merge(&batch);
    b.merge(&plain);
    assert_eq!(a.state().unwrap_err(), b.state().unwrap_err());
    assert_eq!(a.count(), b.count());
    // Into an exact summary: the runs, not the digest.
    let mut exact = quantiles_of(&[1.0, 2.0]);
    exact.merge(&batch);
    assert_eq!(exact.state().unwrap().len(), batch.exact.len() + 2);
    // More values after the seal: the next seal digests them all.
    let mut more = batch.clone();
    more.add(1e9);
    more.seal();
    let mut fresh = more.clone();
    fresh.ready = None;
    let (mut c, mut d) = (whole.clone(), whole);
    c.merge(&more);
    d.merge(&fresh);
    assert_eq!(c.state().unwrap_err(), d.state().unwrap_err());
    assert_ne!(c.state().unwrap_err(), a.state().unwrap_err());
}

/// Issue 47: past the exact bounds, all-distinct values give TFDV's top
/// values (the largest, once each), whatever the order of the values and
/// however the parts merge; a value repeated among them keeps its exact
/// count.
#[test]
fn top_values_of_distinct_values_are_the_largest_counted_exactly() {
    let value = |i: u32| format!("v{:06}", (i * 7919) % 100_000).into_bytes();
    let mut one = TopK::default();
    let mut parts = vec![TopK::default(); 3];
    for i in 0..100_000u32 {
        let v = value(i);
        one.add_hashed(value_hash(&v), &v, 1);
        parts[(i % 3) as usize].add_hashed(value_hash(&v), &v, 1);
    }
    let again = b"v099990".to_vec();
    one.add_hashed(value_hash(&again), &again, 1);
    parts[0].add_hashed(value_hash(&again), &again, 1);
    one.prune();
    let mut merged = TopK::default();
    for p in &mut parts {
        p.prune();
        merged.merge(p);
    }
    assert!(!one.is_exact());
    for t in [&one, &merged] {
        let top = t.top(LARGEST_KEPT);
        assert_eq!(top.len(), LARGEST_KEPT);
        assert_eq!((top[0].0, top[0].2), (&b"v099990"[..], 2));
        assert_eq!((top[1].0, top[1].2), (&b"v099999"[..], 1));
        assert_eq!(top[LARGEST_KEPT - 1].0, b"v099000");
    }
}

#[test]
fn ties_past_the_exact_range_keep_their_exact_weight() {
    // 100,000 values, 60% zeros, the rest distinct: TFDV's quantiles
    // histogram has five [0, 0] buckets of (count of zeros) / 5.
    let values: Vec<f64> = (0..100_000u32)
        .map(|i| {
            if (i * 7919) % 10 < 6 {
                0.0
            } else {
                f64::from(i) / 100_000.0
            }
        })
        .collect();
    let zeros = values.iter().filter(|v| **v == 0.0).count() as f64;
    let check = |q: &Quantiles| {
        assert!(!q.is_exact());
        let b = q.boundaries(10);
        assert!(b[..6].iter().all(|&(v, w)| v == 0.0 && w == zeros), "{b:?}");
        let buckets = crate::schema::summary::bin_weights(&b);
        assert!(
            buckets[..5]
                .iter()
                .all(|&(lo, hi, n)| lo == 0.0 && hi == 0.0 && n == zeros / 5.0),
            "{buckets:?}"
        );
        assert_eq!(q.quantile(0.5), Some(0.0));
    };
    let mut one = Quantiles::default();
    for (i, v) in values.iter().enumerate() {
        one.add(*v);
        if i % 2048 == 0 {
            one.seal();
        }
    }
    one.seal();
    check(&one);
    // Merged from parts, exact ones and sketched ones, in any order.
    let mut parts = Quantiles::default();
    for chunk in values.chunks(7000).rev() {
        let mut p = Quantiles::default();
        for v in chunk {
            p.add(*v);
        }
        p.seal();
        parts.merge(&p);
    }
    check(&parts);
    // Saved and read back (tfr stats --format json, --merge).
    let (neg, pos) = parts.infinities();
    let digest = parts.state().unwrap_err();
    let back = Quantiles::from_state(100_000, (neg, pos), Vec::new(), Some((&digest, parts.ties().to_vec()))).unwrap();
    check(&back);
    // Ties that do not add up are refused.
    let mut bad = parts.ties().to_vec();
    bad[0].count = 200_000;
    assert!(Quantiles::from_state(100_000, (0, 0), Vec::new(), Some((&digest, bad))).is_err());
}

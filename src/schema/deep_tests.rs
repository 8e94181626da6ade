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

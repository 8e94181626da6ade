//! The metrics on hand-checkable histograms and on hostile ones (a
//! statistics file is input: buckets out of order, NaN bounds, negative
//! counts must give an answer or a reason, never a panic). TFDV's own
//! figures are checked in tests/cli/drift.rs.

use super::metrics::*;
use crate::schema::tfdv::statistics::{FeatureStat, Histogram, NumStats, StatType, StringStats};

fn hist(buckets: &[(f64, f64, f64)], num_nan: u64) -> Histogram {
    Histogram {
        num_nan,
        buckets: buckets.to_vec(),
        quantiles: false,
    }
}

fn categorical(values: &[(&str, f64)]) -> FeatureStat {
    FeatureStat {
        path: "f".into(),
        ty: StatType::String,
        common: Default::default(),
        num: None,
        string: Some(StringStats {
            rank_histogram: values.iter().map(|(v, n)| (v.as_bytes().to_vec(), *n)).collect(),
            ..Default::default()
        }),
        custom: Vec::new(),
    }
}

fn numeric(h: Histogram) -> FeatureStat {
    FeatureStat {
        path: "f".into(),
        ty: StatType::Float,
        common: Default::default(),
        num: Some(NumStats {
            histograms: vec![h],
            ..Default::default()
        }),
        string: None,
        custom: Vec::new(),
    }
}

#[test]
fn linf_and_normalized_difference_by_hand() {
    let a = categorical(&[("x", 3.0), ("y", 1.0)]);
    let b = categorical(&[("x", 1.0), ("z", 1.0)]);
    // x: 0.75 - 0.5, y: 0.25, z: -0.5 → z (|0.5|).
    assert_eq!(linf(&a, &b), (b"z".to_vec(), 0.5));
    // Over 6 in all: x 3/6 - 1/6 = 1/3 → x.
    let (label, v) = normalized_abs_difference(&a, &b);
    assert_eq!(label, b"x");
    assert!((v - 1.0 / 3.0).abs() < 1e-15);
    // Ties: the last label in byte order.
    let c = categorical(&[("a", 1.0), ("b", 1.0)]);
    let d = categorical(&[("c", 1.0), ("d", 1.0)]);
    assert_eq!(linf(&c, &d).0, b"d");
    // A numeric feature has no values: 0.
    let n = numeric(hist(&[(0.0, 1.0, 5.0)], 0));
    assert_eq!(linf(&n, &n), (Vec::new(), 0.0));
}

#[test]
fn jensen_shannon_of_disjoint_and_equal_distributions() {
    let a = categorical(&[("x", 2.0)]);
    let b = categorical(&[("y", 5.0)]);
    assert_eq!(jensen_shannon(&a, &b, false), Ok(1.0));
    assert_eq!(jensen_shannon(&a, &a, false), Ok(0.0));
    let h = numeric(hist(&[(0.0, 1.0, 4.0), (1.0, 2.0, 4.0)], 0));
    let g = numeric(hist(&[(2.0, 3.0, 4.0)], 0));
    assert_eq!(jensen_shannon(&h, &g, false), Ok(1.0));
    assert_eq!(jensen_shannon(&h, &h, false), Ok(0.0));
    // One side categorical, the other numeric: no figure.
    assert_eq!(jensen_shannon(&a, &h, false), Err(NoDivergence::Mixed));
    assert_eq!(
        jensen_shannon(&categorical(&[("x", 0.0)]), &a, false),
        Err(NoDivergence::NonPositive)
    );
}

#[test]
fn rebucketing_spreads_counts_uniformly() {
    // [0, 2) with 4 against [1, 3) with 4: on 0,1,2,3 → (2,2,0) and (0,2,2).
    let (a, b) = align(&hist(&[(0.0, 2.0, 4.0)], 0), &hist(&[(1.0, 3.0, 4.0)], 0)).unwrap();
    let counts = |x: &Buckets| x.buckets.iter().map(|b| b.2).collect::<Vec<_>>();
    assert_eq!(counts(&a), [2.0, 2.0, 0.0]);
    assert_eq!(counts(&b), [0.0, 2.0, 2.0]);
    // NaN counts survive only without re-bucketing (TFDV's).
    let (a, b) = align(&hist(&[(0.0, 1.0, 1.0)], 3), &hist(&[(0.0, 1.0, 1.0)], 3)).unwrap();
    assert_eq!(counts(&a), [1.0, 0.0, 3.0]);
    assert_eq!(counts(&b), [1.0, 3.0, 0.0]);
    let (a, _) = align(&hist(&[(0.0, 1.0, 1.0)], 3), &hist(&[(0.0, 2.0, 1.0)], 3)).unwrap();
    assert_eq!(counts(&a), [1.0, 0.0]);
}

#[test]
fn hostile_histograms_never_panic() {
    let cases: Vec<Vec<(f64, f64, f64)>> = vec![
        vec![(5.0, 6.0, 1.0), (0.0, 1.0, 1.0)],
        vec![(0.0, 10.0, 1.0), (2.0, 3.0, 1.0)],
        vec![(f64::NAN, 1.0, 1.0), (0.0, f64::NAN, 2.0)],
        vec![(3.0, 1.0, 1.0)],
        vec![(0.0, 1.0, -5.0), (1.0, 2.0, f64::NAN)],
        vec![(1.0, 1.0, 2.0), (1.0, 1.0, 3.0), (-0.0, 0.0, 1.0)],
        vec![(f64::NEG_INFINITY, f64::INFINITY, 4.0)],
        vec![],
    ];
    for a in &cases {
        for b in &cases {
            let r = jensen_shannon(&numeric(hist(a, 1)), &numeric(hist(b, 0)), false);
            if let Ok(v) = r {
                assert!(v.is_nan() || (-1e-12..=1.0 + 1e-12).contains(&v), "{a:?} {b:?}: {v}");
            }
        }
    }
}

#[test]
fn six_digits_is_printf_g() {
    assert_eq!(six_digits(0.43666666666666665), "0.436667");
    assert_eq!(six_digits(1.0), "1");
    assert_eq!(six_digits(1.25), "1.25");
    assert_eq!(six_digits(0.00001234), "1.234e-05");
    assert_eq!(six_digits(1234567.0), "1.23457e+06");
    assert_eq!(six_digits(0.0), "0");
}

#[test]
fn a_binary_list_whose_length_byte_is_a_letter_is_binary() {
    use crate::schema::tfdv::statistics::load;
    // datasets { name: 72 × "a", num_examples: 5 }: 76 bytes, "L".
    let mut dataset = vec![0x0a, 72];
    dataset.extend(std::iter::repeat_n(b'a', 72));
    dataset.extend([0x10, 5]);
    let mut list = vec![0x0a, dataset.len() as u8];
    list.extend(&dataset);
    assert_eq!(list[1], b'L');
    let got = load(&list).unwrap();
    assert_eq!(got.datasets[0].num_examples, 5);
    assert_eq!(got.datasets[0].name, "a".repeat(72));
    // Text that is not statistics is told as text format's error.
    let e = load(b"datasets { num_examples: x }").unwrap_err().to_string();
    assert!(e.contains("1:12"), "{e}");
    // uint64 counts past int64.
    let big = load(b"datasets { num_examples: 18446744073709551615 }").unwrap();
    assert_eq!(big.datasets[0].num_examples, u64::MAX);
}

//! The parse spec's rules on hand-checked records (TensorFlow's own
//! verdicts are checked by tests/python/reader_check.py).

use super::stored::{self, Stored};
use super::*;
use crate::example::json::{Encoder, JsonFormat};
use crate::example::{Decoder, MessageType};

/// An Example from its JSON line (tfr's natural mapping).
fn example(line: &str) -> Vec<u8> {
    let mut out = Vec::new();
    Encoder::new(JsonFormat::Natural, None)
        .encode(MessageType::Example, line.as_bytes(), &mut out)
        .unwrap();
    out
}

fn fixed(shape: &[u64], dtype: DType, default: Option<Values>) -> FeatureSpec {
    FeatureSpec::Fixed {
        shape: shape.to_vec(),
        dtype,
        default,
    }
}

fn spec(features: &[(&str, FeatureSpec)]) -> Spec {
    Spec::new(features.iter().map(|(n, f)| (n.to_string(), f.clone())).collect()).unwrap()
}

#[test]
fn fixed_and_var_features_fill_columns_record_after_record() {
    let s = spec(&[
        ("id", fixed(&[], DType::Int64, None)),
        ("xy", fixed(&[2], DType::Float32, None)),
        ("tags", FeatureSpec::Var { dtype: DType::Bytes }),
    ]);
    let mut p = Parser::new(s);
    let mut cols = p.columns();
    p.parse(
        &example(r#"{"id": [7], "xy": [0.5, 1.5], "tags": ["a", "b"]}"#),
        &mut cols,
    )
    .unwrap();
    p.parse(
        &example(r#"{"tags": {"bytes_list": []}, "xy": [2.0, 3.0], "id": [8]}"#),
        &mut cols,
    )
    .unwrap();
    assert_eq!(cols.rows, 2);
    assert_eq!(cols.columns[0].values, Values::Int64(vec![7, 8]));
    assert_eq!(cols.columns[1].values, Values::Float32(vec![0.5, 1.5, 2.0, 3.0]));
    assert_eq!(cols.columns[1].row(1), 2..4);
    assert_eq!(
        cols.columns[2].values,
        Values::Bytes(vec![b"a".to_vec(), b"b".to_vec()])
    );
    assert_eq!(cols.columns[2].ends, vec![2, 2]);
}

#[test]
fn a_missing_fixed_feature_takes_its_default_or_is_an_error() {
    let with_default = spec(&[("n", fixed(&[2], DType::Int64, Some(Values::Int64(vec![-1, -2]))))]);
    let mut p = Parser::new(with_default);
    let mut cols = p.columns();
    p.parse(&example(r#"{"other": [1]}"#), &mut cols).unwrap();
    assert_eq!(cols.columns[0].values, Values::Int64(vec![-1, -2]));

    let without = spec(&[("n", fixed(&[], DType::Int64, None))]);
    let mut p = Parser::new(without);
    let mut cols = p.columns();
    let e = p.parse(&example(r#"{"other": [1]}"#), &mut cols).unwrap_err();
    assert!(format!("{e:#}").contains("\"n\" is missing"), "{e:#}");
    assert_eq!(cols.rows, 0, "a refused record leaves the columns as they were");
}

#[test]
fn wrong_counts_and_kinds_are_refused_naming_the_feature() {
    let s = spec(&[("v", fixed(&[3], DType::Float32, None))]);
    let mut p = Parser::new(s);
    let mut cols = p.columns();
    let e = p.parse(&example(r#"{"v": [1.0, 2.0]}"#), &mut cols).unwrap_err();
    assert!(
        format!("{e:#}").contains("2 values where the spec's shape [3] holds 3"),
        "{e:#}"
    );
    let e = p.parse(&example(r#"{"v": [1, 2, 3]}"#), &mut cols).unwrap_err();
    assert!(format!("{e:#}").contains("int64 where the spec says float32"), "{e:#}");
    assert!(cols.columns[0].values.is_empty());
}

#[test]
fn a_feature_without_a_kind_is_missing() {
    let s = spec(&[("v", fixed(&[], DType::Int64, Some(Values::Int64(vec![5]))))]);
    let mut p = Parser::new(s);
    let mut cols = p.columns();
    p.parse(&example(r#"{"v": null}"#), &mut cols).unwrap();
    assert_eq!(cols.columns[0].values, Values::Int64(vec![5]));
}

#[test]
fn specs_are_checked_before_use() {
    let twice = Spec::new(vec![
        ("a".into(), FeatureSpec::Var { dtype: DType::Int64 }),
        ("a".into(), FeatureSpec::Var { dtype: DType::Int64 }),
    ]);
    assert!(twice.is_err());
    let huge = Spec::new(vec![("a".into(), fixed(&[1 << 20, 1 << 20], DType::Int64, None))]);
    assert!(format!("{:#}", huge.unwrap_err()).contains("more than"));
    let short = Spec::new(vec![(
        "a".into(),
        fixed(&[3], DType::Int64, Some(Values::Int64(vec![0]))),
    )]);
    assert!(format!("{:#}", short.unwrap_err()).contains("holds 1 values where the shape [3] holds 3"));
    let kind = Spec::new(vec![(
        "a".into(),
        fixed(&[], DType::Int64, Some(Values::Float32(vec![0.0]))),
    )]);
    assert!(kind.is_err());
}

#[test]
fn stored_records_keep_wire_order_and_the_last_of_a_key() {
    let payload = example(r#"{"b": [1, 2], "a": ["x"], "c": null, "f": [0.25]}"#);
    let mut d = Decoder::default();
    let all = |_: &str| true;
    let Stored::Example(f) = stored::decode(&mut d, &payload, MessageType::Example, &all).unwrap() else {
        panic!("an Example")
    };
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["b", "a", "c", "f"]);
    assert_eq!(f[0].1, Some(Values::Int64(vec![1, 2])));
    assert_eq!(f[2].1, None);
    let only_a = |n: &str| n == "a";
    let Stored::Example(f) = stored::decode(&mut d, &payload, MessageType::Example, &only_a).unwrap() else {
        panic!("an Example")
    };
    assert_eq!(f, vec![("a".to_string(), Some(Values::Bytes(vec![b"x".to_vec()])))]);
}

#[test]
fn duplicated_keys_follow_tensorflow_per_kind_of_feature() {
    // `a` twice: values, then a Feature with no kind (two Examples end to
    // end are one, their map entries in order).
    let payload = [example(r#"{"a": [1, 2, 3]}"#), example(r#"{"a": null}"#)].concat();
    let var = spec(&[("a", FeatureSpec::Var { dtype: DType::Int64 })]);
    let mut p = Parser::new(var);
    let mut cols = p.columns();
    p.parse(&payload, &mut cols).unwrap();
    assert!(cols.columns[0].values.is_empty(), "VarLen: the last entry, empty");
    let fixed = spec(&[("a", fixed(&[3], DType::Int64, None))]);
    let mut p = Parser::new(fixed);
    let mut cols = p.columns();
    p.parse(&payload, &mut cols).unwrap();
    assert_eq!(
        cols.columns[0].values,
        Values::Int64(vec![1, 2, 3]),
        "FixedLen: the last with a kind"
    );
}

#[test]
fn a_default_of_no_values_makes_the_feature_required() {
    let s = spec(&[("z", fixed(&[0], DType::Int64, Some(Values::Int64(vec![]))))]);
    let mut p = Parser::new(s);
    let mut cols = p.columns();
    let e = p.parse(&example(r#"{"other": [1]}"#), &mut cols).unwrap_err();
    assert!(format!("{e:#}").contains("missing"), "{e:#}");
    let huge_dim = Spec::new(vec![("a".into(), fixed(&[0, 1 << 62], DType::Int64, None))]);
    assert!(huge_dim.is_err());
}

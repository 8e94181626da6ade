use super::*;
use crate::example::proto;
use prost::Message;

fn example(features: &[(&str, proto::feature::Kind)]) -> Vec<u8> {
    let mut ex = proto::Example::default();
    let mut f = proto::Features::default();
    for (k, v) in features {
        f.feature.push(proto::FeatureEntry {
            key: Some(k.to_string()),
            value: Some(proto::Feature { kind: Some(v.clone()) }),
        });
    }
    ex.features = Some(f);
    ex.encode_to_vec()
}

fn ints(v: &[i64]) -> proto::feature::Kind {
    proto::feature::Kind::Int64List(proto::Int64List { value: v.to_vec() })
}

fn floats(v: &[f32]) -> proto::feature::Kind {
    proto::feature::Kind::FloatList(proto::FloatList { value: v.to_vec() })
}

fn strs(v: &[&str]) -> proto::feature::Kind {
    proto::feature::Kind::BytesList(proto::BytesList {
        value: v.iter().map(|s| s.as_bytes().to_vec()).collect(),
    })
}

fn run(schema: &str, records: &[Vec<u8>]) -> Report {
    let schema = Schema::from_pbtxt(schema).unwrap();
    let ck = Checker::new(&schema);
    let mut found = Found::default();
    let mut d = Decoder::new();
    for (i, r) in records.iter().enumerate() {
        let ex = d.example(r, false).unwrap();
        found.record(&ck, ex.features(), (0, i as u64));
    }
    ck.report(&found, Some(MessageType::Example))
}

fn kinds(r: &Report) -> Vec<(String, &'static str, u64, Option<Loc>)> {
    r.anomalies
        .iter()
        .map(|a| {
            (
                a.feature.clone().unwrap_or_default(),
                a.kind.tfdv_name(),
                a.records,
                a.first,
            )
        })
        .collect()
}

const SCHEMA: &str = r#"
feature { name: "a" type: INT int_domain { min: 0 max: 9 } presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }
feature { name: "f" type: FLOAT float_domain { min: 0 max: 1 disallow_nan: true disallow_inf: true } value_count { min: 1 max: 2 } }
feature { name: "s" type: BYTES domain: "S" presence { min_count: 1 } }
feature { name: "b" type: INT bool_domain { } }
feature { name: "gone" type: INT presence { min_count: 1 } }
feature { name: "old" type: INT lifecycle_stage: DEPRECATED presence { min_count: 1 } }
string_domain { name: "S" value: "x" value: "y" }
dataset_constraints { min_examples_count: 5 }
"#;

#[test]
fn clean_records_have_no_anomaly_but_the_dataset_ones() {
    let recs: Vec<Vec<u8>> = (0..3)
        .map(|i| {
            example(&[
                ("a", ints(&[i])),
                ("f", floats(&[0.5])),
                ("s", strs(&["x"])),
                ("b", ints(&[1])),
            ])
        })
        .collect();
    let r = run(SCHEMA, &recs);
    assert_eq!(
        kinds(&r),
        vec![
            ("gone".into(), "SCHEMA_MISSING_COLUMN", 0, None),
            (String::new(), "DATASET_LOW_NUM_EXAMPLES", 0, None)
        ]
    );
}

#[test]
fn each_kind_is_found_at_its_first_record() {
    let mut recs = vec![
        example(&[
            ("a", ints(&[1])),
            ("f", floats(&[0.5])),
            ("s", strs(&["x"])),
            ("gone", ints(&[1])),
        ]),
        example(&[
            ("a", ints(&[10])),
            ("f", floats(&[f32::NAN, 2.0, -1.0])),
            ("s", strs(&["z"])),
        ]),
        example(&[
            ("a", floats(&[1.0])),
            ("f", floats(&[f32::INFINITY])),
            ("b", ints(&[2])),
            ("new", ints(&[1])),
        ]),
        example(&[("f", floats(&[])), ("b", ints(&[-1]))]),
        example(&[("a", ints(&[1, 2])), ("f", floats(&[0.0])), ("new", ints(&[1]))]),
    ];
    // A repeated key counts with its last occurrence (two encodings
    // concatenated are one message, its map entries merged).
    recs.push(
        [
            example(&[("a", floats(&[3.0]))]),
            example(&[("a", ints(&[3])), ("f", floats(&[0.1]))]),
        ]
        .concat(),
    );
    let r = run(SCHEMA, &recs);
    let k = kinds(&r);
    let expect = vec![
        ("a".to_string(), "FEATURE_TYPE_LOW_FRACTION_PRESENT", 1, Some((0, 3))),
        ("a".into(), "UNEXPECTED_DATA_TYPE", 1, Some((0, 2))),
        ("a".into(), "INVALID_FEATURE_SHAPE", 2, Some((0, 3))),
        ("a".into(), "INT_TYPE_BIG_INT", 1, Some((0, 1))),
        ("f".into(), "FEATURE_TYPE_LOW_NUMBER_VALUES", 1, Some((0, 3))),
        ("f".into(), "FEATURE_TYPE_HIGH_NUMBER_VALUES", 1, Some((0, 1))),
        ("f".into(), "FLOAT_TYPE_SMALL_FLOAT", 1, Some((0, 1))),
        ("f".into(), "FLOAT_TYPE_BIG_FLOAT", 2, Some((0, 1))),
        ("f".into(), "FLOAT_TYPE_HAS_NAN", 1, Some((0, 1))),
        ("f".into(), "FLOAT_TYPE_HAS_INF", 1, Some((0, 2))),
        ("s".into(), "ENUM_TYPE_UNEXPECTED_STRING_VALUES", 1, Some((0, 1))),
        ("b".into(), "BOOL_TYPE_SMALL_INT", 1, Some((0, 3))),
        ("b".into(), "BOOL_TYPE_BIG_INT", 1, Some((0, 2))),
        ("new".into(), "SCHEMA_NEW_COLUMN", 2, Some((0, 2))),
    ];
    assert_eq!(k, expect, "{:#?}", r.anomalies);
    assert!(
        r.not_checked.iter().any(|n| n.contains("\"old\"")),
        "{:?}",
        r.not_checked
    );
}

#[test]
fn min_domain_mass_tolerates_a_share() {
    let schema = r#"feature { name: "s" type: BYTES string_domain { value: "x" } distribution_constraints { min_domain_mass: 0.5 } }"#;
    let two = [example(&[("s", strs(&["x"]))]), example(&[("s", strs(&["z"]))])];
    assert!(run(schema, &two).anomalies.is_empty());
    let three = [two[0].clone(), two[1].clone(), example(&[("s", strs(&["q"]))])];
    assert_eq!(kinds(&run(schema, &three))[0].1, "ENUM_TYPE_UNEXPECTED_STRING_VALUES");
}

#[test]
fn an_environment_the_schema_does_not_list_is_an_error() {
    let schema = Schema::from_pbtxt(
        "default_environment: \"TRAINING\"\nfeature { name: \"label\" type: INT presence { min_count: 1 } not_in_environment: \"SERVING\" }",
    )
    .unwrap();
    assert!(Checker::with_environment(&schema, Some("TRAINING")).is_ok());
    let e = Checker::with_environment(&schema, Some("SERVING"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"SERVING\"") && e.contains("\"TRAINING\""), "{e}");
    assert!(Checker::with_environment(&schema, None).is_ok());
}

use super::*;

const TFDV: &str = "feature {\n  name: \"feature0\"\n  type: INT\n  bool_domain {\n  }\n  presence {\n    min_fraction: 1.0\n    min_count: 1\n  }\n  shape {\n    dim {\n      size: 1\n    }\n  }\n}\nfeature {\n  name: \"length\"\n  value_count {\n    min: 1\n    max: 1\n  }\n  type: INT\n  presence {\n    min_count: 1\n  }\n}\nfeature {\n  name: \"feature2\"\n  type: BYTES\n  domain: \"feature2\"\n  presence {\n    min_fraction: 1.0\n    min_count: 1\n  }\n  shape {\n    dim {\n      size: 1\n    }\n  }\n}\nstring_domain {\n  name: \"feature2\"\n  value: \"cat\"\n  value: \"\\320\\272\"\n}\n";

#[test]
fn tfdv_schema_round_trips_byte_for_byte() {
    let s = Schema::from_pbtxt(TFDV).unwrap();
    assert_eq!(s.features.len(), 3);
    assert_eq!(s.features[0].domain, Some(Domain::Bool(BoolDomain::default())));
    assert_eq!(s.features[0].shape, Some(vec![1]));
    assert_eq!(s.string_domain("feature2").unwrap().values, vec!["cat", "к"]);
    assert_eq!(s.to_pbtxt(), TFDV);
}

#[test]
fn every_modelled_field_round_trips() {
    let mut f = Feature::new("x", FeatureType::Float);
    f.domain = Some(Domain::Float(FloatDomain {
        name: None,
        min: Some(-1.5),
        max: Some(0.1),
        disallow_nan: true,
        disallow_inf: true,
    }));
    f.presence = Some(Presence {
        min_fraction: Some(0.25),
        min_count: Some(3),
    });
    f.value_count = Some(ValueCount {
        min: Some(2),
        max: None,
    });
    f.min_domain_mass = Some(0.9);
    f.drift = Some(Comparator {
        infinity_norm: Some(0.01),
        ..Comparator::default()
    });
    f.lifecycle_stage = Some(LifecycleStage::Beta);
    let mut g = Feature::new("y", FeatureType::Int);
    g.domain = Some(Domain::Int(IntDomain {
        name: Some("n".into()),
        min: Some(-3),
        max: Some(9),
        is_categorical: true,
    }));
    g.deprecated = true;
    g.not_validated = true;
    let mut h = Feature::new("z", FeatureType::Bytes);
    h.domain = Some(Domain::String(StringDomain {
        name: None,
        values: vec!["a".into(), "b\"".into()],
    }));
    let mut i = Feature::new("b", FeatureType::Bytes);
    i.domain = Some(Domain::Bool(BoolDomain {
        name: None,
        true_value: Some("yes".into()),
        false_value: Some("no".into()),
    }));
    i.shape = Some(vec![2, 3]);
    let mut j = Feature::new("img", FeatureType::Bytes);
    j.domain = Some(Domain::Other("image_domain".into()));
    j.lifecycle_stage = Some(LifecycleStage::Deprecated);
    j.not_validated = true;
    let schema = Schema {
        features: vec![f, g, h, i, j],
        string_domains: vec![],
        dataset_constraints: Some(DatasetConstraints {
            min_examples_count: Some(10),
            num_examples_drift_comparator: Some(NumericComparator {
                min_fraction: Some(0.5),
                max_fraction: Some(2.0),
            }),
            num_examples_version_comparator: None,
            max_examples_count: Some(1000),
        }),
        ignored: vec![],
    };
    let text = schema.to_pbtxt();
    let back = Schema::from_pbtxt(&text).unwrap();
    assert_eq!(back, schema, "{text}");
    assert!(
        text.contains("  float_domain {\n    min: -1.5\n    max: 0.1\n    disallow_nan: true\n"),
        "{text}"
    );
}

#[test]
fn unknown_fields_and_bad_values_are_errors_with_positions() {
    let e = Schema::from_pbtxt("feature {\n  name: \"a\"\n  presense { min_count: 1 }\n}\n").unwrap_err();
    assert_eq!((e.line, e.col), (3, 3), "{e}");
    let e = Schema::from_pbtxt("feature {\n  name: \"a\"\n  type: INTEGER\n}\n").unwrap_err();
    assert_eq!((e.line, e.col), (3, 3), "{e}");
    let e = Schema::from_pbtxt("feature { type: INT }").unwrap_err();
    assert!(e.message.contains("name"), "{e}");
    let s = Schema::from_pbtxt("feature { name: \"a\" skew_comparator { infinity_norm { threshold: 0.1 } } lifecycle_stage: DEPRECATED }\ndefault_environment: \"SERVING\"").unwrap();
    assert_eq!(s.features[0].ignored, vec!["skew_comparator"]);
    assert!(s.features[0].not_validated);
    assert_eq!(s.ignored, vec!["default_environment"]);
}

#[test]
fn tfr_json_gives_a_schema() {
    let json = r#"{"type": "example", "records": 4, "features": {
        "a": {"kind": "int64", "present": 4, "values": {"min": 1, "max": 1, "fixed": true}, "int64": {"count": 4, "min": 0, "max": 1}},
        "b": {"kind": "float", "present": 2, "values": {"min": 2, "max": 2, "fixed": true}},
        "c": {"kind": "bytes", "present": 4, "values": {"min": 1, "max": 3, "fixed": false}},
        "d": {"kind": "conflict", "present": 4, "values": {"min": 0, "max": 3, "fixed": false}}}}"#;
    let s = Schema::from_text(json).unwrap();
    assert_eq!(s.features.len(), 4);
    assert_eq!(s.features[0].shape, Some(vec![1]));
    assert_eq!(s.features[0].domain, Some(Domain::Bool(BoolDomain::default())));
    assert_eq!(
        s.features[1].value_count,
        Some(ValueCount {
            min: Some(2),
            max: Some(2)
        })
    );
    assert_eq!(s.features[1].presence.unwrap().min_fraction, None);
    assert_eq!(
        s.features[2].value_count,
        Some(ValueCount {
            min: Some(1),
            max: None
        })
    );
    assert_eq!(s.features[3].kind, FeatureType::Unknown);
    let e = Schema::from_text("{\"records\": 1,\n \"features\": }").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
}

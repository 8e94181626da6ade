//! Unit tests of the column plan and the Arrow → Example encoding.

use super::encode::Layout;
use super::*;
use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray};

fn plan(doc: serde_json::Value) -> Result<Plan, String> {
    Plan::from_schema(&doc, &|_| true)
}

#[test]
fn one_value_everywhere_is_a_plain_column_else_a_list() {
    let p = plan(json!({"type": "example", "features": {
        "label": {"kind": "int64", "values": {"min": 1, "max": 1}},
        "ids": {"kind": "int64", "values": {"min": 0, "max": 3}},
        "text": {"kind": "bytes", "values": {"min": 1, "max": 1}, "bytes": {"count": 3, "utf8": 1.0}},
        "blob": {"kind": "bytes", "values": {"min": 1, "max": 1}, "bytes": {"count": 3, "utf8": 0.9999}},
        "never": {"kind": "none", "values": null}
    }}))
    .unwrap();
    let shape = |n: &str| plan_column(&p, n).map(|c| (c.shape, c.value));
    assert_eq!(shape("label"), Some((Shape::One, ValueType::Int64)));
    assert_eq!(shape("ids"), Some((Shape::List, ValueType::Int64)));
    assert_eq!(shape("text"), Some((Shape::One, ValueType::Utf8)));
    assert_eq!(shape("blob"), Some((Shape::One, ValueType::Binary)));
    assert_eq!(shape("never"), None);
    assert_eq!(p.left_out.len(), 1);
}

fn plan_column<'a>(p: &'a Plan, name: &str) -> Option<&'a Column> {
    p.columns.iter().find(|c| c.name == name)
}

#[test]
fn a_kind_conflict_and_elwc_are_refused_in_one_line() {
    let e = plan(json!({"type": "example", "features": {"x": {"kind": "conflict", "kinds": ["int64", "float"]}}}))
        .unwrap_err();
    assert!(
        e.contains("feature x is int64 and float") && e.contains("--exclude"),
        "{e}"
    );
    assert!(plan(json!({"type": "elwc"}))
        .unwrap_err()
        .contains("ExampleListWithContext"));
}

#[test]
fn feature_lists_are_lists_of_lists_and_collide_with_context() {
    let p = plan(json!({"type": "sequence",
        "context": {"id": {"kind": "int64", "values": {"min": 1, "max": 1}}},
        "feature_lists": {"frames": {"kind": "float", "values": {"min": 3, "max": 3}}}}))
    .unwrap();
    assert!(p.sequence);
    assert_eq!(plan_column(&p, "frames").unwrap().shape, Shape::Steps(Step::Fixed(3)));
    let schema = p.schema();
    assert_eq!(
        schema.field_with_name("frames").unwrap().data_type().to_string(),
        "List(FixedSizeList(3 x Float32))"
    );
    assert!(schema
        .metadata()
        .get(METADATA_KEY)
        .unwrap()
        .contains("\"feature_lists\""));
    let e = plan(json!({"type": "sequence",
        "context": {"a": {"kind": "int64"}}, "feature_lists": {"a": {"kind": "int64"}}}))
    .unwrap_err();
    assert!(e.contains("both a context feature and a feature list"), "{e}");
}

#[test]
fn rows_encode_canonically_and_nulls_are_absent() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int32, true),
        Field::new("s", DataType::Utf8, true),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int32Array::from(vec![Some(1), None])),
        Arc::new(StringArray::from(vec![Some("ab"), Some("c")])),
    ];
    let batch = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let layout = Layout::new(&schema).unwrap();
    assert!(!layout.sequence && layout.notes.is_empty());
    let mut out = Vec::new();
    layout.encode(&batch, 0, &mut out).unwrap();
    // Two framed records: the first an Example {n: [1], s: ["ab"]}.
    let len = u64::from_le_bytes(out[..8].try_into().unwrap()) as usize;
    let first = &out[12..12 + len];
    let expected: &[u8] = &[
        0x0a, 0x19, // features, 25 bytes
        0x0a, 0x0a, 0x0a, 0x01, b'n', 0x12, 0x05, 0x1a, 0x03, 0x0a, 0x01, 0x01, // n: int64_list [1]
        0x0a, 0x0b, 0x0a, 0x01, b's', 0x12, 0x06, 0x0a, 0x04, 0x0a, 0x02, b'a', b'b', // s: bytes_list ["ab"]
    ];
    assert_eq!(first, expected);
    let second = &out[12 + len + 4 + 12..out.len() - 4];
    // Only s: the null n is absent.
    let expected: &[u8] = &[
        0x0a, 0x0c, 0x0a, 0x0a, 0x0a, 0x01, b's', 0x12, 0x05, 0x0a, 0x03, 0x0a, 0x01, b'c',
    ];
    assert_eq!(second, expected);
}

#[test]
fn unsupported_types_name_the_column_and_structs_flatten() {
    let span = DataType::Interval(arrow_schema::IntervalUnit::DayTime);
    let schema = Schema::new(vec![Field::new("span", span, true)]);
    let e = Layout::new(&schema).unwrap_err();
    assert!(
        e.starts_with("column span: Interval(DayTime) has no TFRecord feature kind"),
        "{e}"
    );
    let image = DataType::Struct(
        vec![
            Field::new("bytes", DataType::Binary, true),
            Field::new("path", DataType::Utf8, true),
        ]
        .into(),
    );
    let schema = Schema::new(vec![
        Field::new("image", image, true),
        Field::new("x", DataType::Float64, true),
    ]);
    let layout = Layout::new(&schema).unwrap();
    assert_eq!(
        layout.notes,
        ["column x: double values narrowed to float32 (float_list)"]
    );
}

/// The light scan to-parquet runs gives the plan the full schema scan
/// gives, on every fixture (Examples, SequenceExamples, conflicts,
/// non-UTF-8 bytes, empty features, non-canonical payloads).
#[test]
fn the_light_scan_plans_as_the_full_scan() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    let mut planned = 0;
    for name in [
        "notebook.tfrecord",
        "sequence.tfrecord",
        "edge.tfrecord",
        "base20.tfrecord",
        "images.tfrecord",
        "noncanonical.tfrecord",
        "payloads_noncanonical.tfrecord",
        "payloads_sequence_noncanonical.tfrecord",
        "bad_utf8_key.tfrecord",
        "gallery.tfrecord",
    ] {
        let inputs = crate::io::input::expand(&[dir.join(name).into_os_string()]).expect("fixture");
        let plan_of = |light: bool| {
            let opts = crate::schema::Options {
                workers: 2,
                light,
                ..Default::default()
            };
            let (scan, error) = crate::schema::scan(&inputs, &opts, &|_, _| {});
            let plan = Plan::from_schema(&crate::schema::json::to_json(&scan), &|_| true);
            let scan_facts = (scan.stats.records, error.map(|e| format!("{e:#}")));
            format!("{scan_facts:?} {:?}", plan.map(|p| (p.columns, p.left_out)))
        };
        let full = plan_of(false);
        assert_eq!(plan_of(true), full, "{name}");
        planned += usize::from(full.contains("Column"));
    }
    assert!(planned >= 6, "{planned} fixtures gave columns");
}

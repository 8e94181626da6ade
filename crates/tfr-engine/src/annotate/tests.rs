use super::check::{ProblemKind, Tally};
use super::*;
use crate::example::{proto, Decoder};
use prost::Message;

fn example(features: &[(&str, proto::feature::Kind)]) -> Vec<u8> {
    let mut f = proto::Features::default();
    for (k, v) in features {
        f.feature.push(proto::FeatureEntry {
            key: Some(k.to_string()),
            value: Some(proto::Feature { kind: Some(v.clone()) }),
        });
    }
    proto::Example { features: Some(f) }.encode_to_vec()
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

fn annotations(features: &[(&str, proto::feature::Kind)], opts: &Options) -> Option<Annotations> {
    let bytes = example(features);
    let mut d = Decoder::new();
    let ex = d.example(&bytes, false).unwrap();
    read(&ex.features().unwrap(), opts)
}

fn kinds(a: &Annotations) -> Vec<ProblemKind> {
    a.problems.iter().map(|p| p.kind).collect()
}

fn od(xmin: &[f32], ymin: &[f32], xmax: &[f32], ymax: &[f32]) -> Vec<(&'static str, proto::feature::Kind)> {
    vec![
        ("image/object/bbox/xmin", floats(xmin)),
        ("image/object/bbox/ymin", floats(ymin)),
        ("image/object/bbox/xmax", floats(xmax)),
        ("image/object/bbox/ymax", floats(ymax)),
    ]
}

#[test]
fn a_record_without_annotation_features_has_none() {
    let none = annotations(
        &[("x", ints(&[1])), ("image/encoded", strs(&["jpeg?"]))],
        &Options::default(),
    );
    assert_eq!(none, None);
}

#[test]
fn classes_come_from_text_then_the_label_map_then_ids() {
    let map = LabelMap::parse("item { id: 1 name: 'person' } item { id: 3 name: 'car' }").unwrap();
    let mut f = od(&[0.1, 0.2], &[0.1, 0.2], &[0.5, 0.6], &[0.5, 0.6]);
    f.push(("image/object/class/label", ints(&[1, 3])));
    let plain = annotations(&f, &Options::default()).unwrap();
    assert_eq!(plain.boxes[1].class.as_ref().unwrap().to_string(), "3");
    let opts = Options {
        label_map: Some(map),
        ..Options::default()
    };
    let named = annotations(&f, &opts).unwrap();
    assert_eq!(named.boxes[1].class.as_ref().unwrap().to_string(), "car (3)");
    f.push(("image/object/class/text", strs(&["Person", "Car"])));
    let texts = annotations(&f, &opts).unwrap();
    assert_eq!(texts.boxes[0].class.as_ref().unwrap().to_string(), "Person (1)");
    assert!(texts.problems.is_empty());
    assert_eq!(texts.boxes_from.as_deref(), Some("image/object/bbox"));
}

#[test]
fn nan_and_infinite_corners_are_outside_and_never_panic() {
    let f = od(&[f32::NAN], &[0.0], &[f32::INFINITY], &[-0.0]);
    let a = annotations(&f, &Options::default()).unwrap();
    assert_eq!(kinds(&a), [ProblemKind::OutOfRange, ProblemKind::ZeroArea]);
    let json = a.to_json();
    assert_eq!(json["boxes"][0]["xmin"], serde_json::Value::Null);
}

#[test]
fn pixels_only_when_the_size_is_known_and_most_values_exceed_one() {
    let mut f = od(&[10.0], &[5.0], &[30.0], &[20.0]);
    let unsized_boxes = annotations(&f, &Options::default()).unwrap();
    assert!(!unsized_boxes.pixels);
    assert_eq!(kinds(&unsized_boxes), [ProblemKind::OutOfRange]);
    f.push(("image/width", ints(&[40])));
    f.push(("image/height", ints(&[20])));
    let px = annotations(&f, &Options::default()).unwrap();
    assert!(px.pixels);
    assert_eq!(px.boxes[0].xmax, 0.75);
    assert!(px.problems.is_empty(), "{:?}", px.problems);
    // One corner of a normalised box past the edge: not pixels.
    let mut g = od(&[0.1], &[0.1], &[1.25], &[0.5]);
    g.push(("image/width", ints(&[40])));
    g.push(("image/height", ints(&[20])));
    let normalised = annotations(&g, &Options::default()).unwrap();
    assert!(!normalised.pixels);
    assert_eq!(kinds(&normalised), [ProblemKind::OutOfRange]);
}

#[test]
fn a_tfds_flat_list_and_a_given_prefix() {
    let f = [
        ("objects/bbox", floats(&[0.1, 0.2, 0.3, 0.4, 0.5])),
        ("objects/label", ints(&[0])),
    ];
    let opts = Options {
        classes: [("objects/label".to_string(), vec!["cat".to_string()])].into(),
        ..Options::default()
    };
    let a = annotations(&f, &opts).unwrap();
    assert_eq!(a.boxes.len(), 1);
    assert_eq!((a.boxes[0].ymin, a.boxes[0].xmin), (0.1f32 as f64, 0.2f32 as f64));
    assert_eq!(a.boxes[0].class.as_ref().unwrap().to_string(), "cat (0)");
    assert_eq!(kinds(&a), [ProblemKind::LengthsDiffer]);
    let g = [
        ("det/box/xmin", floats(&[0.1])),
        ("det/box/ymin", floats(&[0.1])),
        ("det/box/xmax", floats(&[0.2])),
        ("det/box/ymax", floats(&[0.2])),
        ("det/label", ints(&[7, 8])),
    ];
    let found = annotations(&g, &Options::default()).unwrap();
    assert_eq!(found.boxes_from.as_deref(), Some("det/box"));
    let given = annotations(
        &g,
        &Options {
            bbox: Some("det/box/".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(given.boxes_from.as_deref(), Some("det/box"));
    assert_eq!(kinds(&given), [ProblemKind::ClassCount]);
    // A prefix the record lacks: nothing.
    let missing = Options {
        bbox: Some("nope".into()),
        ..Options::default()
    };
    assert_eq!(annotations(&g[..1], &missing), None);
}

#[test]
fn unknown_classes_and_one_problem_of_each_kind_per_record() {
    let map = LabelMap::parse("item { id: 1 name: 'a' }").unwrap();
    let mut f = od(&[0.5, 0.6, 0.1], &[0.1, 0.1, 0.1], &[0.1, 0.2, 0.2], &[0.2, 0.2, 0.2]);
    f.push(("image/object/class/label", ints(&[1, 9, 10])));
    let opts = Options {
        label_map: Some(map),
        ..Options::default()
    };
    let a = annotations(&f, &opts).unwrap();
    assert_eq!(kinds(&a), [ProblemKind::UnknownClass, ProblemKind::XminOverXmax]);
    assert!(a.problems[0].detail.contains("class 9"), "{}", a.problems[0].detail);
    let mut t = Tally::default();
    t.add(Some(&a), (0, 4));
    t.add(None, (0, 5));
    let mut later = Tally::default();
    later.add(Some(&a), (1, 0));
    t.merge(later);
    assert_eq!(t.records, 3);
    assert_eq!(t.boxes, 6);
    assert_eq!(t.problems[&ProblemKind::XminOverXmax].records, 2);
    assert_eq!(t.problems[&ProblemKind::XminOverXmax].first, (0, 4));
    assert_eq!(t.per_class["a (1)"], 2);
    assert_eq!(t.mean_boxes(), 3.0);
}

#[test]
fn highlight_by_name_or_id() {
    let opts = Options {
        highlight: vec!["car".into(), "7".into()],
        ..Options::default()
    };
    let class = |id: Option<i64>, name: Option<&str>| Class {
        id,
        name: name.map(str::to_string),
    };
    assert!(opts.highlights(&class(Some(3), Some("car"))));
    assert!(opts.highlights(&class(Some(7), None)));
    assert!(!opts.highlights(&class(Some(70), Some("bus"))));
}

#[test]
fn review_a_pixel_box_at_the_corner_bytes_coordinates_and_exact_ids() {
    // A pixel box touching the top left corner is still in pixels.
    let mut f = od(&[0.0], &[0.0], &[30.0], &[20.0]);
    f.push(("image/width", ints(&[64])));
    f.push(("image/height", ints(&[48])));
    let a = annotations(&f, &Options::default()).unwrap();
    assert!(a.pixels && a.problems.is_empty(), "{:?}", a.problems);
    // Coordinates as bytes: said, not a silent empty list.
    let b = annotations(
        &[
            ("image/object/bbox/xmin", strs(&["0.1"])),
            ("image/object/bbox/ymin", floats(&[0.1])),
            ("image/object/bbox/xmax", floats(&[0.2])),
            ("image/object/bbox/ymax", floats(&[0.2])),
        ],
        &Options::default(),
    )
    .unwrap();
    assert_eq!(kinds(&b), [ProblemKind::NotNumbers]);
    // Class ids: an int64 exactly; a float one only when integral.
    let mut g = od(&[0.1, 0.1], &[0.1, 0.1], &[0.2, 0.2], &[0.2, 0.2]);
    g.push(("image/object/class/label", ints(&[9_007_199_254_740_993, 1])));
    let c = annotations(&g, &Options::default()).unwrap();
    assert_eq!(c.boxes[0].class.as_ref().unwrap().id, Some(9_007_199_254_740_993));
    g.pop();
    g.push(("image/object/class/label", floats(&[2.0, 1.7])));
    let d = annotations(&g, &Options::default()).unwrap();
    assert_eq!(d.boxes[0].class.as_ref().unwrap().id, Some(2));
    assert_eq!(kinds(&d), [ProblemKind::UnknownClass]);
    assert!(
        d.problems[0].detail.contains("1.7, not an integer"),
        "{}",
        d.problems[0].detail
    );
}

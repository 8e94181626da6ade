//! Unit tests of the per-feature statistics.

use super::*;
use crate::example::proto;
use crate::example::Decoder;
use prost::Message;

fn feature(kind: Kind, n: usize) -> proto::Feature {
    use proto::feature::Kind as K;
    let kind = match kind {
        Kind::Int64 => Some(K::Int64List(proto::Int64List {
            value: (0..n as i64).collect(),
        })),
        Kind::Float => Some(K::FloatList(proto::FloatList {
            value: (0..n).map(|i| i as f32).collect(),
        })),
        Kind::Bytes => Some(K::BytesList(proto::BytesList {
            value: (0..n).map(|i| vec![b'a'; i]).collect(),
        })),
        Kind::None => None,
    };
    proto::Feature { kind }
}

fn example(features: &[(&str, proto::Feature)]) -> Vec<u8> {
    let ex = proto::Example {
        features: Some(proto::Features {
            feature: features
                .iter()
                .map(|(k, f)| proto::FeatureEntry {
                    key: Some(k.to_string()),
                    value: Some(f.clone()),
                })
                .collect(),
        }),
    };
    ex.encode_to_vec()
}

fn collect(records: &[(u32, Vec<u8>)]) -> Collector {
    let mut c = Collector::new();
    let mut d = Decoder::new();
    for (i, (input, r)) in records.iter().enumerate() {
        let ex = d.example(r, false).unwrap();
        c.add_example(&ex, *input, i as u64);
    }
    c
}

fn get<'a>(c: &'a Collector, name: &str) -> &'a FeatureStats {
    c.features.features().iter().find(|f| &*f.name == name).unwrap()
}

#[test]
fn counts_presence_values_and_kinds() {
    let c = collect(&[
        (
            0,
            example(&[("a", feature(Kind::Int64, 2)), ("b", feature(Kind::Float, 1))]),
        ),
        (
            0,
            example(&[("b", feature(Kind::Float, 3)), ("a", feature(Kind::Int64, 2))]),
        ),
        (
            1,
            example(&[("a", feature(Kind::Bytes, 1)), ("c", feature(Kind::None, 0))]),
        ),
    ]);
    assert_eq!(c.records, 3);
    let a = get(&c, "a");
    assert_eq!(a.present, 3);
    assert!(a.is_conflict());
    assert_eq!(a.kinds(), vec![Kind::Int64, Kind::Bytes]);
    assert_eq!(a.first_seen[2], Some(Seen { input: 1, record: 2 }));
    assert_eq!(a.values.range(), Some((1, 2)));
    assert_eq!(a.inputs, vec![0, 1]);
    let b = get(&c, "b");
    assert_eq!((b.present, b.values.min, b.values.max), (2, 1, 3));
    assert_eq!(b.float.range(), Some((0.0, 2.0)));
    assert_eq!(b.inputs, vec![0]);
    let cc = get(&c, "c");
    assert_eq!((cc.no_kind, cc.kind()), (1, None));
    assert!(cc.is_always_empty());
}

#[test]
fn a_repeated_key_counts_once_with_its_last_value() {
    // Hand-encoded: key "d" with int64 [1], then "d" with float [1.0, 1.0].
    let entry = |value: &[u8]| {
        let mut e = vec![0x0a, 1, b'd', 0x12, value.len() as u8];
        e.extend_from_slice(value);
        let mut m = vec![0x0a, e.len() as u8];
        m.extend(e);
        m
    };
    let mut features = entry(&[0x1a, 3, 0x0a, 1, 1]);
    features.extend(entry(&[0x12, 10, 0x0a, 8, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f]));
    let mut payload = vec![0x0a, features.len() as u8];
    payload.extend(features);
    let c = collect(&[(0, payload)]);
    let d = get(&c, "d");
    assert_eq!(d.present, 1);
    assert_eq!(d.kinds(), vec![Kind::Float]);
    assert_eq!(d.values.range(), Some((2, 2)));
}

#[test]
fn merging_equals_collecting_together() {
    let recs = [
        (
            0,
            example(&[("a", feature(Kind::Int64, 2)), ("b", feature(Kind::Bytes, 1))]),
        ),
        (0, example(&[("a", feature(Kind::Float, 3))])),
        (
            1,
            example(&[("b", feature(Kind::Bytes, 3)), ("c", feature(Kind::None, 0))]),
        ),
        (2, example(&[("a", feature(Kind::Int64, 1))])),
    ];
    let all = collect(&recs);
    let mut d = Decoder::new();
    let (mut x, mut y) = (Collector::new(), Collector::new());
    for (i, (input, r)) in recs.iter().enumerate() {
        let ex = d.example(r, false).unwrap();
        // Odd records first, into another collector.
        if i % 2 == 1 { &mut x } else { &mut y }.add_example(&ex, *input, i as u64);
    }
    x.merge(&y);
    assert_eq!((x.records, &x.per_input), (all.records, &all.per_input));
    for f in all.features.features() {
        let g = get(&x, &f.name);
        assert_eq!(
            (g.present, g.first_seen, &g.inputs, g.values),
            (f.present, f.first_seen, &f.inputs, f.values)
        );
        assert_eq!(
            (g.int64, g.float, g.bytes, g.kinds()),
            (f.int64, f.float, f.bytes, f.kinds())
        );
    }
}

#[test]
fn recycling_keeps_the_allocation() {
    let v: Vec<(u32, FeatureView<'static>)> = Vec::with_capacity(16);
    let at = v.as_ptr() as usize;
    let w: Vec<(u32, FeatureView<'static>)> = recycle(v);
    assert_eq!((w.as_ptr() as usize, w.capacity() >= 16), (at, true));
}

#[test]
fn sniffs_media_types() {
    assert_eq!(sniff(b"\xff\xd8\xff\xe0rest", false), Media::Jpeg);
    assert_eq!(sniff(b"\x89PNG\r\n\x1a\n....", false), Media::Png);
    assert_eq!(sniff(b"GIF89a..", true), Media::Gif);
    assert_eq!(sniff(b"RIFF\x10\0\0\0WEBPVP8 ", false), Media::Webp);
    // tf.io.serialize_tensor(tf.constant(1.0)) and of b"ab".
    assert_eq!(sniff(b"\x08\x01\x12\x00\"\x04\x00\x00\x80?", false), Media::TensorProto);
    assert_eq!(sniff(b"\x08\x07\x12\x00B\x02ab", true), Media::TensorProto);
    assert_eq!(sniff(b"\x08\x07", true), Media::Binary);
    assert_eq!(sniff(br#" {"a": [1, 2]} "#, true), Media::Json);
    assert_eq!(sniff(b"{not json}", true), Media::Text);
    assert_eq!(sniff("héllo\n".as_bytes(), true), Media::Text);
    assert_eq!(sniff(b"a\x00b", true), Media::Binary);
    assert_eq!(sniff(b"\xc3\x28", false), Media::Binary);
}

#[test]
fn names_past_the_limit_are_counted_not_tracked() {
    let names: Vec<Vec<String>> = (0..3)
        .map(|r| (0..5000).map(|i| format!("f{r}_{i}")).collect())
        .collect();
    let record = |r: usize| {
        let mut feats = vec![("common", feature(Kind::Float, 1))];
        feats.extend(names[r].iter().map(|n| (n.as_str(), feature(Kind::Int64, 1))));
        example(&feats)
    };
    let all = collect(&[(0, record(0)), (0, record(1)), (0, record(2))]);
    assert_eq!(all.features.len(), MAX_FEATURES);
    // 15,001 distinct names: "common" and the first ones after it tracked.
    assert_eq!(all.features.untracked(), (15_001 - MAX_FEATURES as u64, false));
    assert_eq!(get(&all, "common").present, 3, "a tracked name keeps counting");
    // Per-part tables merge to the same counts.
    let mut merged = collect(&[(0, record(0)), (0, record(1))]);
    merged.merge(&collect(&[(0, record(2))]));
    assert_eq!(merged.features.len(), MAX_FEATURES);
    assert_eq!(merged.features.untracked(), all.features.untracked());
    assert_eq!(get(&merged, "common").present, 3);
}

//! Tests of the whole module: protobuf parse semantics (each case checked
//! with Python protobuf 7.36.2 / upb), auto type resolution, the text
//! renderer against the TensorFlow oracle fixtures in tests/data, and the
//! zero-copy views against prost decoding.

use prost::Message;

use super::proto::{self, feature::Kind as PKind};
use super::*;

// ---------------------------------------------------------------------------
// Hand encoding helpers
// ---------------------------------------------------------------------------

fn varint(v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    super::wire::put_varint(&mut out, v);
    out
}

/// A length-delimited field.
fn ld(field: u32, body: &[u8]) -> Vec<u8> {
    [
        varint(u64::from(field) << 3 | 2),
        varint(body.len() as u64),
        body.to_vec(),
    ]
    .concat()
}

/// A Features map entry (field 1 of Features) with the given key and value.
fn entry(key: &[u8], value: &[u8]) -> Vec<u8> {
    ld(1, &[ld(1, key), ld(2, value)].concat())
}

/// An Example with the given Features entries.
fn example(entries: &[Vec<u8>]) -> Vec<u8> {
    ld(1, &entries.concat())
}

fn int64s(values: &[i64]) -> Vec<u8> {
    let packed: Vec<u8> = values.iter().flat_map(|&v| varint(v as u64)).collect();
    ld(3, &ld(1, &packed))
}

fn text(ty: MessageType, payload: &[u8]) -> Result<String, DecodeError> {
    let mut out = Vec::new();
    render_text(ty, false, payload, &mut out)?;
    Ok(String::from_utf8(out).expect("text output is UTF-8"))
}

fn ex_text(payload: &[u8]) -> String {
    text(MessageType::Example, payload).unwrap()
}

/// The text of an Example with one feature `key` whose value block is `body`.
fn one_feature(key: &str, body: &str) -> String {
    let body: String = body.lines().map(|l| format!("      {l}\n")).collect();
    let key = if key.is_empty() {
        String::new()
    } else {
        format!("    key: \"{key}\"\n")
    };
    format!("features {{\n  feature {{\n{key}    value {{\n{body}    }}\n  }}\n}}\n")
}

// ---------------------------------------------------------------------------
// Parse semantics (expected outputs from Python protobuf)
// ---------------------------------------------------------------------------

#[test]
fn basic_and_empty() {
    let p = example(&[entry(b"a", &int64s(&[1, -1]))]);
    assert_eq!(
        ex_text(&p),
        one_feature("a", "int64_list {\n  value: 1\n  value: -1\n}")
    );
    assert_eq!(ex_text(b""), "");
    assert_eq!(ex_text(&example(&[])), "features {\n}\n");
    let kinds = example(&[
        entry(b"a", &ld(1, b"")),
        entry(b"b", &ld(2, b"")),
        entry(b"c", &ld(3, b"")),
        entry(b"d", b""),
    ]);
    let want = "features {\n  feature {\n    key: \"a\"\n    value {\n      bytes_list {\n      }\n    }\n  }\n  feature {\n    key: \"b\"\n    value {\n      float_list {\n      }\n    }\n  }\n  feature {\n    key: \"c\"\n    value {\n      int64_list {\n      }\n    }\n  }\n  feature {\n    key: \"d\"\n    value {\n    }\n  }\n}\n";
    assert_eq!(ex_text(&kinds), want);
}

#[test]
fn map_entry_edge_cases() {
    let v3 = int64s(&[3]);
    let int3 = "int64_list {\n  value: 3\n}";
    // Empty entry, key only, value only.
    assert_eq!(ex_text(&example(&[ld(1, b"")])), one_feature("", ""));
    assert_eq!(ex_text(&example(&[ld(1, &ld(1, b"k"))])), one_feature("k", ""));
    assert_eq!(ex_text(&example(&[ld(1, &ld(2, &v3))])), one_feature("", int3));
    // Value twice: merged. Key twice: last wins.
    let twice = ld(1, &[ld(1, b"k"), ld(2, &v3), ld(2, &int64s(&[4]))].concat());
    let merged = "int64_list {\n  value: 3\n  value: 4\n}";
    assert_eq!(ex_text(&example(&[twice])), one_feature("k", merged));
    let key_twice = ld(1, &[ld(1, b"k"), ld(2, &v3), ld(1, b"j")].concat());
    assert_eq!(ex_text(&example(&[key_twice])), one_feature("j", int3));
    // Duplicate keys: the last entry replaces (not merges) the first.
    let one_f = ld(2, &ld(1, &1f32.to_le_bytes()));
    let dup = example(&[entry(b"k", &v3), entry(b"k", &one_f)]);
    assert_eq!(ex_text(&dup), one_feature("k", "float_list {\n  value: 1.0\n}"));
    // `features` twice: one merged map, sorted by key.
    let two = [example(&[entry(b"k", &v3)]), example(&[entry(b"j", &int64s(&[2]))])].concat();
    let t = ex_text(&two);
    assert!(t.find("key: \"j\"").unwrap() < t.find("key: \"k\"").unwrap(), "{t}");
}

#[test]
fn oneof_and_lists() {
    let a = ld(1, &ld(1, b"a"));
    let b = ld(1, &ld(1, b"b"));
    let f = ld(2, &ld(1, &1f32.to_le_bytes()));
    // Switching kind drops the previous values; the same kind merges.
    let switch = example(&[entry(b"k", &[a.clone(), f, b.clone()].concat())]);
    assert_eq!(ex_text(&switch), one_feature("k", "bytes_list {\n  value: \"b\"\n}"));
    let same = example(&[entry(b"k", &[a, b].concat())]);
    assert_eq!(
        ex_text(&same),
        one_feature("k", "bytes_list {\n  value: \"a\"\n  value: \"b\"\n}")
    );
    // Unpacked, packed, unpacked floats concatenate.
    let mut list = vec![0x0d];
    list.extend(1f32.to_le_bytes());
    list.extend(ld(1, &[2f32.to_le_bytes(), 3f32.to_le_bytes()].concat()));
    list.push(0x0d);
    list.extend(4f32.to_le_bytes());
    let want = "float_list {\n  value: 1.0\n  value: 2.0\n  value: 3.0\n  value: 4.0\n}";
    assert_eq!(ex_text(&example(&[entry(b"k", &ld(2, &list))])), one_feature("k", want));
    // Unpacked then packed int64s; a fixed32 in an Int64List is unknown.
    let ints = [vec![0x08, 5, 0x08, 6], ld(1, &[7]), vec![0x0d, 1, 2, 3, 4]].concat();
    let want = "int64_list {\n  value: 5\n  value: 6\n  value: 7\n}";
    assert_eq!(ex_text(&example(&[entry(b"k", &ld(3, &ints))])), one_feature("k", want));
    // Wrong wire types are unknown fields: empty lists / no kind.
    let empty_float = example(&[entry(b"k", &ld(2, &[0x08, 1]))]);
    assert_eq!(ex_text(&empty_float), one_feature("k", "float_list {\n}"));
    assert_eq!(ex_text(&example(&[entry(b"k", &[0x08, 1])])), one_feature("k", ""));
    // A 10-byte varint keeps its low 64 bits.
    let wide = [vec![0xff; 9], vec![0x7f]].concat();
    let v = example(&[entry(b"k", &ld(3, &ld(1, &wide)))]);
    assert_eq!(ex_text(&v), one_feature("k", "int64_list {\n  value: -1\n}"));
}

#[test]
fn parse_errors() {
    use DecodeErrorKind as K;
    let err = |p: &[u8]| text(MessageType::Example, p).unwrap_err().kind().clone();
    assert_eq!(err(&example(&[entry(b"k\xff", &int64s(&[1]))])), K::InvalidUtf8Key);
    // Surrogates and overlong encodings are invalid too.
    assert_eq!(err(&example(&[entry(b"\xed\xa0\x80", b"")])), K::InvalidUtf8Key);
    assert_eq!(err(&example(&[entry(b"\xc0\x80", b"")])), K::InvalidUtf8Key);
    // Even a key that a later key field replaces is checked.
    let replaced = ld(1, &[ld(1, b"\xff"), ld(1, b"j")].concat());
    assert_eq!(err(&example(&[replaced])), K::InvalidUtf8Key);
    assert_eq!(
        err(&example(&[entry(b"k", &ld(2, &ld(1, &[0; 3])))])),
        K::BadPackedLength
    );
    assert_eq!(
        err(&example(&[entry(b"k", &ld(3, &ld(1, &[0x80])))])),
        K::TruncatedVarint
    );
    let eleven = [vec![0x80; 10], vec![1]].concat();
    assert_eq!(err(&example(&[entry(b"k", &ld(3, &ld(1, &eleven)))])), K::VarintTooLong);
    // Errors in a value that a later duplicate key replaces still count.
    let dup = example(&[entry(b"k", &ld(3, &ld(1, &[0x80]))), entry(b"k", &int64s(&[2]))]);
    assert_eq!(err(&dup), K::TruncatedVarint);
    // Unknown top-level fields are fine unless strict.
    assert_eq!(ex_text(&[0x08, 0x05]), "");
    let mut out = b"keep".to_vec();
    let e = render_text(MessageType::Example, true, &[0x08, 0x05], &mut out).unwrap_err();
    assert!(matches!(e.kind(), K::UnexpectedField { field: 1, .. }), "{e}");
    assert_eq!(out, b"keep", "output untouched on error");
    assert!(
        e.to_string().ends_with("use --type raw to print payloads as bytes"),
        "{e}"
    );
    // Unknown fields next to `features` are skipped, even in strict mode.
    let extra = [
        example(&[entry(b"k", &int64s(&[1]))]),
        vec![0x28, 0x01, 0x98, 0x06, 0x2a],
    ]
    .concat();
    let mut out = Vec::new();
    render_text(MessageType::Example, true, &extra, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        one_feature("k", "int64_list {\n  value: 1\n}")
    );
    // Groups nested inside a Feature count toward the depth limit of 100.
    let nest = |d: usize| [vec![0x23; d], vec![0x24; d]].concat();
    assert!(text(MessageType::Example, &example(&[entry(b"k", &nest(97))])).is_ok());
    assert_eq!(err(&example(&[entry(b"k", &nest(98))])), K::TooDeep);
}

#[test]
fn error_messages() {
    let e = text(MessageType::Example, &[0x0a, 0x05, 0x0a]).unwrap_err();
    assert_eq!(e.to_string(), "field value runs past the end of its message at byte 1");
    let e = text(MessageType::Example, &example(&[entry(b"k\xff", b"")])).unwrap_err();
    assert_eq!(e.to_string(), "invalid UTF-8 in feature key at byte 7");
    let e = text(MessageType::Example, &[0x08, 0x80]).unwrap_err();
    assert_eq!(e.to_string(), "truncated varint at byte 1");
}

#[test]
fn sequence_examples() {
    let fl = |features: &[Vec<u8>]| ld(2, &ld(1, &[ld(1, b"fl"), ld(2, &features.concat())].concat()));
    let nan = ld(2, &ld(1, &f32::NAN.to_le_bytes()));
    let p = [
        ld(1, &entry(b"c", &int64s(&[1]))),
        fl(&[ld(1, &int64s(&[1])), ld(1, b""), ld(1, &nan)]),
    ]
    .concat();
    let want = "context {\n  feature {\n    key: \"c\"\n    value {\n      int64_list {\n        value: 1\n      }\n    }\n  }\n}\nfeature_lists {\n  feature_list {\n    key: \"fl\"\n    value {\n      feature {\n        int64_list {\n          value: 1\n        }\n      }\n      feature {\n      }\n      feature {\n        float_list {\n          value: nan\n        }\n      }\n    }\n  }\n}\n";
    assert_eq!(text(MessageType::SequenceExample, &p).unwrap(), want);
    assert_eq!(resolve_auto(&p).unwrap(), MessageType::SequenceExample);
    // A FeatureList value given twice in one entry is one merged list.
    let twice = ld(
        2,
        &ld(
            1,
            &[ld(1, b"fl"), ld(2, &ld(1, &int64s(&[1]))), ld(2, &ld(1, &int64s(&[2])))].concat(),
        ),
    );
    let t = text(MessageType::SequenceExample, &twice).unwrap();
    assert_eq!(t.matches("int64_list").count(), 2, "{t}");
    let empty = [ld(2, b""), ld(1, b"")].concat();
    assert_eq!(
        text(MessageType::SequenceExample, &empty).unwrap(),
        "context {\n}\nfeature_lists {\n}\n"
    );
}

#[test]
fn auto_resolution() {
    use DecodeErrorKind as K;
    let ex = example(&[entry(b"a", &int64s(&[1]))]);
    assert_eq!(resolve_auto(&ex).unwrap(), MessageType::Example);
    assert_eq!(resolve_auto(b"").unwrap(), MessageType::Example);
    // Text that happens to parse (field 13 varint...) is not an Example.
    for bad in [&b"hello world"[..], b"h\x01", &[0x0a, 0x05], &[0x08, 0x01, 0x10, 0x00]] {
        let e = resolve_auto(bad).unwrap_err();
        assert!(matches!(e.kind(), K::NotAnExample { .. }), "{e}");
        assert!(
            e.to_string().ends_with("use --type raw to print payloads as bytes"),
            "{e}"
        );
    }
    // Unknown fields next to known ones do not change the type.
    let ex_extra = [vec![0x08, 0x01], example(&[])].concat();
    assert_eq!(resolve_auto(&ex_extra).unwrap(), MessageType::Example);
    let seq = [ld(2, b""), vec![0x18, 0x01]].concat();
    assert_eq!(resolve_auto(&seq).unwrap(), MessageType::SequenceExample);
    // Strict mode in an Example file: a record with feature_lists.
    let mut out = Vec::new();
    let e = render_text(MessageType::Example, true, &ld(2, b""), &mut out).unwrap_err();
    assert!(e.to_string().contains("--type sequence"), "{e}");
}

#[test]
fn raw_payloads() {
    let t = text(MessageType::Raw, b"caf\xc3\xa9 \"q\"\t\xff\n").unwrap();
    assert_eq!(t, "\"café \\\"q\\\"\\t\\377\\n\"\n");
}

// ---------------------------------------------------------------------------
// Robustness: every truncation of a real Example errors or parses, no panic
// ---------------------------------------------------------------------------

fn sample_example() -> Vec<u8> {
    let e = proto::Example {
        features: Some(proto::Features {
            feature: vec![
                proto::FeatureEntry::new("bytes", proto::Feature::bytes(vec![b"ab\x00c".to_vec(), vec![]])),
                proto::FeatureEntry::new("floats", proto::Feature::floats(vec![1.5, -0.0, f32::NAN])),
                proto::FeatureEntry::new("ints", proto::Feature::int64s(vec![i64::MIN, -1, 0, 300])),
                proto::FeatureEntry::new("none", proto::Feature::default()),
            ],
        }),
    };
    e.encode_to_vec()
}

#[test]
fn truncation_never_panics() {
    let full = sample_example();
    for ty in [MessageType::Example, MessageType::SequenceExample] {
        for strict in [false, true] {
            for end in 0..=full.len() {
                let mut out = Vec::new();
                let r = render_text(ty, strict, &full[..end], &mut out);
                if r.is_err() {
                    assert!(out.is_empty());
                }
                let _ = resolve_auto(&full[..end]);
            }
        }
    }
    // Every single-byte corruption, too.
    for i in 0..full.len() {
        for b in [0x00, 0x7f, 0x80, 0xff, 0x0a, 0x12] {
            let mut p = full.clone();
            p[i] = b;
            let mut out = Vec::new();
            let _ = render_text(MessageType::Example, false, &p, &mut out);
            let _ = render_text(MessageType::SequenceExample, true, &p, &mut out);
        }
    }
}

/// Random payloads and random mutations of real ones: errors, never panics.
#[test]
fn random_bytes_never_panic() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let seed = sample_example();
    let mut decoder = Decoder::new();
    let mut out = Vec::new();
    for i in 0..20_000 {
        let payload: Vec<u8> = if i % 2 == 0 {
            (0..next() % 64).map(|_| next() as u8).collect()
        } else {
            let mut p = seed.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() as usize) % p.len();
                p[at] = next() as u8;
            }
            p.truncate(1 + (next() as usize) % p.len());
            p
        };
        for ty in [MessageType::Example, MessageType::SequenceExample, MessageType::Raw] {
            out.clear();
            let _ = render_with(&mut decoder, Format::Text, ty, i % 3 == 0, &payload, &mut out);
        }
        let _ = resolve_auto(&payload);
    }
}

// ---------------------------------------------------------------------------
// Views against prost
// ---------------------------------------------------------------------------

/// A view's Feature as an owned prost Feature.
fn owned_feature(f: &FeatureView<'_>) -> proto::Feature {
    match f.kind() {
        Kind::None => proto::Feature::default(),
        Kind::Bytes => proto::Feature::bytes(f.bytes().map(<[u8]>::to_vec).collect()),
        Kind::Float => proto::Feature::floats(f.floats().collect()),
        Kind::Int64 => proto::Feature::int64s(f.int64s().collect()),
    }
}

/// Feature entries in wire order as (key, Feature), from the view.
fn view_entries(features: &FeaturesView<'_>) -> Vec<(String, proto::Feature)> {
    features
        .entries()
        .map(|(k, f)| (k.to_owned(), owned_feature(&f)))
        .collect()
}

/// The same from prost (which keeps every entry, in wire order).
fn prost_entries(features: &proto::Features) -> Vec<(String, proto::Feature)> {
    let entries = features.feature.iter();
    entries
        .map(|e| (e.key.clone().unwrap_or_default(), e.value.clone().unwrap_or_default()))
        .collect()
}

/// A comparable rendering of a Feature (floats by bits: NaN == NaN).
fn norm(f: &proto::Feature) -> String {
    match &f.kind {
        Some(PKind::FloatList(l)) => format!("F{:x?}", l.value.iter().map(|x| x.to_bits()).collect::<Vec<_>>()),
        Some(PKind::Int64List(l)) => format!("I{:?}", l.value),
        Some(PKind::BytesList(l)) => format!("B{:?}", l.value),
        None => "N".to_owned(),
    }
}

fn bits_eq(a: &[(String, proto::Feature)], b: &[(String, proto::Feature)]) -> bool {
    let norm_all = |v: &[(String, proto::Feature)]| -> Vec<String> {
        v.iter().map(|(k, f)| format!("{k:?}={}", norm(f))).collect()
    };
    norm_all(a) == norm_all(b)
}

#[test]
fn views_agree_with_prost() {
    let v3 = int64s(&[3]);
    let payloads = vec![
        sample_example(),
        example(&[entry(b"k", &v3), entry(b"k", &ld(1, &ld(1, b"x")))]),
        example(&[ld(
            1,
            &[ld(1, b"k"), ld(2, &v3), ld(2, &int64s(&[4])), ld(1, b"j")].concat(),
        )]),
        example(&[entry(
            b"k",
            &[ld(1, &ld(1, b"a")), ld(2, &ld(1, &[0; 4])), ld(1, &ld(1, b"b"))].concat(),
        )]),
        example(&[entry(
            b"k",
            &ld(3, &[vec![0x08, 5], ld(1, &[7, 8]), vec![0x10, 1]].concat()),
        )]),
        [
            example(&[entry(b"a", &v3)]),
            vec![0x18, 0x01],
            example(&[entry(b"b", &v3)]),
        ]
        .concat(),
    ];
    for p in &payloads {
        let want = proto::Example::decode(&p[..]).unwrap();
        let mut dec = Decoder::new();
        let view = dec.example(p, false).unwrap();
        assert_eq!(view.features().is_some(), want.features.is_some());
        if let (Some(v), Some(w)) = (view.features(), want.features.as_ref()) {
            let (got, want) = (view_entries(&v), prost_entries(w));
            assert!(bits_eq(&got, &want), "{got:?}\n{want:?}");
        }
    }
    // SequenceExample: context and feature lists.
    let s = proto::SequenceExample {
        context: Some(proto::Features {
            feature: vec![proto::FeatureEntry::new("c", proto::Feature::int64s(vec![7]))],
        }),
        feature_lists: Some(proto::FeatureLists {
            feature_list: vec![proto::FeatureListEntry::new(
                "fl",
                proto::FeatureList {
                    feature: vec![proto::Feature::floats(vec![0.5]), proto::Feature::default()],
                },
            )],
        }),
    };
    let bytes = s.encode_to_vec();
    let mut dec = Decoder::new();
    let view = dec.sequence_example(&bytes, true).unwrap();
    let got_ctx = view_entries(&view.context().unwrap());
    assert!(bits_eq(&got_ctx, &prost_entries(s.context.as_ref().unwrap())));
    let lists: Vec<(String, Vec<proto::Feature>)> = view
        .feature_lists()
        .unwrap()
        .entries()
        .map(|(k, l)| (k.to_owned(), l.features().map(|f| owned_feature(&f)).collect()))
        .collect();
    let want = &s.feature_lists.as_ref().unwrap().feature_list[0];
    assert_eq!(
        lists,
        vec![(want.key.clone().unwrap(), want.value.clone().unwrap().feature)]
    );
}

// ---------------------------------------------------------------------------
// TensorFlow oracle fixtures (tests/data, generated by tests/oracle)
// ---------------------------------------------------------------------------

/// tests/data, which the repository ships (with its manifest).
fn data_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    assert!(
        dir.join("manifest.json").is_file(),
        "{}: manifest.json missing",
        dir.display()
    );
    dir
}

fn read_json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn oracle_text_fixtures() {
    use base64::Engine as _;
    let dir = data_dir();
    let manifest = read_json(&dir.join("manifest.json"));
    let mut seen = std::collections::BTreeSet::new();
    let mut checked = 0;
    for fx in manifest["fixtures"].as_array().expect("fixtures") {
        let (Some(expected), Some(kind)) = (fx["expected"].as_str(), fx["payload"].as_str()) else {
            continue;
        };
        let ty = match kind {
            "example" => MessageType::Example,
            "sequence" => MessageType::SequenceExample,
            _ => MessageType::Raw,
        };
        if !seen.insert((expected.to_owned(), kind.to_owned())) {
            continue;
        }
        let exp = read_json(&dir.join(expected));
        let payloads = exp["payloads_b64"].as_array().expect("payloads_b64");
        for (i, b64) in payloads.iter().enumerate() {
            let payload = base64::engine::general_purpose::STANDARD
                .decode(b64.as_str().unwrap())
                .unwrap();
            let ctx = format!("{expected} record {i}");
            let parses: Vec<&str> = exp["parses_as"][i]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|v| v.as_str())
                .collect();
            assert_eq!(
                Decoder::new().example(&payload, false).is_ok(),
                parses.contains(&"example"),
                "{ctx}"
            );
            assert_eq!(
                Decoder::new().sequence_example(&payload, false).is_ok(),
                parses.contains(&"sequence"),
                "{ctx}"
            );
            if ty == MessageType::Raw {
                continue;
            }
            let want = exp["text"][i].as_str();
            match (text(ty, &payload), want) {
                (Ok(got), Some(want)) => assert_eq!(got, want, "{ctx}"),
                (Err(_), None) => {}
                (got, want) => panic!("{ctx}: got {got:?}, Python gives {want:?}"),
            }
            // prost keeps a map entry with unknown fields, which upb (and
            // tfr) leave out: payloads_noncanonical holds such entries.
            let prost_like_upb = !ctx.contains("payloads_noncanonical");
            if let (MessageType::Example, Ok(owned), true) = (ty, proto::Example::decode(&payload[..]), prost_like_upb)
            {
                let mut dec = Decoder::new();
                let view = dec.example(&payload, false).unwrap();
                let got = view.features().map(|f| view_entries(&f)).unwrap_or_default();
                let want = owned.features.as_ref().map(prost_entries).unwrap_or_default();
                assert!(bits_eq(&got, &want), "{ctx}: view and prost differ");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} records checked");
}

#[test]
fn oracle_float_table() {
    let dir = data_dir();
    let table = read_json(&dir.join("expected/float32_repr.json"));
    for row in table.as_array().unwrap() {
        let bits = u32::from_str_radix(row[0].as_str().unwrap(), 16).unwrap();
        let mut out = Vec::new();
        text::write_float(f32::from_bits(bits), &mut out);
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            row[1].as_str().unwrap(),
            "bits {bits:08x}"
        );
    }
}

#[test]
fn oracle_auto_resolution() {
    use base64::Engine as _;
    let dir = data_dir();
    let first = |name: &str| -> Option<Vec<u8>> {
        let exp = read_json(&dir.join("expected").join(name));
        let b64 = exp["payloads_b64"].as_array()?.first()?.as_str()?.to_owned();
        Some(base64::engine::general_purpose::STANDARD.decode(b64).unwrap())
    };
    let cases = [
        ("notebook.json", Some(MessageType::Example)),
        ("images.json", Some(MessageType::Example)),
        ("edge.json", Some(MessageType::Example)),
        ("sequence.json", Some(MessageType::SequenceExample)),
        ("empty_records.json", Some(MessageType::Example)),
        ("raw_text.json", None),
        ("raw_binary.json", None),
    ];
    for (name, want) in cases {
        let payload = first(name).unwrap();
        assert_eq!(resolve_auto(&payload).ok(), want, "{name}");
    }
}

#[test]
fn oracle_prost_reencodes_tf_payloads() {
    use base64::Engine as _;
    let dir = data_dir();
    // TF-written (canonical) payloads: prost must re-encode them byte for byte.
    for (name, sequence) in [
        ("notebook.json", false),
        ("images.json", false),
        ("edge.json", false),
        ("sequence.json", true),
    ] {
        let exp = read_json(&dir.join("expected").join(name));
        for (i, b64) in exp["payloads_b64"].as_array().unwrap().iter().enumerate() {
            let payload = base64::engine::general_purpose::STANDARD
                .decode(b64.as_str().unwrap())
                .unwrap();
            let again = if sequence {
                proto::SequenceExample::decode(&payload[..]).map(|m| m.encode_to_vec())
            } else {
                proto::Example::decode(&payload[..]).map(|m| m.encode_to_vec())
            };
            match again {
                Ok(again) => assert_eq!(again, payload, "{name} record {i}"),
                Err(_) => assert!(
                    exp["text"][i].is_null(),
                    "{name} record {i}: prost fails, Python parses"
                ),
            }
        }
    }
}

/// Issue 28, item 8: a map entry carrying an unknown field is left out as
/// Python protobuf does (printing), kept as C++ protobuf does (TFDV's
/// reading, for statistics and validation); an Example carrying a field 2
/// that is no FeatureLists is an Example, also read strictly, while one
/// whose field 2 holds a feature list still asks for `--type sequence`.
#[test]
fn unknown_fields_in_entries_and_field_2() {
    let odd = example(&[ld(1, &[ld(1, b"a"), ld(2, &int64s(&[7])), vec![0x18, 0x05]].concat())]);
    let mut d = Decoder::new();
    let names = |d: &mut Decoder| -> Vec<String> {
        let view = d.example(&odd, true).unwrap();
        view.features()
            .map_or(Vec::new(), |f| f.entries().map(|(k, _)| k.to_string()).collect())
    };
    assert!(names(&mut d).is_empty());
    d.set_cpp_map_entries(true);
    assert_eq!(names(&mut d), ["a"]);
    let with_2 = [example(&[entry(b"a", &int64s(&[1]))]), ld(2, b"hello")].concat();
    assert_eq!(resolve_auto(&with_2).unwrap(), MessageType::Example);
    assert!(Decoder::new().example(&with_2, true).is_ok());
    let list = ld(1, &[ld(1, b"l"), ld(2, &ld(1, &int64s(&[1])))].concat());
    let sequence = [example(&[entry(b"a", &int64s(&[1]))]), ld(2, &list)].concat();
    assert_eq!(resolve_auto(&sequence).unwrap(), MessageType::SequenceExample);
    let err = Decoder::new().example(&sequence, true).unwrap_err();
    assert!(err.to_string().contains("--type sequence"), "{err}");
    // Not an Example at all: still the advice to read it raw.
    let err = resolve_auto(b"hello, world").unwrap_err();
    assert!(err.to_string().contains("--type raw"), "{err}");
}

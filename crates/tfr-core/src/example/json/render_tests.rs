//! Unit tests of the JSON renderers.

use super::*;

fn natural(v: f32) -> String {
    let mut out = Vec::new();
    natural_float(v, &mut ryu::Buffer::new(), &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn floats_always_look_like_floats() {
    assert_eq!(natural(1.0), "1.0");
    assert_eq!(natural(0.1), "0.1");
    assert_eq!(natural(-0.0), "-0.0");
    assert_eq!(natural(f32::from_bits(1)), "1e-45");
    assert_eq!(natural(f32::MAX), "3.4028235e38");
    assert_eq!(natural(1e16), "1e16");
    assert_eq!(natural(1e-5), "0.00001");
    assert_eq!(natural(1e-7), "1e-7");
    assert_eq!(natural(123456790.0), "123456790.0");
    assert_eq!(natural(f32::NAN), "\"NaN\"");
    assert_eq!(natural(f32::NEG_INFINITY), "\"-Infinity\"");
}

/// Every string the natural form writes reads back to the same float32
/// both directly and through the nearest double (as Python does).
#[test]
fn floats_read_back_directly_and_through_a_double() {
    let check = |bits: u32| {
        let v = f32::from_bits(bits);
        if !v.is_finite() {
            return;
        }
        let s = natural(v);
        assert_eq!(s.parse::<f32>().unwrap().to_bits(), bits, "{s}");
        assert_eq!((s.parse::<f64>().unwrap() as f32).to_bits(), bits, "{s} via f64");
        let via_serde: f64 = serde_json::from_str(&s).unwrap();
        assert_eq!((via_serde as f32).to_bits(), bits, "{s} via serde_json");
    };
    check(DOUBLE_ROUNDED);
    check(DOUBLE_ROUNDED | 0x8000_0000);
    // All subnormals and small normals, then a stride over the rest.
    for bits in (0..0x0100_0000).step_by(61) {
        check(bits);
    }
    for bits in (0..=u32::MAX).step_by(4099) {
        check(bits);
    }
}

#[test]
fn strings_escape_what_json_requires() {
    let mut out = Vec::new();
    json_string("a\"\\\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}é😀".as_bytes(), &mut out);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "\"a\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u001f\u{7f}é😀\""
    );
    let mut out = Vec::new();
    ascii_json_string("ctl\u{1}\u{1f}\u{7f} é😀", &mut out);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "\"ctl\\u0001\\u001f\\u007f \\u00e9\\ud83d\\ude00\""
    );
}

/// The fast path renders exactly what the decoder's views render, and
/// declines (rather than differs) on anything else: random canonical
/// Examples, then random byte corruptions of them.
#[test]
fn fast_path_equals_the_general_path() {
    use crate::example::proto::{Example, Feature, FeatureEntry, Features};
    use prost::Message;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut decoder = Decoder::new();
    let (mut fast, mut declined) = (0, 0);
    for round in 0..4000 {
        let entries = (0..next() % 5)
            .map(|_| {
                let n = (next() % 4) as usize;
                let key: String = (0..next() % 3)
                    .map(|_| ['a', 'é', '"', '\n', '😀'][(next() % 5) as usize])
                    .collect();
                let feature = match next() % 4 {
                    0 => Feature::default(),
                    1 => Feature::int64s((0..n).map(|_| next() as i64 >> (next() % 64)).collect()),
                    2 => Feature::floats((0..n).map(|_| f32::from_bits(next() as u32)).collect()),
                    _ => Feature::bytes(
                        (0..n)
                            .map(|_| (0..next() % 4).map(|_| next() as u8 % 0x90).collect())
                            .collect(),
                    ),
                };
                FeatureEntry::new(key, feature)
            })
            .collect();
        let e = Example {
            features: (next() % 8 != 0).then_some(Features { feature: entries }),
        };
        let mut payload = e.encode_to_vec();
        if round % 2 == 1 && !payload.is_empty() {
            let at = (next() % payload.len() as u64) as usize;
            payload[at] = next() as u8;
        }
        let mut general = Vec::new();
        let general_ok = match decoder.example(&payload, false) {
            Ok(view) => {
                natural_example(&view, &mut Out::new(&mut general));
                true
            }
            Err(_) => false,
        };
        let mut out = b"prefix".to_vec();
        if fast_example(&payload, &mut Out::new(&mut out)) {
            fast += 1;
            assert!(
                general_ok,
                "fast path accepted what the decoder rejects: {payload:02x?}"
            );
            assert_eq!(out[6..], general[..], "{payload:02x?}");
        } else {
            declined += 1;
            assert_eq!(out, b"prefix");
        }
    }
    assert!(fast > 2000 && declined > 100, "fast {fast}, declined {declined}");
}

#[test]
fn protojson_keeps_the_last_of_repeated_keys() {
    let kept = dedup_last(vec![("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)]);
    assert_eq!(kept, vec![("b", 3), ("c", 4), ("a", 5)]);
    let kept = dedup_last(vec![("b", 1), ("a", 2)]);
    assert_eq!(kept, vec![("b", 1), ("a", 2)]);
}

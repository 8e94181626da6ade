use super::*;
use crate::example::{Decoder, Kind};
use base64::Engine as _;
use serde_json::Value as Json;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}

/// A length-delimited field.
fn len_field(number: u32, body: &[u8]) -> Vec<u8> {
    let mut out = varint(u64::from(number << 3 | 2));
    out.extend(varint(body.len() as u64));
    out.extend_from_slice(body);
    out
}

/// A varint field.
fn var_field(number: u32, v: u64) -> Vec<u8> {
    let mut out = varint(u64::from(number << 3));
    out.extend(varint(v));
    out
}

/// A `tensor_shape` field of these dimension sizes.
fn shape(dims: &[i64]) -> Vec<u8> {
    let body: Vec<u8> = dims
        .iter()
        .flat_map(|&d| len_field(2, &var_field(1, d as u64)))
        .collect();
    len_field(2, &body)
}

/// dtype `code`, shape `dims`, then `rest`.
fn proto(code: u64, dims: &[i64], rest: &[u8]) -> Vec<u8> {
    let mut out = var_field(1, code);
    out.extend(shape(dims));
    out.extend_from_slice(rest);
    out
}

fn ok(bytes: &[u8]) -> (Vec<usize>, Values, DType) {
    let (t, d) = parse(bytes).unwrap_or_else(|| panic!("not a tensor: {bytes:02x?}"));
    (t.shape, t.values, d)
}

#[test]
fn what_tensorflow_wrote_decodes() {
    // tf.io.serialize_tensor(tf.constant([1, 2, 3])): tensor_content.
    let b = hex("0803120412020803220c010000000200000003000000");
    assert_eq!(ok(&b), (vec![3], Values::Int(vec![1, 2, 3]), DType::Int(4)));
    // tf.constant(True): a scalar, an empty shape message.
    assert_eq!(
        ok(&hex("080a1200220101")),
        (vec![], Values::Bool(vec![true]), DType::Bool)
    );
    // tf.constant([b"ab", b"\xff"]): string_val.
    let strings = Values::Bytes(vec![b"ab".to_vec(), vec![0xff]]);
    assert_eq!(
        ok(&hex("0807120412020802420261624201ff")),
        (vec![2], strings, DType::String)
    );
    // tf.constant(1.5); tf.zeros([0]) (a dimension of size 0 is an empty Dim).
    assert_eq!(
        ok(&hex("0801120022040000c03f")),
        (vec![], Values::Float(vec![1.5]), DType::Float(4))
    );
    assert_eq!(
        ok(&hex("080112021200")),
        (vec![0], Values::Float(vec![]), DType::Float(4))
    );
}

#[test]
fn typed_values_broadcast_as_tensorflow_does() {
    // tf.make_tensor_proto(5.0, shape=[2, 2]): one float_val for four.
    let b = hex("0801120812020802120208022a040000a040");
    assert_eq!(ok(&b), (vec![2, 2], Values::Float(vec![5.0; 4]), DType::Float(4)));
    // tf.make_tensor_proto(-3, dtype=tf.int8, shape=[2]): a 10-byte varint.
    let b = hex("08061204120208023a0afdffffffffffffffff01");
    assert_eq!(ok(&b), (vec![2], Values::Int(vec![-3, -3]), DType::Int(1)));
    // tf.make_tensor_proto(1.5, dtype=tf.bfloat16, shape=[2]): half_val 0x3fc0.
    let b = hex("080e1204120208026a02c07f");
    assert_eq!(ok(&b), (vec![2], Values::Float(vec![1.5, 1.5]), DType::BFloat16));
    // Fewer values repeat the last; none give zeros (TensorFlow checked).
    let b = proto(3, &[4], &len_field(7, &[1, 2]));
    assert_eq!(ok(&b).1, Values::Int(vec![1, 2, 2, 2]));
    assert_eq!(ok(&proto(3, &[3], &[])).1, Values::Int(vec![0; 3]));
    assert_eq!(ok(&proto(10, &[2], &[])).1, Values::Bool(vec![false; 2]));
    assert_eq!(ok(&proto(19, &[1], &[])).1, Values::Float(vec![0.0]));
    // More values than elements: TensorFlow drops them, tfr refuses.
    assert!(parse(&proto(3, &[2], &len_field(7, &[1, 2, 3]))).is_none());
    assert!(parse(&proto(3, &[], &len_field(7, &[1, 2]))).is_none());
    assert!(parse(&proto(3, &[0], &len_field(7, &[1]))).is_none());
}

#[test]
fn typed_values_narrow_as_tensorflow_does() {
    // uint8 from int_val 300 and -1: 44 and 255 (TensorFlow checked).
    let mut vals = varint(300);
    vals.extend(varint(u64::MAX));
    assert_eq!(ok(&proto(4, &[2], &len_field(7, &vals))).1, Values::UInt(vec![44, 255]));
    assert_eq!(ok(&proto(6, &[1], &var_field(7, 200))).1, Values::Int(vec![-56]));
    assert_eq!(ok(&proto(17, &[1], &var_field(7, 70000))).1, Values::UInt(vec![4464]));
    // half_val keeps its low 16 bits: 0x13c00 is 1.0; bfloat16 -1 is NaN.
    assert_eq!(
        ok(&proto(19, &[1], &var_field(13, 0x13c00))).1,
        Values::Float(vec![1.0])
    );
    let Values::Float(v) = ok(&proto(14, &[1], &var_field(13, u64::MAX))).1 else {
        panic!()
    };
    assert!(v[0].is_nan());
    assert_eq!(
        ok(&proto(22, &[1], &var_field(16, 1 << 32 | 7))).1,
        Values::UInt(vec![7])
    );
    assert_eq!(
        ok(&proto(23, &[1], &var_field(17, u64::MAX))).1,
        Values::UInt(vec![u64::MAX])
    );
    assert_eq!(ok(&proto(9, &[1], &var_field(10, u64::MAX))).1, Values::Int(vec![-1]));
    assert_eq!(
        ok(&proto(10, &[2], &len_field(11, &[0, 2]))).1,
        Values::Bool(vec![false, true])
    );
    let mut d = vec![0x31];
    d.extend(2.5f64.to_le_bytes());
    assert_eq!(ok(&proto(2, &[1], &d)).1, Values::Float(vec![2.5]));
}

#[test]
fn protobuf_forms_are_accepted() {
    // Unpacked int_val, the shape after them, the dtype last.
    let mut b = var_field(7, 1);
    b.extend(var_field(7, 2));
    b.extend(shape(&[2]));
    b.extend(var_field(1, 3));
    assert_eq!(ok(&b), (vec![2], Values::Int(vec![1, 2]), DType::Int(4)));
    // Packed and unpacked mixed, in wire order; unpacked floats (fixed32).
    let mut rest = len_field(7, &[5]);
    rest.extend(var_field(7, 6));
    assert_eq!(ok(&proto(3, &[2], &rest)).1, Values::Int(vec![5, 6]));
    let mut rest = vec![0x2d];
    rest.extend(0.5f32.to_le_bytes());
    assert_eq!(ok(&proto(1, &[1], &rest)).1, Values::Float(vec![0.5]));
    // A singular field given twice: the last; a shape twice: merged.
    let mut b = var_field(1, 1);
    b.extend(proto(3, &[2], &shape(&[3])));
    assert_eq!(ok(&b), (vec![2, 3], Values::Int(vec![0; 6]), DType::Int(4)));
    // version_number; a Dim's name; an empty tensor_content is absent.
    let mut rest = var_field(3, 7);
    rest.extend(len_field(4, &[]));
    assert_eq!(ok(&proto(3, &[1], &rest)).1, Values::Int(vec![0]));
    let named = len_field(2, &len_field(2, &[var_field(1, 1), len_field(2, b"x")].concat()));
    assert_eq!(
        ok(&[var_field(1, 3), named, var_field(7, 9)].concat()).1,
        Values::Int(vec![9])
    );
    // A dtype's varint beyond 32 bits is an int32: its low bits.
    assert_eq!(ok(&proto(1 << 32 | 3, &[], &[])).2, DType::Int(4));
    // 254 dimensions (TensorFlow's most).
    assert_eq!(ok(&proto(3, &[1; 254], &var_field(7, 3))).0, vec![1; 254]);
}

#[test]
fn other_bytes_are_not_tensors() {
    let png = hex("89504e470d0a1a0a0000000d4948445200000001000000010806000000");
    let jpeg = hex("ffd8ffe000104a46494600010100000100010000ffdb0043");
    // A tf.train.Example {x: int64_list [1, 2]}.
    let example = hex("0a0d0a0b0a017812061a040a020102");
    for b in [
        &b""[..],
        b"hello world",
        b"{\"a\": 1}",
        b"just some text, not a tensor",
        &png,
        &jpeg,
        &example,
        b"\x08\x01",                     // no shape (TensorFlow: a scalar 0.0)
        &shape(&[1]),                    // no dtype
        b"\x08\x01\x12\x00\x00",         // field 0
        b"\x08\x01\x12\x00\x1b\x1c",     // a group
        b"\x08\x01\x12\x00\x22\x05\x00", // content past the end
    ] {
        assert!(parse(b).is_none(), "{b:02x?}");
    }
}

#[test]
fn malformed_tensors_are_refused() {
    let content = |n: usize| len_field(4, &vec![0; n]);
    let cases = [
        ("content too short", proto(3, &[3], &content(11))),
        ("content too long", proto(3, &[3], &content(13))),
        (
            "content and values",
            proto(3, &[1], &[content(4), var_field(7, 1)].concat()),
        ),
        ("bool byte 2", proto(10, &[1], &len_field(4, &[2]))),
        ("string content", proto(7, &[1], &len_field(4, b"\x01a"))),
        ("another dtype's values", proto(3, &[2], &len_field(5, &[0; 8]))),
        ("bool in int_val", proto(10, &[1], &var_field(7, 1))),
        ("int64 in int_val", proto(9, &[1], &var_field(7, 1))),
        ("packed floats not whole", proto(1, &[1], &len_field(5, &[0; 5]))),
        ("packed varint truncated", proto(3, &[1], &len_field(7, &[0x80]))),
        ("float as varint", proto(1, &[1], &var_field(5, 1))),
        ("string as varint", proto(7, &[1], &var_field(8, 1))),
        ("fewer strings", proto(7, &[2], &len_field(8, b"x"))),
        ("no strings", proto(7, &[1], &[])),
        (
            "more strings",
            proto(7, &[], &[len_field(8, b"x"), len_field(8, b"y")].concat()),
        ),
        ("negative dim", proto(3, &[-1], &[])),
        ("huge dims", proto(3, &[1 << 32, 1 << 32], &[])),
        ("too many elements", proto(3, &[4096, 4097], &[])),
        ("huge dim beside 0", proto(3, &[0, 1 << 62], &[])),
        ("255 dims", proto(3, &[1; 255], &var_field(7, 3))),
        (
            "unknown rank",
            [var_field(1, 3), len_field(2, &var_field(3, 1))].concat(),
        ),
        (
            "dim field 3",
            [var_field(1, 3), len_field(2, &len_field(2, &var_field(3, 1)))].concat(),
        ),
        (
            "dim name not UTF-8",
            [var_field(1, 3), len_field(2, &len_field(2, &len_field(2, b"\xff")))].concat(),
        ),
        ("complex64", proto(8, &[1], &len_field(9, &[0; 8]))),
        ("resource", proto(20, &[], &[])),
        ("variant", proto(21, &[], &[])),
        ("qint8", proto(11, &[1], &var_field(7, 1))),
        ("invalid", proto(0, &[], &[])),
        ("float8_val", proto(1, &[1], &len_field(18, &[0]))),
        ("unknown field", proto(3, &[1], &var_field(99, 1))),
        ("dtype as bytes", [len_field(1, &[3]), shape(&[])].concat()),
    ];
    for (what, b) in cases {
        assert!(parse(&b).is_none(), "{what}: {b:02x?}");
    }
    // Their valid twins.
    for b in [
        proto(3, &[3], &content(12)),
        proto(10, &[1], &len_field(4, &[1])),
        proto(7, &[2], &[len_field(8, b"x"), len_field(8, b"")].concat()),
        proto(1, &[2], &len_field(5, &[0; 8])),
        proto(3, &[0, 1 << 24], &[]),
        [var_field(1, 3), len_field(2, &var_field(3, 0))].concat(),
        [
            var_field(1, 3),
            len_field(2, &len_field(2, &len_field(2, "ü".as_bytes()))),
        ]
        .concat(),
    ] {
        assert!(parse(&b).is_some(), "{b:02x?}");
    }
}

#[test]
fn truncated_or_extended_tensors_are_refused() {
    let b = hex("0803120412020803220c010000000200000003000000");
    for n in 0..b.len() {
        // Cut right after the shape, it is a tensor without values.
        let want = (n == 8).then(|| Values::Int(vec![0; 3]));
        assert_eq!(parse(&b[..n]).map(|t| t.0.values), want, "{n} bytes");
    }
    for tail in [&[0u8][..], &[0xff], &[0x08], &[0x22, 0x01], &[0x50, 0x01], b"\n"] {
        assert!(parse(&[&b[..], tail].concat()).is_none(), "{tail:02x?}");
    }
    // A valid field after it is still a tensor.
    assert!(parse(&[&b[..], &[0x18, 0x00]].concat()).is_some());
}

#[test]
fn the_largest_shape_allowed_is_filled() {
    let (shape, values, _) = ok(&proto(10, &[1 << 12, 1 << 12], &[]));
    assert_eq!((shape, values.len()), (vec![1 << 12, 1 << 12], MAX_ELEMENTS));
}

#[test]
fn hostile_bytes_never_panic() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let valid = hex("0801120812020802120208022a040000a040");
    for _ in 0..20_000 {
        let len = (next() % 40) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let _ = parse(&bytes);
        let mut m = valid.clone();
        let at = (next() as usize) % m.len();
        m[at] = next() as u8;
        if let Some((t, _)) = parse(&m) {
            assert_eq!(t.values.len(), t.shape.iter().product::<usize>());
        }
    }
}

// ---------------------------------------------------------------------------
// The fixture TensorFlow wrote (tests/oracle/tensorproto_make.py)
// ---------------------------------------------------------------------------

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/../../tests/data/tensors/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The payloads of a TFRecord file (CRCs not checked here).
fn records(file: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = file;
    while !rest.is_empty() {
        let len = u64::from_le_bytes(rest[..8].try_into().unwrap()) as usize;
        out.push(&rest[12..12 + len]);
        rest = &rest[16 + len..];
    }
    out
}

fn dtype_name(d: DType) -> String {
    match d {
        DType::Bool => "bool".into(),
        DType::Int(n) => format!("int{}", 8 * n),
        DType::UInt(n) => format!("uint{}", 8 * n),
        DType::Float(n) => format!("float{}", 8 * n),
        DType::BFloat16 => "bfloat16".into(),
        DType::String => "string".into(),
    }
}

/// Whether `got` is TensorFlow's decoding `want` (values compared exactly,
/// floats by bits, NaN as NaN).
fn same(got: &(Tensor, DType), want: &Json) -> Result<(), String> {
    let (t, d) = got;
    let shape: Vec<usize> = serde_json::from_value(want["shape"].clone()).unwrap();
    if dtype_name(*d) != want["dtype"] || t.shape != shape {
        return Err(format!("{d:?} {:?}", t.shape));
    }
    let want = want["values"].as_array().unwrap();
    let equal = match &t.values {
        Values::Int(v) => v.iter().map(|&x| Json::from(x)).eq(want.iter().cloned()),
        Values::UInt(v) => v.iter().map(|&x| Json::from(x)).eq(want.iter().cloned()),
        Values::Bool(v) => v.iter().map(|&x| Json::from(x)).eq(want.iter().cloned()),
        Values::Bytes(v) => {
            let b64 = |b: &Vec<u8>| Json::from(base64::engine::general_purpose::STANDARD.encode(b));
            v.iter().map(b64).eq(want.iter().cloned())
        }
        Values::Float(v) => {
            v.len() == want.len()
                && v.iter().zip(want).all(|(&x, w)| {
                    let w: f64 = w.as_str().unwrap().parse().unwrap();
                    (x.is_nan() && w.is_nan()) || x.to_bits() == w.to_bits()
                })
        }
    };
    equal.then_some(()).ok_or_else(|| format!("{:?}", t.values))
}

#[test]
fn the_tensorflow_fixture_decodes_as_tensorflow_decodes_it() {
    let file = data("serialized.tfrecord");
    let expected = String::from_utf8(data("expected.jsonl")).unwrap();
    let expected: Vec<Json> = expected.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let payloads = records(&file);
    assert_eq!(payloads.len(), expected.len());
    let (mut tensors, mut refused, mut not_tensors) = (0, 0, 0);
    let mut dtypes = std::collections::BTreeSet::new();
    let mut d = Decoder::new();
    for (i, (payload, want)) in payloads.iter().zip(&expected).enumerate() {
        let ex = d.example(payload, true).unwrap();
        let mut names = Vec::new();
        for (name, feature) in ex.features().unwrap().sorted() {
            if feature.kind() != Kind::Bytes {
                continue;
            }
            names.push(name);
            let want = want["features"][name]
                .as_array()
                .unwrap_or_else(|| panic!("{i} {name}"));
            assert_eq!(feature.bytes().count(), want.len(), "record {i} {name}");
            for (value, w) in feature.bytes().zip(want) {
                let got = parse(value);
                let at = format!("record {i} {name} {}", w["name"]);
                match got {
                    _ if w.is_null() || w.get("refused").is_some() => {
                        assert!(got.is_none(), "{at}: {got:?}");
                        if w.is_null() {
                            not_tensors += 1;
                        } else {
                            refused += 1;
                        }
                    }
                    None => panic!("{at}: not a tensor"),
                    Some(got) => {
                        same(&got, w).unwrap_or_else(|e| panic!("{at}: got {e}, TensorFlow {w}"));
                        dtypes.insert(dtype_name(got.1));
                        tensors += 1;
                    }
                }
            }
        }
        let mut want_names: Vec<&str> = want["features"].as_object().unwrap().keys().map(|k| &k[..]).collect();
        want_names.sort();
        assert_eq!(names, want_names, "record {i}");
    }
    assert_eq!(tensors, 39);
    assert_eq!((refused, not_tensors), (2, 17));
    assert_eq!(dtypes.len(), 14, "{dtypes:?}");
}

#[test]
fn a_summary_without_a_shape_is_a_scalar() {
    // TensorProto(dtype=DT_FLOAT, float_val=[0.5]): what PyTorch's
    // SummaryWriter writes for a scalar.
    let mut t = var_field(1, 1);
    t.extend_from_slice(&[0x2d]); // float_val = 5, fixed32
    t.extend_from_slice(&0.5f32.to_le_bytes());
    assert!(parse(&t).is_none(), "strict: no shape, no tensor");
    let (tensor, dtype) = parse_summary(&t).expect("a scalar");
    assert_eq!((tensor.shape.len(), dtype), (0, DType::Float(4)));
    assert_eq!(crate::tfds::decode::tensor_values(&t, 8).as_deref(), Some(&b"0.5"[..]));
    // Two values and no shape: not a tensor TensorFlow reads as one value.
    t.extend_from_slice(&[0x2d]);
    t.extend_from_slice(&1.5f32.to_le_bytes());
    assert!(parse_summary(&t).is_none());
}

//! `--decode` of plain TFRecords whose bytes features hold tensors written
//! by `tf.io.serialize_tensor` (and `tf.make_tensor_proto`), on the
//! fixture TensorFlow 2.21 wrote (tests/data/tensors, made by
//! tests/oracle/tensorproto_make.py, which also recorded TensorFlow's own
//! `tf.io.parse_tensor` of every value in expected.jsonl): every tensor
//! comes out as nested arrays of TensorFlow's values by its shape, and
//! every value that is not a tensor (or one tfr refuses) as the JSONL
//! mapping writes it; cat, head and to-jsonl agree.

use crate::util::*;
use base64::Engine as _;
use serde_json::Value;

/// The values of a nested array of `shape`, flattened row-major.
fn flatten(v: &Value, shape: &[u64], out: &mut Vec<Value>) {
    match shape.split_first() {
        None => out.push(v.clone()),
        Some((&n, rest)) => {
            let items = v.as_array().unwrap_or_else(|| panic!("not an array of {n}: {v}"));
            assert_eq!(items.len() as u64, n, "{v}");
            items.iter().for_each(|x| flatten(x, rest, out));
        }
    }
}

/// A float as tfr writes it (a number, or "NaN"/"Infinity"/"-Infinity").
fn tfr_float(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) if s == "NaN" => f64::NAN,
        Value::String(s) if s == "Infinity" => f64::INFINITY,
        Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
        other => panic!("not a float: {other}"),
    }
}

/// One value of tfr against TensorFlow's (`dtype` as NumPy names it).
fn same_value(dtype: &str, tfr: &Value, tf: &Value) -> bool {
    match dtype {
        "float64" => {
            let (a, b) = (tfr_float(tfr), tf.as_str().unwrap().parse::<f64>().unwrap());
            (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
        }
        "float32" | "float16" | "bfloat16" => {
            let (a, b) = (
                tfr_float(tfr) as f32,
                tf.as_str().unwrap().parse::<f64>().unwrap() as f32,
            );
            (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
        }
        "string" => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(tf.as_str().unwrap())
                .unwrap();
            match tfr {
                Value::String(s) => s.as_bytes() == bytes,
                Value::Object(o) => o["base64"] == Value::String(tf.as_str().unwrap().to_string()),
                _ => false,
            }
        }
        _ => tfr == tf,
    }
}

#[test]
fn serialized_tensors_decode_to_the_values_tensorflow_parses() {
    let file = data("tensors/serialized.tfrecord");
    let expected = std::fs::read_to_string(data("tensors/expected.jsonl")).unwrap();
    let plain = tfr(&["to-jsonl", &file]).run().ok();
    let decoded = tfr(&["to-jsonl", "--decode", &file]).run().ok();
    let (mut tensors, mut others) = (0, 0);
    let lines = decoded.lines().zip(plain.lines()).zip(expected.lines());
    for (i, ((line, plain_line), want)) in lines.enumerate() {
        let (got, plain): (Value, Value) = (
            serde_json::from_str(line).unwrap(),
            serde_json::from_str(plain_line).unwrap(),
        );
        let want: Value = serde_json::from_str(want).unwrap();
        for (name, values) in want["features"].as_object().unwrap() {
            for (k, tf) in values.as_array().unwrap().iter().enumerate() {
                let mine = &got[name][k];
                if tf.is_null() || tf.get("refused").is_some() {
                    // Not a tensor (or one tfr refuses): as the mapping writes it.
                    assert_eq!(mine, &plain[name][k], "record {i} {name}[{k}]");
                    others += 1;
                    continue;
                }
                let shape: Vec<u64> = tf["shape"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_u64().unwrap())
                    .collect();
                let mut flat = Vec::new();
                flatten(mine, &shape, &mut flat);
                let tf_values = tf["values"].as_array().unwrap();
                assert_eq!(flat.len(), tf_values.len(), "record {i} {name}[{k}]: {mine} vs {tf}");
                let dtype = tf["dtype"].as_str().unwrap();
                for (a, b) in flat.iter().zip(tf_values) {
                    assert!(same_value(dtype, a, b), "record {i} {name}[{k}] ({dtype}): {a} vs {b}");
                }
                tensors += 1;
            }
        }
        // Features that hold no bytes are untouched.
        for name in ["label", "score"] {
            assert_eq!(got[name], plain[name], "record {i} {name}");
        }
    }
    assert_eq!(decoded.lines().count(), expected.lines().count());
    assert!(
        tensors >= 39 && others >= 17,
        "{tensors} tensors, {others} other values"
    );
    // cat and head write the same lines, on any -j.
    assert_eq!(tfr(&["cat", "--decode", "-j", "2", &file]).run().ok(), decoded);
    let head = tfr(&["head", "-n", "3", "--skip", "2", "--decode", &file]).run().ok();
    assert_eq!(
        head.lines().collect::<Vec<_>>(),
        decoded.lines().skip(2).take(3).collect::<Vec<_>>()
    );
    // A feature selection applies to plain inputs.
    let one = tfr(&["to-jsonl", "--decode", "--features", "tensor", "-n", "1", &file])
        .run()
        .ok();
    assert_eq!(one, "{\"tensor\":[1.5]}\n");
}

#[test]
fn decode_refuses_raw_payloads_and_protojson() {
    let file = data("tensors/serialized.tfrecord");
    let e = tfr(&["to-jsonl", "--decode", "--type", "raw", &file]).run().fails(2);
    assert!(e.contains("record 0") && e.contains("raw payload"), "{e}");
    let e = tfr(&["to-jsonl", "--decode", "-f", "protojson", &file]).run().fails(2);
    assert!(e.contains("protojson"), "{e}");
}

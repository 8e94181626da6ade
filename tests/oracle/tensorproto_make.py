#!/usr/bin/env python3
"""Writes the TensorProto fixtures of crates/tfr-engine/src/tfds/tensorproto.rs:

  tests/data/tensors/serialized.tfrecord  tf.train.Example records (written
      by tf.io.TFRecordWriter) whose bytes features hold
      tf.io.serialize_tensor(x).numpy() for every dtype tfr decodes (scalars,
      1-D, 3-D, empty, NaN/inf, min/max, non-UTF-8 strings), TensorProtos
      made by tf.make_tensor_proto(...).SerializeToString() with typed *_val
      fields (broadcast scalars among them), and beside them ordinary
      features (int64 `label`, text `caption`, float `score`) and bytes that
      are not tensors (text, a PNG, a JPEG, a serialized tf.train.Example).
  tests/data/tensors/expected.jsonl  one line per record: for every bytes
      feature of the record, per value, TensorFlow's own decoding of it,
      tf.io.parse_tensor(b, out_type=dtype).numpy(), as
      {"dtype", "shape", "values"} (values flat, row-major; ints as JSON
      numbers, floats as Python repr strings of the value widened to
      float64 ("nan", "inf", "-0.0"), bytes as base64, bools as JSON
      booleans), or null for a value that is not a tensor. An entry with
      "refused": "<why>" is one TensorFlow decodes but tfr deliberately does
      not (it is not what tf.io.serialize_tensor writes).

Deterministic: fixed values, no randomness, map entries serialized sorted
(SerializeToString(deterministic=True)); rerunning gives identical bytes.
Rerun from the repository root with the TensorFlow venv (TF 2.21):

    /work/venv-tf/bin/python tests/oracle/tensorproto_make.py
"""
import base64
import json
import os
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import tensor_pb2  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "tensors"

F32 = np.float32
# Serialized with tf.io.serialize_tensor (tensor_content, or string_val).
SERIALIZED = {
    "f32_scalar": tf.constant(1.5, tf.float32),
    "f32_special": tf.constant(
        [0.0, -0.0, 1e-45, 3.4028235e38, float("nan"), float("inf"), float("-inf"), 0.1], tf.float32
    ),
    "f64": tf.constant([np.pi, float("nan"), float("-inf"), 5e-324, -1.7976931348623157e308], tf.float64),
    "f16": tf.constant([1.0, 65504.0, -0.0, float("nan"), float("inf"), 6e-8, 0.1], tf.float16),
    "bf16": tf.constant([1.0, -2.5, 3.0e38, float("nan"), float("-inf"), 0.1], tf.bfloat16),
    "i8": tf.constant([-128, 127, 0, -1], tf.int8),
    "i16": tf.constant([-32768, 32767, 1], tf.int16),
    "i32_3d": tf.reshape(tf.range(-6, 6, dtype=tf.int32), [2, 3, 2]),
    "i32_minmax": tf.constant([-(2**31), 2**31 - 1], tf.int32),
    "i64": tf.constant([-(2**63), 2**63 - 1, 0], tf.int64),
    "i64_scalar": tf.constant(42, tf.int64),
    "u8": tf.constant([0, 255, 7], tf.uint8),
    "u8_image": tf.reshape(tf.range(12, dtype=tf.int32), [2, 2, 3]) * 20,
    "u16": tf.constant([0, 65535], tf.uint16),
    "u32": tf.constant([0, 4294967295], tf.uint32),
    "u64": tf.constant([0, 2**64 - 1], tf.uint64),
    "bool": tf.constant([True, False, True]),
    "bool_scalar": tf.constant(False),
    "str_scalar": tf.constant(b"hello"),
    "str": tf.constant([b"", b"\xff\xfe", "\u00fcn\u00ef".encode(), b"\x00a\x00"]),
    "str_2d": tf.constant([[b"a", b"bc"], [b"def", b"\x80"]]),
    "empty_f32": tf.zeros([0], tf.float32),
    "empty_i32_2x0": tf.zeros([2, 0], tf.int32),
    "empty_str": tf.constant([], tf.string),
    "zeros_1x1x1": tf.zeros([1, 1, 1], tf.float64),
}
SERIALIZED["u8_image"] = tf.cast(SERIALIZED["u8_image"], tf.uint8)

# tf.make_tensor_proto(...).SerializeToString(): typed *_val fields, a
# scalar repeated to fill the shape where fewer values are given.
PROTOS = {
    "p_f32_broadcast": tf.make_tensor_proto(5.0, shape=[2, 2]),
    "p_f32_fewer": tf.make_tensor_proto([1.0, 2.0], dtype=tf.float32, shape=[3]),
    "p_i32_broadcast": tf.make_tensor_proto(7, shape=[3]),
    "p_i32_scalar": tf.make_tensor_proto(7),
    "p_i8": tf.make_tensor_proto(-3, dtype=tf.int8, shape=[2]),
    "p_u16": tf.make_tensor_proto(3, dtype=tf.uint16, shape=[2]),
    "p_i64": tf.make_tensor_proto(-5, dtype=tf.int64, shape=[2]),
    "p_u32": tf.make_tensor_proto(4000000000, dtype=tf.uint32, shape=[2]),
    "p_u64": tf.make_tensor_proto(2**64 - 1, dtype=tf.uint64, shape=[2]),
    "p_f64": tf.make_tensor_proto(2.5, dtype=tf.float64, shape=[2]),
    "p_f16": tf.make_tensor_proto([1.0, 2.0], dtype=tf.float16, shape=[3]),
    "p_bf16": tf.make_tensor_proto(1.5, dtype=tf.bfloat16, shape=[2]),
    "p_bool": tf.make_tensor_proto(True, shape=[2]),
    "p_str": tf.make_tensor_proto([b"x", b"\xff"]),
    # TensorFlow repeats the last string too; tfr refuses (see below).
    "p_str_broadcast": tf.make_tensor_proto(b"x", shape=[2]),
}
REFUSED = {
    "p_str_broadcast": "fewer string_val than elements: TensorFlow repeats the last, tfr refuses",
}
for name, p in PROTOS.items():
    assert not p.tensor_content, f"{name}: tensor_content, not typed values"


def tensor_bytes(name):
    if name in SERIALIZED:
        return tf.io.serialize_tensor(SERIALIZED[name]).numpy()
    return PROTOS[name].SerializeToString()


def dtype_of(name):
    if name in SERIALIZED:
        return SERIALIZED[name].dtype
    return tf.dtypes.as_dtype(PROTOS[name].dtype)


def png():
    img = tf.constant([[[255, 0, 0], [0, 255, 0]], [[0, 0, 255], [255, 255, 255]]], tf.uint8)
    return tf.io.encode_png(img, compression=9).numpy()


def jpeg():
    img = tf.fill([4, 4, 3], tf.constant(128, tf.uint8))
    return tf.io.encode_jpeg(img, quality=90).numpy()


def example_bytes():
    ex = tf.train.Example(
        features=tf.train.Features(feature={"x": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2]))})
    )
    return ex.SerializeToString(deterministic=True)


# Each record: its tensor features (feature -> names of the tensors its
# values hold) and a non-tensor bytes `blob`.
RECORDS = [
    ({"tensor": ["f32_scalar"], "tensors": ["f32_special", "f64"]}, png()),
    ({"tensor": ["f16"], "tensors": ["bf16", "i8", "i16"]}, b"just some text, not a tensor"),
    ({"tensor": ["i32_3d"], "tensors": ["i32_minmax", "i64", "i64_scalar"]}, jpeg()),
    ({"tensor": ["u8_image"], "tensors": ["u8", "u16", "u32", "u64"]}, example_bytes()),
    ({"tensor": ["bool"], "tensors": ["bool_scalar", "str_scalar", "str", "str_2d"]}, b""),
    ({"tensor": ["empty_f32"], "tensors": ["empty_i32_2x0", "empty_str", "zeros_1x1x1"]}, b"\x08\x01"),
    ({"tensor": ["p_f32_broadcast"], "tensors": ["p_f32_fewer", "p_i32_broadcast", "p_i32_scalar", "p_i8"]}, b"{}"),
    ({"tensor": ["p_u16"], "tensors": ["p_i64", "p_u32", "p_u64", "p_f64", "p_f16", "p_bf16"]}, b"\x89PNG\r\n"),
    ({"tensor": ["p_bool"], "tensors": ["p_str", "p_str_broadcast"]}, b"\x00" * 8),
]


def value_json(x, dtype):
    flat = np.asarray(x).reshape(-1)
    if dtype == tf.string:
        return [base64.b64encode(v).decode() for v in flat.tolist()]
    if dtype == tf.bool:
        return [bool(v) for v in flat.tolist()]
    if dtype.is_floating:
        return [repr(float(v)) for v in flat]
    return [int(v) for v in flat.tolist()]


def decoded(b, dtype):
    x = tf.io.parse_tensor(b, out_type=dtype).numpy()
    return {"dtype": dtype.name, "shape": list(np.shape(x)), "values": value_json(x, dtype)}


# Bytes that are not a tensor as tf.io.serialize_tensor writes one, yet
# which TensorFlow's parse_tensor reads: why tfr refuses them.
BLOBS_TF_READS = {
    b"\x08\x01": "dtype DT_FLOAT without tensor_shape: TensorFlow reads a scalar 0.0, tfr refuses",
}


def blob_json(b):
    """None when TensorFlow cannot read `b` as a tensor of a usual dtype,
    else its decoding, marked refused (BLOBS_TF_READS)."""
    for dtype in (tf.float32, tf.int64, tf.string, tf.uint8):
        try:
            d = decoded(b, dtype)
        except (tf.errors.InvalidArgumentError, ValueError):
            continue
        assert b in BLOBS_TF_READS, f"{b[:20]!r} parses as a {dtype.name} tensor"
        d["refused"] = BLOBS_TF_READS[b]
        return d
    return None


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    lines = []
    with tf.io.TFRecordWriter(str(OUT / "serialized.tfrecord")) as w:
        for i, (tensors, blob) in enumerate(RECORDS):
            caption = f"record {i}".encode()
            feature = {
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
                "caption": tf.train.Feature(bytes_list=tf.train.BytesList(value=[caption])),
                "score": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 4])),
                "blob": tf.train.Feature(bytes_list=tf.train.BytesList(value=[blob])),
            }
            expected = {"caption": [blob_json(caption)], "blob": [blob_json(blob)]}
            for key, names in tensors.items():
                values = [tensor_bytes(n) for n in names]
                feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
                expected[key] = []
                for n, b in zip(names, values):
                    d = decoded(b, dtype_of(n))
                    d["name"] = n
                    if n in REFUSED:
                        d["refused"] = REFUSED[n]
                    expected[key].append(d)
            ex = tf.train.Example(features=tf.train.Features(feature=feature))
            w.write(ex.SerializeToString(deterministic=True))
            lines.append(json.dumps({"record": i, "features": expected}, sort_keys=True))
    (OUT / "expected.jsonl").write_text("\n".join(lines) + "\n")
    print(f"{len(RECORDS)} records, {(OUT / 'serialized.tfrecord').stat().st_size} bytes")


if __name__ == "__main__":
    main()

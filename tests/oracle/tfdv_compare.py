#!/usr/bin/env python3
"""Two datasets that differ, and TFDV 1.16.1's drift figures between them
(tests/cli/compare.rs: `tfr stats --compare`, `tfr report --compare`).

`write [DIR]` (TensorFlow only): writes DIR/train.tfrecord (600 examples)
and DIR/eval.tfrecord (400), tf.train.Examples serialized
deterministically from a seeded generator, so the same bytes every time:

- `age` (int64): uniform 18..65 in train, shifted by +7 in eval;
- `score` (float): N(0, 1) in train, N(0.6, 1.3) in eval;
- `color` (bytes): red/green/blue in train; blue gone and purple and a
  hostile `<script>alert(1)</script>` added in eval;
- `country` (bytes): 12 values, their frequencies shifted;
- `tags` (bytes, 0..3 values): in 90% of train, 70% of eval;
- `label` (int64): 30% ones in train, 45% in eval;
- `weight` (float): 1.0 everywhere (a histogram of one point);
- `amount`: int64 in train, float in eval (another type);
- `dropped` (int64): train only; `added` (float): eval only;
- `<img src=x onerror=alert(1)>` (bytes): a hostile feature name.

`answers` (TFDV's venv, e.g. /work/main/.venv-tfdv/bin/python): writes the
two files into tests/data/compare/, TFDV's statistics of them
(train.stats.tfrecord: binary, as generate_statistics_from_tfrecord
writes it; eval.stats.pbtxt: text, tfdv.write_stats_text) and
tests/data/compare/tfdv.json: the drift measurements of
`tfdv.validate_statistics(eval, schema, previous_statistics=train)` where
the schema is `tfdv.infer_schema(train)` with a drift comparator on every
feature (`infinity_norm` on the string ones, `jensen_shannon_divergence`
on all) whose thresholds are 0, so every figure is in
`anomalies.drift_skew_info`.
"""

import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "compare")
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
COUNTRIES = ["US", "IN", "BR", "DE", "FR", "JP", "NG", "MX", "GB", "CA", "KR", "ZA"]


def rows(split):
    """The examples of a split, as {name: (kind, values)}."""
    rng = random.Random(1 if split == "train" else 2)
    n = 600 if split == "train" else 400
    ev = split == "eval"
    for i in range(n):
        f = {}
        f["age"] = ("int", [rng.randint(18, 65) + (7 if ev else 0)])
        mu, sigma = (0.6, 1.3) if ev else (0.0, 1.0)
        f["score"] = ("float", [round(rng.gauss(mu, sigma), 4)])
        colors = ["red", "green", "purple", "<script>alert(1)</script>"] if ev else ["red", "green", "blue"]
        weights = [5, 3, 2, 1] if ev else [5, 3, 2]
        f["color"] = ("bytes", [rng.choices(colors, weights)[0]])
        cw = list(range(12, 0, -1)) if not ev else [1 + (k * 7) % 12 for k in range(12)]
        f["country"] = ("bytes", [rng.choices(COUNTRIES, cw)[0]])
        if rng.random() < (0.7 if ev else 0.9):
            f["tags"] = ("bytes", rng.sample(["new", "sale", "gift", "eco", "vip"], rng.randint(0, 3)))
        f["label"] = ("int", [1 if rng.random() < (0.45 if ev else 0.3) else 0])
        f["weight"] = ("float", [1.0])
        amount = rng.randint(1, 500)
        f["amount"] = ("float", [amount + 0.25]) if ev else ("int", [amount])
        if ev:
            f["added"] = ("float", [round(rng.uniform(-1, 1), 3)])
        else:
            f["dropped"] = ("int", [rng.randint(0, 9)])
        f[HOSTILE_NAME] = ("bytes", [rng.choice(["a", "b"] if not ev else ["a", "b", "c"])])
        yield f


def write(out):
    import tensorflow as tf

    os.makedirs(out, exist_ok=True)
    for split in ["train", "eval"]:
        with tf.io.TFRecordWriter(os.path.join(out, f"{split}.tfrecord")) as w:
            for f in rows(split):
                feats = {}
                for name, (kind, values) in f.items():
                    if kind == "int":
                        feats[name] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
                    elif kind == "float":
                        feats[name] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
                    else:
                        feats[name] = tf.train.Feature(bytes_list=tf.train.BytesList(value=[v.encode() for v in values]))
                ex = tf.train.Example(features=tf.train.Features(feature=feats))
                w.write(ex.SerializeToString(deterministic=True))


def answers():
    # tests/oracle/snappy.py would shadow the snappy module Beam imports.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    import tensorflow_data_validation as tfdv
    from tensorflow_metadata.proto.v0 import schema_pb2

    write(OUT)
    train = tfdv.generate_statistics_from_tfrecord(
        data_location=os.path.join(OUT, "train.tfrecord"), output_path=os.path.join(OUT, "train.stats.tfrecord")
    )
    ev = tfdv.generate_statistics_from_tfrecord(data_location=os.path.join(OUT, "eval.tfrecord"))
    tfdv.write_stats_text(ev, os.path.join(OUT, "eval.stats.pbtxt"))
    schema = tfdv.infer_schema(train)
    for f in schema.feature:
        if f.type == schema_pb2.BYTES:
            f.drift_comparator.infinity_norm.threshold = 0.0
        f.drift_comparator.jensen_shannon_divergence.threshold = 0.0
    anomalies = tfdv.validate_statistics(ev, schema, previous_statistics=train)
    figures = {}
    for info in anomalies.drift_skew_info:
        name = ".".join(info.path.step)
        figures[name] = {
            anomalies_type_name(m.type): m.value for m in info.drift_measurements
        }
    kinds = {}
    for name, a in anomalies.anomaly_info.items():
        kinds[name] = sorted(anomalies_reason_name(r.type) for r in a.reason)
    out = {
        "tfdv": tfdv.__version__,
        "what": "tfdv.validate_statistics(eval, infer_schema(train) + drift comparators at threshold 0, previous_statistics=train)",
        "drift": dict(sorted(figures.items())),
        "anomalies": dict(sorted(kinds.items())),
    }
    with open(os.path.join(OUT, "tfdv.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(json.dumps(out, indent=1, sort_keys=True))


def anomalies_type_name(t):
    from tensorflow_metadata.proto.v0 import anomalies_pb2

    return anomalies_pb2.DriftSkewInfo.Measurement.Type.Name(t)


def anomalies_reason_name(t):
    from tensorflow_metadata.proto.v0 import anomalies_pb2

    return anomalies_pb2.AnomalyInfo.Type.Name(t)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "write":
        write(sys.argv[2] if len(sys.argv) > 2 else ".")
    elif mode == "answers":
        answers()
    else:
        sys.exit("usage: tfdv_compare.py write [DIR] | answers")

#!/usr/bin/env python3
"""Drift and skew: TFDV 1.16.1's answers for `tfr validate --previous/--serving/--previous-version`.

An oracle run by hand (not by CI; TFDV needs its own venv, see
../shared/oracles.md): it writes the fixtures of tests/data/drift/ and
TFDV's answers; tests/cli/drift.rs runs tfr on the same files and compares.

    .venv-tfdv/bin/python tests/oracle/tfdv_drift.py

What it writes (TensorFlow 2.16.2 of the TFDV venv writes the records;
seeded, so a rerun gives the same bytes):

- span1.tfrecord (600 Examples): `age` int64 (a few ages), `income`
  float (log-normal, a few NaN), `score` float in [0, 1), `city` bytes
  (5 cities), `device` bytes (3 kinds, optional), `tags` bytes lists
  (0-3 tags), `label` int64 0/1, `comment` free text (all distinct);
- span2.tfrecord (750): the next span, drifted: income shifted up,
  score squeezed, a sixth city and one city gone, `device` dropped,
  label rebalanced;
- serving.tfrecord (400): serving data, skewed: no `label`, cities in
  other proportions, `tags` empty more often;
- span1.stats (TFDV's binary statistics file of span1) and
  span1.stats.pbtxt (its text format), serving.stats;
- schema.pbtxt: `tfdv.infer_schema` of span1, with comparators set:
  drift_comparator (infinity_norm on city/device/tags/comment,
  jensen_shannon_divergence on age/income/score/city and, with
  source QUANTILES, on score), skew_comparator (infinity_norm and
  normalized_abs_difference on city, jensen_shannon_divergence on income,
  infinity_norm on label: missing from serving), and dataset_constraints
  num_examples_drift_comparator {min 0.9, max 1.1} and
  num_examples_version_comparator {min 0.5, max 1.0}; schema_zero.pbtxt
  (every threshold 0), schema_quantiles.pbtxt (score's divergence on its
  quantiles histogram), schema_nan.pbtxt (city's thresholds NaN);
- expected.json: per case (which controls were given), TFDV's
  `validate_statistics` anomalies (feature -> reason types and
  descriptions) and `drift_skew_info` (feature -> drift / skew
  measurements: type, value, threshold), and `thresholds_zero` the same
  figures with every threshold 0 (each a measurement).
"""

import json
import math
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "drift")

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# tests/oracle/snappy.py would shadow the snappy module Beam imports.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import tensorflow as tf  # noqa: E402
import tensorflow_data_validation as tfdv  # noqa: E402
from tensorflow_data_validation.api import validation_api  # noqa: E402
from tensorflow_metadata.proto.v0 import anomalies_pb2  # noqa: E402

CITIES = [b"Paris", b"Lyon", b"Lille", b"Nantes", b"Nice", b"Brest"]
WORDS = "red green blue quick brown fox jumps over lazy dog data drift skew".split()


def example(r, span):
    f = {}

    def ints(name, vs):
        f[name] = tf.train.Feature(int64_list=tf.train.Int64List(value=vs))

    def floats(name, vs):
        f[name] = tf.train.Feature(float_list=tf.train.FloatList(value=vs))

    def byts(name, vs):
        f[name] = tf.train.Feature(bytes_list=tf.train.BytesList(value=vs))

    ints("age", [r.choice([18, 25, 25, 33, 40, 52, 67]) + (3 if span == "span2" else 0)])
    income = math.exp(r.gauss(10.0 + (0.4 if span == "span2" else 0.0), 0.5))
    floats("income", [float("nan") if r.random() < 0.02 else income])
    floats("score", [r.random() * (0.5 if span == "span2" else 1.0)])
    if span == "span1":
        city = r.choices(CITIES[:5], weights=[5, 3, 2, 1, 1])[0]
    elif span == "span2":
        city = r.choices(CITIES[1:], weights=[3, 2, 2, 1, 2])[0]
    else:
        city = r.choices(CITIES[:5], weights=[1, 1, 2, 3, 3])[0]
    byts("city", [city])
    if span != "span2" and r.random() < 0.8:
        byts("device", [r.choice([b"ios", b"android", b"web"])])
    ntags = r.choice([0, 0, 0, 1]) if span == "serving" else r.choice([0, 1, 2, 3])
    byts("tags", [r.choice(WORDS).encode() for _ in range(ntags)])
    if span != "serving":
        ints("label", [1 if r.random() < (0.3 if span == "span1" else 0.5) else 0])
    byts("comment", [" ".join(r.choice(WORDS) for _ in range(6)).encode() + b" #%d" % r.randrange(10**9)])
    return tf.train.Example(features=tf.train.Features(feature=f))


def write(name, n, seed):
    r = random.Random(seed)
    path = os.path.join(OUT, f"{name}.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for _ in range(n):
            w.write(example(r, name).SerializeToString())
    return path


def feature(schema, name):
    return next(f for f in schema.feature if f.name == name)


def set_comparators(schema, zero):
    t = (lambda x: 0.0) if zero else (lambda x: x)
    for name in ["city", "device", "tags", "comment"]:
        feature(schema, name).drift_comparator.infinity_norm.threshold = t(0.05)
    for name in ["age", "income", "score", "city"]:
        feature(schema, name).drift_comparator.jensen_shannon_divergence.threshold = t(0.02)
    city = feature(schema, "city").skew_comparator
    city.infinity_norm.threshold = t(0.1)
    city.normalized_abs_difference.threshold = t(0.08)
    feature(schema, "income").skew_comparator.jensen_shannon_divergence.threshold = t(0.01)
    feature(schema, "label").skew_comparator.infinity_norm.threshold = t(0.1)
    dc = schema.dataset_constraints
    dc.num_examples_drift_comparator.min_fraction_threshold = 0.9
    dc.num_examples_drift_comparator.max_fraction_threshold = 1.1
    dc.num_examples_version_comparator.min_fraction_threshold = 0.5
    dc.num_examples_version_comparator.max_fraction_threshold = 1.0


def quantile_schema(schema):
    """score's drift JSD on its quantiles histogram."""
    s = type(schema)()
    s.CopyFrom(schema)
    c = feature(s, "score").drift_comparator.jensen_shannon_divergence
    c.threshold = 0.0
    c.source.type = c.source.QUANTILES
    return s


def answer(anomalies):
    out = {"features": {}, "dataset": [], "drift_skew_info": {}}
    for name, info in sorted(anomalies.anomaly_info.items()):
        reasons = [
            {
                "type": anomalies_pb2.AnomalyInfo.Type.Name(r.type),
                "short_description": r.short_description,
                "description": r.description,
            }
            for r in info.reason
        ]
        out["features"][name] = reasons
    for r in anomalies.dataset_anomaly_info.reason:
        out["dataset"].append(
            {"type": anomalies_pb2.AnomalyInfo.Type.Name(r.type), "description": r.description}
        )
    for d in anomalies.drift_skew_info:
        key = ".".join(d.path.step)

        def ms(lst):
            return [
                # JSON has no NaN: a NaN threshold is written "NaN".
                {"type": m.Type.Name(m.type), "value": m.value,
                 "threshold": "NaN" if math.isnan(m.threshold) else m.threshold}
                for m in lst
            ]

        out["drift_skew_info"][key] = {"drift": ms(d.drift_measurements), "skew": ms(d.skew_measurements)}
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    paths = {
        "span1": write("span1", 600, 1),
        "span2": write("span2", 750, 2),
        "serving": write("serving", 400, 3),
    }
    stats = {k: tfdv.generate_statistics_from_tfrecord(data_location=p) for k, p in paths.items()}
    with tf.io.TFRecordWriter(os.path.join(OUT, "span1.stats")) as w:
        w.write(stats["span1"].SerializeToString())
    tfdv.write_stats_text(stats["span1"], os.path.join(OUT, "span1.stats.pbtxt"))
    with tf.io.TFRecordWriter(os.path.join(OUT, "serving.stats")) as w:
        w.write(stats["serving"].SerializeToString())
    schema = tfdv.infer_schema(stats["span1"])
    set_comparators(schema, zero=False)
    tfdv.write_schema_text(schema, os.path.join(OUT, "schema.pbtxt"))
    zero = type(schema)()
    zero.CopyFrom(schema)
    set_comparators(zero, zero=True)
    tfdv.write_schema_text(zero, os.path.join(OUT, "schema_zero.pbtxt"))
    tfdv.write_schema_text(quantile_schema(zero), os.path.join(OUT, "schema_quantiles.pbtxt"))
    # NaN thresholds: TFDV's L-infinity and normalized difference checks are
    # `value <= threshold` (NaN: an anomaly), its divergence's `value >
    # threshold` (NaN: none).
    nan = type(schema)()
    nan.CopyFrom(schema)
    feature(nan, "city").drift_comparator.infinity_norm.threshold = float("nan")
    feature(nan, "city").drift_comparator.jensen_shannon_divergence.threshold = float("nan")
    feature(nan, "city").skew_comparator.normalized_abs_difference.threshold = float("nan")
    tfdv.write_schema_text(nan, os.path.join(OUT, "schema_nan.pbtxt"))

    def run(schema, **kw):
        return answer(tfdv.validate_statistics(stats["span2"], schema, **kw))

    cases = {
        "none": run(schema),
        "previous": run(schema, previous_statistics=stats["span1"]),
        "serving": run(schema, serving_statistics=stats["serving"]),
        # The public validate_statistics has no previous_version_statistics.
        "all": answer(
            validation_api.validate_statistics_internal(
                stats["span2"],
                schema,
                previous_span_statistics=stats["span1"],
                serving_statistics=stats["serving"],
                previous_version_statistics=stats["span1"],
            )
        ),
        "zero": run(zero, previous_statistics=stats["span1"], serving_statistics=stats["serving"]),
        "quantiles": run(quantile_schema(zero), previous_statistics=stats["span1"]),
        "nan": run(nan, previous_statistics=stats["span1"], serving_statistics=stats["serving"]),
        # The previous span compared with itself: every figure 0.
        "self": answer(tfdv.validate_statistics(stats["span1"], zero, previous_statistics=stats["span1"])),
    }
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", ", ".join(sorted(os.listdir(OUT))))


if __name__ == "__main__":
    main()

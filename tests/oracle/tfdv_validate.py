#!/usr/bin/env python3
"""`tfr validate` against TensorFlow Data Validation 1.16.1 (oracle; not run by CI).

Needs TFDV in its own venv (it pins its own TensorFlow):

    python3.11 -m venv .venv-tfdv
    .venv-tfdv/bin/pip install tensorflow-data-validation==1.16.1
    cargo build --release
    .venv-tfdv/bin/python tests/oracle/tfdv_validate.py

What it does: infers a schema with TFDV from tests/data/notebook.tfrecord
(`generate_statistics_from_tfrecord` + `infer_schema`), tightens it
(`float_domain { disallow_nan: true }` on feature3, `dataset_constraints {
min_examples_count }` above the drifted copy's size), writes a drifted copy
of the data with TensorFlow (feature0 dropped everywhere, feature1 int64 ->
float, feature2 out of its string domain and sometimes two values, a new
feature, NaN in feature3), then runs `tfdv.validate_statistics` on the
drifted data's statistics and `target/release/tfr validate --json` on the
drifted file with the same schema.pbtxt, prints both side by side and
asserts that they flag the same features with the same anomaly types (and
that both find the clean data conforming).

`--fixtures` instead (re)writes the committed TFDV schemas under
tests/data/validate/ (tfdv.infer_schema on notebook, base20, images and
sequence; TFDV reads a SequenceExample as an Example: its context).
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")
TFR = os.path.join(ROOT, "target", "release", "tfr")

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# tests/oracle/snappy.py would shadow the snappy module Beam imports.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import tensorflow as tf  # noqa: E402
import tensorflow_data_validation as tfdv  # noqa: E402
from tensorflow_metadata.proto.v0 import anomalies_pb2  # noqa: E402


def infer(path):
    stats = tfdv.generate_statistics_from_tfrecord(data_location=path)
    return stats, tfdv.infer_schema(stats)


def fixtures():
    out = os.path.join(DATA, "validate")
    os.makedirs(out, exist_ok=True)
    for name in ["notebook", "base20", "images", "sequence"]:
        _, schema = infer(os.path.join(DATA, f"{name}.tfrecord"))
        tfdv.write_schema_text(schema, os.path.join(out, f"{name}.pbtxt"))
        print(f"wrote tests/data/validate/{name}.pbtxt")


def drift(src, dst):
    """A drifted copy of the notebook data; returns its record count."""
    n = 0
    with tf.io.TFRecordWriter(dst) as w:
        for i, raw in enumerate(tf.data.TFRecordDataset(src)):
            ex = tf.train.Example.FromString(raw.numpy())
            f = ex.features.feature
            del f["feature0"]  # missing everywhere
            v = list(f["feature1"].int64_list.value)
            f["feature1"].ClearField("int64_list")
            f["feature1"].float_list.value[:] = [float(x) for x in v]  # kind changed
            if i % 7 == 3:
                f["feature2"].bytes_list.value[:] = [b"zebra"]  # out of domain
            if i % 50 == 10:
                f["feature2"].bytes_list.value.append(b"dog")  # two values: shape [1] broken
            if i % 5 == 0:
                f["extra"].int64_list.value.append(i)  # a new feature
            if i % 11 == 4:
                f["feature3"].float_list.value[:] = [float("nan")]  # NaN
            w.write(ex.SerializeToString())
            n += 1
    return n


def tfdv_flags(anomalies):
    got = {}
    for name, info in anomalies.anomaly_info.items():
        got[name] = sorted(anomalies_pb2.AnomalyInfo.Type.Name(r.type) for r in info.reason)
    for r in anomalies.dataset_anomaly_info.reason:
        got.setdefault("(dataset)", []).append(anomalies_pb2.AnomalyInfo.Type.Name(r.type))
    return got


def tfr_flags(schema_path, data_path):
    ran = subprocess.run([TFR, "validate", "--json", "-s", schema_path, data_path], capture_output=True, text=True)
    if ran.returncode not in (0, 1):
        sys.exit(f"tfr validate failed ({ran.returncode}): {ran.stderr}")
    doc = json.loads(ran.stdout)
    got = {}
    for a in doc["anomalies"]:
        got.setdefault(a["feature"] or "(dataset)", []).append(a["type"])
    return {k: sorted(v) for k, v in got.items()}, ran


def main():
    if "--fixtures" in sys.argv:
        fixtures()
        return
    if not os.path.exists(TFR):
        sys.exit(f"{TFR} missing: cargo build --release")
    clean = os.path.join(DATA, "notebook.tfrecord")
    with tempfile.TemporaryDirectory() as tmp:
        drifted = os.path.join(tmp, "drifted.tfrecord")
        n = drift(clean, drifted)
        _, schema = infer(clean)
        tfdv.get_feature(schema, "feature3").float_domain.disallow_nan = True
        schema.dataset_constraints.min_examples_count = n + 1
        schema_path = os.path.join(tmp, "schema.pbtxt")
        tfdv.write_schema_text(schema, schema_path)
        print(open(schema_path).read())

        ok = True
        # The clean data conforms for both (but the dataset constraint).
        clean_tfdv = tfdv_flags(tfdv.validate_statistics(tfdv.generate_statistics_from_tfrecord(clean), schema))
        clean_tfr, _ = tfr_flags(schema_path, clean)
        print(f"clean data:   TFDV {clean_tfdv}   tfr {clean_tfr}")
        ok &= clean_tfdv == clean_tfr

        stats = tfdv.generate_statistics_from_tfrecord(data_location=drifted)
        want = tfdv_flags(tfdv.validate_statistics(stats, schema))
        got, ran = tfr_flags(schema_path, drifted)
        print("\ntfr's lines:")
        print(ran.stderr.replace(tmp + "/", ""))
        print(f"{'feature':12} {'TFDV 1.16.1':60} tfr")
        for feature in sorted(set(want) | set(got)):
            w, g = want.get(feature, []), got.get(feature, [])
            mark = "" if w == g else "   <-- DIFFERENT"
            print(f"{feature:12} {', '.join(w) or '-':60} {', '.join(g) or '-'}{mark}")
            ok &= w == g
        print()
        if not ok:
            sys.exit("FAIL: TFDV and tfr flag different features or anomaly types")
        print(f"OK: TFDV and tfr flag the same {len(want)} features with the same anomaly types")


if __name__ == "__main__":
    main()

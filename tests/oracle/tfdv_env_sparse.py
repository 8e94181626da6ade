#!/usr/bin/env python3
"""TFDV 1.16.1 writes the answers `tfr validate` is held to: environments,
sparse and weighted features, the schema's own mistakes, unique
constraints, nested value_counts, image_domain (oracle; not run by CI).

Run (TFDV in its own venv, as tests/oracle/tfdv_validate.py says):

    .venv-tfdv/bin/python tests/oracle/tfdv_env_sparse.py

It writes, under tests/data/validate/oracle/:
- DATA.tfrecord: records written with TensorFlow (tf.io.TFRecordWriter,
  tf.train.Example);
- SCHEMA.pbtxt: schemas built as tensorflow_metadata protos and written with
  tfdv.write_schema_text;
- cases.json: per case (data, schema, environment) what TFDV 1.16.1 says:
  `tfdv.generate_statistics_from_tfrecord(data, tfdv.StatsOptions(schema=schema))`
  (the schema given, as TFX's StatisticsGen does, so that sparse and weighted
  features get their custom statistics) then
  `tfdv.validate_statistics(stats, schema, environment=ENV)`: the anomaly
  types, short and long descriptions of each feature and of the dataset, or
  the error TFDV raises.

tests/cli/validate_env.rs runs `tfr validate --json` on every case and
compares the anomaly types per feature (and the figures in the
descriptions) with cases.json. Rerunning gives the same bytes.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "validate", "oracle")

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# tests/oracle/snappy.py would shadow the snappy module Beam imports.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import tensorflow as tf  # noqa: E402
import tensorflow_data_validation as tfdv  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from tensorflow_metadata.proto.v0 import anomalies_pb2, schema_pb2  # noqa: E402


def feature(v):
    """A tf.train.Feature of a list of ints, floats or bytes (or None: Feature {})."""
    f = tf.train.Feature()
    if v is None:
        return f
    kind, values = v
    if kind == "i":
        f.int64_list.value[:] = values
    elif kind == "f":
        f.float_list.value[:] = values
    else:
        f.bytes_list.value[:] = values
    return f


def write(name, rows):
    path = os.path.join(OUT, f"{name}.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for row in rows:
            ex = tf.train.Example()
            for k, v in row.items():
                ex.features.feature[k].CopyFrom(feature(v))
            w.write(ex.SerializeToString())
    return path


def schema_of(name, text):
    s = text_format.Parse(text, schema_pb2.Schema())
    tfdv.write_schema_text(s, os.path.join(OUT, f"{name}.pbtxt"))
    return s


# ---------------------------------------------------------------------------
# The data
# ---------------------------------------------------------------------------

def env_data():
    train = [{"x": ("i", [i]), "label": ("i", [i % 2]), "both": ("b", [b"a"]), "debug": ("f", [0.5])} for i in range(10)]
    serving = [{"x": ("i", [i]), "both": ("b", [b"a"])} for i in range(8)]
    write("env_train", train)
    write("env_serving", serving)
    # The label in serving data: present, but not in the SERVING environment.
    write("env_serving_label", [dict(r, label=("i", [1])) for r in serving[:5]] + serving[5:])


def sparse_data():
    clean = []
    for i in range(12):
        n = i % 3 + 1
        clean.append({
            "idx": ("i", list(range(n))),
            "idx2": ("i", list(range(n))),
            "val": ("f", [float(i)] * n),
            "wv": ("b", [b"t"] * n),
            "w": ("f", [1.0] * n),
            "plain": ("i", [i]),
        })
    write("sparse_clean", clean)
    bad = [dict(r) for r in clean]
    del bad[2]["val"]  # value missing, indices there
    del bad[3]["idx2"]  # one index missing
    bad[4]["idx"] = ("i", [0, 1, 2, 3, 4])  # index longer than value: max diff 4
    bad[5]["val"] = ("f", [1.0, 2.0, 3.0, 4.0])  # value longer: min diff -1 (idx has 3)
    del bad[6]["w"]  # weight missing
    del bad[7]["wv"]  # weighted value missing
    bad[8]["w"] = ("f", [1.0] * 7)  # weight longer: diff 4 (wv has 3)
    for k in ["idx", "idx2", "val", "w", "wv"]:
        del bad[9][k]  # none of the components: not counted
    bad[10]["idx"] = ("i", [])  # an empty index list: present, length 0
    write("sparse_bad", bad)
    # Only index longer everywhere: min and max length diff both 1.
    write("sparse_longer", [dict(r, idx=("i", list(range(len(r["val"][1]) + 1)))) for r in clean])


def self_data():
    rows = []
    for i in range(10):
        rows.append({
            "neg_frac": ("i", [i]),
            "big_frac": ("i", [i]),
            "neg_min": ("i", [i]),
            "max_lt_min": ("i", [1, 2]),
            "zero_dim": ("i", [i]),
            "nested2": ("i", [i]),
            "nested1": ("i", [i]),
            "int_on_float": ("f", [float(i)]),
            "no_domain": ("b", [b"a"]),
            "dc_int": ("i", [i]),
            "dc_none": ("f", [0.5]),
            "uniq_low": ("b", [b"a", b"b"][: i % 2 + 1]),
            "uniq_high": ("b", [str(i).encode()]),
            "uniq_float": ("f", [float(i)]),
            "uniq_cat": ("i", [i % 4]),
            "uniq_min_only": ("b", [b"x", b"y"]),
            "uniq_ok": ("b", [b"p", b"q", b"r"][i % 3: i % 3 + 1]),
            "image": ("b", [b"\x89PNG\r\n\x1a\n" + b"\0" * (i * 10)]),
            "bool_same": ("i", [i % 2]),
            "tod": ("i", [i]),
            "": ("i", [i]),
        })
    rows[3]["neg_frac"] = None
    del rows[4]["big_frac"]
    write("self", rows)


# ---------------------------------------------------------------------------
# The schemas
# ---------------------------------------------------------------------------

ENV_SCHEMA = """
default_environment: "TRAINING"
default_environment: "SERVING"
feature { name: "x" type: INT presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }
feature { name: "label" type: INT presence { min_fraction: 1.0 min_count: 1 } not_in_environment: "SERVING" }
feature { name: "both" type: BYTES presence { min_count: 1 } in_environment: "SERVING" not_in_environment: "SERVING" }
feature { name: "debug" type: FLOAT presence { min_count: 1 } not_in_environment: "SERVING" not_in_environment: "TRAINING" }
"""

SPARSE_SCHEMA = """
feature { name: "idx" type: INT }
feature { name: "idx2" type: INT }
feature { name: "val" type: FLOAT }
feature { name: "wv" type: BYTES }
feature { name: "w" type: FLOAT }
feature { name: "plain" type: INT presence { min_fraction: 1.0 } }
sparse_feature {
  name: "sp"
  index_feature { name: "idx" }
  index_feature { name: "idx2" }
  value_feature { name: "val" }
  dense_shape { dim { size: 5 } dim { size: 5 } }
}
sparse_feature {
  name: "sp_one"
  index_feature { name: "idx" }
  value_feature { name: "val" }
}
weighted_feature { name: "wf" feature { step: "wv" } weight_feature { step: "w" } }
"""

COLLIDE_SCHEMA = """
feature { name: "idx" type: INT }
feature { name: "idx2" type: INT }
feature { name: "val" type: FLOAT }
feature { name: "wv" type: BYTES }
feature { name: "w" type: FLOAT }
feature { name: "plain" type: INT presence { min_fraction: 1.0 } }
feature { name: "gone" type: INT presence { min_count: 1 } }
feature { name: "gone2" type: INT presence { min_count: 1 } lifecycle_stage: DEPRECATED }
sparse_feature { name: "plain" index_feature { name: "idx" } value_feature { name: "val" } }
sparse_feature { name: "sp_dep" index_feature { name: "idx" } value_feature { name: "val" } lifecycle_stage: DEPRECATED }
weighted_feature { name: "idx2" feature { step: "wv" } weight_feature { step: "w" } }
weighted_feature { name: "wdep" feature { step: "wv" } weight_feature { step: "w" } lifecycle_stage: DEPRECATED }
weighted_feature {
  name: "gone2" feature { step: "wv" } weight_feature { step: "w" } lifecycle_stage: DEPRECATED
}
"""

SELF_SCHEMA = """
string_domain { name: "letters" value: "a" value: "b" }
feature { name: "neg_frac" type: INT presence { min_fraction: -0.5 } }
feature { name: "big_frac" type: INT presence { min_fraction: 1.5 } }
feature { name: "neg_min" type: INT value_count { min: -1 max: 1 } }
feature { name: "max_lt_min" type: INT value_count { min: 3 max: 1 } }
feature { name: "zero_dim" type: INT shape { dim { size: 0 } } }
feature { name: "nested2" type: INT value_counts { value_count { min: 1 } value_count { min: 1 } } }
feature { name: "nested1" type: INT value_counts { value_count { min: 2 max: -1 } } }
feature { name: "int_on_float" type: FLOAT int_domain { min: 100 } }
feature { name: "no_domain" type: BYTES domain: "nope" }
feature { name: "dc_int" type: INT int_domain { max: 3 } distribution_constraints { min_domain_mass: 0.5 } }
feature { name: "dc_none" type: FLOAT distribution_constraints { } }
feature { name: "uniq_low" type: BYTES unique_constraints { min: 5 max: 10 } }
feature { name: "uniq_high" type: BYTES unique_constraints { min: 1 max: 3 } }
feature { name: "uniq_float" type: FLOAT unique_constraints { min: 1 max: 3 } }
feature { name: "uniq_cat" type: INT int_domain { is_categorical: true } unique_constraints { min: 1 max: 3 } }
feature { name: "uniq_min_only" type: BYTES unique_constraints { min: 1 } }
feature { name: "uniq_ok" type: BYTES unique_constraints { min: 3 max: 3 } }
feature { name: "image" type: BYTES image_domain { max_image_byte_size: 50 } }
feature { name: "bool_same" type: INT bool_domain { true_value: "y" false_value: "y" } }
feature { type: INT }
feature { name: "tod" type: INT time_of_day_domain { } }
"""


def cases():
    env_schema = schema_of("env", ENV_SCHEMA)
    sparse_schema = schema_of("sparse", SPARSE_SCHEMA)
    collide_schema = schema_of("collide", COLLIDE_SCHEMA)
    self_schema = schema_of("self", SELF_SCHEMA)
    out = []
    for data, env in [
        ("env_train", None), ("env_train", "TRAINING"), ("env_train", "SERVING"),
        ("env_serving", None), ("env_serving", "SERVING"), ("env_serving", "TRAINING"),
        ("env_serving_label", "SERVING"), ("env_train", "NOPE"),
    ]:
        out.append(run("env", env_schema, data, env))
    for data in ["sparse_clean", "sparse_bad", "sparse_longer"]:
        out.append(run("sparse", sparse_schema, data, None))
        out.append(run("collide", collide_schema, data, None))
    out.append(run("self", self_schema, "self", None))
    return out


def run(schema_name, schema, data, env):
    case = {"schema": f"{schema_name}.pbtxt", "data": f"{data}.tfrecord", "environment": env}
    path = os.path.join(OUT, f"{data}.tfrecord")
    stats = tfdv.generate_statistics_from_tfrecord(path, stats_options=tfdv.StatsOptions(schema=schema))
    try:
        anomalies = tfdv.validate_statistics(stats, schema, environment=env)
    except ValueError as e:
        case["error"] = str(e)
        return case
    features = {}
    for name, info in sorted(anomalies.anomaly_info.items()):
        features[name] = [
            [anomalies_pb2.AnomalyInfo.Type.Name(r.type), r.short_description, r.description]
            for r in info.reason
        ]
    case["anomalies"] = features
    case["dataset"] = [
        [anomalies_pb2.AnomalyInfo.Type.Name(r.type), r.short_description, r.description]
        for r in anomalies.dataset_anomaly_info.reason
    ]
    print(f"{schema_name} on {data} env={env}: " + ", ".join(
        f"{k}: {[t for t, _, _ in v]}" for k, v in features.items()))
    return case


def main():
    os.makedirs(OUT, exist_ok=True)
    env_data()
    sparse_data()
    self_data()
    result = cases()
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(result)} cases to tests/data/validate/oracle/cases.json")


if __name__ == "__main__":
    main()

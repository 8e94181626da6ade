#!/usr/bin/env python3
"""Python protobuf's answer to `--where` and `count --by` over message fields.

The reference for `tfr cat --where EXPR` and `tfr count --by PATH --json` with
`--descriptor-set shapes.pb --message tfr.test.Sample` on
tests/data/proto/shapes.tfrecord. Each record is parsed by Python protobuf
(ParseFromString, the class built from the descriptor set), and each tfr
expression is paired below with the same question asked in Python through the
message API, by the rules tfr documents:

- a repeated field (or a path through one) matches when any element does;
- a field that tracks presence (message, oneof member, `optional`) has no value
  when HasField is false; a proto3 scalar without presence reads its value;
- an enum equals its name (an unknown number has none) and its number;
- a oneof's name reads the name of the member set (WhichOneof);
- has(): HasField / a non-empty list or map / a non-zero implicit scalar / a
  map's key or value: the map has an entry;
- len(): the number of values a comparison reads (a proto3 scalar without
  presence: 1; a map: its entries; a set message: 1).
- a float field is compared with the literal rounded to float32, as tfr
  compares Example floats (Python compares the widened float32 with the
  double literal), hence `m.f == np.float32(0.1)` below.

Prints one JSON document: {"where": {EXPR: [record indices]}, "by": {PATH:
{"missing": N, "values": [[VALUE, RECORDS], ...]}}, "serving_by": the same over
TF Serving's PredictionLog in warmup.tfrecord (serving.pb)}, VALUE as `tfr count --by
--json` writes it (an enum by name, a float32 as its shortest repr, a value that
is not finite as "nan"/"inf"/"-inf"). `--write` writes it to
tests/data/proto/expected/where.json.
"""

import json
import math
import os
import re
import struct
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from proto_ref import PROTO, load_class, records  # noqa: E402

import numpy as np  # noqa: E402


def has(m, name):
    return m.HasField(name)


def enum_name(m, field, number):
    value = m.DESCRIPTOR.fields_by_name[field].enum_type.values_by_number.get(number)
    return value.name if value is not None else None


def sub_leaf(m):
    return [m.sub.leaf] if has(m, "sub") and has(m.sub, "leaf") else []


# (tfr expression, Python predicate)
WHERE = [
    ("i32 > 0", lambda m: m.i32 > 0),
    ("i32 == 0", lambda m: m.i32 == 0),
    ('color == "RED"', lambda m: enum_name(m, "color", m.color) == "RED"),
    ('color == "COLOR_UNSPECIFIED"', lambda m: enum_name(m, "color", m.color) == "COLOR_UNSPECIFIED"),
    ("color == 42", lambda m: m.color == 42),
    ('sub.leaf.tags == "a"', lambda m: any("a" in leaf.tags for leaf in sub_leaf(m))),
    ('sub.leaf.color == "RED"', lambda m: any(enum_name(m.sub.leaf, "color", leaf.color) == "RED" for leaf in sub_leaf(m))),
    ('counts.key == "b9"', lambda m: "b9" in m.counts),
    ("counts.value > 5", lambda m: any(v > 5 for v in m.counts.values())),
    ('by_id.value.name ~ "e"', lambda m: any(re.search("e", v.name) for v in m.by_id.values())),
    ("by_id.key < 0", lambda m: any(k < 0 for k in m.by_id)),
    ("has(opt_i32)", lambda m: has(m, "opt_i32")),
    ("opt_i32 == 0", lambda m: has(m, "opt_i32") and m.opt_i32 == 0),
    ("len(ri32) >= 2", lambda m: len(m.ri32) >= 2),
    ("ri32 == -1", lambda m: -1 in m.ri32),
    ("b == true", lambda m: m.b),
    ("b == false", lambda m: not m.b),
    ("u64 > 9223372036854775807", lambda m: m.u64 > 9223372036854775807),
    ("fx64 >= 1099511627776", lambda m: m.fx64 >= 1099511627776),
    ("i64 < -9000000000000000000", lambda m: m.i64 < -9000000000000000000),
    ('c_text ~ ""', lambda m: m.WhichOneof("choice") == "c_text"),
    ("c_num == 0", lambda m: m.WhichOneof("choice") == "c_num" and m.c_num == 0),
    ("has(c_sub)", lambda m: m.WhichOneof("choice") == "c_sub"),
    ('subs.leaves.tags == "deep"', lambda m: any("deep" in leaf.tags for s in m.subs for leaf in s.leaves)),
    ("colors == 42", lambda m: 42 in m.colors),
    ('colors in ["NEGATIVE", "BLUE"]', lambda m: any(enum_name(m, "colors", c) in ("NEGATIVE", "BLUE") for c in m.colors)),
    ("rd == 0.1", lambda m: 0.1 in m.rd),
    ("f == 0.1", lambda m: m.f == np.float32(0.1)),
    ("d > 1e15", lambda m: m.d > 1e15),
    ("rf > 1e30", lambda m: any(v > 1e30 for v in m.rf)),
    ("d != 0", lambda m: m.d != 0),
    ('s ~ "^h"', lambda m: re.search("^h", m.s) is not None),
    ('by == "\\x00\\x01binary\\xff"', lambda m: m.by == b"\x00\x01binary\xff"),
    ("!has(sub) && i32 == 0", lambda m: not has(m, "sub") and m.i32 == 0),
    ('any.type_url ~ "Sub$"', lambda m: has(m, "any") and re.search("Sub$", m.any.type_url) is not None),
    ("ts.seconds > 0", lambda m: has(m, "ts") and m.ts.seconds > 0),
    ("i64v.value > 9007199254740992", lambda m: has(m, "i64v") and m.i64v.value > 9007199254740992),
    ("has(counts) || has(by_id)", lambda m: len(m.counts) > 0 or len(m.by_id) > 0),
    ("len(by_id) == 4", lambda m: len(m.by_id) == 4),
    ("has(sub.leaf)", lambda m: has(m, "sub") and has(m.sub, "leaf")),
    ("len(sub.leaves) == 2", lambda m: has(m, "sub") and len(m.sub.leaves) == 2),
    ("has(s)", lambda m: m.s != ""),
    ("renamed == 0", lambda m: m.renamed == 0),
    ("field_1_name > 0", lambda m: m.field_1_name > 0),
    ("has(counts.key)", lambda m: len(m.counts) > 0),
    ("has(by_id.value)", lambda m: len(m.by_id) > 0),
    ("len(counts.value) == 7", lambda m: len(m.counts) == 7),
    ("len(counts) >= 2", lambda m: len(m.counts) >= 2),
    ("len(subs.name) == 2", lambda m: len(m.subs) == 2),
    ("len(i32) == 1", lambda m: True),
    ("len(opt_i32) == 1", lambda m: has(m, "opt_i32")),
    ("len(sub) == 1", lambda m: has(m, "sub")),
    ("u64 == 18446744073709551615", lambda m: m.u64 == 18446744073709551615),
    ("u64 < 18446744073709551615", lambda m: m.u64 < 18446744073709551615),
    ("fx64 > 1.8446744073709552e19", lambda m: m.fx64 > 1.8446744073709552e19),
    ("u64 >= 1.8446744073709552e19", lambda m: m.u64 >= 1.8446744073709552e19),
    ("i64 < 9223372036854775808", lambda m: m.i64 < 9223372036854775808),
    ('choice == "c_num"', lambda m: m.WhichOneof("choice") == "c_num"),
    ("has(choice)", lambda m: m.WhichOneof("choice") is not None),
    ('choice in ["c_text", "c_sub"] && !has(sub)', lambda m: m.WhichOneof("choice") in ("c_text", "c_sub") and not has(m, "sub")),
]


def shortest_f32(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(str(np.float32(v)))


def double(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def text(b):
    return b if isinstance(b, str) else b.decode()


# (tfr --by path, Python: the record's values, None when it has none)
BY = [
    ("color", lambda m: [enum_name(m, "color", m.color) or m.color]),
    ("colors", lambda m: [enum_name(m, "colors", c) or c for c in m.colors]),
    ("counts.key", lambda m: list(m.counts)),
    ("by_id.key", lambda m: list(m.by_id)),
    ("sub.leaf.tags", lambda m: [t for leaf in sub_leaf(m) for t in leaf.tags]),
    ("b", lambda m: [m.b]),
    ("u64", lambda m: [m.u64]),
    ("opt_s", lambda m: [m.opt_s] if has(m, "opt_s") else []),
    ("rf", lambda m: [shortest_f32(v) for v in m.rf]),
    ("rd", lambda m: [double(v) for v in m.rd]),
    ("subs.name", lambda m: [s.name for s in m.subs]),
    ("choice", lambda m: [m.WhichOneof("choice")] if m.WhichOneof("choice") else []),
]

# The same over TF Serving's PredictionLog (warmup.tfrecord, serving.pb).
SERVING_BY = [
    ("log_type", lambda m: [m.WhichOneof("log_type")] if m.WhichOneof("log_type") else []),
    ("predict_log.request.model_spec.name",
     lambda m: [m.predict_log.request.model_spec.name]
     if has(m, "predict_log") and has(m.predict_log, "request") and has(m.predict_log.request, "model_spec") else []),
    ("predict_log.request.inputs.key",
     lambda m: list(m.predict_log.request.inputs) if has(m, "predict_log") and has(m.predict_log, "request") else []),
]


def key(v):
    # -0.0 and 0.0 are two values (tfr tells floats apart by their bits).
    if isinstance(v, float) and v == 0:
        return ("float", struct.pack(">d", v))
    return (type(v).__name__, v)


def tally(values_per_record):
    counts, firsts, missing = Counter(), {}, 0
    for values in values_per_record:
        if not values:
            missing += 1
        for v in {key(v): v for v in values}.items():
            counts[v[0]] += 1
            firsts[v[0]] = v[1]
    return {"missing": missing, "values": sorted(([firsts[k], n] for k, n in counts.items()), key=repr)}


def main():
    cls, _ = load_class(os.path.join(PROTO, "shapes.pb"), "tfr.test.Sample")
    msgs = [cls.FromString(p) for p in records(os.path.join(PROTO, "shapes.tfrecord"))]
    serving_cls, _ = load_class(os.path.join(PROTO, "serving.pb"), "tensorflow.serving.PredictionLog")
    logs = [serving_cls.FromString(p) for p in records(os.path.join(PROTO, "warmup.tfrecord"))]
    doc = {
        "where": {expr: [i for i, m in enumerate(msgs) if pred(m)] for expr, pred in WHERE},
        "by": {path: tally([f(m) for m in msgs]) for path, f in BY},
        "serving_by": {path: tally([f(m) for m in logs]) for path, f in SERVING_BY},
    }
    out = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if "--write" in sys.argv:
        with open(os.path.join(PROTO, "expected", "where.json"), "w") as f:
            f.write(out)
    else:
        sys.stdout.write(out)


if __name__ == "__main__":
    main()

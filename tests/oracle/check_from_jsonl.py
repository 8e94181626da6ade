#!/usr/bin/env python3
"""Checks `tfr from-jsonl` and `tfr to-jsonl` against TensorFlow 2.21.

Run from the repository root, with a built tfr:

    cargo build --release
    .venv-tf/bin/python tests/oracle/check_from_jsonl.py [--tfr target/release/tfr] [--write]

What it checks (exit 1 on any mismatch, with a line per failure):

1. tests/data/jsonl/{natural,sequence,raw}.jsonl (hand-written: scalars,
   lists, booleans, text, base64 images, NaN, typed forms, empty lists,
   unset features) converted by `tfr from-jsonl --compression none|gzip|zlib|snappy`
   are read by `tf.data.TFRecordDataset(compression_type="" | "GZIP" |
   "ZLIB" | "SNAPPY")` as exactly the messages intended (listed below, built here
   independently of tfr), the same bytes for every compression; TF's own
   parsers accept them (`tf.io.parse_single_example` with a PNG decoded by
   `tf.io.decode_png`, `tf.io.parse_single_sequence_example`).
2. `tfr to-jsonl` of those files (the canonical form) read back in Python
   by the rules of the mapping gives the same messages.
3. Every intact TF-written fixture: `tfr to-jsonl | tfr from-jsonl
   --compression C`, read by TF, gives byte-identical payloads (parse-equal
   ones for noncanonical.tfrecord).
4. `tfr to-jsonl --format protojson` equals (as JSON values) the fixtures'
   `json_format.MessageToJson` output, is accepted by
   `tf.io.decode_json_example` (Examples) and `json_format.Parse`, and
   decodes to the same messages.
5. Python's `json` + `numpy.float32` read every float that `to-jsonl` writes
   back to the same float32: the fixtures' float32 table, the one value
   whose shortest digits double-round, and 200,000 random bit patterns.
6. jq 1.6's integers after floats are written as floats (TensorFlow parses
   them with tfr's spec); records where one name holds two kinds (a key
   repeated in a map, feature-list steps of several kinds), written by
   TensorFlow, come back byte for byte through `to-jsonl | from-jsonl`
   with the default --on-kind-change, and `cat --format json` agrees.

With --write it (re)writes tests/data/jsonl/expected.json: the payloads TF
read for the three hand-written files and their canonical to-jsonl lines,
which the Rust tests (tests/cli/jsonl.rs) compare without TensorFlow.
"""

import argparse
import base64
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import json_format  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
JSONL = DATA / "jsonl"
TF_COMPRESSION = {"none": "", "gzip": "GZIP", "zlib": "ZLIB", "snappy": "SNAPPY"}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL", msg, flush=True)


def run_tfr(tfr, args, stdin=None):
    p = subprocess.run([tfr, *args], input=stdin, capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(f"tfr {' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout


def tf_read(path, compression):
    # In batches: a Python step per record cost more than TF's reading.
    ds = tf.data.TFRecordDataset(str(path), compression_type=TF_COMPRESSION[compression])
    return [bytes(x) for batch in ds.batch(4096) for x in batch.numpy()]


# ---------------------------------------------------------------- messages

def f32_bits(x):
    return int(np.float32(x).view(np.uint32))


def feature_form(f):
    """A comparable form of a Feature: (kind, values), floats as bit patterns
    (every NaN as the canonical one)."""
    kind = f.WhichOneof("kind")
    if kind is None:
        return ("none", ())
    if kind == "int64_list":
        return ("int64", tuple(f.int64_list.value))
    if kind == "bytes_list":
        return ("bytes", tuple(f.bytes_list.value))
    return ("float", tuple(0x7FC00000 if math.isnan(v) else f32_bits(v) for v in f.float_list.value))


def example_form(msg):
    if not msg.HasField("features"):
        return ("example", None)
    return ("example", {k: feature_form(v) for k, v in msg.features.feature.items()})


def sequence_form(msg):
    context = {k: feature_form(v) for k, v in msg.context.feature.items()} if msg.HasField("context") else None
    lists = None
    if msg.HasField("feature_lists"):
        lists = {k: [feature_form(f) for f in v.feature] for k, v in msg.feature_lists.feature_list.items()}
    return ("sequence", context, lists)


def form_of(payload, kind):
    if kind == "example":
        return example_form(tf.train.Example.FromString(payload))
    if kind == "sequence":
        return sequence_form(tf.train.SequenceExample.FromString(payload))
    return ("raw", payload)


def I(*v):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=list(v)))


def F(*v):
    return tf.train.Feature(float_list=tf.train.FloatList(value=list(v)))


def B(*v):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=list(v)))


NONE = tf.train.Feature()
NAN, INF = float("nan"), float("inf")
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR42mP4z8DA8B+MgBgAHfAD/a4/4jgAAAAASUVORK5CYII="
)


def ex(features):
    if features is None:
        return tf.train.Example()
    return tf.train.Example(features=tf.train.Features(feature=features))


# What tests/data/jsonl/*.jsonl mean, written independently of tfr.
INTENDED = {
    "natural": [
        ex({
            "label": I(1), "score": F(0.5), "name": B(b"cat"), "tags": B(b"a", b"b"),
            "flag": I(1), "flags": I(1, 0), "mixed": F(1.0, 2.5), "with_nan": F(1.5, NAN),
            "nonfinite": F(NAN, INF, -INF), "none": NONE, "ids": I(1, 2, 3), "no_ids": I(),
            "forced": F(1.0, 2.0), "min": I(-(2**63)), "max": I(2**63 - 1),
            "text": B('héllo "wörld"\n'.encode()), "emoji": B("😀".encode(), "😀".encode()),
            "jpeg": B(base64.b64decode("/9j/4AAQSkZJRgA=")),
        }),
        ex({
            "image/encoded": B(PNG), "image/format": B(b"png"), "image/height": I(2), "image/width": I(2),
            "image/object/bbox": F(0.1, 0.2, 0.9, 0.8), "image/object/class/label": I(3, 7),
        }),
        ex({
            "floats": F(1e-45, 3.4028235e38, -0.0, 0.1, 16777217.0, 1000.0, 7.0385307e-26),
            "bytes": B(b"\x00\xff", b"", b"x"), "": I(0),
        }),
        ex({}),
        ex(None),
        ex({
            "unset": NONE, "empty_bytes": B(), "empty_floats": F(), "one_string": B(b"NaN"), "one_float": F(2.0),
        }),
    ],
    "sequence": [
        tf.train.SequenceExample(
            context=tf.train.Features(feature={"id": B(b"clip-1"), "length": I(3), "weight": F(0.75)}),
            feature_lists=tf.train.FeatureLists(feature_list={
                "frames": tf.train.FeatureList(feature=[F(0.1, 0.2), F(0.3, 0.4), F(0.5, NAN)]),
                "tokens": tf.train.FeatureList(feature=[I(1), I(2), I(3)]),
                "words": tf.train.FeatureList(feature=[B(b"a"), B(b"b", b"c"), B()]),
                "unset": tf.train.FeatureList(feature=[NONE]),
            }),
        ),
        tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={"empty": tf.train.FeatureList()})),
        tf.train.SequenceExample(context=tf.train.Features(), feature_lists=tf.train.FeatureLists()),
        tf.train.SequenceExample(
            context=tf.train.Features(feature={"only": B(b"context")}),
            feature_lists=tf.train.FeatureLists(feature_list={"x": tf.train.FeatureList(feature=[I(1), I(0)])}),
        ),
    ],
    "raw": [b"hello world", b"\x00\xff", b"", b'tab\tand "quotes"'],
}
KIND = {"natural": "example", "sequence": "sequence", "raw": "raw"}


def intended_form(name, msg):
    kind = KIND[name]
    if kind == "example":
        return example_form(msg)
    if kind == "sequence":
        return sequence_form(msg)
    return ("raw", msg)


# -------------------------------------------- reading the canonical form

def natural_feature(v):
    """A FEATURE of the canonical natural form, read by the mapping's rules."""
    if v is None:
        return ("none", ())
    if isinstance(v, dict):
        if len(v) != 1:
            raise ValueError(f"bad typed form {v}")
        (k, vals), = v.items()
        kind = {"int64_list": "int64", "float_list": "float", "bytes_list": "bytes"}[k]
    else:
        vals = v
        numeric = any(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vals)
        if not numeric:
            kind = "bytes"
        elif any(isinstance(x, float) or isinstance(x, str) for x in vals):
            kind = "float"
        else:
            kind = "int64"
    if kind == "int64":
        return ("int64", tuple(vals))
    if kind == "float":
        special = {"NaN": 0x7FC00000, "Infinity": 0x7F800000, "-Infinity": 0xFF800000}
        return ("float", tuple(special[x] if isinstance(x, str) else f32_bits(x) for x in vals))
    out = []
    for x in vals:
        out.append(base64.b64decode(x["base64"], validate=True) if isinstance(x, dict) else x.encode())
    return ("bytes", tuple(out))


def natural_form(line, kind):
    # Floats must read as floats: parse_float keeps "1.0" a float, ints stay ints.
    v = json.loads(line)
    if kind == "raw":
        return ("raw", base64.b64decode(v["base64"]) if isinstance(v, dict) else v.encode())
    if kind == "example":
        return ("example", None if v is None else {k: natural_feature(f) for k, f in v.items()})
    context = v.get("context")
    lists = v.get("feature_lists")
    return (
        "sequence",
        None if context is None else {k: natural_feature(f) for k, f in context.items()},
        None if lists is None else {k: [natural_feature(f) for f in fs] for k, fs in lists.items()},
    )


# ------------------------------------------------------------------ checks

def check_hand_written(tfr, tmp):
    expected = {}
    for name in ("natural", "sequence", "raw"):
        kind = KIND[name]
        src = JSONL / f"{name}.jsonl"
        type_args = ["--type", "raw"] if kind == "raw" else []
        payloads = None
        for comp in ("none", "gzip", "zlib", "snappy"):
            out = tmp / f"{name}.{comp}.tfrecord"
            run_tfr(tfr, ["from-jsonl", str(src), "-o", str(out), "--compression", comp, *type_args])
            got = tf_read(out, comp)
            if payloads is None:
                payloads = got
            elif got != payloads:
                fail(f"{name}: --compression {comp} gives other payloads than none")
        want = [intended_form(name, m) for m in INTENDED[name]]
        got_forms = [form_of(p, kind) for p in payloads]
        if len(got_forms) != len(want):
            fail(f"{name}: {len(got_forms)} records, intended {len(want)}")
        for i, (g, w) in enumerate(zip(got_forms, want)):
            if g != w:
                fail(f"{name} record {i}: TF read {g}, intended {w}")
        # The canonical form, read back by the mapping's rules in Python.
        canonical = run_tfr(tfr, ["to-jsonl", str(tmp / f"{name}.none.tfrecord"), *type_args]).decode()
        lines = canonical.splitlines()
        for i, (line, w) in enumerate(zip(lines, want)):
            if natural_form(line, kind) != w:
                fail(f"{name} canonical line {i}: {line} reads as {natural_form(line, kind)}, intended {w}")
        expected[name] = {
            "payloads_b64": [base64.b64encode(p).decode() for p in payloads],
            "canonical": lines,
        }
        print(f"ok   {name}.jsonl: {len(payloads)} records, intended values under none/gzip/zlib/snappy; canonical form reads back")

    # TF's own parsers on what from-jsonl wrote.
    image = tf_read(tmp / "natural.gzip.tfrecord", "gzip")[1]
    parsed = tf.io.parse_single_example(image, {
        "image/encoded": tf.io.FixedLenFeature([], tf.string),
        "image/height": tf.io.FixedLenFeature([], tf.int64),
        "image/object/bbox": tf.io.VarLenFeature(tf.float32),
    })
    pixels = tf.io.decode_png(parsed["image/encoded"]).numpy()
    if pixels.shape != (2, 2, 3) or pixels[0, 0].tolist() != [255, 0, 0] or int(parsed["image/height"]) != 2:
        fail(f"parse_single_example/decode_png: {pixels.shape} {pixels[0, 0]}")
    seq = tf_read(tmp / "sequence.zlib.tfrecord", "zlib")[0]
    ctx, lists = tf.io.parse_single_sequence_example(
        seq,
        context_features={"length": tf.io.FixedLenFeature([], tf.int64)},
        sequence_features={
            "tokens": tf.io.FixedLenSequenceFeature([], tf.int64),
            "frames": tf.io.FixedLenSequenceFeature([2], tf.float32),
        },
    )
    if int(ctx["length"]) != 3 or lists["tokens"].numpy().tolist() != [1, 2, 3] or lists["frames"].shape != (3, 2):
        fail(f"parse_single_sequence_example: {ctx} {lists}")
    print("ok   TF parse_single_example + decode_png, parse_single_sequence_example accept them")
    return expected


def fixtures():
    manifest = json.loads((DATA / "manifest.json").read_text())
    for f in manifest["fixtures"]:
        if f["damage"] is not None or f["payload"] not in ("example", "sequence", "raw") or not f["expected"]:
            continue
        exp = json.loads((DATA / f["expected"]).read_text())
        if f["payload"] != "raw" and any(t is None for t in exp.get("text", [])):
            continue  # bad_utf8_key: Python cannot parse it; tfr refuses it too
        yield f, exp


def tf_read_all(files):
    """TensorFlow's reading of many files: {(path, compression): payloads}.
    One tf.data.TFRecordDataset per file, read in one pipeline per
    compression (a pipeline of its own for each of a hundred files cost
    seconds of tf.data set-up)."""
    read = {key: [] for key in files}
    for comp in {comp for _, comp in files}:
        paths = [str(path) for path, c in files if c == comp]
        ds = tf.data.Dataset.from_tensor_slices(paths).flat_map(
            lambda p: tf.data.TFRecordDataset(p, compression_type=TF_COMPRESSION[comp]).map(lambda r: (p, r))
        )
        by_path = {str(path): key for key in files for path, c in [key] if c == comp}
        for names, records in ds.batch(4096):
            for name, record in zip(names.numpy(), records.numpy()):
                read[by_path[name.decode()]].append(bytes(record))
    return read


def check_fixture_round_trips(tfr, tmp):
    n = 0
    made = []
    for f, exp in fixtures():
        kind = f["payload"]
        type_args = ["--type", "raw"] if kind == "raw" else []
        jsonl = run_tfr(tfr, ["to-jsonl", str(DATA / f["file"]), *type_args])
        for comp in ("none", "gzip", "zlib", "snappy"):
            out = tmp / f"rt.{f['name']}.{comp}"
            # A fixture may change a feature's kind between records (made
            # so by TensorFlow's writer): a round trip keeps them as read.
            keep = ["--on-kind-change", "keep"]
            run_tfr(tfr, ["from-jsonl", "-", "-o", str(out), "--compression", comp, *keep, *type_args], stdin=jsonl)
            made.append((f, exp, out, comp))
        n += 1
    read = tf_read_all([(out, comp) for _, _, out, comp in made])
    for f, exp, out, comp in made:
        kind = f["payload"]
        want = [base64.b64decode(p) for p in exp["payloads_b64"]]
        got = read[(out, comp)]
        if f["name"].endswith("noncanonical"):
            if [form_of(p, kind) for p in got] != [form_of(p, kind) for p in want]:
                fail(f"{f['name']}: round trip ({comp}) parses to other messages")
        elif got != want:
            fail(f"{f['name']}: round trip ({comp}) is not byte-identical")
    print(f"ok   to-jsonl | from-jsonl on {n} TF-written fixtures: byte-identical (noncanonical: parse-equal), TF reads none/gzip/zlib/snappy")


def check_protojson(tfr):
    n = 0
    parse_skips, flushed = [], []
    for f, exp in fixtures():
        kind = f["payload"]
        if kind == "raw":
            continue
        lines = run_tfr(tfr, ["to-jsonl", "--format", "protojson", str(DATA / f["file"])]).decode().splitlines()
        if [json.loads(x) for x in lines] != [json.loads(x) for x in exp["protojson"]]:
            fail(f"{f['name']}: protojson differs from json_format.MessageToJson")
        want = [form_of(base64.b64decode(p), kind) for p in exp["payloads_b64"]]
        cls = tf.train.Example if kind == "example" else tf.train.SequenceExample
        to_form = example_form if kind == "example" else sequence_form
        for i, (line, theirs) in enumerate(zip(lines, exp["protojson"])):
            try:
                if to_form(json_format.Parse(line, cls())) != want[i]:
                    fail(f"{f['name']} record {i}: json_format.Parse of the protojson gives another message")
            except json_format.ParseError as e:
                # Python protobuf cannot parse its own 3.4028235e+38 (FLT_MAX
                # rounded up as a double): "Float value too large".
                try:
                    json_format.Parse(theirs, cls())
                    fail(f"{f['name']} record {i}: json_format.Parse fails: {e}")
                except json_format.ParseError:
                    parse_skips.append(f"{f['name']} record {i}")
        if kind == "example" and lines:
            ours = [form_of(bytes(d), kind) for d in tf.io.decode_json_example(tf.constant(lines)).numpy()]
            theirs = [form_of(bytes(d), kind) for d in tf.io.decode_json_example(tf.constant(exp["protojson"])).numpy()]
            # TF's C++ JSON parser flushes float32 subnormals to 0, for
            # MessageToJson's own output too: compare with that.
            if ours != theirs:
                fail(f"{f['name']}: tf.io.decode_json_example gives other messages than for MessageToJson's lines")
            if ours != want:
                flushed.append(f["name"])
        n += 1
    print(f"ok   protojson of {n} fixtures: equal to MessageToJson, accepted by json_format.Parse and tf.io.decode_json_example")
    if flushed:
        print(f"     (tf.io.decode_json_example flushes subnormals to 0 in {', '.join(flushed)}, as for MessageToJson's lines)")
    if parse_skips:
        print(f"     (json_format.Parse rejects MessageToJson's own output for {', '.join(parse_skips)}: FLT_MAX; skipped)")


def check_floats(tfr, tmp):
    table = json.loads((DATA / "expected" / "float32_repr.json").read_text())
    bits = [int(row[0], 16) for row in table]
    bits += [0x15AE43FD, 0x95AE43FD]
    rng = np.random.default_rng(7)
    bits += [int(b) for b in rng.integers(0, 2**32, 200_000, dtype=np.uint64)]
    values = np.array(bits, dtype=np.uint32).view(np.float32)
    values = np.where(np.isnan(values), np.float32("nan"), values)  # only canonical NaN round-trips
    path = tmp / "floats.tfrecord"
    with tf.io.TFRecordWriter(str(path)) as w:
        for chunk in np.array_split(values, 100):
            w.write(ex({"f": F(*chunk.tolist())}).SerializeToString())
    lines = run_tfr(tfr, ["to-jsonl", str(path)]).decode().splitlines()
    special = {"NaN": np.float32("nan"), "Infinity": np.float32("inf"), "-Infinity": np.float32("-inf")}
    got = np.array(
        [special[x] if isinstance(x, str) else np.float32(x) for line in lines for x in json.loads(line)["f"]],
        dtype=np.float32,
    )
    want_bits = values.view(np.uint32)
    bad = np.nonzero(got.view(np.uint32) != want_bits)[0]
    if len(bad):
        fail(f"floats: {len(bad)} of {len(values)} read back differently in Python, e.g. bits {want_bits[bad[0]]:08x}")
    # Every finite float is written with a '.' or an exponent.
    tokens = [t for line in lines for t in line[len('{"f":['):-2].split(",")]
    if any(not t.startswith('"') and "." not in t and "e" not in t for t in tokens):
        fail("floats: a finite float without '.' or exponent")
    print(f"ok   {len(values)} float32 values: Python json + numpy.float32 read to-jsonl's digits back exactly")


def check_jq_kind_change(tfr, tmp):
    """Issue 28: jq 1.6 prints 100.0 as 100, so a float feature turns up as
    integers in later lines. from-jsonl writes them as floats, and
    TensorFlow parses the whole file with the spec `tfr schema -f tf`
    prints for it."""
    lines = ['{"score": [0.5], "label": [1]}', '{"score": [100], "label": [0]}', '{"score": [2, 3.25], "label": [1]}']
    src = tmp / "jq.jsonl"
    src.write_text("\n".join(lines) + "\n")
    out = tmp / "jq.tfrecord"
    run_tfr(tfr, ["from-jsonl", str(src), "-o", str(out)])
    spec = run_tfr(tfr, ["schema", "-f", "tf", str(out)]).decode()
    scope = {}
    exec(spec, scope)
    parse = scope["parse"]
    scores = []
    for raw in tf.data.TFRecordDataset(str(out)):
        parsed = parse(raw)
        s = parsed["score"]
        if isinstance(s, tf.SparseTensor):
            s = tf.sparse.to_dense(s)
        if s.dtype != tf.float32:
            fail(f"jq kind change: score parsed as {s.dtype}")
        scores.append(s.numpy().tolist())
    if scores != [[0.5], [100.0], [2.0, 3.25]]:
        fail(f"jq kind change: TensorFlow read {scores}")
    else:
        print("ok   integers after floats (jq 1.6) written as floats; TensorFlow parses with tfr's spec")


def check_two_kinds_in_one_record(tfr, tmp):
    """Issue 41: records where one name holds two kinds are legal protobuf
    (a key repeated in a Features map: two serialized Features messages
    concatenated, which protobuf merges into one map with the key twice;
    feature-list steps of several kinds). TensorFlow writes them;
    `tfr to-jsonl | tfr from-jsonl` (default --on-kind-change error) gives
    them back byte for byte, and `tfr cat --format json` writes the same lines."""
    from google.protobuf.internal import encoder

    def features(*entries):
        # One Features message per entry, concatenated: a map with repeated keys.
        return b"".join(tf.train.Features(feature={k: v}).SerializeToString() for k, v in entries)

    def field(number, body):
        return encoder.TagBytes(number, 2) + encoder._VarintBytes(len(body)) + body

    examples = [
        field(1, features(("dup", I(1)), ("x", F(0.5)), ("dup", F(1.5)), ("dup", B(b"a")), ("dup", I(2)))),
        field(1, features(("g", F(0.25)), ("g", I(100)), ("e", F()), ("e", I()))),
    ]
    seq = tf.train.SequenceExample()
    seq.context.feature["c"].int64_list.value.append(7)
    steps = seq.feature_lists.feature_list["s"].feature
    steps.add().int64_list.value.append(1)
    steps.add().float_list.value.append(0.5)
    steps.add().bytes_list.value.append(b"b")
    steps.add().int64_list.value.append(2)
    seq_bytes = seq.SerializeToString()
    # And a context whose key repeats with another kind.
    ctx = features(("c", I(7)), ("c", F(2.5)))
    seq2 = field(1, ctx) + field(2, seq.feature_lists.SerializeToString())
    n = 0
    for kind, payloads in (("example", examples), ("sequence", [seq_bytes, seq2])):
        path = tmp / f"two_kinds_{kind}.tfrecord"
        with tf.io.TFRecordWriter(str(path)) as w:
            for p in payloads:
                w.write(p)
        jsonl = run_tfr(tfr, ["to-jsonl", "--type", kind, str(path)])
        if run_tfr(tfr, ["cat", "--format", "json", "--type", kind, str(path)]) != jsonl:
            fail(f"two kinds in one record ({kind}): cat --format json differs from to-jsonl")
        if b'_list":' not in jsonl:
            fail(f"two kinds in one record ({kind}): no typed form in {jsonl!r}")
        out = tmp / f"two_kinds_{kind}.rt.tfrecord"
        try:
            run_tfr(tfr, ["from-jsonl", "-", "-o", str(out)], stdin=jsonl)
        except RuntimeError as e:
            fail(f"two kinds in one record ({kind}): {e}")
            continue
        if tf_read(out, "none") != tf_read(path, "none"):
            fail(f"two kinds in one record ({kind}): round trip is not byte-identical")
        n += len(payloads)
    print(f"ok   {n} TF-written records with a name of two kinds: to-jsonl | from-jsonl byte-identical by default")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tfr", default=str(ROOT / "target" / "release" / "tfr"))
    ap.add_argument("--write", action="store_true", help="rewrite tests/data/jsonl/expected.json")
    args = ap.parse_args()
    print(f"TensorFlow {tf.__version__}, tfr {args.tfr}")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        expected = check_hand_written(args.tfr, tmp)
        check_fixture_round_trips(args.tfr, tmp)
        check_protojson(args.tfr)
        check_floats(args.tfr, tmp)
        check_jq_kind_change(args.tfr, tmp)
        check_two_kinds_in_one_record(args.tfr, tmp)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    if args.write:
        doc = {
            "generated_by": "tests/oracle/check_from_jsonl.py --write",
            "tensorflow": tf.__version__,
            "note": "payloads_b64: what TensorFlow read from `tfr from-jsonl NAME.jsonl` (the same for none/gzip/zlib), "
            "checked against the intended messages; canonical: `tfr to-jsonl` of them, checked by reading it back in Python",
            **expected,
        }
        (JSONL / "expected.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {JSONL / 'expected.json'}")
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks `tfr schema` against TensorFlow 2.21 and Python protobuf.

For every Example / SequenceExample fixture in tests/data (manifest.json):

1. runs `tfr schema --format tf FILE`, executes the snippet, and parses every
   scanned record with it in TensorFlow: one by one with
   `tf.io.parse_single_example` / `parse_single_sequence_example`, and all
   together with `tf.io.parse_example` / `parse_sequence_example`. Any
   error fails the check. Damaged fixtures are checked on the records tfr
   scanned before the damage (tfr prints the schema of those, then exits 2).
2. computes the per-feature statistics independently from the payloads
   TensorFlow read (expected/*.json, parsed with Python protobuf, map rule
   "last key wins") and writes them to tests/data/schema/<name>.json; the
   Rust test `schema::json_matches_python_protobuf_on_every_fixture`
   compares `tfr schema --json` with those files (CI has no TensorFlow).
3. checks a dataset of three shards whose middle shard has another kind for
   one feature: tfr must leave that feature out, and the rest must parse.

Usage (from the repository root, after `cargo build`):

    .venv-tf/bin/python tests/oracle/check_schema.py [--tfr target/release/tfr]

Exit status 0 when every check passes; the expected files are rewritten
each run (deterministic: rerunning changes nothing).
"""

import argparse
import base64
import json
import math
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")
OUT = os.path.join(DATA, "schema")


def run_tfr(tfr, args):
    p = subprocess.run([tfr, "schema", *args], capture_output=True, env={"PATH": os.environ.get("PATH", "")})
    return p.returncode, p.stdout.decode(), p.stderr.decode()


# ---------------------------------------------------------------------------
# TensorFlow: the snippet parses every record
# ---------------------------------------------------------------------------

def tf_message(e):
    return str(e).split("}}")[-1].strip().replace("\n", " ")


def check_snippet(snippet, payloads, sequence):
    """Parses every payload with the snippet's spec. Returns (problem or None,
    indices of the non-canonical records TensorFlow's parser reads otherwise
    than protobuf does, and whose canonical encoding parses)."""
    ns = {}
    exec(compile(snippet, "<tfr schema --format tf>", "exec"), ns)
    if sequence:
        cf, sf = ns["context_features"], ns["sequence_features"]
        one = lambda p, c, s: tf.io.parse_single_sequence_example(p, context_features=c, sequence_features=s)  # noqa: E731
        batch = lambda ps: tf.io.parse_sequence_example(ps, context_features=cf, sequence_features=sf)  # noqa: E731
        message = tf.train.SequenceExample
        parse_one = lambda p: one(p, cf, sf)  # noqa: E731
    else:
        fd = ns["feature_description"]
        batch = lambda ps: tf.io.parse_example(ps, fd)  # noqa: E731
        message = tf.train.Example
        parse_one = lambda p: tf.io.parse_single_example(p, fd)  # noqa: E731
    rejected, good = [], []
    for i, p in enumerate(payloads):
        try:
            parse_one(p)
            good.append(p)
        except Exception as e:  # noqa: BLE001
            # TensorFlow's fast parser is not protobuf: it refuses a map entry
            # without key or value ("Could not parse example input") and takes
            # the first of two kinds in one Feature where protobuf takes the
            # last. tfr follows protobuf; the record as protobuf sees it
            # (re-encoded canonically) must parse.
            # (upb keeps a map entry it left out as unknown data: drop it.)
            parsed = message.FromString(p)
            parsed.DiscardUnknownFields()
            canonical = parsed.SerializeToString(deterministic=True)
            if canonical != p:
                try:
                    parse_one(canonical)
                    rejected.append(i)
                    continue
                except Exception:  # noqa: BLE001
                    pass
            return "record %d: %s" % (i, tf_message(e)), rejected
    if good:
        try:
            batch(good)
        except Exception as e:  # noqa: BLE001
            return "batch: %s" % tf_message(e), rejected
    # The parse() helper the snippet defines works too.
    for p in good[:3]:
        ns["parse"](tf.constant(p))
    return None, rejected


# ---------------------------------------------------------------------------
# Python protobuf: the statistics, computed independently
# ---------------------------------------------------------------------------

KIND_NAMES = {"int64_list": "int64", "float_list": "float", "bytes_list": "bytes"}


def f32_json(x):
    """A float32 as tfr writes it in JSON: its shortest repr, inf as strings."""
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return float(str(np.float32(x)))


class Agg:
    def __init__(self):
        self.kinds = []  # in order first seen
        self.present = 0
        self.no_kind = 0
        self.values = []  # per occurrence
        self.steps = []
        self.ints = []
        self.floats = []
        self.bytes = []

    def add_feature(self, f):
        k = f.WhichOneof("kind")
        if k is None:
            self.no_kind += 1
            self.values.append(0)
            return
        kind = KIND_NAMES[k]
        if kind not in self.kinds:
            self.kinds.append(kind)
        vals = list(getattr(f, k).value)
        self.values.append(len(vals))
        {"int64": self.ints, "float": self.floats, "bytes": self.bytes}[kind].extend(vals)

    def to_json(self, records, lists):
        kind = "none" if not self.kinds else self.kinds[0] if len(self.kinds) == 1 else "conflict"
        out = {
            "kind": kind,
            "kinds": self.kinds,
            "present": self.present,
            "missing": records - self.present,
            "no_kind": self.no_kind,
            "values": counts(self.values),
        }
        if lists:
            out["steps"] = counts(self.steps)
        if self.ints:
            out["int64"] = {"count": len(self.ints), "min": min(self.ints), "max": max(self.ints)}
        if self.floats:
            real = [x for x in self.floats if not math.isnan(x)]
            out["float"] = {
                "count": len(self.floats),
                "min": f32_json(min(real)) if real else None,
                "max": f32_json(max(real)) if real else None,
                "nan": len(self.floats) - len(real),
                "inf": sum(1 for x in real if x == math.inf),
                "-inf": sum(1 for x in real if x == -math.inf),
            }
        if self.bytes:
            utf8 = 0
            for b in self.bytes:
                try:
                    b.decode("utf-8")
                    utf8 += 1
                except UnicodeDecodeError:
                    pass
            out["bytes"] = {
                "count": len(self.bytes),
                "utf8": round(utf8 / len(self.bytes), 4),
                "empty": sum(1 for b in self.bytes if not b),
                "shortest": min(len(b) for b in self.bytes),
                "longest": max(len(b) for b in self.bytes),
            }
        return out


def counts(xs):
    if not xs:
        return None
    return {"min": min(xs), "max": max(xs), "fixed": min(xs) == max(xs)}


def stats(payloads, sequence):
    """Per-feature statistics of the payloads, as `tfr schema --json` keys."""
    feats, lists = {}, {}
    for p in payloads:
        if sequence:
            m = tf.train.SequenceExample.FromString(p)
            ctx, fl = m.context.feature, m.feature_lists.feature_list
        else:
            m = tf.train.Example.FromString(p)
            ctx, fl = m.features.feature, {}
        for name, f in ctx.items():  # a protobuf map: a repeated key keeps its last value
            a = feats.setdefault(name, Agg())
            a.present += 1
            a.add_feature(f)
        for name, l in fl.items():
            a = lists.setdefault(name, Agg())
            a.present += 1
            a.steps.append(len(l.feature))
            for f in l.feature:
                a.add_feature(f)
    n = len(payloads)
    doc = {"type": "sequence" if sequence else "example", "records": n}
    if sequence:
        doc["context"] = {k: v.to_json(n, False) for k, v in sorted(feats.items())}
        doc["feature_lists"] = {k: v.to_json(n, True) for k, v in sorted(lists.items())}
    else:
        doc["features"] = {k: v.to_json(n, False) for k, v in sorted(feats.items())}
    return doc


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def payloads_of(fixture):
    with open(os.path.join(DATA, fixture["expected"])) as fh:
        exp = json.load(fh)
    return [base64.b64decode(p) for p in exp["payloads_b64"]], exp


def check_fixtures(tfr):
    with open(os.path.join(DATA, "manifest.json")) as fh:
        manifest = json.load(fh)
    os.makedirs(OUT, exist_ok=True)
    failures, written = [], set()
    for f in manifest["fixtures"]:
        if f["payload"] not in ("example", "sequence") or not f["expected"]:
            continue
        sequence = f["payload"] == "sequence"
        path = os.path.join(DATA, f["file"])
        payloads, exp = payloads_of(f)
        code, snippet, err = run_tfr(tfr, ["--format", "tf", path])
        code_json, out_json, _ = run_tfr(tfr, ["--json", path])
        scanned = json.loads(out_json)["records"] if out_json else 0
        if code != code_json:
            failures.append(f["name"])
            print("%-22s FAIL     exit %d with --format tf, %d with --json" % (f["name"], code, code_json))
            continue
        if f["damage"] is None and code != 0:
            # Only acceptable where Python protobuf refuses that record too
            # (bad_utf8_key: a map key that is not UTF-8).
            texts = exp.get("text") or []
            if not (scanned < len(texts) and texts[scanned] is None):
                failures.append(f["name"])
                print("%-22s FAIL     exit %d on an intact fixture: %s" % (f["name"], code, err.strip()))
                continue
            print("%-22s ok       tfr stops at record %d, which Python protobuf refuses too: %s"
                  % (f["name"], scanned, err.strip()))
        if scanned > len(payloads):
            failures.append(f["name"])
            print("%-22s FAIL     tfr scanned %d records, TensorFlow read %d" % (f["name"], scanned, len(payloads)))
            continue
        if not snippet:
            continue
        problem, rejected = check_snippet(snippet, payloads[:scanned], sequence)
        if problem:
            failures.append(f["name"])
            print("%-22s FAIL     %s" % (f["name"], problem))
            continue
        what = "intact" if f["damage"] is None else "first %d records (damage: %s)" % (scanned, f["damage"]["kind"])
        if code != 0 and f["damage"] is None:
            what = "the records before the refused one"
        print("%-22s ok       %d records parse in TensorFlow (%s)" % (f["name"], scanned - len(rejected), what))
        if rejected:
            print("%-22s          non-canonical records %s: TensorFlow's parser reads them otherwise than"
                  " protobuf; re-encoded canonically they parse" % ("", ", ".join(map(str, rejected))))
        # Expected statistics: once per distinct record set, intact fixtures only.
        name = os.path.splitext(os.path.basename(f["expected"]))[0]
        if f["damage"] is None and code == 0 and name not in written:
            written.add(name)
            with open(os.path.join(OUT, name + ".json"), "w") as fh:
                json.dump(stats(payloads, sequence), fh, indent=1, sort_keys=True, ensure_ascii=True)
                fh.write("\n")
    return failures


def check_conflicting_shards(tfr):
    """Three shards; the middle one has `label` as float: tfr names it and leaves it out."""
    failures = []
    with tempfile.TemporaryDirectory() as d:
        def example(label, x):
            return tf.train.Example(features=tf.train.Features(feature={
                "label": label,
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[x, x])),
            })).SerializeToString()
        i64 = lambda v: tf.train.Feature(int64_list=tf.train.Int64List(value=[v]))  # noqa: E731
        f32 = lambda v: tf.train.Feature(float_list=tf.train.FloatList(value=[v]))  # noqa: E731
        shards = [[example(i64(1), 0.5), example(i64(2), 1.5)],
                  [example(f32(0.5), 2.5)],
                  [example(i64(3), 3.5)]]
        payloads = []
        for i, recs in enumerate(shards):
            with tf.io.TFRecordWriter(os.path.join(d, "train-%05d-of-00003" % i)) as w:
                for r in recs:
                    w.write(r)
            payloads.extend(recs)
        pattern = os.path.join(d, "train-*")
        code, snippet, err = run_tfr(tfr, ["--format", "tf", pattern])
        if code != 0 or "LEFT OUT" not in snippet or "train-00001-of-00003 record 0" not in snippet:
            failures.append("conflicting_shards")
            print("conflicting_shards     FAIL     exit %d, snippet:\n%s%s" % (code, snippet, err))
            return failures
        problem, rejected = check_snippet(snippet, payloads, False)
        if problem or rejected:
            failures.append("conflicting_shards")
            print("conflicting_shards     FAIL     %s" % problem)
        else:
            print("conflicting_shards     ok       label left out (named the shard), the rest parses")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.path.join(ROOT, "target", "release", "tfr")
    if not os.path.exists(default):
        default = os.path.join(ROOT, "target", "debug", "tfr")
    ap.add_argument("--tfr", default=default, help="the tfr binary (default: target/release or target/debug)")
    args = ap.parse_args()
    print("tfr: %s; TensorFlow %s" % (args.tfr, tf.__version__))
    failures = check_fixtures(args.tfr) + check_conflicting_shards(args.tfr)
    if failures:
        print("FAILED: %s" % ", ".join(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

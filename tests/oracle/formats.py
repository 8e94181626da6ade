#!/usr/bin/env python3
"""The webdataset library, Python's csv module and TensorFlow read what
`tfr to-wds`, `tfr to-csv` and `tfr extract` write; `tfr from-wds` reads
what webdataset's TarWriter writes.

Run from the repository root, with a built tfr and a Python that has
TensorFlow 2.21 and webdataset (`.ci/run` installs both):

    target/venv-tf/bin/python tests/oracle/formats.py [--tfr target/debug/tfr]

Checks (exit 1 on any mismatch):
- to-wds of tests/data/images.tfrecord and gallery.tfrecord, read by
  `webdataset.WebDataset(urls, shardshuffle=False)`: one sample per record,
  in order, each JPEG as "jpg" and PNG as "png" holding the record's bytes,
  "cls" its label, "json" the other features (values equal to the
  record's; bare exactly for the features holding one value in every
  record, a list otherwise); the gallery's images decode
  with tf.io.decode_image (images.tfrecord's are not whole images).
- from-wds of those shards: tf.data reads records equal (as messages) to
  the source's.
- A shard written by webdataset.TarWriter (jpg, cls, txt, json members)
  through from-wds: Examples that tf.io.parse_single_example reads with
  the spec `tfr schema -f tf` prints, with the member's values.
- to-csv of Examples written by TensorFlow with commas, quotes, line
  breaks, non-ASCII text, negative int64 and float32 values: csv.reader
  gives back each value (floats to the same float32).
- extract: every file holds the value's bytes and decodes with
  tf.io.decode_image.
"""

import argparse
import base64
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import webdataset as wds  # noqa: E402

FAILED = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILED.append(what)


def run(tfr, *args, stdin=None):
    out = subprocess.run([tfr, *args], input=stdin, capture_output=True)
    if out.returncode != 0:
        raise SystemExit(f"tfr {' '.join(args)} failed: {out.stderr.decode()}")
    return out.stdout


def records(path):
    return [tf.train.Example.FromString(r.numpy()) for r in tf.data.TFRecordDataset([path])]


def feature(ex, name):
    f = ex.features.feature[name]
    kind = f.WhichOneof("kind")
    return list(getattr(f, kind).value) if kind else None


def plain(values):
    """A feature's values comparable with json_values: floats as float32."""
    return [np.float32(v) if isinstance(v, float) else v for v in values or []]


def json_values(v):
    """The values a .json entry holds, by the JSONL mapping (a bare value
    is a one-value list; text is UTF-8 bytes; floats are float32)."""
    if isinstance(v, dict) and len(v) == 1 and next(iter(v)).endswith("_list"):
        v = next(iter(v.values()))
    out = []
    for x in v if isinstance(v, list) else [v]:
        if isinstance(x, dict):
            x = base64.b64decode(x["base64"])
        elif isinstance(x, str):
            x = x.encode()
        elif isinstance(x, float):
            x = np.float32(x)
        out.append(x)
    return out


def check_webdataset(tfr, tmp, name, image, label, decode):
    src = os.path.join("tests/data", name)
    out = os.path.join(tmp, name.replace(".tfrecord", ""))
    run(tfr, "to-wds", src, "-o", os.path.join(out, "shard.tar"), "--shard-records", "5")
    shards = sorted(os.path.join(out, f) for f in os.listdir(out))
    samples = list(wds.WebDataset(shards, shardshuffle=False))
    exs = records(src)
    check(len(samples) == len(exs), f"{name}: webdataset reads {len(samples)} samples of {len(exs)}")
    names = {k for ex in exs for k in ex.features.feature}
    always_one = {k for k in names
                  if all(len(feature(ex, k) or []) == 1 for ex in exs if k in ex.features.feature)}
    good = True
    for i, (s, ex) in enumerate(zip(samples, exs)):
        value = feature(ex, image)[0]
        ext = "jpg" if value[:3] == b"\xff\xd8\xff" else "png"
        good &= s.get(ext) == value and s["__key__"] == f"{i:09d}"
        good &= int(s["cls"]) == feature(ex, label)[0]
        meta = json.loads(s["json"])
        good &= image not in meta and label not in meta
        for key, got in meta.items():
            # Bare exactly where the feature holds one value in every record.
            good &= isinstance(got, list) != (key in always_one)
            good &= json_values(got) == plain(feature(ex, key))
        if decode:
            good &= tf.io.decode_image(s[ext]).shape[2] in (1, 3, 4)
    decoded = " (decoded by tf.io.decode_image)" if decode else ""
    check(good, f"{name}: each image as .jpg/.png with the record's bytes{decoded}, .cls the label, .json the rest (one-value features bare)")
    back = os.path.join(tmp, name + ".back")
    run(tfr, "from-wds", *shards, "-o", back)
    check(records(back) == exs, f"{name}: from-wds gives back records equal to the source's")


def check_foreign_shard(tfr, tmp):
    path = os.path.join(tmp, "foreign.tar")
    jpeg = tf.io.encode_jpeg(tf.zeros([4, 6, 3], tf.uint8)).numpy()
    with wds.TarWriter(path) as w:
        for i in range(3):
            w.write({"__key__": f"s{i}", "jpg": jpeg, "cls": i, "txt": f"caption {i}",
                     "json": {"score": 0.5 + i, "tags": ["a", "b"]}})
    out = os.path.join(tmp, "foreign.tfrecord")
    run(tfr, "from-wds", path, "-o", out, "--key", "key")
    spec_src = run(tfr, "schema", "-f", "tf", out).decode()
    scope = {"tf": tf}
    exec(spec_src, scope)
    spec = scope["feature_description"]
    good = True
    for i, r in enumerate(tf.data.TFRecordDataset([out])):
        p = tf.io.parse_single_example(r, spec)
        value = lambda k: p[k].values.numpy() if isinstance(p[k], tf.SparseTensor) else p[k].numpy()
        good &= list(np.ravel(value("jpg"))) == [jpeg]
        good &= list(np.ravel(value("cls"))) == [i]
        good &= list(np.ravel(value("txt"))) == [f"caption {i}".encode()]
        good &= list(np.ravel(value("score"))) == [0.5 + i]
        good &= list(np.ravel(value("tags"))) == [b"a", b"b"]
        good &= list(np.ravel(value("key"))) == [f"s{i}".encode()]
    check(good and i == 2, "a webdataset.TarWriter shard: from-wds Examples parse with tfr schema -f tf's spec")


def check_csv(tfr, tmp):
    path = os.path.join(tmp, "csv.tfrecord")
    texts = ["plain", "comma, here", 'quote "q"', "line\nbreak\r\nx", "naïve ✓ 日本", ""]
    with tf.io.TFRecordWriter(path) as w:
        for i, t in enumerate(texts):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[-(2**63) + i])),
                "text": tf.train.Feature(bytes_list=tf.train.BytesList(value=[t.encode()])),
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[0.1 * i - 1e-8])),
            }))
            w.write(ex.SerializeToString())
    out = run(tfr, "to-csv", path).decode()
    rows = list(csv.reader(io.StringIO(out, newline="")))
    check(rows[0] == ["id", "text", "x"], f"csv header {rows[0]}")
    good = len(rows) == len(texts) + 1
    for i, (row, t) in enumerate(zip(rows[1:], texts)):
        good &= int(row[0]) == -(2**63) + i and row[1] == t
        good &= np.float32(float(row[2])) == np.float32(0.1 * i - 1e-8)
    check(good, "csv.reader reads to-csv's cells back: quotes, commas, line breaks, non-ASCII, int64, float32")


def check_extract(tfr, tmp):
    src = "tests/data/gallery.tfrecord"
    out = os.path.join(tmp, "imgs")
    run(tfr, "extract", src, "--feature", "image/encoded", "-o", out, "--name", "{record:03}")
    exs = records(src)
    good = len(os.listdir(out)) == len(exs)
    for i, ex in enumerate(exs):
        value = feature(ex, "image/encoded")[0]
        ext = "jpg" if value[:3] == b"\xff\xd8\xff" else "png"
        with open(os.path.join(out, f"{i:03d}.{ext}"), "rb") as f:
            data = f.read()
        good &= data == value
        good &= tf.io.decode_image(data).shape[2] in (1, 3, 4)
    check(good, "extract: every image file holds the record's bytes and decodes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfr", default="target/debug/tfr")
    tfr = ap.parse_args().tfr
    with tempfile.TemporaryDirectory(prefix="tfr-oracle-") as tmp:
        check_webdataset(tfr, tmp, "images.tfrecord", "image/encoded", "label", False)
        check_webdataset(tfr, tmp, "gallery.tfrecord", "image/encoded", "image/class/label", True)
        check_foreign_shard(tfr, tmp)
        check_csv(tfr, tmp)
        check_extract(tfr, tmp)
        if FAILED:
            print(f"{len(FAILED)} check(s) failed")
            sys.exit(1)
        print("all checks passed")


if __name__ == "__main__":
    main()

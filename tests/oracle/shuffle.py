#!/usr/bin/env python3
"""TensorFlow reads what `tfr shuffle` writes.

Run from the repository root, with a built tfr:

    .venv-tf/bin/python tests/oracle/shuffle.py [--tfr target/release/tfr]

Checks (exit 1 on any mismatch): a dataset written by TensorFlow
(tf.io.TFRecordWriter, GZIP, 20,000 tf.train.Examples of varied sizes, some
over 64 KiB) shuffled by tfr, in memory and spilled (--memory 16M), into
one plain file, one SNAPPY file and 4 gzip shards, is read back by
tf.data.TFRecordDataset as the same payloads, byte for byte, in a new
order; tf.io.parse_example parses them; the spilled and in-memory outputs
are the same; every temporary file is gone.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

FAILED = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILED.append(what)


def tf_read(paths, compression):
    # In batches: a Python step per record cost more than TF's reading.
    ds = tf.data.TFRecordDataset(paths, compression_type=compression)
    return [r for batch in ds.batch(4096) for r in batch.numpy()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfr", default="target/release/tfr")
    tfr = ap.parse_args().tfr
    rng = random.Random(5)
    with tempfile.TemporaryDirectory(prefix="tfr-oracle-") as tmp:
        src = os.path.join(tmp, "in.tfrecord.gz")
        payloads = []
        with tf.io.TFRecordWriter(src, options="GZIP") as w:
            for i in range(20000):
                size = 100000 if i % 1000 == 0 else rng.randrange(0, 1500)
                ex = tf.train.Example(features=tf.train.Features(feature={
                    "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
                    "blob": tf.train.Feature(bytes_list=tf.train.BytesList(value=[os.urandom(size)])),
                }))
                b = ex.SerializeToString()
                payloads.append(b)
                w.write(b)
        spill_dir = os.path.join(tmp, "spill")
        os.mkdir(spill_dir)
        outs = {}
        for name, extra in [("mem.tfrecord", []), ("spill.tfrecord", ["--memory", "16M"]),
                            ("out.snappy", []), ("shards/train.tfrecord.gz", ["--shards", "4"])]:
            os.makedirs(os.path.dirname(os.path.join(tmp, name)), exist_ok=True)
            outs[name] = os.path.join(tmp, name)
            subprocess.run([tfr, "shuffle", src, "-o", outs[name], "--seed", "17", "--temp-dir", spill_dir]
                           + extra, check=True)
        mem = tf_read([outs["mem.tfrecord"]], "")
        check(sorted(mem) == sorted(payloads), "TF reads the shuffled file: the %d payloads, byte for byte" % len(mem))
        check(mem != payloads, "in another order")
        check(tf_read([outs["spill.tfrecord"]], "") == mem, "spilled beyond --memory 16M: the same order")
        check(tf_read([outs["out.snappy"]], "SNAPPY") == mem, "SNAPPY output (from the name): the same order")
        shards = sorted(os.listdir(os.path.join(tmp, "shards")))
        check(shards == ["train-%05d-of-00004.tfrecord.gz" % k for k in range(4)], "shard names %s" % shards)
        back = tf_read([os.path.join(tmp, "shards", s) for s in shards], "GZIP")
        check(back == mem, "the 4 gzip shards, read in order: the same order")
        parsed = tf.io.parse_example(mem[:1000], {"id": tf.io.FixedLenFeature([], tf.int64)})
        ids = parsed["id"].numpy().tolist()
        check(len(set(ids)) == 1000, "tf.io.parse_example parses the shuffled records")
        check(os.listdir(spill_dir) == [], "no temporary file left")
        print("all checks passed" if not FAILED else "%d FAILED" % len(FAILED))
        sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()

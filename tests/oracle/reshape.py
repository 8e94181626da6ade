#!/usr/bin/env python3
"""TensorFlow reads what `tfr reshard` and `tfr split` write.

Run from the repository root, with a built tfr:

    .venv-tf/bin/python tests/oracle/reshape.py [--tfr target/debug/tfr]

Checks (exit 1 on any mismatch):
1. A source written by TensorFlow (tf.io.TFRecordWriter, 3 plain files and
   1 gzip file, tf.train.Examples of varied sizes) resharded into 8 gzip
   shards (`-o out/train.tfrecord.gz --shards 8`): TensorFlow reads the
   shards, in name order, with compression_type="GZIP" and gets the
   source's records in order, byte for byte; shard sizes differ by at most
   one record; names are Beam's (train-0000K-of-00008.tfrecord.gz).
2. The same with --shard-size 64K into zlib shards (.zz): every file is at
   most 65536 bytes, TensorFlow reads them (compression_type="ZLIB") back
   as the source.
3. `tfr split --ratio train=8,eval=2 --by user` into gzip files: TensorFlow
   reads both; together they are the source's records (each split in
   source order), and no user is in both; tf.io.parse_example parses them.
"""

import argparse
import glob
import os
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


def example(i):
    feats = {
        "user": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"user%d" % (i % 37)])),
        "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
        "blob": tf.train.Feature(bytes_list=tf.train.BytesList(value=[os.urandom(i % 300)])),
    }
    return tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()


def read(paths, compression):
    # In batches: a Python step per record cost more than TF's reading.
    ds = tf.data.TFRecordDataset(paths, compression_type=compression)
    return [r for batch in ds.batch(4096) for r in batch.numpy()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfr", default="target/debug/tfr")
    args = ap.parse_args()
    tfr = os.path.abspath(args.tfr)
    with tempfile.TemporaryDirectory() as d:
        records = [example(i) for i in range(5000)]
        sources = []
        for part in range(4):
            gz = part == 3
            path = os.path.join(d, "src-%d.tfrecord%s" % (part, ".gz" if gz else ""))
            opts = tf.io.TFRecordOptions(compression_type="GZIP" if gz else "")
            with tf.io.TFRecordWriter(path, opts) as w:
                for r in records[part * 1250:(part + 1) * 1250]:
                    w.write(r)
            sources.append(path)

        # 1. --shards 8, gzip.
        os.mkdir(os.path.join(d, "out"))
        subprocess.run([tfr, "reshard", *sources, "-o", os.path.join(d, "out/train.tfrecord.gz"),
                        "--shards", "8"], check=True)
        shards = sorted(glob.glob(os.path.join(d, "out/*")))
        names = [os.path.basename(p) for p in shards]
        check(names == ["train-%05d-of-00008.tfrecord.gz" % k for k in range(8)], "Beam shard names: %s" % names[:2])
        check(read(shards, "GZIP") == records, "TensorFlow reads the gzip shards back in order, byte for byte")
        sizes = [len(read([p], "GZIP")) for p in shards]
        check(max(sizes) - min(sizes) <= 1, "balanced by records: %s" % sizes)

        # 2. --shard-size 64K, zlib.
        os.mkdir(os.path.join(d, "sized"))
        subprocess.run([tfr, "reshard", *sources, "-o", os.path.join(d, "sized/t.tfrecord.zz"),
                        "--shard-size", "64K"], check=True)
        sized = sorted(glob.glob(os.path.join(d, "sized/*")))
        check(len(sized) > 2 and all(os.path.getsize(p) <= 65536 for p in sized),
              "%d zlib shards, each at most 64 KiB" % len(sized))
        check(read(sized, "ZLIB") == records, "TensorFlow reads the zlib shards back in order")

        # 3. split --by user.
        subprocess.run([tfr, "split", *sources, "--ratio", "train=8,eval=2", "--by", "user",
                        "-o", os.path.join(d, "{split}.tfrecord.gz")], check=True, stdout=subprocess.DEVNULL)
        train = read([os.path.join(d, "train.tfrecord.gz")], "GZIP")
        evals = read([os.path.join(d, "eval.tfrecord.gz")], "GZIP")
        check(sorted(train + evals) == sorted(records), "the splits hold every record once")
        order = {r: i for i, r in enumerate(records)}
        check(all(order[a] < order[b] for s in (train, evals) for a, b in zip(s, s[1:])),
              "each split in source order")
        spec = {"user": tf.io.FixedLenFeature([], tf.string)}
        users = [set(tf.io.parse_example(s, spec)["user"].numpy()) for s in (train, evals)]
        check(not (users[0] & users[1]) and users[1], "no user in both splits (%d in eval)" % len(users[1]))

    if FAILED:
        print("%d check(s) failed" % len(FAILED))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()

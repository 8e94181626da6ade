#!/usr/bin/env python3
"""The Python reader rows of the bench (issue 48): tfr_cli.TFRecordDataset
beside the ways Python reads TFRecords today. Each mode prints one JSON
line {"records": N, "seconds": S} (S: the reading loop alone, after an
untimed warm-up of 100 records; imports and the interpreter's start left
out), and a note where it has one.

    PY bench/reader_peer.py MODE --tfr TFR [--limit N] FILE...

MODE:
  tfr-auto      tfr_cli.TFRecordDataset(files, spec="auto"), iterated: every
                record decoded to numpy by tfr schema's spec (reader venv)
  tfr-stored    the same with spec=None (each feature as stored)
  tfr-random    ds[i] for 10,000 random i (seeded; spec="auto"): the time
                per access in the note
  tfrecord      the `tfrecord` package's torch TFRecordDataset with a
                description (int/float/byte) from tfr schema's spec, one
                file after another (reader venv: it needs torch)
  tf-single     tf.data.TFRecordDataset(files).map(parse_single_example)
                with tfr schema's spec, numpy out (TensorFlow venv)
  tf-batched    .batch(256).map(parse_example), numpy out (TensorFlow venv)

The TensorFlow rows run on one core (tf.data's private thread pool of 1,
intra- and inter-op parallelism 1, sequential map): per core, as Python
readers are used one per DataLoader worker. --limit N: the first N
records only (the bench scales a slice of a large file).
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import time

WARMUP = 100
RANDOM_ACCESSES = 10_000


def tfr_spec_text(tfr: str, files: list) -> str:
    return subprocess.run([tfr, "schema", "--format", "tf", *files], check=True, capture_output=True, text=True).stdout


def spec_kinds(text: str) -> dict:
    """name -> dtype ("int64" | "float32" | "string") of tfr schema's
    spec, without TensorFlow (for the tfrecord package's description)."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('"') and "tf." in line:
            name = line.split('"')[1]
            for dt in ("int64", "float32", "string"):
                if f"tf.{dt}" in line:
                    out[name] = dt
    return out


def finish(n: int, seconds: float, note: str = ""):
    doc = {"records": n, "seconds": seconds}
    if note:
        doc["note"] = note
    print(json.dumps(doc))


def reader(files, spec):
    try:
        import tfr_cli

        return tfr_cli.TFRecordDataset(files, spec=spec)
    except (ImportError, AttributeError) as e:
        sys.stderr.write(f"tfr_cli.TFRecordDataset is not available in {sys.executable}: {e}\n")
        sys.exit(2)


def run_tfr(files, spec, limit):
    ds = reader(files, spec)
    for _ in itertools.islice(ds, WARMUP):
        pass
    # Opening (the index: .idx files or a walk of the headers; spec="auto":
    # a schema scan of every record) is timed apart, as the peers' spec
    # is made before their timer starts.
    t = time.perf_counter()
    ds = reader(files, spec)
    opened = time.perf_counter() - t
    t = time.perf_counter()
    n = 0
    for _ in itertools.islice(ds, limit or None):
        n += 1
    finish(n, time.perf_counter() - t, f"opening (index{', spec inference' if spec == 'auto' else ''}) {opened:.3f} s, not counted")


def run_tfr_random(files):
    import random

    ds = reader(files, "auto")
    total = len(ds)
    picks = [random.Random(48).randrange(total) for _ in range(RANDOM_ACCESSES)]
    for i in picks[:WARMUP]:
        ds[i]
    t = time.perf_counter()
    for i in picks:
        ds[i]
    s = time.perf_counter() - t
    finish(len(picks), s, f"{s / len(picks) * 1e6:.1f} µs per ds[i] (10,000 random i of {total:,})")


def run_tfrecord(files, text, limit):
    from tfrecord.torch.dataset import TFRecordDataset

    kinds = {"int64": "int", "float32": "float", "string": "byte"}
    description = {k: kinds[v] for k, v in spec_kinds(text).items()}

    def records():
        for f in files:
            yield from TFRecordDataset(f, None, description)

    for _ in itertools.islice(records(), WARMUP):
        pass
    t = time.perf_counter()
    n = 0
    for _ in itertools.islice(records(), limit or None):
        n += 1
    finish(n, time.perf_counter() - t)


def run_tf(files, text, limit, batched):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    scope: dict = {}
    exec(compile(text, "tfr-schema-spec.py", "exec"), scope)
    spec = scope["feature_description"]
    options = tf.data.Options()
    options.threading.private_threadpool_size = 1
    options.threading.max_intra_op_parallelism = 1
    options.autotune.enabled = False

    def dataset(n):
        ds = tf.data.TFRecordDataset(files)
        if n:
            ds = ds.take(n)
        if batched:
            ds = ds.batch(256).map(lambda s: tf.io.parse_example(s, spec))
        else:
            ds = ds.map(lambda s: tf.io.parse_single_example(s, spec))
        return ds.with_options(options)

    for _ in dataset(WARMUP).as_numpy_iterator():
        pass
    t = time.perf_counter()
    n = 0
    for x in dataset(limit).as_numpy_iterator():
        n += len(next(iter(x.values()))) if batched else 1
    finish(n, time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["tfr-auto", "tfr-stored", "tfr-random", "tfrecord", "tf-single", "tf-batched"])
    ap.add_argument("--tfr", required=True, help="the tfr binary (its schema --format tf is the spec)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.mode == "tfr-auto":
        run_tfr(a.files, "auto", a.limit)
    elif a.mode == "tfr-stored":
        run_tfr(a.files, None, a.limit)
    elif a.mode == "tfr-random":
        run_tfr_random(a.files)
    elif a.mode == "tfrecord":
        run_tfrecord(a.files, tfr_spec_text(a.tfr, a.files), a.limit)
    else:
        run_tf(a.files, tfr_spec_text(a.tfr, a.files), a.limit, a.mode == "tf-batched")


if __name__ == "__main__":
    main()

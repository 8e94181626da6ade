#!/usr/bin/env python3
"""TensorFlow Datasets and `tfr --split` pick the same records of a TFDS
version folder, in the same order, and `tfr info --json` states the split
sizes TFDS reads from dataset_info.json.

Run from anywhere, with a built tfr and a Python that has TensorFlow 2.21
and tensorflow-datasets 4.9.10 (`.ci/run` installs both):

    target/venv-tf/bin/python tests/oracle/tfds_split.py [--tfr target/debug/tfr]

Checks (exit 1 on any mismatch), on tests/data/tfds/tfr_toy/1.0.0 (written
by TFDS itself: tests/oracle/tfds_make.py):
- for each split spec in SPECS (whole splits, percent and index slices,
  negative bounds, a `+` of two slices): the (meta/id, label) of every
  record `tfds.as_numpy(builder.as_dataset(split=SPEC,
  shuffle_files=False))` yields equal, in order, those of the lines
  `tfr to-jsonl DIR --split SPEC --features meta/id,label` prints;
- `tfr info --json DIR`: each split's records and shard_records equal
  builder.info.splits[NAME].num_examples and .shard_lengths, and the
  splits are the ones TFDS knows.

The builder is tfds.builder("tfr_toy", data_dir=tests/data/tfds): read back
from dataset_info.json and features.json alone.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# This folder holds oracle scripts (snappy.py, shuffle.py, ...) that could
# shadow modules TFDS or its dependencies import.
HERE = Path(__file__).resolve().parent
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import tensorflow_datasets as tfds  # noqa: E402

DATA_DIR = HERE.parent / "data" / "tfds"
NAME = "tfr_toy"
FOLDER = DATA_DIR / NAME / "1.0.0"

SPECS = [
    "train",
    "test",
    "train[:10%]",
    "train[10%:35%]",
    "train[-7:]",
    "train[5:20]+test[-2:]",
    "test[:50%]",
    "train[:33%]",
    "train[33%:67%]",
    "train[10:50%]",
    "train[10%:20]",
    "all",
]

FAILED = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILED.append(what)


def run(tfr, *args):
    out = subprocess.run([tfr, *args], capture_output=True)
    if out.returncode != 0:
        raise SystemExit(f"tfr {' '.join(args)} failed: {out.stderr.decode()}")
    return out.stdout


def tfds_keys(builder, spec):
    ds = builder.as_dataset(split=spec, shuffle_files=False)
    return [(int(r["meta"]["id"]), int(r["label"])) for r in tfds.as_numpy(ds)]


def tfr_keys(tfr, spec):
    out = run(tfr, "to-jsonl", str(FOLDER), "--split", spec, "--features", "meta/id,label")
    keys = []
    for line in out.decode().splitlines():
        rec = json.loads(line)
        keys.append((rec["meta/id"][0], rec["label"][0]))
    return keys


def check_specs(tfr, builder):
    for spec in SPECS:
        want = tfds_keys(builder, spec)
        got = tfr_keys(tfr, spec)
        what = f"--split {spec}: {len(got)} records, TFDS {len(want)}"
        if got != want:
            first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            what += f"; first difference at record {first}"
        check(got == want, what)


def check_info(tfr, builder):
    info = json.loads(run(tfr, "info", "--json", str(FOLDER)))
    splits = {s["name"]: s for s in info["splits"]}
    check(
        sorted(splits) == sorted(builder.info.splits.keys()),
        f"info --json: splits {sorted(splits)}, TFDS {sorted(builder.info.splits.keys())}",
    )
    for name, tfds_split in builder.info.splits.items():
        mine = splits.get(name, {})
        want = (tfds_split.num_examples, list(tfds_split.shard_lengths))
        got = (mine.get("records"), mine.get("shard_records"))
        check(got == want, f"info --json: split {name}: records, shard_records {got}, TFDS {want}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfr", default="target/debug/tfr")
    tfr = ap.parse_args().tfr
    builder = tfds.builder(NAME, data_dir=str(DATA_DIR))
    check_specs(tfr, builder)
    check_info(tfr, builder)
    if FAILED:
        print(f"{len(FAILED)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Hugging Face `datasets` opens what `tfr to-parquet` writes of a TFDS
folder, with the dataset's features, and the values are TensorFlow
Datasets' own.

    target/venv-hf/bin/python tests/oracle/tfds_hf.py --dump DUMP.jsonl --parquet FILE [FILE ...] [--explode steps] [--names a,b,c --label label] [--keep a,b/c]

DUMP is what tests/oracle/tfds_dump.py printed for the split (TFDS's
tfds.as_numpy values, one JSON line per record, in order). Checks (exit 1
on any mismatch): `datasets.load_dataset("parquet", data_files=FILE)`
reads one row per record (with --explode, one per step of the dataset's
`steps`, with episode_index and step_index), every TFDS feature is a
column (nested features named a/b, as they are stored), ClassLabel columns
carry the class names (--names), Image columns are `Image()` and decode
(PIL) to the pixels TFDS decodes, and every other value equals TFDS's
(tensors with their shape, float32 exactly).

Several FILEs (the files --shards/--rows-per-file wrote) are read as one
dataset, in the order given. --keep COLUMNS: the columns written are
exactly these (comma-separated stored names; with --explode,
episode_index and step_index besides), each with TFDS's values; without
it, every TFDS feature is a column and at least one is an Image.
"""
import argparse
import json
import sys

import numpy as np
import datasets

failed = False


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    failed |= not ok


def flat(d, prefix=""):
    """A TFDS value tree as stored column names: nested dicts joined with /."""
    out = {}
    for k, v in d.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flat(v, name + "/"))
        else:
            out[name] = v
    return out


def same(got, want):
    """Whether a datasets value equals a TFDS one (images as pixels)."""
    if hasattr(got, "convert"):  # a PIL image
        return np.array(got).tolist() == want
    if isinstance(got, list) and got and hasattr(got[0], "convert"):
        return [np.array(g).tolist() for g in got] == want
    if isinstance(want, float) or (isinstance(want, list) and want and isinstance(np.array(want).flat[0].item(), float)):
        return np.array_equal(np.array(got, dtype=np.float32), np.array(want, dtype=np.float32))
    return got == want


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True)
    ap.add_argument("--parquet", required=True, nargs="+")
    ap.add_argument("--explode")
    ap.add_argument("--names")
    ap.add_argument("--label", default="label")
    ap.add_argument("--keep")
    a = ap.parse_args()
    records = [json.loads(line) for line in open(a.dump, encoding="utf-8")]
    ds = datasets.load_dataset("parquet", data_files=a.parquet, split="train")
    a.parquet = " ".join(a.parquet)
    feats = ds.features
    if a.explode:
        rows = []
        for e, rec in enumerate(records):
            episode = {k: v for k, v in rec.items() if k != a.explode}
            for s, step in enumerate(rec[a.explode]):
                row = {"episode_index": e, "step_index": s}
                row.update(flat(episode))
                row.update(flat(step))
                rows.append(row)
    else:
        rows = []
        for rec in records:
            row = flat({k: v for k, v in rec.items() if not (isinstance(v, list) and v and isinstance(v[0], dict))})
            for k, v in rec.items():
                if isinstance(v, list) and v and isinstance(v[0], dict):
                    # A nested Dataset: each step feature a list over the steps.
                    steps = [flat(s) for s in v]
                    for name in steps[0]:
                        row[f"{k}/{name}"] = [s[name] for s in steps]
            rows.append(row)
    if a.keep:
        keep = set(a.keep.split(",")) | ({"episode_index", "step_index"} if a.explode else set())
        rows = [{k: v for k, v in row.items() if k in keep} for row in rows]
        check(bool(rows) and set(rows[0]) == keep, f"the dump has every kept column ({sorted(keep)})")
    check(len(ds) == len(rows), f"{a.parquet}: datasets reads {len(ds)} rows, TFDS gives {len(rows)}")
    check(set(feats) == set(rows[0]) if rows else True,
          f"{a.parquet}: the columns are TFDS's features ({sorted(feats)})")
    if a.names:
        names = a.names.split(",")
        f = feats.get(a.label)
        check(isinstance(f, datasets.ClassLabel) and f.names == names,
              f"{a.parquet}: {a.label} is ClassLabel(names={names}) ({f})")
    images = [k for k, f in feats.items()
              if isinstance(f, datasets.Image) or (isinstance(f, datasets.List) and isinstance(f.feature, datasets.Image))]
    if not a.keep:
        check(bool(images), f"{a.parquet}: image columns are datasets.Image ({images})")
    bad = []
    for i, (got, want) in enumerate(zip(ds, rows)):
        for k, v in want.items():
            if k not in got or not same(got[k], v):
                bad.append(f"row {i} {k}: {str(got.get(k))[:80]} != {str(v)[:80]}")
    check(not bad, f"{a.parquet}: every value equals TFDS's (images decoded to the same pixels)"
          + ("" if not bad else ": " + "; ".join(bad[:3])))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

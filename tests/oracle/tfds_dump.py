#!/usr/bin/env python3
"""Prints what TensorFlow Datasets itself reads from a TFDS data dir: one
JSON line per record of SPLIT, in the order
tfds.as_numpy(builder.as_dataset(split=SPLIT, shuffle_files=False)) yields.

    /work/venv-tf/bin/python tests/oracle/tfds_dump.py DATA_DIR NAME SPLIT [--check]

The builder is tfds.builder(NAME, data_dir=DATA_DIR), i.e. read back from
dataset_info.json / features.json alone (the class that wrote it, in
tfds_make.py, is not imported). Values as as_numpy gives them, made JSON:
decoded images and tensors as nested lists (row-major), Text as UTF-8
strings, ClassLabel as its int, Scalar as a number, bool as true/false,
Sequence(Text) as a list of strings, nested FeaturesDict as an object, and a
nested tfds.features.Dataset (RLDS `steps`) as a list of step objects. Keys
are sorted; floats are float32 values printed as Python floats (exact).

--check reads the split's shards a second way: each shard file (in sorted
file-name order) with tf.data.TFRecordDataset, each record with
tf.train.Example.FromString, decoding features by hand (PNG via
tf.io.decode_png, BYTES tensors as raw little-endian, ZLIB tensors via
zlib.decompress, int64_list/float_list/bytes_list otherwise, nested
Dataset/Sequence values flattened along the first axis). It exits 1 unless
that gives the same records in the same order as TFDS; it then prints
nothing on stdout, one summary line on stderr.
"""
import json
import os
import sys
import zlib
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# This folder holds oracle scripts (snappy.py, shuffle.py, ...) that could
# shadow modules TFDS or its dependencies import.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402


def to_json(v):
    if isinstance(v, dict):
        return {k: to_json(v[k]) for k in sorted(v)}
    if isinstance(v, (bytes, np.bytes_)):
        return bytes(v).decode("utf-8")
    if isinstance(v, np.ndarray):
        if v.dtype == object:
            return [to_json(x) for x in v.tolist()]
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [to_json(x) for x in v]
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (tf.data.Dataset,)) or hasattr(v, "__iter__"):
        # A nested tfds.features.Dataset: as_numpy hands an iterable of steps.
        return [to_json(x) for x in v]
    raise TypeError(f"unexpected value {type(v)}")


def tfds_records(data_dir, name, split):
    builder = tfds.builder(name, data_dir=data_dir)
    ds = builder.as_dataset(split=split, shuffle_files=False)
    return builder, [to_json(r) for r in tfds.as_numpy(ds)]


def by_hand(builder, split):
    """The split's records decoded from the shards without TFDS's reader."""
    info = builder.info
    files = sorted(
        p for p in Path(builder.data_dir).iterdir()
        if p.name.startswith(f"{info.name}-{split}.tfrecord-"))
    assert len(files) == len(info.splits[split].shard_lengths), files
    features = info.features  # a FeaturesDict
    out = []
    for f in files:
        for raw in tf.data.TFRecordDataset(str(f)):
            ex = tf.train.Example.FromString(raw.numpy()).features.feature
            out.append(decode_dict(features, ex, "", None))
    return files, out


def values(feat):
    kind = feat.WhichOneof("kind")
    return list(getattr(feat, kind).value) if kind else []


def decode_leaf(conn, vals, n):
    """vals: the Example values of one leaf; n: None at top level, else the
    number of steps/elements the values are stacked over."""
    F = tfds.features
    count = 1 if n is None else n
    if isinstance(conn, F.Image):
        imgs = [tf.io.decode_png(v).numpy().tolist() for v in vals]
        return imgs[0] if n is None else imgs
    if isinstance(conn, F.Text):
        s = [v.decode("utf-8") for v in vals]
        return s[0] if n is None else s
    if isinstance(conn, F.ClassLabel):
        return vals[0] if n is None else list(vals)
    if isinstance(conn, F.Tensor):
        dtype = np.dtype(conn.np_dtype)
        shape = tuple(conn.shape)
        enc = conn._encoding  # pylint: disable=protected-access
        if enc == F.Encoding.NONE:
            arr = np.array(vals, dtype=dtype)
        else:
            blobs = [zlib.decompress(v) if enc == F.Encoding.ZLIB else v for v in vals]
            arr = np.frombuffer(b"".join(blobs), dtype=dtype.newbyteorder("<")).astype(dtype)
        arr = arr.reshape(((count,) if n is not None else ()) + shape)
        return arr.tolist()
    raise TypeError(f"no hand decoder for {type(conn)}")


def decode_dict(fdict, ex, prefix, n):
    F = tfds.features
    rec = {}
    for key in sorted(fdict.keys()):
        conn = fdict[key]
        path = prefix + key
        if isinstance(conn, F.Dataset):  # before Sequence: Dataset subclasses it
            inner = conn.feature
            first_leaf = next(iter(sorted(flat_keys(inner, path + "/"))))
            steps = len(values(ex[first_leaf])) // leaf_width(inner, first_leaf, path + "/")
            cols = decode_dict(inner, ex, path + "/", steps)
            rec[key] = [unstack(cols, i) for i in range(steps)]
        elif isinstance(conn, F.Sequence):
            inner = conn.feature
            assert not isinstance(inner, F.FeaturesDict)
            vals = values(ex[path]) if path in ex else []
            width = int(np.prod(inner.shape)) if isinstance(inner, F.Tensor) and inner._encoding == F.Encoding.NONE else 1  # pylint: disable=protected-access
            rec[key] = decode_leaf(inner, vals, len(vals) // width)
        elif isinstance(conn, F.FeaturesDict):
            rec[key] = decode_dict(conn, ex, path + "/", n)
        else:
            rec[key] = decode_leaf(conn, values(ex[path]), n)
    return rec


def flat_keys(fdict, prefix):
    F = tfds.features
    for k in fdict.keys():
        c = fdict[k]
        if isinstance(c, F.FeaturesDict):
            yield from flat_keys(c, prefix + k + "/")
        else:
            yield prefix + k


def leaf_width(fdict, path, prefix):
    """How many Example values one step holds for leaf `path`."""
    F = tfds.features
    conn = fdict
    for part in path[len(prefix):].split("/"):
        conn = conn[part]
    if isinstance(conn, F.Tensor) and not isinstance(conn, (F.Image, F.Text, F.ClassLabel)) \
            and conn._encoding == F.Encoding.NONE:  # pylint: disable=protected-access
        return int(np.prod(conn.shape))
    return 1


def unstack(cols, i):
    return {k: unstack(v, i) if isinstance(v, dict) else v[i] for k, v in cols.items()}


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 3:
        sys.exit(f"usage: {sys.argv[0]} DATA_DIR NAME SPLIT [--check]")
    data_dir, name, split = args
    builder, recs = tfds_records(data_dir, name, split)
    if "--check" not in sys.argv:
        for r in recs:
            print(json.dumps(r, sort_keys=True, ensure_ascii=False))
        return
    files, mine = by_hand(builder, split)
    same = mine == recs
    print(f"{name}/{split}: {len(recs)} records from TFDS, {len(mine)} from "
          f"{len(files)} shards read in sorted file order: "
          f"{'same records, same order' if same else 'DIFFERENT'}", file=sys.stderr)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()

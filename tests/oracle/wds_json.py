"""WebDataset shards with ordinary metadata in `.json` (tests/cli/wds_json.rs).

`write`: laion-000.tar .. laion-002.tar, written by webdataset's
ShardWriter (10 samples each) in img2dataset's layout: `jpg`, `txt` and a
`.json` with `null`s, empty lists, a nested `exif` object (empty in some
samples), COCO-style boxes (a list of lists) and a `similarity` that
Python writes as 1 in some samples and 0.5 in others.

`check`: TensorFlow parses x.tfrecord (what `tfr from-wds` wrote) with
the spec in spec.py (`tfr schema -f tf`); every record must equal its
sample as tfr maps it: nested keys as `a/b`, an empty list or `null` as
no values, a list of lists as its JSON text, `similarity` as float.

`check-kept`: y.tfrecord (`--keep-json`) holds each sample's `.json`
bytes unchanged in the feature `json`.
"""

import json
import sys

N, SHARDS = 10, 3


def samples():
    for i in range(N * SHARDS):
        meta = {
            "url": f"http://example.com/{i}.jpg",
            "caption": f"caption {i}",
            "key": f"{i:09d}",
            "status": "success",
            "error_message": None,
            "width": 256,
            "height": 200 + i,
            "exif": {"Image Make": "Canon", "EXIF ISOSpeedRatings": 100 + i} if i % 2 == 0 else {},
            "tags": [] if i % 3 else ["outdoor", "dog"],
            "boxes": [[1, 2, 30, 40], [5, 6, 7.5, 8]] if i % 4 == 0 else [],
            "similarity": 1 if i % 5 else 0.25 + i / 100,
        }
        yield f"{i:09d}", meta


def write():
    import webdataset as wds

    with wds.ShardWriter("laion-%03d.tar", maxcount=N) as w:
        for key, meta in samples():
            w.write({"__key__": key, "jpg": b"\xff\xd8" + key.encode(), "txt": meta["caption"].encode(),
                     "json": json.dumps(meta).encode()})


def flat(meta, prefix=""):
    out = {}
    for k, v in meta.items():
        name = prefix + k
        if isinstance(v, dict):
            out.update(flat(v, name + "/"))
        elif v is None or v == []:
            out[name] = []
        elif isinstance(v, list) and any(isinstance(x, list) for x in v):
            out[name] = [json.dumps(v, separators=(",", ":")).encode()]
        elif isinstance(v, list):
            out[name] = [x.encode() for x in v]
        elif isinstance(v, str):
            out[name] = [v.encode()]
        elif name == "similarity":
            out[name] = [float(v)]
        else:
            out[name] = [v]
    return out


def check():
    import numpy as np
    import tensorflow as tf

    scope = {"tf": tf}
    exec(open("spec.py").read(), scope)
    spec = scope["feature_description"]
    spec = {k: tf.io.VarLenFeature(v.dtype) if isinstance(v, tf.io.FixedLenFeature) else v for k, v in spec.items()}
    want_all = list(samples())
    n = 0
    for i, raw in enumerate(tf.data.TFRecordDataset("x.tfrecord")):
        parsed = tf.io.parse_single_example(raw, spec)
        got = {k: tf.sparse.to_dense(v).numpy().tolist() for k, v in parsed.items()}
        key, meta = want_all[i]
        want = flat(meta)
        want["jpg"] = [b"\xff\xd8" + key.encode()]
        want["txt"] = [meta["caption"].encode()]
        for name in set(got) | set(want):
            g, w = got.get(name, []), want.get(name, [])
            if name == "similarity":
                w = [float(np.float32(x)) for x in w]
            if g != w:
                print(f"record {i} ({key}): {name}: got {g!r}, want {w!r}")
                sys.exit(1)
        n += 1
    if n != len(want_all):
        print(f"{n} records, want {len(want_all)}")
        sys.exit(1)
    print(f"{n} records agree")


def check_kept():
    import tensorflow as tf

    spec = {"json": tf.io.FixedLenFeature([], tf.string), "jpg": tf.io.FixedLenFeature([], tf.string)}
    want_all = list(samples())
    n = 0
    for i, raw in enumerate(tf.data.TFRecordDataset("y.tfrecord")):
        parsed = tf.io.parse_single_example(raw, spec)
        if json.loads(parsed["json"].numpy()) != want_all[i][1]:
            print(f"record {i}: json differs")
            sys.exit(1)
        n += 1
    print(f"{n} records agree")
    sys.exit(0 if n == len(want_all) else 1)


if __name__ == "__main__":
    {"write": write, "check": check, "check-kept": check_kept}[sys.argv[1]]()

#!/usr/bin/env python3
"""Writes N records (default 100,000) of small distinct JPEG images with
Object Detection API boxes, for the scale test of `tfr view`, into
OUT_DIR/train-0000{0..3}-of-00004.tfrecord (records 0..N/4-1 in the first
shard, and so on: record R of the dataset, in file order, is image R).

Every image is 32x24, written by TensorFlow (tf.io.encode_jpeg, in
batches through tf.data): the top half is a colour that changes with the
record number and holds the boxes (filled rectangles), the bottom half is
the record number in binary, 24 cells of 4x4 pixels (white = 1, most
significant bit first, left to right, top to bottom). Each record:
image/{height,width,filename,source_id,key/sha256,encoded,format}, and
1..3 boxes in image/object/bbox/{xmin,xmax,ymin,ymax} with
image/object/class/{label,text} (classes 1..5 of COCO's ids: person,
bicycle, car, motorcycle, airplane). image/filename is "%08d.jpg" % R and
image/source_id is str(R), so a test can tell which record it sees.

Deterministic (no randomness at all; maps serialised sorted). Not committed:
a slow test writes it into a temporary directory. Prints a JSON summary
(records, boxes, shards, seconds) on stdout.

    target/venv-tf/bin/python tests/oracle/many_images_make.py OUT_DIR [N]
"""
import hashlib
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

W, H = 32, 24
SHARDS = 4
BATCH = 2000
CLASSES = [(1, b"person"), (2, b"bicycle"), (3, b"car"), (4, b"motorcycle"), (5, b"airplane")]
PALETTE = np.array([(230, 40, 40), (40, 200, 60), (40, 80, 240), (240, 200, 20), (200, 40, 220)], np.uint8)


def boxes(i):
    """The boxes of record i: pixel corners (x0, y0, x1, y1) in the top half, and class indices."""
    out = []
    for j in range(1 + i % 3):
        x0 = (i * 7 + j * 11) % 20
        y0 = (i * 3 + j * 5) % 6
        w = 6 + (i + j) % 7
        h = 4 + (i * 5 + j) % 3
        out.append(((x0, y0, min(W, x0 + w), min(12, y0 + h)), (i + j) % len(CLASSES)))
    return out


def pictures(start, n):
    """Images start..start+n-1 as one uint8 array (n, H, W, 3)."""
    ids = np.arange(start, start + n)
    img = np.zeros((n, H, W, 3), np.uint8)
    # Top half: a colour per record.
    img[:, :12, :, 0] = ((ids * 37) % 200 + 30)[:, None, None]
    img[:, :12, :, 1] = ((ids * 91) % 200 + 30)[:, None, None]
    img[:, :12, :, 2] = ((ids * 53) % 200 + 30)[:, None, None]
    # Bottom half: the record number, 24 bits in 3 rows of 8 cells.
    for bit in range(24):
        r, c = divmod(bit, 8)
        on = ((ids >> (23 - bit)) & 1).astype(bool)
        img[on, 12 + 4 * r:16 + 4 * r, 4 * c:4 * c + 4] = 255
    for k, i in enumerate(ids.tolist()):
        for (x0, y0, x1, y1), cls in boxes(i):
            img[k, y0:y1, x0:x1] = PALETTE[cls]
    return img


def jpegs(start, n):
    ds = tf.data.Dataset.from_tensor_slices(pictures(start, n))
    ds = ds.map(lambda im: tf.io.encode_jpeg(im, quality=85), num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    ds = ds.batch(n)
    return next(iter(ds)).numpy().tolist()


def example(i, encoded):
    F = tf.train.Feature
    bx = boxes(i)
    feature = {
        "image/height": F(int64_list=tf.train.Int64List(value=[H])),
        "image/width": F(int64_list=tf.train.Int64List(value=[W])),
        "image/filename": F(bytes_list=tf.train.BytesList(value=[b"%08d.jpg" % i])),
        "image/source_id": F(bytes_list=tf.train.BytesList(value=[b"%d" % i])),
        "image/key/sha256": F(bytes_list=tf.train.BytesList(value=[hashlib.sha256(encoded).hexdigest().encode()])),
        "image/encoded": F(bytes_list=tf.train.BytesList(value=[encoded])),
        "image/format": F(bytes_list=tf.train.BytesList(value=[b"jpeg"])),
        "image/object/bbox/xmin": F(float_list=tf.train.FloatList(value=[b[0][0] / W for b in bx])),
        "image/object/bbox/xmax": F(float_list=tf.train.FloatList(value=[b[0][2] / W for b in bx])),
        "image/object/bbox/ymin": F(float_list=tf.train.FloatList(value=[b[0][1] / H for b in bx])),
        "image/object/bbox/ymax": F(float_list=tf.train.FloatList(value=[b[0][3] / H for b in bx])),
        "image/object/class/label": F(int64_list=tf.train.Int64List(value=[CLASSES[b[1]][0] for b in bx])),
        "image/object/class/text": F(bytes_list=tf.train.BytesList(value=[CLASSES[b[1]][1] for b in bx])),
    }
    ex = tf.train.Example(features=tf.train.Features(feature=feature))
    return ex.SerializeToString(deterministic=True), len(bx)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR [N]")
    out = Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 100_000
    if n < 1 or n >= 1 << 24:
        sys.exit("N must be in 1..16777215")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    per = -(-n // SHARDS)
    names, total_boxes, digests = [], 0, set()
    for s in range(SHARDS):
        name = f"train-{s:05d}-of-{SHARDS:05d}.tfrecord"
        names.append(name)
        lo, hi = min(n, s * per), min(n, (s + 1) * per)
        with tf.io.TFRecordWriter(str(out / name)) as w:
            for start in range(lo, hi, BATCH):
                batch = jpegs(start, min(BATCH, hi - start))
                for k, encoded in enumerate(batch):
                    digests.add(hashlib.blake2b(encoded, digest_size=16).digest())
                    payload, nb = example(start + k, encoded)
                    total_boxes += nb
                    w.write(payload)
    if len(digests) != n:
        sys.exit(f"only {len(digests)} distinct images among {n}")
    print(json.dumps({"records": n, "boxes": total_boxes, "shards": names,
                      "records_per_shard": [min(n, (s + 1) * per) - min(n, s * per) for s in range(SHARDS)],
                      "seconds": round(time.monotonic() - t0, 1)}))


if __name__ == "__main__":
    main()

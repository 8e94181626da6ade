#!/usr/bin/env python3
"""Writes tests/data/gallery.tfrecord: 16 tf.train.Examples of real
images encoded by TensorFlow (tf.io.encode_jpeg / encode_png: 96x64
pictures of a coloured disc on a gradient, one colour per class) with
their labels, a class name, a bounding box and a weight; one record has
no weight. For `tfr report` (its gallery decodes the images) and its
browser test.

    .venv-tf/bin/python tests/oracle/gen_gallery_fixture.py
"""
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CLASSES = ["red", "green", "blue", "yellow"]
COLOURS = [(220, 40, 40), (40, 180, 60), (50, 90, 230), (240, 200, 30)]


def picture(i: int, label: int) -> np.ndarray:
    h, w = 64, 96
    y, x = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, 3), np.uint8)
    img[..., 0] = (x * 255 // w).astype(np.uint8)
    img[..., 1] = (y * 255 // h).astype(np.uint8)
    img[..., 2] = 128
    cx, cy, r = 20 + (i * 7) % 56, 16 + (i * 5) % 32, 10 + i % 6
    disc = (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    img[disc] = COLOURS[label]
    return img


def main() -> int:
    path = ROOT / "tests" / "data" / "gallery.tfrecord"
    with tf.io.TFRecordWriter(str(path)) as w:
        for i in range(16):
            label = i % 4
            img = picture(i, label)
            png = i % 5 == 4
            encoded = (tf.io.encode_png(img) if png else tf.io.encode_jpeg(img, quality=90)).numpy()
            feature = {
                "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[encoded])),
                "image/format": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"png" if png else b"jpeg"])),
                "image/class/label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
                "image/class/text": tf.train.Feature(bytes_list=tf.train.BytesList(value=[CLASSES[label].encode()])),
                "image/object/bbox": tf.train.Feature(
                    float_list=tf.train.FloatList(value=[0.1 + i / 100, 0.2, 0.6, 0.7 + i / 100])
                ),
            }
            if i != 9:
                feature["weight"] = tf.train.Feature(float_list=tf.train.FloatList(value=[0.5 + i / 16]))
            w.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

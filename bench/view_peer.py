#!/usr/bin/env python3
"""The way to record N-1 without an index, in TensorFlow: tf.data reads
the files in order and skips (`TFRecordDataset(files).skip(N-1).take(1)`),
then parses the Example. Prints its image's size in bytes.

    python3 bench/view_peer.py N INPUT...
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402


def main():
    n, files = int(sys.argv[1]), sys.argv[2:]
    ds = tf.data.TFRecordDataset(files).skip(n - 1).take(1)
    for raw in ds:
        ex = tf.train.Example.FromString(raw.numpy())
        print(len(ex.features.feature["image/encoded"].bytes_list.value[0]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The way to record N-1 without an index, in TensorFlow: tf.data reads
the files in order and skips (`TFRecordDataset(files).skip(N-1).take(1)`),
then parses the Example. Prints {"records": 1, "seconds": S} (S: from
building the dataset to the parsed record; TensorFlow's import left out).

    python3 bench/view_peer.py N INPUT...
"""
import json
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402


def main():
    n, files = int(sys.argv[1]), sys.argv[2:]
    start = time.perf_counter()
    ds = tf.data.TFRecordDataset(files).skip(n - 1).take(1)
    got = 0
    for raw in ds:
        ex = tf.train.Example.FromString(raw.numpy())
        got += len(ex.features.feature["image/encoded"].bytes_list.value[0]) > 0
    print(json.dumps({"records": got, "seconds": time.perf_counter() - start}))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a large TensorBoard log directory for benchmarking `tfr scalars`
(and `tfr cat`/`to-jsonl` on event files) against tbparse.

    /work/venv-tf/bin/python bench/events_big.py N OUT_DIR [--runs R] [--v2]

N scalar events in all, spread over R runs (default 4: OUT_DIR/run_0 ...,
one event file each) and 4 tags (loss, accuracy, lr, grad_norm), one
Summary.Value per event, steps 0, 1, 2, ... per tag. Records are written
with tf.io.TFRecordWriter (CRCs as TensorFlow computes them) from
tensorflow.core.util.event_pb2.Event messages, not through tf.summary (far
too slow for a million events): each file starts with the file_version
"brain.Event:2" event, as TensorFlow's writers start theirs.

Default: v1 events, Summary.Value(tag, simple_value) (what tbparse's
`.scalars` reads). --v2: v2 events as tf.summary.scalar writes them, a 0-d
DT_FLOAT TensorProto in tensor_content with SummaryMetadata plugin
"scalars" (metadata on each tag's first value only, as TF's writer does;
tbparse lists these under `.tensors`).

Deterministic: wall_time = 1700000000 + 0.001 * index, values computed from
the index (every 1000th loss is NaN). Not committed data; generate it where
you benchmark. 1M events take about 10 s and 44 MB.
"""
import argparse
import math
import os
import struct
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import summary_pb2, tensor_pb2, types_pb2  # noqa: E402
from tensorflow.core.util import event_pb2  # noqa: E402

TAGS = ("loss", "accuracy", "lr", "grad_norm")


def value(tag, i):
    if tag == "loss":
        return math.nan if i % 1000 == 999 else 2.0 / (1.0 + i * 1e-3)
    if tag == "accuracy":
        return 1.0 - 1.0 / (1.0 + i * 1e-3)
    if tag == "lr":
        return 0.1 * 0.5 ** (i // 100000)
    return abs(math.sin(i * 0.01)) * 10.0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--v2", action="store_true")
    a = ap.parse_args()
    per_run = [a.n // a.runs + (1 if r < a.n % a.runs else 0) for r in range(a.runs)]
    for r, count in enumerate(per_run):
        d = a.out_dir / f"run_{r}"
        d.mkdir(parents=True, exist_ok=True)
        name = f"events.out.tfevents.1700000000.bench.{r}" + (".v2" if a.v2 else "")
        with tf.io.TFRecordWriter(str(d / name)) as w:
            w.write(event_pb2.Event(wall_time=1700000000.0,
                                    file_version="brain.Event:2").SerializeToString())
            ev = event_pb2.Event()
            meta = summary_pb2.SummaryMetadata()
            meta.plugin_data.plugin_name = "scalars"
            for i in range(count):
                tag = TAGS[i % len(TAGS)]
                step = i // len(TAGS)
                x = value(tag, i)
                ev.Clear()
                ev.wall_time = 1700000000.0 + 0.001 * i
                ev.step = step
                v = ev.summary.value.add(tag=tag)
                if a.v2:
                    v.tensor.dtype = types_pb2.DT_FLOAT
                    v.tensor.tensor_shape.SetInParent()
                    v.tensor.tensor_content = struct.pack("<f", x)
                    if step == 0:
                        v.metadata.CopyFrom(meta)
                else:
                    v.simple_value = x
                w.write(ev.SerializeToString())
        print(f"{d / name}: {count} events")


if __name__ == "__main__":
    main()

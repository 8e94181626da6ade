#!/usr/bin/env python3
"""Writes the TensorBoard event-file fixtures of tests/data/events/ with
TensorFlow's own writers, then their expected outputs.

Run from the repository root with the TensorFlow venv (TF 2.21, tensorboard
2.21, tbparse 0.0.9; see tests/data/events/NOTES.md):

    /work/venv-tf/bin/python tests/oracle/events_make.py

It removes and rewrites tests/data/events/logs/ and restart/, then runs
tests/oracle/events_ref.py on every event file and tests/oracle/
tbparse_scalars.py on the log directories, writing tests/data/events/expected/:

  expected/<path of the event file under tests/data/events>.txt   --text
  expected/<path of the event file under tests/data/events>.json  --json
  expected/scalars.csv            tbparse .scalars of logs/ (the whole tree)
  expected/logs/<dir>/scalars.csv tbparse .scalars of each directory under
                                  logs/ taken as LOGDIR (dir_name relative
                                  to that directory)
  expected/restart/scalars.csv    of restart/ (purge at SessionLog START)
  expected/**/tensors.csv         the same with --tensors (tbparse .tensors,
                                  scalar rows only)

(--no-expected writes the event files only.)

Deterministic as far as TensorFlow allows: values, steps, tags and file names
are fixed (each file TensorFlow names events.out.tfevents.<time>.<host>.<pid>
.<n>[.v2] is renamed to a fixed name of the same pattern), but TensorFlow
stamps every event's wall_time with the real time (the v2 writer in C++, the
v1 FileWriter in Python), so a rerun changes wall_time and therefore the bytes
of the files and of the expected outputs; commit them together.

Layout written (run = directory of an event file, relative to logs/):

  logs/events.out.tfevents.1700000000.fixture.0       ''  (top level)
      v1 FileWriter, one simple_value tag
  logs/train/events.out.tfevents.1700000001.fixture.0.v2
      v2 tf.summary (eager create_file_writer): scalar loss/accuracy with
      NaN, +inf, -inf, 0.1, a scalar given as a Python int (tf.summary.scalar
      casts it to float32), steps out of order, one step written twice,
      text, histogram, image, and raw tf.summary.write tensors under the
      scalars plugin: an int64 scalar, a float64 scalar, a float32 vector
  logs/train/events.out.tfevents.1700000002.fixture.0.v2
      a second v2 file in the same run (a resumed job), steps 5..6
  logs/train/notes.txt        not an event file
  logs/eval/events.out.tfevents.1700000003.fixture.0
      v1 tf.compat.v1.summary.FileWriter: Summary(value=[Summary.Value(tag,
      simple_value)]) with several tags per event, NaN/inf, a duplicate step,
      steps out of order, v1 histo / image / tensor values, a tag with
      quotes, backslash, newline and non-ASCII, a LogMessage and a
      TaggedRunMetadata event
  logs/sweep/lr_0.1/events.out.tfevents.1700000004.fixture.0
      v1 simple_value + v2 scalar in separate files of one run:
  logs/sweep/lr_0.1/events.out.tfevents.1700000005.fixture.0.v2
  logs/sweep/lr_0.01/events.out.tfevents.1700000006.fixture.0
      v1 simple_value, the file cut in the middle of its last record (a run
      still being written)
  restart/events.out.tfevents.1700000007.fixture.0
      v1 simple_value steps 0..4, then SessionLog(START) at step 2, then
      steps 2..3 again (the EventAccumulator that tbparse uses purges
      earlier events with step >= 2 when it meets a START)
  noversion/events.out.tfevents.1700000008.fixture.0
      written record by record with tf.io.TFRecordWriter, no file_version
      event, fixed wall_times: tags a and b with steps going back (the
      EventAccumulator then purges by tag on an out-of-order step)
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import summary_pb2  # noqa: E402
from tensorflow.core.util import event_pb2  # noqa: E402
from tensorflow.core.framework import tensor_pb2  # noqa: F401,E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATA = ROOT / "tests" / "data" / "events"
LOGS = DATA / "logs"
RESTART = DATA / "restart"
NOVERSION = DATA / "noversion"
EXPECTED = DATA / "expected"

NAN, INF = float("nan"), float("inf")


def fixed_name(directory, ts, v2):
    """Renames the one fresh event file TensorFlow wrote in `directory`."""
    fresh = [p for p in directory.iterdir()
             if "tfevents" in p.name and ".fixture." not in p.name]
    assert len(fresh) == 1, fresh
    name = f"events.out.tfevents.{ts}.fixture.0" + (".v2" if v2 else "")
    fresh[0].rename(directory / name)
    return directory / name


def scalars_meta():
    m = summary_pb2.SummaryMetadata()
    m.plugin_data.plugin_name = "scalars"
    m.data_class = summary_pb2.DATA_CLASS_SCALAR
    return m


def png_2x2():
    img = np.array([[[255, 0, 0], [0, 255, 0]], [[0, 0, 255], [255, 255, 255]]],
                   dtype=np.uint8)
    return tf.io.encode_png(img).numpy(), img


def v2_train(d, ts):
    d.mkdir(parents=True)
    w = tf.summary.create_file_writer(str(d))
    with w.as_default():
        for step, loss, acc in [(0, 2.5, 0.1), (1, 1.75, 0.25), (3, NAN, 0.5),
                                (2, 1.25, 0.375), (2, 1.0, 0.4), (4, INF, 0.75)]:
            tf.summary.scalar("loss", loss, step=step)
            tf.summary.scalar("accuracy", acc, step=step)
        tf.summary.scalar("loss", -INF, step=5)
        tf.summary.scalar("epoch", 3, step=4)  # a Python int: cast to float32
        tf.summary.scalar("metrics/f1", 0.1, step=4)
        tf.summary.text("notes", "hello *world*", step=0)
        tf.summary.histogram("weights", [0.0, 0.5, 0.5, 1.0, 2.0], step=0,
                             buckets=3)
        _, img = png_2x2()
        tf.summary.image("sample", img[None], step=0)
        tf.summary.write("int_scalar", tf.constant(7, tf.int64), step=1,
                         metadata=scalars_meta())
        tf.summary.write("double_scalar", tf.constant(0.1, tf.float64),
                         step=1, metadata=scalars_meta())
        tf.summary.write("vector_scalars", tf.constant([1.0, 2.0]), step=1,
                         metadata=scalars_meta())
        tf.summary.write("plain_tensor", tf.constant(5.5), step=1)
    w.close()
    fixed_name(d, ts, True)


def v2_resume(d, ts):
    w = tf.summary.create_file_writer(str(d))
    with w.as_default():
        for step in (5, 6):
            tf.summary.scalar("loss", 0.5 / step, step=step)
    w.close()
    fixed_name(d, ts, True)


def v1_writer(d, events):
    """Writes `events` (Summary or Event objects, with steps) with the v1
    FileWriter; returns nothing (rename afterwards)."""
    d.mkdir(parents=True, exist_ok=True)
    with tf.Graph().as_default():
        w = tf.compat.v1.summary.FileWriter(str(d))
        for item in events:
            if isinstance(item, tuple):
                summary, step = item
                w.add_summary(summary, global_step=step)
            else:
                w.add_event(item)
        w.close()


def simple(step, **tags):
    return (tf.compat.v1.Summary(value=[
        tf.compat.v1.Summary.Value(tag=t.replace("__", "/"), simple_value=v)
        for t, v in tags.items()]), step)


def v1_eval(d, ts):
    png, _ = png_2x2()
    histo = summary_pb2.HistogramProto(min=0.0, max=2.0, num=4, sum=3.5,
                                       sum_squares=5.25,
                                       bucket_limit=[0.5, 1.0, 1.7976931348623157e308],
                                       bucket=[1.0, 2.0, 1.0])
    odd = summary_pb2.Summary(value=[
        summary_pb2.Summary.Value(tag='we"ird\\tag\nné', simple_value=1.5)])
    log = event_pb2.Event(wall_time=1700000003.25, step=9,
                          log_message=event_pb2.LogMessage(
                              level=event_pb2.LogMessage.WARN,
                              message="careful: \x01 bytes"))
    meta = event_pb2.Event(wall_time=1700000003.5, step=9,
                           tagged_run_metadata=event_pb2.TaggedRunMetadata(
                               tag="step9", run_metadata=b"\x00\xff\x10"))
    v1_writer(d, [
        simple(0, loss=0.9, accuracy=0.5),
        simple(1, loss=0.7, accuracy=0.625),
        simple(3, loss=0.5, accuracy=NAN),
        simple(2, loss=0.6, accuracy=INF),
        simple(2, loss=0.55),  # the same step again
        simple(4, loss=-INF, **{"metrics__f1": 0.1}),
        (summary_pb2.Summary(value=[
            summary_pb2.Summary.Value(tag="weights", histo=histo),
            summary_pb2.Summary.Value(tag="sample", image=summary_pb2.Summary.Image(
                height=2, width=2, colorspace=3, encoded_image_string=png)),
            summary_pb2.Summary.Value(tag="t", tensor=tf.make_tensor_proto(
                np.float32(2.5))),
        ]), 4),
        (odd, 5),
        log,
        meta,
    ])
    fixed_name(d, ts, False)


def main():
    for p in (LOGS, RESTART, NOVERSION):
        if p.exists():
            shutil.rmtree(p)
    LOGS.mkdir(parents=True)
    v1_writer(LOGS, [simple(0, top=1.0), simple(1, top=2.0)])
    fixed_name(LOGS, 1700000000, False)
    v2_train(LOGS / "train", 1700000001)
    v2_resume(LOGS / "train", 1700000002)
    (LOGS / "train" / "notes.txt").write_text("not an event file\n")
    v1_eval(LOGS / "eval", 1700000003)
    v1_writer(LOGS / "sweep" / "lr_0.1", [simple(s, loss=1.0 / (s + 1)) for s in range(3)])
    fixed_name(LOGS / "sweep" / "lr_0.1", 1700000004, False)
    w = tf.summary.create_file_writer(str(LOGS / "sweep" / "lr_0.1"))
    with w.as_default():
        for s in range(3):
            tf.summary.scalar("accuracy", 0.25 * s, step=s)
    w.close()
    fixed_name(LOGS / "sweep" / "lr_0.1", 1700000005, True)
    d = LOGS / "sweep" / "lr_0.01"
    v1_writer(d, [simple(s, loss=2.0 - 0.125 * s, accuracy=0.0625 * s) for s in range(4)])
    cut = fixed_name(d, 1700000006, False)
    data = cut.read_bytes()
    # The last record: 12-byte header, payload, 4-byte CRC. Cut it in the
    # middle of its payload, as a reader would find a file being written.
    last_len = None
    off = 0
    while off < len(data):
        n = int.from_bytes(data[off:off + 8], "little")
        last_off, last_len = off, n
        off += 12 + n + 4
    cut.write_bytes(data[:last_off + 12 + last_len // 2])

    v1_writer(RESTART, [simple(s, loss=1.0 + s) for s in range(5)]
              + [event_pb2.Event(wall_time=1700000007.0, step=2,
                                 session_log=event_pb2.SessionLog(
                                     status=event_pb2.SessionLog.START))]
              + [simple(s, loss=10.0 + s) for s in (2, 3)])
    fixed_name(RESTART, 1700000007, False)

    # No file_version event (written record by record with TFRecordWriter,
    # fixed wall_times): the EventAccumulator then purges by tag whenever a
    # summary's step goes below the most recent step.
    NOVERSION.mkdir(parents=True)
    seq = [(0, {"a": 0.0, "b": 0.0}), (1, {"a": 1.0, "b": 1.0}),
           (2, {"a": 2.0, "b": 2.0}), (3, {"a": 3.0}), (1, {"a": 100.0}),
           (2, {"b": 200.0})]
    with tf.io.TFRecordWriter(str(NOVERSION / "events.out.tfevents.1700000008.fixture.0")) as w:
        for i, (step, tags) in enumerate(seq):
            ev = event_pb2.Event(wall_time=1700000008.0 + 0.25 * i, step=step)
            for t, v in tags.items():
                ev.summary.value.add(tag=t, simple_value=v)
            w.write(ev.SerializeToString())

    if "--no-expected" not in sys.argv[1:]:
        write_expected()


def write_expected():
    py = sys.executable
    if EXPECTED.exists():
        shutil.rmtree(EXPECTED)
    for f in sorted(DATA.rglob("*tfevents*")):
        if EXPECTED in f.parents:
            continue
        rel = f.relative_to(DATA)
        for mode, ext in (("--text", ".txt"), ("--json", ".json")):
            out = EXPECTED / (str(rel) + ext)
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("wb") as fh:
                subprocess.run([py, str(HERE / "events_ref.py"), str(f), mode],
                               stdout=fh, check=True)
    runs = {"scalars.csv": LOGS, "restart/scalars.csv": RESTART,
            "noversion/scalars.csv": NOVERSION}
    for d in sorted(p for p in LOGS.rglob("*") if p.is_dir()):
        runs[f"{d.relative_to(DATA)}/scalars.csv"] = d
    for name, d in runs.items():
        for csv, extra in ((name, []), (name.replace("scalars.csv", "tensors.csv"),
                                        ["--tensors"])):
            out = EXPECTED / csv
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("wb") as fh:
                subprocess.run([py, str(HERE / "tbparse_scalars.py"), str(d)] + extra,
                               stdout=fh, check=True)


if __name__ == "__main__":
    main()

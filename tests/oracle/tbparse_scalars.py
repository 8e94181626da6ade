#!/usr/bin/env python3
"""Prints tbparse's scalar table of a log directory as CSV; the reference for
`tfr scalars LOGDIR`.

    /work/venv-tf/bin/python tests/oracle/tbparse_scalars.py LOGDIR

It prints exactly

    tbparse.SummaryReader(LOGDIR, extra_columns={'wall_time', 'dir_name'})
        .scalars.to_csv(index=False)

(no float_format, no na_rep): pandas writes each float with Python's repr of
the column's dtype (see tests/data/events/NOTES.md for the dtypes), NaN as an
empty field, +inf/-inf as `inf`/`-inf`, and a directory with no scalars as a
single empty line (tbparse returns an empty DataFrame with no columns).
tbparse/tensorboard log messages (e.g. about a truncated record) go to
stderr. With --dtypes it prints the column dtypes to stderr as well.

With --tfr it prints what `tfr scalars LOGDIR -f csv` must print: the rows
of `.scalars` (v1 simple_value) and those of `.tensors` whose tag's values
carry the `scalars` plugin (v2 tf.summary.scalar; the plugin is read from
the event files with TensorFlow's own event_pb2, since tbparse's table does
not name it), as columns run,tag,step,wall_time,value, values as doubles,
sorted by run, tag and step (stably, the v1 rows first) as tbparse sorts.

With --tensors it prints, in the same way, tbparse's `.tensors` table (the
v2 tf.summary tensor summaries that `.scalars` leaves out: everything whose
Summary.Value holds a `tensor`, whatever its plugin, except the text and
hparams plugins' tags) restricted to the rows whose value is a scalar
(tbparse gives a 0-d tensor as a Python int or float and anything else as a
numpy array; the arrays' rows are dropped, a choice of this script, not of
tbparse).
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from tbparse import SummaryReader  # noqa: E402


def scalar_plugin_tags(logdir):
    """(run, tag) of every value whose metadata names the scalars plugin."""
    import tensorflow as tf
    from tensorflow.core.util import event_pb2

    found = set()
    for root, _dirs, files in os.walk(logdir):
        rel = os.path.relpath(root, logdir)
        run = "" if rel == "." else rel.replace(os.sep, "/")
        for name in files:
            if "tfevents" not in name or name.endswith(".profile-empty"):
                continue
            try:
                for rec in tf.compat.v1.io.tf_record_iterator(os.path.join(root, name)):
                    ev = event_pb2.Event.FromString(rec)
                    for v in ev.summary.value:
                        if v.metadata.plugin_data.plugin_name == "scalars":
                            found.add((run, v.tag))
            except Exception:  # a damaged tail: the events before it count
                pass
    return found


def tfr_table(logdir, reader):
    import pandas as pd

    plugin = scalar_plugin_tags(logdir)
    frames = []
    v1 = reader.scalars
    if not v1.empty:
        frames.append(v1)
    v2 = reader.tensors
    if not v2.empty:
        keep = [(r, t) in plugin and isinstance(v, (int, float))
                for r, t, v in zip(v2["dir_name"], v2["tag"], v2["value"])]
        v2 = v2[keep]
        if not v2.empty:
            frames.append(v2.astype({"value": "float64"}))
    if not frames:
        return "run,tag,step,wall_time,value\n"
    df = pd.concat(frames, ignore_index=True)
    df = df.sort_values(["dir_name", "tag", "step"], kind="stable")
    df = df.rename(columns={"dir_name": "run"})[["run", "tag", "step", "wall_time", "value"]]
    df["value"] = df["value"].astype("float64")
    return df.to_csv(index=False)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    reader = SummaryReader(args[0], extra_columns={"wall_time", "dir_name"})
    if "--tfr" in sys.argv:
        sys.stdout.write(tfr_table(args[0], reader))
        return
    if "--tensors" in sys.argv:
        df = reader.tensors
        if not df.empty:
            df = df[df["value"].map(lambda v: isinstance(v, (int, float)))]
            df = df.astype({"value": "float64" if all(
                isinstance(v, float) for v in df["value"]) else "object"})
    else:
        df = reader.scalars
    if "--dtypes" in sys.argv:
        print(df.dtypes.to_dict(), file=sys.stderr)
    sys.stdout.write(df.to_csv(index=False))


if __name__ == "__main__":
    main()

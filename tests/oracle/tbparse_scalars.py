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


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    reader = SummaryReader(args[0], extra_columns={"wall_time", "dir_name"})
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

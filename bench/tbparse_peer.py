#!/usr/bin/env python3
"""The peer of `tfr scalars` in bench/run.py: tbparse's scalar table of a log
directory written as CSV, timed without the interpreter's start and the
imports (as run.py times its other Python peers).

    python bench/tbparse_peer.py LOGDIR OUT.csv

Prints {"records": rows, "seconds": ...} as its last line.
"""
import json
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from tbparse import SummaryReader  # noqa: E402

t = time.perf_counter()
df = SummaryReader(sys.argv[1], extra_columns={"wall_time", "dir_name"}).scalars
df.to_csv(sys.argv[2], index=False)
print(json.dumps({"records": len(df), "seconds": time.perf_counter() - t}))

"""pandas-written Parquet files whose dtypes drift (tests/cli/columnar_kinds.rs).

`write`: drift_0..2.parquet of 10 rows each, written by pandas
(DataFrame.to_parquet): `score` is int64 in files 0 and 2 and float64 in
file 1 (one missing value: pandas' NaN); `id` int64; `name` strings.

`check`: TensorFlow parses x.tfrecord (what tfr from-parquet wrote) with
the spec in spec.py (`tfr schema -f tf`) and each row must equal the
source row read back with pandas: exit 1 on the first difference.
"""

import math
import sys


def frames():
    import pandas as pd

    out = []
    for k in range(3):
        ids = list(range(k * 10, k * 10 + 10))
        if k == 1:
            score = [float(i) / 4 if i % 5 else None for i in ids]
        else:
            score = [i * 3 for i in ids]
        out.append(pd.DataFrame({"id": ids, "score": score, "name": [f"n{i}" for i in ids]}))
    return out


def write():
    for k, df in enumerate(frames()):
        df.to_parquet(f"drift_{k}.parquet", index=False)
    import pandas as pd

    kinds = [str(pd.read_parquet(f"drift_{k}.parquet")["score"].dtype) for k in range(3)]
    assert kinds == ["int64", "float64", "int64"], kinds


def check():
    import numpy as np
    import pandas as pd
    import tensorflow as tf

    scope = {"tf": tf}
    exec(open("spec.py").read(), scope)
    spec = scope["feature_description"]
    # A feature some records lack: its values as a ragged list.
    spec = {k: tf.io.VarLenFeature(v.dtype) if isinstance(v, tf.io.FixedLenFeature) else v for k, v in spec.items()}
    rows = pd.concat([pd.read_parquet(f"drift_{k}.parquet") for k in range(3)], ignore_index=True)
    n = 0
    for i, raw in enumerate(tf.data.TFRecordDataset("x.tfrecord")):
        parsed = tf.io.parse_single_example(raw, spec)
        got = {k: (tf.sparse.to_dense(v) if isinstance(v, tf.sparse.SparseTensor) else v).numpy().tolist() for k, v in parsed.items()}
        want = rows.iloc[i]
        ok = got["id"] == [int(want["id"])]
        ok = ok and got["name"] == [want["name"].encode()]
        if isinstance(want["score"], float) and math.isnan(want["score"]):
            ok = ok and got["score"] == []
        else:
            ok = ok and got["score"] == [float(np.float32(want["score"]))]
        if not ok:
            print(f"row {i}: tfr {got} source {dict(want)}")
            sys.exit(1)
        n += 1
    assert n == len(rows), (n, len(rows))
    print(f"rows agree: {n}")


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]]()

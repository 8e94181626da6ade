"""DuckDB-written Parquet whose columns have no one obvious feature value
(tests/cli/columnar_kinds.rs): DECIMAL (DuckDB types `i * 1.5` as
DECIMAL(21,1)), MAP(VARCHAR, VARCHAR) and MAP(INTEGER, DECIMAL), a list
holding NULL, and an INTERVAL (which has no feature kind).

`write`: d.parquet, 20 rows, by DuckDB's `COPY ... TO`.

`check`: TensorFlow parses x.tfrecord (`tfr from-parquet d.parquet
--exclude span --null-in-list drop`) with the spec in spec.py (`tfr schema
-f tf`), and each record must equal DuckDB's own reading of the row:
decimals as float32, the list without its NULLs, a feature `attrs/KEY`
per map entry. `check-text`: y.tfrecord (`--decimal text`) holds the
decimals' digits as DuckDB prints them.
"""

import sys

QUERY = """SELECT i::BIGINT AS id, i * 1.5 AS price,
  CASE WHEN i % 3 = 0 THEN [i, NULL, i + 1] ELSE [i] END AS xs,
  CASE WHEN i % 2 = 0 THEN MAP {'color': 'red' || i, 'size': 'L'} ELSE MAP {'color': 'blue'} END AS attrs,
  MAP {1: i * 0.5} AS w, INTERVAL 1 DAY AS span
FROM range(20) t(i)"""


def write():
    import duckdb

    duckdb.sql(f"COPY ({QUERY}) TO 'd.parquet' (FORMAT PARQUET)")


def rows():
    import duckdb

    return duckdb.sql("SELECT id, price, xs, attrs, w FROM 'd.parquet' ORDER BY id").fetchall()


def parsed(path):
    import tensorflow as tf

    scope = {"tf": tf}
    exec(open("spec.py").read(), scope)
    spec = scope["feature_description"]
    spec = {k: tf.io.VarLenFeature(v.dtype) if isinstance(v, tf.io.FixedLenFeature) else v for k, v in spec.items()}
    for raw in tf.data.TFRecordDataset(path):
        got = tf.io.parse_single_example(raw, spec)
        yield {k: tf.sparse.to_dense(v).numpy().tolist() for k, v in got.items()}


def check():
    import numpy as np

    f32 = lambda x: float(np.float32(float(x)))
    n = 0
    for got, (i, price, xs, attrs, w) in zip(parsed("x.tfrecord"), rows()):
        want = {"id": [i], "price": [f32(price)], "xs": [x for x in xs if x is not None]}
        for k, v in attrs.items():
            want[f"attrs/{k}"] = [v.encode()]
        for k, v in w.items():
            want[f"w/{k}"] = [f32(v)]
        for name in set(got) | set(want):
            if got.get(name, []) != want.get(name, []):
                print(f"row {i}: {name}: got {got.get(name)!r}, want {want.get(name)!r}")
                sys.exit(1)
        n += 1
    print(f"{n} rows agree")
    sys.exit(0 if n == 20 else 1)


def check_text():
    n = 0
    for got, (i, price, *_rest) in zip(parsed("y.tfrecord"), rows()):
        if got["price"] != [str(price).encode()]:
            print(f"row {i}: price {got['price']!r}, want {str(price)!r}")
            sys.exit(1)
        n += 1
    print(f"{n} rows agree")
    sys.exit(0 if n == 20 else 1)


if __name__ == "__main__":
    {"write": write, "check": check, "check-text": check_text}[sys.argv[1]]()

#!/usr/bin/env python3
"""pyarrow reads what `tfr to-parquet` / `tfr to-arrow` write, and TensorFlow
parses what `tfr from-parquet` makes of a file pyarrow wrote.

Run from the repository root, with a built tfr and a Python holding
TensorFlow 2.21 and pyarrow:

    .venv-tf/bin/python tests/oracle/columnar.py [--tfr target/debug/tfr]

Checks (exit 1 on any mismatch):
1. A TensorFlow-written file of Examples (an int64 label, a float score
   missing from some records, a UTF-8 string, binary bytes, a variable int64
   list with empty lists, a fixed 3-float list) through `to-parquet`:
   pyarrow reads the column types the mapping states (int64, float,
   string, binary, list<int64>, list<float>), nulls where a feature is
   missing, [] for empty lists, and every value as TensorFlow parsed it;
   the key-value metadata "tfr.schema" names each column's kind.
2. The same through `to-arrow` (pyarrow.ipc.open_file) and `to-arrow -o -`
   (pyarrow.ipc.open_stream): the same table; --shards 3 gives three files
   whose rows, concatenated, are the table.
3. SequenceExamples: feature lists as list<list<...>> columns.
4. A Parquet file written by pyarrow with int32, double, string, list,
   bool, null and struct columns (Hugging Face's image struct {bytes,
   path}) → `tfr from-parquet` → Examples that tf.io.parse_single_example
   reads with the spec `tfr schema -f tf` prints, with the expected values
   (double narrowed to float32, bool as 0/1, image/bytes and image/path);
   a warning names the double column once.
5. Feather files (LZ4, zstd) and LZ4 Parquet read as uncompressed ones.
6. A uint64 past int64: one line naming the column and row.
7. A Parquet file whose footer says 0 rows (columnar_files.py rewrites it)
   and dictionary columns with one 1 MiB value: every row converted.
"""

import argparse
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import tensorflow as tf  # noqa: E402

FAILED = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILED.append(what)


def f32(x):
    return float(np.float32(x))


def example(i):
    f = {
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3])),
        "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[("név-%d" % i).encode()])),
        "blob": tf.train.Feature(bytes_list=tf.train.BytesList(value=[bytes([255, i % 256, 0])])),
        "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i % 4)))),
        "emb": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 3, -i, 0.1])),
    }
    if i % 5:
        f["score"] = tf.train.Feature(float_list=tf.train.FloatList(value=[i * 0.7]))
    return tf.train.Example(features=tf.train.Features(feature=f))


def expected_rows(n):
    rows = []
    for i in range(n):
        rows.append(
            {
                "blob": bytes([255, i % 256, 0]),
                "emb": [f32(i / 3), f32(-i), f32(0.1)],
                "ids": list(range(i % 4)),
                "label": i % 3,
                "name": "név-%d" % i,
                "score": f32(i * 0.7) if i % 5 else None,
            }
        )
    return rows


def tfr(binary, *args, stdin=None):
    r = subprocess.run([binary, *args], capture_output=True, input=stdin)
    if r.returncode != 0:
        raise SystemExit("tfr %s failed: %s" % (" ".join(args), r.stderr.decode()))
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfr", default="target/debug/tfr")
    args = ap.parse_args()
    binary = os.path.abspath(args.tfr)
    with tempfile.TemporaryDirectory(prefix="tfr-oracle-") as tmp:
        n = 50
        src = os.path.join(tmp, "src.tfrecord")
        with tf.io.TFRecordWriter(src) as w:
            for i in range(n):
                w.write(example(i).SerializeToString())

        # 1. to-parquet: types, values, nulls, metadata.
        out = os.path.join(tmp, "x.parquet")
        tfr(binary, "to-parquet", src, "-o", out)
        table = pq.read_table(out)
        types = {f.name: str(f.type) for f in table.schema}
        check(
            types
            == {
                "blob": "binary",
                # Three values in every record that has it (issue 43).
                "emb": "fixed_size_list<item: float>[3]",
                "ids": "list<item: int64>",
                "label": "int64",
                "name": "string",
                "score": "float",
            },
            "to-parquet column types %s" % types,
        )
        rows = table.to_pylist()
        want = expected_rows(n)
        check(rows == want, "to-parquet values, nulls and [] as TensorFlow wrote them")
        meta = (table.schema.metadata or {}).get(b"tfr.schema", b"")
        check(b'"name":"ids"' in meta and b'"kind":"int64"' in meta, "tfr.schema metadata present")
        footer = pq.read_metadata(out).metadata or {}
        check(footer.get(b"tfr.schema") == meta, "tfr.schema also in the Parquet footer's key-value metadata")

        # 2. to-arrow: file and stream; shards.
        arrow = os.path.join(tmp, "x.arrow")
        tfr(binary, "to-arrow", src, "-o", arrow)
        with pa.ipc.open_file(arrow) as r:
            check(r.read_all().to_pylist() == want, "to-arrow file read by pyarrow.ipc.open_file")
        stream = tfr(binary, "to-arrow", src, "-o", "-").stdout
        r = pa.ipc.open_stream(pa.py_buffer(stream))
        check(r.schema.equals(table.schema, check_metadata=False), "to-arrow stream schema as the Parquet file's")
        check(r.read_all().to_pylist() == want, "to-arrow -o - read by pyarrow.ipc.open_stream")
        tfr(binary, "to-parquet", src, "-o", os.path.join(tmp, "sh", "x.parquet"), "--shards", "3")
        parts = [os.path.join(tmp, "sh", "x-%05d-of-00003.parquet" % k) for k in range(3)]
        got = []
        for p in parts:
            got += pq.read_table(p).to_pylist()
        check(got == want, "--shards 3: three files holding the rows in order")

        # 3. SequenceExamples.
        seq = os.path.join(tmp, "seq.tfrecord")
        with tf.io.TFRecordWriter(seq) as w:
            for i in range(4):
                s = tf.train.SequenceExample()
                s.context.feature["id"].int64_list.value.append(i)
                fl = s.feature_lists.feature_list["frames"]
                for step in range(i):
                    fl.feature.add().float_list.value.extend([step, step + 0.5])
                w.write(s.SerializeToString())
        tfr(binary, "to-parquet", seq, "-o", os.path.join(tmp, "seq.parquet"))
        t = pq.read_table(os.path.join(tmp, "seq.parquet"))
        # Two values in every step: list<fixed_size_list<float, 2>> (issue 43).
        frames = str(t.schema.field("frames").type)
        check(frames == "list<item: fixed_size_list<item: float>[2]>", "feature list as list<fixed_size_list<float, 2>>: %s" % frames)
        check(
            t.column("frames").to_pylist() == [[], [[0.0, 0.5]], [[0.0, 0.5], [1.0, 1.5]], [[0.0, 0.5], [1.0, 1.5], [2.0, 2.5]]],
            "feature list steps as inner lists",
        )

        # 4. pyarrow's Parquet → from-parquet → tf.io.parse_single_example.
        image = pa.array(
            [{"bytes": b"\x89PNG-%d" % i, "path": "img/%d.png" % i} for i in range(6)],
            type=pa.struct([("bytes", pa.binary()), ("path", pa.string())]),
        )
        written = pa.table(
            {
                "i32": pa.array([1, -2, 3, 4, 5, 2**31 - 1], type=pa.int32()),
                "d": pa.array([0.1, 2.5, -1e300, 3.0, None, 1 / 3], type=pa.float64()),
                "s": pa.array(["a", "b", None, "ü", "", "f"]),
                "l": pa.array([[1, 2], [], [3], [4, 5, 6], None, [7]], type=pa.list_(pa.int64())),
                "b": pa.array([True, False, True, None, False, True]),
                "n": pa.nulls(6),
                "image": image,
            }
        )
        hf = os.path.join(tmp, "hf.parquet")
        pq.write_table(written, hf)
        rec = os.path.join(tmp, "hf.tfrecord")
        r = tfr(binary, "from-parquet", hf, "-o", rec)
        warn = r.stderr.decode()
        check(warn.count("column d: double values narrowed to float32") == 1, "one warning for the double column: %r" % warn)
        spec_text = tfr(binary, "schema", "-f", "tf", rec).stdout.decode()
        scope = {"tf": tf}
        exec(spec_text, scope)
        spec = scope["feature_description"]
        check(
            sorted(spec) == ["b", "d", "i32", "image/bytes", "image/path", "l", "s"],
            "features from the columns (struct → image/bytes, image/path; the null column none): %s" % sorted(spec),
        )
        parsed = [tf.io.parse_single_example(r, spec) for r in tf.data.TFRecordDataset(rec)]
        check(len(parsed) == 6, "six Examples")

        def value(p, k):
            v = p[k]
            if isinstance(v, tf.sparse.SparseTensor):
                v = v.values
            v = v.numpy()
            return v.tolist() if hasattr(v, "tolist") else v

        # A feature missing from some records reads as its default (FixedLen)
        # or as an empty list (VarLen); compare where it is present.
        check([value(p, "i32") for p in parsed] == [1, -2, 3, 4, 5, 2**31 - 1], "int32 column → int64 values")
        d = [value(p, "d") for p in parsed]
        check(
            [d[i] for i in (0, 1, 3, 5)] == [f32(0.1), 2.5, 3.0, f32(1 / 3)] and np.isinf(d[2]),
            "double column → float32 values (%s)" % d,
        )
        check([value(p, "l") for p in parsed] == [[1, 2], [], [3], [4, 5, 6], [], [7]], "list column → int64 lists")
        b = [value(p, "b") for p in parsed]
        check([b[i] for i in (0, 1, 2, 4, 5)] == [1, 0, 1, 0, 1], "bool column → 0/1")
        s = [value(p, "s") for p in parsed]
        check([s[i] for i in (0, 1, 3, 4, 5)] == [b"a", b"b", "ü".encode(), b"", b"f"], "string column → bytes")
        check([value(p, "image/path") for p in parsed] == [b"img/%d.png" % i for i in range(6)], "image/path")
        check([value(p, "image/bytes") for p in parsed] == [b"\x89PNG-%d" % i for i in range(6)], "image/bytes")
        # Nulls are absent features: tfr prints the records without them.
        jsonl = tfr(binary, "to-jsonl", rec).stdout.decode().splitlines()
        check('"s"' not in jsonl[2] and '"d"' not in jsonl[4] and '"n"' not in jsonl[0], "nulls are absent features")

        # 5. Feather files as pyarrow writes them by default (LZ4-compressed
        # bodies), and with zstd, and Parquet with LZ4: from-arrow and
        # from-parquet read them as the uncompressed ones.
        import pyarrow.feather as feather

        plain = written.drop_columns(["image"])
        base = os.path.join(tmp, "plain.arrow")
        feather.write_feather(plain, base, compression="uncompressed")
        want_lines = tfr(binary, "to-jsonl", "-", stdin=tfr(binary, "from-arrow", base, "-o", "-").stdout).stdout
        for codec in ("lz4", "zstd"):
            path = os.path.join(tmp, "c-%s.feather" % codec)
            feather.write_feather(plain, path, compression=codec)
            got = tfr(binary, "to-jsonl", "-", stdin=tfr(binary, "from-arrow", path, "-o", "-").stdout).stdout
            check(got == want_lines, "from-arrow reads a Feather file compressed with %s" % codec)
        lz4pq = os.path.join(tmp, "lz4.parquet")
        pq.write_table(plain, lz4pq, compression="lz4")
        got = tfr(binary, "to-jsonl", "-", stdin=tfr(binary, "from-parquet", lz4pq, "-o", "-").stdout).stdout
        check(got == want_lines, "from-parquet reads a Parquet file compressed with LZ4")

        # 6. A uint64 past int64 in a plain column: one line naming the column and row.
        u64 = os.path.join(tmp, "u64.parquet")
        pq.write_table(pa.table({"u": pa.array([1, 2**64 - 1], type=pa.uint64())}), u64)
        r = subprocess.run([binary, "from-parquet", u64, "-o", os.path.join(tmp, "u.tfrecord")], capture_output=True)
        err = r.stderr.decode()
        check(
            r.returncode == 2 and "row 1: column u: the uint64 value 18446744073709551615" in err and err.count("\n") == 1,
            "uint64 overflow names the column and row: %r" % err,
        )

        # 7. A Parquet file whose footer says 0 rows (its row group holds
        # 1,000: pyarrow reads them) and a dictionary column with one
        # large value every row points at (Arrow IPC file and stream,
        # Parquet): TensorFlow reads every row tfr converts.
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import columnar_files

        zero = os.path.join(tmp, "zero.parquet")
        columnar_files.zero_footer(1000, zero)
        rec = os.path.join(tmp, "zero.tfrecord")
        r = tfr(binary, "from-parquet", zero, "-o", rec)
        spec = {"i": tf.io.FixedLenFeature([], tf.int64)}
        ids = [int(tf.io.parse_single_example(x, spec)["i"]) for x in tf.data.TFRecordDataset(rec)]
        check(ids == list(range(1000)), "a footer saying 0 rows: the row group's 1,000 rows converted")
        check(b"its footer says it holds 0 rows" in r.stderr, "... with a warning: %r" % r.stderr)
        columnar_files.dictionary(20, 1 << 20, tmp)
        spec = {"s": tf.io.FixedLenFeature([], tf.string)}
        for cmd, name in (("from-arrow", "d.arrow"), ("from-arrow", "d.arrows"), ("from-parquet", "d.parquet")):
            rec = os.path.join(tmp, name + ".tfrecord")
            tfr(binary, cmd, os.path.join(tmp, name), "-o", rec)
            values = [tf.io.parse_single_example(x, spec)["s"].numpy() for x in tf.data.TFRecordDataset(rec)]
            check(values == [b"x" * (1 << 20)] * 20, "%s %s: 20 rows of the 1 MiB dictionary value" % (cmd, name))

        if FAILED:
            print("%d check(s) failed" % len(FAILED))
            sys.exit(1)
        print("all checks passed")


if __name__ == "__main__":
    main()

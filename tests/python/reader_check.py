#!/usr/bin/env python3
"""Judges tfr_cli.TFRecordDataset (issue 48) against TensorFlow.

    PY tests/python/reader_check.py OUTDIR TFR

PY: a Python with the tfr-cli wheel installed, numpy, pyarrow, torch,
grain and the `tfrecord` package (target/venv-reader; tests/cli/reader.rs
runs it). OUTDIR: what tests/oracle/reader_make.py wrote (TensorFlow's
files, expected.json, blobs.npz). TFR: the tfr binary, the reference for
where= (tfr count/cat --where) and for index files (tfr index).

Only the documented API is used (the API note of issue 48). One line per
check ("ok NAME"); the first failure prints "FAIL NAME: why" and exits 1.
The last line is "all checks passed".
"""
import argparse
import fnmatch
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

import numpy as np
import torch
import torch.utils.data

import tfr_cli


class CheckFailed(Exception):
    pass


def fail(msg):
    raise CheckFailed(msg)


class Oracle:
    """expected.json and blobs.npz of reader_make.py, and the files' framing."""

    def __init__(self, outdir: Path, tfr: str):
        self.dir = outdir
        self.tfr = tfr
        self.exp = json.loads((outdir / "expected.json").read_text())
        with np.load(outdir / "blobs.npz") as z:
            self.blobs = {k: z[k].tobytes() for k in z.files}
        self.shards = [str(outdir / n) for n in self.exp["shards"]]
        self.gzip = [str(outdir / n) for n in self.exp["gzip"]]
        self.zlib = [str(outdir / n) for n in self.exp["zlib"]]
        self.records = self.exp["records"]
        self.n = len(self.records)
        # (payload, header offset) of every record, file by file.
        self.framed = [frames(p) for p in self.shards]
        self.payloads = [p for f in self.framed for p, _ in f]

    def blob(self, h: str) -> bytes:
        return self.blobs[h[4:]] if h.startswith("npz:") else bytes.fromhex(h)

    def spec(self, key):
        return self.exp["auto"] if key == "auto" else self.exp["specs"][key]


def frames(path: str) -> list:
    """A plain TFRecord file's records: (payload, byte offset of its
    header). The framing: 8-byte little-endian length, 4-byte CRC of it,
    the payload, 4-byte CRC of it."""
    data = Path(path).read_bytes()
    out, pos = [], 0
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 8], "little")
        out.append((data[pos + 12:pos + 12 + length], pos))
        pos += 16 + length
    if pos != len(data):
        fail(f"{path}: the framing reader ran past the end")
    return out


def short(v, n=80):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."


# ------------------------------------------------------------ value checks


def same_value(o: Oracle, got, exp, where: str):
    """The reader's value `got` is exactly the expected one (dtype, shape,
    values; floats bit for bit; bytes exact; the Python type the API
    documents)."""
    if exp is None:
        if got is not None:
            fail(f"{where}: {short(got)}, expected None (a feature with no kind set)")
        return
    dt, shape = exp["dtype"], tuple(exp["shape"])
    if dt == "bytes":
        want = [o.blob(h) for h in exp["hex"]]
        if exp.get("list"):
            if type(got) is not list or any(type(x) is not bytes for x in got):
                fail(f"{where}: {short(got)}, expected a list of bytes")
            if got != want:
                fail(f"{where}: {short(got)} != {short(want)}")
        elif shape == ():
            if type(got) is not bytes:
                fail(f"{where}: a {type(got).__name__}, expected bytes")
            if got != want[0]:
                fail(f"{where}: {short(got)} != {short(want[0])}")
        else:
            if not isinstance(got, np.ndarray) or got.dtype != object or got.shape != shape:
                fail(f"{where}: {short(got)}, expected a numpy object array of shape {shape}")
            flat = list(got.reshape(-1))
            if any(type(x) is not bytes for x in flat) or flat != want:
                fail(f"{where}: {short(flat)} != {short(want)}")
        return
    if not isinstance(got, np.ndarray):
        fail(f"{where}: a {type(got).__name__} {short(got)}, expected a numpy {dt} array of shape {shape}")
    if got.dtype != np.dtype(dt) or got.shape != shape:
        fail(f"{where}: {got.dtype} shape {got.shape}, expected {dt} shape {shape}")
    flat = np.ascontiguousarray(got).reshape(-1)
    if dt == "int64":
        if flat.tolist() != exp["values"]:
            fail(f"{where}: {short(flat.tolist())} != {short(exp['values'])}")
    elif flat.view(np.uint32).tolist() != exp["bits"]:
        want = np.array(exp["bits"], np.uint32).view(np.float32)
        fail(f"{where}: {short(flat.tolist())} != {short(want.tolist())} (bitwise)")


def same_record(o: Oracle, rec, order: list, values: dict, where: str):
    if type(rec) is not dict:
        fail(f"{where}: a {type(rec).__name__}, expected a dict")
    if list(rec) != order:
        fail(f"{where}: features {list(rec)}, expected {order}")
    for k in order:
        same_value(o, rec[k], values[k], f"{where} {k!r}")


def same_stored(o: Oracle, rec, i: int, where: str, keep=None):
    """Record i as stored (spec=None); `keep`: only the names it allows."""
    r = o.records[i]
    order = [k for k in r["order"] if keep is None or keep(k)]
    same_record(o, rec, order, r["stored"], where)


def same_parsed(o: Oracle, rec, key: str, i: int, where: str):
    """Record i as TensorFlow parsed it with spec `key`."""
    s = o.spec(key)
    res = s["results"][i]
    if "error" in res:
        fail(f"{where}: TensorFlow refused record {i} with spec {key}: {res['error']}")
    same_record(o, rec, list(s["spec"]), res["ok"], where)


def ids_of(records) -> list:
    return [int(np.asarray(r["id"]).reshape(-1)[0]) for r in records]


# ------------------------------------------------------------------ specs


def unhex(d):
    if isinstance(d, list):
        return [unhex(x) for x in d]
    if isinstance(d, dict):
        return bytes.fromhex(d["hex"])
    return d


def reader_spec(js: dict) -> dict:
    """tfr_cli.FixedLen / VarLen from reader_make.py's JSON of TensorFlow's spec."""
    spec = {}
    for name, s in js.items():
        if s["kind"] == "var":
            spec[name] = tfr_cli.VarLen(s["dtype"])
        else:
            spec[name] = tfr_cli.FixedLen(s["shape"], s["dtype"], default=unhex(s["default"]))
    return spec


class DType:
    """What the reader reads of a tf.DType (the API: "tf.DType via its .name")."""

    def __init__(self, name):
        self.name = name


class FixedLenFeature:
    """The fields of tf.io.FixedLenFeature (a namedtuple there)."""

    def __init__(self, shape, dtype, default_value=None):
        self.shape, self.dtype, self.default_value = shape, DType(dtype), default_value


class VarLenFeature:
    def __init__(self, dtype):
        self.dtype = DType(dtype)


def tf_like_spec(js: dict) -> dict:
    return {name: VarLenFeature(s["dtype"]) if s["kind"] == "var"
            else FixedLenFeature(s["shape"], s["dtype"], unhex(s["default"])) for name, s in js.items()}


# ----------------------------------------------------------------- checks

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


@check
def length_and_inputs(o: Oracle):
    ds = tfr_cli.TFRecordDataset(o.shards)
    if len(ds) != o.n:
        fail(f"len {len(ds)}, expected {o.n}")
    one = tfr_cli.TFRecordDataset(o.shards[1])
    if len(one) != o.exp["counts"][1]:
        fail(f"one path as a str: len {len(one)}, expected {o.exp['counts'][1]}")
    glob = tfr_cli.TFRecordDataset(str(o.dir / "ex-*-of-*.tfrecord"))
    if len(glob) != o.n or ids_of([glob[0], glob[-1]]) != [0, o.n - 1]:
        fail("a glob: not the 3 shards in order")
    try:
        tfr_cli.TFRecordDataset(str(o.dir / "no-such-file.tfrecord"))[0]
        fail("a missing file: no FileNotFoundError")
    except FileNotFoundError:
        pass


@check
def index_every_record_as_stored(o: Oracle):
    ds = tfr_cli.TFRecordDataset(o.shards)
    for i in range(o.n):
        same_stored(o, ds[i], i, f"ds[{i}]")
    same_stored(o, ds[np.int64(7)], 7, "ds[np.int64(7)]")


@check
def negative_indices_and_index_error(o: Oracle):
    ds = tfr_cli.TFRecordDataset(o.shards)
    same_stored(o, ds[-1], o.n - 1, "ds[-1]")
    same_stored(o, ds[-o.n], 0, f"ds[-{o.n}]")
    for bad in (o.n, o.n + 5, -o.n - 1):
        try:
            ds[bad]
            fail(f"ds[{bad}]: no IndexError")
        except IndexError:
            pass


@check
def slices_and_index_lists(o: Oracle):
    ds = tfr_cli.TFRecordDataset(o.shards)
    for sl in (slice(5, 17, 3), slice(None, None, -7), slice(100, None), slice(-3, None), slice(30, 50), slice(7, 7),
               slice(35, 45)):
        got = ds[sl]
        want = list(range(o.n))[sl]
        if type(got) is not list or len(got) != len(want):
            fail(f"ds[{sl}]: {type(got).__name__} of {len(got)}, expected a list of {len(want)}")
        for rec, i in zip(got, want):
            same_stored(o, rec, i, f"ds[{sl}] record {i}")
    for idx in ([5, 1, 9], np.array([5, 1, 9]), [119, 0, 119, 40, -1], np.array([], np.int64)):
        got = ds[idx]
        want = [i % o.n for i in list(idx)]
        if type(got) is not list or len(got) != len(want):
            fail(f"ds[{list(idx)}]: not a list of {len(want)}")
        for rec, i in zip(got, want):
            same_stored(o, rec, i, f"ds[{list(idx)}] record {i}")
    try:
        ds[[1, o.n]]
        fail(f"ds[[1, {o.n}]]: no IndexError")
    except IndexError:
        pass


@check
def iteration(o: Oracle):
    ds = tfr_cli.TFRecordDataset(o.shards)
    got = list(iter(ds))
    if len(got) != o.n:
        fail(f"iter: {len(got)} records, expected {o.n}")
    for i, rec in enumerate(got):
        same_stored(o, rec, i, f"iter record {i}")


def parsed_everywhere(o: Oracle, key: str, spec):
    ds = tfr_cli.TFRecordDataset(o.shards, spec=spec)
    for i in range(o.n):
        same_parsed(o, ds[i], key, i, f"spec {key}: ds[{i}]")
    for i, rec in enumerate(ds):
        same_parsed(o, rec, key, i, f"spec {key}: iter record {i}")


@check
def specs_as_tensorflow_parses(o: Oracle):
    for key in ("fixed", "defaults", "varlen", "nokind_var", "nokind_default"):
        parsed_everywhere(o, key, reader_spec(o.spec(key)["spec"]))


@check
def specs_as_tf_io_objects_and_numpy_dtypes(o: Oracle):
    for key in ("fixed", "varlen"):
        parsed_everywhere(o, key, tf_like_spec(o.spec(key)["spec"]))
    js = o.spec("fixed")["spec"]
    np_dtypes = {"int64": np.int64, "float32": np.float32, "string": "bytes"}
    spec = {k: tfr_cli.FixedLen(s["shape"], np_dtypes[s["dtype"]], default=unhex(s["default"])) for k, s in js.items()}
    parsed_everywhere(o, "fixed", spec)


@check
def spec_auto_is_tfr_schemas(o: Oracle):
    if "auto" not in o.exp:
        fail("expected.json has no spec=\"auto\" case (reader_make.py needs --tfr)")
    if o.exp["auto"]["failing"]:
        fail(f"TensorFlow refused records {o.exp['auto']['failing']} with tfr schema's spec")
    parsed_everywhere(o, "auto", "auto")


@check
def default_of_another_shape_refused(o: Oracle):
    # TensorFlow reshapes a FixedLen default to the shape: a scalar default
    # for shape [2, 3] is refused (reader_make.py records its message).
    refused = o.exp["spec_errors"]["scalar_default"]
    try:
        ds = tfr_cli.TFRecordDataset(o.shards, spec={"absent": tfr_cli.FixedLen([2, 3], "float32", default=1.5)})
        ds[3]
        fail(f"a scalar default for shape [2, 3] was taken; TensorFlow refuses it: {refused}")
    except ValueError as e:
        error_names(str(e), "absent")


def stacked_same(o: Oracle, key: str, batches, sizes: list, where: str):
    s = o.spec(key)
    names = list(s["spec"])
    i = 0
    if [len(b[names[0]]) for b in batches] != sizes:
        fail(f"{where}: batch sizes {[len(b[names[0]]) for b in batches]}, expected {sizes}")
    for b, n in zip(batches, sizes):
        if type(b) is not dict or list(b) != names:
            fail(f"{where}: batch keys {list(b) if isinstance(b, dict) else type(b)}, expected {names}")
        for name, js in s["spec"].items():
            col = b[name]
            rows = [s["results"][i + k]["ok"][name] for k in range(n)]
            numeric_fixed = js["kind"] == "fixed" and js["dtype"] != "string"
            if numeric_fixed:
                if not isinstance(col, np.ndarray) or col.shape != (n, *js["shape"]):
                    fail(f"{where} {name}: {short(col)}, expected an array of shape {(n, *js['shape'])}")
                for k in range(n):
                    same_value(o, col[k, ...], rows[k], f"{where} {name} row {k}")
            elif js["kind"] == "fixed" and js["shape"] and isinstance(col, np.ndarray):
                # FixedLen string of a shape: stacked, an object array (n, *shape).
                if col.dtype != object or col.shape != (n, *js["shape"]):
                    fail(f"{where} {name}: {col.dtype} {col.shape}, expected object {(n, *js['shape'])} or a list")
                for k in range(n):
                    same_value(o, col[k, ...], rows[k], f"{where} {name} row {k}")
            else:
                if type(col) is not list or len(col) != n:
                    fail(f"{where} {name}: a {type(col).__name__}, expected a list of {n}")
                for k in range(n):
                    same_value(o, col[k], rows[k], f"{where} {name} row {k}")
        i += n


@check
def batches(o: Oracle):
    for key in ("fixed", "varlen", "defaults"):
        ds = tfr_cli.TFRecordDataset(o.shards, spec=reader_spec(o.spec(key)["spec"]))
        stacked_same(o, key, list(ds.batch(16)), [16] * 7 + [8], f"spec {key}: batch(16)")
        stacked_same(o, key, list(ds.batch(16, drop_remainder=True)), [16] * 7, f"spec {key}: batch(16, drop_remainder)")
        stacked_same(o, key, list(ds.batch(120)), [120], f"spec {key}: batch(120)")
    ds = tfr_cli.TFRecordDataset(o.shards)
    n = 0
    for b in ds.batch(50):
        ids = b["id"]
        if type(ids) is not list:
            fail(f"spec=None batch: 'id' is a {type(ids).__name__}, expected a list of per-record arrays")
        for k, v in enumerate(ids):
            same_value(o, v, o.records[n + k]["stored"]["id"], f"spec=None batch: id row {k}")
        n += len(ids)
    if n != o.n:
        fail(f"spec=None batch(50): {n} records")


def flat_arrow(col):
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    while pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type) or pa.types.is_fixed_size_list(arr.type):
        arr = pc.list_flatten(arr)
    return arr


@check
def batches_as_arrow(o: Oracle):
    import pyarrow as pa

    for key in ("fixed", "varlen"):
        s = o.spec(key)
        ds = tfr_cli.TFRecordDataset(o.shards, spec=reader_spec(s["spec"]))
        i = 0
        for b in ds.batch(32, arrow=True):
            if not isinstance(b, pa.RecordBatch):
                fail(f"spec {key}: batch(arrow=True) gave a {type(b).__name__}, expected pyarrow.RecordBatch")
            if b.schema.names != list(s["spec"]):
                fail(f"spec {key}: arrow columns {b.schema.names}, expected {list(s['spec'])}")
            for name, js in s["spec"].items():
                col = b.column(name)
                for k in range(b.num_rows):
                    want = s["results"][i + k]["ok"][name]
                    got = flat_arrow(col.slice(k, 1))
                    where = f"spec {key}: arrow {name} row {i + k}"
                    if js["dtype"] == "string":
                        vals = [v if isinstance(v, bytes) else v.encode() for v in got.to_pylist()]
                        if vals != [o.blob(h) for h in want["hex"]]:
                            fail(f"{where}: {short(vals)}")
                    else:
                        a = got.to_numpy(zero_copy_only=False)
                        if a.dtype != np.dtype(js["dtype"]):
                            fail(f"{where}: arrow {got.type}, expected {js['dtype']}")
                        flat = a.view(np.uint32).tolist() if js["dtype"] == "float32" else a.tolist()
                        if flat != want.get("bits", want.get("values")):
                            fail(f"{where}: {short(a.tolist())}")
            i += b.num_rows
        if i != o.n:
            fail(f"spec {key}: arrow batches hold {i} rows, expected {o.n}")


@check
def raw_payloads(o: Oracle):
    from tfrecord.reader import tfrecord_iterator

    pkg = [bytes(r) for p in o.shards for r in tfrecord_iterator(p)]
    if pkg != o.payloads:
        fail("the tfrecord package and the framing reader disagree on the payloads")
    for files, what in ((o.shards, "plain"), (o.gzip, "gzip"), (o.zlib, "zlib")):
        ds = tfr_cli.TFRecordDataset(files, raw=True)
        if len(ds) != o.n:
            fail(f"raw {what}: len {len(ds)}")
        got = list(ds)
        if any(type(x) is not bytes for x in got) or got != o.payloads:
            fail(f"raw {what}: iter differs from the payloads")
        for i in random.Random(1).sample(range(o.n), 30):
            if ds[i] != o.payloads[i]:
                fail(f"raw {what}: ds[{i}] differs from the payload")


@check
def compressed_random_access(o: Oracle):
    order = list(range(o.n))
    random.Random(2).shuffle(order)
    order = [101, 0, 58, 17, 119, 16, 18, 57, 59, 100, 102] + order  # the 1.13 MiB records and their neighbours
    for files, comp, what in ((o.gzip, None, "gzip detected"), (o.gzip, "gzip", "gzip"),
                              (o.zlib, None, "zlib detected"), (o.zlib, "zlib", "zlib")):
        ds = tfr_cli.TFRecordDataset(files, compression=comp)
        if len(ds) != o.n:
            fail(f"{what}: len {len(ds)}")
        for i in order:
            same_stored(o, ds[i], i, f"{what}: ds[{i}]")
        for i, rec in enumerate(ds):
            same_stored(o, rec, i, f"{what}: iter record {i}")
    ds = tfr_cli.TFRecordDataset(o.gzip, spec=reader_spec(o.spec("fixed")["spec"]))
    for i in order[:40]:
        same_parsed(o, ds[i], "fixed", i, f"gzip spec fixed: ds[{i}]")
    ds = tfr_cli.TFRecordDataset(o.shards, compression="none")
    same_stored(o, ds[5], 5, "compression='none': ds[5]")


@check
def columns(o: Oracle):
    for cols in (["id"], ["id", "vec*", "ta*"], ["opt", "blob", "nokind"], ["name", "does-not-exist"]):
        ds = tfr_cli.TFRecordDataset(o.shards, columns=cols)
        keep = lambda k: any(fnmatch.fnmatchcase(k, c) for c in cols)  # noqa: E731
        for i in range(o.n):
            same_stored(o, ds[i], i, f"columns={cols}: ds[{i}]", keep)
    key = "fixed"
    ds = tfr_cli.TFRecordDataset(o.shards, columns=["id", "vec3"], spec=reader_spec(o.spec(key)["spec"]))
    rec = ds[9]
    if list(rec) != ["id", "vec3"]:
        fail(f"columns with a spec: features {list(rec)}, expected ['id', 'vec3']")
    same_value(o, rec["vec3"], o.spec(key)["results"][9]["ok"]["vec3"], "columns with a spec: vec3")


def tfr_run(o: Oracle, *args) -> str:
    r = subprocess.run([o.tfr, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"tfr {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


WHERE = ['label == 2', 'score > 0.5', 'has(opt) && label in [1, 3]', 'name ~ "^rec-1"', 'len(tags) >= 2',
         '!has(nokind) && mixed < 50', 'id >= 1000']


@check
def where_as_tfr(o: Oracle):
    for expr in WHERE:
        want_n = json.loads(tfr_run(o, "count", "--json", "--where", expr, *o.shards))["total"]
        want_ids = [json.loads(line)["id"][0] for line in tfr_run(o, "cat", "-f", "json", "--where", expr, *o.shards).splitlines()]
        if len(want_ids) != want_n:
            fail(f"tfr count and tfr cat disagree on {expr!r}")
        ds = tfr_cli.TFRecordDataset(o.shards, where=expr)
        if len(ds) != want_n:
            fail(f"where={expr!r}: len {len(ds)}, tfr count --where says {want_n}")
        got = list(ds)
        if ids_of(got) != want_ids:
            fail(f"where={expr!r}: ids {short(ids_of(got))}, tfr cat --where gives {short(want_ids)}")
        for k, i in enumerate(want_ids):
            same_stored(o, got[k], i, f"where={expr!r}: iter record {k}")
            if k % 5 == 0:
                same_stored(o, ds[k], i, f"where={expr!r}: ds[{k}]")
        if want_n:
            same_stored(o, ds[-1], want_ids[-1], f"where={expr!r}: ds[-1]")
        try:
            ds[want_n]
            fail(f"where={expr!r}: ds[{want_n}] (= len): no IndexError")
        except IndexError:
            pass
    expr = "label == 4"
    want_ids = [json.loads(line)["id"][0] for line in tfr_run(o, "cat", "-f", "json", "--where", expr, *o.gzip).splitlines()]
    ds = tfr_cli.TFRecordDataset(o.gzip, where=expr, spec=reader_spec(o.spec("fixed")["spec"]))
    if ids_of(ds) != want_ids:
        fail(f"where={expr!r} on gzip with a spec: ids differ from tfr cat --where")
    for k, i in enumerate(want_ids):
        same_parsed(o, ds[k], "fixed", i, f"where={expr!r} gzip: ds[{k}]")


def error_names(msg: str, *parts):
    for p in parts:
        if p not in msg:
            fail(f"the error does not name {p!r}: {msg}")


def refused_feature(tf_msg: str) -> str:
    # TensorFlow's "Key: ids_var.  ..." or "Feature: opt (data type: ...".
    for lead in ("Key: ", "Feature: "):
        if tf_msg.startswith(lead):
            return tf_msg[len(lead):].split()[0].rstrip(".")
    fail(f"unexpected TensorFlow message: {tf_msg}")


@check
def refused_like_tensorflow(o: Oracle):
    counts = o.exp["counts"]
    for key in ("refused_count", "refused_missing", "refused_mixed", "refused_dtype", "refused_vec"):
        s = o.spec(key)
        spec = reader_spec(s["spec"])
        for shard in (0, 1):
            path = o.shards[shard]
            base = sum(counts[:shard])
            ds = tfr_cli.TFRecordDataset(path, spec=spec)
            for k in range(counts[shard]):
                i = base + k
                res = s["results"][i]
                if "ok" in res:
                    same_parsed(o, ds[k], key, i, f"{key}: {Path(path).name} ds[{k}]")
                    continue
                try:
                    ds[k]
                    fail(f"{key}: record {k} of {Path(path).name} decoded; TensorFlow refuses it: {res['error']}")
                except tfr_cli.TFRecordError as e:
                    error_names(str(e), Path(path).name, f"record {k}", f"byte {o.framed[shard][k][1]}",
                                refused_feature(res["error"]))
        # Over all shards: the first refused record stops iteration, named by its file and number there.
        first = s["failing"][0] if s["failing"] else None
        ds = tfr_cli.TFRecordDataset(o.shards, spec=spec)
        seen = 0
        try:
            for _ in ds:
                seen += 1
            if first is not None:
                fail(f"{key}: iteration ended without an error; TensorFlow refuses record {first}")
        except tfr_cli.TFRecordError as e:
            shard = next(s_ for s_ in range(len(counts)) if first < sum(counts[:s_ + 1]))
            local = first - sum(counts[:shard])
            error_names(str(e), Path(o.shards[shard]).name, f"record {local}")
            # A reader that decodes ahead may stop before the records
            # ahead of the refused one; never after it.
            if seen > first:
                fail(f"{key}: {seen} records before the error, the refused one is {first}")
    if not issubclass(tfr_cli.TFRecordError, ValueError):
        fail("TFRecordError is not a ValueError")
    # A refused record in the middle of a batch.
    ds = tfr_cli.TFRecordDataset(o.shards, spec=reader_spec(o.spec("refused_missing")["spec"]))
    try:
        list(ds.batch(8))
        fail("refused_missing: batch(8) gave every batch")
    except tfr_cli.TFRecordError as e:
        error_names(str(e), Path(o.shards[0]).name, "record 0")


@check
def damage_named(o: Oracle):
    tmp = Path(tempfile.mkdtemp(prefix="reader-damage-"))
    try:
        bad = tmp / "damaged.tfrecord"
        data = bytearray(Path(o.shards[0]).read_bytes())
        k = 7
        payload, off = o.framed[0][k]
        data[off + 12 + len(payload) // 2] ^= 0x20
        bad.write_bytes(bytes(data))
        for raw in (False, True):
            try:
                ds = tfr_cli.TFRecordDataset(str(bad), raw=raw)
                got = [ds[i] for i in range(len(ds))]
                got += list(ds)
                fail(f"a flipped byte in record {k} (raw={raw}): no error")
            except tfr_cli.TFRecordError as e:
                error_names(str(e), bad.name, f"record {k}", f"byte {off}")
        ds = tfr_cli.TFRecordDataset(str(bad))
        for i in (0, 6, 8, 39):
            try:
                same_stored(o, ds[i], i, f"damaged file: intact record ds[{i}]")
            except tfr_cli.TFRecordError as e:
                # Acceptable only when the index was refused as a whole; say which.
                fail(f"damaged file: intact record {i} unreadable: {e}")
    finally:
        shutil.rmtree(tmp)


@check
def index_files(o: Oracle):
    tmp = Path(tempfile.mkdtemp(prefix="reader-index-"))
    try:
        idx = tmp / "idx"
        tfr_run(o, "index", "--out-dir", str(idx), *o.shards)
        made = sorted(p.name for p in idx.iterdir())
        if len(made) != len(o.shards):
            fail(f"tfr index wrote {made}")
        ds = tfr_cli.TFRecordDataset(o.shards, index=str(idx))
        for i in random.Random(3).sample(range(o.n), 40) + [0, o.n - 1]:
            same_stored(o, ds[i], i, f"index=tfr index's folder: ds[{i}]")
        # save_index into a folder: byte for byte tfr index's files.
        saved = tmp / "saved"
        saved.mkdir()
        paths = tfr_cli.TFRecordDataset(o.shards).save_index(str(saved))
        if sorted(Path(p).name for p in paths) != made:
            fail(f"save_index returned {paths}, tfr index wrote {made}")
        for name in made:
            if (saved / name).read_bytes() != (idx / name).read_bytes():
                fail(f"save_index's {name} differs from tfr index's")
        # Beside the inputs (folder=None), and used from there.
        copies = tmp / "copies"
        copies.mkdir()
        local = [str(copies / Path(p).name) for p in o.shards]
        for src, dst in zip(o.shards, local):
            shutil.copyfile(src, dst)
        paths = tfr_cli.TFRecordDataset(local).save_index()
        for p, name in zip(sorted(paths), made):
            if Path(p).parent != copies or Path(p).read_bytes() != (idx / name).read_bytes():
                fail(f"save_index() wrote {p}, not tfr index's {name} beside the input")
        ds = tfr_cli.TFRecordDataset(local)
        same_stored(o, ds[77], 77, "an index beside the inputs: ds[77]")
        # A stale index beside an input (another file's) is not used.
        shutil.copyfile(idx / made[1], copies / made[0])
        ds = tfr_cli.TFRecordDataset(local[0])
        if len(ds) != o.exp["counts"][0]:
            fail(f"a stale index beside the input: len {len(ds)}")
        for i in range(o.exp["counts"][0]):
            same_stored(o, ds[i], i, f"a stale index beside the input: ds[{i}]")
        # A truncated one neither.
        (copies / made[0]).write_bytes((idx / made[0]).read_bytes()[:40])
        ds = tfr_cli.TFRecordDataset(local[0])
        if len(ds) != o.exp["counts"][0]:
            fail(f"a truncated index beside the input: len {len(ds)}")
        same_stored(o, ds[39], 39, "a truncated index beside the input: ds[39]")
    finally:
        shutil.rmtree(tmp)


@check
def shuffled(o: Oracle):
    for files, what in ((o.shards, "plain"), (o.gzip, "gzip")):
        ds = tfr_cli.TFRecordDataset(files)
        a, b, c = (ids_of(ds.shuffled(s)) for s in (7, 7, 8))
        if sorted(a) != list(range(o.n)):
            fail(f"{what}: shuffled(7) is not a permutation: {short(a)}")
        if a == list(range(o.n)) or a == c:
            fail(f"{what}: shuffled(7) in order, or the same as shuffled(8)")
        if a != b:
            fail(f"{what}: shuffled(7) twice gave two orders")
        sh = ds.shuffled(7)
        if len(sh) != o.n:
            fail(f"{what}: len(shuffled) {len(sh)}")
        for k in (0, 1, 50, o.n - 1):
            same_stored(o, sh[k], a[k], f"{what}: shuffled(7)[{k}]")
        for buf in (1, 16, 1000):
            x = ids_of(ds.shuffled(3, buffer=buf))
            y = ids_of(ds.shuffled(3, buffer=buf))
            if sorted(x) != list(range(o.n)) or x != y:
                fail(f"{what}: shuffled(3, buffer={buf}): not a reproducible permutation")
            if buf > 1 and x == list(range(o.n)):
                fail(f"{what}: shuffled(3, buffer={buf}) left the order as it was")


@check
def shards_partition(o: Oracle):
    ds = tfr_cli.TFRecordDataset(o.shards)
    for world in (1, 2, 3, 7):
        seen = []
        for rank in range(world):
            part = ds.shard(rank, world)
            ids = ids_of(part)
            if ids != list(range(rank, o.n, world)) or len(part) != len(ids):
                fail(f"shard({rank}, {world}): {short(ids)}")
            if ids:
                same_stored(o, part[-1], ids[-1], f"shard({rank}, {world})[-1]")
            seen += ids
        if sorted(seen) != list(range(o.n)):
            fail(f"shard(*, {world}) do not partition the records")
    # pad=True: every share ceil(n / world) long, the first records again
    # at the end (DistributedSampler's padding).
    for world in (7, 11):
        parts = [ids_of(ds.shard(r, world, pad=True)) for r in range(world)]
        longest = -(-o.n // world)
        padded = (list(range(o.n)) * 2)[: longest * world]
        if any(len(p) != longest for p in parts) or parts != [padded[r::world] for r in range(world)]:
            fail(f"shard(*, {world}, pad=True): lengths {[len(p) for p in parts]}")
    order = ids_of(ds.shuffled(5))
    got = [ids_of(ds.shuffled(5).shard(r, 2)) for r in range(2)]
    if got != [order[0::2], order[1::2]]:
        fail("shuffled(5).shard(r, 2): not the shuffled order dealt out")


@check
def pickling(o: Oracle):
    spec = reader_spec(o.spec("fixed")["spec"])
    for ds, key in ((tfr_cli.TFRecordDataset(o.shards, spec=spec), "fixed"),
                    (tfr_cli.TFRecordDataset(o.gzip, spec=spec, where="label == 1"), "fixed"),
                    (tfr_cli.TFRecordDataset(o.shards).shuffled(4), None),
                    (tfr_cli.TFRecordDataset(o.zlib).shard(1, 3), None)):
        back = pickle.loads(pickle.dumps(ds))
        if len(back) != len(ds):
            fail(f"pickled: len {len(back)}, was {len(ds)}")
        want = ids_of(ds)
        if ids_of(back) != want:
            fail("pickled: another order of records")
        for k in range(0, len(back), 9):
            if key:
                same_parsed(o, back[k], key, want[k], f"pickled ds[{k}]")
            else:
                same_stored(o, back[k], want[k], f"pickled ds[{k}]")


@check
def sequence_examples(o: Oracle):
    seq = o.exp["seq"]
    ds = tfr_cli.TFRecordDataset(str(o.dir / seq["file"]))
    if len(ds) != len(seq["records"]):
        fail(f"SequenceExample file: len {len(ds)}")
    for i, (rec, want) in enumerate(zip(ds, seq["records"])):
        where = f"SequenceExample record {i}"
        if type(rec) is not dict or list(rec) != ["context", "feature_lists"]:
            fail(f"{where}: {short(rec)}, expected {{'context': ..., 'feature_lists': ...}}")
        same_record(o, rec["context"], want["context_order"], want["context"], f"{where} context")
        fl = rec["feature_lists"]
        if type(fl) is not dict or list(fl) != want["feature_lists_order"]:
            fail(f"{where}: feature lists {short(fl)}, expected {want['feature_lists_order']}")
        for name, steps in want["feature_lists"].items():
            if type(fl[name]) is not list or len(fl[name]) != len(steps):
                fail(f"{where} {name}: {short(fl[name])}, expected a list of {len(steps)} steps")
            for t, step in enumerate(steps):
                same_value(o, fl[name][t], step, f"{where} {name} step {t}")


# ---------------------------------------------------- torch and grain

TORCH_SPEC = {"id": ("fixed", [], "int64"), "vec3": ("fixed", [3], "float32"), "name": ("fixed", [], "string")}


def loader_spec():
    return {k: tfr_cli.FixedLen(shape, dtype) for k, (_, shape, dtype) in TORCH_SPEC.items()}


class Streamed(torch.utils.data.IterableDataset):
    """The iterable form: a torch IterableDataset over iter(ds) (in a
    worker, iter(ds) yields that worker's share); with_worker: each
    record comes with the id of the worker that read it."""

    def __init__(self, ds, with_worker=False):
        self.ds, self.with_worker = ds, with_worker

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        for rec in self.ds:
            yield (info.id if info else -1, rec) if self.with_worker else rec


def loader_ids(o: Oracle, batches, where: str) -> list:
    ids = []
    for b in batches:
        if not isinstance(b["id"], torch.Tensor) or b["id"].dtype != torch.int64:
            fail(f"{where}: batch 'id' is {short(b['id'])}, expected an int64 tensor")
        if tuple(b["vec3"].shape) != (len(b["id"]), 3) or b["vec3"].dtype != torch.float32:
            fail(f"{where}: batch 'vec3' shape {tuple(b['vec3'].shape)} {b['vec3'].dtype}")
        for k, i in enumerate(b["id"].tolist()):
            want = o.spec("fixed")["results"][i]["ok"]
            same_value(o, b["vec3"][k].numpy(), want["vec3"], f"{where}: vec3 of record {i}")
            if b["name"][k] != o.blob(want["name"]["hex"][0]):
                fail(f"{where}: name of record {i}: {short(b['name'][k])}")
            ids.append(i)
    return ids


def once_each(o: Oracle, ids: list, where: str, n=None):
    n = o.n if n is None else n
    if sorted(ids) != list(range(n)):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        fail(f"{where}: {len(ids)} records, duplicates {short(dup)}, missing {short(sorted(set(range(n)) - set(ids)))}")


@check
def torch_dataloader_map_style(o: Oracle):
    from torch.utils.data import DataLoader

    ds = tfr_cli.TFRecordDataset(o.shards, spec=loader_spec())
    for ctx in (None, "spawn"):
        dl = DataLoader(ds, batch_size=8, num_workers=2, shuffle=True, multiprocessing_context=ctx)
        ids = loader_ids(o, dl, f"DataLoader(shuffle=True, num_workers=2, {ctx or 'fork'})")
        once_each(o, ids, f"DataLoader(shuffle=True, num_workers=2, {ctx or 'fork'})")
        if ids == list(range(o.n)):
            fail("DataLoader(shuffle=True): records in file order")
    gz = tfr_cli.TFRecordDataset(o.gzip, spec=loader_spec())
    ids = loader_ids(o, DataLoader(gz, batch_size=8, num_workers=2, shuffle=True), "DataLoader on gzip inputs")
    once_each(o, ids, "DataLoader on gzip inputs")


@check
def torch_dataloader_iterable(o: Oracle):
    from torch.utils.data import DataLoader

    for files, what in ((o.shards, "plain"), (o.gzip, "gzip")):
        ds = tfr_cli.TFRecordDataset(files, spec=loader_spec())
        ids = loader_ids(o, DataLoader(Streamed(ds), batch_size=8, num_workers=2), f"iterable {what}, 2 workers")
        once_each(o, ids, f"iterable {what}, 2 workers")
        # The reader's own IterableDataset, into spawned workers too (it pickles).
        for ctx in (None, "spawn"):
            dl = DataLoader(ds.iterable(), batch_size=8, num_workers=2, multiprocessing_context=ctx)
            once_each(o, loader_ids(o, dl, f"ds.iterable() {what}, {ctx or 'fork'}"), f"ds.iterable() {what}, {ctx or 'fork'}")
        # Each worker's share is contiguous: worker 0 the first part.
        shares = {}
        for w, rec in DataLoader(Streamed(ds, True), batch_size=None, num_workers=2):
            shares.setdefault(int(w), []).append(int(rec["id"]))
        if sorted(shares) != [0, 1] or shares[0] + shares[1] != list(range(o.n)):
            fail(f"iterable {what}: worker shares {[(w, short(v, 40)) for w, v in sorted(shares.items())]}")
        for seed_ds, label in ((ds.shuffled(11), "shuffled(11)"), (ds.shuffled(11, buffer=32), "shuffled(11, buffer=32)"),
                               (ds.shard(1, 2), "shard(1, 2)")):
            ids = loader_ids(o, DataLoader(Streamed(seed_ds), batch_size=8, num_workers=2), f"iterable {what} {label}")
            want = ids_of(seed_ds)
            if sorted(ids) != sorted(want) or len(ids) != len(set(ids)):
                fail(f"iterable {what} {label}: not each record once: {short(sorted(ids))}")


@check
def grain_sources(o: Oracle):
    import grain
    from absl import flags

    # grain 0.2.18 with jax installed reads an absl flag in its DataLoader
    # before any parse (google/grain#1355, fixed after 0.2.18).
    flags.FLAGS.mark_as_parsed()
    spec = {"id": tfr_cli.FixedLen([], "int64"), "vec3": tfr_cli.FixedLen([3], "float32")}
    ds = tfr_cli.TFRecordDataset(o.shards, spec=spec)
    ids = []
    for b in grain.MapDataset.source(ds).shuffle(seed=1).batch(8):
        if b["id"].shape[0] != b["vec3"].shape[0] or b["vec3"].shape[1:] != (3,):
            fail(f"grain MapDataset batch shapes {b['id'].shape} {b['vec3'].shape}")
        for k, i in enumerate(b["id"].tolist()):
            same_value(o, b["vec3"][k], o.spec("fixed")["results"][i]["ok"]["vec3"], f"grain MapDataset record {i}")
        ids += b["id"].tolist()
    once_each(o, ids, "grain MapDataset.source(ds).shuffle(seed=1).batch(8)")
    if ids == list(range(o.n)):
        fail("grain shuffle: records in file order")
    sampler = grain.samplers.IndexSampler(num_records=len(ds), shard_options=grain.sharding.NoSharding(),
                                          shuffle=True, num_epochs=1, seed=1)
    dl = grain.DataLoader(data_source=ds, sampler=sampler, operations=[grain.transforms.Batch(batch_size=8)],
                          worker_count=2)
    ids = [int(i) for b in dl for i in b["id"]]
    once_each(o, ids, "grain DataLoader(worker_count=2)")
    it = (grain.MapDataset.source(tfr_cli.TFRecordDataset(o.gzip, spec=spec)).shuffle(seed=2).to_iter_dataset()
          .batch(8).mp_prefetch(grain.MultiprocessingOptions(num_workers=2)))
    ids = [int(i) for b in it for i in b["id"]]
    once_each(o, ids, "grain mp_prefetch(num_workers=2) on gzip inputs")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("tfr")
    ap.add_argument("--only", help="only the checks whose name contains this")
    ap.add_argument("--keep-going", action="store_true", help="run every check, then exit 1 if any failed")
    args = ap.parse_args()
    o = Oracle(args.outdir.resolve(), args.tfr)
    ran, failed = 0, 0
    for fn in CHECKS:
        if args.only and args.only not in fn.__name__:
            continue
        try:
            fn(o)
        except CheckFailed as e:
            print(f"FAIL {fn.__name__}: {e}", flush=True)
            failed += 1
        except Exception as e:  # noqa: BLE001 - any other exception is a failure of the reader, said in one line
            tb = traceback.extract_tb(e.__traceback__)[-1]
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e} (at {Path(tb.filename).name}:{tb.lineno})", flush=True)
            failed += 1
        else:
            print(f"ok {fn.__name__}", flush=True)
            ran += 1
            continue
        if not args.keep_going:
            sys.exit(1)
    if failed:
        print(f"{failed} checks failed, {ran} passed")
        sys.exit(1)
    print(f"all checks passed ({ran})")


if __name__ == "__main__":
    main()

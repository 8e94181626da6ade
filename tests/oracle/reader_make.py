#!/usr/bin/env python3
"""The oracle side of the Python reader's tests (issue 48): TensorFlow
writes the TFRecord files and says what tf.io.parse_single_example /
tf.io.parse_example return for them; tests/python/reader_check.py then
compares tfr_cli.TFRecordDataset with that.

    target/venv-tf/bin/python tests/oracle/reader_make.py OUTDIR [--tfr PATH]

Writes into OUTDIR (about 5 MB, made at test time, not committed):
- ex-0000K-of-00003.tfrecord: 3 shards of 40 tf.train.Example records
  each (120 in all; feature `id` is the record's number over the shards),
  written by tf.io.TFRecordWriter; the same records GZIP-compressed
  (gzip/ex-*.tfrecord.gz) and ZLIB-compressed (zlib/ex-*.tfrecord), by
  TFRecordWriter with TFRecordOptions;
- seq.tfrecord: 12 tf.train.SequenceExample records;
- expected.json (and blobs.npz for bytes values over 4 KiB): for every
  record its features as stored, in the record's order; and for each of
  several parse specs what parse_single_example returned for each record,
  or its error message where TensorFlow refused it (wrong value count for
  a FixedLenFeature, a missing feature without default, a kind that is not
  the spec's). With --tfr, also `tfr schema --format tf` of the shards,
  executed here into TensorFlow's feature description and applied to
  every record (the spec="auto" case).

Features of record i (their order in the payload differs between records:
each payload is the concatenation of one-feature Example messages, which
protobuf parsing merges, so the record's own order is known):
id int64 [i]; label int64 [i % 5]; score float [x] (NaN, -0.0, +-inf and a
subnormal among them); name bytes [one value] (some not UTF-8, some empty); tags
(values with trailing NUL bytes among them);
vec3 float [3]; mat int64 [4] (+-2**62 among them); tags bytes [0..4];
ids_var int64 [0..3]; weights float [0..5]; opt int64 (missing when
i % 3 == 0); opt_vec float [3] (missing when i % 4 == 0); mixed int64 when
i is even, float when odd; blob bytes [one value], 1.13 MiB in records
17, 58 and 101 (a record past gzip's seek checkpoints); nokind, a feature
with no kind set, in records i % 10 == 0.

Value encoding in expected.json: {"dtype": "int64", "shape": [...],
"values": [...]}, {"dtype": "float32", "shape": [...], "bits": [uint32
...]} (bitwise), {"dtype": "bytes", "shape": [...], "hex": [...]} or
{"dtype": "bytes", "shape": [...], "npz": [key or hex ...]} for large
values; "list": true where the value is a Python list of bytes (as stored,
VarLen string) rather than bytes (FixedLen shape []) or an object array;
null for a feature with no kind.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

SHARDS = 3
PER_SHARD = 40
BIG = {17, 58, 101}
SEQ_RECORDS = 12
BLOB_LIMIT = 4096

BLOBS: dict = {}


def hexes(values):
    """Bytes values: hex strings, or npz keys (prefixed "npz:") for large ones."""
    out = []
    for v in values:
        v = bytes(v)
        if len(v) > BLOB_LIMIT:
            key = "b" + hashlib.sha256(v).hexdigest()[:16]
            BLOBS[key] = np.frombuffer(v, np.uint8)
            out.append("npz:" + key)
        else:
            out.append(v.hex())
    return out


def enc_array(a, as_list=False):
    """A numpy value (or bytes, or a list of bytes) as JSON."""
    if isinstance(a, (bytes, np.bytes_)):
        return {"dtype": "bytes", "shape": [], "hex": hexes([a])}
    a = np.asarray(a)
    if a.dtype == np.int64:
        return {"dtype": "int64", "shape": list(a.shape), "values": [int(x) for x in a.reshape(-1)]}
    if a.dtype == np.float32:
        return {"dtype": "float32", "shape": list(a.shape), "bits": [int(x) for x in a.reshape(-1).view(np.uint32)]}
    if a.dtype == object or a.dtype.kind == "S":
        out = {"dtype": "bytes", "shape": list(a.shape), "hex": hexes(a.reshape(-1))}
        if as_list:
            out["list"] = True
        return out
    raise TypeError(f"unexpected dtype {a.dtype}")


def enc_feature(f: tf.train.Feature):
    """A feature as stored: int64 -> 1-D int64, float -> 1-D float32, bytes -> list, no kind -> None."""
    kind = f.WhichOneof("kind")
    if kind is None:
        return None
    if kind == "int64_list":
        return enc_array(np.array(f.int64_list.value, np.int64))
    if kind == "float_list":
        return enc_array(np.array(f.float_list.value, np.float32))
    return {"dtype": "bytes", "shape": [len(f.bytes_list.value)], "hex": hexes(f.bytes_list.value), "list": True}


def i64(v):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=v))


def f32(v):
    return tf.train.Feature(float_list=tf.train.FloatList(value=v))


def byt(v):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))


SPECIAL_SCORES = {3: float("nan"), 5: -0.0, 7: float("inf"), 9: float("-inf"), 11: 1e-45}


def features_of(i: int, rng: np.random.Generator) -> list:
    """Record i's features, in the order they are written."""
    score = SPECIAL_SCORES.get(i % 17, float(np.float32(rng.normal())))
    if i % 13 == 0:
        name = b""
    elif i % 7 == 0:
        name = b"\xff\xfe\x00bin" + str(i).encode()
    else:
        name = f"rec-{i} \u00e9t\u00e9".encode()
    tag_pool = [b"cat", b"dog", "\u00fcber".encode(), b"\x80\x81", b"", b"nul\x00", b"\x00"]
    n_tags = int(rng.integers(0, 5))
    big = 1 << 62
    feats = [
        ("id", i64([i])),
        ("label", i64([i % 5])),
        ("score", f32([score])),
        ("name", byt([name])),
        ("vec3", f32([float(x) for x in rng.normal(size=3).astype(np.float32)])),
        ("mat", i64([i, -i, big if i % 2 else -big, (1 << 63) - 1 if i % 5 == 0 else i * 1000])),
        ("tags", byt([tag_pool[int(k)] for k in rng.integers(0, len(tag_pool), size=n_tags)])),
        ("ids_var", i64([int(x) for x in rng.integers(-5, 5, size=(2 if i % 2 == 0 else int(rng.integers(0, 4))))])),
        ("weights", f32([float(x) for x in rng.random(size=int(rng.integers(0, 6))).astype(np.float32)])),
        ("mixed", i64([i]) if i % 2 == 0 else f32([i + 0.5])),
    ]
    if i % 3 != 0:
        feats.append(("opt", i64([i * 10])))
    if i % 4 != 0:
        feats.append(("opt_vec", f32([i, i + 0.25, i + 0.5])))
    if i % 10 == 0:
        feats.append(("nokind", tf.train.Feature()))
    if i in BIG:
        # 1.13 MiB: 256 KiB random (incompressible), then a pattern.
        half = rng.integers(0, 256, size=256 * 1024, dtype=np.uint8).tobytes()
        blob = half + bytes(range(256)) * 3600
    else:
        blob = rng.integers(0, 256, size=int(rng.integers(0, 200)), dtype=np.uint8).tobytes()
    feats.append(("blob", byt([blob])))
    order = rng.permutation(len(feats))
    return [feats[k] for k in order]


def payload(feats) -> bytes:
    """Example payload whose map entries come in this order: one-feature
    Example messages end to end (protobuf merges them into one)."""
    return b"".join(tf.train.Example(features=tf.train.Features(feature={k: f})).SerializeToString() for k, f in feats)


def hex_leaves(x):
    """A default value as JSON: bytes as {"hex": ...}, nested lists kept."""
    if isinstance(x, list):
        return [hex_leaves(y) for y in x]
    return {"hex": x.hex()} if isinstance(x, bytes) else x


def spec_json(spec: dict) -> dict:
    out = {}
    for name, s in spec.items():
        if isinstance(s, tf.io.VarLenFeature):
            out[name] = {"kind": "var", "dtype": s.dtype.name}
        else:
            d = s.default_value
            if d is not None:
                # object, not numpy's S dtype, which drops trailing NUL bytes
                d = np.asarray(d, dtype=object if s.dtype == tf.string else None).tolist()
                d = [hex_leaves(x) for x in d] if isinstance(d, list) else hex_leaves(d)
            out[name] = {"kind": "fixed", "shape": list(s.shape), "dtype": s.dtype.name, "default": d}
    return out


SPECS = {
    "fixed": {
        "id": tf.io.FixedLenFeature([], tf.int64),
        "label": tf.io.FixedLenFeature([], tf.int64),
        "score": tf.io.FixedLenFeature([], tf.float32),
        "name": tf.io.FixedLenFeature([], tf.string),
        "vec3": tf.io.FixedLenFeature([3], tf.float32),
        "mat": tf.io.FixedLenFeature([2, 2], tf.int64),
        "blob": tf.io.FixedLenFeature([], tf.string),
        "tags1": tf.io.FixedLenFeature([1], tf.string, default_value=[b"none"]),
    },
    "defaults": {
        "opt_vec": tf.io.FixedLenFeature([3], tf.float32, default_value=[0.5, -1.5, 2.25]),
        "opt": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
        "absent": tf.io.FixedLenFeature([], tf.string, default_value=b"\xffnone"),
        "absent22": tf.io.FixedLenFeature([2, 2], tf.int64, default_value=[[1, 2], [3, 4]]),
        "id": tf.io.FixedLenFeature([1], tf.int64, default_value=[0]),
        "name3": tf.io.FixedLenFeature([3], tf.string, default_value=[b"a", b"\x00", b""]),
    },
    "varlen": {
        "tags": tf.io.VarLenFeature(tf.string),
        "ids_var": tf.io.VarLenFeature(tf.int64),
        "weights": tf.io.VarLenFeature(tf.float32),
        "opt": tf.io.VarLenFeature(tf.int64),
        "score": tf.io.VarLenFeature(tf.float32),
        "name": tf.io.VarLenFeature(tf.string),
        "absent": tf.io.VarLenFeature(tf.float32),
        "id": tf.io.VarLenFeature(tf.int64),
    },
    "nokind_var": {"id": tf.io.FixedLenFeature([], tf.int64), "nokind": tf.io.VarLenFeature(tf.int64)},
    "nokind_default": {"id": tf.io.FixedLenFeature([], tf.int64),
                       "nokind": tf.io.FixedLenFeature([], tf.float32, default_value=7.5)},
    # Refused by TensorFlow for some records (the record numbers are in
    # the results: those with "error").
    "refused_count": {"id": tf.io.FixedLenFeature([], tf.int64), "ids_var": tf.io.FixedLenFeature([2], tf.int64)},
    "refused_missing": {"id": tf.io.FixedLenFeature([], tf.int64), "opt": tf.io.FixedLenFeature([], tf.int64)},
    "refused_mixed": {"id": tf.io.FixedLenFeature([], tf.int64), "mixed": tf.io.VarLenFeature(tf.int64)},
    "refused_dtype": {"label": tf.io.FixedLenFeature([], tf.float32)},
    "refused_vec": {"vec3": tf.io.FixedLenFeature([2], tf.float32, default_value=[0.0, 0.0])},
}


def parse_all(payloads: list, spec: dict) -> list:
    """parse_single_example of every payload: {"ok": {name: value}} or {"error": message}."""
    results = []
    for p in payloads:
        try:
            parsed = tf.io.parse_single_example(p, spec)
        except tf.errors.InvalidArgumentError as e:
            # Without the op's decoration: "Key: ids_var.  Can't parse ...".
            msg = re.sub(r"\{\{function_node [^}]*\}\}\s*|\s*\[Op:\w+\]", "", e.message.splitlines()[0])
            results.append({"error": msg})
            continue
        out = {}
        for name in spec:
            v = parsed[name]
            if isinstance(v, tf.SparseTensor):
                vals = v.values.numpy()
                out[name] = enc_array(vals, as_list=True) if v.dtype == tf.string else enc_array(vals)
            else:
                out[name] = enc_array(v.numpy())
        results.append({"ok": out})
    return results


def batch_agrees(payloads: list, spec: dict, results: list) -> None:
    """tf.io.parse_example of the records parse_single_example accepted
    gives the same values, stacked (the oracle checked against itself)."""
    good = [p for p, r in zip(payloads, results) if "ok" in r]
    oks = [r["ok"] for r in results if "ok" in r]
    if not good:
        return
    parsed = tf.io.parse_example(tf.constant(good), spec)
    for name, s in spec.items():
        v = parsed[name]
        if isinstance(v, tf.SparseTensor):
            rows = tf.sparse.to_dense(v, default_value=b"" if v.dtype == tf.string else 0).numpy()
            for k, r in enumerate(oks):
                n = r[name]["shape"][0]
                got = enc_array(rows[k][:n], as_list=v.dtype == tf.string)
                assert got == r[name], (name, k, got, r[name])
        else:
            arr = v.numpy()
            for k, r in enumerate(oks):
                got = enc_array(arr[k])
                assert got == r[name], (name, k, got, r[name])


def write(path: Path, payloads: list, compression: str = "") -> None:
    with tf.io.TFRecordWriter(str(path), options=tf.io.TFRecordOptions(compression_type=compression)) as w:
        for p in payloads:
            w.write(p)


def sequence_records(rng: np.random.Generator) -> tuple:
    """SequenceExample payloads and their content as stored."""
    payloads, stored = [], []
    for i in range(SEQ_RECORDS):
        ctx = [("id", i64([1000 + i])), ("label", byt([f"seq {i}".encode()])), ("w", f32([i / 4]))]
        ctx = [ctx[k] for k in rng.permutation(len(ctx))]
        steps = i % 4  # 0 .. 3 steps
        lists = [
            ("tokens", [i64([int(x) for x in rng.integers(0, 100, size=int(rng.integers(0, 4)))]) for _ in range(steps)]),
            ("frames", [f32([float(x) for x in rng.normal(size=2).astype(np.float32)]) for _ in range(steps)]),
        ]
        if i % 3 == 0:
            lists.append(("words", [byt([b"w%d" % s, b"\xfe"]) for s in range(steps)]))
        lists = [lists[k] for k in rng.permutation(len(lists))]
        parts = [tf.train.SequenceExample(context=tf.train.Features(feature={k: f})).SerializeToString() for k, f in ctx]
        parts += [tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(
            feature_list={k: tf.train.FeatureList(feature=fs)})).SerializeToString() for k, fs in lists]
        p = b"".join(parts)
        # What TensorFlow's protobuf reads back from the payload.
        back = tf.train.SequenceExample.FromString(p)
        stored.append({
            "context_order": [k for k, _ in ctx],
            "context": {k: enc_feature(back.context.feature[k]) for k, _ in ctx},
            "feature_lists_order": [k for k, _ in lists],
            "feature_lists": {k: [enc_feature(f) for f in back.feature_lists.feature_list[k].feature] for k, _ in lists},
        })
        payloads.append(p)
    return payloads, stored


def auto_spec(tfr: str, files: list) -> tuple:
    """`tfr schema --format tf` of the files, executed by Python with
    TensorFlow: its text and its feature_description."""
    text = subprocess.run([tfr, "schema", "--format", "tf", *files], check=True, capture_output=True, text=True).stdout
    scope: dict = {}
    exec(compile(text, "tfr-schema-spec.py", "exec"), scope)
    return text, scope["feature_description"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--tfr", help="the tfr binary: also the spec=\"auto\" case (tfr schema --format tf)")
    args = ap.parse_args()
    out = args.outdir
    for sub in ("", "gzip", "zlib"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(48)

    payloads, stored, names = [], [], []
    for s in range(SHARDS):
        shard = []
        for j in range(PER_SHARD):
            i = s * PER_SHARD + j
            feats = features_of(i, rng)
            p = payload(feats)
            back = tf.train.Example.FromString(p)
            assert [k for k, _ in feats] and set(back.features.feature) == {k for k, _ in feats}
            stored.append({"order": [k for k, _ in feats],
                           "stored": {k: enc_feature(back.features.feature[k]) for k, _ in feats}})
            shard.append(p)
        name = f"ex-{s:05}-of-{SHARDS:05}.tfrecord"
        write(out / name, shard)
        write(out / "gzip" / (name + ".gz"), shard, "GZIP")
        write(out / "zlib" / name, shard, "ZLIB")
        names.append(name)
        payloads += shard

    specs = {}
    for key, spec in SPECS.items():
        results = parse_all(payloads, spec)
        batch_agrees(payloads, spec, results)
        specs[key] = {"spec": spec_json(spec), "results": results,
                      "failing": [i for i, r in enumerate(results) if "error" in r]}
    assert specs["refused_count"]["failing"] and len(specs["refused_count"]["failing"]) < len(payloads)
    assert specs["refused_missing"]["failing"] == [i for i in range(len(payloads)) if i % 3 == 0]
    assert specs["refused_mixed"]["failing"] == [i for i in range(len(payloads)) if i % 2 == 1]
    assert len(specs["refused_dtype"]["failing"]) == len(payloads)
    for key in ("fixed", "defaults", "varlen"):
        assert not specs[key]["failing"], (key, specs[key]["results"][specs[key]["failing"][0]])

    doc = {
        "shards": names, "gzip": [f"gzip/{n}.gz" for n in names], "zlib": [f"zlib/{n}" for n in names],
        "counts": [PER_SHARD] * SHARDS, "records": stored, "specs": specs,
        "tensorflow": tf.__version__,
    }
    if args.tfr:
        text, spec = auto_spec(args.tfr, [str(out / n) for n in names])
        results = parse_all(payloads, spec)
        doc["auto"] = {"text": text, "spec": spec_json(spec), "results": results,
                       "failing": [i for i, r in enumerate(results) if "error" in r]}

    # A default TensorFlow cannot reshape to the feature's shape.
    try:
        tf.io.parse_single_example(payloads[3], {"absent": tf.io.FixedLenFeature([2, 3], tf.float32, default_value=1.5)})
        raise AssertionError("TensorFlow took a scalar default for shape [2, 3]")
    except tf.errors.InvalidArgumentError as e:
        doc["spec_errors"] = {"scalar_default": re.sub(r"\{\{function_node [^}]*\}\}\s*|\s*\[Op:\w+\]", "", e.message)}

    seq_payloads, seq_stored = sequence_records(rng)
    write(out / "seq.tfrecord", seq_payloads)
    doc["seq"] = {"file": "seq.tfrecord", "records": seq_stored}

    np.savez_compressed(out / "blobs.npz", **BLOBS)
    (out / "expected.json").write_text(json.dumps(doc))
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(json.dumps({"records": len(payloads), "seq_records": len(seq_payloads), "bytes": total,
                      "failing": {k: len(v["failing"]) for k, v in specs.items()}}))


if __name__ == "__main__":
    main()

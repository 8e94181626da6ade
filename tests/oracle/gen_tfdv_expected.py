#!/usr/bin/env python3
"""Writes tests/data/tfdv/NAME.schema.pbtxt: what TFDV 1.16.1's
tfdv.infer_schema infers from tfdv.generate_statistics_from_tfrecord on each
fixture below, its features and string domains sorted by name (TFDV's own order follows its
decoder's map iteration). tests/cli/stats.rs checks that
`tfr schema -f tfdv-schema` prints exactly these.

With `--issue28`, writes instead the small datasets of issue 28 into
tests/data/tfdv/issue28/ (written here with TensorFlow, or byte by byte
where TensorFlow cannot write them) with what TFDV 1.16.1 says of each:
NAME.tfrecord, NAME.stats.pbtxt (generate_statistics_from_tfrecord: the
one dataset, its name cleared, features sorted by name) and, for some,
NAME.schema.pbtxt (infer_schema). tests/cli/stats.rs holds
`tfr stats -f tfdv-stats-text` and `tfr schema -f tfdv-schema` to them
(tests/oracle/tfdv_check.py runs the same cases against TFDV itself).

With `--issue47`, the same for the cases of issue 47 into
tests/data/tfdv/issue47/ (NAME.tfrecord.gz, GZIP as TFDV reads it by its
name): long, nearly all-distinct text and blobs (past tfr's exact top-value
bounds), and Examples whose unknown field 2 does not read as FeatureLists
in a file whose first record's does.

Run with the TFDV venv (see ../shared/oracles.md):
    .venv-tfdv/bin/python tests/oracle/gen_tfdv_expected.py [--issue28 | --issue47]
"""
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# This folder holds snappy.py (an oracle script), which would shadow the
# python-snappy module TFDV's dependencies import.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import tensorflow_data_validation as tfdv  # noqa: E402
from google.protobuf import text_format  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ["notebook.tfrecord", "images.tfrecord", "edge.tfrecord", "sequence.tfrecord"]


def ld(field, payload):
    """A length-delimited protobuf field."""
    n, size = len(payload), b""
    while n >= 0x80:
        size += bytes([n & 0x7F | 0x80])
        n >>= 7
    return bytes([field << 3 | 2]) + size + bytes([n]) + payload


def example(**features):
    """A serialized tf.train.Example: name=("i"|"f"|"b", values), or None for
    an empty Feature {} (no kind set)."""
    import tensorflow as tf
    e = tf.train.Example()
    for k, v in features.items():
        f = e.features.feature[k]
        if v is None:
            f.SetInParent()
            continue
        kind, vals = v
        if kind == "i":
            f.int64_list.value.extend(vals)
        elif kind == "f":
            f.float_list.value.extend(vals)
        else:
            f.bytes_list.value.extend([x if isinstance(x, bytes) else x.encode() for x in vals])
    return e.SerializeToString()


def issue28_cases():
    """name -> (records, infer a schema too). One case per item of issue 28."""
    import tensorflow as tf
    inf, nan = float("inf"), float("nan")
    seven = tf.train.Feature(int64_list=tf.train.Int64List(value=[7])).SerializeToString()
    # A map entry carrying field 3 (C++ protobuf keeps the feature).
    odd_entry = ld(1, ld(1, ld(1, b"a") + ld(2, seven) + b"\x18\x05") + ld(1, ld(1, b"b") + ld(2, seven)))
    long_a = "L" * 300 + "\u00e9" * 10
    long_b = "M" * 257
    return {
        # 1: string values longer than 256 bytes, in a string domain.
        "long_strings": ([example(s=("b", [long_a if i % 3 else long_b])) for i in range(9)]
                         + [example(s=("b", ["short"]))], True),
        # 2: a feature only as an empty Feature {} in every record.
        "empty_feature": ([example(x=("i", [1]), y=None) for _ in range(5)], False),
        # 3: values on the standard histogram's bucket bounds.
        "bounds": ([example(x=("f", [v])) for v in [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]], False),
        # 4: ties in the quantile and num_values histograms; a feature empty
        #    in every record (no kind, and an empty list).
        "ties": ([example(x=("f", [v]), n=("i", [1] * (1 + (i % 3 == 0))), e=("i", []), k=None)
                  for i, v in enumerate([1, 1, 1, 1, 1, 2, 3, 4, 5, 6])], False),
        # 5: 2,001 distinct values, each once.
        "distinct_2001": ([example(s=("b", ["v%05d" % i])) for i in range(2001)], True),
        # 6: quantile ranks that floating point puts below an integer.
        "ranks_360": ([example(x=("i", [i])) for i in range(360)], False),
        # 7: infinities (a: -inf twice; b: 1, 2, inf, NaN).
        "infinities": ([example(a=("f", [-inf]), b=("f", [1.0])), example(a=("f", [-inf]), b=("f", [2.0])),
                        example(b=("f", [inf])), example(b=("f", [nan]))], False),
        # 8: a map entry with an unknown field; Examples carrying field 2.
        "map_entry_unknown": ([example(a=("i", [1]), b=("i", [2])) for _ in range(10)] + [odd_entry], False),
        "example_field2": ([example(a=("i", [i])) + ld(2, b"hello") for i in range(3)], False),
    }


def issue47_cases():
    """name -> (records, infer a schema too). Issue 47's last TFDV fields."""
    # (a) 15,000 comments of about 330 bytes (5 MB of distinct text, past
    # tfr's exact 4 MiB; 15,000 distinct values, under its exact distinct
    # count), and 1,500 short values that sort after them, all distinct
    # (TFDV lists the largest, once each); blobs that are not UTF-8, all
    # distinct.
    comments = []
    for i in range(15000):
        c = "comment %05d: " % ((i * 7919) % 15000) + "the quick brown fox " * 16
        comments.append(c)
    for i in range(1500):
        comments.insert((i * 37) % len(comments), "zz %04d" % ((i * 631) % 1500))
    long_text = []
    for i, t in enumerate(comments):
        blob = b"\xff\xfe" + (i * 2654435761 % 2**32).to_bytes(4, "big") + b"\x00" * 300
        long_text.append(example(comment=("b", [t]), blob=("b", [blob])))
    # (b) field 2 empty in the first record (a SequenceExample's empty
    # feature_lists to tfr's auto typing), text in the others.
    field2 = [example(a=("i", [i])) + ld(2, b"" if i == 0 else b"note %d" % i) for i in range(6)]
    return {"long_text": (long_text, True), "example_field2_mixed": (field2, False)}


def issue28(out, cases=None, suffix=".tfrecord"):
    import tensorflow as tf
    out.mkdir(parents=True, exist_ok=True)
    for name, (records, with_schema) in (cases or issue28_cases()).items():
        path = out / (name + suffix)
        options = "GZIP" if suffix.endswith(".gz") else None
        with tf.io.TFRecordWriter(str(path), options=options) as w:
            for r in records:
                w.write(r)
        stats = tfdv.generate_statistics_from_tfrecord(str(path))
        dataset = stats.datasets[0]
        dataset.name = ""
        features = sorted(dataset.features, key=lambda f: list(f.path.step))
        del dataset.features[:]
        dataset.features.extend(features)
        (out / (name + ".stats.pbtxt")).write_text(text_format.MessageToString(stats))
        if with_schema:
            schema = tfdv.infer_schema(stats)
            (out / (name + ".schema.pbtxt")).write_text(text_format.MessageToString(schema))
        print(f"wrote {path.relative_to(ROOT)}: {len(records)} records")


def main() -> int:
    if "--issue47" in sys.argv[1:]:
        issue28(ROOT / "tests" / "data" / "tfdv" / "issue47", issue47_cases(), ".tfrecord.gz")
        return 0
    if "--issue28" in sys.argv[1:]:
        issue28(ROOT / "tests" / "data" / "tfdv" / "issue28")
        return 0
    out = ROOT / "tests" / "data" / "tfdv"
    out.mkdir(exist_ok=True)
    for name in FIXTURES:
        stats = tfdv.generate_statistics_from_tfrecord(str(ROOT / "tests" / "data" / name))
        schema = tfdv.infer_schema(stats)
        features = sorted(schema.feature, key=lambda f: f.name)
        del schema.feature[:]
        schema.feature.extend(features)
        domains = sorted(schema.string_domain, key=lambda d: d.name)
        del schema.string_domain[:]
        schema.string_domain.extend(domains)
        path = out / (name.removesuffix(".tfrecord") + ".schema.pbtxt")
        path.write_text(text_format.MessageToString(schema))
        print(f"wrote {path.relative_to(ROOT)}: {len(features)} features")
    return 0


if __name__ == "__main__":
    sys.exit(main())

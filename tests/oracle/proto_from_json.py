#!/usr/bin/env python3
"""Python protobuf's reading of JSON lines as a message: the reference for
`tfr from-jsonl --descriptor-set PB --message NAME`.

    .venv-tf/bin/python tests/oracle/proto_from_json.py \\
        --descriptor-set tests/data/proto/shapes.pb --message tfr.test.Sample LINES.jsonl

prints, per line of LINES.jsonl (blank lines skipped), one line: the hex of

    msg = cls(); json_format.Parse(line, msg, descriptor_pool=POOL)
    msg.SerializeToString(deterministic=True)

or "ERROR <exception type>: <first line of its message>" when Parse or
SerializeToString raises. deterministic=True because upb's plain
SerializeToString writes map entries (and extensions) in hash-table or
insertion order, which changes from process to process; deterministic
serialization orders them (tfr writes that order). json_format packs an
Any's message with the plain SerializeToString, so a map with several
entries inside an Any has no fixed bytes: the fixtures' Anys hold maps of
one entry at most. The message class and
POOL come from the descriptor set alone (as in proto_ref.py).

`--write` regenerates the committed references in tests/data/proto/expected/:
    shapes.from_json.txt, legacy.from_json.txt   (Python's own to-JSON lines,
        expected/{shapes,legacy}.json, read back)
    from_json.{sample,record,wkt,errors}.txt     (tests/data/proto/from_json/*.jsonl)
"""

import argparse
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from google.protobuf import json_format  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from proto_ref import PROTO, load_class  # noqa: E402


def convert(cls, pool, path):
    out = []
    with open(path, "rb") as f:
        for raw in f:
            if not raw.strip():
                continue
            msg = cls()
            try:
                json_format.Parse(raw, msg, descriptor_pool=pool)
                out.append(msg.SerializeToString(deterministic=True).hex())
            except Exception as e:  # noqa: BLE001
                text = str(e).split("\n")[0]
                out.append("ERROR %s: %s" % (type(e).__name__, text))
    return "".join(line + "\n" for line in out)


JOBS = [
    ("shapes.from_json.txt", "shapes.pb", "tfr.test.Sample", "expected/shapes.json"),
    ("legacy.from_json.txt", "legacy.pb", "tfr.legacy.Record", "expected/legacy.json"),
    ("from_json.sample.txt", "shapes.pb", "tfr.test.Sample", "from_json/sample.jsonl"),
    ("from_json.record.txt", "legacy.pb", "tfr.legacy.Record", "from_json/record.jsonl"),
    ("from_json.wkt.txt", "jsonin.pb", "tfr.jsonin.Wkt", "from_json/wkt.jsonl"),
    ("from_json.errors.txt", "shapes.pb", "tfr.test.Sample", "from_json/errors.jsonl"),
]


def write_all():
    for out, pb, name, src in JOBS:
        cls, pool = load_class(os.path.join(PROTO, pb), name)
        text = convert(cls, pool, os.path.join(PROTO, src))
        path = os.path.join(PROTO, "expected", out)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote", os.path.relpath(path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--descriptor-set")
    ap.add_argument("--message")
    ap.add_argument("file", nargs="?")
    ap.add_argument("--write", action="store_true", help="regenerate tests/data/proto/expected/*from_json*")
    a = ap.parse_args()
    if a.write:
        write_all()
        return
    if not (a.descriptor_set and a.message and a.file):
        ap.error("need --descriptor-set, --message and FILE (or --write)")
    cls, pool = load_class(a.descriptor_set, a.message)
    sys.stdout.write(convert(cls, pool, a.file))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Python protobuf's rendering of TFRecord payloads of any message type.

The reference for `tfr cat/head --descriptor-set PB --message NAME` (text) and
`tfr to-jsonl --descriptor-set PB --message NAME` (JSON). The message class is
built from the descriptor set alone (descriptor_pool + message_factory; no
generated modules):

    .venv-tf/bin/python tests/oracle/proto_ref.py \\
        --descriptor-set tests/data/proto/shapes.pb --message tfr.test.Sample \\
        tests/data/proto/shapes.tfrecord --text      # or --json

--text prints, per record N (from 0): "# record N\\n" followed by
    text_format.MessageToString(msg, descriptor_pool=POOL)
--json prints, per record, one line:
    json_format.MessageToJson(msg, preserving_proto_field_name=True, indent=None,
                              descriptor_pool=POOL)

POOL is the pool built from the descriptor set, so google.protobuf.Any is
expanded when its type is in the set. `--any-pool default` passes no pool
(descriptor_pool=None, the functions' default): then text_format looks the Any
type up in the process's default pool, does not find it, and prints the raw
`type_url` / `value` fields; json_format raises TypeError for any record
holding an Any (the line printed is then "ERROR <exception>").

Map fields in --json: json_format writes map entries in upb's hash-table
order, which for string keys changes from one process to the next (not
PYTHONHASHSEED). So by default (--map-order sorted) the line is re-serialized
with map entries sorted as text_format sorts them (strings by code point,
integers numerically); everything else is unchanged byte for byte (same
json.dumps call; the script asserts the value is equal). --map-order python
prints json_format's own order.

Payloads are parsed with ParseFromString; a record that does not parse prints
"# record N\\nERROR <exception type>: <message>\\n" (--text) or
"ERROR <exception type>: <message>" (--json) and the script goes on.

Output is UTF-8 with "\\n" line ends. `--write` regenerates every committed
reference file in tests/data/proto/expected/:
    {shapes,legacy}.{txt,json}   (pool from the descriptor set; the reference)
    {shapes,legacy}.default_pool.{txt,json}   (--any-pool default, for comparison)
    {bad,bad_utf8,any_unknown}.{txt,json}
    warmup.{txt,json}   (TF Serving's PredictionLog: serving.pb, warmup.tfrecord
                         from tests/oracle/predictionlog_make.py)
"""

import argparse
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory, text_format  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.normpath(os.path.join(HERE, "..", "data", "proto"))


def load_class(pb_path, name):
    with open(pb_path, "rb") as f:
        fds = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for fd in fds.file:
        pool.Add(fd)
    # Builds every class of the set, so extensions are known to the parser too.
    message_factory.GetMessageClassesForFiles([fd.name for fd in fds.file], pool)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(name)), pool


def _is_map(fd):
    t = fd.message_type
    return t is not None and t.GetOptions().map_entry


def _sort_maps(obj, desc, pool):
    """Reorders, in place, the JSON objects of map fields as text_format orders
    map entries: by key (strings by code point, integers by value, false<true)."""
    if not isinstance(obj, dict):
        return obj
    if desc.full_name == "google.protobuf.Any" and "@type" in obj:
        inner = pool.FindMessageTypeByName(obj["@type"].split("/")[-1])
        _sort_maps(obj, inner, pool)
        return obj
    for key, val in list(obj.items()):
        if key.startswith("[") and key.endswith("]"):
            fd = pool.FindExtensionByName(key[1:-1])
        else:
            fd = desc.fields_by_name.get(key)
        if fd is None or fd.message_type is None:
            continue
        if _is_map(fd):
            kf, vf = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
            conv = {kf.TYPE_STRING: str, kf.TYPE_BOOL: lambda k: k == "true"}.get(kf.type, int)
            ordered = dict(sorted(val.items(), key=lambda kv: conv(kv[0])))
            if vf.message_type is not None:
                for v in ordered.values():
                    _sort_maps(v, vf.message_type, pool)
            obj[key] = ordered
        elif isinstance(val, list):
            for v in val:
                _sort_maps(v, fd.message_type, pool)
        else:
            _sort_maps(val, fd.message_type, pool)
    return obj


def sort_maps_json(line, desc, pool):
    """MessageToJson's line with map entries sorted by key. json_format writes
    map entries in the order of upb's hash table, which changes from process to
    process (string keys); everything else is kept byte for byte: the line is
    re-serialized with the same json.dumps call json_format makes."""
    import json
    obj = json.loads(line)
    assert json.dumps(obj, indent=None, ensure_ascii=True) == line, line
    out = json.dumps(_sort_maps(obj, desc, pool), indent=None, ensure_ascii=True)
    assert json.loads(out) == json.loads(line)
    return out


def records(path):
    import tensorflow as tf
    ds = tf.data.TFRecordDataset(path)
    return [bytes(r) for r in ds.as_numpy_iterator()]


def render(cls, pool, path, mode, any_pool, map_order="sorted"):
    p = pool if any_pool == "given" else None
    out = []
    for i, payload in enumerate(records(path)):
        msg = cls()
        try:
            msg.ParseFromString(payload)
        except Exception as e:  # noqa: BLE001
            err = "ERROR %s: %s" % (type(e).__name__, e)
            out.append("# record %d\n%s\n" % (i, err) if mode == "text" else err + "\n")
            continue
        if mode == "text":
            out.append("# record %d\n" % i + text_format.MessageToString(msg, descriptor_pool=p))
        else:
            try:
                line = json_format.MessageToJson(msg, preserving_proto_field_name=True, indent=None,
                                                 descriptor_pool=p)
            except Exception as e:  # noqa: BLE001
                line = "ERROR %s: %s" % (type(e).__name__, e)
            else:
                if map_order == "sorted":
                    line = sort_maps_json(line, msg.DESCRIPTOR, pool)
            assert "\n" not in line
            out.append(line + "\n")
    return "".join(out)


def write_all():
    exp = os.path.join(PROTO, "expected")
    os.makedirs(exp, exist_ok=True)
    jobs = [("shapes", "shapes.pb", "tfr.test.Sample"), ("legacy", "legacy.pb", "tfr.legacy.Record"),
            ("bad", "shapes.pb", "tfr.test.Sample"), ("bad_utf8", "shapes.pb", "tfr.test.Sample"),
            ("any_unknown", "shapes.pb", "tfr.test.Sample"),
            ("warmup", "serving.pb", "tensorflow.serving.PredictionLog")]
    for stem, pb, name in jobs:
        cls, pool = load_class(os.path.join(PROTO, pb), name)
        for any_pool, suffix in (("given", ""), ("default", ".default_pool")):
            if stem in ("bad", "bad_utf8", "any_unknown", "warmup") and suffix:
                continue
            for mode, ext in (("text", "txt"), ("json", "json")):
                text = render(cls, pool, os.path.join(PROTO, stem + ".tfrecord"), mode, any_pool)
                path = os.path.join(exp, "%s%s.%s" % (stem, suffix, ext))
                with open(path, "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
                print("wrote", os.path.relpath(path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--descriptor-set")
    ap.add_argument("--message")
    ap.add_argument("file", nargs="?")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--text", action="store_true")
    g.add_argument("--json", action="store_true")
    ap.add_argument("--any-pool", choices=["given", "default"], default="given")
    ap.add_argument("--map-order", choices=["sorted", "python"], default="sorted",
                    help="--json: map entries sorted by key (default) or as json_format wrote them")
    ap.add_argument("--write", action="store_true", help="regenerate tests/data/proto/expected/*")
    a = ap.parse_args()
    if a.write:
        write_all()
        return
    if not (a.descriptor_set and a.message and a.file and (a.text or a.json)):
        ap.error("need --descriptor-set, --message, FILE and --text or --json (or --write)")
    cls, pool = load_class(a.descriptor_set, a.message)
    sys.stdout.buffer.write(render(cls, pool, a.file, "text" if a.text else "json", a.any_pool,
                                   a.map_order)
                            .encode("utf-8"))


if __name__ == "__main__":
    main()

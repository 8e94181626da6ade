#!/usr/bin/env python3
"""pyarrow, pandas and Python protobuf judge `tfr to-parquet` / `tfr to-arrow`
of any protobuf message (`--message`, event files).

    python tests/oracle/proto_parquet.py check \\
        (--descriptor-set X.pb | --event) --message NAME \\
        --parquet OUT.parquet [--arrow OUT.arrow] [--stream OUT.arrows] \\
        [--jsonl TO_JSONL_OUTPUT] TFRECORD...

`check` reads the payloads of the TFRecord files (plain, in order) and parses
each with Python protobuf (ParseFromString; the class from the descriptor
set's pool, or TensorFlow's event_pb2 for --event). Then:

- the schema of the Parquet file (pyarrow) is the one the descriptor says,
  field by field: one column per field in declaration order, then the
  message's extensions by number (`[full.name]`); scalar types, enums as
  string, messages as struct (a type already on the path from the root:
  string), repeated as list<item not null> not null, maps as map<key, value>
  not null, nullable exactly where the field has presence (HasField);
  a message type without fields has no column;
- every cell is what Python reads: msg.field (proto3 scalars without
  presence: their value, default included), None where HasField is False,
  lists, maps as (key, value) pairs (compared as dicts: Python's map order is
  its hash table's), enums by name (an unknown number as its digits), proto2
  strings that are not UTF-8 decoded with U+FFFD, a recursive message as the
  JSON json_format writes (compared parsed) and, with --jsonl, found verbatim
  in tfr to-jsonl's line for that record;
- the Arrow IPC file (and stream) holds the same table;
- pandas.read_parquet opens the file, and a struct column's present cell is
  a dict.

`make-struct DIR` writes DIR/struct.pb (google/protobuf/struct.proto as a
descriptor set) and DIR/struct.tfrecord (google.protobuf.Struct payloads,
written by TensorFlow): a recursive message for the checks above.

Prints "ok N rows" and exits 0, or raises.
"""

import argparse
import json
import math
import os
import struct
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from google.protobuf import descriptor, descriptor_pb2, descriptor_pool, json_format, message_factory  # noqa: E402

FD = descriptor.FieldDescriptor

SCALARS = {
    FD.TYPE_INT32: "int32",
    FD.TYPE_SINT32: "int32",
    FD.TYPE_SFIXED32: "int32",
    FD.TYPE_INT64: "int64",
    FD.TYPE_SINT64: "int64",
    FD.TYPE_SFIXED64: "int64",
    FD.TYPE_UINT32: "uint32",
    FD.TYPE_FIXED32: "uint32",
    FD.TYPE_UINT64: "uint64",
    FD.TYPE_FIXED64: "uint64",
    FD.TYPE_FLOAT: "float",
    FD.TYPE_DOUBLE: "double",
    FD.TYPE_BOOL: "bool",
    FD.TYPE_STRING: "string",
    FD.TYPE_BYTES: "binary",
    FD.TYPE_ENUM: "string",
}


def payloads(path):
    """The payloads of a plain TFRecord file."""
    with open(path, "rb") as f:
        data = f.read()
    at, out = 0, []
    while at < len(data):
        (n,) = struct.unpack_from("<Q", data, at)
        out.append(data[at + 12 : at + 12 + n])
        at += 12 + n + 4
    return out


def is_map(field):
    return field.type == FD.TYPE_MESSAGE and field.message_type.GetOptions().map_entry


def fields_of(desc, pool):
    """Declaration order, then the extensions by number."""
    exts = sorted(pool.FindAllExtensions(desc), key=lambda e: e.number)
    return list(desc.fields) + exts


def name_of(field):
    return "[%s]" % field.full_name if field.is_extension else field.name


# The expected layout: a tree of ("scalar", typename) | ("enum", enum_desc) |
# ("struct", [(field, layout)]) | ("json",), per column with its shape.


def value_layout(field_type, msg_desc, enum_desc, path, pool):
    if field_type in (FD.TYPE_MESSAGE, FD.TYPE_GROUP):
        if msg_desc.full_name in path:
            return ("json",)
        cols = columns(msg_desc, path + [msg_desc.full_name], pool)
        return ("struct", cols) if cols else None
    if field_type == FD.TYPE_ENUM:
        return ("enum", enum_desc)
    return ("scalar", SCALARS[field_type])


def column(field, path, pool):
    if is_map(field):
        entry = field.message_type
        k, v = entry.fields_by_name["key"], entry.fields_by_name["value"]
        kl = value_layout(k.type, k.message_type, k.enum_type, path, pool)
        vl = value_layout(v.type, v.message_type, v.enum_type, path, pool)
        if kl is None or vl is None:
            return None
        return ("map", kl, vl)
    vl = value_layout(field.type, field.message_type, field.enum_type, path, pool)
    if vl is None:
        return None
    if field.is_repeated:
        return ("list", vl)
    return ("one", vl, field.has_presence)


def columns(desc, path, pool):
    out = []
    for f in fields_of(desc, pool):
        c = column(f, path, pool)
        if c is not None:
            out.append((f, c))
    return out


# --- schema -------------------------------------------------------------


def check_value_type(t, layout, where):
    import pyarrow as pa

    kind = layout[0]
    if kind == "json" or kind == "enum":
        assert t == pa.string(), (where, str(t))
    elif kind == "scalar":
        want = {"int32": pa.int32(), "int64": pa.int64(), "uint32": pa.uint32(), "uint64": pa.uint64(),
                "float": pa.float32(), "double": pa.float64(), "bool": pa.bool_(), "string": pa.string(),
                "binary": pa.binary()}[layout[1]]
        assert t == want, (where, str(t), layout[1])
    else:
        assert pa.types.is_struct(t), (where, str(t))
        check_fields([t.field(i) for i in range(t.num_fields)], layout[1], where)


def check_fields(arrow_fields, cols, where):
    import pyarrow as pa

    names = [f.name for f in arrow_fields]
    assert names == [name_of(f) for f, _ in cols], (where, names, [name_of(f) for f, _ in cols])
    for af, (field, c) in zip(arrow_fields, cols):
        at = "%s.%s" % (where, af.name)
        if c[0] == "one":
            assert af.nullable == c[2], (at, "nullable", af.nullable)
            check_value_type(af.type, c[1], at)
        elif c[0] == "list":
            assert not af.nullable and pa.types.is_list(af.type), (at, str(af.type))
            assert not af.type.value_field.nullable, (at, "items nullable")
            check_value_type(af.type.value_type, c[1], at + "[]")
        else:
            assert not af.nullable and pa.types.is_map(af.type), (at, str(af.type))
            assert not af.type.key_field.nullable and not af.type.item_field.nullable, at
            check_value_type(af.type.key_type, c[1], at + ".key")
            check_value_type(af.type.item_type, c[2], at + ".value")


# --- cells --------------------------------------------------------------


def value(v, layout, field_type, pool):
    kind = layout[0]
    if kind == "json":
        return ("json", json_format.MessageToJson(v, preserving_proto_field_name=True, indent=None,
                                                  descriptor_pool=pool))
    if kind == "struct":
        return row(v, layout[1], pool)
    if kind == "enum":
        ev = layout[1].values_by_number.get(v)
        return ev.name if ev is not None else str(v)
    if field_type == FD.TYPE_STRING and isinstance(v, bytes):
        # A proto2 string that is not UTF-8: Python keeps the bytes.
        return v.decode("utf-8", "replace")
    return v


def cell(msg, field, c, pool):
    if field.is_extension:
        present = field.is_repeated or msg.HasExtension(field)
        got = msg.Extensions[field]
    else:
        present = field.is_repeated or not field.has_presence or msg.HasField(field.name)
        got = getattr(msg, field.name)
    if c[0] == "map":
        vt = field.message_type.fields_by_name["value"].type
        kt = field.message_type.fields_by_name["key"].type
        return ("map", {value(k, c[1], kt, pool): value(got[k], c[2], vt, pool) for k in got})
    if c[0] == "list":
        return [value(v, c[1], field.type, pool) for v in got]
    if not present:
        return None
    return value(got, c[1], field.type, pool)


def row(msg, cols, pool):
    return {name_of(f): cell(msg, f, c, pool) for f, c in cols}


def same(want, got, where, jsonl):
    if isinstance(want, tuple) and want[0] == "json":
        assert isinstance(got, str), (where, got)
        assert json.loads(got) == json.loads(want[1]), (where, got, want[1])
        if jsonl is not None:
            assert got in jsonl, (where, "not in tfr to-jsonl's line", got)
        return
    if isinstance(want, tuple) and want[0] == "map":
        assert isinstance(got, list), (where, got)
        keys = [k for k, _ in got]
        assert len(set(keys)) == len(keys), (where, "repeated keys", keys)
        assert set(keys) == set(want[1]), (where, keys, list(want[1]))
        for k, v in got:
            same(want[1][k], v, "%s[%r]" % (where, k), jsonl)
        return
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), (where, got, want)
        for k in want:
            same(want[k], got[k], where + "." + k, jsonl)
        return
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (w, g) in enumerate(zip(want, got)):
            same(w, g, "%s[%d]" % (where, i), jsonl)
        return
    if isinstance(want, float) and math.isnan(want):
        assert isinstance(got, float) and math.isnan(got), (where, got)
        return
    assert type(want) is type(got) and want == got, (where, repr(want), repr(got))
    if isinstance(want, float):
        assert math.copysign(1, want) == math.copysign(1, got), (where, "sign of zero")


def identical(a, b):
    """Equal values, NaN equal to NaN (and -0.0 told from 0.0)."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(identical(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def same_table(other, table, what):
    assert other.schema.equals(table.schema), (what, "schema differs")
    assert identical(other.to_pylist(), table.to_pylist()), (what, "rows differ")


def load(args):
    if args.event:
        from tensorflow.core.util import event_pb2  # noqa: F401

        pool = descriptor_pool.Default()
    else:
        with open(args.descriptor_set, "rb") as f:
            fds = descriptor_pb2.FileDescriptorSet.FromString(f.read())
        pool = descriptor_pool.DescriptorPool()
        for fd in fds.file:
            pool.Add(fd)
    desc = pool.FindMessageTypeByName(args.message)
    return pool, desc, message_factory.GetMessageClass(desc)


def check(args):
    import pandas as pd
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    pool, desc, cls = load(args)
    cols = columns(desc, [desc.full_name], pool)
    table = pq.read_table(args.parquet)
    check_fields(list(table.schema), cols, desc.full_name)
    msgs = []
    for path in args.tfrecord:
        for p in payloads(path):
            m = cls()
            m.ParseFromString(p)
            msgs.append(m)
    assert table.num_rows == len(msgs), (table.num_rows, len(msgs))
    lines = None
    if args.jsonl:
        with open(args.jsonl, encoding="utf-8") as f:
            lines = f.read().splitlines()
        assert len(lines) == len(msgs), (len(lines), len(msgs))
    for i, (m, got) in enumerate(zip(msgs, table.to_pylist())):
        same(row(m, cols, pool), got, "record %d" % i, None if lines is None else lines[i])
    if args.arrow:
        with ipc.open_file(args.arrow) as r:
            other = r.read_all()
        same_table(other, table, "the Arrow file")
    if args.stream:
        with ipc.open_stream(args.stream) as r:
            other = r.read_all()
        same_table(other, table, "the Arrow stream")
    frame = pd.read_parquet(args.parquet)
    assert len(frame) == len(msgs)
    structs = [f for f, c in cols if c[0] == "one" and c[1][0] == "struct"]
    seen = 0
    for f in structs:
        for v in frame[name_of(f)]:
            if v is not None:
                assert isinstance(v, dict), (name_of(f), type(v))
                seen += 1
    assert not structs or seen > 0, "no struct cell present to look at"
    print("ok %d rows" % len(msgs))


def make_struct(out):
    import tensorflow as tf
    from google.protobuf import struct_pb2

    fds = descriptor_pb2.FileDescriptorSet()
    struct_pb2.DESCRIPTOR.CopyToProto(fds.file.add())
    with open(os.path.join(out, "struct.pb"), "wb") as f:
        f.write(fds.SerializeToString())
    docs = [
        {"a": 1, "b": "x", "nested": {"c": [1, "two", None, True, {"d": []}]}, "n": None},
        {},
        {"list": [[1, 2], [3]], "t": True, "s": {"deeper": {"deepest": "yes"}}},
    ]
    with tf.io.TFRecordWriter(os.path.join(out, "struct.tfrecord")) as w:
        for d in docs:
            s = struct_pb2.Struct()
            s.update(d)
            w.write(s.SerializeToString())


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--descriptor-set")
    c.add_argument("--event", action="store_true")
    c.add_argument("--message", default="tensorflow.Event")
    c.add_argument("--parquet", required=True)
    c.add_argument("--arrow")
    c.add_argument("--stream")
    c.add_argument("--jsonl")
    c.add_argument("tfrecord", nargs="+")
    m = sub.add_parser("make-struct")
    m.add_argument("dir")
    args = ap.parse_args()
    if args.cmd == "check":
        check(args)
    else:
        make_struct(args.dir)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes proto/tensorflow/: the .proto files of tf.Event and everything it
imports, at their TensorFlow import paths, printed from the descriptors that
TensorFlow's own Python package carries (tensorflow.core.util.event_pb2 and
its transitive imports), then checks them.

Why printed from descriptors: each generated *_pb2 module of the TensorFlow
wheel embeds its compiled FileDescriptorProto (package, messages, fields,
numbers, types, labels, oneofs, maps, enums, reserved ranges, options). That
is exactly what TensorFlow 2.21 reads and writes, so the files below define
the same messages as TensorFlow's sources; what they lack is the sources'
comments (a compiled descriptor carries none).

  /work/venv-tf/bin/python tests/oracle/events_protos.py           # write + check
  /work/venv-tf/bin/python tests/oracle/events_protos.py --check   # check only

The check compiles proto/tensorflow with protoc (python -m grpc_tools.protoc
-Iproto/tensorflow --include_imports tensorflow/core/util/event.proto) and
compares every file of the result with TensorFlow's descriptor, message by
message and field by field (name, number, label, type, type name, oneof,
proto3 optional, options, json name), plus enums, values and file options.
It exits non-zero and prints each difference if any.
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from google.protobuf import descriptor_pb2  # noqa: E402
from tensorflow.core.util import event_pb2  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "proto" / "tensorflow"
F = descriptor_pb2.FieldDescriptorProto

SCALAR = {
    F.TYPE_DOUBLE: "double", F.TYPE_FLOAT: "float", F.TYPE_INT64: "int64",
    F.TYPE_UINT64: "uint64", F.TYPE_INT32: "int32", F.TYPE_FIXED64: "fixed64",
    F.TYPE_FIXED32: "fixed32", F.TYPE_BOOL: "bool", F.TYPE_STRING: "string",
    F.TYPE_BYTES: "bytes", F.TYPE_UINT32: "uint32", F.TYPE_SFIXED32: "sfixed32",
    F.TYPE_SFIXED64: "sfixed64", F.TYPE_SINT32: "sint32", F.TYPE_SINT64: "sint64",
}


def tf_files():
    """TensorFlow's FileDescriptorProtos, event.proto first, then its imports."""
    out, seen = [], set()

    def walk(fd):
        if fd.name in seen:
            return
        seen.add(fd.name)
        out.append(descriptor_pb2.FileDescriptorProto.FromString(fd.serialized_pb))
        for d in fd.dependencies:
            walk(d)

    walk(event_pb2.DESCRIPTOR)
    return out


def fmt_value(v, field):
    if field.type == field.TYPE_BOOL:
        return "true" if v else "false"
    if field.type == field.TYPE_STRING:
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if field.type == field.TYPE_ENUM:
        return field.enum_type.values_by_number[v].name
    return repr(v)


def options(opts):
    return [(f.name, fmt_value(v, f)) for f, v in opts.ListFields()]


def short(type_name, pkg):
    # ".tensorflow.Summary.Value" -> "Summary.Value"; checked by the compare.
    prefix = "." + pkg + "."
    return type_name[len(prefix):] if type_name.startswith(prefix) else type_name


def json_default(name):
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def print_enum(e, ind, w):
    w(f"{ind}enum {e.name} {{")
    for k, v in options(e.options):
        w(f"{ind}  option {k} = {v};")
    for r in e.reserved_range:
        w(f"{ind}  reserved {r.start}" + (f" to {r.end}" if r.end != r.start else "") + ";")
    for n in e.reserved_name:
        w(f'{ind}  reserved "{n}";')
    for val in e.value:
        o = options(val.options)
        tail = " [" + ", ".join(f"{k} = {v}" for k, v in o) + "]" if o else ""
        w(f"{ind}  {val.name} = {val.number}{tail};")
    w(f"{ind}}}")


def field_line(fld, msg, pkg, maps):
    if fld.type_name and fld.type_name in maps:
        k, v = maps[fld.type_name]
        typ = f"map<{k}, {v}>"
        label = ""
    else:
        typ = SCALAR.get(fld.type) or short(fld.type_name, pkg)
        label = ""
        if fld.label == F.LABEL_REPEATED:
            label = "repeated "
        elif fld.proto3_optional:
            label = "optional "
    o = options(fld.options)
    if fld.HasField("json_name") and fld.json_name != json_default(fld.name):
        o.append(("json_name", f'"{fld.json_name}"'))
    tail = " [" + ", ".join(f"{k} = {v}" for k, v in o) + "]" if o else ""
    return f"{label}{typ} {fld.name} = {fld.number}{tail};"


def print_message(m, ind, w, pkg, scope):
    full = f"{scope}.{m.name}"
    maps = {}
    for nt in m.nested_type:
        if nt.options.map_entry:
            kf, vf = nt.field[0], nt.field[1]
            kt = SCALAR.get(kf.type) or short(kf.type_name, pkg)
            vt = SCALAR.get(vf.type) or short(vf.type_name, pkg)
            maps[f"{full}.{nt.name}"] = (kt, vt)
    w(f"{ind}message {m.name} {{")
    for k, v in options(m.options):
        w(f"{ind}  option {k} = {v};")
    for e in m.enum_type:
        print_enum(e, ind + "  ", w)
    for nt in m.nested_type:
        if not nt.options.map_entry:
            print_message(nt, ind + "  ", w, pkg, full)
    for r in m.reserved_range:
        end = r.end - 1  # exclusive in the descriptor
        w(f"{ind}  reserved {r.start}" + (f" to {end}" if end != r.start else "") + ";")
    for n in m.reserved_name:
        w(f'{ind}  reserved "{n}";')
    open_oneof = None
    for fld in m.field:
        real_oneof = fld.HasField("oneof_index") and not fld.proto3_optional
        idx = fld.oneof_index if real_oneof else None
        if idx != open_oneof:
            if open_oneof is not None:
                w(f"{ind}  }}")
            if idx is not None:
                w(f"{ind}  oneof {m.oneof_decl[idx].name} {{")
            open_oneof = idx
        pad = ind + ("    " if idx is not None else "  ")
        w(pad + field_line(fld, m, pkg, maps))
    if open_oneof is not None:
        w(f"{ind}  }}")
    w(f"{ind}}}")


def render(fp):
    lines = []
    w = lines.append
    w(f"// {fp.name}, as TensorFlow 2.21 compiled it: printed by")
    w("// tests/oracle/events_protos.py from the descriptor embedded in the")
    w("// TensorFlow 2.21 wheel's generated Python module. Same package, messages,")
    w("// fields, numbers, types and options as TensorFlow's source file; the")
    w("// source's comments are not part of a compiled descriptor. Copyright The")
    w("// TensorFlow Authors, Apache License 2.0 (see README.md here).")
    w("")
    w(f'syntax = "{fp.syntax or "proto2"}";')
    w("")
    w(f"package {fp.package};")
    w("")
    for i, d in enumerate(fp.dependency):
        pub = "public " if i in fp.public_dependency else ""
        w(f'import {pub}"{d}";')
    if fp.dependency:
        w("")
    for k, v in options(fp.options):
        w(f"option {k} = {v};")
    for e in fp.enum_type:
        w("")
        print_enum(e, "", w)
    for m in fp.message_type:
        w("")
        print_message(m, "", w, fp.package, "." + fp.package)
    return "\n".join(lines) + "\n"


def strip(fp):
    fp = descriptor_pb2.FileDescriptorProto.FromString(fp.SerializeToString())
    fp.ClearField("source_code_info")
    return fp


def compare(ours, theirs):
    diffs = []

    def cmp_fields(path, a, b):
        fa = {f.name: f for f in a}
        fb = {f.name: f for f in b}
        for n in sorted(set(fa) | set(fb)):
            if n not in fa or n not in fb:
                diffs.append(f"{path}.{n}: only in {'ours' if n in fa else 'TF'}")
                continue
            x, y = fa[n], fb[n]
            for attr in ("number", "label", "type", "type_name", "oneof_index",
                         "proto3_optional", "options", "default_value", "extendee"):
                if getattr(x, attr) != getattr(y, attr) or x.HasField(attr) != y.HasField(attr):
                    diffs.append(f"{path}.{n}.{attr}: ours {getattr(x, attr)!r} TF {getattr(y, attr)!r}")
            # protoc always fills json_name; a generated module may omit it.
            if y.HasField("json_name") and x.json_name != y.json_name:
                diffs.append(f"{path}.{n}.json_name: ours {x.json_name!r} TF {y.json_name!r}")
        if [f.name for f in a] != [f.name for f in b]:
            diffs.append(f"{path}: field order differs")

    def cmp_enums(path, a, b):
        if [(e.name, [(v.name, v.number, v.options.SerializeToString()) for v in e.value],
             e.options.SerializeToString()) for e in a] != \
           [(e.name, [(v.name, v.number, v.options.SerializeToString()) for v in e.value],
             e.options.SerializeToString()) for e in b]:
            diffs.append(f"{path}: enums differ")

    def cmp_msgs(path, a, b):
        if [m.name for m in a] != [m.name for m in b]:
            diffs.append(f"{path}: messages {[m.name for m in a]} vs TF {[m.name for m in b]}")
        for x, y in zip(a, b):
            p = f"{path}.{x.name}"
            cmp_fields(p, x.field, y.field)
            cmp_enums(p, x.enum_type, y.enum_type)
            cmp_msgs(p, x.nested_type, y.nested_type)
            if x.options != y.options:
                diffs.append(f"{p}.options differs")
            for attr in ("oneof_decl", "reserved_range", "reserved_name",
                         "extension_range", "extension"):
                if list(getattr(x, attr)) != list(getattr(y, attr)):
                    diffs.append(f"{p}.{attr} differs")

    for name in sorted(set(ours) | set(theirs)):
        if name not in ours or name not in theirs:
            diffs.append(f"{name}: only in {'ours' if name in ours else 'TF'}")
            continue
        x, y = ours[name], theirs[name]
        for attr in ("package", "dependency", "public_dependency", "syntax", "options"):
            if getattr(x, attr) != getattr(y, attr):
                diffs.append(f"{name}.{attr}: ours {getattr(x, attr)!r} TF {getattr(y, attr)!r}")
        cmp_enums(name, x.enum_type, y.enum_type)
        cmp_msgs(name, x.message_type, y.message_type)
    return diffs


def check(tf):
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "ev.pb"
        subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{OUT}",
                        f"--descriptor_set_out={out}", "--include_imports",
                        "tensorflow/core/util/event.proto"], check=True)
        fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    ours = {f.name: strip(f) for f in fds.file}
    theirs = {f.name: strip(f) for f in tf}
    diffs = compare(ours, theirs)
    n_msgs = 0

    def count(ms):
        return sum(1 + count(m.nested_type) for m in ms)
    n_msgs = sum(count(f.message_type) for f in tf)
    for d in diffs:
        print("DIFF", d)
    print(f"{len(ours)} files, {n_msgs} messages compared with TensorFlow's "
          f"descriptors: {len(diffs)} differences", file=sys.stderr)
    return not diffs


def main():
    tf = tf_files()
    if "--check" not in sys.argv[1:]:
        for fp in tf:
            path = OUT / fp.name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render(fp))
            print("wrote", path.relative_to(ROOT), file=sys.stderr)
    sys.exit(0 if check(tf) else 1)


if __name__ == "__main__":
    main()

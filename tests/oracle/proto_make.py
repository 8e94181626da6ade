#!/usr/bin/env python3
"""Make the `--proto` / `--descriptor-set` fixtures in tests/data/proto/.

Run from the repository root (TensorFlow 2.21, protobuf 7.36.2 upb,
grpcio-tools 1.85.1 = libprotoc 35.1):

    .venv-tf/bin/pip install grpcio-tools==1.85.1
    .venv-tf/bin/python tests/oracle/proto_make.py
    .venv-tf/bin/python tests/oracle/proto_ref.py --write   # expected/*

What it does (deterministic: rerunning rewrites identical bytes):

1. compiles tests/data/proto/{shapes,legacy}.proto with
   `python -m grpc_tools.protoc -I tests/data/proto` into Python modules in a
   temporary folder (imported below to build the messages) and into
     tests/data/proto/shapes.pb  (shapes.proto + google/protobuf imports)
     tests/data/proto/legacy.pb  (legacy.proto + shapes.proto + imports)
   with `--descriptor_set_out --include_imports`;
2. checks that broken.proto fails to compile and prints protoc's message;
3. writes with tf.io.TFRecordWriter (no compression):
     shapes.tfrecord  - tfr.test.Sample records (list in SAMPLES below)
     legacy.tfrecord  - tfr.legacy.Record records (list in LEGACY below)
     bad.tfrecord     - one record that is not a valid tfr.test.Sample
                        (truncated varint)
     bad_utf8.tfrecord - one tfr.test.Sample record whose proto3 string
                        holds invalid UTF-8 (Python refuses it)
     any_unknown.tfrecord - one tfr.test.Sample whose Any names a type that
                        is in no pool
   and prints, per record, what the payload is meant to cover.

Payloads are built by Python protobuf and, where the wire form matters
(map entry order, duplicate map keys, unknown fields, packed/unpacked
encodings, closed-enum unknown values), by concatenating serialized pieces
or hand-written wire bytes. Serialization uses deterministic=True.
"""

import os
import struct
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.normpath(os.path.join(HERE, "..", "data", "proto"))

# A later version of tfr.test.Sample (same field numbers, plus fields 200..204
# that shapes.proto does not have): its serialized records carry fields that a
# reader with shapes.proto sees as unknown fields.
NEXT_PROTO = """
syntax = "proto3";
package tfr.next;
message Sub { string name = 1; int32 id = 2; }
message Sample {
  int32 i32 = 3;
  string s = 14;
  int64 extra_varint = 200;
  string extra_text = 201;
  fixed64 extra_fixed64 = 202;
  Sub extra_msg = 203;
  fixed32 extra_fixed32 = 204;
  repeated int32 extra_packed = 205;
}
"""


def protoc(*args):
    cmd = [sys.executable, "-m", "grpc_tools.protoc", *args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def compile_all(tmp):
    for name, files in (("shapes.pb", ["shapes.proto"]), ("legacy.pb", ["legacy.proto"])):
        rc, out = protoc("-I", PROTO, "--descriptor_set_out=" + os.path.join(PROTO, name),
                         "--include_imports", *[os.path.join(PROTO, f) for f in files])
        if rc != 0:
            sys.exit("protoc failed on %s:\n%s" % (files, out))
    rc, out = protoc("-I", PROTO, "--python_out=" + tmp,
                     os.path.join(PROTO, "shapes.proto"), os.path.join(PROTO, "legacy.proto"))
    if rc != 0:
        sys.exit("protoc --python_out failed:\n%s" % out)
    with open(os.path.join(tmp, "next.proto"), "w") as f:
        f.write(NEXT_PROTO)
    rc, out = protoc("-I", tmp, "--python_out=" + tmp, os.path.join(tmp, "next.proto"))
    if rc != 0:
        sys.exit("protoc failed on next.proto:\n%s" % out)
    rc, out = protoc("-I", PROTO, "--descriptor_set_out=" + os.path.join(tmp, "broken.pb"),
                     os.path.join(PROTO, "broken.proto"))
    assert rc != 0, "broken.proto compiled"
    print("broken.proto (expected failure, rc=%d): %s" % (rc, out.strip().replace(PROTO + "/", "")))


# --- wire helpers -----------------------------------------------------------

def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def tag(field, wt):
    return varint(field << 3 | wt)


def ld(field, payload):
    return tag(field, 2) + varint(len(payload)) + payload


def ser(m):
    return m.SerializeToString(deterministic=True)


# --- records -----------------------------------------------------------------

def samples(pb, nx):
    Sample, Sub, Color = pb.Sample, pb.Sub, pb.Color
    Leaf = Sub.Leaf
    from google.protobuf import any_pb2, timestamp_pb2  # noqa: F401
    out = []

    def add(note, payload):
        if not isinstance(payload, bytes):
            payload = ser(payload)
        out.append((note, payload))

    # 0
    add("all defaults: empty payload", Sample())

    # 1
    m = Sample(
        field_1_name=7, d=2.5, f=0.1, i32=-42, i64=1234567890123, u32=42, u64=9876543210,
        s32=-17, s64=-9000000000, fx32=123456, fx64=1 << 40, sfx32=-123456, sfx64=-(1 << 40),
        b=True, s="plain text", by=b"\x00\x01binary\xff", color=Color.GREEN,
        sub=Sub(name="outer", id=1, leaf=Leaf(x=1.25, tags=["a", "b"], color=Color.RED),
                leaves=[Leaf(x=-0.5), Leaf(tags=["only"])]),
        ri32=[1, -1, 300], rd=[0.5, 2.0], rf=[1.5, -2.25], rs=["x", "", "z"], rby=[b"", b"\x80"],
        subs=[Sub(name="s0"), Sub(id=2, leaf=Leaf(color=Color.BLUE))],
        colors=[Color.RED, Color.COLOR_UNSPECIFIED, Color.BLUE],
        counts={"one": 1}, by_id={5: Sub(name="five")}, renamed=99, c_text="chosen",
        opt_i32=5, opt_s="opt", opt_b=True,
        dur={"seconds": 3, "nanos": 500000000},
    )
    m.any.Pack(Sub(name="in any", id=3, leaf=Leaf(tags=["deep"])))
    m.ts.FromSeconds(1700000000)
    m.ts.nanos = 123456789
    m.dv.value = 3.14
    m.i64v.value = 7
    m.sv.value = "wrapped"
    add("every field set", m)

    # 2
    i64min, i64max, u64max = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1
    add("integer extremes", Sample(
        i32=-(1 << 31), i64=i64min, u32=(1 << 32) - 1, u64=u64max, s32=-(1 << 31), s64=i64min,
        fx32=(1 << 32) - 1, fx64=u64max, sfx32=-(1 << 31), sfx64=i64min,
        ri32=[-(1 << 31), -1, 0, (1 << 31) - 1], field_1_name=(1 << 31) - 1,
        counts={"max": i64max, "min": i64min},
        i64v={"value": i64max},
    ))

    # 3
    nan, inf = float("nan"), float("inf")
    add("float32 and double values (scalar f=0.1, d=1e16; lists of specials)", Sample(
        f=0.1, d=1e16,
        rf=[0.1, -0.0, nan, inf, -inf, 1e-45, 1e-40, 3.4028235e38, 1.0, 16777217.0, 1e10,
            123456.789, 0.3, 1e-7, 100.0, 2.5e-8],
        rd=[1e16, 1e-5, 0.1, 123456789.123, nan, inf, -inf, -0.0, 5e-324,
            1.7976931348623157e308, 1e21, 1e-7, 100.0, 1e15, 1.5, 0.3, 1e17, 123456789012345680.0,
            2.2250738585072014e-308, 1e-4, 1e22],
    ))

    # 4
    add("scalar specials: f=NaN, d=-0.0 (a set -0.0 in proto3)", Sample(f=nan, d=-0.0))

    # 5
    add("scalar specials: f=-inf, d=5e-324 (smallest denormal), opt_i32=-1", Sample(
        f=-inf, d=5e-324, opt_i32=-1))

    # 6
    nasty = "quote \" apos ' backslash \\ nl \n tab \t cr \r nul \x00 bell \x07 esc \x1b del \x7f"
    add("strings and bytes escaping", Sample(
        s="héllo wörld ✓ 日本語 😀 \u0085 \u2028 end",
        by=b"\x00\x01\x7f\x80\xfe\xff\"'\\\n\r\t?abc",
        rs=[nasty, "trigraph ??( ??) ?", "\u00e9", "/slash </script>"],
        rby=[b"\xc3\x28", "héllo".encode(), b"\x1f\x20\x7e"],
        c_text="oneof ünïcode",
        sub=Sub(name="tab\there", leaf=Leaf(tags=["\"q\"", "\\"])),
    ))

    # 7: open enum with values not in the enum; oneof int set to 0 (present)
    m = Sample(c_num=0, colors=[Color.RED, 42, Color.NEGATIVE, -7])
    m.color = 42
    m.sub.leaf.color = 1000
    add("open enum: color=42 (unknown), colors=[RED,42,NEGATIVE,-7]; oneof c_num=0", m)

    # 8: maps: entries on the wire in insertion order (not sorted), a duplicate key
    parts = [Sample(counts={"zeta": 1}), Sample(counts={"alpha": -2}), Sample(counts={"Mid": 3}),
             Sample(counts={"": 0}), Sample(counts={"ü": 5}), Sample(counts={"b10": 10}),
             Sample(counts={"b9": 9}),
             Sample(by_id={10: Sub(name="ten")}), Sample(by_id={-1: Sub(name="minus one")}),
             Sample(by_id={3: Sub()}), Sample(by_id={0: Sub(id=0, leaf=Leaf(x=1.0))}),
             Sample(counts={"zeta": 26}),  # duplicate key: the last one wins
             Sample(c_sub=Sub())]
    add("maps: wire order zeta,alpha,Mid,'',ü,b10,b9 + by_id 10,-1,3,0; duplicate key zeta "
        "(1 then 26); oneof c_sub = empty Sub", b"".join(ser(p) for p in parts))

    # 9: proto3 optional fields set to their defaults
    add("proto3 optional set to defaults: opt_i32=0, opt_s='', opt_b=false; oneof c_num max",
        Sample(opt_i32=0, opt_s="", opt_b=False, c_num=(1 << 63) - 1))

    # 10: well-known types at their edges
    m = Sample()
    m.any.Pack(pb.Sub(name="only any"))
    m.ts.seconds = 0          # present, all zero: 1970-01-01T00:00:00Z
    m.dv.value = 0.0          # present wrapper holding the default
    m.dur.seconds = 0
    m.dur.nanos = 10          # 0.000000010s
    m.i64v.value = 0
    m.sv.value = ""
    add("well-known types holding zero/default values; Any packing Sub", m)

    # 11
    m = Sample()
    ts = timestamp_pb2.Timestamp(seconds=-62135596800, nanos=1000)  # 0001-01-01T00:00:00.000001Z
    m.any.Pack(ts)
    m.ts.seconds = 253402300799  # 9999-12-31T23:59:59Z
    m.ts.nanos = 120000000
    m.dv.value = nan
    m.dur.seconds = -1
    m.dur.nanos = -500000000
    m.i64v.value = (1 << 53) + 1
    add("Any packing a Timestamp (WKT in Any); Timestamp max; DoubleValue NaN; Duration -1.5s", m)

    # 12: unknown fields (serialized by the "next" version of Sample)
    nm = nx.Sample(i32=5, s="known", extra_varint=-3, extra_text="from the future",
                   extra_fixed64=0x0102030405060708, extra_msg=nx.Sub(name="x", id=9),
                   extra_fixed32=7, extra_packed=[1, 2, 3])
    add("unknown fields 200..205 (varint, string, fixed64, message, fixed32, packed) "
        "from a newer Sample; known i32=5, s='known'", ser(nm))

    # 13
    add("unknown field 999 (group wire type, start/end) and 1000 (varint) after known field",
        ser(Sample(b=True)) + tag(999, 3) + tag(1, 0) + varint(1) + tag(999, 4)
        + tag(1000, 0) + varint(150))

    # 14
    m = Sample()
    m.any.Pack(Sub())
    add("Any packing an empty Sub (type_url set, value empty)", m)
    return out


def legacy(lg, pb):
    R = lg.Record
    out = []

    def add(note, payload):
        if not isinstance(payload, bytes):
            payload = ser(payload)
        out.append((note, payload))

    add("required id only (every optional unset: defaults not printed)", R(id=1))

    m = R(id=-2, name="unnamed", score=-7, ratio=0.5, kind=lg.KIND_C, flag=True, blob=b"\x01\xff",
          fval=1.5, unpacked=[1, 2, 3], packed=[-1, 0, 2147483647], kinds=[lg.KIND_A, lg.KIND_C],
          sub=pb.Sub(name="from shapes", leaf=pb.Sub.Leaf(x=2.0)))
    m.point.x = 3
    m.point.y = -4
    it = m.item.add()
    it.key = "k1"
    it.value = 0.1
    m.item.add().key = "k2"
    m.Extensions[lg.ext] = "extension value"
    m.Extensions[lg.ext_marks].extend([5, 6])
    m.Extensions[lg.Holder.holder_ext].v = 11
    add("every field set, optional fields set to their declared defaults, group, "
        "repeated group, extensions (ext, ext_marks, Holder.holder_ext)", m)

    # closed enum: values not in Kind go to unknown fields when parsed
    add("closed enum: kind=99 and kinds=[KIND_A,99,KIND_B] on the wire (99 -> unknown fields)",
        ser(R(id=3)) + tag(5, 0) + varint(99)
        + tag(11, 0) + varint(1) + tag(11, 0) + varint(99) + tag(11, 0) + varint(2))

    # packed field sent unpacked, unpacked field sent packed: both must be accepted
    add("wire forms swapped: `packed` sent unpacked, `unpacked` sent packed (parsers accept both)",
        ser(R(id=4)) + b"".join(tag(10, 0) + varint(v) for v in (7, -8))
        + ld(9, varint(1) + varint(300) + varint(-1)))

    add("required id missing (SerializePartialToString); specials: ratio NaN, fval -inf; "
        "only extension ext set", _ext_only(lg).SerializePartialToString(deterministic=True))

    add("proto2 string `name` holding invalid UTF-8 (C3 28): proto2 does not check it",
        ser(R(id=5)) + ld(2, b"ok \xc3\x28 \xff end"))
    return out


def _ext_only(lg):
    m = lg.Record(ratio=float("nan"), fval=float("-inf"))
    m.Extensions[lg.ext] = "only ext"
    return m


def write(path, records):
    import tensorflow as tf
    with tf.io.TFRecordWriter(path) as w:
        for _, payload in records:
            w.write(payload)
    print("%s: %d records" % (os.path.relpath(path), len(records)))
    for i, (note, payload) in enumerate(records):
        print("  #%d (%d bytes) %s" % (i, len(payload), note))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        compile_all(tmp)
        sys.path.insert(0, tmp)
        import shapes_pb2 as pb
        import legacy_pb2 as lg
        import next_pb2 as nx
        write(os.path.join(PROTO, "shapes.tfrecord"), samples(pb, nx))
        write(os.path.join(PROTO, "legacy.tfrecord"), legacy(lg, pb))
        # field 1 (double, wire type 1) fine, then field 3 varint truncated mid-value
        bad = struct.pack("<Bd", 0x09, 1.0) + tag(3, 0) + b"\xff\xff"
        write(os.path.join(PROTO, "bad.tfrecord"), [("d=1.0 then i32 with a truncated varint", bad)])
        bad_utf8 = ld(14, b"ok \xc3\x28")
        write(os.path.join(PROTO, "bad_utf8.tfrecord"),
              [("proto3 string s holding invalid UTF-8 (C3 28)", bad_utf8)])
        for name, payload in (("bad", bad), ("bad_utf8", bad_utf8)):
            try:
                pb.Sample.FromString(payload)
            except Exception as e:  # noqa: BLE001
                print("%s.tfrecord: Sample.FromString raises %s: %s" % (name, type(e).__name__, e))
        m = pb.Sample(i32=1)
        m.any.type_url = "type.googleapis.com/tfr.nowhere.Missing"
        m.any.value = ld(1, b"abc")
        write(os.path.join(PROTO, "any_unknown.tfrecord"),
              [("Any whose type is in no descriptor set: tfr.nowhere.Missing", ser(m))])


if __name__ == "__main__":
    main()

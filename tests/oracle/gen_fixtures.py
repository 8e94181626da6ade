#!/usr/bin/env python3
"""Generate TFRecord test fixtures with real TensorFlow and record TensorFlow's answers.

Writes everything into tests/data/ (next to this script's parent):
  * the fixture files themselves,
  * manifest.json  -- one entry per fixture with what TensorFlow 2.21 did on it,
  * expected/<name>.json -- the payloads TensorFlow yielded, their byte offsets and
    their renderings by Python protobuf (text_format and json_format).

Deterministic: fixed seeds, no timestamps; rerunning produces identical files.

Usage (see tests/data/README.md):
    python3 -m venv .venv-tf
    .venv-tf/bin/pip install tensorflow-cpu==2.21.0 tfrecord
    .venv-tf/bin/python tests/oracle/gen_fixtures.py

TensorFlow is only used to write fixtures and, in child processes, to read them back
(some damaged files crash TensorFlow with SIGSEGV, so reading happens in a subprocess
that is restarted after a crash).
"""

import base64
import gzip
import json
import os
import random
import re
import signal
import struct
import subprocess
import sys
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "data"))
EXPECTED = os.path.join(DATA, "expected")


# ----------------------------------------------------------------------------
# Child mode: read files with tf.data.TFRecordDataset in a plain Python loop.
# Protocol on stdout, one line each, flushed:
#   BEGIN <job index>
#   R <base64 payload>          (one per record TensorFlow yielded)
#   END <job index> <json error or null>
# ----------------------------------------------------------------------------

def tf_read_child():
    import tensorflow as tf

    jobs = json.load(sys.stdin)
    out = sys.stdout
    for i, (path, comp) in jobs:
        out.write("BEGIN %d\n" % i)
        out.flush()
        err = None
        try:
            ds = tf.data.TFRecordDataset(path, compression_type=comp)
            # tf.data injects an autotuned prefetch by default: a background thread reads
            # ahead, so on a crash the number of records already handed to Python would
            # depend on timing. Without it the count is deterministic; nothing else changes.
            opts = tf.data.Options()
            opts.experimental_optimization.inject_prefetch = False
            for rec in ds.with_options(opts):
                out.write("R " + base64.b64encode(rec.numpy()).decode() + "\n")
                out.flush()
        except Exception as e:  # noqa: BLE001 -- we record whatever TF raises
            msg = getattr(e, "message", None) or str(e)
            err = "%s: %s" % (type(e).__name__, msg.strip())
        out.write("END %d %s\n" % (i, json.dumps(err)))
        out.flush()


def clean_error(err):
    """'DataLossError: {{function_node ...}} corrupted record at 0 [Op:IteratorGetNext] name: '
    -> 'DataLossError: corrupted record at 0'."""
    if err is None:
        return None
    err = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", err)
    return re.sub(r"\s*\[Op:[A-Za-z]+\](\s*name:)?\s*$", "", err)


def tf_read_all(jobs):
    """jobs: list of (path, compression). Returns list of dicts
    {records: [bytes], error: str|None, signal: str|None}. Restarts the child after a crash."""
    results = [None] * len(jobs)
    todo = list(range(len(jobs)))
    while todo:
        payload = json.dumps([[i, list(jobs[i])] for i in todo])
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--tf-read"],
            input=payload.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        cur, recs = None, []
        for line in proc.stdout.decode().splitlines():
            if line.startswith("BEGIN "):
                cur, recs = int(line.split()[1]), []
            elif line.startswith("R "):
                recs.append(base64.b64decode(line[2:]))
            elif line.startswith("END "):
                _, idx, err = line.split(" ", 2)
                err = json.loads(err)
                results[int(idx)] = {"records": recs, "error": clean_error(err), "error_raw": err,
                                     "signal": None}
                cur = None
        if proc.returncode == 0:
            assert all(results[i] is not None for i in todo), proc.stderr.decode()[-2000:]
            break
        if cur is None or proc.returncode >= 0:
            raise RuntimeError("TF reader child failed (rc=%d):\n%s"
                               % (proc.returncode, proc.stderr.decode()[-3000:]))
        results[cur] = {"records": recs, "error": None, "error_raw": None,
                        "signal": signal.Signals(-proc.returncode).name}
        todo = [i for i in todo if results[i] is None]
    return results


# ----------------------------------------------------------------------------
# TFRecord framing (used to compute offsets and to build damaged files)
# ----------------------------------------------------------------------------

def _crc32c_table():
    poly = 0x82F63B78
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked_crc(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(payload):
    n = struct.pack("<Q", len(payload))
    return n + struct.pack("<I", masked_crc(n)) + payload + struct.pack("<I", masked_crc(payload))


def header(length):
    n = struct.pack("<Q", length)
    return n + struct.pack("<I", masked_crc(n))


def walk(stream):
    """Walk a decompressed stream from offset 0. Returns (records, stop) where records is a
    list of (offset, payload) of consecutive good records and stop is None at a clean end or
    (kind, offset) where the walk stopped."""
    recs, p, n = [], 0, len(stream)
    while p < n:
        if n - p < 12:
            return recs, ("truncated_header", p)
        length = struct.unpack_from("<Q", stream, p)[0]
        if struct.unpack_from("<I", stream, p + 8)[0] != masked_crc(stream[p:p + 8]):
            return recs, ("length_crc", p)
        if length > n - p - 16:
            return recs, ("truncated_or_beyond_end", p)
        data = stream[p + 12:p + 12 + length]
        if struct.unpack_from("<I", stream, p + 12 + length)[0] != masked_crc(data):
            return recs, ("data_crc", p)
        recs.append((p, data))
        p += 16 + length
    return recs, None


def count_intact(stream):
    """Records whose header and payload both check, resynchronising after damage the way
    `tfr verify-crc` is meant to (scan forward byte by byte for the next good record)."""
    good, p, n = 0, 0, len(stream)
    while p + 16 <= n:
        length = struct.unpack_from("<Q", stream, p)[0]
        if (struct.unpack_from("<I", stream, p + 8)[0] == masked_crc(stream[p:p + 8])
                and length <= n - p - 16
                and struct.unpack_from("<I", stream, p + 12 + length)[0]
                == masked_crc(stream[p + 12:p + 12 + length])):
            good += 1
            p += 16 + length
        else:
            p += 1
    return good


def offsets_of(stream):
    return [off for off, _ in walk(stream)[0]]


def inflate_prefix(data, wbits):
    """Decompress as far as possible, keeping everything inflated before an error (input is
    fed one byte at a time). Returns (bytes, error message or None). Handles concatenated
    gzip members."""
    out, rest = [], data
    while True:
        d = zlib.decompressobj(wbits)
        i = 0
        try:
            while i < len(rest) and not d.eof:
                out.append(d.decompress(rest[i:i + 1]))
                i += 1
            out.append(d.flush())
        except zlib.error as e:
            return b"".join(out), "zlib: %s" % e
        if not d.eof:
            return b"".join(out), "stream ends before the end of the compressed data"
        rest = d.unused_data + rest[i:]
        if not rest or wbits != 31:
            return b"".join(out), None


def snappy_raw(block):
    """One raw snappy block decoded, by google/snappy's format_description.txt
    (a varint length, then literals and back-references)."""
    pos, want, shift = 0, 0, 0
    while True:
        b = block[pos]
        pos += 1
        want |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            break
    out = bytearray()
    while pos < len(block):
        tag = block[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:
            n = tag >> 2
            if n >= 60:
                k = n - 59
                n = int.from_bytes(block[pos:pos + k], "little")
                pos += k
            n += 1
            if pos + n > len(block):
                raise ValueError("literal runs past the block")
            out += block[pos:pos + n]
            pos += n
            continue
        if kind == 1:
            n, off = 4 + ((tag >> 2) & 7), ((tag >> 5) << 8) | block[pos]
            pos += 1
        elif kind == 2:
            n, off = 1 + (tag >> 2), int.from_bytes(block[pos:pos + 2], "little")
            pos += 2
        else:
            n, off = 1 + (tag >> 2), int.from_bytes(block[pos:pos + 4], "little")
            pos += 4
        if off == 0 or off > len(out):
            raise ValueError("copy offset %d out of range" % off)
        for _ in range(n):
            out.append(out[-off])
    if len(out) != want:
        raise ValueError("block announces %d bytes, decodes to %d" % (want, len(out)))
    return bytes(out)


def snappy_prefix(data):
    """TensorFlow's SNAPPY stream (blocks, each after a 4-byte big-endian
    length) decoded as far as whole blocks go. Returns (bytes, error or None)."""
    out, pos = [], 0
    while pos < len(data):
        if pos + 4 > len(data):
            return b"".join(out), "cut short inside a block length"
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        if pos + 4 + n > len(data):
            return b"".join(out), "cut short: block of %d bytes" % n
        try:
            out.append(snappy_raw(data[pos + 4:pos + 4 + n]))
        except (ValueError, IndexError) as e:
            return b"".join(out), "snappy: %s" % e
        pos += 4 + n
    return b"".join(out), None


def snappy_blocks(data):
    """(offset, length) of each block of a SNAPPY stream."""
    blocks, pos = [], 0
    while pos + 4 <= len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        blocks.append((pos, n))
        pos += 4 + n
    return blocks


def gzip_bytes(raw):
    """Deterministic gzip (mtime 0) made by Python for streams TensorFlow cannot write
    (damaged inner records, non-TFRecord text)."""
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    return c.compress(raw) + c.flush()


# ----------------------------------------------------------------------------
# Message building helpers (TensorFlow's own protobuf classes)
# ----------------------------------------------------------------------------

import numpy as np  # noqa: E402  (after the child-mode definitions on purpose)


def _tf():
    import tensorflow as tf
    return tf


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def ld(field, payload):
    """Length-delimited field."""
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def f_int(values):
    return _tf().train.Feature(int64_list=_tf().train.Int64List(value=values))


def f_float(values):
    return _tf().train.Feature(float_list=_tf().train.FloatList(value=values))


def f_bytes(values):
    return _tf().train.Feature(bytes_list=_tf().train.BytesList(value=values))


def features_bytes(pairs):
    """Serialized tf.train.Features whose map entries appear in the given order. Protobuf
    (upb) serializes maps in hash order, which is seeded per process, so to be
    deterministic we serialize one entry at a time and concatenate: the result is exactly
    what TensorFlow writes for that iteration order (canonical encoding)."""
    tf = _tf()
    return b"".join(tf.train.Features(feature={k: v}).SerializeToString() for k, v in pairs)


def example_bytes(pairs):
    """tf.train.Example with `features` set, map entries in the given wire order."""
    tf = _tf()
    raw = ld(1, features_bytes(pairs))
    # Check: it parses back to the message built the ordinary way.
    ref = tf.train.Example(features=tf.train.Features(feature=dict(pairs)))
    assert tf.train.Example.FromString(raw) == ref
    assert len(dict(pairs)) == len(pairs)
    return raw


def sequence_bytes(context=None, feature_lists=None):
    """tf.train.SequenceExample; context: list of (key, Feature) or None (unset);
    feature_lists: list of (key, [Feature, ...]) or None (unset)."""
    tf = _tf()
    raw = b""
    ref = tf.train.SequenceExample()
    if context is not None:
        raw += ld(1, features_bytes(context))
        ref.context.SetInParent()
        for k, v in context:
            ref.context.feature[k].CopyFrom(v)
    if feature_lists is not None:
        body = b"".join(
            tf.train.FeatureLists(feature_list={k: tf.train.FeatureList(feature=fl)})
            .SerializeToString() for k, fl in feature_lists)
        raw += ld(2, body)
        ref.feature_lists.SetInParent()
        for k, fl in feature_lists:
            ref.feature_lists.feature_list[k].CopyFrom(tf.train.FeatureList(feature=fl))
    assert tf.train.SequenceExample.FromString(raw) == ref
    return raw


def tf_write(name, payloads, compression=""):
    tf = _tf()
    path = os.path.join(DATA, name)
    with tf.io.TFRecordWriter(path, options=tf.io.TFRecordOptions(compression_type=compression)) as w:
        for p in payloads:
            w.write(p)
    return path


def tf_write_snappy(name, payloads):
    """SNAPPY needs tf.data's writer: tf.io.TFRecordOptions refuses it in 2.21."""
    tf = _tf()
    path = os.path.join(DATA, name)
    tf.data.experimental.TFRecordWriter(path, compression_type="SNAPPY").write(
        tf.data.Dataset.from_tensor_slices(tf.constant(payloads, dtype=tf.string)))
    return path


def put(name, data):
    with open(os.path.join(DATA, name), "wb") as f:
        f.write(data)


def get(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


# ----------------------------------------------------------------------------
# Fixture registry
# ----------------------------------------------------------------------------

FIXTURES = []


def fixture(name, file, tf_compression="", payload="example", damage=None, note=None,
            also_read_as=None, cases=None):
    FIXTURES.append({
        "name": name, "file": file, "tf_compression": tf_compression, "payload": payload,
        "damage": damage, "note": note, "also_read_as": also_read_as or [], "cases": cases,
    })


def damage(kind, record, offset, **extra):
    d = {"kind": kind, "record": record, "offset": offset}
    d.update(extra)
    return d


# ----------------------------------------------------------------------------
# Fixture families
# ----------------------------------------------------------------------------

NOTEBOOK_ORDER = ["feature2", "feature3", "feature0", "feature1"]  # wire order seen in the tutorial


def notebook_payloads(n, seed):
    rng = np.random.RandomState(seed)
    feature0 = rng.choice([False, True], n)
    feature1 = rng.randint(0, 5, n)
    strings = np.array([b"cat", b"dog", b"chicken", b"horse", b"goat"])
    feature2 = strings[feature1]
    feature3 = rng.randn(n)
    out = []
    for i in range(n):
        feats = {
            "feature0": f_int([int(feature0[i])]),
            "feature1": f_int([int(feature1[i])]),
            "feature2": f_bytes([bytes(feature2[i])]),
            "feature3": f_float([float(feature3[i])]),
        }
        out.append(example_bytes([(k, feats[k]) for k in NOTEBOOK_ORDER]))
    return out


def make_notebook():
    recs = notebook_payloads(200, seed=0)
    tf_write("notebook.tfrecord", recs)
    tf_write("notebook.tfrecord.gz", recs, "GZIP")
    tf_write("notebook.zlib.tfrecord", recs, "ZLIB")
    assert get("notebook.tfrecord") == b"".join(frame(p) for p in recs)
    fixture("notebook", "notebook.tfrecord",
            note="the TF tutorial's 4-feature dataset, 200 records, wire order feature2, feature3, feature0, feature1")
    fixture("notebook_gzip", "notebook.tfrecord.gz", "GZIP", also_read_as=[""],
            note="same records, written by TFRecordWriter with GZIP")
    fixture("notebook_zlib", "notebook.zlib.tfrecord", "ZLIB", also_read_as=[""],
            note="same records, written by TFRecordWriter with ZLIB")
    # Misleading names: detection must be by content.
    put("notebook_gz_named.tfrecord", get("notebook.tfrecord.gz"))
    fixture("notebook_gz_named", "notebook_gz_named.tfrecord", "GZIP", also_read_as=[""],
            note="GZIP content under a plain-looking name")
    put("notebook_plain_named.tfrecord.gz", get("notebook.tfrecord"))
    fixture("notebook_plain_named", "notebook_plain_named.tfrecord.gz", "",
            note="plain content under a .gz name")
    put("notebook_zlib_named.tfrecord.gz", get("notebook.zlib.tfrecord"))
    fixture("notebook_zlib_named", "notebook_zlib_named.tfrecord.gz", "ZLIB",
            note="ZLIB content under a .gz name")
    # Multi-member gzip: two TF-written GZIP files concatenated byte-wise.
    a = tf_write("concat_part1.tmp", recs[:120], "GZIP")
    b = tf_write("concat_part2.tmp", recs[120:], "GZIP")
    put("concat.tfrecord.gz", get("concat_part1.tmp") + get("concat_part2.tmp"))
    os.remove(a)
    os.remove(b)
    fixture("concat_gzip", "concat.tfrecord.gz", "GZIP",
            note="two TF-written GZIP files (120 + 80 notebook records) concatenated: a multi-member gzip")
    tf_write("empty.tfrecord.gz", [], "GZIP")
    fixture("empty_gzip", "empty.tfrecord.gz", "GZIP", payload="none",
            note="TFRecordWriter(GZIP) with no records written")


def blocks_payloads():
    """Ten Examples of about 30 KB (a record-specific phrase repeated): 300 KB,
    two SNAPPY blocks in TensorFlow's writer, small in git."""
    out = []
    for i in range(10):
        phrase = ("record %d of the multi-block snappy fixture; " % i).encode()
        blob = (phrase * (30000 // len(phrase) + 1))[:30000 + i]
        out.append(example_bytes([("id", f_int([i])), ("blob", f_bytes([blob]))]))
    return out


def make_snappy():
    nb = notebook_payloads(200, seed=0)
    tf_write_snappy("notebook.snappy.tfrecord", nb)
    fixture("notebook_snappy", "notebook.snappy.tfrecord", "SNAPPY", also_read_as=[""],
            note="notebook records written by tf.data.experimental.TFRecordWriter(compression_type='SNAPPY')")
    tf_write_snappy("sequence.snappy.tfrecord", [p for _, p in walk(get("sequence.tfrecord"))[0]])
    fixture("sequence_snappy", "sequence.snappy.tfrecord", "SNAPPY", payload="sequence")
    tf_write_snappy("blocks.snappy.tfrecord", blocks_payloads())
    blocks = snappy_blocks(get("blocks.snappy.tfrecord"))
    assert len(blocks) >= 2, blocks
    fixture("blocks_snappy", "blocks.snappy.tfrecord", "SNAPPY",
            note="300 KB of records in %d SNAPPY blocks (records span blocks)" % len(blocks))


def make_elwc():
    """ExampleListWithContext (TF-Ranking's payload): its own test files, and
    hand-made records for the edges (built with input_pb2, written by TF)."""
    for src, name in (("tf_ranking_train_elwc.tfrecord", "ranking_elwc.tfrecord"),
                      ("tf_ranking_test_numerical_elwc.tfrecord", "ranking_numerical_elwc.tfrecord")):
        with open(os.path.join(HERE, "vendor", src), "rb") as f:
            put(name, f.read())
        fixture(name.split(".")[0], name, payload="elwc",
                note="TF-Ranking's %s (tests/oracle/vendor/README.md)" % src)
    elwc = message_class("elwc")
    ex = lambda pairs: example_bytes(pairs)  # noqa: E731
    def msg(examples=(), context=None, extra=b""):
        raw = b"".join(ld(1, e) for e in examples)
        if context is not None:
            raw += ld(2, context)
        raw += extra
        elwc.FromString(raw)
        return raw
    q = ex([("query", f_bytes([b"pizza"])), ("query_id", f_int([7]))])
    d1 = ex([("cuisine", f_bytes([b"Pizzeria"])), ("score", f_float([0.5, 1.25])), ("rel", f_int([1]))])
    d2 = ex([("cuisine", f_bytes([b"Taqueria", b"\xff\xfe"])), ("score", f_float([float("nan")])),
             ("rel", f_int([0]))])
    recs = [
        msg([d1, d2], q),                              # 0: context and two examples
        msg([d1]),                                     # 1: no context
        msg([], q),                                    # 2: context, no examples
        msg([b"", d2], q),                             # 3: an empty Example in the list
        msg([d1], b""),                                # 4: an empty context (set, no features)
        msg([ex([("k", f_int([]))]), ex([("j", f_float([]))])], q),  # 5: empty lists of two kinds
        msg(),                                         # 6: the empty message
    ]
    tf_write("elwc_edge.tfrecord", recs)
    fixture("elwc_edge", "elwc_edge.tfrecord", payload="elwc",
            note="hand-made ExampleListWithContext edges: no context, no examples, empty Examples, "
                 "empty lists, the empty message")
    # Encodings protobuf never writes (not byte-identical after a round trip).
    recs = [
        msg([d2], q) + ld(2, ex([("lang", f_bytes([b"en"]))])),  # 0: context twice: merged
        msg([d1], q, extra=b"\x18\x05"),             # 1: an unknown field next to the known ones
        ld(2, q) + ld(1, d1) + ld(1, d2),              # 2: context before the examples
    ]
    for r in recs:
        elwc.FromString(r)
    tf_write("elwc_noncanonical.tfrecord", recs)
    fixture("elwc_noncanonical", "elwc_noncanonical.tfrecord", payload="elwc",
            note="ExampleListWithContext encodings protobuf reads but never writes")


def make_payloads():
    """Encodings protobuf reads one way and TensorFlow's C++ parser
    (tf.io.parse_example) another, or not at all: one record per case, each
    with TensorFlow's verdict in the expected file ("tf_parser"); the case
    names are in the manifest entry. `verify-crc --payloads` must flag
    exactly the records whose verdict is not "same"."""
    def wv(n, extra=0):
        """n as a varint, padded with `extra` more bytes when overlong."""
        out = bytearray(varint(n & ((1 << 64) - 1)))
        if extra:
            out[-1] |= 0x80
            out += b"\x80" * (extra - 1) + b"\x00"
        return bytes(out)

    def tag(f, wt, extra=0):
        return wv(f << 3 | wt, extra)

    def fld(f, b, tx=0, lx=0):
        return tag(f, 2, tx) + wv(len(b), lx) + b

    def f32(*v):
        return b"".join(struct.pack("<f", x) for x in v)

    def vi(*v):
        return b"".join(wv(x) for x in v)

    def entry(key, feature):
        return fld(1, key.encode()) + fld(2, feature)

    def feats(*entries):
        return b"".join(fld(1, e) for e in entries)

    def ex(features):
        return fld(1, features)

    fl = lambda body: fld(2, body)  # noqa: E731  Feature.float_list
    il = lambda body: fld(3, body)  # noqa: E731
    bl = lambda body: fld(1, body)  # noqa: E731
    ok_a = entry("a", fl(fld(1, f32(1.5))))
    cases = [
        # values inside lists
        ("float_packed", ex(feats(entry("x", fl(fld(1, f32(1, 2, 3))))))),
        ("float_two_packed_chunks", ex(feats(entry("x", fl(fld(1, f32(1, 2)) + fld(1, f32(3))))))),
        ("float_unpacked", ex(feats(entry("x", fl(tag(1, 5) + f32(1) + tag(1, 5) + f32(2)))))),
        ("float_packed_then_unpacked", ex(feats(entry("x", fl(fld(1, f32(1, 2)) + tag(1, 5) + f32(3)))))),
        ("float_unpacked_then_packed", ex(feats(entry("x", fl(tag(1, 5) + f32(1) + fld(1, f32(2, 3))))))),
        ("float_empty_packed_then_value", ex(feats(entry("x", fl(fld(1, b"") + tag(1, 5) + f32(1)))))),
        ("float_empty_packed_then_packed", ex(feats(entry("x", fl(fld(1, b"") + fld(1, f32(1))))))),
        ("float_unknown_in_list", ex(feats(entry("x", fl(fld(1, f32(1)) + tag(2, 0) + wv(5)))))),
        ("float_unknown_before_values", ex(feats(entry("x", fl(tag(2, 0) + wv(5) + fld(1, f32(1))))))),
        ("int_packed", ex(feats(entry("x", il(fld(1, vi(1, 2, 3))))))),
        ("int_two_packed_chunks", ex(feats(entry("x", il(fld(1, vi(1, 2)) + fld(1, vi(3))))))),
        ("int_unpacked", ex(feats(entry("x", il(tag(1, 0) + wv(1) + tag(1, 0) + wv(2)))))),
        ("int_packed_then_unpacked", ex(feats(entry("x", il(fld(1, vi(1, 2)) + tag(1, 0) + wv(3)))))),
        ("int_unpacked_then_packed", ex(feats(entry("x", il(tag(1, 0) + wv(1) + fld(1, vi(2, 3))))))),
        ("int_empty_packed_then_value", ex(feats(entry("x", il(fld(1, b"") + tag(1, 0) + wv(1)))))),
        ("int_empty_packed_then_packed", ex(feats(entry("x", il(fld(1, b"") + fld(1, vi(1))))))),
        ("int_overlong_value", ex(feats(entry("x", il(fld(1, wv(5, extra=2))))))),
        ("int_negative", ex(feats(entry("x", il(fld(1, vi(-1, -(2 ** 63)))))))),
        ("int_unknown_in_list", ex(feats(entry("x", il(fld(1, vi(1)) + tag(2, 0) + wv(5)))))),
        ("bytes_two", ex(feats(entry("x", bl(fld(1, b"a") + fld(1, b"bc")))))),
        ("bytes_unknown_in_list", ex(feats(entry("x", bl(fld(1, b"a") + tag(2, 0) + wv(5)))))),
        ("bytes_empty_list", ex(feats(entry("x", bl(b""))))),
        ("bytes_value_wrong_wire", ex(feats(entry("x", bl(tag(1, 0) + wv(5)))))),
        # the Feature message
        ("feature_float_list_twice", ex(feats(entry("x", fl(fld(1, f32(1))) + fl(fld(1, f32(2))))))),
        ("feature_int_list_twice", ex(feats(entry("x", il(fld(1, vi(1))) + il(fld(1, vi(2))))))),
        ("feature_bytes_list_twice", ex(feats(entry("x", bl(fld(1, b"a")) + bl(fld(1, b"b")))))),
        ("feature_two_kinds", ex(feats(entry("x", fl(fld(1, f32(1))) + il(fld(1, vi(2))))))),
        ("feature_unknown_after", ex(feats(entry("x", fl(fld(1, f32(1))) + tag(4, 0) + wv(1))))),
        ("feature_unknown_before", ex(feats(entry("x", tag(4, 0) + wv(1) + fl(fld(1, f32(1))))))),
        ("feature_empty", ex(feats(entry("x", b""), ok_a))),
        ("feature_list_wrong_wire", ex(feats(entry("x", tag(2, 0) + wv(1)), ok_a))),
        ("feature_overlong_list_tag", ex(feats(entry("x", fld(2, fld(1, f32(1)), tx=2))))),
        ("feature_overlong_length", ex(feats(entry("x", fld(2, fld(1, f32(1)), lx=2))))),
        # map entries
        ("entry_key_twice", ex(feats(fld(1, b"y") + fld(1, b"x") + fld(2, fl(fld(1, f32(1))))))),
        ("entry_key_twice_no_value", ex(feats(fld(1, b"y") + fld(1, b"x"), ok_a))),
        ("entry_no_key", ex(feats(fld(2, fl(fld(1, f32(1)))), ok_a))),
        ("entry_no_value", ex(feats(fld(1, b"x"), ok_a))),
        ("entry_value_twice", ex(feats(fld(1, b"x") + fld(2, fl(fld(1, f32(1)))) + fld(2, fl(fld(1, f32(2))))))),
        ("entry_value_twice_no_key", ex(feats(fld(2, fl(fld(1, f32(1)))) + fld(2, fl(fld(1, f32(2))))))),
        ("entry_value_before_key", ex(feats(fld(2, fl(fld(1, f32(1)))) + fld(1, b"x")))),
        ("entry_unknown_field", ex(feats(entry("x", fl(fld(1, f32(1)))) + tag(3, 0) + wv(1), ok_a))),
        ("entry_unknown_first", ex(feats(tag(3, 0) + wv(1) + entry("x", fl(fld(1, f32(1)))), ok_a))),
        ("entry_overlong_key_tag", ex(feats(fld(1, b"x", tx=2) + fld(2, fl(fld(1, f32(1))))))),
        ("entry_key_wrong_wire", ex(feats(tag(1, 0) + wv(3) + fld(2, fl(fld(1, f32(1)))), ok_a))),
        ("entry_empty", ex(feats(b"", ok_a))),
        ("entry_empty_key", ex(feats(entry("", fl(fld(1, f32(1))))))),
        ("entry_empty_value", ex(feats(fld(1, b"x") + fld(2, b""), ok_a))),
        # Features
        ("features_duplicate_key", ex(feats(entry("x", fl(fld(1, f32(1)))), entry("x", fl(fld(1, f32(2))))))),
        ("features_duplicate_key_kinds", ex(feats(entry("x", fl(fld(1, f32(1)))), entry("x", il(fld(1, vi(2))))))),
        ("features_duplicate_key_bad_first",
         ex(feats(entry("x", tag(4, 0) + wv(1)), entry("x", il(fld(1, vi(5))))))),
        ("features_duplicate_key_then_empty", ex(feats(entry("x", il(fld(1, vi(5)))), entry("x", b"")))),
        ("features_duplicate_key_empty_then_value", ex(feats(entry("x", b""), entry("x", il(fld(1, vi(5))))))),
        ("features_duplicate_key_bad_list_first",
         ex(feats(entry("x", il(tag(2, 0) + wv(1))), entry("x", il(fld(1, vi(5))))))),
        ("features_unknown_field", ex(feats(ok_a) + tag(2, 0) + wv(7))),
        ("features_unknown_first", ex(tag(2, 0) + wv(7) + feats(ok_a))),
        ("features_group", ex(feats(ok_a) + tag(5, 3) + tag(1, 0) + wv(1) + tag(5, 4))),
        ("features_entry_wrong_wire", ex(feats(ok_a) + tag(1, 0) + wv(7))),
        ("features_overlong_entry_tag", ex(fld(1, entry("x", fl(fld(1, f32(1)))), tx=2) + feats(ok_a))),
        ("features_empty", ex(b"")),
        # Example
        ("example_features_twice", ex(feats(entry("x", fl(fld(1, f32(1)))))) + ex(feats(ok_a))),
        ("example_features_twice_same_key",
         ex(feats(entry("x", fl(fld(1, f32(1)))))) + ex(feats(entry("x", fl(fld(1, f32(2))))))),
        ("example_unknown_field", ex(feats(ok_a)) + tag(3, 0) + wv(1)),
        ("example_unknown_first", tag(3, 0) + wv(1) + ex(feats(ok_a))),
        ("example_group", ex(feats(ok_a)) + tag(5, 3) + tag(5, 4)),
        ("example_overlong_features_tag", fld(1, feats(ok_a), tx=2)),
        ("example_overlong_features_length", fld(1, feats(ok_a), lx=2)),
        ("example_features_wrong_wire", tag(1, 0) + wv(1) + ex(feats(ok_a))),
        ("example_empty", b""),
    ]
    tf = _tf()
    for name, payload in cases:
        tf.train.Example.FromString(payload)  # every case is a valid protobuf Example
    tf_write("payloads_noncanonical.tfrecord", [p for _, p in cases])
    fixture("payloads_noncanonical", "payloads_noncanonical.tfrecord",
            note="Examples that protobuf and TensorFlow's C++ parser read differently, or not at all "
                 "(expected tf_parser: TensorFlow's verdict per record)",
            cases=[name for name, _ in cases])

    # SequenceExamples (tf.io.parse_sequence_example): every Example case as
    # the context (its Features field is the context field), then the
    # feature lists' own cases. The first record decides the file's type.
    def seq(context=None, lists=None, extra=b""):
        out = b"" if context is None else fld(1, context)
        return out + (b"" if lists is None else fld(2, lists)) + extra

    def flist(*steps):
        return b"".join(fld(1, f) for f in steps)

    def lists(*entries):
        return b"".join(fld(1, e) for e in entries)

    good = entry("s", flist(fl(fld(1, f32(1))), fl(fld(1, f32(2, 3)))))

    def steps(*features):
        return seq(None, lists(entry("s", flist(*features))))

    one = flist(fl(fld(1, f32(1))))
    seq_cases = [("fl_ok", seq(feats(ok_a), lists(good)))]
    seq_cases += [("ctx_" + name, payload + fld(2, lists(good))) for name, payload in cases]
    seq_cases += [
        ("fl_step_two_packed", steps(fl(fld(1, f32(1)) + fld(1, f32(2))))),
        ("fl_step_packed_then_unpacked", steps(fl(fld(1, f32(1)) + tag(1, 5) + f32(2)))),
        ("fl_step_unpacked_then_packed", steps(fl(tag(1, 5) + f32(2) + fld(1, f32(1))))),
        ("fl_step_int_two_packed", steps(il(fld(1, vi(1)) + fld(1, vi(2))))),
        ("fl_step_list_twice", steps(fl(fld(1, f32(1))) + fl(fld(1, f32(2))))),
        ("fl_step_two_kinds", steps(fl(fld(1, f32(1))) + il(fld(1, vi(2))))),
        ("fl_step_empty", steps(b"", fl(fld(1, f32(1))))),
        ("fl_step_unknown_first", steps(tag(4, 0) + wv(1) + fl(fld(1, f32(1))))),
        ("fl_step_unknown_after", steps(fl(fld(1, f32(1))) + tag(4, 0) + wv(1))),
        ("fl_step_bytes_unknown_in_list", seq(None, lists(entry("b", flist(bl(fld(1, b"a") + tag(2, 0) + wv(5))))))),
        ("fl_step_unpacked", steps(fl(tag(1, 5) + f32(1) + tag(1, 5) + f32(2)))),
        ("fl_step_int_unpacked", steps(il(tag(1, 0) + wv(1) + tag(1, 0) + wv(2)))),
        ("fl_step_bytes_two", seq(None, lists(entry("b", flist(bl(fld(1, b"a") + fld(1, b"b"))))))),
        ("fl_steps_mixed_kinds", steps(fl(fld(1, f32(1))), il(fld(1, vi(2))))),
        ("fl_step_packed_empty", steps(fl(fld(1, b"")))),
        ("fl_step_list_empty", steps(fl(b""))),
        ("fl_step_wrong_wire", steps(tag(2, 0) + wv(1))),
        ("fl_step_overlong_list_length", steps(fld(2, fld(1, f32(1)), lx=2))),
        ("fl_empty_featurelist", seq(None, lists(entry("s", b"")))),
        ("fl_unknown_in_featurelist", seq(None, lists(entry("s", one + tag(2, 0) + wv(1))))),
        ("fl_unknown_first_in_featurelist", seq(None, lists(entry("s", tag(2, 0) + wv(1) + one)))),
        ("fl_overlong_step_tag", seq(None, lists(entry("s", fld(1, fl(fld(1, f32(1))), tx=2))))),
        ("fl_entry_key_twice", seq(None, lists(fld(1, b"t") + fld(1, b"s") + fld(2, one)))),
        ("fl_entry_no_key", seq(None, lists(fld(2, one)))),
        ("fl_entry_no_value", seq(None, lists(fld(1, b"s"), good))),
        ("fl_entry_value_twice", seq(None, lists(fld(1, b"s") + fld(2, one) + fld(2, one)))),
        ("fl_entry_value_before_key", seq(None, lists(fld(2, one) + fld(1, b"s")))),
        ("fl_entry_overlong_key_tag", seq(None, lists(fld(1, b"s", tx=2) + fld(2, one)))),
        ("fl_entry_unknown", seq(None, lists(entry("s", one) + tag(3, 0) + wv(1), entry("t", one)))),
        ("fl_lists_unknown_field", seq(None, lists(good) + tag(2, 0) + wv(1))),
        ("fl_lists_overlong_entry_tag", seq(None, fld(1, good, tx=2) + lists(entry("t", one)))),
        ("fl_lists_duplicate_key", seq(None, lists(entry("s", one), entry("s", flist(fl(fld(1, f32(2)))))))),
        ("seq_lists_twice", seq(None, lists(entry("s", one))) + fld(2, lists(entry("t", one)))),
        ("seq_context_twice", seq(feats(ok_a)) + seq(feats(entry("b", il(fld(1, vi(1)))))) + fld(2, lists(good))),
        ("seq_unknown_field", seq(feats(ok_a), lists(good), tag(3, 0) + wv(1))),
        ("seq_group", seq(feats(ok_a), lists(good), tag(5, 3) + tag(5, 4))),
        ("seq_overlong_context_tag", fld(1, feats(ok_a), tx=2) + fld(2, lists(good))),
        ("seq_overlong_lists_tag", fld(1, feats(ok_a)) + fld(2, lists(good), tx=2)),
    ]
    for name, payload in seq_cases:
        tf.train.SequenceExample.FromString(payload)
    tf_write("payloads_sequence_noncanonical.tfrecord", [p for _, p in seq_cases])
    fixture("payloads_sequence_noncanonical", "payloads_sequence_noncanonical.tfrecord", payload="sequence",
            note="SequenceExamples that protobuf and TensorFlow's C++ sequence parser read differently, "
                 "or not at all (expected tf_parser: TensorFlow's verdict per record)",
            cases=[name for name, _ in seq_cases])


def tiny_png(width, height, rng):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rng.randrange(256) for _ in range(width * 3)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))


def jpeg_like(width, height, rng, size):
    head = (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
            b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width) + b"\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01")
    body = bytes(rng.randrange(256) for _ in range(size))
    return head + body + b"\xff\xd9"


def make_images():
    rng = random.Random(1234)
    nrng = np.random.RandomState(1234)
    recs = []
    for i in range(8):
        h, w = rng.choice([(16, 16), (24, 32), (32, 24), (20, 40)])
        if i % 2 == 0:
            img, fmt = tiny_png(w, h, rng), b"png"
        else:
            img, fmt = jpeg_like(w, h, rng, rng.randrange(1500, 4000)), b"jpeg"
        recs.append(example_bytes([
            ("image/encoded", f_bytes([img])),
            ("image/format", f_bytes([fmt])),
            ("image/height", f_int([h])),
            ("image/width", f_int([w])),
            ("label", f_int([rng.randrange(10)])),
            ("embedding", f_float([float(x) for x in nrng.randn(16).astype(np.float32)])),
        ]))
    tf_write("images.tfrecord", recs)
    fixture("images", "images.tfrecord",
            note="8 records: PNG (even) or JPEG-like (odd) bytes, height/width, label, 16-float embedding")


FLOAT_EDGES = [
    float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1e-45, 3.4028235e38, -3.4028235e38,
    1.17549435e-38, 1e-5, 1e16, 0.1, 1.0 / 3, 2.7182817, 123456789.0, 16777217.0, 1.0, -1.5,
    100.0, 1e-7, 1e22, 123456.7, 0.25222766, 1.0000001, 9.999999e-5,
]


def make_edge():
    i64min, i64max = -2 ** 63, 2 ** 63 - 1
    all_bytes = bytes(range(256))
    tf = _tf()
    recs = []
    # 0: int64 edges
    recs.append(example_bytes([("int64", f_int([i64min, i64max, 0, -1, 1, 2 ** 31, -2 ** 31 - 1]))]))
    # 1: all float edges in one list
    recs.append(example_bytes([("float", f_float(FLOAT_EDGES))]))
    # 2: only non-finite floats (JSONL typed form), plus single -0.0 / NaN features
    recs.append(example_bytes([
        ("nonfinite", f_float([float("nan"), float("inf"), float("-inf")])),
        ("neg_zero", f_float([-0.0])),
        ("nan", f_float([float("nan")])),
        ("subnormal", f_float([1e-45])),
    ]))
    # 3: bytes edges
    recs.append(example_bytes([
        ("invalid_utf8", f_bytes([b"\xff\xfe", b"abc\x80", b"\xc3\x28", b"\xed\xa0\x80"])),
        ("all_bytes", f_bytes([all_bytes])),
        ("escapes", f_bytes([b'"quoted" \'single\' back\\slash\nnew\ttab\rcr\x00nul\x01\x1f\x7f',
                             b"\x07\x08\x0b\x0c\x1b"])),
        ("utf8", f_bytes(["héllo wörld".encode(), "日本語".encode(), "😀".encode(), "\u2028\u0085".encode()])),
        ("empty_value", f_bytes([b""])),
        ("empty_and_more", f_bytes([b"", b"x", b""])),
    ]))
    # 4: empty lists and a Feature with no kind
    recs.append(example_bytes([
        ("empty_int64", tf.train.Feature(int64_list=tf.train.Int64List())),
        ("empty_float", tf.train.Feature(float_list=tf.train.FloatList())),
        ("empty_bytes", tf.train.Feature(bytes_list=tf.train.BytesList())),
        ("no_kind", tf.train.Feature()),
    ]))
    # 5: unicode and awkward keys
    recs.append(example_bytes([
        ("ключ", f_int([1])), ("日本", f_int([2])), ("😀", f_int([3])), ("", f_int([4])),
        ('q"uote', f_int([5])), ("back\\slash", f_int([6])), ("new\nline", f_int([7])),
        ("tab\tcr\r", f_int([8])), ("ctl\x01\x1f\x7f", f_int([9])), ("it's", f_int([10])),
        ("sp ace", f_int([11])), ("\u0085\u00a0\u2028", f_int([12])),
    ]))
    # 6: keys whose order differs by code point / case-insensitive / locale; wire order scrambled
    recs.append(example_bytes([
        ("é", f_int([1])), ("a", f_int([2])), ("_", f_int([3])), ("Z", f_int([4])),
        ("B", f_int([5])), ("aa", f_int([6])), ("A", f_int([7])), ("b", f_int([8])),
        ("10", f_int([9])), ("9", f_int([10])), ("a_b", f_int([11])), ("a-b", f_int([12])),
        ("z", f_int([13])), ("É", f_int([14])),
    ]))
    # 7: empty Example (no features field at all): zero-byte payload
    recs.append(tf.train.Example().SerializeToString())
    assert recs[-1] == b""
    # 8: Example with `features` set but empty
    e = tf.train.Example()
    e.features.SetInParent()
    recs.append(e.SerializeToString())
    assert recs[-1] == b"\n\x00"
    # 9: empty key with a kind-less Feature
    recs.append(example_bytes([("", tf.train.Feature())]))
    # 10: many features, scrambled wire order, all three kinds
    rng = random.Random(99)
    names = ["f%03d" % i for i in range(120)]
    rng.shuffle(names)
    pairs = []
    for n in names:
        k = int(n[1:]) % 3
        if k == 0:
            pairs.append((n, f_int([rng.randrange(-1000, 1000) for _ in range(rng.randrange(0, 4))])))
        elif k == 1:
            pairs.append((n, f_float([rng.choice([0.5, -2.25, 1e-3, 3.0]) for _ in range(rng.randrange(0, 4))])))
        else:
            pairs.append((n, f_bytes([n.encode()] * rng.randrange(0, 3))))
    recs.append(example_bytes(pairs))
    # 11: long int64 list and long float list (packed encoding across many bytes)
    recs.append(example_bytes([
        ("ints", f_int(list(range(-500, 500)))),
        ("floats", f_float([i / 7.0 for i in range(300)])),
    ]))
    # 12: bool-ish and single values of each kind
    recs.append(example_bytes([("flag", f_int([1])), ("x", f_float([0.5])), ("s", f_bytes([b"one"]))]))
    tf_write("edge.tfrecord", recs)
    fixture("edge", "edge.tfrecord",
            note="edge values: int64/float32 extremes, NaN/inf/-0.0/subnormal, escapes, invalid UTF-8, "
                 "empty lists, kind-less Feature, unicode/empty/control-char keys, sort-order keys, "
                 "empty Example (b''), empty features (b'\\n\\x00'), 120 features")


def make_bad_utf8_key():
    """A map key that is not valid UTF-8. TensorFlow writes it (any bytes are a payload) and
    its C++ parse_example accepts it, but Python protobuf (upb) refuses to parse it."""
    good = example_bytes([("k", f_int([1]))])
    key = b"k\xff\x01"
    bad = ld(1, ld(1, ld(1, key) + ld(2, ld(3, ld(1, varint(5))))))
    tf_write("bad_utf8_key.tfrecord", [good, bad, good])
    fixture("bad_utf8_key", "bad_utf8_key.tfrecord",
            note="record 1 has the map key b'k\\xff\\x01' (invalid UTF-8): Python protobuf fails to parse it "
                 "(text/protojson null, parses_as [])")


def make_noncanonical():
    """Payloads a hand-rolled or older encoder might write: legal protobuf, not canonical."""
    recs = []
    key = lambda s: ld(1, s.encode())  # noqa: E731
    # 0: unpacked int64 values (each value its own tag) -- proto2-style
    il = b"".join(varint(1 << 3 | 0) + varint(v & 0xFFFFFFFFFFFFFFFF) for v in [1, -1, 300])
    recs.append(ld(1, ld(1, key("unpacked_int") + ld(2, ld(3, il)))))
    # 1: unpacked floats
    fl = b"".join(varint(1 << 3 | 5) + struct.pack("<f", v) for v in [1.5, -0.0])
    recs.append(ld(1, ld(1, key("unpacked_float") + ld(2, ld(2, fl)))))
    # 2: map entry with value before key
    recs.append(ld(1, ld(1, ld(2, ld(3, ld(1, varint(7)))) + key("value_first"))))
    # 3: duplicate map key: last one wins
    recs.append(ld(1, ld(1, key("dup") + ld(2, ld(3, ld(1, varint(1)))))
                   + ld(1, key("dup") + ld(2, ld(3, ld(1, varint(2)))))))
    # 4: unknown field 99 (varint) in the Example and field 5 in a Feature
    recs.append(ld(1, ld(1, key("k") + ld(2, ld(3, ld(1, varint(3))) + varint(5 << 3 | 0) + varint(1))))
                + varint(99 << 3 | 0) + varint(42))
    # 5: `features` field appearing twice (messages merge)
    recs.append(ld(1, ld(1, key("a") + ld(2, ld(3, ld(1, varint(1))))))
                + ld(1, ld(1, key("b") + ld(2, ld(3, ld(1, varint(2)))))))
    # 6: map entry without key (key defaults to "") and a map entry without value
    recs.append(ld(1, ld(1, ld(2, ld(3, ld(1, varint(9))))) + ld(1, key("novalue"))))
    # 7: two kinds set in one Feature (oneof: last one wins)
    recs.append(ld(1, ld(1, key("two_kinds") + ld(2, ld(3, ld(1, varint(1))) + ld(1, ld(1, b"x"))))))
    tf_write("noncanonical.tfrecord", recs)
    fixture("noncanonical", "noncanonical.tfrecord",
            note="hand-encoded legal but non-canonical Examples: unpacked repeated values, value before key, "
                 "duplicate key, unknown fields, repeated `features` field, entry without key / value, "
                 "two oneof kinds")


def make_sequence():
    tf = _tf()
    rng = random.Random(7)
    recs = []
    # 0: full record: context + feature lists of all three kinds
    recs.append(sequence_bytes(
        context=[("length", f_int([3])), ("name", f_bytes([b"seq-0"])), ("weight", f_float([0.75]))],
        feature_lists=[
            ("tokens", [f_int([1, 2]), f_int([3]), f_int([])]),
            ("scores", [f_float([0.5]), f_float([1.5, 2.5]), f_float([float("nan")])]),
            ("words", [f_bytes([b"a"]), f_bytes([b"b", b"\xff"]), f_bytes([])]),
        ]))
    # 1: empty feature lists and a FeatureList holding a kind-less Feature
    recs.append(sequence_bytes(
        context=[("id", f_int([1]))],
        feature_lists=[("empty", []), ("no_kind", [tf.train.Feature()]), ("x", [f_int([5])])]))
    # 2: empty context (set, no features)
    recs.append(sequence_bytes(context=[], feature_lists=[("x", [f_int([1]), f_int([2])])]))
    # 3: only feature_lists (context unset)
    recs.append(sequence_bytes(feature_lists=[("ys", [f_float([1.0]), f_float([2.0])])]))
    # 4: only context (feature_lists unset)
    recs.append(sequence_bytes(context=[("only", f_bytes([b"context"]))]))
    # 5: empty SequenceExample
    recs.append(tf.train.SequenceExample().SerializeToString())
    assert recs[-1] == b""
    # 6: both set, both empty
    recs.append(sequence_bytes(context=[], feature_lists=[]))
    # 7..11: random-ish records, unicode keys, scrambled wire order
    for i in range(5):
        n = rng.randrange(1, 5)
        recs.append(sequence_bytes(
            context=[("label", f_int([rng.randrange(3)])), ("ключ", f_bytes(["значение".encode()]))],
            feature_lists=[
                ("frames", [f_float([round(rng.random(), 3) for _ in range(3)]) for _ in range(n)]),
                ("ids", [f_int([rng.randrange(100)]) for _ in range(n)]),
            ]))
    tf_write("sequence.tfrecord", recs)
    tf_write("sequence.tfrecord.gz", recs, "GZIP")
    fixture("sequence", "sequence.tfrecord", payload="sequence",
            note="SequenceExamples: all three kinds, empty lists, empty / unset context, only feature_lists")
    fixture("sequence_gzip", "sequence.tfrecord.gz", "GZIP", payload="sequence")


def make_raw():
    rng = random.Random(5)
    lines = [b"the quick brown fox jumps over the lazy dog", b"line two", b"",
             "unicode: héllo 日本 😀".encode(), b"tab\tand \"quotes\"", b"{\"json\": true}"]
    tf_write("raw_text.tfrecord", lines)
    fixture("raw_text", "raw_text.tfrecord", payload="raw",
            note="text lines as payloads (not protobuf), including an empty one")
    blobs = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) for _ in range(10)]
    tf_write("raw_binary.tfrecord", blobs)
    fixture("raw_binary", "raw_binary.tfrecord", payload="raw", note="random byte payloads")
    put("empty.tfrecord", b"")
    fixture("empty", "empty.tfrecord", payload="none", note="zero-byte file")
    tf_write("empty_records.tfrecord", [b""] * 5)
    assert get("empty_records.tfrecord") == frame(b"") * 5
    fixture("empty_records", "empty_records.tfrecord", payload="raw",
            note="5 records with an empty payload (each also parses as an empty Example)")
    # A plain file that starts like a zlib stream (78 01) and one that starts with the gzip
    # magic (1f 8b): the first record's length is chosen so.
    p = bytes(rng.randrange(256) for _ in range(0x0178))
    tf_write("zlib_lookalike.tfrecord", [p, b"second"])
    assert get("zlib_lookalike.tfrecord")[:2] == b"\x78\x01"
    fixture("zlib_lookalike", "zlib_lookalike.tfrecord", payload="raw",
            note="plain file whose first bytes are 78 01 (a valid zlib header): its first 12 bytes are a valid record header")
    p = bytes(rng.randrange(256) for _ in range(0x8b1f))
    tf_write("gzip_lookalike.tfrecord", [p])
    assert get("gzip_lookalike.tfrecord")[:2] == b"\x1f\x8b"
    fixture("gzip_lookalike", "gzip_lookalike.tfrecord", payload="raw",
            note="plain file whose first bytes are 1f 8b 00 (gzip magic, but method byte is not 08)")


def make_damaged():
    base_recs = notebook_payloads(20, seed=42)
    tf_write("base20.tfrecord", base_recs)
    base = get("base20.tfrecord")
    offs = offsets_of(base)
    assert len(offs) == 20
    lens = [len(p) for p in base_recs]
    end = len(base)
    fixture("base20", "base20.tfrecord", note="the intact 20-record file the damaged fixtures are made from")

    def end_of(k):
        return offs[k] + 16 + lens[k]

    # trailing partial header
    nxt = frame(base_recs[0])
    for n in (1, 11):
        put("trailing_header_%d.tfrecord" % n, base + nxt[:n])
        fixture("trailing_header_%d" % n, "trailing_header_%d.tfrecord" % n,
                damage=damage("truncated_header", 20, end, trailing_bytes=n),
                note="base20 + the first %d bytes of another record header" % n)
    # a full header and nothing after it
    put("header_only_tail.tfrecord", base + nxt[:12])
    fixture("header_only_tail", "header_only_tail.tfrecord",
            damage=damage("truncated_payload", 20, end, detail="a complete 12-byte header, no data"),
            note="base20 + a complete record header, then end of file")
    # truncated payload: cut in the middle of record 7's data
    k = 7
    cut = offs[k] + 12 + lens[k] // 2
    put("truncated_payload.tfrecord", base[:cut])
    fixture("truncated_payload", "truncated_payload.tfrecord",
            damage=damage("truncated_payload", k, offs[k], detail="file cut at byte %d, inside the data" % cut))
    # truncated footer: cut inside record 12's data CRC
    k = 12
    cut = end_of(k) - 2
    put("truncated_footer.tfrecord", base[:cut])
    fixture("truncated_footer", "truncated_footer.tfrecord",
            damage=damage("truncated_payload", k, offs[k],
                          detail="file cut at byte %d, inside the data CRC (2 of 4 bytes present)" % cut))
    # length CRC mismatch: bit flip in record 3's length CRC
    k = 3
    b = bytearray(base)
    b[offs[k] + 9] ^= 0x10
    put("length_crc.tfrecord", bytes(b))
    fixture("length_crc", "length_crc.tfrecord",
            damage=damage("length_crc", k, offs[k], detail="bit flipped in the length CRC (byte %d)" % (offs[k] + 9)))
    # bit flip in record 9's length field (also a length CRC mismatch)
    k = 9
    b = bytearray(base)
    b[offs[k]] ^= 0x04
    put("length_field.tfrecord", bytes(b))
    fixture("length_field", "length_field.tfrecord",
            damage=damage("length_crc", k, offs[k], detail="bit flipped in the length field (byte %d)" % offs[k]))
    # data CRC mismatch: bit flip in record 5's payload
    k = 5
    b = bytearray(base)
    b[offs[k] + 12 + 20] ^= 0x01
    put("data_crc.tfrecord", bytes(b))
    fixture("data_crc", "data_crc.tfrecord",
            damage=damage("data_crc", k, offs[k], detail="bit flipped in the payload (byte %d)" % (offs[k] + 32)))
    # data CRC mismatch: the stored data CRC of record 14 damaged
    k = 14
    b = bytearray(base)
    b[end_of(k) - 1] ^= 0x80
    put("data_crc_footer.tfrecord", bytes(b))
    fixture("data_crc_footer", "data_crc_footer.tfrecord",
            damage=damage("data_crc", k, offs[k], detail="bit flipped in the stored data CRC (byte %d)" % (end_of(k) - 1)))
    # two faults in one file: data CRC at record 2 and length CRC at record 16
    b = bytearray(base)
    b[offs[2] + 12 + 5] ^= 0x02
    b[offs[16] + 8] ^= 0x01
    put("two_faults.tfrecord", bytes(b))
    fixture("two_faults", "two_faults.tfrecord",
            damage=damage("data_crc", 2, offs[2], detail="also a length CRC mismatch at record 16 (offset %d)" % offs[16],
                          more=[damage("length_crc", 16, offs[16])]))
    # huge length 2**62 with a valid length CRC, then a few bytes
    k = 3
    put("huge_length.tfrecord", base[:offs[k]] + header(2 ** 62) + b"\x01\x02\x03\x04\x05\x06\x07\x08")
    fixture("huge_length", "huge_length.tfrecord",
            damage=damage("length_beyond_end", k, offs[k],
                          detail="length field 2^62 with a valid length CRC, then 8 bytes"))
    # moderate length 1,000,000 with a valid length CRC on a tiny file
    k = 2
    put("moderate_length.tfrecord", base[:offs[k]] + header(1000000) + b"0123456789")
    fixture("moderate_length", "moderate_length.tfrecord",
            damage=damage("length_beyond_end", k, offs[k],
                          detail="length field 1000000 with a valid length CRC, then 10 bytes"))
    # trailing garbage
    rng = random.Random(2024)
    garbage = bytes(rng.randrange(256) for _ in range(20))
    put("trailing_garbage.tfrecord", base + garbage)
    fixture("trailing_garbage", "trailing_garbage.tfrecord",
            damage=damage("trailing_garbage", 20, end, trailing_bytes=20),
            note="base20 + 20 random bytes")
    # --- compressed damage ---
    nb_gz = get("notebook.tfrecord.gz")
    nb_plain = get("notebook.tfrecord")
    nb_offs = offsets_of(nb_plain)

    def first_incomplete(prefix):
        recs, _ = walk(prefix)
        return len(recs)

    half = nb_gz[:len(nb_gz) // 2]
    put("gzip_truncated.tfrecord.gz", half)
    prefix, err = inflate_prefix(half, 31)
    k = first_incomplete(prefix)
    fixture("gzip_truncated", "gzip_truncated.tfrecord.gz", "GZIP",
            damage=damage("corrupt_compressed", k, nb_offs[k],
                          detail="notebook.tfrecord.gz cut at byte %d of %d; %d bytes inflate (%s)"
                          % (len(half), len(nb_gz), len(prefix), err)))
    # Corrupt deflate data: overwrite 4 bytes in the middle with 0xff. Search deterministically
    # for a position where zlib reports an error and everything inflated before it is intact.
    pos = len(nb_gz) // 2
    while True:
        b = bytearray(nb_gz)
        b[pos:pos + 4] = b"\xff\xff\xff\xff"
        prefix, err = inflate_prefix(bytes(b), 31)
        if err and err.startswith("zlib") and prefix == nb_plain[:len(prefix)]:
            break
        pos += 1
    put("gzip_corrupt.tfrecord.gz", bytes(b))
    k = first_incomplete(prefix)
    fixture("gzip_corrupt", "gzip_corrupt.tfrecord.gz", "GZIP",
            damage=damage("corrupt_compressed", k, nb_offs[k],
                          detail="bytes %d..%d of notebook.tfrecord.gz set to ff; %d bytes inflate (%s)"
                          % (pos, pos + 4, len(prefix), err)))
    # Bad gzip trailer (CRC32 of the uncompressed data): every record inflates fine.
    b = bytearray(nb_gz)
    b[-8] ^= 0xFF
    put("gzip_bad_trailer.tfrecord.gz", bytes(b))
    prefix, err = inflate_prefix(bytes(b), 31)
    fixture("gzip_bad_trailer", "gzip_bad_trailer.tfrecord.gz", "GZIP",
            damage=damage("corrupt_compressed", first_incomplete(prefix), len(prefix),
                          detail="gzip trailer CRC32 damaged; all %d decompressed bytes present (%s)"
                          % (len(prefix), err)))
    # Corrupted zlib stream
    zl = get("notebook.zlib.tfrecord")
    pos = len(zl) // 3
    while True:
        b = bytearray(zl)
        b[pos:pos + 4] = b"\xff\xff\xff\xff"
        prefix, err = inflate_prefix(bytes(b), 15)
        if err and err.startswith("zlib") and prefix == nb_plain[:len(prefix)]:
            break
        pos += 1
    put("zlib_corrupt.tfrecord", bytes(b))
    k = first_incomplete(prefix)
    fixture("zlib_corrupt", "zlib_corrupt.tfrecord", "ZLIB",
            damage=damage("corrupt_compressed", k, nb_offs[k],
                          detail="bytes %d..%d of notebook.zlib.tfrecord set to ff; %d bytes inflate (%s)"
                          % (pos, pos + 4, len(prefix), err)))
    # SNAPPY damage, in the second block of the multi-block fixture.
    sn = get("blocks.snappy.tfrecord")
    sn_plain = snappy_prefix(sn)[0]
    sn_offs = offsets_of(sn_plain)
    (second, length) = snappy_blocks(sn)[1]
    cut = sn[:second + 4 + length // 2]
    put("snappy_truncated.tfrecord", cut)
    prefix, err = snappy_prefix(cut)
    k = first_incomplete(prefix)
    fixture("snappy_truncated", "snappy_truncated.tfrecord", "SNAPPY",
            damage=damage("corrupt_compressed", k, sn_offs[k],
                          detail="blocks.snappy.tfrecord cut inside its second block; %d bytes decode (%s)"
                          % (len(prefix), err)))
    b = bytearray(sn)
    b[second + 4] ^= 0x01  # the block's decompressed length (a varint), off by one
    put("snappy_corrupt.tfrecord", bytes(b))
    prefix, err = snappy_prefix(bytes(b))
    assert err and err.startswith("snappy") and prefix == sn_plain[:len(prefix)], err
    k = first_incomplete(prefix)
    fixture("snappy_corrupt", "snappy_corrupt.tfrecord", "SNAPPY",
            damage=damage("corrupt_compressed", k, sn_offs[k],
                          detail="the second block's length varint of blocks.snappy.tfrecord changed; "
                          "%d bytes decode (%s)" % (len(prefix), err)))
    # gzip whose inner TFRecord stream is damaged (data CRC at record 5)
    put("gzip_inner_damage.tfrecord.gz", gzip_bytes(get("data_crc.tfrecord")))
    fixture("gzip_inner_damage", "gzip_inner_damage.tfrecord.gz", "GZIP",
            damage=damage("data_crc", 5, offs[5], detail="data_crc.tfrecord gzipped (offset in the decompressed stream)"))
    put("gzip_inner_truncated.tfrecord.gz", gzip_bytes(get("truncated_payload.tfrecord")))
    fixture("gzip_inner_truncated", "gzip_inner_truncated.tfrecord.gz", "GZIP",
            damage=damage("truncated_payload", 7, offs[7],
                          detail="truncated_payload.tfrecord gzipped (offset in the decompressed stream)"))


def make_not_tfrecord():
    csv = b"id,name,score\n1,alice,0.5\n2,bob,0.25\n3,\"carol, jr\",1.0\n"
    put("not_tfrecord.csv", csv)
    fixture("not_csv", "not_tfrecord.csv", payload="none", damage=damage("not_tfrecord", 0, 0, detail="CSV text"))
    html = (b"<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Page not found</title></head>\n"
            b"<body><h1>404</h1><p>The requested URL was not found on this server.</p></body>\n</html>\n")
    put("not_tfrecord.html", html)
    fixture("not_html", "not_tfrecord.html", payload="none", damage=damage("not_tfrecord", 0, 0, detail="HTML page"))
    lfs = (b"version https://git-lfs.github.com/spec/v1\n"
           b"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
           b"size 12345\n")
    put("lfs_pointer.tfrecord", lfs)
    fixture("not_lfs_pointer", "lfs_pointer.tfrecord", payload="none",
            damage=damage("not_tfrecord", 0, 0, detail="Git LFS pointer file"))
    put("not_tfrecord.csv.gz", gzip_bytes(csv))
    fixture("not_gzip_text", "not_tfrecord.csv.gz", "GZIP", payload="none",
            damage=damage("not_tfrecord", 0, 0, detail="gzip-compressed CSV (offset in the decompressed stream)"))
    put("tiny_text.txt", b"hello\n")
    fixture("tiny_text", "tiny_text.txt", payload="none",
            damage=damage("truncated_header", 0, 0, trailing_bytes=6,
                          detail="a 6-byte text file: shorter than one record header"))


# ----------------------------------------------------------------------------
# Oracle: read everything back with TensorFlow, render with Python protobuf
# ----------------------------------------------------------------------------

def decompressed(data, comp):
    if comp == "SNAPPY":
        return snappy_prefix(data)[0]
    if comp == "GZIP":
        return inflate_prefix(data, 31)[0]
    if comp == "ZLIB":
        return inflate_prefix(data, 15)[0]
    return data


def message_class(kind):
    tf = _tf()
    if kind == "elwc":
        # pip install --no-deps tensorflow-serving-api (its TensorFlow pin is not needed)
        from tensorflow_serving.apis import input_pb2
        return input_pb2.ExampleListWithContext
    return tf.train.Example if kind == "example" else tf.train.SequenceExample


def render(payload, kind):
    from google.protobuf import json_format, text_format
    cls = message_class(kind)
    try:
        msg = cls.FromString(payload)
    except Exception:  # noqa: BLE001
        return None, None
    return (text_format.MessageToString(msg),
            json_format.MessageToJson(msg, indent=None, sort_keys=True))


def tf_parser_verdict(payload, kind="example"):
    """What TensorFlow's C++ parser (tf.io.parse_example, or
    parse_sequence_example for kind "sequence") makes of a payload, against
    Python protobuf: "same", "differs" (other values, or a feature
    missing), "rejects" (every feature protobuf sees is requested, a
    kind-less one as float32), or "protobuf_rejects"."""
    if kind == "sequence":
        return tf_sequence_verdict(payload)
    tf = _tf()
    try:
        msg = tf.train.Example.FromString(payload)
    except Exception:  # noqa: BLE001
        return "protobuf_rejects"
    dtypes = {"float_list": tf.float32, "int64_list": tf.int64, "bytes_list": tf.string, None: tf.float32}
    want, spec = {}, {}
    for key, feature in msg.features.feature.items():
        kind = feature.WhichOneof("kind")
        spec[key] = tf.io.VarLenFeature(dtypes[kind])
        want[key] = (kind, list(getattr(feature, kind).value) if kind else [])
    if not spec:
        spec = {"no feature": tf.io.VarLenFeature(tf.int64)}
    # Batch and single parsing take different paths (an empty Feature after
    # a non-empty one of its name is missing in one, the earlier values in
    # the other): the verdict is the worst of the two.
    readers = (lambda: tf.io.parse_example(tf.constant([payload]), spec),
               lambda: tf.io.parse_single_example(payload, spec))
    verdict = "same"
    for parse in readers:
        try:
            got = parse()
        except Exception:  # noqa: BLE001
            return "rejects"
        for key, (kind, values) in want.items():
            read = got[key].values.numpy()
            if kind == "float_list":
                same = np.array(values, np.float32).view(np.uint32).tolist() == read.view(np.uint32).tolist()
            else:
                same = values == read.tolist()
            if not same:
                verdict = "differs"
    return verdict


def tf_sequence_verdict(payload):
    tf = _tf()
    try:
        msg = tf.train.SequenceExample.FromString(payload)
    except Exception:  # noqa: BLE001
        return "protobuf_rejects"
    dtypes = {"float_list": tf.float32, "int64_list": tf.int64, "bytes_list": tf.string, None: tf.float32}

    def values(feature):
        kind = feature.WhichOneof("kind")
        if not kind:
            return []
        v = list(getattr(feature, kind).value)
        return np.array(v, np.float32).view(np.uint32).tolist() if kind == "float_list" else v

    def read(array):
        return array.view(np.uint32).tolist() if array.dtype == np.float32 else array.tolist()

    cspec, sspec, cwant, swant = {}, {}, {}, {}
    for key, feature in msg.context.feature.items():
        cspec[key] = tf.io.VarLenFeature(dtypes[feature.WhichOneof("kind")])
        cwant[key] = values(feature)
    for key, flist in msg.feature_lists.feature_list.items():
        kind = next((k for k in (f.WhichOneof("kind") for f in flist.feature) if k), None)
        sspec[key] = tf.io.RaggedFeature(dtypes[kind], row_splits_dtype=tf.int64)
        swant[key] = [values(f) for f in flist.feature]
    if not cspec and not sspec:
        cspec = {"no feature": tf.io.VarLenFeature(tf.int64)}
    try:
        context, lists, _ = tf.io.parse_sequence_example(
            tf.constant([payload]), context_features=cspec or None, sequence_features=sspec or None)
    except Exception:  # noqa: BLE001
        return "rejects"
    for key, want in cwant.items():
        if read(context[key].values.numpy()) != want:
            return "differs"
    for key, want in swant.items():
        if [read(step.numpy()) for step in lists[key][0]] != want:
            return "differs"
    return "same"


def parses_as(payload):
    tf = _tf()
    out = []
    for name, cls in (("example", tf.train.Example), ("sequence", tf.train.SequenceExample),
                      ("elwc", message_class("elwc"))):
        try:
            cls.FromString(payload)
            out.append(name)
        except Exception:  # noqa: BLE001
            pass
    return out


def make_float_table():
    """expected/float32_repr.json: how Python protobuf prints float32 values, for a renderer
    to be checked against: [[bits as 8 hex digits, text_format token, json_format token], ...]."""
    tf = _tf()
    from google.protobuf import json_format, text_format
    rng = np.random.RandomState(32)
    bits = set()
    for v in FLOAT_EDGES:
        bits.add(struct.unpack("<I", struct.pack("<f", v))[0])
    for e in range(-46, 39):  # powers of ten and neighbours
        for m in (1.0, 1.5, 2.5, 9.999999, 3.0 / 7):
            b = struct.unpack("<I", struct.pack("<f", float(np.float32(m * 10.0 ** e))))[0]
            bits.update({b, b + 1, b - 1})
    bits.update(range(0, 40))  # smallest subnormals
    bits.update(0x00800000 + d for d in range(-20, 20))  # subnormal / normal boundary
    bits.update(0x7F7FFFFF - d for d in range(20))  # largest finite values
    bits.update(int(b) for b in rng.randint(0, 2 ** 31, size=1500))  # random positive
    bits.update(int(b) | 0x80000000 for b in rng.randint(0, 2 ** 31, size=300))  # random negative
    bits.update(struct.unpack("<I", struct.pack("<f", float(np.float32(x))))[0]
                for x in rng.randn(300))
    bits.update(struct.unpack("<I", struct.pack("<f", float(i)))[0] for i in range(0, 2050, 7))
    bits.update(struct.unpack("<I", struct.pack("<f", float(np.float32(i / 1000))))[0] for i in range(1000))
    bits = sorted(b & 0xFFFFFFFF for b in bits)
    rows = []
    for b in bits:
        v = struct.unpack("<f", struct.pack("<I", b))[0]
        if v != v and b not in (0x7FC00000, 0xFFC00000):
            continue  # NaN payloads: keep only the two quiet NaNs
        m = tf.train.FloatList(value=[v])
        text = text_format.MessageToString(m, as_one_line=True)
        assert text.startswith("value: ")
        js = json.loads(json_format.MessageToJson(m, indent=None))["value"][0]
        js_token = js if isinstance(js, str) else json_format.MessageToJson(m, indent=None)[11:-2]
        rows.append(["%08x" % b, text[len("value: "):], js_token])
    with open(os.path.join(EXPECTED, "float32_repr.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
    return "expected/float32_repr.json"


def run_oracle():
    import google.protobuf
    tf = _tf()
    jobs, where = [], []
    for i, fx in enumerate(FIXTURES):
        path = os.path.join(DATA, fx["file"])
        jobs.append((path, fx["tf_compression"]))
        where.append((i, None))
        for comp in fx["also_read_as"]:
            jobs.append((path, comp))
            where.append((i, comp))
    results = tf_read_all(jobs)
    entries = [None] * len(FIXTURES)
    extra = {}
    for (i, alt), res in zip(where, results):
        if alt is None:
            entries[i] = res
        else:
            extra.setdefault(i, []).append({
                "tf_compression": alt, "tf_records": len(res["records"]),
                "tf_error": res["error"], "tf_error_raw": res["error_raw"],
                "tf_signal": res["signal"]})

    manifest = {"tensorflow": tf.__version__, "protobuf": google.protobuf.__version__,
                "float32_table": make_float_table(), "fixtures": []}
    os.makedirs(EXPECTED, exist_ok=True)
    written = {}
    for i, fx in enumerate(FIXTURES):
        res = entries[i]
        raw = get(fx["file"])
        stream = decompressed(raw, fx["tf_compression"])
        good, _ = walk(stream)
        recs = res["records"]
        # TensorFlow's records must be the leading intact records of the stream.
        assert [p for _, p in good[:len(recs)]] == recs, fx["name"]
        entry = {
            "name": fx["name"], "file": fx["file"], "size": len(raw),
            "tf_compression": fx["tf_compression"], "payload": fx["payload"],
            "tf_records": len(recs), "tf_error": res["error"], "tf_error_raw": res["error_raw"],
            "tf_signal": res["signal"],
            "damage": fx["damage"], "intact_records": count_intact(stream),
            "expected": None,
        }
        if fx["note"]:
            entry["note"] = fx["note"]
        if fx["cases"]:
            entry["cases"] = fx["cases"]
        if i in extra:
            entry["tf_other_compression"] = extra[i]
        if recs or (res["error"] is None and res["signal"] is None):
            exp = {
                "payloads_b64": [base64.b64encode(p).decode() for p in recs],
                "offsets": [off for off, _ in good[:len(recs)]],
                "parses_as": [parses_as(p) for p in recs],
            }
            if fx["payload"] in ("example", "sequence", "elwc"):
                rendered = [render(p, fx["payload"]) for p in recs]
                exp["text"] = [t for t, _ in rendered]
                exp["protojson"] = [j for _, j in rendered]
            if fx["payload"] in ("example", "sequence"):
                exp["tf_parser"] = [tf_parser_verdict(p, fx["payload"]) for p in recs]
            text = json.dumps(exp, indent=1, ensure_ascii=False) + "\n"
            if text not in written:  # fixtures with the same records share one file
                written[text] = "expected/%s.json" % fx["name"]
                with open(os.path.join(DATA, written[text]), "w") as f:
                    f.write(text)
            entry["expected"] = written[text]
        manifest["fixtures"].append(entry)
    with open(os.path.join(DATA, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return manifest


def main():
    os.makedirs(DATA, exist_ok=True)
    os.makedirs(EXPECTED, exist_ok=True)
    # Remove what a previous run generated (README.md is hand-written and stays).
    old_manifest = os.path.join(DATA, "manifest.json")
    if os.path.exists(old_manifest):
        with open(old_manifest) as f:
            for fx in json.load(f)["fixtures"]:
                if os.path.exists(os.path.join(DATA, fx["file"])):
                    os.remove(os.path.join(DATA, fx["file"]))
    for n in os.listdir(EXPECTED):
        os.remove(os.path.join(EXPECTED, n))
    assert frame(b"foo").hex() == "0300000000000000b099490e666f6f618abefe"
    assert frame(b"") == bytes(8) + bytes.fromhex("29039807") + bytes.fromhex("d8ea82a2")
    make_notebook()
    make_images()
    make_edge()
    make_noncanonical()
    make_bad_utf8_key()
    make_sequence()
    make_raw()
    make_snappy()
    make_elwc()
    make_payloads()
    make_damaged()
    make_not_tfrecord()
    names = [f["name"] for f in FIXTURES]
    assert len(names) == len(set(names))
    manifest = run_oracle()
    total = sum(f["size"] for f in manifest["fixtures"])
    for f in manifest["fixtures"]:
        print("%-22s %7d B  tf_records=%-4d intact=%-4d %s%s" % (
            f["name"], f["size"], f["tf_records"], f["intact_records"],
            f["tf_signal"] or "", f["tf_error"] or ""))
    print("total fixture bytes: %d" % total)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--tf-read":
        tf_read_child()
    else:
        main()

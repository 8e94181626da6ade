#!/usr/bin/env python3
"""Reliability yardstick for tfr: hostile inputs thrown at every command.

Usage:
    python3 fuzz/reliability.py [--tfr PATH] [--only REGEX] [--json]
                                [--limit-mb 4096] [--timeout 60] [--stream-secs 10]
                                [--slow-secs 6] [--tmpdir DIR] [--keep] [-v]

Python 3.11 standard library only. Every input is generated here, in a temp
directory that is removed at the end (--keep leaves it). Each row runs one
tfr process and checks, against the product contract (issue 17):

  * peak RSS <= allowance, where allowance = 64 MB + k x R:  R is the largest
    record (or JSONL line) the command must hold, k = 3 for commands that
    must hold a record to render or encode it (head, cat, to-jsonl, schema,
    from-jsonl) and k = 0 for commands that can stream (count, verify-crc,
    verify-crc --salvage). Peak RSS is the child's own ru_maxrss (os.wait4),
    cross-checked by sampling /proc/PID/status.
  * the exit code is one of the expected ones (0 success, 1 verify-crc found
    damage, 2 error);
  * an error (exit 2) is one clear line on stderr ("tfr: ..."), never a panic
    or an allocation abort;
  * it ends within --timeout seconds. Rows where streaming is a legitimate
    answer (count / verify-crc / --salvage on an endless stdin after a
    2^40-byte header, verify-crc on the 32 GiB sparse record) are stopped
    after --stream-secs and pass if memory stayed bounded ("still streaming");
  * no temporary file is left next to an -o / --salvage output.

Cases (each at every command unless noted): /dev/zero on stdin; zeros
through a pipe; a valid header announcing 2^40 bytes then endless zeros; an
endless line without newline; SNAPPY streams with a 16 MiB block of zeros
or a block announcing 4 GiB, and an 8 MiB record in a block of its own; a 50 GB sparse file whose first header
announces 32 GiB; a header announcing 2^62 then 100 bytes; a 200 MiB record
(text and binary value); 2,000 files of 200 KB through a quoted glob with a
slow stdout reader (cat, cat -j 1, to-jsonl, head) and without (the rest);
-j 8000 / -j 20000 (cat, to-jsonl, count, verify-crc, from-jsonl with and
without gzip); 1M distinct feature names in a TFRecord file; from-jsonl on a
200 MiB int-list line, a line of 1M features, 1M names over 10k lines.

Safety: each tfr runs in its own process group under RLIMIT_AS = --limit-mb
(and RLIMIT_FSIZE = --fsize-mb, RLIMIT_CORE = 0); a sampler SIGKILLs it if
its RSS passes --limit-mb. On timeout tfr gets SIGTERM (its chance to remove
temp files), SIGKILL 3 s later, and its whole process group 3 s after that.
GNU time (/usr/bin/time), when present, is tfr's parent and reports its peak
RSS exactly. Sparse files do not count against disk; real disk use stays
under about 1.5 GB. A full run takes about two minutes.

Issue 27 added: schemas and saved statistics (/dev/zero as --schema and
--merge, a 30 MB saved statistics file, a forged t-digest, a 20 MB
schema.pbtxt at validate and report) and report's images (a 36 MP WebP
header, GIFs whose 1x1 screen hides a 6000x6000 frame, 1,200 of them in one
record); a saved statistics file's allowance is 64 MB + 3 x its size, a
schema's 64 MB + 3 x the 64 MiB --max-aux-size bound (a schema.pbtxt of
small features takes about 10 times its size: 230 MB for 20 MB).

Exit status: 0 every row ok, 1 some row failed, 2 setup error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable

MB = 1 << 20
GIB = 1 << 30
BASE_MB = 64          # every command: 64 MB of its own, plus k x the record it holds
HOLD_K = 3            # multiple of the largest record a holding command may use

# --------------------------------------------------------------------------
# CRC-32C (Castagnoli), fast enough in pure Python for tens of MB, and with
# combine() so that the CRC of huge repetitive payloads costs nothing.
# --------------------------------------------------------------------------

POLY = 0x82F63B78  # reflected Castagnoli


def _tables():
    t8 = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ POLY if c & 1 else c >> 1
        t8.append(c)
    # t16[x]: register x (16 bits) advanced over two zero bytes.
    t16 = []
    for x in range(65536):
        a = t8[x & 0xFF] ^ (x >> 8)
        t16.append(t8[a & 0xFF] ^ (a >> 8))
    # t32lo[x]: register x (low 16 bits) advanced over four zero bytes.
    t32lo = []
    for x in range(65536):
        a = t16[x]
        t32lo.append(t16[a & 0xFFFF] ^ (a >> 16))
    return t8, t16, t32lo


T8, T16, T32LO = _tables()


def crc32c(data, crc: int = 0) -> int:
    """Standard CRC-32C of data (continuing from crc, as zlib.crc32 does)."""
    crc ^= 0xFFFFFFFF
    mv = memoryview(data).cast("B")
    n4 = len(mv) // 4 * 4
    if n4 and sys.byteorder == "little":
        t16, t32 = T16, T32LO
        for w in mv[:n4].cast("I"):
            c = crc ^ w
            crc = t32[c & 0xFFFF] ^ t16[c >> 16]
        rest = mv[n4:]
    else:
        rest = mv
    t8 = T8
    for b in rest:
        crc = t8[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _multmodp(a: int, b: int) -> int:
    m, p = 1 << 31, 0
    while True:
        if a & m:
            p ^= b
            if (a & (m - 1)) == 0:
                break
        m >>= 1
        b = (b >> 1) ^ POLY if b & 1 else b >> 1
    return p


def _x2n_table(size: int):
    p, t = 1 << 30, []
    for _ in range(size):
        t.append(p)
        p = _multmodp(p, p)
    return t


# x^(2^k) mod p for k up to 3 + 64 (a length in bits of up to 2^64 bytes).
# zlib indexes its 32-entry table with k & 31, which holds for its own
# polynomial; for Castagnoli's x^(2^32) is not x^(2^0), so wrapping gave
# wrong CRCs for lengths of 2^29 bytes (512 MiB) and more.
X2N = _x2n_table(3 + 64 + 1)


def _x2nmodp(n: int, k: int) -> int:
    p = 1 << 31
    while n:
        if n & 1:
            p = _multmodp(X2N[k], p)
        n >>= 1
        k += 1
    return p


def crc32c_combine(crc1: int, crc2: int, len2: int) -> int:
    """CRC of A+B from crc(A), crc(B) and len(B) (zlib's crc32_combine)."""
    return _multmodp(_x2nmodp(len2, 3), crc1) ^ crc2


def _crc32c_combine_matrix(crc1: int, crc2: int, len2: int) -> int:
    """crc32c_combine by another method (zlib 1.2's GF(2) operator
    matrices, squared per bit of len2): a check on the one above."""
    def times(mat, vec):
        s, i = 0, 0
        while vec:
            if vec & 1:
                s ^= mat[i]
            vec >>= 1
            i += 1
        return s

    def square(mat):
        return [times(mat, mat[n]) for n in range(32)]

    if len2 == 0:
        return crc1
    odd = [POLY] + [1 << n for n in range(31)]   # one zero bit
    even = square(odd)                           # two zero bits
    odd = square(even)                           # four zero bits
    while True:
        even = square(odd)  # first pass: one zero byte
        if len2 & 1:
            crc1 = times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = square(even)
        if len2 & 1:
            crc1 = times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


def crc32c_repeat(block: bytes, k: int) -> int:
    """CRC of block * k without building it."""
    res = 0
    p_crc, p_len = crc32c(block), len(block)
    while k:
        if k & 1:
            res = crc32c_combine(res, p_crc, p_len)
        p_crc = crc32c_combine(p_crc, p_crc, p_len)
        p_len *= 2
        k >>= 1
    return res


def masked(crc: int) -> int:
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def header(length: int) -> bytes:
    lb = struct.pack("<Q", length)
    return lb + struct.pack("<I", masked(crc32c(lb)))


def record(payload: bytes) -> bytes:
    return header(len(payload)) + payload + struct.pack("<I", masked(crc32c(payload)))


def _self_test():
    assert record(b"foo") == bytes.fromhex("0300000000000000b099490e666f6f618abefe"), "crc32c vector"
    assert record(b"") == bytes.fromhex("000000000000000029039807d8ea82a2"), "empty record vector"
    rnd = random.Random(1)
    for n in (0, 1, 3, 4, 5, 17, 1000):
        blk = bytes(rnd.randrange(256) for _ in range(n))
        for k in (0, 1, 2, 3, 7):
            assert crc32c_repeat(blk, k) == crc32c(blk * k), ("repeat", n, k)
        assert crc32c(blk + b"xyz") == crc32c_combine(crc32c(blk), crc32c(b"xyz"), 3)
        assert crc32c(blk[3:], crc32c(blk[:3])) == crc32c(blk)
    # Lengths of 512 MiB and more (a wrapped table got these wrong).
    for n in (1, 1000, (1 << 29) - 1, 1 << 29, (1 << 29) + 12345, 3 << 30, (1 << 40) + 7, (1 << 62) + 1):
        a, b = rnd.getrandbits(32), rnd.getrandbits(32)
        assert crc32c_combine(a, b, n) == _crc32c_combine_matrix(a, b, n), ("combine", n)


def _check_big_crc(tfr: str, root: str):
    """The CRC of a record of 512 MiB + 12,345 zeros (a sparse file) as
    computed here, checked by tfr verify-crc (whose CRC-32C is held to
    TensorFlow's): the harness's own CRCs of huge records are right."""
    n = (1 << 29) + 12345
    p = os.path.join(root, "crc-check.tfrecord")
    with open(p, "wb") as f:
        f.write(header(n))
        f.truncate(12 + n)
        f.seek(12 + n)
        f.write(struct.pack("<I", masked(crc32c_repeat(b"\0", n))))
    try:
        r = subprocess.run([tfr, "verify-crc", p], capture_output=True, text=True, timeout=120)
    finally:
        os.remove(p)
    if r.returncode != 0:
        raise SystemExit(f"reliability.py: self-test: tfr verify-crc disagrees with the harness's CRC of "
                         f"{n} zeros: {r.stdout}{r.stderr}")


# --------------------------------------------------------------------------
# Protobuf (tf.train.Example) encoding
# --------------------------------------------------------------------------


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def ld(field: int, payload: bytes) -> bytes:
    return bytes([field << 3 | 2]) + varint(len(payload)) + payload


def feat_bytes(*values: bytes) -> bytes:
    return ld(1, b"".join(ld(1, v) for v in values))


def feat_int64(*values: int) -> bytes:
    return ld(3, ld(1, b"".join(varint(v) for v in values)))


def feat_float(*values: float) -> bytes:
    return ld(2, ld(1, struct.pack(f"<{len(values)}f", *values)))


def example(items) -> bytes:
    """items: iterable of (name: bytes, encoded Feature)."""
    return ld(1, b"".join(ld(1, ld(1, name) + ld(2, feat)) for name, feat in items))


def big_bytes_example_prefix(name: bytes, n: int) -> bytes:
    """Every byte of Example{name: bytes_list[<n bytes>]} before the n bytes."""
    bl = 1 + len(varint(n)) + n
    fe = 1 + len(varint(bl)) + bl
    en = 1 + len(varint(len(name))) + len(name) + 1 + len(varint(fe)) + fe
    fs = 1 + len(varint(en)) + en
    prefix = (b"\x0a" + varint(fs) + b"\x0a" + varint(en) + ld(1, name) + b"\x12" + varint(fe)
              + b"\x0a" + varint(bl) + b"\x0a" + varint(n))
    assert len(prefix) + n == 1 + len(varint(fs)) + fs
    return prefix


# --------------------------------------------------------------------------
# Fixtures: generated on first use, so --only builds only what it needs.
# --------------------------------------------------------------------------

GLOB_FILES = 2000
GLOB_RECORDS = 10          # per file
GLOB_VALUE = 20 * 1000     # bytes per record value: 10 x 20 KB = 200 KB per file
BIG_BLOCK = 64 * 1024
BIG_BLOCKS = 3200          # 200 MiB bytes value
SPARSE_SIZE = 50 * 10**9   # apparent size
SPARSE_LEN = 32 * GIB      # first header's length
LONG_LINE_CHUNKS = 200     # x 1 MiB of "1234567," -> 200 MiB line
NAMES_RECORDS = 10_000
NAMES_PER_RECORD = 100     # 1M distinct names
ONE_LINE_FEATURES = 1_000_000
SMALL_JSONL_LINES = 100_000


def _alnum_block(n: int, seed: int) -> bytes:
    rnd = random.Random(seed)
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return bytes(alphabet[rnd.randrange(len(alphabet))] for _ in range(n))


class Fixtures:
    def __init__(self, root: str, log: Callable[[str], None]):
        self.root = root
        self.log = log
        self._done: dict[str, object] = {}
        self.sizes: dict[str, float] = {}   # R in MB, per fixture

    def _once(self, key, make):
        if key not in self._done:
            t0 = time.monotonic()
            self._done[key] = make()
            self.log(f"  generated {key} in {time.monotonic() - t0:.1f} s")
        return self._done[key]

    def path(self, name):
        return os.path.join(self.root, name)

    # A few small records (the data beside a hostile --schema).
    def small(self) -> str:
        def make():
            p = self.path("small.tfrecord")
            with open(p, "wb") as f:
                for i in range(10):
                    f.write(record(example([(b"f0001", feat_int64(i))])))
            with open(self.path("small.jsonl"), "w") as f:
                f.write('{"f0001": [1]}\n')
            return p
        return self._once("small", make)

    # A schema.pbtxt of 20 MB (about 240,000 features).
    def pbtxt(self) -> str:
        def make():
            p = self.path("schema.pbtxt")
            with open(p, "w") as f:
                i = 0
                while f.tell() < 20 * MB:
                    f.write('feature {\n  name: "f%04d"\n  type: INT\n  value_count {\n    min: 1\n    max: 1\n  }\n}\n' % i)
                    i += 1
            self.sizes["pbtxt"] = os.path.getsize(p) / MB
            return p
        return self._once("pbtxt", make)

    # Statistics saved by `tfr stats --format json` of 5,000 features with
    # 400 distinct values each (about 30 MB).
    def saved_stats(self) -> str:
        def make():
            data = self.path("wide.tfrecord")
            with open(data, "wb") as f:
                for r in range(400):
                    f.write(record(example([(b"f%04d" % k, feat_int64(r * 7919 + k)) for k in range(5000)])))
            p = self.path("saved.json")
            with open(p, "wb") as out:
                subprocess.run([self.tfr, "stats", "--format", "json", data], stdout=out,
                               stderr=subprocess.DEVNULL, check=True)
            self.sizes["saved_stats"] = os.path.getsize(p) / MB
            return p
        return self._once("saved_stats", make)

    # A saved statistics file whose t-digest has count 0 and one centroid
    # of weight 1e-9 (a panic in the tdigest crate, issue 27).
    def forged_stats(self) -> str:
        def make():
            data = self.path("floats.tfrecord")
            with open(data, "wb") as f:
                for r in range(5000):
                    f.write(record(example([(b"x", feat_float(r * 0.5))])))
            saved = subprocess.run([self.tfr, "stats", "--format", "json", data], capture_output=True,
                                   check=True).stdout
            doc = json.loads(saved)
            q = doc["features"][0]["deep"]["float"]["quantiles"]
            q["n"] = 0
            q["tdigest"].update(count=0, centroids=[{"mean": 1.0, "weight": 1e-9}], min=1.0, max=1.0)
            p = self.path("forged.json")
            with open(p, "w") as f:
                json.dump(doc, f)
            return p
        return self._once("forged_stats", make)

    # report's images: a WebP whose header announces 6000x6000 (36 MP), and
    # GIFs whose logical screen is 1x1 and whose frame is 6000x6000:
    # one record of the WebP then 24 of 6 GIFs each; and one record of
    # 1,200 GIFs (200 features of 6).
    def images(self, many: bool) -> str:
        key = "images-1200" if many else "images"

        def make():
            side = 6000 - 1
            vp8l = bytes([0x2F]) + struct.pack("<I", side | side << 14) + bytes(64)
            webp = b"RIFF" + struct.pack("<I", 4 + 8 + len(vp8l)) + b"WEBP" + b"VP8L" + struct.pack("<I", len(vp8l)) + vp8l
            gif = (b"GIF89a" + struct.pack("<HH", 1, 1) + bytes([0x80, 0, 0]) + bytes(6)
                   + b"\x2c" + struct.pack("<HHHH", 0, 0, 6000, 6000) + b"\x00"
                   + bytes([2, 2, 0x2C, 0x00, 0]) + b"\x3b")
            p = self.path(key + ".tfrecord")
            with open(p, "wb") as f:
                if many:
                    f.write(record(example([(b"img%03d" % k, feat_bytes(*[gif] * 6)) for k in range(200)])))
                else:
                    f.write(record(example([(b"img", feat_bytes(webp))])))
                    for _ in range(24):
                        f.write(record(example([(b"img", feat_bytes(*[gif] * 6))])))
            self.sizes[key] = os.path.getsize(p) / MB
            return p
        return self._once(key, make)

    # 2,000 files of 200 KB (10 records of a 20 KB text value + a label).
    def glob(self) -> str:
        def make():
            d = self.path("glob")
            os.mkdir(d)
            value = _alnum_block(GLOB_VALUE, 2)
            data = b"".join(record(example([(b"label", feat_int64(i)), (b"text", feat_bytes(value))]))
                            for i in range(GLOB_RECORDS))
            for i in range(GLOB_FILES):
                with open(os.path.join(d, f"part-{i:05d}.tfrecord"), "wb") as f:
                    f.write(data)
            self.sizes["glob"] = GLOB_VALUE / MB
            return os.path.join(d, "*")
        return self._once("glob", make)

    # One 200 MiB record (Example{"blob": bytes_list[200 MiB]}), then a small
    # one. The value is text (letters and digits: printed as is) or binary
    # (random bytes: octal escapes in text, base64 in JSON).
    def big(self, binary: bool = False) -> str:
        key = "big-binary" if binary else "big"

        def make():
            p = self.path(key + ".tfrecord")
            block = random.Random(4).randbytes(BIG_BLOCK) if binary else _alnum_block(BIG_BLOCK, 3)
            n = BIG_BLOCK * BIG_BLOCKS
            prefix = big_bytes_example_prefix(b"blob", n)
            crc = crc32c_combine(crc32c(prefix), crc32c_repeat(block, BIG_BLOCKS), n)
            with open(p, "wb") as f:
                f.write(header(len(prefix) + n))
                f.write(prefix)
                for _ in range(BIG_BLOCKS):
                    f.write(block)
                f.write(struct.pack("<I", masked(crc)))
                f.write(record(example([(b"blob", feat_bytes(b"small"))])))
            self.sizes[key] = (len(prefix) + n) / MB
            return p
        return self._once(key, make)

    # TensorFlow's writer gives a record over its 256 KiB buffer a SNAPPY
    # block of its own: an 8 MiB record so framed.
    def snappy_big(self) -> str:
        def make():
            p = self.path("big.snappy")
            payload = example([(b"blob", feat_bytes(_alnum_block(8 * MB, 5)))])
            framed = record(payload)
            with open(p, "wb") as f:
                f.write(snappy_block(framed[:12]))
                f.write(snappy_block(framed[12:-4]))
                f.write(snappy_block(framed[-4:]))
                f.write(snappy_block(record(example([(b"blob", feat_bytes(b"small"))]))))
            self.sizes["snappy_big"] = len(payload) / MB
            return p
        return self._once("snappy_big", make)

    # A regular sparse file: 50 GB apparent, first header announces 32 GiB
    # (valid length CRC), the payload is a hole (its data CRC does not match).
    def sparse(self) -> str:
        def make():
            p = self.path("sparse.tfrecord")
            with open(p, "wb") as f:
                f.write(header(SPARSE_LEN))
                f.truncate(SPARSE_SIZE)
            st = os.stat(p)
            if st.st_blocks * 512 > 64 * MB:
                raise RuntimeError(f"{p}: the file system did not keep it sparse")
            return p
        return self._once("sparse", make)

    # A header announcing 2^62 bytes with a valid length CRC, then 100 bytes.
    # (This header crashes TensorFlow 2.21 with SIGSEGV.)
    def len62(self) -> str:
        def make():
            p = self.path("len62.tfrecord")
            with open(p, "wb") as f:
                f.write(header(1 << 62) + b"x" * 100)
            return p
        return self._once("len62", make)

    # 10,000 records x 100 int64 features, every feature name distinct (1M names).
    def names_tfrecord(self) -> str:
        def make():
            p = self.path("names.tfrecord")
            feat = feat_int64(1)
            entry_tail = b"\x12" + varint(len(feat)) + feat
            size = 0
            with open(p, "wb") as f:
                k = 0
                for _ in range(NAMES_RECORDS):
                    entries = []
                    for _ in range(NAMES_PER_RECORD):
                        e = b"\x0a\x08n%07d" % k + entry_tail
                        entries.append(b"\x0a" + varint(len(e)) + e)
                        k += 1
                    payload = ld(1, b"".join(entries))
                    size = max(size, len(payload))
                    f.write(record(payload))
            self.sizes["names_tfrecord"] = size / MB
            return p
        return self._once("names.tfrecord", make)

    # One JSONL line of ~200 MiB: {"x":[1234567,1234567,...]}
    def long_int_line(self) -> str:
        def make():
            p = self.path("long-int.jsonl")
            chunk = b"1234567," * (MB // 8)
            with open(p, "wb") as f:
                f.write(b'{"x":[')
                for _ in range(LONG_LINE_CHUNKS):
                    f.write(chunk)
                f.write(b'1234567]}\n')
            self.sizes["long_int_line"] = os.path.getsize(p) / MB
            return p
        return self._once("long-int.jsonl", make)

    # One JSONL line with 1M features: {"n0000000":[1],"n0000001":[1],...}
    def one_line_features(self) -> str:
        def make():
            p = self.path("1m-features.jsonl")
            with open(p, "wb") as f:
                f.write(b"{")
                f.write(b",".join(b'"n%07d":[1]' % i for i in range(ONE_LINE_FEATURES)))
                f.write(b"}\n")
            line = os.path.getsize(p)
            # The record it becomes: 1M map entries of ~20 bytes each.
            feat = feat_int64(1)
            e = len(b"\x0a\x08n0000000") + 2 + len(feat)
            payload = ONE_LINE_FEATURES * (2 + e) + 6
            self.sizes["one_line_features"] = max(line, payload) / MB
            return p
        return self._once("1m-features.jsonl", make)

    # 1M distinct feature names spread over 10,000 lines of 100 features.
    def names_jsonl(self) -> str:
        def make():
            p = self.path("1m-names.jsonl")
            with open(p, "wb") as f:
                k = 0
                for _ in range(NAMES_RECORDS):
                    f.write(b"{" + b",".join(b'"n%07d":[1]' % (k + j) for j in range(NAMES_PER_RECORD)) + b"}\n")
                    k += NAMES_PER_RECORD
            self.sizes["names_jsonl"] = 0.01
            return p
        return self._once("1m-names.jsonl", make)

    # 100,000 ordinary small lines, for the -j rows.
    def small_jsonl(self) -> str:
        def make():
            p = self.path("small.jsonl")
            with open(p, "wb") as f:
                for i in range(SMALL_JSONL_LINES):
                    f.write(b'{"id":[%d],"text":["row %d"],"score":[0.5,1.5]}\n' % (i, i))
            self.sizes["small_jsonl"] = 0.001
            return p
        return self._once("small.jsonl", make)


# --------------------------------------------------------------------------
# Endless stdin feeds (written from a thread until tfr exits)
# --------------------------------------------------------------------------

ZEROS = bytes(MB)


def feed_zeros():
    while True:
        yield ZEROS


def feed_hdr40_zeros():
    yield header(1 << 40)
    while True:
        yield ZEROS


def snappy_block(data: bytes) -> bytes:
    """One block of TensorFlow's SNAPPY stream: the 4-byte big-endian length,
    then raw snappy holding `data` as one literal (valid snappy, no
    compression needed)."""
    raw = varint(len(data)) + bytes([63 << 2]) + (len(data) - 1).to_bytes(4, "little") + data
    return struct.pack(">I", len(raw)) + raw


def snappy_first_block() -> bytes:
    return snappy_block(record(example([(b"x", feat_bytes(b"small"))])))


def feed_snappy_block_zeros():
    """A valid first block, then a block announcing 16 MiB - 1 (the most tfr
    takes), then zeros forever."""
    yield snappy_first_block() + struct.pack(">I", (16 << 20) - 1)
    while True:
        yield ZEROS


def feed_snappy_4gib():
    """A valid first block, then a block announcing 4 GiB, then zeros."""
    yield snappy_first_block() + struct.pack(">I", 0xFFFFFFFF)
    while True:
        yield ZEROS


def feed_endless_line():
    chunk = b"y" * MB
    while True:
        yield chunk


# --------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------

HOLDING = {"head", "cat", "to-jsonl", "schema", "from-jsonl", "shuffle"}


@dataclasses.dataclass
class Row:
    case: str
    command: str                       # display: subcommand and flags
    argv: Callable[[Fixtures, str], list[str]]   # (fixtures, outdir) -> tfr args
    expect: frozenset
    hold: Callable[[Fixtures], float] = lambda fx: 0.0  # R in MB
    k: int = 0
    stdin: str = "null"                # null | devzero | feed
    feed: Callable | None = None
    slow: bool = False                 # read stdout slowly
    stream_ok: bool = False            # may still be streaming when --stream-secs ends
    out: bool = False                  # argv writes outdir/out.tfrecord

    def allowance(self, fx: Fixtures) -> float:
        return BASE_MB + self.k * self.hold(fx)


def every_command(case, inp, expect, *, hold=lambda fx: 0.0, jsonl_hold=None,
                  stdin="null", feed=None, stream_ok=(), only=None):
    """One row per tfr command over the input `inp(fx)` ('-' for stdin).

    expect: dict command -> set of exit codes (key '*' for the rest).
    hold: R for the record-holding commands; jsonl_hold: R for from-jsonl
    (default 0: the input is not JSON, byte 1 says so).
    """
    cmds = {
        "head -n 1": lambda fx, o: ["head", "-n", "1", inp(fx)],
        "cat": lambda fx, o: ["cat", inp(fx)],
        "count": lambda fx, o: ["count", inp(fx)],
        "verify-crc": lambda fx, o: ["verify-crc", inp(fx)],
        "verify-crc --salvage": lambda fx, o: ["verify-crc", inp(fx), "--salvage", os.path.join(o, "out.tfrecord")],
        "to-jsonl": lambda fx, o: ["to-jsonl", inp(fx)],
        "from-jsonl": lambda fx, o: ["from-jsonl", inp(fx), "-o", os.path.join(o, "out.tfrecord")],
        "schema": lambda fx, o: ["schema", inp(fx)],
        # Spills beyond 16M into outdir (removed on exit), holds a record whole.
        "shuffle": lambda fx, o: ["shuffle", inp(fx), "-o", os.path.join(o, "out.tfrecord"),
                                  "--memory", "16M", "--temp-dir", o],
    }
    rows = []
    for name, argv in cmds.items():
        if only and name not in only:
            continue
        verb = name.split()[0]
        if verb == "from-jsonl":
            h = jsonl_hold or (lambda fx: 0.0)
        else:
            h = hold
        rows.append(Row(case=case, command=name, argv=argv,
                        expect=frozenset(expect.get(name, expect.get("*"))),
                        hold=h, k=HOLD_K if verb in HOLDING else 0,
                        stdin=stdin, feed=feed, stream_ok=name in stream_ok,
                        out=verb in ("from-jsonl", "shuffle") or "--salvage" in name))
    return rows


def all_rows() -> list[Row]:
    rows: list[Row] = []
    stdin = lambda fx: "-"
    STREAMERS = ("count", "verify-crc", "verify-crc --salvage")

    # 1. Endless streams on stdin.
    rows += every_command("stdin</dev/zero", stdin, {"*": {2}}, stdin="devzero")
    rows += every_command("stdin|zeros(pipe)", stdin, {"*": {2}}, stdin="feed", feed=feed_zeros)
    # A valid header announcing 2^40 bytes, then zeros forever. Holding
    # commands must refuse at once; the CRC checkers may stream it through.
    rows += every_command("stdin|hdr(2^40)+zeros", stdin,
                          {"*": {2}, "count": {1, 2}, "verify-crc": {1, 2}, "verify-crc --salvage": {1, 2}},
                          stdin="feed", feed=feed_hdr40_zeros, stream_ok=STREAMERS)
    # An endless line with no newline ('yes | tr -d "\n"'), at every command.
    rows += every_command("stdin|endless-line", stdin, {"*": {2}}, stdin="feed", feed=feed_endless_line)

    # SNAPPY streams (auto-detected by their first block): a block as long
    # as tfr takes, of zeros; a block announcing 4 GiB.
    # (head -n 1 prints the first record and stops: exit 0.)
    rows += every_command("stdin|snappy:block(16MiB)+zeros", stdin,
                          {"*": {2}, "head -n 1": {0}, "verify-crc": {1}, "verify-crc --salvage": {1}},
                          stdin="feed", feed=feed_snappy_block_zeros)
    rows += every_command("stdin|snappy:block(4GiB)", stdin,
                          {"*": {2}, "head -n 1": {0}, "verify-crc": {1}, "verify-crc --salvage": {1}},
                          stdin="feed", feed=feed_snappy_4gib)
    # An 8 MiB record in a SNAPPY block of its own (as TensorFlow's writer does).
    rows += every_command("snappy:record-8MiB-in-one-block", lambda fx: fx.snappy_big(),
                          {"*": {0}, "from-jsonl": {2}}, hold=lambda fx: fx.sizes["snappy_big"])

    # 2. Huge announced lengths in regular files.
    rows += every_command("sparse-50GB,hdr(32GiB)", lambda fx: fx.sparse(),
                          {"*": {2}, "verify-crc": {1}, "verify-crc --salvage": {1}},
                          stream_ok=("verify-crc", "verify-crc --salvage"))
    rows += every_command("file,hdr(2^62)+100B", lambda fx: fx.len62(),
                          {"*": {2}, "verify-crc": {1, 2}, "verify-crc --salvage": {1, 2}})

    # 3. A single 200 MiB record (then a small one).
    rows += every_command("record-200MiB-text", lambda fx: fx.big(),
                          {"*": {0}, "from-jsonl": {2}}, hold=lambda fx: fx.sizes["big"])
    rows += every_command("record-200MiB-binary", lambda fx: fx.big(binary=True),
                          {"*": {0}, "from-jsonl": {2}}, hold=lambda fx: fx.sizes["big-binary"])

    # 4. 2,000 inputs of 200 KB through a glob, stdout read slowly.
    g = lambda fx: fx.glob()
    glob_hold = lambda fx: fx.sizes["glob"]
    for cmd, argv in (("cat", ["cat"]), ("cat -j 1", ["cat", "-j", "1"]),
                      ("to-jsonl", ["to-jsonl"]), ("head -n 100000", ["head", "-n", "100000"])):
        rows.append(Row("glob-2000x200KB,slow-reader", cmd, lambda fx, o, a=argv: a + [g(fx)],
                        frozenset({0}), hold=glob_hold, k=HOLD_K, slow=True))
    rows += every_command("glob-2000x200KB", g, {"*": {0}, "from-jsonl": {2}}, hold=glob_hold,
                          only={"count", "verify-crc", "verify-crc --salvage", "schema", "from-jsonl"})
    for j in ("8000", "20000"):
        rows.append(Row("glob-2000x200KB", f"cat -j {j}", lambda fx, o, j=j: ["cat", "-j", j, g(fx)],
                        frozenset({0}), hold=glob_hold, k=HOLD_K))
    for verb in ("to-jsonl", "count", "verify-crc"):
        rows.append(Row("glob-2000x200KB", f"{verb} -j 20000", lambda fx, o, v=verb: [v, "-j", "20000", g(fx)],
                        frozenset({0}), hold=glob_hold, k=HOLD_K if verb == "to-jsonl" else 0))

    # 5. Many distinct feature names (1M) in a TFRecord file.
    nt = lambda fx: fx.names_tfrecord()
    rows += every_command("1M-feature-names.tfrecord", nt, {"*": {0}, "from-jsonl": {2}},
                          hold=lambda fx: fx.sizes["names_tfrecord"],
                          only={"schema", "head -n 1", "cat", "to-jsonl", "count", "verify-crc"})

    # 6. from-jsonl: long, endless and wide lines; many names; absurd -j.
    def fj(case, path, hold, jobs=None, gzip=False, extra=(), expect=frozenset({0})):
        extra = (["-j", jobs] if jobs else []) + (["--compression", "gzip"] if gzip else []) + list(extra)
        return Row(case, " ".join(["from-jsonl", *extra]),
                   lambda fx, o: ["from-jsonl", *extra, path(fx), "-o", os.path.join(o, "out.tfrecord")],
                   expect, hold=hold, k=HOLD_K, out=True)
    # Over the default --max-line-size (64M): refused at the limit.
    rows.append(fj("jsonl:200MiB-int-line", lambda fx: fx.long_int_line(), lambda fx: 64 / 3,
                   expect=frozenset({2})))
    # Allowed: what converting such a line costs.
    rows.append(fj("jsonl:200MiB-int-line", lambda fx: fx.long_int_line(), lambda fx: fx.sizes["long_int_line"],
                   extra=("--max-line-size", "512M")))
    rows.append(fj("jsonl:1M-features-1-line", lambda fx: fx.one_line_features(),
                   lambda fx: fx.sizes["one_line_features"]))
    rows.append(fj("jsonl:1M-names-10k-lines", lambda fx: fx.names_jsonl(), lambda fx: 0.0))
    rows.append(fj("jsonl:small-100k-lines", lambda fx: fx.small_jsonl(), lambda fx: 0.0, jobs="8000"))
    rows.append(fj("jsonl:small-100k-lines", lambda fx: fx.small_jsonl(), lambda fx: 0.0, jobs="20000"))
    rows.append(fj("jsonl:small-100k-lines", lambda fx: fx.small_jsonl(), lambda fx: 0.0, jobs="8000", gzip=True))
    rows.append(fj("jsonl:small-100k-lines", lambda fx: fx.small_jsonl(), lambda fx: 0.0, jobs="20000", gzip=True))

    # 7. Auxiliary files (issue 27): schemas and saved statistics, read
    # within --max-aux-size (64 MiB); allowance: 3 x the file, or the bound.
    small = lambda fx: fx.small()
    bound = lambda fx: 64.0
    for cmd, argv in (
        ("stats --merge", lambda fx, o: ["stats", "--merge", "/dev/zero"]),
        ("validate --schema", lambda fx, o: ["validate", "--schema", "/dev/zero", small(fx)]),
        ("report --schema", lambda fx, o: ["report", "--schema", "/dev/zero", small(fx), "-o", os.path.join(o, "out.html")]),
        ("from-jsonl --schema", lambda fx, o: ["from-jsonl", "--schema", "/dev/zero", small(fx)[:-len(".tfrecord")] + ".jsonl",
                                               "-o", os.path.join(o, "out.tfrecord")]),
    ):
        rows.append(Row("aux:/dev/zero", cmd, argv, frozenset({2}), hold=bound, k=HOLD_K))
    rows.append(Row("aux:saved-stats-30MB", "stats --merge", lambda fx, o: ["stats", "--merge", fx.saved_stats()],
                    frozenset({0}), hold=lambda fx: fx.sizes["saved_stats"], k=HOLD_K))
    rows.append(Row("aux:forged-tdigest", "stats --merge", lambda fx, o: ["stats", "--merge", fx.forged_stats()],
                    frozenset({2})))
    rows.append(Row("aux:schema.pbtxt-20MB", "validate --schema",
                    lambda fx, o: ["validate", "--schema", fx.pbtxt(), small(fx)],
                    frozenset({0, 1}), hold=bound, k=HOLD_K))
    rows.append(Row("aux:schema.pbtxt-20MB", "report --schema",
                    lambda fx, o: ["report", "--schema", fx.pbtxt(), small(fx), "-o", os.path.join(o, "out.html")],
                    frozenset({0}), hold=bound, k=HOLD_K))

    # 8. report's images (issue 27): a 36 MP WebP header, GIFs of a 1x1
    # screen and a 6000x6000 frame; 1,200 such GIFs in one record.
    rows.append(Row("report:webp-36MP+144-gif-frames", "report", lambda fx, o: ["report", fx.images(False), "-o",
                    os.path.join(o, "out.html")], frozenset({0}), hold=lambda fx: fx.sizes["images"], k=HOLD_K))
    rows.append(Row("report:1200-gif-frames-1-record", "report", lambda fx, o: ["report", fx.images(True), "-o",
                    os.path.join(o, "out.html")], frozenset({0}), hold=lambda fx: fx.sizes["images-1200"], k=HOLD_K))
    return rows


# --------------------------------------------------------------------------
# Running one row
# --------------------------------------------------------------------------

PANIC_MARKERS = ("panicked", "memory allocation of", "fatal runtime error", "stack backtrace",
                 "RUST_BACKTRACE", "Aborted", "Segmentation")
SIGNAMES = {int(s): s.name for s in signal.Signals}


def panic_hint(lines: list[str]) -> str:
    """The telling part of a panic or abort on stderr, '' if none."""
    for i, l in enumerate(lines):
        if "panicked at" in l:      # the message is on the next line
            msg = lines[i + 1] if i + 1 < len(lines) else l
            return ("panic: " + msg.strip())[:90]
        if any(m in l for m in PANIC_MARKERS):
            return l.strip()[:90]
    return ""


def vm_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of pid in MB, from /proc; zeros when gone."""
    rss = hwm = 0.0
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmRSS:"):
                    rss = int(line.split()[1]) / 1024
                elif line.startswith(b"VmHWM:"):
                    hwm = int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return rss, hwm


def child_of(pid: int) -> int | None:
    """The (first) child of pid: tfr under GNU time."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except (OSError, ValueError):
        return None


@dataclasses.dataclass
class Result:
    case: str
    command: str
    argv: list
    exit: int | None = None        # exit code, or -signal
    peak_mb: float = 0.0
    allow_mb: float = 0.0
    wall_s: float = 0.0
    verdict: str = ""
    reasons: list = dataclasses.field(default_factory=list)
    stderr_first_line: str = ""
    stderr_lines: int = 0
    timed_out: bool = False
    stream_stopped: bool = False
    stdout_bytes: int | None = None


def run_row(row: Row, fx: Fixtures, args, outroot: str, idx: int) -> Result:
    outdir = os.path.join(outroot, f"row{idx:03d}")
    os.mkdir(outdir)
    targs = row.argv(fx, outdir)
    allow = row.allowance(fx)
    res = Result(row.case, row.command, [a.replace(fx.root, "$T") for a in targs], allow_mb=allow)

    limit = args.limit_mb * MB
    fsize = args.fsize_mb * MB

    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    errpath = os.path.join(outroot, f"row{idx:03d}.stderr")
    stdin_f = None
    if row.stdin == "devzero":
        stdin_f = open("/dev/zero", "rb")
        stdin = stdin_f
    elif row.stdin == "feed":
        stdin = subprocess.PIPE
    else:
        stdin = subprocess.DEVNULL
    env = dict(os.environ, NO_COLOR="1")
    env.pop("RUST_BACKTRACE", None)

    rsspath = os.path.join(outroot, f"row{idx:03d}.rss")
    cmd = [args.tfr, *targs]
    if args.gnu_time:
        # GNU time forks tfr from a ~1 MB process, so tfr's ru_maxrss is its
        # own peak (a child forked straight from this Python process inherits
        # Python's RSS as a floor of its ru_maxrss, even across exec).
        cmd = [args.gnu_time, "-f", "maxrss=%M", "-o", rsspath, "--", *cmd]
    with open(errpath, "wb") as errf:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdin=stdin,
                             stdout=subprocess.PIPE if row.slow else subprocess.DEVNULL,
                             stderr=errf, cwd=fx.root, env=env, start_new_session=True,
                             preexec_fn=limits)
    if stdin_f:
        stdin_f.close()
    threads = []
    stop = threading.Event()

    if row.stdin == "feed":
        def feeder(fd=p.stdin.fileno(), gen=row.feed()):
            try:
                for chunk in gen:
                    if stop.is_set():
                        break
                    mv = memoryview(chunk)
                    while mv and not stop.is_set():
                        mv = mv[os.write(fd, mv):]
            except OSError:
                pass   # EPIPE: tfr closed stdin or exited
            finally:
                try:
                    p.stdin.close()
                except OSError:
                    pass
        threads.append(threading.Thread(target=feeder, daemon=True))

    got = [0]
    if row.slow:
        def reader(f=p.stdout):
            fd = f.fileno()
            t_end = time.monotonic() + args.slow_secs
            try:
                while time.monotonic() < t_end:     # slow: ~320 KB/s
                    b = os.read(fd, 16 * 1024)
                    if not b:
                        return
                    got[0] += len(b)
                    time.sleep(0.05)
                while True:                          # then drain
                    b = os.read(fd, MB)
                    if not b:
                        return
                    got[0] += len(b)
            except OSError:
                pass
        threads.append(threading.Thread(target=reader, daemon=True))
    for t in threads:
        t.start()

    deadline = args.stream_secs if row.stream_ok else args.timeout
    if row.slow:
        deadline += args.slow_secs
    tfr_pid = None if args.gnu_time else p.pid

    def kill(sig):
        # tfr itself (so that GNU time survives to report), else the group.
        try:
            if tfr_pid is not None:
                os.kill(tfr_pid, sig)
            else:
                os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass

    hwm = 0.0
    term_at = None
    hard_killed = False
    over = False
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        now = time.monotonic()
        if tfr_pid is None:
            tfr_pid = child_of(p.pid)
        if tfr_pid is not None:
            rss, h = vm_mb(tfr_pid)
            hwm = max(hwm, h)
            if rss > args.limit_mb and not over:
                over = True
                kill(signal.SIGKILL)
        if not over and term_at is None and now - t0 > deadline:
            res.timed_out = True
            term_at = now
            kill(signal.SIGTERM)           # a chance to remove its temp files
        elif term_at is not None and now - term_at > 3:
            hard_killed = True
            kill(signal.SIGKILL)
            if now - term_at > 6:
                os.killpg(p.pid, signal.SIGKILL)
        time.sleep(0.02)
    res.wall_s = time.monotonic() - t0
    stop.set()
    if os.WIFSIGNALED(status):
        res.exit = -os.WTERMSIG(status)
    else:
        res.exit = os.WEXITSTATUS(status)
    p.returncode = res.exit
    peak = None
    if args.gnu_time:
        try:
            with open(rsspath) as f:
                txt = f.read()
            peak = int(re.search(r"maxrss=(\d+)", txt).group(1)) / 1024
            m = re.search(r"terminated by signal (\d+)", txt)
            m2 = re.search(r"non-zero status (\d+)", txt)
            res.exit = -int(m.group(1)) if m else int(m2.group(1)) if m2 else 0
        except (OSError, AttributeError):
            res.reasons.append("GNU time gave no report")
    if peak is None:
        # ru_maxrss is floored by this Python process's RSS at fork (even
        # across exec): above the floor it is exact, below it an upper bound
        # (~20 MB, well under every allowance).
        peak = max(ru.ru_maxrss / 1024, hwm)
    res.peak_mb = max(peak, hwm)
    for t in threads:
        t.join(timeout=5)
    if p.stdout:
        p.stdout.close()
    if row.slow:
        res.stdout_bytes = got[0]

    with open(errpath, "rb") as f:
        err = f.read(1 << 20)
    lines = [l.replace(fx.root, "$T") for l in err.decode("utf-8", "replace").splitlines() if l.strip()]
    res.stderr_lines = len(lines)
    res.stderr_first_line = lines[0][:300] if lines else ""

    # ---- verdict
    why = res.reasons
    killed_by_us = res.timed_out or over
    if over:
        why.append(f"RSS passed --limit-mb {args.limit_mb}, killed")
    if res.timed_out and not row.stream_ok:
        why.append(f"hang: no exit within {deadline:g} s")
    if res.exit < 0 and not killed_by_us:
        sig = SIGNAMES.get(-res.exit, str(-res.exit))
        why.append(f"killed by {sig}" + (f" ({panic_hint(lines)})" if panic_hint(lines) else ""))
    if not killed_by_us and res.exit >= 0 and res.exit not in row.expect:
        why.append(f"exit {res.exit}, expected {'/'.join(map(str, sorted(row.expect)))}")
    if res.peak_mb > allow:
        why.append(f"peak RSS {res.peak_mb:.0f} MB > {allow:.0f} MB")
    if not killed_by_us and res.exit >= 0:
        if panic_hint(lines):
            why.append(f"stderr: {panic_hint(lines)}")
        elif res.exit == 2 and (len(lines) != 1 or not lines[0].startswith("tfr: ")):
            why.append(f"error is not one 'tfr: ...' line ({len(lines)} lines)")
    # Temp files: none may be left next to the output (SIGKILL excused).
    left = sorted(n for n in os.listdir(outdir) if n not in ("out.tfrecord", "out.html"))
    if left and not hard_killed and not over:
        why.append(f"temp file left: {left[0]}")
    if not why:
        res.verdict = "ok" + (f" (still streaming, stopped at {deadline:g} s)" if res.timed_out else "")
    else:
        res.verdict = "FAIL: " + "; ".join(why)
    shutil.rmtree(outdir, ignore_errors=True)
    os.unlink(errpath)
    return res


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def exit_text(r: Result) -> str:
    if r.exit is None:
        return "-"
    if r.timed_out:
        return "t/o"
    if r.exit < 0:
        return SIGNAMES.get(-r.exit, f"sig{-r.exit}")
    return str(r.exit)


def print_table(results: list[Result], out=sys.stdout):
    head = ("case", "command", "exit", "peak MB", "allow MB", "time s", "verdict")
    body = [(r.case, r.command, exit_text(r), f"{r.peak_mb:.0f}", f"{r.allow_mb:.0f}",
             f"{r.wall_s:.1f}", r.verdict) for r in results]
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head) - 1)]
    right = {2, 3, 4, 5}

    def fmt(cols):
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cols, widths))]
        return "  ".join(cells) + "  " + cols[-1]

    print(fmt(head), file=out)
    print(fmt(tuple("-" * w for w in widths) + ("-" * 7,)), file=out)
    for b in body:
        print(fmt(b), file=out)


# --------------------------------------------------------------------------


def main() -> int:
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfr", default=os.path.join(repo, "target", "release", "tfr"),
                    help="the tfr binary (default: target/release/tfr of this repository)")
    ap.add_argument("--only", metavar="REGEX", help="run only rows whose 'case command' matches")
    ap.add_argument("--json", action="store_true", help="print a JSON document instead of the table")
    ap.add_argument("--limit-mb", type=int, default=4096,
                    help="address-space cap (RLIMIT_AS) and RSS kill threshold per tfr process [4096]")
    ap.add_argument("--fsize-mb", type=int, default=1024, help="largest file a tfr process may write [1024]")
    ap.add_argument("--timeout", type=float, default=60, help="seconds before a row is a hang [60]")
    ap.add_argument("--stream-secs", type=float, default=10,
                    help="seconds a row that may stream an endless input is given [10]")
    ap.add_argument("--slow-secs", type=float, default=6, help="seconds of slow reading in slow-reader rows [6]")
    ap.add_argument("--tmpdir", help="where to create the work directory (default: $TMPDIR or /tmp)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--no-gnu-time", action="store_true",
                    help="measure without /usr/bin/time (wait4 ru_maxrss: small peaks show as this script's own RSS, ~20 MB)")
    ap.add_argument("--list", action="store_true", help="list the rows and exit")
    ap.add_argument("-v", "--verbose", action="store_true", help="progress on stderr (default when a terminal)")
    args = ap.parse_args()

    verbose = args.verbose or sys.stderr.isatty()

    def log(msg):
        if verbose:
            print(msg, file=sys.stderr, flush=True)

    rows = all_rows()
    if args.only:
        rx = re.compile(args.only)
        rows = [r for r in rows if rx.search(f"{r.case} {r.command}")]
    if args.list:
        for r in rows:
            print(f"{r.case}  {r.command}")
        return 0
    if not rows:
        print("reliability.py: no row matches --only", file=sys.stderr)
        return 2
    if not (os.path.isfile(args.tfr) and os.access(args.tfr, os.X_OK)):
        print(f"reliability.py: {args.tfr}: no tfr binary (cargo build --release, or --tfr PATH)", file=sys.stderr)
        return 2
    args.tfr = os.path.abspath(args.tfr)
    args.gnu_time = None
    if not args.no_gnu_time and os.access("/usr/bin/time", os.X_OK):
        v = subprocess.run(["/usr/bin/time", "--version"], capture_output=True, text=True)
        if "GNU" in v.stdout + v.stderr:
            args.gnu_time = "/usr/bin/time"
    _self_test()
    version = subprocess.run([args.tfr, "--version"], capture_output=True, text=True).stdout.strip()

    root = tempfile.mkdtemp(prefix="tfr-reliability-", dir=args.tmpdir)
    results: list[Result] = []
    t_start = time.monotonic()
    try:
        _check_big_crc(args.tfr, root)
        fx = Fixtures(root, log)
        fx.tfr = args.tfr
        outroot = os.path.join(root, "out")
        os.mkdir(outroot)
        for i, row in enumerate(rows):
            log(f"[{i + 1}/{len(rows)}] {row.case} | {row.command}")
            r = run_row(row, fx, args, outroot, i)
            log(f"    exit {exit_text(r)}  {r.peak_mb:.0f} MB  {r.wall_s:.1f} s  {r.verdict}")
            results.append(r)
    except KeyboardInterrupt:
        print("reliability.py: interrupted", file=sys.stderr)
        return 130
    finally:
        if args.keep:
            print(f"reliability.py: kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    total = time.monotonic() - t_start
    failed = [r for r in results if r.verdict.startswith("FAIL")]
    if args.json:
        json.dump({"tfr": args.tfr, "version": version, "limit_mb": args.limit_mb,
                   "rss_by": "gnu-time" if args.gnu_time else "wait4",
                   "base_mb": BASE_MB, "hold_k": HOLD_K, "seconds": round(total, 1),
                   "rows": [dataclasses.asdict(r) for r in results],
                   "failed": len(failed)}, sys.stdout, indent=1)
        print()
    else:
        how = "GNU time" if args.gnu_time else "wait4, floored at this script's RSS"
        print(f"{version} ({args.tfr}); peak RSS by {how}; allowance = {BASE_MB} MB + {HOLD_K} x the "
              f"record a holding command must hold; cap {args.limit_mb} MB")
        print_table(results)
        print(f"{len(results) - len(failed)} ok, {len(failed)} FAIL, {total:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""What TensorFlow's SNAPPY TFRecord files are, measured, and tfr beside it.

Run from the repository root, with a built tfr:

    cargo build --release
    .venv-tf/bin/python tests/oracle/snappy.py [--tfr target/release/tfr]

Checks (exit 1 on any mismatch):
1. Framing: a file written by tf.data.experimental.TFRecordWriter(
   compression_type="SNAPPY") is a run of blocks, each a 4-byte big-endian
   length and one raw snappy block; blocks hold at most 256 KiB of input
   and records span them. (tf.io.TFRecordOptions refuses "SNAPPY" in 2.21.)
2. A record over 256 KiB gets a block of its own, which TensorFlow's own
   reader then refuses ("Output buffer ... too small"); tfr reads it.
3. Only a block's decompressed size counts: TensorFlow reads a block of
   512 KiB that decompresses to 256 KiB, and refuses 256 KiB + 1; tfr
   warns of the second only.
4. tfr reads every file here as TensorFlow wrote it (same payloads), and
   TensorFlow reads `tfr from-jsonl --compression snappy` output, records of
   1.5 MB of random text included, with the same payloads as plain output.
"""

import argparse
import base64
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

FAILED = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILED.append(what)


def blocks(path):
    data = open(path, "rb").read()
    out, at = [], 0
    while at < len(data):
        n = struct.unpack(">I", data[at:at + 4])[0]
        out.append(n)
        at += 4 + n
    return out, at == len(data)


def tf_write(path, payloads):
    tf.data.experimental.TFRecordWriter(path, compression_type="SNAPPY").write(
        tf.data.Dataset.from_tensor_slices(tf.constant(payloads, dtype=tf.string)))


def tf_read(path, compression):
    try:
        # In batches: a Python step per record cost more than TF's reading.
        ds = tf.data.TFRecordDataset(path, compression_type=compression)
        return [r for batch in ds.batch(4096) for r in batch.numpy()], None
    except Exception as e:  # noqa: BLE001
        message = (getattr(e, "message", None) or str(e)).strip()
        # The batch's function names itself first: TF's message after it.
        return None, re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", message).splitlines()[0]


def tfr_payloads(tfr, path):
    out = subprocess.run([tfr, "to-jsonl", "--type", "raw", path], capture_output=True, check=True).stdout
    def payload(v):
        return v.encode() if isinstance(v, str) else base64.b64decode(v["base64"])
    return [payload(json.loads(line)) for line in out.decode().splitlines()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfr", default="target/release/tfr")
    tfr = ap.parse_args().tfr
    with tempfile.TemporaryDirectory(prefix="tfr-oracle-") as tmp:
        rng = __import__("random").Random(5)

        small = [rng.randbytes(30000) for _ in range(40)]
        p = os.path.join(tmp, "small.snappy")
        tf_write(p, small)
        sizes, whole = blocks(p)
        check(whole and len(sizes) > 1 and max(sizes) <= 256 << 10,
              "TF blocks: %d blocks of %s bytes, length-prefixed big-endian" % (len(sizes), sizes))
        back, err = tf_read(p, "SNAPPY")
        check(back == small, "TF reads its own 40 x 30 KB file")
        check(tfr_payloads(tfr, p) == small, "tfr reads it without a flag, the same payloads")

        big = [b"x" * 10, rng.randbytes(700000), b"y" * 10]
        p = os.path.join(tmp, "big.snappy")
        tf_write(p, big)
        sizes, whole = blocks(p)
        back, err = tf_read(p, "SNAPPY")
        check(any(s > 700000 for s in sizes) and back is None and "too small" in (err or ""),
              "TF gives a 700 KB record a block of its own (%s) and cannot read it back: %s" % (sizes, err))
        check(tfr_payloads(tfr, p) == big, "tfr reads that file")

        # Only the decompressed size of a block counts: a block of one-byte
        # literals (twice its data: 512 KiB) holding a 256 KiB record is read;
        # one holding 256 KiB + 1 is refused. tfr warns of the second only.
        for extra, readable in ((0, True), (1, False)):
            plain_path = os.path.join(tmp, "one%d.tfrecord" % extra)
            with tf.io.TFRecordWriter(plain_path) as w:
                w.write(rng.randbytes((256 << 10) - 16 + extra))
            plain = open(plain_path, "rb").read()
            raw, n = bytearray(), len(plain)
            while n >= 0x80:
                raw.append((n & 0x7f) | 0x80)
                n >>= 7
            raw.append(n)
            literals = bytearray(2 * len(plain))  # each byte: a tag 0, the byte
            literals[1::2] = plain
            raw += literals
            p = os.path.join(tmp, "wide%d.snappy" % extra)
            open(p, "wb").write(struct.pack(">I", len(raw)) + raw)
            back, err = tf_read(p, "SNAPPY")
            warned = subprocess.run([tfr, "verify-crc", p], capture_output=True).stderr.decode()
            check((back is not None) == readable and ("SNAPPY block holds" in warned) != readable,
                  "a block of %d bytes decompressing to %d: TF %s, tfr %s"
                  % (len(raw), len(plain), "reads it" if back else "refuses it (%s)" % err[:60],
                     "warns" if warned else "is silent"))

        letters = bytes.maketrans(bytes(range(256)), bytes(97 + b % 26 for b in range(256)))
        lines = [json.dumps({"text": rng.randbytes(1500000).translate(letters).decode()}),
                 json.dumps({"a": [1.5, 2.5], "b": "x"})] + [json.dumps({"i": i}) for i in range(5000)]
        src = os.path.join(tmp, "in.jsonl")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        outs = {}
        for comp in ("none", "snappy"):
            outs[comp] = os.path.join(tmp, "out." + comp)
            subprocess.run([tfr, "from-jsonl", "--compression", comp, "-o", outs[comp], src], check=True)
        plain, _ = tf_read(outs["none"], "")
        snappy, err = tf_read(outs["snappy"], "SNAPPY")
        sizes, whole = blocks(outs["snappy"])
        check(whole and max(sizes) <= 256 << 10, "tfr's blocks: %d, at most %d bytes" % (len(sizes), max(sizes)))
        check(snappy == plain and plain is not None and len(plain) == len(lines),
              "TF reads tfr's SNAPPY output (%d records, one of 1.5 MB): the same payloads as plain (%s)"
              % (len(lines), err))
        print("all checks passed" if not FAILED else "%d FAILED" % len(FAILED))
        sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()

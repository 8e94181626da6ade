#!/usr/bin/env python3
"""`tfr to-jsonl --decode` of a TFDS folder gives the values TensorFlow
Datasets gives.

    target/venv-tf/bin/python tests/oracle/tfds_decode.py --tfr PATH DATA_DIR NAME SPLIT

Runs tests/oracle/tfds_dump.py's reading (tfds.as_numpy over
builder.as_dataset(split=SPLIT, shuffle_files=False)) and `tfr to-jsonl
--decode DATA_DIR/NAME/<version> --split SPLIT`, and checks they agree
record for record: nested features as objects, tensors with their shape
(BYTES- and ZLIB-encoded ones decoded), bools, text, an RLDS Dataset as a
list of steps; images, which tfr keeps encoded ({"base64": ...}), decoded
with tf.io.decode_image to the pixels TFDS gives. Exit 1 on a mismatch.
"""
import base64
import json
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
here = Path(__file__).resolve().parent
sys.path = [p for p in sys.path if Path(p or ".").resolve() != here]
import tensorflow as tf  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402

sys.path.insert(0, str(here))
from tfds_dump import to_json  # noqa: E402


def images_decoded(v):
    if isinstance(v, dict):
        if set(v) == {"base64"}:
            return tf.io.decode_image(base64.b64decode(v["base64"])).numpy().tolist()
        return {k: images_decoded(x) for k, x in v.items()}
    if isinstance(v, list):
        return [images_decoded(x) for x in v]
    return v


def main():
    args = sys.argv[1:]
    tfr = args[args.index("--tfr") + 1]
    data_dir, name, split = [a for i, a in enumerate(args) if a != "--tfr" and (i == 0 or args[i - 1] != "--tfr")]
    builder = tfds.builder(name, data_dir=data_dir)
    want = [to_json(r) for r in tfds.as_numpy(builder.as_dataset(split=split, shuffle_files=False))]
    folder = str(Path(data_dir) / name / str(builder.version))
    out = subprocess.run([tfr, "to-jsonl", "--decode", folder, "--split", split],
                         check=True, capture_output=True, text=True).stdout
    got = [images_decoded(json.loads(line)) for line in out.splitlines()]
    bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
    ok = len(got) == len(want) and not bad
    detail = "" if ok else f": {len(got)} lines for {len(want)} records; first differing record {bad[:1]}"
    print(("ok   " if ok else "FAIL ") + f"{name} {split}: to-jsonl --decode equals tfds.as_numpy{detail}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

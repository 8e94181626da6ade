#!/usr/bin/env python3
"""Writes tests/data/tfdv/NAME.schema.pbtxt: what TFDV 1.16.1's
tfdv.infer_schema infers from tfdv.generate_statistics_from_tfrecord on each
fixture below, its features and string domains sorted by name (TFDV's own order follows its
decoder's map iteration). tests/cli/stats.rs checks that
`tfr schema -f tfdv-schema` prints exactly these.

Run with the TFDV venv (see ../shared/oracles.md):
    .venv-tfdv/bin/python tests/oracle/gen_tfdv_expected.py
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


def main() -> int:
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

#!/usr/bin/env python3
"""Runs every tfr command with two binaries and compares what they wrote.

    python3 bench/same_outputs.py --old OLD_TFR --new NEW_TFR [--records N] [--keep DIR]

For a change meant to keep behaviour (issue 42's workspace: "outputs are
byte-identical"): the same inputs (the fixtures under tests/data and a
generated dataset of N Examples in three shards, a gzip copy, a
SequenceExample file, a damaged copy) go through every command and its
main flag variants with each binary, each run in a directory of its own.
Compared byte for byte: stdout, stderr, the exit code, and every file the
command wrote. Normalised before comparing: the run's own directory name in
stdout/stderr (each binary runs in another one), the binary's path, and
the report's generation time. Prints a line per command line (same /
DIFFERENT with the first differing stream or file and byte) and exits 1
when any differs. Standard library only.
"""

import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")


def make_data(tfr, d, n):
    """A dataset of n Examples (int64, float, bytes, a list) in 3 shards, a
    gzip copy, SequenceExamples, a damaged copy, the fixtures."""
    rng = random.Random(42)
    lines = []
    for i in range(n):
        rec = {
            "id": [i],
            "label": [rng.randrange(5)],
            "score": [round(rng.random(), 4)],
            "name": ["row %d" % i],
            "tags": {"bytes_list": ["t%d" % rng.randrange(9) for _ in range(rng.randrange(4))]},
        }
        if i % 7 == 0:
            rec["sometimes"] = [rng.randrange(100)]
        lines.append(json.dumps(rec))
    with open(os.path.join(d, "ex.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    seq = []
    for i in range(max(n // 10, 5)):
        seq.append(json.dumps({"context": {"id": [i]}, "feature_lists": {"tok": [[j] for j in range(i % 5 + 1)]}}))
    with open(os.path.join(d, "seq.jsonl"), "w") as f:
        f.write("\n".join(seq) + "\n")
    run = lambda *a: subprocess.run([tfr, *a], cwd=d, check=True, capture_output=True)
    run("from-jsonl", "ex.jsonl", "-o", "ex.tfrecord")
    run("from-jsonl", "seq.jsonl", "-o", "seq.tfrecord")
    run("reshard", "ex.tfrecord", "-o", "shards/ex.tfrecord", "--shards", "3")
    with open(os.path.join(d, "ex.tfrecord"), "rb") as f:
        raw = f.read()
    with open(os.path.join(d, "ex.tfrecord.gz"), "wb") as f:
        f.write(gzip.compress(raw, mtime=0))
    bad = bytearray(raw)
    bad[len(bad) // 2] ^= 0x40
    with open(os.path.join(d, "bad.tfrecord"), "wb") as f:
        f.write(bytes(bad))
    for name in ["notebook.tfrecord", "images.tfrecord", "gallery.tfrecord", "edge.tfrecord",
                 "elwc_edge.tfrecord", "data_crc.tfrecord", "concat.tfrecord.gz",
                 "blocks.snappy.tfrecord", "noncanonical.tfrecord"]:
        shutil.copy(os.path.join(DATA, name), os.path.join(d, name))


# (name, arguments); a command's outputs are whatever files appear in its
# directory. "{x}" names nothing: the arguments are literal.
COMMANDS = [
    ("count", ["count", "ex.tfrecord", "shards/", "ex.tfrecord.gz"]),
    ("count --json", ["count", "--json", "ex.tfrecord", "seq.tfrecord"]),
    ("count --by", ["count", "--by", "label", "ex.tfrecord"]),
    ("count --where", ["count", "--where", "label == 2 && score > 0.5", "ex.tfrecord"]),
    ("cat", ["cat", "ex.tfrecord", "-n", "50"]),
    ("cat -f json", ["cat", "-f", "json", "ex.tfrecord.gz"]),
    ("cat -f protojson", ["cat", "-f", "protojson", "seq.tfrecord"]),
    ("cat elwc", ["cat", "elwc_edge.tfrecord"]),
    ("cat -j 1", ["cat", "-j", "1", "shards/"]),
    ("cat -j 4", ["cat", "-j", "4", "shards/"]),
    ("head", ["head", "-n", "5", "ex.tfrecord"]),
    ("head --where", ["head", "-n", "3", "--where", "has(sometimes)", "-f", "json", "ex.tfrecord"]),
    ("head --part", ["head", "--part", "2/3", "ex.tfrecord"]),
    ("to-jsonl", ["to-jsonl", "ex.tfrecord", "-o", "out.jsonl"]),
    ("to-jsonl stdout", ["to-jsonl", "seq.tfrecord"]),
    ("to-jsonl protojson", ["to-jsonl", "-f", "protojson", "edge.tfrecord"]),
    ("to-jsonl noncanonical", ["to-jsonl", "noncanonical.tfrecord"]),
    ("to-jsonl --features", ["to-jsonl", "--features", "id,score", "--where", "id < 100", "ex.tfrecord"]),
    ("from-jsonl", ["from-jsonl", "ex.jsonl", "-o", "back.tfrecord"]),
    ("from-jsonl gzip", ["from-jsonl", "ex.jsonl", "-o", "back.tfrecord.gz"]),
    ("from-jsonl --output-compression", ["from-jsonl", "ex.jsonl", "-o", "back.bin", "--output-compression", "zlib"]),
    ("from-jsonl --compression (alias)", ["from-jsonl", "seq.jsonl", "-o", "seq.bin", "--compression", "gzip"]),
    ("schema", ["schema", "ex.tfrecord", "shards/"]),
    ("schema mixed types", ["schema", "ex.tfrecord", "seq.tfrecord"]),
    ("schema --json", ["schema", "--json", "ex.tfrecord"]),
    ("schema -f tf", ["schema", "-f", "tf", "ex.tfrecord"]),
    ("schema tfdv", ["schema", "-f", "tfdv-schema", "ex.tfrecord"]),
    ("stats", ["stats", "ex.tfrecord"]),
    ("stats json", ["stats", "-f", "json", "ex.tfrecord", "shards/"]),
    ("stats tfdv text", ["stats", "-f", "tfdv-stats-text", "ex.tfrecord"]),
    ("stats tfdv binary", ["stats", "-f", "tfdv-stats", "seq.tfrecord"]),
    ("validate", ["validate", "--schema", "schema_in/schema.pbtxt", "ex.tfrecord", "shards/"]),
    ("validate seq", ["validate", "--schema", "schema_in/schema.pbtxt", "seq.tfrecord"]),
    ("validate --json", ["validate", "--json", "--schema", "schema_in/schema.pbtxt", "bad.tfrecord"]),
    ("report", ["report", "images.tfrecord", "-o", "report.html"]),
    ("verify-crc", ["verify-crc", "ex.tfrecord", "bad.tfrecord", "data_crc.tfrecord"]),
    ("verify-crc --json", ["verify-crc", "--json", "bad.tfrecord", "concat.tfrecord.gz"]),
    ("verify-crc --salvage", ["verify-crc", "bad.tfrecord", "--salvage", "salvaged.tfrecord.gz"]),
    ("verify-crc --payloads", ["verify-crc", "--payloads", "ex.tfrecord", "edge.tfrecord"]),
    ("verify-crc snappy", ["verify-crc", "blocks.snappy.tfrecord"]),
    ("index", ["index", "ex.tfrecord", "--out-dir", "idx"]),
    ("reshard", ["reshard", "ex.tfrecord", "-o", "r/ex.tfrecord", "--shards", "4"]),
    ("reshard gzip -j 1", ["reshard", "-j", "1", "shards/", "-o", "r1/ex.tfrecord.gz", "--shard-size", "20K"]),
    ("split", ["split", "ex.tfrecord", "--ratio", "train=8,eval=2", "-o", "sp/{split}.tfrecord"]),
    ("split --by", ["split", "ex.tfrecord", "--ratio", "train=8,eval=2", "--by", "name", "-o", "sp/{split}.tfrecord"]),
    ("shuffle", ["shuffle", "ex.tfrecord", "--seed", "7", "-o", "sh.tfrecord"]),
    ("shuffle shards", ["shuffle", "shards/", "--seed", "7", "--shards", "3", "-o", "sh/ex.tfrecord.gz"]),
    ("shuffle more shards than records", ["shuffle", "-j", "1", "edge.tfrecord", "--seed", "1", "--shards", "40", "-o", "e/x.tfrecord.gz"]),
    ("shuffle spilled", ["shuffle", "ex.tfrecord.gz", "--seed", "9", "--memory", "16M", "--shards", "5", "-o", "sp/x.tfrecord.snappy"]),
    ("shuffle zlib shards", ["shuffle", "ex.tfrecord", "--seed", "3", "--shards", "4", "-o", "z/x.tfrecord.zz"]),
    ("to-parquet", ["to-parquet", "ex.tfrecord", "-o", "ex.parquet"]),
    ("to-parquet shards", ["to-parquet", "ex.tfrecord", "--shards", "2", "-o", "pq/ex.parquet"]),
    ("to-arrow", ["to-arrow", "seq.tfrecord", "-o", "seq.arrow"]),
    ("to-arrow stream", ["to-arrow", "ex.tfrecord", "-o", "-"]),
    ("from-parquet", ["from-parquet", "pq_in/ex.parquet", "-o", "fromp.tfrecord"]),
    ("from-arrow", ["from-arrow", "pq_in/seq.arrow", "-o", "froma.tfrecord"]),
    ("to-csv", ["to-csv", "ex.tfrecord"]),
    ("to-csv --lists omit", ["to-csv", "--lists", "omit", "ex.tfrecord", "-o", "ex.csv"]),
    ("to-wds", ["to-wds", "images.tfrecord", "-o", "wds/img.tar"]),
    ("from-wds", ["from-wds", "wds_in/", "-o", "fromw.tfrecord"]),
    ("extract", ["extract", "images.tfrecord", "--feature", "image/encoded", "-o", "files"]),
    ("help", ["--help"]),
    ("from-jsonl --help", ["from-jsonl", "--help"]),
    ("verify-crc --help", ["verify-crc", "--help"]),
    ("error: missing input", ["count", "nothing-here.tfrecord"]),
    ("error: not a tfrecord", ["cat", "schema_in/schema.pbtxt"]),
]


def run_all(tfr, base, data):
    """Each command in its own copy of the data; what it printed and wrote."""
    results = {}
    for name, args in COMMANDS:
        d = os.path.join(base, "run-%03d" % len(results))
        shutil.copytree(data, d)
        before = set(walk(d))
        p = subprocess.run([tfr, *args], cwd=d, capture_output=True, timeout=300,
                           env={"PATH": os.environ.get("PATH", ""), "NO_COLOR": "1", "COLUMNS": "100"})
        files = {f: read(os.path.join(d, f)) for f in sorted(set(walk(d)) - before)}
        files.update({f: read(os.path.join(d, f)) for f in before if read(os.path.join(d, f)) != read(os.path.join(data, f))})
        norm = lambda b: normalise(b, d, tfr)
        results[name] = (p.returncode, norm(p.stdout), norm(p.stderr), {f: norm_file(f, c) for f, c in files.items()})
    return results


def walk(d):
    for root, _, names in os.walk(d):
        for n in names:
            yield os.path.relpath(os.path.join(root, n), d)


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def normalise(b, d, tfr):
    return b.replace(d.encode(), b"<RUN>").replace(tfr.encode(), b"<TFR>")


def norm_file(name, content):
    if name.endswith(".html") and content is not None:
        # The report says when it was made.
        import re
        content = re.sub(rb"generated [^<]*", b"generated <TIME>", content)
    return content


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--records", type=int, default=20000)
    ap.add_argument("--keep", help="keep the runs in this directory")
    a = ap.parse_args()
    old, new = os.path.abspath(a.old), os.path.abspath(a.new)
    base = a.keep or tempfile.mkdtemp(prefix="tfr-same-")
    os.makedirs(base, exist_ok=True)
    data = os.path.join(base, "data")
    os.makedirs(os.path.join(data, "shards"))
    make_data(old, data, a.records)
    # Inputs some commands read from outside their directory (made with the
    # old binary, once, so both read the same bytes).
    os.makedirs(os.path.join(data, "schema_in"))
    with open(os.path.join(data, "schema_in", "schema.pbtxt"), "wb") as f:
        f.write(subprocess.run([old, "schema", "-f", "tfdv-schema", "ex.tfrecord"], cwd=data, check=True,
                               capture_output=True).stdout)
    for sub, args in [
                      ("pq_in", ["to-parquet", "ex.tfrecord", "-o", "pq_in/ex.parquet"]),
                      ("pq_in", ["to-arrow", "seq.tfrecord", "-o", "pq_in/seq.arrow"]),
                      ("wds_in", ["to-wds", "images.tfrecord", "-o", "wds_in/img.tar"])]:
        os.makedirs(os.path.join(data, sub), exist_ok=True)
        subprocess.run([old, *args], cwd=data, check=True, capture_output=True)
    runs = {}
    for label, tfr in [("old", old), ("new", new)]:
        d = os.path.join(base, label)
        os.makedirs(os.path.join(d, "bin"))
        shutil.copy(tfr, os.path.join(d, "bin", "tfr"))
        runs[label] = run_all(os.path.join(d, "bin", "tfr"), d, data)
    differ = 0
    for name, _ in COMMANDS:
        o, n = runs["old"][name], runs["new"][name]
        what = None
        if o[0] != n[0]:
            what = "exit %d -> %d" % (o[0], n[0])
        else:
            for stream, x, y in [("stdout", o[1], n[1]), ("stderr", o[2], n[2])]:
                if x != y:
                    i = first_difference(x, y)
                    what = "%s at byte %d: %r / %r" % (stream, i, x[max(0, i - 30):i + 50], y[max(0, i - 30):i + 50])
                    break
        if what is None and set(o[3]) != set(n[3]):
            what = "files %s / %s" % (sorted(o[3]), sorted(n[3]))
        if what is None:
            for f in sorted(o[3]):
                if o[3][f] != n[3][f]:
                    what = "%s at byte %d" % (f, first_difference(o[3][f] or b"", n[3][f] or b""))
                    break
        if what:
            differ += 1
        print("%-36s %s" % (name, "DIFFERENT: " + what if what else "same (exit %d, %d files)" % (o[0], len(o[3]))))
    print("%d of %d command lines differ" % (differ, len(COMMANDS)))
    if not a.keep:
        shutil.rmtree(base)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

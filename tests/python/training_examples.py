#!/usr/bin/env python3
"""The "In a training loop" snippets of docs/GUIDE.md (issue 48), run as
they are shown there, on small files: PyTorch's DataLoader (map-style with
shuffling, and the streaming form over gzip shards) and JAX with Grain.

    PY tests/python/training_examples.py DIR GUIDE

DIR: what tests/oracle/reader_make.py wrote (ex-*.tfrecord, gzip/); the
snippets' names (train-*.tfrecord, train-*.tfrecord.gz) are made there as
links to them. GUIDE: docs/GUIDE.md. PY: target/venv-reader's python with
the tfr-cli wheel. Each ```python block of the section is run in a fresh
namespace; then what it left behind (its dataset and loader) is checked:
every record seen exactly once. Prints "training examples ran" at the end.
"""
import glob
import os
import re
import sys

DIR, GUIDE = sys.argv[1], os.path.abspath(sys.argv[2])
os.chdir(DIR)


def snippets():
    text = open(GUIDE, encoding="utf-8").read()
    start = text.index("\n## In a training loop")
    end = text.index("\n## ", start + 5)
    return re.findall(r"```python\n(.*?)```", text[start:end], re.S)


def link_names():
    """train-*.tfrecord and train-*.tfrecord.gz beside reader_make.py's files."""
    for path in sorted(glob.glob("ex-*.tfrecord")):
        name = path.replace("ex-", "train-", 1)
        if not os.path.exists(name):
            os.symlink(path, name)
        gz = os.path.join("gzip", path + ".gz")
        if not os.path.exists(name + ".gz"):
            os.symlink(gz, name + ".gz")


def ids_of(batches):
    return sorted(int(i) for b in batches for i in b["id"])


def check(k, ns):
    """What each snippet must have done."""
    ds, loader = ns["ds"], ns["loader"]
    ids = ids_of(loader)
    if k == 2:
        # Grain: whole batches of 8 only.
        n = len(ds) // 8 * 8
    else:
        n = len(ds)
    if len(ids) != n or len(set(ids)) != n:
        print(f"FAIL snippet {k + 1}: {len(ids)} records, {len(set(ids))} distinct, expected {n} each once")
        sys.exit(1)
    return n


def main():
    link_names()
    blocks = snippets()
    if len(blocks) != 3:
        print(f"FAIL: {len(blocks)} python blocks in the GUIDE's training-loop section, expected 3")
        sys.exit(1)
    try:
        # grain 0.2.18 with jax: absl's flags parsed before workers start
        # (google/grain#1355), as the GUIDE says.
        from absl import flags

        flags.FLAGS.mark_as_parsed()
    except ImportError:
        pass
    for k, code in enumerate(blocks):
        ns = {"__name__": f"snippet{k + 1}"}
        exec(compile(code, f"GUIDE.md training snippet {k + 1}", "exec"), ns)
        n = check(k, ns)
        print(f"ok snippet {k + 1}: {n} records, each once", flush=True)
    print("training examples ran")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The "In a training loop" snippets of README/GUIDE (issue 48), run as
they are shown, on a small file: PyTorch's DataLoader (map-style with
shuffling, and the streaming form over gzip shards) and JAX with Grain.

    PY tests/python/training_examples.py DIR

DIR: what tests/oracle/reader_make.py wrote (ex-*.tfrecord and gzip/);
PY: target/venv-reader's python with the tfr-cli wheel. Each snippet
counts the records it saw and must see every one exactly once; prints
"training examples ran" at the end.
"""
import os
import sys

DIR = sys.argv[1]
os.chdir(DIR)


def pytorch_map_style():
    # --- snippet: PyTorch, random access -----------------------------------
    import torch
    from torch.utils.data import DataLoader

    import tfr_cli

    spec = {
        "id": tfr_cli.FixedLen([], "int64"),
        "vec3": tfr_cli.FixedLen([3], "float32"),
        "label": tfr_cli.FixedLen([], "int64"),
    }
    ds = tfr_cli.TFRecordDataset("ex-*.tfrecord", spec=spec)
    loader = DataLoader(ds, batch_size=8, shuffle=True, num_workers=2)
    model = torch.nn.Linear(3, 5)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for batch in loader:
            loss = torch.nn.functional.cross_entropy(model(batch["vec3"]), batch["label"])
            opt.zero_grad()
            loss.backward()
            opt.step()
    # --- end snippet --------------------------------------------------------
    return sorted(int(i) for b in loader for i in b["id"]), len(ds)


def pytorch_streaming():
    # --- snippet: PyTorch, streaming (gzip shards, a shuffle buffer) --------
    import torch
    from torch.utils.data import DataLoader, IterableDataset

    import tfr_cli

    class Records(IterableDataset):
        def __init__(self, ds):
            self.ds = ds

        def __iter__(self):
            return iter(self.ds)  # in worker k of n: its k-th share

    ds = tfr_cli.TFRecordDataset("gzip/ex-*.tfrecord.gz", columns=["id", "vec3", "label"], spec="auto")
    ds = ds.shuffled(seed=0, buffer=1024)
    loader = DataLoader(Records(ds), batch_size=8, num_workers=2)
    for batch in loader:
        x, y = batch["vec3"], batch["label"]  # tensors: (8, 3) float32, (8,) int64
    # --- end snippet --------------------------------------------------------
    assert x.dtype == torch.float32 and y.dtype == torch.int64
    return sorted(int(i) for b in loader for i in b["id"]), len(ds)


def jax_grain():
    # --- snippet: JAX + Grain -----------------------------------------------
    import grain
    import jax
    import jax.numpy as jnp
    from absl import flags

    import tfr_cli

    flags.FLAGS.mark_as_parsed()  # grain 0.2.18 with jax outside absl.app (google/grain#1355)
    spec = {"id": tfr_cli.FixedLen([], "int64"), "vec3": tfr_cli.FixedLen([3], "float32"),
            "label": tfr_cli.FixedLen([], "int64")}
    ds = tfr_cli.TFRecordDataset("ex-*.tfrecord", spec=spec)
    loader = (grain.MapDataset.source(ds)
              .shuffle(seed=0)
              .batch(8, drop_remainder=True)
              .to_iter_dataset()
              .mp_prefetch(grain.MultiprocessingOptions(num_workers=2)))
    w = jnp.zeros((3, 5))

    @jax.jit
    def step(w, x, y):
        def loss(w):
            logits = x @ w
            return -jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(len(y)), y])

        return w - 0.1 * jax.grad(loss)(w)

    for batch in loader:
        w = step(w, batch["vec3"], batch["label"])
    # --- end snippet --------------------------------------------------------
    return sorted(int(i) for b in loader for i in b["id"]), len(ds) // 8 * 8


def main():
    for fn in (pytorch_map_style, pytorch_streaming, jax_grain):
        ids, n = fn()
        if len(ids) != n or len(set(ids)) != n:
            print(f"FAIL {fn.__name__}: {len(ids)} records, {len(set(ids))} distinct, expected {n} each once")
            sys.exit(1)
        print(f"ok {fn.__name__}: {n} records, each once", flush=True)
    print("training examples ran")


if __name__ == "__main__":
    main()

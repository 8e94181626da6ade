#!/usr/bin/env python3
"""Writes two small TensorFlow Datasets (TFDS) datasets into OUT_DIR, each
written by tensorflow-datasets itself (GeneratorBasedBuilder +
download_and_prepare), as test fixtures for reading TFDS data dirs:

  OUT_DIR/tfr_toy/1.0.0/   train (40 records, 3 shards), test (12, 3 shards);
                           image (PNG 8x8x3), label (ClassLabel), text, vec
                           (Tensor float32 default encoding), raw (Tensor
                           uint8 BYTES), packed (Tensor int32 ZLIB), score
                           (Scalar float32), meta {id, source}, tags
                           (Sequence(Text), sometimes empty).
  OUT_DIR/tfr_rlds/1.0.0/  train (6 RLDS episodes of 2..5 steps, 2 shards).

Deterministic: fixed seeds, no time-dependent content. Same records, same
order, same shards on every run; byte for byte too only with address space
randomization off: the protobuf runtime (upb) seeds its map hash with an
address, so the wire order of the feature-map entries inside each
tf.train.Example otherwise changes from run to run. Hence the script re-runs
itself under `setarch -R` where that works (TFDS_MAKE_ASLR=1 skips this);
that makes reruns byte-identical on one machine and install, not across
them (the records and their order still are). Downloads/extraction go
to a temporary directory that is removed; so are any leftovers TFDS may leave
(lock files, *.incomplete* dirs) in OUT_DIR.

Run with the TensorFlow venv, with tensorflow-datasets==4.9.10 installed:
    /work/venv-tf/bin/python tests/oracle/tfds_make.py tests/data/tfds
tests/oracle/tfds_dump.py prints what TFDS reads back.
"""
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if os.environ.get("TFDS_MAKE_ASLR") != "1" and shutil.which("setarch"):
    os.environ["TFDS_MAKE_ASLR"] = "1"
    arch = ["setarch", platform.machine(), "-R"]
    if subprocess.run(arch + ["true"], capture_output=True).returncode == 0:
        os.execvp(arch[0], arch + [sys.executable] + sys.argv)

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# This folder holds oracle scripts (snappy.py, shuffle.py, ...) that could
# shadow modules TFDS or its dependencies import.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402

ANIMALS = ["cat", "dog", "bird"]
WORDS = ["alpha", "beta", "gamma", "delta", "épsilon", "zeta", "η", "theta"]
SOURCES = ["camera-a", "camera-b", "scan"]


def toy_records(split, n, seed):
    rng = np.random.RandomState(seed)
    for i in range(n):
        image = rng.randint(0, 256, size=(8, 8, 3)).astype(np.uint8)
        label = int(rng.randint(0, 3))
        ntags = int(rng.randint(0, 4))  # 0 => empty sequence
        tags = [WORDS[int(rng.randint(0, len(WORDS)))] for _ in range(ntags)]
        rec = {
            "image": image,
            "label": ANIMALS[label] if i % 2 else label,  # name or index both work
            "text": f"{split} record {i}: a {ANIMALS[label]}",
            "vec": (rng.randint(-100, 100, size=(2, 3)) / 8.0).astype(np.float32),
            "raw": rng.randint(0, 256, size=(4,)).astype(np.uint8),
            "packed": rng.randint(-1000, 1000, size=(2, 2)).astype(np.int32),
            "score": np.float32(rng.randint(0, 1000) / 16.0),
            "meta": {"id": np.int64(1_000_000_000_000 * (split == "test") + 1000 + i),
                     "source": SOURCES[i % len(SOURCES)]},
            "tags": tags,
        }
        yield f"{split}-{i:04d}", rec


class TfrToy(tfds.core.GeneratorBasedBuilder):
    """A small toy dataset covering the common TFDS feature kinds."""

    name = "tfr_toy"
    VERSION = tfds.core.Version("1.0.0")
    RELEASE_NOTES = {"1.0.0": "Initial release."}

    def _info(self):
        F = tfds.features
        return tfds.core.DatasetInfo(
            builder=self,
            description="Toy dataset for tfr tests: every common TFDS feature kind.",
            features=F.FeaturesDict({
                "image": F.Image(shape=(8, 8, 3), encoding_format="png"),
                "label": F.ClassLabel(names=ANIMALS),
                "text": F.Text(),
                "vec": F.Tensor(shape=(2, 3), dtype=np.float32),
                "raw": F.Tensor(shape=(4,), dtype=np.uint8, encoding=F.Encoding.BYTES),
                "packed": F.Tensor(shape=(2, 2), dtype=np.int32, encoding=F.Encoding.ZLIB),
                "score": F.Scalar(dtype=np.float32),
                "meta": F.FeaturesDict({"id": np.int64, "source": F.Text()}),
                "tags": F.Sequence(F.Text()),
            }),
            supervised_keys=("image", "label"),
            homepage="https://example.invalid/tfr_toy",
            citation="@misc{tfr_toy, title={tfr toy dataset}, year={2024}}",
        )

    def _split_generators(self, dl_manager):
        return {
            "train": self._generate_examples("train", 40, 1),
            "test": self._generate_examples("test", 12, 2),
        }

    def _generate_examples(self, split, n, seed):
        yield from toy_records(split, n, seed)


class TfrRlds(tfds.core.GeneratorBasedBuilder):
    """A tiny RLDS-shaped dataset: episodes holding a nested `steps` dataset."""

    name = "tfr_rlds"
    VERSION = tfds.core.Version("1.0.0")
    RELEASE_NOTES = {"1.0.0": "Initial release."}

    def _info(self):
        F = tfds.features
        return tfds.core.DatasetInfo(
            builder=self,
            description="RLDS-shaped toy dataset for tfr tests.",
            features=F.FeaturesDict({
                "episode_metadata": F.FeaturesDict({"file_path": F.Text()}),
                "steps": F.Dataset({
                    "observation": F.FeaturesDict({
                        "image": F.Image(shape=(4, 4, 3)),
                        "state": F.Tensor(shape=(3,), dtype=np.float32),
                    }),
                    "action": F.Tensor(shape=(2,), dtype=np.float32),
                    "reward": F.Scalar(dtype=np.float32),
                    "is_first": np.bool_,
                    "is_last": np.bool_,
                    "is_terminal": np.bool_,
                    "language_instruction": F.Text(),
                }),
            }),
            homepage="https://example.invalid/tfr_rlds",
            citation="@misc{tfr_rlds, title={tfr rlds toy dataset}, year={2024}}",
        )

    def _split_generators(self, dl_manager):
        return {"train": self._generate_examples()}

    def _generate_examples(self):
        rng = np.random.RandomState(7)
        tasks = ["pick up the cube", "open the drawer", "push the button"]
        for e in range(6):
            n = 2 + e % 4  # 2..5 steps
            steps = []
            for s in range(n):
                steps.append({
                    "observation": {
                        "image": rng.randint(0, 256, size=(4, 4, 3)).astype(np.uint8),
                        "state": (rng.randint(-64, 64, size=(3,)) / 4.0).astype(np.float32),
                    },
                    "action": (rng.randint(-8, 8, size=(2,)) / 2.0).astype(np.float32),
                    "reward": np.float32(1.0 if s == n - 1 else 0.0),
                    "is_first": s == 0,
                    "is_last": s == n - 1,
                    "is_terminal": s == n - 1 and e % 2 == 0,
                    "language_instruction": tasks[e % len(tasks)],
                })
            yield f"episode_{e}", {
                "episode_metadata": {"file_path": f"episodes/episode_{e}.npy"},
                "steps": steps,
            }


def clean(root):
    """Removes what TFDS leaves that is temporary or machine-specific."""
    for p in sorted(Path(root).rglob("*"), reverse=True):
        if not p.exists():
            continue
        if p.name.endswith(".lock") or ".incomplete" in p.name or p.name in ("downloads", "extracted"):
            if p.is_dir():
                shutil.rmtree(p)
            else:
                p.unlink()


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR")
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    # DownloadConfig.num_shards forces the shard count (else TFDS writes one
    # shard per split for datasets this small); it applies to every split.
    for cls, num_shards in [(TfrToy, 3), (TfrRlds, 2)]:
        shutil.rmtree(out / cls.name, ignore_errors=True)
        with tempfile.TemporaryDirectory() as tmp:
            builder = cls(data_dir=str(out))
            builder.download_and_prepare(
                download_dir=tmp,
                download_config=tfds.download.DownloadConfig(num_shards=num_shards),
            )
    clean(out)


if __name__ == "__main__":
    main()

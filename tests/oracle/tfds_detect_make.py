#!/usr/bin/env python3
"""Writes a small object-detection dataset with tensorflow-datasets itself
(GeneratorBasedBuilder + download_and_prepare) into OUT_DIR/tfr_detect/1.0.0/
(train: 12 records, 2 shards), and what TFDS reads back
(tfds.builder(...).as_dataset, shards and records in file order) into
OUT_DIR/tfr_detect.expected.json.

Features: image (Image, 48x64x3, JPEG), image/filename (Text), label (the
image's ClassLabel: indoor/outdoor), objects (Sequence of {bbox: BBoxFeature,
label: ClassLabel of COCO-like names, is_crowd: bool}); 0..4 objects a
record, one record with none. Every box is drawn in the picture as a filled
rectangle in its class's colour. TFDS's boxes are (ymin, xmin, ymax, xmax),
normalised.

Deterministic like tfds_make.py (fixed seed; re-runs itself under
`setarch -R` where that works, TFDS_MAKE_ASLR=1 skips this, so that the
protobuf map order inside each Example is the same on every run on one
machine and install). Leftovers TFDS may leave (lock files, *.incomplete*
dirs, downloads) are removed. Does not touch the other datasets in OUT_DIR.

    target/venv-tf/bin/python tests/oracle/tfds_detect_make.py tests/data/tfds
"""
import json
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
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402

H, W = 48, 64
OBJECTS = ["person", "car", "dog", "traffic light", "bus"]
SCENES = ["indoor", "outdoor"]
COLOURS = [(230, 40, 40), (40, 80, 240), (255, 255, 255), (250, 130, 0), (200, 40, 220)]
N = 12
EMPTY = 5  # the record generated without objects


def example(i, rng):
    n = 0 if i == EMPTY else 1 + int(rng.randint(0, 4))
    y, x = np.mgrid[0:H, 0:W]
    img = np.zeros((H, W, 3), np.uint8)
    img[..., 0] = 70 + x
    img[..., 1] = 90 + y
    img[..., 2] = 60 + 10 * (i % 8)
    bboxes, labels = [], []
    for _ in range(n):
        w, h = int(rng.randint(8, 32)), int(rng.randint(8, 24))
        x0, y0 = int(rng.randint(0, W - w + 1)), int(rng.randint(0, H - h + 1))
        label = int(rng.randint(0, len(OBJECTS)))
        img[y0:y0 + h, x0:x0 + w] = COLOURS[label]
        bboxes.append(tfds.features.BBox(ymin=y0 / H, xmin=x0 / W, ymax=(y0 + h) / H, xmax=(x0 + w) / W))
        labels.append(OBJECTS[label] if len(labels) % 2 else label)  # name or index both work
    return f"img-{i:03d}", {
        "image": img,
        "image/filename": f"img-{i:03d}.jpg",
        "label": i % 2,
        "objects": {"bbox": bboxes, "label": labels, "is_crowd": [k == 2 for k in range(n)]},
    }


class TfrDetect(tfds.core.GeneratorBasedBuilder):
    """A tiny object-detection dataset (COCO-like boxes and classes)."""

    name = "tfr_detect"
    VERSION = tfds.core.Version("1.0.0")
    RELEASE_NOTES = {"1.0.0": "Initial release."}

    def _info(self):
        F = tfds.features
        return tfds.core.DatasetInfo(
            builder=self,
            description="Object-detection toy dataset for tfr tests: boxes drawn as coloured rectangles.",
            features=F.FeaturesDict({
                "image": F.Image(shape=(H, W, 3), encoding_format="jpeg"),
                "image/filename": F.Text(),
                "label": F.ClassLabel(names=SCENES),
                "objects": F.Sequence({
                    "bbox": F.BBoxFeature(),
                    "label": F.ClassLabel(names=OBJECTS),
                    "is_crowd": np.bool_,
                }),
            }),
            supervised_keys=None,
            homepage="https://example.invalid/tfr_detect",
            citation="@misc{tfr_detect, title={tfr detection toy dataset}, year={2024}}",
        )

    def _split_generators(self, dl_manager):
        return {"train": self._generate_examples()}

    def _generate_examples(self):
        rng = np.random.RandomState(46)
        for i in range(N):
            yield example(i, rng)


def clean(root):
    for p in sorted(Path(root).rglob("*"), reverse=True):
        if not p.exists():
            continue
        if p.name.endswith(".lock") or ".incomplete" in p.name or p.name in ("downloads", "extracted"):
            if p.is_dir():
                shutil.rmtree(p)
            else:
                p.unlink()


def read_back(out):
    """What TFDS yields, shards and records in file order, with the tfds_id
    naming each record's shard and index."""
    builder = tfds.builder("tfr_detect", data_dir=str(out))
    rc = tfds.ReadConfig(add_tfds_id=True, interleave_cycle_length=1)
    ds = builder.as_dataset(split="train", shuffle_files=False, read_config=rc)
    records = []
    for r in tfds.as_numpy(ds):
        tfds_id = r["tfds_id"].decode()
        shard, index = tfds_id.rsplit("__", 1)
        objects = r["objects"]
        records.append({
            "tfds_id": tfds_id,
            "file": shard,
            "index": int(index),
            "image/filename": r["image/filename"].decode(),
            "image_shape": list(r["image"].shape),
            "label": int(r["label"]),
            "label_name": SCENES[int(r["label"])],
            "objects": {
                # float32 as stored, widened exactly; (ymin, xmin, ymax, xmax)
                "bbox": [[float(v) for v in b] for b in objects["bbox"]],
                "label": [int(v) for v in objects["label"]],
                "label_name": [OBJECTS[int(v)] for v in objects["label"]],
                "is_crowd": [bool(v) for v in objects["is_crowd"]],
            },
        })
    files = sorted({r["file"] for r in records})
    order = [(files.index(r["file"]), r["index"]) for r in records]
    assert order == sorted(order), "TFDS did not read in file order"
    return {
        "generator": "tests/oracle/tfds_detect_make.py",
        "tensorflow_datasets": tfds.__version__,
        "dataset": "tfr_detect/1.0.0",
        "split": "train",
        "bbox_order": ["ymin", "xmin", "ymax", "xmax"],
        "class_names": {"label": SCENES, "objects/label": OBJECTS},
        "files": files,
        "records": records,
        "boxes": sum(len(r["objects"]["bbox"]) for r in records),
    }


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR")
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / TfrDetect.name, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        builder = TfrDetect(data_dir=str(out))
        builder.download_and_prepare(
            download_dir=tmp,
            download_config=tfds.download.DownloadConfig(num_shards=2),
        )
    clean(out / TfrDetect.name)
    doc = read_back(out)
    (out / "tfr_detect.expected.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(doc['records'])} records, {doc['boxes']} boxes in {doc['files']}")


if __name__ == "__main__":
    main()

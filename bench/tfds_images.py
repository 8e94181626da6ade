#!/usr/bin/env python3
"""The TFDS side of the bench's TFDS case (issue 44).

    PY bench/tfds_images.py make DATA_DIR N   # a TFDS image dataset, written by TFDS
    PY bench/tfds_images.py peer DATA_DIR OUT # the Python way to Parquet

`make` writes `bench_images/1.0.0` with tensorflow-datasets itself: N
records of a 32x32 RGB PNG (`image`), a ClassLabel of 10 names (`label`)
and a caption (`text`), in 8 shards. `peer` converts it to Parquet as a
user would without tfr: tfds.builder(...).as_dataset(shuffle_files=False)
with the images left encoded (tfds.decode.SkipDecoding, as tfr keeps them),
tfds.as_numpy, rows gathered into a pyarrow Table in batches, written with
pyarrow.parquet (zstd).
"""
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402

NAMES = [f"class_{i}" for i in range(10)]


class BenchImages(tfds.core.GeneratorBasedBuilder):
    name = "bench_images"
    VERSION = tfds.core.Version("1.0.0")
    N = 20000

    def _info(self):
        F = tfds.features
        return tfds.core.DatasetInfo(builder=self, features=F.FeaturesDict({
            "image": F.Image(shape=(32, 32, 3), encoding_format="png"),
            "label": F.ClassLabel(names=NAMES),
            "text": F.Text(),
        }))

    def _split_generators(self, dl_manager):
        return {"train": self._generate_examples()}

    def _generate_examples(self):
        rng = np.random.RandomState(0)
        for i in range(self.N):
            label = int(rng.randint(0, 10))
            yield i, {"image": rng.randint(0, 256, size=(32, 32, 3)).astype(np.uint8), "label": label,
                      "text": f"image {i} of {NAMES[label]}"}


def main():
    mode, data_dir = sys.argv[1], sys.argv[2]
    if mode == "make":
        BenchImages.N = int(sys.argv[3])
        b = BenchImages(data_dir=data_dir)
        b.download_and_prepare(download_config=tfds.download.DownloadConfig(num_shards=8))
        return
    import json
    import time
    import pyarrow as pa
    import pyarrow.parquet as pq
    t = time.perf_counter()
    b = tfds.builder("bench_images", data_dir=data_dir)
    ds = b.as_dataset(split="train", shuffle_files=False, decoders={"image": tfds.decode.SkipDecoding()})
    writer = None
    batch = {"image": [], "label": [], "text": []}

    def flush():
        nonlocal writer
        t = pa.table({"image": pa.array(batch["image"], pa.binary()), "label": pa.array(batch["label"], pa.int64()),
                      "text": pa.array(batch["text"], pa.string())})
        writer = writer or pq.ParquetWriter(sys.argv[3], t.schema, compression="zstd")
        writer.write_table(t)
        for v in batch.values():
            v.clear()

    for r in tfds.as_numpy(ds):
        batch["image"].append(r["image"])
        batch["label"].append(int(r["label"]))
        batch["text"].append(r["text"].decode())
        if len(batch["label"]) == 4096:
            flush()
    if batch["label"]:
        flush()
    writer.close()
    n = pq.ParquetFile(sys.argv[3]).metadata.num_rows
    # The bench's peer protocol: records and seconds (imports not counted).
    print(json.dumps({"records": n, "seconds": time.perf_counter() - t}))


if __name__ == "__main__":
    main()

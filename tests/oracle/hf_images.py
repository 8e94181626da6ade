"""Hugging Face `datasets` image datasets as Parquet (tests/cli/hf_inputs.rs).

`python hf_images.py`, in an empty directory: three PNG files under imgs/,
then two datasets of them with an `Image()` column and a label, each saved
with `Dataset.to_parquet`: local.parquet built from the files' paths (what
`datasets` stores for images loaded from local files: the path, no
bytes) and embedded.parquet built from their bytes. Prints the PNG bytes'
total length.
"""

import os

import datasets
from PIL import Image

os.makedirs("imgs", exist_ok=True)
paths = []
for i in range(3):
    path = os.path.abspath(f"imgs/{i}.png")
    Image.new("RGB", (4 + i, 3), (40 * i, 0, 0)).save(path)
    paths.append(path)
labels = [0, 1, 2]
local = datasets.Dataset.from_dict({"image": paths, "label": labels}).cast_column("image", datasets.Image())
local.to_parquet("local.parquet")
blobs = [open(p, "rb").read() for p in paths]
embedded = datasets.Dataset.from_dict(
    {"image": [{"bytes": b, "path": None} for b in blobs], "label": labels}
).cast_column("image", datasets.Image())
embedded.to_parquet("embedded.parquet")
print(sum(len(b) for b in blobs))

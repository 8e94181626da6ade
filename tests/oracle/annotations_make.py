#!/usr/bin/env python3
"""Writes the annotated-image fixtures of `tfr report`'s overlays, `tfr
validate`'s annotation checks and `tfr view` into OUT_DIR (committed as
tests/data/annotations/), every record written by TensorFlow
(tf.io.TFRecordWriter, tf.train.Example; images by tf.io.encode_jpeg /
encode_png of small numpy pictures, 64x48, with a filled rectangle in the
class's colour where each box is):

  coco_val.tfrecord     30 records in the TF Object Detection API layout, as
                        its dataset_tools/create_coco_tf_record.py writes it:
                        image/{height,width,filename,source_id,key/sha256,
                        encoded,format}, image/object/bbox/{xmin,xmax,ymin,ymax}
                        (normalised floats), image/object/class/{text,label},
                        image/object/{is_crowd,area}. 0..5 boxes a record; like
                        create_coco_tf_record.py, records without boxes have no
                        image/object/* features at all (RECORDS_NO_OBJECTS), one
                        has them with empty lists (RECORD_EMPTY_LISTS, as other
                        writers do). Some are PNG (RECORDS_PNG); some carry a
                        class mask, image/segmentation/class/{encoded,format}
                        (a 1-channel PNG of the image's size, the class id as
                        pixel value, 0 background; DeepLab's build_data.py
                        names) (RECORDS_MASK); some keypoints,
                        image/object/keypoint/{x,y} (normalised), .../visibility
                        and .../num, 3 per box, every box a person
                        (RECORDS_KEYPOINTS).
  label_map.pbtxt       the OD API's StringIntLabelMap (object_detection/
                        protos/string_int_label_map.proto: item { name id
                        display_name }), written by protobuf's text_format from
                        a descriptor of that proto built here; COCO ids/names.
  coco_broken.tfrecord  the same layout, 12 records, one planted problem in
                        each of records 1..9 (see BROKEN); records 0, 10, 11
                        are clean. coco_broken.expected.json: for each problem
                        kind, the records planted (0-based record numbers).
  pixels.tfrecord       4 records whose boxes are absolute pixels (values > 1,
                        image/width and image/height present).
  classify.tfrecord     8 records in TF-slim's classification layout (
                        build_imagenet_data.py: image/{height,width,colorspace,
                        channels,format,filename,encoded}, image/class/label,
                        image/class/text).
  annotations.json      for every file and record what was stored: the boxes
                        (as float32 values widened to float64 exactly), classes,
                        formats, which records have masks and keypoints, and per
                        file the box totals and boxes per class.

Deterministic: fixed seed, no time-dependent content, maps serialised with
deterministic=True (sorted keys); reruns are byte-identical on one
install.

    target/venv-tf/bin/python tests/oracle/annotations_make.py tests/data/annotations
"""
import hashlib
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format  # noqa: E402

W, H = 64, 48

# COCO category ids and names (instances_*.json "categories"); the first
# twelve are used in the records, the rest only listed in the label map.
COCO = [
    (1, "person"), (2, "bicycle"), (3, "car"), (4, "motorcycle"), (6, "bus"), (8, "truck"),
    (10, "traffic light"), (13, "stop sign"), (17, "cat"), (18, "dog"), (19, "horse"),
    (67, "dining table"),
    (5, "airplane"), (7, "train"), (9, "boat"), (11, "fire hydrant"), (64, "potted plant"),
]
USED = COCO[:12]
NAMES = dict(COCO)
COLOURS = {
    1: (230, 40, 40), 2: (40, 200, 60), 3: (40, 80, 240), 4: (240, 200, 20), 6: (200, 40, 220),
    8: (20, 210, 210), 10: (250, 130, 0), 13: (140, 0, 0), 17: (120, 70, 20), 18: (255, 255, 255),
    19: (0, 0, 0), 67: (120, 120, 250), 250: (255, 0, 128),
}

RECORDS_NO_OBJECTS = [4, 17]
RECORD_EMPTY_LISTS = 11
RECORDS_PNG = [5, 13, 22]
RECORDS_MASK = [2, 9, 18, 25]
RECORDS_KEYPOINTS = [6, 14, 27]

# Problem kind -> the record it is planted in (coco_broken.tfrecord).
BROKEN = {
    "outside_unit_range": [1, 2],   # xmax 1.25; ymin -0.1
    "xmin_gt_xmax": [3],
    "ymin_gt_ymax": [4],
    "zero_area": [5],               # xmin == xmax
    "coordinate_lengths_differ": [7],  # ymax has one value fewer than xmin, xmax, ymin
    "class_lengths_differ": [8],    # class/label and class/text: 2 values, 3 boxes
    "class_not_in_label_map": [9],  # class/label 250
}
BROKEN_CLEAN = [0, 6, 10, 11]


# ---------------------------------------------------------------- features

def f_int(v):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=list(v)))


def f_float(v):
    return tf.train.Feature(float_list=tf.train.FloatList(value=list(v)))


def f_bytes(v):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=list(v)))


def f32(x):
    """A float as a float32 feature stores it, widened back exactly."""
    return float(np.float32(x))


def serialise(feature):
    ex = tf.train.Example(features=tf.train.Features(feature=feature))
    return ex.SerializeToString(deterministic=True)


# ---------------------------------------------------------------- pictures

def background(rng):
    y, x = np.mgrid[0:H, 0:W]
    base = rng.randint(60, 140, size=3)
    img = np.zeros((H, W, 3), np.int32)
    img[..., 0] = base[0] + x // 4
    img[..., 1] = base[1] + y // 4
    img[..., 2] = base[2]
    return img.clip(0, 255).astype(np.uint8)


def draw(img, px_boxes, labels):
    """Fills each box (pixel corners x0, y0, x1, y1, clipped) in its class's colour."""
    for (x0, y0, x1, y1), label in zip(px_boxes, labels):
        x0, x1 = sorted((int(np.clip(x0, 0, W)), int(np.clip(x1, 0, W))))
        y0, y1 = sorted((int(np.clip(y0, 0, H)), int(np.clip(y1, 0, H))))
        img[y0:y1, x0:x1] = COLOURS.get(label, (255, 0, 128))
    return img


def encode(img, png):
    return (tf.io.encode_png(img) if png else tf.io.encode_jpeg(img, quality=90)).numpy()


def random_boxes(rng, n, labels=None):
    """n pixel boxes, at least 6 px a side, and their class ids."""
    boxes = []
    for _ in range(n):
        w, h = int(rng.randint(6, 30)), int(rng.randint(6, 24))
        x0, y0 = int(rng.randint(0, W - w + 1)), int(rng.randint(0, H - h + 1))
        boxes.append((x0, y0, x0 + w, y0 + h))
    if labels is None:
        labels = [USED[int(rng.randint(0, len(USED)))][0] for _ in range(n)]
    return boxes, labels


def normalised(px_boxes):
    """(xmin, ymin, xmax, ymax) lists as float32 values."""
    return ([f32(b[0] / W) for b in px_boxes], [f32(b[1] / H) for b in px_boxes],
            [f32(b[2] / W) for b in px_boxes], [f32(b[3] / H) for b in px_boxes])


# ---------------------------------------------------------------- OD API layout

def od_base(i, encoded, png):
    image_id = 1000 + 37 * i
    name = f"{image_id:012d}.{'png' if png else 'jpg'}"
    return {
        "image/height": f_int([H]),
        "image/width": f_int([W]),
        "image/filename": f_bytes([name.encode()]),
        "image/source_id": f_bytes([str(image_id).encode()]),
        "image/key/sha256": f_bytes([hashlib.sha256(encoded).hexdigest().encode()]),
        "image/encoded": f_bytes([encoded]),
        "image/format": f_bytes([b"png" if png else b"jpeg"]),
    }


def od_objects(xmin, ymin, xmax, ymax, labels, texts, areas, crowd):
    return {
        "image/object/bbox/xmin": f_float(xmin),
        "image/object/bbox/xmax": f_float(xmax),
        "image/object/bbox/ymin": f_float(ymin),
        "image/object/bbox/ymax": f_float(ymax),
        "image/object/class/text": f_bytes([t.encode() for t in texts]),
        "image/object/class/label": f_int(labels),
        "image/object/is_crowd": f_int(crowd),
        "image/object/area": f_float(areas),
    }


def box_entries(xmin, ymin, xmax, ymax, labels, texts):
    return [{"xmin": a, "ymin": b, "xmax": c, "ymax": d, "label": l, "text": t}
            for a, b, c, d, l, t in zip(xmin, ymin, xmax, ymax, labels, texts)]


def keypoints(px_boxes):
    """3 keypoints a box (top centre, left middle, right middle), normalised."""
    xs, ys = [], []
    for x0, y0, x1, y1 in px_boxes:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for x, y in [(cx, y0 + 2), (x0 + 2, cy), (x1 - 2, cy)]:
            xs.append(f32(x / W))
            ys.append(f32(y / H))
    return xs, ys


def class_mask(px_boxes, labels):
    mask = np.zeros((H, W, 1), np.uint8)
    for (x0, y0, x1, y1), label in zip(px_boxes, labels):
        mask[y0:y1, x0:x1, 0] = label
    return tf.io.encode_png(mask).numpy()


def coco_val(rng, path):
    out = []
    with tf.io.TFRecordWriter(str(path)) as w:
        for i in range(30):
            png = i in RECORDS_PNG
            kp = i in RECORDS_KEYPOINTS
            if i in RECORDS_NO_OBJECTS or i == RECORD_EMPTY_LISTS:
                n = 0
            else:
                n = 1 + i % 5 if i % 6 else 5
            px, labels = random_boxes(rng, n, [1] * n if kp else None)
            encoded = encode(draw(background(rng), px, labels), png)
            feature = od_base(i, encoded, png)
            xmin, ymin, xmax, ymax = normalised(px)
            texts = [NAMES[l] for l in labels]
            areas = [f32((b[2] - b[0]) * (b[3] - b[1])) for b in px]
            crowd = [int(j == 2 and i % 4 == 0) for j in range(n)]
            if i not in RECORDS_NO_OBJECTS:
                feature.update(od_objects(xmin, ymin, xmax, ymax, labels, texts, areas, crowd))
            entry = {"record": i, "format": "png" if png else "jpeg", "width": W, "height": H,
                     "object_features": i not in RECORDS_NO_OBJECTS,
                     "boxes": box_entries(xmin, ymin, xmax, ymax, labels, texts),
                     "mask": i in RECORDS_MASK, "keypoints": 0}
            if i in RECORDS_MASK:
                feature["image/segmentation/class/encoded"] = f_bytes([class_mask(px, labels)])
                feature["image/segmentation/class/format"] = f_bytes([b"png"])
                entry["mask_classes"] = sorted(set(labels))
            if kp:
                xs, ys = keypoints(px)
                feature["image/object/keypoint/x"] = f_float(xs)
                feature["image/object/keypoint/y"] = f_float(ys)
                feature["image/object/keypoint/visibility"] = f_int([2] * len(xs))
                feature["image/object/keypoint/num"] = f_int([3] * n)
                entry["keypoints"] = len(xs)
                entry["keypoint_xy"] = [[x, y] for x, y in zip(xs, ys)]
            w.write(serialise(feature))
            out.append(entry)
    return out


def broken_record(i, rng):
    """Record i of coco_broken.tfrecord: its lists (one problem planted) and boxes to draw."""
    px, labels = random_boxes(rng, 3)
    if i == 10:
        px, labels = [], []
    xmin, ymin, xmax, ymax = (list(v) for v in normalised(px))
    texts = [NAMES[l] for l in labels]
    if i == 1:
        xmax[1] = f32(1.25)
    elif i == 2:
        ymin[0] = f32(-0.1)
    elif i == 3:
        xmin[2], xmax[2] = xmax[2], xmin[2]
    elif i == 4:
        ymin[1], ymax[1] = ymax[1], ymin[1]
    elif i == 5:
        xmax[0] = xmin[0]
    elif i == 7:
        ymax = ymax[:2]
    elif i == 8:
        labels, texts = labels[:2], texts[:2]
    elif i == 9:
        labels[1], texts[1] = 250, "250"
    return px, (xmin, ymin, xmax, ymax, labels, texts)


def coco_broken(rng, path):
    out = []
    with tf.io.TFRecordWriter(str(path)) as w:
        for i in range(12):
            px, (xmin, ymin, xmax, ymax, labels, texts) = broken_record(i, rng)
            draw_labels = labels + [0] * (len(px) - len(labels))
            encoded = encode(draw(background(rng), px, draw_labels), False)
            feature = od_base(i, encoded, False)
            areas = [f32((b[2] - b[0]) * (b[3] - b[1])) for b in px]
            if px:
                feature.update(od_objects(xmin, ymin, xmax, ymax, labels, texts, areas, [0] * len(px)))
            w.write(serialise(feature))
            out.append({"record": i, "format": "jpeg", "width": W, "height": H,
                        "stored": {"xmin": xmin, "ymin": ymin, "xmax": xmax, "ymax": ymax,
                                   "label": labels, "text": texts}})
    return out


def pixels(rng, path):
    out = []
    with tf.io.TFRecordWriter(str(path)) as w:
        for i in range(4):
            px, labels = random_boxes(rng, 1 + i)
            encoded = encode(draw(background(rng), px, labels), False)
            feature = od_base(i, encoded, False)
            vals = [[f32(b[k]) for b in px] for k in range(4)]
            texts = [NAMES[l] for l in labels]
            areas = [f32((b[2] - b[0]) * (b[3] - b[1])) for b in px]
            feature.update(od_objects(*vals, labels, texts, areas, [0] * len(px)))
            xmin, ymin, xmax, ymax = normalised(px)
            w.write(serialise(feature))
            out.append({"record": i, "format": "jpeg", "width": W, "height": H,
                        "boxes_pixels": box_entries(*vals, labels, texts),
                        "boxes": box_entries(xmin, ymin, xmax, ymax, labels, texts)})
    return out


SLIM_CLASSES = ["background", "cat", "dog", "bird"]


def classify(rng, path):
    out = []
    with tf.io.TFRecordWriter(str(path)) as w:
        for i in range(8):
            label = 1 + i % 3
            img = background(rng)
            img[12:36, 16:48] = COLOURS[[17, 18, 4][label - 1]]
            png = i == 5
            encoded = encode(img, png)
            feature = {
                "image/height": f_int([H]),
                "image/width": f_int([W]),
                "image/colorspace": f_bytes([b"RGB"]),
                "image/channels": f_int([3]),
                "image/class/label": f_int([label]),
                "image/class/text": f_bytes([SLIM_CLASSES[label].encode()]),
                "image/format": f_bytes([b"PNG" if png else b"JPEG"]),
                "image/filename": f_bytes([f"n{label:08d}_{i}.{'png' if png else 'JPEG'}".encode()]),
                "image/encoded": f_bytes([encoded]),
            }
            w.write(serialise(feature))
            out.append({"record": i, "format": "png" if png else "jpeg", "width": W, "height": H,
                        "class": {"label": label, "text": SLIM_CLASSES[label]}})
    return out


# ---------------------------------------------------------------- label map

def label_map_class():
    """The StringIntLabelMap message class, from a descriptor of the OD API's
    string_int_label_map.proto (the fields a label map file uses)."""
    fd = descriptor_pb2.FileDescriptorProto(
        name="object_detection/protos/string_int_label_map.proto",
        package="object_detection.protos", syntax="proto2")
    item = fd.message_type.add(name="StringIntLabelMapItem")
    T = descriptor_pb2.FieldDescriptorProto
    item.field.add(name="name", number=1, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    item.field.add(name="id", number=2, type=T.TYPE_INT32, label=T.LABEL_OPTIONAL)
    item.field.add(name="display_name", number=3, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    lm = fd.message_type.add(name="StringIntLabelMap")
    lm.field.add(name="item", number=1, type=T.TYPE_MESSAGE, label=T.LABEL_REPEATED,
                 type_name=".object_detection.protos.StringIntLabelMapItem")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("object_detection.protos.StringIntLabelMap"))


def write_label_map(path):
    cls = label_map_class()
    lm = cls()
    for cid, name in sorted(COCO):
        lm.item.add(name=name, id=cid, display_name=name)
    text = text_format.MessageToString(lm)
    back = text_format.Parse(text, cls())
    assert [(i.id, i.name) for i in back.item] == sorted(COCO)
    path.write_text(text)


# ---------------------------------------------------------------- summary

def summary(records):
    per_class = {}
    total = 0
    for r in records:
        for b in r.get("boxes", []):
            per_class[b["text"]] = per_class.get(b["text"], 0) + 1
            total += 1
    return {"records": len(records), "boxes": total,
            "records_with_boxes": sum(1 for r in records if r.get("boxes")),
            "boxes_per_class": dict(sorted(per_class.items()))}


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(46)
    write_label_map(out / "label_map.pbtxt")
    files = {
        "coco_val.tfrecord": coco_val(rng, out / "coco_val.tfrecord"),
        "coco_broken.tfrecord": coco_broken(rng, out / "coco_broken.tfrecord"),
        "pixels.tfrecord": pixels(rng, out / "pixels.tfrecord"),
        "classify.tfrecord": classify(rng, out / "classify.tfrecord"),
    }
    doc = {
        "generator": "tests/oracle/annotations_make.py",
        "tensorflow": tf.__version__,
        "image_size": [W, H],
        "label_map": "label_map.pbtxt",
        "files": {name: {"summary": summary(recs) if name != "coco_broken.tfrecord" else None,
                         "records": recs}
                  for name, recs in files.items()},
    }
    (out / "annotations.json").write_text(json.dumps(doc, indent=1) + "\n")
    expected = {
        "file": "coco_broken.tfrecord",
        "label_map": "label_map.pbtxt",
        "records": 12,
        "numbering": "0-based record numbers in file order",
        "problems": BROKEN,
        "clean": BROKEN_CLEAN,
        "notes": {
            "outside_unit_range": "record 1: xmax[1] = 1.25; record 2: ymin[0] = -0.1",
            "xmin_gt_xmax": "record 3: box 2's xmin and xmax swapped",
            "ymin_gt_ymax": "record 4: box 1's ymin and ymax swapped",
            "zero_area": "record 5: box 0's xmax == xmin",
            "coordinate_lengths_differ": "record 7: xmin, xmax, ymin have 3 values, ymax 2; "
                                         "class lists, is_crowd and area have 3",
            "class_lengths_differ": "record 8: class/label and class/text have 2 values, the 4 coordinate lists 3",
            "class_not_in_label_map": "record 9: class/label[1] = 250 (class/text '250')",
        },
    }
    (out / "coco_broken.expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    for p in sorted(out.iterdir()):
        print(f"{p.stat().st_size:8d} {p}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Prints a TensorBoard event file (a TFRecord file of tf.Event records) the
way Python protobuf prints each tf.Event; the reference for `tfr cat` and
`tfr to-jsonl` on event files.

    /work/venv-tf/bin/python tests/oracle/events_ref.py FILE --text
    /work/venv-tf/bin/python tests/oracle/events_ref.py FILE --json

--text: for record N (from 0) a line `# record N`, then
        text_format.MessageToString(event) as is (one line per field, nested
        messages indented by two spaces, ending in a newline; an event with
        no fields set prints nothing after its `# record N` line).
--json: one line per record,
        json_format.MessageToJson(event, preserving_proto_field_name=True,
        indent=None), UTF-8.
--values: for record N a line `# record N`, then one line per summary value
        whose tensor holds numbers or bools (at most 1024 of them): the JSON
        of tf.make_ndarray(tensor).tolist() (what `tfr cat` shows in its
        `# values:` comment line; a float that is not finite as "NaN",
        "Infinity" or "-Infinity").

Records are read with tf.compat.v1.io.tf_record_iterator (CRCs checked) and
parsed as tensorflow.core.util.event_pb2.Event. A truncated last record (a
file still being written) ends the output silently: TensorFlow raises
DataLossError there; this script stops, exits 0 and says on stderr how many
records it printed and that the tail was truncated. stderr always gets
`N records` (plus `, truncated tail` when so). A corrupted record (CRC
mismatch) also ends the output, but with exit status 2.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
from google.protobuf import json_format, text_format  # noqa: E402
from tensorflow.core.util import event_pb2  # noqa: E402


def finite(v):
    """Non-finite floats as the strings protobuf's JSON mapping writes."""
    if isinstance(v, list):
        return [finite(x) for x in v]
    if isinstance(v, float) and v != v:
        return "NaN"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("--text", "--json", "--values"):
        sys.exit(__doc__)
    path, mode = sys.argv[1], sys.argv[2]
    out = sys.stdout.buffer
    n = 0
    truncated = False
    it = tf.compat.v1.io.tf_record_iterator(path)
    while True:
        try:
            rec = next(it)
        except StopIteration:
            break
        except tf.errors.DataLossError as e:
            # "truncated record at OFFSET" (the file ends inside a record) or
            # "corrupted record at OFFSET" (a CRC mismatch).
            print(f"{path}: stopped at record {n}: {e.message}", file=sys.stderr)
            if "truncated record" not in e.message:
                print(f"{n} records, then a corrupted record", file=sys.stderr)
                sys.exit(2)
            truncated = True
            break
        ev = event_pb2.Event.FromString(rec)
        if mode == "--values":
            out.write(f"# record {n}\n".encode())
            for v in ev.summary.value:
                if v.HasField("tensor") and v.tensor.dtype != tf.string.as_datatype_enum:
                    a = tf.make_ndarray(v.tensor)
                    if a.size <= 1024:
                        out.write(json.dumps(finite(a.tolist())).encode() + b"\n")
        elif mode == "--text":
            out.write(f"# record {n}\n".encode())
            out.write(text_format.MessageToString(ev).encode("utf-8"))
        else:
            out.write(json_format.MessageToJson(
                ev, preserving_proto_field_name=True, indent=None).encode("utf-8"))
            out.write(b"\n")
        n += 1
    print(f"{n} records" + (", truncated tail" if truncated else ""), file=sys.stderr)


if __name__ == "__main__":
    main()

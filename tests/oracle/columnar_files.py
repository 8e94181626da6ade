#!/usr/bin/env python3
"""Parquet and Arrow IPC files written by pyarrow for tests/cli/columnar_limits.rs:
small files that hold far more than their size, and a Parquet file whose footer
lies about its row count. Run with a Python that has pyarrow:

  columnar_files.py dictionary ROWS VALUE_BYTES DIR
      DIR/d.arrow (IPC file), DIR/d.arrows (IPC stream), DIR/d.parquet: one
      column `s`, dictionary<int32, binary> with one entry of VALUE_BYTES
      bytes, ROWS rows all pointing at it (the entry is stored once: a
      few hundred bytes of file for ROWS x VALUE_BYTES bytes of records);
      DIR/plain.parquet: the same column as plain binary (its Parquet
      pages still dictionary-encoded: as small; pyarrow builds the
      column in memory, so ROWS x VALUE_BYTES must stay under 2 GiB).
  columnar_files.py zero-footer ROWS FILE
      a Parquet file with one row group of ROWS rows (`i` int64) whose
      footer's FileMetaData.num_rows is rewritten to 0 (see below).
"""

import sys

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq


def dictionary(rows, value_bytes, out):
    keys = pa.array([0] * rows, pa.int32())
    s = pa.DictionaryArray.from_arrays(keys, pa.array([b"x" * value_bytes], pa.binary()))
    table = pa.table({"s": s})
    zstd = ipc.IpcWriteOptions(compression="zstd")
    with ipc.new_file(out + "/d.arrow", table.schema, options=zstd) as w:
        w.write_table(table)
    with ipc.new_stream(out + "/d.arrows", table.schema, options=zstd) as w:
        w.write_table(table)
    pq.write_table(table, out + "/d.parquet", compression="zstd")
    # The value fits the dictionary page (default 1 MiB): the pages hold
    # keys, a row group of a few hundred bytes per row.
    plain = pa.table({"s": s.cast(pa.binary())})
    pq.write_table(plain, out + "/plain.parquet", compression="zstd", dictionary_pagesize_limit=value_bytes + (1 << 20))


# The footer is a Thrift compact-protocol struct (FileMetaData: 1 version
# i32, 2 schema list<SchemaElement>, 3 num_rows i64, 4 row_groups, ...)
# followed by its length (4 bytes, little-endian) and b"PAR1". The walk
# below skips fields 1 and 2 by their types, finds field 3 and replaces
# its varint with 0; the footer's length is rewritten. Nothing else moves:
# the row groups' offsets point before the footer.


def varint(b, i):
    v, shift = 0, 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return v, i


def skip(b, i, t):
    """The end of a value of compact type t starting at b[i]."""
    if t in (1, 2):  # a bool field's value is in its header
        return i
    if t == 3:  # byte
        return i + 1
    if t in (4, 5, 6):  # i16, i32, i64: zigzag varints
        return varint(b, i)[1]
    if t == 7:  # double
        return i + 8
    if t == 8:  # binary: a varint length, the bytes
        n, i = varint(b, i)
        return i + n
    if t in (9, 10):  # list, set: size and element type, the elements
        h = b[i]
        i += 1
        n, et = h >> 4, h & 0x0F
        if n == 15:
            n, i = varint(b, i)
        for _ in range(n):
            i = i + 1 if et in (1, 2) else skip(b, i, et)
        return i
    if t == 11:  # map
        n, i = varint(b, i)
        if n == 0:
            return i
        kv = b[i]
        i += 1
        for _ in range(n):
            i = skip(b, skip(b, i, kv >> 4), kv & 0x0F)
        return i
    if t == 12:  # struct: fields up to a stop byte
        field = 0
        while True:
            h = b[i]
            i += 1
            if h == 0:
                return i
            delta, ft = h >> 4, h & 0x0F
            if delta:
                field += delta
            else:
                z, i = varint(b, i)
                field = (z >> 1) ^ -(z & 1)
            i = skip(b, i, ft)
    raise ValueError("compact type %d" % t)


def zero_footer(rows, path):
    pq.write_table(pa.table({"i": pa.array(range(rows), pa.int64())}), path)
    data = open(path, "rb").read()
    assert data[-4:] == b"PAR1"
    n = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - n
    footer = data[start:-8]
    i, field = 0, 0
    while True:
        h = footer[i]
        assert h != 0, "no num_rows field"
        i += 1
        delta, t = h >> 4, h & 0x0F
        assert delta, "long field header"
        field += delta
        if field == 3:
            assert t == 6, "num_rows is an i64"
            got, end = varint(footer, i)
            assert (got >> 1) == rows, "num_rows %d" % (got >> 1)
            footer = footer[:i] + b"\x00" + footer[end:]
            break
        i = skip(footer, i, t)
    with open(path, "wb") as f:
        f.write(data[:start] + footer + len(footer).to_bytes(4, "little") + b"PAR1")
    meta = pq.read_metadata(path)
    assert meta.num_rows == 0 and meta.row_group(0).num_rows == rows
    assert pq.read_table(path).num_rows == rows, "pyarrow reads the row group"


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "dictionary":
        dictionary(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif mode == "zero-footer":
        zero_footer(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit("unknown mode " + mode)

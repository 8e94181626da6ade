"""``tfr_cli.TFRecordDataset``: TFRecord files read in-process, by record
number, for training loops (PyTorch ``DataLoader``, JAX/Grain data
sources).

The reading and decoding are tfr's own (the native module
``tfr_cli._native``, Python's lock released while it works): records are
found through index files (``tfr index``'s ``NAME.idx``, or an index built
on first use), CRCs are checked, gzip and zlib files are random-access
through a seek index, and records are decoded either as stored or by a
parse spec (``tf.io.parse_example``'s ``feature_description``).
"""

import os
import random as _random

from . import _native

__all__ = ["TFRecordDataset", "FixedLen", "VarLen", "TFRecordError"]

TFRecordError = _native.TFRecordError

# Records read per call when iterating in order.
_CHUNK = 256


class FixedLen:
    """A feature with exactly ``prod(shape)`` values in every record
    (``tf.io.FixedLenFeature``): an array of that shape; ``default`` (as
    many values as the shape holds) stands in where it is missing, else a
    missing feature is an error."""

    def __init__(self, shape, dtype, default=None):
        self.shape = _shape(shape)
        self.dtype = _dtype(dtype)
        self.default = default

    def __repr__(self):
        return f"FixedLen({list(self.shape)}, {self.dtype!r}, default={self.default!r})"


class VarLen:
    """A feature with any number of values (``tf.io.VarLenFeature``): a 1-D
    array (a list of ``bytes`` for strings), empty where it is missing."""

    def __init__(self, dtype):
        self.dtype = _dtype(dtype)

    def __repr__(self):
        return f"VarLen({self.dtype!r})"


def _dtype(dtype):
    """A dtype's name: from a string, a numpy dtype or type, a tf.DType, or
    Python's float, int, bytes and str (float32, int64, string: as
    TensorFlow takes ``float`` for float32)."""
    if isinstance(dtype, str):
        return dtype
    python = {float: "float32", int: "int64", bytes: "string", str: "string"}
    if dtype in python:
        return python[dtype]
    name = getattr(dtype, "name", None)  # tf.DType, numpy dtype
    if isinstance(name, str):
        return name
    try:
        import numpy

        return numpy.dtype(dtype).name
    except Exception:
        raise TypeError(f"spec: {dtype!r} is not a dtype (int64, float32, string)") from None


def _shape(shape):
    if shape is None:
        return ()
    dims = getattr(shape, "as_list", None)  # tf.TensorShape
    shape = dims() if dims else shape
    if isinstance(shape, int):
        shape = [shape]
    out = []
    for d in shape:
        if d is None:
            raise ValueError(f"spec: shape {list(shape)}: every dimension must be known (use VarLen)")
        if not hasattr(d, "__index__"):
            raise TypeError(f"spec: shape {list(shape)}: dimensions are integers, not {type(d).__name__}")
        if d.__index__() < 0:
            raise ValueError(f"spec: shape {list(shape)}: every dimension must be known (use VarLen)")
        out.append(d.__index__())
    return tuple(out)


def _flat(value):
    """A default value as a flat list."""
    try:
        import numpy

        array = numpy.asarray(value, dtype=object if _is_bytes(value) else None)
        return [v.item() if hasattr(v, "item") else v for v in array.reshape(-1)]
    except ImportError:
        return value if isinstance(value, list) else [value]


def _is_bytes(value):
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    return isinstance(value, (bytes, str))


def _normalise_spec(spec):
    """``spec=`` as the native reader takes it: ``"auto"``, ``None``, or a
    list of ``(name, "fixed" | "var", shape, dtype, default)``."""
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, list):  # already normalised (pickled)
        return spec
    out = []
    for name, f in spec.items():
        kind = type(f).__name__
        if isinstance(f, FixedLen) or kind == "FixedLenFeature":
            shape = _shape(f.shape)
            default = getattr(f, "default", getattr(f, "default_value", None))
            dtype = _dtype(f.dtype)
            if default is not None:
                default = _flat(default)
                if dtype in ("string", "bytes", "object"):
                    default = [d.encode() if isinstance(d, str) else d for d in default]
            out.append((name, "fixed", list(shape), dtype, default))
        elif isinstance(f, VarLen) or kind == "VarLenFeature":
            out.append((name, "var", [], _dtype(f.dtype), None))
        else:
            raise TypeError(
                f"spec: feature {name!r}: {f!r} is not a FixedLen/VarLen "
                "(or tf.io.FixedLenFeature/VarLenFeature)"
            )
    return out


class TFRecordDataset:
    """TFRecord files as a sequence of records: ``len(ds)``, ``ds[i]``,
    slices, lists of indices, ``iter(ds)``; ``shuffled``, ``shard`` and
    ``batch`` make views. Picklable (the index travels along), so it is a
    PyTorch map-style dataset and a Grain random-access data source.

    ``paths``: a path, glob, folder or ``s3://``/``gs://``/``az://``/
    ``https://`` URL, or a list of them. ``index``: ``None`` uses
    ``NAME.idx`` beside each file when it still matches (``tfr index``
    writes them), else builds one in memory on first use; a folder: the
    ``NAME.idx`` files there; ``False``: always build it (index files are
    not read). ``columns``: feature names or globs to keep.
    ``where``: a tfr ``--where`` expression (only matching records are
    numbered). ``spec``: ``None`` (each feature as stored), ``"auto"``
    (inferred as ``tfr schema --format tf``), or a dict name ->
    ``FixedLen``/``VarLen`` (or ``tf.io.FixedLenFeature``/
    ``VarLenFeature``). ``raw=True``: each record is its payload bytes.
    ``compression``: ``None`` (detected), ``"gzip"``, ``"zlib"``, ``"none"``.
    """

    def __init__(self, paths, *, index=None, columns=None, where=None, spec=None, raw=False, compression=None):
        if isinstance(paths, (str, bytes, os.PathLike)):
            paths = [paths]
        paths = [os.fsdecode(p) for p in paths]
        if isinstance(columns, str):
            columns = [columns]
        walk = index is False
        if index is not None and not walk:
            index = os.fsdecode(index)
        self._args = dict(
            paths=paths,
            index=None if walk else index,
            walk=walk,
            columns=list(columns) if columns is not None else None,
            filter=where,
            spec=_normalise_spec(spec),
            raw=bool(raw),
            compression=compression,
        )
        self._reader = _native.Reader(**self._args)
        # An inferred spec travels as the spec it became.
        self._args["spec"] = self._reader.spec() if self._args["spec"] == "auto" else self._args["spec"]
        self._pid = os.getpid()
        self._order = None  # a view's record numbers (None: all, in order)
        self._buffer = None  # shuffled(buffer=N): (seed, N)

    # -- the native reader, one per process ---------------------------------

    @property
    def _native(self):
        if self._pid != os.getpid():
            # A forked worker: the parent's reader holds threads and
            # connections that did not come along.
            exported = self._reader.export_index()
            self._reader = _native.Reader(**self._args, exported=exported)
            self._pid = os.getpid()
        return self._reader

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_exported"] = self._reader.export_index()
        del state["_reader"]
        return state

    def __setstate__(self, state):
        exported = state.pop("_exported")
        self.__dict__.update(state)
        self._reader = _native.Reader(**self._args, exported=exported)
        self._pid = os.getpid()

    # -- the sequence --------------------------------------------------------

    def __len__(self):
        if self._order is not None:
            return len(self._order)
        return len(self._native)

    def _number(self, i):
        """The record number of position ``i`` (negative from the end)."""
        n = len(self)
        given = i = i.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"TFRecordDataset index {given} out of range ({n} records)")
        return int(self._order[i]) if self._order is not None else i

    def __getitem__(self, key):
        if self._buffer is not None:
            raise TypeError("a shuffled(buffer=N) view is only iterated (its order exists as it is read)")
        if getattr(key, "ndim", None) == 0:  # a numpy scalar or 0-d array
            key = key.item() if hasattr(key, "item") else key
        if isinstance(key, int) or (hasattr(key, "__index__") and not hasattr(key, "__len__")):
            return self._native.get(self._number(key))
        if isinstance(key, slice):
            positions = range(*key.indices(len(self)))
            if not positions:
                return []
            if self._order is None and positions.step == 1:
                return self._native.range(positions.start, positions.stop)
            return self._native.get_many([self._number(i) for i in positions])
        if hasattr(key, "__len__") and not isinstance(key, (str, bytes)):
            if getattr(key, "dtype", None) is not None and key.dtype.kind == "b":
                # A boolean mask, as numpy takes one.
                if len(key) != len(self):
                    raise IndexError(f"a boolean mask of {len(key)} for {len(self)} records")
                key = key.nonzero()[0]
            elif len(key) and all(isinstance(k, bool) for k in key):
                raise TypeError("a list of booleans: give a numpy boolean array for a mask, or record numbers")
            return self._native.get_many([self._number(i) for i in key])
        raise TypeError(f"TFRecordDataset indices must be integers, slices or lists of integers, not {type(key).__name__}")

    def __getitems__(self, indices):
        """Several records in one call (PyTorch's DataLoader uses it for a
        batch when it is there)."""
        if self._buffer is not None:
            raise TypeError("a shuffled(buffer=N) view is only iterated (its order exists as it is read)")
        return self._native.get_many([self._number(i) for i in indices])

    def __iter__(self):
        start, stop = _worker_share(len(self))
        if self._buffer is not None:
            yield from self._buffered(start, stop)
            return
        for lo in range(start, stop, _CHUNK):
            hi = min(lo + _CHUNK, stop)
            if self._order is None:
                yield from self._native.range(lo, hi)
            else:
                yield from self._native.get_many([int(n) for n in self._order[lo:hi]])

    def _buffered(self, start, stop):
        """A streaming shuffle: records read in order into a buffer of N,
        each yielded from a random place in it (tf.data's shuffle)."""
        seed, size = self._buffer
        rng = _random.Random(seed)
        pool = []
        base = self._without_buffer()
        for lo in range(start, stop, _CHUNK):
            for record in base[lo : min(lo + _CHUNK, stop)]:
                if len(pool) < size:
                    pool.append(record)
                    continue
                k = rng.randrange(size)
                yield pool[k]
                pool[k] = record
        rng.shuffle(pool)
        yield from pool

    # -- views -------------------------------------------------------------

    def _view(self, order):
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view._order = order
        view._buffer = None
        return view

    def _without_buffer(self):
        return self._view(self._order)

    def _numbers(self):
        import numpy

        if self._order is not None:
            return self._order
        return numpy.arange(len(self), dtype=numpy.int64)

    def shuffled(self, seed, buffer=None):
        """A view in a seeded random order: a permutation of every record
        (``buffer=None``, a global shuffle by index), or, with ``buffer=N``,
        records read in order through a shuffle buffer of N (cheap where
        random access is not: gzip files, object stores). Iterating a
        buffered view is its only use (no indexing)."""
        if buffer is not None:
            if int(buffer) < 1:
                raise ValueError("shuffled: buffer must be at least 1")
            view = self._view(self._order)
            view._buffer = (seed, int(buffer))
            return view
        import numpy

        order = self._numbers()
        permutation = numpy.random.default_rng(seed).permutation(len(order))
        return self._view(numpy.asarray(order)[permutation])

    def shard(self, rank, world_size, pad=False):
        """The records of one of ``world_size`` processes: positions
        ``rank, rank + world_size, ...`` (torch's DistributedSampler split;
        shares differ in length by at most one). ``pad=True``: every share
        as long as the longest, the first positions repeated to fill them,
        as DistributedSampler pads (so that no process waits for another's
        extra step)."""
        import numpy

        rank, world_size = int(rank), int(world_size)
        if world_size < 1 or not 0 <= rank < world_size:
            raise ValueError(f"shard({rank}, {world_size}): need 0 <= rank < world_size")
        numbers = numpy.asarray(self._numbers())
        if pad and len(numbers):
            total = -(-len(numbers) // world_size) * world_size
            numbers = numpy.resize(numbers, total)  # repeats from the start
        return self._view(numbers[rank::world_size])

    def iterable(self):
        """This dataset as a ``torch.utils.data.IterableDataset``: under
        ``DataLoader(num_workers=N)`` each worker reads its own contiguous
        share, each record once. Needs torch."""
        return _torch_iterable()(self)

    def batch(self, n, drop_remainder=False, arrow=False):
        """An iterable of batches of ``n`` records: with a spec a dict name
        -> stacked values (FixedLen: an array of shape ``(n, *shape)``;
        VarLen: a list of arrays), as stored a dict name -> the list of
        each record's value (None where missing); ``raw=True`` a list of
        payloads; ``arrow=True`` a ``pyarrow.RecordBatch``."""
        return _Batches(self, int(n), drop_remainder, arrow)

    def save_index(self, folder=None):
        """Writes ``NAME.idx`` (``tfr index``'s format) for each plain
        input whose index was built here; the paths written."""
        return self._native.save_index(None if folder is None else os.fspath(folder))

    def locate(self, i):
        """Where record ``i`` is: ``(file, number in the file, byte offset)``."""
        return self._native.locate(self._number(i))

    @property
    def spec(self):
        """The parse spec in use (a list of ``(name, kind, shape, dtype,
        default)``), or ``None``."""
        return self._native.spec()

    def __repr__(self):
        return f"TFRecordDataset({self._args['paths']!r}, {len(self)} records)"


_TORCH_ITERABLE = None


def _torch_iterable():
    """``_TorchIterable``, the class made once torch is there (module-level,
    so that its instances pickle into spawned workers)."""
    global _TORCH_ITERABLE
    if _TORCH_ITERABLE is None:
        from torch.utils.data import IterableDataset

        class _TorchIterable(IterableDataset):
            def __init__(self, source):
                self.source = source

            def __iter__(self):
                return iter(self.source)

            def __len__(self):
                return len(self.source)

        _TorchIterable.__module__ = __name__
        _TorchIterable.__qualname__ = "_TorchIterable"
        _TORCH_ITERABLE = _TorchIterable
    return _TORCH_ITERABLE


def __getattr__(name):
    # Unpickling a `_TorchIterable` in a fresh process finds its class here.
    if name == "_TorchIterable":
        return _torch_iterable()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _worker_share(n):
    """The positions a PyTorch DataLoader worker reads of ``n`` (all, in
    the main process): contiguous shares, each position in exactly one."""
    import sys

    torch_data = sys.modules.get("torch.utils.data")
    info = torch_data.get_worker_info() if torch_data is not None else None
    if info is None:
        return 0, n
    k, workers = info.id, info.num_workers
    return n * k // workers, n * (k + 1) // workers


class _Batches:
    def __init__(self, ds, n, drop_remainder, arrow):
        if n < 1:
            raise ValueError("batch: n must be at least 1")
        self.ds, self.n, self.drop, self.arrow = ds, n, drop_remainder, arrow

    def __len__(self):
        whole, rest = divmod(len(self.ds), self.n)
        return whole + (0 if self.drop or not rest else 1)

    def __iter__(self):
        ds, n = self.ds, self.n
        start, stop = _worker_share(len(ds))
        if ds._buffer is not None:
            yield from self._grouped(iter(ds))
            return
        native = ds._native
        for lo in range(start, stop, n):
            hi = min(lo + n, stop)
            if hi - lo < n and self.drop:
                return
            if ds._order is None:
                batch = native.batch_range(lo, hi)
            else:
                batch = native.batch([int(i) for i in ds._order[lo:hi]])
            yield self._finish(batch)

    def _grouped(self, records):
        group = []
        for record in records:
            group.append(record)
            if len(group) == self.n:
                yield self._finish(group)
                group = []
        if group and not self.drop:
            yield self._finish(group)

    def _finish(self, batch):
        if isinstance(batch, list) and batch and isinstance(batch[0], dict):
            batch = _stack(batch)
        if self.arrow:
            return _to_arrow(batch, self.ds._args["spec"] if isinstance(self.ds._args["spec"], list) else None)
        return batch


def _stack(records):
    """Records as stored → a dict name -> the list of each record's value
    (None where a record lacks the feature). Never stacked: lengths as
    stored may differ from batch to batch (a spec stacks)."""
    names = {}
    for r in records:
        for k in r:
            names.setdefault(k, None)
    return {name: [r.get(name) for r in records] for name in names}


_ARROW_NUMERIC = {"int64": "int64", "float32": "float32"}


def _to_arrow(batch, spec=None):
    """A batch dict (or list of payloads) as a ``pyarrow.RecordBatch``.
    With a spec its schema is the spec's in every batch: a FixedLen number
    of shape ``[]`` a column of that type, of another shape a fixed-size
    list of its values (flattened; a list where the shape holds none), a
    VarLen a list, strings binary. As stored, each feature a list of its
    values (types as found)."""
    import pyarrow as pa

    if isinstance(batch, list):
        return pa.RecordBatch.from_arrays([pa.array(batch, pa.binary())], ["payload"])
    kinds = {name: (kind, shape, dtype) for name, kind, shape, dtype, _ in (spec or [])}
    columns = []
    for name, value in batch.items():
        kind, shape, dtype = kinds.get(name, ("var", [], None))
        columns.append(_arrow_column(value, kind, shape, dtype))
    return pa.RecordBatch.from_arrays(columns, list(batch))


def _arrow_column(value, kind, shape, dtype):
    import numpy
    import pyarrow as pa

    if dtype in _ARROW_NUMERIC:
        item = getattr(pa, _ARROW_NUMERIC[dtype])()
    elif dtype is not None:
        item = pa.binary()
    else:
        item = None
    if kind == "fixed" and item is not None and item != pa.binary():
        n = len(value)
        flat = pa.array(numpy.ascontiguousarray(value).reshape(-1), item)
        if not shape:
            return flat
        width = int(numpy.prod(shape))
        if width > 0:
            return pa.FixedSizeListArray.from_arrays(flat, width)
        return pa.ListArray.from_arrays(pa.array(numpy.zeros(n + 1, numpy.int32)), flat)
    if kind == "fixed" and not shape:
        return pa.array(value, pa.binary())
    return _arrow_rows(value, item)


def _arrow_rows(rows, item=None):
    """One value per record (arrays, lists of bytes, object arrays, None) as
    a list column: numbers of their own dtype (``item``, else found)."""
    import numpy
    import pyarrow as pa

    present = [r for r in rows if r is not None]
    numeric = all(isinstance(r, numpy.ndarray) and r.dtype != object for r in present)
    if (item is not None and item != pa.binary()) or (item is None and present and numeric):
        lengths = [0 if r is None else r.size for r in rows]
        offsets = numpy.concatenate([[0], numpy.cumsum(lengths)]).astype(numpy.int32)
        parts = [numpy.asarray(r).reshape(-1) for r in present]
        values = numpy.concatenate(parts) if parts else numpy.zeros(0)
        values = pa.array(values, item) if item is not None else pa.array(values)
        mask = pa.array([r is None for r in rows]) if len(present) < len(rows) else None
        return pa.ListArray.from_arrays(pa.array(offsets), values, mask=mask)
    out = [None if r is None else [bytes(v) for v in numpy.asarray(r, dtype=object).reshape(-1)] for r in rows]
    return pa.array(out, pa.list_(pa.binary()))

"""Ray Data reads TFRecord datasets through tfr, without TensorFlow.

>>> import ray, tfr_cli.ray
>>> ds = tfr_cli.ray.read_tfrecords("gs://bucket/train-*-of-*")
>>> ds.count()

The driver runs one ``tfr schema`` pass over the inputs, so every block
gets the same column types; each read task runs ``tfr to-arrow --part K/N``
on the node it lands on (tfr must be installed there: the tfr-cli
wheel, see README's Install) and yields the Arrow batches of its part of the inputs as
blocks. The parts are disjoint and cover the inputs exactly once (see
``tfr --help``, ``--part``). A failure of tfr (damage, an unreadable
object) ends the read with one :class:`TfrError` naming the file and the
record.
"""

import json
import os
import subprocess
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import pyarrow as pa
import pyarrow.ipc

from . import binary

__all__ = ["read_tfrecords", "TfrDatasource", "TfrError"]

#: Bytes of input per read task unless ``part_size`` says otherwise.
DEFAULT_PART_SIZE = 64 << 20

#: Arrow bytes gathered into one block before it is handed to Ray.
BLOCK_BYTES = 32 << 20


class TfrError(RuntimeError):
    """tfr failed: its one-line message (``tfr: FILE: record N at byte B:
    ...``) and its exit status."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def _run(args: List[str]) -> bytes:
    """Runs tfr, returning its stdout; its error line raised as TfrError."""
    done = subprocess.run([binary(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if done.returncode != 0:
        raise TfrError(_message(done.stderr, done.returncode), done.returncode)
    return done.stdout


def _message(stderr: bytes, code: int) -> str:
    """The error line, after the warnings before it (a misspelt where=
    warns before the error it causes)."""
    lines = [l for l in stderr.decode("utf-8", "replace").splitlines() if l.strip()]
    errors = [l for l in lines if not l.startswith("tfr: warning:")]
    warnings = [l for l in lines if l.startswith("tfr: warning:")]
    last = (errors or lines or ["tfr: exited with status %d" % code])[-1]
    return "; ".join([*[w for w in warnings if w != last], last])


def _paths(paths: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]]) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    # "-" is a file of that name here, not tfr's stdin.
    out = [os.path.join(".", "-") if os.fspath(p) == "-" else os.fspath(p) for p in paths]
    if not out:
        raise ValueError("read_tfrecords: no paths given")
    return out


def _selection(columns: Optional[Sequence[str]], where: Optional[str]) -> List[str]:
    args: List[str] = []
    if columns is not None:
        if isinstance(columns, str):
            columns = [columns]
        if not columns:
            raise ValueError("read_tfrecords: columns is empty (None reads every feature)")
        args += ["--features", ",".join(columns)]
    if where is not None:
        args += ["--where", where]
    return args


def _size(name: str) -> Optional[int]:
    """The size of a local input, or of an object (through pyarrow's file
    systems), if it can be found."""
    if "://" not in name:
        try:
            return os.stat(name).st_size
        except OSError:
            return None
    try:
        from pyarrow import fs

        filesystem, path = fs.FileSystem.from_uri(name)
        return filesystem.get_file_info(path).size
    except Exception:
        return None


class TfrDatasource:
    """The datasource behind :func:`read_tfrecords` (a
    ``ray.data.Datasource``; built lazily so that importing this module
    does not import Ray)."""

    def __new__(cls, *args, **kwargs):
        return _datasource_class()(*args, **kwargs)


_CLASS = None


def _datasource_class():
    global _CLASS
    if _CLASS is not None:
        return _CLASS
    from ray.data.block import BlockMetadata
    from ray.data.datasource import Datasource, ReadTask

    class _TfrDatasource(Datasource):
        def __init__(
            self,
            paths,
            *,
            columns: Optional[Sequence[str]] = None,
            where: Optional[str] = None,
            part_size: int = DEFAULT_PART_SIZE,
            jobs: int = 1,
            schema: Union[None, str, os.PathLike, bytes, dict] = None,
            extra_args: Sequence[str] = (),
            text: str = "string",
            order: str = "name",
        ):
            super().__init__()
            if part_size <= 0:
                raise ValueError("read_tfrecords: part_size must be positive (bytes per read task)")
            if text not in ("string", "binary"):
                raise ValueError("read_tfrecords: text must be 'string' or 'binary' (what Ray's own reader gives)")
            if order not in ("name", "input"):
                raise ValueError("read_tfrecords: order must be 'name' or 'input' (the first record's)")
            self._paths = _paths(paths)
            self._select = _selection(columns, where)
            self._jobs = max(1, int(jobs))
            self._extra = list(extra_args)
            self._part_size = int(part_size)
            # One schema pass on the driver (unless given): every part
            # converts with the same column types.
            if schema is None:
                self._schema_json = _run(["schema", "-q", "--format", "json", *self._select, *self._extra, "--", *self._paths])
            elif isinstance(schema, dict):
                self._schema_json = json.dumps(schema).encode()
            elif isinstance(schema, bytes):
                self._schema_json = schema
            else:
                with open(schema, "rb") as f:
                    self._schema_json = f.read()
            doc = json.loads(self._schema_json)
            inputs = doc.get("inputs", [])
            sizes = [_size(i.get("file", "")) for i in inputs]
            records = [int(i.get("records", 0)) for i in inputs]
            known = [(s, r) for s, r in zip(sizes, records) if s is not None]
            per_record = (sum(s for s, _ in known) / max(1, sum(r for _, r in known))) if known else 1024
            # A given schema may describe other files (a sample): the parts
            # then follow Ray's parallelism.
            self._bytes = int(sum(s if s is not None else r * per_record for s, r in zip(sizes, records)))
            if schema is not None:
                self._bytes = 0
            self._records = sum(records)
            self._arrow_schema = _adapted(self._empty_schema(), text, self._first_names() if order == "input" else None)

        def _empty_schema(self) -> pa.Schema:
            with tempfile.TemporaryDirectory(prefix="tfr-ray-") as tmp:
                path = os.path.join(tmp, "schema.json")
                with open(path, "wb") as f:
                    f.write(self._schema_json)
                stream = _run(["to-arrow", "-q", "--schema", path, "-n", "0", *self._select, *self._extra, "-o", "-", "--", *self._paths])
            return pa.ipc.open_stream(pa.BufferReader(stream)).schema

        def _first_names(self) -> List[str]:
            """The features of the first record, in its order (an
            Example's; none for other messages)."""
            line = _run(["head", "-q", "-n", "1", "--format", "json", *self._select, *self._extra, "--", *self._paths])
            try:
                first = json.loads(line or b"{}")
            except ValueError:
                return []
            return list(first) if isinstance(first, dict) else []

        def estimate_inmemory_data_size(self) -> Optional[int]:
            return self._bytes or None

        def get_read_tasks(self, parallelism: int, per_task_row_limit=None, data_context=None) -> List[Any]:
            wanted = -(-self._bytes // self._part_size) if self._bytes else parallelism
            n = max(1, min(max(1, parallelism), wanted))
            tasks = []
            for k in range(n):
                meta = BlockMetadata(
                    num_rows=None,
                    size_bytes=self._bytes // n,
                    input_files=None,
                    exec_stats=None,
                )
                args = [
                    "to-arrow",
                    "-q",
                    "-j",
                    str(self._jobs),
                    "--part",
                    "%d/%d" % (k, n),
                    *self._select,
                    *self._extra,
                    "-o",
                    "-",
                    # Paths after "--": a file named like an option
                    # ("--where=...", "-n") is still a path.
                    "--",
                    *self._paths,
                ]
                read = _reader(args, self._schema_json, self._arrow_schema)
                try:
                    task = ReadTask(read, meta, schema=self._arrow_schema, per_task_row_limit=per_task_row_limit)
                except TypeError:  # older Ray: no per-task row limit
                    task = ReadTask(read, meta)
                tasks.append(task)
            return tasks

        def get_name(self) -> str:
            return "ReadTFRecordsWithTfr"

    _CLASS = _TfrDatasource
    return _CLASS


def _adapted(schema: pa.Schema, text: str, first: Optional[List[str]]) -> pa.Schema:
    """The schema the blocks are given: text columns as binary when
    ``text="binary"``; with the first record's names, its columns in that
    order, then the others by name."""

    def retyped(t: pa.DataType) -> pa.DataType:
        if text != "binary":
            return t
        if pa.types.is_string(t):
            return pa.binary()
        if pa.types.is_large_string(t):
            return pa.large_binary()
        if pa.types.is_list(t):
            return pa.list_(retyped(t.value_type))
        if pa.types.is_large_list(t):
            return pa.large_list(retyped(t.value_type))
        if pa.types.is_fixed_size_list(t):
            return pa.list_(retyped(t.value_type), t.list_size)
        return t

    fields = [f.with_type(retyped(f.type)) for f in schema]
    if first:
        rank = {name: k for k, name in enumerate(first)}
        fields.sort(key=lambda f: (rank.get(f.name, len(rank)), f.name))
    return pa.schema(fields, metadata=schema.metadata)


def _reader(args: List[str], schema_json: bytes, target: pa.Schema):
    """A read task's body: tfr to-arrow on this node, its batches as blocks
    (of the ``target`` schema: columns ordered and text retyped)."""

    def read() -> Iterable[pa.Table]:
        with tempfile.TemporaryDirectory(prefix="tfr-ray-") as tmp:
            schema = os.path.join(tmp, "schema.json")
            with open(schema, "wb") as f:
                f.write(schema_json)
            errors = open(os.path.join(tmp, "stderr"), "w+b")
            command = [binary(), args[0], "--schema", schema, *args[1:]]
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors)
            try:
                try:
                    stream = pa.ipc.open_stream(proc.stdout)
                    pending, size = [], 0
                    for batch in stream:
                        pending.append(batch)
                        size += batch.nbytes
                        if size >= BLOCK_BYTES:
                            yield _block(pending, stream.schema, target)
                            pending, size = [], 0
                    if pending:
                        yield _block(pending, stream.schema, target)
                except pa.ArrowInvalid:
                    # The stream ended early: tfr's message says why.
                    if proc.wait() == 0:
                        raise
                code = proc.wait()
                if code != 0:
                    errors.seek(0)
                    raise TfrError(_message(errors.read(), code), code)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                proc.stdout.close()
                errors.close()

    return read


def _block(batches: List[pa.RecordBatch], schema: pa.Schema, target: pa.Schema) -> pa.Table:
    table = pa.Table.from_batches(batches, schema=schema)
    if table.schema.equals(target):
        return table
    return table.select(target.names).cast(target)


def read_tfrecords(
    paths: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
    *,
    columns: Optional[Sequence[str]] = None,
    where: Optional[str] = None,
    part_size: int = DEFAULT_PART_SIZE,
    jobs: int = 1,
    schema: Union[None, str, os.PathLike, bytes, dict] = None,
    override_num_blocks: Optional[int] = None,
    ray_remote_args: Optional[Dict[str, Any]] = None,
    text: str = "string",
    order: str = "name",
):
    """A ``ray.data.Dataset`` of the records of TFRecord files, one column
    per feature, typed by one ``tfr schema`` pass (a feature with one value
    in every record is a plain column, else a list column; missing values
    are null).

    ``paths``: files, quoted globs, directories, or object-store URLs
    (``gs://``, ``s3://``, ``az://``; credentials from the environment, as
    for the tfr command). ``columns``: only these features (names or
    globs). ``where``: only the records matching a ``--where`` expression
    (``"label == 1"``). ``part_size``: bytes of input per read task (the
    inputs are divided with ``tfr --part``; at most ``override_num_blocks``
    parts when given, else Ray's parallelism). ``jobs``: threads of each
    task's tfr (give ``ray_remote_args={"num_cpus": jobs}`` with it).
    ``schema``: the column types from ``tfr schema --format json`` output
    (a path, its bytes, or the parsed dict) instead of a pass over every
    record on the driver (for datasets too large to scan twice; then the
    number of read tasks is ``override_num_blocks`` or Ray's parallelism).
    ``text``: ``"string"`` (bytes features that are UTF-8 text in every
    record are string columns) or ``"binary"`` (every bytes feature is a
    binary column, as ``ray.data.read_tfrecords`` gives them). ``order``:
    ``"name"`` (columns sorted by name) or ``"input"`` (the first record's
    features in the order they were written, then the others by name).
    With ``text="binary"`` the columns and their types are those of
    ``ray.data.read_tfrecords`` (whose column order follows Python
    protobuf's iteration of a feature map, which is not defined).
    """
    import ray.data

    source = TfrDatasource(
        paths, columns=columns, where=where, part_size=part_size, jobs=jobs, schema=schema, text=text, order=order
    )
    kwargs: Dict[str, Any] = {}
    if override_num_blocks is not None:
        kwargs["override_num_blocks"] = override_num_blocks
    if ray_remote_args is not None:
        kwargs["ray_remote_args"] = ray_remote_args
    return ray.data.read_datasource(source, **kwargs)

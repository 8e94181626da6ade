#!/usr/bin/env python3
"""tfr benchmark harness (issue 6): tfr beside its anchors, limits and peers.

Run from anywhere (Python 3.11+, stdlib only; needs cargo, dd, zcat):

    python3 bench/run.py                 # full run: 3 repetitions, median
    python3 bench/run.py --quick         # 1 repetition (a few minutes less)
    python3 bench/run.py --json out.json # also write the results as JSON
    python3 bench/run.py --data DIR      # data directory (default: bench-data/)
    python3 bench/run.py --only count    # only rows whose key matches a regex

It builds tfr (cargo build --release) and the limit loops in bench/limits/,
makes the benchmark data deterministically in bench-data/ (reused when its
checksums match), warms the page cache, and runs every tfr command that
`tfr --help` lists, next to: dd and zcat (anchors), minimal single-threaded
Rust loops (limits), and -- when /work/main/.venv-tf (or --venv) exists --
TensorFlow's Python loop and the `tfrecord` PyPI reader (peers). Each
command runs once to warm up, then N times; the table shows the median wall
time, throughput, ratio to its anchor, speed-up over TensorFlow, peak RSS of
the child process (getrusage via a tiny launcher), CPU use, and the product.md target with
met / NOT MET. See bench/README.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMITS_DIR = ROOT / "bench" / "limits"
LIMITS_BIN = LIMITS_DIR / "target" / "release" / "tfr-bench-limits"

NOTEBOOK_RECORDS = 1_000_000
SHARDS = 64
IMAGE_RECORDS = 2_000
TFDS_RECORDS = 20_000
EVENTS = 1_000_000
VIEW_RECORDS = 100_000
HERE = ROOT / "bench"
GEN_VERSION = 1

# sha256 of what `tfr-bench-limits gen` + zlib level 6 produce (GEN_VERSION 1).
# A mismatch is only a warning (e.g. a zlib-ng build of Python's zlib gives
# other gzip bytes) but then timings are not comparable to older runs.
EXPECTED_SHA256 = {
    "notebook.tfrecord": "4259fc66cf0099c7df649391e127ecb259f684da940e4eeb6031b38206c44658",
    "notebook.tfrecord.gz": "9d2007f05bd98d3699c2733e641b69843927c4887cd89de4b860c78e29ede463",
    "notebook.jsonl": "ac78f7881caa28eb99645df84be80916ac9bfd64faa4931bbd033340deeac4d2",
    "images.tfrecord": "249232e32cf2e719c03dfe46296f4444d2e52206c35c77ebc7a83a94009345ae",
}

RSS_TARGET_MB = 20.0


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------- data


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while b := f.read(1 << 20):
            h.update(b)
    return h.hexdigest()


def data_files(d: Path) -> list[Path]:
    shards = [d / "shards" / f"notebook-{i:05}-of-{SHARDS:05}.tfrecord" for i in range(SHARDS)]
    return [d / "notebook.tfrecord", d / "notebook.tfrecord.gz", d / "notebook.jsonl", d / "images.tfrecord", *shards]


def ensure_data(d: Path) -> dict:
    """Make (or reuse) the benchmark data; also warms the page cache."""
    manifest_path = d / "manifest.json"
    files = data_files(d)
    if manifest_path.exists():
        try:
            m = json.loads(manifest_path.read_text())
            if m.get("version") == GEN_VERSION and all(
                m["files"].get(str(p.relative_to(d)), {}).get("size") == p.stat().st_size for p in files
            ):
                t = time.perf_counter()
                # Hashing reads every byte: a correctness check and a cache warm-up.
                if all(sha256(p) == m["files"][str(p.relative_to(d))]["sha256"] for p in files):
                    log(f"data: reusing {d} (checksums verified in {time.perf_counter() - t:.1f} s)")
                    return m
            log("data: manifest does not match, regenerating")
        except (OSError, KeyError, ValueError):
            log("data: unreadable manifest, regenerating")

    t0 = time.perf_counter()
    d.mkdir(parents=True, exist_ok=True)
    run_checked([str(LIMITS_BIN), "gen", str(d)])
    log(f"data: generated records in {time.perf_counter() - t0:.1f} s")
    # gzip with Python's zlib at level 6 (TF writes gzip with zlib's default level).
    t = time.perf_counter()
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    with open(d / "notebook.tfrecord", "rb") as src, open(d / "notebook.tfrecord.gz.tmp", "wb") as dst:
        while b := src.read(1 << 20):
            dst.write(c.compress(b))
        dst.write(c.flush())
    os.replace(d / "notebook.tfrecord.gz.tmp", d / "notebook.tfrecord.gz")
    log(f"data: gzip in {time.perf_counter() - t:.1f} s")
    m = {
        "version": GEN_VERSION,
        "generator": "bench/limits `gen` (SplitMix64, Irwin-Hall randn) + zlib level 6",
        "files": {str(p.relative_to(d)): {"size": p.stat().st_size, "sha256": sha256(p)} for p in files},
    }
    for name, want in EXPECTED_SHA256.items():
        got = m["files"][name]["sha256"]
        if want and got != want:
            log(f"data: WARNING {name} sha256 {got[:16]}… differs from the reference {want[:16]}…")
    manifest_path.write_text(json.dumps(m, indent=1) + "\n")
    log(f"data: ready in {time.perf_counter() - t0:.1f} s")
    return m


GZ_SHARDS = 8


def ensure_gz_shards(d: Path) -> Path:
    """8 gzip shards, each 8 of the 64 plain shards end to end (zlib level 6):
    the same 1M records as notebook.tfrecord.gz, for reading several
    compressed inputs at once. Derived from the shards, so not in the manifest."""
    out = d / "gzshards"
    names = [out / f"notebook-{g:05}-of-{GZ_SHARDS:05}.tfrecord.gz" for g in range(GZ_SHARDS)]
    if all(p.exists() for p in names):
        for p in names:
            p.read_bytes()  # warm the page cache
        return out
    t = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    per = SHARDS // GZ_SHARDS
    for g, name in enumerate(names):
        c = zlib.compressobj(6, zlib.DEFLATED, 31)
        with open(name.with_suffix(".tmp"), "wb") as dst:
            for i in range(g * per, (g + 1) * per):
                dst.write(c.compress((d / "shards" / f"notebook-{i:05}-of-{SHARDS:05}.tfrecord").read_bytes()))
            dst.write(c.flush())
        os.replace(name.with_suffix(".tmp"), name)
    log(f"data: {GZ_SHARDS} gzip shards in {time.perf_counter() - t:.1f} s")
    return out


# ------------------------------------------------------------------ running


def run_checked(argv, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        log(f"command failed ({r.returncode}): {' '.join(map(str, argv))}\n{r.stdout}{r.stderr}")
        sys.exit(2)
    return r.stdout


@dataclasses.dataclass
class Target:
    max_s: float | None = None
    max_ratio: float | None = None  # × the anchor's median
    min_rps: float | None = None  # records/s
    min_gbps: float | None = None  # GB/s over `bytes`
    max_rss_mb: float | None = RSS_TARGET_MB

    def text(self, anchor_name: str | None) -> str:
        parts = []
        if self.max_ratio is not None:
            parts.append(f"≤{self.max_ratio:g}× {anchor_name}")
        if self.max_s is not None:
            parts.append(f"≤{self.max_s:g} s")
        if self.min_rps is not None:
            parts.append(f"≥{self.min_rps / 1e6:g}M rec/s")
        if self.min_gbps is not None:
            parts.append(f"≥{self.min_gbps:g} GB/s")
        if self.max_rss_mb is not None:
            parts.append(f"RSS≤{self.max_rss_mb:g}MB")
        return ", ".join(parts)


@dataclasses.dataclass
class Case:
    key: str  # unique id, e.g. "tfr.count.notebook"
    kind: str  # tfr | anchor | limit | peer
    cmd: str  # shown in the table
    input: str  # shown in the table
    argv: list
    records: int
    bytes: int  # for MB/s: the uncompressed TFRecord stream, or the JSONL text
    anchor: str | None = None  # key of the anchor/limit row the ratio is taken to
    tf: str | None = None  # key of the TensorFlow row the speed-up is taken to
    target: Target | None = None
    check: object = None  # callable(stdout_path, out_path) -> note or raises AssertionError
    out_file: Path | None = None  # a file the command writes (removed after each run)
    scale: float = 1.0  # peers on a slice: internal time × scale
    note: str = ""
    reps: int | None = None  # repetitions for this row (default: --reps)
    # results
    times: list = dataclasses.field(default_factory=list)
    rss_mb: float | None = None
    cpu: float | None = None
    error: str | None = None

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None


# Rows whose command times itself and prints {"records", "seconds"} (a
# Python loop without the interpreter's start and imports): the peers, and
# the Python reader tfr_cli.TFRecordDataset ("reader").
TIMED_INSIDE = ("peer", "reader")


def run_once(case: Case, capture: bool, tmp: Path) -> tuple[float, float, float, str]:
    """One run: (seconds, peak RSS MB, cpu seconds, stdout path or '')."""
    out_path = tmp / "stdout" if (capture or case.kind in TIMED_INSIDE) else None
    err_path = tmp / "stderr"
    res_path = tmp / "rusage"
    with open(out_path or os.devnull, "wb") as out, open(err_path, "wb") as err:
        # Through the small launcher: Linux keeps ru_maxrss across execve, so a
        # child forked straight from this Python process would report >= our RSS.
        p = subprocess.run([str(LIMITS_BIN), "spawn", str(res_path), *map(str, case.argv)],
                           stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=ENV)
    wall, maxrss_kb, utime, stime, code = res_path.read_text().split()
    wall, cpu, code = float(wall), float(utime) + float(stime), int(code)
    if code != 0 or p.returncode != 0:
        msg = err_path.read_text(errors="replace").strip().splitlines()
        raise RuntimeError(f"exit {code}: {msg[-1] if msg else ''}"[:200])
    if case.kind in TIMED_INSIDE:
        res = json.loads(Path(out_path).read_text().strip().splitlines()[-1])
        scale = res.get("scale", case.scale)  # a peer that chose its slice itself says so
        if res["records"] * scale != case.records:
            raise RuntimeError(f"peer read {res['records']} records")
        wall = res["seconds"] * scale
        if res.get("note") and res["note"] not in case.note:
            case.note = "; ".join(x for x in (case.note, res["note"]) if x)
    return wall, int(maxrss_kb) / 1024.0, cpu, str(out_path or "")


def run_case(case: Case, reps: int, warmup: bool, tmp: Path):
    shown = [("<script>" if "\n" in str(x) else str(x)) for x in case.argv]
    log(f"  {case.key:<26} {' '.join(shown)[:120]}")
    rss, cpus, walls = [], [], []
    try:
        # The first run warms up and, for rows with a check, captures stdout.
        runs = ([True] if warmup or case.check else []) + [False] * (case.reps or reps)
        for i, is_warm in enumerate(runs):
            capture = is_warm and case.check is not None
            wall, r, cpu, out = run_once(case, capture, tmp)
            if capture:
                note = case.check(out, case.out_file)
                if note:
                    case.note = "; ".join(x for x in (case.note, note) if x)
            if case.out_file and case.out_file.exists():
                case.out_file.unlink()
            if is_warm and warmup:
                continue
            walls.append(wall)
            rss.append(r)
            cpus.append(cpu)
    except (RuntimeError, AssertionError, OSError, ValueError, KeyError) as e:
        case.error = str(e) or type(e).__name__
        log(f"    FAILED: {case.error}")
        return
    case.times = walls
    case.rss_mb = max(rss)
    case.cpu = statistics.median(c / w for c, w in zip(cpus, walls)) if case.kind not in TIMED_INSIDE else None


# -------------------------------------------------------------------- checks


def expect_stdout(text: str):
    def check(out, _):
        got = Path(out).read_text().strip()
        assert got == text, f"stdout {got[:60]!r}, expected {text!r}"

    return check


def expect_in_stdout(text: str):
    def check(out, _):
        got = Path(out).read_text()
        assert text in got, f"{text!r} not in stdout"

    return check


def same_as(ref: Path, what: str):
    def check(out, out_file):
        f = Path(out_file or out)
        if f.stat().st_size == ref.stat().st_size and sha256(f) == sha256(ref):
            return f"{what}: byte-identical to {ref.name}"
        return f"{what}: DIFFERS from {ref.name} ({f.stat().st_size} vs {ref.stat().st_size} bytes)"

    return check


def same_size_as(ref: Path):
    """A shuffle's output: the same records (so the same size), in another order."""
    def check(out, out_file):
        f = Path(out_file)
        assert f.stat().st_size == ref.stat().st_size, f"{f.stat().st_size} bytes, not {ref.stat().st_size}"
        assert sha256(f) != sha256(ref), "output in input order"
        return f"output: {ref.name}'s size, another order"

    return check


def nonempty(out, _):
    assert Path(out).stat().st_size > 0, "empty stdout"


# ----------------------------------------------------------------- the cases

PEER_COUNT_TF = """
import json, sys, time
import tensorflow as tf
path, limit = sys.argv[1], int(sys.argv[2])
for _ in tf.data.TFRecordDataset(path).take(WARMUP):  # untimed: first-iteration setup
    pass
t = time.perf_counter()
ds = tf.data.TFRecordDataset(path)
if limit:
    ds = ds.take(limit)
n = 0
for _ in ds:
    n += 1
print(json.dumps({"records": n, "seconds": time.perf_counter() - t}))
"""

PEER_JSON_TF = """
import json, os, sys, time
import tensorflow as tf
from google.protobuf import json_format
path, limit = sys.argv[1], int(sys.argv[2])
out = open(os.devnull, "w")
for _ in tf.data.TFRecordDataset(path).take(WARMUP):  # untimed: first-iteration setup
    pass
t = time.perf_counter()
ds = tf.data.TFRecordDataset(path)
if limit:
    ds = ds.take(limit)
n = 0
for r in ds:
    ex = tf.train.Example.FromString(r.numpy())
    out.write(json.dumps(json_format.MessageToDict(ex)) + "\\n")
    n += 1
print(json.dumps({"records": n, "seconds": time.perf_counter() - t}))
"""

PEER_COUNT_PYPI = """
import json, sys, time
from tfrecord.reader import tfrecord_loader
path, limit = sys.argv[1], int(sys.argv[2])
for i, _ in enumerate(tfrecord_loader(path, None)):  # untimed warm-up
    if i == WARMUP:
        break
t = time.perf_counter()
n = 0
for _ in tfrecord_loader(path, None):
    n += 1
    if n == limit:
        break
print(json.dumps({"records": n, "seconds": time.perf_counter() - t}))
"""


# TFDV's generate_statistics_from_tfrecord (a Beam pipeline, DirectRunner). It
# first runs on the PREFIX file (100k records; also the warm-up: imports, Beam);
# if the whole file would take longer than BUDGET seconds at that pace, that
# run is the result, scaled; else it runs on the whole file.
PEER_STATS_TFDV = """
import json, logging, os, sys, tempfile, time, warnings
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)
import tensorflow_data_validation as tfdv
full, prefix, n_full, n_prefix, budget = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
out = tempfile.mkdtemp()
def run(path, name):
    t = time.perf_counter()
    s = tfdv.generate_statistics_from_tfrecord(path, output_path=os.path.join(out, name))
    return s.datasets[0].num_examples, time.perf_counter() - t
n, secs = run(prefix, "prefix.stats")
if secs * n_full / n_prefix > budget:
    print(json.dumps({"records": n, "seconds": secs, "scale": n_full / n_prefix,
                      "note": "TFDV ran on the first %dk records, time ×%g (1M estimated at %.0f s)"
                      % (n_prefix // 1000, n_full / n_prefix, secs * n_full / n_prefix)}))
else:
    n, secs = run(full, "full.stats")
    print(json.dumps({"records": n, "seconds": secs, "scale": 1.0,
                      "note": "TFDV on all 1M records, 1 run after a 100k-record warm-up run"}))
"""


def record_prefix(src: Path, dst: Path, n: int) -> Path:
    """The first n records of a plain TFRecord file (framing read here: 8-byte
    length, 4-byte CRC, payload, 4-byte CRC). Derived data, not in the manifest."""
    if dst.exists():
        return dst
    with open(src, "rb") as f, open(dst.with_suffix(".tmp"), "wb") as out:
        for _ in range(n):
            head = f.read(12)
            if len(head) < 12:
                break
            length = int.from_bytes(head[:8], "little")
            out.write(head + f.read(length + 4))
    os.replace(dst.with_suffix(".tmp"), dst)
    return dst


def tfr_commands(tfr: Path) -> set[str]:
    out = run_checked([str(tfr), "--help"])
    m = re.search(r"^Commands:\n(.*?)(?:\n\n|\Z)", out, re.S | re.M)
    return {line.split()[0] for line in (m.group(1).splitlines() if m else []) if line.strip()} - {"help"}


HTTP_SERVERS: list = []


def start_http_server(d: Path, tmp: Path) -> int:
    """tests/oracle/objstore.py's HTTP server on `d`; its port. Stopped by
    stop_http_servers() (by PID) when the run ends."""
    p = subprocess.Popen([sys.executable, str(ROOT / "tests" / "oracle" / "objstore.py"), "http", str(d), str(tmp / "http-sent")],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    HTTP_SERVERS.append(p)
    return int(p.stdout.readline().strip())


def stop_http_servers():
    for p in HTTP_SERVERS:
        p.kill()
        p.wait()


def build_cases(d: Path, tfr: Path, cmds: set[str], venv_py: Path | None, peer_slice: int, tmp: Path,
                tfdv_py: Path | None = None, tfdv_budget: float = 300.0, reader_py: Path | None = None) -> list[Case]:
    nb, gz, js, img = d / "notebook.tfrecord", d / "notebook.tfrecord.gz", d / "notebook.jsonl", d / "images.tfrecord"
    shard_glob = str(d / "shards" / "notebook-*-of-*.tfrecord")
    gz_glob = str(ensure_gz_shards(d) / "notebook-*-of-*.tfrecord.gz")
    nb_b, js_b, img_b = nb.stat().st_size, js.stat().st_size, img.stat().st_size
    N, I = NOTEBOOK_RECORDS, IMAGE_RECORDS
    L = str(LIMITS_BIN)
    T = str(tfr)
    cases: list[Case] = []
    add = cases.append

    # Anchors and limits.
    add(Case("dd.notebook", "anchor", "dd bs=1M", "notebook 1M", ["dd", f"if={nb}", "of=/dev/null", "bs=1M", "status=none"], N, nb_b))
    add(Case("dd.images", "anchor", "dd bs=1M", "images 2k", ["dd", f"if={img}", "of=/dev/null", "bs=1M", "status=none"], I, img_b))
    add(Case("zcat.gz", "anchor", "zcat", "notebook.gz", ["zcat", str(gz)], N, nb_b))
    add(Case("limit.walk.notebook", "limit", "limit: header walk", "notebook 1M", [L, "walk", str(nb)], N, nb_b,
             check=expect_stdout(f"{N} {nb_b - 16 * N}")))
    add(Case("limit.walk.images", "limit", "limit: header walk", "images 2k", [L, "walk", str(img)], I, img_b))
    add(Case("limit.crc.images", "limit", "limit: both CRCs", "images 2k", [L, "crc", str(img)], I, img_b))
    add(Case("limit.crc.notebook", "limit", "limit: both CRCs", "notebook 1M", [L, "crc", str(nb)], N, nb_b))
    add(Case("limit.inflate.gz", "limit", "limit: inflate (zlib-rs)", "notebook.gz", [L, "inflate", str(gz)], N, nb_b,
             check=expect_stdout(f"0 {nb_b}")))
    add(Case("limit.jsonl.notebook", "limit", "limit: Example→JSONL", "notebook 1M", [L, "jsonl", str(nb)], N, nb_b,
             check=same_as(js, "output")))
    add(Case("limit.jsonl.images", "limit", "limit: Example→JSONL", "images 2k", [L, "jsonl", str(img)], I, img_b))
    add(Case("limit.unjsonl.notebook", "limit", "limit: JSONL→records", "notebook.jsonl", [L, "unjsonl", str(js), str(tmp / "limit.tfrecord")],
             N, js_b, out_file=tmp / "limit.tfrecord", note="serde_json Value: keys come out sorted"))

    # tfr.
    def tfr_case(key, sub, inp, args, records, nbytes, anchor=None, tf=None, target=None, check=None, out_file=None, note="", flags=""):
        if sub in cmds:
            add(Case(key, "tfr", f"tfr {sub}{flags}", inp, [T, sub, *args], records, nbytes, anchor, tf, target or Target(), check, out_file, note=note))

    tfr_case("tfr.count.notebook", "count", "notebook 1M", [str(nb)], N, nb_b, "limit.walk.notebook", "tf.count.notebook",
             Target(max_s=0.04), expect_stdout(str(N)))
    tfr_case("tfr.count.notebook.j1", "count", "notebook 1M", ["-j", "1", str(nb)], N, nb_b, "limit.walk.notebook", None,
             Target(), expect_stdout(str(N)), flags=" -j 1")
    tfr_case("tfr.count.gz", "count", "notebook.gz", [str(gz)], N, nb_b, "limit.inflate.gz", None,
             Target(max_ratio=1.5, max_s=0.08), expect_stdout(str(N)))
    tfr_case("tfr.count.shards", "count", "64 shards (glob)", [shard_glob], N, nb_b, "limit.walk.notebook", None,
             Target(), expect_in_stdout(str(N)))
    tfr_case("tfr.count.gzshards", "count", "8 gzip shards", [gz_glob], N, nb_b, "limit.inflate.gz", None,
             Target(), expect_in_stdout(str(N)), note="all cores: ratio < 1 is the parallel gain")
    tfr_case("tfr.count.images", "count", "images 2k", [str(img)], I, img_b, "limit.walk.images", "tf.count.images",
             Target(), expect_stdout(str(I)))
    tfr_case("tfr.verify.images", "verify-crc", "images 2k", [str(img)], I, img_b, "limit.crc.images", "tf.count.images",
             Target(min_gbps=5))
    # ≥ 5 GB/s is the large-record file's target: product.md measures the
    # limit it is close to there (both CRCs over the 204 MB file, 7.9 GB/s).
    # On 100-byte records product.md's own limit for walking the headers
    # alone is 0.025 s for the 1M file (4 GB/s), so 5 GB/s over both CRCs
    # is past the limit; the target there is both cores at the limit: at
    # most 0.6× the single-threaded both-CRCs loop (two cores at it: 0.5×).
    tfr_case("tfr.verify.notebook", "verify-crc", "notebook 1M", [str(nb)], N, nb_b, "limit.crc.notebook", "tf.count.notebook",
             Target(max_ratio=0.6), note="target: both cores at the limit (≤ 0.6× the one-thread CRC loop); 5 GB/s is the large-record anchor's")
    tfr_case("tfr.verify.notebook.j1", "verify-crc", "notebook 1M", ["-j", "1", str(nb)], N, nb_b, "limit.crc.notebook", None,
             Target(), flags=" -j 1")
    tfr_case("tfr.verify.images.j1", "verify-crc", "images 2k", ["-j", "1", str(img)], I, img_b, "limit.crc.images", None,
             Target(), flags=" -j 1")
    tfr_case("tfr.verify.gz", "verify-crc", "notebook.gz", [str(gz)], N, nb_b, "limit.inflate.gz", None,
             Target(max_ratio=1.5))
    tfr_case("tfr.verify.gzshards", "verify-crc", "8 gzip shards", [gz_glob], N, nb_b, "limit.inflate.gz", None,
             Target())
    tfr_case("tfr.cat.notebook", "cat", "notebook 1M", [str(nb)], N, nb_b, None, None, Target(), nonempty)
    tfr_case("tfr.cat.notebook.j1", "cat", "notebook 1M", ["-j", "1", str(nb)], N, nb_b, "tfr.cat.notebook", None, Target(),
             nonempty, flags=" -j 1", note="ratio: × the default (all cores)")
    tfr_case("tfr.cat.gz", "cat", "notebook.gz", [str(gz)], N, nb_b, None, None, Target(), nonempty)
    for key, inp, f in (("notebook", "notebook 1M", nb), ("gz", "notebook.gz", gz), ("images", "images 2k", img)):
        # records=0: no throughput for head (the target is "instant": ≤ 0.02 s).
        tfr_case(f"tfr.head.{key}", "head", inp, ["-n", "1", str(f)], 0, 0, None, None, Target(max_s=0.02), nonempty,
                 flags=" -n 1")
    tfr_case("tfr.to-jsonl.notebook", "to-jsonl", "notebook 1M", [str(nb)], N, nb_b, "limit.jsonl.notebook", "tf.json.notebook",
             Target(min_rps=4e6), same_as(js, "output"))
    tfr_case("tfr.to-jsonl.gzshards", "to-jsonl", "8 gzip shards", [gz_glob], N, nb_b, "limit.inflate.gz", None,
             Target(min_rps=4e6), same_as(js, "output"))
    tfr_case("tfr.to-jsonl.images", "to-jsonl", "images 2k", [str(img)], I, img_b, "limit.jsonl.images", "tf.json.images",
             Target(), nonempty)
    tfr_case("tfr.from-jsonl.notebook", "from-jsonl", "notebook.jsonl", [str(js), "-o", str(tmp / "from.tfrecord")], N, js_b,
             "limit.unjsonl.notebook", None, Target(min_rps=2e6), same_as(nb, "output"), tmp / "from.tfrecord")
    for key, flags in (("", ()), (".j1", ("-j", "1"))):
        tfr_case(f"tfr.from-jsonl.gzip{key}", "from-jsonl", "notebook.jsonl",
                 [*flags, str(js), "-o", str(tmp / "from.tfrecord.gz"), "--compression", "gzip"], N, js_b,
                 "tfr.from-jsonl.gzip" if key else None, None, Target(), None, tmp / "from.tfrecord.gz",
                 flags=" --compression gzip" + (" -j 1" if key else ""), note="ratio: × the default (all cores)" if key else "")
    # SNAPPY (TensorFlow's tf.data format), written by tfr from the JSONL.
    sn = d / "notebook.snappy.tfrecord"
    if "from-jsonl" in cmds and not sn.exists():
        run_checked([T, "from-jsonl", str(js), "--compression", "snappy", "-o", str(sn)])
    if sn.exists():
        sn_b = nb_b
        tfr_case("tfr.count.snappy", "count", "notebook.snappy", [str(sn)], N, sn_b, "tfr.count.notebook", None,
                 Target(), expect_stdout(str(N)), note="ratio: × count on the plain file")
        tfr_case("tfr.to-jsonl.snappy", "to-jsonl", "notebook.snappy", [str(sn)], N, sn_b, "tfr.to-jsonl.notebook", None,
                 Target(), same_as(js, "output"), note="ratio: × to-jsonl on the plain file")
        tfr_case("tfr.verify.snappy", "verify-crc", "notebook.snappy", [str(sn)], N, sn_b, "tfr.verify.notebook", None,
                 Target(), note="ratio: × verify-crc on the plain file")
        tfr_case("tfr.from-jsonl.snappy", "from-jsonl", "notebook.jsonl",
                 [str(js), "-o", str(tmp / "from.snappy"), "--compression", "snappy"], N, js_b,
                 "tfr.from-jsonl.notebook", None, Target(), None, tmp / "from.snappy",
                 flags=" --compression snappy", note="ratio: × plain output")
    # Parquet and Arrow (issue 30): to-parquet ≤ 2× to-jsonl, from-parquet ≤ 2× from-jsonl.
    # Memory is what README ("Memory", under to-parquet) states, not the
    # 20 MB of the streaming commands: to-parquet holds the row group being
    # encoded (≤ 64 MiB encoded by default) plus the reading window;
    # from-parquet about 1 MiB of column data per batch in flight.
    pq_rss, from_pq_rss = 64 + 32, 64
    tfr_case("tfr.to-parquet.notebook", "to-parquet", "notebook 1M", [str(nb), "-o", str(tmp / "n.parquet")], N, nb_b,
             "tfr.to-jsonl.notebook", None, Target(max_ratio=2.0, max_rss_mb=pq_rss), None, tmp / "n.parquet",
             note="ratio: × to-jsonl (target ≤ 2); zstd")
    tfr_case("tfr.to-parquet.snappy", "to-parquet", "notebook 1M",
             [str(nb), "-o", str(tmp / "ns.parquet"), "--output-compression", "snappy"], N, nb_b,
             "tfr.to-jsonl.notebook", None, Target(max_ratio=2.0, max_rss_mb=pq_rss), None, tmp / "ns.parquet",
             flags=" --output-compression snappy", note="ratio: × to-jsonl")
    tfr_case("tfr.to-arrow.notebook", "to-arrow", "notebook 1M", [str(nb), "-o", str(tmp / "n.arrow")], N, nb_b,
             "tfr.to-jsonl.notebook", None, Target(), None, tmp / "n.arrow", note="ratio: × to-jsonl")
    pq_file, arrow_file = d / "notebook.parquet", d / "notebook.arrow"
    if "to-parquet" in cmds and not pq_file.exists():
        run_checked([T, "to-parquet", str(nb), "-o", str(pq_file)])
    if "to-arrow" in cmds and not arrow_file.exists():
        run_checked([T, "to-arrow", str(nb), "-o", str(arrow_file)])
    if pq_file.exists():
        tfr_case("tfr.from-parquet.notebook", "from-parquet", "notebook.parquet",
                 [str(pq_file), "-o", str(tmp / "fromp.tfrecord")], N, pq_file.stat().st_size,
                 "tfr.from-jsonl.notebook", None, Target(max_ratio=2.0, max_rss_mb=from_pq_rss), None, tmp / "fromp.tfrecord",
                 note="ratio: × from-jsonl (target ≤ 2)")
    if arrow_file.exists():
        tfr_case("tfr.from-arrow.notebook", "from-arrow", "notebook.arrow",
                 [str(arrow_file), "-o", str(tmp / "froma.tfrecord")], N, arrow_file.stat().st_size,
                 "tfr.from-jsonl.notebook", None, Target(), None, tmp / "froma.tfrecord",
                 note="ratio: × from-jsonl")
    tfr_case("tfr.verify.payloads", "verify-crc", "notebook 1M", ["--payloads", str(nb)], N, nb_b, "tfr.verify.notebook", None,
             Target(), expect_in_stdout("all intact"), flags=" --payloads", note="ratio: × verify-crc")
    tfr_case("tfr.schema.notebook", "schema", "notebook 1M", [str(nb)], N, nb_b, None, None, Target(min_rps=4e6), nonempty)
    # --where and count --by (issue 29): every record decoded, only the
    # named feature read; no slower than tfr schema on the same file.
    tfr_case("tfr.count.where.notebook", "count", "notebook 1M", ["--where", "feature1 == 2", str(nb)], N, nb_b,
             "tfr.schema.notebook", None, Target(max_ratio=1.0), nonempty, flags=" --where",
             note="ratio: × tfr schema (target ≤ 1)")
    tfr_case("tfr.count.by.notebook", "count", "notebook 1M", ["--by", "feature1", str(nb)], N, nb_b,
             "tfr.schema.notebook", None, Target(max_ratio=1.0), expect_in_stdout("total records"), flags=" --by",
             note="ratio: × tfr schema")
    tfr_case("tfr.cat.where.notebook", "cat", "notebook 1M", ["-f", "json", "--where", "feature1 == 2 && feature3 > 1", str(nb)],
             N, nb_b, "tfr.schema.notebook", None, Target(), nonempty, flags=" -f json --where",
             note="ratio: × tfr schema")
    # Index files for DALI / the tfrecord package: every record CRC-checked.
    tfr_case("tfr.index.notebook", "index", "notebook 1M", ["--out-dir", str(tmp), str(nb)], N, nb_b,
             "tfr.verify.notebook", None, Target(), nonempty, tmp / "notebook.tfrecord.idx",
             note="ratio: × verify-crc")
    # Full statistics (TFDV's): the binary DatasetFeatureStatisticsList, as
    # tfdv.generate_statistics_from_tfrecord writes it. vs TF = × faster than TFDV.
    stats_tf = "tfdv.stats.notebook" if tfdv_py else None
    tfr_case("tfr.stats.notebook", "stats", "notebook 1M", ["-f", "tfdv-stats", str(nb)], N, nb_b, None, stats_tf,
             Target(min_rps=2e6, max_rss_mb=64), nonempty, flags=" -f tfdv-stats",
             note="vs TF: × faster than TFDV's generate_statistics_from_tfrecord" if tfdv_py else "")
    tfr_case("tfr.stats.notebook.j1", "stats", "notebook 1M", ["-j", "1", "-f", "tfdv-stats", str(nb)], N, nb_b,
             "tfr.stats.notebook", stats_tf, Target(max_rss_mb=64), nonempty, flags=" -f tfdv-stats -j 1",
             note="ratio: × the default (all cores)")
    if tfdv_py and "stats" in cmds:
        prefix = record_prefix(nb, d / "notebook-100k.tfrecord", 100_000)
        add(Case("tfdv.stats.notebook", "peer", "TFDV generate_statistics", "notebook 1M",
                 [str(tfdv_py), "-c", PEER_STATS_TFDV, str(nb), str(prefix), str(N), "100000", str(tfdv_budget)], N, nb_b,
                 reps=1, note="1 repetition; time of the call (Beam pipeline included), without imports"))
    # The CI gate: validate against the schema tfr infers (exit 0).
    schema_file = d / "notebook.schema.pbtxt"
    if "validate" in cmds and not schema_file.exists():
        schema_file.write_text(run_checked([T, "schema", "-f", "tfdv-schema", str(nb)]))
    if schema_file.exists():
        tfr_case("tfr.validate.notebook", "validate", "notebook 1M", ["--schema", str(schema_file), str(nb)], N, nb_b,
                 "tfr.stats.notebook", None, Target(min_rps=1e6, max_rss_mb=64), nonempty,
                 flags=" --schema", note="ratio: × tfr stats")
    # Drift: the same gate with a jensen_shannon_divergence drift comparator
    # on every feature, against the previous span's statistics file (here
    # the data's own, as tfr stats writes it): a second pass for the
    # statistics, then the comparisons.
    drift_schema, prev_stats = d / "notebook.drift.schema.pbtxt", d / "notebook.prev.stats"
    if schema_file.exists() and "validate" in cmds and not drift_schema.exists():
        text = re.sub(r'(\nfeature \{\n  name: "[^"\n]*"\n)',
                      r'\1  drift_comparator { jensen_shannon_divergence { threshold: 0.1 } }\n',
                      "\n" + schema_file.read_text())
        drift_schema.write_text(text.lstrip("\n"))
        with open(prev_stats, "wb") as f:
            subprocess.run([T, "stats", "-f", "tfdv-stats", str(nb)], stdout=f, check=True)
    if drift_schema.exists():
        tfr_case("tfr.validate.drift", "validate", "notebook 1M",
                 ["--schema", str(drift_schema), "--previous", str(prev_stats), str(nb)], N, nb_b,
                 "tfr.validate.notebook", None, Target(max_rss_mb=64), nonempty,
                 flags=" --schema --previous", note="ratio: × validate without --previous")
    # The report: statistics, then 24 cards (images 2k: random bytes, not
    # decodable pictures; a dataset of real JPEGs is measured in the notes).
    tfr_case("tfr.report.images", "report", "images 2k", ["-o", str(tmp / "report.html"), str(img)], I, img_b,
             None, None, Target(max_s=5.0, max_rss_mb=64), None, tmp / "report.html")
    tfr_case("tfr.report.notebook", "report", "notebook 1M", ["-o", str(tmp / "report.html"), str(nb)], N, nb_b,
             "tfr.stats.notebook", None, Target(max_rss_mb=64), None, tmp / "report.html", note="ratio: × tfr stats")
    # Record ranges: the last 10 records cost about what count costs
    # (skipped records hop from header to header). records=0: a latency row.
    tfr_case("tfr.cat.skip", "cat", "notebook 1M", ["--skip", str(N - 10), "-n", "10", str(nb)], 0, 0, "tfr.count.notebook", None,
             Target(max_ratio=2.0), expect_in_stdout(f"# record {N - 1}\n"), flags=" --skip N-10 -n 10",
             note="ratio: × tfr count (target ≤ 2)")
    tfr_case("tfr.cat.sample", "cat", "notebook 1M", ["--sample", "100", "--seed", "1", str(nb)], 0, 0, "tfr.count.notebook", None,
             Target(), nonempty, flags=" --sample 100", note="ratio: × tfr count")
    # Shortened output (what a terminal gets), forced on a pipe by the limits.
    tfr_case("tfr.cat.short.images", "cat", "images 2k", ["--max-bytes", "64", "--max-values", "8", str(img)], I, img_b,
             "tfr.cat.images", None, Target(), nonempty, flags=" --max-values 8", note="ratio: × full text")
    tfr_case("tfr.cat.images", "cat", "images 2k", [str(img)], I, img_b, None, None, Target(), nonempty)

    # Reshaping (issue 29): records rewritten byte for byte into shards or
    # splits, beside a plain copy of the file (dd) as the anchor.
    for sub in ("reshard", "split"):
        (tmp / sub).mkdir(exist_ok=True)
    add(Case("dd.copy.notebook", "anchor", "dd copy bs=1M", "notebook 1M",
             ["dd", f"if={nb}", f"of={tmp / 'copy.tfrecord'}", "bs=1M", "status=none"], N, nb_b))
    tfr_case("tfr.reshard.notebook", "reshard", "notebook 1M", [str(nb), "-o", str(tmp / "reshard" / "nb.tfrecord"), "--shards", "8"],
             N, nb_b, "dd.copy.notebook", None, Target(), None, flags=" --shards 8",
             note="ratio: × dd copy; two passes (count, then write)")
    tfr_case("tfr.reshard.size", "reshard", "notebook 1M",
             [str(nb), "-o", str(tmp / "reshard" / "sz.tfrecord"), "--shard-size", "16M"], N, nb_b, "dd.copy.notebook", None,
             Target(), None, flags=" --shard-size 16M", note="ratio: × dd copy; one pass")
    tfr_case("tfr.reshard.gz", "reshard", "notebook 1M", [str(nb), "-o", str(tmp / "reshard" / "nb.tfrecord.gz"), "--shards", "8"],
             N, nb_b, "dd.copy.notebook", None, Target(), None, flags=" -o NAME.tfrecord.gz --shards 8",
             note="ratio: × dd copy; gzip on all cores")
    tfr_case("tfr.split.notebook", "split", "notebook 1M",
             [str(nb), "--ratio", "train=8,eval=2", "-o", str(tmp / "split" / "{split}.tfrecord")], N, nb_b,
             "dd.copy.notebook", None, Target(), expect_in_stdout("eval: "), flags=" --ratio train=8,eval=2",
             note="ratio: × dd copy")
    # Shuffle (issue 29): the 1M file (100 MB) with --memory 16M, so it
    # spills to bucket files and reads them back: its data read and
    # written twice. The anchor does that with cat (page cache, no CRCs).
    add(Case("cat2.notebook", "anchor", "cat twice (file → file → file)", "notebook 1M",
             ["sh", "-c", f'cat "$1" > "$2.1" && cat "$2.1" > "$2.2"; rm -f "$2.1" "$2.2"', "sh", str(nb), str(tmp / "twice")],
             N, nb_b))
    shuffled = tmp / "shuffled.tfrecord"
    tfr_case("tfr.shuffle.spill", "shuffle", "notebook 1M",
             [str(nb), "-o", str(shuffled), "--seed", "1", "--memory", "16M", "--temp-dir", str(tmp)], N, nb_b,
             "cat2.notebook", None, Target(max_ratio=3.0, max_rss_mb=16 + 64), same_size_as(nb), shuffled,
             flags=" --memory 16M", note="spills: 256 buckets in 16 temporary files")
    tfr_case("tfr.shuffle.memory", "shuffle", "notebook 1M", [str(nb), "-o", str(shuffled), "--seed", "1"], N, nb_b,
             "cat2.notebook", None, Target(max_rss_mb=None), same_size_as(nb), shuffled,
             note="in memory (default --memory 1G): payloads + 28 B per record held")

    # CSV, WebDataset and files (issue 30): beside to-jsonl / from-jsonl on
    # the same input (ratio ×). to-csv includes its schema pass; with
    # --schema it skips it. to-wds of the 1M file writes 1M samples of a
    # .json each (3 tar blocks a record); from-wds reads them back.
    schema_json = d / "notebook.schema.json"
    if "to-csv" in cmds and not schema_json.exists():
        schema_json.write_text(run_checked([T, "schema", "-f", "json", str(nb)]))
    tfr_case("tfr.to-csv.notebook", "to-csv", "notebook 1M", [str(nb)], N, nb_b, "tfr.to-jsonl.notebook", None,
             Target(), expect_in_stdout("feature0,feature1,feature2,feature3\n"),
             note="ratio: × to-jsonl; schema pass included")
    tfr_case("tfr.to-csv.schema", "to-csv", "notebook 1M", ["--schema", str(schema_json), str(nb)], N, nb_b,
             "tfr.to-jsonl.notebook", None, Target(), nonempty, flags=" --schema", note="ratio: × to-jsonl")
    (tmp / "wds").mkdir(exist_ok=True)
    tfr_case("tfr.to-wds.notebook", "to-wds", "notebook 1M", [str(nb), "-o", str(tmp / "wds" / "nb.tar")], N, nb_b,
             "tfr.to-jsonl.notebook", None, Target(), expect_in_stdout(f"{N} samples"),
             note="ratio: × to-jsonl; writes 1 GiB of tar (a 512-byte header and a block per member)")
    wds_shard = d / "wds" / "notebook-000000.tar"
    if {"to-wds", "from-wds"} <= cmds and not wds_shard.exists():
        (d / "wds").mkdir(exist_ok=True)
        run_checked([T, "to-wds", str(nb), "-o", str(d / "wds" / "notebook.tar")])
    if wds_shard.exists():
        tfr_case("tfr.from-wds.notebook", "from-wds", "notebook wds", [str(wds_shard), "-o", str(tmp / "from-wds.tfrecord")],
                 N, nb_b, "tfr.from-jsonl.notebook", None, Target(), None, tmp / "from-wds.tfrecord",
                 note="ratio: × from-jsonl; one thread")
    (tmp / "extract").mkdir(exist_ok=True)
    tfr_case("tfr.extract.images", "extract", "images 2k", [str(img), "--feature", "image", "-o", str(tmp / "extract")],
             I, img_b, "dd.copy.notebook", None, Target(), expect_in_stdout(f"{I} files"),
             note="2,000 files of 100 KB; ratio: × dd copy of the 1M file")

    # Object stores (issue 15): the images file served over HTTP on
    # 127.0.0.1 by tests/oracle/objstore.py (Range-honouring, stdlib only),
    # tfr streaming it beside curl downloading it (target: within 1.2x).
    if shutil.which("curl") and {"count", "verify-crc", "head"} <= cmds:
        port = start_http_server(d, tmp)
        url = f"http://127.0.0.1:{port}/images.tfrecord"
        add(Case("curl.images.http", "anchor", "curl (HTTP, 127.0.0.1)", "images 2k", ["curl", "-sf", "-o", "/dev/null", url], I, img_b))
        tfr_case("tfr.count.http", "count", "images 2k (HTTP)", [url], I, img_b, "curl.images.http", None,
                 Target(max_ratio=1.2), expect_stdout(str(I)))
        tfr_case("tfr.verify.http", "verify-crc", "images 2k (HTTP)", [url], I, img_b, "curl.images.http", None,
                 Target(max_ratio=1.2), expect_in_stdout("all intact"))
        tfr_case("tfr.head.http", "head", "images 2k (HTTP)", ["-n", "1", "--type", "raw", url], 0, 0, "curl.images.http", None,
                 Target(), nonempty, flags=" -n 1", note="ratio: × curl of the whole object")

    # TFDS (issue 44): to-parquet of a TFDS image dataset written by TFDS
    # itself (20k 32x32 PNGs, a ClassLabel, a caption), beside the Python
    # way (tfds as_dataset → pyarrow → Parquet, images left encoded).
    # Target: ≥ 10× faster at ≤ 64 MB.
    tfds_dir = d / "tfds"
    tfds_folder = tfds_dir / "bench_images" / "1.0.0"
    if venv_py and "to-parquet" in cmds and not tfds_folder.exists():
        probe = subprocess.run([str(venv_py), "-c", "import tensorflow_datasets"], capture_output=True)
        if probe.returncode == 0:
            run_checked([str(venv_py), str(HERE / "tfds_images.py"), "make", str(tfds_dir), str(TFDS_RECORDS)])
    if tfds_folder.exists() and venv_py:
        tf_b = sum(f.stat().st_size for f in tfds_folder.glob("*.tfrecord-*"))
        add(Case("tfds.parquet.images", "peer", "tfds as_dataset → pyarrow (Python)", "TFDS 20k images",
                 [str(venv_py), str(HERE / "tfds_images.py"), "peer", str(tfds_dir), str(tmp / "tfds_peer.parquet")],
                 TFDS_RECORDS, tf_b))
        tfr_case("tfr.to-parquet.tfds", "to-parquet", "TFDS 20k images",
                 [str(tfds_folder), "-o", str(tmp / "tfds.parquet")], TFDS_RECORDS, tf_b, "tfds.parquet.images", None,
                 Target(max_ratio=0.1, max_rss_mb=64), None, tmp / "tfds.parquet",
                 note="ratio: × the Python way (target ≤ 0.1); HF-ready features")

    # TensorBoard scalars (issue 45): 1M scalar events in 4 runs (written by
    # bench/events_big.py through TensorFlow's TFRecordWriter and event_pb2),
    # tfr scalars beside tbparse's .scalars table. Target: ≥ 20× faster at
    # ≤ 64 MB.
    ev_dir = d / "events1m"
    if venv_py and "scalars" in cmds and not (ev_dir / "run_3").exists():
        run_checked([str(venv_py), str(HERE / "events_big.py"), str(EVENTS), str(ev_dir)])
    if (ev_dir / "run_3").exists() and venv_py:
        ev_b = sum(f.stat().st_size for f in ev_dir.rglob("*tfevents*"))
        probe = subprocess.run([str(venv_py), "-c", "import tbparse"], capture_output=True)
        if probe.returncode == 0:
            add(Case("tbparse.scalars", "peer", "tbparse .scalars (Python)", "events 1M",
                     [str(venv_py), str(HERE / "tbparse_peer.py"), str(ev_dir), str(tmp / "tbparse.csv")], EVENTS, ev_b))
        tfr_case("tfr.scalars.events", "scalars", "events 1M", [str(ev_dir), "-f", "csv", "-o", str(tmp / "scalars.csv")],
                 EVENTS, ev_b, "tbparse.scalars" if probe.returncode == 0 else None, None,
                 Target(max_ratio=0.05, max_rss_mb=64), None, tmp / "scalars.csv",
                 note="ratio: × tbparse (target ≤ 0.05)")

    # tfr view (issue 46): 100,000 small JPEGs with OD API boxes in 4
    # shards (written by TensorFlow: tests/oracle/many_images_make.py); the
    # time from `tfr view`'s start to the answer for the last record and
    # its picture (bench/view_jump.py), beside tf.data reaching the same
    # record by skipping (bench/view_peer.py). Target: under a second.
    view_dir = d / "view100k"
    if venv_py and "view" in cmds and not (view_dir / "train-00003-of-00004.tfrecord").exists():
        run_checked([str(venv_py), str(ROOT / "tests" / "oracle" / "many_images_make.py"), str(view_dir), str(VIEW_RECORDS)])
    view_files = sorted(str(f) for f in view_dir.glob("train-*-of-00004.tfrecord"))
    if len(view_files) == 4 and "view" in cmds:
        view_b = sum(Path(f).stat().st_size for f in view_files)
        if venv_py:
            add(Case("tf.view.skip", "peer", "tf.data skip(N-1).take(1) + parse", "view 100k images",
                     [str(venv_py), str(HERE / "view_peer.py"), str(VIEW_RECORDS), *view_files], 1, view_b))
        add(Case("tfr.view.jump", "tfr", "tfr view: start, last record + picture", "view 100k images",
                 [sys.executable, str(HERE / "view_jump.py"), T, str(VIEW_RECORDS), *view_files], 1, view_b,
                 None, "tf.view.skip" if venv_py else None, Target(max_s=1.0, max_rss_mb=64),
                 note="from the command's start; target < 1 s"))

    # Peers (Python, in the TensorFlow venv): a slice of the 1M file, scaled up.
    if venv_py:
        py = str(venv_py)
        n_slice = peer_slice if 0 < peer_slice < N else 0
        scale = N / n_slice if n_slice else 1.0
        sl = f"first {n_slice // 1000}k records ×{scale:g}" if n_slice else ""
        for key, script, cmd in (("tf.count", PEER_COUNT_TF, "TF Python loop: count"),
                                 ("tf.json", PEER_JSON_TF, "TF Python: Example→JSON"),
                                 ("pypi.count", PEER_COUNT_PYPI, "tfrecord (PyPI): count")):
            script = script.replace("WARMUP", "100")
            add(Case(f"{key}.notebook", "peer", cmd, "notebook 1M", [py, "-c", script, str(nb), str(n_slice)], N, nb_b,
                     scale=scale, note=sl))
            add(Case(f"{key}.images", "peer", cmd, "images 2k", [py, "-c", script, str(img), "0"], I, img_b))
    reader_cases(add, nb, tfds_folder, T, venv_py, reader_py, peer_slice)
    return cases


def python_finds(py: Path, *modules: str) -> bool:
    probe = f"import importlib.util as u, sys; sys.exit(not all(u.find_spec(m) for m in {modules!r}))"
    return subprocess.run([str(py), "-c", probe], capture_output=True).returncode == 0


def reader_cases(add, nb: Path, tfds_folder: Path, T: str, venv_py: Path | None, reader_py: Path | None, peer_slice: int):
    """The Python reader (issue 48): tfr_cli.TFRecordDataset iterated with
    spec="auto" and spec=None, and ds[i] at 10,000 random i, in the reader
    venv (--reader-python); beside it, per core, tf.data with
    parse_single_example and with batched parse_example (TensorFlow venv)
    and the `tfrecord` package's TFRecordDataset with a description
    (reader venv: it needs torch). bench/reader_peer.py runs each. The
    peers read a slice of the 1M file, scaled; tfr_cli reads all of it."""
    script = str(HERE / "reader_peer.py")
    inputs = [("notebook", "notebook 1M", [str(nb)], NOTEBOOK_RECORDS)]
    tfds_files = sorted(str(f) for f in tfds_folder.glob("*.tfrecord-*"))
    if tfds_files:
        inputs.append(("tfds", "TFDS 20k images", tfds_files, TFDS_RECORDS))
    has_reader = reader_py is not None and reader_py.exists()
    for key, inp, files, n in inputs:
        nbytes = sum(Path(f).stat().st_size for f in files)
        n_slice = peer_slice if 0 < peer_slice < n else 0
        scale = n / n_slice if n_slice else 1.0
        sl = f"first {n_slice // 1000}k records ×{scale:g}; " if n_slice else ""
        tf_key = f"tf.single.{key}" if venv_py else None
        if venv_py:
            add(Case(f"tf.single.{key}", "peer", "tf.data map(parse_single_example), 1 core", inp,
                     [str(venv_py), script, "tf-single", "--tfr", T, "--limit", str(n_slice), *files], n, nbytes,
                     scale=scale, note=sl + "spec: tfr schema --format tf; numpy out"))
            add(Case(f"tf.batched.{key}", "peer", "tf.data batch(256).map(parse_example), 1 core", inp,
                     [str(venv_py), script, "tf-batched", "--tfr", T, "--limit", str(n_slice), *files], n, nbytes,
                     scale=scale, note=sl + "spec: tfr schema --format tf; numpy out"))
        if venv_py and has_reader and python_finds(reader_py, "tfrecord", "torch"):
            add(Case(f"tfrecord.desc.{key}", "peer", "tfrecord TFRecordDataset(description)", inp,
                     [str(reader_py), script, "tfrecord", "--tfr", T, "--limit", str(n_slice), *files], n, nbytes,
                     scale=scale, note=sl + "the PyPI package's torch dataset, file after file"))
        if not has_reader:
            continue
        add(Case(f"reader.auto.{key}", "reader", "tfr_cli TFRecordDataset(spec=\"auto\") iterate", inp,
                 [str(reader_py), script, "tfr-auto", "--tfr", T, *files], n, nbytes, None, tf_key, Target(max_rss_mb=None),
                 note="vs TF: × faster than tf.data parse_single_example on one core"))
        add(Case(f"reader.stored.{key}", "reader", "tfr_cli TFRecordDataset(spec=None) iterate", inp,
                 [str(reader_py), script, "tfr-stored", "--tfr", T, *files], n, nbytes, None, tf_key, Target(max_rss_mb=None)))
        add(Case(f"reader.random.{key}", "reader", "tfr_cli ds[i], 10k random i", inp,
                 [str(reader_py), script, "tfr-random", "--tfr", T, *files], 10_000, 0, None, None, Target(max_rss_mb=None)))


# ------------------------------------------------------------------- report


def fmt_rate(x: float) -> str:
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:.3g}{suf}"
    return f"{x:.3g}"


def short(key: str | None) -> str:
    """limit.walk.notebook -> walk, dd.images -> dd."""
    if not key:
        return "anchor"
    parts = key.split(".")
    return parts[1] if parts[0] == "limit" else parts[0]


def evaluate(cases: list[Case]) -> list[dict]:
    by = {c.key: c for c in cases}
    rows = []
    for c in cases:
        a = by.get(c.anchor) if c.anchor else None
        tf = by.get(c.tf) if c.tf else None
        med = c.median
        row = {
            "key": c.key, "kind": c.kind, "command": c.cmd, "input": c.input,
            "argv": [str(x) for x in c.argv[:1]] + [("<script>" if len(str(x)) > 200 else str(x)) for x in c.argv[1:]],
            "records": c.records, "bytes": c.bytes, "times_s": c.times, "median_s": med,
            "records_per_s": c.records / med if med and c.records else None,
            "mb_per_s": c.bytes / 1e6 / med if med and c.bytes else None,
            "anchor": c.anchor if a else None,
            "ratio_vs_anchor": med / a.median if med and a and a.median else None,
            "tf": c.tf if tf else None,
            "speedup_vs_tf": tf.median / med if med and tf and tf.median else None,
            "peak_rss_mb": c.rss_mb, "cpu_cores": c.cpu, "error": c.error, "note": c.note,
            "target": c.target.text(short(c.anchor)) if c.target else None,
            "status": None, "failed_targets": [],
        }
        t = c.target
        if c.error:
            row["status"] = "FAILED"
        elif t:
            bad = []
            if t.max_s is not None and med > t.max_s:
                bad.append(f"time > {t.max_s:g} s")
            if t.max_ratio is not None and row["ratio_vs_anchor"] is not None and row["ratio_vs_anchor"] > t.max_ratio:
                bad.append(f"ratio > {t.max_ratio:g}")
            if t.min_rps is not None and row["records_per_s"] < t.min_rps:
                bad.append("records/s")
            if t.min_gbps is not None and c.bytes / 1e9 / med < t.min_gbps:
                bad.append("GB/s")
            if t.max_rss_mb is not None and c.rss_mb > t.max_rss_mb:
                bad.append(f"RSS > {t.max_rss_mb:g} MB")
            if "DIFFERS" in c.note:
                bad.append("output differs")
            row["failed_targets"] = bad
            row["status"] = "NOT MET" if bad else "met"
        rows.append(row)
    return rows


def print_table(rows: list[dict], out=sys.stdout):
    head = ["command", "input", "median s", "spread", "rec/s", "MB/s", "vs anchor", "vs TF", "RSS MB", "CPU", "target", "status"]
    table = []
    for r in rows:
        times = r["times_s"]
        med = r["median_s"]
        spread = f"±{(max(times) - min(times)) / 2 / med * 100:.0f}%" if med and len(times) > 1 else ""
        anchor = ""
        if r["ratio_vs_anchor"] is not None:
            anchor = f"{r['ratio_vs_anchor']:.2f}× {short(r['anchor'])}"
        status = r["status"] or ""
        if r["failed_targets"]:
            status += " (" + ", ".join(r["failed_targets"]) + ")"
        if r["error"]:
            status += ": " + r["error"]
        table.append([
            r["command"], r["input"],
            "" if med is None else (f"{med:.4f}" if med < 1 else f"{med:.2f}"),
            spread,
            fmt_rate(r["records_per_s"]) if r["records_per_s"] else "",
            f"{r['mb_per_s']:.0f}" if r["mb_per_s"] else "",
            anchor,
            f"{r['speedup_vs_tf']:.0f}× faster" if r["speedup_vs_tf"] else "",
            f"{r['peak_rss_mb']:.1f}" if r["peak_rss_mb"] is not None else "",
            f"{r['cpu_cores']:.2f}" if r["cpu_cores"] is not None else "",
            r["target"] or "", status,
        ])
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(head)]
    right = {2, 3, 4, 5, 8, 9}

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    print(line(head), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for r, cells in zip(rows, table):
        print(line(cells), file=out)
    notes = [(r["command"], r["input"], r["note"]) for r in rows if r["note"]]
    if notes:
        print("\nnotes:", file=out)
        for cmd, inp, n in notes:
            print(f"  {cmd} / {inp}: {n}", file=out)


# ------------------------------------------------------------------ scaling
#
# `--scaling`: how each command's time falls with -j (issue 26). Needs only
# python3 and a tfr binary (`--tfr PATH --no-build` on a machine without
# cargo): the data is made by a pure-Python generator and `tfr from-jsonl`.

SCALING_COMMANDS = [
    # (name, argv after `tfr`, with {tfr}/{gz}/{jsonl}/{schema}/{out} filled in)
    ("to-jsonl", ["to-jsonl", "{tfr}"]),
    ("schema", ["schema", "{tfr}"]),
    ("stats", ["stats", "-f", "tfdv-stats-text", "{tfr}"]),
    ("validate", ["validate", "--schema", "{schema}", "{tfr}"]),
    ("verify-crc --payloads", ["verify-crc", "--payloads", "{tfr}"]),
    ("cat", ["cat", "{tfr}"]),
    ("from-jsonl", ["from-jsonl", "{jsonl}", "-o", "{out}"]),
    ("count", ["count", "{tfr}"]),
    ("verify-crc", ["verify-crc", "{tfr}"]),
    ("to-jsonl 16 gzip shards", ["to-jsonl", "{gz}"]),
]

ANIMALS = ["cat", "dog", "chicken", "horse", "goat"]


def scaling_jsonl(path: Path, n: int):
    """`n` small Examples as JSON lines, the notebook's four features
    (deterministic: the same file for the same n on every machine)."""
    import random
    rng = random.Random(26)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as f:
        lines = []
        for i in range(n):
            f1 = rng.randrange(5)
            lines.append('{"feature0":[%d],"feature1":[%d],"feature2":["%s"],"feature3":[%.6f]}\n'
                         % (rng.randrange(2), f1, ANIMALS[f1], rng.gauss(0.0, 1.0)))
            if len(lines) == 65536:
                f.writelines(lines)
                lines.clear()
        f.writelines(lines)
    os.replace(tmp, path)


def scaling_data(d: Path, tfr: Path, n: int) -> dict:
    """The scaling data in d/scaling-N/: JSONL, one plain TFRecord file, 16
    gzip shards of it, and the TFDV schema tfr infers (for validate)."""
    out = d / f"scaling-{n}"
    out.mkdir(parents=True, exist_ok=True)
    files = {"jsonl": out / "small.jsonl", "tfr": out / "small.tfrecord", "schema": out / "schema.pbtxt"}
    shards = [out / "gz" / f"small-{k:05}-of-00016.tfrecord.gz" for k in range(16)]
    if not files["jsonl"].exists():
        t = time.perf_counter()
        scaling_jsonl(files["jsonl"], n)
        log(f"scaling: {n} JSON lines in {time.perf_counter() - t:.1f} s")
    if not files["tfr"].exists():
        run_checked([str(tfr), "from-jsonl", str(files["jsonl"]), "-o", str(files["tfr"])])
    if not all(p.exists() for p in shards):
        (out / "gz").mkdir(exist_ok=True)
        # 16 gzip shards: every 16th line each, written by tfr.
        lines = files["jsonl"].read_bytes().splitlines(keepends=True)
        for k, p in enumerate(shards):
            part = out / "gz" / f"part-{k}.jsonl"
            part.write_bytes(b"".join(lines[k::16]))
            run_checked([str(tfr), "from-jsonl", str(part), "--compression", "gzip", "-o", str(p)])
            part.unlink()
    if not files["schema"].exists():
        files["schema"].write_text(run_checked([str(tfr), "schema", "-f", "tfdv-schema", str(files["tfr"])]))
    files["gz"] = out / "gz" / "*.tfrecord.gz"
    return files


def run_scaling(args, tfr: Path):
    cores = os.cpu_count() or 1
    jobs = [int(j) for j in args.jobs.split(",")]
    if not args.force_jobs:
        skipped = [j for j in jobs if j > cores]
        jobs = [j for j in jobs if j <= cores]
        if skipped:
            log(f"scaling: {cores} cores here, -j {','.join(map(str, skipped))} left out (--force-jobs runs them)")
    reps = args.reps or (1 if args.quick else 3)
    files = scaling_data(args.data.resolve(), tfr, args.records)
    tmp = Path(tempfile.mkdtemp(prefix="tfr-scaling-"))
    cmds = tfr_commands(tfr)
    results = {}
    try:
        for name, argv in SCALING_COMMANDS:
            if argv[0] not in cmds:
                continue
            times = {}
            for j in jobs:
                fill = dict({k: str(v) for k, v in files.items()}, out=str(tmp / "out.tfrecord"))
                cmd = [str(tfr)] + [a.format(**fill) for a in argv] + ["-j", str(j)]
                walls = []
                for rep in range(reps + 1):  # the first run warms up
                    # A new output each time: replacing the last one would
                    # time the kernel freeing its pages too.
                    (tmp / "out.tfrecord").unlink(missing_ok=True)
                    t = time.perf_counter()
                    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
                    wall = time.perf_counter() - t
                    if r.returncode != 0:
                        log(f"scaling: {' '.join(cmd)} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
                        walls = []
                        break
                    if rep:
                        walls.append(wall)
                times[j] = statistics.median(walls) if walls else None
                log(f"scaling: {name} -j {j}: " + (f"{times[j]:.3f} s" if times[j] else "FAILED"))
            results[name] = times
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    doc = {"records": args.records, "cpus": cores, "reps": reps, "jobs": jobs,
           "tfr": run_checked([str(tfr), "--version"]).strip(),
           "times_s": {k: {str(j): t for j, t in v.items()} for k, v in results.items()}}
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1) + "\n")
        log(f"wrote {args.json}")
    print(f"tfr scaling — {args.records:,} small records, {cores} CPUs, median of {reps}; "
          f"seconds, and speed-up over -j {jobs[0]}")
    head = ["command"] + [f"-j {j}" for j in jobs] + [f"×{jobs[-1]}/{jobs[0]}"]
    rows = []
    for name, times in results.items():
        base = times.get(jobs[0])
        cells = [name]
        for j in jobs:
            t = times.get(j)
            cells.append("FAILED" if t is None else f"{t:.3f}" + ("" if j == jobs[0] or not base else f" ({base / t:.1f}×)"))
        last = times.get(jobs[-1])
        cells.append(f"{base / last:.1f}×" if base and last else "-")
        rows.append(cells)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


# --------------------------------------------------------------------- main

ENV = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="", NO_COLOR="1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See bench/README.md.")
    ap.add_argument("--quick", action="store_true", help="1 repetition instead of 3")
    ap.add_argument("--reps", type=int, help="repetitions per command (median reported)")
    ap.add_argument("--data", type=Path, default=ROOT / "bench-data", help="data directory (default: bench-data/)")
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON ('-': stdout, no table)")
    ap.add_argument("--only", metavar="REGEX", help="only rows whose key (e.g. tfr.count.gz, limit.walk.notebook) matches")
    ap.add_argument("--tfr", type=Path, help="tfr binary to benchmark (default: build target/release/tfr)")
    ap.add_argument("--no-build", action="store_true", help="do not run cargo build for tfr")
    ap.add_argument("--venv", type=Path, default=ROOT / ".venv-tf", help="Python venv with tensorflow and tfrecord (default: .venv-tf)")
    ap.add_argument("--no-peers", action="store_true", help="skip TensorFlow and the tfrecord PyPI reader")
    ap.add_argument("--reader-python", type=Path, default=ROOT / "target" / "venv-reader" / "bin" / "python",
                    help="Python with the tfr-cli wheel (tfr_cli.TFRecordDataset), torch and tfrecord, for the reader rows "
                         "(default: target/venv-reader, as .ci/run makes it)")
    ap.add_argument("--tfdv-venv", type=Path, default=ROOT / ".venv-tfdv",
                    help="Python venv with tensorflow_data_validation, for the TFDV statistics row (default: .venv-tfdv)")
    ap.add_argument("--no-tfdv", action="store_true", help="skip the TFDV statistics row")
    ap.add_argument("--tfdv-budget", type=float, default=300.0,
                    help="seconds TFDV may take on the 1M file; slower, it runs on the first 100k records, scaled (default 300)")
    ap.add_argument("--peer-slice", type=int, default=100_000,
                    help="records of the 1M file the Python peers read, scaled up to 1M (0: all; default 100000)")
    ap.add_argument("--scaling", action="store_true",
                    help="instead: time to-jsonl, schema, stats, validate, verify-crc, cat, from-jsonl, count at each -j "
                         "and print the speed-up table (needs only python3 and tfr: use --tfr PATH --no-build)")
    ap.add_argument("--records", type=int, default=4_000_000, help="--scaling: records of the data (default 4000000)")
    ap.add_argument("--jobs", default="1,2,4,8,16", help="--scaling: the -j values (default 1,2,4,8,16)")
    ap.add_argument("--force-jobs", action="store_true", help="--scaling: also the -j values above the cores present")
    args = ap.parse_args()
    reps = args.reps or (1 if args.quick else 3)

    if args.scaling:
        tfr = args.tfr or ROOT / "target" / "release" / "tfr"
        if not args.tfr and not args.no_build:
            log("build: tfr (cargo build --release)")
            run_checked(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
        if not tfr.exists():
            log(f"no tfr binary at {tfr}")
            sys.exit(2)
        run_scaling(args, tfr)
        return

    # Build.
    log("build: bench/limits (release)")
    run_checked(["cargo", "build", "--release", "--quiet", "--manifest-path", str(LIMITS_DIR / "Cargo.toml")])
    build_note = ""
    tfr = args.tfr or ROOT / "target" / "release" / "tfr"
    if not args.tfr and not args.no_build:
        log("build: tfr (cargo build --release)")
        r = subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            if not tfr.exists():
                log(r.stderr)
                sys.exit(2)
            build_note = "cargo build --release FAILED; benchmarked the previous binary"
            log(f"build: WARNING {build_note}\n{r.stderr[-2000:]}")
    if not tfr.exists():
        log(f"no tfr binary at {tfr}")
        sys.exit(2)
    cmds = tfr_commands(tfr)
    log(f"tfr commands: {' '.join(sorted(cmds))}")

    manifest = ensure_data(args.data.resolve())
    venv_py = args.venv / "bin" / "python"
    if args.no_peers or not venv_py.exists():
        venv_py = None
        log("peers: skipped" + ("" if args.no_peers else f" (no {args.venv})"))

    tfdv_py = args.tfdv_venv / "bin" / "python"
    if args.no_tfdv or not tfdv_py.exists():
        tfdv_py = None
        log("tfdv: skipped" + ("" if args.no_tfdv else f" (no {args.tfdv_venv})"))

    tmp = Path(tempfile.mkdtemp(prefix="tfr-bench-"))
    try:
        reader_py = args.reader_python
        cases = build_cases(args.data.resolve(), tfr, cmds, venv_py, args.peer_slice, tmp, tfdv_py, args.tfdv_budget,
                            reader_py)
        if args.only:
            cases = [c for c in cases if re.search(args.only, c.key)]
        meta = {
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "git": subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True).stdout.strip(),
            "tfr": run_checked([str(tfr), "--version"]).strip(),
            "tfr_commands": sorted(cmds),
            "host": platform.node(), "cpus": os.cpu_count(), "machine": platform.machine(),
            "reps": reps, "peer_slice": args.peer_slice if venv_py else None,
            "loadavg_start": os.getloadavg(), "build_note": build_note,
            "data_sha256": {k: v["sha256"] for k, v in manifest["files"].items() if "/" not in k},
        }
        t0 = time.perf_counter()
        log(f"running {len(cases)} rows, {reps} repetition(s) each after a warm-up")
        for c in cases:
            run_case(c, reps, warmup=c.kind not in TIMED_INSIDE, tmp=tmp)
        meta["loadavg_end"] = os.getloadavg()
        meta["total_s"] = round(time.perf_counter() - t0, 1)
    finally:
        stop_http_servers()
        shutil.rmtree(tmp, ignore_errors=True)

    rows = evaluate(cases)
    if args.json:
        doc = json.dumps({"meta": meta, "rows": rows}, indent=1)
        if str(args.json) == "-":
            print(doc)
            return
        args.json.write_text(doc + "\n")
        log(f"wrote {args.json}")
    print(f"tfr benchmark — {meta['date']}  git {meta['git']}  {meta['cpus']} CPUs  reps={reps} (median)  "
          f"load {meta['loadavg_start'][0]:.2f} → {meta['loadavg_end'][0]:.2f}  {meta['total_s']} s")
    if build_note:
        print(f"WARNING: {build_note}")
    print()
    print_table(rows)
    print("\nMB/s is over the uncompressed TFRecord stream (JSONL text for from-jsonl); RSS is the child's peak (rusage);")
    print("CPU = (user+sys)/wall in cores; vs anchor = median / anchor median (1.00× = as fast as the limit loop).")
    if any(r["kind"] == "peer" for r in rows):
        print("Peers (TF, tfrecord PyPI): time of the Python loop after a 100-record warm-up, without interpreter start")
        print("and imports; their RSS is the whole process, TensorFlow included. TFDV: the generate_statistics_from_tfrecord")
        print("call (Beam DirectRunner), once; vs TF on the tfr stats rows = × faster than TFDV.")
    if any(r["status"] == "NOT MET" or r["status"] == "FAILED" for r in rows):
        print(f"targets: {sum(r['status'] == 'met' for r in rows)} met, "
              f"{sum(r['status'] == 'NOT MET' for r in rows)} NOT MET, {sum(r['status'] == 'FAILED' for r in rows)} FAILED")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks `tfr stats` and `tfr schema -f tfdv-schema` against TFDV 1.16.1.

An oracle run by hand (not by CI; it needs the TFDV venv). For the intact
Example fixtures of tests/data (notebook and its compressed copies, images,
edge) and a generated dataset (default 50,000 records written with
TensorFlow into a temporary directory: ints, floats with a few NaN, an
optional feature, categorical and high-cardinality strings, variable-length
lists, Unix timestamps):

1. runs TFDV's `generate_statistics_from_tfrecord` and
   `tfr stats -f tfdv-stats`, loads both with `tfdv.load_statistics`, and
   compares them feature by feature (matched by path step):
   - type; num_non_missing, num_missing, min/max_num_values,
     tot_num_values exactly; avg_num_values within 1e-6 relative;
   - numbers: mean, std_dev within 1e-6 relative (absolute 1e-6 × the
     largest finite |value| near zero); num_zeros, min, max exactly; median,
     the quantile histogram's boundaries and the values-per-record quantile
     histogram within TFDV's sketch rank error: their ranks in the true
     sorted data (decoded here with protobuf) differ by at most 1% of n, or
     the values are equal; NaN counts exactly; the histograms to the bit
     where TFDV's sketch was exact (see 4), else their bucket counts within
     2% of n of TFDV's;
   - strings: unique (exact under 65,536 distinct values, else within 2%,
     tfr's HyperLogLog), top_values (values and counts; values of equal
     count compared as sets, the cut at the last count checked against the
     true counts; past 65,536 distinct values tfr's Misra-Gries counts may be
     n/1001 short), avg_length within 1e-6; bytes stats where TFDV has them;
   Fields outside that list where tfr differs from TFDV (histogram counts
   where TFDV's sketch is not exact) are summarised under the table with
   `~` (every one with -v); they do not fail the check.
2. checks that `tfdv.load_stats_text` opens `tfr stats -f tfdv-stats-text`
   and reads the same proto as the binary file;
3. checks that `tfdv.infer_schema` on tfr's statistics equals
   `tfdv.infer_schema` on TFDV's (as protos, features and string domains
   compared by name), and that `tfr schema -f tfdv-schema`, loaded with
   `tfdv.load_schema_text`, equals `tfdv.infer_schema` on TFDV's statistics;
4. issue 28: one small dataset per item (the cases of
   tests/oracle/gen_tfdv_expected.py, written with TensorFlow, and 20,000
   distinct file names): `tfr stats -f tfdv-stats` equals TFDV's statistics
   in every field (tfr's media_type and the dataset name aside), schemas
   equal TFDV's and validate their own data, and `tfr validate` gives
   `tfdv.validate_statistics`'s FEATURE_TYPE_NOT_PRESENT. On every dataset,
   wherever TFDV's quantile sketch was exact (its histograms equal those
   its own quantiles_util makes from the exact boundaries of the data),
   tfr's num_values, standard and quantile histograms must equal TFDV's to
   the bit;
5. merges: the generated dataset in 3 shards, `tfr stats -f json` on each,
   `tfr stats --merge a --merge b --merge c -f tfdv-stats` must equal
   `tfr stats -f tfdv-stats` over the three shards at once (exactly, but
   mean / std_dev within 1e-9 relative), and `-j 1` must equal `-j 2`
   (exactly; on the shards and on the single file).

Fixtures TFDV cannot read (it picks the decompression from the file name:
.gz is GZIP, .deflate is zlib, anything else is plain) are given to TFDV as
a copy named after their real compression; tfr reads the original file.
SNAPPY files are left out (Beam cannot read TensorFlow's SNAPPY framing).
The truth (every value, to rank the quantiles) is decoded here with
protobuf from what tf.data reads.

Usage (from the repository root, after `cargo build --release`):

    .venv-tfdv/bin/python tests/oracle/tfdv_check.py [--tfr target/release/tfr]
        [--records 50000] [--only REGEX] [--keep DIR] [-v]

Prints a table per dataset, the mismatches under it, and a final PASS / FAIL
line; exit status 0 when every check passes, 1 otherwise.
"""

import argparse
import bisect
import contextlib
import json
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
warnings.filterwarnings("ignore")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# tests/oracle/snappy.py would shadow python-snappy, which Beam's fastavro imports.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
DATA = os.path.join(ROOT, "tests", "data")


@contextlib.contextmanager
def quiet_stderr():
    """TFDV, Beam and TensorFlow write pages of warnings to fd 2: keep them in a
    file, shown only if the block raises."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 2)
        try:
            yield
        except BaseException:
            sys.stderr.flush()
            os.dup2(saved, 2)
            log.seek(0)
            tail = log.read().decode(errors="replace").strip().splitlines()[-30:]
            print("\n".join(tail), file=sys.stderr)
            raise
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


with quiet_stderr():
    import numpy as np  # noqa: E402
    import tensorflow as tf  # noqa: E402
    import tensorflow_data_validation as tfdv  # noqa: E402
    from google.protobuf import text_format  # noqa: E402
    from tensorflow_metadata.proto.v0 import schema_pb2, statistics_pb2  # noqa: E402
for name in ("apache_beam", "tensorflow", "absl", "root"):
    logging.getLogger(None if name == "root" else name).setLevel(logging.ERROR)

FNS = statistics_pb2.FeatureNameStatistics
TYPE_NAMES = {FNS.INT: "INT", FNS.FLOAT: "FLOAT", FNS.STRING: "STRING", FNS.BYTES: "BYTES", FNS.STRUCT: "STRUCT"}
EXACT_DISTINCT = 65536  # tfr's distinct counts and top values are exact up to this many distinct values
RANK_EPS = 0.01  # TFDV's quantiles sketch: StatsOptions.epsilon


# ---------------------------------------------------------------------------
# Running TFDV and tfr
# ---------------------------------------------------------------------------

def tfdv_stats(path, out_dir):
    out = os.path.join(out_dir, "tfdv.stats.tfrecord")
    with quiet_stderr():
        tfdv.generate_statistics_from_tfrecord(path, output_path=out)
        return tfdv.load_statistics(out)


def run_tfr(tfr, args, out_path=None):
    """Runs tfr; stdout goes to out_path (or is returned). Raises on failure."""
    env = {"PATH": os.environ.get("PATH", ""), "NO_COLOR": "1"}
    with open(out_path, "wb") if out_path else contextlib.nullcontext() as fh:
        p = subprocess.run([tfr, *args], stdout=fh if out_path else subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, env=env)
    if p.returncode != 0:
        raise RuntimeError("tfr %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                    p.stderr.decode(errors="replace").strip()[-400:]))
    return p.stdout if not out_path else None


def tfr_stats(tfr, inputs, out_dir, tag, extra=()):
    path = os.path.join(out_dir, "tfr.%s.stats.tfrecord" % tag)
    run_tfr(tfr, ["stats", "-q", "-f", "tfdv-stats", *extra, *inputs], path)
    with quiet_stderr():
        return tfdv.load_statistics(path)


# ---------------------------------------------------------------------------
# The truth: every value, decoded with protobuf
# ---------------------------------------------------------------------------

class Truth:
    """Per feature: values per present record, numeric values (sorted, NaN
    apart), byte strings and their counts."""

    def __init__(self):
        self.counts = []
        self.nums = []
        self.nan = 0
        self.strs = {}

    def finish(self):
        self.counts.sort()
        self.nums.sort()
        self.scale = max([abs(x) for x in self.nums if math.isfinite(x)] or [1.0]) or 1.0


def read_truth(path, compression):
    feats = {}
    n = 0
    with quiet_stderr():
        records = [r.numpy() for r in tf.data.TFRecordDataset(path, compression_type=compression)]
    for r in records:
        n += 1
        ex = tf.train.Example.FromString(r)
        for name, f in ex.features.feature.items():
            t = feats.setdefault(name, Truth())
            kind = f.WhichOneof("kind")
            vals = list(getattr(f, kind).value) if kind else []
            if kind:  # a Feature with no kind set is missing to TFDV
                t.counts.append(len(vals))
            if kind == "bytes_list":
                for v in vals:
                    t.strs[v] = t.strs.get(v, 0) + 1
            else:
                for v in vals:
                    v = float(v) if kind == "float_list" else int(v)
                    if isinstance(v, float) and math.isnan(v):
                        t.nan += 1
                    else:
                        t.nums.append(v)
    for t in feats.values():
        t.finish()
    return n, feats


# ---------------------------------------------------------------------------
# Comparing two FeatureNameStatistics
# ---------------------------------------------------------------------------

def close(a, b, rel, abs_tol=0.0):
    if a == b or (math.isnan(a) and math.isnan(b)):
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_tol)


def rank_range(sorted_vals, v):
    return bisect.bisect_left(sorted_vals, v), bisect.bisect_right(sorted_vals, v)


def rank_gap(sorted_vals, a, b):
    """How many values of the data lie strictly between a and b (0 when equal):
    the distance between their rank ranges."""
    if a == b:
        return 0
    la, ha = rank_range(sorted_vals, a)
    lb, hb = rank_range(sorted_vals, b)
    return max(0, lb - ha, la - hb)


def fmt(x):
    if isinstance(x, float):
        return repr(x)
    if isinstance(x, bytes):
        return repr(x)[:60]
    return str(x)


class Cmp:
    def __init__(self, feature):
        self.feature = feature
        self.problems = []  # (field, tfr, tfdv, note)
        self.notes = []
        self.groups = {}  # group -> "ok" / "FAIL" / "-"
        self.soft = []  # (field, tfr, tfdv, note): differences in fields outside the compared set

    def differs(self, group, field, mine, theirs, note=""):
        """A difference from TFDV in a field the check does not hold tfr to."""
        self.soft.append((field, mine, theirs, note))
        if self.groups.get(group, "ok") == "ok":
            self.groups[group] = "differs"

    def mark(self, group, ok):
        cur = self.groups.get(group, "ok")
        self.groups[group] = "FAIL" if (not ok or cur == "FAIL") else cur

    def bad(self, group, field, mine, theirs, note=""):
        self.problems.append((field, mine, theirs, note))
        self.mark(group, False)

    def eq(self, group, field, mine, theirs):
        if mine == theirs or (isinstance(mine, float) and isinstance(theirs, float) and math.isnan(mine) and math.isnan(theirs)):
            self.mark(group, True)
        else:
            self.bad(group, field, mine, theirs)

    def near(self, group, field, mine, theirs, rel, abs_tol=0.0):
        if close(mine, theirs, rel, abs_tol):
            self.mark(group, True)
        else:
            scale = max(abs(mine), abs(theirs))
            self.bad(group, field, mine, theirs, "rel. diff %.3g" % (abs(mine - theirs) / scale) if scale and math.isfinite(scale) else "")

    def rank(self, group, field, data, mine, theirs, exact_value=None):
        gap = rank_gap(data, mine, theirs)
        allowed = RANK_EPS * len(data)
        if gap <= allowed:
            self.mark(group, True)
        else:
            note = "%d values lie between them (allowed %.0f of n=%d)" % (gap, allowed, len(data))
            if exact_value is not None:
                note += "; exact: %s" % fmt(exact_value)
            self.bad(group, field, mine, theirs, note)


def exact_quantile(data, q):
    """TFDV's rule, tfr's too while exact: the value of rank floor(q*n)."""
    if not data:
        return None
    return data[min(len(data) - 1, int(math.floor(q * len(data))))]


def stats_oneof(f):
    which = f.WhichOneof("stats")
    return which, getattr(f, which) if which else None


def compare_common(c, mine, theirs, truth):
    g = "common"
    for field in ("num_non_missing", "num_missing", "min_num_values", "max_num_values", "tot_num_values"):
        c.eq(g, "common_stats." + field, getattr(mine, field), getattr(theirs, field))
    c.near(g, "common_stats.avg_num_values", mine.avg_num_values, theirs.avg_num_values, 1e-6)
    hm, ht = mine.num_values_histogram, theirs.num_values_histogram
    if not hm.buckets and not ht.buckets:
        if hm != ht:
            c.differs(g, "num_values_histogram (empty)", text_format.MessageToString(hm, as_one_line=True),
                      text_format.MessageToString(ht, as_one_line=True))
        return
    if len(hm.buckets) != len(ht.buckets) or hm.type != ht.type:
        c.bad(g, "num_values_histogram", "%d buckets type %d" % (len(hm.buckets), hm.type),
              "%d buckets type %d" % (len(ht.buckets), ht.type))
        return
    counts = truth.counts if truth else []
    if truth and counts and ht == model_quantile_histogram(counts, 10):
        # TFDV's sketch was exact here: tfr must say the same, to the bit.
        c.eq(g, "num_values_histogram (TFDV exact)", text_format.MessageToString(hm, as_one_line=True),
             text_format.MessageToString(ht, as_one_line=True))
        return
    for i, (bm, bt) in enumerate(zip(hm.buckets, ht.buckets)):
        for side in ("low_value", "high_value"):
            c.rank(g, "num_values_histogram[%d].%s" % (i, side), counts, getattr(bm, side), getattr(bt, side))
        if not close(bm.sample_count, bt.sample_count, 1e-6):
            c.differs(g, "num_values_histogram[%d].sample_count" % i, bm.sample_count, bt.sample_count)


def compare_num(c, mine, theirs, truth):
    g = "numbers"
    data = truth.nums if truth else []
    tol = 1e-6 * (truth.scale if truth else 1.0)
    c.near(g, "mean", mine.mean, theirs.mean, 1e-6, tol)
    c.near(g, "std_dev", mine.std_dev, theirs.std_dev, 1e-6, tol)
    c.eq(g, "num_zeros", mine.num_zeros, theirs.num_zeros)
    c.eq(g, "min", mine.min, theirs.min)
    c.eq(g, "max", mine.max, theirs.max)
    g = "quantiles"
    c.rank(g, "median", data, mine.median, theirs.median, exact_quantile(data, 0.5))
    hists_m = {h.type: h for h in mine.histograms}
    hists_t = {h.type: h for h in theirs.histograms}
    if set(hists_m) != set(hists_t):
        names = statistics_pb2.Histogram.HistogramType.Name
        c.differs(g, "histograms", [names(x) for x in sorted(hists_m)], [names(x) for x in sorted(hists_t)])
    q = statistics_pb2.Histogram.QUANTILES
    if q in hists_m and q in hists_t:
        hm, ht = hists_m[q], hists_t[q]
        c.eq(g, "quantiles.num_nan", hm.num_nan, ht.num_nan)
        if len(hm.buckets) != len(ht.buckets):
            c.bad(g, "quantiles (buckets)", len(hm.buckets), len(ht.buckets))
        nb = len(ht.buckets)
        for i, (bm, bt) in enumerate(zip(hm.buckets, ht.buckets)):
            for side, qq in (("low_value", i / nb), ("high_value", (i + 1) / nb)):
                c.rank(g, "quantiles[%d].%s" % (i, side), data, getattr(bm, side), getattr(bt, side),
                       exact_quantile(data, qq))
            # TFDV's counts are the sketch's cumulative weights between the
            # boundaries (duplicate boundaries share theirs): within the rank
            # error at either end.
            allowed = 2 * RANK_EPS * len(data) + 1e-6
            if abs(bm.sample_count - bt.sample_count) > allowed:
                c.differs(g, "quantiles[%d].sample_count" % i, bm.sample_count, bt.sample_count,
                          "TFDV: the weight between the boundaries; ±%.2f would be its rank error" % allowed)
    s = statistics_pb2.Histogram.STANDARD
    if truth and data and s in hists_t and q in hists_t:
        std_model, q_model = model_numeric_histograms(data)
        exact = hists_t[s].buckets == std_model.buckets and hists_t[q].buckets == q_model.buckets
        if exact:
            # TFDV's sketch was exact here: both histograms to the bit.
            for kind, name in ((s, "standard"), (q, "quantiles")):
                hm_ = hists_m.get(kind, statistics_pb2.Histogram())
                c.eq("histogram", "histograms[%s] (TFDV exact)" % name,
                     text_format.MessageToString(hm_, as_one_line=True),
                     text_format.MessageToString(hists_t[kind], as_one_line=True))
            return
    if s in hists_m and s in hists_t:
        hm, ht = hists_m[s], hists_t[s]
        shape_m = [(b.low_value, b.high_value) for b in hm.buckets]
        shape_t = [(b.low_value, b.high_value) for b in ht.buckets]
        if len(shape_m) != len(shape_t) or not all(
                close(a, b, 1e-9) for x, y in zip(shape_m, shape_t) for a, b in zip(x, y)):
            c.differs("histogram", "histogram buckets",
                      "%d [%s, %s]" % (len(shape_m), fmt(shape_m[0][0]), fmt(shape_m[-1][1])) if shape_m else "0",
                      "%d [%s, %s]" % (len(shape_t), fmt(shape_t[0][0]), fmt(shape_t[-1][1])) if shape_t else "0")
        else:
            allowed = 2 * RANK_EPS * len(data) + 1e-6
            for i, (bm, bt) in enumerate(zip(hm.buckets, ht.buckets)):
                if abs(bm.sample_count - bt.sample_count) > allowed:
                    c.differs("histogram", "histogram[%d].sample_count" % i, bm.sample_count, bt.sample_count,
                              "[%s, %s]" % (fmt(bm.low_value), fmt(bm.high_value)))
        if hm.num_nan != ht.num_nan:
            c.differs("histogram", "histogram.num_nan", hm.num_nan, ht.num_nan)


def exact_bounds(data, k):
    """TFDV's sketch while exact (GetQuantilesAndCumulativeWeights(k)): the
    value of rank i*n//k (the last n-1) and the count of values at or below it."""
    n = len(data)
    values, weights = [], []
    for i in range(k + 1):
        v = float(data[min(i * n // k, n - 1)])
        values.append(v)
        weights.append(float(bisect.bisect_right(data, v)))
    return np.array(values, dtype=np.float64), np.array(weights, dtype=np.float64)


def model_quantile_histogram(data, k):
    """TFDV's quantiles histogram of sorted data when its sketch is exact."""
    from tensorflow_data_validation.utils import quantiles_util
    return quantiles_util.generate_quantiles_histogram(*exact_bounds(data, k))


def model_numeric_histograms(data):
    """TFDV's standard and quantiles histograms of sorted numbers (infinities
    included, NaN not) when its sketch is exact, made by TFDV's own code."""
    from tensorflow_data_validation.utils import quantiles_util
    qv, qc = exact_bounds(data, 1000)
    finite = [float(x) for x in data if math.isfinite(x)]
    fmin, fmax = (min(finite), max(finite)) if finite else (float("inf"), float("-inf"))
    pos_inf = float(sum(1 for x in data if x == float("inf")))
    std = quantiles_util.generate_equi_width_histogram(qv, qc, fmin, fmax, 10, pos_inf)
    quant = quantiles_util.generate_quantiles_histogram(*quantiles_util.rebin_quantiles(qv, qc, 100))
    return std, quant


def compare_top(c, group, field, mine, theirs, truth, sketched, n_values):
    """mine / theirs: lists of (value bytes, count)."""
    true = truth.strs if truth else {}
    err = n_values / 1001.0 if sketched else 0.0
    ok = True
    for v, k in mine:
        t = true.get(v)
        if t is None and theirs and v in dict(theirs):  # TFDV's own placeholders
            t = dict(theirs)[v]
        if t is None:
            c.bad(group, "%s %s" % (field, fmt(v)), k, None, "not a value of the data")
            ok = False
        elif k > t or t - k > err:
            c.bad(group, "%s[%s].count" % (field, fmt(v)), k, t, "true count %d%s" % (t, ", allowed n/1001 short" if sketched else ""))
            ok = False
    if not sketched:
        if len(mine) != len(theirs):
            c.bad(group, field + " (length)", len(mine), len(theirs))
            ok = False
        km = sorted((k for _, k in mine), reverse=True)
        kt = sorted((k for _, k in theirs), reverse=True)
        if km != kt:
            c.bad(group, field + " (counts)", km, kt)
            ok = False
        elif km:
            last = km[-1]
            sm = {v for v, k in mine if k > last}
            st = {v for v, k in theirs if k > last}
            if sm != st:
                c.bad(group, field + " (values above the last count)", sorted(sm - st), sorted(st - sm))
                ok = False
            # at the last count: any values of that true count (ties may be cut differently)
            for v, k in mine:
                if k == last and true and v != b"__BYTES_VALUE__" and true.get(v) != last:
                    c.bad(group, "%s[%s]" % (field, fmt(v)), k, true.get(v), "not a value of that count")
                    ok = False
        if [k for _, k in mine] != sorted((k for _, k in mine), reverse=True):
            c.bad(group, field + " (order)", [k for _, k in mine], "descending counts")
            ok = False
    else:
        # Every value TFDV lists whose count is clear of tfr's error must be there.
        if mine:
            floor_m = min(k for _, k in mine)
            have = {v for v, _ in mine}
            for v, k in theirs:
                if k > floor_m + 2 * err and v not in have:
                    c.bad(group, "%s %s" % (field, fmt(v)), None, k, "missing from tfr's list (sketch error %.0f)" % err)
                    ok = False
        elif theirs:
            c.bad(group, field, [], theirs[:3])
            ok = False
        c.notes.append("%s: tfr %d values (Misra-Gries sketch), TFDV %d" % (field, len(mine), len(theirs)))
    if ok:
        c.mark(group, True)


def compare_string(c, mine, theirs, truth, num_values):
    g = "strings"
    sketched = theirs.unique > EXACT_DISTINCT or mine.unique > EXACT_DISTINCT
    if sketched:
        c.near(g, "unique", float(mine.unique), float(theirs.unique), 0.02)
        c.notes.append("unique: tfr %d (sketch), TFDV %d, true %d" % (mine.unique, theirs.unique, len(truth.strs) if truth else -1))
    else:
        c.eq(g, "unique", mine.unique, theirs.unique)
    c.near(g, "avg_length", mine.avg_length, theirs.avg_length, 1e-6)
    top_m = [(t.value.encode(), int(t.frequency)) for t in mine.top_values]
    top_t = [(t.value.encode(), int(t.frequency)) for t in theirs.top_values]
    compare_top(c, g, "top_values", top_m, top_t, truth, sketched, num_values)
    rh_m = [(b.label.encode(), int(b.sample_count)) for b in mine.rank_histogram.buckets]
    rh_t = [(b.label.encode(), int(b.sample_count)) for b in theirs.rank_histogram.buckets]
    if rh_m or rh_t:
        compare_top(c, "rank_hist", "rank_histogram", rh_m, rh_t, truth, sketched, num_values)


def compare_bytes(c, mine, theirs):
    g = "bytes"
    c.eq(g, "bytes.unique", mine.unique, theirs.unique)
    for field in ("avg_num_bytes", "min_num_bytes", "max_num_bytes"):
        c.near(g, "bytes." + field, getattr(mine, field), getattr(theirs, field), 1e-6)
    c.eq(g, "bytes.max_num_bytes_int", mine.max_num_bytes_int, theirs.max_num_bytes_int)


def feature_key(f):
    return tuple(f.path.step) if f.path.step else (f.name,)


def compare_dataset(mine_list, theirs_list, truth):
    """Returns (rows, dataset-level problems)."""
    problems = []
    if len(mine_list.datasets) != 1 or len(theirs_list.datasets) != 1:
        problems.append("datasets: tfr %d, TFDV %d" % (len(mine_list.datasets), len(theirs_list.datasets)))
        return [], problems
    dm, dt = mine_list.datasets[0], theirs_list.datasets[0]
    if dm.num_examples != dt.num_examples:
        problems.append("num_examples: tfr %d, TFDV %d" % (dm.num_examples, dt.num_examples))
    fm = {feature_key(f): f for f in dm.features}
    ft = {feature_key(f): f for f in dt.features}
    for f in dm.features:
        if not f.path.step:
            problems.append("a tfr feature has no path (name %r, %s): TFDV writes path { step: %r }"
                            % (f.name, TYPE_NAMES.get(f.type), f.name))
    for k in sorted(set(fm) - set(ft)):
        problems.append("feature %s: only in tfr's statistics (%s)" % ("/".join(k), TYPE_NAMES.get(fm[k].type)))
    for k in sorted(set(ft) - set(fm)):
        problems.append("feature %s: only in TFDV's statistics (%s)" % ("/".join(k), TYPE_NAMES.get(ft[k].type)))
    rows = []
    for k in sorted(set(fm) & set(ft)):
        m, t = fm[k], ft[k]
        tr = truth.get(k[0]) if truth else None
        c = Cmp("/".join(k))
        c.eq("type", "type", TYPE_NAMES.get(m.type, m.type), TYPE_NAMES.get(t.type, t.type))
        wm, sm = stats_oneof(m)
        wt, st = stats_oneof(t)
        if wm != wt:
            c.bad("type", "stats", wm, wt)
        elif sm is not None:
            compare_common(c, sm.common_stats, st.common_stats, tr)
            if wm == "num_stats":
                compare_num(c, sm, st, tr)
            elif wm == "string_stats":
                compare_string(c, sm, st, tr, st.common_stats.tot_num_values)
            elif wm == "bytes_stats":
                compare_bytes(c, sm, st)
        rows.append((c, TYPE_NAMES.get(m.type, m.type), TYPE_NAMES.get(t.type, t.type), wt))
    return rows, problems


GROUPS = ["type", "common", "numbers", "quantiles", "histogram", "strings", "rank_hist", "bytes"]


def print_rows(rows, verbose):
    name_w = max([len(repr(c.feature)) for c, *_ in rows] + [7])
    head = "  %-*s  %-13s " % (name_w, "feature", "type tfr/TFDV") + " ".join("%-9s" % g for g in GROUPS) + " result"
    print(head)
    failed = 0
    for c, tm, tt, _ in rows:
        cells = [c.groups.get(g, "-") for g in GROUPS]
        ok = not c.problems
        failed += not ok
        shown = c.feature if c.feature.isprintable() and c.feature.strip() == c.feature and c.feature else repr(c.feature)
        print("  %-*s  %-13s " % (name_w, shown, tm if tm == tt else "%s/%s" % (tm, tt))
              + " ".join("%-9s" % x for x in cells) + " " + ("ok" if ok else "FAIL (%d)" % len(c.problems)))
    for c, *_ in rows:
        for field, mine, theirs, note in c.problems[: (None if verbose else 12)]:
            print("    %s: %s: tfr %s, TFDV %s%s" % (c.feature, field, fmt(mine), fmt(theirs), ("  (" + note + ")") if note else ""))
        if len(c.problems) > 12 and not verbose:
            print("    %s: ... %d more (-v shows all)" % (c.feature, len(c.problems) - 12))
        if verbose:
            for field, mine, theirs, note in c.soft:
                print("    ~ %s: %s: tfr %s, TFDV %s%s" % (c.feature, field, fmt(mine), fmt(theirs), ("  (" + note + ")") if note else ""))
            for n in c.notes:
                print("    %s: note: %s" % (c.feature, n))
    return failed


# ---------------------------------------------------------------------------
# Schemas
# ---------------------------------------------------------------------------

def canonical_schema(schema):
    s = schema_pb2.Schema()
    s.CopyFrom(schema)
    feats = sorted(s.feature, key=lambda f: f.name)
    doms = sorted(s.string_domain, key=lambda d: d.name)
    del s.feature[:]
    del s.string_domain[:]
    s.feature.extend(feats)
    s.string_domain.extend(doms)
    return s


def schema_diff(mine, theirs):
    """Lines naming what differs between two schemas (by feature name)."""
    a, b = canonical_schema(mine), canonical_schema(theirs)
    if a == b:
        return []
    out = []
    fa = {f.name: f for f in a.feature}
    fb = {f.name: f for f in b.feature}
    for n in sorted(set(fa) | set(fb)):
        x, y = fa.get(n), fb.get(n)
        if x != y:
            tx = text_format.MessageToString(x, as_one_line=True) if x else "(absent)"
            ty = text_format.MessageToString(y, as_one_line=True) if y else "(absent)"
            out.append("feature %r:\n        tfr:  %s\n        TFDV: %s" % (n, tx, ty))
    da = {d.name: d for d in a.string_domain}
    db = {d.name: d for d in b.string_domain}
    for n in sorted(set(da) | set(db)):
        x, y = da.get(n), db.get(n)
        if x != y:
            tx = text_format.MessageToString(x, as_one_line=True) if x else "(absent)"
            ty = text_format.MessageToString(y, as_one_line=True) if y else "(absent)"
            out.append("string_domain %r:\n        tfr:  %s\n        TFDV: %s" % (n, tx[:300], ty[:300]))
    for field in ("default_environment", "dataset_constraints", "sparse_feature", "weighted_feature", "float_domain", "int_domain"):
        x, y = getattr(a, field), getattr(b, field)
        if x != y:
            out.append("%s: tfr %s, TFDV %s" % (field, x, y))
    return out or ["(protos differ elsewhere)"]


# ---------------------------------------------------------------------------
# Protos compared field by field (merge, -j)
# ---------------------------------------------------------------------------

def proto_diff(a, b, path="", fp_fields=(), fp_rel=0.0, out=None):
    """Differences between two messages of one type; doubles named in fp_fields
    may differ by fp_rel relative."""
    out = [] if out is None else out
    fields = {fd.name: fd for fd, _ in a.ListFields()}
    fields.update({fd.name: fd for fd, _ in b.ListFields()})
    for name, fd in sorted(fields.items()):
        va, vb = getattr(a, name), getattr(b, name)
        p = "%s.%s" % (path, name) if path else name
        repeated = fd.label == fd.LABEL_REPEATED
        if fd.type == fd.TYPE_MESSAGE:
            if repeated:
                if len(va) != len(vb):
                    out.append((p, "%d items" % len(va), "%d items" % len(vb)))
                    continue
                for i, (x, y) in enumerate(zip(va, vb)):
                    step = ""
                    if hasattr(x, "path") and x.path.step:
                        step = "/".join(x.path.step)
                    proto_diff(x, y, "%s[%s]" % (p, step or i), fp_fields, fp_rel, out)
            else:
                proto_diff(va, vb, p, fp_fields, fp_rel, out)
        else:
            xs, ys = (list(va), list(vb)) if repeated else ([va], [vb])
            if len(xs) != len(ys):
                out.append((p, xs, ys))
                continue
            for x, y in zip(xs, ys):
                if x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y)):
                    continue
                if name in fp_fields and close(x, y, fp_rel):
                    continue
                out.append((p, x, y))
    return out


# ---------------------------------------------------------------------------
# The generated dataset
# ---------------------------------------------------------------------------

def category_counts(n):
    """30 categories with set counts: ties in the middle and at the 20th / 21st
    place (the cut of the top 20), the rest to the first."""
    counts = [0] * 30
    base = [int(n * 0.2 / (k + 1)) for k in range(30)]
    base[3] = base[4]  # a tie inside the top 20
    base[19] = base[20] = base[18] - 7  # a tie across the cut
    base[25] = base[26] = base[27]
    counts[1:] = base[1:]
    counts[0] = n - sum(counts[1:])
    assert counts[0] > counts[1]
    return counts


def generate(dirpath, n, seed=20240601):
    rng = np.random.default_rng(seed)
    cats = ["cat_%02d" % k for k in range(30)]
    cat_col = np.repeat(np.arange(30), category_counts(n))
    rng.shuffle(cat_col)
    words = np.array(["w%03d" % k for k in range(500)])
    wp = 1.0 / np.arange(1, 501) ** 1.1
    wp /= wp.sum()
    up = 1.0 / np.arange(1, 30001) ** 1.2
    up /= up.sum()
    users = rng.choice(30000, size=n, p=up)
    label = (rng.random(n) < 0.3).astype(np.int64)
    age = rng.integers(18, 91, size=n)
    ts = 1_700_000_000 + rng.integers(0, 30 * 86400, size=n)
    income = rng.lognormal(10.5, 0.8, size=n).astype(np.float32)
    income[rng.random(n) < 0.002] = np.nan
    score_present = rng.random(n) < 0.7
    score = rng.normal(0.0, 1.0, size=n).astype(np.float32)
    clicks = rng.poisson(0.7, size=n)
    ntok = rng.integers(0, 7, size=n)
    nids = rng.integers(1, 11, size=n)
    emb = rng.normal(0.0, 1.0, size=(n, 4)).astype(np.float32)

    def i64(v):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=v))

    def f32(v):
        return tf.train.Feature(float_list=tf.train.FloatList(value=v))

    def byt(v):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))

    records = []
    for i in range(n):
        feat = {
            "label": i64([int(label[i])]),
            "age": i64([int(age[i])]),
            "timestamp": i64([int(ts[i])]),
            "income": f32([float(income[i])]),
            "clicks": i64([int(clicks[i])]),
            "category": byt([cats[cat_col[i]].encode()]),
            "user_id": byt([b"u%06d" % users[i]]),
            "tokens": byt([w.encode() for w in rng.choice(words, size=ntok[i], p=wp)]),
            "ids": i64([int(x) for x in rng.integers(0, 1_000_000, size=nids[i])]),
            "embedding": f32([float(x) for x in emb[i]]),
        }
        if score_present[i]:
            feat["score"] = f32([float(score[i])])
        records.append(tf.train.Example(features=tf.train.Features(feature=feat)).SerializeToString())
    whole = os.path.join(dirpath, "generated.tfrecord")
    with tf.io.TFRecordWriter(whole) as w:
        for r in records:
            w.write(r)
    cuts = [0, n * 32 // 100, n * 65 // 100, n]
    shards = []
    for s in range(3):
        p = os.path.join(dirpath, "shard-%05d-of-00003.tfrecord" % s)
        with tf.io.TFRecordWriter(p) as w:
            for r in records[cuts[s]:cuts[s + 1]]:
                w.write(r)
        shards.append(p)
    return whole, shards


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

TFDV_SUFFIX = {"": ".tfrecord", "GZIP": ".tfrecord.gz", "ZLIB": ".tfrecord.deflate"}


def tfdv_readable(path, compression, tmp):
    """A name TFDV reads: Beam picks the decompression from the suffix."""
    want = TFDV_SUFFIX[compression]
    if compression == "" and not path.endswith(".gz") and not path.endswith(".deflate"):
        return path, ""
    if compression == "GZIP" and path.endswith(".gz"):
        return path, ""
    copy = os.path.join(tmp, "tfdv_copy" + want)
    shutil.copyfile(path, copy)
    return copy, "TFDV reads a copy named *%s" % want


class Report:
    def __init__(self):
        self.failures = []

    def check(self, ok, what, detail=""):
        print("  %-58s %s%s" % (what, "ok" if ok else "FAIL", ("  " + detail) if detail else ""))
        if not ok:
            self.failures.append(what)
        return ok


def check_dataset(args, rep, label, tfr_inputs, tfdv_input, compression, note, schema_checks=True):
    print()
    print("== %s: %s%s" % (label, ", ".join(os.path.relpath(p, ROOT) if p.startswith(ROOT) else os.path.basename(p)
                                             for p in tfr_inputs), ("  (" + note + ")") if note else ""))
    d = tempfile.mkdtemp(dir=args.tmp, prefix=label + ".")
    try:
        theirs = tfdv_stats(tfdv_input, d)
    except Exception as e:  # noqa: BLE001
        rep.check(False, "%s: TFDV generate_statistics_from_tfrecord" % label, str(e)[:200])
        return
    try:
        mine = tfr_stats(args.tfr, tfr_inputs, d, "bin")
    except Exception as e:  # noqa: BLE001
        rep.check(False, "%s: tfr stats -f tfdv-stats" % label, str(e)[:300])
        return
    n, truth = read_truth(tfdv_input, compression)
    print("  %d records; TFDV %d features, tfr %d" % (n, len(theirs.datasets[0].features) if theirs.datasets else 0,
                                                    len(mine.datasets[0].features) if mine.datasets else 0))
    rows, problems = compare_dataset(mine, theirs, truth)
    failed = print_rows(rows, args.verbose)
    for p in problems:
        print("    " + p)
    kinds = {}
    for c, *_ in rows:
        for field, a, b, _ in c.soft:
            kind = re.sub(r"\[\d+\]", "[i]", field)
            kinds.setdefault(kind, []).append((c.feature, field, a, b))
    for kind, items in sorted(kinds.items()):
        feats = sorted({x[0] for x in items})
        f, field, a, b = items[0]
        print("    ~ differs from TFDV (not compared): %s in %d feature(s) (%s), e.g. %s %s: tfr %s, TFDV %s"
              % (kind, len(feats), ", ".join(repr(x) if not x.isprintable() or not x else x for x in feats[:4])
                 + (", ..." if len(feats) > 4 else ""), f, field, fmt(a), fmt(b)))
    rep.check(not failed and not problems, "%s: statistics vs TFDV" % label,
              "%d features" % len(rows) if not failed and not problems else
              "%d of %d features differ%s" % (failed, len(rows), "; %d dataset problems" % len(problems) if problems else ""))

    # The text format.
    text_path = os.path.join(d, "tfr.stats.pbtxt")
    try:
        run_tfr(args.tfr, ["stats", "-q", "-f", "tfdv-stats-text", *tfr_inputs], text_path)
        with quiet_stderr():
            text = tfdv.load_stats_text(text_path)
        diffs = proto_diff(text, mine)
        rep.check(not diffs, "%s: tfdv.load_stats_text(tfdv-stats-text) == binary" % label,
                  "; ".join("%s: text %s, binary %s" % x for x in diffs[:3]))
    except Exception as e:  # noqa: BLE001
        rep.check(False, "%s: tfdv.load_stats_text(tfdv-stats-text)" % label, str(e).strip().splitlines()[-1][:300])

    if not schema_checks:
        return
    # Schemas inferred from either statistics.
    with quiet_stderr():
        s_theirs = tfdv.infer_schema(theirs)
    try:
        with quiet_stderr():
            s_mine = tfdv.infer_schema(mine)
        diff = schema_diff(s_mine, s_theirs)
    except Exception as e:  # noqa: BLE001
        diff = ["tfdv.infer_schema(tfr's statistics) raised %r" % e]
    rep.check(not diff, "%s: infer_schema(tfr stats) == infer_schema(TFDV)" % label,
              "" if not diff else "%d differences" % len(diff))
    for line in diff[:10]:
        print("      " + line)
    # tfr's own schema inference.
    schema_path = os.path.join(d, "tfr.schema.pbtxt")
    try:
        run_tfr(args.tfr, ["schema", "-q", "-f", "tfdv-schema", *tfr_inputs], schema_path)
        with quiet_stderr():
            s_tfr = tfdv.load_schema_text(schema_path)
        diff = schema_diff(s_tfr, s_theirs)
        rep.check(not diff, "%s: tfr schema -f tfdv-schema == infer_schema(TFDV)" % label,
                  "" if not diff else "%d differences" % len(diff))
        for line in diff[:10]:
            print("      " + line)
    except Exception as e:  # noqa: BLE001
        with open(schema_path, errors="replace") as fh:
            head = fh.read(120).replace("\n", " ")
        rep.check(False, "%s: tfr schema -f tfdv-schema" % label,
                  "%s; output starts %r" % (str(e).strip().splitlines()[-1][:200], head))


def check_merge(args, rep, whole, shards):
    print()
    print("== merge and -j: %d shards of the generated dataset" % len(shards))
    d = tempfile.mkdtemp(dir=args.tmp, prefix="merge.")
    saved = []
    for i, s in enumerate(shards):
        p = os.path.join(d, "part%d.json" % i)
        run_tfr(args.tfr, ["stats", "-q", "-f", "json", s], p)
        saved.append(p)
    merge_args = [x for p in saved for x in ("--merge", p)]
    merged = tfr_stats(args.tfr, [], d, "merged", merge_args)
    at_once = tfr_stats(args.tfr, shards, d, "at_once")
    at_once_j1 = tfr_stats(args.tfr, shards, d, "at_once_j1", ["-j", "1"])
    at_once_j2 = tfr_stats(args.tfr, shards, d, "at_once_j2", ["-j", "2"])
    whole_j1 = tfr_stats(args.tfr, [whole], d, "whole_j1", ["-j", "1"])
    whole_j2 = tfr_stats(args.tfr, [whole], d, "whole_j2", ["-j", "2"])

    def features_only(lst):
        out = statistics_pb2.DatasetFeatureStatisticsList()
        out.CopyFrom(lst)
        for ds in out.datasets:
            ds.name = ""
        return out, [ds.name for ds in lst.datasets]

    m, m_names = features_only(merged)
    a, a_names = features_only(at_once)
    # Exact parts merge exactly (top values and distinct counts are exact
    # up to 65,536 distinct values: every feature here); what a t-digest
    # gives (medians, histogram bounds and counts, past 4,096 distinct
    # numbers) depends on the merge order: those are held to their bounds
    # against the data instead.
    sketched = re.compile(r"\.(median|histograms\[\d+\])")
    diffs = [x for x in proto_diff(m, a, fp_fields=("mean", "std_dev"), fp_rel=1e-9) if not sketched.search(x[0])]
    rep.check(not diffs, "--merge of 3 saved JSON == the 3 shards at once (exact parts)",
              "; ".join("%s: merged %s, at once %s" % (p, fmt(x), fmt(y)) for p, x, y in diffs[:4])
              + (" (+%d more)" % (len(diffs) - 4) if len(diffs) > 4 else ""))
    _, truth = read_truth(whole, "")
    rows, problems = compare_dataset(merged, at_once, truth)
    bad = [c for c, *_ in rows if c.problems]
    rep.check(not bad and not problems, "--merge == the shards at once, sketched parts within the rank bound",
              "; ".join("%s: %s" % (c.feature, c.problems[0][:2]) for c in bad[:3]) + "; ".join(problems[:2]))
    if m_names != a_names:
        print("      (dataset names: merged %s, at once %s; not compared)" % (m_names, a_names))
    for what, x, y in (("-j 1 == -j 2 (3 shards)", at_once_j1, at_once_j2), ("-j 1 == -j 2 (one file)", whole_j1, whole_j2),
                       ("default -j == -j 1 (3 shards)", at_once, at_once_j1)):
        diffs = proto_diff(x, y)
        rep.check(not diffs, what, "; ".join("%s: %s vs %s" % (p, fmt(u), fmt(v)) for p, u, v in diffs[:4])
                  + (" (+%d more)" % (len(diffs) - 4) if len(diffs) > 4 else ""))


# ---------------------------------------------------------------------------
# Issue 28: one small dataset per item, held to TFDV field for field
# ---------------------------------------------------------------------------

def issue28_cases():
    """The cases of tests/oracle/gen_tfdv_expected.py (the committed fixtures
    of tests/data/tfdv/issue28 and issue47 come from them), plus 20,000
    distinct file names (item 9)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "gen_tfdv_expected", os.path.join(ROOT, "tests", "oracle", "gen_tfdv_expected.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    cases = gen.issue28_cases()
    # Issue 47: long all-distinct text and blobs, field 2 in a file taken
    # for SequenceExamples (tests/data/tfdv/issue47).
    cases.update(gen.issue47_cases())
    cases["file_names_20000"] = ([gen.example(file=("b", ["img_%06d.jpg" % i])) for i in range(20000)], True)
    return gen, cases


def without_tfr_extras(stats):
    """tfr's statistics less what TFDV does not write (the dataset's name,
    tfr's custom_stats media_type)."""
    out = statistics_pb2.DatasetFeatureStatisticsList()
    out.CopyFrom(stats)
    for ds in out.datasets:
        ds.name = ""
        for f in ds.features:
            keep = [x for x in f.custom_stats if x.name != "media_type"]
            del f.custom_stats[:]
            f.custom_stats.extend(keep)
    return out


def check_issue28(args, rep):
    print()
    print("== issue 28: one dataset per item, tfr's TFDV formats against TFDV field for field")
    d = tempfile.mkdtemp(dir=args.tmp, prefix="issue28.")
    with quiet_stderr():
        gen, cases = issue28_cases()
    from tensorflow_metadata.proto.v0 import anomalies_pb2
    for name, (records, with_schema) in cases.items():
        path = os.path.join(d, name + ".tfrecord")
        with quiet_stderr():
            with tf.io.TFRecordWriter(path) as w:
                for r in records:
                    w.write(r)
        theirs = tfdv_stats(path, tempfile.mkdtemp(dir=d))
        for ds in theirs.datasets:
            ds.name = ""
        try:
            mine = without_tfr_extras(tfr_stats(args.tfr, [path], d, name))
        except Exception as e:  # noqa: BLE001
            rep.check(False, "%s: tfr stats" % name, str(e)[:300])
            continue
        diffs = proto_diff(canonical_stats(mine), canonical_stats(theirs))
        rep.check(not diffs, "%s: tfdv-stats == TFDV's, every field" % name,
                  "; ".join("%s: tfr %s, TFDV %s" % (p, fmt(x), fmt(y)) for p, x, y in diffs[:3])
                  + (" (+%d more)" % (len(diffs) - 3) if len(diffs) > 3 else ""))
        if not with_schema:
            continue
        with quiet_stderr():
            diff = schema_diff(tfdv.infer_schema(mine), tfdv.infer_schema(theirs))
        rep.check(not diff, "%s: infer_schema(tfr stats) == infer_schema(TFDV)" % name, "; ".join(diff[:2])[:300])
        schema_path = os.path.join(d, name + ".schema.pbtxt")
        run_tfr(args.tfr, ["schema", "-q", "-f", "tfdv-schema", path], schema_path)
        with quiet_stderr():
            diff = schema_diff(tfdv.load_schema_text(schema_path), tfdv.infer_schema(theirs))
        rep.check(not diff, "%s: tfr schema -f tfdv-schema == infer_schema(TFDV)" % name, "; ".join(diff[:2])[:300])
        p = subprocess.run([args.tfr, "validate", "-q", "--schema", schema_path, path], capture_output=True)
        rep.check(p.returncode == 0, "%s: tfr validate on its own schema's data: exit 0" % name,
                  p.stderr.decode(errors="replace")[-300:])
    # Item 2: a schema feature present only as empty Features.
    path = os.path.join(d, "empty_feature.tfrecord")
    schema = schema_pb2.Schema()
    text_format.Parse('feature { name: "x" type: INT presence { min_fraction: 1.0 min_count: 1 } } '
                      'feature { name: "y" type: INT presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }',
                      schema)
    schema_path = os.path.join(d, "empty_feature.required.pbtxt")
    with open(schema_path, "w") as fh:
        fh.write(text_format.MessageToString(schema))
    with quiet_stderr():
        anomalies = tfdv.validate_statistics(tfdv_stats(path, tempfile.mkdtemp(dir=d)), schema)
    want = sorted((k, anomalies_pb2.AnomalyInfo.Type.Name(r.type))
                  for k, v in anomalies.anomaly_info.items() for r in v.reason)
    p = subprocess.run([args.tfr, "validate", "-q", "--json", "--schema", schema_path, path], capture_output=True)
    got = sorted((a["feature"], a["type"]) for a in json.loads(p.stdout)["anomalies"]) if p.stdout else p.stderr
    rep.check(got == want, "empty_feature: tfr validate == tfdv.validate_statistics", "tfr %s, TFDV %s" % (got, want))


def canonical_stats(stats):
    """Features sorted by path (TFDV's order follows its decoder's map)."""
    out = statistics_pb2.DatasetFeatureStatisticsList()
    out.CopyFrom(stats)
    for ds in out.datasets:
        feats = sorted(ds.features, key=lambda f: list(f.path.step))
        del ds.features[:]
        ds.features.extend(feats)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.path.join(ROOT, "target", "release", "tfr")
    ap.add_argument("--tfr", default=default, help="the tfr binary (default: target/release/tfr)")
    ap.add_argument("--records", type=int, default=50_000, help="records of the generated dataset (default 50000)")
    ap.add_argument("--only", metavar="REGEX", help="only the datasets whose label matches (notebook, images, edge, issue28, generated, merge, ...)")
    ap.add_argument("--keep", metavar="DIR", help="keep the generated data and statistics in DIR")
    ap.add_argument("-v", "--verbose", action="store_true", help="every mismatch and the sketch notes")
    args = ap.parse_args()
    print("tfr: %s (%s); TFDV %s, TensorFlow %s" % (args.tfr, run_tfr(args.tfr, ["--version"]).decode().strip(),
                                                   tfdv.__version__, tf.__version__))
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        args.tmp = args.keep
    else:
        args.tmp = tempfile.mkdtemp(prefix="tfdv_check.")
    rep = Report()
    want = (lambda label: re.search(args.only, label)) if args.only else (lambda label: True)
    try:
        with open(os.path.join(DATA, "manifest.json")) as fh:
            manifest = json.load(fh)
        chosen = {"notebook", "notebook_gzip", "notebook_zlib", "notebook_gz_named", "notebook_plain_named",
                  "notebook_zlib_named", "concat_gzip", "images", "edge", "base20"}
        for f in manifest["fixtures"]:
            if f["name"] not in chosen or not want(f["name"]):
                continue
            path = os.path.join(DATA, f["file"])
            tfdv_path, note = tfdv_readable(path, f["tf_compression"], tempfile.mkdtemp(dir=args.tmp))
            check_dataset(args, rep, f["name"], [path], tfdv_path, f["tf_compression"], note)
        if want("issue28"):
            check_issue28(args, rep)
        if want("generated") or want("merge"):
            gen_dir = tempfile.mkdtemp(dir=args.tmp, prefix="generated.")
            with quiet_stderr():
                whole, shards = generate(gen_dir, args.records)
            if want("generated"):
                check_dataset(args, rep, "generated", [whole], whole, "", "%d records written with TensorFlow" % args.records)
            if want("merge"):
                check_merge(args, rep, whole, shards)
    finally:
        if not args.keep:
            shutil.rmtree(args.tmp, ignore_errors=True)
    print()
    if rep.failures:
        print("FAIL: %d check(s) failed: %s" % (len(rep.failures), "; ".join(rep.failures)))
        return 1
    print("PASS: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

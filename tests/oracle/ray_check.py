"""tfr_cli.ray.read_tfrecords on a local Ray cluster (issue 31), run by
tests/cli/ray.rs with a Python that has Ray Data and pyarrow:

    python tests/oracle/ray_check.py --tfr target/debug/tfr

- typed columns whose values are tfr to-jsonl's, read in several parts;
- columns= and where= select features and records;
- a damaged file: one exception on the driver naming the file and record;
- stats over 64 shards fanned out as Ray tasks with --part, merged with
  `tfr stats --merge`, equal one local `tfr stats`;
- text="binary", order="input": what ray.data.read_tfrecords gives.

Prints "all checks passed" at the end.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))


def same_but_rounding(a: str, b: str) -> None:
    """Statistics equal but for the last bits of sums (merged in another
    order than one pass adds)."""
    la, lb = a.splitlines(), b.splitlines()
    assert len(la) == len(lb), (len(la), len(lb))
    for x, y in zip(la, lb):
        if x == y:
            continue
        kx, vx = x.split(": ", 1)
        ky, vy = y.split(": ", 1)
        assert kx == ky, (x, y)
        fx, fy = float(vx), float(vy)
        assert abs(fx - fy) <= 1e-12 * max(1.0, abs(fx)), (x, y)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfr", required=True)
    args = ap.parse_args()
    tfr = os.path.abspath(args.tfr)
    # The workers of the local cluster inherit these: the binary under
    # test, and the checkout's tfr_cli (on a real cluster `pip install
    # tfr-cli` on every node puts both in place).
    os.environ["TFR_BINARY"] = tfr
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in [os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH", "")] if p
    )

    import ray
    import tfr_cli.ray as tr

    notebook = open(os.path.join(ROOT, "tests/data/notebook.tfrecord"), "rb").read()
    with tempfile.TemporaryDirectory(prefix="tfr-ray-check-") as tmp:
        big = os.path.join(tmp, "big.tfrecord")
        with open(big, "wb") as f:
            f.write(notebook * 5)  # 1,000 records, about 100 KB

        # Ray's session files under the temporary directory, not /tmp/ray.
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
            _temp_dir=os.path.join(tmp, "ray"),
        )
        ctx = ray.data.DataContext.get_current()
        ctx.execution_options.preserve_order = True
        ctx.enable_progress_bars = False

        # Typed columns, the values of to-jsonl, read in 4 parts.
        ds = tr.read_tfrecords(big, part_size=25_000)
        schema = ds.schema()
        types = dict(zip(schema.names, [str(t) for t in schema.types]))
        assert types == {
            "feature0": "int64",
            "feature1": "int64",
            "feature2": "string",
            "feature3": "float",
        }, types
        rows = ds.take_all()
        lines = subprocess.run([tfr, "to-jsonl", big], check=True, stdout=subprocess.PIPE).stdout.splitlines()
        assert len(rows) == len(lines) == 1000, (len(rows), len(lines))
        for row, line in zip(rows, lines):
            want = {k: v[0] for k, v in json.loads(line).items()}
            assert set(row) == set(want), (row, want)
            for k, v in want.items():
                got = row[k]
                if isinstance(v, float):
                    assert abs(got - v) <= 1e-6 * max(1.0, abs(v)), (k, got, v)
                else:
                    assert got == v, (k, got, v)
        plan = tr.TfrDatasource(big, part_size=25_000)
        assert len(plan.get_read_tasks(200)) == 5, "100,385 bytes in parts of 25,000"
        assert len(plan.get_read_tasks(2)) == 2, "at most Ray's parallelism"
        assert "tensorflow" not in sys.modules
        print("typed columns equal to-jsonl: ok")

        # columns= and where=.
        some = tr.read_tfrecords(big, columns=["feature1", "feature2"], where="feature1 == 2")
        assert some.schema().names == ["feature1", "feature2"], some.schema()
        picked = some.take_all()
        expected = sum(1 for l in lines if json.loads(l)["feature1"] == [2])
        assert len(picked) == expected > 0 and all(r["feature1"] == 2 for r in picked), len(picked)
        print("columns and where: ok")

        # Files named like options are paths (tfr gets them after "--"):
        # a file "--where=feature1==2" must not filter, "-n" must not cut.
        for odd in ["--where=feature1==2", "-n", "--help", "-o.tfrecord"]:
            path = os.path.join(tmp, odd)
            with open(path, "wb") as f:
                f.write(notebook * 2)
            # Relative names, on the driver (Ray's workers start elsewhere):
            # the schema pass, and each read task's body called here.
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                plan = tr.TfrDatasource(odd, part_size=25_000)
                assert plan._records == 400, (odd, plan._records)
                rows = sum(t.num_rows for task in plan.get_read_tasks(2) for t in task._read_fn())
            finally:
                os.chdir(cwd)
            assert rows == 400, (odd, rows)
        print("paths named like options: ok")

        # Damage: one exception on the driver naming the file and record.
        damaged = bytearray(notebook * 5)
        damaged[len(damaged) * 3 // 4] ^= 0xFF
        bad = os.path.join(tmp, "damaged.tfrecord")
        with open(bad, "wb") as f:
            f.write(bytes(damaged))
        # Found by the schema pass on the driver; with a schema given, by
        # the read task whose part holds it (the record numbered in the part).
        good_schema = subprocess.run(
            [tfr, "schema", "--format", "json", big], check=True, stdout=subprocess.PIPE
        ).stdout
        for given in [None, good_schema]:
            try:
                tr.read_tfrecords(bad, part_size=25_000, schema=given, override_num_blocks=4).count()
            except Exception as e:
                text = str(e)
                assert "damaged.tfrecord" in text and "record " in text and "checksum" in text, text
                assert isinstance(e, tr.TfrError), type(e)
                if given is not None:
                    assert "[bytes " in text, text
            else:
                raise AssertionError("a damaged file was read without an error")
        print("damage reaches the driver: ok")

        # 64 shards, stats fanned out as Ray tasks with --part, merged.
        shards = os.path.join(tmp, "shards")
        os.mkdir(shards)
        subprocess.run(
            [tfr, "reshard", "-q", big, "-o", os.path.join(shards, "s.tfrecord"), "--shards", "64"],
            check=True,
        )
        glob = os.path.join(shards, "s-*-of-00064.tfrecord")

        @ray.remote
        def stats_part(k: int, n: int) -> bytes:
            return subprocess.run(
                [tfr, "stats", "-q", "-f", "json", "--part", "%d/%d" % (k, n), glob],
                check=True,
                stdout=subprocess.PIPE,
            ).stdout

        n = 6
        saved = ray.get([stats_part.remote(k, n) for k in range(n)])
        merge = []
        for k, text in enumerate(saved):
            path = os.path.join(tmp, "part-%d.json" % k)
            with open(path, "wb") as f:
                f.write(text)
            merge += ["--merge", path]

        def without_names(text: bytes) -> str:
            return "\n".join(l for l in text.decode().splitlines() if not l.startswith("  name: "))

        merged = subprocess.run(
            [tfr, "stats", "-q", "-f", "tfdv-stats-text", *merge], check=True, stdout=subprocess.PIPE
        ).stdout
        once = subprocess.run(
            [tfr, "stats", "-q", "-f", "tfdv-stats-text", glob], check=True, stdout=subprocess.PIPE
        ).stdout
        same_but_rounding(without_names(merged), without_names(once))
        print("stats of 64 shards in 6 Ray tasks merge to one run's: ok")

        # text="binary", order="input": the columns, their order and the
        # binary type of Ray's own reader (which parses with TensorFlow,
        # imported only now).
        # (Ray orders its columns as Python protobuf iterates a record's
        # feature map, which protobuf leaves undefined: the names and values
        # are compared, and tfr's order is the first record's as written.)
        ours = tr.read_tfrecords(big, text="binary", order="input", part_size=25_000)
        theirs = ray.data.read_tfrecords(big)
        first = json.loads(subprocess.run([tfr, "head", "-n", "1", "--format", "json", big], check=True, stdout=subprocess.PIPE).stdout)
        assert ours.schema().names == list(first), (ours.schema(), first)
        assert sorted(ours.schema().names) == sorted(theirs.schema().names), (ours.schema(), theirs.schema())
        kinds = lambda ds: [str(t) for t in ds.schema().types]
        assert kinds(ours)[ours.schema().names.index("feature2")] == "binary", ours.schema()
        assert kinds(theirs)[theirs.schema().names.index("feature2")] == "binary", theirs.schema()
        for a, b in zip(ours.take_all(), theirs.take_all()):
            assert sorted(a) == sorted(b), (a, b)
            for k in a:
                x, y = a[k], b[k]
                if isinstance(x, float):
                    assert abs(x - y) <= 1e-6 * max(1.0, abs(y)), (k, x, y)
                else:
                    assert x == y, (k, x, y)
        print("text='binary', order='input': Ray's own reader's columns and values: ok")
        ray.shutdown()
    print("all checks passed")


if __name__ == "__main__":
    main()

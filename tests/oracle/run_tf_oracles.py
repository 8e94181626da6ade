"""Runs several TensorFlow oracle scripts of tests/oracle, side by side,
with TensorFlow imported once: it is imported here, then each script runs
in a child process forked from this one (importing TensorFlow costs about
3.5 s of CPU, most of what separate processes spent; one after the other
the scripts took most of the test suite's wall time).

usage: run_tf_oracles.py --tfr PATH SCRIPT.py [SCRIPT.py ...]

Each script runs as its own `__main__` (fresh globals) with `--tfr PATH`;
it passes when it ends without an error and prints "all checks passed".
Prints each script's output, then one line per script; exits 1 when any
failed.
"""
import contextlib
import io
import json
import os
import runpy
import sys
import traceback

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def run_script(path, tfr):
    """Runs one script here: (passed, what it printed)."""
    out = io.StringIO()
    ok = True
    sys.argv = [path, "--tfr", tfr]
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as e:
            ok = e.code in (None, 0)
            if not ok and not isinstance(e.code, int):
                print(e.code)
        except BaseException:
            ok = False
            traceback.print_exc(file=out)
    text = out.getvalue()
    return ok and "all checks passed" in text, text


def main() -> None:
    args = sys.argv[1:]
    if len(args) < 3 or args[0] != "--tfr":
        raise SystemExit(__doc__)
    tfr, scripts = args[1], args[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    # Imported before forking (no TensorFlow op runs here: each child
    # starts TensorFlow's runtime of its own).
    import tensorflow  # noqa: F401

    children = []
    for script in scripts:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(read_end)
                ok, text = run_script(os.path.join(here, script), tfr)
                with os.fdopen(write_end, "w") as report:
                    json.dump([ok, text], report)
                code = 0
            finally:
                sys.stdout.flush()
                os._exit(code)
        os.close(write_end)
        children.append((script, pid, read_end))
    results = []
    for script, pid, read_end in children:
        with os.fdopen(read_end) as report:
            reported = report.read()
        _, status = os.waitpid(pid, 0)
        try:
            ok, text = json.loads(reported)
        except ValueError:
            ok, text = False, "its process ended (wait status %d) without a report\n" % status
        results.append((script, ok))
        print("==== %s: %s\n%s" % (script, "passed" if ok else "FAILED", text), flush=True)
    for script, ok in results:
        print("%-24s %s" % (script, "passed" if ok else "FAILED"))
    if not all(ok for _, ok in results):
        sys.exit(1)
    print("every oracle passed")


if __name__ == "__main__":
    main()

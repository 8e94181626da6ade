"""Runs several TensorFlow oracle scripts of tests/oracle in one Python
process (TensorFlow is imported once: each import costs about 2.5 s of
CPU, most of what six separate processes spent).

usage: run_tf_oracles.py --tfr PATH SCRIPT.py [SCRIPT.py ...]

Each script runs as its own `__main__` (fresh globals) with `--tfr PATH`;
it passes when it ends without an error and prints "all checks passed".
Prints each script's output, then one line per script; exits 1 when any
failed.
"""
import contextlib
import io
import os
import runpy
import sys
import traceback


def main() -> None:
    args = sys.argv[1:]
    if len(args) < 3 or args[0] != "--tfr":
        raise SystemExit(__doc__)
    tfr, scripts = args[1], args[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    results = []
    for script in scripts:
        out = io.StringIO()
        ok = True
        sys.argv = [os.path.join(here, script), "--tfr", tfr]
        with contextlib.redirect_stdout(out):
            try:
                runpy.run_path(sys.argv[0], run_name="__main__")
            except SystemExit as e:
                ok = e.code in (None, 0)
                if not ok and not isinstance(e.code, int):
                    print(e.code)
            except BaseException:
                ok = False
                traceback.print_exc(file=out)
        text = out.getvalue()
        ok = ok and "all checks passed" in text
        results.append((script, ok))
        print("==== %s: %s\n%s" % (script, "passed" if ok else "FAILED", text), flush=True)
    for script, ok in results:
        print("%-24s %s" % (script, "passed" if ok else "FAILED"))
    if not all(ok for _, ok in results):
        sys.exit(1)
    print("every oracle passed")


if __name__ == "__main__":
    main()

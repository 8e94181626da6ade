#!/usr/bin/env python3
"""Builds the ``tfr-cli`` wheel: the ``tfr`` binary (installed into the
environment's ``bin/``) and the package ``tfr_cli`` with its native module
``tfr_cli._native`` (the reader, ``tfr_cli.TFRecordDataset``).

maturin builds one crate per wheel, so this runs it twice with the same
options: a ``--bindings bin`` build of the root crate (the binary), whose
``tfr`` goes into ``target/wheel-data/scripts/``, then the wheel of
pyproject.toml (crates/tfr-py), which takes that folder as its data.

    python3 python/build_wheel.py --release --zig     # manylinux2014, glibc 2.17+
    python3 python/build_wheel.py --release --out DIR

The binary is staged in target/wheel-data/ (pyproject.toml's data
folder): run one build at a time in a checkout.

Options are maturin build's (``--release``, ``--profile P``, ``--zig``,
``--compatibility X``, ``--out DIR``, ``--compression-method M``, ...).
maturin: ``$MATURIN``, else the one beside this Python, else on PATH.
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "target", "wheel-data")


def maturin():
    given = os.environ.get("MATURIN")
    if given:
        return given
    beside = os.path.join(os.path.dirname(sys.executable), "maturin")
    if os.path.isfile(beside):
        return beside
    found = shutil.which("maturin")
    if not found:
        sys.exit("build_wheel: maturin is not installed (pip install maturin, or set MATURIN)")
    return found


def without_out(args):
    """The options with ``--out DIR`` / ``-o DIR`` left out."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("--out", "-o"):
            skip = True
        elif not a.startswith("--out="):
            out.append(a)
    return out


def run(cmd):
    done = subprocess.run(cmd, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"build_wheel: {' '.join(cmd)} failed (exit {done.returncode})")


def build_binary(tool, args):
    """The ``tfr`` binary, built as maturin's ``bin`` wheel and taken out
    of it into target/wheel-data/scripts/."""
    scripts = os.path.join(DATA, "scripts")
    shutil.rmtree(DATA, ignore_errors=True)
    os.makedirs(scripts)
    with tempfile.TemporaryDirectory() as tmp:
        run([tool, "build", "--bindings", "bin", "--manifest-path", os.path.join(ROOT, "Cargo.toml"), "--out", tmp] + without_out(args))
        wheels = glob.glob(os.path.join(tmp, "*.whl"))
        if len(wheels) != 1:
            sys.exit(f"build_wheel: expected one binary wheel, found {wheels}")
        with zipfile.ZipFile(wheels[0]) as whl:
            names = [n for n in whl.namelist() if n.endswith(".data/scripts/tfr") or n.endswith(".data/scripts/tfr.exe")]
            if len(names) != 1:
                sys.exit(f"build_wheel: no tfr binary in {wheels[0]}: {whl.namelist()}")
            target = os.path.join(scripts, os.path.basename(names[0]))
            with whl.open(names[0]) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.chmod(target, 0o755)


def main():
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__)
        return
    tool = maturin()
    build_binary(tool, args)
    run([tool, "build"] + args)


if __name__ == "__main__":
    main()

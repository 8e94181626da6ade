"""tfr: inspect and convert TFRecord files without TensorFlow.

Installing the wheel ``tfr-cli`` puts the ``tfr`` command into the
environment's scripts directory (``bin/`` of a virtualenv). This package
finds it (:func:`binary`); in :mod:`tfr_cli.ray`, reads TFRecord datasets
into Ray Data through it; and reads TFRecord files in-process, by record
number, for training loops: :class:`TFRecordDataset` (the native module
``tfr_cli._native``; numpy arrays).
"""

import os
import shutil
import sys
import sysconfig

__all__ = ["binary", "__version__", "TFRecordDataset", "FixedLen", "VarLen", "TFRecordError"]

_READER = ("TFRecordDataset", "FixedLen", "VarLen", "TFRecordError")


def __getattr__(name):
    # The reader (and numpy) are loaded when first named, so that
    # `tfr_cli.binary()` and `tfr_cli.ray` do not load them.
    if name in _READER:
        from . import dataset

        return getattr(dataset, name)
    raise AttributeError(f"module 'tfr_cli' has no attribute {name!r}")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("tfr-cli")
    except Exception:  # not installed (a checkout on sys.path)
        return "0+unknown"


__version__ = _version()


def binary() -> str:
    """The path of the ``tfr`` executable: ``$TFR_BINARY`` when set, else
    the one installed with this package (beside the interpreter), else the
    first ``tfr`` on ``PATH``."""
    given = os.environ.get("TFR_BINARY")
    if given:
        return given
    name = "tfr.exe" if os.name == "nt" else "tfr"
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        path = os.path.join(folder, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    found = shutil.which(name)
    if found:
        return found
    raise FileNotFoundError(
        "tfr: the tfr executable is not installed here (install the tfr-cli wheel built from a "
        "clone with `maturin build --release`, or set TFR_BINARY)"
    )

"""The package's optional compiled modules, each standing in for Python code that gives
the same answers: imported when the install built them (it needs a C compiler) and
``BLOCKSIFT_NO_SPEEDUPS`` is not set; None otherwise, and the Python code runs."""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def compiled(module: str) -> ModuleType | None:
    """The compiled module ``module`` (a full dotted name), or None."""
    if os.environ.get("BLOCKSIFT_NO_SPEEDUPS"):
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None

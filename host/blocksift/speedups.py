"""The package's optional compiled modules, each standing in for Python code that gives
the same answers: imported when the install built them (it needs a C compiler) and
``BLOCKSIFT_NO_SPEEDUPS`` is not set; None otherwise, and the Python code runs."""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def compiled(module: str, needs: tuple[str, ...] = ()) -> ModuleType | None:
    """The compiled module ``module`` (a full dotted name), or None; None too when it lacks
    a name of ``needs``: a build older than its source (an editable install not rebuilt)
    falls back to the Python code rather than failing on the first page."""
    if os.environ.get("BLOCKSIFT_NO_SPEEDUPS"):
        return None
    try:
        found = importlib.import_module(module)
    except ImportError:
        return None
    return found if all(hasattr(found, name) for name in needs) else None

"""Labeled pages of the shared dev datasets: moved to :mod:`blocksift.labeled` (a shared
type below the algorithms and storage); the names stay importable from here."""

from __future__ import annotations

from ..labeled import (  # noqa: F401 (re-exported)
    DATASETS_ENV,
    LabeledPage,
    _strings,
    count_pages,
    dataset_file,
    default_roots,
    iter_pages,
    load_pages,
    pages_total,
    resolve,
)

__all__ = ["DATASETS_ENV", "LabeledPage", "count_pages", "dataset_file", "default_roots",
           "iter_pages", "load_pages", "pages_total", "resolve"]

"""Extraction over crawls: one page extractor shared by ``batch --warc``, datatrove and Ray.

:class:`PageExtractor` holds an algorithm, its validated params and (for trained
algorithms) its model, loaded once per process; calling it on ``(html, url)`` gives the
per-page fields every crawl output shares (title, text, status, ms). :func:`iter_items` reads
the records of several WARC files for ``blocksift batch --warc``, which extracts the pages
on the native host's limited workers (:mod:`blocksift.cli.batch_warc`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from typing import Any

from .warc import Skip, WarcCounts, WarcPage, iter_warc


class ExtractorConfigError(ValueError):
    """Unknown algorithm, invalid params, or a model path for an algorithm without one."""


def check_model_path(module: Any, model_path: str | None) -> None:
    """A model file is for an algorithm that loads one, and must exist (checked up front)."""
    if not model_path:
        return
    if not callable(getattr(module, "load_model", None)):
        raise ExtractorConfigError(f"{module.NAME} takes no model file")
    if model_path in getattr(module, "BUNDLED_MODELS", {}):
        return
    if not os.path.isfile(model_path):
        raise ExtractorConfigError(f"model file not found: {model_path}")


#: What a crawl output never shows, switched off unless asked for: the reader-view HTML and
#: the per-block reasons (about a tenth of ``auto``'s time); the text is the same either way.
TEXT_ONLY = {"with_html": False, "reasons": 0}


def text_only_params(algorithm: str, params: dict[str, Any],
                     settings: dict[str, Any] = TEXT_ONLY) -> dict[str, Any]:
    """``params`` with ``settings`` added where the algorithm has them and the caller did not
    set them (an unknown algorithm: unchanged, for the worker to refuse clearly)."""
    from . import algorithms

    if algorithm not in algorithms.names():
        return params
    fields = algorithms.load(algorithm).Params.model_fields
    return {**{k: v for k, v in settings.items() if k in fields}, **params}


class PageExtractor:
    """An algorithm ready to run: ``extractor(html, url) -> {title, text, status, ms}``.

    Options mirror the CLI: ``algorithm`` (``--algo``), ``params`` (``--param k=v``) and
    ``model_path`` (``--model``: a model file, for algorithms that learn one: auto's
    segmenter from ``blocksift train auto``, farsw's from ``blocksift train farsw``).
    The model loads on first use, so an instance pickles cheaply to worker processes.
    Work whose output a crawl drops (:data:`TEXT_ONLY`) is skipped unless ``params`` asks.
    """

    def __init__(self, algorithm: str = "auto", params: dict[str, Any] | None = None,
                 model_path: str | None = None):
        from pydantic import ValidationError

        from . import algorithms

        self.algorithm = algorithm
        self.params = dict(params or {})
        self.model_path = model_path
        try:
            module = algorithms.load(algorithm)
        except algorithms.UnknownAlgorithm:
            raise ExtractorConfigError(f"unknown algorithm {algorithm!r}; known: "
                                       f"{', '.join(algorithms.names())}") from None
        try:
            module.Params.model_validate(self.params)
        except ValidationError as exc:
            raise ExtractorConfigError(f"invalid params for {algorithm}: "
                                       f"{algorithms.params_problems(exc)}") from None
        check_model_path(module, model_path)
        self._loaded: tuple[Any, Any, Any] | None = None
        self._spans = True

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_loaded"] = None  # each process loads its own module state and model
        return state

    def load(self) -> tuple[Any, Any, Any]:
        """(module, validated params, model), loaded once per process."""
        if self._loaded is None:
            from . import algorithms

            module = algorithms.load(self.algorithm)
            params = module.Params.model_validate(text_only_params(self.algorithm,
                                                                   self.params))
            model = None
            if self.model_path:
                model = module.load_model(self.model_path)
            elif getattr(module, "MODEL", None) == "trained":
                model = module.load_model()
            self._loaded = (module, params, model)
            # text only: no tag scan or stamps where the algorithm and model do without
            # them (auto with the lite model: a tenth or more of its time)
            self._spans = not algorithms.text_without_spans(module, params, model)
        return self._loaded

    def __call__(self, html: str, url: str | None = None) -> dict[str, Any]:
        from .page import Page

        module, params, model = self.load()
        started = time.perf_counter()
        result = module.extract(Page(html, url=url, spans=self._spans), params, model=model)
        main = result.main
        return {"title": main.title if main else "", "text": main.text if main else "",
                "status": result.status,
                "ms": round((time.perf_counter() - started) * 1000, 2)}


# -- blocksift batch --warc (cli/batch_warc.py runs the pages on limited workers) ----------

def iter_items(paths: Iterable[str], max_bytes: int, counts: WarcCounts) -> Iterator[
        WarcPage | Skip]:
    done = 0  # bytes of the files read (counts.bytes_read runs across all of them)
    for path in paths:
        yield from iter_warc(path, max_bytes=max_bytes, counts=counts, offset=done)
        done += os.path.getsize(path)
        counts.bytes_read = done

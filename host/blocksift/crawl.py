"""Extraction over crawls: one page extractor shared by ``batch --warc``, datatrove and Ray.

:class:`PageExtractor` holds an algorithm, its validated params and (for trained
algorithms) its model, loaded once per process; calling it on ``(html, url)`` gives the
per-page fields every crawl output shares (title, text, status, ms). :func:`run_warc_batch`
is ``blocksift batch --warc``: records are read in the calling process, pages extracted by
a pool of workers with a bounded window, one JSONL line written per page, and every record
accounted for in a :class:`~blocksift.warc.WarcCounts`.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import IO, Any

from .warc import DEFAULT_MAX_BYTES, Skip, WarcCounts, WarcPage, iter_warc


class ExtractorConfigError(ValueError):
    """Unknown algorithm, invalid params, or a model path for an algorithm without one."""


class PageExtractor:
    """An algorithm ready to run: ``extractor(html, url) -> {title, text, status, ms}``.

    Options mirror the CLI: ``algorithm`` (``--algo``), ``params`` (``--param k=v``) and
    ``model_path`` (a trained model file, for algorithms that learn one, e.g. farsw).
    The model loads on first use, so an instance pickles cheaply to worker processes.
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
            raise ExtractorConfigError(f"invalid params for {algorithm}: {exc}") from None
        if model_path and getattr(module, "MODEL", None) != "trained":
            raise ExtractorConfigError(f"{algorithm} takes no model file")
        self._loaded: tuple[Any, Any, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_loaded"] = None  # each process loads its own module state and model
        return state

    def load(self) -> tuple[Any, Any, Any]:
        """(module, validated params, model), loaded once per process."""
        if self._loaded is None:
            from . import algorithms

            module = algorithms.load(self.algorithm)
            params = module.Params.model_validate(self.params)
            model = None
            if getattr(module, "MODEL", None) == "trained":
                model = module.load_model(self.model_path) if self.model_path else \
                    module.load_model()
            self._loaded = (module, params, model)
        return self._loaded

    def __call__(self, html: str, url: str | None = None) -> dict[str, Any]:
        from .page import Page

        module, params, model = self.load()
        started = time.perf_counter()
        result = module.extract(Page(html, url=url), params, model=model)
        main = result.main
        return {"title": main.title if main else "", "text": main.text if main else "",
                "status": result.status,
                "ms": round((time.perf_counter() - started) * 1000, 2)}


# -- blocksift batch --warc --------------------------------------------------------------------

_WORKER: dict[str, PageExtractor] = {}


def _worker_init(extractor: PageExtractor) -> None:
    extractor.load()
    _WORKER["extractor"] = extractor


def _worker_extract(html: str, url: str | None) -> dict[str, Any]:
    try:
        return _WORKER["extractor"](html, url)
    except Exception as exc:  # one bad page must not stop the run; it is counted
        return {"error": f"{type(exc).__name__}: {exc}"}


def _line(page: WarcPage, extracted: dict[str, Any]) -> str:
    return json.dumps({"id": page.record_id, "url": page.url, "title": extracted["title"],
                       "text": extracted["text"], "metadata": page.metadata,
                       "status": extracted["status"], "ms": extracted["ms"]},
                      ensure_ascii=False)


def iter_items(paths: Iterable[str], max_bytes: int, counts: WarcCounts) -> Iterator[
        WarcPage | Skip]:
    for path in paths:
        yield from iter_warc(path, max_bytes=max_bytes, counts=counts)


def run_warc_batch(paths: list[str], extractor: PageExtractor, out: IO[str], jobs: int = 1,
                   max_bytes: int = DEFAULT_MAX_BYTES, progress: Any = None) -> WarcCounts:
    """Extract every HTML response of ``paths`` to JSONL lines on ``out``, in record order."""
    counts = WarcCounts()

    def settle(page: WarcPage, extracted: dict[str, Any]) -> None:
        if "error" in extracted:
            counts.skipped["extract-error"] += 1
        else:
            out.write(_line(page, extracted) + "\n")
            counts.written += 1
        if progress is not None:
            progress.update()

    items = iter_items(paths, max_bytes, counts)
    if jobs <= 1:
        _worker_init(extractor)
        for item in items:
            if isinstance(item, Skip):
                counts.skipped[item.reason] += 1
            else:
                settle(item, _worker_extract(item.html, item.url))
        return counts
    window: deque[tuple[WarcPage, Future[dict[str, Any]]]] = deque()
    with ProcessPoolExecutor(jobs, initializer=_worker_init, initargs=(extractor,)) as pool:
        for item in items:
            if isinstance(item, Skip):
                counts.skipped[item.reason] += 1
                continue
            window.append((item, pool.submit(_worker_extract, item.html, item.url)))
            if len(window) >= jobs * 4:
                page, future = window.popleft()
                settle(page, future.result())
        while window:
            page, future = window.popleft()
            settle(page, future.result())
    return counts

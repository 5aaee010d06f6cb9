"""Run an extractor over labeled pages and score it (``blocksift eval``)."""

from __future__ import annotations

import statistics
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..page import Page
from .datasets import LabeledPage
from .metric import PageScore, Summary, score_page, summarize

#: Turns a parsed page into main text; raising counts the page as a failure.
Extractor = Callable[[Page], str]


@dataclass
class PageOutcome:
    """What happened on one page."""

    id: str
    ms: float
    score: PageScore | None
    status: str = "ok"
    error: str = ""


@dataclass
class Report:
    """Scores and timings of one extractor over one dataset."""

    dataset: str
    algorithm: str
    summary: Summary
    median_ms: float
    p95_ms: float
    failures: int
    statuses: dict[str, int] = field(default_factory=dict)
    pages: list[PageOutcome] = field(default_factory=list)

    def as_dict(self, with_pages: bool = False) -> dict[str, Any]:
        data = {
            "dataset": self.dataset, "algorithm": self.algorithm,
            **{k: round(v, 4) if isinstance(v, float) else v
               for k, v in asdict(self.summary).items()},
            "median_ms": round(self.median_ms, 2), "p95_ms": round(self.p95_ms, 2),
            "failures": self.failures, "statuses": self.statuses,
        }
        if with_pages:
            data["per_page"] = [
                {"id": o.id, "ms": round(o.ms, 2), "status": o.status, "error": o.error,
                 "f1": round(o.score.f1, 4) if o.score else None} for o in self.pages]
        return data


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def evaluate(pages: Iterable[LabeledPage], extractor: Callable[[Page], tuple[str, str]], *,
             dataset: str, algorithm: str,
             progress: Callable[[int], None] | None = None) -> Report:
    """Score ``extractor`` (page -> (text, status)) over ``pages``; time parse + extraction.

    A page whose extraction raises is a failure: scored as empty output, counted apart.
    """
    outcomes: list[PageOutcome] = []
    statuses: dict[str, int] = {}
    for labeled in pages:
        start = time.perf_counter()
        try:
            text, status = extractor(Page(labeled.html, url=labeled.url))
            error = ""
        except Exception as exc:  # a failing page must not stop the evaluation
            text, status = "", "failure"
            error = f"{type(exc).__name__}: {exc}"
            error += " | " + traceback.format_exc(limit=3).splitlines()[-1]
        ms = (time.perf_counter() - start) * 1000
        statuses[status] = statuses.get(status, 0) + 1
        outcomes.append(PageOutcome(labeled.id, ms, score_page(text, labeled.gold), status,
                                    error))
        if progress:
            progress(1)
    times = [o.ms for o in outcomes]
    return Report(
        dataset=dataset, algorithm=algorithm,
        summary=summarize(o.score for o in outcomes if o.score is not None),
        median_ms=statistics.median(times) if times else 0.0, p95_ms=percentile(times, 0.95),
        failures=statuses.get("failure", 0), statuses=statuses, pages=outcomes)


def algorithm_extractor(name: str, params: dict[str, Any] | None = None,
                        model: Any = None) -> Callable[[Page], tuple[str, str]]:
    """An extractor running registry algorithm ``name`` and returning its main text."""
    from .. import algorithms

    module = algorithms.load(name)
    validated = module.Params.model_validate(params or {})

    def run(page: Page) -> tuple[str, str]:
        result = module.extract(page, validated, model=model)
        text = result.main.text if result.main is not None else ""
        return text, result.status

    return run

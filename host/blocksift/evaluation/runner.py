"""Run an extractor over labeled pages and score it (``blocksift eval``)."""

from __future__ import annotations

import os
import statistics
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..page import Page
from .datasets import LabeledPage
from .metric import (
    PageScore,
    Summary,
    WordSummary,
    score_page,
    snippet_hits,
    summarize,
    summarize_words,
    word_prf,
    words,
)

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
    #: word (P, R, F1) of the wcxb metric; None when the page has no gold to score against
    word: tuple[float, float, float] | None = None
    #: (found, of snippets_with, absent, of snippets_without)
    snippets: tuple[int, int, int, int] = (0, 0, 0, 0)
    page_type: str | None = None
    empty_output: bool = False


@dataclass(frozen=True)
class GroupFigures:
    """Word F1, shingle F1 and the snippet check over a group of pages (a set, a page type).

    Text scores (word, shingle) cover the ``gold_pages`` that have a gold text; with none,
    they are not reported (``None`` in :meth:`as_dict`).
    """

    pages: int
    gold_pages: int
    words: WordSummary
    shingle: Summary
    snippets_with: float | None  # share of must-include snippets found; None without any
    snippets_without: float | None  # share of must-exclude snippets absent
    snippets: tuple[int, int, int, int]

    def as_dict(self) -> dict[str, Any]:
        def r(value: float | None) -> float | None:
            return None if value is None else round(value, 4)

        scored = self.gold_pages > 0
        return {"pages": self.pages, "gold_pages": self.gold_pages,
                "word_precision": r(self.words.precision) if scored else None,
                "word_recall": r(self.words.recall) if scored else None,
                "word_f1": r(self.words.f1) if scored else None,
                "shingle_f1": r(self.shingle.f1) if scored else None,
                "empty_outputs": self.words.empty_outputs,
                "snippets_with": r(self.snippets_with),
                "snippets_without": r(self.snippets_without)}


def group_figures(outcomes: Sequence[PageOutcome]) -> GroupFigures:
    """Figures of ``outcomes``: word and shingle scores over the pages that have them."""
    found, of_with, absent, of_without = (sum(o.snippets[i] for o in outcomes)
                                          for i in range(4))
    return GroupFigures(
        pages=len(outcomes), gold_pages=sum(o.word is not None for o in outcomes),
        words=summarize_words([o.word for o in outcomes if o.word is not None],
                              empty_outputs=sum(o.empty_output for o in outcomes)),
        shingle=summarize(o.score for o in outcomes if o.score is not None),
        snippets_with=found / of_with if of_with else None,
        snippets_without=absent / of_without if of_without else None,
        snippets=(found, of_with, absent, of_without))


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

    @property
    def gold_pages(self) -> int:
        """Pages with a gold text (the only ones the text metrics score)."""
        return sum(o.word is not None for o in self.pages)

    @property
    def snippet_pages(self) -> int:
        """Pages with at least one snippet to check."""
        return sum(o.snippets[1] + o.snippets[3] > 0 for o in self.pages)

    @property
    def scorable(self) -> bool:
        """Whether anything was scored: a page with a gold text or with snippets."""
        return bool(self.gold_pages or self.snippet_pages)

    @property
    def overall(self) -> GroupFigures:
        """Word F1, shingle F1 and snippets over every page."""
        return group_figures(self.pages)

    def by_page_type(self) -> dict[str, GroupFigures]:
        """The same figures per ``page_type``, largest group first; empty without types."""
        groups: dict[str, list[PageOutcome]] = {}
        for outcome in self.pages:
            if outcome.page_type:
                groups.setdefault(outcome.page_type, []).append(outcome)
        ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
        return {name: group_figures(members) for name, members in ordered}

    def as_dict(self, with_pages: bool = False) -> dict[str, Any]:
        overall = self.overall
        shingle = {k: round(v, 4) if isinstance(v, float) else v
                   for k, v in asdict(self.summary).items()}
        if not self.gold_pages:  # nothing had a gold text: no text score, not a score of 0
            shingle.update(precision=None, recall=None, f1=None, mean_page_f1=None)
        data = {
            "dataset": self.dataset, "algorithm": self.algorithm, **shingle,
            **{k: v for k, v in overall.as_dict().items() if k != "pages"},
            "median_ms": round(self.median_ms, 2), "p95_ms": round(self.p95_ms, 2),
            "failures": self.failures, "statuses": self.statuses,
            "by_page_type": {name: group.as_dict()
                             for name, group in self.by_page_type().items()},
        }
        if with_pages:
            data["per_page"] = [
                {"id": o.id, "ms": round(o.ms, 2), "status": o.status, "error": o.error,
                 "page_type": o.page_type,
                 "f1": round(o.score.f1, 4) if o.score else None,
                 "word_f1": round(o.word[2], 4) if o.word else None,
                 "snippets": list(o.snippets)} for o in self.pages]
        return data


def dataset_label(path: Path) -> str:
    """The name a dataset file goes by in reports: its folder's for ``<set>/pages.jsonl(.gz)``
    (also when given as ``pages.jsonl`` or ``.`` from inside the folder, whose name is ''),
    else the file's stem."""
    if path.name.startswith("pages."):
        folder = Path(os.path.abspath(path)).parent.name  # "../pages.jsonl": not ".."
        if folder:
            return folder
    return path.stem


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
    A page without a gold text (``has_gold`` false) is scored on its snippets only.
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
        outcomes.append(PageOutcome(
            labeled.id, ms, score_page(text, labeled.gold) if labeled.has_gold else None,
            status, error, word=word_prf(text, labeled.gold) if labeled.has_gold else None,
            snippets=snippet_hits(text, labeled.snippets_with, labeled.snippets_without),
            page_type=labeled.page_type, empty_output=not words(text)))
        if progress:
            progress(1)
    times = [o.ms for o in outcomes]
    return Report(
        dataset=dataset, algorithm=algorithm,
        summary=replace(summarize(o.score for o in outcomes if o.score is not None),
                        pages=len(outcomes), empty_outputs=sum(o.empty_output for o in outcomes)),
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

"""``blocksift eval --action hide``: what hiding keeps and removes, against the gold text.

Definitions (docs/evaluation.md states them for readers):

* **visible body text** of a page, before or after hiding, is computed from the parsed tree:
  the text of ``<body>`` in document order, skipping ``script``/``style``/``noscript``/
  ``template``/form controls and other non-text elements, elements with the ``hidden``
  attribute or an inline ``display:none``/``visibility:hidden`` style, and, after hiding, the
  subtrees of the hidden elements (an element's tail text belongs to its parent and stays);
* words are the metric's tokens (``\\w+`` runs, each CJK character one token), lowercased,
  compared as bags (multisets);
* **gold kept** of a page = |gold ∩ after| / |gold ∩ before| (pages whose gold has no word in
  the visible text are left out); reported as the mean, the 10th percentile and the share of
  pages keeping less than 0.98;
* **non-gold words** = before − gold (bag difference); **removed** = 1 − |after − gold| /
  |before − gold|; **non-gold link words** the same over the words inside ``a[href]``; both
  are means over the pages that have such words.

Two hiders are measured: ``linkblocks`` (what "hide link blocks" hid before: every element
lying wholly inside a paper link block's span) and ``hide`` (:mod:`blocksift.actions.hide`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..actions.hide import HideParams, _invisible, decide
from ..content import NON_TEXT_TAGS
from ..page import Page
from .datasets import LabeledPage, count_pages, iter_pages, resolve
from .metric import tokens
from .runner import dataset_label, percentile

LOSS_LIMIT = 0.98  # a page "loses more than 2 %" when it keeps less than this


def visible_words(page: Page, hidden: Iterable[etree._Element] = ()) -> tuple[Counter, Counter]:
    """Bags of the visible body words and of those inside links, with ``hidden`` removed."""
    skip = set(hidden)
    words: Counter[str] = Counter()
    link_words: Counter[str] = Counter()

    def add(text: str | None, in_link: bool) -> None:
        if text and text.strip():
            found = [t.lower() for t in tokens(text)]
            words.update(found)
            if in_link:
                link_words.update(found)

    stack: list[tuple[Any, bool, bool]] = [(page.body, False, False)]
    while stack:
        node, in_link, is_text = stack.pop()
        if is_text:
            add(node, in_link)
            continue
        if (not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS or node in skip
                or _invisible(node)):
            continue
        linked = in_link or (node.tag == "a" and node.get("href") is not None)
        add(node.text, linked)
        for child in reversed(node):
            if child.tail:
                stack.append((child.tail, linked, True))
            stack.append((child, linked, False))
    return words, link_words


def linkblocks_hidden(page: Page, linkblocks_result: Any) -> list[etree._Element]:
    """What "hide link blocks" hid before: elements wholly inside each link block's span."""
    from ..algorithms.linkblocks import elements_within

    found: list[etree._Element] = []
    for block in linkblocks_result.blocks:
        if block.kind == "links":
            found.extend(elements_within(page, block.start, block.end))
    return found


@dataclass
class PageHide:
    id: str
    site: str
    kept: float | None
    removed: float | None
    link_removed: float | None
    targets: int


@dataclass
class HideReport:
    dataset: str
    hider: str
    pages: list[PageHide] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        kept = [p.kept for p in self.pages if p.kept is not None]
        removed = [p.removed for p in self.pages if p.removed is not None]
        links = [p.link_removed for p in self.pages if p.link_removed is not None]
        return {
            "dataset": self.dataset, "hider": self.hider, "pages": len(self.pages),
            "gold_kept_mean": _mean(kept), "gold_kept_p10": percentile(kept, 0.10),
            "pages_losing_over_2pct": (sum(k < LOSS_LIMIT for k in kept) / len(kept)
                                       if kept else 0.0),
            "nongold_removed": _mean(removed), "nongold_link_removed": _mean(links),
        }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _total(bag: Counter) -> int:
    return sum(bag.values())


def score(page: Page, gold: Counter, hidden: Sequence[etree._Element],
          before: tuple[Counter, Counter]) -> tuple[float | None, float | None, float | None]:
    """(gold kept, non-gold removed, non-gold link words removed) of one page."""
    words_before, links_before = before
    words_after, links_after = visible_words(page, hidden)
    reachable = _total(gold & words_before)
    kept = _total(gold & words_after) / reachable if reachable else None
    nongold_before = _total(words_before - gold)
    removed = 1 - _total(words_after - gold) / nongold_before if nongold_before else None
    link_before = _total(links_before - gold)
    link_removed = 1 - _total(links_after - gold) / link_before if link_before else None
    return kept, removed, link_removed


@dataclass
class Prepared:
    """One page parsed once, with its algorithms' results and its words before hiding."""

    labeled: LabeledPage
    dataset: str
    page: Page
    main: Any
    links: Any
    gold: Counter
    before: tuple[Counter, Counter]


def prepare(labeled: LabeledPage, main_algorithm: str = "auto", dataset: str = "") -> Prepared:
    from .. import algorithms

    page = Page(labeled.html, url=labeled.url)
    module = algorithms.load(main_algorithm)
    params = module.Params()
    if "main_text" in type(params).model_fields:
        # as the host runs it for the extension's hide: blocks only, no main text rendered
        params = params.model_copy(update={"main_text": False})
    main = module.extract(page, params)
    linkblocks = algorithms.load("linkblocks")
    links = linkblocks.extract(page, linkblocks.Params(main_text=False))
    gold = Counter(t.lower() for t in tokens(labeled.gold))
    return Prepared(labeled, dataset, page, main, links, gold, visible_words(page))


def site_of(labeled: LabeledPage) -> str:
    if labeled.site:
        return labeled.site
    if labeled.url:
        from urllib.parse import urlsplit

        host = urlsplit(labeled.url).hostname or ""
        return ".".join(host.split(".")[-2:]) or labeled.id
    return labeled.id


def run_hider(prepared: Prepared, hider: str, params: HideParams | None = None) -> PageHide:
    if hider == "linkblocks":
        hidden = linkblocks_hidden(prepared.page, prepared.links)
    else:
        hidden = decide(prepared.page, prepared.main, prepared.links, params).elements
    kept, removed, link_removed = score(prepared.page, prepared.gold, hidden, prepared.before)
    return PageHide(prepared.labeled.id, site_of(prepared.labeled), kept, removed,
                    link_removed, len(hidden))


# -- threshold choice by domain-grouped cross-validation -------------------------------------

GRID = [HideParams(segments=False, grow=False), HideParams(comment_sections=False),
        HideParams(restraint_link_lists=False), HideParams(restraint_link_lists=True),
        HideParams(link_line_density=1.01)] + [
    HideParams(segment_links_p=links, segment_other_p=other, hide_comments=comments)
    for links, other, comments in ((0.05, 0.0, False), (0.1, 0.03, False), (0.2, 0.1, False),
                                   (0.1, 0.03, True), (0.2, 0.1, True), (0.3, 0.15, True))]


def _fold(site: str, folds: int) -> int:
    return int(hashlib.sha1(site.encode()).hexdigest(), 16) % folds


def _good(summary: dict[str, Any]) -> tuple[bool, float, float]:
    safe = summary["gold_kept_mean"] >= 0.995 and summary["pages_losing_over_2pct"] <= 0.02
    return safe, summary["nongold_removed"] if safe else summary["gold_kept_mean"], \
        summary["nongold_link_removed"]


def _rank(pages: Sequence[tuple[str, PageHide]]) -> tuple[bool, float, float]:
    """How a setting ranks on the choosing part: safe only if gold text is safe on **every**
    set there (a setting safe on the pooled pages may lose on a small set), then the most
    non-gold words removed over all its pages; among unsafe ones, the least gold kept on a set
    counts."""
    by_set: dict[str, list[PageHide]] = {}
    for name, page in pages:
        by_set.setdefault(name, []).append(page)
    sets = [_good(HideReport(name, "hide", found).summary()) for name, found in by_set.items()]
    pooled = _good(HideReport("cv", "hide", [p for _, p in pages]).summary())
    if sets and all(safe for safe, _, _ in sets):
        return pooled  # (safe on every set is safe on their union)
    return False, min(v for safe, v, _ in sets if not safe), pooled[2]


def choose(results: dict[int, list[tuple[str, PageHide]]], folds: int = 5
           ) -> tuple[list[int], list[tuple[str, PageHide]]]:
    """Per fold, the index of the setting chosen on the other folds' sites (:func:`_rank`),
    and the held-out pages' results under the fold's choice."""
    chosen: list[int] = []
    held_out: list[tuple[str, PageHide]] = []
    for fold in range(folds):
        best = max(results, key=lambda i, fold=fold: _rank(
            [(d, r) for d, r in results[i] if _fold(r.site, folds) != fold]))
        chosen.append(best)
        held_out.extend((d, r) for d, r in results[best] if _fold(r.site, folds) == fold)
    return chosen, held_out


def cross_validate(prepared: Sequence[Prepared], folds: int = 5,
                   grid: Sequence[HideParams] = GRID,
                   progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Pick HideParams on the sites of all folds but one, score them on that fold's sites.

    Pages are grouped by site (``site``, else the URL's registered domain), so no site is in
    both the choosing and the scoring part. The choice: the most non-gold words removed among
    the settings keeping gold text safe (mean ≥ 0.995, ≤ 2 % of pages losing more than 2 %)
    on every set of the choosing part, else the one keeping the most gold text.
    """
    results: dict[int, list[tuple[str, PageHide]]] = {}
    for index, params in enumerate(grid):
        results[index] = []
        for item in prepared:
            results[index].append((item.dataset, run_hider(item, "hide", params)))
            if progress:
                progress(1)  # one page under one setting: len(grid) * len(prepared) in all
    picks, held_out = choose(results, folds)
    chosen = [{"fold": fold, "params": grid[best].model_dump(),
               "held_out": sum(1 for _, r in results[best] if _fold(r.site, folds) == fold)}
              for fold, best in enumerate(picks)]
    per_set: dict[str, Any] = {}
    for name in dict.fromkeys(d for d, _ in held_out):
        per_set[name] = HideReport(name, "hide (cross-validated)",
                                   [r for d, r in held_out if d == name]).summary()
    # every setting on every page (in-sample for the thresholds), beside what the folds chose
    names = varied(grid)
    settings = [{"params": {name: getattr(params, name) for name in names},
                 "per_set": {name: HideReport(name, "hide", [r for d, r in results[index]
                                                             if d == name]).summary()
                             for name in dict.fromkeys(d for d, _ in results[index])}}
                for index, params in enumerate(grid)]
    return {"folds": chosen, "held_out": per_set, "settings": settings}


def varied(grid: Sequence[HideParams] = GRID) -> list[str]:
    """The settings the grid varies, in HideParams' order: what a fold's choice is told by
    (a fold choosing lists of links looked the same as one choosing the default when only
    the segmenter's settings were shown)."""
    return [name for name in HideParams.model_fields
            if len({repr(getattr(params, name)) for params in grid}) > 1]


# -- the command -----------------------------------------------------------------------------

COLUMNS = (("gold_kept_mean", "kept"), ("gold_kept_p10", "p10"),
           ("pages_losing_over_2pct", ">2% lost"), ("nongold_removed", "clutter rm"),
           ("nongold_link_removed", "link rm"))


class HideEvalError(ValueError):
    """A request the hide evaluation cannot run (unknown algorithm, missing dataset)."""


def run(args: argparse.Namespace) -> int:
    """``blocksift eval --action hide``: before (linkblocks) and after (hide) per dataset."""
    from .. import algorithms

    main_algorithm = args.algo if args.algo and args.algo != "linkblocks" else "auto"
    if main_algorithm not in algorithms.names():
        raise HideEvalError(f"unknown algorithm {main_algorithm!r}")
    rows: list[dict[str, Any]] = []
    prepared: list[Prepared] = []
    for name in args.datasets:
        try:
            path = resolve(name)
        except FileNotFoundError as exc:
            raise HideEvalError(str(exc)) from None
        label = dataset_label(path)
        bar = None
        if args.progress:
            from tqdm import tqdm

            bar = tqdm(desc=label, unit="page", file=sys.stderr,
                       total=count_pages(path, args.limit))
        before = HideReport(label, "linkblocks")
        after = HideReport(label, "hide")
        for labeled in iter_pages(path, args.limit):
            try:
                item = prepare(labeled, main_algorithm, label)
            except Exception as exc:  # one bad page must not stop the evaluation
                print(f"blocksift: {label}/{labeled.id}: {type(exc).__name__}: {exc}",
                      file=sys.stderr)
                continue
            before.pages.append(run_hider(item, "linkblocks"))
            after.pages.append(run_hider(item, "hide"))
            if args.cv != "none":
                prepared.append(item)
            if bar is not None:
                bar.update()
        if bar is not None:
            bar.close()
        rows += [before.summary(), after.summary()]
    cv: dict[str, Any] = {}
    if args.cv != "none":
        # one choice for every set: sites of all sets pooled, grouped into folds
        bar = None
        if args.progress:  # silent for a while otherwise (15 s on cleaneval-dev's 58 pages)
            from tqdm import tqdm

            bar = tqdm(desc=f"{len(GRID)} settings", unit="page", file=sys.stderr,
                       total=len(GRID) * len(prepared))
        try:
            cv = cross_validate(prepared, folds=min(args.folds, 10),
                                progress=bar.update if bar is not None else None)
        finally:
            if bar is not None:
                bar.close()
        rows += list(cv["held_out"].values())
    if args.json:
        json.dump({"hide": rows, "cv": cv}, sys.stdout, indent=2)
        print()
        return 0
    from ..terminal import Column, print_table  # fitted to the terminal, whole when piped

    print_table([Column("dataset", [r["dataset"] for r in rows], left=True, key=True),
                 Column("hider", [r["hider"] for r in rows], left=True, key=True),
                 Column("pages", [str(r["pages"]) for r in rows])]
                + [Column(title, [f"{r[key]:.3f}" for r in rows]) for key, title in COLUMNS])
    if cv:
        print(f"\nthresholds chosen per fold (sites of all sets pooled, {len(cv['folds'])} folds):")
        for fold in cv["folds"]:
            params = {k: v for k, v in fold["params"].items() if k in varied()}
            print(f"  fold {fold['fold']}: {params} ({fold['held_out']} held-out pages)")
    return 0

"""Cross-validation of trained extractors (farsw) as seed 004 §4 does it.

* ``--cv intra``: for every site with at least :data:`MIN_SITE_PAGES` pages, k-fold
  cross-validation within the site (train on k - 1 folds of its pages, test on the last);
  the paper's "intra-site" column of Table 10 (ten folds).
* ``--cv inter``: leave one site out: train on the pages of every other site (of all the
  datasets given), test on that site's pages; the paper's "inter-site" column.
* ``--phi-sweep``: Phi = 0..10 with the same folds (inter-site unless ``--cv intra``), the
  mean number of potential blocks per page, precision, recall and F1 per Phi, written as
  CSV and as a PNG like the paper's Fig. 8 into ``--out``.

Scores use the dataset metric (:mod:`blocksift.evaluation.metric`); ms per page is the wall
time of a full :func:`blocksift.algorithms.farsw.extract` (parse, lines, rules, window,
rendering) of a freshly parsed page, median over the tested pages. Line features and
training labels are computed once per page and shared by every fold.
"""

from __future__ import annotations

import csv
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..page import Page
from ..sites import site_key
from .datasets import LabeledPage, load_pages, pages_total, resolve
from .metric import PageScore, score_page, summarize

#: Sites with fewer pages are not tested (they still train in inter-site runs).
MIN_SITE_PAGES = 10
#: Phi values of the sweep (seed 004 Fig. 8).
PHI_RANGE = range(11)


@dataclass
class Item:
    """One labeled page with its cached training sample."""

    page: LabeledPage
    dataset: str
    site: str
    sample: Any = None
    lines: Any = None


@dataclass
class SiteResult:
    """Scores of the pages of one tested site."""

    site: str
    dataset: str
    pages: int
    scores: list[PageScore] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    untrained: int = 0
    statuses: dict[str, int] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        s = summarize(self.scores)
        return {"site": self.site, "dataset": self.dataset, "pages": self.pages,
                "precision": round(s.precision, 4), "recall": round(s.recall, 4),
                "f1": round(s.f1, 4), "mean_page_f1": round(s.mean_page_f1, 4),
                "empty_outputs": s.empty_outputs, "untrained_folds_pages": self.untrained,
                "median_ms": round(statistics.median(self.ms), 2) if self.ms else 0.0}


def _site_of(page: LabeledPage, dataset: str) -> str:
    if page.site:
        return page.site
    host = site_key(page.url)
    if host:
        return host
    return f"{dataset}:?"


def load_items(args: Any, params: Any, progress: Callable[[int], None] | None = None
               ) -> list[Item]:
    """Pages of every dataset in ``args.datasets`` with their training samples."""
    from ..algorithms import farsw

    items: list[Item] = []
    for name in args.datasets:
        path = resolve(name)
        label = Path(name).name if Path(name).exists() else name
        for labeled in load_pages(path, limit=args.limit):
            site = _site_of(labeled, label)
            page = Page(labeled.html, url=labeled.url)
            lines = farsw.page_lines(page, params)
            labels = farsw.label_lines(lines.lines, labeled.gold, params.label_overlap)
            sample = farsw.TrainingSample(features=lines.features, topical=labels, site=site,
                                          page_id=labeled.id)
            items.append(Item(labeled, label, site, sample, lines))
            if progress:
                progress(1)
    return items


def folds_of(items: Sequence[Item], mode: str, folds: int
             ) -> list[tuple[str, str, list[Item], list[Item]]]:
    """(site, dataset, train items, test items) for every fold of every tested site."""
    by_site: dict[str, list[Item]] = {}
    for item in items:
        by_site.setdefault(item.site, []).append(item)
    out = []
    for site in sorted(by_site):
        group = sorted(by_site[site], key=lambda it: it.page.id)
        if len(group) < MIN_SITE_PAGES or site.endswith(":?"):
            continue
        dataset = group[0].dataset
        if mode == "inter":
            train_items = [it for it in items if it.site != site]
            out.append((site, dataset, train_items, group))
            continue
        k = max(2, min(folds, len(group)))
        for fold in range(k):
            test = group[fold::k]
            train_items = [it for j, it in enumerate(group) if j % k != fold]
            out.append((site, dataset, train_items, test))
    return out


def _text(analysis: Any) -> str:
    """Main text of an analysis (the chosen blocks' lines, as extract() writes it)."""
    texts: list[str] = []
    for k in analysis.chosen:
        a, b = analysis.blocks[k]
        texts.extend(line.text for line in analysis.lines.lines[a:b + 1] if line.text)
    return "\n\n".join(texts)


def cross_validate(items: Sequence[Item], params: Any, mode: str, folds: int,
                   phis: Sequence[int] = (), progress: Callable[[int], None] | None = None
                   ) -> tuple[list[SiteResult], dict[int, dict[str, Any]]]:
    """Run the folds: per-site results at ``params.phi`` and, if asked, per-Phi sweeps."""
    from ..algorithms import farsw

    results: dict[str, SiteResult] = {}
    sweep: dict[int, dict[str, Any]] = {phi: {"scores": [], "blocks": []} for phi in phis}
    variants = {phi: params.model_copy(update={"phi": phi}) for phi in phis}
    for site, dataset, train_items, test_items in folds_of(items, mode, folds):
        result = results.setdefault(site, SiteResult(site, dataset, 0))
        result.pages += len(test_items)
        try:
            model = farsw.train_from_samples([it.sample for it in train_items], params)
        except farsw.TrainingError:
            model = None
        for item in test_items:
            gold = item.page.gold
            if model is None:
                result.untrained += 1
                result.scores.append(score_page("", gold))
                for phi in phis:
                    sweep[phi]["scores"].append(score_page("", gold))
                    sweep[phi]["blocks"].append(0)
                if progress:
                    progress(1)
                continue
            start = time.perf_counter()
            try:
                extracted = farsw.extract(Page(item.page.html, url=item.page.url), params,
                                          model)
                text = extracted.main.text if extracted.main is not None else ""
                status = extracted.status
            except Exception as exc:  # noqa: BLE001 -- a failing page must not stop the run
                text, status = "", f"failure: {type(exc).__name__}"
            result.ms.append((time.perf_counter() - start) * 1000)
            result.statuses[status] = result.statuses.get(status, 0) + 1
            result.scores.append(score_page(text, gold))
            for phi in phis:
                analysis = farsw.analyse(Page(item.page.html, url=item.page.url),
                                         variants[phi], model, item.lines)
                sweep[phi]["scores"].append(score_page(_text(analysis), gold))
                sweep[phi]["blocks"].append(len(analysis.blocks))
            if progress:
                progress(1)
    return [results[s] for s in sorted(results)], sweep


def _summary_row(name: str, results: Sequence[SiteResult]) -> dict[str, Any]:
    scores = [s for r in results for s in r.scores]
    ms = [m for r in results for m in r.ms]
    s = summarize(scores)
    site_f1 = [summarize(r.scores).f1 for r in results if r.scores]
    return {"site": name, "dataset": "", "pages": len(scores),
            "precision": round(s.precision, 4), "recall": round(s.recall, 4),
            "f1": round(s.f1, 4), "mean_page_f1": round(s.mean_page_f1, 4),
            "empty_outputs": s.empty_outputs,
            "untrained_folds_pages": sum(r.untrained for r in results),
            "median_ms": round(statistics.median(ms), 2) if ms else 0.0,
            "mean_site_f1": round(statistics.mean(site_f1), 4) if site_f1 else 0.0}


def _sweep_rows(sweep: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for phi in sorted(sweep):
        s = summarize(sweep[phi]["scores"])
        blocks = sweep[phi]["blocks"]
        rows.append({"phi": phi, "blocks_per_page": round(statistics.mean(blocks), 3)
                     if blocks else 0.0, "precision": round(s.precision, 4),
                     "recall": round(s.recall, 4), "f1": round(s.f1, 4),
                     "empty_outputs": s.empty_outputs, "pages": s.pages})
    return rows


def plot_sweep(rows: Sequence[dict[str, Any]], path: Path, title: str) -> Path:
    """A PNG like seed 004 Fig. 8: blocks, precision, recall and F1 against Phi."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    phis = [r["phi"] for r in rows]
    fig, axes = plt.subplots(1, 4, figsize=(14, 3.4))
    for ax, key, label in zip(axes, ("blocks_per_page", "precision", "recall", "f1"),
                              ("(a) potential blocks per page", "(b) precision",
                               "(c) recall", "(d) F1")):
        ax.plot(phis, [r[key] for r in rows], marker="o")
        ax.set_xlabel("sliding window length Φ")
        ax.set_title(label)
        ax.set_xticks(phis)
        ax.grid(True, alpha=0.3)
        if key != "blocks_per_page":
            ax.set_ylim(0, 1)
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    keys: list[str] = []
    for row in rows:
        keys.extend(k for k in row if k not in keys)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)


def run(args: Any) -> int:
    """``blocksift eval --algo farsw --cv intra|inter [--phi-sweep]`` (see EVAL-CONTRACT)."""
    from .. import algorithms

    try:
        module = algorithms.load(args.algo)
    except algorithms.UnknownAlgorithm:
        print(f"unknown algorithm: {args.algo}", file=sys.stderr)
        return 2
    if getattr(module, "MODEL", None) != "trained" or not hasattr(module, "train_from_samples"):
        print(f"{args.algo} is not a trained algorithm; cross-validation needs one",
              file=sys.stderr)
        return 2
    try:
        params = module.Params.model_validate(getattr(args, "params", None) or {})
    except algorithms.ValidationError as exc:
        print(f"bad --param: {exc}", file=sys.stderr)
        return 2
    mode = args.cv if args.cv in ("intra", "inter") else "inter"
    folds = int(getattr(args, "folds", 10) or 10)
    phis = list(PHI_RANGE) if getattr(args, "phi_sweep", False) else []
    progress_bar = None
    tick = None
    if getattr(args, "progress", False):
        from tqdm import tqdm

        progress_bar = tqdm(file=sys.stderr, unit="page", desc="features",
                            total=pages_total(args.datasets, args.limit))
        tick = progress_bar.update
    try:
        items = load_items(args, params, tick)
    except FileNotFoundError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if progress_bar is not None:
        progress_bar.close()
        from tqdm import tqdm

        progress_bar = tqdm(file=sys.stderr, unit="page", desc=f"{mode}-site folds")
        tick = progress_bar.update
    results, sweep = cross_validate(items, params, mode, folds, phis, tick)
    if progress_bar is not None:
        progress_bar.close()
    rows = [r.row() for r in results]
    if not rows and not getattr(args, "json", False):  # said before any (empty) file is written
        sites = len({item.site for item in items})
        print(f"blocksift: nothing to cross-validate: no site has {MIN_SITE_PAGES} or more "
              f"pages ({len(items)} pages from {sites} sites)", file=sys.stderr)
        return 1
    overall = _summary_row(f"ALL ({mode}-site)", results)
    out = Path(getattr(args, "out", None) or "out/eval")
    tag = "-".join(Path(d).name for d in args.datasets)
    _write_csv(out / f"farsw-cv-{mode}-{tag}.csv", rows + [overall])
    document: dict[str, Any] = {"algorithm": args.algo, "cv": mode, "folds": folds,
                                "datasets": list(args.datasets), "limit": args.limit,
                                "min_site_pages": MIN_SITE_PAGES,
                                "params": params.model_dump(mode="json"),
                                "sites": rows, "overall": overall,
                                "pages_loaded": len(items)}
    if phis:
        sweep_rows = _sweep_rows(sweep)
        _write_csv(out / f"farsw-phi-{mode}-{tag}.csv", sweep_rows)
        document["phi_sweep"] = sweep_rows
        try:
            png = plot_sweep(sweep_rows, out / f"farsw-phi-{mode}-{tag}.png",
                             f"FAR-SW, {mode}-site cross-validation on {tag}")
            document["phi_plot"] = str(png)
        except ImportError:
            document["phi_plot"] = "matplotlib missing: pip install 'blocksift[eval]'"
    if getattr(args, "json", False):
        print(json.dumps(document, indent=1))
        return 0
    from ..terminal import say, terminal_width  # sentences wrap in a terminal

    width = terminal_width()
    header = f"{'site':<28} {'pages':>5} {'P':>6} {'R':>6} {'F1':>6} {'empty':>5} {'ms':>7}"
    say(f"FAR-SW {mode}-site cross-validation ("
        f"{f'{folds}-fold' if mode == 'intra' else 'leave-one-site-out'}), {len(items)} pages "
        f"loaded, sites with >= {MIN_SITE_PAGES} pages", width=width)
    print(header)
    for row in rows + [overall]:
        print(f"{row['site'][:28]:<28} {row['pages']:>5} {row['precision']:>6.3f} "
              f"{row['recall']:>6.3f} {row['f1']:>6.3f} {row['empty_outputs']:>5} "
              f"{row['median_ms']:>7.1f}")
    say(f"mean of per-site F1: {overall['mean_site_f1']:.3f} (the paper averages sites: "
        f"{'92.7%' if mode == 'intra' else '90.3%'} on its 16 news sites, by a byte-overlap "
        "metric on other pages: not comparable)", width=width)
    if phis:
        print("\nPhi sweep (Fig. 8)")
        print(f"{'phi':>3} {'blocks/page':>11} {'P':>6} {'R':>6} {'F1':>6} {'empty':>5}")
        for row in document["phi_sweep"]:
            print(f"{row['phi']:>3} {row['blocks_per_page']:>11.2f} {row['precision']:>6.3f} "
                  f"{row['recall']:>6.3f} {row['f1']:>6.3f} {row['empty_outputs']:>5}")
        print(f"plot: {document['phi_plot']}")
    return 0

"""Fit the title scorer's weights on wcxb-dev and report its site-grouped cross-validation.

Every page's title candidates (``blocksift.titles.candidates``) are built once; a candidate is
right when its words equal the gold ``title``'s (the same normalization as
``bench_metadata.py``). The model is a conditional logit: per page, softmax over its candidates
of ``w . features``, L2-penalized, fitted with L-BFGS. Folds are grouped by site (registered
domain), so no site is in both a training and a validation fold; the reported accuracy is the
share of *all* pages (with a gold title) whose top validation candidate is right. The penalty
is chosen by an inner site-grouped split of the training folds, never by the validation fold.

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/train_title_scorer.py [--folds 5] [--write]
        [--cache /tmp/title-candidates.pkl]

``--write`` refits on all pages with the penalty the CV chose most often and writes
``host/blocksift/data/title-scorer.json``. The candidates include the ``auto`` algorithm's
title, so building them runs ``auto`` over every page (minutes); ``--cache`` keeps them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from blocksift import algorithms, metadata, titles  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.page import Page  # noqa: E402
from blocksift.sites import site_key  # noqa: E402

OUT = HERE.parent / "host" / "blocksift" / "data" / "title-scorer.json"
PENALTIES = (0.01, 0.1, 1.0, 10.0)


def _algorithm(algo: str):
    module = algorithms.load(algo)
    params = module.Params.model_validate({"with_html": False}) \
        if "with_html" in module.Params.model_fields else module.Params()

    def title_of(page: Page) -> str:
        try:
            result = module.extract(page, params)
        except Exception:  # noqa: BLE001 - a failing algorithm gives no title candidate
            return ""
        return result.main.title if result.main else ""

    return title_of


def build(limit: int | None, algo: str) -> list[dict]:
    """wcxb-dev pages: a candidate is right when its words equal the gold ``title``'s."""
    title_of = _algorithm(algo)
    pages = []
    path = resolve("wcxb-dev")
    started = time.perf_counter()
    with gzip.open(path / "pages.jsonl.gz" if path.is_dir() else path, "rt",
                   encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            if limit is not None and index >= limit:
                break
            record = json.loads(line)
            if not record.get("title"):
                continue
            page = Page(record["html"], url=record.get("url"))
            found = metadata.title_candidates(page, title_of(page))
            gold = titles.words(record["title"])
            pages.append({"id": record["id"], "site": site_key(record.get("url")) or
                          record["id"], "set": "wcxb-dev", "type": record.get("page_type", ""),
                          "candidates": [(c.features, c.key == gold, c.text, c.rank)
                                         for c in found]})
            if index % 100 == 0:
                print(f"  {index} pages, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
    return pages


def build_headlines(dataset: str, limit: int | None, algo: str) -> list[dict]:
    """Pages of a set without title gold (``bench_titles.py``'s proxy): a candidate is right
    when its words equal one of the first three non-empty lines of the gold text, which was
    copied from the page starting at its visible headline, and it is not a date alone."""
    title_of = _algorithm(algo)
    pages = []
    for labeled in iter_pages(resolve(dataset), limit):
        firsts = {titles.words(line) for line in
                  [line for line in labeled.gold.splitlines() if line.strip()][:3]}
        page = Page(labeled.html, url=labeled.url)
        found = metadata.title_candidates(page, title_of(page))
        # a day alone is no title, though the gold may open with it (a blog's date line)
        pages.append({"id": labeled.id, "site": labeled.site or site_key(labeled.url) or
                      labeled.id, "set": dataset, "type": f"{dataset} (headline proxy)",
                      "candidates": [(c.features, c.key in firsts
                                      and not c.features.get("is_date"), c.text, c.rank)
                                     for c in found]})
    return pages


def matrices(pages: list[dict], names: list[str]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per page: (candidates x features, which candidates are right)."""
    column = {name: i for i, name in enumerate(names)}
    out = []
    for page in pages:
        rows = np.zeros((len(page["candidates"]), len(names)))
        for r, (features, _ok, _text, _rank) in enumerate(page["candidates"]):
            for name, value in features.items():
                if name in column:
                    rows[r, column[name]] = value
        out.append((rows, np.array([ok for _, ok, *_ in page["candidates"]], dtype=bool)))
    return out


def fit(data: list[tuple[np.ndarray, np.ndarray]], width: int, penalty: float) -> np.ndarray:
    """Maximize, per page, the log of the probability mass on its right candidates (one on
    wcxb-dev; on the headline proxy several lines of the gold may be right)."""
    usable = [(rows, right) for rows, right in data if right.any() and len(rows) > 1]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total = penalty * 0.5 * float(w @ w)
        grad = penalty * w
        for rows, right in usable:
            scores = rows @ w
            scores -= scores.max()
            p = np.exp(scores)
            p /= p.sum()
            mass = p[right].sum()
            total -= float(np.log(mass + 1e-300))
            grad -= (p[right] / mass) @ rows[right] - p @ rows
        return total, grad

    result = minimize(loss, np.zeros(width), jac=True, method="L-BFGS-B",
                      options={"maxiter": 500})
    return result.x


def accuracy(data: list[tuple[np.ndarray, np.ndarray]], w: np.ndarray,
             ranks: list[list[int]], date_column: int | None = None) -> float:
    """Share of pages whose top candidate is right, chosen as ``titles.best`` does (a date
    alone last)."""
    hits = 0
    for (rows, right), rank in zip(data, ranks, strict=True):
        if not right.any():
            continue
        scores = rows @ w
        dated = rows[:, date_column] if date_column is not None else np.zeros(len(rows))
        top = max(range(len(rows)), key=lambda i: (not dated[i], scores[i], -rank[i]))
        hits += bool(right[top])
    return hits / max(len(data), 1)


def log_likelihood(data: list[tuple[np.ndarray, np.ndarray]], w: np.ndarray) -> float:
    """Sum over pages with a right candidate of the log of the probability mass on them: a
    smoother measure than accuracy for choosing the penalty (accuracy on a third of the
    training folds moves in steps of one page, and chose 0.01 on one fold and 10 on the
    next)."""
    total = 0.0
    for rows, right in data:
        if not right.any() or len(rows) < 2:
            continue
        scores = rows @ w
        scores -= scores.max()
        p = np.exp(scores)
        total += float(np.log(p[right].sum() / p.sum() + 1e-300))
    return total


def site_folds(pages: list[dict], folds: int) -> list[int]:
    """Fold of each page: sites dealt round-robin by size, so folds hold similar pages."""
    sizes = Counter(page["site"] for page in pages)
    order = sorted(sizes, key=lambda site: (-sizes[site], site))
    fold_of_site = {site: i % folds for i, site in enumerate(order)}
    return [fold_of_site[page["site"]] for page in pages]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--algo", default="auto")
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--headlines", default="dragnet:150",
                        help="also fit on this set's headline proxy, DATASET:PAGES "
                             "(default %(default)s; empty: wcxb-dev only)")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.cache and args.cache.exists():
        pages = pickle.loads(args.cache.read_bytes())
    else:
        pages = build(args.limit, args.algo)
        if args.headlines:
            dataset, _, count = args.headlines.partition(":")
            pages += build_headlines(dataset, int(count) if count else None, args.algo)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(pages))
    names = sorted({name for page in pages for features, *_ in page["candidates"]
                    for name in features})
    data = matrices(pages, names)
    date_column = names.index("is_date") if "is_date" in names else None
    ranks = [[rank for *_, rank in page["candidates"]] for page in pages]
    fold = site_folds(pages, args.folds)
    reachable = sum(bool(right.any()) for _, right in data) / len(data)
    sets = Counter(page.get("set", "wcxb-dev") for page in pages)
    print(f"{dict(sets)} pages, {len({p['site'] for p in pages})} sites, {len(names)} "
          f"features; a right candidate exists on {reachable:.3f}")
    chosen_penalties = []
    by_type: Counter[str] = Counter()
    type_hits: Counter[str] = Counter()
    for k in range(args.folds):
        train = [i for i in range(len(pages)) if fold[i] != k]
        test = [i for i in range(len(pages)) if fold[i] == k]
        # inner site-grouped split of the training folds picks the penalty
        inner = site_folds([pages[i] for i in train], 3)
        best_penalty, best_score = PENALTIES[0], -np.inf
        for penalty in PENALTIES:
            score = 0.0
            for j in range(3):
                fit_on = [train[n] for n in range(len(train)) if inner[n] != j]
                check = [train[n] for n in range(len(train)) if inner[n] == j]
                w = fit([data[i] for i in fit_on], len(names), penalty)
                score += log_likelihood([data[i] for i in check], w)
            if score > best_score:
                best_penalty, best_score = penalty, score
        chosen_penalties.append(best_penalty)
        w = fit([data[i] for i in train], len(names), best_penalty)
        fold_acc = accuracy([data[i] for i in test], w, [ranks[i] for i in test], date_column)
        for i in test:
            by_type[pages[i]["type"]] += 1
            type_hits[pages[i]["type"]] += accuracy([data[i]], w, [ranks[i]], date_column)
        print(f"fold {k}: {len(test)} pages, penalty {best_penalty}, accuracy {fold_acc:.3f}")
    by_set: Counter[str] = Counter()
    for kind in by_type:
        by_set["wcxb-dev" if "proxy" not in kind else kind] += type_hits[kind]
    cv = by_set["wcxb-dev"] / sets["wcxb-dev"]
    others = "".join(f", {kind} {hit / by_type[kind]:.3f}"
                     for kind, hit in by_set.items() if kind != "wcxb-dev")
    print(f"site-grouped {args.folds}-fold CV title accuracy: wcxb-dev {cv:.3f}{others}")
    for kind in sorted(by_type, key=lambda t: -by_type[t]):
        print(f"  {kind:14} {by_type[kind]:5} {type_hits[kind] / by_type[kind]:.3f}")
    if args.write:
        penalty = Counter(chosen_penalties).most_common(1)[0][0]
        w = fit(data, len(names), penalty)
        weights = {name: round(float(value), 4) for name, value in zip(names, w, strict=True)
                   if abs(value) >= 1e-4}
        OUT.write_text(json.dumps({
            "format": 1,
            "trained_on": "wcxb-dev title gold (CC-BY-4.0, WCXB, Murrough Foley, 2026)"
                          + (f"; {args.headlines} headline proxy" if args.headlines else ""),
            "pages": dict(sets), "penalty": penalty,
            "site_grouped_cv_accuracy": round(cv, 4), "folds": args.folds,
            "in_sample_accuracy": round(accuracy(
                [d for d, p in zip(data, pages, strict=True) if p.get("set") == "wcxb-dev"], w,
                [r for r, p in zip(ranks, pages, strict=True) if p.get("set") == "wcxb-dev"],
                date_column), 4),
            "weights": weights,
        }, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(HERE.parent)} (penalty {penalty})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

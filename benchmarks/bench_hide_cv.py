"""Hide thresholds by domain-grouped cross-validation, with the segmenter's labels out-of-fold.

``blocksift eval --action hide`` measures the hide plan with the shipped ``auto`` as the main
content source; that model was trained on the development sets, so its main-content labels
are in-sample there and hiding looks safer than it is on a site it never saw. This script
measures hiding with ``auto``'s block probabilities predicted **out-of-fold** (each page's
probabilities from a model trained without its registered domain, as saved by
``bench_auto_cv.py --fold K --save-oof``), and chooses the hide thresholds by
cross-validation over the same domain groups: for each fold, the setting of the grid that
removes the most clutter while keeping the gold text safe on every set of the other folds
(mean kept ≥ 0.995, ≤ 2 % of pages losing more than 2 %) is scored on the fold's pages.

    # 1. per page: auto (out-of-fold) and linkblocks, once (about 0.2 s a page)
    python3 benchmarks/bench_hide_cv.py cache --cvcache CVDIR --oof fold0.pkl ... fold4.pkl \\
        --out hide-cache.pkl [--jobs 2]
    # 2. every setting of the grid on every page, then the cross-validated table
    git show main:host/blocksift/actions/hide.py > hide_before.py   # optional
    python3 benchmarks/bench_hide_cv.py eval --cache hide-cache.pkl --out hide-scores.pkl \\
        [--before hide_before.py]
    python3 benchmarks/bench_hide_cv.py table --scores hide-scores.pkl
    # where the clutter the default plan leaves lies (held-back pages, main regions)
    python3 benchmarks/bench_hide_cv.py where --cache hide-cache.pkl
    # the ceiling: whole elements hidden by an oracle that knows the gold text
    python3 benchmarks/bench_hide_cv.py oracle [--every 2]

``CVDIR`` is bench_auto_cv.py's ``--cache`` folder (block counts per page, to align the
saved probabilities with the pages); without ``--oof`` the shipped model is used
(in-sample: labelled so in the output). Pages whose block count differs from the saved
probabilities fall back to the shipped model and are counted.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import pickle
import sys
import time
from collections import Counter, defaultdict
from multiprocessing import Pool
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from blocksift import auto_training as at  # noqa: E402
from blocksift.actions import hide as hide_module  # noqa: E402
from blocksift.actions.hide import HideParams, decide  # noqa: E402
from blocksift.algorithms import auto, linkblocks  # noqa: E402
from blocksift.evaluation.datasets import resolve  # noqa: E402
from blocksift.evaluation.hide import LOSS_LIMIT, score, visible_words  # noqa: E402
from blocksift.evaluation.metric import tokens  # noqa: E402
from blocksift.evaluation.runner import percentile  # noqa: E402
from blocksift.labeled import iter_records  # noqa: E402
from blocksift.page import Page  # noqa: E402
from blocksift.wire import results as _results  # noqa: E402

# caches written before results moved into the wire package still load
sys.modules.setdefault("blocksift.results", _results)

SETS = ["wcxb-dev", "dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce"]
LARGE = {"wcxb-dev", "dragnet"}
FOLDS = 5

# -- stage 1: auto (out-of-fold) and linkblocks per page ----------------------------------

_OOF: dict[tuple[str, str], np.ndarray] = {}


class _FixedBlocks:
    """A block model that returns saved probabilities (the page's out-of-fold ones)."""

    def __init__(self, base: Any, prob: np.ndarray):
        self.base, self.prob = base, prob
        self.feature_names = base.feature_names

    def predict(self, x: np.ndarray, distinct: bool = False) -> np.ndarray:
        if len(x) != len(self.prob):
            raise LookupError(f"{len(x)} blocks, {len(self.prob)} saved probabilities")
        return self.prob.astype(np.float64)

    def contributions(self, x: np.ndarray) -> np.ndarray:
        return self.base.contributions(x)


def _init(oof: dict) -> None:
    _OOF.update(oof)


def _cache_one(job: tuple[str, int, dict]) -> dict[str, Any]:
    dataset, n, record = job
    page = Page(record["html"], url=record.get("url"))
    base = auto.load_model()
    params = auto.Params(main_text=False, reasons=0)
    key = (dataset, str(record.get("id")))
    source = "shipped"
    result = None
    if key in _OOF:
        model = copy.copy(base)
        # the saved probabilities are the deciding ones: a second, stacked pass must not
        # run again on top of them
        model.blocks = _FixedBlocks(base.blocks, _OOF[key])
        model.stacked, model.final_names = None, base.blocks.feature_names
        try:
            result = auto.extract(page, params, model=model)
            source = "oof"
        except LookupError:
            source = "shipped (block count differs)"
    if result is None:
        result = auto.extract(page, params, model=base)
    segments = [(page.xpath(el), kind, [page.xpath(e) for e in excluded], p)
                for el, kind, excluded, p in result.extra.get("segments", [])]
    page_type = result.extra.get("page_type", "")
    links = linkblocks.extract(page, linkblocks.Params(main_text=False))
    return {"dataset": dataset, "n": n, "id": key[1], "group": at.page_group(record, dataset),
            "source": source, "result": result.model_copy(update={"extra": {}}),
            "segments": segments, "page_type": page_type,
            "links": links.model_copy(update={"extra": {}})}


def _jobs(sets: list[str], limit: int | None):
    for dataset in sets:
        for n, record in enumerate(iter_records(resolve(dataset), limit)):
            yield dataset, n, record


def cmd_cache(args: argparse.Namespace) -> int:
    oof: dict[tuple[str, str], np.ndarray] = {}
    if args.oof:
        prob = None
        for file in args.oof:
            part = pickle.loads(file.read_bytes())["prob"]
            prob = part if prob is None else np.where(np.isnan(prob), part, prob)
        samples = []
        for dataset in SETS:
            samples += pickle.loads((args.cvcache / f"{dataset}.pkl").read_bytes())
        _x, _y, idx = at.stack(samples)
        starts = np.searchsorted(idx, np.arange(len(samples)))
        ends = np.searchsorted(idx, np.arange(len(samples)), side="right")
        for i, sample in enumerate(samples):
            oof[(sample.dataset, sample.page_id)] = prob[starts[i]:ends[i]].astype(np.float32)
        del samples
    started = time.time()
    out = []
    with Pool(args.jobs, initializer=_init, initargs=(oof,)) as pool:
        for item in pool.imap(_cache_one, _jobs(args.sets.split(","), args.limit), chunksize=4):
            out.append(item)
            if len(out) % 200 == 0:
                print(f"  {len(out)} pages, {time.time() - started:.0f} s", file=sys.stderr)
    sources = Counter(item["source"] for item in out)
    print(f"{len(out)} pages cached in {time.time() - started:.0f} s; main content: "
          + ", ".join(f"{k} {v}" for k, v in sources.items()))
    args.out.write_bytes(pickle.dumps(out))
    return 0


# -- stage 2: every setting on every page -------------------------------------------------

#: (veto_p, segment_links_p, segment_other_p); None: no segmenter regions hidden
GRIDS = {
    "first": ((1.0, None, None, ""), (0.2, None, None, ""), (0.1, None, None, ""),
              (0.05, None, None, ""), (0.1, 0.05, 0.0, ""), (0.05, 0.05, 0.0, ""),
              (0.1, 0.1, 0.03, "")),
    "careful": ((0.05, None, None, "c"), (0.02, None, None, "c"), (0.05, 0.05, 0.0, "c"),
                (0.02, None, None, ""), (0.05, None, None, "cl")),
    "confident": ((0.05, None, None, "c", 0.5), (0.05, None, None, "c", 0.7),
                  (0.05, None, None, "pc", 0.5), (0.05, 0.05, 0.0, "c", 0.7)),
    "typed": ((0.05, None, None, "c"), (0.05, None, None, "cl"), (0.05, 0.05, 0.0, "c"),
              (0.02, None, None, "c")),
    # careful also on pages the segmenter is unsure of (share of text above each value)
    "uncertain": tuple((0.05, None, None, "c", 0.7, share)
                       for share in (1.0, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05)),
    # the veto again, with the careful rules above on (after a model change)
    "veto-uncertain": tuple((veto, None, None, "c", 0.7, share)
                            for veto in (0.05, 0.1, 0.15, 0.2) for share in (0.2, 0.1, 0.05)),
    # on the pages hide is careful on, also what the segmenter is sure is not main content
    "restraint-sure": tuple((0.05, None, None, "c", 0.7, 0.1, sure)
                            for sure in (0.0, 0.002, 0.005, 0.01, 0.02, 0.05)),
    # on the pages hide is careful on, the page's own header and footer too
    "careful-frame": tuple((0.05, None, None, "c", 0.7, 0.1, 0.0, frame)
                           for frame in ((), ("footer",), ("header",), ("header", "footer"))),
    # the segmenter's own link / other regions hidden too, where it is sure of the page
    "uncertain-segments": ((0.05, None, None, "c", 0.7, 0.2),) + tuple(
        (0.05, links, 0.0, "c", 0.7, share) for links in (0.02, 0.05)
        for share in (0.2, 0.1, 0.05)),
}

def grid() -> list[tuple[str, HideParams]]:
    settings = []
    for veto, links, other, *careful in GRIDS[_GRID_NAME[0]]:
        # careful page types: "" none, "c" product/collection/service, "cl" also listing,
        # "pc" product/collection; then the least probability of the predicted type
        types = {"": (), "c": ("product", "collection", "service"),
                 "cl": ("product", "collection", "service", "listing"),
                 "pc": ("product", "collection")}[careful[0] if careful else ""]
        min_p = careful[1] if len(careful) > 1 else 0.0
        # settings without it were chosen before the uncertain-page rule existed: off
        unsure = careful[2] if len(careful) > 2 else 1.0
        sure = careful[3] if len(careful) > 3 else 0.0
        frame = careful[4] if len(careful) > 4 else ()
        suffix = f" careful={'+'.join(types) or 'none'}" if careful else ""
        suffix += f" p>={min_p}" if min_p else ""
        suffix += f" unsure>{unsure}" if unsure < 1.0 else ""
        suffix += f" sure<{sure}" if sure else ""
        suffix += f" +{'+'.join(frame)}" if frame else ""
        if links is None:
            settings.append((f"veto {veto}{suffix}", HideParams(
                veto_p=veto, segments=False, careful_page_types=types, careful_min_p=min_p,
                careful_uncertain_share=unsure, restraint_sure_p=sure,
                careful_page_chrome=frame)))
        else:
            settings.append((f"veto {veto} links<={links} other<={other}{suffix}",
                             HideParams(veto_p=veto, segments=True, segment_links_p=links,
                                        segment_other_p=other, careful_page_types=types,
                                        careful_min_p=min_p,
                                        careful_uncertain_share=unsure)))
    return settings


_OLD: list[Any] = []
_GRID_NAME = ["first"]


def _init_eval(before: Path | None, grid_name: str = "first") -> None:
    """Load an earlier hide.py (``git show REV:host/blocksift/actions/hide.py > FILE``) to
    measure it side by side as the "before" row."""
    _GRID_NAME[0] = grid_name
    if before is None:
        return
    name = "blocksift.actions.hide_before"
    spec = importlib.util.spec_from_file_location(name, before)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _OLD.append(module)


def _resolve(page: Page, path: str):
    try:
        hits = page.tree.xpath(path)
    except Exception:  # an XPath lxml wrote but cannot read back (namespaced tags)
        return None
    return hits[0] if hits else None


def _eval_one(item: dict[str, Any]) -> dict[str, Any]:
    try:
        return _eval_page(item)
    except Exception as exc:  # one bad page must not stop the run
        return {"dataset": item["dataset"], "id": item["id"], "group": item["group"],
                "source": item["source"], "error": f"{type(exc).__name__}: {exc}"}


def _page_and_result(item: dict[str, Any]) -> tuple[Page, Any]:
    """The cached page's tree and auto's result with its regions resolved in that tree."""
    record = item["record"]
    page = Page(record["html"], url=record.get("url"))
    result = item["result"]
    segments = []
    stored = item["segments"]
    if stored and len(stored[0]) == 3:  # a cache from before blocks grouped runs of regions
        stored = [(*segment, block.features["p_main"])
                  for segment, block in zip(stored, result.blocks)]
    for path, kind, excluded, p_main in stored:
        element = _resolve(page, path)
        if element is None:
            segments = []
            break
        segments.append((element, kind, [e for e in (_resolve(page, p) for p in excluded)
                                         if e is not None], p_main))
    return page, result.model_copy(update={"extra": {"segments": segments,
                                                     "page_type": item["page_type"]}})


def _eval_page(item: dict[str, Any]) -> dict[str, Any]:
    record = item["record"]
    page, result = _page_and_result(item)
    gold = Counter(t.lower() for t in tokens(record.get("gold") or ""))
    before = visible_words(page)
    scores: dict[str, tuple] = {}
    memo: dict[frozenset, tuple] = {}

    def scored(hidden: list) -> tuple:
        key = frozenset(hidden)
        if key not in memo:
            memo[key] = score(page, gold, hidden, before)
        return memo[key]

    for old in _OLD:
        scores["main before"] = scored(old.decide(page, result, item["links"]).elements)
    stats = hide_module.measure(page.body)
    real_measure = hide_module.measure
    hide_module.measure = lambda root: stats if root is page.body else real_measure(root)
    try:
        for name, params in grid():
            scores[name] = scored(decide(page, result, item["links"], params).elements)
    finally:
        hide_module.measure = real_measure
    return {"dataset": item["dataset"], "id": item["id"], "group": item["group"],
            "source": item["source"], "scores": scores}


def _with_records(cache: list[dict[str, Any]], sets: list[str], every: int = 1):
    wanted = {(c["dataset"], c["n"]): c for c in cache
              if every == 1 or c["dataset"] not in LARGE or c["n"] % every == 0}
    for dataset in sets:
        for n, record in enumerate(iter_records(resolve(dataset))):
            item = wanted.get((dataset, n))
            if item is not None:
                yield {**item, "record": record}


def cmd_eval(args: argparse.Namespace) -> int:
    cache = pickle.loads(args.cache.read_bytes())
    sets = list(dict.fromkeys(c["dataset"] for c in cache))
    started = time.time()
    out = []
    with Pool(args.jobs, initializer=_init_eval, initargs=(args.before, args.grid)) as pool:
        for item in pool.imap(_eval_one, _with_records(cache, sets, args.every), chunksize=2):
            out.append(item)
            if len(out) % 200 == 0:
                print(f"  {len(out)} pages, {time.time() - started:.0f} s", file=sys.stderr)
                args.out.write_bytes(pickle.dumps(out))  # partial results survive a crash
    args.out.write_bytes(pickle.dumps(out))
    errors = [o for o in out if "error" in o]
    _GRID_NAME[0] = args.grid
    print(f"{len(out)} pages ({len(errors)} failed), {len(grid()) + 1} settings, "
          f"{time.time() - started:.0f} s")
    for failed in errors[:10]:
        print(f"  {failed['dataset']}/{failed['id']}: {failed['error']}")
    return 0


# -- where the clutter that stays lies ----------------------------------------------------

def _where_page(item: dict[str, Any]) -> dict[str, Any] | None:
    """The default plan's clutter removed, whether it held back, and the most any plan
    that never touches the main regions could remove (everything else hidden)."""
    page, result = _page_and_result(item)
    segments = result.extra["segments"]
    if not segments:
        return None
    gold = Counter(t.lower() for t in tokens(item["record"].get("gold") or ""))
    before = visible_words(page)
    plan = decide(page, result, item["links"], HideParams())
    _kept, removed, _links = score(page, gold, plan.elements, before)
    main_words: Counter[str] = Counter()
    for element, kind, excluded, _p in segments:
        if kind == "main":
            main_words += visible_words(SimpleNamespace(body=element), excluded)[0]
    clutter = sum((before[0] - gold).values())
    if removed is None or not clutter:
        return None
    return {"dataset": item["dataset"], "removed": removed, "held_back": bool(
        plan.plan.restraint), "ceiling": 1 - sum((main_words - gold).values()) / clutter}


def cmd_where(args: argparse.Namespace) -> int:
    cache = pickle.loads(args.cache.read_bytes())
    sets = list(dict.fromkeys(c["dataset"] for c in cache))
    with Pool(args.jobs) as pool:
        rows = [r for r in pool.imap(_where_page, _with_records(cache, sets, args.every),
                                     chunksize=4) if r is not None]
    print("non-gold words removed by the default plan, and at most by any plan that keeps the "
          "main regions whole")
    print(f"  {'set':16} {'pages':>5} {'removed':>8} {'at most':>8}   {'held back':>9} "
          f"{'removed':>8} {'at most':>8}   {'others':>6} {'removed':>8} {'at most':>8}")
    mean = (lambda rs, k: sum(r[k] for r in rs) / len(rs) if rs else 0.0)  # noqa: E731
    for dataset in sets:
        rs = [r for r in rows if r["dataset"] == dataset]
        held = [r for r in rs if r["held_back"]]
        free = [r for r in rs if not r["held_back"]]
        print(f"  {dataset:16} {len(rs):>5} {mean(rs, 'removed'):>8.3f} "
              f"{mean(rs, 'ceiling'):>8.3f}   {len(held):>9} {mean(held, 'removed'):>8.3f} "
              f"{mean(held, 'ceiling'):>8.3f}   {len(free):>6} {mean(free, 'removed'):>8.3f} "
              f"{mean(free, 'ceiling'):>8.3f}")
    return 0


# -- the ceiling: whole elements hidden by an oracle that knows the gold text -------------

def _element_words(body: Any) -> dict[Any, Counter]:
    """Visible words of every element's subtree, counted as ``visible_words`` counts them."""
    from blocksift.actions.hide import _invisible
    from blocksift.content import NON_TEXT_TAGS

    found: dict[Any, Counter] = {}
    for node in reversed(list(body.iter())):  # children before their parents
        if not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS or _invisible(node):
            continue
        bag = Counter(t.lower() for t in tokens(node.text or ""))
        for child in node:
            if child in found:
                bag.update(found[child])
            if child.tail:
                bag.update(t.lower() for t in tokens(child.tail))
        found[node] = bag
    return found


def oracle_hidden(page: Page, gold: Counter, before: Counter) -> list:
    """Top down, every whole element whose words the page can spare without one gold word
    fewer (bags, as the metric), never the ``<h1>`` or an element holding it (the headline
    rule): what a hide that knew the gold, and hid only whole elements, would remove."""
    words = _element_words(page.body)
    after = Counter(before)
    headline = {a for h in page.body.iter("h1") for a in (h, *h.iterancestors())}
    hidden, stack = [], [page.body]
    while stack:
        node = stack.pop()
        bag = words.get(node)
        if not bag:
            continue
        if node is not page.body and node not in headline and all(
                after[w] - n >= gold[w] for w, n in bag.items() if w in gold):
            after.subtract(bag)
            hidden.append(node)
            continue
        stack.extend(reversed([child for child in node if isinstance(child.tag, str)]))
    return hidden


def _oracle_page(job: tuple[str, int, dict]) -> tuple[str, tuple] | None:
    dataset, _n, record = job
    page = Page(record["html"], url=record.get("url"))
    if page.body is None:
        return None
    gold = Counter(t.lower() for t in tokens(record.get("gold") or ""))
    before = visible_words(page)
    return dataset, score(page, gold, oracle_hidden(page, gold, before[0]), before)


def cmd_oracle(args: argparse.Namespace) -> int:
    jobs = ((d, n, r) for d, n, r in _jobs(args.sets.split(","), args.limit)
            if d not in LARGE or n % args.every == 0)
    rows: dict[str, list[tuple]] = defaultdict(list)
    with Pool(args.jobs) as pool:
        for found in pool.imap(_oracle_page, jobs, chunksize=4):
            if found is not None:
                rows[found[0]].append(found[1])
    print("whole elements hidden by an oracle that knows the gold text (no gold word lost, "
          "the <h1> kept): the most any container rule could remove")
    print(f"  {'set':16} {'pages':>5} {'kept':>6} {'removed':>8} {'link words':>10}")
    for dataset, scored in rows.items():
        kept, removed, links = ([v[i] for v in scored if v[i] is not None] for i in range(3))
        print(f"  {dataset:16} {len(scored):>5} {sum(kept) / len(kept):>6.3f} "
              f"{sum(removed) / len(removed):>8.3f} {sum(links) / len(links):>10.3f}")
    return 0


# -- stage 3: the cross-validated table ---------------------------------------------------

def summary(rows: list[tuple]) -> dict[str, float]:
    kept = [r[0] for r in rows if r[0] is not None]
    removed = [r[1] for r in rows if r[1] is not None]
    links = [r[2] for r in rows if r[2] is not None]
    mean = (lambda v: sum(v) / len(v) if v else 0.0)  # noqa: E731
    return {"pages": len(rows), "kept": mean(kept), "p10": percentile(kept, 0.10),
            "lost": sum(k < LOSS_LIMIT for k in kept) / len(kept) if kept else 0.0,
            "removed": mean(removed), "link_removed": mean(links)}


def fold_of(groups: list[str]) -> dict[str, int]:
    """GroupKFold over registered domains, as bench_auto_cv.py splits (same folds)."""
    from sklearn.model_selection import GroupKFold

    index = np.arange(len(groups))
    fold: dict[str, int] = {}
    for k, (_train, test) in enumerate(GroupKFold(n_splits=FOLDS).split(index, groups=groups)):
        for i in test:
            fold[groups[i]] = k
    return fold


def safe(per_set: dict[str, dict[str, float]], margin: float) -> bool:
    return all(s["kept"] >= 0.995 + margin and s["lost"] <= 0.02 - margin / 5
               for s in per_set.values())


def cmd_table(args: argparse.Namespace) -> int:
    scores = pickle.loads(args.scores[0].read_bytes())
    for more in args.scores[1:]:  # further settings on the same pages, from another run
        extra = {(s["dataset"], s["id"]): s for s in pickle.loads(more.read_bytes())}
        for s in scores:
            other = extra.get((s["dataset"], s["id"]))
            if other is None or "error" in other:
                s["error"] = s.get("error", "missing in a later run")
            elif "error" not in s:
                s["scores"].update(other["scores"])
    failed = [s for s in scores if "error" in s]
    scores = [s for s in scores if "error" not in s]
    if failed:
        print(f"{len(failed)} pages failed and are left out")
    names = list(scores[0]["scores"])
    folds = fold_of([s["group"] for s in scores])
    sets = list(dict.fromkeys(s["dataset"] for s in scores))
    print(f"{len(scores)} pages, {len(set(folds.values()))} folds by registered domain; main "
          "content: " + ", ".join(f"{k} {v}" for k, v in
                                  Counter(s["source"] for s in scores).items()))
    held: dict[str, list[tuple]] = defaultdict(list)
    for k in range(FOLDS):
        train = [s for s in scores if folds[s["group"]] != k]

        def per_set(name: str, pages: list[dict] = train) -> dict[str, dict[str, float]]:
            return {d: summary([p["scores"][name] for p in pages if p["dataset"] == d])
                    for d in sets}

        def rank(name: str, train: list[dict] = train) -> tuple:
            table = per_set(name, train)
            pooled = summary([p["scores"][name] for p in train])
            return (safe(table, args.margin), pooled["removed"] if safe(table, args.margin)
                    else min(t["kept"] for t in table.values()), pooled["link_removed"])

        candidates = [n for n in names if n != "main before"]
        best = max(candidates, key=rank)
        test = [s for s in scores if folds[s["group"]] == k]
        print(f"fold {k}: chose {best!r} ({len(test)} held-out pages, safe on the others: "
              f"{rank(best)[0]})")
        for s in test:
            held[s["dataset"]].append(s["scores"][best])
    print("\nheld-out (cross-validated) per set:")
    _print_rows({d: summary(held[d]) for d in sets})
    for name in [n for n in ("main before",) if n in names] + (args.show or names):
        print(f"\nall pages, setting {name!r}:")
        _print_rows({d: summary([s["scores"][name] for s in scores if s["dataset"] == d])
                     for d in sets})
    return 0


def _print_rows(table: dict[str, dict[str, float]]) -> None:
    print(f"  {'set':<16} {'pages':>5} {'kept':>6} {'p10':>6} {'>2% lost':>8} "
          f"{'clutter rm':>10} {'link rm':>8}")
    for name, row in table.items():
        print(f"  {name:<16} {row['pages']:>5} {row['kept']:>6.3f} {row['p10']:>6.3f} "
              f"{row['lost'] * 100:>7.1f}% {row['removed']:>10.3f} {row['link_removed']:>8.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cache")
    c.add_argument("--cvcache", type=Path)
    c.add_argument("--oof", type=Path, nargs="*")
    c.add_argument("--sets", default=",".join(SETS))
    c.add_argument("--limit", type=int)
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--out", type=Path, required=True)
    e = sub.add_parser("eval")
    e.add_argument("--cache", type=Path, required=True)
    e.add_argument("--jobs", type=int, default=2)
    e.add_argument("--before", type=Path, help="an earlier hide.py, measured side by side")
    e.add_argument("--grid", choices=sorted(GRIDS), default="first")
    e.add_argument("--every", type=int, default=1, help="every Nth page of the large sets "
                   f"({', '.join(sorted(LARGE))}); all pages of the others")
    e.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table")
    t.add_argument("--scores", type=Path, nargs="+", required=True)
    t.add_argument("--margin", type=float, default=0.0,
                   help="choose only settings safe by this much on the other folds")
    t.add_argument("--show", nargs="*", default=[], help="settings to print on all pages")
    w = sub.add_parser("where", help="where the clutter the default plan leaves lies")
    w.add_argument("--cache", type=Path, required=True)
    w.add_argument("--jobs", type=int, default=2)
    w.add_argument("--every", type=int, default=2)
    o = sub.add_parser("oracle", help="the most whole-element hiding could remove")
    o.add_argument("--sets", default=",".join(SETS))
    o.add_argument("--limit", type=int)
    o.add_argument("--jobs", type=int, default=2)
    o.add_argument("--every", type=int, default=2, help="every Nth page of the large sets")
    args = parser.parse_args()
    return {"cache": cmd_cache, "eval": cmd_eval, "table": cmd_table,
            "where": cmd_where, "oracle": cmd_oracle}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())

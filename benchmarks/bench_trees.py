"""The learned ``auto``'s tree runtime beside the one of another git revision, in one process.

``auto`` scores a page's blocks with tree ensembles evaluated in numpy
(``segmenter/trees.py``) and builds the stacked model's context columns
(``segmenter/context.py``). This script loads both files as they are at ``--against REV``
next to the working tree's, then:

* runs ``auto`` on the dev pages and hands every ensemble call (``predict`` of the block,
  stacked and page-type models, ``contributions`` of the explained rows) and every context
  call to both runtimes with the same input, in alternating order, checks the outputs are
  equal and sums each runtime's time per page (the best of ``--repeat`` runs of the page):
  total, median per page and the ratio, per call kind and overall, and the current
  runtime's share of ``auto``'s own time. Timing
  inside real ``auto`` runs keeps the allocator in the state ``auto`` leaves it in (timing
  the calls alone, on a fresh heap, counts page faults ``auto`` does not see);
* predicts a ``--rows`` matrix (rows drawn from those pages' block and stacked matrices)
  with both runtimes, best of 3 each, alternating;
* times ``auto.load_model()`` in fresh processes (median of 5; the budget is 50 ms).

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_trees.py --against REV [--dataset wcxb-dev] \\
        [--limit 150] [--rows 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "host"))

from blocksift.algorithms import auto  # noqa: E402
from blocksift.algorithms.segmenter import trees  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.page import Page  # noqa: E402

PACKAGE = "blocksift.algorithms.segmenter"


def _module_at(revision: str, name: str):
    """``segmenter/<name>.py`` as it is at ``revision``, imported beside the current one."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{revision}:host/blocksift/algorithms/segmenter/"
         f"{name}.py"], check=True, capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader(f"{PACKAGE}._baseline_{name}", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = PACKAGE
    sys.modules[spec.name] = module  # dataclasses look their module up
    exec(compile(source, f"{revision}:{name}.py", "exec"), module.__dict__)
    return module


def _baseline_ensemble(module, ensemble: trees.TreeEnsemble):
    return module.TreeEnsemble(ensemble.feature, ensemble.threshold, ensemble.left,
                               ensemble.right, ensemble.value, ensemble.default_left,
                               ensemble.roots, ensemble.depth, ensemble.feature_names,
                               ensemble.n_classes)


class SideBySide:
    """Wraps the current runtime's calls: both runtimes run each call, times are summed."""

    def __init__(self, base_trees, base_context, model: auto.SegmenterModel):
        self.page: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        self.pages: list[dict[str, list[float]]] = []
        self.flip = False
        self.collect = True  # keep the block and stacked matrices (first run of a page)
        self.matrices: dict[str, list[np.ndarray]] = defaultdict(list)
        self.names = {id(e): name for name, e in (("blocks", model.blocks),
                                                  ("stacked", model.stacked),
                                                  ("page_type", model.page_type)) if e}
        self.base = {id(e): _baseline_ensemble(base_trees, e)
                     for e in (model.blocks, model.stacked, model.page_type) if e}
        self.base_context = base_context.context_features
        # before its features were built on demand, context took the page's feature matrix
        self.base_takes_blocks = "blocks" in inspect.signature(self.base_context).parameters
        current = trees.TreeEnsemble
        self.current_predict, self.current_contributions = (current.predict,
                                                            current.contributions)
        self.current_context = auto.context_features
        runner = self

        def predict(ensemble, x, distinct=False):
            name = runner.names.get(id(ensemble))
            if name is None:
                return runner.current_predict(ensemble, x, distinct)
            if name != "page_type" and runner.collect:
                runner.matrices[name].append(np.array(x))
            return runner.both(f"predict {name}",
                               lambda: runner.current_predict(ensemble, x, distinct),
                               lambda: runner.base[id(ensemble)].predict(x, distinct))

        def contributions(ensemble, x):
            if id(ensemble) not in runner.base:  # the fast model's, on a long page
                return runner.current_contributions(ensemble, x)
            return runner.both("contributions",
                               lambda: runner.current_contributions(ensemble, x),
                               lambda: runner.base[id(ensemble)].contributions(x))

        def context_features(features, prob):
            return runner.both("context", lambda: runner.current_context(features, prob),
                               lambda: runner.base_context(
                                   features if runner.base_takes_blocks else features.features,
                                   prob))

        current.predict, current.contributions = predict, contributions
        auto.context_features = context_features

    def both(self, kind: str, new, old):
        self.flip = not self.flip
        order = ((0, new), (1, old)) if self.flip else ((1, old), (0, new))
        results = {}
        for slot, call in order:
            start = time.perf_counter()
            results[slot] = call()
            self.page[kind][slot] += time.perf_counter() - start
        if not np.array_equal(results[0], results[1], equal_nan=True):
            raise SystemExit(f"{kind}: the runtimes disagree")
        return results[0]

    def end_page(self) -> None:
        self.pages.append(dict(self.page))
        self.page.clear()


def _report(pages: list[dict[str, list[float]]], walls: list[float]) -> None:
    kinds = sorted({k for page in pages for k in page})
    print(f"{'calls':22s} {'current ms':>11s} {'baseline ms':>12s} {'ratio':>6s}   "
          f"median per page: current / baseline ms")
    for kind in kinds + ["all"]:
        per_page = [[sum(page[k][slot] for k in (kinds if kind == "all" else [kind])
                         if k in page) for slot in (0, 1)] for page in pages]
        new, old = (np.array([p[slot] for p in per_page]) * 1e3 for slot in (0, 1))
        print(f"{kind:22s} {new.sum():11.1f} {old.sum():12.1f} {old.sum() / new.sum():6.2f}   "
              f"{np.median(new):.3f} / {np.median(old):.3f}")
    own = [wall - sum(v[1] for v in page.values()) for wall, page in zip(walls, pages)]
    spent = [sum(v[0] for v in page.values()) for page in pages]
    print(f"auto's own time {sum(own) / len(own) * 1e3:.1f} ms/page (median "
          f"{statistics.median(own) * 1e3:.1f}); current trees+context share "
          f"{sum(spent) / sum(own):.0%}")


def _big(runner: SideBySide, model: auto.SegmenterModel, n_rows: int) -> None:
    rng = np.random.default_rng(0)
    for name, ensemble in (("blocks", model.blocks), ("stacked", model.stacked)):
        if ensemble is None or not runner.matrices[name]:
            continue
        rows = np.concatenate(runner.matrices[name])
        x = rows[rng.integers(0, len(rows), n_rows)]
        best = [np.inf, np.inf]
        for repeat in range(3):
            for slot in ((0, 1) if repeat % 2 == 0 else (1, 0)):
                call = (runner.current_predict if slot == 0
                        else lambda e, m: runner.base[id(e)].predict(m))
                start = time.perf_counter()
                call(ensemble, x)
                best[slot] = min(best[slot], time.perf_counter() - start)
        print(f"{n_rows} rows, {name:8s} current {best[0]:.3f} s, baseline {best[1]:.3f} s, "
              f"ratio {best[1] / best[0]:.2f}")


def _load_time() -> None:
    code = (f"import time, sys; sys.path.insert(0, {str(ROOT / 'host')!r})\n"
            "from blocksift.algorithms import auto\n"
            "t = time.perf_counter(); auto.load_model(); print(time.perf_counter() - t)")
    times = [float(subprocess.run([sys.executable, "-c", code], check=True,
                                  capture_output=True, text=True).stdout) for _ in range(5)]
    print(f"auto.load_model() in a fresh process: median {statistics.median(times) * 1e3:.1f} "
          f"ms of 5 (budget 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", required=True, help="git revision of the baseline")
    parser.add_argument("--dataset", default="wcxb-dev")
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3, help="auto runs per page")
    args = parser.parse_args()
    model = auto.load_model()
    runner = SideBySide(_module_at(args.against, "trees"), _module_at(args.against, "context"),
                        model)
    params = auto.Params()
    walls, pages = [], []
    for page in iter_pages(resolve(args.dataset), limit=args.limit):
        runs = []
        for run in range(args.repeat):
            runner.collect = run == 0
            start = time.perf_counter()
            auto.extract(Page(page.html, url=page.url), params)
            runs.append(time.perf_counter() - start)
            runner.end_page()
        # the best of the page's runs, per call kind and runtime: the least disturbed
        tries = runner.pages[-args.repeat:]
        pages.append({kind: [min(t[kind][slot] for t in tries) for slot in (0, 1)]
                      for kind in tries[0]})
        walls.append(min(runs))
    print(f"{len(walls)} pages of {args.dataset}, best of {args.repeat} runs each; "
          f"current = working tree, baseline = {args.against}")
    _report(pages, walls)
    _big(runner, model, args.rows)
    _load_time()


if __name__ == "__main__":
    main()

"""Cost of the learned segmenter's features (``segmenter/features.py``), this checkout beside
a baseline version of that one file, in one process.

The baseline's ``features.py`` (``git show REF:...``) is loaded as a second module of the
same package, so both use the same parsed pages and the same helper modules; only the
feature code differs. Each page goes to both in turn, the order rotating page by page, over
several rounds (the median round is reported), so the machine's load hits both alike; the
time is the process's CPU time, steadier than the wall clock on a shared machine.
Figures: ms per page of ``features.compute`` without the papers' and the rule-based
extractor's signals (the code of features.py alone) and with them, on the first N pages of a
dev set (parse excluded); and µs per element of the walk and of ``compute`` on a synthetic
page of N paragraphs (``bench_auto_scale.py``'s page).

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_features.py [--baseline REF] [--dataset wcxb-dev]
        [--limit 150] [--rounds 5] [--paragraphs 30000]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from blocksift.algorithms.segmenter import features  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.page import Page  # noqa: E402

FEATURES_PATH = "host/blocksift/algorithms/segmenter/features.py"


def load_baseline(ref: str, folder: Path):
    """The ``features`` module as it is at git ``ref``, beside this checkout's."""
    source = subprocess.run(["git", "-C", str(HERE.parent), "show", f"{ref}:{FEATURES_PATH}"],
                            check=True, capture_output=True, text=True).stdout
    path = folder / "features_baseline.py"
    path.write_text(source, encoding="utf-8")
    name = "blocksift.algorithms.segmenter._features_baseline"  # relative imports resolve
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def big_page(n: int) -> Page:
    menu = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(30))
    paras = "".join(f"<p>Paragraph {i} says something, with a comma and an end.</p>"
                    for i in range(n))
    return Page(f"<html><head><title>Big</title></head><body><nav><ul>{menu}</ul></nav>"
                f"<article><h1>Big page</h1>{paras}</article><aside><ul>{menu}</ul></aside>"
                f"<footer>Footer text</footer></body></html>")


def timed_rounds(versions: dict, pages: list[Page], call, rounds: int) -> dict[str, list[float]]:
    """CPU seconds per round of ``call(module, page)`` over all pages, per version."""
    totals = {name: [] for name in versions}
    names = list(versions)
    for _ in range(rounds):
        spent = dict.fromkeys(names, 0.0)
        for i, page in enumerate(pages):
            order = names if i % 2 == 0 else names[::-1]
            for name in order:
                started = time.process_time()
                call(versions[name], page)
                spent[name] += time.process_time() - started
        for name in names:
            totals[name].append(spent[name])
    return totals


def report(label: str, totals: dict[str, list[float]], scale: float, unit: str) -> None:
    medians = {name: statistics.median(times) * scale for name, times in totals.items()}
    base, new = medians["baseline"], medians["this"]
    print(f"{label:<44} baseline {base:8.2f} {unit}   this {new:8.2f} {unit}   "
          f"ratio {new / base:5.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="main", help="git ref of the baseline")
    parser.add_argument("--dataset", default="wcxb-dev")
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--paragraphs", type=int, default=30000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        versions = {"baseline": load_baseline(args.baseline, Path(folder)), "this": features}
    pages = [Page(lp.html) for lp in iter_pages(resolve(args.dataset), limit=args.limit)]
    for page in pages:
        assert page.tree is not None  # parsed outside the timing
    print(f"{len(pages)} pages of {args.dataset}; baseline = {args.baseline}; "
          f"median of {args.rounds} rounds, order alternating page by page")
    per_page = 1000 / len(pages)
    for module in versions.values():  # warm the memos of both
        for page in pages:
            module.compute(page)
    report("compute, own code (papers=False, rules=False)",
           timed_rounds(versions, pages,
                        lambda m, p: m.compute(p, papers=False, rules=False), args.rounds),
           per_page, "ms/page")
    report("compute, all signals",
           timed_rounds(versions, pages, lambda m, p: m.compute(p), args.rounds),
           per_page, "ms/page")
    big = big_page(args.paragraphs)
    elements = sum(1 for _ in big.tree.find("body").iter())
    print(f"synthetic page: {args.paragraphs} paragraphs, {elements} elements in the body")
    per_element = 1e6 / elements
    report("walk", timed_rounds(versions, [big, big], lambda m, p: m.walk(p), args.rounds),
           per_element / 2, "µs/elem")
    report("compute, own code",
           timed_rounds(versions, [big, big],
                        lambda m, p: m.compute(p, papers=False, rules=False), args.rounds),
           per_element / 2, "µs/elem")
    report("compute, all signals",
           timed_rounds(versions, [big, big], lambda m, p: m.compute(p), args.rounds),
           per_element / 2, "µs/elem")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How the hide plan's main regions (the overlay's "main" boxes) come out over a labeled set.

    BLOCKSIFT_DATASETS=/work/shared/datasets python3 tools/region_stats.py wcxb-dev [--step 2]

Runs shipped ``auto`` and the hide plan on every ``step``-th page and prints the regions per
page (mean, 90th percentile, max) and the share of the page's non-gold words that lie inside
a region (bags of words: a word counts as non-gold as far as the page holds more of it than
the gold text), i.e. how much that is not main content the boxes take in. For a before and
after, run it in both checkouts.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from lxml import etree  # noqa: E402

from blocksift.actions.hide import _invisible, hide_for  # noqa: E402
from blocksift.algorithms import load  # noqa: E402
from blocksift.content import NON_TEXT_TAGS  # noqa: E402
from blocksift.evaluation.metric import tokens  # noqa: E402
from blocksift.labeled import iter_pages, resolve  # noqa: E402
from blocksift.metadata import attach  # noqa: E402
from blocksift.page import Page  # noqa: E402


def words_in(elements: Iterable[etree._Element]) -> Counter:
    """The visible words of the elements' subtrees (each subtree once)."""
    words: Counter[str] = Counter()
    stack = list(elements)
    while stack:
        node = stack.pop()
        if not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS or _invisible(node):
            continue
        words.update(t.lower() for t in tokens(node.text or ""))
        for child in node:
            stack.append(child)
            words.update(t.lower() for t in tokens(child.tail or ""))
    return words


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("--step", type=int, default=1, help="every STEP-th page (default 1)")
    args = parser.parse_args()
    module = load("auto")
    model = module.load_model() if getattr(module, "MODEL", None) == "trained" else None
    counts: list[int] = []
    covered = nongold = 0
    for i, labeled in enumerate(iter_pages(resolve(args.dataset))):
        if i % args.step:
            continue
        page = Page(labeled.html, url=labeled.url)
        result = module.extract(page, module.Params(), model=model)
        attach(page, result)
        plan = hide_for(page, result)
        found = [e for region in plan.main_regions for x in region.xpaths
                 for e in page.tree.xpath(x)]
        outer = set(found)
        found = [e for e in found if not any(a in outer for a in e.iterancestors())]
        gold = Counter(t.lower() for t in tokens(labeled.gold or ""))
        covered += sum(max(0, n - gold[t]) for t, n in words_in(found).items())
        nongold += sum(max(0, n - gold[t]) for t, n in words_in([page.body]).items())
        counts.append(len(plan.main_regions))
    if not counts:
        print("no pages")
        return 1
    ordered = sorted(counts)
    mean = sum(counts) / len(counts)
    print(f"{args.dataset}: {len(counts)} pages, regions per page mean {mean:.2f}"
          f", 90th percentile {ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]}, max "
          f"{ordered[-1]}; non-gold words inside a region {covered}/{nongold} = "
          f"{covered / max(1, nongold):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where ``auto``'s time goes, stage by stage, beside trafilatura in the same run.

Each stage is timed from the HTML string (its own parse included), every page going to
every stage in one run with the order rotating page by page, so that the noise of a shared
machine hits them all alike. The stages nest: each one's CPU time holds the stages above it,
so the difference between two rows is what the lower one adds. The ratio column divides a
stage's median by trafilatura's: the crawl goal of per-core throughput at 2x trafilatura's
(docs/scale.md) needs the whole crawl extraction at 0.5 or below.

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_auto_stages.py [--dataset wcxb-dev] [--limit 300]

Stages: lxml's parse alone; ``Page.tree`` (the tag scan, the stamp, lxml's parse and the
repair checks); the segmenter's blocks and features with the fast model's signals (no FAR-SW,
no auto-rules) and with the default model's; ``auto`` with the fast model and with the
default model as a crawl runs them (text only, :data:`blocksift.crawl.TEXT_ONLY`); ``auto``
for the reader view (HTML and reasons too). trafilatura runs as in ``bench_auto.py``
(``include_comments=False``; the ``eval`` extra).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from lxml import html as lxml_html  # noqa: E402

from blocksift.algorithms.segmenter import features  # noqa: E402
from blocksift.crawl import PageExtractor  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.evaluation.runner import percentile  # noqa: E402
from blocksift.page import Page  # noqa: E402


def stages() -> dict[str, Callable[[str, str | None], object]]:
    import trafilatura

    fast, default = PageExtractor("auto", model_path="fast"), PageExtractor("auto")
    reader = PageExtractor("auto", params={"with_html": True, "reasons": 3})
    return {
        "lxml parse alone": lambda html, url: lxml_html.document_fromstring(
            html.encode("utf-8", errors="replace")),
        "Page.tree (scan, stamp, parse, repair)": lambda html, url: Page(html, url=url).tree,
        "features, fast model's signals": lambda html, url: features.compute(
            Page(html, url=url), rules=False, without=("farsw",)),
        "features, default model's signals": lambda html, url: features.compute(
            Page(html, url=url)),
        "auto, fast model, text only": fast,
        "auto, default model, text only": default,
        "auto, reader view (HTML, reasons)": reader,
        "trafilatura": lambda html, url: trafilatura.extract(html, url=url,
                                                              include_comments=False),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="wcxb-dev")
    parser.add_argument("--limit", type=int, default=300)
    args = parser.parse_args()
    pages = [(p.html, p.url) for p in iter_pages(resolve(args.dataset), limit=args.limit)]
    runs = stages()
    names = list(runs)
    for name in names:  # models and lazy imports load before the clock starts
        runs[name](*pages[0])
    times: dict[str, list[float]] = {name: [] for name in names}
    for n, (html, url) in enumerate(pages):
        for k in range(len(names)):
            name = names[(n + k) % len(names)]
            started = time.process_time()
            runs[name](html, url)
            times[name].append((time.process_time() - started) * 1000)
        if (n + 1) % 50 == 0:
            print(f"  {n + 1}/{len(pages)} pages", file=sys.stderr, flush=True)
    base = statistics.median(times["trafilatura"])
    base_mean = statistics.fmean(times["trafilatura"])
    print(f"{args.dataset}, {len(pages)} pages, CPU ms per page")
    print("| stage | median | p95 | mean | median / trafilatura's | mean / trafilatura's |")
    print("|---|---|---|---|---|---|")
    for name in names:
        values = times[name]
        median, mean = statistics.median(values), statistics.fmean(values)
        print(f"| {name} | {median:.2f} | {percentile(values, 0.95):.2f} | {mean:.2f} | "
              f"{median / base:.2f} | {mean / base_mean:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Speed of the linkblocks scan against an lxml parse of the same pages, in one run.

The papers' point (seed 000 §3 and Conclusion) is that logical link blocks need no tag tree:
one front-to-back scan of the source finds them. This script times, page by page and
interleaved (so both sides see the same machine load), ``linkblocks.extract`` with
``main_text=False`` (scan + distances + blocks + LCR/CCR) for text and code distance, the
bare link scan, and ``lxml.html.document_fromstring`` of the same string. Each page is timed
``--repeat`` times and its best time kept; times are CPU time of this process
(``time.process_time``), so other load on a shared machine does not count. MB are UTF-8
megabytes (10^6 bytes).

    python3 benchmarks/bench_linkblocks.py [--dataset NAME ...] [--limit N] [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

import lxml.html  # noqa: E402
from lxml import etree  # noqa: E402

from blocksift.algorithms import linkblocks  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.page import Page  # noqa: E402

DATASETS = ("dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce")


def lxml_parse(raw: str) -> None:
    try:
        lxml.html.document_fromstring(raw)
    except (etree.ParserError, ValueError):
        pass  # an empty document: lxml refuses it, the scan returns "empty"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", action="append", dest="datasets",
                        help="dataset name or path (default: the four dev sets)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--repeat", type=int, default=3, help="timings per page (best kept)")
    args = parser.parse_args(argv)

    pages: list[str] = []
    for name in args.datasets or DATASETS:
        try:
            pages.extend(p.html for p in iter_pages(resolve(name), args.limit))
        except FileNotFoundError as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
    if not pages:
        print("no pages", file=sys.stderr)
        return 1
    megabytes = sum(len(p.encode("utf-8")) for p in pages) / 1e6

    text_params = linkblocks.Params(main_text=False)
    code_params = linkblocks.Params(main_text=False, distance="code")
    runners = {
        "lxml.html.document_fromstring": lxml_parse,
        "linkblocks scan_links only": linkblocks.scan_links,
        "linkblocks extract, text distance": lambda raw: linkblocks.extract(Page(raw),
                                                                            text_params),
        "linkblocks extract, code distance": lambda raw: linkblocks.extract(Page(raw),
                                                                            code_params),
    }
    best: dict[str, list[float]] = {name: [float("inf")] * len(pages) for name in runners}
    clock = time.process_time  # CPU time: waiting for a shared core does not count
    for _ in range(args.repeat):
        for index, raw in enumerate(pages):
            for name, run in runners.items():
                start = clock()
                run(raw)
                elapsed = clock() - start
                if elapsed < best[name][index]:
                    best[name][index] = elapsed

    print(f"{len(pages)} pages, {megabytes:.1f} MB (UTF-8), best of {args.repeat} per page, "
          "interleaved")
    base = best["lxml.html.document_fromstring"]
    base_total = sum(base)
    print(f"{'':36} {'MB/s':>8} {'ms/page med':>12} {'ms/page mean':>13} "
          f"{'total/lxml':>11} {'med page ratio':>15}")
    for name, times in best.items():
        total = sum(times)
        ratios = [t / b for t, b in zip(times, base) if b > 0]
        print(f"{name:36} {megabytes / total:8.1f} {statistics.median(times) * 1000:12.2f} "
              f"{total / len(times) * 1000:13.2f} {total / base_total:11.2f} "
              f"{statistics.median(ratios):15.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

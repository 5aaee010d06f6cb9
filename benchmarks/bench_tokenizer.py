"""Speed of the raw-HTML scans (tag scan, link scan, linkblocks, FAR-SW lines), in one run.

Times, page by page and interleaved, ``rawscan.scan`` (the tag scan every tree-based
algorithm starts with), ``linkblocks.scan_links``, ``linkblocks.extract`` with text distance
and ``main_text=False``, FAR-SW's ``page_lines`` and ``line_features`` (the block features
``auto`` reads) and ``lxml.html.document_fromstring`` of the same string. ``--stamp-ids``
first gives every start tag a ``data-bsid`` as its last attribute, as the extension's
snapshots have (the tag scan then reads an id per tag). With ``--baseline-host DIR`` the
same functions of another source tree (its ``host`` folder, e.g. an older checkout) are
timed beside them, so a change is measured against its base under the same load. Each page
is timed ``--repeat`` times and its best CPU time (``time.process_time``) kept. MB are UTF-8
megabytes (10^6 bytes).

    python3 benchmarks/bench_tokenizer.py [--dataset NAME ...] [--limit N] [--repeat R]
                                         [--baseline-host DIR] [--stamp-ids]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

import lxml.html  # noqa: E402
from lxml import etree  # noqa: E402

import blocksift  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402

DATASETS = ("dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce")


def load_tree(host: Path, alias: str) -> str:
    """Import the ``blocksift`` package under ``host`` as ``alias``; returns the alias."""
    spec = importlib.util.spec_from_file_location(
        alias, host / "blocksift" / "__init__.py",
        submodule_search_locations=[str(host / "blocksift")])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return alias


def measures(package: str) -> dict[str, Callable[[str], object]]:
    rawscan = importlib.import_module(f"{package}.rawscan")
    linkblocks = importlib.import_module(f"{package}.algorithms.linkblocks")
    farsw = importlib.import_module(f"{package}.algorithms.farsw")
    page_module = importlib.import_module(f"{package}.page")
    lb_params = linkblocks.Params(main_text=False)
    fw_params = farsw.Params()
    return {
        "tag scan": lambda raw: rawscan.scan(raw),
        "link scan": lambda raw: linkblocks.scan_links(raw),
        "linkblocks": lambda raw: linkblocks.extract(page_module.Page(raw), lb_params),
        "farsw lines": lambda raw: farsw.page_lines(page_module.Page(raw), fw_params),
        "farsw line features": lambda raw: farsw.line_features(page_module.Page(raw), fw_params),
    }


def stamp_ids(raw: str) -> str:
    """``raw`` with ``data-bsid="<ordinal>"`` as the last attribute of every start tag that
    ends with ``>``, where the extension's ``setAttribute`` puts it."""
    from blocksift.rawscan import scan

    pieces: list[str] = []
    last = 0
    for ordinal, tag_end in enumerate(scan(raw, None).tag_ends):
        if raw[tag_end - 1:tag_end] != ">":
            continue
        cut = tag_end - 2 if raw[tag_end - 2:tag_end] == "/>" else tag_end - 1
        pieces.append(raw[last:cut])
        pieces.append(f' data-bsid="{ordinal}"')
        last = cut
    pieces.append(raw[last:])
    return "".join(pieces)


def lxml_parse(raw: str) -> None:
    try:
        lxml.html.document_fromstring(raw)
    except (etree.ParserError, ValueError):
        pass


def best_time(function: Callable[[str], object], raw: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        function(raw)
        best = min(best, time.process_time() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", action="append", dest="datasets",
                        help="dataset name or path (default: the four dev sets)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--repeat", type=int, default=3, help="timings per page (best kept)")
    parser.add_argument("--baseline-host", type=Path, default=None,
                        help="another tree's host/ folder, timed beside this one")
    parser.add_argument("--stamp-ids", action="store_true",
                        help="give every start tag a data-bsid, as the extension does")
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
    if args.stamp_ids:
        pages = [stamp_ids(raw) for raw in pages]
    megabytes = sum(len(p.encode("utf-8")) for p in pages) / 1e6

    sides = {"this": measures(blocksift.__name__)}
    if args.baseline_host is not None:
        sides["base"] = measures(load_tree(args.baseline_host.resolve(), "blocksift_base"))
    totals: dict[tuple[str, str], float] = {}
    lxml_total = 0.0
    for raw in pages:
        lxml_total += best_time(lxml_parse, raw, args.repeat)
        for side, functions in sides.items():
            for label, function in functions.items():
                key = (side, label)
                totals[key] = totals.get(key, 0.0) + best_time(function, raw, args.repeat)
    print(f"{len(pages)} pages{' (ids stamped)' if args.stamp_ids else ''}, {megabytes:.1f} MB, "
          f"best of {args.repeat} CPU times per page")
    print(f"{'lxml parse':<28}{lxml_total:8.2f} s  1.00x")
    for label in sides["this"]:
        for side in sides:
            seconds = totals[(side, label)]
            print(f"{label + ' (' + side + ')':<28}{seconds:8.2f} s  {seconds / lxml_total:.2f}x"
                  f"  {megabytes / seconds:6.1f} MB/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

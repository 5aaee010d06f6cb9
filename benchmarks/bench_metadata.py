"""Metadata accuracy (title, author, date) of blocksift beside trafilatura, on wcxb-dev.

wcxb-dev's gold has ``title``, ``author`` and ``publish_date`` as a reader sees them on the
page. Accuracy of a field = share of the pages whose gold has that field where the tool's
value matches it:

* title and author: normalized exact match (NFKC, case-folded ``\\w+`` tokens; for authors the
  words "and"/"by" are dropped, so "A, B and C" equals the list [A, B, C]);
* date: the same calendar day (the gold's ``YYYY-MM-DD`` against the tool's day).

"said nothing" counts pages with a gold value where the tool returned none; "wrong on empty"
counts pages without a gold value where the tool returned one anyway.

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_metadata.py [--limit N] [--algo auto]

blocksift's figures come from ``blocksift.metadata.extract`` over the algorithm's main text
(the title is the algorithm's title); trafilatura's from ``trafilatura.extract_metadata``
(title, author, date) in the same run, on the same pages.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from blocksift import algorithms, metadata  # noqa: E402
from blocksift.evaluation.datasets import resolve  # noqa: E402
from blocksift.page import Page  # noqa: E402

FIELDS = ("title", "author", "date")
_WORD = re.compile(r"\w+")
_FILLER = {"and", "by"}

Fields = dict[str, str]


def tokens(text: str | None, drop_filler: bool = False) -> str:
    words = _WORD.findall(unicodedata.normalize("NFKC", text or "").casefold())
    return " ".join(w for w in words if not (drop_filler and w in _FILLER))


def same(field: str, gold: str, found: str) -> bool:
    if field == "date":
        return bool(found) and found[:10] == gold[:10]
    return tokens(found, field == "author") == tokens(gold, field == "author")


def blocksift_tool(algo: str) -> Callable[[str, str | None], Fields]:
    module = algorithms.load(algo)
    params = module.Params.model_validate({"with_html": False}) \
        if "with_html" in module.Params.model_fields else module.Params()

    def run(html: str, url: str | None) -> Fields:
        page = Page(html, url=url)
        result = module.extract(page, params)
        meta = metadata.extract(page, result.main,
                                page_type=metadata.confident_page_type(result))
        return {"title": meta.title, "author": ", ".join(meta.authors), "date": meta.published}

    return run


def trafilatura_tool() -> Callable[[str, str | None], Fields] | None:
    try:
        import trafilatura
    except ImportError:
        print("trafilatura not installed: skipped", file=sys.stderr)
        return None

    def run(html: str, url: str | None) -> Fields:
        found = trafilatura.extract_metadata(html, default_url=url)
        if found is None:
            return dict.fromkeys(FIELDS, "")
        return {"title": found.title or "", "author": found.author or "",
                "date": found.date or ""}

    return run


def gold_records(limit: int | None):
    import gzip
    import json

    path = resolve("wcxb-dev")
    with gzip.open(path / "pages.jsonl.gz" if path.is_dir() else path, "rt",
                   encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            if limit is not None and index >= limit:
                return
            yield json.loads(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int)
    parser.add_argument("--algo", default="auto", help="algorithm whose main text is used")
    parser.add_argument("--misses", type=int, default=0,
                        help="print this many blocksift misses per field (for reading)")
    args = parser.parse_args()
    try:
        resolve("wcxb-dev")
    except (FileNotFoundError, ValueError) as err:
        print(f"{err} -- point BLOCKSIFT_DATASETS at the shared datasets folder",
              file=sys.stderr)
        return 2
    tools = {"blocksift": blocksift_tool(args.algo)}
    other = trafilatura_tool()
    if other:
        tools["trafilatura"] = other
    gold_key = {"title": "title", "author": "author", "date": "publish_date"}
    hits = {tool: dict.fromkeys(FIELDS, 0) for tool in tools}
    silent = {tool: dict.fromkeys(FIELDS, 0) for tool in tools}
    spurious = {tool: dict.fromkeys(FIELDS, 0) for tool in tools}
    seconds = dict.fromkeys(tools, 0.0)
    with_gold = dict.fromkeys(FIELDS, 0)
    without_gold = dict.fromkeys(FIELDS, 0)
    misses: dict[str, list[str]] = {field: [] for field in FIELDS}
    pages = 0
    for record in gold_records(args.limit):
        pages += 1
        for field in FIELDS:
            if record.get(gold_key[field]):
                with_gold[field] += 1
            else:
                without_gold[field] += 1
        for tool, run in tools.items():
            started = time.perf_counter()
            found = run(record["html"], record.get("url"))
            seconds[tool] += time.perf_counter() - started
            for field in FIELDS:
                gold = record.get(gold_key[field]) or ""
                if not gold:
                    spurious[tool][field] += bool(found[field])
                elif not found[field]:
                    silent[tool][field] += 1
                elif same(field, gold, found[field]):
                    hits[tool][field] += 1
                if gold and tool == "blocksift" and not same(field, gold, found[field]) and \
                        len(misses[field]) < args.misses:
                    misses[field].append(f"{record['id']}: gold {gold!r} found {found[field]!r}")
    print(f"wcxb-dev, {pages} pages; main text from {args.algo!r}")
    print(f"{'field':7} {'gold':>5}  " + "  ".join(
        f"{tool + ' acc':>16} {'said nothing':>12} {'wrong on empty':>14}" for tool in tools))
    for field in FIELDS:
        row = f"{field:7} {with_gold[field]:5}  "
        row += "  ".join(
            f"{hits[tool][field] / max(with_gold[field], 1):16.3f} {silent[tool][field]:12}"
            f" {spurious[tool][field]:>8}/{without_gold[field]:<5}" for tool in tools)
        print(row)
    print("seconds: " + ", ".join(f"{tool} {secs:.1f}" for tool, secs in seconds.items()))
    for field, lines in misses.items():
        for line in lines:
            print(f"miss {field}: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

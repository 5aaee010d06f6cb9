"""Title accuracy of ``auto`` beside trafilatura and readability-lxml, on the dev datasets.

The datasets carry no title gold, so this is a proxy: a title counts as right when it equals
(tokens compared, case and punctuation ignored) one of the first three non-empty lines of the
page's gold text. Gold texts were copied from the rendered page and start with its visible
headline, sometimes after a date or a section line; a title that is only the site name, a
dek, or an SEO variant of the headline counts as wrong. cleaneval-dev golds often start with
page furniture instead, and zh-cwce golds rarely hold the headline, so their figures say less.

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_titles.py [--dataset NAME ...] [--limit N]

"metadata" is the reader's title (``blocksift.metadata``: its scorer over the page's title
candidates, fitted on wcxb-dev and the first 150 dragnet pages' headline proxy, so the other
sets, and the rest of dragnet, are unseen by it). trafilatura's title
is ``extract_metadata(html).title``; readability-lxml's is ``Document(html).short_title()``
(what its reader shows).
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from blocksift import metadata  # noqa: E402
from blocksift.algorithms import auto  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.page import Page  # noqa: E402

DEFAULT_DATASETS = ["dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce"]
_WORD = re.compile(r"\w+")


def tokens(text: str | None) -> str:
    """Word tokens, case-folded and NFKC-normalized, joined by one space."""
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text or "").casefold()))


def title_tools() -> dict[str, Callable[[str, str | None], str]]:
    params = auto.Params(with_html=False)

    last: dict[str, tuple[str, str]] = {}

    def auto_and_metadata(html: str, url: str | None) -> tuple[str, str]:
        if html not in last:
            page = Page(html, url=url)
            result = auto.extract(page, params)
            last.clear()
            last[html] = (result.main.title if result.main else "",
                          metadata.extract(page, result.main).title)
        return last[html]

    tools: dict[str, Callable[[str, str | None], str]] = {
        "auto": lambda html, url: auto_and_metadata(html, url)[0],
        "metadata": lambda html, url: auto_and_metadata(html, url)[1],
    }
    try:
        import trafilatura

        def trafilatura_title(html: str, url: str | None) -> str:
            metadata = trafilatura.extract_metadata(html, default_url=url)
            return (metadata.title or "") if metadata else ""

        tools["trafilatura"] = trafilatura_title
    except ImportError:
        print("trafilatura not installed: skipped", file=sys.stderr)
    try:
        from readability import Document

        logging.getLogger("readability").setLevel(logging.CRITICAL)
        logging.getLogger("readability.readability").setLevel(logging.CRITICAL)

        def readability_title(html: str, url: str | None) -> str:
            try:
                return Document(html, url=url).short_title() or ""
            except Exception:  # noqa: BLE001 - a failure is a wrong title, as for a reader
                return ""

        tools["readability-lxml"] = readability_title
    except ImportError:
        print("readability-lxml not installed: skipped", file=sys.stderr)
    return tools


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", action="append", dest="datasets")
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    tools = title_tools()
    print(f"{'dataset':16} {'pages':>5}  " + "  ".join(f"{name:>16}" for name in tools))
    for name in args.datasets or DEFAULT_DATASETS:
        try:
            path = resolve(name)
        except (FileNotFoundError, ValueError) as err:
            print(f"{err} -- point BLOCKSIFT_DATASETS at the shared datasets folder",
                  file=sys.stderr)
            return 2
        hits = dict.fromkeys(tools, 0)
        pages = 0
        for labeled in iter_pages(path, args.limit):
            firsts = {tokens(line) for line in
                      [line for line in labeled.gold.splitlines() if line.strip()][:3]}
            if not firsts:
                continue
            pages += 1
            for tool, run in tools.items():
                if tokens(run(labeled.html, labeled.url)) in firsts:
                    hits[tool] += 1
        print(f"{name:16} {pages:5}  " +
              "  ".join(f"{hits[tool] / max(pages, 1):16.3f}" for tool in tools), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

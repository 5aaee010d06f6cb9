"""Does the reader HTML show what the main text holds? A rendering check over labeled pages.

For each page, ``auto``'s reader HTML with its tags stripped (a regex: lxml's HTML parser
drops parts of valid HTML5, such as an ``<h4>`` inside an ``<a>``, that a browser shows) is
compared with its main text: words (the metric's tokens) of each against the gold, and
against each other. Printed per run: mean word F1 of the text and of the HTML's text; pages
whose HTML shows under 90 % or over 110 % of the text's words; pages showing escaped markup
(``&lt;p``, ``&lt;picture``…: markup the sanitizer read as text; code samples that show HTML
on purpose count too); empty code boxes; the pages where the HTML does worst against the
text. With the shipped model on its own training pages these are not quality figures:
the check is whether the rendering loses or adds what the segmenter chose.

    python3 benchmarks/bench_reader_html.py [--host DIR] [--dataset wcxb-dev ...] [--worst 15]
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ESCAPED = re.compile(r"&lt;/?(?:p|div|img|picture|source|a|span|iframe|video|br)\b")
EMPTY_CODE = re.compile(r"<pre>\s*<code[^>]*>\s*</code>\s*</pre>")
TAG = re.compile(r"<[^>]+>")
SETS = ["wcxb-dev", "dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", type=Path, default=REPO / "host",
                        help="the host folder whose code runs (another checkout's, to compare)")
    parser.add_argument("--dataset", action="append", help=f"default: {', '.join(SETS)}")
    parser.add_argument("--worst", type=int, default=15)
    args = parser.parse_args()
    sys.path.insert(0, str(args.host))
    from blocksift.algorithms import auto
    from blocksift.evaluation.datasets import iter_pages, resolve
    from blocksift.evaluation.metric import word_prf, words
    from blocksift.page import Page

    rows = []
    escaped = empty_boxes = empty_pages = 0
    for name in args.dataset or SETS:
        for labeled in iter_pages(resolve(name)):
            result = auto.extract(Page(labeled.html, url=labeled.url), auto.Params())
            if not result.main or not result.main.html or not labeled.gold:
                continue
            shown = html.unescape(TAG.sub(" ", result.main.html))
            escaped += bool(ESCAPED.search(result.main.html))
            boxes = len(EMPTY_CODE.findall(result.main.html))
            empty_boxes += boxes
            empty_pages += bool(boxes)
            f_text = word_prf(result.main.text, labeled.gold)[2]
            f_html = word_prf(shown, labeled.gold)[2]
            rows.append((f_html - f_text, name, labeled.id, round(f_text, 3), round(f_html, 3),
                         sum(words(result.main.text).values()), sum(words(shown).values())))
    if not rows:
        print("no pages")
        return 1
    print(f"{args.host}: {len(rows)} pages; mean word F1 of the text "
          f"{sum(r[3] for r in rows) / len(rows):.4f}, of the HTML's text "
          f"{sum(r[4] for r in rows) / len(rows):.4f}")
    print(f"HTML under 90 % of the text's words: {sum(r[6] < 0.9 * r[5] for r in rows)} pages; "
          f"over 110 %: {sum(r[6] > 1.1 * r[5] for r in rows)}")
    print(f"escaped markup: {escaped} pages; empty code boxes: {empty_boxes} on "
          f"{empty_pages} pages")
    print("worst (HTML F1 - text F1, set, page, text F1, HTML F1, text words, HTML words):")
    for row in sorted(rows)[:args.worst]:
        print(f"  {row[0]:+.3f} {row[1]} {row[2]} {row[3]} {row[4]} {row[5]} {row[6]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

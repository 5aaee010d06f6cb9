"""The peer extractors the benchmarks compare with, each a function from (HTML, URL) to text.

trafilatura 2.3.1 (with or without comments), readability-lxml 0.9 (its HTML summary made
plain text the way blocksift's reader text is), resiliparse 2.0.1 with ``main_content=True``;
installed by the ``eval`` extra. Imported lazily, so a benchmark runs without the ones it
does not use.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

Tool = Callable[[str, str | None], str]


def make_trafilatura(include_comments: bool = False) -> Tool:
    import trafilatura

    def run(html: str, url: str | None) -> str:
        return trafilatura.extract(html, url=url, include_comments=include_comments) or ""

    return run


def make_readability() -> Tool:
    from lxml import html as lxml_html
    from readability import Document

    from blocksift.content import plain_text

    logging.getLogger("readability").setLevel(logging.CRITICAL)
    logging.getLogger("readability.readability").setLevel(logging.CRITICAL)

    def run(html: str, url: str | None) -> str:
        summary = Document(html, url=url).summary(html_partial=True)
        if not summary.strip():
            return ""
        return plain_text([lxml_html.fragment_fromstring(summary, create_parent="div")])

    return run


def make_resiliparse() -> Tool:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    def run(html: str, url: str | None) -> str:
        return extract_plain_text(HTMLTree.parse(html), main_content=True) or ""

    return run


"""A decimal character reference of thousands of digits never fails a reader of page text.

``html.unescape`` converts the digits with ``int()``, which refuses strings over 4,300
digits: such a reference in a page's text failed ``linkblocks``, ``farsw`` and the title
and metadata readers (found by ``benchmarks/fuzz_pages.py``). ``htmltokenizer.unescape``
reads it as ``html.unescape`` would without the limit.
"""

from __future__ import annotations

import html
import sys

import pytest

from blocksift import algorithms, metadata, titles
from blocksift.algorithms.farsw import Params as FarswParams
from blocksift.algorithms.farsw.lines import page_lines
from blocksift.htmltokenizer import unescape
from blocksift.page import Page

HUGE = "&#" + "9" * 5000 + ";"
PADDED = "&#" + "0" * 5000 + "65;"  # the value is small, the digits are not
PAGE = (f"<html><head><title>News {HUGE} &amp;#{'1' * 5000}; today</title>"
        f"<meta property='og:title' content='Story &amp;#{'7' * 5000};'></head><body>"
        f"<p>{'Words of the article. ' * 30}{HUGE}{PADDED}</p>"
        f"<a href='/a'>{HUGE} first</a> between {HUGE} <a href='/b'>second</a>"
        f"<a href='/c'>third</a></body></html>")


def _unescape_without_limit(text: str) -> str:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return html.unescape(text)
    finally:
        sys.set_int_max_str_digits(old)


@pytest.mark.parametrize("text", [
    HUGE, PADDED, "a &#65; b &#x41; &amp; &#" + "1" * 99 + ";", "&#" + "0" * 200 + "1114111",
    "&#" + "0" * 200 + "1114112;", "&#" + "12" * 300 + "x", "plain", "&#" + "5" * 5000])
def test_unescape_reads_every_decimal_reference_as_html_unescape_would(text):
    assert unescape(text) == _unescape_without_limit(text)


def test_with_the_limit_html_unescape_itself_fails():
    with pytest.raises(ValueError):
        html.unescape(HUGE)  # the reason for htmltokenizer.unescape


@pytest.mark.parametrize("name", algorithms.names())
def test_every_algorithm_reads_the_page(name):
    module = algorithms.load(name)
    result = module.extract(Page(PAGE), module.Params())
    assert result.status in ("ok", "empty", "not_suitable")


def test_farsw_lines_titles_and_metadata_read_the_page():
    lines = page_lines(Page(PAGE), FarswParams(), with_text=True)
    assert any("\ufffd" in line.text for line in lines.lines)
    assert "\ufffd" in titles.clean("News &amp;#" + "1" * 5000 + ";")
    found = metadata.extract(Page(PAGE))
    assert found.title

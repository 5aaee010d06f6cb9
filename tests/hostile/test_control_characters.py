"""Control characters in the page reach the reader-view HTML without failing the page.

lxml keeps C0 controls it parsed, but refuses them when text is set again, which the
reader's rendering does when it rebuilds code listings, layout tables and formulas: such a
page used to fail in ``auto`` with an internal error (found by ``benchmarks/fuzz_pages.py``).
"""

from __future__ import annotations

import pytest

from blocksift import algorithms, content
from blocksift.page import Page

ARTICLE = "<p>" + "Words of the article body. " * 30 + "</p>"
FRAGMENTS = {
    "code-listing": "<pre>first\x0bline\x01 of code</pre>",
    "nested-listing": "<pre><div>first\x0c line</div><div>second line</div></pre>",
    "layout-table": "<table><tr><td>" + "layout cell words \x0c " * 30 + "</td></tr></table>",
    "tex-formula": '<script type="math/tex">x^2\x0b</script>',
    "lazy-image": "<noscript><img src='/a.png'></noscript>\x0b tail words",
    "text-and-tails": "<p>text\x02 and <b>bold\x1f</b>\x08 tail</p>",
    "in-a-comment": "<div><!-- note\x01 --><pre>code <b>line</b></pre></div>",
}


@pytest.mark.parametrize("name", sorted(FRAGMENTS))
@pytest.mark.parametrize("algorithm", ["auto", "linkblocks", "auto-rules"])
def test_control_characters_do_not_fail_the_reader_html(name, algorithm):
    module = algorithms.load(algorithm)
    html = f"<html><body><article>{ARTICLE}{FRAGMENTS[name]}{ARTICLE}</article></body></html>"
    result = module.extract(Page(html), module.Params())
    assert result.status == "ok", result.message
    assert "Words of the article body" in result.main.html
    assert not any(chr(c) in result.main.html for c in (1, 2, 8, 11, 12, 31))


def test_a_link_holding_a_control_character_is_made_absolute_percent_encoded():
    html = (f"<html><body><article>{ARTICLE}<p>See <a href='notes/a\x01b'>the notes</a>.</p>"
            f"{ARTICLE}</article></body></html>")
    module = algorithms.load("auto")
    result = module.extract(Page(html, url="https://example.com/docs/"), module.Params())
    assert result.status == "ok", result.message
    assert 'href="https://example.com/docs/notes/a%01b"' in result.main.html


def test_an_excluded_box_followed_by_a_control_character_leaves_its_tail():
    # dropping the box moves its tail onto the text before it: a text set again
    page = Page("<html><body><article><p>First paragraph.</p><div>Advertisement</div>"
                "\x01tail words<p>Second paragraph.</p></article></body></html>")
    article = page.tree.find(".//article")
    html = content.sanitized_html(page, [article], exclude={article.find("div")})
    assert "Advertisement" not in html
    assert "tail words" in html and "\x01" not in html


def _spellings(code: int) -> list[str]:
    """Ways a page can write the character ``code`` that libxml2 decodes to it."""
    return [f"&#{code};", f"&#{code}", f"&#000{code};", f"&#x{code:x};", f"&#X{code:X};",
            f"&#x00{code:x}", chr(code) if not 0xD800 <= code < 0xE000 else ""]


#: Code points around every range :data:`content._NOT_XML_TEXT` refuses, and beyond
#: what a reference can hold (libxml2 makes those U+FFFD).
CODES = [*range(0, 0x100), *range(0xFFF0, 0x10010), 0x10FFFF, 0x110000, 2**32 + 1]


@pytest.mark.parametrize("after", ["", "b", "9", "f;", " "])
def test_the_source_search_finds_every_control_character_the_parser_makes(after):
    # the reader looks for control characters in its copies only where the raw page has
    # one (content._may_hold_not_xml_text): it must never miss one the tree then holds
    missed = []
    for code in CODES:
        for written in _spellings(code) if code <= 0x10FFFF else [f"&#{code};"]:
            raw = f"<html><body><p>a{written}{after}</p></body></html>"
            text = Page(raw).tree.find("body").text_content()
            if content._NOT_XML_TEXT.search(text) and not content._may_hold_not_xml_text(raw):
                missed.append((written, after))
    assert missed == []


def test_the_source_search_passes_a_page_of_ordinary_references():
    raw = "<p>It&#39;s &#8217;quoted&#8217; &#x2014; &#10; &#13; &#x9; &#127; &#xA0;</p>"
    assert not content._may_hold_not_xml_text(raw)


@pytest.mark.parametrize("name", ["code-listing", "text-and-tails", "layout-table"])
def test_control_characters_written_as_references_do_not_fail_the_reader_html(name):
    fragment = FRAGMENTS[name]
    for code in (1, 2, 8, 11, 12, 31):
        fragment = fragment.replace(chr(code), f"&#x{code:x};")
    html = f"<html><body><article>{ARTICLE}{fragment}{ARTICLE}</article></body></html>"
    module = algorithms.load("auto")
    result = module.extract(Page(html), module.Params())
    assert result.status == "ok", result.message
    assert not any(chr(c) in result.main.html for c in (1, 2, 8, 11, 12, 31))


def test_the_source_search_reads_past_its_first_megabyte_and_lone_surrogates():
    long = "<p>" + "words \ud800 " * 300_000
    assert not content._may_hold_not_xml_text(long + "</p>")
    assert content._may_hold_not_xml_text(long + "\x01</p>")

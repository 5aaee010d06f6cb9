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

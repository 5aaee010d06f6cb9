"""Main text rendering: paragraphs kept, HTML sanitized."""

from __future__ import annotations

from blocksift.content import render_main
from blocksift.page import Page


def test_paragraphs_headings_lists_and_breaks_are_kept():
    page = Page("<body><article><h1>Title</h1><p>First <b>para</b>.</p><ul><li>one</li>"
                "<li>two</li></ul><p>line<br>break</p><script>alert(1)</script></article>"
                "</body>")
    main = render_main(page, page.tree.xpath("//article"))
    assert main.text.split("\n\n") == ["Title", "First para.", "one", "two", "line", "break"]


def test_sanitized_html_drops_scripts_handlers_and_js_urls():
    page = Page('<body><div id=m><p onclick="evil()">Hi <a href="javascript:alert(1)">x</a>'
                '<img src=x onerror=alert(1)><a href="/rel">rel</a></p><script>bad()</script>'
                '<iframe src="https://evil"></iframe></div></body>', url="https://ex.org/a/b")
    main = render_main(page, page.tree.xpath("//div"))
    html = main.html
    for forbidden in ("onclick", "onerror", "javascript:", "<script", "bad()", "<iframe",
                      "data-bso"):
        assert forbidden not in html
    assert 'href="https://ex.org/rel"' in html
    assert main.xpaths == ["/html/body/div"]


def test_lazy_images_get_their_source():
    page = Page('<div><img data-src="https://ex.org/i.png" alt="pic"></div>')
    assert 'src="https://ex.org/i.png"' in render_main(page, page.tree.xpath("//div")).html


def test_nested_choices_are_rendered_once():
    page = Page("<div><p>once</p></div>")
    main = render_main(page, page.tree.xpath("//div") + page.tree.xpath("//p"))
    assert main.text == "once"

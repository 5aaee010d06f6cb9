"""Hostile pages of our own making, through the page model, the sanitizer and every algorithm."""

from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html

from blocksift import algorithms
from blocksift.content import render_main, safe_url, srcset_urls
from blocksift.page import MAX_ATTRIBUTES_PER_TAG, Page

HOSTILE_URLS = [
    "javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)",
    "java&#x0A;script:alert(1)", "jav&#x09;ascript:alert(1)", "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "\x01javascript:alert(1)",
    "JAVASCRIPT&colon;alert(1)", "blob:https://evil.example/x", "file:///etc/passwd",
]


def _url_bearing_page(url: str) -> str:
    quoted = url.replace('"', "&quot;")
    body = " ".join(["Plain words of the article, long enough to be its main content."] * 6)
    return (
        "<html><head><title>t</title></head><body><article><h1>Head</h1>"
        f"\n<p>{body} <a href=\"{quoted}\">link</a></p>\n"
        f"<p>{body}<img src=\"a.png\" srcset=\"a.png 1x, {quoted} 2x\">"
        f"<img srcset=\"{quoted}\"><picture><source srcset=\"b.png 1x,{quoted} 2x\">"
        f"<img src=\"{quoted}\"></picture></p>\n"
        f"<blockquote cite=\"{quoted}\"><p>{body}</p></blockquote>\n"
        f"<p>{body}<q cite=\"{quoted}\">quoted words</q><del cite=\"{quoted}\">x</del>"
        f"<ins cite=\"{quoted}\">y</ins></p></article></body></html>"
    )


def _urls_in(fragment: str) -> list[tuple[str, str, str]]:
    """(tag, attribute, URL) of every URL-bearing attribute, as a browser would read it."""
    if not fragment.strip():
        return []
    found = []
    for element in lxml_html.fragment_fromstring(fragment, create_parent="div").iter():
        for attribute, value in element.attrib.items():
            if attribute in ("href", "src", "cite", "action", "formaction", "poster"):
                found.append((element.tag, attribute, value))
            elif attribute == "srcset":
                found.extend((element.tag, attribute, url) for url in srcset_urls(value))
    return found


@pytest.mark.parametrize("url", HOSTILE_URLS)
@pytest.mark.parametrize("algorithm", ["auto", "linkblocks", "linkdensity", "farsw"])
def test_no_unsafe_url_survives_in_any_url_bearing_attribute(algorithm, url):
    module = algorithms.load(algorithm)
    model = module.load_model() if getattr(module, "MODEL", None) == "trained" else None
    page = Page(_url_bearing_page(url), url="https://site.example/a/")
    result = module.extract(page, module.Params(), model=model)
    assert result.main is not None and result.main.html, "the page should have main text"
    urls = _urls_in(result.main.html)
    assert urls, "the safe URLs of the page are kept"
    for tag, attribute, value in urls:
        scheme = re.match(r"\s*([a-z][a-z0-9+.-]*):", re.sub(r"[\t\n\r]", "", value), re.I)
        allowed = {"http", "https", "mailto"} | ({"data"} if tag in ("img", "source") else set())
        assert scheme is None or scheme.group(1).lower() in allowed, (tag, attribute, value)
        if scheme and scheme.group(1).lower() == "data":
            assert value.split(":", 1)[1].lower().startswith("image/")


def test_safe_urls_and_srcsets_are_kept():
    html = ('<article><p>' + "words " * 80 + '<img src="https://x.example/a.png" '
            'srcset="a.png 1x, https://x.example/b.png 2x, data:image/png;base64,AAAA 3x">'
            '<a href="mailto:a@b.example">mail</a></p>'
            '<blockquote cite="https://x.example/q"><p>' + "quote " * 40 + '</p></blockquote>'
            '</article>')
    page = Page(html)
    out = render_main(page, page.tree.xpath("//article")).html
    assert 'srcset="a.png 1x, https://x.example/b.png 2x, data:image/png;base64,AAAA 3x"' in out
    assert 'href="mailto:a@b.example"' in out and 'cite="https://x.example/q"' in out


@pytest.mark.parametrize("url, image, safe", [
    ("https://a.example/", False, True), ("/relative/path", False, True), ("x.png", True, True),
    ("mailto:a@b", False, True), ("mailto:a@b", True, False),
    ("data:image/png;base64,AA", True, True), ("data:image/png;base64,AA", False, False),
    ("data:text/html,<script>", True, False), ("java\nscript:x", False, False),
    ("\x00 javascript:x", False, False), ("\\\\evil.example/x", False, False),
])
def test_safe_url(url, image, safe):
    assert safe_url(url, image=image) is safe


def test_srcset_candidates_are_all_read():
    assert srcset_urls("a.png 1x,b.png 2x, data:image/png;base64,AA,BB 3x, c.png") == [
        "a.png", "b.png", "data:image/png;base64,AA,BB", "c.png"]
    assert srcset_urls("x.png, javascript:alert(1)") == ["x.png", "javascript:alert(1)"]


# -- the attribute bomb: libxml2 is quadratic in attributes per tag ------------------------

def _attribute_bomb(count: int, tag: str = "div") -> str:
    attributes = " ".join(f'a{i}="{i}"' for i in range(count))
    return (f'<html><body><p data-bsid="1">before the bomb</p>'
            f'<{tag} data-bsid="2" {attributes}>inside the bomb</{tag}>'
            f'<p data-bsid="3">after the bomb</p></body></html>')


def test_a_tag_with_100000_attributes_is_parsed_with_its_first_thousand():
    html = _attribute_bomb(100_000)
    page = Page(html)
    bomb = page.tree.xpath("//body/div")[0]
    kept = [name for name in bomb.attrib if name.startswith("a")]
    assert kept == [f"a{i}" for i in range(MAX_ATTRIBUTES_PER_TAG - 2)] or \
        len(kept) <= MAX_ATTRIBUTES_PER_TAG
    assert bomb.text == "inside the bomb"
    # the element still maps to its full source span and its stamped id
    start, end = page.span(bomb)
    assert html[start:].startswith("<div") and html[:end].endswith("</div>")
    assert page.element_id(bomb) == "2"
    after = page.tree.xpath("//body/p")[-1]
    assert html[slice(*page.span(after))] == '<p data-bsid="3">after the bomb</p>'


@pytest.mark.parametrize("tag", ["div", "script", "img", "a"])
def test_attribute_bombs_on_any_tag_leave_the_rest_of_the_page_intact(tag):
    page = Page(_attribute_bomb(30_000, tag))
    texts = [p.text for p in page.tree.xpath("//p")]
    assert texts == ["before the bomb", "after the bomb"]


def test_pages_below_the_attribute_limit_are_parsed_untouched():
    html = _attribute_bomb(MAX_ATTRIBUTES_PER_TAG - 1)
    page = Page(html)
    assert len(page.tree.xpath("//body/div")[0].attrib) == MAX_ATTRIBUTES_PER_TAG + 1


@pytest.mark.parametrize("image", ['<img data-src=" , ">', '<img data-src="">',
                                   '<img data-src="\x01x.png">', '<img srcset=" , ">',
                                   '<picture><source srcset="\x01a.png 1x"><img></picture>'])
def test_hostile_lazy_image_attributes_never_fail_the_extraction(image):
    html = ("<html><body><article><h1>Title</h1><p>" + "Words of the article. " * 40
            + image + "</p></article></body></html>")
    module = algorithms.load("auto")
    result = module.extract(Page(html), module.Params())
    assert result.status == "ok" and "Words of the article" in result.main.text

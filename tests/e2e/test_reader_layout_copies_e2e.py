"""A section a site builder gives once per screen width, a media query showing one: the
snapshot marks what the live page does not draw (``data-bshidden``, docs/extension.md), and
the reader shows the section once; a closed tab of its own words stays."""

from __future__ import annotations

import e2e_harness as harness
from lxml import html as lxml_html
from test_reader_css_words_e2e import snapshot_of

PAGE = "reader-layout-copies.html"
HIDDEN = "data-bshidden"


def test_snapshot_marks_the_outermost_box_the_page_does_not_draw(
        browser: harness.Browser, site: harness.Site) -> None:
    url = site.url(PAGE)
    page = browser.new_tab(url)
    assert page.evaluate("innerWidth") >= 810  # the wide copy is the one drawn
    assert browser.act(page, "overlay")["status"] == "overlay"  # the agent is in the page
    tree = lxml_html.fromstring(snapshot_of(browser, url)["html"])
    marked = {element.get("id") or element.tag for element in tree.iter() if element.get(HIDDEN) is not None}
    assert marked == {"narrow-copy", "tab-winter"}, marked
    # drawn: the wide copy, and its wrapper of `display: contents` (no box of its own)
    assert tree.get_element_by_id("wide-copy").get(HIDDEN) is None
    # the page itself is untouched
    assert page.evaluate(f"document.querySelectorAll('[{HIDDEN}]').length") == 0


def test_reader_shows_a_section_laid_out_per_screen_once(
        browser: harness.Browser, site: harness.Site) -> None:
    page = browser.new_tab(site.url(PAGE))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    text = " ".join(page.evaluate("document.getElementById('content').textContent").split())
    assert text.count("4,200 ships piloted a year") == 1, text
    assert text.count("The port in figures") == 1, text
    assert "climbs the ladder on her side" in text and "twelve-hour watches" in text, text
    # a closed tab says what no drawn part says: it stays
    assert "swell drops below two metres" in text, text

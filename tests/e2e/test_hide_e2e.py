"""Hide and the overlay on bundled news, blog, forum and portal pages, in both browsers.

The host decides what to hide; these tests check, from the live DOM's visible text, that no
word of the page's main text (its ``[data-gold]`` elements) was lost, that the toggle
restores the page exactly, and that the overlay explains every block without moving the page.
Screenshots go to ``out/e2e/<browser>/<test>/``.
"""

from __future__ import annotations

from pathlib import Path

import e2e_harness as harness
import pytest

UI = "document.querySelector('blocksift-ui')?.shadowRoot"
PAGES = ["news", "blog", "forum", "portal"]

# Words of the visible text (innerText: what a reader sees), of the body and of the gold.
WORDS = "(t => (t.toLowerCase().match(/[\\p{L}\\p{N}_]+/gu) || []))"
BODY_WORDS = f"{WORDS}(document.body.innerText)"
GOLD_WORDS = f"[...document.querySelectorAll('[data-gold]')].flatMap(e => {WORDS}(e.innerText))"
VISIBILITY = ("[...document.body.getElementsByTagName('*')].filter(e => e.localName !== 'blocksift-ui')"
              ".map(e => e.checkVisibility())")
RECTS = ("[...document.querySelectorAll('[data-gold], header, footer, nav, aside')]"
         ".map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })")


def _bag(words: list[str]) -> dict[str, int]:
    bag: dict[str, int] = {}
    for word in words:
        bag[word] = bag.get(word, 0) + 1
    return bag


@pytest.mark.parametrize("name", PAGES)
def test_hide_keeps_all_main_text_and_restores(browser: harness.Browser, site: harness.Site,
                                               artifacts: Path, name: str) -> None:
    page = browser.new_tab(site.url(f"hide/{name}.html"))
    gold = _bag(page.evaluate(GOLD_WORDS))
    body_before = _bag(page.evaluate(BODY_WORDS))
    visible_before = page.evaluate(VISIBILITY)
    assert gold and all(body_before.get(w, 0) >= n for w, n in gold.items())

    status = browser.act(page, "hide")
    assert status["status"] == "hidden", status
    page.screenshot(artifacts / f"{name}-hidden.png")
    body_after = _bag(page.evaluate(BODY_WORDS))
    lost = {w: n - body_after.get(w, 0) for w, n in gold.items() if body_after.get(w, 0) < n}
    assert not lost, f"main text lost on {name}: {lost}"
    # Something was hidden: fewer words are visible than before, none of them gold.
    assert sum(body_after.values()) < sum(body_before.values())
    assert page.evaluate("[...document.querySelectorAll('[data-gold]')].every(e => e.checkVisibility())")
    assert not page.evaluate("!!document.querySelector('[data-gold] [data-blocksift-hide], "
                             "[data-blocksift-hide] [data-gold]')")

    status = browser.act(page, "hide")
    assert status["status"] == "restored", status
    assert page.evaluate(VISIBILITY) == visible_before
    assert _bag(page.evaluate(BODY_WORDS)) == body_before


@pytest.mark.parametrize("name", PAGES)
def test_overlay_explains_each_block_without_moving_the_page(browser: harness.Browser, site: harness.Site,
                                                             artifacts: Path, name: str) -> None:
    page = browser.new_tab(site.url(f"hide/{name}.html"))
    rects_before = page.evaluate(RECTS)
    height_before = page.evaluate("document.documentElement.scrollHeight")
    status = browser.act(page, "overlay")
    assert status["status"] == "overlay", status
    labels = page.evaluate(f"[...{UI}.querySelectorAll('.label')].map(l => ({{"
                           " kind: l.closest('.box').dataset.kind, text: l.firstChild.textContent,"
                           " why: l.querySelector('.why').textContent, tab: l.tabIndex }))")
    assert len(labels) == int(status["count"]) > 0
    kinds = {label["kind"] for label in labels}
    assert "main" in kinds and kinds - {"main"}, kinds
    for label in labels:
        assert label["why"] and label["tab"] == 0, label
        if label["kind"] != "main":
            assert "outside the main text" in label["why"], label
    legend = page.evaluate(f"[...{UI}.querySelectorAll('.legend .key')].map(k => k.dataset.kind)")
    assert set(legend) >= {"main", "links", "nav", "ad", "comments", "other"}
    # The page did not move.
    assert page.evaluate(RECTS) == rects_before
    assert page.evaluate("document.documentElement.scrollHeight") == height_before
    page.screenshot(artifacts / f"{name}-overlay.png")
    # Keyboard: focusing a label shows its reason in words.
    page.evaluate(f"{UI}.querySelector('.box:not(.main) .label').focus(), true")
    assert page.evaluate(f"getComputedStyle({UI}.querySelector('.box:not(.main) .label .why')).display") == "block"
    page.screenshot(artifacts / f"{name}-overlay-focus.png")

    # "As the paper finds them": linkblocks' own blocks, unchanged.
    seq = int(status["seq"])
    page.evaluate(f"{UI}.querySelector('.legend .mode').click(), true")
    page.wait_for(f"+document.documentElement.dataset.blocksiftSeq > {seq}"
                  " && document.documentElement.dataset.blocksiftStatus !== 'working'")
    assert page.status()["status"] == "overlay", page.status()
    paper = page.evaluate(f"[...{UI}.querySelectorAll('.label')].map(l => l.firstChild.textContent)")
    assert paper and all(text.startswith("link block ") for text in paper), paper
    page.screenshot(artifacts / f"{name}-overlay-paper.png")

    status = browser.act(page, "overlay")
    assert status["status"] == "overlay-cleared"
    assert page.evaluate(f"{UI}.querySelectorAll('.box, .legend').length") == 0


def test_reader_view_of_a_portal_is_an_index(browser: harness.Browser, site: harness.Site,
                                              artifacts: Path) -> None:
    page = browser.new_tab(site.url("hide/portal.html"))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    content = "document.getElementById('content')"
    assert "is an index of 10 stories" in page.evaluate(f"{content}.querySelector('.index-note').textContent")
    stories = page.evaluate(f"[...{content}.querySelectorAll('.index-list li')].map(li => "
                            "({title: li.querySelector('h2').textContent, href: li.querySelector('a')?.href,"
                            " teaser: li.querySelector('p')?.textContent}))")
    assert len(stories) == 10
    assert page.evaluate("document.getElementById('title').textContent").startswith("The Coastal Courier")
    assert stories[0]["title"] == "Lifeboat crew rescues two kayakers off the point"
    assert stories[0]["href"].endswith("/story/0") and stories[0]["teaser"].startswith("The volunteers")
    page.screenshot(artifacts / "portal-reader-index.png")


def test_reader_view_of_an_article_is_no_index(browser: harness.Browser, site: harness.Site) -> None:
    page = browser.new_tab(site.url("hide/news.html"))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    assert page.evaluate("document.querySelector('.index-note')") is None
    assert "rebuild the town's crumbling sea wall" in page.evaluate("document.getElementById('content').textContent")

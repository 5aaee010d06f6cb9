"""Words a page sets apart only by its style sheet (flex and grid items, links made blocks,
badges) read apart in the reader view, and a word split by inline markup stays one word.
The host never sees CSS: the snapshot gives those elements white space where the page's
markup has none (docs/extension.md, "The snapshot"), in a copy only: the page is untouched."""

from __future__ import annotations

import json
from pathlib import Path

import e2e_harness as harness
from lxml import html as lxml_html

PAGE = "reader-css-words.html"
CONTENT = "document.getElementById('content')"


def words(text: str) -> str:
    return " ".join(text.split())


def snapshot_of(browser: harness.Browser, url: str) -> dict:
    """The agent's snapshot of the tab showing ``url`` (the agent is installed by an action
    on it), taken from one of the extension's pages as the background takes it."""
    tab = browser.new_tab(browser.ext_url("options.html"))
    try:
        tab.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
        return tab.evaluate(
            "(async () => { const api = globalThis.browser ?? chrome;"
            f" const target = (await api.tabs.query({{}})).find((t) => t.url === {json.dumps(url)});"
            " const [run] = await api.scripting.executeScript({target: {tabId: target.id},"
            " func: () => { const s = globalThis.__blocksiftAgent.snapshot();"
            " return {html: s.html, elements: s.elements}; }});"
            " return run.result; })()")
    finally:
        tab.close()


def test_snapshot_sets_apart_words_the_style_sheet_lays_out_apart(
        browser: harness.Browser, site: harness.Site) -> None:
    url = site.url(PAGE)
    page = browser.new_tab(url)
    live_tagline = page.evaluate("document.getElementById('tagline').innerHTML")
    assert browser.act(page, "overlay")["status"] == "overlay"  # the agent is in the page
    snap = snapshot_of(browser, url)
    tree = lxml_html.fromstring(snap["html"])
    text = {name: words(tree.get_element_by_id(name).text_content())
            for name in ("menu", "tagline", "inline", "badges", "facts", "see-also", "pair", "row")}
    # flex items, links made blocks, grid items, in the page, its shadow root and its frame
    assert text["menu"] == "Home Harbour Ferries Contact", text
    assert text["tagline"] == "Software to replace the old ledgers", text
    assert text["facts"] == "Founded 1911 Ships registered 4,200 a year", text
    assert text["see-also"] == "Tide tables Ferry timetable Pilot service", text
    assert text["pair"] == "Quiet waters make for careful clerks", text
    assert text["row"] == ("Harbour dues were paid in silver coin until the office opened its first"
                           " bank account in 1921."), text
    # a badge with padding reads apart; what the line lays out as one word stays one
    assert "registers New of arriving ships" in text["badges"], text
    assert "past the lighthouse at" in text["badges"], text  # an empty icon positioned inside
    assert "an international register" in text["inline"], text
    assert "by the waterfront." in text["inline"], text
    # a space only where there was none: the words already apart gain nothing
    paragraph = lxml_html.tostring(tree.get_element_by_id("inline"), encoding="unicode")
    assert "inter<b " in paragraph and "</b>al register" in paragraph, paragraph
    # every element keeps one id, the ids the agent maps back to the page
    ids = sorted(int(element.get("data-bsid")) for element in tree.iter() if element.get("data-bsid"))
    assert ids[0] == 0 and len(ids) == len(set(ids)) and ids[-1] < snap["elements"], ids[-5:]
    # the page itself is as it was
    assert page.evaluate("document.getElementById('tagline').innerHTML") == live_tagline
    assert " " not in live_tagline.replace("to replace", "").replace("the old ledgers", "")


def test_snapshot_sets_apart_links_the_page_keeps_apart_by_their_margin(
        browser: harness.Browser, site: harness.Site) -> None:
    """An older menu's links, in the line with no white space between them, each with a
    margin: a space on the side that has the gap, where a letter or digit stands beside it."""
    url = site.url(PAGE)
    page = browser.new_tab(url)
    live_menu = page.evaluate("document.getElementById('old-menu').innerHTML")
    assert browser.act(page, "overlay")["status"] == "overlay"
    tree = lxml_html.fromstring(snapshot_of(browser, url)["html"])
    text = {name: words(tree.get_element_by_id(name).text_content())
            for name in ("old-menu", "ports", "link-sides", "rtl-links", "counts")}
    assert text["old-menu"] == "Home News Tides Archive", text
    assert "room as Harbour Ferries Pilots and copied" in text["ports"], text
    # the side without a gap keeps the word whole, a link without one is part of the word,
    # and a padding that holds an icon puts no space before the full stop, nor a padded
    # link's inside its brackets
    assert text["link-sides"] == ("The ferryboats sail daily from the harbourmaster's quay;"
                                  " the timetable is on the harbour's site. Fares are posted"
                                  " (per crossing) at the gate."), text
    # a bracket that closes the word before a link's gap is no reason to join them
    assert text["counts"] == "Ships by flag: Dutch (38) Norwegian (12)", text
    # right to left, the right margin is the link's start: the space goes before it
    assert text["rtl-links"] == "מים נמלים", text
    assert page.evaluate("document.getElementById('old-menu').innerHTML") == live_menu
    assert " " not in live_menu.replace('a href', '')


def test_reader_shows_words_the_style_sheet_sets_apart_as_words(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = browser.new_tab(site.url(PAGE))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    text = words(page.evaluate(f"{CONTENT}.textContent"))
    assert "Software to replace the old ledgers" in text, text
    assert "Founded 1911 Ships registered 4,200 a year" in text, text
    assert "registers New of arriving ships" in text, text
    assert "Quiet waters make for careful clerks" in text, text  # in the shadow root
    assert "paid in silver coin until the office opened" in text, text  # in the frame
    assert "record room as Harbour Ferries Pilots and copied" in text, text  # links in the line
    assert "The ferryboats sail daily from the harbourmaster's quay" in text, text
    for word in ("an international register", "by the waterfront.", "past the lighthouse at"):
        assert word in text, word
    # the grid of cells reads as a paragraph: the next one stands a paragraph's space below it
    gap = page.evaluate(
        f"(() => {{ const box = [...{CONTENT}.querySelectorAll('p, div')]"
        ".find((e) => e.textContent.trim().startsWith('Founded'));"
        " const font = parseFloat(getComputedStyle(box).fontSize);"
        " return (box.nextElementSibling.getBoundingClientRect().top"
        " - box.getBoundingClientRect().bottom) / font; })()")
    assert gap >= 0.8, gap
    page.screenshot(artifacts / "reader-css-words.png")
    page.evaluate(f"[...{CONTENT}.querySelectorAll('p')].find((e) => e.textContent.includes("
                  "'ferryboats')).scrollIntoView(), true")
    page.screenshot(artifacts / "reader-css-words-grid.png")

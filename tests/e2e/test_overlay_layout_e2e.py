"""The overlay and the labeler never move the page, in both browsers: its scroll size, how far it scrolls and
where its elements lie are the same with the overlay on as before, and after it is closed the
page's DOM is as it was. Pages: a news article; the same with its body pinned to the window
(scroll-locked, as a consent platform or an open menu pins it); wider than the window; right to
left and wider than the window (it overflows, and scrolls, leftwards). The labeler draws
its outlines the same way (labeler.js buildUi).

Seen on a news section front (the Guardian's, wcxb-dev 2966, locked by its consent dialog):
the overlay's boxes, absolutely positioned in the document, made the locked page one window
high scroll 6,000 pixels down over nothing.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import e2e_harness as harness
import pytest
from test_labeling import HOVER_TAG, Input, start_labeling, wait_status

UI = "document.querySelector('blocksift-ui')?.shadowRoot"
#: A JS function of an element's id: the overlay's box of the same size, as [left, top,
#: right, bottom] in the window, or null.
BOX_OF = (f"(id => {{ const e = document.getElementById(id).getBoundingClientRect();"
          f" const b = [...{UI}.querySelectorAll('.box')].map(b => b.getBoundingClientRect())"
          " .find(b => Math.abs(b.width - e.width) < 1 && Math.abs(b.height - e.height) < 1);"
          " return b ? [b.left, b.top, b.right, b.bottom] : null; })")
# the page's markup without the status attributes the extension keeps on <html>
PAGE_DOM = ("(() => { const copy = document.documentElement.cloneNode(true);"
            " for (const a of [...copy.attributes]) if (a.name.startsWith('data-blocksift-'))"
            " copy.removeAttribute(a.name); return copy.outerHTML; })()")
# The page's scroll size (<html>'s and <body>'s) and how far it scrolls each way.
SCROLL = """(() => {
  const d = document.documentElement, b = document.body, at = [scrollX, scrollY];
  scrollTo(1e6, 1e6); const end = [scrollX, scrollY];
  scrollTo(-1e6, -1e6); const start = [scrollX, scrollY];
  scrollTo(at[0], at[1]);
  return { size: [d.scrollWidth, d.scrollHeight, b.scrollWidth, b.scrollHeight], start, end };
})()"""
# Where the page's parts lie (page coordinates), the extension's own element left out.
RECTS = ("[...document.body.querySelectorAll('*')].filter(e => e.localName !== 'blocksift-ui')"
         ".map(e => { const r = e.getBoundingClientRect();"
         " return [e.localName, r.x + scrollX, r.y + scrollY, r.width, r.height]; })")
# The ad inside the article, and its box in the overlay (window coordinates).
AD_AND_BOX = (f"(() => {{ const box = [...{UI}.querySelectorAll('.box')].find(b => b.dataset.kind === 'ad'"
              " && Math.abs(b.getBoundingClientRect().width - document.getElementById('ad-inline')"
              ".getBoundingClientRect().width) < 1);"
              " const r = (e) => { const b = e.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; };"
              " return [r(document.getElementById('ad-inline')), box ? r(box) : null]; })()")

# The cookie banner fixed to the window's bottom, and the box drawn over it (by its place).
BANNER_AND_BOX = (f"(() => {{ const r = (e) => {{ const b = e.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }};"
                  " const banner = r(document.getElementById('cookie-banner'));"
                  f" const box = [...{UI}.querySelectorAll('.box')].map(r).find(b => b.every((v, i) => Math.abs(v - banner[i]) < 1));"
                  " return [banner, box ?? null]; })()")
# The header (sticky on the wide page), and the box drawn over it (by its place).
HEADER_AND_BOX = BANNER_AND_BOX.replace("document.getElementById('cookie-banner')",
                                        "document.querySelector('.site-header')")
# A page's script watching its elements' style attributes (as a page that restyles itself
# when something else restyles it does): the elements whose style was written since.
WATCH_STYLES = ("(window.styleWrites = [], new MutationObserver((records) => styleWrites.push(...records"
                ".filter(r => r.target.localName !== 'blocksift-ui').map(r => r.target.localName)))"
                ".observe(document, {attributes: true, attributeFilter: ['style'], subtree: true}), true)")
STYLE_WRITES = "new Promise(r => setTimeout(() => r(styleWrites), 0))"
# After a scroll: the next frame, whose scroll event moves the boxes.
NEXT_FRAME = "new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 50)))"

PAGES = ["hide/news", "overlay/locked", "overlay/wide", "overlay/rtl"]


def _close(a: list[float], b: list[float] | None) -> bool:
    return b is not None and all(abs(x - y) < 1 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("name", PAGES)
def test_the_overlay_never_moves_the_page(browser: harness.Browser, site: harness.Site,
                                          artifacts: Path, name: str) -> None:
    page = browser.new_tab(site.url(f"{name}.html"))
    shot = name.replace("/", "-")
    # (first: Playwright's screenshot leaves an empty style attribute on the page's inputs)
    page.screenshot(artifacts / f"{shot}-page.png")
    dom_before = page.evaluate(PAGE_DOM)
    scroll_before = page.evaluate(SCROLL)
    rects_before = page.evaluate(RECTS)
    if name == "overlay/locked":
        assert scroll_before["end"] == [0, 0], scroll_before  # it does not scroll
        assert scroll_before["size"][3] > scroll_before["size"][1]  # but its body is taller

    status = browser.act(page, "overlay")
    assert status["status"] == "overlay", status
    page.screenshot(artifacts / f"{shot}-overlay.png")
    assert page.evaluate(f"{UI}.querySelectorAll('.box').length") >= 3
    assert page.evaluate(SCROLL) == scroll_before
    assert page.evaluate(RECTS) == rects_before
    # Each label shown with its reason (keyboard focus) leaves the scroll size alone too.
    sizes = page.evaluate(f"(() => {{ const out = []; for (const l of {UI}.querySelectorAll('.label')) {{"
                          " l.focus(); const d = document.documentElement;"
                          " out.push([d.scrollWidth, d.scrollHeight]); } return out; })()")
    assert all(size == scroll_before["size"][:2] for size in sizes), (sizes, scroll_before)
    page.evaluate(f"({UI}.activeElement?.blur(), scrollTo(0, 0), true)")
    page.evaluate(NEXT_FRAME)

    # The boxes follow the page as it scrolls (sideways too: leftwards on the RTL page), and
    # the box of a bar fixed to the window, or of a sticky header, stays with it.
    ad, box = page.evaluate(AD_AND_BOX)
    assert _close(ad, box), (ad, box)
    banner, box = page.evaluate(BANNER_AND_BOX)
    assert _close(banner, box), (banner, box)
    if name != "overlay/locked":
        sideways = {"overlay/wide": 200, "overlay/rtl": -200}.get(name, 0)
        page.evaluate(f"(scrollBy({sideways}, 150), true)")
        page.wait_for("scrollY > 0")
        page.evaluate(NEXT_FRAME)
        page.screenshot(artifacts / f"{shot}-overlay-scrolled.png")
        ad, box = page.evaluate(AD_AND_BOX)
        assert _close(ad, box), (ad, box)
        # the banner stays at the window's bottom, and so does its box; a sticky header's
        # box stays on it too
        banner, box = page.evaluate(BANNER_AND_BOX)
        assert _close(banner, box), (banner, box)
        header, box = page.evaluate(HEADER_AND_BOX)
        assert _close(header, box), (header, box)
        page.evaluate("(scrollTo(0, 0), true)")

    status = browser.act(page, "overlay")
    assert status["status"] == "overlay-cleared", status
    assert page.evaluate(SCROLL) == scroll_before
    assert page.evaluate(RECTS) == rects_before
    assert page.evaluate(PAGE_DOM) == dom_before


LABELER = "document.querySelector('blocksift-ui[data-blocksift-labeler]')?.shadowRoot"


def _labeler_box(element: str) -> str:
    """An element's rect and that of the labeler's outline drawn over it (found by its place;
    window coordinates)."""
    return (f"(() => {{ const r = (e) => {{ const b = e.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }};"
            f" const target = r({element});"
            f" const box = [...{LABELER}.querySelectorAll('.box')].map(r).find(b => b.every((v, i) => Math.abs(v - target[i]) < 1));"
            " return [target, box ?? null]; })()")


def _mark(page: harness.Tab, keys: Input, selector: str, tag: str, mode: str = "l") -> None:
    """Mark an element as a link block (or an ad, mode "a"): the mouse over it, up with the
    keys to it, Enter."""
    keys.press(mode)
    keys.move(selector)
    page.wait_for(f"{HOVER_TAG}.length > 0")
    for _ in range(4):
        if page.evaluate(HOVER_TAG).startswith(tag):
            break
        keys.press("ArrowUp")
    assert page.evaluate(HOVER_TAG).startswith(tag), page.evaluate(HOVER_TAG)
    keys.press("Enter")


@pytest.mark.parametrize("name", PAGES)
def test_the_labeler_never_moves_the_page(browser: harness.Browser, site: harness.Site,
                                          artifacts: Path, name: str) -> None:
    """The labeler's outlines, tags, highlight and toolbar leave the page's scroll size, scroll
    range and layout as they were, and its outlines follow the page as it scrolls (those of a
    bar fixed to the window, or of a sticky header, stay on it); the tag of an outline at the
    page's top edge shows, inside it (it was cut off above the page). Its outlines, absolutely
    positioned in the document, made the locked page one window high scroll down over
    nothing (147 px in Chromium; in Firefox 234 px, with a scroll bar that narrowed the page
    and moved its text)."""
    page = browser.new_tab(site.url(f"{name}.html"))
    page.wait_for("document.readyState === 'complete'")
    shot = name.replace("/", "-")
    page.screenshot(artifacts / f"{shot}-page.png")
    dom_before = page.evaluate(PAGE_DOM)
    scroll_before = page.evaluate(SCROLL)
    rects_before = page.evaluate(RECTS)
    keys = Input(page)

    def unmoved() -> None:
        page.evaluate(f"(scrollTo(0, 0), {NEXT_FRAME})")
        assert page.evaluate(SCROLL) == scroll_before
        assert page.evaluate(RECTS) == rects_before

    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    assert page.evaluate(f"{LABELER}.querySelectorAll('.box').length") >= 1
    page.screenshot(artifacts / f"{shot}-labeler.png")
    unmoved()
    # marks with their tags, the highlight near the right edge, keyboard moves
    _mark(page, keys, "#ad-inline", "div#ad-inline", "a")
    page.wait_for("document.documentElement.dataset.blocksiftLabelAd === '1'")
    _mark(page, keys, "#cookie-banner", "div#cookie-banner")
    _mark(page, keys, ".site-header", "header")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '2'")
    keys.press("m")
    keys.move(".sidebar ol li:last-child a")
    for key in ["ArrowDown", "ArrowUp", "ArrowUp", "ArrowRight", "ArrowDown"]:
        keys.press(key)
    unmoved()
    # at the page's top, every tag shows: that of the header at the document's top edge went
    # above it, cut off with the outline's top edge
    tags_cut = (f"[...{LABELER}.querySelectorAll('.tag')].filter(t => t.getClientRects().length)"
                ".map(t => [t.textContent, Math.round(t.getBoundingClientRect().top)]).filter(([, top]) => top < 0)")
    assert page.evaluate(tags_cut) == []

    # The outlines follow the page as it scrolls (sideways too: leftwards on the RTL page);
    # that of the bar fixed to the window, and of the header sticky on the wide pages, stays on it.
    outlines = {"ad": _labeler_box("document.getElementById('ad-inline')"),
                "banner": _labeler_box("document.getElementById('cookie-banner')"),
                "header": _labeler_box("document.querySelector('.site-header')")}
    for what, probe in outlines.items():
        target, box = page.evaluate(probe)
        assert _close(target, box), (what, target, box)
    if name != "overlay/locked":
        sideways = {"overlay/wide": 200, "overlay/rtl": -200}.get(name, 0)
        page.evaluate(f"(scrollBy({sideways}, 150), true)")
        page.wait_for("scrollY > 0")
        page.evaluate(NEXT_FRAME)
        page.screenshot(artifacts / f"{shot}-labeler-scrolled.png")
        for what, probe in outlines.items():
            target, box = page.evaluate(probe)
            assert _close(target, box), (what, target, box)

    keys.press("Escape")
    wait_status(page, "label-cancelled")
    unmoved()
    assert page.evaluate(PAGE_DOM) == dom_before


# An element's rect and the part of its overlay box a reader sees (the box found by its kind
# and its size; window coordinates): the box cut by every element of the overlay around it
# that clips (a scroll pane's part of the overlay, the layer's).
def _box_shown(element: str, kind: str) -> str:
    return (f"(() => {{ const r = (e) => {{ const b = e.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }};"
            f" const el = {element}, target = r(el);"
            f" const box = [...{UI}.querySelectorAll('.box')].find(b => b.dataset.kind === '{kind}'"
            " && Math.abs(b.getBoundingClientRect().width - target[2]) < 1"
            " && Math.abs(b.getBoundingClientRect().height - target[3]) < 1);"
            " if (!box) return [target, null, null];"
            " let [x, y, w, h] = r(box); let right = x + w, bottom = y + h;"
            " for (let e = box.parentElement; e; e = e.parentElement) {"
            "  const s = getComputedStyle(e); if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;"
            "  const [ex, ey, ew, eh] = r(e); x = Math.max(x, ex); y = Math.max(y, ey);"
            "  right = Math.min(right, ex + ew); bottom = Math.min(bottom, ey + eh); }"
            " return [target, r(box), [x, y, Math.max(0, right - x), Math.max(0, bottom - y)]]; })()")


# A scroll pane's visible area (its padding box less its scroll bars; window coordinates).
def _pane(element: str) -> str:
    return (f"(() => {{ const e = {element}, b = e.getBoundingClientRect();"
            " return [b.x + e.clientLeft, b.y + e.clientTop, e.clientWidth, e.clientHeight]; })()")


def _inside(shown: list[float], area: list[float]) -> bool:
    x, y, w, h = shown
    return (w == 0 or h == 0) or (x >= area[0] - 1 and y >= area[1] - 1
                                  and x + w <= area[0] + area[2] + 1 and y + h <= area[1] + area[3] + 1)


def test_boxes_follow_what_scrolls_inside_a_pane(browser: harness.Browser, site: harness.Site,
                                                 artifacts: Path) -> None:
    """A block inside an element that scrolls by itself (a docs sidebar, a comments pane): its
    box moves as the pane scrolls and shows only within the pane's visible area. The boxes
    stayed where they were drawn while the pane's content scrolled under them, and the box of
    an ad further down the comments pane was drawn over the text below the pane."""
    page = browser.new_tab(site.url("overlay/scroll-panes.html"))
    page.wait_for("document.readyState === 'complete'")
    scroll_before = page.evaluate(SCROLL)
    rects_before = page.evaluate(RECTS)
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "overlay-scroll-panes.png")

    # the sidebar's ad, below its links: nothing of its box shows until the sidebar is
    # scrolled to its end, and then only within the sidebar
    sidebar_ad = _box_shown("document.getElementById('sidebar-ad')", "ad")
    target, box, shown = page.evaluate(sidebar_ad)
    assert _close(target, box), (target, box)
    assert shown[2] * shown[3] == 0, shown
    page.evaluate("(document.getElementById('sidebar').scrollTop = 1e6, true)")
    page.evaluate(NEXT_FRAME)
    page.screenshot(artifacts / "overlay-scroll-panes-sidebar.png")
    target, box, shown = page.evaluate(sidebar_ad)
    assert _close(target, box), (target, box)
    assert shown[2] * shown[3] > 0, shown
    assert _inside(shown, page.evaluate(_pane("document.getElementById('sidebar')"))), shown

    # the comments pane, its ad further down than it shows
    page.evaluate("(scrollTo(0, document.getElementById('comments').getBoundingClientRect().top + scrollY - 150), true)")
    page.evaluate(NEXT_FRAME)
    page.screenshot(artifacts / "overlay-scroll-panes-comments.png")
    ad = _box_shown("document.getElementById('pane-ad')", "ad")
    pane = _pane("document.getElementById('comments')")
    target, box, shown = page.evaluate(ad)
    assert _close(target, box), (target, box)
    assert target[1] > page.evaluate(pane)[1] + page.evaluate(pane)[3]
    assert shown[2] * shown[3] == 0, shown
    # the pane scrolls the ad into view: its box comes with it, cut at the pane's edges
    page.evaluate("(document.getElementById('comments').scrollTop = document.getElementById('pane-ad')"
                  ".offsetTop - document.getElementById('comments').offsetTop - 200, true)")
    page.evaluate(NEXT_FRAME)
    page.screenshot(artifacts / "overlay-scroll-panes-comments-scrolled.png")
    target, box, shown = page.evaluate(ad)
    assert _close(target, box), (target, box)
    assert shown[2] * shown[3] > 0, shown
    assert _inside(shown, page.evaluate(pane)), (shown, page.evaluate(pane))

    # the page scrolls too: the boxes stay on their blocks, and the page is as it was
    page.evaluate("(document.getElementById('sidebar').scrollTop = 0,"
                  " document.getElementById('comments').scrollTop = 0, scrollTo(0, 0), true)")
    assert page.evaluate(SCROLL) == scroll_before
    assert page.evaluate(RECTS) == rects_before
    page.evaluate("(scrollBy(0, 300), true)")
    page.wait_for("scrollY > 0")
    page.evaluate(NEXT_FRAME)
    target, box, shown = page.evaluate(ad)
    assert _close(target, box), (target, box)
    assert shown[2] * shown[3] == 0, shown

    # Tab to the label of the ad hidden in the pane: the pane scrolls to show the ad, and
    # with it its box and label (the label stayed cut off, out of sight)
    page.evaluate(f"([...{UI}.querySelectorAll('.box')].find(b => b.dataset.kind === 'ad'"
                  " && Math.abs(b.getBoundingClientRect().width"
                  " - document.getElementById('pane-ad').getBoundingClientRect().width) < 1)"
                  ".querySelector('.label').focus(), true)")
    page.evaluate(NEXT_FRAME)
    page.screenshot(artifacts / "overlay-scroll-panes-label-focused.png")
    target, box, shown = page.evaluate(ad)
    assert _close(target, box), (target, box)
    assert shown[2] * shown[3] > 0, shown
    label = page.evaluate(f"(() => {{ const l = {UI}.activeElement.getBoundingClientRect();"
                          " return [l.x, l.y, l.width, l.height]; })()")
    assert _inside(label, page.evaluate(pane)), (label, page.evaluate(pane))
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_boxes_are_in_place_as_soon_as_the_page_scrolls(browser: harness.Browser, site: harness.Site,
                                                        artifacts: Path) -> None:
    """The boxes lie on their blocks the moment the page has scrolled, before any script runs
    (the frame that shows the page scrolled shows them there too); the box of a bar fixed to
    the window stays on it. They were moved by the page's scroll event, a frame late, which
    made them jitter behind the page."""
    page = browser.new_tab(site.url("hide/news.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    # (as the page is scrolled: the box of the ad in the article on the ad, not below it)
    page.evaluate("(scrollBy(0, 300), true)")
    page.screenshot(artifacts / "overlay-news-just-scrolled.png")
    page.evaluate(f"(scrollTo(0, 0), {NEXT_FRAME})")
    for by in [150, 230, -80]:
        ad, box = page.evaluate(f"(scrollBy(0, {by}), {AD_AND_BOX})")
        assert _close(ad, box), (by, ad, box)
        banner, box = page.evaluate(f"(scrollBy(0, {by}), {BANNER_AND_BOX})")
        assert _close(banner, box), (by, banner, box)


# The text of the page under the legend (its area, in square pixels).
TEXT_UNDER_LEGEND = f"""(() => {{
  const legend = {UI}.querySelector('.legend').getBoundingClientRect();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), range = document.createRange();
  let area = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {{
    if (!node.data.trim()) continue;
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {{
      const dx = Math.min(r.right, legend.right) - Math.max(r.left, legend.left);
      const dy = Math.min(r.bottom, legend.bottom) - Math.max(r.top, legend.top);
      if (dx > 0 && dy > 0) area += dx * dy;
    }}
  }}
  return Math.round(area);
}})()"""


# How much of the picture ad beside the text the legend covers (square pixels).
LEGEND_ON_AD = (f"(() => {{ const l = {UI}.querySelector('.legend').getBoundingClientRect(),"
                " a = document.getElementById('skyscraper').getBoundingClientRect();"
                " return Math.max(0, Math.min(l.right, a.right) - Math.max(l.left, a.left))"
                " * Math.max(0, Math.min(l.bottom, a.bottom) - Math.max(l.top, a.top)); })()")


def test_the_legend_moves_off_the_text_when_the_window_does(browser: harness.Browser, site: harness.Site,
                                                             artifacts: Path) -> None:
    """The legend is placed again when the page scrolls or the window changes size, off the
    text and off the boxes: where it was put at first (the free margin beside a narrow
    column) it covered the text further down once the page was scrolled there; placed where
    it covered no text, it covered an ad that is a picture and its box."""
    page = browser.new_tab(site.url("overlay/legend.html"))
    page.wait_for("document.readyState === 'complete'")
    scroll_before = page.evaluate(SCROLL)
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "overlay-legend.png")
    assert page.evaluate(TEXT_UNDER_LEGEND) == 0
    assert not page.evaluate(f"{UI}.querySelector('.legend').classList.contains('folded')")
    page.evaluate("(scrollTo(0, document.getElementById('report').offsetTop + 200), true)")
    page.wait_for(f"{TEXT_UNDER_LEGEND} === 0", timeout=10)
    page.screenshot(artifacts / "overlay-legend-scrolled.png")
    # nor over the box of the ad beside the text, which is a picture
    assert page.evaluate(f"[...{UI}.querySelectorAll('.box')].some(b => b.dataset.kind === 'ad')")
    assert page.evaluate(LEGEND_ON_AD) == 0
    assert not page.evaluate(f"{UI}.querySelector('.legend').classList.contains('folded')")
    assert page.evaluate(f"(scrollTo(0, 0), {SCROLL})") == scroll_before
    # a narrower window: placed again, still off the text
    page.evaluate("(scrollTo(0, document.getElementById('report').offsetTop + 200), true)")
    page.set_viewport(900, 700)
    page.wait_for(f"innerWidth === 900 && {UI}?.querySelector('.legend') && {TEXT_UNDER_LEGEND} === 0", timeout=10)
    page.screenshot(artifacts / "overlay-legend-narrow.png")
    assert page.evaluate(LEGEND_ON_AD) == 0
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_the_overlay_follows_the_page_growing_and_shrinking(browser: harness.Browser, site: harness.Site,
                                                            artifacts: Path) -> None:
    """The page grows under the overlay (more loaded at its end) and shrinks back while it is
    scrolled to that end: the layer reaches the new end, and never holds the page larger
    than it is (it is laid around the window within the page's scroll area, measured again
    when <html> or <body> changes size); a label a reader reached with Tab keeps the focus
    meanwhile."""
    page = browser.new_tab(site.url("hide/news.html"))
    page.wait_for("document.readyState === 'complete'")
    scroll_before = page.evaluate(SCROLL)
    assert browser.act(page, "overlay")["status"] == "overlay"
    focused = f"{UI}.activeElement?.classList.contains('label') ?? false"
    page.evaluate(f"({UI}.querySelector('.label').focus(), scrollTo(0, 0), true)")
    assert page.evaluate(focused)
    page.evaluate("(window.more = Object.assign(document.createElement('div'), {id: 'more'}),"
                  " more.style.height = '2000px', document.body.append(more), true)")
    page.evaluate(NEXT_FRAME)
    assert page.evaluate(focused)
    # at the new end, the boxes still show: the layer reaches there
    page.evaluate(f"(scrollTo(0, 1e6), {NEXT_FRAME})")
    assert page.evaluate("scrollY") > scroll_before["end"][1]
    host = page.evaluate("(() => { const r = document.querySelector('blocksift-ui').getBoundingClientRect();"
                         " return [r.top, r.bottom]; })()")
    assert host[0] <= 0 and host[1] >= page.evaluate("document.documentElement.clientHeight"), host
    page.evaluate(f"(document.getElementById('more').remove(), {NEXT_FRAME})")
    page.evaluate(NEXT_FRAME)
    assert page.evaluate(SCROLL)["size"] == scroll_before["size"]
    assert page.evaluate(focused)
    page.evaluate(f"(scrollTo(0, 0), {NEXT_FRAME})")
    assert page.evaluate(SCROLL) == scroll_before
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"
    assert page.evaluate(SCROLL) == scroll_before


def test_a_labels_reason_shows_within_the_window_and_its_pane(browser: harness.Browser, site: harness.Site,
                                                               artifacts: Path) -> None:
    """A label's reason (shown on hover or keyboard focus, below the label) goes above it
    where below would leave the window or the scroll pane the label is in, and moves left
    where it would leave them on the right: at the window's bottom edge it showed below, out
    of sight, and at its right edge it ran 40 px past it."""
    page = browser.new_tab(site.url("overlay/legend.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    ad_label = f"[...{UI}.querySelectorAll('.box')].find(b => b.dataset.kind === 'ad').querySelector('.label')"
    # the label of the picture ad 4 px above the window's bottom edge
    page.evaluate(f"(scrollBy(0, {ad_label}.getBoundingClientRect().bottom - innerHeight + 4), true)")
    page.evaluate(NEXT_FRAME)
    page.evaluate(f"({ad_label}.focus(), true)")
    page.screenshot(artifacts / "overlay-reason-at-the-bottom.png")
    why = page.evaluate(f"(() => {{ const w = {UI}.activeElement.querySelector('.why').getBoundingClientRect();"
                        " return [w.x, w.y, w.width, w.height]; })()")
    assert why[2] > 0 and why[3] > 0, why
    assert why[1] >= 0 and why[1] + why[3] <= page.evaluate("innerHeight"), why
    assert why[0] >= 0 and why[0] + why[2] <= page.evaluate("document.documentElement.clientWidth"), why


# Scrolled and read in one script: before any scroll event, animation frame or paint has run,
# so a box is on its element only if the browser itself keeps it there as the page scrolls
# (it scrolls the page, and sticks a sticky element, in a thread of its own: a box moved by
# a script on the page's scroll event trails its element by a frame, and jitters over a
# sticky header that holds still while the page moves under it).
SCROLLS = [150, 230, -80, 400]


def test_the_box_of_a_sticky_header_stays_on_it_as_the_page_scrolls(browser: harness.Browser, site: harness.Site,
                                                                     artifacts: Path) -> None:
    """The overlay's box of a header sticky to the window's top is on it the moment the page
    has scrolled, as the boxes of what scrolls with the page and of a bar fixed to the window
    are. It was moved back onto the header by the page's scroll event: scrolled down, it lay
    a frame's scroll below the header, and jittered as the page scrolled. Where the header
    lies unstuck is found without writing on it: its stickiness was taken off with an inline
    style for a moment, which a page's observer of its style attributes saw (two writes)."""
    page = browser.new_tab(site.url("overlay/wide.html"))
    page.wait_for("document.readyState === 'complete'")
    # (first: Playwright's screenshot leaves an empty style attribute on the page's inputs)
    page.screenshot(artifacts / "overlay-wide-page.png")
    dom_before = page.evaluate(PAGE_DOM)
    page.evaluate(WATCH_STYLES)
    assert browser.act(page, "overlay")["status"] == "overlay"
    for by in SCROLLS:
        header, box = page.evaluate(f"(scrollBy(0, {by}), {HEADER_AND_BOX})")
        assert _close(header, box), (by, header, box)
        ad, box = page.evaluate(AD_AND_BOX)
        assert _close(ad, box), (by, ad, box)
        banner, box = page.evaluate(BANNER_AND_BOX)
        assert _close(banner, box), (by, banner, box)
    # finding where the header lies unstuck wrote nothing on it, not even for a moment
    assert page.evaluate(STYLE_WRITES) == []
    page.screenshot(artifacts / "overlay-sticky-header-scrolled.png")
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"
    assert page.evaluate(PAGE_DOM) == dom_before


def test_the_labelers_outlines_stay_on_their_elements_as_the_page_scrolls(browser: harness.Browser, site: harness.Site,
                                                                          artifacts: Path) -> None:
    """The labeler's outlines (of a part that scrolls with the page, of a bar fixed to the
    window, of a header sticky to its top) and its highlight are on their elements the moment
    the page has scrolled. Its layer, fixed to the window, was moved along on the page's
    scroll event: every outline but the fixed bar's trailed the page by a frame (150 px off
    right after a scroll of 150 px)."""
    page = browser.new_tab(site.url("overlay/wide.html"))
    page.wait_for("document.readyState === 'complete'")
    page.screenshot(artifacts / "labeler-wide-page.png")
    dom_before = page.evaluate(PAGE_DOM)
    page.evaluate(WATCH_STYLES)
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    _mark(page, keys, "#ad-inline", "div#ad-inline", "a")
    _mark(page, keys, "#cookie-banner", "div#cookie-banner")
    _mark(page, keys, ".site-header", "header")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '2'")
    keys.press("m")
    page.evaluate(f"(scrollTo(0, 0), {NEXT_FRAME})")
    keys.move(".sidebar h3")
    page.wait_for(f"{HOVER_TAG}.startsWith('h3')")
    keys.move(".toolbar", ui=True)  # (the mouse off the page: scrolled, it would point at another element)
    page.evaluate(f"(scrollTo(0, 0), {NEXT_FRAME})")
    outlines = {"ad": _labeler_box("document.getElementById('ad-inline')"),
                "banner": _labeler_box("document.getElementById('cookie-banner')"),
                "header": _labeler_box("document.querySelector('.site-header')")}
    hovered = (f"(() => {{ const r = (e) => {{ const b = e.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }};"
               f" return [r(document.querySelector('.sidebar h3')), r({LABELER}.querySelector('.hover'))]; }})()")
    for by in SCROLLS:
        for what, probe in outlines.items():
            target, box = page.evaluate(f"(scrollBy(0, {by}), {probe})" if what == "ad" else probe)
            assert _close(target, box), (by, what, target, box)
        target, box = page.evaluate(hovered)
        assert _close(target, box), (by, "highlight", target, box)
    assert page.evaluate(STYLE_WRITES) == []  # (the sticky header's outline wrote nothing on it)
    page.screenshot(artifacts / "labeler-wide-scrolled.png")
    keys.press("Escape")
    wait_status(page, "label-cancelled")
    assert page.evaluate(PAGE_DOM) == dom_before


def test_the_labelers_outline_follows_what_scrolls_inside_a_pane(browser: harness.Browser, site: harness.Site,
                                                                 artifacts: Path) -> None:
    """An outline of a part inside an element that scrolls by itself (a comments pane) is on
    it once the pane has scrolled and a frame has been drawn, and shows only within the pane."""
    page = browser.new_tab(site.url("overlay/scroll-panes.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    page.evaluate("(document.getElementById('comments').scrollTop = document.getElementById('pane-ad')"
                  ".offsetTop - document.getElementById('comments').offsetTop - 100, true)")
    _mark(page, keys, "#pane-ad", "div#pane-ad", "a")
    page.wait_for("document.documentElement.dataset.blocksiftLabelAd === '1'")
    outline = _labeler_box("document.getElementById('pane-ad')")
    pane = _pane("document.getElementById('comments')")
    for top in [0, 60, 1e6]:
        page.evaluate(f"(document.getElementById('comments').scrollTop = {top}, {NEXT_FRAME})")
        target, box = page.evaluate(outline)
        assert _close(target, box), (top, target, box)
        shown = page.evaluate(f"(() => {{ const b = [...{LABELER}.querySelectorAll('.box.ad')][0];"
                              " let r = b.getBoundingClientRect(), x = r.left, y = r.top, right = r.right, bottom = r.bottom;"
                              " for (let e = b.parentElement; e; e = e.parentElement) {"
                              "  const s = getComputedStyle(e); if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;"
                              "  const c = e.getBoundingClientRect(); x = Math.max(x, c.left); y = Math.max(y, c.top);"
                              "  right = Math.min(right, c.right); bottom = Math.min(bottom, c.bottom); }"
                              " return [x, y, Math.max(0, right - x), Math.max(0, bottom - y)]; })()")
        assert _inside(shown, page.evaluate(pane)), (top, shown, page.evaluate(pane))
    page.screenshot(artifacts / "labeler-pane-scrolled.png")
    # scrolled by the page's script from an animation frame: on it in that frame, where the
    # browser has scroll timelines to move it (it was drawn again with the next frame)
    if page.evaluate("typeof ScrollTimeline === 'function'"):
        for top in [40, 200, 90]:
            target, box = page.evaluate(_scrolled_in_a_frame("document.getElementById('comments')", top, outline))
            assert _close(target, box), (top, target, box)
    keys.press("Escape")
    wait_status(page, "label-cancelled")


# The pane scrolled by the page's own script from an animation frame (as a chat pane that
# keeps to its newest message, or a smooth-scrolling library, scrolls it), read once that
# frame has been drawn: before the pane's scroll event, which comes with the next frame.
def _scrolled_in_a_frame(pane: str, top: int, probe: str) -> str:
    return (f"new Promise(r => requestAnimationFrame(() => {{ {pane}.scrollTop = {top};"
            f" setTimeout(() => r({probe}), 0); }}))")


def test_a_box_stuck_in_a_pane_moves_as_the_pane_scrolls(browser: harness.Browser, site: harness.Site,
                                                        artifacts: Path) -> None:
    """An ad that sticks to the top of a comments pane as the pane scrolls: its box stays on it
    as the pane scrolls (placed again as the pane scrolls), and as the window scrolls (the pane
    and its box move with the document). It was measured again at every scroll of the window
    too, for nothing: the pane, and what sticks in it, move with the document."""
    page = browser.new_tab(site.url("overlay/pane-sticky.html"))
    page.wait_for("document.readyState === 'complete'")
    dom_before = page.evaluate(PAGE_DOM)
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.evaluate("(scrollTo(0, document.getElementById('comments').getBoundingClientRect().top + scrollY - 150), true)")
    page.evaluate(NEXT_FRAME)
    pinned = _box_shown("document.getElementById('pinned-ad')", "ad")
    ad = _box_shown("document.getElementById('pane-ad')", "ad")
    pane = _pane("document.getElementById('comments')")
    follows = f"[...{UI}.querySelectorAll('.box')].filter(b => b.dataset.kind === 'ad').map(b => b.dataset.follows)"
    assert page.evaluate(follows)[0] == "pane-scroll", page.evaluate(follows)
    for top in [120, 400, 1e6, 60]:
        page.evaluate(f"(document.getElementById('comments').scrollTop = {top}, {NEXT_FRAME})")
        for what, probe in [("pinned", pinned), ("ad", ad)]:
            target, box, shown = page.evaluate(probe)
            assert _close(target, box), (top, what, target, box)
            assert _inside(shown, page.evaluate(pane)), (top, what, shown)
    page.screenshot(artifacts / "overlay-pane-sticky-scrolled.png")
    for by in [120, -60, 200]:
        target, box, _ = page.evaluate(f"(scrollBy(0, {by}), {pinned})")
        assert _close(target, box), (by, target, box)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"
    assert page.evaluate(PAGE_DOM) == dom_before


def test_a_box_in_a_pane_moves_in_the_frame_that_scrolls_the_pane(browser: harness.Browser, site: harness.Site,
                                                                   artifacts: Path) -> None:
    """The box of an ad among the comments of a pane that the page's own script scrolls from an
    animation frame is on the ad in the frame that shows the pane scrolled: the browser moves
    it, on the pane's scroll timeline. Moved on the pane's scroll event, which comes with the
    next frame, it lay a frame's scroll away from the ad in every frame of the scroll (120 px
    after a jump of 120 px). New comments at the pane's end leave it on the ad (it was moved by
    the share of the pane's scroll range, which they changed). Browsers without scroll
    timelines (Firefox ESR 153) still move it on the scroll event."""
    page = browser.new_tab(site.url("overlay/pane-sticky.html"))
    page.wait_for("document.readyState === 'complete'")
    if not page.evaluate("typeof ScrollTimeline === 'function'"):
        pytest.skip(f"{browser.name} has no scroll timelines: a box in a pane moves on the pane's scroll event")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.evaluate("(scrollTo(0, document.getElementById('comments').getBoundingClientRect().top + scrollY - 150), true)")
    page.evaluate(NEXT_FRAME)
    ad = _box_shown("document.getElementById('pane-ad')", "ad")
    for top in [120, 260, 30, 1e6, 90, 1e6, 0]:
        target, box, _ = page.evaluate(_scrolled_in_a_frame("document.getElementById('comments')", top, ad))
        assert _close(target, box), (top, target, box)
    page.screenshot(artifacts / "overlay-pane-scrolled-in-a-frame.png")
    # new comments come in at the pane's end (it scrolls further, the ad stays where it is)
    page.evaluate("(document.getElementById('comments').scrollTop = 150, true)")
    for _ in range(3):
        target, box, _ = page.evaluate(
            "(document.getElementById('comments').append(Object.assign(document.createElement('div'),"
            f" {{className: 'msg', innerHTML: '<b>Reader</b><p>A new comment.</p>'}})), {NEXT_FRAME}).then(() => {ad})")
        assert _close(target, box), (target, box)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


# Resolves once the window's scroll has ended and the legend has been placed again (the
# overlay's listener runs before the page's own).
SCROLL_ENDED = ("(window.scrollEnded = new Promise(r => addEventListener('scrollend',"
                " () => setTimeout(() => r(true), 0), {once: true})), true)")


def test_the_legend_keeps_off_what_sticks_to_the_window(browser: harness.Browser, site: harness.Site,
                                                        artifacts: Path) -> None:
    """Placed again once the page has scrolled, the legend keeps off the text of the page as it
    now lies: a key to the page's tables sticky to the window's top comes down the page with
    it. The legend was kept off the text as it lay when the overlay was drawn, and went over
    the key (17,429 square pixels of its text; on a travel site, over its 'Popular posts',
    sticky beside the article)."""
    page = browser.new_tab(site.url("overlay/legend-sticky.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    assert page.evaluate(TEXT_UNDER_LEGEND) == 0
    for y in [1500, 2200]:
        page.evaluate(SCROLL_ENDED)
        page.evaluate(f"(scrollTo(0, {y}), true)")
        page.evaluate("scrollEnded")
        page.screenshot(artifacts / f"overlay-legend-sticky-{y}.png")
        assert page.evaluate("document.getElementById('contents').getBoundingClientRect().top") == 0
        assert page.evaluate(TEXT_UNDER_LEGEND) == 0, y
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


# The page fills a slot at its top after it was drawn (a late ad, a consent bar in the flow):
# everything below moves down.
FILL_SLOT = ("(document.body.prepend(Object.assign(document.createElement('div'),"
             " {className: 'late-slot', style: 'height: 240px', textContent: 'A slot filled in late'})), true)")


def test_boxes_stay_on_their_blocks_when_the_page_changes(browser: harness.Browser, site: harness.Site,
                                                          artifacts: Path) -> None:
    """The page fills a slot at its top after the overlay, or the labeler, was drawn: the boxes
    and outlines move down with what they mark, in the frame that shows it moved. They stayed
    where the blocks had been, 240 px above them, until the window was resized."""
    page = browser.new_tab(site.url("hide/news.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.evaluate(f"({FILL_SLOT}, {NEXT_FRAME})")
    page.screenshot(artifacts / "overlay-page-changed.png")
    ad, box = page.evaluate(AD_AND_BOX)
    assert _close(ad, box), (ad, box)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"

    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    _mark(page, keys, "#ad-inline", "div#ad-inline", "a")
    page.wait_for("document.documentElement.dataset.blocksiftLabelAd === '1'")
    outline = _labeler_box("document.getElementById('ad-inline')")
    page.evaluate(f"({FILL_SLOT}, {NEXT_FRAME})")
    page.screenshot(artifacts / "labeler-page-changed.png")
    target, box = page.evaluate(outline)
    assert _close(target, box), (target, box)
    keys.press("Escape")
    wait_status(page, "label-cancelled")


def test_the_legend_keeps_off_a_frame(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """The legend keeps off a frame on the page (a video player, an embedded post) as it keeps
    off the page's text, where the window has room for it elsewhere: the frame's text is none of
    the page's, and the legend went over the player at the window's lower left."""
    page = browser.new_tab(site.url("overlay/legend-frame.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "overlay-legend-frame.png")
    over = (f"(() => {{ const l = {UI}.querySelector('.legend').getBoundingClientRect(),"
            " f = document.getElementById('player').getBoundingClientRect();"
            " return Math.max(0, Math.min(l.right, f.right) - Math.max(l.left, f.left))"
            " * Math.max(0, Math.min(l.bottom, f.bottom) - Math.max(l.top, f.top)); })()")
    assert page.evaluate(over) == 0
    assert page.evaluate(TEXT_UNDER_LEGEND) == 0
    assert not page.evaluate(f"{UI}.querySelector('.legend').classList.contains('folded')")
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def _pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """A screenshot's rows of RGB(A) bytes: (width, channels, rows); 8-bit PNGs, not interlaced,
    as both browsers write them (no imaging library in the test install)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, [], b""
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + size]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        at += size + 12
    width, height = int.from_bytes(header[:4], "big"), int.from_bytes(header[4:8], "big")
    depth, color, interlace = header[8], header[9], header[12]
    assert depth == 8 and color in (2, 6) and not interlace, header
    channels = 3 if color == 2 else 4
    raw, stride, rows = zlib.decompress(b"".join(chunks)), width * channels, []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, channels, rows


def _colour_at(shot: tuple[int, int, list[bytes]], scale: float, x: float, y: float) -> tuple[int, ...]:
    """The screenshot's colour at a point of the window (CSS pixels)."""
    _, channels, rows = shot
    i = int(x * scale) * channels
    return tuple(rows[int(y * scale)][i:i + 3])


def _near(colour: tuple[int, ...], hex_colour: str, within: int = 24) -> bool:
    want = bytes.fromhex(hex_colour.lstrip("#"))
    return all(abs(a - b) <= within for a, b in zip(colour, want, strict=True))


def test_boxes_go_under_the_pages_own_bars(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A box whose block has scrolled under the page's header (sticky to the window's top) is
    drawn under it as the block is, and so under a bar fixed to the window's bottom: the header
    shows whole, and the box below it. The boxes lay over everything, and the box of the list of
    related stories (and its label) was drawn over the header as soon as the list had scrolled
    under it; the main text's box went across the app's bar."""
    page = browser.new_tab(site.url("overlay/under-header.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    header = page.evaluate("document.getElementById('masthead').getBoundingClientRect().bottom")
    bar = page.evaluate("document.getElementById('app-bar').getBoundingClientRect().top")
    for under in [60, 30, 5]:
        # the list's top `under` px under the header
        page.evaluate(f"(scrollTo(0, document.getElementById('related').getBoundingClientRect().top"
                      f" + scrollY - {header} + {under}), {NEXT_FRAME})")
        related = page.evaluate(f"{BOX_OF}('related')")
        assert related and related[1] < header < related[3], (related, header)
        main = page.evaluate(f"[...{UI}.querySelectorAll('.box.main')].map(b => b.getBoundingClientRect())"
                             f".filter(b => b.top < {bar} && b.bottom > innerHeight).map(b => b.left)")
        assert main, "no main text box runs under the bar"
        shot_path = page.screenshot(artifacts / f"under-header-{under}.png")
        shot = _pixels(shot_path)
        scale = shot[0] / page.evaluate("innerWidth")
        # the box's left edge and its label's place: the header's colour inside the header,
        # the box's own just below it
        for y in [header - under + 1, header - 2]:
            for x in [related[0] + 1, related[2] - 3, related[2] - 20]:
                assert _near(_colour_at(shot, scale, x, y), "#0d3b66"), (under, x, y, _colour_at(shot, scale, x, y))
        assert _near(_colour_at(shot, scale, related[0] + 1, header + 3), "#c2185b"), _colour_at(shot, scale, related[0] + 1, header + 3)
        # the main text's box: its dashed edge not across the bar (which shows its own colour)
        left = main[0]
        assert all(_near(_colour_at(shot, scale, left + dx, y), "#333333")
                   for dx in [0.5, 1.5] for y in range(int(bar) + 2, int(bar) + 50, 3)), left
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_boxes_show_through_a_transparent_bar(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A header fixed to the window in a full-width transparent wrapper (only its logo shows):
    the box of the list of related stories scrolled under the wrapper is drawn where the page
    shows through it, and hidden under the logo, as the list is. The whole wrapper counted as
    a bar, and the boxes vanished under all of its 120 px."""
    page = browser.new_tab(site.url("overlay/transparent-header.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    logo = page.evaluate("(r => [r.left, r.top, r.right, r.bottom])(document.getElementById('logo').getBoundingClientRect())")
    # the list's top 20 px from the window's top: under the logo, and its left edge below it
    page.evaluate("(scrollTo(0, document.getElementById('related').getBoundingClientRect().top + scrollY - 20),"
                  f" {NEXT_FRAME})")
    related = page.evaluate(f"{BOX_OF}('related')")
    assert related and related[1] < logo[3] and logo[0] <= related[0] + 1 < logo[2], (related, logo)
    shot_path = page.screenshot(artifacts / "transparent-header.png")
    shot = _pixels(shot_path)
    scale = shot[0] / page.evaluate("innerWidth")
    # under the logo: the logo; beside it and below it, in the wrapper: the box's edge
    assert _near(_colour_at(shot, scale, related[0] + 1, logo[3] - 5), "#0d3b66")
    for x, y in [(related[0] + 1, logo[3] + 20), (related[0] + 1, 110), (related[2] - 2, 40)]:
        assert _near(_colour_at(shot, scale, x, y), "#c2185b"), (x, y, _colour_at(shot, scale, x, y))
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"
    # the same wrapper with its background painted by its ::before (as many headers have it)
    # shows all of its width: the boxes go under all of it
    page.evaluate("(document.head.insertAdjacentHTML('beforeend', '<style>.top-wrap::before { content: \"\";"
                  " position: absolute; inset: 0; background: #0d3b66; }</style>'), true)")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.evaluate(NEXT_FRAME)
    shot = _pixels(page.screenshot(artifacts / "transparent-header-painted-before.png"))
    for x, y in [(related[0] + 1, logo[3] + 20), (related[0] + 1, 110), (related[2] - 2, 40)]:
        assert _near(_colour_at(shot, scale, x, y), "#0d3b66"), (x, y, _colour_at(shot, scale, x, y))
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_tab_goes_from_the_legend_to_the_labels(browser: harness.Browser, site: harness.Site) -> None:
    """Opening the overlay takes no focus; the first Tab then goes to the legend, and on from
    it to the labels. The labels came after every link of the page in its Tab order (the UI
    is last in the document), and the legend after them."""
    page = browser.new_tab(site.url("hide/news.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    assert page.evaluate("document.activeElement === document.body"), "the overlay took the focus"
    keys = Input(page)
    focused = (f"(e => e ? [e.closest('.legend') ? 'legend' : e.classList.contains('label') ? 'label' : e.localName,"
               " e.textContent] : [document.activeElement.localName, ''])"
               f"({UI}.activeElement)")
    seen = []
    for _ in range(4):
        keys.press("Tab")
        seen.append(page.evaluate(focused))
    # the legend's fold button, its buttons when it is unfolded, then the labels
    where = [where for where, _ in seen]
    assert where[0] == "legend" and "label" in where, seen
    assert set(where[:where.index("label")]) == {"legend"} and set(where[where.index("label"):]) == {"label"}, seen
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_the_label_of_a_long_main_text_is_at_its_top(browser: harness.Browser, site: harness.Site,
                                                      artifacts: Path) -> None:
    """A main text many windows long, with no free place at its top (its headline across the
    whole width, a line of links right above it): its label goes near its top, where a reader
    opening the overlay sees it, covering as little as it can. It went below the article, at
    the first free place, thousands of pixels down."""
    page = browser.new_tab(site.url("overlay/long-article.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "long-article.png")
    box, label, window = page.evaluate(
        f"(() => {{ const b = [...{UI}.querySelectorAll('.box.main')].sort((x, y) => y.offsetHeight - x.offsetHeight)[0];"
        " const r = (e) => { const a = e.getBoundingClientRect(); return [a.top + scrollY, a.bottom + scrollY]; };"
        " return [r(b), r(b.querySelector('.label')), innerHeight]; })()")
    assert box[1] - box[0] > 3 * window, (box, window)
    assert box[0] - 30 <= label[0] and label[1] <= box[0] + window / 2, (box, label)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_a_toast_and_the_cover_show_over_the_legend(browser: harness.Browser, site: harness.Site) -> None:
    """The legend, first in the UI for Tab's sake, is painted over the boxes by its z-index; a
    toast ("Nothing to hide", an error) and the reader's loading cover, which came after it in
    the UI and so over it, must stay over it where they meet."""
    page = browser.new_tab(site.url("hide/news.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    for kind in ["toast", "cover"]:
        # one of the UI's own with that class, over the legend's corner (the UI's style sheet)
        on_top = page.evaluate(
            f"(() => {{ const root = {UI}, l = root.querySelector('.legend').getBoundingClientRect();"
            f" const e = document.createElement('div'); e.className = '{kind}'; e.textContent = 'x';"
            " e.style.cssText = `left: ${l.left}px; top: ${l.top}px; right: auto; bottom: auto; width: 50px; height: 30px;`;"
            " root.append(e); const hit = root.elementFromPoint(l.left + 5, l.top + 5); e.remove();"
            f" return hit === e ? '{kind}' : String(hit?.className); }})()")
        assert on_top == kind, (kind, on_top)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


# The list of links in the frame of letters (window coordinates), the box drawn over it, and
# the part of the window the box shows in (its pane's).
LETTERS = (f"(() => {{ const f = document.getElementById('letters'), at = f.getBoundingClientRect();"
           " const e = f.contentDocument.getElementById('more-letters').getBoundingClientRect();"
           " const r = (b) => [b.x, b.y, b.width, b.height];"
           f" const box = [...{UI}.querySelectorAll('.box')].find(b => b.dataset.kind === 'links');"
           " return [[e.x + at.x + f.clientLeft, e.y + at.y + f.clientTop, e.width, e.height],"
           " box ? r(box.getBoundingClientRect()) : null, box?.closest('.pane') ? r(box.closest('.pane').getBoundingClientRect()) : null,"
           " [at.x + f.clientLeft, at.y + f.clientTop, f.clientWidth, f.clientHeight]]; })()")


def test_the_blocks_of_a_frame_are_drawn_where_the_frame_shows_them(browser: harness.Browser, site: harness.Site,
                                                                     artifacts: Path) -> None:
    """A block the host finds in a frame of the page's own site (letters to the editor, with
    their list of links) has its box on it where the frame shows it, only within the frame, as
    the page and the frame scroll. Its box lay where the block lies in the frame's own
    coordinates, over the page's article at the window's top left. A frame of another site,
    which cannot be read, is named in the legend as not covered (nothing said so)."""
    page = browser.new_tab(site.url("overlay/frame-links.html"))
    page.wait_for("document.readyState === 'complete'"
                  " && document.getElementById('letters').contentDocument?.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    # the frame of another site (the same letters) cannot be read: the legend says it is not covered
    assert page.evaluate(f"{UI}.querySelector('.legend .note')?.textContent") == "1 frame of other sites not covered"
    assert page.evaluate(f"[...{UI}.querySelectorAll('.box')].filter(b => b.dataset.kind === 'links').length") == 1
    for frame_top, window_top in [(0, 0), (0, 900), (200, 900), (120, 1000)]:
        page.evaluate(f"(document.getElementById('letters').contentWindow.scrollTo(0, {frame_top}),"
                      f" scrollTo(0, {window_top}), {NEXT_FRAME})")
        block, box, pane, frame = page.evaluate(LETTERS)
        assert _close(block, box), (frame_top, window_top, block, box)
        assert pane and _inside(pane, frame), (pane, frame)
    page.screenshot(artifacts / "overlay-frame-scrolled.png")
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_a_label_given_focus_comes_out_from_under_the_pages_header(browser: harness.Browser, site: harness.Site,
                                                                   artifacts: Path) -> None:
    """A label reached with Tab whose block has scrolled under the page's sticky header brings
    the window back until it shows below the header: the window scrolled only for a label
    out of the window, and this one, inside it, stayed under the header, out of sight."""
    page = browser.new_tab(site.url("overlay/under-header.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    header = page.evaluate("document.getElementById('masthead').getBoundingClientRect().bottom")
    page.evaluate(f"(scrollTo(0, document.getElementById('related').getBoundingClientRect().top"
                  f" + scrollY - {header} + 30), {NEXT_FRAME})")
    label = (f"[...{UI}.querySelectorAll('.box')].find(b => b.dataset.kind === 'links').querySelector('.label')")
    assert page.evaluate(f"{label}.getBoundingClientRect().top") < header
    page.evaluate(f"({label}.focus(), {NEXT_FRAME})")
    top = page.evaluate(f"{label}.getBoundingClientRect().top")
    page.screenshot(artifacts / "under-header-label-focused.png")
    assert header <= top < page.evaluate("innerHeight") / 2, (header, top)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_a_label_is_not_placed_under_the_pages_own_bar(browser: harness.Browser, site: harness.Site,
                                                       artifacts: Path) -> None:
    """A label goes where it can be seen: not under a bar fixed to the window. Drawn with the
    list of related stories just above the app's bar at the window's bottom, the list's label
    went on the list's top right corner, half under the bar, out of sight."""
    page = browser.new_tab(site.url("overlay/under-header.html"))
    page.wait_for("document.readyState === 'complete'")
    page.set_viewport(1100, 500)
    page.wait_for("innerHeight === 500")
    bar = page.evaluate("document.getElementById('app-bar').getBoundingClientRect().top")
    page.evaluate(f"(scrollTo(0, document.getElementById('related').getBoundingClientRect().top"
                  f" + scrollY - {bar} + 8), {NEXT_FRAME})")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "label-over-the-bar.png")
    label = page.evaluate(f"(() => {{ const l = [...{UI}.querySelectorAll('.box')].find(b => b.dataset.kind === 'links')"
                          ".querySelector('.label').getBoundingClientRect(); return [l.top, l.bottom]; })()")
    assert label[1] <= bar or label[0] >= page.evaluate("innerHeight"), (label, bar)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_the_labelers_outlines_go_under_the_pages_own_bars(browser: harness.Browser, site: harness.Site,
                                                           artifacts: Path) -> None:
    """The labeler's outlines go under the page's bars as the overlay's boxes do: the main
    text's outline stops at an app's bar fixed to the window's bottom, and the outline of the
    list marked a link block at the sticky header, as the list does. Both were drawn over the
    bars (the main text's green edge and tint across the app's bar)."""
    page = browser.new_tab(site.url("overlay/under-header.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    _mark(page, keys, "#related", "aside#related", "l")
    keys.move(".toolbar", ui=True)
    header = page.evaluate("document.getElementById('masthead').getBoundingClientRect().bottom")
    bar = page.evaluate("document.getElementById('app-bar').getBoundingClientRect().top")
    page.evaluate(f"(scrollTo(0, document.getElementById('related').getBoundingClientRect().top"
                  f" + scrollY - {header} + 30), {NEXT_FRAME})")
    outline = (f"(e => {{ const r = e.getBoundingClientRect(); return [...{LABELER}.querySelectorAll('.box')]"
               ".map(b => b.getBoundingClientRect()).filter(b => Math.abs(b.left - r.left) < 1 && Math.abs(b.width - r.width) < 1"
               " && b.top < r.top + 1 && b.bottom > r.bottom - 1).map(b => [b.left, b.top, b.right, b.bottom])[0] ?? null; })")
    related = page.evaluate(f"{outline}(document.getElementById('related'))")
    main = page.evaluate(f"{outline}(document.querySelector('main > section'))")
    assert related and related[1] < header < related[3], (related, header)
    assert main and main[1] < bar and main[3] > page.evaluate("innerHeight"), (main, bar)
    shot = _pixels(page.screenshot(artifacts / "labeler-under-bars.png"))
    scale = shot[0] / page.evaluate("innerWidth")
    # (outlines lie 2 px outside their elements)
    assert _near(_colour_at(shot, scale, main[0] - 1, bar - 20), "#2e7d32"), _colour_at(shot, scale, main[0] - 1, bar - 20)
    for y in range(int(bar) + 2, int(bar) + 50, 4):
        assert _near(_colour_at(shot, scale, main[0] - 1, y), "#333333"), (y, _colour_at(shot, scale, main[0] - 1, y))
    # the header's own colour where the list's outline and its tint would lie (a tint of 12 %
    # moves it by up to 24)
    for x, y in [(related[2] + 0.5, header - 28), (related[2] + 0.5, header - 10), (related[2] - 20, header - 10),
                 (related[0] - 1, header - 10), (related[0] - 1, header - 2), (related[2] - 20, header - 2)]:
        assert _near(_colour_at(shot, scale, x, y), "#0d3b66", 8), (x, y, _colour_at(shot, scale, x, y))
    keys.press("Escape")
    wait_status(page, "label-cancelled")


def test_a_box_goes_with_a_menu_the_page_closes_after_a_resize(browser: harness.Browser, site: harness.Site,
                                                               artifacts: Path) -> None:
    """The window made narrow, a docs page's own script closes its menu into a drawer (its
    wrapper transparent) a moment later, without changing the page's size: the overlay, drawn
    again on the resize before that, follows once the page has settled. The menu's box stayed
    over the article, outlining a menu nobody could see (wcxb-dev 0681, in both browsers)."""
    page = browser.new_tab(site.url("overlay/drawer.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    menu_box = (f"[...{UI}.querySelectorAll('.box')].filter(b => {{ const r = b.getBoundingClientRect();"
                " return r.left < 1 && Math.abs(r.width - 240) < 2 && r.height > 100; }).length")
    assert page.evaluate(menu_box) == 1
    page.set_viewport(700, 600)
    page.wait_for("document.getElementById('drawer').classList.contains('closed')")
    page.wait_for(f"{menu_box} === 0", timeout=10)
    page.screenshot(artifacts / "overlay-drawer-closed.png")
    assert page.evaluate(f"{UI}.querySelectorAll('.box').length") >= 1  # the article's is still drawn
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_labels_keep_off_pictures_where_there_is_room(browser: harness.Browser, site: harness.Site,
                                                      artifacts: Path) -> None:
    """A label goes on a picture only where no place off text and pictures is free: the
    related stories are cards, each a picture above its title, so the list's top corners lie
    on pictures, and its label went on the first one (a label kept off text only); there is
    room in the margin beside the list."""
    page = browser.new_tab(site.url("overlay/pictures.html"))
    page.wait_for("document.readyState === 'complete' && [...document.images].every(i => i.complete)")
    page.evaluate(f"(scrollTo(0, document.querySelector('.related').getBoundingClientRect().top + scrollY - 200), {NEXT_FRAME})")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "pictures.png")
    over = page.evaluate(
        f"(() => {{ const r = (e) => e.getBoundingClientRect();"
        " const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0"
        " && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0;"
        f" const labels = [...{UI}.querySelectorAll('.box')].map(b => [b.dataset.kind, r(b.querySelector('.label'))]);"
        " const pictures = [...document.images].map(r);"
        " return [labels.length, labels.filter(([, l]) => pictures.some(p => meet(l, p))).map(([k]) => k)]; })()")
    assert over[0] >= 3 and over[1] == [], over
    # the cards' list has a box (the place the test is about)
    assert page.evaluate(f"[...{UI}.querySelectorAll('.box')].some(b => {{ const a = b.getBoundingClientRect(),"
                         " c = document.querySelector('.cards').getBoundingClientRect();"
                         " return a.left <= c.left + 1 && a.right >= c.right - 1 && a.top <= c.top + 1; })")
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_labels_are_not_kept_off_text_nobody_sees(browser: harness.Browser, site: harness.Site,
                                                  artifacts: Path) -> None:
    """A label keeps off the page's text, but not off text that shows nothing: a letter at
    opacity 0.0001 (a font's trick) over the related stories, and their heading for screen
    readers, clipped to a pixel. Both counted as text, so the list's label left the first
    free place, the box's top left corner, for its margin; on a shop's product page
    (wcxb-dev 0591) such a letter 2,400 pixels high covered every place near the main text,
    whose label went off the window's right edge."""
    page = browser.new_tab(site.url("overlay/invisible-text.html"))
    page.wait_for("document.readyState === 'complete'")
    page.evaluate(f"(scrollTo(0, document.querySelector('.related').getBoundingClientRect().top + scrollY - 200), {NEXT_FRAME})")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "invisible-text.png")
    box, label = page.evaluate(
        f"(() => {{ const c = document.querySelector('.related ul').getBoundingClientRect();"
        f" const b = [...{UI}.querySelectorAll('.box')].find(b => {{ const a = b.getBoundingClientRect();"
        " return a.left <= c.left + 1 && a.right >= c.right - 1 && a.bottom >= c.bottom - 1 && a.top <= c.top + 1; });"
        " const r = (e) => { const a = e.getBoundingClientRect(); return [a.left, a.top, a.right, a.bottom]; };"
        " return b ? [r(b), r(b.querySelector('.label'))] : [null, null]; })()")
    assert box, "no box over the related stories"
    # the box's top left corner, inside it
    assert abs(label[0] - box[0]) <= 6 and abs(label[1] - box[1]) <= 6, (box, label)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"


def test_a_label_stays_in_the_window_on_a_page_wider_than_it(browser: harness.Browser, site: harness.Site,
                                                             artifacts: Path) -> None:
    """On a page wider than the window by a part that overflows it (a table of tides at its
    end), the label of a block as wide as the window stays in the window: the line of links
    at the top has no free place inside its corners, and its label went to the first free
    place beside it, right of it, past the window's edge, out of sight (wcxb-dev 0415, a
    blog whose code overflows, and 0581, 2453: the main text's and a menu's labels)."""
    page = browser.new_tab(site.url("overlay/overflowing.html"))
    page.wait_for("document.readyState === 'complete'")
    assert page.evaluate("document.documentElement.scrollWidth > innerWidth")
    assert browser.act(page, "overlay")["status"] == "overlay"
    page.screenshot(artifacts / "overflowing.png")
    labels = page.evaluate(
        f"[...{UI}.querySelectorAll('.box')].map(b => {{ const r = b.getBoundingClientRect(),"
        " l = b.querySelector('.label').getBoundingClientRect();"
        " return [b.dataset.kind, r.left, r.right, l.left, l.right]; })")
    width = page.evaluate("document.documentElement.clientWidth")
    shown = [label for label in labels if label[1] < width]
    assert any(kind == "nav" or kind == "links" for kind, *_ in shown), labels
    assert all(0 <= left and right <= width for _, _, _, left, right in shown), (width, labels)
    assert browser.act(page, "overlay")["status"] == "overlay-cleared"

"""The extension end to end, in Chromium and Firefox, with the real host, on served pages.

Every test clicks the extension's own popup and waits on the status the extension writes
(``<html data-blocksift-status>`` on the page or the reader view); none sleeps.
"""

from __future__ import annotations

import json
import re
import signal
import socket
from pathlib import Path

import e2e_harness as harness
import pytest

PAGES = Path(__file__).resolve().parent / "pages"
INSTALL_COMMAND = "blocksift install"
UI = "document.querySelector('blocksift-ui')?.shadowRoot"
# the page's markup without the status attributes the extension keeps on <html>
PAGE_DOM = ("(() => { const copy = document.documentElement.cloneNode(true);"
            " for (const a of [...copy.attributes]) if (a.name.startsWith('data-blocksift-'))"
            " copy.removeAttribute(a.name); return copy.outerHTML; })()")
CONTENT = "document.getElementById('content')"

# Visible elements as a list of booleans in document order (our own UI excluded).
VISIBILITY = ("[...document.body.getElementsByTagName('*')].filter(e => e.localName !== 'blocksift-ui')"
              ".map(e => e.checkVisibility())")
INSIDE_HIDDEN = ("[...document.body.getElementsByTagName('*')].filter(e => e.localName !== 'blocksift-ui')"
                 ".map(e => !!e.closest('[data-blocksift-hide]'))")


def test_hide_link_blocks_then_restore(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    if isinstance(browser, harness.ChromiumBrowser):
        assert browser.extension_id == harness.CHROMIUM_EXTENSION_ID  # fixed by the manifest key
    page = browser.new_tab(site.url("article.html"))
    count_before = page.evaluate("document.getElementsByTagName('*').length")
    visible_before = page.evaluate(VISIBILITY)

    status = browser.act(page, "hide")
    assert status["status"] == "hidden", status
    assert int(status["count"]) > 0
    page.screenshot(artifacts / "page-hidden.png")

    # The link lists are gone from view, the article is not.
    assert page.evaluate("[...document.querySelectorAll('#nav a, #related a')].every(a => !a.checkVisibility())")
    assert page.evaluate("['p1', 'list', 'code', 'table', 'late'].every(id => document.getElementById(id).checkVisibility())")
    # Exactly the marked elements (and what they contain) changed visibility; nothing else did.
    marked = page.evaluate("document.querySelectorAll('[data-blocksift-hide]').length")
    assert marked == int(status["count"])
    inside = page.evaluate(INSIDE_HIDDEN)
    visible_after = page.evaluate(VISIBILITY)
    assert len(inside) == len(visible_before) == len(visible_after)
    for was, now, hidden in zip(visible_before, visible_after, inside):
        assert now == (was and not hidden)
    # Hidden with CSS, not removed; the page's own script still works.
    assert page.evaluate("document.getElementsByTagName('*').length") == count_before
    page.evaluate("document.getElementById('counter').click(), true")
    assert page.evaluate("document.getElementById('counter').textContent") == "Clicked 1 times"

    popup = browser.popup(page.url)
    popup.wait_for("document.documentElement.dataset.blocksiftHost")
    assert popup.evaluate("document.getElementById('act-hide').getAttribute('aria-pressed')") == "true"
    popup.screenshot(artifacts / "popup-after-hide.png")
    popup.close()

    status = browser.act(page, "hide")  # the toggle restores the page
    assert status["status"] == "restored", status
    assert page.evaluate("document.querySelectorAll('[data-blocksift-hide]').length") == 0
    assert page.evaluate(VISIBILITY) == visible_before
    assert page.evaluate("document.getElementById('counter').textContent") == "Clicked 1 times"


def test_overlay_outlines_blocks_with_labels(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = browser.new_tab(site.url("article.html"))
    dom_before = page.evaluate(PAGE_DOM)
    status = browser.act(page, "overlay")
    assert status["status"] == "overlay", status
    boxes = page.evaluate(f"[...{UI}.querySelectorAll('.box')].map(b => {{"
                          " const r = b.getBoundingClientRect(); const l = b.querySelector('.label');"
                          " return {label: l ? l.firstChild.textContent : '', why: l ? l.querySelector('.why').textContent : '',"
                          " kind: b.dataset.kind, block: b.dataset.block, w: r.width, h: r.height}; })")
    labels = [box for box in boxes if box["label"]]
    # One label per block drawn, on the first of its outlines, with its reason in words.
    assert len(labels) == int(status["count"]) > 0
    assert len({box["block"] for box in boxes}) == len(labels)
    for label in labels:
        assert label["why"], label
    assert any(box["kind"] == "main" for box in labels)
    assert any(re.fullmatch(r"link block · \d+ links", box["label"]) for box in labels), labels
    for box in boxes:
        assert box["w"] > 0 and box["h"] > 0
    page.screenshot(artifacts / "overlay.png")
    status = browser.act(page, "overlay")
    assert status["status"] == "overlay-cleared"
    # the page's DOM as it was: no boxes, and no host element of the extension's UI left
    assert page.evaluate("document.querySelector('blocksift-ui')") is None
    assert page.evaluate(PAGE_DOM) == dom_before


def test_overlay_draws_no_box_for_a_closed_menu(browser: harness.Browser, site: harness.Site,
                                               artifacts: Path) -> None:
    # dropdowns closed with opacity 0 or visibility hidden keep their layout boxes
    page = browser.new_tab(site.url("closed-menus.html"))
    status = browser.act(page, "overlay")
    assert status["status"] == "overlay", status
    boxes = page.evaluate(f"[...{UI}.querySelectorAll('.box')].map(b => {{"
                          " const r = b.getBoundingClientRect();"
                          " return {kind: b.dataset.kind, at: [r.left, r.top, r.right, r.bottom]}; })")
    menus = page.evaluate("[...document.querySelectorAll('.menu')].map(m => {"
                          " const r = m.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    assert len(menus) == 3 and any(box["kind"] == "main" for box in boxes), (menus, boxes)
    for menu in menus:  # no outline of clutter lies over a closed menu's area (the article may)
        for box in (b["at"] for b in boxes if b["kind"] != "main"):
            overlap = min(box[2], menu[2]) - max(box[0], menu[0]), min(box[3], menu[3]) - max(box[1], menu[1])
            assert not (overlap[0] > 4 and overlap[1] > 40), (menu, box, boxes)
    page.screenshot(artifacts / "overlay-closed-menus.png")


def test_reader_view_of_article_keeps_structure(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = browser.new_tab(site.url("article.html"))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    assert page.url.startswith(browser.extension_origin + "/reader.html")
    content = "document.getElementById('content')"
    assert page.evaluate("document.getElementById('title').textContent") == "How tides work"
    assert page.evaluate("document.getElementById('site').textContent") == "127.0.0.1"
    assert re.fullmatch(r"\d+ min read · [\d,]+ words", page.evaluate("document.getElementById('details').textContent"))
    assert "found by blocksift (auto)" in page.evaluate("document.getElementById('provenance').textContent")
    for selector in ("h2", "ul li", "pre code", "table th", "table td", "figure img", "figcaption", "caption"):
        assert page.evaluate(f"{content}.querySelectorAll({json.dumps(selector)}).length") > 0, selector
    # Links stay links, absolute and clickable; the paragraph the page's script added is in.
    assert page.evaluate(f"{content}.querySelector('a[href=\"https://en.wikipedia.org/wiki/Tide\"]')?.rel") == "noopener noreferrer"
    assert "added by the page's own script" in page.evaluate(f"{content}.textContent")
    assert "Moon phases explained" not in page.evaluate(f"{content}.textContent")
    assert page.evaluate(f"{content}.querySelector('img').src").startswith("http://127.0.0.1:")
    page.screenshot(artifacts / "reader-light.png")

    # Themes, font, size and width are applied and remembered.
    page.evaluate("document.querySelector('[data-theme-choice=dark]').click(), true")
    page.evaluate("document.querySelector('[data-font-choice=sans]').click(), true")
    page.evaluate("document.getElementById('larger').click(), true")
    page.evaluate("document.querySelector('[data-width-choice=wide]').click(), true")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("getComputedStyle(document.body).fontSize") == "22px"
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(28, 28, 32)"
    page.screenshot(artifacts / "reader-dark.png")
    page.evaluate("document.querySelector('[data-theme-choice=sepia]').click(), true")
    page.screenshot(artifacts / "reader-sepia.png")

    # Back returns to the page.
    page.evaluate("document.getElementById('back').click(), true")
    page.wait_for("location.href.startsWith('http://127.0.0.1') && document.readyState === 'complete'"
                  " && !!document.getElementById('counter')")
    assert page.evaluate("document.title") == "How tides work"


def test_reader_shows_title_and_loading_before_the_host_answers(
        browser: harness.Browser, site: harness.Site, host: harness.HostInstall,
        artifacts: Path) -> None:
    page = browser.new_tab(site.url("article.html"))
    assert browser.act(page, "hide")["status"] == "hidden"  # the host is running
    assert browser.act(page, "hide")["status"] == "restored"
    host.signal_all(signal.SIGSTOP)
    try:
        control = browser.popup(page.url)
        control.evaluate("document.getElementById('act-reader').click(), true")
        page.activate()
        # The popup is told at once (a toolbar popup closes then, not when the text is in).
        control.wait_for("document.documentElement.dataset.blocksiftStatus === 'reader-opening'")
        control.close()
        # The host cannot answer: the title and loading state come from the page alone.
        page.wait_for("location.protocol.endsWith('extension:')"
                      " && document.documentElement.dataset.blocksiftStatus === 'waiting'")
        assert page.evaluate("document.getElementById('title').textContent") == "How tides work"
        assert page.evaluate("document.getElementById('loading').checkVisibility()")
        assert page.evaluate(f"{CONTENT}.textContent") == ""
        status = page.status()
        assert int(status["loading-ms"]) <= int(status["reader-loading-ms"]), status
        if isinstance(browser, harness.ChromiumBrowser):
            # the page itself showed the loading state first (a visible tab paints it)
            assert int(status["cover-ms"]) == int(status["loading-ms"]), status
        page.screenshot(artifacts / "reader-loading.png")
    finally:
        host.signal_all(signal.SIGCONT)
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    assert "added by the page's own script" in page.evaluate(f"{CONTENT}.textContent")
    assert page.evaluate("document.getElementById('loading').hidden")
    page.screenshot(artifacts / "reader-ready.png")

    # Back: the page as it was, without the loading state drawn over it (even when the
    # browser keeps the page in its back-forward cache).
    page.evaluate("document.getElementById('back').click(), true")
    page.wait_for("location.href.startsWith('http://127.0.0.1') && document.readyState === 'complete'"
                  " && !!document.getElementById('counter')")
    assert page.evaluate(f"!{UI}?.querySelector('.cover')")
    assert page.evaluate("document.getElementById('counter').checkVisibility()")
    page.screenshot(artifacts / "page-after-back.png")


def test_reader_view_of_a_real_dev_page(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    gold = (PAGES / "dev" / "zh-cwce-d02c66a2.gold.txt").read_text(encoding="utf-8")
    paragraphs = [p.strip() for p in gold.split("\n") if len(p.strip()) >= 30]
    page = browser.new_tab(site.url("dev/zh-cwce-d02c66a2.html"))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    text = page.evaluate("document.getElementById('content').textContent")
    text = re.sub(r"\s+", "", text)
    found = [p for p in paragraphs if re.sub(r"\s+", "", p)[:15] in text]
    assert len(found) >= 0.8 * len(paragraphs), (len(found), len(paragraphs))
    assert len(text) < 2 * len(re.sub(r"\s+", "", gold))  # main text, not the whole page
    # Chinese is measured in characters: a run of them is not one word
    details = page.evaluate("document.getElementById('details').textContent")
    assert re.search(r"\d+ min read · [\d,]+ characters$", details), details
    page.screenshot(artifacts / "reader-dev-page.png")


def test_host_missing_shows_install_command(browser_name: str, tmp_path: Path, host: harness.HostInstall,
                                            site: harness.Site, artifacts: Path) -> None:
    with harness.launch(browser_name, tmp_path, host, register_host=False,
                        launchpad=site.url("blank.html", host="localhost")) as browser:
        page = browser.new_tab(site.url("article.html"))
        status = browser.act(page, "hide")
        assert status["status"] == "error", status
        assert status["error-code"] == "host_missing"
        toast = page.evaluate(f"(() => {{ const t = {UI}.querySelector('.toast');"
                              " return {text: t.textContent, visible: t.checkVisibility()}; })()")
        assert toast["visible"] and INSTALL_COMMAND in toast["text"] and "not installed" in toast["text"]
        # Debian's and Homebrew's Python refuse a bare pip install outside a virtual environment
        assert "pip install" not in toast["text"]
        # an error stays until dismissed, past the few seconds an info toast lasts
        assert page.evaluate(f"new Promise(done => setTimeout(() => done({UI}?.querySelector('.toast')"
                             "?.checkVisibility() ?? false), 7000))")
        page.screenshot(artifacts / "host-missing-page.png")
        popup = browser.popup(page.url)
        popup.wait_for("document.documentElement.dataset.blocksiftHost")
        assert popup.evaluate("document.documentElement.dataset.blocksiftHost") == "host_missing"
        status_text = popup.evaluate("document.getElementById('host-status').textContent")
        assert INSTALL_COMMAND in status_text and "virtual environment" in status_text
        assert "pip install" not in status_text
        popup.screenshot(artifacts / "host-missing-popup.png")
        popup.close()
        assert host.pids() == []

        # Installing the host fixes it without restarting the browser.
        browser.register_host()
        status = browser.act(page, "hide")
        assert status["status"] == "hidden", status
        assert page.evaluate(f"{UI}?.querySelectorAll('.toast').length ?? 0") == 0


def test_a_host_that_cannot_start_names_the_doctor(browser_name: str, tmp_path: Path,
                                                   site: harness.Site, artifacts: Path) -> None:
    """A registered launcher that cannot run (not executable: a copy that lost its mode):
    the browser says only "Error when communicating with the native messaging host." or "An
    unexpected error occurred". It said the host "restarts on the next request", which it
    never would; now it says the host went before answering and names the doctor."""
    broken = harness.HostInstall(tmp_path / "host")
    broken.launcher.chmod(0o644)
    with harness.launch(browser_name, tmp_path / "browser", broken,
                        launchpad=site.url("blank.html", host="localhost")) as browser:
        page = browser.new_tab(site.url("article.html"))
        status = browser.act(page, "hide")
        assert status["status"] == "error" and status["error-code"] == "host_closed", status
        assert "stopped before it answered" in status["error"], status
        assert "restarts on the next request" not in status["error"], status
        toast = page.evaluate(f"{UI}.querySelector('.toast').textContent")
        assert "blocksift doctor" in toast, toast
        popup = browser.popup(page.url)
        popup.wait_for("document.documentElement.dataset.blocksiftHost")
        status_text = popup.evaluate("document.getElementById('host-status').textContent")
        assert "blocksift doctor" in status_text and "virtual environment" in status_text
        popup.screenshot(artifacts / "host-cannot-start-popup.png")
        popup.close()

        # Mended (the doctor's fix), the next request starts it without a browser restart.
        broken.launcher.chmod(0o755)
        assert browser.act(page, "hide")["status"] == "hidden"


def test_host_killed_mid_request_then_recovers(browser: harness.Browser, site: harness.Site,
                                                host: harness.HostInstall) -> None:
    page = browser.new_tab(site.url("article.html"))
    assert browser.act(page, "hide")["status"] == "hidden"
    assert browser.act(page, "hide")["status"] == "restored"
    first = host.live_pids()
    assert len(first) == 1

    # Freeze the host, send a request, kill the host while the request is with it.
    host.signal_all(signal.SIGSTOP)
    before = int(page.evaluate("+document.documentElement.dataset.blocksiftSeq"))
    browser.act(page, "hide", wait=False)
    page.wait_for("document.documentElement.dataset.blocksiftStage === 'host'")
    host.signal_all(signal.SIGKILL)
    page.wait_for(f"+document.documentElement.dataset.blocksiftSeq > {before}")
    status = page.status()
    assert status["status"] == "error", status
    assert status["error-code"] == "host_closed"
    assert "restarts on the next request" in status["error"]

    # The next request starts a new host.
    status = browser.act(page, "hide")
    assert status["status"] == "hidden", status
    assert len(host.pids()) == 2 and host.live_pids() != first


def test_service_worker_stopped_then_next_request_recovers(browser: harness.Browser, site: harness.Site,
                                                           host: harness.HostInstall) -> None:
    if not isinstance(browser, harness.ChromiumBrowser):
        pytest.skip("only Chromium lets a test stop the extension's service worker (CDP); "
                    "Firefox runs the background as an event page")
    page = browser.new_tab(site.url("article.html"))
    assert browser.act(page, "overlay")["status"] == "overlay"
    stats = browser.storage("local", "stats")["stats"]
    browser.stop_service_worker()
    # The host sees its stdin close when the worker's port goes away and exits.
    _wait(lambda: host.live_pids() == [], "the host to exit after the worker stopped")
    status = browser.act(page, "hide")
    assert status["status"] == "hidden", status
    after = browser.storage("local", "stats")["stats"]
    assert after["backgroundStartCount"] > stats["backgroundStartCount"]
    assert after["hostConnectCount"] > stats["hostConnectCount"]
    assert len(host.pids()) == 2


def test_reply_over_1mb_arrives_in_chunks(browser: harness.Browser, site: harness.Site) -> None:
    page = browser.new_tab(site.url("long-article.html"))
    status = browser.act(page, "reader", timeout=180)
    assert status["status"] == "ready", status
    size = page.evaluate("document.getElementById('content').textContent.length")
    assert size > 1_048_576  # one reply frame is capped at 1 MiB: this came in chunks
    assert "The end of the very long article." in page.evaluate(
        "document.getElementById('content').lastElementChild.textContent")
    stats = browser.storage("local", "stats")["stats"]
    assert stats.get("hostDisconnectCount", 0) == 0  # the port was never closed for size


def test_five_megabyte_page(browser: harness.Browser, site: harness.Site) -> None:
    page = browser.new_tab(site.url("big.html"))
    status = browser.act(page, "hide", timeout=180)
    assert int(status["bytes"]) >= 5 * 1024 * 1024
    if status.get("restraint"):
        # Five megabytes of look-alike sections leave the segmenter unsure of much of the
        # page far down, or read as a collection page; either way the host keeps to ads,
        # banners and the page's own header and footer (this page has its footer only), says
        # why, and leaves the rest: its nav stays.
        assert status["status"] == "hidden" and int(status["count"]) == 1, status
        assert "unsure" in status["restraint"] or "collection page" in status["restraint"], \
            status
        assert page.evaluate("document.querySelector('#nav a').checkVisibility()") is True
        assert page.evaluate("document.querySelector('#footer a').checkVisibility()") is False
        return
    assert status["status"] == "hidden", status
    # The page's nav and footer go; the related lists lie inside the main content (<main>
    # holds every section), which hide never touches.
    assert int(status["count"]) >= 2
    assert page.evaluate("document.querySelector('#nav a').checkVisibility()") is False
    assert page.evaluate("document.querySelector('#footer a').checkVisibility()") is False
    assert page.evaluate("document.querySelector('#s10 p').checkVisibility()") is True


# MathML is kept for formulas (content.py, reader.js), but never its mXSS vectors (mglyph, style).
FORBIDDEN = ("script, iframe, object, embed, svg, mglyph, malignmark, form, style, template, textarea,"
             " noscript, base, meta, link, video, audio, source")
DOM_CHECK = (
    "(() => { const c = document.getElementById('content'); const bad = [];"
    f" for (const e of c.querySelectorAll({json.dumps(FORBIDDEN)})) bad.push(e.localName);"
    " for (const e of c.querySelectorAll('*')) for (const a of e.attributes) {"
    "   if (a.name.startsWith('on') || a.name === 'style' || a.name === 'srcdoc') bad.push(e.localName + '@' + a.name);"
    "   if (['href', 'src', 'action', 'data', 'formaction'].includes(a.name) && !/^(https?:|mailto:)/i.test(a.value)) bad.push(e.localName + '@' + a.name + '=' + a.value); }"
    " return bad; })()")
INTERACT = (
    "(() => { const c = document.getElementById('content');"
    " for (const e of c.querySelectorAll('p, div, span, img, details, summary')) e.click();"
    " for (const e of c.querySelectorAll('*')) e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
    " return true; })()")


def _extension_hits(site: harness.Site) -> list[dict[str, str]]:
    return [h for h in site.hits if "extension" in h["query"]]


def _flush_beacons(site: harness.Site, tab: harness.Tab, tag: str) -> None:
    """A last beacon from the reader view; once it arrives, earlier ones would have too."""
    tab.evaluate(f"(new Image().src = {json.dumps(site.url('__hit'))} + '?p=flush-{tag}', true)")
    _wait(lambda: any(f"p=flush-{tag}" in h["query"] for h in site.hits), "the flush beacon")


def test_reader_view_runs_nothing_from_an_xss_page(browser: harness.Browser, site: harness.Site,
                                                   artifacts: Path) -> None:
    page = browser.new_tab(site.url("xss.html"))
    # The payloads are live: on the page itself, its own script runs (as it should).
    _wait(lambda: any("p=1&ctx=http" in h["query"] for h in site.hits), "the page's own script")
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    assert "The last honest paragraph" in page.evaluate("document.getElementById('content').textContent")
    assert page.evaluate(DOM_CHECK) == []
    page.evaluate(INTERACT)
    _flush_beacons(site, page, browser.name)
    assert [h for h in _extension_hits(site) if "flush" not in h["query"]] == []
    assert page.evaluate("document.documentElement.dataset.blocksiftCspViolations || '0'") == "0"
    page.screenshot(artifacts / "reader-xss.png")


def test_reader_view_sanitizes_raw_payloads_itself(browser: harness.Browser, site: harness.Site) -> None:
    """Second layer: HTML that never went through the host's sanitizer (a host bug)."""
    from e2e_pages import xss_page

    raw = xss_page(site.url("__hit")).split("<article id='article'>", 1)[1].split("</article>")[0]
    raw += "<p><a href='relative/page.html' id='rel'>relative</a></p>"
    tab = browser.new_tab(browser.ext_url("options.html"))
    tab.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    payload = {"url": site.url("xss.html"), "title": "Raw", "lang": "en", "algorithm": "test",
               "html": raw, "text": "", "startedAt": 0}
    tab.evaluate(f"(globalThis.browser ?? chrome).storage.session.set({{'reader:raw': {json.dumps(payload)}}})")
    tab.navigate(browser.ext_url("reader.html#reader%3Araw"))
    tab.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    assert tab.evaluate(DOM_CHECK) == []
    assert tab.evaluate("document.querySelector('#content a[href$=\"relative/page.html\"]').href") == site.url("relative/page.html")
    assert "The last honest paragraph" in tab.evaluate("document.getElementById('content').textContent")
    tab.evaluate(INTERACT)
    _flush_beacons(site, tab, browser.name + "-raw")
    assert [h for h in _extension_hits(site) if "flush" not in h["query"]] == []


def _wait(predicate, what: str, timeout: float = 30.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.02)


def test_site_rule_runs_on_load_and_reverts_from_options(browser: harness.Browser, site: harness.Site,
                                                         host: harness.HostInstall, artifacts: Path) -> None:
    page = browser.new_tab(site.url("article.html"))
    popup = browser.popup(page.url)
    popup.wait_for("document.documentElement.dataset.blocksiftHost")
    popup.evaluate("document.getElementById('always').click(), true")
    popup.wait_for("document.getElementById('result').textContent.includes('by itself')")
    assert popup.evaluate("document.documentElement.dataset.blocksiftHost") == "ok"
    popup.screenshot(artifacts / "popup-rule-set.png")
    popup.close()

    # The next load of a page of the site hides its link blocks without a click.
    page.navigate(site.url("article.html"))
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'hidden'")
    assert page.evaluate("document.querySelectorAll('[data-blocksift-hide]').length") > 0
    # Saving a rule is not a transport change: the same host process still serves.
    assert len(host.pids()) == 1
    assert browser.storage("local", "stats")["stats"].get("hostDisconnectCount", 0) == 0

    options = browser.new_tab(browser.ext_url("options.html"))
    row = "document.querySelector('#rules tr[data-site=\"127.0.0.1\"]')"
    options.wait_for(f"!!{row}")
    # Editable: switch the rule to the reader view.
    options.evaluate(f"(() => {{ const s = {row}.querySelector('select'); s.value = 'reader';"
                     " s.dispatchEvent(new Event('change')); return true; })()")
    options.wait_for(f"{row}?.querySelector('select').value === 'reader'")
    _wait(lambda: browser.storage("local", "settings")["settings"]["rules"][0]["action"] == "reader",
          "the edited rule to be saved")
    options.screenshot(artifacts / "options.png")
    # One-click revert.
    options.evaluate(f"{row}.querySelector('.revert').click(), true")
    options.wait_for("!document.querySelector('#rules tr[data-site]')")
    assert browser.storage("local", "settings")["settings"]["rules"] == []
    options.close()

    page.navigate(site.url("article.html"))
    status = browser.act(page, "overlay")
    assert status["status"] == "overlay" and status["seq"] == "1"  # no rule ran before the click
    assert page.evaluate("document.querySelectorAll('[data-blocksift-hide]').length") == 0

def test_the_snapshot_keeps_the_pages_json_ld(browser: harness.Browser, site: harness.Site) -> None:
    # The page names its author and date only in JSON-LD, which the host reads from a fetched
    # page (the byline, and the page type the segmenter predicts): the snapshot keeps it.
    page = browser.new_tab(site.url("ld-post.html"))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    assert page.evaluate("document.getElementById('byline').textContent") == "By Ada Quill"
    assert page.evaluate("document.querySelector('#details time')?.dateTime") == "2024-05-02"
    assert "patient hands" in page.evaluate(f"{CONTENT}.textContent")



def test_reader_view_of_a_page_without_main_text_says_so(browser: harness.Browser, site: harness.Site,
                                                         artifacts: Path) -> None:
    warm = browser.new_tab(site.url("article.html"))
    assert browser.act(warm, "overlay")["status"] == "overlay"  # the host is up: the reader opens at once
    page = browser.new_tab(site.url("links-only.html"))
    status = browser.act(page, "reader")
    assert status["status"] == "not-suitable", status
    on_reader = page.url.startswith(browser.extension_origin)
    if on_reader:
        assert page.evaluate("document.getElementById('notice').checkVisibility()")
        assert page.evaluate("document.querySelector('#notice .message').textContent") == status["error"]
        page.screenshot(artifacts / "reader-notice.png")
        page.evaluate("document.getElementById('back').click(), true")
        page.wait_for("location.href.startsWith('http://127.0.0.1') && document.readyState === 'complete'")
    else:  # the host was not ready yet: the page itself says it
        assert page.evaluate(f"{UI}.querySelector('.toast').checkVisibility()")
    assert page.evaluate("document.title") == "Only links"


def test_an_info_toast_goes_by_itself_and_takes_our_element_with_it(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """"Nothing to hide" is news, not a fault: it leaves after a few seconds, and with it the
    <blocksift-ui> element, so the page's DOM is as it was (an error stays until dismissed:
    test_host_missing_shows_install_command)."""
    page = browser.new_tab(site.url("plain-note.html"))
    dom_before = page.evaluate(PAGE_DOM)
    status = browser.act(page, "hide")
    assert status["status"] == "not-suitable", status
    assert page.evaluate(f"{UI}.querySelector('.toast.info').checkVisibility()")
    page.screenshot(artifacts / "info-toast.png")
    page.wait_for("!document.querySelector('blocksift-ui')", timeout=15)
    assert page.evaluate(PAGE_DOM) == dom_before


def test_a_page_its_own_script_emptied_gets_a_reason_and_the_next_page_still_works(
        browser: harness.Browser, site: harness.Site) -> None:
    page = browser.new_tab(site.url("emptied.html"))
    page.wait_for("document.documentElement === null")
    for action in ("hide", "reader"):
        popup = browser.popup(page.url)
        popup.evaluate(f"document.getElementById('act-{action}').click(), true")
        popup.wait_for("document.getElementById('result').dataset.status === 'error'")
        said = popup.evaluate("document.getElementById('result').textContent")
        # the page's reason in words, not a script error, nor the browser-pages notice
        assert "no document left to read" in said, said
        assert "destructure" not in said and "off limits" not in said, said
        popup.close()
    other = browser.new_tab(site.url("article.html"))
    assert browser.act(other, "hide")["status"] == "hidden"


def _set_option(tab: harness.Tab, element_id: str, value: str) -> None:
    tab.evaluate(f"(() => {{ const e = document.getElementById({json.dumps(element_id)});"
                 f" e.value = {json.dumps(value)}; e.dispatchEvent(new Event('change')); return true; }})()")


def test_websocket_transport(browser: harness.Browser, site: harness.Site, host: harness.HostInstall,
                             tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(harness.REPO / "host"), "BLOCKSIFT_HOME": str(tmp_path / "ws-home")}
    token = subprocess.run([sys.executable, "-m", "blocksift", "serve", "--print-token"], env=env,
                           capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    server = subprocess.Popen([sys.executable, "-m", "blocksift", "serve", "--port", "0"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = re.search(r"ws://127\.0\.0\.1:\d+/", server.stdout.readline()).group(0)
        browser.unregister_host()  # only the WebSocket can answer now
        options = browser.new_tab(browser.ext_url("options.html"))
        options.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
        options.evaluate("(() => { const r = document.querySelector('input[name=transport][value=websocket]');"
                         " r.checked = true; r.dispatchEvent(new Event('change')); return true; })()")
        # first an address nothing listens at: the server is not running there, which the
        # doctor (it checks the browsers' registrations) would not tell
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            nobody = f"ws://127.0.0.1:{probe.getsockname()[1]}/"
        _set_option(options, "ws-url", nobody)
        _wait(lambda: browser.storage("local", "settings")["settings"]["transport"].get("wsUrl")
              == nobody, "the unused address to be saved")
        page = browser.new_tab(site.url("article.html"))
        status = browser.act(page, "hide")
        assert status["status"] == "error" and "is not running there" in str(status["error"]), status
        assert "doctor" not in str(status["error"]), status

        _set_option(options, "ws-url", url)
        _set_option(options, "ws-token", "not-the-token")
        _wait(lambda: browser.storage("local", "settings")["settings"]["transport"]
              == {"kind": "websocket", "wsUrl": url, "wsToken": "not-the-token"}, "the transport to be saved")

        status = browser.act(page, "hide")
        assert status["status"] == "error" and "refused the token" in str(status["error"]), status
        assert "doctor" not in str(status["error"]), status

        _set_option(options, "ws-token", token)
        _wait(lambda: browser.storage("local", "settings")["settings"]["transport"]["wsToken"] == token,
              "the token to be saved")
        status = browser.act(page, "hide")
        assert status["status"] == "hidden", status
        assert int(status["count"]) > 0
        assert host.pids() == []  # the native host was never started

        # the server stopped between two requests: the next one finds nothing listening, and
        # says so (nothing restarts a server on the next request, as it would a native host)
        server.terminate()
        server.wait(timeout=30)
        status = browser.act(page, "hide")  # (the page is hidden: this restores it)
        if status["status"] != "error":
            status = browser.act(page, "hide")
        assert status["status"] == "error" and "is not running there" in str(status["error"]), status
    finally:
        server.terminate()
        server.wait(timeout=30)

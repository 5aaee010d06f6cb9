"""Labeling end to end in real Chromium with the real host: "Label this page" from the popup,
real mouse clicks and keys in the labeler, Save, then export from the options page; the
exported record must hold exactly what was selected. Also the excluded-sites refusal.

Waits are on the status the extension writes (``<html data-blocksift-*>``), never sleeps.
Both browsers: real input events come from Playwright's mouse and keyboard (Chromium) and
from WebDriver BiDi ``input.performActions`` (Firefox). The host-side store (crash safety, export/import round
trip, training changes the model) is tested in tests/storage and tests/transport.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import e2e_harness as harness

UI = "document.querySelector('blocksift-ui[data-blocksift-labeler]')?.shadowRoot"
HOVER_TAG = f"{UI}.querySelector('.hover .tag').textContent"


#: WebDriver key codes for the keys the labeler uses (BiDi).
BIDI_KEYS = {"Tab": "\ue004", "Shift": "\ue008", "ArrowUp": "\ue013", "ArrowDown": "\ue015", "ArrowLeft": "\ue012", "ArrowRight": "\ue014", "Control": "\ue009", "Escape": "\ue00c",
             "Enter": "\ue007", "Backspace": "\ue003"}


class Input:
    """Real mouse and keyboard events on a tab, the same way in both browsers."""

    def __init__(self, tab: harness.Tab):
        self.tab = tab
        self.x = 5
        self.y = 5

    def point(self, selector: str, ui: bool = False) -> tuple[int, int]:
        scope = UI if ui else "document"
        rect = self.tab.evaluate(
            f"(e => (e.scrollIntoView({{block: 'center'}}), (r => [r.left + r.width / 2, r.top + r.height / 2])"
            f"(e.getBoundingClientRect())))({scope}.querySelector({json.dumps(selector)}))")
        return int(rect[0]), int(rect[1])

    def _pointer(self, actions: list[dict]) -> None:
        if isinstance(self.tab, harness.ChromiumTab):
            mouse = self.tab.page.mouse
            for action in actions:
                if action["type"] == "pointerMove":
                    mouse.move(action["x"], action["y"])
                elif action["type"] == "pointerDown":
                    mouse.down()
                else:
                    mouse.up()
            return
        self.tab.browser.bidi("input.performActions", {"context": self.tab.context, "actions": [
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": actions}]})

    def move(self, selector: str | None = None, ui: bool = False, at: tuple[int, int] | None = None) -> None:
        self.x, self.y = at if at else self.point(selector, ui) if selector else (self.x, self.y)
        self._pointer([{"type": "pointerMove", "x": self.x, "y": self.y}])

    def click(self, selector: str | None = None, ui: bool = False) -> None:
        """Click an element's centre, or (no selector) where the mouse is."""
        if selector:
            self.move(selector, ui)
        self._pointer([{"type": "pointerMove", "x": self.x, "y": self.y},
                       {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}])

    def press(self, key: str) -> None:
        """A key or a chord like "Control+z"."""
        if isinstance(self.tab, harness.ChromiumTab):
            self.tab.page.keyboard.press(key)
            return
        keys = [BIDI_KEYS.get(k, k) for k in key.split("+")] if key != "+" else ["+"]
        actions = [{"type": "keyDown", "value": k} for k in keys] + [{"type": "keyUp", "value": k} for k in reversed(keys)]
        self.tab.browser.bidi("input.performActions", {"context": self.tab.context, "actions": [
            {"type": "key", "id": "keyboard", "actions": actions}]})


def status(page: harness.Tab) -> dict:
    return page.status()


def start_labeling(browser: harness.Browser, page: harness.Tab) -> dict:
    """Click "Label this page" in the popup; returns the popup's outcome text and status."""
    control = browser.popup(page.url)
    try:
        control.evaluate("document.getElementById('act-label').click(), true")
        control.wait_for("['done','error','refused'].includes(document.documentElement.dataset.blocksiftStatus)",
                         timeout=60)
        return {"status": control.evaluate("document.documentElement.dataset.blocksiftStatus"),
                "text": control.evaluate("document.getElementById('result').textContent")}
    finally:
        page.activate()
        control.close()


def hover(page: harness.Tab, mouse: Input, selector: str) -> str:
    """Move the real mouse over an element; returns the labeler's hover label."""
    mouse.move(selector)
    page.wait_for(f"{HOVER_TAG}.startsWith({json.dumps(describe(page, selector))})")
    return page.evaluate(HOVER_TAG)


def mark_links_as_link_block(page: harness.Tab, keys: Input) -> None:
    """With the keyboard: from a link of the fixture's #links list up to the list, marked a
    link block (L, Enter), as the labeler's counter then says."""
    hover(page, keys, "#links a[href='/l1']")
    keys.press("ArrowUp")
    keys.press("ArrowUp")
    keys.press("l")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")


def describe(page: harness.Tab, selector: str) -> str:
    return page.evaluate(f"(e => e.localName + (e.id ? '#' + e.id : ''))(document.querySelector({json.dumps(selector)}))")


def text_of(page: harness.Tab, selector: str) -> str:
    return page.evaluate(f"document.querySelector({json.dumps(selector)}).textContent.replace(/\\s+/g, ' ').trim()")


def wait_status(page: harness.Tab, *values: str, timeout: float = 60) -> dict:
    page.wait_for(f"{json.dumps(list(values))}.includes(document.documentElement.dataset.blocksiftStatus)",
                  timeout=timeout)
    return status(page)


def test_label_save_export_holds_exactly_the_selection(browser: harness.Browser, site: harness.Site,
                                                       host: harness.HostInstall, artifacts: Path) -> None:
    page = browser.new_tab(site.url("label.html"))
    page.wait_for("!!document.getElementById('frame-cross').contentWindow && document.readyState === 'complete'")
    mouse = Input(page)
    outcome = start_labeling(browser, page)
    assert outcome["status"] == "done", outcome
    state = wait_status(page, "labeling")
    assert int(state["label-main"]) > 0, state
    # The toolbar says which frames cannot be labeled.
    assert state["label-frames"] == "2"
    frames_note = page.evaluate(f"{UI}.querySelector('.frames').textContent")
    assert "2 frames not reachable (1 same-origin, 1 cross-origin)" in frames_note
    assert "cannot be labeled" in frames_note
    # Page CSS cannot reach the toolbar (the page sets 30px red on every button).
    assert page.evaluate(f"getComputedStyle({UI}.querySelector('button[data-action=save]')).fontSize") == "12px"
    page.screenshot(artifacts / "labeler-start.png")

    # The extraction kept the advertisement paragraph and missed the correction note.
    assert hover(page, mouse, "#p2").endswith("in main text")
    assert hover(page, mouse, "#extra").endswith("not selected")
    initial_chars = int(status(page)["label-chars"])

    # Remove the advertisement with a click; add the note with a click.
    hover(page, mouse, "#p2")
    mouse.click()
    assert hover(page, mouse, "#p2").endswith("not selected")
    mouse.click("#extra")
    assert hover(page, mouse, "#extra").endswith("in main text")

    # Undo (Ctrl+Z) restores the last change; the toolbar's Undo button works the same.
    mouse.click("#p3")
    assert hover(page, mouse, "#p3").endswith("not selected")
    mouse.press("Control+z")
    assert hover(page, mouse, "#p3").endswith("in main text")
    mouse.click("#p4")
    mouse.click("button[data-action=undo]", ui=True)
    assert hover(page, mouse, "#p4").endswith("in main text")

    # Link-block mode (L); from a link, ArrowUp moves to its item, then to the list; click marks it.
    mouse.press("l")
    assert status(page)["label-mode"] == "links"
    hover(page, mouse, "#related a[href='/r2']")
    mouse.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('li')")
    mouse.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('ul#related')")
    mouse.press("ArrowDown")  # back down the way it came
    page.wait_for(f"{HOVER_TAG}.startsWith('li')")
    mouse.press("[")  # the other key for "parent"
    page.wait_for(f"{HOVER_TAG}.startsWith('ul#related')")
    title_before = page.evaluate("document.title")
    mouse.click()
    state = status(page)
    assert state["label-links"] == "1", state
    assert page.evaluate("document.title") == title_before  # the click never reached the page
    assert page.evaluate("location.pathname") == "/label.html"  # nor followed the link
    mouse.press("m")
    assert status(page)["label-mode"] == "main"
    assert int(status(page)["label-chars"]) != initial_chars
    mouse.move(at=(5, 5))
    page.screenshot(artifacts / "labeler-edited.png")

    mouse.click("button[data-action=save]", ui=True)
    saved = wait_status(page, "label-saved", "label-error")
    assert saved["status"] == "label-saved", saved
    example_id = saved["label-example"]
    assert page.evaluate(f"!{UI}")  # the toolbar is gone

    # Export from the options page; it shows the path it wrote.
    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    clicks = Input(options)
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
    assert options.evaluate("document.documentElement.dataset.examplesCount") == "1"
    clicks.click(f"tr[data-example-id='{example_id}'] button.link")
    options.wait_for("!!document.querySelector('#example-view .main-text')")
    # The view closes (it stayed open under the list for good).
    clicks.click("#example-view button.close-view")
    options.wait_for("document.getElementById('example-view').hidden")
    assert options.evaluate("document.activeElement.closest('tr')?.dataset.exampleId") == example_id
    clicks.click(f"tr[data-example-id='{example_id}'] button.link")
    options.wait_for("!!document.querySelector('#example-view .main-text')")
    clicks.click("#examples-export")
    options.wait_for("document.documentElement.dataset.exportPath")
    path = Path(options.evaluate("document.documentElement.dataset.exportPath"))
    assert path.is_relative_to(host.home), path  # in the host's data dir, nowhere else
    assert options.evaluate("document.getElementById('examples-export-result').textContent").find(str(path)) >= 0
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "options-examples.png")

    # Train farsw from the example, from the options page; progress shows, then the rules.
    clicks.click("#train")
    options.wait_for("['trained', 'error'].includes(document.documentElement.dataset.trainStatus)", timeout=300)
    train_text = options.evaluate("document.getElementById('train-status').textContent")
    assert options.evaluate("document.documentElement.dataset.trainStatus") == "trained", train_text
    assert "Trained farsw on 1 page" in train_text
    assert int(options.evaluate("document.documentElement.dataset.trainProgress || 0")) >= 1
    assert options.evaluate("document.querySelectorAll('#train-rules li').length") >= 1
    assert options.evaluate("document.getElementById('train-progress').value") == 1
    training = browser.storage("local", "training")["training"]
    assert training["state"] == "trained" and training["pages"] == 1
    assert Path(training["modelPath"]).exists() and Path(training["modelPath"]).is_relative_to(host.home)
    options.screenshot(artifacts / "options-trained.png")

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    assert len(records) == 1
    record = records[0]
    assert record["id"] == f"example-{example_id}"
    assert record["url"] == site.url("label.html")

    # Gold = the extraction's paragraphs, minus the removed one, plus the added one, in order.
    from lxml import html as lxml_html

    tree = lxml_html.fromstring(record["html"])
    snapshot_text = {name: re.sub(r"\s+", " ", tree.get_element_by_id(name).text_content()).strip()
                     for name in ("p1", "p2", "p3", "p4", "extra")}
    for name, text in snapshot_text.items():
        assert text == text_of(page, f"#{name}")  # the snapshot is the live page
    gold_lines = record["gold"].split("\n")
    assert snapshot_text["p2"] not in gold_lines
    assert gold_lines[-1] == snapshot_text["extra"]
    assert [snapshot_text[n] for n in ("p1", "p3", "p4")] == [line for line in gold_lines
                                                              if line in snapshot_text.values()][:3]
    # Nothing else changed: the stored algorithm output's paragraphs, edited the same way.
    item = options.evaluate(f"(globalThis.browser ?? chrome).runtime.sendMessage("
                            f"{{type: 'blocksift/examples', op: 'get', exampleId: {example_id}}})")
    corrected = item["value"]["example"]["algorithmOutput"]
    original = [p for p in corrected["main"]["text"].split("\n\n") if p.strip()]
    assert snapshot_text["p2"] in original and snapshot_text["extra"] not in original
    assert gold_lines == [p for p in original if p != snapshot_text["p2"]] + [snapshot_text["extra"]]
    assert not any("Rock pooling" in line for line in gold_lines)

    # The marked block is exactly the list: its element and everything inside it.
    related = tree.get_element_by_id("related")
    expected_ids = [e.get("data-bsid") for e in related.iter() if isinstance(e.tag, str)]
    assert record["marked_blocks"] == [{"kind": "links", "ids": expected_ids,
                                        "text": re.sub(r"\s+", " ", related.text_content()).strip()}]
    # main_ids hold no element of the removed paragraph or of the marked list.
    p2_ids = {e.get("data-bsid") for e in tree.get_element_by_id("p2").iter()}
    assert not p2_ids & set(record["main_ids"]) and not set(expected_ids) & set(record["main_ids"])
    assert tree.get_element_by_id("extra").get("data-bsid") in record["main_ids"]

    # The saved page adapts auto on its site (a file per host); the delete takes it back.
    site_file = host.home / "data" / "models" / "auto-sites" / "127.0.0.1.json"
    assert json.loads(site_file.read_text())["pages"] == 1

    # Delete from the options page: the list and the host's store are empty again.
    clicks.click(f"tr[data-example-id='{example_id}'] button.delete")
    options.wait_for("document.documentElement.dataset.examplesCount === '0'"
                     " && document.documentElement.dataset.examplesStatus === 'ready'")
    assert not site_file.exists()
    assert options.evaluate("document.getElementById('example-view').hidden")
    assert options.evaluate("!document.getElementById('examples-empty').hidden")


def test_excluded_site_is_refused_before_anything_is_sent(browser: harness.Browser, site: harness.Site,
                                                          artifacts: Path) -> None:
    options = browser.new_tab(browser.ext_url("options.html"))
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
    options.activate()
    options.evaluate("document.getElementById('excluded-sites').value = 'https://127.0.0.1/anything\\nbank.example', true")
    Input(options).click("#excluded-save")
    options.wait_for("document.documentElement.dataset.excludedSaved")
    assert options.evaluate("document.getElementById('excluded-sites').value") == "127.0.0.1\nbank.example"
    assert browser.storage("local", "labeling")["labeling"] == {"excludedSites": ["127.0.0.1", "bank.example"]}

    page = browser.new_tab(site.url("label.html"))
    outcome = start_labeling(browser, page)
    assert outcome["status"] == "refused", outcome
    assert "127.0.0.1 is in your excluded sites" in outcome["text"]
    # Nothing was injected: no status, no labeler, no snapshot taken.
    assert page.evaluate("document.documentElement.getAttributeNames().filter(n => n.startsWith('data-blocksift'))") == []
    assert page.evaluate("!document.querySelector('blocksift-ui')")
    options.navigate(browser.ext_url("options.html"))
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
    assert options.evaluate("document.documentElement.dataset.examplesCount") == "0"


def example_of(browser: harness.Browser, example_id: str) -> dict:
    """The stored example, as the options page gets it from the host."""
    options = browser.new_tab(browser.ext_url("options.html"))
    try:
        options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
        reply = options.evaluate(f"(globalThis.browser ?? chrome).runtime.sendMessage("
                                 f"{{type: 'blocksift/examples', op: 'get', exampleId: {example_id}}})")
        return reply["value"]["example"]
    finally:
        options.close()


def test_the_toolbar_counts_the_text_save_stores(browser: harness.Browser, site: harness.Site,
                                                 artifacts: Path) -> None:
    """An article with ad code in a <script>: the toolbar's characters are the stored main
    text's, and a marked block's text holds no script. Also where the snapshot sets apart
    what the page shows apart (a span laid out as a block, between words: a space on each
    side), a paragraph starts with a U+FEFF, which the host keeps, and ends with an emoji,
    one character to the host and two UTF-16 units to JavaScript."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    mouse = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    # The whole article is main text (whatever the extraction took).
    hover(page, mouse, "#k1")
    mouse.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('article#story')")
    if not page.evaluate(HOVER_TAG).endswith("in main text"):
        mouse.press("Enter")
        page.wait_for(f"{HOVER_TAG}.endswith('in main text')")
    # The list of links (with a tracker script in it) is a link block.
    hover(page, mouse, "#links a[href='/l2']")
    mouse.press("ArrowUp")
    mouse.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('ul#links')")
    mouse.press("l")
    mouse.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
    shown = int(status(page)["label-chars"])
    toolbar = page.evaluate(f"{UI}.querySelector('.counts').textContent")
    assert f"{shown} characters" in toolbar
    page.screenshot(artifacts / "labeler-counts.png")
    mouse.press("Control+s")
    saved = wait_status(page, "label-saved", "label-error")
    assert saved["status"] == "label-saved", saved
    example = example_of(browser, saved["label-example"])
    assert "google_ad_client" not in example["mainText"]
    assert int(saved["label-chars"]) == len(example["mainText"]) == shown, (shown, example["mainText"])
    assert [block["text"] for block in example["blocks"]] == [
        "Hives for beginners Which flowers bees like best Swarms and what to do about them"]


def test_labeling_with_the_keyboard_only(browser: harness.Browser, site: harness.Site,
                                         artifacts: Path) -> None:
    """No mouse at all: the arrow keys start at the main text, move up, down and beside;
    Enter toggles, L marks, Ctrl+Z undoes, Ctrl+S saves, Esc leaves."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    assert not page.evaluate(f"{HOVER_TAG}")  # nothing highlighted yet

    def at(prefix: str) -> str:
        page.wait_for(f"{HOVER_TAG}.startsWith({json.dumps(prefix)})")
        return page.evaluate(HOVER_TAG)

    keys.press("ArrowDown")  # starts at the first main-text element
    assert at("").endswith("in main text")
    keys.press("ArrowUp")
    if not at("article#story").endswith("in main text"):
        keys.press("Enter")
        page.wait_for(f"{HOVER_TAG}.endsWith('in main text')")
    keys.press("ArrowDown")
    at("h1#k-title")
    keys.press("ArrowRight")
    at("p#k1")
    keys.press("ArrowRight")  # past the article's <script>
    at("p#k2")
    keys.press("ArrowLeft")
    at("p#k1")
    for _ in range(3):
        keys.press("ArrowRight")
    at("p#k4")
    keys.press("ArrowRight")  # the last one: the highlight stays
    keys.press("Enter")
    assert at("p#k4").endswith("not selected")
    keys.press("ArrowUp")
    at("article#story")
    keys.press("ArrowRight")
    at("ul#links")
    keys.press("l")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
    keys.press("Control+z")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '0'")
    # it says what it undid (it said "Undone." whatever it was), and what is left to undo
    said = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert said.startswith("Undone: marked ul#links as a link block. ") and "more step" in said, said
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
    # The highlight names the block as its outline and the toolbar do.
    assert at("ul#links") == "ul#links · link block"
    page.screenshot(artifacts / "labeler-keys.png")
    keys.press("Control+s")
    saved = wait_status(page, "label-saved", "label-error")
    assert saved["status"] == "label-saved", saved
    example = example_of(browser, saved["label-example"])
    assert text_of(page, "#k2") in example["mainText"].split("\n")
    assert text_of(page, "#k4") not in example["mainText"]
    assert [block["kind"] for block in example["blocks"]] == ["links"]

    # Esc leaves without storing anything.
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    keys.press("ArrowDown")
    keys.press("Escape")
    assert wait_status(page, "label-cancelled")["status"] == "label-cancelled"
    assert page.evaluate(f"!{UI}")


def test_a_deleted_example_comes_back_with_undo(browser: harness.Browser, site: harness.Site,
                                                host: harness.HostInstall, artifacts: Path) -> None:
    """Delete on the options page says what went and offers Undo, which stores the example
    again: the same text, blocks and site adaptation as before the delete."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    mark_links_as_link_block(page, keys)
    keys.press("Control+s")
    saved = wait_status(page, "label-saved", "label-error")
    assert saved["status"] == "label-saved", saved
    before = example_of(browser, saved["label-example"])
    site_file = host.home / "data" / "models" / "auto-sites" / "127.0.0.1.json"
    assert json.loads(site_file.read_text())["pages"] == 1

    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    clicks = Input(options)
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
    row = f"tr[data-example-id='{saved['label-example']}']"
    dated = options.evaluate(f"document.querySelector(\"{row}\").cells[2].textContent")
    clicks.click(f"{row} button.delete")
    options.wait_for("document.documentElement.dataset.examplesCount === '0'"
                     " && document.documentElement.dataset.examplesStatus === 'ready'")
    assert not site_file.exists()
    message = options.evaluate("document.getElementById('examples-deleted').textContent")
    assert "Deleted “Keeping bees on a city roof”" in message, message
    options.screenshot(artifacts / "options-deleted.png")

    clicks.click("#examples-undo")
    options.wait_for("document.documentElement.dataset.examplesRestored")
    options.wait_for("document.documentElement.dataset.examplesCount === '1'"
                     " && document.documentElement.dataset.examplesStatus === 'ready'")
    restored_id = options.evaluate("document.documentElement.dataset.examplesRestored")
    assert "Restored “Keeping bees on a city roof”" in options.evaluate(
        "document.getElementById('examples-deleted').textContent")
    options.screenshot(artifacts / "options-restored.png")
    # back as it was: its number and the date it was saved (Undo used to give it new ones)
    assert restored_id == saved["label-example"]
    assert options.evaluate(f"document.querySelector(\"{row}\").cells[2].textContent") == dated
    after = example_of(browser, restored_id)
    assert after["created"] == before["created"]
    for key in ("url", "title", "html", "mainText", "mainIdList", "blocks", "algorithm", "algorithmOutput"):
        assert after[key] == before[key], key
    assert json.loads(site_file.read_text())["pages"] == 1


AGENT_UI = "document.querySelector('blocksift-ui')?.shadowRoot"  # toasts live here


def test_labeling_a_page_again_replaces_the_earlier_label(browser: harness.Browser, site: harness.Site,
                                                          host: harness.HostInstall, artifacts: Path) -> None:
    """A correction of one's own label: the page's second save replaces the first (one entry,
    one page counted in the site's adaptation), the page says so, and the options page can
    put the earlier label back."""
    site_file = host.home / "data" / "models" / "auto-sites" / "127.0.0.1.json"
    page = browser.new_tab(site.url("label-keys.html") + "#first-visit")
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    keys.press("Control+s")  # what auto found, as it was
    first = wait_status(page, "label-saved", "label-error")
    assert first["status"] == "label-saved" and "label-replaced" not in first, first
    before = example_of(browser, first["label-example"])
    assert before["url"].endswith("label-keys.html#first-visit"), before["url"]
    assert json.loads(site_file.read_text())["pages"] == 1

    page.navigate(site.url("label-keys.html"))  # the same page, without the fragment
    page.wait_for("document.readyState === 'complete'")
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    mark_links_as_link_block(page, keys)  # the correction: the links are a link block
    keys.press("Control+s")
    second = wait_status(page, "label-saved", "label-error")
    assert second["status"] == "label-saved", second
    assert second["label-replaced"] == first["label-example"], second
    toast = page.evaluate(f"{AGENT_UI}.querySelector('.toast').textContent")
    assert "Saved — replaced your earlier label of this page" in toast, toast
    assert f"(example {first['label-example']})" in toast and "Restore earlier label" in toast
    page.screenshot(artifacts / "label-replaced-toast.png")
    site_prior = json.loads(site_file.read_text())
    assert site_prior["pages"] == 1  # the old label's counts went out, the new one's came in

    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    clicks = Input(options)
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
    assert options.evaluate("document.documentElement.dataset.examplesCount") == "1"
    row = f"tr[data-example-id='{second['label-example']}']"
    assert options.evaluate(f"document.querySelector(\"{row}\").dataset.replaces") == first["label-example"]
    assert "Replaced your earlier label of this page" in options.evaluate(
        f"document.querySelector(\"{row}\").textContent")
    options.evaluate("document.getElementById('examples-table').scrollIntoView(), true")
    options.screenshot(artifacts / "options-replaced.png")

    clicks.click(f"{row} button.restore-earlier")
    options.wait_for("document.documentElement.dataset.examplesRestored")
    options.wait_for("document.documentElement.dataset.examplesCount === '1'"
                     " && document.documentElement.dataset.examplesStatus === 'ready'")
    restored_id = options.evaluate("document.documentElement.dataset.examplesRestored")
    assert "Restored your earlier label of “Keeping bees on a city roof”" in options.evaluate(
        "document.getElementById('examples-deleted').textContent")
    # the restored row can swap back to the correction the same way
    assert options.evaluate(f"document.querySelector(\"tr[data-example-id='{restored_id}']\").dataset.replaces") \
        == second["label-example"]
    options.evaluate("document.getElementById('examples-table').scrollIntoView(), true")
    options.screenshot(artifacts / "options-restored-earlier.png")
    after = example_of(browser, restored_id)
    for key in ("url", "title", "html", "mainText", "mainIdList", "blocks", "algorithm", "algorithmOutput"):
        assert after[key] == before[key], key
    assert json.loads(site_file.read_text())["pages"] == 1


def _select_article(page: harness.Tab, keys: Input) -> None:
    """The whole article#story of label-keys.html as main text, from the keyboard."""
    hover(page, keys, "#k1")
    keys.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('article#story')")
    if not page.evaluate(HOVER_TAG).endswith("· in main text"):
        keys.press("Enter")
        page.wait_for(f"{HOVER_TAG}.endsWith('· in main text')")


def test_what_the_page_adds_after_the_snapshot_leaves_the_selection_as_it_was(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A page's script adds an element to the selected article while the labeler is open (an
    ad slot filled in late): the article stays main text, its text is counted and stored
    without the addition; a partly selected article says so."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    _select_article(page, keys)

    # One paragraph out: the article is neither in nor out.
    hover(page, keys, "#k4")
    keys.click()
    page.wait_for(f"{HOVER_TAG}.endsWith('#k4 · not selected')")
    keys.move(at=(2, 2))
    hover(page, keys, "#k1")
    keys.press("ArrowUp")
    assert page.evaluate(HOVER_TAG) == "article#story · partly in main text"
    keys.press("Enter")
    page.wait_for(f"{HOVER_TAG} === 'article#story · in main text'")
    chars = status(page)["label-chars"]

    page.evaluate("(document.getElementById('story').append(Object.assign(document.createElement('div'),"
                  " {id: 'late', textContent: 'Sponsored: the mattress that bees love'})), true)")
    keys.move(at=(2, 2))
    hover(page, keys, "#k1")
    keys.press("ArrowUp")
    assert page.evaluate(HOVER_TAG) == "article#story · in main text"
    keys.press("m")  # redraws and counts again
    assert status(page)["label-chars"] == chars
    # The addition cannot be labeled: it is not in the snapshot the host stores.
    keys.move(at=(2, 2))
    keys.click("#late")
    assert page.evaluate(HOVER_TAG) == "div#late · added since labeling started: cannot be labeled"
    assert "the page added it after labeling started" in page.evaluate(f"{UI}.querySelector('.message').textContent")
    page.screenshot(artifacts / "labeler-page-changed.png")

    keys.press("Control+s")
    saved = wait_status(page, "label-saved", "label-error")
    assert saved["status"] == "label-saved", saved
    assert saved["label-chars"] == chars
    example = example_of(browser, saved["label-example"])
    from lxml import html as lxml_html

    article_id = lxml_html.fromstring(example["html"]).get_element_by_id("story").get("data-bsid")
    assert article_id in [str(i) for i in example["mainIdList"]]
    assert "mattress" not in example["mainText"] and text_of(page, "#k4") in example["mainText"]


def test_the_toolbar_keeps_its_corner_and_a_second_start_keeps_the_marks(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """Highlighting an element under both bottom corners leaves the toolbar where it is (it
    jumped from side to side at every redraw); pressing "Label this page" again while
    labeling keeps the marks made so far instead of starting over without a word."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    page.set_viewport(700, 420)
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    keys.press("ArrowDown")
    for _ in range(4):
        if page.evaluate(HOVER_TAG).startswith("article#story"):
            break
        keys.press("ArrowUp")
    assert page.evaluate(HOVER_TAG).startswith("article#story")
    corners = []
    for _ in range(4):  # a redraw per resize event (the scroll and a click redraw the same way)
        page.evaluate("(dispatchEvent(new Event('resize')),"
                      " new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))")
        corners.append(page.evaluate(f"{UI}.querySelector('.toolbar').classList.contains('left')"))
    assert len(set(corners)) == 1, corners
    page.screenshot(artifacts / "labeler-small-window.png")

    keys.press("ArrowDown")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelUndo === '1'")
    marked = status(page)
    outcome = start_labeling(browser, page)
    assert outcome["status"] == "done" and "your marks are kept" in outcome["text"], outcome
    again = wait_status(page, "labeling")
    assert again["label-undo"] == "1" and again["label-chars"] == marked["label-chars"], again
    assert "your marks are kept" in page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert page.evaluate("document.querySelectorAll('blocksift-ui[data-blocksift-labeler]').length") == 1
    keys.press("Control+z")
    page.wait_for("document.documentElement.dataset.blocksiftLabelUndo === '0'")


def test_esc_while_saving_waits_for_the_host(browser: harness.Browser, site: harness.Site,
                                             host: harness.HostInstall, artifacts: Path) -> None:
    """Esc (or Cancel) after Save, while the host has not answered: the example is already
    on its way, so the labeler stays and says so, then reports the save; it said "cancelled"
    of an example that was then stored."""
    import signal

    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    stopped = host.signal_all(signal.SIGSTOP)  # the host hears the save but cannot answer yet
    assert stopped
    try:
        keys.press("Control+s")
        page.wait_for("document.documentElement.dataset.blocksiftStage === 'label-save'")
        keys.press("Escape")
        page.wait_for(f"{UI}.querySelector('.message').textContent.includes('already on its way')")
        assert page.status()["status"] == "working"
        page.screenshot(artifacts / "labeler-esc-while-saving.png")
    finally:
        host.signal_all(signal.SIGCONT)
    saved = wait_status(page, "label-saved", "label-error", "label-cancelled")
    assert saved["status"] == "label-saved", saved
    assert page.evaluate(f"!{UI}")
    assert example_of(browser, saved["label-example"])["title"] == "Keeping bees on a city roof"


def test_a_mark_that_goes_with_another_change_is_named(browser: harness.Browser, site: harness.Site,
                                                       artifacts: Path) -> None:
    """Adding a link of a marked list to the main text unmarks the list (main text and marks
    exclude each other): the toolbar says so, and Ctrl+Z brings the mark back."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    hover(page, keys, "#links a[href='/l2']")
    keys.press("ArrowUp")
    keys.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('ul#links')")
    keys.press("l")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
    keys.press("m")
    keys.move(at=(2, 2))
    hover(page, keys, "#links a[href='/l2']")
    keys.click()
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '0'")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert "Added a “Which flowers bees like best” to the main text. Unmarked the link block ul#links it overlapped" in message, message
    page.screenshot(artifacts / "labeler-unmarked.png")
    keys.press("Control+z")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")


def test_marking_main_text_as_a_block_says_it_takes_it_out_of_the_main_text(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """Marking a block takes what of it was main text out of the main text (they exclude each
    other): the toolbar says so, and Ctrl+Z puts it back. It went without a word: a part a
    user had added to the main text vanished from it when the list around it was marked
    (wcxb-dev 0520, a search form inside the forum's tabs)."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    _select_article(page, keys)
    chars = int(status(page)["label-chars"])
    hover(page, keys, "#k4")
    assert page.evaluate(HOVER_TAG).endswith("in main text")
    keys.press("a")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelAd === '1'")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert message == "Marked p#k4 as an ad block. It is no longer main text (Ctrl+Z puts it back).", message
    assert int(status(page)["label-chars"]) < chars
    page.screenshot(artifacts / "labeler-took-out.png")
    # the article around it, partly main text now, marked: said too
    keys.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('article#story')")
    keys.press("l")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert message.startswith("Marked article#story as a link block. What of it was main text is no longer"), message
    keys.press("Control+z")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert "took its main text out of the main text" in message, message
    keys.press("Control+z")
    page.wait_for("document.documentElement.dataset.blocksiftLabelAd === '0'")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert message.startswith("Undone: marked p#k4 as an ad block, took it out of the main text."), message
    assert int(status(page)["label-chars"]) == chars


def _leave_prompt(page: harness.Tab, url: str) -> bool:
    """Navigate the tab away; True if the page asked first (the prompt is dismissed: the page stays)."""
    if isinstance(page, harness.ChromiumTab):
        prompts: list[str] = []

        def on_dialog(dialog) -> None:  # noqa: ANN001 (Playwright's Dialog)
            prompts.append(dialog.type)
            dialog.dismiss()

        page.page.on("dialog", on_dialog)
        try:
            page.page.evaluate(f"location.href = {json.dumps(url)}")
            page.page.wait_for_timeout(1000)
        finally:
            page.page.remove_listener("dialog", on_dialog)
        return prompts == ["beforeunload"]
    page.evaluate(f"(setTimeout(() => {{ location.href = {json.dumps(url)}; }}, 0), true)")
    import time

    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            page.browser.bidi("browsingContext.handleUserPrompt", {"context": page.context, "accept": False})
            return True
        except RuntimeError:  # no prompt (yet)
            time.sleep(0.1)
    return False


def test_leaving_with_marks_not_saved_asks_first(browser_name: str, tmp_path: Path, site: harness.Site,
                                                 host: harness.HostInstall, monkeypatch) -> None:  # noqa: ANN001
    """Closing, reloading or leaving the page with marks not saved asks first (they went
    without a word); with nothing changed, or after Save, the page leaves at once."""
    # Firefox under WebDriver turns "Leave page?" off unless the profile says otherwise, and a
    # BiDi session accepts one by itself unless told to leave it to the test.
    prefs = {"extra_prefs": {"dom.disable_beforeunload": False}} if browser_name == "firefox" else {}
    bidi_call = harness.Bidi.__call__

    def leave_prompts(self, method, params=None, timeout=120):  # noqa: ANN001, ANN202
        if method == "session.new":
            params = {"capabilities": {"alwaysMatch": {"unhandledPromptBehavior": {"beforeUnload": "ignore"}}}}
        return bidi_call(self, method, params, timeout)

    monkeypatch.setattr(harness.Bidi, "__call__", leave_prompts)
    with harness.launch(browser_name, tmp_path / "asks", host, launchpad=site.url("blank.html", host="localhost"),
                        **prefs) as browser:
        _leave_with_marks(browser, site)


def _leave_with_marks(browser: harness.Browser, site: harness.Site) -> None:
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    hover(page, keys, "#k4")
    keys.click()
    page.wait_for("document.documentElement.dataset.blocksiftLabelUndo === '1'")
    assert _leave_prompt(page, site.url("plain-note.html"))
    page.wait_for(f"!!{UI}")  # still labeling, the mark still there
    assert page.evaluate("location.pathname") == "/label-keys.html"
    assert status(page)["label-undo"] == "1"
    keys.press("Control+s")
    assert wait_status(page, "label-saved", "label-error")["status"] == "label-saved"
    page.navigate(site.url("plain-note.html"))  # saved: nothing to lose, no question
    assert page.evaluate("location.pathname") == "/plain-note.html"


def test_labeling_takes_the_overlay_away(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """"Show what was found" then "Label this page": the overlay's outlines and legend go (they
    stood under the labeler's, showing the algorithm's choice whatever the user marked), and
    the popup offers to show them again."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    assert browser.act(page, "overlay")["status"] == "overlay"
    overlay = ("[...document.querySelectorAll('blocksift-ui:not([data-blocksift-labeler])')]"
               ".reduce((n, e) => n + e.shadowRoot.querySelectorAll('.box, .legend').length, 0)")
    assert page.evaluate(overlay) > 0
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    assert page.evaluate(overlay) == 0
    page.screenshot(artifacts / "labeler-after-overlay.png")
    control = browser.popup(page.url)
    try:
        assert control.evaluate("document.getElementById('act-overlay').getAttribute('aria-pressed')") == "false"
    finally:
        page.activate()
        control.close()
    Input(page).press("Escape")
    assert wait_status(page, "label-cancelled")["status"] == "label-cancelled"
    assert page.evaluate(overlay) == 0


HIDDEN = "document.querySelectorAll('[data-blocksift-hide]')"


def test_what_hide_hid_can_be_labeled_and_is_hidden_again_after(browser: harness.Browser, site: harness.Site,
                                                                artifacts: Path) -> None:
    """"Hide link blocks", then "Label this page": the labeler shows the page as it is, what
    hide hid too (it could not be pointed at, and it is what most needs marking), and hides
    it again when it closes. Before, the hidden link blocks could not be marked at all."""
    page = browser.new_tab(site.url("hide/news.html"))
    page.wait_for("document.readyState === 'complete'")
    hid = browser.act(page, "hide")
    assert hid["status"] == "hidden", hid
    count = page.evaluate(f"{HIDDEN}.length")
    assert count > 0
    # a link inside what hide hid, found before the labeler starts
    page.evaluate(f"[...{HIDDEN}].flatMap(e => [...e.querySelectorAll('a')])[0]"
                  ".setAttribute('data-e2e-was-hidden', ''), true")
    link = "[data-e2e-was-hidden]"
    assert page.evaluate(f"document.querySelector('{link}').getClientRects().length") == 0
    for attempt in range(2):  # cancelled, then saved: both hide it again
        keys = Input(page)
        assert start_labeling(browser, page)["status"] == "done"
        state = wait_status(page, "labeling")
        assert state["label-unhidden"] == str(count)
        assert page.evaluate(f"{HIDDEN}.length") == 0
        assert page.evaluate(f"document.querySelector('{link}').getClientRects().length") > 0
        note = page.evaluate(f"{UI}.querySelector('.shown-hidden').textContent")
        assert f"Showing the {count} part" in note and "hidden again when you close" in note, note
        keys.move(at=(1, 1))  # the mouse may still be over the link from the first round
        hover(page, keys, link)
        keys.press("l")
        keys.press("Enter")
        page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
        if attempt == 0:
            page.screenshot(artifacts / "labeler-shows-what-hide-hid.png")
            keys.press("Escape")
            assert wait_status(page, "label-cancelled")["status"] == "label-cancelled"
        else:
            keys.press("Control+s")
            saved = wait_status(page, "label-saved", "label-error")
            assert saved["status"] == "label-saved", saved
            block = example_of(browser, saved["label-example"])["blocks"][0]
            assert block["kind"] == "links"
            assert block["text"] == text_of(page, link)
        assert page.evaluate(f"{HIDDEN}.length") == count
        assert page.evaluate(f"document.querySelector('{link}').getClientRects().length") == 0
    page.screenshot(artifacts / "hidden-again-after-labeling.png")
    # "Hide link blocks" pressed while labeling shows the page: closing the labeler leaves it so
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    assert browser.act(page, "hide")["status"] == "restored"
    Input(page).press("Escape")
    assert wait_status(page, "label-cancelled")["status"] == "label-cancelled"
    assert page.evaluate(f"{HIDDEN}.length") == 0
    assert page.evaluate(f"document.querySelector('{link}').getClientRects().length") > 0


def test_hide_pressed_while_labeling_waits_for_the_labeler_to_close(browser: harness.Browser, site: harness.Site,
                                                                    artifacts: Path) -> None:
    """"Hide link blocks" pressed while the labeler is open: the labeler goes on showing the
    page as it is (what hide hides is what most needs marking), says that hide waits for it,
    and hide takes effect when it closes. Before, the parts hide chose vanished under the
    open labeler, their outlines and marks with them, and could no longer be pointed at."""
    page = browser.new_tab(site.url("hide/news.html"))
    page.wait_for("document.readyState === 'complete'")
    # a link in what hide hides, found first (and shown again)
    assert browser.act(page, "hide")["status"] == "hidden"
    count = page.evaluate(f"{HIDDEN}.length")
    page.evaluate(f"[...{HIDDEN}].flatMap(e => [...e.querySelectorAll('a')])[0]"
                  ".setAttribute('data-e2e-was-hidden', ''), true")
    link = "[data-e2e-was-hidden]"
    shown = f"document.querySelector('{link}').getClientRects().length > 0"
    assert browser.act(page, "hide")["status"] == "restored"
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    assert page.evaluate(f"{UI}.querySelector('.shown-hidden').hidden")
    browser.act(page, "hide")
    page.wait_for(f"document.documentElement.dataset.blocksiftLabelUnhidden === '{count}'")
    assert page.evaluate(f"{HIDDEN}.length") == 0
    assert page.evaluate(shown)
    note = page.evaluate(f"{UI}.querySelector('.shown-hidden').textContent")
    assert f"hides {count} part" in note and "when you close" in note, note
    page.screenshot(artifacts / "labeler-hide-pressed-while-labeling.png")
    # what hide chose can still be marked
    keys.move(at=(1, 1))
    hover(page, keys, link)
    keys.press("l")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
    keys.press("Escape")
    assert wait_status(page, "label-cancelled")["status"] == "label-cancelled"
    assert page.evaluate(f"{HIDDEN}.length") == count
    assert not page.evaluate(shown)
    page.screenshot(artifacts / "hidden-after-the-labeler-closed.png")
    # and the popup's toggle shows the page again
    assert browser.act(page, "hide")["status"] == "restored"
    assert page.evaluate(f"{HIDDEN}.length") == 0


def test_marks_the_page_redraws_away_are_named_and_not_saved(browser: harness.Browser, site: harness.Site,
                                                             artifacts: Path) -> None:
    """A script replaces marked parts while the labeler is open (a page redrawing itself):
    the toolbar says how many were lost, their outlines and counts go, and Save stores what
    is still shown. Before, they went without a word (and a lost block was still saved)."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    mark_links_as_link_block(page, keys)
    main = int(status(page)["label-main"])
    assert main >= 1 and page.evaluate("document.getElementById('story').contains(document.getElementById('k1'))")
    # the page's own script draws the story and the list again: new elements, same content
    page.evaluate("['story', 'links'].forEach(id => (e => e.replaceWith(e.cloneNode(true)))"
                  "(document.getElementById(id))), true")
    page.wait_for(f"document.documentElement.dataset.blocksiftLabelLost === '{main + 1}'")
    state = status(page)
    assert (state["label-main"], state["label-links"], state["label-chars"]) == ("0", "0", "0")
    note = page.evaluate(f"{UI}.querySelector('.lost').textContent")
    assert note.startswith(f"{main + 1} marked parts were replaced by the page and lost"), note
    page.screenshot(artifacts / "labeler-lost-marks.png")
    # what is left can be labeled and saved: the footer, not the lost parts
    keys.move(at=(1, 1))
    hover(page, keys, "#foot p")
    keys.press("m")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelMain === '1'")
    keys.press("Control+s")
    saved = wait_status(page, "label-saved", "label-error")
    assert saved["status"] == "label-saved", saved
    example = example_of(browser, saved["label-example"])
    assert example["mainText"] == "Written by the garden desk. Letters welcome."
    assert example["blocks"] == []


def test_undo_of_a_delete_brings_back_the_earlier_label_too(browser: harness.Browser, site: harness.Site,
                                                            host: harness.HostInstall, artifacts: Path) -> None:
    """Deleting a page's example deletes the earlier label it replaced with it; Undo puts
    both back, the newer one replacing the earlier as before (Undo used to bring back the
    newer one only: the earlier label was gone for good)."""
    page = browser.new_tab(site.url("label-keys.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    saved = []
    for _ in range(2):
        assert start_labeling(browser, page)["status"] == "done"
        wait_status(page, "labeling")
        if saved:  # the second label: the links are a link block
            mark_links_as_link_block(page, keys)
        keys.press("Control+s")
        state = wait_status(page, "label-saved", "label-error")
        assert state["status"] == "label-saved", state
        saved.append(state["label-example"])
    first_before = example_of(browser, saved[0])

    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    clicks = Input(options)
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
    clicks.click(f"tr[data-example-id='{saved[1]}'] button.delete")
    options.wait_for("document.documentElement.dataset.examplesCount === '0'"
                     " && document.documentElement.dataset.examplesStatus === 'ready'")
    assert "and the earlier label of its page it had replaced" in options.evaluate(
        "document.getElementById('examples-deleted').textContent")
    clicks.click("#examples-undo")
    options.wait_for("document.documentElement.dataset.examplesRestored")
    options.wait_for("document.documentElement.dataset.examplesCount === '1'"
                     " && document.documentElement.dataset.examplesStatus === 'ready'")
    restored = options.evaluate("document.documentElement.dataset.examplesRestored")
    row = f"tr[data-example-id='{restored}']"
    earlier = options.evaluate(f"document.querySelector(\"{row}\").dataset.replaces")
    assert earlier, "the earlier label is not restorable"
    assert example_of(browser, restored)["blocks"] and not example_of(browser, earlier)["blocks"]
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "options-undo-with-earlier.png")
    clicks.click(f"{row} button.restore-earlier")
    options.wait_for(f"document.documentElement.dataset.examplesRestored !== '{restored}'")
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
    back = options.evaluate("document.documentElement.dataset.examplesRestored")
    assert example_of(browser, back)["mainText"] == first_before["mainText"]
    site_file = host.home / "data" / "models" / "auto-sites" / "127.0.0.1.json"
    assert json.loads(site_file.read_text())["pages"] == 1


def test_the_list_says_when_it_shows_only_the_newest(browser: harness.Browser, host: harness.HostInstall,
                                                     tmp_path: Path) -> None:
    """Over the list's 500 rows, the options page says how many it shows of how many, and
    that Export has them all (the other examples were simply not there)."""
    import os
    import subprocess
    import sys

    pages = tmp_path / "many.jsonl.gz"
    with gzip.open(pages, "wt", encoding="utf-8") as handle:
        for i in range(503):
            handle.write(json.dumps({"id": f"p{i}", "url": f"https://many.example/p{i}.html",
                                     "html": f"<html><body><p>Page {i} of a long series.</p></body></html>",
                                     "gold": f"Page {i} of a long series."}) + "\n")
    env = {**os.environ, "PYTHONPATH": str(harness.REPO / "host"), "BLOCKSIFT_HOME": str(host.home)}
    subprocess.run([sys.executable, "-m", "blocksift", "examples", "import", str(pages)], env=env,
                   check=True, capture_output=True, timeout=600)
    options = browser.new_tab(browser.ext_url("options.html"))
    options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'", timeout=60)
    assert options.evaluate("document.documentElement.dataset.examplesCount") == "503"
    assert options.evaluate("document.querySelectorAll('#examples-table tbody tr').length") == 500
    assert options.evaluate("!!document.getElementById('examples-more')")
    assert not options.evaluate("document.getElementById('examples-more').hidden")
    assert "Showing the newest 500 of 503 examples; Export writes all of them" in options.evaluate(
        "document.getElementById('examples-more').textContent")


def test_messages_name_a_block_by_its_first_words_not_a_generated_id(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """The toolbar names what it marked so a user knows which one: a list whose id and class
    a program made (a UUID, a CSS hash) by its tag and first words, and so a paragraph with no
    id. It showed the generated id in full ("Marked ul#bs-8f3a2c71-4b1e-4d2a-9c3e-1f2a3b4c5d6e.css-1x9k2ab
    as a link block") and a bare tag ("Added p to the main text")."""
    page = browser.new_tab(site.url("label-generated.html"))
    page.wait_for("document.readyState === 'complete'")
    keys = Input(page)
    assert start_labeling(browser, page)["status"] == "done"
    wait_status(page, "labeling")
    hover(page, keys, ".related a[href='/l2']")
    keys.press("ArrowUp")
    keys.press("ArrowUp")
    page.wait_for(f"{HOVER_TAG}.startsWith('ul.related ')")
    keys.press("l")
    keys.press("Enter")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '1'")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    page.screenshot(artifacts / "labeler-first-words.png")
    assert message == "Marked ul.related “Hives for beginners Which flowers bees…” as a link block.", message
    keys.press("Control+z")
    page.wait_for("document.documentElement.dataset.blocksiftLabelLinks === '0'")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert message.startswith("Undone: marked ul.related “Hives for beginners Which flowers bees…” as a link block."), message
    # a paragraph without an id, taken out of the main text (or put in), by its first words
    hover(page, keys, "article p:last-of-type")
    keys.press("m")
    keys.press("Enter")
    message = page.evaluate(f"{UI}.querySelector('.message').textContent")
    assert message in ("Removed p “Share this story with a friend who has a…” from the main text.",
                       "Added p “Share this story with a friend who has a…” to the main text."), message
    assert "bs-8f3a2c71" not in page.evaluate(f"{UI}.querySelector('.message').textContent + {HOVER_TAG}")

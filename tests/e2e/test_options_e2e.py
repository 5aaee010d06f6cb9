"""The options page's Examples section used as a person uses it, in Chromium and Firefox ESR
with the real host: the list, opening an example, deleting and undoing, with the mouse and
with the keyboard alone, in a wide and a narrow window.

Examples are put in the host's database with ``blocksift examples import`` (what labeling
stores is tested in test_labeling.py); waits are on the status the page writes
(``<html data-examples-status>``), never on sleeps.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import e2e_harness as harness
from test_labeling import Input

ROOT = "document.documentElement.dataset"
LONG_TITLE = ("An extraordinarily long headline about the municipal council's decision to reconsider the "
              "winter ferry timetable after months of complaints from commuters and fishermen")
ZH_TITLE = "北方港口的渡轮在冬季继续运行，居民们几乎不谈论别的事情"


def seed(host: harness.HostInstall, tmp_path: Path, titles: list[str], with_ids: bool = True) -> None:
    """Labeled examples of https://ferries.example/<n>.html in the host's database, the first
    title the oldest (so the list shows them last title first). ``with_ids``: with the ids of
    their main text's elements, as an export with marked blocks has them; else the label is
    the text alone (a dataset's page, an export without marked blocks)."""
    pages = tmp_path / "seed.jsonl.gz"
    with gzip.open(pages, "wt", encoding="utf-8") as handle:
        for n, title in enumerate(titles):
            text = f"{title}. The harbour town kept its ferries running through the winter ({n})."
            record = {
                "id": f"p{n}", "url": f"https://ferries.example/{n}.html", "title": title,
                "created": 1_700_000_000 + 60 * n, "gold": text,
                "html": f"<html><head><title>{title}</title></head><body><p data-bsid='3'>{text}</p></body></html>"}
            if with_ids:
                record.update(main_ids=["3"], marked_blocks=[])
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    env = {**os.environ, "PYTHONPATH": str(harness.REPO / "host"), "BLOCKSIFT_HOME": str(host.home)}
    subprocess.run([sys.executable, "-m", "blocksift", "examples", "import", str(pages)], env=env,
                   check=True, capture_output=True, timeout=300)


def open_options(browser: harness.Browser, count: int) -> harness.Tab:
    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    options.wait_for(f"{ROOT}.examplesStatus === 'ready' && {ROOT}.examplesCount === '{count}'", timeout=60)
    return options


def focused(tab: harness.Tab) -> str:
    """What has the keyboard focus: the element's tag and class, in its example's row if any."""
    return tab.evaluate("(e => (e.closest('tr')?.dataset.exampleId ?? '-') + ' ' + e.localName"
                        " + (e.className ? '.' + e.className.split(' ').join('.') : ''))(document.activeElement)")


def test_an_opened_example_comes_into_sight_and_esc_closes_it(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """The view of an example opens under the whole list: with a few rows it was below the
    window's edge, and a click on a title seemed to do nothing. It comes into sight with the
    keyboard's focus in it; Esc closes it and gives the focus back to the title."""
    seed(host, tmp_path, [f"Ferry timetable, part {n}" for n in range(1, 9)] + [LONG_TITLE])
    options = open_options(browser, 9)
    options.set_viewport(1100, 500)
    keys = Input(options)
    first = "#examples-table tbody tr:first-child button.link"
    options.evaluate("document.getElementById('examples-table').scrollIntoView(), true")
    options.evaluate(f"document.querySelector({json.dumps(first)}).focus(), true")
    keys.press("Enter")
    options.wait_for("!!document.querySelector('#example-view .main-text')")
    options.screenshot(artifacts / "example-opened.png")
    top, bottom = options.evaluate("(r => [r.top, r.bottom])(document.querySelector('#example-view h4')"
                                   ".getBoundingClientRect())")
    assert 0 <= top and bottom <= options.evaluate("innerHeight"), (top, bottom)
    assert options.evaluate("document.getElementById('example-view').contains(document.activeElement)"), focused(options)
    keys.press("Escape")
    options.wait_for("document.getElementById('example-view').hidden")
    assert focused(options) == "9 button.link"


def test_the_focus_stays_in_the_list_after_a_delete_and_its_undo(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """Keyboard alone: Delete re-drew the list, and the focus went with the button to the
    page's start (a Tab then went to Refresh at the top); after Undo too. Now it goes to the
    next example's title (the one before when the last went), to Undo when none is left, and
    back to the restored example's title after Undo."""
    seed(host, tmp_path, ["Ferries of the north", ZH_TITLE, LONG_TITLE])
    options = open_options(browser, 3)
    keys = Input(options)
    # the middle one (the Chinese title): the focus goes to the next row's title
    options.evaluate("document.querySelector(\"tr[data-example-id='2'] button.delete\").focus(), true")
    keys.press("Enter")
    options.wait_for(f"{ROOT}.examplesCount === '2' && {ROOT}.examplesStatus === 'ready'")
    assert f"Deleted “{ZH_TITLE}”" in options.evaluate("document.getElementById('examples-deleted').textContent")
    assert focused(options) == "1 button.link"
    options.screenshot(artifacts / "deleted.png")
    # Undo (reached from the message) puts it back at its place, with the focus on its title
    options.evaluate("document.getElementById('examples-undo').focus(), true")
    keys.press("Enter")
    options.wait_for(f"{ROOT}.examplesRestored === '2' && {ROOT}.examplesCount === '3'"
                     f" && {ROOT}.examplesStatus === 'ready'")
    assert options.evaluate("[...document.querySelectorAll('#examples-table tbody tr')]"
                            ".map(r => r.dataset.exampleId)") == ["3", "2", "1"]
    assert focused(options) == "2 button.link"
    # the last row: the focus goes to the row before it
    options.evaluate("document.querySelector(\"tr[data-example-id='1'] button.delete\").focus(), true")
    keys.press("Enter")
    options.wait_for(f"{ROOT}.examplesCount === '2' && {ROOT}.examplesStatus === 'ready'")
    assert focused(options) == "2 button.link"
    # none left: the focus goes to Undo
    for example_id in ("2", "3"):
        options.evaluate(f"document.querySelector(\"tr[data-example-id='{example_id}'] button.delete\").focus(), true")
        keys.press("Enter")
        options.wait_for(f"{ROOT}.examplesDeleted === '{example_id}' && {ROOT}.examplesStatus === 'ready'")
    assert options.evaluate(f"{ROOT}.examplesCount") == "0"
    assert focused(options) == "- button"
    assert options.evaluate("document.activeElement.id") == "examples-undo"
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "empty.png")


def test_the_options_page_fits_a_narrow_window(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """In a window 420 px wide the Examples table and the site rules' table ran past its right
    edge (the page scrolled sideways, each Delete and Revert button cut off), and so did the
    saved articles' folder field and an export's path. Each row of a table now stacks its cells; nothing is wider
    than the window."""
    seed(host, tmp_path, ["Ferries of the north", ZH_TITLE, LONG_TITLE])
    options = open_options(browser, 3)
    options.evaluate("(globalThis.browser ?? chrome).storage.local.set({settings: {rules: [{site: "
                     "'news.example-longname.co.uk', action: 'reader', algorithm: 'linkblocks', "
                     "params: {c_t: 4, d_t: 2}, createdAt: 1}]}}).then(() => true)")
    options.wait_for("!!document.querySelector('#rules tr[data-site] .revert')")
    options.set_viewport(420, 800)
    options.wait_for("innerWidth === 420")
    options.evaluate("document.getElementById('examples-export').click(), true")  # shows a long path
    options.wait_for(f"{ROOT}.exportPath")
    options.evaluate("document.getElementById('examples-table').scrollIntoView(), true")
    options.screenshot(artifacts / "narrow-examples.png")
    options.evaluate("document.getElementById('rules').scrollIntoView(), true")
    options.screenshot(artifacts / "narrow-rules.png")
    assert options.evaluate("document.documentElement.scrollWidth") <= 420
    outside = options.evaluate("[...document.querySelectorAll('main *')].filter(e => e.getClientRects().length"
                               " && e.getBoundingClientRect().right > innerWidth)"
                               ".map(e => e.localName + (e.id ? '#' + e.id : '') + '.' + e.className)")
    assert outside == []
    # every row still says what each number is
    row = options.evaluate("document.querySelector(\"tr[data-example-id='1']\").innerText.replace(/\\s+/g, ' ')")
    assert "87 characters" in row and "0 blocks" in row, row


def test_undo_brings_back_an_example_labeled_by_its_text_alone(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """An example imported from a dataset or from an export without marked blocks has its
    main text and no element ids. Undo of its delete was refused with "Select at least one
    element of main text to save" and the example was gone; now it comes back as it was."""
    seed(host, tmp_path, ["Ferries of the north", ZH_TITLE], with_ids=False)
    options = open_options(browser, 2)
    get = ("(globalThis.browser ?? chrome).runtime.sendMessage({type: 'blocksift/examples', op: 'get',"
           " exampleId: 2}).then(r => r.value.example)")
    before = options.evaluate(get)
    assert before["mainIdList"] == []
    Input(options).click("tr[data-example-id='2'] button.delete")
    options.wait_for(f"{ROOT}.examplesCount === '1' && {ROOT}.examplesStatus === 'ready'")
    Input(options).click("#examples-undo")
    options.wait_for(f"{ROOT}.examplesCount === '2' && {ROOT}.examplesStatus === 'ready'", timeout=60)
    options.screenshot(artifacts / "undone.png")
    assert options.evaluate(f"{ROOT}.examplesRestored") == "2", options.evaluate(
        "document.getElementById('examples-deleted').textContent")
    after = options.evaluate(get)
    for key in ("exampleId", "url", "title", "created", "html", "mainText", "mainIdList", "blocks", "mainChars"):
        assert after[key] == before[key], key


def test_a_change_of_transport_is_checked_and_the_examples_follow(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """Switching to a WebSocket no server listens on left the Host section saying
    "Connected: host …" until Check again; and after switching back (or Check again) the
    Examples list still showed the error of the transport before, and the saved articles'
    folder "The host could not be asked", until the page was reloaded."""
    seed(host, tmp_path, ["Ferries of the north"])
    options = open_options(browser, 1)
    options.wait_for("document.getElementById('host-status').textContent.startsWith('Connected')")
    keys = Input(options)
    options.evaluate(f"(e => (e.value = 'ws://127.0.0.1:{harness._free_port()}/', e.dispatchEvent(new Event('change')),"
                     " true))(document.getElementById('ws-url'))")
    keys.click("input[name=transport][value=websocket]")
    options.wait_for("document.getElementById('host-status').classList.contains('bad')", timeout=60)
    options.wait_for(f"{ROOT}.examplesStatus === 'error'", timeout=60)
    assert "WebSocket" in options.evaluate("document.getElementById('host-status').textContent")
    options.screenshot(artifacts / "websocket-unreachable.png")
    keys.click("input[name=transport][value=native]")
    options.wait_for("document.getElementById('host-status').textContent.startsWith('Connected')", timeout=60)
    options.wait_for(f"{ROOT}.examplesStatus === 'ready' && {ROOT}.examplesCount === '1'", timeout=60)
    assert options.evaluate("!document.getElementById('examples-table').hidden")
    assert options.evaluate("document.getElementById('export-folder-status').textContent") == "No folder chosen yet."


def test_a_parameters_explanation_reads_as_its_own_not_the_next_ones_label(
        browser: harness.Browser, artifacts: Path) -> None:
    """Under Method, each parameter's one-line explanation stood in the left column in the
    labels' own type, so it read as the label of the field after it ("Minimum links C_t in a
    logical link block" beside nothing, right above "Main Text" and its box). It spans its
    parameter's row under the field, smaller and grey, as in the popup."""
    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    options.wait_for("!!document.querySelector('#params .param .explain')", timeout=60)
    options.evaluate("document.getElementById('algorithm').scrollIntoView(), true")
    options.screenshot(artifacts / "params.png")
    title, field, explain, muted = options.evaluate(
        "(p => [p.querySelector('span'), p.querySelector('input'), p.querySelector('.explain')]"
        ".map(e => (r => ({left: r.left, right: r.right, size: parseFloat(getComputedStyle(e).fontSize),"
        " color: getComputedStyle(e).color}))(e.getBoundingClientRect()))"
        ".concat([getComputedStyle(document.querySelector('p.muted')).color]))"
        "(document.querySelector('#params .param'))")
    assert explain["left"] == title["left"] and explain["right"] >= field["right"] - 1, (title, field, explain)
    assert explain["size"] < title["size"] and explain["color"] == muted


def test_with_no_examples_export_and_train_wait_for_one(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """With the list empty, Export wrote "0 examples" over the last export's file (what it held
    was gone), and Train answered "no labeled pages to train on: … or name a dataset", words
    of the command line. Both wait for an example now; an Undo brings them back."""
    seed(host, tmp_path, ["Ferries of the north"])
    options = open_options(browser, 1)
    clicks = Input(options)
    clicks.click("#examples-export")
    options.wait_for(f"{ROOT}.exportPath")
    exported = Path(options.evaluate(f"{ROOT}.exportPath"))
    clicks.click("tr[data-example-id='1'] button.delete")
    options.wait_for(f"{ROOT}.examplesCount === '0' && {ROOT}.examplesStatus === 'ready'")
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "empty.png")
    assert options.evaluate("document.getElementById('examples-export').disabled")
    assert options.evaluate("document.getElementById('train').disabled")
    assert not options.evaluate("document.getElementById('examples-empty').hidden")
    clicks.click("#examples-export")  # nothing happens to the file
    with gzip.open(exported, "rt", encoding="utf-8") as handle:
        assert len([line for line in handle if line.strip()]) == 1
    clicks.click("#examples-undo")
    options.wait_for(f"{ROOT}.examplesCount === '1' && {ROOT}.examplesStatus === 'ready'")
    assert not options.evaluate("document.getElementById('examples-export').disabled")
    assert not options.evaluate("document.getElementById('train').disabled")


def test_without_the_host_the_parameters_say_why_they_are_not_listed(
        browser: harness.Browser, artifacts: Path) -> None:
    """A method's parameters come with the host's answer: with the host unreachable (here a
    WebSocket nothing listens on) Method said "This algorithm has no numeric parameters." of
    linkblocks, whose c_t the user had set. It says the host did not answer, and what is kept."""
    options = browser.new_tab(browser.ext_url("options.html"))
    options.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    options.evaluate("(globalThis.browser ?? chrome).storage.local.set({settings: {algorithm: 'linkblocks',"
                     " params: {linkblocks: {c_t: 5, main_text: false}}, transport: {kind: 'websocket',"
                     f" wsUrl: 'ws://127.0.0.1:{harness._free_port()}/'}}}}}}).then(() => true)")
    options.navigate(browser.ext_url("options.html"))
    options.activate()
    options.wait_for("document.getElementById('host-status').classList.contains('bad')", timeout=60)
    options.evaluate("document.getElementById('algorithm').scrollIntoView(), true")
    options.screenshot(artifacts / "params-without-host.png")
    text = options.evaluate("document.getElementById('params').textContent")
    assert text == ("The host did not answer, so linkblocks's parameters cannot be listed here (Check again"
                    " above). Your values are kept: c_t=5, main_text=false."), text


def test_an_example_labeled_by_its_text_is_described_so(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path) -> None:
    """The view of an imported example (a dataset's page, an export without marked blocks)
    said "corrected — · 0 elements" under its title: no method was corrected, and its label is
    its text, not elements. It says so; one with its elements counts them."""
    seed(host, tmp_path, ["Ferries of the north"], with_ids=False)
    options = open_options(browser, 1)
    Input(options).click("tr[data-example-id='1'] button.link")
    options.wait_for("!!document.querySelector('#example-view .main-text')")
    meta = options.evaluate("document.querySelector('#example-view .muted.small').textContent")
    assert meta.startswith("https://ferries.example/0.html · ") and "corrected" not in meta, meta
    assert meta.endswith(" · labeled by its text (no element ids)"), meta


def test_an_export_says_which_kind_it_wrote(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path) -> None:
    """Export with marked blocks and without wrote two kinds of file to one path with the same
    words, so the second looked like nothing had happened, and nothing said the first was
    gone. The message names the kind and, where a file was there (the host says so), that the
    export took the place of the one before: not on the first export."""
    seed(host, tmp_path, ["Ferries of the north", ZH_TITLE])
    options = open_options(browser, 2)
    clicks = Input(options)
    result = "document.getElementById('examples-export-result').textContent"
    clicks.click("#examples-export")
    options.wait_for(f"{ROOT}.exportPath && !{result}.startsWith('Exporting')")
    first = options.evaluate(result)
    assert first.startswith("Wrote 2 examples with their marked blocks to "), first
    assert "in place of the export before" not in first, first
    clicks.click("#examples-with-blocks")
    clicks.click("#examples-export")
    options.wait_for(f"{result}.startsWith('Wrote') && {result} !== {json.dumps(first)}")
    second = options.evaluate(result)
    assert second.startswith("Wrote 2 examples without their marked blocks (page and main text only) to "), second
    assert "in place of the export before" in second, second
    with gzip.open(options.evaluate(f"{ROOT}.exportPath"), "rt", encoding="utf-8") as handle:
        assert ["marked_blocks" in json.loads(line) for line in handle] == [False, False]


def test_each_delete_button_names_its_example(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path) -> None:
    """Going from button to button (a screen reader's list of buttons, Tab), every row's
    button was named "Delete", nothing saying which example it deletes."""
    seed(host, tmp_path, ["Ferries of the north", ZH_TITLE])
    options = open_options(browser, 2)
    names = options.evaluate("[...document.querySelectorAll('#examples-table button.delete')]"
                             ".map(b => b.getAttribute('aria-label') || b.textContent)")
    assert names == [f"Delete “{ZH_TITLE}”", "Delete “Ferries of the north”"], names


IN_VIEW = "(r => r.height > 0 && r.top >= 0 && r.bottom <= innerHeight)(document.getElementById({0}).getBoundingClientRect())"


def in_view(tab: harness.Tab, element_id: str) -> bool:
    """Whether the element is drawn and wholly inside the window."""
    return tab.evaluate(IN_VIEW.format(json.dumps(element_id)))


def stored(tab: harness.Tab) -> dict:
    """The settings as stored, read from the options page itself (a new tab would take the
    focus and slow the page's timers)."""
    return tab.evaluate("(globalThis.browser ?? chrome).storage.local.get('settings').then(r => r.settings)")


def test_a_change_far_down_the_page_is_confirmed_in_sight_and_the_confirmation_clears(
        browser: harness.Browser, artifacts: Path) -> None:
    """Every change is saved at once and "Saved." said so at the page's top: after a change of
    a privacy switch, far down, it was out of sight. And it stayed for good, so after the next
    change nothing said whether that one was saved. It shows at the foot of the window now,
    clears after a few seconds, and shows again after the next change."""
    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    options.set_viewport(1000, 600)
    options.wait_for(f"{ROOT}.blocksiftStatus === 'ready'")
    clicks = Input(options)
    clicks.click("#learn-sites")  # scrolled to the window's middle, the page's top out of sight
    saved = options.wait_for(f"{ROOT}.blocksiftSaved")
    assert options.evaluate("scrollY") > 0
    assert options.evaluate("document.getElementById('saved').textContent") == "Saved."
    assert in_view(options, "saved") and in_view(options, "learn-sites")
    assert options.evaluate("document.getElementById('saved').getAttribute('role')") == "status"
    assert stored(options)["privacy"]["learnSites"] is True
    options.screenshot(artifacts / "saved-in-sight.png")
    options.wait_for("document.getElementById('saved').textContent === ''", timeout=15)
    assert options.evaluate("document.getElementById('saved').getBoundingClientRect().height") == 0
    options.screenshot(artifacts / "saved-cleared.png")
    # the next change says so again
    clicks.click("#learn-sites")
    options.wait_for(f"{ROOT}.blocksiftSaved !== {json.dumps(saved)}")
    assert options.evaluate("document.getElementById('saved').textContent") == "Saved." and in_view(options, "saved")
    assert stored(options)["privacy"]["learnSites"] is False


def test_a_change_that_is_not_saved_says_so_in_sight_until_a_save_works(
        browser: harness.Browser, artifacts: Path) -> None:
    """"Not saved: …" stood at the page's top too. It shows at the foot of the window as an
    alert and, unlike "Saved.", stays (an error that vanished by itself would leave the user
    believing the change was kept) until a change is saved."""
    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    options.set_viewport(1000, 600)
    options.wait_for(f"{ROOT}.blocksiftStatus === 'ready'")
    area = "(globalThis.browser ?? chrome).storage.local"
    options.evaluate(f"(a => (a.realSet = a.set, a.set = () => Promise.reject(new Error('the disk is full')),"
                     f" true))({area})")
    clicks = Input(options)
    clicks.click("#run-in-private")
    options.wait_for(f"{ROOT}.blocksiftSaveError")
    error = "document.getElementById('save-error')"
    assert options.evaluate(f"{error}.textContent") == "Not saved: the disk is full"
    assert options.evaluate(f"{error}.getAttribute('role')") == "alert"
    assert in_view(options, "save-error") and options.evaluate("document.getElementById('saved').textContent") == ""
    options.screenshot(artifacts / "not-saved.png")
    # still there well after a confirmation would have gone
    assert options.evaluate(f"new Promise(r => setTimeout(r, 5000)).then(() => {error}.textContent)") \
        == "Not saved: the disk is full"
    options.evaluate(f"(a => (a.set = a.realSet, true))({area})")
    clicks.click("#run-in-private")  # back as stored: saved
    options.wait_for(f"{ROOT}.blocksiftSaved")
    assert options.evaluate(f"{error}.textContent") == ""
    assert options.evaluate("document.getElementById('saved').textContent") == "Saved."


def test_every_deletion_keeps_its_undo(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """Two examples deleted one after the other: the second delete's "Deleted … Undo" took the
    first one's place, and the first example could not be brought back. Each deletion keeps its
    line and Undo until it is used, in sight while the Examples section is (the list here is
    longer than the window), and either can be undone first."""
    seed(host, tmp_path, [f"Ferry timetable, part {n}" for n in range(1, 13)])
    options = open_options(browser, 12)
    options.set_viewport(1000, 500)
    clicks = Input(options)
    # the two oldest, at the list's foot: the section's top is out of sight
    for example_id, count in (("2", 11), ("1", 10)):
        clicks.click(f"tr[data-example-id='{example_id}'] button.delete")
        options.wait_for(f"{ROOT}.examplesDeleted === '{example_id}' && {ROOT}.examplesCount === '{count}'"
                         f" && {ROOT}.examplesStatus === 'ready'")
        assert in_view(options, "examples-deleted"), options.evaluate(
            "JSON.stringify(document.getElementById('examples-deleted').getBoundingClientRect())")
    options.screenshot(artifacts / "two-deleted.png")
    lines = options.evaluate("[...document.querySelectorAll('#examples-deleted p')].map(p => p.textContent)")
    assert lines == ["Deleted “Ferry timetable, part 2”. Undo", "Deleted “Ferry timetable, part 1”. Undo"], lines
    assert options.evaluate("document.getElementById('examples-undo').closest('p').dataset.exampleId") == "1"
    # the first deletion's Undo first
    clicks.click("#examples-deleted p[data-example-id='2'] button")
    options.wait_for(f"{ROOT}.examplesRestored === '2' && {ROOT}.examplesCount === '11'"
                     f" && {ROOT}.examplesStatus === 'ready'")
    lines = options.evaluate("[...document.querySelectorAll('#examples-deleted p')].map(p => p.textContent)")
    assert lines == ["Restored “Ferry timetable, part 2” as example 2.", "Deleted “Ferry timetable, part 1”. Undo"], lines
    clicks.click("#examples-undo")
    options.wait_for(f"{ROOT}.examplesRestored === '1' && {ROOT}.examplesCount === '12'"
                     f" && {ROOT}.examplesStatus === 'ready'")
    options.screenshot(artifacts / "both-undone.png")
    assert options.evaluate("[...document.querySelectorAll('#examples-table tbody tr')]"
                            ".map(r => r.dataset.exampleId)") == [str(n) for n in range(12, 0, -1)]
    assert options.evaluate("document.querySelectorAll('#examples-deleted button').length") == 0
    # what was restored goes after a few seconds (nothing is left to undo)
    options.wait_for("document.getElementById('examples-deleted').childElementCount === 0", timeout=20)
    assert options.evaluate("document.getElementById('examples-deleted').getBoundingClientRect().height") == 0


def test_the_excluded_sites_say_whether_they_were_saved(browser: harness.Browser, artifacts: Path) -> None:
    """"Save excluded sites" said "Saved: …" for good (a second save looked like nothing had
    happened), and a save that failed said nothing at all. The confirmation goes after a few
    seconds; a failure says "Not saved: …" and stays."""
    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    options.wait_for(f"{ROOT}.blocksiftStatus === 'ready'")
    status = "document.getElementById('excluded-status').textContent"
    clicks = Input(options)
    options.evaluate("document.getElementById('excluded-sites').value = 'bank.example\\nmail.example', true")
    clicks.click("#excluded-save")
    options.wait_for(f"{ROOT}.excludedSaved")
    assert options.evaluate(status) == "Saved: labeling never runs on 2 sites."
    options.wait_for(f"{status} === ''", timeout=20)
    area = "(globalThis.browser ?? chrome).storage.local"
    options.evaluate(f"(a => (a.set = () => Promise.reject(new Error('the disk is full')), true))({area})")
    clicks.click("#excluded-save")
    options.wait_for(f"{status}.startsWith('Not saved')")
    options.screenshot(artifacts / "excluded-not-saved.png")
    assert options.evaluate(status) == "Not saved: the disk is full"
    assert options.evaluate(f"new Promise(r => setTimeout(r, 9000)).then(() => {status})") == "Not saved: the disk is full"


def test_a_parameter_out_of_its_bounds_is_not_saved_and_says_why(
        browser: harness.Browser, artifacts: Path) -> None:
    """A threshold of 7 (a probability, 0 to 1) was saved with "Saved.": every later page then
    failed at the host until the user found the field again. The value is refused where it is
    typed: the field is marked, the foot of the window says why, the stored value stays; a
    value in bounds is saved and clears both."""
    options = browser.new_tab(browser.ext_url("options.html"))
    options.activate()
    options.set_viewport(1000, 600)
    options.wait_for(f"{ROOT}.blocksiftStatus === 'ready' && !!document.getElementById('param-threshold')",
                     timeout=60)
    before = (stored(options) or {}).get("params", {}).get("auto", {})
    keys = Input(options)
    keys.click("#param-threshold")
    for key in "7":
        keys.press(key)
    keys.press("Tab")  # the change fires as the field is left
    options.wait_for(f"{ROOT}.blocksiftSaveError")
    error = options.evaluate("document.getElementById('save-error').textContent")
    assert error.startswith("Not saved: Threshold must be at most 1"), error
    assert in_view(options, "save-error")
    assert options.evaluate("document.getElementById('param-threshold').getAttribute('aria-invalid')") == "true"
    assert (stored(options) or {}).get("params", {}).get("auto", {}) == before
    options.screenshot(artifacts / "param-refused.png")
    keys.click("#param-threshold")
    keys.press("Backspace")
    for key in "0.5":
        keys.press(key)
    keys.press("Tab")
    options.wait_for(f"{ROOT}.blocksiftSaved")
    assert stored(options)["params"]["auto"]["threshold"] == 0.5
    assert options.evaluate("document.getElementById('save-error').textContent") == ""
    assert options.evaluate("document.getElementById('param-threshold').getAttribute('aria-invalid')") == "false"

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


def seed(host: harness.HostInstall, tmp_path: Path, titles: list[str]) -> None:
    """Labeled examples of https://ferries.example/<n>.html in the host's database, the first
    title the oldest (so the list shows them last title first)."""
    pages = tmp_path / "seed.jsonl.gz"
    with gzip.open(pages, "wt", encoding="utf-8") as handle:
        for n, title in enumerate(titles):
            text = f"{title}. The harbour town kept its ferries running through the winter ({n})."
            handle.write(json.dumps({
                "id": f"p{n}", "url": f"https://ferries.example/{n}.html", "title": title,
                "created": 1_700_000_000 + 60 * n, "gold": text,
                "html": f"<html><head><title>{title}</title></head><body><p>{text}</p></body></html>"},
                ensure_ascii=False) + "\n")
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

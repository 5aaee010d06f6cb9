"""The options page's Import, in Chromium and Firefox ESR with the real host: what Export
wrote, deleted from the list, comes back through Import (the file's bytes sent to the host in
chunks over native messaging); pages already stored are skipped or replaced as chosen; a big
file shows its progress with Import disabled; a bad file says why and adds nothing.

The file is given to the page's hidden file input as a person's pick would give it (a File in
its ``files``, then ``change``): a test cannot click through the browser's own file dialog.
Waits are on the status the page writes (``<html data-import-status>``), never on sleeps.
"""

from __future__ import annotations

import base64
import gzip
import json
import random
import string
from pathlib import Path

import e2e_harness as harness
from test_labeling import Input
from test_options_e2e import open_options, seed

ROOT = "document.documentElement.dataset"


def pick(options: harness.Tab, data: bytes, name: str) -> None:
    """Give the Import's file input a file of ``data`` named ``name``, as a pick does."""
    options.evaluate(
        "(() => { const bytes = Uint8Array.from(atob(" + json.dumps(base64.b64encode(data).decode())
        + "), (c) => c.charCodeAt(0)); const input = document.getElementById('examples-import-file');"
        " const files = new DataTransfer(); files.items.add(new File([bytes], " + json.dumps(name) + "));"
        " input.files = files.files; input.dispatchEvent(new Event('change', {bubbles: true})); return true; })()")


def imported(options: harness.Tab, timeout: float = 120) -> str:
    """The Import's result line once it is done (imported or an error), without its Undo import."""
    options.wait_for(f"['imported', 'error'].includes({ROOT}.importStatus) && {ROOT}.examplesStatus === 'ready'",
                     timeout=timeout)
    return options.evaluate("(c => (c.querySelector('.undo-row')?.remove(), c.textContent))"
                            "(document.getElementById('examples-import-result').cloneNode(true))")


def titles(options: harness.Tab) -> list[str]:
    return options.evaluate("[...document.querySelectorAll('#examples-table tbody tr button.link')]"
                            ".map(b => b.textContent)")


def uploads_left(host: harness.HostInstall) -> list[str]:
    folder = host.home / "data" / "imports"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_an_export_deleted_comes_back_through_import(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    seed(host, tmp_path, ["Ferries of the north", "Winter timetable"])
    options = open_options(browser, 2)
    clicks = Input(options)
    assert options.evaluate("document.getElementById('examples-import-file').hidden") is True
    assert options.evaluate("document.getElementById('examples-import-duplicates').value") == "skip"
    # Export (a real click), then delete both from the list
    clicks.click("#examples-export")
    options.wait_for(f"{ROOT}.exportPath")
    exported = Path(options.evaluate(f"{ROOT}.exportPath"))
    data = exported.read_bytes()
    for example_id in ("2", "1"):
        clicks.click(f"tr[data-example-id='{example_id}'] button.delete")
        options.wait_for(f"{ROOT}.examplesDeleted === '{example_id}' && {ROOT}.examplesStatus === 'ready'")
    assert options.evaluate(f"{ROOT}.examplesCount") == "0"

    # Import the exported file: both are listed again, with their titles
    pick(options, data, exported.name)
    line = imported(options)
    assert options.evaluate(f"{ROOT}.importStatus") == "imported", line
    assert line == "Imported 2 examples from “pages.jsonl.gz”.", line
    assert options.evaluate("!!document.getElementById('examples-undo-import')") is True
    assert options.evaluate(f"{ROOT}.examplesCount") == "2"
    assert sorted(titles(options)) == ["Ferries of the north", "Winter timetable"]
    assert uploads_left(host) == []
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "imported.png")

    # the same file again: the pages are here already, skipped by default...
    pick(options, data, exported.name)
    line = imported(options)
    assert line.startswith("Imported no example from “pages.jsonl.gz”; 2 already stored were skipped"), line
    assert options.evaluate("!!document.getElementById('examples-undo-import')") is False  # nothing to undo
    assert options.evaluate(f"{ROOT}.examplesCount") == "2"
    # ... or, chosen, the file's labels take their place (the stored ones kept restorable)
    options.evaluate("(s => (s.value = 'replace', s.dispatchEvent(new Event('change')), true))"
                     "(document.getElementById('examples-import-duplicates'))")
    pick(options, data, exported.name)
    line = imported(options)
    assert line.startswith("Imported 2 examples from “pages.jsonl.gz”, taking the place of 2 stored here"), line
    assert options.evaluate(f"{ROOT}.examplesCount") == "2"
    assert options.evaluate("document.querySelectorAll('#examples-table button.restore-earlier').length") == 2
    assert uploads_left(host) == []


def test_a_big_file_shows_its_progress_and_a_bad_one_says_why(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    seed(host, tmp_path, ["Ferries of the north"])
    options = open_options(browser, 1)
    rng = random.Random(7)
    records = []
    for n in range(3):  # about 3 MB of gzip: 8 chunks
        filler = "".join(rng.choice(string.ascii_letters + " ") for _ in range(1_300_000))
        text = f"Quay {n}: the ferries moor here overnight in the winter months."
        records.append({"url": f"https://quays.example/{n}", "title": f"Quay {n}", "gold": text,
                        "html": f"<html><body><p>{text}</p><div hidden>{filler}</div></body></html>"})
    big = gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode(), compresslevel=1)
    assert len(big) > 3 * 384 * 1024
    # what the page shows while it sends: every progress step, with Import disabled meanwhile
    options.evaluate(
        "(() => { globalThis.seen = []; new MutationObserver(() => seen.push(["
        + ROOT + ".importProgress, document.getElementById('examples-import').disabled,"
        " document.getElementById('examples-import-result').textContent]))"
        ".observe(document.documentElement, {attributeFilter: ['data-import-progress']}); return true; })()")
    pick(options, big, "quays.jsonl.gz")
    line = imported(options, timeout=240)
    assert line == "Imported 3 examples from “quays.jsonl.gz”.", line
    seen = options.evaluate("seen")
    percents = [int(p) for p, _, _ in seen]
    assert percents == sorted(percents) and percents[-1] == 100 and len(set(percents)) >= 6, seen
    assert all(disabled for _, disabled, _ in seen), json.dumps([s[:2] for s in seen])
    assert any(text.startswith("Importing “quays.jsonl.gz”… ") and " % " not in text and text.endswith(" %")
               and 0 < int(text.split("… ")[1][:-2]) < 100 for _, _, text in seen), seen
    assert seen[-1][2] == "Importing “quays.jsonl.gz”… 100 %: sent; adding the examples…", seen
    assert options.evaluate("document.getElementById('examples-import').disabled") is False
    assert options.evaluate(f"{ROOT}.examplesCount") == "4"

    # a file with a line that is not JSON: nothing of it is added, and the error stays
    bad = (json.dumps({"url": "https://quays.example/9", "html": "<p>Quay nine</p>", "gold": "Quay nine"})
           + "\n{not json\n").encode()
    pick(options, bad, "notes.jsonl")
    line = imported(options)
    assert options.evaluate(f"{ROOT}.importStatus") == "error"
    assert line.startswith("“notes.jsonl” was not imported: notes.jsonl, line 2: not JSON"), line
    assert "nothing was added" in line
    assert options.evaluate("document.getElementById('examples-import-result').getAttribute('role')") == "alert"
    assert options.evaluate(f"{ROOT}.examplesCount") == "4"
    assert options.evaluate("document.getElementById('examples-import').disabled") is False
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "import-error.png")
    assert uploads_left(host) == []


def test_import_fits_a_narrow_window(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """Refresh, Export, Import and its choice wrap in a side panel's width, result line too."""
    seed(host, tmp_path, ["Ferries of the north"])
    options = open_options(browser, 1)
    options.set_viewport(420, 800)
    options.wait_for("innerWidth === 420")
    record = {"url": "https://quays.example/an/address/long/enough/to/wrap/" + "x" * 60,
              "html": "<p>Quay</p>", "gold": "Quay"}
    pick(options, json.dumps(record).encode() + b"\n", "a-file-name-long-enough-to-wrap-in-a-side-panel.jsonl")
    assert imported(options).startswith("Imported 1 example from")
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "narrow-import.png")
    assert options.evaluate("document.documentElement.scrollWidth") <= 420
    outside = options.evaluate("[...document.querySelectorAll('#examples *')].filter(e => e.getClientRects().length"
                               " && e.getBoundingClientRect().right > innerWidth).map(e => e.localName + '#' + e.id)")
    assert outside == [], outside


def rows_shown(options: harness.Tab) -> list[list[str]]:
    """Each listed example as the page shows it: number, title, date, what it replaced."""
    return options.evaluate("[...document.querySelectorAll('#examples-table tbody tr')].map(r => [r.dataset.exampleId,"
                            " r.querySelector('button.link').textContent, r.querySelector('td.date').textContent,"
                            " r.dataset.replaces])")


def test_an_import_is_undone_and_the_list_is_back(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    """A colleague's file taken in place of a page of mine, and two more: Undo import (with the
    keyboard) takes them back and brings my label back with its number and date."""
    seed(host, tmp_path, ["Ferries of the north", "Winter timetable"])
    options = open_options(browser, 2)
    before = rows_shown(options)
    assert [row[3] for row in before] == ["", ""]
    text = "The colleague's label: the harbour town kept its ferries running through the winter."
    colleague = [{"url": f"https://ferries.example/{n}.html", "title": f"Colleague's page {n}", "gold": text,
                  "html": f"<html><body><p>{text}</p><p>Page {n}</p></body></html>"} for n in (0, 5, 6)]
    options.evaluate("(s => (s.value = 'replace', s.dispatchEvent(new Event('change')), true))"
                     "(document.getElementById('examples-import-duplicates'))")
    pick(options, gzip.compress("".join(json.dumps(r) + "\n" for r in colleague).encode()), "colleague.jsonl.gz")
    line = imported(options)
    assert line.startswith("Imported 3 examples from “colleague.jsonl.gz”, taking the place of 1 stored here"), line
    assert options.evaluate("document.querySelector('#examples-import-result .undo-row').textContent") == "Undo import"
    assert options.evaluate(f"{ROOT}.examplesCount") == "4"
    undo = "document.getElementById('examples-undo-import')"
    assert options.evaluate(f"{undo}.getAttribute('aria-label')") == "Undo the import of “colleague.jsonl.gz”"
    options.evaluate("document.getElementById('examples').scrollIntoView(), true")
    options.screenshot(artifacts / "undo-import.png")
    options.set_viewport(420, 800)
    options.wait_for("innerWidth === 420")
    options.evaluate("document.getElementById('examples-import-result').scrollIntoView(), true")
    options.screenshot(artifacts / "undo-import-narrow.png")
    assert options.evaluate("document.documentElement.scrollWidth") <= 420
    assert options.evaluate(f"{undo}.getBoundingClientRect().right") <= 420

    # the keyboard alone: from the choice beside Import, Tab reaches Undo import; Enter presses it
    keys = Input(options)
    options.evaluate("document.getElementById('examples-import-duplicates').focus(), true")
    keys.press("Tab")
    assert options.evaluate("document.activeElement.id") == "examples-undo-import"
    keys.press("Enter")
    options.wait_for(f"{ROOT}.importUndoStatus === 'undone' && {ROOT}.examplesStatus === 'ready'", timeout=120)
    result = options.evaluate("document.getElementById('examples-import-result').textContent")
    assert result == "Took back the 3 imported examples; 1 earlier label is back.", result
    assert options.evaluate(f"{undo}") is None  # the button went
    assert options.evaluate(f"{ROOT}.importUndone") == "3"
    assert options.evaluate(f"{ROOT}.examplesCount") == "2"
    assert rows_shown(options) == before  # my labels, their numbers and dates, nothing replaced
    assert options.evaluate("document.activeElement.id") == "examples-import"
    options.screenshot(artifacts / "import-undone-narrow.png")


def test_undo_import_leaves_what_was_deleted_since_and_says_so(
        browser: harness.Browser, host: harness.HostInstall, tmp_path: Path, artifacts: Path) -> None:
    seed(host, tmp_path, ["Ferries of the north"])
    options = open_options(browser, 1)
    before = rows_shown(options)
    records = [{"url": f"https://quays.example/{n}", "title": f"Quay {n}", "gold": f"Quay {n} is closed in winter.",
                "html": f"<html><body><p>Quay {n} is closed in winter.</p></body></html>"} for n in (1, 2)]
    pick(options, "".join(json.dumps(r) + "\n" for r in records).encode(), "quays.jsonl")
    assert imported(options) == "Imported 2 examples from “quays.jsonl”.", imported(options)
    # one of them deleted from its row meanwhile
    clicks = Input(options)
    deleted = options.evaluate("[...document.querySelectorAll('#examples-table tbody tr')]"
                               ".find(r => r.textContent.includes('Quay 1')).dataset.exampleId")
    clicks.click(f"tr[data-example-id='{deleted}'] button.delete")
    options.wait_for(f"{ROOT}.examplesDeleted === '{deleted}' && {ROOT}.examplesStatus === 'ready'")
    clicks.click("#examples-undo-import")
    options.wait_for(f"{ROOT}.importUndoStatus === 'undone' && {ROOT}.examplesStatus === 'ready'", timeout=120)
    result = options.evaluate("document.getElementById('examples-import-result').textContent")
    assert result == "Took back the imported example. Left as it was: 1 deleted since.", result
    assert rows_shown(options) == before

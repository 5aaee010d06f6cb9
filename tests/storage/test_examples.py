"""The labeled-examples store: a real SQLite file, real killed writers, real export files."""

from __future__ import annotations

import gzip
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from blocksift.evaluation.datasets import load_pages
from blocksift.storage.examples import Example, ExampleStore, gold_from_ids

HOST = Path(__file__).resolve().parents[2] / "host"
PAGE = ('<html><head><title>T</title></head><body data-bsid="1"><nav data-bsid="2">'
        '<a data-bsid="3" href="/">Home</a></nav><article data-bsid="4"><p data-bsid="5">First '
        'paragraph.</p><p data-bsid="6">Second paragraph.</p></article></body></html>')


def test_add_get_list_delete(tmp_path):
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        first = store.add(Example(html=PAGE, main_text="a", url="https://www.ex.org/1"))
        second = store.add(Example(html=PAGE, main_text="b", url="https://ex.org/2",
                                   blocks=[{"kind": "ad", "ids": ["3"], "text": "Home"}]))
        assert [e.id for e in store.list()] == [second, first]
        got = store.get(second)
        assert got is not None and got.blocks[0]["kind"] == "ad" and got.site == "ex.org"
        assert store.delete(first) and not store.delete(first)
        assert store.count() == 1 and store.get(first) is None


def test_store_files_are_readable_by_the_user_only(tmp_path):
    path = tmp_path / "private" / "ex.sqlite3"
    with ExampleStore(path) as store:
        store.add(Example(html=PAGE, main_text="x"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_gold_is_the_text_of_the_selected_elements():
    text, title = gold_from_ids(PAGE, ["4", "5"])
    assert text == "First paragraph.\nSecond paragraph."
    assert title == "T"
    assert gold_from_ids(PAGE, ["99"])[0] == ""


def test_export_writes_the_datasets_format_and_imports_back(tmp_path):
    with ExampleStore(tmp_path / "a.sqlite3") as store:
        store.add(Example(html=PAGE, main_text="First paragraph.\nSecond paragraph.",
                          url="https://ex.org/p", lang="en"))
        out = tmp_path / "export" / "pages.jsonl.gz"
        assert store.export(out) == 1
    with gzip.open(out, "rt", encoding="utf-8") as handle:
        (record,) = [json.loads(line) for line in handle]
    # what names the example in a list goes too (title, when saved, the algorithm corrected)
    assert set(record) == {"id", "url", "lang", "site", "host", "site_source", "html", "gold",
                           "title", "created", "algorithm"}
    assert record["html"] == PAGE and record["gold"].startswith("First paragraph.")
    (page,) = load_pages(out)  # what eval and train read
    assert page.gold == record["gold"] and page.site == "ex.org"
    with ExampleStore(tmp_path / "b.sqlite3") as again:
        assert again.import_file(out) == 1
        (back,) = list(again.all())
        assert (back.html, back.main_text, back.url) == (PAGE, record["gold"], record["url"])


WRITER = """
import sys, time
sys.path.insert(0, {host!r})
from blocksift.storage.examples import Example, ExampleStore
store = ExampleStore({path!r})
n = 0
while True:
    n += 1
    example_id = store.add(Example(html="<p>" + "x" * 20000 + "</p>", main_text="page %d" % n,
                                   url="https://ex.org/%d" % n))
    print(example_id, flush=True)  # only after the commit returned
"""


def test_killed_writers_never_corrupt_the_store_or_lose_a_committed_example(tmp_path):
    path = tmp_path / "crash.sqlite3"
    committed: set[int] = set()
    for round_number in range(6):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER.format(host=str(HOST), path=str(path))],
            stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None
        deadline = time.monotonic() + 30
        seen = 0
        while seen < 5 + round_number * 3 and time.monotonic() < deadline:
            line = writer.stdout.readline()
            if line.strip():
                committed.add(int(line))
                seen += 1
        os.kill(writer.pid, signal.SIGKILL)  # mid-write, most likely
        writer.wait()
    with ExampleStore(path) as store:
        assert store.integrity() == "ok"
        stored = {e.id for e in store.all()}
    assert committed and committed <= stored


def _record(n: int) -> str:
    return json.dumps({"id": str(n), "html": PAGE, "gold": "First paragraph.",
                       "url": f"https://ex.org/{n}"}) + "\n"


def test_a_file_with_one_bad_line_imports_nothing_and_names_the_line(tmp_path):
    """Fixing the file and importing again must not add its first records twice."""
    cases = {
        "not-json.jsonl": ((_record(1) + _record(2) + "{bad json\n").encode(), "line 3: not JSON"),
        "no-html.jsonl": ((_record(1) + '{"id": "2", "gold": "x"}\n').encode(),
                          'line 2: no "html" text'),
        # a page without its label: it was stored with no main text, and taught its site
        # that every block of its template is boilerplate
        "no-gold.jsonl": ((_record(1) + '{"id": "2", "url": "https://ex.org/n", "html": '
                           '"<p>Some text.</p>"}\n').encode(), 'line 2: no "gold" text'),
        "latin-1.jsonl": (_record(1).encode() + b'{"html": "caf\xe9"}\n', "line 2: not UTF-8"),
        "not-gzip.jsonl.gz": (b"plain text, not gzip\n", "not a gzip file"),
        "cut.jsonl.gz": (gzip.compress("".join(_record(n) for n in range(2000)).encode())[:3000],
                         "the gzip file is cut short after line"),
    }
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        for name, (data, message) in cases.items():
            path = tmp_path / name
            path.write_bytes(data)
            with pytest.raises(ValueError, match=message):
                store.import_file(path)
            assert store.count() == 0, name
        (tmp_path / "fixed.jsonl").write_text(_record(1) + "\n" + _record(2), encoding="utf-8")
        assert store.import_file(tmp_path / "fixed.jsonl") == 2 and store.count() == 2


def test_a_restored_example_keeps_only_a_number_it_was_given(tmp_path):
    """Undo of a delete keeps the example's number where it is free and was given out by
    this store; a number in use, or past the store's counter, gets a new one (the date stays)."""
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        first = store.add(Example(html=PAGE, main_text="a", url="https://ex.org/1"))
        second = store.add(Example(html=PAGE, main_text="b", url="https://ex.org/2"))
        gone = store.get(first)
        assert gone is not None and store.delete(first)
        assert store.save(gone, restore=True) == (first, [])
        assert store.get(first).created == gone.created
        taken = Example(html=PAGE, main_text="c", url="https://ex.org/3", id=second,
                        created=1000.0)
        again, _ = store.save(taken, restore=True)
        assert again not in (first, second) and store.get(again).created == 1000.0
        ahead = Example(html=PAGE, main_text="d", url="https://ex.org/4", id=again + 50)
        assert store.save(ahead, restore=True)[0] == again + 1
        # a plain save never takes the number it is given
        assert store.save(Example(html=PAGE, main_text="e", url="https://ex.org/5",
                                  id=first))[0] == again + 2

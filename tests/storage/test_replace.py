"""Labeling a page again replaces its example: a real SQLite file, real site files, a real
killed process between the store and the site file."""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from blocksift.algorithms.segmenter import adapt
from blocksift.storage.examples import Example, ExampleStore, page_key

HOST = Path(__file__).resolve().parents[2] / "host"
PAGE = ('<html><head><title>Rock pools</title></head><body><nav class="menu">'
        '<a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav>'
        '<article class="post"><h1>Rock pools</h1>'
        '<p>Rock pools keep sea water when the tide goes out, and many animals live there.</p>'
        '<p>Anemones close up to keep their water in until the sea comes back again.</p>'
        '<p>Crabs hide under the weed and wait for the next tide to bring them food.</p>'
        '</article><footer class="foot">Copyright the rock pool society, all rights '
        'reserved.</footer></body></html>')
RIGHT = ("Rock pools keep sea water when the tide goes out, and many animals live there.\n"
         "Anemones close up to keep their water in until the sea comes back again.\n"
         "Crabs hide under the weed and wait for the next tide to bring them food.")
WRONG = "Copyright the rock pool society, all rights reserved."
URL = "https://pools.example/rock"


def _counts(directory: Path, site: str = "pools.example") -> dict | None:
    path = directory / f"{site}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    data.pop("changes", None)
    return data


def _expected(tmp_path: Path, *pages: tuple[str, ...]) -> dict | None:
    """The site file of a store that only ever saved ``pages`` (html, gold[, url]) once."""
    directory = tmp_path / f"expected-{len(list(tmp_path.iterdir()))}"
    for html, gold, *url in pages:
        adapt.apply_change(url[0] if url else URL, added=[(html, gold)], directory=directory)
    return _counts(directory)


def test_page_key_ignores_the_fragment_and_the_case_of_scheme_and_host():
    assert page_key("https://Pools.Example/rock#crabs") == page_key("HTTPS://pools.example/rock")
    assert page_key("https://pools.example/rock?p=2") != page_key(URL)
    assert page_key("https://pools.example/Rock") != page_key(URL)  # paths are case-sensitive
    assert page_key(None) is None and page_key("about:blank") is None


def test_labeling_a_page_again_replaces_its_example_and_its_counts(tmp_path):
    sites = tmp_path / "sites"
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        first, replaced = store.save(Example(html=PAGE, main_text=WRONG, url=URL, title="old"))
        assert replaced == [] and store.settle(sites) == 1
        assert _counts(sites)["pages"] == 1
        second, replaced = store.save(Example(html=PAGE, main_text=RIGHT, url=URL + "#crabs",
                                              title="new"))
        assert replaced == [first] and store.settle(sites) == 1
        (listed,) = store.list()  # one entry, the new label, dated now
        assert (listed.id, listed.title, listed.replaces) == (second, "new", first)
        assert listed.created >= store.get(first).created
        assert store.count() == 1 and [e.id for e in store.all()] == [second]  # export, train
        earlier = store.get(first)  # kept restorable
        assert earlier is not None and earlier.replaced_by == second
        assert earlier.main_text == WRONG
    # the old label's counts are out, the new one's in: as if only the new one was saved
    assert _counts(sites) == _expected(tmp_path, (PAGE, RIGHT))
    assert _counts(sites) != _expected(tmp_path, (PAGE, RIGHT), (PAGE, WRONG))


def test_other_pages_and_examples_without_an_address_are_never_replaced(tmp_path):
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        store.save(Example(html=PAGE, main_text=RIGHT, url=URL))
        for url in (URL + "?page=2", "https://other.example/rock", None, None):
            assert store.save(Example(html=PAGE, main_text=RIGHT, url=url))[1] == []
        assert store.count() == 5
        assert store.save(Example(html=PAGE, main_text=RIGHT, url=URL), replace=False)[1] == []
        assert store.count() == 6


def test_restoring_the_earlier_label_swaps_back_one_step(tmp_path):
    sites = tmp_path / "sites"
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        a, _ = store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        b, _ = store.save(Example(html=PAGE, main_text=RIGHT, url=URL))
        earlier = store.get(a)
        # the options page's "Restore": the earlier example saved again, replacing b
        c, replaced = store.save(Example(html=earlier.html, main_text=earlier.main_text,
                                         url=earlier.url))
        assert replaced == [b] and store.get(b).replaced_by == c
        assert store.get(a) is None  # one step back per page: a's own history went
        assert [(e.id, e.replaces) for e in store.list()] == [(c, b)]
        store.settle(sites)
    assert _counts(sites) == _expected(tmp_path, (PAGE, WRONG))


def test_deleting_an_example_deletes_the_one_it_replaced_and_all_counts(tmp_path):
    sites = tmp_path / "sites"
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        a, _ = store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        b, _ = store.save(Example(html=PAGE, main_text=RIGHT, url=URL))
        assert store.delete(b)
        store.settle(sites)
        assert store.get(a) is None and store.get(b) is None and store.count() == 0
    assert not (sites / "pools.example.json").exists()


def test_duplicates_from_before_are_listed_and_collapse_on_the_next_save(tmp_path):
    """A store that already holds two examples of a page (saved before replacing existed, both
    counted in the site file) lists both; the next save of the page replaces both."""
    path, sites = tmp_path / "ex.sqlite3", tmp_path / "sites"
    conn = sqlite3.connect(path)  # a version-1 file, as earlier hosts wrote it
    conn.executescript("""CREATE TABLE examples (id INTEGER PRIMARY KEY AUTOINCREMENT,
        url TEXT, site TEXT, created REAL NOT NULL, title TEXT NOT NULL DEFAULT '', lang TEXT,
        html TEXT NOT NULL, main_ids TEXT NOT NULL DEFAULT '[]',
        main_text TEXT NOT NULL DEFAULT '', blocks TEXT NOT NULL DEFAULT '[]',
        algorithm TEXT NOT NULL DEFAULT '', algorithm_output TEXT NOT NULL DEFAULT '{}');
        PRAGMA user_version=1;""")
    for gold in (WRONG, RIGHT):
        conn.execute("INSERT INTO examples (url, site, created, html, main_text) "
                     "VALUES (?, 'pools.example', 1.0, ?, ?)", (URL, PAGE, gold))
        adapt.add_example(PAGE, gold, URL, directory=sites)
    conn.commit()
    conn.close()
    with ExampleStore(path) as store:
        assert [e.main_text for e in store.list()] == [RIGHT, WRONG]  # as they are
        new, replaced = store.save(Example(html=PAGE, main_text=RIGHT, url=URL))
        assert sorted(replaced) == [1, 2] and store.count() == 1
        assert store.list()[0].replaces == 2  # the newer of the two comes back with Restore
        store.settle(sites)
    assert _counts(sites) == _expected(tmp_path, (PAGE, RIGHT))


def test_a_failure_between_taking_out_and_putting_in_leaves_both_in_step(tmp_path, monkeypatch):
    sites = tmp_path / "sites"
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        store.settle(sites)
    before = (sites / "pools.example.json").read_text()

    def fail(*_args):
        raise RuntimeError("the host stopped here")

    # the old label's counts are already taken out (in memory) when this fails
    monkeypatch.setattr(adapt.SitePrior, "add_page", fail)
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        store.save(Example(html=PAGE, main_text=RIGHT, url=URL))
        with pytest.raises(RuntimeError):
            store.settle(sites)
        assert (sites / "pools.example.json").read_text() == before  # nothing half written
        assert store.pending() == 1  # and the change is not forgotten
    monkeypatch.undo()
    with ExampleStore(tmp_path / "ex.sqlite3") as store:  # the next start applies it once
        assert store.settle(sites) == 1 and store.settle(sites) == 0
        assert store.pending() == 0 and store.count() == 1
    assert _counts(sites) == _expected(tmp_path, (PAGE, RIGHT))


KILLED = """
import os, sys
sys.path.insert(0, {host!r})
from blocksift.algorithms.segmenter import adapt
from blocksift.storage.examples import Example, ExampleStore
where = {where!r}
real_save = adapt.save
def save(prior, directory=None):
    if where == "before-file":
        os._exit(9)
    path = real_save(prior, directory)
    os._exit(9)  # the file is written, the journal not yet cleared
adapt.save = save
store = ExampleStore({path!r})
store.save(Example(html={page!r}, main_text={gold!r}, url={url!r}))
print("committed", flush=True)
from pathlib import Path
store.settle(Path({sites!r}))
"""


@pytest.mark.parametrize("where", ["before-file", "after-file"])
def test_a_host_killed_mid_replace_counts_the_change_exactly_once(tmp_path, where):
    path, sites = tmp_path / "ex.sqlite3", tmp_path / "sites"
    other = "https://pools.example/sand"  # counted twice, a replayed change would show
    with ExampleStore(path) as store:
        store.save(Example(html=PAGE, main_text=RIGHT, url=other))
        old, _ = store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        store.settle(sites)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED.format(host=str(HOST), where=where, path=str(path),
                                             page=PAGE, gold=RIGHT, url=URL, sites=str(sites))],
        capture_output=True, text=True, timeout=120)
    assert killed.returncode == 9 and "committed" in killed.stdout, killed.stderr
    with ExampleStore(path) as store:
        assert store.pending() == 1 and store.count() == 2
        assert store.list()[0].replaces == old
        assert store.settle(sites) == 1
    assert _counts(sites) == _expected(tmp_path, (PAGE, RIGHT, other), (PAGE, RIGHT))


def _export(path: Path, *records: dict) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for n, record in enumerate(records):
            handle.write(json.dumps({"id": f"example-{n}", "html": PAGE, **record}) + "\n")
    return path


def test_import_skips_pages_already_labeled_and_takes_a_files_last_label(tmp_path):
    sites = tmp_path / "sites"
    dataset = _export(tmp_path / "pages.jsonl.gz",
                      {"url": URL, "gold": RIGHT},  # the page the store holds
                      {"url": URL + "?p=2", "gold": WRONG},  # an export from before: twice
                      {"url": URL + "?p=2#x", "gold": RIGHT},
                      {"url": None, "gold": RIGHT})
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        kept, _ = store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        report = store.import_records(dataset)
        assert len(report.added) == 2 and report.replaced == []
        assert [why for _, why in report.skipped] == [
            "this page has an example already", "a later record of this page is in the file"]
        assert store.get(kept).main_text == WRONG and store.get(kept).replaced_by is None
        assert sorted(e.main_text for e in store.all()) == sorted([RIGHT, RIGHT, WRONG])
        store.settle(sites)
        assert store.count() == 3
    assert _counts(sites)["pages"] == 2  # the record without an address has no site


def test_import_can_replace_or_keep_both(tmp_path):
    dataset = _export(tmp_path / "pages.jsonl.gz", {"url": URL, "gold": RIGHT})
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        old, _ = store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        report = store.import_records(dataset, "replace")
        assert report.replaced == [old] and store.get(old).replaced_by == report.added[0]
        assert len(store.import_records(dataset, "keep").added) == 1 and store.count() == 2
        with pytest.raises(ValueError):
            store.import_records(dataset, "merge")


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    import os

    env = dict(os.environ, BLOCKSIFT_HOME=str(home), PYTHONPATH=str(HOST))
    return subprocess.run([sys.executable, "-m", "blocksift", "examples", *args],
                          capture_output=True, text=True, env=env, timeout=120)


def test_cli_import_says_what_it_skipped_and_list_says_what_replaced(tmp_path):
    home = tmp_path / "home"
    dataset = _export(tmp_path / "pages.jsonl.gz", {"url": URL, "gold": RIGHT, "title": "T"})
    with ExampleStore(home / "data" / "examples.sqlite3") as store:
        old, _ = store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        store.settle(home / "data" / "models" / "auto-sites")
    done = _cli(home, "import", str(dataset), "--no-progress")
    assert done.returncode == 0, done.stderr
    assert f"skipped {URL}: this page has an example already" in done.stderr
    assert "imported 0 example(s); skipped 1" in done.stderr
    done = _cli(home, "import", str(dataset), "--no-progress", "--on-duplicate", "replace")
    assert "imported 1 example(s), replacing 1 (kept restorable)" in done.stderr, done.stderr
    listed = _cli(home, "list")
    assert listed.stdout.count(URL) == 1 and f"(replaced {old})" in listed.stdout
    assert _counts(home / "data" / "models" / "auto-sites") == _expected(tmp_path,
                                                                         (PAGE, RIGHT))


def test_a_change_that_fails_holds_back_its_site_only(tmp_path, monkeypatch):
    sites = tmp_path / "sites"
    other = "https://sand.example/dunes"
    real = adapt.apply_change

    def flaky(url, *args, **kwargs):
        if "pools.example" in url:
            raise RuntimeError("this page cannot be counted today")
        return real(url, *args, **kwargs)

    monkeypatch.setattr(adapt, "apply_change", flaky)
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        store.save(Example(html=PAGE, main_text=RIGHT, url=URL))  # waits behind the first
        store.save(Example(html=PAGE, main_text=RIGHT, url=other))
        with pytest.raises(RuntimeError):
            store.settle(sites)
        assert (sites / "sand.example.json").exists()  # another site is not held up
        assert not (sites / "pools.example.json").exists() and store.pending() == 2
        monkeypatch.undo()
        assert store.settle(sites) == 2 and store.pending() == 0
    assert _counts(sites) == _expected(tmp_path, (PAGE, RIGHT))


def test_repair_keeps_the_replaced_examples_and_the_pending_changes(tmp_path):
    from blocksift.storage.examples import DamagedStore, repair

    path = tmp_path / "ex.sqlite3"
    with ExampleStore(path) as store:
        for number in range(60):  # the examples table spans many pages
            store.add(Example(html=f"<p>{number}</p>" + "x" * 3000, main_text=str(number),
                              url=f"https://ex.org/{number}"))
        old, _ = store.save(Example(html=PAGE, main_text=WRONG, url=URL))
        new, _ = store.save(Example(html=PAGE, main_text=RIGHT, url=URL))
        assert store.pending() == 2
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(path, "r+b") as handle:  # a bad sector in the middle of the examples
        handle.seek(19 * page_size)
        handle.write(b"\xde\xad\xbe\xef" * (page_size // 4))
    with pytest.raises(DamagedStore):
        ExampleStore(path)
    assert repair(path)["damaged"]
    with ExampleStore(path) as store:
        assert store.get(old).replaced_by == new and store.pending() == 2
        assert store.settle(tmp_path / "sites") == 2
    assert _counts(tmp_path / "sites") == _expected(tmp_path, (PAGE, RIGHT))


def test_import_reads_a_record_without_url_under_the_address_its_page_names(tmp_path):
    """A record without "url" was stored of no site (its labels adapted none), even when its
    page names its own address, which `extract` reads the page under. It is stored under that
    address now: of that address's site (the host without www.), counted into that site's
    adaptation, and a page the store holds already under it is a duplicate as any other."""
    sites = tmp_path / "sites"
    canonical = "https://www.pools.example/rock"
    named = PAGE.replace("<head>", f'<head><link rel="canonical" href="{canonical}">')
    saved = ("<!DOCTYPE html>\n<!-- saved from url=(0029)https://sand.example/dunes -->\n"
             + PAGE.replace("<head>", '<head><meta property="og:url" content="https://x.example/">'))
    path = tmp_path / "pages.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (
        {"id": "a", "html": named, "gold": RIGHT},
        {"id": "b", "html": saved, "gold": RIGHT, "url": ""},
        {"id": "c", "html": PAGE, "gold": RIGHT},  # names no address: of no site
        {"id": "d", "html": named, "gold": RIGHT, "url": "https://sand.example/given"},
    )), encoding="utf-8")
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        report = store.import_records(path)
        assert report.own_address == [(canonical, "canonical"),
                                      ("https://sand.example/dunes", "saved from")]
        assert report.no_address == 1 and len(report.added) == 4
        stored = {e.main_text and e.url: e.site for e in store.all()}
        assert stored == {canonical: "pools.example", "https://sand.example/dunes":
                          "sand.example", None: None, "https://sand.example/given":
                          "sand.example"}
        store.settle(sites)
        # imported again, the page named by its canonical address is the one already stored
        again = store.import_records(path)
        assert (canonical, "this page has an example already") in again.skipped
        assert again.added and all(store.get(i).url is None for i in again.added)
    assert _counts(sites) == _expected(tmp_path, (named, RIGHT, canonical))
    assert _counts(sites, "sand.example")["pages"] == 2

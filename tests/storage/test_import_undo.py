"""Undo of an import (``ExampleStore.undo_import``): a real SQLite file and real site files.

After the undo, the store and every site file's counts are what they were before the import:
compared with a snapshot taken then, never with numbers written down here.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from blocksift.storage.examples import (
    Example,
    ExampleStore,
    UndoImportReport,
    id_ranges,
    id_ranges_merged,
)

PAGE = ('<html><head><title>{title}</title></head><body><nav class="menu">'
        '<a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav>'
        '<article class="post"><h1>{title}</h1>'
        '<p>Rock pools keep sea water when the tide goes out, and many animals live there.</p>'
        '<p>Anemones close up to keep their water in until the sea comes back again.</p>'
        '</article><footer class="foot">Copyright the rock pool society, all rights '
        'reserved.</footer></body></html>')
RIGHT = ("Rock pools keep sea water when the tide goes out, and many animals live there.\n"
         "Anemones close up to keep their water in until the sea comes back again.")
WRONG = "Copyright the rock pool society, all rights reserved."


def page(n: int) -> str:
    return PAGE.format(title=f"Pool {n}")


def url(n: int, site: str = "pools.example") -> str:
    return f"https://{site}/pool/{n}"


def write_dataset(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def record(n: int, gold: str = RIGHT, site: str = "pools.example") -> dict:
    return {"url": url(n, site), "html": page(n), "gold": gold, "title": f"File pool {n}",
            "created": 1_600_000_000 + n}


def rows(store: ExampleStore) -> dict[str, list[tuple]]:
    """Every row of the examples and replaced tables, as stored: ids, dates, data."""
    conn = sqlite3.connect(store.path)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
                for table in ("examples", "replaced")}
    finally:
        conn.close()


def site_counts(sites: Path) -> dict[str, dict]:
    """Each site file's counts (without the names of the changes counted into it)."""
    found = {}
    for path in sorted(sites.glob("*.json")):
        data = json.loads(path.read_text())
        data.pop("changes", None)
        found[path.name] = data
    return found


def seeded(tmp_path: Path) -> tuple[ExampleStore, Path]:
    """A store with three saved examples on two sites, settled into their site files."""
    sites = tmp_path / "sites"
    store = ExampleStore(tmp_path / "ex.sqlite3")
    store.save(Example(html=page(1), main_text=WRONG, url=url(1), title="mine 1",
                       created=1_500_000_001))
    store.save(Example(html=page(2), main_text=RIGHT, url=url(2), title="mine 2",
                       created=1_500_000_002))
    store.save(Example(html=page(7), main_text=RIGHT, url=url(7, "quays.example"),
                       title="mine 7", created=1_500_000_007))
    store.settle(sites)
    return store, sites


def test_id_ranges_are_runs_of_consecutive_ids():
    assert id_ranges([5, 3, 4, 9, 10, 12]) == [(3, 5), (9, 10), (12, 12)]
    assert id_ranges([]) == []
    assert id_ranges_merged([(9, 10), (3, 5), (4, 8), (20, 19)]) == [(3, 10)]


def test_an_import_with_skip_undone_leaves_the_store_and_sites_as_before(tmp_path):
    store, sites = seeded(tmp_path)
    before, counts = rows(store), site_counts(sites)
    file = write_dataset(tmp_path / "pages.jsonl",
                         [record(1), record(3), record(4, WRONG), record(8, site="quays.example"),
                          record(9, site="new.example")])
    report = store.import_records(file)
    assert len(report.added) == 4 and len(report.skipped) == 1 and report.replaced == []
    store.settle(sites)
    assert site_counts(sites) != counts and "new.example.json" in site_counts(sites)
    assert id_ranges(report.added) == [(report.added[0], report.added[-1])]  # one run

    undone = store.undo_import(id_ranges(report.added))
    assert sorted(undone.removed) == sorted(report.added)
    assert (undone.restored, undone.missing, undone.missing_ids) == ([], 0, [])
    store.settle(sites)
    assert rows(store) == before
    assert site_counts(sites) == counts  # new.example's file went with its only page
    assert store.pending() == 0


def test_an_import_with_replace_undone_brings_the_earlier_labels_back_with_their_ids(tmp_path):
    store, sites = seeded(tmp_path)
    before, counts = rows(store), site_counts(sites)
    mine = {e.id: e for e in store.all()}
    file = write_dataset(tmp_path / "pages.jsonl",
                         [record(1, RIGHT), record(2, WRONG), record(5)])
    report = store.import_records(file, "replace")
    assert len(report.added) == 3 and len(report.replaced) == 2
    store.settle(sites)
    assert site_counts(sites) != counts
    assert {e.title for e in store.all()} == {"File pool 1", "File pool 2", "File pool 5",
                                              "mine 7"}

    undone = store.undo_import(id_ranges(report.added))
    assert sorted(undone.restored) == sorted(report.replaced)
    assert sorted(undone.removed) == sorted(report.added) and undone.missing == 0
    store.settle(sites)
    assert rows(store) == before  # same ids, dates and data; the replaced table empty again
    assert rows(store)["replaced"] == []
    for example_id, earlier in mine.items():
        back = store.get(example_id)
        assert (back.title, back.created, back.main_text, back.url) == (
            earlier.title, earlier.created, earlier.main_text, earlier.url)
    assert site_counts(sites) == counts


def test_what_changed_since_the_import_is_left_alone_and_reported(tmp_path):
    store, sites = seeded(tmp_path)
    file = write_dataset(tmp_path / "pages.jsonl",
                         [record(1, RIGHT), record(3), record(4), record(5)])
    report = store.import_records(file, "replace")
    first, replaced_mine, deleted, relabeled, kept = (report.added[0], report.replaced[0],
                                                      *report.added[1:])
    assert store.get(replaced_mine).replaced_by == first
    store.settle(sites)
    # meanwhile: one imported example deleted, one labeled again in the browser
    assert store.delete(deleted)
    newer, replaced = store.save(Example(html=page(4), main_text=WRONG, url=url(4),
                                         title="labeled again"))
    assert replaced == [relabeled]
    store.settle(sites)
    # what the store and sites would be had the import brought only those two changes
    expected_dir = tmp_path / "expected"
    with ExampleStore(tmp_path / "expected.sqlite3") as alone:
        alone.save(Example(html=page(1), main_text=WRONG, url=url(1)))
        alone.save(Example(html=page(2), main_text=RIGHT, url=url(2)))
        alone.save(Example(html=page(7), main_text=RIGHT, url=url(7, "quays.example")))
        alone.save(Example(html=page(4), main_text=RIGHT, url=url(4)))
        alone.save(Example(html=page(4), main_text=WRONG, url=url(4)))
        alone.settle(expected_dir)

    undone = store.undo_import(id_ranges(report.added))
    assert sorted(undone.removed) == [first, kept]
    assert undone.restored == [replaced_mine]
    assert (undone.missing, sorted(undone.missing_ids), undone.relabeled) == (
        2, [deleted, relabeled], 1)
    store.settle(sites)
    listed = {e.id: e for e in store.all()}
    assert sorted(listed) == sorted([replaced_mine, 2, 3, newer])
    assert listed[newer].title == "labeled again" and listed[newer].replaces == relabeled
    assert store.get(relabeled).replaced_by == newer  # still restorable from its row
    assert site_counts(sites) == site_counts(expected_dir)

    # a second undo finds nothing of the import left: nothing done, each id reported
    again = store.undo_import(id_ranges(report.added))
    assert (again.removed, again.restored, again.missing) == ([], [], 4)
    assert store.pending() == 0 and sorted(e.id for e in store.all()) == sorted(listed)


def test_undo_is_one_transaction(tmp_path):
    """A failure part way (here: an earlier label's id taken meanwhile, which no host does by
    itself) leaves everything as it was: no example deleted, nothing journaled."""
    store, sites = seeded(tmp_path)
    file = write_dataset(tmp_path / "pages.jsonl", [record(3), record(1, RIGHT)])
    report = store.import_records(file, "replace")
    store.settle(sites)
    after, counts = rows(store), site_counts(sites)
    conn = sqlite3.connect(store.path)
    conn.execute("INSERT INTO examples (id, created, html) VALUES (?, 1, '<p>x</p>')",
                 (report.replaced[0],))
    conn.commit()
    conn.close()
    try:
        store.undo_import(id_ranges(report.added))
    except sqlite3.IntegrityError:
        pass
    else:
        raise AssertionError("the undo went through over a taken id")
    assert rows(store)["replaced"] == after["replaced"]
    assert [r[0] for r in rows(store)["examples"]] == sorted(
        [r[0] for r in after["examples"]] + [report.replaced[0]])
    assert store.pending() == 0
    store.settle(sites)
    assert site_counts(sites) == counts


def test_ids_never_given_out_are_not_counted(tmp_path):
    store, _ = seeded(tmp_path)
    report = store.undo_import([(10, 2**62)])
    assert report == UndoImportReport()
    assert store.count() == 3

"""Damaged stores are reported with what was kept aside, and the examples DB can be rebuilt."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from blocksift.service.session import Service, ServiceConfig
from blocksift.storage import health
from blocksift.storage.examples import DamagedStore, Example, ExampleStore, repair
from blocksift.storage.sitestore import SiteStore

REPO = Path(__file__).resolve().parents[2]


def _fill(path: Path, count: int) -> None:
    with ExampleStore(path) as store:
        for number in range(count):
            # a few KB each, so the table spans many database pages
            store.add(Example(html=f"<p>page {number}</p>" + "x" * 3000,
                              main_text=f"text {number}", url=f"https://ex.org/{number}"))
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _damage_page(path: Path, page_number: int) -> None:
    """Overwrite one database page (1-based) with garbage, as a bad disk sector would."""
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(path, "r+b") as handle:
        handle.seek((page_number - 1) * page_size)
        handle.write(b"\xde\xad\xbe\xef" * (page_size // 4))


def blocksift(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "blocksift", *args], capture_output=True,
                          text=True, timeout=300, env=env)


def test_a_damaged_examples_database_is_refused_then_rebuilt_from_what_is_readable(tmp_path):
    path = tmp_path / "examples.sqlite3"
    _fill(path, 60)
    _damage_page(path, 20)  # a page in the middle of the table
    with pytest.raises(DamagedStore) as refused:
        ExampleStore(path)
    assert "blocksift examples repair" in str(refused.value)
    (note,) = health.problems([tmp_path])
    assert note["store"] == "examples" and note["state"] == "refused"

    report = repair(path)
    assert report["damaged"] and 30 <= report["recovered"] < 60, report
    aside = Path(report["keptAside"][0])
    assert aside.exists() and aside.read_bytes()[:16] == b"SQLite format 3\x00"
    with ExampleStore(path) as store:
        kept = {e.id: e for e in store.all()}
        assert len(kept) == report["recovered"]
        assert all(e.main_text == f"text {e.id - 1}" for e in kept.values())  # ids kept
    (note,) = health.problems([tmp_path])
    assert note["state"] == "repaired" and note["keptAside"][0] == str(aside)
    assert repair(path)["damaged"] is False  # a readable database is left alone


def test_the_cli_reports_damage_in_one_line_and_repairs(tmp_path):
    home = tmp_path / "home"
    listed = blocksift("examples", "list", home=home)
    assert listed.returncode == 0 and "no examples yet" in listed.stdout
    assert not (home / "data" / "examples.sqlite3").exists()  # reading never creates it
    path = home / "data" / "examples.sqlite3"
    _fill(path, 40)
    _damage_page(path, 1)  # the header page: nothing is readable
    listed = blocksift("examples", "list", home=home)
    assert listed.returncode == 2 and "Traceback" not in listed.stderr
    assert "damaged" in listed.stderr and "examples repair" in listed.stderr
    assert len(listed.stderr.strip().splitlines()) == 1
    doctor = blocksift("doctor", "--json", "--no-round-trip", home=home)
    notes = json.loads(doctor.stdout)["notes"]
    assert any("examples database" in n and "refused until repaired" in n for n in notes), notes
    repaired = blocksift("examples", "repair", home=home)
    assert repaired.returncode == 0 and "kept at" in repaired.stdout, repaired.stderr
    assert blocksift("examples", "list", home=home).returncode == 0


def test_a_replaced_site_store_is_reported_with_how_to_restore_it(tmp_path):
    path = tmp_path / "sites.sqlite3"
    path.write_bytes(b"not a database" * 200)
    with SiteStore(path):
        pass
    (note,) = health.problems([tmp_path])
    assert note["store"] == "sites" and note["state"] == "replaced"
    aside = note["keptAside"][0]
    assert Path(aside).exists() and aside in note["restore"] and "mv" in note["restore"]


def test_one_examples_store_per_process_even_when_requests_race(tmp_path):
    service = Service(ServiceConfig(examples_path=str(tmp_path / "examples.sqlite3")))
    stores: list[object] = []
    start = threading.Barrier(8)

    def open_store() -> None:
        start.wait()
        stores.append(service.example_store())

    threads = [threading.Thread(target=open_store) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(store) for store in stores}) == 1
    service.example_store().close()

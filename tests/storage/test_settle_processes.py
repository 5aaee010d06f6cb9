"""Several processes settling one examples store at once, as two browsers' hosts and the CLI
may: a real SQLite file, real site files, real processes started together."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from test_replace import HOST, PAGE, RIGHT, URL, _counts, _expected

from blocksift.storage.examples import Example, ExampleStore

SETTLER = """
import pathlib, sys, time
sys.path.insert(0, {host!r})
from blocksift.storage.examples import ExampleStore
start = float(sys.argv[3])
while time.time() < start:  # all start together, so their settles overlap
    time.sleep(0.001)
with ExampleStore(sys.argv[1]) as store:
    print(store.settle(pathlib.Path(sys.argv[2])))
"""


def test_processes_settling_at_once_count_every_change_once(tmp_path: Path):
    sites = tmp_path / "sites"
    pages = [(PAGE.replace("Rock pools", f"Rock pools {i}"), RIGHT, f"{URL}/{i}")
             for i in range(12)]
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        for html, gold, url in pages:
            store.save(Example(html=html, main_text=gold, url=url))
        assert store.pending() == len(pages)
    script = tmp_path / "settle.py"
    script.write_text(SETTLER.format(host=str(HOST)))
    start = time.time() + 2.0  # past the four interpreters' start-up
    procs = [subprocess.Popen([sys.executable, str(script), str(tmp_path / "ex.sqlite3"),
                               str(sites), str(start)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=300) for p in procs]
    failed = [err for (_, err), p in zip(outs, procs) if p.returncode]
    assert not failed, failed[0][-2000:]
    # each change is taken off the journal, and counted, by exactly one of them
    assert sum(int(out) for out, _ in outs) == len(pages)
    with ExampleStore(tmp_path / "ex.sqlite3") as store:
        assert store.pending() == 0
    assert _counts(sites) == _expected(tmp_path, *pages)
    assert not list(sites.glob("*.tmp"))
    # each took the lock files of the sites it wrote away once done, a held one left to its
    # holder (which took it away in turn): none is left, and no count was lost meanwhile
    assert not list(sites.glob("*.lock"))

"""Lock files taken away only while no process holds them: real files, real processes
holding and taking the sites' locks (:func:`blocksift.algorithms.segmenter.adapt.site_lock`)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from blocksift.storage.locks import remove_idle_locks

HOST = Path(__file__).resolve().parents[2] / "host"

HOLDER = """
import pathlib, sys
sys.path.insert(0, {host!r})
from blocksift.algorithms.segmenter.adapt import site_lock
with site_lock(pathlib.Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()
"""

#: Adds 1 to a counter file ``rounds`` times, each read-modify-write under the site's lock
#: (a pause inside, so that two holders at once would lose a count).
COUNTER = """
import pathlib, sys, time
sys.path.insert(0, {host!r})
from blocksift.algorithms.segmenter.adapt import site_lock
site, counter, rounds = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
for _ in range(rounds):
    with site_lock(site):
        value = int(counter.read_text())
        time.sleep(0.002)
        counter.write_text(str(value + 1))
"""


def test_a_held_lock_stays_and_goes_once_released(tmp_path: Path):
    sites = tmp_path / "sites"
    sites.mkdir()
    held = sites / "a.example.json"
    (sites / "b.example.json.lock").write_bytes(b"")
    (sites / "b.example.json.tmp").write_text("{half")  # a write cut short
    script = tmp_path / "hold.py"
    script.write_text(HOLDER.format(host=str(HOST)))
    holder = subprocess.Popen([sys.executable, str(script), str(held)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == "held\n"
        (sites / "a.example.json.tmp").write_text("{being written")
        assert remove_idle_locks(sites) == [sites / "a.example.json.lock"]
        assert sorted(p.name for p in sites.iterdir()) == ["a.example.json.lock",
                                                            "a.example.json.tmp"]
    finally:
        holder.communicate("\n", timeout=60)
    assert holder.returncode == 0
    assert remove_idle_locks(sites) == []
    assert list(sites.iterdir()) == []


def test_removing_locks_never_lets_two_processes_hold_one(tmp_path: Path):
    """Two processes counting under a site's lock while its lock file is taken away again
    and again: a peer that opened the file before it went must not hold the lock beside
    one that made a new file (a count would be lost)."""
    sites = tmp_path / "sites"
    sites.mkdir()
    site, counter = sites / "c.example.json", tmp_path / "counter"
    counter.write_text("0")
    script = tmp_path / "count.py"
    script.write_text(COUNTER.format(host=str(HOST)))
    rounds = 40
    procs = [subprocess.Popen([sys.executable, str(script), str(site), str(counter),
                               str(rounds)], stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    removals = 0
    while any(p.poll() is None for p in procs):
        if (sites / "c.example.json.lock").exists() and not remove_idle_locks(sites):
            removals += 1
        time.sleep(0.0005)  # far oftener than a run (once, at its end): the race is met
    errors = [p.stderr.read() for p in procs if p.returncode]
    assert not errors, errors[0][-2000:]
    assert int(counter.read_text()) == 2 * rounds
    assert removals  # the lock file did go while they counted
    assert remove_idle_locks(sites) == [] and list(sites.iterdir()) == []

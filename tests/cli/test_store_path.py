"""A store path the user names on the command line (``examples --store FILE``): a file that is
not a database is refused before its folder is touched, the user's folder keeps its mode and
gets no file of ours. A real process in a real folder, as a user runs it."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from cli_process import REPO

RECORD = {"html": "<p>The tide comes in twice a day on this coast.</p>",
          "gold": "The tide comes in twice a day on this coast.",
          "url": "https://tides.example/today"}


def _run(folder: Path, home: Path, *args: str, command: str = "examples"
         ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "blocksift", command, *args],
                          capture_output=True, text=True, timeout=300, env=env, cwd=folder)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "notes.txt").write_text("my notes\n")
    (folder / "pages.jsonl").write_text(json.dumps(RECORD) + "\n")
    (folder / "drafts").mkdir()
    folder.chmod(0o755)
    return folder


def _state(folder: Path) -> dict[str, tuple[int, bytes | None]]:
    return {p.name: (stat.S_IMODE(p.stat().st_mode), None if p.is_dir() else p.read_bytes())
            for p in [folder, *folder.iterdir()]}


def test_a_file_named_by_mistake_is_refused_and_its_folder_left_as_it_was(tmp_path: Path):
    folder, home = _folder(tmp_path), tmp_path / "home"
    before = _state(folder)
    assert before["work"][0] == 0o755
    for args in (["--store", "notes.txt", "import", "pages.jsonl"],
                 ["--store", "notes.txt", "list"],
                 ["--store", "notes.txt", "repair"],  # would move the file aside
                 ["--store", "drafts", "import", "pages.jsonl"]):
        refused = _run(folder, home, *args)
        assert refused.returncode == 2, (args, refused.stderr)
        assert "not an examples database" in refused.stderr, refused.stderr
        assert "repair" not in refused.stderr  # no way out that would move it
        assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.stderr
        assert _state(folder) == before, args  # its mode, its files, their bytes
    # nor a note of it in blocksift's own folder: nothing there is damaged
    assert not list(home.rglob("store-problems.json"))


def test_a_new_store_in_the_users_folder_leaves_the_folder_mode(tmp_path: Path):
    folder, home = _folder(tmp_path), tmp_path / "home"
    done = _run(folder, home, "--store", "mine.sqlite3", "import", "pages.jsonl")
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert stat.S_IMODE((folder / "mine.sqlite3").stat().st_mode) == 0o600  # the file is
    assert not (folder / "store-problems.json").exists()
    listed = _run(folder, home, "--store", "mine.sqlite3", "list")
    assert listed.returncode == 0 and "tides.example/today" in listed.stdout


def test_a_file_named_as_the_site_store_is_not_moved_aside(tmp_path: Path):
    """`cluster --store notes.txt` took the text file for a damaged site store: renamed it
    notes.txt.corrupt-..., put a fresh store in its place, made the folder 0700, wrote
    store-problems.json there, and said "no sites learned yet" (exit 0)."""
    folder, home = _folder(tmp_path), tmp_path / "home"
    before = _state(folder)
    for store in ("notes.txt", "drafts"):
        refused = _run(folder, home, "--store", store, command="cluster")
        assert refused.returncode == 2, refused.stdout + refused.stderr
        # a folder: "no site store at drafts", as before
        assert store in refused.stderr and "site store" in refused.stderr, refused.stderr
        assert _state(folder) == before
    assert not list(home.rglob("store-problems.json"))

"""What happened to the user's stores: damaged files kept aside, and how to restore them.

A store that SQLite cannot read is never deleted. The site store is renamed aside and a fresh
one started (learning goes on); the examples database is left in place and refused until the
user repairs it (``blocksift examples repair`` or the options page). Either way a note is
written beside the store (``store-problems.json`` in its folder), so the user hears of it
from ``blocksift doctor``, the ``hello`` reply and the options page, not only from a log
line. A note stays while the store is refused or the file kept aside still exists.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

_LOCK = threading.Lock()


NOTES_FILE = "store-problems.json"


def notes_path(folder: Path | None = None) -> Path:
    """The notes of the stores in ``folder`` (default: the data dir, where stores live)."""
    if folder is None:
        from ..paths import data_dir

        folder = data_dir()
    return Path(folder) / NOTES_FILE


def _read(folder: Path | None = None) -> list[dict[str, Any]]:
    try:
        notes = json.loads(notes_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [note for note in notes if isinstance(note, dict)] if isinstance(notes, list) else []


def _write(notes: list[dict[str, Any]], folder: Path | None = None) -> None:
    from ..paths import write_atomic

    write_atomic(notes_path(folder), json.dumps(notes, indent=1))


def report(store: str, path: Path, problem: str, kept_aside: list[Path], restore: str,
           state: str) -> dict[str, Any]:
    """Record a problem with a store. ``state``: ``replaced`` (a fresh store took its place),
    ``refused`` (the store is unusable until repaired) or ``repaired``."""
    note = {"store": store, "path": str(path), "problem": problem, "state": state,
            "keptAside": [str(p) for p in kept_aside], "restore": restore,
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    with _LOCK:
        notes = [n for n in _read(path.parent)
                 if not (n.get("store") == store and n.get("path") == str(path)
                         and n.get("state") == state and n.get("keptAside") == note["keptAside"])]
        notes.append(note)
        try:
            _write(notes[-20:], path.parent)
        except OSError:
            pass  # the caller logs the problem too; a read-only state dir must not crash it
    return note


def clear(store: str, path: Path, state: str) -> None:
    """Forget notes in ``state`` for one store (e.g. ``refused`` once it opens again)."""
    with _LOCK:
        notes = _read(path.parent)
        kept = [n for n in notes if not (n.get("store") == store and n.get("path") == str(path)
                                         and n.get("state") == state)]
        if len(kept) != len(notes):
            try:
                _write(kept, path.parent)
            except OSError:
                pass


def problems(folders: list[Path | None] | None = None) -> list[dict[str, Any]]:
    """Current notes of the stores in ``folders`` (default: the data dir): those whose store
    is still refused or whose kept-aside file still exists."""
    found: list[dict[str, Any]] = []
    seen: set[Path] = set()
    for folder in folders or [None]:
        path = notes_path(folder)
        if path in seen:
            continue
        seen.add(path)
        found.extend(n for n in _read(folder)
                     if n.get("state") == "refused"
                     or any(Path(p).exists() for p in n.get("keptAside", [])))
    return found



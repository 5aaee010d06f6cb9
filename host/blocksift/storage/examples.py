"""Labeled examples the user captured while browsing, kept in SQLite in the user's data dir.

An example is a page snapshot with what the user said is its main text and which blocks are
link or ad blocks, plus the algorithm output they corrected. Examples export to the format of
the shared dev datasets, so they feed ``blocksift eval`` and ``blocksift train farsw``.

Durability: the database runs in WAL mode with ``synchronous=FULL``; every save is one
transaction, so a crash (even SIGKILL mid-write) loses at most the save in progress and never
a committed one. Privacy: the file and its folder are readable by the user only, nothing is
stored for private windows, and nothing leaves the machine.
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..paths import move_aside
from ..sites import site_key

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS examples (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT,
    site TEXT,
    created REAL NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    lang TEXT,
    html TEXT NOT NULL,
    main_ids TEXT NOT NULL DEFAULT '[]',
    main_text TEXT NOT NULL DEFAULT '',
    blocks TEXT NOT NULL DEFAULT '[]',
    algorithm TEXT NOT NULL DEFAULT '',
    algorithm_output TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS examples_site ON examples(site);
"""


class ExampleError(ValueError):
    """An example cannot be stored as given (private window, empty page, ...)."""


class DamagedStore(RuntimeError):
    """SQLite cannot read the examples database; it is refused until repaired."""

    def __init__(self, path: Path, problem: str):
        super().__init__(f"the examples database {path} is damaged ({problem}); repair it "
                         "with `blocksift examples repair` or from the extension's options "
                         "page (the damaged file is kept aside, never deleted)")
        self.path = path
        self.problem = problem


def _restore_hint(path: Path) -> str:
    return (f"Run `blocksift examples repair` (or use Repair on the options page): the "
            f"damaged {path.name} is kept aside and every example SQLite can still read is "
            "copied into a fresh database.")


@dataclass
class Example:
    """One labeled page."""

    html: str
    main_text: str
    url: str | None = None
    title: str = ""
    lang: str | None = None
    main_ids: list[str] = field(default_factory=list)
    blocks: list[dict[str, Any]] = field(default_factory=list)  # {"kind", "ids", "text"}
    algorithm: str = ""
    algorithm_output: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    created: float = 0.0

    @property
    def site(self) -> str | None:
        return site_of(self.url)

    def summary(self) -> dict[str, Any]:
        return {"exampleId": self.id, "url": self.url, "title": self.title,
                "created": self.created, "site": self.site, "mainChars": len(self.main_text),
                "mainIds": len(self.main_ids), "blocks": len(self.blocks),
                "algorithm": self.algorithm}


def site_of(url: str | None) -> str | None:
    """The site of ``url`` (:func:`blocksift.sites.site_key`): how examples are grouped."""
    return site_key(url)


def default_path() -> Path:
    from ..paths import data_dir

    return data_dir() / "examples.sqlite3"


class ExampleStore:
    """The examples database. Safe to share between threads of one process."""

    def __init__(self, path: Path | None = None):
        from ..paths import ensure_private_dir

        self.path = Path(path) if path else default_path()
        ensure_private_dir(self.path.parent)
        fresh = not self.path.exists()
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30,
                                     isolation_level=None)
        if fresh:
            os.chmod(self.path, 0o600)
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(_SCHEMA)
            self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            check = self._conn.execute("PRAGMA quick_check(1)").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(str(check[0] if check else "quick_check failed"))
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            if is_transient(exc):
                raise
            from . import health

            health.report("examples", self.path, f"SQLite cannot read it ({exc})", [],
                          _restore_hint(self.path), state="refused")
            raise DamagedStore(self.path, str(exc)) from None
        from . import health

        health.clear("examples", self.path, "refused")
        for suffix in ("-wal", "-shm"):
            sidecar = Path(str(self.path) + suffix)
            if sidecar.exists():
                os.chmod(sidecar, 0o600)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> ExampleStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------

    def add(self, example: Example) -> int:
        """Store ``example`` in one transaction and return its id."""
        if not example.html.strip():
            raise ExampleError("the page snapshot is empty")
        created = example.created or time.time()
        row = (example.url, example.site, created, example.title, example.lang, example.html,
               json.dumps(example.main_ids), example.main_text, json.dumps(example.blocks),
               example.algorithm, json.dumps(example.algorithm_output))
        with self._lock:
            cursor = self._conn.execute(
                "INSERT INTO examples (url, site, created, title, lang, html, main_ids, "
                "main_text, blocks, algorithm, algorithm_output) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            return int(cursor.lastrowid or 0)

    def delete(self, example_id: int) -> bool:
        with self._lock:
            cursor = self._conn.execute("DELETE FROM examples WHERE id = ?", (example_id,))
            return cursor.rowcount > 0

    # -- reading --------------------------------------------------------------------------

    def count(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM examples").fetchone()[0])

    def get(self, example_id: int) -> Example | None:
        with self._lock:
            row = self._conn.execute("SELECT * FROM examples WHERE id = ?",
                                     (example_id,)).fetchone()
            columns = [d[0] for d in self._conn.execute("SELECT * FROM examples LIMIT 0")
                       .description]
        return _example(dict(zip(columns, row))) if row else None

    def list(self, limit: int = 100, offset: int = 0) -> list[Example]:
        """Newest first."""
        return list(self._iter("ORDER BY id DESC LIMIT ? OFFSET ?", (limit, offset)))

    def all(self) -> Iterator[Example]:
        """Oldest first (export order)."""
        return self._iter("ORDER BY id", ())

    def added_after(self, example_id: int) -> Iterator[Example]:
        """The examples stored after ``example_id`` (0: all), oldest first."""
        return self._iter("WHERE id > ? ORDER BY id", (example_id,))

    def _iter(self, clause: str, args: tuple[Any, ...]) -> Iterator[Example]:
        with self._lock:
            cursor = self._conn.execute(f"SELECT * FROM examples {clause}", args)
            columns = [d[0] for d in cursor.description]
            rows = cursor.fetchall()
        for row in rows:
            yield _example(dict(zip(columns, row)))

    def integrity(self) -> str:
        with self._lock:
            return str(self._conn.execute("PRAGMA integrity_check").fetchone()[0])

    # -- export / import ------------------------------------------------------------------

    def export(self, path: Path, with_blocks: bool = False) -> int:
        """Write every example as the shared datasets' JSONL (gzip when the name ends .gz).

        Fields: ``id`` (``example-<n>``), ``url``, ``lang``, ``site``, ``host``,
        ``site_source``, ``html``, ``gold`` (the main text, paragraphs on separate lines);
        ``with_blocks`` adds ``marked_blocks`` (the link/ad blocks the user marked).
        """
        path = Path(path)
        if path.is_dir() or not path.suffix:
            path.mkdir(parents=True, exist_ok=True)
            path = path / "pages.jsonl.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".part")
        opener = gzip.open if path.suffix == ".gz" else open
        count = 0
        with opener(temporary, "wt", encoding="utf-8") as handle:
            for example in self.all():
                handle.write(json.dumps(export_record(example, with_blocks),
                                        ensure_ascii=False) + "\n")
                count += 1
        os.replace(temporary, path)  # a crash mid-export never leaves a half file
        return count

    def import_file(self, path: Path) -> int:
        """Add every record of a datasets-format file (the inverse of :meth:`export`).

        The whole file is read and checked first: a bad line (not JSON, no ``html``) or a
        damaged gzip stream is a :class:`~blocksift.labeled.DatasetError` naming it, and
        nothing is added, so that fixing the file and importing again does not add its
        first records twice."""
        from ..labeled import iter_records

        for _record in iter_records(path):
            pass
        added = 0
        for record in iter_records(path):
            self.add(Example(html=record["html"], main_text=record.get("gold") or "",
                             url=record.get("url"), lang=record.get("lang"),
                             title=record.get("title") or "",
                             blocks=record.get("marked_blocks") or [],
                             main_ids=record.get("main_ids") or []))
            added += 1
        return added


def repair(path: Path | None = None) -> dict[str, Any]:
    """Keep a damaged examples database aside and rebuild it from every row SQLite can read.

    Rows are copied with their ids; a full scan is tried first and, if it breaks on a
    damaged page, each id is read on its own so one bad page loses only its rows.
    """
    from . import health

    path = Path(path) if path else default_path()
    if not path.exists():
        return {"path": str(path), "recovered": 0, "keptAside": [], "damaged": False}
    problem = ""
    try:
        with closing(sqlite3.connect(path, timeout=30)) as probe:
            check = probe.execute("PRAGMA quick_check(1)").fetchone()
            if check is not None and check[0] == "ok":
                problem = ""
            else:
                problem = str(check[0] if check else "quick_check failed")
    except sqlite3.DatabaseError as exc:
        if is_transient(exc):
            raise
        problem = str(exc)
    if not problem:
        return {"path": str(path), "recovered": 0, "keptAside": [], "damaged": False}
    moved = move_aside(path)
    rows = _readable_rows(moved[0])
    with ExampleStore(path) as fresh, fresh._lock:
        fresh._conn.execute("BEGIN")
        for row in rows:
            fresh._conn.execute(
                "INSERT OR IGNORE INTO examples (id, url, site, created, title, lang, html, "
                "main_ids, main_text, blocks, algorithm, algorithm_output) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        fresh._conn.execute("COMMIT")
    health.clear("examples", path, "refused")
    health.report("examples", path, f"SQLite could not read it ({problem})", moved,
                  f"{len(rows)} example(s) were recovered into a fresh {path.name}; the "
                  f"damaged file stays at {moved[0]} until you delete it.", state="repaired")
    return {"path": str(path), "recovered": len(rows), "keptAside": [str(p) for p in moved],
            "damaged": True, "problem": problem}


def is_transient(exc: sqlite3.DatabaseError) -> bool:
    """A lock held by another process, not damage."""
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc)
                                                          or "busy" in str(exc))


_COLUMNS = ("id, url, site, created, title, lang, html, main_ids, main_text, blocks, "
            "algorithm, algorithm_output")


def _readable_rows(damaged: Path) -> list[tuple[Any, ...]]:
    """Every examples row SQLite can still read from ``damaged``."""
    rows: dict[int, tuple[Any, ...]] = {}
    try:
        conn = sqlite3.connect(damaged, timeout=30)
    except sqlite3.DatabaseError:
        return []
    with closing(conn):
        try:
            for row in conn.execute(f"SELECT {_COLUMNS} FROM examples ORDER BY id"):
                rows[row[0]] = row
            return list(rows.values())
        except sqlite3.DatabaseError:
            pass  # a damaged page: fall back to reading id by id
        highest = max(rows, default=0)
        for query in ("SELECT max(id) FROM examples", "SELECT seq FROM sqlite_sequence "
                      "WHERE name = 'examples'"):
            try:
                found = conn.execute(query).fetchone()
                highest = max(highest, int(found[0] or 0)) if found else highest
            except (sqlite3.DatabaseError, TypeError, ValueError):
                continue
        for example_id in range(1, highest + 1):
            if example_id in rows:
                continue
            try:
                row = conn.execute(f"SELECT {_COLUMNS} FROM examples WHERE id = ?",
                                   (example_id,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row is not None:
                rows[example_id] = row
    return [rows[key] for key in sorted(rows)]


def export_record(example: Example, with_blocks: bool = False) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": f"example-{example.id}", "url": example.url, "lang": example.lang,
        "site": example.site, "host": example.site,
        "site_source": "url" if example.url else None,
        "html": example.html, "gold": example.main_text,
    }
    if with_blocks:
        record["marked_blocks"] = example.blocks
        record["main_ids"] = example.main_ids
        record["title"] = example.title
    return record


def _example(row: dict[str, Any]) -> Example:
    return Example(id=row["id"], url=row["url"], created=row["created"], title=row["title"],
                   lang=row["lang"], html=row["html"], main_ids=json.loads(row["main_ids"]),
                   main_text=row["main_text"], blocks=json.loads(row["blocks"]),
                   algorithm=row["algorithm"],
                   algorithm_output=json.loads(row["algorithm_output"]))


def gold_from_ids(html: str, main_ids: list[str], url: str | None = None,
                  id_attr: str = "data-bsid") -> tuple[str, str]:
    """Main text and title of the elements the user selected, as the reader view renders it.

    Returns ``("", title)`` when no selected id is on the page.
    """
    from ..content import outermost, plain_text
    from ..page import Page

    page = Page(html, url=url, id_attr=id_attr)
    wanted = set(main_ids)
    chosen = outermost([el for el in page.iter_elements() if page.element_id(el) in wanted])
    # The datasets' gold has one paragraph per line.
    return plain_text(chosen).replace("\n\n", "\n"), page.title


def as_dict(example: Example) -> dict[str, Any]:
    data = asdict(example)
    data["site"] = example.site
    return data

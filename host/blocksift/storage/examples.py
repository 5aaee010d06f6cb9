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
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..paths import move_aside
from ..sites import site_key

#: 2: the ``replaced`` and ``adapt_journal`` tables (a version-1 file gains them on open).
SCHEMA_VERSION = 2
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
CREATE TABLE IF NOT EXISTS replaced (
    id INTEGER PRIMARY KEY,
    replaced_by INTEGER NOT NULL,
    replaced_at REAL NOT NULL,
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
CREATE INDEX IF NOT EXISTS replaced_by ON replaced(replaced_by);
CREATE TABLE IF NOT EXISTS adapt_journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    change TEXT NOT NULL,
    url TEXT NOT NULL,
    removed TEXT NOT NULL DEFAULT '[]',
    added TEXT NOT NULL DEFAULT '[]'
);
"""


class ExampleError(ValueError):
    """An example cannot be stored as given (private window, empty page, ...)."""


class AdaptationNotWritten(OSError):
    """A site's adaptation file could not be written; the change stays journaled."""

    def __init__(self, site: str, problem: OSError):
        super().__init__(f"auto's adaptation to {site} was not updated ({problem})")
        self.site = site
        self.problem = problem


class DamagedStore(RuntimeError):
    """SQLite cannot read the examples database; it is refused until repaired."""

    def __init__(self, path: Path, problem: str):
        super().__init__(f"the examples database {path} is damaged ({problem}); repair it "
                         "with `blocksift examples repair` or from the extension's options "
                         "page (the damaged file is kept aside, never deleted)")
        self.path = path
        self.problem = problem


class NotAStore(RuntimeError):
    """A store was named where a file that is not an SQLite database is: refused before its
    folder or the file is touched (no repair offered: it would move the file aside)."""

    def __init__(self, path: Path, what: str):
        super().__init__(f"{path} is not an examples database ({what}); name one, or a "
                         "new file name to start one")
        self.path = path


def check_store_file(path: Path) -> None:
    """Refuse (:class:`NotAStore`) a ``path`` outside blocksift's data dir that is there and
    is not an SQLite database (a folder, or a file of other bytes): a file named by mistake
    is left as it is, and so is its folder. An empty file is taken, as SQLite takes it. In
    blocksift's own folder such a file is damage (:class:`DamagedStore`, repairable)."""
    from ..paths import is_own_folder, not_sqlite

    if is_own_folder(path.parent):
        return
    problem = not_sqlite(path)
    if problem:
        raise NotAStore(path, problem)


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
    #: the newest example this one replaced, kept restorable (:meth:`ExampleStore.save`)
    replaces: int | None = None
    #: set on a replaced example (:meth:`ExampleStore.get` finds those too): the one now stored
    replaced_by: int | None = None

    @property
    def site(self) -> str | None:
        return site_of(self.url)

    def summary(self) -> dict[str, Any]:
        return {"exampleId": self.id, "url": self.url, "title": self.title,
                "created": self.created, "site": self.site, "mainChars": len(self.main_text),
                "mainIds": len(self.main_ids), "blocks": len(self.blocks),
                "algorithm": self.algorithm, "replaces": self.replaces}


def site_of(url: str | None) -> str | None:
    """The site of ``url`` (:func:`blocksift.sites.site_key`): how examples are grouped."""
    return site_key(url)


def page_key(url: str | None) -> str | None:
    """Which page ``url`` names, for "has this page an example already": the URL without its
    fragment (``#section`` is a place in the page, not another page), scheme and host in lower
    case (they are case-insensitive). Path and query are kept as written: they may select
    another document, and taking two pages for one would replace a label of the other.
    None (never the same page as anything) without a URL or a site."""
    if not url or site_of(url) is None:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path, parts.query,
                       ""))


@dataclass
class ImportReport:
    """What :meth:`ExampleStore.import_records` did: ids added, and (url, why) skipped."""

    added: list[int] = field(default_factory=list)
    replaced: list[int] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: (address, where from) of each record without a usable ``url`` read under the address
    #: its page names for itself (:func:`blocksift.labeled.record_address`)
    own_address: list[tuple[str, str]] = field(default_factory=list)
    #: records added with no address at all (no usable ``url``, and their page names none):
    #: stored, but of no site, so they adapt none
    no_address: int = 0


#: What an import does with a record of a page the store already holds an example of.
ON_DUPLICATE = ("skip", "replace", "keep")


@dataclass
class UndoImportReport:
    """What :meth:`ExampleStore.undo_import` did with an import's ids."""

    #: imported examples deleted
    removed: list[int] = field(default_factory=list)
    #: earlier labels an imported example had replaced, stored again with their own ids
    restored: list[int] = field(default_factory=list)
    #: how many imported ids are no longer stored (deleted since, or replaced since by a
    #: newer label of their page): left alone...
    missing: int = 0
    #: ... and the first :data:`MISSING_LISTED` of them
    missing_ids: list[int] = field(default_factory=list)
    #: of the missing, how many a newer label of their page replaced (the rest were deleted)
    relabeled: int = 0


#: How many ids an :class:`UndoImportReport` lists of those it left alone (it counts all).
MISSING_LISTED = 100


def id_ranges_merged(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` sorted, with overlapping or touching runs made one: each id once."""
    merged: list[tuple[int, int]] = []
    for first, last in sorted((int(a), int(b)) for a, b in ranges if int(a) <= int(b)):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def id_ranges(ids: Iterable[int]) -> list[tuple[int, int]]:
    """``ids`` as sorted inclusive ``(first, last)`` runs: an import's ids are consecutive
    (one transaction), so its thousands of ids are one pair (:meth:`ExampleStore.undo_import`)."""
    runs: list[tuple[int, int]] = []
    for value in sorted(set(ids)):
        if runs and value == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], value)
        else:
            runs.append((value, value))
    return runs


def default_path() -> Path:
    from ..paths import data_dir

    return data_dir() / "examples.sqlite3"


class ExampleStore:
    """The examples database. Safe to share between threads of one process."""

    def __init__(self, path: Path | None = None):
        from ..paths import prepare_folder

        self.path = Path(path) if path else default_path()
        check_store_file(self.path)  # before its folder is touched
        prepare_folder(self.path.parent)
        fresh = not self.path.exists()
        self._lock = threading.Lock()
        self._settle_lock = threading.Lock()
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
            if is_transient(exc) or is_unwritable(exc):
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
        """Store ``example`` in one transaction and return its id: nothing else (no other
        example of its page is replaced, no site adaptation; :meth:`save` does both)."""
        with self._lock, self._transaction():
            return self._insert(example)

    def save(self, example: Example, replace: bool = True,
             restore: bool = False) -> tuple[int, list[int]]:
        """Store a labeled example and return its id and the ids it replaced.

        With ``replace``, the examples stored for the same page (:func:`page_key`) are
        replaced: in the same transaction they leave the list (kept restorable in the
        ``replaced`` table: :meth:`get` still finds them, one step back per page), and the
        change of the site's adaptation (their counts out, the new page's in) is written to
        the journal; :meth:`settle` then applies it to the site file as one write. A crash
        anywhere leaves either nothing done, or the change journaled and applied by the next
        :meth:`settle` exactly once.

        With ``restore`` (Undo of a delete), the example keeps its ``created`` date and its
        ``id`` where that number is free and was given out by this store before (a deleted
        example's), so it comes back at its place in the list and the export; otherwise it
        gets a new number."""
        with self._lock, self._transaction():
            return self._save(example, replace, restore)

    def _save(self, example: Example, replace: bool,
              restore: bool = False) -> tuple[int, list[int]]:
        key = page_key(example.url) if replace else None
        old = self._same_page(key) if key else []
        new_id = self._insert(example, keep_id=restore and example.id is not None
                              and self._free_id(example.id))
        ids = [row[0] for row in old]
        if ids:
            marks = ",".join("?" * len(ids))
            # one step back: what the replaced examples had replaced goes for good
            self._conn.execute(f"DELETE FROM replaced WHERE replaced_by IN ({marks})", ids)
            self._conn.execute(
                f"INSERT INTO replaced (id, replaced_by, replaced_at, {_DATA}) "
                f"SELECT id, ?, ?, {_DATA} FROM examples WHERE id IN ({marks})",
                [new_id, time.time(), *ids])
            self._conn.execute(f"DELETE FROM examples WHERE id IN ({marks})", ids)
        self._journal(example.url, [(row[1], row[2]) for row in old],
                      [(example.html, example.main_text)])
        return new_id, ids

    def delete(self, example_id: int) -> bool:
        """Delete an example (and the one it replaced, kept restorable until now), its counts
        taken out of its site's adaptation by the next :meth:`settle`."""
        with self._lock, self._transaction():
            row = self._conn.execute("SELECT url, html, main_text FROM examples WHERE id = ?",
                                     (example_id,)).fetchone()
            if row is None:
                return False
            self._conn.execute("DELETE FROM examples WHERE id = ?", (example_id,))
            self._conn.execute("DELETE FROM replaced WHERE replaced_by = ?", (example_id,))
            self._journal(row[0], [(row[1], row[2])], [])
            return True

    def undo_import(self, ranges: Iterable[tuple[int, int]]) -> UndoImportReport:
        """Take back an import (:meth:`import_records`) whose added ids lie in ``ranges``
        (inclusive ``(first, last)`` runs, :func:`id_ranges`), in one transaction.

        Each imported example still stored is deleted, as :meth:`delete` does; each earlier
        label it replaced (``--on-duplicate replace``; kept in ``replaced``) goes back into
        the list as it was, with its id, date and data, as before the import. Both go to the
        site adaptation journal as one change of the page (its counts out, the earlier
        label's in: the import's change reversed), so that after :meth:`settle` each site's
        counts are what they were before the import. An id no longer stored (deleted since,
        or replaced since by a newer label of its page, which stays) is left alone and
        reported in ``missing``; undoing twice does nothing the second time."""
        report = UndoImportReport()
        with self._lock, self._transaction():
            given = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = "
                                       "'examples'").fetchone()
            highest = int(given[0] or 0) if given else 0
            for first, last in id_ranges_merged(ranges):
                # a number never given out was imported by no one: not counted as missing
                first, last = max(1, first), min(last, highest)
                if first > last:
                    continue
                # ids first, each page then on its own: thousands of pages are not held at once
                rows = [row[0] for row in self._conn.execute(
                    "SELECT id FROM examples WHERE id BETWEEN ? AND ? ORDER BY id",
                    (first, last)).fetchall()]
                report.missing += last - first + 1 - len(rows)
                report.relabeled += int(self._conn.execute(
                    "SELECT COUNT(*) FROM replaced WHERE id BETWEEN ? AND ?", (first, last)
                    ).fetchone()[0])
                if len(report.missing_ids) < report.missing:
                    stored = set(rows)
                    for value in range(first, last + 1):
                        if len(report.missing_ids) >= MISSING_LISTED:
                            break
                        if value not in stored:
                            report.missing_ids.append(value)
                for example_id in rows:
                    url, html, main_text = self._conn.execute(
                        "SELECT url, html, main_text FROM examples WHERE id = ?",
                        (example_id,)).fetchone()
                    earlier = self._conn.execute(
                        "SELECT id, html, main_text FROM replaced WHERE replaced_by = ? "
                        "ORDER BY id", (example_id,)).fetchall()
                    self._conn.execute("DELETE FROM examples WHERE id = ?", (example_id,))
                    if earlier:
                        marks = ",".join("?" * len(earlier))
                        ids = [row[0] for row in earlier]
                        self._conn.execute(
                            f"INSERT INTO examples (id, {_DATA}) SELECT id, {_DATA} "
                            f"FROM replaced WHERE id IN ({marks})", ids)
                        self._conn.execute(f"DELETE FROM replaced WHERE id IN ({marks})", ids)
                        report.restored.extend(ids)
                    self._journal(url, [(html, main_text)],
                                  [(row[1], row[2]) for row in earlier])
                    report.removed.append(example_id)
        return report

    def delete_replaced(self, example_id: int) -> int | None:
        """Drop for good an earlier label kept restorable (:meth:`save` replaced it); returns
        the example that replaced it (which stays), or None when ``example_id`` is no such
        label. Its counts left its site's adaptation when it was replaced: nothing to settle."""
        with self._lock, self._transaction():
            row = self._conn.execute("SELECT replaced_by FROM replaced WHERE id = ?",
                                     (example_id,)).fetchone()
            if row is None:
                return None
            self._conn.execute("DELETE FROM replaced WHERE id = ?", (example_id,))
            return int(row[0])

    def settle(self, directory: Path | None = None,
               progress: Callable[[], object] | None = None) -> int:
        """Apply the journaled site adaptation changes, oldest first; returns how many.

        Each change is one write of its site file and names itself in it, so one applied
        before a crash (file written, journal not yet cleared) is not counted again. A change
        that fails stays journaled, with the later changes of its site (their order
        matters); other sites' changes still go in, then the first error is raised
        (:class:`AdaptationNotWritten` for a file that cannot be written). The next call
        tries again. ``progress`` is called after each change applied.

        Other processes may settle the same store at once (each browser starts its own
        host): the site file's lock (:func:`adapt.site_lock`) and the change names make each
        change count once, and it is counted by the process that takes it off the journal.

        Once done, the lock files of the sites it wrote are taken away, each only while no
        process holds it (:func:`blocksift.storage.locks.remove_idle_locks`): a held one (a
        peer writing that site meanwhile) stays, and so does its update."""
        from ..algorithms.segmenter import adapt
        from .locks import remove_idle_locks

        done = 0
        blocked: set[str] = set()
        touched: set[str] = set()
        failure: Exception | None = None
        with self._settle_lock:
            with self._lock:
                queued = self._conn.execute("SELECT id, url FROM adapt_journal ORDER BY id"
                                            ).fetchall()
            try:
                for journal_id, url in queued:
                    site = site_of(url) or ""
                    if site in blocked:
                        continue
                    with self._lock:
                        row = self._conn.execute("SELECT change, removed, added FROM"
                                                 " adapt_journal WHERE id = ?",
                                                 (journal_id,)).fetchone()
                    if row is None:
                        continue  # another process (a second browser's host, the CLI) did it
                    touched.add(adapt.site_key(url))
                    try:
                        adapt.apply_change(url,
                                           removed=[tuple(p) for p in json.loads(row[1])],
                                           added=[tuple(p) for p in json.loads(row[2])],
                                           change=row[0], directory=directory)
                    except Exception as exc:  # noqa: BLE001 -- kept journaled, raised below
                        blocked.add(site)
                        if failure is None:
                            failure = (AdaptationNotWritten(site, exc)
                                       if isinstance(exc, OSError) else exc)
                        continue
                    with self._lock:
                        gone = self._conn.execute("DELETE FROM adapt_journal WHERE id = ?",
                                                  (journal_id,)).rowcount
                    if not gone:
                        continue  # applied by another process meanwhile (counted once)
                    done += 1
                    if progress is not None:
                        progress()
            finally:
                touched.discard("")
                if touched:  # a few system calls a site: the reply waits no longer
                    remove_idle_locks(directory or adapt.sites_dir(), touched)
        if failure is not None:
            raise failure
        return done

    def pending(self) -> int:
        """Site adaptation changes journaled and not yet applied (:meth:`settle`)."""
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM adapt_journal").fetchone()[0])

    def _transaction(self) -> Any:
        conn = self._conn

        class _Tx:
            def __enter__(self) -> None:
                conn.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind: Any, *_: Any) -> None:
                conn.execute("ROLLBACK" if kind is not None else "COMMIT")

        return _Tx()

    def _insert(self, example: Example, keep_id: bool = False) -> int:
        if not example.html.strip():
            raise ExampleError("the page snapshot is empty")
        created = example.created or time.time()
        row = (example.id if keep_id else None, example.url, example.site, created,
               example.title, example.lang, example.html, json.dumps(example.main_ids),
               example.main_text, json.dumps(example.blocks), example.algorithm,
               json.dumps(example.algorithm_output))
        cursor = self._conn.execute(
            f"INSERT INTO examples (id, {_DATA}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row)
        return int(cursor.lastrowid or 0)

    def _free_id(self, example_id: int) -> bool:
        """Whether ``example_id`` may be given back: a number this store gave out before
        (never one past its counter, which would move the next new example's number) that no
        stored or replaced example holds now."""
        if not isinstance(example_id, int) or example_id < 1:
            return False
        given = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'examples'"
                                   ).fetchone()
        if given is None or example_id > int(given[0] or 0):
            return False
        return not any(self._conn.execute(f"SELECT 1 FROM {table} WHERE id = ?",
                                          (example_id,)).fetchone()
                       for table in ("examples", "replaced"))

    def pending_changes(self) -> list[tuple[str, str | None]]:
        """(change id, url) of the journaled changes not yet applied, oldest first."""
        with self._lock:
            return [(row[0], row[1]) for row in self._conn.execute(
                "SELECT change, url FROM adapt_journal ORDER BY id").fetchall()]

    def _same_page(self, key: str) -> list[tuple[int, str, str]]:
        """(id, html, main text) of the stored examples of the page ``key``, oldest first."""
        rows = self._conn.execute(
            "SELECT id, url, html, main_text FROM examples WHERE site = ? ORDER BY id",
            (site_of(key),)).fetchall()
        return [(row[0], row[2], row[3]) for row in rows if page_key(row[1]) == key]

    def _journal(self, url: str | None, removed: list[tuple[str, str]],
                 added: list[tuple[str, str]]) -> None:
        """Record a change of ``url``'s site adaptation in the open transaction."""
        if site_of(url) is None or not (removed or added):
            return
        import uuid

        self._conn.execute(
            "INSERT INTO adapt_journal (change, url, removed, added) VALUES (?, ?, ?, ?)",
            (uuid.uuid4().hex, url, json.dumps(removed), json.dumps(added)))

    # -- reading --------------------------------------------------------------------------

    def count(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM examples").fetchone()[0])

    def get(self, example_id: int) -> Example | None:
        """The example ``example_id``: a stored one, or one replaced and kept restorable
        (``replaced_by`` then says which example replaced it)."""
        found = next(self._iter("WHERE id = ?", (example_id,)), None)
        if found is not None:
            return found
        with self._lock:
            cursor = self._conn.execute("SELECT * FROM replaced WHERE id = ?", (example_id,))
            columns = [d[0] for d in cursor.description]
            row = cursor.fetchone()
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
            cursor = self._conn.execute(
                "SELECT *, (SELECT max(r.id) FROM replaced r WHERE r.replaced_by = examples.id)"
                f" AS replaces FROM examples {clause}", args)
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
        ``site_source``, ``html``, ``gold`` (the main text, paragraphs on separate lines),
        ``title``, ``created`` (when it was saved, seconds since the epoch), ``algorithm``;
        ``with_blocks`` adds ``marked_blocks`` (the link/ad blocks the user marked),
        ``main_ids`` and ``algorithm_output`` (:func:`export_record`).
        """
        path = Path(path)
        if path.is_dir() or not path.suffix:
            path.mkdir(parents=True, exist_ok=True)
            path = path / "pages.jsonl.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        # written whole into a temporary of its own beside it, then renamed over it: a
        # Ctrl-C, a crash or a full disk mid-export leaves the file as it was and no
        # temporary (one named '<file>.part' was left, and two exports at once shared it)
        from ..paths import atomic_file

        count = 0
        with atomic_file(path) as raw:
            # the gzip header names the file, not its temporary
            packed = (gzip.GzipFile(filename=path.name, mode="wb", fileobj=raw)
                      if path.suffix == ".gz" else None)
            out = packed or raw
            for example in self.all():
                out.write((json.dumps(export_record(example, with_blocks),
                                      ensure_ascii=False) + "\n").encode("utf-8"))
                count += 1
            if packed is not None:
                packed.close()
        return count

    def import_file(self, path: Path, on_duplicate: str = "skip") -> int:
        """:meth:`import_records`; returns how many examples were added."""
        return len(self.import_records(path, on_duplicate).added)

    def import_records(self, path: Path, on_duplicate: str = "skip") -> ImportReport:
        """Add the records of a datasets-format file (the inverse of :meth:`export`), each
        counted into its site's adaptation as a saved example is (:meth:`settle`).

        The whole file is read and checked first: a bad line (not JSON, no ``html``, no
        ``gold``: a page without its label was stored with no main text, and taught its site
        that its whole template is boilerplate) or a damaged gzip stream is a
        :class:`~blocksift.labeled.DatasetError` naming it, and nothing is added, so that
        fixing the file and importing again does not add its first records twice. All
        records go in one transaction.

        A record of a page (:func:`page_key`) the store already holds an example of is, by
        ``on_duplicate``: ``skip`` (the default: the stored label may be the user's later
        correction, and the skipped record is still in the file), ``replace``: stored instead
        (the stored one kept restorable, as a save in the browser does), or ``keep``: stored
        beside it. Within the file, only the last record of a page is imported (an export
        lists a page's labels oldest first) unless ``keep``.

        A record without a ``url`` (or one naming no host) is a page of the address its HTML
        names for itself, as ``blocksift extract`` reads a saved page (the browser's *saved
        from* comment, ``<link rel=canonical>``, ``og:url``): stored under it, so it is of
        that site and adapts it (``own_address``). Records with no address at all are always
        added, of no site: nothing says which page they are (``no_address``)."""
        from ..labeled import iter_records, record_address

        if on_duplicate not in ON_DUPLICATE:
            raise ValueError(f"on_duplicate must be one of {', '.join(ON_DUPLICATE)}")
        last: dict[str, int] = {}
        #: each record's (address, where from), found once: a page is parsed for it
        addresses: list[tuple[str | None, str | None]] = []
        for index, record in enumerate(iter_records(path, labeled=True)):
            addresses.append(record_address(record))
            key = page_key(addresses[-1][0])
            if key is not None:
                last[key] = index
        report = ImportReport()
        with self._lock, self._transaction():
            for index, record in enumerate(iter_records(path, labeled=True)):
                url, source = addresses[index]
                if source not in (None, "url"):
                    report.own_address.append((url or "", source or ""))
                if url is None:
                    url = record.get("url")  # as given (None, or an address with no host)
                key = page_key(url)
                if key is not None and on_duplicate != "keep":
                    if last[key] != index:
                        report.skipped.append((url, "a later record of this page is in "
                                                    "the file"))
                        continue
                    if on_duplicate == "skip" and self._same_page(key):
                        report.skipped.append((url, "this page has an example already"))
                        continue
                output = record.get("algorithm_output")
                example = Example(html=record["html"], main_text=record.get("gold") or "",
                                  url=url, lang=record.get("lang"),
                                  title=record.get("title") or "",
                                  blocks=record.get("marked_blocks") or [],
                                  main_ids=record.get("main_ids") or [],
                                  # as an export wrote them: when it was saved, and which
                                  # algorithm's output it corrected
                                  created=_created(record.get("created")),
                                  algorithm=str(record.get("algorithm") or ""),
                                  algorithm_output=output if isinstance(output, dict) else {})
                new_id, replaced = self._save(example, on_duplicate == "replace")
                report.added.append(new_id)
                report.no_address += example.site is None
                report.replaced.extend(replaced)
        return report


def repair(path: Path | None = None) -> dict[str, Any]:
    """Keep a damaged examples database aside and rebuild it from every row SQLite can read.

    Rows are copied with their ids; a full scan is tried first and, if it breaks on a
    damaged page, each id is read on its own so one bad page loses only its rows.
    """
    from . import health

    path = Path(path) if path else default_path()
    if not path.exists():
        return {"path": str(path), "recovered": 0, "keptAside": [], "damaged": False}
    check_store_file(path)  # a file named by mistake is not moved aside
    problem = ""
    try:
        with closing(sqlite3.connect(path, timeout=30)) as probe:
            check = probe.execute("PRAGMA quick_check(1)").fetchone()
            if check is not None and check[0] == "ok":
                problem = ""
            else:
                problem = str(check[0] if check else "quick_check failed")
    except sqlite3.DatabaseError as exc:
        if is_transient(exc) or is_unwritable(exc):
            raise  # nothing a rebuild would mend: keep the file where it is
        problem = str(exc)
    if not problem:
        return {"path": str(path), "recovered": 0, "keptAside": [], "damaged": False}
    moved = move_aside(path)
    rows = _readable_rows(moved[0])
    # what else SQLite can still read: replaced examples (restorable) and the site adaptation
    # changes not yet applied (without them the site files would drift from the examples)
    extra = {table: _readable_table(moved[0], table, columns)
             for table, columns in (("replaced", f"id, replaced_by, replaced_at, {_DATA}"),
                                    ("adapt_journal", "id, change, url, removed, added"))}
    with ExampleStore(path) as fresh, fresh._lock:
        fresh._conn.execute("BEGIN")
        for row in rows:
            fresh._conn.execute(
                "INSERT OR IGNORE INTO examples (id, url, site, created, title, lang, html, "
                "main_ids, main_text, blocks, algorithm, algorithm_output) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        for table, (columns, found) in extra.items():
            for row in found:
                fresh._conn.execute(f"INSERT OR IGNORE INTO {table} ({columns}) VALUES "
                                    f"({', '.join('?' * len(row))})", row)
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


#: SQLite's primary result codes for a file that cannot be opened or written, not damaged:
#: SQLITE_PERM, SQLITE_READONLY, SQLITE_FULL, SQLITE_CANTOPEN.
_UNWRITABLE_CODES = (3, 8, 13, 14)


def is_unwritable(exc: BaseException) -> bool:
    """The disk is full, or the file or its folder cannot be opened or written (read-only
    file system, another user's file): not damage, and nothing a repair would mend."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and isinstance(code, int) \
        and code & 0xFF in _UNWRITABLE_CODES


def unwritable_message(path: Path, exc: BaseException) -> str:
    """What a client is told when :func:`is_unwritable` holds for ``exc``."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    why = ("the disk is full: free some space" if code == 13 else
           "the file or its folder is read-only or cannot be opened: check that this user "
           "may write to the folder")
    return (f"the examples database {path} cannot be written ({exc}); {why}, then try again. "
            "It is not damaged and nothing saved is lost")


_DATA = ("url, site, created, title, lang, html, main_ids, main_text, blocks, algorithm, "
         "algorithm_output")
_COLUMNS = ("id, url, site, created, title, lang, html, main_ids, main_text, blocks, "
            "algorithm, algorithm_output")


def _readable_table(damaged: Path, table: str,
                    columns: str) -> tuple[str, list[tuple[Any, ...]]]:
    """The rows of ``table`` SQLite reads from ``damaged`` before any damage (none when the
    table is missing: a version-1 file)."""
    found: list[tuple[Any, ...]] = []
    try:
        with closing(sqlite3.connect(damaged)) as conn:
            for row in conn.execute(f"SELECT {columns} FROM {table} ORDER BY id"):
                found.append(row)
    except sqlite3.DatabaseError:
        pass
    return columns, found


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
    """An example as a line of the shared datasets' format (:meth:`ExampleStore.export`).

    Always the page, its label and what names it in a list (``title``, ``created``: when it
    was saved, ``algorithm``: the one corrected), so that an import gives back the example a
    user knew; ``with_blocks`` adds the label's details (``marked_blocks``, ``main_ids``,
    ``algorithm_output``), and an import of that gives back all of it."""
    record: dict[str, Any] = {
        "id": f"example-{example.id}", "url": example.url, "lang": example.lang,
        "site": example.site, "host": example.site,
        "site_source": "url" if example.url else None,
        "html": example.html, "gold": example.main_text,
        "title": example.title, "created": example.created, "algorithm": example.algorithm,
    }
    if with_blocks:
        record["marked_blocks"] = example.blocks
        record["main_ids"] = example.main_ids
        record["algorithm_output"] = example.algorithm_output
    return record


def _created(value: Any) -> float:
    """A record's ``created`` as a date to store: a time in seconds since the epoch, else 0
    (the store dates it now)."""
    import math

    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) and value > 0:
        return float(value)
    return 0.0


def _example(row: dict[str, Any]) -> Example:
    return Example(id=row["id"], url=row["url"], created=row["created"], title=row["title"],
                   lang=row["lang"], html=row["html"], main_ids=json.loads(row["main_ids"]),
                   main_text=row["main_text"], blocks=json.loads(row["blocks"]),
                   algorithm=row["algorithm"],
                   algorithm_output=json.loads(row["algorithm_output"]),
                   replaces=row.get("replaces"), replaced_by=row.get("replaced_by"))


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

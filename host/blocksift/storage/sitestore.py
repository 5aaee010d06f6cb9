"""The per-site template store: what the clustering extractor learns while a person reads.

Each page extracted on a site adds its *observation* (structure feature and best-block rule
candidate, see :mod:`blocksift.algorithms.clustering`); a background writer thread commits it
to SQLite and rebuilds that site's classes and rules (seed 002 Algorithms 1 and 2). Once a
class forms, :meth:`SiteStore.model_for` returns the site's model and the extractor uses the
class rule. The caller never waits: :meth:`SiteStore.record` only puts the observation on a
queue.

What is stored (and nothing else): the page's url (without fragment), the time it was seen,
its block paths, its best block's ⟨class, id, path⟩ and H. Page text and HTML are never
stored here; a page the person captures as a labeled example goes to the examples store.
Pages of private windows are not recorded, nor anything while ``learning`` is off.

Decisions:

* Site = the URL's host, lower-case, without a leading ``www.``. Subdomains of one registered
  domain often run different software (``blogs.wsj.com`` vs ``www.wsj.com``), and
  Algorithm 1 separates templates anyway; the host also needs no public-suffix list.
* One row per url: a page seen again replaces its older observation, so a page reloaded
  many times does not outvote the others in Algorithm 2.
* At most ``max_pages_per_site`` observations per site (the oldest go first): Algorithm 1 is
  quadratic in the pages of a site, and templates change over time.
* Crash safety: WAL journal, every batch in one transaction (``synchronous=FULL`` so a
  committed page survives power loss too); a file SQLite cannot read is renamed aside
  (``*.corrupt-<time>``), never deleted, a fresh store is started, and the user is told
  (:mod:`.health`: doctor, hello, the options page).
* The in-memory model cache assumes one writing process per file (the host).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlsplit, urlunsplit

from ..algorithms import clustering
from ..paths import data_dir, move_aside, prepare_folder
from ..sites import site_key

log = logging.getLogger(__name__)

DEFAULT_FILE_NAME = "sites.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site TEXT NOT NULL,
    url TEXT NOT NULL,
    seen REAL NOT NULL,
    feature TEXT NOT NULL,
    candidate TEXT,
    h REAL NOT NULL,
    UNIQUE (site, url)
);
CREATE INDEX IF NOT EXISTS pages_by_site ON pages (site, id);
CREATE TABLE IF NOT EXISTS models (
    site TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    pages INTEGER NOT NULL,
    classes INTEGER NOT NULL,
    built REAL NOT NULL
);
"""


def _storable_url(url: str) -> str:
    """``url`` without its fragment (it names a place in the page, not a page)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return url.strip()
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


@dataclass(frozen=True)
class _Pending:
    site: str
    url: str
    seen: float
    observation: clustering.PageObservation


_STOP = object()


class SiteStore:
    """Per-site observations and models in one SQLite file; writes on a background thread.

    Args:
        path: the SQLite file (default ``blocksift.paths.data_dir() / "sites.sqlite3"``);
            its folder is made user-only (0700) and the file 0600.
        params: clustering params used to rebuild the models.
        max_pages_per_site: newest observations kept per site.
        learning: whether :meth:`record` stores anything (the user's setting).
    """

    def __init__(self, path: Path | None = None, params: clustering.Params | None = None, *,
                 max_pages_per_site: int = 500, learning: bool = True):
        if max_pages_per_site < 1:
            raise ValueError("max_pages_per_site must be at least 1")
        self.path = Path(path) if path is not None else data_dir() / DEFAULT_FILE_NAME
        self.params = params or clustering.Params()
        self.max_pages_per_site = max_pages_per_site
        self.learning = learning
        self.write_errors = 0
        prepare_folder(self.path.parent)  # a folder the user named keeps its mode
        self._open_checked()
        self._models: dict[str, clustering.SiteModel | None] = {}
        self._models_lock = threading.Lock()
        self._reader = self._connect()
        self._reader_lock = threading.Lock()
        self._queue: queue.Queue[Any] = queue.Queue()
        self._progress = threading.Condition()
        self._submitted = 0
        self._done = 0
        self._closed = False
        self._writer = threading.Thread(target=self._write_loop, name="blocksift-sitestore",
                                        daemon=True)
        self._writer.start()

    # -- opening -------------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False,
                               isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 30000")
        return conn

    def _open_checked(self) -> None:
        """Create or open the file; a file SQLite cannot use is renamed aside, not deleted."""
        for attempt in range(2):
            self._create_private_file()
            try:
                conn = self._connect()
                try:
                    conn.execute("PRAGMA journal_mode = WAL")
                    check = conn.execute("PRAGMA quick_check").fetchone()
                    if check is None or check[0] != "ok":
                        raise sqlite3.DatabaseError(f"quick_check: {check}")
                    conn.executescript(_SCHEMA)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                finally:
                    conn.close()
                return
            except sqlite3.DatabaseError as exc:
                if attempt:
                    raise
                from . import health

                moved = move_aside(self.path)
                log.warning("site store %s unreadable (%s); moved to %s", self.path, exc,
                            ", ".join(map(str, moved)))
                if moved:
                    health.report(
                        "sites", self.path, f"SQLite cannot read it ({exc})", moved,
                        f"Learned site rules start afresh. To go back to the old file, close "
                        f"the browser and run: mv '{moved[0]}' '{self.path}' (the rules learned "
                        "since are then lost).", state="replaced")

    def _create_private_file(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        try:
            os.chmod(self.path, 0o600)
        except OSError:
            pass

    # -- public API ----------------------------------------------------------------------------

    def record(self, url: str, observation: dict[str, Any], *, private: bool = False) -> bool:
        """Queue a page's observation (``result.extra["site_observation"]``); never blocks.

        Returns False (and stores nothing) when learning is off, the page is from a private
        window, the url has no host, the store is closed or the observation is malformed.
        """
        if private or not self.learning or self._closed:
            return False
        site = site_key(url)
        if site is None:
            return False
        url = _storable_url(url)
        try:
            parsed = clustering.PageObservation.from_dict(url, observation)
        except ValueError as exc:
            log.debug("observation of %s ignored: %s", url, exc)
            return False
        with self._progress:
            self._submitted += 1
        self._queue.put(_Pending(site, url, time.time(), parsed))
        return True

    def model_for(self, url: str) -> clustering.SiteModel | None:
        """The model of ``url``'s site when it has at least one class, else None.

        Served from memory after the first read; the writer refreshes it after each rebuild.
        Safe to call from several threads.
        """
        site = site_key(url)
        if site is None:
            return None
        with self._models_lock:
            if site in self._models:
                return self._models[site]
        model = self._read_model(site)
        with self._models_lock:
            self._models.setdefault(site, model)
            return self._models[site]

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything recorded so far is committed and models rebuilt.

        Returns False when ``timeout`` (seconds) ran out first.
        """
        with self._progress:
            target = self._submitted
            return self._progress.wait_for(lambda: self._done >= target or not
                                           self._writer.is_alive(), timeout)

    def close(self, timeout: float | None = 10.0) -> None:
        """Commit what is queued, stop the writer and close the file."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(_STOP)
        self._writer.join(timeout)
        with self._reader_lock:
            self._reader.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def sites(self) -> list[dict[str, Any]]:
        """Every site with its stored pages and classes (for the CLI and settings page)."""
        with self._reader_lock:
            rows = self._reader.execute(
                "SELECT p.site, COUNT(*), COALESCE(m.classes, 0) FROM pages p "
                "LEFT JOIN models m ON m.site = p.site GROUP BY p.site ORDER BY p.site"
            ).fetchall()
        return [{"site": site, "pages": pages, "classes": classes}
                for site, pages, classes in rows]

    def forget(self, site: str) -> None:
        """Delete a site's observations and model (the user's "forget this site")."""
        with self._progress:
            self._submitted += 1
        self._queue.put(("forget", site))

    # -- reading -------------------------------------------------------------------------------

    def _read_model(self, site: str) -> clustering.SiteModel | None:
        try:
            with self._reader_lock:
                row = self._reader.execute("SELECT model FROM models WHERE site = ?",
                                           (site,)).fetchone()
        except sqlite3.Error as exc:
            log.warning("site store read failed: %s", exc)
            return None
        if row is None:
            return None
        try:
            model = clustering.SiteModel.model_validate_json(row[0])
        except ValueError as exc:
            log.warning("stored model of %s unreadable: %s", site, exc)
            return None
        return model if model.classes else None

    # -- the writer thread ---------------------------------------------------------------------

    def _write_loop(self) -> None:
        conn = self._connect()
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        stop = False
        while not stop:
            batch = [self._queue.get()]
            while len(batch) < 256:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            if any(item is _STOP for item in batch):
                stop = True
            work = [item for item in batch if item is not _STOP]
            try:
                if work:
                    self._write_batch(conn, work)
            except Exception as exc:  # noqa: BLE001 -- the host must keep running; count and report
                self.write_errors += 1
                log.error("site store write failed (%d pages lost): %s", len(work), exc)
            with self._progress:
                self._done += len(work)
                self._progress.notify_all()
        conn.close()

    def _write_batch(self, conn: sqlite3.Connection, work: list[Any]) -> None:
        touched: set[str] = set()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for item in work:
                if isinstance(item, tuple) and item[0] == "forget":
                    conn.execute("DELETE FROM pages WHERE site = ?", (item[1],))
                    conn.execute("DELETE FROM models WHERE site = ?", (item[1],))
                    touched.add(item[1])
                    continue
                obs = item.observation
                conn.execute(
                    "INSERT OR REPLACE INTO pages (site, url, seen, feature, candidate, h) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (item.site, item.url, item.seen, json.dumps(sorted(obs.feature)),
                     json.dumps(obs.candidate.model_dump()) if obs.candidate else None,
                     obs.score))
                touched.add(item.site)
            for site in touched:
                conn.execute(
                    "DELETE FROM pages WHERE site = ? AND id NOT IN (SELECT id FROM pages "
                    "WHERE site = ? ORDER BY id DESC LIMIT ?)",
                    (site, site, self.max_pages_per_site))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        for site in sorted(touched):
            self._rebuild(conn, site)

    def _rebuild(self, conn: sqlite3.Connection, site: str) -> None:
        """Algorithms 1 and 2 over the site's stored observations (oldest first)."""
        rows = conn.execute("SELECT url, feature, candidate, h FROM pages WHERE site = ? "
                            "ORDER BY id", (site,)).fetchall()
        observations = []
        for url, feature, candidate, score in rows:
            try:
                observations.append(clustering.PageObservation.from_dict(url, {
                    "feature": json.loads(feature),
                    "candidate": json.loads(candidate) if candidate else None, "h": score}))
            except ValueError as exc:
                log.warning("stored observation of %s skipped: %s", url, exc)
        model = clustering.fit_observations(observations, self.params)
        conn.execute("BEGIN IMMEDIATE")
        try:
            if observations:
                conn.execute("INSERT OR REPLACE INTO models (site, model, pages, classes, built)"
                             " VALUES (?, ?, ?, ?, ?)",
                             (site, model.model_dump_json(), model.pages, len(model.classes),
                              time.time()))
            else:
                conn.execute("DELETE FROM models WHERE site = ?", (site,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        with self._models_lock:
            self._models[site] = model if model.classes else None


__all__ = ["DEFAULT_FILE_NAME", "SiteStore", "site_key"]

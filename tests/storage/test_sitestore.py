"""Tests of the per-site store on real SQLite files and real writer processes."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from blocksift.algorithms import clustering as c
from blocksift.page import Page
from blocksift.storage import SiteStore, site_key

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "tests" / "fixtures" / "clustering" / "site"


@pytest.fixture
def observations() -> dict[str, dict]:
    """Observations of the hand-made site, as extract() hands them to the host."""
    out = {}
    for path in sorted(SITE.glob("*.html")):
        result = c.extract(Page(path.read_text("utf-8")), c.Params())
        out[path.stem] = result.extra["site_observation"]
    return out


def rows(path: Path, sql: str, args: tuple = ()) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("url, site", [
    ("https://www.bbc.co.uk/news/1", "bbc.co.uk"), ("http://Blogs.WSJ.com/x#frag", "blogs.wsj.com"),
    ("https://example.org:8443/a?b=1", "example.org"), ("file:///tmp/x.html", None),
    ("not a url", None), ("", None), (None, None), ("http://[::1/", None)])
def test_site_is_the_host_without_www(url, site):
    assert site_key(url) == site


def test_a_class_forms_after_more_than_five_pages_and_survives_reopening(tmp_path,
                                                                         observations):
    path = tmp_path / "sites.sqlite3"
    with SiteStore(path) as store:
        for i in range(5):
            assert store.record(f"https://news.example/a/{i}", observations[f"news{i}"])
        assert store.flush(30)
        assert store.model_for("https://news.example/other") is None  # 5 pages: no class
        assert store.record("https://news.example/a/5", observations["news5"])
        assert store.flush(30)
        model = store.model_for("https://www.news.example/new")
        assert model is not None and len(model.classes) == 1
        assert model.classes[0].rule.element_id == "story"
        assert store.model_for("https://elsewhere.example/") is None
    with SiteStore(path) as again:  # a new process reads the model from disk
        model = again.model_for("https://news.example/x")
        assert model is not None and model.pages == 6
        assert again.sites() == [{"site": "news.example", "pages": 6, "classes": 1}]


def test_model_is_used_to_extract_the_short_page(tmp_path, observations):
    with SiteStore(tmp_path / "s.sqlite3") as store:
        for i in range(7):
            store.record(f"https://news.example/{i}", observations[f"news{i}"])
        store.flush(30)
        page = Page((SITE / "news7.html").read_text("utf-8"), url="https://news.example/7")
        result = c.extract(page, c.Params(), store.model_for(page.url))
        assert result.stage == "class_rule:id"
        assert result.main.text.startswith("Headline number 7")


def test_only_what_the_algorithm_needs_is_stored(tmp_path, observations):
    path = tmp_path / "s.sqlite3"
    observation = dict(observations["news0"], html="<p>SECRET PAGE TEXT</p>",
                       text="SECRET PAGE TEXT")
    with SiteStore(path) as store:
        assert store.record("https://news.example/p?q=1#comment-3", observation)
        store.flush(30)
    columns = [r[1] for r in rows(path, "PRAGMA table_info(pages)")]
    assert columns == ["id", "site", "url", "seen", "feature", "candidate", "h"]
    [(url, feature)] = rows(path, "SELECT url, feature FROM pages")
    assert url == "https://news.example/p?q=1"  # the fragment is dropped
    assert json.loads(feature) == observations["news0"]["feature"]
    blob = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"SECRET" not in blob
    assert b"Headline number" not in blob  # no page text either


def test_private_windows_and_learning_off_store_nothing(tmp_path, observations):
    path = tmp_path / "s.sqlite3"
    with SiteStore(path, learning=False) as store:
        assert not store.record("https://news.example/1", observations["news1"])
        store.learning = True
        assert not store.record("https://news.example/2", observations["news2"], private=True)
        assert store.record("https://news.example/3", observations["news3"])
        store.flush(30)
    assert rows(path, "SELECT url FROM pages") == [("https://news.example/3",)]


def test_bad_observations_and_urls_are_refused(tmp_path, observations):
    with SiteStore(tmp_path / "s.sqlite3") as store:
        assert not store.record("https://news.example/1", {"feature": "nope"})
        assert not store.record("https://news.example/1", None)  # type: ignore[arg-type]
        assert not store.record("about:blank", observations["news1"])
        assert store.flush(30) and store.write_errors == 0


def test_a_page_seen_again_replaces_its_observation(tmp_path, observations):
    path = tmp_path / "s.sqlite3"
    with SiteStore(path) as store:
        for _ in range(3):
            store.record("https://news.example/same", observations["news0"])
        store.record("https://news.example/same", observations["news7"])
        store.flush(30)
    [(candidate,)] = rows(path, "SELECT candidate FROM pages")
    assert json.loads(candidate) == observations["news7"]["candidate"]


def test_oldest_pages_go_beyond_the_limit_and_forget_removes_a_site(tmp_path, observations):
    path = tmp_path / "s.sqlite3"
    with SiteStore(path, max_pages_per_site=4) as store:
        for i in range(7):
            store.record(f"https://news.example/{i}", observations[f"news{i}"])
            store.flush(30)
        store.record("https://other.example/0", observations["other0"])
        store.flush(30)
        kept = [r[0] for r in rows(path, "SELECT url FROM pages WHERE site='news.example' "
                                         "ORDER BY id")]
        assert kept == [f"https://news.example/{i}" for i in range(3, 7)]
        store.forget("news.example")
        store.flush(30)
        assert store.sites() == [{"site": "other.example", "pages": 1, "classes": 0}]


def test_file_and_folder_are_private(tmp_path, observations):
    path = tmp_path / "deeper" / "sites.sqlite3"
    with SiteStore(path) as store:
        store.record("https://news.example/1", observations["news1"])
        store.flush(30)
        for file in path.parent.iterdir():  # the -wal and -shm files too, while open
            assert stat.S_IMODE(file.stat().st_mode) & 0o077 == 0, file.name
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_default_path_is_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BLOCKSIFT_HOME", str(tmp_path))
    with SiteStore() as store:
        assert store.path == tmp_path / "data" / "sites.sqlite3"
    assert store.path.exists()


def test_an_unreadable_file_is_moved_aside_not_lost(tmp_path, observations):
    path = tmp_path / "sites.sqlite3"
    garbage = b"this is not a database" * 100
    path.write_bytes(garbage)
    with SiteStore(path) as store:
        assert store.record("https://news.example/1", observations["news1"])
        assert store.flush(30)
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == garbage
    assert rows(path, "SELECT COUNT(*) FROM pages") == [(1,)]


def test_record_never_waits_for_the_disk(tmp_path, observations):
    path = tmp_path / "s.sqlite3"
    with SiteStore(path) as store:
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")  # another writer holds the file
        try:
            assert store.record("https://news.example/1", observations["news1"])
            assert not store.flush(0.3)  # queued, not committed: the caller went on
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert store.flush(30)
    assert rows(path, "SELECT COUNT(*) FROM pages") == [(1,)]


def test_many_threads_read_while_the_writer_writes(tmp_path, observations):
    errors: list[BaseException] = []
    with SiteStore(tmp_path / "s.sqlite3") as store:
        def reader() -> None:
            try:
                for _ in range(300):
                    model = store.model_for("https://news.example/x")
                    assert model is None or model.classes
            except BaseException as exc:  # noqa: BLE001 -- collected for the main thread
                errors.append(exc)

        threads = [threading.Thread(target=reader) for _ in range(4)]
        for thread in threads:
            thread.start()
        for i in range(40):
            store.record(f"https://news.example/{i}", observations[f"news{i % 7}"])
        for thread in threads:
            thread.join()
        assert store.flush(60)
        assert store.model_for("https://news.example/x") is not None
    assert errors == []


# -- crash safety: a real writer process killed with SIGKILL mid-write ---------------------------

WRITER = r"""
import json, random, sys
from pathlib import Path
from blocksift.storage import SiteStore

path, start, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
observations = json.loads(sys.stdin.read())
rng = random.Random(seed)
store = SiteStore(path)
i = start
while True:
    burst = []
    for _ in range(rng.randint(1, 6)):
        url = f"https://site{i % 3}.example/page/{i}"
        store.record(url, observations[i % len(observations)])
        burst.append(url)
        i += 1
    if not store.flush(60):
        sys.exit(3)
    print("\n".join(burst), flush=True)  # only after the commit
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")
def test_killed_writers_lose_no_committed_page(tmp_path, observations):
    path = tmp_path / "sites.sqlite3"
    payload = json.dumps(list(observations.values()))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    rng = random.Random(5)
    committed: list[str] = []
    start = 0
    for round_ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(start),
                                 str(round_)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        proc.stdin.write(payload)
        proc.stdin.close()
        lines: list[str] = []
        wanted = rng.randint(3, 40)
        got_enough = threading.Event()

        def read(stream=proc.stdout, lines=lines, wanted=wanted, event=got_enough) -> None:
            for line in stream:
                lines.append(line.strip())
                if len(lines) >= wanted:
                    event.set()
            event.set()

        reader = threading.Thread(target=read)
        reader.start()
        got_enough.wait(120)
        proc.send_signal(signal.SIGKILL)  # mid-write: the writer never stops on its own
        proc.wait(30)
        reader.join(30)
        assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
        assert lines, proc.stderr.read()
        committed += [line for line in lines if line]
        start += 10_000  # fresh urls for the next writer
    assert Path(f"{path}-wal").exists()  # the last writer died with its journal open
    assert len(committed) >= 8 * 3
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    stored = {r[0] for r in rows(path, "SELECT url FROM pages")}
    missing = [url for url in committed if url not in stored]
    assert not missing, f"{len(missing)} committed pages lost, e.g. {missing[:3]}"
    with SiteStore(path) as store:  # the store opens and serves after the crashes
        assert store.model_for("https://site0.example/") is not None


def test_benchmark_record_returns_at_once(benchmark, tmp_path, observations):
    """``pytest tests/storage --benchmark-enable -k benchmark`` prints the cost of record()."""
    with SiteStore(tmp_path / "s.sqlite3") as store:
        counter = iter(range(10**9))
        queued = benchmark(lambda: store.record(f"https://news.example/{next(counter)}",
                                                observations["news0"]))
        assert queued is True
        assert store.flush(120)

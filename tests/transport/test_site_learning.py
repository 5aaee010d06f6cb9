"""Per-site learning through the host: pages of one template teach its rule, privately."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

SITE = Path(__file__).resolve().parents[1] / "fixtures" / "clustering" / "site"


def _extract(host, rid, html, url, **flags):
    host.send({"type": "extract", "id": rid, "html": html, "url": url,
               "algorithm": "clustering", "want": ["main"], **flags})
    reply = host.recv_reply(timeout=60)
    assert reply["type"] == "result", reply
    return reply["result"]


def _stored_pages(home: Path) -> int:
    path = home / "data" / "sites.sqlite3"
    if not path.exists():
        return 0
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        table = "pages" if "pages" in tables else tables[0]
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def test_private_windows_and_disallowed_learning_store_nothing(host, blocksift_home):
    pages = sorted(SITE.glob("news*.html"))
    for i, page in enumerate(pages):
        _extract(host, f"p{i}", page.read_text(encoding="utf-8"), f"https://news.example/{i}",
                 learnSite=True, private=True)
        _extract(host, f"n{i}", page.read_text(encoding="utf-8"), f"https://news.example/{i}")
    host.close_stdin()
    host.proc.wait(timeout=20)
    assert _stored_pages(blocksift_home) == 0


def test_a_class_forms_as_pages_arrive_and_its_rule_is_then_used(host, blocksift_home):
    pages = sorted(SITE.glob("news*.html"))
    assert len(pages) > 6
    stages = []
    for i, page in enumerate(pages[:-1]):
        result = _extract(host, f"l{i}", page.read_text(encoding="utf-8"),
                          f"https://news.example/story/{i}", learnSite=True)
        stages.append(result["stage"])
    assert not any(s.startswith("class_rule") for s in stages[:6])
    last = pages[-1].read_text(encoding="utf-8")
    deadline = time.monotonic() + 30  # the store learns on its own thread, off the reply path
    while True:
        result = _extract(host, "final", last, "https://news.example/story/last")
        if result["stage"].startswith("class_rule") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert result["stage"].startswith("class_rule"), result["stage"]
    assert result["main"]["text"]
    host.close_stdin()
    assert host.proc.wait(timeout=20) == 0
    assert _stored_pages(blocksift_home) >= 6

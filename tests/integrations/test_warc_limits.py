"""``batch --warc`` under the per-page limits, and its Parquet output.

A page over the time or memory limit becomes an error line with its WARC-Record-ID, is
counted as skipped under ``time-limit`` / ``memory-limit``, and the run goes on: records in
= written + skipped by reason, with every record of the file accounted for.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install '.[warc]'")

from conftest import EXPECTED_SKIPS, MAX_BYTES, PAGES, run_batch  # noqa: E402

from blocksift import warc  # noqa: E402

ARTICLE = ("<html><head><title>Quay</title></head><body><article><h1>Quay</h1>"
           + "<p>Words of the article body, enough of them to be main text. </p>" * 8
           + "</article></body></html>").encode()
#: Over a 2 s limit in auto several times (600,000 elements: about 7 s on the CI machine,
#: 1 GB), while the small pages beside it take a tenth of a second even on a loaded one.
SLOW = ("<html><body>" + "<div><a href='/x'>a link</a> words</div>" * 200_000
        + "</body></html>").encode()
#: Far over a 64 MiB limit in auto.
HOG = ("<html><body>" + "".join(f"<div><a href='/p{i}'>link number {i}</a></div>"
                                for i in range(60_000)) + "</body></html>").encode()


def write_warc(path: Path, bad_url: str, bad_body: bytes) -> dict[str, str]:
    """article, hostile page, a non-HTML record, article; returns url -> WARC-Record-ID."""
    records = [("http://example.org/before", ARTICLE, "text/html"),
               (bad_url, bad_body, "text/html"),
               ("http://example.org/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64), "image/png"),
               ("http://example.org/after", ARTICLE, "text/html")]
    ids = {}
    with path.open("wb") as out:
        for number, (url, body, ctype) in enumerate(records):
            record_id = f"<urn:uuid:00000000-0000-4000-8000-{number:012d}>"
            ids[url] = record_id
            out.write(gzip.compress(warc.response_record(url, body, ctype,
                                                         record_id=record_id)))
    return ids


def summary_counts(stderr: str) -> tuple[int, int, dict[str, int]]:
    """(records, written, skipped by reason) from the last stderr line."""
    line = stderr.strip().splitlines()[-1]
    head, _, reasons = line.removeprefix("blocksift: warc: ").partition(" skipped")
    records = int(head.split(" records")[0])
    written = int(head.split(": ")[1].split(" written")[0])
    skipped = {}
    for part in reasons.strip(" ()").split(", "):
        if part:
            reason, count = part.rsplit(" ", 1)
            skipped[reason] = int(count)
    return records, written, skipped


@pytest.mark.parametrize(("limit", "bad", "reason", "code"), [
    (("--timeout", "2"), SLOW, "time-limit", 3001),
    (("--memory-limit", "64"), HOG, "memory-limit", 3005),
], ids=["time", "memory"])
def test_a_page_over_a_limit_is_an_error_line_and_every_record_is_counted(
        tmp_path, limit, bad, reason, code):
    path = tmp_path / "limits.warc.gz"
    ids = write_warc(path, "http://example.org/bad", bad)
    done = run_batch("--warc", str(path), "--max-bytes", str(len(bad) + 1), "-j", "1",
                     "--algo", "auto", *limit)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["url"] for line in lines] == ["http://example.org/before",
                                               "http://example.org/bad",
                                               "http://example.org/after"]
    assert [line["id"] for line in lines] == [ids[line["url"]] for line in lines]
    error = lines[1]
    assert set(error) == {"id", "url", "error", "code"} and error["code"] == code, error
    assert "Words of the article body" in lines[2]["text"]
    records, written, skipped = summary_counts(done.stderr)
    assert records == 4 == written + sum(skipped.values())
    assert written == 2 and skipped == {reason: 1, "not-html": 1}


def test_parquet_from_warc_holds_the_jsonl_lines(tmp_path, small_warc, batch_lines):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    out = tmp_path / "pages.parquet"
    done = run_batch("--warc", str(small_warc), "--max-bytes", str(MAX_BYTES), "-j", "2",
                     "-o", str(out))
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(out).to_pylist()
    assert [row["url"] for row in rows] == [url for url, *_ in PAGES]
    for row, line in zip(rows, batch_lines):
        assert {k: row[k] for k in ("id", "url", "title", "text", "status")} == {
            k: line[k] for k in ("id", "url", "title", "text", "status")}
        assert json.loads(row["metadata"]) == line["metadata"]
        assert row["error"] is None
    records, written, skipped = summary_counts(done.stderr)
    assert written == len(rows) and skipped == EXPECTED_SKIPS
    assert records == written + sum(skipped.values())

"""WARC input: every record accounted for, charsets decoded, damage survived, CLI output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install '.[warc]'")

from conftest import EXPECTED_SKIPS, MAX_BYTES, PAGES, run_batch, write_small_warc  # noqa: E402

from blocksift.warc import Skip, WarcCounts, WarcPage, expand_paths, iter_warc  # noqa: E402


def _read(path: Path, max_bytes: int = MAX_BYTES) -> tuple[list[WarcPage], WarcCounts]:
    counts, pages = WarcCounts(), []
    for item in iter_warc(str(path), max_bytes=max_bytes, counts=counts):
        if isinstance(item, Skip):
            counts.skipped[item.reason] += 1
        else:
            pages.append(item)
            counts.written += 1
    return pages, counts


def test_every_record_is_a_page_or_a_skip_with_its_reason(tmp_path: Path):
    path = tmp_path / "small.warc.gz"
    records = write_small_warc(path)
    pages, counts = _read(path)
    assert counts.records == records  # the damaged member stands for the record it held
    assert counts.balanced
    assert dict(counts.skipped) == EXPECTED_SKIPS
    assert [page.url for page in pages] == [url for url, *_ in PAGES]


def test_a_damaged_member_does_not_end_the_file(small_warc: Path):
    pages, counts = _read(small_warc)
    assert counts.skipped["damaged"] == 1
    assert pages[-1].url == "http://example.org/after-damage"
    assert "Still read." in pages[-1].html


def test_charset_from_the_http_header_then_the_page(small_warc: Path):
    by_url = {page.url: page for page in _read(small_warc)[0]}
    assert "Un café crème" in by_url["http://example.org/latin"].html
    assert by_url["http://example.org/latin"].metadata["charset"] == "iso-8859-1"
    assert "Привет мир" in by_url["http://example.org/cyrillic"].html  # from <meta> only
    assert "Naïve façade" in by_url["http://example.org/plain"].html
    assert "Compressed in transit." in by_url["http://example.org/gzip"].html


def test_the_cap_is_a_parameter(small_warc: Path):
    _, counts = _read(small_warc, max_bytes=10 * MAX_BYTES)
    assert "oversized" not in counts.skipped and counts.balanced


def test_batch_warc_writes_one_line_per_page_and_prints_the_counts(small_warc: Path):
    done = run_batch("--warc", str(small_warc), "--max-bytes", str(MAX_BYTES), "-j", "1")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["url"] for line in lines] == [url for url, *_ in PAGES]
    for line in lines:
        assert set(line) == {"id", "url", "title", "text", "metadata", "status", "ms"}
        assert line["id"].startswith("<urn:uuid:")
        assert line["status"] == "ok" and line["text"]
    by_url = {line["url"]: line for line in lines}
    assert "Un café crème à la française." in by_url["http://example.org/latin"]["text"]
    assert "Home" not in by_url["http://example.org/latin"]["text"]  # the nav is left out
    summary = done.stderr.strip().splitlines()[-1]
    skipped = sum(EXPECTED_SKIPS.values())
    assert summary.startswith(f"blocksift: warc: {len(lines) + skipped} records: "
                              f"{len(lines)} written, {skipped} skipped (")
    for reason, count in EXPECTED_SKIPS.items():
        assert f"{reason} {count}" in summary


def test_worker_processes_give_the_same_lines(small_warc: Path, batch_lines: list[dict]):
    done = run_batch("--warc", str(small_warc), "--max-bytes", str(MAX_BYTES), "-j", "2")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    strip = [{k: v for k, v in line.items() if k != "ms"} for line in lines]
    assert strip == [{k: v for k, v in line.items() if k != "ms"} for line in batch_lines]


def test_globs_expand_and_missing_files_are_one_line_errors(small_warc: Path):
    assert expand_paths([str(small_warc.parent / "*.warc.gz")]) == [str(small_warc)]
    done = run_batch("--warc", str(small_warc.parent / "nothing-*.warc.gz"))
    assert done.returncode == 2
    assert done.stderr.strip() == (f"blocksift: error: no WARC file matches "
                                   f"'{small_warc.parent / 'nothing-*.warc.gz'}'")


def test_a_file_that_is_not_a_warc_is_counted_not_fatal(tmp_path: Path):
    path = tmp_path / "junk.warc.gz"
    path.write_bytes(b"\x1f\x8b\x08 this is not gzip at all")
    _, counts = _read(path)
    assert counts.balanced and counts.skipped == {"damaged": 1} and counts.written == 0


def test_bytes_read_runs_across_the_files_to_their_total(small_warc: Path, tmp_path: Path):
    from blocksift.crawl import iter_items

    second = tmp_path / "second.warc.gz"
    second.write_bytes(small_warc.read_bytes())
    counts, seen = WarcCounts(), []
    for _item in iter_items([str(small_warc), str(second)], MAX_BYTES, counts):
        seen.append(counts.bytes_read)
    size = small_warc.stat().st_size
    assert seen == sorted(seen) and seen[0] < size < seen[-1] < 2 * size
    assert counts.bytes_read == 2 * size  # all read: the bar ends full

"""The dataset reader's page count, which progress bars show as their total."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from blocksift.labeled import DatasetError, count_pages, iter_pages, pages_total


def _write(path: Path, lines: list[str]) -> Path:
    data = "".join(lines).encode("utf-8")
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return path


def _page(n: int) -> str:
    return json.dumps({"id": str(n), "html": "<p>x</p>\n" * 3, "gold": "x"}) + "\n"


def test_the_count_is_what_iter_pages_yields_blank_lines_and_limits_included(tmp_path):
    lines = [_page(0), "\n", _page(1), "   \n", _page(2), _page(3).rstrip("\n")]
    for name in ("pages.jsonl", "pages.jsonl.gz"):
        path = _write(tmp_path / name, lines)
        for limit in (None, 0, 1, 2, 3, 4, 5, 6, 10):
            assert count_pages(path, limit) == len(list(iter_pages(path, limit))), (name, limit)
    assert count_pages(tmp_path / "pages.jsonl.gz") == 4


def test_a_set_that_cannot_be_read_through_has_no_count(tmp_path):
    whole = gzip.compress("".join(_page(n) for n in range(50)).encode())
    (tmp_path / "cut.jsonl.gz").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "bad.jsonl.gz").write_bytes(b"not gzip at all")
    assert count_pages(tmp_path / "cut.jsonl.gz") is None
    assert count_pages(tmp_path / "bad.jsonl.gz") is None
    assert count_pages(tmp_path / "missing.jsonl") is None


def test_the_total_of_several_sets_is_unknown_when_one_is(tmp_path):
    first = _write(tmp_path / "a.jsonl", [_page(n) for n in range(3)])
    folder = tmp_path / "b"
    folder.mkdir()
    _write(folder / "pages.jsonl.gz", [_page(n) for n in range(5)])
    assert pages_total([first, folder]) == 8
    assert pages_total([first, folder], limit=2) == 4
    assert pages_total([first, tmp_path / "none"]) is None


def test_a_set_too_large_to_read_twice_is_not_counted_ahead(tmp_path, monkeypatch):
    import blocksift.labeled as labeled

    path = _write(tmp_path / "pages.jsonl", [_page(n) for n in range(4)])
    monkeypatch.setattr(labeled, "COUNT_AHEAD_BYTES", path.stat().st_size - 1)
    assert count_pages(path) is None
    assert count_pages(path, limit=3) == 3  # a limit stops the count early: still known


@pytest.mark.parametrize("name, data, message", [
    ("not-json.jsonl", (_page(1) + "{bad\n").encode(), r"not-json.jsonl, line 2: not JSON"),
    ("no-html.jsonl", b'{"id": "1", "gold": "x"}\n', r'line 1: no "html" text'),
    ("latin.jsonl", _page(1).encode() + b'{"html": "caf\xe9"}\n', r"line 2: not UTF-8"),
    ("plain.jsonl.gz", b"not gzip\n", r"plain.jsonl.gz: not a gzip file"),
    ("cut.jsonl.gz", gzip.compress("".join(_page(n) for n in range(3000)).encode())[:4000],
     r"cut.jsonl.gz: the gzip file is cut short after line \d+"),
])
def test_a_damaged_set_is_one_clear_error_naming_its_file_and_line(tmp_path, name, data, message):
    """Each once reached the commands as an internal error (EOFError, BadGzipFile,
    JSONDecodeError, KeyError)."""
    (tmp_path / name).write_bytes(data)
    with pytest.raises(DatasetError, match=message):
        list(iter_pages(tmp_path / name))
    assert count_pages(tmp_path / name) is None or name != "cut.jsonl.gz"

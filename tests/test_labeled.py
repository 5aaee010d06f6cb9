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


def _datasets(root: Path) -> Path:
    """A datasets folder holding one set, ``mini-dev``, and a folder without pages."""
    (root / "mini-dev").mkdir(parents=True)
    _write(root / "mini-dev" / "pages.jsonl", [_page(0)])
    (root / "notes").mkdir()
    return root


def test_resolve_names_the_datasets_there_are_to_library_users_too(tmp_path, monkeypatch):
    """Only the CLI said 'did you mean mini-dev?'; resolve itself said 'mini: no such
    dataset (set $BLOCKSIFT_DATASETS)' with it set, beside the folder."""
    from blocksift.labeled import known_datasets, resolve

    root = _datasets(tmp_path / "datasets")
    monkeypatch.setenv("BLOCKSIFT_DATASETS", str(root))
    assert resolve("mini-dev") == root / "mini-dev" / "pages.jsonl"
    with pytest.raises(FileNotFoundError) as found:
        resolve("mini")
    message = str(found.value)
    assert message.startswith("mini: no such dataset; did you mean mini-dev? (known: "), message
    known = message.split("(known: ", 1)[1].rstrip(")").split(", ")
    assert known == known_datasets() and "mini-dev" in known and "notes" not in known
    with pytest.raises(FileNotFoundError) as found:
        resolve("zzzzqqqq")  # nothing near: the list alone
    assert str(found.value).startswith("zzzzqqqq: no such dataset (known: "), found.value
    with pytest.raises(FileNotFoundError) as found:
        resolve(str(tmp_path / "gone" / "pages.jsonl"))  # a path: no names offered
    gone = tmp_path / "gone" / "pages.jsonl"
    assert str(found.value) == f"{gone}: no such dataset file or folder"


def test_resolve_says_where_it_looked_when_no_dataset_is_there(tmp_path, monkeypatch):
    """With no set anywhere (no shared folder beside the checkout), the name is said
    with the variable to set, or with the folder it names when it is set."""
    import blocksift.labeled as labeled

    monkeypatch.setattr(labeled, "default_roots", lambda: [])
    monkeypatch.delenv("BLOCKSIFT_DATASETS", raising=False)
    with pytest.raises(FileNotFoundError) as found:
        labeled.resolve("mini")
    assert str(found.value) == ("mini: no such dataset file, folder or name (set "
                                "$BLOCKSIFT_DATASETS to the folder holding the datasets)")
    monkeypatch.setenv("BLOCKSIFT_DATASETS", str(tmp_path))
    with pytest.raises(FileNotFoundError) as found:
        labeled.resolve("mini")
    assert str(found.value) == (f"mini: no such dataset file, folder or name (none under "
                                f"$BLOCKSIFT_DATASETS ({tmp_path}))")

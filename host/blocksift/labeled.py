"""Labeled pages and the reader of the shared dev datasets' format.

A shared type below the algorithms: FAR-SW trains on labeled pages, the examples store
exports them, evaluation scores them (``blocksift.evaluation.datasets`` re-exports this
module under its former name).

A dataset is a folder holding ``pages.jsonl.gz`` (or a ``.jsonl`` / ``.jsonl.gz`` file):
one JSON object per line with at least ``id``, ``html`` and ``gold``; optional ``url``,
``site``, ``host``, ``lang``, and (``wcxb-dev``) ``page_type``, ``title``, ``author``,
``publish_date``, ``snippets_with``, ``snippets_without`` (also read as ``with`` /
``without``, the benchmark's own names). A page without ``gold`` can still be scored on its
snippets; an empty ``gold`` means the page has no main content. ``blocksift examples export``
writes the same format.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Environment variable naming the folder that holds the dev datasets.
DATASETS_ENV = "BLOCKSIFT_DATASETS"


@dataclass(frozen=True)
class LabeledPage:
    """One page with its expected main text."""

    id: str
    html: str
    gold: str
    url: str | None = None
    site: str | None = None
    lang: str | None = None
    page_type: str | None = None
    title: str | None = None
    author: str | None = None
    publish_date: str | None = None
    #: short passages a correct extraction must include / must leave out (wcxb-dev)
    snippets_with: tuple[str, ...] = field(default_factory=tuple)
    snippets_without: tuple[str, ...] = field(default_factory=tuple)
    #: False when the record has no ``gold`` field (``gold`` is then "" but means "unknown")
    has_gold: bool = True


#: The file a dataset's folder holds its pages in, the first found.
PAGES_FILES = ("pages.jsonl.gz", "pages.jsonl")


def dataset_file(path: str | os.PathLike[str]) -> Path:
    """The JSONL file of a dataset given as a folder or a file."""
    path = Path(path)
    if path.is_dir():
        for name in PAGES_FILES:
            if (path / name).exists():
                return path / name
        raise FileNotFoundError(f"{path}: no pages.jsonl.gz or pages.jsonl in this folder")
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such dataset")
    return path


def resolve(name_or_path: str) -> Path:
    """A dataset path, or a name looked up under ``$BLOCKSIFT_DATASETS`` / ``../shared``;
    FileNotFoundError saying :func:`no_such_dataset` when neither."""
    candidate = Path(name_or_path)
    if candidate.exists():
        return dataset_file(candidate)
    for root in dataset_roots():
        if (root / name_or_path).exists():
            return dataset_file(root / name_or_path)
    raise FileNotFoundError(no_such_dataset(name_or_path))


def no_such_dataset(name: str) -> str:
    """What :func:`resolve` says of a ``name`` it does not find: a path (a separator in it,
    or a .jsonl/.gz name) is no file or folder; a name is looked up among
    :func:`known_datasets`, the nearest offered ('cleaneval: no such dataset (set
    $BLOCKSIFT_DATASETS)' was said with it set, beside a folder named cleaneval-dev)."""
    from difflib import get_close_matches

    if os.sep in name or (os.altsep and os.altsep in name) or name.endswith((".jsonl", ".gz")):
        return f"{name}: no such dataset file or folder"  # a path: not a name to look up
    known = known_datasets()
    if not known:
        given = os.environ.get(DATASETS_ENV)
        where = (f"none under ${DATASETS_ENV} ({given})" if given
                 else f"set ${DATASETS_ENV} to the folder holding the datasets")
        return f"{name}: no such dataset file, folder or name ({where})"
    near = get_close_matches(name, known, n=1, cutoff=0.6)
    return (f"{name}: no such dataset" + (f"; did you mean {near[0]}?" if near else "")
            + f" (known: {', '.join(known)})")


def dataset_roots() -> list[Path]:
    """Where a dataset's name is looked up, in order: ``$BLOCKSIFT_DATASETS``, then
    :func:`default_roots`."""
    given = os.environ.get(DATASETS_ENV)
    return ([Path(given)] if given else []) + default_roots()


def known_datasets() -> list[str]:
    """The names of the datasets found under :func:`dataset_roots`, sorted."""
    return sorted({folder.name for root in dataset_roots() if root.is_dir()
                   for folder in root.iterdir()
                   if any((folder / name).is_file() for name in PAGES_FILES)})


def default_roots() -> list[Path]:
    """Where the shared dev datasets are expected beside a checkout."""
    here = Path(__file__).resolve()  # host/blocksift/labeled.py: the checkout is parents[2]
    return [parent / "shared" / "datasets" for parent in here.parents[2:5]] + \
        [Path.cwd().parent / "shared" / "datasets"]


def _lines(file: Path, limit: int | None) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of each non-blank line among the first ``limit`` of a dataset file
    (bytes: a line that is not UTF-8 can be named)."""
    opener = gzip.open if file.suffix == ".gz" else open
    with opener(file, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            if limit is not None and number > limit:
                return
            if not raw.isspace():
                yield number, raw


class DatasetError(ValueError):
    """A dataset file that cannot be read as one: not JSON lines, a line that is no page,
    not UTF-8, a damaged or cut gzip stream. The message names the file and the line."""


def iter_records(path: str | os.PathLike[str], limit: int | None = None,
                 labeled: bool = False) -> Iterator[dict[str, Any]]:
    """The records (dicts with an ``html`` text) of a dataset file, among its first ``limit``
    lines; :class:`DatasetError` for the first line that is not one, or a damaged file.
    ``labeled``: a record must have a ``gold`` text too (empty for a page with no main
    text), else it is no labeled page."""
    file = dataset_file(path)
    number = 0
    try:
        for number, raw in _lines(file, limit):
            try:
                record = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise DatasetError(f"{file}, line {number}: not UTF-8 text") from None
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{file}, line {number}: not JSON ({exc.msg})") from None
            if not isinstance(record, dict) or not isinstance(record.get("html"), str):
                raise DatasetError(f"{file}, line {number}: no \"html\" text, not a page")
            if labeled and not isinstance(record.get("gold"), str):
                raise DatasetError(f"{file}, line {number}: no \"gold\" text (the page's "
                                   "main text), not a labeled page")
            yield record
    except gzip.BadGzipFile:
        raise DatasetError(f"{file}: not a gzip file, though its name ends in .gz") from None
    except EOFError:
        raise DatasetError(f"{file}: the gzip file is cut short after line {number}") from None
    except zlib.error as exc:
        raise DatasetError(f"{file}: the gzip file is damaged after line {number} "
                           f"({exc})") from None


def record_address(record: dict[str, Any], page: Any = None) -> tuple[str | None, str | None]:
    """The address a dataset record is a page of, and where it came from: its ``url`` when
    that has a host (``"url"``); else the address its page names for itself, as ``extract``
    reads a saved page (:func:`blocksift.page_address.declared_address`: ``"saved from"``,
    ``"canonical"``, ``"og:url"``); else ``(None, None)``. ``page``: the record's page if
    parsed already (a :class:`~blocksift.page.Page` of its ``html``); nothing is fetched."""
    from .sites import site_key

    url = record.get("url")
    if isinstance(url, str) and site_key(url):
        return url, "url"
    from .page_address import declared_address

    if page is None:
        from .page import Page

        page = Page(record["html"])
    found = declared_address(page)
    return found if found is not None else (None, None)


def iter_pages(path: str | os.PathLike[str], limit: int | None = None) -> Iterator[LabeledPage]:
    """Labeled pages of a dataset, in file order (:class:`DatasetError` for a damaged one)."""
    for number, row in enumerate(iter_records(path, limit), 1):
        yield LabeledPage(
            id=str(row.get("id", number)), html=row["html"], gold=row.get("gold") or "",
            url=row.get("url"), site=row.get("site"), lang=row.get("lang"),
            page_type=row.get("page_type"), title=row.get("title"),
            author=row.get("author"), publish_date=row.get("publish_date"),
            snippets_with=_strings(row, "snippets_with", "with"),
            snippets_without=_strings(row, "snippets_without", "without"),
            has_gold=row.get("gold") is not None)


#: Above this size (on disk) a set's pages are not counted ahead: reading it twice would
#: keep a long run silent for minutes before its bar starts.
COUNT_AHEAD_BYTES = 512 * 1024 * 1024


def count_pages(path: str | os.PathLike[str], limit: int | None = None) -> int | None:
    """How many pages :func:`iter_pages` yields (its non-blank lines among the first
    ``limit``), for a progress bar's total, or None when the file cannot be read through
    (the run that reads it then says why) or is larger than :data:`COUNT_AHEAD_BYTES` without
    a ``limit``. Lines are counted without parsing their JSON: about 1 s for a 70 MB gzipped
    set, against minutes of extraction."""
    try:
        file = dataset_file(path)
        if limit is None and file.stat().st_size > COUNT_AHEAD_BYTES:
            return None
        pages = sum(1 for _line in _lines(file, limit))
    except (OSError, EOFError, ValueError, zlib.error):  # missing, damaged or truncated
        return None
    return pages


def pages_total(datasets: Iterable[str | os.PathLike[str]], limit: int | None = None
                ) -> int | None:
    """:func:`count_pages` over several datasets (names or paths, ``limit`` pages of each);
    None when any of them cannot be counted."""
    total = 0
    for dataset in datasets:
        try:
            count = count_pages(resolve(str(dataset)), limit)
        except FileNotFoundError:
            return None
        if count is None:
            return None
        total += count
    return total


def _strings(row: dict, *keys: str) -> tuple[str, ...]:
    """The list of strings under the first of ``keys`` present (a lone string is one item)."""
    for key in keys:
        value = row.get(key)
        if value:
            return (value,) if isinstance(value, str) else tuple(str(v) for v in value)
    return ()


def load_pages(path: str | os.PathLike[str], limit: int | None = None) -> list[LabeledPage]:
    """All labeled pages of a dataset."""
    return list(iter_pages(path, limit))

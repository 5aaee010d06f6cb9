"""WARC input: HTML responses out of WARC files, every record accounted for.

Reading uses FastWARC (Resiliparse's reader; Rust core, gzip/zstd/lz4, about twice
warcio's speed on gzip). Each record either becomes a :class:`WarcPage` (an HTML response,
decoded with the HTTP header's charset, then the page's ``<meta>``, then detection) or a
:class:`Skip` with a reason, so that ``records in = pages + skips`` holds for every file.
A damaged gzip member does not end a file: reading resumes at the next member.

Skip reasons (:data:`SKIP_REASONS`): ``not-response`` (warcinfo, request, metadata,
revisit, ... records), ``http-status`` (not 2xx), ``not-html``, ``truncated``
(``WARC-Truncated`` set), ``oversized`` (payload above ``max_bytes``), ``empty`` (no
payload), ``unreadable`` (the
record's payload could not be read or decoded), ``damaged`` (a damaged region of the file:
one or more records lost, counted once), ``extract-error`` (the extractor raised).
"""

from __future__ import annotations

import glob
import gzip
import os
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable

from .page import decode_html

#: ``opener(path, "rb")`` -> a seekable binary file (``open``, an fsspec filesystem's ``open``).
Opener = Callable[[str, str], IO[bytes]]

SKIP_REASONS = ("not-response", "http-status", "not-html", "truncated", "oversized", "empty",
                "unreadable", "damaged", "extract-error")

#: Default payload cap: Common Crawl itself truncates payloads at 1 MiB; 5 MiB leaves room.
DEFAULT_MAX_BYTES = 5 * 1024 * 1024

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_MAGIC = b"WARC/1."
_SNIFF = (b"<!doctype html", b"<html", b"<head", b"<body")


class WarcUnavailable(ImportError):
    """FastWARC is not installed (``pip install 'blocksift[warc]'``)."""


@dataclass
class WarcPage:
    """One HTML response, decoded."""

    record_id: str
    url: str | None
    html: str
    metadata: dict[str, Any]


@dataclass
class Skip:
    """One record (or damaged region) that yields no page, and why."""

    reason: str
    record_id: str | None = None
    url: str | None = None
    detail: str = ""


@dataclass
class WarcCounts:
    """Records in, pages out, skips by reason; ``records == written + sum(skipped)``."""

    records: int = 0
    written: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    #: Bytes of the input read so far, to the start of the last record (a progress bar's
    #: position; :func:`blocksift.crawl.iter_items` adds up the files)
    bytes_read: int = 0

    def add(self, other: WarcCounts) -> None:
        self.records += other.records
        self.written += other.written
        self.skipped.update(other.skipped)

    @property
    def balanced(self) -> bool:
        return self.records == self.written + sum(self.skipped.values())

    def summary(self) -> str:
        """One line for stderr: ``12 records: 9 written, 3 skipped (not-html 2, ...)``."""
        reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(self.skipped.items()))
        skipped = sum(self.skipped.values())
        return (f"{self.records} records: {self.written} written, {skipped} skipped"
                + (f" ({reasons})" if reasons else ""))

    def to_dict(self) -> dict[str, Any]:
        return {"records": self.records, "written": self.written,
                "skipped": dict(sorted(self.skipped.items()))}


def expand_paths(patterns: Iterable[str]) -> list[str]:
    """Files named or matched by glob patterns, in order, each once.

    Raises :class:`FileNotFoundError` (a one-line message) for a pattern that matches no
    readable file, before anything is read.
    """
    paths: list[str] = []
    for pattern in patterns:
        if any(char in pattern for char in "*?["):
            matches = [m for m in sorted(glob.glob(pattern, recursive=True)) if os.path.isfile(m)]
        else:
            matches = [pattern] if os.path.isfile(pattern) else []
        if not matches:
            raise FileNotFoundError(f"no WARC file matches {pattern!r}")
        for match in matches:
            if not os.access(match, os.R_OK):
                raise FileNotFoundError(f"cannot read {match!r}")
            if match not in paths:
                paths.append(match)
    return paths


def require_fastwarc() -> Any:
    """The ``fastwarc.warc`` module, or :class:`WarcUnavailable` with the install hint."""
    try:
        from fastwarc import warc
    except ImportError:
        raise WarcUnavailable("reading WARC needs FastWARC: pip install 'blocksift[warc]'") \
            from None
    return warc


def _is_html(content_type: str | None, identified: str | None, head: bytes) -> bool:
    mime = (content_type or "").split(";")[0].strip().lower()
    if mime in _HTML_TYPES:
        return True
    if mime and mime not in ("application/octet-stream", "text/plain", "unknown"):
        return False
    if identified and identified.split(";")[0].strip().lower() in _HTML_TYPES:
        return True
    sniff = head[:1024].lstrip().lower()
    return any(marker in sniff for marker in _SNIFF)


def _classify(record: Any, warc: Any, max_bytes: int, source: str) -> WarcPage | Skip:
    headers = record.headers
    record_id = record.record_id
    url = headers.get("WARC-Target-URI")
    if record.record_type != warc.WarcRecordType.response or not record.is_http:
        return Skip("not-response", record_id, url, str(record.record_type))
    if headers.get("WARC-Truncated"):
        return Skip("truncated", record_id, url, headers.get("WARC-Truncated") or "")
    if record.content_length > max_bytes:
        return Skip("oversized", record_id, url, f"{record.content_length} bytes")
    status = record.http_headers.status_code
    if status is None or not 200 <= status < 300:
        return Skip("http-status", record_id, url, str(status))
    content_type = record.http_content_type
    try:
        data = record.reader.read()
    except (OSError, ValueError) as exc:
        return Skip("unreadable", record_id, url, str(exc))
    if not data.strip():
        return Skip("empty", record_id, url)
    if not _is_html(content_type, headers.get("WARC-Identified-Payload-Type"), data):
        return Skip("not-html", record_id, url, content_type or "")
    charset = record.http_charset
    try:
        html = decode_html(data, charset)
    except (ValueError, TypeError) as exc:
        return Skip("unreadable", record_id, url, str(exc))
    return WarcPage(record_id=record_id or "", url=url, html=html, metadata={
        "date": headers.get("WARC-Date"), "http_status": status,
        "content_type": content_type, "charset": charset,
        "warc_file": source, "offset": record.stream_pos,
    })


def _next_member(path: str, start: int, magic: bytes, opener: Opener) -> int | None:
    """Offset of the next gzip member (or uncompressed record) at or after ``start``."""
    with opener(path, "rb") as handle:
        handle.seek(start)
        offset, tail = start, b""
        while True:
            chunk = handle.read(1 << 20)
            if not chunk:
                return None
            data = tail + chunk
            found = data.find(magic)
            if found >= 0:
                return offset - len(tail) + found
            tail = data[-(len(magic) - 1):]
            offset += len(chunk)


def iter_warc(path: str, max_bytes: int = DEFAULT_MAX_BYTES, counts: WarcCounts | None = None,
              opener: Opener = open, offset: int = 0) -> Iterator[WarcPage | Skip]:
    """Every record of one WARC file as a page or a skip; resumes after damaged members.

    ``counts.records`` is incremented for every record and damaged region (the caller
    adds ``written`` and ``skipped`` as it consumes what this yields), and
    ``counts.bytes_read`` follows the file's records (``offset``: the bytes of the files
    read before this one). ``opener(path, "rb")``
    must return a seekable binary file (``open``, or an fsspec filesystem's ``open``).
    """
    warc = require_fastwarc()
    with opener(path, "rb") as handle:
        magic = _GZIP_MAGIC if handle.read(2) == _GZIP_MAGIC[:2] else _WARC_MAGIC
    source = os.path.basename(path)
    start, first = 0, True
    while True:
        last = None  # absolute offset of the last record read since ``start``
        try:
            with opener(path, "rb") as handle:
                handle.seek(start)
                records = warc.ArchiveIterator(handle, auto_decode="all", fsspec_args=False)
                for record in records:
                    last = record.stream_pos  # absolute: FastWARC starts at handle.tell()
                    if counts is not None:
                        counts.records += 1
                        counts.bytes_read = offset + last
                    item = _classify(record, warc, max_bytes, source)
                    yield item
            return
        except OSError as exc:
            # A damaged region is counted once: a resume point that fails at once is the
            # same region (its member header survived), so it is stepped over silently.
            if last is not None or first:
                if counts is not None:
                    counts.records += 1
                yield Skip("damaged", detail=f"{source} after offset {last or start}: {exc}")
            first = False
            resume = _next_member(path, (last if last is not None else start) + 1, magic,
                                  opener)
            if resume is None:
                return
            start = resume


# -- writing: small WARC files for tests and benchmarks --------------------------------------

def response_record(url: str, body: bytes, content_type: str | None = "text/html",
                    status: int = 200, warc_headers: dict[str, str] | None = None,
                    http_headers: dict[str, str] | None = None,
                    record_id: str | None = None, date: str = "2026-01-01T00:00:00Z") -> bytes:
    """One WARC/1.1 ``response`` record (uncompressed bytes) for an HTTP response."""
    http_head = f"HTTP/1.1 {status} {'OK' if status == 200 else 'Status'}\r\n"
    if content_type is not None:
        http_head += f"Content-Type: {content_type}\r\n"
    http_head += "".join(f"{key}: {value}\r\n" for key, value in (http_headers or {}).items())
    http = (http_head + f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1") + body
    return _record("response", url, http, "application/http; msgtype=response",
                   warc_headers, record_id, date)


def other_record(kind: str, url: str, block: bytes, content_type: str,
                 record_id: str | None = None, date: str = "2026-01-01T00:00:00Z") -> bytes:
    """A record of another type (``warcinfo``, ``request``, ``metadata``, ...)."""
    return _record(kind, url, block, content_type, None, record_id, date)


def _record(kind: str, url: str, block: bytes, content_type: str,
            warc_headers: dict[str, str] | None, record_id: str | None, date: str) -> bytes:
    lines = ["WARC/1.1", f"WARC-Type: {kind}",
             f"WARC-Record-ID: {record_id or f'<urn:uuid:{uuid.uuid4()}>'}",
             f"WARC-Date: {date}", f"WARC-Target-URI: {url}"]
    lines += [f"{key}: {value}" for key, value in (warc_headers or {}).items()]
    lines += [f"Content-Type: {content_type}", f"Content-Length: {len(block)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + block + b"\r\n\r\n"


def write_warc_gz(path: str | Path, records: Iterable[bytes]) -> int:
    """Write records as a ``.warc.gz`` with one gzip member per record (the WARC norm)."""
    count = 0
    with open(path, "wb") as out:
        for record in records:
            out.write(gzip.compress(record, compresslevel=6))
            count += 1
    return count

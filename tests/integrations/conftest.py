"""A small WARC file written by the tests themselves, and ``blocksift batch --warc`` on it.

The file holds every kind of record a crawl has: warcinfo and request records, HTML
responses whose charset comes from the HTTP header, from ``<meta>`` or from neither, a
gzip-encoded body, a non-HTML response, a 404, a truncated and an oversized record, and one
damaged gzip member in the middle. ``EXPECTED_SKIPS`` is what the accounting must find.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blocksift import warc  # FastWARC itself is imported only when a file is read

REPO = Path(__file__).resolve().parents[2]

#: Payload cap used with the small file; the "oversized" page is above it.
MAX_BYTES = 20_000


def _article(title: str, words: str, paragraphs: int = 6) -> str:
    body = "".join(f"<p>{words} Paragraph {i} carries enough words to be the main text of "
                   f"this page, as a reader would see it.</p>" for i in range(paragraphs))
    return (f"<html><head><title>{title}</title></head><body>"
            f"<nav><a href='/'>Home</a> <a href='/a'>About</a> <a href='/b'>Blog</a></nav>"
            f"<article><h1>{title}</h1>{body}</article>"
            f"<footer><a href='/c'>Contact</a> <a href='/p'>Privacy</a></footer></body></html>")


#: (url, body bytes, HTTP Content-Type, extra HTTP headers) of the HTML responses kept.
PAGES = [
    ("http://example.org/latin", _article("Café crème", "Un café crème à la française.")
     .encode("iso-8859-1"), "text/html; charset=iso-8859-1", {}),
    ("http://example.org/cyrillic",
     ("<html><head><meta charset='windows-1251'><title>Привет</title></head><body><article>"
      + "".join(f"<p>Привет мир, абзац {i}: достаточно слов для основного текста.</p>"
                for i in range(6)) + "</article></body></html>").encode("windows-1251"),
     "text/html", {}),
    ("http://example.org/plain", _article("Plain UTF-8", "Naïve façade — “quoted”.")
     .encode("utf-8"), "text/html", {}),
    ("http://example.org/gzip", gzip.compress(_article("Gzipped body", "Compressed in transit.")
                                              .encode("utf-8")),
     "text/html; charset=utf-8", {"Content-Encoding": "gzip"}),
    ("http://example.org/xhtml", _article("XHTML page", "Served as XHTML.").encode("utf-8"),
     "application/xhtml+xml", {}),
    ("http://example.org/after-damage", _article("After the damage", "Still read.")
     .encode("utf-8"), "text/html", {}),
]

EXPECTED_SKIPS = {"not-response": 1 + len(PAGES) + 1, "not-html": 2, "http-status": 1,
                  "truncated": 1, "oversized": 1, "damaged": 1}


def write_small_warc(path: Path) -> int:
    """Write the test WARC; returns how many records it holds (the damaged one included)."""
    members: list[bytes] = [warc.other_record("warcinfo", "", b"software: blocksift-tests\r\n",
                                              "application/warc-fields")]

    def request(url: str) -> bytes:
        return warc.other_record("request", url, b"GET / HTTP/1.1\r\nHost: example.org\r\n\r\n",
                                 "application/http; msgtype=request")

    for url, body, content_type, headers in PAGES[:-1]:
        members += [request(url), warc.response_record(url, body, content_type,
                                                       http_headers=headers)]
    members += [
        warc.response_record("http://example.org/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64),
                             "image/png"),
        warc.response_record("http://example.org/api", b'{"a": 1}', "application/json"),
        warc.response_record("http://example.org/missing", _article("Not found", "Gone.")
                             .encode(), "text/html", status=404),
        warc.response_record("http://example.org/cut", b"<html><body><p>cut sho",
                             "text/html", warc_headers={"WARC-Truncated": "length"}),
        warc.response_record("http://example.org/huge", _article("Huge", "Big. " * 200, 40)
                             .encode(), "text/html"),
        warc.response_record("http://example.org/damaged", _article("Damaged", "Lost.")
                             .encode(), "text/html"),
        request("http://example.org/after-damage"),
    ]
    url, body, content_type, headers = PAGES[-1]
    members.append(warc.response_record(url, body, content_type, http_headers=headers))
    members.append(warc.other_record("metadata", url, b"fetchTimeMs: 12\r\n",
                                     "application/warc-fields"))
    compressed = [gzip.compress(member) for member in members]
    damaged_index = next(i for i, m in enumerate(members) if b"example.org/damaged" in m)
    broken = bytearray(compressed[damaged_index])
    broken[40:80] = bytes(40)  # zeroes inside the deflate stream: a data error
    compressed[damaged_index] = bytes(broken)
    path.write_bytes(b"".join(compressed))
    return len(members)


@pytest.fixture(scope="session")
def small_warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("warc") / "small.warc.gz"
    write_small_warc(path)
    return path


def run_batch(*args: str) -> subprocess.CompletedProcess[str]:
    """``blocksift batch`` as a user runs it, in a real process."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"))
    return subprocess.run([sys.executable, "-m", "blocksift", "batch", "--no-progress", *args],
                          capture_output=True, text=True, timeout=300, env=env, cwd=REPO)


@pytest.fixture(scope="session")
def batch_lines(small_warc: Path) -> list[dict]:
    """``blocksift batch --warc`` output on the small file: the reference for integrations."""
    done = run_batch("--warc", str(small_warc), "--max-bytes", str(MAX_BYTES), "-j", "1")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]

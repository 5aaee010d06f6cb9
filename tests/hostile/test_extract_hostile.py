"""``blocksift extract`` on hostile files: an answer or a one-line error, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TEXT = "<p>" + "Words of the article body. " * 30 + "</p>"

HOSTILE_FILES = {
    "attribute-bomb": ("<html><body><div " + " ".join(f"a{i}=x" for i in range(100_000))
                       + f">{TEXT}</div></body></html>").encode(),
    "invalid-bytes": b"<html><body><p>caf\xe9 \xff\xfe\x80 bytes</p>" + TEXT.encode() + b"</body>",
    "encoded-surrogates": b"<html><body><p>\xed\xa0\x80 lone</p>" + TEXT.encode() + b"</body>",
    "nul-and-controls": ("<html><body>\x00\x01\x1b" + TEXT + "\x00</body>").encode(),
    "deep-nesting": ("<div>" * 50_000 + TEXT).encode(),
    "unclosed-comment": ("<html><body>" + TEXT + "<!-- never closed " + "x" * 10_000).encode(),
    "empty": b"",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
@pytest.mark.parametrize("algorithm", ["auto", "linkblocks"])
def test_extract_answers_every_hostile_file(tmp_path, name, algorithm):
    page = tmp_path / f"{name}.html"
    page.write_bytes(HOSTILE_FILES[name])
    done = subprocess.run([sys.executable, "-m", "blocksift", "extract", str(page), "--algo",
                           algorithm, "--format", "json"], capture_output=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(REPO / "host"),
                                   BLOCKSIFT_HOME=str(tmp_path / "home")))
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert done.returncode in (0, 1, 2), done.stderr.decode(errors="replace")
    if done.returncode == 2:  # input that is not HTML (binary): a one-line usage error
        assert len(done.stderr.decode().strip().splitlines()) == 1
        assert name == "nul-and-controls", done.stderr
        return
    result = json.loads(done.stdout.decode("utf-8"))  # valid UTF-8 JSON
    if done.returncode == 0 and name != "empty":
        assert "Words of the article body" in result["main"]["text"]


def _extract(tmp_path: Path, page: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "blocksift", "extract", str(page), *args],
                          capture_output=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(REPO / "host"),
                                   BLOCKSIFT_HOME=str(tmp_path / "home")))


@pytest.mark.parametrize(("args", "page", "message"), [
    (("--timeout", "1"), "<div><a href='/x'>a link</a> words</div>" * 200_000,
     "blocksift: error: the page took longer than the 1 s time limit (--timeout)"),
    (("--memory-limit", "64"),
     "".join(f"<div><a href='/p{i}'>link number {i}</a></div>" for i in range(60_000)),
     "blocksift: error: the page needed more memory than the 64 MiB limit (--memory-limit)"),
], ids=["time", "memory"])
@pytest.mark.parametrize("output", ["text", "json", "html"])
def test_extract_stops_a_page_over_its_limits_with_one_line(tmp_path, args, page, message,
                                                           output):
    path = tmp_path / "hostile.html"
    path.write_text(f"<html><body>{page}</body></html>")
    done = _extract(tmp_path, path, "--algo", "auto", "--format", output, *args)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == message
    assert done.stdout == b""  # nothing half-written


def test_extract_under_its_limits_answers_as_before(tmp_path):
    path = tmp_path / "article.html"
    path.write_text(f"<html><body><article>{TEXT}</article></body></html>")
    done = _extract(tmp_path, path, "--format", "json", "--timeout", "120", "--memory-limit",
                    "512")
    assert done.returncode == 0, done.stderr
    assert "Words of the article body" in json.loads(done.stdout)["main"]["text"]
    usage = _extract(tmp_path, path, "--timeout", "0")
    assert usage.returncode == 2 and len(usage.stderr.decode().strip().splitlines()) == 1

"""``blocksift batch`` on hostile input: every line answered, in order, as valid UTF-8 JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTICLE = ("<html><body><article><h1>Title</h1><p>" + "Words of the article body. " * 30
           + "</p></article></body></html>")


def batch(*args: str, stdin: bytes, home: Path) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "blocksift", "batch", "--no-progress", *args],
                          input=stdin, capture_output=True, timeout=600, env=env, cwd=REPO)


def lines_of(done: subprocess.CompletedProcess[bytes]) -> list[dict]:
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr
    text = done.stdout.decode("utf-8")  # raises on invalid UTF-8
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("algorithm", ["linkblocks", "farsw", "auto", "linkdensity"])
def test_lone_surrogates_and_invalid_bytes_are_handled_at_the_boundary(tmp_path, algorithm):
    surrogate_page = ('{"id": "s\\ud800", "html": "<p>text \\ud800 and \\udfff more</p>\\n'
                      '<p>' + "line of text " * 20 + '</p>"}').encode()
    invalid_bytes = b'{"id": "b", "html": "<p>caf\xe9 \xff\xfe bytes</p>\\n<p>more</p>"}'
    lines = [json.dumps({"id": "first", "html": ARTICLE}).encode(), surrogate_page,
             invalid_bytes, json.dumps({"id": "last", "html": ARTICLE}).encode()]
    out = lines_of(batch("--algo", algorithm, "--jobs", "2", stdin=b"\n".join(lines) + b"\n",
                         home=tmp_path))
    assert [record["id"] for record in out] == ["first", "s\ufffd", "b", "last"]
    assert all("error" not in record for record in out), out
    assert "\ud800" not in out[1]["text"]  # what an algorithm keeps of it is well formed


def test_a_page_over_the_time_limit_is_an_error_line_and_the_run_goes_on(tmp_path):
    huge = "<html><body>" + "<div><a href='/x'>a link</a> words</div>" * 400_000 + "</body>"
    lines = [json.dumps({"id": "before", "html": ARTICLE}),
             json.dumps({"id": "slow", "html": huge}),
             json.dumps({"id": "after", "html": ARTICLE})]
    # 10 s: minutes short of what the slow page needs, yet room for the small pages (and
    # the replaced worker's start) on a loaded machine, where 0.5 s was not
    out = lines_of(batch("--algo", "auto", "--jobs", "1", "--timeout", "10",
                         stdin=("\n".join(lines) + "\n").encode(), home=tmp_path))
    assert [record["id"] for record in out] == ["before", "slow", "after"]
    assert out[1]["code"] == 3001 and "10 s" in out[1]["error"]
    assert "Words of the article" in out[2]["text"]


def test_a_page_over_the_memory_limit_is_an_error_line_and_the_run_goes_on(tmp_path):
    links = "".join(f"<div><a href='/p{i}'>link number {i}</a></div>" for i in range(60_000))
    lines = [json.dumps({"id": "hog", "html": f"<html><body>{links}</body></html>"}),
             json.dumps({"id": "after", "html": ARTICLE})]
    out = lines_of(batch("--algo", "auto", "--jobs", "1", "--memory-limit", "64",
                         stdin=("\n".join(lines) + "\n").encode(), home=tmp_path))
    assert out[0]["id"] == "hog" and out[0]["code"] == 3005, out[0]
    assert out[1]["id"] == "after" and "Words of the article" in out[1]["text"]


def test_an_attribute_bomb_is_answered_within_the_time_limit(tmp_path):
    bomb = "<div " + " ".join(f"a{i}=x" for i in range(100_000)) + ">bomb text</div>"
    lines = [json.dumps({"id": "bomb", "html": f"<html><body>{bomb}{ARTICLE}</body></html>"})]
    for algorithm in ("auto", "linkblocks", "farsw"):
        out = lines_of(batch("--algo", algorithm, "--jobs", "1", "--timeout", "20",
                             stdin=("\n".join(lines) + "\n").encode(), home=tmp_path))
        assert out[0]["id"] == "bomb" and "error" not in out[0], out[0]


def test_bad_options_are_a_usage_error(tmp_path):
    done = batch("--timeout", "0", stdin=b"", home=tmp_path)
    assert done.returncode == 2 and b"Traceback" not in done.stderr

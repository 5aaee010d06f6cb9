"""Replies over the browser's 1 MiB limit are split into chunks that join back exactly."""

from __future__ import annotations

import json

import pytest

from blocksift.service.session import chunk_messages


@pytest.mark.parametrize("alphabet", ["abc", "\x01\x02\"\\", "北京汉字", "😀🎉", "a\u2028b"])
def test_chunks_fit_the_limit_and_join_back_exactly(alphabet):
    text = json.dumps({"type": "result", "id": "r", "data": alphabet * 40_000},
                      ensure_ascii=False)
    limit = 64 * 1024
    chunks = chunk_messages(text, "r", limit)
    assert len(chunks) > 1
    parsed = [json.loads(c) for c in chunks]
    assert all(len(c.encode("utf-8")) <= limit for c in chunks)
    assert [p["seq"] for p in parsed] == list(range(len(chunks)))
    assert {p["count"] for p in parsed} == {len(chunks)}
    assert "".join(p["data"] for p in parsed) == text


def test_chunking_does_not_waste_frames():
    text = "x" * 1_000_000
    chunks = chunk_messages(text, "r", 100_000)
    assert len(chunks) <= 11

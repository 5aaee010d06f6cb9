"""Uploads (storage/uploads.py): the chunks of a file the options page imports, on disk.
What the host's session does with them is tested in tests/service/test_examples_import.py;
here, the limits that would take a real browser hours or half a gigabyte to reach."""

from __future__ import annotations

import base64

import pytest

from blocksift.storage.uploads import MAX_OPEN, UploadError, Uploads


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_chunks_in_order_make_the_file_and_take_hands_it_over(tmp_path):
    uploads = Uploads(tmp_path)
    uploads.add("a", 0, b64(b"one\n"), name="pages.jsonl")
    upload = uploads.add("a", 1, b64(b"two\n"))
    assert (upload.size, upload.next_index, upload.name) == (8, 2, "pages.jsonl")
    taken = uploads.take("a")
    assert taken.path.read_bytes() == b"one\ntwo\n" and taken.path.suffix == ".jsonl"
    assert uploads.open_ids() == []
    with pytest.raises(UploadError) as unknown:
        uploads.add("a", 2, b64(b"three"))
    assert unknown.value.unknown


def test_the_running_total_past_the_cap_drops_the_upload(tmp_path):
    uploads = Uploads(tmp_path, max_bytes=10)
    uploads.add("a", 0, b64(b"123456"), name="big.jsonl.gz")
    with pytest.raises(UploadError, match="big.jsonl.gz is larger than"):
        uploads.add("a", 1, b64(b"7890x"))
    assert list(tmp_path.iterdir()) == [] and uploads.open_ids() == []


def test_an_idle_upload_is_dropped_at_the_next_chunk_of_any(tmp_path):
    clock = Clock()
    uploads = Uploads(tmp_path, idle=60, clock=clock)
    uploads.add("old", 0, b64(b"x"))
    clock.now += 61
    uploads.add("new", 0, b64(b"y"))
    assert uploads.open_ids() == ["new"] and len(list(tmp_path.iterdir())) == 1
    with pytest.raises(UploadError) as late:
        uploads.add("old", 1, b64(b"z"))
    assert late.value.unknown


def test_at_most_a_few_uploads_are_open_and_a_restart_replaces_its_file(tmp_path):
    clock = Clock()
    uploads = Uploads(tmp_path, clock=clock)
    for n in range(MAX_OPEN + 2):
        clock.now += 1
        uploads.add(f"u{n}", 0, b64(b"x"))
    assert uploads.open_ids() == [f"u{n}" for n in range(2, MAX_OPEN + 2)]
    assert len(list(tmp_path.iterdir())) == MAX_OPEN
    uploads.add("u2", 0, b64(b"again"))  # chunk 0 again: a new upload of the same id
    assert len(list(tmp_path.iterdir())) == MAX_OPEN
    uploads.close()
    assert list(tmp_path.iterdir()) == []

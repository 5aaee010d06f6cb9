"""The options page's Import: a datasets-format file sent to the real host in chunks
(``examples.import``) over native messaging, into its real examples database and site files.

Every reply is checked against its model; after every upload, done or refused, the host's
imports folder holds no file of it, and the host goes on serving.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import time
from pathlib import Path

import pytest
from native_host import Host


def page(n: int) -> str:
    return (f"<html><head><title>Ferry {n}</title></head><body><nav><a href='/'>Home</a></nav>"
            f"<article><p>The ferry number {n} leaves the harbour at dawn and comes back at "
            f"dusk, every day of the winter.</p></article></body></html>")


def record(n: int, site: str = "ferries.example") -> dict:
    return {"id": f"p{n}", "url": f"https://{site}/{n}.html", "title": f"Ferry {n}",
            "created": 1_700_000_000 + n, "html": page(n),
            "gold": f"The ferry number {n} leaves the harbour at dawn and comes back at dusk, "
                    "every day of the winter."}


def dataset(records: list[dict], gz: bool = True) -> bytes:
    text = "".join(json.dumps(r) + "\n" for r in records).encode()
    return gzip.compress(text) if gz else text


def _pages_counted(home: Path) -> dict[str, int]:
    folder = home / "data" / "models" / "auto-sites"
    return {f.stem: json.loads(f.read_text())["pages"] for f in folder.glob("*.json")}


def test_a_file_sent_in_chunks_is_imported_once_and_its_upload_deleted(host):
    data = dataset([record(n) for n in range(3)] + [record(9, "quays.example")])
    *received, done = host.upload(data, pieces=3)
    assert [r["type"] for r in received] == ["examples.received"] * 2
    assert [r["index"] for r in received] == [0, 1]
    assert received[-1]["bytes"] < len(data)
    assert done["type"] == "examples.imported", done
    assert (done["added"], done["replaced"], done["skippedCount"]) == (4, 0, 0)
    assert (done["bytes"], done["name"]) == (len(data), "pages.jsonl.gz")
    assert host.imports() == []
    listing = host.ask({"type": "examples.list", "id": "l"})
    assert listing["total"] == 4
    assert {item["title"] for item in listing["items"]} == {"Ferry 0", "Ferry 1", "Ferry 2",
                                                           "Ferry 9"}
    # counted into their sites' adaptation, as saved ones are
    assert _pages_counted(host.home) == {"ferries.example": 3, "quays.example": 1}

    # the same file again: every page has an example already, skipped by default...
    again = host.upload(data, upload_id="u2", pieces=2)[-1]
    assert (again["added"], again["skippedCount"]) == (0, 4)
    assert again["skipped"][0]["reason"] == "this page has an example already"
    assert again["skipped"][0]["url"].startswith("https://")
    assert host.count() == 4
    # ... or stored instead, the stored ones kept restorable
    replaced = host.upload(data, upload_id="u3", pieces=1, on_duplicate="replace")[-1]
    assert (replaced["added"], replaced["replaced"], replaced["skippedCount"]) == (4, 4, 0)
    assert host.count() == 4
    assert _pages_counted(host.home) == {"ferries.example": 3, "quays.example": 1}
    assert host.imports() == []


def test_a_plain_jsonl_file_and_one_gzipped_under_another_name(host):
    plain = host.upload(dataset([record(1)], gz=False), name="pages.jsonl")[-1]
    assert plain["added"] == 1, plain
    # a gzip file whose name does not say so is read as gzip all the same
    zipped = host.upload(dataset([record(2)]), upload_id="u2", name="pages.jsonl")[-1]
    assert zipped["added"] == 1, zipped
    assert host.count() == 2 and host.imports() == []


def test_a_chunk_out_of_order_drops_its_upload_and_the_host_keeps_serving(host):
    data = base64.b64encode(dataset([record(1)])).decode()
    first = host.ask({"type": "examples.import", "id": "a0", "uploadId": "up", "index": 0,
                      "data": data[:40], "name": "pages.jsonl.gz"})
    assert first["type"] == "examples.received"
    assert len(host.imports()) == 1  # the upload's file, while it is open
    skipped = host.ask({"type": "examples.import", "id": "a2", "uploadId": "up", "index": 2,
                        "data": data[40:]})
    assert skipped["type"] == "error" and skipped["code"] == 2002
    assert "chunk 2 of upload up came where chunk 1 was expected" in skipped["message"]
    assert host.imports() == []
    # the upload is gone: its next chunk is of no upload
    late = host.ask({"type": "examples.import", "id": "a1", "uploadId": "up", "index": 1,
                     "data": data[40:], "last": True})
    assert late["code"] == 2004 and "no upload up is open" in late["message"]
    host.alive()
    assert host.upload(dataset([record(1)]))[-1]["added"] == 1


def test_an_unknown_upload_not_base64_and_oversize_are_refused_clearly(host):
    unknown = host.ask({"type": "examples.import", "id": "x", "uploadId": "never", "index": 3,
                        "data": "", "last": True})
    assert unknown["code"] == 2004 and "send the file again from its start" in unknown["message"]
    bad = host.ask({"type": "examples.import", "id": "b", "uploadId": "b", "index": 0,
                    "data": "not base64!"})
    assert bad["code"] == 2002 and "not base64" in bad["message"]
    huge = host.ask({"type": "examples.import", "id": "h", "uploadId": "h", "index": 0,
                     "data": "", "name": "all.jsonl.gz", "size": 600 * 1024 * 1024})
    assert huge["code"] == 2002
    assert "all.jsonl.gz is larger than the 512 MiB" in huge["message"]
    # a chunk past the protocol's size, an upload id that is no name: the message's model
    too_big = host.ask({"type": "examples.import", "id": "t", "uploadId": "t", "index": 0,
                        "data": "A" * (1024 * 1024 + 4)})
    assert too_big["code"] == 1007 and "data" in too_big["message"]
    path_like = host.ask({"type": "examples.import", "id": "p", "uploadId": "../x",
                          "index": 0, "data": ""})
    assert path_like["code"] == 1007 and "uploadId" in path_like["message"]
    assert host.imports() == []
    host.alive()
    assert host.count() == 0


@pytest.mark.parametrize("name, data, words", [
    ("notes.jsonl", dataset([record(1)], gz=False) + b"{not json\n", "notes.jsonl, line 2: not JSON"),
    ("nogold.jsonl", dataset([record(1), {"url": "https://a.example/", "html": "<p>x</p>"}],
                             gz=False), "nogold.jsonl, line 2: no \"gold\" text"),
    ("cut.jsonl.gz", dataset([record(n) for n in range(40)])[:-30], "cut.jsonl.gz: the gzip file"),
    ("fake.jsonl.gz", dataset([record(1)], gz=False), "fake.jsonl.gz: not a gzip file"),
])
def test_a_bad_file_adds_nothing_and_says_why(host, name, data, words):
    host.upload(dataset([record(100)]), upload_id="before")
    failed = host.upload(data, name=name, pieces=2)[-1]
    assert failed["type"] == "error" and failed["code"] == 2002, failed
    assert words in failed["message"], failed["message"]
    assert "nothing was added" in failed["message"]
    assert "upload-" not in failed["message"]  # the user's file is named, not the host's copy
    assert host.count() == 1  # the first record of a file with a bad line is not added
    assert host.imports() == []
    host.alive()


def test_an_empty_file_holds_no_pages(host):
    empty = host.upload(b"", name="empty.jsonl")[-1]
    assert empty["code"] == 2002 and "empty.jsonl holds no pages" in empty["message"]
    assert host.imports() == []


def test_a_client_gone_mid_upload_leaves_no_file(tmp_path):
    running = Host(tmp_path / "home")
    data = base64.b64encode(dataset([record(1)])).decode()
    assert running.ask({"type": "examples.import", "id": "a", "uploadId": "a", "index": 0,
                        "data": data[:20]})["type"] == "examples.received"
    assert len(running.imports()) == 1
    running.stop()  # the browser closed the port
    assert running.imports() == []


def test_a_killed_hosts_stale_upload_is_deleted_when_an_upload_starts(host):
    folder = host.home / "data" / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    stale = folder / "upload-0123456789abcdef.jsonl.gz"
    stale.write_bytes(b"left by a killed host")
    hour_ago = time.time() - 2 * 3600
    os.utime(stale, (hour_ago, hour_ago))
    fresh = folder / "upload-fedcba9876543210.jsonl"  # another host, adding to it now
    fresh.write_bytes(b"{}")
    mine = folder / "notes.txt"  # not an upload: never touched
    os.utime(mine.parent, None)
    mine.write_text("x")
    os.utime(mine, (hour_ago, hour_ago))
    assert host.upload(dataset([record(1)]))[-1]["added"] == 1
    assert host.imports() == ["notes.txt", "upload-fedcba9876543210.jsonl"]

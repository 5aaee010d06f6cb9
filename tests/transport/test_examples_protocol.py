"""Capturing labeled examples over the protocol, against the real host process."""

from __future__ import annotations

import gzip
import json

import pytest

PAGE = ('<html><head><title>Ledger</title></head><body data-bsid="1"><div data-bsid="2">'
        '<a data-bsid="3" href="/">Home</a> <a data-bsid="4" href="/a">A</a></div>'
        '<article data-bsid="5"><p data-bsid="6">Kept paragraph one.</p><p data-bsid="7">'
        'Dropped by the user.</p><p data-bsid="8">Kept paragraph two.</p></article></body>'
        '</html>')


def test_save_list_get_export_delete(host, blocksift_home):
    host.send({"type": "examples.save", "id": "s0", "url": "https://ex.org/x", "html": PAGE,
               "mainIds": ["6", "8"], "private": True})
    refused = host.recv()
    assert refused["type"] == "error" and refused["code"] == 2005

    host.send({"type": "examples.save", "id": "s1", "url": "https://ex.org/x", "html": PAGE,
               "mainIds": ["6", "8"], "blocks": [{"kind": "links", "ids": ["2", "3", "4"]}],
               "algorithm": "linkblocks", "algorithmOutput": {"status": "ok"}})
    saved = host.recv()
    assert saved["type"] == "examples.saved", saved
    example_id = saved["exampleId"]

    host.send({"type": "examples.list", "id": "l1"})
    listing = host.recv()
    assert listing["total"] == 1 and listing["items"][0]["exampleId"] == example_id
    assert listing["items"][0]["title"] == "Ledger"

    host.send({"type": "examples.get", "id": "g1", "exampleId": example_id})
    item = host.recv()["example"]
    assert item["mainText"] == "Kept paragraph one.\nKept paragraph two."
    assert item["blocks"][0]["ids"] == ["2", "3", "4"] and item["html"] == PAGE

    target = blocksift_home / "data" / "exports" / "out" / "pages.jsonl.gz"
    host.send({"type": "examples.export", "id": "x1", "path": str(target)})
    exported = host.recv()
    assert exported["count"] == 1 and exported["path"] == str(target)
    assert exported["replaced"] is False  # no earlier export there
    with gzip.open(target, "rt", encoding="utf-8") as handle:
        (record,) = [json.loads(line) for line in handle]
    assert record["gold"] == "Kept paragraph one.\nKept paragraph two."
    assert "Dropped by the user" not in record["gold"] and record["html"] == PAGE

    host.send({"type": "examples.delete", "id": "d1", "exampleId": example_id})
    assert host.recv()["found"] is True
    host.send({"type": "examples.get", "id": "g2", "exampleId": example_id})
    assert host.recv()["code"] == 2004


def test_an_example_labeled_by_its_text_is_stored_again_as_it_was(host):
    """The Undo of a delete of an example stored without element ids (a dataset's page, an
    import) sends its text as the label: stored as it was; a blank text is no label."""
    host.send({"type": "examples.save", "id": "t1", "url": "https://ex.org/t", "html": PAGE,
               "mainText": "Kept paragraph one.\nKept paragraph two."})
    saved = host.recv()
    assert saved["type"] == "examples.saved", saved
    host.send({"type": "examples.get", "id": "t2", "exampleId": saved["exampleId"]})
    item = host.recv()["example"]
    assert item["mainText"] == "Kept paragraph one.\nKept paragraph two."
    assert item["mainIdList"] == []
    host.send({"type": "examples.save", "id": "t3", "url": "https://ex.org/t", "html": PAGE,
               "mainText": " \n "})
    refused = host.recv()
    assert refused["type"] == "error" and "select at least one element" in refused["message"]


def _pages_counted(home) -> dict[str, int]:
    """Labeled pages counted per site file of auto's adaptation."""
    folder = home / "data" / "models" / "auto-sites"
    return {f.stem: json.loads(f.read_text())["pages"] for f in folder.glob("*.json")}


def test_each_host_adapts_alone_and_a_deleted_example_stops_counting(host, blocksift_home):
    saved = {}
    for url in ("https://a.blog.example/1", "https://a.blog.example/2",
                "https://b.blog.example/1"):
        host.send({"type": "examples.save", "id": url, "url": url, "html": PAGE,
                   "mainIds": ["6", "8"]})
        saved[url] = host.recv()["exampleId"]
    assert _pages_counted(blocksift_home) == {"a.blog.example": 2, "b.blog.example": 1}

    host.send({"type": "examples.delete", "id": "d1",
               "exampleId": saved["https://a.blog.example/2"]})
    assert host.recv()["found"] is True
    assert _pages_counted(blocksift_home) == {"a.blog.example": 1, "b.blog.example": 1}
    host.send({"type": "examples.delete", "id": "d2",
               "exampleId": saved["https://b.blog.example/1"]})
    assert host.recv()["found"] is True
    assert _pages_counted(blocksift_home) == {"a.blog.example": 1}


def test_saving_nothing_selected_is_refused_clearly(host):
    host.send({"type": "examples.save", "id": "e1", "html": PAGE, "mainIds": []})
    reply = host.recv()
    assert reply["code"] == 1007 and "select" in reply["message"]
    host.send({"type": "examples.save", "id": "e2", "html": PAGE, "mainIds": ["404"]})
    assert host.recv()["code"] == 1007


def test_export_writes_only_inside_the_allowed_folders(host, blocksift_home, tmp_path):
    host.send({"type": "examples.save", "id": "s1", "url": "https://ex.org/x", "html": PAGE,
               "mainIds": ["6"]})
    assert host.recv()["type"] == "examples.saved"
    exports = blocksift_home / "data" / "exports"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    exports.mkdir(parents=True, exist_ok=True)
    (exports / "escape").symlink_to(outside)
    for number, path in enumerate([
            str(outside / "pages.jsonl"),                    # an arbitrary folder
            str(blocksift_home / "config" / "x.jsonl"),       # the host's own config
            str(exports / ".." / ".." / "config" / "a.jsonl"),  # climbing out with ..
            str(exports / "escape" / "pages.jsonl"),          # a symlink out of the folder
            "../../config/b.jsonl",                           # relative, climbing out
    ]):
        host.send({"type": "examples.export", "id": f"bad{number}", "path": path})
        reply = host.recv()
        assert reply["type"] == "error" and reply["code"] == 2002, (path, reply)
        assert "export-folders" in reply["message"]
    assert list(outside.iterdir()) == []
    assert not (blocksift_home / "config" / "x.jsonl").exists()
    # the default folder, a relative name in it, and a folder the user chose are fine
    host.send({"type": "examples.export", "id": "ok1"})
    assert host.recv()["path"] == str((exports / "pages.jsonl.gz").resolve())
    host.send({"type": "examples.export", "id": "ok2", "path": "mine.jsonl"})
    assert host.recv()["path"] == str((exports / "mine.jsonl").resolve())
    host.send({"type": "examples.export", "id": "ok2b", "path": "mine.jsonl"})
    assert host.recv()["replaced"] is True  # the same file again: the earlier export's place
    chosen = tmp_path / "chosen"
    (blocksift_home / "config").mkdir(parents=True, exist_ok=True)
    (blocksift_home / "config" / "export-folders.json").write_text(json.dumps([str(chosen)]))
    host.send({"type": "examples.export", "id": "ok3", "path": str(chosen)})
    reply = host.recv()
    assert reply["path"] == str(chosen.resolve() / "pages.jsonl.gz") and reply["count"] == 1


def test_a_damaged_examples_database_is_reported_and_repaired_over_the_protocol(
        host_factory, blocksift_home):
    path = blocksift_home / "data" / "examples.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database" * 400)
    host = host_factory()
    host.send({"type": "examples.list", "id": "l1"})
    refused = host.recv()
    assert refused["code"] == 3006 and refused["name"] == "store_damaged", refused
    assert "examples repair" in refused["message"]
    host.send({"type": "hello", "id": "h1", "protocol": 1})
    problems = host.recv()["storeProblems"]
    assert [(p["store"], p["state"]) for p in problems] == [("examples", "refused")]
    host.send({"type": "examples.repair", "id": "r1"})
    repaired = host.recv()
    assert repaired["type"] == "examples.repaired" and repaired["damaged"] is True
    assert repaired["recovered"] == 0 and repaired["keptAside"]
    # right after the repair: a save, then at once a list, answered in that order
    host.send({"type": "examples.save", "id": "s1", "html": PAGE, "mainIds": ["6"]})
    host.send({"type": "examples.list", "id": "l2"})
    replies = {r["id"]: r for r in (host.recv(), host.recv())}
    assert replies["s1"]["type"] == "examples.saved"
    assert replies["l2"]["total"] == 1
    host.send({"type": "hello", "id": "h2", "protocol": 1})
    (problem,) = host.recv()["storeProblems"]
    assert problem["state"] == "repaired" and problem["keptAside"] == repaired["keptAside"]


@pytest.mark.parametrize("message", [
    {"type": "examples.get", "exampleId": 10**20},
    {"type": "examples.delete", "exampleId": 10**20},
    {"type": "examples.list", "offset": 10**20},
    {"type": "examples.save", "url": "https://ex.org/x", "html": PAGE, "mainIds": ["6"],
     "restore": {"exampleId": 10**20, "created": 1.0}},
])
def test_a_number_too_big_for_the_database_is_an_invalid_message(host, message):
    # it reached SQLite, whose OverflowError came back as error 3004 internal
    host.send({"type": "examples.save", "id": "s", "url": "https://ex.org/x", "html": PAGE,
               "mainIds": ["6", "8"]})
    assert host.recv()["type"] == "examples.saved"
    host.send({"id": "big", **message})
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == 1007 and reply["id"] == "big", reply
    host.send({"type": "examples.list", "id": "l"})
    listing = host.recv()
    assert listing["total"] == 1
    assert listing["items"][0]["mainChars"] == len("Kept paragraph one.\nKept paragraph two.")

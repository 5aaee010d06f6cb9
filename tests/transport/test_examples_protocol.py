"""Capturing labeled examples over the protocol, against the real host process."""

from __future__ import annotations

import gzip
import json

PAGE = ('<html><head><title>Ledger</title></head><body data-bsid="1"><div data-bsid="2">'
        '<a data-bsid="3" href="/">Home</a> <a data-bsid="4" href="/a">A</a></div>'
        '<article data-bsid="5"><p data-bsid="6">Kept paragraph one.</p><p data-bsid="7">'
        'Dropped by the user.</p><p data-bsid="8">Kept paragraph two.</p></article></body>'
        '</html>')


def test_save_list_get_export_delete(host, tmp_path):
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

    target = tmp_path / "out" / "pages.jsonl.gz"
    host.send({"type": "examples.export", "id": "x1", "path": str(target)})
    exported = host.recv()
    assert exported["count"] == 1 and exported["path"] == str(target)
    with gzip.open(target, "rt", encoding="utf-8") as handle:
        (record,) = [json.loads(line) for line in handle]
    assert record["gold"] == "Kept paragraph one.\nKept paragraph two."
    assert "Dropped by the user" not in record["gold"] and record["html"] == PAGE

    host.send({"type": "examples.delete", "id": "d1", "exampleId": example_id})
    assert host.recv()["found"] is True
    host.send({"type": "examples.get", "id": "g2", "exampleId": example_id})
    assert host.recv()["code"] == 2004


def test_saving_nothing_selected_is_refused_clearly(host):
    host.send({"type": "examples.save", "id": "e1", "html": PAGE, "mainIds": []})
    reply = host.recv()
    assert reply["code"] == 1007 and "select" in reply["message"]
    host.send({"type": "examples.save", "id": "e2", "html": PAGE, "mainIds": ["404"]})
    assert host.recv()["code"] == 1007

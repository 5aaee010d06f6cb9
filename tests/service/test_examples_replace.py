"""Saving a label of a page that has one replaces it: the real host over native messaging,
its real examples database and site files."""

from __future__ import annotations

import json
from pathlib import Path

from native_host import Host

from blocksift.algorithms.segmenter import adapt
from blocksift.storage.examples import Example, ExampleStore

PAGE = ('<html><head><title>Tides</title></head><body data-bsid="1"><nav data-bsid="2" '
        'class="menu"><a data-bsid="3" href="/">Home</a> <a data-bsid="4" href="/n">News</a>'
        '</nav><article data-bsid="5"><p data-bsid="6">The tide comes in twice a day on this '
        'coast, a little later every day.</p><p data-bsid="7">The moon pulls the sea towards '
        'it, and the earth turns under the bulge.</p></article><footer data-bsid="8">Written '
        'by the harbour office, all rights reserved.</footer></body></html>')
URL = "https://tides.example/today"


def _site_file(home: Path) -> dict:
    data = json.loads((home / "data" / "models" / "auto-sites" / "tides.example.json")
                      .read_text())
    data.pop("changes")
    return data


def _only(tmp_path: Path, main_ids: list[str]) -> dict:
    """The site file of a store that saved only this label of the page."""
    from blocksift.storage.examples import gold_from_ids

    directory = tmp_path / "expected"
    adapt.apply_change(URL, added=[(PAGE, gold_from_ids(PAGE, main_ids, URL)[0])],
                       directory=directory)
    return json.loads((directory / "tides.example.json").read_text())


def test_labeling_a_page_again_replaces_the_earlier_label(tmp_path):
    home = tmp_path / "home"
    host = Host(home)
    try:
        first = host.ask({"type": "examples.save", "id": "s1", "url": URL, "html": PAGE,
                          "mainIds": ["8"], "algorithm": "auto"})  # the footer: wrong
        assert first["type"] == "examples.saved" and first["replaced"] == []
        again = host.ask({"type": "examples.save", "id": "s2", "url": URL + "#moon",
                          "html": PAGE, "mainIds": ["6", "7"], "algorithm": "auto"})
        assert again["replaced"] == [first["exampleId"]]
        listing = host.ask({"type": "examples.list", "id": "l1"})
        assert listing["total"] == 1
        (item,) = listing["items"]
        assert (item["exampleId"], item["replaces"]) == (again["exampleId"],
                                                         first["exampleId"])
        earlier = host.ask({"type": "examples.get", "id": "g1",
                            "exampleId": first["exampleId"]})["example"]
        assert earlier["replacedBy"] == again["exampleId"]
        assert earlier["mainText"].startswith("Written by the harbour office")
        assert _site_file(home) == _only(tmp_path, ["6", "7"])
    finally:
        host.stop()


def test_a_change_left_half_done_is_applied_when_the_host_starts(tmp_path):
    """A host killed after the examples database took a replacement and before the site file
    did: the next host applies the journaled change before anything else."""
    home = tmp_path / "home"
    from blocksift.storage.examples import gold_from_ids

    path = home / "data" / "examples.sqlite3"
    site_dir = home / "data" / "models" / "auto-sites"
    with ExampleStore(path) as store:
        store.save(Example(html=PAGE, main_text=gold_from_ids(PAGE, ["8"])[0], url=URL))
        store.settle(site_dir)
        store.save(Example(html=PAGE, main_text=gold_from_ids(PAGE, ["6", "7"])[0], url=URL))
        assert store.pending() == 1  # killed here: the site file still counts the old label
    host = Host(home)
    try:
        assert host.ask({"type": "examples.list", "id": "l1"})["total"] == 1
    finally:
        host.stop()
    assert _site_file(home) == _only(tmp_path, ["6", "7"])
    with ExampleStore(path) as store:
        assert store.pending() == 0

"""The options page's *Undo import* through the real host: a file imported in chunks
(``examples.import``), then taken back with the ids its reply gave (``examples.undoImport``),
over native messaging, in the host's real examples database and site files.

Every reply is checked against its model (``Host.ask``); the store and the site files after
the undo are compared with a snapshot taken before the import.
"""

from __future__ import annotations

import json
from pathlib import Path

from native_host import Host
from test_examples_import import dataset, page, record


def site_files(home: Path) -> dict[str, dict]:
    """Each site file's counts, without the names of the changes counted into it."""
    folder = home / "data" / "models" / "auto-sites"
    found = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        data.pop("changes", None)
        found[path.name] = data
    return found


def snapshot(host: Host) -> dict:
    """Every listed example as the options page reads it (id, label, date, title, earlier
    label it replaced) and every site file's counts."""
    items = host.ask({"type": "examples.list", "id": "snap", "limit": 10000})["items"]
    full = {}
    for item in items:
        example = host.ask({"type": "examples.get", "id": f"g{item['exampleId']}",
                            "exampleId": item["exampleId"]})["example"]
        full[item["exampleId"]] = (example["url"], example["title"], example["created"],
                                   example["mainText"], example["html"], example["replaces"])
    return {"examples": full, "sites": site_files(host.home)}


def save(host: Host, n: int, text: str, site: str = "ferries.example", title: str = "") -> int:
    """An example saved as the browser saves one (its label as text)."""
    reply = host.ask({"type": "examples.save", "id": f"s{n}-{len(text)}",
                      "url": f"https://{site}/{n}.html", "html": page(n),
                      "title": title or f"Mine {n}", "mainText": text})
    assert reply["type"] == "examples.saved", reply
    return reply["exampleId"]


def undo(host: Host, ranges: list, request_id: str = "undo") -> dict:
    reply = host.ask({"type": "examples.undoImport", "id": request_id, "ranges": ranges})
    assert reply["type"] == "examples.importUndone", reply
    return reply


def test_an_import_that_skipped_is_undone_to_the_store_and_sites_before_it(host):
    save(host, 1, "Ferry one leaves at dawn, the harbour master said to the crew.")
    save(host, 2, "Home")  # a wrong label of mine: the file's is not taken (skip)
    save(host, 7, "The quay is closed all winter.", site="quays.example")
    before = snapshot(host)
    assert len(before["examples"]) == 3 and set(before["sites"]) == {
        "ferries.example.json", "quays.example.json"}

    data = dataset([record(n) for n in (1, 2, 3, 4)] + [record(5, "piers.example")])
    done = host.upload(data, pieces=2)[-1]
    assert (done["added"], done["replaced"], done["skippedCount"]) == (3, 0, 2), done
    first, last = done["addedRanges"][0]
    assert done["addedRanges"] == [[first, first + 2]]
    assert snapshot(host) != before

    undone = undo(host, done["addedRanges"])
    assert (undone["removed"], undone["restored"], undone["missing"]) == (3, 0, 0), undone
    assert snapshot(host) == before
    assert host.imports() == []


def test_a_replacing_import_undone_brings_the_earlier_labels_back_with_their_ids(host):
    mine = [save(host, n, f"My own label of ferry {n}, kept since the spring.") for n in (1, 2)]
    before = snapshot(host)
    done = host.upload(dataset([record(1), record(2), record(3)]), on_duplicate="replace")[-1]
    assert (done["added"], done["replaced"]) == (3, 2), done
    listed = host.ask({"type": "examples.list", "id": "l"})["items"]
    assert sorted(item["replaces"] or 0 for item in listed) == [0, *mine]

    undone = undo(host, done["addedRanges"])
    assert (undone["removed"], undone["restored"], undone["missing"]) == (3, 2, 0), undone
    after = snapshot(host)
    assert sorted(after["examples"]) == mine  # their own numbers, not new ones
    assert after == before  # labels, dates, titles and the sites' counts
    # the imported ones are gone for good, earlier labels included: nothing restorable left
    for example_id in range(done["addedRanges"][0][0], done["addedRanges"][0][1] + 1):
        gone = host.ask({"type": "examples.get", "id": f"x{example_id}",
                         "exampleId": example_id})
        assert gone["type"] == "error" and gone["code"] == 2004


def test_what_changed_since_is_left_alone_and_a_second_undo_does_nothing(host):
    mine = save(host, 9, "Ferry nine is mine.")
    done = host.upload(dataset([record(n) for n in (1, 2, 3)]))[-1]
    first, last = done["addedRanges"][0]
    # meanwhile: the first imported example deleted, the second labeled again in the browser
    assert host.ask({"type": "examples.delete", "id": "d", "exampleId": first})["found"]
    newer = save(host, 2, "Ferry two, labeled again by hand.", title="Again")
    expected_left = {mine, newer}

    undone = undo(host, done["addedRanges"])
    assert (undone["removed"], undone["restored"], undone["missing"], undone["relabeled"]) == (
        1, 0, 2, 1), undone
    assert undone["missingIds"] == [first, first + 1]
    listed = {item["exampleId"]: item for item in
              host.ask({"type": "examples.list", "id": "l"})["items"]}
    assert set(listed) == expected_left
    assert listed[newer]["replaces"] == first + 1  # its own earlier label, still restorable
    counted = site_files(host.home)["ferries.example.json"]
    assert (counted["pages"], counted.get("examples")) == (2, 2), counted

    again = undo(host, done["addedRanges"], "again")
    assert (again["removed"], again["restored"], again["missing"]) == (0, 0, 3), again
    assert {item["exampleId"] for item in
            host.ask({"type": "examples.list", "id": "l2"})["items"]} == expected_left
    assert site_files(host.home)["ferries.example.json"] == counted


def test_thousands_of_imported_ids_are_one_run_in_a_small_reply(host):
    # pages of no address (of no site): the ids and the reply's size are what is tested, not
    # 2500 writes of a site file
    records = [{"html": f"<p>Pier {n}</p>", "gold": f"Pier {n}"} for n in range(2500)]
    done = host.upload(dataset(records), pieces=1)[-1]
    assert done["added"] == 2500 and done["noAddress"] == 2500, done
    assert len(done["addedRanges"]) == 1, done
    assert len(json.dumps(done)) < 2048
    undone = undo(host, done["addedRanges"])
    assert (undone["removed"], undone["missing"]) == (2500, 0)
    assert host.count() == 0


def test_an_undo_the_model_refuses_changes_nothing(host):
    save(host, 1, "Ferry one is mine.")
    for bad in ([], [[3, 1]], [[0, 2]], [[1]], "1-3"):
        refused = host.ask({"type": "examples.undoImport", "id": "b", "ranges": bad})
        assert refused["type"] == "error" and refused["code"] == 1007, refused
        assert "ranges" in refused["message"]
    assert host.count() == 1
    host.alive()

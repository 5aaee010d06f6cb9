"""The extension's labeling messages against the real host, without a browser: save, list,
get, export, train (progress forwarded by the HostClient), delete; every message sent is
validated by the host's own request models."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
NODE = shutil.which("node")


@pytest.fixture(scope="module")
def summary(tmp_path_factory: pytest.TempPathFactory) -> dict:
    if NODE is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    home = tmp_path_factory.mktemp("blocksift-home")
    env = {**os.environ, "PYTHONPATH": str(REPO / "host"), "BLOCKSIFT_HOME": str(home),
           # inside the default exports folder: the host writes nowhere else by default
           "EXPORT_PATH": str(home / "data" / "exports" / "out" / "pages.jsonl.gz"),
           "BLOCKSIFT_HOST_CMD": json.dumps([sys.executable, "-m", "blocksift", "native"])}
    run = subprocess.run([NODE, str(HERE / "labeling_roundtrip.mjs")], capture_output=True,
                         text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    data = json.loads(run.stdout)
    data["exportPath"] = env["EXPORT_PATH"]
    return data


def test_save_then_list_get_export_delete(summary: dict) -> None:
    assert summary["saved"]["ok"], summary["saved"]
    assert summary["list"]["value"]["total"] == 1
    example = summary["get"]["value"]["example"]
    assert example["mainText"] == ("Rock pools keep sea water when the tide goes out.\n"
                                   "Anemones close up to keep their water in.")
    assert example["blocks"] == [{"kind": "links", "ids": ["2", "3", "4"], "text": "Home News"}]
    assert example["algorithmOutput"]["main"]["elementIds"] == ["5", "6", "7", "8"]
    exported = summary["exported"]["value"]
    assert exported["count"] == 1 and exported["path"] == summary["exportPath"]
    with gzip.open(summary["exportPath"], "rt", encoding="utf-8") as handle:
        record = json.loads(handle.readline())
    assert record["gold"] == example["mainText"] and record["main_ids"] == ["6", "8"]
    assert summary["deleted"]["value"]["found"] is True
    assert summary["listAfter"]["value"]["total"] == 0


def test_private_and_empty_saves_are_refused_with_host_codes(summary: dict) -> None:
    assert summary["privateRefused"] == {"ok": False, "code": 2005,
                                         "message": summary["privateRefused"]["message"]}
    assert summary["emptyRefused"]["ok"] is False and summary["emptyRefused"]["code"] == 1007


def test_training_progress_reaches_the_caller_before_the_reply(summary: dict) -> None:
    assert summary["trained"]["ok"], summary["trained"]
    assert summary["trained"]["value"]["type"] == "trained"
    assert summary["trained"]["value"]["pages"] == 1
    assert len(summary["progress"]) >= 1


def test_every_labeling_message_matches_the_host_models(summary: dict) -> None:
    sys.path.insert(0, str(REPO / "host"))
    try:
        from blocksift.wire.protocol import REQUEST_MODELS
    finally:
        sys.path.pop(0)
    kinds = set()
    for message in summary["sent"]:
        message = {k: v for k, v in message.items() if v is not None or k == "url"}
        REQUEST_MODELS[message["type"]].model_validate(message)
        kinds.add(message["type"])
    assert {"examples.save", "examples.list", "examples.get", "examples.export",
            "examples.delete", "train"} <= kinds
    from pydantic import ValidationError

    with pytest.raises(ValidationError):  # the check above can fail
        REQUEST_MODELS["examples.save"].model_validate({"type": "examples.save", "id": "x",
                                                        "html": "<p>", "blocks": [{"kind": "nav"}]})


@pytest.fixture(scope="module")
def undo(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """labeling_undo.mjs against the real host; its SQLite file is read afterwards."""
    if NODE is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    home = tmp_path_factory.mktemp("blocksift-undo")
    env = {**os.environ, "PYTHONPATH": str(REPO / "host"), "BLOCKSIFT_HOME": str(home),
           "EXPORT_PATH": str(home / "data" / "exports" / "undo.jsonl"),
           "BLOCKSIFT_HOST_CMD": json.dumps([sys.executable, "-m", "blocksift", "native"])}
    run = subprocess.run([NODE, str(HERE / "labeling_undo.mjs")], capture_output=True,
                         text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    data = json.loads(run.stdout)
    data["exportPath"] = env["EXPORT_PATH"]
    data["database"] = str(home / "data" / "examples.sqlite3")
    return data


def test_undo_of_a_delete_keeps_the_number_and_the_date(undo: dict) -> None:
    before, after = undo["before"], undo["after"]
    assert [item["title"] for item in before] == ["last", "middle", "first"]
    assert undo["undone"]["exampleId"] == before[1]["exampleId"]
    assert after == before  # same numbers, same dates, same order
    records = [json.loads(line) for line in open(undo["exportPath"], encoding="utf-8")]
    assert [r["id"] for r in records] == [f"example-{i['exampleId']}" for i in reversed(before)]
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(undo["database"])) as conn:
        rows = conn.execute("SELECT id, title, created FROM examples ORDER BY id").fetchall()
    stored = {row[0]: (row[1], row[2]) for row in rows}
    for item in before:
        assert stored[item["exampleId"]] == (item["title"], item["created"])


def test_undo_puts_back_the_earlier_label_with_its_number_too(undo: dict) -> None:
    newer, earlier = undo["twiceBefore"], undo["earlierBefore"]
    assert undo["earlierUndone"]["exampleId"] == earlier["exampleId"]
    assert undo["newerUndone"]["exampleId"] == newer["exampleId"]
    assert undo["newerUndone"]["replaced"] == [earlier["exampleId"]]
    assert undo["twiceAfter"] == newer  # its row as before: number, date, what it replaced


def test_restore_earlier_label_stores_it_as_the_label_now(undo: dict) -> None:
    newest = max(item["exampleId"] for item in undo["final"])
    assert undo["restoredEarlier"]["exampleId"] == newest
    assert undo["restoredEarlier"]["exampleId"] > undo["twiceBefore"]["exampleId"]
    assert undo["final"][0]["title"] == "twice" and undo["final"][0]["created"] > \
        undo["earlierBefore"]["created"]

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

"""Retraining farsw from captured examples over the protocol; the next extraction uses it."""

from __future__ import annotations

import json
import re
from pathlib import Path

WORDS = ("harbour lamp keeper ledger tide signal beacon chart vessel night coast storm "
         "island pier rope lantern").split()


def _page(n: int) -> str:
    def para(k: int) -> str:
        words = " ".join(WORDS[(n + k + i) % len(WORDS)] for i in range(40))
        return f"<p>{words.capitalize()}.</p>"

    nav = "".join(f'<li><a href="/s/{i}">Section {i}</a></li>' for i in range(15))
    body = (f"<html><head><title>Story {n}</title></head><body><div class=nav><ul>{nav}</ul>"
            f"</div><div class=story><h1>Story {n}</h1>{''.join(para(k) for k in range(12))}"
            f"</div><div class=foot>{nav}</div></body></html>")
    counter = iter(range(1, 100_000))
    # Stamp ids as the extension does: every element gets data-bsid.
    return re.sub(r"<([a-z][a-z0-9]*)", lambda m: f'<{m.group(1)} data-bsid="{next(counter)}"',
                  body)


def _story_id(html: str) -> str:
    return re.search(r'<div data-bsid="(\d+)" class=story>', html).group(1)


def test_train_from_examples_reports_progress_and_is_used_at_once(host, blocksift_home):
    for n in range(4):
        html = _page(n)
        host.send({"type": "examples.save", "id": f"s{n}", "url": f"https://harbour.example/{n}",
                   "html": html, "mainIds": [_story_id(html)]})
        assert host.recv()["type"] == "examples.saved"

    host.send({"type": "train", "id": "t1", "algorithm": "farsw"})
    progress = []
    while True:
        reply = host.recv(timeout=120)
        if reply["type"] != "progress":
            break
        progress.append(reply)
    assert reply["type"] == "trained", reply
    assert reply["pages"] == 4 and reply["rules"]
    model_file = Path(reply["modelPath"])
    assert model_file == blocksift_home / "data" / "models" / "farsw.json"
    model = json.loads(model_file.read_text())
    assert "harbour.example" in model["sites"]
    # Four pages of one site must not replace the rules every other site relies on.
    from blocksift.algorithms import farsw

    packaged = json.loads(farsw.default_model_text())
    assert model["ruleset"] == packaged["ruleset"]
    assert model["sites"]["harbour.example"] != packaged["ruleset"]
    stages = [p["stage"] for p in progress]
    assert "training" in stages and stages[-1] == "saved"
    done = [p["done"] for p in progress if p["stage"] == "training"]
    assert done == sorted(done)

    host.send({"type": "extract", "id": "e1", "url": "https://harbour.example/new",
               "html": _page(9), "algorithm": "farsw"})
    result = host.recv_reply(timeout=60)["result"]
    assert result["stage"].startswith("site:harbour.example"), result


def test_training_with_nothing_captured_says_what_to_do(host):
    host.send({"type": "train", "id": "t0", "algorithm": "farsw"})
    reply = host.recv(timeout=60)
    while reply["type"] == "progress":
        reply = host.recv(timeout=60)
    assert reply["type"] == "error" and reply["code"] == 2004
    assert "capture examples" in reply["message"]

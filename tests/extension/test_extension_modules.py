"""The extension's DOM-independent modules, run in node: unit tests, and the HostClient
against the real host process (framing, chunks, kill, cancel), with every message the
extension builds validated against the host's JSON Schema (``blocksift schema``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs)")


@needs_node
def test_node_unit_tests_pass() -> None:
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    assert files
    run = subprocess.run([NODE, "--test", *files], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout


def _schema() -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    out = subprocess.run([sys.executable, "-m", "blocksift", "schema"], capture_output=True,
                         text=True, env=env, timeout=60, check=True)
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def roundtrip(tmp_path_factory: pytest.TempPathFactory) -> dict:
    if NODE is None:
        pytest.skip("node is not installed")
    home = tmp_path_factory.mktemp("blocksift-home")
    env = {**os.environ, "PYTHONPATH": str(REPO / "host"), "BLOCKSIFT_HOME": str(home),
           "BLOCKSIFT_HOST_CMD": json.dumps([sys.executable, "-m", "blocksift", "native"])}
    run = subprocess.run([NODE, str(HERE / "host_roundtrip.mjs")], capture_output=True, text=True,
                         env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout)


def test_hello_and_ping(roundtrip: dict) -> None:
    assert roundtrip["hello"]["protocol"] == 1
    assert "linkblocks" in roundtrip["hello"]["algorithms"]
    assert roundtrip["ping"] == "pong"


def test_reply_over_one_mebibyte_is_reassembled_from_chunks(roundtrip: dict) -> None:
    big = roundtrip["big"]
    assert big["status"] == "ok"
    assert big["mainHtml"] + big["mainText"] > roundtrip["hello"]["maxReplyBytes"]
    assert big["chunks"] >= 2


def test_killed_host_fails_the_request_clearly_and_the_next_one_recovers(roundtrip: dict) -> None:
    killed = roundtrip["killed"]
    assert killed["ok"] is False and killed["code"] == "host_closed"
    assert "restarts on the next request" in killed["message"]
    assert roundtrip["after"]["ok"] is True and roundtrip["after"]["status"] in {"ok", "empty", "not_suitable"}
    assert roundtrip["spawned"] == 2
    assert roundtrip["events"].count("connect") == 2


def test_a_hello_that_times_out_closes_its_host_and_the_next_call_starts_another(roundtrip: dict) -> None:
    assert roundtrip["helloTimeout"]["ok"] is False and roundtrip["helloTimeout"]["code"] == "timeout"
    assert roundtrip["lateHostExited"] is True
    assert roundtrip["afterHelloTimeout"] == "pong"
    assert roundtrip["helloTimeoutSpawned"] == 2


def test_cancel_fails_the_request_at_once(roundtrip: dict) -> None:
    assert roundtrip["cancelled"] == {"ok": False, "code": "cancelled", "message": "Cancelled."}
    assert roundtrip["cancelledInFlight"] == {"ok": False, "code": "cancelled", "message": "Cancelled."}
    cancels = [m for m in roundtrip["sent"] if m["type"] == "cancel"]
    assert [m["target"] for m in cancels] == ["in-flight"]  # the early cancel never reached the wire
    assert roundtrip["afterCancel"] == "pong"


def test_a_snapshot_with_a_lone_surrogate_is_mended_and_read(roundtrip: dict) -> None:
    torn = roundtrip["loneSurrogate"]
    assert torn["ok"] is True, torn  # the host refuses lone surrogates (1006) unless mended
    assert torn["status"] == "ok" and "\ufffd" in torn["text"]


def test_host_errors_become_rejections_with_the_host_code(roundtrip: dict) -> None:
    error = roundtrip["unknownAlgorithm"]
    assert error["ok"] is False and error["code"] == 2001


def test_every_message_the_extension_sends_matches_the_host_schema(roundtrip: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from blocksift.wire.protocol import REQUEST_ADAPTER

    schema = _schema()
    validator = jsonschema.Draft202012Validator(schema["request"])
    messages = roundtrip["sent"] + roundtrip["built"]
    assert {m["type"] for m in messages} == {"hello", "ping", "extract", "cancel"}
    for message in messages:
        errors = sorted(validator.iter_errors(message), key=str)
        assert not errors, (message["type"], [e.message for e in errors])
        REQUEST_ADAPTER.validate_python(message)
    # A message the schema must refuse, so the check above can fail.
    assert list(validator.iter_errors({"type": "extract", "id": "", "html": 1}))


def test_hide_plan_from_the_real_host_is_applied_as_is(roundtrip: dict) -> None:
    hide = roundtrip["hide"]
    assert hide["plan"]["version"] == 1 and hide["plan"]["pageKind"] == "article"
    # the nav goes; the article, its headline and the link inside its text stay
    assert hide["ids"] == ["2"]
    assert hide["plan"]["targets"][0]["kind"] == "nav"
    assert "outside the main text" in hide["plan"]["targets"][0]["reason"]
    kinds = [item["kind"] for item in hide["items"]]
    assert kinds[0] == "main" and "nav" in kinds
    assert all(item["reason"] for item in hide["items"])


def _theme_colours(text: str) -> dict[str, str]:
    return {name: value.lower() for name, value in
            re.findall(r"(--(?:fg|bg|muted|line|link)):\s*(#[0-9a-fA-F]{3,8})", text)}


def test_the_loading_cover_wears_the_reader_s_colours_in_every_theme() -> None:
    # the cover drawn over the page while the host works stands where the reader view will:
    # its sepia grey stayed #7a6a50 when the reader's became #6b5c43 for contrast, so the
    # text's grey shifted as the reader came in
    css = (REPO / "extension" / "src" / "reader.css").read_text(encoding="utf-8")
    agent = (REPO / "extension" / "src" / "agent.js").read_text(encoding="utf-8")
    reader = {"light": _theme_colours(re.search(r":root\s*{[^}]*}", css).group(0)),
              "sepia": _theme_colours(re.search(r'\[data-theme="sepia"\]\s*{[^}]*}', css).group(0)),
              "dark": _theme_colours(re.search(r'\[data-theme="dark"\]\s*{[^}]*}', css).group(0))}
    cover = {"light": _theme_colours(re.search(r"\.cover\s*{[^}]*}", agent).group(0)),
             "sepia": _theme_colours(re.search(r"\.cover\.sepia\s*{[^}]*}", agent).group(0)),
             "dark": _theme_colours(re.search(r"\.cover\.dark\s*{[^}]*}", agent).group(0))}
    for theme in ("light", "sepia", "dark"):
        assert cover[theme], theme
        for name, value in cover[theme].items():
            assert reader[theme].get(name) == value, (theme, name, value, reader[theme])

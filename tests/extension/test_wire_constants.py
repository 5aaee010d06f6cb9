"""The extension's wire constants are generated from the host's definitions: the copy in the
tree is current, a disagreement is caught, and the build and the pack step use the host's."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "extension"
GENERATOR = EXTENSION / "tools" / "gen_wire_constants.py"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load("gen_wire_constants", GENERATOR)


def test_the_generated_file_in_the_tree_is_current():
    assert (EXTENSION / "src" / "wireconstants.js").read_text("utf-8") == gen.render(), (
        "extension/src/wireconstants.js is stale: run python3 extension/tools/gen_wire_constants.py")
    done = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_host_change_makes_the_check_fail(monkeypatch, tmp_path):
    from blocksift.wire import constants

    current = tmp_path / "wireconstants.js"
    current.write_text(gen.render(), "utf-8")
    assert gen.main(["--check", "--out", str(current)]) == 0
    monkeypatch.setattr(constants, "MAX_ID_LENGTH", constants.MAX_ID_LENGTH + 1)
    assert "MAX_ID_LENGTH = 129;" in gen.render()
    assert gen.main(["--check", "--out", str(current)]) == 1


def test_the_values_are_the_hosts():
    from blocksift import __version__
    from blocksift.content import SAFE_TAGS
    from blocksift.wire import protocol
    from blocksift.wire.constants import EXTRACT_ACTIONS, ID_ATTR, MAX_ID_LENGTH, PROTOCOL_VERSION

    values = gen.constants()
    assert (values["PROTOCOL_VERSION"], values["MAX_ID_LENGTH"], values["ID_ATTR"],
            values["HOST_VERSION"]) == (PROTOCOL_VERSION, MAX_ID_LENGTH, ID_ATTR, __version__)
    assert values["REQUEST_TYPES"] == list(protocol.REQUEST_MODELS)
    assert values["WANTS"] == ["blocks", "main"]
    assert values["REQUEST_ACTIONS"] == ["extract", "hide", "reader"]
    # the hello reply lists the same actions (a client asks only for what the host knows)
    assert tuple(values["REQUEST_ACTIONS"]) == EXTRACT_ACTIONS
    assert set(values["READER_ALLOWED_TAGS"]) == SAFE_TAGS - {"source"}
    assert "srcset" not in values["READER_ALLOWED_ATTRIBUTES"]


def test_the_extension_spells_no_constant_of_its_own():
    sources = {path.name: path.read_text("utf-8") for path in (EXTENSION / "src").glob("*.js")
               if path.name != "wireconstants.js"}
    protocol_js = sources["protocol.js"]
    for name in ("PROTOCOL_VERSION", "MAX_ID_LENGTH", "ID_ATTR", "WANTS", "REQUEST_ACTIONS",
                 "HIDE_PLAN_VERSION", "EXTENSION_VERSION"):
        assert not re.search(rf"export const {name} = [\"\d\[O]", protocol_js), name
    assert "ALLOWED_TAGS = [\"" not in sources["reader.js"]
    # The page agent is a function the background serializes into the page, so it cannot
    # import: its wire constants are literals, held to the host's here.
    for name in ("ID_ATTR", "HIDDEN_ATTR"):
        agent = re.search(rf'const {name} = "([^"]+)"', sources["agent.js"])
        assert agent and agent.group(1) == gen.constants()[name], name


def test_build_writes_the_constants_and_the_hosts_version(tmp_path):
    from blocksift import __version__

    build = _load("extension_build", EXTENSION / "build.py")
    out = build.build("firefox", tmp_path / "firefox")
    assert (out / "wireconstants.js").read_text("utf-8") == gen.render()
    assert json.loads((out / "manifest.json").read_text("utf-8"))["version"] == __version__


@pytest.mark.parametrize("damage", ["stale", "missing"])
def test_pack_refuses_a_build_with_other_constants(tmp_path, damage):
    build = _load("extension_build", EXTENSION / "build.py")
    pack = _load("install_pack", REPO / "install" / "pack.py")
    out = build.build("chromium", tmp_path / "chromium")
    assert pack.pack("chromium", tmp_path / "ok", out).exists()
    constants = out / "wireconstants.js"
    if damage == "stale":
        constants.write_text(constants.read_text("utf-8").replace(
            "PROTOCOL_VERSION = 1;", "PROTOCOL_VERSION = 0;"), "utf-8")
    else:
        constants.unlink()
    with pytest.raises(pack.PackError, match="wireconstants.js"):
        pack.pack("chromium", tmp_path / "bad", out)

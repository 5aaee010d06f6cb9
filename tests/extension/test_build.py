"""The build script: one source tree, per-browser manifests, nothing test-only in a release."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "extension"
CHROMIUM_ID = "ddhihlhollalmfcgjljfjkkgpdlgjdac"


def _build_module():
    spec = importlib.util.spec_from_file_location("extension_build", EXTENSION / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    build = _build_module()
    out = tmp_path_factory.mktemp("dist")
    return {name: build.build(name, out / name) for name in build.BROWSERS}


def _manifest(path: Path) -> dict:
    return json.loads((path / "manifest.json").read_text(encoding="utf-8"))


def test_chromium_manifest_fixes_the_extension_id(builds: dict[str, Path]) -> None:
    manifest = _manifest(builds["chromium"])
    digest = hashlib.sha256(base64.b64decode(manifest["key"])).hexdigest()[:32]
    assert "".join(chr(ord("a") + int(c, 16)) for c in digest) == CHROMIUM_ID
    assert manifest["background"] == {"service_worker": "background.js", "type": "module"}
    assert "browser_specific_settings" not in manifest


def test_firefox_manifest_has_the_gecko_id_and_background_scripts(builds: dict[str, Path]) -> None:
    manifest = _manifest(builds["firefox"])
    assert manifest["browser_specific_settings"]["gecko"]["id"] == "blocksift@blocksift.org"
    assert manifest["background"] == {"scripts": ["background.js"], "type": "module"}
    assert "key" not in manifest


def test_release_builds_grant_nothing_up_front(builds: dict[str, Path]) -> None:
    for path in builds.values():
        manifest = _manifest(path)
        assert manifest["manifest_version"] == 3
        assert "host_permissions" not in manifest
        assert "web_accessible_resources" not in manifest
        assert set(manifest["permissions"]) == {"activeTab", "scripting", "storage", "nativeMessaging"}
        assert manifest["optional_host_permissions"] == ["<all_urls>"]
        csp = manifest["content_security_policy"]["extension_pages"]
        assert "script-src 'self';" in csp and "unsafe" not in csp
        assert set(manifest["commands"]) >= {"reader-view", "hide-link-blocks"}


def test_test_switches_add_only_what_they_say(tmp_path: Path) -> None:
    build = _build_module()
    manifest = build.manifest_for("firefox", ("http://127.0.0.1/*",), ("http://127.0.0.1/*",))
    assert manifest["host_permissions"] == ["http://127.0.0.1/*"]
    assert manifest["web_accessible_resources"][0]["matches"] == ["http://127.0.0.1/*"]
    with pytest.raises(ValueError):
        build.manifest_for("netscape")


def test_every_file_the_extension_names_is_in_the_build(builds: dict[str, Path]) -> None:
    for path in builds.values():
        manifest = _manifest(path)
        named = {manifest["action"]["default_popup"], manifest["options_ui"]["page"], "reader.html",
                 "agent.js", *manifest["icons"].values(), *manifest["action"]["default_icon"].values()}
        for page in ("popup.html", "options.html", "reader.html"):
            named.update(re.findall(r'(?:src|href)="([^":]+)"', (path / page).read_text(encoding="utf-8")))
        for module in path.glob("*.js"):
            named.update(re.findall(r'from "\./([^"]+)"', module.read_text(encoding="utf-8")))
        missing = sorted(name for name in named if not (path / name).exists())
        assert not missing
        assert (path / "vendor" / "dompurify" / "LICENSE").exists()


def test_no_inline_script_or_handler_in_extension_pages() -> None:
    for page in (EXTENSION / "src").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), page.name
        assert not re.search(r"\son[a-z]+=", text), page.name

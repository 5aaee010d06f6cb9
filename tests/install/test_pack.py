"""install/pack.py: a Chromium zip and a Firefox .xpi, reproducible, with checked manifests."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from install_support import PUBLIC_KEY_B64, REPO

from blocksift.registration import CHROMIUM_EXTENSION_ID, FIREFOX_EXTENSION_ID

spec = importlib.util.spec_from_file_location("blocksift_pack", REPO / "install" / "pack.py")
assert spec is not None and spec.loader is not None
pack_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pack_module)


def fake_extension(root: Path, **manifest_changes: object) -> Path:
    """A tiny MV3 extension with the fields both browsers need."""
    manifest = {
        "manifest_version": 3, "name": "blocksift", "version": "0.1.0",
        "key": PUBLIC_KEY_B64, "permissions": ["nativeMessaging"],
        "background": {"service_worker": "background.js", "scripts": ["background.js"]},
        "browser_specific_settings": {"gecko": {"id": FIREFOX_EXTENSION_ID}},
    }
    manifest.update(manifest_changes)
    manifest = {k: v for k, v in manifest.items() if v is not None}
    root.mkdir(parents=True, exist_ok=True)
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2))
    (root / "background.js").write_text("const api = globalThis.browser ?? globalThis.chrome;\n")
    (root / "content").mkdir(exist_ok=True)
    (root / "content" / "reader.js").write_text("// reader view\n")
    (root / "icons").mkdir(exist_ok=True)
    (root / "icons" / "48.png").write_bytes(bytes(range(256)))
    # Never shipped:
    (root / ".DS_Store").write_text("junk")
    (root / "private.pem").write_text("-----BEGIN PRIVATE KEY-----")
    (root / ".git").mkdir(exist_ok=True)
    (root / ".git" / "HEAD").write_text("ref: x")
    (root / "node_modules" / "dep").mkdir(parents=True, exist_ok=True)
    (root / "node_modules" / "dep" / "index.js").write_text("x")
    return root


@pytest.mark.parametrize(("target", "suffix"), [("chromium", ".zip"), ("firefox", ".xpi")])
def test_archive_has_manifest_at_root_and_only_shippable_files(tmp_path: Path, target: str,
                                                              suffix: str) -> None:
    source = fake_extension(tmp_path / "ext")
    out = pack_module.pack(target, tmp_path / "dist", source)
    assert out.name == f"blocksift-0.1.0-{target}{suffix}"
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        assert names == ["background.js", "content/reader.js", "icons/48.png", "manifest.json"]
        assert archive.read("icons/48.png") == bytes(range(256))
        assert json.loads(archive.read("manifest.json"))["key"] == PUBLIC_KEY_B64
        assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in archive.infolist())
        assert archive.testzip() is None


def test_packing_is_reproducible(tmp_path: Path) -> None:
    source = fake_extension(tmp_path / "ext")
    first = pack_module.pack("firefox", tmp_path / "a", source).read_bytes()
    # New mtimes and a different creation order must not change a byte.
    for path in sorted(source.rglob("*"), reverse=True):
        if path.is_file():
            content = path.read_bytes()
            path.unlink()
            path.write_bytes(content)
            os.utime(path, (2_000_000_000, 2_000_000_000))
    second = pack_module.pack("firefox", tmp_path / "b", source).read_bytes()
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest()


def test_source_date_epoch_sets_the_timestamps(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    out = pack_module.pack("chromium", tmp_path / "d", fake_extension(tmp_path / "ext"))
    with zipfile.ZipFile(out) as archive:
        assert {i.date_time for i in archive.infolist()} == {(2023, 11, 14, 22, 13, 20)}


def test_store_build_drops_the_key(tmp_path: Path) -> None:
    out = pack_module.pack("chromium", tmp_path / "d", fake_extension(tmp_path / "ext"),
                           store=True)
    assert out.name == "blocksift-0.1.0-chromium-store.zip"
    with zipfile.ZipFile(out) as archive:
        assert "key" not in json.loads(archive.read("manifest.json"))


@pytest.mark.parametrize(("target", "changes", "words"), [
    ("chromium", {"key": None}, "no 'key'"),
    ("chromium", {"key": PUBLIC_KEY_B64.replace("MIIB", "MIIC", 1)}, "expected "
     + CHROMIUM_EXTENSION_ID),
    ("chromium", {"key": "not base64!"}, "not base64"),
    ("firefox", {"browser_specific_settings": None}, FIREFOX_EXTENSION_ID),
    ("firefox", {"manifest_version": 2}, "manifest_version"),
    ("firefox", {"version": None}, "version"),
])
def test_manifests_that_would_not_reach_the_host_are_refused(tmp_path: Path, target: str,
                                                              changes: dict, words: str) -> None:
    source = fake_extension(tmp_path / "ext", **changes)
    with pytest.raises(pack_module.PackError, match="manifest") as info:
        pack_module.pack(target, tmp_path / "d", source)
    assert words in str(info.value)
    assert not (tmp_path / "d").exists() or not any((tmp_path / "d").iterdir())


def test_bad_json_and_missing_source_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "ext").mkdir()
    (tmp_path / "ext" / "manifest.json").write_text("{oops")
    with pytest.raises(pack_module.PackError, match="not valid JSON"):
        pack_module.pack("chromium", tmp_path / "d", tmp_path / "ext")
    with pytest.raises(pack_module.PackError, match="build the extension first"):
        pack_module.find_source("chromium", root=tmp_path)


def test_find_source_prefers_the_built_dist(tmp_path: Path) -> None:
    fake_extension(tmp_path / "extension")
    assert pack_module.find_source("firefox", root=tmp_path) == tmp_path / "extension"
    fake_extension(tmp_path / "extension" / "dist" / "firefox")
    assert pack_module.find_source("firefox", root=tmp_path) == \
        tmp_path / "extension" / "dist" / "firefox"


def test_script_runs_from_the_command_line(tmp_path: Path) -> None:
    source = fake_extension(tmp_path / "ext")
    done = subprocess.run([sys.executable, str(REPO / "install" / "pack.py"), "--browser",
                           "chromium", "--browser", "firefox", "--source", str(source), "--out",
                           str(tmp_path / "out")], capture_output=True, text=True, check=True)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "blocksift-0.1.0-chromium.zip", "blocksift-0.1.0-firefox.xpi"]
    assert done.stdout.count("sha256") == 2
    bad = subprocess.run([sys.executable, str(REPO / "install" / "pack.py"), "--browser",
                          "chromium", "--source", str(tmp_path / "nothing"), "--out",
                          str(tmp_path / "out2")], capture_output=True, text=True,
                         check=False)
    assert bad.returncode == 1 and "does not exist" in bad.stderr


@pytest.mark.parametrize("target", ["chromium", "firefox"])
def test_packs_the_real_extension_from_the_checkout(tmp_path: Path, target: str) -> None:
    # as `install/pack.py` does by default: the sources built afresh, whatever lies in dist
    out = pack_module.pack(target, tmp_path)
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
    assert "manifest.json" in names and any(name.endswith("background.js") for name in names)


@pytest.mark.parametrize("script", ["install/pack.py", "extension/build.py"])
def test_a_python_without_the_hosts_dependencies_gets_one_line_and_the_way_out(
        tmp_path: Path, script: str) -> None:
    """A new shell without the virtual environment (or Debian's python3): -S hides the
    site-packages, as the system Python lacks them."""
    args = (["--browser", "firefox", "--out", str(tmp_path / "out")] if script.startswith("install")
            else ["firefox", "--out", str(tmp_path / "out")])
    done = subprocess.run([sys.executable, "-S", str(REPO / script), *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "No module named" in done.stderr and ". .venv/bin/activate" in done.stderr
    assert not (tmp_path / "out").exists()


def test_packs_the_sources_not_an_earlier_build(tmp_path: Path) -> None:
    """After `git pull`, extension/dist still holds the previous build: the package must
    carry the current sources all the same."""
    import shutil

    root = tmp_path / "checkout"
    shutil.copytree(REPO / "extension", root / "extension",
                    ignore=shutil.ignore_patterns("dist", "node_modules"))
    (root / "host").symlink_to(REPO / "host")
    built = subprocess.run([sys.executable, str(root / "extension" / "build.py"), "chromium"],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    stale = root / "extension" / "dist" / "chromium" / "background.js"
    stale.write_text("// the build before the update\n")
    source = root / "extension" / "src" / "background.js"
    source.write_text(source.read_text() + "// the update\n")
    out = pack_module.pack("chromium", tmp_path / "out", root=root)
    with zipfile.ZipFile(out) as archive:
        assert archive.read("background.js").decode() == source.read_text()
    assert stale.read_text() == "// the build before the update\n"  # dist left alone

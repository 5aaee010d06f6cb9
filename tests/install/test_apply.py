"""Install writes real files into a throw-away HOME; uninstall removes exactly those."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from install_support import posix_only

from blocksift.registration import (
    HOST_NAME,
    apply_install,
    apply_uninstall,
    load_receipt,
    plan_install,
)


def tree(root: Path) -> dict[str, str]:
    """Every path under ``root`` with its content (files) or '/' (directories)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        out[rel] = "/" if path.is_dir() else path.read_text(encoding="utf-8", errors="replace")
    return out


def install(home: Path, data_dir: Path, browsers: list[str], **kwargs: object) -> list:
    plan = plan_install(browsers, platform="linux", home=home, data_dir=data_dir,
                        python=sys.executable, env={}, **kwargs)
    return apply_install(plan, data_dir)


@posix_only
def test_install_writes_launcher_and_manifests_with_modes(home: Path, data_dir: Path) -> None:
    install(home, data_dir, ["chrome", "firefox"])
    launcher = data_dir / "native-host" / "blocksift-native-host"
    assert launcher.is_file() and os.access(launcher, os.X_OK)
    chrome = home / ".config/google-chrome/NativeMessagingHosts" / f"{HOST_NAME}.json"
    firefox = home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json"
    for manifest in (chrome, firefox):
        doc = json.loads(manifest.read_text())
        assert doc["path"] == str(launcher)
        assert stat.S_IMODE(manifest.stat().st_mode) == 0o644
    receipt, problem = load_receipt(data_dir)
    assert problem is None and receipt is not None
    assert {e.registration.browser for e in receipt.entries} == {"chrome", "firefox"}


def test_dry_run_writes_nothing(home: Path, data_dir: Path) -> None:
    before = tree(home.parent)
    plan = plan_install(["chrome"], platform="linux", home=home, data_dir=data_dir,
                        python=sys.executable, env={})
    actions = apply_install(plan, data_dir, dry_run=True)
    assert [a.verb for a in actions].count("write") == 2
    assert tree(home.parent) == before


def test_install_then_uninstall_leaves_nothing_behind(home: Path, data_dir: Path) -> None:
    (home / ".config" / "chromium").mkdir(parents=True)  # the browser's own profile dir
    before = tree(home.parent)
    install(home, data_dir, ["chromium", "firefox", "brave"])
    install(home, data_dir, ["chromium"])  # installing twice is harmless
    assert tree(home.parent) != before
    apply_uninstall(data_dir, platform="linux", home=home, env={})
    assert tree(home.parent) == before


def test_partial_uninstall_keeps_the_launcher_for_the_rest(home: Path, data_dir: Path) -> None:
    install(home, data_dir, ["chrome", "firefox"])
    apply_uninstall(data_dir, platform="linux", home=home, env={}, browsers=["firefox"])
    assert not (home / ".mozilla").exists()
    assert (data_dir / "native-host" / "blocksift-native-host").is_file()
    receipt, _ = load_receipt(data_dir)
    assert receipt is not None and [e.registration.browser for e in receipt.entries] == ["chrome"]
    apply_uninstall(data_dir, platform="linux", home=home, env={}, browsers=["chrome"])
    assert not (data_dir / "native-host").exists()


def test_uninstall_leaves_other_files_and_foreign_manifests(home: Path, data_dir: Path) -> None:
    install(home, data_dir, ["chrome", "firefox"])
    hosts = home / ".config/google-chrome/NativeMessagingHosts"
    other = hosts / "com.example.other.json"
    other.write_text("{}")
    firefox_manifest = home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json"
    firefox_manifest.write_text('{"name": "somebody.else"}')  # replaced by someone else
    actions = apply_uninstall(data_dir, platform="linux", home=home, env={})
    assert other.is_file() and hosts.is_dir()
    assert firefox_manifest.is_file()
    assert not (hosts / f"{HOST_NAME}.json").exists()
    assert any(a.verb == "keep" and a.target == str(firefox_manifest) for a in actions)


def test_uninstall_removes_our_manifest_even_when_damaged(home: Path, data_dir: Path) -> None:
    install(home, data_dir, ["chrome"])
    manifest = home / ".config/google-chrome/NativeMessagingHosts" / f"{HOST_NAME}.json"
    manifest.write_text('{"name": "org.blocksift.host",,')
    apply_uninstall(data_dir, platform="linux", home=home, env={})
    assert not manifest.exists() and not (home / ".config").exists()


def test_uninstall_without_receipt_removes_manifests_pointing_at_our_launcher(
        home: Path, data_dir: Path) -> None:
    install(home, data_dir, ["edge"])
    (data_dir / "native-host" / "installed.json").unlink()
    manifest = home / ".config/microsoft-edge/NativeMessagingHosts" / f"{HOST_NAME}.json"
    assert manifest.is_file()
    apply_uninstall(data_dir, platform="linux", home=home, env={})
    assert not manifest.exists()
    assert not (data_dir / "native-host" / "blocksift-native-host").exists()


def test_damaged_receipt_does_not_crash_and_is_replaced(home: Path, data_dir: Path) -> None:
    (data_dir / "native-host").mkdir(parents=True)
    (data_dir / "native-host" / "installed.json").write_text("{not json")
    receipt, problem = load_receipt(data_dir)
    assert receipt is None and "damaged" in (problem or "")
    install(home, data_dir, ["chrome"])
    receipt, problem = load_receipt(data_dir)
    assert problem is None and receipt is not None


def test_user_data_dir_registration_round_trips(home: Path, data_dir: Path,
                                                tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    install(home, data_dir, ["chromium"], user_data_dir=profile)
    manifest = profile / "NativeMessagingHosts" / f"{HOST_NAME}.json"
    assert json.loads(manifest.read_text())["name"] == HOST_NAME
    apply_uninstall(data_dir, platform="linux", home=home, env={}, user_data_dir=profile)
    assert not profile.exists()  # install created it, so uninstall removes it when empty


def test_unknown_browser_in_uninstall_is_an_error(home: Path, data_dir: Path) -> None:
    with pytest.raises(ValueError, match="unknown browser"):
        apply_uninstall(data_dir, platform="linux", home=home, env={}, browsers=["opera"])


def test_windows_plan_cannot_be_applied_off_windows(home: Path, data_dir: Path) -> None:
    if sys.platform == "win32":
        pytest.skip("checks the refusal on non-Windows systems")
    plan = plan_install(["chrome"], platform="win32", home="C:\\Users\\u",
                        data_dir="C:\\Users\\u\\AppData\\Local\\blocksift",
                        python="C:\\Python\\python.exe")
    with pytest.raises(RuntimeError, match="registry"):
        apply_install(plan, data_dir)

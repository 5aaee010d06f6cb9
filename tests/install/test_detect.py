"""Which browsers ``blocksift install`` registers by default: the ones that look installed,
and a folder blocksift made itself is no sign of a browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from blocksift.registration import apply_install, plan_install
from blocksift.registration.browsers import detect


def no_commands(_name: str) -> None:
    return None


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_registering_an_absent_browser_does_not_make_it_look_installed(
        tmp_path: Path, platform: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    data_dir = tmp_path / "data"
    for name in ("edge", "firefox"):
        plan = plan_install([name], platform=platform, home=home, data_dir=data_dir,
                            python="/usr/bin/python3", env={})
        apply_install(plan, data_dir)
        assert Path(plan.manifests[0].path).is_file()
    assert detect(platform, home, {}, which=no_commands) == []


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_a_used_profile_folder_still_counts(tmp_path: Path, platform: str) -> None:
    home = tmp_path / "home"
    root = (home / ".config" / "microsoft-edge" if platform == "linux"
            else home / "Library" / "Application Support" / "Microsoft Edge")
    (root / "Default").mkdir(parents=True)
    (root / "NativeMessagingHosts").mkdir()
    assert detect(platform, home, {}, which=no_commands) == ["edge"]

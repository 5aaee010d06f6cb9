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


def test_a_command_is_looked_for_on_the_path_of_the_environment_given(tmp_path: Path) -> None:
    # the PATH of the process running detect was searched, whatever `env` said: the doctor
    # tests' PATH=/nonexistent still found this machine's /usr/bin/chromium
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "firefox"
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)
    assert detect("linux", home, {"PATH": str(bin_dir)}) == ["firefox"]
    assert detect("linux", home, {"PATH": str(tmp_path / "nowhere")}) == []
    assert detect("linux", home, {}) == []  # no PATH: no command is found

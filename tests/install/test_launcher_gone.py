"""The launcher when what it runs is gone (a moved or deleted virtualenv or checkout): the
browser would only say "Native host has exited", so the launcher answers with one error
frame the extension shows, naming the command that fixes it, and one line on stderr."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from install_support import posix_only, write_script

from blocksift.registration.plan import launcher_script

pytestmark = posix_only


def run_launcher(tmp_path: Path, text: str) -> subprocess.CompletedProcess[bytes]:
    launcher = write_script(tmp_path / "blocksift-native-host", text)
    return subprocess.run([str(launcher), "chrome-extension://x/"], input=b"",
                          capture_output=True, timeout=30, check=False)


def only_frame(stdout: bytes) -> dict:
    (length,) = struct.unpack("=I", stdout[:4])
    assert len(stdout) == 4 + length, "exactly one frame"
    return json.loads(stdout[4:].decode("utf-8"))


@pytest.mark.parametrize("shell", ["sh", "dash", "bash"])
def test_missing_interpreter_answers_with_an_error_frame(tmp_path: Path, shell: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    gone = tmp_path / "moved venv" / "bin" / "python3"  # a space and a quote-free path
    text = launcher_script("linux", str(gone)).replace("#!/bin/sh", f"#!{shutil.which(shell)}")
    done = run_launcher(tmp_path, text)
    assert done.returncode == 1
    reply = only_frame(done.stdout)
    assert reply["type"] == "error" and reply["id"] is None and reply["code"] == 3004
    assert str(gone) in reply["message"] and "blocksift install" in reply["message"]
    err = done.stderr.decode().strip()
    assert "\n" not in err and "blocksift install" in err and str(gone) in err


def test_odd_characters_in_the_path_survive_into_the_frame(tmp_path: Path) -> None:
    gone = tmp_path / "it's 100% \\gone" / "python3"
    reply = only_frame(run_launcher(tmp_path, launcher_script("linux", str(gone))).stdout)
    assert str(gone) in reply["message"]


def test_missing_source_folder_answers_with_an_error_frame(tmp_path: Path) -> None:
    python = shutil.which("python3")
    assert python
    done = run_launcher(tmp_path, launcher_script("linux", python,
                                                  pythonpath=str(tmp_path / "old" / "host")))
    assert done.returncode == 1
    reply = only_frame(done.stdout)
    assert str(tmp_path / "old" / "host") in reply["message"]
    assert "blocksift install" in reply["message"]

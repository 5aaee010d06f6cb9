"""The launcher when what it runs is gone (a moved or deleted virtualenv or checkout): the
browser would only say "Native host has exited", so the launcher answers with one error
frame the extension shows, naming the command that fixes it, and one line on stderr."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import struct
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

import pytest
from install_support import posix_only, write_script

from blocksift.registration import plan
from blocksift.registration.plan import LAUNCHER_GONE_EXIT as GONE
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
    assert done.returncode == GONE
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
    assert done.returncode == GONE
    reply = only_frame(done.stdout)
    assert str(tmp_path / "old" / "host") in reply["message"]
    assert "blocksift install" in reply["message"]


# -- after the frame: wait for the browser to hang up, bounded, and leave nothing behind ----
#
# Exiting right after the frame raced the browser's first write (the extension's hello):
# Chromium saw a broken pipe and reported "Error when communicating with the native
# messaging host" instead of the frame (tests/install/test_browser_e2e.py, under load).

#: The shells a launcher meets: dash (Debian's sh), bash, and bash as macOS's /bin/sh.
SHELLS = {"dash": ["dash"], "bash": ["bash"], "bash --posix": ["bash", "--posix"]}


def start_launcher(tmp_path: Path, shell: str, stdin: int = subprocess.PIPE
                   ) -> tuple[subprocess.Popen[bytes], Path]:
    """The launcher of a removed virtualenv, started the way a browser does, in its own
    session so that whatever it leaves behind can be found by process group."""
    argv = SHELLS[shell]
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed")
    gone = tmp_path / "removed venv" / "bin" / "python3"
    launcher = write_script(tmp_path / "blocksift-native-host",
                            launcher_script("linux", str(gone)))
    proc = subprocess.Popen([*argv, str(launcher), "chrome-extension://x/"], stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    return proc, gone


def read_to_eof(stream: IO[bytes], timeout: float) -> bytes:
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(stream.read()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert got, f"no EOF on the launcher's stdout within {timeout} s"
    return got[0]


def left_behind(group: int) -> list[str]:
    """Processes still in the launcher's process group (its background jobs share it)."""
    listing = subprocess.run(["ps", "-A", "-o", "pid=", "-o", "pgid=", "-o", "comm="],
                             capture_output=True, text=True, check=True).stdout
    return [line for line in listing.splitlines()
            if len(line.split()) >= 2 and line.split()[1] == str(group)]


def one_line(stderr: bytes) -> bool:
    """The launcher's stderr is its one message and nothing else (a browser logs it)."""
    text = stderr.decode()
    return text.startswith("blocksift cannot start: ") and text.count("\n") == 1 \
        and text.endswith("\n")


def hello_frame() -> bytes:
    body = json.dumps({"type": "hello", "id": "h1", "client": "test"}).encode()
    return struct.pack("=I", len(body)) + body


@pytest.mark.parametrize("shell", list(SHELLS))
def test_the_launcher_waits_for_the_browser_to_hang_up(
        tmp_path: Path, shell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan, "HANG_UP_WAIT_S", 60)  # so an exit below is the hang-up's
    proc, gone = start_launcher(tmp_path, shell)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        # The whole frame, then stdout closed (the browser may hang up once it has read it)...
        reply = only_frame(read_to_eof(proc.stdout, timeout=30))
        assert reply["type"] == "error" and str(gone) in reply["message"]
        # ...while the launcher still reads its stdin: the browser's first write succeeds.
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=1)
        proc.stdin.write(hello_frame())
        proc.stdin.flush()
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=0.5)
        proc.stdin.close()  # the browser hangs up
        assert proc.wait(timeout=30) == GONE
        assert left_behind(proc.pid) == []
        assert "blocksift install" in proc.stderr.read().decode()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.mark.parametrize("shell", list(SHELLS))
def test_the_wait_for_a_hang_up_is_bounded(
        tmp_path: Path, shell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser that keeps the port open: the launcher exits after HANG_UP_WAIT_S anyway,
    and its reader and watchdog go with it."""
    monkeypatch.setattr(plan, "HANG_UP_WAIT_S", 2)
    proc, _ = start_launcher(tmp_path, shell)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        only_frame(read_to_eof(proc.stdout, timeout=30))
        started = time.monotonic()
        assert proc.wait(timeout=60) == GONE  # stdin still open
        assert time.monotonic() - started > 1
        assert left_behind(proc.pid) == []
        # The reader the watchdog stopped is not reported (dash said "Terminated").
        assert one_line(proc.stderr.read())
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdin.close()


@pytest.mark.parametrize("stdin", ["closed pipe", "/dev/null"])
@pytest.mark.parametrize("shell", list(SHELLS))
def test_a_launcher_whose_stdin_is_closed_exits_at_once(
        tmp_path: Path, shell: str, stdin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan, "HANG_UP_WAIT_S", 60)
    proc, gone = start_launcher(
        tmp_path, shell, subprocess.PIPE if stdin == "closed pipe" else subprocess.DEVNULL)
    try:
        # b"": the pipe is closed before anything is read from it; well inside the bound.
        out, _ = proc.communicate(b"" if proc.stdin is not None else None, timeout=30)
        assert proc.returncode == GONE
        assert str(gone) in only_frame(out)["message"]
        assert left_behind(proc.pid) == []
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_run_by_hand_from_a_terminal_it_does_not_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone debugging the launcher in a terminal: no browser will hang up, so no wait
    (and no reader swallowing what they type)."""
    monkeypatch.setattr(plan, "HANG_UP_WAIT_S", 60)
    leader, follower = os.openpty()
    try:
        proc, _ = start_launcher(tmp_path, "dash" if shutil.which("dash") else "bash",
                                 stdin=follower)
        try:
            proc.communicate(timeout=30)
            assert proc.returncode == GONE
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    finally:
        os.close(leader)
        os.close(follower)


@pytest.mark.parametrize("shell", list(SHELLS))
def test_a_watchdog_not_yet_running_when_the_browser_hangs_up(tmp_path: Path, shell: str) -> None:
    """On a loaded machine the watchdog subshell may not have set its trap when the reader
    ends and the launcher stops it: it dies of the TERM, and dash's ``wait`` reported
    "Terminated" on stderr (test_missing_interpreter_answers_with_an_error_frame[sh] failed
    so). Here the watchdog is held before its trap until the launcher stops it."""
    argv = SHELLS[shell]
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed")
    text = launcher_script("linux", str(tmp_path / "removed venv" / "bin" / "python3"))
    late = "    inherited=$!"
    assert text.count(late) == 1
    launcher = write_script(tmp_path / "blocksift-native-host",
                            text.replace(late, "    while :; do :; done\n" + late))
    proc = subprocess.Popen([*argv, str(launcher), "chrome-extension://x/"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(b"", timeout=60)  # the browser hangs up at once
        assert proc.returncode == GONE
        only_frame(out)
        assert one_line(err), err
        assert left_behind(proc.pid) == []
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_run_by_hand_it_prints_the_message_not_the_frame(tmp_path: Path) -> None:
    """Doctor says to run the launcher by hand to see its error: in a terminal it prints
    the one message, not the frame's binary length and the message again as JSON."""
    gone = tmp_path / "removed venv" / "bin" / "python3"
    launcher = write_script(tmp_path / "blocksift-native-host",
                            launcher_script("linux", str(gone)))
    leader, follower = os.openpty()
    try:
        proc = subprocess.Popen([str(launcher)], stdin=follower, stdout=follower,
                                stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, err = proc.communicate(timeout=30)
            assert proc.returncode == GONE
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(follower)
        follower = -1
        shown = b""
        with contextlib.suppress(OSError):  # EIO: the terminal has no writer left
            while chunk := os.read(leader, 4096):
                shown += chunk
        assert shown == b"", shown
        assert one_line(err) and str(gone) in err.decode()
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)

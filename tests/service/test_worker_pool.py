"""The worker pool's forkserver and Ctrl-C."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

HOST = Path(__file__).resolve().parents[2] / "host"


def _ignored_signals(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return int(line.split()[1], 16)
    raise AssertionError("no SigIgn line")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_forkserver_ignores_ctrl_c_while_it_imports_the_preload(tmp_path: Path) -> None:
    """A Ctrl-C that lands while the forkserver still imports its preload modules must not
    reach it: it would die printing a KeyboardInterrupt traceback into the user's terminal."""
    marker = tmp_path / "importing"
    (tmp_path / "slow_preload.py").write_text(textwrap.dedent(f"""
        import os, pathlib, time
        pathlib.Path({str(marker)!r}).write_text(str(os.getpid()))
        time.sleep(30)
    """))
    script = textwrap.dedent("""
        import multiprocessing, signal, sys, time
        # as when started from a terminal: a test runner started in the background by a
        # shell without job control hands down SIGINT ignored, and the parent keeps that
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from blocksift.service.worker import _start_forkserver_deaf_to_ctrl_c
        multiprocessing.set_forkserver_preload(["slow_preload"])
        _start_forkserver_deaf_to_ctrl_c()
        time.sleep(30)
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HOST), str(tmp_path)]))
    parent = subprocess.Popen([sys.executable, "-c", script], env=env, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() or not marker.read_text():
            assert parent.poll() is None, "the parent exited early"
            assert time.monotonic() < deadline, "the forkserver never imported the preload"
            time.sleep(0.05)
        forkserver = int(marker.read_text())
        assert _ignored_signals(forkserver) & (1 << (2 - 1)), "SIGINT is not ignored"
        # ... and the parent still gets its Ctrl-C, once the spawn returned: on a busy
        # machine the forkserver can reach its preload before the parent restores SIGINT
        while _ignored_signals(parent.pid) & (1 << (2 - 1)):
            assert time.monotonic() < deadline, "the parent still ignores SIGINT"
            time.sleep(0.05)
    finally:
        parent.kill()
        parent.wait()
        if marker.exists() and marker.read_text():
            try:
                os.kill(int(marker.read_text()), 9)
            except ProcessLookupError:
                pass

"""Helpers for the WebSocket server tests: a real ``blocksift serve`` process.

Imported by ``test_ws.py`` (not a pytest conftest: the lead owns ``conftest.py``).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

HOST_DIR = Path(__file__).resolve().parents[2] / "host"
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)/")

#: A test-only algorithm that holds a worker for ``seconds``: it makes "work in flight"
#: observable (disconnect, SIGTERM, idle and time limits) independent of any real
#: extractor's speed. It registers itself on import, in the server and (preloaded) in the
#: forkserver its workers are forked from.
SLEEPY_MODULE = "ws_sleepy_algorithm"
SLEEPY_SOURCE = '''
"""Test-only algorithm: sleeps, then returns an empty ok result."""
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from blocksift import algorithms
from blocksift.wire.results import ExtractionResult

NAME = "sleepy"
MODEL = None


class Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seconds: float = Field(0.0, ge=0, description="test only: how long to hold the worker")
    started_file: str = Field("", description="test only: created when the job starts")


def extract(page, params, model=None):
    if params.started_file:
        Path(params.started_file).write_text("started", encoding="utf-8")
    time.sleep(params.seconds)
    return ExtractionResult(algorithm=NAME, message=f"slept {params.seconds:g} s")


algorithms.ALGORITHMS.setdefault(
    NAME, algorithms.AlgorithmInfo(NAME, __name__, "test only: sleeps", "none"))
'''
LAUNCHER = (
    "import sys\n"
    f"import {SLEEPY_MODULE}\n"
    "from blocksift.service import worker\n"
    f"worker.PRELOAD.append({SLEEPY_MODULE!r})\n"
    "from blocksift.cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def wait_for_file(path: Path, timeout: float = 60.0) -> None:
    """Wait until ``path`` exists: the sleepy job announcing it reached a worker."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} did not appear within {timeout:g} s")
        time.sleep(0.02)


def write_sleepy_module(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{SLEEPY_MODULE}.py").write_text(SLEEPY_SOURCE, encoding="utf-8")
    return directory


class ServeProcess:
    """``blocksift serve --port 0 ...`` as a subprocess; knows its port and token."""

    def __init__(self, home: Path, *args: str, extra_path: Path | None = None,
                 port: int = 0, wait: bool = True):
        paths = [str(HOST_DIR)]
        if extra_path is not None:
            paths.append(str(extra_path))
        env = dict(os.environ, BLOCKSIFT_HOME=str(home), PYTHONUNBUFFERED="1",
                   PYTHONPATH=os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
        command = ([sys.executable, "-c", LAUNCHER] if extra_path is not None
                   else [sys.executable, "-m", "blocksift"])
        self.home = home
        self.proc = subprocess.Popen([*command, "serve", "--port", str(port), *args],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, text=True)
        self.stdout_lines: list[str] = []
        self.stderr_lines: list[str] = []
        self._listening = threading.Event()
        self.port = 0
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.stdout_lines, True),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr_lines, False),
                         daemon=True).start()
        if wait:
            self.wait_listening()

    def _pump(self, stream, lines: list[str], watch: bool) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))
            match = LISTENING.search(line) if watch else None
            if match:
                self.port = int(match.group(1))
                self._listening.set()
        if watch:
            self._listening.set()

    def wait_listening(self, timeout: float = 60.0) -> None:
        self._listening.wait(timeout)
        if not self.port:
            self.stop()
            raise RuntimeError("blocksift serve did not start:\n" + self.output())

    def output(self) -> str:
        return "\n".join(["-- stdout", *self.stdout_lines, "-- stderr", *self.stderr_lines])

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def url6(self) -> str:
        return f"ws://[::1]:{self.port}/"

    @property
    def listens_on_ipv6(self) -> bool:
        return any(f"ws://[::1]:{self.port}/" in line for line in self.stdout_lines)

    @property
    def token(self) -> str:
        return (self.home / "config" / "ws-token").read_text(encoding="ascii").strip()

    def wait_for_log(self, needle: str, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(needle in line for line in self.stderr_lines):
                return True
            time.sleep(0.05)
        return False

    def terminate(self, timeout: float = 30.0) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

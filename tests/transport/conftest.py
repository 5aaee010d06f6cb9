"""A real host process driven over its stdin/stdout frames."""

from __future__ import annotations

import json
import os
import queue
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

HOST_DIR = Path(__file__).resolve().parents[2] / "host"

HEADER = struct.Struct("=I")


def check_reply(reply: Any) -> dict[str, Any]:
    """``reply`` once it has passed its reply model (``wire.protocol.REPLY_MODELS``): every
    message the host sends in these tests is checked against the contract, field by field."""
    from pydantic import ValidationError

    from blocksift.wire.protocol import REPLY_ADAPTER

    try:
        REPLY_ADAPTER.validate_python(reply)
    except ValidationError as exc:
        raise AssertionError(f"the host sent a reply its model refuses: {exc}\n"
                             f"reply: {json.dumps(reply)[:2000]}") from None
    return reply


class HostProcess:
    """``python -m blocksift native`` with a reader thread collecting reply frames."""

    def __init__(self, home: Path, *args: str, extra_path: Path | None = None,
                 prefix: tuple[str, ...] = ()):
        from conftest_ws import LAUNCHER

        paths = [str(HOST_DIR)] + ([str(extra_path)] if extra_path is not None else [])
        env = dict(os.environ, BLOCKSIFT_HOME=str(home),
                   PYTHONPATH=os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
        # With extra_path, the test-only "sleepy" algorithm found there is loaded too.
        command = ([sys.executable, "-c", LAUNCHER] if extra_path is not None
                   else [sys.executable, "-m", "blocksift"])
        # ``prefix`` runs the host under another command (unshare, to give it a full disk).
        self.proc = subprocess.Popen([*prefix, *command, "native", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.raw_sizes: list[int] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            header = stream.read(4)
            if len(header) < 4:
                self.replies.put(None)
                return
            (length,) = HEADER.unpack(header)
            body = stream.read(length)
            self.raw_sizes.append(length)
            self.replies.put(json.loads(body.decode("utf-8")))

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send_frame(self, body: bytes) -> None:
        self.send_raw(HEADER.pack(len(body)) + body)

    def send(self, message: dict[str, Any]) -> None:
        self.send_frame(json.dumps(message).encode("utf-8"))

    def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        reply = self.replies.get(timeout=timeout)
        if reply is None:
            raise EOFError("host closed stdout")
        return check_reply(reply)

    def recv_reply(self, timeout: float = 30.0) -> dict[str, Any]:
        """Next reply, with chunked replies reassembled."""
        reply = self.recv(timeout)
        if reply["type"] != "chunk":
            return reply
        parts = {reply["seq"]: reply["data"]}
        while len(parts) < reply["count"]:
            more = self.recv(timeout)
            assert more["type"] == "chunk" and more["id"] == reply["id"]
            parts[more["seq"]] = more["data"]
        return check_reply(json.loads("".join(parts[i] for i in range(reply["count"]))))

    def close_stdin(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.close_stdin()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture()
def host(blocksift_home: Path):
    process = HostProcess(blocksift_home)
    yield process
    process.stop()


@pytest.fixture()
def host_factory(blocksift_home: Path):
    started: list[HostProcess] = []

    def start(*args: str, extra_path: Path | None = None) -> HostProcess:
        process = HostProcess(blocksift_home, *args, extra_path=extra_path)
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()

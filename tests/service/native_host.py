"""The real ``blocksift native`` host in a process, spoken to as a browser does: one framed
request, its framed reply, every reply checked against its model."""

from __future__ import annotations

import base64
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

from blocksift.wire.protocol import REPLY_ADAPTER

HOST = Path(__file__).resolve().parents[2] / "host"
HEADER = struct.Struct("=I")


class Host:
    def __init__(self, home: Path):
        self.home = home
        env = dict(os.environ, BLOCKSIFT_HOME=str(home),
                   PYTHONPATH=os.pathsep.join([str(HOST), os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen([sys.executable, "-m", "blocksift", "native"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)

    def ask(self, message: dict) -> dict:
        body = json.dumps(message).encode()
        self.proc.stdin.write(HEADER.pack(len(body)) + body)
        self.proc.stdin.flush()
        (length,) = HEADER.unpack(self.proc.stdout.read(4))
        reply = json.loads(self.proc.stdout.read(length))
        REPLY_ADAPTER.validate_python(reply)  # the contract, field by field
        return reply

    def stop(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def upload(self, data: bytes, upload_id: str = "u1", pieces: int = 3, name: str =
               "pages.jsonl.gz", on_duplicate: str = "skip") -> list[dict]:
        """Send ``data`` in ``pieces`` chunks, in order; every reply."""
        size = max(1, -(-len(data) // pieces))
        chunks = [data[i:i + size] for i in range(0, len(data), size)] or [b""]
        replies = []
        for index, chunk in enumerate(chunks):
            last = index == len(chunks) - 1
            message = {"type": "examples.import", "id": f"{upload_id}-{index}",
                       "uploadId": upload_id, "index": index,
                       "data": base64.b64encode(chunk).decode(), "last": last,
                       "onDuplicate": on_duplicate}
            if index == 0:
                message.update(name=name, size=len(data))
            replies.append(self.ask(message))
        return replies

    def count(self) -> int:
        return self.ask({"type": "examples.list", "id": "count"})["total"]

    def alive(self) -> None:
        assert self.ask({"type": "ping", "id": "p"}) == {"type": "pong", "id": "p"}

    def imports(self) -> list[str]:
        folder = self.home / "data" / "imports"
        return sorted(p.name for p in folder.iterdir()) if folder.exists() else []

"""A WebSocket client that sends and never reads its replies must not grow the server.

Each request in progress holds its page and then its reply until the client reads it; the
server takes at most ``max_queue`` (64) requests in progress per connection, refuses more with
``busy``, and waiting to send that refusal stops it reading the connection, so the client's
own sends block instead of the server's memory growing. Before, a client flooding 0.65 MB
pages grew the server by about 0.6 MB per page sent, without end (718 MB after 90 s).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

from conftest_ws import ServeProcess
from websockets.sync.client import connect

#: Requests the flooding client tries to send: far more than the server may hold.
FLOOD = 1000
ROW = "<p>" + " ".join(f"word{i}" for i in range(60)) + ' <a href="/x">link</a></p>\n'
PAGE = "<html><body>" + ROW * 1500 + "</body></html>"  # 0.65 MB, replies of about 2 MB


def _rss_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


def test_a_client_that_never_reads_cannot_grow_the_server(tmp_path: Path):
    server = ServeProcess(tmp_path / "home", "--workers", "1")
    try:
        headers = {"Authorization": f"Bearer {server.token}"}
        with connect(server.url, additional_headers=headers, max_queue=1, ping_interval=None,
                     max_size=None) as flood:
            sent = [0]

            def send_all() -> None:
                try:
                    for n in range(FLOOD):
                        flood.send(json.dumps({"type": "extract", "id": f"e{n}", "html": PAGE,
                                               "algorithm": "linkblocks",
                                               "want": ["blocks", "main"]}))
                        sent[0] = n + 1
                except Exception:  # the socket shut at the end of the test
                    pass

            sender = threading.Thread(target=send_all, daemon=True)
            sender.start()
            # Wait until the client sent everything or its sends have stopped going out.
            last, still = -1, 0
            while sender.is_alive() and still < 20:
                time.sleep(0.5)
                still = still + 1 if sent[0] == last else 0
                last = sent[0]
            rss = _rss_mb(server.proc.pid)
            assert sent[0] < FLOOD, f"the server read all {FLOOD} requests of a client that " \
                                    f"reads no reply; it holds {rss} MB"
            # 64 pages of 0.65 MB and their replies at most, whatever the client sends
            assert rss < 500, f"server at {rss} MB after {sent[0]} requests"
            # other connections are served meanwhile
            with connect(server.url, additional_headers=headers) as other:
                other.send(json.dumps({"type": "ping", "id": "p"}))
                assert json.loads(other.recv(timeout=60)) == {"type": "pong", "id": "p"}
            flood.socket.shutdown(socket.SHUT_RDWR)
            sender.join(timeout=60)
    finally:
        server.stop()

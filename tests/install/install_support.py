"""Helpers shared by the registration tests (imported by name: pytest puts this folder on
sys.path)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HOST_DIR = REPO / "host"

#: The public key (DER SubjectPublicKeyInfo, base64) whose hash is our Chromium id. It is a
#: public key, shipped in the extension's manifest "key"; the private half is not needed.
PUBLIC_KEY_B64 = (
    "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyCAPz9KafO66O34FiVAH1kVr2e+zAiF7pHptDHsOWxGn"
    "meDvNILqHeWDJgO0tLVknJJm7M569uInB92wxgEjpjf/1CyGfhxKR5MHUzDRJrG5JluGnd7/2YeFFx6ewFcOqYZe"
    "Ys4+VNsW0MuPETN5BV88IYvUqjdOqiv5WYD5krOOzuW7dRPd6LVybjTx6Iuh/pYBWBn8URp8k/XoSXq+uLIbDAGi"
    "21UPQG+EDsn6KxX3PUq66fDCjyNRsrTm8Krjou0sAv9Z7RnPCGNB9ROQnrtbrqn7sr5LJtLNzgyS2Ez/pBGWSnaM"
    "PTNAJH5w6oH6oO1bb4wUKaPTEFMG8vpiHQIDAQAB"
)

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="runs POSIX launchers")


def subprocess_env(home: Path) -> dict[str, str]:
    """Environment for a child ``python -m blocksift`` that sees this checkout."""
    env = dict(os.environ, HOME=str(home), BLOCKSIFT_HOME=os.environ["BLOCKSIFT_HOME"])
    env["PYTHONPATH"] = str(HOST_DIR) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("XDG_CONFIG_HOME", None)
    return env


def write_script(path: Path, text: str) -> Path:
    """An executable script (a stand-in host for testing the doctor's client side)."""
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


#: A minimal host speaking the framing, with a switch for each way a host can misbehave.
TOY_HOST = f"""#!{sys.executable}
import json, struct, sys, time
mode = sys.argv[-1] if len(sys.argv) > 1 else "good"
out = sys.stdout.buffer
def send(obj):
    data = json.dumps(obj).encode()
    out.write(struct.pack("=I", len(data)) + data); out.flush()
if mode == "prints":
    print("hello from a debug print"); sys.stdout.flush()
if mode == "crash":
    sys.stderr.write("Traceback: ImportError: no module named lxml\\n"); sys.exit(3)
while True:
    head = sys.stdin.buffer.read(4)
    if len(head) < 4:
        if mode == "linger":
            time.sleep(30)
        sys.exit(0)
    (n,) = struct.unpack("=I", head)
    msg = json.loads(sys.stdin.buffer.read(n))
    if mode == "silent":
        continue
    if msg["type"] == "hello":
        send({{"type": "hello", "id": msg["id"], "protocol": 1, "hostVersion": "toy"}})
    elif msg["type"] == "ping":
        if mode == "bad-pong":
            send({{"type": "error", "id": msg["id"], "code": 3004, "name": "internal",
                   "message": "boom"}})
        else:
            send({{"type": "pong", "id": msg["id"]}})
"""

"""Cold start of the native host: process start to first reply, as a browser sees it.

Prints medians over N runs, measured side by side in one run with a bare interpreter's
start-up (the floor no host can beat on this machine):

    python3 benchmarks/bench_cold_start.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOST = Path(__file__).resolve().parents[1] / "host"
PAGE = (Path(__file__).resolve().parents[1] / "examples" / "article.html").read_text()


def first_reply_ms(messages: list[dict], home: str) -> float:
    env = dict(os.environ, BLOCKSIFT_HOME=home, PYTHONPATH=str(HOST))
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "blocksift", "native"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin and proc.stdout
    for message in messages:
        body = json.dumps(message).encode()
        proc.stdin.write(struct.pack("=I", len(body)) + body)
    proc.stdin.flush()
    for _ in messages:
        (length,) = struct.unpack("=I", proc.stdout.read(4))
        reply = json.loads(proc.stdout.read(length))
        assert reply["type"] != "error", reply
    elapsed = (time.perf_counter() - started) * 1000
    proc.stdin.close()
    proc.wait()
    return elapsed


def bare_interpreter_ms() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    cases = {
        "bare python -c pass": None,
        "host start -> pong": [{"type": "ping", "id": "1"}],
        "host start -> hello (with params schemas)": [{"type": "hello", "id": "1"}],
        "host start -> hello + first extract": [
            {"type": "hello", "id": "1"},
            {"type": "extract", "id": "2", "html": PAGE, "algorithm": "linkblocks"}],
    }
    results: dict[str, list[float]] = {name: [] for name in cases}
    with tempfile.TemporaryDirectory() as home:
        for _ in range(args.runs):  # interleaved, so machine noise hits every case alike
            for name, messages in cases.items():
                ms = bare_interpreter_ms() if messages is None else first_reply_ms(messages, home)
                results[name].append(ms)
    floor = statistics.median(results["bare python -c pass"])
    print(f"{'case':<45} {'median ms':>10} {'min ms':>8} {'x bare':>7}")
    for name, values in results.items():
        median = statistics.median(values)
        print(f"{name:<45} {median:>10.1f} {min(values):>8.1f} {median / floor:>7.2f}")


if __name__ == "__main__":
    main()

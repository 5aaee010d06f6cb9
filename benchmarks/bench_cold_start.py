"""Cold start of the native host: process start to first reply, as a browser sees it.

Prints medians over N runs, measured side by side in one run with a bare interpreter's
start-up (the floor no host can beat on this machine):

    python3 benchmarks/bench_cold_start.py [--runs 7]

``--first-jobs`` measures instead the worker pool's first pages after it has had time to
start (as when opening the popup started the host a moment before the click): the host's
pool as it runs (its forkserver runs a page first, ``blocksift.service.warmup``) beside one
without that warm-up, each in a fresh process, alternating; per pool the first reader and
hide jobs (one on each of its two workers) and the next two.
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


def one_pool(warm: bool, pause: float) -> list[float]:
    """In this process: a pool of two workers, ``pause`` seconds to start, then a reader and
    a hide job of the bundled article (one on each worker), then both again; their ms."""
    import asyncio

    sys.path.insert(0, str(HOST))
    from blocksift.service.worker import Job, WorkerPool
    from blocksift.wire.constants import ID_ATTR

    async def run() -> list[float]:
        pool = WorkerPool(2, warm=warm)
        await pool.start()
        await asyncio.sleep(pause)
        times = []
        for action in ("reader", "hide", "reader", "hide"):
            job = Job(algorithm="auto", params={}, html=PAGE, url=None, id_attr=ID_ATTR,
                      want=["main"] if action == "reader" else ["blocks"], action=action)
            started = time.perf_counter()
            outcome, _queued = await pool.run(job, timeout=60)
            assert outcome.ok, outcome.error_message
            times.append((time.perf_counter() - started) * 1000)
        await pool.close()
        return times

    return asyncio.run(run())


def first_jobs(runs: int, pause: float) -> None:
    names = ("first reader", "first hide", "second reader", "second hide")
    results: dict[bool, list[list[float]]] = {True: [], False: []}
    env = dict(os.environ, PYTHONPATH=str(HOST))
    for _ in range(runs):
        for warm in (False, True):  # alternating, fresh processes: the forkserver is per process
            out = subprocess.run([sys.executable, __file__, "--one-pool",
                                  "warm" if warm else "cold", "--pause", str(pause)],
                                 env=env, check=True, capture_output=True, text=True).stdout
            results[warm].append(json.loads(out.splitlines()[-1]))
    heading = f"job (median ms of {runs} pools)"
    print(f"{heading:<34} {'cold':>8} {'warm':>8} {'ratio':>7}")
    for index, name in enumerate(names):
        cold = statistics.median(r[index] for r in results[False])
        warm = statistics.median(r[index] for r in results[True])
        print(f"{name:<34} {cold:>8.1f} {warm:>8.1f} {warm / cold:>7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--first-jobs", action="store_true",
                        help="the pool's first jobs, with and without its warm-up")
    parser.add_argument("--pause", type=float, default=3.0,
                        help="with --first-jobs: seconds from the pool's start to its first job")
    parser.add_argument("--one-pool", choices=("warm", "cold"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_pool:
        print(json.dumps(one_pool(args.one_pool == "warm", args.pause)))
        return
    if args.first_jobs:
        first_jobs(args.runs, args.pause)
        return
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

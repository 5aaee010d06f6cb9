"""The worker pool's forkserver and Ctrl-C, and how it keeps its processes' memory in check."""

from __future__ import annotations

import asyncio
import os
import platform
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from blocksift.page import DEFAULT_ID_ATTR
from blocksift.service.worker import Job, WorkerPool, unmap_large_allocations

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


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux /proc")
def test_a_worker_grown_past_its_allowance_is_replaced_and_the_pool_serves_on() -> None:
    """A long batch or session fragments a worker's heap page after page; a worker grown
    past ``retire_growth_mb`` since its first job answers, then a fresh one takes over."""
    def job(paragraphs: int) -> Job:
        body = "".join(f"<p>Paragraph {i} of the page, with a few words.</p>"
                       for i in range(paragraphs))
        return Job("auto", {}, f"<html><body><article>{body}</article></body></html>", None,
                   ["main"], DEFAULT_ID_ATTR)

    async def scenario(retire_growth_mb: int | None) -> tuple[list, list[set[int]]]:
        pool = WorkerPool(1, retire_growth_mb=retire_growth_mb)
        await pool.start()
        outcomes, workers = [], []
        try:
            for size in (3, 20000, 3, 3):  # the big page grows the worker by tens of MB
                outcome, _queued = await pool.run(job(size), 120)
                outcomes.append(outcome)
                await asyncio.sleep(0)  # a retired worker's replacement is under way
                workers.append({w.process.pid for w in pool._all})
        finally:
            await pool.close()
        return outcomes, workers

    outcomes, workers = asyncio.run(scenario(1))
    assert all(o.ok and "Paragraph" in o.result_json for o in outcomes)
    assert workers[0] != workers[-1], "the grown worker was not replaced"
    outcomes, workers = asyncio.run(scenario(None))  # never: one worker throughout
    assert all(o.ok for o in outcomes) and workers[0] == workers[-1]


def test_the_pool_process_unmaps_large_allocations_on_glibc() -> None:
    expected = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert unmap_large_allocations() is expected


def _compiled_file(module: str) -> str | None:
    import importlib.util

    spec = importlib.util.find_spec(module)
    origin = spec.origin if spec else None
    return origin if origin and not origin.endswith(".py") else None


def _loaded_before_any_job_in_this_process(warm: bool) -> bool:
    """Whether the first worker of a new pool has linkblocks' compiled scan mapped before
    its first job; then that the pool answers a page. Run in a fresh process: the
    forkserver, and its preload, is one per process."""
    compiled = _compiled_file("blocksift.algorithms._linkblocks")

    async def scenario() -> bool:
        pool = WorkerPool(1, warm=warm)
        await pool.start()
        try:
            deadline = time.monotonic() + 60
            while not pool._all:
                assert time.monotonic() < deadline, "no worker started"
                await asyncio.sleep(0.05)
            (worker,) = pool._all
            loaded = compiled in Path(f"/proc/{worker.process.pid}/maps").read_text()
            # ... and the warm-up did not cost the pool its workers: a page is answered
            outcome, _queued = await pool.run(Job(
                "auto", {}, "<html><body><article><h1>T</h1><p>Some text here, a sentence."
                "</p></article></body></html>", None, ["main"], DEFAULT_ID_ATTR,
                action="reader"), 60)
            assert outcome.ok and "Some text here" in outcome.result_json, outcome
            return loaded
        finally:
            await pool.close()

    return asyncio.run(scenario())


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc")
def test_a_warm_pools_workers_start_with_a_pages_imports_done() -> None:
    """A worker's first page cost ten times its next (imports, regexes, the model): a warm
    pool's forkserver runs a page first (blocksift.service.warmup), so its workers are
    forked with the modules the reader and hide need already loaded, before any job."""
    if _compiled_file("blocksift.algorithms._linkblocks") is None:
        pytest.skip("linkblocks' compiled scan is not built here (no C compiler at install)")
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_worker_pool import _loaded_before_any_job_in_this_process as loaded
        print(loaded(sys.argv[1] == "warm"))
    """)
    env = dict(os.environ, PYTHONPATH=str(HOST))
    answers = {}
    for mode in ("warm", "cold"):
        done = subprocess.run([sys.executable, "-c", script, mode], env=env, text=True,
                              capture_output=True, timeout=180)
        assert done.returncode == 0, done.stderr[-2000:]
        answers[mode] = done.stdout.strip().splitlines()[-1]
    assert answers == {"warm": "True", "cold": "False"}

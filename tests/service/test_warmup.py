"""The forkserver's warm-up (blocksift.service.warmup): a page through the reader and hide
actions, in a fresh interpreter as the forkserver runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HOST = Path(__file__).resolve().parents[2] / "host"


def _python(script: str) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh interpreter, as the forkserver imports the warm-up."""
    env = dict(os.environ, PYTHONPATH=str(HOST))
    return subprocess.run([sys.executable, "-c", script], env=env, text=True,
                          capture_output=True, timeout=120)


def test_the_warm_up_answers_both_actions_and_leaves_their_modules_and_model_loaded():
    script = (
        "import sys\n"
        "import blocksift.service.warmup as warmup\n"  # importing it warms up, once
        "from blocksift.algorithms import auto\n"
        "print(warmup.warm(),\n"
        "      all(m in sys.modules for m in ('blocksift.actions.hide', 'blocksift.metadata',\n"
        "          'blocksift.algorithms.linkblocks', 'blocksift.algorithms.farsw.lines')),\n"
        "      auto._load.cache_info().currsize)\n")
    done = _python(script)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "True", "1"], (done.stdout, done.stderr[-2000:])
    assert "warm-up" not in done.stderr  # nothing went wrong, so nothing was logged


def test_a_failing_warm_up_is_logged_and_never_raised():
    """The forkserver survives only an ImportError from its preload: anything else would
    leave the host without workers."""
    script = (
        "import blocksift.service.worker as worker\n"
        "def broken(job): raise RuntimeError('boom')\n"
        "worker.run_job = broken\n"
        "import blocksift.service.warmup as warmup\n"
        "print(warmup.warm())\n")
    done = _python(script)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False"]
    assert "warm-up failed" in done.stderr and "boom" in done.stderr

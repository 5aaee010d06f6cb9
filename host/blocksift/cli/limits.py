"""Run one page's work under a time and a memory limit, as the native host's workers do.

``blocksift extract`` computes its whole answer in a forked child: the child caps its own
address space (``--memory-limit`` MiB above what it starts with, as a worker does) and the
parent kills it at ``--timeout``. A page over either limit is a one-line error with exit
code 2 and no traceback; what the child printed reaches the user only when it finished.
Where ``fork`` does not exist (Windows) the work runs in-process, without limits.
"""

from __future__ import annotations

import io
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable

EXIT_OK, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 2, 3, 130


def time_limit_message(timeout_s: float) -> str:
    return (f"blocksift: error: the page took longer than the {timeout_s:g} s time limit "
            "(--timeout)\n")


def memory_limit_message(limit_mb: int) -> str:
    return (f"blocksift: error: the page needed more memory than the {limit_mb} MiB limit "
            "(--memory-limit)\n")


def _child(work: Callable[[], int], memory_limit_mb: int | None, write_fd: int) -> None:
    """In the forked child: run ``work`` with stdout/stderr captured, send the answer."""
    from ..service.worker import hit_memory_limit, limit_memory
    from .common import CommandError

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and kills us
    limit_memory(memory_limit_mb)
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    try:
        code = int(work() or 0)
    except CommandError as exc:
        code = EXIT_USAGE
        err.write(f"blocksift: error: {exc}\n")
    except Exception as exc:  # the parent turns it into the CLI's one-line answer
        out = err = None  # free what the page held before anything else
        if hit_memory_limit(exc):
            answer = (EXIT_USAGE, "", memory_limit_message(memory_limit_mb or 0))
        elif os.environ.get("BLOCKSIFT_DEBUG"):
            import traceback

            answer = (EXIT_INTERNAL, "", traceback.format_exc())
        else:
            answer = (EXIT_INTERNAL, "", f"blocksift: internal error: {type(exc).__name__}: "
                                         f"{exc} (BLOCKSIFT_DEBUG=1 shows the traceback; "
                                         "please report it)\n")
    else:
        answer = (code, out.getvalue(), err.getvalue())
    try:
        data = pickle.dumps(answer)
    except MemoryError:
        data = pickle.dumps((EXIT_USAGE, "", memory_limit_message(memory_limit_mb or 0)))
    view = memoryview(data)
    while view:
        view = view[os.write(write_fd, view):]


def run_limited(work: Callable[[], int], timeout_s: float | None,
                memory_limit_mb: int | None) -> int:
    """``work()`` (which prints its answer and returns an exit code) under the limits."""
    if not hasattr(os, "fork"):
        return int(work() or 0)
    sys.stdout.flush()
    sys.stderr.flush()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; its coverage is the parent's answer
        status = 0
        try:
            os.close(read_fd)
            _child(work, memory_limit_mb, write_fd)
        except BaseException:
            status = EXIT_INTERNAL
        finally:
            os._exit(status)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    finished = False
    try:
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            ready, _, _ = select.select([read_fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                finished = True
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        if not finished:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if not finished:
        sys.stderr.write(time_limit_message(timeout_s or 0))
        return EXIT_USAGE
    try:
        code, out, err = pickle.loads(b"".join(chunks))
    except Exception:  # the child died before answering (killed, or a crash in C code)
        how = (f"signal {-os.waitstatus_to_exitcode(status)}"
               if os.WIFSIGNALED(status) else f"exit {os.waitstatus_to_exitcode(status)}")
        sys.stderr.write(f"blocksift: internal error: the extraction process ended without "
                         f"an answer ({how}; please report it)\n")
        return EXIT_INTERNAL
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code

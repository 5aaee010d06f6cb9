"""Run ``blocksift`` the ways a person does: in a pseudo-terminal, piped, with stdin closed.

A terminal run forks onto a new pty (``pty.fork``: the child's controlling terminal, so
``isatty()`` is true, progress bars draw and Ctrl-C is a real SIGINT), optionally with stdin
from a file or closed and stdout to a file, exactly as a shell's ``<``, ``<&-`` and ``>`` do.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CLOSED = "closed"


def command(*args: str) -> list[str]:
    """``blocksift ARGS``: the console script beside this Python when installed, else
    ``python3 -m blocksift`` on this checkout."""
    script = Path(sys.executable).with_name("blocksift")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script), *args]
    return [sys.executable, "-m", "blocksift", *args]


def environment(home: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(home),
               HOME=str(home), TERM="xterm-256color", COLUMNS="100", LINES="30")
    # as in a user's shell: output block-buffered when piped (so a reader that quits early
    # is met at the final flush too), no debugging switches
    for name in ("BLOCKSIFT_DEBUG", "PYTHONUNBUFFERED"):
        env.pop(name, None)
    env.update(extra)
    return env


@dataclass
class TerminalRun:
    returncode: int
    screen: str  # everything the terminal showed, CR/LF normalised

    @property
    def lines(self) -> list[str]:
        return [line for line in self.screen.split("\n") if line.strip()]


def in_terminal(argv: list[str], env: dict[str, str], *, stdin: str | Path | None = None,
                stdout: Path | None = None, typed: bytes = b"", interrupt_after: str = "",
                timeout: float = 120.0, cwd: Path = REPO, columns: int = 100) -> TerminalRun:
    """Run ``argv`` on a new pseudo-terminal.

    ``stdin``: None (the terminal), a file path (``< file``) or :data:`CLOSED` (``<&-``);
    ``stdout``: a file (``> file``) or None (the terminal). ``typed`` is typed at the
    keyboard once the process starts (``\\x04`` is Ctrl-D); with ``interrupt_after`` (a regular
    expression), Ctrl-C is pressed once the screen matches it. ``columns``: the terminal's
    width (its ``COLUMNS`` too, as a shell exports it).
    """
    env = dict(env, COLUMNS=str(columns))
    pid, master = pty.fork()
    if pid == 0:  # the child: set up redirections the way a shell does, then exec
        try:
            # a real terminal has a size (a new pty has 0x0, and bars would draw nothing)
            fcntl.ioctl(2, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
            # a shell at a prompt has Ctrl-C at its default, even if this test run was
            # started in the background (`cmd &` ignores SIGINT, and children inherit that)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.chdir(cwd)
            if stdin == CLOSED:
                os.close(0)
            elif stdin is not None:
                os.dup2(os.open(stdin, os.O_RDONLY), 0)
            if stdout is not None:
                os.dup2(os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    if typed:
        os.write(master, typed)
    interrupted = False
    status = None
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: every writer of the terminal is gone
                    break
                if not data:
                    break
                chunks.append(data)
            if interrupt_after and not interrupted and \
                    re.search(interrupt_after.encode(), b"".join(chunks)):
                os.write(master, b"\x03")  # Ctrl-C, as typed
                interrupted = True
            waited, code = os.waitpid(pid, os.WNOHANG)
            if waited:
                status = code
                break
        else:
            os.kill(pid, signal.SIGKILL)
            raise TimeoutError(f"{argv} did not finish in {timeout} s: "
                               f"{b''.join(chunks)[-500:]!r}")
        # drain the terminal until every process holding it is gone (EIO), e.g. the
        # children of a shell that exited first
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    if status is None:
        _, status = os.waitpid(pid, 0)
    screen = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return TerminalRun(os.waitstatus_to_exitcode(status), screen)

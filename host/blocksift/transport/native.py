"""Native messaging: the process a browser starts, speaking frames on stdin/stdout.

A frame is a 32-bit native-endian length followed by that many bytes of UTF-8 JSON.
stdout carries frames and nothing else: at start-up the real stdout is moved to a private
file descriptor and fd 1 is pointed at stderr, so a stray ``print`` (ours or a library's)
cannot corrupt the stream. Logs go to a rotating file in the user's state dir.

Every bad frame gets an ``error`` reply and the host keeps reading: an empty frame, a
length above the limit (its bytes are drained unread), a truncated body (at end of input),
invalid UTF-8, invalid JSON, an unknown type or invalid params. End of input (the browser
closed the port) or SIGTERM ends the process cleanly, cancelling work in flight.
"""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
import os
import signal
import struct
import sys
import threading
from typing import BinaryIO

from ..service.session import NATIVE_MAX_REPLY_BYTES, Service, ServiceConfig, Session
from ..wire.constants import ErrorCode, encode_reply

log = logging.getLogger("blocksift.native")
HEADER = struct.Struct("=I")
_DRAIN_CHUNK = 1 << 20


class FrameWriter:
    """Writes frames to the private stdout; one writer at a time."""

    def __init__(self, stream: BinaryIO):
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def write(self, text: str) -> None:
        data = encode_reply(text)
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(HEADER.pack(len(data)) + data)
                self._stream.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.closed = True  # the browser is gone; the reader will see EOF


def guard_stdout() -> BinaryIO:
    """Move the real stdout to a private fd, point fd 1 (and sys.stdout) at stderr."""
    sys.stdout.flush()
    private_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(private_fd, "wb", buffering=0)


def setup_logging(level: str = "INFO") -> None:
    """Log to a rotating file in the user's state dir (never to stdout)."""
    from ..paths import ensure_private_dir, state_dir

    handler: logging.Handler
    try:
        log_dir = ensure_private_dir(state_dir() / "logs")
        handler = logging.handlers.RotatingFileHandler(log_dir / "host.log",
                                                       maxBytes=1_000_000, backupCount=3,
                                                       encoding="utf-8")
    except OSError:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s "
                                           "%(message)s"))
    root = logging.getLogger("blocksift")
    root.addHandler(handler)
    root.setLevel(level)


def read_exactly(stream: BinaryIO, size: int) -> bytes:
    """Read up to ``size`` bytes, fewer only at end of input."""
    parts = []
    remaining = size
    while remaining:
        data = stream.read(remaining)
        if not data:
            break
        parts.append(data)
        remaining -= len(data)
    return b"".join(parts)


def drain(stream: BinaryIO, size: int) -> bool:
    """Discard ``size`` bytes without keeping them; False when input ended first."""
    remaining = size
    while remaining:
        data = stream.read(min(remaining, _DRAIN_CHUNK))
        if not data:
            return False
        remaining -= len(data)
    return True


def reader_thread(stream: BinaryIO, loop: asyncio.AbstractEventLoop, session: Session,
                  max_frame: int, done: asyncio.Event) -> None:
    """Read frames until end of input and hand each to the session on the event loop."""

    def submit(coro_factory: object) -> None:
        try:
            asyncio.run_coroutine_threadsafe(coro_factory, loop).result()  # type: ignore[arg-type]
        except Exception:  # one message's failure must not stop the host reading the next
            log.exception("handling a message failed")

    try:
        while True:
            header = read_exactly(stream, HEADER.size)
            if len(header) < HEADER.size:
                if header:
                    submit(session.send_error(ErrorCode.FRAME_TRUNCATED,
                                              f"input ended inside a frame header "
                                              f"({len(header)} of 4 bytes)"))
                break
            (length,) = HEADER.unpack(header)
            if length == 0:
                submit(session.send_error(ErrorCode.FRAME_EMPTY, "empty frame (length 0)"))
                continue
            if length > max_frame:
                submit(session.send_error(
                    ErrorCode.FRAME_TOO_LARGE,
                    f"frame of {length} bytes exceeds the {max_frame}-byte limit; "
                    "its bytes were discarded"))
                if not drain(stream, length):
                    break
                continue
            body = read_exactly(stream, length)
            if len(body) < length:
                submit(session.send_error(ErrorCode.FRAME_TRUNCATED,
                                          f"input ended after {len(body)} of {length} bytes "
                                          "of a frame"))
                break
            # Decode here, off the event loop; hand over without waiting for the work.
            message, problem = session.decode(body)
            del body
            if problem is not None:
                submit(session.send_error(*problem))
            else:
                submit(session.handle_message(message))
    except Exception:
        log.exception("reader failed")
    finally:
        loop.call_soon_threadsafe(done.set)


async def serve(stdin: BinaryIO, stdout: BinaryIO, config: ServiceConfig) -> None:
    """Serve one browser connection until end of input or SIGTERM."""
    loop = asyncio.get_running_loop()
    writer = FrameWriter(stdout)

    async def send(text: str) -> None:
        writer.write(text)

    service = Service(config)
    session = service.session(send, max_reply_bytes=NATIVE_MAX_REPLY_BYTES)
    done = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, done.set)
        except (NotImplementedError, RuntimeError):
            pass  # Windows: the browser closes stdin instead
    await service.start()
    thread = threading.Thread(target=reader_thread, name="blocksift-stdin", daemon=True,
                              args=(stdin, loop, session, config.max_frame_bytes, done))
    thread.start()
    await done.wait()
    log.info("input ended; shutting down")
    # The browser is gone (or asked us to stop): nobody can receive replies, so cancel at
    # once. Browsers kill a host that lingers about 2 s after closing its input.
    await session.close()
    await service.close()


def main(config: ServiceConfig | None = None, log_level: str = "INFO") -> int:
    """Entry point of ``blocksift native`` (the command the browser starts)."""
    stdout = guard_stdout()
    setup_logging(log_level)
    log.info("native host starting (pid %d, argv %s)", os.getpid(), sys.argv[1:])
    stdin = sys.stdin.buffer
    try:
        asyncio.run(serve(stdin, stdout, config or ServiceConfig()))
    except KeyboardInterrupt:
        pass
    finally:
        try:
            stdout.close()
        except OSError:
            pass
    log.info("native host stopped")
    logging.shutdown()
    # Stores are closed and flushed; skip the interpreter's slow teardown (joining pipe
    # threads, multiprocessing finalizers) so the browser sees us gone quickly.
    os._exit(0)

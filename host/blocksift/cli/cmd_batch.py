"""``blocksift batch``: JSONL pages on stdin -> JSONL extractions on stdout.

Input lines: ``{"id", "html", "url"?}``. Output lines, in input order:
``{"id", "text", "title", "blocks", "status", "ms"}``, or ``{"id", "error"}`` for a line
that could not be processed (the batch goes on). Pages are processed by ``--jobs`` worker
processes with a bounded window, so memory stays flat however long the input is.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from .common import (
    CommandError,
    add_algorithm_arguments,
    binary_kind,
    load_algorithm,
    parse_params,
    run_guarded,
    stdin_stream,
    want_progress,
)

_STATE: dict[str, Any] = {}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("batch", help="extract many pages: JSONL in, JSONL out")
    add_algorithm_arguments(parser)
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: CPU count; 1 runs in-process)")
    parser.add_argument("--action", choices=("extract", "hide"), default="extract",
                        help='hide: each output line also holds "hide", the plan the '
                             "extension receives")
    parser.add_argument("--progress", dest="progress", action="store_true", default=None,
                        help="show a progress bar on stderr even when it is not a terminal")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="no progress bar (default when stderr is not a terminal)")
    from . import batch_warc

    batch_warc.add_arguments(parser)
    parser.set_defaults(run=run)


def _init(algo: str, params: dict[str, Any], action: str = "extract") -> None:
    module, validated = load_algorithm(algo, params)
    _STATE["action"] = action
    _STATE["module"], _STATE["params"] = module, validated
    _STATE["model"] = module.load_model() if getattr(module, "MODEL", None) == "trained" else None


def _worker_init(algo: str, params: dict[str, Any], action: str = "extract") -> None:
    """Worker set-up: Ctrl-C reaches the whole process group, but only the parent answers
    it (workers printing their own KeyboardInterrupt tracebacks is noise)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _init(algo, params, action)


def _process(line: str) -> str:
    started = time.perf_counter()
    try:
        record = json.loads(line)
    except ValueError as exc:
        return json.dumps({"id": None, "error": f"bad input line: not JSON: {exc}"})
    # the id is kept whenever the line has one, so the caller can match the error to its page
    record_id = record.get("id") if isinstance(record, dict) else None
    if not isinstance(record, dict) or not isinstance(record.get("html"), str):
        return json.dumps({"id": record_id, "error": 'bad input line: each line must be a '
                           'JSON object with an "html" string'}, ensure_ascii=False)
    try:
        from ..metadata import attach
        from ..page import Page

        page = Page(record["html"], url=record.get("url"))
        result = _STATE["module"].extract(page, _STATE["params"], model=_STATE["model"])
        attach(page, result)
    except Exception as exc:  # one bad page must not stop the batch
        return json.dumps({"id": record_id, "error": f"{type(exc).__name__}: {exc}"})
    main = result.main
    extra: dict[str, Any] = {}
    if _STATE.get("action") == "hide":
        from ..actions.hide import hide_for

        try:
            extra["hide"] = hide_for(page, result).model_dump(mode="json", by_alias=True)
        except Exception as exc:  # one bad page must not stop the batch
            return json.dumps({"id": record_id, "error": f"{type(exc).__name__}: {exc}"})
    return json.dumps({
        "id": record_id,
        **extra,
        "text": main.text if main else "",
        "title": main.title if main else "",
        "metadata": main.metadata.model_dump(mode="json", by_alias=True)
        if main and main.metadata else None,
        "blocks": [b.model_dump(mode="json", by_alias=True) for b in result.blocks],
        "status": result.status,
        "ms": round((time.perf_counter() - started) * 1000, 2),
    }, ensure_ascii=False)


def _line_count(stream: Any) -> int | None:
    """Lines in stdin when it is a regular file (``< pages.jsonl``), so the progress bar can
    show a percentage and time left; None for a pipe. The read position is restored."""
    import stat

    try:
        fd = stream.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        start = os.lseek(fd, 0, os.SEEK_CUR)
        count = 0
        while chunk := os.read(fd, 1 << 20):
            count += chunk.count(b"\n")
        os.lseek(fd, start, os.SEEK_SET)
        return count
    except (OSError, ValueError):
        return None


def _lines(stream: Any) -> Iterator[str]:
    """Non-blank lines of stdin, read as bytes: an undecodable line becomes that line's
    error instead of ending the batch."""
    buffer = stream.buffer
    kind = binary_kind(buffer.peek(8192)[:8192]) if hasattr(buffer, "peek") else None
    if kind is not None:
        raise CommandError(f"standard input is {kind}, not JSONL pages")
    for raw in buffer:
        line = raw.decode("utf-8", errors="replace")
        if line.strip():
            yield line


@run_guarded
def run(args: argparse.Namespace) -> int:
    params = parse_params(args.param)
    _init(args.algo, params, args.action)  # validates algo and params before reading input
    if getattr(args, "warc", None):
        from . import batch_warc

        return batch_warc.run(args, params)
    stream = stdin_stream()
    if stream.isatty():
        raise CommandError("batch reads JSONL pages on standard input: "
                           "blocksift batch < pages.jsonl > out.jsonl")
    # tqdm without a total has no truth value (bool() raises): compare with None
    progress = None
    if want_progress(args.progress):
        from tqdm import tqdm

        progress = tqdm(unit="page", file=sys.stderr, total=_line_count(stream))
    out = sys.stdout
    try:
        if args.jobs <= 1:
            for line in _lines(stream):
                out.write(_process(line) + "\n")
                if progress is not None:
                    progress.update()
        else:
            window: deque[Future[str]] = deque()
            pool = ProcessPoolExecutor(args.jobs, initializer=_worker_init,
                                       initargs=(args.algo, params, args.action))
            try:
                for line in _lines(stream):
                    window.append(pool.submit(_process, line))
                    if len(window) >= args.jobs * 4:
                        out.write(window.popleft().result() + "\n")
                        if progress is not None:
                            progress.update()
                while window:
                    out.write(window.popleft().result() + "\n")
                    if progress is not None:
                        progress.update()
            except BaseException:
                # Ctrl-C, a closed pipe: drop the queued pages instead of finishing them
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            pool.shutdown()
    finally:
        if progress is not None:
            if progress.total and progress.n < progress.total:  # blank lines were counted
                progress.total = progress.n
                progress.refresh()
            progress.close()
    out.flush()
    return 0

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
    add_algorithm_arguments,
    load_algorithm,
    parse_params,
    run_guarded,
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
                        help="force a progress bar on stderr")
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    from . import batch_warc

    batch_warc.add_arguments(parser)
    parser.set_defaults(run=run)


def _init(algo: str, params: dict[str, Any], action: str = "extract") -> None:
    module, validated = load_algorithm(algo, params)
    _STATE["action"] = action
    _STATE["module"], _STATE["params"] = module, validated
    _STATE["model"] = module.load_model() if getattr(module, "MODEL", None) == "trained" else None


def _process(line: str) -> str:
    started = time.perf_counter()
    try:
        record = json.loads(line)
        if not isinstance(record, dict) or not isinstance(record.get("html"), str):
            raise ValueError('each line must be a JSON object with an "html" string')
    except ValueError as exc:
        return json.dumps({"id": None, "error": f"bad input line: {exc}"})
    record_id = record.get("id")
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


def _lines() -> Iterator[str]:
    for line in sys.stdin:
        if line.strip():
            yield line


@run_guarded
def run(args: argparse.Namespace) -> int:
    params = parse_params(args.param)
    _init(args.algo, params, args.action)  # validates algo and params before reading input
    if getattr(args, "warc", None):
        from . import batch_warc

        return batch_warc.run(args, params)
    progress = None
    if want_progress(args.progress):
        from tqdm import tqdm

        progress = tqdm(unit="page", file=sys.stderr)
    out = sys.stdout
    try:
        if args.jobs <= 1:
            for line in _lines():
                out.write(_process(line) + "\n")
                if progress:
                    progress.update()
        else:
            window: deque[Future[str]] = deque()
            with ProcessPoolExecutor(args.jobs, initializer=_init,
                                     initargs=(args.algo, params, args.action)) as pool:
                for line in _lines():
                    window.append(pool.submit(_process, line))
                    if len(window) >= args.jobs * 4:
                        out.write(window.popleft().result() + "\n")
                        if progress:
                            progress.update()
                while window:
                    out.write(window.popleft().result() + "\n")
                    if progress:
                        progress.update()
    finally:
        if progress:
            progress.close()
    out.flush()
    return 0

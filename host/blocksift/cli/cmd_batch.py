"""``blocksift batch``: JSONL pages on stdin -> JSONL extractions on stdout.

Input lines: ``{"id", "html", "url"?}``. Output lines, in input order:
``{"id", "text", "title", "blocks", "status", "ms"}``, or ``{"id", "error"}`` for a line
that could not be processed (the batch goes on). Pages are processed by ``--jobs`` worker
processes with a bounded window, so memory stays flat however long the input is, each page
under the native host's time and memory limits (:mod:`.batch_run`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from .batch_run import BatchLimits, run_pages
from .common import (
    add_algorithm_arguments,
    load_algorithm,
    parse_params,
    run_guarded,
    want_progress,
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("batch", help="extract many pages: JSONL in, JSONL out")
    add_algorithm_arguments(parser)
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: CPU count)")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                        help="per-page time limit; a page over it is an error line "
                             "(default %(default)s)")
    parser.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                        help="memory each worker may add, in MiB; a page over it is an error "
                             "line (default %(default)s; 0: none)")
    parser.add_argument("--action", choices=("extract", "hide"), default="extract",
                        help='hide: each output line also holds "hide", the plan the '
                             "extension receives")
    parser.add_argument("--progress", dest="progress", action="store_true", default=None,
                        help="force a progress bar on stderr")
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    from . import batch_warc

    batch_warc.add_arguments(parser)
    parser.set_defaults(run=run)


@run_guarded
def run(args: argparse.Namespace) -> int:
    params = parse_params(args.param)
    load_algorithm(args.algo, params)  # validates algo and params before reading input
    if args.timeout <= 0 or args.memory_limit < 0 or args.jobs < 1:
        print("blocksift: error: --timeout and --jobs must be positive, --memory-limit >= 0",
              file=sys.stderr)
        return 2
    if getattr(args, "warc", None):
        from . import batch_warc

        return batch_warc.run(args, params)
    progress = None
    if want_progress(args.progress):
        from tqdm import tqdm

        progress = tqdm(unit="page", file=sys.stderr)
    limits = BatchLimits(timeout_s=args.timeout, memory_limit_mb=args.memory_limit or None)
    try:
        asyncio.run(run_pages(iter(sys.stdin.buffer), sys.stdout.buffer, args.algo, params,
                              args.jobs, limits, args.action,
                              progress.update if progress is not None else None))
    finally:
        if progress is not None:  # bool(tqdm) raises without a total
            progress.close()
    return 0

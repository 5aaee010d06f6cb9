"""``blocksift batch --warc``: WARC files in, one JSONL line per HTML response out.

Hooked into :mod:`.cmd_batch`; the reading, decoding and record accounting live in
:mod:`blocksift.warc` and :mod:`blocksift.crawl`. The record counts go to stderr at the end
(``records in = written + skipped``, skips by reason).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import CommandError, want_progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..warc import DEFAULT_MAX_BYTES

    parser.add_argument("--warc", nargs="+", metavar="FILE|GLOB",
                        help="read HTML responses from WARC files (.warc, .warc.gz; globs "
                             "allowed) instead of JSONL on stdin")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES,
                        help="with --warc: skip payloads larger than this (default %(default)s)")


def run(args: argparse.Namespace, params: dict[str, Any]) -> int:
    from ..crawl import ExtractorConfigError, PageExtractor, run_warc_batch
    from ..warc import WarcUnavailable, expand_paths, require_fastwarc

    try:
        require_fastwarc()
        paths = expand_paths(args.warc)
        extractor = PageExtractor(args.algo, params)
    except (WarcUnavailable, FileNotFoundError, ExtractorConfigError) as exc:
        raise CommandError(str(exc)) from None
    progress = None
    if want_progress(args.progress):
        from tqdm import tqdm

        progress = tqdm(unit="page", file=sys.stderr)
    try:
        counts = run_warc_batch(paths, extractor, sys.stdout, jobs=args.jobs,
                                max_bytes=args.max_bytes, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    sys.stdout.flush()
    print(f"blocksift: warc: {counts.summary()}", file=sys.stderr)
    return 0

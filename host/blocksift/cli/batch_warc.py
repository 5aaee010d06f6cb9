"""``blocksift batch --warc``: WARC files in, one JSONL line (or Parquet row) per HTML response.

Hooked into :mod:`.cmd_batch`; the reading, decoding and record accounting live in
:mod:`blocksift.warc` and :mod:`blocksift.crawl`. Pages run on the native host's worker pool
under the same per-page time and memory limits as JSONL batch (:mod:`.batch_run`): a page
over a limit becomes an error line with its record id (``{"id", "url", "error", "code"}``),
counted as skipped under ``time-limit``, ``memory-limit`` or ``extract-error``, and the run
goes on. The record counts go to stderr at the end (``records in = written + skipped``,
skips by reason).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from typing import Any

from ..page import DEFAULT_ID_ATTR
from ..service.worker import Job
from ..wire.constants import ErrorCode
from .batch_run import BatchLimits, limited_pool, run_in_order, run_job
from .common import CommandError, want_progress

#: Skip reasons of pages that were read but not extracted, by the worker's error code.
FAILURE_REASONS = {ErrorCode.TIMEOUT: "time-limit", ErrorCode.MEMORY_LIMIT: "memory-limit"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..warc import DEFAULT_MAX_BYTES
    from .common import MAX_INPUT_BYTES, at_least

    parser.add_argument("--warc", nargs="+", metavar="FILE|GLOB",
                        help="read HTML responses from WARC files (.warc, .warc.gz; globs "
                             "allowed) instead of JSONL pages (FILE or standard input)")
    parser.add_argument("--max-bytes", type=at_least(1), default=None, metavar="BYTES",
                        help="skip a larger page with a reason: a WARC payload (default "
                             f"{DEFAULT_MAX_BYTES}) or a JSONL line, written as an error line "
                             f"with its id (default {MAX_INPUT_BYTES})")


async def run_records(paths: list[str], algorithm: str, params: dict[str, Any], jobs: int,
                      limits: BatchLimits, max_bytes: int, sink: Any,
                      progress: Any = None, counts: Any = None) -> Any:
    """Every record of ``paths``: each HTML page extracted on a limited worker and written
    in record order, every other record counted with its reason; returns the counts (kept
    in ``counts`` as they go when given, for a run cut short)."""
    from ..crawl import iter_items, text_only_params
    from ..warc import Skip, WarcCounts, WarcPage

    params = text_only_params(algorithm, params)
    counts = WarcCounts() if counts is None else counts
    pool = limited_pool(jobs, limits)
    await pool.start()

    async def extract(page: WarcPage) -> tuple[Any, Any, float]:
        started = time.perf_counter()
        job = Job(algorithm=algorithm, params=params, html=page.html, url=page.url,
                  want=["main"], id_attr=DEFAULT_ID_ATTR, metadata=False)
        page.html = ""  # the worker has it; the window keeps only the record's fields
        outcome, failure = await run_job(pool, job, limits)
        return outcome, failure, started

    def start(item: WarcPage | Skip) -> Any:
        if isinstance(item, Skip):
            return None
        return extract(item)

    def settle(done: tuple[WarcPage | Skip, Any]) -> None:
        item, result = done
        if isinstance(item, Skip):
            counts.skipped[item.reason] += 1
            return
        outcome, failure, started = result
        if failure is not None or not outcome.ok:
            code = failure.code if failure is not None else outcome.error_code
            message = failure.message if failure is not None else outcome.error_message
            counts.skipped[FAILURE_REASONS.get(code, "extract-error")] += 1
            sink.write({"id": item.record_id, "url": item.url, "error": message,
                        "code": int(code)})
        else:
            extraction = json.loads(outcome.result_json)
            main = extraction.get("main") or {}
            sink.write({"id": item.record_id, "url": item.url, "title": main.get("title", ""),
                        "text": main.get("text", ""), "metadata": item.metadata,
                        "status": extraction.get("status"),
                        "ms": round((time.perf_counter() - started) * 1000, 2)})
            counts.written += 1
        if progress is not None:
            # the bar runs on the input's bytes (its total known from the start, so it shows
            # a share and a time left); the pages written ride beside it
            progress.update(max(counts.bytes_read - progress.n, 0))
            progress.set_postfix_str(f"{counts.written} pages", refresh=False)

    try:
        await run_in_order(iter_items(paths, max_bytes, counts), start, settle, jobs)
    finally:
        await pool.close()
    return counts


#: How compressed WARC files begin (gzip, zstd, LZ4 frames), and how a WARC record does.
_GZIP, _ZSTD, _LZ4, _WARC = b"\x1f\x8b", b"\x28\xb5\x2f\xfd", b"\x04\x22\x4d\x18", b"WARC/"


def _refuse_other_files(path: str) -> None:
    """A file given to ``--warc`` that does not begin with a WARC record (a JSONL file, an HTML
    page) is a usage error: it was counted as one damaged record, and the run ended as done.
    zstd and LZ4 files are left to the reader; an empty file has no records, nothing wrong."""
    import zlib

    try:
        with open(path, "rb") as handle:
            head = handle.read(65536)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not head or head.startswith((_ZSTD, _LZ4)):
        return
    text = head
    if head.startswith(_GZIP):
        try:
            text = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 4096)
        except zlib.error:
            return  # a damaged first member: the reader resumes at the next and says so
        if not text:
            return  # an empty member, or a first member's start too short to tell
    if text.startswith(_WARC):
        return
    begins = text.lstrip()[:1]
    hint = (f"; for JSONL pages: blocksift batch {path}" if begins == b"{"
            else f"; for one page: blocksift extract {path}" if begins == b"<" else "")
    raise CommandError(f"{path} is not a WARC file (it does not begin with a WARC/ record)"
                       f"{hint}")


def _directory_message(path: str) -> str:
    """A directory given to ``--warc``: name the glob that reads its WARC files (quoted, so
    that blocksift expands it, also past the shell's argument limit)."""
    import glob
    import shlex

    base = path.rstrip(os.sep) or os.sep
    found = [name for name in sorted(os.listdir(path)) if ".warc" in name] \
        if os.access(path, os.R_OK | os.X_OK) else []
    suffix = next((ext for ext in (".warc.gz", ".warc.zst", ".warc.lz4", ".warc")
                   if any(name.endswith(ext) for name in found)), ".warc.gz")
    pattern = os.path.join(glob.escape(base), f"*{suffix}")
    return (f"{path} is a directory; --warc takes WARC files or a glob, e.g. "
            f"blocksift batch --warc {shlex.quote(pattern)}")


def run(args: argparse.Namespace, params: dict[str, Any], limits: BatchLimits) -> int:
    from ..warc import (
        DEFAULT_MAX_BYTES,
        WarcCounts,
        WarcUnavailable,
        expand_paths,
        require_fastwarc,
    )
    from .batch_output import WARC_COLUMNS, JsonlSink, open_sink, refuse_output_over_input
    from .main import EXIT_INTERRUPTED

    for pattern in args.warc:
        if os.path.isdir(pattern):
            raise CommandError(_directory_message(pattern))
    try:
        require_fastwarc()
        paths = expand_paths(args.warc)
    except (WarcUnavailable, FileNotFoundError) as exc:
        raise CommandError(str(exc)) from None
    for path in paths:
        _refuse_other_files(path)
    refuse_output_over_input(args.output, [str(path) for path in paths])
    sink = open_sink(args, sys.stdout.buffer, WARC_COLUMNS)
    progress = None
    if want_progress(args.progress):
        from tqdm import tqdm

        progress = tqdm(total=sum(os.path.getsize(path) for path in paths), unit="B",
                        unit_scale=True, unit_divisor=1024, file=sys.stderr)
    counts = WarcCounts()
    interrupted = False
    try:
        asyncio.run(run_records(paths, args.algo, params, args.jobs, limits,
                                args.max_bytes or DEFAULT_MAX_BYTES, sink, progress, counts))
        if progress is not None:
            progress.update(progress.total - progress.n)  # the last records' bytes
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sink.close()
        if progress is not None:
            progress.close()
    if interrupted:
        # the records settled so far, each accounted for (those read ahead are not: their
        # pages were never written)
        counts.records = counts.written + sum(counts.skipped.values())
        form = "whole lines" if isinstance(sink, JsonlSink) else "a complete Parquet file"
        print(f"blocksift: interrupted: warc: {counts.summary()}, to "
              f"{args.output or 'standard output'} ({form}, in record order)", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"blocksift: warc: {counts.summary()}", file=sys.stderr)
    return 0

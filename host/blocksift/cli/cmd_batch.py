"""``blocksift batch``: JSONL pages on stdin -> JSONL extractions on stdout.

Input lines: ``{"id", "html", "url"?}``. Output lines, in input order:
``{"id", "text", "title", "blocks", "status", "ms"}``, or ``{"id", "error"}`` for a line
that could not be processed (the batch goes on); JSONL on stdout, or to ``--output`` as
JSONL or Parquet (:mod:`.batch_output`). Pages are processed by ``--jobs`` worker
processes with a bounded window, so memory stays flat however long the input is, each page
under the native host's time and memory limits (:mod:`.batch_run`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

from .batch_run import BatchLimits, bounded_lines, run_pages
from .common import (
    MAX_INPUT_BYTES,
    CommandError,
    add_algorithm_arguments,
    add_model_argument,
    add_progress_arguments,
    binary_kind,
    load_algorithm,
    parse_params,
    resolve_model,
    run_guarded,
    seconds,
    stdin_stream,
    want_progress,
    worker_count,
)
from .main import EXIT_INTERRUPTED


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "batch", help="extract many pages: JSONL or WARC in, JSONL or Parquet out",
        description='Extract many pages. In: JSONL in FILE or on standard input (gzip-'
                    'compressed too), one {"id", "html", "url"} object a line ("url" '
                    'optional), or WARC files (--warc). Out: one '
                    'line per page, in input order: {"id", "text", "title", "metadata", '
                    '"blocks", "status", "ms"}, or {"id", "error", "code"} for a page that '
                    "failed (the run goes on); to standard output or --output, as JSONL or "
                    "Parquet. Example: blocksift batch pages.jsonl > out.jsonl")
    parser.add_argument("input", nargs="?", metavar="FILE",
                        help="JSONL pages, gzip-compressed too (default: standard input)")
    add_algorithm_arguments(parser)
    add_model_argument(parser)
    parser.add_argument("--jobs", "-j", type=worker_count, default=os.cpu_count() or 1,
                        metavar="N", help="worker processes (default: CPU count)")
    parser.add_argument("--timeout", type=seconds, default=30.0, metavar="SECONDS",
                        help="per-page time limit; a page over it is an error line "
                             "(default %(default)s)")
    parser.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                        help="memory each worker may add, in MiB; a page over it is an error "
                             "line (default %(default)s; 0: none)")
    parser.add_argument("--action", choices=("extract", "hide"), default="extract",
                        help='hide: each output line also holds "hide", the plan the '
                             "extension receives")
    add_progress_arguments(parser)
    from . import batch_output, batch_warc

    batch_output.add_arguments(parser)
    parser.add_argument("--resume", action="store_true",
                        help="go on with a run that was stopped: the pages whose lines the "
                             "JSONL --output holds are skipped, the rest appended (a last "
                             "line cut short is dropped first)")
    batch_warc.add_arguments(parser)
    parser.set_defaults(run=run)


def _line_count(stream: Any) -> int | None:
    """Lines in stdin when it is a regular file (``< pages.jsonl``), so the progress bar can
    show a percentage and time left; None for a pipe. The read position is restored."""
    import stat

    try:
        fd = stream.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        raw_position = os.lseek(fd, 0, os.SEEK_CUR)
        # from where reading stands, not where the file descriptor does: the binary-input
        # check's peek has buffered the file's first kilobytes already
        os.lseek(fd, stream.buffer.tell(), os.SEEK_SET)
        count, last = 0, b"\n"
        while chunk := os.read(fd, 1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
        os.lseek(fd, raw_position, os.SEEK_SET)
        return count + (last != b"\n")  # a last line without its newline is a line too
    except (OSError, ValueError):
        return None


def interrupted_summary(written: int, total: int | None, output: Any, parquet: bool) -> str:
    """What a run stopped by Ctrl-C left behind: how many pages were written (the first
    ones, in input order, each whole) and where; for a JSONL file, how to go on."""
    pages = f"{written} of {total} pages" if total else \
        f"{written} page{'' if written == 1 else 's'}"
    where = output if output is not None else "standard output"
    form = "a complete Parquet file" if parquet else "whole lines"
    again = "; --resume goes on from there" if output is not None and not parquet else ""
    return f"{pages} written to {where} ({form}, in input order){again}"


def _check_resume(args: argparse.Namespace) -> None:
    """``--resume`` appends to a JSONL file: said before any page is read."""
    if not args.resume:
        return
    if getattr(args, "warc", None):
        raise CommandError("--resume goes on with JSONL pages in, not --warc")
    if args.output is None:
        raise CommandError("--resume needs --output FILE: the JSONL file of the run to go on "
                           "with")
    if args.format == "parquet" or (args.format is None and args.output.suffix == ".parquet"):
        raise CommandError("--resume appends to a JSONL --output; a Parquet file cannot be "
                           "added to")


def _written_before(output: Any) -> tuple[int, Any]:
    """The whole lines a stopped run left in ``output`` and the id of the last one; a last
    line cut short (a run killed, not stopped by Ctrl-C) is cut off the file."""
    import json

    try:
        handle = open(output, "r+b")  # noqa: SIM115
    except FileNotFoundError:
        return 0, None
    except OSError as exc:
        raise CommandError(f"cannot resume {output}: {exc.strerror or exc}") from None
    with handle:
        count, end, last = 0, 0, b""
        while line := handle.readline():
            if not line.endswith(b"\n"):
                break
            count, end, last = count + 1, end + len(line), line
        handle.truncate(end)
    try:
        last_id = json.loads(last)["id"] if last else None
    except (ValueError, KeyError, TypeError):
        raise CommandError(f"cannot resume {output}: its line {count} is not a line batch "
                           "wrote") from None
    return count, last_id


def _skip_written(lines: Any, count: int, last_id: Any, output: Any) -> Any:
    """The input with its first ``count`` pages (as batch counts them: blank lines are
    none) read past, the last of them checked against the output's last line."""
    from .batch_run import OversizedLine, decode_line, oversized_line

    if not count:
        return lines
    seen = 0
    while seen < count:
        raw = next(lines, None)
        if raw is None:
            raise CommandError(f"cannot resume {output}: it holds {count} lines, more than "
                               f"the {seen} pages of the input")
        if isinstance(raw, OversizedLine) or raw.strip():
            seen += 1
    record_id = (oversized_line(raw, 0)["id"] if isinstance(raw, OversizedLine)
                 else decode_line(raw)[0])
    if record_id != last_id:
        raise CommandError(f"cannot resume {output}: its line {count} is of page "
                           f"{last_id!r}, the input's page {count} is {record_id!r}; not "
                           "the same input (without --resume it is written anew)")
    return lines


class _Counted:
    """The output sink, counting each line's status (an error line counts as ``error``)
    for the summary under a progress bar."""

    def __init__(self, sink: Any):
        self.sink = sink
        self.counts: dict[str, int] = {}
        self.own_address = 0  #: lines read under the address their page names (no "url")

    def write(self, record: dict[str, Any]) -> None:
        self.sink.write(record)
        status = "error" if "error" in record else str(record.get("status") or "ok")
        self.counts[status] = self.counts.get(status, 0) + 1
        self.own_address += "url_from" in record

    def summary(self, output: Any, before: int = 0) -> str:
        """``31 lines written to out.jsonl: ok 28, not_suitable 2, error 1``; ``before``:
        the lines a resumed run found there (``... to out.jsonl after its 43: ...``)."""
        total = sum(self.counts.values())
        shares = ", ".join(f"{status} {count}" for status, count in sorted(
            self.counts.items(), key=lambda item: (item[0] == "error", -item[1], item[0])))
        own = self.own_address
        named = "its page's" if own == 1 else "their pages'"
        return (f"{total} line{'' if total == 1 else 's'} written to "
                f"{output if output is not None else 'standard output'}"
                + (f" after its {before}" if before else "")
                + (f": {shares}" if shares else "")
                + (f"; {own} read under {named} own address" if own else ""))


class _Gunzipped:
    """The lines of gzip-compressed JSONL (``batch < pages.jsonl.gz``, as the dev sets are
    stored); data cut short or damaged is a :class:`CommandError` once the lines before it
    are read."""

    def __init__(self, buffer: Any, source: str = "standard input"):
        import gzip

        self.file = gzip.GzipFile(fileobj=buffer, mode="rb")
        self.source = source

    def _guarded(self, read: Any, *args: Any) -> bytes:
        import zlib

        try:
            return read(*args)
        except EOFError:
            raise CommandError(f"{self.source} is truncated gzip data") from None
        except (OSError, zlib.error) as exc:
            raise CommandError(f"{self.source} is damaged gzip data: {exc}") from None

    def peek(self, size: int) -> bytes:
        return self._guarded(self.file.peek, size)

    def readline(self, size: int = -1) -> bytes:
        return self._guarded(self.file.readline, size)


def _input(stream: Any, source: str = "standard input") -> Any:
    """The binary stream of JSONL lines on stdin (or in the file ``source`` names), gzip
    data read decompressed; refused when it is not JSONL (:func:`_refuse_binary`)."""
    buffer = stream.buffer
    if hasattr(buffer, "peek") and buffer.peek(2)[:2] == b"\x1f\x8b":
        buffer = _Gunzipped(buffer, source)
    _refuse_binary(buffer, source)
    return buffer


def _open_input(path: str) -> Any:
    """``batch FILE``: the file opened as stdin would be (its ``buffer`` read), or a
    :class:`CommandError` naming what it is instead."""
    if os.path.isdir(path):
        raise CommandError(f"{path} is a folder, not JSONL pages")
    try:
        return open(path, encoding="utf-8")  # noqa: SIM115 (closed when the run ends)
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None


def _refuse_binary(buffer: Any, source: str = "standard input") -> None:
    """A binary stdin (an archive, an image) is a usage error, not a page per line; so is an
    HTML page or a JSON array, which no JSONL line starts as (each of their lines was an error
    line, and the run ended as done)."""
    head = buffer.peek(8192)[:8192] if hasattr(buffer, "peek") else b""
    kind = binary_kind(head)
    if kind is not None:
        raise CommandError(f"{source} is {kind}, not JSONL pages")
    first = head.lstrip(b" \t\r\n\f\xef\xbb\xbf")[:1]
    if first == b"<":
        raise CommandError(f"{source} is an HTML page, not JSONL pages; for one page: "
                           "blocksift extract PAGE.html")
    if first == b"[":
        raise CommandError(f"{source} is a JSON array, not JSONL pages (one JSON object "
                           "a line): jq -c '.[]' pages.json | blocksift batch")


@run_guarded
def run(args: argparse.Namespace) -> int:
    params = parse_params(args.param)
    module, _ = load_algorithm(args.algo, params)  # validates algo and params before input
    if args.memory_limit < 0:  # --timeout and --jobs are checked as they are read
        print("blocksift: error: --memory-limit must be 0 (none) or a number of MiB",
              file=sys.stderr)
        return 2
    model_path = resolve_model(module, args.model)
    limits = BatchLimits(timeout_s=args.timeout, memory_limit_mb=args.memory_limit or None,
                         model_path=model_path)
    given = getattr(args, "input", None)
    _check_resume(args)
    if getattr(args, "warc", None):
        if given:
            raise CommandError("give JSONL pages (FILE) or --warc files, not both")
        from . import batch_warc

        return batch_warc.run(args, params, limits)
    if given:
        stream = _open_input(given)
    else:
        stream = stdin_stream()
        if stream.isatty():
            raise CommandError("batch reads JSONL pages from a file or standard input: "
                               "blocksift batch pages.jsonl > out.jsonl")
    try:
        return _run_lines(args, stream, given or "standard input", params, limits)
    finally:
        if given:
            stream.close()


def _run_lines(args: argparse.Namespace, stream: Any, source: str, params: dict[str, Any],
               limits: BatchLimits) -> int:
    from .batch_output import JSONL_COLUMNS, JsonlSink, open_sink, refuse_output_over_input

    try:
        refuse_output_over_input(args.output, [stream.fileno()])
    except (OSError, ValueError):  # an input without a file descriptor
        pass
    lines = _input(stream, source)

    max_bytes = args.max_bytes or MAX_INPUT_BYTES
    pages = bounded_lines(lines, max_bytes)
    before = 0  # --resume: the pages the output holds already
    if args.resume:
        before, last_id = _written_before(args.output)
        pages = _skip_written(pages, before, last_id, args.output)
    sink = open_sink(args, sys.stdout.buffer, JSONL_COLUMNS, append=args.resume)
    counted = _Counted(sink)
    # tqdm without a total has no truth value (bool() raises): compare with None
    progress = None
    if want_progress(args.progress):
        from tqdm import tqdm

        left = None if isinstance(lines, _Gunzipped) else _line_count(stream)
        progress = tqdm(unit="page", file=sys.stderr, initial=before,
                        total=None if left is None else left + before)
    written = before

    def on_line() -> None:
        nonlocal written
        written += 1
        if progress is not None:
            progress.update()

    interrupted = False
    try:
        asyncio.run(run_pages(pages, counted, args.algo, params, args.jobs, limits,
                              args.action, on_line, max_bytes))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sink.close()  # every settled page's line is whole (a Parquet file gets its footer)
        if progress is not None:  # bool(tqdm) raises without a total
            if not interrupted and progress.total and progress.n < progress.total:
                progress.total = progress.n  # blank lines were counted
                progress.refresh()
            progress.close()
    if interrupted:
        total = progress.total if progress is not None else None
        summary = interrupted_summary(written, total, args.output,
                                      parquet=not isinstance(sink, JsonlSink))
        print(f"blocksift: interrupted: {summary}", file=sys.stderr)
        return EXIT_INTERRUPTED
    if progress is not None:  # under the bar, how the pages went (piped, stderr stays quiet)
        print(f"blocksift: batch: {counted.summary(args.output, before)}", file=sys.stderr)
    return 0

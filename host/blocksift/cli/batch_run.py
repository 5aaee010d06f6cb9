"""``blocksift batch`` under the same limits as the native host.

Each page runs as a job on the host's :class:`~blocksift.service.worker.WorkerPool`: a page past the
time limit or the per-worker memory limit becomes an error line with its id (the worker is
killed and replaced) and the run goes on. Input lines are decoded at the boundary (invalid
bytes become U+FFFD, lone surrogates in strings too), so every output line is valid UTF-8 JSON.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..page import DEFAULT_ID_ATTR
from ..service.worker import Job, JobFailed, JobOutcome, WorkerPool
from .batch_output import JsonlSink, ParquetSink
from .common import MAX_INPUT_BYTES

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class BatchLimits:
    """Per-page limits of a batch run (the native host's defaults)."""

    timeout_s: float = 30.0
    memory_limit_mb: int | None = 2048
    model_path: str | None = None  #: ``--model``: a model file every worker loads once


def well_formed(value: Any) -> Any:
    """``value`` with lone surrogates in its strings replaced by U+FFFD (JSON's ``\\ud800``)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [well_formed(item) for item in value]
    if isinstance(value, dict):
        return {well_formed(key): well_formed(item) for key, item in value.items()}
    return value


@dataclass
class OversizedLine:
    """An input line longer than the run's cap, read past rather than held: its first bytes
    (for its id) and how long it was."""

    head: bytes
    size: int


_ID_NEAR_START = re.compile(rb'^\s*\{\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)')


def bounded_lines(stream: Any, max_bytes: int) -> Iterator[bytes | OversizedLine]:
    """The lines of a binary ``stream``; one longer than ``max_bytes`` is an
    :class:`OversizedLine` (a line of gigabytes would otherwise be read whole into memory
    before any limit saw it)."""
    while line := stream.readline(max_bytes + 1):
        if len(line) <= max_bytes or line.endswith(b"\n"):
            yield line
            continue
        head, size = line[:4096], len(line)
        del line
        while part := stream.readline(1 << 20):
            size += len(part)
            if part.endswith(b"\n"):
                break
        yield OversizedLine(head, size - 1 if part.endswith(b"\n") else size)


def oversized_line(line: OversizedLine, max_bytes: int) -> dict[str, Any]:
    """The error line of a line over the cap, with its id when the line starts with it."""
    found = _ID_NEAR_START.match(line.head)
    record_id = well_formed(json.loads(found.group(1))) if found else None
    return {"id": record_id, "error": f"bad input line: {line.size} bytes, over the "
                                      f"{max_bytes}-byte limit (--max-bytes); skipped"}


def decode_line(raw: bytes) -> tuple[Any, dict[str, Any] | None]:
    """One input line: (record id, job fields) or (id, None) with the error line to write."""
    text = raw.decode("utf-8", errors="replace")  # invalid bytes: U+FFFD, as browsers do
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return None, {"id": None, "error": f"bad input line: {exc}"}
    record_id = well_formed(record.get("id")) if isinstance(record, dict) else None
    if not isinstance(record, dict) or not isinstance(record.get("html"), str):
        return record_id, {"id": record_id,
                           "error": 'bad input line: each line must be a JSON object with an '
                                    '"html" string'}
    url = record.get("url")
    return record_id, {"html": well_formed(record["html"]),
                       "url": well_formed(url) if isinstance(url, str) else None}


def result_line(record_id: Any, outcome: JobOutcome, started: float) -> dict[str, Any]:
    """The output record of one page from its worker's outcome."""
    if not outcome.ok:
        return {"id": record_id, "error": outcome.error_message, "code": outcome.error_code}
    result = json.loads(outcome.result_json)
    main = result.get("main") or {}
    extra = {"hide": json.loads(outcome.hide_json)} if outcome.hide_json else {}
    if "url" in outcome.extra:  # a line without "url": the address the page names itself
        extra.update(url=outcome.extra["url"], url_from=outcome.extra["url_from"])
    if outcome.extra.get("repairs"):  # broken markup the parse repaired (absent: none)
        extra["repairs"] = outcome.extra["repairs"]
    site_pages = (result.get("stats") or {}).get("site_pages")
    if site_pages:  # labeled pages of its site adapted auto on this page (docs/auto.md)
        extra["site_pages"] = int(site_pages)
        # of them, the user's saved examples (absent: an older site file does not know)
        site_examples = result["stats"].get("site_examples")
        if site_examples is not None:
            extra["site_examples"] = int(site_examples)
    return {
        "id": record_id,
        **extra,
        "text": main.get("text", ""),
        "title": main.get("title", ""),
        "metadata": main.get("metadata"),
        "blocks": result.get("blocks", []),
        "status": result.get("status"),
        "ms": round((time.perf_counter() - started) * 1000, 2),
    }


async def run_job(pool: WorkerPool, job: Job, limits: BatchLimits
                  ) -> tuple[JobOutcome | None, JobFailed | None]:
    """One page on a limited worker: its outcome, or the failure (time or memory limit)."""
    job.model_path = limits.model_path
    try:
        outcome, _queue_ms = await pool.run(job, limits.timeout_s)
    except JobFailed as failure:
        return None, failure
    return outcome, None


async def _run_one(pool: WorkerPool, algorithm: str, params: dict[str, Any],
                   raw: bytes | OversizedLine, limits: BatchLimits, action: str,
                   max_bytes: int) -> dict[str, Any]:
    started = time.perf_counter()
    if isinstance(raw, OversizedLine):
        return oversized_line(raw, max_bytes)
    record_id, fields = decode_line(raw)
    del raw  # a page's line can be megabytes: gone while the page waits for its worker
    if fields is None or "error" in fields:
        return fields or {"id": record_id, "error": "bad input line"}
    # a line without "url": the page's own address, as `extract FILE` takes it
    job = Job(algorithm=algorithm, params=params, html=fields["html"], url=fields["url"],
              want=["main", "blocks"], id_attr=DEFAULT_ID_ATTR, action=action,
              page_address=True)
    del fields
    outcome, failure = await run_job(pool, job, limits)
    if failure is not None:
        return {"id": record_id, "error": failure.message, "code": failure.code}
    assert outcome is not None
    return result_line(record_id, outcome, started)


def ignore_late_reads(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The loop's exception handler: Ctrl-C cancels the wait on the input's read thread, and
    when that read ends, during asyncio.run's shutdown, CPython's ``_chain_future`` may try to
    set the cancelled wait's result and log an InvalidStateError traceback over the
    interrupted run's last words (a batch fed by a pipe that stays open). Nothing is lost:
    the line read is one the run no longer wants. Anything else goes to the default handler."""
    if isinstance(context.get("exception"), asyncio.InvalidStateError):
        return
    loop.default_exception_handler(context)


async def run_in_order(items: Iterator[Any], start: Callable[[Any], Awaitable[Any] | None],
                       settle: Callable[[Any], None], jobs: int,
                       keep_items: bool = True) -> None:
    """Start a task per item (``start`` may return None: nothing to run, settled as None),
    settling results in input order with at most ``jobs * 4`` in flight, so memory stays
    flat however long the input is. Items are read in a thread (a pipe or a WARC file).
    ``keep_items`` False: ``settle`` gets None for the item, which is not kept meanwhile
    (a page's raw line may be megabytes)."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(ignore_late_reads)
    window: deque[tuple[Any, asyncio.Task[Any] | None]] = deque()
    end = object()

    async def pop() -> None:
        item, task = window.popleft()
        settle((item, await task if task is not None else None))

    try:
        while True:
            item = await loop.run_in_executor(None, next, items, end)
            if item is end:
                break
            work = start(item)
            window.append((item if keep_items else None,
                           asyncio.ensure_future(work) if work is not None else None))
            del item, work
            if len(window) >= max(1, jobs) * 4:
                await pop()
        while window:
            await pop()
    finally:
        for _item, task in window:
            if task is not None:
                task.cancel()


def limited_pool(jobs: int, limits: BatchLimits) -> WorkerPool:
    return WorkerPool(max(1, jobs), max_queue=jobs * 8 + 8,
                      memory_limit_mb=limits.memory_limit_mb)


async def run_pages(lines: Iterator[bytes | OversizedLine], out: JsonlSink | ParquetSink,
                    algorithm: str, params: dict[str, Any], jobs: int, limits: BatchLimits,
                    action: str = "extract", on_line: Callable[[], None] | None = None,
                    max_bytes: int = MAX_INPUT_BYTES) -> None:
    """Run every page of ``lines`` (:func:`bounded_lines`, whose cap is ``max_bytes``) on
    ``jobs`` limited workers; write results in input order."""
    from ..crawl import text_only_params

    # no output column holds the reader's HTML (the blocks' reasons are in "blocks")
    params = text_only_params(algorithm, params, {"with_html": False})
    pool = limited_pool(jobs, limits)
    await pool.start()

    def settle(done: tuple[None, dict[str, Any]]) -> None:
        out.write(done[1])
        if on_line:
            on_line()

    try:
        await run_in_order((raw for raw in lines
                            if isinstance(raw, OversizedLine) or raw.strip()),
                           lambda raw: _run_one(pool, algorithm, params, raw, limits, action,
                                                max_bytes),
                           settle, jobs, keep_items=False)
    finally:
        await pool.close()

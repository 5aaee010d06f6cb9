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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..page import DEFAULT_ID_ATTR
from ..service.worker import Job, JobFailed, JobOutcome, WorkerPool
from ..wire.constants import encode_reply

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class BatchLimits:
    """Per-page limits of a batch run (the native host's defaults)."""

    timeout_s: float = 30.0
    memory_limit_mb: int | None = 2048


def well_formed(value: Any) -> Any:
    """``value`` with lone surrogates in its strings replaced by U+FFFD (JSON's ``\\ud800``)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [well_formed(item) for item in value]
    if isinstance(value, dict):
        return {well_formed(key): well_formed(item) for key, item in value.items()}
    return value


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


def encode_line(record: dict[str, Any]) -> bytes:
    return encode_reply(json.dumps(record, ensure_ascii=False)) + b"\n"


async def _run_one(pool: WorkerPool, algorithm: str, params: dict[str, Any], raw: bytes,
                   limits: BatchLimits, action: str) -> bytes:
    started = time.perf_counter()
    record_id, fields = decode_line(raw)
    if fields is None or "error" in fields:
        return encode_line(fields or {"id": record_id, "error": "bad input line"})
    job = Job(algorithm=algorithm, params=params, html=fields["html"], url=fields["url"],
              want=["main", "blocks"], id_attr=DEFAULT_ID_ATTR, action=action)
    del fields
    try:
        outcome, _queue_ms = await pool.run(job, limits.timeout_s)
    except JobFailed as failure:
        return encode_line({"id": record_id, "error": failure.message, "code": failure.code})
    return encode_line(result_line(record_id, outcome, started))


async def run_pages(lines: Iterator[bytes], out: BinaryIO, algorithm: str,
                    params: dict[str, Any], jobs: int, limits: BatchLimits,
                    action: str = "extract", on_line: Callable[[], None] | None = None) -> None:
    """Run every page of ``lines`` on ``jobs`` limited workers; write results in input order.

    At most ``jobs * 4`` pages are in flight, so memory stays flat however long the input is.
    """
    pool = WorkerPool(max(1, jobs), max_queue=jobs * 8 + 8,
                      memory_limit_mb=limits.memory_limit_mb)
    await pool.start()
    loop = asyncio.get_running_loop()
    window: deque[asyncio.Task[bytes]] = deque()

    def next_line() -> bytes | None:
        for raw in lines:
            if raw.strip():
                return raw
        return None

    try:
        while True:
            raw = await loop.run_in_executor(None, next_line)
            if raw is None:
                break
            job = _run_one(pool, algorithm, params, raw, limits, action)
            window.append(asyncio.create_task(job))
            del raw
            if len(window) >= max(1, jobs) * 4:
                out.write(await window.popleft())
                if on_line:
                    on_line()
        while window:
            out.write(await window.popleft())
            if on_line:
                on_line()
        out.flush()
    finally:
        for task in window:
            task.cancel()
        await pool.close()

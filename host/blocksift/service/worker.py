"""Extraction in worker processes: one page per job, killable on cancel or time-out.

Running each job in a separate process keeps the host serving when a page is huge (a
20 MB page does not hold up a small one on another worker), when the user cancels (the
worker is killed and replaced), and even when a parser crashes on a hostile page.
Workers are forked from a forkserver preloaded with the extraction modules, so replacing
one costs milliseconds. Jobs wait in a queue ordered by page size, small pages first.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("blocksift.worker")

#: Default per-worker memory limit: address space a worker may add to what it had when it
#: started (the preloaded modules), in MiB. 64 MiB frames at the goal of 30 x the page size.
DEFAULT_MEMORY_LIMIT_MB = 2048
#: A worker whose resident memory has grown this many MiB past what it held after its first
#: job (models loaded) is replaced after its reply: a long batch or session fragments the
#: heap page after page (126 MB resident after 1,500 dev pages, from 69), and each big
#: page's peak lands on top of that. Replacing a worker costs a fork (and, in a pool
#: without the warm-up, a model load on its first page).
RETIRE_GROWTH_MB = 40


PRELOAD = ["blocksift.page", "blocksift.content", "blocksift.wire.results", "lxml.html",
           "blocksift.algorithms"]


@dataclass
class Job:
    """One extraction, as sent to a worker."""

    algorithm: str
    params: dict[str, Any]
    html: str
    url: str | None
    want: list[str]
    id_attr: str
    model: Any = None
    observe_site: bool = False  #: also return the page's structure feature (site learning)
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB  #: the worker's limit, for the error text
    #: "hide": also return the hide plan (blocksift.actions.hide); "reader": the page's kind
    #: and an index page's stories only (actions.hide.page_summary)
    action: str = "extract"
    model_path: str | None = None  #: a model file to use (``--model``), loaded once per worker
    #: fill the main text's metadata (author, date, ...); crawl lines have no place for it
    metadata: bool = True
    #: without ``url``, read the page under the address it names for itself, if any
    #: (:mod:`blocksift.page_address`; ``batch`` lines without "url"): ``extra`` then holds
    #: it as "url", and where it came from as "url_from"
    page_address: bool = False


@dataclass
class JobOutcome:
    """A worker's answer: the result JSON (camelCase) or an error."""

    ok: bool
    result_json: str = ""
    error_code: int = 0
    error_message: str = ""
    parse_ms: float = 0.0
    algorithm_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    hide_json: str = ""  #: the hide plan (action "hide"), camelCase JSON
    page_json: str = ""  #: the page's kind and index (action "reader"), camelCase JSON
    #: The worker should not take another job (it ran out of memory): the pool replaces it.
    retire: bool = False


def memory_limit_error(limit_mb: int) -> str:
    return (f"the page needed more memory than the {limit_mb} MiB per-worker limit "
            "(--memory-limit); the worker was replaced")


def _statm_bytes(field: int) -> int | None:
    """A field of /proc/self/statm in bytes (0: virtual size, 1: resident), None where
    unknown (not Linux)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[field]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def address_space_bytes() -> int | None:
    """This process's current virtual memory size (Linux), None where unknown."""
    return _statm_bytes(0)


#: In a host's main process, allocations of at least this size get a mapping of their own.
MMAP_THRESHOLD_BYTES = 1 << 20
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter


def unmap_large_allocations() -> bool:
    """glibc: from here on, give allocations of :data:`MMAP_THRESHOLD_BYTES` or more a
    mapping of their own, unmapped when freed. By default glibc raises that threshold each
    time such a block is freed (up to 32 MiB), so the next pages' megabyte strings come from
    the heap, where freed memory stays resident: the main process of ``batch --jobs 1``
    reached 160-185 MB over the dev pages it only decodes and passes on, 100 MB with this.
    False (nothing done) on other C libraries and systems."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))


def resident_bytes() -> int | None:
    """This process's resident memory now (Linux), None where unknown."""
    return _statm_bytes(1)


def limit_memory(limit_mb: int | None) -> bool:
    """Cap this process's address space at its current size plus ``limit_mb`` MiB.

    An allocation past the cap fails with MemoryError (Python and lxml alike) instead of
    the machine swapping; True when the cap is in place.
    """
    if not limit_mb or limit_mb <= 0:
        return False
    try:
        import resource
    except ImportError:  # Windows: no rlimits
        return False
    current = address_space_bytes()
    if current is None:
        return False
    cap = current + limit_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        return False
    _LIMIT.update(base=current, cap=cap)
    return True


_LIMIT: dict[str, int] = {}


def _peak_address_space() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def hit_memory_limit(exc: BaseException) -> bool:
    """Whether ``exc`` came from the memory limit, not from a bug.

    Python raises MemoryError, but libxml2 reports a failed allocation as a parse error
    ("unknown error"); so an error in a worker that came within half its limit of the cap
    is put down to memory too.
    """
    if isinstance(exc, MemoryError):
        return True
    if "cap" not in _LIMIT:
        return False
    peak = _peak_address_space()
    return peak is not None and peak - _LIMIT["base"] >= (_LIMIT["cap"] - _LIMIT["base"]) // 2


class JobFailed(Exception):
    """The job ended without a result: cancelled, timed out, or the worker died."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def run_job(job: Job) -> JobOutcome:
    """Run one job in this process (the body of a worker; also used in-process by the CLI)."""
    from pydantic import ValidationError

    from .. import algorithms
    from ..page import Page, PageError
    from ..wire.constants import ErrorCode

    try:
        module = algorithms.load(job.algorithm)
    except algorithms.UnknownAlgorithm:
        return JobOutcome(False, error_code=ErrorCode.UNKNOWN_ALGORITHM,
                          error_message=f"unknown algorithm {job.algorithm!r}; "
                                        f"known: {', '.join(algorithms.names())}")
    try:
        params = module.Params.model_validate(job.params)
    except ValidationError as exc:
        return JobOutcome(False, error_code=ErrorCode.INVALID_PARAMS,
                          error_message=f"invalid params for {job.algorithm}: "
                                        f"{algorithms.params_problems(exc)}")
    if ("main" not in job.want and "main_text" in type(params).model_fields
            and "main_text" not in job.params):
        # Blocks only (e.g. "hide link blocks"): skip main-text work such as a tree parse.
        params = params.model_copy(update={"main_text": False})
    if (job.action in ("hide", "reader") and "reasons" in type(params).model_fields
            and "reasons" not in job.params):
        # the hide plan gives its own reasons, the reader shows none: a segmenter's per-block
        # ones would be dropped
        params = params.model_copy(update={"reasons": 0})
    started = time.perf_counter()
    try:
        model = job.model
        if model is None and job.model_path:
            model = model_from_path(module, job.model_path)
        if model is None and getattr(module, "MODEL", None) == "trained":
            model = trained_model(module)
        page = Page(job.html, url=job.url, id_attr=job.id_attr,
                    spans=not _text_without_spans(job, module, params, model))
        own_address = None
        if job.url is None and job.page_address:
            from ..page_address import declared_address

            own_address = declared_address(page)
            if own_address is not None:
                page.url = own_address[0]
        result = module.extract(page, params, model=model)
        hide_json = page_json = ""
        if job.action == "hide":
            from ..actions.hide import hide_for

            hide_json = hide_for(page, result).model_dump_json(by_alias=True)
        elif job.action == "reader":
            from ..actions.hide import page_summary
            from ..index_prices import index_prices
            from ..wire.protocol import ReaderPageSummary

            summary = page_summary(page, result).model_dump()
            # a shop's index: each product's price from its card, beside its name
            try:
                prices = index_prices(page.tree, [item["href"] for item in summary["index"]])
            except Exception:  # the stories matter more than their prices
                log.exception("index prices failed")
                prices = []
            for item, price in zip(summary["index"], prices):
                item["price"] = price
            if summary["index"]:
                from ..index_prices import sale_cues

                types = {name.split(".", 1)[1]: p for name, p in result.stats.items()
                         if name.startswith("page_type.")}
                try:
                    summary["sells"] = bool(sale_cues(
                        page.tree, [item["href"] for item in summary["index"]], types))
                except Exception:  # a cue, not worth the stories
                    log.exception("sale cues failed")
            page_json = ReaderPageSummary.model_validate(summary).model_dump_json(by_alias=True)
    except PageError as exc:
        return JobOutcome(False, error_code=ErrorCode.PAGE_ERROR, error_message=str(exc))
    except Exception as exc:  # an algorithm bug on one page must not take the host down
        if hit_memory_limit(exc):
            page = model = None  # free what we can before building the reply
            return JobOutcome(False, error_code=ErrorCode.MEMORY_LIMIT,
                              error_message=memory_limit_error(job.memory_limit_mb),
                              retire=True)
        log.exception("extraction failed")
        return JobOutcome(False, error_code=ErrorCode.INTERNAL,
                          error_message=f"{job.algorithm} failed on this page: "
                                        f"{type(exc).__name__}: {exc}")
    if job.observe_site and "site_observation" not in result.extra:
        try:
            from ..algorithms import clustering

            result.extra["site_observation"] = clustering.observe(
                page, clustering.Params()).as_dict()
        except Exception:  # learning is best effort; the reply must not suffer
            log.exception("site observation failed")
    elapsed = (time.perf_counter() - started) * 1000
    if "blocks" not in job.want:
        result.blocks = [b for b in result.blocks if b.kind == "main"]
    if "main" not in job.want:
        result.main = None
    elif job.metadata:
        from ..metadata import attach

        attach(page, result)
    # Only what the host acts on crosses the pipe (an algorithm's diagnostics stay here).
    extra = {k: result.extra[k] for k in ("site_observation",) if k in result.extra}
    if own_address is not None:
        extra.update(url=own_address[0], url_from=own_address[1])
    if page.repairs:  # what the parser's recovery changed in broken markup
        extra["repairs"] = list(page.repairs)
    parse_ms = sum(page.timings.values())
    return JobOutcome(True, result_json=result.model_dump_json(by_alias=True),
                      parse_ms=parse_ms, algorithm_ms=elapsed - parse_ms, extra=extra,
                      hide_json=hide_json, page_json=page_json)


def _text_without_spans(job: Job, module: Any, params: Any, model: Any) -> bool:
    """A job for the main text and title alone (``batch --warc``'s lines), with an algorithm
    and model that can do without the tag scan and stamps (``Page(spans=False)``)."""
    from .. import algorithms

    return (job.want == ["main"] and job.action == "extract" and not job.metadata
            and not job.observe_site and algorithms.text_without_spans(module, params, model))


_MODEL_CACHE: dict[str, tuple[tuple[int, int] | None, Any]] = {}
_PATH_MODELS: dict[tuple[str, str], Any] = {}


def model_from_path(module: Any, path: str) -> Any:
    """The model file ``path`` for ``module`` (``batch --model``), loaded once per process."""
    key = (module.NAME, path)
    if key not in _PATH_MODELS:
        _PATH_MODELS[key] = module.load_model(path)
    return _PATH_MODELS[key]


def trained_model(module: Any) -> Any:
    """The module's model (user model if present, else packaged), cached per process.

    Keyed on the user model file's mtime and size, so a model written by ``train`` is
    picked up by the very next request without re-reading the file on every request.
    """
    from ..paths import model_path

    path = model_path(module.NAME)
    try:
        stat = path.stat()
        key: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    cached = _MODEL_CACHE.get(module.NAME)
    if cached is not None and cached[0] == key:
        return cached[1]
    model = module.load_model()
    _MODEL_CACHE[module.NAME] = (key, model)
    return model


def _worker_main(conn: multiprocessing.connection.Connection,
                 memory_limit_mb: int | None = None,
                 retire_growth_mb: int | None = RETIRE_GROWTH_MB) -> None:
    """Worker loop: receive jobs, send outcomes, until the pipe closes (or it retires:
    out of memory, or grown by ``retire_growth_mb`` since its first job)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when workers stop
    limit_memory(memory_limit_mb)
    settled: int | None = None  # resident memory after the first job
    while True:
        try:
            job = conn.recv()
        except MemoryError:  # the job itself does not fit: answer, then be replaced
            from ..wire.constants import ErrorCode

            outcome = JobOutcome(False, error_code=ErrorCode.MEMORY_LIMIT,
                                 error_message=memory_limit_error(memory_limit_mb or 0),
                                 retire=True)
        except (EOFError, OSError):
            return
        else:
            try:
                outcome = run_job(job)
            except MemoryError:
                from ..wire.constants import ErrorCode

                outcome = JobOutcome(False, error_code=ErrorCode.MEMORY_LIMIT,
                                     error_message=memory_limit_error(memory_limit_mb or 0),
                                     retire=True)
            del job
        resident = resident_bytes() if retire_growth_mb is not None else None
        if resident is not None:
            if settled is None:
                settled = resident
            elif resident - settled > retire_growth_mb * 1024 * 1024:
                outcome.retire = True  # grown with use: a fresh worker takes the next job
        try:
            conn.send(outcome)
        except (BrokenPipeError, OSError, MemoryError):
            return
        if outcome.retire:
            return


class _Worker:
    """A worker process and the parent's end of its pipe."""

    def __init__(self, context: multiprocessing.context.BaseContext,
                 memory_limit_mb: int | None = None,
                 retire_growth_mb: int | None = RETIRE_GROWTH_MB):
        parent_end, child_end = context.Pipe(duplex=True)
        self.process = context.Process(target=_worker_main,
                                       args=(child_end, memory_limit_mb, retire_growth_mb),
                                       daemon=True, name="blocksift-worker")
        self.process.start()
        child_end.close()
        self.conn = parent_end
        self.busy = False

    def kill(self) -> None:
        try:
            self.process.kill()
        except (OSError, AttributeError):
            pass
        self.conn.close()
        self.process.join(timeout=1)


def _start_forkserver_deaf_to_ctrl_c() -> None:
    """Start the forkserver with SIGINT ignored, so a Ctrl-C in the terminal cannot hit it
    while it imports the preload modules (it ignores SIGINT only after that) and print a
    KeyboardInterrupt traceback; the parent stops the workers itself. An ignored signal
    stays ignored across fork and exec, which is why this is set around the spawn."""
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        return
    import multiprocessing.forkserver

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


class WorkerPool:
    """A bounded pool of worker processes with a size-ordered queue, cancel and time limits."""

    def __init__(self, size: int | None = None, max_queue: int = 64,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
                 retire_growth_mb: int | None = RETIRE_GROWTH_MB, warm: bool = False):
        self.size = size or max(2, min(4, os.cpu_count() or 2))
        self.max_queue = max_queue
        #: a worker grown this many MiB past its first job is replaced (None: never)
        self.retire_growth_mb = retire_growth_mb
        # the pool's process passes every page's text on to the workers (they parse it,
        # with the allocator as it is)
        unmap_large_allocations()
        self.memory_limit_mb = memory_limit_mb
        self._context = multiprocessing.get_context("forkserver")
        from ..algorithms import ALGORITHMS, DEFAULT_ALGORITHM

        # The default algorithm is what the first request almost always asks for; ``warm``
        # (the browser's host) also runs a page through it there, so that no worker pays
        # for its first page (blocksift.service.warmup). A batch's workers amortize that.
        self._context.set_forkserver_preload(
            PRELOAD + [ALGORITHMS[DEFAULT_ALGORITHM].module]
            + (["blocksift.service.warmup"] if warm else []))
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._queue: list[tuple[int, int, asyncio.Future[_Worker]]] = []
        self._counter = itertools.count()
        self._closed = False
        self._starting: asyncio.Task[None] | None = None
        # Each busy worker holds a thread blocked on its pipe; size the executor for that.
        self._threads = ThreadPoolExecutor(max_workers=self.size * 2 + 4,
                                           thread_name_prefix="blocksift-pipe")

    async def start(self) -> None:
        """Start the workers in the background; jobs wait for the first one to be ready."""
        loop = asyncio.get_running_loop()
        _start_forkserver_deaf_to_ctrl_c()

        async def spawn_all() -> None:
            for _ in range(self.size):
                if self._closed:
                    return
                worker = await loop.run_in_executor(self._threads, _Worker, self._context,
                                                    self.memory_limit_mb,
                                                    self.retire_growth_mb)
                self._all.add(worker)
                self._release(worker)

        self._starting = asyncio.create_task(spawn_all())

    @property
    def pending(self) -> int:
        return len(self._queue)

    def _release(self, worker: _Worker) -> None:
        worker.busy = False
        while self._queue:
            _, _, waiter = heapq.heappop(self._queue)
            if not waiter.done():
                worker.busy = True
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    async def _acquire(self, priority: int) -> _Worker:
        if self._idle:
            worker = self._idle.pop()
            worker.busy = True
            return worker
        if len(self._queue) >= self.max_queue:
            from ..wire.constants import ErrorCode

            raise JobFailed(ErrorCode.BUSY, f"the host is busy: {len(self._queue)} requests "
                                            "are waiting; try again shortly")
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (priority, next(self._counter), waiter))
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed a worker just as we were cancelled
            raise

    async def _replace(self, worker: _Worker) -> None:
        self._all.discard(worker)
        worker.kill()
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        fresh = await loop.run_in_executor(self._threads, _Worker, self._context,
                                           self.memory_limit_mb, self.retire_growth_mb)
        if self._closed:
            fresh.kill()
            return
        self._all.add(fresh)
        self._release(fresh)

    async def run(self, job: Job, timeout: float) -> tuple[JobOutcome, float]:
        """Run ``job`` on a worker; returns the outcome and the ms it waited in the queue.

        Raises :class:`JobFailed` on time-out or when the worker dies; cancelling the
        awaiting task kills the worker running the job.
        """
        from ..wire.constants import ErrorCode

        queued = time.perf_counter()
        job.memory_limit_mb = self.memory_limit_mb or 0
        worker = await self._acquire(len(job.html))
        queue_ms = (time.perf_counter() - queued) * 1000
        loop = asyncio.get_running_loop()
        finished = False
        try:
            await loop.run_in_executor(self._threads, worker.conn.send, job)
            job.html = ""  # the worker has its copy: the page's text is not kept here too
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns the result when a
            # cancel (Ctrl-C in batch) lands as the outcome arrives, and the cancel is lost
            async with asyncio.timeout(timeout):
                outcome = await loop.run_in_executor(self._threads, worker.conn.recv)
            finished = not outcome.retire
            return outcome, queue_ms
        except TimeoutError:
            raise JobFailed(ErrorCode.TIMEOUT,
                            f"extraction took longer than the {timeout:g} s limit") from None
        except (EOFError, OSError, BrokenPipeError):
            raise JobFailed(ErrorCode.INTERNAL,
                            "the worker process died on this page") from None
        except MemoryError:  # the job could not even be sent (the parent is short of memory)
            raise JobFailed(ErrorCode.MEMORY_LIMIT, "the host is short of memory for this "
                                                    "page") from None
        finally:
            if finished:
                self._release(worker)
            else:
                # The worker may still be busy with an abandoned job: replace it.
                asyncio.ensure_future(self._replace(worker))

    async def close(self) -> None:
        """Stop every worker (jobs in flight are abandoned)."""
        self._closed = True
        if self._starting is not None:
            self._starting.cancel()
        for _, _, waiter in self._queue:
            if not waiter.done():
                waiter.cancel()
        self._queue.clear()
        for worker in list(self._all):
            worker.kill()
        self._all.clear()
        self._idle.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)

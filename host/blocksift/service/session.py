"""The host's request handling, shared by the native-messaging and WebSocket transports.

A transport owns the framing (length-prefixed stdio frames, WebSocket messages) and hands
each message's bytes to a :class:`Session`; the session decodes, validates, runs the work on
the shared :class:`~blocksift.service.worker.WorkerPool` and sends replies through the transport's
``send`` callable. Replies larger than the transport's limit are split into ``chunk``
messages (Chrome drops native-messaging replies over 1 MiB).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..wire.constants import (
    EXTRACT_ACTIONS,
    MAX_ID_LENGTH,
    PROTOCOL_VERSION,
    ErrorCode,
    error_payload,
)
from .worker import DEFAULT_MEMORY_LIMIT_MB, Job, JobFailed, WorkerPool

log = logging.getLogger("blocksift.service")

#: Chrome and Firefox accept at most 1 MiB per host-to-browser message.
NATIVE_MAX_REPLY_BYTES = 1024 * 1024
#: Browsers refuse to send more than 64 MiB; the host refuses larger frames too.
DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Deepest nesting of objects and arrays a message may have (the protocol's own go 4 deep).
MAX_NESTING = 64
#: Longest error message sent: one may name a client's field or param, which can be huge.
MAX_ERROR_CHARS = 2000
#: Request types with a fast path that needs no message models (the host's cold start).
_ANSWERED_BEFORE_MODELS_LOAD = ("ping", "hello")

Send = Callable[[str], Awaitable[None]]


class _NotAJsonValue(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a message: Python's json reads them, JSON
    has no such values, and a number parameter without bounds would take NaN."""


def _refuse_constant(name: str) -> Any:
    raise _NotAJsonValue(name)


@dataclass
class ServiceConfig:
    """Limits and options of a running host."""

    workers: int | None = None
    max_queue: int = 64
    timeout_s: float = 30.0
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES
    site_store_path: str | None = None
    learn_sites: bool = True
    examples_path: str | None = None
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB  #: per worker; None: unlimited
    #: workers start with a page's imports and model done (blocksift.service.warmup)
    warm_workers: bool = True


class Service:
    """State shared by all sessions of one host process: the worker pool and the stores."""

    def __init__(self, config: ServiceConfig | None = None):
        self.config = config or ServiceConfig()
        self.pool = WorkerPool(self.config.workers, self.config.max_queue,
                               self.config.memory_limit_mb, warm=self.config.warm_workers)
        self._site_store: Any = None
        self._site_store_failed = False
        self._example_store: Any = None
        self._example_lock = threading.Lock()
        self._warmed = False

    async def start(self) -> None:
        await self.pool.start()

    async def close(self) -> None:
        await self.pool.close()
        if self._example_store is not None:
            self._example_store.close()
        if self._site_store is not None:
            try:
                await asyncio.get_running_loop().run_in_executor(None, self._site_store.close)
            except Exception:  # closing must not raise on the way out
                log.exception("closing the site store failed")

    def session(self, send: Send, max_reply_bytes: int | None = None) -> Session:
        return Session(self, send, max_reply_bytes)

    # -- per-site store (clustering) -------------------------------------------------------

    def site_store(self) -> Any:
        """The per-site template store, opened on first use; None when unavailable."""
        if self._site_store is None and not self._site_store_failed:
            try:
                from pathlib import Path

                from ..storage.sitestore import SiteStore

                path = Path(self.config.site_store_path) if self.config.site_store_path else None
                self._site_store = SiteStore(path)
            except Exception:
                log.exception("site store unavailable; clustering runs without learned rules")
                self._site_store_failed = True
        return self._site_store

    def warm_up(self) -> None:
        """Import the message models once, on a background thread (first call only)."""
        if self._warmed:
            return
        self._warmed = True

        def work() -> None:
            try:
                from ..wire import protocol  # noqa: F401
            except Exception:
                log.exception("warm-up failed")

        threading.Thread(target=work, name="blocksift-warm-up", daemon=True).start()

    def example_store(self) -> Any:
        """The labeled-examples database: one per process, opened on first use under a lock
        (requests run on several threads). A damaged database raises ``DamagedStore`` and is
        tried again on the next request (after a repair it opens)."""
        with self._example_lock:
            if self._example_store is None:
                from pathlib import Path

                from ..storage.examples import ExampleStore

                path = Path(self.config.examples_path) if self.config.examples_path else None
                self._example_store = ExampleStore(path)
                _settle(self._example_store)  # a change a killed host left half done
            return self._example_store

    def repair_examples(self) -> dict[str, Any]:
        """Close the examples database, keep it aside if damaged and rebuild it."""
        from pathlib import Path

        from ..storage.examples import repair

        with self._example_lock:
            if self._example_store is not None:
                self._example_store.close()
                self._example_store = None
            path = Path(self.config.examples_path) if self.config.examples_path else None
            return repair(path)

    def forget_example_store(self) -> None:
        """Drop the open store after SQLite found damage in it (the next request reopens)."""
        with self._example_lock:
            if self._example_store is not None:
                try:
                    self._example_store.close()
                except Exception:  # closing a damaged store must not mask the first error
                    log.exception("closing the examples store failed")
                self._example_store = None

    def hello_payload(self, request_id: str) -> dict[str, Any]:
        from .. import algorithms
        from ..storage import health

        return {"type": "hello", "id": request_id, "protocol": PROTOCOL_VERSION,
                "hostVersion": __version__, "algorithms": describe_algorithms(),
                "defaultAlgorithm": algorithms.DEFAULT_ALGORITHM,
                "maxFrameBytes": self.config.max_frame_bytes,
                "storeProblems": health.problems(self._store_folders()),
                "actions": list(EXTRACT_ACTIONS)}

    def _store_folders(self) -> list[Path | None]:
        """Folders of this host's stores (None: the data dir), for their problem notes."""
        from pathlib import Path

        folders: list[Path | None] = [None]
        for configured in (self.config.examples_path, self.config.site_store_path):
            if configured:
                folders.append(Path(configured).parent)
        return folders


def describe_algorithms() -> list[dict[str, Any]]:
    """Name, summary, paper and params JSON Schema of every algorithm, for ``hello``.

    Building the schemas imports every algorithm (numpy and all), which would make the
    browser's first reply slow; the descriptions are cached on disk, keyed on the host
    version and each algorithm module's file size and mtime, so they are rebuilt exactly
    when the code changes.
    """
    import importlib.util

    from .. import algorithms
    from ..paths import cache_dir, write_atomic

    key: list[Any] = [__version__]
    for name in algorithms.names():
        spec = importlib.util.find_spec(algorithms.ALGORITHMS[name].module)
        origin = spec.origin if spec is not None else None
        try:
            stat = os.stat(origin) if origin else None
        except OSError:
            stat = None
        key.append([name, stat.st_mtime_ns if stat else 0, stat.st_size if stat else 0])
    cache = cache_dir() / "hello-algorithms.json"
    try:
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if cached.get("key") == key:
            return list(cached["algorithms"])
    except (OSError, ValueError, AttributeError):
        pass
    described = []
    for name in algorithms.names():
        info = algorithms.ALGORITHMS[name]
        try:
            schema = algorithms.params_schema(name)
        except Exception:  # a broken module must not break the handshake
            log.exception("cannot describe %s", name)
            continue
        described.append({"name": name, "summary": info.summary, "paper": info.paper,
                          "paramsSchema": schema})
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(cache, json.dumps({"key": key, "algorithms": described}))
    except OSError:
        log.warning("cannot write %s; hello will rebuild descriptions next time", cache)
    return described


class Session:
    """One client connection: its in-flight requests, cancel, replies and chunking."""

    def __init__(self, service: Service, send: Send, max_reply_bytes: int | None):
        self.service = service
        self._send = send
        self.max_reply_bytes = max_reply_bytes
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._send_lock = asyncio.Lock()
        self._examples_order = asyncio.Lock()
        self._uploads: Any = None  # storage.uploads.Uploads, made at the first import chunk

    # -- sending ----------------------------------------------------------------------------

    async def send_json(self, payload: dict[str, Any] | str, request_id: str | None = None
                        ) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        async with self._send_lock:
            limit = self.max_reply_bytes
            if limit is None or len(text) * 4 <= limit or len(text.encode("utf-8")) <= limit:
                await self._send(text)
                return
            for chunk in chunk_messages(text, request_id or "", limit):
                await self._send(chunk)

    async def send_error(self, code: ErrorCode, message: str, request_id: str | None = None
                         ) -> None:
        if len(message) > MAX_ERROR_CHARS:  # a message quoting a client's huge key or value
            message = message[:MAX_ERROR_CHARS] + " ..."
        await self.send_json(error_payload(code, message, request_id), request_id)

    # -- receiving --------------------------------------------------------------------------

    @staticmethod
    def decode(data: bytes | str) -> tuple[Any, tuple[ErrorCode, str] | None]:
        """Decode one message body (UTF-8 JSON): the message, or the error to reply with.

        Pure and thread-safe, so a transport can decode big frames off the event loop.
        """
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                return None, (ErrorCode.INVALID_UTF8,
                              f"message is not valid UTF-8 (byte {exc.start}: {exc.reason})")
        try:
            return json.loads(data, parse_constant=_refuse_constant), None
        except json.JSONDecodeError as exc:
            return None, (ErrorCode.INVALID_JSON,
                          f"message is not JSON: {exc.msg} at character {exc.pos}")
        except _NotAJsonValue as exc:
            return None, (ErrorCode.INVALID_JSON,
                          f"message is not JSON: {exc} is not a JSON value (RFC 8259)")
        except RecursionError:
            return None, (ErrorCode.INVALID_JSON, "message is not JSON: too deeply nested")
        except ValueError:  # a number of over 4300 digits: Python's int limit, not JSON's
            return None, (ErrorCode.INVALID_JSON, "message is not JSON this host reads: a "
                                                  "number has more than 4300 digits")

    async def handle_bytes(self, data: bytes | str) -> None:
        """Decode one message body and handle it; bad input gets an error reply."""
        message, problem = self.decode(data)
        if problem is not None:
            await self.send_error(*problem)
            return
        await self.handle_message(message)

    async def handle_message(self, message: Any) -> None:
        if not isinstance(message, dict):
            await self.send_error(ErrorCode.INVALID_MESSAGE,
                                  f"a message must be a JSON object, not {type(message).__name__}")
            return
        raw_id = message.get("id")
        request_id = raw_id if isinstance(raw_id, str) and 0 < len(raw_id) <= MAX_ID_LENGTH \
            and _SURROGATE.search(raw_id) is None else None  # never echo an ill-formed id
        kind = message.get("type")
        if kind not in _ANSWERED_BEFORE_MODELS_LOAD:
            # Any other type needs the message models, whose registry knows every type.
            from ..wire.protocol import REQUEST_MODELS

            if not isinstance(kind, str) or kind not in REQUEST_MODELS:
                known = ", ".join(sorted(REQUEST_MODELS))
                await self.send_error(ErrorCode.UNKNOWN_TYPE,
                                      f"unknown message type {_quote(kind)}; known: {known}",
                                      request_id)
                return
        problem = _inspect(message)
        if problem == "nested":
            await self.send_error(ErrorCode.INVALID_MESSAGE,
                                  f"message is nested deeper than {MAX_NESTING} levels",
                                  request_id)
            return
        if problem == "surrogate":
            await self.send_error(ErrorCode.LONE_SURROGATE,
                                  "message holds a lone UTF-16 surrogate; send well-formed "
                                  "strings (String.prototype.toWellFormed)", request_id)
            return
        if kind == "ping" and request_id is not None and set(message) <= {"type", "id"}:
            # Answered without loading the message models: the cheapest liveness check.
            # A ping with any other field goes on to validation, which refuses it (1007)
            # as it refuses an unknown field of every other request.
            await self.send_json({"type": "pong", "id": request_id})
            return
        if kind == "hello" and request_id is not None and _plain_hello(message):
            # The browser's first message: answered before the message models load, which
            # then warm up in the background for the first extraction.
            await self._hello(request_id, message.get("protocol", PROTOCOL_VERSION))
            self.service.warm_up()
            return
        from pydantic import ValidationError

        from ..wire.protocol import REQUEST_MODELS

        try:
            request: Any = REQUEST_MODELS[kind].model_validate(message)
        except ValidationError as exc:
            problems = "; ".join(_field_problem(e) for e in exc.errors()[:5])
            await self.send_error(ErrorCode.INVALID_MESSAGE, f"invalid {kind}: {problems}",
                                  request_id)
            return
        if request.type not in ("hello", "ping", "cancel") and request.id in self._tasks:
            # Replies are matched by id, and cancel finds work by it: one at a time.
            await self.send_error(ErrorCode.DUPLICATE_ID,
                                  f"request {request.id!r} is already in progress", request.id)
            return
        if request.type not in ("hello", "ping", "cancel") \
                and len(self._tasks) >= self.service.config.max_queue:
            # Each request in progress holds its page and then its reply until the client
            # reads it: a client that sends without reading must not grow the host unbounded.
            # Waiting to send this reply is what stops the transport reading more.
            await self.send_error(ErrorCode.BUSY,
                                  f"{len(self._tasks)} requests of this connection are in "
                                  "progress (the limit); read their replies first", request.id)
            return
        if request.type == "hello":
            await self._hello(request.id, request.protocol)
        elif request.type == "ping":
            await self.send_json({"type": "pong", "id": request.id})
        elif request.type == "cancel":
            task = self._tasks.get(request.target)
            found = task is not None and not task.done()
            if found:
                task.cancel()
            await self.send_json({"type": "cancelled", "id": request.id,
                                  "target": request.target, "found": found})
        elif request.type.startswith("examples."):
            self._start(request.id, self._examples(request))
        elif request.type == "train":
            self._start(request.id, self._train(request))
        elif request.type.startswith("export."):
            self._start(request.id, self._export(request))
        elif request.type == "extract":
            self._start(request.id, self._extract(request))

    async def _hello(self, request_id: str, protocol: int) -> None:
        if protocol < 1:
            # No client speaks it: answering hello would claim this host speaks it too
            await self.send_error(ErrorCode.INVALID_MESSAGE,
                                  f"invalid hello: protocol: {protocol} is no protocol version "
                                  f"(they start at 1; this host speaks {PROTOCOL_VERSION})",
                                  request_id)
            return
        if protocol > PROTOCOL_VERSION:
            await self.send_error(ErrorCode.UNSUPPORTED_PROTOCOL,
                                  f"client speaks protocol {protocol}; this host "
                                  f"({__version__}) speaks {PROTOCOL_VERSION}: update it",
                                  request_id)
            return
        payload = self.service.hello_payload(request_id)
        payload["maxReplyBytes"] = self.max_reply_bytes  # None: this transport never chunks
        await self.send_json(payload)

    def _start(self, request_id: str, work: Any) -> None:
        """Run ``work`` as this session's task for ``request_id`` (cancellable)."""
        task = asyncio.create_task(work)
        self._tasks[request_id] = task
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        for request_id, running in list(self._tasks.items()):
            if running is task:
                del self._tasks[request_id]

    async def _examples(self, request: Any) -> None:
        """The examples.* requests: storage work runs on a thread, off the event loop."""
        loop = asyncio.get_running_loop()
        try:
            # In arrival order: a list sent right after a save sees the saved example.
            async with self._examples_order:
                reply = await loop.run_in_executor(None, self._examples_sync, request)
        except asyncio.CancelledError:
            await self.send_error(ErrorCode.CANCELLED, "cancelled by the client", request.id)
            return
        except _RequestError as failure:
            await self.send_error(failure.code, failure.message, request.id)
            return
        except Exception as exc:
            import sqlite3

            from ..storage.examples import (
                DamagedStore,
                default_path,
                is_transient,
                is_unwritable,
                unwritable_message,
            )

            if is_unwritable(exc):  # a full disk or a read-only folder is not damage
                configured = self.service.config.examples_path
                path = Path(configured) if configured else default_path()
                log.warning("examples database cannot be written: %s", exc)
                await self.send_error(ErrorCode.INTERNAL, unwritable_message(path, exc),
                                      request.id)
                return
            damaged = isinstance(exc, DamagedStore) or (
                isinstance(exc, sqlite3.DatabaseError) and not is_transient(exc))
            if damaged:
                await self.send_error(ErrorCode.STORE_DAMAGED, self._damaged(exc), request.id)
                return
            log.exception("examples request failed")
            await self.send_error(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}",
                                  request.id)
            return
        await self.send_json(reply, request.id)

    def _damaged(self, exc: Exception) -> str:
        """The error text for damage SQLite found; the store is reported and reopened later."""
        from ..storage.examples import DamagedStore

        if isinstance(exc, DamagedStore):
            return str(exc)
        self.service.forget_example_store()
        try:
            from pathlib import Path

            from ..storage.examples import ExampleStore

            # Reopening runs the check that records the problem for doctor and hello.
            path = self.service.config.examples_path
            ExampleStore(Path(path) if path else None).close()
        except DamagedStore as damaged:
            return str(damaged)
        except Exception:
            log.exception("reopening the examples store failed")
        return (f"the examples database could not be read ({exc}); repair it with "
                "`blocksift examples repair` or from the options page")

    def _examples_sync(self, request: Any) -> dict[str, Any]:
        from ..storage.examples import Example, gold_from_ids

        rid = request.id
        if request.type == "examples.repair":
            report = self.service.repair_examples()
            return {"type": "examples.repaired", "id": rid, "damaged": report["damaged"],
                    "recovered": report["recovered"], "keptAside": report["keptAside"]}
        if request.type == "examples.import":
            return self._import_chunk(request)
        store = self.service.example_store()
        if request.type == "examples.save":
            if request.private:
                raise _RequestError(ErrorCode.PRIVATE_WINDOW,
                                    "examples are never captured in private windows")
            if request.main_ids:
                text, title = gold_from_ids(request.html, request.main_ids, request.url,
                                            request.id_attr)
                if not text.strip():
                    raise _RequestError(ErrorCode.INVALID_MESSAGE,
                                        "none of the selected ids holds text in this snapshot")
            elif request.main_text is not None and request.main_text.strip():
                # an example labeled by its text alone, stored again as it was (Undo)
                text, title = request.main_text, ""
            else:
                raise _RequestError(ErrorCode.INVALID_MESSAGE,
                                    "select at least one element of main text to save")
            example = Example(html=request.html, main_text=text, url=request.url,
                              title=request.title or title, main_ids=list(request.main_ids),
                              blocks=[b.model_dump() for b in request.blocks],
                              algorithm=request.algorithm,
                              algorithm_output=request.algorithm_output)
            if request.restore is not None:  # Undo of a delete: its date, its number if free
                example.id = request.restore.example_id
                example.created = min(request.restore.created, time.time()) or time.time()
            # An earlier example of the same page is replaced (kept restorable), and the
            # site's adaptation changes with it as one step (docs/labeling.md).
            example_id, replaced = store.save(example, restore=request.restore is not None)
            _settle(store)  # the reader view's auto adapts on the site's next page
            return {"type": "examples.saved", "id": rid, "exampleId": example_id,
                    "mainChars": len(text), "replaced": replaced}
        if request.type == "examples.list":
            items = [e.summary() for e in store.list(request.limit, request.offset)]
            return {"type": "examples.list", "id": rid, "items": items,
                    "total": store.count()}
        if request.type == "examples.get":
            example = store.get(request.example_id)
            if example is None:
                raise _RequestError(ErrorCode.NOT_FOUND, f"no example {request.example_id}")
            data = example.summary()
            data.update(mainText=example.main_text, blocks=example.blocks,
                        mainIdList=example.main_ids, html=example.html,
                        algorithmOutput=example.algorithm_output,
                        replacedBy=example.replaced_by)
            return {"type": "examples.item", "id": rid, "example": data}
        if request.type == "examples.delete":
            found = store.delete(request.example_id)
            _settle(store)  # its labels stop adapting auto on its site (docs/auto.md)
            return {"type": "examples.deleted", "id": rid, "exampleId": request.example_id,
                    "found": found}
        if request.type == "examples.undoImport":
            # one transaction: the import's examples out, the earlier labels they replaced
            # back with their ids; what changed since is left alone and counted
            undone = store.undo_import([(first, last) for first, last in request.ranges])
            _settle(store)  # the sites' counts as before the import
            return {"type": "examples.importUndone", "id": rid,
                    "removed": len(undone.removed), "restored": len(undone.restored),
                    "missing": undone.missing, "relabeled": undone.relabeled,
                    "missingIds": undone.missing_ids}
        if request.type == "examples.export":
            from ..storage.exports import ExportPathRefused, export_target

            try:
                target = export_target(request.path)
            except ExportPathRefused as refused:
                raise _RequestError(ErrorCode.INVALID_PARAMS, str(refused)) from None
            target.parent.mkdir(parents=True, exist_ok=True)
            replaced = target.exists()
            count = store.export(target, with_blocks=request.with_blocks)
            return {"type": "examples.exported", "id": rid, "path": str(target),
                    "count": count, "replaced": replaced}
        raise _RequestError(ErrorCode.UNKNOWN_TYPE, f"unknown request {request.type}")

    def _import_chunk(self, request: Any) -> dict[str, Any]:
        """examples.import: append a chunk to its upload's file; the last one imports the
        file as ``blocksift examples import`` does and deletes it, done or failed."""
        from ..labeled import DatasetError
        from ..storage.examples import id_ranges
        from ..storage.uploads import UploadError, Uploads
        from ..wire.constants import UNDO_IMPORT_MAX_RANGES
        from ..wire.protocol import MAX_SKIPPED_LISTED

        if self._uploads is None:
            self._uploads = Uploads()
        try:
            upload = self._uploads.add(request.upload_id, request.index, request.data,
                                       request.name, request.size)
            if not request.last:
                return {"type": "examples.received", "id": request.id,
                        "uploadId": request.upload_id, "index": request.index,
                        "bytes": upload.size}
            upload = self._uploads.take(request.upload_id)  # its file is now ours to delete
        except UploadError as refused:
            raise _RequestError(ErrorCode.NOT_FOUND if refused.unknown
                                else ErrorCode.INVALID_PARAMS, str(refused)) from None
        try:
            store = self.service.example_store()
            try:
                report = store.import_records(upload.path, request.on_duplicate)
            except DatasetError as bad:  # named by the user's file, not the upload's
                why = str(bad).replace(str(upload.path), upload.name)
                raise _RequestError(ErrorCode.INVALID_PARAMS,
                                    f"cannot import: {why}; nothing was added") from None
        finally:
            upload.path.unlink(missing_ok=True)
        if not (report.added or report.replaced or report.skipped):
            raise _RequestError(ErrorCode.INVALID_PARAMS,
                                f"cannot import: {upload.name} holds no pages (a "
                                "datasets-format .jsonl or .jsonl.gz file, as Export writes)")
        _settle(store)  # they adapt auto on their sites, as saved ones do
        # the added ids, for an Undo (examples.undoImport): consecutive, as one transaction
        # gave them out, so thousands are one [first, last] run and the reply stays small
        runs = id_ranges(report.added)
        added_ranges = ([list(run) for run in runs] if len(runs) <= UNDO_IMPORT_MAX_RANGES
                        else None)
        return {"type": "examples.imported", "id": request.id, "uploadId": request.upload_id,
                "name": upload.name, "bytes": upload.size, "added": len(report.added),
                "replaced": len(report.replaced),
                "skipped": [{"url": url, "reason": why}
                            for url, why in report.skipped[:MAX_SKIPPED_LISTED]],
                "skippedCount": len(report.skipped), "ownAddress": len(report.own_address),
                "noAddress": report.no_address, "addedRanges": added_ranges}

    async def _export(self, request: Any) -> None:
        """export.folder / export.save (blocksift.export): file work on a thread."""
        from .. import export

        def work() -> dict[str, Any]:
            if request.type == "export.folder":
                folder = export.choose_folder(request.folder) if request.folder \
                    else export.chosen_folder()
                return {"type": "export.folder", "id": request.id,
                        "folder": str(folder) if folder else None}
            article = export.Article(
                title=request.title, html=request.html, url=request.url,
                authors=list(request.authors), published=request.published,
                site_name=request.site_name, language=request.language,
                direction=request.direction, price=request.price)
            if request.type == "export.render":
                article.html = export.sanitize(article.html)
                text = export.render(article, request.format).decode("utf-8")
                return {"type": "export.rendered", "id": request.id, "format": request.format,
                        "text": text}
            path = export.save(article, request.format)
            return {"type": "export.saved", "id": request.id, "path": str(path),
                    "bytes": path.stat().st_size}

        try:
            reply = await asyncio.get_running_loop().run_in_executor(None, work)
        except export.ExportError as failure:
            await self.send_error(ErrorCode.INVALID_MESSAGE, str(failure), request.id)
            return
        except Exception as exc:
            log.exception("export failed")
            await self.send_error(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}", request.id)
            return
        await self.send_json(reply, request.id)

    async def _train(self, request: Any) -> None:
        """Retrain in a separate process, forwarding its progress; the new model is used
        by the next extraction (workers load the user model per request)."""
        from .training import TrainingJob, run_training_process

        job = TrainingJob(algorithm=request.algorithm, use_examples=request.use_examples,
                          datasets=list(request.datasets),
                          examples_path=self.service.config.examples_path)

        async def progress(stage: str, done: int, total: int) -> None:
            await self.send_json({"type": "progress", "id": request.id, "stage": stage,
                                  "done": done, "total": total})

        try:
            outcome = await run_training_process(job, progress)
        except asyncio.CancelledError:
            await self.send_error(ErrorCode.CANCELLED, "training cancelled", request.id)
            return
        except _RequestError as failure:
            await self.send_error(failure.code, failure.message, request.id)
            return
        if "error" in outcome:
            await self.send_error(ErrorCode(outcome.get("code", ErrorCode.INTERNAL)),
                                  outcome["error"], request.id)
            return
        await self.send_json({"type": "trained", "id": request.id,
                              "algorithm": request.algorithm, **outcome})

    async def _extract(self, request: Any) -> None:
        from .. import algorithms

        started = time.perf_counter()
        try:
            module = algorithms.load(request.algorithm)
        except algorithms.UnknownAlgorithm:
            await self.send_error(ErrorCode.UNKNOWN_ALGORITHM,
                                  f"unknown algorithm {request.algorithm!r}; known: "
                                  f"{', '.join(algorithms.names())}", request.id)
            return
        problems = params_type_problems(module.Params, request.params)
        if problems:
            await self.send_error(ErrorCode.INVALID_PARAMS, f"invalid params for "
                                  f"{request.algorithm}: {'; '.join(problems)}", request.id)
            return
        model = None
        store = None
        learning = (request.learn_site and not request.private and bool(request.url)
                    and self.service.config.learn_sites)
        site_learned = getattr(module, "MODEL", None) == "site"
        if (site_learned or learning) and request.url:
            store = self.service.site_store()
            if store is not None and site_learned:
                try:
                    model = store.model_for(request.url)
                except Exception:
                    log.exception("site store read failed")
        job = Job(algorithm=request.algorithm, params=request.params, html=request.html,
                  url=request.url, want=list(request.want), id_attr=request.id_attr,
                  model=model, observe_site=learning, action=request.action)
        try:
            outcome, queue_ms = await self.service.pool.run(job, self.service.config.timeout_s)
        except asyncio.CancelledError:
            await self.send_error(ErrorCode.CANCELLED, "cancelled by the client", request.id)
            return
        except JobFailed as failure:
            await self.send_error(ErrorCode(failure.code), failure.message, request.id)
            return
        if not outcome.ok:
            await self.send_error(ErrorCode(outcome.error_code), outcome.error_message,
                                  request.id)
            return
        total_ms = (time.perf_counter() - started) * 1000
        timing = {"queueMs": round(queue_ms, 2), "parseMs": round(outcome.parse_ms, 2),
                  "algorithmMs": round(outcome.algorithm_ms, 2), "totalMs": round(total_ms, 2)}
        hide = ',"hide":' + outcome.hide_json if outcome.hide_json else ""
        if outcome.page_json:
            hide += ',"page":' + outcome.page_json
        reply = ('{"type":"result","id":' + json.dumps(request.id) + ',"result":'
                 + outcome.result_json + hide + ',"timing":' + json.dumps(timing) + "}")
        await self.send_json(reply, request.id)
        observation = outcome.extra.get("site_observation")
        if store is not None and observation and learning:
            try:
                # Queued for the store's writer thread: never slows the reply.
                store.record(request.url, observation, private=request.private)
            except Exception:
                log.exception("site store write failed")

    def in_flight(self) -> list[asyncio.Task[None]]:
        """This session's requests still running."""
        return [task for task in self._tasks.values() if not task.done()]

    async def close(self) -> None:
        """Cancel this session's work (the client went away); its unfinished uploads' files
        are deleted."""
        for task in list(self._tasks.values()):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        if self._uploads is not None:
            self._uploads.close()


class _RequestError(Exception):
    """A request that cannot be served as asked; becomes an ``error`` reply."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _plain_hello(message: dict[str, Any]) -> bool:
    """A hello whose fields are all of the expected types (else full validation reports)."""
    allowed = {"type", "id", "protocol", "client"}
    return (set(message) <= allowed and isinstance(message.get("protocol", 1), int)
            and not isinstance(message.get("protocol", 1), bool)
            and isinstance(message.get("client", ""), str)
            and len(message.get("client", "")) <= 200)


#: pydantic's errors for a value of the wrong JSON type: the message then says what came
_TYPE_ERRORS = frozenset({"int_type", "bool_type", "float_type", "string_type", "list_type",
                          "dict_type"})
#: An algorithm param's scalar type: its name in the JSON Schema, and what JSON value it takes
_PARAM_TYPES: dict[type, tuple[str, Callable[[Any], bool]]] = {
    bool: ("boolean", lambda value: isinstance(value, bool)),
    int: ("integer", lambda value: isinstance(value, int) and not isinstance(value, bool)),
    float: ("number", lambda value: isinstance(value, int | float)
            and not isinstance(value, bool)),
}


def _field_problem(error: Any) -> str:
    """One pydantic error of a request as ``field: what is wrong``; a value of the wrong type
    is shown (``protocol: Input should be a valid integer, not the string "1"``)."""
    problem = f"{'.'.join(map(str, error['loc'])) or 'message'}: {error['msg']}"
    if error["type"] in _TYPE_ERRORS:
        problem += f", not {json_value_shown(error['input'])}"
    return problem


def json_value_shown(value: Any) -> str:
    """A JSON value as an error message names it: ``true``, ``null``, ``the number 1.0``,
    ``the string "1"`` (cut short), ``an array``, ``an object``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list | dict):
        return "an array" if isinstance(value, list) else "an object"
    if isinstance(value, str):
        shown = json.dumps(value[:40], ensure_ascii=False)
        return f"the string {shown[:-1]}...\"" if len(value) > 40 else f"the string {shown}"
    return f"the number {_quote(value, 40)}"


def params_type_problems(params_model: Any, params: dict[str, Any]) -> list[str]:
    """``field: Input should be a valid integer, not true`` for each of an algorithm's
    boolean, integer and number params given a JSON value of another type.

    The algorithms' Params models read params in pydantic's lax mode (the command line's
    ``--param`` gives strings), which took "0.5" as 0.5 and true as 1; over the protocol a
    param is of its schema's type, as every field of a request is. Other params (choices,
    lists) and unknown names are left to the model."""
    import types
    from typing import Union, get_args, get_origin

    problems = []
    for name, value in params.items():
        field = params_model.model_fields.get(name) if isinstance(name, str) else None
        if field is None:
            continue
        annotation = field.annotation
        kinds = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) \
            else (annotation,)
        plain = [kind for kind in kinds if kind is not type(None)]
        if len(plain) != 1 or plain[0] not in _PARAM_TYPES or value is None:
            continue
        kind_name, takes = _PARAM_TYPES[plain[0]]
        if not takes(value):
            problems.append(f"{name}: Input should be a valid {kind_name}, "
                            f"not {json_value_shown(value)}")
    return problems


def _quote(value: Any, limit: int = 80) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters: a client's input is
    never echoed back whole (a 3 MB ``type`` made a 3 MB error)."""
    if isinstance(value, list | dict):
        return f"<a JSON {'array' if isinstance(value, list) else 'object'}>"
    text = repr(value[:limit + 1] if isinstance(value, str) else value)
    return text if len(text) <= limit else text[:limit] + "..."


def _inspect(message: Any) -> str | None:
    """``"nested"`` for a message deeper than :data:`MAX_NESTING` (pickling it for a worker or
    reading a stored example back would exceed Python's recursion limit), ``"surrogate"`` for
    one holding a lone surrogate in any string or key, else None. No recursion of its own."""
    stack: list[tuple[Any, int]] = [(message, 0)]
    surrogate = False
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            surrogate = surrogate or _SURROGATE.search(value) is not None
        elif isinstance(value, dict | list):
            if depth >= MAX_NESTING:
                return "nested"
            if isinstance(value, dict):
                stack.extend((key, depth) for key in value)
                stack.extend((item, depth + 1) for item in value.values())
            else:
                stack.extend((item, depth + 1) for item in value)
    return "surrogate" if surrogate else None


def chunk_messages(text: str, request_id: str, limit: int) -> list[str]:
    """Split a serialized reply into ``chunk`` messages each at most ``limit`` UTF-8 bytes.

    The receiver joins the ``data`` strings in ``seq`` order and parses the result. The text
    is JSON-escaped once and cut between escape sequences, so each piece is itself a valid
    JSON string body: linear work, whatever the size of the reply.
    """
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    head = '{"type":"chunk","id":' + json.dumps(request_id, ensure_ascii=False) + ',"seq":'
    budget = limit - len(head.encode("utf-8")) - 64  # seq, count and the closing quote
    pieces: list[str] = []
    position = 0
    while position < len(escaped):
        size = budget
        while True:
            piece = _cut_outside_escape(escaped[position:position + size])
            encoded = len(piece.encode("utf-8"))
            if encoded <= budget:
                break
            size = max(8, size * budget // encoded - 8)
        pieces.append(piece)
        position += len(piece)
    count = len(pieces)
    return [f'{head}{seq},"count":{count},"data":"{piece}"}}'
            for seq, piece in enumerate(pieces)]


def _cut_outside_escape(piece: str) -> str:
    """``piece`` shortened so it does not end inside a JSON escape sequence."""
    tail = piece.rfind("\\", max(0, len(piece) - 6))
    while tail >= 0:
        run = len(piece[:tail + 1]) - len(piece[:tail + 1].rstrip("\\"))
        if run % 2 == 1:  # an escape starts at ``tail``: is it complete?
            needed = 6 if piece[tail + 1:tail + 2] == "u" else 2
            if len(piece) - tail < needed:
                return piece[:tail]
            return piece
        tail = piece.rfind("\\", max(0, len(piece) - 6), tail)
    return piece


def _settle(store: Any) -> None:
    """Apply the site adaptation changes the examples store journaled. Best effort: the saved
    example is what counts; a change that fails stays journaled and is applied by the next
    save, delete or start."""
    try:
        store.settle()
    except Exception:
        log.exception("auto site adaptation failed; it is tried again on the next change")

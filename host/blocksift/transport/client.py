"""A small client for ``blocksift serve``, for scripts and tests.

Synchronous::

    from blocksift.transport.client import Client

    with Client() as host:                       # ws://127.0.0.1:8787/, token from its file
        reply = host.extract(html, url="https://example.org/a")
        print(reply["result"]["main"]["text"])

Asynchronous, with requests in flight at once (replies are matched by id)::

    async with AsyncClient() as host:
        replies = await asyncio.gather(*(host.extract(page) for page in pages))

Every error reply raises :class:`HostError` (``code``, ``name``, ``message`` as in
PROTOCOL.md); a connection the server closes raises :class:`HostClosed`, whose code is the
WebSocket close code (4001 wrong token, 4000 idle, 1009 message too big, 1001 shutdown).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from collections.abc import Callable, Iterable
from typing import Any, Self

DEFAULT_URL = "ws://127.0.0.1:8787/"
URL_ENV = "BLOCKSIFT_URL"
SUBPROTOCOL = "blocksift.v1"  # websockets.typing.Subprotocol is a NewType of str
#: Interim messages (``progress`` of a ``train``) that precede a request's final reply.
_INTERIM_TYPES = frozenset({"progress"})
Progress = Callable[[dict[str, Any]], None]
_CLOSE_NAMES = {1000: "closed", 1001: "going_away", 1006: "connection_lost",
                1009: "message_too_big", 1011: "internal", 4000: "idle_timeout",
                4001: "unauthorized"}


class HostError(Exception):
    """An error reply from the host (or a refused connection)."""

    def __init__(self, code: int, name: str, message: str, request_id: str | None = None):
        super().__init__(f"{name} ({code}): {message}")
        self.code = code
        self.name = name
        self.message = message
        self.request_id = request_id

    @classmethod
    def from_reply(cls, reply: dict[str, Any]) -> HostError:
        return cls(int(reply.get("code", 0)), str(reply.get("name", "error")),
                   str(reply.get("message", "")), reply.get("id"))


class HostClosed(HostError):
    """The connection ended; ``code`` is the WebSocket close code, ``message`` its reason."""


def _closed_error(exc: Exception) -> HostClosed:
    from websockets.exceptions import ConnectionClosed

    if isinstance(exc, ConnectionClosed):
        frame = exc.rcvd or exc.sent
        code = frame.code if frame is not None else 1006
        reason = frame.reason if frame is not None else "the connection dropped"
        return HostClosed(code, _CLOSE_NAMES.get(code, "closed"), reason or "closed")
    return HostClosed(1006, "connection_lost", str(exc))


def _refused_error(exc: Exception, url: str) -> HostError:
    """A refused handshake (HTTP 403/503): the body is the protocol's error object."""
    response = getattr(exc, "response", None)
    if response is not None:
        try:
            body = json.loads(bytes(response.body).decode("utf-8"))
            if isinstance(body, dict) and body.get("type") == "error":
                return HostError.from_reply(body)
        except (ValueError, UnicodeDecodeError):
            pass
        return HostError(response.status_code, "refused", f"{url} refused the connection "
                                                          f"(HTTP {response.status_code})")
    return HostError(0, "unreachable", f"cannot connect to {url}: {exc} (is `blocksift "
                                       "serve` running?)")


def _settings(url: str | None, token: str | None) -> tuple[str, str]:
    if token is None:
        from .auth import read_token

        token = read_token()
    return url or os.environ.get(URL_ENV) or DEFAULT_URL, token


def _extract_message(request_id: str, html: str, algorithm: str,
                     params: dict[str, Any] | None, url: str | None, want: Iterable[str],
                     id_attr: str | None, private: bool, learn_site: bool
                     ) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "extract", "id": request_id, "html": html,
                               "algorithm": algorithm, "params": params or {},
                               "want": list(want), "private": private}
    if learn_site:
        message["learnSite"] = True
    if url is not None:
        message["url"] = url
    if id_attr is not None:
        message["idAttr"] = id_attr
    return message


class _Chunks:
    """Joins ``chunk`` replies (only sent when a client asked for a reply size limit)."""

    def __init__(self) -> None:
        self.parts: dict[str, dict[int, str]] = {}

    def add(self, reply: dict[str, Any]) -> dict[str, Any] | None:
        parts = self.parts.setdefault(reply["id"], {})
        parts[int(reply["seq"])] = reply["data"]
        if len(parts) < int(reply["count"]):
            return None
        del self.parts[reply["id"]]
        return json.loads("".join(parts[i] for i in range(int(reply["count"]))))


class Client:
    """A synchronous connection to ``blocksift serve``; one request at a time.

    Args:
        url: the server (default ``$BLOCKSIFT_URL`` or ``ws://127.0.0.1:8787/``).
        token: the token (default: read from the token file in the user's config dir).
        timeout: seconds to wait for each reply; on expiry the request is cancelled and
            :class:`TimeoutError` raised.
    """

    def __init__(self, url: str | None = None, token: str | None = None, *,
                 timeout: float = 60.0, open_timeout: float = 10.0):
        from websockets.exceptions import InvalidHandshake, InvalidStatus
        from websockets.sync.client import connect
        from websockets.typing import Subprotocol

        self.url, token = _settings(url, token)
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._chunks = _Chunks()
        try:
            self._connecting = connect(self.url,
                                       additional_headers={"Authorization": f"Bearer {token}"},
                                       subprotocols=[Subprotocol(SUBPROTOCOL)], compression=None,
                                       max_size=None, open_timeout=open_timeout)
            self._ws = self._connecting.__enter__()
        except InvalidStatus as exc:
            raise _refused_error(exc, self.url) from None
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            raise _refused_error(exc, self.url) from None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._connecting.__exit__(None, None, None)

    def _next_id(self) -> str:
        return f"py{next(self._ids)}"

    def request(self, message: dict[str, Any], on_progress: Progress | None = None
                ) -> dict[str, Any]:
        """Send one request and return its final reply; error replies raise
        :class:`HostError`. Interim ``progress`` messages go to ``on_progress``."""
        from websockets.exceptions import ConnectionClosed

        request_id = message.setdefault("id", self._next_id())
        try:
            self._ws.send(json.dumps(message, ensure_ascii=False))
            while True:
                try:
                    raw = self._ws.recv(timeout=self.timeout)
                except TimeoutError:
                    self._ws.send(json.dumps({"type": "cancel", "id": self._next_id(),
                                              "target": request_id}))
                    raise TimeoutError(f"no reply to {request_id} within {self.timeout:g} s; "
                                       "cancelled") from None
                reply = json.loads(raw)
                if reply.get("type") == "chunk":
                    reply = self._chunks.add(reply)
                    if reply is None:
                        continue
                if reply.get("id") not in (request_id, None):
                    continue  # a late reply to a request that timed out
                if reply.get("type") in _INTERIM_TYPES:
                    if on_progress is not None:
                        on_progress(reply)
                    continue
                if reply.get("type") == "error":
                    raise HostError.from_reply(reply)
                return reply
        except ConnectionClosed as exc:
            raise _closed_error(exc) from None

    def hello(self, client: str = "blocksift.client") -> dict[str, Any]:
        from ..wire.constants import PROTOCOL_VERSION

        return self.request({"type": "hello", "protocol": PROTOCOL_VERSION, "client": client})

    def ping(self) -> dict[str, Any]:
        return self.request({"type": "ping"})

    def extract(self, html: str, algorithm: str = "linkblocks",
                params: dict[str, Any] | None = None, url: str | None = None,
                want: Iterable[str] = ("blocks", "main"), *, id_attr: str | None = None,
                private: bool = False, learn_site: bool = False) -> dict[str, Any]:
        """Run ``algorithm`` on ``html``; returns the ``result`` reply (result + timing).

        ``learn_site`` lets the host keep this page's structure for per-site learning
        (``learnSite`` in PROTOCOL.md; off by default).
        """
        return self.request(_extract_message(self._next_id(), html, algorithm, params, url,
                                             want, id_attr, private, learn_site))


class AsyncClient:
    """An asyncio connection to ``blocksift serve``; many requests may be in flight.

    Use ``async with AsyncClient(...) as host`` (or ``await AsyncClient(...).connect()``).
    """

    def __init__(self, url: str | None = None, token: str | None = None, *,
                 timeout: float = 60.0, open_timeout: float = 10.0):
        self.url, self._token = _settings(url, token)
        self.timeout = timeout
        self.open_timeout = open_timeout
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._progress: dict[str, Progress] = {}
        self._chunks = _Chunks()
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._closed_error: HostClosed | None = None

    async def connect(self) -> Self:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake
        from websockets.typing import Subprotocol

        try:
            self._ws = await connect(self.url, subprotocols=[Subprotocol(SUBPROTOCOL)],
                                     additional_headers={"Authorization":
                                                         f"Bearer {self._token}"},
                                     compression=None, max_size=None,
                                     open_timeout=self.open_timeout)
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            raise _refused_error(exc, self.url) from None
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aenter__(self) -> Self:
        return await self.connect()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self._ws:
                reply = json.loads(raw)
                if reply.get("type") == "chunk":
                    reply = self._chunks.add(reply)
                    if reply is None:
                        continue
                if reply.get("type") in _INTERIM_TYPES:
                    callback = self._progress.get(reply.get("id"))
                    if callback is not None:
                        callback(reply)
                    continue
                waiter = self._waiting.pop(reply.get("id"), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(reply)
            self._closed_error = _closed_error(ConnectionClosed(
                self._ws.protocol.close_rcvd, self._ws.protocol.close_sent))
        except ConnectionClosed as exc:
            self._closed_error = _closed_error(exc)
        except (ValueError, AttributeError, KeyError, TypeError) as exc:  # not a reply: stop
            self._closed_error = HostClosed(1002, "protocol_error", str(exc))
        for waiter in self._waiting.values():
            if not waiter.done():
                waiter.set_exception(self._closed_error)
        self._waiting.clear()

    def _next_id(self) -> str:
        return f"py{next(self._ids)}"

    async def request(self, message: dict[str, Any], on_progress: Progress | None = None
                      ) -> dict[str, Any]:
        """Send one request and await its final reply; error replies raise
        :class:`HostError`. Interim ``progress`` messages go to ``on_progress``."""
        from websockets.exceptions import ConnectionClosed

        if self._closed_error is not None:
            raise self._closed_error
        request_id = message.setdefault("id", self._next_id())
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = waiter
        if on_progress is not None:
            self._progress[request_id] = on_progress
        try:
            await self._ws.send(json.dumps(message, ensure_ascii=False))
            reply = await asyncio.wait_for(asyncio.shield(waiter), self.timeout)
        except ConnectionClosed as exc:
            raise _closed_error(exc) from None
        except TimeoutError:
            await self.cancel(request_id)
            raise TimeoutError(f"no reply to {request_id} within {self.timeout:g} s; "
                               "cancelled") from None
        finally:
            self._waiting.pop(request_id, None)
            self._progress.pop(request_id, None)
        if reply.get("type") == "error":
            raise HostError.from_reply(reply)
        return reply

    async def cancel(self, target: str) -> None:
        """Ask the host to stop request ``target`` (its reply becomes a CANCELLED error)."""
        from websockets.exceptions import ConnectionClosed

        try:
            await self._ws.send(json.dumps({"type": "cancel", "id": self._next_id(),
                                            "target": target}))
        except ConnectionClosed:
            pass

    async def hello(self, client: str = "blocksift.client") -> dict[str, Any]:
        from ..wire.constants import PROTOCOL_VERSION

        return await self.request({"type": "hello", "protocol": PROTOCOL_VERSION,
                                   "client": client})

    async def ping(self) -> dict[str, Any]:
        return await self.request({"type": "ping"})

    async def extract(self, html: str, algorithm: str = "linkblocks",
                      params: dict[str, Any] | None = None, url: str | None = None,
                      want: Iterable[str] = ("blocks", "main"), *, id_attr: str | None = None,
                      private: bool = False, learn_site: bool = False) -> dict[str, Any]:
        """Run ``algorithm`` on ``html``; returns the ``result`` reply (result + timing)."""
        return await self.request(_extract_message(self._next_id(), html, algorithm, params,
                                                   url, want, id_attr, private, learn_site))

"""The loopback WebSocket server: the native-messaging protocol for many clients at once.

``blocksift serve`` runs one :class:`~blocksift.service.session.Service` (one warm worker pool) and
gives every WebSocket connection its own :class:`~blocksift.service.session.Session`, so browsers,
profiles and scripts share the pool. Each WebSocket text (or binary) message is one protocol
message, exactly the body of a native-messaging frame; replies are never chunked (WebSocket
has no 1 MiB reply cap).

Admission, in the order it is checked during the opening handshake:

1. ``Origin`` (:class:`~blocksift.transport.auth.OriginPolicy`): a web page's origin is refused with
   HTTP 403 before the upgrade, so a page learns nothing but a failed connection;
2. the connection limit: one over it gets HTTP 503;
3. the token, offered as the subprotocol ``blocksift.token.<token>`` next to
   ``blocksift.v1`` (the only field a browser's ``WebSocket`` lets a script set) or as an
   ``Authorization: Bearer <token>`` header (scripts). A missing or wrong token completes
   the upgrade and closes at once with close code 4001 and a reason, because a browser
   reports a refused handshake only as an anonymous close 1006 and the extension must be
   able to say "wrong token". No message of an unauthenticated connection is ever read.

Limits: ``max_frame_bytes`` per message (a bigger one closes the connection with 1009;
others are unaffected), ``max_connections``, the per-request time limit of the service,
an idle timeout (close 4000), and a graceful SIGTERM: stop accepting, let requests in
flight finish for ``grace_s``, cancel the rest, close the service (stores flushed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
from collections.abc import Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.typing import Subprotocol

from ..service.session import Service, ServiceConfig, Session
from ..wire.constants import ErrorCode, error_payload, well_formed_reply
from .auth import OriginPolicy, token_matches

log = logging.getLogger("blocksift.ws")

DEFAULT_PORT = 8787
LOOPBACK_HOSTS = ("127.0.0.1", "::1")
#: The subprotocol a client must offer (and the server selects) when it offers any.
SUBPROTOCOL = Subprotocol("blocksift.v1")
#: Prefix of the subprotocol carrying the token (browsers cannot set headers).
TOKEN_SUBPROTOCOL_PREFIX = "blocksift.token."
#: Close codes (4000-4999 is the application range; 4001 matches ErrorCode.UNAUTHORIZED).
CLOSE_IDLE = 4000
CLOSE_UNAUTHORIZED = int(ErrorCode.UNAUTHORIZED)
CLOSE_GOING_AWAY = 1001
#: Messages above this are decoded off the event loop, so big pages do not stall others.
_DECODE_IN_THREAD_BYTES = 256 * 1024
#: Messages websockets buffers per connection before it stops reading (memory bound:
#: max_frame_bytes x this per connection).
_MAX_QUEUED_MESSAGES = 4


class BindError(OSError):
    """The server cannot listen on 127.0.0.1 (port in use, no permission)."""


@dataclass
class ServerConfig:
    """Network-side options of ``blocksift serve`` (the service has its own config)."""

    port: int = DEFAULT_PORT
    hosts: Sequence[str] = LOOPBACK_HOSTS
    allow_origins: Sequence[str] = ()
    max_connections: int = 64
    idle_timeout_s: float = 300.0
    grace_s: float = 10.0
    ping_interval_s: float | None = 20.0


@dataclass
class _Admission:
    """What the handshake decided about one connection."""

    problem: str | None = None  # why the token was refused; None = authorized


@dataclass
class WebSocketServer:
    """The listening sockets, the shared service and the sessions of open connections."""

    service_config: ServiceConfig
    config: ServerConfig
    token: str
    service: Service = field(init=False)
    bound: list[tuple[str, int]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.service = Service(self.service_config)
        self._origins = OriginPolicy(self.config.allow_origins)
        self._servers: list[Server] = []
        self._admitted: dict[ServerConnection, _Admission] = {}
        self._reserved: set[ServerConnection] = set()
        self._sessions: set[Session] = set()
        self._connections: set[ServerConnection] = set()
        self.draining = False

    # -- start ------------------------------------------------------------------------------

    async def start(self) -> list[tuple[str, int]]:
        """Start the worker pool and bind every loopback address; returns (host, port) pairs.

        The first host (127.0.0.1) must bind; the others (::1) are best effort, on the
        port the first one got (which matters with port 0).
        """
        await self.service.start()
        port = self.config.port
        for index, host in enumerate(self.config.hosts):
            try:
                server = await serve(
                    self._handle, host, port,
                    process_request=self._process_request,
                    select_subprotocol=_select_subprotocol,
                    max_size=self.service_config.max_frame_bytes,
                    max_queue=_MAX_QUEUED_MESSAGES,
                    compression=None,  # loopback: deflate would only cost CPU and memory
                    ping_interval=self.config.ping_interval_s,
                    server_header=None,
                )
            except OSError as exc:
                if index == 0:
                    await self.service.close()
                    raise BindError(f"cannot listen on {host} port {port}: "
                                    f"{exc.strerror or exc}") from exc
                log.warning("cannot listen on %s port %d (%s); continuing without it",
                            host, port, exc.strerror or exc)
                continue
            self._servers.append(server)
            bound_port = server.sockets[0].getsockname()[1]
            if index == 0:
                port = bound_port
            self.bound.append((host, bound_port))
        return self.bound

    @property
    def urls(self) -> list[str]:
        return [f"ws://[{h}]:{p}/" if ":" in h else f"ws://{h}:{p}/" for h, p in self.bound]

    # -- handshake --------------------------------------------------------------------------

    def _process_request(self, connection: ServerConnection, request: Request
                         ) -> Response | None:
        origins = request.headers.get_all("Origin")
        origin = origins[0] if len(origins) == 1 else None
        if len(origins) > 1 or not self._origins.allows(origin):
            log.warning("refused a connection from origin %r", ",".join(origins))
            return _http_error(HTTPStatus.FORBIDDEN, ErrorCode.FORBIDDEN_ORIGIN,
                               f"origin {','.join(origins)!r} may not use this host; only the "
                               "blocksift extension and local scripts may connect")
        if self.draining:
            return _http_error(HTTPStatus.SERVICE_UNAVAILABLE, ErrorCode.BUSY,
                               "the host is shutting down")
        if len(self._reserved) >= self.config.max_connections:
            log.warning("refused a connection: %d connections open (the limit)",
                        len(self._reserved))
            return _http_error(HTTPStatus.SERVICE_UNAVAILABLE, ErrorCode.BUSY,
                               f"too many connections (limit {self.config.max_connections}); "
                               "try again shortly")
        # Reserve a slot until the TCP connection is gone, whatever happens next.
        self._reserved.add(connection)
        closed = asyncio.ensure_future(connection.wait_closed())
        closed.add_done_callback(lambda _done: self._forget(connection))
        self._admitted[connection] = _Admission(problem=self._token_problem(request))
        return None

    def _forget(self, connection: ServerConnection) -> None:
        self._reserved.discard(connection)
        self._admitted.pop(connection, None)

    def _token_problem(self, request: Request) -> str | None:
        presented: str | None = None
        authorization = request.headers.get("Authorization")
        if authorization:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() == "bearer":
                presented = value.strip()
        if presented is None:
            for offered in _offered_subprotocols(request.headers):
                if offered.startswith(TOKEN_SUBPROTOCOL_PREFIX):
                    presented = offered[len(TOKEN_SUBPROTOCOL_PREFIX):]
                    break
        # Close reasons are capped at 123 bytes: short, and docs/websocket.md says more.
        if presented is None:
            return "missing token"
        if not token_matches(presented, self.token):
            return "wrong token (see `blocksift serve --print-token`)"
        return None

    # -- one connection ---------------------------------------------------------------------

    async def _handle(self, connection: ServerConnection) -> None:
        admission = self._admitted.pop(connection, None)
        if admission is None or admission.problem is not None:
            reason = admission.problem if admission else "not admitted"
            log.warning("closing an unauthorized connection: %s", reason)
            await connection.close(CLOSE_UNAUTHORIZED, _reason(f"unauthorized: {reason}"))
            return
        if self.draining:
            await connection.close(CLOSE_GOING_AWAY, "the host is shutting down")
            return

        async def send(text: str) -> None:
            with contextlib.suppress(ConnectionClosed):
                try:
                    await connection.send(text)
                except UnicodeEncodeError:  # an echoed lone surrogate: send its escape
                    await connection.send(well_formed_reply(text))

        session = self.service.session(send, max_reply_bytes=None)
        self._sessions.add(session)
        self._connections.add(connection)
        loop = asyncio.get_running_loop()
        try:
            while True:
                try:
                    data = await asyncio.wait_for(connection.recv(),
                                                  self.config.idle_timeout_s)
                except TimeoutError:
                    if _in_flight(session):
                        continue  # waiting for our own replies is not idleness
                    log.info("closing a connection idle for %g s", self.config.idle_timeout_s)
                    await connection.close(CLOSE_IDLE, _reason(
                        f"idle timeout: no request for {self.config.idle_timeout_s:g} s"))
                    break
                if len(data) > _DECODE_IN_THREAD_BYTES:
                    message, problem = await loop.run_in_executor(None, Session.decode, data)
                else:
                    message, problem = Session.decode(data)
                del data
                if problem is not None:
                    await session.send_error(*problem)
                elif self.draining and not _allowed_while_draining(message):
                    request_id = message.get("id") if isinstance(message, dict) else None
                    await session.send_error(ErrorCode.BUSY, "the host is shutting down",
                                             request_id if isinstance(request_id, str)
                                             else None)
                else:
                    await session.handle_message(message)
        except ConnectionClosed as closed:
            if closed.rcvd is None and closed.sent is not None and closed.sent.code == 1009:
                log.warning("closed a connection that sent a message over %d bytes",
                            self.service_config.max_frame_bytes)
        finally:
            # The client went away (or we are closing): its work in flight is cancelled.
            self._sessions.discard(session)
            self._connections.discard(connection)
            await session.close()

    # -- shutdown ---------------------------------------------------------------------------

    async def shutdown(self) -> None:
        """Stop accepting; let work in flight finish for ``grace_s``; cancel; close."""
        if self.draining:
            return
        self.draining = True
        for server in self._servers:
            server.close(close_connections=False)
        running = [task for session in list(self._sessions) for task in _tasks(session)]
        if running:
            log.info("waiting up to %g s for %d requests in flight", self.config.grace_s,
                     len(running))
            _done, pending = await asyncio.wait(running, timeout=self.config.grace_s)
            if pending:
                log.warning("cancelling %d requests still running after %g s",
                            len(pending), self.config.grace_s)
        for session in list(self._sessions):
            await session.close()  # replies CANCELLED to whatever is still running
        closing = [asyncio.ensure_future(c.close(CLOSE_GOING_AWAY, "the host is shutting down"))
                   for c in list(self._connections)]
        if closing:
            await asyncio.wait(closing, timeout=5)
        for server in self._servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), timeout=5)
        await self.service.close()


def _select_subprotocol(connection: ServerConnection, offered: Sequence[Subprotocol]
                        ) -> Subprotocol | None:
    """Select ``blocksift.v1`` when offered; never echo the token subprotocol back."""
    return SUBPROTOCOL if SUBPROTOCOL in offered else None


def _offered_subprotocols(headers: Headers) -> list[str]:
    return [item.strip() for value in headers.get_all("Sec-WebSocket-Protocol")
            for item in value.split(",") if item.strip()]


def _http_error(status: HTTPStatus, code: ErrorCode, message: str) -> Response:
    """A refusal before the upgrade, with the protocol's error object as its body."""
    body = json.dumps(error_payload(code, message)).encode("utf-8")
    headers = Headers([("Content-Type", "application/json"),
                       ("Content-Length", str(len(body))), ("Connection", "close")])
    return Response(status.value, status.phrase, headers, body)


def _reason(text: str) -> str:
    """A close reason must fit in 123 UTF-8 bytes."""
    data = text.encode("utf-8")[:123]
    return data.decode("utf-8", errors="ignore")


def _tasks(session: Session) -> list[asyncio.Task[None]]:
    # Session keeps its extract tasks by request id (service/session.py).
    return session.in_flight()


def _in_flight(session: Session) -> bool:
    return bool(_tasks(session))


def _allowed_while_draining(message: Any) -> bool:
    return isinstance(message, dict) and message.get("type") in ("cancel", "ping")


async def run(service_config: ServiceConfig, config: ServerConfig, token: str,
              announce: Any = None) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully.

    ``announce(server)`` is called once the sockets are bound (the CLI prints the URLs).
    """
    server = WebSocketServer(service_config, config, token)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    if announce is not None:
        announce(server)
    try:
        await stop.wait()
        log.debug("signal received; shutting down")
    finally:
        await server.shutdown()
    log.debug("server stopped")

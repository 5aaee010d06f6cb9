"""``blocksift serve``: the protocol over a loopback WebSocket server (docs/websocket.md)."""

from __future__ import annotations

import argparse
import sys

from .common import seconds, worker_count


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the protocol over WebSockets on 127.0.0.1 and ::1",
        description="Serve the extension protocol over a loopback WebSocket server, so "
                    "several browsers, profiles and scripts share one warm host. Every "
                    "connection needs the per-install token; web pages are refused.")
    parser.add_argument("--port", type=int, default=None,
                        help="TCP port (default 8787; 0 picks a free one and prints it)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="also accept this Origin (repeatable), e.g. another extension "
                             "id; the blocksift extension's origins are always accepted")
    parser.add_argument("--max-connections", type=int, default=64,
                        help="open connections at most; one more gets HTTP 503 "
                             "(default %(default)s)")
    parser.add_argument("--idle-timeout", type=seconds, default=300.0, metavar="SECONDS",
                        help="close a connection with no request for this long "
                             "(default %(default)s)")
    parser.add_argument("--grace", type=seconds, default=10.0, metavar="SECONDS",
                        help="on SIGTERM, let requests in flight finish for this long before "
                             "cancelling them (default %(default)s)")
    parser.add_argument("--workers", type=worker_count, default=None,
                        help="extraction processes (default: 2-4 by CPU count)")
    parser.add_argument("--timeout", type=seconds, default=30.0, metavar="SECONDS",
                        help="per-request time limit (default %(default)s)")
    parser.add_argument("--max-frame", type=int, default=64 * 1024 * 1024, metavar="BYTES",
                        help="largest message accepted; a bigger one closes the connection "
                             "with 1009 (default 64 MiB)")
    parser.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                        help="memory each extraction worker may add, in MiB; a page over it is "
                             "an error and the worker is replaced (default %(default)s; 0: none)")
    parser.add_argument("--print-token", action="store_true",
                        help="only print the token (creating it if needed) and exit; "
                             "serves nothing, so it takes no --port")
    parser.add_argument("--new-token", action="store_true",
                        help="replace the token with a fresh one (clients must be updated)")
    parser.add_argument("--log-level", default="INFO", metavar="LEVEL",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="DEBUG, INFO, WARNING or ERROR (default %(default)s)")
    parser.set_defaults(run=_run)


def _check(args: argparse.Namespace) -> str | None:
    if args.print_token and args.port is not None:
        return ("--print-token prints the token and exits; start the server without it "
                "(`blocksift serve --port N` prints where the token is)")
    if args.port is None:
        args.port = 8787
    if not 0 <= args.port <= 65535:
        return f"--port must be 0..65535, got {args.port}"
    if args.max_connections < 1:
        return "--max-connections must be at least 1"
    if args.max_frame < 1024:
        return "--max-frame must be at least 1024 bytes"
    if args.memory_limit < 0:
        return "--memory-limit must be 0 (none) or a number of MiB"
    for origin in args.allow_origin:
        if "://" not in origin or origin.rstrip("/") != origin.rstrip("/").strip():
            return f"--allow-origin needs scheme://host[:port], got {origin!r}"
    return None


def _run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from ..service.session import ServiceConfig
    from ..transport.auth import TokenError, load_or_create_token, rotate_token, token_path
    from ..transport.ws import BindError, ServerConfig, WebSocketServer, run

    problem = _check(args)
    if problem:
        print(f"blocksift: error: {problem}", file=sys.stderr)
        return 2
    try:
        token = rotate_token() if args.new_token else load_or_create_token()
    except TokenError as exc:
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return 1
    if args.print_token:
        print(token)
        return 0
    logging.basicConfig(stream=sys.stderr, level=args.log_level,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # websockets logs every refused handshake at INFO (ours already says why) and, at DEBUG,
    # the request headers, which carry the token: keep it at WARNING.
    logging.getLogger("websockets").setLevel(logging.WARNING)
    service_config = ServiceConfig(workers=args.workers, timeout_s=args.timeout,
                                   max_frame_bytes=args.max_frame,
                                   memory_limit_mb=args.memory_limit or None)
    config = ServerConfig(port=args.port, allow_origins=tuple(args.allow_origin),
                          max_connections=args.max_connections,
                          idle_timeout_s=args.idle_timeout, grace_s=args.grace)

    def announce(server: WebSocketServer) -> None:
        # one write, so a Ctrl-C can never fall between the address and where the token is
        print(f"blocksift serve: listening on {' and '.join(server.urls)}\n"
              f"blocksift serve: token in {token_path()} (print it with "
              "`blocksift serve --print-token`)", flush=True)

    try:
        asyncio.run(run(service_config, config, token, announce))
    except BindError as exc:
        print(f"blocksift: error: {_bind_message(exc, args.port)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    print("blocksift serve: stopped", flush=True)
    return 0


def _bind_message(exc: OSError, port: int) -> str:
    """Why the server cannot listen, once: asyncio's own words repeated the address ("cannot
    listen on 127.0.0.1 port 8787: error while attempting to bind on address ('127.0.0.1',
    8787): address already in use"), and the hint fits the cause."""
    import errno
    import os

    cause = exc.__cause__
    code = getattr(cause, "errno", None)
    if not code:
        return f"{exc} (is another `blocksift serve` running? try --port)"
    what = str(exc).split(":", 1)[0]  # "cannot listen on 127.0.0.1 port 8787"
    hint = {errno.EADDRINUSE: " (is another `blocksift serve` running? try another --port)",
            errno.EACCES: f" (port {port} needs more privileges; try a port above 1023)"
            }.get(code, "")
    return f"{what}: {os.strerror(code)}{hint}"

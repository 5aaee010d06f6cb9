"""``blocksift native``: the native-messaging host a browser starts (see PROTOCOL.md)."""

from __future__ import annotations

import argparse

from .common import seconds, worker_count


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=worker_count, default=None,
                        help="extraction processes (default: 2-4 by CPU count)")
    parser.add_argument("--timeout", type=seconds, default=30.0,
                        help="per-request time limit in seconds (default %(default)s)")
    parser.add_argument("--max-frame", type=int, default=64 * 1024 * 1024,
                        help="largest request frame in bytes (default 64 MiB, the browsers' cap)")
    parser.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                        help="memory each extraction worker may add, in MiB; a page over it is "
                             "an error and the worker is replaced (default %(default)s; 0: none)")
    parser.add_argument("--log-level", default="INFO", metavar="LEVEL",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="DEBUG, INFO, WARNING or ERROR (default %(default)s)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "native", help="run as the browser's native-messaging host (stdin/stdout frames)")
    _options(parser)
    parser.set_defaults(run=lambda args: _run(args))


def _run(args: argparse.Namespace) -> int:
    import sys

    if sys.stdin is None or sys.stdout is None:
        print("blocksift: error: the native host needs stdin and stdout (the browser's pipes)",
              file=sys.stderr)
        return 2
    if sys.stdin.isatty():
        # a person typed it: frames are binary, nothing useful can be typed here
        print("blocksift: error: `blocksift native` is started by the browser and speaks "
              "binary frames on stdin; register it with `blocksift install`, or try the "
              "protocol with `blocksift serve`", file=sys.stderr)
        return 2
    from ..service.session import ServiceConfig
    from ..transport.native import main

    config = ServiceConfig(workers=args.workers, timeout_s=args.timeout,
                           max_frame_bytes=args.max_frame,
                           memory_limit_mb=args.memory_limit or None)
    return main(config, args.log_level)


def run_native(argv: list[str]) -> int:
    """Fast path used when the browser starts the host (skips building every subparser).

    Browsers pass their own arguments (the caller's origin; Firefox also the manifest path),
    which are ignored.
    """
    from .main import _parser_class

    parser = _parser_class()(prog="blocksift native")  # a bad option: one line, as elsewhere
    _options(parser)
    args, _unknown = parser.parse_known_args(argv)
    return _run(args)

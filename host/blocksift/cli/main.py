"""``blocksift`` entry point: parses the command line, imports only the command being run."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

#: Subcommand modules (``blocksift.cli.cmd_<name>``); absent modules are skipped.
COMMAND_MODULES = ("extract", "batch", "algorithms", "schema", "eval", "native", "serve",
                   "install", "cluster", "train", "examples")


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="blocksift",
        description="See through a web page's clutter: link blocks and main text.")
    parser.add_argument("--version", action="version", version=f"blocksift {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module_name = f"blocksift.cli.cmd_{name}"
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        before = set(subparsers.choices)
        module.add_parser(subparsers)
        for command in set(subparsers.choices) - before:
            # A module's run() serves its commands unless a parser set its own ``run``.
            if subparsers.choices[command].get_default("run") is None:
                subparsers.choices[command].set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # The browser starts the host with its origin as argument; answer fast, parse nothing.
    if argv and (argv[0] == "native" or argv[0].startswith(("chrome-extension://",
                                                             "moz-extension://"))
                 or argv[0].endswith(".json")):
        from .cmd_native import run_native

        return run_native(argv[1:] if argv[0] == "native" else [])
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

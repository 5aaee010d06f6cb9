"""``blocksift`` entry point: parses the command line, imports only the command being run.

Exit codes (README "Exit codes"): 0 done; 1 the command ran but the answer is negative (the
algorithm declined the page, doctor found a problem, the server could not start); 2 usage
error or unusable input (bad option, missing or binary file, closed stdin); 3 internal
error (a bug; ``BLOCKSIFT_DEBUG=1`` shows the traceback); 130 interrupted.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

EXIT_OK, EXIT_NEGATIVE, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

#: Every command: (name, module ``blocksift.cli.cmd_<module>``, one-line help). The help is
#: here so ``blocksift --help`` lists the commands without importing a single one of them
#: (tests/cli check it matches what each module declares).
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("extract", "extract", "extract main text and blocks from a file, URL or stdin"),
    ("batch", "batch", "extract many pages: JSONL or WARC in, JSONL or Parquet out"),
    ("algorithms", "algorithms", "list algorithms, params and defaults"),
    ("schema", "schema", "print the protocol's JSON Schema"),
    ("eval", "eval", "score an algorithm on labeled pages (precision, recall, F1, ms)"),
    ("native", "native", "run as the browser's native-messaging host (stdin/stdout frames)"),
    ("serve", "serve", "serve the protocol over WebSockets on 127.0.0.1 and ::1"),
    ("install", "install", "register the native host with browsers"),
    ("uninstall", "install", "remove what install wrote"),
    ("doctor", "install", "check every registration with a real round trip"),
    ("cluster", "cluster", "show the template classes and extraction rules of sites"),
    ("train", "train", "learn a trained algorithm's model from labeled pages"),
    ("examples", "examples", "captured labeled examples"),
)


def _parser_class() -> type[argparse.ArgumentParser]:
    """An argparse parser whose usage errors are one line, pointing at ``--help`` (built
    on demand: ``--version`` answers without importing argparse)."""
    import argparse

    class OneLineErrorParser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")

    return OneLineErrorParser


def _chosen(argv: list[str]) -> str | None:
    """The command named on the command line (the first word that is not an option)."""
    for word in argv:
        if not word.startswith("-"):
            return word
        if word == "--":
            return None
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the module of the command in ``argv`` is imported (all when None)."""
    import importlib

    from .. import __version__

    parser = _parser_class()(
        prog="blocksift",
        description="See through a web page's clutter: link blocks and main text.",
        epilog="Exit codes: 0 done, 1 negative answer (page declined, doctor found a problem), "
               "2 usage error or unusable input, 3 internal error, 130 interrupted.")
    parser.add_argument("--version", action="version", version=f"blocksift {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = _chosen(argv) if argv is not None else None
    chosen_module = next((m for name, m, _help in COMMANDS if name == chosen), None)
    loaded: set[str] = set()
    for name, module_name, help_text in COMMANDS:
        if module_name in loaded:
            continue
        if argv is not None and module_name != chosen_module:
            # a stand-in that only carries the help line; the real parser is built on use
            subparsers.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(f"blocksift.cli.cmd_{module_name}")
        loaded.add(module_name)
        before = set(subparsers.choices)
        module.add_parser(subparsers)
        for command in set(subparsers.choices) - before:
            # A module's run() serves its commands unless a parser set its own ``run``.
            if subparsers.choices[command].get_default("run") is None:
                subparsers.choices[command].set_defaults(run=module.run)
    first = (argv or [""])[0].split("=", 1)[0]
    if first.startswith("-") and first != "--" and not any(
            own.startswith(first) for own in ("-h", "--help", "--version")):
        # 'blocksift --algo linkblocks extract page.html' said "unknown command
        # 'linkblocks'": the option's value taken for the command
        named = next((word for word in argv or [] if word in subparsers.choices), "COMMAND")
        parser.error(f"{first} is an option of a command, not of blocksift: give it after "
                     f"the command (blocksift {named} {first} ...)")
    if argv is not None and chosen is not None and chosen not in subparsers.choices:
        # argparse would list every command in one long line; say it shorter, with the
        # nearest command when there is one ("extarct", "evaluate")
        from difflib import get_close_matches

        near = get_close_matches(chosen, list(subparsers.choices), n=1)
        parser.error(f"unknown command {chosen!r}"
                     + (f" (did you mean {near[0]}?)" if near else ""))
    return parser


def _close_progress_bars() -> None:
    """Close the progress bars a command left open when Ctrl-C cut it short, so that each
    stays where it stopped and the message goes below them (an open bar kept the message at
    the end of its line, and was drawn once more under it when it was collected)."""
    tqdm = sys.modules.get("tqdm")
    for bar in list(getattr(getattr(tqdm, "tqdm", None), "_instances", ())):
        try:
            bar.close()
        except Exception:  # a bar whose stream is gone: nothing to tidy
            pass


def _quiet_broken_pipe() -> None:
    """After ``blocksift ... | head``: no 'Exception ignored' noise when Python exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # The browser starts the host with its origin as argument; answer fast, parse nothing.
    if argv and (argv[0] == "native" or argv[0].startswith(("chrome-extension://",
                                                             "moz-extension://"))
                 or argv[0].endswith(".json")):
        from .cmd_native import run_native

        return run_native(argv[1:] if argv[0] == "native" else [])
    if argv == ["--version"]:  # the most common probe: answer without importing argparse
        from .. import __version__

        print(f"blocksift {__version__}")
        return EXIT_OK
    parser = build_parser(argv)
    args, extra = parser.parse_known_args(argv)
    if extra:
        # said by the command's own parser: 'blocksift serve: error: unrecognized arguments:
        # --param x=1 (see `blocksift serve --help`)', not the top parser's help
        import argparse

        target = parser  # down to the (sub)command named: `examples list`
        while True:
            commands = next((a for a in target._actions
                             if isinstance(a, argparse._SubParsersAction)), None)
            name = getattr(args, commands.dest, None) if commands is not None else None
            if name not in getattr(commands, "choices", {}):
                break
            target = commands.choices[name]
        target.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    from ..labeled import DatasetError

    try:
        code = int(args.run(args) or 0)
        if sys.stdout is not None:
            sys.stdout.flush()  # a reader gone early (`| head`) shows up here, not at exit
        return code
    except KeyboardInterrupt:
        _close_progress_bars()
        print("blocksift: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_broken_pipe()
        return EXIT_OK
    except DatasetError as exc:  # a damaged dataset file: its name and line say where
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except UnicodeDecodeError as exc:  # a dataset or JSONL file that is not UTF-8 text
        print(f"blocksift: error: input is not UTF-8 text ({exc.reason} at byte {exc.start})",
              file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        if exc.filename is None:
            return _internal(exc)
        # a path given on the command line that cannot be read or written
        print(f"blocksift: error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # a bug: one line for the user, the traceback on request
        return _internal(exc)


def _internal(exc: BaseException) -> int:
    if os.environ.get("BLOCKSIFT_DEBUG"):
        raise exc
    print(f"blocksift: internal error: {type(exc).__name__}: {exc} "
          "(BLOCKSIFT_DEBUG=1 shows the traceback; please report it)", file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())

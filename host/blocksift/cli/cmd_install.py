"""``blocksift install`` / ``uninstall`` / ``doctor``: register the native-messaging host.

One module serves the three subcommands (they share options and the registration code);
``add_parser`` adds all three and ``run`` dispatches on the one chosen. See docs/install.md.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from .common import seconds

COMMANDS = ("install", "uninstall", "doctor")


def _common(parser: argparse.ArgumentParser) -> None:
    from blocksift.registration import BROWSER_NAMES

    parser.add_argument("--browser", action="append", choices=BROWSER_NAMES, metavar="NAME",
                        help=f"one of {', '.join(BROWSER_NAMES)}; repeatable "
                             "(default: every browser that looks installed)")
    parser.add_argument("--user-data-dir", type=Path, metavar="DIR",
                        help="a Chromium profile directory started with --user-data-dir: the "
                             "manifest goes to DIR/NativeMessagingHosts (Linux, macOS)")
    parser.add_argument("--json", action="store_true", help="print a JSON report")


def add_parser(subparsers: Any) -> None:
    """Add ``install``, ``uninstall`` and ``doctor``."""
    p = subparsers.add_parser("install", help="register the native host with browsers",
                              description="Write a launcher and a host manifest for each "
                                          "browser (Windows: plus a registry key) so the "
                                          "extension can start blocksift.")
    _common(p)
    p.add_argument("--dry-run", action="store_true", help="show what would be written")
    p.add_argument("--python", metavar="PATH", default=None,
                   help="interpreter the launcher runs (default: the one running this "
                        f"command, {sys.executable})")
    p.set_defaults(install_command="install", run=run)
    p = subparsers.add_parser("uninstall", help="remove what install wrote",
                              description="Remove the manifests, registry keys and launcher "
                                          "that install wrote, and nothing else.")
    _common(p)
    p.add_argument("--dry-run", action="store_true", help="show what would be removed")
    p.set_defaults(install_command="uninstall", run=run)
    p = subparsers.add_parser("doctor", help="check every registration with a real round trip",
                              description="Check each browser's registration and talk to the "
                                          "host the way the browser would. Exit code 1 when "
                                          "something is broken.")
    _common(p)
    p.add_argument("--no-round-trip", action="store_true",
                   help="only check the files, do not start the host")
    p.add_argument("--timeout", type=seconds, default=20.0, metavar="S",
                   help="seconds to wait for the host's replies (default %(default)s)")
    p.set_defaults(install_command="doctor", run=run)


def _context() -> dict[str, Any]:
    from blocksift import paths
    from blocksift.registration import current_platform

    return {"platform": current_platform(), "home": Path.home(), "env": dict(os.environ),
            "data_dir": paths.data_dir()}


def _browsers(args: argparse.Namespace, ctx: dict[str, Any]) -> tuple[list[str], str | None]:
    """Browsers to act on and a note on how they were chosen."""
    from blocksift.registration import BROWSER_NAMES, detect

    if args.browser:
        chosen = list(dict.fromkeys(args.browser))
        if args.user_data_dir is not None:
            return chosen, None
        from blocksift.registration.browsers import browser

        found = detect(ctx["platform"], ctx["home"], ctx["env"])
        absent = [browser(name).label for name in chosen if name not in found]
        note = None
        if absent:
            one = len(absent) == 1
            note = (f"note: {', '.join(absent)} {'does' if one else 'do'} not look installed "
                    f"here; {'it' if one else 'they'} will find blocksift once "
                    f"{'it is' if one else 'they are'} installed")
        return chosen, note
    if args.user_data_dir is not None:
        return ["chromium"], None
    found = detect(ctx["platform"], ctx["home"], ctx["env"])
    if found:
        return found, f"detected: {', '.join(found)}"
    return list(BROWSER_NAMES), "no browser detected; registering with all of them"


def _say(text: str) -> None:
    """A sentence (a note, a summary) wrapped under an indent in a terminal (they ran to 130
    columns, wrapped at column 0); piped, one line. Steps and paths are printed whole."""
    from blocksift.terminal import say, terminal_width

    say(text, width=terminal_width())


def _print_actions(actions: list[Any], dry_run: bool) -> None:
    prefix = "would " if dry_run else ""
    said: set[tuple[str, str]] = set()
    for a in actions:
        if (a.verb, str(a.target)) in said:  # a dry run makes nothing, so each browser's
            continue  # plan would make the folders they share again ('would mkdir ~' 3x)
        said.add((a.verb, str(a.target)))
        detail = f"  ({a.detail})" if a.detail else ""
        print(f"{prefix}{a.verb:<15} {a.target}{detail}")


def _install(args: argparse.Namespace) -> int:
    from blocksift.registration import HOST_NAME, apply_install, plan_install
    from blocksift.registration.apply import launcher_pythonpath

    ctx = _context()
    names, note = _browsers(args, ctx)
    python = args.python or sys.executable
    try:
        pythonpath = launcher_pythonpath(python)
        if args.python:
            _check_interpreter(args.python, pythonpath, run=not args.dry_run)
        plan = plan_install(names, platform=ctx["platform"], home=ctx["home"],
                            data_dir=ctx["data_dir"], python=python,
                            pythonpath=pythonpath, env=ctx["env"],
                            user_data_dir=args.user_data_dir)
        switched = _interpreter_switch(plan, names, ctx["data_dir"], args.dry_run)
        actions = apply_install(plan, ctx["data_dir"], dry_run=args.dry_run)
    except (ValueError, RuntimeError, OSError) as exc:
        print(f"blocksift: error: {_problem(exc, 'install')}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"dryRun": args.dry_run, "note": note,
                          "plan": plan.model_dump(mode="json"),
                          "actions": [a.model_dump(mode="json") for a in actions]}, indent=2))
        return 0
    if note:
        _say(note)
    from blocksift.registration.browsers import sandboxed_browsers

    for sandbox_note in sandboxed_browsers(ctx["platform"], ctx["home"]):
        _say(f"note: {sandbox_note}")
    if switched:
        _say(switched)
    _print_actions(actions, args.dry_run)
    if not args.dry_run:
        _say(f"registered {HOST_NAME} for {', '.join(names)}; check with `blocksift doctor`")
    return 0


def _interpreter_switch(plan: Any, names: list[str], data_dir: Path,
                        dry_run: bool) -> str | None:
    """A note when this install points the launcher at another Python than the one it ran:
    one launcher serves every registered browser, so the others switch too."""
    from blocksift.registration.apply import load_receipt
    from blocksift.registration.plan import same_python

    receipt, _ = load_receipt(data_dir)
    if receipt is None or not receipt.python or receipt.launcher != plan.launcher.path:
        return None
    old, new = receipt.python, plan.python
    if old == new:
        return None
    if same_python(old, new):
        return None
    others = list(dict.fromkeys(e.registration.browser for e in receipt.entries
                                if e.registration.browser not in names))
    gone = "" if Path(old).exists() else " (gone)"
    also = (f", for {', '.join(others)} too (one launcher serves every browser)"
            if others else "")
    return (f"note: the launcher ran {old}{gone}; it {'would run' if dry_run else 'now runs'} "
            f"{new}{also}")


def _check_interpreter(python: str, pythonpath: str | None, *, run: bool) -> None:
    """Refuse a ``--python`` the launcher could not start the host with (ValueError). With
    ``run``, the host really starts under it and answers hello, as doctor checks."""
    fix = f"give a Python that has blocksift installed, or leave --python out ({sys.executable})"
    path = Path(python)
    if not path.is_absolute():
        raise ValueError(f"--python {python}: give the full path; {fix}")
    if not path.is_file() or not os.access(path, os.X_OK):
        raise ValueError(f"--python {python}: no such executable file; {fix}")
    if not run:
        return
    from blocksift.registration.doctor import round_trip

    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + (os.pathsep + env["PYTHONPATH"]
                                          if env.get("PYTHONPATH") else "")
    import tempfile

    with tempfile.TemporaryDirectory() as neutral:  # the browser's cwd is not ours either
        result = round_trip([python, "-m", "blocksift", "native"], env=env, timeout=60,
                            cwd=neutral)
    if not result.ok:
        last = (result.stderr.strip().splitlines() or [""])[-1]  # e.g. ModuleNotFoundError
        why = " ".join(f"{result.error or 'no answer'}{': ' + last if last else ''}".split())
        raise ValueError(f"--python {python}: blocksift does not start with it ({why}); {fix}")


def _uninstall(args: argparse.Namespace) -> int:
    from blocksift.registration import apply_uninstall
    from blocksift.registration.apply import load_receipt, plan_uninstall

    ctx = _context()
    try:
        before, _ = load_receipt(ctx["data_dir"])
        _, after = plan_uninstall(ctx["data_dir"], platform=ctx["platform"], home=ctx["home"],
                                  env=ctx["env"], browsers=args.browser,
                                  user_data_dir=args.user_data_dir)
        actions = apply_uninstall(ctx["data_dir"], platform=ctx["platform"], home=ctx["home"],
                                  env=ctx["env"], browsers=args.browser,
                                  user_data_dir=args.user_data_dir, dry_run=args.dry_run)
    except (ValueError, OSError) as exc:
        print(f"blocksift: error: {_problem(exc, 'uninstall')}", file=sys.stderr)
        return 2
    # the host's logs and cache go with the last registration; the user's own data stays
    whole = not args.browser and args.user_data_dir is None
    cleared = _clear_host_files(args.dry_run) if whole else []
    if args.json:
        print(json.dumps({"dryRun": args.dry_run,
                          "actions": [a.model_dump(mode="json") for a in actions],
                          "removedDirs": [str(p) for p in cleared]}, indent=2))
        return 0
    if not actions and not cleared:
        _say(_nothing_to_remove(args, ctx["data_dir"]))
    _print_actions(actions, args.dry_run)
    for path in cleared:
        print(f"{'would ' if args.dry_run else ''}{'remove-dir':<15} {path}")
    if actions:
        _say(_uninstall_summary(before, after, args.dry_run))
    if whole:
        from blocksift import paths

        kept = [p for p in (paths.data_dir(), paths.config_dir()) if p.exists()]
        if kept:
            _say(f"{'would keep' if args.dry_run else 'kept'} your data (labeled examples, "
                 "models, token): "
                 f"{', '.join(map(str, kept))}; delete by hand to remove everything")
    return 0


def _uninstall_summary(before: Any, after: Any, dry_run: bool) -> str:
    """What uninstall unregistered and which registrations stay (``--browser chrome``
    leaves Chromium and Firefox registered; the list of steps does not say so)."""
    from blocksift.registration import HOST_NAME

    def labels(receipt: Any) -> list[str]:
        return list(dict.fromkeys(e.registration.label for e in receipt.entries)) \
            if receipt is not None else []

    left = labels(after)
    gone = [label for label in labels(before) if label not in left]
    done = f"{'would unregister' if dry_run else 'unregistered'} {HOST_NAME}" + (
        f" for {', '.join(gone)}" if gone else "")
    if left:
        return (f"{done}; {'it would stay' if dry_run else 'still'} registered for "
                f"{', '.join(left)} (`blocksift doctor` checks them)")
    return f"{done}; " + ("no browser could start it then" if dry_run
                          else "no browser can start it now")


def _nothing_to_remove(args: argparse.Namespace, data_dir: Path) -> str:
    """Why uninstall removed nothing: with ``--browser`` or ``--user-data-dir``, the
    registrations that are there (Chrome and Chromium are easily confused)."""
    from blocksift.registration.apply import load_receipt
    from blocksift.registration.browsers import browser

    receipt, _ = load_receipt(data_dir)
    there = [e.registration for e in receipt.entries] if receipt else []
    if not there or (not args.browser and args.user_data_dir is None):
        return "nothing to remove: blocksift is not registered here"
    asked = ", ".join(browser(name).label for name in dict.fromkeys(args.browser or []))
    if args.user_data_dir is not None:
        asked = f"{asked or 'any browser'} in the profile {args.user_data_dir}"
    names = ", ".join(dict.fromkeys(r.label for r in there))
    return (f"nothing to remove: blocksift is not registered for {asked}; it is registered "
            f"for {names} (`blocksift uninstall --browser NAME`, or no option for all)")


def _clear_host_files(dry_run: bool) -> list[Path]:
    """Remove the host's log and cache folders (rebuilt on demand); returns those removed."""
    import shutil

    from blocksift import paths

    removed = []
    for folder in (paths.state_dir() / "logs", paths.cache_dir()):
        if folder.is_dir():
            if not dry_run:
                shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    # the logs' folder goes too once it is empty (it holds nothing of the user's)
    state = paths.state_dir()
    if state.is_dir() and all(child in removed for child in state.iterdir()):
        if dry_run:
            removed.append(state)
        else:
            try:
                state.rmdir()
                removed.append(state)
            except OSError:
                pass
    return removed


def _doctor(args: argparse.Namespace) -> int:
    from blocksift.registration import format_report, run_doctor

    ctx = _context()
    try:
        browsers = args.browser or (["chromium"] if args.user_data_dir is not None else None)
        report = run_doctor(platform=ctx["platform"], home=ctx["home"], data_dir=ctx["data_dir"],
                            env=ctx["env"], browsers=browsers,
                            user_data_dir=args.user_data_dir,
                            do_round_trip=not args.no_round_trip, timeout=args.timeout)
    except (ValueError, OSError) as exc:
        print(f"blocksift: error: {_problem(exc, 'doctor')}", file=sys.stderr)
        return 2
    if args.json:
        print(report.model_dump_json(indent=2))
    elif all(r.status == "not_registered" for r in report.browsers):
        for line in _nothing_registered(report, args).splitlines():
            _say(line)
    else:
        _print_report(format_report(report))
    return 0 if report.ok else 1


#: A doctor line that is a sentence after its label ("        error: ..."), as wrapped
_LABELED = re.compile(r"( *)((?:passed|round trip|note|error|warning|fix|verdict): )(.*)")


def _print_report(text: str) -> None:
    """doctor's report. In a terminal each sentence wraps under its label's text (its lines
    ran to 200 columns, wrapped mid-word at column 0), a path kept whole; piped, a line
    each, as format_report gives them (for grep). A browser's heading line is printed whole:
    the manifest's path."""
    from blocksift.terminal import say, terminal_width

    width = terminal_width()
    for line in text.splitlines():
        labeled = _LABELED.fullmatch(line)
        if width is None or labeled is None:
            print(line)
            continue
        indent, label, sentence = labeled.groups()
        first = indent + label
        say(sentence, first=first, rest=" " * len(first) if indent else "  ", width=width)


def _nothing_registered(report: Any, args: argparse.Namespace) -> str:
    """Doctor's answer when no registration was found to check: said plainly, with the
    command that registers (it listed every browser's missing manifest and ended in
    'NOT OK - 0 broken, 0 working')."""
    rows = report.browsers
    if args.user_data_dir is not None:
        where = f"in the profile {args.user_data_dir}"
        fix = f"blocksift install --user-data-dir {args.user_data_dir}"
    elif args.browser:
        where = f"for {', '.join(dict.fromkeys(r.label for r in rows))}"
        fix = "blocksift install " + " ".join(f"--browser {name}"
                                              for name in dict.fromkeys(args.browser))
    else:
        where = "with any browser"
        found = [r.label for r in rows if r.detected]
        fix = "blocksift install" + (f"  (for {', '.join(found)}: the browsers found here)"
                                     if found else "")
    # the registration's other notes (a damaged record, a store set aside, a registration
    # for a browser not asked about) still matter; the one saying this line's news goes
    notes = [f"note: {note}" for note in report.notes
             if not note.startswith("blocksift is not registered with any browser")]
    return "\n".join([f"not registered: blocksift is not registered {where}, so there is "
                      "nothing to check", *notes, f"fix: {fix}"])


def _problem(exc: Exception, command: str) -> str:
    """The error line's text. An OSError names its path and what is wrong there in words
    ("[Errno 17] File exists: '.../NativeMessagingHosts'" told a user neither that a file
    stood where install makes a folder nor what to do), then how to go on."""
    if not isinstance(exc, OSError) or not exc.filename:
        return str(exc)
    path = exc.filename
    if exc.errno in (errno.EEXIST, errno.ENOTDIR):
        # the file in the way may be a parent: ~/.config a file fails ~/.config/chromium/...
        path = next((str(p) for p in reversed([Path(path), *Path(path).parents])
                     if p.exists() and not p.is_dir()), path)
        why = "a file stands where a folder must be"
    elif exc.errno == errno.EISDIR:
        why = "a folder stands where a file must be"
    else:
        why = (exc.strerror or str(exc)).lower()
    if command == "doctor":
        return f"cannot check {path}: {why}"
    in_the_way = exc.errno in (errno.EEXIST, errno.ENOTDIR, errno.EISDIR)
    todo = "move that away" if in_the_way else "make its folder writable"
    return (f"cannot {'write' if command == 'install' else 'remove'} {path}: {why}; "
            f"{command} stopped there ({todo}, then run `blocksift {command}` again)")


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "install_command", None) or getattr(args, "command", None)
    handler = {"install": _install, "uninstall": _uninstall, "doctor": _doctor}.get(action or "")
    if handler is None:
        print(f"blocksift: unknown command {action!r}", file=sys.stderr)
        return 2
    return handler(args)


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (``python3 -m blocksift.cli.cmd_install doctor``) until the main CLI
    lists these commands."""
    parser = argparse.ArgumentParser(prog="blocksift")
    add_parser(parser.add_subparsers(dest="command", required=True))
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

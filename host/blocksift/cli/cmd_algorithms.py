"""``blocksift algorithms``: the algorithms, their papers, params and defaults."""

from __future__ import annotations

import argparse
import json
import sys

from .common import CommandError, run_guarded


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "algorithms", help="list algorithms, params and defaults",
        description="Every algorithm (or the NAMEd ones) with its paper and its --param "
                    "settings, each with its default and what it does.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="only these algorithms (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON (params' JSON Schema)")
    parser.set_defaults(run=run)


@run_guarded
def run(args: argparse.Namespace) -> int:
    from .. import algorithms

    names = algorithms.names()
    for name in getattr(args, "names", None) or []:
        if name not in names:
            from difflib import get_close_matches

            near = get_close_matches(name, names, n=1)
            raise CommandError(f"unknown algorithm {name!r}"
                               + (f" (did you mean {near[0]}?)" if near else "")
                               + f"; known: {', '.join(names)}")
    described = []
    for name in names:
        if getattr(args, "names", None) and name not in args.names:
            continue
        info = algorithms.ALGORITHMS[name]
        schema = algorithms.params_schema(name)
        described.append({"name": name, "summary": info.summary, "paper": info.paper,
                          "model": getattr(algorithms.load(name), "MODEL", None),
                          "params": schema})
    if args.json:
        json.dump(described, sys.stdout, indent=2)
        print()
        return 0
    from ..terminal import say as _say
    from ..terminal import terminal_width

    width = terminal_width()
    for entry in described:
        default = " (default)" if entry["name"] == algorithms.DEFAULT_ALGORITHM else ""
        _say(f"{entry['name']}{default}: {entry['summary']}", "", "  ", width)
        _say(f"paper: {entry['paper']}", "  ", "    ", width)
        for field, spec in entry["params"].get("properties", {}).items():
            value = json.dumps(spec.get("default")) if "default" in spec else "(required)"
            description = spec.get("description", "")
            _say(f"--param {field}={value}", "  ", "      ", width)
            if description:
                _say(description, "      ", "      ", width)
        print()
    return 0


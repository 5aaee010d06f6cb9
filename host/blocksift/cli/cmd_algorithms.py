"""``blocksift algorithms``: the algorithms, their papers, params and defaults."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("algorithms", help="list algorithms, params and defaults")
    parser.add_argument("--json", action="store_true", help="print JSON (params' JSON Schema)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from .. import algorithms

    described = []
    for name in algorithms.names():
        info = algorithms.ALGORITHMS[name]
        schema = algorithms.params_schema(name)
        described.append({"name": name, "summary": info.summary, "paper": info.paper,
                          "model": getattr(algorithms.load(name), "MODEL", None),
                          "params": schema})
    if args.json:
        json.dump(described, sys.stdout, indent=2)
        print()
        return 0
    for entry in described:
        default = " (default)" if entry["name"] == algorithms.DEFAULT_ALGORITHM else ""
        print(f"{entry['name']}{default}: {entry['summary']}")
        print(f"  paper: {entry['paper']}")
        for field, spec in entry["params"].get("properties", {}).items():
            value = json.dumps(spec.get("default")) if "default" in spec else "(required)"
            description = spec.get("description", "")
            print(f"  --param {field}={value}")
            if description:
                print(f"      {description}")
        print()
    return 0

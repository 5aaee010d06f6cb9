"""``blocksift schema``: the JSON Schema of every protocol message."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("schema", help="print the protocol's JSON Schema")
    parser.add_argument("--output", "-o", help="write to this file instead of stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..wire.protocol import json_schema

    text = json.dumps(json_schema(), indent=2, sort_keys=True)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    return 0

"""``blocksift train farsw --dataset PATH [--per-site] [--out PATH] [--param k=v]``.

Learns FAR-SW fuzzy association rules (seed 004 §3.3) from labeled pages in the dev
datasets' format (``blocksift examples export`` writes the same), writes a versioned JSON
model (default: the user's model, which the host then uses instead of the packaged one)
and prints the rules. The same pages and params always give the same file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .common import CommandError, parse_params

#: Algorithms that can be trained, name -> module.
TRAINABLE = {"farsw": "blocksift.algorithms.farsw"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``train`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        "train", help="learn a trained algorithm's model from labeled pages",
        description="Learn FAR-SW rules from labeled pages and write a JSON model.")
    parser.add_argument("algorithm", choices=sorted(TRAINABLE), help="algorithm to train")
    parser.add_argument("--dataset", action="append", dest="datasets", required=True,
                        metavar="PATH", help="labeled pages: a dataset name, folder or .jsonl"
                        "(.gz) file; repeat to combine")
    parser.add_argument("--per-site", action="store_true",
                        help="also learn one rule set per site (used for pages of that site)")
    parser.add_argument("--min-site-pages", type=int, default=2, metavar="N",
                        help="pages a site needs for its own rules with --per-site (default 2)")
    parser.add_argument("--out", type=Path, default=None, metavar="PATH",
                        help="model file to write (default: the user's model path)")
    parser.add_argument("--param", action="append", default=[], metavar="K=V",
                        help="training param (alpha, support, significance, line_mode, ...)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="first N pages of each dataset")
    parser.add_argument("--json", action="store_true", help="print the model JSON instead")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="no progress bar on stderr")
    parser.set_defaults(progress=None)
    return parser


def run(args: argparse.Namespace) -> int:
    """Train, write the model, print the rules; 0 on success, 2 on bad input."""
    import importlib

    from ..evaluation.datasets import iter_pages, resolve

    module = importlib.import_module(TRAINABLE[args.algorithm])
    from pydantic import ValidationError

    try:
        params = module.Params.model_validate(parse_params(args.param))
    except CommandError as exc:
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return 2
    except ValidationError as exc:  # one line, as every usage error
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}"
                             for e in exc.errors())
        print(f"blocksift: error: invalid params for {args.algorithm}: {problems}", file=sys.stderr)
        return 2
    try:
        paths = [resolve(name) for name in args.datasets]
    except FileNotFoundError as exc:
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return 2
    show_progress = args.progress if args.progress is not None else sys.stderr.isatty()
    bar = None
    tick = None
    if show_progress:
        from tqdm import tqdm

        bar = tqdm(file=sys.stderr, unit="page", desc="training")
        tick = bar.update

    def pages() -> Any:
        for path in paths:
            yield from iter_pages(path, limit=args.limit)

    description = ", ".join(
        f"{Path(name).name}{'' if args.limit is None else f' (first {args.limit})'}"
        for name in args.datasets)
    try:
        model = module.train(pages(), params, per_site=args.per_site, description=description,
                             min_site_pages=args.min_site_pages, progress=tick)
    except module.TrainingError as exc:
        print(f"blocksift: error: training failed: {exc}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, OSError) as exc:  # unreadable or malformed dataset rows
        print(f"blocksift: error: cannot read the training pages: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
    out = args.out
    if out is None:
        from ..paths import model_path

        out = model_path(args.algorithm)
    written = module.save_model(model, out)
    if args.json:
        print(model.to_json(), end="")
    else:
        print(module.format_rules(model))
        print(f"model: {written} ({model.training.pages} pages, sha256 "
              f"{model.training.sha256[:12]})")
    return 0

"""``blocksift cluster``: the template classes and extraction rules of sites (seed 002).

Pages of a dataset are grouped by site (its ``site`` field, else the url's host) and each
site is clustered on its own (Algorithm 1) with one rule per class (Algorithm 2); HTML files
given on the command line form one group. ``--pooled`` clusters all pages together instead,
and ``--store`` shows what the per-site store has learned from browsing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..algorithms import clustering
from ..page import Page, PageError
from .common import (
    CommandError,
    add_progress_arguments,
    at_least,
    dataset_path,
    params_message,
    parse_params,
    read_source,
    want_progress,
)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``cluster``."""
    parser = subparsers.add_parser(
        "cluster", help="show the template classes and extraction rules of sites",
        description=__doc__.replace("``", "`"))  # the docstring's markup is not for a reader
    parser.add_argument("files", nargs="*", type=Path, help="HTML files (one group)")
    parser.add_argument("--dataset", "-d", dest="datasets", action="append", default=[],
                        metavar="PATH_OR_NAME", help="labeled dataset; repeatable")
    parser.add_argument("--param", "-p", dest="params", action="append", default=[],
                        metavar="KEY=VALUE", help="clustering parameter, repeatable, e.g. "
                        "sim_threshold=0.9")
    parser.add_argument("--limit", type=at_least(1), default=None, metavar="N",
                        help="first N pages of each dataset")
    parser.add_argument("--pooled", action="store_true",
                        help="cluster all pages together instead of site by site")
    parser.add_argument("--store", nargs="?", const="", default=None, metavar="PATH",
                        help="show the per-site store (default: the user's store)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_progress_arguments(parser)
    return parser


def _groups(args: argparse.Namespace) -> dict[str, list[tuple[str, Page]]]:
    from ..evaluation.datasets import load_pages
    from ..evaluation.sitesplit import site_of

    groups: dict[str, list[tuple[str, Page]]] = defaultdict(list)
    for name in args.datasets:
        pages = "HTML files go without --dataset: blocksift cluster {name} ..."
        for labeled in load_pages(dataset_path(name, pages), args.limit):
            site = "all pages" if args.pooled else site_of(labeled)
            groups[site].append((labeled.id, Page(labeled.html, url=labeled.url)))
    for path in args.files:
        # read as extract reads a page: a missing file, a folder or a binary file is a
        # one-line error (a binary one was clustered as a page of garbage)
        html, url = read_source(str(path))
        groups["all pages" if args.pooled else "files"].append((str(path), Page(html, url=url)))
    return groups


def _model_dict(site: str, model: clustering.SiteModel) -> dict[str, Any]:
    return {"site": site, "pages": model.pages, "unclassed": model.unclassed,
            "classes": [{"label": cls.label, "size": len(cls.members),
                         "members": list(cls.members),
                         "rule": cls.rule.model_dump() if cls.rule else None,
                         "rule_score": round(cls.rule_score, 6),
                         "feature_paths": len(cls.feature)} for cls in model.classes]}


def _print_site(entry: dict[str, Any], width: int | None = None) -> None:
    """A site's classes, each with its rule and first members; in a terminal of ``width``
    columns the long lines wrap under their indent (rules and members ran to 176 columns and
    wrapped at column 0), piped a line each."""
    from ..terminal import say

    say(f"{entry['site']}: {_count(entry['pages'], 'page')}, "
        f"{_count(len(entry['classes']), 'class', 'classes')}, "
        f"{_count(entry['unclassed'], 'page')} in no class", width=width)
    for cls in entry["classes"]:
        rule = cls["rule"]
        if rule is None:
            shown = "no rule (no page of the class has a text block)"
        else:
            shown = " ".join(f"{k}={rule[k]!r}" for k in ("element_id", "css_class", "path")
                             if rule[k] is not None)
        members = ", ".join(cls["members"][:6]) + (" ..." if cls["size"] > 6 else "")
        say(f"class {cls['label']}: {_count(cls['size'], 'page')}; rule {shown} "
            f"(summed H {cls['rule_score']:.4f})", first="  ", rest="      ", width=width)
        if members:
            say(members, first="    ", rest="    ", width=width)


def _from_store(args: argparse.Namespace) -> tuple[Path, list[dict[str, Any]]]:
    """The store's path and its sites; none without opening (and so creating) a store that
    is not there, and a store named on the command line must be there."""
    from ..paths import data_dir
    from ..storage.sitestore import DEFAULT_FILE_NAME, SiteStore

    path = Path(args.store) if args.store else data_dir() / DEFAULT_FILE_NAME
    if not path.is_file():
        if args.store:
            raise CommandError(f"no site store at {path}")
        return path, []
    if args.store:
        from ..paths import not_sqlite

        problem = not_sqlite(path)
        if problem:  # opened, it was moved aside as damaged and a fresh store put there
            raise CommandError(f"{path} is not a site store ({problem}); it is left as it is")
    store = SiteStore(path)
    try:
        entries = []
        for row in store.sites():
            model = store.model_for(f"http://{row['site']}/")
            if model is None:
                entries.append({"site": row["site"], "pages": row["pages"],
                                "unclassed": row["pages"], "classes": []})
            else:
                entries.append(_model_dict(row["site"], model))
        return path, entries
    finally:
        store.close()


def run(args: argparse.Namespace) -> int:
    """Cluster the given pages and print classes and rules."""
    try:
        params = clustering.Params.model_validate(parse_params(args.params))
    except ValidationError as exc:
        print(f"blocksift: error: {params_message('clustering', clustering.Params, exc)}",
              file=sys.stderr)
        return 2
    except CommandError as exc:
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return 2
    if args.store is not None:
        try:
            store_path, entries = _from_store(args)
        except CommandError as exc:
            print(f"blocksift: error: {exc}", file=sys.stderr)
            return 2
        if not entries and not args.json:
            print(f"no sites learned yet: {store_path} does not exist" if not
                  store_path.exists() else f"no sites learned yet in {store_path}")
            return 0
    else:
        if not args.datasets and not args.files:
            print("blocksift: error: give --dataset PATH, HTML files or --store",
                  file=sys.stderr)
            return 2
        try:
            groups = _groups(args)
        except (FileNotFoundError, OSError, PageError, ValueError, CommandError) as exc:
            print(f"blocksift: error: {exc}", file=sys.stderr)
            return 2
        entries = []
        bar = None
        if want_progress(getattr(args, "progress", None)):  # a dev set takes a minute or more
            from tqdm import tqdm

            bar = tqdm(total=sum(map(len, groups.values())), desc="clustering", unit="page",
                       file=sys.stderr)
        for site in sorted(groups):
            keys = [key for key, _ in groups[site]]
            model = clustering.fit([page for _, page in groups[site]], params, keys)
            entries.append(_model_dict(site, model))
            if bar is not None:
                bar.update(len(keys))
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps({"params": params.model_dump(), "sites": entries}, indent=1))
    else:
        from ..terminal import terminal_width

        width = terminal_width()
        for entry in entries:
            _print_site(entry, width)
    return 0


def _count(number: int, one: str, many: str | None = None) -> str:
    """``1 page``, ``3 pages``"""
    return f"{number} {one if number == 1 else many or one + 's'}"

"""``blocksift extract``: run one algorithm on one page and print its main text or blocks."""

from __future__ import annotations

import argparse
import json
import sys
import time

from .common import add_algorithm_arguments, load_algorithm, parse_params, read_source, run_guarded


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "extract", help="extract main text and blocks from a file, URL or stdin",
        description="Run one algorithm on one page. Text output is the main text; json "
                    "output holds blocks with spans, ids or XPaths, stats and timing.")
    parser.add_argument("source", help="HTML file, http(s) URL, or - for stdin")
    add_algorithm_arguments(parser)
    parser.add_argument("--format", "-f", choices=("text", "json", "html", "markdown"),
                        default="text", help="output format (default %(default)s)")
    parser.add_argument("--url", help="the page's URL (resolves relative links; site rules)")
    parser.add_argument("--action", choices=("extract", "hide"), default="extract",
                        help="hide: print the hide plan the extension receives (the elements "
                             "to hide with kind and reason; --algo names the main-content "
                             "algorithm)")
    parser.set_defaults(run=run)


@run_guarded
def run(args: argparse.Namespace) -> int:
    from ..metadata import attach
    from ..page import Page

    module, params = load_algorithm(args.algo, parse_params(args.param))
    html, fetched_url = read_source(args.source)
    started = time.perf_counter()
    page = Page(html, url=args.url or fetched_url)
    model = module.load_model() if getattr(module, "MODEL", None) == "trained" else None
    result = module.extract(page, params, model=model)
    attach(page, result)
    if args.action == "hide":
        from ..actions.hide import hide_for

        plan = hide_for(page, result)
        if args.format == "json":
            json.dump(plan.model_dump(mode="json", by_alias=True), sys.stdout,
                      ensure_ascii=False, indent=2)
            print()
        else:
            print(f"{plan.page_kind} page: {len(plan.targets)} elements to hide")
            for target in plan.targets:
                where = target.element_id or target.xpath
                print(f"{target.kind:<8} {where}  {target.reason}")
        return 0
    elapsed = (time.perf_counter() - started) * 1000
    if result.status != "ok" and args.format != "json":
        print(f"blocksift: {args.algo}: {result.status}: {result.message}", file=sys.stderr)
    main = result.main
    if args.format == "json":
        data = result.model_dump(mode="json", by_alias=True)
        data["ms"] = round(elapsed, 2)
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif args.format == "html":
        if main is not None:
            from ..render_markdown import html_document

            print(html_document(main.title, main.html))
    elif args.format == "markdown":
        if main is not None:
            from ..render_markdown import to_markdown

            print(to_markdown(main.title, main.html))
    else:
        if main is not None and main.text:
            print(main.text)
    return 0 if result.status == "ok" else 1

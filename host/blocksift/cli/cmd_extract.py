"""``blocksift extract``: run one algorithm on one page and print its main text or blocks.

The page is parsed and extracted under the same per-page time and memory limits as
``batch`` and the native host (:mod:`.limits`): a page over either is a one-line error,
exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from .common import (
    add_algorithm_arguments,
    add_model_argument,
    load_algorithm,
    parse_params,
    read_source,
    resolve_model,
    run_guarded,
    seconds,
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "extract", help="extract main text and blocks from a file, URL or stdin",
        description="Run one algorithm on one page. Text output is the main text; json "
                    "output holds blocks with spans, ids or XPaths, stats and timing.")
    parser.add_argument("source", help="HTML file, http(s) URL, or - for stdin")
    add_algorithm_arguments(parser)
    parser.add_argument("--format", "-f", choices=("text", "json", "html", "markdown"),
                        default="text", metavar="FORMAT",
                        help="output format: text, json, html or markdown (default "
                             "%(default)s)")
    parser.add_argument("--url", help="the page's URL (resolves relative links; site rules and "
                                      "adaptation). A file or stdin without it is read under "
                                      "the address the page names for itself (the browser's "
                                      "'saved from' comment, <link rel=canonical>, og:url), "
                                      "if any; --url '' reads it without one")
    parser.add_argument("--action", choices=("extract", "hide"), default="extract",
                        help="hide: print the hide plan the extension receives (the elements "
                             "to hide with kind and reason; --algo names the main-content "
                             "algorithm)")
    add_model_argument(parser)
    parser.add_argument("--timeout", type=seconds, default=30.0, metavar="SECONDS",
                        help="time limit for the page; over it is a one-line error, exit 2 "
                             "(default %(default)s)")
    parser.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                        help="memory the page may add, in MiB; over it is a one-line error, "
                             "exit 2 (default %(default)s; 0: none)")
    parser.set_defaults(run=run)


@run_guarded
def run(args: argparse.Namespace) -> int:
    from .limits import run_limited

    module, params = load_algorithm(args.algo, parse_params(args.param))
    if args.timeout <= 0 or args.memory_limit < 0:
        print("blocksift: error: --timeout must be positive, --memory-limit >= 0",
              file=sys.stderr)
        return 2
    model_path = resolve_model(module, args.model)
    html, fetched_url = read_source(args.source)
    from ..terminal import terminal_width

    args.width = terminal_width()  # the child writes into a buffer, not to the terminal
    # the address note is for a person; asked here: the child's stderr is a buffer
    args.note_width = terminal_width(sys.stderr) if sys.stderr.isatty() else None
    return run_limited(lambda: _extract(args, module, params, html, fetched_url, model_path),
                       args.timeout, args.memory_limit or None)


def _extract(args: argparse.Namespace, module: Any, params: Any, html: str,
             fetched_url: str | None, model_path: str | None) -> int:
    """Parse, extract and print (in the limited child)."""
    from ..metadata import attach
    from ..page import Page

    started = time.perf_counter()
    page = Page(html, url=args.url or fetched_url)
    # --url '' asks for no address: none is looked for, and none is said to be missing
    url_from = "--url" if args.url is not None else "fetched" if fetched_url else None
    if args.url is None and fetched_url is None:
        # a saved page: read it as on its site, as the reader does there (nothing is fetched)
        from ..page_address import declared_address

        found = declared_address(page)
        if found is not None:
            page.url, url_from = found
    if model_path:
        model = module.load_model(model_path)
    else:
        model = module.load_model() if getattr(module, "MODEL", None) == "trained" else None
    result = module.extract(page, params, model=model)
    attach(page, result)
    if getattr(args, "note_width", None):
        _address_note(args.note_width, module, page.url, url_from, result)
        _repairs_note(args.note_width, page.repairs)
    if args.action == "hide":
        from ..actions.hide import hide_for

        plan = hide_for(page, result)
        if args.format == "json":
            data = plan.model_dump(mode="json", by_alias=True)
            # the address the plan was made under (its site's adaptation), as the reader's
            # JSON says it; the extension's plan has no such field: it knows its tab's
            data["url"], data["urlFrom"] = page.url, url_from
            data["repairs"] = page.repairs
            json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
            print()
        else:
            from ..terminal import say

            width = getattr(args, "width", None)  # a terminal's: reasons wrap under their indent
            say(f"{plan.page_kind} page: {len(plan.targets)} elements to hide"
                + (f" (only {plan.restrained_to}: {plan.restraint})"
                   if plan.restraint and plan.restrained_to
                   else f" (held back: {plan.restraint})" if plan.restraint else ""),
                width=width)
            for target in plan.targets:
                where = target.element_id or target.xpath
                say(f"{target.kind:<8} {where}  {target.reason}", rest=" " * 9, width=width)
        return 0
    elapsed = (time.perf_counter() - started) * 1000
    if result.status != "ok" and args.format != "json":
        print(f"blocksift: {args.algo}: {result.status}: {result.message}", file=sys.stderr)
    main = result.main
    if args.format == "json":
        data = result.model_dump(mode="json", by_alias=True)
        data["ms"] = round(elapsed, 2)
        # the address the page was read under, and where it came from ("--url", "fetched",
        # or the page's own: "saved from", "canonical", "og:url"); stage "site" and
        # stats.site_pages say a site's labeled pages adapted auto
        data["url"], data["urlFrom"] = page.url, url_from
        # what the parser's recovery changed in broken markup (empty for a sound page)
        data["repairs"] = page.repairs
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif args.format == "html":
        if main is not None:
            from ..render_markdown import html_document

            print(html_document(_reader_title(main), main.html, page.url))
    elif args.format == "markdown":
        if main is not None:
            from ..render_markdown import to_markdown

            print(to_markdown(_reader_title(main), main.html, page.url))
    else:
        if main is not None and main.text:
            print(main.text)
    return 0 if result.status == "ok" else 1


def _address_note(width: int, module: Any, url: str | None,
                  url_from: str | None, result: Any) -> None:
    """In a terminal where some site is adapted (labels saved or trained per site), one line
    on stderr: the address a saved page was read under, taken from the page itself, and
    whether labeled pages of its site adapted auto; or, for a page that names none, that it
    was read without one. With no site adapted it says nothing: every extract of a saved
    page would otherwise open with a note that changes nothing for the user. The address
    also made the reader HTML's links absolute, as ``--url`` does; ``--format json`` says
    it either way."""
    from ..page_address import SOURCES
    from ..terminal import say as say_wrapped

    def say(text: str) -> None:
        say_wrapped(text, width=width, stream=sys.stderr)

    auto = getattr(module, "NAME", "") == "auto"
    if url_from not in SOURCES:
        if url_from is None and auto and _adapted_sites():
            say("blocksift: the page names no address of its own: no site adaptation "
                "(--url URL reads it as that site's page)")
        return
    if not (auto and _adapted_sites()):
        return  # no site is adapted: the address changes nothing a person would ask about
    from ..algorithms.segmenter import adapt

    line = f"blocksift: read as {url}, from {SOURCES[url_from]}"
    site = adapt.site_key(url)
    prior = adapt.site_prior_for(url or "")
    pages = int(result.stats.get("site_pages", 0))
    if pages:
        line += f"; adapted to {site} by {_whose_pages(pages, result.stats.get('site_examples'))}"
    elif prior is not None and prior.pages:
        line += f"; {site}'s labeled pages match none of its blocks"
    else:
        line += f"; no labeled page of {site} adapts it"
    say(line + " (--url sets another)")


def _repairs_note(width: int, repairs: list[str]) -> None:
    """In a terminal, one line on stderr when the page's markup was broken and repaired
    before extraction: the output may then differ from what a strict reading shows, and a
    person comparing it with the page's source should know why."""
    if repairs:
        from ..terminal import say

        say("blocksift: repaired the page's broken markup: " + "; ".join(repairs),
            width=width, stream=sys.stderr)


def _whose_pages(pages: int, examples: float | None) -> str:
    """The site's labeled pages, split as the reader's note splits them: the user's saved
    examples and a dataset's (``site_examples`` absent: an older site file, unknown)."""
    def count(n: int, what: str) -> str:
        return f"{n} {what}{'s' if n != 1 else ''}"

    if examples is None or not 0 <= int(examples) <= pages:
        return count(pages, "labeled page")
    mine = int(examples)
    if mine == pages:
        return f"{count(pages, 'page')} you labeled"
    if not mine:
        return f"{count(pages, 'page')} of a dataset"
    return f"{count(mine, 'page')} you labeled and {pages - mine} from a dataset"


def _adapted_sites() -> bool:
    """Whether any site has an adaptation file (labels saved or trained per site)."""
    from ..algorithms.segmenter import adapt

    try:
        return any(adapt.sites_dir().glob("*.json"))
    except OSError:
        return False


def _reader_title(main: Any) -> str:
    """The title the reader view shows (extension/src/background.js): the metadata's, which
    weighs every title the page gives (:mod:`blocksift.titles`), else the algorithm's. The
    algorithm's alone named a product page "People who viewed this item also viewed", the
    first heading of the text it chose."""
    return (main.metadata.title if main.metadata is not None else "") or main.title or ""

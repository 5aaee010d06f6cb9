"""``blocksift eval``: score an algorithm on labeled pages (see docs/evaluation.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .common import (
    CommandError,
    add_algorithm_arguments,
    add_progress_arguments,
    at_least,
    dataset_path,
    load_algorithm,
    parse_params,
    run_guarded,
    share,
    want_progress,
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "eval", help="score an algorithm on labeled pages (precision, recall, F1, ms)",
        description="Token 4-gram shingle precision/recall/F1 and the wcxb word F1 over "
                    "labeled pages in the shared-datasets format, per page type when the set "
                    "has them, with its snippet check (docs/evaluation.md has the exact "
                    "metrics).")
    parser.add_argument("--dataset", "-d", dest="datasets", action="append", required=True,
                        metavar="PATH_OR_NAME",
                        help="dataset folder/file, or a name under $BLOCKSIFT_DATASETS; "
                             "repeatable (a set given twice is scored once)")
    add_algorithm_arguments(parser, several=True)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--per-page", action="store_true", help="with --json: per-page scores")
    parser.add_argument("--limit", type=at_least(1), default=None, metavar="N",
                        help="first N pages of each set")
    parser.add_argument("--out", type=Path, default=Path("out/eval"), metavar="DIR",
                        help="folder for CSV/PNG output (default %(default)s)")
    parser.add_argument("--sweep", action="store_true",
                        help="linkblocks: the papers' parameter sweeps (CSV + plots); a "
                             "--param c_t or d_t is held where the other is swept, a "
                             "--param distance runs that kind only")
    parser.add_argument("--cv", choices=("none", "intra", "inter"), default="none",
                        help="trained algorithms: cross-validation within or across sites")
    parser.add_argument("--folds", type=at_least(2), default=None, metavar="N",
                        help="folds of --cv intra (farsw, default 10) and of --action hide "
                             "--cv inter (2 to 10, default 10)")
    parser.add_argument("--phi-sweep", action="store_true",
                        help="farsw: sliding-window length 0..10 (plot like Fig. 8)")
    parser.add_argument("--train-fraction", type=share, default=None, metavar="SHARE",
                        help="site-learned algorithms (clustering): share of each site's pages "
                             "to learn on, above 0 and below 1 (default 0.5)")
    parser.add_argument("--action", choices=("extract", "hide"), default="extract",
                        help="hide: gold main text kept and clutter removed by hiding, "
                             "before (linkblocks) and after (the hide plan); --cv inter "
                             "cross-validates its thresholds across sites")
    add_progress_arguments(parser)
    parser.set_defaults(run=run)


@run_guarded
def run(args: argparse.Namespace) -> int:

    args.params = parse_params(args.param)
    args.progress = want_progress(args.progress)
    if args.per_page and not args.json:
        raise CommandError("--per-page goes with --json (the per-page scores are in the JSON)")
    _check_datasets(args.datasets)
    algorithms = args.algos or [args.algo]
    if len(algorithms) > 1:
        return run_plain(args, _check_several(args, algorithms))
    if args.action == "hide":
        from ..evaluation import hide

        for flag, given in (("--sweep", args.sweep), ("--phi-sweep", args.phi_sweep)):
            if given:  # ignored: the hide table came out as without it
                raise CommandError(f"--action hide takes no {flag} (an experiment of "
                                   f"{'linkblocks' if flag == '--sweep' else 'farsw'})")
        _check_hide_split(args)

        if args.params:  # it would be ignored: each algorithm runs as the host's hide runs it
            raise CommandError("--action hide takes no --param: it scores each algorithm with "
                               "the settings the host's hide uses")
        try:
            if args.cv == "none" or args.json:
                return hide.run(args)
            return _hide_cross_validated(args)
        except hide.HideEvalError as exc:
            raise CommandError(str(exc)) from None
    module, _ = load_algorithm(args.algo, args.params)  # before any page is read
    kind = getattr(module, "MODEL", None)
    _check_mode(args, kind)
    if args.sweep or kind == "site" or (kind == "trained" and (args.cv != "none"
                                                               or args.phi_sweep)):
        _check_out(args.out)  # these write there once every page is scored
    if args.sweep:
        from ..evaluation import sweep

        return sweep.run(args)
    if kind == "site":
        from ..evaluation import sitesplit

        return sitesplit.run(args)
    if kind == "trained" and (args.cv != "none" or args.phi_sweep):
        from ..evaluation import crossval

        return crossval.run(args)
    return run_plain(args, [(args.algo, module)])


def _check_several(args: argparse.Namespace, names: list[str]) -> list[tuple[str, Any]]:
    """Several ``--algo`` are scored side by side in one table; an experiment (a sweep,
    a cross-validation, hide's evaluation, a per-site split) runs one algorithm."""
    plain = "several --algo are compared in a plain eval only"
    for flag, given in (("--action hide", args.action == "hide"), ("--sweep", args.sweep),
                        ("--phi-sweep", args.phi_sweep), ("--cv", args.cv != "none")):
        if given:
            raise CommandError(f"{plain}; {flag} runs one algorithm at a time")
    modules = []
    for name in names:
        module, _ = load_algorithm(name, args.params)
        if getattr(module, "MODEL", None) == "site":
            raise CommandError(f"{plain}; {name} learns per site: eval it alone")
        modules.append((name, module))
    for flag, given in (("--folds", args.folds is not None),
                        ("--train-fraction", args.train_fraction is not None)):
        if given:
            raise CommandError(f"{plain}; {flag} goes with one algorithm's experiment")
    return modules


def _check_mode(args: argparse.Namespace, kind: str | None) -> None:
    """An experiment asked of an algorithm that has none is a usage error: `--cv inter` or
    `--phi-sweep` on linkblocks printed the plain table as if they had been run."""
    if args.sweep and args.algo != "linkblocks":
        raise CommandError(f"--sweep is the linkblocks experiment (the papers' parameter "
                           f"sweeps); got --algo {args.algo}")
    if args.phi_sweep and kind != "trained":
        raise CommandError(f"--phi-sweep is farsw's sliding-window experiment; got --algo "
                           f"{args.algo}")
    if args.cv != "none" and kind != "trained":
        raise CommandError(f"--cv cross-validates what an algorithm learns from the pages "
                           f"(farsw; with --action hide, hide's thresholds); {args.algo} "
                           + ("learns per site: --train-fraction sets its split"
                              if kind == "site" else "learns nothing from them"))
    if args.sweep and (args.cv != "none" or args.phi_sweep):
        raise CommandError("--sweep runs alone, without --cv or --phi-sweep")
    # both were taken and ignored where they do not apply: the figures came out as without
    if args.train_fraction is not None and kind != "site":
        raise CommandError(f"--train-fraction is the share of each site's pages a site-learned "
                           f"algorithm (clustering) learns on; {args.algo} does not learn per "
                           "site")
    if args.train_fraction is None:
        args.train_fraction = 0.5
    if args.folds is not None and not (kind == "trained" and args.cv == "intra"):
        raise CommandError("--folds splits each site's pages for --cv intra (farsw) or the "
                           "sites for --action hide --cv inter; "
                           + ("--cv inter leaves out one site at a time"
                              if args.cv == "inter" else "add --cv intra"
                              if kind == "trained" else
                              f"{args.algo} splits each site's pages by --train-fraction"
                              if kind == "site" else
                              f"{args.algo} runs no cross-validation"))
    if args.folds is None:
        args.folds = 10


def _hide_cross_validated(args: argparse.Namespace) -> int:
    """``eval --action hide --cv inter`` in a person's terminal: the hide evaluation's own
    JSON, printed as its table and a table of the thresholds each fold chose, both fitted to
    the terminal (whole when piped). A line per fold printed the chosen settings as a Python
    dict, 118 columns, wrapped in an 80-column terminal."""
    import contextlib
    import io

    from ..evaluation import hide
    from ..terminal import Column, print_table, say, terminal_width

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = hide.run(argparse.Namespace(**{**vars(args), "json": True}))
    if code:
        return code
    result = json.loads(buffer.getvalue())
    rows, folds = result["hide"], result["cv"]["folds"]
    print_table([Column("dataset", [r["dataset"] for r in rows], left=True, key=True),
                 Column("hider", [r["hider"] for r in rows], left=True, key=True),
                 Column("pages", [str(r["pages"]) for r in rows])]
                + [Column(title, [f"{r[key]:.3f}" for r in rows])
                   for key, title in hide.COLUMNS])
    print()
    say(f"thresholds chosen per fold (sites of all sets pooled, {len(folds)} folds):",
        width=terminal_width())
    names = hide.varied()  # every setting the folds choose among
    print_table([Column("fold", [str(f["fold"]) for f in folds], key=True)]
                + [Column(name, [str(f["params"].get(name, "-")) for f in folds])
                   for name in names]
                + [Column("held-out pages", [str(f["held_out"]) for f in folds])])
    return 0


def _check_hide_split(args: argparse.Namespace) -> None:
    """What ``--action hide`` cross-validates: hide's thresholds across sites, in 2 to 10
    folds of sites (--cv intra ran the same as inter, --folds 20 ran 10, and --folds or
    --train-fraction without --cv were ignored)."""
    if args.train_fraction is not None:
        raise CommandError("--action hide takes no --train-fraction (the share of each site's "
                           "pages clustering learns on)")
    if args.cv == "intra":
        raise CommandError("--action hide cross-validates its thresholds across sites only: "
                           "--cv inter")
    if args.folds is not None and args.cv == "none":
        raise CommandError("--folds goes with --cv inter: --action hide alone runs no "
                           "cross-validation")
    if args.folds is not None and args.folds > 10:
        raise CommandError(f"--action hide --cv inter takes --folds 2 to 10; got {args.folds}")
    if args.folds is None:
        args.folds = 10


def _check_datasets(names: list[str]) -> None:
    """Every ``--dataset`` found before any is scored (a misspelled last one ended the run
    after all the others had been scored, with none of it printed); a set named twice (by
    name or path) is kept once, in ``names``: it was scored twice, two equal rows."""
    seen: set[Path] = set()
    kept = []
    for name in names:
        path = dataset_path(name).resolve()
        if path not in seen:
            seen.add(path)
            kept.append(name)
    names[:] = kept


def _check_out(out: Path) -> None:
    """``--out`` made a folder before any page is scored (a file in its place, or a folder
    that cannot be made, failed only once the work was done)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"--out {out}: cannot write there ({exc.strerror or exc})") from None


def run_plain(args: argparse.Namespace, modules: list[tuple[str, Any]]) -> int:
    """Each algorithm of ``modules`` (name, module) scored on each dataset, a row each."""
    from ..evaluation.datasets import count_pages, iter_pages, resolve
    from ..evaluation.runner import algorithm_extractor, dataset_label, evaluate

    extractors = []
    for algo, module in modules:
        model = module.load_model() if getattr(module, "MODEL", None) == "trained" else None
        # params checked in run
        extractors.append((algo, algorithm_extractor(algo, args.params, model)))
    reports = []
    stop = StopOnCtrlC()
    cut_short = ""
    with stop:
        for name in args.datasets:
            try:
                path = resolve(name)
            except FileNotFoundError as exc:
                raise CommandError(str(exc)) from None
            label = dataset_label(path)
            for algo, extractor in extractors:
                bar = None
                if args.progress:
                    from tqdm import tqdm

                    bar = tqdm(desc=label if len(extractors) == 1 else f"{label} {algo}",
                               unit="page", file=sys.stderr,
                               total=count_pages(path, args.limit))
                report = evaluate(stop.until_pressed(iter_pages(path, args.limit)), extractor,
                                  dataset=label, algorithm=algo,
                                  progress=None if bar is None else bar.update)
                if bar is not None:  # a tqdm without a total has no truth value
                    bar.close()
                if stop.pressed:
                    if report.pages:
                        reports.append(report)
                    total = bar.total if bar is not None else count_pages(path, args.limit)
                    of = label if len(extractors) == 1 else f"{label} by {algo}"
                    cut_short = (f"the scores above are of the first {len(report.pages)} of "
                                 f"{total} pages of {of}" if report.pages else
                                 f"no page of {of} was scored")
                    break
                reports.append(report)
            if stop.pressed:
                break
    for report in reports:
        warn_about_gold(report)
    scored = [r for r in reports if r.scorable]
    if scored and args.json:
        json.dump([r.as_dict(with_pages=args.per_page) for r in scored], sys.stdout, indent=2)
        print()
    elif scored:
        print_table(scored)
    for report in reports:
        if not report.scorable:
            print(f"blocksift: error: {report.dataset}: nothing to score: "
                  + ("no pages" if not report.pages else
                     f"none of its {len(report.pages)} pages has a `gold` text or snippets "
                     "(`snippets_with` / `snippets_without`)"), file=sys.stderr)
    if stop.pressed:
        from .main import EXIT_INTERRUPTED

        if not scored:
            cut_short = "no page was scored"
        print(f"blocksift: interrupted: {cut_short}", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0 if len(scored) == len(reports) else 2


class StopOnCtrlC:
    """The first Ctrl-C ends a run after the page being scored, so that the scores of the
    pages before are printed (a long evaluation cut short printed nothing); a second one
    stops at once. Only where Ctrl-C is at Python's default (not in a background job that
    ignores it, nor outside the main thread)."""

    def __init__(self) -> None:
        self.pressed = False
        self._previous: object = None

    def __enter__(self) -> StopOnCtrlC:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def _handle(self, signum: int, frame: object) -> None:
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True

    def until_pressed(self, pages: Iterable[Any]) -> Iterator[Any]:
        for page in pages:
            if self.pressed:
                return
            yield page


def warn_about_gold(report) -> None:
    """Say on stderr when text metrics cover only part of a set, or none of it."""
    missing = len(report.pages) - report.gold_pages
    if not missing or not report.scorable:
        return
    if not report.gold_pages:
        print(f"blocksift: warning: {report.dataset}: no page has a `gold` text; P, R, F1 and "
              f"word F1 are not scored, only the snippets of {report.snippet_pages} page(s)",
              file=sys.stderr)
    else:
        print(f"blocksift: warning: {report.dataset}: {missing} of {len(report.pages)} pages "
              "have no `gold` text; P, R, F1 and word F1 cover the other "
              f"{report.gold_pages}", file=sys.stderr)


def print_table(reports: list) -> None:
    """One row per dataset; in a terminal narrower than the table the columns are stacked
    in blocks that repeat the dataset and algorithm (piped, the table is whole)."""
    from ..terminal import Column, figure
    from ..terminal import print_table as show

    columns = [Column("dataset", left=True, key=True), Column("algorithm", left=True, key=True),
               Column("pages")] + [Column(title) for title in (
                   "P", "R", "F1", "pageF1", "wordF1", "snip+", "snip-", "empty", "fail",
                   "med ms", "p95 ms")] + [Column("statuses", left=True, gap=2)]
    for r in reports:
        s, overall = r.summary, r.overall
        text = r.gold_pages > 0  # without any gold, text scores are "-", not 0
        cells = [r.dataset, r.algorithm, str(s.pages), figure(s.precision, text),
                 figure(s.recall, text), figure(s.f1, text), figure(s.mean_page_f1, text),
                 figure(overall.words.f1, text), figure(overall.snippets_with),
                 figure(overall.snippets_without), str(s.empty_outputs), str(r.failures),
                 f"{r.median_ms:.1f}", f"{r.p95_ms:.1f}",
                 ", ".join(f"{k}={v}" for k, v in sorted(r.statuses.items()))]
        for column, cell in zip(columns, cells):
            column.cells.append(cell)
    show(columns)
    for r in reports:
        groups = r.by_page_type()
        if groups:
            print_page_types(r.dataset, {"all": r.overall, **groups})


def print_page_types(dataset: str, groups: dict) -> None:
    """Word F1 (the wcxb metric) beside shingle F1, per page type."""
    from ..terminal import Column, figure
    from ..terminal import print_table as show

    columns = [Column(f"{dataset} by page type", left=True, key=True), Column("pages")] + [
        Column(title) for title in ("wordP", "wordR", "wordF1", "F1", "snip+", "snip-",
                                    "empty")]
    for name, g in groups.items():
        text = g.gold_pages > 0
        cells = [name, str(g.pages), figure(g.words.precision, text),
                 figure(g.words.recall, text), figure(g.words.f1, text),
                 figure(g.shingle.f1, text), figure(g.snippets_with),
                 figure(g.snippets_without), str(g.words.empty_outputs)]
        for column, cell in zip(columns, cells):
            column.cells.append(cell)
    print()
    show(columns)

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

from .common import (
    CommandError,
    add_progress_arguments,
    at_least,
    dataset_path,
    params_message,
    parse_params,
)

#: Algorithms that can be trained, name -> module.
TRAINABLE = {"farsw": "blocksift.algorithms.farsw", "auto": "blocksift.algorithms.auto"}
#: ``--min-site-pages`` by default. auto: 1, as in the browser, where the first example saved
#: of a site adapts it (with 2, a site with one page was left out without a word of why).
#: farsw: 2, its rules being learned from what a site's pages share.
MIN_SITE_PAGES = {"auto": 1, "farsw": 2}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``train`` on the main parser's subparsers."""
    parser = subparsers.add_parser(
        "train", help="learn a trained algorithm's model from labeled pages",
        description="Learn a model from labeled pages: auto's segmenter (trees in a .npz "
                    "file; needs the 'train' extra) or FAR-SW's rules (a JSON file).")
    parser.add_argument("algorithm", choices=sorted(TRAINABLE), help="algorithm to train")
    parser.add_argument("--dataset", "-d", action="append", dest="datasets", required=True,
                        metavar="PATH_OR_NAME", help="labeled pages: a dataset name, folder "
                        "or .jsonl(.gz) file; repeat to combine")
    parser.add_argument("--per-site", action="store_true",
                        help="farsw: also learn one rule set per site; auto: only adapt auto "
                             "to each site of the pages (files in the user's data dir)")
    parser.add_argument("--min-site-pages", type=at_least(1), default=None, metavar="N",
                        help="pages a site needs with --per-site: auto, for its adaptation "
                             f"file (default {MIN_SITE_PAGES['auto']}: one saved example "
                             "adapts its site in the browser too); farsw, for its own rules "
                             f"(default {MIN_SITE_PAGES['farsw']})")
    parser.add_argument("--out", type=Path, default=None, metavar="PATH",
                        help="model file to write (default: the user's model path); "
                             "auto --per-site: the folder of the sites' files (default: "
                             "the user's auto-sites folder)")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="KEY=VALUE",
                        help="farsw: training param, repeatable (alpha, support, significance, "
                             "line_mode, ...)")
    parser.add_argument("--limit", type=at_least(1), default=None, metavar="N",
                        help="first N pages of each dataset")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="auto: random seed (the same pages and seed give the same "
                             "model; default 0)")
    parser.add_argument("--rounds", type=at_least(1), default=None, metavar="N",
                        help="auto: boosting rounds (default: the shipped model's)")
    parser.add_argument("--stack-folds", type=int, default=None, metavar="N",
                        help="auto: domain-grouped folds for the second, stacked model's "
                        "training probabilities (0: no second model; default: the shipped "
                        "model's)")
    parser.add_argument("--lengthen", type=float, default=None, metavar="SHARE",
                        help="auto: share of the pages also trained on in a lengthened copy "
                        "(hundreds more paragraphs of their own sentences), so that long "
                        "documents stay whole (0: none; default: the shipped model's)")
    parser.add_argument("--without", default="", metavar="GROUPS",
                        help="auto: signal groups the model does without, comma-separated "
                        "(farsw, rules, linkblocks, linkdensity, clustering): not computed "
                        "when it runs, so it is faster; 'farsw,rules' is the shipped 'fast' "
                        "model, 'farsw,linkblocks,linkdensity,rules' the shipped 'lite' one")
    parser.add_argument("--json", action="store_true",
                        help="farsw: print the model JSON instead of writing it (also "
                             "written with --out)")
    add_progress_arguments(parser)
    return parser


def _progress_bar(args: argparse.Namespace, desc: str, paths: list[Path],
                  unit: str = "page") -> Any:
    """A counter on stderr (tqdm) when asked, or by default in a terminal, with the pages of
    ``paths`` as its total (none without paths); else None."""
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if not show:
        return None
    from tqdm import tqdm

    from ..evaluation.datasets import pages_total

    return tqdm(file=sys.stderr, unit=unit, desc=desc,
                total=pages_total(paths, args.limit) if paths else None)


#: The model file each algorithm's training writes by default (in the user's data dir).
MODEL_FILE = {"farsw": "farsw.json", "auto": "auto-segmenter.npz"}


def _out_is_unusable(args: argparse.Namespace) -> bool:
    """``--out`` cannot take the model: said before training, not once it is over (as
    '.../models.tmp: Is a directory' for a folder named where a file is meant)."""
    import os

    if args.out is None:
        return False
    # auto --per-site writes a file per site into a folder; farsw --per-site, one model file
    into_folder = args.per_site and args.algorithm == "auto"
    if args.out.is_dir() and not into_folder:
        print(f"blocksift: error: --out {args.out} is a folder; give the model file's name, "
              f"e.g. {args.out / MODEL_FILE[args.algorithm]}", file=sys.stderr)
        return True
    if into_folder and not args.out.is_dir() and args.out.suffix in (".npz", ".json"):
        # a model file's name: it became a folder of that name holding the sites' files
        print(f"blocksift: error: --out {args.out}: train auto --per-site writes one file per "
              "site into a folder; give the folder's name", file=sys.stderr)
        return True
    if args.out.is_file():
        # 'train farsw -d pages.jsonl --out pages.jsonl' replaced the labeled pages by the
        # model, exit 0
        from ..labeled import resolve

        for name in args.datasets:
            try:
                same = os.path.samefile(resolve(name), args.out)
            except OSError:  # not found (said when the pages are read), or unreadable
                continue
            if same:
                print(f"blocksift: error: --out {args.out} is the labeled pages (--dataset); "
                      "writing the model there would replace them; give another file",
                      file=sys.stderr)
                return True
    folder = args.out if into_folder else args.out.parent
    existing = next(p for p in (folder, *folder.parents) if p.exists() or p == p.parent)
    why = (f"{existing} is a file, not a folder" if not existing.is_dir() else
           f"{existing} is not writable" if not os.access(existing, os.W_OK | os.X_OK) else "")
    if why:
        print(f"blocksift: error: --out {args.out}: cannot write there ({why})",
              file=sys.stderr)
    return bool(why)


def run(args: argparse.Namespace) -> int:
    """Train, write the model, print the rules; 0 on success, 2 on bad input."""
    import importlib

    if _out_is_unusable(args):
        return 2
    if args.min_site_pages is None:
        args.min_site_pages = MIN_SITE_PAGES[args.algorithm]
    if args.algorithm == "auto":
        if args.seed is None:
            args.seed = 0
        return run_auto(args)
    auto_only = [flag for flag, value in (
        ("--seed", args.seed), ("--rounds", args.rounds), ("--stack-folds", args.stack_folds),
        ("--lengthen", args.lengthen), ("--without", args.without or None)) if value is not None]
    if auto_only:  # they were taken and ignored: the rules came out as without them
        print(f"blocksift: error: train farsw takes no {', '.join(auto_only)} (auto's trees "
              "only; farsw's training settings are --param, see `blocksift algorithms farsw`)",
              file=sys.stderr)
        return 2

    from ..evaluation.datasets import iter_pages

    module = importlib.import_module(TRAINABLE[args.algorithm])
    from pydantic import ValidationError

    try:
        params = module.Params.model_validate(parse_params(args.param))
    except CommandError as exc:
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return 2
    except ValidationError as exc:  # one line, as every usage error
        print(f"blocksift: error: {params_message(args.algorithm, module.Params, exc)}",
              file=sys.stderr)
        return 2
    try:
        paths = [dataset_path(name) for name in args.datasets]
    except CommandError as exc:
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return 2
    bar = _progress_bar(args, "training", paths)
    tick = bar.update if bar is not None else None

    seen = {"pages": 0, "gold": 0}

    def pages() -> Any:
        for path in paths:
            for page in iter_pages(path, limit=args.limit):
                seen["pages"] += 1
                seen["gold"] += bool((page.gold or "").strip())
                yield page

    description = ", ".join(
        f"{Path(name).name}{'' if args.limit is None else f' (first {args.limit})'}"
        for name in args.datasets)
    try:
        model = module.train(pages(), params, per_site=args.per_site, description=description,
                             min_site_pages=args.min_site_pages, progress=tick)
    except module.TrainingError as exc:
        if not seen["gold"]:  # unusable input, not a negative answer
            print(f"blocksift: error: {_nothing_to_learn(args.datasets, seen['pages'])}",
                  file=sys.stderr)
            return 2
        print(f"blocksift: error: training failed: {exc}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, OSError) as exc:  # unreadable or malformed dataset rows
        print(f"blocksift: error: cannot read the training pages: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
    if args.json:  # printed instead of written: the user's model stays as it is
        if args.out is not None:
            module.save_model(model, args.out)
        print(model.to_json(), end="")
        return 0
    out = args.out
    if out is None:
        from ..paths import model_path

        out = model_path(args.algorithm)
    written = module.save_model(model, out)
    from ..terminal import say, terminal_width

    width = terminal_width()  # in a terminal a long line (the frequent regions, 100 columns
    for line in module.format_rules(model).splitlines():  # on a dev set) wraps under its
        indent = line[:len(line) - len(line.lstrip())]  # indent; piped, a line each
        say(line.lstrip(), first=indent, rest=indent + "    ", width=width)
    print(f"model: {written} ({model.training.pages} pages, sha256 "
          f"{model.training.sha256[:12]})")
    return 0


def run_auto(args: argparse.Namespace) -> int:
    """``train auto``: the segmenter's trees from labeled pages (needs the ``train`` extra)."""
    from ..evaluation.runner import dataset_label

    try:
        from .. import auto_training
    except ImportError as exc:  # lightgbm / scikit-learn missing
        print("blocksift: error: train auto needs the 'train' extra "
              f"(pip install 'blocksift[train]'): {exc}", file=sys.stderr)
        return 2
    try:
        import lightgbm  # noqa: F401
        import sklearn  # noqa: F401
    except ImportError as exc:
        print("blocksift: error: train auto needs the 'train' extra "
              f"(pip install 'blocksift[train]'): {exc}", file=sys.stderr)
        return 2
    if args.param:
        print("blocksift: error: train auto takes no --param (use --seed, --rounds)",
              file=sys.stderr)
        return 2
    if args.json:  # its model is arrays of trees: a .npz file, never printed
        print("blocksift: error: train auto writes a .npz model file (--out); --json is for farsw",
              file=sys.stderr)
        return 2
    try:
        paths = [dataset_path(name) for name in args.datasets]
    except CommandError as exc:
        print(f"blocksift: error: {exc}", file=sys.stderr)
        return 2
    if args.per_site:
        return _auto_sites(args, paths)
    from ..algorithms.segmenter import trees
    from ..labeled import iter_records

    share = auto_training.LENGTHEN_SHARE if args.lengthen is None else args.lengthen
    if not 0 <= share <= 1:
        print("blocksift: error: --lengthen takes a share between 0 and 1", file=sys.stderr)
        return 2
    from ..algorithms.segmenter.features import PAPER_GROUPS

    if args.stack_folds is not None and not (args.stack_folds == 0 or args.stack_folds >= 2):
        print("blocksift: error: --stack-folds takes 0 (no second model) or 2 or more folds",
              file=sys.stderr)
        return 2
    without = tuple(sorted({g.strip() for g in args.without.split(",") if g.strip()}))
    unknown = [g for g in without if g not in PAPER_GROUPS]
    if unknown:
        print(f"blocksift: error: --without: unknown signal group {unknown[0]!r}; choose from "
              f"{', '.join(PAPER_GROUPS)}", file=sys.stderr)
        return 2
    samples = []
    lengthened = pages_seen = 0
    bar = _progress_bar(args, "features", paths)
    try:
        for path in paths:
            dataset = dataset_label(path)
            for record in iter_records(path, limit=args.limit):
                if record.get("gold") is not None and record.get("html"):
                    samples.append(auto_training.make_sample(record, dataset))
                    longer = auto_training.training_lengthened(record, dataset, args.seed,
                                                               share)
                    if longer is not None:
                        samples.append(longer)
                        lengthened += 1
                pages_seen += 1
                if bar is not None:  # a page without gold is a page of the total all the same
                    bar.set_postfix(lengthened=lengthened, refresh=False)
                    bar.update()
    except (ValueError, KeyError, OSError) as exc:
        print(f"blocksift: error: cannot read the training pages: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
    if len(samples) - lengthened < 2:  # unusable input: exit 2 as a file without pages
        labeled = len(samples) - lengthened
        print("blocksift: error: " + (_nothing_to_learn(args.datasets, pages_seen) if not labeled
              else f"training needs at least 2 pages with a `gold` text and HTML; "
                   f"{', '.join(args.datasets)} has 1"), file=sys.stderr)
        return 2
    rounds = args.rounds or auto_training.DEFAULT_ROUNDS
    # the trees take minutes on the dev sets: a bar over the boosting rounds of every model
    trees_bar = _progress_bar(args, "trees", [], unit="round")

    def rounds_done(done: int, total: int) -> None:
        trees_bar.total = total
        trees_bar.update(done - trees_bar.n)

    try:
        ensembles, meta = auto_training.train_model(
            samples, seed=args.seed, rounds=rounds, threshold=auto_training.DEFAULT_THRESHOLD,
            stack_folds=(auto_training.DEFAULT_STACK_FOLDS if args.stack_folds is None
                         else max(args.stack_folds, 0)),
            meta={"lengthen_share": share}, without=without,
            progress=None if trees_bar is None else rounds_done)
    finally:
        if trees_bar is not None:
            trees_bar.close()
    out = args.out
    if out is None:
        from ..paths import data_dir

        out = data_dir() / "models" / MODEL_FILE["auto"]
    written = trees.save(out, ensembles, meta)
    print(f"model: {written} ({meta['pages']} pages and {meta['lengthened_pages']} lengthened "
          f"copies, {meta['blocks']} blocks, "
          f"{written.stat().st_size / 1e6:.2f} MB)")
    return 0


def _auto_sites(args: argparse.Namespace, paths: list[Path]) -> int:
    """:func:`_adapt_sites`, and the lock files of the sites' files taken away when it ends
    (done, failed or interrupted): one was left beside every site's file. A lock another
    process holds stays (:mod:`blocksift.storage.locks`)."""
    from ..algorithms.segmenter import adapt
    from ..storage.locks import remove_idle_locks

    sites: set[str] = set()
    try:
        return _adapt_sites(args, paths, sites)
    finally:
        directory = args.out or adapt.sites_dir()
        # in the user's own folder of sites' files every lock goes (an examples change
        # adapts sites too); in one --out names, those of the sites written alone
        own = directory.resolve() == adapt.sites_dir().resolve()
        remove_idle_locks(directory, None if own else sites)


def _adapt_sites(args: argparse.Namespace, paths: list[Path], touched: set[str]) -> int:
    """``train auto --per-site``: each site's labeled pages adapt auto on that site
    (``touched``: the sites whose files it writes, each added before its file is).

    A site's file is counted again from the dataset's pages of that site and the examples
    saved for it (a page in both counted once, as saved): the file replaces the one there
    was, and a saved example's counts were in that one. Written over by the dataset's pages
    alone, the saved examples stopped adapting their site, and deleting one afterwards took
    counts it had never put in out of the dataset's (its last delete took the file)."""
    from ..algorithms.segmenter import adapt
    from ..labeled import iter_records, record_address
    from ..page import Page
    from ..storage.examples import page_key

    by_site: dict[str, list[tuple[Any, str]]] = {}
    keys: dict[str, set[str]] = {}
    seen = 0
    #: where-from of each page read under the address it names for itself (no "url"), and
    #: how many pages were left out for want of an address or of a gold text
    own_address: list[str] = []
    skipped = {"address": 0, "gold": 0}
    bar = _progress_bar(args, "reading", paths)
    try:
        for path in paths:
            for record in iter_records(path, limit=args.limit):
                seen += 1
                if bar is not None:
                    bar.update()
                # an empty gold is a label, "this page has no main text" (labeled.py), as
                # `examples import` and a saved example take it: counted, every block not
                # main. Only a page without one (or without HTML) is no labeled page
                if not (record.get("html") and isinstance(record.get("gold"), str)):
                    skipped["gold"] += 1
                    continue
                url = record.get("url")
                # a page without a "url" is read under the address it names for itself, as
                # `extract` reads a saved page
                page = Page(record["html"], url=url if adapt.site_key(url) else None)
                url, source = record_address(record, page)
                site = adapt.site_key(url)
                if not site:
                    skipped["address"] += 1
                    continue
                if source != "url":
                    page.url = url
                    own_address.append(source or "")
                by_site.setdefault(site, []).append((page, record["gold"]))
                keys.setdefault(site, set()).add(page_key(url) or "")
    except (ValueError, KeyError, OSError) as exc:
        print(f"blocksift: error: cannot read the training pages: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
    _say_addresses(own_address, skipped)
    if not seen:  # an empty file said 'no site has 2 labeled pages', exit 1
        print(f"blocksift: error: {_nothing_to_learn(args.datasets, 0)}", file=sys.stderr)
        return 2
    directory = args.out or adapt.sites_dir()
    saved, replayed = (_saved_examples(set(by_site))
                       if directory.resolve() == adapt.sites_dir().resolve() else ({}, {}))
    chosen = {}
    for site, pages in sorted(by_site.items()):
        own = saved.get(site, [])
        if own:  # the saved label of a page the dataset holds too is the one counted
            ours = {key for _, _, key in own}
            pages = [(page, gold) for (page, gold), key in zip(pages, _keys_of(pages))
                     if key not in ours]
        mine = [(Page(html, url=url), gold) for (html, url), gold, _ in own]
        if len(pages) + len(mine) >= args.min_site_pages:
            chosen[site] = (pages, mine, own)
    written = 0
    # the blocks of every page are found and counted here: most of the time, on a large set
    bar = _progress_bar(args, "counting", [])
    if bar is not None:
        bar.total = sum(len(pages) + len(mine) for pages, mine, _ in chosen.values())
    try:
        for site, (pages, mine, own) in chosen.items():
            # the saved examples counted as such, so the file says how many pages are the
            # user's
            prior = adapt.learn(site, pages, examples=mine,
                                progress=bar.update if bar is not None else None)
            if own or replayed.get(site):
                # changes already counted in (the old file's) or not yet (still journaled)
                # are in these counts: never counted again
                old = adapt.read_site_file(directory / f"{site}.json")
                prior.changes = [*(old.changes if old else []), *replayed.get(site, [])]
            touched.add(site)
            path = adapt.save(prior, directory)  # the old file or the new one, never half
            # counted as soon as it is saved: a Ctrl-C while its line is printed (a pty's
            # write can wait) said "0 of 400 sites adapted" beside the site's file
            written += 1
            note = f" ({len(own)} of them your saved examples)" if own else ""
            total = len(pages) + len(mine)
            count = f"{total} page" + ("s" if total != 1 else "")
            line = f"{site}: {count}{note} -> {path}"
            if bar is not None:
                bar.write(line, file=sys.stdout)
            else:
                print(line)
    except KeyboardInterrupt:  # it said only 'interrupted': which sites are done?
        if bar is not None:
            bar.close()
        from .main import EXIT_INTERRUPTED

        sites = len(chosen)
        print(f"blocksift: interrupted: {written} of {sites} site{'s' if sites != 1 else ''} "
              f"adapted (in {directory}); the others are as they were, and the same "
              "command adapts them all", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception:  # a file that cannot be written, a page that breaks the count
        # said only the error: which sites were written before it? (the error line follows)
        if bar is not None:
            bar.close()  # drawn again under the error line, else
        sites = len(chosen)
        print(f"blocksift: {written} of {sites} site{'s' if sites != 1 else ''} adapted (in "
              f"{directory}) before {site} failed; the others are as they were",
              file=sys.stderr)
        raise
    if bar is not None:
        bar.close()
    if not written:
        need = (f"{args.min_site_pages} labeled pages" if args.min_site_pages > 1
                else "a labeled page")
        print(f"blocksift: error: no site has {need} with a URL", file=sys.stderr)
        return 1
    return 0


def _say_addresses(own_address: list[str], skipped: dict[str, int]) -> None:
    """On stderr: how many pages were read under the address they name for themselves, and
    how many were left out and why (a page without a "url" was left out without a word)."""
    from .common import NO_ADDRESS, _count, note, own_address_said

    if own_address:
        note(f"blocksift: {own_address_said(own_address, 'page')}")
    why = [f"{_count(skipped['address'], 'page')}: {NO_ADDRESS}" if skipped["address"]
           else "",
           f"{_count(skipped['gold'], 'page')}: no \"gold\" text (or no HTML)"
           if skipped["gold"] else ""]
    if any(why):
        note(f"blocksift: skipped {'; '.join(filter(None, why))}")


def _keys_of(pages: list[tuple[Any, str]]) -> list[str]:
    from ..storage.examples import page_key

    return [page_key(page.url) or "" for page, _ in pages]


def _saved_examples(sites: set[str]) -> tuple[dict[str, list[Any]], dict[str, list[str]]]:
    """The examples saved for ``sites`` (((html, url), main text, page key) each) and, per
    site, the ids of its adaptation changes still journaled (their examples are counted
    here already). Nothing when there is no examples database; a warning when it cannot be
    read (the sites are then counted from the dataset alone, as before)."""
    import sqlite3

    from ..storage.examples import ExampleStore, default_path, page_key, site_of

    path = default_path()
    if not path.exists():
        return {}, {}
    saved: dict[str, list[Any]] = {}
    replayed: dict[str, list[str]] = {}
    try:
        with ExampleStore(path) as store:
            try:
                store.settle()  # a change a killed host left half done goes in first
            except OSError:
                pass  # the changes stay journaled: named in the file below, never replayed
            for change, url in store.pending_changes():
                if site_of(url) in sites:
                    replayed.setdefault(site_of(url) or "", []).append(change)
            for example in store.all():
                if example.site in sites and example.html:  # as a save counts it, any text
                    saved.setdefault(example.site, []).append(
                        ((example.html, example.url), example.main_text,
                         page_key(example.url) or ""))
    except (sqlite3.Error, RuntimeError) as exc:
        print(f"blocksift: warning: the examples database {path} could not be read ({exc}); "
              "the sites are counted from the dataset's pages only", file=sys.stderr)
        return {}, {}
    return saved, replayed


def _nothing_to_learn(datasets: list[str], pages: int) -> str:
    """Why training had nothing to learn from: no page at all, or none with a gold text
    (it said 'training failed', exit 1, as if the pages had been usable)."""
    names = ", ".join(datasets)
    if not pages:
        return f"{names}: no pages to learn from (a datasets-format .jsonl(.gz) file or folder)"
    return (f"{names}: none of its {pages} page(s) has a `gold` text (the expected main text) "
            "to learn from")

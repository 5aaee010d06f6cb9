"""``blocksift examples``: list, show, delete, export and import captured labeled examples."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from .common import (
    CommandError,
    add_progress_arguments,
    at_least,
    run_guarded,
    want_progress,
)
from .main import EXIT_INTERRUPTED


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("examples", help="captured labeled examples")
    parser.add_argument("--store", type=Path, default=None,
                        help="examples database (default: the user's data dir)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="newest first",
                                 description="The examples, newest first: id, when, length "
                                             "of the main text, title and URL.")
    listing.add_argument("--limit", type=at_least(1), default=50, metavar="N",
                         help="the N newest (default %(default)s; a longer list says so)")
    listing.add_argument("--json", action="store_true", help="print JSON")
    show = actions.add_parser("show", help="one example's main text and marked blocks")
    show.add_argument("example_id", type=int, metavar="ID", help="its id (see `list`)")
    show.add_argument("--json", action="store_true",
                      help="print JSON (main text, blocks and the selected element ids)")
    delete = actions.add_parser("delete", help="delete examples by id")
    delete.add_argument("example_ids", type=int, nargs="+", metavar="ID",
                        help="their ids (see `list`)")
    export = actions.add_parser("export", help="write the shared datasets' JSONL format")
    export.add_argument("path", type=Path,
                        help="file (.jsonl or .jsonl.gz), folder (gets pages.jsonl.gz) or - "
                             "(standard output)")
    export.add_argument("--with-blocks", action="store_true",
                        help="also write the marked link/ad blocks, the selected ids and the "
                             "corrected algorithm's output (title, date saved and algorithm "
                             "are always written)")
    export.add_argument("--force", action="store_true",
                        help="replace the file if it exists (it is refused otherwise)")
    importing = actions.add_parser("import", help="add the pages of a datasets-format file")
    importing.add_argument("path", type=Path, help="a .jsonl(.gz) file, a folder holding "
                           "pages.jsonl(.gz), or a dataset's name under $BLOCKSIFT_DATASETS")
    importing.add_argument("--on-duplicate", choices=("skip", "replace", "keep"),
                           default="skip", metavar="MODE",
                           help="skip, replace or keep: a record of a page (URL without "
                                "fragment) that already has an example: skip it (default: "
                                "nothing stored is lost, the record stays in the file), "
                                "replace the stored one (kept restorable), or keep both")
    add_progress_arguments(importing)
    actions.add_parser("repair", help="keep a damaged database aside and rebuild it from "
                                      "every example SQLite can still read")
    folders = actions.add_parser("export-folders",
                                 help="folders the browser may export into (besides the "
                                      "default exports folder)")
    folders.add_argument("--add", type=Path, action="append", default=[], metavar="DIR",
                         help="let the browser export into DIR (repeatable)")
    folders.add_argument("--remove", type=Path, action="append", default=[], metavar="DIR",
                         help="no longer (repeatable)")
    for name, action in actions.choices.items():  # `examples import --help` said no word
        if action.description is None:  # of what the action does
            action.description = next(a.help for a in actions._choices_actions
                                      if a.dest == name)
    parser.set_defaults(run=run)


def _store_path(args: argparse.Namespace) -> Path:
    from ..storage.examples import default_path

    return Path(args.store) if args.store else default_path()


def _repair(args: argparse.Namespace) -> int:
    import sqlite3

    from ..storage.examples import repair

    if not _store_path(args).exists():  # it said '... is readable' of a file not there
        print(f"{_store_path(args)} does not exist yet; nothing to repair")
        return 0
    try:
        report = repair(_store_path(args))
    except (OSError, sqlite3.Error) as exc:
        raise CommandError(f"cannot repair {_store_path(args)}: {exc}") from None
    if not report["damaged"]:
        print(f"{report['path']} is readable; nothing to repair")
        return 0
    print(f"{report['path']} was damaged ({report['problem']}).")
    print(f"recovered {report['recovered']} example(s) into a fresh database; the damaged "
          f"file is kept at {report['keptAside'][0]}")
    return 0


def _export_folders(args: argparse.Namespace) -> int:
    from ..storage.exports import chosen_folders, default_folder, set_chosen_folders

    folders = chosen_folders()
    if args.add or args.remove:
        removed = {str(p.expanduser().resolve()) for p in args.remove}
        folders = [f for f in folders if str(f) not in removed]
        folders += [p.expanduser() for p in args.add]
        set_chosen_folders(folders)
        folders = chosen_folders()
    print(f"{default_folder()}  (default)")
    for folder in folders:
        print(folder)
    return 0


@run_guarded
def run(args: argparse.Namespace) -> int:
    import sqlite3

    from ..storage.examples import DamagedStore, NotAStore

    if args.action == "repair":
        try:
            return _repair(args)
        except NotAStore as exc:
            raise CommandError(str(exc)) from None
    if args.action == "export-folders":
        return _export_folders(args)
    path = _store_path(args)
    if args.action != "import" and not path.exists():
        # reading must not create an empty database (and its folder) as a side effect
        return _no_store(args, path)
    try:
        return _run(args)
    except (DamagedStore, NotAStore) as exc:
        raise CommandError(str(exc)) from None
    except sqlite3.DatabaseError as exc:
        from ..storage.examples import is_unwritable, unwritable_message

        if is_unwritable(exc):  # a full disk or a read-only folder: repair would not help
            raise CommandError(unwritable_message(path, exc)) from None
        raise CommandError(f"the examples database {path} could not be read ({exc}); repair "
                           "it with `blocksift examples repair`") from None


def _settle(store: Any, done: str) -> None:
    """Apply the examples' journaled changes to auto's adaptation to their sites; a file that
    cannot be written is said on stderr, and the change stays journaled (the next command or
    the host applies it), while the examples database keeps what was asked (``done``)."""
    try:
        store.settle()
    except OSError as exc:
        _warn_adaptation(exc, f"the example itself is {done}")


def _warn_adaptation(exc: OSError, done: str) -> None:
    print(f"blocksift: warning: {exc}; {done}, and the adaptation is updated on the next "
          "change", file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    """:func:`_run_store`; after a change (delete, import), the lock files of the sites' files
    it adapted are taken away, held ones left (as ``train auto --per-site`` does)."""
    if args.action not in ("delete", "import"):
        return _run_store(args)
    try:
        return _run_store(args)
    finally:
        from ..algorithms.segmenter.adapt import sites_dir
        from ..storage.locks import remove_idle_locks

        remove_idle_locks(sites_dir())


def _run_store(args: argparse.Namespace) -> int:
    from ..storage.examples import ExampleStore

    with ExampleStore(_store_path(args)) as store:
        if args.action in ("delete", "import"):
            _settle(store, "unchanged")  # a change a killed process left half done
        if args.action == "list":
            items = store.list(limit=args.limit)
            if not args.json and len(items) == args.limit and store.count() > args.limit:
                # fifty lines looked like all of them
                print(f"blocksift: the {args.limit} newest of {store.count()} examples; "
                      "--limit N lists more", file=sys.stderr)
            if args.json:
                json.dump([e.summary() for e in items], sys.stdout, indent=2)
                print()
            elif not items:
                print(f"no examples yet in {store.path}")
            from ..terminal import display_width, pad, terminal_width

            # titles as wide as the longest, up to 50 terminal columns (not 50 blanks when
            # none has one; a Chinese title takes two columns a character)
            # in a terminal a line per example, the title fitted and the URL shown where
            # there is room (lines wrapped into two or three under the next one's id);
            # piped, whole
            columns = terminal_width()
            room = TITLE_COLUMNS if columns is None else max(min(
                TITLE_COLUMNS, columns - 1 - len(_list_start(items[0]))), 20) if items else 0
            titles = {e.id: _cut(_title(e, room), room) for e in items}
            width = max(map(display_width, titles.values()), default=0)
            for example in items if not args.json else []:
                again = f"  (replaced {example.replaces})" if example.replaces else ""
                line = (f"{_list_start(example)}{pad(titles[example.id], width)}  "
                        f"{example.url or ''}{again}").rstrip()
                if columns is not None and display_width(line) > columns - 1:
                    # the URL is cut, never the '(replaced N)' mark after it: where there
                    # is no room for the URL, the mark follows the title, cut to leave room
                    head = _list_start(example)
                    start = f"{head}{pad(titles[example.id], width)}"
                    left = columns - 1 - display_width(start) - 2 - display_width(again)
                    if left >= 24 and example.url:
                        line = start + "  " + _cut(example.url, left) + again
                    elif again:
                        room_left = max(columns - 1 - display_width(head + again), 8)
                        line = head + pad(_cut(titles[example.id], room_left),
                                          min(width, room_left)) + again
                    else:
                        line = start
                    line = line.rstrip()
                print(line)
        elif args.action == "show":
            example = store.get(args.example_id)
            if example is None:
                raise CommandError(f"no example {args.example_id} in {store.path}")
            if args.json:
                summary = example.summary()
                summary.update(mainText=example.main_text, blocks=example.blocks,
                               mainIdList=example.main_ids, replacedBy=example.replaced_by)
                json.dump(summary, sys.stdout, indent=2, ensure_ascii=False)
                print()
            else:
                print(f"# {_title(example)}\n{example.url or ''}\n")
                if example.replaced_by is not None:
                    from ..terminal import say, terminal_width

                    say(f"(an earlier label of this page, replaced by {example.replaced_by} "
                        f"and kept restorable; `blocksift examples delete {example.id}` "
                        "drops it)", rest=" ", width=terminal_width())
                    print()
                print(example.main_text)
                for block in example.blocks:
                    print(f"\n[{block.get('kind')}] {len(block.get('ids', []))} elements: "
                          f"{(block.get('text') or '')[:80]}")
        elif args.action == "delete":
            missing = []
            wanted = list(dict.fromkeys(args.example_ids))  # an id given twice goes once
            # an earlier label replaced by a newer one of its page (kept restorable, as
            # `show` finds it) goes first, so that `delete 15 12` finds 12 before 15's
            # delete takes it along; it said "no example 12" while `show 12` showed it
            earlier = {i for i in wanted if (found := store.get(i)) is not None
                       and found.replaced_by is not None}
            for example_id in [i for i in wanted if i in earlier]:
                newer = store.delete_replaced(example_id)
                if newer is None:
                    missing.append(example_id)
                else:
                    print(f"{example_id} was an earlier label of its page, replaced by "
                          f"{newer} (which stays)")
            for example_id in [i for i in wanted if i not in earlier]:
                if not store.delete(example_id):
                    missing.append(example_id)
            # their labels stop adapting auto on their sites (docs/auto.md)
            _settle(store, "deleted")
            if missing:
                others = len(wanted) - len(missing)
                raise CommandError(f"no example(s) {', '.join(map(str, missing))}"
                                   + (f" (deleted the other {others})" if others else ""))
            print(f"deleted {len(wanted)} example(s)")
        elif args.action == "export":
            try:
                count, written = _export(store, args.path, args.with_blocks, args.force)
            except ExportInterrupted as stopped:  # the file as it was: say so
                print(stopped, file=sys.stderr)
                return EXIT_INTERRUPTED
            print(f"exported {count} example(s) to {written}", file=sys.stderr)
        elif args.action == "import":
            try:
                report = store.import_records(_dataset(args.path), args.on_duplicate)
            except (FileNotFoundError, KeyError, ValueError) as exc:
                raise CommandError(f"cannot import: {exc}") from None  # exc names the file
            if not (report.added or report.replaced or report.skipped):
                # 'imported 0 example(s)', exit 0, as if an empty file were a set of pages
                raise CommandError(f"cannot import: {args.path} holds no pages (a "
                                   "datasets-format .jsonl(.gz) file or folder)")
            bar = None
            if want_progress(args.progress) and store.pending():
                from tqdm import tqdm

                bar = tqdm(total=store.pending(), unit="page", file=sys.stderr,
                           desc="adapting auto to their sites")
            try:  # they adapt auto as saved ones do, one journaled change at a time
                store.settle(progress=bar.update if bar is not None else None)
            except OSError as exc:
                _warn_adaptation(exc, "the examples are stored")
            except KeyboardInterrupt:  # the examples are in; the journal keeps the rest
                if bar is not None:
                    bar.close()
                print(f"blocksift: interrupted: imported {len(report.added)} example(s); "
                      "auto's adaptation to their sites is finished by the next "
                      "`blocksift examples` change or by the host", file=sys.stderr)
                return EXIT_INTERRUPTED
            if bar is not None:
                bar.close()
            for url, why in report.skipped:
                print(f"skipped {url}: {why}", file=sys.stderr)
            from .common import NO_ADDRESS, _count, note, own_address_said

            if report.own_address:  # stored under it: of that site, and adapting it
                note(own_address_said([source for _, source in report.own_address], "record"))
            if report.no_address:
                note(f"{_count(report.no_address, 'record')} stored of no site (adapting "
                     f"none): {NO_ADDRESS}")
            replaced = (f", replacing {len(report.replaced)} (kept restorable)"
                        if report.replaced else "")
            skipped = f"; skipped {len(report.skipped)}" if report.skipped else ""
            print(f"imported {len(report.added)} example(s){replaced}{skipped}",
                  file=sys.stderr)
    return 0


def _dataset(path: Path) -> Path:
    """A file or folder to import, or a dataset's name under $BLOCKSIFT_DATASETS (as train and
    eval take it); left as given when neither, for the store to say so."""
    from .common import PageNotDataset, dataset_path

    try:
        found = dataset_path(str(path))
    except PageNotDataset as exc:
        raise CommandError(f"cannot import: {exc}") from None
    except CommandError as exc:
        if not path.exists():  # named as the other commands name it, the sets there listed
            raise CommandError(f"cannot import: {exc}") from None
        return path
    return path if path.exists() else found


def _list_start(example: Any) -> str:
    """An example's line in ``examples list`` up to its title: id, date, length."""
    when = datetime.fromtimestamp(example.created).strftime("%Y-%m-%d %H:%M")
    return f"{example.id:>5}  {when}  {len(example.main_text):>6} chars  "


def _title(example: Any, columns: int = 0) -> str:
    """An example's title as listed and shown. Without one (imported pages have none) the
    URL's host and path say which page it is, else the start of its main text; a list of
    '(no title)' told the pages apart by their ids only."""
    title = " ".join((example.title or "").split())
    if title:
        return title
    columns = columns or TITLE_COLUMNS
    where = _host_and_path(example.url or "", columns)
    if where:
        return where
    words = " ".join((example.main_text or "").split())
    words = _cut(words, columns - 2)
    return f"\u201c{words}\u201d" if words else "(no title, no URL, no text)"


#: Columns of a title in ``examples list`` (a longer one is cut).
TITLE_COLUMNS = 50


def _cut(text: str, columns: int) -> str:
    """``text`` in at most ``columns`` terminal columns, ending in '\u2026' when cut."""
    from ..terminal import clip, display_width

    if display_width(text) <= columns:
        return text
    return clip(text, columns - 1).rstrip() + "\u2026"


#: A page made by one of these scripts is named by its query (``?ref=world`` after an
#: article's own path is noise).
SCRIPTS = {"asp", "aspx", "php", "jsp", "cgi", "cfm", "pl", "do", "dll", "exe"}


def _host_and_path(url: str, columns: int = TITLE_COLUMNS) -> str:
    """``https://www.example.com/news/2012/07/a-long-story.html`` as
    ``example.com/news/2012/07/a-long-story.html``, and in ``columns`` or fewer as
    ``example.com/\u2026/a-long-story.html``: the host and the path's end name the page."""
    from urllib.parse import unquote, urlsplit

    from ..terminal import display_width

    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").removeprefix("www.")
    except ValueError:  # an address that is not one ("http://[::1")
        return ""
    if not host:
        return ""
    path = unquote(parts.path, errors="replace").rstrip("/")
    if parts.query and (not path or path.rsplit(".", 1)[-1].lower() in SCRIPTS):
        path += "?" + unquote(parts.query, errors="replace")  # details.asp?id=2359
    path = " ".join(path.split())
    if display_width(host + path) <= columns:
        return host + path
    room = columns - display_width(host) - 2  # "/…"
    if room < 8:
        return _cut(host + path, columns)
    tail = ""
    for segment in reversed(path.split("/")):  # whole segments from the end while they fit
        if not segment:
            continue
        longer = f"/{segment}{tail}"
        if display_width(longer) > room:
            break
        tail = longer
    if not tail:  # the last segment alone is too long: its start
        last = path.rsplit("/", 1)[-1]
        tail = "/" + _cut(last, room - 1)
    return f"{host}/\u2026{tail}"


class ExportInterrupted(Exception):
    """A Ctrl-C during ``examples export``; its message says what became of the file."""


def _export(store: Any, path: Path, with_blocks: bool, force: bool = False
            ) -> tuple[int, str]:
    """Every example in the datasets' JSONL: to standard output for ``-`` (it made a folder
    named '-'), else to the file, or to ``pages.jsonl.gz`` in a folder; (count, where).
    A file there is replaced only with ``force`` (an earlier export was lost without a
    word), and never when it is the examples database itself; the file is written whole or
    not at all (:meth:`ExampleStore.export`)."""
    if str(path) == "-":
        from ..storage.examples import export_record

        count = 0
        for example in store.all():
            sys.stdout.write(json.dumps(export_record(example, with_blocks),
                                        ensure_ascii=False) + "\n")
            count += 1
        return count, "standard output"
    # as the store names it: a folder, or a name without a suffix, gets pages.jsonl.gz
    target = path / "pages.jsonl.gz" if path.is_dir() or not path.suffix else path
    # the folders are made on the way; a file where one of them goes was "afile: File exists"
    existing = next(p for p in target.parents if p.exists() or p == p.parent)
    if not existing.is_dir():
        raise CommandError(f"cannot write {target}: {existing} is a file, not a folder")
    from .batch_output import refuse_output_over_input

    refuse_output_over_input(target, [store.path], f"{target} is the examples database: "
                             "exporting there would replace the examples; give another file")
    if target.is_dir():  # 'x.jsonl/' a folder: replace would say "Is a directory" at the end
        raise CommandError(f"cannot write {target}: it is a folder; give a file's name")
    if (target.exists() or target.is_symlink()) and not force:
        raise CommandError(f"{target} exists; --force replaces it, or give another file or "
                           "folder to export to")
    try:
        return store.export(path, with_blocks=with_blocks), str(target)
    except KeyboardInterrupt:
        said = "is as it was" if target.exists() else "is not written"
        raise ExportInterrupted(f"blocksift: interrupted: {target} {said}") from None
    except OSError as exc:  # a full disk, a folder not writable: the file is as it was
        raise CommandError(f"cannot write {target}: {exc.strerror or exc}") from None


def _no_store(args: argparse.Namespace, path: Path) -> int:
    """What each action says before any example was captured (nothing is created)."""
    if args.action == "list":
        if args.json:
            print("[]")
        else:
            print(f"no examples yet in {path}")
        return 0
    if args.action == "export":
        raise CommandError(f"no examples to export: {path} does not exist yet")
    ids = [args.example_id] if args.action == "show" else args.example_ids
    raise CommandError(f"no example(s) {', '.join(map(str, ids))}: {path} does not exist yet")

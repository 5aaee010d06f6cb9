"""Write (or rewrite) a golden case: a page, the reader text every algorithm gives for it, and
what the user actions hide and draw on it.

    python3 tools/new_golden_case.py SLUG --html FILE [--url URL] [--note TEXT]
    python3 tools/new_golden_case.py SLUG --dataset zh-cwce --id PAGE_ID
    python3 tools/new_golden_case.py SLUG --update                # re-record an existing case
    python3 tools/new_golden_case.py --all --update [--only NAME ...]  # every case

The expected files are written from the *current* code: recording or updating a case is a
deliberate step, to be reviewed in the diff like any other change (the manner of Mozilla
Readability's test pages). Only hand-made pages or pages of the MIT-licensed zh-cwce set may
be committed. Each case is ``tests/golden/<slug>/``: ``source.html``, ``meta.json`` and, per
algorithm, its main text: ``expected.txt`` and ``expected-title.txt`` for ``auto`` (the
reader view's default), ``expected.<algorithm>.txt`` for the others (default params, FAR-SW
with its packaged model, clustering without a site model); and, per user action, what the host
answers to the extension's request for it (the exact job the worker runs):
``expected.hide.json`` (the hide plan; the overlay's default "explained" mode draws this same
plan) and ``expected.overlay.json`` (the overlay's "as the paper finds them" mode: linkblocks'
link blocks, by their spans in the page). Golden pages carry no stamped ids, so the hide plan
names elements by XPath. Recording runs
with an empty ``BLOCKSIFT_HOME`` (no user model or site adaptation). ``tests/test_golden.py``
checks every expected file it finds; the number of cases is not capped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from blocksift import algorithms  # noqa: E402
from blocksift.page import Page  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
#: Datasets whose pages may be committed (license allows it).
COMMITTABLE_DATASETS = {"zh-cwce": "MIT (immortal-autumn/Chinese-Web-Content-Extraction-Dataset)"}


#: User actions with golden output, beside the algorithms' reader text.
ACTIONS = ("hide", "overlay")


def checks() -> list[str]:
    """Everything a case can record: each algorithm's reader text, then each action."""
    return algorithms.names() + list(ACTIONS)


def expected_file(check: str) -> str:
    """Name of the expected output of ``check`` (an algorithm or an action) in a case folder."""
    if check in ACTIONS:
        return f"expected.{check}.json"
    return "expected.txt" if check == "auto" else f"expected.{check}.txt"


@contextmanager
def clean_home():
    """An empty per-user folder: no user model, stores or site adaptation leak in."""
    before = os.environ.get("BLOCKSIFT_HOME")
    with tempfile.TemporaryDirectory(prefix="blocksift-golden-") as home:
        os.environ["BLOCKSIFT_HOME"] = home
        try:
            yield
        finally:
            if before is None:
                os.environ.pop("BLOCKSIFT_HOME", None)
            else:
                os.environ["BLOCKSIFT_HOME"] = before


def action_output(action: str, html: str, url: str | None) -> str:
    """What the host answers the extension's request for ``action``, as indented JSON.

    The requests are the extension's own (background.js): hide, and the overlay's default
    mode, ask ``auto`` for blocks with ``action: "hide"`` (their answer is the hide plan); the
    overlay's paper mode asks ``linkblocks`` for blocks (its answer is the link blocks)."""
    from blocksift.service.worker import Job, run_job
    from blocksift.wire.constants import ID_ATTR

    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    hide = action == "hide"
    job = Job(algorithm="auto" if hide else "linkblocks", params={}, html=html, url=url,
              want=["blocks"], id_attr=ID_ATTR, action="hide" if hide else "extract")
    with clean_home():
        outcome = run_job(job)
    if not outcome.ok:
        raise RuntimeError(f"{action}: {outcome.error_message}")
    if hide:
        value = json.loads(outcome.hide_json)
    else:
        result = json.loads(outcome.result_json)
        value = {"status": result["status"],
                 "blocks": [{key: block.get(key) for key in
                             ("kind", "start", "end", "linkCount")}
                            for block in result["blocks"] if block["kind"] == "links"]}
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def reader_text(algorithm: str, html: str, url: str | None):
    """``algorithm``'s result for the page with default params (and its default model)."""
    module = algorithms.load(algorithm)
    model = module.default_model() if hasattr(module, "default_model") else None
    with clean_home():
        return module.extract(Page(html, url=url), module.Params(), model)


def record(case: Path, html: str, url: str | None, meta: dict,
           names: list[str]) -> dict:
    """Run each algorithm and action of ``names`` on ``html`` and write the case files."""
    case.mkdir(parents=True, exist_ok=True)
    (case / "source.html").write_text(html, encoding="utf-8")
    statuses = dict(meta.get("statuses") or {})
    for name in names:
        if name in ACTIONS:
            (case / expected_file(name)).write_text(action_output(name, html, url), "utf-8")
            continue
        result = reader_text(name, html, url)
        text = result.main.text if result.main else ""
        (case / expected_file(name)).write_text(text + "\n", encoding="utf-8")
        if name == "auto":
            title = result.main.title if result.main else ""
            (case / "expected-title.txt").write_text(title + "\n", encoding="utf-8")
            meta["status"], meta["stage"] = result.status, result.stage
        statuses[name] = {"status": result.status, "stage": result.stage}
    meta = {**meta, "url": url, "statuses": dict(sorted(statuses.items()))}
    (case / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    return meta


def recorded_checks(case: Path) -> list[str]:
    """The algorithms and actions a case already has expected output for."""
    return [name for name in checks() if (case / expected_file(name)).exists()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slug", nargs="?", help="the case's folder name under tests/golden/")
    parser.add_argument("--all", action="store_true", help="with --update: every case")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--html", type=Path, help="a hand-made page")
    source.add_argument("--dataset", help="a committable dataset (zh-cwce)")
    source.add_argument("--update", action="store_true", help="re-record an existing case")
    parser.add_argument("--id", help="page id in --dataset")
    parser.add_argument("--url", help="page URL (links are made absolute against it)")
    parser.add_argument("--note", default="", help="what the case checks")
    parser.add_argument("--only", "--algorithm", action="append", dest="names", metavar="NAME",
                        help="record this algorithm or action (hide, overlay) only "
                             "(repeatable; default: everything for a new case, the recorded "
                             "ones for --update)")
    args = parser.parse_args(argv)
    known = checks()
    for name in args.names or []:
        if name not in known:
            parser.error(f"unknown algorithm or action {name!r}; known: {', '.join(known)}")
    if args.all:
        if not args.update:
            parser.error("--all goes with --update")
        cases = sorted(p for p in GOLDEN.iterdir() if (p / "source.html").exists())
    elif not args.slug:
        parser.error("give a SLUG (or --all --update)")
    else:
        cases = [GOLDEN / args.slug]
    for case in cases:
        if args.update:
            if not (case / "source.html").exists():
                parser.error(f"{case}: no such case")
            meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
            html = (case / "source.html").read_text(encoding="utf-8")
            url = meta.pop("url", None)
            names = args.names or recorded_checks(case) or known
        elif args.html:
            html, url = args.html.read_text(encoding="utf-8"), args.url
            meta = {"source": "hand-made", "license": "MIT (this project)", "note": args.note}
            names = args.names or known
        else:
            if args.dataset not in COMMITTABLE_DATASETS:
                parser.error(f"only {', '.join(COMMITTABLE_DATASETS)} pages may be committed")
            if not args.id:
                parser.error("--dataset needs --id")
            from blocksift.evaluation.metric import score_page
            from blocksift.labeled import iter_pages, resolve

            found = next((p for p in iter_pages(resolve(args.dataset)) if p.id == args.id),
                         None)
            if found is None:
                parser.error(f"{args.dataset}: no page {args.id}")
            html, url = found.html, found.url
            meta = {"source": f"{args.dataset}:{args.id}",
                    "license": COMMITTABLE_DATASETS[args.dataset], "note": args.note}
            names = args.names or known
            result = reader_text("auto", html, url)
            # how good the recorded expectation is against the human gold, for the reviewer
            meta["f1_vs_dataset_gold"] = round(
                score_page(result.main.text if result.main else "", found.gold).f1, 4)
        meta = record(case, html, url, meta, names)
        where = case.relative_to(ROOT) if case.is_relative_to(ROOT) else case
        print(f"wrote {where} ({', '.join(names)}); review the diff before committing")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

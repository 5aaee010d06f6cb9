"""Write (or rewrite) a golden case: a page and the reader text every algorithm gives for it.

    python3 tools/new_golden_case.py SLUG --html FILE [--url URL] [--note TEXT]
    python3 tools/new_golden_case.py SLUG --dataset zh-cwce --id PAGE_ID
    python3 tools/new_golden_case.py SLUG --update                # re-record an existing case
    python3 tools/new_golden_case.py --all --update [--algorithm NAME ...]  # every case

The expected files are written from the *current* code: recording or updating a case is a
deliberate step, to be reviewed in the diff like any other change (the manner of Mozilla
Readability's test pages). Only hand-made pages or pages of the MIT-licensed zh-cwce set may
be committed. Each case is ``tests/golden/<slug>/``: ``source.html``, ``meta.json`` and, per
algorithm, its main text: ``expected.txt`` and ``expected-title.txt`` for ``auto`` (the
reader view's default), ``expected.<algorithm>.txt`` for the others (default params, FAR-SW
with its packaged model, clustering without a site model). ``tests/test_golden.py`` checks
every expected file it finds; the number of cases is not capped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from blocksift import algorithms  # noqa: E402
from blocksift.page import Page  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
#: Datasets whose pages may be committed (license allows it).
COMMITTABLE_DATASETS = {"zh-cwce": "MIT (immortal-autumn/Chinese-Web-Content-Extraction-Dataset)"}


def expected_file(algorithm: str) -> str:
    """Name of the expected main text of ``algorithm`` in a case folder."""
    return "expected.txt" if algorithm == "auto" else f"expected.{algorithm}.txt"


def reader_text(algorithm: str, html: str, url: str | None):
    """``algorithm``'s result for the page with default params (and its default model)."""
    module = algorithms.load(algorithm)
    model = module.default_model() if hasattr(module, "default_model") else None
    return module.extract(Page(html, url=url), module.Params(), model)


def record(case: Path, html: str, url: str | None, meta: dict,
           names: list[str]) -> dict:
    """Run each algorithm of ``names`` on ``html`` and write the case files."""
    case.mkdir(parents=True, exist_ok=True)
    (case / "source.html").write_text(html, encoding="utf-8")
    statuses = dict(meta.get("statuses") or {})
    for name in names:
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


def recorded_algorithms(case: Path) -> list[str]:
    """The algorithms a case already has expected text for."""
    return [name for name in algorithms.names() if (case / expected_file(name)).exists()]


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
    parser.add_argument("--algorithm", action="append", dest="names", metavar="NAME",
                        help="record this algorithm only (repeatable; default: every "
                             "algorithm for a new case, the recorded ones for --update)")
    args = parser.parse_args(argv)
    known = algorithms.names()
    for name in args.names or []:
        if name not in known:
            parser.error(f"unknown algorithm {name!r}; known: {', '.join(known)}")
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
            names = args.names or recorded_algorithms(case) or known
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

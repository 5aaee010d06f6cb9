"""Write (or rewrite) a golden case for ``auto``: a page, its expected main text and title.

    python3 tools/new_golden_case.py SLUG --html FILE [--url URL] [--note TEXT]
    python3 tools/new_golden_case.py SLUG --dataset zh-cwce --id PAGE_ID
    python3 tools/new_golden_case.py SLUG --update      # re-record an existing case

The expected files are written from the *current* code: recording or updating a case is a
deliberate step, to be reviewed in the diff like any other change (the manner of Mozilla
Readability's test pages). Only hand-made pages or pages of the MIT-licensed zh-cwce set may
be committed. Each case is ``tests/golden/<slug>/{source.html, expected.txt,
expected-title.txt, meta.json}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from blocksift.algorithms import auto  # noqa: E402
from blocksift.page import Page  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
#: Datasets whose pages may be committed (license allows it).
COMMITTABLE_DATASETS = {"zh-cwce": "MIT (immortal-autumn/Chinese-Web-Content-Extraction-Dataset)"}


def record(case: Path, html: str, url: str | None, meta: dict) -> dict:
    """Run ``auto`` with default params on ``html`` and write the case files."""
    result = auto.extract(Page(html, url=url), auto.Params())
    text = result.main.text if result.main else ""
    title = result.main.title if result.main else ""
    case.mkdir(parents=True, exist_ok=True)
    (case / "source.html").write_text(html, encoding="utf-8")
    (case / "expected.txt").write_text(text + "\n", encoding="utf-8")
    (case / "expected-title.txt").write_text(title + "\n", encoding="utf-8")
    meta = {**meta, "url": url, "status": result.status, "stage": result.stage}
    (case / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    return meta


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slug")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--html", type=Path, help="a hand-made page")
    source.add_argument("--dataset", help="a committable dataset (zh-cwce)")
    source.add_argument("--update", action="store_true", help="re-record an existing case")
    parser.add_argument("--id", help="page id in --dataset")
    parser.add_argument("--url", help="page URL (links are made absolute against it)")
    parser.add_argument("--note", default="", help="what the case checks")
    args = parser.parse_args()
    case = GOLDEN / args.slug
    if args.update:
        if not (case / "source.html").exists():
            parser.error(f"{case}: no such case")
        meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
        html = (case / "source.html").read_text(encoding="utf-8")
        url = meta.pop("url", None)
    elif args.html:
        html, url = args.html.read_text(encoding="utf-8"), args.url
        meta = {"source": "hand-made", "license": "MIT (this project)", "note": args.note}
    else:
        if args.dataset not in COMMITTABLE_DATASETS:
            parser.error(f"only {', '.join(COMMITTABLE_DATASETS)} pages may be committed")
        if not args.id:
            parser.error("--dataset needs --id")
        from blocksift.evaluation.datasets import iter_pages, resolve
        from blocksift.evaluation.metric import score_page

        found = next((p for p in iter_pages(resolve(args.dataset)) if p.id == args.id), None)
        if found is None:
            parser.error(f"{args.dataset}: no page {args.id}")
        html, url = found.html, found.url
        meta = {"source": f"{args.dataset}:{args.id}",
                "license": COMMITTABLE_DATASETS[args.dataset], "note": args.note}
        result = auto.extract(Page(html, url=url), auto.Params(with_html=False))
        # how good the recorded expectation is against the human gold, for the reviewer
        meta["f1_vs_dataset_gold"] = round(
            score_page(result.main.text if result.main else "", found.gold).f1, 4)
    meta = record(case, html, url, meta)
    print(f"wrote {case.relative_to(ROOT)} ({meta['stage']}); review the diff before committing")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

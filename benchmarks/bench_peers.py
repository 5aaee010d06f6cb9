"""Word F1 of the peers (and optionally ``auto``) on a dataset, by page type, in one run.

The figures the wcxb-dev README reports (trafilatura 2.3.1 with and without comments,
readability-lxml 0.9, resiliparse 2.0.1 with ``main_content=True``), scored with
``blocksift.evaluation.metric``: word F1 (plain means over pages), shingle F1, empty outputs
and the snippet check, overall and per ``page_type``. A correct metric reproduces the
README's 0.823 for trafilatura without comments.

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_peers.py [--dataset wcxb-dev] [--limit N] \\
        [--tools trafilatura-nc,trafilatura,readability,resiliparse,auto] [--json FILE] \\
        [--cache DIR]

``--cache DIR`` keeps each tool's texts per page (``DIR/<dataset>.json.gz``) so that a re-run,
or another script, reuses them; ``auto`` is never cached. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from peers import make_readability, make_resiliparse, make_trafilatura  # noqa: E402

from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.evaluation.metric import (  # noqa: E402
    score_page,
    snippet_hits,
    summarize,
    summarize_words,
    word_prf,
    words,
)

Tool = Callable[[str, str | None], str]


def make_auto() -> Tool:
    from blocksift.algorithms import auto
    from blocksift.page import Page

    params = auto.Params(with_html=False)

    def run(html: str, url: str | None) -> str:
        result = auto.extract(Page(html, url=url), params)
        return result.main.text if result.main else ""

    return run


FACTORIES: dict[str, Callable[[], Tool]] = {
    "trafilatura-nc": lambda: make_trafilatura(False),
    "trafilatura": lambda: make_trafilatura(True),
    "readability": make_readability,
    "resiliparse": make_resiliparse,
    "auto": make_auto,
}


def score_tool(pages: list, texts: dict[str, str]) -> dict[str, dict]:
    """Word and shingle figures of one tool, overall ('all') and per page type."""
    groups: dict[str, list] = defaultdict(list)
    for page in pages:
        groups["all"].append(page)
        groups[page.page_type or "(none)"].append(page)
    table = {}
    for group, members in groups.items():
        outputs = [texts.get(p.id, "") for p in members]
        empty = sum(not words(out) for out in outputs)
        word = summarize_words([word_prf(out, p.gold) for out, p in zip(outputs, members)],
                               empty_outputs=empty)
        shingle = summarize(score_page(out, p.gold) for out, p in zip(outputs, members))
        hits = [snippet_hits(out, p.snippets_with, p.snippets_without)
                for out, p in zip(outputs, members)]
        with_total, without_total = sum(h[1] for h in hits), sum(h[3] for h in hits)
        table[group] = {
            "pages": len(members), "word_p": word.precision, "word_r": word.recall,
            "word_f1": word.f1, "shingle_f1": shingle.f1, "empty": shingle.empty_outputs,
            "snip_with": sum(h[0] for h in hits) / with_total if with_total else None,
            "snip_without": sum(h[2] for h in hits) / without_total if without_total else None,
        }
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="wcxb-dev")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--tools", default="trafilatura-nc,trafilatura,readability,resiliparse")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--cache", type=Path, help="per-page texts of the peers (reused)")
    parser.add_argument("--every", type=int, default=100, help="progress line every N pages")
    args = parser.parse_args()

    names = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = [n for n in names if n not in FACTORIES]
    if unknown:
        parser.error(f"unknown tools {unknown}; known: {', '.join(FACTORIES)}")
    path = resolve(args.dataset)
    cache_file = args.cache / f"{args.dataset}.json.gz" if args.cache else None
    cached: dict[str, dict[str, str]] = {}
    if cache_file and cache_file.exists():
        with gzip.open(cache_file, "rt", encoding="utf-8") as handle:
            cached = json.load(handle)
    tools: dict[str, Tool] = {}  # built on first use: a fully cached tool is never imported
    texts: dict[str, dict[str, str]] = {n: dict(cached.get(n, {})) for n in names}
    failures: dict[str, int] = defaultdict(int)
    pages = []
    started = time.perf_counter()
    for index, page in enumerate(iter_pages(path, args.limit), 1):
        pages.append(page)
        for name in names:
            if name != "auto" and page.id in texts[name]:
                continue
            tool = tools.get(name) or tools.setdefault(name, FACTORIES[name]())
            try:
                texts[name][page.id] = tool(page.html, page.url)
            except Exception:  # noqa: BLE001 - a tool that raises returned nothing
                texts[name][page.id] = ""
                failures[name] += 1
        if index % args.every == 0:
            print(f"  {index} pages, {time.perf_counter() - started:.0f} s", file=sys.stderr,
                  flush=True)
    if cache_file:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        keep = {n: t for n, t in texts.items() if n != "auto"}
        with gzip.open(cache_file, "wt", encoding="utf-8") as handle:
            json.dump({**cached, **keep}, handle)

    results = {name: score_tool(pages, texts[name]) for name in names}
    order = ["all"] + sorted({g for r in results.values() for g in r} - {"all"},
                             key=lambda g: -results[names[0]].get(g, {}).get("pages", 0))
    print(f"\n{args.dataset}: word F1 by page type (pages; failures: {dict(failures)})")
    print(f"{'page type':<14} {'pages':>5} " + " ".join(f"{n:>14}" for n in names))
    for group in order:
        row = [results[n].get(group) for n in names]
        pages_in = next(r["pages"] for r in row if r)
        print(f"{group:<14} {pages_in:>5} "
              + " ".join(f"{r['word_f1']:>14.3f}" if r else " " * 14 for r in row))
    print(f"\n{'overall':<14} " + " ".join(f"{n:>14}" for n in names))
    for key, fmt in (("word_p", ".3f"), ("word_r", ".3f"), ("word_f1", ".3f"),
                     ("shingle_f1", ".3f"), ("empty", "d"), ("snip_with", ".3f"),
                     ("snip_without", ".3f")):
        cells = [results[n]["all"][key] for n in names]
        print(f"{key:<14} " + " ".join(f"{c:>14{fmt}}" if c is not None else f"{'-':>14}"
                                       for c in cells))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"dataset": args.dataset, "results": results,
                                         "failures": failures}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Long documents: how much of a page's main text each extractor keeps as the article grows.

Each labeled page is made longer the way the segmenter's training does it
(``auto_training.lengthen``): N more paragraphs, copies of the page's own main ``<p>`` (tag
and attributes) holding its own main sentences resampled, right after the last main
paragraph of its longest run of them; the gold grows by the same text. Per N, every tool
gets the same lengthened HTML; the table gives the mean word F1 against the grown gold and
the mean share of the added paragraphs' words the tool kept (word recall of the added
text), with the unlengthened pages (N = 0) as the reference.

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_long_pages.py [--dataset wcxb-dev] [--limit 200] \\
        [--sizes 0,100,300,1000] [--tools auto,trafilatura] [--model OTHER.npz ...]

The shipped model was trained on the dev sets' pages, so for ``auto`` the short version of
each page is in-sample (the added paragraphs are not); the out-of-fold figures are in
docs/auto.md ("Long documents").
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from peers import make_readability, make_resiliparse, make_trafilatura  # noqa: E402

from blocksift import auto_training as at  # noqa: E402
from blocksift.algorithms import auto  # noqa: E402
from blocksift.evaluation.datasets import resolve  # noqa: E402
from blocksift.evaluation.metric import word_prf  # noqa: E402
from blocksift.labeled import iter_records  # noqa: E402
from blocksift.page import Page  # noqa: E402


def make_auto(model_path: str | None = None):
    # the added paragraphs resample a page's own sentences, some word for word: keep repeats
    params = auto.Params(repeat_min_words=0)
    model = auto.load_model(model_path)

    def run(html: str, url: str | None) -> str:
        result = auto.extract(Page(html, url=None), params, model)
        return result.main.text if result.main else ""

    return run


TOOLS = {"auto": make_auto, "trafilatura": make_trafilatura,
         "readability": make_readability, "resiliparse": make_resiliparse}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="wcxb-dev")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--sizes", default="0,100,300,1000")
    parser.add_argument("--tools", default="auto,trafilatura")
    parser.add_argument("--model", action="append", default=[], metavar="PATH",
                        help="also run auto with this segmenter model file (repeatable)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    tools = {name: TOOLS[name]() for name in args.tools.split(",")}
    for path in args.model:
        tools[f"auto:{Path(path).name}"] = make_auto(path)
    f1: dict[tuple[str, int], list[float]] = defaultdict(list)
    recall: dict[tuple[str, int], list[float]] = defaultdict(list)
    pages = 0
    for record in iter_records(resolve(args.dataset), limit=args.limit):
        seed = zlib.crc32(f"{args.dataset}:{record.get('id')}".encode())
        made = {n: at.lengthen(record, n, np.random.default_rng(seed)) for n in sizes if n}
        if any(m is None for m in made.values()):
            continue  # no run of main paragraphs to lengthen
        pages += 1
        for n in sizes:
            html = made[n].record["html"] if n else record["html"]
            gold = made[n].record["gold"] if n else record.get("gold") or ""
            for name, tool in tools.items():
                try:
                    text = tool(html, record.get("url"))
                except Exception:  # a peer failing on a page scores it empty
                    text = ""
                f1[name, n].append(word_prf(text, gold)[2])
                if n:
                    # word recall against the added paragraphs alone
                    recall[name, n].append(word_prf(text, "\n".join(made[n].added))[1])
        print(f"\r{pages} pages", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.dataset}: {pages} pages with a run of main paragraphs "
          f"(first {args.limit} pages)")
    width = max(14, *(len(name) for name in tools))
    print(f"{'tool':{width}} {'added':>6} {'word F1':>8} {'added kept':>11}")
    for name in tools:
        for n in sizes:
            kept = f"{np.mean(recall[name, n]):11.3f}" if n else f"{'-':>11}"
            print(f"{name:{width}} {n:6d} {np.mean(f1[name, n]):8.3f} {kept}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

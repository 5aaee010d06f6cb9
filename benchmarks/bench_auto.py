"""Quality and speed of ``auto`` side by side with trafilatura, readability-lxml, resiliparse.

Every page is given to every extractor in one run, the order rotating page by page so that
the noise of a shared machine hits all of them alike; each extractor is timed from the HTML
string to its plain text (its own parse included; ``auto`` builds the ``Page`` and renders
the reader-view HTML too). Scores use blocksift's dataset metric (the datasets README).

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_auto.py [--dataset NAME ...] [--limit N] \\
        [--tools auto,trafilatura,readability,resiliparse] [--param k=v ...] [--json FILE] \\
        [--memory]

``--ablation`` prints instead the F1 of ``auto-rules`` (the earlier hand-tuned auto) with each
of its signals switched off; the learned auto's ablation is ``bench_auto_cv.py --ablation``.
Tools: auto, auto-fast (``--model fast``), auto-rules, trafilatura, trafilatura-comments,
readability, resiliparse; on ``wcxb-dev`` the benchmark's word F1 is printed per page type
as well. ``--variant NAME:K=V[;K=V]`` adds a tool NAME, auto with those params, to name in
``--tools`` (say ``--variant auto-2000:long_page_elements=2000``).
``--memory`` also runs ``blocksift batch --algo auto --jobs 1`` over the largest dataset under
``/usr/bin/time -v`` and reports its peak resident memory. ``--cache DIR`` stores the
competitors' texts (development only: cached tools are not timed). The competitors are the
``eval`` extra: ``pip install trafilatura==2.3.1 readability-lxml==0.9 resiliparse==2.0.1``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from peers import make_readability, make_resiliparse, make_trafilatura  # noqa: E402

from blocksift.algorithms import auto, auto_rules  # noqa: E402
from blocksift.evaluation.datasets import iter_pages, resolve  # noqa: E402
from blocksift.evaluation.metric import score_page, summarize, word_prf  # noqa: E402
from blocksift.evaluation.runner import percentile  # noqa: E402
from blocksift.page import Page  # noqa: E402

DEFAULT_DATASETS = ["dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce"]


def make_auto(params: dict, module=auto, model: str | None = None
              ) -> Callable[[str, str | None], str]:
    validated = module.Params.model_validate(params)
    loaded = module.load_model(model) if model else None

    def run(html: str, url: str | None) -> str:
        result = (module.extract(Page(html, url=url), validated, loaded) if loaded else
                  module.extract(Page(html, url=url), validated))
        return result.main.text if result.main else ""

    return run


FACTORIES = {"auto": None, "auto-rules": None,
             "trafilatura": lambda: make_trafilatura(include_comments=False),
             "trafilatura-comments": lambda: make_trafilatura(include_comments=True),
             "readability": make_readability, "resiliparse": make_resiliparse}


def parse_param(values: list[str]) -> dict:
    params = {}
    for item in values:
        key, _, value = item.partition("=")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def run_dataset(name: str, tools: dict[str, Callable], limit: int | None,
                cache: Path | None) -> dict[str, dict]:
    path = resolve(name)
    cached: dict[str, dict[str, str]] = {}
    cache_file = cache / f"{name}.json.gz" if cache else None
    if cache_file and cache_file.exists():
        with gzip.open(cache_file, "rt", encoding="utf-8") as handle:
            cached = json.load(handle)
    results = {tool: {"scores": [], "ms": [], "failures": 0, "words": {}} for tool in tools}
    order = list(tools)
    for index, labeled in enumerate(iter_pages(path, limit)):
        rotation = order[index % len(order):] + order[:index % len(order)]
        for tool in rotation:
            key = labeled.id
            if not tool.startswith("auto") and key in cached.get(tool, {}):
                text = cached[tool][key]
            else:
                started = time.perf_counter()
                try:
                    text = tools[tool](labeled.html, labeled.url)
                except Exception:  # a failing page is scored as empty output
                    text = ""
                    results[tool]["failures"] += 1
                results[tool]["ms"].append((time.perf_counter() - started) * 1000)
                if not tool.startswith("auto") and cache_file:
                    cached.setdefault(tool, {})[key] = text
            results[tool]["scores"].append(score_page(text, labeled.gold))
            page_type = labeled.page_type or "all"
            words = results[tool]["words"]
            for group in {"all", page_type}:
                words.setdefault(group, []).append(word_prf(text, labeled.gold)[2])
    if cache_file:
        cache.mkdir(parents=True, exist_ok=True)
        with gzip.open(cache_file, "wt", encoding="utf-8") as handle:
            json.dump(cached, handle)
    report = {}
    for tool, data in results.items():
        summary = summarize(data["scores"])
        report[tool] = {
            "f1": summary.f1, "precision": summary.precision, "recall": summary.recall,
            "mean_page_f1": summary.mean_page_f1, "pages": summary.pages,
            "empty": summary.empty_outputs, "failures": data["failures"],
            "median_ms": statistics.median(data["ms"]) if data["ms"] else None,
            "p95_ms": percentile(data["ms"], 0.95) if data["ms"] else None,
            "word_f1": {group: statistics.mean(v) for group, v in sorted(data["words"].items())},
        }
    return report


#: Each signal of ``auto-rules`` switched off (or swapped for the seed's/readability's choice).
ABLATIONS: dict[str, dict] = {
    "default": {},
    "no landmark pruning": {"prune_landmarks": False},
    "no headline": {"prepend_headline": False},
    "no edge trimming": {"trim_edges": False},
    "lists exempt from link density (readability.js)": {"list_link_density": 1.01},
    "all candidates vote (readability.js)": {"disjoint_votes": False},
    "climb into link-dense parents (readability.js)": {"climb_link_density": 1.01},
    "ladder 500 + longest (readability.js)": {"min_text_length": 500,
                                              "short_fallback": "longest"},
    "data-table cells judged like any element": {"protect_data_tables": False},
    "linkblocks: prune before scoring": {"link_blocks": "prune"},
    "linkblocks: prune inside content": {"link_blocks": "content"},
}


def ablation(datasets: list[str], limit: int | None) -> dict[str, dict[str, float]]:
    """F1 of ``auto`` per dataset with each signal switched off (quality only)."""
    table: dict[str, dict[str, float]] = {}
    pages = {name: list(iter_pages(resolve(name), limit)) for name in datasets}
    for label, override in ABLATIONS.items():
        params = auto_rules.Params(with_html=False, **override)
        row = {}
        for name, labeled_pages in pages.items():
            scores = []
            for labeled in labeled_pages:
                result = auto_rules.extract(Page(labeled.html, url=labeled.url), params)
                scores.append(score_page(result.main.text if result.main else "",
                                         labeled.gold))
            row[name] = summarize(scores).f1
        row["mean"] = statistics.mean(row[name] for name in datasets)
        table[label] = row
        print(f"{label:50} " + " ".join(f"{row[name]:.4f}" for name in [*datasets, "mean"]))
        sys.stdout.flush()
    return table


def peak_memory(dataset: str, params: dict) -> dict:
    """Peak RSS of ``blocksift batch --algo auto --jobs 1`` over ``dataset`` (time -v)."""
    path = resolve(dataset)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False,
                                     encoding="utf-8") as handle:
        for labeled in iter_pages(path):
            handle.write(json.dumps({"id": labeled.id, "html": labeled.html,
                                     "url": labeled.url}) + "\n")
        input_file = handle.name
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "blocksift", "batch", "--algo",
               "auto", "--jobs", "1", "--no-progress"]
    for key, value in params.items():
        command += ["--param", f"{key}={json.dumps(value)}"]
    env = dict(os.environ, PYTHONPATH=str(HERE.parent / "host"))
    started = time.perf_counter()
    try:
        with open(input_file, encoding="utf-8") as stdin:
            done = subprocess.run(command, stdin=stdin, capture_output=True, text=True,
                                  env=env, check=False)
    finally:
        os.unlink(input_file)
    seconds = time.perf_counter() - started
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    errors = sum('"error"' in line[:200] for line in lines)
    return {"dataset": dataset, "exit_code": done.returncode, "pages": len(lines),
            "errors": errors, "seconds": round(seconds, 1),
            "peak_rss_mb": round(int(match.group(1)) / 1024, 1) if match else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", dest="datasets", action="append")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--tools", default="auto,trafilatura,readability,resiliparse")
    parser.add_argument("--param", action="append", default=[], help="auto param k=v")
    parser.add_argument("--cache", type=Path, help="competitor text cache (dev only)")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    parser.add_argument("--ablation", action="store_true",
                        help="only the ablation table of auto's signals (F1 per dataset)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:K=V[;K=V]",
                        help="an extra tool NAME: auto with these params (name it in --tools)")
    parser.add_argument("--memory", action="store_true",
                        help="peak memory of blocksift batch over the largest dataset")
    args = parser.parse_args()
    params = parse_param(args.param)
    variants = {name: parse_param(settings.split(";")) for name, _, settings in
                (item.partition(":") for item in args.variant)}
    if args.ablation:
        datasets = args.datasets or DEFAULT_DATASETS
        print(f"{'variant':50} " + " ".join(f"{d[:7]:>7}" for d in [*datasets, "mean"]))
        table = ablation(datasets, args.limit)
        if args.json:
            args.json.write_text(json.dumps(table, indent=1))
        return 0
    tools: dict[str, Callable] = {}
    for tool in args.tools.split(","):
        if tool == "auto":
            tools[tool] = make_auto(params)
        elif tool == "auto-fast":  # the bundled model without FAR-SW and auto-rules
            tools[tool] = make_auto(params, model="fast")
        elif tool == "auto-rules":
            tools[tool] = make_auto({}, auto_rules)
        elif tool in variants:  # auto with other params, beside it in the same run
            tools[tool] = make_auto({**params, **variants[tool]})
        else:
            tools[tool] = FACTORIES[tool]()
    datasets = args.datasets or DEFAULT_DATASETS
    figures: dict[str, dict] = {}
    header = (f"{'dataset':16} {'tool':12} {'F1':>6} {'P':>6} {'R':>6} {'pageF1':>6} "
              f"{'empty':>5} {'fail':>4} {'med ms':>7} {'p95 ms':>7}")
    print(header)
    print("-" * len(header))
    for name in datasets:
        report = run_dataset(name, tools, args.limit, args.cache)
        figures[name] = report
        for tool, row in report.items():
            med = f"{row['median_ms']:7.1f}" if row["median_ms"] is not None else "  (cached)"
            p95 = f"{row['p95_ms']:7.1f}" if row["p95_ms"] is not None else ""
            print(f"{name:16} {tool:12} {row['f1']:6.3f} {row['precision']:6.3f} "
                  f"{row['recall']:6.3f} {row['mean_page_f1']:6.3f} {row['empty']:5d} "
                  f"{row['failures']:4d} {med} {p95}")
            if len(row["word_f1"]) > 1 or name.startswith("wcxb"):
                print(" " * 17 + "word F1: " + " ".join(
                    f"{group} {value:.3f}" for group, value in row["word_f1"].items()))
        sys.stdout.flush()
    if "auto" in tools:
        print()
        for tool in tools:
            mean_f1 = statistics.mean(figures[d][tool]["f1"] for d in datasets)
            print(f"mean F1 over {len(datasets)} datasets  {tool:12} {mean_f1:.4f}")
        if "trafilatura" in tools:
            for name in datasets:
                ours, theirs = figures[name]["auto"], figures[name]["trafilatura"]
                if theirs["median_ms"]:
                    print(f"{name:16} auto/trafilatura time ratio: median "
                          f"{ours['median_ms'] / theirs['median_ms']:.2f}, p95 "
                          f"{ours['p95_ms'] / theirs['p95_ms']:.2f}")
    if args.memory:
        largest = "dragnet" if "dragnet" in datasets else datasets[0]
        figures["memory"] = peak_memory(largest, params)
        print("\nblocksift batch --algo auto --jobs 1:", json.dumps(figures["memory"]))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

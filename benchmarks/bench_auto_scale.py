"""Cost of ``auto`` on large synthetic pages: microseconds per element and peak memory.

Each size runs in a fresh process: it builds a page of N paragraphs (with a menu, a sidebar
and a footer around them), then times ``auto.extract`` (parse included) and reads the
process's peak resident memory before and after. The goal (issue 19, applied to auto):
at most 10 µs per element (a 300,000-paragraph page in at most 3 s) and a peak at most
30 times the page's size.

    nice -n 10 python3 benchmarks/bench_auto_scale.py [--sizes 1000,10000,100000,300000]
        [--algo auto] [--model fast] [--host DIR ...] [--param K=V ...] [--warm]

``--warm`` extracts a small page and loads the fast model before the timed page, as a
serving process has done: the lazy imports and the model's arrays stay out of the figures.

``--host DIR`` (repeatable) runs the code of another checkout's ``host`` folder (say, the
main branch's) beside this one, size by size in turn, so a before/after comparison shares
the machine's load; each row then names its host folder.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
from blocksift import algorithms
from blocksift.page import Page
n = int(sys.argv[1]); name = sys.argv[2]; model_name = sys.argv[4] or None
module = algorithms.load(name)
params = module.Params(**json.loads(sys.argv[5]))
model = module.load_model(model_name) if name == "auto" else None
menu = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(30))
paras = "".join(f"<p>Paragraph {i} says something, with a comma and an end.</p>"
                for i in range(n))
html = (f"<html><head><title>Big</title></head><body><nav><ul>{menu}</ul></nav>"
        f"<article><h1>Big page</h1>{paras}</article><aside><ul>{menu}</ul></aside>"
        f"<footer>Footer text</footer></body></html>")
if sys.argv[6] == "warm":  # as in a serving process: lazy imports done, models loaded
    warm_page = Page("<html><body><article><p>A small page first.</p></article></body></html>")
    module.extract(warm_page, params, model) if model else module.extract(warm_page, params)
    if name == "auto":
        module.load_model("fast")  # the model auto switches to on long pages
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
page = Page(html)
result = module.extract(page, params, model) if model else module.extract(page, params)
seconds = time.perf_counter() - started
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
elements = sum(1 for _ in page.tree.iter())
print(json.dumps({"paragraphs": n, "elements": elements, "bytes": len(html.encode()),
                  "seconds": seconds, "us_per_element": seconds / elements * 1e6,
                  "peak_mb": after / 1024, "added_mb": (after - before) / 1024,
                  "chars_out": len(result.main.text) if result.main else 0}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000,300000")
    parser.add_argument("--algo", default="auto")
    parser.add_argument("--model", default="", help="auto: a model file or a bundled "
                        "model's name (fast)")
    parser.add_argument("--host", action="append", default=[], type=Path,
                        help="also run another checkout's host folder (repeatable)")
    parser.add_argument("--warm", action="store_true",
                        help="measure as a serving process would: a small page extracted and "
                             "the models loaded before the timed page")
    parser.add_argument("--param", action="append", default=[], metavar="K=V",
                        help="an algorithm parameter, JSON value (auto: long_page_elements=0 "
                             "keeps the default model on every page)")
    args = parser.parse_args()
    params = {}
    for item in args.param:
        key, _, value = item.partition("=")
        params[key] = json.loads(value)
    hosts = [HERE.parent / "host"] + [path.resolve() for path in args.host]
    label = "  host" if args.host else ""
    print(f"{'paragraphs':>10} {'elements':>9} {'MB':>6} {'seconds':>8} {'us/elem':>8} "
          f"{'peak MB':>8} {'added MB':>8} {'added/size':>10}{label}")
    for size in (int(s) for s in args.sizes.split(",")):
        for host in hosts:
            done = subprocess.run([sys.executable, "-c", CHILD, str(size), args.algo,
                                   str(host), args.model, json.dumps(params),
                                   "warm" if args.warm else "cold"],
                                  capture_output=True, text=True, check=False)
            where = f"  {host}" if args.host else ""
            if done.returncode:
                print(f"{size:>10} failed: {done.stderr.strip().splitlines()[-1:]}{where}")
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            mb = row["bytes"] / 1e6
            print(f"{row['paragraphs']:>10} {row['elements']:>9} {mb:6.1f} "
                  f"{row['seconds']:8.2f} {row['us_per_element']:8.1f} {row['peak_mb']:8.0f} "
                  f"{row['added_mb']:8.0f} {row['added_mb'] / mb:10.1f}{where}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

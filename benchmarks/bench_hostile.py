"""Cost per element and peak memory on large synthetic (hostile) pages, every algorithm.

Pages: 300,000 ``<p>``; 200,000 links; one tag with 100,000 attributes (each ``--scale``d).
Each (algorithm, page) runs in a fresh process, so peak memory is its own: the figure is
(peak RSS - RSS with the page string already in memory) / page size in bytes. Time is from
the HTML string to the result (the page's scan and parse included), divided by the page's
element count for microseconds per element. References run beside: ``tree`` (the page's scan,
stamp and lxml parse, where every algorithm starts), ``lxml`` (lxml.html's parse of the page as
it is, no stamp) and resiliparse (main-content text) when it is installed: the floor a tree of
lxml sets, and a native extractor's figures. Prints a table; nothing is asserted (speed goes in
figures).

    nice -n 10 python3 benchmarks/bench_hostile.py [--scale 1.0] [--algos auto,linkblocks]
        [--pages paragraphs,links,attributes] [--timeout 300] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ALGORITHMS = ["auto", "linkblocks", "linkdensity", "clustering", "farsw"]
PAGES = ["paragraphs", "links", "attributes"]
#: Not algorithms: what every algorithm's figure includes (``tree``), and lxml alone.
REFERENCES = ["tree", "lxml"]
#: The goals (issue 19): auto at most 10 us per element and 30 x the page size at its peak.
GOAL_US_PER_ELEMENT = 10.0
GOAL_PEAK_RATIO = 30.0


def synthetic_page(kind: str, scale: float = 1.0) -> tuple[str, int]:
    """The page's HTML and its element count."""
    if kind == "paragraphs":
        count = int(300_000 * scale)
        body = "".join(f"<p>Paragraph {i} of the page, a few words long.</p>\n"
                       for i in range(count))
        return f"<html><head><title>p</title></head><body>{body}</body></html>", count + 4
    if kind == "links":
        count = int(200_000 * scale)
        body = "".join(f'<li><a href="/page/{i}">link number {i}</a></li>\n'
                       for i in range(count))
        return (f"<html><head><title>l</title></head><body><ul>{body}</ul>"
                f"<p>{'Some article text. ' * 50}</p></body></html>", 2 * count + 6)
    if kind == "attributes":
        count = int(100_000 * scale)
        attributes = " ".join(f'data-a{i}="{i}"' for i in range(count))
        return (f"<html><head><title>a</title></head><body><div {attributes}>"
                f"<p>{'Some article text. ' * 50}</p></div></body></html>", count)
    raise ValueError(kind)


def _rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def measure_one(algorithm: str, kind: str, scale: float) -> dict[str, object]:
    """Run in a fresh child: one algorithm on one page; time and peak memory."""
    sys.path.insert(0, str(REPO / "host"))
    html, elements = synthetic_page(kind, scale)
    if algorithm == "resiliparse":
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree

        def run() -> None:
            extract_plain_text(HTMLTree.parse(html), main_content=True)
    elif algorithm == "lxml":
        from lxml import html as lxml_html

        def run() -> None:
            lxml_html.document_fromstring(html.encode("utf-8"),
                                          parser=lxml_html.HTMLParser(huge_tree=True))
    elif algorithm == "tree":
        from blocksift.page import Page

        def run() -> None:
            Page(html).tree  # noqa: B018 (the lazy parse is the work measured)
    else:
        from blocksift.algorithms import load
        from blocksift.page import Page

        module = load(algorithm)
        params = module.Params()
        model = module.load_model() if getattr(module, "MODEL", None) == "trained" else None

        def run() -> None:
            module.extract(Page(html), params, model=model)

    baseline_kib = _rss_kib()
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    size = len(html.encode("utf-8"))
    return {"algorithm": algorithm, "page": kind, "bytes": size, "elements": elements,
            "seconds": round(seconds, 3),
            "us_per_element": round(seconds * 1e6 / elements, 2),
            "peak_mb": round(peak_kib / 1024, 1),
            "peak_over_page": round(max(0, peak_kib - baseline_kib) * 1024 / size, 1)}


def run_child(algorithm: str, kind: str, scale: float, timeout: float) -> dict[str, object]:
    command = [sys.executable, __file__, "--child", algorithm, kind, "--scale", str(scale)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, PYTHONPATH=str(REPO / "host")))
    except subprocess.TimeoutExpired:
        return {"algorithm": algorithm, "page": kind, "error": f"over {timeout:g} s"}
    if done.returncode != 0:
        return {"algorithm": algorithm, "page": kind,
                "error": (done.stderr.strip().splitlines() or ["failed"])[-1][:120]}
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--algos", default=",".join(ALGORITHMS + REFERENCES + ["resiliparse"]))
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--child", nargs=2, metavar=("ALGO", "PAGE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure_one(args.child[0], args.child[1], args.scale)))
        return 0
    algos = [a for a in args.algos.split(",") if a]
    if "resiliparse" in algos:
        try:
            import resiliparse  # noqa: F401
        except ImportError:
            algos.remove("resiliparse")
    rows = []
    for kind in args.pages.split(","):
        for algorithm in algos:
            row = run_child(algorithm, kind, args.scale, args.timeout)
            rows.append(row)
            if "error" in row:
                print(f"{kind:<11} {algorithm:<12} {row['error']}", flush=True)
            else:
                print(f"{kind:<11} {algorithm:<12} {row['bytes'] / 1e6:6.1f} MB "
                      f"{row['elements']:>8} el  {row['seconds']:8.2f} s  "
                      f"{row['us_per_element']:8.2f} us/el  peak {row['peak_mb']:7.1f} MB  "
                      f"{row['peak_over_page']:6.1f} x page", flush=True)
    auto = [r for r in rows if r.get("algorithm") == "auto" and "error" not in r]
    per_element = [float(r["us_per_element"]) for r in auto if r["page"] != "attributes"]
    if per_element:
        print(f"auto: worst {max(per_element):.2f} us/element "
              f"(goal <= {GOAL_US_PER_ELEMENT:g})")
    if auto:
        print(f"auto: worst peak {max(float(r['peak_over_page']) for r in auto):.1f} x page "
              f"(goal <= {GOAL_PEAK_RATIO:g})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Latency in the real browser, from the user's action to the view shown, on the dev pages.

For each page (served on 127.0.0.1, under ``--max-bytes``): open it, click "Reader view" in
the extension's popup and wait for the reader view to be drawn; open it again, click
"Hide link blocks" and wait until the host's hide plan is applied; open it again, click "Show
blocks" and wait until the overlay is drawn (``--actions``). Two clocks:

* ``ext`` -- what the extension itself measured: ``Date.now()`` at the click in the popup to
  the reader view's first frame after rendering (``requestAnimationFrame``), or to the
  injected CSS being in place (hide). This is the user-visible latency.
* ``wall`` -- the harness's clock from sending the click to seeing the status (includes the
  automation's own round trips and polling, so it is an upper bound).
* ``loading`` (reader) -- the extension's clock from the click to the first frame showing
  the page's title and the reader's loading state, before the text arrives (drawn over the
  page itself before the snapshot, then in the reader page: ``loading state in the reader
  page`` is the latter's own figure, its first script running).

The first action after the browser starts pays the host's cold start (process spawn,
Python start-up, imports) and is reported on its own. Run::

    nice -n 10 python3 benchmarks/bench_browser_latency.py --browser both --limit 40

The pages are served with ``Content-Security-Policy: script-src 'none'``: their scripts are
third-party and cannot load offline, and inline ones sometimes redirect away (frame busting).
Needs ../shared/datasets (``BLOCKSIFT_DATASETS``; dragnet by default), Debian
``chromium``/``firefox-esr``, ``playwright`` and ``websockets``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
sys.path.insert(0, str(REPO / "host"))

import e2e_harness as harness  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (no interpolation: a reported p95 is a measured value)."""
    ordered = sorted(values)
    rank = max(1, int(-(-q * len(ordered) // 100)))  # ceil(q/100 * n)
    return ordered[min(rank, len(ordered)) - 1]


def summarize(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "median": round(statistics.median(values), 1),
            "p95": round(percentile(values, 95), 1), "max": round(max(values), 1)}


def load_pages(dataset: str, limit: int, max_bytes: int, folder: Path) -> list[tuple[str, int]]:
    from blocksift.evaluation.datasets import iter_pages, resolve

    pages = []
    for page in iter_pages(resolve(dataset)):
        size = len(page.html.encode("utf-8"))
        if size >= max_bytes:
            continue
        name = f"p{len(pages):03d}.html"
        (folder / name).write_text(page.html, encoding="utf-8")
        pages.append((name, size))
        if len(pages) >= limit:
            break
    return pages


def measure(browser: harness.Browser, site: harness.Site, pages: list[tuple[str, int]],
            verbose: bool, actions: tuple[str, ...] = ("reader", "hide")) -> dict[str, Any]:
    records = []
    for index, (name, size) in enumerate(pages):
        for action in actions:
            started = time.perf_counter()
            try:
                tab = browser.new_tab(site.url(name))
                started = time.perf_counter()
                status = browser.act(tab, action, timeout=120)
            except (TimeoutError, RuntimeError) as err:
                status = {"status": "harness-error", "error": str(err)[:300]}
            wall = (time.perf_counter() - started) * 1000
            record = {"page": name, "bytes": size, "action": action, "status": status.get("status"),
                      "ext_ms": float(status["ms"]) if status.get("ms") else None,
                      "wall_ms": round(wall, 1),
                      "host_ms": float(status["host-ms"]) if status.get("host-ms") else None,
                      "loading_ms": float(status["loading-ms"]) if status.get("loading-ms")
                      else None,
                      "reader_loading_ms": float(status["reader-loading-ms"])
                      if status.get("reader-loading-ms") else None,
                      "cover_ms": float(status["cover-ms"]) if status.get("cover-ms") else None,
                      "first": index == 0 and action == actions[0],
                      "phases": json.loads(status["phases"]) if status.get("phases") else None,
                      "error": status.get("error")}
            records.append(record)
            if verbose:
                print(json.dumps(record), file=sys.stderr)
            try:
                tab.close()
            except Exception:
                pass
    shown = {"reader": "ready", "hide": "hidden", "overlay": "overlay"}
    result: dict[str, Any] = {"pages": len(pages), "records": records, "actions": {}}
    for action in actions:
        done = [r for r in records if r["action"] == action and not r["first"]]
        ok = [r for r in done if r["status"] == shown[action]]
        result["actions"][action] = {
            "statuses": {s: sum(1 for r in done if r["status"] == s)
                         for s in sorted({r["status"] for r in done})},
            "ext_ms": summarize([r["ext_ms"] for r in ok if r["ext_ms"] is not None]),
            "wall_ms": summarize([r["wall_ms"] for r in ok]),
            "host_ms": summarize([r["host_ms"] for r in ok if r["host_ms"] is not None]),
            "loading_ms": summarize([r["loading_ms"] for r in ok if r["loading_ms"] is not None]),
            "reader_loading_ms": summarize([r["reader_loading_ms"] for r in ok
                                            if r["reader_loading_ms"] is not None]),
        }
    first = next(r for r in records if r["first"])
    result["first_action_cold"] = {k: first.get(k) for k in (
        "status", "ext_ms", "wall_ms", "host_ms", "bytes", "loading_ms", "reader_loading_ms")}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browser", choices=["chromium", "firefox", "both"], default="both")
    parser.add_argument("--dataset", default="dragnet")
    parser.add_argument("--limit", type=int, default=40, help="pages (default %(default)s)")
    parser.add_argument("--max-bytes", type=int, default=1024 * 1024,
                        help="only pages under this size (default 1 MiB)")
    parser.add_argument("--json", type=Path, help="also write all figures here")
    parser.add_argument("--actions", default="reader,hide,overlay",
                        help="comma-separated actions to time, in order (default %(default)s); "
                             "hide and overlay ask the host's hide plan")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    report: dict[str, Any] = {"dataset": args.dataset, "limit": args.limit,
                              "max_bytes": args.max_bytes}
    names = ["chromium", "firefox"] if args.browser == "both" else [args.browser]
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        folder = Path(tmp) / "pages"
        folder.mkdir()
        try:
            pages = load_pages(args.dataset, args.limit, args.max_bytes, folder)
        except FileNotFoundError as err:
            print(f"{err} -- point BLOCKSIFT_DATASETS at the shared datasets folder",
                  file=sys.stderr)
            return 2
        (folder / "blank.html").write_text("<!doctype html><title>blank</title>", encoding="utf-8")
        # The dev pages' scripts are third-party and cannot load offline; some that are inline
        # redirect (frame busting) away from the page. Serve the pages without scripts.
        site = harness.Site(folder, headers={"Content-Security-Policy": "script-src 'none'"})
        try:
            for name in names:
                workdir = Path(tmp) / name
                host = harness.HostInstall(workdir / "host")
                launchpad = site.url("blank.html", host="localhost")
                with harness.launch(name, workdir, host, launchpad=launchpad) as browser:
                    report[name] = measure(browser, site, pages, args.verbose,
                                           tuple(args.actions.split(",")))
        finally:
            site.close()

    sizes = sorted(size for _, size in pages)
    print(f"{len(pages)} {args.dataset} pages under {args.max_bytes} bytes "
          f"(median {statistics.median(sizes) / 1024:.0f} KiB, max {sizes[-1] / 1024:.0f} KiB)")
    for name in names:
        data = report[name]
        cold = data["first_action_cold"]
        print(f"\n{name}: first action after browser start ({args.actions.split(',')[0]}, "
              "host cold start): "
              f"title and loading shown {cold.get('loading_ms')} ms "
              f"(in the reader page {cold.get('reader_loading_ms')} ms), "
              f"ext {cold['ext_ms']} ms, wall {cold['wall_ms']} ms, status {cold['status']}")
        for action, figures in data["actions"].items():
            ext, wall, host_ms = figures["ext_ms"], figures["wall_ms"], figures["host_ms"]
            print(f"  {action:6s} statuses {figures['statuses']}")
            print(f"  {action:6s} ext  median {ext.get('median')} ms  p95 {ext.get('p95')} ms"
                  f"  max {ext.get('max')} ms  (n={ext['n']})")
            print(f"  {action:6s} wall median {wall.get('median')} ms  p95 {wall.get('p95')} ms")
            print(f"  {action:6s} host median {host_ms.get('median')} ms"
                  f"  p95 {host_ms.get('p95')} ms")
            loading = figures["loading_ms"]
            if loading["n"]:
                print(f"  {action:6s} loading state median {loading.get('median')} ms"
                      f"  p95 {loading.get('p95')} ms  (n={loading['n']})")
            in_reader = figures["reader_loading_ms"]
            if in_reader["n"]:
                print(f"  {action:6s} loading state in the reader page median "
                      f"{in_reader.get('median')} ms  p95 {in_reader.get('p95')} ms")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the page agent's snapshot costs on saved pages, for two versions of the agent.

Each page is served on 127.0.0.1 (its scripts blocked: they are third-party and offline)
and opened in Chromium without the extension; the agent's source (``extension/src/agent.js``
of the working tree, or of a git revision) runs in the page and takes the snapshot
``--runs`` times after one warm-up run. Reported per page and version: the median of the
snapshot's own ``ms``, of the page's main thread's CPU time over the call (CDP's
``ThreadTime``: the figure to trust on a busy machine, where other processes stretch the
wall-clock ``ms``), its elements and the characters of HTML it sends. Run::

    nice -n 5 .venv/bin/python tests/e2e/measure_snapshot.py --base HEAD~1 page.html ...
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_harness as harness  # noqa: E402

AGENT = "extension/src/agent.js"


def agent_source(revision: str | None) -> str:
    if revision is None:
        source = (harness.REPO / AGENT).read_text(encoding="utf-8")
    else:
        source = subprocess.run(["git", "show", f"{revision}:{AGENT}"], cwd=harness.REPO,
                                capture_output=True, text=True, check=True).stdout
    return source.replace("export function agentCall", "function agentCall", 1)


def thread_time(cdp) -> float:
    """CPU seconds the page's main thread has used (CDP Performance metrics)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "ThreadTime")


def measure(page, cdp, url: str, source: str, runs: int) -> dict:
    page.goto(url, wait_until="load")
    page.evaluate(f"() => {{ {source}\n globalThis.__measureAgent = agentCall; }}")
    one = ("() => { const r = globalThis.__measureAgent('snapshot', []);"
           " if (!r.ok) throw new Error(r.error);"
           " return {ms: r.value.ms, elements: r.value.elements, chars: r.value.html.length}; }")
    page.evaluate(one)  # warm-up
    results, cpu = [], []
    for _ in range(runs):
        before = thread_time(cdp)
        results.append(page.evaluate(one))
        cpu.append((thread_time(cdp) - before) * 1000)
    return {"ms": round(statistics.median(r["ms"] for r in results), 1),
            "cpu": round(statistics.median(cpu), 1),
            "elements": results[0]["elements"], "chars": results[0]["chars"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--base", default="HEAD~1", help="git revision to compare with")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    versions = {args.base: agent_source(args.base), "working tree": agent_source(None)}
    folders = {page.resolve().parent for page in args.pages}
    site = harness.Site(*folders, headers={"Content-Security-Policy": "script-src 'none'"})
    try:
        with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=harness.CHROMIUM, headless=True, bypass_csp=True,
                args=harness.CHROMIUM_FLAGS, viewport={"width": 1280, "height": 900})
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
            for path in args.pages:
                url = site.url(path.name)
                # alternated, so that neither version always runs on a warmer browser
                rows: dict[str, list[dict]] = {name: [] for name in versions}
                for _ in range(2):
                    for name, source in versions.items():
                        rows[name].append(measure(page, cdp, url, source, args.runs))
                for name, results in rows.items():
                    ms = statistics.median(r["ms"] for r in results)
                    cpu = statistics.median(r["cpu"] for r in results)
                    print(f"{path.name:<24} {name:<14} snapshot {ms:7.1f} ms  cpu {cpu:7.1f} ms  "
                          f"{results[0]['elements']:6d} elements  {results[0]['chars']:9d} chars")
            context.close()
    finally:
        site.close()


if __name__ == "__main__":
    main()

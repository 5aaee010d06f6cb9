#!/usr/bin/env python3
"""How quickly the labeler answers on a large page, in real Chromium with the real host.

Measures, on the generated 5 MB page of the E2E tests (``big.html``): the time from the click
on "Label this page" in the popup to the labeler's first status (snapshot, extraction, inject,
first drawing), then the time from a real mouse click on a paragraph to the updated counts
(the selection model and the redraw), and from a click on a section back. Figures come from
the page's own clock (``performance.now`` around the event and the status change).

    nice -n 10 python3 benchmarks/bench_labeler.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

import e2e_harness as harness  # noqa: E402
from e2e_pages import generate_pages  # noqa: E402

# Time from just before the click is sent to the end of the labeler's handling of it: the
# labeler stops the click's propagation, so a mutation observer on its status attribute
# (run right after its handler, layout of the redraw included, paint not) takes the time.
CLICK_CLOCK = """(() => {
  const root = document.documentElement;
  window.__clickMs = null;
  const observer = new MutationObserver(() => {
    window.__clickMs = performance.now() - window.__t0;
    observer.disconnect();
  });
  observer.observe(root, {attributes: true, attributeFilter: ['data-blocksift-label-undo']});
  window.__t0 = performance.now();
  return true;
})()"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pages = work / "pages"
        pages.mkdir()
        site = harness.Site(REPO / "tests" / "e2e" / "pages", pages)
        generate_pages(pages, hit_url=site.url("__hit"))
        host = harness.HostInstall(work / "host")
        start_ms, toggle_ms = [], []
        launchpad = site.url("blank.html", host="localhost")
        with harness.launch("chromium", work, host, launchpad=launchpad) as browser:
            page = browser.new_tab(site.url("big.html"))
            elements = page.evaluate("document.getElementsByTagName('*').length")
            for _ in range(args.repeat):
                control = browser.popup(page.url)
                began = time.perf_counter()
                control.evaluate("document.getElementById('act-label').click(), true")
                page.wait_for("document.documentElement.dataset.blocksiftStatus === 'labeling'",
                              timeout=120)
                start_ms.append((time.perf_counter() - began) * 1000)
                control.close()
                page.activate()
                for selector in ("#s3 p", "#s5"):
                    page.evaluate(f"document.querySelector('{selector}')"
                                  ".scrollIntoView({block: 'center'}), true")
                    box = page.page.locator(selector).first.bounding_box()
                    page.page.mouse.move(box["x"] + 5, box["y"] + 5)
                    page.evaluate(CLICK_CLOCK)
                    page.page.mouse.click(box["x"] + 5, box["y"] + 5)
                    toggle_ms.append(page.wait_for("window.__clickMs", timeout=60))
                page.page.keyboard.press("Escape")
                page.wait_for("document.documentElement.dataset.blocksiftStatus"
                              " === 'label-cancelled'")
        site.close()
    print(f"big.html: {elements} elements")
    print("start (popup click -> labeler drawn), ms: "
          f"median {statistics.median(start_ms):.0f}, "
          f"max {max(start_ms):.0f} (n={len(start_ms)}; includes the host's extraction)")
    print("toggle (click sent -> handled, redraw laid out), ms: "
          f"median {statistics.median(toggle_ms):.1f}, "
          f"max {max(toggle_ms):.1f} (n={len(toggle_ms)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

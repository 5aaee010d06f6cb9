"""Tag names XPath cannot read ("link<div", control characters) fail no algorithm or action.

HTML parsers keep such names; the XPaths written for them used to hold them as they are, and
the hide plan and the reader's page summary, which read the main content back through those
paths, failed with an internal error (found by ``benchmarks/fuzz_pages.py``, actions in turn).
"""

from __future__ import annotations

import pytest

from blocksift import algorithms
from blocksift.actions.hide import hide_for, page_summary
from blocksift.page import Page

ARTICLE = "<p>" + "Words of the article body, read to the end. " * 30 + "</p>"
NAV = "<nav><a href='/a'>A</a> <a href='/b'>B</a></nav>"
PAGES = {
    # "link<div" as a path step reads as a comparison: the path is a boolean, not elements
    "comparison": f"<html><body>{NAV}<link<div>{ARTICLE * 4}</link<div></body></html>",
    # a control character in a step: lxml refuses the path
    "control-character": (f"<html><body>{NAV}<div><dl><dt>Q</dt><dd\x18\x08><div>"
                          f"{ARTICLE * 4}</div></dd\x18\x08></dl></div></body></html>"),
}

@pytest.mark.parametrize("name", sorted(PAGES))
@pytest.mark.parametrize("algorithm", ["auto", "linkblocks", "linkdensity", "clustering",
                                       "farsw", "auto-rules"])
def test_every_algorithm_and_action_reads_its_own_paths_back(algorithm, name):
    module = algorithms.load(algorithm)
    page = Page(PAGES[name], url="https://example.com/story")
    model = module.load_model() if getattr(module, "MODEL", None) == "trained" else None
    result = module.extract(page, module.Params(), model=model)
    paths = [p for block in result.blocks for p in block.xpaths]
    paths += result.main.xpaths if result.main else []
    for path in paths:
        found = page.tree.xpath(path)
        assert isinstance(found, list) and len(found) == 1, path
    hide_for(page, result)
    summary = page_summary(page, result)
    assert summary.page_kind in ("article", "index")

"""The compiled walk (``segmenter/_walk.pyx``) against the Python walk it stands in for: the
same records and extraction, item for item, on every bundled page and on markup made to
reach its rarer paths."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from blocksift.algorithms.segmenter import features
from blocksift.page import Page, decode_html

ROOT = Path(__file__).resolve().parents[2]
BUNDLED_PAGES = sorted([*(ROOT / "tests").glob("golden/*/source.html"),
                        *(ROOT / "tests" / "fixtures").rglob("*.html"),
                        *(ROOT / "examples").glob("*.html")])

needs_walk = pytest.mark.skipif(features._compiled_walk is None,
                                reason="the compiled walk was not built (no C compiler at install)")

#: Markup for the compiled walk's rarer paths: attributes in a namespace, a class that is not
#: the last attribute, an empty class, entities in values, comments, processing instructions
#: and CDATA among text, hidden and ARIA marks, links with and without href, skipped tags
#: with tails, a head inside the body, and white space of every kind.
RARE_PATHS = """<html><head><title>t</title></head><body class="page main">
<!-- a comment --> tail of a comment <?php echo 1 ?> tail of a PI
<div id="content" class="post" role="main"><p class>empty class</p>
<p class="a &amp; b" data-x="1">class first, then another</p>
<p xml:lang="en" class="intro">namespaced</p><svg xmlns:xlink="http://www.w3.org/1999/xlink">
<a xlink:href="#x">svg link</a></svg>
<p style="display:none">hidden by style</p><p hidden>hidden</p>
<div aria-hidden="true">aria</div><div itemprop="articleBody">body <b>bold</b> tail</div>
<a href="/x">with href</a> <a name="y">no href</a><br>after a break
<script>var x = 1;</script> script tail <style>p{}</style>\tstyle tail\u00a0\u2003 wide
<nav role="navigation"><ul><li><a href="/1">one</a></li><li><a href="/2">two</a></li></ul>
</nav><head><meta name="x"></head>text after an inner head
<table><tr><td>cell\u3000one</td><td>  two  \n\n three </td></tr></table>
<p>\x1cfile separator\x1f and  double  spaces</p><aside class="sidebar ad">side</aside>
</div><footer class="site-footer"><p>foot</p></footer></body></html>"""


def _walks_agree(page: Page) -> None:
    python, compiled = features.walk(page, compiled=False), features.walk(page, compiled=True)
    assert compiled.tags == python.tags
    assert compiled.piece_text == python.piece_text
    assert list(compiled.piece_block) == list(python.piece_block)
    assert [id(el) for el in compiled.blocks] == [id(el) for el in python.blocks]
    assert [id(el) for el in compiled.containers] == [id(el) for el in python.containers]
    assert (compiled.chars, compiled.link_chars_total) == (python.chars, python.link_chars_total)
    for name in ("link_chars", "links", "inline_children", "state", "hints", "near_hints",
                 "depth", "parent", "container_rows", "container_stats"):
        assert np.array_equal(getattr(compiled, name), getattr(python, name)), name
    if python.link_density_rows is None:
        assert compiled.link_density_rows is None
    else:
        assert np.array_equal(compiled.link_density_rows, python.link_density_rows)


def test_every_bundled_page_is_found():
    assert len(BUNDLED_PAGES) >= 30


@needs_walk
@pytest.mark.parametrize("path", BUNDLED_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
@pytest.mark.parametrize("spans", [True, False], ids=["stamped", "as-is"])
def test_the_compiled_walk_gives_the_python_walks_records(path: Path, spans: bool):
    _walks_agree(Page(decode_html(path.read_bytes()), spans=spans))


@needs_walk
@pytest.mark.parametrize("spans", [True, False], ids=["stamped", "as-is"])
def test_the_compiled_walk_agrees_on_rare_markup(spans: bool):
    page = Page(RARE_PATHS, spans=spans)
    walked = features.walk(page, compiled=True)
    assert walked.state.size and (walked.state & features._HIDDEN).any()  # the marks are read
    _walks_agree(page)


@needs_walk
def test_the_compiled_walk_survives_a_very_deep_page():
    depth = 5000  # far past its first frame stack (64) and Python's recursion limit
    page = Page("<html><body>" + "<div><span>x</span>" * depth + "</div>" * depth
                + "</body></html>", spans=False)
    _walks_agree(page)


@needs_walk
def test_asking_for_the_compiled_walk_where_it_is_missing_says_so(monkeypatch):
    monkeypatch.setattr(features, "_compiled_walk", None)
    with pytest.raises(RuntimeError, match="not built"):
        features.walk(Page("<p>x</p>"), compiled=True)


def _in_a_fresh_process(env: dict[str, str], *args: str) -> str:
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout


@needs_walk
def test_without_the_speedups_the_extraction_is_the_same():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host")}
    pure_env = {**env, "BLOCKSIFT_NO_SPEEDUPS": "1"}
    which = ("-c", "from blocksift.algorithms.segmenter import features; "
                   "print(features._compiled_walk is None)")
    assert _in_a_fresh_process(env, *which).split() == ["False"]
    assert _in_a_fresh_process(pure_env, *which).split() == ["True"]
    extract = ("-m", "blocksift", "extract", str(ROOT / "examples" / "article.html"),
               "--format", "json")
    compiled = json.loads(_in_a_fresh_process(env, *extract))
    pure = json.loads(_in_a_fresh_process(pure_env, *extract))
    compiled.pop("ms"), pure.pop("ms")  # the time taken is the one thing that differs
    assert compiled["blocks"] and compiled["main"] and compiled == pure


@pytest.mark.skipif(not os.environ.get("CI") or not sys.platform.startswith("linux"),
                    reason="only CI on Linux promises a C compiler at install")
def test_ci_builds_the_compiled_walk():
    # else the comparisons above would all skip, and CI would check nothing of them
    assert features._compiled_walk is not None

"""The compiled walk and trees (``segmenter/_walk.pyx``, ``_trees.pyx``) against the Python
walk and numpy trees they stand in for: the same records, leaves and extraction, item for
item, on every bundled page and on markup made to reach their rarer paths."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from blocksift.algorithms.segmenter import features, trees
from blocksift.page import Page, decode_html

ROOT = Path(__file__).resolve().parents[2]
BUNDLED_PAGES = sorted([*(ROOT / "tests").glob("golden/*/source.html"),
                        *(ROOT / "tests" / "fixtures").rglob("*.html"),
                        *(ROOT / "examples").glob("*.html")])

needs_walk = pytest.mark.skipif(features._compiled_walk is None,
                                reason="the compiled walk was not built (no C compiler at install)")
needs_trees = pytest.mark.skipif(trees._compiled_trees is None,
                                 reason="the compiled trees were not built (no C compiler at "
                                        "install)")

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
<button><span>icon</span></button><select></select><template><math>x</math></template>
</div><footer class="site-footer"><p>foot</p></footer></body></html>"""


def _walks_agree(page: Page) -> None:
    python, compiled = features.walk(page, compiled=False), features.walk(page, compiled=True)
    assert compiled.tags == python.tags
    assert compiled.piece_text == python.piece_text
    assert list(compiled.piece_block) == list(python.piece_block)
    assert [id(el) for el in compiled.blocks] == [id(el) for el in python.blocks]
    assert [id(el) for el in compiled.containers] == [id(el) for el in python.containers]
    assert (compiled.chars, compiled.link_chars_total) == (python.chars, python.link_chars_total)
    assert compiled.presence == python.presence
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


def _ensemble(seed: int) -> trees.TreeEnsemble:
    """A random forest of full trees of depth 5 over 6 features, some splits sending NaN
    right, with a few stumps (a root that is a leaf)."""
    rng = np.random.default_rng(seed)
    feature, threshold, left, right, value, default_left, roots = [], [], [], [], [], [], []

    def add(level: int) -> int:
        index = len(feature)
        for column in (feature, threshold, left, right, value, default_left):
            column.append(0)
        value[index] = rng.normal()
        if level == 5 or (level == 0 and rng.random() < 0.1):
            feature[index], left[index], right[index], default_left[index] = -1, index, index, 1
            return index
        feature[index] = int(rng.integers(6))
        threshold[index] = float(rng.normal())
        default_left[index] = bool(rng.random() < 0.5)
        left[index] = add(level + 1)
        right[index] = add(level + 1)
        return index

    for _ in range(40):
        roots.append(add(0))
    return trees.TreeEnsemble(np.asarray(feature, np.int32), np.asarray(threshold),
                              np.asarray(left, np.int32), np.asarray(right, np.int32),
                              np.asarray(value), np.asarray(default_left, bool),
                              np.asarray(roots, np.int32), 5)


@needs_trees
@pytest.mark.parametrize("seed", range(5))
def test_the_compiled_trees_reach_the_numpy_walks_leaves(seed: int):
    ensemble = _ensemble(seed)
    x = np.random.default_rng(100 + seed).normal(size=(300, 6))
    x[x > 1.5] = np.nan  # NaN follows each split's default side
    x[:5] = ensemble.threshold[ensemble.feature >= 0][:1]  # ties go left
    assert np.array_equal(ensemble._walk(x), ensemble._walk_numpy(x))
    assert len(np.unique(ensemble._walk(x))) > 40  # many leaves reached, not one path
    # the leaves' values straight from the compiled walk, as numpy takes them by index
    by_index = ensemble._node_value.take(ensemble._walk_numpy(x)).reshape(len(x), -1)
    assert np.array_equal(ensemble._leaf_values(x), by_index)


@needs_trees
def test_a_compiled_module_older_than_its_source_is_not_used():
    from blocksift.speedups import compiled

    name = "blocksift.algorithms.segmenter._trees"
    assert compiled(name, needs=("leaf_states", "leaf_values")) is not None
    assert compiled(name, needs=("leaf_states", "a_function_of_a_newer_source")) is None


@needs_trees
def test_the_compiled_trees_score_the_shipped_model_as_numpy_does(monkeypatch):
    from blocksift.algorithms.auto import load_model

    model = load_model()
    blocks = features.compute(Page((ROOT / "examples" / "article.html").read_text("utf-8")))
    x = model.block_matrix(blocks, np.full(len(model.feature_names), 0.2))
    compiled = model.blocks.raw(x)
    monkeypatch.setattr(trees, "_compiled_trees", None)
    assert np.array_equal(compiled, model.blocks.raw(x))


def _in_a_fresh_process(env: dict[str, str], *args: str) -> str:
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout


@needs_walk
@needs_trees
def test_without_the_speedups_the_extraction_is_the_same():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host")}
    pure_env = {**env, "BLOCKSIFT_NO_SPEEDUPS": "1"}
    which = ("-c", "from blocksift import page, repair; "
                   "from blocksift.algorithms.segmenter import features, trees; "
                   "print(features._compiled_walk is None, trees._compiled_trees is None, "
                   "page._compiled_checks is None, repair._compiled_checks is None)")
    assert _in_a_fresh_process(env, *which).split() == ["False"] * 4
    assert _in_a_fresh_process(pure_env, *which).split() == ["True"] * 4
    extract = ("-m", "blocksift", "extract", str(ROOT / "examples" / "article.html"),
               "--format", "json")
    compiled = json.loads(_in_a_fresh_process(env, *extract))
    pure = json.loads(_in_a_fresh_process(pure_env, *extract))
    compiled.pop("ms"), pure.pop("ms")  # the time taken is the one thing that differs
    assert compiled["blocks"] and compiled["main"] and compiled == pure


@pytest.mark.skipif(not os.environ.get("CI") or not sys.platform.startswith("linux"),
                    reason="only CI on Linux promises a C compiler at install")
def test_ci_builds_the_compiled_walk_trees_raw_checks_and_scans():
    # else the comparisons above (and tests/test_rawchecks.py, test_rawscan_compiled.py)
    # would all skip, and CI would check nothing of them
    from blocksift import page, rawscan
    from blocksift.algorithms import auto_rules, linkblocks
    from blocksift.algorithms.farsw import lines

    assert features._compiled_walk is not None and trees._compiled_trees is not None
    assert page._compiled_checks is not None
    assert rawscan._compiled_scan is not None and lines._compiled_lines is not None
    assert linkblocks._compiled_links is not None and auto_rules._compiled_text is not None

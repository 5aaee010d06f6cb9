"""auto-rules' compiled loops (``_auto_rules.pyx``: ``measure``, ``clean_content``) against
the Python functions they stand in for (``_measure_python``, ``_clean_loop_python``): the
same elements in the same order, every measure field by field, the same pruned and excluded
elements and kept characters, and the same callbacks called on the same measures; on
hand-made markup for their rarer paths, on seeded random markup, on every bundled page and,
where the shared dev datasets are reachable, on a sample of real pages."""

from __future__ import annotations

import dataclasses
import os
import random
import sys
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html

from blocksift.algorithms import auto_rules
from blocksift.page import Page
from blocksift.rawscan import STAMP_ATTR

ROOT = Path(__file__).resolve().parents[2]
BUNDLED_PAGES = sorted([*(ROOT / "tests").glob("golden/*/source.html"),
                        *(ROOT / "tests" / "fixtures").rglob("*.html"),
                        *(ROOT / "examples").glob("*.html")])
DEV_SETS = ("wcxb-dev", "dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce")
FIELDS = [f.name for f in dataclasses.fields(auto_rules._Stat)]

needs_compiled = pytest.mark.skipif(
    auto_rules._compiled_loops is None,
    reason="the compiled auto-rules loops were not built (no C compiler at install, or "
           "BLOCKSIFT_NO_SPEEDUPS is set)")

#: Markup for the loops' rarer paths: comments, processing instructions and skipped tags
#: with tails, nested skipped tags, pruned elements with tails, links in headings, tables
#: (data and layout), lists, embeds and inputs, elements carrying only the stamp, every
#: comma kind, and white space of every kind.
TRICKY = f"""<html><head><title>Tricky page</title></head><body class="page">
lead text, with a comma <!-- a comment --> tail of a comment, counted or not
<?php echo 1 ?> tail of a PI, here
<div id="content" class="post"><h1><a href="/t">A linked headline, long</a> after</h1>
<p>First paragraph, with commas, three of them, and a <a href="/x">link, inside</a> tail.</p>
<script>var a = "x, y";</script> script tail, counted <noscript><p>in noscript</p>
<template><p>in template</p></template></noscript> noscript tail
<template><div><script>1</script></div></template>template tail
<div class="sidebar">unlikely, pruned<p>inner</p></div> tail after a pruned div, kept
<nav><ul><li><a href="/1">one</a></li><li><a href="/2">two</a></li></ul></nav>nav tail
<aside role="complementary">aside</aside><footer>foot</footer>footer tail
<div class="comment-list">comments<p>c, c</p></div>
<div class="article-body" {STAMP_ATTR}="7"><p {STAMP_ATTR}="8">stamp only, text</p>
<span {STAMP_ATTR}="9">inline span</span> tail<img src="a.png"><img src="b.png"></div>
<ul><li>one, two</li><li>three<ul><li>nested</li></ul></li><li></li></ul>
<ol><li><a href="/a">link item</a></li><li><a href="/b">link item</a></li></ol>
<table><tr><td>layout cell, text</td><td><a href="/c">nav cell</a></td></tr></table>
<table summary="data"><caption>Caption</caption><tr><th>h</th></tr>
<tr><td><table><tr><td>nested, cell</td></tr></table></td></tr></table>
<form><input type="text"> after input<button>go</button> after button
<select><option>o</option></select><textarea>t</textarea></form>
<object data="x"><embed src="y"></object> after object<iframe src="z"></iframe>after iframe
<embed src="e"> after embed
<p style="display:none">hidden by style</p><p hidden>hidden</p>
<div aria-hidden="true">aria hidden</div><div class="share-bar">share</div>
<h2 class="meta">negative heading</h2><h3>heading <b>bold</b>, text</h3>
<p>中文，逗号，三个。 عربي، فاصلة، ثانية ﹐ ︐ ︑ ⹁ ⸴ ⸲ odd commas</p>
<p>\t tabs\u00a0and\u2003wide\u3000spaces\x1c separators\x1f  </p>
<pre>  code,  kept   as is </pre><section><div>div in section</div>section text</section>
<center><font>old, layout</font></center><svg><text>svg text</text></svg> svg tail
<div>div with inline text, long enough to count as a run of its own for sure<p>p</p>
more inline text after the block, also long enough</div>
<p>Sign up for the newsletter <a href="/s">now</a></p>
</div><div class="related">related</div>trailing body text</body></html>"""


def _fields(st) -> list:
    return [getattr(st, name) for name in FIELDS]


def _assert_same_analysis(python: auto_rules._Analysis, compiled: auto_rules._Analysis) -> None:
    assert [id(el) for el in compiled.stats] == [id(el) for el in python.stats]
    for el, st in python.stats.items():
        assert _fields(compiled.stats[el]) == _fields(st), (el, _fields(st))
    assert [id(el) for el in compiled.pruned] == [id(el) for el in python.pruned]


def _memo_pruner(seed: int, share: float):
    """A pruner deciding at random, the same for an element however often it is asked."""
    rng = random.Random(seed)
    decided: dict[etree._Element, bool] = {}

    def prune(el: etree._Element) -> bool:
        if el not in decided:
            decided[el] = rng.random() < share
        return decided[el]

    return prune


def _pruners():
    for params in (auto_rules.Params(), auto_rules.Params(prune_landmarks=False),
                   auto_rules.Params(include_comments=True)):
        for strip in (True, False):
            yield auto_rules._unlikely_pruner(params, auto_rules._Flags(strip_unlikely=strip))
    yield _memo_pruner(1, 0.2)


def _measures_agree(root: etree._Element) -> None:
    for prune in _pruners():
        python = auto_rules._measure_python(root, prune)
        _assert_same_analysis(python, auto_rules._measure_compiled(root, prune))


def _recording(always, conditional, calls: list):
    def always_seen(el):
        found = always(el)
        calls.append(("always", el, found))  # the element kept: its proxy stays the same
        return found

    def conditional_seen(el, st, in_data_table):
        found = conditional(el, st, in_data_table)
        calls.append(("conditional", el, _fields(st), in_data_table, found))
        return found

    return always_seen, conditional_seen


def _cleanings_agree(elements: list[etree._Element], pruned=frozenset()) -> None:
    for params in (auto_rules.Params(), auto_rules.Params(favor_precision=True),
                   auto_rules.Params(favor_recall=True, protect_data_tables=False),
                   auto_rules.Params(include_tables=False, include_comments=True)):
        for flags in (auto_rules._Flags(), auto_rules._Flags(False, False, False)):
            always, conditional = auto_rules._content_pruner(params, flags)
            seen: dict[str, list] = {}
            found = {}
            for name, loop in (("python", auto_rules._clean_loop_python),
                               ("compiled", auto_rules._clean_loop_compiled)):
                calls = seen[name] = []
                exclude, kept = loop(elements, pruned, *_recording(always, conditional, calls),
                                     params.protect_data_tables)
                found[name] = (exclude, kept)
            assert len(seen["compiled"]) == len(seen["python"])
            for compiled, python in zip(seen["compiled"], seen["python"], strict=True):
                assert compiled[1] is python[1] and compiled == python
            assert [id(el) for el in found["compiled"][0]] == \
                [id(el) for el in found["python"][0]]
            assert found["compiled"][1] == found["python"][1]


def _page_agrees(page: Page) -> None:
    root = auto_rules._content_root(page)
    _measures_agree(root)
    _cleanings_agree([root])
    analysis = auto_rules._measure_python(root, next(_pruners()))
    _cleanings_agree([root], analysis.pruned)
    # the chosen content, its pruned elements inside, as auto-rules cleans it
    elements, _exclude, _stage = auto_rules.select(page, auto_rules.Params(with_html=False))
    if elements:
        chosen = set(elements)
        inner = {el for el in analysis.pruned if el not in chosen
                 and any(a in chosen for a in auto_rules._ancestors(el))}
        _cleanings_agree(elements, inner)


def _extraction(page_html: str, url: str | None, compiled: bool, monkeypatch):
    with monkeypatch.context() as patch:
        if not compiled:
            patch.setattr(auto_rules, "_measure", auto_rules._measure_python)
            patch.setattr(auto_rules, "_clean_loop", auto_rules._clean_loop_python)
        result = auto_rules.extract(Page(page_html, url=url), auto_rules.Params())
    return result.model_dump()


@needs_compiled
def test_the_chosen_functions_are_the_compiled_ones():
    assert auto_rules._measure is auto_rules._measure_compiled
    assert auto_rules._clean_loop is auto_rules._clean_loop_compiled


@needs_compiled
def test_the_comparison_sees_a_difference():
    root = lxml_html.document_fromstring(TRICKY).find("body")
    prune = next(_pruners())
    python, compiled = (auto_rules._measure_python(root, prune),
                        auto_rules._measure_compiled(root, prune))
    _assert_same_analysis(python, compiled)
    last = list(compiled.stats.values())[-2]
    last.children += 1
    with pytest.raises(AssertionError):
        _assert_same_analysis(python, compiled)
    last.children -= 1
    compiled.stats[next(iter(compiled.stats))] = compiled.stats.pop(next(iter(compiled.stats)))
    with pytest.raises(AssertionError):  # the same measures in another order
        _assert_same_analysis(python, compiled)


@needs_compiled
@pytest.mark.parametrize("parse", ["page", "lxml"])
def test_tricky_markup(parse):
    if parse == "page":  # the host's parse: stamped, comments dropped
        _page_agrees(Page(TRICKY))
        return
    # lxml's own parse keeps comments and processing instructions among the text
    document = lxml_html.document_fromstring(TRICKY)
    for root in (document.find("body"), document, document.find(".//div[@id='content']")):
        _measures_agree(root)
        _cleanings_agree([root])
        _cleanings_agree([el for el in root if isinstance(el.tag, str)][:5])
    assert document.xpath("//comment()")


@needs_compiled
def test_a_skipped_or_pruned_root():
    for markup in ("<script>x</script>", "<noscript><p>a</p></noscript>",
                   "<div class='sidebar'>a<p>b</p></div>", "<p>only</p>", "<br>"):
        root = lxml_html.fragment_fromstring(markup)
        _measures_agree(root)
        _cleanings_agree([root])
    comment = lxml_html.fragment_fromstring("<div><!-- c --> tail, with comma</div>")[0]
    for measure in (auto_rules._measure_python, auto_rules._measure_compiled):
        with pytest.raises(ValueError):  # iterwalk refuses a comment, in both
            measure(comment, next(_pruners()))


_TAGS = ["div", "p", "span", "a", "h1", "h2", "h4", "li", "ul", "ol", "table", "tr", "td",
         "th", "img", "input", "embed", "object", "iframe", "script", "noscript", "template",
         "style", "section", "article", "nav", "aside", "footer", "form", "pre", "blockquote",
         "center", "font", "caption", "select", "button", "svg", "dl", "dd", "header"]
_ATTRS = ["", "", "", f' {STAMP_ATTR}="1"', ' class="sidebar"', ' class="article-content"',
          ' class="comment"', ' id="main"', ' class="share"', ' style="display: none"',
          ' hidden', ' aria-hidden="true"', ' role="navigation"', ' class="post-body"',
          ' class="related"', f' class="meta" {STAMP_ATTR}="2"', ' summary="s"']
_TEXTS = ["", " ", "word", "a, b, c", "中文，逗号", "عربي، نص", "x\ufe50y", " \n\t ",
          "A longer sentence of prose, with a comma or two, that reads like content. " * 3,
          "\u00a0spaced\u2003out\u3000text"]


def _random_markup(rng: random.Random, depth: int = 0) -> str:
    parts = [rng.choice(_TEXTS)]
    for _ in range(rng.randint(0, 6 if depth < 4 else 1)):
        roll = rng.random()
        if roll < 0.08:
            parts.append(f"<!-- {rng.choice(_TEXTS)} -->")
        elif roll < 0.1:
            parts.append("<?pi data?>")
        else:
            tag = rng.choice(_TAGS)
            inner = _random_markup(rng, depth + 1) if depth < 6 else rng.choice(_TEXTS)
            parts.append(f"<{tag}{rng.choice(_ATTRS)}>{inner}</{tag}>")
        parts.append(rng.choice(_TEXTS))
    return "".join(parts)


@needs_compiled
@pytest.mark.parametrize("seed", range(40))
def test_random_markup(seed):
    rng = random.Random(seed)
    markup = f"<html><body>{_random_markup(rng)}</body></html>"
    _page_agrees(Page(markup))
    document = lxml_html.document_fromstring(markup)
    _measures_agree(document.find("body"))
    _cleanings_agree([document.find("body")])


@needs_compiled
@pytest.mark.parametrize("path", BUNDLED_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_bundled_pages(path, monkeypatch):
    page_html = path.read_text(encoding="utf-8", errors="replace")
    _page_agrees(Page(page_html))
    assert _extraction(page_html, None, True, monkeypatch) == \
        _extraction(page_html, None, False, monkeypatch)


def _dev_pages(per_set: int) -> list:
    from blocksift.evaluation.datasets import iter_pages, resolve

    pages = []
    for name in DEV_SETS:
        try:
            path = resolve(name)
        except FileNotFoundError:
            continue
        pages.extend(iter_pages(path, limit=per_set))
    return pages


@needs_compiled
def test_dev_pages(monkeypatch):
    pages = _dev_pages(12)
    if not pages:
        pytest.skip("needs the shared dev datasets: set BLOCKSIFT_DATASETS or put "
                    "../shared/datasets beside the clone")
    for labeled in pages:
        _page_agrees(Page(labeled.html, url=labeled.url))
        assert _extraction(labeled.html, labeled.url, True, monkeypatch) == \
            _extraction(labeled.html, labeled.url, False, monkeypatch), labeled.url


def test_without_the_speedups_the_python_loops_run():
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(ROOT / "host"), "BLOCKSIFT_NO_SPEEDUPS": "1"}
    which = ("from blocksift.algorithms import auto_rules as a; "
             "print(a._measure is a._measure_python, a._clean_loop is a._clean_loop_python)")
    out = subprocess.run([sys.executable, "-c", which], env=env, capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout
    assert out.split() == ["True", "True"]


@pytest.mark.skipif(not os.environ.get("CI") or not sys.platform.startswith("linux"),
                    reason="only CI on Linux promises a C compiler at install")
def test_ci_builds_the_compiled_loops():
    assert auto_rules._compiled_loops is not None

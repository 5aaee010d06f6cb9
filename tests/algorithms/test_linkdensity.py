"""Tests of the link-density search (seed 003): measures, conditions, walk-through, results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree
from pydantic import ValidationError

from blocksift import algorithms
from blocksift.algorithms import linkdensity as ld
from blocksift.page import Page

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "linkdensity"


def run(html: str, **params: object):
    return ld.extract(Page(html), ld.Params(**params))


def body_page(inner: str) -> str:
    return f"<html><body>{inner}</body></html>"


def chosen_ids(result) -> list[str]:
    """The ``id`` attributes of the chosen elements, read back through their xpaths."""
    return [b.xpaths[0] for b in result.blocks]


def stats_of(html: str, xpath: str, **params: object) -> ld.NodeStats:
    page = Page(html)
    stats = ld.node_stats(page.tree, ld.Params(**params))
    return stats[page.tree.xpath(xpath)[0]]


# -- §3.1 measures ------------------------------------------------------------------------

def test_measures_follow_section_3_1_definitions():
    html = body_page('<div id="c">' + "x" * 70 + '<a href="/a">' + "y" * 30 + "</a></div>")
    node = stats_of(html, '//div[@id="c"]')
    assert node.text == 100                      # NTL: all text under the node
    assert node.ltd == pytest.approx(0.3)        # LTD: link text / text
    assert node.links == 1                       # LA: links under the node
    # child nodes: text "x..", <a>, text "y.." (text nodes counted, DOM model)
    assert node.nodes == 3 and node.lad == pytest.approx(1 / 3)
    elements_only = stats_of(html, '//div[@id="c"]', count_text_nodes=False)
    assert elements_only.nodes == 1 and elements_only.lad == pytest.approx(1.0)


def test_preprocessing_view_drops_removed_tags_and_textless_nodes():
    html = body_page('<div id="c"><script>var s = "not text";</script><form>Search '
                     '<a href="/s">go</a></form><marquee>scrolling news</marquee>'
                     '<div><img src="a.png"></div><a href="/img"><img src="b.png"></a>'
                     "<p>kept text</p></div>")
    node = stats_of(html, '//div[@id="c"]')
    assert node.text == len("kept text")
    assert node.links == 0                       # the form's link and the image link are gone
    assert node.nodes == 2                       # <p> and its text node only
    assert [child.tag for child in node.children] == ["p"]


def test_anchor_without_href_is_not_a_link():
    node = stats_of(body_page('<p id="c"><a name="top">' + "z" * 50 + "</a></p>"), '//p')
    assert node.links == 0 and node.ltd == 0.0


def test_text_nodes_reading_caps_lad_at_one_half():
    # every counted link brings at least its own text node: bare links reach LAD 0.5, a
    # <li>-wrapped link list 1/3; the basic bound 0.5 cannot reject under this reading
    bare = "".join(f'<a href="/{i}">item {i}</a>' for i in range(20))
    assert stats_of(body_page(f"<div>{bare}</div>"), "//div").lad == pytest.approx(0.5)
    listed = "".join(f'<li><a href="/{i}">item {i}</a></li>' for i in range(20))
    assert stats_of(body_page(f"<ul>{listed}</ul>"), "//ul").lad == pytest.approx(1 / 3)


def test_length_unit_tokens_counts_words_and_cjk_characters():
    html = body_page('<p id="c">Bei Jing 2008 北京欢迎你</p>')
    assert stats_of(html, "//p").text == len("Bei Jing 2008 北京欢迎你")
    assert stats_of(html, "//p", length_unit="tokens").text == 3 + 5


# -- each condition and each comparison direction decides the outcome ---------------------
#
# Basic conditions: the page is a body holding one <div>; with dead_end="parent" a page
# whose div meets the basic conditions is extracted ("ok") whatever the precise ones say,
# and a page where nothing meets them is "not_suitable" (§3.3 item 14).

def basic_page(plain: int, link_chars: int = 0, links: int = 0) -> str:
    parts = ["x" * plain]
    for i in range(links):
        parts.append(f'<a href="/{i}">' + "y" * max(1, link_chars // max(links, 1)) + "</a>")
    return body_page("<div>" + " ".join(parts) + "</div>")


@pytest.mark.parametrize("plain, expected", [(100, "ok"), (99, "not_suitable")])
def test_basic_ntl_at_least_100(plain, expected):
    assert run(basic_page(plain), dead_end="parent").status == expected


@pytest.mark.parametrize("plain, expected", [(99, "ok"), (150, "not_suitable")])
def test_basic_ntl_direction_reversed(plain, expected):
    assert run(basic_page(plain), dead_end="parent", basic_ntl_cmp="<=").status == expected


def ltd_page(plain: int, linked: int) -> str:
    """``plain`` characters in ten spans (keeping LAD low) and one link of ``linked``."""
    sizes = [plain // 10] * 10
    sizes[0] += plain - sum(sizes)
    spans = "".join("<span>" + "x" * size + "</span>" for size in sizes)
    return body_page(f"<div>{spans}" + '<a href="/l">' + "y" * linked + "</a></div>")


@pytest.mark.parametrize("plain, linked, expected",
                         [(60, 40, "ok"), (59, 41, "not_suitable")])
def test_basic_ltd_at_most_0_4(plain, linked, expected):
    assert run(ltd_page(plain, linked), dead_end="parent").status == expected


@pytest.mark.parametrize("plain, linked, expected",
                         [(50, 50, "ok"), (100, 0, "not_suitable")])
def test_basic_ltd_direction_reversed(plain, linked, expected):
    assert run(ltd_page(plain, linked), dead_end="parent",
               basic_ltd_cmp=">=").status == expected


def links_page(links: int, plain: int = 1000) -> str:
    """A div of plain text with ``links`` one-character links spread through it."""
    chunk = plain // (links + 1)
    parts = ["x" * chunk]
    for i in range(links):
        parts.append(f'<a href="/{i}">y</a>' + "x" * chunk)
    return body_page("<div>" + "".join(parts) + "</div>")


def test_basic_la_is_not_checked_by_default():
    assert run(links_page(30), dead_end="parent").status == "ok"


@pytest.mark.parametrize("cmp, links, expected", [("<=", 10, "ok"), ("<=", 11, "not_suitable"),
                                                  (">=", 10, "ok"), (">=", 9, "not_suitable")])
def test_basic_la_directions(cmp, links, expected):
    assert run(links_page(links), dead_end="parent", basic_la_cmp=cmp).status == expected


def lad_page(links: int, spans: int) -> str:
    """A div of ``spans`` 40-character spans and ``links`` one-character links (elements)."""
    inner = "".join("<span>" + "x" * 40 + "</span>" for _ in range(spans))
    inner += "".join(f'<a href="/{i}">y</a>' for i in range(links))
    return body_page(f"<div>{inner}</div>")


# count_text_nodes=False: under the text-node reading the basic LAD bound cannot reject
# (see test_text_nodes_reading_caps_lad_at_one_half)
@pytest.mark.parametrize("links, spans, expected", [(4, 3, "ok"), (5, 3, "not_suitable")])
def test_basic_lad_at_most_0_5(links, spans, expected):
    # body's nodes: div + spans + links; LAD = links / (1 + spans + links): 4/8, 5/9
    assert run(lad_page(links, spans), dead_end="parent", count_text_nodes=False,
               basic_ltd=1.0).status == expected


@pytest.mark.parametrize("links, spans, expected", [(4, 3, "ok"), (1, 3, "not_suitable")])
def test_basic_lad_direction_reversed(links, spans, expected):
    assert run(lad_page(links, spans), dead_end="parent", count_text_nodes=False,
               basic_ltd=1.0, basic_lad_cmp=">=").status == expected


# Precise conditions: the body meets the basic ones; if it also meets the precise ones it
# is extracted at the first level, otherwise the search descends and, on these pages,
# dead-ends ("not_suitable" under the literal dead_end).

def body_chosen(result) -> bool:
    return result.status == "ok" and chosen_ids(result) == ["/html/body"]


@pytest.mark.parametrize("plain, linked, chosen", [(90, 10, True), (89, 11, False)])
def test_precise_ltd_at_most_0_1(plain, linked, chosen):
    result = run(ltd_page(plain, linked))
    assert body_chosen(result) is chosen
    if not chosen:
        assert result.status == "not_suitable"


@pytest.mark.parametrize("plain, linked, chosen", [(80, 20, True), (95, 5, False)])
def test_precise_ltd_direction_reversed(plain, linked, chosen):
    assert body_chosen(run(ltd_page(plain, linked), precise_ltd_cmp=">=")) is chosen


@pytest.mark.parametrize("cmp, links, chosen", [("<=", 10, True), ("<=", 11, False),
                                                (">=", 10, True), (">=", 9, False)])
def test_precise_la_directions(cmp, links, chosen):
    # LAD is left out so that LA alone decides
    result = run(links_page(links), precise_la_cmp=cmp, precise_lad_cmp="ignore")
    assert body_chosen(result) is chosen


@pytest.mark.parametrize("plain, chosen", [(50, True), (49, False)])
def test_precise_ntl_at_least_50(plain, chosen):
    result = run(basic_page(plain), basic_ntl_cmp="ignore")
    assert body_chosen(result) is chosen


@pytest.mark.parametrize("plain, chosen", [(49, True), (80, False)])
def test_precise_ntl_direction_reversed(plain, chosen):
    result = run(basic_page(plain), basic_ntl_cmp="ignore", precise_ntl_cmp="<=")
    assert body_chosen(result) is chosen


def lad_text_page(spans: int) -> str:
    """One one-character link among ``spans`` 40-character spans (text nodes counted)."""
    return body_page("<div>" + "".join("<span>" + "x" * 40 + "</span>" for _ in range(spans))
                     + '<a href="/l">y</a></div>')


@pytest.mark.parametrize("spans, chosen", [(4, True), (3, False)])
def test_precise_lad_at_most_0_1(spans, chosen):
    # body's nodes: div + 2 per span + 2 for the link: 1/11 = 0.09 vs 1/9 = 0.11
    assert body_chosen(run(lad_text_page(spans))) is chosen


@pytest.mark.parametrize("spans, chosen", [(3, True), (6, False)])
def test_precise_lad_direction_reversed(spans, chosen):
    assert body_chosen(run(lad_text_page(spans), precise_lad_cmp=">=")) is chosen


def test_ignored_condition_no_longer_decides():
    assert not body_chosen(run(ltd_page(89, 11)))
    assert body_chosen(run(ltd_page(89, 11), precise_ltd_cmp="ignore"))


# -- the paper's walk-through (§4.1) ---------------------------------------------------------

PARA = ("Karnataka Bank reported a steady rise in deposits across its regional branches, "
        "and the board proposed a dividend for the year. ")


def walkthrough_page(extra_cbody: str = "") -> str:
    nav = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(12))
    related = "".join(f'<li><a href="/r{i}">Related story number {i}</a></li>'
                      for i in range(8))
    return f"""<html><head><title>Karnataka Bank</title><meta charset="utf-8">
<script>var tracker = "a long script that is no text at all";</script></head><body>
<div class="logo nav"><ul>{nav}</ul></div>
<div class="location"><a href="/">Home</a> &gt; <a href="/news">News</a> &gt; Banking</div>
<div class="cbody">
<div class="article" id="karnataka bankcontent"><h1>Karnataka Bank results</h1>
<p>{PARA * 2}</p><p>{PARA * 2}</p><p>{PARA}</p></div>
<div class="mutualitynew"><ul>{related}</ul></div>
<div class="review"><p>Comments: <a href="/c">Post a comment</a></p><a href="/login">Login</a>
</div>{extra_cbody}
</div></body></html>"""


def test_walkthrough_chooses_the_article_div():
    page = Page(walkthrough_page())
    params = ld.Params()
    stats = ld.node_stats(page.tree, params)
    head, body = page.tree.find("head"), page.body
    # level 2: head and body; body holds the basic content but is not the accurate node
    assert not ld.meets_basic(stats[head], params)
    assert ld.meets_basic(stats[body], params) and not ld.meets_precise(stats[body], params)
    # level 3: the three divs; only cbody holds basic content
    level3 = stats[body].children
    assert [el.get("class") for el in level3] == ["logo nav", "location", "cbody"]
    assert [ld.meets_basic(stats[el], params) for el in level3] == [False, False, True]
    # level 4: the article is the accurate node; its two siblings are rejected at step 5
    article, mutuality, review = stats[level3[2]].children
    assert ld.meets_precise(stats[article], params)
    assert not ld.meets_precise(stats[mutuality], params)
    assert not ld.meets_precise(stats[review], params)

    result = ld.extract(page, params)
    assert result.status == "ok" and result.stage == "paper"
    assert len(result.blocks) == 1
    block = result.blocks[0]
    assert block.kind == "main" and block.features["level"] == 4
    assert page.raw[block.start:block.end].startswith('<div class="article"')
    assert page.raw[block.start:block.end].endswith("</div>")
    assert result.main.text.startswith("Karnataka Bank results\n\n")
    assert "Related story" not in result.main.text and "Login" not in result.main.text
    assert block.score == pytest.approx(1 - block.features["ltd"])


def test_step5_adds_siblings_meeting_the_precise_conditions():
    note = ('<div class="note"><p>A short editor\'s note that belongs to the story and '
            "corrects a figure.</p></div>")
    html = walkthrough_page(extra_cbody=note)
    result = run(html)
    assert [b.xpaths[0].rsplit("/", 1)[-1] for b in result.blocks] == ["div[1]", "div[4]"]
    assert result.extra["reasons"] == ["precise", "sibling"]
    assert "editor's note" in result.main.text
    # the note alone does not meet the basic conditions (NTL < 100): only step 5 adds it
    assert stats_of(html, '//div[@class="note"]').text < 100
    assert len(run(html, sibling_scope="none").blocks) == 1
    # "adjacent": mutualitynew and review stand between the article and the note
    assert len(run(html, sibling_scope="adjacent").blocks) == 1


# -- not suitable vs empty (§3.3 item 14) ------------------------------------------------------

def test_link_list_page_is_not_suitable_with_a_message():
    links = "".join(f'<li><a href="/{i}">Headline number {i} of the day</a></li>'
                    for i in range(40))
    result = run(body_page(f"<ul>{links}</ul>"))
    assert result.status == "not_suitable"
    assert "not suitable" in result.message and "LTD <= 0.4" in result.message
    assert result.main is None and result.blocks == []


@pytest.mark.parametrize("html", ["", "<html><body></body></html>",
                                  ("<html><body><script>var a = 1;</script><img src=x>"
                                   "</body></html>"), "   "])
def test_page_without_text_is_empty_not_unsuitable(html):
    result = run(html)
    assert result.status == "empty" and result.main is None


def test_text_only_inside_removed_tags_is_not_suitable_not_empty():
    result = run(body_page("<form>" + "Please fill in this long form. " * 10 + "</form>"))
    assert result.status == "not_suitable"


# -- many inline links: the reader-view complaint --------------------------------------------

def inline_links_page() -> str:
    nav = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(15))
    paragraphs = "".join(
        f"<p>Paragraph {i} of the story cites <a href='/src{i}a'>a report</a>, quotes "
        f"<a href='/src{i}b'>an interview</a> and links to <a href='/src{i}c'>the data</a>; "
        "the rest of the paragraph is plain running text that explains the findings.</p>"
        for i in range(6))
    return body_page(f'<div class="nav"><ul>{nav}</ul></div>'
                     f'<div class="story"><h1>The story</h1>{paragraphs}</div>'
                     '<div class="footer"><a href="/about">About</a> <a href="/c">Contact</a>'
                     "</div>")


def test_many_inline_links_lose_the_article_under_paper_values():
    # honest about the paper: 18 links (LA > 10, LTD > 0.1) fail the precise conditions, the
    # search descends to paragraphs that still fail them and then to links (NTL < 100)
    result = run(inline_links_page())
    assert result.status == "not_suitable"


def test_many_inline_links_kept_when_inline_links_count_as_text():
    result = run(inline_links_page(), inline_links_as_text=True)
    assert result.status == "ok"
    assert [b.xpaths[0] for b in result.blocks] == ["/html/body/div[2]"]
    text = result.main.text
    assert all(f"Paragraph {i} of the story" in text for i in range(6))
    assert "a report" in text and "Section 3" not in text and "Contact" not in text
    assert len(text.split("\n\n")) == 7  # heading + six paragraphs, breaks kept


def test_inline_links_do_not_turn_navigation_into_text():
    links = "".join(f'<li><a href="/{i}">Headline number {i} of the day</a></li>'
                    for i in range(40))
    assert run(body_page(f"<ul>{links}</ul>"), inline_links_as_text=True).status == \
        "not_suitable"


def test_dead_end_parent_keeps_the_deepest_basic_node():
    result = run(inline_links_page(), dead_end="parent")
    assert result.status == "ok" and result.stage == "dead_end_parent"
    assert all(f"Paragraph {i} of the story" in result.main.text for i in range(6))


def test_descend_largest_goes_past_a_link_heavy_body():
    nav = "".join(f'<li><a href="/s{i}">A rather long section title {i}</a></li>'
                  for i in range(60))
    html = body_page(f'<div class="nav"><ul>{nav}</ul></div><div class="main">'
                     f'<div class="story"><p>{PARA * 3}</p></div></div>')
    assert run(html).status == "not_suitable"
    result = run(html, no_basic_node="descend_largest")
    assert result.status == "ok" and result.stage == "descend_largest"
    assert result.main.text == " ".join(PARA.split() * 3)


def test_level_choice_best_follows_only_the_largest_node():
    nav = "<ul>" + "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(12))
    story = f'<div class="story"><p>{PARA * 3}</p></div>'
    aside = f'<div class="aside"><p>{PARA}</p></div>'
    html = body_page(nav + "</ul>" + story + aside)
    assert len(run(html).blocks) == 2
    best = run(html, level_choice="best", sibling_scope="none")
    assert [b.xpaths[0] for b in best.blocks] == ["/html/body/div[1]"]


def test_head_with_a_long_title_is_not_main_content():
    title = "A very long page title that goes on and on | Section name | The Site Name " * 2
    html = (f"<html><head><title>{title}</title></head><body><ul>"
            + "".join(f'<li><a href="/{i}">Headline number {i}</a></li>' for i in range(30))
            + "</ul></body></html>")
    assert run(html).status == "not_suitable"
    # with the title counted as text, head meets both condition sets but shows nothing
    counted = run(html, removed_tags=list(ld.PAPER_REMOVED_TAGS))
    assert counted.status == "not_suitable" and "no visible text" in counted.message


def test_min_punctuation_is_an_extra_basic_condition():
    html = body_page("<div>" + "word " * 40 + "</div>")
    assert run(html).status == "ok"
    assert run(html, min_punctuation=2).status == "not_suitable"
    assert run(body_page("<div>" + "word, word. " * 20 + "</div>"),
               min_punctuation=2).status == "ok"


# -- results, ids, robustness -------------------------------------------------------------------

def test_removed_form_inside_the_article_stays_out_of_the_text():
    html = body_page(f'<div id="a"><p>{PARA * 2}</p><form><label>Subscribe to the '
                     'newsletter</label></form></div>')
    result = run(html)
    assert result.status == "ok"
    assert "newsletter" not in result.main.text
    assert "newsletter" not in result.main.html and "Karnataka" in result.main.html


def test_ids_are_reported_for_pages_from_the_extension():
    html = ('<html data-bsid="0"><body data-bsid="1"><div data-bsid="2"><p data-bsid="3">'
            + PARA * 2 + '</p></div><ul data-bsid="4">'
            + "".join(f'<li data-bsid="{5 + i}"><a data-bsid="{30 + i}" href="/{i}">link '
                      f'{i}</a></li>' for i in range(20)) + "</ul></body></html>")
    result = run(html)
    assert result.status == "ok"
    assert result.blocks[0].element_ids == ["2", "3"] and result.blocks[0].xpaths == []
    assert result.main.element_ids == ["2", "3"]


def test_shared_tree_is_not_changed():
    page = Page(walkthrough_page(extra_cbody="<form>Search the site</form>"))
    before = etree.tostring(page.tree)
    ld.extract(page, ld.Params(inline_links_as_text=True, dead_end="parent"))
    assert etree.tostring(page.tree) == before


def test_deeply_nested_and_malformed_pages_do_not_crash():
    # deeper than Python's recursion limit, within libxml2's depth limit (about 2000)
    deep = body_page("<div>" * 1500 + "<p>" + PARA * 2 + "</p>" + "</div>" * 1500)
    result = run(deep)
    assert result.status == "ok" and result.main.text == " ".join((PARA * 2).split())
    broken = "<html><body><div><p>" + PARA * 2 + "<table><tr><td>cell</div></b></i>"
    assert run(broken).status in {"ok", "not_suitable"}


@pytest.mark.parametrize("bad", [{"basic_ltd": -1}, {"precise_la_cmp": "<"},
                                 {"unknown": 1}, {"length_unit": "bytes"}])
def test_wrong_params_are_rejected(bad):
    with pytest.raises(ValidationError):
        ld.Params(**bad)


def test_params_are_the_paper_values_and_frozen():
    params = ld.Params()
    assert (params.basic_ltd, params.basic_la, params.basic_ntl, params.basic_lad) == \
        (0.4, 10, 100, 0.5)
    assert (params.precise_ltd, params.precise_la, params.precise_ntl, params.precise_lad) == \
        (0.1, 10, 50, 0.1)
    assert set(ld.PAPER_REMOVED_TAGS) <= set(params.removed_tags)
    with pytest.raises(ValidationError):
        params.basic_ltd = 0.5  # type: ignore[misc]


def test_practical_preset_validates_and_keeps_the_inline_links_article():
    result = ld.extract(Page(inline_links_page()), ld.Params(**ld.PRACTICAL))
    assert result.status == "ok" and "Paragraph 5 of the story" in result.main.text


def test_registry_contract():
    module = algorithms.load("linkdensity")
    assert module.NAME == "linkdensity" and module.MODEL is None
    result = module.extract(Page(walkthrough_page()), module.Params(), model=None)
    assert result.algorithm == "linkdensity"
    assert result.model_dump(by_alias=True)["status"] == "ok"


# -- golden files ------------------------------------------------------------------------------

GOLDEN = sorted(p for p in FIXTURES.iterdir() if p.is_dir()) if FIXTURES.exists() else []


@pytest.mark.parametrize("case", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden(case: Path):
    params_file = case / "params.json"
    params = json.loads(params_file.read_text()) if params_file.exists() else {}
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    result = ld.extract(Page((case / "source.html").read_text(encoding="utf-8")),
                        ld.Params(**params))
    assert result.status == expected["status"]
    assert [b.xpaths[0] for b in result.blocks] == expected["xpaths"]
    got = result.main.text if result.main else ""
    if got != expected["text"]:
        for i, (a, b) in enumerate(zip(got, expected["text"])):
            if a != b:
                pytest.fail(f"text differs at {i}: got {got[i:i + 60]!r}, "
                            f"expected {expected['text'][i:i + 60]!r}")
        pytest.fail(f"text length {len(got)} != expected {len(expected['text'])}")


def test_golden_cases_exist():
    assert len(GOLDEN) >= 2


# -- real pages (needs ../shared/datasets) -----------------------------------------------------

def _zh_cwce():
    from blocksift.evaluation.datasets import resolve

    try:
        return resolve("zh-cwce")
    except FileNotFoundError:
        return None


@pytest.mark.shared
@pytest.mark.skipif(_zh_cwce() is None, reason="zh-cwce dev set not found (../shared/datasets "
                    "or $BLOCKSIFT_DATASETS)")
def test_real_pages_give_a_clear_status_and_text_for_ok_pages():
    from blocksift.evaluation.datasets import iter_pages
    from blocksift.evaluation.metric import score_page

    statuses = []
    for labeled in iter_pages(_zh_cwce(), limit=15):
        result = ld.extract(Page(labeled.html, url=labeled.url), ld.Params())
        statuses.append(result.status)
        if result.status == "ok":
            assert result.main.text and result.blocks
            assert all(0 <= b.start < b.end <= len(labeled.html) for b in result.blocks)
            assert score_page(result.main.text, labeled.gold).recall is not None
        else:
            assert result.main is None and result.message
    assert statuses.count("ok") > len(statuses) // 2


# -- node_stats: the one-pass walk equals the two-pass definition --------------------------

def _node_stats_two_passes(root, params):
    """The measures as first written: a pre-order pass, then children before parents."""
    removed = set(params.removed_tags)
    stats = {}
    order = []
    stack = [(root, False)]
    while stack:
        element, in_link = stack.pop()
        if element.tag == "a" and element.get("href") is not None:
            in_link = True
        order.append((element, in_link))
        for child in reversed(element):
            if isinstance(child.tag, str) and child.tag not in removed:
                stack.append((child, in_link))
    for element, in_link in reversed(order):
        node = ld.NodeStats(is_link=element.tag == "a" and element.get("href") is not None)
        for piece in [element.text] + [child.tail for child in element]:
            size = ld._measure(piece, params.length_unit)
            if size:
                node.text += size
                node.link_text += size if in_link else 0
                node.nodes += 1 if params.count_text_nodes else 0
                if params.min_punctuation > 0 and piece is not None:
                    node.punctuation += len(ld._PUNCT.findall(piece))
        for child in element:
            child_stats = stats.get(child)
            if child_stats is None or not child_stats.text:
                continue
            node.children.append(child)
            node.text += child_stats.text
            node.link_text += child_stats.link_text
            node.links += child_stats.links + (1 if child_stats.is_link else 0)
            node.nodes += child_stats.nodes + 1
            node.punctuation += child_stats.punctuation
        stats[element] = node
    if params.inline_links_as_text:
        ld._discount_inline_links(stats, params)
    return stats


def _random_body(rng, depth: int = 0) -> str:
    words = ["word", "two words", " ", "\n\t", "\u00a0x\u3000y", "中文字", "a, b. c!", ""]
    tags = ["div", "p", "a href='/x'", "a", "span", "script", "form", "ul", "li", "title",
            "b", "marquee"]
    out = []
    for _ in range(rng.randrange(0, 5)):
        choice = rng.random()
        if choice < 0.45:
            out.append(rng.choice(words))
        elif choice < 0.5:
            out.append("<!-- c -->")
        elif depth < 6:
            tag = rng.choice(tags)
            out.append(f"<{tag}>{_random_body(rng, depth + 1)}</{tag.split()[0]}>")
    return "".join(out)


def test_node_stats_equal_the_two_pass_definition():
    import random

    from lxml import html as lxml_html

    rng = random.Random(4)
    variants = [ld.Params(), ld.Params(count_text_nodes=False, length_unit="tokens"),
                ld.Params(min_punctuation=1, inline_links_as_text=True)]
    parser = lxml_html.HTMLParser(remove_comments=False)
    for _ in range(150):
        html = f"<html><body>{_random_body(rng)}</body></html>"
        for tree in (Page(html).tree, lxml_html.document_fromstring(html, parser=parser)):
            for params in variants:
                got = ld.node_stats(tree, params)
                want = _node_stats_two_passes(tree, params)
                assert list(got) == list(want)
                assert list(got.values()) == list(want.values())

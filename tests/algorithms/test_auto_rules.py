"""Tests of ``auto-rules`` (the earlier hand-tuned auto): golden-page properties and units.

Golden cases live in tests/golden/<slug>/ and are checked by tests/test_golden.py;
re-recording them is a deliberate, reviewed step (``python3 tools/new_golden_case.py SLUG
--update``). The tests here state what the golden pages are about as properties.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lxml import etree
from pydantic import ValidationError

from blocksift.algorithms import auto_rules as auto
from blocksift.page import Page

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


# The golden pages themselves (every algorithm's text and auto's title) are checked by
# tests/test_golden.py, without a cap on their number.


def _golden(slug: str, **params) -> auto.ExtractionResult:
    case = GOLDEN / slug
    meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
    html = (case / "source.html").read_text(encoding="utf-8")
    return auto.extract(Page(html, url=meta.get("url")), auto.Params(**params))


# -- what the golden pages are about, stated as properties (they hold for any recording) ---

def test_landmarks_comments_and_related_links_are_left_out():
    result = _golden("news-landmarks")
    text = result.main.text
    assert "suspender cable" in text and "inspection records" in text
    for boilerplate in ("Most read", "Related stories", "All rights reserved", "About time!",
                        "Sport"):
        assert boilerplate not in text
    assert result.main.title == "Harbour Bridge Reopens After Two-Year Repair"


def test_comments_are_kept_when_asked():
    assert "About time!" in _golden("news-landmarks", include_comments=True).main.text


def test_code_block_is_verbatim_and_lazy_image_resolved():
    result = _golden("blog-code-figure")
    assert 'def parse_day(text):\n    return datetime.strptime' in result.main.text
    assert 'src="https://blog.example/img/formats.png"' in result.main.html
    assert "<figcaption>" in result.main.html
    assert "Share on Facebook" not in result.main.text
    assert "February 2024" not in result.main.text


def test_images_can_be_left_out_of_the_html():
    result = _golden("blog-code-figure", include_images=False)
    assert "<img" not in result.main.html
    assert "Formats we met" in result.main.text


def test_data_table_kept_or_dropped_on_request():
    assert "Wednesday" in _golden("docs-table").main.text
    assert "<table>" in _golden("docs-table").main.html
    without = _golden("docs-table", include_tables=False)
    assert "Wednesday" not in without.main.text
    assert "lock gates" in without.main.text


def test_story_does_not_climb_into_the_teaser_column_beside_it():
    text = _golden("news-teaser-column").main.text
    assert "season passes will be extended" in text
    assert "Market square" not in text and "read more" not in text
    # readability.js climbs to the better-scored wrapper and takes the teasers along
    climbed = _golden("news-teaser-column", climb_link_density=1.01).main.text
    assert "season passes will be extended" in climbed and "Market square" in climbed


def test_navigation_cell_of_a_table_layout_is_dropped():
    text = _golden("table-layout-legacy").main.text
    assert "Nutmeg Pippin" in text
    assert "Visit us" not in text and "guestbook" not in text


# -- contract and robustness --------------------------------------------------------------

def test_params_are_frozen_strict_and_documented():
    params = auto.Params()
    with pytest.raises(ValidationError):
        params.include_comments = True  # type: ignore[misc]
    with pytest.raises(ValidationError):
        auto.Params(no_such_field=1)
    with pytest.raises(ValidationError):
        auto.Params(min_text_length=-1)
    for name, field in auto.Params.model_fields.items():
        assert field.description, f"{name} has no description"
    assert auto.NAME == "auto-rules" and auto.MODEL is None


def test_wrong_params_type_is_a_clear_error():
    with pytest.raises(TypeError):
        auto.extract(Page("<p>x</p>"), {"include_comments": True})  # type: ignore[arg-type]


@pytest.mark.parametrize("html", ["", "   ", "<html></html>", "<<<>>>", "<p>hi",
                                  "<html><body><div><div></div></div></body></html>",
                                  "<table><tr><td>" * 300, "\x00\x01<b>bin</b>"])
def test_bad_input_gives_a_status_not_a_crash(html: str):
    result = auto.extract(Page(html), auto.Params())
    assert result.status in ("ok", "empty")
    if result.status == "empty":
        assert not (result.main.text if result.main else "")
    else:
        assert result.main is not None and result.main.text


def test_huge_page_is_extracted():
    paragraph = "<p>" + "A sentence of the long article, with a comma. " * 20 + "</p>"
    html = ("<html><body><nav>" + "<a href='/x'>link</a>" * 2000 + "</nav><article>"
            + paragraph * 2000 + "</article></body></html>")
    result = auto.extract(Page(html), auto.Params(with_html=False))
    assert result.status == "ok"
    assert result.main.text.count("A sentence of the long article") == 40000
    assert "link" not in result.main.text


def test_blocks_are_main_spans_into_the_raw_html():
    result = _golden("news-landmarks")
    page = Page((GOLDEN / "news-landmarks" / "source.html").read_text(encoding="utf-8"))
    assert result.blocks and all(b.kind == "main" and b.algorithm == "auto-rules"
                                 for b in result.blocks)
    for block in result.blocks:
        assert 0 <= block.start < block.end <= len(page.raw)
        assert page.raw[block.start] == "<"
        assert block.xpaths


def test_stamped_ids_leave_out_pruned_elements():
    html = ('<html><body><article data-bsid="1">'
            '<p data-bsid="2">' + "Real article text with enough words, commas, and more. " * 8
            + '</p><div data-bsid="3" class="share">Share Tweet</div>'
            '<p data-bsid="4">' + "Second paragraph of the article, also long enough. " * 8
            + "</p></article></body></html>")
    result = auto.extract(Page(html), auto.Params())
    ids = result.main.element_ids
    assert "2" in ids and "4" in ids and "3" not in ids
    assert "Share Tweet" not in result.main.text


def test_the_shared_tree_is_not_modified():
    page = Page((GOLDEN / "news-landmarks" / "source.html").read_text(encoding="utf-8"))
    before = etree.tostring(page.tree)
    auto.extract(page, auto.Params())
    assert etree.tostring(page.tree) == before


def test_content_after_a_stray_body_end_is_found():
    html = ("<html><body><table><tr><td><a href='/'>Home</a></td></tr></table></body>"
            "<table><tr><td><p>" + "Text that follows the stray end of the body, sentence. "
            * 10 + "</p></td></tr></table></html>")
    result = auto.extract(Page(html), auto.Params())
    assert "stray end of the body" in result.main.text


def test_title_drops_the_site_name():
    page = Page("<html><head><title>Quiet streets return to the old town | Daily Paper"
                "</title></head><body><p>x</p></body></html>")
    assert auto.extract_title(page) == "Quiet streets return to the old town"
    page = Page("<html><head><title>Daily Paper - home</title>"
                "<meta property='og:title' content='Daily Paper'></head><body>"
                "<h1>Daily Paper</h1></body></html>")
    assert auto.extract_title(page) == "Daily Paper"


@pytest.mark.parametrize("html, expected", [
    # the head's <title> and og:title, the first ones in document order
    ("<html><head><title>Head title</title><meta property='og:title' content=' Head  og '>"
     "</head><body><svg><title>Icon</title></svg><meta property='og:title' content='Body og'>"
     "</body></html>", ("Head title", "Head og")),
    # none in the head: the body's, as before the head was read first
    ("<html><head></head><body><title> Body  title </title>"
     "<meta name='twitter:title' content='Body og'><p>x</p></body></html>",
     ("Body title", "Body og")),
    ("<p>No head, no title</p>", ("", "")),
])
def test_title_and_og_title_come_from_the_head_first(html: str, expected: tuple[str, str]):
    assert auto._title_and_og_title(Page(html)) == expected


_BODY = ("<p>The river ferry between Millbrook and Eastholm will run every forty minutes "
         "from Monday, instead of every half hour, the operator said on Thursday, citing "
         "fewer passengers in the colder months and repairs to the older of its boats.</p>"
         "<p>Commuters who cross before eight in the morning will see no change, because the "
         "early sailings keep their current times, according to the new timetable.</p>")


def _title_of(head: str, body: str) -> str:
    page = Page(f"<html><head>{head}</head><body>{body}</body></html>")
    return auto.extract(page, auto.Params()).main.title


@pytest.mark.parametrize("head, body, expected", [
    # <title> is only the site name: the post's heading above the content
    ("<title>Ferry Blog</title>",
     "<div id=top><h1>Ferry Blog</h1></div><div class=post><h3>Winter timetable for the "
     "ferry</h3><div class=entry>" + _BODY + "</div></div>",
     "Winter timetable for the ferry"),
    # "Blog name: post title", the post title repeated by a heading
    ("<title>Ferry Blog: Winter timetable for the ferry</title>",
     "<h1>Ferry Blog</h1><div class=sidebar><h4>Winter timetable for the ferry</h4></div>"
     "<div class=entry>" + _BODY + "</div>",
     "Winter timetable for the ferry"),
    # an <h1> headline above a story that opens with an <h2> dek
    ("<title>Ferry runs less often in winter - Valley News</title>",
     "<div><h1>Ferry runs less often in winter</h1><div class=story><h2>Operator cites "
     "fewer passengers and boat repairs</h2>" + _BODY + "</div></div>",
     "Ferry runs less often in winter"),
    # a byline heading and a date header open the content but are no headline
    ("<title>Winter timetable for the ferry | Valley News</title>",
     "<div class=story><h2 class=date-header>Monday, 3 November 2025</h2>"
     "<h3>By Ann Reporter</h3>" + _BODY + "</div>",
     "Winter timetable for the ferry"),
    # a section name in an <h1> that <title> contains is not the headline
    ("<title>Ferry runs less often in winter - Local transport</title>",
     "<h1>Local transport</h1><div class=story>" + _BODY + "</div>",
     "Ferry runs less often in winter"),
])
def test_title_is_the_visible_headline(head: str, body: str, expected: str):
    assert _title_of(head, body) == expected


def test_ladder_retries_with_unlikely_candidates_kept():
    # the only prose sits in a container whose class readability calls unlikely ("extra")
    html = ("<html><body><div class='menu'><a href='/'>Home</a> <a href='/b'>Blog</a></div>"
            "<div class='extra-wide'>" + "<p>The article is here, with commas, words and "
            "sentences that go on for a while.</p>" * 10 + "</div></body></html>")
    result = auto.extract(Page(html), auto.Params())
    assert result.stage == "keep-unlikely"
    assert "The article is here" in result.main.text
    assert "Home" not in result.main.text


def test_short_post_under_the_threshold_is_not_replaced_by_nothing():
    html = ("<html><body><div class='post'><p>A short post of one sentence, with a comma, "
            "that is the whole article.</p></div></body></html>")
    result = auto.extract(Page(html), auto.Params())
    assert result.stage == "strict"
    assert "short post" in result.main.text


def test_blocks_only_skips_the_main_text():
    full = _golden("news-landmarks")
    blocks_only = _golden("news-landmarks", main_text=False)
    assert blocks_only.main is None and blocks_only.status == "ok"
    assert [(b.start, b.end) for b in blocks_only.blocks] == \
        [(b.start, b.end) for b in full.blocks]


def test_cells_of_a_marked_data_table_are_kept_even_when_they_are_links():
    rows = "".join(f"<tr><td><a href='/p{i}'>Product {i}</a></td><td>{i}.50</td></tr>"
                   for i in range(6))
    html = ("<html><body><article><p>" + "Prices of the season, listed below for reference. "
            * 6 + "</p><table><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody>"
            + rows + "</tbody></table><p>" + "More text after the table, with commas, too. "
            * 6 + "</p></article></body></html>")
    kept = auto.extract(Page(html), auto.Params()).main.text
    assert "Product 5" in kept
    judged = auto.extract(Page(html), auto.Params(protect_data_tables=False)).main.text
    assert "Product 5" not in judged


def test_memoized_class_patterns_answer_as_the_patterns_do():
    import random

    from blocksift.algorithms import auto_rules as rules

    rng = random.Random(9)
    words = ["hid", "HID", "hidden", "comment", "main", "share", "nav", "x", "sidebar", "post",
             "display:none", "Visibility: Hidden", "Article", "\u017fhare", "\u212aé"]
    memos = [(rules._IS_NEGATIVE, rules._NEGATIVE), (rules._IS_MAYBE, rules._MAYBE),
             (rules._IS_SHARE, rules._SHARE), (rules._IS_HIDDEN_STYLE, rules._HIDDEN_STYLE)]
    for _ in range(2000):
        text = rng.choice(["", " "]) + " ".join(rng.choice(words)
                                               for _ in range(rng.randrange(0, 4)))
        for memo, pattern in memos:
            assert memo[text] is (pattern.search(text) is not None), text
            assert memo[text] is (pattern.search(text) is not None)  # from the memo


def test_class_patterns_are_lower_case_so_ascii_text_may_be_lowered():
    from blocksift.algorithms import auto_rules as rules
    from blocksift.algorithms.segmenter import features

    patterns = [rules._UNLIKELY, rules._COMMENTS, rules._MAYBE, rules._POSITIVE,
                rules._NEGATIVE, rules._SHARE, rules._HIDDEN_STYLE, *features.HINTS.values()]
    for pattern in patterns:
        assert pattern.pattern == pattern.pattern.lower() and pattern.flags & re.I


@pytest.mark.parametrize("link_blocks", ["off", "prune"])
def test_the_ladder_measures_the_tree_once_per_pruner(link_blocks, monkeypatch):
    # every stage fails on a page of links: all four stages and the body fallback run,
    # and the three stages without unlikely stripping share one measure
    links = "".join(f'<li><a href="/p/{i}">link number {i}</a></li>' for i in range(300))
    page_html = f"<html><body><ul class='sidebar'>{links}</ul><p>Short.</p></body></html>"
    params = auto.Params(link_blocks=link_blocks)
    expected = auto.extract(Page(page_html), params)
    calls = []
    original = auto._measure
    monkeypatch.setattr(auto, "_measure", lambda root, prune: (calls.append(1),
                                                               original(root, prune))[1])
    result = auto.extract(Page(page_html), params)
    assert result.stage == expected.stage == "body"
    assert result.main.text == expected.main.text and result.stats == expected.stats
    # strict, the rest of the ladder, and (with link blocks pruning) the body's own pruner
    assert len(calls) == (2 if link_blocks == "off" else 3)


_STORY = "<p>" + "The river rose three metres overnight and the town's bridge closed. " * 4 + "</p>"


@pytest.mark.parametrize("html", [
    # <title> in the head, og:title there too, a slogan h1 and the story's h2
    "<html><head><title>Flood closes bridge | Town News</title><meta property='og:title' "
    "content='Flood closes the bridge'></head><body><h1>Town News</h1><h2>Flood closes "
    "bridge</h2>" + _STORY + "</body></html>",
    # og:title only outside the head (found because the source names it), twitter:title
    "<html><head><title>Town News</title></head><body><meta name='twitter:title' "
    "content='Bridge closed by flood'><h3>Bridge closed by flood</h3>" + _STORY
    + "</body></html>",
    # og:title spelt with an entity: the source does not name it, so it is not looked for
    "<html><head><title>News</title></head><body><meta property='og&#58;title' "
    "content='Hidden title here'><h1>One</h1><h1>Two</h1>" + _STORY + "</body></html>",
    # content after </body> (the root is the content root) and no <title> in a head
    "<html><body><h1>Bridge closes after the flood</h1>" + _STORY + "</body></html>"
    "<h2>Flood water stays high</h2><p>More text after the body closed.</p>",
    # no <head>, no <body>: the parser makes them
    "<title>Flood news</title><h4>River</h4>" + _STORY,
])
def test_the_title_is_the_same_from_the_segmenters_pass_as_from_its_own_search(html):
    from blocksift.algorithms.segmenter import features

    page = Page(html)
    blocks = features.compute(page)
    assert blocks.title_sources is not None and blocks.title_sources.root is page.tree
    content = blocks.elements[-1:]
    for main in (None, content):
        expected = auto.extract_title(Page(html), main and features.compute(
            Page(html)).elements[-1:])
        assert auto.extract_title(page, main, frozenset(), blocks.title_sources) == expected
    assert auto._title_and_og_title(page, blocks.title_sources) == \
        auto._title_and_og_title(Page(html))


@pytest.mark.skipif(auto._compiled_text is None,
                    reason="the compiled text measure was not built (no C compiler at install)")
def test_compiled_text_measure_gives_the_python_measures_numbers():
    import random

    rng = random.Random(3)
    # every comma character (three of which count the others in), white space of several
    # kinds, wide and astral characters, a lone surrogate
    pieces = [",", "\uff0c", "\u060c", "\ufe50", "\ufe10", "\ufe11", "\u2e41", "\u2e34",
              "\u2e32", " ", "\n", "\u00a0", "\u3000", "\x1c", "a", "bc", "\u00e9", "\u4e2d",
              "\U0001f600", "\ud800", ""]
    texts = [None, "", " \n "] + ["".join(rng.choice(pieces) for _ in range(rng.randrange(12)))
                                  for _ in range(50000)]
    with_commas = 0
    for text in texts:
        assert auto._tlen(text) == auto._tlen_python(text), repr(text)
        with_commas += auto._tlen_python(text)[1] > 0
    assert with_commas
    assert auto._tlen("a\ufe50 b") == (4, 0)  # only a common comma counts them

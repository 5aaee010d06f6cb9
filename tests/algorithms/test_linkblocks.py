"""Tests of the logical link block scanner (seeds 000 and 001).

Every worked example of the papers and SPEC-NOTES is a test here; the golden pages under
tests/fixtures/linkblocks/ pin whole-page results. Regenerate their expected JSON after an
intended change with ``python3 tests/algorithms/test_linkblocks.py --regen`` and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

if __name__ == "__main__":  # --regen run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "host"))

from blocksift.algorithms import linkblocks as lb  # noqa: E402
from blocksift.page import Page  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "linkblocks"
FILLER = ("the harbour lights were switched on again after forty years and the town came down "
          "to the quay to watch them glow along the breakwater while the band played on until "
          "late into the night and everyone agreed it had been worth the long wait").split()


def words(count: int) -> str:
    """``count`` distinct-looking plain words (each is one text unit)."""
    return " ".join(FILLER[i % len(FILLER)] for i in range(count))


def links(count: int, sep: str = " | ") -> str:
    return sep.join(f'<a href="/l{i}">link {i}</a>' for i in range(count))


# -- text distance counting rules (seed 001 §5.3, SPEC-NOTES) ------------------------------

@pytest.mark.parametrize("text, units", [
    ("Bei Jing 2008", 3),                   # rule 1 + 3: two words and a whole number
    ("北京 2008", 3),                        # rule 2 + 3: two CJK characters and a number
    ("March 8th, 2014", 1),                 # rule 4: a whole English date
    ("今天是 2014 年 3 月 8 日", 4),           # rule 4: three characters and a Chinese date
    ("今天是2014年3月8日", 4),                 # the same without spaces
    ("!!!", 1),                              # rule 5: a run of the same mark
    ("!?", 2),                               # two different marks
    ("。。。", 1),
    ("……", 1),
    ("Hello, world.", 4),                    # two words, two marks
    ("3.14 and 1,000", 3),                   # whole numbers keep their separators
    ("2014-03-08", 1),
    ("on 3/8/14.", 3),
    ("8 March 2014", 1),
    ("Monday, March 8, 2014", 1),
    ("二〇一四年三月八日", 1),
    ("price 12 dollars", 3),
    ("", 0),
    ("   \n\t ", 0),
    ("Home | News | Sport", 5),
])
def test_text_units_follow_the_five_counting_rules(text, units):
    assert lb.text_units(text) == units


@pytest.mark.parametrize("text, units", [
    # rule 4 then rule 3: a Chinese date is whole however the time after it is written
    ("2003年11月12日16:36", 2),
    ("2003年11月12日 16:36", 2),
    ("发表于2003年11月12日16:36 作者", 7),  # 3 characters, date, time, 2 characters
    ("3月8日10时", 3),                       # date, then 10 and 时
    # rule 1: a word with combining marks is one word
    ("हिन्दी भाषा", 2),                       # vowel signs and a virama inside each word
    ("नमस्ते दुनिया", 2),
    ("cafe\u0301 noir", 2),                  # a decomposed accent
    ("cafe\u0301", 1),
    ("café", 1),                              # the same word precomposed
])
def test_dates_with_times_and_words_with_combining_marks(text, units):
    assert lb.text_units(text) == units


@pytest.mark.parametrize("limit", [1, 2, 3, 5])
@pytest.mark.parametrize("text", ["二〇一四年三月八日", "2003年11月12日16:36", "हिन्दी भाषा",
                                  "cafe\u0301 noir"])
def test_bounded_count_compares_with_the_threshold_like_the_exact_count(text, limit):
    exact = lb.text_units(text)
    assert (lb.text_distance(text, limit) >= limit) == (exact >= limit)
    assert (lb._bounded_units(text, limit) >= limit) == (exact >= limit)


@pytest.mark.parametrize("gap, units", [
    # Definition 2 counts all text: RCDATA content (entities decoded) ...
    ("<textarea>one two &amp; three</textarea>", 4),
    ("<title>Bei Jing 2008</title>", 3),
    # ... and RAWTEXT content, read literally: "<b>" is three marks, "&amp;" three units
    ("<xmp>a <b>b</b></xmp>", 1 + 3 + 1 + 4),    # a < b > b < / b >: "</" is two marks
    ("<xmp>a &amp; b</xmp>", 5),
    ("<iframe src=x>no frames here</iframe>", 3),
    ("<noembed>one two</noembed><noframes>three</noframes>", 3),
    # code is never text
    ("<script>var a = b</script><style>p { }</style><noscript>x</noscript>", 0),
    ("<template>one two</template>", 0),
])
def test_text_of_rcdata_and_rawtext_elements_counts_toward_text_distance(gap, units):
    assert lb.text_distance(gap) == units
    for limit in range(1, units + 2):  # the screens agree with the count
        assert (lb.text_distance(gap, limit) >= limit) == (units >= limit)
    raw = f'<a href="/1">x</a>{gap}<a href="/2">y</a>'
    assert lb.gap_distances(raw, lb.scan_links(raw), "text") == [units]
    for limit in range(1, units + 2):
        bounded = lb.gap_distances(raw, lb.scan_links(raw), "text", limit=limit)
        assert (bounded[0] >= limit) == (units >= limit)


def test_a_link_inside_a_text_holding_element_is_still_no_link():
    raw = '<a href="/1">x</a><textarea><a href="/in">in</a></textarea><a href="/2">y</a>'
    assert len(lb.scan_links(raw)) == 2


def test_text_distance_ignores_tags_comments_scripts_and_decodes_entities():
    gap = ('</a></li><!-- a comment with words --><li class="x"><script>var a = "b c d";'
           '</script><style>p { color: red }</style>Bei&nbsp;Jing <b>2008</b></li><li>')
    assert lb.text_distance(gap) == 3
    assert lb.gap_text("a&amp;b") == "a&b"


# -- code distance: attributes stripped (Definition 1) ---------------------------------------

def test_code_distance_strips_attributes_as_in_the_paper():
    # <div id="main"> ABC </div> measures as <div> ABC </div>
    assert lb.code_distance('<div id="main"> ABC </div>') == len("<div> ABC </div>")


@pytest.mark.parametrize("gap, stripped", [
    ('<span title="a > b" class="c">x</span>', "<span>x</span>"),  # quoted '>' in a value
    ("<br/>text<BR CLEAR=all>", "<br>text<BR>"),
    ("plain text only", "plain text only"),
    ("</li>\n<li class='menu-item'>", "</li>\n<li>"),
])
def test_code_distance_counts_the_code_left_after_stripping(gap, stripped):
    assert lb.code_distance(gap) == len(stripped)


def test_hidden_code_choice_decides_whether_comments_and_scripts_count():
    gap = '<!-- twelve c --><script type="x">abc</script>ok'
    assert lb.code_distance(gap, "count") == len("<!-- twelve c --><script>abc</script>ok")
    assert lb.code_distance(gap, "skip") == len("ok")


# -- thresholds: formula 5-1 --------------------------------------------------------------

def page_with_gap(gap: str) -> str:
    return f'<p>{links(2)}{gap}<a href="/x">x</a> | <a href="/y">y</a></p>'


@pytest.mark.parametrize("distance, d_t", [("text", 40), ("text", 5), ("code", 80),
                                            ("code", 10)])
def test_a_distance_equal_to_d_t_splits_and_one_less_joins(distance, d_t):
    def gap(size: int) -> str:
        if distance == "text":
            return f" {words(size)} "
        return '<i class="x">' + "c" * (size - 7) + "</i>"  # <i>...</i> once stripped

    params = lb.Params(distance=distance, d_t=d_t, c_t=2, main_text=False)
    split = lb.extract(Page(page_with_gap(gap(d_t))), params)
    assert [b.link_count for b in split.blocks] == [2, 2]
    joined = lb.extract(Page(page_with_gap(gap(d_t - 1))), params)
    assert [b.link_count for b in joined.blocks] == [4]


def test_c_t_minus_one_links_make_no_block():
    params = lb.Params(main_text=False)  # C_t = 3
    page = f"<p>{words(60)} {links(2)} {words(60)} {links(3)} {words(60)}</p>"
    result = lb.extract(Page(page), params)
    assert [b.link_count for b in result.blocks] == [3]
    assert result.stats["links"] == 5 and result.stats["block_links"] == 3
    assert lb.extract(Page(page), lb.Params(c_t=2, main_text=False)).stats["blocks"] == 2


def test_group_links_keeps_maximal_runs_of_at_least_c_t():
    assert lb.group_links([1, 50, 1, 1], d_t=40, c_t=3) == [(2, 4)]
    assert lb.group_links([1, 1, 39, 40, 0], d_t=40, c_t=3) == [(0, 3)]
    assert lb.group_links([], d_t=40, c_t=1) == [(0, 0)]
    assert lb.group_links([], d_t=40, c_t=2) == []


def test_defaults_are_the_papers_values():
    params = lb.Params()
    assert (params.distance, params.threshold, params.c_t) == ("text", 40, 3)
    assert lb.Params(distance="code").threshold == 80
    assert lb.Params(distance="code", d_t=120).threshold == 120


@pytest.mark.parametrize("bad", [{"d_t": 0}, {"c_t": 0}, {"distance": "pixels"},
                                 {"unknown": 1}, {"hidden_code": "maybe"}])
def test_wrong_params_are_refused(bad):
    with pytest.raises(ValidationError):
        lb.Params(**bad)


# -- the papers' inline ad case (seed 000 Fig. 2, seed 001 图 5-2) --------------------------

def test_short_gap_links_inside_a_paragraph_form_a_block_and_a_lone_link_does_not():
    lone = '<a href="/mayor">the mayor</a>'
    ads = ('(<a href="/p">价格</a> <a href="/d">动态</a> <a href="/h">户型图</a> '
           '<a href="/f">论坛</a>)')
    page = f"<p>{words(50)} {lone} {words(50)} {ads} {words(50)}</p>"
    result = lb.extract(Page(page), lb.Params(main_text=False))
    assert [b.link_count for b in result.blocks] == [4]
    block = result.blocks[0]
    assert page[block.start:block.end].startswith('<a href="/p">')
    assert page[block.start:block.end].endswith("论坛</a>")
    assert result.stats["lcr"] == pytest.approx(4 / 5)


def test_the_chinese_figure_5_2_case():
    page = ("<p>旧闻炒作。而部分城市出现的开发商打折售楼，并不是特别的新闻，"
            "前几年多个城市都已出现过，它们大都(<a href='/1'>价格</a> <a href='/2'>动态</a> "
            "<a href='/3'>户型图</a> <a href='/4'>论坛</a>)是在银根收紧的压力下，"
            "部分开发商资金链出现断裂后的无奈之举，但</p>")
    result = lb.extract(Page(page), lb.Params(main_text=False))
    assert [b.link_count for b in result.blocks] == [4]


# -- LCR and CCR ---------------------------------------------------------------------------

def test_lcr_and_ccr_by_hand():
    block = links(3)
    page = f"<p>{words(45)}</p>{block}<p>{words(45)}</p><a href='/alone'>alone</a>"
    result = lb.extract(Page(page), lb.Params(main_text=False))
    assert result.stats["lcr"] == pytest.approx(3 / 4)
    assert result.stats["ccr"] == pytest.approx(len(block) / len(page))
    start = page.index(block)
    assert (result.blocks[0].start, result.blocks[0].end) == (start, start + len(block))


# -- malformed input -----------------------------------------------------------------------

def test_malformed_html_never_crashes_and_skips_what_is_not_a_link():
    raw = (FIXTURES / "malformed.html").read_text("utf-8")
    found = [raw[link.start:link.tag_end] for link in lb.scan_links(raw)]
    assert not any("in-comment" in tag or "in-script" in tag for tag in found)
    assert not any("anchor-only" in tag for tag in found)
    assert '<a href="/one" title="a > b">' in found          # quoted '>' in an attribute
    assert '<A HREF="/two">' in found                        # upper case
    assert any(tag.startswith("<a\nhref='/three'") for tag in found)
    assert len(found) == 8


def test_an_unclosed_link_ends_where_the_next_link_starts():
    raw = '<a href="/1">one <a href="/2">two</a>'
    first, second = lb.scan_links(raw)
    assert not first.closed and first.end == raw.index("one")
    assert second.closed and second.end == len(raw)
    assert lb.gap_distances(raw, [first, second], "text") == [1]  # "one" is gap text now


@pytest.mark.parametrize("raw", [
    "", "   ", "<", "<a", "<a href", "</a>", "<!--", "<!-- <a href=x>", "<script>",
    "<a href='x", '<a href="x" title="never closed', "<a href=x></a " * 3, "\x00<a href=1>",
    "<a href=1>" * 5, "<<<a href=1>>>a</a>", "<a\thref=1>t</a\t>",
])
def test_degenerate_inputs_give_a_clear_result(raw):
    result = lb.extract(Page(raw), lb.Params())
    assert result.status in ("ok", "empty")
    for block in result.blocks:
        assert 0 <= block.start <= block.end <= len(raw)


def test_empty_page_is_status_empty():
    result = lb.extract(Page(""), lb.Params())
    assert result.status == "empty" and result.blocks == []


def test_a_large_page_is_handled_in_one_pass():
    raw = "<ul>" + "".join(f'<li><a href="/{i}">item {i}</a></li>' for i in range(20000)) + "</ul>"
    result = lb.extract(Page(raw), lb.Params(main_text=False))
    assert result.stats["links"] == 20000 and result.stats["blocks"] == 1


# -- CJK pages -----------------------------------------------------------------------------

def test_cjk_page_separates_navigation_from_the_article():
    raw = (FIXTURES / "chinese-news.html").read_text("utf-8")
    result = lb.extract(Page(raw), lb.Params())
    link_blocks = [b for b in result.blocks if b.kind == "links"]
    assert [b.link_count for b in link_blocks] == [5, 6]
    assert result.main is not None
    assert result.main.text.startswith("港口灯光在四十年后重新点亮")
    assert "首页" not in result.main.text and "招聘信息" not in result.main.text


# -- ids of the elements to hide, main text, no tree ---------------------------------------

def test_block_ids_are_the_links_and_elements_wholly_inside_the_span():
    raw = (FIXTURES / "news-article.html").read_text("utf-8")
    result = lb.extract(Page(raw), lb.Params(main_text=False))
    nav = result.blocks[0]
    # li 3 opens before the first <a>, li 9 closes after the last </a>, ul 2 spans both
    assert nav.element_ids == ["4", "5", "6", "7", "8", "10"]


def test_without_element_ids_the_blocks_are_the_same_spans_and_carry_no_ids():
    page = Page((FIXTURES / "news-article.html").read_text("utf-8"))
    with_ids = lb.extract(page, lb.Params(main_text=False))
    spans_only = lb.extract(page, lb.Params(main_text=False, element_ids=False))
    assert [(b.start, b.end, b.link_count) for b in spans_only.blocks] == \
        [(b.start, b.end, b.link_count) for b in with_ids.blocks]
    assert with_ids.blocks[0].element_ids and not any(b.element_ids for b in spans_only.blocks)


def test_scanning_builds_no_tree():
    page = Page((FIXTURES / "news-article.html").read_text("utf-8"))
    lb.extract(page, lb.Params(main_text=False))
    assert "tree" not in page.__dict__ and "tags" not in page.__dict__


def test_main_text_is_the_stretch_between_link_blocks_with_most_text():
    raw = (FIXTURES / "news-article.html").read_text("utf-8")
    result = lb.extract(Page(raw), lb.Params())
    assert result.main is not None
    assert result.main.text.startswith("Harbour lights return after forty years")
    assert "Weather" not in result.main.text and "Cheap flights" not in result.main.text
    main_block = [b for b in result.blocks if b.kind == "main"][0]
    assert main_block.element_ids[:2] == ["12", "13"]
    assert result.stage == "between_link_blocks"


def test_page_without_link_blocks_gives_its_whole_text():
    result = lb.extract(Page(f"<p>{words(30)}</p>"), lb.Params())
    assert result.stage == "no_link_blocks" and result.main is not None
    assert result.main.text == words(30)


def test_external_link_judgment_ignores_links_within_the_site():
    body = " ".join(f'<a href="/wiki/T{i}">term {i}</a> {words(3)}' for i in range(6))
    ads = links(0) + " ".join(f'<a href="https://ads.example/{i}">ad {i}</a>' for i in range(3))
    raw = f"<p>{body}</p><p>{words(50)}</p><p>{ads}</p>"
    everything = lb.extract(Page(raw, url="https://wiki.example/A"), lb.Params(main_text=False))
    assert [b.link_count for b in everything.blocks] == [6, 3]
    external = lb.extract(Page(raw, url="https://wiki.example/A"),
                          lb.Params(link_scope="external", main_text=False))
    assert [b.link_count for b in external.blocks] == [3]
    assert external.stats["links"] == 9 and external.stats["scope_links"] == 3


# -- the fast path agrees with the exact measure -------------------------------------------

def gaps_of(raw: str) -> list[str]:
    found = lb.scan_links(raw)
    return [raw[a.end:b.start] for a, b in zip(found, found[1:])]


@pytest.mark.parametrize("limit", [5, 40])
def test_bounded_text_distance_decides_like_the_exact_one_on_fixture_pages(limit):
    pages = [p.read_text("utf-8") for p in sorted(FIXTURES.glob("*.html"))]
    dataset = Path(__file__).resolve().parents[1] / "fixtures" / "dataset" / "pages.jsonl"
    pages += [json.loads(line)["html"] for line in dataset.read_text("utf-8").splitlines()]
    checked = 0
    for raw in pages:
        for gap in gaps_of(raw):
            assert (lb.text_distance(gap, limit) >= limit) == (lb.text_distance(gap) >= limit)
            checked += 1
    assert checked > 50


def test_bounded_distances_decide_like_the_exact_ones_on_dev_pages(zh_cwce_path):
    from blocksift.evaluation.datasets import iter_pages

    for labeled in iter_pages(zh_cwce_path, limit=25):
        raw = labeled.html
        found = lb.scan_links(raw)
        for kind, limit in (("text", 40), ("code", 80), ("text", 5)):
            exact = lb.gap_distances(raw, found, kind)
            fast = lb.gap_distances(raw, found, kind, limit=limit)
            assert [d >= limit for d in fast] == [d >= limit for d in exact], labeled.id


# -- golden pages --------------------------------------------------------------------------

def summarize(raw: str) -> dict:
    """What the golden files pin: blocks (span, links, ids, excerpt), stats, main text."""
    result = lb.extract(Page(raw), lb.Params())
    return {
        "status": result.status,
        "blocks": [{"kind": b.kind, "start": b.start, "end": b.end, "link_count": b.link_count,
                    "element_ids": b.element_ids,
                    "excerpt": raw[b.start:b.end][:60]} for b in result.blocks],
        "stats": {k: round(v, 4) for k, v in result.stats.items()},
        "main_text": result.main.text if result.main else None,
    }


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.html")))
def test_golden_pages(name):
    raw = (FIXTURES / f"{name}.html").read_text("utf-8")
    expected = json.loads((FIXTURES / f"{name}.expected.json").read_text("utf-8"))
    got = summarize(raw)
    for index, (want, have) in enumerate(zip(expected["blocks"], got["blocks"])):
        assert have == want, f"{name}: block {index} differs: expected {want}, got {have}"
    assert len(got["blocks"]) == len(expected["blocks"]), f"{name}: block count differs"
    assert got == expected


if __name__ == "__main__" and "--regen" in sys.argv:
    for html_file in sorted(FIXTURES.glob("*.html")):
        out = FIXTURES / f"{html_file.stem}.expected.json"
        out.write_text(json.dumps(summarize(html_file.read_text("utf-8")), ensure_ascii=False,
                                  indent=1) + "\n", "utf-8")
        print("wrote", out)


# -- the sweep of seed 000 §4.2 (blocksift eval --algo linkblocks --sweep) ------------------

def test_sweep_writes_csv_and_figures_for_both_groups_of_settings(tmp_path):
    import argparse
    import csv

    from blocksift.evaluation import sweep

    dataset = Path(__file__).resolve().parents[1] / "fixtures" / "dataset" / "pages.jsonl"
    args = argparse.Namespace(datasets=[str(dataset)], algo="linkblocks", params={},
                              json=False, limit=None, out=tmp_path, progress=False)
    assert sweep.run(args) == 0
    rows = list(csv.DictReader((tmp_path / "linkblocks_sweep.csv").open(encoding="utf-8")))
    settings = {(r["experiment"], int(r["d_t"]), int(r["c_t"])) for r in rows}
    assert {("dt_text", d, 3) for d in range(5, 61, 5)} <= settings
    assert {("dt_code", d, 3) for d in range(10, 121, 10)} <= settings
    assert {("ct_text", 40, c) for c in range(2, 13)} <= settings
    assert {("ct_code", 80, c) for c in range(2, 13)} <= settings
    # a larger d_t never makes LCR smaller (runs only merge)
    text_rows = sorted((int(r["d_t"]), float(r["mean_lcr"])) for r in rows
                       if r["experiment"] == "dt_text" and r["dataset"] == "all"
                       and r["page_class"] == "content")
    assert all(a[1] <= b[1] + 1e-9 for a, b in zip(text_rows, text_rows[1:]))
    pytest.importorskip("matplotlib")
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "linkblocks_ct_code.png", "linkblocks_ct_text.png", "linkblocks_dt_code.png",
        "linkblocks_dt_text.png"]


def test_sweep_grouping_matches_extract():
    from blocksift.evaluation import sweep

    raw = (FIXTURES / "news-article.html").read_text("utf-8")
    measured = sweep.measure(raw, "fixture", "news", lb.Params())
    for kind, d_t, c_t in (("text", 40, 3), ("code", 80, 3), ("text", 5, 2), ("code", 30, 4)):
        result = lb.extract(Page(raw), lb.Params(distance=kind, d_t=d_t, c_t=c_t,
                                                 main_text=False))
        blocks, lcr, ccr = sweep.group(measured, kind, d_t, c_t)
        assert blocks == result.stats["blocks"]
        assert lcr == pytest.approx(result.stats["lcr"])
        assert ccr == pytest.approx(result.stats["ccr"])


def test_main_link_cost_lets_the_main_text_cross_a_small_block():
    article = (f"<p>{words(80)} Sponsored: <a href='/1'>one</a> | <a href='/2'>two</a> | "
               f"<a href='/3'>three</a> {words(70)}</p>")
    raw = f"<div>{links(6)}</div>{article}<div>{links(6)}</div>"
    paper = lb.extract(Page(raw), lb.Params())
    assert paper.stage == "between_link_blocks"
    assert paper.main.text == words(80) + " Sponsored:"
    crossing = lb.extract(Page(raw), lb.Params(main_link_cost=6))
    assert crossing.stage == "across_link_blocks"
    # the crossed block's own links stay out of the text
    assert crossing.main.text == words(80) + " Sponsored:\n\n" + words(70)
    assert crossing.stats["main_blocks_crossed"] == 1
    expensive = lb.extract(Page(raw), lb.Params(main_link_cost=1000))
    assert expensive.main.text == paper.main.text


def test_a_stray_quote_in_a_tag_does_not_swallow_the_text_after_it():
    # a quote opens a value only right after "=" (HTML tokenizer): the <img> ends at its ">"
    gap = '<img width="90 height="132" align=center> ' + words(45) + ' <b class="x">'
    assert lb.text_distance(gap) == 45
    assert lb.text_distance(gap, 40) >= 40
    assert lb.code_distance('<img width="90 height="132" align=center>') == len("<img>")


# -- any input: no crash, valid spans, early exits agree with exact measures ---------------

_PIECES = ["<a href='/x'>", "<A HREF=y>", "</a>", "<a name=n>", "<a", "href", "</a",
           "<p>", "</p>", "<div class=\"c\">", "</div>", "<br/>", "<img alt='a>b'>", "<!--",
           "-->", "<script>", "</script>", "<style>", "</style>", "<title>", "</title>",
           "<", ">", "\"", "'", "=", " ", "\n", "word", "Words", "March 8th, 2014", "2014年3月8日",
           "北京", "！！", "...", "&nbsp;", "&amp;", "12:30", "3.14", "</^x>", "<?php ?>"]


def test_any_mix_of_markup_gives_valid_blocks_and_consistent_distances():
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    @hypothesis.settings(max_examples=300, deadline=None, derandomize=True)
    @hypothesis.given(st.lists(st.sampled_from(_PIECES), max_size=80),
                      st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=5))
    def check(pieces, d_t, c_t):
        raw = "".join(pieces)
        found = lb.scan_links(raw)
        assert all(a.end <= b.start for a, b in zip(found, found[1:]))
        assert all(0 <= link.start < link.tag_end <= link.end <= len(raw) for link in found)
        for kind in ("text", "code"):
            exact = lb.gap_distances(raw, found, kind)
            fast = lb.gap_distances(raw, found, kind, limit=d_t)
            assert [d >= d_t for d in fast] == [d >= d_t for d in exact]
            result = lb.extract(Page(raw), lb.Params(distance=kind, d_t=d_t, c_t=c_t))
            assert result.status in ("ok", "empty")
            spans = [(b.start, b.end) for b in result.blocks if b.kind == "links"]
            assert spans == sorted(spans)
            assert all(0 <= s <= e <= len(raw) for s, e in spans)
            assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))

    check()


def test_main_text_counts_the_text_it_shows_not_a_textarea():
    # Definition 2 counts the textarea's text between links; the main text shows none of it,
    # so the stretch holding the shown article wins
    raw = ("<html><body>" + links(5) + f"<form><textarea>{words(120)}</textarea></form>"
           + links(5) + f"<p>{words(50)}</p>" + links(5) + "</body></html>")
    result = lb.extract(Page(raw), lb.Params())
    assert result.stats["blocks"] == 3  # the textarea's text splits two blocks
    assert result.main is not None
    assert result.main.text == words(50)
    assert result.stats["main_units"] == 50
    gap = raw[raw.index("<form>"):raw.index("</form>") + 7]
    assert lb.text_distance(gap) == 120


# -- the compiled link scan (_linkblocks.pyx) finds what the Python scan finds --------------

_SCAN_PIECES = _PIECES + ["<noscript>", "</noscript>", "<template>", "</TEMPLATE>", "<xmp>",
                          "<plaintext>", "<plain>", "<Script >", "<!-->", "<!--->", "</ x>",
                          "</A >", "<a\thref=z>", '<a title="1 > 0" href=q>', "<ab>", "</ab>",
                          "<iframe>", "</iframe>", "<textarea>", "<!x>", "</>", "\u00a0", "é"]


@pytest.mark.skipif(lb._compiled_links is None,
                    reason="the compiled link scan was not built (no C compiler at install)")
def test_compiled_link_scan_finds_the_python_scans_links():
    import random

    from blocksift.page import decode_html

    rng = random.Random(7)
    pages = ["".join(rng.choice(_SCAN_PIECES) for _ in range(rng.randrange(1, 80)))
             for _ in range(4000)]
    tests_dir = Path(__file__).resolve().parents[1]
    pages += [decode_html(path.read_bytes()) for path in sorted(
        [*tests_dir.glob("golden/*/source.html"), *(tests_dir / "fixtures").rglob("*.html")])]
    links = unclosed = 0
    for raw in pages:
        found = lb.scan_links(raw)
        assert found == lb.scan_links_python(raw), raw
        links += len(found)
        unclosed += sum(not link.closed for link in found)
    assert links and unclosed  # closed and unclosed links were both reached

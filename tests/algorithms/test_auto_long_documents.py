"""The shipped segmenter keeps a long document whole.

Golden article pages (tests/golden, hand-made or MIT-licensed) are lengthened the way
training does it (``auto_training.lengthen``: hundreds more paragraphs of the page's own
sentences after its last main paragraph); ``auto`` must keep nearly all of the added text
and still leave out the page's menus and footers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from blocksift import auto_training as at
from blocksift.algorithms import auto, auto_rules
from blocksift.algorithms.segmenter import features
from blocksift.evaluation.metric import word_prf
from blocksift.page import Page

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
ARTICLES = ["news-landmarks", "blog-code-figure", "news-teaser-column", "zh-blog-donews"]


def _kept(output: str, wanted: str) -> float:
    """Share of the words of ``wanted`` (as a bag) that ``output`` holds: word recall."""
    return word_prf(output, wanted)[1]


@pytest.mark.parametrize("paragraphs", [300, 1000])
@pytest.mark.parametrize("slug", ARTICLES)
def test_a_lengthened_article_is_kept_whole(slug: str, paragraphs: int):
    case = GOLDEN / slug
    gold = (case / "expected.txt").read_text(encoding="utf-8")
    record = {"id": slug, "html": (case / "source.html").read_text(encoding="utf-8"),
              "gold": gold}
    made = at.lengthen(record, paragraphs, np.random.default_rng(0))
    assert made is not None, "the case has a run of main paragraphs to lengthen"
    # the added paragraphs resample the page's few sentences, so some repeat word for word:
    # the reader shows a repeat once, which is not what this test is about
    keep_repeats = auto.Params(repeat_min_words=0)
    result = auto.extract(Page(made.record["html"]), keep_repeats)
    text = result.main.text if result.main else ""
    assert _kept(text, "\n".join(made.added)) >= 0.95  # the added paragraphs
    assert _kept(text, gold) >= 0.95  # the article itself
    # the regions the short page's reader leaves out (menus, footers) stay out of the long one
    short = auto.extract(Page(record["html"]), keep_repeats)
    left_out = [" ".join(el.text_content().split()) for el, kind, *_ in short.extra["segments"]
                if kind != "main"]
    left_out = [t for t in left_out if len(t) >= 20 and t not in short.main.text]
    assert left_out, "the case has boilerplate to leave out"
    assert [t for t in left_out if t in text] == []


def test_a_long_article_is_a_few_blocks_not_one_per_paragraph():
    # its short heading is labelled apart from the paragraphs, so each paragraph is a region
    # of its own; sibling main regions make one block
    menu = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(30))
    paragraphs = "".join(f"<p>Paragraph {i} says something, with a comma and an end.</p>"
                         for i in range(2000))
    page = Page(f"<html><head><title>Big</title></head><body><nav><ul>{menu}</ul></nav>"
                f"<article><h1>Big page</h1>{paragraphs}</article><aside><ul>{menu}</ul>"
                "</aside><footer>Footer text</footer></body></html>")
    # the default model itself (the fast model, which a page this long gets, labels the
    # heading main: one region)
    result = auto.extract(page, auto.Params(long_page_elements=0))
    regions = result.extra["segments"]
    main_regions = [el for el, kind, *_ in regions if kind == "main"]
    assert len(main_regions) >= 2000  # one region per paragraph
    assert len(result.blocks) < 10
    (main,) = [b for b in result.blocks if b.kind == "main"]
    assert main.xpaths == [page.xpath(el) for el in main_regions]
    assert (main.start, main.end) == (page.span(main_regions[0])[0],
                                      page.span(main_regions[-1])[1])
    assert result.main.text.count("Paragraph") == 2000


def test_a_page_of_many_elements_is_labelled_by_the_fast_model_unless_a_model_is_given():
    paragraphs = "".join(f"<p>Paragraph {i} of a long page, with a comma and an end.</p>"
                         for i in range(300))
    html = (f"<html><head><title>Long</title></head><body><nav><a href='/'>Home</a></nav>"
            f"<article><h1>A long page</h1>{paragraphs}</article></body></html>")
    fast = auto.extract(Page(html), auto.Params(), auto.load_model("fast"))
    default = auto.extract(Page(html), auto.Params(long_page_elements=0))
    # the two models differ on this page, so the switch can be seen in the result
    assert fast.stats["uncertain_share"] != default.stats["uncertain_share"]
    switched = auto.extract(Page(html), auto.Params(long_page_elements=300))
    assert switched.stats["long_page_fast_model"] == 1.0
    assert default.stats["long_page_fast_model"] == 0.0
    assert switched.stats["uncertain_share"] == fast.stats["uncertain_share"]
    assert switched.main.text == fast.main.text
    assert [b.score for b in switched.blocks] == [b.score for b in fast.blocks]
    # a page under the limit, or a model given, keeps the model
    assert auto.extract(Page(html), auto.Params(long_page_elements=10_000)).stats[
        "uncertain_share"] == default.stats["uncertain_share"]
    given = auto.extract(Page(html), auto.Params(long_page_elements=300),
                         auto.load_model("fast"))
    assert given.stats["long_page_fast_model"] == 0.0


def test_the_rule_based_fallback_is_skipped_on_pages_of_many_elements_and_says_so():
    # a list of links the trees label no main content: the rules' ladder then takes the
    # whole body, at the cost of measuring the tree again and again on a long page
    links = "".join(f'<li><a href="/page/{i}">link number {i}</a></li>\n' for i in range(300))
    html = (f"<html><head><title>l</title></head><body><ul>{links}</ul>"
            f"<p>{'Some article text. ' * 50}</p></body></html>")
    elements = len(Page(html).tags.names)
    # the one paragraph lies under the model's threshold, where the expected-F1 rule would
    # take it; the fallback is what this test is about
    one_threshold = {"expected_f1": False}
    fell_back = auto.extract(Page(html), auto.Params(**one_threshold))
    assert fell_back.stage == "rules" and "link number 299" in fell_back.main.text
    for limit in (elements, 100):
        skipped = auto.extract(Page(html), auto.Params(rules_fallback_max_elements=limit,
                                                       **one_threshold))
        assert skipped.status == "empty" and skipped.stage == "model"
        assert f"no rule-based fallback on a page of {limit:,} elements" in skipped.message
    kept = auto.extract(Page(html), auto.Params(rules_fallback_max_elements=elements + 1,
                                                **one_threshold))
    assert kept.stage == "rules"
    unlimited = auto.extract(Page(html), auto.Params(rules_fallback_max_elements=0,
                                                     **one_threshold))
    assert unlimited.stage == "rules"


def test_the_fallback_keeps_the_block_around_an_inline_choice_of_the_rules():
    # An old page's unclosed <font> tags nest every later line in the first one: the walk
    # folds them all into the body's block, and auto-rules chooses one of the fonts, which
    # no block lies inside. The trees chose nothing here; without the block around the
    # rules' choice the page came out empty.
    lines = "".join(f"<font>line number {i} of the text<br>" for i in range(1000))
    html = f"<html><body><p>start</p>{lines}</body></html>"
    page = Page(html)
    blocks = features.compute(page)
    chosen, _exclude, _stage = auto_rules.select(page, auto_rules.Params(with_html=False))
    assert chosen and not any(el in blocks.elements for el in chosen)
    kept = auto._rules_choice(page, blocks)
    assert kept.tolist() == [el.tag == "body" for el in blocks.elements]
    result = auto.extract(Page(html), auto.Params())
    assert result.status == "ok"
    assert "line number 0 of" in result.main.text and "line number 999 of" in result.main.text


@pytest.mark.parametrize("lines", [300, 1000])
def test_the_rules_fallback_asks_auto_rules_once(monkeypatch, lines):
    # 300 lines: the default model, which reads auto-rules' choice as features; 1,000: a
    # page the fast model labels, which reads none. Either way the fallback reuses one
    # answer: auto-rules' measures are among the costliest steps of a page.
    calls = []
    select = auto_rules.select

    def counted(*args, **kwargs):
        calls.append(1)
        return select(*args, **kwargs)

    monkeypatch.setattr(auto_rules, "select", counted)
    body = "".join(f"<font>line number {i} of the text<br>" for i in range(lines))
    result = auto.extract(Page(f"<html><body><p>start</p>{body}</body></html>"),
                          auto.Params())
    assert result.stage == "rules" and f"line number {lines - 1} of" in result.main.text
    assert len(calls) == 1

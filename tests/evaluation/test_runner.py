"""The evaluation runner: word F1 per page type and the snippet check, checked by hand."""

from __future__ import annotations

import pytest

from blocksift.evaluation.datasets import LabeledPage
from blocksift.evaluation.runner import evaluate

# What the "extractor" returns for each page: the text in its one <p>.
PAGES = [
    LabeledPage(id="a1", html="<p>red green blue</p>", gold="red green blue",
                page_type="article", snippets_with=("green blue",), snippets_without=("menu",)),
    LabeledPage(id="a2", html="<p>red menu</p>", gold="red green blue yellow",
                page_type="article", snippets_with=("red green",), snippets_without=("menu",)),
    LabeledPage(id="f1", html="<p></p>", gold="post one post two", page_type="forum"),
    LabeledPage(id="l1", html="<p></p>", gold="", page_type="listing"),
]


def paragraph_text(page) -> tuple[str, str]:
    return " ".join(p.text_content() for p in page.tree.iter("p")), "ok"


def test_word_f1_overall_and_by_page_type_by_hand():
    report = evaluate(PAGES, paragraph_text, dataset="t", algorithm="p")
    # a1: P=R=F1=1. a2: overlap {red}: P=1/2, R=1/4, F1=1/3. f1: empty output: 0.
    # l1: empty gold and empty output: 1.
    overall = report.overall
    assert overall.words.f1 == pytest.approx((1 + 1 / 3 + 0 + 1) / 4)
    assert overall.words.precision == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    assert overall.words.recall == pytest.approx((1 + 0.25 + 0 + 1) / 4)
    assert overall.words.empty_outputs == 2
    groups = report.by_page_type()
    assert list(groups) == ["article", "forum", "listing"]
    assert groups["article"].words.f1 == pytest.approx((1 + 1 / 3) / 2)
    assert groups["forum"].words.f1 == 0.0 and groups["listing"].words.f1 == 1.0
    # snippets: found "green blue" (a1) but not "red green" (a2); "menu" absent only in a1
    assert overall.snippets == (1, 2, 1, 2)
    assert overall.snippets_with == 0.5 and overall.snippets_without == 0.5
    assert groups["forum"].snippets_with is None


def test_report_json_carries_word_figures():
    data = evaluate(PAGES, paragraph_text, dataset="t", algorithm="p").as_dict(with_pages=True)
    assert data["word_f1"] == pytest.approx((1 + 1 / 3 + 0 + 1) / 4, abs=1e-4)
    assert data["by_page_type"]["article"]["pages"] == 2
    assert [p["word_f1"] for p in data["per_page"]] == [1.0, pytest.approx(1 / 3, abs=1e-4),
                                                        0.0, 1.0]

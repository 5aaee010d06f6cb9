"""The dataset metric, checked by hand on tiny texts."""

from __future__ import annotations

import pytest

from blocksift.evaluation.metric import score_page, shingles, summarize, tokens


def test_tokens_split_cjk_characters_and_keep_words():
    assert tokens("Bei Jing 2008, 北京!") == ["Bei", "Jing", "2008", "北", "京"]


def test_short_texts_are_one_shingle():
    assert shingles("a b") == {("a", "b"): 1}
    assert sum(shingles("a b c d e").values()) == 2


def test_page_precision_recall_by_hand():
    score = score_page("a b c d e", "a b c d f")  # shingles: abcd,bcde vs abcd,bcdf
    assert score.precision == pytest.approx(0.5) and score.recall == pytest.approx(0.5)
    assert score.f1 == pytest.approx(0.5)


def test_empty_output_counts_in_recall_not_precision():
    scores = [score_page("", "a b c d"), score_page("a b c d", "a b c d")]
    summary = summarize(scores)
    assert summary.precision == 1.0 and summary.recall == 0.5
    assert summary.empty_outputs == 1
    assert summary.mean_page_f1 == pytest.approx(0.5)

"""The dataset metric, checked by hand on tiny texts."""

from __future__ import annotations

import pytest

from blocksift.evaluation.metric import (
    score_page,
    shingles,
    snippet_hits,
    summarize,
    summarize_words,
    tokens,
    word_prf,
    words,
)


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


# --- wcxb word F1, by hand -----------------------------------------------------------------


def test_words_are_lowercased_bags_of_word_runs():
    assert words("The cat, the CAT; it's 2026!") == {"the": 2, "cat": 2, "it": 1, "s": 1,
                                                     "2026": 1}
    assert words("北京 Bei") == {"北": 1, "京": 1, "bei": 1}


def test_word_prf_counts_overlap_with_multiplicity():
    # output bag {a:2, b:1, c:1} (4 words), gold {a:1, b:1, d:1, e:1, f:1} (5 words)
    # overlap = min(2,1) + min(1,1) = 2 -> P = 2/4, R = 2/5, F1 = 2*.5*.4/.9 = 4/9
    p, r, f1 = word_prf("a A b c", "a b d e f")
    assert (p, r) == (pytest.approx(0.5), pytest.approx(0.4))
    assert f1 == pytest.approx(4 / 9)


def test_word_prf_ignores_case_and_punctuation():
    assert word_prf("Hello, World!", "hello world") == (1.0, 1.0, 1.0)


def test_word_prf_empty_cases():
    assert word_prf("", "") == (1.0, 1.0, 1.0)
    assert word_prf("  ... ", "") == (1.0, 1.0, 1.0)  # no words is empty output
    assert word_prf("menu", "") == (0.0, 0.0, 0.0)
    assert word_prf("", "gold text") == (0.0, 0.0, 0.0)
    assert word_prf("x y", "a b") == (0.0, 0.0, 0.0)


def test_word_summary_is_a_plain_mean_over_all_pages():
    pages = [word_prf("a b", "a b"), word_prf("", "a b"), word_prf("a A b c", "a b d e f")]
    summary = summarize_words(pages, empty_outputs=1)
    assert summary.precision == pytest.approx((1 + 0 + 0.5) / 3)
    assert summary.recall == pytest.approx((1 + 0 + 0.4) / 3)
    assert summary.f1 == pytest.approx((1 + 0 + 4 / 9) / 3)
    assert summary.pages == 3 and summary.empty_outputs == 1


def test_snippets_match_whole_words_ignoring_punctuation():
    out = "Protein continues to dominate -- the wellness conversation. Home"
    found, of_with, absent, of_without = snippet_hits(
        out, ["protein continues to dominate the", "keeps you full", "!!"],
        ["Home", "Login", "Order Now"])
    assert (found, of_with) == (1, 2)  # "!!" has no word and is skipped
    assert (absent, of_without) == (2, 3)
    assert snippet_hits("Homepage", [], ["Home"])[2] == 1  # a word inside a word is no match

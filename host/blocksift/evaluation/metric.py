"""The scoring metric of the dev datasets (scrapinghub article-extraction-benchmark style).

* tokens: runs of word characters (``\\w+``), except that every CJK ideograph, kana or
  hangul syllable is a token of its own;
* shingles: token 4-grams compared as multisets (a text of 1 to 3 tokens is one shingle);
  per page tp = shared shingles, fp = extra in the output, fn = missing from it;
* page precision = tp / (tp + fp), page recall = tp / (tp + fn), both 1 when fp = fn = 0;
* P = mean page precision over pages with output; R = mean page recall over pages with a
  non-empty gold; F1 = 2PR / (P + R). Also reported: pages with empty output and the mean
  per-page F1 with empty output scored 0.

The ``wcxb-dev`` set has its own **word F1** (:func:`word_prf`): per page, bags of lowercased
words, P = overlap / output words, R = overlap / gold words, F1 harmonic; the set's P, R and F1
are plain means over all pages (:func:`summarize_words`). Its snippet check
(:func:`snippet_hits`) is reported beside it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

# Tokens and shingles live below the algorithms (FAR-SW labels lines with them).
from ..shingles import _CJK, SHINGLE, TOKEN_RE, shingles, tokens  # noqa: F401 (re-exported)


@dataclass(frozen=True)
class PageScore:
    """Precision and recall of one page; ``None`` where undefined (empty output/gold)."""

    precision: float | None
    recall: float | None
    empty_output: bool
    empty_gold: bool

    @property
    def f1(self) -> float:
        """Per-page F1, empty output scored 0 (1 when both output and gold are empty)."""
        if self.empty_output and self.empty_gold:
            return 1.0
        p, r = self.precision or 0.0, self.recall or 0.0
        return 2 * p * r / (p + r) if p + r else 0.0


def score_page(output: str, gold: str) -> PageScore:
    """Score one extraction against its gold text."""
    out, ref = shingles(output), shingles(gold)
    empty_output, empty_gold = not out, not ref
    tp = sum((out & ref).values())
    fp = sum(out.values()) - tp
    fn = sum(ref.values()) - tp
    precision = (tp / (tp + fp) if tp + fp else 1.0) if not empty_output else None
    recall = (tp / (tp + fn) if tp + fn else 1.0) if not empty_gold else None
    return PageScore(precision, recall, empty_output, empty_gold)


@dataclass(frozen=True)
class Summary:
    """Dataset-level scores."""

    precision: float
    recall: float
    f1: float
    mean_page_f1: float
    pages: int
    empty_outputs: int


def summarize(scores: Iterable[PageScore]) -> Summary:
    """Aggregate page scores the way the dataset README prescribes."""
    scores = list(scores)
    precisions = [s.precision for s in scores if s.precision is not None]
    recalls = [s.recall for s in scores if s.recall is not None]
    p = sum(precisions) / len(precisions) if precisions else 0.0
    r = sum(recalls) / len(recalls) if recalls else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    mean_f1 = sum(s.f1 for s in scores) / len(scores) if scores else 0.0
    return Summary(p, r, f1, mean_f1, len(scores), sum(s.empty_output for s in scores))


# --- wcxb word F1 -------------------------------------------------------------------------


def words(text: str) -> Counter[str]:
    """Bag of lowercased ``\\w+`` words; a CJK character is a word of its own.

    On text without CJK characters this is exactly the benchmark's ``\\w+`` bag; splitting
    CJK keeps the score meaningful on Chinese pages, where ``\\w+`` spans whole sentences.
    """
    return Counter(TOKEN_RE.findall(text.lower()))


def word_prf(output: str, gold: str) -> tuple[float, float, float]:
    """Word precision, recall and F1 of one page (the WCXB benchmark's metric).

    P = overlap / output words, R = overlap / gold words (overlap of the two bags, counted
    with multiplicity). An empty gold scores (1, 1, 1) for an empty output and (0, 0, 0)
    otherwise; an empty output scores (0, 0, 0) against a non-empty gold.
    """
    out, ref = words(output), words(gold)
    if not ref:
        return (1.0, 1.0, 1.0) if not out else (0.0, 0.0, 0.0)
    if not out:
        return 0.0, 0.0, 0.0
    overlap = sum((out & ref).values())
    p = overlap / sum(out.values())
    r = overlap / sum(ref.values())
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


@dataclass(frozen=True)
class WordSummary:
    """Set-level word scores: plain means over all pages (empty outputs included)."""

    precision: float
    recall: float
    f1: float
    pages: int
    empty_outputs: int


def summarize_words(scores: Iterable[tuple[float, float, float]],
                    empty_outputs: int = 0) -> WordSummary:
    """Plain means of per-page (P, R, F1) triples; 0 for no pages."""
    scores = list(scores)
    n = len(scores)
    if not n:
        return WordSummary(0.0, 0.0, 0.0, 0, empty_outputs)
    return WordSummary(sum(s[0] for s in scores) / n, sum(s[1] for s in scores) / n,
                       sum(s[2] for s in scores) / n, n, empty_outputs)


def _normalized(text: str) -> str:
    """Lowercased words joined by single spaces, padded, for whole-word substring tests."""
    return " " + " ".join(TOKEN_RE.findall(text.lower())) + " "


def snippet_hits(output: str, snippets_with: Iterable[str],
                 snippets_without: Iterable[str]) -> tuple[int, int, int, int]:
    """(found, of_with, absent, of_without): snippets a correct extraction includes / excludes.

    A snippet is found when its lowercased words occur in the output as a contiguous run of
    whole words (punctuation and whitespace ignored); snippets without any word are skipped.
    """
    text = _normalized(output)
    with_norm = [n for n in map(_normalized, snippets_with) if n.strip()]
    without_norm = [n for n in map(_normalized, snippets_without) if n.strip()]
    found = sum(n in text for n in with_norm)
    absent = sum(n not in text for n in without_norm)
    return found, len(with_norm), absent, len(without_norm)

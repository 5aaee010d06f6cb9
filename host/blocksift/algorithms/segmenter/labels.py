"""Training labels: each block's share of words that align, in order, with the gold text.

The page's words (lowercased ``\\w+``, blocks in document order) are aligned with the gold
words by the longest matching runs (difflib's Ratcliff-Obershelp matching), so a menu word
that also occurs in the article is not marked main just because the word is in the gold:
only words inside a run that follows the gold's order count.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter

import numpy as np

WORD_RE = re.compile(r"\w+")
#: Runs shorter than this many words do not count as aligned (stray shared words).
MIN_RUN = 3
#: Word pairs the exact alignment may compare (each page word times its count in the gold):
#: the dev sets' pages need at most 3.8 million (1.4 s); a page of one sentence repeated
#: thousands of times needs billions (a labeled example took a minute to save). Above it,
#: difflib's own heuristic ignores the gold's most frequent words (``autojunk``).
MAX_EXACT_PAIRS = 10_000_000


def words(text: str) -> list[str]:
    """Lowercased ``\\w+`` words of ``text``."""
    return [w.lower() for w in WORD_RE.findall(text)]


def exact_fits(page_words: list, gold_words: list) -> bool:
    """Whether the exact alignment of the two word lists stays within
    :data:`MAX_EXACT_PAIRS` (difflib compares each page word with each of its places in the
    gold)."""
    in_gold = Counter(gold_words)
    return sum(in_gold[w] for w in page_words) <= MAX_EXACT_PAIRS


def aligned_share(block_texts: list[str], gold: str, min_run: int = MIN_RUN) -> np.ndarray:
    """Per block, the share of its words aligned in order with ``gold`` (0..1)."""
    block_words = [words(t) for t in block_texts]
    page_words: list[str] = []
    owner: list[int] = []
    for i, ws in enumerate(block_words):
        page_words.extend(ws)
        owner.extend([i] * len(ws))
    gold_words = words(gold)
    matched = np.zeros(len(page_words), dtype=bool)
    if page_words and gold_words:
        vocab: dict[str, int] = {}
        a = [vocab.setdefault(w, len(vocab)) for w in page_words]
        b = [vocab.setdefault(w, len(vocab)) for w in gold_words]
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=not exact_fits(a, b))
        for block in matcher.get_matching_blocks():
            if block.size >= min(min_run, len(gold_words)):
                matched[block.a:block.a + block.size] = True
    share = np.zeros(len(block_texts))
    if page_words:
        counts = np.bincount(np.asarray(owner), minlength=len(block_texts))
        hits = np.bincount(np.asarray(owner), weights=matched, minlength=len(block_texts))
        share = np.divide(hits, counts, out=np.zeros(len(block_texts)), where=counts > 0)
    return share

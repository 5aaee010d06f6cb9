"""Word tokens and shingles of text: the unit the dev datasets' metric counts in.

Shared below the algorithms (FAR-SW labels its training lines with them) and evaluation
(:mod:`blocksift.evaluation.metric` scores with them), so both read text the same way.

* tokens: runs of word characters (``\\w+``), except that every CJK ideograph, kana or
  hangul syllable is a token of its own;
* shingles: token 4-grams as a multiset (a text of 1 to 3 tokens is one shingle).
"""

from __future__ import annotations

import re
from collections import Counter

_CJK = (r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
        r"\U00020000-\U0002fa1f")
TOKEN_RE = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])\w)+")
SHINGLE = 4


def tokens(text: str) -> list[str]:
    """Word tokens of ``text``; each CJK character is one token."""
    return TOKEN_RE.findall(text)


def shingles(text: str, size: int = SHINGLE) -> Counter[tuple[str, ...]]:
    """Multiset of token ``size``-grams (one short shingle for 1..size-1 tokens)."""
    toks = tokens(text)
    if not toks:
        return Counter()
    if len(toks) < size:
        return Counter([tuple(toks)])
    return Counter(tuple(toks[i:i + size]) for i in range(len(toks) - size + 1))

"""The compiled raw-page checks (``_rawchecks.pyx``) against the regular expressions they
stand in for: the same answer on every bundled page, on random markup made of the
characters the two grammars turn on, and on attribute bombs at the limit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from blocksift import page, repair
from blocksift.page import MAX_ATTRIBUTES_PER_TAG, many_attributes_pattern

checks = page._compiled_checks
needs_checks = pytest.mark.skipif(checks is None, reason="the compiled raw checks were not "
                                                         "built (no C compiler at install)")
ROOT = Path(__file__).resolve().parents[1]
BUNDLED_PAGES = sorted([*(ROOT / "tests").glob("golden/*/source.html"),
                        *(ROOT / "tests" / "fixtures").rglob("*.html"),
                        *(ROOT / "examples").glob("*.html")])

#: The pieces random markup is made of: tag starts of every kind, the raw-text names in
#: both cases and with the letters the case-blind regex folds to theirs, quotes, "=", "/",
#: white space of several kinds (a no-break space and an em space are white space to both),
#: word characters after a name, and text.
PIECES = ["<", "</", ">", "<a", "<p ", "<div", '"', "'", "=", "/", " ", "\t", "\n", "\u00a0",
          "\u2003", "\x1c", "title", "TITLE", "Textarea", "xmp", "iframe", "noembed",
          "NOFRAMES", "tıtle", "İframe", "_", "1", "é", "x", "ab", "<title>", "</title>",
          "<xmp ", "</xmp>", "<iframe", "<b", "c=d", 'e="f g"', "h='i'", "j=", "k",
          # scripts, which the second look blanks: every way one opens and closes, or not
          "<script", "<SCRIPT>", "<scripts", "<ſcript", "</script>", "</Script\t>",
          "</script", "</scrİpt>", "script"]


def _regex_swallowing(raw: str, outside_scripts: bool = False) -> bool:
    if outside_scripts:
        raw = repair._SCRIPT.sub(lambda script: " " * len(script.group()), raw)
    return repair._last_swallowing_open(repair._SWALLOWING_TAG.finditer(raw))


def _random_markup(rng: random.Random, pieces: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(pieces))


@needs_checks
@pytest.mark.parametrize("seed", range(4))
def test_random_markup_gets_the_regexes_answers(seed: int):
    rng = random.Random(seed)
    patterns = {limit: many_attributes_pattern(limit) for limit in range(4)}
    folded = found = differs = 0
    for _ in range(3000):
        raw = _random_markup(rng, rng.randrange(1, 40))
        for limit, pattern in patterns.items():
            assert checks.has_tag_over(raw, limit) == (pattern.search(raw) is not None), \
                (raw, limit)
            found += pattern.search(raw) is not None
        for outside_scripts in (False, True):
            answer = checks.swallowing_left_open(raw, outside_scripts)
            if answer is None:  # a folded letter: the regex answers instead
                folded += 1
                continue
            assert answer == _regex_swallowing(raw, outside_scripts), (raw, outside_scripts)
            found += answer
            differs += outside_scripts and answer != _regex_swallowing(raw)
    assert folded and found and differs  # every kind of answer was reached


@needs_checks
@pytest.mark.parametrize("attributes", [MAX_ATTRIBUTES_PER_TAG, MAX_ATTRIBUTES_PER_TAG + 1])
@pytest.mark.parametrize("attribute", ["a{}", 'a{}="x > y"', "a{}='1'", "a{}=b", "/a{}"])
def test_an_attribute_bomb_is_found_from_one_past_the_limit(attributes: int, attribute: str):
    raw = ("<html><body><p>text</p><div " + " ".join(attribute.format(i)
                                                     for i in range(attributes))
           + "><p>inside</p></div></body></html>")
    over = attributes > MAX_ATTRIBUTES_PER_TAG
    assert (page._MANY_ATTRIBUTES.search(raw) is not None) is over
    assert checks.has_tag_over(raw, MAX_ATTRIBUTES_PER_TAG) is over


@needs_checks
@pytest.mark.parametrize("path", BUNDLED_PAGES, ids=lambda p: p.parent.name + "/" + p.name)
def test_bundled_pages_get_the_regexes_answers(path: Path):
    raw = page.decode_html(path.read_bytes())
    assert checks.has_tag_over(raw, MAX_ATTRIBUTES_PER_TAG) == (
        page._MANY_ATTRIBUTES.search(raw) is not None)
    assert checks.swallowing_left_open(raw) == _regex_swallowing(raw)
    assert checks.swallowing_left_open(raw, True) == _regex_swallowing(raw, True)


def test_without_the_compiled_checks_the_regexes_answer(monkeypatch):
    monkeypatch.setattr(page, "_compiled_checks", None)
    monkeypatch.setattr(repair, "_compiled_checks", None)
    bomb = "<p " + " ".join(f"a{i}" for i in range(MAX_ATTRIBUTES_PER_TAG + 1)) + ">"
    assert page.has_tag_over_attribute_limit(bomb)
    assert not page.has_tag_over_attribute_limit("<p a b c>")
    assert repair.raw_may_need_scan("<html><head><title>never closed<body><p>x</p>")
    assert not repair.raw_may_need_scan("<title>t</title><p>x</p>")
    # a raw-text tag left open inside a script only is no reason to scan
    assert not repair.raw_may_need_scan("<script>document.write('<title>')</script><p>x</p>")


def _regex_hint_bits(word: str) -> int:
    from blocksift.algorithms.segmenter import features

    lower = word.lower()
    return sum(1 << i for i, pattern in enumerate(features._HINTS_LOWER)
               if pattern.search(lower))


@needs_checks
@pytest.mark.parametrize("seed", range(3))
def test_class_words_get_the_hint_regexes_bits(seed: int):
    from blocksift.algorithms.segmenter import features

    # words of the letters the hint patterns are made of, with "-" and "_" between parts
    rng = random.Random(seed)
    parts = ["ad", "ads", "advert", "advertisement", "adsense", "dfp", "gpt", "sponsored",
             "sponsor", "header", "comment", "nav", "com", "main", "post", "x", "a", "d", "-",
             "_", "1", "Ad", "NAV", "banner", "related", "disqus", "text"]
    words = ["".join(rng.choice(parts) for _ in range(rng.randrange(1, 6)))
             for _ in range(5000)] + ["", "-ad-", "ad-", "_ads", "xad", "adx", "com-", "pager"]
    found = 0
    for word in words:
        bits = features._HINT_WORDS(word.lower())
        assert bits == _regex_hint_bits(word), word
        found |= bits
    assert found == (1 << len(features._HINT_NAMES)) - 1  # every hint was reached
    assert features._HINT_WORDS("café") == -1  # outside ASCII: left to the regexes

"""Text blocks of a page and their feature matrix, from one walk of the parsed tree.

A *block* is a block-level element (``content.BLOCK_TAGS``) with the text it owns directly:
its text and its inline descendants' text, up to the next block-level descendant (the text
runs boilerpipe and trafilatura classify). ``<noscript>`` and hidden elements are kept and
flagged rather than dropped: some forum software puts its crawler-readable posts in
``<noscript>``.

Features per block (names in :data:`FEATURE_NAMES`): the block's own text, link and
punctuation measures; the same measures of its container one, two and three levels up;
landmarks, ARIA roles and class/id hints on its ancestors; position on the page; repeated
siblings; neighbouring blocks; page-level measures (schema.org / JSON-LD and ``og:type``
stand in for the page type); the four papers' signals (linkblocks membership, linkdensity
LTD / LAD / NTL, FAR-SW line score, clustering path recurrence when a site model is given)
and the rule-based extractor's choice (``auto-rules``).
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np
from lxml import etree

from ...content import BLOCK_TAGS, HIDDEN_STYLE, NON_TEXT_TAGS
from ...page import Page
from ...rawscan import STAMP_ATTR
from ...speedups import compiled
from .. import linkdensity

if TYPE_CHECKING:
    from ..auto_rules import TitleSources

# The walk's loop compiled (``_walk.pyx``), where the install found a C compiler; the
# Python loop gives the same records. BLOCKSIFT_NO_SPEEDUPS=1 keeps to the Python loop.
_compiled_walk = compiled("blocksift.algorithms.segmenter._walk")

#: Tags whose subtree is never text (``noscript`` is kept: see the module docstring).
SKIP_TAGS = (NON_TEXT_TAGS - {"noscript"}) | {"head"}
WORD_RE = re.compile(r"\w+")
_WS = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f](?:\s|$)")
_PUNCT = re.compile(r"[.,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u3001]")

#: Tags with their own code (the rest share ``other``); order fixes the feature value.
TAG_CODES = {tag: i + 1 for i, tag in enumerate((
    "p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
    "main", "nav", "aside", "footer", "header", "ul", "ol", "dl", "dt", "dd", "table", "tr",
    "tbody", "form", "blockquote", "pre", "figure", "figcaption", "body", "span", "a",
    "noscript", "address", "details", "summary", "caption", "center", "fieldset", "label"))}

#: Class/id hint patterns (readability.js REGEXPS and common CMS names).
HINTS = {
    "positive": re.compile(r"article|body|content|entry|hentry|h-entry|main|page|post|text|"
                           r"blog|story|prose|markdown|answer|message|review|description", re.I),
    "negative": re.compile(r"-ad-|hidden|banner|combx|com-|contact|footer|gdpr|masthead|media|"
                           r"meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|"
                           r"skyscraper|sponsor|shopping|tags|widget|cookie|consent|newsletter|"
                           r"subscribe|popup|modal", re.I),
    "unlikely": re.compile(r"banner|breadcrumb|combx|community|cover-wrap|disqus|extra|footer|"
                           r"header|legends|menu|related|remark|rss|shoutbox|sidebar|"
                           r"skyscraper|social|sponsor|supplemental|ad-break|agegate|"
                           r"pagination|pager|popup|nav", re.I),
    "comment": re.compile(r"comment|disqus|replies|respond|discuss", re.I),
    "ad": re.compile(r"(^|[\s_-])(ad|ads|advert|advertisement|dfp|gpt|adsense|sponsored)"
                     r"([\s_-]|$)", re.I),
}
_HINT_NAMES = tuple(HINTS)
#: Matches where any hint pattern does: most class words match none, and one search tells.
_ANY_HINT = re.compile("|".join(f"(?:{p.pattern})" for p in HINTS.values()), re.I)
_LITERALS = re.compile(r"[a-z-]+(?:\|[a-z-]+)*\Z")


def _as_trie(pattern: str) -> str:
    """``pattern`` with a plain list of lower-case literals ("a|ab|b") written as a trie
    ("(?:ab?|b)" in effect): Python's regex engine tries every alternative at every
    position, and a trie only the branch of each next character. A search finds a match
    exactly where the list does (a literal's end ends its branch: what follows it in a
    longer literal cannot matter). Any other pattern is returned as it is."""
    if not _LITERALS.match(pattern):
        return pattern
    root: dict = {}
    for literal in pattern.split("|"):
        node = root
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def branches(node: dict) -> str:
        if "" in node:
            return ""
        parts = [re.escape(char) + branches(child) for char, child in sorted(node.items())]
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"

    return branches(root)


#: The ``ad`` pattern as lookarounds round a trie: it matches where the pattern does (a
#: start or [\s_-] before the word, an end or [\s_-] after it), four times faster than
#: trying its groups at every position.
_AD_FAST = (r"(?<![^\s_-])(?:ad(?:s|vert(?:isement)?|sense)?|dfp|gpt|sponsored)"
            r"(?![^\s_-])")
# The patterns are lower case: on a lower-cased ASCII word their case-sensitive forms find
# what the case-insensitive ones find on the word, several times faster (the regex engine
# skips ahead by first characters only when case matters), and as tries faster again.
_FAST_LOWER = {name: _AD_FAST if name == "ad" else _as_trie(HINTS[name].pattern)
               for name in _HINT_NAMES}
_ANY_HINT_LOWER = re.compile("|".join(
    [_as_trie("|".join(p.pattern for p in HINTS.values() if _LITERALS.match(p.pattern)))]
    + [_FAST_LOWER[name] for name in _HINT_NAMES if not _LITERALS.match(HINTS[name].pattern)]))
_HINTS_LOWER = tuple(re.compile(_FAST_LOWER[name]) for name in _HINT_NAMES)
#: The words the ``ad`` pattern takes as a whole part of a word (between ``_``, ``-`` and the
#: word's ends), as the pattern spells them.
_AD_TOKENS = frozenset(re.fullmatch(r"\(\^\|\[\\s_-\]\)\((.*)\)\(\[\\s_-\]\|\$\)",
                                    HINTS["ad"].pattern).group(1).split("|"))
_MAYBE_AD = 1 << 62  # the automaton saw one of _AD_TOKENS: the ad pattern is looked for
# The hint words read in C (``_rawchecks.HintWords``), where the install built it.
_compiled_hints = compiled("blocksift._rawchecks", needs=("HintWords",))


def _hint_automaton() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The literal hint patterns (and the ad words, as :data:`_MAYBE_AD`) as one
    Aho-Corasick automaton over lower-case ASCII: (character class of each of the 128
    characters, the next state per state and class, flat, the bits of each state)."""
    literals: dict[str, int] = {}
    for i, name in enumerate(_HINT_NAMES):
        pattern = HINTS[name].pattern
        for literal in pattern.split("|") if _LITERALS.match(pattern) else ():
            literals[literal] = literals.get(literal, 0) | 1 << i
    for token in _AD_TOKENS:
        literals[token] = literals.get(token, 0) | _MAYBE_AD
    chars = sorted({c for literal in literals for c in literal})
    char_class = np.zeros(128, dtype=np.intc)  # 0: a character of no literal
    for k, c in enumerate(chars, 1):
        char_class[ord(c)] = k
    children: list[dict[int, int]] = [{}]
    bits = [0]
    for literal, literal_bits in literals.items():
        state = 0
        for c in literal:
            k = int(char_class[ord(c)])
            if k not in children[state]:
                children.append({})
                bits.append(0)
                children[state][k] = len(children) - 1
            state = children[state][k]
        bits[state] |= literal_bits
    n_classes = len(chars) + 1
    goto = np.zeros((len(children), n_classes), dtype=np.intc)
    fail = [0] * len(children)
    queue = []
    for k, child in children[0].items():
        goto[0, k] = child
        queue.append(child)
    for state in queue:  # breadth first: a state's fail state is done before it
        bits[state] |= bits[fail[state]]
        for k in range(n_classes):
            child = children[state].get(k)
            if child is None:
                goto[state, k] = goto[fail[state], k]
            else:
                goto[state, k] = child
                fail[child] = int(goto[fail[state], k]) if state else 0
                queue.append(child)
    return char_class, goto.ravel(), np.asarray(bits, dtype=np.longlong)


_HINT_WORDS = (_compiled_hints.HintWords(*_hint_automaton(), _AD_TOKENS,
                                         1 << _HINT_NAMES.index("ad"), _MAYBE_AD).bits
               if _compiled_hints is not None else None)
_LANDMARK_TAGS = ("nav", "aside", "footer", "header", "main", "article", "form", "li", "table",
                  "a", "noscript", "blockquote", "pre", "figure", "dl")
_ROLES = ("navigation", "main", "complementary", "banner", "contentinfo", "article", "menu",
          "dialog", "search")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_LD_TYPES = {
    "ld_article": re.compile(r"Article|BlogPosting|Report", re.I),
    "ld_product": re.compile(r"\"Product\"|Offer", re.I),
    "ld_forum": re.compile(r"DiscussionForumPosting|QAPage|Question|Comment", re.I),
    "ld_list": re.compile(r"ItemList|CollectionPage|SearchResultsPage|ListItem", re.I),
    "ld_faq": re.compile(r"FAQPage|HowTo|TechArticle|APIReference", re.I),
    "ld_org": re.compile(r"Organization|LocalBusiness|Service|WebSite", re.I),
}

_OWN = ("chars", "words", "link_chars", "link_share", "links", "commas", "sentences",
        "punct_share", "digits_share", "upper_share", "avg_word", "inline_children")
_CONTAINER = ("tag", "chars", "link_share", "blocks", "children", "depth_below", "same_sig",
              "p_children", "li_children", "heading_blocks", "own_share")
_FLAGS = tuple(f"in_{t}" for t in _LANDMARK_TAGS) + tuple(f"role_{r}" for r in _ROLES) + (
    "hidden", "itemprop_body", "heading_level", "is_link_only", "depth")
_HINT_FEATURES = tuple(f"hint_{h}_{lvl}" for h in _HINT_NAMES for lvl in ("self", "near", "any"))
_POSITION = ("pos_chars", "pos_blocks", "after_h1", "before_last_h")
_NEIGHBOURS = ("prev_chars", "next_chars", "prev_link_share", "next_link_share",
               "win_link_share", "win_chars", "win_sentences", "run_same_parent")
_PAGE = ("page_chars", "page_link_share", "page_blocks", "page_p", "page_li", "page_h",
         "page_article_tags", "page_forms", "page_tables", "page_max_block",
         "og_article", "og_product", "url_depth", "url_has_digits") + tuple(_LD_TYPES)
_PAPERS = ("lb_member", "lb_block_links", "ld_ltd", "ld_lad", "ld_ntl", "ld_parent_ltd",
           "ld_parent_lad", "ld_parent_ntl", "farsw_score", "farsw_window", "cl_recurrence")
_RULES = ("rules_main", "rules_container")

FEATURE_NAMES: tuple[str, ...] = (
    tuple(f"own_{n}" for n in _OWN)
    + tuple(f"up{k}_{n}" for k in (1, 2, 3) for n in _CONTAINER)
    + _FLAGS + _HINT_FEATURES + _POSITION + _NEIGHBOURS + _PAGE + _PAPERS + _RULES)
FEATURE_INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}
#: Columns of ``Blocks.page_features`` (the page-type classifier's input).
PAGE_FEATURE_NAMES: tuple[str, ...] = _PAGE

#: Feature groups by source, for the ablation (each paper's signals removed in turn).
PAPER_GROUPS = {
    "linkblocks": ("lb_member", "lb_block_links"),
    "linkdensity": ("ld_ltd", "ld_lad", "ld_ntl", "ld_parent_ltd", "ld_parent_lad",
                    "ld_parent_ntl"),
    "farsw": ("farsw_score", "farsw_window"),
    "clustering": ("cl_recurrence",),
    "rules": _RULES,
}


#: An index of rows: a slice, or row numbers (an int array or list).
RowIndex = slice | np.ndarray | list[int]


class FeatureColumns:
    """How to build each column of a page's feature matrix, for any rows.

    One function per column, from an index of rows to the column's values there (an array,
    or one value for every row), over the per-block measures :func:`compute` gathered; a
    column without one is -1 (left out, or not computed). The matrix itself (about 1 kB a
    block) is only ever built for the rows asked for.
    """

    def __init__(self, n: int, makers: dict[str, Callable[[np.ndarray | slice], object]],
                 groups: Collection[tuple[tuple[str, ...], Callable[[np.ndarray | slice],
                                                                    object]]] = ()):
        self.n = n
        self.makers = makers
        #: Columns built together for :meth:`matrix` (names, and a function from rows to
        #: their values as a rows x names block, or one row for every row): the same values
        #: as their makers, a Python call and a column write for several columns. A group
        #: with a column left out of ``makers`` is built column by column instead.
        self.groups = [(names, [FEATURE_INDEX[name] for name in names], maker)
                       for names, maker in groups]

    def column(self, name: str, rows: RowIndex = slice(None)) -> np.ndarray:
        """The column ``name`` at ``rows``, as float64 values."""
        size = len(range(self.n)[rows]) if isinstance(rows, slice) else len(rows)
        out = np.full(size, -1.0)
        maker = self.makers.get(name)
        if maker is not None:
            out[:] = maker(_as_index(rows))
        return out

    def matrix(self, rows: RowIndex = slice(None)) -> np.ndarray:
        """The feature matrix of the blocks at ``rows`` (:data:`FEATURE_NAMES` columns)."""
        index = _as_index(rows)
        size = len(range(self.n)[index]) if isinstance(index, slice) else len(index)
        out = np.full((size, len(FEATURE_NAMES)), -1.0)
        grouped: set[str] = set()
        for names, columns, maker in self.groups:
            if all(name in self.makers for name in names):
                out[:, columns] = maker(index)
                grouped.update(names)
        for name, maker in self.makers.items():
            if name not in grouped:
                out[:, FEATURE_INDEX[name]] = maker(index)
        return out


def _as_index(rows: RowIndex) -> np.ndarray | slice:
    return rows if isinstance(rows, slice) else np.asarray(rows, dtype=np.intp)


class Blocks:
    """The text blocks of a page, in document order, and their features.

    The feature matrix is built when first read whole (:attr:`features`) and kept; until
    then :meth:`rows` and :meth:`column` build only the part asked for, so the extractor
    scores a page of 100,000 blocks a part at a time and never holds its whole matrix
    (about 1 kB a block).
    """

    def __init__(self, elements: list[etree._Element] | None = None,
                 texts: list[str] | None = None, features: np.ndarray | None = None,
                 page_features: np.ndarray | None = None,
                 columns: FeatureColumns | None = None, tags: list[str] | None = None,
                 parents: np.ndarray | None = None,
                 holds: Callable[[str], bool] | None = None):
        self.elements = [] if elements is None else elements
        self.texts = [] if texts is None else texts
        #: the blocks' tags, and their parent elements' places in the walk (-1: none), as
        #: :func:`compute` found them (None when the blocks were made otherwise)
        self.tags = [str(el.tag) for el in self.elements] if tags is None else tags
        self.parents = parents
        #: Whether the walk's start holds an element of a tag (:meth:`Walk.holds`; None when
        #: the blocks were made otherwise)
        self.holds = holds
        #: What the pass for the page-level features found for the title (by :func:`compute`).
        self.title_sources: TitleSources | None = None
        #: auto-rules' choice and exclusions when :func:`compute` asked for them (None: not
        #: asked, or the rule-based extractor failed), so the fallback need not ask again
        self.rules_choice: RulesChoice | None = None
        self.page_features = np.zeros(len(_PAGE)) if page_features is None else page_features
        self._matrix = features
        self._columns = columns
        #: Every block element of the walk (text or not), and per element the rows of the
        #: text blocks at and below it, from ``lows[k]`` to ``highs[k]`` (set by
        #: :func:`compute`; :meth:`rows_below` reads it)
        self.row_ranges: tuple[list[etree._Element], np.ndarray, np.ndarray] | None = None
        self._row_range_of: dict[etree._Element, tuple[int, int]] | None = None

    def rows_below(self, element: etree._Element) -> range | None:
        """The rows of the blocks at and below ``element`` (a range: blocks are in document
        order), or None where the walk did not take ``element`` for a block (an inline
        element, one above the start, or blocks not made by :func:`compute`)."""
        if self._row_range_of is None:
            if self.row_ranges is None:
                return None
            elements, lows, highs = self.row_ranges
            self._row_range_of = dict(zip(elements, zip(lows.tolist(), highs.tolist())))
        found = self._row_range_of.get(element)
        return None if found is None else range(*found)

    def __len__(self) -> int:
        return len(self.texts)

    @property
    def features(self) -> np.ndarray:
        """The whole feature matrix (rows in document order), built once."""
        if self._matrix is None:
            self._matrix = (self._columns.matrix() if self._columns is not None
                            else np.zeros((0, len(FEATURE_NAMES))))
        return self._matrix

    def rows(self, rows: RowIndex) -> np.ndarray:
        """The feature matrix of the blocks at ``rows`` only."""
        if self._matrix is not None or self._columns is None:
            return self.features[rows]
        return self._columns.matrix(rows)

    def column(self, name: str, rows: RowIndex = slice(None)) -> np.ndarray:
        """One feature of every block, or of the blocks at ``rows``."""
        if self._matrix is not None or self._columns is None:
            return self.features[rows, FEATURE_INDEX[name]]
        return self._columns.column(name, rows)

    def same_for_every_block(self) -> set[str]:
        """Features every block of the page has the same value of: the page-level ones,
        and those not computed (-1)."""
        if self._columns is None:
            return set(_PAGE)
        return set(_PAGE) | (set(FEATURE_NAMES) - set(self._columns.makers))

    def release_features(self) -> None:
        """Forget the matrix and what builds it (the memory of a long page); the features
        read empty afterwards."""
        self._matrix = np.zeros((0, len(FEATURE_NAMES)))
        self._columns = None


def _sig(el: etree._Element) -> str:
    return f"{el.tag}.{el.get('class', '')}"


_HIDDEN_STYLE_CACHE: dict[str, bool] = {}


def _hidden_style(style: str) -> bool:
    found = _HIDDEN_STYLE_CACHE.get(style)
    if found is None:
        if len(_HIDDEN_STYLE_CACHE) > 20000:  # bound the memo
            _HIDDEN_STYLE_CACHE.clear()
        found = _HIDDEN_STYLE_CACHE[style] = HIDDEN_STYLE.search(style) is not None
    return found


_HINT_CACHE: dict[str, int] = {}
_HINT_WORD_CACHE: dict[str, int] = {}


def _hint_value_bits(value: str) -> int:
    """Bits of the :data:`HINTS` that match ``value`` (a class and an id joined by a space).

    No hint pattern spans white space, and white space is a boundary of the ``ad`` pattern
    as the ends of a word are, so a value's bits are the OR of its words' bits: words repeat
    far more than whole class strings, so they are what is memoized.
    """
    bits = 0
    for word in value.split():
        found = _HINT_WORD_CACHE.get(word)
        if found is None:
            found = 0
            if word.isascii() and _HINT_WORDS is not None:
                found = _HINT_WORDS(word.lower())
            elif word.isascii():
                lower = word.lower()
                if _ANY_HINT_LOWER.search(lower):
                    for i, pattern in enumerate(_HINTS_LOWER):
                        if pattern.search(lower):
                            found |= 1 << i
            elif _ANY_HINT.search(word):
                for i, name in enumerate(_HINT_NAMES):
                    if HINTS[name].search(word):
                        found |= 1 << i
            if len(_HINT_WORD_CACHE) > 50000:  # bound the memo
                _HINT_WORD_CACHE.clear()
            _HINT_WORD_CACHE[word] = found
        bits |= found
    return bits


def _hint_bits(cls: str | None, ident: str | None) -> int:
    """Hint bits of an element's class and id: the class's and the id's together, as no
    pattern spans white space. Class strings repeat a lot and are memoized whole; ids
    mostly do not (memoized whole they would crowd the classes out), so only their words
    are."""
    bits = 0
    if cls:
        bits = _HINT_CACHE.get(cls)
        if bits is None:
            bits = _hint_value_bits(cls)
            if len(_HINT_CACHE) > 50000:  # class strings repeat; bound the memo anyway
                _HINT_CACHE.clear()
            _HINT_CACHE[cls] = bits
    if ident:
        bits |= _hint_value_bits(ident)
    return bits


def _collapse_len(text: str) -> int:
    """Length of ``text`` with white space collapsed and stripped (str.split() splits on
    exactly the white space of ``_WS``; the only printable white space is the space, so a
    printable text without two spaces in a row only loses its ends); the walk has it inline."""
    return (len(text.strip(" ")) if text.isprintable() and "  " not in text
            else len(" ".join(text.split())))


#: Subtrees linkdensity's default view leaves out (seed 003 §3.2 step 2) that this walk keeps;
#: the rest of its removed tags are skipped here too (``head`` apart, see :func:`walk`).
LD_REMOVED_TAGS = frozenset(linkdensity.DEFAULT_REMOVED_TAGS) - SKIP_TAGS

# An element's *state* is what it is inside of, as bits of one int: the OR of its own marks
# and its parent's state, so that inheriting it costs one OR per element. Landmark tags, then
# ARIA roles (the order of the in_/role_ columns), then class/id hints (hint_*_any), then:
_ROLE_SHIFT = len(_LANDMARK_TAGS)
_HINT_SHIFT = _ROLE_SHIFT + len(_ROLES)
_HIDDEN = 1 << (_HINT_SHIFT + len(_HINT_NAMES))
_ITEMPROP = _HIDDEN << 1  # itemprop="articleBody"
_IN_LINK = _HIDDEN << 2  # inside an <a>
_LD_LINK = _HIDDEN << 3  # inside an <a href> (linkdensity's link)
_LD_OFF = _HIDDEN << 4  # inside a subtree linkdensity's view removes
# What a tag makes an element itself. These bits ride along in the state (a state is the OR
# of the own bits on the path) but are only ever read from the element's own bits.
_BLOCK = _HIDDEN << 5
_BREAK = _HIDDEN << 6
_SKIP = _HIDDEN << 7
_NOT_ELEMENT = _HIDDEN << 8  # a comment, processing instruction or entity
_MATH = _HIDDEN << 9  # a <math> element (only read to tell whether a page holds one)

#: Own bits of each tag with any; comments, processing instructions and entities (whose
#: ``tag`` is their factory function) are skipped as the skipped tags are.
_TAG_BITS: dict = {etree.Comment: _SKIP | _NOT_ELEMENT,
                   etree.ProcessingInstruction: _SKIP | _NOT_ELEMENT,
                   etree.Entity: _SKIP | _NOT_ELEMENT}
for _i, _tag in enumerate(_LANDMARK_TAGS):
    _TAG_BITS[_tag] = 1 << _i
for _tags, _bit in ((("a",), _IN_LINK), (LD_REMOVED_TAGS, _LD_OFF), (BLOCK_TAGS, _BLOCK),
                    (("br",), _BREAK), (SKIP_TAGS, _SKIP), (("math",), _MATH)):
    for _tag in _tags:
        _TAG_BITS[_tag] = _TAG_BITS.get(_tag, 0) | _bit
_ROLE_BITS = {role: 1 << (_ROLE_SHIFT + i) for i, role in enumerate(_ROLES)}
#: The tags :meth:`Walk.holds` answers for, by the bit each leaves in its element's state.
PRESENCE_BITS = {"table": 1 << _LANDMARK_TAGS.index("table"),
                 "figure": 1 << _LANDMARK_TAGS.index("figure"), "math": _MATH}
_PRESENCE_MASK = sum(PRESENCE_BITS.values())

# The attributes the walk reads, as bits of the set an element has.
_ATTRIBUTES = {name: 1 << i for i, name in enumerate((
    "class", "id", "role", "hidden", "aria-hidden", "style", "itemprop", "href"))}
_CLASS, _ID, _ROLE, _HIDDEN_ATTR, _ARIA_HIDDEN, _STYLE, _ITEMPROP_ATTR, _HREF = (
    _ATTRIBUTES.values())


def _attribute_bits(node: etree._Element, names: list[str], own: int,
                    class_of: dict[int, str], index: int) -> int:
    """Own bits of an element's attributes (``names``: their names, looked at first since
    a ``get`` costs about as much as the whole list of names); its class, if it has one,
    goes to ``class_of[index]``."""
    present = 0
    for name in names:
        present |= _ATTRIBUTES.get(name, 0)
    if not present:
        return 0
    bits = 0
    if present & (_CLASS | _ID):
        cls = None
        if present & _CLASS:
            cls = class_of[index] = node.get("class")
        bits = _hint_bits(cls, node.get("id") if present & _ID else None) << _HINT_SHIFT
    if present & _ROLE:
        bits |= _ROLE_BITS.get(node.get("role"), 0)
    if (present & _HIDDEN_ATTR or (present & _ARIA_HIDDEN and node.get("aria-hidden") == "true")
            or (present & _STYLE and _hidden_style(node.get("style")))):
        bits |= _HIDDEN
    if present & _ITEMPROP_ATTR and node.get("itemprop") == "articleBody":
        bits |= _ITEMPROP
    if present & _HREF and own & _IN_LINK:
        bits |= _LD_LINK
    return bits


_HINT_MASK = ((1 << len(_HINT_NAMES)) - 1) << _HINT_SHIFT
_CLASS_BITS: dict[str, int] = {}


def _class_bits(cls: str) -> int:
    """Own bits of an element whose only attribute (the stamp apart) is ``class``."""
    bits = _CLASS_BITS.get(cls)
    if bits is None:
        if len(_CLASS_BITS) > 50000:  # class strings repeat; bound the memo anyway
            _CLASS_BITS.clear()
        bits = _CLASS_BITS[cls] = _hint_bits(cls, None) << _HINT_SHIFT
    return bits


@dataclass
class Walk:
    """What the single walk collects: every block (text or not) in document order, with the
    measures features read of it and of its containers."""

    blocks: list[etree._Element] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)  # the blocks' tags
    #: Text pieces in document order (an element's text, a tail, a white-space piece as one
    #: space, :data:`LINE_BREAK`) and the block each belongs to.
    piece_text: list[str] = field(default_factory=list)
    piece_block: array = field(default_factory=lambda: array("q"))
    #: Per block: the link characters, ``<a>`` and inline (non-block) elements it owns; its
    #: state (landmark, role, hint, hidden ... bits, see ``_ROLE_SHIFT``); its own hint bits,
    #: and those of itself, its parent and grandparent together (``near_hints``); its depth
    #: below the start; its parent's preorder index (-1: none).
    link_chars: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    links: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    inline_children: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    state: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    hints: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    near_hints: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    depth: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    parent: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: Per block, its containers' rows (one, two and three levels up; -1: none) in
    #: ``containers`` and ``container_stats``: per distinct container, the element, and its
    #: subtree's measures (columns :data:`CONTAINER_STATS`).
    container_rows: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.int64))
    container_stats: np.ndarray = field(default_factory=lambda: np.zeros((0, 9), np.int64))
    #: Per distinct container, its tag, and how to reach its element: from the block
    #: ``climbs[k] // 3``, ``climbs[k] % 3 + 1`` parents up (see :attr:`containers`).
    container_tags: list[str] = field(default_factory=list)
    container_climbs: list[int] = field(default_factory=list)
    _containers: list[etree._Element] | None = None
    #: Per block, the first block after its subtree (blocks in a subtree are a range).
    block_ends: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: Characters and link characters of the start element's subtree (the page's text).
    chars: int = 0
    link_chars_total: int = 0
    #: linkdensity's (NTL, link text, LA, child nodes) of each block and then of its parent,
    #: as ``linkdensity.node_stats(body, Params())`` counts them (-1s: not in its view, or no
    #: parent); None when the walk cannot tell (no ``body``, or a ``head`` inside it).
    link_density_rows: np.ndarray | None = field(
        default_factory=lambda: np.zeros((0, 8), np.int64))
    #: :data:`PRESENCE_BITS` of the tags in the start's subtree: what :meth:`holds` reads.
    presence: int = 0

    def holds(self, tag: str) -> bool:
        """Whether the start's subtree holds a ``tag`` element (a tag of
        :data:`PRESENCE_BITS`). The walk tells as it goes (the walked elements by the bits
        their tags leave in their states, the subtrees it skips, an icon's ``<svg>`` or a
        ``<template>``, by a look at their elements' names), which spares a search of the
        whole tree, a tenth of the walk's time."""
        return bool(self.presence & PRESENCE_BITS[tag])

    @property
    def containers(self) -> list[etree._Element]:
        """Per distinct container, its element: found when first asked for (climbing from a
        block below it), since most runs read only the containers' measures and tags."""
        if self._containers is None:
            self._containers = list(map(self.container, range(len(self.container_climbs))))
        return self._containers

    def container(self, row: int) -> etree._Element:
        """The element of the distinct container ``row`` (climbed to from a block below)."""
        if self._containers is not None:
            return self._containers[row]
        where = self.container_climbs[row]
        el = self.blocks[where // 3]
        for _ in range(where % 3 + 1):
            el = el.getparent()
        return el

    @property
    def link_density(self) -> dict[etree._Element, tuple[int, int, int, int]] | None:
        """:attr:`link_density_rows` by element: every block and block parent in the view."""
        if self.link_density_rows is None:
            return None
        found = {}
        for el, parent_row, row in zip(self.blocks, self.container_rows[:, 0].tolist(),
                                       self.link_density_rows.tolist()):
            if row[0] >= 0:
                found[el] = tuple(row[:4])
            if row[4] >= 0:
                found[self.containers[parent_row]] = tuple(row[4:])
        return found


CONTAINER_STATS = ("chars", "link_chars", "blocks", "heading_blocks", "depth_below",
                   "children", "p_children", "li_children", "same_sig")

#: ``keys()`` of an element carrying only the host's ordinal stamp (no class, role, ...),
#: and of one with a class besides (the commonest attribute set by far).
_STAMP_ONLY = [STAMP_ATTR]
_STAMP_CLASS = [STAMP_ATTR, "class"]
_CLASS_ONLY = ["class"]  # the same on a page parsed without stamps (Page(spans=False))


def _ints() -> array:
    return array("q")


@dataclass
class _Records:
    """The walk's per-element records, before they are summed into a :class:`Walk`. Only
    machine integers and strings: objects the garbage collector tracks would make it run
    through the page's objects again and again as they pile up, and an int object costs
    five times the 8 bytes an ``array`` keeps of it."""

    state: array = field(default_factory=_ints)  # per element, in preorder
    parent: array = field(default_factory=_ints)  # per element: its parent's index
    tag: list[str] = field(default_factory=list)  # per element
    class_of: dict[int, str] = field(default_factory=dict)  # the elements with a class
    # the elements with children, and where their subtrees end (a leaf's ends after it)
    closed_at: array = field(default_factory=_ints)
    closed_end: array = field(default_factory=_ints)
    # per text piece (as Walk.piece_text): its element and its collapsed length
    piece_at: array = field(default_factory=_ints)
    piece_chars: array = field(default_factory=_ints)
    hinted_at: array = field(default_factory=_ints)  # elements with own hint bits,
    hinted_own: array = field(default_factory=_ints)  # and their own bits
    anchor_block: array = field(default_factory=_ints)  # per <a>: the block owning it
    href_at: array = field(default_factory=_ints)  # the <a href> (linkdensity's links)
    skipped_parent: array = field(default_factory=_ints)  # per skipped element
    skipped_presence: int = 0  # PRESENCE_BITS of the tags below the skipped elements
    block_at: array = field(default_factory=_ints)  # per block: its element's index
    block_parent: array = field(default_factory=_ints)  # and its parent block


def walk(page: Page, *, compiled: bool | None = None, link_density: bool = True) -> Walk:
    """One iterative walk of the body: blocks and their text pieces, and what every element
    has itself (its state, its text's collapsed length, where its subtree ends).

    What a subtree has is summed afterwards with numpy (:func:`_tally`), only for the
    elements features read: the loop does as little per element as it can. The loop below
    the start is compiled when ``_walk.pyx`` was built (``compiled=None``: whenever it was);
    the Python loop (:func:`_walk_below`) gives the same records. ``link_density`` False:
    no :attr:`Walk.link_density_rows` (None), for a caller that reads no linkdensity signal.
    """
    root = page.tree
    body = root.find("body")
    start = body if body is not None else root
    out = Walk()
    if not isinstance(start.tag, str) or start.tag in SKIP_TAGS:
        return out
    if compiled and _compiled_walk is None:
        raise RuntimeError("the compiled walk (blocksift.algorithms.segmenter._walk) is not "
                           "built: reinstall with a C compiler")
    rec = _Records()
    piece_text, piece_block = out.piece_text, out.piece_block

    # the start: a block whatever its tag, in linkdensity's view whatever its tag
    own = _TAG_BITS.get(start.tag, 0) | _BLOCK
    names = start.keys()
    if names and names != _STAMP_ONLY:
        own |= _attribute_bits(start, names, own, rec.class_of, 0)
    state = own & ~_LD_OFF
    index = block = 0
    rec.state.append(state)
    rec.parent.append(-1)
    rec.tag.append(start.tag)
    if own & _HINT_MASK:
        rec.hinted_at.append(index)
        rec.hinted_own.append(own)
    if own & _IN_LINK:
        rec.anchor_block.append(block)
        if own & _LD_LINK:
            rec.href_at.append(index)
    out.blocks.append(start)
    out.tags.append(start.tag)
    rec.block_at.append(index)
    rec.block_parent.append(-1)
    if own & _BREAK:
        piece_text.append(LINE_BREAK)
        piece_block.append(block)
        rec.piece_at.append(index)
        rec.piece_chars.append(0)
    # Each text piece (an element's text, or a child's tail) belongs to the innermost open
    # element: its collapsed length (_collapse_len) is its characters, a white-space piece
    # renders as one space. A text of printable characters and single spaces needs no split
    # (no other white space is printable). The code is repeated inline: a call would be a
    # large share of an element's time.
    text = start.text
    if text:
        chars = (len(text.strip(" ")) if text.isprintable() and "  " not in text
                 else len(" ".join(text.split())))
        piece_text.append(text if chars else " ")
        piece_block.append(block)
        rec.piece_at.append(index)
        rec.piece_chars.append(chars)
    if compiled is None:
        compiled = _compiled_walk is not None
    if compiled:
        head_inside = _compiled_walk.walk_below(start, rec, out, _TAG_BITS, state)
    else:
        head_inside = _walk_below(start, rec, out, state)
    # linkdensity walks the head too when there is no body or one is inside it
    _tally(out, rec, link_density_known=link_density and not head_inside and body is not None)
    return out


def _walk_below(start: etree._Element, rec: _Records, out: Walk, state: int) -> bool:
    """The walk's loop below the start element, in Python (the reference, and the fallback
    where the compiled loop of ``_walk.pyx`` is not built). Returns whether a ``head`` was
    met inside the start."""
    states, parents, closed_at, closed_end = rec.state, rec.parent, rec.closed_at, rec.closed_end
    piece_text, piece_block = out.piece_text, out.piece_block
    piece_at, piece_chars = rec.piece_at, rec.piece_chars
    blocks, tags, block_at, block_parent = out.blocks, out.tags, rec.block_at, rec.block_parent
    tag_bits, class_bits = _TAG_BITS, _CLASS_BITS
    skipped_parent, element_tags, class_of = rec.skipped_parent, rec.tag, rec.class_of
    head_inside = False
    index = block = 0
    children = iter(start)
    # An open element's frame: node, index, state, block, children left. The innermost
    # open element's are in the local variables too.
    stack = [(start, index, state, block, children)]
    while True:
        for node in children:
            tag = node.tag
            own = tag_bits.get(tag, 0)
            if own & _SKIP:
                if not own & _NOT_ELEMENT:  # a child of its parent all the same
                    skipped_parent.append(index)
                    if tag == "head":  # linkdensity's view keeps it: its measures are unknown
                        head_inside = True
                    if len(node):
                        for held in node.iter(*PRESENCE_BITS):
                            rec.skipped_presence |= PRESENCE_BITS[held.tag]
                text = node.tail
                if text:
                    chars = (len(text.strip(" ")) if text.isprintable() and "  " not in text
                             else len(" ".join(text.split())))
                    piece_text.append(text if chars else " ")
                    piece_block.append(block)
                    piece_at.append(index)
                    piece_chars.append(chars)
                continue
            child = len(states)
            names = node.keys()
            if names == _STAMP_CLASS or names == _CLASS_ONLY:
                cls = class_of[child] = node.get("class")
                bits = class_bits.get(cls)
                own |= _class_bits(cls) if bits is None else bits
                if own & _HINT_MASK:
                    rec.hinted_at.append(child)
                    rec.hinted_own.append(own)
            elif names and names != _STAMP_ONLY:
                own |= _attribute_bits(node, names, own, class_of, child)
                if own & _HINT_MASK:
                    rec.hinted_at.append(child)
                    rec.hinted_own.append(own)
            child_state = state | own
            states.append(child_state)
            parents.append(index)
            element_tags.append(tag)
            if own & _BLOCK:
                child_block = len(blocks)
                blocks.append(node)
                tags.append(tag)
                block_at.append(child)
                block_parent.append(block)
            else:
                child_block = block
            if own & _IN_LINK:
                rec.anchor_block.append(child_block)
                if own & _LD_LINK:
                    rec.href_at.append(child)
            if own & _BREAK:
                piece_text.append(LINE_BREAK)
                piece_block.append(child_block)
                piece_at.append(child)
                piece_chars.append(0)
            text = node.text
            if text:
                chars = (len(text.strip(" ")) if text.isprintable() and "  " not in text
                         else len(" ".join(text.split())))
                piece_text.append(text if chars else " ")
                piece_block.append(child_block)
                piece_at.append(child)
                piece_chars.append(chars)
            if len(node):  # descend: the node is the innermost open element now
                index, state, block, children = child, child_state, child_block, iter(node)
                stack.append((node, index, state, block, children))
                break
            text = node.tail  # a leaf closes at once; its tail is its parent's text
            if text:
                chars = (len(text.strip(" ")) if text.isprintable() and "  " not in text
                         else len(" ".join(text.split())))
                piece_text.append(text if chars else " ")
                piece_block.append(block)
                piece_at.append(index)
                piece_chars.append(chars)
        else:  # the innermost open element has no children left: it closes
            node = stack.pop()[0]
            closed_at.append(index)
            closed_end.append(len(states))
            if not stack:
                break
            _, index, state, block, children = stack[-1]
            text = node.tail
            if text:
                chars = (len(text.strip(" ")) if text.isprintable() and "  " not in text
                         else len(" ".join(text.split())))
                piece_text.append(text if chars else " ")
                piece_block.append(block)
                piece_at.append(index)
                piece_chars.append(chars)
    return head_inside


def _range_max(values: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``values[s:e].max()`` for each ``s < e`` of ``starts`` and ``ends``, by a sparse
    table of power-of-two windows (n log n, whatever the ranges' lengths)."""
    out = np.empty(len(starts), dtype=values.dtype)
    level = np.frexp(ends - starts)[1] - 1  # floor(log2(length))
    window = values  # at level k, window[i] is the max of values[i:i + 2**k]
    for k in range(int(level.max()) + 1 if len(level) else 0):
        if k:
            half = 1 << (k - 1)
            window = np.maximum(window[:-half], window[half:])
        pick = np.flatnonzero(level == k)
        if len(pick):
            out[pick] = np.maximum(window[starts[pick]], window[ends[pick] - (1 << k)])
    return out


def _tally(out: Walk, rec: _Records, link_density_known: bool) -> None:
    """The walk's per-element records summed into the measures of :class:`Walk`.

    An element's subtree is a range of the preorder: a subtree's sum is the difference of
    two prefix sums, and the depth below an element a range maximum of the depths.
    """
    n = len(rec.state)
    n_blocks = len(rec.block_at)
    state = np.asarray(rec.state, dtype=np.int64)
    # a tag's bit is in its element's state (and its descendants'): the OR of all tells
    out.presence = int(np.bitwise_or.reduce(state)) & _PRESENCE_MASK | rec.skipped_presence
    parent = np.asarray(rec.parent, dtype=np.int64)
    ends = np.arange(1, n + 1, dtype=np.int64)
    ends[np.asarray(rec.closed_at, dtype=np.intp)] = rec.closed_end

    def subtree_sum(values: np.ndarray, at: np.ndarray) -> np.ndarray:
        prefix = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(values, out=prefix[1:])
        return prefix[ends[at]] - prefix[at]

    # an element's depth: the subtrees it is in, its own apart
    opened_minus_closed = np.ones(n + 1, dtype=np.int64)
    np.subtract.at(opened_minus_closed, ends, 1)
    depth = np.cumsum(opened_minus_closed[:n]) - 1
    piece_at = np.asarray(rec.piece_at, dtype=np.intp)
    piece_chars = np.asarray(rec.piece_chars, dtype=np.int64)
    own_chars = np.bincount(piece_at, weights=piece_chars, minlength=n).astype(np.int64)
    in_link = (state & _IN_LINK) != 0
    at = np.asarray(rec.block_at, dtype=np.intp)
    is_block = np.zeros(n, dtype=np.int64)
    is_block[at] = 1
    is_heading_block = np.zeros(n, dtype=np.int64)
    is_heading_block[at[[tag in _HEADINGS for tag in out.tags]]] = 1
    own_hints = np.zeros(n, dtype=np.int64)
    own_hints[np.asarray(rec.hinted_at, dtype=np.intp)] = (
        np.asarray(rec.hinted_own, dtype=np.int64) & _HINT_MASK) >> _HINT_SHIFT

    # per block
    sizes = ends[at] - at
    out.block_ends = np.searchsorted(at, ends[at])
    in_child_blocks = np.bincount(np.asarray(rec.block_parent[1:], dtype=np.intp),
                                  weights=sizes[1:], minlength=n_blocks).astype(np.int64)
    out.inline_children = sizes - 1 - in_child_blocks
    out.links = np.bincount(np.asarray(rec.anchor_block, dtype=np.intp), minlength=n_blocks)
    out.link_chars = np.bincount(np.asarray(out.piece_block, dtype=np.intp),
                                 weights=np.where(in_link[piece_at], piece_chars, 0),
                                 minlength=n_blocks).astype(np.int64)
    out.state = state[at]
    out.depth = depth[at]
    out.hints = own_hints[at]
    # ancestors one, two and three levels up (-1: none; parent[-1] is the start's, -1)
    up = np.empty((n_blocks, 3), dtype=np.int64)
    up[:, 0] = parent[at]
    up[:, 1] = parent[up[:, 0]]
    up[:, 2] = parent[up[:, 1]]
    up[up[:, 0] < 0, 1] = -1
    up[up[:, 1] < 0, 2] = -1
    out.parent = up[:, 0]
    near = out.hints.copy()
    for k in (0, 1):
        has = up[:, k] >= 0
        near[has] |= own_hints[up[has, k]]
    out.near_hints = near
    # distinct containers, each measured once, and the start (the page's text) after them
    flat = up.ravel()
    used = flat >= 0
    container_at, first, rows = np.unique(flat[used], return_index=True, return_inverse=True)
    container_rows = np.full(len(flat), -1, dtype=np.int64)
    container_rows[used] = rows
    out.container_rows = container_rows.reshape(n_blocks, 3)
    out.container_climbs = np.flatnonzero(used)[first].tolist()  # a block it is above
    out.container_tags = list(map(rec.tag.__getitem__, container_at.tolist()))
    measured = np.append(container_at, 0)
    chars = subtree_sum(own_chars, measured)
    link_chars = subtree_sum(np.where(in_link, own_chars, 0), measured)
    out.chars, out.link_chars_total = int(chars[-1]), int(link_chars[-1])
    below = _range_max(depth, container_at, ends[container_at]) - depth[container_at]
    # element children (skipped ones too), and the <p> and <li> among them (blocks all)
    children = np.bincount(parent[1:], minlength=n)
    children += np.bincount(np.asarray(rec.skipped_parent, dtype=np.intp), minlength=n)
    block_tags = np.asarray(out.tags, dtype=object)
    p_children, li_children = (
        np.bincount(up[(block_tags == tag) & (up[:, 0] >= 0), 0], minlength=n)
        for tag in ("p", "li"))
    out.container_stats = np.stack([
        chars[:-1], link_chars[:-1], subtree_sum(is_block, container_at),
        subtree_sum(is_heading_block, container_at), below, children[container_at],
        p_children[container_at], li_children[container_at],
        _same_signature_siblings(rec, parent, container_at, out)], axis=1)
    out.link_density_rows = _link_density_rows(rec, n, state, ends, piece_at, piece_chars, at,
                                               up[:, 0]) if link_density_known else None


def _same_signature_siblings(rec: _Records, parent: np.ndarray, container_at: np.ndarray,
                              out: Walk) -> np.ndarray:
    """Per container, its parent's element children with its tag and class (:func:`_sig`),
    itself included: counted over the children of the containers' parents only, and the
    walked ones only (a skipped child's tag is no container's)."""
    container_parent = parent[container_at]
    wanted = np.unique(container_parent[container_parent >= 0])
    parents, tags, class_of = rec.parent, rec.tag, rec.class_of
    counts: dict[tuple[int, str, str], int] = {}
    for i in np.flatnonzero(np.isin(parent, wanted)).tolist():
        key = (parents[i], tags[i], class_of.get(i, ""))
        counts[key] = counts.get(key, 0) + 1
    found = []
    for row, (at, up) in enumerate(zip(container_at.tolist(), container_parent.tolist())):
        if up < 0:  # the start: its parent is not walked
            found.append(_sibling_counts(out.container(row), {}))
        else:
            found.append(counts.get((up, tags[at], class_of.get(at, "")), 0))
    return np.asarray(found, dtype=np.int64)


def _link_density_rows(rec: _Records, n: int, state: np.ndarray, ends: np.ndarray,
                       piece_at: np.ndarray, piece_chars: np.ndarray, at: np.ndarray,
                       parent_at: np.ndarray) -> np.ndarray:
    """linkdensity's §3.1 measures (text, link text, links, nodes) of each block and then of
    its parent, -1s when not in its view, as ``linkdensity.node_stats`` counts them: a
    text-less element is removed (§3.2 step 2), so it is neither a node nor a link of its
    ancestors."""
    in_view = (state & _LD_OFF) == 0
    own_text = np.bincount(piece_at, weights=np.where(in_view[piece_at], piece_chars, 0),
                           minlength=n).astype(np.int64)
    own_nodes = np.bincount(piece_at, weights=(piece_chars > 0) & in_view[piece_at],
                            minlength=n).astype(np.int64)

    def subtree_sum(values: np.ndarray) -> np.ndarray:
        prefix = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(values, out=prefix[1:])
        return prefix[ends] - prefix[:n]

    text = subtree_sum(own_text)
    has_text = (text > 0).astype(np.int64)
    link_text = subtree_sum(np.where((state & _LD_LINK) != 0, own_text, 0))
    counted_link = np.zeros(n, dtype=np.int64)
    href_at = np.asarray(rec.href_at, dtype=np.intp)
    counted_link[href_at] = has_text[href_at]
    links = subtree_sum(counted_link) - counted_link
    nodes = subtree_sum(own_nodes + has_text) - has_text
    measures = np.stack([text, link_text, links, nodes], axis=1)
    measures[~in_view] = -1
    rows = np.full((len(at), 8), -1, dtype=np.int64)
    rows[:, :4] = measures[at]
    has_parent = parent_at >= 0
    rows[has_parent, 4:] = measures[parent_at[has_parent]]
    return rows


#: Stands for a line break (``<br>``, a newline in ``<pre>``) until the text is joined.
LINE_BREAK = "\x1e"
if _compiled_walk is not None:
    try:
        _compiled_walk.configure(block=_BLOCK, line_break_bit=_BREAK, skip=_SKIP,
                                 not_element=_NOT_ELEMENT, in_link=_IN_LINK, ld_link=_LD_LINK,
                                 hint_mask=_HINT_MASK, hint_shift=_HINT_SHIFT,
                                 hidden=_HIDDEN, itemprop=_ITEMPROP, role_bits=_ROLE_BITS,
                                 hint_bits=_hint_bits, hidden_style=_hidden_style,
                                 class_bits_memo=_CLASS_BITS, class_bits=_class_bits,
                                 stamp_attr=STAMP_ATTR, line_break=LINE_BREAK,
                                 presence_bits=PRESENCE_BITS)
    except TypeError:  # a build older than this source (not rebuilt): the Python walk
        _compiled_walk = None


def _text(pieces: list[str], keep_newlines: bool = False) -> str:
    """A block's text: inline pieces joined as a browser renders them, white space collapsed,
    line breaks kept as ``\n`` (one character, as the space they replace)."""
    joined = "".join(pieces)
    if keep_newlines:
        joined = joined.replace("\n", LINE_BREAK)
    if LINE_BREAK not in joined:
        return _WS.sub(" ", joined).strip()
    if keep_newlines:  # code keeps its indentation
        return "\n".join(line.rstrip() for line in joined.split(LINE_BREAK)).strip("\n")
    lines = (_WS.sub(" ", line).strip() for line in joined.split(LINE_BREAK))
    return "\n".join(line for line in lines if line)


#: Blocks whose texts :func:`_block_texts` builds at once: the words of one part are split
#: apart as separate strings, about 8 times the part's text in memory.
_TEXT_PART_BLOCKS = 2048


def _block_texts(w: Walk) -> list[str]:
    """Every block's text, as :func:`_text` makes it of the block's pieces, a part of the
    blocks at a time: the pieces grouped by block (a stable sort keeps their order) and
    joined into one string, a NUL after each block (lxml's text has none), white space
    collapsed in one pass."""
    n_blocks = len(w.blocks)
    n_pieces = len(w.piece_text)
    order = np.argsort(np.concatenate([np.frombuffer(w.piece_block, dtype=np.int64),
                                       np.arange(n_blocks, dtype=np.int64)]), kind="stable")
    pieces = w.piece_text + ["\x00"] * n_blocks
    # where each block's NUL went: a block's pieces come before it (the stable sort keeps
    # the pieces, listed first, ahead of the NUL of the same block)
    block_end = np.flatnonzero(order >= n_pieces) + 1
    texts: list[str] = []
    for first in range(0, n_blocks, _TEXT_PART_BLOCKS):
        last = min(first + _TEXT_PART_BLOCKS, n_blocks)
        begin = int(block_end[first - 1]) if first else 0
        joined = "".join(map(pieces.__getitem__, order[begin:block_end[last - 1]].tolist()))
        # white space collapsed as _WS.sub(" ", ...) does (str.split splits on exactly its
        # white space), faster; the space it leaves beside a NUL goes with the strip
        part = list(map(str.strip, " ".join(joined.split()).split("\x00")))
        del part[last - first:]
        tags = w.tags[first:last]
        if LINE_BREAK in joined or "pre" in tags:  # lines to keep: block by block
            for i, (tag, text) in enumerate(zip(tags, joined.split("\x00"))):
                if tag == "pre" or LINE_BREAK in text:
                    part[i] = _text([text], keep_newlines=tag == "pre")
        texts += part
    return texts


# The _LD_TYPES patterns lower-cased: on a lower-cased text their case-sensitive forms find
# what the case-insensitive ones find on the text, several times faster. Outside ASCII only
# these letters match an ASCII letter of the patterns case-blind, and only two of them
# lower-case to ASCII, so they are replaced first (_fold_to_ascii_letters).
_LD_TYPES_LOWER = tuple(re.compile(rx.pattern.lower()) for rx in _LD_TYPES.values())
_FOLDED_LETTERS = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"), ("\u212a", "k"))


def _fold_to_ascii_letters(text: str) -> str:
    """``text`` with the letters outside ASCII that a case-blind regex takes for an ASCII
    letter (İ, ı, ſ and the Kelvin sign) replaced by it."""
    for letter, ascii_letter in _FOLDED_LETTERS:
        if letter in text:
            text = text.replace(letter, ascii_letter)
    return text
_COUNTED_TAGS = ("article", "form", "table")
_COUNTED = frozenset(_COUNTED_TAGS)


def _page_level(page: Page, w: Walk, texts: list[str], chars: np.ndarray
                ) -> tuple[np.ndarray, TitleSources]:
    """The page-level features, and what the same pass found for the title."""
    from ..auto_rules import TitleSources

    tree = page.tree
    total = w.chars
    link_total = w.link_chars_total
    tags = w.tags
    # what //script[@type="application/ld+json"]/text(), //meta[@property="og:type"]/@content
    # and //article, //form, //table find, in one pass over the whole tree instead of five,
    # and the title's elements and headings with them (below each child of the root in turn,
    # to tell the head's and the body's)
    ld_parts: list[str] = []
    og_parts: list[str] = []
    counted = dict.fromkeys(_COUNTED_TAGS, 0)
    head = tree.find("head")
    sources = TitleSources(tree, tree.find("body"))
    for top in tree:
        in_head, in_body = top is head, top is sources.body
        for el in top.iter(*_COUNTED_TAGS, "script", *TitleSources.TAGS):
            tag = el.tag
            if tag == "script":
                if el.get("type") == "application/ld+json":
                    ld_parts += el.xpath("text()")
            elif tag in _COUNTED:
                counted[tag] += 1
            else:
                if tag == "meta" and el.get("property") == "og:type" and \
                        el.get("content") is not None:
                    og_parts.append(el.get("content"))
                sources.add(el, tag, in_head, in_body)
    ld = " ".join(ld_parts)[:200000]
    og = " ".join(og_parts).lower()
    ld_lower = (ld if ld.isascii() else _fold_to_ascii_letters(ld)).lower()
    ld_types = [float(bool(rx.search(ld_lower))) for rx in _LD_TYPES_LOWER]
    url = page.url or ""
    path = re.sub(r"^[a-z]+://[^/]+", "", url).split("?")[0]
    values = [
        math.log1p(total), link_total / total if total else 0.0, math.log1p(len(w.blocks)),
        tags.count("p"), tags.count("li"), sum(map(tags.count, _HEADINGS)),
        counted["article"], counted["form"], counted["table"],
        float(chars.max()) if len(chars) else 0.0,
        float("article" in og), float("product" in og),
        float(path.count("/")), float(bool(re.search(r"\d", path))),
    ] + ld_types
    return np.asarray(values, dtype=np.float64), sources


def _sibling_counts(el: etree._Element, cache: dict) -> int:
    parent = el.getparent()
    if parent is None:
        return 0
    counts = cache.get(parent)
    if counts is None:
        counts = {}
        for child in parent:
            if isinstance(child.tag, str):
                key = _sig(child)
                counts[key] = counts.get(key, 0) + 1
        cache[parent] = counts
    return counts.get(_sig(el), 0)


def paper_signals(page: Page, blocks: list[etree._Element],
                  link_density: dict[etree._Element, tuple[int, int, int, int]] | np.ndarray |
                  None = None, *, link_blocks: bool = True, far_sw: bool = True) -> np.ndarray:
    """The papers' per-block signals (linkblocks, linkdensity, FAR-SW), see _PAPERS.

    ``link_density``: linkdensity's measures the walk counted already, by element
    (:attr:`Walk.link_density`) or as the blocks' rows of :attr:`Walk.link_density_rows`
    (None: ``linkdensity.node_stats`` counts them). ``link_blocks`` / ``far_sw`` False:
    those columns stay -1, not computed.
    """
    from .. import farsw, linkblocks

    n = len(blocks)
    out = np.full((n, len(_PAPERS)), -1.0)
    # where each block starts in the raw HTML: only link blocks and FAR-SW's lines read it
    starts = np.asarray(page.span_starts(blocks) if link_blocks or far_sw else (),
                        dtype=np.int64)
    # seeds 000/001: logical link blocks over the raw HTML
    spans = []
    if link_blocks:
        try:
            # only the link blocks' spans are used: no main-text bridge, no element ids
            lb = linkblocks.extract(page, linkblocks.Params(main_text=False,
                                                            element_ids=False))
            spans = sorted((b.start, b.end, b.link_count or 0) for b in lb.blocks
                           if b.kind == "links")
        except Exception:  # a paper algorithm's failure must not lose the page
            spans = []
        out[:, 0] = 0
        out[:, 1] = 0
    if spans:
        span_starts, span_ends, span_links = (np.asarray(column, dtype=np.int64)
                                              for column in zip(*spans))
        idx = np.searchsorted(span_starts, starts, side="right") - 1
        inside = (idx >= 0) & (starts < span_ends[np.maximum(idx, 0)])
        out[inside, 0] = 1
        out[inside, 1] = span_links[idx[inside]]
    # seed 003: LTD / LAD / NTL of the block element and its parent
    if link_density is None:
        body = page.tree.find("body")
        link_density = {
            el: (ns.text, ns.link_text, ns.links, ns.nodes) for el, ns in linkdensity.node_stats(
                body if body is not None else page.tree, linkdensity.Params()).items()}
    # the block's and its parent's measures side by side (-1: not in linkdensity's view),
    # then NodeStats.ltd, .lad and the NTL of each, column by column
    if isinstance(link_density, np.ndarray):
        measured = link_density
    else:
        absent = (-1, -1, -1, -1)
        measured = np.asarray([link_density.get(el, absent) + link_density.get(
            el.getparent(), absent) for el in blocks], dtype=np.int64).reshape(n, 8)
    for first, column in ((0, 2), (4, 5)):
        text, link_text, links, nodes = measured[:, first:first + 4].T
        known = text >= 0
        for numerator, denominator, at in ((link_text, text, column), (links, nodes, column + 1)):
            ratio = np.zeros(n)
            np.divide(numerator, denominator, out=ratio, where=known & (denominator > 0))
            out[known, at] = ratio[known]
        # numpy's log1p may differ from math's in the last bit: no split lies that close
        # to a count's logarithm (thresholds fall midway between values seen in training)
        out[known, column + 2] = np.log1p(text[known].astype(np.float64))
    # seed 004: FAR-SW line score (eq. 4) of the block's line and its window
    if not far_sw:
        return out
    try:
        line_starts, line_features = farsw.line_features(page, farsw.Params())
        if len(line_starts):
            scores = farsw.line_scores(line_features)
            li = np.clip(np.searchsorted(line_starts, starts, side="right") - 1, 0,
                         len(scores) - 1)
            out[:, 8] = scores[li]
            padded = np.concatenate([[scores[0]] * 2, scores, [scores[-1]] * 2])
            window = np.convolve(padded, np.ones(5) / 5, mode="valid")
            out[:, 9] = window[li]
    except Exception:  # as above
        pass
    return out


#: auto-rules' choice for a page: the elements it keeps and those it excludes below them
RulesChoice = tuple[list[etree._Element], set[etree._Element]]


def rules_choice(page: Page) -> RulesChoice | None:
    """What ``auto-rules`` keeps and excludes on the page, or None when it fails."""
    from .. import auto_rules

    try:
        chosen, exclude, _stage = auto_rules.select(page, auto_rules.Params(with_html=False))
    except Exception:  # the rule-based extractor failing must not lose the page
        return None
    return chosen, exclude


def rules_signals(page: Page, blocks: list[etree._Element],
                  choice: RulesChoice | None = None) -> np.ndarray:
    """Whether ``auto-rules`` keeps each block, and whether it sits beside its choice
    (``choice``: :func:`rules_choice`'s, when already asked)."""
    if choice is None:
        choice = rules_choice(page)
    if choice is None:
        return np.zeros((len(blocks), 2))
    return rules_columns(blocks, *choice)


def rules_columns(blocks: list[etree._Element], chosen: list[etree._Element],
                  exclude: set[etree._Element]) -> np.ndarray:
    """``rules_main`` and ``rules_container`` of each block, given auto-rules' choice."""
    found: list[tuple[int, int]] = []  # per block (numpy rows are set all at once)
    chosen_set = set(chosen)
    parents = {c.getparent() for c in chosen if c.getparent() is not None}
    # Going up from a block: an excluded element ends the search, a chosen one makes it
    # kept, a chosen one's parent on the way puts it beside. The answer for an element is
    # its own test and its parent's answer, so each element is tested once per page.
    answers: dict[etree._Element, tuple[int, int]] = {}
    for el in blocks:
        path = []
        node = el
        answer = (0, 0)
        while node is not None:
            known = answers.get(node)
            if known is not None:
                answer = known
                break
            if node in exclude:
                answer = answers[node] = (0, 0)
                break
            if node in chosen_set:
                answer = answers[node] = (1, 0)
                break
            path.append(node)
            node = node.getparent()
        for node in reversed(path):
            answer = answers[node] = (answer[0], answer[1] | (node in parents))
        found.append(answer)
    return np.asarray(found, dtype=np.float64).reshape(len(blocks), 2)


# Character classes of the text measures. Each measure's definition (a regex or a str
# method) looks at one character at a time, so a table of the characters met answers them
# all: every character of every block is looked up at once (see _text_measures).
_PUNCT_CLASS, _DIGIT_CLASS, _UPPER_CLASS, _WORD_CLASS, _SPACE_CLASS, _STOP_CLASS = (
    1 << i for i in range(6))
_SPACE = re.compile(r"\s")
_SENTENCE_MARK = re.compile(r"[.!?\u3002\uff01\uff1f]")  # _SENTENCE_END's first character


def _char_class(char: str) -> int:
    """The classes of one character (its bits of the ``_*_CLASS`` flags)."""
    return ((_PUNCT_CLASS if _PUNCT.match(char) else 0)
            | (_DIGIT_CLASS if char.isdigit() else 0)
            | (_UPPER_CLASS if char.isupper() else 0)
            | (_WORD_CLASS if WORD_RE.match(char) else 0)
            | (_SPACE_CLASS if _SPACE.match(char) else 0)
            | (_STOP_CLASS if _SENTENCE_MARK.match(char) else 0))


_ASCII_CLASSES = np.array([_char_class(chr(code)) for code in range(128)], dtype=np.uint8)
_CHAR_CLASSES: dict[int, int] = {}  # other characters met, by code point


def _classes(codes: np.ndarray) -> np.ndarray:
    """Classes of code points: ASCII from the table, the others once per distinct one."""
    if not len(codes) or codes.max() < 128:
        return _ASCII_CLASSES[codes]
    classes = np.empty(len(codes), dtype=np.uint8)
    ascii_ = codes < 128
    classes[ascii_] = _ASCII_CLASSES[codes[ascii_]]
    others, inverse = np.unique(codes[~ascii_], return_inverse=True)
    if len(_CHAR_CLASSES) > 50000:  # bound the memo
        _CHAR_CLASSES.clear()
    memo = _CHAR_CLASSES
    found = [memo.get(code) for code in others.tolist()]
    for i, code in enumerate(others.tolist()):
        if found[i] is None:
            found[i] = memo[code] = _char_class(chr(code))
    classes[~ascii_] = np.asarray(found, dtype=np.uint8)[inverse]
    return classes


#: Columns of :func:`_text_measures`.
TEXT_MEASURES = ("chars", "words", "word_chars", "commas", "sentences", "punct", "digits",
                 "upper")


#: Characters measured at once by :func:`_text_measures`: its flag arrays take about 20 bytes
#: a character, so a page of megabytes of text is measured in parts of a few megabytes.
TEXT_MEASURE_PART_CHARS = 1 << 18


def _text_measures(texts: list[str]) -> np.ndarray:
    """Per text (a row): characters; words (:data:`WORD_RE` matches) and their characters;
    commas; sentence ends (:data:`_SENTENCE_END` matches); punctuation marks (:data:`_PUNCT`);
    digits and upper-case letters (``str.isdigit``, ``str.isupper``).

    Counted over all texts at once on their code points, a NUL after each text (no text has
    one, and it is in no class): a word starts where a word character follows none, a
    sentence ends where a mark is followed by white space or a NUL. Texts go in parts of
    about :data:`TEXT_MEASURE_PART_CHARS` (whole texts; the counts are per text, so the
    parts give the same rows).
    """
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    if not len(texts):
        return np.zeros((0, len(TEXT_MEASURES)), dtype=np.int64)
    if lengths.sum() <= TEXT_MEASURE_PART_CHARS:
        return _measure_part(texts, lengths)
    part_of = (np.cumsum(lengths + 1) - 1) // TEXT_MEASURE_PART_CHARS
    bounds = np.flatnonzero(np.diff(part_of)) + 1
    edges = [0, *bounds.tolist(), len(texts)]
    return np.concatenate([_measure_part(texts[a:b], lengths[a:b])
                           for a, b in zip(edges, edges[1:])])


def _measure_part(texts: list[str], lengths: np.ndarray) -> np.ndarray:
    """:func:`_text_measures` of a non-empty list of texts at once."""
    starts = np.cumsum(lengths + 1) - lengths - 1
    joined = "\x00".join(texts) + "\x00"
    if joined.isascii():
        codes = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    else:
        codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    classes = _classes(codes)
    word = (classes & _WORD_CLASS) != 0
    word_start = word.copy()
    word_start[1:] &= ~word[:-1]
    followed = np.zeros(len(codes), dtype=bool)  # by white space or a NUL
    followed[:-1] = ((classes[1:] & _SPACE_CLASS) != 0) | (codes[1:] == 0)
    counted = (word_start, word, codes == ord(","), ((classes & _STOP_CLASS) != 0) & followed,
               (classes & _PUNCT_CLASS) != 0, (classes & _DIGIT_CLASS) != 0,
               (classes & _UPPER_CLASS) != 0)
    # a text's counts: the sum over its characters and its NUL (no range is empty); one
    # flat int32 array at a time (reduceat over a 2-D array, or casting booleans in it, is
    # many times slower)
    return np.column_stack([lengths] + [np.add.reduceat(flags.astype(np.int32), starts)
                                        for flags in counted])


def window_mean(values: np.ndarray, radius: int) -> np.ndarray:
    """Mean of each value and its ``radius`` neighbours on each side (fewer at the edges)."""
    n = len(values)
    cum = np.concatenate([[0.0], np.cumsum(values)])
    lo = np.clip(np.arange(n) - radius, 0, n)
    hi = np.clip(np.arange(n) + radius + 1, 0, n)
    return (cum[hi] - cum[lo]) / (hi - lo)


def compute(page: Page, *, papers: bool = True, rules: bool = True,
            recurrence: dict[str, float] | None = None,
            without: Collection[str] = ()) -> Blocks:
    """Blocks of ``page`` with text, and their features (rows in document order).

    ``without``: names of :data:`PAPER_GROUPS` neither computed nor filled (their columns
    stay -1, as in a model trained without them: ``blocksift train auto --without``).
    """
    unknown = set(without) - set(PAPER_GROUPS)
    if unknown:
        raise ValueError(f"unknown signal groups: {', '.join(sorted(unknown))}")
    # a model without all three papers' signals reads none of their columns (below)
    papers = papers and not {"linkblocks", "linkdensity", "farsw"} <= set(without)
    w = walk(page, link_density=papers)
    texts_all = _block_texts(w)
    lengths = np.fromiter(map(len, texts_all), dtype=np.int64, count=len(texts_all))
    rows = np.flatnonzero(lengths)
    texts = [texts_all[i] for i in rows.tolist()]
    blocks = [w.blocks[i] for i in rows.tolist()]
    tags = [w.tags[i] for i in rows.tolist()]
    n = len(blocks)
    if not n:
        return Blocks()
    makers: dict[str, Callable[[np.ndarray | slice], object]] = {}

    def whole(name: str, values: np.ndarray) -> None:
        """A column computed for every block at once: read at the rows asked for."""
        makers[name] = values.__getitem__

    measures = _text_measures(texts).astype(np.float64)
    chars, n_words, word_chars, commas, sentences, punct, digits, upper = measures.T
    link_chars = w.link_chars[rows].astype(np.float64)
    link_share = np.minimum(link_chars / np.maximum(chars, 1), 1.0)
    log_chars = np.log1p(chars)
    whole("own_chars", log_chars)
    whole("own_words", np.log1p(n_words))
    whole("own_link_chars", np.log1p(link_chars))
    whole("own_link_share", link_share)
    whole("own_links", w.links[rows])
    whole("own_commas", commas)
    whole("own_sentences", sentences)
    makers["own_punct_share"] = lambda r: punct[r] / chars[r]
    makers["own_digits_share"] = lambda r: digits[r] / chars[r]
    makers["own_upper_share"] = lambda r: upper[r] / chars[r]
    avg_word = np.zeros(n)
    np.divide(word_chars, n_words, out=avg_word, where=n_words > 0)
    whole("own_avg_word", avg_word)
    whole("own_inline_children", w.inline_children[rows])
    # containers 1-3 levels up: one row of 11 values per distinct element, gathered; a row
    # of -1 last stands for "no container"
    table = _container_table(w)
    table = np.vstack([table, np.full((1, table.shape[1]), -1.0)])
    container_groups: list[tuple[tuple[str, ...], Callable[[np.ndarray | slice], object]]] = []
    for k in (1, 2, 3):
        at = w.container_rows[rows, k - 1]
        has = at >= 0
        at = np.where(has, at, len(table) - 1)
        container_chars = table[at[has], 10]
        share = np.zeros(len(container_chars))
        np.divide(chars[has], container_chars, out=share, where=container_chars != 0)
        own_share = np.full(n, -1.0)
        own_share[has] = share
        for m, measure in enumerate(_CONTAINER[:10]):
            makers[f"up{k}_{measure}"] = lambda r, at=at, m=m: table[at[r], m]
        container_groups.append((tuple(f"up{k}_{measure}" for measure in _CONTAINER[:10]),
                                 lambda r, at=at: table[at[r], :10]))
        whole(f"up{k}_{_CONTAINER[10]}", own_share)
    state = w.state[rows]
    near = w.near_hints[rows]
    hb = w.hints[rows]
    for j, name in enumerate(_LANDMARK_TAGS):
        makers[f"in_{name}"] = lambda r, j=j: (state[r] >> j) & 1
    for j, name in enumerate(_ROLES):
        makers[f"role_{name}"] = lambda r, j=j: (state[r] >> (_ROLE_SHIFT + j)) & 1
    for j, name in enumerate(_HINT_NAMES):
        makers[f"hint_{name}_self"] = lambda r, j=j: (hb[r] >> j) & 1
        makers[f"hint_{name}_near"] = lambda r, j=j: (near[r] >> j) & 1
        makers[f"hint_{name}_any"] = lambda r, j=j: (state[r] >> _HINT_SHIFT >> j) & 1
    # the same bits as the makers above, a block of columns at once for the matrix
    state_bits = ([f"in_{name}" for name in _LANDMARK_TAGS] + [f"role_{name}" for name in _ROLES]
                  + [f"hint_{name}_any" for name in _HINT_NAMES])
    state_shifts = np.array([*range(len(_LANDMARK_TAGS)),
                             *(_ROLE_SHIFT + j for j in range(len(_ROLES))),
                             *(_HINT_SHIFT + j for j in range(len(_HINT_NAMES)))])
    hint_shifts = np.arange(len(_HINT_NAMES))
    groups = [
        *container_groups,
        (tuple(state_bits), lambda r: (state[r][:, None] >> state_shifts) & 1),
        (tuple(f"hint_{name}_self" for name in _HINT_NAMES),
         lambda r: (hb[r][:, None] >> hint_shifts) & 1),
        (tuple(f"hint_{name}_near" for name in _HINT_NAMES),
         lambda r: (near[r][:, None] >> hint_shifts) & 1)]
    makers["hidden"] = lambda r: (state[r] & _HIDDEN) != 0
    makers["itemprop_body"] = lambda r: (state[r] & _ITEMPROP) != 0
    whole("heading_level", np.array([int(t[1]) if t in _HEADINGS else 0 for t in tags],
                                    dtype=np.float64))
    makers["is_link_only"] = lambda r: (link_share[r] > 0.99).astype(float)
    whole("depth", w.depth[rows])
    cum = np.cumsum(chars) - chars
    total = chars.sum()
    makers["pos_chars"] = (lambda r: cum[r] / total) if total else (lambda r: 0)
    position = np.arange(n)
    makers["pos_blocks"] = lambda r: position[r] / max(n - 1, 1)
    first_h1 = next((r for r, t in enumerate(tags) if t == "h1"), n)
    last_h = max((r for r, t in enumerate(tags) if t in _HEADINGS), default=-1)
    makers["after_h1"] = lambda r: (position[r] >= first_h1).astype(float)
    makers["before_last_h"] = lambda r: (position[r] < last_h).astype(float)
    # a block's neighbours in document order; -1 before the first and after the last
    padded_chars = np.concatenate([[-1.0], log_chars, [-1.0]])
    padded_share = np.concatenate([[-1.0], link_share, [-1.0]])
    makers["prev_chars"] = lambda r: padded_chars[:-2][r]
    makers["next_chars"] = lambda r: padded_chars[2:][r]
    makers["prev_link_share"] = lambda r: padded_share[:-2][r]
    makers["next_link_share"] = lambda r: padded_share[2:][r]
    whole("win_link_share", window_mean(link_share, 3))
    whole("win_chars", window_mean(log_chars, 3))
    whole("win_sentences", window_mean(sentences, 3))
    whole("run_same_parent", _run_lengths(w.parent[rows]))
    page_feats, title_sources = _page_level(page, w, texts, chars)
    for j, name in enumerate(_PAGE):
        makers[name] = lambda r, value=page_feats[j]: value
    groups.append((tuple(_PAGE), lambda r: page_feats))
    # a model without all three papers' signals reads none of their columns: the spans,
    # the link-block scan and the link-density ratios are not worth computing for it
    if papers:
        paper = paper_signals(page, blocks, None if w.link_density_rows is None
                              else w.link_density_rows[rows],
                              link_blocks="linkblocks" not in without,
                              far_sw="farsw" not in without)
        for j, name in enumerate(_PAPERS):
            makers[name] = lambda r, j=j: paper[r, j]
    if recurrence is not None and "clustering" not in without:
        whole("cl_recurrence", np.array([recurrence.get(page.xpath(el), 0.0)
                                         for el in blocks], dtype=np.float64))
    choice = None
    if rules and "rules" not in without:
        choice = rules_choice(page)
        found = rules_signals(page, blocks, choice)
        makers["rules_main"] = lambda r: found[r, 0]
        makers["rules_container"] = lambda r: found[r, 1]
    for group in without:
        for name in PAPER_GROUPS[group]:
            makers.pop(name, None)
    out = Blocks(blocks, texts, page_features=page_feats, columns=FeatureColumns(n, makers, groups),
                 tags=tags, parents=w.parent[rows], holds=w.holds)
    out.title_sources = title_sources
    out.rules_choice = choice
    # the rows of the text blocks in each block's subtree, from the walk's block ranges
    out.row_ranges = (w.blocks, np.searchsorted(rows, np.arange(len(w.blocks))),
                      np.searchsorted(rows, w.block_ends))
    return out


def _run_lengths(keys: np.ndarray) -> np.ndarray:
    """Per row, the length of the run of equal neighbouring ``keys`` it is in."""
    n = len(keys)
    if not n:
        return np.ones(0)
    starts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
    lengths = np.diff(np.append(starts, n))
    return np.repeat(lengths, lengths).astype(np.float64)


def _container_table(w: Walk) -> np.ndarray:
    """One row of the :data:`_CONTAINER` values per distinct container (its characters last,
    for the block's share of them)."""
    stats = w.container_stats.astype(np.float64)
    chars, link_chars, blocks, headings, below, children, p_children, li_children, same_sig = \
        stats.T
    link_share = np.zeros(len(chars))
    np.divide(link_chars, chars, out=link_share, where=chars != 0)
    tag_codes = np.fromiter(map(TAG_CODES.get, w.container_tags, repeat(0)),
                            dtype=np.float64, count=len(w.container_tags))
    return np.stack([tag_codes, _math_log1p(chars), link_share, _math_log1p(blocks), children,
                     below, same_sig, p_children, li_children, headings, chars], axis=1)


def _math_log1p(values: np.ndarray) -> np.ndarray:
    """``math.log1p`` of each value: numpy's log1p can differ from it in the last bit, and
    the shipped models were trained on these columns as math.log1p gave them."""
    return np.fromiter(map(math.log1p, values.tolist()), dtype=np.float64, count=len(values))

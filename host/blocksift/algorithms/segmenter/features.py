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
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from ...content import BLOCK_TAGS, NON_TEXT_TAGS
from ...page import Page
from ...rawscan import STAMP_ATTR
from .. import linkdensity

#: Tags whose subtree is never text (``noscript`` is kept: see the module docstring).
SKIP_TAGS = (NON_TEXT_TAGS - {"noscript"}) | {"head"}
WORD_RE = re.compile(r"\w+")
_WS = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f](?:\s|$)")
_PUNCT = re.compile(r"[.,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u3001]")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)

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
# The patterns are lower case: on a lower-cased ASCII word their case-sensitive forms find
# what the case-insensitive ones find on the word, several times faster (the regex engine
# skips ahead by first characters only when case matters).
_ANY_HINT_LOWER = re.compile(_ANY_HINT.pattern)
_HINTS_LOWER = tuple(re.compile(HINTS[name].pattern) for name in _HINT_NAMES)
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


@dataclass(slots=True)
class ElementStat:
    """Measurements of one element's subtree (characters whitespace-collapsed)."""

    chars: int = 0
    link_chars: int = 0
    blocks: int = 0
    heading_blocks: int = 0
    depth_below: int = 0
    own_chars: int = 0
    # linkdensity's §3.1 measures over its own view (see :data:`LD_REMOVED_TAGS`)
    ld_text: int = 0
    ld_link_text: int = 0
    ld_links: int = 0
    ld_nodes: int = 0


@dataclass
class Blocks:
    """The text blocks of a page, in document order, and their features."""

    elements: list[etree._Element] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, len(FEATURE_NAMES))))
    page_features: np.ndarray = field(default_factory=lambda: np.zeros(len(_PAGE)))

    def __len__(self) -> int:
        return len(self.elements)


def _sig(el: etree._Element) -> str:
    return f"{el.tag}.{el.get('class', '')}"


_HIDDEN_STYLE_CACHE: dict[str, bool] = {}


def _hidden(el: etree._Element) -> bool:
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = el.get("style")
    if not style:
        return False
    found = _HIDDEN_STYLE_CACHE.get(style)
    if found is None:
        if len(_HIDDEN_STYLE_CACHE) > 20000:  # bound the memo
            _HIDDEN_STYLE_CACHE.clear()
        found = _HIDDEN_STYLE_CACHE[style] = _HIDDEN_STYLE.search(style) is not None
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
            if word.isascii():
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


def _hint_bits(el: etree._Element) -> int:
    cls = el.get("class")
    ident = el.get("id")
    if not cls and not ident:
        return 0
    value = f"{cls or ''} {ident or ''}"
    bits = _HINT_CACHE.get(value)
    if bits is None:
        bits = _hint_value_bits(value)
        if len(_HINT_CACHE) > 50000:  # class strings repeat; bound the memo anyway
            _HINT_CACHE.clear()
        _HINT_CACHE[value] = bits
    return bits


def _landmark_bits(el: etree._Element) -> int:
    bits = 0
    tag = el.tag
    if tag in _LANDMARK_INDEX:
        bits |= 1 << _LANDMARK_INDEX[tag]
    role = el.get("role")
    if role and role in _ROLE_INDEX:
        bits |= 1 << (len(_LANDMARK_TAGS) + _ROLE_INDEX[role])
    return bits


_LANDMARK_INDEX = {t: i for i, t in enumerate(_LANDMARK_TAGS)}
_ROLE_INDEX = {r: i for i, r in enumerate(_ROLES)}


def _collapse_len(text: str) -> int:
    """Length of ``text`` with white space collapsed and stripped (str.split() splits on
    exactly the white space of ``_WS``)."""
    words = text.split() if text else None
    return sum(map(len, words)) + len(words) - 1 if words else 0


#: Subtrees linkdensity's default view leaves out (seed 003 §3.2 step 2) that this walk keeps;
#: the rest of its removed tags are skipped here too (``head`` apart, see :func:`walk`).
LD_REMOVED_TAGS = frozenset(linkdensity.DEFAULT_REMOVED_TAGS) - SKIP_TAGS


@dataclass(slots=True)
class _Frame:
    node: etree._Element
    block: int
    in_link: bool
    landmarks: int
    hints_any: int
    hidden: bool
    itemprop: bool
    depth: int
    stat: ElementStat
    hints: int  # the element's own hint bits
    children: Iterator[etree._Element]
    needed: bool  # its stats are kept (a block's container up to 3 levels, or the start)
    ld_in_link: bool  # inside an <a href> (linkdensity's link)
    ld_off: bool  # inside a subtree linkdensity's view removes
    ld_needed: bool = False  # its linkdensity measures are kept (a block or a block's parent)


@dataclass
class Walk:
    """What the single walk collects."""

    blocks: list[etree._Element] = field(default_factory=list)
    pieces: list[list[str]] = field(default_factory=list)
    link_chars: list[int] = field(default_factory=list)
    links: list[int] = field(default_factory=list)
    inline_children: list[int] = field(default_factory=list)
    # per block: ancestors (nearest first, up to 3), landmark bits, hint bits any/near,
    # hidden, itemprop, depth
    context: list[tuple] = field(default_factory=list)
    #: Subtree stats of the start element and of every element some block has among its
    #: ancestors up to 3 levels (the only ones features read).
    stats: dict[etree._Element, ElementStat] = field(default_factory=dict)
    #: linkdensity's (NTL, link text, LA, child nodes) of every block and block parent in
    #: its view, as ``linkdensity.node_stats(body, Params())`` counts them; None when the
    #: walk cannot tell (no ``body``, or a ``head`` inside it).
    link_density: dict[etree._Element, tuple[int, int, int, int]] | None = field(
        default_factory=dict)


#: ``keys()`` of an element carrying only the host's ordinal stamp (no class, role, ...).
_STAMP_ONLY = [STAMP_ATTR]


def walk(page: Page) -> Walk:
    """One iterative walk of the body: blocks, their own text pieces and subtree stats."""
    root = page.tree
    body = root.find("body")
    start = body if body is not None else root
    out = Walk()
    blocks, pieces, link_chars, links = out.blocks, out.pieces, out.link_chars, out.links
    inline_children, context, stats = out.inline_children, out.context, out.stats
    link_density = out.link_density
    frames: list[_Frame] = []

    def add_text(frame: _Frame, text: str) -> None:
        words = text.split()  # _collapse_len, inlined: the walk's hottest call
        if not words:
            pieces[frame.block].append(" ")
            return
        n = sum(map(len, words)) + len(words) - 1
        st = frame.stat
        st.chars += n
        st.own_chars += n
        pieces[frame.block].append(text)
        if frame.in_link:
            link_chars[frame.block] += n
            st.link_chars += n
        if not frame.ld_off:  # linkdensity.node_stats' add_piece (chars, text nodes counted)
            st.ld_text += n
            st.ld_nodes += 1
            if frame.ld_in_link:
                st.ld_link_text += n

    def open_element(node: etree._Element, tag: str, parent: _Frame | None) -> None:
        keys = node.keys()
        if not keys or keys == _STAMP_ONLY:  # most elements: no attribute to read
            hb = 0
            marks = 1 << _LANDMARK_INDEX[tag] if tag in _LANDMARK_INDEX else 0
            own_hidden = own_itemprop = False
        else:
            hb = _hint_bits(node)
            marks = _landmark_bits(node)
            own_hidden = _hidden(node)
            own_itemprop = node.get("itemprop") == "articleBody"
        is_link = tag == "a"
        ld_link = is_link and node.get("href") is not None
        if parent is None:
            hints_any, landmarks, hidden, itemprop, in_link, depth = (
                hb, marks, own_hidden, own_itemprop, is_link, 0)
            ld_in_link, ld_off = ld_link, False
        else:
            hints_any = parent.hints_any | hb
            landmarks = parent.landmarks | marks
            hidden = parent.hidden or own_hidden
            itemprop = parent.itemprop or own_itemprop
            in_link = parent.in_link or is_link
            depth = parent.depth + 1
            ld_in_link = parent.ld_in_link or ld_link
            ld_off = parent.ld_off or tag in LD_REMOVED_TAGS
        st = ElementStat()
        is_block = tag in BLOCK_TAGS or parent is None
        if is_block:
            block = len(blocks)
            above = frames[-1:-4:-1]
            for frame in above:
                frame.needed = True
            if above:
                above[0].ld_needed = True
            near = hb
            for frame in above[:2]:
                near |= frame.hints
            blocks.append(node)
            pieces.append([])
            link_chars.append(0)
            links.append(0)
            inline_children.append(0)
            context.append((tuple(frame.node for frame in above), landmarks, hints_any, near,
                            hb, hidden, itemprop, depth))
            st.blocks = 1
            if tag in _HEADINGS:
                st.heading_blocks = 1
        else:
            block = parent.block
            inline_children[block] += 1
        if is_link:
            links[block] += 1
        frame = _Frame(node, block, in_link, landmarks, hints_any, hidden, itemprop, depth, st,
                       hb, iter(node), parent is None, ld_in_link, ld_off, is_block)
        frames.append(frame)
        if tag == "br":
            pieces[block].append(LINE_BREAK)
        if node.text:
            add_text(frame, node.text)

    if not isinstance(start.tag, str) or start.tag in SKIP_TAGS:
        return out
    open_element(start, start.tag, None)
    while frames:
        frame = frames[-1]
        node = next(frame.children, None)
        if node is None:  # the element closes
            frames.pop()
            st = frame.stat
            if frame.needed:
                stats[frame.node] = st
            if frame.ld_needed and not frame.ld_off:
                link_density[frame.node] = (st.ld_text, st.ld_link_text, st.ld_links,
                                            st.ld_nodes)
            if frames:
                parent = frames[-1]
                pst = parent.stat
                if st.ld_text and not frame.ld_off:  # a text-less node is removed (step 2)
                    pst.ld_text += st.ld_text
                    pst.ld_link_text += st.ld_link_text
                    pst.ld_links += st.ld_links
                    if frame.node.tag == "a" and frame.node.get("href") is not None:
                        pst.ld_links += 1
                    pst.ld_nodes += st.ld_nodes + 1
                pst.chars += st.chars
                pst.link_chars += st.link_chars
                pst.blocks += st.blocks
                pst.heading_blocks += st.heading_blocks
                if st.depth_below + 1 > pst.depth_below:
                    pst.depth_below = st.depth_below + 1
                tail = frame.node.tail
                if tail:
                    add_text(parent, tail)
            continue
        tag = node.tag
        if not isinstance(tag, str) or tag in SKIP_TAGS:
            if tag == "head":  # linkdensity's view keeps it: its measures are not known here
                out.link_density = None
            if node.tail:
                add_text(frame, node.tail)
            continue
        open_element(node, tag, frame)
    if body is None:  # linkdensity then walks the whole tree, head included
        out.link_density = None
    return out


#: Stands for a line break (``<br>``, a newline in ``<pre>``) until the text is joined.
LINE_BREAK = "\x1e"


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


def _page_level(page: Page, w: Walk, texts: list[str], chars: np.ndarray) -> np.ndarray:
    tree = page.tree
    body_stat = w.stats.get(w.blocks[0]) if w.blocks else None
    total = body_stat.chars if body_stat else 0
    link_total = body_stat.link_chars if body_stat else 0
    tags = [b.tag for b in w.blocks]
    ld = " ".join(tree.xpath('//script[@type="application/ld+json"]/text()'))[:200000]
    og = " ".join(tree.xpath('//meta[@property="og:type"]/@content')).lower()
    url = page.url or ""
    path = re.sub(r"^[a-z]+://[^/]+", "", url).split("?")[0]
    values = [
        math.log1p(total), link_total / total if total else 0.0, math.log1p(len(w.blocks)),
        tags.count("p"), tags.count("li"), sum(t in _HEADINGS for t in tags),
        len(tree.xpath("//article")), len(tree.xpath("//form")), len(tree.xpath("//table")),
        float(chars.max()) if len(chars) else 0.0,
        float("article" in og), float("product" in og),
        float(path.count("/")), float(bool(re.search(r"\d", path))),
    ] + [float(bool(rx.search(ld))) for rx in _LD_TYPES.values()]
    return np.asarray(values, dtype=np.float64)


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


def _child_counts(el: etree._Element, cache: dict) -> tuple[int, int, int]:
    found = cache.get(el)
    if found is None:
        n = p = li = 0
        for child in el:
            tag = child.tag
            if isinstance(tag, str):
                n += 1
                if tag == "p":
                    p += 1
                elif tag == "li":
                    li += 1
        found = cache[el] = (n, p, li)
    return found


def paper_signals(page: Page, blocks: list[etree._Element],
                  link_density: dict[etree._Element, tuple[int, int, int, int]] | None = None
                  ) -> np.ndarray:
    """The papers' per-block signals (linkblocks, linkdensity, FAR-SW), see _PAPERS.

    ``link_density``: :attr:`Walk.link_density`, linkdensity's measures the walk counted
    already (None: ``linkdensity.node_stats`` counts them).
    """
    from .. import farsw, linkblocks

    n = len(blocks)
    out = np.full((n, len(_PAPERS)), -1.0)
    starts = np.asarray([page.span(b)[0] for b in blocks], dtype=np.int64)
    # seeds 000/001: logical link blocks over the raw HTML
    try:
        # only the link blocks are used: the main-text bridge (main_text) is skipped
        lb = linkblocks.extract(page, linkblocks.Params(main_text=False))
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
    for i, el in enumerate(blocks):
        ns = link_density.get(el)
        if ns is not None:  # NodeStats.ltd, .lad and the NTL
            text, link_text, links, nodes = ns
            out[i, 2] = link_text / text if text else 0.0
            out[i, 3] = links / nodes if nodes else 0.0
            out[i, 4] = math.log1p(text)
        parent = el.getparent()
        ps = link_density.get(parent) if parent is not None else None
        if ps is not None:
            text, link_text, links, nodes = ps
            out[i, 5] = link_text / text if text else 0.0
            out[i, 6] = links / nodes if nodes else 0.0
            out[i, 7] = math.log1p(text)
    # seed 004: FAR-SW line score (eq. 4) of the block's line and its window
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


def rules_signals(page: Page, blocks: list[etree._Element]) -> np.ndarray:
    """Whether ``auto-rules`` keeps each block, and whether it sits beside its choice."""
    from .. import auto_rules

    try:
        chosen, exclude, _stage = auto_rules.select(page, auto_rules.Params(with_html=False))
    except Exception:  # the rule-based extractor failing must not lose the page
        return np.zeros((len(blocks), 2))
    return rules_columns(blocks, chosen, exclude)


def rules_columns(blocks: list[etree._Element], chosen: list[etree._Element],
                  exclude: set[etree._Element]) -> np.ndarray:
    """``rules_main`` and ``rules_container`` of each block, given auto-rules' choice."""
    out = np.zeros((len(blocks), 2))
    chosen_set = set(chosen)
    parents = {c.getparent() for c in chosen if c.getparent() is not None}
    # Going up from a block: an excluded element ends the search, a chosen one makes it
    # kept, a chosen one's parent on the way puts it beside. The answer for an element is
    # its own test and its parent's answer, so each element is tested once per page.
    answers: dict[etree._Element, tuple[int, int]] = {}
    for i, el in enumerate(blocks):
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
        out[i] = answer
    return out


_ASCII_PUNCT = b".,;:!?"  # _PUNCT's ASCII members
_ASCII_DIGITS = b"0123456789"  # the ASCII characters str.isdigit accepts
_ASCII_UPPER = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # the ASCII characters str.isupper accepts


def _char_counts(text: str) -> tuple[int, int, int]:
    """Punctuation marks (:data:`_PUNCT`), digits and upper-case letters of ``text``; an
    ASCII text (most) is counted by deleting bytes, not by a call per character."""
    if text.isascii():
        raw = text.encode("ascii")
        size = len(raw)
        return (size - len(raw.translate(None, _ASCII_PUNCT)),
                size - len(raw.translate(None, _ASCII_DIGITS)),
                size - len(raw.translate(None, _ASCII_UPPER)))
    return (len(_PUNCT.findall(text)), sum(map(str.isdigit, text)),
            sum(map(str.isupper, text)))


#: ASCII bytes to ``a`` (a word character, ``\w``) or a space (any other).
_ASCII_WORD_MAP = bytes(ord("a") if chr(b).isalnum() or b == ord("_") else ord(" ")
                        for b in range(128)) + b" " * 128


def _word_counts(text: str) -> tuple[int, int]:
    """The words of ``text`` (:data:`WORD_RE`) and their characters; an ASCII text (most) is
    counted on its bytes mapped to word / other, without a list of its words."""
    if text.isascii():
        marks = text.encode("ascii").translate(_ASCII_WORD_MAP)
        return marks.count(b" a") + (marks[:1] == b"a"), marks.count(b"a")
    words = WORD_RE.findall(text)
    return len(words), sum(map(len, words))


def window_mean(values: np.ndarray, radius: int) -> np.ndarray:
    """Mean of each value and its ``radius`` neighbours on each side (fewer at the edges)."""
    n = len(values)
    cum = np.concatenate([[0.0], np.cumsum(values)])
    lo = np.clip(np.arange(n) - radius, 0, n)
    hi = np.clip(np.arange(n) + radius + 1, 0, n)
    return (cum[hi] - cum[lo]) / (hi - lo)


def compute(page: Page, *, papers: bool = True, rules: bool = True,
            recurrence: dict[str, float] | None = None) -> Blocks:
    """Blocks of ``page`` with text, and their feature matrix (rows in document order)."""
    w = walk(page)
    keep = [i for i, p in enumerate(w.pieces) if p]
    texts_all = [_text(w.pieces[i], keep_newlines=w.blocks[i].tag == "pre") for i in keep]
    sel = [k for k, t in zip(keep, texts_all) if t]
    texts = [t for t in texts_all if t]
    blocks = [w.blocks[i] for i in sel]
    n = len(blocks)
    if not n:
        return Blocks()
    feats = np.full((n, len(FEATURE_NAMES)), -1.0)
    col = FEATURE_INDEX
    chars = np.asarray([len(t) for t in texts], dtype=np.float64)
    link_chars = np.asarray([w.link_chars[i] for i in sel], dtype=np.float64)
    link_share = np.minimum(link_chars / np.maximum(chars, 1), 1.0)
    sentences = np.asarray([len(_SENTENCE_END.findall(t)) for t in texts], dtype=np.float64)
    words = [_word_counts(t) for t in texts]
    n_words = np.asarray([x[0] for x in words], dtype=np.float64)
    feats[:, col["own_chars"]] = np.log1p(chars)
    feats[:, col["own_words"]] = np.log1p(n_words)
    feats[:, col["own_link_chars"]] = np.log1p(link_chars)
    feats[:, col["own_link_share"]] = link_share
    feats[:, col["own_links"]] = [w.links[i] for i in sel]
    feats[:, col["own_commas"]] = [t.count(",") for t in texts]
    feats[:, col["own_sentences"]] = sentences
    counts = np.asarray([_char_counts(t) for t in texts], dtype=np.float64)
    feats[:, col["own_punct_share"]] = counts[:, 0] / chars
    feats[:, col["own_digits_share"]] = counts[:, 1] / chars
    feats[:, col["own_upper_share"]] = counts[:, 2] / chars
    feats[:, col["own_avg_word"]] = [(size / count) if count else 0.0 for count, size in words]
    feats[:, col["own_inline_children"]] = [w.inline_children[i] for i in sel]
    sib_cache: dict = {}
    child_cache: dict = {}
    stats = w.stats
    empty = ElementStat()
    contexts = [w.context[i] for i in sel]
    # containers 1-3 levels up: one row of 11 values per distinct element, then gathered
    container_at: dict[etree._Element, int] = {}
    container_rows: list[tuple] = []
    at_level: list[list[int]] = [[], [], []]  # per level, each block's row (-1: none)
    for ctx in contexts:
        ancestors = ctx[0]
        for k in range(3):
            if k >= len(ancestors):
                at_level[k].append(-1)
                continue
            el = ancestors[k]
            at = container_at.get(el)
            if at is None:
                st = stats.get(el, empty)
                nch, np_, nli = _child_counts(el, child_cache)
                at = container_at[el] = len(container_rows)
                container_rows.append((
                    TAG_CODES.get(el.tag, 0), math.log1p(st.chars),
                    st.link_chars / st.chars if st.chars else 0, math.log1p(st.blocks), nch,
                    st.depth_below, _sibling_counts(el, sib_cache), np_, nli,
                    st.heading_blocks, st.chars))
            at_level[k].append(at)
    table = np.asarray(container_rows, dtype=np.float64).reshape(-1, len(_CONTAINER))
    for k in (1, 2, 3):
        at = np.asarray(at_level[k - 1], dtype=np.intp)
        has = at >= 0
        rows_k = np.full((n, len(_CONTAINER)), -1.0)
        found = table[at[has]]
        rows_k[has, :10] = found[:, :10]
        container_chars = found[:, 10]
        share = np.zeros(len(found))
        np.divide(chars[has], container_chars, out=share, where=container_chars != 0)
        rows_k[has, 10] = share
        first = col[f"up{k}_tag"]
        feats[:, first:first + len(_CONTAINER)] = rows_k
    landmarks = np.asarray([c[1] for c in contexts], dtype=np.int64)
    hints_any = np.asarray([c[2] for c in contexts], dtype=np.int64)
    near = np.asarray([c[3] for c in contexts], dtype=np.int64)
    hb = np.asarray([c[4] for c in contexts], dtype=np.int64)
    for j, name in enumerate(_LANDMARK_TAGS):
        feats[:, col[f"in_{name}"]] = (landmarks >> j) & 1
    for j, name in enumerate(_ROLES):
        feats[:, col[f"role_{name}"]] = (landmarks >> (len(_LANDMARK_TAGS) + j)) & 1
    for j, name in enumerate(_HINT_NAMES):
        feats[:, col[f"hint_{name}_self"]] = (hb >> j) & 1
        feats[:, col[f"hint_{name}_near"]] = (near >> j) & 1
        feats[:, col[f"hint_{name}_any"]] = (hints_any >> j) & 1
    feats[:, col["hidden"]] = [float(c[5]) for c in contexts]
    feats[:, col["itemprop_body"]] = [float(c[6]) for c in contexts]
    feats[:, col["heading_level"]] = [int(b.tag[1]) if b.tag in _HEADINGS else 0
                                      for b in blocks]
    feats[:, col["is_link_only"]] = (link_share > 0.99).astype(float)
    feats[:, col["depth"]] = [c[7] for c in contexts]
    cum = np.cumsum(chars) - chars
    total = chars.sum()
    feats[:, col["pos_chars"]] = cum / total if total else 0
    feats[:, col["pos_blocks"]] = np.arange(n) / max(n - 1, 1)
    tags = [b.tag for b in blocks]
    first_h1 = next((r for r, t in enumerate(tags) if t == "h1"), n)
    last_h = max((r for r, t in enumerate(tags) if t in _HEADINGS), default=-1)
    feats[:, col["after_h1"]] = (np.arange(n) >= first_h1).astype(float)
    feats[:, col["before_last_h"]] = (np.arange(n) < last_h).astype(float)
    log_chars = np.log1p(chars)
    feats[1:, col["prev_chars"]] = log_chars[:-1]
    feats[:-1, col["next_chars"]] = log_chars[1:]
    feats[1:, col["prev_link_share"]] = link_share[:-1]
    feats[:-1, col["next_link_share"]] = link_share[1:]
    feats[:, col["win_link_share"]] = window_mean(link_share, 3)
    feats[:, col["win_chars"]] = window_mean(log_chars, 3)
    feats[:, col["win_sentences"]] = window_mean(sentences, 3)
    parents = [b.getparent() for b in blocks]
    run = np.ones(n)
    for r in range(1, n):
        if parents[r] is parents[r - 1]:
            run[r] = run[r - 1] + 1
    for r in range(n - 2, -1, -1):
        if parents[r] is parents[r + 1]:
            run[r] = run[r + 1]
    feats[:, col["run_same_parent"]] = run
    page_feats = _page_level(page, w, texts, chars)
    for j, name in enumerate(_PAGE):
        feats[:, col[name]] = page_feats[j]
    if papers:
        paper = paper_signals(page, blocks, w.link_density)
        for j, name in enumerate(_PAPERS):
            feats[:, col[name]] = paper[:, j]
    if recurrence is not None:
        for r, el in enumerate(blocks):
            feats[r, col["cl_recurrence"]] = recurrence.get(page.xpath(el), 0.0)
    if rules:
        rl = rules_signals(page, blocks)
        feats[:, col["rules_main"]] = rl[:, 0]
        feats[:, col["rules_container"]] = rl[:, 1]
    return Blocks(blocks, texts, feats, page_feats)

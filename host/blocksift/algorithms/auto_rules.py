"""auto-rules: the hand-tuned readability-style extractor that was ``auto`` before the learned
segmenter (see docs/auto.md); the segmenter uses its choice as a feature and a fallback.

The core is the content-scoring search of Mozilla Readability (readability.js
``_grabArticle`` / ``_prepArticle``; readability-lxml ports the same algorithm), done
without mutating the shared ``page.tree``:

1. one bottom-up pass (:func:`_measure`) measures every kept element: visible characters,
   link characters, commas, paragraphs, images, list items, inputs, embeds, heading text;
   "unlikely" elements (readability's class/id list, ``_isProbablyVisible``) are pruned;
2. paragraphs (``p``, ``pre``, ``td``, ``section``, ``h2``-``h6`` and divs without block
   children, readability's DEFAULT_TAGS_TO_SCORE and div-to-p rule) give
   ``1 + commas + min(len / 100, 3)`` points to five levels of ancestors (divided by 1, 2,
   then 3 x level); a candidate starts from its tag bonus and class weight (+-25);
3. the best candidate x ``(1 - link density)`` wins, promoted to a common ancestor of
   near-equal candidates, to a better-scored parent, and from an only child to its parent;
4. siblings join it when they score 20 % of the top, or read as clean prose;
5. a second bottom-up pass over the chosen elements (:func:`_clean_content`) decides
   readability's "clean conditionally" rules into an *exclude set* that rendering skips
   (readability mutates the DOM in reverse order to the same effect).

Departures, each a named parameter measured by the ablation in docs/auto.md:

* landmarks (``nav``, ``aside``, ``footer``, ``role=navigation|complementary``) and comment
  sections are pruned before scoring (``prune_landmarks``, ``include_comments``);
* lists whose text is mostly links are link blocks and leave the content
  (``list_link_density``; readability.js exempts lists); layout cells (``td``) are judged
  by their links alone, so a navigation column leaves a table layout;
* the page itself never wins when one element below it holds most of its prose, and
  candidates enclosing the top one do not vote for a common ancestor (``disjoint_votes``);
* the top candidate climbs to a better-scored parent only when the text the parent adds is
  not mostly links (``climb_link_density``): a story column must not pull in the teaser
  column beside it;
* short blocks without a sentence end, or mostly links, are trimmed from the end of the
  content (``trim_edges``; jusText's short / link-dense classes);
* the headline (the ``<h1>`` before the content that is the title) leads the text
  (``prepend_headline``); the title is the content's visible headline where there is one,
  else ``<title>`` without the site name, checked against ``og:title`` and ``<h1>``
  (readability.js ``_getArticleTitle``, :func:`extract_title`);
* linkblocks' logical link blocks (seeds 000/001) can prune elements (``link_blocks``); off
  by default because they cut F1 by 0.4 (their spans cover article text).

Fallback ladder (``ExtractionResult.stage``), in order, each tried only when the previous one
gave less than ``Params.min_text_length`` characters; when none reaches it, the strictest
stage that found any text wins (``Params.short_fallback``):

1. ``strict``        -- unlikely candidates stripped, class weights, conditional cleaning;
2. ``keep-unlikely`` -- unlikely candidates kept (readability's FLAG_STRIP_UNLIKELYS off);
3. ``no-weights``    -- class/id weights off as well (FLAG_WEIGHT_CLASSES off);
4. ``no-cleaning``   -- conditional cleaning off as well (FLAG_CLEAN_CONDITIONALLY off);
5. ``body``          -- nothing scored: the whole visible body, landmarks pruned;
6. ``empty``         -- the page has no visible text (status ``empty``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from lxml import etree
from pydantic import BaseModel, ConfigDict, Field

from ..content import BLOCK_TAGS, NON_TEXT_TAGS, render_main
from ..page import Page
from ..rawscan import STAMP_ATTR
from ..speedups import compiled
from ..wire.results import Block, ExtractionResult, MainText

NAME = "auto-rules"
MODEL = None


class Params(BaseModel):
    """Parameters of ``auto``; defaults are readability.js values unless said otherwise."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    include_comments: bool = Field(
        False, description="Keep user-comment sections (trafilatura's include_comments; the "
                           "dev sets' gold leaves comments out, so off by default)")
    include_tables: bool = Field(
        True, description="Keep data tables in the main text (trafilatura's include_tables)")
    include_images: bool = Field(
        True, description="Keep images (lazy sources resolved) in the reader-view HTML")
    favor_precision: bool = Field(
        False, description="Stricter pruning: link-density limits halved, short siblings "
                           "dropped (trafilatura's favor_precision)")
    favor_recall: bool = Field(
        False, description="Looser pruning: conditional cleaning only removes link-heavy "
                           "blocks (trafilatura's favor_recall)")
    min_text_length: int = Field(
        250, ge=0, description="Characters below which the next ladder stage is tried "
                               "(readability-lxml retry_length = 250; readability.js uses "
                               "500, which measured worse on dragnet, docs/auto.md)")
    disjoint_votes: bool = Field(
        True, description="Only candidates outside the top one's ancestors vote for a "
                          "common ancestor (readability.js counts all top candidates; "
                          "blocksift, docs/auto.md)")
    link_blocks: Literal["off", "prune", "content"] = Field(
        "off", description="Use linkblocks' logical link blocks (seeds 000/001, paper "
                           "defaults): 'prune' drops elements wholly inside one before "
                           "scoring, 'content' only inside the chosen content, 'off' not at "
                           "all (ablation in docs/auto.md)")
    short_fallback: Literal["first", "longest"] = Field(
        "first", description="When no ladder stage reaches min_text_length: keep the "
                             "strictest stage with text ('first', as readability-lxml keeps "
                             "its retry) or the longest attempt ('longest', readability.js)")
    n_top_candidates: int = Field(
        5, ge=1, le=50, description="Top candidates compared when looking for a common "
                                    "ancestor (readability.js DEFAULT_N_TOP_CANDIDATES = 5)")
    prune_landmarks: bool = Field(
        True, description="Drop <nav>, <aside>, <footer>, role=navigation/complementary and "
                          "hidden elements before scoring (blocksift; ablation in docs/auto.md)")
    prepend_headline: bool = Field(
        True, description="Put the <h1> headline before the text when the chosen container "
                          "starts after it (blocksift; ablation in docs/auto.md)")
    trim_edges: bool = Field(
        True, description="Drop short unpunctuated or link-dense blocks at the end of the "
                          "content (share bars, comment counts; blocksift, jusText-like)")
    list_link_density: float = Field(
        0.5, ge=0, le=1.01, description="Lists inside the content whose link text share "
                                       "exceeds this are link blocks and dropped (1.01 = "
                                       "readability.js, which exempts lists; blocksift)")
    protect_data_tables: bool = Field(
        True, description="Never clean inside a table marked up as data (th, caption, "
                          "summary, col; readability.js _cleanConditionally keeps data "
                          "tables whole); False judges its cells like any element")
    climb_link_density: float = Field(
        0.5, ge=0, le=1.01, description="The top candidate climbs to a better-scored parent "
                                       "only when the text the parent adds has a link share "
                                       "at most this (1.01 = readability.js, which climbs "
                                       "into navigation columns; blocksift)")
    with_html: bool = Field(True, description="Also render the sanitized reader-view HTML")
    main_text: bool = Field(
        True, description="Render the main text; False returns the 'main' blocks only (the "
                          "host sets it for blocks-only requests)")


# -- readability.js regular expressions (REGEXPS) -------------------------------------------
_UNLIKELY = re.compile(
    r"-ad-|ai2html|banner|breadcrumbs|combx|community|cover-wrap|extra|footer|gdpr|header|"
    r"legends|menu|related|remark|rss|shoutbox|sidebar|skyscraper|social|sponsor|"
    r"supplemental|ad-break|agegate|pagination|pager|popup|yom-remote", re.I)
_COMMENTS = re.compile(r"comment|disqus|replies|respond|discuss", re.I)
_MAYBE = re.compile(r"and|article|body|column|content|main|mathjax|shadow", re.I)
_POSITIVE = re.compile(
    r"article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story",
    re.I)
_NEGATIVE = re.compile(
    r"-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|"
    r"masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|"
    r"sponsor|shopping|tags|widget", re.I)
_SHARE = re.compile(r"(\b|_)(share|sharedaddy)(\b|_)", re.I)
_CALL_TO_ACTION = re.compile(r"^\s*(?:sign up|subscribe|download|get the latest)\b", re.I)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_COMMA_CHARS = ",\u060c\ufe50\ufe10\ufe11\u2e41\u2e34\u2e32\uff0c"
_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f]( |$)")


class _Found(dict):
    """Whether a pattern occurs in a string, memoized per string: class/id and style values
    repeat across a page's elements and across the ladder's stages."""

    def __init__(self, pattern: re.Pattern[str]):
        super().__init__()
        self._search = pattern.search
        # the patterns are lower case: on lower-cased ASCII text the case-sensitive form
        # finds the same, several times faster
        self._search_lower = re.compile(pattern.pattern).search

    def __missing__(self, text: str) -> bool:
        if len(self) > 20000:  # bound the memo
            self.clear()
        if text.isascii():
            found = self._search_lower(text.lower()) is not None
        else:
            found = self._search(text) is not None
        self[text] = found
        return found


_IS_UNLIKELY = _Found(_UNLIKELY)
_IS_COMMENTS = _Found(_COMMENTS)
_IS_MAYBE = _Found(_MAYBE)
_IS_POSITIVE = _Found(_POSITIVE)
_IS_NEGATIVE = _Found(_NEGATIVE)
_IS_SHARE = _Found(_SHARE)
_IS_HIDDEN_STYLE = _Found(_HIDDEN_STYLE)

#: ``keys()`` of an element carrying only the host's ordinal stamp (no class, role, ...).
_STAMP_ONLY = [STAMP_ATTR]
_UNLIKELY_ROLES = frozenset({"menu", "menubar", "complementary", "navigation", "alert",
                             "alertdialog", "dialog"})
_LANDMARK_TAGS = frozenset({"nav", "aside", "footer"})
#: readability.js DIV_TO_P_ELEMS: a div holding none of these reads as a paragraph.
_DIV_TO_P = frozenset({"blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"})
_DIVLIKE = frozenset({"div", "section", "article", "main", "center", "font", "span"})
#: readability.js DEFAULT_TAGS_TO_SCORE.
_SCORE_TAGS = frozenset({"section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_EMBEDS = frozenset({"object", "embed", "iframe"})
_ALWAYS_DROP_IN_CONTENT = frozenset({"object", "embed", "footer", "link", "aside", "iframe",
                                     "input", "textarea", "select", "button", "nav", "form"})
_CONDITIONAL = frozenset({"form", "fieldset", "table", "ul", "ol", "div", "section", "dl", "td",
                          "header"})


@dataclass(slots=True)
class _Stat:
    """Measurements of one element's kept subtree (characters are whitespace-collapsed)."""

    text: int = 0        # visible characters
    links: int = 0       # characters inside <a>
    commas: int = 0
    inline: int = 0      # characters not inside a block-level child (readability's p runs)
    inline_commas: int = 0
    block_desc: bool = False  # holds a DIV_TO_P element somewhere below
    p: int = 0
    img: int = 0
    li: int = 0
    li_text: int = 0
    inputs: int = 0
    embeds: int = 0
    heading_text: int = 0
    children: int = 0

    def add_child(self, child: _Stat) -> None:
        """Count a closed child's subtree into this element's."""
        self.text += child.text
        self.links += child.links
        self.commas += child.commas
        self.p += child.p
        self.img += child.img
        self.li += child.li
        self.li_text += child.li_text
        self.inputs += child.inputs
        self.embeds += child.embeds
        self.heading_text += child.heading_text
        self.children += 1


def _closed(st: _Stat, tag: str) -> _Stat:
    """Count what element ``tag`` itself adds to its subtree's measurements at its end."""
    if tag == "a":
        st.links = st.text
    elif tag == "p":
        st.p += 1
    elif tag == "img":
        st.img += 1
    elif tag == "li":
        st.li += 1
        st.li_text += st.text
    elif tag == "input":
        st.inputs += 1
    elif tag in _EMBEDS:
        st.embeds += 1
    elif tag in _HEADINGS:
        st.heading_text = st.text
    return st


def _tlen_python(text: str | None) -> tuple[int, int]:
    """The whitespace-collapsed length of ``text`` and its commas (counted only when it
    holds a comma of the three common kinds)."""
    if not text:
        return 0, 0
    words = text.split()
    if not words:
        return 0, 0
    n = sum(map(len, words)) + len(words) - 1
    commas = sum(map(text.count, _COMMA_CHARS)) if ("," in text or "\uff0c" in text
                                                    or "\u060c" in text) else 0
    return n, commas


#: ``_tlen_python`` compiled (``_auto_rules.pyx``), the same numbers; where it was not built,
#: the Python function.
_compiled_text = compiled("blocksift.algorithms._auto_rules", ("text_length_and_commas",))
_tlen = _compiled_text.text_length_and_commas if _compiled_text is not None else _tlen_python


def _class_id(el: etree._Element) -> str:
    return f"{el.get('class') or ''} {el.get('id') or ''}"


def _is_hidden(el: etree._Element) -> bool:
    """readability.js ``_isProbablyVisible``, negated."""
    style = el.get("style")
    if style and _IS_HIDDEN_STYLE[style]:
        return True
    if el.get("hidden") is not None:
        return True
    return el.get("aria-hidden") == "true" and "fallback-image" not in (el.get("class") or "")


@dataclass
class _Flags:
    strip_unlikely: bool = True
    weight_classes: bool = True
    clean_conditionally: bool = True


@dataclass
class _Analysis:
    stats: dict[etree._Element, _Stat] = field(default_factory=dict)
    pruned: set[etree._Element] = field(default_factory=set)


def _measure_python(root: etree._Element, prune) -> _Analysis:
    """One bottom-up pass over ``root``: a :class:`_Stat` per kept element.

    ``prune(el) -> bool`` drops an element's subtree (its tail text still counts).
    """
    analysis = _Analysis()
    stats = analysis.stats
    stack: list[_Stat] = []
    skipped: set[etree._Element] = set()
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if event == "start":
            if not isinstance(tag, str) or tag in NON_TEXT_TAGS or (el is not root and prune(el)):
                walker.skip_subtree()
                skipped.add(el)
                if isinstance(tag, str) and tag not in NON_TEXT_TAGS:
                    analysis.pruned.add(el)
                continue
            st = _Stat()
            n, c = _tlen(el.text)
            st.text = st.inline = n
            st.commas = st.inline_commas = c
            stack.append(st)
            continue
        # end event
        if el in skipped:
            parent_stat = stack[-1] if stack else None
        else:
            st = _closed(stack.pop(), tag)
            stats[el] = st
            parent_stat = stack[-1] if stack else None
            if parent_stat is not None:
                parent_stat.add_child(st)
                if tag in _DIV_TO_P or st.block_desc:
                    parent_stat.block_desc = True
                else:
                    parent_stat.inline += st.text
                    parent_stat.inline_commas += st.commas
        if parent_stat is not None and el is not root:
            n, c = _tlen(el.tail)
            if n:
                parent_stat.text += n
                parent_stat.inline += n
                parent_stat.commas += c
                parent_stat.inline_commas += c
    return analysis


#: What the compiled loops (``_auto_rules.pyx``) need of an element's tag, as its bits there:
#: skipped (NON_TEXT_TAGS), DIV_TO_P, and what :func:`_closed` counts (``table``: the
#: cleaning pass's data tables).
_TAG_BITS = ((1, NON_TEXT_TAGS), (2, _DIV_TO_P), (4, {"a"}), (8, {"p"}), (16, {"img"}),
             (32, {"li"}), (64, {"input"}), (128, _EMBEDS), (256, _HEADINGS), (512, {"table"}))
_TAG_CODES: dict[str, int] = {
    tag: sum(bit for bit, tags in _TAG_BITS if tag in tags)
    for tag in set().union(*(tags for _bit, tags in _TAG_BITS))}

#: The measuring and cleaning loops compiled (``_auto_rules.pyx``): the same walk, callbacks
#: and measures, each element's in a C struct (``Stat``) with :class:`_Stat`'s fields;
#: where they were not built, the Python functions.
_compiled_loops = compiled("blocksift.algorithms._auto_rules", ("measure", "clean_content"))


def _measure_compiled(root: etree._Element, prune) -> _Analysis:
    """:func:`_measure_python`, compiled."""
    analysis = _Analysis()
    _compiled_loops.measure(root, prune, analysis.stats, analysis.pruned, _TAG_CODES)
    return analysis


_measure = _measure_compiled if _compiled_loops is not None else _measure_python


def _class_weight(el: etree._Element, flags: _Flags) -> int:
    """readability.js ``_getClassWeight``."""
    if not flags.weight_classes:
        return 0
    weight = 0
    for value in (el.get("class"), el.get("id")):
        if value:
            if _IS_NEGATIVE[value]:
                weight -= 25
            if _IS_POSITIVE[value]:
                weight += 25
    return weight


_TAG_BONUS = {"div": 5, "pre": 3, "td": 3, "blockquote": 3, "address": -3, "ol": -3, "ul": -3,
              "dl": -3, "dd": -3, "dt": -3, "li": -3, "form": -3, "h1": -5, "h2": -5, "h3": -5,
              "h4": -5, "h5": -5, "h6": -5, "th": -5}


def _link_density(st: _Stat) -> float:
    return st.links / st.text if st.text else 0.0


def _score_candidates(analysis: _Analysis, flags: _Flags) -> dict[etree._Element, float]:
    """readability.js ``_grabArticle``: paragraphs give points to five levels of ancestors."""
    scores: dict[etree._Element, float] = {}
    for el, st in analysis.stats.items():
        tag = el.tag
        if tag in _SCORE_TAGS or (tag in _DIVLIKE and not st.block_desc):
            length, commas, first = st.text, st.commas, el.getparent()
        elif tag in _DIVLIKE and st.inline >= 25:
            # a div mixing inline text with blocks: readability wraps the runs in <p>
            length, commas, first = st.inline, st.inline_commas, el
        else:
            continue
        if length < 25 or first is None:
            continue
        points = 1 + commas + min(length // 100, 3)
        ancestor, level = first, 0
        while ancestor is not None and level < 5:
            parent = ancestor.getparent()
            if parent is None or ancestor not in analysis.stats:
                break
            if ancestor not in scores:
                scores[ancestor] = _TAG_BONUS.get(ancestor.tag, 0) + _class_weight(ancestor,
                                                                                   flags)
            scores[ancestor] += points / (1 if level == 0 else 2 if level == 1 else level * 3)
            ancestor, level = parent, level + 1
    for el in scores:
        scores[el] *= 1 - _link_density(analysis.stats[el])
    return scores


def _added_link_density(analysis: _Analysis, parent: etree._Element,
                        child: etree._Element) -> float:
    """Link share of the text ``parent`` holds beyond ``child`` (its descendant)."""
    outer, inner = analysis.stats[parent], analysis.stats[child]
    added = outer.text - inner.text
    return (outer.links - inner.links) / added if added > 0 else 0.0


def _ancestors(el: etree._Element) -> list[etree._Element]:
    out = []
    parent = el.getparent()
    while parent is not None:
        out.append(parent)
        parent = parent.getparent()
    return out


def _content_root(page: Page) -> etree._Element:
    """``<body>``, or the ``<html>`` root when the parser left content after ``</body>``
    (pages with a stray ``</body>``: lxml appends what follows to the root)."""
    body = page.body
    return page.tree if body.getnext() is not None else body


def _pick_top(page: Page, analysis: _Analysis, scores: dict[etree._Element, float],
              params: Params) -> etree._Element | None:
    """Top candidate with readability.js's ancestor promotions (``_grabArticle``), except
    that a parent whose added text is mostly links is not climbed to."""
    if not scores:
        return None
    body = _content_root(page)
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    top, top_score = ranked[0]
    if top is body or top is page.body or top.tag == "html":
        # the page itself won: an element below it that holds most of its prose stands for
        # it (a class like "article" on <body> must not select the navigation too)
        ranked = [(el, s) for el, s in ranked if el is not body and el is not page.body
                  and el.tag != "html"]
        if not ranked:
            return None
        stats = analysis.stats
        prose = stats[top].text - stats[top].links
        top, top_score = ranked[0]
        if stats[top].text - stats[top].links < 0.5 * prose:
            return None
    if top_score <= 0:
        return None
    # several near-equal candidates under one ancestor: that ancestor is the article.
    # Departure: candidates enclosing the top one do not vote (they would always pull the
    # choice up to the page wrapper).
    top_ancestors = set(_ancestors(top))
    alternatives = [_ancestors(el) for el, s in ranked[1:params.n_top_candidates]
                    if s / top_score >= 0.75
                    and (not params.disjoint_votes or el not in top_ancestors)]
    if len(alternatives) >= 3:
        parent = top.getparent()
        while parent is not None and parent is not body:
            if sum(parent in anc for anc in alternatives) >= 3:
                top = parent
                break
            parent = parent.getparent()
    # climb while the parent scores higher (readability.js lastScore loop)
    last = scores.get(top, 0.0)
    threshold = last / 3
    parent = top.getparent()
    while parent is not None and parent is not body:
        if parent not in scores:
            parent = parent.getparent()
            continue
        if scores[parent] < threshold:
            break
        if scores[parent] > last:
            if _added_link_density(analysis, parent, top) <= params.climb_link_density:
                top = parent
            break
        last = scores[parent]
        parent = parent.getparent()
    # an only child stands for its parent
    parent = top.getparent()
    while parent is not None and parent is not body and len(parent) == 1 and \
            parent in analysis.stats:
        top, parent = parent, parent.getparent()
    return top


def _siblings(analysis: _Analysis, scores: dict[etree._Element, float],
              top: etree._Element, params: Params) -> list[etree._Element]:
    """readability.js sibling join: siblings as good as 20 % of the top, or clean prose."""
    parent = top.getparent()
    if parent is None:
        return [top]
    top_score = scores.get(top, 0.0)
    threshold = max(10.0, top_score * 0.2)
    top_class = top.get("class") or ""
    chosen = []
    for sibling in parent:
        if sibling is top:
            chosen.append(sibling)
            continue
        st = analysis.stats.get(sibling)
        if st is None or not isinstance(sibling.tag, str):
            continue
        bonus = top_score * 0.2 if top_class and sibling.get("class") == top_class else 0.0
        if sibling in scores and scores[sibling] + bonus >= threshold:
            chosen.append(sibling)
            continue
        is_p = sibling.tag == "p" or (sibling.tag in _DIVLIKE and not st.block_desc)
        if not is_p or params.favor_precision:
            continue
        density = _link_density(st)
        if st.text > 80 and density < 0.25:
            chosen.append(sibling)
        elif 0 < st.text <= 80 and density == 0 and \
                _SENTENCE_END.search(" ".join((sibling.text_content() or "").split())):
            chosen.append(sibling)
    return chosen


def _is_marked_data_table(table: etree._Element) -> bool:
    """A table whose markup says it holds data: header cells, caption, summary, col groups."""
    if table.get("role") == "presentation" or table.get("datatable") == "0":
        return False
    if table.get("summary"):
        return True
    caption = table.find("caption")
    if caption is not None and caption.text_content().strip():
        return True
    return bool(table.xpath(".//col|.//colgroup|.//tfoot|.//thead|.//th"))


def _is_data_table(table: etree._Element, st: _Stat) -> bool:
    """readability.js ``_markDataTables``."""
    if table.get("role") == "presentation" or table.get("datatable") == "0":
        return False
    if table.get("summary"):
        return True
    caption = table.find("caption")
    if caption is not None and len(caption.text_content().strip()) > 0:
        return True
    if table.xpath(".//col|.//colgroup|.//tfoot|.//thead|.//th"):
        return True
    if table.xpath(".//table"):
        return False
    rows = table.xpath("./tr|./tbody/tr|./thead/tr|./tfoot/tr")
    columns = max((len(row.xpath("./td|./th")) for row in rows[:20]), default=0)
    return len(rows) >= 10 or columns > 4 or len(rows) * columns > 10


def _content_pruner(params: Params, flags: _Flags):
    """Which elements inside the chosen container are boilerplate (readability
    ``_prepArticle``: ``_clean`` of embeds and forms, share widgets, negative headers and
    ``_cleanConditionally``), as a decision made bottom-up on the kept subtree."""
    ld_limit_weak, ld_limit_strong = (0.1, 0.25) if params.favor_precision else (0.2, 0.5)
    list_limit = params.list_link_density

    def always(el: etree._Element) -> bool:
        tag = el.tag
        if tag in _ALWAYS_DROP_IN_CONTENT:
            return True
        keys = el.keys()
        if not keys or keys == _STAMP_ONLY:  # no style, class or id to test
            return False
        if _is_hidden(el):
            return True
        ci = _class_id(el)
        if not params.include_comments and _IS_COMMENTS[ci] and not _IS_MAYBE[ci]:
            return True
        if tag in _HEADINGS and _class_weight(el, flags) < 0:
            return True
        return False

    def conditional(el: etree._Element, st: _Stat, in_data_table: bool) -> bool:
        tag = el.tag
        if tag == "table":
            if _is_data_table(el, st):
                return not params.include_tables
        if in_data_table:
            return False
        if tag == "p":
            return _link_density(st) > 0.2 and bool(_CALL_TO_ACTION.match(
                " ".join(el.text_content().split())))
        if _IS_SHARE[_class_id(el)] and st.text < 500:
            return True
        if not flags.clean_conditionally or tag not in _CONDITIONAL:
            return False
        weight = _class_weight(el, flags)
        if weight < 0:
            return True
        if st.commas >= 10:
            return False
        is_list = tag in ("ul", "ol") or (st.text and st.li_text / st.text > 0.9)
        density = _link_density(st)
        if params.favor_recall or tag == "td":
            # a layout cell is judged by its links alone: a navigation column (blocksift)
            return density > 0.5 and weight < 25
        heading_density = st.heading_text / st.text if st.text else 0.0
        li = st.li - 100
        remove = (
            (st.img > 1 and st.p / st.img < 0.5)
            or (not is_list and li > st.p)
            or (st.inputs > st.p // 3)
            or (not is_list and heading_density < 0.9 and st.text < 25
                and (st.img == 0 or st.img > 2))
            or (weight < 25 and density > (ld_limit_weak if not is_list else list_limit))
            or (weight >= 25 and density > ld_limit_strong)
            or (st.embeds == 1 and st.text < 75) or st.embeds > 1
        )
        if is_list and remove and st.img and st.children and st.img >= st.children:
            return False  # a list of images is content (readability keeps image galleries)
        return remove

    return always, conditional


def _clean_content(page: Page, elements: list[etree._Element], params: Params,
                   flags: _Flags, pruned: set[etree._Element] = frozenset()
                   ) -> tuple[set[etree._Element], int]:
    """The exclude set inside ``elements``, decided bottom-up so that an outer element is
    judged without the boilerplate already removed inside it (readability mutates the DOM in
    reverse order to the same effect). Also returns the characters kept. Cells of data
    tables are kept whole (readability ``_cleanConditionally``: inside a data table)."""
    always, conditional = _content_pruner(params, flags)
    return _clean_loop(elements, pruned, always, conditional, params.protect_data_tables)


def _clean_loop_python(elements: list[etree._Element], pruned, always, conditional,
                       protect_data_tables: bool) -> tuple[set[etree._Element], int]:
    """:func:`_clean_content`'s pass with its pruner's ``always(el)`` and
    ``conditional(el, st, in_data_table)``."""
    exclude: set[etree._Element] = set()
    kept_chars = 0
    for element in elements:
        stack: list[_Stat] = []
        tables: list[bool] = []
        data_table_depth = 0
        walker = etree.iterwalk(element, events=("start", "end"))
        skipped: set[etree._Element] = set()
        for event, el in walker:
            tag = el.tag
            if event == "start":
                if not isinstance(tag, str) or tag in NON_TEXT_TAGS or \
                        (el is not element and (el in pruned or always(el))):
                    walker.skip_subtree()
                    skipped.add(el)
                    if isinstance(tag, str) and tag not in NON_TEXT_TAGS:
                        exclude.add(el)
                    continue
                st = _Stat()
                st.text, st.commas = _tlen(el.text)
                stack.append(st)
                if tag == "table":
                    # only tables marked up as data (th, caption, ...) are protected: the
                    # size rule of _markDataTables also matches old layout tables
                    is_data = _is_marked_data_table(el)
                    tables.append(is_data)
                    data_table_depth += is_data and protect_data_tables
                continue
            if el in skipped:
                parent_stat = stack[-1] if stack else None
            else:
                st = _closed(stack.pop(), tag)
                if tag == "table":
                    data_table_depth -= tables.pop() and protect_data_tables
                inside_table = data_table_depth > 0
                drop = el is not element and conditional(el, st, inside_table)
                parent_stat = stack[-1] if stack else None
                if el is element:
                    kept_chars += st.text
                if drop:
                    exclude.add(el)
                elif parent_stat is not None:
                    parent_stat.add_child(st)
            if parent_stat is not None and el is not element:
                n, c = _tlen(el.tail)
                parent_stat.text += n
                parent_stat.commas += c
    return exclude, kept_chars


def _clean_loop_compiled(elements: list[etree._Element], pruned, always, conditional,
                         protect_data_tables: bool) -> tuple[set[etree._Element], int]:
    """:func:`_clean_loop_python`, compiled."""
    return _compiled_loops.clean_content(list(elements), pruned, always, conditional,
                                         _is_marked_data_table, protect_data_tables,
                                         _TAG_CODES)


_clean_loop = _clean_loop_compiled if _compiled_loops is not None else _clean_loop_python


#: ``<title>`` parts, a colon included ("Blog name: Post title"); a part counts only when a
#: heading of the page confirms it.
_TITLE_PARTS = re.compile(r"\s+[|\-\u2013\u2014\\/>\u00bb:]\s+|\s*[|\u00bb]\s*|:\s+|\s::\s")
_TITLE_SEPARATORS = re.compile(r"\s+[|\-\u2013\u2014\\/>\u00bb:]\s+|\s*[|\u00bb]\s*|_|\s::\s")


_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                        "\u2013": "-", "\u2014": "-"})


def _norm(text: str) -> str:
    """Whitespace collapsed, lower case, typographic quotes and dashes made plain."""
    return " ".join(text.split()).lower().translate(_QUOTES)


_WIDGET_LABEL = re.compile(r"(share|follow|subscribe|related|comments?|tags|advertisement)\b",
                           re.I)
_BYLINE = re.compile(r"(by|posted by|written by|von|par|por)\s", re.I)


def _heading_text(heading: etree._Element) -> str:
    return " ".join(heading.text_content().split())


def _is_headline_like(text: str) -> bool:
    """Long enough to be an article headline: three words, or four CJK characters."""
    return len(text.split()) >= 3 or len(_CJK_RE.findall(text)) >= 4


def _is_headline_heading(heading: etree._Element) -> str:
    """The heading's text when it can be a headline: not a byline ("By ..."), not a widget
    label ("Share this", "Related"), not a date header (class/id ``date``, as blog
    templates mark theirs), not in a sidebar/share/comment box (readability's classes)."""
    text = _heading_text(heading)
    if not text or _BYLINE.match(text) or _WIDGET_LABEL.match(text) or \
            "date" in _class_id(heading).lower():
        return ""
    parent = heading.getparent()
    for el in (heading, parent) if parent is not None else (heading,):
        if _IS_NEGATIVE[_class_id(el)] or _IS_UNLIKELY[_class_id(el)]:
            return ""
    return text


def _headings_before(page: Page, scope: etree._Element, first: int) -> list[tuple[str, str]]:
    """``(tag, text)`` of the ``h1``-``h3`` in ``scope`` before element ordinal ``first``
    that can be headlines (:func:`_is_headline_heading`), in document order."""
    found = []
    for heading in scope.iter("h1", "h2", "h3"):
        ordinal = page.ordinal(heading)
        if ordinal is None or ordinal >= first:
            break
        text = _is_headline_heading(heading)
        if text:
            found.append((heading.tag, text))
    return found


def _content_headline(page: Page, content: list[etree._Element] | None,
                      exclude: set[etree._Element] | frozenset = frozenset(),
                      title: str = "") -> str:
    """The visible headline of the chosen content: a kept heading that opens it (before 200
    characters of its text), else the last ``h1``-``h3`` just before it that reads as a
    headline (within its grandparent: a sidebar heading is none). The one before wins over
    a lower-ranked opening heading when it shares more words with ``title``: an ``<h1>``
    headline above a content that opens with an ``<h2>`` dek does, a logo ``<h1>`` not."""
    if not content:
        return ""
    opening: tuple[str, str] | None = None
    seen = 0
    walker = etree.iterwalk(content[0], events=("start",))
    for _event, node in walker:
        if not isinstance(node.tag, str) or node in exclude or node.tag in NON_TEXT_TAGS:
            walker.skip_subtree()
            continue
        if node.tag in ("h1", "h2", "h3"):
            text = _is_headline_heading(node)
            if text:
                opening = (node.tag, text)
                break
            walker.skip_subtree()
        seen += len((node.text or "").strip()) + len((node.tail or "").strip())
        if seen > 200:
            break
    before: tuple[str, str] | None = None
    first = page.ordinal(content[0])
    if first is not None and (opening is None or opening[0] != "h1"):
        parent = content[0].getparent()
        near = parent.getparent() if parent is not None and parent.getparent() is not None \
            else parent
        found = _headings_before(page, near if near is not None else content[0], first)
        before = found[-1] if found else None
    if before and title and not _is_headline_like(before[1]):
        before = None  # a short heading above the content: a site or section name
    if opening and before and before[0] < opening[0] and \
            _title_overlap(before[1], title) > _title_overlap(opening[1], title):
        return before[1]
    return (opening or before or ("", ""))[1]


def _title_overlap(text: str, title: str) -> float:
    """Share of the words of ``text`` that ``title`` holds too."""
    words = set(re.findall(r"\w+", _norm(text)))
    return len(words & set(re.findall(r"\w+", _norm(title)))) / len(words) if words else 0.0


_OG_TITLE = ".//meta[@property='og:title' or @name='og:title' or @name='twitter:title']/@content"


@dataclass
class TitleSources:
    """What :func:`extract_title` looks for in the whole tree, gathered by a pass over it that
    a caller makes anyway (the segmenter's page-level features): the same answers as its own
    searches, for that tree as it was then.

    Fed, in document order, every element of :data:`TAGS` below each child of ``root`` in
    turn (``in_head``: below the first ``<head>``; ``in_body``: below ``body``).
    """

    TAGS = ("title", "meta", "h1", "h2", "h3", "h4")

    root: etree._Element
    body: etree._Element | None
    headings: list[etree._Element] = field(default_factory=list)  # h1-h4
    body_headings: list[etree._Element] = field(default_factory=list)
    head_title: etree._Element | None = None  # the first <title> below the first <head>
    title: etree._Element | None = None  # the first anywhere
    head_og: str | None = None  # the first og:title / twitter:title content below <head>
    og: str | None = None  # the first anywhere

    def add(self, element: etree._Element, tag: str, in_head: bool, in_body: bool) -> None:
        if tag == "meta":
            if (element.get("property") == "og:title"
                    or element.get("name") in ("og:title", "twitter:title")):
                content = element.get("content")
                if content is not None:
                    if self.og is None:
                        self.og = content
                    if in_head and self.head_og is None:
                        self.head_og = content
        elif tag == "title":
            if self.title is None:
                self.title = element
            if in_head and self.head_title is None:
                self.head_title = element
        else:
            self.headings.append(element)
            if in_body:
                self.body_headings.append(element)

    def headings_below(self, root: etree._Element, tags: tuple[str, ...]
                       ) -> list[etree._Element] | None:
        """``root.iter(*tags)`` of a root the pass saw whole, else None."""
        found = (self.headings if root is self.root else
                 self.body_headings if root is self.body and root is not None else None)
        return None if found is None else [h for h in found if h.tag in tags]


def _headings(page: Page, tags: tuple[str, ...], sources: TitleSources | None
              ) -> list[etree._Element]:
    """The ``tags`` headings of :func:`_content_root`, in document order."""
    root = _content_root(page)
    found = sources.headings_below(root, tags) if sources is not None else None
    return list(root.iter(*tags)) if found is None else found


def _title_and_og_title(page: Page, sources: TitleSources | None = None) -> tuple[str, str]:
    """The first ``<title>``'s text and the first ``og:title`` (or ``twitter:title``), white
    space collapsed.

    Looked for in ``<head>`` first, which comes first in document order: a search of the
    whole tree is a step per element of a long page. Outside it only when the head has none,
    and for the meta tags only when the page's source names them at all. ``sources``: what a
    pass over ``page.tree`` found of them already.
    """
    tree = page.tree
    if sources is not None and sources.root is tree:
        found = sources.head_title if sources.head_title is not None else sources.title
        og = [sources.head_og] if sources.head_og is not None else []
        if not og and sources.og is not None and (
                "og:title" in page.raw or "twitter:title" in page.raw):
            og = [sources.og]
    else:
        head = tree.find("head")
        found = head.find(".//title") if head is not None else None
        if found is None:
            found = tree.find(".//title")
        og = head.xpath(_OG_TITLE) if head is not None else []
        if not og and ("og:title" in page.raw or "twitter:title" in page.raw):
            og = tree.xpath(_OG_TITLE)
    raw_title = " ".join((found.text_content() or "").split()) if found is not None else ""
    return raw_title, " ".join(og[0].split()) if og else ""


def extract_title(page: Page, content: list[etree._Element] | None = None,
                  exclude: set[etree._Element] | frozenset = frozenset(),
                  sources: TitleSources | None = None) -> str:
    """The article title (readability.js ``_getArticleTitle``, with ``og:title`` and the
    content's own headline).

    1. the headline that opens (or just precedes) the chosen content, when ``<title>``
       contains it (``<title>`` minus the site name) or when it reads as a headline (three
       words / four CJK characters): readers and gold texts start with the visible
       headline, and ``<title>`` is often the site name alone or a shorter SEO variant;
    2. an ``<h1>`` or ``og:title`` that ``<title>`` contains and that is the longer part
       of it (a section name in an ``<h1>`` is the shorter part);
    3. the page's only ``<h1>``, when it reads as a headline and ``<title>`` does not
       contain it (``<title>`` then holds an SEO variant of the headline); a part of
       ``<title>`` (colons split too) that a heading of the page repeats; when ``<title>``
       is only a site name (under three words), the last headline before the content;
    4. ``<title>`` cut at a site-name separator (``|``, `` - ``, ``»``...) when the kept
       part still reads as a headline; else ``<title>``, ``og:title``, the first ``<h1>``.

    ``sources``: the title elements and headings a pass over the page's tree found already
    (:class:`TitleSources`), so that none is looked for again.
    """
    raw_title, og_title = _title_and_og_title(page, sources)
    norm_title = _norm(raw_title)
    headline = _content_headline(page, content, exclude, raw_title)
    if headline and len(headline) >= 4 and (
            (norm_title and _norm(headline) in norm_title) or _is_headline_like(headline)):
        return headline
    h1s = [_heading_text(h) for h in _headings(page, ("h1",), sources)][:3]
    h1s = [h for h in h1s if h]
    for candidate in [*h1s, og_title]:
        norm_candidate = _norm(candidate)
        if len(candidate) >= 4 and norm_title and norm_candidate in norm_title and \
                norm_candidate != norm_title and 2 * len(norm_candidate) >= len(norm_title) - 3:
            return candidate
    if len(h1s) == 1 and _is_headline_like(h1s[0]) and _norm(h1s[0]) not in norm_title:
        return h1s[0]
    headings = {_norm(_heading_text(h)): h for h in
                _headings(page, ("h1", "h2", "h3", "h4"), sources)}
    for part in sorted(_TITLE_PARTS.split(raw_title), key=len, reverse=True):
        if _is_headline_like(part) and _norm(part) in headings:
            return part.strip()
    if not _is_headline_like(raw_title) and content and page.ordinal(content[0]) is not None:
        # <title> is only the site name: the last headline-like heading before the content
        headlines = [text for _tag, text in
                     _headings_before(page, _content_root(page), page.ordinal(content[0]))
                     if _is_headline_like(text)]
        if headlines:
            return headlines[-1]
    if raw_title:
        parts = [p for p in _TITLE_SEPARATORS.split(raw_title) if p and p.strip()]
        if len(parts) > 1:
            longest = max(parts, key=len).strip()
            if _is_headline_like(longest):
                return longest
        return raw_title
    if og_title:
        return og_title
    return h1s[0] if h1s else ""


def _unlikely_pruner(params: Params, flags: _Flags):
    def prune(el: etree._Element) -> bool:
        tag = el.tag
        keys = el.keys()
        if not keys or keys == _STAMP_ONLY:  # no role, style, class or id to test
            return params.prune_landmarks and tag in _LANDMARK_TAGS
        if params.prune_landmarks:
            if tag in _LANDMARK_TAGS or el.get("role") in _UNLIKELY_ROLES:
                return True
            if _is_hidden(el):
                return True
        ci = _class_id(el)
        if not params.include_comments and _IS_COMMENTS[ci] and not _IS_MAYBE[ci] \
                and tag not in ("body", "a", "html"):
            return True
        if flags.strip_unlikely and tag not in ("body", "a", "html") and \
                _IS_UNLIKELY[ci] and not _IS_MAYBE[ci]:
            return True
        return False

    return prune


@dataclass
class _Attempt:
    stage: str
    elements: list[etree._Element]
    exclude: set[etree._Element]
    text_length: int
    score: float


def _link_block_elements(page: Page) -> set[etree._Element]:
    """Elements lying wholly inside a logical link block (linkblocks, seed 000 §3)."""
    from . import linkblocks

    result = linkblocks.extract(page, linkblocks.Params())
    found: set[etree._Element] = set()
    for block in result.blocks:
        found.update(linkblocks.elements_within(page, block.start, block.end))
    return found


def _measured(page: Page, params: Params, strip_unlikely: bool,
              link_block_elements: set[etree._Element],
              cache: dict[tuple[bool, bool], _Analysis]) -> _Analysis:
    """:func:`_measure` of the content root with the pruner of ``strip_unlikely`` (and the
    link blocks, when they prune), each pruner's once per page: the ladder's later stages
    change only how the measures are scored, and its three without unlikely stripping
    measured the same tree alike (on a page of 400,000 elements, a second each)."""
    by_link_blocks = params.link_blocks == "prune" and bool(link_block_elements)
    key = (strip_unlikely, by_link_blocks)
    analysis = cache.get(key)
    if analysis is None:
        prune = _unlikely_pruner(params, _Flags(strip_unlikely=strip_unlikely))
        if by_link_blocks:
            base = prune

            def prune(el: etree._Element) -> bool:  # noqa: F811 - the link-block aware variant
                return el in link_block_elements or base(el)
        analysis = cache[key] = _measure(_content_root(page), prune)
    return analysis


def _attempt(page: Page, params: Params, flags: _Flags, stage: str,
             link_block_elements: set[etree._Element],
             cache: dict[tuple[bool, bool], _Analysis] | None = None) -> _Attempt | None:
    analysis = _measured(page, params, flags.strip_unlikely, link_block_elements,
                         {} if cache is None else cache)
    scores = _score_candidates(analysis, flags)
    top = _pick_top(page, analysis, scores, params)
    if top is None:
        return None
    elements = _siblings(analysis, scores, top, params)
    chosen = set(elements)
    inner_pruned = {el for el in analysis.pruned
                    if el not in chosen and any(a in chosen for a in _ancestors(el))}
    exclude, length = _clean_content(page, elements, params, flags, inner_pruned)
    if params.link_blocks == "content" and link_block_elements:
        exclude |= {el for el in link_block_elements if el not in chosen and
                    any(a in chosen for a in _ancestors(el))}
    if params.trim_edges:
        trimmed = _trim_edges(elements, exclude, params)
        exclude |= trimmed
        length -= sum(len(" ".join(el.text_content().split())) for el in trimmed)
    return _Attempt(stage, elements, exclude, length, scores.get(top, 0.0))


_BLOCK_LEAF_TAGS = BLOCK_TAGS - {"body", "html", "tbody", "thead", "tfoot", "tr"}


def _leaf_blocks(elements, exclude) -> list[etree._Element]:
    """Block-level elements of the kept content holding no block-level element, in order."""
    leaves: list[etree._Element] = []
    for element in elements:
        walker = etree.iterwalk(element, events=("start", "end"))
        has_block: list[bool] = []
        for event, el in walker:
            if event == "start":
                if not isinstance(el.tag, str) or el.tag in NON_TEXT_TAGS or el in exclude:
                    walker.skip_subtree()
                    has_block.append(True)  # placeholder popped on "end"
                    continue
                has_block.append(False)
                continue
            inner = has_block.pop()
            if not isinstance(el.tag, str) or el.tag in NON_TEXT_TAGS or el in exclude:
                continue
            is_block = el.tag in _BLOCK_LEAF_TAGS
            if is_block and not inner:
                leaves.append(el)
            if has_block and is_block:
                has_block[-1] = True
            elif has_block and inner:
                has_block[-1] = True
    return leaves


def _is_edge_boilerplate(el: etree._Element, exclude) -> bool:
    """A short block without a sentence end, or mostly link text: a share bar, a byline
    widget, "334 comments", "Print | Email" (jusText's short/link-dense classes)."""
    text = " ".join(el.text_content().split())
    if not text:
        return True
    links = sum(len(" ".join(a.text_content().split())) for a in el.iter("a"))
    if links / len(text) > 0.5:
        return True
    cjk = len(_CJK_RE.findall(text))
    short = (cjk < 10) if cjk > len(text) / 3 else (len(text) < 50)
    return short and not _SENTENCE_END.search(text)


def _trim_edges(elements, exclude, params: Params) -> set[etree._Element]:
    """Drop boilerplate blocks at the end of the content (blocksift; see docs/auto.md)."""
    leaves = _leaf_blocks(elements, exclude)
    dropped: set[etree._Element] = set()
    kept = len(leaves)
    while kept > 1 and _is_edge_boilerplate(leaves[kept - 1], exclude):
        kept -= 1
        dropped.add(leaves[kept])
    if kept <= len(leaves) // 2:
        return set()  # would cut most of the content: not an edge any more
    return dropped


def _kept_length(elements, exclude) -> int:
    from ..content import paragraphs

    return sum(len(p) for p in paragraphs(elements, exclude))


def _comment_sections(page: Page, elements: list[etree._Element]) -> list[etree._Element]:
    """User-comment sections outside the chosen content (for ``include_comments``): the
    outermost elements whose class/id names comments, after the content in the page."""
    chosen = set(elements)
    found: list[etree._Element] = []
    walker = etree.iterwalk(_content_root(page), events=("start",))
    for _event, el in walker:
        if el in chosen or not isinstance(el.tag, str) or el.tag in NON_TEXT_TAGS:
            walker.skip_subtree()
            continue
        ci = _class_id(el)
        if _IS_COMMENTS[ci] and not _IS_MAYBE[ci] and \
                len(" ".join(el.text_content().split())) >= 25:
            found.append(el)
            walker.skip_subtree()
    return found


def _headline(page: Page, elements: list[etree._Element], title: str) -> etree._Element | None:
    """The headline before the chosen content: the last ``<h1>`` (else ``<h2>``) preceding
    it whose text is the article title; gold texts and readers start with it. A heading
    that is not the title (a site name in a banner) is left out."""
    first_ordinal = page.ordinal(elements[0])
    norm_title = _norm(title)
    if first_ordinal is None or not norm_title:
        return None
    chosen = None
    for tag in ("h1", "h2"):
        for heading in _content_root(page).iter(tag):
            ordinal = page.ordinal(heading)
            if ordinal is None:
                continue
            if ordinal >= first_ordinal:
                break
            text = _norm(heading.text_content())
            if len(text) >= 4 and (text in norm_title or norm_title in text):
                chosen = heading
        if chosen is not None:
            break
    if chosen is not None and any(e in _ancestors(chosen) for e in elements):
        return None
    return chosen


def select(page: Page, params: Params) -> tuple[list[etree._Element], set[etree._Element], str]:
    """The chosen content elements, the excluded subtrees inside them and the ladder stage.

    Elements (headline first when prepended) and exclusions are what :func:`extract`
    renders, without comment sections.
    """
    root = _content_root(page)
    if not len(root) and not (root.text or "").strip():
        return [], set(), "empty"
    best, _attempts = _climb_ladder(page, params)
    if best is None:
        return [], set(), "empty"
    elements = list(best.elements)
    if params.prepend_headline:
        headline = _headline(page, elements, extract_title(page, elements, best.exclude))
        if headline is not None:
            elements.insert(0, headline)
    return elements, set(best.exclude), best.stage


def _climb_ladder(page: Page, params: Params) -> tuple[_Attempt | None, list[_Attempt]]:
    """Run the fallback ladder; the winning attempt (None: no visible text) and all tried."""
    ladder = [
        ("strict", _Flags()),
        ("keep-unlikely", _Flags(strip_unlikely=False)),
        ("no-weights", _Flags(strip_unlikely=False, weight_classes=False)),
        ("no-cleaning", _Flags(strip_unlikely=False, weight_classes=False,
                               clean_conditionally=False)),
    ]
    attempts: list[_Attempt] = []
    best: _Attempt | None = None
    link_block_elements = _link_block_elements(page) if params.link_blocks != "off" else set()
    measured: dict[tuple[bool, bool], _Analysis] = {}
    for stage, flags in ladder:
        attempt = _attempt(page, params, flags, stage, link_block_elements, measured)
        if attempt is None:
            continue
        attempts.append(attempt)
        if attempt.text_length >= params.min_text_length:
            best = attempt
            break
    if best is None and attempts:
        if params.short_fallback == "longest":
            best = max(attempts, key=lambda a: a.text_length)
        else:
            best = next((a for a in attempts if a.text_length), attempts[0])
    if best is None or best.text_length == 0:
        root = _content_root(page)
        analysis = _measured(page, params, False, set(), measured)
        best = _Attempt("body", [root], analysis.pruned, 0, 0.0)
        best.text_length = _kept_length(best.elements, best.exclude)
        if best.text_length == 0:
            return None, attempts
    return best, attempts


def extract(page: Page, params: Params, model: object = None) -> ExtractionResult:
    """Main text of ``page`` (ladder in the module docstring). ``model`` is ignored."""
    if not isinstance(params, Params):
        raise TypeError("params must be auto_rules.Params")
    root = _content_root(page)
    if not len(root) and not (root.text or "").strip():
        message = page.no_text_message() if page.frame_sources() else "the page has no body"
        return ExtractionResult(algorithm=NAME, status="empty", message=message,
                                stage="empty", main=MainText(title=extract_title(page)))
    best, attempts = _climb_ladder(page, params)
    if best is None:
        return ExtractionResult(algorithm=NAME, status="empty", stage="body",
                                message=page.no_text_message(),
                                main=render_main(page, [], title=extract_title(page)))
    elements = list(best.elements)
    if params.include_comments:
        elements += _comment_sections(page, elements)
    title = extract_title(page, elements, best.exclude)
    if params.prepend_headline:
        headline = _headline(page, elements, title)
        if headline is not None:
            elements.insert(0, headline)
    if params.main_text:
        main = render_main(page, elements, with_html=params.with_html, exclude=best.exclude,
                           title=title)
    else:
        main = None
    if main is not None and params.with_html and not params.include_images and main.html:
        main = main.model_copy(update={"html": re.sub(r"<img\b[^>]*>", "", main.html)})
    blocks = []
    has_ids = page.has_ids
    for el in elements:
        start, end = page.span(el)
        blocks.append(Block(
            kind="main", algorithm=NAME, score=round(best.score, 3), start=start, end=end,
            element_ids=page.ids_within([el], best.exclude) if has_ids else [],
            xpaths=[] if has_ids else [page.xpath(el)]))
    return ExtractionResult(
        algorithm=NAME, status="ok", blocks=blocks, main=main, stage=best.stage,
        stats={"text_length": float(best.text_length), "attempts": float(len(attempts)),
               "excluded": float(len(best.exclude))})

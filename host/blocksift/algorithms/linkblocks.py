"""Logical link blocks found by one scan of the raw HTML, no tag tree.

Papers: X.M. Wang, Z.D. Wu, Y.N. Huang, Q. Gu, "A New Recognition Approach for Logical Link
Blocks in Webpages" (seed 000, §3), and the longer thesis chapter "Web页面逻辑链接块研究"
(seed 001, §5.3), which spells out the text-distance counting rules.

What the papers pin down and this module does (seed 000 §3, seed 001 §5.3):

* a link is an ``<a>`` element with an ``href``; the link distance runs from the end of one
  link's ``</a>`` to the start of the next link's ``<a`` (Definition 3);
* code distance counts every character between those marks after the attributes of each tag
  are removed (``<div id="main"> ABC </div>`` measures as ``<div> ABC </div>``, Definition 1);
* text distance counts units of the text between them (Definition 2, seed 001 §5.3 rules
  1-5): a Latin-script word = 1, a CJK character = 1, a whole number = 1, a whole date = 1,
  a punctuation mark = 1 with a run of the same mark = 1;
* a logical link block is a maximal run of adjacent links whose distances are all ``< d_t``
  holding ``>= C_t`` links (Definition 5, formula 5-1), found front to back in one pass;
* LCR = links inside blocks / links on the page, CCR = code length of blocks / code length
  of the page (seed 000 §3, seed 001 formulas 5-2, 5-3).

What the papers leave open and is decided here (each a named parameter or documented rule):

* ``hidden_code``: whether the content of comments, ``script``, ``style``, ``noscript`` and
  ``template`` counts toward code distance. Default ``"count"``: Definition 1 says "all
  contents"; ``"skip"`` measures only markup a reader's page is built from. Such content never
  counts toward text distance (it is not text).
* Links inside comments and raw-text elements (``script``, ``style``, ``textarea``, ``title``,
  ``iframe``, ``noscript``, ``template``, ...) are not links: a browser never shows them.
  The content of ``textarea``, ``title``, ``xmp``, ``iframe``, ``noembed`` and ``noframes``
  is text to the HTML tokenizer, so it counts toward text distance (Definition 2 counts all
  text), read as the tokenizer reads it: literally, entities decoded in ``textarea`` and
  ``title`` only.
* An ``<a href>`` left unclosed ends where the next ``<a`` starts (the HTML parser closes it
  there) and, for measuring, at the ``>`` of its own start tag: its anchor text then counts
  as gap text. A stray ``</a>`` is ignored; ``<a>`` without ``href`` is not a link.
* A block's span runs from the ``<`` of its first link's ``<a`` to just after its last link's
  ``</a>`` (str indices into ``page.raw``). The extension hides the elements lying wholly
  inside the span: their stamped ids are reported (``element_ids``), found by a tag scan of
  the span alone, so the page-wide tag scan and the tree are never needed for this.
* ``link_scope="external"``: the judgment seed 000 §4.3 (1) suggests for Wikipedia-like
  pages: only links to another site, or through a redirect, count as links; the others are
  ordinary markup (their text is gap text). Off by default.
* L_Block and L_Page of CCR are measured in characters of the raw page, attributes included.
* ``main_text``: the bridge to text extraction the papers describe (seed 000 §4.3 (1) and
  (4); seed 001 §5.4.3 ②): at large d_t most content pages split into one block before and
  one after the body text, so the stretch between link blocks holding the most text (counted
  with the text-distance rules) is taken as the main text. Its text is rendered from the raw
  stretch (paragraphs at block-level tags), its HTML and ids from the elements lying wholly
  inside it (the lxml tree is built for this mode only). ``main_link_cost`` (off by
  default, not in the papers) lets the main text cross link blocks that cut an article.
* Text counting details the rules leave open: a tag between two pieces of text separates
  them (``a<br>b`` is two words); entities are decoded (``&nbsp;`` is a space); a word may
  hold digits and inner ``'`` or ``-`` (``8th``, ``mp3``, ``don't``, ``well-known`` = 1); a
  number keeps ``.``, ``,`` and ``:`` between digits (``3.14``, ``1,000``, ``12:30`` = 1);
  CJK means Han ideographs (with 々 and 〇) and kana, while Hangul, written with spaces, is
  counted by words; dates are English (``March 8th, 2014``, ``8 March 2014``, ``Mon, Mar. 8``,
  ``March 2014``), numeric (``2014-03-08``, ``3/8/14``) and Chinese (``2014年3月8日``,
  ``2014 年 3 月``, ``3月8日``, ``二〇一四年三月八日``); a time right after a Chinese date is a
  number of its own (``2003年11月12日16:36`` = 2, as with a space between them); combining
  marks (Devanagari vowel signs, decomposed accents) belong to the word they modify
  (``हिन्दी`` = 1, ``cafe\u0301`` = 1).
* ``</`` not followed by a letter, ``<!`` and ``<?`` are bogus comments up to ``>`` (the HTML
  tokenizer's reading), never text.
* Speed (seed 000 Conclusion: "with once scanning of the webpage"): the scan stops only at
  link tags, comments and skipped elements; a gap is measured only as far as formula 5-1
  needs (raw length below d_t, too few tokens outside tags to hold d_t units, a prefix
  already holding them), so ``gap_distances(..., limit=d_t)`` is exact in how each value
  compares with d_t, not in the value. ``limit=None`` gives exact distances (the sweep).

Block ``score`` is the block's link count (C_link of formula 5-1); ``features`` add the span
length and the link density (links per 1000 characters of span).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from .. import htmltokenizer as tokenizer
from ..content import BLOCK_TAGS
from ..htmltokenizer import VOID_ELEMENTS
from ..page import Page
from ..rawscan import scan as tag_scan
from ..sites import host_of, registered_domain
from ..speedups import compiled
from ..wire.results import Block, ExtractionResult

NAME = "linkblocks"
MODEL = None

#: How much of the page start is searched for the extension's element ids.
_ID_PROBE_CHARS = 8192
#: Default d_t per distance kind (seed 000 §4.2, seed 001 §5.4.2: d_t^t = 40, d_t^c = 80).
DEFAULT_D_T = {"text": 40, "code": 80}


class Params(BaseModel):
    """Thresholds and choices of the logical link block method (seed 000 §3, §4.2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    distance: Literal["text", "code"] = Field(
        "text", description="Link distance measure: text distance (Definition 2, rules of "
        "seed 001 §5.3) or code distance with attributes removed (Definition 1)")
    d_t: int | None = Field(
        None, ge=1, description="Distance threshold d_t: adjacent links join a block when "
        "their distance is < d_t (formula 5-1). None = the papers' value for the kind: "
        "40 for text (d_t^t), 80 for code (d_t^c) (seed 000 §4.2 second group)")
    c_t: int = Field(
        3, ge=1, description="Minimum links C_t in a logical link block (formula 5-1; "
        "C_t = 3 in seed 000 §4.2 first group)")
    hidden_code: Literal["count", "skip"] = Field(
        "count", description="Whether comments and script/style/noscript/template content "
        "count toward code distance. 'count' follows Definition 1 ('all contents'); the "
        "papers do not say (SPEC-NOTES: decide)")
    link_scope: Literal["all", "external"] = Field(
        "all", description="'external' counts only links to another site or through a "
        "redirect, the judgment seed 000 §4.3 (1) suggests for Wikipedia-like pages")
    main_text: bool = Field(
        True, description="Also return the main text: the stretch between link blocks "
        "holding the most text (seed 000 §4.3 (1), (4)); needs the lxml tree, so turn it "
        "off when only link blocks are wanted")
    element_ids: bool = Field(
        True, description="Report the stamped ids of the elements wholly inside each block "
        "(pages the extension sends); a caller that needs only the spans turns it off and "
        "saves a scan of every block")
    main_link_cost: float | None = Field(
        None, ge=0, description="Main text across link blocks: a block may join the "
        "stretches around it when they hold more text units than this cost per link of the "
        "block (maximum-sum run of stretches, the block's own links left out). None: never "
        "cross a block, the papers' single stretch. Not in the papers; 6 was best on the dev "
        "sets (swept 1-12, docs/linkblocks.md)")

    @property
    def threshold(self) -> int:
        """d_t in effect: the given value or the papers' default for the distance kind."""
        return self.d_t if self.d_t is not None else DEFAULT_D_T[self.distance]


# ---------------------------------------------------------------------------------------
# The scan (seed 000 §3: "scanning webpage codes from front to back")
# ---------------------------------------------------------------------------------------

#: Elements whose content is never markup a reader sees links in (raw text, inert, hidden
#: when scripting is on). ``<a`` inside them is not a link.
SKIPPED_ELEMENTS = ("script", "style", "noscript", "template", "textarea", "title", "xmp",
                    "iframe", "noembed", "noframes", "plaintext")
#: Of those, the ones whose content is code, not text (``hidden_code`` governs them).
HIDDEN_CODE_ELEMENTS = ("script", "style", "noscript", "template")
#: The others hold text (the HTML tokenizer's RCDATA and RAWTEXT): Definition 2 counts all
#: text, so their content counts toward text distance, read as the tokenizer reads it.
TEXT_CONTENT_ELEMENTS = ("textarea", "title", "xmp", "iframe", "noembed", "noframes",
                         "plaintext")
#: Of those, the ones whose content has its character references decoded (RCDATA).
RCDATA_ELEMENTS = tokenizer.RCDATA_ELEMENTS

# The grammar (attribute quoting, comments, raw-text bodies) is the tokenizer module's.
_ATTRS = tokenizer.ATTRS
_COMMENT = tokenizer.COMMENT
_BOGUS = tokenizer.BOGUS_COMMENT
_TAG_NAME = tokenizer.TAG_NAME
_ci = tokenizer.ci
_SKIPPED_NAMES = "|".join(_ci(name) for name in SKIPPED_ELEMENTS)
_NAME_END = r"(?=[\s/>]|\Z)"
_LINK_START = r"[aA]" + _NAME_END


#: Skipped elements read by one regex alternative whose end tag is a backreference to the
#: start tag's name; script (its escapes) and plaintext (no end) have their own.
_GENERIC_SKIPPED = tuple(n for n in SKIPPED_ELEMENTS if n not in ("script", "plaintext"))
#: With groups: content group (the last group an alternative closes) -> its attribute group
#: and the element's name (None: read the name from group "raw").
_SKIPPED_GROUPS = {"g_content": ("g_attrs", None), "s_content": ("s_attrs", "script"),
                   "p_content": ("p_attrs", "plaintext")}


def _skipped_elements(groups: bool = False) -> str:
    """Regex alternatives (after ``<``) matching a skipped element whole.

    ``groups``: one backreferenced alternative for the generic elements (group ``raw``
    holds the name) instead of one per name, which keeps the pattern small (compiling it is
    part of the host's start-up), with groups naming attribute text and content (see
    :data:`_SKIPPED_GROUPS`). Without: one alternative per name and no group, for use
    inside a repeated group (Python's engine mis-tracks a backreferenced group there).
    """
    if not groups:
        return "|".join(_ci(name) + _NAME_END + _ATTRS + ">?" + tokenizer.raw_text_body(name)
                        for name in SKIPPED_ELEMENTS)

    def group(name: str, body: str) -> str:
        return f"(?P<{name}>{body})"

    end = r"/(?i:(?P=raw))(?=[\s/>]|\Z)"
    generic = ("(?P<raw>" + "|".join(_ci(n) for n in _GENERIC_SKIPPED) + ")" + _NAME_END
               + group("g_attrs", _ATTRS) + ">?"
               + group("g_content", rf"[^<]*+(?:<(?!{end})[^<]*+|)*+")
               + f"(?:<{end}{_ATTRS}>?)?")
    script = (_ci("script") + _NAME_END + group("s_attrs", _ATTRS) + ">?"
              + tokenizer.raw_text_body("script", "s_content" if groups else ""))
    plaintext = (_ci("plaintext") + _NAME_END + group("p_attrs", _ATTRS) + ">?"
                 + group("p_content", r"[\s\S]*+"))
    return "|".join((script, generic, plaintext))


def _skipped_name(match: re.Match[str]) -> tuple[str, str, str] | None:
    """``(element name, attribute group, content group)`` of a skipped element matched by
    :func:`_skipped_elements` with groups; None when the match is something else."""
    content = match.lastgroup
    found = _SKIPPED_GROUPS.get(content) if content else None
    if found is None:
        return None
    attrs, name = found
    return (name or match.group("raw").lower()), attrs, content


# What the scan matches: everything up to and including the next link start or end tag
# (group "open" or "close": the tag's attribute text), or up to the end of the page. Text,
# comments, skipped elements and other tags (whole, so an "<a" in an attribute value or a
# comment is never seen) are passed over by the regex engine in C; Python sees only links.
_SCAN_RE = re.compile(
    # each loop step passes over one tag (or comment, skipped element) and the text after
    # it; end tags (mostly without attributes) and tags that start with a letter no skipped
    # element and no link starts with come first: the common cases
    r"[^<]*+(?:(?:</(?!" + _LINK_START + ")" + _TAG_NAME + "(?:>|" + _ATTRS + ">?)"
    r"|<(?:[b-hj-moq-ru-wyzB-HJ-MOQ-RU-WYZ]|[pP](?![lL][aA][iI][nN]))[^\s/>]*+"
    r"(?:>|" + _ATTRS + ">?)"
    r"|<" + _COMMENT + "|<" + _BOGUS + "|<(?:" + _skipped_elements() + ")"
    r"|<(?!" + _LINK_START + ")" + _TAG_NAME + _ATTRS + ">?"
    r"|<(?![A-Za-z/!?]))[^<]*+|)*+"
    r"(?:<(?:" + _LINK_START + "(?P<open>" + _ATTRS + ")>?"
    r"|/" + _LINK_START + "(?P<close>" + _ATTRS + r")>?)|\Z)")
_HREF_FIRST_RE = re.compile(r"\s+href\s*=", re.I)
_OPEN_GROUP, _CLOSE_GROUP = _SCAN_RE.groupindex["open"], _SCAN_RE.groupindex["close"]


class Link(NamedTuple):
    """One link: ``start`` at ``<a``, ``tag_end`` after its start tag, ``text_end`` where its
    anchor text ends, ``end`` after ``</a>`` (``tag_end`` for both when left unclosed)."""

    start: int
    tag_end: int
    text_end: int
    end: int
    closed: bool


#: The link scan's loop compiled (``_linkblocks.pyx``), None where it was not built.
_compiled_links = compiled("blocksift.algorithms._linkblocks", ("scan_links",))
#: What the compiled scan passes over whole, by the regexes the Python scan is built from.
_SKIPPED_AT = re.compile("<(?:" + _skipped_elements() + ")")
_COMMENT_AT = re.compile("<(?:" + _COMMENT + "|" + _BOGUS + ")")


def _link_has_href(raw: str, start: int, end: int) -> bool:
    """Whether the ``<a>`` attribute text ``raw[start:end]`` has an ``href``."""
    return _HREF_FIRST_RE.match(raw, start, end) is not None or (
        tokenizer.attribute(raw[start:end], "href") is not None)


def scan_links(raw: str) -> list[Link]:
    """All links of ``raw`` in source order, from one front-to-back pass (seed 000 §3).

    Comments and skipped elements are passed over whole. An unclosed ``<a href>`` ends at
    the next ``<a`` for the parser and at its own start tag for measuring (see the module
    docstring); a stray ``</a>`` is ignored; ``<a>`` without ``href`` is not a link.
    Compiled where the install built ``_linkblocks`` (:func:`scan_links_python`: the same).
    """
    if _compiled_links is not None:
        return _compiled_links.scan_links(raw, SKIPPED_ELEMENTS, _SKIPPED_AT.match,
                                          _COMMENT_AT.match, _link_has_href, Link)
    return scan_links_python(raw)


def scan_links_python(raw: str) -> list[Link]:
    """:func:`scan_links` in Python: one ``_SCAN_RE`` match per link."""
    links: list[Link] = []
    append = links.append
    open_start = -1        # start of the open <a>, -1 when none is open
    open_tag_end = 0
    open_is_link = False   # the open <a> has an href
    href_first = _HREF_FIRST_RE.match
    for match in _SCAN_RE.finditer(raw):
        kind = match.lastindex  # group number: no name lookup per link
        if kind == _OPEN_GROUP:
            attrs_start, open_end = match.span(_OPEN_GROUP)
            if open_start >= 0 and open_is_link:
                append(Link(open_start, open_tag_end, open_tag_end, open_tag_end, False))
            open_is_link = href_first(raw, attrs_start, open_end) is not None or (
                tokenizer.attribute(raw[attrs_start:open_end], "href") is not None)
            open_start, open_tag_end = attrs_start - 2, match.end()
        elif kind == _CLOSE_GROUP:
            if open_start >= 0:
                if open_is_link:
                    append(Link(open_start, open_tag_end, match.start(_CLOSE_GROUP) - 3,
                                match.end(), True))
                open_start = -1
        # else: the page's end
    if open_start >= 0 and open_is_link:
        append(Link(open_start, open_tag_end, open_tag_end, open_tag_end, False))
    return links


def link_href(raw: str, link: Link) -> str:
    """The ``href`` value of ``link`` (read on demand: the scan only checks it is there)."""
    return tokenizer.attribute(raw[link.start + 2:link.tag_end], "href") or ""


# ---------------------------------------------------------------------------------------
# Distances (Definitions 1-3)
# ---------------------------------------------------------------------------------------

# Tags and hidden content inside a gap: group "comment"; groups "raw_<name>" (a skipped
# element, whole: its attribute text); group "attrs": a tag's text after its name, what
# Definition 1 removes; a bogus comment or doctype matches with no group.
_GAP_TAG_RE = re.compile(
    r"<(?:(?P<comment>" + _COMMENT + ")"
    r"|" + _skipped_elements(groups=True)
    + r"|/?" + _TAG_NAME + "(?P<attrs>" + _ATTRS + r")>?"
    r"|" + _BOGUS + ")")


def code_distance(gap: str, hidden_code: str = "count", limit: int | None = None) -> int:
    """Code distance of ``gap``: its length once tag attributes are removed (Definition 1).

    ``<div id="main"> ABC </div>`` measures as ``<div> ABC </div>`` = 16. With
    ``hidden_code="skip"`` comments and script/style/noscript/template elements count 0.
    With ``limit`` the count may stop early at any value ``>= limit`` (the scan only needs
    to know that the gap splits).
    """
    if "<" not in gap:
        return len(gap)
    removed = 0
    skip_hidden = hidden_code == "skip"
    for match in _GAP_TAG_RE.finditer(gap):
        if limit is not None and match.start() - removed >= limit:
            return match.start() - removed
        group = match.lastgroup
        if group == "attrs":
            removed += match.end("attrs") - match.start("attrs")
        elif group == "comment":
            if skip_hidden:
                removed += match.end() - match.start()
        elif group is not None:  # a skipped element
            name, attrs, _ = _skipped_name(match)
            if skip_hidden and name in HIDDEN_CODE_ELEMENTS:
                removed += match.end() - match.start()
            else:
                removed += match.end(attrs) - match.start(attrs)
    return len(gap) - removed


# Text units (seed 001 §5.3 rules 1-5). CJK: Han ideographs (with 々 and 〇), kana.
_CJK = "\u2e80-\u2fdf\u3005\u3007\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff" \
       "\uf900-\ufaff\U00020000-\U0002fa1f"
_WORD_CHAR = rf"[^\W_{_CJK}]"
_MONTH_STEMS = (("Jan", "uary"), ("Feb", "ruary"), ("Mar", "ch"), ("Apr", "il"), ("May", ""),
                ("Jun", "e"), ("Jul", "y"), ("Aug", "ust"), ("Sep", "tember"), ("Oct", "ober"),
                ("Nov", "ember"), ("Dec", "ember"))
# Factored alternatives (the regex engine tries them one by one): "Mar", "March", "MARCH"..
_MONTH = r"(?:" + "|".join(
    f"{stem}(?:{rest})?" if rest else stem
    for case in (str, str.upper)
    for stem, rest in ((case(a), case(b)) for a, b in _MONTH_STEMS)
) + r"|Sept|SEPT)\.?"
_WEEKDAY = (r"(?:Mon(?:day)?|Tue(?:s(?:day)?)?|Wed(?:nesday)?|Thu(?:r(?:s(?:day)?)?)?"
            r"|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)\.?,?\s+")
_ORD = r"(?:st|nd|rd|th)?"
_ZH_NUM = r"[\d〇零一二三四五六七八九十]"
_DATE = (
    # March 8th, 2014 / Mar. 8 2014 / Monday, March 8 / March 2014
    rf"(?:{_WEEKDAY})?{_MONTH}\s+\d{{1,2}}{_ORD}\b(?:,?\s+\d{{4}}\b)?"
    rf"|{_MONTH},?\s+\d{{4}}\b"
    # 8 March 2014 / 8th of March, 2014
    rf"|(?:{_WEEKDAY})?\d{{1,2}}{_ORD}\s+(?:of\s+)?{_MONTH}(?![^\W\d_])(?:,?\s+\d{{4}}\b)?"
    # 2014-03-08, 2014/3/8, 08.03.2014, 3/8/14
    r"|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?!\d)|\d{1,2}[-/.]\d{1,2}[-/.](?:\d{4}|\d{2})(?!\d)"
    # 2014 年 3 月 8 日 / 2014年3月 / 3月8日 / 二〇一四年三月八日
    rf"|{_ZH_NUM}{{2,4}}\s*年\s*{_ZH_NUM}{{1,2}}\s*月(?:\s*{_ZH_NUM}{{1,3}}\s*[日号號])?"
    rf"|{_ZH_NUM}{{1,2}}\s*月\s*{_ZH_NUM}{{1,3}}\s*[日号號]"
)
# Rules 1-3 and 5: a word (letters, digits, joined by ' or - and by . , : between digits),
# a CJK character, a run of one punctuation mark.
_BASE_UNIT_RE = re.compile(
    rf"{_WORD_CHAR}+(?:(?:['’\-]|(?<=\d)[.,:](?=\d)){_WORD_CHAR}+)*"
    rf"|[{_CJK}]"
    r"|(?P<mark>[^\w\s]|_)(?P=mark)*")
# Rule 4: a whole date, starting and ending at unit boundaries.
# A date ending in 年 月 日 号 ends at a unit boundary whatever follows: "2003年11月12日16:36"
# is a date and a time (a number, rule 3), as with a space between them.
_DATE_RE = re.compile(rf"(?<!{_WORD_CHAR})(?=[A-Z\d〇零一二三四五六七八九十])(?:{_DATE})"
                      rf"(?:(?<=[年月日号號])|(?!{_WORD_CHAR}))")
# Every date holds 年 or 月, a digit followed by - / . and a digit, or a month name. Written
# to start with a character class, which the regex engine uses to skip ahead fast.
_DATE_HINT_RE = re.compile(
    r"[JFMASOND\d年月](?:(?<=[年月])|(?<=\d)[-/.]\d|(?<=J)(?:an|un|ul|AN|UN|UL)"
    r"|(?<=F)(?:eb|EB)|(?<=M)(?:ar|ay|AR|AY)|(?<=A)(?:pr|ug|PR|UG)|(?<=S)(?:ep|EP)"
    r"|(?<=O)(?:ct|CT)|(?<=N)(?:ov|OV)|(?<=D)(?:ec|EC))")
# Everything in a gap that is not text: comments, skipped elements (whole; groups
# "content_<name>" hold their content), tags, bogus comments.
_NON_TEXT_RE = re.compile(
    r"<(?:" + _COMMENT + "|" + _skipped_elements(groups=True)
    + r"|/?" + _TAG_NAME + _ATTRS + ">?|" + _BOGUS + ")")
#: A longer gap is first measured on this many raw characters (then 4x, 16x, ...) when a
#: threshold is known: body text decides within the first, markup-only gaps are rejected
#: by :func:`_has_text_chars` before.
_PREFIX_CHARS = 1024
#: Units a cut at a prefix's end can add (a split entity or date): a prefix must exceed
#: the threshold by this much to prove the whole gap does.
_CUT_SLACK = 8
#: Most whitespace-separated pieces or CJK characters one date spans: 6 pieces
#: ("2014 年 3 月 8 日"), 12 CJK characters (4 + 年 + 2 + 月 + 3 + 日, "二〇一四年三月八日" = 9).
_DATE_PIECES = 12
_CJK_CHAR_RE = re.compile(f"[{_CJK}]")


_HIDDEN_START_RE = re.compile(r"<(?:!--|(?:" + _SKIPPED_NAMES + ")" + _NAME_END + ")")
# no hidden content
_PLAIN_TAG_RE = re.compile(r"<(?:/?" + _TAG_NAME + _ATTRS + ">?|" + _BOGUS + ")")


def _non_text_replacement(match: re.Match[str]) -> str:
    """A space for markup; the content of a text-holding element (textarea, xmp, ...) as
    text, between spaces (its start and end tags are tags). RAWTEXT content keeps its
    ``&`` literally: it is escaped here so that decoding the gap restores it."""
    skipped = _skipped_name(match)
    if skipped is None or skipped[0] not in TEXT_CONTENT_ELEMENTS:
        return " "
    name, _, group = skipped
    content = match.group(group)
    if name not in RCDATA_ELEMENTS:
        content = content.replace("&", "&amp;")
    return f" {content} "


def gap_text(gap: str, element_text: bool = True) -> str:
    """The text of a piece of raw HTML: tags, comments, script and style removed, entities
    decoded. A tag becomes a space, so block boundaries separate words. ``element_text``:
    keep the content of textarea, title, xmp, ... (Definition 2's "all text"); off, it is
    dropped like the rendered main text drops it (:func:`stretch_text`)."""
    if "<" in gap:
        # most gaps hold only plain tags: a simpler pattern strips them faster
        if _HIDDEN_START_RE.search(gap):
            gap = _NON_TEXT_RE.sub(_non_text_replacement if element_text else " ", gap)
        else:
            gap = _PLAIN_TAG_RE.sub(" ", gap)
    if "&" not in gap:
        return gap
    gap = gap.replace("&nbsp;", "\xa0")  # the usual entity, without unescape's Python calls
    return tokenizer.unescape(gap) if "&" in gap else gap


@lru_cache(maxsize=1)
def _marks_re() -> re.Pattern[str]:
    """Regex matching runs of combining marks (Unicode categories Mn, Mc, Me).

    Built on first use from :mod:`unicodedata` (marks lie in planes 0, 1 and 14 only;
    about 50 ms), so that ASCII-only work never pays for it.
    """
    category = unicodedata.category
    ranges: list[tuple[int, int]] = []
    for code in (*range(0x20000), *range(0xE0000, 0xE0200)):
        if category(chr(code))[0] == "M":
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    members = "".join(re.escape(chr(lo)) + (f"-{re.escape(chr(hi))}" if hi > lo else "")
                      for lo, hi in ranges)
    return re.compile(f"[{members}]+")


def join_marks(text: str) -> str:
    r"""``text`` with combining marks dropped, so each stays part of the word it modifies.

    A vowel sign or virama (``हिन्दी``) or a decomposed accent (``cafe\u0301``) belongs to
    the letter before it; the regex engine's ``\w`` does not hold marks, so without this a
    word would split into several units (rule 1: one word = 1).
    """
    return text if text.isascii() else _marks_re().sub("", text)


def text_units(text: str) -> int:
    """Length of ``text`` under the counting rules of seed 001 §5.3.

    "Bei Jing 2008" = 3, "北京 2008" = 3, "March 8th, 2014" = 1, "今天是 2014 年 3 月 8 日"
    = 4, "!!!" = 1, "!?" = 2. Words, numbers, CJK characters and punctuation runs are
    counted first; each whole date then gives back all its units but one.
    """
    text = " ".join(join_marks(text).split())  # fewer positions for the regexes to try
    count = len(_BASE_UNIT_RE.findall(text))
    if count and _DATE_HINT_RE.search(text):
        for date in _DATE_RE.findall(text):
            count -= len(_BASE_UNIT_RE.findall(date)) - 1
    return count


@lru_cache(maxsize=64)
def _has_text_chars(count: int) -> re.Pattern[str]:
    """Regex matching a gap that may hold ``count`` text units: it holds ``count`` tokens.

    A token is a run of letters and digits, a CJK character, or one other non-space
    character; every unit holds at least one token (a word, number, CJK character, mark
    run or date is one or more of them), so a gap with fewer tokens has fewer units.
    Comments and skipped elements are passed over as in :func:`gap_text`; other tags are
    read loosely (up to the first ``>``), which can only leave more tokens in. It stops at
    the ``count``-th token and builds no string: the cheapest test of a gap.
    """
    skipped = "".join(rf"|<{_ci(name)}(?=[\s/>]|\Z)[^>]*+>?" + tokenizer.raw_text_body(name)
                      for name in HIDDEN_CODE_ELEMENTS)
    # an element holding text (textarea, xmp, ...) may hold any number of units: its
    # start is a zero-width token, matched again by every remaining repetition
    text_element = r"(?=<(?:" + "|".join(_ci(name) for name in TEXT_CONTENT_ELEMENTS) \
        + r")(?=[\s/>]|\Z))"
    token = rf"[^\W_{_CJK}]++|[{_CJK}]|[^\w\s<]|_|<(?![a-zA-Z/!?])|{text_element}"
    return re.compile(
        # tags whose first letter no skipped element has come first: the common case
        r"(?:(?:<[a-hj-moq-ru-wyzA-HJ-MOQ-RU-WYZ/?][^>]*+>|<[pP](?![lL])[^>]*+>|\s++"
        r"|<" + _COMMENT + skipped
        + r"|(?!" + text_element + r")<[a-zA-Z!][^>]*+>|)*+(?:" + token + r"))"
        + rf"{{{count}}}")


#: CJK characters that can be part of a date (numerals, 年 月 日 号): not counted by
#: :func:`_holds_units`, since a date is one unit however many of them it holds.
_DATE_CJK = "〇零一二三四五六七八九十年月日号號"


@lru_cache(maxsize=64)
def _holds_units(count: int) -> re.Pattern[str]:
    """Regex matching a gap that surely holds at least ``count`` text units.

    It counts whitespace-separated pieces that start with a lower-case Latin letter and CJK
    characters other than numerals and 年月日号: each is, or starts, a unit of its own (a
    word; a CJK character), and a date holds at most one of them (``8th of March``), so
    they never outnumber the units. Tags, comments and skipped elements are passed over as
    in :func:`_has_text_chars`; any other piece is passed over whole. Body text reaches
    ``count`` within a few lines, so most gaps that split are decided without their text.
    """
    # tags are read whole (a quoted ">" does not end them): attribute text never counts
    return re.compile(
        r"(?:(?:<[a-hj-mo-ru-wyzA-HJ-MO-RU-WYZ][^\s/>]*+" + _ATTRS + r">?|\s++"
        + r"|</" + _TAG_NAME + _ATTRS + ">?|<" + _COMMENT + "|<" + _BOGUS
        + "|<(?:" + _skipped_elements() + ")|<" + _TAG_NAME + _ATTRS + ">?"
        + rf"|[^\sa-z<{_CJK}][^\s<{_CJK}]*+|[{_DATE_CJK}]|<(?![a-zA-Z/!?])|)*+"
        + rf"(?:[a-z][^\s<]*+|(?![{_DATE_CJK}])[{_CJK}]))" + rf"{{{count}}}")


def text_distance(gap: str, limit: int | None = None, screened: bool = False) -> int:
    """Text distance of a raw-HTML ``gap`` (Definition 2): text units of its text.

    With ``limit`` only how the result compares to ``limit`` is exact (all formula 5-1
    needs; a value below ``limit`` may be an upper bound, one at or above it a lower
    bound), and the cheapest test that decides it is used: too few tokens outside tags to
    hold ``limit`` units (skipped when the caller already ran it: ``screened``); enough
    lower-case words and CJK characters to hold them; the gap's first characters already
    holding them; the count.
    """
    if limit is None:
        return text_units(gap_text(gap))
    if not screened and _has_text_chars(limit).match(gap) is None:
        return min(len(gap), limit - 1)
    if _holds_units(limit).match(gap) is not None:
        return limit
    size = _PREFIX_CHARS
    while size < len(gap):
        # cut before a "<" so that no tag is split (a split one would leak attribute text)
        cut = gap.rfind("<", size // 2, size)
        units = _bounded_units(gap_text(gap[:cut if cut > 0 else size]), limit + _CUT_SLACK)
        if units >= limit + _CUT_SLACK:
            return units
        size *= 4
    return _bounded_units(gap_text(gap), limit)


def _bounded_units(text: str, limit: int) -> int:
    """``text_units(text)``, or a cheaper value that compares to ``limit`` the same way.

    Upper bound: the non-space characters (every unit holds one). Lower bound: the larger
    of the whitespace-separated pieces and the CJK characters (every piece and every CJK
    character is at least a unit), less what dates merge: a date spans at most
    ``_DATE_PIECES`` of them. Only when neither bound decides is the text counted.
    """
    pieces = join_marks(text).split()
    nonspace = sum(map(len, pieces))
    if nonspace < limit:
        return nonspace
    floor = len(pieces) if text.isascii() else max(len(pieces),
                                                   len(_CJK_CHAR_RE.findall(text)))
    if floor >= limit:
        if _DATE_HINT_RE.search(text):
            floor -= (_DATE_PIECES - 1) * len(_DATE_RE.findall(text))
        if floor >= limit:
            return floor
    return text_units(text)


def gap_distances(raw: str, links: Sequence[Link], distance: str, *,
                  hidden_code: str = "count", limit: int | None = None) -> list[int]:
    """Distance between each pair of adjacent links (Definition 3), ``len(links) - 1`` values.

    Without ``limit`` every value is exact. With ``limit`` only how each value compares to
    ``limit`` is exact, which is all formula 5-1 needs: a gap whose raw length is already
    below ``limit`` is not measured (no distance can exceed it), and the measures stop as
    soon as they can tell.
    """
    out: list[int] = []
    append = out.append
    measure_text = distance == "text"
    # the cheapest text test runs on the page itself: a rejected gap is never sliced out
    has_text = _has_text_chars(limit).match if limit is not None and measure_text else None
    for before, after in zip(links, links[1:]):
        lo, hi = before.end, after.start
        if limit is not None:
            if hi - lo < limit:
                append(hi - lo)
                continue
            if has_text is not None and has_text(raw, lo, hi) is None:
                append(limit - 1)
                continue
        gap = raw[lo:hi]
        if measure_text:
            append(text_distance(gap, limit, screened=True))
        else:
            append(code_distance(gap, hidden_code, limit))
    return out


# ---------------------------------------------------------------------------------------
# Blocks (Definition 5, formula 5-1)
# ---------------------------------------------------------------------------------------

def group_links(distances: Sequence[int], d_t: int, c_t: int) -> list[tuple[int, int]]:
    """Runs ``[first, last]`` of link indices forming logical link blocks.

    Front to back: a link joins the current run while its distance to the previous link is
    ``< d_t``; a run ends at the first distance ``>= d_t`` and is kept when it holds at least
    ``c_t`` links (seed 000 §3).
    """
    runs: list[tuple[int, int]] = []
    count = len(distances) + 1  # links: one more than the distances between them
    first = 0
    for index, value in enumerate(distances):
        if value >= d_t:
            if index - first + 1 >= c_t:
                runs.append((first, index))
            first = index + 1
    if count - first >= c_t:
        runs.append((first, count - 1))
    return runs


def _host(url: str) -> str:
    """Host name of ``url``; empty for relative or malformed URLs."""
    return host_of(url)


_REDIRECT_RE = re.compile(r"[?&](?:url|u|q|target|dest|destination|redirect|to|goto|link)="
                          r"(?:https?%3A|https?:|%2F%2F|//)|/(?:redirect|aclk|click|out)\b",
                          re.I)


def external_links(raw: str, links: Sequence[Link], page_url: str | None) -> list[Link]:
    """Links to another site or through a redirect (seed 000 §4.3 (1)).

    The page's site comes from its URL, else from the most common host among its absolute
    links. Relative links are internal unless they look like a redirect.
    """
    hrefs = [link_href(raw, link).strip() for link in links]
    hosts = [_host(href) for href in hrefs]
    site = registered_domain(_host(page_url)) if page_url else ""
    if not site:
        counted = Counter(registered_domain(host) for host in hosts if host)
        site = counted.most_common(1)[0][0] if counted else ""
    kept = []
    for link, href, host in zip(links, hrefs, hosts):
        if _REDIRECT_RE.search(href) or (host and registered_domain(host) != site):
            kept.append(link)
    return kept


def ids_within(raw: str, start: int, end: int, id_attr: str) -> list[str]:
    """Stamped ids of the elements lying wholly inside ``raw[start:end]``, in source order.

    Only the span is scanned; an element counts when its end tag (or implied end) falls
    inside the span, a void element when its start tag does.
    """
    piece = raw[start:end]
    needle = id_attr.lower()
    # as stamped (lower case) the name is found without lower-casing the whole span
    if needle not in piece and needle not in piece.lower():
        return []
    # One trailing character tells explicit closes (<= len) from "still open" (len + 1).
    tags = tag_scan(piece + " ", id_attr)
    limit = len(piece)
    found = []
    for name, element_id, tag_end, close_end in zip(tags.names, tags.ids, tags.tag_ends,
                                                    tags.close_ends):
        if element_id is None:
            continue
        inside = tag_end <= limit if name in VOID_ELEMENTS else close_end <= limit
        if inside:
            found.append(element_id)
    return found


# ---------------------------------------------------------------------------------------
# Main text (the bridge to text extraction, seed 000 §4.3 (1), (4))
# ---------------------------------------------------------------------------------------

def main_stretch(raw: str, spans: Sequence[tuple[int, int]]) -> tuple[int, int, int]:
    """The stretch between link blocks holding the most text: ``(start, end, units)``.

    Stretches are the page before the first block, between adjacent blocks and after the
    last; text is counted with the text-distance rules, over the text the main text shows
    (the content of textarea, title, xmp, ... left out, as :func:`stretch_text` leaves it).
    The first of equal stretches wins.
    """
    pieces, first, last, units = main_stretches(raw, [(lo, hi, 0) for lo, hi in spans], None)
    if not pieces:
        return 0, 0, 0
    return pieces[0][0], pieces[-1][1], units


def main_stretches(raw: str, blocks: Sequence[tuple[int, int, int]],
                   link_cost: float | None) -> tuple[list[tuple[int, int]], int, int, int]:
    """The run of stretches holding the main text: ``(stretches, first, last, units)``.

    ``blocks`` are ``(start, end, links)``. With ``link_cost`` None this is the single
    stretch holding the most text units (the papers' bridge, seed 000 §4.3 (1)); otherwise
    the run of consecutive stretches maximizing their text units minus ``link_cost`` per
    link of the blocks between them (a maximum-sum subarray). ``first`` and ``last`` are
    the indices of the first and last stretch; an empty list when the page has no text.
    """
    bounds = [0]
    for start, end, _links in blocks:
        bounds.extend((start, end))
    bounds.append(len(raw))
    stretches = list(zip(bounds[0::2], bounds[1::2]))
    # the text the main text shows decides (stretch_text drops raw-text element content)
    units = [text_units(gap_text(raw[lo:hi], element_text=False)) if hi > lo else 0
             for lo, hi in stretches]
    best, best_first, best_last = 0, 0, -1
    current, current_first = 0, 0
    for index, value in enumerate(units):
        if index:
            if link_cost is None:
                current = 0  # never cross a block
                current_first = index
            else:
                current -= link_cost * blocks[index - 1][2]
                if current < 0:
                    current, current_first = 0, index
        current += value
        if current > best:
            best, best_first, best_last = current, current_first, index
    if best_last < 0:
        return [], 0, -1, 0
    chosen = stretches[best_first:best_last + 1]
    return chosen, best_first, best_last, sum(units[best_first:best_last + 1])


_HIDDEN_CONTENT_RE = re.compile(r"<(?:" + _COMMENT + "|" + _skipped_elements(groups=True) + ")")
_BREAK_TAG_RE = re.compile(r"</?(?i:" + "|".join(sorted(BLOCK_TAGS | {"br", "option"}))
                           + r")(?=[\s/>]|\Z)" + _ATTRS + r">?")
_ANY_TAG_RE = _PLAIN_TAG_RE


def stretch_text(piece: str) -> str:
    """Plain text of a piece of raw HTML: paragraphs split at block-level tags and ``<br>``,
    comments and script/style content dropped, entities decoded, one blank line between
    paragraphs (the :class:`~blocksift.wire.results.MainText` convention)."""
    text = _HIDDEN_CONTENT_RE.sub(" ", piece)
    text = _BREAK_TAG_RE.sub("\x00", text)  # a newline in the source is only a space
    text = _ANY_TAG_RE.sub("", text)
    if "&" in text:
        text = tokenizer.unescape(text)
    lines = (" ".join(line.split()) for line in text.split("\x00"))
    return "\n\n".join(line for line in lines if line)


def _tag_span(tags, ordinal: int) -> tuple[int, int]:
    """Source span of element ``ordinal``; a void element ends with its start tag."""
    if tags.names[ordinal] in VOID_ELEMENTS:
        return tags.starts[ordinal], tags.tag_ends[ordinal]
    return tags.starts[ordinal], tags.close_ends[ordinal]


def elements_within(page: Page, start: int, end: int) -> list:
    """Outermost elements of ``page.body`` lying wholly inside ``raw[start:end]``."""
    from ..content import NON_TEXT_TAGS

    tags = page.tags
    chosen = []
    stack = [page.body]
    while stack:
        element = stack.pop()
        ordinal = page.ordinal(element)
        if ordinal is None or ordinal >= len(tags):
            stack.extend(reversed(list(element)))
            continue
        lo, hi = _tag_span(tags, ordinal)
        if hi <= start or lo >= end:
            continue
        if start <= lo and hi <= end:
            if element.tag not in NON_TEXT_TAGS:
                chosen.append(element)
            continue
        stack.extend(reversed([child for child in element if isinstance(child.tag, str)]))
    return chosen  # depth-first, children in order: document order


# ---------------------------------------------------------------------------------------
# The algorithm
# ---------------------------------------------------------------------------------------

def extract(page: Page, params: Params, model: object = None) -> ExtractionResult:
    """Logical link blocks of ``page`` (seed 000 §3), LCR/CCR, and optionally main text.

    Args:
        page: the parsed page; only ``page.raw`` is read unless ``params.main_text`` is on
            (then the tree is built for the chosen stretch) or the page carries ids.
        params: thresholds and choices (defaults: the papers' values).
        model: unused (the method learns nothing).

    Returns:
        Blocks of kind ``"links"`` (span, link count, ids of the elements wholly inside),
        stats ``links``, ``block_links``, ``blocks``, ``lcr``, ``ccr``, ``d_t``, ``c_t``;
        with ``main_text`` also the ``"main"`` block and ``main``.
    """
    raw = page.raw
    d_t, c_t = params.threshold, params.c_t
    if not raw.strip():
        return ExtractionResult(algorithm=NAME, status="empty", message="the page is empty",
                                stats={"links": 0, "block_links": 0, "blocks": 0, "lcr": 0.0,
                                       "ccr": 0.0, "d_t": d_t, "c_t": c_t})
    links = scan_links(raw)
    page_links = len(links)
    if params.link_scope == "external":
        links = external_links(raw, links, page.url)
    distances = gap_distances(raw, links, params.distance, hidden_code=params.hidden_code,
                              limit=d_t)
    runs = group_links(distances, d_t, c_t) if links else []
    id_attr = page.id_attr
    # the extension stamps every element, <html> and <head> included: the start tells
    has_ids = params.element_ids and (id_attr + "=") in raw[:_ID_PROBE_CHARS]
    blocks: list[Block] = []
    block_links = 0
    block_chars = 0
    for first, last in runs:
        start, end = links[first].start, links[last].end
        count = last - first + 1
        block_links += count
        block_chars += end - start
        blocks.append(Block(
            kind="links", algorithm=NAME, score=float(count), start=start, end=end,
            xpaths=[], link_count=count,
            element_ids=ids_within(raw, start, end, id_attr) if has_ids else [],
            features={"chars": float(end - start),
                      "links_per_kchar": round(1000.0 * count / max(1, end - start), 3)}))
    stats = {
        "links": page_links, "scope_links": len(links), "block_links": block_links,
        "blocks": len(blocks),
        "lcr": block_links / page_links if page_links else 0.0,
        "ccr": block_chars / len(raw),
        "d_t": d_t, "c_t": c_t,
    }
    message = f"{len(blocks)} link blocks" if blocks else "no link block on this page"
    result = ExtractionResult(algorithm=NAME, blocks=blocks, stats=stats, message=message,
                              stage="link_blocks")
    if params.main_text:
        _add_main_text(page, result, [(b.start, b.end, b.link_count or 0) for b in blocks],
                       params.main_link_cost)
    return result


def _add_main_text(page: Page, result: ExtractionResult,
                   blocks: Sequence[tuple[int, int, int]], link_cost: float | None) -> None:
    """Fill ``result.main`` with the stretch(es) between link blocks holding the most text."""
    from ..content import render_main

    stretches, first, last, units = main_stretches(page.raw, blocks, link_cost)
    result.stats["main_units"] = units
    result.stage = "between_link_blocks" if blocks else "no_link_blocks"
    if units == 0 or not stretches:
        result.status = "empty"
        result.message += "; no text outside the link blocks"
        return
    if last > first:
        result.stage = "across_link_blocks"
        result.stats["main_blocks_crossed"] = last - first
    start, end = stretches[0][0], stretches[-1][1]
    # the crossed blocks' own links are left out of the text (they are link blocks)
    text = "\n\n".join(filter(None, (stretch_text(page.raw[lo:hi]) for lo, hi in stretches)))
    if not text:
        result.status = "empty"
        result.message += "; the stretch holding the most text has no visible text"
        return
    elements = [el for lo, hi in stretches for el in elements_within(page, lo, hi)]
    main = render_main(page, elements)
    # The text comes from the stretch itself: text lying directly in an element that also
    # holds a link block belongs to no element wholly inside the stretch, but is main text.
    main.text = text
    result.main = main
    result.blocks.append(Block(
        kind="main", algorithm=NAME, score=float(units), start=start, end=end,
        element_ids=main.element_ids, xpaths=main.xpaths,
        features={"text_units": float(units)}))

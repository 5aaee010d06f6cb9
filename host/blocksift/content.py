"""Turning chosen elements into main text: plain text with paragraphs, sanitized HTML.

Every algorithm that picks main-content elements hands them to :func:`render_main`, so the
reader view, the CLI and the evaluation see the same text for the same choice.
"""

from __future__ import annotations

import copy
import itertools
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from html import escape as html_escape
from urllib.parse import quote, urldefrag, urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

from .page import Page
from .rawscan import STAMP_ATTR
from .repair import append_text
from .wire.constants import HIDDEN_ATTR
from .wire.results import MainText

log = logging.getLogger(__name__)

#: Elements whose content is never text a reader sees.
NON_TEXT_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title", "meta",
                           "link", "iframe", "object", "embed", "svg", "canvas", "select",
                           "option", "button", "input", "textarea"})

#: Elements that start a new paragraph in the plain-text rendering.
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
    "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "li", "main", "menu",
    "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "ul",
})

_WS = re.compile(r"\s+")

# Allowlist for the reader view: structure, text-level semantics, media, tables.
SAFE_TAGS = {
    "a", "abbr", "article", "b", "blockquote", "br", "caption", "cite", "code", "col",
    "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p",
    "picture", "pre", "q", "s", "samp", "section", "small", "source", "span", "strong", "sub",
    "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul",
    "var", "wbr",
    # a note set apart from the text (a documentation page's "Note", "Warning", "Tip")
    "aside",
    # text of another direction inside a line: a name, a word (isolated, or forced)
    "bdi", "bdo",
} | {
    # MathML (math kept readable: the browser renders it; KaTeX/MathJax carry it too)
    "math", "semantics", "annotation", "mrow", "mi", "mo", "mn", "ms", "mtext", "mspace",
    "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot", "munder", "mover", "munderover",
    "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom", "menclose", "mfenced",
    "mmultiscripts", "mprescripts", "none",
}
SAFE_ATTRIBUTES = {
    # on any element: its writing direction and language (a Hebrew quote in an English
    # article, English code in an Arabic one; ``dir`` values other than these are dropped)
    "*": {"dir", "lang"},
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height", "srcset", "sizes"},
    "source": {"srcset", "type", "media", "sizes"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "col": {"span"},
    "colgroup": {"span"},
    "ol": {"start", "reversed", "type"},
    "li": {"value"},
    "time": {"datetime"},
    "abbr": {"title"},
    "q": {"cite"},
    "blockquote": {"cite"},
    "code": {"class"},
    "pre": {"class"},
    "math": {"display"},
    "annotation": {"encoding"},
    "mo": {"stretchy", "fence", "separator", "lspace", "rspace"},
    "mstyle": {"mathvariant", "displaystyle", "scriptlevel"},
    "mi": {"mathvariant"},
    "mtd": {"columnspan", "rowspan"},
    "mfrac": {"linethickness"},
    "menclose": {"notation"},
    "mspace": {"width"},
}
SAFE_URL_SCHEMES = {"http", "https", "mailto"}
#: Attributes whose value is a URL (or, for srcset, a list of URLs) that ammonia itself does
#: not check; each is filtered by :func:`safe_url_attribute`.
_URL_ATTRIBUTES = frozenset({"href", "src", "srcset", "cite"})
_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
# Browsers drop ASCII tab/newline anywhere in a URL and trim controls/spaces at its ends.
_URL_IGNORED_RE = re.compile(r"[\t\n\r]")
#: Characters XML (and so lxml's text setter) refuses: C0 controls but tab, LF and CR.
_NOT_XML_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
#: A character reference libxml2 decodes to a character of :data:`_NOT_XML_TEXT` (the
#: semicolon optional, the digits running on as long as they are digits: "&#x1b" is ESC,
#: not "&#x1" and "b").
_NOT_XML_REFERENCE = re.compile(
    r"&#(?:0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|6553[45])(?![0-9])"
    r"|[xX]0*(?:[0-8bBcCeEfF]|1[0-9a-fA-F]|[fF]{3}[eEfF])(?![0-9a-fA-F]))")
#: The C0 controls of :data:`_NOT_XML_TEXT` as bytes (in UTF-8 only they encode to these).
_NOT_XML_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
_SOURCE_PART = 1 << 20
_LAZY_SRC_ATTRS = ("data-src", "data-lazy-src", "data-original", "data-url", "data-srcset",
                   "data-lazy-srcset")

#: Whole-element texts that are media-player furniture or picture credits, not article text
#: (BBC-style "Media playback is unsupported on your device", "Image copyright Reuters").
NOTICE_TEXT = re.compile(
    r"^(?:media playback is (?:unsupported|not supported) on your device|media caption|"
    r"image caption|video caption|(?:image|photo|picture|video) (?:copyright|source|credit)\b.*|"
    r"(?:copyright\s*)?©.{0,60}|getty images|advertisement|skip (?:to )?advert(?:isement)?)$",
    re.I)
#: Class names that give a code block's language ("language-py", "lang-js", "brush: ruby",
#: "highlight-source-go", "sourceCode python").
#: A word each of NOTICE_TEXT's alternatives holds (within one text node, as its words).
_NOTICE_WORDS = ("media", "caption", "image", "photo", "picture", "video", "©", "getty",
                 "advert")
_NOTICE_WORD = re.compile("|".join(_NOTICE_WORDS), re.I)
_CODE_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight-source|brush:?|sourcecode)[-:\s]?"
                            r"([a-z][\w+#-]{0,20})", re.I)
_NOT_A_LANGUAGE = {"none", "plain", "plaintext", "text", "nohighlight", "default", "code"}
_MEDIA = ("img", "picture", "video", "table", "pre", "math")
_GUTTER = re.compile(r"^[\d\s]*$")


def element_text(element: etree._Element,
                 skip: Callable[[etree._Element], bool] | None = None) -> str:
    """Visible text of ``element`` (no script/style), whitespace collapsed; ``skip``: the
    descendants left out with their subtrees (their tails stay)."""
    return " ".join(" ".join(text_pieces(element, skip)).split())


def rendered_text(element: etree._Element,
                  skip: Callable[[etree._Element], bool] | None = None) -> str:
    """``element``'s text on one line as a page without its styles shows it: inline pieces
    glued (``<span>Category</span><span>:</span>`` is "Category:", as in the reader's own
    text); block elements, ``<br>`` and elements styled as boxes (the ``display:
    inline-block`` words of an animated headline, which the site's CSS spaces apart) are a
    space. ``skip`` as for :func:`element_text`."""
    pieces: list[str] = []
    stack: list[tuple[etree._Element, bool]] = [(element, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            if _boxed(node):
                pieces.append(" ")
            if node is not element and node.tail:
                pieces.append(node.tail)
            continue
        if node is not element and (not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS
                                    or (skip is not None and skip(node))):
            if node.tail:
                pieces.append(node.tail)
            continue
        if node.tag == "br" or _boxed(node):
            pieces.append(" ")
        if node.text:
            pieces.append(node.text)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node))
    return " ".join("".join(pieces).split())


#: An inline style that lays the element out as a box of its own.
_BOX_STYLE = re.compile(r"(?:^|;)\s*display\s*:\s*(?:block|inline-block|flex|inline-flex|grid|"
                        r"inline-grid|table|list-item)\b", re.I)


def _boxed(node: etree._Element) -> bool:
    return node.tag in BLOCK_TAGS or bool(_BOX_STYLE.search(node.get("style") or ""))


def _pieces_as_they_come(element: etree._Element) -> Iterator[str]:
    """:func:`text_pieces` of ``element`` (no ``skip``), one at a time: a caller that has
    read enough stops the walk there."""
    stack: list[tuple[etree._Element, bool]] = [(element, False)]
    while stack:
        node, closing = stack.pop()
        if closing or not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS:
            piece = node.tail if node is not element else None
        else:
            piece = node.text
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node))
        if piece:
            yield piece


def element_text_within(element: etree._Element, limit: int) -> str | None:
    """:func:`element_text` of ``element`` when it is at most ``limit`` characters long,
    else None: the walk stops once the text seen holds more than ``limit`` characters that
    are not white space (the collapsed text holds at least those), so a test of a short
    line's holder does not read a whole page."""
    pieces: list[str] = []
    seen = 0
    for piece in _pieces_as_they_come(element):
        pieces.append(piece)
        seen += len("".join(piece.split()))
        if seen > limit:
            return None
    text = " ".join(" ".join(pieces).split())
    return text if len(text) <= limit else None


def element_text_start(element: etree._Element, length: int) -> str:
    """The first ``length`` characters of :func:`element_text` of ``element``, read only as
    far as they go: pieces are words apart, so the text of the first pieces starts the whole
    text, and it is long enough once they hold ``length`` characters that are not white
    space."""
    pieces: list[str] = []
    seen = 0
    for piece in _pieces_as_they_come(element):
        if seen >= length:
            break
        pieces.append(piece)
        seen += len("".join(piece.split()))
    return " ".join(" ".join(pieces).split())[:length]


def text_pieces(element: etree._Element,
                skip: Callable[[etree._Element], bool] | None = None) -> list[str]:
    """Text pieces of ``element`` in document order, skipping non-text subtrees (and those
    ``skip`` names).

    Iterative (an explicit stack), so pages nested thousands of levels deep cannot exhaust
    Python's recursion limit.
    """
    pieces: list[str] = []
    stack: list[tuple[etree._Element, bool]] = [(element, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            if node is not element and node.tail:
                pieces.append(node.tail)
            continue
        if not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS or (
                skip is not None and node is not element and skip(node)):
            if node is not element and node.tail:
                pieces.append(node.tail)
            continue
        if node.text:
            pieces.append(node.text)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node))
    return pieces


def paragraphs(elements: Sequence[etree._Element],
               exclude: Collection[etree._Element] = frozenset()) -> list[str]:
    """Plain-text paragraphs of ``elements``: block-level boundaries split, ``<br>`` breaks.

    Elements in ``exclude`` (and their subtrees) are skipped; their tails are kept.
    Iterative for the same reason as :func:`text_pieces`.
    """
    out: list[str] = []
    current: list[str] = []

    def flush() -> None:
        text = _WS.sub(" ", "".join(current)).strip()
        if text:
            out.append(text)
        current.clear()

    for root in elements:
        stack: list[tuple[etree._Element, bool]] = [(root, False)]
        while stack:
            node, closing = stack.pop()
            tag = node.tag if isinstance(node.tag, str) else None
            if closing:
                if tag in BLOCK_TAGS:
                    flush()
                if node is not root and node.tail:
                    current.append(node.tail)
                continue
            if tag is None or tag in NON_TEXT_TAGS or (exclude and node in exclude):
                if node is not root and node.tail:
                    current.append(node.tail)
                continue
            if tag in BLOCK_TAGS or tag == "br":
                flush()
            if tag == "pre":
                text = node.text_content()
                if text.strip():
                    out.append(text.strip("\n"))
                if node is not root and node.tail:
                    current.append(node.tail)
                continue
            if node.text:
                current.append(node.text)
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node))
        flush()
    return out


#: The values of ``dir`` the reader keeps (HTML's three).
DIRECTIONS = frozenset({"ltr", "rtl", "auto"})
#: Languages written right to left, by a language tag's first subtag: Arabic, Hebrew,
#: Persian (and Dari), Urdu, Pashto, Yiddish, Dhivehi, Sorani Kurdish, Sindhi, Uyghur,
#: Kashmiri, Western Punjabi, South Azerbaijani, Balochi, Syriac, Aramaic, N'Ko, the Iranian
#: languages written in Arabic script, and Hebrew's and Yiddish's old codes. Kurdish ("ku")
#: is written both ways (Kurmanji in Latin letters) and is left to the page's letters.
RTL_LANGUAGES = frozenset({
    "ar", "he", "fa", "prs", "ur", "ps", "yi", "dv", "ckb", "sd", "ug", "ks", "pnb", "azb",
    "bal", "syr", "arc", "nqo", "glk", "mzn", "lrc", "skr", "khw", "iw", "ji",
})
#: Scripts written right to left (a tag's script subtag: "az-Arab", "pa-Arab", "uz-Arab").
RTL_SCRIPTS = frozenset({"arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "mand",
                         "samr", "mend"})
#: How much of a text :func:`text_direction` reads (the opening letters say it).
_DIRECTION_SAMPLE = 4000


def language_direction(tag: str) -> str:
    """The writing direction of a BCP 47 language tag: "rtl" ("ar", "he-IL", "az-Arab"),
    "ltr" for any other tag ("en", "ku-Latn"), "" without one."""
    parts = [part for part in re.split(r"[-_]", (tag or "").strip().lower()) if part]
    if not parts or not parts[0].isalpha():
        return ""
    script = next((part for part in parts[1:] if len(part) == 4 and part.isalpha()), "")
    if script:
        return "rtl" if script in RTL_SCRIPTS else "ltr"
    return "rtl" if parts[0] in RTL_LANGUAGES else "ltr"


def text_direction(text: str) -> str:
    """The direction most of ``text``'s letters are written in: "rtl" when right-to-left
    letters (Hebrew, Arabic, Syriac, Thaana, N'Ko) outnumber left-to-right ones, "ltr" when
    it has letters and they do not, "" without any."""
    rtl = ltr = 0
    for char in text[:_DIRECTION_SAMPLE]:
        kind = unicodedata.bidirectional(char)
        if kind == "L":
            ltr += 1
        elif kind in ("R", "AL"):
            rtl += 1
    return "" if not rtl + ltr else "rtl" if rtl > ltr else "ltr"


def declared(element: etree._Element, name: str) -> str:
    """The value of ``name`` ("dir" or "lang") ``element`` has or inherits from the nearest
    ancestor that sets it ("" when none does); for "dir" only "ltr", "rtl" and "auto"
    (HTML's values) count, lower-cased; ``lang`` also as ``xml:lang``."""
    node: etree._Element | None = element
    while node is not None:
        if isinstance(node.tag, str):
            value = node.get(name)
            if value is None and name == "lang":
                value = node.get("xml:lang")
            if value is not None:
                value = value.strip()
                if name != "dir":
                    return value  # lang="" says "unknown": it is the element's language
                if value.lower() in DIRECTIONS:
                    return value.lower()
        node = node.getparent()
    return ""


def common_ancestor(elements: Sequence[etree._Element]) -> etree._Element | None:
    """The nearest element holding all of ``elements`` (in document order): that of the
    first and the last, since whatever lies between them lies inside it too."""
    if not elements:
        return None
    first, last = elements[0], elements[-1]
    above = {first, *first.iterancestors()}  # held: lxml keeps one proxy per node meanwhile
    for node in (last, *last.iterancestors()):
        if node in above:
            return node
    return None


def _mark_direction(clone: etree._Element, source: etree._Element,
                    base: tuple[str, str]) -> None:
    """Give ``clone`` (the reader's copy of ``source``) the ``dir`` and ``lang`` ``source``
    inherits where they differ from ``base`` (the article's): a quote in Hebrew whose
    paragraphs alone were chosen keeps its direction once its <blockquote dir> is left out."""
    for name, value in zip(("dir", "lang"), base, strict=True):
        own = declared(source, name)
        if own and own != value and clone.get(name) is None:
            clone.set(name, own)


def plain_text(elements: Sequence[etree._Element],
               exclude: Collection[etree._Element] = frozenset()) -> str:
    """Main text as plain text, paragraphs separated by a blank line."""
    return "\n\n".join(paragraphs(elements, exclude))


def sanitized_html(page: Page, elements: Sequence[etree._Element],
                   exclude: Collection[etree._Element] = frozenset(),
                   post_heads: Collection[etree._Element] = frozenset()) -> str:
    """Allowlist-sanitized HTML of ``elements``, links made absolute, lazy images resolved.

    nh3 (Rust ammonia) does the sanitizing: no script, no event handler, no style, only
    http(s)/mailto URLs; the extension sanitizes again before display. ``post_heads``: the
    elements among ``elements`` that name a thread's posts' authors (:func:`post_authors`),
    each shown as the head of its post (:func:`_post_head`).
    """
    import nh3  # lazy: only main-text replies need it

    pieces: list[str] = []
    # formulas marked by class only where the page names those classes: looking at every
    # element's class is a step per element of a long article
    math_classes = any(name in page.raw for name in _MATH_CLASSES)
    # a label scrambled among identifiers, looked for where the page's source has one
    scrambled = SCRAMBLED.search(page.raw) is not None
    # likewise control characters, looked for in the copies' text only where the page's
    # source has one (one search of the raw page, not a serialization of each copy)
    control = _may_hold_not_xml_text(page.raw)
    hider_of, chosen_under = _hidden_parts(elements)
    inside = _nested_in_left_out(elements, exclude, post_heads) if exclude else {}
    if inside:
        folded = {nested for nesteds in inside.values() for nested in nesteds}
        elements = [element for element in elements if element not in folded]
    head_at = -1  # the index in pieces of a post's head with nothing shown after it yet
    shown = False  # whether a piece shows anything (text or a picture) yet
    # the index in pieces of the first of the headings that end them so far, -1 if a piece
    # other than a heading ends them; and per piece, its heading tag (or "") and its words
    headings_at = -1
    outline: dict[int, tuple[str, int]] = {}
    units = _table_runs(elements)
    level_of: dict[etree._Element, int] = {}  # a nested thread's reply's depth, by its head
    if post_heads:
        units = _heads_first(units, post_heads)
        heads = [unit for unit in units
                 if not isinstance(unit, list) and _names_a_post(unit, post_heads)]
        level_of = dict(zip(heads, reply_levels(heads)))
    level = level_before = 0  # replies open in a <blockquote> each, its post's box
    quote_of = _quotes_left_out(units, elements)
    quote_open: etree._Element | None = None  # the page's quote the last piece showed text of
    around = common_ancestor(elements)
    base = (declared(around, "dir"), declared(around, "lang")) if around is not None else ("", "")
    for unit in units:
        if post_heads and not isinstance(unit, list) and _names_a_post(unit, post_heads):
            if quote_open is not None:
                pieces.append("</blockquote>")  # a piece of its own: a head may be dropped
                quote_open = None
            # a head right after another one: the other names no post shown here (a
            # thread's starter in its header, a post's name given again below its text)
            if head_at >= 0:
                del pieces[head_at:]
                level = level_before
            head_at = len(pieces)
            level_before, deeper = level, level_of.get(unit, 0)
            moves = "</blockquote>" * (level - deeper) + "<blockquote>" * (deeper - level)
            # (a reply opens its box: no rule between it and the post it answers)
            pieces.append(moves + _post_head(unit, first=not shown or deeper > level))
            level = deeper
            continue
        if not isinstance(unit, list):
            clone = _copy_for_reader(unit, exclude, control, inside.get(unit, ()))
        elif unit[0].tag in _LIST_ITEMS:
            clone = _list_of(unit, exclude, control, inside)
        else:
            clone = _table_of(unit, exclude, control, inside)
        etree.strip_attributes(clone, STAMP_ATTR)
        _mark_direction(clone, unit[0] if isinstance(unit, list) else unit, base)
        clone.tail = None  # a copy keeps the page's text after its element: not chosen
        holder = lxml_html.Element("div")
        holder.append(clone)
        hider = hider_of.get(unit[0] if isinstance(unit, list) else unit)
        _drop_hidden_media(holder, hider is not None,
                           hider is not None and chosen_under[hider] > 1)
        if not len(holder):
            continue  # a hidden heading alone
        restructure(holder, math_classes=math_classes, scrambled=scrambled, url=page.url or "")
        if not len(holder) and not (holder.text or "").strip():
            # all of it left the reader's copy (a player with its fallback text, a control,
            # a spacer): the holder itself stood in for it, an empty box between two
            # headings that kept the first from being seen as heading nothing
            continue
        # restructuring may unwrap the copy itself (a sidebar's <aside> loses its tag): then
        # the holder holds its children and text, all of which the reader shows
        clone = holder[0] if len(holder) == 1 and not (holder.text or "").strip() \
            and not (holder[0].tail or "").strip() else holder
        if page.url:
            make_links_absolute(clone, page.url)
        shows_something = bool("".join(clone.itertext()).strip()) \
            or next(clone.iter(*_PICTURES), None) is not None
        if clone.tag in _HEADINGS:
            headings_at = len(pieces) if headings_at < 0 and shown else headings_at
        elif shows_something:
            headings_at = -1
        outline[len(pieces)] = (clone.tag if clone.tag in _HEADINGS else "",
                                len(element_text(clone).split()))
        quote_box = quote_of.get(unit[0] if isinstance(unit, list) else unit)
        opens = ""
        if quote_box is not quote_open:
            # a quote's text chosen without its box is shown as a quote, not as the words
            # of the post around it; an opening left unclosed is closed by the sanitizer
            opens = ("</blockquote>" if quote_open is not None else "") + (
                "<blockquote>" if quote_box is not None else "")
            quote_open = quote_box
        pieces.append(opens + lxml_html.tostring(clone, encoding="unicode", with_tail=False))
        if shows_something:
            head_at = -1
            shown = True
        # the copy is free before the next is made and before nh3 parses the text again:
        # on a long page each is as large as the page's own tree
        clone = holder = None
    if head_at >= 0:
        del pieces[head_at:]  # a head the page's end follows
        level = level_before
    elif headings_at >= 0 and not _entry_of_a_listing(outline, headings_at):
        # headings with nothing under them after the text (MDN's "Help improve MDN" above
        # its feedback buttons): an outline's entries for no section
        del pieces[headings_at:]
    pieces.append("</blockquote>" * level)
    return nh3.clean("".join(pieces), tags=SAFE_TAGS, attributes=SAFE_ATTRIBUTES,
                     attribute_filter=safe_url_attribute, url_schemes=SAFE_URL_SCHEMES,
                     link_rel="noopener noreferrer", strip_comments=True)


#: Fewest headings of one level, each over at most this many words (median), before the
#: headings that end the reader's text, for the last of them to be a listing's entry.
_LISTING_HEADINGS, _LISTING_ENTRY_WORDS = 3, 40


def _entry_of_a_listing(outline: dict[int, tuple[str, int]], at: int) -> bool:
    """Whether the heading at piece ``at`` (``outline``: per piece, its heading tag or "" and
    its words) ends a listing whose entries are headings of its level over a few words each
    (a shop's product names over their prices, a ranking's "21. Boris Mikhailov" over a
    picture's caption): its last entry, whatever follows it was not chosen, is no empty
    section's title."""
    tag = outline[at][0]
    gaps: list[int] = []
    words = -1  # words since the last heading of the level; -1 before the first
    for index in sorted(i for i in outline if i < at):
        heading, count = outline[index]
        if heading == tag:
            if words >= 0:
                gaps.append(words)
            words = 0
        elif words >= 0:
            words += count
    if words >= 0:
        gaps.append(words)
    gaps.sort()
    return len(gaps) >= _LISTING_HEADINGS and gaps[len(gaps) // 2] <= _LISTING_ENTRY_WORDS


def reply_levels(heads: Sequence[etree._Element]) -> list[int]:
    """How deep in a thread's tree of replies each post is (0: at the top), from its head's
    place in the page (``heads``: the posts' author names, in document order), or all 0 where
    the page lays its posts out flat.

    A nested thread (old Reddit's, Hacker News' as boxes in boxes) puts a reply inside the
    box of the post it answers, each level deeper in the page's tree by the same few
    elements: a head deeper than the one before is a reply to it when that post is the
    first one inside the box the two share; a head as deep as an earlier one answers the same
    post. Levels are shown only when the thread comes back up from a reply (a later head
    higher than the one before it) and every level of replies answers its post so: a
    question whose answers alone sit deeper than it is no tree."""
    depths = [sum(1 for _ in head.iterancestors()) for head in heads]
    levels = [0] * len(heads)
    open_depths: list[int] = []  # the depth of each level open, top first
    came_back = False
    position = {head: n for n, head in enumerate(heads)}
    for n, (head, depth) in enumerate(zip(heads, depths)):
        while open_depths and open_depths[-1] > depth:
            open_depths.pop()
            came_back = True
        if open_depths and open_depths[-1] == depth:
            levels[n] = len(open_depths) - 1
            continue
        if open_depths and open_depths[-1] < depth and not _replies_to(head, heads[n - 1],
                                                                       position):
            # deeper, but no reply: the posts start here (a thread's own post above its
            # comments, laid out otherwise)
            open_depths = [depth]
            continue
        if came_back and open_depths and open_depths[-1] < depth < depths[n - 1]:
            return [0] * len(heads)  # back up to a depth no post had: no tree
        open_depths.append(depth)
        levels[n] = len(open_depths) - 1
    if not came_back or max(levels, default=0) == 0:
        return [0] * len(heads)
    return levels


def _class_words(node: etree._Element) -> frozenset[str]:
    """The words of ``node``'s class that name a kind of box, not one box (no figures: an
    id such as Reddit's ``id-t1_m3x9``; not ``odd``/``even``)."""
    return frozenset(word for word in (node.get("class") or "").lower().split()
                     if not any(c.isdigit() for c in word) and word not in ("odd", "even"))


def _replies_to(head: etree._Element, above: etree._Element,
                position: dict[etree._Element, int]) -> bool:
    """Whether the post named by ``head`` lies in the box of the post named by ``above`` as
    a reply: ``above`` is the first name in the box the two share, and ``head`` sits in a box
    of the same make as the one ``above`` sits in there (the same tags, mostly the same
    class words, from the name up: a comment in a comment's box of replies), not in a box of
    another make (a question's answers, laid out otherwise than the question)."""
    chain = list(above.iterancestors())
    mine = {node: n for n, node in enumerate(head.iterancestors())}
    shared_at = next((n for n, node in enumerate(chain) if node in mine), None)
    if shared_at is None:
        return False
    shared = chain[shared_at]
    if next((node for node in shared.iter() if node in position), None) is not above:
        return False
    own = list(head.iterancestors())[:shared_at + 1]
    if len(own) <= shared_at or any(node is shared for node in own):
        return False
    for theirs, ours in zip(chain[:shared_at + 1], own):
        if theirs.tag != ours.tag:
            return False
        words, other = _class_words(theirs), _class_words(ours)
        if (words or other) and len(words & other) * 2 < len(words | other):
            return False
    return True


def _heads_first(units: list[etree._Element | list[etree._Element]],
                 post_heads: Collection[etree._Element]
                 ) -> list[etree._Element | list[etree._Element]]:
    """``units`` with each post's head that lies inside an earlier unit (in a part of that
    box left out: a post's header) moved before that unit, which its copy would otherwise
    follow: the name heads the post's box, not the text after it."""
    out: list[etree._Element | list[etree._Element]] = []
    for unit in units:
        if not isinstance(unit, list) and _names_a_post(unit, post_heads):
            above = set(unit.iterancestors())
            at = next((index for index in range(len(out) - 1, -1, -1)
                       if not isinstance(out[index], list) and out[index] in above), None)
            if at is not None:
                out.insert(at, unit)
                continue
        out.append(unit)
    return _signed_posts_headed(out, post_heads)


def _signed_posts_headed(units: list[etree._Element | list[etree._Element]],
                         post_heads: Collection[etree._Element]
                         ) -> list[etree._Element | list[etree._Element]]:
    """``units`` with the name of a post signed below its text (Stack Exchange's "answered
    Feb 4, 2014 poke" under each answer) moved above that text. A name shares its nearest
    ancestor with its own post's text: where that text lies before the name and none after
    it (the units up to the next name), and that ancestor holds no other name, the name is
    the post's signature; left where it stood, it headed the next post, and every answer of a
    thread read as written by the author of the one before."""
    at = [index for index, unit in enumerate(units)
          if not isinstance(unit, list) and _names_a_post(unit, post_heads)]
    moved: dict[int, int] = {}  # a head's index -> the index of the unit it goes before
    for k, index in enumerate(at):
        head = units[index]
        assert not isinstance(head, list)
        chain = list(head.iterancestors())
        level = {ancestor: n for n, ancestor in enumerate(chain)}

        low = at[k - 1] + 1 if k else 0
        high = at[k + 1] if k + 1 < len(at) else len(units)
        before = [(_nearness(units[j], level), j) for j in range(low, index)]
        if not before:
            continue
        best = min(n for n, _ in before)
        if best >= len(chain) or any(_nearness(units[j], level) <= best
                                     for j in range(index + 1, high)):
            continue  # text of its own after it: a head above its post already
        post = chain[best]
        neighbours = [units[at[n]] for n in (k - 1, k + 1) if 0 <= n < len(at)]
        if any(post in set(other.iterancestors()) for other in neighbours
               if not isinstance(other, list)):
            continue  # the ancestor is the thread's, holding other posts' names too
        target = next(j for n, j in before if n == best)
        if k:
            # the text is the post of the name above it when the two share an ancestor
            # holding no third name: a name below it is no signature but, say, who liked
            # the post ("MargoFarrel likes this")
            above = units[at[k - 1]]
            assert not isinstance(above, list)
            above_chain = list(above.iterancestors())
            reach = _nearness(units[target], {a: n for n, a in enumerate(above_chain)})
            if reach < len(above_chain) and not any(
                    above_chain[reach] in set(other.iterancestors())
                    for other in (units[at[n]] for n in (k - 2, k + 1) if 0 <= n < len(at))
                    if not isinstance(other, list)):
                continue
        moved[index] = target
    if not moved:
        return units
    before_unit: dict[int, list[etree._Element | list[etree._Element]]] = {}
    for index, target in moved.items():
        before_unit.setdefault(target, []).append(units[index])
    out: list[etree._Element | list[etree._Element]] = []
    for index, unit in enumerate(units):
        out.extend(before_unit.get(index, ()))
        if index not in moved:
            out.append(unit)
    return out


def _nearness(unit: etree._Element | list[etree._Element],
              level: dict[etree._Element, int]) -> int:
    """How near (0: the parent) the nearest of a head's ancestors (``level``: each one's
    distance) that holds ``unit`` is; past them all when none does."""
    element = unit[0] if isinstance(unit, list) else unit
    for node in (element, *element.iterancestors()):
        if node in level:
            return level[node]
    return len(level)


def _names_a_post(unit: etree._Element, post_heads: Collection[etree._Element]) -> bool:
    # a name inside a profile link is shown as the link, whole (whole_links)
    return unit in post_heads or (unit.tag == "a" and any(
        node in post_heads for node in unit.iterdescendants()))


def _post_head(name: etree._Element, first: bool) -> str:
    """A post author's name as the head of the post: a rule between posts, then the name in
    bold on a line of its own (a name run in between two posts' texts reads as part of one).
    A chosen header of the post (``name`` holds the author's name with the post's date and
    number: :func:`_post_header_alone`) gives the name and, after it, the date."""
    author = _author_in(name)
    if author is not None and (not _squeezed(author) or not _post_header_alone(name, author)):
        author = None  # the name is all the head shows, as the page words it
    when = next(name.iter("time"), None)
    text = html_escape(" ".join(element_text(author if author is not None else name).split()),
                       quote=False)
    date = ""
    if author is not None and when is not None and element_text(when).strip():
        stamp = when.get("datetime")
        stamp_attr = f' datetime="{html_escape(stamp)}"' if stamp else ""
        date = f" · <time{stamp_attr}>" \
               f"{html_escape(' '.join(element_text(when).split()), quote=False)}</time>"
    # the name isolated (a user name may be written in any direction, as in HTML's own
    # example of <bdi>): and the reader knows a reply's box by it, not by a bold first line,
    # which a quote of the page may open with too
    return ("" if first else "<hr>") + f"<p><strong><bdi>{text}</bdi></strong>{date}</p>"


def _author_in(box: etree._Element) -> etree._Element | None:
    """The element naming a post's author inside ``box`` (as :func:`post_authors` finds it),
    its one profile link when it holds more."""
    for node in (box, *box.xpath(_AUTHOR_PREFILTER)):
        if node.get("itemprop") != "author" and not _AUTHOR_CLASS.search(node.get("class") or ""):
            continue
        links = [a for a in node.iter("a") if a.get("href") and element_text(a).strip()]
        return links[0] if len(links) == 1 else node
    return None


def _post_header_alone(box: etree._Element, name: etree._Element) -> bool:
    """Whether ``box`` shows nothing but a post's author (``name``), its date (``<time>``,
    the opening post's often has none) and its number: the post's header (Discourse's
    "BurntSushi February 20, 2026, 5:07pm 2" above each post of its pages for readers
    without script; Invision's name and reputation, "Dave-in-Decatur 4,522")."""
    times = list(box.iter("time"))
    rest = _squeezed(box)
    for part in (name, *times):
        rest = rest.replace(_squeezed(part), "", 1)
    return not rest or bool(_COUNT.match(rest))


def _post_header_in(box: etree._Element, name: etree._Element) -> etree._Element | None:
    """The post's header around ``name`` inside the chosen ``box`` (the whole post): the
    outermost element below ``box`` showing nothing but the name, a date (``<time>``, which
    it must hold) and the post's number (:func:`_post_header_alone`); None without one.
    Discourse's pages for readers without script give each post "hayley.p 6 May 2025 17:41
    7" above its text: chosen with the post, it read as a plain line, the posts run
    together, where a post whose header was chosen alone had its head (:func:`_post_head`,
    which :func:`render_main` shows in the header's place)."""
    header = None
    for node in name.iterancestors():
        if node is box:
            return header
        if next(node.iter("time"), None) is not None and _post_header_alone(node, name):
            header = node
    return None


#: An inline style that hides its element, as the extractors and hide look for it.
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
#: The same, as a declaration of its own (not ``content-visibility: hidden``): what the
#: reader's copy leaves out.
_HIDING_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b", re.I)
#: What a hidden part of the page never shows in the reader: pictures (spinners, another
#: breakpoint's copy, a gallery's other slides) and a heading whose text is not shown with it.
_PICTURES = ("img", "picture", "video", "figure")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


#: The id of a part of a page React streams hidden (``<div hidden id="S:0">``) for its script
#: to move into place: the page's content, shown once the page's scripts ran.
_REACT_SEGMENT = re.compile(r"S:\d+$")


def _inline_hidden(node: etree._Element) -> bool:
    """Whether the page hides ``node`` itself, inline: a ``hidden`` attribute (not
    "until-found", which the browser's find-in-page opens) or a hiding ``style``. Never
    ``<html>`` or ``<body>``: a page hiding all of itself until its scripts ran (anti-flicker)
    hides no part of itself."""
    if not isinstance(node.tag, str) or node.tag in ("html", "body"):
        return False
    hidden = node.get("hidden")
    if hidden is not None and hidden.lower() != "until-found" and not _REACT_SEGMENT.match(
            node.get("id") or ""):
        return True
    style = node.get("style")
    return bool(style) and _HIDING_STYLE.search(style) is not None


def _hidden_parts(elements: Sequence[etree._Element]
                  ) -> tuple[dict[etree._Element, etree._Element], Counter[etree._Element]]:
    """Per element, the outermost part of the page above it that the page hides inline; and
    per such part, how many of ``elements`` lie in it (one walk up from each element)."""
    hidden: dict[etree._Element, bool] = {}
    hider_of: dict[etree._Element, etree._Element] = {}
    chosen_under: Counter[etree._Element] = Counter()
    for element in elements:
        for ancestor in element.iterancestors():
            is_hidden = hidden.get(ancestor)
            if is_hidden is None:
                is_hidden = hidden[ancestor] = _inline_hidden(ancestor)
            if is_hidden:
                chosen_under[ancestor] += 1
                hider_of[element] = ancestor  # the last one up is the outermost
    return hider_of, chosen_under


def _drop_hidden_media(holder: etree._Element, hidden_above: bool,
                       shown_beside: bool = False) -> None:
    """Pictures and headings the page hides inline out of the reader's copy in ``holder``
    (``hidden_above``: the copied element lies in a hidden part of the page; ``shown_beside``:
    other elements of that part are shown too).

    The text of a hidden part stays (a tab panel's, a collapsed section's: it is the page's
    text, and the main-text benchmarks count it); its pictures go (a figure when it frames
    one), and so do its headings when no other text of it is shown (a hidden pop-up's
    "Score" heading chosen without the explanation below it)."""
    roots: list[etree._Element] = list(holder) if hidden_above else []
    if not hidden_above:
        for node in holder.iter():
            if node is not holder and _inline_hidden(node) and not any(
                    root in roots for root in node.iterancestors()):
                roots.append(node)
    for root in roots:
        for picture in _outermost_in(root, _PICTURES):
            # a figure without a picture frames text (a tab panel's code sample): it stays
            if picture.tag != "figure" or next(
                    picture.iter("img", "picture", "video"), None) is not None:
                _drop(picture)
        headings = [] if hidden_above and shown_beside else _outermost_in(root, _HEADINGS)
        if headings and "".join(element_text(root).split()) == "".join(
                "".join(element_text(heading).split()) for heading in headings):
            for heading in headings:
                _drop(heading)


def _outermost_in(root: etree._Element, tags: Sequence[str]) -> list[etree._Element]:
    """The elements of ``tags`` in ``root`` (itself included) that no other one holds."""
    found: list[etree._Element] = []
    taken: set[etree._Element] = set()
    for node in root.iter(*tags):
        parent = None if node is root else node.getparent()
        while parent is not None and parent not in taken and parent is not root:
            parent = parent.getparent()
        if parent is None or parent not in taken:
            found.append(node)
            taken.add(node)
    return found


def _may_hold_not_xml_text(raw: str) -> bool:
    """Whether a tree parsed from ``raw`` can hold a character of :data:`_NOT_XML_TEXT`:
    one written as it is or as a character reference.

    C-speed searches only: the literal prefix ``&#`` for references, and for the controls a
    deletion of their bytes from the UTF-8 (a regex character class reads every character
    in Python's engine, many times slower), a megabyte at a time (no copy of a whole long
    page at once).
    """
    if "\ufffe" in raw or "\uffff" in raw or _NOT_XML_REFERENCE.search(raw):
        return True
    for start in range(0, len(raw), _SOURCE_PART):
        data = raw[start:start + _SOURCE_PART].encode("utf-8", "surrogatepass")
        if len(data.translate(None, _NOT_XML_BYTES)) != len(data):
            return True
    return False


def _copy_for_reader(element: etree._Element, exclude: Collection[etree._Element],
                     control: bool = True,
                     inside: Sequence[etree._Element] = ()) -> etree._Element:
    """A copy of ``element`` without the ``exclude`` subtrees inside it and without the
    control characters lxml would refuse to set again (``control`` False: the page's source
    has none, see :func:`_may_hold_not_xml_text`).

    ``inside``: chosen elements that lie in an ``exclude`` subtree of ``element``
    (:func:`_nested_in_left_out`); each stays in its place in the copy, in the tags that
    lead to it (a quote's ``<blockquote>``), whose own text and other children go."""
    clone = copy.deepcopy(element)
    # lxml keeps control characters it parsed but refuses them when text is set again
    # (drop_tree and restructure move text): drop them here, once, before any move
    # (node by node only when one is there: a search of all the text is C-speed, a
    # step per node is not)
    if control and _NOT_XML_TEXT.search(_every_text(clone)):
        for node in clone.iter():
            if node.text and _NOT_XML_TEXT.search(node.text):
                node.text = _NOT_XML_TEXT.sub("", node.text)
            if node.tail and _NOT_XML_TEXT.search(node.tail):
                node.tail = _NOT_XML_TEXT.sub("", node.tail)
    if exclude:
        path = _ways_to(inside, element, exclude) if inside else frozenset()
        # the clone iterates in the same order as the original: pair them to drop
        # the excluded subtrees (drop_tree keeps their tails)
        dropped, removed, emptied = [], [], []
        for node, copy_node in zip(element.iter(), clone.iter()):
            if copy_node is clone:
                continue
            if node in path:
                emptied.append(copy_node)
            elif path and node.getparent() in path:
                # the left-out part's own: its tail is that part's text too
                if node in inside:
                    copy_node.tail = None
                else:
                    removed.append(copy_node)
            elif node in exclude:
                dropped.append(copy_node)
        for copy_node in emptied:
            copy_node.text = None
        for copy_node in removed:
            copy_node.getparent().remove(copy_node)
        for copy_node in dropped:
            copy_node.drop_tree()
    return clone


def _ways_to(inside: Sequence[etree._Element], element: etree._Element,
             exclude: Collection[etree._Element]) -> set[etree._Element]:
    """The elements between each of ``inside`` and the chosen element above it (``element``
    or another of ``inside``) that lie in a left-out part (``exclude``), that part
    included: the tags that lead to a chosen element there."""
    path: set[etree._Element] = set()
    hosts = {element, *inside}
    for nested in inside:
        way: list[etree._Element] = []
        top = 0
        for ancestor in nested.iterancestors():
            if ancestor in hosts:  # the chosen element whose copy holds it
                break
            way.append(ancestor)
            if ancestor in exclude:
                top = len(way)
        path.update(way[:top])
    return path


def _nested_in_left_out(elements: Sequence[etree._Element],
                        exclude: Collection[etree._Element],
                        apart: Collection[etree._Element] = frozenset()
                        ) -> dict[etree._Element, list[etree._Element]]:
    """Per element of ``elements``, the others lying in a part of it its copy leaves out
    (``exclude``), in document order, however deep: shown in their place in its copy
    (:func:`_copy_for_reader`), not after all of its text. A forum post's box chosen
    without its quote, and the quote chosen too, read as the post's words and then the
    words it answers. ``apart``: elements shown as units of their own (a post's head);
    table parts stay units too (a cell shown in its table, :func:`_table_of`)."""
    chosen = set(elements)
    host_of: dict[etree._Element, etree._Element] = {}
    for element in elements:
        if element in apart or element.tag in _TABLE_PARTS:
            continue
        passed = False
        for ancestor in element.iterancestors():
            if ancestor in chosen:
                if passed and ancestor not in apart:
                    host_of[element] = ancestor
                break
            passed = passed or ancestor in exclude
    inside: dict[etree._Element, list[etree._Element]] = {}
    for element in elements:
        top = host_of.get(element)
        if top is None:
            continue
        while top in host_of:
            top = host_of[top]
        inside.setdefault(top, []).append(element)
    return inside


#: Least share of the chosen text's words a ``<blockquote>`` holds that is the page's
#: layout, not a quote.
_QUOTE_SHARE = 0.5


def _quotes_left_out(units: Sequence[etree._Element | list[etree._Element]],
                     elements: Sequence[etree._Element]
                     ) -> dict[etree._Element, etree._Element]:
    """Per unit (its first element), the nearest ``<blockquote>`` above it that is not
    chosen itself: a forum post quoting another, whose quote's text the segmenter chose
    without the quote's box or its "R C-R said:", read as the quoting author's own words
    (an Invision thread, wcxb-dev 0547). A box holding at least half of the chosen text is
    none: a page indenting its text with a ``<blockquote>`` quotes nobody. Nor is a post's
    body that its software writes as a ``<blockquote>`` (:data:`_POST_BODY_QUOTE`)."""
    chosen = set(elements)
    quote_of: dict[etree._Element, etree._Element] = {}
    for unit in units:
        first = unit[0] if isinstance(unit, list) else unit
        for ancestor in first.iterancestors():
            if ancestor in chosen:
                break
            if ancestor.tag == "blockquote" and not _POST_BODY_QUOTE.search(
                    ancestor.get("class") or ""):
                quote_of[first] = ancestor
                break
    if not quote_of:
        return quote_of
    # (measured only on the few pages with such a quote: a walk of all the chosen text)
    size = {(unit[0] if isinstance(unit, list) else unit): sum(
        len("".join(part.itertext()).split()) for part in (unit if isinstance(unit, list)
                                                           else [unit])) for unit in units}
    quoted: Counter[etree._Element] = Counter()
    for first, box in quote_of.items():
        quoted[box] += size[first]
    total = sum(size.values())
    return {first: box for first, box in quote_of.items()
            if quoted[box] < _QUOTE_SHARE * total}


#: Parts of a table that cannot stand outside one: an HTML parser drops their tags, and the
#: cells of a row chosen one by one would run together ("(W x L)Flat Sheet").
_TABLE_PARTS = frozenset({"tr", "td", "th", "thead", "tbody", "tfoot", "caption", "col",
                          "colgroup"})


#: Items of a list: an item chosen without its list would be shown as a stray bullet at the
#: column's edge, glued to the text after it.
_LIST_ITEMS = frozenset({"li", "dt", "dd"})


def _table_runs(elements: Sequence[etree._Element]
                ) -> list[etree._Element | list[etree._Element]]:
    """``elements`` in order, each run of table parts of one table, and each run of items of
    one list, as a list (rendered in a table or list of their own, :func:`_table_of`,
    :func:`_list_of`)."""
    units: list[etree._Element | list[etree._Element]] = []
    run_holder = None
    for element in elements:
        if element.tag in _TABLE_PARTS:
            holder = next(element.iterancestors("table"), None)
        else:
            holder = element.getparent() if element.tag in _LIST_ITEMS else None
        if holder is None:
            units.append(element)
        elif holder is run_holder and isinstance(units[-1], list):
            units[-1].append(element)
        else:
            units.append([element])
        run_holder = holder
    return units


def _table_of(parts: list[etree._Element], exclude: Collection[etree._Element],
              control: bool = True,
              inside: Mapping[etree._Element, Sequence[etree._Element]] | None = None
              ) -> etree._Element:
    """A table holding copies of ``parts`` (of one table, in document order): cells in a
    row for each row they come from, each in its own column (a cell left out before it is
    an empty one), rows and row groups as they are."""
    table = lxml_html.Element("table")
    rows: dict[etree._Element, etree._Element] = {}
    for part in parts:
        clone = _copy_for_reader(part, exclude, control, (inside or {}).get(part, ()))
        clone.tail = None
        if part.tag in ("td", "th"):
            row = part.getparent()
            if row not in rows:
                rows[row] = etree.SubElement(table, "tr")
            column = sum(1 for cell in part.itersiblings("td", "th", preceding=True))
            while len(rows[row]) < column:
                etree.SubElement(rows[row], "td")
            rows[row].append(clone)
        else:
            table.append(clone)
    return table


def _list_of(items: list[etree._Element], exclude: Collection[etree._Element],
             control: bool = True,
             inside: Mapping[etree._Element, Sequence[etree._Element]] | None = None
             ) -> etree._Element:
    """A list holding copies of ``items`` (of one list, in document order): of the list's
    kind (``ol``, ``dl`` or ``ul``), an ordered list's items keeping their numbers."""
    parent = items[0].getparent()
    kind = parent.tag if parent is not None and parent.tag in ("ol", "ul", "dl") else (
        "dl" if items[0].tag != "li" else "ul")
    holder = lxml_html.Element(kind)
    if kind == "ul" and parent is not None and _INLINE_LIST_CLASS.search(parent.get("class") or ""):
        holder.set("class", parent.get("class"))  # laid out as a line (:func:`_inline_lists`)
    numbered = kind == "ol" and parent.get("reversed") is None
    if kind == "ol" and parent.get("type"):
        holder.set("type", parent.get("type"))
    try:
        first = int(parent.get("start") or 1) if numbered else 1
    except ValueError:
        first = 1
    # each item's own number, whatever items before it were left out (one pass: a list may
    # hold thousands of items)
    place = {li: n for n, li in enumerate(parent.iterchildren("li"))} if numbered else {}
    for item in items:
        clone = _copy_for_reader(item, exclude, control, (inside or {}).get(item, ()))
        clone.tail = None
        if item in place and clone.get("value") is None:
            clone.set("value", str(first + place[item]))
        holder.append(clone)
    return holder


#: The URL attributes the reader keeps (``SAFE_ATTRIBUTES``) that lxml.html resolves
#: (``iterlinks``; it leaves ``srcset`` alone), by tag.
_KEPT_LINKS = {tag: name for tag, names in SAFE_ATTRIBUTES.items()
               for name in sorted(names & {"href", "src", "cite"})}


#: A path from the root (one "/", not "//") of plain URL characters, no query or fragment
#: or ";" parameters: ``urljoin`` puts the base's scheme and host before it, nothing else.
_PLAIN_ROOT_PATH = re.compile(r"/(?!/)[A-Za-z0-9\-._~!$&'()*+,=:@%/]*\Z")
_DOT_SEGMENT = re.compile(r"/\.\.?(?:/|\Z)")


def _joiner(base_url: str) -> Callable[[str], str]:
    """``urljoin(base_url, url)``, with the base read once and the most common link (a
    plain path from the site's root) joined without parsing either."""
    try:
        base = urlsplit(base_url)
    except ValueError:  # a page address that is no URL ("http://[::1"): links stay as written
        return lambda url: url
    if base.scheme not in ("http", "https") or not base.netloc:
        return lambda url: urljoin(base_url, url)
    origin = f"{base.scheme}://{base.netloc}"

    def join(url: str) -> str:
        if _PLAIN_ROOT_PATH.match(url) and not _DOT_SEGMENT.search(url):
            return origin + url
        return urljoin(base_url, url)

    return join


def make_links_absolute(element: etree._Element, base_url: str) -> None:
    """``element.make_links_absolute(base_url, resolve_base_href=False)`` of lxml.html, for
    the attributes the sanitized reader HTML keeps; a URL ``urljoin`` refuses stays as it is.

    lxml's pass takes a Python step per element and link attribute (about 8 µs a link on a
    page of 100,000 links); this one visits only the tags whose URL the reader keeps, and
    joins each distinct URL once. What nh3 drops afterwards (``style``, ``action``,
    ``<meta>`` ...) is not worth resolving. A tree lxml reads differently (a ``<base>``, an
    ``<object>``) goes to lxml's pass itself.
    """
    # lxml's own pass reads these differently: a <base href> anywhere in the tree (it resolves
    # against it) and <object> (relative to its codebase)
    if any(base.get("href") is not None for base in element.getroottree().iter("base")) or \
            next(element.iter("object"), None) is not None:
        try:
            element.make_links_absolute(base_url, resolve_base_href=False)
        except (ValueError, AttributeError):
            pass
        return
    joined: dict[str, str] = {}
    join = _joiner(base_url)
    kept = _KEPT_LINKS
    for node in element.iter(*kept):
        name = kept[node.tag]
        value = node.get(name)
        if value is None:
            continue
        new = joined.get(value)
        if new is None:
            try:
                new = join(value.strip())
            except ValueError:  # an IPv6 host without its "]": left as it is
                new = value
            joined[value] = new
        if new != value:
            try:
                node.set(name, new)
            except ValueError:  # a control character lxml parsed but will not set again:
                # percent-encoded, as a browser's URL parser writes it
                node.set(name, _NOT_XML_TEXT.sub(lambda found: quote(found.group()), new))


def _every_text(element: etree._Element) -> str:
    """Every text and tail of ``element``'s subtree, comments' and processing
    instructions' included (the text serialization leaves those out), and its own tail; not
    in document order (what it is searched for only has to be there)."""
    return "".join([etree.tostring(element, method="text", encoding="unicode",
                                   with_tail=True),
                    *(node.text or "" for node in element.iter(etree.Comment,
                                                               etree.ProcessingInstruction))])


def safe_url(url: str, *, image: bool = False) -> bool:
    """True for an http(s) or relative URL (``mailto:`` for links, ``data:image/`` for images).

    Read as a browser reads it: tabs and newlines removed, control characters and spaces
    trimmed, the scheme case-insensitive, so ``java\tscript:`` and `` JAVASCRIPT:`` are caught.
    """
    cleaned = _URL_IGNORED_RE.sub("", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b"
                                                 "\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"
                                                 "\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
    found = _SCHEME_RE.match(cleaned)
    if found is None:
        return not cleaned.startswith("\\")  # relative; "\\host" is read as "//host"
    scheme = found.group(1).lower()
    if scheme in ("http", "https"):
        return True
    if image:
        return scheme == "data" and cleaned[5:].lstrip().lower().startswith("image/")
    return scheme == "mailto"


_SRCSET_SEPARATORS = re.compile(r"[\s,]*")
_SRCSET_URL = re.compile(r"\S*")


def srcset_urls(value: str) -> list[str]:
    """The candidate URLs of a ``srcset`` (HTML Living Standard, "parse a srcset attribute")."""
    urls: list[str] = []
    position, length = 0, len(value)
    while position < length:
        # the runs are found by regex (\s is exactly str.isspace), not character by character
        position = _SRCSET_SEPARATORS.match(value, position).end()
        start = position
        position = _SRCSET_URL.match(value, position).end()
        url = value[start:position]
        if not url:
            break
        if url.endswith(","):
            urls.append(url.rstrip(","))
            continue
        urls.append(url)
        # skip the descriptors, up to a comma outside parentheses: up to the next comma
        # when no parenthesis comes before it, else parentheses counted one by one
        comma = value.find(",", position)
        end = comma if comma >= 0 else length
        if "(" not in value[position:end] and ")" not in value[position:end]:
            position = end
            continue
        depth = 0
        while position < length and (value[position] != "," or depth):
            depth += {"(": 1, ")": -1}.get(value[position], 0)
            position += 1
    return urls


def safe_url_attribute(tag: str, attribute: str, value: str) -> str | None:
    """nh3 attribute filter: drop a URL-bearing attribute holding any unsafe URL, and a
    ``dir`` that is not one of :data:`DIRECTIONS`."""
    if attribute == "dir":
        value = value.strip().lower()
        return value if value in DIRECTIONS else None
    if attribute not in _URL_ATTRIBUTES:
        return value
    image = tag in ("img", "source")
    if attribute == "srcset":
        # read as the srcset parser does (tab/newline split a candidate) and as a URL reader
        # does (tab/newline removed): "java\tscript:" must be refused either way
        urls = srcset_urls(value) + srcset_urls(_URL_IGNORED_RE.sub("", value))
        return value if all(safe_url(url, image=True) for url in urls) else None
    return value if safe_url(value, image=image and attribute == "src") else None


def notices(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Media-player notices and picture credits inside ``elements`` (left out of the text).

    An element is one when its :func:`element_text` is a :data:`NOTICE_TEXT` of at most
    80 characters and it holds no media. The texts come from one bottom-up pass per root
    (a text is its children's texts and the pieces between them), kept only while they are
    short enough to be a notice: linear in the subtree, not in its size times its depth.
    """
    found: list[etree._Element] = []
    for root in elements:
        # a notice holds one of these words: a subtree whose text holds none has no notice
        # (one C-speed search instead of a Python step per element of a long article)
        if isinstance(root.tag, str) and _may_hold_notice(
                etree.tostring(root, method="text", encoding="unicode", with_tail=False)):
            found.extend(_notices_in(root))
    return found


def _may_hold_notice(text: str) -> bool:
    """Whether ``text`` holds a word of :data:`_NOTICE_WORD`, as that case-blind search
    finds it: by plain substring tests on the lower-cased text (many times faster), except
    where the text holds the two letters the search takes for "i" and lower() does not."""
    if "\u0130" in text or "\u0131" in text:
        return _NOTICE_WORD.search(text) is not None
    low = text.lower()
    return any(word in low for word in _NOTICE_WORDS)


#: Longest element text a notice can have.
_NOTICE_MAX = 80


def _notices_in(root: etree._Element) -> list[etree._Element]:
    """:func:`notices` of one root, in document order."""
    hits: list[tuple[int, etree._Element]] = []
    order = 0  # pre-order position: hits are found bottom-up, returned in document order
    # a frame: [element, children iterator, its words (None once too long), characters
    # of its words, word count, whether it is text (NON_TEXT_TAGS are not), its order]
    frames: list[list] = []

    def open_frame(node: etree._Element, order: int) -> None:
        frame = [node, iter(node), [], 0, 0, node.tag not in NON_TEXT_TAGS, order]
        frames.append(frame)
        add_tail(frame, node.text)

    def add_words(frame: list, words: list[str] | None, chars: int, count: int) -> None:
        frame[3] += chars
        frame[4] += count
        if frame[2] is not None:
            if words is None or frame[3] + frame[4] - 1 > _NOTICE_MAX:
                frame[2] = None  # too long for a notice: only its length is kept
            else:
                frame[2].extend(words)

    def add_tail(frame: list, tail: str | None) -> None:
        if tail:
            words = tail.split()
            if words:
                add_words(frame, words, sum(map(len, words)), len(words))

    if not isinstance(root.tag, str):
        return []
    open_frame(root, 0)
    while frames:
        frame = frames[-1]
        child = next(frame[1], None)
        if child is not None:
            if isinstance(child.tag, str):
                order += 1
                open_frame(child, order)
            else:
                add_tail(frame, child.tail)
            continue
        frames.pop()
        node, _children, words, chars, count, counts, position = frame
        length = chars + count - 1 if count else 0
        if counts and 0 < length <= _NOTICE_MAX:
            text = " ".join(words)
            if NOTICE_TEXT.match(text) and next(node.iter(*_MEDIA), None) is None:
                hits.append((position, node))
        if frames:
            parent = frames[-1]
            if counts and count:
                add_words(parent, words, chars, count)
            add_tail(parent, node.tail)
    hits.sort(key=lambda hit: hit[0])
    return [node for _order, node in hits]


def code_language(element: etree._Element) -> str:
    """The programming language a code block's classes name (its own, a child's or a
    wrapper's), '' if none."""
    nodes = [element, *element.iter("code")]
    parent = element.getparent()
    for _ in range(3):
        if parent is None:
            break
        nodes.append(parent)
        parent = parent.getparent()
    for node in nodes:
        named = (node.get("data-lang") or node.get("data-language") or "").strip().lower()
        match = _CODE_LANGUAGE.search(node.get("class") or "")
        for candidate in (named, match.group(1).lower() if match else ""):
            if candidate and candidate not in _NOT_A_LANGUAGE:
                return candidate
    return ""


def _is_layout_table(table: etree._Element) -> bool:
    """A table used for layout, not data: no header cells or caption, and either one
    column, a role of presentation, or cells holding blocks (code, paragraphs, tables)."""
    if (table.get("role") or "").lower() in ("presentation", "none"):
        return True
    if table.find(".//th") is not None or table.find(".//caption") is not None or \
            table.find(".//thead") is not None:
        return False
    rows = table.findall(".//tr")
    widths = {len([c for c in row if c.tag in ("td", "th")]) for row in rows}
    if widths <= {0, 1}:
        return True
    return any(cell.find(".//pre") is not None or cell.find(".//table") is not None or
               len(cell.findall("./p")) + len(cell.findall("./div")) >= 2
               for cell in table.iter("td"))


def _flatten_layout_table(table: etree._Element) -> None:
    """Replace a layout table by its cells' content; a line-number gutter beside code goes."""
    cells = list(table.iter("td", "th"))
    has_code = any(cell.find(".//pre") is not None for cell in cells)
    replacement = lxml_html.Element("div")
    for cell in cells:
        if has_code and cell.find(".//pre") is None and _GUTTER.match(element_text(cell)):
            continue  # line numbers of a code listing
        if has_code and cell.find(".//pre") is not None and \
                _GUTTER.match("".join(cell.find(".//pre").itertext()) or "x"):
            continue  # the gutter as a <pre> of numbers
        holder = etree.SubElement(replacement, "div")
        holder.text = cell.text
        for child in list(cell):
            holder.append(child)
    replacement.tail = table.tail
    parent = table.getparent()
    if parent is not None:
        parent.replace(table, replacement)


_SPAN_VALUE = re.compile(r"\s*\+?([0-9]+)")
#: What a browser allows a cell's ``colspan`` / ``rowspan`` (HTML's table model).
_SPAN_LIMITS = {"colspan": 1000, "rowspan": 65534}


def _span(cell: etree._Element, name: str) -> int:
    """A cell's ``colspan`` or ``rowspan`` read as a browser reads it: ASCII digits ("2px" is
    2; "²" and "0" are 1), at most the table model's limit (a page's colspan="100000000"
    would otherwise make a column list of that length)."""
    found = _SPAN_VALUE.match(cell.get(name) or "")
    value = int(found.group(1)) if found else 1
    return min(max(value, 1), _SPAN_LIMITS[name])


def _drop_empty_rows(table: etree._Element) -> None:
    """Rows of a table with nothing in any of their cells (a row of spacers, gone from the
    reader's copy), shown as a row of empty frames; not where a cell spans rows."""
    rows = [row for row in table.iter("tr") if next(row.iterancestors("table"), None) is table]
    if any(_span(cell, "rowspan") > 1 for row in rows for cell in row if cell.tag in ("td", "th")):
        return
    for row in rows:
        if not "".join(row.itertext()).strip(_SPACE) and next(row.iter(*_MEDIA), None) is None:
            _drop(row)


def _drop_empty_columns(table: etree._Element) -> bool:
    """Columns of a table with nothing in any of their cells: a page's empty second column
    (a contents box's "<td><dl></dl></td>") showed as an empty framed box in the reader.
    Whether any went."""
    rows = [row for row in table.iter("tr") if next(row.iterancestors("table"), None) is table]
    grid = [[cell for cell in row if cell.tag in ("td", "th")] for row in rows]
    if any(_span(cell, "rowspan") > 1 for cells in grid for cell in cells):
        return False  # which column a cell is in depends on the rows above: leave it be
    def shows_something(cell: etree._Element) -> bool:
        return bool("".join(cell.itertext()).strip(_SPACE)) or \
            next(cell.iter(*_MEDIA), None) is not None

    filled: set[int] = set()
    spanning: list[range] = []  # the columns of cells over several (a heading's "colspan=2")
    width = 0
    for cells in grid:
        column = 0
        for cell in cells:
            span = _span(cell, "colspan")
            if span == 1 and shows_something(cell):
                filled.add(column)
            elif span > 1 and shows_something(cell):
                spanning.append(range(column, column + span))
            column += span
        width = max(width, column)
    for columns in spanning:
        if not filled.intersection(columns):
            filled.add(columns[0])  # a spanning cell keeps one column to show in
    empty = set(range(width)) - filled
    if not empty or len(empty) == width:
        return False
    for cells in grid:
        column = 0
        for cell in cells:
            span = _span(cell, "colspan")
            if span == 1 and column in empty:
                _drop(cell)
            elif span > 1:
                inside = len(empty & set(range(column, column + span)))
                if inside == span - 1:
                    cell.attrib.pop("colspan")
                elif inside:
                    cell.set("colspan", str(span - inside))
            column += span
    return True


def _visible_chars(text: str) -> int:
    """Characters of ``text`` that are not white space."""
    return len("".join(text.split()))


#: The class mdBook gives the lines of a Rust example it hides (``# `` lines of its source:
#: the ``fn main() {`` around a snippet, imports, setup), shown only with the listing's eye
#: button.
_HIDDEN_LINE_CLASS = "boring"
#: A hidden line of a Rust example as rustdoc and mdBook write it in the source: ``# ``
#: then the code, or ``#`` alone (``#[derive]`` and ``#![allow]`` are Rust's own).
_HIDDEN_RUST_LINE = re.compile(r"^[ \t]*#(?: |$)")


def _drop_hidden_lines(pre: etree._Element, language: str) -> None:
    """Leave out the lines a documentation page hides in its example (mdBook's ``boring``
    lines; in a Rust listing still in its source's form, the ``# `` lines): the page shows
    the example without them, and the reader showed the whole setup around each snippet
    (``#![allow(unused)]``, ``fn main() {`` ... ``}``: 157 lines on one chapter of the Rust
    book)."""
    for span in list(pre.iter("span")):
        if _HIDDEN_LINE_CLASS in (span.get("class") or "").split():
            _drop(span)
    if language != "rust" or any(True for node in pre.iterdescendants() if node.tag != "code"):
        return  # a listing drawn in spans: its lines are not its text's lines
    for node in (pre, *pre.iter("code")):
        if node.text and "#" in node.text:
            lines = node.text.split("\n")
            kept = [line for line in lines if not _HIDDEN_RUST_LINE.match(line)]
            if len(kept) < len(lines) and "".join(kept).strip():
                node.text = "\n".join(kept)


def _single_code_box(pre: etree._Element) -> None:
    """One ``<pre><code class="language-x">`` per listing: nested boxes (``pre`` in ``pre``,
    per-line ``div``s) become plain text lines; the language comes from the classes."""
    language = code_language(pre)
    _drop_hidden_lines(pre, language)
    # its direction and language stay (English code in an Arabic article: dir="ltr"), the
    # listing's own or its <code>'s
    inner = pre.find("code")
    kept = {name: pre.get(name) or (inner.get(name) if inner is not None else None)
            for name in ("dir", "lang")}
    # (a listing's copy and run buttons and their icons went with _drop_controls)
    _drop_line_numbers(pre)
    _end_line_spans(pre)
    text = "".join(pre.itertext())
    if pre.find(".//pre") is not None or pre.find(".//div") is not None or \
            pre.find(".//table") is not None:
        lines = ["".join(line.itertext()).rstrip("\n")
                 for line in pre.iter("div", "pre") if line is not pre and
                 line.find("div") is None and line.find("pre") is None]
        # one line per box only when the boxes hold the whole listing: a box beside the
        # code (a toolbar) would leave the code out
        if lines and _visible_chars("".join(lines)) >= _visible_chars(text):
            text = "\n".join(lines)
    for child in list(pre):
        pre.remove(child)
    pre.text = None
    code = etree.SubElement(pre, "code")
    code.text = text.strip("\n")
    pre.attrib.clear()
    for name, value in kept.items():
        if value is not None:
            pre.set(name, value)
    if language:
        code.set("class", f"language-{language}")
    _drop_language_label(pre, language)


#: Fewest lines of a listing whose numbers are told from its code.
_NUMBERED_LINES = 3


def _drop_line_numbers(pre: etree._Element) -> None:
    """A listing's line numbers written as elements of their own inside ``<pre>`` (Twilio's
    docs put a number before each line's box, hidden from copying by the page's style):
    the reader glued each to its line ("1# Download the helper", "2import os"). They go when
    the elements holding a number alone at the start of a line, with no text after them in
    their tail, count 1, 2, 3... in order, at least :data:`_NUMBERED_LINES` of them; a number
    of the code starting a line breaks the count, and then none goes."""
    starts = _line_starts(pre)
    numbers = [node for node in starts if not len(node)
               and (node.text or "").strip().isdigit() and not (node.tail or "").strip()]
    if len(numbers) < _NUMBERED_LINES or any(
            (node.text or "").strip() != str(count) for count, node in enumerate(numbers, 1)):
        return
    if _visible_chars("".join(pre.itertext())) <= sum(len(n.text.strip()) for n in numbers):
        return  # numbers alone are the listing (a program's output), not its gutter
    for node in numbers:
        _drop(node)


#: Elements a listing's page lays out as lines of their own.
_LINE_BOX_TAGS = frozenset({"div", "p", "li", "tr"})


def _line_starts(pre: etree._Element) -> list[etree._Element]:
    """The elements of ``pre``, in order, whose text starts a line: nothing but white space
    written before it since the last line break, the start of the listing or of a box the
    page shows as a line (:data:`_LINE_BOX_TAGS`)."""
    starts: list[etree._Element] = []
    at_start = True
    for event, node in etree.iterwalk(pre, events=("start", "end")):
        if not isinstance(node.tag, str):
            continue
        if event == "start":
            if node.tag in _LINE_BOX_TAGS:
                at_start = True
            if at_start and node is not pre:
                starts.append(node)
            text = node.text
        else:
            text = node.tail if node is not pre else None
        if text:
            line = text.rpartition("\n")
            at_start = not line[2].strip() and (bool(line[1]) or at_start)
    return starts


#: A class word of an inline element that holds one line of a listing, which the page's
#: style shows as a block: Gatsby's highlighted ``gatsby-highlight-code-line``, Shiki's
#: ``line``, ``code-line``, ``cm-line``, CSS modules' ``line-of-code__mDztA``.
_LINE_CLASS_WORD = re.compile(r"^(?:[a-z0-9]+-)*(?:code-?line|line|token-line|line-of-code"
                              r"(?:__\w+)?)$", re.I)


def _end_line_spans(pre: etree._Element) -> None:
    """Each line of ``pre`` its page writes as an element of a line class
    (:data:`_LINE_CLASS_WORD`) with no line break after it ends one: its style showed it as
    a line of its own, and the reader ran a highlighted run of lines into one line beyond
    the box's right edge ("// like componentDidMount:  useEffect(() => {    document...")."""
    for line in pre.iter("span", "code", "a", "mark", "ins", "del"):
        if line is pre or not any(_LINE_CLASS_WORD.match(word)
                                  for word in (line.get("class") or "").split()):
            continue
        if "".join(line.itertext()).endswith(("\n", "\r")) or \
                (line.tail or "").startswith(("\n", "\r")):
            continue
        line.tail = "\n" + (line.tail or "")


#: The label a forum gives a listing (phpBB's, vBulletin's, SMF's "Code:"), which the reader's
#: box around the listing says already.
_CODE_LABEL = "code:"
#: The longest text of a box that labels a listing with its language.
_LABEL_CHARS = 20


def _drop_language_label(pre: etree._Element, language: str) -> None:
    """The page's label of a listing's language just above it ("js" in a header box, as MDN
    gives each example): the reader shows the language in the box's corner, and the label
    read as a line of text of its own, the language said twice. The box right before the
    listing (or before the wrapper that the listing opens) goes when all its text is the
    language's name (or a forum's "Code:") and it shows nothing else."""
    node = pre
    while node is not None and node.getprevious() is None:
        node = node.getparent()  # the listing opens its wrapper: the label is the wrapper's
        if node is None or node.tag not in ("div", "figure", "section"):
            return
    label = node.getprevious() if node is not None else None
    if label is None or not isinstance(label.tag, str) or label.tag == "pre" or \
            (node is not pre and (node.text or "").strip()):
        return
    text = "".join(element_text(label).split()).lower()
    if 0 < len(text) <= _LABEL_CHARS and text in (language.lower(), _CODE_LABEL) and \
            label.tag not in _HEADINGS and \
            not (label.tail or "").strip() and next(label.iter(*_PICTURES), None) is None:
        _drop(label)


#: Classes that mark a formula's copies (:func:`_math_sources`).
_MATH_CLASSES = ("katex-html", "MathJax_Preview")
#: The only elements :func:`_math_sources` changes, in document order (one XPath call rather
#: than a Python step per element of a long article).
_MATH_CANDIDATES = etree.XPath(
    "descendant-or-self::*[contains(@class, 'katex-html') or contains(@class, 'MathJax_Preview')"
    " or self::mjx-container or self::script]")


def _math_sources(clone: etree._Element, math_classes: bool = True) -> None:
    """Keep one readable form of each formula: KaTeX's MathML (not its visual spans),
    MathJax's assistive MathML, MathJax 2 TeX scripts as code."""
    candidates = (_MATH_CANDIDATES(clone) if math_classes
                  else list(clone.iter("mjx-container", "script")))
    for node in candidates:
        classes = f" {node.get('class', '')} "
        if " katex-html " in classes or node.tag in ("mjx-container",) and \
                node.find(".//math") is not None:
            if node.tag == "mjx-container":
                math = node.find(".//math")
                if node.getparent() is not None:
                    math.tail = node.tail  # the sentence goes on after the formula
                    node.getparent().replace(node, math)
                continue
            _drop(node)
        elif node.tag == "script" and (node.get("type") or "").startswith("math/tex"):
            code = lxml_html.Element("code")
            code.set("class", "language-tex")
            code.text = node.text or ""
            code.tail = node.tail
            node.getparent().replace(node, code)
        elif node.tag in ("span", "div") and " MathJax_Preview " in classes:
            _drop(node)


def _resolve_images(clone: etree._Element) -> None:
    """Lazy images get a real source: ``data-src``-style attributes, ``srcset`` candidates
    of the image or its ``<picture>``, or the ``<noscript>`` copy a lazy loader left."""
    for noscript in list(clone.iter("noscript")):
        image = _lone_image(noscript)
        if image is None:
            continue
        previous = noscript.getprevious()
        beside = previous if previous is not None and previous.tag == "img" else None
        if beside is not None and _needs_source(beside):
            _drop(beside)
        elif beside is not None and _shows_same_picture(beside, image):
            _drop(noscript)  # the loader already showed it: the copy was a second picture
            continue
        image.tail = noscript.tail
        noscript.getparent().replace(noscript, image)
    for image in list(clone.iter("img")):
        if not _needs_source(image):
            continue
        for attr in _LAZY_SRC_ATTRS:
            candidate = (image.get(attr) or "").split(",")[0].split()
            if candidate and _set_source(image, candidate[0]):
                break
        else:
            sets = [image.get("srcset") or ""]
            # lxml's parser may nest the <img> inside a <source> (it does not know <picture>)
            picture = next(image.iterancestors("picture"), None)
            if picture is not None:
                sets += [source.get("srcset") or source.get("data-srcset") or ""
                         for source in picture.iter("source")]
            for srcset in sets:
                first = srcset.split(",")[0].split()
                if first and not first[0].startswith("data:") and _set_source(image, first[0]):
                    break
            else:
                _source_from_link(image)


#: A link's target that is a picture file: a gallery's full-size copy of its thumbnail.
_PICTURE_FILE = re.compile(r"\.(?:jpe?g|png|gif|webp|avif)$", re.IGNORECASE)


def _source_from_link(image: etree._Element) -> None:
    """A picture a script was to load with no trace of its source left but its link: a
    gallery's thumbnail holds a placeholder (a one-pixel ``data:`` GIF) in a link to the
    full-size picture file, which a script swaps in. The picture is the link's target; a
    link to a page, or one that holds more than this picture, says nothing of it."""
    link = next(image.iterancestors("a"), None)
    if link is None or sum(1 for _ in link.iter("img")) != 1:
        return
    href = (link.get("href") or "").strip()
    if _PICTURE_FILE.search(urlsplit(href).path):
        _set_source(image, href)


def _shows_same_picture(image: etree._Element, fallback: etree._Element) -> bool:
    """``image`` (loaded) has the source of ``fallback`` (a ``<noscript>`` copy) as its own
    or as a lazy loader's attribute."""
    wanted = (fallback.get("src") or "").strip()
    return bool(wanted) and any((image.get(attr) or "").strip() == wanted
                                for attr in ("src", *_LAZY_SRC_ATTRS))


def _set_source(image: etree._Element, url: str) -> bool:
    """Set ``image``'s src to ``url``; False for a value lxml refuses (control characters)."""
    try:
        image.set("src", url)
    except ValueError:
        return False
    return True


_MEDIA_FALLBACK_BESIDE = frozenset({"picture", "img", "video", "figure", "audio"})


def _open_noscripts(clone: etree._Element) -> None:
    """``<noscript>`` boxes left after :func:`_resolve_images` opened into their content.

    The sanitizer's parser reads a ``<noscript>``'s content as raw text (as a browser
    running scripts does), so a box kept as it is shows its markup as text in the reader.
    What it holds is main content (forums keep their posts there for crawlers), except
    the second copy of a picture the element before it shows: that one goes.
    """
    for noscript in list(clone.iter("noscript")):
        parent = noscript.getparent()
        if parent is None:
            continue
        if not len(noscript) and "<" in (noscript.text or ""):
            try:  # kept as raw text by the page's parser: its elements, parsed
                parts = lxml_html.fragments_fromstring(noscript.text)
            except (etree.ParserError, ValueError):
                parts = []
            noscript.text = None
            for part in parts:
                if isinstance(part, str):
                    noscript.text = (noscript.text or "") + part
                else:
                    noscript.append(part)
        text = "".join(noscript.itertext()).strip()
        previous = noscript.getprevious()
        if not text and previous is not None and (
                previous.tag in _MEDIA_FALLBACK_BESIDE or previous.find(".//img") is not None):
            _drop(noscript)
        else:
            noscript.drop_tag()


#: What the reader leaves out as the main text does (NON_TEXT_TAGS, ``<noscript>`` opened
#: by then): the sanitizer drops these tags but keeps their text, so a dropdown's options
#: ran together as text and a button's screen-reader text showed as prose. So too players
#: (``<video>``, ``<audio>``), which the reader does not show: what they hold is the text a
#: browser without them shows instead ("This browser does not support the HTML5 video
#: element."), which stood alone between a shop's headings.
_LEFT_OUT_OF_READER = tuple(sorted((NON_TEXT_TAGS - {"noscript"}) | {"video", "audio"}))
_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6", "summary")


#: Input types a person types text into (an ``<input>`` without a type is one too).
_TEXT_INPUTS = frozenset({"", "text", "email", "url", "tel", "search", "password", "number"})


#: Most words of a box's name (a trap's "Leave this field empty if you're human:" has 7).
_FIELD_LABEL_WORDS = 20


def _types_text(control: etree._Element) -> bool:
    return control.tag == "textarea" or (
        control.tag == "input" and (control.get("type") or "").strip().lower() in _TEXT_INPUTS)


def _drop_field_labels(clone: etree._Element) -> None:
    """The label of a box to type in (holding it, or naming it by ``for``) that the page
    hides from everyone, text and all: a trap for robots ("Please do not fill in this
    field.", "Leave this field empty if you're human:"), hidden by ``aria-hidden``, the
    ``hidden`` attribute or an inline style on the label or on a part of the page holding
    nothing else. The reader leaves the box out and showed the trap's label as a line of the
    page's text. The labels of a form shown (or of one the page's script shows: its other
    text is hidden with it) stay; so do a check box's, a tab's name on some pages."""
    labels = list(clone.iter("label"))
    if not labels:
        return
    ids = {node.get("id"): node for node in clone.iter("input", "textarea") if node.get("id")}
    for label in labels:
        if label.getparent() is None:
            continue
        own = "".join(element_text(label).split())
        if not own or len(element_text(label).split()) > _FIELD_LABEL_WORDS:
            continue  # text a page wrapped in a label, not a name
        target = ids.get(label.get("for") or "")
        if not ((target is not None and _types_text(target)) or any(
                _types_text(node) for node in label.iter("input", "textarea"))):
            continue
        for node in (label, *label.iterancestors()):
            if node is clone or "".join(element_text(node).split()) != own:
                break  # a part holding more than the label: a form, a tab
            if (node.get("aria-hidden") or "").strip().lower() == "true" or _inline_hidden(node):
                _drop(label)
                break


#: Compiled once: each copy of a block is searched (a string XPath was parsed again each time).
_BUTTON_ROLE_XPATH = etree.XPath("descendant-or-self::*[@role='button']")
#: A chooser's list of options drawn without ``<select>`` (``role="listbox"``, a theme's
#: "Sort by" menu): the options of a control, as a ``<select>``'s are, not a list to read.
_LISTBOX_XPATH = etree.XPath("descendant::*[@role='listbox']")
#: A menu the page opens on a click (Bootstrap's ``dropdown-menu``, hidden by its stylesheet
#: until then): a forum post's "Share" menu of "Copy Post", "WhatsApp", "Telegram".
_DROPDOWN_MENU_XPATH = etree.XPath(
    "descendant::*[contains(concat(' ', normalize-space(@class), ' '), ' dropdown-menu ')]")
#: The control that opens such a menu, beside it: Bootstrap's ``data-toggle``, or a script's
#: ``onclick`` that names the dropdown.
_DROPDOWN_TOGGLE_XPATH = etree.XPath(
    "../*[@data-toggle='dropdown' or @data-bs-toggle='dropdown' or "
    "contains(translate(@onclick, 'D', 'd'), 'dropdown')]")
#: Most words of a menu's toggle ("Share", "More options"): longer, it is text of its own.
_TOGGLE_WORDS = 3
#: What a button that opens a list of options says (``aria-haspopup="listbox"``): the choice
#: made ("Featured"), not the opening of a section. A menu's button ("true", "menu") stays: a
#: code sample's file menu names the file shown ("App.js").
_CHOOSER_POPUPS = frozenset({"listbox"})
#: What a button that opens a section says when it names no section: "+ More Info", "Show
#: more", "Read less", "View details" (signs around the words aside).
_DISCLOSURE_LABEL = re.compile(
    r"(?:(?:show|see|view|read|load|expand|collapse|hide|open|close|toggle)"
    r"(?:\s+(?:more|less|all|details|info|information|text|content))?"
    r"|more(?:\s+(?:info|information|details))?|less)", re.I)


def _drop_controls(clone: etree._Element) -> None:
    """Form controls, embedded objects, icons and templates out of the reader's copy, text
    and all, with the labels of hidden boxes to type in (:func:`_drop_field_labels`) and the
    icons of a control drawn without ``<button>`` (``role="button"``), and a chooser's options
    drawn without ``<select>`` (``role="listbox"``). A button that opens a section
    (``aria-expanded`` or ``aria-controls``, in a heading, or a question: an FAQ's) keeps its
    text, without the button; one that opens a list of options (``aria-haspopup="listbox"``)
    does not, nor one that names no section (:data:`_DISCLOSURE_LABEL`: "+ More Info" under
    each of a gear list's products). A button the page gives the role of a link keeps its
    text too, as a link does: Walmart's reviews summary names each point with one
    ("Handles frozen ingredients: Effectively blends…", wcxb-dev 0615)."""
    _drop_field_labels(clone)
    for listbox in _LISTBOX_XPATH(clone):
        _drop(listbox)
    for menu in _DROPDOWN_MENU_XPATH(clone):
        for toggle in _DROPDOWN_TOGGLE_XPATH(menu):
            if toggle is not menu and len(element_text(toggle).split()) <= _TOGGLE_WORDS:
                _drop(toggle)
        _drop(menu)
    for control in list(_BUTTON_ROLE_XPATH(clone)):
        # a control drawn without <button> (an animation's pause sign): its icons are the
        # control's, not the text's; its text stays (an FAQ's question)
        for image in list(control.iter("img")):
            if _icon_sized(image):
                _drop(image)
    for node in list(clone.iter(*_LEFT_OUT_OF_READER)):
        if node.getparent() is None:
            continue
        if node.tag == "button" and (node.get("aria-haspopup") or "").strip().lower() \
                not in _CHOOSER_POPUPS and not _DISCLOSURE_LABEL.fullmatch(
                    " ".join(re.sub(r"[^\w\s]+", " ", "".join(node.itertext())).split())) and (
                node.get("aria-expanded") is not None or node.get("aria-controls") is not None
                or next(node.iterancestors(*_HEADING_TAGS), None) is not None
                or "".join(node.itertext()).strip().endswith("?")
                or (node.get("role") or "").strip().lower() == "link"):
            # its icons (an FAQ's "Expand" and "Collapse" signs, both in the page, one shown
            # at a time) are the button's, not the section's; a picture it wraps (a figure
            # that zooms when clicked) stays
            for image in list(node.iter("img")):
                if _icon_sized(image):
                    _drop(image)
            node.drop_tag()
        else:
            _drop(node)


#: A link that puts a product in the cart: by its address (WooCommerce's "?add-to-cart=",
#: BigCommerce's "cart.php?action=add", "/cart/add", eBay's "/sc/add" and "/atc/") or by
#: all its text ("Add to cart", "Buy it now", "Quick view"): a shop's control drawn as a
#: link, which the reader showed as a line of its own under every product.
_CART_ACTION_URL = re.compile(
    r"[?&]add[-_]?to[-_]?cart=|/add[-_]?to[-_]?cart\b|\baddtocart\b|cart(?:\.php)?\?action=add\b"
    r"|/cart/add\b|/sc/add\b|/atc/", re.I)
_SHOP_ACTIONS = frozenset({"add to cart", "add to bag", "add to basket", "add to trolley",
                           "buy now", "buy it now", "quick view", "quick shop",
                           "add to wishlist", "add to wish list"})
_CART_LINK_WORDS = 4


def _drop_cart_links(clone: etree._Element) -> None:
    """Links that put a product in the cart (:data:`_CART_ACTION_URL`, :data:`_SHOP_ACTIONS`),
    at most :data:`_CART_LINK_WORDS` words and no picture, out of the reader's copy: the box
    left empty goes with the empty boxes (:func:`_drop_spacers`)."""
    for link in list(clone.iter("a")):
        if link.getparent() is None or next(link.iter(*_PICTURES), None) is not None:
            continue
        words = " ".join(element_text(link).lower().split())
        if not words or len(words.split()) > _CART_LINK_WORDS:
            continue
        if words in _SHOP_ACTIONS or _CART_ACTION_URL.search(link.get("href") or ""):
            _drop(link)


#: Largest width or height (CSS pixels) an image declares that is an icon, not a picture.
_ICON_PX = 32


def _icon_sized(image: etree._Element) -> bool:
    """Whether ``image`` declares a width or height of at most :data:`_ICON_PX` pixels."""
    for name in ("width", "height"):
        value = (image.get(name) or "").strip().removesuffix("px")
        if value.isdigit() and 0 < int(value) <= _ICON_PX:
            return True
    return False


#: Most width or height (CSS pixels) an image declares that shows nothing: a spacer GIF
#: ("<img src=spacer.gif width=670 height=1>" held a 2000s page's table open) or a tracking
#: pixel.
_SPACER_PX = 2


def _drop_spacer_images(clone: etree._Element) -> None:
    """Images declaring a width or height of 1 to :data:`_SPACER_PX` pixels: they show
    nothing on the page, and in the reader a spacer's declared width widened the column it
    stood in past the reader's (its text cut at the edge). Not 0: a page sizing its pictures
    by its stylesheet may write width="0" height="0" (a shop's banner, a strip of logos)."""
    for image in list(clone.iter("img")):
        for name in ("width", "height"):
            value = (image.get(name) or "").strip().removesuffix("px").strip()
            if value.isdigit() and 0 < int(value) <= _SPACER_PX:
                _drop(image)
                break


#: An alt that is a picture's file name ("IMG_1234.JPG", "hero-banner_v2.webp", a CMS's
#: "D501F6EB-….thumb.png.e37c….png") or an address: what an uploader or a CMS wrote, not a
#: description.
_FILE_NAME_ALT = re.compile(
    r"(?:\S\.(?:jpe?g|jpe|jfif|png|apng|gif|webp|avif|svg|bmp|tiff?|heic|heif|ico)"
    r"|^(?:https?:)?//\S+)$", re.I)
#: An alt that is an identifier: a UUID, a long hexadecimal hash, a camera's or a phone's
#: file stem ("IMG_2671", "DSC 7667 1", "PXL_20240101_123456").
_ID_ALT = re.compile(
    r"^(?:[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}"
    r"|(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{16,}"
    r"|(?:IMG|DSC[NF]?|PXL|DCIM|MVIMG|PANO|VID)[_ -]?\d[\d_ -]*)$", re.I)


def file_name_alt(alt: str) -> bool:
    """Whether a picture's ``alt`` (its words, spaces collapsed) is a file name or an
    identifier (:data:`_FILE_NAME_ALT`, :data:`_ID_ALT`), not a description: the reader
    treats such an alt as empty (here, and for an index card's name:
    ``actions.index_items._card_name``)."""
    return bool(alt and (_FILE_NAME_ALT.search(alt) or _ID_ALT.match(alt)))


def _clear_file_name_alts(clone: etree._Element) -> None:
    """An image whose alt is a file name or an identifier (:func:`file_name_alt`) gets an
    empty alt: such words say nothing to a reader, yet the reader showed them in the
    picture's place when it did not load, the Markdown export as its description, and a
    screen reader read them out. Empty rather than left out: without an alt a screen reader
    reads the source's file name instead."""
    for image in clone.iter("img"):
        if file_name_alt(" ".join((image.get("alt") or "").split())):
            image.set("alt", "")


#: The addresses of a network's "share this" endpoints: a link to one is a button that posts
#: the page there ("Tweet", a Facebook or Pinterest icon), not a link of the text.
_SHARE_URL = re.compile(
    r"^(?:https?:)?//(?:www\.|m\.|api\.)?(?:twitter\.com/(?:share|intent/tweet)|"
    r"x\.com/(?:share|intent/(?:tweet|post))|facebook\.com/(?:sharer|share\.php|dialog/share|"
    r"dialog/feed)|linkedin\.com/(?:shareArticle|sharing/share-offsite|cws/share)|"
    r"pinterest\.[a-z.]+/pin/create|reddit\.com/submit|whatsapp\.com/send|wa\.me/\?|"
    r"t(?:elegram)?\.me/share|tumblr\.com/(?:share|widgets/share)|digg\.com/submit|"
    r"del\.icio\.us/post|stumbleupon\.com/submit|news\.ycombinator\.com/submitlink|"
    r"plus\.google\.com/share|getpocket\.com/(?:save|edit)|bsky\.app/intent/compose|"
    r"threads\.net/intent/post|buffer\.com/add|flipboard\.com/bookmarklet)", re.I)
#: What a row of share buttons says beside them ("Share This:", "Share this post", "Tweet").
_SHARE_LABEL = re.compile(r"^(?:share(?: (?:this|on|via|it))?(?: (?:post|article|page|story))?|"
                          r"tweet|pin it|email|print)\W*$", re.I)
#: Most characters of a box around share buttons that says nothing else but their label.
_SHARE_BOX_CHARS = 40


def _drop_share_links(clone: etree._Element) -> None:
    """Links to a network's share endpoint (:data:`_SHARE_URL`) out of the reader's copy, and
    the box around them when all it says is a share label (:data:`_SHARE_LABEL`): a blog's
    "Tweet" link ended the text, an article opened with "Share This:" over its icons. In a
    sentence, the link's words stay, without the link."""
    for link in list(clone.iter("a")):
        if link.getparent() is None or not _SHARE_URL.match((link.get("href") or "").strip()):
            continue
        parent = link.getparent()
        block = next((node for node in (parent, *parent.iterancestors())
                      if node.tag in BLOCK_TAGS), parent)
        if len(" ".join(element_text(block).split())) - len(
                " ".join(element_text(link).split())) > _SHARE_BOX_CHARS:
            link.drop_tag()  # in a sentence: its words stay, not as a button
            continue
        _drop(link)
        box = None
        for node in (parent, *parent.iterancestors()):
            text = " ".join(element_text(node).split())
            if len(text) > _SHARE_BOX_CHARS or (text and not _SHARE_LABEL.match(text)) \
                    or next(node.iter(*_PICTURES, "table", "pre", "math"), None) is not None:
                break
            if node.getparent() is not None:
                box = node
        if box is not None and box.tag not in ("body", "html"):
            _drop(box)


#: The opening of a bracketed run of links that a line of text names as paid for: "(Sponsored:",
#: "[Advertisement:", "(Promoted links:", "(Anzeige:"; the links follow it up to the closing
#: bracket (:func:`_drop_sponsored_runs`).
_SPONSORED_OPENING = re.compile(
    r"[(\[]\s*(?:sponsored(?:\s+links?)?|advertisements?|adverts?|ads?|promoted(?:\s+links?)?"
    r"|paid\s+(?:links?|content|partners?)|partner\s+links?|anzeigen?|publicité|publicidad)"
    r"\s*[:：]?\s*$", re.I)
#: What may stand between two links of such a run: spaces and separators.
_SPONSORED_GAP = re.compile(r"[\s,;|·•/]*")
#: The run's closing bracket, first after its last link.
_SPONSORED_CLOSE = re.compile(r"\s*[)\]]")


def _drop_sponsored_runs(clone: etree._Element) -> None:
    """A bracketed run of links a line of text names as paid for, "(Sponsored: <a>Coastal
    cottages</a> <a>Ferry deals</a>)", leaves the reader's copy with its label and brackets:
    an ad network's links set inside a paragraph read as words of the article (the bundled
    examples/article.html). Only a run of links and nothing else between its label and its
    closing bracket goes; a bracket of words ("(sponsored by <a>the county</a>)", "(ad:
    see <a>page 4</a>)") stays, as do links in a sentence."""
    # only a link's parent can hold a run (a parent holds no more links later than now)
    for parent in list(dict.fromkeys(link.getparent() for link in clone.iter("a"))):
        if parent is None:
            continue
        children = list(parent)
        index = 0
        while index < len(children):
            first = children[index]
            before = parent.text if index == 0 else children[index - 1].tail
            opening = _SPONSORED_OPENING.search(before or "") if first.tag == "a" else None
            if opening is None:
                index += 1
                continue
            last, close = index, None
            while True:
                tail = children[last].tail or ""
                close = _SPONSORED_CLOSE.match(tail)
                if close is not None:
                    break
                if _SPONSORED_GAP.fullmatch(tail) is None or last + 1 >= len(children) \
                        or children[last + 1].tag != "a":
                    break
                last += 1
            if close is None:
                index = last + 1
                continue
            head = (before or "")[:opening.start()]
            rest = (children[last].tail or "")[close.end():]
            if (not head or head[-1] in _SPACE) and rest[:1] in tuple(_SPACE):
                rest = rest.lstrip(_SPACE) if head else rest
            joined = head + rest
            if index == 0:
                parent.text = joined
            else:
                children[index - 1].tail = joined
            for link in children[index:last + 1]:
                parent.remove(link)
            del children[index:last + 1]


#: Most words of a box's text besides a script's link in it for the link to be a control
#: ("Code: Select all"), not a link in a sentence.
_SCRIPT_LINK_BESIDE_WORDS = 2
#: Most words of such a link's text.
_SCRIPT_LINK_WORDS = 3


def _drop_script_links(clone: etree._Element) -> None:
    """Links that are a script's controls (an ``onclick`` and no address: ``href="#"``, the
    page's own address and an empty ``#``, ``javascript:``) standing alone in their box, text
    and all: phpBB's "Select all" above each listing, a thread's "reply" and "[–]". The
    reader showed each as a link to the page itself (``#`` made absolute). One inside a
    sentence stays, its words being the text's."""
    for link in list(clone.iter("a")):
        if link.get("onclick") is None or link.getparent() is None:
            continue
        href = (link.get("href") or "").strip()
        # (the extension's snapshot makes "#" absolute: the page's own address and "#")
        if not href.endswith("#") and href and not href.lower().startswith("javascript:"):
            continue
        words = element_text(link).split()
        if len(words) > _SCRIPT_LINK_WORDS or next(link.iter(*_PICTURES), None) is not None:
            continue
        box = next((a for a in link.iterancestors() if a.tag in BLOCK_TAGS), None)
        if box is None:
            continue
        beside = len(element_text(box).split()) - len(words)
        if beside <= _SCRIPT_LINK_BESIDE_WORDS:
            _drop(link)


#: Cloudflare's e-mail address obfuscation: the address XOR-ed with the first byte, in hex,
#: in ``data-cfemail`` (the text says "[email protected]") or after a link's
#: ``/cdn-cgi/l/email-protection#``; Cloudflare's script decodes it in the browser.
_PROTECTED_EMAIL_LINK = re.compile(r"/cdn-cgi/l/email-protection#([0-9a-fA-F]{4,})$")
_PROTECTED_EMAIL_TEXT = re.compile(r"\[email[\s\u00a0]*protected\]", re.I)
_CLOUDFLARE_EMAIL_XPATH = etree.XPath(
    "descendant-or-self::*[@data-cfemail] | "
    "descendant-or-self::a[contains(@href, '/cdn-cgi/l/email-protection')]")


def decode_protected_email(encoded: str) -> str | None:
    """The address Cloudflare's obfuscation hides in ``encoded`` (hex: a key byte, then the
    address's bytes XOR-ed with it); None if it does not decode to an address."""
    try:
        data = bytes.fromhex(encoded)
        address = bytes(byte ^ data[0] for byte in data[1:]).decode("utf-8")
    except (ValueError, IndexError):
        return None
    return address if "@" in address and address.isprintable() else None


def _decode_protected_emails(clone: etree._Element) -> None:
    """E-mail addresses the page's host hid from scrapers (:data:`_PROTECTED_EMAIL_LINK`)
    shown as the browser shows them once Cloudflare's script ran: "Write to
    [email protected]" read in the reader of a page fetched by the command line. A link to
    the protection page becomes a ``mailto:`` link to the address."""
    for node in list(_CLOUDFLARE_EMAIL_XPATH(clone)):
        if node.get("data-cfemail"):
            address = decode_protected_email(node.get("data-cfemail"))
            if address is not None:
                for child in list(node):
                    _drop(child)
                node.text = address
        if node.tag == "a":
            fragment = _PROTECTED_EMAIL_LINK.search(node.get("href") or "")
            inner = next((n for n in node.iter() if n.get("data-cfemail")), None)
            encoded = fragment.group(1) if fragment else (
                inner.get("data-cfemail") if inner is not None else "")
            address = decode_protected_email(encoded or "")
            if address is not None:
                node.set("href", "mailto:" + address)
                if _PROTECTED_EMAIL_TEXT.fullmatch(" ".join(element_text(node).split())):
                    for child in list(node):
                        _drop(child)
                    node.text = address  # the address in the link's fragment alone


def _drop_heading_anchors(clone: etree._Element, url: str = "") -> None:
    """A heading's link to its own place on the page, shown as a sign ("¶", "#", "§") that
    the page's style shows on hover only: in the reader it sat after every heading. A link
    to itself that holds the heading's words leaves its words, as a heading, without its
    icon: a book's chapter headings each showed as an underlined link leading nowhere. A
    definition's term and a table's caption are headings too: Sphinx ends each function's
    signature (a ``<dt>``) and each caption with such a "¶". ``url``: the page's address;
    the browser's snapshot gives every link whole ("https://flask.example/quickstart/#routing",
    not "#routing"), and Sphinx's "¶" names its heading's section, not the heading."""
    here = urldefrag(url)[0] if url else ""
    for heading in list(clone.iter(*_HEADINGS, "dt", "caption")):
        for link in list(heading.iter("a")):
            href = link.get("href") or ""
            to_itself = _names_itself(heading, href.partition("#")[2])
            if not any(ch.isalnum() for ch in "".join(link.itertext())):
                in_page = href.startswith("#") or bool(here) and "#" in href and _same_document(
                    href, here)
                if (in_page or to_itself) and \
                        next(link.iter(*_PICTURES), None) is None:
                    _drop(link)
            elif to_itself:
                # its icon too (a "share" or "copy link" glyph drawn after the words)
                for image in list(link.iter("img")):
                    if _icon_sized(image):
                        _drop(image)
                link.drop_tag()


#: Classes of a ``<blockquote>`` that holds a forum post's own words, not a quote: XenForo
#: 1's ``messageText``, vBulletin 4's ``postcontent`` and ``signature``, which their style
#: sheets show as plain boxes.
_POST_BODY_QUOTE = re.compile(r"(?:^|\s)(?:messageText|postcontent|signature)(?:\s|$)")


def _unquote_post_bodies(clone: etree._Element) -> None:
    """A forum post's body that its software writes as a ``<blockquote>``
    (:data:`_POST_BODY_QUOTE`) is a box of the reader's copy, not a quote: every post of a
    XenForo 1 thread read as a quote, indented, ruled and greyed (wcxb-dev 0520). A quote
    inside it stays one."""
    for box in list(clone.iter("blockquote")):
        if _POST_BODY_QUOTE.search(box.get("class") or ""):
            box.tag = "div"


def _same_document(href: str, here: str) -> bool:
    """Whether the link ``href`` (whole or relative) leads into the page at ``here`` (its
    address without a fragment)."""
    try:
        return urldefrag(urljoin(here, href.strip()))[0] == here
    except ValueError:  # an address urllib cannot parse ("http://[oops/")
        return False


def _names_itself(heading: etree._Element, fragment: str) -> bool:
    """``fragment`` (of a link the browser made absolute) is the id or name of ``heading``
    or of an element in it."""
    return bool(fragment) and any(fragment in (node.get("id"), node.get("name"))
                                  for node in heading.iter())


def _lone_image(noscript: etree._Element) -> etree._Element | None:
    """The ``<img>`` a lazy loader's ``<noscript>`` holds, if that is all it holds (parsed
    as elements or kept as raw text); anything else in it stays out of the reader."""
    holder: etree._Element = noscript
    if len(noscript) == 0 and noscript.text and "<img" in noscript.text:
        try:
            holder = lxml_html.fragment_fromstring(noscript.text.strip(), create_parent="div")
        except (etree.ParserError, ValueError):
            return None
    elements = list(holder.iter())[1:]
    rest = (holder.text or "") + "".join(node.tail or "" for node in elements)
    if len(elements) != 1 or elements[0].tag != "img" or rest.strip():
        return None
    return elements[0]


def _drop(node: etree._Element) -> None:
    """Remove ``node`` and its subtree, keeping its tail text (lxml.html's drop_tree for any
    element)."""
    parent = node.getparent()
    if parent is None:
        return
    if node.tail:
        previous = node.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + node.tail
        else:
            parent.text = (parent.text or "") + node.tail
    parent.remove(node)


def _needs_source(image: etree._Element) -> bool:
    """Whether ``image`` shows no picture of its own yet: no source, a ``data:`` one (a
    one-pixel GIF), or a placeholder file a lazy loader swaps out (Invision Community's
    ``spacer.png`` before each attached picture, whose ``data-src`` is the picture)."""
    src = (image.get("src") or "").strip()
    return not src or src.startswith("data:") or _PLACEHOLDER_FILE.search(
        urlsplit(src).path) is not None


#: The file name of a lazy loader's placeholder picture ("spacer.png", "blank.gif",
#: "lazy-placeholder.svg", "1x1.gif", "grey.gif"): words of nothing to see alone, with a
#: word of the site's before them at most and a size or number after.
_PLACEHOLDER_FILE = re.compile(
    r"(?:^|/)(?:[a-z0-9]+[-_])?(?:spacer|blank|placeholder|pixel|transparent|empty|1x1|"
    r"lazy|lazyload|lazy[-_]load|loading|loader|grey|gray|clear)(?:[-_](?:\d+x\d+|\d+|img|image))?"
    r"\.(?:gif|png|svg|webp|jpe?g)$", re.IGNORECASE)


#: a client-side template's slot its script never filled ("{{priceAnchor.info.totalPrice}}"):
#: an identifier path in double braces
_TEMPLATE_SLOT = re.compile(r"\{\{\s*[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*\s*\}\}")
#: where braces are the text itself (a template language's documentation shows its slots)
_CODE_TAGS = ("pre", "code", "kbd", "samp", "textarea")


#: An element whose text is a UUID alone, as the page's source writes it: eBay hides the
#: letters of its "Sponsored" label among such decoys, which its stylesheet hides.
SCRAMBLED = re.compile(r">\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*</")
_UUID = re.compile(r"\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*")
#: Most characters left of a scrambled label once its decoys are out ("Sponsored").
_SCRAMBLED_LABEL_CHARS = 40


def _drop_scrambled_labels(clone: etree._Element) -> None:
    """A label scrambled among decoy identifiers out of the reader's copy: eBay's "Similar
    Items" read "S 19aea247-2e76-4905-9b83-15a5a5664cfa G 661bd3c3-… p …", the letters of
    "Sponsored" among UUIDs and other letters its stylesheet hides, which no reader can
    tell apart. A box of three such identifiers or more goes when at most
    :data:`_SCRAMBLED_LABEL_CHARS` characters are left beside them; else the identifiers
    alone go."""
    decoys: dict[etree._Element, list[etree._Element]] = {}
    for node in clone.iter():
        if isinstance(node.tag, str) and not len(node) and node.text \
                and _UUID.fullmatch(node.text) and node.getparent() is not None:
            decoys.setdefault(node.getparent(), []).append(node)
    for box, found in decoys.items():
        if len(found) < 3:
            continue
        rest = _UUID.sub("", "".join(box.itertext()))
        if len("".join(rest.split())) <= _SCRAMBLED_LABEL_CHARS and box.getparent() is not None:
            _drop(box)
        else:
            for node in found:
                _drop(node)


def _drop_template_slots(clone: etree._Element) -> None:
    """Unfilled template slots out of the reader's text, outside code: a page saved before
    its script ran shows "{{price.total}}" where the price goes, which says nothing."""
    # every text and tail in the copy (comments' tails too), looked at before the walk
    if not any("{{" in text for text in clone.itertext()) \
            and not (clone.tail and "{{" in clone.tail):
        return
    in_code = {node for holder in clone.iter(*_CODE_TAGS) for node in holder.iter()}
    for node in clone.iter():
        if isinstance(node.tag, str) and node not in in_code and node.text and "{{" in node.text:
            node.text = _TEMPLATE_SLOT.sub("", node.text)
        parent = node.getparent()
        if node.tail and "{{" in node.tail and (parent is None or parent not in in_code):
            node.tail = _TEMPLATE_SLOT.sub("", node.tail)


#: a class naming a check mark ("checkmark", "fa-check", "icon-tick"), not a checkbox
_CHECK_MARK_CLASS = re.compile(r"(?:^|[-_])(?:check|checkmark|checked|tick)(?:$|[-_])", re.I)


def _write_drawn_check_marks(clone: etree._Element) -> None:
    """A table cell showing only a check mark the page draws with CSS (an empty element
    whose class names it) reads "✓": without the page's styles the cell shows empty, and a
    comparison table's "included" read as "not included"."""
    for cell in clone.iter("td", "th"):
        inside = list(cell.iter())[1:]
        if not inside or "".join(cell.itertext()).strip() or any(
                node.tag in ("img", "svg", "picture", "input") for node in inside):
            continue
        if any(_CHECK_MARK_CLASS.search(token) for node in inside
               for token in (node.get("class") or "").split()):
            for node in inside:
                if node.getparent() is cell:
                    cell.remove(node)
            cell.text = "✓"


def restructure(clone: etree._Element, math_classes: bool = True,
                scrambled: bool = False, url: str = "") -> None:
    """Structure a reader renders well, in place: lazy images resolved, math kept in one
    form, layout tables flattened (data tables stay), one box per code listing.
    ``math_classes`` False: no element has a class of :data:`_MATH_CLASSES`; ``scrambled``
    True: some element's text is an identifier alone (:data:`SCRAMBLED`); ``url``: the
    page's address (a link to a place in it is one to "#place")."""
    if scrambled:
        _drop_scrambled_labels(clone)
    _resolve_images(clone)
    _open_noscripts(clone)
    _math_sources(clone, math_classes)
    _write_drawn_check_marks(clone)  # before the controls: an icon's <i> goes with them
    _drop_controls(clone)  # after the formulas: MathJax 2 keeps TeX in scripts
    _drop_cart_links(clone)
    _drop_script_links(clone)
    _decode_protected_emails(clone)
    _drop_share_links(clone)
    _drop_sponsored_runs(clone)
    _drop_pager_links(clone)
    _drop_heading_anchors(clone, url)
    _unquote_post_bodies(clone)
    _drop_bare_navigation(clone)
    _drop_template_slots(clone)
    _drop_spacer_images(clone)  # before the tables: a column of spacers shows nothing
    _clear_file_name_alts(clone)
    _set_notes_apart(clone)  # before the layout tables: Asciidoctor lays a note out in one
    for table in reversed(list(clone.iter("table"))):  # inner tables first
        if _is_layout_table(table):
            _flatten_layout_table(table)
    for table in list(clone.iter("table")):
        if table.getparent() is not None and not "".join(table.itertext()).strip(_SPACE) \
                and next(table.iter(*_PICTURES, "pre", "math"), None) is None:
            _drop(table)  # empty cells alone (their spacers gone): a row of empty frames
            continue
        _drop_empty_rows(table)
        # a table left with one column (a listing's date cells, not chosen, were its first)
        # lays out what is left: a framed box around each classified ad, flattened
        if _drop_empty_columns(table) and _is_layout_table(table):
            _flatten_layout_table(table)
    for pre in list(clone.iter("pre")):
        if pre.getparent() is not None and any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        _single_code_box(pre)
    _drop_spacers(clone)
    _part_glued_siblings(clone)
    _inline_lists(clone)
    _text_boxes_as_paragraphs(clone)


#: Class words of a note a documentation page sets apart from its text (an admonition):
#: Sphinx's and MkDocs' ``admonition``, Docusaurus' ``theme-admonition``, Asciidoctor's
#: ``admonitionblock``, MDN's ``notecard``, GitHub's ``markdown-alert``, ``callout``s, and
#: DocBook's (PostgreSQL's), rustdoc's and mdBook's bare ``note``, ``warning``, ``caution``...
_NOTE_CLASS = re.compile(
    r"^(?:(?:[\w-]*[-_])?(?:admonition|admonitionblock|notecard|callout|markdown-alert)"
    r"(?:[-_][\w-]*)?|note|warning|caution|tip|hint|important|danger|attention|"
    r"archwiki-template-box)$", re.I)
_NOTE_TAGS = ("div", "section", "aside", "blockquote", "p")
#: Most words of a note (a longer box so classed is the page's text, not a note in it).
_NOTE_WORDS = 1000
#: Most words and characters of a note's label ("Note", "Warning", "Tip").
_NOTE_LABEL_WORDS, _NOTE_LABEL_CHARS = 3, 30


def _shown_text(element: etree._Element) -> str:
    return etree.tostring(element, method="text", encoding="unicode", with_tail=False)


def _is_note(element: etree._Element) -> bool:
    if element.tag not in _NOTE_TAGS:
        return False
    if not any(_NOTE_CLASS.match(word) for word in (element.get("class") or "").split()):
        return False
    words = len(_shown_text(element).split())
    return 0 < words <= _NOTE_WORDS and next(element.iter("h1", "h2"), None) is None


def _note_label(element: etree._Element) -> bool:
    text = " ".join(_shown_text(element).split())
    return (0 < len(text) <= _NOTE_LABEL_CHARS and len(text.split()) <= _NOTE_LABEL_WORDS
            and next(element.iter(*_PICTURES, "pre", "table"), None) is None)


def _set_notes_apart(clone: etree._Element) -> None:
    """Notes a documentation page sets apart in a box ("Note", "Caution", "Warning", by the
    box's class: :data:`_NOTE_CLASS`) become ``<aside>``, which the reader draws as a box: the
    class that set them apart goes with the page's other attributes, and a note read as the
    text around it (rustdoc's warnings have no label at all). The note's label, a heading or
    the one-word first line (PostgreSQL's ``<h3>Note</h3>``), becomes a bold line: as a
    heading it stood in the page's outline as a section of its own. Asciidoctor's note, a
    table of one row (the label's cell, the text's cell), becomes the label and the text.
    The page's other ``<aside>`` elements (a pull quote, a sidebar in the text) lose their tag,
    as before ``aside`` was allowed: the reader's box is for notes."""
    classed = {element for element in clone.iter(*_NOTE_TAGS) if _is_note(element)}
    # a note inside a note (or a part of one classed alike, "callout__heading"): the outer
    # one is the box
    notes = [note for note in clone.iter(*_NOTE_TAGS) if note in classed
             and not any(above in classed for above in note.iterancestors())]
    for aside in list(clone.iter("aside")):
        if aside not in notes and aside is not clone:
            aside.drop_tag()  # a pull quote, a sidebar: its text, as the sanitizer left it
    for note in notes:
        rows = note.xpath("./table[count(.//tr) = 1] | ./div/table[count(.//tr) = 1]")
        if len(rows) == 1 and len(note.xpath(".//table")) == 1 \
                and not "".join(note.xpath("./text()")).strip():
            table = rows[0]
            parent = table.getparent()
            assert parent is not None
            at = parent.index(table)
            for cell in table.iter("td", "th"):
                box = lxml_html.Element("div")
                box.text = cell.text
                for child in list(cell):
                    box.append(child)
                parent.insert(at, box)
                at += 1
            parent.remove(table)
        note.tag = "aside"
        for name in list(note.attrib):
            if name not in ("dir", "lang", STAMP_ATTR):
                del note.attrib[name]
        first = next((node for node in note.iter() if node is not note and (
            node.tag in _HEADINGS or (node.tag in ("p", "div", "span", "strong", "b")
                                      and "title" in (node.get("class") or "").lower()))),
                     None)
        if first is None or not _note_label(first):
            continue
        text = " ".join(_shown_text(first).split())
        if not " ".join(_shown_text(note).split()).startswith(text):
            continue  # text comes before it: not the note's label
        label = lxml_html.Element("p")
        strong = etree.SubElement(label, "strong")
        strong.text = text
        label.tail = first.tail
        parent = first.getparent()
        assert parent is not None
        parent.replace(first, label)


#: A link to the previous or next page of a series ("Previous", "Next »", "‹ Older posts").
_PAGER_LINK = re.compile(
    r"^[«‹←<\s]*(?:previous|prev|next|older|newer)(?:\s+(?:post|posts|page|article|"
    r"chapter|lesson|entries|entry))?[\s»›→>]*$", re.I)
#: Most characters of a box of such links (MDN's "Previous Overview: CSS layout Next").
_PAGER_CHARS = 120


def _drop_pager_links(clone: etree._Element) -> None:
    """A box of links to the previous and next pages out of the reader's copy: the nearest
    list, paragraph or box around a "Previous" or "Next" link that says nothing but its
    links, at most :data:`_PAGER_CHARS` characters, two links or more (MDN's lessons open
    and end with "Previous · Overview: CSS layout · Next", which the reader showed as a
    list of three bullets over the text)."""
    for link in list(clone.iter("a")):
        if link.getparent() is None or clone not in link.iterancestors() \
                or not _PAGER_LINK.match(" ".join(element_text(link).split())):
            continue
        box = next((node for node in link.iterancestors()
                    if node.tag in ("ul", "ol", "p", "div", "nav")), None)
        if box is None or box is clone or box.getparent() is None:
            continue
        links = list(box.iter("a"))
        text = rest = "".join(element_text(box).split())
        for other in links:
            rest = rest.replace("".join(element_text(other).split()), "", 1)
        if len(links) >= 2 and len(text) <= _PAGER_CHARS and not rest.strip("|·•/-–—") \
                and next(box.iter(*_PICTURES, "table", "pre"), None) is None:
            _drop(box)


#: Compiled once, as :data:`_BUTTON_ROLE_XPATH`.
_NAVIGATION_XPATH = etree.XPath("descendant::*[self::nav or @role='navigation']")


def _drop_bare_navigation(clone: etree._Element) -> None:
    """Navigation boxes (``<nav>``, ``role=navigation``) showing nothing but headings: the
    heading of a list of links that is not there (left out, or filled by the page's script:
    a documentation page's "In this article" outline) heads the text after it instead."""
    for nav in list(_NAVIGATION_XPATH(clone)):
        if clone not in nav.iterancestors():
            continue  # inside a box dropped already
        text = "".join(element_text(nav).split())
        headings = "".join("".join(element_text(heading).split())
                           for heading in _outermost_in(nav, _HEADINGS))
        if text and text == headings and next(nav.iter(*_PICTURES), None) is None:
            _drop(nav)


#: Inline elements whose text a page's stylesheet sets apart from the next one's (a row of
#: a product's details, a label and its value as two ``<span>``): the reader has no
#: stylesheet, and with no space written between them their words ran into one.
_GLUE_TAGS = frozenset({"span", "a", "b", "strong", "em", "i", "label", "small", "font", "u",
                        "abbr", "time", "data", "cite", "mark", "bdi", "q", "s", "del", "ins"})
#: a closing bracket a word may end with: "eBay Product ID (ePID)" and its value
_CLOSING = frozenset(")]")


def _starts_apart(text: str) -> bool:
    """Whether ``text`` starts as no word goes on: a capital, a figure, a currency sign."""
    first = text[:1]
    return bool(first) and (first.isupper() or first.isdecimal()
                            or unicodedata.category(first) == "Sc")


#: Code and program text, whose characters are the text: nothing is added inside.
_VERBATIM_TAGS = ("pre", "code", "kbd", "samp", "tt", "var")


#: A character of a script written without spaces between words (CJK ideographs, kana,
#: hangul syllables, their punctuation and full-width forms).
_CJK_CHAR = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def _part_glued_siblings(clone: etree._Element) -> None:
    """A space between two inline siblings with nothing written between them, the first's
    text ending in a letter, a figure or a closing bracket (more than one character: not a
    drop cap) and the second's starting with a capital, a figure or a currency sign: what
    the page set apart by its stylesheet ("Publisher" and "Houghton Mifflin" as a row's two
    ``<span>``, a price and the price before a sale) read "PublisherHoughton Mifflin",
    "$499.99$599.99". A word the page cut in two ("Java" "script", a drop cap "T" "he")
    stays whole. Code is left as written: a highlighter's spans split ``sumX`` too."""
    # made at the first pair of siblings (most copies have none); only tails change below
    verbatim: set[etree._Element] | None = None
    in_heading: set[etree._Element] = set()
    for first in list(clone.iter(*_GLUE_TAGS)):
        second = first.getnext()
        if second is None or first.tail or not isinstance(second.tag, str) \
                or second.tag not in _GLUE_TAGS:
            continue
        if verbatim is None:
            verbatim = {node for box in clone.iter(*_VERBATIM_TAGS) for node in box.iter()}
            in_heading = {node for box in clone.iter(*_HEADINGS) for node in box.iter()}
        if first in verbatim:
            continue
        before = _edge_piece(first, last=True)
        after = _edge_piece(second, last=False)
        if _CJK_CHAR.match(before[-1:]) or _CJK_CHAR.match(after[:1]):
            continue  # Chinese and Japanese are written without spaces, also before a figure
        if (before[-1:].isalnum() or before[-1:] in _CLOSING) and (
                len(before) > 1 or len(element_text(first)) > 1) and (
                _starts_apart(after) or (first in in_heading and after[:1].isalpha()
                                         and _styled_apart(first, second))):
            first.tail = " "


def _styled_apart(first: etree._Element, second: etree._Element) -> bool:
    """Whether two ``<span>``s are each styled by a class of their own: in a heading, a name
    and its type (Stripe's API reference heads each field "id" "string" in two such spans,
    which read "idstring"); a word the page cut in two is seldom classed twice."""
    classes = (first.get("class") or "").split(), (second.get("class") or "").split()
    return first.tag == second.tag == "span" and all(classes) and set(classes[0]) != set(
        classes[1])


def _edge_piece(element: etree._Element, last: bool) -> str:
    """The last (or first) piece of text written inside ``element``, "" when it has none:
    its end (or start) as read, without a walk of all its text."""
    # (what, node): "node" its text and children, "text" its text alone, "tail" its tail
    stack: list[tuple[str, etree._Element]] = [("node", element)]
    while stack:
        what, node = stack.pop()
        if what == "tail":
            if node.tail:
                return node.tail
        elif what == "text":
            if node.text:
                return node.text
        elif isinstance(node.tag, str):  # a comment's text is not shown
            if last:
                stack.append(("text", node))  # the text comes off after the children
                for child in node:  # the last child's tail comes off first
                    stack.append(("node", child))
                    stack.append(("tail", child))
            else:
                for child in reversed(node):  # the first child comes off first
                    stack.append(("tail", child))
                    stack.append(("node", child))
                stack.append(("text", node))
    return ""


#: Classes of a list the page lays out as one line (Bootstrap's ``list-inline``, XenForo's
#: ``listInline``, ``inline-list``): a post's date, a thread's starter and start date.
_INLINE_LIST_CLASS = re.compile(r"(?:^|[\s_-])(?:list-?inline|inline-?list)(?:$|[\s_-])", re.I)
#: What an item of such a list may hold and still read as part of a line.
_LINE_BREAKERS = ("p", "div", "ul", "ol", "dl", "table", "pre", "blockquote", "figure",
                  "section", "article", "h1", "h2", "h3", "h4", "h5", "h6", "hr")
#: What stands between the items of an inline list made a line.
_INLINE_SEPARATOR = " · "


def _inline_lists(clone: etree._Element) -> None:
    """Bulleted lists the page lays out as one line (:data:`_INLINE_LIST_CLASS`), their items
    holding no blocks, as a line of text, items apart by a middle dot: the reader has no
    stylesheet of the page, and a post's date showed as a bullet list of one item."""
    for ul in list(clone.iter("ul")):
        parent = ul.getparent()
        if parent is None or not _INLINE_LIST_CLASS.search(ul.get("class") or "") or any(
                child.tag != "li" for child in ul if isinstance(child.tag, str)) or next(
                ul.iterdescendants(*_LINE_BREAKERS), None) is not None:
            continue
        line = lxml_html.Element("p")
        for item in ul.iterchildren("li"):
            if not "".join(item.itertext()).strip(_SPACE) and next(
                    item.iter(*_PICTURES), None) is None:
                continue
            if len(line) or (line.text or "").strip():
                append_text(line, _INLINE_SEPARATOR)
            append_text(line, (item.text or "").strip(_SPACE) or None)
            for child in list(item):
                line.append(child)
            if len(line) and line[-1].tail:
                line[-1].tail = line[-1].tail.rstrip(_SPACE)
        line.tail = ul.tail
        parent.replace(ul, line)


#: Boxes laid out tight, in which a paragraph's space after a line would show: a list item, a
#: table cell, a definition, a caption, a summary line, a heading.
_TIGHT_BOXES = frozenset({"li", "td", "th", "dt", "dd", "caption", "figcaption", "summary",
                          "h1", "h2", "h3", "h4", "h5", "h6", "pre"})


def _text_boxes_as_paragraphs(clone: etree._Element) -> None:
    """A ``<div>``, ``<section>`` or ``<article>`` holding text and no block is a paragraph
    of the reader's copy, as it is one in the plain text (:func:`paragraphs`): the reader's
    style sheet spaces paragraphs, lists and tables, not boxes, and the text after such a box
    (a page's grid or flex row of ``<span>`` cells, "Founded 1911 Ships registered 4,200 a
    year", a teaser written in a ``<div>``, a news story's standfirst in a ``<section>``)
    read as its next line. One in a list item, a table cell or another box laid out tight
    stays, as do the boxes around blocks (their paragraphs are spaced)."""
    for div in list(clone.iter("div", "section", "article")):
        if next(div.iterdescendants(*BLOCK_TAGS), None) is not None \
                or not any(text.strip(_SPACE) for text in div.itertext()) \
                or any(box.tag in _TIGHT_BOXES for box in div.iterancestors()):
            continue
        div.tag = "p"


#: what a page leaves in a paragraph used as vertical space ("<p>&nbsp;</p>", "<p><br></p>")
_SPACER_TAGS = frozenset({"br", "span", "b", "strong", "i", "em", "font", "u", "small"})
#: (and the zero-width joiners and marks some editors leave alone in one: Webflow's
#: "<p>\u200d</p>", a blank line between sections)
_SPACE = " \t\r\n\f\u00a0\u200b\u200c\u200d\u2060\ufeff"
_BLOCKS_ENDING_IN_BREAKS = frozenset({"p", "div", "li", "dd", "td", "th", "blockquote",
                                      "section", "article", "figcaption"})
#: Boxes that show nothing when they hold no text and no picture (a table's cells keep their
#: place in it; an ordered list's items keep their numbers): an empty heading or paragraph
#: showed as a gap its margins wide (a Steam page's "<h2></h2>" above each banner)
_EMPTY_BOXES = ("div", "section", "article", "ul", "ol", "li", "dl", "dt", "dd", "blockquote",
                "figure", "figcaption", "center", "p", "h1", "h2", "h3", "h4", "h5", "h6")


def _break_before(node: etree._Element) -> bool:
    """Whether ``node`` follows a ``<br>`` with nothing shown between them."""
    before = node.getprevious()
    return before is not None and before.tag == "br" and not (before.tail or "").strip(_SPACE)


def _drop_spacers(clone: etree._Element) -> None:
    """Paragraphs holding nothing but spaces and line breaks, and the line breaks a block
    ends with: page authors' spacing, which shows as empty screens in the reader."""
    for para in list(clone.iter("p")):
        if para.getparent() is None or (para.text or "").strip(_SPACE):
            continue  # (a paragraph that opens with text is no spacer)
        inside = list(para.iter())
        if all(node is para or node.tag in _SPACER_TAGS for node in inside) and not any(
                (text or "").strip(_SPACE) for node in inside
                for text in (node.text, node.tail if node is not para else None)):
            _drop(para)
    for br in reversed(list(clone.iter("br"))):
        parent = br.getparent()
        # a <br> with nothing after it in its block (its own tail blank, the last child)
        if (parent is not None and parent.tag in _BLOCKS_ENDING_IN_BREAKS and br is parent[-1]
                and not (br.tail or "").strip(_SPACE)):
            _drop(br)
        # the third <br> of a run (nothing but spaces between them): one empty line sets two
        # paragraphs apart, a forum post's "<br><br><br>" showed two
        elif _break_before(br) and _break_before(br.getprevious()):
            _drop(br)
    # boxes left empty: a slider's "<div>&nbsp;</div>" dots, a list of buttons (gone as
    # controls) as empty bullets; a box of empty boxes goes too
    shows_nothing: set[etree._Element] = set()
    # one walk from the last element back: each element's descendants come before it, so
    # a subtree is judged once (a box judged on its whole subtree was quadratic in depth)
    for node in reversed(list(clone.iter())):
        tag = node.tag
        if isinstance(tag, str) and (tag in _SPACER_TAGS or tag in _EMPTY_BOXES or tag == "a") \
                and not (node.text or "").strip(_SPACE) and all(
                    child in shows_nothing and not (child.tail or "").strip(_SPACE)
                    for child in node):
            shows_nothing.add(node)
    for box in reversed(list(clone.iter(*_EMPTY_BOXES))):
        parent = box.getparent()
        if parent is None or (box.tag == "li" and parent.tag == "ol"):
            continue  # an ordered list's items keep their numbers (the whole list may go)
        if box in shows_nothing:
            _drop(box)


def outermost(elements: Sequence[etree._Element],
              exclude: Collection[etree._Element] = frozenset()) -> list[etree._Element]:
    """Drop elements nested inside another element of the list; keep document order.

    An element inside an ``exclude`` subtree of another one stays: rendering the other one
    leaves that subtree out, and the element with it (a forum post's body inside the
    post's info block that the post's region leaves out).
    """
    chosen = set(elements)
    kept = []
    for element in elements:
        parent = element.getparent()
        nested = False
        while parent is not None:
            if exclude and parent in exclude:
                break  # what lies above renders without this subtree
            if parent in chosen:
                nested = True
                break
            parent = parent.getparent()
        if not nested:
            kept.append(element)
    return kept


#: Class words naming a post's author on forum software (XenForo's ``username`` and
#: ``message-name``, phpBB's ``username``/``postauthor``, Discourse's ``username``, vBulletin's
#: ``username``/``postbit-username``, and ``author``/``poster`` names in general).
_AUTHOR_CLASS = re.compile(
    r"(?:^|[\s_-])(?:user-?name|username-coloured|author|author-?name|post-?author|poster|"
    r"message-?name|nickname|byline)(?:$|[\s_-])", re.I)
_AUTHOR_PREFILTER = ("descendant::*[contains(@class,'ser') or contains(@class,'uthor') or "
                     "contains(@class,'byline') or "
                     "contains(@class,'oster') or contains(@class,'essage-name') or "
                     "contains(@class,'ickname') or @itemprop='author']")
#: Badges a forum shows in an author's place ("Author" beside the thread starter's posts).
_AUTHOR_BADGES = frozenset({"author", "op", "original poster", "thread starter", "moderator",
                            "mod", "admin", "administrator", "staff", "guest", "member", "by"})
#: A poster's count ("196", "16.6k") and what such counts are of, beside a name.
_COUNT = re.compile(r"^#?[\d.,]+[kKmM]?$")
_COUNT_WORDS = frozenset({"members", "member", "posts", "post", "messages", "likes",
                          "reputation", "joined", "points"})
#: Most characters of an avatar's initials drawn in a profile link ("J", "PE").
_INITIALS_CHARS = 2
#: Most characters and words of a post author's name.
_AUTHOR_CHARS, _AUTHOR_WORDS = 40, 4


def ancestors_of(elements: Iterable[etree._Element]) -> set[etree._Element]:
    """Every ancestor of ``elements``, each walked once (a shared ancestor stops the walk)."""
    found: set[etree._Element] = set()
    for element in elements:
        for ancestor in element.iterancestors():
            if ancestor in found:
                break
            found.add(ancestor)
    return found


def _shown_in(node: etree._Element, chosen: Collection[etree._Element],
              exclude: Collection[etree._Element]) -> etree._Element | None:
    """The chosen element (``node`` or an ancestor) whose copy shows ``node``: None when
    ``node`` lies in none, or in a part the chosen element leaves out (``exclude``)."""
    for element in (node, *node.iterancestors()):
        if element in exclude:
            return None
        if element in chosen:
            return element
    return None


def post_authors(body: etree._Element, chosen: Sequence[etree._Element],
                 exclude: Collection[etree._Element] = frozenset()
                 ) -> list[etree._Element]:
    """The author's name of each post of a thread whose text is chosen but not its author:
    an element named for the author (class ``username``, ``author``, ``poster``, ...;
    ``itemprop=author``) holding a short name, outermost such, that shares with chosen text
    an ancestor holding no other author's name (the post; copies of one name, as a page
    gives them for phones and for wider screens, are one name, named once, and not at all
    when the post's chosen text shows a copy above). A thread read without who wrote each
    reply cannot be followed.

    A name inside a chosen element but in a part of it left out (``exclude``: a post's
    header, left out of the post's box) is not shown: it is a head too (:func:`sanitized_html`
    puts it before that box). A chosen element that shows nothing but a post's author's name
    (the page's own user pane: an avatar and the name) is returned as a head as well, so
    that every post is headed alike, its avatar and badges not copied."""
    if not chosen:
        return []
    chosen_set = set(chosen)
    holders = ancestors_of(chosen)
    names: list[etree._Element] = []
    text_of: dict[etree._Element, str] = {}
    order: dict[etree._Element, int] = {}  # document order of the names (the walk's)
    shown: list[tuple[etree._Element, str]] = []
    panes: list[etree._Element] = []  # chosen boxes showing a name alone (or with its date)
    # an author's box whose name is its profile link (the box -> the name): a line in it
    # named for the author but showing no link and another text is about them (SMF's
    # "poster_ip" line, "Logged"), not a second name in the post
    named_by_link: dict[etree._Element, str] = {}
    # posts' headers inside chosen boxes, by box: a box of one post is headed by its header
    headers_in: dict[etree._Element, list[etree._Element]] = {}
    for node in body.xpath(_AUTHOR_PREFILTER):
        if node.get("itemprop") != "author" and not _AUTHOR_CLASS.search(node.get("class") or ""):
            continue
        text = " ".join(element_text(node).split())
        links = [a for a in node.iter("a") if a.get("href") and element_text(a).strip()]
        if len(links) > 1:
            # a post's byline links its author and its own page by its age ("jamesw 1 year
            # ago", lobste.rs): the name is the link that is no date
            named = [a for a in links if next(a.iter("time"), None) is None]
            links = named if len(named) == 1 else links
        if not links and any(named_by_link.get(ancestor, text) != text
                             for ancestor in node.iterancestors()):
            continue
        if len(links) == 1 and " ".join(element_text(links[0]).split()) != text:
            # the name is the profile link; the rest is a reputation, badges or a copy the
            # page hides
            box = node
            node, text = links[0], " ".join(element_text(links[0]).split())
            if len(text) > _INITIALS_CHARS:  # (not an avatar's initials, "J", "PE")
                named_by_link[box] = text
        words = text.split()
        half = len(words) // 2
        if (not text or len(text) > _AUTHOR_CHARS or len(words) > _AUTHOR_WORDS
                or any(_COUNT.match(word) or word.lower() in _COUNT_WORDS for word in words)
                or (half and words[:half] == words[half:])):
            continue  # no name, a count, a name with the poster's counts, or twice the same
        if text.lower().rstrip(":") in _AUTHOR_BADGES:
            continue
        if node in holders:
            continue  # holds chosen text
        order[node] = len(order)
        text_of[node] = text.lower()
        box = _shown_in(node, chosen_set, exclude)
        if box is not None:
            shown.append((node, text.lower()))  # shown already
            if box not in panes and not text.startswith("@") and (
                    _squeezed(box) == _squeezed(node) or _post_header_alone(box, node)):
                panes.append(box)  # ... by a box showing the name alone: its head
            elif not text.startswith("@"):
                header = _post_header_in(box, node)
                if header is not None:
                    headers_in.setdefault(box, []).append(header)
            continue
        names.append(node)
    for found in headers_in.values():
        # (a box holding several posts' headers is the thread's: each head would stand
        # before the whole box, the last one heading all of it)
        if len(found) == 1 and found[0] not in panes:
            panes.append(found[0])  # ... or by the post's header inside its box
    names = outermost(names)
    post_of: dict[etree._Element, etree._Element] = {}
    for name in names:
        post = next((a for a in name.iterancestors() if a in holders or a in chosen_set), None)
        if post is not None and post.tag not in ("body", "html"):
            post_of[name] = post
    # a post may give its author twice (a pane for phones, one for wider screens; a name
    # above the post and one below its text): copies of one name are one author, named
    # once, where the first copy stands
    per_post: dict[etree._Element, dict[str, etree._Element]] = {}
    for name, post in post_of.items():
        per_post.setdefault(post, {}).setdefault(text_of[name], name)
    heads: list[etree._Element] = []
    for post, by_text in per_post.items():
        if len(by_text) != 1:
            continue
        (text, name), = by_text.items()
        if any(seen == text and order[node] < order[name] and post in node.iterancestors()
               for node, seen in shown):
            continue  # the post shows the name already, above where the head would stand
        if any(text_of[head] == text and post_of[head] in post.iterancestors()
               and all(seen == text for node, seen in text_of.items()
                       if post_of[head] in node.iterancestors())
               for head in heads):
            continue  # a copy in a part of a post named already (one naming no one else)
        heads.append(name)
    return heads + panes


#: Longest text of a link that is shown whole when part of it is chosen (a product card's
#: name and price; not a page some site wrapped in one link).
_LINK_UNIT_CHARS = 300


def whole_links(chosen: Sequence[etree._Element],
                exclude: Collection[etree._Element] = frozenset()) -> list[etree._Element]:
    """``chosen`` with each element that lies inside a short link (``<a href>``, at most
    :data:`_LINK_UNIT_CHARS` of text) replaced by the link: a link is one unit, and a part of
    it chosen alone loses the rest (a product card's link holds the name, chosen, and the
    price beside it, left out as a block of links)."""
    widened: list[etree._Element] = []
    changed = False
    for element in chosen:
        link = next(element.iterancestors("a"), None)
        if (link is not None and link.get("href") is not None and link not in exclude
                and not any(node in exclude for node in link.iterancestors())
                and len(element_text(link)) <= _LINK_UNIT_CHARS):
            widened.append(link)
            changed = True
        else:
            widened.append(element)
    if not changed:
        return list(chosen)
    return outermost(list(dict.fromkeys(widened)), exclude)


def loose_text_kept(chosen: Sequence[etree._Element],
                    exclude: Collection[etree._Element] = frozenset(),
                    keep: Collection[etree._Element] = frozenset()) -> list[etree._Element]:
    """``chosen`` with two or more children of one box replaced by the box when the rest of
    it is loose text and inline elements (a line break, a picture, a link): text written
    between a post's quote and its smiley, "<blockquote>…</blockquote><br>It can write a
    pretty mean haiku <img>", is no element a segmenter can choose, and the reader showed
    the quote and the picture of a reply without its words. A box holding an element not
    chosen that is a block (a paragraph, a list, a signature's ``<div>``) or has words of its
    own (a "Free Trial" button's link), or one of ``keep`` (a post's head, shown as such), is
    left as chosen: only the box's own loose text comes in, with its line breaks."""
    by_parent: dict[etree._Element, int] = {}
    for element in chosen:
        parent = element.getparent()
        if parent is not None:
            by_parent[parent] = by_parent.get(parent, 0) + 1
    chosen_set = set(chosen)
    boxes = set()
    for parent, count in by_parent.items():
        if count < 2 or parent in exclude or parent.tag in ("body", "html") or any(
                node in exclude for node in parent.iterancestors()) or any(
                node in keep for node in parent.iter()):
            continue
        rest = [child for child in parent if child not in chosen_set
                and isinstance(child.tag, str)]  # (a comment: nothing shown)
        if any(child in exclude or child.tag in BLOCK_TAGS or element_text(child).strip()
               or next((node for node in child.iterdescendants() if node.tag in BLOCK_TAGS),
                       None) is not None for child in rest):
            continue  # a block, or an element with words of its own the segmenter left out
        if ((parent.text or "") + "".join(child.tail or "" for child in parent)).strip():
            boxes.add(parent)
    if not boxes:
        return list(chosen)
    widened = [next((node for node in (element, *element.iterancestors()) if node in boxes),
                    element) for element in chosen]
    return outermost(list(dict.fromkeys(widened)), exclude)


#: The headings :func:`headings_kept` brings in (the page's ``<h1>`` is its title, which the
#: header shows) and their longest text.
_SUBHEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
_SUBHEADING_CHARS = 150


def _link_and_paragraph(box: etree._Element | None) -> bool:
    return box is not None and not (box.text or "").strip() and [
        child.tag for child in box if isinstance(child.tag, str)] == ["a", "p"]


def _title_link(link: etree._Element, element: etree._Element) -> bool:
    """Whether ``link``, the previous sibling of ``element``, is the title of a card or a
    list item made of the two alone, among others like it: a link that opens its box (no
    text before it), then ``element``, a paragraph, in a box beside another of the same
    shape (Hal Higdon's training plans: ``<li><a>Boston Bound</a><p>Usually available only
    at the beginning of each year…</p></li>``, one item of many). Not a lone box's button
    and the note beside it ("View pricing" / "Starting at $0.60/hour")."""
    box = link.getparent()
    if (link.tag != "a" or link.get("href") is None or element.tag != "p"
            or (link.tail or "").strip() or not _link_and_paragraph(box)):
        return False
    beside = (box.getprevious(), box.getnext())
    return any(other is not None and other.tag == box.tag and _link_and_paragraph(other)
               for other in beside)


def headings_kept(chosen: Sequence[etree._Element],
                  exclude: Collection[etree._Element] = frozenset()) -> list[etree._Element]:
    """``chosen`` with the heading right before a chosen element (its previous sibling, an
    ``<h2>``-``<h6>`` of at most :data:`_SUBHEADING_CHARS` characters) that the algorithm
    left out: the heading of text the reader shows. Stripe's API reference names each field
    in an ``<h4>`` ("id string", "amount integer") above its description in a ``<div>``; a
    segmenter took the descriptions alone, and the reader listed them without their names.
    So is a card's title given as a link above its paragraph (:func:`_title_link`), which
    a segmenter leaves out as a link block: the reader listed the teasers of a site's
    training plans without the plans' names. (One step per chosen element: its previous
    sibling.)"""
    chosen_set = set(chosen)
    out: list[etree._Element] = []
    for element in chosen:
        heading = element.getprevious()
        while heading is not None and not isinstance(heading.tag, str):
            heading = heading.getprevious()  # a comment between them
        if (heading is not None and (heading.tag in _SUBHEADINGS or _title_link(heading, element))
                and element.tag not in _HEADINGS
                and heading not in chosen_set and heading not in exclude
                and (not out or out[-1] is not heading)
                and not any(node in chosen_set or node in exclude for node in heading.iter())
                and 0 < len(element_text(heading).strip()) <= _SUBHEADING_CHARS
                and not any(node in chosen_set or node in exclude
                            for node in heading.iterancestors())):
            out.append(heading)
        out.append(element)
    return out


#: A class naming a card's name or title box ("product-name", "card__title", "tile-heading"),
#: not a post's author's ("author-name", "user-name").
_CARD_NAME_CLASS = re.compile(r"(?:^|[\s_-])(?:name|title|heading)(?:$|[\s_-])", re.I)
_PERSON_NAME_CLASS = re.compile(r"author|user|byline|poster|member", re.I)
#: Most levels above a chosen element at which its card is looked for.
_CARD_LEVELS = 4
#: Most characters of a card's text: an item's name, price and teaser, not a page's section.
_CARD_CHARS = 800
#: Tags of items repeated in a list that need no class to be taken as cards.
_ITEM_TAGS = frozenset({"li", "article"})


def repeated_item(node: etree._Element) -> bool:
    """Whether ``node`` is one of a run of items alike: an element beside it has its tag and
    its class (an ``<li>`` or ``<article>`` may have none)."""
    cls = node.get("class")
    if not cls and node.tag not in _ITEM_TAGS:
        return False
    for other in (next(node.itersiblings(etree.Element, preceding=True), None),
                  next(node.itersiblings(etree.Element), None)):
        if other is not None and other.tag == node.tag and other.get("class") == cls:
            return True
    return False


def _card_name(box: etree._Element) -> bool:
    """Whether ``box`` names a card: a heading or an element classed as a name or title
    (:data:`_CARD_NAME_CLASS`), all of whose words are a link's."""
    if box.tag not in _SUBHEADINGS and not (
            _CARD_NAME_CLASS.search(box.get("class") or "")
            and not _PERSON_NAME_CLASS.search(box.get("class") or "")):
        return False
    text = element_text(box).strip()
    if not 0 < len(text) <= _SUBHEADING_CHARS:
        return False
    links = [box] if box.tag == "a" else list(box.iter("a"))
    return bool(links) and all(link.get("href") is not None for link in links) and len(
        "".join(element_text(link) for link in links).split()) == len(text.split())


#: A link to a person's page: a post's author, not an item of a listing.
_PROFILE_HREF = re.compile(r"/(?:members?|users?|u|profiles?|people|authors?)/|member\.php|"
                           r"profile", re.I)


def _pictured_item(card: etree._Element, name: etree._Element) -> bool:
    """Whether ``card`` also links its picture to where its name links, as a listing's item
    does (a thumbnail and a name to the product), to a page that is no person's."""
    hrefs = {link.get("href") for link in ([name] if name.tag == "a" else name.iter("a"))}
    return not any(_PROFILE_HREF.search(href or "") for href in hrefs) and any(
        link.get("href") in hrefs and next(link.iter("img", "picture"), None) is not None
        for link in card.iter("a"))


def card_names_kept(chosen: Sequence[etree._Element],
                    exclude: Collection[etree._Element] = frozenset()) -> list[etree._Element]:
    """``chosen`` with the name of each card whose text it shows and whose name it leaves
    out: a listing's products read "(34) A compact, high-performance espresso machine…"
    without the product's name, a link a segmenter leaves out as a link block (wcxb-dev
    4818's ``<div class="product-name"><a>…</a></div>``). A card is the closest box up to
    :data:`_CARD_LEVELS` levels above a chosen element that is one of a run of items alike
    (:func:`repeated_item`); its name, the first box in it that :func:`_card_name` takes,
    before the chosen element. A card whose name is shown, or whose first name is left out
    by a rule (``exclude``), is left as it is."""
    chosen_set = set(chosen)
    out: list[etree._Element] = []
    done: set[etree._Element] = set()
    is_item: dict[etree._Element, bool] = {}  # chosen elements share their ancestors
    for element in chosen:
        card, node = None, element.getparent()
        for _ in range(_CARD_LEVELS):
            if node is None or node.tag in ("body", "html"):
                break
            found = is_item.get(node)
            if found is None:
                found = is_item[node] = repeated_item(node)
            if found:
                card = node
                break
            node = node.getparent()
        # a picture alone is no teaser waiting for its name (texts collapsed in C: a chosen
        # element may be a whole article)
        if card is not None and card not in done and _COLLAPSED_TEXT(element) \
                and len(_COLLAPSED_TEXT(card)) <= _CARD_CHARS:
            done.add(card)
            name = next((box for box in card.iterdescendants(etree.Element)
                         if box is element or _card_name(box)), None)
            if (name is not None and name is not element and _pictured_item(card, name)
                    and not any(node in chosen_set or node in exclude for node in name.iter())
                    and not any(node in chosen_set or node in exclude
                                for node in name.iterancestors())):
                out.append(name)
        out.append(element)
    return out


#: Longest introduction of what follows it ("Read more:", "Related posts:").
_INTRODUCTION_CHARS = 60
#: Least share of a box's text in its links for a box of links.
_LINKS_SHARE = 0.8
#: The boxes an introduction may introduce.
_INTRODUCED_TAGS = frozenset({"ul", "ol", "dl", "table", "div", "section", "nav", "aside"})


def _links_mostly(box: etree._Element) -> bool:
    words = len(element_text(box).split())
    return words > 0 and sum(len(element_text(link).split())
                             for link in box.iter("a")) >= _LINKS_SHARE * words


def _without_lone_introductions(chosen: Sequence[etree._Element]) -> list[etree._Element]:
    """``chosen`` without a heading or a paragraph that introduces the box of links after
    it, a short text ending in a colon ("Read more:", "Also on HuffPost:"), when nothing
    of that box is shown: a blog's "Read more:" over its related links, which the
    segmenter left out, stood alone between the story's end and its lender's notice. An
    introduction to a list of words or a picture stays: the author's sentence ("Simplify
    the user interface by:"), whatever was left out after it. (One at the text's end goes
    in the reader's own check too; this one sees the page's boxes.)"""
    chosen_set = set(chosen)
    lone = []
    for element in chosen:
        if element.tag not in _SUBHEADINGS and element.tag != "p":
            continue
        text = element_text(element).strip()
        if not text.endswith(":") or len(text) > _INTRODUCTION_CHARS:
            continue
        after = next(element.itersiblings(etree.Element), None)  # past comments
        if (after is not None and after.tag in _INTRODUCED_TAGS and _links_mostly(after)
                and not any(node in chosen_set for node in after.iter())):
            lone.append(element)
    return [element for element in chosen if element not in lone] if lone else list(chosen)


#: Class names of text meant for screen readers only, hidden by the page's CSS
#: ("sr-only", "sr-text", "screen-reader-text", "visually-hidden", "a11y-hidden", eBay's
#: "clipped").
_SCREEN_READER_CLASS = re.compile(
    r"(?:^|[\s_-])(?:sr|screen-?reader|visually-?hidden|visuallyhidden|a11y|assistive|offscreen"
    r"|clipped)(?:$|[\s_-])", re.I)
_WORD = re.compile(r"\w+")


def _squeezed(element: etree._Element) -> str:
    return "".join(element_text(element).split()).lower()


#: Compiled once, as :data:`_BUTTON_ROLE_XPATH`.
_ARIA_HIDDEN_XPATH = etree.XPath("descendant-or-self::*[@aria-hidden='true']")


def screen_reader_copies(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Screen-reader copies of text the page shows hidden from screen readers, inside
    ``elements``: beside an ``aria-hidden="true"`` element with text (the visible "$79.00"),
    a sibling whose text holds it and that is a screen-reader text by its class or mostly
    that text ("Price $ 79.00"): the visible copy stays. Beside a screen-reader text by its
    class that says mostly the same words otherwise (:func:`_says_mostly_the_same`:
    "Estimated delivery Wed, Apr 22" for the "Est. delivery Wed, Apr 22" shown, "EUR 34.42"
    for a price whose point the page's stylesheet draws), the element shown is the copy:
    its words are the page's drawing of them. Either way the text is said once, not twice."""
    found: list[etree._Element] = []
    for root in elements:
        if not isinstance(root.tag, str):
            continue
        for shown in _ARIA_HIDDEN_XPATH(root):
            parent = shown.getparent()
            text = _squeezed(shown)
            if parent is None or sum(ch.isalnum() for ch in text) < 2:
                continue
            for sibling in parent:
                if sibling is shown or not isinstance(sibling.tag, str) \
                        or sibling.get("aria-hidden") == "true":
                    continue
                other = _squeezed(sibling)
                spoken = _SCREEN_READER_CLASS.search(sibling.get("class") or "")
                if text in other and (spoken or 2 * len(text) >= len(other)):
                    found.append(sibling)
                elif spoken and _says_mostly_the_same(shown, sibling):
                    # the same in other words: the words, not the page's drawing of them
                    # (a price's point drawn by the stylesheet read "EUR 34 42", an icon
                    # font's "%" was no character)
                    found.append(shown)
                    break
    return found


#: A class of text for screen readers alone, which the page's CSS clips out of sight:
#: "sr-only", "sr-text", "screen-reader-text", "visually-hidden" (and
#: "visually-hidden--inline"), "a11y-hidden", "assistive-text", each maybe after a
#: component's name ("u-text-sr-only", IKEA's "plp-price__sr-text"). Stricter than
#: :data:`_SCREEN_READER_CLASS` (whose "a11y"/"offscreen" words also name shown boxes):
#: what the reader leaves out.
_UNSEEN_CLASS = re.compile(
    r"(?<![\w-])(?!not-)(?:[a-z0-9]+(?:__|[-_]))*(?:sr-?only|sr-text|screen-reader-(?:text|only)|"
    r"visually-?hidden|visuallyhidden|a11y-hidden|assistive-text)(?:(?:--|__)[\w-]+)?(?![\w-])",
    re.I)
#: Pieces of :data:`_UNSEEN_CLASS`, looked for in the classes first (XPath's search, C-speed).
_UNSEEN_PIECES = ("sr-only", "srOnly", "sr-text", "screen-reader-", "isually", "a11y-hidden",
                  "assistive-text")
_UNSEEN_XPATH = etree.XPath("descendant-or-self::*[{}]".format(
    " or ".join(f"contains(@class, '{piece}')" for piece in _UNSEEN_PIECES)))
#: A price box's two alternatives (Shopify's themes: ``price__regular`` for a product at its
#: price, ``price__sale`` for one on sale, under ``price`` or ``price price--on-sale``): the
#: page's stylesheet shows the one its modifier names (Dawn's: ``.price__sale{display:none}
#: .price--on-sale .price__sale{display:initial} .price--on-sale .price__regular{display:none}``).
_PRICE_ALTERNATIVE = re.compile(r"^([\w-]+)__(regular|sale)$")
_ALTERNATIVES_XPATH = etree.XPath(
    "descendant-or-self::*[contains(@class, '__regular') or contains(@class, '__sale')]")
#: A box of a price, by a class word (``price``, ``price__no-variant``, ``unit-price``,
#: ``product-price``): the states it may show are all in the page, the ones not shown now hidden.
_PRICE_BOX_CLASS = re.compile(r"(?:^|[\s_-])price(?:$|[\s_-])", re.I)
#: Elements a page can hide inline (the ``hidden`` attribute, an inline style).
_MAY_HIDE_XPATH = etree.XPath("descendant-or-self::*[@hidden or @style]")
#: How many levels above a hidden element its price box may be (its own class counts as one).
_PRICE_BOX_LEVELS = 4
#: A widget's counter at zero, its own element ("Compare Products <span class=
#: "compare-product-total">(0)</span>", "Wishlist <span class="wishlist-count">(0)</span>").
_ZERO_COUNT = re.compile(r"^\(\s*0\s*\)$")
_COUNTER_CLASS = re.compile(r"count|total|counter|qty|quantity", re.I)
_COUNTER_XPATH = etree.XPath("descendant-or-self::*[@class and text()[contains(., '0)')]]")
#: Longest text of a widget's line holding a counter ("Compare Products (0)").
_WIDGET_LINE_CHARS = 40


def _price_alternatives(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """The price blocks in ``elements`` (or among them) the page's stylesheet does not show:
    of a box ``price`` holding both a ``price__regular`` and a ``price__sale`` block, the
    sale one where the box is not ``price--on-sale`` and else the regular one (whose price
    the sale block shows crossed out beside the price paid)."""
    boxes: dict[etree._Element, dict[str, list[etree._Element]]] = {}
    for root in elements:
        if not isinstance(root.tag, str):
            continue
        for node in _ALTERNATIVES_XPATH(root):
            for word in (node.get("class") or "").split():
                match = _PRICE_ALTERNATIVE.match(word)
                if match is None:
                    continue
                block, kind = match.groups()
                box = next((a for a in node.iterancestors()
                            if block in (a.get("class") or "").split()), None)
                if box is not None:
                    boxes.setdefault(box, {}).setdefault(f"{block}:{kind}", []).append(node)
    found: list[etree._Element] = []
    for box, kinds in boxes.items():
        for key in kinds:
            block, kind = key.split(":")
            if f"{block}:{'sale' if kind == 'regular' else 'regular'}" not in kinds:
                continue  # the box's one price
            on_sale = f"{block}--on-sale" in (box.get("class") or "").split()
            if (kind == "regular") == on_sale:
                found.extend(kinds[key])
    return found


def _hidden_price_states(root: etree._Element) -> list[etree._Element]:
    """Parts of a price box in or around ``root`` that the page hides inline
    (:func:`_inline_hidden`): the states it shows when they apply, a theme's "Unavailable"
    for a product with no variant chosen, "Unit price /" with no unit, "MSRP:", "Was:". Shown
    in the reader, an in-stock product read "Unavailable" under its price."""
    found: list[etree._Element] = []
    for node in _MAY_HIDE_XPATH(root):
        if not _inline_hidden(node):
            continue
        boxes = itertools.islice(itertools.chain((node,), node.iterancestors()),
                                 _PRICE_BOX_LEVELS + 1)
        if any(_PRICE_BOX_CLASS.search(box.get("class") or "") for box in boxes):
            found.append(node)
    return found


def _empty_widget_lines(root: etree._Element) -> list[etree._Element]:
    """Lines in or around ``root`` that are a widget's label with its counter at zero
    ("Compare Products (0)", "Wishlist (0)"): the outermost element around the counter whose
    text is at most :data:`_WIDGET_LINE_CHARS` characters, or ``root`` where that line holds
    it. A control's state, not the page's text."""
    found: list[etree._Element] = []
    for counter in _COUNTER_XPATH(root):
        if not _ZERO_COUNT.match(" ".join(element_text(counter).split())) \
                or not _COUNTER_CLASS.search(counter.get("class") or ""):
            continue
        line = None
        for node in counter.iterancestors():
            # (XPath's count, C-speed: an ancestor past the line may hold the whole page)
            if node.tag in ("body", "html") or node.xpath(
                    "string-length(normalize-space())") > _WIDGET_LINE_CHARS:
                break
            line = node
        if line is not None and _WORD.search(
                element_text(line).replace(element_text(counter), "", 1)):
            # a line above the chosen element holds all of it
            found.append(root if any(a is line for a in root.iterancestors()) else line)
    return found


#: eBay's class of text for screen readers alone (its "Skin" stylesheet clips it to a pixel,
#: as others' "sr-only"): an element so classed, a class word of its own.
_CLIPPED_XPATH = etree.XPath(
    "descendant-or-self::*[contains(@class, 'clipped')"
    " and contains(concat(' ', normalize-space(@class), ' '), ' clipped ')]")


def _clipped_copies(root: etree._Element) -> list[etree._Element]:
    """eBay's screen-reader copies of the words shown beside them (:data:`_CLIPPED_XPATH`):
    "Seller's other items<span class=clipped>Seller's other items</span>", "See all
    details<span class=clipped>See all details on coverage</span>" read twice in the reader
    (wcxb-dev 3021, Firefox ESR). Only one whose words hold all the rest of the text of the
    element around it (that element says nothing the copy does not): a line clipped to its
    box on another site's page, with no copy of its words beside it, stays."""
    found: list[etree._Element] = []
    for node in _CLIPPED_XPATH(root):
        parent = node.getparent()
        if parent is None:
            continue
        spoken, around = _squeezed(node), _squeezed(parent)
        shown = around.replace(spoken, "", 1)
        if sum(ch.isalnum() for ch in shown) >= 2 and shown in spoken:
            found.append(node)
    return found


#: Fewer words than this, a text said twice beside itself may be meant twice (a refrain, a
#: "Yes" column): the least length of auto's repeat rule (``auto.Params.repeat_min_words``).
_LAYOUT_COPY_WORDS = 5
#: A class word of the utility classes that hide an element until a script shows it
#: ("hidden", Bootstrap's "d-none", Bulma's "is-hidden").
_HIDDEN_CLASS = re.compile(r"(?<![\w-])(?:hidden|d-none|is-hidden|hide)(?![\w-])", re.I)
#: Where text repeats for a reason: a table's cells, a listing's lines.
_COPIES_MEANT = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "pre",
                           "code"})
#: Lines apart: a refrain's lines repeat one under the other ("We love you Arsenal, we do.").
_LINE_BREAKS = frozenset({"br", "hr"})


def _layout_copies(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Copies of one text that the page lays side by side for different screens, inside or
    among ``elements``: a section's excerpt given three times (``view--lrg``, ``view--med``,
    ``view--sml``: the stylesheet shows the one that fits the width) and its full text hidden
    for the "Read more" button (wcxb-dev 0634). A snapshot of the live page or the page's
    source holds every copy, and the reader read the excerpt four times.

    Only siblings right after one another count (:func:`_copies_among`): the same heading
    over each of a page's sections, the same code sample in two places, are the page's.
    auto's repeat rule leaves out repeated whole blocks; these copies share a block."""
    found: list[etree._Element] = []
    shown_under: dict[etree._Element, set[etree._Element]] = {}
    for element in elements:
        parent = element.getparent() if isinstance(element.tag, str) else None
        if parent is not None:
            shown_under.setdefault(parent, set()).add(element)
    for parent, shown in shown_under.items():
        if len(shown) > 1:
            found.extend(_copies_among(parent, shown))
    found.extend(_narrow_copy_pieces(elements))
    for root in elements:
        if not isinstance(root.tag, str) or root.tag in _COPIES_MEANT:
            continue
        for parent in root.iter():
            if len(parent) > 1 and isinstance(parent.tag, str) \
                    and parent.tag not in _COPIES_MEANT:
                found.extend(_copies_among(parent))
    return found


def _copies_among(parent: etree._Element, shown: Collection[etree._Element] | None = None
                  ) -> list[etree._Element]:
    """The copies among ``parent``'s children (those in ``shown``, where given) that
    :func:`_layout_copies` leaves out.

    A run of copies is siblings one right after the other, each saying what the first says
    (white space and case aside, at least :data:`_LAYOUT_COPY_WORDS` words) or, one of the
    two hidden by the page (inline, or by a hiding utility class), saying in full what the
    other excerpts (:func:`_excerpt_of`), and each leading to the same addresses. Text
    between two siblings, a sibling with fewer words or a line break ends a run. Of a run,
    the full text stays if there is one, else the first copy the page does not hide."""
    copies: list[etree._Element] = []
    run: list[tuple[etree._Element, str]] = []

    def close_run() -> None:
        members = [(node, text) for node, text in run if shown is None or node in shown]
        if len(run) > 1 and members:
            hidden = {node: _hidden_by_page(node) for node, _ in members}
            longest = max(len(text) for _, text in members)
            shortest = min(len(text) for _, text in run)
            kept = next((node for node, text in members
                         if hidden[node] and len(text) == longest > shortest), None)
            if kept is None:
                # of a box laid out for each screen, the desktop's (the reader is read there)
                kept = next((node for node, _ in members if not hidden[node]
                             and _for_wide_screens(node)), None)
            if kept is None:
                kept = next((node for node, _ in members if not hidden[node]), members[0][0])
            copies.extend(node for node, _ in members if node is not kept)
        run.clear()

    for child in parent:
        tag = child.tag
        if tag in _COPIES_MEANT or tag in _LINE_BREAKS:
            close_run()
        elif isinstance(tag, str) and tag not in NON_TEXT_TAGS:
            # XPath's collapsed text (C-speed): this looks at every child of the chosen text
            text = _COLLAPSED_TEXT(child).lower()
            words = text.count(" ") + 1 if text else 0
            if 0 < words < _LAYOUT_COPY_WORDS:
                close_run()
            elif words:
                if run and not _copy_of(run[0], (child, text)):
                    close_run()
                run.append((child, text))
        if (child.tail or "").strip():
            close_run()
    close_run()
    return copies


#: An element's text, white space collapsed (XPath's ``normalize-space``).
_COLLAPSED_TEXT = etree.XPath("normalize-space()")


def _hidden_by_page(node: etree._Element) -> bool:
    """Hidden inline, by a hiding utility class, or found not drawn by the extension."""
    return _inline_hidden(node) or _HIDDEN_CLASS.search(node.get("class") or "") is not None \
        or node.get(HIDDEN_ATTR) is not None


def _copy_of(first: tuple[etree._Element, str], other: tuple[etree._Element, str]) -> bool:
    """Whether two siblings (with their lower-cased :data:`_COLLAPSED_TEXT`) say the same, or
    one, hidden by the page or its screen's variant of the other (:func:`_screen_variants`),
    what the other excerpts; and lead to the same addresses."""
    if first[1] != other[1]:
        short, full = sorted((first, other), key=lambda pair: len(pair[1]))
        if len(full[1]) == len(short[1]) or not (
                _hidden_by_page(full[0]) or _screen_variants(first[0], other[0])) \
                or not _excerpt_of(_WORD.findall(short[1]),
                                   set(_triples(_WORD.findall(full[1])))):
            return False
    # two cards of one title (two recipes named alike) lead apart
    return _link_targets(first[0]) == _link_targets(other[0])


#: A class word naming the screens a box is laid out for ("card--mobile", "card--desktop",
#: "show-mobile", "visible-lg"): one of the parts a class splits into at "-" and "_".
_SCREEN_WORDS = frozenset({"mobile", "desktop", "tablet", "phone", "handheld", "xs", "sm",
                           "md", "lg", "xl", "small", "medium", "large", "narrow", "wide"})
#: Of those, the ones for a desktop's screen, whose copy the reader keeps.
_WIDE_SCREEN_WORDS = frozenset({"desktop", "lg", "xl", "large", "wide"})


def _screen_variants(one: etree._Element, other: etree._Element) -> bool:
    """Whether two siblings are one box laid out for two screens: the same tag, their classes
    the same but for classes naming screens (Accenture's ``rad-mosaic-2__card--mobile`` and
    ``rad-mosaic-2__card--desktop``, each holding the card's title and text)."""
    if one.tag != other.tag and not {one.tag, other.tag} <= {"a", "div"}:
        return False  # (a card's link and its copy's box may differ)
    mine, theirs = set((one.get("class") or "").split()), set((other.get("class") or "").split())
    differ = mine ^ theirs
    return bool(differ) and bool(mine & theirs) and all(
        _names_screens(name, _SCREEN_WORDS) for name in differ)


#: How far above a chosen element its phone's box may be.
_NARROW_BOX_DEPTH = 8
#: How many siblings away, each way, a box's copy for another screen may be.
_SCREEN_COPY_REACH = 2


def _narrow_copy_pieces(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """The ``elements`` inside a box laid out for a phone that say what a chosen part of its
    desktop copy beside it says (:func:`_desktop_copy_of`): the algorithm may choose the
    phone's box piece by piece (its eyebrow line, its "Learn more") and the desktop's whole,
    and :func:`_copies_among` compares siblings only. A piece the desktop's chosen parts do
    not say stays (a card's title chosen in one copy only)."""
    chosen = set(elements)
    found: list[etree._Element] = []
    copies: dict[etree._Element, tuple[set[str], set[tuple[str, str, str]]] | None] = {}
    for element in elements:
        if not isinstance(element.tag, str):
            continue
        for depth, box in enumerate(element.iterancestors()):
            if depth >= _NARROW_BOX_DEPTH:
                break
            if box not in copies:
                copies[box] = _desktop_copy_of(box, chosen)
            said = copies[box]
            if said is not None:
                text = _COLLAPSED_TEXT(element).lower()
                words = _WORD.findall(text)
                if text in said[0] or (len(words) >= _LAYOUT_COPY_WORDS
                                       and _excerpt_of(words, said[1])):
                    found.append(element)
                break
    return found


def _desktop_copy_of(box: etree._Element, chosen: set[etree._Element]
                     ) -> tuple[set[str], set[tuple[str, str, str]]] | None:
    """When ``box`` is laid out for a narrow screen beside its desktop copy
    (:func:`_screen_variants`), which holds chosen elements and whose text ``box``'s
    excerpts (:func:`_excerpt_of`): what the copy's chosen parts say (the lower-cased
    collapsed text of each element in them, and their word triples); else None."""
    classes = box.get("class") or ""
    if not classes or _for_wide_screens(box) or not any(
            _names_screens(name, _SCREEN_WORDS) for name in classes.split()):
        return None
    # the copies stand side by side: a grid's thousand "col-md-4" cards are not each
    # compared with every other
    neighbours = [*itertools.islice(box.itersiblings(preceding=True), _SCREEN_COPY_REACH),
                  *itertools.islice(box.itersiblings(), _SCREEN_COPY_REACH)]
    for sibling in neighbours:
        if not isinstance(sibling.tag, str) or not _for_wide_screens(sibling) \
                or not _screen_variants(box, sibling):
            continue
        parts = [node for node in sibling.iter() if node in chosen]
        if not parts or not _excerpt_of(_WORD.findall(_COLLAPSED_TEXT(box).lower()), set(
                _triples(_WORD.findall(_COLLAPSED_TEXT(sibling).lower())))):
            continue
        texts = {_COLLAPSED_TEXT(node).lower() for part in parts for node in part.iter()
                 if isinstance(node.tag, str)}
        triples = {triple for part in parts
                   for triple in _triples(_WORD.findall(_COLLAPSED_TEXT(part).lower()))}
        return texts, triples
    return None


def _for_wide_screens(node: etree._Element) -> bool:
    return any(_names_screens(name, _WIDE_SCREEN_WORDS)
               for name in (node.get("class") or "").split())


def _names_screens(class_name: str, words: frozenset[str]) -> bool:
    """Whether one of ``words`` is a part of ``class_name`` between "-" and "_"."""
    return not words.isdisjoint(re.split(r"[-_]+", class_name.lower()))


def _link_targets(node: etree._Element) -> list[str]:
    return [link.get("href") or "" for link in node.iter("a")]


def _triples(words: list[str]) -> list[tuple[str, str, str]]:
    return list(zip(words, words[1:], words[2:]))


def _excerpt_of(words: list[str], full: set[tuple[str, str, str]]) -> bool:
    """Whether four in five of the word triples of ``words`` are among ``full``'s (a text's
    :func:`_triples`): an excerpt of it, cut short or lightly edited ("starts with" in the
    excerpt, "start with" in full)."""
    triples = _triples(words)
    return bool(triples) and sum(triple in full for triple in triples) >= 0.8 * len(triples)


#: A box the page shows on hover or focus: ARIA's ``role="tooltip"``, a tooltip's own text
#: box (:data:`_TOOLTIP_TEXT_CLASS`), or a box classed as a tooltip or popover that another
#: element names as its label or description (``aria-labelledby``, ``aria-describedby``):
#: a glossary's definition of a term in a sentence. Looked for by XPath (C-speed);
#: :func:`_tooltips` checks the class and the naming.
_TOOLTIP_XPATH = etree.XPath(
    "descendant-or-self::*[@role='tooltip' or contains(@class, 'ooltip') or "
    "contains(@class, 'ool-tip') or (@id and contains(@class, 'opover'))]")
_TOOLTIP_CLASS = re.compile(r"tool-?tip|popover", re.I)
#: Most words of a tooltip that names the icon it belongs to rather than explaining
#: something: a shop's badges ("Eco friendly packaging", "Made in the UK"), whose icons say
#: nothing else. Such a label stays.
_ICON_LABEL_WORDS = 4
#: The part of a tooltip that holds its words, hidden until the pointer rests on the icon or
#: term beside it: ``tooltiptext`` (the common CSS recipe), ``tool-tip__content``,
#: ``tooltip-body``, ``tooltipBubble__x1`` (a CSS module). Not the tooltip's wrapper or its
#: toggle, which may hold the term itself.
_TOOLTIP_TEXT_CLASS = re.compile(
    r"(?:^|\s|[-_])tool-?tip[-_]*(?:content|text|body|inner|bubble|popup|box)(?:$|\s|[-_])",
    re.I)
_FOOTNOTE_CLASS = re.compile(r"foot-?note|sidenote", re.I)


def _tooltips(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Boxes in or at ``elements`` that the page shows only on hover or focus
    (:data:`_TOOLTIP_XPATH`): a glossary's definition read inside the sentence whose term it
    explains ("outperform your competition Competition Businesses generally know... Learn
    more in 2025", wcxb-dev 0041), or a product's "Cup style" heading that reads out the
    hover box its icon opens (wcxb-dev 3026). A wrapper classed as a tooltip that nothing
    names stays: it may hold the term itself. So does a tooltip's text of a few words, the
    name of the icon it opens from (:data:`_ICON_LABEL_WORDS`), and a footnote shown as a
    tooltip (Modern Footnotes' ``role="tooltip"`` note after its ``<sup>`` marker): the
    author's text."""
    found: list[etree._Element] = []
    named: set[str] | None = None  # the page's named ids, read once when first needed
    boxes = (box for root in elements if isinstance(root.tag, str)
             for box in _TOOLTIP_XPATH(root))
    for box in boxes:
        previous = box.getprevious()
        if _FOOTNOTE_CLASS.search(box.get("class") or "") or (
                previous is not None and previous.tag == "sup"):
            continue  # a footnote a plugin opens on a click is the text's own
        if box.get("role") != "tooltip" and not (
                _TOOLTIP_TEXT_CLASS.search(box.get("class") or "")
                and len(element_text(box).split()) > _ICON_LABEL_WORDS):
            if not (box.get("id") and _TOOLTIP_CLASS.search(box.get("class") or "")):
                continue
            if named is None:
                named = {name for value in _NAMING_XPATH(box.getroottree().getroot())
                         for name in value.split()}
            if box.get("id") not in named:
                continue
        found.append(box)
    return found


#: The ids elements name as their label or description.
_NAMING_XPATH = etree.XPath("//@aria-labelledby | //@aria-describedby")


#: A link to the page in another language: ``hreflang`` (HTML's own), ``data-locale`` (a
#: site's language menu).
_LANGUAGE_LINK_XPATH = etree.XPath("descendant-or-self::a[@hreflang or @data-locale]")
#: Most words of a language's name in a menu ("Français", "Português (Brasil)").
_LANGUAGE_NAME_WORDS = 3


def _other_language_links(root: etree._Element) -> list[etree._Element]:
    """Links in or at ``root`` to the page in a language other than the page's own (its
    ``<html lang>``), a language menu's items ("Deutsch", "Français"), with no text right
    before or after them: a lone "Français" read above a service page's text (wcxb-dev
    0706). A link in a sentence ("also in Spanish") is the sentence's; one in the page's own
    language (sites mark every link ``hreflang="en"``) is any link."""
    page_language = _primary_language(root.getroottree().getroot().get("lang"))
    if not page_language:
        return []
    found: list[etree._Element] = []
    for link in _LANGUAGE_LINK_XPATH(root):
        language = _primary_language(link.get("hreflang") or link.get("data-locale"))
        if language and language not in (page_language, "x") \
                and len(element_text(link).split()) <= _LANGUAGE_NAME_WORDS \
                and not _text_beside(link):
            found.append(link)
    return found


def _primary_language(tag: str | None) -> str:
    """A language tag's first subtag, lower case ("fr-FR" -> "fr"; "x-default" -> "x")."""
    return (tag or "").strip().replace("_", "-").split("-")[0].lower()


def _text_beside(node: etree._Element) -> bool:
    """Whether text stands right before or after ``node`` among its siblings."""
    parent, previous = node.getparent(), node.getprevious()
    before = (parent.text if parent is not None else "") if previous is None else previous.tail
    return bool((before or "").strip() or (node.tail or "").strip())


def _names_its_box(node: etree._Element) -> bool:
    """Whether ``node`` holds all the text of the element around it: the name of what that
    element shows instead of words, an icon or a mark (MDN's "Deprecated" icon, a comparison
    table's check marks "Yes"/"No", "<a href=...><svg/><span class=sr-only>Download</span></a>"),
    which the reader, drawing no icons, would lose."""
    parent = node.getparent()
    return parent is not None and _squeezed(parent) == _squeezed(node)


def unseen_parts(elements: Sequence[etree._Element],
                 spoken_kept: Collection[etree._Element] = frozenset()
                 ) -> list[etree._Element]:
    """What a sighted reader of the page never sees inside ``elements``, left out of the
    reader's copy: text for screen readers alone by its class (:data:`_UNSEEN_CLASS`: the
    "Regular price" and "Sale price" labels a shop gives each price), the price block of a
    sale or of a regular price the page's stylesheet does not show
    (:func:`_price_alternatives`), a widget's line with its counter at zero ("Compare
    Products (0)", :func:`_empty_widget_lines`), eBay's screen-reader copy of the words
    beside it (:func:`_clipped_copies`), the states of a price box the page hides
    ("Unavailable", :func:`_hidden_price_states`), all but one of the copies of a text laid
    out for different screens (:func:`_layout_copies`), a language menu's links
    (:func:`_other_language_links`) and boxes shown on hover (:func:`_tooltips`).
    ``spoken_kept``: the shown copies :func:`screen_reader_copies` leaves out; a screen
    reader's text beside one stays, as the one copy of its words, and so does one naming an
    icon (:func:`_names_its_box`)."""
    found: list[etree._Element] = []
    for root in elements:
        if not isinstance(root.tag, str):
            continue
        for node in _UNSEEN_XPATH(root):
            parent = node.getparent()
            if _UNSEEN_CLASS.search(node.get("class") or "") and not (
                    spoken_kept and parent is not None
                    and any(sibling in spoken_kept for sibling in parent)) \
                    and not _names_its_box(node):
                found.append(node)
        found.extend(_empty_widget_lines(root))
        found.extend(_clipped_copies(root))
        found.extend(_hidden_price_states(root))
        found.extend(_other_language_links(root))
    found.extend(_tooltips(elements))
    found.extend(_closed_overlays(elements))
    found.extend(_price_alternatives(elements))
    found.extend(_layout_copies(elements))
    return found


#: The outermost boxes the extension's snapshot found the live page not drawing, at or in
#: an element (:data:`~blocksift.wire.constants.HIDDEN_ATTR`), and the one a chosen element
#: lies in.
_UNDRAWN_XPATH = etree.XPath(f"descendant-or-self::*[@{HIDDEN_ATTR}]"
                             f"[not(ancestor::*[@{HIDDEN_ATTR}])]")
_UNDRAWN_AROUND = etree.XPath(f"ancestor::*[@{HIDDEN_ATTR}][last()]")
#: The least share of a box's chosen words, counted by the pieces of text they are in (each
#: piece once), that pieces of the drawn chosen text must say for the box to be a copy of
#: it: a phone's layout of a section drops a piece or two of the desktop's, and the
#: segmenter may choose a block in one copy and not in the other.
UNDRAWN_COPY_SHARE = 0.8


def undrawn_copies(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Copies of the chosen text that the live page does not draw, left out of the reader's
    copy: the parts of ``elements`` in a box the extension's snapshot marked as not drawn
    (:data:`_UNDRAWN_XPATH`: computed ``display: none``) when at least
    :data:`UNDRAWN_COPY_SHARE` of their words are said by the chosen text the page draws. A
    site builder's page gives each section once per screen width and a media query shows one
    (wcxb-dev 2846: Miro's "3.6x faster time to market" read three times); the words of a
    closed tab are its own, and stay, and so does a hidden copy of a text whose drawn copy
    was not chosen. The result lists boxes inside chosen elements, and chosen elements that
    lie inside such a box (they go whole)."""
    parts: dict[etree._Element, list[etree._Element]] = {}
    drawn_elements: dict[etree._Element, list[etree._Element]] = {}  # and the boxes in each
    for element in elements:
        if not isinstance(element.tag, str):
            continue
        around = _UNDRAWN_AROUND(element)
        if around:
            parts.setdefault(around[0], []).append(element)
        else:
            boxes = drawn_elements[element] = _UNDRAWN_XPATH(element)
            for box in boxes:
                parts[box] = [box]
    if not parts:
        return []
    drawn: set[str] = set()
    for element, boxes in drawn_elements.items():
        if element.get(HIDDEN_ATTR) is None:  # (a marked box chosen whole is not drawn)
            drawn.update(_collapsed_pieces(element, set(boxes)))
    found: list[etree._Element] = []
    for nodes in parts.values():
        pieces = {piece for node in nodes for piece in _collapsed_pieces(node)}
        words = sum(piece.count(" ") + 1 for piece in pieces)
        said = sum(piece.count(" ") + 1 for piece in pieces if piece in drawn)
        if words and said >= UNDRAWN_COPY_SHARE * words:
            found.extend(nodes)
    return found


def _collapsed_pieces(element: etree._Element,
                      leaving_out: Collection[etree._Element] = frozenset()) -> list[str]:
    """:func:`text_pieces` of ``element`` (white space collapsed, lower case, empty ones left
    out), without those of the subtrees in ``leaving_out``: a copy for a phone and one for a
    desktop hold the same pieces of text, cut into elements and laid out differently."""
    return [text for piece in text_pieces(element, leaving_out.__contains__)
            if (text := " ".join(piece.split()).lower())]


#: A forum member's signature under each of their posts, by its class: phpBB's and
#: vBulletin's "signature" and "signaturecontainer", Invision's "ipsEntry__signature" and
#: "cSignature", XenForo's "message-signature". Not Sphinx's "sig" (a function's signature).
_SIGNATURE_CLASS = re.compile(
    r"(?:^|[\s_-])signature(?:$|\s)|(?:^|\s)(?:signaturecontainer|cSignature)(?:$|\s)", re.I)
_SIGNATURE_XPATH = etree.XPath(
    "descendant-or-self::*[contains(@class, 'ignature') or @data-role='memberSignature']")


def signatures(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Members' signatures in or at ``elements`` (:data:`_SIGNATURE_CLASS`, or Invision's
    ``data-role="memberSignature"``): a forum reply read on into "⭐ Community Leader ⭐
    SQSP Expert… Buying me a coffee is a generous way to say thanks" (wcxb-dev 0546), the
    same hosting advert under every post of one member (0533). Not the thread's text: no
    signature's words are in the dev sets' gold."""
    return outermost([box for root in elements if isinstance(root.tag, str)
                      for box in _SIGNATURE_XPATH(root)
                      if box.get("data-role") == "memberSignature"
                      or _SIGNATURE_CLASS.search(box.get("class") or "")])


#: A box the browser draws only once a script or a button opens it: a ``popover`` (HTML's
#: own, hidden by the browser's stylesheet until shown) or a ``<dialog>`` without ``open``.
#: The extension's snapshot of the live page holds ``open`` on a dialog the user opened.
_CLOSED_OVERLAY_XPATH = etree.XPath(
    "descendant-or-self::*[@popover] | descendant-or-self::dialog[not(@open)]")
_IN_CLOSED_OVERLAY = etree.XPath("boolean(ancestor::*[@popover] | ancestor::dialog[not(@open)])")


def _closed_overlays(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Boxes in or at ``elements`` the page never draws until opened
    (:data:`_CLOSED_OVERLAY_XPATH`): a forum app's "To install this app on iOS" card read above
    the thread's first post (wcxb-dev 0546). None when they hold half the chosen text or more:
    a page whose whole text waits in a dialog has no other to show."""
    boxes: list[etree._Element] = []
    for root in elements:
        if isinstance(root.tag, str):
            # a part of the box chosen alone goes whole
            boxes.extend([root] if _IN_CLOSED_OVERLAY(root) else _CLOSED_OVERLAY_XPATH(root))
    return _less_than_half(outermost(list(dict.fromkeys(boxes))), elements)


def _less_than_half(left_out: list[etree._Element], elements: Sequence[etree._Element]
                    ) -> list[etree._Element]:
    """``left_out`` when its text is less than half the text of ``elements``, else none: a
    rule that would leave out most of what was chosen is not about this page."""
    if not left_out:
        return []
    hidden = sum(len(_squeezed(node)) for node in left_out)
    total = sum(len(_squeezed(element)) for element in elements if isinstance(element.tag, str))
    return left_out if 2 * hidden < total else []


def unseen_by_eye(node: etree._Element) -> bool:
    """Whether no sighted reader sees ``node``: text for screen readers alone by its class
    (:data:`_UNSEEN_CLASS`), or hidden by the page inline (:func:`_inline_hidden`)."""
    return isinstance(node.tag, str) and (
        _inline_hidden(node) or bool(_UNSEEN_CLASS.search(node.get("class") or "")))


def _says_mostly_the_same(shown: etree._Element, spoken: etree._Element) -> bool:
    """Whether a screen reader's text says what the element shown says in other words:
    most words of each are the other's ("Est. delivery Wed, Apr 22" and "Estimated delivery
    Wed, Apr 22", "Whole Bean (13)" and "Whole Bean (13 products)"), or all of them, shown
    more than once: an animated headline laid out for a phone and again for a desktop, said
    once to screen readers."""
    words = Counter(_WORD.findall(element_text(shown).lower()))
    other = Counter(_WORD.findall(element_text(spoken).lower()))
    common = sum((words & other).values())
    times = sum(words.values()) // max(1, sum(other.values()))
    if times > 1 and words == Counter({word: times * n for word, n in other.items()}):
        return True
    return bool(words) and common >= 0.6 * sum(words.values()) \
        and common >= 0.5 * sum(other.values())


#: Class words of a site's announcement ("notice", "site-wide-notification",
#: "announcement-banner", "alert"), left out of the reader when it has a control to dismiss it.
_ANNOUNCEMENT_CLASS = re.compile(
    r"(?:^|[\s_-])(?:notices?|notifications?|announcements?|banner|alert)(?:$|[\s_-])", re.I)
#: A control that dismisses what holds it: by its class, title or label ("Dismiss notice"),
#: or Bootstrap's ``data-dismiss``/``data-bs-dismiss``.
_DISMISS_CONTROL = (
    "descendant::*[@data-dismiss or @data-bs-dismiss or contains(@class, 'ismiss') or "
    "contains(@title, 'ismiss') or contains(@aria-label, 'ismiss')]")
#: Longest text of an announcement (a forum's notice of a scam wave or of its meetups).
_ANNOUNCEMENT_CHARS = 2000


def dismissible_announcements(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Announcements inside ``elements`` that the page lets its reader dismiss: the nearest
    ancestor of a dismiss control that a class names an announcement ("notice", "alert",
    "banner", "notification"), widened to the outermost element with the same text (its
    list item), at most :data:`_ANNOUNCEMENT_CHARS` of text. They are the site's messages to
    every visitor (a forum's notices above each thread), not the page's text."""
    found: list[etree._Element] = []
    for root in elements:
        if not isinstance(root.tag, str):
            continue
        for control in root.xpath(_DISMISS_CONTROL):
            notice = next((node for node in control.iterancestors()
                           if _ANNOUNCEMENT_CLASS.search(node.get("class") or "")), None)
            if notice is None or (notice is not root and root not in notice.iterancestors()):
                continue  # no announcement, or one around the chosen element (not its part)
            text = _squeezed(notice)
            if not text or len(text) > _ANNOUNCEMENT_CHARS:
                continue
            while notice is not root and notice.getparent() is not None and \
                    _squeezed(notice.getparent()) == text:
                notice = notice.getparent()
            found.append(notice)
    return outermost(list(dict.fromkeys(found)))


#: The id or class of a site's banner asking consent to its cookies (eBay's "gdpr-banner",
#: "cookie-notice", "cookie-consent-bar", OneTrust's, Cookiebot's, cookieconsent's
#: "cc-window").
_CONSENT_BOX = re.compile(
    r"(?:cookie|gdpr|consent)[-_]?(?:banner|notice|consent|bar|popup|pop-up|modal|dialog|"
    r"message|law|alert|wall|layer|overlay|box|container)|(?<![a-z])gdpr(?![a-z])|onetrust|"
    r"cookiebot|(?<![\w-])cc-(?:window|banner)(?![\w-])", re.I)
_CONSENT_XPATH = "*[" + " or ".join(
    f"contains(@{name}, '{word}')" for name in ("id", "class")
    for word in ("cookie", "Cookie", "COOKIE", "gdpr", "GDPR", "consent", "Consent", "onetrust",
                 "OneTrust", "CybotCookiebot", "cc-")) + "]"
#: The id or class attribute of such a banner as the page's source writes it (the XPath
#: above runs only on a page whose source holds one).
CONSENT_ATTRIBUTE = re.compile(
    r"""\s(?:id|class)\s*=\s*["']?[^"'>]*(?:cookie|gdpr|consent|onetrust|cc-window|cc-banner)""",
    re.I)
_CONSENT_WORDS = ("cookie", "gdpr", "consent", "onetrust", "cc-window", "cc-banner")
_ATTRIBUTE_START = re.compile(r"""\s(?:id|class)\s*=\s*""")
_ATTRIBUTE_START_ANY_CASE = re.compile(_ATTRIBUTE_START.pattern, re.I)
_CONSENT_WORD_ANY_CASE = re.compile("|".join(_CONSENT_WORDS), re.I)
#: The characters IGNORECASE matches to a letter of those words whose ``lower()`` is not it.
_CASE_ODD = ("\u0130", "\u0131", "\u017f")


def _value_end(raw: str, start: int) -> int:
    """Where the quote-free run of an attribute value from ``start`` ends."""
    ends = [end for end in (raw.find('"', start), raw.find("'", start), raw.find(">", start))
            if end >= 0]
    return min(ends) if ends else len(raw)


def names_consent_box(raw: str) -> bool:
    """Whether :data:`CONSENT_ATTRIBUTE` matches ``raw``, without its backtracking: that
    regex scans every quote-free run after each ``id=``/``class=`` once per position, which
    cost a second on a page whose script holds long runs without quotes (2.5 ms at the
    median). Words are found first, on the page lowercased, and the attribute looked for
    before each; a page holding a character that IGNORECASE matches but ``lower()`` does not
    map scans each attribute value once instead."""
    if any(odd in raw for odd in _CASE_ODD):
        return _names_consent_box_any_case(raw)
    low = raw.lower()  # length kept: U+0130, the one character whose lower() is longer, is out
    for word in _CONSENT_WORDS:
        at = low.find(word)
        while at >= 0:
            quote_at = max(low.rfind('"', 0, at), low.rfind("'", 0, at), low.rfind(">", 0, at))
            # the attribute, unquoted, starts in the run before the word ...
            if _ATTRIBUTE_START.search(low, quote_at + 1, at):
                return True
            # ... or its value's opening quote is the last quote before the word
            if quote_at >= 0 and low[quote_at] != ">" and _attribute_before(low, quote_at):
                return True
            at = low.find(word, at + 1)
    return False


def _attribute_before(low: str, quote_at: int) -> bool:
    """Whether ``\\s(?:id|class)\\s*=\\s*`` ends right before ``low[quote_at]``."""
    at = quote_at
    while at > 0 and low[at - 1].isspace():
        at -= 1
    if at == 0 or low[at - 1] != "=":
        return False
    at -= 1
    while at > 0 and low[at - 1].isspace():
        at -= 1
    return any(at - len(name) >= 1 and low.startswith(name, at - len(name))
               and low[at - len(name) - 1].isspace() for name in ("id", "class"))


def _names_consent_box_any_case(raw: str) -> bool:
    scanned = -1
    found = _ATTRIBUTE_START_ANY_CASE.search(raw)
    while found:
        start = found.end()
        if start < len(raw) and raw[start] in "\"'":
            start += 1
        if start >= scanned:  # a later start inside a run already scanned adds nothing
            end = _value_end(raw, start)
            if _CONSENT_WORD_ANY_CASE.search(raw, start, end):
                return True
            scanned = end
        # starts may overlap (the space of `id= class=` ends one and begins the next)
        found = _ATTRIBUTE_START_ANY_CASE.search(raw, found.start() + 1)
    return False


#: The elements around or in one that :data:`_CONSENT_XPATH` names, compiled once (an
#: expression of 22 tests was parsed again for each chosen element); only an element with an
#: id or a class is tested.
_CONSENT_AROUND = etree.XPath(
    f"ancestor-or-self::*[@id or @class][{_CONSENT_XPATH[2:-1]}]"
    f" | descendant::*[@id or @class][{_CONSENT_XPATH[2:-1]}]"
    " | ancestor-or-self::*[@aria-modal='true' or @role='alertdialog']"
    " | descendant::*[@aria-modal='true' or @role='alertdialog']")

#: Longest text of a consent banner (eBay's, with its list of purposes: 1,100 characters).
_CONSENT_CHARS = 2500


def consent_banners(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """The banners in or around ``elements`` that ask consent to the site's cookies (by
    their id or class, :data:`_CONSENT_BOX`, or as a modal dialog over the page, saying
    "cookie" in at most :data:`_CONSENT_CHARS` characters): eBay's product page opened with
    its "We use cookies and other technologies…" over the item, WIRED's section page with
    its consent manager's "About Your Privacy" (an ``alertdialog`` classed "fides-modal").
    Around a chosen element, the element goes."""
    found: list[etree._Element] = []
    for root in elements:
        if not isinstance(root.tag, str):
            continue
        for node in _CONSENT_AROUND(root):
            if not _CONSENT_BOX.search(f"{node.get('id') or ''} {node.get('class') or ''}") \
                    and node.get("aria-modal") != "true" and node.get("role") != "alertdialog":
                continue
            text = _squeezed(node)
            if "cookie" in text.lower() and len(text) <= _CONSENT_CHARS:
                found.append(root if node is not root and node in root.iterancestors() else node)
                if found[-1] is root:
                    break
    return outermost(list(dict.fromkeys(found)))


#: A branch of a Vue template's condition (``v-if``, ``v-else-if``, ``v-else``): Vue renders
#: one branch of each and leaves no such attribute in the page, so where one is left, the
#: template was never run and holds every branch.
_BRANCH = "*[@v-if or @v-else-if or @v-else]"


def template_branches(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """The branches of a Vue template's conditions (:data:`_BRANCH`) in ``elements``, or
    around them (the chosen element itself then goes): in a page whose script has not run
    (a saved copy, a snapshot before Vue mounted), every state of a part is there at once,
    Allbirds' "Notify me when back in stock", "It's Official" and "Oops! Something went
    wrong." of a pop-up never opened, or a button's "Add to Cart" beside its "Sold Out".
    A ``v-show`` part stays: Vue only hides it (a collapsed answer of a FAQ, the page's
    text). None when the branches hold half the text or more: a page whose whole text waits
    on a condition has no other to show."""
    found: list[etree._Element] = []
    for root in elements:
        if not isinstance(root.tag, str):
            continue
        if root.xpath(f"boolean(ancestor-or-self::{_BRANCH})"):
            found.append(root)
        else:
            found.extend(root.xpath(f"descendant::{_BRANCH}"))
    return _less_than_half(outermost(list(dict.fromkeys(found))), elements)


def plain_html(text: str) -> str:
    """``text`` as escaped paragraphs, one per line: the reader's copy when its HTML could not
    be made."""
    return "".join(f"<p>{html_escape(line.strip())}</p>" for line in text.split("\n")
                   if line.strip())


def render_main(page: Page, elements: Sequence[etree._Element], *,
                with_html: bool = True,
                exclude: Collection[etree._Element] = frozenset(),
                title: str | None = None,
                with_text: bool = True,
                found_notices: Collection[etree._Element] | None = None,
                xpath_of: Callable[[etree._Element], str] | None = None,
                post_heads: Collection[etree._Element] = frozenset()) -> MainText:
    """The :class:`MainText` of ``elements`` (outermost ones, in document order).

    ``exclude``: elements inside ``elements`` left out with their subtrees (boilerplate an
    algorithm pruned within the chosen container); ``title`` overrides ``page.title``.
    For a caller that has some of the work done already: ``with_text=False`` leaves
    ``text`` empty (the caller writes its own), ``found_notices`` are :func:`notices` of
    ``elements`` (all of them), ``xpath_of`` an :class:`~blocksift.page.XPaths` in use.
    ``post_heads``: elements among them naming a thread's posts' authors, shown in the HTML
    as the heads of their posts (:func:`sanitized_html`).
    """
    exclude = exclude if isinstance(exclude, (set, frozenset)) else set(exclude)
    chosen = outermost(list(elements), exclude)
    # a listing is kept whole: boilerplate rules must not cut lines out of a <pre>
    exclude = {node for node in exclude
               if next(node.iterancestors("pre"), None) is None} | set(
        notices(chosen) if found_notices is None else found_notices)
    if "ismiss" in page.raw:
        exclude |= set(dismissible_announcements(chosen))
    if "v-if" in page.raw or "v-else" in page.raw:
        exclude |= set(template_branches(chosen))
    if "ookie" in page.raw and (names_consent_box(page.raw) or "aria-modal" in page.raw
                                or "alertdialog" in page.raw):
        exclude |= set(consent_banners(chosen))
    # an algorithm may choose a notice (or a pruned subtree) itself as a main element
    chosen = [element for element in chosen if element not in exclude]
    has_ids = page.has_ids
    if with_html and chosen:
        # the reader shows a link chosen in part whole, and a text the page gives twice (shown
        # and for screen readers) once; the text, ids and xpaths stay the algorithm's choice
        try:
            # a post's header inside its chosen box is shown as the post's head, in its place
            # (post_authors' _post_header_in): the box's copy leaves it out
            chosen_set = set(chosen)
            inner = [head for head in post_heads if head not in chosen_set
                     and head.getparent() is not None
                     and _shown_in(head.getparent(), chosen_set, exclude) is not None]
            html_exclude = exclude | set(inner) if inner else exclude
            shown = loose_text_kept(whole_links(chosen, html_exclude), html_exclude, post_heads)
            shown = headings_kept(shown, html_exclude)
            shown = card_names_kept(shown, html_exclude)
            shown = _without_lone_introductions(shown)
            if inner:
                position = {node: n for n, node in enumerate(page.body.iter())}
                shown = sorted(shown + inner, key=lambda node: position.get(node, 0))
            copies = set(screen_reader_copies(shown))
            unseen = set(unseen_parts(shown, copies)) | set(signatures(shown))
            if HIDDEN_ATTR in page.raw:
                unseen |= set(undrawn_copies(shown))
            if unseen:  # a chosen element itself may be one (a price block chosen alone)
                shown = [node for node in shown if node not in unseen] or shown
            html = sanitized_html(page, shown, html_exclude | copies | unseen,
                                  post_heads=post_heads)
        except Exception as exc:  # a page no rule foresaw: its text, not a failed reader view
            log.warning("reader HTML of %s failed (%s: %s); plain paragraphs instead",
                        page.url or "a page", type(exc).__name__, exc)
            html = plain_html(plain_text(chosen, exclude))
    else:
        html = ""
    return MainText(
        title=page.title if title is None else title,
        text=plain_text(chosen, exclude) if with_text else "",
        html=html,
        element_ids=page.ids_within(chosen, exclude) if has_ids else [],
        xpaths=[] if has_ids else (page.xpaths(chosen) if xpath_of is None
                                   else [xpath_of(element) for element in chosen]),
    )

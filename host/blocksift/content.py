"""Turning chosen elements into main text: plain text with paragraphs, sanitized HTML.

Every algorithm that picks main-content elements hands them to :func:`render_main`, so the
reader view, the CLI and the evaluation see the same text for the same choice.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection, Sequence

from lxml import etree
from lxml import html as lxml_html

from .page import Page
from .rawscan import STAMP_ATTR
from .results import MainText

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
}
SAFE_ATTRIBUTES = {
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
}
SAFE_URL_SCHEMES = {"http", "https", "mailto"}
#: Attributes whose value is a URL (or, for srcset, a list of URLs) that ammonia itself does
#: not check; each is filtered by :func:`safe_url_attribute`.
_URL_ATTRIBUTES = frozenset({"href", "src", "srcset", "cite"})
_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
# Browsers drop ASCII tab/newline anywhere in a URL and trim controls/spaces at its ends.
_URL_IGNORED_RE = re.compile(r"[\t\n\r]")
_LAZY_SRC_ATTRS = ("data-src", "data-lazy-src", "data-original", "data-url")


def element_text(element: etree._Element) -> str:
    """Visible text of ``element`` (no script/style), whitespace collapsed."""
    return " ".join(" ".join(_iter_pieces(element)).split())


def _iter_pieces(element: etree._Element) -> list[str]:
    """Text pieces of ``element`` in document order, skipping non-text subtrees.

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
        if not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS:
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
    Iterative for the same reason as :func:`_iter_pieces`.
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


def plain_text(elements: Sequence[etree._Element],
               exclude: Collection[etree._Element] = frozenset()) -> str:
    """Main text as plain text, paragraphs separated by a blank line."""
    return "\n\n".join(paragraphs(elements, exclude))


def sanitized_html(page: Page, elements: Sequence[etree._Element],
                   exclude: Collection[etree._Element] = frozenset()) -> str:
    """Allowlist-sanitized HTML of ``elements``, links made absolute, lazy images resolved.

    nh3 (Rust ammonia) does the sanitizing: no script, no event handler, no style, only
    http(s)/mailto URLs; the extension sanitizes again before display.
    """
    import nh3  # lazy: only main-text replies need it

    pieces: list[str] = []
    for element in elements:
        clone = copy.deepcopy(element)
        if exclude:
            # the clone iterates in the same order as the original: pair them to drop
            # the excluded subtrees (drop_tree keeps their tails)
            dropped = [copy_node for node, copy_node in zip(element.iter(), clone.iter())
                       if node in exclude and copy_node is not clone]
            for copy_node in dropped:
                copy_node.drop_tree()
        for node in clone.iter():
            if not isinstance(node.tag, str):
                continue
            node.attrib.pop(STAMP_ATTR, None)
            # lazy loaders put a data: placeholder in src and the real image elsewhere
            if node.tag == "img" and (not node.get("src") or
                                      node.get("src", "").startswith("data:")):
                for attr in _LAZY_SRC_ATTRS:
                    if node.get(attr):
                        node.set("src", node.get(attr))
                        break
        if page.url:
            try:
                clone.make_links_absolute(page.url, resolve_base_href=False)
            except (ValueError, AttributeError):
                pass
        pieces.append(lxml_html.tostring(clone, encoding="unicode", with_tail=False))
    return nh3.clean("".join(pieces), tags=SAFE_TAGS, attributes=SAFE_ATTRIBUTES,
                     attribute_filter=safe_url_attribute, url_schemes=SAFE_URL_SCHEMES,
                     link_rel="noopener noreferrer", strip_comments=True)


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


def srcset_urls(value: str) -> list[str]:
    """The candidate URLs of a ``srcset`` (HTML Living Standard, "parse a srcset attribute")."""
    urls: list[str] = []
    position, length = 0, len(value)
    while position < length:
        while position < length and (value[position].isspace() or value[position] == ","):
            position += 1
        start = position
        while position < length and not value[position].isspace():
            position += 1
        url = value[start:position]
        if not url:
            break
        if url.endswith(","):
            urls.append(url.rstrip(","))
            continue
        urls.append(url)
        depth = 0  # skip the descriptors, up to a comma outside parentheses
        while position < length and (value[position] != "," or depth):
            depth += {"(": 1, ")": -1}.get(value[position], 0)
            position += 1
    return urls


def safe_url_attribute(tag: str, attribute: str, value: str) -> str | None:
    """nh3 attribute filter: drop a URL-bearing attribute holding any unsafe URL."""
    if attribute not in _URL_ATTRIBUTES:
        return value
    image = tag in ("img", "source")
    if attribute == "srcset":
        urls = srcset_urls(value)
        return value if all(safe_url(url, image=True) for url in urls) else None
    return value if safe_url(value, image=image and attribute == "src") else None


def outermost(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Drop elements nested inside another element of the list; keep document order."""
    chosen = set(elements)
    kept = []
    for element in elements:
        parent = element.getparent()
        nested = False
        while parent is not None:
            if parent in chosen:
                nested = True
                break
            parent = parent.getparent()
        if not nested:
            kept.append(element)
    return kept


def render_main(page: Page, elements: Sequence[etree._Element], *,
                with_html: bool = True,
                exclude: Collection[etree._Element] = frozenset(),
                title: str | None = None) -> MainText:
    """The :class:`MainText` of ``elements`` (outermost ones, in document order).

    ``exclude``: elements inside ``elements`` left out with their subtrees (boilerplate an
    algorithm pruned within the chosen container); ``title`` overrides ``page.title``.
    """
    chosen = outermost(list(elements))
    has_ids = page.has_ids
    return MainText(
        title=page.title if title is None else title,
        text=plain_text(chosen, exclude),
        html=sanitized_html(page, chosen, exclude) if with_html and chosen else "",
        element_ids=page.ids_within(chosen, exclude) if has_ids else [],
        xpaths=[] if has_ids else [page.xpath(element) for element in chosen],
    )

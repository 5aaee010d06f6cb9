"""The page model: one page, parsed once, shared by every algorithm.

``Page.raw`` is the exact string the host received (spans index into it). ``Page.tags`` is
the one-pass tag scan of it (:mod:`blocksift.rawscan`), and ``Page.tree`` the lxml tree
parsed from a copy whose start tags carry their source ordinal, so any element maps back
to its span in ``raw`` and to the id the extension stamped (``data-bsid`` by default).
Both are computed on first use and cached: an algorithm that only scans never pays for
the parse.
"""

from __future__ import annotations

import operator
import re
import time
from collections.abc import Collection, Iterable, Iterator
from functools import cached_property

from lxml import etree
from lxml import html as lxml_html

from .rawscan import STAMP_ATTR, TagScan, scan, stamp

#: Attribute the extension stamps on every element of its snapshot (see PROTOCOL.md).
DEFAULT_ID_ATTR = "data-bsid"

_META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)

#: Most attributes one start tag keeps for the parser: libxml2's duplicate-attribute check
#: is quadratic in attributes per tag (40,000 on one tag take seconds), browsers' is not.
MAX_ATTRIBUTES_PER_TAG = 1000
# A start tag shorter than this cannot hold MAX_ATTRIBUTES_PER_TAG attributes (each >= 2
# characters with its separator), so only longer tags are counted.
_LONG_TAG_CHARS = 2 * MAX_ATTRIBUTES_PER_TAG
_ATTRIBUTE_RE = re.compile(r"""[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?""")


class PageError(ValueError):
    """The input cannot be turned into a page (not text, undecodable)."""


def decode_html(data: bytes, declared: str | None = None) -> str:
    """Decode page bytes: BOM, then the declared or ``<meta>`` charset, then detection.

    Detection uses charset-normalizer, as trafilatura does; strict UTF-8 is tried before it
    because detection on short pages is unreliable and UTF-8 is by far the most common.
    """
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"),
                       (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(codec, errors="replace")
    candidates: list[str] = []
    if declared:
        candidates.append(declared)
    meta = _META_CHARSET_RE.search(data[:4096])
    if meta:
        candidates.append(meta.group(1).decode("ascii", "replace"))
    candidates.append("utf-8")
    for codec in candidates:
        try:
            return data.decode(codec)
        except (LookupError, UnicodeDecodeError):
            continue
    from charset_normalizer import from_bytes  # lazy: only bytes of unknown charset need it

    best = from_bytes(data).best()
    if best is not None:
        return str(best)
    return data.decode("cp1252", errors="replace")


def cap_attributes(html: str, tags: TagScan, limit: int = MAX_ATTRIBUTES_PER_TAG) -> str:
    """``html`` with every start tag cut to its first ``limit`` attributes (an attribute bomb
    guard run before lxml parses); ``html`` itself, unchanged, when no tag has more.
    """
    pieces: list[str] = []
    last = 0
    name_ends, tag_ends = tags.name_ends, tags.tag_ends
    # One C-level pass finds the few long tags; only those are looked at in Python.
    lengths = map(operator.sub, tag_ends, name_ends)
    long_tags = [i for i, length in enumerate(lengths) if length > _LONG_TAG_CHARS]
    for ordinal in long_tags:
        name_end, tag_end = name_ends[ordinal], tag_ends[ordinal]
        attributes = html[name_end:tag_end]
        cut = None
        for count, found in enumerate(_ATTRIBUTE_RE.finditer(attributes), 1):
            if count == limit:
                cut = found.end()
            elif count > limit:
                break
        else:
            continue  # at most ``limit`` attributes
        assert cut is not None
        closing = "/>" if attributes.rstrip().endswith("/>") else \
            (">" if attributes.endswith(">") else "")
        pieces.append(html[last:name_end])
        pieces.append(attributes[:cut] + closing)
        last = tag_end
    if not pieces:
        return html
    pieces.append(html[last:])
    return "".join(pieces)


class Page:
    """A web page as received: raw string, tag scan and lxml tree (both lazy)."""

    def __init__(self, html: str, url: str | None = None, id_attr: str = DEFAULT_ID_ATTR):
        if not isinstance(html, str):
            raise PageError("html must be a str; use Page.from_bytes for bytes")
        self.raw = html
        self.url = url
        self.id_attr = id_attr
        #: Milliseconds spent building the lazy views (``scan``, ``parse``), for timing replies.
        self.timings: dict[str, float] = {}

    @classmethod
    def from_bytes(cls, data: bytes, url: str | None = None, encoding: str | None = None,
                   id_attr: str = DEFAULT_ID_ATTR) -> Page:
        """Build a page from bytes, detecting the charset (see :func:`decode_html`)."""
        return cls(decode_html(data, encoding), url=url, id_attr=id_attr)

    # -- lazily computed views ------------------------------------------------------------

    @cached_property
    def tags(self) -> TagScan:
        """Start tags with spans and stamped ids, from one regex pass over ``raw``."""
        started = time.perf_counter()
        tags = scan(self.raw, self.id_attr)
        self.timings["scan"] = (time.perf_counter() - started) * 1000
        return tags

    @cached_property
    def tree(self) -> lxml_html.HtmlElement:
        """The lxml tree of the page; each element carries its source ordinal."""
        tags = self.tags
        started = time.perf_counter()
        guarded = cap_attributes(self.raw, tags)
        if guarded is not self.raw:
            # Same start tags in the same order (only attribute lists were cut): ordinals hold.
            tags = scan(guarded, self.id_attr)
        stamped = stamp(guarded, tags)
        parser = lxml_html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                                      huge_tree=True, default_doctype=False)
        data = stamped.encode("utf-8", errors="replace")
        try:
            root = lxml_html.document_fromstring(data, parser=parser)
        except (etree.ParserError, ValueError):
            root = lxml_html.document_fromstring(b"<html><body></body></html>", parser=parser)
        self.timings["parse"] = (time.perf_counter() - started) * 1000
        return root

    @cached_property
    def body(self) -> lxml_html.HtmlElement:
        """The ``<body>`` element (created empty when the page has none)."""
        body = self.tree.find("body")
        if body is None:
            body = lxml_html.Element("body")
            self.tree.append(body)
        return body

    @cached_property
    def title(self) -> str:
        """The document title: ``<title>``, else ``og:title``, else the first ``<h1>``."""
        for xpath in ("//head/title", "//title"):
            found = self.tree.xpath(xpath)
            if found:
                text = " ".join(found[0].text_content().split())
                if text:
                    return text
        og = self.tree.xpath('//meta[@property="og:title"]/@content')
        if og and og[0].strip():
            return " ".join(og[0].split())
        h1 = self.tree.xpath("//h1")
        return " ".join(h1[0].text_content().split()) if h1 else ""

    # -- element <-> source mapping -------------------------------------------------------

    @staticmethod
    def ordinal(element: etree._Element) -> int | None:
        """Source ordinal of ``element``; None for elements the parser implied."""
        value = element.get(STAMP_ATTR) if isinstance(element.tag, str) else None
        return int(value) if value is not None else None

    def span(self, element: etree._Element) -> tuple[int, int]:
        """Character span ``[start, end)`` of ``element`` in ``raw``.

        An element the parser implied (``tbody``, a missing ``body``) spans its children.
        """
        ordinal = self.ordinal(element)
        tags = self.tags
        if ordinal is not None and ordinal < len(tags):
            return tags.starts[ordinal], tags.close_ends[ordinal]
        starts: list[int] = []
        ends: list[int] = []
        for child in element.iterdescendants():
            child_ordinal = self.ordinal(child)
            if child_ordinal is not None and child_ordinal < len(tags):
                starts.append(tags.starts[child_ordinal])
                ends.append(tags.close_ends[child_ordinal])
        if not starts:
            return 0, 0
        return min(starts), max(ends)

    def element_id(self, element: etree._Element) -> str | None:
        """The id the extension stamped on ``element``, if any."""
        if not isinstance(element.tag, str):
            return None
        return element.get(self.id_attr)

    def ids_within(self, elements: Iterable[etree._Element],
                   exclude: Collection[etree._Element] = frozenset()) -> list[str]:
        """Stamped ids of ``elements`` and all their descendants, in document order.

        Subtrees rooted at an element of ``exclude`` are left out.
        """
        seen: set[str] = set()
        found: list[str] = []
        for element in elements:
            iterator = etree.iterwalk(element, events=("start",))
            for _event, node in iterator:
                if exclude and node in exclude:
                    iterator.skip_subtree()
                    continue
                value = self.element_id(node)
                if value is not None and value not in seen:
                    seen.add(value)
                    found.append(value)
        return found

    def xpath(self, element: etree._Element) -> str:
        """Absolute XPath of ``element`` in the parsed tree (for pages without ids)."""
        return str(element.getroottree().getpath(element))

    @property
    def has_ids(self) -> bool:
        """True when the page carries stamped element ids (it came from the extension)."""
        return any(value is not None for value in self.tags.ids[:64])

    def iter_elements(self) -> Iterator[lxml_html.HtmlElement]:
        """All elements of the tree in document order (no comments)."""
        for node in self.tree.iter():
            if isinstance(node.tag, str):
                yield node

    def clean_attributes(self, element: etree._Element) -> dict[str, str]:
        """Attributes of ``element`` without the host's own ordinal stamp."""
        return {k: v for k, v in element.attrib.items() if k != STAMP_ATTR}

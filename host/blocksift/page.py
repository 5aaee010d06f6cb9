"""The page model: one page, parsed once, shared by every algorithm.

``Page.raw`` is the exact string the host received (spans index into it). ``Page.tags`` is
the one-pass tag scan of it (:mod:`blocksift.rawscan`), and ``Page.tree`` the lxml tree
parsed from a copy whose start tags carry their source ordinal, so any element maps back
to its span in ``raw`` and to the id the extension stamped (``data-bsid`` by default).
Both are computed on first use and cached: an algorithm that only scans never pays for
the parse.

``Page(html, spans=False)`` parses the page as it is, without the scan and its stamps, when
the markup shows none of the breakage only the scan can repair: for crawl runs, which keep
the text and not the spans (about a tenth of ``auto``'s time there, with a model that
reads no signal of the raw HTML: ``auto.text_without_spans``). Such a page's elements
have no spans; :attr:`Page.spans` says which parse a page got.
"""

from __future__ import annotations

import operator
import re
import time
from collections.abc import Collection, Iterable, Iterator
from functools import cached_property
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from .rawscan import STAMP_ATTR, TagScan, scan, stamp, stamped_ordinal
from .speedups import compiled
from .wire.constants import ID_ATTR as DEFAULT_ID_ATTR  # the snapshot's id attribute

_META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)

#: Most attributes one start tag keeps for the parser: libxml2's duplicate-attribute check
#: is quadratic in attributes per tag (40,000 on one tag take seconds), browsers' is not.
MAX_ATTRIBUTES_PER_TAG = 1000
# A start tag shorter than this cannot hold MAX_ATTRIBUTES_PER_TAG attributes (each >= 2
# characters with its separator), so only longer tags are counted.
_LONG_TAG_CHARS = 2 * MAX_ATTRIBUTES_PER_TAG
_ATTRIBUTE_RE = re.compile(r"""[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?""")


def many_attributes_pattern(limit: int) -> re.Pattern[str]:
    """A start tag of more than ``limit`` attributes, found without the tag scan: atomic
    groups and possessive repeats, so one pass over each tag and no backtracking."""
    return re.compile(
        r"""<[A-Za-z][^\s"'>/=]*+(?>[\s/]*+[^\s"'>/=]++(?>\s*+=\s*+(?>"[^"]*+"|'[^']*+'|"""
        r"""[^\s>]*+))?+){""" + str(limit + 1) + "}")


_MANY_ATTRIBUTES = many_attributes_pattern(MAX_ATTRIBUTES_PER_TAG)

# The same search compiled (``_rawchecks.pyx``), where the install built it.
_compiled_checks = compiled("blocksift._rawchecks")


def has_tag_over_attribute_limit(raw: str) -> bool:
    """Whether a start tag of ``raw`` holds more than MAX_ATTRIBUTES_PER_TAG attributes."""
    if _compiled_checks is not None:
        return bool(_compiled_checks.has_tag_over(raw, MAX_ATTRIBUTES_PER_TAG))
    return _MANY_ATTRIBUTES.search(raw) is not None


#: Elements before one in document order (its document-order number), and all elements,
#: counted in C: a page parsed without spans numbers its elements so.
_ELEMENTS_BEFORE = etree.XPath("count(preceding::*) + count(ancestor::*)")
_ELEMENTS = etree.XPath("count(//*)")
#: Ordinals counted one by one before a table of every element is cheaper (each count walks
#: the document before the element; a text-only run asks for a handful).
_COUNTED_ORDINALS = 64

#: Longest title kept; longer ones are cut at a word boundary (real titles stay well below).
MAX_TITLE_CHARS = 300
_MARKUP_START = re.compile(r"<(?:[A-Za-z][\w:-]*[\s/>]|/[A-Za-z]|!--)")


def plain_title(text: str) -> str:
    """``text`` as a title: whitespace collapsed, cut before any markup that a broken page
    left in it, and at most :data:`MAX_TITLE_CHARS` characters (cut at a word, with "…")."""
    markup = _MARKUP_START.search(text)
    if markup:
        text = text[:markup.start()]
    text = " ".join(text.split())
    if len(text) > MAX_TITLE_CHARS:
        cut = text.rfind(" ", 0, MAX_TITLE_CHARS)
        text = text[:cut if cut > MAX_TITLE_CHARS // 2 else MAX_TITLE_CHARS].rstrip(" ,;:-") + "…"
    return text


class PageError(ValueError):
    """The input cannot be turned into a page (not text, undecodable)."""


#: How much worse than charset-normalizer's best guess windows-1252 may score and still be
#: taken (its mess ratio, 0-1, and its language coherence, 0-1)
_WESTERN_CHAOS_MARGIN = 0.1
_WESTERN_COHERENCE_MARGIN = 0.02


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

    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        return data.decode("cp1252", errors="replace")
    # Where windows-1252 reads the bytes about as well as the best guess, it wins, as
    # browsers default to it for legacy pages without a charset: on a French sentence the
    # detector scored it level with windows-1250 and a hair below windows-1257, and took
    # one of those ("crème brûlée" as "crčme brűlée"). A wrong Latin-1 reading of Cyrillic
    # or Greek bytes scores far worse than this margin.
    western = next((m for m in matches if m.encoding == "cp1252"), None)
    if western is not None and western.chaos <= best.chaos + _WESTERN_CHAOS_MARGIN and \
            western.coherence >= best.coherence - _WESTERN_COHERENCE_MARGIN:
        return str(western)
    return str(best)


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


# collect_ids=False: libxml2 keeps no table of the id attributes (nothing here looks an
# element up by id: XPath's id() is never used), a tenth or more of the parse's time.
_PARSER_OPTIONS = dict(encoding="utf-8", remove_comments=True, remove_pis=True,
                       huge_tree=True, default_doctype=False, collect_ids=False)


def _stamp_guarded(html: str, tags: TagScan, id_attr: str) -> str:
    """``html`` stamped with tag ordinals, attribute bombs cut first (:func:`cap_attributes`)."""
    guarded = cap_attributes(html, tags)
    if guarded is not html:
        # Same start tags in the same order (only attribute lists were cut): ordinals hold.
        tags = scan(guarded, id_attr)
    return stamp(guarded, tags)


#: Every element an ``HtmlElement``, chosen in C: lxml.html's own lookup is a Python call per
#: element proxy (a large share of a tree walk) and only adds form-field classes
#: (``FormElement``, ``InputElement``, ...) whose extra API the host never uses.
_ELEMENT_CLASSES = etree.ElementDefaultClassLookup(
    element=lxml_html.HtmlElement, comment=lxml_html.HtmlComment,
    pi=lxml_html.HtmlProcessingInstruction, entity=lxml_html.HtmlEntity)


def _parse_markup(markup: str) -> tuple[lxml_html.HtmlElement | None, bool]:
    """lxml's tree of ``markup`` (None when it finds no document at all), and whether the
    parser stopped at its nesting limit, dropping the rest of the page."""
    parser = lxml_html.HTMLParser(**_PARSER_OPTIONS)
    parser.set_element_class_lookup(_ELEMENT_CLASSES)
    try:
        root = lxml_html.document_fromstring(markup.encode("utf-8", errors="replace"),
                                             parser=parser)
    except (etree.ParserError, ValueError):
        return None, False
    # the limit is a fatal error: the parse ends there, so it is the last one logged
    last = parser.error_log.last_error
    return root, last is not None and last.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT


def _parse_stamped(stamped: str, deep_parts: list[int] | None = None
                   ) -> lxml_html.HtmlElement | None:
    """lxml's tree of a stamped page, or None when it finds no document at all.

    Past libxml2's nesting limit (2,048 open elements: a long page of unclosed ``<font>`` or
    ``<div>`` tags) the parser drops the rest of the page; the rest is parsed on its own and
    placed after what came before (:func:`_parse_past_depth_limit`), the number of parts so
    parsed appended to ``deep_parts``."""
    root, too_deep = _parse_markup(stamped)
    if root is not None and too_deep:
        parts = _parse_past_depth_limit(root, stamped)
        if deep_parts is not None and parts:
            deep_parts.append(parts)
    return root


#: Most parts a page is parsed in past the nesting limit (each up to 2,048 levels deep).
_MAX_DEPTH_PARTS = 200


def _last_ordinal(root: etree._Element) -> int | None:
    return max((ordinal for element in root.iter() if (ordinal := stamped_ordinal(element))
                is not None), default=None)


def _parse_past_depth_limit(root: lxml_html.HtmlElement, stamped: str) -> int:
    """Parse what the parser dropped at its nesting limit and append it to ``root``'s body.

    The parse stopped at the start tag after the last stamped one it kept: the page from that
    tag on is parsed again as a page of its own, and its elements (their stamps, so their
    spans, intact) move to the end of the body, in document order. Browsers do alike past
    their own limit (512 in Chromium): deeper elements become siblings instead of children.
    Returns the number of parts parsed."""
    from . import repair

    body = root.find("body")
    last = _last_ordinal(root)
    if body is None or last is None:
        return 0
    searched_from = parts = 0
    while parts < _MAX_DEPTH_PARTS:
        marker = stamped.find(f' {STAMP_ATTR}="{last + 1}"', searched_from)
        start = stamped.rfind("<", 0, marker) if marker >= 0 else -1
        if start < 0:
            break
        rest, too_deep = _parse_markup(stamped[start:])
        rest_last = _last_ordinal(rest) if rest is not None else None
        if rest_last is None:
            break
        parts += 1
        repair.move_stray_content(rest)  # what the part's parse left in <head> or after </html>
        rest_body = rest.find("body")
        if rest_body is not None:
            repair.append_text(body, rest_body.text)
            body.extend(list(rest_body))
        if not too_deep:
            break
        last, searched_from = rest_last, marker
    return parts


#: A tag name an XPath step can hold as it is. HTML parsers keep names XPath reads otherwise
#: ("link<div" is a comparison, a control character is refused): such a step is written as
#: the element's position among its parent's elements, ``*[k]``.
_XPATH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")
#: An absolute path of such names and positions only (what lxml writes for them).
_PLAIN_XPATH = re.compile(r"(?:/[A-Za-z_][A-Za-z0-9_.\-]*(?:\[\d+\])?)+\Z")


class XPaths:
    """Absolute XPaths as lxml writes them, with each parent's child positions counted once
    (``getpath`` counts siblings on every call: quadratic on a page of 100,000 paragraphs).
    A step whose tag name XPath cannot read (:data:`_XPATH_NAME`) is ``*[k]`` instead, so
    every path finds its element again.

    One instance serves one batch of lookups on a tree that does not change meanwhile.
    """

    def __init__(self) -> None:
        self._positions: dict[etree._Element, dict[etree._Element, str]] = {}
        self._paths: dict[etree._Element, str] = {}  # elements asked for, and their parents

    def _step(self, el: etree._Element) -> str:
        parent = el.getparent()
        if parent is None:  # the root: lxml may number it ("/html[1]"); ask it once
            return str(el.getroottree().getpath(el))
        steps = self._positions.get(parent)
        if steps is None:
            counts: dict[Any, int] = {}
            for child in parent:
                counts[child.tag] = counts.get(child.tag, 0) + 1
            seen: dict[Any, int] = {}
            steps = {}
            position = 0  # among the parent's elements, for a name XPath cannot read
            for child in parent:
                if not isinstance(child.tag, str):
                    continue
                position += 1
                if not _XPATH_NAME.match(child.tag):
                    steps[child] = f"*[{position}]"
                    continue
                seen[child.tag] = seen.get(child.tag, 0) + 1
                steps[child] = (f"{child.tag}[{seen[child.tag]}]" if counts[child.tag] > 1
                                else str(child.tag))
            self._positions[parent] = steps
        return "/" + steps[el]

    def __call__(self, el: etree._Element) -> str:
        paths = self._paths
        found = paths.get(el)
        if found is not None:
            return found
        # climb to the nearest ancestor whose path is known (or the root), then come back
        # down: siblings share their parent's path instead of each climbing to the root
        chain = []
        node = el
        path = ""
        while node is not None:
            known = paths.get(node)
            if known is not None:
                path = known
                break
            chain.append(node)
            node = node.getparent()
        for node in reversed(chain):
            path = paths[node] = path + self._step(node)
        return path


class Page:
    """A web page as received: raw string, tag scan and lxml tree (both lazy)."""

    def __init__(self, html: str, url: str | None = None, id_attr: str = DEFAULT_ID_ATTR, *,
                 spans: bool = True):
        if not isinstance(html, str):
            raise PageError("html must be a str; use Page.from_bytes for bytes")
        self.raw = html
        self.url = url
        self.id_attr = id_attr
        #: Whether the tree's elements map back to their source spans. ``spans=False`` asks
        #: for a parse without the tag scan and its stamps; :attr:`tree` still takes the
        #: stamped parse (and this turns True) when the markup may need the scan's repairs.
        self.spans = spans
        self._counted_ordinals = 0  # ordinals of a page without spans counted one by one
        #: Milliseconds spent building the lazy views (``scan``, ``parse``), for timing replies.
        self.timings: dict[str, float] = {}
        #: What the parse repaired in broken markup (empty for a well-formed page).
        self.repairs: list[str] = []

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
        """The lxml tree of the page; each element carries its source ordinal.

        Broken markup that would hide the content from the parser is repaired first
        (:mod:`blocksift.repair`; what was done is in :attr:`repairs`).
        """
        if not self.spans:
            started = time.perf_counter()
            plain = self._parse_plain()
            self.timings["parse"] = (time.perf_counter() - started) * 1000
            if plain is not None:
                return plain
            self.spans = True
        tags = self.tags
        started = time.perf_counter()
        root = self._parse_recovering(tags)
        self.timings["parse"] = (time.perf_counter() - started) * 1000
        return root

    def _parse_plain(self) -> lxml_html.HtmlElement | None:
        """The tree of :attr:`raw` as it is (no scan, no stamps), or None when the page needs
        what only the scan gives: a tag over the attribute limit, or markup a scan-based
        repair may mend (:func:`repair.raw_may_need_scan`, :func:`repair.tree_may_need_scan`).
        The scan-free repair still runs."""
        from . import repair

        if has_tag_over_attribute_limit(self.raw) or repair.raw_may_need_scan(self.raw):
            return None
        root, too_deep = _parse_markup(self.raw)
        # past the nesting limit the rest of the page is parsed from the stamped copy
        if root is None or too_deep or repair.tree_may_need_scan(root):
            return None
        self._note_moved((repair.move_stray_content(root), 0))
        return root

    def _note_moved(self, moved: tuple[int, int]) -> None:
        if moved[0]:
            self.repairs.append(f"moved {moved[0]} element(s) from <head> or beside <body> "
                                "into <body>")
        if moved[1]:
            self.repairs.append(f"moved {moved[1]} element(s) out of a button, select or "
                                "embedded element whose end tag the parser ignored")

    def _parse_recovering(self, tags: TagScan) -> lxml_html.HtmlElement:
        """Parse the stamped page; use a repaired copy's parse when it shows more.

        A repaired parse replaces :attr:`tags` with the copy's scan mapped back into
        ``raw`` (same ordinals for every tag before the broken spot, spans into ``raw``).
        """
        from . import repair

        deep_parts: list[int] = []
        root = _parse_stamped(_stamp_guarded(self.raw, tags, self.id_attr), deep_parts)
        planned = repair.plan(self.raw, tags, self.id_attr)
        moved = (repair.move_stray_content(root), repair.release_swallowed(root, tags)) \
            if root is not None else (0, 0)
        if planned is not None:
            fixed, fixed_tags = planned
            candidate_deep_parts: list[int] = []
            candidate = _parse_stamped(_stamp_guarded(fixed.text, fixed_tags, self.id_attr),
                                       candidate_deep_parts)
            if candidate is not None:
                candidate_moved = (repair.move_stray_content(candidate),
                                   repair.release_swallowed(candidate, fixed_tags))
                if root is None or repair.better(candidate, len(fixed_tags), root, len(tags)):
                    self.__dict__["tags"] = fixed.scan_to_raw(fixed_tags)
                    self.repairs = list(fixed.notes)
                    root, moved = candidate, candidate_moved
                    deep_parts = candidate_deep_parts
        self._note_moved(moved)
        if deep_parts:
            self.repairs.append(f"parsed the page in {deep_parts[0] + 1} parts: past a nesting "
                                "of 2,048 elements the parser drops the rest, so the deeper "
                                "elements follow as siblings, as browsers place them")
        if root is None:
            root = _parse_stamped(b"<html><body></body></html>".decode())
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
        """The document title: ``<title>``, else ``og:title``, else the first ``<h1>``.

        Plain text of sane length (:func:`plain_title`).
        """
        for xpath in ("//head/title", "//title"):
            found = self.tree.xpath(xpath)
            if found:
                text = plain_title(found[0].text_content())
                if text:
                    return text
        og = self.tree.xpath('//meta[@property="og:title"]/@content')
        if og and og[0].strip():
            return plain_title(og[0])
        h1 = self.tree.xpath("//h1")
        return plain_title(h1[0].text_content()) if h1 else ""

    def frame_sources(self, limit: int = 3) -> list[str]:
        """The addresses of the first ``limit`` frames the page embeds (``<frame>``, then
        ``<iframe>``), as written: a frameset page's text lies in those documents."""
        found: list[str] = []
        for tag in ("frame", "iframe"):
            for element in self.tree.iter(tag):
                src = (element.get("src") or "").strip()
                if src and not src.startswith(("about:", "javascript:")) and src not in found:
                    found.append(src)
                    if len(found) == limit:
                        return found
        return found

    def no_text_message(self) -> str:
        """Why an extractor found nothing to read, in words: a page that only embeds frames
        says where its text is."""
        frames = self.frame_sources()
        if not frames:
            return "no visible text on the page"
        return (f"no visible text on the page: it shows other pages in frames ("
                f"{', '.join(frames)}), which hold its text")

    # -- element <-> source mapping -------------------------------------------------------

    def ordinal(self, element: etree._Element) -> int | None:
        """Source ordinal of ``element``; None for elements the parser implied. A page parsed
        without spans numbers its elements in document order instead (same order, no span):
        counted in C for the few a text-only run asks (the title's headings), then from a
        table of every element."""
        if self.spans:
            return stamped_ordinal(element)
        if not isinstance(element.tag, str):
            return None
        if "_positions" not in self.__dict__ and self._counted_ordinals < _COUNTED_ORDINALS:
            self._counted_ordinals += 1
            return int(_ELEMENTS_BEFORE(element))
        return self._positions.get(element)

    def _parsed_without_spans(self) -> bool:
        """Whether the tree has no spans. Asked before the parse, it parses: a page asked for
        none may still take the stamped parse."""
        if not self.spans:
            _ = self.tree
        return not self.spans

    @property
    def element_count(self) -> int:
        """Start tags in the source; on a page parsed without spans, the tree's elements
        (the same count but for the few elements the parser implies or merges)."""
        return int(_ELEMENTS(self.tree)) if self._parsed_without_spans() else len(self.tags)

    @cached_property
    def _positions(self) -> dict[etree._Element, int]:
        return {el: n for n, el in enumerate(self.tree.iter(etree.Element))}

    def _need_spans(self) -> None:
        if self._parsed_without_spans():
            raise PageError("this page was parsed without source spans (Page(spans=False))")

    def span_starts(self, elements: Iterable[etree._Element]) -> list[int]:
        """``span(element)[0]`` of each element, the stamped ones read directly (a long
        page has hundreds of thousands)."""
        self._need_spans()
        starts = self.tags.starts
        n_tags = len(starts)
        out: list[int] = []
        for element in elements:
            value = element.get(STAMP_ATTR) if isinstance(element.tag, str) else None
            ordinal = int(value) if value is not None else n_tags
            out.append(starts[ordinal] if ordinal < n_tags else self.span(element)[0])
        return out

    def span(self, element: etree._Element) -> tuple[int, int]:
        """Character span ``[start, end)`` of ``element`` in ``raw``.

        An element the parser implied (``tbody``, a missing ``body``) spans its children.
        """
        self._need_spans()
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
        """Absolute XPath of ``element`` in the parsed tree (for pages without ids): lxml's,
        unless a tag name on the way is one XPath cannot read (:class:`XPaths` then)."""
        path = str(element.getroottree().getpath(element))
        return path if _PLAIN_XPATH.match(path) else XPaths()(element)

    def xpaths(self, elements: Iterable[etree._Element]) -> list[str]:
        """:meth:`xpath` of each of ``elements``, siblings counted once per parent."""
        xpath_of = XPaths()
        return [xpath_of(element) for element in elements]

    @property
    def has_ids(self) -> bool:
        """True when the page carries stamped element ids (it came from the extension)."""
        if self._parsed_without_spans():
            return False  # ids are read through spans; a crawl page has none
        return any(value is not None for value in self.tags.ids[:64])

    def iter_elements(self) -> Iterator[lxml_html.HtmlElement]:
        """All elements of the tree in document order (no comments)."""
        for node in self.tree.iter():
            if isinstance(node.tag, str):
                yield node

    def clean_attributes(self, element: etree._Element) -> dict[str, str]:
        """Attributes of ``element`` without the host's own ordinal stamp."""
        return {k: v for k, v in element.attrib.items() if k != STAMP_ATTR}

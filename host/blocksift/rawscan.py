"""One regex pass over raw HTML that lists its tags with their character offsets.

The scan serves two needs without building a tree:

* the page model stamps each start tag with its ordinal (``data-bso``) before lxml parses
  the page, so every element of the tree knows the exact span of its source tag;
* raw-scan algorithms (``linkblocks``) and span-to-element mapping read tag offsets,
  names and the ids the extension stamped.

Offsets are indices into the Python ``str`` (Unicode code points), end-exclusive.
The grammar (tags, attribute quoting, comments, raw-text elements) is
:mod:`blocksift.htmltokenizer`'s: comments, doctypes and the bodies of raw-text elements
(script, style, textarea, title, ...) are skipped as units, so a ``<a>`` inside a comment or
a script is never a tag; attribute values in quotes may contain ``>``.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from typing import Any

from .htmltokenizer import (
    RAW_GROUPS,
    RAW_TEXT_ELEMENTS,
    TOKEN_RE,
    VOID_ELEMENTS,
    attribute_present,
)
from .speedups import compiled

#: The scan's loop compiled (``_rawscan.pyx``), None where it was not built: same result.
_compiled_scan = compiled("blocksift._rawscan", ("scan_into", "stamp"))

__all__ = ["RAW_TEXT_ELEMENTS", "STAMP_ATTR", "TOKEN_RE", "VOID_ELEMENTS", "TagScan",
           "id_attr_pattern", "scan", "stamp", "stamped_ordinal"]

# Start tags that close an open <p> (HTML Living Standard §13.2.6.4.7, "in body").
_CLOSES_P = frozenset({
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
    "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
    "h6", "header", "hgroup", "hr", "li", "main", "menu", "nav", "ol", "p", "pre", "section",
    "summary", "table", "ul",
})
# Start tag -> open elements it implicitly closes when one of them is the current node.
_IMPLIED_CLOSE = {
    "li": frozenset({"li"}),
    "dt": frozenset({"dt", "dd"}),
    "dd": frozenset({"dt", "dd"}),
    "tr": frozenset({"tr", "td", "th"}),
    "td": frozenset({"td", "th"}),
    "th": frozenset({"td", "th"}),
    "option": frozenset({"option"}),
    "thead": frozenset({"tbody", "tfoot", "thead", "tr", "td", "th"}),
    "tbody": frozenset({"tbody", "tfoot", "thead", "tr", "td", "th"}),
    "tfoot": frozenset({"tbody", "tfoot", "thead", "tr", "td", "th"}),
}

_ID_ATTR_CACHE: dict[str, re.Pattern[str]] = {}


def id_attr_pattern(attr: str) -> re.Pattern[str]:
    """Regex that reads the value of attribute ``attr`` from a start tag's attribute text."""
    pattern = _ID_ATTR_CACHE.get(attr)
    if pattern is None:
        pattern = re.compile(r"""(?:^|\s)""" + re.escape(attr)
                             + r"""\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
        _ID_ATTR_CACHE[attr] = pattern
    return pattern


@dataclass
class TagScan:
    """Start tags of a page in source order, as parallel sequences indexed by tag ordinal
    (the offsets as :class:`array.array` of 64-bit ints once :func:`scan` is done)."""

    names: list[str] = field(default_factory=list)        #: lower-case tag name
    starts: MutableSequence[int] = field(default_factory=list)      #: offset of ``<``
    name_ends: MutableSequence[int] = field(default_factory=list)   #: just after the name
    tag_ends: MutableSequence[int] = field(default_factory=list)    #: just after ``>``
    close_ends: MutableSequence[int] = field(default_factory=list)  #: after its end (or implied)
    ids: list[str | None] = field(default_factory=list)   #: value of the id attribute, if any
    length: int = 0                                       #: length of the scanned string
    #: Elements whose end tag came while elements opened inside them were open (it closed
    #: them too): where libxml2 may ignore the end tag (``repair.release_swallowed``).
    closed_over: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.names)


#: ``TOKEN_RE`` groups by number: the scan dispatches on ``match.lastindex`` (an int, no
#: name lookup): an end tag's name, a start tag's attribute text (its name is the group
#: before), or a raw-text element's attribute text (:data:`_RAW_NAMES`: the element's name).
_END_GROUP = TOKEN_RE.groupindex["end"]
_ATTRS_GROUP = TOKEN_RE.groupindex["attrs"]
_START_GROUP = TOKEN_RE.groupindex["start"]
_RAW_NAMES = {TOKEN_RE.groupindex[group]: name for group, name in RAW_GROUPS.items()}


def scan(html: str, id_attr: str | None = "data-bsid") -> TagScan:
    """Scan ``html`` once and return its start tags with their spans.

    End tags are matched with a stack and the common implied-end rules (``p``, ``li``, table
    parts, ...); an element left open runs to the end of its parent or of the document.
    Compiled where the install built ``_rawscan`` (:func:`scan_python` is the same loop).
    """
    if _compiled_scan is None:
        return scan_python(html, id_attr)
    result = TagScan(length=len(html))
    _compiled_scan.scan_into(html, result, id_attr.lower() if id_attr else "", TOKEN_RE.match,
                             _RAW_NAMES, _CLOSES_P, _IMPLIED_CLOSE, VOID_ELEMENTS,
                             _RAW_NAME_SPELLINGS, attribute_present)
    return result


#: The raw-text elements' names, as the compiled scan compares a tag's name with them.
_RAW_NAME_SPELLINGS = tuple(RAW_GROUPS.values())


def scan_python(html: str, id_attr: str | None = "data-bsid") -> TagScan:
    """:func:`scan` in Python: one ``TOKEN_RE`` match per token."""
    result = TagScan(length=len(html))
    names, starts, name_ends = result.names, result.starts, result.name_ends
    tag_ends, close_ends, ids = result.tag_ends, result.close_ends, result.ids
    closed_over = result.closed_over
    id_needle = id_attr.lower() if id_attr else ""
    stack: list[int] = []      # ordinals of open elements
    open_names: list[str] = []  # their names, kept in step with ``stack``
    doc_end = len(html)
    raw_names = _RAW_NAMES
    end_group, attrs_group, start_group = _END_GROUP, _ATTRS_GROUP, _START_GROUP
    closes_p, implied_close, void = _CLOSES_P, _IMPLIED_CLOSE, VOID_ELEMENTS
    pop, pop_name = stack.pop, open_names.pop
    seen_names: dict[str, str] = {}

    for match in TOKEN_RE.finditer(html):
        group = match.lastindex
        if group == end_group:
            name = match.group(end_group)
            # Pop to the nearest open element of that name; a stray end tag is ignored.
            if open_names and open_names[-1] == name:  # the common case: the current one
                close_ends[pop()] = match.end()
                pop_name()
                continue
            name = name.lower()  # (open names are lower case: as written, most match above)
            if open_names and open_names[-1] == name:
                close_ends[pop()] = match.end()
                pop_name()
            elif name in open_names:
                depth = len(open_names) - 1 - open_names[::-1].index(name)
                start = match.start()
                while len(stack) > depth + 1:  # implicitly closed before this end tag
                    close_ends[pop()] = start
                    pop_name()
                closed_over.append(stack[-1])
                close_ends[pop()] = match.end()
                pop_name()
            continue
        if group is None:
            continue  # comment, doctype, CDATA
        start = match.start()
        if group == attrs_group:
            name_start, name_end = match.span(start_group)
            written = html[name_start:name_end]
            name = seen_names.get(written)
            if name is None:  # one string per name, not per tag
                lowered = written.lower()
                name = seen_names[written] = seen_names.setdefault(lowered, lowered)
            attrs = match.group(attrs_group)
            tag_end = match.end()
            whole_end = -1
        else:
            name = raw_names[group]
            attrs = match.group(group)
            name_end = start + 1 + len(name)
            tag_end = min(match.end(group) + 1, doc_end)
            whole_end = match.end()
        if open_names:
            if open_names[-1] == "p" and name in closes_p:
                close_ends[pop()] = start
                pop_name()
            else:
                implied = implied_close.get(name)
                if implied is not None:
                    while open_names and open_names[-1] in implied:
                        close_ends[pop()] = start
                        pop_name()
        ordinal = len(names)
        names.append(name)
        starts.append(start)
        name_ends.append(name_end)
        tag_ends.append(tag_end)
        ids.append(attribute_present(attrs, id_needle) or None
                   if id_needle and attrs and id_needle in attrs.lower() else None)
        if whole_end >= 0:
            close_ends.append(whole_end)
        elif name not in void and not (attrs and (
                attrs[-1] == "/" or (attrs[-1].isspace() and attrs.rstrip().endswith("/")))):
            close_ends.append(doc_end)
            stack.append(ordinal)
            open_names.append(name)
        else:
            close_ends.append(tag_end)  # void or self-closed: the tag is all
    while stack:
        close_ends[pop()] = doc_end
    # kept as long as the page: machine integers take 8 bytes an offset, a list of ints 40
    result.starts, result.name_ends = array("q", starts), array("q", name_ends)
    result.tag_ends, result.close_ends = array("q", tag_ends), array("q", close_ends)
    return result


STAMP_ATTR = "data-bso"


def stamped_ordinal(element: Any) -> int | None:
    """The ordinal :func:`stamp` gave ``element``'s start tag (an lxml element of the stamped
    page); None for elements the parser implied, comments and processing instructions."""
    value = element.get(STAMP_ATTR) if isinstance(element.tag, str) else None
    return int(value) if value is not None else None


def stamp(html: str, tags: TagScan) -> str:
    """Return ``html`` with ``data-bso="<ordinal>"`` inserted after every start tag's name.

    lxml then carries each element's source ordinal, so spans survive the parser's repairs.
    Compiled with the scan where it was built (one string written, the same text).
    """
    if _compiled_scan is not None and isinstance(tags.name_ends, array):
        return _compiled_scan.stamp(html, tags.name_ends, STAMP_ATTR)
    return stamp_python(html, tags)


def stamp_python(html: str, tags: TagScan) -> str:
    """:func:`stamp` in Python: two pieces joined a tag."""
    pieces: list[str] = []
    last = 0
    for ordinal, name_end in enumerate(tags.name_ends):
        pieces.append(html[last:name_end])
        pieces.append(f' {STAMP_ATTR}="{ordinal}"')
        last = name_end
    pieces.append(html[last:])
    return "".join(pieces)

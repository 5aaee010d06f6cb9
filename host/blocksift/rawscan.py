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
from dataclasses import dataclass, field

from .htmltokenizer import RAW_GROUPS, RAW_TEXT_ELEMENTS, TOKEN_RE, VOID_ELEMENTS, attribute

__all__ = ["RAW_TEXT_ELEMENTS", "STAMP_ATTR", "TOKEN_RE", "VOID_ELEMENTS", "TagScan",
           "id_attr_pattern", "scan", "stamp"]

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
    """Start tags of a page in source order, as parallel lists indexed by tag ordinal."""

    names: list[str] = field(default_factory=list)        #: lower-case tag name
    starts: list[int] = field(default_factory=list)       #: offset of ``<``
    name_ends: list[int] = field(default_factory=list)    #: offset just after the tag name
    tag_ends: list[int] = field(default_factory=list)     #: offset just after ``>``
    close_ends: list[int] = field(default_factory=list)   #: offset after the end tag (or implied)
    ids: list[str | None] = field(default_factory=list)   #: value of the id attribute, if any
    length: int = 0                                       #: length of the scanned string

    def __len__(self) -> int:
        return len(self.names)


def scan(html: str, id_attr: str | None = "data-bsid") -> TagScan:
    """Scan ``html`` once and return its start tags with their spans.

    End tags are matched with a stack and the common implied-end rules (``p``, ``li``, table
    parts, ...); an element left open runs to the end of its parent or of the document.
    """
    result = TagScan(length=len(html))
    names, starts, name_ends = result.names, result.starts, result.name_ends
    tag_ends, close_ends, ids = result.tag_ends, result.close_ends, result.ids
    id_needle = id_attr.lower() if id_attr else ""
    stack: list[int] = []      # ordinals of open elements
    open_names: list[str] = []  # their names, kept in step with ``stack``
    doc_end = len(html)
    raw_groups = RAW_GROUPS
    closes_p, implied_close, void = _CLOSES_P, _IMPLIED_CLOSE, VOID_ELEMENTS

    def close_to(depth: int, at: int) -> None:
        while len(stack) > depth:
            close_ends[stack.pop()] = at
            open_names.pop()

    for match in TOKEN_RE.finditer(html):
        group = match.lastgroup
        if group is None:
            continue  # comment, doctype, CDATA
        start = match.start()
        if group == "end":
            name = match.group("end").lower()
            # Pop to the nearest open element of that name; a stray end tag is ignored.
            if open_names and open_names[-1] == name:  # the common case: the current one
                close_ends[stack.pop()] = match.end()
                open_names.pop()
                continue
            for depth in range(len(open_names) - 2, -1, -1):
                if open_names[depth] == name:
                    close_to(depth + 1, start)  # implicitly closed before this end tag
                    close_ends[stack.pop()] = match.end()
                    open_names.pop()
                    break
            continue
        raw_name = raw_groups.get(group)
        if raw_name is not None:
            name = raw_name
            attrs = match.group(group)
            name_end = start + 1 + len(name)
            tag_end = match.end(group) + 1
            whole_end = match.end()
        else:
            name_start, name_end = match.span("start")
            name = html[name_start:name_end].lower()
            attrs = match.group("attrs")
            tag_end = match.end()
            whole_end = -1
        if open_names:
            if open_names[-1] == "p" and name in closes_p:
                close_ends[stack.pop()] = start
                open_names.pop()
            else:
                implied = implied_close.get(name)
                while implied and open_names and open_names[-1] in implied:
                    close_ends[stack.pop()] = start
                    open_names.pop()
        ordinal = len(names)
        names.append(name)
        starts.append(start)
        name_ends.append(name_end)
        tag_end = min(tag_end, doc_end)
        tag_ends.append(tag_end)
        element_id = None
        if id_needle and attrs and id_needle in attrs.lower():
            element_id = attribute(attrs, id_needle) or None
        ids.append(element_id)
        if whole_end >= 0:
            close_ends.append(whole_end)
        elif name not in void and not (attrs and (
                attrs[-1] == "/" or (attrs[-1].isspace() and attrs.rstrip().endswith("/")))):
            close_ends.append(doc_end)
            stack.append(ordinal)
            open_names.append(name)
        else:
            close_ends.append(tag_end)  # void or self-closed: the tag is all
    close_to(0, doc_end)
    return result


STAMP_ATTR = "data-bso"


def stamp(html: str, tags: TagScan) -> str:
    """Return ``html`` with ``data-bso="<ordinal>"`` inserted after every start tag's name.

    lxml then carries each element's source ordinal, so spans survive the parser's repairs.
    """
    pieces: list[str] = []
    last = 0
    for ordinal, name_end in enumerate(tags.name_ends):
        pieces.append(html[last:name_end])
        pieces.append(f' {STAMP_ATTR}="{ordinal}"')
        last = name_end
    pieces.append(html[last:])
    return "".join(pieces)

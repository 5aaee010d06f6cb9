"""Broken markup that would hide a page's content from the parser, found and repaired.

Browsers and lxml (libxml2) follow the HTML tokenizer: some slips in real pages make them
drop or misplace most of a page, while the page's text is plainly there. Patterns handled:

* a raw-text element left open (``<title>``, ``<textarea>``, ``<xmp>``, ``<iframe>``,
  ``<noembed>``, ``<noframes>``) swallows the rest of the document as its text: it is
  closed before its first tag-like ``<`` (an end tag is *inserted*);
* a start tag with a quote that never closes (``<html lang="en`` ...) swallows the rest
  of the document into an attribute value, leaving an empty tree: the quote becomes the
  tag's ``>`` and the orphaned value is blanked (same length);
* body content held in ``<head>`` by an element the parser does not know (libxml2 keeps
  ``<foo-bar>`` and what follows it in ``<head>``; browsers start the body there), content
  after ``</body>`` left beside the body, and content after ``</html>`` (libxml2 puts it
  in a second ``<html>`` beside the document's root, out of reach of ``root.iter()``):
  all moved into ``<body>``, where browsers put them (:func:`move_stray_content`, a tree
  edit: ordinals and spans are untouched);
* an end tag libxml2 ignores because an element opened inside is still open
  (``<button><div></button>``): the rest of the page nests inside the button, under an
  element the extractors skip as holding no text. What the tag scan places after the
  element's end is moved out after it, where browsers put it (:func:`release_swallowed`,
  a tree edit as well).

Raw repairs work on a copy of the page (:class:`Repair`). Blanking keeps every offset; an
inserted end tag shifts later offsets of the copy, and :meth:`Repair.to_raw` maps the copy's
tag scan back, so ``Page.tags`` spans keep pointing into the exact string received. A repair
only ever reveals start tags the plain scan missed after the broken spot; the tags before it
keep their ordinals. The repaired parse is kept only when it shows more (:func:`better`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice

from lxml import etree

from .rawscan import STAMP_ATTR, TagScan, scan, stamped_ordinal
from .speedups import compiled

#: Raw-text elements whose unclosed start tag is closed before the first tag inside it.
#: ``script`` and ``style`` are left alone: their text holds ``<`` as code.
SWALLOWING_ELEMENTS = frozenset({"title", "textarea", "xmp", "iframe", "noembed", "noframes"})

#: Elements that belong in ``<head>``; anything else there with text is body content.
HEAD_ELEMENTS = frozenset({"title", "meta", "link", "style", "script", "base", "noscript",
                           "template", "object", "basefont", "bgsound"})

_NOT_TEXT = SWALLOWING_ELEMENTS | {"script", "style", "template"}
_NOT_IN = " or ".join(f"self::{name}" for name in sorted(HEAD_ELEMENTS))
_STRAY_IN_HEAD = etree.XPath(f"*[not({_NOT_IN})][normalize-space()]")
_TEXT_BESIDE_BODY = etree.XPath(
    "boolean(following-sibling::*[not(self::script or self::style or self::template)]"
    "[normalize-space()] or following-sibling::text()[normalize-space()])")
_TAG_LIKE = re.compile(r"<[A-Za-z!/]")
_MARKUP_VALUE = re.compile(r"""=\s*(?:"(?P<double>[^"]*<[A-Za-z][^"]*)"|"""
                           r"""'(?P<single>[^']*<[A-Za-z][^']*)')""")
#: Rounds of "repair, rescan" for pages with several broken spots.
MAX_ROUNDS = 4


@dataclass
class Repair:
    """A repaired copy of ``raw``: same-length overwrites plus inserted end tags."""

    raw: str
    text: str
    #: (offset in ``raw``, length inserted there), in order
    insertions: list[tuple[int, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_raw(self, offset: int) -> int:
        """Offset in the repaired copy -> offset in ``raw`` (inside an insertion: its spot)."""
        shift = 0
        for at, length in self.insertions:
            start = at + shift
            if offset < start:
                break
            if offset < start + length:
                return at
            shift += length
        return offset - shift

    def scan_to_raw(self, tags: TagScan) -> TagScan:
        """The copy's tag scan with every offset mapped into ``raw``."""
        def mapped(values: list[int]) -> list[int]:
            return [self.to_raw(v) for v in values] if self.insertions else list(values)

        return TagScan(tags.names, mapped(tags.starts), mapped(tags.name_ends),
                       mapped(tags.tag_ends), mapped(tags.close_ends), tags.ids,
                       len(self.raw), tags.closed_over)


def plan(raw: str, tags: TagScan, id_attr: str | None) -> tuple[Repair, TagScan] | None:
    """A repaired copy of ``raw`` and its tag scan, or None when nothing looks broken."""
    repair = Repair(raw, raw)
    current = tags
    for _round in range(MAX_ROUNDS):
        changed = (_close_swallowing(repair, current) or _close_open_quote(repair, current)
                   or _close_markup_in_root_attributes(repair, current))
        if not changed:
            break
        current = scan(repair.text, id_attr)
    if repair.text == raw:
        return None
    return repair, current


def _close_swallowing(repair: Repair, tags: TagScan) -> bool:
    """Insert ``</name>`` where an unclosed raw-text element meets its first tag."""
    if not len(tags) or tags.names[-1] not in SWALLOWING_ELEMENTS:
        return False  # a swallowing element eats every later tag, so it is the last one
    name, text = tags.names[-1], repair.text
    body_start = tags.tag_ends[-1]
    if tags.close_ends[-1] != len(text) or \
            re.search(rf"</{name}\s*>\Z", text[-len(name) - 40:], re.I):
        return False
    found = _TAG_LIKE.search(text, body_start)
    if found is None:
        return False
    insert = f"</{name}>"
    at = found.start()
    repair.text = text[:at] + insert + text[at:]
    raw_at = repair.to_raw(at)
    repair.insertions.append((raw_at, len(insert)))
    repair.insertions.sort()
    repair.notes.append(f"closed <{name}> left open at {repair.to_raw(tags.starts[-1])}")
    return True


def _close_open_quote(repair: Repair, tags: TagScan) -> bool:
    """A start tag whose quote never closes ends at that quote; its value is blanked."""
    text = repair.text
    if len(tags) and tags.tag_ends[-1] == len(text):
        # The HTML5 tokenizer runs an unterminated value to the end of the text, so the
        # broken tag is the last one and its first value without a closing quote is the cause.
        at = _unterminated_value_quote(text, tags.name_ends[-1])
        if at > 0:
            _end_tag_at(repair, at, tags.names[-1])
            return True
    for quote in "\"'":
        # The scan stops a tag at a quote only when no later quote of that kind exists,
        # so the quote is the last of its kind: one lookup instead of a walk over all tags.
        at = text.rfind(quote)
        ordinal = bisect_left(tags.tag_ends, at)
        if at <= 0 or ordinal >= len(tags) or tags.tag_ends[ordinal] != at or \
                text[at - 1] == ">":
            continue
        _end_tag_at(repair, at, tags.names[ordinal])
        return True
    return False


_VALUE_OPEN = re.compile(r"=\s*([\"'])")


def _unterminated_value_quote(text: str, start: int) -> int:
    """Offset of the first quoted attribute value after ``start`` that never closes, or -1."""
    pos = start
    while (found := _VALUE_OPEN.search(text, pos)) is not None:
        close = text.find(found.group(1), found.end())
        if close < 0:
            return found.start(1)
        pos = close + 1
    return -1


def _end_tag_at(repair: Repair, at: int, name: str) -> None:
    """End the tag at the quote ``at``; what it swallowed up to the next tag is blanked."""
    text = repair.text
    following = _TAG_LIKE.search(text, at + 1)
    stop = following.start() if following else len(text)
    blank = "".join(c if c in "\r\n" else " " for c in text[at + 1:stop])
    repair.text = text[:at] + ">" + blank + text[stop:]
    repair.notes.append(f"closed <{name}> at an unmatched quote")


def _close_markup_in_root_attributes(repair: Repair, tags: TagScan) -> bool:
    """An ``<html>``/``<head>``/``<body>`` attribute value holding tags lost its closing quote.

    The value ran on to a later quote of the same kind (often an apostrophe in the text),
    taking the markup between into the attribute: the opening quote becomes the tag's ``>``.
    """
    text = repair.text
    for ordinal in range(min(len(tags), 8)):
        if tags.names[ordinal] not in ("html", "head", "body"):
            continue
        attrs = text[tags.name_ends[ordinal]:tags.tag_ends[ordinal]]
        found = _MARKUP_VALUE.search(attrs)
        if found is None:
            continue
        group = "double" if found.group("double") is not None else "single"
        quote = tags.name_ends[ordinal] + found.start(group) - 1
        following = _TAG_LIKE.search(text, quote + 1)
        stop = following.start() if following else len(text)
        blank = "".join(c if c in "\r\n" else " " for c in text[quote + 1:stop])
        repair.text = text[:quote] + ">" + blank + text[stop:]
        repair.notes.append(f"closed <{tags.names[ordinal]}> before markup in an attribute")
        return True
    return False


def move_stray_content(root: etree._Element) -> int:
    """Move body content the parser left in ``<head>``, beside ``<body>`` or after the root
    element into the body. Returns the number of elements moved; they keep their stamps."""
    head, body = root.find("head"), root.find("body")
    moved_before: list[etree._Element] = []
    if head is not None:
        strays = _STRAY_IN_HEAD(head)  # in C: a head holds hundreds of <meta>/<link>
        if strays:
            moved_before = [strays[0], *strays[0].itersiblings()]
    after: list[etree._Element | str] = []
    if body is not None and _TEXT_BESIDE_BODY(body):
        after = list(body.itersiblings())
    for shell in root.itersiblings():  # content after </html>: a second root element
        if isinstance(shell.tag, str):
            for part in shell:
                if part.tag in ("head", "body"):
                    after.extend([part.text or "", *part])
                else:
                    after.append(part)
    if not (body is not None and (body.tail or "").strip()) and not any(
            (node.strip() if isinstance(node, str) else isinstance(node.tag, str)
             and node.tag not in _NOT_TEXT and "".join(node.itertext()).strip())
            for node in after):
        after = []  # only scripts and empty leftovers after </body>: leave them be
    if not moved_before and not after:
        return 0
    if body is None:
        body = etree.SubElement(root, "body")
    for position, node in enumerate(moved_before):
        body.insert(position, node)  # document order: head content comes first
    if body.tail and body.tail.strip():
        append_text(body, body.tail)
    body.tail = None
    for node in after:
        if isinstance(node, str):
            append_text(body, node)
        else:
            body.append(node)
    return len(moved_before) + sum(not isinstance(node, str) for node in after)


#: Elements the extractors skip as holding no text (form controls, embedded content): a page
#: swallowed by one of them is lost. (Raw-text elements are closed by :func:`plan`.)
SKIPPED_HOLDERS = frozenset({"button", "select", "option", "svg", "canvas", "object", "embed"})
_BY_STAMP = etree.XPath(f"//*[@{STAMP_ATTR} = $number]")


# -- which pages a parse without the scan may not take (Page(spans=False)) ---------------
# Each check is a superset of a scan-based repair's precondition: a yes costs only the scan.

#: A raw-text element's start or end tag, for the last one of each name.
_SWALLOWING_TAG = re.compile(r"<(/?)(" + "|".join(sorted(SWALLOWING_ELEMENTS)) + r")\b", re.I)
#: Script elements: what looks like a tag inside one is script text to the scan.
_SCRIPT = re.compile(r"<script\b.*?(?:</script\s*>|\Z)", re.I | re.S)
#: An attribute name and ``=`` just before a quote: the quote opens a value.
_OPENS_VALUE = re.compile(r"""\s[A-Za-z_:][-\w:.]*\s*=\s*\Z""")
#: A button, select or embedded element holding blocks of a page: what libxml2 leaves
#: inside one whose end tag it ignored (:func:`release_swallowed`). Legitimate ones (icons,
#: country pickers, a button's div) hold options, paths or phrasing, not paragraphs, lists
#: or sections (3 such blocks: 8 of the 3,076 dev pages, the 4 real cases among them).
_HOLDS_A_PAGE = etree.XPath(
    "count(.//p | .//h1 | .//h2 | .//h3 | .//h4 | .//article | .//section | .//main | "
    ".//table | .//ul | .//ol | .//form | .//header | .//footer | .//nav | .//aside) >= 3")


def raw_may_need_scan(raw: str) -> bool:
    """Whether ``raw`` may leave a raw-text element open to its end (:func:`_close_swallowing`)
    or hold an attribute value that never closes (:func:`_close_open_quote`)."""
    # most pages that leave one open write those tags in script strings: look again
    # outside scripts
    if _swallowing_left_open(raw) and _swallowing_left_open(raw, outside_scripts=True):
        return True
    for quote in "\"'":
        # a value that never closes holds the last quote of its kind, right after "name="
        at = raw.rfind(quote)
        if at > 0 and _OPENS_VALUE.search(raw, max(0, at - 200), at):
            return True
    return False


# The search below compiled (``_rawchecks.pyx``), where the install built it.
_compiled_checks = compiled("blocksift._rawchecks")


def _swallowing_left_open(raw: str, outside_scripts: bool = False) -> bool:
    """Whether some raw-text element's last tag in ``raw`` is a start tag; ``outside_scripts``:
    in ``raw`` with its :data:`_SCRIPT` elements blanked."""
    if _compiled_checks is not None:
        found = _compiled_checks.swallowing_left_open(raw, outside_scripts)
        if found is not None:  # None: a name with a letter the regex folds (rare)
            return bool(found)
    if outside_scripts:
        raw = _SCRIPT.sub(lambda script: " " * len(script.group()), raw)
    return _last_swallowing_open(_SWALLOWING_TAG.finditer(raw))


def _last_swallowing_open(found: Iterator[re.Match[str]]) -> bool:
    """Whether a raw-text element's last tag among ``found`` is a start tag (left open)."""
    last_open: dict[str, bool] = {}
    for match in found:
        last_open[match.group(2).lower()] = not match.group(1)
    return any(last_open.values())


def tree_may_need_scan(root: etree._Element) -> bool:
    """Whether the parse of the unstamped page shows markup in an ``<html>``/``<head>``/
    ``<body>`` attribute (:func:`_close_markup_in_root_attributes`) or a holder element
    whose end tag libxml2 ignored (:func:`release_swallowed`)."""
    for element in (root, root.find("head"), root.find("body")):
        if element is not None and any("<" in value for value in element.attrib.values()):
            return True
    # three page blocks need three descendants: most holders (an icon's <svg> and its path,
    # a button's label) have fewer, and taking two steps is cheaper than the XPath
    return any(next(islice(holder.iterdescendants(), 2, None), None) is not None
               and _HOLDS_A_PAGE(holder) for holder in root.iter(*SKIPPED_HOLDERS))


def release_swallowed(root: etree._Element, tags: TagScan) -> int:
    """Move out of each :data:`SKIPPED_HOLDERS` element what the tag scan places after its
    end (``tags`` is the scan ``root`` was stamped from); returns the elements moved.

    Bottom-up through the holder's subtree and then up its ancestors, each element's
    children that start after its end (by the scan's end-tag matching, which follows the
    HTML standard's in-scope rules where libxml2 ignores the end tag) leave it, with the
    siblings after them, for the places right after it; its tail goes after them, as in the
    source.
    """
    starts, close_ends, count = tags.starts, tags.close_ends, len(tags)

    def ordinal(node: etree._Element) -> int | None:
        number = stamped_ordinal(node)
        return number if number is not None and number < count else None

    def last_inside(holder: etree._Element) -> int | None:
        """The ordinal of the holder's last element in document order (the deepest stamped
        one on its rightmost path: a few steps, where a search of the subtree is many)."""
        found, node = None, holder
        while len(node):
            node = node[-1]
            at = ordinal(node)
            found = found if at is None else at
        return found

    moved = 0
    # only an element whose end tag closed others can have had it ignored: the scan lists
    # them (most pages have none of these holders among them)
    for number in [o for o in tags.closed_over if tags.names[o] in SKIPPED_HOLDERS]:
        found = _BY_STAMP(root, number=str(number))
        holder = found[0] if found else None
        own = ordinal(holder) if holder is not None else None
        last = last_inside(holder) if holder is not None else None
        if own is None or last is None or starts[last] < close_ends[own]:
            continue  # nothing inside it comes after its end tag
        # the holder's subtree, deepest first, then its ancestors: the end tags the parser
        # spent inside the button were meant for them
        for node in [*reversed(list(holder.iter())), *holder.iterancestors()]:
            at, parent = ordinal(node), node.getparent()
            if at is None or parent is None:
                continue
            end = close_ends[at]
            first = next((child for child in node if (child_at := ordinal(child)) is not None
                          and starts[child_at] >= end), None)
            if first is None:
                continue
            leaving = [first, *first.itersiblings()]
            tail, node.tail = node.tail, None
            position = parent.index(node) + 1
            for offset, child in enumerate(leaving):
                parent.insert(position + offset, child)
            if tail:
                leaving[-1].tail = (leaving[-1].tail or "") + tail
            moved += len(leaving)
    return moved


def append_text(parent: etree._Element, text: str | None) -> None:
    """``text`` after what ``parent`` holds (its last child's tail, or its text)."""
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def body_text_length(root: etree._Element) -> int:
    """Characters of markup-free text under ``<body>``: scripts, styles and raw-text
    elements (whose text may be swallowed markup) left out."""
    body = root.find("body")
    if body is None:
        return 0
    total = 0
    for node in body.iter():
        if isinstance(node.tag, str) and node.tag not in _NOT_TEXT:
            total += len((node.text or "").strip())
        if node is not body:
            total += len((node.tail or "").strip())
    return total


def better(repaired: etree._Element, repaired_tags: int, original: etree._Element,
           original_tags: int) -> bool:
    """Whether the repaired parse shows more: more body text, or as much text and tags the
    plain scan could not see (their elements then map back to their spans)."""
    gained = body_text_length(repaired) - body_text_length(original)
    return gained > 0 or (gained == 0 and repaired_tags > original_tags)

"""The raw-HTML grammar, once: element sets, tags and attributes, comments, raw text.

Every module that reads page source without a tree builds its regexes from this one
(:mod:`blocksift.rawscan`'s tag scan, the link scan and gap measures of ``linkblocks``,
FAR-SW's lines), so they agree with each other and with the parser on where a tag ends.
The rules are the HTML Living Standard's tokenizer (§13.2.5), which lxml (libxml2 >= 2.14)
follows too; ``tests/test_htmltokenizer.py`` checks the agreement on random and real pages.

* A tag name runs from a letter to white space, ``/`` or ``>``. After it, attributes: a
  quote opens a value only right after ``=`` (``<div title=x"y>`` is one attribute with the
  value ``x"y``), a quoted value may hold ``>``, and an ``=`` that starts an attribute is
  part of its name (``<div ="a>b">`` ends at the first ``>``). End tags read attributes the
  same way.
* Comments end at ``-->`` or ``--!>``; ``<!-->`` and ``<!--->`` are empty comments.
  ``<!...>`` (doctype, ``<![CDATA[``), ``<?...>`` and ``</`` not followed by a letter are
  bogus comments up to the first ``>``; ``</>`` is nothing.
* Raw-text elements (:data:`RAW_TEXT_ELEMENTS`) hold text up to their own end tag
  (``</name`` followed by white space, ``/`` or ``>``); ``script`` follows the escape rules
  (``<!--`` then ``<script>`` inside a script does not end at the next ``</script>``);
  ``plaintext`` holds the rest of the page.

Regex fragments are possessive and "unrolled" (runs of ordinary characters between checks),
several times faster in the regex engine than lazy ``.*?`` bodies. Possessive loops keep a
2 MB start tag or an attribute bomb linear in time and memory; an atomic group or a greedy
loop of a group instead keeps backtracking state per repetition (over 1 GB for a 2 MB tag).

Every possessive loop of a group ends in an empty alternative, ``(?:...|)*+``: CPython
before 3.11.5 (Debian 12 has 3.11.2) ends ``(?:X)*+`` where its last, failed try of ``X``
stopped, not where that try began (CPython gh-106052, gh-100061), which misreads tags and
can backtrack without end. With the empty alternative the loop's body never fails, so every
3.11 matches the same (``tests/test_htmltokenizer.py`` guards the form).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import lru_cache

#: Void elements never have an end tag (HTML Living Standard §13.1.2).
VOID_ELEMENTS = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "keygen", "basefont", "bgsound", "frame", "command",
})
#: Content is text with character references decoded (the tokenizer's RCDATA state).
RCDATA_ELEMENTS = ("textarea", "title")
#: Content is literal text (RAWTEXT and script data states).
RAWTEXT_ELEMENTS = ("script", "style", "xmp", "iframe", "noembed", "noframes")
#: Elements whose content the tokenizer reads as text up to the matching end tag.
RAW_TEXT_ELEMENTS = RAWTEXT_ELEMENTS + RCDATA_ELEMENTS

#: Attribute text after a tag name, up to (not including) the tag's ``>``: separators
#: (white space, ``/``), and attributes, each a name (``=`` allowed as its first character)
#: and an optional ``= value`` (quoted, possibly unterminated, or unquoted).
#: The common ``name="value"`` attributes first (the same reading, fewer regex steps).
ATTRS = (r"""(?:\s++[^\s/>="']++=(?:"[^"]*+"|'[^']*+')|)*+"""
         r"""(?:[\s/]++|(?:=[^\s/>=]*+|[^\s/>=]++)"""
         r"""(?:\s*+=\s*+(?:"[^"]*+"?|'[^']*+'?|[^\s>]*+))?|)*+""")
#: A tag name (after ``<`` or ``</``).
TAG_NAME = r"[A-Za-z][^\s/>]*+"
#: A comment, after its ``<``: ``!--`` up to ``-->`` or ``--!>`` (or the end of input).
COMMENT = r"!--(?:-?>|[^-]*+(?:-(?!-!?>)[^-]*+|)*+(?:--!?>)?)"
#: A bogus comment or doctype, after its ``<``: ``!...``, ``?...``, ``/`` + a non-letter,
#: up to the first ``>``.
BOGUS_COMMENT = r"(?:[!?]|/(?![A-Za-z]))[^>]*+>?"


def ci(word: str) -> str:
    """Case-insensitive regex for ``word`` as character classes ([sS][cC]...): the regex
    engine matches these faster than an ``(?i:...)`` group."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)


def end_tag(name: str) -> str:
    """Regex of the end tag of raw-text element ``name``, after its ``<``."""
    return rf"/{ci(name)}(?=[\s/>]|\Z){ATTRS}>?"


def raw_text_body(name: str, content_group: str = "") -> str:
    """Regex of the content and end tag of raw-text element ``name`` (after its start tag);
    ``content_group`` names a group holding the content alone."""
    if name == "plaintext":
        content = r"[\s\S]*+"
        end = ""
    elif name == "script":
        content = _SCRIPT_DATA
        end = f"(?:<{end_tag(name)})?"
    else:
        stop = rf"/{ci(name)}(?=[\s/>]|\Z)"
        content = rf"[^<]*+(?:<(?!{stop})[^<]*+|)*+"
        end = f"(?:<{end_tag(name)})?"
    if content_group:
        content = f"(?P<{content_group}>{content})"
    return content + end


def _script_data() -> str:
    """Script content (§13.2.5.4-.29): up to ``</script``, where ``<!--`` opens an escaped
    part that a ``<script`` inside turns "double escaped" (its ``</script`` only returns to
    escaped) and ``-->`` closes."""
    end = rf"/{ci('script')}(?=[\s/>]|\Z)"
    start = rf"{ci('script')}(?=[\s/>]|\Z)"
    double = rf"(?:[^<-]++|-(?!->)|<(?!{end})|)*+(?:<{end}|(?=-->))?"
    escaped = (rf"(?:[^<-]++|-(?!->)|<(?!{end}|{start})|<{start}{double}|)*+(?:-->)?")
    return rf"(?:[^<]++|<(?!{end}|!--)|<!--(?:-?>|{escaped})|)*+"


_SCRIPT_DATA = _script_data()

#: One attribute of a tag's attribute text: its name and (one of) its value groups.
ATTRIBUTE_RE = re.compile(
    r"""[\s/]*+(?P<name>=[^\s/>=]*+|[^\s/>=]++)"""
    r"""(?:\s*+=\s*+(?:"(?P<dq>[^"]*+)"?|'(?P<sq>[^']*+)'?|(?P<uq>[^\s>]*+)))?""")


def iter_attributes(attrs: str) -> Iterator[tuple[str, str]]:
    """``(lower-case name, value)`` of each attribute in a tag's attribute text; a name
    without ``=`` has the value ``""``. Character references are not decoded."""
    for match in ATTRIBUTE_RE.finditer(attrs):
        name = match.group("name")
        if not name:
            continue
        value = match.group("dq")
        if value is None:
            value = match.group("sq")
            if value is None:
                value = match.group("uq") or ""
        yield name.lower(), value


def attribute(attrs: str, name: str) -> str | None:
    """Value of attribute ``name`` (lower case) in a tag's attribute text, None when absent.

    The first of repeated attributes wins, as in the tokenizer.
    """
    if name not in attrs.lower():
        return None
    return attribute_present(attrs, name)


def attribute_present(attrs: str, name: str) -> str | None:
    """:func:`attribute` for a caller that found ``name`` in ``attrs.lower()`` already."""
    first = _first_attribute_re(name)
    if first is not None:
        match = first.match(attrs)
        if match is not None:  # the common case, read in one regex call
            value = match.group("dq")
            if value is None:
                value = match.group("sq")
                if value is None:
                    value = match.group("uq") or ""
            return value
    for found, value in iter_attributes(attrs):
        if found == name:
            return value
    return None


#: The value part of :data:`ATTRIBUTE_RE`, with and without its groups.
_VALUE_GROUPS = r"""(?:\s*+=\s*+(?:"(?P<dq>[^"]*+)"?|'(?P<sq>[^']*+)'?|(?P<uq>[^\s>]*+)))?"""
_VALUE = r"""(?:\s*+=\s*+(?:"[^"]*+"?|'[^']*+'?|[^\s>]*+))?"""


@lru_cache(maxsize=32)
def _first_attribute_re(name: str) -> re.Pattern[str] | None:
    """Regex that reads a tag's attribute text from its start as :func:`iter_attributes`
    does, attribute after attribute, up to and including the first one named ``name``
    (value in groups ``dq``, ``sq``, ``uq``); None for a name it cannot spell.

    Each loop step is one :data:`ATTRIBUTE_RE` match whose lower-cased name is not ``name``,
    so a match is :func:`attribute`'s answer; where the text is not read that way to the
    end (no such attribute, or something the loop cannot step over) it does not match and
    :func:`attribute` reads the attributes one by one. ``name`` is spelled case-blind as
    ``str.lower`` compares: an ASCII letter is itself, its upper case, and for ``k`` the
    Kelvin sign (the one non-ASCII character whose lower case is ASCII).
    """
    if (not name or not name.isascii() or name != name.lower() or name[0] == "="
            or any(c.isspace() or c in "/>=" for c in name)):
        return None
    spelled = "".join(f"[{c}{c.upper()}{chr(0x212A) if c == 'k' else ''}]" if c.isalpha()
                      else re.escape(c) for c in name)
    named = spelled + r"(?![^\s/>=])"  # the whole name: a name runs to \s / > =
    return re.compile(r"(?:[\s/]*+(?!" + named + r")(?:=[^\s/>=]*+|[^\s/>=]++)" + _VALUE
                      + r"|)*+[\s/]*+" + named + _VALUE_GROUPS)


#: One token of the tag scan: a comment, bogus comment, ``</>``, end tag (group ``end``: its
#: name), raw-text element whole (group ``raw_<name>``: its attribute text; :data:`RAW_GROUPS`
#: maps the group to the name) or start tag (groups ``start`` and ``attrs``). Text between
#: tokens is passed over.
#: Alternatives start with different characters (order only tries the common ones first);
#: an end tag without attributes skips the attribute loops; a lookahead on the first
#: letters of the raw-text names passes over their alternatives for every other tag.
TOKEN_RE = re.compile(
    r"<(?:/(?P<end>" + TAG_NAME + ")(?:>|" + ATTRS + ">?)"
    + "|" + COMMENT + "|" + BOGUS_COMMENT
    + "|(?=[" + "".join(sorted({c for name in RAW_TEXT_ELEMENTS + ("plaintext",)
                                for c in (name[0], name[0].upper())})) + "])(?:"
    + "|".join(rf"{ci(name)}(?=[\s/>]|\Z)(?P<raw_{name}>{ATTRS})>?" + raw_text_body(name)
               for name in RAW_TEXT_ELEMENTS + ("plaintext",)) + ")"
    + r"|(?P<start>" + TAG_NAME + ")(?P<attrs>" + ATTRS + ")>?)")
#: ``TOKEN_RE`` group of a raw-text element -> the element's name.
RAW_GROUPS = {f"raw_{name}": name for name in RAW_TEXT_ELEMENTS + ("plaintext",)}


#: A decimal character reference of more digits than ``int()`` reads from a string (Python
#: refuses over 4,300 digits, and ``html.unescape`` then raises).
_LONG_DECIMAL_REFERENCE = re.compile(r"&#([0-9]{100,})")


def _short_decimal_reference(match: re.Match[str]) -> str:
    digits = match.group(1).lstrip("0") or "0"
    # over 7 digits the number is above U+10FFFF, which html.unescape reads as U+FFFD
    return "&#" + (digits if len(digits) <= 7 else "1114112")


def unescape(text: str) -> str:
    """``html.unescape``, also for a decimal character reference of thousands of digits: read
    as ``html.unescape`` would read it if ``int()`` took that many (a hostile page must not
    fail a reader of its text)."""
    if "&#" in text:
        text = _LONG_DECIMAL_REFERENCE.sub(_short_decimal_reference, text)
    return html.unescape(text)

# cython: language_level=3, boundscheck=False
"""The tag scan's loop (``rawscan.scan``), compiled (optional): the same tags, spans, ids and
implied ends as the Python loop over ``TOKEN_RE``, with ordinary start and end tags read by
one C loop per character instead of a regex match and a dozen Python calls per tag.

Only the two common tokens are read here: a start tag whose name is not a raw-text
element's, and an end tag whose name starts with a letter. Their grammar is short: after the
name, attributes run to the first ``>`` outside a quoted value, and a quote opens a value
only right after ``=`` and white space (``htmltokenizer.ATTRS``). Everything else (comments,
doctypes, bogus comments, raw-text elements with their bodies, ``script``'s escapes) is
matched by ``TOKEN_RE`` itself at its ``<``, so the grammar of those stays in one place.
"""

from cpython.unicode cimport Py_UNICODE_ISSPACE
from libc.stdint cimport int64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy

from blocksift._tagsyntax cimport (
    PyUnicode_DATA,
    PyUnicode_FindChar,
    PyUnicode_KIND,
    PyUnicode_READ,
    PyUnicode_Substring,
    _ascii_lower,
    _attributes_end,
    _is_letter,
    _name_end,
    _spells,
    _tag_end,
)

from array import array


cdef struct Offsets:
    int64_t* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _push(Offsets* offsets, int64_t value) except -1:
    cdef int64_t* grown
    if offsets.size == offsets.capacity:
        offsets.capacity = offsets.capacity * 2 if offsets.capacity else 256
        grown = <int64_t*>realloc(offsets.data, offsets.capacity * sizeof(int64_t))
        if grown == NULL:
            raise MemoryError()
        offsets.data = grown
    offsets.data[offsets.size] = value
    offsets.size += 1
    return 0


cdef object _to_array(Offsets* offsets):
    """The offsets as ``array('q')``, as the Python scan leaves them."""
    out = array("q", bytes(offsets.size * sizeof(int64_t)))
    cdef long long[::1] view = out
    if offsets.size:
        memcpy(&view[0], offsets.data, offsets.size * sizeof(int64_t))
    return out


cdef bint _may_hold(int kind, void* data, Py_ssize_t start, Py_ssize_t end, str needle):
    """Whether ``needle`` (lower-case ASCII) may be in ``text[start:end].lower()``: True when
    it is there ASCII case-blind, or when the span holds one of the two characters whose
    ``str.lower`` is or starts with an ASCII letter (the Kelvin sign, a dotted capital I),
    which the caller leaves to ``str.lower``."""
    cdef Py_ssize_t length = len(needle), at, k
    cdef unsigned int first = <Py_UCS4>needle[0]
    cdef Py_UCS4 c
    if kind != 1:  # one byte a character: neither of the two can be there
        for at in range(start, end):
            c = PyUnicode_READ(kind, data, at)
            if c == 0x212A or c == 0x130:
                return True
    for at in range(start, end - length + 1):
        if _ascii_lower(PyUnicode_READ(kind, data, at)) != first:
            continue
        for k in range(1, length):
            if _ascii_lower(PyUnicode_READ(kind, data, at + k)) != <unsigned int><Py_UCS4>needle[k]:
                break
        else:
            return True
    return False


cdef bint _self_closed(int kind, void* data, Py_ssize_t start, Py_ssize_t end):
    """Whether attribute text ``text[start:end]`` ends in ``/`` before trailing white space."""
    while end > start and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1)):
        end -= 1
    return end > start and PyUnicode_READ(kind, data, end - 1) == u'/'


def scan_into(str html, object result, str id_needle, object token_match,
              dict raw_group_names, frozenset closes_p, dict implied_close, frozenset void, tuple raw_names,
              object attribute_present):
    """Fill ``result`` (a fresh ``rawscan.TagScan``) as ``rawscan.scan`` does; the Python
    module hands over its grammar's tables so that both read the same ones."""
    cdef Py_ssize_t n = len(html), pos = 0, lt, j, name_end, attrs_end, tag_end, whole_end
    cdef Py_ssize_t depth, ordinal
    cdef int kind = PyUnicode_KIND(html)
    cdef void* data = PyUnicode_DATA(html)
    cdef Py_UCS4 c
    cdef Offsets starts, name_ends, tag_ends, close_ends
    cdef list names = result.names, ids = result.ids, closed_over = result.closed_over
    cdef list stack = [], open_names = []
    cdef dict seen_names = {}
    cdef bint end_tag
    cdef object name, written, attrs, match, implied, group
    starts.data = name_ends.data = tag_ends.data = close_ends.data = NULL
    starts.size = name_ends.size = tag_ends.size = close_ends.size = 0
    starts.capacity = name_ends.capacity = tag_ends.capacity = close_ends.capacity = 0
    try:
        while True:
            lt = PyUnicode_FindChar(html, u'<', pos, n, 1)
            if lt < 0 or lt + 1 >= n:
                break
            j = lt + 1
            c = PyUnicode_READ(kind, data, j)
            end_tag = c == u'/' and j + 1 < n and _is_letter(PyUnicode_READ(kind, data, j + 1))
            if end_tag:
                j += 1
            elif not _is_letter(c):
                if c == u'!' or c == u'?' or c == u'/':
                    match = token_match(html, lt)  # a comment, doctype or bogus comment
                    pos = match.end() if match is not None else j
                else:
                    pos = j  # not a tag: "<" then anything else is text
                continue
            name_end = _name_end(kind, data, j, n)
            if end_tag:
                pos = _tag_end(html, kind, data, name_end, n)
                name = PyUnicode_Substring(html, j, name_end)
                # pop to the nearest open element of that name; a stray end tag is ignored
                if open_names and open_names[-1] == name:  # the current one, as written
                    close_ends.data[stack.pop()] = pos
                    open_names.pop()
                    continue
                name = name.lower()
                if open_names and open_names[-1] == name:
                    close_ends.data[stack.pop()] = pos
                    open_names.pop()
                elif name in open_names:
                    depth = len(open_names) - 1 - open_names[::-1].index(name)
                    while len(stack) > depth + 1:  # implicitly closed before this end tag
                        close_ends.data[stack.pop()] = lt
                        open_names.pop()
                    closed_over.append(stack[-1])
                    close_ends.data[stack.pop()] = pos
                    open_names.pop()
                continue
            if _spells(kind, data, j, name_end, raw_names):
                # a raw-text element and its body: TOKEN_RE reads it as the Python loop does
                match = token_match(html, lt)
                group = match.lastindex
                name = raw_group_names[group]
                attrs = match.group(group)
                name_end = lt + 1 + len(name)
                tag_end = min(match.end(group) + 1, n)
                whole_end = match.end()
                attrs_end = match.end(group)
                pos = whole_end
            else:
                written = PyUnicode_Substring(html, j, name_end)
                name = seen_names.get(written)
                if name is None:  # one string per name, not per tag
                    lowered = written.lower()
                    name = seen_names.setdefault(lowered, lowered)
                    seen_names[written] = name
                attrs_end = _attributes_end(html, kind, data, name_end, n)
                tag_end = attrs_end + 1 if attrs_end < n else n
                whole_end = -1
                attrs = None
                pos = tag_end
            if open_names:
                if open_names[-1] == "p" and name in closes_p:
                    close_ends.data[stack.pop()] = lt
                    open_names.pop()
                else:
                    implied = implied_close.get(name)
                    if implied is not None:
                        while open_names and open_names[-1] in implied:
                            close_ends.data[stack.pop()] = lt
                            open_names.pop()
            ordinal = len(names)
            names.append(name)
            _push(&starts, lt)
            _push(&name_ends, name_end)
            _push(&tag_ends, tag_end)
            if id_needle and attrs_end > name_end and (
                    attrs is not None or _may_hold(kind, data, name_end, attrs_end, id_needle)):
                if attrs is None:
                    attrs = PyUnicode_Substring(html, name_end, attrs_end)
                ids.append(attribute_present(attrs, id_needle) or None
                           if id_needle in attrs.lower() else None)
            else:
                ids.append(None)
            if whole_end >= 0:
                _push(&close_ends, whole_end)
            elif name not in void and not _self_closed(kind, data, name_end, attrs_end):
                _push(&close_ends, n)
                stack.append(ordinal)
                open_names.append(name)
            else:
                _push(&close_ends, tag_end)  # void or self-closed: the tag is all
        while stack:
            close_ends.data[stack.pop()] = n
        result.starts, result.name_ends = _to_array(&starts), _to_array(&name_ends)
        result.tag_ends, result.close_ends = _to_array(&tag_ends), _to_array(&close_ends)
    finally:
        free(starts.data)
        free(name_ends.data)
        free(tag_ends.data)
        free(close_ends.data)


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t, Py_UCS4)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object)
    Py_ssize_t PyUnicode_CopyCharacters(object, Py_ssize_t, object, Py_ssize_t,
                                        Py_ssize_t) except -1
    void PyUnicode_WRITE(int, void*, Py_ssize_t, Py_UCS4)


def stamp(str html, const long long[:] name_ends, str attr):
    """``rawscan.stamp``: ``html`` with `` attr="<ordinal>"`` after every start tag's name,
    written into one new string instead of joined from two pieces a tag."""
    cdef Py_ssize_t tags = name_ends.shape[0], ordinal, total = len(html), last = 0
    cdef Py_ssize_t at = 0, width, digits, k, prefix_length = len(attr) + 3
    cdef long long value
    cdef int kind
    cdef void* data
    cdef str prefix = " " + attr + '="'
    for ordinal in range(tags):  # the ordinals' digits: 1 for 0-9, 2 for 10-99, ...
        width = 1
        value = ordinal
        while value >= 10:
            value //= 10
            width += 1
        total += prefix_length + width + 1
    out = PyUnicode_New(total, max(PyUnicode_MAX_CHAR_VALUE(html),
                                   PyUnicode_MAX_CHAR_VALUE(prefix)))
    kind = PyUnicode_KIND(out)
    data = PyUnicode_DATA(out)
    for ordinal in range(tags):
        PyUnicode_CopyCharacters(out, at, html, last, name_ends[ordinal] - last)
        at += name_ends[ordinal] - last
        last = name_ends[ordinal]
        PyUnicode_CopyCharacters(out, at, prefix, 0, prefix_length)
        at += prefix_length
        digits = 1
        value = ordinal
        while value >= 10:
            value //= 10
            digits += 1
        value = ordinal
        for k in range(digits - 1, -1, -1):
            PyUnicode_WRITE(kind, data, at + k, <Py_UCS4>(48 + value % 10))
            value //= 10
        at += digits
        PyUnicode_WRITE(kind, data, at, u'"')
        at += 1
    PyUnicode_CopyCharacters(out, at, html, last, len(html) - last)
    return out

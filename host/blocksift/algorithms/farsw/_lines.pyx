# cython: language_level=3, boundscheck=False, wraparound=False
"""FAR-SW's lines and their measures (``lines.line_features``), compiled (optional): the same
rows as ``page_lines(page, params, with_text=False)``, §3.1-§3.2, from the page's tag scan.

The body's tokens (start tags from the scan, end tags, comments and text between them), the
newline lines, their re-split at block tags and each line's measures are kept in C: a line's
collapsed length is counted over its characters (non-space characters' UTF-8 bytes plus one
space between words, which is what ``" ".join(text.split())`` encoded holds), not built as
a string. Comments and bogus comments between tags are matched by ``lines._GAP_RE`` itself,
and an ``<a>``'s href is read by ``lines._has_href``: one grammar for both paths.
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
    _is_letter,
    _name_end,
    _tag_end,
)

import numpy as np

cdef enum:
    TEXT = 0
    START = 1
    END = 2
    LINE_BREAK = 3  # a newline inside text: the line ends there (§3.2)

cdef enum:
    BLOCK = 1  # a block-level start or end tag: long lines are re-split there
    LINK = 2   # an <a> start tag with an href (feature E)
    IMAGE = 4  # an <img> start tag (feature F)

cdef enum:
    MODE_SOURCE = 0
    MODE_BLOCKS = 1
    MODE_AUTO = 2


cdef struct Token:
    int kind
    int flags
    Py_ssize_t start
    Py_ssize_t end


cdef struct Tokens:
    Token* items
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _add(Tokens* tokens, int kind, Py_ssize_t start, Py_ssize_t end,
              int flags) except -1:
    cdef Token* grown
    if tokens.size == tokens.capacity:
        tokens.capacity = tokens.capacity * 2 if tokens.capacity else 1024
        grown = <Token*>realloc(tokens.items, tokens.capacity * sizeof(Token))
        if grown == NULL:
            raise MemoryError()
        tokens.items = grown
    tokens.items[tokens.size].kind = kind
    tokens.items[tokens.size].flags = flags
    tokens.items[tokens.size].start = start
    tokens.items[tokens.size].end = end
    tokens.size += 1
    return 0


cdef int _add_text(Tokens* tokens, str raw, Py_ssize_t start, Py_ssize_t end) except -1:
    """Text, cut at its newlines (a tag is never cut: §3.2's lines as ``_split_source``)."""
    cdef Py_ssize_t newline = PyUnicode_FindChar(raw, u'\n', start, end, 1)
    while newline != -1:
        if newline > start:
            _add(tokens, TEXT, start, newline, 0)
        _add(tokens, LINE_BREAK, newline, newline, 0)
        start = newline + 1
        newline = PyUnicode_FindChar(raw, u'\n', start, end, 1) if start < end else -1
    if end > start:
        _add(tokens, TEXT, start, end, 0)
    return 0


cdef int _add_gap(Tokens* tokens, str raw, int kind, void* data, Py_ssize_t at,
                  Py_ssize_t upto, object gap_match, frozenset useless,
                  frozenset structural_end, frozenset block_tags) except -1:
    """The text, end tags and dropped comments between two start tags (``_tokens``' gap):
    the matches of ``_GAP_RE`` in ``raw[at:upto]``, an end tag read here, the rest by it."""
    cdef Py_ssize_t text_from = at, search = at, lt, j, name_end, match_end
    cdef Py_UCS4 c
    while True:
        lt = PyUnicode_FindChar(raw, u'<', search, upto, 1)
        if lt < 0 or lt + 1 >= upto:
            break
        j = lt + 1
        c = PyUnicode_READ(kind, data, j)
        if c == u'/' and j + 1 < upto and _is_letter(PyUnicode_READ(kind, data, j + 1)):
            name_end = _name_end(kind, data, j + 1, upto)
            match_end = _tag_end(raw, kind, data, name_end, upto)
            if lt > text_from:
                _add_text(tokens, raw, text_from, lt)
            name = PyUnicode_Substring(raw, j + 1, name_end).lower()
            if name not in useless and name not in structural_end:
                _add(tokens, END, lt, match_end, BLOCK if name in block_tags else 0)
        elif c == u'!' or c == u'?' or c == u'/':
            match = gap_match(raw, lt, upto)  # a comment or bogus comment: dropped
            if match is None:
                search = j
                continue
            if lt > text_from:
                _add_text(tokens, raw, text_from, lt)
            match_end = match.end()
        else:
            search = j  # "<" and a letter (inside a kept element's text) or anything else
            continue
        text_from = search = match_end
    if upto > text_from:
        _add_text(tokens, raw, text_from, upto)
    return 0


cdef struct Rows:
    int64_t* values  # five a row
    Py_ssize_t size  # values held
    Py_ssize_t capacity


cdef int _add_row(Rows* rows, Py_ssize_t start, Py_ssize_t text_length,
                  Py_ssize_t output_length, Py_ssize_t links, Py_ssize_t images) except -1:
    cdef int64_t* grown
    if rows.size + 5 > rows.capacity:
        rows.capacity = rows.capacity * 2 if rows.capacity else 5 * 512
        grown = <int64_t*>realloc(rows.values, rows.capacity * sizeof(int64_t))
        if grown == NULL:
            raise MemoryError()
        rows.values = grown
    rows.values[rows.size] = start
    rows.values[rows.size + 1] = text_length
    rows.values[rows.size + 2] = output_length
    rows.values[rows.size + 3] = links
    rows.values[rows.size + 4] = images
    rows.size += 5
    return 0


cdef struct Collapsed:
    Py_ssize_t nonspace_bytes
    Py_ssize_t words
    bint in_word


cdef inline void _collapse(Collapsed* into, int kind, void* data, Py_ssize_t start,
                           Py_ssize_t end) noexcept:
    """Count ``raw[start:end]`` into ``into`` as if appended to what it counted already."""
    cdef Py_UCS4 c
    cdef Py_ssize_t at
    for at in range(start, end):
        c = PyUnicode_READ(kind, data, at)
        if Py_UNICODE_ISSPACE(c):
            into.in_word = False
            continue
        if not into.in_word:
            into.words += 1
            into.in_word = True
        # UTF-8 bytes ("surrogatepass": a lone surrogate takes three)
        into.nonspace_bytes += 1 if c < 0x80 else 2 if c < 0x800 else 3 if c < 0x10000 else 4


cdef inline Py_ssize_t _collapsed_bytes(Collapsed* counted) noexcept:
    return counted.nonspace_bytes + counted.words - 1 if counted.words else 0


cdef int _measure(Token* items, Py_ssize_t first, Py_ssize_t stop, int kind, void* data,
                  Rows* rows) except -1:
    """Features B, C, E, F of the line ``items[first:stop]`` (``_measure``); a blank line
    adds no row (§3.1)."""
    cdef Collapsed whole, output
    cdef Py_ssize_t i, links = 0, images = 0
    cdef Token* token
    whole.nonspace_bytes = whole.words = 0
    whole.in_word = False
    output.nonspace_bytes = output.words = 0
    output.in_word = False
    for i in range(first, stop):
        token = &items[i]
        _collapse(&whole, kind, data, token.start, token.end)
        if token.kind == TEXT:
            _collapse(&output, kind, data, token.start, token.end)
        elif token.kind == START:
            if token.flags & LINK:
                links += 1
            elif token.flags & IMAGE:
                images += 1
    if not whole.words:
        return 0
    _add_row(rows, items[first].start, _collapsed_bytes(&whole), _collapsed_bytes(&output),
             links, images)
    return 0


cdef int _measure_blocks(Token* items, Py_ssize_t first, Py_ssize_t stop, int kind,
                         void* data, Rows* rows) except -1:
    """The line re-split before block-level start tags and after block-level end tags
    (``_split_blocks``), each piece measured."""
    cdef Py_ssize_t i, piece = first
    for i in range(first, stop):
        if items[i].kind == START and items[i].flags & BLOCK and i > piece:
            _measure(items, piece, i, kind, data, rows)
            piece = i
        if items[i].kind == END and items[i].flags & BLOCK:
            _measure(items, piece, i + 1, kind, data, rows)
            piece = i + 1
    if piece < stop:
        _measure(items, piece, stop, kind, data, rows)
    return 0


cdef int _line(Token* items, Py_ssize_t first, Py_ssize_t stop, int kind, void* data,
               int mode, Py_ssize_t long_line, Rows* rows) except -1:
    """One newline line: measured whole or re-split as ``line_mode`` says (``page_lines``)."""
    cdef Collapsed whole
    cdef Py_ssize_t i
    if first >= stop:
        return 0
    if mode == MODE_BLOCKS:
        return _measure_blocks(items, first, stop, kind, data, rows)
    if mode == MODE_AUTO and items[stop - 1].end - items[first].start > long_line:
        whole.nonspace_bytes = whole.words = 0
        whole.in_word = False
        for i in range(first, stop):
            _collapse(&whole, kind, data, items[i].start, items[i].end)
        if _collapsed_bytes(&whole) > long_line:
            return _measure_blocks(items, first, stop, kind, data, rows)
    return _measure(items, first, stop, kind, data, rows)


def line_rows(str raw, const long long[:] starts, list names, const long long[:] tag_ends,
              const long long[:] close_ends, Py_ssize_t begin, Py_ssize_t stop,
              Py_ssize_t ordinal, frozenset useless, frozenset raw_text_names,
              frozenset structural_end, frozenset block_tags, str mode,
              Py_ssize_t long_line, object gap_match, object has_href):
    """``(start, text_length, output_length, links, images)`` of every line of the body
    ``raw[begin:stop]``, whose first start tag is ``ordinal`` (``lines._body_range``)."""
    cdef int kind = PyUnicode_KIND(raw)
    cdef void* data = PyUnicode_DATA(raw)
    cdef int mode_code = (MODE_SOURCE if mode == "source" else
                          MODE_BLOCKS if mode == "blocks" else MODE_AUTO)
    cdef Py_ssize_t cursor = begin, index, tag_start, tag_end, close_end, line_start, i
    cdef int flags
    cdef Tokens tokens
    cdef Rows rows
    cdef int64_t[:, ::1] out
    tokens.items = NULL
    tokens.size = tokens.capacity = 0
    rows.values = NULL
    rows.size = rows.capacity = 0
    try:
        # §3.1: the body's tokens, without useless elements and comments (``_tokens``)
        for index in range(ordinal, len(names)):
            tag_start = starts[index]
            if tag_start >= stop:
                break
            if tag_start < cursor:  # nested inside a removed element
                continue
            if tag_start > cursor:
                _add_gap(&tokens, raw, kind, data, cursor, tag_start, gap_match, useless,
                         structural_end, block_tags)
            name = names[index]
            tag_end, close_end = tag_ends[index], close_ends[index]
            if name in useless:
                cursor = max(close_end, tag_end)
                continue
            if close_end > tag_end and name in raw_text_names:
                tag_end = close_end  # a raw-text element kept whole as one tag
            flags = BLOCK if name in block_tags else 0
            if name == "a":
                if has_href(PyUnicode_Substring(raw, tag_start + 2, tag_end)):
                    flags |= LINK
            elif name == "img":
                flags |= IMAGE
            _add(&tokens, START, tag_start, tag_end, flags)
            cursor = tag_end
        if stop > cursor:
            _add_gap(&tokens, raw, kind, data, cursor, stop, gap_match, useless,
                     structural_end, block_tags)
        # §3.2: newline lines, each measured (re-split at block tags when long)
        line_start = 0
        for i in range(tokens.size):
            if tokens.items[i].kind == LINE_BREAK:
                _line(tokens.items, line_start, i, kind, data, mode_code, long_line, &rows)
                line_start = i + 1
        _line(tokens.items, line_start, tokens.size, kind, data, mode_code, long_line, &rows)
        found = np.empty((rows.size // 5, 5), dtype=np.int64)
        if rows.size:
            out = found
            memcpy(&out[0, 0], rows.values, rows.size * sizeof(int64_t))
        return found
    finally:
        free(tokens.items)
        free(rows.values)

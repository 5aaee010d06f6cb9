# cython: language_level=3, boundscheck=False
"""linkblocks' link scan (``linkblocks.scan_links``, seed 000 §3), compiled (optional): the
same links as the Python loop over ``_SCAN_RE``, found by one C loop over the page's ``<``.

Ordinary tags are passed over by the tag grammar in C (``_tagsyntax.pxd``); what the scan
must pass over whole (comments, bogus comments, the skipped elements with their content:
script and its escapes, style, noscript, ...) is matched by the same regular expressions the
Python scan is built from, at its ``<``, so that grammar stays in one place.
"""

from blocksift._tagsyntax cimport (
    PyUnicode_DATA,
    PyUnicode_FindChar,
    PyUnicode_KIND,
    PyUnicode_READ,
    _attributes_end,
    _is_letter,
    _name_end,
    _spells,
    _tag_end,
)


def scan_links(str raw, tuple skipped_names, object skipped_match, object comment_match,
               object has_href, object make_link):
    """``linkblocks.scan_links``: every link ``make_link(start, tag_end, text_end, end,
    closed)`` in source order. ``has_href(raw, start, end)`` reads an ``<a>``'s attribute
    text ``raw[start:end]``."""
    cdef Py_ssize_t n = len(raw), pos = 0, lt, j, name_end, attrs_end, tag_end
    cdef Py_ssize_t open_start = -1, open_tag_end = 0
    cdef bint open_is_link = False, is_a
    cdef int kind = PyUnicode_KIND(raw)
    cdef void* data = PyUnicode_DATA(raw)
    cdef Py_UCS4 c
    cdef list links = []
    while True:
        lt = PyUnicode_FindChar(raw, u'<', pos, n, 1)
        if lt < 0 or lt + 1 >= n:
            break
        j = lt + 1
        c = PyUnicode_READ(kind, data, j)
        if c == u'/' and j + 1 < n and _is_letter(PyUnicode_READ(kind, data, j + 1)):
            name_end = _name_end(kind, data, j + 1, n)
            tag_end = _tag_end(raw, kind, data, name_end, n)
            c = PyUnicode_READ(kind, data, j + 1)
            if name_end == j + 2 and (c == u'a' or c == u'A') and open_start >= 0:
                # </a>: the open link ends (a stray one is passed over as any end tag)
                if open_is_link:
                    links.append(make_link(open_start, open_tag_end, lt, tag_end, True))
                open_start = -1
            pos = tag_end
            continue
        if c == u'!' or c == u'?' or c == u'/':
            pos = comment_match(raw, lt).end()  # a comment or bogus comment, whole
            continue
        if not _is_letter(c):
            pos = j  # "<" and anything else is text
            continue
        name_end = _name_end(kind, data, j, n)
        is_a = name_end == j + 1 and (c == u'a' or c == u'A')
        if not is_a and _spells(kind, data, j, name_end, skipped_names):
            pos = skipped_match(raw, lt).end()  # a skipped element and its content, whole
            continue
        if not is_a:
            pos = _tag_end(raw, kind, data, name_end, n)
            continue
        attrs_end = _attributes_end(raw, kind, data, name_end, n)
        tag_end = attrs_end + 1 if attrs_end < n else n
        # an unclosed link ends at the next <a> (measured to its own start tag)
        if open_start >= 0 and open_is_link:
            links.append(make_link(open_start, open_tag_end, open_tag_end, open_tag_end, False))
        open_is_link = bool(has_href(raw, name_end, attrs_end))
        open_start, open_tag_end = lt, tag_end
        pos = tag_end
    if open_start >= 0 and open_is_link:
        links.append(make_link(open_start, open_tag_end, open_tag_end, open_tag_end, False))
    return links

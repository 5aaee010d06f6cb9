# cython: language_level=3, boundscheck=False, wraparound=False
"""Two checks of a raw page, compiled (optional): the same answers as the regular
expressions they stand in for (``page._MANY_ATTRIBUTES`` and ``repair._SWALLOWING_TAG`` with
``repair._last_swallowing_open``), in one C loop per start tag instead of the regex engine's
steps per character. They run on every page a crawl parses without the tag scan, where the
two searches were about a twentieth of the lite model's time (docs/scale.md).

Both try every ``<`` of the page, as a search does: a ``<`` inside a quoted value or inside
another tag is tried too."""

from cpython.unicode cimport Py_UNICODE_ISALNUM, Py_UNICODE_ISSPACE

cdef extern from "Python.h":
    Py_ssize_t PyUnicode_FindChar(object, Py_UCS4, Py_ssize_t, Py_ssize_t, int) except -2
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t)


cdef inline bint _is_name_char(Py_UCS4 c):
    """``[^\\s"'>/=]``: a character of an attribute's (or the tag's) name."""
    return not (c == u'"' or c == u"'" or c == u'>' or c == u'/' or c == u'='
                or Py_UNICODE_ISSPACE(c))


def has_tag_over(str raw, Py_ssize_t limit):
    """Whether some start tag of ``raw`` holds more than ``limit`` attributes, as the regex
    ``<[A-Za-z][^\\s"'>/=]*+(?>[\\s/]*+[^\\s"'>/=]++(?>\\s*+=\\s*+(?>"[^"]*+"|'[^']*+'|
    [^\\s>]*+))?+){limit+1}`` finds one: every repeat is possessive or atomic, so each
    attribute is read once, forwards, and the first that cannot be read ends the try."""
    cdef Py_ssize_t n = len(raw), at = 0, j, k, count
    cdef int kind = PyUnicode_KIND(raw)
    cdef void* data = PyUnicode_DATA(raw)
    cdef Py_UCS4 c, quote
    while True:
        at = PyUnicode_FindChar(raw, u'<', at, n, 1)
        if at < 0:
            return False
        j = at + 1
        at += 1  # the next try starts after this "<" whatever this one finds
        if j >= n:
            return False
        c = PyUnicode_READ(kind, data, j)
        if not ((u'a' <= c <= u'z') or (u'A' <= c <= u'Z')):
            continue
        j += 1
        while j < n and _is_name_char(PyUnicode_READ(kind, data, j)):
            j += 1
        count = 0
        while count <= limit:
            # [\s/]*+ then a name [^\s"'>/=]++
            while j < n:
                c = PyUnicode_READ(kind, data, j)
                if c == u'/' or Py_UNICODE_ISSPACE(c):
                    j += 1
                else:
                    break
            if j >= n or not _is_name_char(PyUnicode_READ(kind, data, j)):
                break
            j += 1
            while j < n and _is_name_char(PyUnicode_READ(kind, data, j)):
                j += 1
            count += 1
            # the optional value: \s*+ = \s*+ then a quoted or a bare value; without "=" the
            # group matches nothing and the attribute ends at its name
            k = j
            while k < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)):
                k += 1
            if k >= n or PyUnicode_READ(kind, data, k) != u'=':
                continue
            k += 1
            while k < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)):
                k += 1
            if k < n:
                quote = PyUnicode_READ(kind, data, k)
                if quote == u'"' or quote == u"'":
                    # a quote that never closes is no quoted value: the bare value takes it
                    j = PyUnicode_FindChar(raw, quote, k + 1, n, 1)
                    if j >= 0:
                        j += 1
                        continue
            j = k
            while j < n:
                c = PyUnicode_READ(kind, data, j)
                if c == u'>' or Py_UNICODE_ISSPACE(c):
                    break
                j += 1
        if count > limit:
            return True


# The raw-text elements of repair.SWALLOWING_ELEMENTS, lower case.
cdef tuple _NAMES = ("iframe", "noembed", "noframes", "textarea", "title", "xmp")


def swallowing_left_open(str raw):
    """Whether some raw-text element's last tag in ``raw`` is a start tag, as
    ``_last_swallowing_open(_SWALLOWING_TAG.finditer(raw))`` says (``<(/?)(name)\\b``,
    case-insensitive); None where a tag's name holds a letter outside ASCII that the regex
    folds to one of the names ("ı", "İ", "ſ"): that rare page is left to the regex."""
    cdef Py_ssize_t n = len(raw), at = 0, j, m, length
    cdef int kind = PyUnicode_KIND(raw)
    cdef void* data = PyUnicode_DATA(raw)
    cdef Py_UCS4 c
    cdef bint closing
    cdef str name
    cdef dict last_open = {}
    while True:
        at = PyUnicode_FindChar(raw, u'<', at, n, 1)
        if at < 0:
            break
        j = at + 1
        at += 1
        closing = j < n and PyUnicode_READ(kind, data, j) == u'/'
        if closing:
            j += 1
        if j >= n:
            continue
        c = PyUnicode_READ(kind, data, j)
        if c == 0x130 or c == 0x131 or c == 0x17f:
            return None
        if c > 127:
            continue
        if u'A' <= c <= u'Z':
            c = <Py_UCS4>(<unsigned int>c | 0x20)
        if not (c == u'i' or c == u'n' or c == u't' or c == u'x'):
            continue
        for name in _NAMES:
            length = len(name)
            if j + length > n:
                continue
            for m in range(length):
                c = PyUnicode_READ(kind, data, j + m)
                if c == 0x130 or c == 0x131 or c == 0x17f:
                    return None
                if u'A' <= c <= u'Z':
                    c = <Py_UCS4>(<unsigned int>c | 0x20)
                if c != <Py_UCS4>name[m]:
                    break
            else:
                # \b: the name is not followed by a word character
                if j + length < n:
                    c = PyUnicode_READ(kind, data, j + length)
                    if c == u'_' or Py_UNICODE_ISALNUM(c):
                        continue
                last_open[name] = not closing
                break
    return any(last_open.values())

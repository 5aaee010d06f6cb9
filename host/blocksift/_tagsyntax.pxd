"""The grammar of an ordinary tag in C, shared by the compiled scans (``_rawscan.pyx``,
``farsw/_lines.pyx``): the same reading as ``htmltokenizer.TAG_NAME`` and ``ATTRS``."""

from cpython.unicode cimport Py_UNICODE_ISSPACE


cdef extern from "Python.h":
    Py_ssize_t PyUnicode_FindChar(object, Py_UCS4, Py_ssize_t, Py_ssize_t, int) except -2
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t)
    object PyUnicode_Substring(object, Py_ssize_t, Py_ssize_t)


cdef inline bint _is_letter(Py_UCS4 c):
    return (u'a' <= c <= u'z') or (u'A' <= c <= u'Z')


cdef inline bint _ends_name(Py_UCS4 c):
    """``[\\s/>]``: where a tag name (``TAG_NAME``) ends."""
    return c == u'/' or c == u'>' or Py_UNICODE_ISSPACE(c)


cdef inline bint _ends_attribute_name(Py_UCS4 c):
    """``[\\s/>=]``: where an attribute's name ends."""
    return c == u'/' or c == u'>' or c == u'=' or Py_UNICODE_ISSPACE(c)


cdef inline Py_ssize_t _attributes_end(str text, int kind, void* data, Py_ssize_t at,
                                       Py_ssize_t n) except? -2:
    """Where ``htmltokenizer.ATTRS`` read from ``at`` ends: at the first ``>`` outside a
    value, or at ``n``. Each step is one of the regex's loop: separators ``[\\s/]++``, or a
    name (``=[^\\s/>=]*+`` or ``[^\\s/>=]++``) and an optional ``\\s*+=\\s*+`` value, a quoted
    one running to its quote (or the end of the text), an unquoted one to white space or
    ``>``."""
    cdef Py_ssize_t probe
    cdef Py_UCS4 c, quote
    while at < n:
        c = PyUnicode_READ(kind, data, at)
        if c == u'>':
            return at
        if c == u'/' or Py_UNICODE_ISSPACE(c):
            at += 1
            continue
        at += 1  # the name's first character: "=" or any other it may hold
        while at < n and not _ends_attribute_name(PyUnicode_READ(kind, data, at)):
            at += 1
        probe = at
        while probe < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, probe)):
            probe += 1
        if probe >= n or PyUnicode_READ(kind, data, probe) != u'=':
            continue  # no value: the white space is the next step's separator
        probe += 1
        while probe < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, probe)):
            probe += 1
        if probe < n:
            quote = PyUnicode_READ(kind, data, probe)
            if quote == u'"' or quote == u"'":
                probe = PyUnicode_FindChar(text, quote, probe + 1, n, 1)
                probe = probe + 1 if probe >= 0 else n
            else:
                while probe < n:
                    c = PyUnicode_READ(kind, data, probe)
                    if c == u'>' or Py_UNICODE_ISSPACE(c):
                        break
                    probe += 1
        at = probe
    return n


cdef inline Py_ssize_t _name_end(int kind, void* data, Py_ssize_t first,
                                 Py_ssize_t n) noexcept:
    """Where the tag name whose first letter is at ``first`` ends (``TAG_NAME``)."""
    first += 1
    while first < n and not _ends_name(PyUnicode_READ(kind, data, first)):
        first += 1
    return first


cdef inline Py_ssize_t _tag_end(str text, int kind, void* data, Py_ssize_t name_end,
                                Py_ssize_t n) except? -2:
    """Just after the tag whose name ends at ``name_end``: past its attributes and ``>``
    (``ATTRS>?``), or ``n`` when the text ends first."""
    cdef Py_ssize_t attributes_end = _attributes_end(text, kind, data, name_end, n)
    return attributes_end + 1 if attributes_end < n else n


cdef inline unsigned int _ascii_lower(Py_UCS4 c):
    """``c`` with ASCII capitals lowered, as a code point."""
    return <unsigned int>c + 32 if u'A' <= c <= u'Z' else <unsigned int>c


cdef inline int _spells(int kind, void* data, Py_ssize_t start, Py_ssize_t end,
                         tuple names) except -1:
    """Whether ``text[start:end]`` is one of ``names`` (lower-case ASCII), ASCII case-blind
    (as ``htmltokenizer.ci`` spells the raw-text and skipped elements' names)."""
    cdef Py_ssize_t length = end - start, k
    cdef str name
    for name in names:
        if len(name) != length:
            continue
        for k in range(length):
            if _ascii_lower(PyUnicode_READ(kind, data, start + k)) != <unsigned int><Py_UCS4>name[k]:
                break
        else:
            return True
    return False

# cython: language_level=3, boundscheck=False, wraparound=False
"""Two checks of a raw page, compiled (optional): the same answers as the regular
expressions they stand in for (``page._MANY_ATTRIBUTES`` and ``repair._SWALLOWING_TAG`` with
``repair._last_swallowing_open``), in one C loop per start tag instead of the regex engine's
steps per character. They run on every page a crawl parses without the tag scan, where the
two searches were about a twentieth of the lite model's time (docs/scale.md).

Both try every ``<`` of the page, as a search does: a ``<`` inside a quoted value or inside
another tag is tried too.

:class:`HintWords` reads the class and id words of a page for the segmenter's hints
(``features.HINTS``), the same bits as those regular expressions give, in one pass of an
automaton per word: a crawl meets about 120 words a page it has not seen, each a few
searches by the regex engine."""

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


cdef inline bint _is_fold(Py_UCS4 c):
    """A letter outside ASCII that the case-blind regex folds to one of the names' ("ı",
    "İ", "ſ")."""
    return c == 0x130 or c == 0x131 or c == 0x17f


cdef int _name_at(int kind, void* data, Py_ssize_t j, Py_ssize_t n, str name):
    """1 when ``name`` (lower case ASCII) starts at ``j`` whatever the case and is not
    followed by a word character (``\\b``), 0 when not, -1 at a folded letter."""
    cdef Py_ssize_t m, length = len(name)
    cdef Py_UCS4 c
    if j + length > n:
        return 0
    for m in range(length):
        c = PyUnicode_READ(kind, data, j + m)
        if _is_fold(c):
            return -1
        if u'A' <= c <= u'Z':
            c = <Py_UCS4>(<unsigned int>c | 0x20)
        if c != <Py_UCS4>name[m]:
            return 0
    if j + length < n:
        c = PyUnicode_READ(kind, data, j + length)
        if c == u'_' or Py_UNICODE_ISALNUM(c):
            return 0
    return 1


cdef Py_ssize_t _script_end(str raw, int kind, void* data, Py_ssize_t j, Py_ssize_t n):
    """Where the script whose ``<script`` name ends at ``j`` ends, as ``repair._SCRIPT``'s
    lazy ``.*?(?:</script\\s*>|\\Z)`` finds it: after the first ``</script`` that white space
    and a ``>`` follow, else the end; -1 at a folded letter."""
    cdef Py_ssize_t at = j, k
    cdef Py_UCS4 c
    cdef int found
    while True:
        at = PyUnicode_FindChar(raw, u'<', at, n, 1)
        if at < 0:
            return n
        if at + 1 < n and PyUnicode_READ(kind, data, at + 1) == u'/':
            k = at + 2
            found = 0
            if k + 6 <= n:
                for name_at in range(6):
                    c = PyUnicode_READ(kind, data, k + name_at)
                    if _is_fold(c):
                        return -1
                    if u'A' <= c <= u'Z':
                        c = <Py_UCS4>(<unsigned int>c | 0x20)
                    if c != <Py_UCS4>u"script"[name_at]:
                        break
                else:
                    found = 1
            if found:
                k += 6
                while k < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)):
                    k += 1
                if k < n and PyUnicode_READ(kind, data, k) == u'>':
                    return k + 1
        at += 1


def swallowing_left_open(str raw, bint outside_scripts=False):
    """Whether some raw-text element's last tag in ``raw`` is a start tag, as
    ``_last_swallowing_open(_SWALLOWING_TAG.finditer(raw))`` says (``<(/?)(name)\\b``,
    case-insensitive); ``outside_scripts``: in ``raw`` with ``repair._SCRIPT``'s matches
    blanked first (no copy of the page made). None where a tag's name holds a letter
    outside ASCII that the regex folds to one of the names ("ı", "İ", "ſ"): that rare page
    is left to the regex."""
    cdef Py_ssize_t n = len(raw), at = 0, j
    cdef int kind = PyUnicode_KIND(raw)
    cdef void* data = PyUnicode_DATA(raw)
    cdef Py_UCS4 c
    cdef bint closing
    cdef int matched
    cdef str name
    cdef dict last_open = {}
    while True:
        at = PyUnicode_FindChar(raw, u'<', at, n, 1)
        if at < 0:
            break
        j = at + 1
        at += 1
        if outside_scripts:
            matched = _name_at(kind, data, j, n, u"script")
            if matched < 0:
                return None
            if matched:
                at = _script_end(raw, kind, data, j + 6, n)
                if at < 0:
                    return None
                continue
        closing = j < n and PyUnicode_READ(kind, data, j) == u'/'
        if closing:
            j += 1
        if j >= n:
            continue
        c = PyUnicode_READ(kind, data, j)
        if _is_fold(c):
            return None
        if c > 127:
            continue
        if u'A' <= c <= u'Z':
            c = <Py_UCS4>(<unsigned int>c | 0x20)
        if not (c == u'i' or c == u'n' or c == u't' or c == u'x'):
            continue
        for name in _NAMES:
            matched = _name_at(kind, data, j, n, name)
            if matched < 0:
                return None
            if matched:
                last_open[name] = not closing
                break
    return any(last_open.values())


cdef class HintWords:
    """The hint bits of lower-case class and id words (``features._hint_value_bits``): the
    bits of every literal a word holds, read by one pass of an Aho-Corasick automaton
    (``goto``: the next state per state and character class, flat; ``state_bits``: the
    bits of the literals that end at a state), and ``token_bit`` when a part of the word
    between ``_`` and ``-`` (or its ends) is one of ``tokens`` (the ``ad`` pattern), looked
    for only where the automaton saw one of them (its bit ``maybe_token``)."""

    cdef const int[::1] char_class
    cdef const int[::1] goto
    cdef const long long[::1] state_bits
    cdef frozenset tokens
    cdef long long token_bit, maybe_token
    cdef Py_ssize_t n_classes

    def __init__(self, const int[::1] char_class, const int[::1] goto,
                 const long long[::1] state_bits, frozenset tokens, long long token_bit,
                 long long maybe_token):
        self.char_class, self.goto, self.state_bits = char_class, goto, state_bits
        self.tokens, self.token_bit, self.maybe_token = tokens, token_bit, maybe_token
        self.n_classes = goto.shape[0] // state_bits.shape[0]

    def bits(self, str word):
        """The bits of ``word``; -1 for a character outside ASCII (left to the regexes)."""
        cdef Py_ssize_t n = len(word), i, start = 0
        cdef int kind = PyUnicode_KIND(word)
        cdef void* data = PyUnicode_DATA(word)
        cdef int state = 0
        cdef long long found = 0
        cdef Py_UCS4 c
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if c >= 128:
                return -1
            state = self.goto[state * self.n_classes + self.char_class[c]]
            found |= self.state_bits[state]
        if found & self.maybe_token:
            found &= ~self.maybe_token
            for i in range(n + 1):
                if i == n or PyUnicode_READ(kind, data, i) == u'_' \
                        or PyUnicode_READ(kind, data, i) == u'-':
                    if i > start and word[start:i] in self.tokens:
                        found |= self.token_bit
                        break
                    start = i + 1
        return found

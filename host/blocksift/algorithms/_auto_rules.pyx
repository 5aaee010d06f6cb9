# cython: language_level=3, boundscheck=False, wraparound=False
"""auto-rules' per-element loops, compiled (optional), each giving what its Python
reference in ``auto_rules.py`` gives (``tests/algorithms/test_auto_rules_compiled.py``
checks they agree):

* the text measure (``auto_rules._tlen``): the same two numbers in one pass over the text's
  characters, where the Python function splits the text into a list of words and counts
  commas by nine searches; it runs on every text and tail of the tree;
* the measuring pass (``_measure_python``) and the cleaning pass (``_clean_content``'s
  loop): the same ``iterwalk`` and callbacks, with the measures in a C struct
  (:class:`Stat`) and counted without a Python call per element."""

from cpython.unicode cimport Py_UNICODE_ISSPACE
from lxml.etree import iterwalk as _iterwalk

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t)


cdef inline void _measure_text(str text, Py_ssize_t* length, Py_ssize_t* commas) noexcept:
    """:func:`text_length_and_commas` into ``length`` and ``commas``, without a tuple."""
    length[0] = 0
    commas[0] = 0
    if text is None:
        return
    cdef Py_ssize_t n = len(text), at, characters = 0, words = 0, found = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef bint in_word = False, counted = False
    cdef Py_UCS4 c
    for at in range(n):
        c = PyUnicode_READ(kind, data, at)
        if Py_UNICODE_ISSPACE(c):
            in_word = False
            continue
        characters += 1
        if not in_word:
            words += 1
            in_word = True
        if c == u',' or c == 0xFF0C or c == 0x060C:
            found += 1
            counted = True
        elif (c == 0xFE50 or c == 0xFE10 or c == 0xFE11 or c == 0x2E41 or c == 0x2E34
              or c == 0x2E32):
            found += 1
    if words:
        length[0] = characters + words - 1
        commas[0] = found if counted else 0


def text_length_and_commas(str text):
    """``(len(" ".join(text.split())), commas)``, commas being every comma character of
    ``auto_rules._COMMA_CHARS``, counted only when the text holds ``,``, ``，`` or ``،``
    (``_tlen``'s reading); ``(0, 0)`` for None or a text of white space only."""
    cdef Py_ssize_t n, c
    _measure_text(text, &n, &c)
    return n, c


# What auto_rules.py's tag sets say of a tag, as bits of the codes it passes in
# (auto_rules._TAG_CODES): the measure's skip and block rules and what _closed counts.
cdef enum:
    NON_TEXT = 1
    DIV_TO_P = 2
    LINK = 4
    PARAGRAPH = 8
    IMAGE = 16
    LIST_ITEM = 32
    INPUT = 64
    EMBED = 128
    HEADING = 256
    TABLE = 512


cdef class Stat:
    """``auto_rules._Stat`` as a C struct: the same fields, read and written the same way
    by the scoring and cleaning code (the compiled loops below make these)."""

    cdef public Py_ssize_t text, links, commas, inline, inline_commas
    cdef public bint block_desc
    cdef public Py_ssize_t p, img, li, li_text, inputs, embeds, heading_text, children

    def __repr__(self):
        return (f"Stat(text={self.text}, links={self.links}, commas={self.commas}, "
                f"inline={self.inline}, inline_commas={self.inline_commas}, "
                f"block_desc={self.block_desc}, p={self.p}, img={self.img}, li={self.li}, "
                f"li_text={self.li_text}, inputs={self.inputs}, embeds={self.embeds}, "
                f"heading_text={self.heading_text}, children={self.children})")


cdef inline void _add_child(Stat st, Stat child) noexcept:
    st.text += child.text
    st.links += child.links
    st.commas += child.commas
    st.p += child.p
    st.img += child.img
    st.li += child.li
    st.li_text += child.li_text
    st.inputs += child.inputs
    st.embeds += child.embeds
    st.heading_text += child.heading_text
    st.children += 1


cdef inline void _closed(Stat st, long code) noexcept:
    """``auto_rules._closed``: what the element itself adds at its end."""
    if code & LINK:
        st.links = st.text
    elif code & PARAGRAPH:
        st.p += 1
    elif code & IMAGE:
        st.img += 1
    elif code & LIST_ITEM:
        st.li += 1
        st.li_text += st.text
    elif code & INPUT:
        st.inputs += 1
    elif code & EMBED:
        st.embeds += 1
    elif code & HEADING:
        st.heading_text = st.text


cdef inline long _code(object tag, dict codes):
    """The tag's bits; -1 for what is not an element (a comment's tag is a function)."""
    if not isinstance(tag, str):
        return -1
    found = codes.get(tag)
    return 0 if found is None else <long>found


def measure(root, prune, dict stats, set pruned, dict codes):
    """``auto_rules._measure_python``'s loop: fills ``stats`` (element -> :class:`Stat`, in
    the order elements close) and ``pruned`` as it does, walking the same ``iterwalk``."""
    cdef list stack = []
    cdef Stat st, parent_stat
    cdef long code
    cdef Py_ssize_t n, c
    cdef object skipped = None  # a skipped element's end comes right after its start
    walker = _iterwalk(root, events=("start", "end"))
    skip_subtree = walker.skip_subtree
    for event, el in walker:
        code = _code(el.tag, codes)
        if event == "start":
            if code < 0 or code & NON_TEXT or (el is not root and prune(el)):
                skip_subtree()
                skipped = el
                if code >= 0 and not code & NON_TEXT:
                    pruned.add(el)
                continue
            st = Stat.__new__(Stat)
            _measure_text(el.text, &n, &c)
            st.text = st.inline = n
            st.commas = st.inline_commas = c
            stack.append(st)
            continue
        if el is skipped:
            parent_stat = stack[len(stack) - 1] if stack else None
        else:
            st = stack.pop()
            _closed(st, code)
            stats[el] = st
            parent_stat = stack[len(stack) - 1] if stack else None
            if parent_stat is not None:
                _add_child(parent_stat, st)
                if code & DIV_TO_P or st.block_desc:
                    parent_stat.block_desc = True
                else:
                    parent_stat.inline += st.text
                    parent_stat.inline_commas += st.commas
        if parent_stat is not None and el is not root:
            _measure_text(el.tail, &n, &c)
            if n:
                parent_stat.text += n
                parent_stat.inline += n
                parent_stat.commas += c
                parent_stat.inline_commas += c


def clean_content(list elements, pruned, always, conditional, is_marked_data_table,
                  bint protect_data_tables, dict codes):
    """``auto_rules._clean_content_python``'s loop: ``(exclude, kept_chars)``, calling
    ``always``, ``conditional`` and ``is_marked_data_table`` on the same elements in the
    same order with the same measures."""
    cdef set exclude = set()
    cdef Py_ssize_t kept_chars = 0, data_table_depth, n, c
    cdef list stack, tables
    cdef Stat st, parent_stat
    cdef long code
    cdef bint is_data, inside_table, drop
    cdef object skipped
    for element in elements:
        stack = []
        tables = []
        data_table_depth = 0
        skipped = None
        walker = _iterwalk(element, events=("start", "end"))
        skip_subtree = walker.skip_subtree
        for event, el in walker:
            code = _code(el.tag, codes)
            if event == "start":
                if code < 0 or code & NON_TEXT or \
                        (el is not element and (el in pruned or always(el))):
                    skip_subtree()
                    skipped = el
                    if code >= 0 and not code & NON_TEXT:
                        exclude.add(el)
                    continue
                st = Stat.__new__(Stat)
                _measure_text(el.text, &n, &c)
                st.text = n
                st.commas = c
                stack.append(st)
                if code & TABLE:
                    is_data = is_marked_data_table(el)
                    tables.append(is_data)
                    if is_data and protect_data_tables:
                        data_table_depth += 1
                continue
            if el is skipped:
                parent_stat = stack[len(stack) - 1] if stack else None
            else:
                st = stack.pop()
                _closed(st, code)
                if code & TABLE:
                    if tables.pop() and protect_data_tables:
                        data_table_depth -= 1
                inside_table = data_table_depth > 0
                drop = el is not element and conditional(el, st, inside_table)
                parent_stat = stack[len(stack) - 1] if stack else None
                if el is element:
                    kept_chars += st.text
                if drop:
                    exclude.add(el)
                elif parent_stat is not None:
                    _add_child(parent_stat, st)
            if parent_stat is not None and el is not element:
                _measure_text(el.tail, &n, &c)
                parent_stat.text += n
                parent_stat.commas += c
    return exclude, kept_chars

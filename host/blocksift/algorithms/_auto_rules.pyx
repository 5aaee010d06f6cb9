# cython: language_level=3, boundscheck=False, wraparound=False
"""auto-rules' text measure (``auto_rules._tlen``), compiled (optional): the same two
numbers in one pass over the text's characters, where the Python function splits the text
into a list of words and counts commas by nine searches. It runs on every text and tail of
the tree, more than a thousand times a page."""

from cpython.unicode cimport Py_UNICODE_ISSPACE

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t)


def text_length_and_commas(str text):
    """``(len(" ".join(text.split())), commas)``, commas being every comma character of
    ``auto_rules._COMMA_CHARS``, counted only when the text holds ``,``, ``，`` or ``،``
    (``_tlen``'s reading); ``(0, 0)`` for None or a text of white space only."""
    if text is None:
        return 0, 0
    cdef Py_ssize_t n = len(text), at, characters = 0, words = 0, commas = 0
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
            commas += 1
            counted = True
        elif (c == 0xFE50 or c == 0xFE10 or c == 0xFE11 or c == 0x2E41 or c == 0x2E34
              or c == 0x2E32):
            commas += 1
    if not words:
        return 0, 0
    return characters + words - 1, commas if counted else 0

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The loop of :func:`features.walk` over libxml2's nodes, compiled (optional).

It fills the same records as the Python loop, item for item: the Python loop stays the
reference and the fallback, and ``tests/algorithms/segmenter/test_walk_compiled.py``
checks the two agree. What it saves is the per-element Python work the loop cannot avoid
through lxml's API: a proxy object, a tag string, an attribute list and text strings for
every element. Here only blocks get a proxy, and only elements with attributes other than
``class`` (and the ordinal stamp) go back to Python (:func:`features._attribute_bits`).

Every attribute and text is read as lxml reads it (``_namespacedName``,
``_collectAttributes``, ``_collectText`` in lxml's ``apihelpers.pxi``).
"""

from cpython cimport array
from cpython.object cimport Py_SIZE
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdlib cimport free, realloc
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

cdef extern from "Python.h":
    # str's own white space (what str.split() splits on) and its storage
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cetree.import_lxml__etree()

# The own bits features.py gives meaning to, and its helpers, set once by configure().
cdef long long _BLOCK = 0, _BREAK = 0, _SKIP = 0, _NOT_ELEMENT = 0
cdef long long _IN_LINK = 0, _LD_LINK = 0, _HINT_MASK = 0, _HIDDEN = 0, _ITEMPROP = 0
cdef int _HINT_SHIFT = 0
cdef bytes _STAMP = b""
cdef str _LINE_BREAK = ""
cdef dict _ROLE_BITS = {}, _CLASS_BITS = {}
cdef object _hint_bits = None, _hidden_style = None, _class_bits = None
cdef list _PRESENCE = []  # (tag name as bytes, bit) of features.PRESENCE_BITS


def configure(*, long long block, long long line_break_bit, long long skip,
              long long not_element, long long in_link, long long ld_link,
              long long hint_mask, int hint_shift, long long hidden, long long itemprop,
              dict role_bits, hint_bits, hidden_style, dict class_bits_memo, class_bits,
              str stamp_attr, str line_break, dict presence_bits):
    """Take features.py's bit layout, constants and memoized helpers (called once, when it
    is imported)."""
    global _BLOCK, _BREAK, _SKIP, _NOT_ELEMENT, _IN_LINK, _LD_LINK, _HINT_MASK, _STAMP
    global _LINE_BREAK, _HINT_SHIFT, _HIDDEN, _ITEMPROP, _ROLE_BITS, _hint_bits, _hidden_style
    global _CLASS_BITS, _class_bits, _PRESENCE
    _BLOCK, _BREAK, _SKIP, _NOT_ELEMENT = block, line_break_bit, skip, not_element
    _IN_LINK, _LD_LINK, _HINT_MASK, _HINT_SHIFT = in_link, ld_link, hint_mask, hint_shift
    _HIDDEN, _ITEMPROP, _ROLE_BITS = hidden, itemprop, role_bits
    _hint_bits, _hidden_style = hint_bits, hidden_style
    _CLASS_BITS, _class_bits = class_bits_memo, class_bits
    _STAMP = stamp_attr.encode("utf-8")
    _LINE_BREAK = line_break
    _PRESENCE = [(name.encode("utf-8"), bit) for name, bit in presence_bits.items()]


cdef inline int _push(array.array values, long long value) except -1:
    cdef Py_ssize_t n = Py_SIZE(values)
    array.resize_smart(values, n + 1)
    values.data.as_longlongs[n] = value
    return 0


cdef inline bint _is_element(xmlNode* node) noexcept nogil:
    # lxml's _isElement: what iterating an element yields (comments, PIs, entities too)
    return (node.type == tree.XML_ELEMENT_NODE or node.type == tree.XML_COMMENT_NODE
            or node.type == tree.XML_ENTITY_REF_NODE or node.type == tree.XML_PI_NODE)


cdef inline xmlNode* _text_node_or_skip(xmlNode* node) noexcept nogil:
    # lxml's _textNodeOrSkip: text and CDATA nodes, stepping over XInclude markers
    while node is not NULL:
        if node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE:
            return node
        if node.type == tree.XML_XINCLUDE_START or node.type == tree.XML_XINCLUDE_END:
            node = node.next
        else:
            return NULL
    return NULL


cdef str _collect_text(xmlNode* first):
    """lxml's ``_collectText``: the adjacent text nodes from ``first`` joined; None when
    there are none ('' and None are alike to the walk: neither is a piece)."""
    cdef xmlNode* node = _text_node_or_skip(first)
    cdef xmlNode* start = node
    cdef const char* found = NULL
    cdef Py_ssize_t count = 0
    while node is not NULL:
        if node.content is not NULL and node.content[0] != 0:
            found = <const char*>node.content
        count += 1
        node = _text_node_or_skip(node.next)
    if found is NULL:
        return None
    if count == 1:
        return PyUnicode_DecodeUTF8(found, strlen(found), NULL)
    joined = b""
    node = start
    while node is not NULL:
        if node.content is not NULL:
            joined += <bytes>(<const char*>node.content)
        node = _text_node_or_skip(node.next)
    return joined.decode("utf-8")


cdef Py_ssize_t _collapsed_length(str text):
    """``len(" ".join(text.split()))``: characters with white space runs as one space and
    the ends stripped (features._collapse_len)."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(text), count = 0
    cdef bint gap = False
    for i in range(n):
        if Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            gap = count > 0
        else:
            if gap:
                count += 1
                gap = False
            count += 1
    return count


cdef long long _presence_below(xmlNode* top) except? -1:
    """The presence bits of the elements below ``top`` (a skipped element), as
    ``top.iter(*features.PRESENCE_BITS)`` finds them: names outside any namespace."""
    cdef xmlNode* node = top.children
    cdef long long found = 0
    cdef bytes name
    cdef long long bit
    while node is not NULL:
        if node.type == tree.XML_ELEMENT_NODE:
            if node.ns is NULL or node.ns.href is NULL:
                for name, bit in _PRESENCE:
                    if strcmp(<const char*>node.name, name) == 0:
                        found |= bit
            if node.children is not NULL:  # only an element's children are its subtree's
                node = node.children
                continue
        while node.next is NULL:  # climb back to the next sibling of an ancestor
            node = node.parent
            if node is top or node is NULL:
                return found
        node = node.next
    return found


cdef str _tag(xmlNode* node, cetree._Document doc):
    # lxml's _namespacedName; HTML parsers give no namespaces, so the proxy is rare
    if node.ns is not NULL and node.ns.href is not NULL:
        return cetree.elementFactory(doc, node).tag
    return PyUnicode_DecodeUTF8(<const char*>node.name, strlen(<const char*>node.name), NULL)


# The attributes the walk reads (features._ATTRIBUTES), as bits of the set an element has.
cdef enum:
    _CLASS = 1
    _ID = 2
    _ROLE = 4
    _HIDDEN_ATTR = 8
    _ARIA_HIDDEN = 16
    _STYLE = 32
    _ITEMPROP_ATTR = 64
    _HREF = 128
    _OTHER = 256  # any other name (the stamp apart), or one in a namespace


cdef int _attribute_set(xmlNode* node) noexcept:
    """Which of the read attributes ``node`` has, as lxml's keys() names them (a name in
    a namespace is "{uri}name", none of them)."""
    cdef xmlAttr* attr = node.properties
    cdef int present = 0
    cdef const char* name
    while attr is not NULL:
        if attr.type == tree.XML_ATTRIBUTE_NODE:
            name = <const char*>attr.name
            if attr.ns is not NULL and attr.ns.href is not NULL:
                present |= _OTHER
            elif strcmp(name, b"class") == 0:
                present |= _CLASS
            elif strcmp(name, b"id") == 0:
                present |= _ID
            elif strcmp(name, b"role") == 0:
                present |= _ROLE
            elif strcmp(name, b"hidden") == 0:
                present |= _HIDDEN_ATTR
            elif strcmp(name, b"aria-hidden") == 0:
                present |= _ARIA_HIDDEN
            elif strcmp(name, b"style") == 0:
                present |= _STYLE
            elif strcmp(name, b"itemprop") == 0:
                present |= _ITEMPROP_ATTR
            elif strcmp(name, b"href") == 0:
                present |= _HREF
            elif strcmp(name, _STAMP) != 0:
                present |= _OTHER
        attr = attr.next
    return present


cdef str _value(xmlNode* node, const char* name, cetree._Document doc):
    """``node.get(name)`` for an attribute it has: libxml2's xmlGetNoNsProp (the first
    such attribute outside any namespace; its one text child, or "" for none); values
    made of several nodes through lxml itself."""
    cdef xmlAttr* attr = node.properties
    while attr is not NULL:
        if attr.ns is NULL and strcmp(<const char*>attr.name, name) == 0:
            if attr.children is NULL:
                return ""
            if (attr.children.next is NULL and attr.children.content is not NULL
                    and (attr.children.type == tree.XML_TEXT_NODE
                         or attr.children.type == tree.XML_CDATA_SECTION_NODE)):
                return PyUnicode_DecodeUTF8(<const char*>attr.children.content,
                                            strlen(<const char*>attr.children.content), NULL)
            break
        attr = attr.next
    return cetree.elementFactory(doc, node).get((<bytes>name).decode("ascii"))


cdef long long _attribute_bits(xmlNode* node, int present, long long own, dict class_of,
                               long long index, cetree._Document doc) except? -1:
    """features._attribute_bits, reading libxml2's attributes directly (a class alone
    through the loop's own memo, features._class_bits)."""
    cdef long long bits = 0
    cdef str cls = None
    cdef object found
    if present == _CLASS:
        cls = _value(node, b"class", doc)
        class_of[index] = cls
        found = _CLASS_BITS.get(cls)
        return <long long>(_class_bits(cls) if found is None else found)
    if present & (_CLASS | _ID):
        if present & _CLASS:
            cls = _value(node, b"class", doc)
            class_of[index] = cls
        bits = <long long>_hint_bits(cls, _value(node, b"id", doc) if present & _ID
                                     else None) << _HINT_SHIFT
    if present & _ROLE:
        bits |= <long long>_ROLE_BITS.get(_value(node, b"role", doc), 0)
    if (present & _HIDDEN_ATTR
            or (present & _ARIA_HIDDEN and _value(node, b"aria-hidden", doc) == "true")
            or (present & _STYLE and _hidden_style(_value(node, b"style", doc)))):
        bits |= _HIDDEN
    if present & _ITEMPROP_ATTR and _value(node, b"itemprop", doc) == "articleBody":
        bits |= _ITEMPROP
    if present & _HREF and own & _IN_LINK:
        bits |= _LD_LINK
    return bits


cdef struct _Frame:
    xmlNode* node
    xmlNode* next_child
    long long index
    long long state
    long long block


cdef class _Pieces:
    """The text pieces' four parallel records (Walk.piece_text / piece_block, and the
    records' piece_at / piece_chars)."""
    cdef list text
    cdef array.array block, at, chars

    def __cinit__(self, list text, array.array block, array.array at, array.array chars):
        self.text, self.block, self.at, self.chars = text, block, at, chars

    cdef int add(self, xmlNode* first, long long at, long long block) except -1:
        cdef str text = _collect_text(first)
        cdef Py_ssize_t chars
        if text is None:
            return 0
        chars = _collapsed_length(text)
        self.text.append(text if chars else " ")
        _push(self.block, block)
        _push(self.at, at)
        _push(self.chars, chars)
        return 0

    cdef int line_break(self, long long at, long long block) except -1:
        self.text.append(_LINE_BREAK)
        _push(self.block, block)
        _push(self.at, at)
        _push(self.chars, 0)
        return 0


def walk_below(start, rec, out, dict tag_bits, long long start_state):
    """Walk ``start``'s subtree below it (the start's own record and text are the
    caller's), appending to ``rec`` (features._Records) and ``out`` (features.Walk) what
    the Python loop of :func:`features.walk` appends. Returns whether a ``head`` was met."""
    cdef cetree._Element start_element = start
    cdef cetree._Document doc = start_element._doc
    cdef array.array states = rec.state, parents = rec.parent
    cdef array.array closed_at = rec.closed_at, closed_end = rec.closed_end
    cdef array.array hinted_at = rec.hinted_at, hinted_own = rec.hinted_own
    cdef array.array anchor_block = rec.anchor_block, href_at = rec.href_at
    cdef array.array skipped_parent = rec.skipped_parent
    cdef long long skipped_presence = 0
    cdef array.array block_at = rec.block_at, block_parent = rec.block_parent
    cdef list element_tags = rec.tag, blocks = out.blocks, tags = out.tags
    cdef dict class_of = rec.class_of
    cdef _Pieces pieces = _Pieces(out.piece_text, out.piece_block, rec.piece_at,
                                  rec.piece_chars)
    cdef _Frame* frames = NULL
    cdef _Frame* grown
    cdef Py_ssize_t depth = 0, capacity = 0
    cdef xmlNode* node
    cdef xmlNode* child
    cdef long long index = 0, state = start_state, block = 0
    cdef long long own, child_index, child_state, child_block
    cdef bint head_inside = False
    cdef int present
    cdef str tag
    cdef object bits

    try:
        capacity = 64
        frames = <_Frame*>realloc(NULL, capacity * sizeof(_Frame))
        if frames is NULL:
            raise MemoryError()
        frames[0].node = start_element._c_node
        frames[0].next_child = start_element._c_node.children
        frames[0].index, frames[0].state, frames[0].block = 0, start_state, 0
        depth = 1
        while True:
            child = frames[depth - 1].next_child
            while child is not NULL and not _is_element(child):
                child = child.next
            if child is NULL:  # the innermost open element has no children left: it closes
                depth -= 1
                node = frames[depth].node
                _push(closed_at, index)
                _push(closed_end, Py_SIZE(states))
                if depth == 0:
                    break
                index = frames[depth - 1].index
                state = frames[depth - 1].state
                block = frames[depth - 1].block
                pieces.add(node.next, index, block)  # its tail is its parent's text
                continue
            node = child
            frames[depth - 1].next_child = node.next
            if node.type == tree.XML_ELEMENT_NODE:
                tag = _tag(node, doc)
                bits = tag_bits.get(tag)
                own = 0 if bits is None else <long long>bits
            else:  # comments, processing instructions, entities: skipped, tails kept
                tag = None
                own = _SKIP | _NOT_ELEMENT
            if own & _SKIP:
                if not own & _NOT_ELEMENT:  # a child of its parent all the same
                    _push(skipped_parent, index)
                    if tag == "head":  # linkdensity's view keeps it: its measures are unknown
                        head_inside = True
                    skipped_presence |= _presence_below(node)
                pieces.add(node.next, index, block)
                continue
            child_index = Py_SIZE(states)
            present = _attribute_set(node)
            if present & ~_OTHER:
                own |= _attribute_bits(node, present, own, class_of, child_index, doc)
                if own & _HINT_MASK:
                    _push(hinted_at, child_index)
                    _push(hinted_own, own)
            child_state = state | own
            _push(states, child_state)
            _push(parents, index)
            element_tags.append(tag)
            if own & _BLOCK:
                child_block = len(blocks)
                blocks.append(cetree.elementFactory(doc, node))
                tags.append(tag)
                _push(block_at, child_index)
                _push(block_parent, block)
            else:
                child_block = block
            if own & _IN_LINK:
                _push(anchor_block, child_block)
                if own & _LD_LINK:
                    _push(href_at, child_index)
            if own & _BREAK:
                pieces.line_break(child_index, child_block)
            pieces.add(node.children, child_index, child_block)
            child = node.children
            while child is not NULL and not _is_element(child):
                child = child.next
            if child is not NULL:  # descend: the node is the innermost open element now
                if depth == capacity:
                    grown = <_Frame*>realloc(frames, 2 * capacity * sizeof(_Frame))
                    if grown is NULL:
                        raise MemoryError()
                    frames, capacity = grown, 2 * capacity
                frames[depth].node = node
                frames[depth].next_child = child
                frames[depth].index = child_index
                frames[depth].state = child_state
                frames[depth].block = child_block
                depth += 1
                index, state, block = child_index, child_state, child_block
                continue
            pieces.add(node.next, index, block)  # a leaf closes at once; its tail is its parent's
    finally:
        free(frames)
    rec.skipped_presence = skipped_presence
    return head_inside

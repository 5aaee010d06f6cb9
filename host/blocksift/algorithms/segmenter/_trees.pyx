# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The trees' walk (trees.TreeEnsemble._walk) compiled (optional): the same doubled leaf
index of every (row, tree), found one pair at a time down its own path instead of level
by level over every pair, with the same splits and comparisons (``x <= threshold``; NaN
goes where the split's ``default_left`` says). The leaf values are then summed by numpy as
before, so the scores are the same to the bit."""

from libc.math cimport isnan
from libc.stdint cimport int32_t, uint8_t


cdef struct Node:
    # one node's split in one place (trees.NODE_DTYPE, aligned): a step reads one cache line
    double threshold
    int32_t feature  # -1 at a leaf
    int32_t left
    int32_t right
    uint8_t nan_left


cdef inline int32_t _leaf(const double[:, ::1] x, Py_ssize_t row, int32_t index,
                          const Node[::1] nodes) noexcept nogil:
    """The leaf ``row`` reaches from node ``index``."""
    cdef const Node* node = &nodes[index]
    cdef double value
    while node.feature >= 0:
        value = x[row, node.feature]
        if isnan(value):
            index = node.left if node.nan_left else node.right
        else:
            index = node.left if value <= node.threshold else node.right
        node = &nodes[index]
    return index


def leaf_states(const double[:, ::1] x, const int32_t[::1] roots, const Node[::1] nodes,
                Py_ssize_t[::1] out):
    """Fill ``out`` (rows x trees, row-major) with each pair's doubled leaf index."""
    cdef Py_ssize_t n_rows = x.shape[0], n_trees = roots.shape[0]
    cdef Py_ssize_t row, t
    with nogil:
        # tree by tree: one tree's nodes stay in the nearest cache while every row walks it
        # (row by row, each row went through all the trees' nodes, megabytes of them)
        for t in range(n_trees):
            for row in range(n_rows):
                out[row * n_trees + t] = 2 * <Py_ssize_t>_leaf(x, row, roots[t], nodes)


def leaf_values(const double[:, ::1] x, const int32_t[::1] roots, const Node[::1] nodes,
                const double[::1] value, double[::1] out):
    """Fill ``out`` (rows x trees, row-major) with the value of each pair's leaf: what
    ``value.take(leaf_states(...) // 2)`` gives, without the index array between."""
    cdef Py_ssize_t n_rows = x.shape[0], n_trees = roots.shape[0]
    cdef Py_ssize_t row, t
    with nogil:
        for t in range(n_trees):
            for row in range(n_rows):
                out[row * n_trees + t] = value[_leaf(x, row, roots[t], nodes)]

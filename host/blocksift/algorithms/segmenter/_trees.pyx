# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The trees' walk (trees.TreeEnsemble._walk) compiled (optional): the same doubled leaf
index of every (row, tree), found one pair at a time down its own path instead of level
by level over every pair, with the same node tables and the same comparisons (``x <=
threshold``; NaN goes where the split's ``default_left`` says). The leaf values are then
summed by numpy as before, so the scores are the same to the bit."""

from libc.math cimport isnan


def leaf_states(const double[:, ::1] x, const Py_ssize_t[::1] roots,
                const unsigned char[::1] inner, const Py_ssize_t[::1] split_feature,
                const double[::1] split_threshold, const unsigned char[::1] nan_left,
                const Py_ssize_t[::1] children, Py_ssize_t[::1] out):
    """Fill ``out`` (rows x trees, row-major) with each pair's doubled leaf index."""
    cdef Py_ssize_t n_rows = x.shape[0], n_trees = roots.shape[0]
    cdef Py_ssize_t row, t, state
    cdef double value
    cdef bint go_left
    with nogil:
        for row in range(n_rows):
            for t in range(n_trees):
                state = roots[t]
                while inner[state]:
                    value = x[row, split_feature[state]]
                    if isnan(value):
                        go_left = nan_left[state]
                    else:
                        go_left = value <= split_threshold[state]
                    state = children[state + go_left]
                out[row * n_trees + t] = state

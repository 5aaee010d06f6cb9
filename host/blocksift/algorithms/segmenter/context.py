"""Page context of the first model's block probabilities, for the second (stacked) model.

A block model sees each block with a fixed window of its surroundings; whether a block is
main also depends on how the page's other blocks scored: the best block of a page of
listings may score low, a card whose siblings are all main is main. These features
summarize the first model's probabilities over the page, the neighbours in document order
and the block's containers one to three levels up (blocks of one container are recognized
by equal container measures, so training rows and runtime rows get the same groups).
"""

from __future__ import annotations

import numpy as np

from . import features as feats

#: Column names of :func:`context_features`, in order.
CONTEXT_NAMES = (
    "ctx_prob", "ctx_page_max", "ctx_page_mean", "ctx_of_max", "ctx_rank",
    "ctx_page_main_words", "ctx_prev", "ctx_next", "ctx_window", "ctx_window_max",
    "ctx_up1_mean", "ctx_up1_main_share", "ctx_up2_mean", "ctx_up2_main_share",
    "ctx_up3_mean", "ctx_up3_main_share",
)
#: Probability from which a block counts as main in the context measures.
CONTEXT_MAIN = 0.3
_GROUP_MEASURES = ("tag", "chars", "blocks", "children", "depth_below", "same_sig")
_WINDOW = 3


def _group_of(blocks: feats.Blocks, level: int) -> np.ndarray:
    """An id per row, equal for rows whose container ``level`` up has equal measures.

    Rows sorted by all measures at once (``lexsort``; ``np.unique(axis=0)`` sorts a
    structured view and is several times slower), a new id wherever a row differs from the
    one before; ids count up in sorted order, as ``np.unique``'s inverse does."""
    keys = np.column_stack([blocks.column(f"up{level}_{m}") for m in _GROUP_MEASURES])
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    starts = np.empty(len(keys), dtype=bool)
    starts[:1] = True
    np.any(ordered[1:] != ordered[:-1], axis=1, out=starts[1:])
    group = np.empty(len(keys), dtype=np.intp)
    group[order] = np.cumsum(starts) - 1
    return group


def _group_means(group: np.ndarray, values: np.ndarray, weight: np.ndarray) -> np.ndarray:
    total = np.bincount(group, weights=values * weight)
    mass = np.bincount(group, weights=weight)
    return (total / mass)[group]


def _ranks(prob: np.ndarray) -> np.ndarray:
    """Each row's place when sorted by falling probability (ties in row order)."""
    ranks = np.empty(len(prob), dtype=np.intp)
    ranks[np.argsort(-prob, kind="stable")] = np.arange(len(prob))
    return ranks


def context_features(blocks: feats.Blocks, prob: np.ndarray) -> np.ndarray:
    """Context columns (:data:`CONTEXT_NAMES`) of one page's blocks, from their features
    (``feats.Blocks(features=matrix)`` for a matrix) and the first model's main
    probabilities."""
    n = len(prob)
    if not n:
        return np.zeros((0, len(CONTEXT_NAMES)))
    weight = blocks.column("own_words") + 1.0
    main = (prob >= CONTEXT_MAIN).astype(np.float64)
    top = float(prob.max())
    padded = np.concatenate([np.full(_WINDOW, np.nan), prob, np.full(_WINDOW, np.nan)])
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * _WINDOW + 1)
    columns = [
        prob,
        np.full(n, top),
        np.full(n, float(np.average(prob, weights=weight))),
        prob / max(top, 1e-9),
        _ranks(prob) / n,
        np.full(n, float(np.average(main, weights=weight))),
        np.concatenate([[-1.0], prob[:-1]]),
        np.concatenate([prob[1:], [-1.0]]),
        np.nanmean(windows, axis=1),
        np.nanmax(windows, axis=1),
    ]
    for level in (1, 2, 3):
        group = _group_of(blocks, level)
        columns.append(_group_means(group, prob, weight))
        columns.append(_group_means(group, main, weight))
    return np.column_stack(columns).astype(np.float64, copy=False)

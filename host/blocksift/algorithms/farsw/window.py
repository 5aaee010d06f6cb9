"""FAR-SW §3.4 sliding window and §3.5 line and block Score."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# --------------------------------------------------------------------------------------------
# §3.4 sliding window and §3.5 Score
# --------------------------------------------------------------------------------------------


def sliding_window(flags: Sequence[bool], phi: int, include_bounds: bool = True
                   ) -> list[tuple[int, int]]:
    """Step 7: potential topical blocks as inclusive (start, end) line indices.

    Topical lines with at most ``phi - 1`` non-topical lines between them share a block; the
    block runs from the line just before its first topical line to the line just after its
    last (clipped at the page ends). ``phi = 0`` makes every topical line its own block.
    """
    topical = [i for i, flag in enumerate(flags) if flag]
    blocks: list[tuple[int, int]] = []
    n = len(flags)
    if not topical:
        return blocks
    first = last = topical[0]
    for index in topical[1:]:
        if phi > 0 and index - last <= phi:
            last = index
            continue
        blocks.append((first, last))
        first = last = index
    blocks.append((first, last))
    if include_bounds:
        blocks = [(max(a - 1, 0), min(b + 1, n - 1)) for a, b in blocks]
    return blocks


def line_scores(features: np.ndarray, normalization: str = "rank") -> np.ndarray:
    """Equation (4): Score(p_i) = |T_i| + |O_i| + |D_i| - |L_i| - |I_i| (max 3).

    T = TextLength, O = OutputTextLength, D = Density, L = LinkNum, I = ImgNum, each in
    [0, 1]. 'rank': T and O are the share of the page's lines with a strictly smaller value
    (a length's heavy tail would crush a maximum), L and I are value / page maximum (most
    lines have 0 links, so a rank would punish a single link as hard as a menu); 'max':
    every one is value / page maximum.
    """
    n = len(features)
    if not n:
        return np.zeros(0)

    def norm(column: np.ndarray) -> np.ndarray:
        if normalization == "max":
            return by_max(column)
        ordered = np.sort(column)
        return np.searchsorted(ordered, column, side="left") / max(n - 1, 1)

    def by_max(column: np.ndarray) -> np.ndarray:
        top = column.max()
        return column / top if top > 0 else np.zeros_like(column)

    density = np.clip(features[:, 3], 0.0, 1.0)
    return (norm(features[:, 1]) + norm(features[:, 2]) + density
            - by_max(features[:, 4]) - by_max(features[:, 5]))


def block_score(scores: np.ndarray, start: int, end: int) -> float:
    """Equation (5): the mean line Score over the block's lines, bounds included."""
    if end < start:
        return 0.0
    return float(np.mean(scores[start:end + 1]))

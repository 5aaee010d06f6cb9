"""FAR-SW Stage 2: extraction of the main text of a page with a model."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...page import Page
from ...rawscan import STAMP_ATTR
from ...wire.results import Block, ExtractionResult, MainText
from .lines import PageLines, page_lines
from .model import FarswModel, default_model
from .params import NAME, Params
from .rules import topical_flags
from .window import block_score, line_scores, sliding_window

# --------------------------------------------------------------------------------------------
# Extraction (Stage 2)
# --------------------------------------------------------------------------------------------


@dataclass
class Analysis:
    """Every intermediate of Stage 2 for one page (evaluation and tests read these)."""

    lines: PageLines
    flags: np.ndarray
    scores: np.ndarray
    blocks: list[tuple[int, int]]
    block_scores: list[float]
    chosen: list[int]
    site: str = ""
    fallback: bool = False


def analyse(page: Page, params: Params, model: FarswModel,
            lines: PageLines | None = None) -> Analysis:
    """Stage 2 up to block selection: Steps 6-7 and Equations (4)-(5)."""
    if lines is None:
        lines = page_lines(page, params)
    ruleset, site = model.ruleset_for(page.url)
    flags = topical_flags(lines.features, ruleset, params)
    scores = line_scores(lines.features, params.score_normalization)
    blocks = sliding_window(flags, params.phi, params.include_bounds)
    bscores = [block_score(scores, a, b) for a, b in blocks]
    chosen = [k for k, s in enumerate(bscores) if s > params.score_cutoff]
    fallback = False
    if not chosen and bscores and params.fallback_best_block:
        chosen = [int(np.argmax(bscores))]
        fallback = True
    return Analysis(lines, flags, scores, blocks, bscores, chosen, site, fallback)


def extract(page: Page, params: Params | None = None, model: FarswModel | None = None
            ) -> ExtractionResult:
    """FAR-SW main-text extraction (§3, Stage 2) with the rules of ``model``.

    ``model`` None: the packaged default model. Extraction reads no file: the caller loads
    the user's model (:func:`load_model`) and passes it.
    """
    params = params or Params()
    if model is None:
        model = default_model()
    lines = page_lines(page, params)
    n = len(lines.lines)
    stats: dict[str, float] = {"lines": float(n)}
    if not n:
        return ExtractionResult(algorithm=NAME, status="empty", stats=stats,
                                message="the page body has no text lines")
    if n > params.max_lines:
        return ExtractionResult(algorithm=NAME, status="not_suitable", stats=stats,
                                message=f"{n} lines exceed max_lines={params.max_lines}")
    result = analyse(page, params, model, lines)
    stats.update({"topical_lines": float(result.flags.sum()),
                  "potential_blocks": float(len(result.blocks)),
                  "chosen_blocks": float(len(result.chosen))})
    notes = _shape_mismatch(params, model)
    stage = f"site:{result.site}" if result.site else "inter-site"
    if result.fallback:
        stage += ",fallback"
        notes.append(f"no block scores above {params.score_cutoff}; kept the best one")
    if not result.chosen:
        why = ("no line satisfies the rules" if not result.flags.any()
               else f"no block scores above {params.score_cutoff}")
        return ExtractionResult(algorithm=NAME, status="empty", stats=stats, stage=stage,
                                message="; ".join([why, *notes]))
    blocks: list[Block] = []
    texts: list[str] = []
    elements: list[Any] = []
    spans = []
    for k in result.chosen:
        a, b = result.blocks[k]
        chosen_lines = lines.lines[a:b + 1]
        start, end = chosen_lines[0].start, chosen_lines[-1].end
        spans.append((start, end))
        texts.extend(line.text for line in chosen_lines if line.text)
        ordinals = _ordinals_within(page, start, end)
        ids = [i for i in (page.tags.ids[o] for o in ordinals) if i is not None]
        blocks.append(Block(kind="main", algorithm=NAME, score=round(result.block_scores[k], 4),
                            start=start, end=end, element_ids=ids,
                            link_count=sum(line.links for line in chosen_lines),
                            features={"first_line": float(a + 1), "last_line": float(b + 1),
                                      "topical_lines": float(result.flags[a:b + 1].sum())}))
    from ...content import outermost, render_main

    per_block = [_ordinals_within(page, start, end) for start, end in spans]
    by_ordinal = _elements_by_ordinal(page, {o for ordinals in per_block for o in ordinals})
    for ordinals in per_block:
        elements.extend(by_ordinal[o] for o in ordinals if o in by_ordinal)
    rendered = render_main(page, elements) if elements else MainText(title=page.title)
    main = rendered.model_copy(update={"text": "\n\n".join(texts)})
    if not page.has_ids:
        blocks = [blk.model_copy(update={"xpaths": [
            page.xpath(e) for e in outermost([by_ordinal[o] for o in ordinals
                                              if o in by_ordinal])]})
            for blk, ordinals in zip(blocks, per_block, strict=True)]
    return ExtractionResult(algorithm=NAME, status="ok", blocks=blocks, main=main,
                            stats=stats, stage=stage, message="; ".join(notes),
                            extra={"analysis": result})


def _shape_mismatch(params: Params, model: FarswModel) -> list[str]:
    """Notes when the page is shaped differently from the model's training pages."""
    notes = []
    for key in ("line_mode", "index_normalization", "two_region_bce"):
        if key in model.params and model.params[key] != getattr(params, key):
            notes.append(f"model trained with {key}={model.params[key]!r}")
    return notes


def _ordinals_within(page: Page, start: int, end: int) -> list[int]:
    """Ordinals of the start tags whose element lies wholly inside [start, end)."""
    tags = page.tags
    first = bisect.bisect_left(tags.starts, start)
    last = bisect.bisect_left(tags.starts, end)
    return [o for o in range(first, last) if tags.close_ends[o] <= end]


def _elements_by_ordinal(page: Page, wanted: set[int]) -> dict[int, Any]:
    """Tree elements of the given source ordinals, in one walk of the tree."""
    found: dict[int, Any] = {}
    if not wanted:
        return found
    for element in page.tree.iter():
        if isinstance(element.tag, str):
            value = element.get(STAMP_ATTR)
            if value is not None and int(value) in wanted:
                found[int(value)] = element
    return found

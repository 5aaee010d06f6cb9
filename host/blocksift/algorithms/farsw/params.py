"""FAR-SW settings (seed 004) and the names of its features and regions."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

NAME = "farsw"
MODEL = "trained"

#: Version of the JSON model format written by :func:`train`.
MODEL_FORMAT_VERSION = 1

#: The six features of §3.2, in the paper's order and with its letters.
FEATURES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")
FEATURE_NAMES = {"A": "Index", "B": "TextLength", "C": "OutputTextLength", "D": "Density",
                 "E": "LinkNum", "F": "ImgNum"}
#: Fig. 3 regions, and the two regions of Fig. 7 for B, C, E when ``two_region_bce`` is on.
REGIONS3 = ("Low", "Middle", "High")
REGIONS2 = ("Low'", "High'")
TWO_REGION_FEATURES = frozenset({"B", "C", "E"})


class Params(BaseModel):
    """FAR-SW settings (seed 004).

    Where the paper gives a value (alpha, support, significance, phi, score_cutoff, the
    block bounds, Index as i/N) the default is that value. Where it gives none, the default
    is a documented decision (``useless_tags``, ``score_normalization``, ``page_weighting``,
    ``label_overlap``, ``max_lines``). One default departs from the paper on purpose:
    ``line_mode="auto"`` re-splits long lines where the paper reads newline lines
    (``"source"``), because minified pages put the whole page on a few lines.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    alpha: float = Field(0.5, ge=0.0, le=1.0, description="Weight of the topical region in "
                         "MIN/Mean/MAX, Equations (1)-(3), §3.3 (paper: 0.5)")
    support: float = Field(0.5, gt=0.0, le=1.0, description="Apriori minimum support, Step 5, "
                           "§3.3 (paper: 0.5)")
    significance: float = Field(0.5, ge=0.0, le=1.0, description="Membership below which a "
                                "region is dropped, Step 4, and below which a line fails a "
                                "rule item, §3.3 (paper: 0.5)")
    phi: int = Field(5, ge=0, le=1000, description="Sliding-window length: at most phi - 1 "
                     "non-topical lines inside a block, Step 7, §3.4 (paper: 5; 0 = no window)")
    score_cutoff: float = Field(1.5, description="A block is informative when its mean line "
                                "Score exceeds this, Equation (5), §3.5 (paper: 1.5)")
    include_bounds: bool = Field(True, description="Blocks include the non-topical line just "
                                 "before and after, §3.4 (paper: 286-300 for topical 287-299)")
    useless_tags: tuple[str, ...] = Field(
        ("script", "style", "noscript", "template", "iframe", "svg", "canvas", "object",
         "embed"),
        description="Elements removed with their content, §3.1 step 3 (Table 1 is garbled; "
                    "script and style at least); comments are always removed")
    line_mode: Literal["source", "blocks", "auto"] = Field(
        "auto", description="Lines: 'source' = newline lines as the paper (§3.2); 'blocks' = "
        "also break at block-level tags; 'auto' = re-split only lines longer than "
        "long_line_chars. The default 'auto' departs from the paper, for minified HTML")
    attach_tag_lines: bool = Field(False, description="Join lines holding only tags to the "
                                   "next line with text, so `<p>`/`</p>` lines of pretty-"
                                   "printed HTML do not dilute a block's Score (decision)")
    long_line_chars: int = Field(2000, ge=1, description="In line_mode 'auto', a cleaned line "
                                 "longer than this is re-split at block-level tags (decision)")
    index_normalization: bool = Field(True, description="Index as i/N, §3.2 (the paper's "
                                      "setting when training pages come from several sites)")
    score_normalization: Literal["rank", "max"] = Field(
        "rank", description="How T, O, L, I are brought into [0, 1] for Score, §3.5 "
        "(unspecified): 'rank' = T and O as the share of the page's lines with a smaller "
        "value, L and I as value / page maximum; 'max' = every one as value / page maximum")
    fallback_best_block: bool = Field(False, description="When no block scores above the "
                                      "cutoff, keep the best-scoring block (stage "
                                      "'fallback'; departure, off = the paper)")
    two_region_bce: bool = Field(False, description="Low'/High' regions for B, C, E as in "
                                 "§4.1 Fig. 7 (figure missing; our reading), off by default")
    page_weighting: Literal["lines", "pages"] = Field(
        "pages", description="Training on several pages (the paper's example is one page): "
        "'pages' = every page weighs the same in Steps 2 and 5 (its topical lines share "
        "weight 1), 'lines' = every topical line weighs 1 (decision; see docs/farsw.md)")
    line_weighting: Literal["count", "bytes"] = Field(
        "count", description="Weight of a topical line in Steps 2 and 5: 'count' = 1 as in "
        "the paper (support 13/13), 'bytes' = its output text bytes (departure)")
    label_overlap: float = Field(0.5, gt=0.0, le=1.0, description="Training: share of a "
                                 "line's 4-gram shingles found in the gold text for the line to "
                                 "count as topical (decision; the paper labels by hand)")
    max_lines: int = Field(200_000, ge=1, description="Pages with more lines are declined "
                           "(not_suitable) to bound time and memory")

    def feature_shaping(self) -> dict[str, Any]:
        """The fields that change a line's features or regions (recorded in a model)."""
        return {k: getattr(self, k) for k in (
            "useless_tags", "line_mode", "long_line_chars", "attach_tag_lines",
            "index_normalization",
            "two_region_bce", "label_overlap", "alpha", "support", "significance",
            "page_weighting", "line_weighting")}

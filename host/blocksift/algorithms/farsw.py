"""FAR-SW: fuzzy association rules and a sliding window over HTML lines (seed 004).

Zhan Bu, Chengcui Zhang, Zhengyou Xia, Jiandong Wang, "An FAR-SW based approach for
webpage information extraction" (Information Systems Frontiers, 2014). Implemented:

* §3.1 preprocessing: the text between the ``<body>`` tags, blank lines and redundant
  white-space deleted, "useless" elements removed with their content;
* §3.2 one feature vector per line: A Index (i/N), B TextLength, C OutputTextLength
  (UTF-8 bytes), D Density = C/B, E LinkNum, F ImgNum;
* §3.3 Equations (1)-(3) (MIN/Mean/MAX weighted by alpha = 0.5), the Fig. 3 membership
  functions, Steps 1-5 (scalar cardinality, best region per feature, significance 0.5,
  Apriori at support 0.5, adoption of the rules with the most items);
* §3.4 Steps 6-7: a line is topical when it satisfies an adopted rule; topical lines with at
  most Phi - 1 non-topical lines between them form a block bounded by the non-topical line
  just before and just after (Phi = 5);
* §3.5 Equations (4)-(5): line Score = T + O + D - L - I on normalised features, a block is
  kept when its mean line Score is > 1.5; the kept blocks are the main text.

Decisions where the paper is silent or garbled (each a named :class:`Params` field):

* ``useless_tags`` (§3.1, Table 1 is garbled): script, style, noscript, template, iframe,
  svg, canvas, object, embed and HTML comments are removed with their content.
* ``line_mode`` (§3.2 works on source lines): ``"source"`` keeps the paper's newline lines;
  ``"blocks"`` breaks before every block-level start tag and after every block-level end
  tag; ``"auto"`` (default) keeps source lines and re-splits only a line longer than
  ``long_line_chars`` that way, because minified HTML (and the live DOM of many modern
  pages) puts a whole page on a few lines, where one "line" would hold the whole page. A
  tag is never split across lines (the paper's raw lines can be; counting tags needs them
  whole).
* ``score_normalization`` (§3.5 says only "normalised to [0, 1]"): ``"rank"`` (default)
  maps the two lengths T and O to the fraction of the page's lines with a strictly smaller
  value, so one giant line cannot crush every other line, and divides the two counts L and
  I by the page maximum (most lines have none); ``"max"`` divides all four by the page
  maximum. D is a ratio already in [0, 1].
* ``index_normalization`` (§3.2): Index is i/N by default (the paper's setting for training
  on several sites); the other features stay in bytes and counts.
* Training statistics (Equations (1)-(3)) over several pages: MIN/Mean/MAX are computed per
  page for its topical and non-topical lines and averaged over the training pages (a pooled
  minimum or maximum over hundreds of pages is an outlier, not a template property); on one
  page this is exactly the paper's computation.
* ``page_weighting`` (default ``"pages"``): in Steps 2 and 5 every training page weighs 1,
  shared by its topical lines, so pages with hundreds of hard-wrapped lines do not decide
  the rules alone; ``line_weighting="bytes"`` (off) weighs a line by its output bytes.
* ``fallback_best_block`` (off): keep the best block when none scores above the cutoff.
* ``attach_tag_lines`` (off): join lines holding only tags to the next line with text.
* Support (Step 5) counts the lines whose significant region set contains the item set
  (Table 8: "appears in all the 13 ... support 13/13 = 1"); a line is tested against a rule
  by requiring every item's membership >= ``significance`` (mirrors Step 4).
* ``two_region_bce`` (§4.1, Fig. 7 is missing from the paper): off by default; when on,
  features B, C and E get two regions Low' (1 up to L, 0 from H) and High' = 1 - Low'.
* Training labels: a line is topical when at least ``label_overlap`` of its 4-gram shingles
  (the dataset metric's tokens) occur in the gold text; a line of 1-3 tokens is topical when
  its tokens occur contiguously in the gold.
* Output: the chosen lines' text (one paragraph per line, entities decoded) is
  ``main.text``; ``main.html`` is :func:`blocksift.content.render_main` of the elements lying
  wholly inside a chosen block's span, and the block's ``element_ids`` are those elements.
"""

from __future__ import annotations

import bisect
import hashlib
import html as html_lib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .. import htmltokenizer as tokenizer
from ..content import BLOCK_TAGS
from ..htmltokenizer import RAW_TEXT_ELEMENTS
from ..page import Page
from ..rawscan import STAMP_ATTR
from ..results import Block, ExtractionResult, MainText
from ..sites import site_key

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


# --------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------


class FeatureStats(BaseModel):
    """MIN, Mean and MAX of one feature, Equations (1)-(3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min: float
    mean: float
    max: float


class RuleSet(BaseModel):
    """What Steps 1-5 learn from one training set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stats: dict[str, FeatureStats] = Field(description="Per feature letter A-F")
    frequent_regions: dict[str, float] = Field(description="Table 6: item -> scalar cardinality")
    rules: list[list[str]] = Field(description="Adopted rules (highest order), items like "
                                   "'A.Middle'")
    support: dict[str, float] = Field(default_factory=dict,
                                      description="Support of each adopted rule")
    pages: int = 0
    lines: int = 0
    topical_lines: int = 0


class TrainingSet(BaseModel):
    """Where a model's rules came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    description: str = ""
    pages: int = 0
    sites: int = 0
    sha256: str = Field("", description="Hash of the training pages (ids, HTML, gold), in order")


class FarswModel(BaseModel):
    """A trained FAR-SW model: one inter-site rule set, optionally one per site."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format_version: int = MODEL_FORMAT_VERSION
    algorithm: Literal["farsw"] = NAME
    params: dict[str, Any] = Field(description="Feature-shaping params used in training")
    ruleset: RuleSet
    sites: dict[str, RuleSet] = Field(default_factory=dict,
                                      description="Per-site rule sets (train --per-site)")
    training: TrainingSet = Field(default_factory=TrainingSet)

    def to_json(self) -> str:
        """Deterministic JSON (sorted keys, fixed float rounding)."""
        return json.dumps(self.model_dump(mode="json"), indent=1, sort_keys=True,
                          ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> FarswModel:
        """Parse a model; :class:`ModelError` on a bad or newer file."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ModelError(f"model is not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise ModelError("model must be a JSON object")
        version = data.get("format_version")
        if version != MODEL_FORMAT_VERSION:
            raise ModelError(f"model format {version!r} is not supported "
                             f"(this version reads {MODEL_FORMAT_VERSION})")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise ModelError(f"invalid model: {exc}") from exc

    def ruleset_for(self, url: str | None) -> tuple[RuleSet, str]:
        """The per-site rule set matching ``url``'s host, else the inter-site one."""
        if self.sites and url:
            host = _host(url)
            if host:
                for site in sorted(self.sites, key=len, reverse=True):
                    # a site recorded by hand or by an older version: read it as a key
                    key = site_key(f"//{site}") or site
                    if host == key or host.endswith("." + key):
                        return self.sites[site], site
        return self.ruleset, ""


class ModelError(ValueError):
    """A model file cannot be used."""


class TrainingError(ValueError):
    """The training data yields no usable rules."""


def _host(url: str) -> str:
    """The site of ``url`` (:func:`blocksift.sites.site_key`), "" when it has none."""
    return site_key(url) or ""


# --------------------------------------------------------------------------------------------
# §3.1 preprocessing and §3.2 lines and features
# --------------------------------------------------------------------------------------------

# Text between start tags: comments, doctypes and bogus comments (dropped) and end tags
# (kept as tags, group 1 their name), read by the one raw-HTML grammar.
_GAP_RE = re.compile("<(?:" + tokenizer.COMMENT + "|" + tokenizer.BOGUS_COMMENT
                     + "|/(" + tokenizer.TAG_NAME + ")" + tokenizer.ATTRS + ">?)")
_WS_RE = re.compile(r"\s+")
_STRUCTURAL_END = frozenset({"body", "html", "head"})

TEXT, START, END = 0, 1, 2


@dataclass
class Line:
    """One preprocessed line of the body source (§3.2) with its raw span."""

    start: int
    end: int
    text_length: int
    output_length: int
    links: int
    images: int
    text: str


@dataclass
class PageLines:
    """The lines of one page and their feature matrix (rows = lines, columns = A-F)."""

    lines: list[Line] = field(default_factory=list)
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 6)))


def _body_range(page: Page) -> tuple[int, int, int]:
    """Span of the text between the ``<body>`` tags (§3.1 step 1) and the first ordinal."""
    tags = page.tags
    names = tags.names
    for ordinal, name in enumerate(names):
        if name == "body":
            return tags.tag_ends[ordinal], tags.close_ends[ordinal], ordinal + 1
    start = 0
    for ordinal, name in enumerate(names):
        if name == "head":
            start = tags.close_ends[ordinal]
            break
    return start, len(page.raw), bisect.bisect_left(tags.starts, start)


def _tokens(page: Page, params: Params) -> list[tuple[int, int, int, str]]:
    """Body tokens (kind, start, end, tag name) without useless elements and comments."""
    raw = page.raw
    tags = page.tags
    begin, stop, ordinal = _body_range(page)
    useless = frozenset(t.lower() for t in params.useless_tags)
    out: list[tuple[int, int, int, str]] = []
    cursor = begin
    count = len(tags)

    def gap(upto: int) -> None:
        pos = cursor
        for match in _GAP_RE.finditer(raw, cursor, upto):
            if match.start() > pos:
                out.append((TEXT, pos, match.start(), ""))
            end_name = match.group(1)
            if end_name is not None:
                name = end_name.lower()
                if name not in useless and name not in _STRUCTURAL_END:
                    out.append((END, match.start(), match.end(), name))
            pos = match.end()
        if upto > pos:
            out.append((TEXT, pos, upto, ""))

    while ordinal < count and tags.starts[ordinal] < stop:
        tag_start = tags.starts[ordinal]
        if tag_start < cursor:  # nested inside a removed element
            ordinal += 1
            continue
        gap(tag_start)
        name = tags.names[ordinal]
        if name in useless:
            cursor = max(tags.close_ends[ordinal], tags.tag_ends[ordinal])
        else:
            tag_end = tags.tag_ends[ordinal]
            out.append((START, tag_start, tag_end, name))
            cursor = tag_end
            # raw-text elements (textarea, title, xmp, ...) kept whole as one tag token
            if tags.close_ends[ordinal] > tag_end and _is_raw_text(name):
                out[-1] = (START, tag_start, tags.close_ends[ordinal], name)
                cursor = tags.close_ends[ordinal]
        ordinal += 1
    if stop > cursor:
        gap(stop)
    return out


def _is_raw_text(name: str) -> bool:
    return name in RAW_TEXT_ELEMENTS


def _split_source(raw: str, tokens: list[tuple[int, int, int, str]]
                  ) -> list[list[tuple[int, int, int, str]]]:
    """Newline lines (§3.2); a text token is cut at newlines, a tag never is."""
    lines: list[list[tuple[int, int, int, str]]] = []
    current: list[tuple[int, int, int, str]] = []
    for token in tokens:
        kind, start, end, _ = token
        if kind != TEXT:
            current.append(token)
            continue
        pos = start
        newline = raw.find("\n", pos, end)
        while newline != -1:
            if newline > pos:
                current.append((TEXT, pos, newline, ""))
            lines.append(current)
            current = []
            pos = newline + 1
            newline = raw.find("\n", pos, end)
        if end > pos:
            current.append((TEXT, pos, end, ""))
    lines.append(current)
    return lines


def _split_blocks(line: list[tuple[int, int, int, str]]) -> list[list[tuple[int, int, int, str]]]:
    """Re-split a line before block-level start tags and after block-level end tags."""
    pieces: list[list[tuple[int, int, int, str]]] = []
    current: list[tuple[int, int, int, str]] = []
    for token in line:
        kind, _, _, name = token
        if kind == START and name in BLOCK_TAGS and current:
            pieces.append(current)
            current = []
        current.append(token)
        if kind == END and name in BLOCK_TAGS:
            pieces.append(current)
            current = []
    if current:
        pieces.append(current)
    return pieces


def _measure(raw: str, tokens: list[tuple[int, int, int, str]]) -> Line | None:
    """Features B, C, E, F and the output text of one line; None for a blank line (§3.1)."""
    whole: list[str] = []
    text_parts: list[str] = []
    reading: list[str] = []
    links = images = 0
    for kind, start, end, name in tokens:
        piece = raw[start:end]
        whole.append(piece)
        if kind == TEXT:
            text_parts.append(piece)
            reading.append(piece)
        else:
            if kind == START:
                if name == "a" and tokenizer.attribute(piece[2:], "href") is not None:
                    links += 1
                elif name == "img":
                    images += 1
            if name in BLOCK_TAGS or name == "br":
                reading.append(" ")
    cleaned = _WS_RE.sub(" ", "".join(whole)).strip()
    if not cleaned:
        return None
    output = _WS_RE.sub(" ", "".join(text_parts)).strip()
    text = _WS_RE.sub(" ", html_lib.unescape("".join(reading))).strip()
    return Line(start=tokens[0][1], end=tokens[-1][2],
                text_length=len(cleaned.encode("utf-8", "surrogatepass")),
                output_length=len(output.encode("utf-8", "surrogatepass")),
                links=links, images=images, text=text)


def page_lines(page: Page, params: Params) -> PageLines:
    """Preprocess the page (§3.1) and measure the six features of every line (§3.2)."""
    raw = page.raw
    tokens = _tokens(page, params)
    source = _split_source(raw, tokens)
    groups: list[list[tuple[int, int, int, str]]] = []
    for line in source:
        if not line:
            continue
        if params.line_mode == "blocks":
            groups.extend(_split_blocks(line))
        elif params.line_mode == "auto" and (line[-1][2] - line[0][1]) > params.long_line_chars:
            # measure cleaned length only when the raw span is long enough to matter
            measured = _measure(raw, line)
            if measured is not None and measured.text_length > params.long_line_chars:
                groups.extend(_split_blocks(line))
            else:
                groups.append(line)
        else:
            groups.append(line)
    if params.attach_tag_lines:
        groups = _attach_tag_lines(raw, groups)
    lines = [m for m in (_measure(raw, g) for g in groups if g) if m is not None]
    return PageLines(lines=lines, features=_feature_matrix(lines, params))


def _attach_tag_lines(raw: str, groups: list[list[tuple[int, int, int, str]]]
                      ) -> list[list[tuple[int, int, int, str]]]:
    """Join every line without text to the next line that has text (the last ones backward)."""
    out: list[list[tuple[int, int, int, str]]] = []
    pending: list[tuple[int, int, int, str]] = []
    for group in groups:
        pending.extend(group)
        if any(kind == TEXT and raw[start:end].strip() for kind, start, end, _ in group):
            out.append(pending)
            pending = []
    if pending:
        if out:
            out[-1] = out[-1] + pending
        else:
            out.append(pending)
    return out


def _feature_matrix(lines: Sequence[Line], params: Params) -> np.ndarray:
    """Rows of (Index, TextLength, OutputTextLength, Density, LinkNum, ImgNum), §3.2."""
    n = len(lines)
    matrix = np.zeros((n, 6), dtype=float)
    if not n:
        return matrix
    index = np.arange(1, n + 1, dtype=float)
    matrix[:, 0] = index / n if params.index_normalization else index
    matrix[:, 1] = [line.text_length for line in lines]
    matrix[:, 2] = [line.output_length for line in lines]
    matrix[:, 3] = matrix[:, 2] / np.maximum(matrix[:, 1], 1.0)
    matrix[:, 4] = [line.links for line in lines]
    matrix[:, 5] = [line.images for line in lines]
    return matrix


# --------------------------------------------------------------------------------------------
# §3.3 fuzzy regions, Steps 1-5
# --------------------------------------------------------------------------------------------


def weighted_stats(topical: np.ndarray, other: np.ndarray, alpha: float) -> FeatureStats:
    """Equations (1)-(3): alpha * topical + (1 - alpha) * non-topical MIN, Mean, MAX.

    With no non-topical values the topical ones stand alone (and vice versa).
    """
    if not len(topical) and not len(other):
        return FeatureStats(min=0.0, mean=0.0, max=0.0)
    if not len(other):
        other = topical
    if not len(topical):
        topical = other
    return FeatureStats(
        min=alpha * float(topical.min()) + (1 - alpha) * float(other.min()),
        mean=alpha * float(topical.mean()) + (1 - alpha) * float(other.mean()),
        max=alpha * float(topical.max()) + (1 - alpha) * float(other.max()))


def membership3(values: np.ndarray, stats: FeatureStats) -> np.ndarray:
    """Fig. 3: Low/Middle/High memberships (columns) of ``values``.

    L = (MIN + Mean)/2 and H = (Mean + MAX)/2; Low is 1 up to L and 0 from Mean, High is 0
    up to Mean and 1 from H, both linear in between, and Middle = 1 - Low - High (it rises
    from L to Mean and falls from Mean to H). A value at a degenerate corner (L = Mean, as for
    LinkNum = 0 in Table 3) belongs to the lower region.
    """
    values = np.asarray(values, dtype=float)
    low_knee = (stats.min + stats.mean) / 2
    high_knee = (stats.mean + stats.max) / 2
    if stats.mean > low_knee:
        low = np.clip((stats.mean - values) / (stats.mean - low_knee), 0.0, 1.0)
    else:
        low = (values <= low_knee).astype(float)
    if high_knee > stats.mean:
        high = np.clip((values - stats.mean) / (high_knee - stats.mean), 0.0, 1.0)
    else:
        high = (values > stats.mean).astype(float)
    middle = np.clip(1.0 - low - high, 0.0, 1.0)
    return np.stack([low, middle, high], axis=-1)


def membership2(values: np.ndarray, stats: FeatureStats) -> np.ndarray:
    """Fig. 7 (missing from the paper; our reading): Low' falls from 1 at L to 0 at H."""
    values = np.asarray(values, dtype=float)
    low_knee = (stats.min + stats.mean) / 2
    high_knee = (stats.mean + stats.max) / 2
    if high_knee > low_knee:
        low = np.clip((high_knee - values) / (high_knee - low_knee), 0.0, 1.0)
    else:
        low = (values <= low_knee).astype(float)
    return np.stack([low, 1.0 - low], axis=-1)


def regions_of(feature: str, params: Params) -> tuple[str, ...]:
    """Region names of a feature (Fig. 3, or Fig. 7 for B, C, E when enabled)."""
    if params.two_region_bce and feature in TWO_REGION_FEATURES:
        return REGIONS2
    return REGIONS3


def memberships(features: np.ndarray, stats: dict[str, FeatureStats],
                params: Params) -> dict[str, np.ndarray]:
    """Step 1: membership of every line in every region, keyed by item ('A.Middle')."""
    out: dict[str, np.ndarray] = {}
    for column, feature in enumerate(FEATURES):
        regions = regions_of(feature, params)
        fn = membership2 if len(regions) == 2 else membership3
        values = fn(features[:, column], stats[feature])
        for k, region in enumerate(regions):
            out[f"{feature}.{region}"] = values[:, k]
    return out


def scalar_cardinality(member: dict[str, np.ndarray],
                       weights: np.ndarray | None = None) -> dict[str, float]:
    """Step 2: count_jl = sum of the memberships of region R_jl over the topical lines.

    ``weights`` (one per line, default 1) let every training page weigh the same.
    """
    if weights is None:
        return {item: float(values.sum()) for item, values in member.items()}
    return {item: float(np.dot(values, weights)) for item, values in member.items()}


def frequent_regions(counts: dict[str, float], params: Params) -> dict[str, float]:
    """Step 3: each feature's region with the largest count (ties: the lower region)."""
    chosen: dict[str, float] = {}
    for feature in FEATURES:
        best = None
        for region in regions_of(feature, params):
            item = f"{feature}.{region}"
            if best is None or counts[item] > counts[best]:
                best = item
        if best is not None:
            chosen[best] = counts[best]
    return chosen


def significant_transactions(member: dict[str, np.ndarray], frequent: Iterable[str],
                             significance: float) -> list[frozenset[str]]:
    """Step 4: per topical line, the frequent regions with membership >= significance."""
    items = sorted(frequent, key=_item_order)
    if not items:
        return []
    n = len(member[items[0]])
    return [frozenset(item for item in items if member[item][i] >= significance)
            for i in range(n)]


def apriori(transactions: Sequence[frozenset[str]], min_support: float,
            weights: np.ndarray | None = None) -> list[dict[tuple[str, ...], float]]:
    """Step 5: Apriori (Agrawal and Srikant 1994); levels L1, L2, ... item set -> support.

    Support is the share of transactions holding the item set (Table 8: "appears in all the
    13 ... support 13/13 = 1"); an item set is frequent when its support >= ``min_support``.
    Candidates of level k + 1 join two frequent k-sets sharing their first k - 1 items and
    are pruned unless every k-subset is frequent.
    """
    n = len(transactions)
    if not n:
        return []
    items = sorted({item for t in transactions for item in t}, key=_item_order)
    column = {item: k for k, item in enumerate(items)}
    matrix = np.zeros((n, len(items)), dtype=bool)
    for row, transaction in enumerate(transactions):
        for item in transaction:
            matrix[row, column[item]] = True
    weight = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    total = float(weight.sum())
    levels: list[dict[tuple[str, ...], float]] = []
    candidates = [(item,) for item in items]
    while candidates:
        level: dict[tuple[str, ...], float] = {}
        for candidate in candidates:
            cols = [column[item] for item in candidate]
            share = float(weight[matrix[:, cols].all(axis=1)].sum()) / total
            if share >= min_support - 1e-12:
                level[candidate] = share
        if not level:
            break
        levels.append(level)
        previous = sorted(level, key=lambda c: [_item_order(i) for i in c])
        known = set(previous)
        candidates = []
        for i, first in enumerate(previous):
            for second in previous[i + 1:]:
                if first[:-1] != second[:-1]:
                    continue
                joined = first + (second[-1],)
                if all(joined[:j] + joined[j + 1:] in known for j in range(len(joined))):
                    candidates.append(joined)
    return levels


def _item_order(item: str) -> tuple[int, str]:
    return FEATURES.index(item.split(".", 1)[0]), item


def learn_rules(topical_features: np.ndarray, stats: dict[str, FeatureStats],
                params: Params, weights: np.ndarray | None = None
                ) -> tuple[dict[str, float], list[list[str]], dict[str, float]]:
    """Steps 1-5 on the topical lines: (frequent regions, adopted rules, rule supports).

    The adopted rules are the item sets of the highest Apriori level (§3.3, "the association
    rule(s) with the most items will be adopted").
    """
    member = memberships(topical_features, stats, params)
    frequent = frequent_regions(scalar_cardinality(member, weights), params)
    transactions = significant_transactions(member, frequent, params.significance)
    levels = apriori(transactions, params.support, weights)
    if not levels:
        return frequent, [], {}
    top = levels[-1]
    rules = [list(itemset) for itemset in sorted(top)]
    return frequent, rules, {", ".join(itemset): round(s, 6) for itemset, s in sorted(top.items())}


def topical_flags(features: np.ndarray, ruleset: RuleSet, params: Params) -> np.ndarray:
    """Step 6: M_i is TRUE when line i satisfies an adopted rule (every item >= significance)."""
    n = len(features)
    flags = np.zeros(n, dtype=bool)
    if not n or not ruleset.rules:
        return flags
    member = memberships(features, ruleset.stats, params)
    for rule in ruleset.rules:
        ok = np.ones(n, dtype=bool)
        for item in rule:
            values = member.get(item)
            if values is None:  # a region this params' shape does not have
                ok[:] = False
                break
            ok &= values >= params.significance
        flags |= ok
    return flags


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


# --------------------------------------------------------------------------------------------
# Training (Stage 1)
# --------------------------------------------------------------------------------------------


@dataclass
class TrainingSample:
    """One labeled page reduced to what training needs: line features and labels."""

    features: np.ndarray
    topical: np.ndarray
    site: str = ""
    page_id: str = ""


def label_lines(lines: Sequence[Line], gold: str, overlap: float) -> np.ndarray:
    """Topical labels for training (the paper labels lines by hand, §4.1).

    A line of 4 or more tokens (the dataset metric's tokens) is topical when at least
    ``overlap`` of its 4-gram shingles occur in the gold text; a shorter line only when it
    equals a whole gold paragraph (a subheading), since "29" or "Share" would otherwise match
    any gold text containing the word.
    """
    from ..shingles import SHINGLE, tokens

    gold_tokens = tokens(gold)
    gold_shingles = {tuple(gold_tokens[i:i + SHINGLE])
                     for i in range(len(gold_tokens) - SHINGLE + 1)}
    gold_paragraphs = {tuple(tokens(part)) for part in gold.splitlines() if part.strip()}
    labels = np.zeros(len(lines), dtype=bool)
    for i, line in enumerate(lines):
        toks = tokens(line.text)
        if not toks:
            continue
        if len(toks) < SHINGLE:
            labels[i] = tuple(toks) in gold_paragraphs
            continue
        grams = [tuple(toks[j:j + SHINGLE]) for j in range(len(toks) - SHINGLE + 1)]
        found = sum(1 for g in grams if g in gold_shingles)
        labels[i] = found / len(grams) >= overlap
    return labels


def make_sample(page: Page, gold: str, params: Params, site: str = "",
                page_id: str = "") -> TrainingSample:
    """Lines, features and topical labels of one labeled page."""
    lines = page_lines(page, params)
    return TrainingSample(features=lines.features,
                          topical=label_lines(lines.lines, gold, params.label_overlap),
                          site=site, page_id=page_id)


def train_ruleset(samples: Sequence[TrainingSample], params: Params) -> RuleSet:
    """Equations (1)-(3) averaged over pages, then Steps 1-5 on all topical lines."""
    usable = [s for s in samples if s.topical.any() and len(s.features)]
    if not usable:
        raise TrainingError("no training page has a topical line (is the gold text empty?)")
    per_page = {feature: [] for feature in FEATURES}
    for sample in usable:
        topical = sample.features[sample.topical]
        other = sample.features[~sample.topical]
        for column, feature in enumerate(FEATURES):
            per_page[feature].append(weighted_stats(topical[:, column], other[:, column],
                                                    params.alpha))
    stats = {
        feature: FeatureStats(
            min=_round(float(np.mean([s.min for s in values]))),
            mean=_round(float(np.mean([s.mean for s in values]))),
            max=_round(float(np.mean([s.max for s in values]))))
        for feature, values in per_page.items()}
    topical_features = np.concatenate([s.features[s.topical] for s in usable])
    weights = None
    if params.line_weighting == "bytes":
        # a topical line weighs its output bytes (§3.6 measures text in bytes)
        weights = np.maximum(topical_features[:, 2], 1.0)
        if params.page_weighting == "pages" and len(usable) > 1:
            parts = [np.maximum(s.features[s.topical][:, 2], 1.0) for s in usable]
            weights = np.concatenate([w / w.sum() for w in parts])
    elif params.page_weighting == "pages" and len(usable) > 1:
        weights = np.concatenate([np.full(int(s.topical.sum()), 1.0 / int(s.topical.sum()))
                                  for s in usable])
    frequent, rules, support = learn_rules(topical_features, stats, params, weights)
    if not rules:
        raise TrainingError("Apriori found no frequent item set at this support")
    return RuleSet(stats=stats, frequent_regions={k: _round(v) for k, v in frequent.items()},
                   rules=rules, support=support, pages=len(usable),
                   lines=int(sum(len(s.features) for s in usable)),
                   topical_lines=len(topical_features))


def _round(value: float) -> float:
    """Fixed rounding so the JSON model is byte-identical across runs and platforms."""
    return float(round(value, 6))


def _page_and_gold(item: Any) -> tuple[Page, str, str, str, str]:
    """(page, gold, site, id, html) from a LabeledPage or a (Page | str, gold) pair."""
    if isinstance(item, tuple) and len(item) == 2:
        page, gold = item
        if isinstance(page, str):
            page = Page(page)
        if not isinstance(page, Page):
            raise TypeError("training pairs must be (Page | str, gold)")
        return page, str(gold or ""), _host(page.url or ""), page.url or "", page.raw
    html = getattr(item, "html", None)
    if not isinstance(html, str):
        raise TypeError(f"cannot train on {type(item).__name__}")
    url = getattr(item, "url", None)
    site = getattr(item, "site", None) or _host(url or "")
    return (Page(html, url=url), str(getattr(item, "gold", "") or ""), site,
            str(getattr(item, "id", "")), html)


def train(pages: Iterable[Any], params: Params | None = None, *, per_site: bool = False,
          description: str = "", min_site_pages: int = 2,
          progress: Any = None) -> FarswModel:
    """Stage 1 (§3.3): learn a model from labeled pages; deterministic for the same input.

    Args:
        pages: ``LabeledPage`` objects or ``(Page | html, gold)`` pairs.
        params: training params (alpha, support, significance, line shaping).
        per_site: also learn one rule set per site with ``min_site_pages`` or more pages.
        description: free text recorded in the model (datasets used).
        progress: optional callable(int) called once per page.

    Raises:
        TrainingError: no topical lines or no frequent item set.
    """
    params = params or Params()
    digest = hashlib.sha256()
    samples: list[TrainingSample] = []
    for item in pages:
        page, gold, site, page_id, html = _page_and_gold(item)
        for part in (page_id, html, gold):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")
        samples.append(make_sample(page, gold, params, site=site, page_id=page_id))
        if progress:
            progress(1)
    return train_from_samples(samples, params, per_site=per_site, description=description,
                              min_site_pages=min_site_pages, sha256=digest.hexdigest())


def train_from_samples(samples: Sequence[TrainingSample], params: Params, *,
                       per_site: bool = False, description: str = "",
                       min_site_pages: int = 2, sha256: str = "") -> FarswModel:
    """:func:`train` on precomputed samples (cross-validation reuses them)."""
    ruleset = train_ruleset(samples, params)
    sites: dict[str, RuleSet] = {}
    if per_site:
        by_site: dict[str, list[TrainingSample]] = {}
        for sample in samples:
            if sample.site:
                by_site.setdefault(sample.site, []).append(sample)
        for site in sorted(by_site):
            group = by_site[site]
            if len(group) < min_site_pages:
                continue
            try:
                sites[site] = train_ruleset(group, params)
            except TrainingError:
                continue  # this site keeps the inter-site rules
    return FarswModel(
        params=_jsonable(params.feature_shaping()), ruleset=ruleset, sites=sites,
        training=TrainingSet(description=description, pages=len(samples),
                             sites=len({s.site for s in samples if s.site}), sha256=sha256))


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}


def format_rules(model: FarswModel) -> str:
    """Human-readable rules of a model (printed by ``blocksift train``)."""
    out = []

    def show(title: str, ruleset: RuleSet) -> None:
        out.append(f"{title}: {ruleset.pages} pages, {ruleset.lines} lines, "
                   f"{ruleset.topical_lines} topical")
        for feature in FEATURES:
            s = ruleset.stats[feature]
            out.append(f"  {feature} {FEATURE_NAMES[feature]:<17} MIN {s.min:.4g}  "
                       f"Mean {s.mean:.4g}  MAX {s.max:.4g}")
        out.append("  frequent regions: " + ", ".join(
            f"{k} {v:.2f}" for k, v in sorted(ruleset.frequent_regions.items(),
                                              key=lambda kv: _item_order(kv[0]))))
        for rule in ruleset.rules:
            key = ", ".join(rule)
            out.append(f"  rule: ({key})  support {ruleset.support.get(key, 0):.3f}")

    show("inter-site", model.ruleset)
    for site, ruleset in sorted(model.sites.items()):
        show(f"site {site}", ruleset)
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Model files
# --------------------------------------------------------------------------------------------

DEFAULT_MODEL_RESOURCE = "farsw-default.json"


def default_model_text() -> str:
    """The packaged default inter-site model (trained on the dev datasets)."""
    return (resources.files("blocksift") / "data" / DEFAULT_MODEL_RESOURCE).read_text("utf-8")


@lru_cache(maxsize=1)
def default_model() -> FarswModel:
    """The packaged default model, parsed once per process."""
    return FarswModel.from_json(default_model_text())


def load_model(path: Path | str | None = None) -> FarswModel:
    """A model from ``path``; None: the user's model if it exists, else the packaged one."""
    if path is None:
        from ..paths import model_path

        user = model_path(NAME)
        if user.is_file():
            return FarswModel.from_json(user.read_text("utf-8"))
        return FarswModel.from_json(default_model_text())
    try:
        return FarswModel.from_json(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise ModelError(f"{path}: {exc.strerror or exc}") from exc


def save_model(model: FarswModel, path: Path | str) -> Path:
    """Write ``model`` as JSON (atomically: a temp file then rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(model.to_json(), encoding="utf-8")
    tmp.replace(path)
    return path


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
    from ..content import outermost, render_main

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


__all__ = [
    "MODEL",
    "NAME",
    "FarswModel",
    "FeatureStats",
    "ModelError",
    "Params",
    "RuleSet",
    "TrainingError",
    "analyse",
    "apriori",
    "block_score",
    "extract",
    "format_rules",
    "learn_rules",
    "line_scores",
    "load_model",
    "membership2",
    "membership3",
    "page_lines",
    "save_model",
    "sliding_window",
    "train",
    "train_from_samples",
]

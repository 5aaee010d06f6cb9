"""auto: the reader view's default extractor, a learned block segmenter (docs/auto.md).

Every text block of the page (a block-level element and the text it owns, see
:mod:`.segmenter.features`) is labeled main content or not by gradient-boosted trees
learned from the development sets, evaluated with numpy only (:mod:`.segmenter.trees`).
The features are the four papers' signals (seeds 000/001 link blocks, 002 path recurrence
when a site model is given, 003 LTD / LAD / NTL, 004 FAR-SW line scores), structural cues
(containers one to three levels up, landmarks, ARIA roles, class/id hints, repeated
siblings, neighbours, position), page-level cues (schema.org / JSON-LD, ``og:type``) and
the choice of ``auto-rules`` (the earlier hand-tuned extractor, still available by that
name). A page-type classifier (article, service, product, collection, forum, listing,
documentation) runs first on page-level features; its probabilities are block features.

Main content may be several regions; they are returned in document order. Blocks that are
not main are labeled ``links`` (navigation, link lists), ``comments``, ``ad`` or ``other``
by their link share and class/id hints. Each returned block carries a confidence and its
top reasons (per-feature contributions along the trees' paths, Saabas).

Stages (``ExtractionResult.stage``): ``model`` (the trees chose), ``site`` (a site's
labeled examples adjusted the choice), ``rules`` (the trees chose nothing; ``auto-rules``'s
choice is used), ``empty`` (no visible text).
"""

from __future__ import annotations

import gc
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..content import BLOCK_TAGS, NON_TEXT_TAGS, notices, post_authors, render_main, rendered_text
from ..page import Page, XPaths
from ..wire.results import Block, ExtractionResult, MainText
from .auto_rules import TitleSources, extract_title
from .segmenter import features as feats
from .segmenter import trees
from .segmenter.context import context_features

NAME = "auto"
MODEL = None
DEFAULT_MODEL_RESOURCE = "auto-segmenter.npz"
#: Regions explained with reasons per page (the ones with the most text).
MAX_EXPLAINED = 64
#: Main-content probabilities the model is unsure of: neither clearly boilerplate (below)
#: nor clearly main (at or above); ``stats["uncertain_share"]`` is the page's text in it.
UNCERTAIN_BAND = (0.02, 0.5)
PAGE_TYPES = ("article", "service", "product", "collection", "forum", "listing",
              "documentation")

__all__ = ["NAME", "MODEL", "Params", "extract", "extract_title", "load_model",
           "SegmenterModel", "segment"]


class Params(BaseModel):
    """Parameters of ``auto``; the model's own threshold is chosen by cross-validation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    threshold: float | None = Field(
        None, ge=0, le=1, description="Probability at or above which a block is main content "
                                      "on every page (None: each page's own, expected_f1; "
                                      "or the model's cross-validated one)")
    expected_f1: bool = Field(
        True, description="Each page's threshold is the one that makes the main text's "
                          "expected word F1 under the blocks' probabilities highest (blocks "
                          "weighed by their characters), kept within expected_f1_floor and "
                          "expected_f1_cap: lower where the model doubts the page, so more "
                          "of it is taken; off: the model's one threshold")
    expected_f1_floor: float = Field(
        0.2, ge=0, le=1, description="Lowest page threshold expected_f1 sets (chosen by "
                                     "domain-grouped CV, docs/auto.md)")
    expected_f1_cap: float | None = Field(
        None, ge=0, le=1, description="Highest page threshold expected_f1 sets (None: the "
                                      "model's threshold, so the rule only ever adds blocks "
                                      "to what that threshold takes)")
    include_comments: bool = Field(
        False, description="Keep blocks labeled comments in the main text (the dev sets' "
                           "gold leaves comments out, so off by default)")
    include_images: bool = Field(
        True, description="Keep images (lazy sources resolved) in the reader-view HTML")
    rules_fallback: bool = Field(
        True, description="When the trees choose nothing, use auto-rules' choice")
    rules_fallback_max_elements: int = Field(
        50_000, ge=0, description="No auto-rules fallback on a page of at least this many "
                                  "elements (start tags): there it costs as much as all the "
                                  "rest, and what it finds on such a page (a list, a dump) is "
                                  "the whole body; no dev-set page has a third as many. "
                                  "0: no limit")
    reasons: int = Field(3, ge=0, le=10, description="Top reasons given per block")
    with_html: bool = Field(True, description="Also render the sanitized reader-view HTML")
    main_text: bool = Field(
        True, description="Render the main text; False returns the blocks only (the host "
                          "sets it for blocks-only requests)")
    repeat_min_words: int = Field(
        5, ge=0, description="A main block of at least this many words whose text repeats "
                             "an earlier main block's is shown once (a page's desktop and "
                             "mobile copies, cloned carousel slides); table cells and code "
                             "are never dropped; 0 keeps every repeat")
    long_page_elements: int = Field(
        2_000, ge=0, description="A page of at least this many elements (start tags) is "
                                 "labelled by the packaged fast model (no FAR-SW line scores "
                                 "or auto-rules choice, which cost most on such pages; as good "
                                 "there, out of fold) unless another model is given; 0 never "
                                 "switches")

    @model_validator(mode="after")
    def _floor_below_cap(self) -> Params:
        if self.expected_f1_cap is not None and self.expected_f1_floor > self.expected_f1_cap:
            raise ValueError("expected_f1_floor must not exceed expected_f1_cap")
        return self

    def page_threshold(self) -> float | tuple[float, float | None] | None:
        """What :func:`segment` takes as ``threshold``: a fixed one, the expected-F1 rule's
        (floor, cap), or None (the model's)."""
        if self.threshold is not None:
            return self.threshold
        return (self.expected_f1_floor, self.expected_f1_cap) if self.expected_f1 else None


class SegmenterModel:
    """The shipped (or a trained) segmenter: block trees, page-type trees and thresholds."""

    def __init__(self, ensembles: dict[str, trees.TreeEnsemble], meta: dict[str, Any]):
        self.blocks = ensembles["blocks"]
        self.page_type = ensembles.get("page_type")
        # the second model: the block features plus the first's probabilities in context
        self.stacked = ensembles.get("stacked")
        self.meta = meta
        self.threshold = float(meta.get("threshold", 0.5))
        #: signal groups the model was trained without: not computed for it at run time
        self.without = tuple(meta.get("without", ()))
        self.feature_names = self.blocks.feature_names
        #: The columns of the model whose probability decides (and whose paths explain).
        self.final_names = (self.stacked or self.blocks).feature_names

    def page_type_probabilities(self, page_features: np.ndarray) -> np.ndarray:
        if self.page_type is None:
            return np.zeros(len(PAGE_TYPES))
        return self.page_type.predict(page_features[None, :])[0]

    def block_matrix(self, blocks: feats.Blocks, type_probs: np.ndarray,
                     rows: list[int] | slice | None = None) -> np.ndarray:
        """Block features with the page-type probabilities appended (the model's columns),
        of every block or of the blocks at ``rows``."""
        features = blocks.features if rows is None else blocks.rows(rows)
        extra = len(self.feature_names) - features.shape[1]
        if extra <= 0:
            return features
        tiled = np.broadcast_to(type_probs[:extra], (len(features), extra))
        return np.hstack([features, tiled])

    def first_probabilities(self, blocks: feats.Blocks, type_probs: np.ndarray,
                            rows_per_part: int = 4 * trees.CHUNK_ROWS) -> np.ndarray:
        """The first model's ``predict`` of :meth:`block_matrix`, a part of the rows at a
        time: a page of more blocks than a part never builds its whole feature matrix
        (``feats.Blocks.rows``; rows are scored independently, so the parts give the same
        values). Parts of 2,048 rows keep each part's matrices near 2 MB, and filling a
        part's columns stays in the processor's cache, which a whole page's does not."""
        n = len(blocks)
        distinct = n >= DISTINCT_ROWS_FROM
        if n <= rows_per_part:
            return self.blocks.predict(self.block_matrix(blocks, type_probs), distinct)
        return np.concatenate([
            self.blocks.predict(self.block_matrix(blocks, type_probs,
                                                  rows=slice(start, start + rows_per_part)),
                                distinct)
            for start in range(0, n, rows_per_part)])

    def final_matrix(self, blocks: feats.Blocks, type_probs: np.ndarray,
                     context: np.ndarray | None, rows: list[int] | slice | None = None
                     ) -> np.ndarray:
        """The deciding model's columns: :meth:`block_matrix`, with the context of the
        first model's probabilities appended when the model is stacked."""
        matrix = self.block_matrix(blocks, type_probs, rows)
        if self.stacked is None or context is None:
            return matrix
        return np.hstack([matrix, context if rows is None else context[rows]])

    def block_probabilities(self, blocks: feats.Blocks, type_probs: np.ndarray,
                            rows_per_part: int | None = None
                            ) -> tuple[np.ndarray, np.ndarray | None]:
        """P(main) of every block and the context columns it was computed with (None for
        a model without the second, stacked stage); scored ``rows_per_part`` rows at a time
        (None: :data:`KIND_PART_ROWS` on a page scored by kind, else 2,048)."""
        if self.stacked is not None and len(blocks) >= DISTINCT_ROWS_FROM:
            return self._probabilities_by_kind(blocks, type_probs,
                                               rows_per_part or KIND_PART_ROWS)
        rows_per_part = rows_per_part or 4 * trees.CHUNK_ROWS
        first = self.first_probabilities(blocks, type_probs, rows_per_part)
        if self.stacked is None:
            return first, None
        context = context_features(blocks, first)
        n = len(first)
        return np.concatenate([
            self.stacked.predict(self.final_matrix(
                blocks, type_probs, context, rows=slice(start, start + rows_per_part)),
                n >= DISTINCT_ROWS_FROM)
            for start in range(0, n, rows_per_part)]), context

    @cached_property
    def _kind_bins(self) -> tuple[list[tuple[int, np.ndarray]], list[tuple[int, np.ndarray]]]:
        """For :meth:`_probabilities_by_kind`, the same for every page: both models'
        thresholds together on the block features (not the page-type probabilities, the
        same for every row), and the stacked model's on its context columns (numbered
        from 0)."""
        n_block = len(self.blocks.feature_names)
        union = [(column, edges) for column, edges
                 in trees.union_bins([self.blocks, self.stacked], n_block)
                 if column < len(feats.FEATURE_NAMES)]
        context = [(column - n_block, edges)
                   for column, edges in self.stacked.split_bins() if column >= n_block]
        return union, context

    def _probabilities_by_kind(self, blocks: feats.Blocks, type_probs: np.ndarray,
                               rows_per_part: int) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`block_probabilities` of a long page, each pass walking one row of each
        kind of row (``trees.kinds``), the same scores.

        A part's rows are told into kinds once, by the gaps between the thresholds of both
        models' splits on the block columns (each column built for the part, one at a time):
        rows of one kind are of one kind for each model. The second pass tells a part's rows
        apart by that kind and the gaps of its context columns alone. Each pass builds the
        block features of one row of each kind only.
        """
        n = len(blocks)
        union, context_bins = self._kind_bins
        # columns every row has the same value in (page-level features) put every row in one
        # gap: they tell no kinds apart
        same = {feats.FEATURE_INDEX[name] for name in blocks.same_for_every_block()}
        block_bins = [(column, edges) for column, edges in union if column not in same]
        first = np.empty(n)
        kind_of = np.empty(n, dtype=np.int64)  # a page-wide id of each row's block kind
        kinds_so_far = 0
        for start in range(0, n, rows_per_part):
            end = min(start + rows_per_part, n)
            # the gaps read column by column, each built for the part alone: the rows' whole
            # matrix is built only for one row of each kind
            part = slice(start, end)
            found = trees.kinds(trees.column_gaps(
                lambda column, part=part: blocks.column(feats.FEATURE_NAMES[column], part),
                block_bins, end - start))
            if found is None:  # mostly distinct: walk them all, each its own kind
                first[start:end] = self.blocks.predict(
                    self.block_matrix(blocks, type_probs, rows=slice(start, end)))
                kind_of[start:end] = kinds_so_far + np.arange(end - start)
                kinds_so_far += end - start
                continue
            one, kind = found
            first[start:end] = self.blocks.predict(
                self.block_matrix(blocks, type_probs, rows=(start + one).tolist()))[kind]
            kind_of[start:end] = kinds_so_far + kind
            kinds_so_far += len(one)
        context = context_features(blocks, first)
        final = np.empty(n)
        for start in range(0, n, rows_per_part):
            end = min(start + rows_per_part, n)
            codes = np.column_stack([kind_of[start:end],
                                     trees.gaps(context[start:end], context_bins)])
            found = trees.kinds(codes.astype(np.int64))
            if found is None:
                final[start:end] = self.stacked.predict(self.final_matrix(
                    blocks, type_probs, context, rows=slice(start, end)))
                continue
            one, kind = found
            final[start:end] = self.stacked.predict(self.final_matrix(
                blocks, type_probs, context, rows=(start + one).tolist()))[kind]
        return final, context


#: Pages of at least this many blocks are scored a kind of block at a time
#: (``trees.TreeEnsemble.distinct_rows``: the same scores). A page that long repeats a few
#: kinds of block thousands of times (100,000 paragraphs: 152 kinds), while on a page of
#: 2,000 blocks most differ and looking for kinds costs more than it saves.
DISTINCT_ROWS_FROM = 16384

#: Rows a part of such a page holds: only one row of each kind is built whole, so a larger
#: part spares numpy calls per column and part (100,000 paragraphs: about 145 -> 115 ms
#: against parts of 2,048); its gap codes, about 1 kB a row, bound it.
KIND_PART_ROWS = 8192

#: Models shipped beside the default, by the name ``--model`` also takes.
BUNDLED_MODELS = {"fast": "auto-segmenter-fast.npz", "lite": "auto-segmenter-lite.npz"}


@lru_cache(maxsize=4)
def _load(path: str | None) -> SegmenterModel:
    if path is None or path in BUNDLED_MODELS:
        resource = DEFAULT_MODEL_RESOURCE if path is None else BUNDLED_MODELS[path]
        with resources.as_file(resources.files("blocksift") / "data" / resource) as packaged:
            ensembles, meta = trees.load(packaged)
    else:
        ensembles, meta = trees.load(path)
    return SegmenterModel(ensembles, meta)


def text_without_spans(params: Params, model: SegmenterModel | None) -> bool:
    """Whether ``extract`` can take a page parsed without spans (``Page(spans=False)``):
    asked for text only, with a model that reads neither link blocks nor FAR-SW's lines
    (both locate blocks in the raw HTML). Crawl runs then skip the tag scan and the stamps
    (:mod:`blocksift.crawl`); such a page gets its main text and title, no blocks."""
    if params.with_html:
        return False
    without = (model if isinstance(model, SegmenterModel) else load_model()).without
    return {"linkblocks", "farsw"} <= set(without)


def load_model(path: Path | str | None = None) -> SegmenterModel:
    """The segmenter model at ``path`` (None: the packaged one; a name of
    :data:`BUNDLED_MODELS`: that shipped model), loaded once per process."""
    return _load(None if path is None else str(path))


# -- regions ------------------------------------------------------------------------------

def _rules_choice(page: Page, blocks: feats.Blocks) -> np.ndarray:
    """Which blocks ``auto-rules`` keeps, for the fallback when the trees chose nothing.

    A block is kept when it lies inside the rules' choice (``rules_main``). When none does,
    the choice may be an inline element the walk folds into the block around it (an old
    page's unclosed ``<font>`` tags nest the whole text in one block): that block is kept,
    rather than no text at all.
    """
    # the features asked auto-rules already unless the model reads none of its signals
    choice = blocks.rules_choice or feats.rules_choice(page)
    if choice is None:
        return np.zeros(len(blocks), dtype=bool)
    rules_main = feats.rules_columns(blocks.elements, *choice)[:, 0] > 0
    if rules_main.any():
        return rules_main
    chosen = choice[0]
    row_of = {el: row for row, el in enumerate(blocks.elements)}
    for el in chosen:
        node = el
        while node is not None and node not in row_of:
            node = node.getparent()
        if node is not None:
            rules_main[row_of[node]] = True
    return rules_main


def _regions(blocks: list[etree._Element], kinds: list[str]
             ) -> list[tuple[etree._Element, str, list[etree._Element]]]:
    """Maximal subtrees whose text blocks share one kind, in document order.

    Each region is (element, kind, excluded): an element that owns text of one kind but
    holds blocks of other kinds below is a region of its own kind with those subtrees
    excluded.
    """
    below: dict[etree._Element, frozenset[str]] = {}
    own: dict[etree._Element, str] = {}
    alone = {kind: frozenset((kind,)) for kind in set(kinds)}  # shared: most hold one kind
    for el, kind in zip(blocks, kinds):
        own[el] = kind
        node = el
        while node is not None:
            found = below.get(node)
            if found is None:
                below[node] = alone[kind]
            elif kind in found:
                break  # every ancestor of a node holding ``kind`` holds it already
            else:
                below[node] = found | alone[kind]
            node = node.getparent()
    top = blocks[0]
    while top.getparent() is not None:
        top = top.getparent()
    out: list[tuple[etree._Element, str, list[etree._Element]]] = []
    stack = [top]
    while stack:
        node = stack.pop()
        found = below.get(node)
        if not found:
            continue
        if len(found) == 1:
            out.append((node, next(iter(found)), []))
            continue
        if node in own:
            kind = own[node]
            excluded = _other_kind_subtrees(node, kind, below, own)
            out.append((node, kind, excluded))
            # the excluded subtrees are regions of their own
            for sub in excluded:
                stack.append(sub)
            continue
        stack.extend(reversed([c for c in node if isinstance(c.tag, str)]))
    # Document order already: the walk is depth-first with children in order, and the
    # excluded children of a region (found in reverse, popped back in order) come right
    # after it, before anything that follows it.
    return out


def _sibling_runs(regions: list[tuple[etree._Element, str, list[etree._Element]]]
                  ) -> list[list[int]]:
    """Regions grouped into blocks: each main region joins the main region right before it
    when that one is its previous sibling element (the paragraphs of an article whose
    container also holds a heading or an ad labelled otherwise); other regions stay alone.

    One block per paragraph would give a page of 100,000 paragraphs 100,000 blocks; the
    main content's elements and the regions hide works on (``extra["segments"]``) are the
    same either way.
    """
    runs: list[list[int]] = []
    last_main: dict[etree._Element, list[int]] = {}  # run of main regions by its last element
    for r, (el, kind, _excluded) in enumerate(regions):
        if kind == "main":
            # the previous element sibling (comments and processing instructions skipped)
            previous = next(el.itersiblings(etree.Element, preceding=True), None)
            run = last_main.pop(previous, None) if previous is not None else None
            if run is not None:
                run.append(r)
                last_main[el] = run
                continue
            run = [r]
            last_main[el] = run
            runs.append(run)
        else:
            runs.append([r])
    return runs


def _other_kind_subtrees(root: etree._Element, kind: str,
                         below: dict[etree._Element, frozenset[str]],
                         own: dict[etree._Element, str] | None = None
                         ) -> list[etree._Element]:
    """Maximal subtrees under ``root`` (a block of ``kind``) that hold text of another kind
    than ``kind``, in reverse document order.

    An element whose own text is of ``kind`` is no such subtree, whatever blocks lie inside
    it: a block of ``kind`` (``own``: each block's kind), or an element that is no block and
    holds some of ``root``'s own text (an inline wrapper around the article's paragraphs).
    Leaving it out would leave that text out of the region (and, for a block, make it a
    region of its own that the region leaves out). What lies inside it is looked at instead.
    """
    own = own or {}
    found: list[etree._Element] = []
    stack = [c for c in root if isinstance(c.tag, str)]
    while stack:
        node = stack.pop()
        kinds = below.get(node)
        if not kinds or kinds == {kind}:
            continue
        own_kind = own.get(node)
        if own_kind == kind or (own_kind is None and _holds_text_of_its_block(node, own)):
            stack.extend(c for c in node if isinstance(c.tag, str))
            continue
        found.append(node)
    return found


def _holds_text_of_its_block(element: etree._Element,
                             blocks: Collection[etree._Element]) -> bool:
    """Whether ``element`` (no block) holds visible text of the block around it: its own
    text, the tails of its children, and the same of its descendants that are no blocks."""
    return _shows_text(element, lambda child: child in blocks or child.tag in NON_TEXT_TAGS)


def _shows_text(element: etree._Element, skipped: Callable[[etree._Element], bool]) -> bool:
    """Whether ``element`` shows text: its own (unless it is of :data:`NON_TEXT_TAGS`), the
    tails of its children, and the same of its descendants but those ``skipped`` (whose
    tails, the text around them, still count)."""
    stack = [element]
    while stack:
        node = stack.pop()
        if node.text and node.text.strip() and node.tag not in NON_TEXT_TAGS:
            return True
        for child in node:
            if child.tail and child.tail.strip():
                return True
            if isinstance(child.tag, str) and not skipped(child):
                stack.append(child)
    return False


# -- explanations -------------------------------------------------------------------------

_PREFIX_WORDS = {"own_": "its own ", "up1_": "its container's ", "up2_": "the container 2 up's ",
                 "up3_": "the container 3 up's ", "page_": "the page's ", "hint_": "class/id ",
                 "in_": "inside <", "role_": "ARIA role ", "pt_": "page type "}


_NAMED = {
    "rules_main": "auto-rules keeps it", "rules_container": "beside auto-rules' choice",
    "lb_member": "inside a linkblocks link block", "lb_block_links": "links in its link block",
    "ld_ltd": "link text density (LTD)", "ld_lad": "link amount density (LAD)",
    "ld_ntl": "text length (NTL, log)", "ld_parent_ltd": "parent's link text density",
    "ld_parent_lad": "parent's link amount density", "ld_parent_ntl": "parent's text length",
    "farsw_score": "FAR-SW line score", "farsw_window": "FAR-SW window score",
    "cl_recurrence": "how often its path recurs on the site",
    "own_link_share": "share of its text in links", "own_chars": "its length (log)",
    "pos_chars": "its position on the page", "win_link_share": "link share around it",
    "win_chars": "text length around it",
    "ctx_prob": "its first-pass P(main)", "ctx_page_max": "the page's best first-pass P(main)",
    "ctx_page_mean": "the page's mean first-pass P(main)",
    "ctx_of_max": "its first-pass P(main) over the page's best",
    "ctx_rank": "its rank by first-pass P(main) (share of blocks above)",
    "ctx_page_main_words": "share of the page's words main in the first pass",
    "ctx_prev": "the previous block's first-pass P(main)",
    "ctx_next": "the next block's first-pass P(main)",
    "ctx_window": "first-pass P(main) around it", "ctx_window_max": "best first-pass P(main) "
    "around it",
}
for _level in (1, 2, 3):
    _NAMED[f"ctx_up{_level}_mean"] = f"first-pass P(main) in its container {_level} up"
    _NAMED[f"ctx_up{_level}_main_share"] = f"first-pass main share of its container {_level} up"


def describe(name: str) -> str:
    """A feature name in words (for reasons)."""
    if name in _NAMED:
        return _NAMED[name]
    for prefix, words in _PREFIX_WORDS.items():
        if name.startswith(prefix):
            rest = name[len(prefix):].replace("_", " ")
            return words + rest + (">" if prefix == "in_" else "")
    return name.replace("_", " ")


def _reasons(contrib: np.ndarray, row: np.ndarray, names: list[str], count: int) -> list[str]:
    order = np.argsort(-np.abs(contrib))[:count]
    out = []
    for j in order:
        if contrib[j] == 0:
            break
        direction = "for main" if contrib[j] > 0 else "against main"
        out.append(f"{describe(names[j])} = {row[j]:.3g} ({direction}, {contrib[j]:+.2f})")
    return out


# -- the segmenter ------------------------------------------------------------------------

def _other_kinds(blocks: feats.Blocks) -> np.ndarray:
    """The kind of each block, were it not main: comments, ad, links or other."""
    column = blocks.column
    comments = (column("hint_comment_near") > 0) | (
        (column("hint_comment_any") > 0) & (column("in_article") == 0))
    links = (column("own_link_share") > 0.5) | (column("in_nav") > 0) | (
        column("role_navigation") > 0) | (column("lb_member") > 0)
    return np.select([comments, column("hint_ad_near") > 0, links],
                     ["comments", "ad", "links"], "other")


def _is_data_table(table: etree._Element) -> bool:
    """A table marked up as data: a caption, header cells, a summary or column groups."""
    if table.get("role") == "presentation":
        return False
    if table.get("summary") or table.find("caption") is not None:
        return True
    return next(table.iter("th", "col", "colgroup", "thead"), None) is not None


def _page_has(blocks: feats.Blocks, tag: str) -> bool:
    """Whether the page of the blocks holds a ``tag`` element (one of ``feats.PRESENCE_BITS``),
    so that the rules below spare a Python step per block on the many pages without one.

    The walk that made the blocks tells for its start's subtree (:meth:`feats.Walk.holds`),
    which holds every block, so every table or figure around a block and every formula in
    one; other blocks are answered by one search of the whole tree."""
    if not blocks.elements:
        return False
    if blocks.holds is not None:
        return blocks.holds(tag)
    return next(blocks.elements[0].getroottree().iter(tag), None) is not None


def _whole_data_tables(blocks: feats.Blocks, is_main: np.ndarray) -> None:
    """A data table in the main content is main whole: caption, header and every row.

    Edge rows of a table read like boilerplate one by one (short, no sentence end), but a
    table cut to some of its rows is wrong data. A data table is in the main content when
    any of its blocks is main, or when most of the text around it in its parent is main.
    """
    if not _page_has(blocks, "table"):
        return
    tables: dict[etree._Element, list[int]] = {}
    for i, el in enumerate(blocks.elements):
        table = el if el.tag == "table" else next(el.iterancestors("table"), None)
        if table is not None:
            tables.setdefault(table, []).append(i)
    if not tables:
        return
    index = {el: i for i, el in enumerate(blocks.elements)}
    lengths = [len(t) for t in blocks.texts]
    for table, rows in tables.items():
        if not _is_data_table(table):
            continue
        if not is_main[rows].any():
            parent = table.getparent()
            if parent is None:
                continue
            inside = set(rows)
            around = [index[el] for el in parent.iter() if el in index
                      and index[el] not in inside]
            total = sum(lengths[i] for i in around)
            main = sum(lengths[i] for i in around if is_main[i])
            if not total or main / total < 0.5:
                continue
        is_main[rows] = True


def _main_below(blocks: feats.Blocks, is_main: np.ndarray) -> set[etree._Element]:
    """Every element that holds (or is) a main block."""
    holders: set[etree._Element] = set()
    for el, main in zip(blocks.elements, is_main):
        node = el
        while main and node is not None and node not in holders:
            holders.add(node)
            node = node.getparent()
    return holders


def _holds_blocks(blocks: feats.Blocks) -> set[etree._Element]:
    holders: set[etree._Element] = set()
    for el in blocks.elements:
        node = el
        while node is not None and node not in holders:
            holders.add(node)
            node = node.getparent()
    return holders


def _figures_beside_main(blocks: feats.Blocks, is_main: np.ndarray) -> None:
    """A figure's caption is main when the figure stands next to main content.

    Captions are short and read like boilerplate one by one, but a figure between two
    paragraphs of the article belongs to it; left out, it also splits the article into
    pieces and its picture is lost.
    """
    if not _page_has(blocks, "figure"):
        return
    figures: dict[etree._Element, list[int]] = {}
    for i, el in enumerate(blocks.elements):
        figure = el if el.tag == "figure" else next(el.iterancestors("figure"), None)
        if figure is not None:
            figures.setdefault(figure, []).append(i)
    if not figures:
        return
    with_main = _main_below(blocks, is_main)
    with_text = _holds_blocks(blocks)
    for figure, members in figures.items():
        if is_main[members].all():
            continue
        neighbours = (next((s for s in figure.itersiblings(preceding=preceding)
                            if s in with_text), None) for preceding in (True, False))
        if any(n is not None and n in with_main for n in neighbours):
            is_main[members] = True


def _own_text_outside_math(el: etree._Element) -> tuple[str, bool]:
    """The text ``el`` owns (not in nested blocks) outside <math>, and whether it owns math."""
    pieces = [el.text or ""]
    has_math = False
    stack = list(reversed([c for c in el if isinstance(c.tag, str)]))
    while stack:
        node = stack.pop()
        if node.tag == "math":
            has_math = True
        elif node.tag not in BLOCK_TAGS and node.tag not in NON_TEXT_TAGS:
            pieces.append(node.text or "")
            stack.extend(reversed([c for c in node if isinstance(c.tag, str)]))
        pieces.append(node.tail or "")
    return "".join(pieces).strip(), has_math


def _formulas_with_main(blocks: feats.Blocks, is_main: np.ndarray) -> None:
    """A block whose own text is only a formula (<math>) goes with the content around it.

    A display formula between two paragraphs is often loose in the article's container, so
    the container itself owns its text: labeled apart, it splits the article in pieces and
    the formula is lost. It is main when most of the text below it is main, or (a formula
    in a paragraph of its own) when the blocks before and after it are main.
    """
    if not _page_has(blocks, "math"):
        return
    index = {el: i for i, el in enumerate(blocks.elements)}
    lengths = np.array([len(t) for t in blocks.texts])
    for i, el in enumerate(blocks.elements):
        if is_main[i] or next(el.iter("math"), None) is None:
            continue
        rest, has_math = _own_text_outside_math(el)
        if rest or not has_math:
            continue
        below = [index[d] for d in el.iterdescendants() if d in index]
        if below:
            total = lengths[below].sum()
            keep = bool(total) and lengths[below][is_main[below]].sum() / total >= 0.5
        else:
            keep = 0 < i < len(blocks) - 1 and is_main[i - 1] and is_main[i + 1]
        if keep:
            is_main[i] = True


def _wordless_within_main(blocks: feats.Blocks, is_main: np.ndarray) -> None:
    """A block without a word (``},`` in a listing of one element per line, ``* * *``)
    between main blocks is main, and so is one closing its container's main blocks.

    Its training label says nothing (labels come from the gold's words, and it has none),
    so the trees call it not main; left so, it splits the main region and is lost from the
    reader's copy, and hide takes it off the page. Wordless links, and the glyphs of
    buttons and icons (:func:`_control_glyph`), are left as they are.
    """
    n = len(blocks)
    if n < 2:
        return
    words = blocks.column("own_words")
    wordless = (words == 0) & (blocks.column("own_links") <= 0) & ~np.asarray(is_main, bool)
    if not wordless.any():
        return
    positions = np.arange(n)
    has_words = words > 0
    # the nearest block with words before and after each block (-1 / n: none)
    before = np.maximum.accumulate(np.where(has_words, positions, -1))
    before = np.concatenate([[-1], before[:-1]])
    after = np.minimum.accumulate(np.where(has_words, positions, n)[::-1])[::-1]
    after = np.concatenate([after[1:], [n]])
    main_before = (before >= 0) & np.asarray(is_main, bool)[np.maximum(before, 0)]
    main_after = (after < n) & np.asarray(is_main, bool)[np.minimum(after, n - 1)]
    candidates = wordless & main_before
    elements = blocks.elements
    for i in np.flatnonzero(candidates).tolist():
        if _control_glyph(elements[i]):
            candidates[i] = False
        elif not main_after[i]:
            # the last lines of a listing: the same container as the main block before it
            parent = elements[i].getparent()
            candidates[i] = parent is not None and parent is elements[before[i]].getparent()
    is_main[candidates] = True


_CONTROL_NAMES = re.compile(r"icon|btn|button|arrow|chevron|caret|toggle", re.I)


def _control_glyph(element: etree._Element, levels: int = 3) -> bool:
    """Whether a wordless block is the glyph of a control or a decoration (an arrow in an
    accordion's button, an icon font's character): itself or one of its ``levels`` nearest
    ancestors is a button or a summary, says so in its role, class or id, or is hidden from
    assistive technology."""
    node: etree._Element | None = element
    for _ in range(levels + 1):
        if node is None or not isinstance(node.tag, str):
            return False
        if node.tag in ("button", "summary") or node.get("role") == "button" \
                or node.get("aria-hidden") == "true":
            return True
        if _CONTROL_NAMES.search(f"{node.get('class', '')} {node.get('id', '')}"):
            return True
        node = node.getparent()
    return False


def _trailing_paragraphs(blocks: feats.Blocks, is_main: np.ndarray) -> None:
    """Plain paragraphs that continue the main paragraphs of their container are main.

    Position on the page pulls the last paragraphs of a very long article towards
    boilerplate; a paragraph after main paragraphs of the same container, of the same tag,
    without links and without comment/ad hints, is the same article going on. Blocks are
    grouped by their parent's place in the walk (``blocks.parents``), all at once.
    """
    n = len(blocks)
    if not n:
        return
    parents = blocks.parents
    if parents is None:  # blocks not from the walk: their parents, numbered
        numbers: dict[etree._Element, int] = {}
        parents = np.asarray([-1 if parent is None else numbers.setdefault(parent, len(numbers))
                              for parent in (el.getparent() for el in blocks.elements)],
                             dtype=np.int64)
    grouped = parents >= 0  # the walk's start has no parent in it, and no siblings
    groups = np.unique(parents[grouped], return_inverse=True)[1]
    group = np.full(n, -1)
    group[grouped] = groups
    lengths = np.fromiter(map(len, blocks.texts), dtype=np.float64, count=n)
    main = np.asarray(is_main, dtype=bool) & grouped
    main_chars = np.bincount(group[grouped], weights=(lengths * main)[grouped])
    all_chars = np.bincount(group[grouped], weights=lengths[grouped])
    continued = (main_chars > 0) & (main_chars * 2 >= all_chars)
    first_main = np.full(len(main_chars), n)
    np.minimum.at(first_main, group[main], np.flatnonzero(main))
    doubt = grouped & ~main
    doubt[doubt] = continued[group[doubt]] & (np.flatnonzero(doubt) > first_main[group[doubt]])
    if not doubt.any():
        return
    doubt &= np.asarray([tag == "p" for tag in blocks.tags], dtype=bool)
    for name in ("own_link_share", "hint_comment_near", "hint_comment_any", "hint_ad_near"):
        if not doubt.any():
            return
        doubt &= blocks.column(name) == 0
    is_main[doubt] = True


#: The rules that make blocks main after the trees, in the order they run, each with the
#: reason the block's explanation gives first (the trees' own reasons say "not main").
_MAIN_RULES: tuple[tuple[Callable[[feats.Blocks, np.ndarray], None], str], ...] = (
    (_whole_data_tables, "part of a data table with main cells: the table is kept whole"),
    (_trailing_paragraphs, "a plain paragraph going on from the main paragraphs of its box"),
    (_wordless_within_main, "no words of its own, standing within main blocks"),
    (_figures_beside_main, "the caption of a figure beside main content"),
    (_formulas_with_main, "a formula within main content"),
)


#: Blocks whose texts :func:`repeated_blocks` collapses at once (bounded memory, few calls).
_REPEAT_CHUNK = 512


def repeated_blocks(blocks: feats.Blocks, is_main: np.ndarray, min_words: int) -> list[int]:
    """Main blocks whose text another main block already gives: all but one of each group.

    Pages carry the same text twice for layout (a desktop and a mobile copy, one hidden by
    CSS; a carousel's cloned slides); read twice it is noise, and counted twice it halves
    precision. The copy kept is the first visible one. Table cells and code repeat for a
    reason (a column of "Yes", the same line in two listings) and always stay.
    """
    if min_words <= 0:
        return []
    texts = blocks.texts
    # the columns read as whole arrays: one numpy scalar access per block costs more than
    # the block's own work on a page of 100,000 paragraphs
    always_kept = (blocks.column("in_table") > 0) | (blocks.column("in_pre") > 0)
    candidates = np.flatnonzero(np.asarray(is_main, dtype=bool) & ~always_kept).tolist()
    keys: list[str] = []
    for start in range(0, len(candidates), _REPEAT_CHUNK):
        part = candidates[start:start + _REPEAT_CHUNK]
        # the part's texts white-space collapsed and case-folded in one string (a NUL
        # apart: block texts hold none), then split again: " ".join(t.split()).casefold()
        joined = " ".join("\x00".join([texts[i] for i in part]).casefold().split())
        keys += map(str.strip, joined.split("\x00"))
    twice = {key for key, count in Counter(keys).items() if count > 1}
    if not twice:
        return []
    groups: dict[str, list[int]] = {}
    for i, key in zip(candidates, keys):
        if key in twice and key.count(" ") + 1 >= min_words:
            groups.setdefault(key, []).append(i)
    dropped: list[int] = []
    hidden = blocks.column("hidden") > 0
    for members in groups.values():  # each holds two or more: only repeated keys go in
        visible = [i for i in members if not hidden[i]]
        kept = (visible or members)[0]
        dropped += [i for i in members if i != kept]
    return sorted(dropped)


def uncertain_share(texts: list[str], prob: np.ndarray) -> float:
    """Share of the page's block text (characters) whose main-content probability lies in
    ``UNCERTAIN_BAND``: how much of the page the model is unsure of. Hide holds back on such
    pages (actions.hide, ``careful_uncertain_share``)."""
    if not len(prob):
        return 0.0
    chars = np.fromiter((len(t) for t in texts), dtype=np.float64, count=len(texts))
    total = chars.sum()
    low, high = UNCERTAIN_BAND
    return float(chars[(prob >= low) & (prob < high)].sum() / total) if total else 0.0


def expected_f1_threshold(prob: np.ndarray, weights: np.ndarray, floor: float = 0.0,
                          cap: float = 1.0) -> float:
    """The page's threshold that makes the expected F1 of its main text highest, kept within
    [``floor``, ``cap``].

    Taking the k most probable blocks (``weights``: their sizes, auto's
    :func:`expected_f1_weights`), the expected overlap with
    the gold is the sum of p·w over them, the output's size their w, the gold's size p·w
    over all blocks, so F1 ≈ 2 Σₖ p·w / (Σₖ w + Σ p·w) (ratio of the expectations); the
    best k puts the threshold at the k-th probability. A page the model is sure of gets a
    high threshold, one it doubts a lower (no paper: a decision rule on the trees' output).
    """
    if not len(prob):
        return cap
    p = np.asarray(prob, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    expected_gold = float(np.dot(p, w))
    if expected_gold <= 0.0:
        return cap
    order = np.argsort(-p, kind="stable")
    expected_f1 = 2.0 * np.cumsum((p * w)[order]) / (np.cumsum(w[order]) + expected_gold)
    return float(min(max(p[order[int(np.argmax(expected_f1))]], floor), cap))


_OWN_CHARS = feats.FEATURE_INDEX["own_chars"]


def expected_f1_weights(features: np.ndarray) -> np.ndarray:
    """Each block's weight in :func:`expected_f1_threshold` (rows of block features): its
    own characters, and a little more so that an empty block still counts."""
    return features[:, _OWN_CHARS] + 0.1


def page_limit(prob: np.ndarray, features: np.ndarray,
               threshold: float | tuple[float, float | None] | None,
               model_threshold: float) -> float:
    """The threshold a page's blocks are held to (``threshold`` as :func:`segment` takes
    it: one for every page, the expected-F1 rule's (floor, cap), or None: the model's)."""
    if threshold is None:
        return model_threshold
    if isinstance(threshold, tuple):
        floor, cap = threshold
        return expected_f1_threshold(prob, expected_f1_weights(features), floor,
                                     model_threshold if cap is None else cap)
    return threshold


def segment(page: Page, model: SegmenterModel,
            threshold: float | tuple[float, float | None] | None = None,
            include_comments: bool = False, site_prior: Any = None,
            repeat_min_words: int = Params.model_fields["repeat_min_words"].default
            ) -> tuple[feats.Blocks, np.ndarray, list[str], np.ndarray, str]:
    """Label every text block: (blocks, main probability, kinds, page-type probs, stage).

    ``threshold``: one for the page, (floor, cap) of :func:`expected_f1_threshold` (cap None:
    the model's threshold), or None (the model's)."""
    return _segment(page, model, threshold, include_comments, site_prior,
                    repeat_min_words)[:5]


def _segment(page: Page, model: SegmenterModel,
             threshold: float | tuple[float, float | None] | None,
             include_comments: bool, site_prior: Any, repeat_min_words: int
             ) -> tuple[feats.Blocks, np.ndarray, list[str], np.ndarray, str,
                        np.ndarray | None, list[int], float, dict[int, str]]:
    """:func:`segment`, the context columns of the stacked model (None without one), the
    main blocks dropped as repeats, the threshold the page was given, and the blocks the
    rules after the trees made main (:data:`_MAIN_RULES`), each with the rule's reason."""
    blocks = feats.compute(page, without=model.without)
    if not len(blocks):
        return blocks, np.zeros(0), [], np.zeros(len(PAGE_TYPES)), "empty", None, [], 0.0, {}
    type_probs = model.page_type_probabilities(blocks.page_features)
    prob, context = model.block_probabilities(blocks, type_probs)
    stage = "model"
    if site_prior is not None:
        adjusted = site_prior.adjust(page, blocks, prob)
        if adjusted is not None:
            prob, stage = adjusted, "site"
    limit = page_limit(prob, blocks.features, threshold, model.threshold)
    is_main = prob >= limit
    promoted: dict[int, str] = {}
    for rule, why in _MAIN_RULES:
        before = is_main.copy()
        rule(blocks, is_main)
        promoted.update(dict.fromkeys(np.flatnonzero(is_main & ~before).tolist(), why))
    repeated = repeated_blocks(blocks, is_main, repeat_min_words)
    is_main[repeated] = False
    others = _other_kinds(blocks).tolist()
    kinds = ["main" if m else other for m, other in zip(is_main.tolist(), others)]
    if include_comments:
        kinds = ["main" if k == "comments" else k for k in kinds]
    for i in repeated:
        kinds[i] = "other"
    return blocks, prob, kinds, type_probs, stage, context, repeated, limit, promoted


def _text_order(blocks: feats.Blocks, kinds: list[str]) -> list[int]:
    """Main blocks in reading order: a formula its container owns is read where it stands
    (between the container's paragraphs), not before them at the container's start."""
    order = list(range(len(blocks)))
    if not _page_has(blocks, "math"):
        return order
    anchors = {}
    for i, (el, kind) in enumerate(zip(blocks.elements, kinds)):
        if kind == "main" and len(el) and el.tag != "math" and next(el.iter("math"), None) \
                is not None and _own_text_outside_math(el) == ("", True):
            anchors[i] = next(el.iter("math"))
    if not anchors:
        return order
    root = blocks.elements[0].getroottree().getroot()
    position = {el: n for n, el in enumerate(root.iter())}
    keys = [position.get(anchors.get(i, el), 0) for i, el in enumerate(blocks.elements)]
    return sorted(order, key=lambda i: keys[i])


def _main_text(blocks: feats.Blocks, kinds: list[str],
               left_out: set[etree._Element] = frozenset()) -> str:
    """Main blocks' text, one paragraph each; cells of one table row share a line.

    ``left_out``: media notices and picture credits (:func:`content.notices`) the reader
    leaves out; a block that is one, or lies in one, is left out of the text too.
    """
    paragraphs: list[str] = []
    last_row = None
    for i in _text_order(blocks, kinds):
        el, text, kind = blocks.elements[i], blocks.texts[i], kinds[i]
        if kind != "main" or (left_out and (el in left_out or any(
                a in left_out for a in el.iterancestors()))):
            last_row = None
            continue
        row = el.getparent() if el.tag in ("td", "th") else None
        if row is not None and row is last_row and paragraphs:
            paragraphs[-1] += " | " + text
        elif el.tag == "pre":
            paragraphs.append(text)  # a code block keeps its lines together
        else:
            paragraphs.append(text.replace("\n", "\n\n"))
        last_row = row
    return "\n\n".join(paragraphs)


_MEDIA_TAGS = ("img", "picture", "video", "audio", "figure", "math", "svg")


def _not_prose(element: etree._Element) -> bool:
    """A formula or icon (``<math>``, ``<svg>``: symbols, not prose) or what the text leaves
    out."""
    return element.tag in ("math", "svg") or element.tag in NON_TEXT_TAGS


def _media_beside(main_elements: list[etree._Element], with_text: set[etree._Element]
                  ) -> list[etree._Element]:
    """Text-less pictures, figures and formulas standing right next to a main region.

    They own no text, so no block (and no region) holds them; between or after the
    paragraphs of the article they are part of it.
    """
    chosen = set(main_elements)
    found: list[etree._Element] = []
    for el in main_elements:
        for preceding in (False, True):
            for sibling in el.itersiblings(preceding=preceding):
                if sibling in with_text or sibling in chosen:
                    break
                if not isinstance(sibling.tag, str):
                    continue
                media = sibling.tag in _MEDIA_TAGS or next(
                    sibling.iter(*_MEDIA_TAGS), None) is not None
                if sibling.tag == "noscript":
                    media = "<img" in (sibling.text or "") or sibling.find(".//img") is not None
                elif media and not _not_prose(sibling) and _shows_text(sibling, _not_prose):
                    # its text belongs to the block around it, labelled otherwise (a
                    # product card's picture link with a "+5 Free Accessories" badge)
                    media = False
                if media:
                    chosen.add(sibling)
                    found.append(sibling)
    return found



def _as_shown(title: str, sources: TitleSources | None) -> str:
    """``title`` as the page shows it when it is a heading's text read with its pieces glued
    (auto-rules reads ``text_content()``): the Guardian's kicker, a box of its own inside the
    headline, read "AIAI chatbots point…" for "AI AI chatbots point…"; a line break, "Legacyof"
    (:func:`blocksift.content.rendered_text`)."""
    if sources is None or not title:
        return title
    for heading in sources.headings:
        if " ".join(heading.text_content().split()) == title:
            return " ".join(rendered_text(heading).split()) or title
    return title

def extract(page: Page, params: Params, model: SegmenterModel | None = None) -> ExtractionResult:
    """Label the page's blocks and return the main ones (module docstring)."""
    if not isinstance(params, Params):
        raise TypeError("params must be auto.Params")
    with _cyclic_gc_paused():
        return _extract(page, params, model)


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Python's cyclic collector paused while a page is worked on, as it was before after.

    Every element proxy lxml hands out is an object the collector tracks, and a long page's
    blocks stay alive to the end: the collector would walk them again and again (each full
    pass over all of them) to find no cycle. Cycles made meanwhile are collected afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _extract(page: Page, params: Params, model: SegmenterModel | None) -> ExtractionResult:
    long_page = False
    if not isinstance(model, SegmenterModel) or model is load_model():
        model = load_model()
        # the default model's extra signals cost about as much again on a long page, and
        # the fast model is level with it on the modern dev pages (docs/auto.md)
        long_page = 0 < params.long_page_elements <= page.element_count
        if long_page:
            model = load_model("fast")
    site_prior = None
    if page.url:
        from .segmenter import adapt

        site_prior = adapt.site_prior_for(page.url)
    blocks, prob, kinds, type_probs, stage, context, repeated, limit, promoted = _segment(
        page, model, params.page_threshold(), params.include_comments, site_prior,
        params.repeat_min_words)
    repeated_set = set(repeated)
    if not len(blocks):
        return ExtractionResult(algorithm=NAME, status="empty", stage="empty",
                                message=page.no_text_message(),
                                main=MainText(title=extract_title(page)))

    def too_long_for_rules() -> bool:  # asked only when needed: counting walks the tree
        return 0 < params.rules_fallback_max_elements <= page.element_count

    if "main" not in kinds and params.rules_fallback and not too_long_for_rules():
        rules_main = _rules_choice(page, blocks)
        if rules_main.any():
            kinds = ["main" if r else k for r, k in zip(rules_main, kinds)]
            stage = "rules"
    page_type = PAGE_TYPES[int(np.argmax(type_probs))] if type_probs.any() else ""
    regions = _regions(blocks.elements, kinds)
    index = {el: i for i, el in enumerate(blocks.elements)}
    chars = [len(text) for text in blocks.texts]
    names = list(model.final_names)
    # one representative block per region (its longest) explains the region
    reps = []
    for el, kind, _excluded in regions:
        below = blocks.rows_below(el)
        members = ([r for r in below if kinds[r] == kind] if below is not None else
                   [index[b] for b in ([el] + list(el.iterdescendants()))
                    if b in index and kinds[index[b]] == kind])
        reps.append(max(members, key=chars.__getitem__) if members else None)
    del index  # a dict of every block: freed before the reader HTML (below)
    # reasons for the regions with the most text (a page of thousands of regions would
    # spend most of its time explaining them)
    explained = sorted((r for r in reps if r is not None), key=chars.__getitem__,
                       reverse=True)[:MAX_EXPLAINED]
    rep_rows = sorted(set(explained))
    # the model's columns of the explained rows only (a page may hold 100,000 blocks), and
    # none without reasons to give (a crawl's text-only run)
    rep_x = (model.final_matrix(blocks, type_probs, context, rows=rep_rows) if params.reasons
             else np.zeros((len(rep_rows), len(names))))
    contrib = ((model.stacked or model.blocks).contributions(rep_x)
               if params.reasons and rep_rows
               else np.zeros((len(rep_rows), len(names))))
    contrib_of = dict(zip(rep_rows, contrib))
    row_of = dict(zip(rep_rows, rep_x))
    # nothing below reads the features (about 1 kB a block, when built whole): free them
    # before the reader HTML is built, the other high-water mark of a long page's memory
    blocks.release_features()
    context = None
    has_ids = page.has_ids
    xpath_of = XPaths()
    out_blocks: list[Block] = []
    main_elements: list[etree._Element] = []
    main_exclude: set[etree._Element] = set()
    p_regions = [float(prob[rep]) if rep is not None else 0.0 for rep in reps]
    for run in _sibling_runs(regions):
        rep = max((reps[r] for r in run if reps[r] is not None),
                  key=chars.__getitem__, default=None)
        kind = regions[run[0]][1]
        p_main = float(prob[rep]) if rep is not None else 0.0
        confidence = p_main if kind == "main" else 1.0 - p_main
        reasons = (_reasons(contrib_of[rep], row_of[rep], names, params.reasons)
                   if rep in contrib_of and params.reasons else [])
        if rep in repeated_set:
            reasons = ["repeats the text of a main block above, shown once"] + reasons
        elif rep in promoted and kind == "main" and params.reasons:
            reasons = [promoted[rep]] + reasons  # the trees said otherwise: say why it is main
        elements = [regions[r][0] for r in run]
        excluded = {e for r in run for e in regions[r][2]}
        if kind == "main":
            main_elements.extend(elements)
            main_exclude.update(excluded)
        if not page.spans:
            continue  # a page parsed for its text only (Page(spans=False)) gets no blocks
        start, end = page.span(elements[0])[0], page.span(elements[-1])[1]
        out_blocks.append(Block(
            kind=kind, algorithm=NAME, score=round(p_main, 4), start=start, end=end,
            element_ids=page.ids_within(elements, excluded) if has_ids else [],
            xpaths=[] if has_ids else [xpath_of(e) for e in elements],
            confidence=round(min(max(confidence, 0.0), 1.0), 4), reasons=reasons,
            features={"p_main": round(p_main, 4)}))
    left_out = set(notices(main_elements)) if main_elements else set()
    text = _main_text(blocks, kinds, left_out)
    title = _as_shown(extract_title(page, main_elements or None, main_exclude,
                                    blocks.title_sources), blocks.title_sources)
    stats = {"blocks": float(len(blocks)), "main_blocks": float(kinds.count("main")),
             "text_length": float(len(text)),
             "uncertain_share": round(uncertain_share(blocks.texts, prob), 4),
             "threshold": round(limit, 4),
             "long_page_fast_model": float(long_page),
             # the site's labeled pages that adapted it, and of them the user's saved
             # examples (left out where the site's file does not know: an older file)
             **({"site_pages": float(site_prior.pages)} if stage == "site" else {}),
             **({"site_examples": float(site_prior.examples)}
                if stage == "site" and site_prior.examples is not None else {})}
    render = params.main_text and params.with_html and bool(main_elements)
    beside = _media_beside(main_elements, _holds_blocks(blocks)) if render else []
    authors: list[etree._Element] = []
    if render and page_type == "forum":
        # the reader shows who wrote each post; the text stays the blocks' (the segmenter's)
        authors = post_authors(page.body, main_elements, main_exclude)
        # a chosen box showing a name alone is a head too (already among main_elements)
        chosen = set(main_elements)
        beside += [name for name in authors if name not in chosen]
    # the blocks' elements and texts (a proxy and a string per block) are not read below:
    # freed before the reader HTML, a long page's high-water mark of memory
    del blocks, kinds, chars
    main = None
    if params.main_text:
        if render:
            found_notices = left_out
            if beside:
                position = {el: n for n, el in enumerate(page.tree.iter())}
                main_elements = sorted(main_elements + beside, key=lambda e: position.get(e, 0))
                found_notices = left_out | set(notices(beside))
            # the text is the blocks' (above); notices and xpaths are found already
            rendered = render_main(page, main_elements, with_html=True, exclude=main_exclude,
                                   title=title, with_text=False, found_notices=found_notices,
                                   xpath_of=xpath_of, post_heads=set(authors))
            html = rendered.html
            if not params.include_images and html:
                html = re.sub(r"<img\b[^>]*>", "", html)
            main = rendered.model_copy(update={"text": text, "html": html})
        else:
            main = MainText(title=title, text=text,
                            element_ids=[i for b in out_blocks if b.kind == "main"
                                         for i in b.element_ids],
                            xpaths=[x for b in out_blocks if b.kind == "main"
                                    for x in b.xpaths])
    for name, p in zip(PAGE_TYPES, type_probs):
        stats[f"page_type.{name}"] = round(float(p), 4)
    status = "ok" if text else "empty"
    message = "" if text else "no block was labeled main content" + (
        "" if not params.rules_fallback or not too_long_for_rules() else
        f" (no rule-based fallback on a page of {params.rules_fallback_max_elements:,} "
        "elements or more)")
    return ExtractionResult(
        algorithm=NAME, status=status, blocks=out_blocks, main=main, stage=stage, stats=stats,
        message=message,
        extra={"page_type": page_type,
               "segments": [(el, kind, excluded, p) for (el, kind, excluded), p
                            in zip(regions, p_regions)],
               "block_probabilities": prob})

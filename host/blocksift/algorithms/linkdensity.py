"""Main-content extraction by link density on the tag tree.

Paper: R. Gunasundari and S. Karthikeyan, "A study of content extraction from web pages
based on links" (seed 003 in ``shared/seeds``). Implemented here:

* §3.1 the four node measures, computed once per element in one bottom-up pass
  (:func:`node_stats`):

  - LTD, link text density = text length inside links / text length of the node;
  - LA, link amount = number of links under the node;
  - LAD, link amount density = LA / number of child nodes under the node;
  - NTL, node text length = length of the node's text with the tags removed.

* §3.2 step 1 (standardised tags): the page is parsed once by lxml (:attr:`Page.tree`),
  which already yields a well-formed, correctly nested tree.
* §3.2 step 2 (preprocessing): nodes without text and ``script style form marquee meta``
  subtrees are removed. Here this is a *view*: the stats pass skips those subtrees and the
  search never visits a text-less element, so the shared tree is never changed.
* §3.2 steps 3-4 and §3.3 items 5-14 (level-by-level search, :func:`search`): starting with
  the children of the root (``head`` and ``body``), every node of a level that meets the
  *basic* content conditions is examined; one that also meets the *precise* conditions is
  extracted, otherwise its children form the next level. When no node of the first level
  meets the basic conditions the page is "not suitable for the algorithm" (item 14).
* §3.2 step 5 (adjustment): the same-level siblings of an extracted node that meet the
  precise conditions are extracted too.

What the paper leaves open, and how it is read here (each a named :class:`Params` field):

* Directions of the comparisons. The paper prints only "LTD = 0.4, LA = 10, NTL = 100,
  LAD = 0.5" (basic) and "LTD = 0.1, LA = 10, NTL = 50, LAD = 0.1" (precise). §3.1 says a
  large LTD marks an advert block, a large LA means the children must be checked, LAD
  "judges whether the content contains a number of links" and NTL locates the content, so:
  basic LTD <= 0.4, NTL >= 100, LAD <= 0.5; precise LTD <= 0.1, LA <= 10, NTL >= 50,
  LAD <= 0.1. Basic LA is not checked by default: an upper bound would reject ``body`` on
  nearly every page (the walk-through accepts it), a lower bound would reject the article
  node the walk-through extracts, and §3.1 calls LA an index "for the accurate content".
  Every direction is a field (``*_cmp``: ``"<="``, ``">="`` or ``"ignore"``).
* "Child nodes" in LAD: all nodes under the node after preprocessing, text nodes included
  (the DOM's and HtmlParser 2.0's node model, which the paper used; §4.2);
  ``count_text_nodes=False`` counts elements only.
* A link is an ``<a>`` element with an ``href`` that holds text (image-only links are
  text-less nodes, removed by step 2).
* Text length is counted in characters after collapsing white space (the paper's pages are
  Chinese, where a character is the natural unit); ``length_unit="tokens"`` counts a Latin
  word or a CJK character as one.
* When a node meets the basic but not the precise conditions and none of its children meets
  the basic ones, the literal algorithm has nothing to extract on that branch
  (``dead_end="not_suitable"``); ``dead_end="parent"`` extracts that node instead.
  The page is "not suitable" when no branch extracts anything.
* ``<title>`` is among the removed tags: the document title is no page content (the reader
  view shows it apart), and a title of 100 characters or more would make ``head`` meet both
  condition sets. ``head`` itself stays, as in the walk-through (§4.1), because lxml moves
  the whole page into it on some malformed pages.
* Step 5 adds *all* qualifying siblings ("all text will be extracted from the qualified
  nodes on the same level"); ``sibling_scope="adjacent"`` stops at the first sibling on each
  side that does not qualify, ``"none"`` turns the step off.

Practical departures, all off by default:

* ``inline_links_as_text``: links sitting in running text (their parent element's own link
  text density is at most ``inline_link_max_parent_ltd``) count as text, not links, for
  LTD, LA and LAD. Under the paper's values an article with many inline links fails the
  precise conditions (LA > 10, LTD > 0.1), the search descends into its paragraphs and
  loses them; the paper itself names "pages [that] contain too many links" as its main
  failure (§4.2).
* ``min_punctuation``: the abstract's idea of judging content by its number of punctuation
  marks, as an extra basic condition (§3.3 does not use it).

Result: status ``"ok"`` with one ``main`` block per extracted node (score = 1 - LTD, the
node's LTD, LA, LAD and NTL in ``features``); ``"not_suitable"`` with a message when nothing
qualifies (item 14); ``"empty"`` when the page has no text at all.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from lxml import etree
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..content import (
    NON_TEXT_TAGS,
    element_text,
    plain_text,
    render_main,
    sanitized_html,
)
from ..page import Page
from ..wire.results import Block, ExtractionResult, MainText

NAME = "linkdensity"
MODEL = None

Comparison = Literal["<=", ">=", "ignore"]

_PAPER = "seed 003 (Gunasundari & Karthikeyan)"

#: The tags §3.2 step 2 names ("script, style, form, marquee, meta etc").
PAPER_REMOVED_TAGS = ("script", "style", "form", "marquee", "meta")
#: The paper's list completed ("etc") with the project's non-text tags, ``title`` included;
#: ``head`` stays, since the walk-through (§4.1) compares ``head`` with ``body``.
DEFAULT_REMOVED_TAGS = PAPER_REMOVED_TAGS + tuple(
    sorted(NON_TEXT_TAGS - {"head"} - set(PAPER_REMOVED_TAGS)))


#: The departures that together answer most pages the paper calls not suitable (see
#: docs/linkdensity.md for the measured effect); pass as ``Params(**PRACTICAL)``.
PRACTICAL: dict[str, object] = {"inline_links_as_text": True,
                                "no_basic_node": "descend_largest", "dead_end": "parent"}


class Params(BaseModel):
    """Thresholds and readings of the link-density search; defaults are the paper's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # -- basic content conditions (§3.2 step 3) ------------------------------------------
    basic_ltd: float = Field(0.4, ge=0, description=f"Basic LTD threshold, {_PAPER} §3.2 step 3")
    basic_ltd_cmp: Comparison = Field("<=", description="Basic LTD direction: a large LTD marks "
                                      "an advert block (§3.1)")
    basic_la: float = Field(10, ge=0, description=f"Basic LA threshold, {_PAPER} §3.2 step 3")
    basic_la_cmp: Comparison = Field("ignore", description="Basic LA direction: not checked, LA "
                                     "is an index for the accurate content (§3.1); see module doc")
    basic_ntl: float = Field(100, ge=0, description=f"Basic NTL threshold, {_PAPER} §3.2 step 3")
    basic_ntl_cmp: Comparison = Field(">=", description="Basic NTL direction: content holds text "
                                      "(§3.1)")
    basic_lad: float = Field(0.5, ge=0, description=f"Basic LAD threshold, {_PAPER} §3.2 step 3")
    basic_lad_cmp: Comparison = Field("<=", description="Basic LAD direction: content holds few "
                                      "links per node (§3.1)")
    # -- precise content conditions (§3.2 step 4) ----------------------------------------
    precise_ltd: float = Field(0.1, ge=0, description=f"Precise LTD, {_PAPER} §3.2 step 4")
    precise_ltd_cmp: Comparison = Field("<=", description="Precise LTD direction (§3.1)")
    precise_la: float = Field(10, ge=0, description=f"Precise LA, {_PAPER} §3.2 step 4")
    precise_la_cmp: Comparison = Field("<=", description="Precise LA direction: a large LA means "
                                       "the children must be checked (§3.1)")
    precise_ntl: float = Field(50, ge=0, description=f"Precise NTL, {_PAPER} §3.2 step 4")
    precise_ntl_cmp: Comparison = Field(">=", description="Precise NTL direction (§3.1)")
    precise_lad: float = Field(0.1, ge=0, description=f"Precise LAD, {_PAPER} §3.2 step 4")
    precise_lad_cmp: Comparison = Field("<=", description="Precise LAD direction (§3.1)")
    # -- readings of what the paper leaves open ------------------------------------------
    removed_tags: tuple[str, ...] = Field(
        DEFAULT_REMOVED_TAGS,
        description="Subtrees left out of the tree, §3.2 step 2: the paper's list and, for "
        "its 'etc', the other tags whose content is never visible text")
    count_text_nodes: bool = Field(True, description="LAD's child nodes include text nodes "
                                   "(DOM / HtmlParser node model, §3.1 and §4.2)")
    length_unit: Literal["chars", "tokens"] = Field(
        "chars", description="NTL and LTD unit: characters (the paper's Chinese pages) or "
        "tokens (Latin word or CJK character = 1); departure")
    sibling_scope: Literal["all", "adjacent", "none"] = Field(
        "all", description="Step 5: which same-level siblings meeting the precise conditions "
        "are added (§3.2 step 5)")
    dead_end: Literal["not_suitable", "parent"] = Field(
        "not_suitable", description="When a node meets the basic but not the precise "
        "conditions and no child meets the basic ones: extract nothing (§3.3 item 14, "
        "literal) or the node itself (departure)")
    level_choice: Literal["all", "best"] = Field(
        "all", description="Which nodes of a level meeting the basic conditions are followed: "
        "all of them (§3.3 items 9-13) or only the one with the largest NTL (§3.2 step 3/5: "
        "'only the node that most likely contains the content is selected')")
    no_basic_node: Literal["not_suitable", "descend_largest"] = Field(
        "not_suitable", description="When no node of a level meets the basic conditions: stop "
        "(§3.3 item 14) or go on into the node with the most non-link text (departure)")
    # -- practical departures, off by default --------------------------------------------
    inline_links_as_text: bool = Field(
        False, description="Links inside running text count as text for LTD, LA, LAD "
        "(departure: the paper fails on pages with many links, §4.2)")
    inline_link_max_parent_ltd: float = Field(
        0.5, ge=0, le=1, description="A link is inline when its parent's LTD is at most this "
        "(used only with inline_links_as_text)")
    min_punctuation: int = Field(
        0, ge=0, description="Extra basic condition: at least this many punctuation marks "
        "(the abstract's idea; 0 = off, as in §3.3)")

    @field_validator("removed_tags")
    @classmethod
    def _lower_tags(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(tag.strip().lower() for tag in value if tag.strip())


@dataclass
class NodeStats:
    """The §3.1 measures of one element, over the preprocessed view of its subtree."""

    text: int = 0          # NTL: text length
    link_text: int = 0     # text length inside links
    links: int = 0         # LA
    nodes: int = 0         # child nodes under the element (elements, and text nodes)
    punctuation: int = 0
    children: list[etree._Element] = field(default_factory=list)  # kept element children
    is_link: bool = False

    @property
    def ltd(self) -> float:
        """Link text density (§3.1 item 1)."""
        return self.link_text / self.text if self.text else 0.0

    @property
    def lad(self) -> float:
        """Link amount density (§3.1 item 3); 0 for a node without child nodes."""
        return self.links / self.nodes if self.nodes else 0.0


_WS = re.compile(r"\s+")
_CJK = (r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
        r"\U00020000-\U0002fa1f")
_TOKEN = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])\w)+")
_PUNCT = re.compile(r"[.,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u3001]")


def _measure(text: str | None, unit: str) -> int:
    """Length of a text piece: characters after collapsing white space, or tokens."""
    if not text or text.isspace():
        return 0
    if unit == "tokens":
        return len(_TOKEN.findall(text))
    return len(_WS.sub(" ", text.strip()))


def node_stats(root: etree._Element, params: Params) -> dict[etree._Element, NodeStats]:
    """LTD, LA, LAD and NTL of every element of the preprocessed view (§3.1, §3.2 step 2).

    One iterative pass (no recursion limit on deep trees): removed tags and comments are
    skipped with their subtrees (their tails still belong to the parent), and an element
    whose subtree holds no text is left out of its parent's children and node count.
    The dict lists children before parents (reverse document order).
    """
    removed = set(params.removed_tags)
    unit = params.length_unit
    want_punct = params.min_punctuation > 0
    text_node = 1 if params.count_text_nodes else 0
    chars = unit == "chars"
    order: list[tuple[etree._Element, NodeStats]] = []

    def add_piece(node: NodeStats, piece: str | None, in_link: bool) -> None:
        if not piece:
            return
        if chars:  # _measure's collapsed length: str.split() splits on the same white space
            words = piece.split()
            size = sum(map(len, words)) + len(words) - 1 if words else 0
        else:
            size = _measure(piece, unit)
        if size:
            node.text += size
            if in_link:
                node.link_text += size
            node.nodes += text_node
            if want_punct:
                node.punctuation += len(_PUNCT.findall(piece))

    def open_element(element: etree._Element, in_link: bool) -> list:
        is_link = element.tag == "a" and element.get("href") is not None
        in_link = in_link or is_link
        node = NodeStats(is_link=is_link)
        order.append((element, node))
        add_piece(node, element.text, in_link)
        return [element, iter(element), in_link, node]

    # frames: [element, its children iterator, inside a link, its stats]
    frames = [open_element(root, False)]
    while frames:
        frame = frames[-1]
        child = next(frame[1], None)
        if child is None:
            frames.pop()
            if frames:
                node = frame[3]
                if node.text:  # a text-less node is removed (step 2)
                    parent = frames[-1][3]
                    parent.children.append(frame[0])
                    parent.text += node.text
                    parent.link_text += node.link_text
                    parent.links += node.links + (1 if node.is_link else 0)
                    parent.nodes += node.nodes + 1
                    parent.punctuation += node.punctuation
            continue
        # the child's tail is the parent's text, whatever the child is
        add_piece(frame[3], child.tail, frame[2])
        if isinstance(child.tag, str) and child.tag not in removed:
            frames.append(open_element(child, frame[2]))
    stats = dict(reversed(order))
    if params.inline_links_as_text:
        _discount_inline_links(stats, params)
    return stats


def _discount_inline_links(stats: dict[etree._Element, NodeStats], params: Params) -> None:
    """Count links inside running text as text: drop them from LA and link text upwards."""
    for element, node in list(stats.items()):
        if not node.is_link or not node.text:
            continue
        parent = element.getparent()
        parent_stats = stats.get(parent) if parent is not None else None
        if parent_stats is None or parent_stats.ltd > params.inline_link_max_parent_ltd:
            continue
        link_text, links = node.link_text, node.links + 1
        node.link_text = 0
        node.is_link = False
        node.links = 0
        ancestor = parent
        while ancestor is not None:
            ancestor_stats = stats.get(ancestor)
            if ancestor_stats is None:
                break
            ancestor_stats.link_text -= link_text
            ancestor_stats.links -= links
            ancestor = ancestor.getparent()


def _compare(value: float, threshold: float, cmp: Comparison) -> bool:
    if cmp == "ignore":
        return True
    return value <= threshold if cmp == "<=" else value >= threshold


def meets_basic(node: NodeStats, params: Params) -> bool:
    """The basic content conditions of §3.2 step 3 (and the optional punctuation count)."""
    return (_compare(node.ltd, params.basic_ltd, params.basic_ltd_cmp)
            and _compare(node.links, params.basic_la, params.basic_la_cmp)
            and _compare(node.text, params.basic_ntl, params.basic_ntl_cmp)
            and _compare(node.lad, params.basic_lad, params.basic_lad_cmp)
            and node.punctuation >= params.min_punctuation)


def meets_precise(node: NodeStats, params: Params) -> bool:
    """The precise content conditions of §3.2 step 4."""
    return (_compare(node.ltd, params.precise_ltd, params.precise_ltd_cmp)
            and _compare(node.links, params.precise_la, params.precise_la_cmp)
            and _compare(node.text, params.precise_ntl, params.precise_ntl_cmp)
            and _compare(node.lad, params.precise_lad, params.precise_lad_cmp))


@dataclass
class SearchOutcome:
    """Nodes the search chose, and how."""

    chosen: list[etree._Element] = field(default_factory=list)
    reasons: dict[etree._Element, str] = field(default_factory=dict)  # precise|sibling|parent
    levels: dict[etree._Element, int] = field(default_factory=dict)
    examined: int = 0
    dead_ends: int = 0
    descents: int = 0  # levels crossed by ``no_basic_node="descend_largest"``
    adjusted: set[int] = field(default_factory=set)  # levels step 5 already added to
    first_level_qualified: bool = False


def search(root: etree._Element, stats: dict[etree._Element, NodeStats],
           params: Params) -> SearchOutcome:
    """The level-by-level search of §3.3 items 5-14 with the step 5 adjustment (§3.2).

    Levels are numbered as in the paper's walk-through (§4.1): the root is level 1, so the
    first level traversed is level 2 (``head`` and ``body``). Each pending entry is one
    level under one parent, with the nearest ancestor that met the basic conditions (the
    node ``dead_end="parent"`` falls back to).
    """
    outcome = SearchOutcome()
    root_stats = stats.get(root)
    if root_stats is None:
        return outcome
    pending: list[tuple[list[etree._Element], int, etree._Element | None,
                        etree._Element | None]] = [(root_stats.children, 2, None, None)]
    while pending:
        level_nodes, level, parent, last_basic = pending.pop(0)
        qualifying = [n for n in level_nodes if meets_basic(stats[n], params)]  # item 7
        outcome.examined += len(level_nodes)
        if parent is None:
            outcome.first_level_qualified = bool(qualifying)
        if qualifying and params.level_choice == "best":  # §3.2 step 3: the optimum node
            qualifying = [max(qualifying, key=lambda n: stats[n].text)]
        if not qualifying:  # item 14 on this branch
            if params.no_basic_node == "descend_largest":
                inner = [n for n in level_nodes if stats[n].children]
                if inner:
                    largest = max(inner, key=lambda n: stats[n].text - stats[n].link_text)
                    outcome.descents += 1
                    pending.append((stats[largest].children, level + 1, largest, last_basic))
                    continue
            if parent is not None:
                outcome.dead_ends += 1
            if params.dead_end == "parent" and last_basic is not None:
                _choose(outcome, last_basic, "parent")
            continue
        for node in qualifying:  # items 9-13
            if meets_precise(stats[node], params):  # item 11
                _choose(outcome, node, "precise")
                _adjust(outcome, node, level_nodes, stats, params)
            else:  # item 12: the node's children are the next level
                pending.append((stats[node].children, level + 1, node, node))
    outcome.chosen.sort(key=_document_position(root))
    return outcome


def _choose(outcome: SearchOutcome, node: etree._Element, reason: str) -> None:
    if node not in outcome.reasons:
        outcome.chosen.append(node)
        outcome.reasons[node] = reason
        outcome.levels[node] = sum(1 for _ in node.iterancestors()) + 1  # root = level 1


def _adjust(outcome: SearchOutcome, node: etree._Element, level_nodes: Sequence[etree._Element],
            stats: dict[etree._Element, NodeStats], params: Params) -> None:
    """§3.2 step 5: add same-level siblings that meet the precise conditions."""
    if params.sibling_scope == "none":
        return
    index = level_nodes.index(node)
    if params.sibling_scope == "all":
        if id(level_nodes) in outcome.adjusted:  # every qualifying sibling is in already
            return
        outcome.adjusted.add(id(level_nodes))
        candidates: Iterable[etree._Element] = level_nodes
    else:
        candidates = []
        for step in (-1, 1):
            at = index + step
            while 0 <= at < len(level_nodes) and meets_precise(stats[level_nodes[at]], params):
                candidates.append(level_nodes[at])
                at += step
    for sibling in candidates:
        if sibling is not node and meets_precise(stats[sibling], params):
            _choose(outcome, sibling, "sibling")


def _document_position(root: etree._Element):  # type: ignore[no-untyped-def]
    positions: dict[etree._Element, int] = {}

    def key(element: etree._Element) -> int:
        if not positions:
            positions.update((el, i) for i, el in enumerate(root.iter()))
        return positions.get(element, 0)

    return key


def _thresholds(params: Params, prefix: str) -> str:
    parts = []
    for measure in ("ltd", "la", "ntl", "lad"):
        cmp = getattr(params, f"{prefix}_{measure}_cmp")
        if cmp != "ignore":
            parts.append(f"{measure.upper()} {cmp} {getattr(params, f'{prefix}_{measure}'):g}")
    return ", ".join(parts) or "none"


def _render(page: Page, chosen: list[etree._Element], params: Params) -> MainText:
    """Main text of the chosen nodes (content.py walks iteratively: any depth is fine)."""
    return _render_main(page, chosen, params)


def _render_main(page: Page, chosen: list[etree._Element], params: Params) -> MainText:
    """Main text of the chosen nodes; subtrees step 2 removed stay out of it."""
    removed = set(params.removed_tags) - NON_TEXT_TAGS
    if not any(el.tag in removed for node in chosen for el in node.iterdescendants()):
        return render_main(page, chosen)
    # the tree is shared: drop the removed subtrees from copies, map ids from the originals
    copies = []
    for node in chosen:
        clone = copy.deepcopy(node)
        for element in list(clone.iter()):
            if element is not clone and element.tag in removed:
                element.drop_tree()
        copies.append(clone)
    base = render_main(page, chosen, with_html=False)
    keep = [el for node in chosen for el in node.iter()
            if not any(a.tag in removed for a in el.iterancestors())
            and el.tag not in removed]
    ids = [value for value in (page.element_id(el) for el in keep) if value is not None]
    return MainText(title=base.title, text=plain_text(copies),
                    html=sanitized_html(page, copies),
                    element_ids=ids if page.has_ids else [], xpaths=base.xpaths)


def extract(page: Page, params: Params | None = None, model: object = None) -> ExtractionResult:
    """Extract the main content of ``page`` by the link-density search (seed 003 §3.3).

    Args:
        page: the parsed page (its shared tree is read, never changed).
        params: thresholds and readings; the paper's values by default.
        model: unused (the algorithm learns nothing).

    Returns:
        ``ok`` with the chosen nodes as ``main`` blocks and their text in ``main``;
        ``not_suitable`` when no node meets the conditions (§3.3 item 14);
        ``empty`` when the page has no text.
    """
    params = params if params is not None else Params()
    root = page.tree
    stats = node_stats(root, params)
    root_stats = stats[root]
    page_stats = {"ntl": float(root_stats.text), "ltd": round(root_stats.ltd, 4),
                  "la": float(root_stats.links), "lad": round(root_stats.lad, 4)}
    # no measured text: "empty" unless visible text sits in removed tags (a <form> page)
    if not root_stats.text and not element_text(root):
        return ExtractionResult(algorithm=NAME, status="empty", stats=page_stats,
                                message="The page has no text.")
    outcome = search(root, stats, params)
    page_stats.update(examined=float(outcome.examined), dead_ends=float(outcome.dead_ends),
                      descents=float(outcome.descents),
                      chosen=float(len(outcome.chosen)))
    if not outcome.chosen:
        if not outcome.first_level_qualified:
            why = (f"no node of the first level meets the basic content conditions "
                   f"({_thresholds(params, 'basic')})")
        else:
            why = (f"the search found no node meeting the precise content conditions "
                   f"({_thresholds(params, 'precise')}) below the nodes meeting the basic "
                   f"ones ({_thresholds(params, 'basic')})")
        return ExtractionResult(
            algorithm=NAME, status="not_suitable", stats=page_stats, stage="paper",
            message=f"This page is not suitable for link-density extraction: {why} "
                    f"(seed 003 §3.3 item 14).")
    blocks = []
    for node in outcome.chosen:
        node_stat = stats[node]
        start, end = page.span(node)
        blocks.append(Block(
            kind="main", algorithm=NAME, score=round(1.0 - node_stat.ltd, 4),
            start=start, end=end,
            element_ids=page.ids_within([node]) if page.has_ids else [],
            xpaths=[] if page.has_ids else [page.xpath(node)],
            link_count=node_stat.links,
            features={"ltd": round(node_stat.ltd, 4), "la": float(node_stat.links),
                      "lad": round(node_stat.lad, 4), "ntl": float(node_stat.text),
                      "level": float(outcome.levels[node])}))
    main = _render(page, outcome.chosen, params)
    if not main.text.strip():
        return ExtractionResult(
            algorithm=NAME, status="not_suitable", stats=page_stats, stage="paper",
            message="This page is not suitable for link-density extraction: the nodes the "
                    "search chose hold no visible text (seed 003 §3.3 item 14).")
    reasons = set(outcome.reasons.values())
    departures = (["descend_largest"] if outcome.descents else []) + \
        (["dead_end_parent"] if "parent" in reasons else [])
    stage = "+".join(departures) or "paper"
    return ExtractionResult(algorithm=NAME, status="ok", blocks=blocks,
                            main=main, stats=page_stats,
                            stage=stage, extra={"reasons": [outcome.reasons[n]
                                                            for n in outcome.chosen]})

"""Per-site template clustering and block-density rules.

Paper: Wang Yi-zhou, Chen Xing, Dai Yuan-fei, "Web Information Extraction Based on Webpage
Clustering" (基于网页聚类的正文信息提取方法), Journal of Chinese Computer Systems
(小型微型计算机系统) 2018, 39(1): 111-115 (seed 002).

What the paper pins (and where):

* §4.1 Def. 2-4: block nodes are ``div`` and ``table``; a page's structure feature is the
  set of its block nodes' paths, like ``body1/div3/div2`` (:func:`structure_feature`).
* §4.2 Eq. (1): ``sim(Fi, Fj) = |Fi ∩ Fj| / min(|Fi|, |Fj|)`` (:func:`sim`).
* §4.2 Def. 6 and Algorithm 1 (getClasses): a greedy pass; a class holds the pages with
  ``sim > 0.82`` to its first page and is kept when it has more than 5 pages
  (:func:`get_classes`).
* §5.1 Def. 7-9, Eq. (2)-(5): ``H(b) = P_text · (1 − P_link) · P_textl / (1 + size(b) · α)``,
  ``α = 0.3`` (:func:`block_scores`).
* §5.2 Def. 10 and Algorithm 2 (getBlock): each page of a class votes for the ⟨class, id,
  path⟩ of its best-H(b) block with that H; equal triples add up; the triple with the highest
  sum is the class's rule (:func:`learn_rules`). A rule is applied with priority
  id > class > path.
* §3 / Fig. 1: a new page is matched to its class by its structure feature and the class's
  rule extracts its main block (:func:`extract`).

Decisions where the paper is silent (each documented on :class:`Params` too):

* Path index: the position of a node among its parent's children *of the same tag*,
  1-based, as in XPath (``div3`` = third ``div`` child). Every node on the way from
  ``body`` down is in the path (Def. 3 walks parent links), so a ``div`` under a ``td``
  reads ``body1/table1/tr1/td2/div1``. Paths start at ``body1``, as the paper's example
  does; nodes outside ``<body>`` are not blocks. Paths are those of the parsed tree: lxml
  does not insert the ``tbody`` a browser's DOM has, so a model learned from files and one
  learned from live snapshots of the same site differ there (each is consistent).
* Text counts (T, T_n, lT_n) are non-whitespace characters of visible text (script, style
  and the other :data:`blocksift.content.NON_TEXT_TAGS` never count); link text is the text
  inside ``<a href>``; LN counts ``<a href>`` elements; size(b) counts descendant elements.
* sim of two features where one is empty is 0 (no block node, no evidence).
* Matching a new page: the class whose feature (the feature of its first page, Def. 6's
  ``F_i``) is most similar, provided ``sim > sim_threshold`` — the same test Algorithm 1
  used to admit the class's pages (``match_threshold`` overrides it).
* Applying a rule: ``id`` looks for a block node with that id attribute, then ``class`` for a
  block node with exactly that class attribute (whitespace-normalized), then ``path``; when
  several blocks share the id or class, the one with the highest H(b) is taken. A rule that
  finds no block, or only a block without text, falls back to the page's own best block.
* No class (no model, or no class similar enough): the page's own best-H(b) block, which is
  also the paper's "without clustering" baseline (§6, Table 1).

``extract`` reports which way the block was found in ``result.stage``:
``class_rule:id`` / ``class_rule:class`` / ``class_rule:path`` (the class rule),
``own_best`` (no class), ``own_best:rule_missed`` (a class matched but its rule found nothing
usable on this page). ``result.extra["site_observation"]`` holds the page's structure feature
and the rule candidate of its own best block: all the per-site store needs to rebuild classes
and rules (Algorithm 2 only uses each page's best block triple and its H).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from lxml import etree
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..content import NON_TEXT_TAGS, render_main
from ..page import Page
from ..wire.results import Block, ExtractionResult

NAME = "clustering"
MODEL: Literal["site"] = "site"

#: Version of the observation dict put in ``result.extra["site_observation"]``.
OBSERVATION_VERSION = 1


class Params(BaseModel):
    """Thresholds of seed 002; defaults are the paper's values."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sim_threshold: float = Field(
        0.82, ge=0.0, le=1.0,
        description="Two pages are alike when sim > this (seed 002 §4.2 Def. 6, Algorithm 1)")
    min_class_size: int = Field(
        5, ge=0,
        description="A class is kept when it has MORE than this many pages "
                    "(seed 002 §4.2 Def. 6 'n > 5', Algorithm 1 'card(C_k.W) > 5')")
    alpha: float = Field(
        0.3, ge=0.0,
        description="Weight of a block's descendant count in H(b) (seed 002 §5.1 Eq. (5))")
    block_tags: tuple[str, ...] = Field(
        ("div", "table"),
        description="Tags of block nodes (seed 002 §4.1 Def. 2: div and table); adding "
                    "HTML5 tags (article, section, main) is a departure")
    match_threshold: float | None = Field(
        None, ge=0.0, le=1.0,
        description="A new page joins the most similar class when sim to the class's "
                    "feature > this; None = sim_threshold (decision: seed 002 §3 does not "
                    "say how a new page finds its class)")

    @field_validator("block_tags")
    @classmethod
    def _lower_tags(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        tags = tuple(dict.fromkeys(tag.strip().lower() for tag in value if tag.strip()))
        if not tags:
            raise ValueError("block_tags needs at least one tag")
        return tags

    @property
    def effective_match_threshold(self) -> float:
        """The threshold used to match a new page to a class."""
        return self.sim_threshold if self.match_threshold is None else self.match_threshold


# -- rules, classes, site model ----------------------------------------------------------------


class BlockRule(BaseModel):
    """⟨class, id, path⟩ of a main-content block (seed 002 §5.2 Def. 10)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    css_class: str | None = Field(None, description="class attribute, whitespace-normalized")
    element_id: str | None = Field(None, description="id attribute")
    path: str = Field(description="Block path like body1/div3/div2 (§4.1 Def. 3)")

    def key(self) -> tuple[str | None, str | None, str]:
        """The triple Algorithm 2 compares (bf_i.L = bf.L)."""
        return (self.css_class, self.element_id, self.path)


class SiteClass(BaseModel):
    """One class of pages built from one template (seed 002 §4.2 Def. 6) and its rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: int = Field(description="Class label c (order of formation, from 0)")
    feature: tuple[str, ...] = Field(description="Structure feature of the class's first page")
    members: tuple[str, ...] = Field(description="Keys (urls or ids) of the class's pages")
    rule: BlockRule | None = Field(None, description="Extraction rule L(c) (Algorithm 2)")
    rule_score: float = Field(0.0, description="Summed H of the pages voting for the rule")

    @cached_property
    def feature_set(self) -> frozenset[str]:
        """The feature as a set (for sim)."""
        return frozenset(self.feature)


class SiteModel(BaseModel):
    """What was learned from one site's pages: its classes and their rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    classes: tuple[SiteClass, ...] = ()
    pages: int = Field(0, description="Pages the model was learned from")
    unclassed: int = Field(0, description="Pages in no class (groups of too few pages)")

    def match(self, feature: frozenset[str], params: Params) -> tuple[SiteClass | None, float]:
        """The class a page of ``feature`` belongs to, and its sim (decision: see module doc).

        Ties go to the class formed first, as in Algorithm 1's greedy order.
        """
        best: SiteClass | None = None
        best_sim = 0.0
        for cls in self.classes:
            value = sim(feature, cls.feature_set)
            if value > best_sim:
                best, best_sim = cls, value
        if best is None or best_sim <= params.effective_match_threshold:
            return None, best_sim
        return best, best_sim


@dataclass(frozen=True)
class PageObservation:
    """What Algorithms 1 and 2 need of one page: its feature and its best block's rule/H."""

    key: str
    feature: frozenset[str]
    candidate: BlockRule | None
    score: float

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (the per-site store keeps this)."""
        return {
            "version": OBSERVATION_VERSION,
            "feature": sorted(self.feature),
            "candidate": self.candidate.model_dump() if self.candidate else None,
            "h": self.score,
        }

    @classmethod
    def from_dict(cls, key: str, data: dict[str, Any]) -> PageObservation:
        """Rebuild from :meth:`as_dict`; raises ``ValueError`` on malformed data."""
        if not isinstance(data, dict):
            # ValueError, not TypeError: callers catch one error type for bad stored data
            raise ValueError("observation must be a dict")  # noqa: TRY004
        feature = data.get("feature")
        if not isinstance(feature, list) or not all(isinstance(p, str) for p in feature):
            raise ValueError("observation feature must be a list of paths")
        raw_candidate = data.get("candidate")
        try:
            candidate = BlockRule.model_validate(raw_candidate) if raw_candidate else None
        except Exception as exc:  # pydantic ValidationError is a ValueError subclass
            raise ValueError(f"bad candidate: {exc}") from exc
        score = data.get("h", 0.0)
        if not isinstance(score, (int, float)) or not math.isfinite(score) or score < 0:
            raise ValueError("observation h must be a finite number >= 0")
        return cls(key, frozenset(feature), candidate, float(score))


# -- §4: structure features and Algorithm 1 -----------------------------------------------------


@dataclass
class BlockNode:
    """A block node with its path and the counts H(b) needs (seed 002 §4.1, §5.1)."""

    element: etree._Element
    path: str
    element_id: str | None
    css_class: str | None
    text: int  # lT_n: all visible text characters
    link_text: int  # characters inside <a href>
    links: int  # LN_n
    size: int  # descendant elements
    score: float = 0.0  # H(b)

    @property
    def plain_text(self) -> int:
        """T_n: text characters not inside links."""
        return self.text - self.link_text

    def rule(self) -> BlockRule:
        """⟨class, id, path⟩ of this block (§5.2 Def. 10)."""
        return BlockRule(css_class=self.css_class, element_id=self.element_id, path=self.path)


@dataclass
class PageAnalysis:
    """Block nodes of a page, in document order, and the page-wide totals."""

    blocks: list[BlockNode]
    total_plain_text: int  # T
    total_links: int  # LN

    @property
    def feature(self) -> frozenset[str]:
        """The page's structure feature (§4.1 Def. 4)."""
        return frozenset(block.path for block in self.blocks)

    def best(self) -> BlockNode | None:
        """The block with the highest H(b) (first in document order on ties); None if all 0."""
        best: BlockNode | None = None
        for block in self.blocks:
            if block.score > 0 and (best is None or block.score > best.score):
                best = block
        return best


def _chars(text: str | None) -> int:
    """Non-whitespace characters of ``text``."""
    if not text:
        return 0
    return len(text) - sum(1 for char in text if char.isspace())


def _normalized(value: str | None) -> str | None:
    if value is None:
        return None
    value = " ".join(value.split())
    return value or None


def analyse(page: Page, params: Params) -> PageAnalysis:
    """Block nodes of ``page`` with paths and H(b), in two linear passes over ``page.tree``.

    Paths: seed 002 §4.1 Def. 3 (index = position among same-tag siblings, see module doc).
    Counts and H(b): §5.1 Def. 7-9 and Eq. (5). The tree is only read, never changed.
    """
    body = page.body
    order: list[etree._Element] = [el for el in body.iter() if isinstance(el.tag, str)]
    position = {el: i for i, el in enumerate(order)}
    paths: list[str] = [""] * len(order)
    paths[0] = f"{body.tag}1"
    # Inside script, noscript, template, ...: never visible text, whatever the tags say.
    hidden = [False] * len(order)
    for i, el in enumerate(order):  # pre-order: a parent's path is known before its children
        seen: dict[str, int] = {}
        inner_hidden = hidden[i] or el.tag in NON_TEXT_TAGS
        for child in el:
            if isinstance(child.tag, str):
                seen[child.tag] = seen.get(child.tag, 0) + 1
                j = position[child]
                paths[j] = f"{paths[i]}/{child.tag}{seen[child.tag]}"
                hidden[j] = inner_hidden

    count = len(order)
    text = [0] * count
    link_text = [0] * count
    links = [0] * count
    size = [0] * count
    for i in range(count - 1, -1, -1):  # reverse pre-order: children before their parent
        el = order[i]
        tag = el.tag
        if tag in NON_TEXT_TAGS or hidden[i]:
            size[i] = sum(1 + size[position[child]] for child in el if child in position)
            continue
        own = _chars(el.text)
        sub_text = sub_link_text = sub_links = sub_size = 0
        for child in el:
            own += _chars(child.tail)
            j = position.get(child)
            if j is None:
                continue
            sub_text += text[j]
            sub_link_text += link_text[j]
            sub_links += links[j]
            sub_size += 1 + size[j]
        text[i] = own + sub_text
        is_link = tag == "a" and el.get("href") is not None
        link_text[i] = text[i] if is_link else sub_link_text
        links[i] = sub_links + (1 if is_link else 0)
        size[i] = sub_size

    total_plain = text[0] - link_text[0]
    total_links = links[0]
    block_tags = set(params.block_tags)
    blocks: list[BlockNode] = []
    for i, el in enumerate(order):
        if el.tag not in block_tags or i == 0:
            continue
        block = BlockNode(el, paths[i], _normalized(el.get("id")), _normalized(el.get("class")),
                          text[i], link_text[i], links[i], size[i])
        block.score = h_score(block.plain_text, block.text, block.links, block.size,
                              total_plain, total_links, params.alpha)
        blocks.append(block)
    return PageAnalysis(blocks, total_plain, total_links)


def h_score(plain_text: int, text: int, links: int, size: int, total_plain_text: int,
            total_links: int, alpha: float) -> float:
    """H(b) of seed 002 §5.1 Eq. (5) from the counts of Def. 7-9.

    P_text = T_n / (1 + T); P_link = LN_n / (1 + LN); P_textl = T_n / (1 + lT_n);
    H = P_text · (1 − P_link) · P_textl / (1 + size · α).
    """
    p_text = plain_text / (1 + total_plain_text)
    p_link = links / (1 + total_links)
    p_textl = plain_text / (1 + text)
    return p_text * (1 - p_link) * p_textl / (1 + size * alpha)


def structure_feature(page: Page, params: Params | None = None) -> frozenset[str]:
    """Paths of the page's block nodes (seed 002 §4.1 Def. 4), like ``body1/div3/div2``."""
    return analyse(page, params or Params()).feature


def block_scores(page: Page, params: Params | None = None) -> list[tuple[str, float]]:
    """(path, H(b)) of every block node of ``page``, in document order (seed 002 §5.1)."""
    return [(block.path, block.score) for block in analyse(page, params or Params()).blocks]


def sim(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    """Eq. (1): |A ∩ B| / min(|A|, |B|); 0 when either set is empty (decision)."""
    smaller = min(len(a), len(b))
    if smaller == 0:
        return 0.0
    return len(a & b) / smaller


def get_classes(features: Sequence[frozenset[str]], params: Params | None = None
                ) -> list[list[int]]:
    """Algorithm 1 (getClasses, seed 002 §4.2): greedy classes as lists of feature indices.

    Pages are taken in the given order. The first page still unassigned starts a class; every
    unassigned page (itself included) with ``sim > sim_threshold`` to it joins and leaves D.
    The class is kept when it has more than ``min_class_size`` pages; pages of a dropped
    class stay out of D as well, as in the paper's pseudo-code.
    """
    params = params or Params()
    remaining = list(range(len(features)))
    classes: list[list[int]] = []
    while remaining:
        seed = remaining[0]
        members = [j for j in remaining
                   if j == seed or sim(features[seed], features[j]) > params.sim_threshold]
        taken = set(members)
        remaining = [j for j in remaining if j not in taken]
        if len(members) > params.min_class_size:
            classes.append(members)
    return classes


# -- §5: Algorithm 2 ----------------------------------------------------------------------------


def observe(page: Page, params: Params | None = None, key: str | None = None
            ) -> PageObservation:
    """Feature and best block (rule candidate and H) of ``page``: one page of Algorithm 2."""
    params = params or Params()
    return _observation(analyse(page, params), key or page.url or "")


def _observation(analysis: PageAnalysis, key: str) -> PageObservation:
    best = analysis.best()
    return PageObservation(key, analysis.feature, best.rule() if best else None,
                           best.score if best else 0.0)


def learn_rules(classes: Iterable[Sequence[PageObservation]], params: Params | None = None
                ) -> list[tuple[BlockRule | None, float]]:
    """Algorithm 2 (getBlock, seed 002 §5.2): the rule of each class and its summed H.

    Each page votes for the ⟨class, id, path⟩ of its best-H(b) block with that H; equal
    triples add up; the triple with the highest sum is the class's rule (first seen wins
    ties). A class none of whose pages has a text block gets ``(None, 0.0)``.
    """
    del params  # the votes are already scored; kept for the uniform signature
    rules: list[tuple[BlockRule | None, float]] = []
    for members in classes:
        votes: dict[tuple[str | None, str | None, str], float] = {}
        first: dict[tuple[str | None, str | None, str], BlockRule] = {}
        for obs in members:
            if obs.candidate is None:
                continue
            key = obs.candidate.key()
            votes[key] = votes.get(key, 0.0) + obs.score
            first.setdefault(key, obs.candidate)
        if not votes:
            rules.append((None, 0.0))
            continue
        best_key = max(votes, key=lambda k: votes[k])  # max keeps the first of equal sums
        rules.append((first[best_key], votes[best_key]))
    return rules


def fit_observations(observations: Sequence[PageObservation], params: Params | None = None
                     ) -> SiteModel:
    """Algorithms 1 then 2 over one site's page observations."""
    params = params or Params()
    groups = get_classes([obs.feature for obs in observations], params)
    members = [[observations[i] for i in group] for group in groups]
    rules = learn_rules(members, params)
    classes = tuple(
        SiteClass(label=label, feature=tuple(sorted(group[0].feature)),
                  members=tuple(obs.key for obs in group), rule=rule, rule_score=score)
        for label, (group, (rule, score)) in enumerate(zip(members, rules)))
    classed = sum(len(group) for group in groups)
    return SiteModel(classes=classes, pages=len(observations),
                     unclassed=len(observations) - classed)


def fit(pages: Sequence[Page], params: Params | None = None,
        keys: Sequence[str] | None = None) -> SiteModel:
    """Learn a site's classes and rules from its pages (seed 002 §3 Fig. 1, Alg. 1 and 2).

    ``keys`` name the pages in the model (default: their urls, else their position).
    """
    params = params or Params()
    if keys is not None and len(keys) != len(pages):
        raise ValueError("keys must name every page")
    observations = [observe(page, params, keys[i] if keys else (page.url or str(i)))
                    for i, page in enumerate(pages)]
    return fit_observations(observations, params)


# -- extraction ---------------------------------------------------------------------------------


def apply_rule(analysis: PageAnalysis, rule: BlockRule) -> tuple[BlockNode | None, str]:
    """The block ``rule`` designates on a page, trying id > class > path (seed 002 §5.2).

    Returns the block and which feature found it (``id``, ``class``, ``path``), or
    ``(None, "")``. Several blocks with the rule's id or class: the one with the highest H.
    """
    if rule.element_id is not None:
        found = [b for b in analysis.blocks if b.element_id == rule.element_id]
        if found:
            return max(found, key=lambda b: b.score), "id"
    if rule.css_class is not None:
        found = [b for b in analysis.blocks if b.css_class == rule.css_class]
        if found:
            return max(found, key=lambda b: b.score), "class"
    for block in analysis.blocks:
        if block.path == rule.path:
            return block, "path"
    return None, ""


def extract(page: Page, params: Params, model: SiteModel | None = None) -> ExtractionResult:
    """Main block of ``page``: its class's rule when it has a class, else its best H(b) block.

    Seed 002 §3 (Fig. 1): match the page to a class by its structure feature and apply the
    class's rule (§5.2, priority id > class > path). Without a class, the page's own
    best-H(b) block (the paper's "no clustering" extraction, §6 Table 1).
    """
    if not isinstance(params, Params):
        raise TypeError("params must be clustering.Params")
    analysis = analyse(page, params)
    own = _observation(analysis, page.url or "")
    feature = own.feature
    stats: dict[str, float] = {"blocks": float(len(analysis.blocks)),
                               "page_text": float(analysis.total_plain_text),
                               "page_links": float(analysis.total_links)}
    chosen: BlockNode | None = None
    stage = "own_best"
    if model is not None:
        cls, similarity = model.match(feature, params)
        stats["class_sim"] = round(similarity, 4)
        if cls is not None:
            stats["class"] = float(cls.label)
            stage = "own_best:rule_missed"
            if cls.rule is not None:
                found, how = apply_rule(analysis, cls.rule)
                if found is not None and found.text > 0:
                    chosen, stage = found, f"class_rule:{how}"
    if chosen is None:
        chosen = analysis.best()
    extra = {"site_observation": own.as_dict()}
    if chosen is None:
        message = ("page has no div or table block" if not analysis.blocks
                   else "no block holds text outside links")
        return ExtractionResult(algorithm=NAME, status="empty", message=message, stats=stats,
                                stage=stage, extra=extra)
    stats["h"] = chosen.score
    start, end = page.span(chosen.element)
    main = render_main(page, [chosen.element])
    block = Block(kind="main", algorithm=NAME, score=chosen.score, start=start, end=end,
                  element_ids=main.element_ids, xpaths=main.xpaths, link_count=chosen.links,
                  features={"h": chosen.score, "text": float(chosen.text),
                            "link_text": float(chosen.link_text), "size": float(chosen.size)})
    return ExtractionResult(algorithm=NAME, status="ok", blocks=[block], main=main, stats=stats,
                            stage=stage, message=f"block {chosen.path}", extra=extra)


__all__ = [
    "MODEL",
    "NAME",
    "BlockNode",
    "BlockRule",
    "PageAnalysis",
    "PageObservation",
    "Params",
    "SiteClass",
    "SiteModel",
    "analyse",
    "apply_rule",
    "block_scores",
    "extract",
    "fit",
    "fit_observations",
    "get_classes",
    "h_score",
    "learn_rules",
    "observe",
    "sim",
    "structure_feature",
]

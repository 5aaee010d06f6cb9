"""FAR-SW Stage 1: labeling training lines and learning a model from labeled pages."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...page import Page
from .lines import Line, page_lines
from .model import FarswModel, FeatureStats, RuleSet, TrainingError, TrainingSet, _host
from .params import FEATURE_NAMES, FEATURES, Params
from .rules import _item_order, learn_rules, weighted_stats

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
    from ...shingles import SHINGLE, tokens

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

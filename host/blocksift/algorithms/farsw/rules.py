"""FAR-SW §3.3: fuzzy regions, memberships and the Apriori rules (Steps 1-5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .model import FeatureStats, RuleSet
from .params import FEATURES, REGIONS2, REGIONS3, TWO_REGION_FEATURES, Params

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

"""Training the ``auto`` segmenter: labeled pages -> block features and labels -> trees.

Labels come from aligning each page's words in order with its gold text
(:mod:`blocksift.algorithms.segmenter.labels`); features from one walk of the page
(:mod:`blocksift.algorithms.segmenter.features`). Trees are learned with LightGBM (the
optional ``train`` extra) and exported to the numpy runtime's format
(:mod:`blocksift.algorithms.segmenter.trees`). Cross-validation groups pages by registered
domain, so no domain is in both a training and a validation fold.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .algorithms.segmenter import features as feats
from .algorithms.segmenter import labels
from .algorithms.segmenter.context import context_features
from .algorithms.segmenter.trees import TreeEnsemble
from .page import Page

#: Page types of the modern development set (the older sets' pages count as articles).
PAGE_TYPES = ("article", "service", "product", "collection", "forum", "listing",
              "documentation")
#: Aligned share at or above which a block is main content.
MAIN_SHARE = 0.5
#: Boosting rounds and decision threshold of the shipped model (chosen by domain-grouped CV).
DEFAULT_ROUNDS = 200
DEFAULT_THRESHOLD = 0.35
#: Domain-grouped folds in which the first model's training probabilities are predicted for
#: the second, stacked model (0: no second model).
DEFAULT_STACK_FOLDS = 3


@dataclass
class PageSample:
    """One labeled page as the trainer sees it."""

    dataset: str
    page_id: str
    group: str
    page_type: str
    features: np.ndarray
    page_features: np.ndarray
    share: np.ndarray
    texts: list[str]
    gold: str
    #: a copy of a page made longer for training (:func:`lengthen`), not a page of the set
    lengthened: bool = False


_SECOND_LEVEL = {"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go"}


def registered_domain(host_or_url: str | None) -> str:
    """A page's registered domain (``news.bbc.co.uk`` -> ``bbc.co.uk``): the CV group, coarser
    than a site (a host) so that no registrant's hosts sit on both sides of a fold."""
    if not host_or_url:
        return ""
    host = re.sub(r"^[a-z]+://", "", host_or_url.lower()).split("/")[0].split(":")[0]
    parts = [p for p in host.split(".") if p]
    if len(parts) >= 3 and parts[-2] in _SECOND_LEVEL and len(parts[-1]) == 2:
        return ".".join(parts[-3:])
    return ".".join(parts[-2:])


def page_group(record: Any, dataset: str) -> str:
    """The CV group of a labeled page: its registered domain, else its site, else itself."""
    url = getattr(record, "url", None) or (record.get("url") if isinstance(record, dict)
                                             else None)
    site = (record.get("site") if isinstance(record, dict) else getattr(record, "site", None))
    domain = registered_domain(url) or registered_domain(site)
    if domain:
        return domain
    page_id = record.get("id") if isinstance(record, dict) else getattr(record, "id", "")
    return f"{dataset}:{page_id}"


def make_sample(record: dict, dataset: str) -> PageSample:
    """Features and aligned labels of one labeled page (dataset-format record)."""
    page = Page(record["html"], url=record.get("url"))
    blocks = feats.compute(page)
    share = labels.aligned_share(blocks.texts, record.get("gold") or "")
    return PageSample(dataset, str(record.get("id")), page_group(record, dataset),
                      record.get("page_type") or "article", blocks.features,
                      blocks.page_features, share, blocks.texts, record.get("gold") or "")


#: Where a sentence of a main paragraph ends (Latin and CJK punctuation).
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])")
#: Main ``<p>`` blocks a page needs in one container to be lengthened.
MIN_MAIN_PARAGRAPHS = 3
#: Share of the training pages also given in a lengthened copy, and the range of paragraphs
#: added (log-uniform): chosen by domain-grouped CV (docs/auto.md, "Long documents").
LENGTHEN_SHARE = 0.15
LENGTHEN_PARAGRAPHS = (50, 1200)


def training_lengthened(record: dict, dataset: str, seed: int = 0,
                        share: float = LENGTHEN_SHARE) -> PageSample | None:
    """The lengthened copy of ``record`` that training adds, or None: a page is picked with
    probability ``share``, by a draw that depends only on the seed, the set and the page id
    (the same pages and seed give the same model)."""
    if share <= 0:
        return None
    rng = np.random.default_rng(zlib.crc32(f"{seed}:{dataset}:{record.get('id')}".encode()))
    if rng.random() >= share:
        return None
    low, high = LENGTHEN_PARAGRAPHS
    paragraphs = int(round(np.exp(rng.uniform(np.log(low), np.log(high)))))
    return lengthened_sample(record, dataset, paragraphs, rng)


@dataclass
class Lengthened:
    """A labeled page made longer (:func:`lengthen`): the new record (``html`` and ``gold``
    grown), the paragraphs added, and the labels of the original page's blocks."""

    record: dict
    added: list[str]
    old_texts: list[str]
    old_share: np.ndarray


def lengthened_sample(record: dict, dataset: str, paragraphs: int,
                      rng: np.random.Generator) -> PageSample | None:
    """:func:`lengthen` as a training sample (None when the page cannot be lengthened)."""
    made = lengthen(record, paragraphs, rng)
    if made is None:
        return None
    sample = make_sample_from_labels(made.record, dataset, made.old_texts, made.old_share,
                                     set(made.added))
    if sample is None:
        return None
    return replace(sample, page_id=f"{sample.page_id}#long{paragraphs}", lengthened=True)


def lengthen(record: dict, paragraphs: int, rng: np.random.Generator) -> Lengthened | None:
    """The page of ``record`` with its article running on for ``paragraphs`` more
    paragraphs; None when the page has no run of main paragraphs.

    Long documents (a long essay, a book chapter, a single-page manual) hold hundreds of
    ``<p>`` in one container, more than almost any training page; without such pages the
    block model reads a container that size as a listing and drops most of it. The new
    paragraphs copy the tag and attributes of the page's own main paragraphs and are made
    of its own main sentences, resampled (each as many sentences as a paragraph it copies),
    so they add no text from another page or site; they go right after the container's last
    main paragraph, and they are main. The gold text gains them (at its end: the word
    metric compares bags of words).
    """
    from lxml import etree

    from .rawscan import STAMP_ATTR

    gold = record.get("gold") or ""
    page = Page(record["html"], url=record.get("url"))
    blocks = feats.compute(page)
    if not len(blocks):
        return None
    share = labels.aligned_share(blocks.texts, gold)
    by_parent: dict[Any, list[int]] = {}
    for i, el in enumerate(blocks.elements):
        if el.tag == "p" and share[i] >= MAIN_SHARE and el.getparent() is not None:
            by_parent.setdefault(el.getparent(), []).append(i)
    if not by_parent:
        return None
    parent, rows = max(by_parent.items(), key=lambda kv: len(kv[1]))
    if len(rows) < MIN_MAIN_PARAGRAPHS:
        return None
    splits = [[s for s in _SENTENCE_SPLIT.split(blocks.texts[i]) if s.strip()] for i in rows]
    pool = [s for part in splits for s in part]
    if len(pool) < MIN_MAIN_PARAGRAPHS:
        return None
    cjk = bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", "".join(pool)))
    last = blocks.elements[rows[-1]]
    at = parent.index(last) + 1
    added: list[str] = []
    for n in range(paragraphs):
        pick = int(rng.integers(len(rows)))
        template = blocks.elements[rows[pick]]
        count = max(1, len(splits[pick]))
        text = ("" if cjk else " ").join(pool[j] for j in rng.integers(len(pool), size=count))
        new = etree.Element(template.tag, page.clean_attributes(template))
        new.text = text
        new.tail = last.tail
        parent.insert(at + n, new)
        added.append(text)
    for el in page.iter_elements():  # the host's ordinal stamps are not page markup
        el.attrib.pop(STAMP_ATTR, None)
    html = etree.tostring(page.tree, encoding="unicode", method="html")
    longer = dict(record, html=html, gold=gold + "\n\n" + "\n\n".join(added))
    return Lengthened(longer, added, blocks.texts, share)


def make_sample_from_labels(record: dict, dataset: str, old_texts: list[str],
                            old_share: np.ndarray, added: set[str]) -> PageSample | None:
    """Features of ``record``'s page, labeled from the labels of the page it was made from
    (``old_texts`` and ``old_share``, in order) plus the ``added`` texts (main): aligning
    hundreds of repeated sentences again would be slow and could match the wrong copy.
    None when the blocks do not line up."""
    page = Page(record["html"], url=record.get("url"))
    blocks = feats.compute(page)
    share = np.zeros(len(blocks))
    j = 0
    for i, text in enumerate(blocks.texts):
        if j < len(old_texts) and text == old_texts[j]:
            share[i] = old_share[j]
            j += 1
        elif text in added:
            share[i] = 1.0
        else:
            return None
    if j != len(old_texts):
        return None
    return PageSample(dataset, str(record.get("id")), page_group(record, dataset),
                      record.get("page_type") or "article", blocks.features,
                      blocks.page_features, share, blocks.texts, record.get("gold") or "")


def stack(samples: Iterable[PageSample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of all samples: features, binary labels and the page index of each row."""
    xs, ys, idx = [], [], []
    for i, s in enumerate(samples):
        if len(s.features):
            xs.append(s.features)
            ys.append(s.share >= MAIN_SHARE)
            idx.append(np.full(len(s.features), i))
    if not xs:
        return np.zeros((0, len(feats.FEATURE_NAMES))), np.zeros(0), np.zeros(0, dtype=int)
    return np.vstack(xs), np.concatenate(ys).astype(np.float64), np.concatenate(idx)


#: How training rows are weighted (``block_weights``); "blocks" counts every block once.
WEIGHT_MODES = ("blocks", "words", "sqrt-words", "page", "capped-words")


def block_weights(samples: Iterable[PageSample], mode: str = "blocks") -> np.ndarray | None:
    """Training weight of every row (rows as ``stack``), mean 1; None for ``"blocks"``.

    The metric is a per-page mean of word F1, while plain training counts blocks: ``words``
    gives each block its share of its page's words (each page weighs the same, a block as
    much as its words); ``sqrt-words`` the same with the square root of the words;
    ``page`` each block of a page the same weight (each page weighs the same);
    ``capped-words`` a block's words, at most 100 (no per-page balance).
    """
    from .shingles import TOKEN_RE

    if mode == "blocks":
        return None
    if mode not in WEIGHT_MODES:
        raise ValueError(f"unknown weight mode {mode!r}")
    parts = []
    for s in samples:
        if not len(s.features):
            continue
        n = np.asarray([len(TOKEN_RE.findall(t.lower())) for t in s.texts], dtype=np.float64)
        if mode == "capped-words":
            w = np.minimum(n, 100.0) + 1.0
        elif mode == "page":
            w = np.full(len(n), 1.0 / len(n))
        else:
            w = np.sqrt(n) if mode == "sqrt-words" else n
            w = w + 1e-3  # a block without words still counts a little
            w = w / w.sum()
        parts.append(w)
    if not parts:
        return None
    weight = np.concatenate(parts)
    return weight / weight.mean()


DEFAULT_LGB = {
    "objective": "binary", "learning_rate": 0.1, "num_leaves": 63, "min_data_in_leaf": 40,
    "feature_fraction": 0.5, "bagging_fraction": 0.5, "bagging_freq": 1, "lambda_l2": 1.0,
    "max_bin": 63, "verbose": -1, "num_threads": 1, "deterministic": True,
    "force_row_wise": True,
}


def fit(x: np.ndarray, y: np.ndarray, *, seed: int = 0, rounds: int = 300,
        params: dict | None = None, weight: np.ndarray | None = None,
        init_model: Any = None, each_round: Callable[[], None] | None = None) -> Any:
    """A LightGBM booster on rows ``x`` (lightgbm imported here: the ``train`` extra);
    ``each_round`` is called after every boosting round (a progress bar's tick)."""
    import lightgbm as lgb

    config = dict(DEFAULT_LGB, **(params or {}))
    config["seed"] = seed
    data = lgb.Dataset(x, label=y, weight=weight, free_raw_data=True,
                       init_score=None if init_model is None else init_model)
    callbacks = None if each_round is None else [lambda _env: each_round()]
    return lgb.train(config, data, num_boost_round=rounds, callbacks=callbacks)


def context_matrix(x: np.ndarray, idx: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Context columns (``segmenter.context``) of rows ``x`` of pages ``idx`` (grouped,
    in page order) from the first model's probabilities ``prob`` of those rows."""
    from .algorithms.segmenter.context import CONTEXT_NAMES

    out = np.zeros((len(prob), len(CONTEXT_NAMES)))
    pages = np.unique(idx)
    starts = np.searchsorted(idx, pages)
    ends = np.searchsorted(idx, pages, side="right")
    for start, end in zip(starts, ends):
        out[start:end] = context_features(feats.Blocks(features=x[start:end]), prob[start:end])
    return out


def out_of_fold(x: np.ndarray, y: np.ndarray, idx: np.ndarray, groups: np.ndarray, *,
                folds: int = 3, seed: int = 0, rounds: int = 300, params: dict | None = None,
                weight: np.ndarray | None = None,
                each_round: Callable[[], None] | None = None) -> np.ndarray:
    """Main probability of every row from a booster that never saw its page's domain
    (GroupKFold over the pages ``idx`` by ``groups``, one group per row): the first model's
    probabilities the stacked model learns from, as noisy as at run time."""
    from sklearn.model_selection import GroupKFold

    prob = np.zeros(len(y))
    for train, test in GroupKFold(n_splits=folds).split(x, groups=groups):
        booster = fit(x[train], y[train], seed=seed, rounds=rounds, params=params,
                      weight=None if weight is None else weight[train], each_round=each_round)
        prob[test] = booster.predict(x[test])
    return prob


def export(booster: Any, feature_names: Iterable[str] = feats.FEATURE_NAMES) -> TreeEnsemble:
    """The booster's trees in the numpy runtime's arrays."""
    return TreeEnsemble.from_lightgbm_dump(booster.dump_model(), list(feature_names))


PAGE_TYPE_LGB = {"objective": "multiclass", "num_class": len(PAGE_TYPES),
                 "learning_rate": 0.05, "num_leaves": 15, "min_data_in_leaf": 10,
                 "feature_fraction": 0.8, "verbose": -1, "num_threads": 1,
                 "deterministic": True, "force_row_wise": True}


def _fit_page_type(x: np.ndarray, y: np.ndarray, seed: int, rounds: int = 100) -> Any:
    import lightgbm as lgb

    return lgb.train(dict(PAGE_TYPE_LGB, seed=seed), lgb.Dataset(x, label=y), rounds)


def page_type_features(samples: list[PageSample], seed: int = 0, folds: int = 5
                       ) -> tuple[np.ndarray, Any]:
    """Out-of-fold page-type probabilities of every sample, and the model fit on all.

    Pages with a page type (the modern set) are predicted by a model that never saw their
    domain (GroupKFold), so the block model learns from probabilities as noisy as at run
    time; the other pages are predicted by the model fit on all typed pages.
    """
    from sklearn.model_selection import GroupKFold

    x = np.vstack([s.page_features for s in samples])
    typed = np.asarray([s.dataset == "wcxb-dev" or s.page_type != "article" and
                        s.page_type in PAGE_TYPES for s in samples])
    y = np.asarray([PAGE_TYPES.index(s.page_type) if s.page_type in PAGE_TYPES else 0
                    for s in samples])
    groups = np.asarray([s.group for s in samples])
    probs = np.zeros((len(samples), len(PAGE_TYPES)))
    rows = np.nonzero(typed)[0]
    if len(rows) < 2 * folds or len(set(y[rows])) < 2:
        probs[:, 0] = 1.0
        return probs, None
    full = _fit_page_type(x[rows], y[rows], seed)
    for train_idx, test_idx in GroupKFold(n_splits=folds).split(rows, groups=groups[rows]):
        fold = _fit_page_type(x[rows[train_idx]], y[rows[train_idx]], seed)
        probs[rows[test_idx]] = fold.predict(x[rows[test_idx]])
    others = np.nonzero(~typed)[0]
    if len(others):
        probs[others] = full.predict(x[others])
    return probs, full


def train_model(samples: list[PageSample], *, seed: int = 0, rounds: int = 300,
                threshold: float = 0.5, meta: dict | None = None,
                stack_folds: int = DEFAULT_STACK_FOLDS,
                without: tuple[str, ...] = (),
                progress: Callable[[int, int], None] | None = None) -> tuple[dict, dict]:
    """Train the shipped model's ensembles (``blocks``, ``page_type``, ``stacked``) on
    ``samples``.

    ``without``: signal groups (``features.PAPER_GROUPS``) the model does without: their
    columns are -1 in training as at run time, where they are then not computed (faster).

    ``stacked`` (unless ``stack_folds`` is 0) is the second model: the block features plus
    the context of the first model's probabilities (``segmenter.context``), learned from
    first-model probabilities predicted out-of-fold (``stack_folds`` domain-grouped folds).

    ``progress(done, total)`` is called after every boosting round of the block models (the
    first, its out-of-fold copies and the stacked one: ``total`` rounds in all).
    """
    x, y, idx = stack(samples)
    unknown = set(without) - set(feats.PAPER_GROUPS)
    if unknown:
        raise ValueError(f"unknown signal groups: {', '.join(sorted(unknown))}")
    if without:
        x[:, [feats.FEATURE_INDEX[n] for g in without for n in feats.PAPER_GROUPS[g]]] = -1.0
    type_probs, type_model = page_type_features(samples, seed=seed)
    names = list(feats.FEATURE_NAMES)
    ensembles: dict[str, TreeEnsemble] = {}
    if type_model is not None:
        x = np.hstack([x, type_probs[idx]])
        names += [f"pt_{t}" for t in PAGE_TYPES]
        ensembles["page_type"] = TreeEnsemble.from_lightgbm_dump(
            type_model.dump_model(), list(feats.PAGE_FEATURE_NAMES))
    stacking = bool(stack_folds) and len({s.group for s in samples}) >= stack_folds
    total = rounds * (2 + stack_folds if stacking else 1)
    done = 0

    def each_round() -> None:
        nonlocal done
        done += 1
        progress(done, total)

    tick = None if progress is None else each_round
    booster = fit(x, y, seed=seed, rounds=rounds, each_round=tick)
    ensembles["blocks"] = export(booster, names)
    if stacking:
        from .algorithms.segmenter.context import CONTEXT_NAMES

        groups = np.asarray([s.group for s in samples])[idx]
        first = out_of_fold(x, y, idx, groups, folds=stack_folds, seed=seed, rounds=rounds,
                            each_round=tick)
        x = np.hstack([x, context_matrix(x, idx, first)])
        stacked = fit(x, y, seed=seed, rounds=rounds, each_round=tick)
        ensembles["stacked"] = export(stacked, names + list(CONTEXT_NAMES))
    else:
        stack_folds = 0
    info = {"threshold": threshold, "seed": seed, "rounds": rounds,
            "stack_folds": stack_folds,
            "pages": sum(not s.lengthened for s in samples),
            "lengthened_pages": sum(s.lengthened for s in samples),
            "blocks": int(len(y)), "main_share": float(y.mean()),
            "datasets": sorted({s.dataset for s in samples}),
            "without": sorted(without)}
    info.update(meta or {})
    return ensembles, info

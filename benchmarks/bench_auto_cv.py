"""Domain-grouped cross-validation of the learned ``auto`` over the development sets.

Pages are grouped by registered domain (GroupKFold): no domain is in both a training and a
validation fold, across all sets at once. Each fold trains the page-type classifier and
the block trees (``blocksift.auto_training``) on the other folds, with page-type
probabilities of the training pages themselves predicted out-of-fold (inner GroupKFold), as
they are when the shipped model is trained. Word F1 (the wcxb metric) per page type and
per set, shingle F1 on the older sets, empty outputs, for several thresholds. Repeated main
blocks are dropped when scoring as ``auto`` drops them (``--repeat-min-words``, 0: kept).

    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_auto_cv.py --cache DIR [--folds 5] [--rounds 200] \\
        [--ablation] [--save-oof FILE]
    # or one process per fold, then combined:
    python3 benchmarks/bench_auto_cv.py --cache DIR --fold K --save-oof foldK.pkl   # K=0..4
    python3 benchmarks/bench_auto_cv.py --cache DIR --combine fold0.pkl ... fold4.pkl

``--cache DIR`` keeps each set's block features and labels (``DIR/<set>.pkl``; building
them takes a few minutes per thousand pages). ``--ablation`` repeats the CV with each
paper's features removed in turn (and the rule-based extractor's). Needs the ``train``
extra (lightgbm, scikit-learn).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from blocksift import auto_training as at  # noqa: E402
from blocksift.algorithms import auto  # noqa: E402
from blocksift.algorithms.segmenter import features as feats  # noqa: E402
from blocksift.evaluation.datasets import resolve  # noqa: E402
from blocksift.evaluation.metric import score_page, summarize, word_prf  # noqa: E402
from blocksift.labeled import iter_records  # noqa: E402

SETS = ["wcxb-dev", "dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce"]


def load_samples(cache: Path, sets: list[str]) -> list[at.PageSample]:
    samples: list[at.PageSample] = []
    for name in sets:
        file = cache / f"{name}.pkl"
        if not file.exists():
            print(f"building features of {name} ...", file=sys.stderr)
            built = []
            for record in iter_records(resolve(name)):
                built.append(at.make_sample(record, name))
            cache.mkdir(parents=True, exist_ok=True)
            file.write_bytes(pickle.dumps(built))
        samples += pickle.loads(file.read_bytes())
    return samples


def load_lengthened(cache: Path, sets: list[str], share: float, seed: int = 0
                    ) -> list[at.PageSample]:
    """The lengthened copies training adds (``at.training_lengthened``), cached per set."""
    extra: list[at.PageSample] = []
    for name in sets:
        file = cache / f"{name}.lengthened-{share}-{seed}.pkl"
        if not file.exists():
            print(f"lengthening pages of {name} ...", file=sys.stderr)
            built = [s for record in iter_records(resolve(name))
                     if (s := at.training_lengthened(record, name, seed, share)) is not None]
            cache.mkdir(parents=True, exist_ok=True)
            file.write_bytes(pickle.dumps(built))
        extra += pickle.loads(file.read_bytes())
    return extra


def cross_validate(samples: list[at.PageSample], folds: int, rounds: int,
                   drop: tuple[str, ...] = (), seed: int = 0,
                   only: int | None = None, weight: np.ndarray | None = None,
                   params: dict | None = None, stack: int = 0,
                   extra: list[at.PageSample] = (), split: str = "group",
                   passes: int = 2) -> np.ndarray:
    """Out-of-fold main probability of every block row (rows as ``at.stack``).

    ``only``: compute fold ``only`` alone (rows of other folds stay NaN), so that folds can
    run as separate processes and be combined with ``--combine``. ``extra``: samples only
    ever trained on (lengthened copies), each in the training part of a fold when its
    domain is. ``split``: "group" (``GroupKFold``, balanced by size) or "hash" (a domain's
    fold from a hash of its name: a second split of the same sites, to tell a gain from one
    split's noise). ``passes`` (with ``stack``): 3 adds a third model on the second's
    probabilities in their page context, the second's own out of fold on the training part
    (a screen: the shipped model has two).
    """
    n_pages = len(samples)
    n_rows = sum(len(s.features) for s in samples)  # the samples' rows come first
    everything = list(samples) + list(extra)
    x, y, idx = at.stack(everything)
    if drop:
        x = x.copy()
        x[:, [feats.FEATURE_INDEX[n] for n in drop]] = -1
    if weight is not None and len(weight) < len(y):
        weight = np.concatenate([weight, np.ones(len(y) - len(weight))])
    groups = np.asarray([s.group for s in everything])
    prob = np.full(len(y), np.nan)
    for k, (train, test) in enumerate(fold_split(groups[:n_pages], folds, split)):
        if only is not None and k != only:
            continue
        started = time.time()
        held_out = set(groups[test])
        train = np.concatenate([train, [n_pages + j for j, s in enumerate(extra)
                                        if s.group not in held_out]]).astype(int)
        train_samples = [everything[i] for i in train]
        type_train, type_model = at.page_type_features(train_samples, seed=seed)
        type_probs = np.zeros((len(everything), len(at.PAGE_TYPES)))
        type_probs[train] = type_train
        test_page_x = np.vstack([samples[i].page_features for i in test])
        type_probs[test] = type_model.predict(test_page_x)
        xf = np.hstack([x, type_probs[idx]])
        train_rows, test_rows = np.isin(idx, train), np.isin(idx, test)
        train_weight = None if weight is None else weight[train_rows]
        booster = at.fit(xf[train_rows], y[train_rows], seed=seed, rounds=rounds,
                         params=params, weight=train_weight)
        prob[test_rows] = booster.predict(xf[test_rows])
        if stack:  # a second model on the first's probabilities in their page context
            first = at.out_of_fold(xf[train_rows], y[train_rows], idx[train_rows],
                                   groups[idx[train_rows]], folds=stack, seed=seed,
                                   rounds=rounds, params=params, weight=train_weight)
            train_x = np.hstack([xf[train_rows], at.context_matrix(
                x[train_rows], idx[train_rows], first)])
            test_x = np.hstack([xf[test_rows], at.context_matrix(
                x[test_rows], idx[test_rows], prob[test_rows])])
            second = at.fit(train_x, y[train_rows], seed=seed, rounds=rounds, params=params,
                            weight=train_weight)
            prob[test_rows] = second.predict(test_x)
            if passes >= 3:  # a third model on the second's probabilities in context
                second_oof = at.out_of_fold(train_x, y[train_rows], idx[train_rows],
                                            groups[idx[train_rows]], folds=stack, seed=seed,
                                            rounds=rounds, params=params, weight=train_weight)
                third = at.fit(np.hstack([xf[train_rows], at.context_matrix(
                    x[train_rows], idx[train_rows], second_oof)]), y[train_rows], seed=seed,
                    rounds=rounds, params=params, weight=train_weight)
                prob[test_rows] = third.predict(np.hstack([xf[test_rows], at.context_matrix(
                    x[test_rows], idx[test_rows], prob[test_rows])]))
        print(f"  fold {k + 1}/{folds}: {time.time() - started:.0f} s", file=sys.stderr)
    return prob[:n_rows]


def fold_split(groups: np.ndarray, folds: int, split: str = "group"
               ) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train, test) page indices of each fold, no group on both sides (cross_validate)."""
    from sklearn.model_selection import GroupKFold

    if split == "group":
        return list(GroupKFold(n_splits=folds).split(np.arange(len(groups)), groups=groups))
    if split != "hash":
        raise ValueError(f"unknown split {split!r}")
    fold = np.asarray([zlib.crc32(str(g).encode()) % folds for g in groups])
    return [(np.flatnonzero(fold != k), np.flatnonzero(fold == k)) for k in range(folds)]


def combined(files: list[Path]) -> np.ndarray:
    """The union of --fold outputs (each holds one fold's rows, NaN elsewhere)."""
    prob = None
    for file in files:
        part = pickle.loads(file.read_bytes())["prob"]
        prob = part if prob is None else np.where(np.isnan(prob), part, prob)
    return prob


def start_tags(cache: Path, samples: list[at.PageSample]) -> np.ndarray:
    """Start tags of each sample's page (what auto's long_page_elements counts), cached."""
    from blocksift.page import Page

    file = cache / "start-tags.pkl"
    counts = pickle.loads(file.read_bytes()) if file.exists() else {}
    wanted = {s.dataset for s in samples if (s.dataset, s.page_id) not in counts}
    for name in sorted(wanted):
        for record in iter_records(resolve(name)):
            counts[(name, str(record.get("id")))] = len(
                Page(record["html"], url=record.get("url")).tags.names)
    if wanted:
        file.write_bytes(pickle.dumps(counts))
    return np.asarray([counts[(s.dataset, s.page_id)] for s in samples])


def main_texts(samples: list[at.PageSample], prob: np.ndarray, threshold: float | np.ndarray,
               repeat_min_words: int = 0) -> Iterator[str]:
    """Each page's main text as ``auto`` chooses it from ``prob`` (threshold: one for all
    pages, or one per page), the rules fallback and the repeat rule included."""
    per_page = np.broadcast_to(np.asarray(threshold, dtype=float), (len(samples),))
    _x, _y, idx = at.stack(samples)
    starts = np.searchsorted(idx, np.arange(len(samples)))
    ends = np.searchsorted(idx, np.arange(len(samples)), side="right")
    rules = feats.FEATURE_INDEX["rules_main"]
    for i, sample in enumerate(samples):
        p = prob[starts[i]:ends[i]]
        chosen = p >= per_page[i]
        if not chosen.any() and len(p):
            chosen = sample.features[:, rules] > 0  # the extractor's rules fallback
        chosen[auto.repeated_blocks(feats.Blocks(texts=sample.texts, features=sample.features),
                                    chosen, repeat_min_words)] = False
        yield "\n\n".join(t for t, c in zip(sample.texts, chosen) if c)


def expected_f1_thresholds(samples: list[at.PageSample], prob: np.ndarray, floor: float,
                           cap: float) -> np.ndarray:
    """Each page's threshold under auto's expected-F1 rule (``auto.expected_f1_threshold``,
    blocks weighed as ``auto`` weighs them)."""
    _x, _y, idx = at.stack(samples)
    starts = np.searchsorted(idx, np.arange(len(samples)))
    ends = np.searchsorted(idx, np.arange(len(samples)), side="right")
    return np.asarray([auto.expected_f1_threshold(
        prob[starts[i]:ends[i]], auto.expected_f1_weights(s.features), floor, cap)
        for i, s in enumerate(samples)])


def choose_expected_f1(samples: list[at.PageSample], prob: np.ndarray,
                       grid: list[tuple[float, float]], repeat_min_words: int,
                       folds: int = 5) -> np.ndarray:
    """The expected-F1 rule's floor and cap (or the model's one threshold) chosen by
    domain-grouped folds: on each fold, the setting whose mean over the sets of each set's
    mean word F1 is best on the other folds' pages; returns each page's threshold under its
    fold's choice (held out)."""
    per_page = {f"fixed {at.DEFAULT_THRESHOLD}": np.full(len(samples), at.DEFAULT_THRESHOLD)}
    for floor, cap in grid:
        per_page[f"expected F1 within {floor}-{cap}"] = expected_f1_thresholds(
            samples, prob, floor, cap)
    names = list(per_page)
    f1 = np.asarray([[word_prf(text, s.gold)[2] for s, text in zip(
        samples, main_texts(samples, prob, per_page[name], repeat_min_words))]
        for name in names]).T
    sets = np.asarray([s.dataset for s in samples])
    for name, column in zip(names, f1.T):
        print(f"  {name:36} word F1 " + "  ".join(
            f"{d} {column[sets == d].mean():.4f}" for d in dict.fromkeys(sets)))
    held_out = np.zeros(len(samples))
    for k, (train, test) in enumerate(fold_split(np.asarray([s.group for s in samples]),
                                                 folds)):
        means = np.mean([f1[train][sets[train] == d].mean(axis=0)
                         for d in dict.fromkeys(sets[train])], axis=0)
        best = int(np.argmax(means))
        print(f"  fold {k + 1}/{folds}: chose {names[best]} "
              f"({means[best]:.4f} on the other folds)")
        held_out[test] = per_page[names[best]][test]
    return held_out


def score(samples: list[at.PageSample], prob: np.ndarray, threshold: float | np.ndarray,
          repeat_min_words: int = 0) -> dict[str, dict[str, float]]:
    """Word F1 per page type (wcxb) and per set, shingle F1 per older set, empties.

    ``threshold``: one for all pages, or one per page. ``repeat_min_words``: drop repeated
    main blocks as ``auto`` does (``auto.repeated_blocks``; 0: keep them)."""
    word: dict[str, list[float]] = defaultdict(list)
    shingle: dict[str, list] = defaultdict(list)
    empty: Counter[str] = Counter()
    for sample, text in zip(samples, main_texts(samples, prob, threshold, repeat_min_words)):
        f1 = word_prf(text, sample.gold)[2]
        word[sample.dataset].append(f1)
        if sample.dataset == "wcxb-dev":
            word[f"wcxb-dev:{sample.page_type}"].append(f1)
        else:
            shingle[sample.dataset].append(score_page(text, sample.gold))
        if not text.strip():
            empty[sample.dataset] += 1
    out: dict[str, dict[str, float]] = {}
    for key, values in word.items():
        out[key] = {"word_f1": float(np.mean(values)), "pages": len(values)}
    for key, scores in shingle.items():
        out[key]["shingle_f1"] = summarize(scores).f1
    for key, count in empty.items():
        out[key]["empty"] = count
    return out


def type_thresholds(samples: list[at.PageSample], prob: np.ndarray,
                    grid: list[float]) -> dict[str, float]:
    """Per predicted page type (out-of-fold), the threshold of the best mean per-page word
    F1 on the pages predicted of that type; then the table with those thresholds."""
    type_probs, _model = at.page_type_features(samples)
    predicted = type_probs.argmax(axis=1)
    _x, _y, idx = at.stack(samples)
    starts = np.searchsorted(idx, np.arange(len(samples)))
    ends = np.searchsorted(idx, np.arange(len(samples)), side="right")
    rules = feats.FEATURE_INDEX["rules_main"]

    def page_f1(i: int, threshold: float) -> float:
        p = prob[starts[i]:ends[i]]
        chosen = p >= threshold
        if not chosen.any() and len(p):
            chosen = samples[i].features[:, rules] > 0
        text = "\n".join(t for t, c in zip(samples[i].texts, chosen) if c)
        return word_prf(text, samples[i].gold)[2]

    chosen: dict[str, float] = {}
    for t, name in enumerate(at.PAGE_TYPES):
        pages = np.nonzero(predicted == t)[0]
        if not len(pages):
            chosen[name] = 0.3
            continue
        means = {th: float(np.mean([page_f1(i, th) for i in pages])) for th in grid}
        chosen[name] = max(means, key=means.get)
        print(f"  predicted {name:14} pages {len(pages):5d}  best threshold {chosen[name]}  "
              + " ".join(f"{th}:{v:.4f}" for th, v in means.items()))
    per_page = np.asarray([chosen[at.PAGE_TYPES[t]] for t in predicted])
    print_table("all features, threshold per predicted page type",
                score(samples, prob, per_page, auto.Params().repeat_min_words))
    print("type thresholds:", chosen)
    return chosen


def print_table(label: str, table: dict[str, dict[str, float]]) -> None:
    keys = sorted(table, key=lambda k: (not k.startswith("wcxb-dev"), k))
    print(label)
    for key in keys:
        row = table[key]
        extra = f"  shingle F1 {row['shingle_f1']:.4f}" if "shingle_f1" in row else ""
        print(f"  {key:28} pages {row['pages']:5d}  word F1 {row['word_f1']:.4f}"
              f"  empty {row.get('empty', 0):3d}{extra}")
    sys.stdout.flush()


def lgb_value(name: str, text: str) -> bool | int | float | str:
    """A ``--lgb`` value typed as LightGBM wants it: true/false as booleans (extra_trees),
    else the shipped setting's type, else a number."""
    if text in ("true", "false"):
        return text == "true"
    return type(at.DEFAULT_LGB.get(name, 0.0))(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=at.DEFAULT_ROUNDS)
    parser.add_argument("--thresholds", default="0.35,0.4,0.45,0.5,0.55")
    parser.add_argument("--ablation", action="store_true")
    parser.add_argument("--save-oof", type=Path)
    parser.add_argument("--expected-f1", metavar="FLOOR:CAP,...",
                        help="with --combine: also score auto's expected-F1 page threshold "
                             "within each FLOOR and CAP; more than one: chosen by "
                             "domain-grouped folds, scored held out")
    parser.add_argument("--type-thresholds", action="store_true",
                        help="with --combine: one threshold per predicted page type, each "
                             "chosen on the pages predicted of that type")
    parser.add_argument("--fold", type=int, help="compute one fold only, save it to --save-oof")
    parser.add_argument("--drop", default="", help="with --fold: feature groups left out, "
                        f"joined by '+' ({', '.join(feats.PAPER_GROUPS)}); 'farsw+rules' is "
                        "the shipped fast model's")
    parser.add_argument("--weight", default="blocks", choices=at.WEIGHT_MODES,
                        help="how training rows are weighted (auto_training.block_weights)")
    parser.add_argument("--lgb", default="", help="LightGBM settings over the shipped ones, "
                        "e.g. num_leaves=127,min_data_in_leaf=100")
    parser.add_argument("--split", choices=("group", "hash"), default="group",
                        help="how domains are dealt to folds (cross_validate)")
    parser.add_argument("--passes", type=int, default=2, choices=(2, 3),
                        help="with --stack: 3 screens a third pass (default 2, as shipped)")
    parser.add_argument("--stack", type=int, default=0, metavar="FOLDS",
                        help="a second model on the first's probabilities in page context, "
                        "the first's training probabilities out-of-fold in FOLDS inner folds")
    parser.add_argument("--lengthen", type=float, default=at.LENGTHEN_SHARE, metavar="SHARE",
                        help="share of pages also trained on in a lengthened copy, as the "
                        "shipped model is (0: none)")
    parser.add_argument("--repeat-min-words", type=int,
                        default=auto.Params().repeat_min_words,
                        help="drop repeated main blocks of at least this many words when "
                             "scoring, as auto does (0: keep them)")
    parser.add_argument("--combine", type=Path, nargs="+",
                        help="score the union of --fold outputs instead of training")
    parser.add_argument("--switch-oof", type=Path, nargs="+", default=[],
                        help="with --combine: the fast model's fold files, taken for pages of "
                             "at least --switch-at start tags (auto's long_page_elements)")
    parser.add_argument("--switch-at", default="2000", help="start-tag counts, comma-separated")
    parser.add_argument("--save-switched", type=Path, help="write the mixed probabilities of "
                        "the first --switch-at as one fold file (for bench_hide_cv.py and "
                        "bench_auto_adapt.py)")
    args = parser.parse_args()
    samples = load_samples(args.cache, args.sets.split(","))
    if args.combine:
        prob = combined(args.combine)
        missing = int(np.isnan(prob).sum())
        print(f"combined {len(args.combine)} fold files; rows without a prediction: {missing}")
        for threshold in (float(t) for t in args.thresholds.split(",")):
            print_table(f"all features, threshold {threshold}",
                        score(samples, prob, threshold, args.repeat_min_words))
        if args.switch_oof:
            switched = combined(args.switch_oof)
            tags = start_tags(args.cache, samples)
            _x, _y, idx = at.stack(samples)
            for k, limit in enumerate(int(n) for n in args.switch_at.split(",")):
                mixed = np.where(tags[idx] >= limit, switched, prob)
                if k == 0 and args.save_switched:
                    args.save_switched.write_bytes(pickle.dumps({"prob": mixed}))
                print_table(f"pages of {limit} start tags or more ({np.mean(tags >= limit):.1%})"
                            f" from --switch-oof, threshold {args.thresholds.split(',')[0]}",
                            score(samples, mixed, float(args.thresholds.split(",")[0]),
                                  args.repeat_min_words))
        if args.expected_f1:
            grid = [(float(a), float(b)) for a, b in
                    (item.split(":") for item in args.expected_f1.split(","))]
            if len(grid) == 1:
                floor, cap = grid[0]
                print_table(f"expected-F1 page threshold within {floor}-{cap}", score(
                    samples, prob, expected_f1_thresholds(samples, prob, floor, cap),
                    args.repeat_min_words))
            else:
                print_table("expected-F1 floor and cap chosen by domain-grouped folds, held "
                            "out", score(samples, prob, choose_expected_f1(
                                samples, prob, grid, args.repeat_min_words, args.folds),
                                args.repeat_min_words))
        if args.type_thresholds:
            type_thresholds(samples, prob, [float(t) for t in args.thresholds.split(",")])
        return 0
    weight = at.block_weights(samples, args.weight)
    extra = load_lengthened(args.cache, args.sets.split(","), args.lengthen) \
        if args.lengthen > 0 else []
    params = {k: lgb_value(k, v) for k, v in
              (item.split("=") for item in args.lgb.split(",") if item)}
    if args.fold is not None:
        for sample in samples:  # one fold scores nothing: texts are not needed
            sample.texts, sample.gold = [], ""
        drop = tuple(name for group in args.drop.split("+") if group
                     for name in feats.PAPER_GROUPS[group])
        prob = cross_validate(samples, args.folds, args.rounds, drop, only=args.fold,
                              weight=weight, params=params, stack=args.stack,
                              passes=args.passes, extra=extra, split=args.split)
        args.save_oof.write_bytes(pickle.dumps({"prob": prob}))
        return 0
    print(f"{len(samples)} pages, {sum(len(s.texts) for s in samples)} blocks, "
          f"{len({s.group for s in samples})} domains")
    variants = {"all features": ()}
    if args.ablation:
        for name, group in feats.PAPER_GROUPS.items():
            variants[f"without {name}"] = tuple(group)
    for label, drop in variants.items():
        prob = cross_validate(samples, args.folds, args.rounds, drop, weight=weight,
                              params=params, stack=args.stack, passes=args.passes,
                              extra=extra, split=args.split)
        if args.save_oof and not drop:
            args.save_oof.write_bytes(pickle.dumps(
                {"prob": prob, "ids": [(s.dataset, s.page_id) for s in samples]}))
        for threshold in (float(t) for t in args.thresholds.split(",")):
            print_table(f"{label}, threshold {threshold}",
                        score(samples, prob, threshold, args.repeat_min_words))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

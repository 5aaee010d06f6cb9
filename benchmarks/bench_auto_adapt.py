"""Per-site adaptation of ``auto``: learn from 5 labeled pages of a site, test on the rest.

Sites are what the host keys its adaptation files by (``--group host``, the default): the
page URL's host without ``www.`` (:func:`blocksift.sites.site_key`; a page without a URL
takes the set's ``site`` field, a host too), with at least 6 pages. ``--group domain`` groups
by registered domain instead (the CV groups: ``a.blogspot.com`` and ``b.blogspot.com`` are
one "site" there, as the adaptation files were keyed before version 3). The first 5 pages
(by id) are counted into a :class:`~blocksift.algorithms.segmenter.adapt.SitePrior`,
exactly as the host does when examples are saved; the site's other pages are scored (word
F1) with the out-of-fold probabilities of ``bench_auto_cv.py`` (the base model never saw the
site), before and after the adjustment. Each page's threshold is ``auto``'s expected-F1
one (``auto.expected_f1_threshold`` within ``auto.Params``' floor and cap, on the adjusted
probabilities after adjustment), as the host chooses; ``--threshold`` gives every page one.

    python3 benchmarks/bench_auto_adapt.py --cache DIR [--threshold 0.35] [--group domain] \
        fold0.pkl ... fold4.pkl
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))
sys.path.insert(0, str(HERE))

import bench_auto_cv  # noqa: E402

from blocksift import auto_training as at  # noqa: E402
from blocksift.algorithms import auto  # noqa: E402
from blocksift.algorithms.segmenter import adapt  # noqa: E402
from blocksift.algorithms.segmenter import features as feats  # noqa: E402
from blocksift.evaluation.datasets import resolve  # noqa: E402
from blocksift.evaluation.metric import word_prf  # noqa: E402
from blocksift.page import Page  # noqa: E402
from blocksift.sites import site_key  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--threshold", type=float, help="one threshold for every page "
                        "(default: auto's expected-F1 page threshold)")
    parser.add_argument("--learn", type=int, default=5, help="labeled pages per site")
    parser.add_argument("--group", choices=("host", "domain"), default="host",
                        help="what a site is (module docstring)")
    parser.add_argument("folds", type=Path, nargs="+", help="--fold outputs of bench_auto_cv")
    args = parser.parse_args()
    samples = bench_auto_cv.load_samples(args.cache, bench_auto_cv.SETS)
    prob = None
    for file in args.folds:
        part = pickle.loads(file.read_bytes())["prob"]
        prob = part if prob is None else np.where(np.isnan(prob), part, prob)
    _x, _y, idx = at.stack(samples)
    starts = np.searchsorted(idx, np.arange(len(samples)))
    ends = np.searchsorted(idx, np.arange(len(samples)), side="right")
    records: dict[tuple[str, str], dict] = {}
    for name in sorted({s.dataset for s in samples} - {"cleaneval-dev"}):  # one page a site
        with gzip.open(resolve(name), "rt", encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                records[(name, str(row["id"]))] = row
    by_site: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, sample in enumerate(samples):
        row = records.get((sample.dataset, sample.page_id))
        if row is None:
            continue
        site = sample.group if args.group == "domain" else (
            site_key(row.get("url")) or site_key(f"//{row.get('site') or ''}") or sample.group)
        by_site[(sample.dataset, site)].append(i)
    sites = {k: v for k, v in by_site.items() if len(v) > args.learn}
    # as the host chooses each page's threshold (args.threshold: one for every page)
    page_threshold = (args.threshold if args.threshold is not None
                      else auto.Params().page_threshold())

    html = {key: (row["html"], row.get("url")) for key, row in records.items()}
    rows = []
    stale = 0
    for (dataset, site), members in sorted(sites.items()):
        prior = adapt.SitePrior(site)
        blocks = {}
        for i in members:
            page_html, url = html[(dataset, samples[i].page_id)]
            blocks[i] = feats.compute(Page(page_html, url=url), papers=False, rules=False)
        # a page whose blocks no longer match the cached probabilities (features computed by
        # an older version) would pair each probability with another block: left out
        fresh = [i for i in members if len(blocks[i]) == ends[i] - starts[i]]
        stale += len(members) - len(fresh)
        members = sorted(fresh, key=lambda i: samples[i].page_id)
        if len(members) <= args.learn:
            continue
        for i in members[:args.learn]:
            prior.add_page(blocks[i], samples[i].share >= at.MAIN_SHARE)
        base, adapted = [], []
        for i in members[args.learn:]:
            p = prob[starts[i]:ends[i]]
            moved = prior.adjust(None, blocks[i], p)
            for scores, q in ((base, p), (adapted, p if moved is None else moved)):
                limit = auto.page_limit(q, blocks[i].features, page_threshold,
                                        at.DEFAULT_THRESHOLD)
                text = "\n".join(t for t, keep in zip(blocks[i].texts, q >= limit) if keep)
                scores.append(word_prf(text, samples[i].gold)[2])
        rows.append((dataset, site, len(base), float(np.mean(base)), float(np.mean(adapted))))
        print(f"{dataset:16} {site:28} test pages {len(base):3d}  base {rows[-1][3]:.3f}  "
              f"adapted {rows[-1][4]:.3f}", flush=True)
    print(f"pages left out, blocks no longer matching the cache: {stale}")
    for dataset in sorted({r[0] for r in rows} | {"all"}):
        chosen = [r for r in rows if dataset in ("all", r[0])]
        n = sum(r[2] for r in chosen)
        print(f"{dataset}: sites {len(chosen)} test pages {n} "
              f"base {sum(r[2] * r[3] for r in chosen) / n:.3f} "
              f"adapted {sum(r[2] * r[4] for r in chosen) / n:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

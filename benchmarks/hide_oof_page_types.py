"""Out-of-fold page types for bench_hide_cv.py's cache (its ``page_type`` is the shipped
model's, in-sample on wcxb-dev): each wcxb-dev page's type from a page-type model trained
without its registered domain (GroupKFold over the same groups as bench_auto_cv.py); pages of
the untyped sets from the model fit on all typed pages (they were never its training rows).

    python3 benchmarks/hide_oof_page_types.py --cvcache CVDIR --cache hide-cache.pkl \\
        --out hide-cache-oof-types.pkl
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "host"))

from blocksift import auto_training as at  # noqa: E402
from blocksift.wire import results as _results  # noqa: E402

sys.modules.setdefault("blocksift.results", _results)
SETS = ["wcxb-dev", "dragnet", "cleaneval-dev", "cleanportaleval", "zh-cwce"]


def main() -> int:
    from sklearn.model_selection import GroupKFold

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cvcache", type=Path, required=True)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    samples = []
    for name in SETS:
        samples += pickle.loads((args.cvcache / f"{name}.pkl").read_bytes())
    x = np.vstack([s.page_features for s in samples])
    typed = np.asarray([s.dataset == "wcxb-dev" for s in samples])
    y = np.asarray([at.PAGE_TYPES.index(s.page_type) if s.page_type in at.PAGE_TYPES else 0
                    for s in samples])
    groups = np.asarray([s.group for s in samples])
    probs = np.zeros((len(samples), len(at.PAGE_TYPES)))
    rows = np.nonzero(typed)[0]
    full = at._fit_page_type(x[rows], y[rows], 0)
    probs[~typed] = full.predict(x[~typed])
    for train, test in GroupKFold(n_splits=5).split(np.arange(len(samples)), groups=groups):
        train_typed = train[typed[train]]
        model = at._fit_page_type(x[train_typed], y[train_typed], 0)
        test_typed = test[typed[test]]
        if len(test_typed):
            probs[test_typed] = model.predict(x[test_typed])
    predicted = probs.argmax(axis=1)
    types = {(s.dataset, s.page_id): at.PAGE_TYPES[p] for s, p in zip(samples, predicted)}
    type_probs = {(s.dataset, s.page_id): p for s, p in zip(samples, probs)}
    right = sum(types[(s.dataset, s.page_id)] == s.page_type for s in samples
                if s.dataset == "wcxb-dev")
    print(f"wcxb-dev out-of-fold page type right on {right} of {typed.sum()} pages")
    cache = pickle.loads(args.cache.read_bytes())
    changed = Counter()
    for item in cache:
        new = types.get((item["dataset"], item["id"]), item["page_type"])
        changed[item["page_type"] != new] += 1
        item["page_type"] = new
        p = type_probs.get((item["dataset"], item["id"]))
        if p is not None:  # the result's page-type probabilities, out-of-fold too
            stats = dict(item["result"].stats)
            stats.update({f"page_type.{t}": round(float(v), 4)
                          for t, v in zip(at.PAGE_TYPES, p)})
            item["result"] = item["result"].model_copy(update={"stats": stats})
    print(f"{changed[True]} of {len(cache)} cached page types changed")
    args.out.write_bytes(pickle.dumps(cache))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

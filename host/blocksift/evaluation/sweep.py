"""``blocksift eval --algo linkblocks --sweep``: the papers' parameter experiments.

Seed 000 §4.2 (seed 001 §5.4.2) runs two groups of settings over index and content pages and
plots the number of logical link blocks, LCR and CCR (Figures 4-8):

* group 1: C_t = 3 with d_t^t = 5, 10, ..., 60 (text distance) and d_t^c = 10, 20, ..., 120
  (code distance);
* group 2: C_t = 2, 3, ..., 12 with d_t^t = 40 and d_t^c = 80.

Each page is scanned once and its exact link distances (both kinds) are kept, so every
setting is only a regrouping (formula 5-1) of the same numbers.

Index-like vs content-like pages. The dev sets are main-content benchmarks, not the papers'
hand-picked portal front pages, so the split is made by a rule: a page is *index-like* when
at least half of its text units (seed 001 §5.3 counting) are anchor text, i.e. when most of
what a reader can read on it are links (the usual link-density reading of a navigation
page); every other page is *content-like*. The rule looks at the page only, not at the gold.

A ``--param`` of one of the swept settings holds it fixed where the other one is swept:
``c_t`` in group 1, ``d_t`` in group 2 (both distance kinds), ``distance`` runs that kind's
experiments only; ``hidden_code`` and ``link_scope`` change the measuring.

Output in ``args.out``: ``linkblocks_sweep.csv`` (one row per experiment, setting, dataset
and page class, plus an ``all`` dataset) and four PNG figures in the manner of Figures 4-8.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..algorithms import linkblocks as lb
from .datasets import count_pages, iter_pages, resolve
from .runner import dataset_label

#: Anchor-text share of a page's text units from which it counts as index-like.
INDEX_LINK_SHARE = 0.5

TEXT_DT = tuple(range(5, 61, 5))       # seed 000 §4.2 group 1, text distance
CODE_DT = tuple(range(10, 121, 10))    # group 1, code distance
C_TS = tuple(range(2, 13))             # group 2
GROUP2_DT = {"text": 40, "code": 80}   # group 2 thresholds
GROUP1_CT = 3

#: (experiment name, distance kind, varied parameter, values)
EXPERIMENTS = (
    ("dt_text", "text", "d_t", TEXT_DT),
    ("dt_code", "code", "d_t", CODE_DT),
    ("ct_text", "text", "c_t", C_TS),
    ("ct_code", "code", "c_t", C_TS),
)


@dataclass
class PageMeasures:
    """What the sweep needs of one page: link spans, exact distances, class."""

    dataset: str
    page_id: str
    length: int
    starts: np.ndarray
    ends: np.ndarray
    distances: dict[str, np.ndarray]
    link_share: float

    @property
    def page_class(self) -> str:
        return "index" if self.link_share >= INDEX_LINK_SHARE else "content"


def measure(raw: str, dataset: str, page_id: str, params: lb.Params,
            url: str | None = None) -> PageMeasures:
    """Scan ``raw`` once and measure every gap exactly with both distances (Definition 3)."""
    links = lb.scan_links(raw)
    if params.link_scope == "external":
        links = lb.external_links(raw, links, url)
    anchor = sum(lb.text_units(lb.gap_text(raw[link.tag_end:link.text_end])) for link in links)
    total = lb.text_units(lb.gap_text(raw))
    return PageMeasures(
        dataset=dataset, page_id=page_id, length=len(raw),
        starts=np.array([link.start for link in links], dtype=np.int64),
        ends=np.array([link.end for link in links], dtype=np.int64),
        distances={kind: np.array(lb.gap_distances(raw, links, kind,
                                                   hidden_code=params.hidden_code),
                                  dtype=np.int64)
                   for kind in ("text", "code")},
        link_share=anchor / total if total else 0.0)


def group(page: PageMeasures, kind: str, d_t: int, c_t: int) -> tuple[int, float | None, float]:
    """Blocks, LCR (None without links) and CCR of ``page`` under one setting (formula 5-1,
    LCR/CCR of seed 000 §3), vectorized over the page's links."""
    count = len(page.starts)
    if count == 0:
        return 0, None, 0.0
    splits = np.flatnonzero(page.distances[kind] >= d_t)
    firsts = np.concatenate(([0], splits + 1))
    lasts = np.concatenate((splits, [count - 1]))
    sizes = lasts - firsts + 1
    kept = sizes >= c_t
    block_links = int(sizes[kept].sum())
    block_chars = int((page.ends[lasts[kept]] - page.starts[firsts[kept]]).sum())
    return int(kept.sum()), block_links / count, block_chars / page.length if page.length else 0.0


#: The settings a ``--param`` holds fixed while the other is swept.
HELD = ("distance", "d_t", "c_t")


def experiments(held: dict | None = None) -> list[tuple[str, str, str, tuple[int, ...]]]:
    """The experiments run: those of the ``distance`` held, else all four."""
    kind = (held or {}).get("distance")
    return [e for e in EXPERIMENTS if kind is None or e[1] == kind]


def settings(held: dict | None = None) -> Iterable[tuple[str, str, int, int]]:
    """(experiment, kind, d_t, c_t) of both groups of seed 000 §4.2, with the ``held``
    ``c_t`` in group 1 and ``d_t`` in group 2 in place of the papers' values."""
    held = held or {}
    for name, kind, varied, values in experiments(held):
        for value in values:
            if varied == "d_t":
                yield name, kind, value, held.get("c_t", GROUP1_CT)
            else:
                yield name, kind, held.get("d_t", GROUP2_DT[kind]), value


def summarize(pages: Sequence[PageMeasures], held: dict | None = None) -> list[dict]:
    """One row per experiment, setting, dataset (and ``all``) and page class."""
    rows: list[dict] = []
    datasets = sorted({p.dataset for p in pages}) + ["all"]
    for name, kind, d_t, c_t in settings(held):
        results = [(p, *group(p, kind, d_t, c_t)) for p in pages]
        for dataset in datasets:
            for page_class in ("index", "content"):
                chosen = [r for r in results if r[0].page_class == page_class
                          and (dataset == "all" or r[0].dataset == dataset)]
                if not chosen:
                    continue
                blocks = [r[1] for r in chosen]
                lcrs = [r[2] for r in chosen if r[2] is not None]
                ccrs = [r[3] for r in chosen]
                rows.append({
                    "experiment": name, "distance": kind, "d_t": d_t, "c_t": c_t,
                    "dataset": dataset, "page_class": page_class, "pages": len(chosen),
                    "mean_blocks": round(statistics.fmean(blocks), 4),
                    "median_blocks": statistics.median(blocks),
                    "share_2_blocks": round(sum(b == 2 for b in blocks) / len(blocks), 4),
                    "share_2_3_blocks": round(sum(b in (2, 3) for b in blocks) / len(blocks), 4),
                    "mean_lcr": round(statistics.fmean(lcrs), 4) if lcrs else "",
                    "mean_ccr": round(statistics.fmean(ccrs), 4),
                })
    return rows


def write_csv(rows: Sequence[dict], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def plot(rows: Sequence[dict], out: Path, held: dict | None = None) -> list[Path]:
    """Figures 4-8 style: per experiment, index and content pages side by side; left axis the
    mean number of link blocks per page, right axis LCR and CCR (%), one line per dataset
    (thin) and all datasets together (thick)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    held = held or {}
    c_t = held.get("c_t", GROUP1_CT)
    d_t = {kind: held.get("d_t", value) for kind, value in GROUP2_DT.items()}
    titles = {"dt_text": f"d_t^t (text distance), C_t = {c_t}", "dt_code":
              f"d_t^c (code distance), C_t = {c_t}",
              "ct_text": f"C_t, text distance d_t^t = {d_t['text']}",
              "ct_code": f"C_t, code distance d_t^c = {d_t['code']}"}
    for name, _kind, varied, _values in experiments(held):
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharex=True)
        for ax, page_class in zip(axes, ("index", "content")):
            mine = [r for r in rows if r["experiment"] == name and r["page_class"] == page_class]
            if not mine:
                ax.set_title(f"{page_class}-like pages: none")
                continue
            right = ax.twinx()
            for dataset in sorted({r["dataset"] for r in mine}):
                series = [r for r in mine if r["dataset"] == dataset]
                xs = [r[varied] for r in series]
                width, alpha = (2.4, 1.0) if dataset == "all" else (0.8, 0.45)
                label = f"{dataset} (n={series[0]['pages']})"
                ax.plot(xs, [r["mean_blocks"] for r in series], "-o", color="tab:blue",
                        lw=width, ms=3, alpha=alpha, label=f"blocks, {label}")
                right.plot(xs, [100 * r["mean_lcr"] if r["mean_lcr"] != "" else np.nan
                                for r in series], "--", color="tab:green", lw=width,
                           alpha=alpha, label=f"LCR, {label}")
                right.plot(xs, [100 * r["mean_ccr"] for r in series], ":", color="tab:red",
                           lw=width, alpha=alpha, label=f"CCR, {label}")
            ax.set_xlabel(varied)
            ax.set_ylabel("mean link blocks per page", color="tab:blue")
            right.set_ylabel("LCR (green --), CCR (red :) %")
            right.set_ylim(0, 105)
            ax.set_title(f"{page_class}-like pages")
            ax.grid(alpha=0.3)
        handles = [plt.Line2D([], [], color=c, ls=s, lw=2) for c, s in
                   (("tab:blue", "-"), ("tab:green", "--"), ("tab:red", ":"))]
        fig.legend(handles, ["link blocks", "LCR", "CCR"], loc="upper center", ncol=3)
        fig.suptitle(f"Influence of {titles[name]} (thick: all datasets)", y=0.02, fontsize=10)
        fig.tight_layout(rect=(0, 0.04, 1, 0.92))
        path = out / f"linkblocks_{name}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def findings(rows: Sequence[dict]) -> dict[str, float | str]:
    """The papers' claims, measured on the ``all`` rows (see docs/linkblocks.md); those of
    settings a ``--param`` moved away are left out."""
    def row(name: str, page_class: str, **setting: int) -> dict | None:
        for r in rows:
            if (r["experiment"] == name and r["page_class"] == page_class
                    and r["dataset"] == "all" and all(r[k] == v for k, v in setting.items())):
                return r
        return None

    out: dict[str, float | str] = {}
    big = row("dt_text", "content", d_t=60, c_t=GROUP1_CT)
    if big:
        out["content, d_t^t=60: median blocks"] = big["median_blocks"]
        out["content, d_t^t=60: share with 2 blocks"] = big["share_2_blocks"]
        out["content, d_t^t=60: share with 2-3 blocks"] = big["share_2_3_blocks"]
    small = row("dt_text", "index", d_t=5, c_t=GROUP1_CT)
    if small:
        out["index, d_t^t=5: mean LCR"] = small["mean_lcr"]
    for page_class in ("index", "content"):
        text = row("ct_text", page_class, c_t=3, d_t=GROUP2_DT["text"])
        code = row("ct_code", page_class, c_t=3, d_t=GROUP2_DT["code"])
        if text and code:
            out[f"{page_class}, C_t=3: blocks text/code"] = \
                f"{text['mean_blocks']:.2f} / {code['mean_blocks']:.2f}"
            out[f"{page_class}, C_t=3: CCR text/code"] = \
                f"{text['mean_ccr']:.3f} / {code['mean_ccr']:.3f}"
            out[f"{page_class}, C_t=3: LCR text/code"] = \
                f"{text['mean_lcr']:.3f} / {code['mean_lcr']:.3f}"
    return out


def run(args: argparse.Namespace) -> int:
    """Run both groups of settings over ``args.datasets`` and write CSV + PNG to ``args.out``."""
    if args.algo != lb.NAME:
        print(f"--sweep is the linkblocks experiment; got --algo {args.algo}", file=sys.stderr)
        return 2
    given = getattr(args, "params", None) or {}
    values = {k: v for k, v in given.items() if k in ("hidden_code", "link_scope")}
    params = lb.Params.model_validate(values)
    # the swept settings a user gave are held fixed where the other one is swept
    held = {k: v for k, v in lb.Params.model_validate(given).model_dump().items()
            if k in HELD and k in given and v is not None}
    unused = sorted(set(given) - set(HELD) - set(values))
    if unused:
        print(f"blocksift: note: the sweep counts link blocks; --param {', '.join(unused)} "
              "does not change them", file=sys.stderr)
    pages: list[PageMeasures] = []
    for name in args.datasets:
        try:
            path = resolve(name)
        except FileNotFoundError as exc:
            print(f"blocksift: {exc}", file=sys.stderr)
            return 2
        label = dataset_label(path)
        labeled_pages = iter_pages(path, getattr(args, "limit", None))
        if getattr(args, "progress", False):
            from tqdm import tqdm

            labeled_pages = tqdm(labeled_pages, desc=label, unit="page", file=sys.stderr,
                                 total=count_pages(path, getattr(args, "limit", None)))
        for labeled in labeled_pages:
            pages.append(measure(labeled.html, label, labeled.id, params, labeled.url))
    if not pages:
        print("blocksift: no pages to sweep", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = summarize(pages, held)
    csv_path = out / "linkblocks_sweep.csv"
    write_csv(rows, csv_path)
    try:
        figures = plot(rows, out, held)
    except ImportError:
        figures = []
        print("matplotlib is not installed (pip install 'blocksift[eval]'): CSV only",
              file=sys.stderr)
    found = findings(rows)
    counts = {c: sum(p.page_class == c for p in pages) for c in ("index", "content")}
    if getattr(args, "json", False):
        json.dump({"pages": len(pages), "classes": counts, "held": held, "findings": found,
                   "csv": str(csv_path), "figures": [str(f) for f in figures]},
                  sys.stdout, indent=2)
        print()
    else:
        print(f"{len(pages)} pages: {counts['index']} index-like, {counts['content']} "
              f"content-like (index-like = anchor text >= {INDEX_LINK_SHARE:.0%} of text)")
        if held:
            print("held: " + "; ".join(_held_words(held)))
        for key, value in found.items():
            print(f"  {key:<42} {value}")
        print(f"wrote {csv_path}")
        for figure in figures:
            print(f"wrote {figure}")
    return 0


def _held_words(held: dict) -> list[str]:
    words = []
    if "distance" in held:
        words.append(f"{held['distance']} distance only")
    if "c_t" in held:
        words.append(f"C_t = {held['c_t']} while d_t is swept")
    if "d_t" in held:
        words.append(f"d_t = {held['d_t']} while C_t is swept")
    return words

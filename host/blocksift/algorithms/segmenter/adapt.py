"""Per-site adaptation: a site's labeled pages adjust the shipped model on that site's pages.

Pages of one site share a template: the same structural path (tags and classes from the
body down) holds the article on every page, and the same menu text recurs. From a few
labeled pages of a site (examples captured in the browser, or any dataset-format pages),
:func:`learn` counts, per block path and per repeated block text, how often the block was
main content. On the next page of that site, :meth:`SitePrior.adjust` adds the log-odds of
those counts (smoothed, so a path seen once moves the model less than one seen on five
pages) to the shipped model's log-odds. Nothing is learned about other sites, no training
library is needed, and the file is small JSON.

Class names are counted with their digits replaced (``post-1234`` and ``post-5678`` are one
class): templates stamp item numbers into classes, and a path that changes on every page
never recurs. Digit folding and the weight of 3 were chosen by two-fold cross-validation over
the dev sets' sites (``benchmarks/bench_auto_adapt.py``, docs/auto.md).

A site is a host (:func:`blocksift.sites.site_key`), as everywhere else in the project: two
blogs of one platform (``a.blogspot.com``, ``b.blogspot.com``) have their own templates,
and one's labels must not move the other's blocks. Files of versions 1 and 2 were named by
registered domain; one is still read for the host of that name.

A file counts two kinds of pages alike: the user's saved examples (captured in the browser,
or ``blocksift examples import``, :func:`apply_change`) and a dataset's labeled pages
(``blocksift train auto --per-site --dataset``, :func:`learn`). ``examples`` says how many of
its ``pages`` are the user's, so a reader can say whose labels adapted the site without
listing the examples. Files written before it was kept have no such count: unknown (None),
and it stays unknown through later changes until the site is counted again from scratch
(``train auto --per-site``); the adaptation itself never reads it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from ... import sites
from ...paths import HOME_ENV
from . import features as feats
from . import labels

log = logging.getLogger(__name__)

FORMAT = "blocksift-auto-site"
#: 2: class names with digits folded (1 files are read and their paths folded on load);
#: 3: one file per host (1 and 2 were per registered domain, which mixed a platform's blogs).
VERSION = 3
#: Pseudo-counts of the smoothing (a Beta(1, 1) prior on a path's main share).
PRIOR = 1.0
#: Weight of the site's log-odds against the shipped model's (sites' CV: 1 -> 0.931, 3 ->
#: 0.938 word F1 on the sites' unlabeled pages).
WEIGHT = 3.0
_DIGITS = re.compile(r"\d+")
#: Change ids a site file remembers (:func:`apply_change`); only the newest can be replayed.
MAX_CHANGES = 64


def _step(tag: str, classes: str) -> str:
    folded = sorted({_DIGITS.sub("#", c) for c in classes.split()})
    return f"{tag}.{' '.join(folded)}" if folded else tag


def path_signature(el: etree._Element) -> str:
    """Tags and class names (digits folded) from ``<body>`` down to ``el`` (no positions:
    pages differ)."""
    parts = []
    node = el
    while node is not None and node.tag not in ("body", "html"):
        parts.append(_step(str(node.tag), node.get("class") or ""))
        node = node.getparent()
    return "/".join(reversed(parts))


def _fold_v1_path(path: str) -> str:
    """A version-1 path (classes as written) in today's form, so old files keep working."""
    steps = []
    for part in path.split("/"):
        tag, _, classes = part.partition(".")
        steps.append(_step(tag, classes))
    return "/".join(steps)


def text_key(text: str) -> str:
    """A short hash of a block's words (repeated boilerplate text across a site's pages)."""
    words = " ".join(labels.words(text))
    return hashlib.blake2b(words.encode(), digest_size=8).hexdigest()


@dataclass
class SitePrior:
    """Counts from a site's labeled pages: path -> [main, total], text -> [main, total]."""

    site: str
    pages: int = 0
    paths: dict[str, list[int]] = field(default_factory=dict)
    texts: dict[str, list[int]] = field(default_factory=dict)
    #: ids of the latest example changes counted in (:func:`apply_change`), newest last: a
    #: change found here is never counted twice (a save replayed after a crash).
    changes: list[str] = field(default_factory=list)
    #: how many of ``pages`` are the user's saved examples (the rest: a dataset's pages);
    #: None when unknown (a file written before the count was kept), and it stays so
    examples: int | None = 0

    def add_page(self, blocks: feats.Blocks, main: np.ndarray, example: bool = False) -> None:
        """Count one labeled page (``main``: per block, is it main content; ``example``: it
        is one of the user's saved examples, not a dataset's page)."""
        self._count(blocks, main, 1, example)

    def remove_page(self, blocks: feats.Blocks, main: np.ndarray,
                    example: bool = False) -> None:
        """Take back what :meth:`add_page` counted for the same page (a deleted example);
        a count never goes below zero, and an entry left with none is dropped."""
        self._count(blocks, main, -1, example)
        self.paths = {k: v for k, v in self.paths.items() if v[1] > 0}
        self.texts = {k: v for k, v in self.texts.items() if v[1] > 0}

    def _count(self, blocks: feats.Blocks, main: np.ndarray, step: int,
               example: bool = False) -> None:
        self.pages = max(self.pages + step, 0)
        if self.examples is not None:  # unknown stays unknown: +1 of an unknown count
            self.examples = min(max(self.examples + step * example, 0), self.pages)
        seen_texts: set[str] = set()
        for el, text, is_main in zip(blocks.elements, blocks.texts, main):
            entries = [self.paths.setdefault(path_signature(el), [0, 0])]
            key = text_key(text)
            if key not in seen_texts:  # a text counts once per page
                seen_texts.add(key)
                entries.append(self.texts.setdefault(key, [0, 0]))
            for entry in entries:
                entry[0] = max(entry[0] + step * int(is_main), 0)
                entry[1] = max(entry[1] + step, 0)

    def adjust(self, page: Any, blocks: feats.Blocks, prob: np.ndarray) -> np.ndarray | None:
        """The model's probabilities moved by the site's counts (None: nothing known)."""
        if not self.pages or not len(blocks):
            return None
        clipped = np.clip(prob, 1e-6, 1 - 1e-6)
        logit = np.log(clipped / (1 - clipped))
        moved = False
        for i, (el, text) in enumerate(zip(blocks.elements, blocks.texts)):
            delta = 0.0
            for entry in (self.paths.get(path_signature(el)), self.texts.get(text_key(text))):
                if entry and entry[1]:
                    # the smoothed share's log-odds, (main + 1) / (not main + 1): finite for
                    # any counts, where share / (1 - share) divides by 0 once floats round
                    # a huge count's share to 1
                    delta += math.log((entry[0] + PRIOR) / (entry[1] - entry[0] + PRIOR))
            if delta:
                logit[i] += WEIGHT * delta
                moved = True
        if not moved:
            return None
        return 1.0 / (1.0 + np.exp(-logit))

    def to_json(self) -> str:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "site": self.site,
                                "pages": self.pages, "paths": self.paths, "texts": self.texts}
        if self.changes:  # optional: readers of version 3 without it ignore it
            data["changes"] = self.changes[-MAX_CHANGES:]
        if self.examples is not None:  # optional too: without it, whose pages is unknown
            data["examples"] = self.examples
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SitePrior:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT \
                or data.get("version") not in (1, 2, VERSION):
            raise ValueError("not a blocksift auto site file of this version")
        paths = data["paths"]
        for counts in (paths, data["texts"]):  # a file that parses may still be damaged
            if not isinstance(counts, dict) or not all(
                    isinstance(v, list) and len(v) == 2 and all(type(n) is int for n in v)
                    and 0 <= v[0] <= v[1] for v in counts.values()):  # main <= seen
                raise ValueError("the counts of this auto site file are damaged")
        if data["version"] == 1:  # fold the old paths' digits, adding up what now coincides
            folded: dict[str, list[int]] = {}
            for path, (main, total) in paths.items():
                entry = folded.setdefault(_fold_v1_path(path), [0, 0])
                entry[0] += main
                entry[1] += total
            paths = folded
        changes = data.get("changes") or []
        if not isinstance(changes, list) or not all(isinstance(c, str) for c in changes):
            raise ValueError("the changes of this auto site file are damaged")
        pages = int(data["pages"])
        # absent (a file from before the count, or written by a host that did not keep it):
        # unknown. A count that cannot be right is unknown too, not a damaged file: it only
        # says whose the pages are, and the counts the adaptation reads are sound
        examples = data.get("examples")
        if type(examples) is not int or not 0 <= examples <= pages:
            examples = None
        return cls(data["site"], pages, paths, data["texts"], list(changes), examples)


def learn(site: str, pages: Iterable[tuple[Any, str]], main_share: float = 0.5,
          progress: Callable[[], object] | None = None,
          examples: Iterable[tuple[Any, str]] = ()) -> SitePrior:
    """A site's prior from labeled pages: (parsed Page, gold main text) pairs, a dataset's,
    and ``examples``, the user's saved examples of the site (pairs alike, counted alike and
    in :attr:`SitePrior.examples` too); ``progress`` is called after each page. An empty gold
    is a label: the page has no main text, every block of it is not main."""
    prior = SitePrior(site)
    for group, example in ((pages, False), (examples, True)):
        for page, gold in group:
            blocks = feats.compute(page, papers=False, rules=False)
            if len(blocks):
                prior.add_page(blocks, labels.aligned_share(blocks.texts, gold) >= main_share,
                               example)
            if progress is not None:
                progress()
    return prior


def site_key(url: str | None) -> str:
    """The site of ``url``: its host without ``www.`` (:func:`blocksift.sites.site_key`),
    the name of its adaptation file; "" when it has none."""
    return sites.site_key(url) or ""


def sites_dir() -> Path:
    """Where the user's per-site adaptations live."""
    from ...paths import data_dir

    return data_dir() / "models" / "auto-sites"


#: How long a write waits for another process's write of the same site file (a settle
#: counts a few pages per change); past it the change stays journaled for the next settle.
LOCK_TIMEOUT_S = 60.0
_LOCKS: dict[str, Any] = {}


def site_lock(path: Path) -> Any:
    """The inter-process lock of one site file (``<file>.lock`` beside it): two browsers'
    hosts and the CLI may settle one examples store at once, and a read-modify-write of the
    file must not interleave with another's. Reentrant in a thread; one object per file."""
    from filelock import FileLock

    key = str(path)
    lock = _LOCKS.get(key)
    if lock is None:
        lock = _LOCKS[key] = FileLock(key + ".lock", timeout=LOCK_TIMEOUT_S, mode=0o600)
    return lock


def save(prior: SitePrior, directory: Path | None = None) -> Path:
    directory = directory or sites_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{prior.site}.json"
    tmp = path.with_suffix(".json.tmp")
    with site_lock(path):  # one writer of the file, and of its temporary, at a time
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(prior.to_json())
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(path)  # the old file or the new one, never half of either
    return path


_CACHE: dict[str, tuple[float, SitePrior | None]] = {}
#: What :func:`sites_dir` depends on: blocksift's own override and what platformdirs reads.
_DIR_ENV = (HOME_ENV, "XDG_DATA_HOME", "HOME", "APPDATA", "LOCALAPPDATA")
_DIRS: dict[tuple[str | None, ...], str] = {}


def _sites_dir_now() -> str:
    """:func:`sites_dir` as a string, worked out once per environment: it is asked for every
    page, and platformdirs and pathlib cost more than the look for the file itself."""
    key = tuple(map(os.environ.get, _DIR_ENV))
    found = _DIRS.get(key)
    if found is None:
        found = _DIRS[key] = str(sites_dir())
    return found


def site_prior_for(url: str, directory: Path | None = None) -> SitePrior | None:
    """The adaptation stored for ``url``'s site, or None (cached on the file's mtime)."""
    site = site_key(url)
    if not site:
        return None
    path = os.path.join(directory if directory is not None else _sites_dir_now(),
                        site + ".json")
    try:
        mtime = os.stat(path).st_mtime_ns
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    try:
        with open(path, encoding="utf-8") as handle:
            prior: SitePrior | None = SitePrior.from_json(handle.read())
    except (OSError, ValueError, KeyError):
        prior = None  # a damaged site file must not break extraction
    _CACHE[path] = (mtime, prior)
    return prior


def add_example(html: str, gold: str, url: str | None,
                directory: Path | None = None) -> Path | None:
    """Count one labeled page into its site's adaptation file (None: the page has no URL).

    Called when an example is saved in the browser, so the next page of that site already
    reads with it.
    """
    return apply_change(url, added=[(html, gold)], directory=directory)


def remove_example(html: str, gold: str, url: str | None,
                   directory: Path | None = None) -> Path | None:
    """Take a deleted example's counts out of its site's file, so a mislabeled page stops
    moving the site's blocks (what else the file counts, such as ``train auto --per-site``
    pages, stays). The file goes with its last page; None then, or when there is none."""
    return apply_change(url, removed=[(html, gold)], directory=directory)


def apply_change(url: str | None, removed: Iterable[tuple[str, str]] = (),
                 added: Iterable[tuple[str, str]] = (), change: str | None = None,
                 directory: Path | None = None) -> Path | None:
    """Take ``removed`` pages' counts out of ``url``'s site file and put ``added`` ones in, as
    one write: the file holds the counts before the change or after it, never between (a
    replaced example: its old label out, the new one in).

    ``change`` names the change: it is remembered in the file, and a change the file already
    holds is not counted again, so a change replayed after a crash (the examples store keeps
    it until the file has it, :mod:`blocksift.storage.examples`) counts exactly once. Pages
    pairs are (html, gold main text), all of ``url``'s site, and are the user's saved
    examples (the file's ``examples`` count follows them). Returns the file, or None when
    the site has none (no URL; or its last page was taken out: the file goes).
    """
    site = site_key(url)
    if not site:
        return None
    directory = directory or sites_dir()
    path = directory / f"{site}.json"
    added = list(added)
    if not added and not path.exists():
        return None  # nothing counted to take out, nothing to put in: nothing to write
    directory.mkdir(parents=True, exist_ok=True)
    # read, count and write as one step against other processes' changes of the file
    with site_lock(path):
        return _apply_change_locked(url, path, removed, added, change, directory)


def _apply_change_locked(url: str, path: Path, removed: Iterable[tuple[str, str]],
                         added: Iterable[tuple[str, str]], change: str | None,
                         directory: Path) -> Path | None:
    from ...page import Page

    site = site_key(url)
    current = _read_fresh(path)  # never the cached object: a failure must not change it
    if current is None and path.exists():  # unreadable: never written over
        from ...paths import move_aside

        log.warning("auto site adaptation: %s could not be read; kept aside as %s", path,
                    move_aside(path)[0])
        _CACHE.pop(str(path), None)
    if current is not None and change is not None and change in current.changes:
        return path  # already counted (the process stopped before the store heard of it)
    prior = current if current is not None else SitePrior(site)
    counted = False
    for pages, add in ((removed, False), (added, True)):
        for html, gold in pages:
            if not add and current is None:
                continue  # nothing counted to take out
            blocks = feats.compute(Page(html, url=url), papers=False, rules=False)
            if not len(blocks):
                continue
            main = labels.aligned_share(blocks.texts, gold) >= 0.5
            (prior.add_page if add else prior.remove_page)(blocks, main, True)  # an example
            counted = True
    if not counted and current is None:
        return None
    if change is not None:
        prior.changes = [*prior.changes, change][-MAX_CHANGES:]
    if not prior.pages:
        path.unlink(missing_ok=True)
        _CACHE.pop(str(path), None)
        return None
    return save(prior, directory)


def read_site_file(path: Path) -> SitePrior | None:
    """The site file at ``path`` as it is now (never a cached copy); None when there is none
    or it cannot be read."""
    return _read_fresh(path)


def _read_fresh(path: Path) -> SitePrior | None:
    try:
        return SitePrior.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return None

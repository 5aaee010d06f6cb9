"""blocksift in Ray Data: WARC records as a dataset, extraction as a ``map_batches`` actor.

``pip install 'blocksift[ray]'``. WARC → extract → Parquet::

    import ray
    from blocksift.integrations.ray import BlocksiftExtract, read_warc

    ds = read_warc(["crawl/*.warc.gz"])                 # one row per WARC record
    ds = ds.map_batches(BlocksiftExtract, fn_constructor_kwargs={"algorithm": "auto"},
                        concurrency=8, batch_size=64)     # 8 actors, one model each
    ds.filter(lambda row: not row["skip"]).write_parquet("out/")

:func:`read_warc` yields every record, skipped ones included (``skip`` holds the reason,
``html`` is empty), so ``rows = records`` and a ``groupby("skip")`` gives the accounting.
:class:`BlocksiftExtract` is a callable class: Ray turns it into a pool of actors, each
loading the algorithm and its model once in ``__init__``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import ray

from ..crawl import PageExtractor
from ..warc import DEFAULT_MAX_BYTES, Skip, WarcCounts, expand_paths, iter_warc

#: Columns :func:`read_warc` gives each record (``metadata`` fields flattened).
RECORD_COLUMNS = ("id", "url", "html", "skip", "date", "http_status", "content_type",
                  "charset", "warc_file", "offset")


def warc_rows(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[dict[str, Any]]:
    """One row per record of one WARC file (see :data:`RECORD_COLUMNS`)."""
    for item in iter_warc(path, max_bytes=max_bytes, counts=WarcCounts()):
        row = dict.fromkeys(RECORD_COLUMNS)
        if isinstance(item, Skip):
            row.update(id=item.record_id or "", url=item.url or "", html="", skip=item.reason)
        else:
            row.update(item.metadata, id=item.record_id, url=item.url or "", html=item.html,
                       skip="")
        yield row


def read_warc(patterns: list[str], max_bytes: int = DEFAULT_MAX_BYTES, num_cpus: float = 0,
              concurrency: int = 4) -> ray.data.Dataset:
    """A dataset of every record of the WARC files (paths or globs), read file-parallel.

    Reading reserves no CPU by default (``num_cpus``) and runs at most ``concurrency``
    files at once: it is light next to extraction, and extraction actors holding every
    CPU would otherwise starve it (Ray then waits forever).
    """
    paths = expand_paths(patterns)
    files = ray.data.from_items([{"path": path} for path in paths],
                                override_num_blocks=max(1, len(paths)))
    return files.flat_map(lambda row: warc_rows(row["path"], max_bytes), num_cpus=num_cpus,
                          concurrency=concurrency)


class BlocksiftExtract:
    """``Dataset.map_batches`` callable: adds ``title``, ``text``, ``status`` and ``ms``.

    Options mirror ``blocksift batch`` (``algorithm``, ``params``, ``model_path``). Rows
    with a non-empty ``skip`` pass through with empty text; a page whose extraction raises
    gets ``skip = "extract-error"``. The ``html`` column is dropped unless ``keep_html``.
    """

    def __init__(self, algorithm: str = "auto", params: dict[str, Any] | None = None,
                 model_path: str | None = None, html_column: str = "html",
                 url_column: str = "url", keep_html: bool = False):
        self.extractor = PageExtractor(algorithm, params, model_path)
        self.extractor.load()  # once per actor, not per batch
        self.html_column, self.url_column, self.keep_html = html_column, url_column, keep_html

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        htmls = batch[self.html_column]
        urls = batch.get(self.url_column, [None] * len(htmls))
        skips = list(batch["skip"]) if "skip" in batch else [""] * len(htmls)
        titles, texts, statuses, ms = [], [], [], []
        for i, (html, url) in enumerate(zip(htmls, urls)):
            fields = {"title": "", "text": "", "status": "", "ms": 0.0}
            if not skips[i]:
                try:
                    fields = self.extractor(str(html), str(url) if url else None)
                except Exception:  # one bad page must not fail the batch; it is counted
                    skips[i] = "extract-error"
            titles.append(fields["title"])
            texts.append(fields["text"])
            statuses.append(fields["status"])
            ms.append(fields["ms"])
        out = {key: value for key, value in batch.items()
               if key != self.html_column or self.keep_html}
        out.update(title=np.array(titles, dtype=object), text=np.array(texts, dtype=object),
                   status=np.array(statuses, dtype=object), ms=np.array(ms, dtype=float),
                   skip=np.array(skips, dtype=object))
        return out

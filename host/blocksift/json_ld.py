"""A page's JSON-LD (``<script type="application/ld+json">``), read without ever raising.

Pages carry broken JSON-LD (a trailing comma, two objects in one script) and, now and then,
JSON nested deeper than Python's parser follows (``[[[[...`` thousands deep), which raises
``RecursionError`` rather than ``ValueError``. Either kind of script is skipped: it costs its
own data and nothing else. Control characters inside strings (raw line breaks in a product's
description) are read, as browsers' and search engines' readers do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from lxml import etree


def documents(root: etree._Element, holding: re.Pattern[str] | None = None
              ) -> Iterator[object]:
    """The parsed JSON of each JSON-LD script under ``root``, in document order; with
    ``holding``, only scripts whose text it finds (a cheap test before the parse)."""
    for script in root.iter("script"):
        text = script.text
        if not text or "ld+json" not in (script.get("type") or "").lower():
            continue
        if holding is not None and not holding.search(text):
            continue
        try:
            yield json.loads(text, strict=False)
        except (ValueError, RecursionError):
            continue


def objects(data: object) -> Iterator[dict]:
    """Every JSON object in ``data``, itself included, parents before their members and in
    document order; iterative, so no nesting is too deep for it."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(value for value in reversed(item.values())
                         if isinstance(value, (list, dict)))
        elif isinstance(item, list):
            stack.extend(value for value in reversed(item) if isinstance(value, (list, dict)))

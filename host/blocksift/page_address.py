"""The address a saved page names for itself, for a page read without one.

``blocksift extract page.html`` and a ``batch`` line without ``"url"`` read a page that came
without its address, so nothing tied it to its site: no per-site adaptation
(docs/auto.md, "Per-site adaptation"), relative links left as written. A page saved from a
browser usually says where it came from, and :func:`declared_address` takes that address,
in this order:

1. ``saved from``: the comment Chromium's *Save page as* puts at the top
   (``<!-- saved from url=(0041)https://... -->``), and SingleFile's (``url: https://...``):
   the address of the tab it was saved from, the one the reader view and a label saved in
   the browser were keyed by;
2. ``canonical``: ``<link rel="canonical" href="...">``, the address the page calls its own;
3. ``og:url``: ``<meta property="og:url" content="...">``, the same for link previews.

Only an absolute http(s) address with a host counts (a relative one cannot be resolved
without the address it is relative to). Nothing is fetched.
"""

from __future__ import annotations

import re
from typing import Any

from .sites import site_key

#: Where an address came from -> how a message names it.
SOURCES = {
    "saved from": "the comment of the browser that saved it",
    "canonical": "its <link rel=canonical>",
    "og:url": "its og:url",
}

#: Chromium's mark of the web and SingleFile's header; both are near the top of the file.
_SAVED_FROM = re.compile(r"<!--\s*saved from url=\(\d+\)\s*(\S+?)\s*-->", re.IGNORECASE)
_SINGLEFILE = re.compile(r"<!--\s*Page saved with SingleFile\s+url:\s*(\S+)", re.IGNORECASE)
#: A page without either word names no address in its markup.
_CLAIM = re.compile(r"canonical|og:url", re.IGNORECASE)
_BODY = re.compile(r"<body[\s>]", re.IGNORECASE)
#: How much of the page's start is searched for those comments.
_HEAD_CHARS = 8192


def usable(url: str | None) -> str | None:
    """``url`` stripped when it is an absolute http(s) address with a host, else None."""
    url = (url or "").strip()
    if not url.lower().startswith(("http://", "https://")) or not site_key(url):
        return None
    return url


def declared_address(page: Any) -> tuple[str, str] | None:
    """(address, where from: a key of :data:`SOURCES`) the page names for itself, or None."""
    start = page.raw[:_HEAD_CHARS]
    for pattern in (_SAVED_FROM, _SINGLEFILE):
        found = pattern.search(start)
        url = usable(found.group(1)) if found else None
        if url:
            return url, "saved from"
    body = _BODY.search(page.raw)
    if not _CLAIM.search(page.raw, 0, body.start() if body else len(page.raw)):
        # no tree parsed for nothing (an algorithm that needs none, in batch): both are
        # head tags, and the head is where a page's markup ends before its body
        return None
    tree = page.tree
    for link in tree.iter("link"):
        url = usable(link.get("href"))
        if url and "canonical" in (link.get("rel") or "").lower().split():
            return url, "canonical"
    for meta in tree.iter("meta"):
        url = usable(meta.get("content"))
        if url and "og:url" in ((meta.get("property") or "").strip().lower(),
                                (meta.get("name") or "").strip().lower()):
            return url, "og:url"
    return None

"""What hide reads of markup: an element's class / id words, and the page's own header and
footer (not an article's or a card's)."""

from __future__ import annotations

import re

from lxml import etree

_TOKEN_SPLIT = re.compile(r"[^a-z0-9]+")


#: Elements whose header and footer are their own, not the page's (HTML's sectioning
#: content, and main).
_SECTIONING = ("article", "section", "aside", "nav", "main")
_FRAME_ROLES = {"contentinfo": "footer", "banner": "header"}


def _tokens(element: etree._Element) -> set[str]:
    klass, ident = element.get("class"), element.get("id")
    if not klass and not ident:
        return set()
    value = f"{klass or ''} {ident or ''}".lower()
    return {t for t in _TOKEN_SPLIT.split(value) if t}


def _page_frame(element: etree._Element) -> str:
    """Which part of the page's own frame ``element`` is: "header" (``<header>``,
    ``role=banner``) or "footer" (``<footer>``, ``role=contentinfo``) with no sectioning
    ancestor (one inside an article or a card is that item's own); "" for anything else."""
    part = element.tag if element.tag in ("footer", "header") else _FRAME_ROLES.get(
        (element.get("role") or "").lower(), "")
    if part and next(element.iterancestors(*_SECTIONING), None) is not None:
        return ""
    return part

"""The article's title as a reader sees it: candidates from the page, scored by a linear model.

A page names its article in several places that disagree: the visible ``<h1>`` (sometimes a
section name, a logo, or the product's short name), ``<title>`` (usually the headline plus the
site name, or an SEO variant), ``og:title`` / ``twitter:title``, schema.org ``headline`` /
``name`` (JSON-LD and microdata), and the heading the extraction algorithm opened its text
with. Every one of them, and every part of ``<title>`` / ``og:title`` cut at a site-name
separator ("Headline | Site", "Site: Headline"), is a candidate; equal candidates (same words)
merge, keeping which sources gave them. Each candidate gets binary and small numeric features
(sources, how many sources agree, whether the cut-off part names the site, length), and the
title is the candidate with the highest linear score.

The weights (``data/title-scorer.json``) come from a conditional-logit fit on wcxb-dev's title
gold, chosen by cross-validation with no site in both the training and the validation folds
(``benchmarks/train_title_scorer.py``); prediction is a dot product, no learning library.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from urllib.parse import SplitResult, urlsplit

from lxml import etree

from .content import HIDDEN_STYLE, rendered_text
from .htmltokenizer import unescape

_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
#: Separators a site appends its name with; ``: `` too (Amazon, "Site: Headline"); in Chinese
#: and Japanese titles, which have no spaces, ``_``, ``__``, ``-`` and ``--`` by a CJK character
#: ("标题__商贸_产业资讯_新浪网") and a full-width bar.
_SEPARATOR = re.compile(r"\s+[|\-–—~/»·•:]{1,2}\s+|\s*[|·•»｜]\s*|(?<=\w):\s+"
                        f"|(?<=[{_CJK}）)】])\\s*(?:_{{1,2}}|-{{1,2}})\\s*"
                        f"|\\s*(?:_{{1,2}}|-{{1,2}})\\s*(?=[{_CJK}（(【])")
_WORD = re.compile(r"[^\W_]+")
_MOJIBAKE = re.compile(r"[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d"
                       r"\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026"
                       r"\u2030\u2039\u203a\u20ac\u2122]{1,3}")
#: Also an icon font's glyph, which fonts draw from the private use areas (a documentation
#: heading's link icon, U+F0C1, after "Ansible playbooks"): no letter of the title.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060\ufeff\ue000-\uf8ff\U000f0000-\U0010fffd]"
                        r"|[¶#]\s*$")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
#: A day alone, a weekday before it or not ("Monday, November 01, 2004", "20 July 2012",
#: "2012-07-20"): a blog's date heading, never the story's title.
_DATE_LINE = re.compile(r"^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:"
                        r"\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}"
                        f"|{_MONTH}\\s+\\d{{1,2}}(?:st|nd|rd|th)?,?\\s+\\d{{4}}"
                        f"|\\d{{1,2}}(?:st|nd|rd|th)?\\s+(?:of\\s+)?{_MONTH},?\\s+\\d{{4}})$", re.I)
#: A section number before a documentation heading ("3.1 Git Branching").
_SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)+\.?\s+(?=\w)")
_MAX_CHARS = 300

#: Sources in the order their wording is shown when several give the same words.
SOURCES = ("h1", "algorithm", "ld_headline", "itemprop", "og", "twitter", "ld_name",
           "title", "h1_numbered", "h2")


@dataclass
class Candidate:
    """One distinct title (its words) with what speaks for it."""

    text: str
    key: str
    features: dict[str, float] = field(default_factory=dict)
    rank: int = 99

    def add(self, name: str, value: float = 1.0) -> None:
        self.features[name] = max(self.features.get(name, 0.0), value)


def words(text: str | None) -> str:
    """Case-folded NFKC word tokens joined by one space: titles equal when these are."""
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text or "").casefold()))


def _squash(text: str) -> str:
    return "".join(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def _fix_mojibake(match: re.Match[str]) -> str:
    run = match.group(0)
    for codec in ("cp1252", "latin-1"):
        try:
            return run.encode(codec).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
    return run


def clean(text: str | None) -> str:
    """``text`` as shown: entities decoded (twice: ``&amp;amp;``), UTF-8 read as cp1252 undone,
    soft hyphens, zero-width characters and heading anchors ("¶") dropped, spaces collapsed."""
    text = unescape(unescape(text or ""))
    text = _MOJIBAKE.sub(_fix_mojibake, text)
    text = _INVISIBLE.sub("", text)
    text = " ".join(text.split())
    return text[:_MAX_CHARS].strip()


def _parts(title: str) -> list[tuple[str, str, int, str]]:
    """(kind, text, segments dropped) for every prefix and suffix of ``title`` cut at a
    separator: "A | B | C" gives prefix "A", "A | B" and suffix "B | C", "C"."""
    cuts = list(_SEPARATOR.finditer(title))
    out = []
    for index, cut in enumerate(cuts):
        out.append(("prefix", title[:cut.start()], len(cuts) - index, cut.group(0)))
        out.append(("suffix", title[cut.end():], index + 1, cut.group(0)))
    return out


def site_words(site_names: list[str], url: str | None) -> set[str]:
    """Squashed names the site goes by: its declared names and its host's labels."""
    names = {_squash(name) for name in site_names if name}
    host = (urlsplit(url).hostname or "") if url else ""
    labels = [label for label in host.removeprefix("www.").split(".") if len(label) > 2]
    names.update(label.replace("-", "") for label in labels[:-1] or labels)
    return {name for name in names if len(name) >= 3}


_EDGE_SEPARATOR = re.compile(r"^\s*[|\-–—~/»·•:｜]+\s*(?=\S)|(?<=\S)\s*[|\-–—~/»·•:｜]+\s*$")


def _site_alone(title: str | None) -> list[str]:
    """The site's name from a ``<title>`` whose page half is empty ("| Nuts & Volts
    Magazine": a "{page} | {site}" template filled with no page title)."""
    text = clean(title)
    return [_EDGE_SEPARATOR.sub("", text)] if _EDGE_SEPARATOR.search(text) else []


_CJK_CHAR = re.compile(f"[{_CJK}]")


def _length(key: str) -> int:
    """Words of a candidate's key; Chinese and Japanese, written without spaces, count a word
    for every two characters (a run of them is one ``\\w+`` match, whatever its length)."""
    cjk = len(_CJK_CHAR.findall(key))
    if not cjk:
        return len(key.split())
    return len(_CJK_CHAR.sub(" ", key).split()) + max(1, cjk // 2)


def names_site(dropped: str, site: set[str]) -> bool:
    squashed = _squash(dropped)
    return bool(squashed) and any(name in squashed or squashed in name for name in site)


#: A quotation and whom it is from ("\"Users wanting something close to Salesforce … need
#: look no further.\" - Forbes"): a testimonial, which SuiteCRM's front page sets in its
#: first <h1>.
_QUOTATION = re.compile(r"^[\"“„«].{10,}[\"”“»]\s*(?:[-–—―~]+|by\s)\s*\w.{0,60}$")


def _quotation(text: str) -> bool:
    return _QUOTATION.match(clean(text)) is not None


#: A sentence, not a title: eight words or more ending in a full stop or an exclamation mark,
#: the last word no abbreviation ("... in the U.S." is a title).
_SLOGAN = re.compile(r"^(?:\S+\s+){7,}[^\s.]+[.!]$")
#: How many shown <h1> make a page's first one no more its title than the others.
_MANY_H1 = 3


def _slogan(text: str) -> bool:
    """A landing page's slogan or a section's lead sentence ("The world's #1 AI CRM powers the
    Agentic Enterprise."): on wcxb-dev such an ``<h1>``, which <title> and og:title do not
    say, was never the page's title and often won over it."""
    return _SLOGAN.match(clean(text)) is not None


def candidates(tree: etree._Element, metas: dict[str, str], ld_nodes: list[dict],
               page_title: str, chosen: str, site_names: list[str], url: str | None,
               in_furniture=lambda element: False, text_of=None) -> list[Candidate]:
    """The distinct title candidates of a page, each with its features."""
    text_of = text_of or (lambda element: element.text_content())
    found: dict[str, Candidate] = {}
    site = site_words(site_names + _site_alone(page_title), url)
    # the words each cut of <title> / og:title left out, per candidate (beside_site_h1)
    dropped_words: dict[str, set[str]] = {}

    def add(source: str, raw: str | None, **extra: float) -> Candidate | None:
        text = clean(raw)
        key = words(text)
        if not key:
            return None
        family, _, feature = source.rpartition(":")
        rank = next(i for i, name in enumerate(SOURCES) if (family or feature).startswith(name))
        candidate = found.get(key)
        if candidate is None:
            candidate = found[key] = Candidate(text, key, rank=rank)
        elif rank < candidate.rank:
            candidate.text, candidate.rank = text, rank
        candidate.add(feature)
        for name, value in extra.items():
            candidate.add(name, value)
        return candidate

    def add_with_parts(source: str, raw: str | None) -> None:
        text = clean(raw)
        if not text:
            return
        add(source, text)
        for kind, part, dropped, cut in _parts(text):
            removed = text.replace(part, " ", 1)
            mark = "colon" if ":" in cut else "pipe" if "|" in cut else \
                "dash" if any(dash in cut for dash in "-–—") else "other"
            cut_part = add(f"{source}_{kind}", part, dropped=min(dropped, 4) / 4,
                           dropped_site=float(names_site(removed, site)),
                           **{f"cut_{mark}": 1.0})
            if cut_part is not None:
                dropped_words.setdefault(cut_part.key, set()).add(words(removed))

    shown = {node: _shown_text(node, text_of) for node in tree.iter("h1")}
    # a page that sets three or more headings as <h1> (a page builder's sections, its
    # testimonials and slogans among them) has no first one that stands for its title more
    # than the others
    first_is_title = sum(1 for text in shown.values() if text.strip()) < _MANY_H1
    # a testimonial set as a heading is no title, unless the page's <title> or og:title says it
    named = f" {words(clean(page_title))} {words(clean(metas.get('og:title')))} "
    shown = {node: text for node, text in shown.items()
             if not _quotation(text) or f" {words(clean(text))} " in named}
    if chosen and _quotation(chosen) and f" {words(clean(chosen))} " not in named:
        chosen = ""
    # a slogan set as a heading likewise ("Sell, market, and service more effectively with
    # SuiteCRM, the world's number 1 Open Source CRM.")
    every = [node for node, text in shown.items() if text.strip()
             and (not _slogan(text) or f" {words(clean(text))} " in named)]
    headings = every[:4]
    for index, heading in enumerate(headings):
        text = shown[heading]
        furniture = in_furniture(heading)
        source = "h1_furniture" if furniture else \
            ("h1_first" if index == 0 and first_is_title else "h1_other")
        found_h1 = add(f"h1:{source}", text)
        if found_h1 is not None and _in_main(heading):
            found_h1.add("h1_in_main")
        link = _whole_link(heading, text_of) if found_h1 is not None else None
        if link is not None and _links_home(link, url):
            found_h1.add("h1_home_link")
        if link is not None and _links_to_itself(link, url):
            found_h1.add("h1_self_link")
        if found_h1 is not None and _brand_box(heading):
            found_h1.add("h1_brand")
        numbered = _SECTION_NUMBER.sub("", clean(text))
        if numbered != clean(text):
            add("h1_numbered", numbered)
    h2 = next(iter(tree.iter("h2")), None)
    if h2 is not None:
        add("h2", _shown_text(h2, text_of))
    if chosen:
        add("algorithm", chosen)
    add_with_parts("title", page_title)
    add_with_parts("og", metas.get("og:title"))
    add("twitter", metas.get("twitter:title"))
    for node in ld_nodes:
        kinds = {str(kind).lower() for kind in
                 (node.get("@type") if isinstance(node.get("@type"), list)
                  else [node.get("@type")])}
        headline = node.get("headline")
        if isinstance(headline, str):
            add("ld_headline", headline)
        name = node.get("name")
        if isinstance(name, str):
            family = "product" if kinds & {"product", "productgroup", "book", "event",
                                           "course", "softwareapplication"} else \
                "page" if kinds & {"webpage", "article", "newsarticle", "blogposting",
                                   "collectionpage", "discussionforumposting", "qapage",
                                   "question", "itempage", "faqpage", "techarticle"} else \
                "other"
            add(f"ld_name:ld_name_{family}", name)
    for node in tree.xpath("//*[@itemprop='headline' or @itemprop='name']")[:6]:
        if in_furniture(node):
            continue
        add("itemprop", node.get("content") or text_of(node))

    for part, kind, name in _beside_site_heading(clean(page_title), found):
        add(f"title_{kind}", part, dropped=0.25, dropped_site=1.0, cut_other=1.0)
        dropped_words.setdefault(words(part), set()).add(words(name))
        site.add(_squash(name))

    # an <h1> that is the site's name (it links to a front page, sits in the masthead or
    # says the site's name): the rest of a <title> that cuts it off is the story's headline
    site_h1 = {c.key for c in found.values()
               if any(name.startswith("h1_") for name in c.features)
               and ("h1_home_link" in c.features or "h1_brand" in c.features
                    or names_site(c.text, site))}
    for key in site_h1:
        found[key].add("h1_site")
    for key, dropped_keys in dropped_words.items():
        if dropped_keys & site_h1 and key not in site_h1:
            found[key].add("beside_site_h1")

    title_words = words(clean(page_title))
    title_count = max(_length(title_words), 1)
    h1_in_title = any(name.startswith("h1") and f" {c.key} " in f" {title_words} "
                      for c in found.values() for name in c.features)
    og_words = words(clean(metas.get("og:title")))
    site_keys = site
    families = ("h1", "algorithm", "title", "og", "twitter", "ld", "itemprop")
    for candidate in found.values():
        sources = candidate.features
        agreeing = {family for family in families
                    if any(name.startswith(family) for name in sources)}
        candidate.features["agree"] = len(agreeing) / len(families)
        count = _length(candidate.key)
        candidate.features["share_of_title"] = min(count / title_count, 2.0)
        candidate.features["page_h1_in_title"] = float(h1_in_title)
        for low, high, name in ((1, 1, "words_1"), (2, 3, "words_2_3"), (4, 8, "words_4_8"),
                                (9, 16, "words_9_16"), (17, 10_000, "words_17")):
            if low <= count <= high:
                candidate.features[name] = 1.0
        if title_words and f" {candidate.key} " in f" {title_words} ":
            candidate.features["in_title"] = 1.0
        if og_words and f" {candidate.key} " in f" {og_words} ":
            candidate.features["in_og"] = 1.0
        if names_site(candidate.text, site_keys):
            candidate.features["names_site"] = 1.0
        if _squash(candidate.text) in site_keys:
            candidate.features["is_site"] = 1.0
        if _DATE_LINE.match(candidate.text):
            candidate.features["is_date"] = 1.0
    return list(found.values())


#: Sources that give the story's headline, not the site's name.
_HEADLINE_SOURCES = ("h2", "algorithm", "og", "twitter", "ld_headline", "itemprop")


def _beside_site_heading(title: str, found: dict[str, Candidate]
                         ) -> list[tuple[str, str, str]]:
    """The headline part of a ``<title>`` that joins it to the site's name with a space
    alone, where an ``<h1>`` is that name ("土豆不“土” 土豆无“土” 松花江网", the site's logo
    ``<h1>`` and the story's ``<h2>``): (the part, "prefix" or "suffix", the ``<h1>``), which
    :func:`candidates` adds as a cut of ``<title>`` and as the site's name. The part must be
    another candidate's, from a source that names the story (an ``<h2>``, ``og:title``...).
    With no separator, ``<title>`` gave neither: the logo's ``<h1>`` won."""
    out: list[tuple[str, str, str]] = []
    folded = title.casefold()
    if len(folded) != len(title):
        return out  # "ß" folds to "ss": no slicing by the folded text's lengths
    headlines = {key for key, candidate in found.items()
                 if any(name in _HEADLINE_SOURCES for name in candidate.features)}
    for candidate in list(found.values()):
        if not any(name.startswith("h1_") for name in candidate.features):
            continue
        name = candidate.text.casefold()
        if not name or len(name) >= len(folded):
            continue
        parts = []
        if folded.endswith(name):  # "Story Site": the story before the name
            parts.append(("prefix", title[:len(title) - len(name)]))
        if folded.startswith(name):
            parts.append(("suffix", title[len(name):]))
        for kind, rest in parts:
            gap = rest[-1:] if kind == "prefix" else rest[:1]
            if gap.isspace() and not _EDGE_SEPARATOR.search(rest.strip()) \
                    and words(rest) in headlines:
                # guillemets no separator cuts at ("Story « Site", "Site › Story")
                out.append((rest.strip().strip("«‹›").strip(), kind, candidate.text))
    return out


#: Classes of elements shown to screen readers only, or hidden ("label--hidden", "is-hidden").
_HIDDEN_CLASS = re.compile(r"(?<![\w-])(?:sr-only|screen-reader-(?:text|only)|visually-?hidden|"
                           r"visuallyhidden|hidden|is-hidden|u-hidden|[\w-]+--hidden)(?![\w-])",
                           re.I)


def _hidden(element: etree._Element) -> bool:
    """Not shown on the page: the ``hidden`` attribute, an inline ``display: none``, or a
    screen-reader-only / hidden class (a forum's ``<span class="label label--hidden">``)."""
    return element.get("hidden") is not None or \
        bool(HIDDEN_STYLE.search(element.get("style") or "")) or \
        bool(_HIDDEN_CLASS.search(element.get("class") or ""))


def _shown_text(heading: etree._Element, text_of) -> str:
    """``heading``'s text without its hidden parts ("" when all of it is hidden)."""
    if _hidden(heading):
        return ""
    spoken = _spoken_text(heading)
    if spoken:
        return spoken
    if not any(isinstance(node.tag, str) and _hidden(node) for node in heading.iterdescendants()):
        return text_of(heading)
    return rendered_text(heading, skip=_hidden)


def _spoken_text(heading: etree._Element) -> str:
    """What a screen reader says for ``heading`` when part of it is ``aria-hidden``: its
    text without those parts (nor the ones not shown at all). An animated headline splits
    its shown words into boxes, often twice over (a phone's line breaks and a desktop's), and
    gives the sentence once more to screen readers; an anchor's "#" is hidden the same
    way. "" when nothing in ``heading`` is ``aria-hidden``, or nothing else is left."""
    if not any(isinstance(node.tag, str) and node.get("aria-hidden") == "true"
               for node in heading.iterdescendants()):
        return ""
    return rendered_text(heading, skip=lambda node: node.get("aria-hidden") == "true" or
                         node.get("hidden") is not None or
                         bool(HIDDEN_STYLE.search(node.get("style") or "")))


#: Paths of a site's front page, which a logo heading links to.
_HOME_PATHS = frozenset(("/", "/index.php", "/index.html", "/index.htm", "index.php",
                         "index.html", "./"))


def _whole_link(heading: etree._Element, text_of) -> SplitResult | None:
    """The address of the one link that is all of ``heading``'s text, else None (also for an
    address that cannot be read: ``http://[bad``, which ``urlsplit`` refuses)."""
    links = heading.xpath(".//a[@href]")
    if len(links) != 1 or words(text_of(links[0])) != words(text_of(heading)):
        return None
    try:
        return urlsplit(links[0].get("href", "").strip())
    except ValueError:
        return None


def _same_host(href: SplitResult, page: SplitResult) -> bool:
    return not href.netloc or (href.hostname or "") == (page.hostname or "")


def _links_home(href: SplitResult, url: str | None) -> bool:
    """A heading whose one link (``href``, :func:`_whole_link`) goes to a front page: a logo
    or the site's name, not the page's title (a forum's ``<h1><a href="/">Site</a></h1>``);
    or, on a page whose address is known, to a folder above it on its host (a blog's name
    linking to ``/blog`` from ``/blog/57/story``: the blog's front page, not the site's)."""
    if href.path in _HOME_PATHS or (not href.path and bool(href.netloc)):
        return True
    if not url or not href.path.startswith("/"):
        return False
    page = urlsplit(url)
    above = href.path.rstrip("/")
    return _same_host(href, page) and bool(above) and \
        page.path.startswith(above + "/") and page.path.rstrip("/") != above


def _links_to_itself(href: SplitResult, url: str | None) -> bool:
    """A heading whose one link (``href``) goes to the page it is on: a story's permalink
    headline."""
    if not url or not href.path:
        return False
    page = urlsplit(url)
    return _same_host(href, page) and href.path.rstrip("/") == page.path.rstrip("/") \
        and bool(page.path.strip("/")) and href.query == page.query


#: Classes and ids of a masthead: where a site sets its name as a heading.
_BRAND = re.compile(r"(?<![a-z])(?:banner|masthead|branding|logo|site-?(?:title|name|logo|header)"
                    r"|blog-?(?:title|name|header))(?![a-z])", re.I)


def _brand_box(heading: etree._Element) -> bool:
    """``heading`` or one of its two nearest ancestors is classed as the site's masthead
    (``<h1 id="banner-header">``, ``<div class="site-branding"><h1>``)."""
    node: etree._Element | None = heading
    for _ in range(3):
        if node is None or not isinstance(node.tag, str):
            return False
        if _BRAND.search(f"{node.get('class') or ''} {node.get('id') or ''}"):
            return True
        node = node.getparent()
    return False


def _in_main(element: etree._Element) -> bool:
    node = element.getparent()
    while node is not None:
        if node.tag in ("main", "article") or node.get("role") == "main" or \
                node.get("itemprop") in ("articleBody", "mainEntity"):
            return True
        node = node.getparent()
    return False


@cache
def _weights() -> dict[str, float]:
    data = resources.files("blocksift").joinpath("data/title-scorer.json").read_text("utf-8")
    return json.loads(data)["weights"]


def score(candidate: Candidate, weights: dict[str, float] | None = None) -> float:
    weights = _weights() if weights is None else weights
    return sum(weights.get(name, 0.0) * value for name, value in candidate.features.items())


#: A separator a heading's design puts before its words ("/ CREATIVE AGENCY PORTFOLIO",
#: "// About us"): not part of the title. A hyphen or a colon may start a title ("-40 °C").
_LEADING_DECORATION = re.compile(r"^[|/»·•–—~｜]{1,3}\s+(?=\S)")


def best(found: list[Candidate], weights: dict[str, float] | None = None) -> str:
    """The highest-scoring candidate's text (ties: the earlier source); "" without any. A day
    alone is taken only when nothing else names the page: the few training pages that have
    one as a candidate (a blog's date heading, which ``auto``'s own title may be) weigh it too
    lightly to keep it from winning."""
    if not found:
        return ""
    chosen = max(found, key=lambda c: (not c.features.get("is_date"), score(c, weights),
                                       -c.rank)).text
    return _LEADING_DECORATION.sub("", chosen)


#: Blocks a line of the main text sits in (the first one is looked at as a whole).
_LINE_BLOCKS = frozenset({"p", "div", "td", "th", "li", "dt", "dd", "center", "blockquote",
                          "section", "article", "header", "main", "figcaption", "caption"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: What makes a line prominent without a heading's tag: bold, or set larger.
_PROMINENT = frozenset({"b", "strong", "big"})
#: A prominent first line longer than this, or ending as a sentence does, is a lead-in.
_LINE_CHARS = 120
_LINE_WORDS = 15
_SENTENCE_END = re.compile(r"[.,;:!?…]$")


def opening_line(html: str) -> str:
    """The title of a page that names none (no ``<title>``, heading or metadata): the main
    text's first line when it is prominent, a heading, or a short line in bold or large type
    alone in its block up to a line break ("<div><b>Successful Deaf Leaders</b></div>", as
    pages made in the 2000s title themselves); "" otherwise (the first words of a paragraph,
    a bold lead-in inside a sentence, a long or sentence-like line)."""
    if not html or not html.strip():
        return ""
    from lxml import html as lxml_html

    try:
        root = lxml_html.fragment_fromstring(html, create_parent="div")
    except (etree.ParserError, ValueError):
        return ""
    first = next(iter(root.xpath("(.//text()[normalize-space()])[1]")), None)
    if first is None:
        return ""
    owner = first.getparent()
    if first.is_tail:
        owner = owner.getparent()
    chain = [owner, *owner.iterancestors()]
    heading = next((e for e in chain if e.tag in _HEADINGS), None)
    if heading is not None:
        text = clean(heading.text_content())
        return text if len(text) <= _LINE_CHARS * 2 else ""
    block = next((e for e in chain if e.tag in _LINE_BLOCKS), root)
    # the block's first line: its text nodes up to the first line break or nested block
    pieces: list[tuple[str, etree._Element]] = []
    for event, element in etree.iterwalk(block, events=("start", "end")):
        if element is not block and (element.tag == "br" or element.tag in _LINE_BLOCKS
                                     or element.tag in _HEADINGS):
            if event == "start" and pieces:
                break
            if event == "start":
                continue
        if event == "start" and element.text and element.text.strip():
            pieces.append((element.text, element))
        elif event == "end" and element is not block and element.tail and element.tail.strip():
            pieces.append((element.tail, element.getparent()))
    if not pieces:
        return ""
    for _text, holder in pieces:
        if not any(e.tag in _PROMINENT for e in (holder, *holder.iterancestors())
                   if e is not block and block in e.iterancestors()):
            return ""  # a word in plain type: the line is text, not a title
    text = clean(" ".join(text for text, _holder in pieces))
    if not text or len(text) > _LINE_CHARS or len(text.split()) > _LINE_WORDS \
            or _SENTENCE_END.search(text):
        return ""
    return text

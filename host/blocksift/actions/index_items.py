"""The stories of an index page, for the reader's index view: each story headline's title,
link and teaser (:func:`index_items`), and what a story headline is (:func:`_headline_links`:
not a heading of the site's menus and frame)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Literal
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml import etree
from pydantic import Field

from .. import json_ld
from ..content import file_name_alt, repeated_item, text_pieces, unseen_by_eye
from ..index_prices import PRICE
from ..page import Page
from ..wire.results import WireModel
from .markup import _page_frame, _tokens

#: What an index's stories are when the page says so (:func:`story_kind`); "" for stories,
#: or a kind the page does not name.
StoryKind = Literal["", "recipe", "job", "course", "event"]


class IndexItem(WireModel):
    """One story of an index page: headline, link and teaser."""

    title: str
    href: str = ""
    teaser: str = ""
    kind: StoryKind = Field("", description=(
        "What the page says its stories are: 'recipe', 'job', 'course', 'event' (schema.org, "
        "or its title's word and its addresses; blocksift.actions.index_items.story_kind); "
        "'' for stories"))


#: Roles of a site's menus, and class / id words naming one: a headline under one is a
#: menu's heading, not a story.
_MENU_ROLES = frozenset({"navigation", "menu", "menubar"})
_MENU_TOKENS = frozenset({"nav", "navbar", "navigation", "menu", "menubar", "submenu",
                          "megamenu", "dropdown", "flyout"})


def _in_menu(element: etree._Element) -> bool:
    """Whether ``element`` lies in the site's own menus and frame rather than its content:
    under a ``<nav>``, a navigation/menu role or a class or id naming a menu or dropdown
    (``mega-dropdown``, ``menu-item``), or in a ``<header>``/``<footer>`` (or banner /
    contentinfo role) that is the page's, not an article's or a section's
    (:func:`_page_frame`); the nearest ``<main>`` or ``<article>`` above it ends the search
    (what a page's main holds is its content, even where broken markup put it in the header)."""
    for node in (element, *element.iterancestors()):
        tag = node.tag
        if tag in ("main", "article", "body"):
            return False
        if tag == "nav" or (node.get("role") or "").lower() in _MENU_ROLES \
                or _page_frame(node) or _tokens(node) & _MENU_TOKENS:
            return True
    return False


def _headline_links(element: etree._Element) -> list[etree._Element]:
    """Headings (h2-h4, or h1 where several are links) whose text is mostly one link: an
    index page's story titles. Not those of the site's menus (:func:`_in_menu`): a
    mega-menu's section headings, a footer's country picker."""
    return [h for h in _linked_headings(element) if not _in_menu(h)]


#: A title has a letter: a heading of digits and signs alone is a card's number.
_WORDED = re.compile(r"[^\W\d_]")
#: An ``<h1>`` is a page's own title, so ``<h1>`` story titles count only where at least this
#: many are links: some themes give every card's title an ``<h1>`` (stackoverflow.blog's
#: index held 41 and no linked ``<h2>``-``<h4>`` but four).
MIN_LINKED_H1 = 3


def _linked_headings(element: etree._Element) -> list[etree._Element]:
    """Headings (h1-h4) whose text is mostly link text, and links holding one, in one walk
    of the headings and one of the links; the ``<h1>`` ones only where they are enough."""
    found: list[etree._Element] = []
    titles: list[etree._Element] = []  # the <h1> ones
    for heading in element.iter("h1", "h2", "h3", "h4"):
        text = " ".join(heading.text_content().split())
        anchors = [a for a in heading.iter("a") if a.get("href")]
        if not _WORDED.search(text) or not anchors:
            continue  # a card's number ("1", "02") is no title
        link_text = sum(len(" ".join(a.text_content().split())) for a in anchors)
        if link_text >= 0.6 * len(text):
            (titles if heading.tag == "h1" else found).append(heading)
    # a story title may also be a link holding a heading
    for anchor in element.iter("a"):
        if not anchor.get("href"):
            continue
        inside = list(anchor.iter("h1", "h2", "h3", "h4"))
        worded = {h.tag for h in inside if _WORDED.search(h.text_content())}
        if worded - {"h1"}:
            found.append(anchor)
        elif worded and all(h.tag == "h1" for h in inside):
            titles.append(anchor)
    return found + titles if len(titles) >= MIN_LINKED_H1 else found


def index_items(page: Page, limit: int = 200) -> list[IndexItem]:
    """The stories of an index page: headline link, its address and the teaser after it.

    A shop card's heading may be no name: a field's label and a code ("Item Number:
    Optoma-ZU607T"), whose card names the product elsewhere (:func:`_card_name`), or a
    badge before the name ("New Listing", :data:`_BADGES`), which is left out. Links to the
    shop's own cart or account (:func:`_site_utility`) are no stories."""
    items: list[IndexItem] = []
    seen: set[str] = set()
    by_href: dict[str, list[etree._Element]] | None = None
    site_headers: dict[etree._Element, bool] = {}
    beyond_head: list[int] = []  # the stories whose teaser lies after their card's head
    # in the page's order: a card that is one link holding its heading among cards whose
    # heading holds the link came last
    order = {element: n for n, element in enumerate(page.body.iter())}
    for heading in sorted(_headline_links(page.body), key=lambda h: order.get(h, 0)):
        anchor = heading if heading.tag == "a" else next(
            (a for a in heading.iter("a") if a.get("href")), None)
        if anchor is None:
            continue
        # a card that is one link holding its heading is titled by that heading, not by all
        # its text (the shop's name, prices and "FREE shipping" are no part of the headline)
        inner = next((h for h in heading.iter("h1", "h2", "h3", "h4")
                      if _WORDED.search(h.text_content())), None) if heading is anchor else None
        title = _title_text(heading if inner is None else inner)
        href = anchor.get("href") or ""
        if not title or href in seen or _site_utility(href) or _self_link(href, page.url) \
                or _home_link(href, page.url) or _in_site_header(heading, site_headers, page.body):
            continue
        seen.add(href)
        field = _FIELD_LABEL.match(title)
        if field and len(title[field.end():].split()) <= 3:
            # a code under its label: the card's name, else the code without its label
            if by_href is None:
                by_href = {}
                for link in page.body.iter("a"):
                    by_href.setdefault(link.get("href") or "", []).append(link)
            title = _card_name(by_href.get(href, [anchor]), heading if inner is None else inner
                               ) or title[field.end():]
        # the teaser follows the headline: inside the card, else after it, else after the
        # card's head
        heads = [h for h in (inner, heading) if h is not None]
        teaser = next((t for t in map(_teaser_after, heads) if t), "")
        if not teaser:
            teaser = next((t for t in map(_paragraph_after_box, heads) if t), "")
            if teaser:
                beyond_head.append(len(items))
        items.append(IndexItem(title=title[:300], href=href, teaser=teaser))
        if len(items) >= limit:
            break
    # a paragraph two stories' heads both reach lies past either's card
    reached = Counter(items[n].teaser for n in beyond_head)
    for n in beyond_head:
        if reached[items[n].teaser] > 1:
            items[n].teaser = ""
    items = _without_sections(items, page.url)
    kind = story_kind(page, [item.href for item in items])
    if kind:
        for item in items:
            item.kind = kind
    return items


#: The kinds of story a page may name (:data:`StoryKind`): the schema.org types that say it
#: (a subtype's name ending in the type's too: ``MusicEvent``), the plurals its title calls
#: them by, and the words of its addresses ("/recipes/", "/remote-jobs/", "/course/").
_KINDS: dict[str, tuple[re.Pattern[str], frozenset[str], frozenset[str]]] = {
    "recipe": (re.compile(r"Recipe"), frozenset({"recipes"}), frozenset({"recipe", "recipes"})),
    "job": (re.compile(r"JobPosting"), frozenset({"jobs", "vacancies", "job openings"}),
            frozenset({"job", "jobs", "vacancies", "vacancy"})),
    "course": (re.compile(r"Course|CourseInstance"), frozenset({"courses"}),
               frozenset({"course", "courses"})),
    "event": (re.compile(r"\w*Event|Festival|Hackathon|EventSeries"),
              frozenset({"events", "conferences", "webinars", "meetups"}),
              frozenset({"event", "events", "conference", "conferences", "webinar",
                         "webinars", "meetup", "meetups"})),
}
#: The share of the stories schema.org must call of a kind (as for products:
#: ``index_prices.sale_cues``).
_KIND_SHARE = 1 / 3
#: Where a ``<title>`` joins the page's name and the site's ("Air Fryer Recipes - Pinch of
#: Yum"): the page's own name is the first part.
_TITLE_SEPARATOR = re.compile(r"\s+[|\-–—~/»·•:]{1,2}\s+|\s*[|·•»｜]\s*|(?<=\w):\s+")
#: A name ending in a plural (group ``noun``), and what may follow it: "Archives", a
#: parenthesis, a place or time ("Remote Software Engineer Jobs (March 2026)", "Healthy Air
#: fryer Recipes Archives", "Tech conferences in Americas 2026").
_NAMED_PLURAL = re.compile(
    r"(?:^|\s)(?P<noun>(?:job )?[^\W\d_]+)(?:\s+archives?)?(?:\s*\([^)]*\))?"
    r"(?:\s+(?:in|near|for|from|around|this|today|of)\b[^()]*)?$", re.I)


def story_kind(page: Page, hrefs: Sequence[str]) -> str:
    """What the page says its stories (their links ``hrefs``) are (:data:`_KINDS`), else "":

    * schema.org calls a third of them or more so: a JSON-LD node of the kind whose ``url``
      or ``@id`` is the story's page (an ``ItemList``'s ``item`` too), or a microdata or
      RDFa item of the kind holding the story's link;
    * or the page names its list so, and its addresses say it: the first part of its
      ``<title>``, or its first ``<h1>``, ends with the kind's plural ("Best Air Fryer Recipes
      (…)", "Remote Full-Stack Programming Jobs", "Data Science Courses"), and a part of the
      page's address or of half the stories' addresses holds the kind's word, in three words
      at most ("/recipes/", "/remote-jobs/", "/course/"; not an article's slug,
      "/…-no-longer-guarantee-jobs").

    Neither a site's class names nor one site's addresses: a recipe blog's links are
    ``/recipe-slug``, its category page's ``/recipes/air-fryer``."""
    if len(hrefs) < 3:
        return ""
    by_schema = _schema_kinds(page.tree, hrefs, page.url)
    for kind, count in by_schema.items():
        if count >= len(hrefs) * _KIND_SHARE:
            return kind
    named = _named_kind(page)
    if named and _addresses_say(named, page.url, hrefs):
        return named
    return ""


def _path(href: str, base: str | None) -> str:
    try:
        return urlsplit(urljoin(base or "", href.strip())).path.rstrip("/").lower()
    except ValueError:
        return ""


def _of_kind(types: object) -> str:
    """The kind (:data:`_KINDS`) schema.org ``types`` (an ``@type``, ``itemtype`` or
    ``typeof`` value) name, else ""."""
    words = types if isinstance(types, list) else str(types or "").split()
    for word in words:
        if not isinstance(word, str):
            continue
        name = word.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        for kind, (pattern, _, _) in _KINDS.items():
            if pattern.fullmatch(name):
                return kind
    return ""


def _schema_kinds(root: etree._Element, hrefs: Sequence[str], url: str | None
                  ) -> dict[str, int]:
    """How many of the stories schema.org calls each kind (:func:`story_kind`)."""
    wanted = {path: href for href in hrefs if (path := _path(href, url))}
    kinds: dict[str, set[str]] = {}
    for data in json_ld.documents(root):
        for node in json_ld.objects(data):
            kind = _of_kind(node.get("@type"))
            if not kind:
                continue
            for key in ("url", "@id"):
                value = node.get(key)
                if isinstance(value, str) and _path(value, url) in wanted:
                    kinds.setdefault(kind, set()).add(_path(value, url))
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        kind = _of_kind(element.get("itemtype") or element.get("typeof"))
        if kind:
            kinds.setdefault(kind, set()).update(
                path for a in element.iter("a") if (path := _path(a.get("href") or "", url))
                in wanted)
    return {kind: len(paths) for kind, paths in kinds.items()}


def _named_kind(page: Page) -> str:
    """The kind whose plural ends the name the page gives itself (:func:`story_kind`)."""
    title = page.tree.find(".//title")
    names = [_TITLE_SEPARATOR.split(" ".join(title.text_content().split()))[0]
             if title is not None else ""]
    heading = page.body.find(".//h1")
    if heading is not None:
        names.append(" ".join(heading.text_content().split()))
    for name in names:
        match = _NAMED_PLURAL.search(name)
        if not match:
            continue
        noun = match.group("noun").lower()
        for kind, (_, plurals, _) in _KINDS.items():
            if noun in plurals:
                return kind
    return ""


#: Most words of an address's part that names a kind ("remote-jobs", "air-fryer-recipes"):
#: a longer one is a headline's slug ("…-degrees-no-longer-guarantee-jobs").
_KIND_PART_WORDS = 3


def _addresses_say(kind: str, url: str | None, hrefs: Sequence[str]) -> bool:
    """Whether a part of the page's address, or of half the stories' addresses, holds the
    kind's word in :data:`_KIND_PART_WORDS` words at most ("/recipes/air-fryer",
    "/remote-jobs/…", "/course/…")."""
    words = _KINDS[kind][2]

    def says(path: str) -> bool:
        return any(len(tokens) <= _KIND_PART_WORDS and words & set(tokens)
                   for tokens in (re.split(r"[-_.]", part) for part in path.split("/")))

    return says(_path(url or "", None)) or \
        2 * sum(1 for href in hrefs if says(_path(href, url))) >= len(hrefs)


#: Least number of other stories under a headline's address for the headline to be their
#: section's ("News" over the news, linked to "/news/").
MIN_SECTION_STORIES = 2


def _without_sections(items: list[IndexItem], url: str | None) -> list[IndexItem]:
    """``items`` less the headings of sections: a headline whose address is a folder that
    holds the addresses of :data:`MIN_SECTION_STORIES` other stories of the list ("News",
    linked to "/news/", over stories at "/news/2026/03/..."): a front page's section
    heading, not a story."""
    folders: list[tuple[str, str] | None] = []
    for item in items:
        try:
            target = urlsplit(urljoin(url or "", item.href))
        except ValueError:
            folders.append(None)
            continue
        folders.append((target.netloc, target.path))
    sections = set()
    for index, where in enumerate(folders):
        if where is None or where[1].strip("/") == "":
            continue
        host, path = where
        folder = path if path.endswith("/") else path + "/"
        under = sum(1 for other, there in enumerate(folders) if other != index
                    and there is not None and there[0] == host and there[1].startswith(folder)
                    and there[1].rstrip("/") != path.rstrip("/"))
        if under >= MIN_SECTION_STORIES:
            sections.add(index)
    return [item for index, item in enumerate(items) if index not in sections] \
        if sections else items


def _in_site_header(element: etree._Element, seen: dict[etree._Element, bool],
                    body: etree._Element) -> bool:
    """Whether ``element`` lies in a ``<header>`` (or ``role=banner``) holding a search form
    and less than half the text of ``body``: the site's own header, wherever it sits. An app
    that wraps the whole page in ``<main><section>`` puts it under a sectioning element, so
    :func:`_page_frame` takes it for a section's header (B&H's "Deal Zone" promotion,
    beside the search box and the cart, headed the list of cameras); a story's or card's
    header holds no search form, and a header around most of the page is broken markup
    around its content. ``seen`` keeps each
    header's answer for the page's other headlines."""
    for node in element.iterancestors():
        if node.tag != "header" and (node.get("role") or "").lower() != "banner":
            continue
        if node not in seen:
            seen[node] = any(
                child.tag == "search" or (child.get("role") or "").lower() == "search"
                or (child.tag == "form" and any(
                    (field.get("type") or "text").lower() in ("search", "text")
                    for field in child.iter("input")))
                for child in node.iterdescendants()) \
                and 2 * len(node.text_content()) < len(body.text_content())
        if seen[node]:
            return True
    return False


#: A product field's label opening a card's heading: what follows is the product's code, not
#: its name ("Item Number: Optoma-ZU607T", "SKU: 4471", "Model #: KR161").
_FIELD_LABEL = re.compile(
    r"(?:(?:item|part|model|product|article|catalog(?:ue)?|stock|mfr\.?|manufacturer)\s*"
    r"(?:number|no\.?|#|code|id)|sku|mpn|upc|ean|gtin|model)\s*[:#]\s*(?=\S)", re.I)
#: Badges a shop sets before a product's name in its heading, each an element of its own
#: (eBay's "New Listing" glued to the name: "New ListingGABBIE CARTER #50 …").
_BADGES = frozenset({"new listing", "new", "new!", "new arrival", "just in", "sale", "on sale",
                     "sponsored", "ad", "best seller", "bestseller", "top seller", "sold out",
                     "clearance", "online only", "hot"})


def _title_text(heading: etree._Element) -> str:
    """The heading's text, less a badge (:data:`_BADGES`) in an element of its own at its
    start."""
    text = " ".join(heading.text_content().split())
    # (through a link, or another box, that is all the heading holds)
    while not (heading.text or "").strip() and len(heading) == 1 \
            and isinstance(heading[0].tag, str) and not (heading[0].tail or "").strip():
        heading = heading[0]
    first = next((child for child in heading if isinstance(child.tag, str)), None)
    if first is None or (heading.text or "").strip():
        return text
    badge = " ".join(first.text_content().split())
    if badge.lower() not in _BADGES:
        return text
    rest = " ".join(((first.tail or "") + "".join(
        etree.tostring(sibling, method="text", encoding="unicode", with_tail=True)
        for sibling in first.itersiblings())).split())
    return rest or text


def _card_name(anchors: Sequence[etree._Element], heading: etree._Element) -> str:
    """The product's name a card gives beside a heading that holds its code: the words of an
    element in a link to the product named for a name or title (``class=
    "cat-grid-product-name"``), as shown; else such a link's title, else its picture's
    words (``alt``), unless they are its file name ("IMG 1234.JPG", "DSC 7667 1": the
    reader's :func:`~blocksift.content.file_name_alt`), which names no product."""
    inside = set(heading.iter())
    for anchor in anchors:
        for element in anchor.iterdescendants():
            if element in inside or not isinstance(element.tag, str) \
                    or not _tokens(element) & {"name", "title"}:
                continue
            name = " ".join(element.text_content().split())
            if name and not _FIELD_LABEL.match(name):
                return name
    for anchor in anchors:
        name = " ".join((anchor.get("title") or "").split())
        if name and not _FIELD_LABEL.match(name):
            return name
    for anchor in anchors:
        for image in anchor.iter("img"):
            name = " ".join((image.get("alt") or "").split())
            if len(name.split()) >= 2 and not file_name_alt(name):
                return name
    return ""


#: The shop's own pages a card-like box links to ("account", "cart" under icons).
_UTILITY_PATHS = frozenset({"cart", "basket", "bag", "checkout", "account", "my-account",
                            "login", "signin", "sign-in", "register", "wishlist"})


def _site_utility(href: str) -> bool:
    """Whether ``href`` is the site's cart, account, login or wish list page."""
    try:
        path = [part for part in urlsplit(href).path.split("/") if part]
    except ValueError:
        return False
    return len(path) == 1 and path[0].lower() in _UTILITY_PATHS


def _self_link(href: str, url: str | None) -> bool:
    """Whether ``href`` leads to the page itself (the browser's copy of the page writes an
    empty ``href`` as the page's address: eBay's hidden "Shop on eBay" cards)."""
    if not url:
        return False
    try:
        return urldefrag(urljoin(url, href)).url == urldefrag(url).url
    except ValueError:
        return False


def _home_link(href: str, url: str | None) -> bool:
    """Whether ``href`` leads to the site's own front page: its logo's link or a "Home" link,
    which some themes put in a heading (``<a href="/"><h1>Jezebel</h1></a>``)."""
    try:
        target = urlsplit(urljoin(url or "", href))
        here = urlsplit(url or "")
    except ValueError:
        return False
    return target.path in ("", "/") and not target.query \
        and (not target.netloc or target.netloc == here.netloc)


def _teaser_after(headline: etree._Element) -> str:
    """The first of the three blocks after ``headline`` that says something (:func:`_says`)
    (after the story's ``<header>`` or ``<hgroup>`` when the headline closes one)."""
    while headline.getnext() is None and headline.getparent() is not None \
            and headline.getparent().tag in ("header", "hgroup"):
        headline = headline.getparent()
    sibling = headline.getnext()
    for _ in range(3):
        if sibling is None:
            break
        if isinstance(sibling.tag, str) and sibling.tag in ("p", "div", "span") \
                and not unseen_by_eye(sibling):
            words = _seen_words(sibling)
            if _says(words) and not _field(sibling, words):
                return words[:300]
        sibling = sibling.getnext()
    return ""


#: Most boxes around a headline whose following blocks are searched for its teaser.
_TEASER_LEVELS = 3
#: Most characters of a box around a headline: the card's head (its name, a star button),
#: not the card or a column of them.
_HEAD_BOX_CHARS = 200


def _paragraph_after_box(headline: etree._Element) -> str:
    """The first paragraph that says something in the three blocks after the box around
    ``headline``, or after a box around that (up to :data:`_TEASER_LEVELS` levels, each box at
    most :data:`_HEAD_BOX_CHARS` characters): GitHub's topic cards put a repository's name in
    an ``<h3>`` that ends its box, and the description comes after the star button and a row
    of tabs, under the card's head. Never past a box holding another heading, and never from
    around a box that is one of a run of items alike (the next card's teaser is not this
    one's)."""
    node = headline
    for _ in range(_TEASER_LEVELS):
        node = node.getparent()
        if node is None or node.tag in ("body", "html") \
                or len(" ".join(node.text_content().split())) > _HEAD_BOX_CHARS \
                or repeated_item(node):
            return ""
        for sibling in list(node.itersiblings(etree.Element))[:3]:
            if next(sibling.iter("h1", "h2", "h3", "h4", "h5", "h6"), None) is not None:
                return ""
            for paragraph in sibling.iter("p"):
                if unseen_by_eye(paragraph):
                    continue
                words = _seen_words(paragraph)
                if _says(words) and not _field(paragraph, words):
                    return words[:300]
    return ""


def _seen_words(block: etree._Element) -> str:
    """``block``'s text as its ``text_content`` runs it, without what no sighted reader sees:
    a shop's stars read "Product Casual Midi Dress Rating: 4.6579 of 5 stars" to screen
    readers alone."""
    if not any(unseen_by_eye(node) for node in block.iterdescendants()):
        return " ".join(block.text_content().split())
    return " ".join("".join(text_pieces(block, unseen_by_eye)).split())


def _field(block: etree._Element, words: str) -> bool:
    """Whether ``block`` is a field's label in an element of its own and its short value (B&H's
    "<h4>Shipping Restriction:</h4><button>No shipping to BULGARIA</button>", read as one run;
    at most ten words, not a sentence): a fact about the product, not a teaser. A label
    opening a sentence ("<b>Update:</b> The port reopened on Monday…") stays."""
    label = block[0] if len(block) and not (block.text or "").strip() else None
    if label is None or not isinstance(label.tag, str):
        return False
    named = " ".join(label.text_content().split())
    return named.endswith((":", "：")) and len(named.split()) <= 4 \
        and len(words.split()) <= 10 and not _SENTENCE_END.search(words)


#: A sentence's end, after its closing quote or bracket.
_SENTENCE_END = re.compile(r"[.!?…][\"'’”)]?$")
#: Words of a card's price block, beside its amounts ("Sale price: $24.50 Original price:
#: $35.00", "$127.95 - $159.95Was $159.95VIP").
_PRICE_WORDS = re.compile(
    r"(?<![^\W\d_])(?:sale|original|regular|current|list|vip|member|was|now|from|price|"
    r"prices|is|save|off|compare|at|you|to)(?![^\W\d_])", re.I)
#: A word joined to the next without a space ("AmberlightBluestoneButterrum", "Duration6
#: MinExercises5"): labels (colour swatches, facts) drawn apart, read as one run.
#: (after two small letters: "iPhone", "McDonald" are one word each)
_GLUED = re.compile(r"(?<=[a-z]{2})(?=[A-Z\d])|(?<=\d)(?=[A-Z][a-z])")


def _says(words: str) -> bool:
    """Whether a block's text is a teaser: over 40 characters, or a sentence of four words or
    more ("Tall and narrow, for a single branch."); not a card's prices and their labels
    (the reader shows the price beside the name), nor labels run together."""
    if len(words) <= 40 and not (len(words.split()) >= 4 and _SENTENCE_END.search(words)):
        return False
    glued = len(_GLUED.findall(words))
    if glued >= 3 and 2 * glued >= len(words.split()):
        return False
    if PRICE.search(words):
        rest = _PRICE_WORDS.sub(" ", PRICE.sub(" ", words))
        if len(re.findall(r"[^\W\d_]{2,}", rest)) < 5:
            return False
    return True

"""The price a shop's card shows beside its product's name, for the reader's index view.

A shop's category page read as an index (the reader lists its headlines) named its products
but not their prices, which is what a shopper reads the list for. Each story of an index is a
headline link (``actions.index_items``); its *card* is the largest element around that
link holding no other story's link. The card's price is its one amount:

* schema.org microdata inside the card (``itemprop="price"``, with ``priceCurrency``), else
* its visible text's one amount with a currency sign or code ("$34.00", "£1,299", "34,00 €",
  "USD 12.50"), leaving out a crossed-out or "was"/"compare at"/"regular" price (a sale shows
  both: the price paid is the other one).

A card with no amount, or with two different ones left (a range "$7.95 - $179.95", "from $x",
a price per month beside the price), gets none: a wrong price is worse than no price.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from lxml import etree

from . import json_ld

#: A currency sign or ISO code, then an amount; or an amount, then a sign or code written
#: after it ("34,00 €"; not one that opens the next price: "Size 1 €20").
_SIGN = (r"(?:US\$|C\$|CA\$|A\$|AU\$|NZ\$|HK\$|R\$|[$€£¥₹₩₽₺₪]"
         r"|(?<![A-Z])(?:USD|EUR|GBP|CAD|AUD|CHF|JPY|INR)(?![A-Z]))")
_AMOUNT = r"\d{1,3}(?:[,.\u00a0\u202f ]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
_PRICE = re.compile(rf"{_SIGN}\s?(?:{_AMOUNT})(?![.,]?\d)"
                    rf"|(?<![\d.,])(?:{_AMOUNT})\s?(?:[€₽₺₪]|\b(?:EUR|USD|CHF|kr|zł|Kč)\b)(?!\s?\d)")
#: (public for the index's teasers: a card's block of prices is no teaser; actions.index_items)
PRICE = _PRICE
#: Words after an amount that make it no price of the product ("$9.72 delivery", "$20 off").
_NOT_PAID_AFTER = re.compile(r"\s*(?:delivery|shipping|off|savings?)\b", re.I)
#: A magnitude after an amount: a sum of money ("$38B", "$47 Million"), not a price.
#: (a letter only glued to it: a size "M" may follow a price after a space)
_MAGNITUDE = re.compile(r"[kKmMbB]n?\b|\s?(?i:thousand|million|billion|trillion|bn|mn)\b")
#: Words that make the price a range or a starting point, not the product's one price.
_RANGE = re.compile(r"\b(?:from|starting at|starts at|as low as|up to)\s*$|[-–—]\s*$", re.I)
#: Class words of a price that is not the one paid: crossed out, the earlier one, a member's
#: or a unit price (words of a class, split at "-" and "_": "price--was", "compare-at-price";
#: not "original" or "regular", which some shops name the price paid with).
_NOT_PAID_CLASSES = frozenset({"compare", "strike", "strikethrough", "crossed", "was", "old",
                               "msrp", "rrp", "previous", "before", "savings", "save", "unit",
                               "vip", "member", "members"})
#: Words before an amount that make it another price than the one paid.
#: (after a letter's end, not a word's: a shop draws "$123.95Was $154.95" glued)
_NOT_PAID_WORDS = re.compile(
    r"(?<![^\W\d_])(?:was|original(?: price)?|regular(?: price)?|reg\.?|compare(?: at)?|"
    r"list(?: price)?|msrp|rrp|(?:vip|member|members)(?:'s)? price|you save|save)"
    r"\s*:?\s*$", re.I)
_NOT_PAID_TAGS = frozenset({"s", "del", "strike"})
_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "select", "option", "button"})
_HIDDEN_CLASS = re.compile(r"(?<![\w-])(?:sr-only|screen-reader-(?:text|only)|visually-?hidden|"
                           r"visuallyhidden|hidden|is-hidden|u-hidden|a11y-hidden)(?![\w-])", re.I)
#: Above this many characters a "card" is a section of the page, not one product's box.
_CARD_CHARS = 1500


def card_of(anchor: etree._Element, others: set[etree._Element],
            stop: etree._Element | None = None) -> etree._Element:
    """The largest element around ``anchor`` holding none of ``others`` (the other stories'
    links), below ``stop`` (the page's body). A link that is a control (``role="button"``:
    a colour swatch that shows the same dress in brown, which the shop also lists as a story
    of its own) bounds no card."""
    card = anchor
    for ancestor in anchor.iterancestors():
        if ancestor is stop or ancestor.tag in ("body", "html", "main"):
            break
        if any(a in others and a.get("role") != "button" for a in ancestor.iter("a")):
            break
        card = ancestor
    return card


def _not_shown_or_paid(node: etree._Element) -> bool:
    """Whether ``node`` (itself, not counting its ancestors) holds no price shown and paid:
    script, hidden, crossed out, an earlier, a member's or a unit price."""
    if not isinstance(node.tag, str):
        return True
    if node.tag in _SKIP_TAGS or node.tag in _NOT_PAID_TAGS:
        return True
    if node.get("hidden") is not None:  # (aria-hidden is shown: a price drawn in parts)
        return True
    style = node.get("style")
    if style and re.search(r"display\s*:\s*none|visibility\s*:\s*hidden", style, re.I):
        return True
    classes = node.get("class")
    return bool(classes) and (_HIDDEN_CLASS.search(classes) is not None
                              or not _NOT_PAID_CLASSES.isdisjoint(
                                  re.split(r"[\s_-]+", classes.lower())))


def _excluded(element: etree._Element, card: etree._Element) -> bool:
    """Whether ``element`` or a box around it inside ``card`` holds no price shown and paid."""
    for node in (element, *element.iterancestors()):
        if _not_shown_or_paid(node):
            return True
        if node is card:
            return False
    return False


_BLOCKS = frozenset({"address", "article", "aside", "blockquote", "br", "dd", "div", "dl",
                     "dt", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
                     "header", "hr", "li", "main", "nav", "ol", "p", "section", "table", "td",
                     "th", "tr", "ul"})


def shown_text(card: etree._Element, leave_out: frozenset[etree._Element] = frozenset()
               ) -> str:
    """The card's text as shown: inline pieces joined as the browser draws them (a price
    split into "$", "99" and ".99" spans reads "$99.99"), blocks apart, and nothing of what
    :func:`_excluded` leaves out (a crossed-out price, a hidden one, a script's data), nor
    of the elements ``leave_out``."""
    parts: list[str] = []

    def walk(node: etree._Element) -> None:
        if node in leave_out or _not_shown_or_paid(node):  # (its boxes were looked at)
            parts.append(" ")
            return
        block = node.tag in _BLOCKS
        if block:
            parts.append(" ")
        elif node.tag == "sup" and re.fullmatch(r"\d\d", (node.text or "").strip()):
            parts.append(".")  # cents set high: "$619<sup>00</sup>" is $619.00
        if node.text:
            parts.append(node.text)
        for child in node:
            walk(child)
            if child.tail:
                parts.append(child.tail)
        if block:
            parts.append(" ")

    walk(card)
    return " ".join("".join(parts).split())


def _headlines(card: etree._Element) -> list[etree._Element]:
    """The headings in ``card`` that say more than an amount (two words or more besides
    it): a story's headline, whose amounts are no price; "Price: $34" in an ``<h4>`` is
    one."""
    return [heading for heading in card.iter("h1", "h2", "h3", "h4", "h5", "h6")
            if len(re.findall(r"[^\W\d_]{2,}", _PRICE.sub(" ", heading.text_content()))) >= 2]


def _key(price: str) -> str:
    """The amount of a price text without its sign and spacing, to tell two apart."""
    return re.sub(r"[^\d]", "", price)


def _microdata_price(card: etree._Element) -> str:
    for element in card.iter():
        if not isinstance(element.tag, str) or element.get("itemprop") != "price":
            continue
        if _excluded(element, card):
            continue
        shown = " ".join(element.text_content().split())
        if _PRICE.fullmatch(shown):
            return shown
    return ""


def card_price(card: etree._Element) -> str:
    """The one price ``card`` shows, as written ("$34.00"), or "" (none, or several).

    An amount after "Was", "Regular price", "Compare at", "VIP price"... is another price
    than the one paid; the card's price is then its one other amount ("$123.95 Was $154.95
    VIP Price $111.55" is $123.95), or that amount when it is the card's only one
    ("Regular Price: $36")."""
    if len(shown_text(card)) > _CARD_CHARS:
        return ""  # a section of the page around one story, not its card
    micro = _microdata_price(card)
    if micro:
        return micro
    # a headline's amount is what the story is about, not a price ("Sling TV Has Launched a
    # New $5 Streaming Option", "Service Properties Trust Sells Five Hotels for $47 Million")
    text = shown_text(card, frozenset(_headlines(card)))
    paid: list[str] = []
    other: list[str] = []
    last: tuple[str, int, list[str]] = ("", -9, paid)
    for match in _PRICE.finditer(text):
        # the same amount again at once is a copy of it (a screen reader's wording drawn
        # beside it: "List: EUR 28.39EUR28.39"), of the same kind
        if _key(match.group(0)) == last[0] and match.start() - last[1] <= 2:
            last[2].append(match.group(0))
            continue
        before = text[max(0, match.start() - 24):match.start()]
        if _NOT_PAID_WORDS.search(before):
            other.append(match.group(0))
            last = (_key(match.group(0)), match.end(), other)
            continue
        if _RANGE.search(before):
            return ""  # "from $19", "$7.95 - $179.95": no one price
        after = text[match.end():match.end() + 12]
        if _MAGNITUDE.match(after):
            continue  # a sum, not a price: "$38B", "$30M from a16z", "$1.2 billion", "C$90k"
        if _NOT_PAID_AFTER.match(after):
            other.append(match.group(0))
            last = (_key(match.group(0)), match.end(), other)
            continue
        if re.match(r"\s*(?:[-–—]\s*\S|/\s*(?:mo|month|yr|year|week|wk|day)\b|a month\b)",
                    after, re.I):
            return ""  # a range, or a price per month beside the price
        paid.append(match.group(0))
        last = (_key(match.group(0)), match.end(), paid)
    found = paid or other
    return found[0] if len({_key(price) for price in found}) == 1 else ""


def _anchors_by_href(root: etree._Element, hrefs: Sequence[str]
                     ) -> dict[str, list[etree._Element]]:
    """The ``<a>`` elements of each of ``hrefs`` (as written), in document order."""
    anchors: dict[str, list[etree._Element]] = {}
    wanted = set(hrefs)
    for anchor in root.iter("a"):
        href = anchor.get("href")
        if href in wanted:
            anchors.setdefault(href, []).append(anchor)
    return anchors


def _story_link(anchors: list[etree._Element]) -> etree._Element:
    """The first of a story's links that is no control (:func:`card_of`): the brown dress's
    swatch in the green dress's card comes before the brown dress's own card."""
    return next((a for a in anchors if a.get("role") != "button"), anchors[0])


def _cards(root: etree._Element, hrefs: Sequence[str]) -> list[etree._Element]:
    """The card of each story found (its link's ``href`` as written; :func:`card_of` around
    its first link that is no control, :func:`_story_link`)."""
    anchors = _anchors_by_href(root, hrefs)
    everyone = {a for found in anchors.values() for a in found}
    return [card_of(_story_link(found), everyone - set(found)) for found in anchors.values()]


def index_prices(root: etree._Element, hrefs: Sequence[str]) -> list[str]:
    """For each story link of an index page (its ``href`` as written), the price its card
    shows, "" where none (or where the link is not found once, or its card is a story's
    neighbour's too)."""
    anchors = _anchors_by_href(root, hrefs)
    prices: list[str] = []
    for href in hrefs:
        mine = anchors.get(href, [])
        if not mine:
            prices.append("")
            continue
        others = {a for other, found in anchors.items() if other != href for a in found}
        # the card around the story's first link (a card links its picture and its name
        # to the product: both are inside it)
        prices.append(card_price(card_of(_story_link(mine), others)))
    return prices


#: schema.org types of a product on sale (JSON-LD ``@type``, microdata ``itemtype``, RDFa
#: ``typeof``).
_PRODUCT_TYPES = re.compile(r"(?:https?://schema\.org/)?(?:Product|ProductGroup|"
                            r"IndividualProduct|ProductModel)")
#: A control's words that put a product in the cart.
_CART_WORDS = re.compile(r"^(?:\+\s*)?(?:add to (?:cart|bag|basket|trolley)|buy now|buy it now)"
                         r"$", re.I)
#: An address that puts a product in the cart (a form's action, a link's href).
_CART_URL = re.compile(r"[?&]add[-_]?to[-_]?cart=|/add[-_]?to[-_]?cart\b|\baddtocart\b"
                       r"|cart(?:\.php)?\?action=add\b|/cart/add\b", re.I)
#: The page types a segmenter predicts for a shop's pages, and how sure it must be.
_SHOP_PAGE_TYPES = ("product",)
_SHOP_PAGE_TYPE_MIN_P = 0.7
#: The share of an index's stories that must be products in the page's schema.org data.
_SCHEMA_SHARE = 1 / 3


def _path(url: str) -> str:
    try:
        return urlsplit(url.strip()).path.rstrip("/").lower()
    except ValueError:
        return ""


def _is_product(node: dict) -> bool:
    """Whether a JSON-LD object is typed as a product (:data:`_PRODUCT_TYPES`)."""
    kind = node.get("@type")
    return any(isinstance(k, str) and _PRODUCT_TYPES.fullmatch(k)
               for k in (kind if isinstance(kind, list) else [kind]))


def _schema_products(root: etree._Element, hrefs: Sequence[str]) -> int:
    """How many of the stories (their links ``hrefs``) the page's schema.org data calls
    products: a JSON-LD product whose ``url`` (or ``@id``, or its offer's ``url``) is the
    story's page, or a microdata or RDFa product holding the story's link."""
    paths: set[str] = set()
    for data in json_ld.documents(root, holding=_PRODUCT_TYPES):
        for product in filter(_is_product, json_ld.objects(data)):
            offers = product.get("offers")
            for url in (product.get("url"), product.get("@id"),
                        offers.get("url") if isinstance(offers, dict) else None):
                if isinstance(url, str) and _path(url):
                    paths.add(_path(url))
    wanted = set(hrefs)
    held: set[str] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        kind = element.get("itemtype") or element.get("typeof")
        if kind and any(_PRODUCT_TYPES.fullmatch(word) for word in kind.split()):
            held.update(a.get("href") for a in element.iter("a") if a.get("href") in wanted)
    return sum(1 for href in hrefs if href in held or (_path(href) and _path(href) in paths))


def sale_cues(root: etree._Element, hrefs: Sequence[str] = (),
              page_types: dict[str, float] | None = None) -> list[str]:
    """What on an index page (its stories' links: ``hrefs``) says that it sells, its stories
    being products (none: they may still be, but the page says nothing of it):

    * ``schema``: schema.org calls a third of the stories or more products (JSON-LD, microdata,
      RDFa; a freelancer site marking up its people as products beside a list of its blog's
      posts does not);
    * ``cart``: a story's card holds a control putting a product in the cart ("Add to cart",
      "Add to bag", "Buy now" buttons; a form or link to an add-to-cart address);
    * ``type``: the page type predicted (``page_types``: type -> probability, auto's
      ``page_type.*`` stats) is a product page's, with a probability of at least 0.7.

    Page-level cues, none naming a shop: a category page whose cards show no price and link
    to no ``/products/`` path ("/car714.html") is a shop's by these."""
    cues: list[str] = []
    if hrefs and _schema_products(root, hrefs) >= len(hrefs) * _SCHEMA_SHARE:
        cues.append("schema")
    cards = set(_cards(root, hrefs))
    for element in root.iter("button", "input", "a", "form"):
        if not any(node in cards for node in (element, *element.iterancestors())):
            continue  # the header's cart, a shop's blog's "Buy now" box: not the stories'
        if element.tag == "form":
            found = bool(_CART_URL.search(element.get("action") or ""))
        elif element.tag == "a" and _CART_URL.search(element.get("href") or ""):
            found = True
        else:
            words = element.get("value") if element.tag == "input" else element.text_content()
            found = bool(words) and bool(_CART_WORDS.match(" ".join(words.split())))
        if found:
            cues.append("cart")
            break
    if page_types and max((page_types.get(name, 0.0) for name in _SHOP_PAGE_TYPES),
                          default=0.0) >= _SHOP_PAGE_TYPE_MIN_P:
        cues.append("type")
    return cues

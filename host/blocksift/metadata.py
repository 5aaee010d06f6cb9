"""A page's metadata for the reader: title, author(s), publication date, site, language, length.

Algorithms choose the main text; this module says who wrote it, when, and where, from the page
the algorithm read. It runs after any algorithm (the host's worker, ``extract`` and ``batch``
call :func:`attach`), so it depends on the parsed :class:`~blocksift.page.Page` and the
:class:`~blocksift.wire.results.MainText` only, never on an algorithm's internals.

Sources, most trusted first, as a reader would look: the visible byline and ``<time>`` near
the headline, then schema.org data (JSON-LD, microdata), then Open Graph / ``<meta>`` tags.
Structured data is read first where it names the article's author explicitly, because a
visible "author" class is also used for comment authors and bio boxes; a visible byline is
used when structured data is silent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import date, datetime
from urllib.parse import urljoin, urlsplit

from lxml import etree

from . import json_ld, titles
from .content import (
    common_ancestor,
    declared,
    element_text,
    element_text_start,
    element_text_within,
    language_direction,
    rendered_text,
    text_direction,
)
from .htmltokenizer import unescape
from .page import Page
from .wire.results import ExtractionResult, MainText, PageMetadata, Picture, Price

#: Reading speed used for ``reading_minutes`` (the extension's readingTime uses the same).
WORDS_PER_MINUTE = 230
CJK_PER_MINUTE = 500

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_WORD = re.compile(r"[^\W_]+")
_WS = re.compile(r"\s+")

#: Article-like schema.org types whose author and dates describe the page's main text.
_ARTICLE_TYPES = {
    "article", "newsarticle", "blogposting", "reportagenewsarticle", "techarticle",
    "scholarlyarticle", "analysisnewsarticle", "opinionnewsarticle", "reviewnewsarticle",
    "backgroundnewsarticle", "socialmediaposting", "liveblogposting", "webpage", "review",
    "howto", "recipe", "posting", "discussionforumposting", "medicalwebpage", "aboutpage",
    "itempage", "creativework", "podcastepisode", "videoobject", "qapage", "faqpage",
}
#: Elements whose bylines are not the article's (comments, related posts, page furniture).
#: Links to the previous and next posts (with their dates and bylines): WordPress's
#: "nav-previous", "post-navigation", a "previous-next" line.
_POST_NAVIGATION = r"nav-(?:previous|next|links)|post-navigation|prev(?:ious)?-?next"
_FURNITURE = re.compile(r"comment|related|sidebar|footer|widget|recommend|popular|"
                        r"newsletter|promo|teaser|trending|reply|testimonial|"
                        + _POST_NAVIGATION, re.I)
#: A class naming a layout that has a sidebar or none beside the content ("p-body-main
#: --withSidebar", "has-sidebar", "no-sidebar"), or a box wrapping the content and the
#: sidebar beside it (Genesis themes' "content-sidebar-wrap"): the box holds the page's text,
#: not a sidebar.
_SIDEBAR_LAYOUT = re.compile(r"[\w-]*(?:with|has|no)[-_]?sidebar[\w-]*"
                             r"|(?<![\w-])content[-_]sidebar[-_]wrap(?![\w-])",
                             re.I)
_DATE_CLASS = re.compile(r"[dD]ate|time|posted|publish|byline|meta|updated")
_DATE_ID = re.compile(r"date|publish")
_DATE_FURNITURE = re.compile(r"comment|related|recommend|footer|reply|trending|popular|"
                             + _POST_NAVIGATION, re.I)
#: ("authoring", "authority", "authorize" name no author: a docs section's anchor
#: "authoring-applications" is none)
_AUTHOR_WORD = r"author(?!i(?:ng|t|z|s))"
_BYLINE_CLASS = re.compile(rf"byline|{_AUTHOR_WORD}|writer|contributor|posted-?by|"
                           r"article-?meta", re.I)
#: A class that says the part holds no byline (``no-byline``, ``hide-author``): a theme marks
#: the meta line of a page without an author so, and its breadcrumb ("Home » Technology
#: Solutions") read as three authors.
_NO_BYLINE_CLASS = re.compile(r"(?:^|[\s_-])(?:no|hide|hidden|without)[-_]?(?:byline|author)",
                              re.I)
_BY_PREFIX = re.compile(r"^\s*(?:(?:written\s+|posted\s+|reviewed\s+|story\s+)?(?:by|von|par|"
                        r"por|door|di|av)|authors?|written)\s*[:\-]?(?:\s+|$)", re.I)
_NAME_SPLIT = re.compile(r"\s*(?:,|;|\band\b|&|\||\bund\b|\bet\b|\by\b)\s*", re.I)
#: Words that end a byline: what follows is a date, a role or a call to action.
_BYLINE_END = re.compile(
    r"\s+(?:on|updated|published|posted|last|for|at|in|·|•|—|\|)\s+.*$|\s*[|·•]\s*.*$"
    r"|\s+\d{1,2}\s+\w+\s+\d{4}.*$|\s+\w+\s+\d{1,2},\s+\d{4}.*$", re.I)
_NOT_A_NAME = re.compile(r"https?://|@|\d{3,}|\b(?:subscribe|share|follow)\b|^(?:admin|administrator|staff|editor|editorial|"
                         r"team|guest|anonymous|unknown|author)$"
                         # a weekday before a date ("Sat, 20 Dec, 2025" in a byline box)
                         r"|^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\.?$"
                         # a web address, the site's own ("By CBSNews.com", <meta name=author
                         # content="CBSNews.com">): the publisher, not a person
                         r"|^[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|edu|gov|info|biz|io|co|tv|me|"
                         r"us|uk|ca|au|de|fr|in)(?:\s|$)", re.I)
#: A forum's user name such as "user3080392": the digits that rule out a date or a phone
#: number in a byline are part of the name here.
_HANDLE = re.compile(r"^[^\W\d_]+\d{3,}$")
#: A degree or credential after a name ("Jillian Kubala, MS, RD", "Ann Lee, Ph.D.", "Jr."):
#: part of that name, not an author of its own.
_POST_NOMINAL = re.compile(r"[A-Z]{2,6}[®™]?|(?:[A-Z][a-z]?\.){2,4}|[JS]r\.?"
                           r"|(?=(?:[a-z]*[A-Z]){2})[A-Z][A-Za-z]{1,5}")  # PhD, MSc, CFP®
#: A job title after a name ("Mark Kinver, Environment reporter, BBC News"): not an author.
_ROLE = re.compile(r"\b(?:reporter|correspondent|editor|writer|columnist|contributor|"
                   r"journalist|producer|presenter|photographer|analyst|critic|intern|"
                   r"freelancer?)s?\b", re.I)
#: An organisation after a name ("..., BBC News", "..., Example Media Inc."): the publisher,
#: not another author; kept when it is the only name in the byline ("By Reuters Staff").
_ORGANISATION = re.compile(r"\b(?:news|press|media|magazine|newspaper|newsroom|agency|"
                           r"times|journal|herald|tribune|gazette|inc|ltd|llc|gmbh|corp)\b",
                           re.I)
#: Inside a byline, the elements that give the author's job, organisation, bio or the date,
#: or a way to write to them, not a name (``<span class="byline-title">``,
#: ``<a class="byline-email">E-mail the writer</a>``).
_BYLINE_ROLE = re.compile(r"jobtitle|(?<![a-z])(?:title|role|job|bio|description|"
                          r"affiliation|organi[sz]ation)(?![a-z])|"
                          # a job's "position", not Bootstrap's "position-relative"
                          r"(?<![a-z])position(?![\w-])", re.I)
_BYLINE_NOT_NAME = re.compile(f"{_BYLINE_ROLE.pattern}|(?<![a-z])(?:date|time|timestamp|"
                              r"badge|icon|industry|avatar|ranking|e-?mail|contact)(?![a-z])",
                              re.I)

#: Headings of page furniture that an algorithm may take for the title.
_NOT_A_TITLE = re.compile(r"^(?:table of contents|on this page|in this article|contents)\b|"
                          r"\b(?:cookies?|privacy)\b|[{};]", re.I)

_MONTHS = {name: index for index, names in enumerate([
    ("jan", "january", "janvier", "januar", "enero"), ("feb", "february", "février", "februar"),
    ("mar", "march", "mars", "märz"), ("apr", "april", "avril"), ("may", "mai", "mayo"),
    ("jun", "june", "juin", "juni"), ("jul", "july", "juillet", "juli"),
    ("aug", "august", "août"), ("sep", "sept", "september", "septembre"),
    ("oct", "october", "octobre", "oktober"), ("nov", "november", "novembre"),
    ("dec", "december", "décembre", "dezember"),
], start=1) for name in names}
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_SLASH_DATE = re.compile(r"\b(\d{4})/(\d{1,2})/(\d{1,2})\b")
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b")
_TEXT_DATE_MDY = re.compile(r"\b([A-Za-zéû]{3,10})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_TEXT_DATE_YMD = re.compile(r"\b(\d{4})\s+([A-Za-zéû]{3,10})\.?\s+(\d{1,2})\b")
_TEXT_DATE_DMY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?([A-Za-zéû]{3,10})\.?,?"
                            r"\s+(\d{4})\b")
_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-](\d{1,2})[/-](\d{1,2})(?:/|-|$)")

_PUBLISHED_META = (
    "article:published_time", "published", "og:article:published_time", "datepublished",
    "date", "dc.date", "dc.date.issued", "dcterms.date", "dcterms.created", "dc.date.created",
    "pubdate", "publishdate", "publish-date", "publish_date", "sailthru.date", "parsely-pub-date",
    "article.published", "published_time", "citation_publication_date", "citation_date",
    "original-publish-date", "date.release", "created",
)
_MODIFIED_META = ("article:modified_time", "og:updated_time", "datemodified", "last-modified",
                  "dcterms.modified", "dc.date.modified")
_AUTHOR_META = ("author", "article:author", "dc.creator", "dcterms.creator", "parsely-author",
                "sailthru.author", "citation_author", "byl", "cxenseparse:author")


def attach(page: Page, result: ExtractionResult) -> ExtractionResult:
    """Fill ``result.main.metadata`` from ``page`` (no-op without main text); never raises."""
    if result.main is None:
        return result
    try:
        result.main.metadata = extract(page, result.main, page_type=confident_page_type(result))
    except Exception:  # metadata is a bonus: a strange page must not cost the main text
        result.main.metadata = PageMetadata()
    return result


#: Page types that are not publications: their bylines are not the page's author (a shop's
#: reviewers, a listing's first story, a testimonial, a site's name in <meta name=author>),
#: their dates not its day (a review's, the first card's, a copyright year). On wcxb-dev's
#: 486 pages of these types (as the segmenter predicts them) the gold names an author 10
#: times; bylines found there were right 7 times and wrong 45 times (44 where the gold
#: names no one); dates found there were right 4 times and given where the gold has none
#: 124 times (with page types out of fold: 5 and 41).
NOT_PUBLICATION_PAGE_TYPES = frozenset({"product", "collection", "listing", "service"})
#: How sure the segmenter must be of its page type for it to count here: hide's
#: ``careful_min_p``, for the same reason (a plain article with little markup can lean to
#: "service" at 0.3-0.5).
PAGE_TYPE_MIN_P = 0.7


def confident_page_type(result: ExtractionResult) -> str:
    """The segmenter's page type of ``result`` when its probability is at least
    :data:`PAGE_TYPE_MIN_P`, else "" (and for algorithms that predict none)."""
    page_type = str(result.extra.get("page_type") or "")
    return page_type if result.stats.get(f"page_type.{page_type}", 0.0) >= PAGE_TYPE_MIN_P \
        else ""


def extract(page: Page, main: MainText | None = None, page_type: str = "") -> PageMetadata:
    """The metadata of ``page``; ``main`` (the chosen text) gives title and reading time;
    ``page_type`` (the segmenter's, if any) in :data:`NOT_PUBLICATION_PAGE_TYPES`: no
    authors and no date."""
    tree = page.tree
    metas = _meta_tags(tree)
    ld_nodes = list(_json_ld_nodes(tree))
    article = _article_node(ld_nodes)
    # Order measured on wcxb-dev (benchmarks/bench_metadata.py): a byline named in structured
    # data is the article's; visible "author" classes also mark bios and comment authors.
    # The date is the one shown by the headline (often "Updated ..."), then tags.
    page_title = tree.find(".//title")
    page_title_text = page_title.text_content() if page_title is not None else ""
    layout = _Layout(tree, main.title if main and main.title else page_title_text)
    publication = page_type not in NOT_PUBLICATION_PAGE_TYPES
    authors = [] if not publication else (
        _json_ld_authors(article) or _microdata_authors(tree) or _meta_authors(metas)
        or _visible_authors(tree, layout))
    published = None if not publication else (
        _visible_date(tree, layout, url=page.url) or _url_date(page.url) or
        _meta_date(metas, _PUBLISHED_META) or _microdata_date(tree) or
        _json_ld_date(article) or _visible_date(tree, layout, window=100_000, url=page.url) or
        _script_date(page.raw) or _meta_date(metas, _MODIFIED_META))
    words, cjk = count_words(main.text if main else "")
    around = _main_ancestor(page, main)
    language = _language(tree, metas, around)
    title = titles.best(_title_candidates(page, metas, ld_nodes, main.title if main else "")) \
        or titles.opening_line(main.html if main else "")  # a page that names itself nowhere
    return PageMetadata(
        title=title,
        authors=authors,
        published=published.isoformat() if published else "",
        site_name=_site_name(metas, ld_nodes, page.url)
        or _site_in_title(page_title_text, title, page.url) or _host_name(page.url),
        language=language,
        direction=_direction(tree if around is None else around, language,
                             main.text if main else ""),
        words=words + cjk,
        reading_minutes=max(1, round(words / WORDS_PER_MINUTE + cjk / CJK_PER_MINUTE))
        if words + cjk else 0,
        price=_product_price(ld_nodes, metas) if page_type in PRICED_PAGE_TYPES else None,
        picture=_product_picture(ld_nodes, metas, page.url)
        if page_type in PRICED_PAGE_TYPES else None,
    )


#: Page types whose price the reader shows (the segmenter's, at any probability: the price
#: must also be the one price of a schema.org Product or of product:price meta tags).
PRICED_PAGE_TYPES = frozenset({"product"})
_PRODUCT_TYPES = frozenset({"product", "productgroup", "individualproduct", "productmodel",
                            "vehicle", "car", "book", "softwareapplication"})
_AMOUNT = re.compile(r"\d+(?:\.\d+)?")
_GROUPED_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_CURRENCY = re.compile(r"[A-Z]{3}")


def _amount(value: object) -> str:
    """A price as a plain decimal ('1299.99'), '' when it is none (a range, a word, zero)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return ""
    text = (f"{value:.2f}" if isinstance(value, float) else str(value)).strip()
    if _GROUPED_AMOUNT.fullmatch(text):
        text = text.replace(",", "")
    if not _AMOUNT.fullmatch(text) or not float(text) > 0:
        return ""
    return text


def _offer_prices(offers: object, currency: str = "") -> list[tuple[str, str]]:
    """(amount, currency) of each offer of a Product's ``offers`` (an Offer, a list of them,
    an AggregateOffer whose low and high price agree)."""
    found: list[tuple[str, str]] = []
    for offer in offers if isinstance(offers, list) else [offers]:
        if not isinstance(offer, dict):
            continue
        code = str(offer.get("priceCurrency") or currency).strip().upper()
        spec = offer.get("priceSpecification")
        spec = spec[0] if isinstance(spec, list) and spec else spec
        if "aggregateoffer" in _ld_types(offer):
            low, high = _amount(offer.get("lowPrice")), _amount(offer.get("highPrice"))
            amount = low if low and (not high or float(low) == float(high)) else ""
            if not amount and "offers" in offer:
                found += _offer_prices(offer["offers"], code)
                continue
        elif "price" in offer:
            amount = _amount(offer.get("price"))
        elif isinstance(spec, dict):
            amount = _amount(spec.get("price"))
            code = str(spec.get("priceCurrency") or code).strip().upper()
        else:
            continue
        found.append((amount, code))
    return found


def _product_price(ld_nodes: list[dict], metas: dict[str, str]) -> Price | None:
    """The page's product price: the one price its schema.org Products offer (every offer
    the same amount in one currency; variants at different prices say no one price), else
    its ``product:price:amount`` / ``og:price:amount`` meta with a currency."""
    offers = [price for node in ld_nodes if _ld_types(node) & _PRODUCT_TYPES
              and "offers" in node for price in _offer_prices(node["offers"])]
    if not offers:
        for prefix in ("product:price:", "og:price:"):
            if metas.get(prefix + "amount"):
                offers = [(_amount(metas[prefix + "amount"]),
                           metas.get(prefix + "currency", "").strip().upper())]
                break
    distinct = {(float(amount) if amount else None, code) for amount, code in offers}
    if len(distinct) != 1:
        return None
    amount, code = offers[0]
    if not amount or not _CURRENCY.fullmatch(code):
        return None
    return Price(amount=amount, currency=code)


#: A word of a picture's file name that says it is the shop's, not the product's: its logo,
#: a placeholder for a product with no photo, the site's default share card, a favicon. Whole
#: words only: a bedding shop's "blanket-queen.jpg" is a product.
_NOT_A_PRODUCT_PHOTO = re.compile(
    r"(?:^|[\W_])(?:logo|placeholder|no[-_]?image|default|favicon|sprite|spacer|blank)(?:[\W_]|$)",
    re.I)


def _picture_urls(value: object, depth: int = 0) -> Iterator[str]:
    """The addresses a schema.org ``image`` gives, in order: a URL, a list of them, an
    ImageObject's ``url`` / ``contentUrl``."""
    if depth > 3:
        return
    if isinstance(value, str):
        yield value.strip()
    elif isinstance(value, list):
        for item in value:
            yield from _picture_urls(item, depth + 1)
    elif isinstance(value, dict):
        for key in ("url", "contentUrl"):
            yield from _picture_urls(value.get(key), depth + 1)


def _product_picture(ld_nodes: list[dict], metas: dict[str, str], url: str | None
                     ) -> Picture | None:
    """A product page's picture: the first image of its first schema.org Product, else its
    ``og:image`` / ``twitter:image``; made absolute, http(s) only, and none whose file name
    says it is a logo or a placeholder. Its alt is the product's name."""
    product = next((node for node in ld_nodes if _ld_types(node) & _PRODUCT_TYPES), {})
    alt = _clean(unescape(str(product.get("name") or ""))) or metas.get("og:image:alt", "")
    candidates = [*_picture_urls(product.get("image")),
                  *(metas.get(key, "") for key in ("og:image:secure_url", "og:image",
                                                   "twitter:image", "twitter:image:src"))]
    for candidate in filter(None, candidates):
        try:  # "http://[::1/x.jpg" is no address, and must not cost the page its metadata
            address = urljoin(url or "", candidate.replace("&amp;", "&").strip())
            parts = urlsplit(address)
        except ValueError:
            continue
        if parts.scheme not in ("http", "https") or not parts.netloc or len(address) > 2000:
            continue
        if _NOT_A_PRODUCT_PHOTO.search(parts.path.rsplit("/", 1)[-1]):
            continue
        return Picture(url=address, alt=alt[:300])
    return None


def count_words(text: str) -> tuple[int, int]:
    """Words (letter/digit runs) and CJK characters of ``text``, as the extension counts."""
    cjk = len(_CJK.findall(text))
    return len(_WORD.findall(_CJK.sub(" ", text))), cjk


def title_candidates(page: Page, chosen: str = "") -> list[titles.Candidate]:
    """The page's title candidates with their features (see :mod:`blocksift.titles`)."""
    tree = page.tree
    return _title_candidates(page, _meta_tags(tree), list(_json_ld_nodes(tree)), chosen)


def _title_candidates(page: Page, metas: dict[str, str], ld_nodes: list[dict],
                      chosen: str) -> list[titles.Candidate]:
    tree = page.tree
    element = tree.find(".//title")
    page_title = element.text_content() if element is not None else ""
    site_names = [metas.get(key, "").lstrip("@") for key in
                  ("og:site_name", "application-name", "twitter:site")]
    site_names += [node["name"] for node in ld_nodes
                   if _ld_types(node) & {"website", "newsmediaorganization", "organization"}
                   and isinstance(node.get("name"), str)]
    site_names += _home_link_names(tree, page.url, page_title)
    site_names += _beside_description(metas.get("description", ""), page_title)
    return titles.candidates(tree, metas, ld_nodes, page_title, chosen, site_names, page.url,
                             in_furniture=_in_furniture, text_of=rendered_text)


#: Words a link to the site's front page says that name no site ("Home", "首页").
_HOME_WORDS = frozenset({"home", "homepage", "home page", "main page", "front page", "start",
                         "index", "top", "back", "back to home", "go home", "logo", "首页",
                         "主页", "返回首页", "网站首页", "回到首页", "ホーム", "トップ", "홈"})


#: What urlsplit takes out of an address before reading it.
_URL_SPACES = frozenset("\t\r\n")


def _home_link_names(tree: etree._Element, url: str | None, page_title: str) -> list[str]:
    """The words of the links to the front page of the page's own host (``href`` "/" or the
    host's address alone), at most five words and 30 characters, not "Home", that are a part
    of ``page_title`` (the ``<title>``) cut at a separator, at its start or its end
    (:func:`titles._parts`): the site's name as its pages link to it ("搜狐财经" linking to
    business.sohu.com) and as the ``<title>``'s end says it ("劳伦斯：一个无法定义的“洛克菲勒”-搜狐
    财经"). A front page's link saying something else
    ("BLOGS", a breadcrumb's "/Fantasy" over "Fantasy football: …") names no site the title
    cuts off."""
    cleaned = titles.clean(page_title)
    ends = {titles.words(part) for _, part, _, _ in titles._parts(cleaned)} - {""}
    if not url or not ends:
        return []
    try:
        host = urlsplit(url).netloc.lower()
    except ValueError:
        return []
    names: list[str] = []
    for link in tree.iter("a"):
        href = (link.get("href") or "").strip()
        if not href or href[0] not in "/h" or href.startswith("//"):
            continue
        # not parsed: a front page's address has three slashes at most ("https://host/"), and
        # a path other than "/" is another page (urlsplit drops tabs and line breaks: "/\t/h")
        if href.count("/") > 3 or (href[0] == "/" and href != "/" and _URL_SPACES.isdisjoint(href)):
            continue
        try:
            target = urlsplit(href)
        except ValueError:
            continue
        if target.path not in ("", "/") or target.query or target.fragment \
                or (target.netloc and target.netloc.lower() != host) \
                or (not target.netloc and href != "/"):
            continue
        text = " ".join(element_text(link).split())
        if not text or len(text) > 30 or len(text.split()) > 5 \
                or text.casefold().strip(" «»<>←→.") in _HOME_WORDS or text in names:
            continue
        if titles.words(text) in ends:
            names.append(text)
    return names[:5]


def _beside_description(description: str, page_title: str) -> list[str]:
    """The rest of ``page_title`` (the ``<title>``) when the page's description is all of it
    up to a separator, or all of it after one, and the rest is shorter, at most five words,
    none of them all the description's: the site's name the headline stands beside
    (Sohu's "民间资本成投资活动的主体 民间资本路在何方-搜狐财经", described as "民间资本成投资活动的
    主体 民间资本路在何方", names "搜狐财经" nowhere else on the page)."""
    wanted = titles.words(description)
    if not wanted:
        return []
    cleaned = titles.clean(page_title)
    for kind, part, _, separator in titles._parts(cleaned):
        if titles.words(part) == wanted:
            if kind == "prefix":
                rest = cleaned[len(part) + len(separator):]
            else:
                rest = cleaned[:len(cleaned) - len(part) - len(separator)]
            named = titles.words(rest)
            # the shorter part, and no words of the headline's ("Bulova Official
            # International Site | Bulova"): a blog describing itself by its name ("Seth's
            # Blog: Entering sync markets") leaves its post's headline as the rest
            if named and len(rest.split()) <= 5 and len(rest) < len(part) \
                    and not set(named.split()) <= set(wanted.split()):
                return [rest.strip()]
    return []


def _tokens(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


# -- tags ------------------------------------------------------------------------------------

def _meta_tags(tree: etree._Element) -> dict[str, str]:
    """``<meta>`` name/property/itemprop (lower case) -> first non-empty content."""
    out: dict[str, str] = {}
    for meta in tree.iter("meta"):
        content = " ".join((meta.get("content") or "").split())
        if not content:
            continue
        for attr in ("property", "name", "itemprop", "http-equiv"):
            key = (meta.get(attr) or "").strip().lower()
            if key and key not in out:
                out[key] = content
    return out


def _clean(text: str | None) -> str:
    return _WS.sub(" ", text or "").strip()


def _text(element: etree._Element) -> str:
    from .content import element_text

    return element_text(element)


def _in_furniture(element: etree._Element, loose: bool = False) -> bool:
    """Inside comments, related-posts lists, footers, sidebars or navigation. ``loose``: only
    comments, related lists, footers and navigation (a post's date often sits in a sidebar)."""
    node = element
    depth = 0
    pattern = _DATE_FURNITURE if loose else _FURNITURE
    tags = ("footer", "nav") if loose else ("footer", "nav", "aside")
    while node is not None and depth < 12:
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in ("body", "html"):
            break  # their classes describe the page's layout ("right-sidebar"), not a part
        if tag in tags:
            return True
        marker = f"{node.get('class', '')} {node.get('id', '')}"
        if "idebar" in marker:
            marker = _SIDEBAR_LAYOUT.sub(" ", marker)
        if marker.strip() and pattern.search(marker):
            return True
        node = node.getparent()
        depth += 1
    return False


# -- JSON-LD and microdata -------------------------------------------------------------------

def _json_ld_nodes(tree: etree._Element) -> Iterator[dict]:
    # a script that does not parse, or nests deeper than the parser goes, costs only itself
    for data in json_ld.documents(tree):
        yield from _walk_ld(data, 0)


def _walk_ld(data: object, depth: int) -> Iterator[dict]:
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data:
            yield from _walk_ld(item, depth + 1)
    elif isinstance(data, dict):
        yield data
        for key in ("@graph", "mainEntity", "mainEntityOfPage", "itemListElement"):
            if key in data:
                yield from _walk_ld(data[key], depth + 1)


def _ld_types(node: dict) -> set[str]:
    kinds = node.get("@type", [])
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return {str(kind).lower() for kind in kinds}


def _article_node(nodes: list[dict]) -> dict | None:
    """The schema.org node describing the page's article; an Article beats a WebPage."""
    best = None
    best_rank = 99
    for node in nodes:
        kinds = _ld_types(node) & _ARTICLE_TYPES
        if not kinds:
            continue
        rank = 1 if kinds <= {"webpage", "creativework", "itempage", "aboutpage",
                              "medicalwebpage", "qapage", "faqpage"} else 0
        if rank < best_rank:
            best, best_rank = node, rank
    return best


def _ld_names(value: object) -> list[str]:
    if isinstance(value, str):
        return _split_names(value)
    if isinstance(value, list):
        return [name for item in value for name in _ld_names(item)]
    if isinstance(value, dict):
        if _ld_types(value) & {"organization", "newsmediaorganization"} and "name" in value:
            return []  # an organization is a publisher, not the byline a reader sees
        name = value.get("name")
        if isinstance(name, list):
            name = name[0] if name else ""
        if isinstance(name, str):
            return _split_names(name)
    return []


def _json_ld_authors(article: dict | None) -> list[str]:
    if article is None:
        return []
    return _dedupe(_ld_names(article.get("author")) or _ld_names(article.get("creator")))


def _json_ld_date(article: dict | None) -> date | None:
    if article is None:
        return None
    for key in ("datePublished", "dateCreated", "uploadDate", "dateModified"):
        value = article.get(key)
        if isinstance(value, list):
            value = value[0] if value else None
        parsed = parse_date(value) if isinstance(value, str) else None
        if parsed:
            return parsed
    return None


#: Longest text of a byline: a longer one holds more than names (an author box's bio).
BYLINE_CHARS = 120


def _microdata_authors(tree: etree._Element) -> list[str]:
    for node in tree.xpath("//*[@itemprop='author' or @itemprop='creator']"):
        if _in_furniture(node):
            continue
        named = node.xpath(".//*[@itemprop='name']")
        value = (named[0].get("content") or _text(named[0])) if named else \
            (node.get("content") or _text(node))
        if not named and not node.get("content") and len(_clean(value)) > BYLINE_CHARS:
            # an author box (name, photo and bio) marked as the author without naming its
            # name: the name is its author link or vCard name, the rest is no byline
            inner = node.xpath(".//*[@rel='author' or contains(concat(' ', normalize-space("
                               "@class), ' '), ' fn ')]")
            value = _text(inner[0]) if inner else ""
        names = _split_names(value)
        if names:
            return names
    return []


def _microdata_date(tree: etree._Element) -> date | None:
    for node in tree.xpath("//*[@itemprop='datePublished' or @itemprop='dateCreated']"):
        parsed = parse_date(node.get("datetime") or node.get("content") or _text(node))
        if parsed:
            return parsed
    return None


# -- visible byline and <time> ---------------------------------------------------------------

class _Layout:
    """Document order and the headline of one tree, computed once per page.

    The headline is the longest ``<h1>`` outside furniture that the page's title holds
    (``title``: the title chosen for the page), else the first one: a site's logo is often
    the page's first ``<h1>``, and the bylines near it are its menus'.
    """

    def __init__(self, tree: etree._Element, title: str = ""):
        self.elements = list(tree.iter(etree.Element))  # elements alone: no comments
        self.order = {element: index for index, element in enumerate(self.elements)}
        headings = [(node, _tokens(_text(node))) for node in tree.iter("h1")
                    if _text(node) and not _in_furniture(node)]
        wanted = _tokens(title)
        named = [(len(words), -n, node) for n, (node, words) in enumerate(headings)
                 if words and wanted and f" {words} " in f" {wanted} "]
        self.headline = max(named, key=lambda item: item[:2])[2] if named else (
            headings[0][0] if headings else None)
        self.anchor = self.order.get(self.headline, 0) if self.headline is not None else None

    def near_headline(self, candidates: list[etree._Element],
                      window: int = 400) -> list[etree._Element]:
        """``candidates`` by distance (in elements) from the headline, far ones dropped."""
        if self.anchor is None:
            return candidates
        anchor, order = self.anchor, self.order
        ranked = sorted(((abs(order.get(node, 0) - anchor), order.get(node, 0), node)
                         for node in candidates if abs(order.get(node, 0) - anchor) <= window),
                        key=lambda item: item[:2])
        return [node for _, _, node in ranked]

    def around_headline(self, window: int) -> list[etree._Element]:
        """The elements within ``window`` of the headline (the start of the page without)."""
        if self.anchor is None:
            return self.elements[:window * 4]
        return self.elements[max(0, self.anchor - window):self.anchor + window + 1]


def _visible_authors(tree: etree._Element, layout: _Layout) -> list[str]:
    candidates = [node for node in tree.xpath(
        "//body//*[@rel='author' or contains(@class,'byline') or contains(@class,'author')"
        " or contains(@class,'Byline') or contains(@class,'Author') or @itemprop='author'"
        " or contains(@id,'byline') or contains(@id,'author')]")
        if isinstance(node.tag, str) and node.tag not in _NO_BYLINE_TAGS
        and _BYLINE_CLASS.search(f"{node.get('class', '')} {node.get('id', '')} "
                                 f"{node.get('rel', '')} {node.get('itemprop', '')}")
        and not _NO_BYLINE_CLASS.search(node.get("class") or "")
        and not _in_furniture(node)]
    for node in layout.near_headline(candidates):
        text = _byline_text(node)
        if not text or len(text) > BYLINE_CHARS:
            continue
        # an element inside it classed as the author's name ("card-author-name" beside
        # "card-author-rol": "Head Winemaker, Co-Founder") holds the name alone
        named = [child for child in node.iter() if child is not node
                 and isinstance(child.tag, str) and _text(child)
                 and _AUTHOR_NAME_CLASS.search(child.get("class") or "")]
        # the innermost ones ("card-author-name-wrapper" holds the name and the role)
        named = [child for child in named
                 if not any(other is not child and child in other.iterancestors()
                            for other in named)]
        if named and len(named) <= 4 and all(_plausible_name(_text(n)) for n in named):
            names = _dedupe(name for n in named for name in _split_names(_text(n)))
            if names:
                return names
        # a byline container: prefer the author link inside it, the one marked as the
        # author's where it holds others ("via scvalex 1 year ago | caches | 12 comments")
        links = [a for a in node.iter("a") if _text(a)]
        marked = [a for a in links if a is not node and _marked_author(a)]
        links = marked or links
        if links and len(links) <= 4 and all(_plausible_name(_text(a)) for a in links):
            names = _dedupe(name for a in links if not _not_a_name_part(a, node)
                            for name in _split_names(_text(a)))
        else:
            names = _split_names(text)
        if names:
            return names
    return _by_line_authors(layout)


#: Elements no byline is: besides the page's frame, a term a reference page defines (git's
#: "--reset-author" option, anchored "...---reset-author") and code.
_NO_BYLINE_TAGS = frozenset({"img", "meta", "link", "script", "style", "body", "html",
                             "article", "main", "section", "dt", "code", "pre", "kbd", "samp",
                             "var"})


def _marked_author(element: etree._Element) -> bool:
    """Whether ``element`` says it is an author's name (``rel=author``, ``itemprop=author``,
    a class naming the author: microformats' ``u-author``)."""
    return ("author" in (element.get("rel") or "").lower().split()
            or (element.get("itemprop") or "").lower() == "author"
            or bool(_AUTHOR_CLASS.search(element.get("class") or "")))


_AUTHOR_CLASS = re.compile(rf"(?<![a-z]){_AUTHOR_WORD}", re.I)
#: A class naming an author's name itself: ``author-name``, ``byline__name``,
#: ``card-author-name``, ``name-of-author``.
_AUTHOR_NAME_CLASS = re.compile(r"(?:author|byline)[\w-]*name|name[\w-]*(?:author|byline)",
                                re.I)


#: Elements a byline line is written in (not the date lines' _LINE_TAGS).
_BY_LINE_TAGS = frozenset({"p", "div", "span", "address", "h2", "h3", "h4", "h5", "h6",
                           "small", "li", "strong", "b", "em"})
_BY_LINE = re.compile(r"^by\s", re.I)
#: Lower-case words inside a name ("Ludwig van Beethoven", "Maria de la Cruz").
_NAME_PARTICLES = frozenset({"van", "von", "der", "den", "de", "la", "le", "da", "di", "du",
                             "del", "dos", "bin", "al", "ter", "ten"})
#: How many elements after the headline a byline line may lie.
BY_LINE_WINDOW = 30


def _by_line_authors(layout: _Layout) -> list[str]:
    """Names from a short line just after the headline that starts "By", in an element no
    class marks as a byline ("<p class=dateline>By Ed Silverman // November 6th, 2012 //
    9:41 am</p>"); each name in capitals ("By the end of the year" is no byline)."""
    if layout.anchor is None:
        return []
    for node in layout.elements[layout.anchor + 1:layout.anchor + 1 + BY_LINE_WINDOW]:
        if node.tag not in _BY_LINE_TAGS or _in_furniture(node):
            continue
        text = _clean(_text(node))
        if not _BY_LINE.match(text) or len(text) > BYLINE_CHARS:
            continue
        names = _split_names(text)
        if names and all(word[:1].isupper() or word in _NAME_PARTICLES
                         for name in names for word in name.split()):
            return names
    return []


def _not_a_name_part(element: etree._Element, byline: etree._Element) -> bool:
    """``element`` (inside ``byline``, or ``byline`` itself) gives a job title, an
    organisation, a bio or a date by its class or itemprop, not the author's name."""
    node = element
    while node is not None:
        if _marks_not_a_name(node, _BYLINE_ROLE if node is byline else _BYLINE_NOT_NAME):
            return True
        if node is byline:
            return False
        node = node.getparent()
    return False


def _marks_not_a_name(element: etree._Element, pattern: re.Pattern = _BYLINE_NOT_NAME) -> bool:
    marker = f"{element.get('class', '')} {element.get('itemprop', '')}"
    return bool(pattern.search(marker)) and not _BYLINE_NAME.search(marker)


#: ...unless the class names the name too (``author-name``, ``byline__name``).
_BYLINE_NAME = re.compile(r"name", re.I)


def _byline_text(node: etree._Element) -> str:
    """The byline's visible text without the elements that give a job, an organisation or a
    date (``<span class="byline-title">Environment reporter, BBC News</span>``)."""
    if _marks_not_a_name(node, _BYLINE_ROLE):
        return ""  # a byline's job title (its date is cut from the text: "AuthorDate")
    return element_text(node, skip=_marks_not_a_name)


def _visible_date(tree: etree._Element, layout: _Layout, window: int = 300,
                  url: str | None = None) -> date | None:
    """The date shown closest to the headline: a ``<time>``, or a short dated line in a
    date/byline element ("Updated March 5, 2025"). The date a reader sees is the one the
    page stands by, so an "updated" date counts as much as a "published" one.
    """
    scope = layout.around_headline(window) if window <= 300 and layout.anchor is not None \
        else layout.elements
    cards = _Cards(url)
    candidates = [node for node in scope
                  if (node.tag == "time" or _DATE_CLASS.search(node.get("class", ""))
                      or _DATE_ID.search(node.get("id", "")))
                  and node.tag not in ("html", "body", "head", "meta", "script", "style")
                  and not _in_furniture(node, loose=True) and not _in_labeled_row(node)
                  and not _thread_activity(node) and not _in_card(node, cards)]
    for node in layout.near_headline(candidates, window=window):
        if node.tag == "time":
            parsed = parse_date(node.get("datetime")) or parse_date(_text(node))
        else:
            text = _text(node)
            parsed = parse_date(text) if 0 < len(text) <= 160 else None
        if parsed:
            return parsed
    if window > 300:
        return None
    # no dated element: a short line right by the headline that is a date ("Mar 27, 2024")
    lines = [node for node in layout.around_headline(60) if node.tag in _LINE_TAGS
             and 0 < len(_own_text(node)) <= 80 and not _in_furniture(node, loose=True)
             and not _in_labeled_row(node) and not _thread_activity(node)
             and not _in_card(node, cards)]
    for node in layout.near_headline(lines, window=60):
        text = _own_text(node)
        parsed = parse_date(text)
        if parsed and not _date_range(text):
            return parsed
    return None


#: A date alone, in the forms :func:`parse_date` reads ("1/27/2026", "2026-01-27",
#: "January 27, 2026", "27 January 2026").
_DATE_ALONE = re.compile(r"\s*(?:\d{1,2}[/.]\d{1,2}[/.]\d{4}|\d{4}[-/]\d{1,2}[-/]\d{1,2}|"
                         r"[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\s+[A-Za-z]{3,9}\.?,?\s+\d{4})\s*")
_RANGE_SEPARATOR = re.compile(r"\s*(?:-|–|—|\bto\b|\buntil\b|\bthrough\b)\s*")


def _date_range(text: str) -> bool:
    """Whether ``text`` is a span of two dates and nothing else ("1/27/2026 - 3/24/2026"): a
    course's or an event's days, not the day of the page."""
    parts = _RANGE_SEPARATOR.split(text.strip())
    return len(parts) == 2 and all(_DATE_ALONE.fullmatch(part) and parse_date(part)
                                   for part in parts)


#: How far up from a date its card may lie (the card's date sits a few levels inside it).
_CARD_LEVELS = 6


class _Cards:
    """What :func:`_in_card` has found of each list (its parent and its items' tag), and the
    page's address (a link to it is no other story's)."""

    def __init__(self, url: str | None):
        self.url = url or ""
        self.lists: dict[tuple[etree._Element, str], bool] = {}


def _bare_url(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.netloc.lower()}{parts.path.rstrip('/')}" if parts.netloc else ""


def _in_card(node: etree._Element, cards: _Cards) -> bool:
    """Whether the dated ``node`` lies in one card of a list of cards: an element headed by a
    link to another page (``<h3><a href=...>``, or a heading in such a link) with at least
    two siblings of its tag that are headed so and dated too. That is a listing's story,
    dated on its own (the first card's date lies right under a news listing's "News"
    heading), not the day of the page. A thread's posts, headed by no link or by a link to
    their own anchor (phpBB's ``viewtopic.php?p=550447#p550447``), and a story whose
    headline is no link or one to the page itself (a blog's post above its related posts)
    are no cards."""
    item = node
    for _ in range(_CARD_LEVELS):
        parent = item.getparent()
        if parent is None or parent.tag in ("html", "body"):
            return False
        key = (parent, item.tag)
        if key not in cards.lists:
            headed = [s for s in parent if s.tag == item.tag and _linked_heading(s, cards.url)]
            cards.lists[key] = len(headed) >= 3 and sum(1 for s in headed if _dated(s)) >= 3
        if cards.lists[key] and _linked_heading(item, cards.url):
            return True
        item = parent
    return False


def _linked_heading(element: etree._Element, url: str = "") -> bool:
    """Whether ``element`` holds a heading (``<h1>``-``<h4>``) that is, or lies in, a link to
    another page: not to an anchor (``#p123``, a post's permalink) nor to the page itself
    (``url``)."""
    here = _bare_url(url)
    for heading in element.iter("h1", "h2", "h3", "h4"):
        for link in (*heading.iter("a"), *heading.iterancestors("a")):
            href = (link.get("href") or "").strip()
            if href and "#" not in href and not (here and _bare_url(urljoin(url, href)) == here):
                return True
    return False


def _dated(element: etree._Element) -> bool:
    """Whether ``element`` holds a ``<time>`` or an element of a date class."""
    return any(node.tag == "time" or _DATE_CLASS.search(node.get("class", ""))
               for node in element.iter() if isinstance(node.tag, str))


#: (``<b>`` too: the Guardian's pages of the 2000s set "Saturday December 21, 2002" and the
#: paper's name in one under the standfirst; not ``<font>``, in which old portals list the
#: dates of their other stories beside the headline)
_LINE_TAGS = frozenset({"span", "p", "div", "li", "small", "strong", "em", "b"})


def _in_labeled_row(node: etree._Element) -> bool:
    """Whether ``node`` lies in a table row a header cell labels (an infobox's "Debut", a
    spec sheet's "Released"): a date about the page's subject, not the page's own."""
    row = next(node.iterancestors("tr"), None)
    return row is not None and any(child.tag == "th" for child in row)


#: The words a thread's latest activity is introduced with ("last post by Ann, Aug 7",
#: "Last reply: ..."), and the classes of that stamp (vBulletin's and phpBB's "lastpost").
_ACTIVITY_LABEL = re.compile(r"\b(?:last|latest|newest|most recent)\s+(?:post|posts|reply|"
                             r"replies|replied|activity|active|message|comment)\b", re.I)
_ACTIVITY_CLASS = re.compile(r"(?:last|latest)[-_]?(?:post|reply|activity|active)", re.I)
#: How far into a dated line its activity label may start ("Last post: ...", "Thread · Last
#: reply ...").
_ACTIVITY_LABEL_AT = 40
#: Longest line around a dated element read for the label before the date.
_ACTIVITY_HOLDER_CHARS = 160


def _thread_activity(node: etree._Element) -> bool:
    """Whether ``node`` is a thread's latest activity ("last post by JWoodguy13 Aug 7,
    2023" under a forum thread's title), not the day the page's text was posted: its line
    says so before the date (in the element or around it), or it is classed so."""
    line = node
    for _ in range(3):
        if _ACTIVITY_CLASS.search(f"{line.get('class', '')} {line.get('id', '')}"):
            return True
        parent = line.getparent()
        if parent is None or parent.tag in ("body", "html"):
            break
        line = parent
    # a text longer than a holder's 160 characters is found in none of them: its start will do
    own = element_text_within(node, _ACTIVITY_HOLDER_CHARS)
    opening = element_text_start(node, _ACTIVITY_LABEL_AT) if own is None \
        else own[:_ACTIVITY_LABEL_AT]
    # ... or the line itself opens with the words ("Last post: 01/12/2025 at 6:49 pm", a
    # thread's stamp under its title on Netmums, read as the day of the page: wcxb-dev 0531)
    label = _ACTIVITY_LABEL.search(opening)
    if label and not any(ch.isdigit() for ch in opening[:label.start()]):
        return True
    if own is None:
        return False
    for holder in (node.getparent(), node.getparent().getparent()
                   if node.getparent() is not None else None):
        if holder is None:
            break
        # not a whole page's text to see it is long
        text = element_text_within(holder, _ACTIVITY_HOLDER_CHARS)
        if text is None:
            break
        at = text.find(own) if own else -1
        if at > 0 and _ACTIVITY_LABEL.search(text[:at][-60:]):
            return True
    return False


def _own_text(element: etree._Element) -> str:
    """Text directly inside ``element`` and its inline children (no block descendants)."""
    if any(isinstance(child.tag, str) and child.tag in ("div", "p", "ul", "ol", "section",
                                                        "article", "table")
           for child in element):
        return ""
    return _text(element)


# -- meta tags -------------------------------------------------------------------------------

def _meta_authors(metas: dict[str, str]) -> list[str]:
    for key in _AUTHOR_META:
        value = metas.get(key)
        if value and not value.startswith(("http://", "https://")):
            names = _split_names(value)
            if names:
                return names
    return []


def _meta_date(metas: dict[str, str], keys: Iterable[str]) -> date | None:
    for key in keys:
        parsed = parse_date(metas.get(key))
        if parsed:
            return parsed
    return None


#: A publication date in a page's own script data (frameworks' JSON state, not JSON-LD).
_SCRIPT_DATE = re.compile(
    r"""(?:datePublished|publishedDate|publishDate|published_at|publishedAt|"""
    r"""first_publication_date|date_published|publication_date|dateCreated|createdAt)"""
    r"""["']?\s*:\s*["'](\d{4}-\d{2}-\d{2})""")


def _script_date(raw: str) -> date | None:
    match = _SCRIPT_DATE.search(raw)
    return parse_date(match.group(1)) if match else None


def _url_date(url: str | None) -> date | None:
    match = _URL_DATE.search(urlsplit(url).path) if url else None
    return _make_date(*match.groups()) if match else None


#: What a theme leaves in a site-name tag when nobody filled it in (``twitter:site`` =
#: "website", ``og:site_name`` = "Blog"): no name; the title or the host names the site.
_PLACEHOLDER_SITE_NAMES = frozenset({"website", "web site", "site", "homepage", "home page",
                                     "home", "blog", "null", "undefined", "none"})
#: A site name given as an address ("http://ibnlive.in.com/"): its host is the name.
_SITE_ADDRESS = re.compile(r"^[a-z][a-z0-9+.-]*://(?:www\.)?([^/?#\s]+)/?$", re.I)


#: What a site's name may end with that is no part of it: a separator its template wrote
#: after it ("Quayside |", "Quayside -"), a comma, a colon. Not "!" nor "?": "Yahoo!".
_SITE_NAME_TRAILER = re.compile(r"[\s|\-–—·•»/\\,;:]+$")
#: The final dot and the word it ends, in a site's name ("aliexpress.", "Smith & Co.").
_SITE_NAME_DOT = re.compile(r"(\w*)(\.+)$")
#: Words a company's name ends with whose dot is theirs ("Quayside Outfitters Inc."),
#: besides any short capitalized word (:func:`_abbreviation`).
_NAME_ABBREVIATIONS = frozenset({"inc", "co", "corp", "ltd", "llc", "plc", "bros", "jr",
                                 "sr", "st", "mfg", "intl", "assn", "dept", "univ", "ltda",
                                 "cia", "cie", "ag", "sa", "vs", "etc"})
#: Most letters of a capitalized word taken for an abbreviation before a dot ("Int.").
_ABBREVIATION_LETTERS = 4


def _abbreviation(word: str) -> bool:
    """Whether a dot after ``word`` is an abbreviation's: an initial ("U.S.", "e.V."), a
    short capitalized word ("Inc.", "Int.", "Bros."), or one of :data:`_NAME_ABBREVIATIONS`;
    not a sentence's end ("… financial services law.") nor a lone word's ("aliexpress.")."""
    return (len(word) == 1 and word.isalpha()) or word.lower() in _NAME_ABBREVIATIONS or (
        word.isalpha() and word[:1].isupper() and word[1:].islower()
        and len(word) <= _ABBREVIATION_LETTERS)


def _tidy_site_name(name: str) -> str:
    """``name`` without the stray punctuation a template or an editor left at its end: a
    trailing separator, comma or colon, and a final dot or ellipsis ("aliexpress." is
    aliexpress), except an abbreviation's (:func:`_abbreviation`). "!" and "?" stay:
    "Yahoo!", "Panic!"."""
    while True:
        before = name
        name = _SITE_NAME_TRAILER.sub("", name)
        dot = _SITE_NAME_DOT.search(name)
        if dot and (len(dot.group(2)) > 1 or not _abbreviation(dot.group(1))):
            name = name[:dot.start(2)]
        if name == before:
            return name


#: Where a declared site name joins the name and its tagline: a bar, a dash, a bullet or a
#: guillemet between spaces ("Acme — the best widgets since 1990"); never a hyphen inside a
#: word ("The Star-Ledger"), nor "&" ("Smith & Wesson").
_NAME_SEPARATOR = re.compile(r"\s+[|\-–—·•»]+(?:\s+[|\-–—·•»]+)*\s+")
#: A short name before a colon and a tagline of three words or more after it
#: ("Wirecutter: Reviews for the Real World", "BBC: World News & Stories").
_NAME_COLON = re.compile(r"^([^:]{2,40}?):\s+(\S+(?:\s+\S+){2,})$")
#: Most words and characters of the name kept from a name and its tagline.
_SHORT_NAME_WORDS = 5
_SHORT_NAME_CHARS = 40


def _short_site_name(name: str, url: str | None = None) -> str:
    """The name alone when a declared site name is clearly a name and its tagline: parts
    joined by a separator between spaces ("Zillow Blog - Real Estate Market Stats, …",
    "JOCO Cups | Glass Reusable Coffee Cups"), or a short name, a colon and a tagline of three
    words or more ("Wirecutter: Reviews for the Real World"). The name is the first part,
    as such values most often run, else the last where it alone names the page's host and
    is the shorter ("Headphone Reviews and Discussion - Head-Fi.org" on head-fi.org; not
    "Wendi Weiner - The Writing Guru" on thewritingguru.net); one of at most five
    words and 40 characters, else ``name`` stays whole. A name holding no such separator
    stays whole: "The New York Times", "Smith & Wesson", "The Star-Ledger"."""
    parts = [part for part in _NAME_SEPARATOR.split(name) if part.strip()]
    if len(parts) < 2:
        colon = _NAME_COLON.match(name)
        parts = [colon.group(1), colon.group(2)] if colon else []
    if len(parts) < 2:
        return name
    host = titles.site_words([], url)
    first, last = parts[0].strip(), parts[-1].strip()
    short = last if host and len(first.split()) > len(last.split()) \
        and titles.names_site(last, host) and not titles.names_site(first, host) else first
    if len(short.split()) > _SHORT_NAME_WORDS or len(short) > _SHORT_NAME_CHARS \
            or short.lower() in _PLACEHOLDER_SITE_NAMES:
        return name
    return _tidy_site_name(short) or name


#: Tags naming an account or an app rather than the site: a forum's Tapatalk app, a shop's
#: Shopify, a library guide's Springshare fill them in for every site they serve.
_HANDLE_KEYS = frozenset({"twitter:site", "al:ios:app_name"})


def _site_name(metas: dict[str, str], ld_nodes: list[dict], url: str | None = None) -> str:
    """The name the page declares for its site (meta tags, then schema.org), without a
    tagline beside it (:func:`_short_site_name`); "" if none. An account's handle or an
    app's name (:data:`_HANDLE_KEYS`) names the site only where it names the page's host
    too ("@NewStatesman" on newstatesman.com, not "@tapatalk" on webhostingtalk.com), or
    where the host is unknown."""
    host = titles.site_words([], url)
    for key in ("og:site_name", "application-name", "twitter:site", "al:ios:app_name"):
        value = _tidy_site_name(metas.get(key, "").lstrip("@").strip())
        if key in _HANDLE_KEYS and host and not titles.names_site(value, host):
            continue
        if value and value.lower() not in _PLACEHOLDER_SITE_NAMES:
            address = _SITE_ADDRESS.match(value)
            return address.group(1) if address else _short_site_name(value, url)
    for node in ld_nodes:
        if _ld_types(node) & {"website", "newsmediaorganization", "organization"}:
            name = node.get("name")
            name = _tidy_site_name(_clean(name)) if isinstance(name, str) else ""
            if name:
                return _short_site_name(name, url)
    return ""


#: Where ``<title>`` joins the story and the site: a bar, a dash or a dot between spaces
#: (not a colon, which also joins a headline to its subtitle).
_SITE_SEPARATOR = re.compile(r"\s+[|\-–—·•»]\s+")


def _site_in_title(page_title: str, title: str, url: str | None = None) -> str:
    """The site's name from ``<title>`` ("Story | Site", "Story | Section | Site", "Site -
    Story"): the far end from the chosen title, when it is a short name (at most five
    words)."""
    full = titles.clean(page_title)
    wanted = titles.words(title)
    parts = _SITE_SEPARATOR.split(full)
    if not wanted or len(parts) < 2:
        return ""
    # "Story | Site", "Story | Section | Site"; the other way round ("Site - Story") only when
    # the host names the site too: a title's first part is more often a section or a book
    host = titles.site_words([], url)
    for story, rest, needs_host in ((parts[:1], parts[-1], False), (parts[:-1], parts[-1], False),
                                    (parts[-1:], parts[0], True), (parts[1:], parts[0], True)):
        if titles.words(" ".join(story)) == wanted and 0 < len(rest.split()) <= 5 \
                and len(rest) <= 40 and (not needs_host or titles.names_site(rest, host)):
            return rest.strip()
    return ""


def _host_name(url: str | None) -> str:
    host = urlsplit(url).hostname if url else None
    return host.removeprefix("www.") if host else ""


def _main_ancestor(page: Page, main: MainText | None) -> etree._Element | None:
    """The nearest element holding the whole main text (None without one): its first and
    last chosen elements' common ancestor, found by their stamped ids or their paths."""
    if main is None:
        return None
    found: list[etree._Element] = []
    try:
        if main.element_ids:
            for value in dict.fromkeys((main.element_ids[0], main.element_ids[-1])):
                found += page.tree.xpath(f"//*[@{page.id_attr}=$value]", value=value)[:1]
        else:
            for path in dict.fromkeys(main.xpaths[:1] + main.xpaths[-1:]):
                hits = page.tree.xpath(path)
                found += [hit for hit in hits if isinstance(hit, etree._Element)][:1] \
                    if isinstance(hits, list) else []
    except (etree.XPathError, ValueError):
        return None
    return common_ancestor(found)


def _language(tree: etree._Element, metas: dict[str, str],
              around: etree._Element | None = None) -> str:
    """The main text's language: the nearest ``lang`` around it (a page in two languages
    sets it on each part), else the page's (``<html lang>``, then its meta tags)."""
    value = (declared(around, "lang") if around is not None else "") or tree.get("lang") or \
        tree.get("xml:lang") or metas.get("content-language") or \
        metas.get("og:locale", "").replace("_", "-") or metas.get("language", "")
    return value.strip().split(",")[0].strip()[:35]


def _direction(around: etree._Element, language: str, text: str) -> str:
    """The main text's writing direction, "rtl" or "ltr" ("" when nothing says): the
    ``dir`` the nearest element around it sets (Readability's rule: the page's own
    ``<html dir>`` or ``<body dir>`` when nothing nearer does), else right to left when its
    language is written so ("ar", "he", "fa-IR") or most of its letters are (a page that
    sets its direction in its stylesheet and names no language, or the wrong one)."""
    declared_dir = declared(around, "dir")
    if declared_dir in ("ltr", "rtl"):
        return declared_dir
    by_language = language_direction(language)
    by_text = text_direction(text) if text else ""
    if declared_dir == "auto":  # the text's own direction, as the browser would take it
        return by_text or by_language
    if "rtl" in (by_language, by_text):
        return "rtl"
    return by_language or by_text


# -- names and dates -------------------------------------------------------------------------

def _plausible_name(text: str) -> bool:
    words = text.split()
    return 1 <= len(words) <= 6 and any(ch.isalpha() for ch in text) and (
        not _NOT_A_NAME.search(text) or bool(_HANDLE.match(text)))


def _split_names(text: str | None) -> list[str]:
    """Author names in a byline ("By A, B and C · 3 min read" -> [A, B, C])."""
    text = _clean(unescape(unescape(text or "")))
    if not text:
        return []
    text = _BY_PREFIX.sub("", _after_cjk_label(text))
    text = _BYLINE_END.sub("", _before_date(text))
    names = []
    for part in _NAME_SPLIT.split(text):
        part = _BY_PREFIX.sub("", part).strip(" :-–—/")
        part = part if _POST_NOMINAL.fullmatch(part) else part.strip(".")
        if names and _POST_NOMINAL.fullmatch(part) and any(ch.islower() for ch in names[-1]):
            names[-1] = f"{names[-1]}, {part}"  # in capitals beside a name in mixed case
            continue
        if not part or not _plausible_name(part) or \
                (names and (_ROLE.search(part) or _ORGANISATION.search(part))):
            continue  # a job title or an organisation after a name ("Our Editors" alone stays)
        names.append(part)
    return _dedupe(names)


#: A Chinese byline's label ("作者：", author; "编辑：", editor; "记者：", reporter): the name
#: follows it, and what stands before it is the site's name ("51offer编辑：Alice").
_CJK_BYLINE_LABEL = re.compile(r"(?:责任编辑|编辑|作者|记者|撰文|撰稿|通讯员)\s*[：:]\s*")


def _after_cjk_label(text: str) -> str:
    """The name after a Chinese byline's first label, up to the next label ("作者：张三
    编辑：李四" -> "张三"); ``text`` itself when it holds no label."""
    label = _CJK_BYLINE_LABEL.search(text)
    if label is None:
        return text
    rest = text[label.end():]
    after = _CJK_BYLINE_LABEL.search(rest)
    if after is not None:
        space = rest.rfind(" ", 0, after.start())
        rest = rest[:space if space > 0 else after.start()]
    return rest


def _before_date(text: str) -> str:
    """``text`` up to the first date in it ("ServiceTitan November 26th, 2024 10 Min Read")."""
    cut = len(text)
    for pattern, month_at in ((_ISO_DATE, 0), (_SLASH_DATE, 0), (_NUMERIC_DATE, 0),
                              (_TEXT_DATE_MDY, 1), (_TEXT_DATE_DMY, 2)):
        for match in pattern.finditer(text):
            if not month_at or match.group(month_at).lower().rstrip(".") in _MONTHS:
                cut = min(cut, match.start())
                break
    return text[:cut]


def _dedupe(names: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for name in names:
        key = name.casefold()
        if key not in seen:
            seen.add(key)
            out.append(name)
    return out


def _make_date(year: str | int, month: str | int, day: str | int) -> date | None:
    try:
        value = date(int(year), int(month), int(day))
    except (TypeError, ValueError):
        return None
    return value if 1990 <= value.year <= datetime.now().year + 1 else None


def parse_date(value: str | None) -> date | None:
    """The calendar day in ``value``: ISO 8601, ``YYYY/MM/DD`` or "March 5, 2024" forms."""
    if not value:
        return None
    value = value.strip()
    for pattern in (_ISO_DATE, _SLASH_DATE):
        match = pattern.search(value)
        if match:
            return _make_date(*match.groups())
    match = _NUMERIC_DATE.search(value)
    if match:
        first, second, year = (int(part) for part in match.groups())
        # month first where that reads as a date (US order), else day first
        return _make_date(year, first, second) if first <= 12 else \
            _make_date(year, second, first)
    match = _TEXT_DATE_MDY.search(value)
    if match and match.group(1).lower().rstrip(".") in _MONTHS:
        return _make_date(match.group(3), _MONTHS[match.group(1).lower()], match.group(2))
    match = _TEXT_DATE_DMY.search(value)
    if match and match.group(2).lower() in _MONTHS:
        return _make_date(match.group(3), _MONTHS[match.group(2).lower()], match.group(1))
    match = _TEXT_DATE_YMD.search(value)
    if match and match.group(2).lower() in _MONTHS:
        return _make_date(match.group(1), _MONTHS[match.group(2).lower()], match.group(3))
    return None

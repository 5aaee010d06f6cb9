"""What "hide" hides: whole containers outside the main content, each with a kind and a reason.

The paper's link blocks (``linkblocks``) find runs of links in the raw HTML; a span from the
first ``<a`` to the last ``</a>`` is not a safe thing to hide (it crosses prose and holds
inline links). Here the decision is made on the tree, by structure:

* the **main content** (``ExtractionResult.main`` ids or XPaths, and blocks of kind ``main``,
  from ``auto`` or any segmenter returning that shape), the page's ``<h1>`` headlines and its
  byline / date elements are *protected*: nothing hidden is, holds or lies inside them;
* for each link of a paper link block, the container is the nearest block-level ancestor
  that is itself link-dense (``link_density`` of its visible text is link text, at most
  ``max_prose_chars`` of text outside links), grown to the largest such ancestor; a link whose
  block-level ancestor is not link-dense is a link in running text and is left alone;
* structural chrome outside the main content is hidden too: ``nav``/``header``/``footer``/
  ``aside`` and their ARIA roles, ad slots, cookie and newsletter banners, share bars and
  fixed/sticky bars, each recognized from its tag, role, class or id, and kept when it holds
  more than ``max_prose_chars`` of text outside links (unless it is a banner);
* on an index page (:func:`page_kind`), containers holding the page's own story teasers
  (headline links) are kept: only the chrome around them goes.

The result is a :class:`HidePlan`: the list the extension receives (element ids it stamped, or
XPaths for pages without ids), each target with its kind and its reason in words.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from lxml import etree
from pydantic import BaseModel, ConfigDict, Field

from ..content import BLOCK_TAGS, HIDDEN_STYLE, NON_TEXT_TAGS, ancestors_of
from ..page import Page
from ..wire.results import ExtractionResult, WireModel
from .index_items import _MENU_TOKENS, IndexItem, _headline_links, _in_menu, index_items
from .markup import _page_frame, _tokens

#: Version of the hide plan's shape (PROTOCOL.md); raised when a field changes meaning.
HIDE_PLAN_VERSION = 1

TargetKind = Literal["links", "nav", "ad", "comments", "other"]
PageKind = Literal["article", "index"]

_CONTAINER_TAGS = (BLOCK_TAGS | {"iframe", "ins"}) - {"html", "body", "tr", "td", "th",
                                                       "tbody", "thead", "tfoot", "p",
                                                       "h1", "h2", "h3", "h4", "h5", "h6",
                                                       "main", "article"}
_STYLE_FIXED = re.compile(r"position\s*:\s*(fixed|sticky)", re.I)

# Class / id tokens (split at non-alphanumerics) naming chrome, by kind.
_AD_TOKENS = frozenset({"ad", "ads", "advert", "adverts", "advertisement", "advertising",
                        "adsbygoogle", "adslot", "adunit", "adbox", "adcontainer", "dfp",
                        "sponsor", "sponsored", "taboola", "outbrain"})
# ("cmp" is left out: it names page components far more often than consent platforms)
_BANNER_TOKENS = frozenset({"cookie", "cookies", "consent", "gdpr", "newsletter",
                            "subscribe", "subscription", "signup", "paywall", "modal",
                            "popup", "overlay", "interstitial"})
# consent platforms' own names, and "cookie" or "consent" inside a compound token
# (``bbccookies-prompt``, ``CybotCookiebotDialog``, ``wpconsent-root``), name cookie banners
# as well
_CONSENT_PLATFORMS = frozenset({"onetrust", "cookiebot", "usercentrics", "didomi", "truste"})
# a platform's name inside a token marks its own root (``onetrust-consent-sdk``,
# ``CybotCookiebotDialog``, ``wpconsent-root``), whose preference centre lists every cookie
# it sets: the whole root goes, however long ("truste" alone is a token: "trusted" is not it)
_CONSENT_PLATFORM_IN_TOKEN = re.compile(
    r"onetrust|cookiebot|usercentrics|didomi|wpconsent|cookielawinfo|cookieyes|iubenda|cmplz")
# a banner named for cookies or consent (its reason's first word) whose wording asks for
# consent to cookies is no article text, whatever the segmenter's veto says
_CONSENT_WORDS = frozenset({"cookie", "cookies", "consent", "gdpr"})
# (two searches, each linear: "cookie" and a consent word anywhere in the banner's text)
_COOKIE_WORD = re.compile(r"\bcookies?\b", re.I)
_CONSENT_WORD = re.compile(r"\b(?:accept|agree|consent|privacy|policy|settings)", re.I)
# banner words that also name drawers and panels of content: held to max_prose_chars
_GENERIC_BANNER_TOKENS = frozenset({"modal", "popup", "overlay", "interstitial"})
_SHARE_TOKENS = frozenset({"share", "sharing", "sharebar", "social", "socials"})
_NAV_TOKENS = frozenset({"nav", "navbar", "navigation", "menu", "menubar", "breadcrumb",
                         "breadcrumbs", "footer", "masthead", "topbar", "toolbar",
                         "pagination", "pager", "sitemap", "skiplink"})
_RELATED_TOKENS = frozenset({"sidebar", "related", "recommended", "recommendations",
                             "popular", "trending", "promo", "widget", "widgets", "more"})
_COMMENT_TOKENS = frozenset({"comment", "comments", "disqus", "replies"})
# a forum thread's or a Q&A page's replies, named so by the element or what holds it (the
# body's class too: bbPress's ``single-forum``), are its content even in a box named comments
_FORUM_TOKENS = frozenset({"forum", "forums", "topic", "question", "questions", "answers",
                           "bbpress", "xenforo", "phpbb", "vbulletin", "discourse"})
_BYLINE_TOKENS = frozenset({"byline", "author", "dateline", "published", "pubdate",
                            "timestamp", "posted"})
_MONTH = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?")
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
# a story's date written out (a day, a month and a year), alone or after "posted on": a
# dateline without a <time> or byline class (a link to the story itself, on old blogs)
_DATELINE = re.compile(
    r"^\W*(?:(?:posted|published|updated|written)\b\W*(?:on\b)?\W*)?"
    r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
    rf"(?:{_MONTH}\s+{_DAY},?\s+\d{{4}}|{_DAY}\s+{_MONTH},?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4})"
    r"(?:\W+(?:at\s+)?\d{1,2}[:.]\d{2}\s*(?:[ap]\.?m\.?)?)?\W*$", re.I)
_DATELINE_CHARS = 60
_ROLE_KINDS = {"navigation": "nav", "banner": "nav", "contentinfo": "nav",
               "complementary": "links", "search": "nav"}
#: What a landmark role of the page's frame is in a reader's words
_ROLE_NAMES = {"banner": "page header", "contentinfo": "page footer", "search": "search box"}


class HideParams(BaseModel):
    """Thresholds of the hide decision (chosen by domain-grouped cross-validation, see
    docs/evaluation.md; the defaults are the chosen values)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    link_density: float = Field(0.5, ge=0, le=1, description="Least share of a container's "
                                "visible text that is link text for it to be link-dense")
    max_prose_chars: int = Field(200, ge=0, description="Most visible text outside links a "
                                 "hidden container may hold (more is prose: kept)")
    banner_prose_chars: int = Field(800, ge=0, description="Same limit for cookie, newsletter "
                                    "and sticky banners, which are wordy")
    menu_prose_chars: int = Field(800, ge=0, description="Same limit for the page's own "
                                  "menu (a <nav> or role=navigation with no article or main "
                                  "around it), whose promotions hold a few sentences (a Q&A "
                                  "network's left menu); at least max_prose_chars")
    consent_chars: int = Field(3000, ge=0, description="Most visible text outside links of a "
                               "cookie consent banner (named for cookies, consent or a consent "
                               "platform, or a dialog, whose words ask for consent to cookies), "
                               "hidden whole even where the segmenter takes its words for main "
                               "text; at most half the page's text. 0: none beyond "
                               "banner_prose_chars")
    consent_platform_whole: bool = Field(True, description="A consent platform's own root "
                                         "(its class or id names the platform: OneTrust, "
                                         "Cookiebot, ...) goes whole however long, its "
                                         "preference centre listing every cookie included, "
                                         "even past half the page's text; off: it is held to "
                                         "consent_chars and that half too")
    consent_dialog_whole: bool = Field(True, description="A dialog (<dialog>, a dialog role "
                                       "or aria-modal) whose words ask for consent to "
                                       "cookies goes whole however long, as a platform's root "
                                       "does (a cookie settings dialog lists every purpose); "
                                       "off: it is held to consent_chars and half the page")
    consent_top_level_whole: bool = Field(True, description="A cookie consent banner that is "
                                          "a child of <body> (where a consent script puts its "
                                          "own) goes whole however long, up to half the "
                                          "page's text (its cookie tables included); off: it "
                                          "is held to consent_chars")
    consent_empty_root: bool = Field(True, description="A consent platform's own root that is "
                                     "a child of <body> and shows no words in the page's copy, "
                                     "no picture, frame or video (WPConsent draws its banner in "
                                     "a shadow root from a <template>) goes too")
    sweep: bool = Field(False, description="Also hide what lies beside the main content and "
                        "holds no prose (article pages; off: it costs gold text)")
    sweep_prose_chars: int = Field(150, ge=0, description="Most text outside links such a "
                                   "neighbour may hold")
    sentence_chars: int = Field(80, ge=0, description="A run of text outside links longer "
                                "than this is prose: its element is kept")
    min_links: int = Field(3, ge=1, description="Least links a link-dense container holds "
                           "(the papers' C_t: fewer links are no link block)")
    link_line_density: float = Field(0.9, ge=0, description="A <p> met on a link's "
                                     "way up is a line of links, not running text, when at "
                                     "least this share of its visible text is link text (a "
                                     "post's '« Previous | Main | Next »'): it counts as the "
                                     "link's container, then held to link_density, "
                                     "max_prose_chars and min_links like any other; above 1: "
                                     "never (every <p> is running text). 0.9: no page of the "
                                     "five dev sets loses gold text by it; 0.8 and below cost "
                                     "a dragnet page (docs/evaluation.md)")
    chrome_link_density: float = Field(0.3, ge=0, le=1, description="Least link density of a "
                                       "navigation or related box found by class or role "
                                       "(below it, the box is content named oddly)")
    max_hidden_share: float = Field(0.7, ge=0, le=1, description="A plan hiding more than "
                                    "this share of the visible text keeps only banners and "
                                    "ads (the main content was missed)")
    net_without_banners: bool = Field(True, description="max_hidden_share counts without the "
                                      "ads and banners (kinds ad and other) the plan hides, "
                                      "which go even where it holds back: a pop-up menu "
                                      "larger than the story no longer makes the main "
                                      "content look missed; off: counted with them")
    min_main_chars: int = Field(200, ge=0, description="Below this many characters of main "
                                "content, likewise")
    ad_in_main_chars: int = Field(60, ge=0, description="Most text outside links of an ad "
                                  "slot (class or id naming an ad) hidden inside the main "
                                  "content; 0: none there")
    veto_p: float = Field(0.05, ge=0, le=1, description="A container holding a segmenter "
                          "region of at least this main-content probability is kept (ads "
                          "excepted); 1: no veto")
    careful_page_types: tuple[str, ...] = Field(
        ("product", "collection", "service"), description="Page types (as the "
        "segmenter predicts them) on which hide holds back (only ads, banners and "
        "careful_page_chrome are hidden): their main content is spread over the page and "
        "found least well")
    careful_min_p: float = Field(0.7, ge=0, le=1, description="Least probability of the "
                                 "predicted page type for careful_page_types to apply")
    careful_uncertain_share: float = Field(
        0.1, ge=0, le=1, description="Share of the page's text the segmenter is unsure of "
        "(auto's stats['uncertain_share']) above which hide holds back as on "
        "careful_page_types; 1: never")
    restraint_sure_p: float = Field(
        0.0, ge=0, le=1, description="Where hide holds back for the page's type or for the "
        "segmenter's doubts (careful_page_types, careful_uncertain_share), it still hides "
        "what it chose whose segmenter regions all have a main-content probability below "
        "this; 0: only ads and banners there")
    careful_page_chrome: tuple[Literal["header", "footer", "menu", "breadcrumbs", "sidebar"],
                               ...] = \
        Field(("header", "footer", "breadcrumbs", "sidebar"), description="Where hide holds "
              "back (careful_page_types, careful_uncertain_share), it still hides these parts "
              "of the page's own frame: its header (<header>, role=banner) or footer "
              "(<footer>, role=contentinfo), outside any article, section, aside, nav or "
              "main, what it chose in its menu (\"menu\", not by default: a <nav> or "
              "role=navigation outside any article or main; on wcxb-dev it cost gold text on "
              "0.3 % more of the pages, shop, service and finance pages whose gold shares the "
              "words of their mega-menus), its breadcrumb trail (a class, id or aria-label naming "
              "breadcrumbs, or schema.org's BreadcrumbList), wherever it lies, and what it "
              "chose in its sidebar (an <aside> or role=complementary outside any article or "
              "main)")
    careful_header_menu: bool = Field(
        True, description="The site's menu in the page's own header (a <nav> or "
        "role=navigation outside any article or main, inside the <header> or role=banner "
        "of careful_page_chrome) is part of that header where hide holds back for the "
        "segmenter's doubts and the header is in careful_page_chrome: hidden as the header "
        "itself is; not on pages held back for their type (a shop's or a service's "
        "mega-menu names what the page lists) nor where the main content is a guess "
        "(careful_sidebar_uncertain_share)")
    careful_sidebar_uncertain_share: float = Field(
        0.5, ge=0, le=1, description="Share of the page's text the segmenter is unsure of "
        "above which the sidebar and the menu of careful_page_chrome, and the lists of "
        "restraint_link_lists, are left too: the main "
        "content is a guess there (on wcxb-dev the one page the sidebar cost gold text on, "
        "and the one the menu cost most on, were such pages); 1: never")
    veto_links_p: float = Field(0.2, ge=0, le=1, description="Least main-content "
                                "probability of a region for the veto to keep a container "
                                "that is nearly all links (veto_links_density of its text, "
                                "veto_links_min links or more): a column of a site's links "
                                "the segmenter half believes (0.1 to 0.14 on cleaneval-dev's "
                                "table layouts) is no text to keep; at most veto_p: such a "
                                "container has the veto of any other")
    veto_links_density: float = Field(0.9, ge=0, le=1, description="Least link density of "
                                      "a container veto_links_p applies to")
    veto_links_min: int = Field(10, ge=1, description="Least links of a container "
                                "veto_links_p applies to")
    caption_chars: int = Field(80, ge=0, description="Most characters of a heading that "
                               "names a hidden block right after it ('Recent posts' above "
                               "its list), hidden with it; 0: headings stay")
    grow: bool = Field(True, description="Hide a container whole when all its text is "
                       "hidden (one target and one overlay box instead of many)")
    hide_comments: bool = Field(False, description="Also hide comment sections outside the "
                                "main content (off: a thread's replies are often the content)")
    comment_sections: bool = Field(True, description="Hide a comment section whole however "
                                   "wordy: an element named for comments (class or id) or "
                                   "a region the segmenter labels comments, holding no main "
                                   "region and at least one region labeled comments")
    comments_forum_p: float = Field(0.2, ge=0, le=1, description="comment_sections stays "
                                    "off on a page the segmenter takes for a forum thread, "
                                    "or gives at least this probability of being one (a "
                                    "thread's replies are its content)")
    restraint_link_lists: bool = Field(True, description="Where hide holds back for the "
                                       "segmenter's doubts, it still hides what it chose that "
                                       "is a list of links: at least list_min_links links, "
                                       "list_density of its text in links, at most "
                                       "list_anchor_chars characters a link (not above "
                                       "careful_sidebar_uncertain_share; every fold of sites "
                                       "chose it, docs/hide.md)")
    list_on_typed: bool = Field(False, description="restraint_link_lists on pages held back "
                                "for their type too (careful_page_types), not only where "
                                "the segmenter is unsure")
    list_min_links: int = Field(5, ge=1, description="Least links of a list of links")
    list_density: float = Field(0.9, ge=0, le=1, description="Least link density of a list "
                                "of links")
    list_anchor_chars: int = Field(40, ge=1, description="Most characters a link of a list "
                                   "of links holds on average")
    segments: bool = Field(False, description="Also hide the learned segmenter's regions "
                           "labeled links, ad, comments or other (auto's blocks) that it is "
                           "sure are not main content (off: out of fold it costs gold text)")
    segment_links_p: float = Field(0.05, ge=0, le=1, description="Most main-content "
                                   "probability of a links or ad region that is hidden")
    segment_other_p: float = Field(0.0, ge=0, le=1, description="Most main-content "
                                   "probability of a region labeled other that is hidden")
    segment_prose_chars: int = Field(200, ge=0, description="Most text outside links a hidden "
                                     "region labeled other may hold (more is prose: kept)")


class HideTarget(WireModel):
    """One element the extension hides (its whole subtree), with why."""

    kind: TargetKind
    element_id: str | None = Field(None, description="Stamped id (pages from the extension)")
    xpath: str | None = Field(None, description="XPath in the parsed tree (pages without ids)")
    reason: str = Field(description="Why it is hidden, in words")
    links: int = Field(0, ge=0, description="Links inside")
    link_density: float = Field(0.0, ge=0, le=1, description="Share of its text in links")
    chars: int = Field(0, ge=0, description="Visible characters inside")


class MainRegion(WireModel):
    """One region of the main content, drawn as one box: sibling elements (their union)."""

    element_ids: list[str] = Field(default_factory=list)
    xpaths: list[str] = Field(default_factory=list)
    chars: int = Field(0, ge=0, description="Visible characters inside")


class HidePlan(WireModel):
    """What the extension hides and draws (PROTOCOL.md, ``hide`` in a result reply)."""

    version: int = HIDE_PLAN_VERSION
    page_kind: PageKind = "article"
    targets: list[HideTarget] = Field(default_factory=list)
    main_ids: list[str] = Field(default_factory=list, description="Outermost main elements")
    main_xpaths: list[str] = Field(default_factory=list)
    main_regions: list[MainRegion] = Field(
        default_factory=list, description="The main content as regions (one box each in the "
                                          "overlay): runs of main elements grouped by structure")
    index: list[IndexItem] = Field(default_factory=list,
                                   description="Index pages: the page's stories")
    restraint: str = Field("", description="Why hide holds back on this page (only what "
                           "restrained_to says is hidden), in words (empty: all the clutter "
                           "found is hidden)")
    restrained_to: str = Field("", description="What is still hidden where hide holds back, "
                               "in words read from the targets themselves (\"ads and "
                               "banners\", \"the page's own breadcrumbs\"; empty without "
                               "restraint or without targets)")


@dataclass
class _Stats:
    chars: int = 0
    link_chars: int = 0
    links: int = 0


@dataclass
class Segment:
    """One region of a learned segmenter (auto): a subtree whose text blocks share a kind."""

    element: etree._Element
    kind: str
    excluded: list[etree._Element]
    p_main: float


@dataclass
class Decision:
    """A hide plan with its tree elements (for host-side evaluation)."""

    plan: HidePlan
    elements: list[etree._Element] = field(default_factory=list)


def _ad_slot_tag(element: etree._Element) -> bool:
    """An ``<ins>`` an ad network fills (AdSense's, Revive's), not HTML's mark of inserted
    text: a tutorial's listing marks the lines it added with ``<ins>`` ("After adding the
    highlighted lines"), a changelog or a wiki its edits. An edit carries ``datetime`` or
    ``cite``, lies in code or preformatted text, or is part of a line of text (text runs
    beside it in its parent); an ad slot is a box of its own. (A class or id naming an ad
    makes any element an ad slot, ``<ins class="adsbygoogle">`` too.)"""
    if element.tag != "ins" or element.get("datetime") is not None \
            or element.get("cite") is not None:
        return False
    if any(a.tag in ("pre", "code", "samp", "kbd") for a in element.iterancestors()):
        return False
    parent = element.getparent()
    if parent is None:
        return True
    beside = [parent.text or ""] + [child.tail or "" for child in parent]
    return not any(text.strip() for text in beside)


def _invisible(element: etree._Element) -> bool:
    """Hidden in the page itself: ``hidden`` attribute, an inline display:none style, a
    ``<dialog>`` not open (a browser draws none until a script opens it, which sets
    ``open`` in the live DOM the extension snapshots), or a ``popover`` (drawn only while
    open: a menu or card the user opened and left open is rarely what hide is asked about)."""
    if element.get("hidden") is not None or element.get("popover") is not None:
        return True
    if element.tag == "dialog" and element.get("open") is None:
        return True
    style = element.get("style")
    return bool(style and HIDDEN_STYLE.search(style))


def measure(root: etree._Element) -> dict[etree._Element, _Stats]:
    """Visible characters, link characters and links of every element under ``root``.

    One pass of lxml's walker (start and end events, a hidden subtree skipped); text inside
    ``a[href]`` counts as link text.
    """
    stats: dict[etree._Element, _Stats] = {}
    if not isinstance(root.tag, str):
        return stats
    # the open elements' stats and whether they lie in a link, innermost last (None: hidden)
    open_stats: list[tuple[_Stats, bool] | None] = []
    walker = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    for event, node in walker:
        if event == "start":
            if node.tag in NON_TEXT_TAGS or _invisible(node):
                walker.skip_subtree()
                open_stats.append(None)
                continue
            is_link = node.tag == "a" and node.get("href") is not None
            linked = is_link or (bool(open_stats) and open_stats[-1][1])
            own = _Stats(links=1 if is_link else 0)
            text = node.text
            if text:
                own.chars = len(text.strip())
                if linked:
                    own.link_chars = own.chars
            stats[node] = own
            open_stats.append((own, linked))
            continue
        if event == "end":
            entry = open_stats.pop()
            if not open_stats:
                continue
            parent, parent_linked = open_stats[-1]
            if entry is not None:
                own = entry[0]
                parent.chars += own.chars
                parent.link_chars += own.link_chars
                parent.links += own.links
        elif not open_stats:
            continue
        else:
            parent, parent_linked = open_stats[-1]
        tail = node.tail  # a child's tail is its parent's text
        if tail:
            length = len(tail.strip())
            parent.chars += length
            if parent_linked:
                parent.link_chars += length
    return stats


def _elements_by_id(page: Page) -> dict[str, etree._Element]:
    attr = page.id_attr
    return {el.get(attr): el for el in page.iter_elements() if el.get(attr) is not None}


def _resolve(page: Page, ids: Iterable[str], xpaths: Iterable[str],
             by_id: dict[str, etree._Element] | None) -> list[etree._Element]:
    found: list[etree._Element] = []
    for value in ids:
        element = by_id.get(value) if by_id is not None else None
        if element is not None:
            found.append(element)
    for path in xpaths:
        try:
            hits = page.tree.xpath(path)
        except (etree.XPathError, ValueError):  # not a path, or one lxml refuses to read
            continue
        if isinstance(hits, list):  # an expression may be a number, a string, a boolean
            found.extend(h for h in hits if isinstance(h, etree._Element))
    return found


def main_elements(page: Page, result: ExtractionResult | None,
                  by_id: dict[str, etree._Element] | None = None) -> list[etree._Element]:
    """Outermost elements of the main content: ``result.main`` plus blocks of kind main."""
    if result is None:
        return []
    ids: list[str] = []
    xpaths: list[str] = []
    if result.main is not None:
        ids += result.main.element_ids
        xpaths += result.main.xpaths
    for block in result.blocks:
        if block.kind == "main":
            ids += block.element_ids
            xpaths += block.xpaths
    if ids and by_id is None:
        by_id = _elements_by_id(page)
    elements = _resolve(page, dict.fromkeys(ids), dict.fromkeys(xpaths), by_id)
    chosen = set(elements)
    tops = []
    for element in dict.fromkeys(elements):
        if not any(a in chosen for a in element.iterancestors()):
            tops.append(element)
    body = page.body
    # the whole body is no "main content" a page can be cleaned around
    return [t for t in tops if t is not body and t is not page.tree]


def segments_of(page: Page, result: ExtractionResult | None,
                by_id: dict[str, etree._Element] | None = None) -> list[Segment]:
    """The learned segmenter's regions with their main-content probability.

    From ``result.extra["segments"]`` (auto's regions, each with its own probability) when
    the result was computed in this process, else from the blocks: a block holds one region,
    or a run of sibling main regions (its ids, or its XPaths, one per region), each with
    the block's probability and the subtrees whose ids the block leaves out as exclusions.
    Empty for algorithms whose blocks carry no ``p_main``.
    """
    if result is None or not result.blocks:
        return []
    if not all(b.confidence is not None and "p_main" in b.features for b in result.blocks):
        return []
    found = result.extra.get("segments") if isinstance(result.extra, dict) else None
    if found:
        return [Segment(el, kind, list(excluded), float(p)) for el, kind, excluded, p in found]
    if by_id is None and any(b.element_ids for b in result.blocks):
        by_id = _elements_by_id(page)
    out = []
    for block in result.blocks:
        p_main = float(block.features["p_main"])
        if block.element_ids:
            ids = set(block.element_ids)
            elements = _resolve(page, block.element_ids, (), by_id)
            roots = [e for e in elements if e.getparent() is None
                     or e.getparent().get(page.id_attr) not in ids]
        else:
            roots = _resolve(page, (), block.xpaths, by_id)
        for element in roots:
            excluded = []
            if block.element_ids:
                excluded = [d for d in element.iterdescendants()
                            if isinstance(d.tag, str) and d.get(page.id_attr) is not None
                            and d.get(page.id_attr) not in ids
                            and d.getparent().get(page.id_attr) in ids]
            out.append(Segment(element, block.kind, excluded, p_main))
    return out


def main_regions(main: Sequence[etree._Element], stats: dict[etree._Element, _Stats],
                 body: etree._Element, gap_chars: int = 300,
                 hidden: dict[etree._Element, str] | None = None,
                 small_chars: int = 60, label_chars: int = 80) -> list[list[etree._Element]]:
    """The main content as regions: runs of sibling main elements, lifted to their parent when
    they (nearly) fill it, so that an article is one region, not one per paragraph.

    Two runs under one parent join when the text between them is at most ``gap_chars`` or a
    quarter of theirs (an ad or a caption between paragraphs); a run becomes its parent when
    the parent's other text is at most a quarter of the run's or at most ``label_chars`` (a
    field's name beside its chosen description, a method's signature line above its chosen
    text), and at most ``gap_chars``, so that the items of a reference page's list join
    although the model chose some names and not others. A region inside another is none of
    its own. The box of
    the main content does not enclose chrome: runs do not join across a ``hidden`` element
    (element → kind) of more than ``small_chars`` characters, and a run does not become a
    parent holding hidden elements besides it, ads (inside an article) excepted.
    """
    def chars(element: etree._Element) -> int:
        s = stats.get(element)
        return s.chars if s is not None else 0

    blocking: set[etree._Element] = set()  # holds hidden chrome
    large: set[etree._Element] = set()  # holds hidden chrome of more than small_chars
    for element, kind in (hidden or {}).items():
        if kind != "ad":
            for found in (blocking, large) if chars(element) > small_chars else (blocking,):
                found.add(element)
                found.update(element.iterancestors())

    def clear(elements: Iterable[etree._Element], within: set[etree._Element]) -> bool:
        return not any(e in within for e in elements)

    regions: list[list[etree._Element]] = [[m] for m in main]
    changed = True
    while changed:
        changed = False
        merged: list[list[etree._Element]] = []
        for region in regions:
            last = merged[-1] if merged else None
            parent = region[0].getparent()
            if last is not None and parent is not None and last[0].getparent() is parent:
                children = list(parent)
                start, end = children.index(last[-1]), children.index(region[0])
                if start < end:
                    gap = sum(chars(c) for c in children[start + 1:end])
                    ours = sum(chars(e) for e in last + region)
                    if gap <= max(gap_chars, ours // 4) and clear(children[start + 1:end], large):
                        last.extend(children[start + 1:end] + region)
                        changed = True
                        continue
            merged.append(list(region))
        regions = []
        for region in merged:
            parent = region[0].getparent()
            ours = sum(chars(e) for e in region)
            if (parent is not None and parent is not body and parent.tag != "html"
                    and chars(parent) - ours <= min(gap_chars, max(ours // 4, label_chars))
                    and clear((c for c in parent if c not in region), blocking)):
                regions.append([parent])
                changed = True
            else:
                regions.append(region)
        # a lifted region may now hold another, before or after it
        tops = {e for region in regions for e in region}
        regions = [region for region in regions
                   if not any(a in tops for a in region[0].iterancestors())]
    return [[e for e in region if chars(e) or e in main] for region in regions]


def _linkblock_links(page: Page, linkblocks: ExtractionResult | None) -> list[etree._Element]:
    """The ``a[href]`` elements whose start lies inside a paper link block's span."""
    if linkblocks is None:
        return []
    spans = sorted((b.start, b.end) for b in linkblocks.blocks if b.kind == "links")
    if not spans:
        return []
    starts = [s for s, _ in spans]
    found = []
    for anchor in page.body.iter("a"):
        if anchor.get("href") is None:
            continue
        start, _end = page.span(anchor)
        index = bisect.bisect_right(starts, start) - 1
        if index >= 0 and start < spans[index][1]:
            found.append(anchor)
    return found


#: Page types whose reader view must be their main text: a segmenter that takes a page for
#: one of these overrides the structural index rule (service is left out: hubs of links, and
#: small pages without metadata, are called service; see careful_min_p).
_NEVER_INDEX = frozenset({"article", "documentation", "forum", "product"})
#: A main content of at least this many characters, under :data:`PROSE_MAIN_LINKS` of them
#: link text, holding at most one of the page's story headlines, is an article's text, never
#: an index's (:func:`page_kind`).
PROSE_MAIN_CHARS = 500
PROSE_MAIN_LINKS = 0.25


def page_kind(page: Page, result: ExtractionResult | None,
              stats: dict[etree._Element, _Stats] | None = None,
              main: Sequence[etree._Element] | None = None, *, prose_veto: bool = True
              ) -> PageKind:
    """``index`` for portal front pages and section indexes, else ``article``.

    By structure: half the page's visible text is link text and the main content holds
    under 30 % of it; or at least 8 story headlines that are links, and the main content is
    either short (under 1500 characters) or itself link-dense (>= 0.4), or holds at least 5
    of those headlines. The reader shows an index as its headlines instead of its main text,
    so a page a segmenter takes for an article, a documentation page, a forum thread or a
    product (:func:`predicted_type`) is never one: out of fold, the structure alone made an
    index of 29 of 409 wcxb-dev articles and 130 of 691 dragnet pages, with the veto 1 and 45.
    Nor is one whose main content is running text holding at most one of the headlines
    (``prose_veto``, :data:`PROSE_MAIN_CHARS`): a story beside its related stories. The hide
    plan acts on the kind without that veto (:func:`decide`: such a page's story lists stay
    as they did) and names the page with it, as the reader does.
    """
    if predicted_type(result) in _NEVER_INDEX:
        return "article"
    if stats is None:
        stats = measure(page.body)
    tops = list(main) if main is not None else main_elements(page, result)
    main_chars = sum(stats[t].chars for t in tops if t in stats)
    main_links = sum(stats[t].link_chars for t in tops if t in stats)
    headlines = _headline_links(page.body)
    top_set = set(tops)
    inside = sum(1 for h in headlines
                 if h in top_set or any(a in top_set for a in h.iterancestors()))
    if (prose_veto and main_chars >= PROSE_MAIN_CHARS
            and main_links < PROSE_MAIN_LINKS * main_chars and inside <= 1):
        # the main content is running text holding none of the story headlines: an article
        # with its "related stories" beside it (tv.msnbc.com's 1,387-character story under 18
        # linked headlines read "This page is an index of 12 stories" and showed those)
        return "article"
    body = stats.get(page.body)
    if body is not None and body.chars and body.link_chars >= 0.5 * body.chars \
            and main_chars < 0.3 * body.chars:
        return "index"  # mostly links, and the main content is a small part of the page
    if len(headlines) < 8:
        return "article"
    if main_chars < 1500 or main_links >= 0.4 * max(1, main_chars) or inside >= 5:
        return "index"
    return "article"


def _near(element: etree._Element, neighbourhood: set[etree._Element], levels: int = 4
          ) -> bool:
    for depth, ancestor in enumerate(element.iterancestors()):
        if depth >= levels:
            return False
        if ancestor in neighbourhood:
            return True
    return False


def _protected(page: Page, main: Sequence[etree._Element], title: str
               ) -> tuple[set[etree._Element], set[etree._Element]]:
    """(roots whose subtrees are protected, their ancestors): the main content, the headline
    (the ``<h1>`` matching the title, else every ``<h1>``) and the byline / date elements
    near the main content (anywhere when there is none)."""
    roots: set[etree._Element] = set(main)
    neighbourhood: set[etree._Element] = set()
    # the <article> holding the main text: its own byline line may sit far from the text
    # blocks (a meta line closing the story), always right inside it
    stories: set[etree._Element] = set()
    for top in main:
        for depth, ancestor in enumerate(top.iterancestors()):
            if depth >= 3 or ancestor is page.body:
                break
            neighbourhood.add(ancestor)
        story = next(top.iterancestors("article"), None)
        if story is not None:
            stories.add(story)
    headings = list(page.body.iter("h1"))
    # a document title is often "Story | Site": the story is its longest part
    wanted = max(re.split(r"\s+[|\-–—·:]\s+", " ".join(title.split()).lower()), key=len)
    matching = [h for h in headings if wanted and _similar(" ".join(
        h.text_content().split()).lower(), wanted)]
    near = [h for h in headings if _inside(h, set(main)) or _near(h, neighbourhood)]
    roots.update(matching + near or headings)
    datelines = _datelines(page)
    for element in page.body.iter():
        if not isinstance(element.tag, str):
            continue
        byline = (element.tag in ("time", "address")
                  or element.get("itemprop") in ("author", "datePublished", "headline")
                  or element.get("rel") == "author"
                  or bool(_tokens(element) & _BYLINE_TOKENS and len(element) < 8)
                  or element in datelines)
        if byline and (not main or _near(element, neighbourhood)
                       or _near(element, stories, levels=2)):
            roots.add(element)
    return roots, ancestors_of(roots)


_FOUR_DIGITS = re.compile(r"\d{4}")


def _datelines(page: Page) -> set[etree._Element]:
    """Short elements whose whole text is a written-out date (``_DATELINE``): looked for
    only from the elements whose own text holds a year, and the two above them."""
    found: set[etree._Element] = set()
    seen: set[etree._Element] = set()
    search = _FOUR_DIGITS.search
    for node in page.body.iter():
        if not isinstance(node.tag, str):
            continue
        own = None if node.tag in NON_TEXT_TAGS else node.text  # a script's code is no date
        for element, text in ((node, own), (node.getparent(), node.tail)):
            if not text or search(text) is None:
                continue
            for _ in range(3):
                if element is None or element in seen or len(element) > 3:
                    break
                seen.add(element)
                words = " ".join("".join(element.itertext()).split())
                if len(words) > _DATELINE_CHARS:
                    break
                if len(words) >= 8 and _DATELINE.match(words) is not None:
                    found.add(element)
                element = element.getparent()
    return found


def _asks_cookie_consent(element: etree._Element) -> bool:
    """Whether a banner's own words ask for consent to cookies."""
    text = " ".join(element.itertext())
    return _COOKIE_WORD.search(text) is not None and _CONSENT_WORD.search(text) is not None


_DIALOG_ROLES = frozenset({"dialog", "alertdialog"})


def _consent_banner(element: etree._Element, tokens: set[str]) -> bool:
    """Whether ``element`` is a cookie consent banner: named for cookies or consent (a
    consent platform's name, a token holding "cookie") or a dialog (``<dialog>``, a dialog
    role, ``aria-modal``, a class naming a modal or pop-up), whose own words ask for consent
    to cookies."""
    named = bool(tokens & _CONSENT_WORDS or _consent_platform_root(tokens)
                 or any("cookie" in token or "consent" in token for token in tokens))
    dialog = _dialog(element) or bool(tokens & _GENERIC_BANNER_TOKENS)
    return (named or dialog) and _asks_cookie_consent(element)


def _dialog(element: etree._Element) -> bool:
    """Whether ``element`` says it is a dialog: ``<dialog>``, a dialog role or ``aria-modal``."""
    return (element.tag == "dialog" or (element.get("role") or "").lower() in _DIALOG_ROLES
            or (element.get("aria-modal") or "").lower() == "true")


def _in_content(element: etree._Element) -> bool:
    """Whether ``element`` lies inside the page's ``<main>``, ``role=main`` or an
    ``<article>``: a dialog there (by its role, no class naming a banner) is a sheet or drawer
    of the page's own content, as a shop's product description, size chart or delivery terms
    that slide open from the page, and is held to ``max_prose_chars`` like a modal or pop-up
    named by its class."""
    return any(a.tag in ("main", "article") or (a.get("role") or "").lower() == "main"
               for a in element.iterancestors())


def _consent_platform_root(tokens: set[str]) -> bool:
    """Whether an element's class or id names a consent platform's own root (see
    :data:`_CONSENT_PLATFORM_IN_TOKEN`)."""
    return bool(tokens & _CONSENT_PLATFORMS) or any(
        _CONSENT_PLATFORM_IN_TOKEN.search(token) for token in tokens)


#: What shows something without words in the page's copy: an empty consent root holding one
#: is no banner (Complianz's placeholder around a blocked video).
_EMBEDS = ("img", "picture", "video", "audio", "iframe", "object", "embed", "canvas", "svg")


_CONSENT_TITLE = re.compile(r"\b(?:consent|cookies?|gdpr)\b", re.I)


def _consent_frame(element: etree._Element) -> bool:
    """Whether ``element`` is a dialog (``<dialog>``, a dialog role, ``aria-modal``) showing
    a consent platform's message in a frame titled or named for consent or cookies
    (Sourcepoint's ``<iframe title="SP Consent Message">``): its words are not in the page."""
    if not _dialog(element):
        return False
    return any(_CONSENT_TITLE.search(frame.get("title") or "") or _tokens(frame) & _CONSENT_WORDS
               for frame in element.iter("iframe"))


def _names_story(element: etree._Element, title: str) -> bool:
    """Whether ``element`` holds a heading naming the page's story (the longest part of its
    ``Story | Site`` title): a forum's topic title sits in a bar of links above the posts."""
    wanted = max(re.split(r"\s+[|\-–—·:]\s+", " ".join(title.split()).lower()), key=len)
    return bool(wanted) and any(_similar(" ".join(h.text_content().split()).lower(), wanted)
                                for h in element.iter("h1", "h2", "h3"))


def _similar(heading: str, title: str) -> bool:
    """A heading and a title name the same story (one holds most of the other)."""
    if not heading:
        return False
    return heading in title or title in heading or len(
        set(heading.split()) & set(title.split())) >= 0.6 * len(set(heading.split()))


def _prose(element: etree._Element, longest: int) -> bool:
    """Whether ``element`` holds a run of text outside links longer than ``longest``."""
    for node in element.iter():
        if not isinstance(node.tag, str) or node.tag in NON_TEXT_TAGS:
            continue
        in_link = node.tag == "a" or any(a.tag == "a" for a in node.iterancestors("a"))
        if not in_link and node.text and len(node.text.strip()) > longest:
            return True
        if node is not element and node.tail and len(node.tail.strip()) > longest:
            parent = node.getparent()
            if parent is not None and parent.tag != "a" and not any(
                    True for _ in parent.iterancestors("a")):
                return True
    return False


def _inside(element: etree._Element, roots: set[etree._Element]) -> bool:
    if element in roots:
        return True
    return any(a in roots for a in element.iterancestors())


def _structural_kind(element: etree._Element, tokens: set[str]) -> tuple[str, str] | None:
    """(kind, reason) when the element's tag, role, class or id names chrome."""
    tag = element.tag
    role = (element.get("role") or "").lower()
    if tokens & _AD_TOKENS or _ad_slot_tag(element):
        name = sorted(tokens & _AD_TOKENS)
        return "ad", f"ad slot ({name[0]})" if name else "ad slot"
    if (tokens & _CONSENT_WORDS or any("cookie" in token for token in tokens)) \
            and _in_menu(element) and not _asks_cookie_consent(element):
        # a kitchen shop's menu item 'Cookie Cutters' (navmenu-id-cookie-cutters) is no
        # cookie banner: in a menu, only one asking for consent is
        tokens = {t for t in tokens if t not in _CONSENT_WORDS and "cookie" not in t}
    if (tokens & _BANNER_TOKENS or role in ("dialog", "alertdialog")) and not (
            tokens & _BANNER_TOKENS <= _GENERIC_BANNER_TOKENS
            and role not in ("dialog", "alertdialog") and _picture_caption(element)):
        # (a card's words laid over its picture in its link, named only an overlay by its
        # class, are the card's: a shop's product names and prices, 75 of them on one
        # collection page, went as "overlay banners")
        name = sorted(tokens & _BANNER_TOKENS)
        what = name[0] if name else role
        return "other", f"{what} banner"
    if _consent_platform_root(tokens) or any("cookie" in token for token in tokens):
        return "other", "cookie banner"
    if tag == "nav" or role in _ROLE_KINDS and _ROLE_KINDS[role] == "nav":
        # (named as a reader sees it: the landmark role "banner" is the page's header,
        # "contentinfo" its footer; they read "page banner" and "page contentinfo")
        return "nav", "navigation" if tag == "nav" or role == "navigation" else \
            _ROLE_NAMES.get(role, f"page {role}")
    # a header or footer inside an <article> is that item's own (a comment's author and date,
    # a post's meta line), not the page's: its tag alone does not make it chrome
    if tag in ("header", "footer") and next(element.iterancestors("article"), None) is None:
        return "nav", f"page {tag}"
    if tokens & _NAV_TOKENS:
        return "nav", f"navigation bar (class {sorted(tokens & _NAV_TOKENS)[0]})"
    if tokens & _SHARE_TOKENS:
        return "other", "share buttons"
    if tag == "aside" or role == "complementary" or tokens & _RELATED_TOKENS:
        name = sorted(tokens & _RELATED_TOKENS)
        return "links", f"{name[0]} box" if name else "aside"
    if tokens & _COMMENT_TOKENS:
        return "comments", "comment section"
    style = element.get("style")
    if style and _STYLE_FIXED.search(style):
        return "other", "fixed bar"
    return None


#: What holds a site's drop-down menus: a menu role, a ``<nav>``, a class or id naming a menu
#: or drop-down (:data:`index_items._MENU_TOKENS`).
_DROP_DOWN_ROLES = frozenset({"menu", "menubar", "listbox"})


def _drop_down(element: etree._Element) -> bool:
    """Whether ``element``, a box named only a modal, pop-up, overlay or interstitial by its
    class or a dialog by its role, is a drop-down of the site's menu: it is a menu by its
    role, or lies in a menu (a menu role, a ``<nav>``, a class naming a menu or drop-down;
    the nearest ``<main>`` or ``<article>`` ends the search), and asks no consent to cookies.
    A Q&A network's top bar opens its help and site-switcher menus from ``<div
    class="topbar-dialog" role="menu">`` holding ``<div class="modal-content">``: its
    overlay read "modal banner"."""
    if _tokens(element) & _BANNER_TOKENS - _GENERIC_BANNER_TOKENS:
        return False  # a newsletter or cookie banner, whatever else it is called
    for node in (element, *element.iterancestors()):
        if node.tag in ("main", "article", "body"):
            return False
        if node.tag == "nav" or (node.get("role") or "").lower() in _DROP_DOWN_ROLES \
                or _tokens(node) & _MENU_TOKENS:
            return not _asks_cookie_consent(element)
    return False


#: A pop-up that is mostly a list of links is a menu: at least this many links to a page
#: (not ``#...`` or ``javascript:``), at least half its text in links, no form field.
_POP_UP_MENU_LINKS = 3
_FORM_FIELDS = ("input", "select", "textarea")


def _mostly_links(element: etree._Element, stats: _Stats | None) -> bool:
    """Whether ``element`` is mostly a list of links to pages: at least
    :data:`_POP_UP_MENU_LINKS` links leading to a page, at least half its visible text in
    links, and no form field (a search or sign-in box with a few suggestions is a form, not
    a menu)."""
    if stats is None or not stats.chars or stats.link_chars < 0.5 * stats.chars:
        return False
    if any((field.get("type") or "").lower() != "hidden" for field in element.iter(*_FORM_FIELDS)):
        return False
    return len(_page_links(element)) >= _POP_UP_MENU_LINKS


def _page_links(element: etree._Element) -> list[str]:
    """The addresses of ``element``'s links that lead to a page (not ``#...`` or
    ``javascript:``), stripped."""
    hrefs = ((a.get("href") or "").strip() for a in element.iter("a"))
    return [h for h in hrefs if h and not h.lower().startswith(("#", "javascript:"))]


#: Social sites a page is shared to; a link there is a share button when its address asks
#: to share (a share or submit path, a tweet or post intent, the page's address in its query)
_SOCIAL_HOSTS = re.compile(
    r"(?:^|\.)(?:facebook\.com|fb\.com|twitter\.com|x\.com|linkedin\.com|pinterest\.[a-z.]+"
    r"|reddit\.com|tumblr\.com|vk\.com|ok\.ru|weibo\.com|xing\.com|getpocket\.com"
    r"|flipboard\.com|whatsapp\.com|wa\.me|t\.me|telegram\.me|line\.me|threads\.net"
    r"|bsky\.app|digg\.com|mix\.com|buffer\.com|addtoany\.com|sharethis\.com)$", re.I)
_SHARE_INTENT = re.compile(r"shar(?:e|er|ing)|intent/(?:tweet|post)|pin/create|submit|/send"
                           r"|[?&](?:url|u|status|text|body)=", re.I)
#: A list of sign-in providers says so ("Log in with Google", "Continue with Apple"), or its
#: links lead to an identity provider or a site's sign-in or OAuth address
_SIGN_IN_WORDS = re.compile(
    r"\b(?:log|sign)[\s-]?(?:in|on|up)\s+(?:with|using|via|through)\b"
    r"|\bcontinue\s+with\s+(?:google|apple|facebook|microsoft|github|linkedin|twitter|x|"
    r"amazon|email)\b", re.I)
_SIGN_IN_PATH = re.compile(r"(?:^|[/._-])(?:oauth2?|openid|sso|auth|authorize|login|log-in|"
                           r"signin|sign-in|signup|sign-up|register|account)(?:$|[/._?-])",
                           re.I)
_IDENTITY_HOSTS = frozenset({"accounts.google.com", "appleid.apple.com", "login.live.com",
                             "login.microsoftonline.com"})
#: A lightbox's controls name pictures: "Previous image", "Next photo", "All images"
_GALLERY_WORDS = re.compile(r"\b(?:previous|prev|next)\s+(?:image|photo|picture|slide)s?\b"
                            r"|\ball\s+(?:images|photos|pictures)\b"
                            r"|\b(?:enlarge|zoom)\s+(?:image|photo|picture)\b", re.I)
#: A price as a shop writes it ("$ 425.00", "EUR 16.34", "12,95 €")
_PRICE = re.compile(r"(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CAD|AUD)\b)\s?\d[\d,.]*"
                    r"|\d[\d,.]*\s?(?:[€£]|\b(?:USD|EUR|GBP|kr)\b)")
_PRODUCT_WORDS = re.compile(r"\b(?:view product|add to (?:cart|bag|basket)|buy now|shop now|"
                            r"you may also like|frequently bought|customers also|complete the "
                            r"look)\b", re.I)


def _share_link(href: str) -> str:
    """"intent" when a link shares the page (a social site's share or post address, an
    e-mail or message to no one yet: ``mailto:?subject=...``, ``whatsapp://send``),
    "social" when it leads to a social site otherwise (a profile), else ""."""
    low = href.strip().lower()
    if low.startswith(("mailto:?", "sms:?", "whatsapp:", "fb-messenger:", "tg:")):
        return "intent"
    try:
        parts = urlsplit(low)
    except ValueError:
        return ""
    if not (parts.hostname and _SOCIAL_HOSTS.search(parts.hostname)):
        return ""
    return "intent" if _SHARE_INTENT.search(f"{parts.path}?{parts.query}") else "social"


def _sign_in_link(href: str) -> bool:
    """Whether a link leads to a sign-in: an identity provider, or an OAuth or sign-in
    address."""
    try:
        parts = urlsplit(href.strip().lower())
    except ValueError:
        return False
    return (parts.hostname or "") in _IDENTITY_HOSTS or bool(_SIGN_IN_PATH.search(parts.path))


def _list_name(element: etree._Element) -> str:
    """What a pop-up that is a list of links (a drop-down menu by :func:`_named`'s rules)
    is when it is no menu of the site: a **pop-up opened on click** when its controls name
    pictures (a gallery's lightbox: "Previous image", "All images"), **sign-in options**
    when its words offer them ("Log in with Google") or most of its links, at least
    :data:`_POP_UP_MENU_LINKS`, lead to a sign-in (two, "Sign up or log in to customize
    your list", are a line of a menu),
    **share buttons** when at least half its links lead to social sites and either one asks
    to share the page (:func:`_share_link`) or its words or class say share, a
    **recommended box** when it shows prices with a product's words (a shop's upsell: "View
    product", "Add to cart"); else "drop-down menu"."""
    text = " ".join(" ".join(element.itertext()).split())
    if _GALLERY_WORDS.search(text):
        return "pop-up opened on click"
    pages = _page_links(element)
    if _SIGN_IN_WORDS.search(text) or (len(pages) >= _POP_UP_MENU_LINKS and 2 * sum(
            map(_sign_in_link, pages)) > len(pages)):
        return "sign-in options"
    social = [kind for kind in map(_share_link, pages) if kind]
    if len(social) >= 2 and 2 * len(social) >= len(pages) and (
            "intent" in social or re.search(r"\bshar(?:e|ing)\b", text, re.I)
            or _tokens(element) & _SHARE_TOKENS):
        return "share buttons"
    if len(_PRICE.findall(text)) >= 2 and _PRODUCT_WORDS.search(text):
        return "recommended box"
    return "drop-down menu"


def opened_by_controls(body: etree._Element) -> frozenset[str]:
    """The ids of what a control on the page says it opens: the ``aria-controls`` (or
    ``aria-owns``) of an element that has ``aria-haspopup`` (not ``false``) or
    ``aria-expanded``, as a logo or a button opening a pop-up has."""
    ids: set[str] = set()
    for node in body.iter():
        if not isinstance(node.tag, str):
            continue
        popup = (node.get("aria-haspopup") or "false").strip().lower() != "false"
        if popup or node.get("aria-expanded") is not None:
            for name in ("aria-controls", "aria-owns"):
                ids.update((node.get(name) or "").split())
    return frozenset(ids)


#: A frame that plays a video: a video site's player, or one allowed what only players ask for
_VIDEO_HOSTS = re.compile(
    r"(?:^|\.)(?:youtube\.com|youtube-nocookie\.com|youtu\.be|vimeo\.com|dailymotion\.com"
    r"|wistia\.(?:com|net)|vidyard\.com|brightcove\.net|jwplayer\.com|twitch\.tv"
    r"|loom\.com|tiktok\.com)$", re.I)
_VIDEO_FRAME_WORDS = re.compile(r"\bvideo\b|encrypted-media|picture-in-picture", re.I)


def _video_frame(frame: etree._Element) -> bool:
    """Whether an ``<iframe>`` plays a video: its address is a video site's, or its title or
    ``allow`` says video (``title="YouTube video player"``, ``allow="encrypted-media"``)."""
    src = (frame.get("src") or frame.get("data-src") or "").strip()
    try:
        host = urlsplit(src).hostname or ""
    except ValueError:
        host = ""
    return bool(_VIDEO_HOSTS.search(host)) or any(
        _VIDEO_FRAME_WORDS.search(frame.get(name) or "") for name in ("title", "allow"))


def _videos(element: etree._Element) -> list[etree._Element]:
    """The video players in ``element``: ``<video>`` elements and frames playing a video."""
    return [node for node in element.iter("video", "iframe")
            if node.tag == "video" or _video_frame(node)]


def _words_of(element: etree._Element) -> str:
    """The words ``element`` shows (scripts and styles left out), spaces collapsed."""
    parts = [node.text for node in element.iter()
             if isinstance(node.tag, str) and node.tag not in NON_TEXT_TAGS]
    parts += [node.tail for node in element.iterdescendants()]
    return " ".join(" ".join(part for part in parts if part).split())


#: Most characters a video pop-up shows beside its player (a title, the player's controls:
#: "Audio Subtitles Off elapsed 00:00"); more is a message or a form with a video in it
_VIDEO_POP_UP_CHARS = 200


def _on_video(element: etree._Element) -> bool:
    """Whether ``element``, holding no video of its own, is laid on a video player: its
    parent, or an ancestor showing no word more than it does, holds one beside it (a
    product page's player shows the reviewer's name and the video's title over the
    picture)."""
    if _videos(element):
        return False
    words = len(_words_of(element))
    for node in element.iterancestors():
        if node.tag in ("body", "main", "article") or len(_words_of(node)) > words:
            return False
        if _videos(node):
            return True
    return False


def _form_field(element: etree._Element) -> bool:
    """Whether ``element`` holds a form field a reader fills (not ``type=hidden``)."""
    return any((f.get("type") or "").lower() != "hidden" for f in element.iter(*_FORM_FIELDS))


def _picture_caption(element: etree._Element) -> bool:
    """Whether ``element`` is the caption of a link's picture: it lies inside a link to a
    page that shows a picture beside it (an ``<img>`` or ``<picture>`` of the link's, outside
    the box), and shows none itself: a shop's tile names its product and price over the
    product's photo, a video's tile its title ("Watch the full episode")."""
    if next(element.iter("img", "picture"), None) is not None:
        return False
    link = next(element.iterancestors("a"), None)
    if link is None or not (link.get("href") or "").strip() or \
            (link.get("href") or "").strip().lower().startswith(("#", "javascript:")):
        return False
    return any(not _inside(node, {element}) for node in link.iter("img", "picture"))


#: Least characters of a tile's headline (a picture's link with a few words beside it)
_TILE_WORDS = 15


def _story_tiles(element: etree._Element) -> bool:
    """Whether ``element`` is a box of story tiles: each of its links to a page shows a
    photo and is or holds a headline (a photo, :func:`_photo`, in the link, and a
    heading around or inside it of at least :data:`_TILE_WORDS` characters), and it holds
    no form field: a news front page's promotions of other stories, whose class names the
    text laid over their pictures. (A button with a logo, "Continue with Google", is no
    headline.)"""
    links = [a for a in element.iter("a")
             if (a.get("href") or "").strip()
             and not (a.get("href") or "").strip().lower().startswith(("#", "javascript:"))]
    if not links or _form_field(element):
        return False

    def tile(link: etree._Element) -> bool:
        if not any(_photo(node) for node in link.iter("img", "picture")):
            return False
        headings = [*link.iter(*_HEADLINE_TAGS)] + [
            a for a in link.iterancestors(*_HEADLINE_TAGS)]
        return any(len(_words_of(h)) >= _TILE_WORDS for h in headings)

    return all(map(tile, links))


_HEADLINE_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _photo(node: etree._Element) -> bool:
    """Whether an ``<img>`` or ``<picture>`` shows a photo, not an icon: a ``<picture>``, or
    an image whose address is no SVG drawing (a card's "Chat on Discord" over its icon is a
    call to action, no story)."""
    if node.tag == "picture":
        return True
    src = (node.get("src") or node.get("data-src") or "").strip().lower()
    return not (src.startswith("data:image/svg") or urlsplit(src).path.endswith(".svg"))


def _cards(element: etree._Element) -> bool:
    """Whether the links of a pop-up are cards, not a menu's items: at least half of its
    links to a page hold a heading or a paragraph of their own ("Book your clean" over a
    sentence saying for whom): a pop-up asking where to start, whose choices describe
    themselves, as no menu of the site does."""
    links = [a for a in element.iter("a")
             if (a.get("href") or "").strip()
             and not (a.get("href") or "").strip().lower().startswith(("#", "javascript:"))]
    cards = [a for a in links
             if next(a.iter("p", "h2", "h3", "h4", "h5", "h6"), None) is not None]
    return bool(cards) and 2 * len(cards) >= len(links)


def _generic_banner(reason: str) -> bool:
    """Whether ``reason`` names a banner only by a word that also names pop-ups of content
    (modal, pop-up, overlay, interstitial) or by a dialog role."""
    head, banner, _rest = reason.partition(" banner")
    return bool(banner) and head in _GENERIC_BANNER_TOKENS | _DIALOG_ROLES


#: A banner's class word (:data:`_BANNER_TOKENS`, other than cookie or consent words) in a
#: reader's words: what the box is for ("sign-up", not "signup")
_BANNER_PURPOSES = {"newsletter": "newsletter", "subscribe": "subscription",
                    "subscription": "subscription", "signup": "sign-up", "paywall": "paywall"}
#: Class words that say a box pops up over the page ("overlay" alone does not: a card's
#: gradient, a tile's caption, a bar laid over a picture are named so too)
_POP_UP_TOKENS = frozenset({"modal", "popup", "interstitial"})
#: Fields a reader types into (not a button, a box to tick or a hidden value)
_NOT_TYPED = frozenset({"hidden", "submit", "button", "reset", "image", "checkbox", "radio",
                        "file", "range", "color"})
#: Words of a box asking to sign in ("Sign in", "Log in", "Forgot your password?"), or to
#: make an account ("Sign up", "Register", "Create an account")
_SIGN_IN_PHRASE = re.compile(r"\b(?:(?:sign|log)[\s-]?(?:in|on)|login|logon|password)\b", re.I)
_SIGN_UP_PHRASE = re.compile(r"\b(?:sign[\s-]?up|register|create\s+(?:an?\s+|your\s+)?account)\b",
                             re.I)
_SUBSCRIBE_PHRASE = re.compile(r"\b(?:subscri|newsletter)", re.I)
_FORGOT_PASSWORD = re.compile(r"\b(?:forgot(?:ten)?|lost|reset)\s+(?:your\s+)?password", re.I)
_SEARCH_WORD = re.compile(r"search", re.I)


def _pops_up(element: etree._Element, tokens: set[str]) -> bool:
    """Whether ``element`` is a box popping up over the page: a dialog (:func:`_dialog`), or
    its class or id names a modal, a pop-up or an interstitial."""
    return _dialog(element) or bool(tokens & _POP_UP_TOKENS)


def _typed_fields(element: etree._Element) -> list[etree._Element]:
    """The fields of ``element`` a reader types into (a text, e-mail, password or search
    box, a text area)."""
    return [f for f in element.iter("input", "textarea")
            if f.tag == "textarea" or (f.get("type") or "text").strip().lower() not in _NOT_TYPED]


def _control_words(element: etree._Element) -> str:
    """The words ``element``'s headings and controls show: its headings, legends, labels,
    buttons and summaries, and its buttons' values and fields' labels and placeholders (a
    sign-in box says "Sign in" there; a cart saying "Have an account? Log in to check out
    faster" says it in a line of text)."""
    parts = [_words_of(node) for node in element.iter(*_HEADLINE_TAGS, "legend", "label",
                                                       "button", "summary")]
    for box in element.iter("input", "textarea"):
        if (box.get("type") or "").strip().lower() in ("submit", "button"):
            parts.append(box.get("value") or "")
        parts += [box.get("aria-label") or "", box.get("placeholder") or ""]
    return " ".join(part for part in parts if part)


def _account_form(element: etree._Element) -> str:
    """"sign-in" or "sign-up" when ``element`` is a box to sign in or to make an account: it
    has a password field (which of the two by the first words it shows asking for one:
    "Sign Up First Name ... Password", sign-in when none does), or a field to type into and
    either a heading or control asking to sign in or log in before any asking to sign up or
    subscribe ("Sign in" over an e-mail field and "Continue"), or a link for a forgotten
    password; "" for any other box (an e-mail field under "Subscribe", with "Already a
    subscriber? Log in" below it, is a newsletter's; a cart saying "Log in to check out
    faster" is a cart)."""
    fields = _typed_fields(element)
    if not fields:
        return ""
    text = _words_of(element)
    if not any((f.get("type") or "").strip().lower() == "password" for f in fields):
        said = _control_words(element)
        sign_in = _SIGN_IN_PHRASE.search(said)
        others = [m.start() for m in (_SIGN_UP_PHRASE.search(said), _SUBSCRIBE_PHRASE.search(said))
                  if m]
        asked = sign_in is not None and all(sign_in.start() < at for at in others)
        return "sign-in" if asked or _FORGOT_PASSWORD.search(text) else ""
    sign_in, sign_up = _SIGN_IN_PHRASE.search(text), _SIGN_UP_PHRASE.search(text)
    if sign_up is not None and (sign_in is None or sign_up.start() < sign_in.start()):
        return "sign-up"
    return "sign-in"


def _search_box(element: etree._Element) -> bool:
    """Whether ``element`` is a search box: a field to type into that is a search field
    (``type=search``, ``role=search``, a name, id, class, placeholder or label saying search,
    or the query's usual names ``q`` and ``s``), or in a box whose class, id or role says
    search."""
    fields = _typed_fields(element)
    if not fields:
        return False
    boxes = [element, *(n for n in element.iter("form", "div", "section") if n is not element)]
    if any(_SEARCH_WORD.search(f"{n.get('class') or ''} {n.get('id') or ''} "
                               f"{n.get('role') or ''}") for n in boxes if isinstance(n.tag, str)):
        return True
    return any((f.get("type") or "").lower() == "search" or (f.get("name") or "") in ("q", "s")
               or any(_SEARCH_WORD.search(f.get(name) or "")
                      for name in ("name", "id", "class", "placeholder", "aria-label", "title"))
               for f in fields)


#: Roles of a menu's items that are no links (a select menu's choices)
_MENU_ITEM_ROLES = frozenset({"menuitem", "menuitemradio", "menuitemcheckbox", "option"})


def _menu_items(element: etree._Element, stats: _Stats | None) -> bool:
    """Whether ``element``, lying in a menu, is a drop-down of its items: it holds a link to a
    page or an item by its role (``menuitem``, ``option``), and where it says it is a dialog
    (:func:`_dialog`) or has a field to type into (a select menu's filter), at least half its
    visible text is in links. A dialog in a footer's menu showing the terms of service (no
    link: a heading and a Close button) or a "Remove this product?" prompt in the header's
    menu are pop-ups, not drop-down menus; a part of a site switcher's drop-down saying "Sign
    up or log in to customize your list" is the drop-down's."""
    if not _page_links(element) and not any(
            (node.get("role") or "").lower() in _MENU_ITEM_ROLES for node in element.iter()
            if isinstance(node.tag, str)):
        return False
    if not _dialog(element) and not _typed_fields(element):
        return True
    if stats is None:
        stats = measure(element).get(element)
    return stats is not None and stats.chars > 0 and 2 * stats.link_chars >= stats.chars


def _named(element: etree._Element, reason: str, stats: _Stats | None = None,
           opened: frozenset[str] = frozenset()) -> str:
    """``reason`` as the overlay shows it, naming a box for what a reader sees where its class
    or role named it: a banner by a word that also names pop-ups (modal, pop-up, overlay,
    interstitial) or a dialog role, or a banner for a newsletter, a subscription, a sign-up
    or a paywall. A cookie or consent banner (by its class or its words) keeps its name.

    * a box for a newsletter, a subscription, a sign-up or a paywall by its class is named
      for it (the class word "modal" or "popup" beside "newsletter" made it a "modal
      banner"), as a **pop-up** where it pops up over the page (:func:`_pops_up`: a
      "newsletter pop-up") and a banner otherwise ("newsletter banner");

    and a box its class calls only a modal, pop-up, overlay or interstitial, or its role a
    dialog, is:

    * the **page header** or **page footer** when it is the page's own ``<header>`` or
      ``<footer>`` (:func:`_page_frame`), whose class names an overlay or a modal;
    * a **video pop-up** when it holds a video player (:func:`_videos`) and shows few words
      beside it (:data:`_VIDEO_POP_UP_CHARS`): a testimonial's or a keynote's player opened
      over the page;
    * a **video overlay** when it is laid on a video player (:func:`_on_video`): a product
      page's player shows the reviewer's name and the video's title over the picture, and
      read "drop-down menu" (its three links to the reviewer's shop);
    * a **picture caption** when it is the caption of a link's picture
      (:func:`_picture_caption`): a shop's tile names its product and price over its photo,
      and read "overlay banner";
    * a **recommended box** when it is a box of story tiles (:func:`_story_tiles`): a news
      page's promotions of other stories, their headlines over their photos, read "overlay
      banner";
    * a **sign-in pop-up** or **sign-up pop-up** when it is a box to sign in or to make an
      account (:func:`_account_form`): "Nickname: Password: Forgot your password?" read
      "modal banner", or "drop-down menu" in the header's menu;
    * a **search pop-up** when it is a search box (:func:`_search_box`): a header's search
      sheet read "overlay banner", or "drop-down menu" in the header's menu;
    * a **drop-down menu** when it is a drop-down of the site's menu (:func:`_drop_down`)
      holding its items (:func:`_menu_items`: a dialog in a menu holding no link, as a
      footer menu's terms-of-service dialog, is none), or is itself mostly a list of links
      to pages (:func:`_mostly_links`; not a ``<header>``, ``<footer>`` or ``<nav>`` bar): a
      site switcher, a region chooser, a side drawer's menu; or what such a list is when it
      is no menu (:func:`_list_name`), and outside a menu a **pop-up** when its links are
      cards (:func:`_cards`): "Where would you like to start?" over two choices, each a
      heading and a sentence;
    * a **pop-up opened on click** when a control on the page says it opens it
      (:func:`opened_by_controls`, the ids in ``opened``): a Q&A network's logo opens a
      ``role=dialog`` describing the network (``aria-haspopup``, ``aria-controls``), which a
      reader opens and the site does not push, as it does a banner;
    * else a **pop-up** when its class names a modal, a pop-up or an interstitial, or it is
      a dialog (a modal is no banner: a strip across the page is), and an **overlay banner**
      when only its class names an overlay (a card's gradient, a bar over a picture).

    Only the words change: the decision was taken on the box's class and role."""
    head, banner, rest = reason.partition(" banner")
    if not banner or head not in _GENERIC_BANNER_TOKENS | _DIALOG_ROLES | _BANNER_PURPOSES.keys():
        return reason
    tokens = _tokens(element)
    if tokens & _BANNER_TOKENS - _GENERIC_BANNER_TOKENS - _BANNER_PURPOSES.keys() or \
            _asks_cookie_consent(element):
        return reason  # a cookie banner, whatever else it is called
    purposes = sorted(tokens & _BANNER_PURPOSES.keys())
    if head in _BANNER_PURPOSES or purposes:
        purpose = _BANNER_PURPOSES[head if head in _BANNER_PURPOSES else purposes[0]]
        return f"{purpose} {'pop-up' if _pops_up(element, tokens) else 'banner'}" + rest
    frame = _page_frame(element)
    if frame:
        # the page's own <header> or <footer> whose class names an overlay or a modal (a
        # theme's "oxy-overlay-header", a header "has-search-modal"): named as its tag says
        return f"page {frame}" + rest
    if _videos(element) and len(_words_of(element)) <= _VIDEO_POP_UP_CHARS:
        return "video pop-up" + rest  # a player opened over the page, and its controls
    if _on_video(element):
        return "video overlay" + rest  # words laid on a player: its title, its channel
    if _picture_caption(element):
        return "picture caption" + rest  # a tile's words over its picture, in its link
    if _story_tiles(element):
        return "recommended box" + rest  # tiles of stories, their headlines over pictures
    account = _account_form(element)
    if account:
        return f"{account} pop-up" + rest  # a box to sign in, wherever it lies
    if _search_box(element):
        return "search pop-up" + rest
    dropped = _drop_down(element)
    in_menu = dropped and _menu_items(element, stats)
    if in_menu or (element.tag not in ("header", "footer", "nav")
                   and _mostly_links(element, stats)):
        # (a list of links that is no menu of the site is named for what it is)
        name = _list_name(element)
        if name == "drop-down menu" and not in_menu and _cards(element):
            name = "pop-up"  # choices describing themselves: a prompt, no menu
        return name + rest
    if dropped and _list_name(element) != "drop-down menu":
        # a pop-up of a menu that is no drop-down of its items, but shares the page, offers
        # to sign in ("Create your account or log in", its links to both) or a gallery
        return _list_name(element) + rest
    if element.get("id") and element.get("id") in opened:
        return "pop-up opened on click" + rest
    if head != "overlay" or dropped or _pops_up(element, tokens):
        return "pop-up" + rest  # a dialog, a modal, a menu's pop-up: no strip across the page
    return reason


_BREADCRUMB = re.compile("breadcrumb", re.I)


def _breadcrumbs(element: etree._Element) -> bool:
    """Whether ``element`` is a breadcrumb trail: a class, id or ``aria-label`` naming one, or
    ``itemtype`` BreadcrumbList (a trail is the site's frame wherever it lies)."""
    return any(_BREADCRUMB.search(element.get(name) or "")
               for name in ("class", "id", "aria-label")) or \
        "BreadcrumbList" in (element.get("itemtype") or "")


def _frame_parts(element: etree._Element, header_menu: bool = False) -> set[str]:
    """The parts of the page's own frame (careful_page_chrome) ``element`` is or lies in:
    its header or footer (the element itself), breadcrumbs, menu, sidebar; with
    ``header_menu`` (``careful_header_menu``), a page menu inside the page's header is
    part of that header too."""
    parts = {_page_frame(element)} - {""}
    if _breadcrumbs(element):
        parts.add("breadcrumbs")
    if _page_menu(element):
        parts.add("menu")
        if header_menu and _in_page_header(element):
            parts.add("header")
    if _page_sidebar(element):
        parts.add("sidebar")
    return parts


def _in_page_header(element: etree._Element) -> bool:
    """Whether ``element`` lies inside the page's own header (:func:`_page_frame`)."""
    return any(_page_frame(a) == "header" for a in element.iterancestors())


def _page_menu(element: etree._Element) -> bool:
    """Whether ``element`` is or lies in the page's own menu: a ``<nav>`` or
    ``role=navigation`` with no ``<article>``, ``<main>`` or ``role=main`` around it (a
    story's table of contents, a post's pager, is the story's own)."""
    for node in (element, *element.iterancestors()):
        if node.tag == "nav" or (node.get("role") or "").lower() == "navigation":
            return not any(a.tag in ("article", "main") or (a.get("role") or "").lower()
                           == "main" for a in node.iterancestors())
    return False


def _page_sidebar(element: etree._Element) -> bool:
    """Whether ``element`` is or lies in the page's own sidebar: an ``<aside>`` or
    ``role=complementary`` with no ``<article>``, ``<main>`` or ``role=main`` around it (an
    aside inside an article is the story's own: a pull quote, a post's author pane)."""
    for node in (element, *element.iterancestors()):
        if node.tag == "aside" or (node.get("role") or "").lower() == "complementary":
            return not any(a.tag in ("article", "main") or (a.get("role") or "").lower()
                           == "main" for a in node.iterancestors())
    return False


@dataclass(frozen=True)
class _Held:
    """What hide may still take where it holds back (see :func:`decide`)."""

    frame: frozenset[str]
    header_menu: bool
    lists: bool
    sure_p: float


#: Words for what a held-back plan hides, in the order a message lists them; the page's own
#: frame after them ("the page's own header and footer").
_HELD_WORDS = ("ads", "banners", "drop-down menus", "pop-ups", "video overlays",
               "picture captions", "share buttons", "sign-in options", "recommended boxes",
               "fixed bars", "lists of links")
_FRAME_ORDER = ("header", "footer", "menu", "breadcrumbs", "sidebar")
_SURE_WORDS = "what auto is sure is not main content"
#: The first words of a reason naming something other than a banner (:func:`_named`,
#: :func:`_structural_kind`) -> the words a held-back plan's message uses for it (a name
#: ending in "pop-up", a sign-in, search, newsletter or video pop-up, is one of the pop-ups)
_REASON_WORDS = (("drop-down menu", "drop-down menus"), ("pop-up", "pop-ups"),
                 ("video overlay", "video overlays"),
                 ("picture caption", "picture captions"),
                 ("share buttons", "share buttons"), ("sign-in options", "sign-in options"),
                 ("recommended box", "recommended boxes"),
                 ("fixed bar", "fixed bars"), ("page header", "header"),
                 ("page footer", "footer"))


def _held_part(element: etree._Element, reason: str, kind: str, s: _Stats, held: _Held,
               params: HideParams, likely: dict[etree._Element, float]) -> str:
    """What one element of a held-back plan is, in the words its message uses: by what it
    was named (an ad, a banner, a drop-down menu, ...), else which part of the page's own
    frame it is or lies in, else a list of links, else what the segmenter is sure of."""
    if kind == "ad":
        return "ads"
    if kind == "other":
        if reason.split(":")[0].endswith("pop-up"):
            return "pop-ups"  # a sign-in, search, newsletter or video pop-up, a dialog
        for start, words in _REASON_WORDS:
            if reason.startswith(start):
                return words
        return "banners"
    parts = _frame_parts(element, held.header_menu)
    own = _page_frame(element)
    if own and own in held.frame:
        return own
    for part in ("breadcrumbs", "sidebar", "menu"):
        if part in parts and part in held.frame:
            return part
    if "menu" in parts and "header" in parts:
        # a menu inside the page's header, taken with it, is the page's menu: not the
        # header, which may stay
        return "menu"
    if held.lists and _link_list(s, params):
        return "lists of links"
    if likely.get(element, 0.0) < held.sure_p:
        return _SURE_WORDS
    return "lists of links" if kind == "links" else "navigation" if kind == "nav" \
        else "comment sections"


def _what_is_hidden(keep: Sequence[etree._Element], named: dict[etree._Element, str],
                    chosen: dict[etree._Element, tuple[str, str]],
                    stats: dict[etree._Element, _Stats],
                    captions: dict[etree._Element, etree._Element], held: _Held,
                    params: HideParams, likely: dict[etree._Element, float]) -> str:
    """A held-back plan's ``restrained_to``: what its elements are, in words ("ads, banners
    and the page's own header and footer"), each named once; "" for a plan hiding nothing.
    A heading hidden with the block it names is that block's part."""
    found: set[str] = set()
    for element in keep:
        block = captions.get(element, element)
        if block in chosen:
            kind, reason = chosen[block]
            reason = named.get(block) or _named(block, reason, stats[block])
            found.add(_held_part(block, reason, kind, stats[block], held, params, likely))
    words = [w for w in _HELD_WORDS if w in found] + sorted(
        found - set(_HELD_WORDS) - set(_FRAME_ORDER) - {_SURE_WORDS})
    frame = [part for part in _FRAME_ORDER if part in found]
    if frame:
        words.append("the page's own " + _words_list(frame))
    if _SURE_WORDS in found:
        words.append(_SURE_WORDS)
    return _words_list(words)


def _words_list(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def predicted_type(result: ExtractionResult | None) -> str:
    """The page type a segmenter predicted (auto: ``extra["page_type"]``, else the most
    probable of its ``stats["page_type.*"]``); "" when none."""
    if result is None:
        return ""
    if isinstance(result.extra, dict) and result.extra.get("page_type"):
        return str(result.extra["page_type"])
    probs = {k[len("page_type."):]: v for k, v in result.stats.items()
             if k.startswith("page_type.")}
    return max(probs, key=probs.get) if probs and max(probs.values()) > 0 else ""


def _maybe_forum(result: ExtractionResult | None, params: HideParams) -> bool:
    """Whether the segmenter takes the page for a forum thread, or gives it at least
    ``comments_forum_p`` of being one (a thread's live copy can tip it either way)."""
    return result is not None and (predicted_type(result) == "forum" or float(
        result.stats.get("page_type.forum", 0.0)) >= params.comments_forum_p)


def _careful_type(result: ExtractionResult | None, params: HideParams) -> bool:
    """Whether the segmenter predicts one of ``careful_page_types`` (with at least
    ``careful_min_p``)."""
    kind = predicted_type(result)
    return bool(result is not None and kind and kind in params.careful_page_types
                and float(result.stats.get(f"page_type.{kind}", 1.0)) >= params.careful_min_p)


def _careful(result: ExtractionResult | None, params: HideParams) -> str:
    """Why hide holds back on this page ("" when it does not): a page type hide is careful on
    (``careful_page_types``, predicted with at least ``careful_min_p`` probability), or a page
    much of whose text the segmenter is unsure of (``careful_uncertain_share``; index pages
    too: exempting them lost gold text on 8 more of 749 wcxb-dev pages out of fold, with
    the one-pass segmenter)."""
    if result is None:
        return ""
    if _careful_type(result, params):
        return (f"this looks like a {predicted_type(result)} page, whose content is spread "
                "over the page")
    unsure = float(result.stats.get("uncertain_share", 0.0))
    if unsure > params.careful_uncertain_share:
        return f"{result.algorithm} is unsure about {unsure:.0%} of this page's text"
    return ""


def _little_main(result: ExtractionResult | None, chars: int, whole: bool = False) -> str:
    """Why hide holds back where the main content found is short (``min_main_chars``), in
    words a reader can check: who found how much. "little main content was found" read, on
    a short note whose every word is its text, as if the page had little to say; the
    segmenter had found none of it. ``whole``: the segmenter labelled every block of the
    page main, a region of the whole page, which leaves no main content to clean around
    (:func:`main_elements`); it did find main text, all of it."""
    who = result.algorithm if result is not None and result.algorithm else "blocksift"
    if whole:
        return f"{who} took the whole page for its main text"
    if not chars:
        return f"{who} found no main text here"
    return f"{who} found only {chars} characters of main text here"


def _all_links(stats: _Stats, params: HideParams) -> bool:
    """Whether a container is nearly all links, and many (``veto_links_density``,
    ``veto_links_min``): what ``veto_links_p`` applies to."""
    return (stats.links >= params.veto_links_min
            and stats.link_chars >= params.veto_links_density * stats.chars)


def _link_list(stats: _Stats, params: HideParams) -> bool:
    """Whether a container is a list of links with short anchors (``list_min_links``,
    ``list_density``, ``list_anchor_chars``)."""
    return (stats.links >= params.list_min_links
            and stats.link_chars >= params.list_density * stats.chars
            and stats.link_chars <= params.list_anchor_chars * stats.links)


def _link_line(element: etree._Element, stats: _Stats | None, params: HideParams) -> bool:
    """Whether a ``<p>`` is a line of links rather than running text: at least
    ``link_line_density`` of its visible text is link text, and it is no byline (a class or
    id naming one, or a link to the author: a story's authors may be a line of links far
    from the text the segmenter found)."""
    if stats is None or not stats.links or not stats.chars or (
            stats.link_chars < params.link_line_density * stats.chars):
        return False
    if _tokens(element) & _BYLINE_TOKENS:
        return False
    return not any(node.get("rel") == "author" or node.get("itemprop") in ("author", "name")
                   for node in element.iter() if isinstance(node.tag, str))


def _likeliest_main(segments: Sequence[Segment]) -> dict[etree._Element, float]:
    """Per element holding a segmenter region (itself or below), the highest main-content
    probability of those regions."""
    likely: dict[etree._Element, float] = {}
    for segment in segments:
        for node in (segment.element, *segment.element.iterancestors()):
            if likely.get(node, -1.0) >= segment.p_main:
                break
            likely[node] = segment.p_main
    return likely


_CAPTION_TAGS = frozenset(("h2", "h3", "h4", "h5", "h6"))


def _caption_of(element: etree._Element, longest: int) -> etree._Element | None:
    """The short heading right before ``element`` (its previous sibling element, with no
    text between them), which names it: "Recent posts" above a list of links."""
    heading = element.getprevious()
    while heading is not None and not isinstance(heading.tag, str):
        heading = heading.getprevious()  # comments and processing instructions
    if heading is None or (heading.tail or "").strip():
        return None
    if heading.tag not in _CAPTION_TAGS and (heading.get("role") or "").lower() != "heading":
        return None
    text = " ".join(heading.text_content().split())
    return heading if text and len(text) <= longest else None


def _describe(stats: _Stats) -> tuple[float, str]:
    density = stats.link_chars / stats.chars if stats.chars else 0.0
    links = f"{stats.links} link" + ("" if stats.links == 1 else "s")
    if not stats.links and stats.link_chars:
        # link text without a link of its own: it lies inside one (a tile's caption over its
        # picture, inside the tile's link); "0 links, link density 1.00" said two things
        links = "inside a link"
    if stats.links and not stats.link_chars:
        # links with no text of their own (icons: a row of share buttons); "9 links, link
        # density 0.00" read as if they were no links at all (wcxb-dev 4359)
        return density, f"{links}, none with text (icons or pictures)"
    return density, f"{links}, link density {density:.2f}"


_MEDIA = ("img", "picture", "video", "audio", "figure", "table", "canvas", "svg", "math")


def _grow(body: etree._Element, chosen: dict[etree._Element, tuple[str, str]],
          stats: dict[etree._Element, _Stats], allowed, stories: set[etree._Element]) -> None:
    """Add to ``chosen`` every allowed container whose visible text all lies in chosen
    elements (children before parents, so growth goes up as far as it can)."""
    covered: dict[etree._Element, int] = {}
    for element in reversed(list(body.iter())):
        if not isinstance(element.tag, str):
            continue
        s = stats.get(element)
        if s is None:
            continue
        if element in chosen:
            covered[element] = s.chars
            continue
        children = [c for c in element if isinstance(c.tag, str) and c in stats]
        covered[element] = sum(covered.get(c, 0) for c in children)
        if (not s.chars or covered[element] < s.chars or element.tag not in _CONTAINER_TAGS
                or not allowed(element) or element in stories
                or element.get("role") == "main"):
            continue
        picked = [c for c in children if c in chosen]
        if len(picked) < 2:
            continue  # one hidden child is hidden already: nothing to join
        rest = [c for c in children if c not in chosen]
        if any(c.tag in _MEDIA or next(c.iter(*_MEDIA), None) is not None for c in rest):
            continue
        weights: Counter[str] = Counter()
        for child in picked:
            weights[chosen[child][0]] += stats[child].chars or 1
        kind = weights.most_common(1)[0][0]
        _density, words = _describe(s)
        chosen[element] = (kind, f"holds only hidden blocks ({len(picked)}), {words}, "
                                 "outside the main text")
        covered[element] = s.chars


def _main_of(page: Page, result: ExtractionResult | None,
             by_id: dict[str, etree._Element] | None, main_segments: list[Segment]
             ) -> tuple[list[etree._Element], dict[etree._Element, list[etree._Element]]]:
    """The outermost main elements and, per segmenter region, the subtrees it excludes."""
    body = page.body
    if not main_segments:
        return main_elements(page, result, by_id), {}
    # the segmenter's main regions, without the subtrees it labels otherwise (an ad
    # inside the article is not main content)
    tops = {s.element for s in main_segments}
    main = [s.element for s in main_segments
            if s.element is not body and s.element is not page.tree
            and not any(a in tops for a in s.element.iterancestors())]
    return main, {s.element: s.excluded for s in main_segments if s.excluded}


class PageSummary(WireModel):
    """What the reader view needs of the page beside its main text (``page`` in a result
    reply with ``action: "reader"``): the kind of page the hide plan would name, and an
    index page's stories."""

    page_kind: PageKind = "article"
    index: list[IndexItem] = Field(default_factory=list,
                                   description="Index pages: the page's stories")


def page_summary(page: Page, result: ExtractionResult | None) -> PageSummary:
    """The hide plan's ``pageKind`` and ``index`` alone, without the link blocks and the
    containers to hide (the reader view shows neither): same main content, same rule."""
    by_id = _elements_by_id(page) if page.has_ids else None
    main_segments = [s for s in segments_of(page, result, by_id) if s.kind == "main"]
    main, _ = _main_of(page, result, by_id, main_segments)
    kind = page_kind(page, result, measure(page.body), main)
    return PageSummary(page_kind=kind, index=index_items(page) if kind == "index" else [])


def decide(page: Page, result: ExtractionResult | None,
           linkblocks: ExtractionResult | None, params: HideParams | None = None
           ) -> Decision:
    """The hide plan of ``page`` from its main content (``result``) and the paper's link
    blocks (``linkblocks``); pure: the page is not changed."""
    params = params or HideParams()
    body = page.body
    stats = measure(body)
    has_ids = page.has_ids
    by_id = _elements_by_id(page) if has_ids else None
    segments = segments_of(page, result, by_id)
    main_segments = [s for s in segments if s.kind == "main"]
    main, excluded_of = _main_of(page, result, by_id, main_segments)
    title = result.main.title if result is not None and result.main is not None else ""
    roots, holders = _protected(page, main, title or page.title)
    # hide acts on the page's structure; the plan names the page as the reader shows it
    # (a story beside its related headlines is an article there: page_kind's prose_veto)
    kind_of_page = page_kind(page, result, stats, main, prose_veto=False)
    named_kind = (kind_of_page if kind_of_page == "article"
                  else page_kind(page, result, stats, main))
    stories: set[etree._Element] = set()
    if kind_of_page == "index":
        for heading in _headline_links(body):
            stories.add(heading)
            stories.update(heading.iterancestors())
    chosen: dict[etree._Element, tuple[str, str]] = {}

    # everything inside a protected root, computed once (membership tests are then O(1));
    # a main region's excluded subtrees are left out (each main region nested in one is
    # protected on its own)
    inside: set[etree._Element] = set()
    for segment in main_segments:
        walker = etree.iterwalk(segment.element, events=("start",))
        skip = set(segment.excluded)
        for _event, node in walker:
            if node in skip:
                walker.skip_subtree()
                continue
            inside.add(node)
        for node in segment.element.iterancestors():
            if node in holders:
                break
            holders.add(node)
    for root in roots:
        if root not in excluded_of:
            inside.update(root.iter())

    def allowed(element: etree._Element) -> bool:
        return (element is not body and element in stats and element not in holders
                and element not in inside)

    def dense(element: etree._Element) -> bool:
        s = stats.get(element)
        if s is None or s.links == 0 or not s.chars:
            return False
        if element.get("role") == "main":
            return False
        return (s.link_chars >= params.link_density * s.chars
                and s.chars - s.link_chars <= params.max_prose_chars)

    # 0. the segmenter's regions it is sure are not main content, whole
    if params.segments and main_segments:
        limits = {"links": params.segment_links_p, "ad": params.segment_links_p,
                  "other": params.segment_other_p,
                  "comments": params.segment_links_p if params.hide_comments else -1.0}
        for segment in segments:
            element = segment.element
            if (segment.kind == "main" or segment.p_main > limits.get(segment.kind, -1.0)
                    or segment.excluded or not allowed(element) or element in stories
                    or element.tag in ("main", "article") or element.get("role") == "main"):
                continue
            s = stats[element]
            if not s.chars:
                continue
            if segment.kind == "other" and s.chars - s.link_chars > params.segment_prose_chars:
                continue
            found = _structural_kind(element, _tokens(element))
            kind = (found[0] if found and segment.kind in ("links", "other")
                    and found[0] != "comments" else segment.kind)
            what = f"{found[1]}, " if found else ""
            _density, words = _describe(s)
            chosen[element] = (kind, f"{what}labeled {segment.kind} by the segmenter (main "
                                     f"probability {segment.p_main:.2f}), {words}, outside "
                                     "the main text")

    # 1. containers of the paper's link blocks, chosen by structure (an index page's link
    #    lists are its content: there only the chrome of step 2 goes)
    signal = _linkblock_links(page, linkblocks) if kind_of_page == "article" else []
    for anchor in signal:
        if not allowed(anchor):
            continue
        container = anchor.getparent()
        while container is not None and container.tag not in _CONTAINER_TAGS:
            if container.tag == "p" and _link_line(container, stats.get(container), params):
                break  # a line of links ("« Previous | Main | Next »"), no sentence
            if container is body or container.tag == "p":
                container = None  # a link in running text: left alone
                break
            container = container.getparent()
        if container is None or not allowed(container) or not dense(container):
            continue
        while True:
            parent = container.getparent()
            if (parent is None or parent.tag in ("main", "article") or not allowed(parent)
                    or not dense(parent)):
                break
            container = parent
        if container in stories and kind_of_page == "index":
            continue
        if stats[container].links < params.min_links:
            continue
        _density, words = _describe(stats[container])
        found = _structural_kind(container, _tokens(container))
        kind, what = found if found and found[0] != "comments" else ("links", "")
        prefix = f"{what}: " if what else ""
        chosen.setdefault(container, (kind, f"{prefix}{words}, outside the main text"))

    # 1b. an ad slot inside the main content (a segmenter may take it for a paragraph): short,
    #     named an ad by its class or id, holding no paragraph, heading or list, and no
    #     headline or byline
    if params.ad_in_main_chars:
        named = roots - set(main)
        near_named: set[etree._Element] = set()
        for root in named:
            near_named.update(root.iter())
            near_named.update(root.iterancestors())
        for element in body.iter():
            if (not isinstance(element.tag, str) or element not in inside
                    or element in near_named or element in chosen
                    or element.tag not in _CONTAINER_TAGS or element not in stats):
                continue
            tokens = _tokens(element)
            if not (tokens & _AD_TOKENS) and not _ad_slot_tag(element):
                continue
            s = stats[element]
            if s.chars - s.link_chars > params.ad_in_main_chars or next(
                    element.iter("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "table"),
                    None) is not None:
                continue
            if any(a in chosen for a in element.iterancestors()):
                continue
            _density, words = _describe(s)
            name = sorted(tokens & _AD_TOKENS)
            chosen[element] = ("ad", f"ad slot ({name[0] if name else element.tag}) inside the "
                                     f"article: {words}")

    # 2. structural chrome
    for element in body.iter():
        if not isinstance(element.tag, str) or element.tag not in _CONTAINER_TAGS:
            continue
        if not allowed(element):
            continue
        found = _structural_kind(element, _tokens(element))
        if found is None:
            continue
        kind, what = found
        if kind == "comments" and not params.hide_comments:
            continue
        if kind_of_page == "index" and element in stories and kind == "links":
            continue
        s = stats[element]
        if element.get("role") == "main":
            continue
        if kind in ("nav", "links") and element.tag not in ("nav", "header", "footer") and (
                not s.chars or s.link_chars < params.chrome_link_density * s.chars):
            continue
        wordy = kind in ("other", "ad") and what.split()[0] not in _GENERIC_BANNER_TOKENS \
            and not (what.split()[0] in _DIALOG_ROLES and _in_content(element))
        limit = params.banner_prose_chars if wordy else params.max_prose_chars
        if kind == "nav" and (element.tag == "nav" or (element.get("role") or "").lower()
                              == "navigation") and _page_menu(element):
            limit = max(limit, params.menu_prose_chars)
        if s.chars - s.link_chars > limit:
            continue
        if s.chars == 0 and element.tag not in ("iframe", "ins") and kind != "ad":
            continue  # nothing a reader sees
        _density, words = _describe(s)
        chosen.setdefault(element, (kind, f"{what}: {words}, outside the main text"))

    # 2c. comment sections whole, however wordy, where the segmenter calls them comments
    #     (not on what may be a forum thread, whose replies are its content)
    comment_sections: set[etree._Element] = set()
    if params.comment_sections and segments and not _maybe_forum(result, params):
        comment_regions = {seg.element for seg in segments if seg.kind == "comments"}
        holding: set[etree._Element] = set()
        for element in comment_regions:
            holding.add(element)
            holding.update(element.iterancestors())
        # a comment's author and date are no byline of the story: a section holding them
        # may go, one holding the main content or the headline never
        core = {r for r in roots if r.tag == "h1"} | set(main) | {
            seg.element for seg in main_segments}
        core_holders = ancestors_of(core)

        def open_to_comments(element: etree._Element) -> bool:
            return (element is not body and element in stats and element not in core_holders
                    and not any(a in core for a in (element, *element.iterancestors())))

        for element in body.iter():
            if (not isinstance(element.tag, str) or element not in holding
                    or element.tag not in _CONTAINER_TAGS or not open_to_comments(element)
                    or element in stories or element.get("role") == "main"):
                continue
            if any(_tokens(node) & _FORUM_TOKENS for node in (element, *element.iterancestors())
                   if isinstance(node.tag, str)):
                continue  # a forum's or a Q&A site's replies, named so
            if element not in comment_regions and not (_tokens(element) & _COMMENT_TOKENS):
                continue
            if any(a in chosen and chosen[a][0] == "comments" for a in element.iterancestors()):
                continue
            if not stats[element].chars:
                continue
            _density, words = _describe(stats[element])
            chosen[element] = ("comments", f"comment section: {words}, outside the main text")
            comment_sections.add(element)

    # 3. what lies beside the main content, holding no prose (article pages)
    if main and kind_of_page == "article" and params.sweep:
        queue = [child for holder in holders for child in holder
                 if isinstance(child.tag, str)]
        while queue:
            element = queue.pop()
            if element in holders or element in inside or element in chosen:
                continue
            s = stats.get(element)
            if s is None or s.chars == 0 or element.tag in NON_TEXT_TAGS:
                continue
            if (s.chars - s.link_chars <= params.sweep_prose_chars
                    and not _prose(element, params.sentence_chars)):
                if element.tag in _CONTAINER_TAGS or element.tag in ("table", "p", "h2", "h3",
                                                                     "h4", "h5", "h6"):
                    _density, words = _describe(s)
                    found = _structural_kind(element, _tokens(element))
                    kind = found[0] if found and found[0] != "comments" else (
                        "links" if _density >= params.link_density else "other")
                    chosen[element] = (kind, f"{words}, no prose, beside the main text")
                    continue
            queue.extend(child for child in element if isinstance(child.tag, str))

    # 2b. a cookie consent banner goes whole, however wordy (one listing its purposes runs to
    #     a few thousand characters) and even where the segmenter takes its words for main
    #     text (a banner of paragraphs is all a snapshot taken before consent shows), unless
    #     it holds the headline, a byline, a <main> or an <article>, lies in an <article>,
    #     or holds half the page's text; likewise a dialog showing a consent platform's
    #     message in a frame. A platform's own root and a consent dialog have no length or
    #     half-page limit, and a platform's root goes even from inside an <article> (a
    #     theme that renders the SDK's root in the story's template)
    consent: set[etree._Element] = set()
    if params.consent_chars:
        total_chars = stats[body].chars if body in stats else 0
        named_roots = roots - set(main)
        for element in body.iter():
            if (not isinstance(element.tag, str) or element.tag not in _CONTAINER_TAGS
                    or element is body or element not in stats):
                continue
            s = stats[element]
            tokens = _tokens(element)
            platform = params.consent_platform_whole and _consent_platform_root(tokens)
            unbounded = platform or (params.consent_dialog_whole and _dialog(element))
            top_level = params.consent_top_level_whole and element.getparent() is body
            too_long = not unbounded and ((s.chars - s.link_chars > params.consent_chars
                                           and not top_level) or 2 * s.chars > total_chars)
            empty_root = (not s.chars and platform and params.consent_empty_root
                          and element.getparent() is body
                          and next(element.iter(*_EMBEDS), None) is None)
            if too_long or not (_consent_banner(element, tokens) if s.chars
                                else _consent_frame(element) or empty_root):
                continue
            if any(a in consent or (a.tag == "article" and not platform)
                   for a in element.iterancestors()):
                continue
            if any(node in named_roots or node.tag in ("main", "article", "h1")
                   or node.get("role") == "main" for node in element.iter()
                   if isinstance(node.tag, str)):
                continue
            consent.add(element)
            if element in chosen and chosen[element][1].split()[0] in _CONSENT_WORDS:
                continue  # already a "cookie banner" or "consent banner"
            _density, words = _describe(s)
            what = ("cookie consent banner" if s.chars else
                    "consent dialog (its message in a frame)" if _consent_frame(element) else
                    "consent platform's root (its banner drawn by its script)")
            chosen[element] = ("other", f"{what}: {words}, outside the main text")

    # 3a. the segmenter's veto: a container holding a region it finds at all likely to be main
    #     content stays, whatever its structure says (ads excepted); one that is nearly all
    #     links (a site's column of archive links) only where it finds it more likely
    likely = _likeliest_main(segments) if segments else {}
    if segments and params.veto_p < 1.0:
        chosen = {e: v for e, v in chosen.items()
                  if v[0] == "ad" or likely.get(e, 0.0) < params.veto_p
                  or (likely.get(e, 0.0) < params.veto_links_p and _all_links(stats[e], params))
                  or (v[1].split()[0] in _CONSENT_WORDS and _asks_cookie_consent(e))}

    # 3a'. a heading that only names the hidden block right after it goes with it
    captions: dict[etree._Element, etree._Element] = {}  # heading -> the block it names
    if params.caption_chars and chosen:
        for element, (kind, _reason) in list(chosen.items()):
            heading = _caption_of(element, params.caption_chars)
            if (heading is not None and heading not in chosen and allowed(heading)
                    and heading not in stories and likely.get(heading, 0.0) < params.veto_p):
                chosen[heading] = (kind, f"the heading of a hidden block "
                                         f"({stats[element].links} links), outside the main text")
                captions[heading] = element

    # 3b. a container all of whose text is hidden goes whole (one target, one box), unless
    #     what is left in it shows a picture, a video or a table
    if params.grow and chosen:
        _grow(body, chosen, stats, allowed, stories)

    # 4. a plan that would hide most of what a reader sees, or a page whose main content is
    #    next to nothing, means the main content was not found: only banners and ads go;
    #    likewise on the page types whose main content the segmenter finds least well
    #    (measured on the page without its consent banners: a platform's preference centre
    #    can hold more words than the page it sits on)
    outermost = [e for e in chosen if not any(a in chosen for a in e.iterancestors())]
    apart = consent | comment_sections
    if params.net_without_banners:
        # what goes even where hide holds back (ads, banners, pop-ups) tells nothing of
        # whether the main content was found: a shop's or a society's pop-up menu of 300
        # links outweighed the story it sits beside
        apart = apart | {e for e in outermost if chosen[e][0] in ("ad", "other")}
    apart_total = sum(stats[e].chars for e in outermost if e in apart)
    total = stats[body].chars - apart_total if body in stats else 0
    main_chars = sum(stats[m].chars for m in main if m in stats)
    hidden_total = sum(stats[e].chars for e in outermost if e not in apart)
    restraint = restrained_to = ""
    held = _Held(frame=frozenset(), header_menu=False, lists=False, sure_p=0.0)
    careful = typed = False
    if total:
        if hidden_total > params.max_hidden_share * total:
            restraint = ("hiding every link block would take most of the page (its main "
                         "content was probably missed)")
        elif main_chars < params.min_main_chars:
            whole = any(s.element is body or s.element is page.tree for s in main_segments)
            restraint = _little_main(result, main_chars, whole)
        else:
            restraint = _careful(result, params)
            careful = bool(restraint)
            typed = careful and _careful_type(result, params)
    if restraint:
        # where the main content was found but hide is careful, what the segmenter is sure
        # of still goes; where it was missed, its probabilities say nothing safe
        sure_p = params.restraint_sure_p if careful and segments else 0.0
        frame = params.careful_page_chrome if careful else ()
        # where the segmenter is unsure of most of the page, its main content is a guess: a
        # sidebar, a menu or a list of links beside it may be the content (a front page's
        # "Trending" column)
        guess = result is not None and float(
            result.stats.get("uncertain_share", 0.0)) > params.careful_sidebar_uncertain_share
        if {"sidebar", "menu"} & set(frame) and guess:
            frame = tuple(part for part in frame if part not in ("sidebar", "menu"))
        lists = (careful and params.restraint_link_lists and (params.list_on_typed or not typed)
                 and not guess)
        # the site's menu in the header goes with the header on a page held back for the
        # segmenter's doubts, unless the content is a guess; not on one held back for its
        # type (a shop's or a service's mega-menu names what its page lists)
        header_menu = params.careful_header_menu and not guess and not typed
        chosen = {e: v for e, v in chosen.items()
                  if v[0] in ("ad", "other") or likely.get(e, 0.0) < sure_p
                  or (frame and _frame_parts(e, header_menu) & set(frame))
                  or (lists and _link_list(stats[e], params)
                      and not _names_story(e, title or page.title))}
        # a heading that names a block still hidden goes with it, as without restraint (a
        # portal's "bbc.co.uk navigation" stood alone over the menu it named)
        for heading, block in captions.items():
            if block in chosen and heading not in chosen:
                chosen[heading] = (chosen[block][0], f"the heading of a hidden block "
                                   f"({stats[block].links} links), outside the main text")
        held = _Held(frame=frozenset(frame), header_menu=header_menu, lists=lists,
                     sure_p=sure_p)

    ordered = [el for el in body.iter() if el in chosen]
    keep: list[etree._Element] = []
    picked = set(ordered)
    for element in ordered:
        if not any(a in picked for a in element.iterancestors()):
            keep.append(element)
    targets = []
    opened: frozenset[str] = frozenset()
    if any(_generic_banner(chosen[element][1]) for element in keep):
        opened = opened_by_controls(body)  # read once, when a pop-up is to be named
    for element in keep:
        kind, reason = chosen[element]
        s = stats[element]
        density = s.link_chars / s.chars if s.chars else 0.0
        targets.append(HideTarget(
            kind=kind, element_id=page.element_id(element) if has_ids else None,
            xpath=None if has_ids else page.xpath(element),
            reason=_named(element, reason, s, opened), links=s.links,
            link_density=round(density, 3), chars=s.chars))
    if restraint:
        # what the plan hides, in words, read from its own elements: not from what hide
        # was allowed to take (a shop's header built of <div>s is no header it hid)
        named = {element: target.reason for element, target in zip(keep, targets)}
        restrained_to = _what_is_hidden(keep, named, chosen, stats, captions, held, params,
                                        likely)
    # (a main element inside a hidden banner is no region the overlay draws)
    shown = [m for m in main if not _inside(m, picked)]
    regions = main_regions(shown, stats, body, hidden={e: chosen[e][0] for e in keep})
    plan = HidePlan(
        page_kind=named_kind, targets=targets,
        main_regions=[MainRegion(
            element_ids=[i for i in (page.element_id(e) for e in region) if i] if has_ids
            else [], xpaths=[] if has_ids else [page.xpath(e) for e in region],
            chars=sum(stats[e].chars for e in region if e in stats)) for region in regions],
        main_ids=[i for i in (page.element_id(m) for m in main) if i] if has_ids else [],
        main_xpaths=[] if has_ids else [page.xpath(m) for m in main],
        index=index_items(page) if named_kind == "index" else [], restraint=restraint,
        restrained_to=restrained_to)
    return Decision(plan=plan, elements=keep)


def plan_hide(page: Page, result: ExtractionResult | None,
              linkblocks: ExtractionResult | None, params: HideParams | None = None
              ) -> HidePlan:
    """The list the extension receives (see :func:`decide`)."""
    return decide(page, result, linkblocks, params).plan


def hide_for(page: Page, result: ExtractionResult | None,
             params: HideParams | None = None) -> HidePlan:
    """The hide plan of ``page`` given its main content: runs the paper's ``linkblocks`` (the
    link-block signal, blocks only) on the same parsed page. What the CLI, ``batch`` and the
    host's ``hide`` action all return."""
    from ..algorithms import linkblocks

    if result is not None and result.algorithm == linkblocks.NAME:
        links = result
    else:
        links = linkblocks.extract(page, linkblocks.Params(main_text=False))
    return plan_hide(page, result, links, params)

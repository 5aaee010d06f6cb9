"""The stories of an index page for the reader (blocksift.actions.index_items)."""

from __future__ import annotations

import json
from pathlib import Path

from blocksift.actions.index_items import index_items
from blocksift.page import Page

#: A shop's app that wraps the whole page, its header too, in <main><section> (B&H's): the
#: header's promotion card is a linked heading like the products'.
_CARDS = "".join(
    f"<div class='card'><a href='/c/product/{n}-REG/camera_{n}.html'><h3>Camera body {n}</h3>"
    f"</a><p>Mirrorless camera with a 24 MP sensor and a {n} mm lens kit</p></div>"
    for n in range(1, 7))


def _shop(header: str, body: str = _CARDS) -> Page:
    return Page("<html><body><main id='app'><section class='app-layout'>"
                f"<header>{header}</header><div class='listing'>{body}</div>"
                "</section></main></body></html>",
                url="https://shop.example/c/buy/Mirrorless-Cameras/ci/24049")


_PROMO = ("<div class='deal'><a href='/find/dealZone.jsp'><section><h3>Deal Zone</h3>"
          "<span>Ends In 16:58:57</span></section></a></div>")


def test_a_promotion_in_the_site_s_header_is_no_story():
    page = _shop("<a href='/'>Shop</a><form class='search'><input type='text' "
                 f"placeholder='Search'><button>Go</button></form>{_PROMO}"
                 "<a href='/find/cart.jsp'>Cart</a>")
    titles = [item.title for item in index_items(page)]
    assert titles == [f"Camera body {n}" for n in range(1, 7)]
    # role=search and <search> say the same
    for search in ("<div role='search'><input type='search'></div>", "<search></search>"):
        page = _shop(f"{search}{_PROMO}")
        assert "Deal Zone" not in [item.title for item in index_items(page)]


def test_a_header_without_search_or_around_most_of_the_page_keeps_its_stories():
    # a section's own header (no search form) heads a story of the list
    page = _shop(_PROMO)
    assert [item.title for item in index_items(page)][0] == "Deal Zone"
    # broken markup: the header holds the site's search and the whole listing
    page = Page("<html><body><main><section><header><form><input type='text'></form>"
                f"{_CARDS}</header></section></main></body></html>",
                url="https://shop.example/c/buy/cameras")
    assert len(index_items(page)) == 6


def test_a_field_s_label_and_its_value_under_a_product_s_name_is_no_teaser():
    # B&H's cards: "Shipping Restriction:" in a heading of its own, the country in a button,
    # read as one run "Shipping Restriction:No shipping to BULGARIA"
    notice = ("<div class='note'><h4>Shipping Restriction:</h4>"
              "<button><span>No shipping to BULGARIA</span></button></div>")
    cards = "".join(
        f"<div class='card'><h3><a href='/c/product/{n}-REG/camera_{n}.html'>Camera body {n}</a>"
        f"</h3><div class='sku'>BH # CAM{n}</div>{notice if n % 2 else ''}"
        f"<p>Mirrorless camera with a 24 MP sensor and a {n} mm lens kit</p></div>"
        for n in range(1, 7))
    items = index_items(_shop("<form role='search'><input name='q'></form>", cards))
    assert [item.teaser for item in items] == [
        f"Mirrorless camera with a 24 MP sensor and a {n} mm lens kit" for n in range(1, 7)]
    # a teaser opening with a label of its own says more and stays
    update = ("<div class='card'><h3><a href='/news/7'>Port reopens</a></h3><p><b>Update:</b> "
              "The port reopened on Monday after the storm, the authority said.</p></div>")
    items = index_items(_shop("", _CARDS + update))
    assert items[-1].teaser.startswith("Update: The port reopened")


def test_a_picture_s_file_name_is_no_product_s_name():
    # cards headed by a code ("Item Number: ..."), their first link a picture whose alt is
    # its file name, their second the product's picture with its name: the reader listed
    # "IMG 2201.JPG", "DSC 7667 1" as products
    def card(n: int, alt: str) -> str:
        return (f"<a href='/p{n}.html'><img src='p{n}.jpg' alt='{alt}'></a>"
                f"<a href='/p{n}.html'><img src='p{n}-b.jpg' alt='Trail mug {n}, speckled'>"
                f"<h3><span>Item Number:</span> MUG-{n}</h3></a>")

    alts = ["IMG 2201.JPG", "DSC 7667 1", "front view of mug.webp", "Stoneware trail mug"]
    page = Page("<html><body><main><h1>Mugs</h1><ul>"
                + "".join(f"<li>{card(n, alt)}</li>" for n, alt in enumerate(alts))
                + "</ul></main></body></html>", url="https://shop.example/mugs")
    assert [item.title for item in index_items(page)] == [
        "Trail mug 0, speckled", "Trail mug 1, speckled", "Trail mug 2, speckled",
        "Stoneware trail mug"]  # a description stays the name


_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "index"
#: Six dishes, each a card whose heading links to the dish's own page at the site's root.
_DISHES = ["Sticky chicken thighs", "Salmon bites", "Honeynut squash", "Crispy chickpeas",
           "Cottage cheese bagels", "Stuffed peppers"]


def _slug(title: str) -> str:
    return "/" + title.lower().replace(" ", "-") + "/"


def _index(title: str, cards: str, url: str, head: str = "") -> Page:
    return Page(f"<html><head><title>{title}</title>{head}</head><body><main><h1>{title}</h1>"
                f"{cards}</main></body></html>", url=url)


def _cards(titles: list[str], around: str = "{}", href=_slug) -> str:
    return "".join(around.format(f"<h2><a href='{href(t)}'>{t}</a></h2><p>Ready in twenty "
                                 "minutes, with rice on the side and a green salad.</p>")
                   for t in titles)


def test_a_page_that_names_its_stories_recipes_and_whose_address_says_so_lists_recipes():
    # a recipe blog's category page: its <title> and <h1> say recipes, its address is under
    # /recipes/, its dishes' pages are at the site's root ("/sticky-chicken-thighs/")
    page = Page((_FIXTURES / "recipe-category.html").read_text(encoding="utf-8"),
                url="https://copperpot.example/recipes/air-fryer/")
    items = index_items(page)
    assert len(items) == 6 and {item.kind for item in items} == {"recipe"}
    # the <title>'s first part alone, or the <h1> alone, names them; "Archives", a
    # parenthesis or a place may follow the plural
    for title in ("Air Fryer Recipes (Our Favourites) | Copper Pot",
                  "Air Fryer Recipes Archives - Copper Pot", "Recipes from Lisbon"):
        page = _index(title, _cards(_DISHES), "https://copperpot.example/recipes/air-fryer/")
        assert {item.kind for item in index_items(page)} == {"recipe"}, title
    # the stories' own addresses may say it instead of the page's
    page = _index("Remote Software Engineer Jobs (March 2026)", _cards(
        _DISHES, href=lambda t: "/remote-jobs" + _slug(t)), "https://board.example/engineering")
    assert {item.kind for item in index_items(page)} == {"job"}


def test_a_title_s_word_alone_or_an_address_alone_names_no_kind():
    # a news topic named for a person ("Steve Jobs") under a /topics/ address, a news section
    # about cooking whose address says recipes but whose title names no list of them
    for title, url in (("Air Fryer Recipes", "https://news.example/topics/air-fryers/"),
                       ("Air fryers in the news", "https://news.example/recipes/air-fryer/"),
                       ("A recipe for disaster", "https://news.example/recipes/"),
                       # a headline ending in the plural, its slug for an address
                       ("Computer Science Degrees No Longer Guarantee Jobs",
                        "https://news.example/story/computer-science-degrees-no-longer-guarantee-jobs")):
        page = _index(title, _cards(_DISHES), url)
        assert {item.kind for item in index_items(page)} == {""}, title


def test_schema_org_recipes_that_are_the_stories_make_them_recipes():
    url = "https://copperpot.example/collections/quick/"
    ld = {"@context": "https://schema.org", "@type": "ItemList", "itemListElement": [
        {"@type": "ListItem", "position": n, "item": {
            "@type": "Recipe", "name": t, "url": "https://copperpot.example" + _slug(t)}}
        for n, t in enumerate(_DISHES[:2])]}
    head = f"<script type='application/ld+json'>{json.dumps(ld)}</script>"
    # two of six: a third of the stories
    items = index_items(_index("Quick dinners", _cards(_DISHES), url, head))
    assert {item.kind for item in items} == {"recipe"}
    ld["itemListElement"] = ld["itemListElement"][:1]  # one of six: too few
    head = f"<script type='application/ld+json'>{json.dumps(ld)}</script>"
    assert {item.kind for item in index_items(_index("Quick dinners", _cards(_DISHES), url,
                                                     head))} == {""}
    # a script nested deeper than Python's JSON parser goes, or broken, costs only itself
    # (the first raised RecursionError out of the index view)
    bomb = "[" * 50_000 + "]" * 50_000
    ld["itemListElement"] = [
        {"@type": "ListItem", "position": n, "item": {
            "@type": "Recipe", "name": t, "url": "https://copperpot.example" + _slug(t)}}
        for n, t in enumerate(_DISHES[:2])]
    head = (f"<script type='application/ld+json'>{bomb}</script>"
            f"<script type='application/ld+json'>{{\"@type\": </script>"
            f"<script type='application/ld+json'>{json.dumps(ld)}</script>")
    assert {item.kind for item in index_items(_index("Quick dinners", _cards(_DISHES), url,
                                                     head))} == {"recipe"}
    # microdata: a Recipe item holding the story's link; an Event the same way
    for itemtype, kind in (("https://schema.org/Recipe", "recipe"),
                           ("http://schema.org/MusicEvent", "event")):
        cards = _cards(_DISHES, f"<div itemscope itemtype='{itemtype}'>{{}}</div>")
        assert {item.kind for item in index_items(_index("Quick dinners", cards, url))} \
            == {kind}, itemtype


def test_what_no_sighted_reader_sees_is_no_teaser():
    # a shop's stars read "Product Casual Dress Rating: 4.6579 of 5 stars" to screen readers
    # alone (a class of a utility kit, "u-text-sr-only"); a forum hides its forum's
    # description inline; the teaser is what the page shows, or none
    cards = "".join(
        f"<li><h2><a href='/products/dress-{n}.html'>Casual Dress {n}</a></h2>"
        f"<div aria-hidden='true' class='stars'><span class='u-text-sr-only'>Product Casual "
        f"Dress {n} Rating: 4.6579 of 5 stars</span><i></i><i></i></div>"
        f"<p style='display: none !important'>A hidden description of the dress, long enough "
        f"to read as a teaser.</p>"
        + (f"<p>A cotton dress with pockets, cut to the knee, number {n}.</p>" if n else "")
        + "</li>" for n in range(4))
    page = Page(f"<html><body><main><ul>{cards}</ul></main></body></html>",
                url="https://shop.example/collections/dresses")
    assert [item.teaser for item in index_items(page)] == \
        [""] + [f"A cotton dress with pockets, cut to the knee, number {n}." for n in (1, 2, 3)]


def _repository_card(owner: str, name: str, about: str) -> str:
    # GitHub's topic card: the name's <h3> ends a head box of its own, then the star button,
    # a row of tabs, and the description under the head
    return (f"<article class='border'><div class='px-3'><div class='d-flex'><div class='flex-1'>"
            f"<h3><a href='/{owner}'>{owner}</a> / <a href='/{owner}/{name}'>{name}</a></h3>"
            f"</div><div class='star'><a href='/login'>Star</a> 19k</div></div></div>"
            f"<nav><a href='/{owner}/{name}/issues'>Issues</a></nav>"
            f"<div class='body'><div><p>{about}</p></div><ul><li>Python</li></ul></div>"
            "</article>")


def test_a_teaser_under_the_card_s_head_box_is_the_story_s():
    page = Page("<html><body><main>" + "".join(
        _repository_card(f"org{n}", f"tool{n}", f"A framework number {n} for machine learning "
                         "in Python.") for n in range(3)) + "</main></body></html>",
        url="https://github.com/topics/machine-learning")
    assert [(item.title, item.teaser) for item in index_items(page)] == [
        (f"org{n} / tool{n}", f"A framework number {n} for machine learning in Python.")
        for n in range(3)]


def test_a_paragraph_past_a_card_or_reached_by_two_heads_is_no_teaser():
    # cards of a list: a headline alone in its item takes nothing from the next item
    items = "".join(f"<li class='card'><h3><a href='/s/{n}'>Story {n}</a></h3></li>"
                    for n in range(3))
    page = Page(f"<html><body><main><ul>{items}</ul><div><p>A paragraph after the whole "
                "list, which no story's card holds.</p></div></main></body></html>",
                url="https://news.example/")
    assert [item.teaser for item in index_items(page)] == ["", "", ""]
    # a row of linked cards, each classed its own way, before one paragraph: it is none's
    cards = "".join(f"<a class='service {kind}' href='/{kind}'><h3>{kind.title()}</h3>"
                    f"<span>Get started</span></a>" for kind in ("teens", "couples", "adults"))
    page = Page(f"<html><body><main><div class='services'>{cards}</div><div><p>Hormonal "
                "shifts and evolving identities shape how people feel.</p></div></main>"
                "</body></html>", url="https://care.example/")
    items = index_items(page)
    assert [item.title for item in items] == ["Teens", "Couples", "Adults"]
    assert [item.teaser for item in items] == ["", "", ""]

"""A shop's index page in the reader: each product's price from its card
(blocksift.index_prices), or none where the card does not show one price."""

from __future__ import annotations

from lxml import html as lxml_html

from blocksift.index_prices import index_prices


def cards(*bodies: str) -> tuple[object, list[str]]:
    """A grid of product cards, the n-th linking to /p/n, each with ``bodies[n]`` after its
    name."""
    items = "".join(f'<li class="card"><a href="/p/{n}"><img src="x.jpg" alt=""></a>'
                    f'<h3><a href="/p/{n}">Product {n}</a></h3>{body}</li>'
                    for n, body in enumerate(bodies))
    return lxml_html.fromstring(f"<html><body><ul>{items}</ul></body></html>"), \
        [f"/p/{n}" for n in range(len(bodies))]


def prices(*bodies: str) -> list[str]:
    root, hrefs = cards(*bodies)
    return index_prices(root, hrefs)


def test_each_card_gives_its_own_price_as_written():
    assert prices('<span class="money">$34.00</span>', "<p>£1,299</p>",
                  "<p>34,00 €</p>", "<p>Price: USD 12.50</p>") == \
        ["$34.00", "£1,299", "34,00 €", "USD 12.50"]


def test_a_card_without_a_price_gets_none_not_a_neighbours():
    assert prices("<p>$20.00</p>", "<p>Sold out</p>", "<p>$22.00</p>") == \
        ["$20.00", "", "$22.00"]


def test_a_sale_gives_the_price_paid_not_the_crossed_out_or_earlier_one():
    assert prices("<p><s>$40.00</s> $34.00</p>",
                  '<p><span class="price--compare">$40.00</span> <span>$30.00</span></p>',
                  "<p>$123.95 Was $154.95 VIP Price $111.55</p>",
                  "<p>Sale price: $24.50 Original price: $35.00</p>") == \
        ["$34.00", "$30.00", "$123.95", "$24.50"]


def test_a_price_labelled_regular_is_the_price_when_it_is_the_only_one():
    assert prices("<p>Regular Price: $36</p>",
                  "<p>Regular price $19.99 Sale price $19.99</p>") == ["$36", "$19.99"]


def test_no_one_price_gives_none():
    # a range, a starting price, a price per month, two prices the card does not tell apart
    assert prices("<p>$7.95 - $179.95</p>", "<p>From $19.00</p>",
                  "<p>$1,099.00 or $91.58/mo.</p>", "<p>$100.00 $90.00</p>") == ["", "", "", ""]


def test_a_price_drawn_in_parts_reads_whole():
    # a shop's cents set high (B&H), IKEA's sign, units and cents in spans of their own
    assert prices('<p><span>$619</span><sup>00</sup></p>',
                  '<p><span aria-hidden="true"><span>$</span><span>99</span>'
                  '<span>.99</span></span><span class="sr-only">Price $ 99.99</span></p>',
                  "<p><span>$2,898</span><sup>00</sup> In Stock</p>") == \
        ["$619.00", "$99.99", "$2,898.00"]


def test_hidden_scripts_and_choices_are_no_price():
    assert prices('<p>$19.99</p><select><option>2 bags - $39.98</option></select>'
                  '<script type="application/json">{"price": "$84.99"}</script>'
                  '<p hidden>$5.00</p>') == ["$19.99"]


def test_microdata_names_the_price():
    assert prices('<div itemprop="offers" itemscope><span itemprop="price" content="34">'
                  "$34.00</span></div><p>Save $6.00 on two</p>") == ["$34.00"]


def test_numbers_that_are_no_prices_are_none():
    assert prices("<p>4.5 out of 5 stars (1,234)</p>", "<p>12 oz, 350 ml, 2 for 1</p>") == \
        ["", ""]


def test_a_deal_gives_its_price_not_the_list_price_or_the_delivery():
    # Amazon's card: the deal, its list price, each with a screen reader's copy glued on
    assert prices("<p>Limited time deal Price, product page<span>EUR 17.07</span>"
                  "<span>EUR17.07</span> List: <span>EUR 28.39</span><span>EUR28.39</span>"
                  " EUR 9.72 delivery Wed, Mar 25</p>") == ["EUR 17.07"]


def test_a_was_price_glued_to_the_price_is_still_the_earlier_one():
    # the live page draws "$123.95Was $154.95": the "Was" starts no word of its own
    assert prices("<p><span>$123.95</span><span>Was $154.95</span></p>") == ["$123.95"]


def test_a_news_storys_sums_are_no_price():
    # a news index: the amounts in its headlines and teasers stood beside each headline as
    # its price ("$47" for "Sells Five Hotels for $47 Million", "$5" for "A New $5 Streaming
    # Option"); a sum with its magnitude ("$38B", "$30M", "C$90k") is no price either
    root = lxml_html.fromstring(
        "<html><body><ul>"
        "<li><h2><a href='/s/0'>Service Properties Trust Sells Five Hotels for $47 Million</a>"
        "</h2><p>The trust sold 5 hotels.</p></li>"
        "<li><h3><a href='/s/1'>Sling TV Has Launched a New $5 Streaming Option</a></h3></li>"
        "<li><h3><a href='/s/2'>OpenAI and AWS sign a compute deal</a></h3>"
        "<p>The $38B agreement runs seven years.</p></li>"
        "<li><h3><a href='/s/3'>Senior engineer</a></h3><p>C$90k a year</p></li>"
        "<li><h3><a href='/s/4'>Lio raises money</a></h3><p>Lio raises $30M.</p></li>"
        # a shop's heading that holds just the price is its price, a size after it no sum
        "<li><h3><a href='/s/5'>Trail Mug</a></h3><h4>Price: $34.00</h4></li>"
        "<li><h3><a href='/s/6'>Tee</a></h3><p>$36 M L XL</p></li>"
        "</ul></body></html>")
    assert index_prices(root, [f"/s/{n}" for n in range(7)]) == \
        ["", "", "", "", "", "$34.00", "$36"]


# -- whether the page says it sells (the reader's "products", not "stories") ---------------

def _page(body: str, head: str = ""):
    return lxml_html.fromstring(f"<html><head>{head}</head><body>{body}</body></html>")


def test_a_page_says_it_sells_by_schema_org_products_an_add_to_cart_control_or_its_type():
    from blocksift.index_prices import sale_cues

    card = '<li><a href="/car71{n}.html">Lens {n}</a>{extra}</li>'
    hrefs = [f"/car71{n}.html" for n in range(3)]

    def shop(extra: str = "", head: str = "", item: str = "li") -> object:
        cards = "".join(card.format(n=n, extra=extra) for n in range(3))
        if item != "li":
            cards = cards.replace("<li>", f"<li {item}>")
        return _page(f"<ul>{cards}</ul><p>Deals: $20 off a camera.</p>", head)

    news = shop(head='<script type="application/ld+json">{"@type": "NewsArticle"}</script>')
    assert sale_cues(news, hrefs) == []
    # JSON-LD naming the stories' pages as products (a list of types too), microdata, RDFa
    listing = ('<script type="application/ld+json">{"@graph": [{"@type": "ItemList"}, '
               + ", ".join(f'{{"@type": ["Thing", "Product"], "url": "https://shop.example'
                           f'/car71{n}.html", "offers": {{"@type": "Offer"}}}}'
                           for n in range(2)) + "]}</script>")
    assert sale_cues(shop(head=listing), hrefs) == ["schema"]
    assert sale_cues(shop(item='itemscope itemtype="https://schema.org/Product"'), hrefs) \
        == ["schema"]
    assert sale_cues(shop(item='typeof="Product"'), hrefs) == ["schema"]
    # products the stories are not (a freelancer site's people beside its blog's posts), or
    # one story in ten: no
    people = ('<script type="application/ld+json">[' + ", ".join(
        f'{{"@type": "Product", "url": "https://shop.example/designers/{n}"}}'
        for n in range(5)) + "]</script>")
    assert sale_cues(shop(head=people), hrefs) == []
    assert sale_cues(shop(head=listing), hrefs + [f"/blog/{n}" for n in range(6)]) == []
    assert sale_cues(shop(head="<script type='application/ld+json'>{\"@type\": \"Product\"")
                     , hrefs) == []  # (broken JSON)
    # a card's button, an input's value, a form's address, a link to an add-to-cart address
    for extra in ['<button type="button"> Add to Cart </button>',
                  '<input type="submit" value="Add to bag">',
                  '<form action="/cart/add" method="post"><button>Choose</button></form>',
                  '<a href="/cart.php?action=add&amp;product_id=1041">Pre-Order Now</a>']:
        assert sale_cues(shop(extra), hrefs) == ["cart"], extra
    # a sentence about a cart is no control; a control outside the stories' cards is not
    # theirs (a shop's blog: the posts listed, a product's box beside them)
    assert sale_cues(shop("<p>Add to cart</p>"), hrefs) == []
    blog = _page("<ul>" + "".join(card.format(n=n, extra="") for n in range(3)) + "</ul>"
                 "<aside><h3>Our best seller</h3><button>Add to cart</button></aside>")
    assert sale_cues(blog, hrefs) == []
    assert sale_cues(news, hrefs, {"product": 0.8, "collection": 0.1}) == ["type"]
    assert sale_cues(news, hrefs, {"product": 0.6, "collection": 0.3}) == []


def test_the_reader_answer_of_a_shop_index_says_it_sells():
    import json

    from blocksift.service.worker import Job, run_job

    cards = "".join(f'<li class="card"><h3><a href="/car71{n}.html">Lens number {n}</a></h3>'
                    f'<p>A sharp lens for every day.</p><button>Add to cart</button></li>'
                    for n in range(8))
    links = "".join(f'<li><a href="/s{n}">Section {n}</a></li>' for n in range(12))
    html = (f"<html><head><title>Lenses</title></head><body><nav><ul>{links}</ul></nav>"
            f"<main><h1>Lenses</h1><ul>{cards}</ul></main></body></html>")
    outcome = run_job(Job(algorithm="auto", params={}, html=html, url="https://shop.example/l",
                          want=["main"], id_attr="data-bs", action="reader"))
    page = json.loads(outcome.page_json)
    assert page["pageKind"] == "index", page
    assert page["sells"] is True
    news = html.replace("<button>Add to cart</button>", "")
    outcome = run_job(Job(algorithm="auto", params={}, html=news, url="https://shop.example/l",
                          want=["main"], id_attr="data-bs", action="reader"))
    assert json.loads(outcome.page_json)["sells"] is False


def test_a_colour_swatch_linking_to_another_listed_product_bounds_no_card():
    # a dress in green and the same dress in brown, each listed with its own card, each card's
    # swatches linking to the other colour: the swatches are controls (role="button"), and
    # each card still gives its price
    swatches = ('<ul class="swatches"><li><a role="button" href="/p/{me}">this colour</a></li>'
                '<li><a role="button" href="/p/{other}">Change to the other colour</a></li></ul>')
    items = "".join(f'<li class="card"><a href="/p/{me}"><img src="x.jpg" alt=""></a>'
                    + swatches.format(me=me, other=other)
                    + f'<h3><a href="/p/{me}">Dress {me}</a></h3><span>${price}</span></li>'
                    for me, other, price in [(0, 1, 59), (1, 0, 61), (2, 2, 40)])
    root = lxml_html.fromstring(f"<html><body><ul>{items}</ul></body></html>")
    assert index_prices(root, ["/p/0", "/p/1", "/p/2"]) == ["$59", "$61", "$40"]

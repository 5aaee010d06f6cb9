"""The page model: parse once, map elements back to spans and stamped ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from blocksift.algorithms import auto
from blocksift.page import MAX_TITLE_CHARS, Page, PageError, decode_html, plain_title
from blocksift.repair import Repair


def test_elements_map_back_to_their_source_spans():
    html = ("<html><head><title> A  title </title></head><body><table><tr><td id=c>cell</td>"
            "</tr></table><div class=main><p>Para <a href='/x'>link</a></p></div></body></html>")
    page = Page(html)
    cell = page.tree.xpath("//td")[0]
    start, end = page.span(cell)
    assert html[start:end] == "<td id=c>cell</td>"
    implied = Page("<p>a</p><p>b</p>")  # no <body> tag: the parser implies one
    start, end = implied.span(implied.body)
    assert implied.raw[start:end] == "<p>a</p><p>b</p>"
    assert page.title == "A title"
    assert "data-bso" not in page.clean_attributes(cell)


def test_span_starts_equal_the_spans_of_stamped_and_implied_elements():
    page = Page("<table><tr><td>cell</td></tr></table><p>one<p>two"
                "<div><span>three</span></div>")
    elements = list(page.tree.iter())
    assert any(page.ordinal(el) is None for el in elements)  # html and body are implied
    assert page.span_starts(elements) == [page.span(el)[0] for el in elements]


def test_stamped_ids_and_xpaths():
    page = Page('<body data-bsid="1"><div data-bsid="2"><p data-bsid="3">x</p></div></body>')
    div = page.tree.xpath("//div")[0]
    assert page.has_ids
    assert page.element_id(div) == "2"
    assert page.ids_within([div]) == ["2", "3"]
    assert Page("<div><p>x</p></div>").xpath(Page("<div><p>x</p></div>").tree.xpath("//p")[0])


def test_the_tree_is_parsed_once_and_shared():
    page = Page("<p>x</p>")
    assert page.tree is page.tree
    assert page.tags is page.tags


def test_empty_and_garbage_pages_give_an_empty_body():
    for html in ["", "   ", "\x00\x01", "<<<>>>", "</html>"]:
        page = Page(html)
        assert page.body is not None


def test_bytes_are_decoded_by_bom_meta_charset_or_detection():
    assert decode_html("héllo".encode()) == "héllo"
    gbk = '<meta charset="gbk"><p>北京</p>'.encode("gbk")
    assert "北京" in decode_html(gbk)
    assert decode_html(b"\xef\xbb\xbfabc") == "abc"
    latin = "<p>café crème brûlée à la française, déjà vu</p>".encode("cp1252")
    assert "caf" in decode_html(latin)


@pytest.mark.parametrize("codec, text", [
    ("cp1252", "<p>café crème brûlée à la française, déjà vu. Über die Brücke gehen wir "
               "zusammen. Señor niño año.</p>"),
    ("cp1252", "<p>café crème brûlée is a dessert of rich custard topped with a layer of "
               "hardened caramelized sugar.</p>"),
    ("cp1252", "<p>Não há informação disponível sobre a ação. A situação é crítica, disse o "
               "ministério à imprensa.</p>"),
    ("cp1252", "<p>Größere Veränderungen in der Straßenführung: Fußgänger müssen künftig "
               "über die Brücke gehen.</p>"),
    ("cp1250", "<p>Władze miasta ogłosiły, że remont ulicy potrwa do końca września. "
               "Mieszkańcy są zaniepokojeni.</p>"),
    ("cp1257", "<p>Lietuvos Respublikos Seimas priėmė įstatymą dėl švietimo sistemos "
               "pertvarkos ir mokytojų atlyginimų.</p>"),
    ("cp1251", "<p>Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая "
               "электрификация южных губерний.</p>"),
])
def test_a_page_without_charset_is_read_as_a_browser_reads_it(codec, text):
    """Without a BOM, a declared or a <meta> charset, windows-1252 wins where it reads the
    bytes about as well as the detector's best guess: French came out as 'crčme brűlée'
    (windows-1250) and Portuguese as windows-1257; other scripts keep their own codec."""
    assert decode_html(text.encode(codec)) == text


# --- no page lost to the parser: broken markup repaired -----------------------------------

BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"
ARTICLE_LINES = [
    "The Last Keeper of Gull Point",
    "For forty years the keeper climbed the iron stairs each night",
    "When the light was automated, the keeper stayed on in the cottage",
    "records storms, wrecks and rescues in a careful hand across eleven volumes",
]


def assert_spans_point_into_raw(page: Page) -> None:
    """Every stamped element's span starts with its own start tag in the exact input."""
    checked = 0
    for element in page.iter_elements():
        if page.ordinal(element) is None:
            continue
        start, end = page.span(element)
        assert page.raw[start:start + 1 + len(element.tag)].lower() == f"<{element.tag}"
        assert start < end <= len(page.raw)
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("name", ["unclosed-title", "unclosed-textarea", "unclosed-xmp",
                                  "content-in-head", "truncated-html-tag",
                                  "content-after-html", "button-end-tag-ignored"])
def test_broken_markup_does_not_lose_the_article(name):
    html = (BROKEN / f"{name}.html").read_text(encoding="utf-8")
    page = Page(html)
    body_text = " ".join(page.body.text_content().split())
    for line in ARTICLE_LINES:
        assert line in body_text, (name, page.repairs)
    assert page.repairs  # says what it did
    assert page.title.startswith("The Last Keeper of Gull Point")
    assert_spans_point_into_raw(page)
    paragraph = page.tree.xpath("//article/p")[0]
    start, end = page.span(paragraph)
    assert html[start:end].startswith("<p>For forty years") and html[start:end].endswith("</p>")
    result = auto.extract(page, auto.Params())
    assert result.main is not None
    assert "careful hand across eleven volumes" in result.main.text


def _nested_past_the_limit(levels: int, article_after_html: bool = False) -> str:
    # an archive whose generator never closes its <div>s, then the article
    article = (BROKEN / "content-after-html.html").read_text(encoding="utf-8")
    article = article[article.index("<div class=\"post\">"):]
    days = "".join(f'<div class="day"><a href="/archive/{day}">{day}</a>\n'
                   for day in range(levels))
    page = (f"<!DOCTYPE html><html><head><title>The Last Keeper of Gull Point</title></head>"
            f"<body><nav><a href='/'>Home</a></nav>{days}")
    # a second slip in the part past the limit: the article after </html>
    return (page + f"</body></html>{article}" if article_after_html else
            page + f"{article}</body></html>")


@pytest.mark.parametrize("levels, article_after_html", [(2_100, False), (5_000, False),
                                                        (2_100, True)])
def test_elements_nested_past_the_parsers_limit_are_not_lost(levels, article_after_html):
    # libxml2 drops the rest of the page at 2,048 open elements
    html = _nested_past_the_limit(levels, article_after_html)
    page = Page(html)
    body_text = " ".join(page.body.text_content().split())
    for line in ARTICLE_LINES:
        assert line in body_text, page.repairs
    days = [int(a.text) for a in page.tree.iter("a") if a.get("href", "").startswith("/arch")]
    assert days == list(range(levels))  # every one, in document order
    assert len(page.tree.xpath("//div[@class='day']")) == levels
    assert any("parts" in note for note in page.repairs)
    assert_spans_point_into_raw(page)
    paragraph = page.tree.xpath("//article/p")[0]
    start, end = page.span(paragraph)
    assert html[start:end].startswith("<p>For forty years") and html[start:end].endswith("</p>")
    result = auto.extract(page, auto.Params())
    assert "careful hand across eleven volumes" in result.main.text
    # a parse without spans asked takes the stamped one, which can go on past the limit
    unstamped = Page(html, spans=False)
    assert ARTICLE_LINES[-1] in " ".join(unstamped.body.text_content().split())


def test_a_page_nested_within_the_limit_is_parsed_in_one_part():
    page = Page(_nested_past_the_limit(1_500))
    assert len(page.tree.xpath("//div[@class='day']")) == 1_500
    assert page.repairs == []


def test_what_follows_an_ignored_end_tag_leaves_the_element_in_source_order():
    page = Page((BROKEN / "button-end-tag-ignored.html").read_text(encoding="utf-8"))
    paragraph = page.tree.xpath("//article/p")[0]
    assert [a.tag for a in paragraph.iterancestors()] == ["article", "main", "body", "html"]
    # the elements the button held after its end tag follow it, the menu's wrapper closes
    button = page.tree.xpath("//button")[0]
    assert [el.tag for el in button.iter()] == ["button", "div", "div"]
    assert [el.get("class") for el in page.tree.xpath("//header/div/*")] == [
        "site-header__menu", "site-header__logo"]
    assert [el.tag for el in page.body] == ["header", "main", "footer"]
    assert any("button" in note for note in page.repairs)


def test_a_well_formed_page_is_not_repaired():
    page = Page((BROKEN / "unclosed-title.html").read_text(encoding="utf-8").replace(
        "| Harbour Gazette", "| Harbour Gazette</title>"))
    assert page.tree is not None and page.repairs == []


def test_an_unclosed_title_gives_a_plain_short_title():
    page = Page((BROKEN / "unclosed-title.html").read_text(encoding="utf-8"))
    assert page.title == "The Last Keeper of Gull Point | Harbour Gazette"
    result = auto.extract(page, auto.Params())
    assert "<" not in result.main.title and len(result.main.title) < 80


def test_titles_are_plain_text_of_sane_length():
    assert plain_title("  A  <b>title</b>") == "A"
    assert plain_title("Cats & dogs: a < b, 3 > 2") == "Cats & dogs: a < b, 3 > 2"
    long = plain_title("word " * 200)
    assert len(long) <= MAX_TITLE_CHARS + 1 and long.endswith("…")
    page = Page(f"<title>{'Headline words ' * 100}</title><p>x</p>")
    assert len(page.title) <= MAX_TITLE_CHARS + 1


def test_inserted_end_tags_map_offsets_back_to_the_input():
    raw = "<title>T<p>a</p><textarea>x<b>y</b>"
    fixed = Repair(raw, "<title>T</title><p>a</p><textarea>x</textarea><b>y</b>",
                   insertions=[(8, 8), (27, 11)])
    assert fixed.to_raw(8) == 8 and fixed.to_raw(15) == 8  # inside the insertion
    assert fixed.to_raw(16) == 8  # the <p> after </title>
    assert fixed.to_raw(len(fixed.text)) == len(raw)


def test_batched_xpaths_equal_lxml_in_any_order():
    import random

    from blocksift.page import Page, XPaths

    rng = random.Random(1)
    html = ("<html><body><div><p>a</p><p>b<b>x</b><b>y</b></p><ul><li>1</li><li>2<ul><li>3"
            "</li></ul></li></ul></div><div><table><tr><td>c</td></tr></table></div>"
            "<svg:rect></svg:rect><p>d</p></body></html>")
    page = Page(html)
    elements = [el for el in page.tree.iter() if isinstance(el.tag, str)]
    for _ in range(20):
        rng.shuffle(elements)
        xpath_of = XPaths()
        assert [xpath_of(el) for el in elements] == [page.xpath(el) for el in elements]
        assert [xpath_of(el) for el in elements] == [page.xpath(el) for el in elements]


def test_every_xpath_finds_its_element_again_whatever_the_tag_names():
    from blocksift.page import Page, XPaths

    # HTML parsers keep tag names XPath cannot read: a comparison, a control character
    page = Page("<html><body><div><link<div>first</div><p>a</p><dd\x18\x08>b</dd\x18\x08>"
                "<p>c<svg:rect>d</svg:rect></p><x-y.z_1>e</x-y.z_1></div></body></html>")
    elements = [el for el in page.tree.iter() if isinstance(el.tag, str)]
    names = {el.tag for el in elements}
    assert "link<div" in names and any("\x18" in name for name in names)
    xpath_of = XPaths()
    for element in elements:
        for path in (page.xpath(element), xpath_of(element)):
            assert page.tree.xpath(path) == [element], path
    # plain names are written as lxml writes them
    plain = page.tree.xpath("//x-y.z_1")[0]
    assert page.xpath(plain) == xpath_of(plain) == plain.getroottree().getpath(plain)


def test_a_frameset_page_says_where_its_text_is():
    from blocksift.page import Page

    frames = Page('<html><frameset cols="20%,80%"><frame src="menu.html"><frame src="main.html">'
                  "<frame src='menu.html'></frameset></html>")
    assert frames.frame_sources() == ["menu.html", "main.html"]
    assert frames.no_text_message() == ("no visible text on the page: it shows other pages in "
                                        "frames (menu.html, main.html), which hold its text")
    embedded = Page('<html><body><iframe src="about:blank"></iframe>'
                    '<iframe src="https://example.org/story"></iframe></body></html>')
    assert embedded.frame_sources() == ["https://example.org/story"]
    assert Page("<html><body></body></html>").no_text_message() == "no visible text on the page"


# -- pages parsed without spans (crawl runs: Page(spans=False)) ----------------------------

def test_a_page_parsed_without_spans_skips_the_scan_and_numbers_elements_in_order():
    html = ("<html><head><title>A title</title></head><body><h1>Head</h1>"
            "<div class=main><p>One <a href='/x'>link</a></p><p>Two</p></div></body></html>")
    page = Page(html, spans=False)
    assert page.title == "A title" and not page.spans
    assert "tags" not in page.__dict__  # no tag scan was needed
    elements = list(page.iter_elements())
    assert not any(el.get("data-bso") for el in elements)
    assert [page.ordinal(el) for el in elements] == sorted(page.ordinal(el) for el in elements)
    assert page.element_count == len(elements) and not page.has_ids
    with pytest.raises(PageError, match="without source spans"):
        page.span(elements[0])
    # the same text either way
    spanned = Page(html)
    assert page.body.text_content() == spanned.body.text_content()


@pytest.mark.parametrize("name", ["unclosed-title", "unclosed-textarea", "unclosed-xmp",
                                  "truncated-html-tag", "button-end-tag-ignored"])
def test_markup_only_the_scan_repairs_gets_the_scan_without_spans_asked(name):
    html = (BROKEN / f"{name}.html").read_text(encoding="utf-8")
    page, spanned = Page(html, spans=False), Page(html)
    assert page.tree is not None and spanned.tree is not None
    assert page.spans  # it took the stamped parse after all, and its repairs
    assert page.repairs and page.repairs == spanned.repairs
    body_text = " ".join(page.body.text_content().split())
    assert all(line in body_text for line in ARTICLE_LINES)


@pytest.mark.parametrize("name", ["content-in-head", "content-after-html"])
def test_repairs_without_the_scan_still_run_on_a_page_without_spans(name):
    html = (BROKEN / f"{name}.html").read_text(encoding="utf-8")
    page, spanned = Page(html, spans=False), Page(html)
    assert page.tree is not None and spanned.tree is not None
    assert not page.spans and page.repairs and page.repairs == spanned.repairs
    body_text = " ".join(page.body.text_content().split())
    assert all(line in body_text for line in ARTICLE_LINES)


@pytest.mark.parametrize("html", [
    # a value whose quote never closes: libxml2 would drop the tag and all after it
    '<html><body><p>Kept text.</p><div class="x>more <b>bold</b> text</div></body></html>',
    # markup in a <body> attribute, its quote run on to a later one
    '<html><body class="a<p>hi</p>"><p>Kept text.</p></body></html>',
    # a tag over the attribute limit (libxml2 is quadratic in them)
    "<html><body><div " + " ".join(f"a{i}=x" for i in range(1200)) + "><p>Kept text.</p>"
    "</div></body></html>",
])
def test_other_breakage_the_scan_mends_gets_the_scan_too(html):
    page = Page(html, spans=False)
    assert page.tree is not None and page.spans
    assert "Kept text." in page.body.text_content()


def test_document_order_numbers_are_the_same_counted_or_tabled():
    html = "<html><body>" + "".join(f"<div><h2>H{i}</h2><p>p <b>{i}</b></p></div>"
                                    for i in range(40)) + "</body></html>"
    counted, tabled = Page(html, spans=False), Page(html, spans=False)
    elements = list(counted.iter_elements())
    _ = tabled._positions  # the table, built first
    # the first 64 are counted one by one, the rest read from the table: the same numbers
    assert [counted.ordinal(el) for el in elements] == list(range(len(elements)))
    assert [tabled.ordinal(el) for el in tabled.iter_elements()] == list(range(len(elements)))
    assert counted.element_count == len(elements)


@pytest.mark.parametrize("inside, swallowed", [
    ("<p>one</p><p>two</p><p>three</p>", True),  # three page blocks: the least it takes
    ("<p>one</p><p>two</p><span>three</span>", False),
    ("<section><p>one</p><p>two</p></section>", True),  # nested ones count too
    ("<svg><path d='M0'/></svg>", False),  # an icon: fewer descendants than blocks needed
    ("<p>one</p>", False),
])
def test_a_parse_without_spans_takes_the_scan_when_a_button_holds_a_page(inside, swallowed):
    from blocksift import repair

    html = f"<html><body><div><button>{inside}</button><p>Text after.</p></div></body></html>"
    root = Page(html, spans=False)._parse_plain()
    assert (root is None) == swallowed
    tree = Page(html).tree
    assert repair.tree_may_need_scan(tree) == swallowed

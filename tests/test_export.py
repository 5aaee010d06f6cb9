"""The reader's exports of a right-to-left article carry its language and direction
(blocksift.export); the protocol's side is in tests/transport/test_export_protocol.py."""

from __future__ import annotations

import zipfile
from io import BytesIO

import pytest

from blocksift import export

ARABIC = ("<p>يرتفع البحر وينخفض مرتين كل يوم.</p><pre dir='ltr'><code class='language-python'>"
          "print(1)</code></pre><blockquote lang='en' dir='ltr'><p>The sea rose.</p></blockquote>"
          "<p>السوق <bdi>Fish Market</bdi> و<bdo dir='ltr'>ABC</bdo>.</p>")


def article(**fields) -> export.Article:
    values = {"title": "قياس المد والجزر", "html": export.sanitize(ARABIC),
              "url": "https://sea.example/a", "authors": ["ليلى حسن"], "published": "2024-03-14",
              "site_name": "مجلة البحر", "language": "ar", "direction": "rtl"} | fields
    return export.Article(**values)


def test_sanitize_keeps_the_direction_and_language_of_parts():
    html = export.sanitize(ARABIC + "<p dir='upside'>x</p>")
    assert '<pre dir="ltr">' in html and '<blockquote lang="en" dir="ltr">' in html
    assert "<bdi>Fish Market</bdi>" in html and '<bdo dir="ltr">ABC</bdo>' in html
    assert "upside" not in html


def test_html_file_is_right_to_left_in_its_language():
    page = export.standalone_html(article())
    assert '<html lang="ar" dir="rtl">' in page
    assert '<pre dir="ltr">' in page


def test_direction_comes_from_the_language_when_not_sent():
    assert '<html lang="he" dir="rtl">' in export.standalone_html(article(language="he",
                                                                          direction=""))
    assert '<html lang="en" dir="ltr">' in export.standalone_html(article(language="en",
                                                                          direction=""))
    assert "<html>" in export.standalone_html(article(language="", direction=""))


def test_markdown_front_matter_says_the_language_and_a_right_to_left_direction():
    text = export.markdown(article())
    front = text.split("---")[1]
    assert '\nlang: "ar"\ndir: rtl\n' in front
    assert "dir:" not in export.markdown(article(language="en", direction="ltr")).split("---")[1]


def test_epub_is_right_to_left_in_its_language():
    pytest.importorskip("ebooklib", reason="EPUB export needs the export extra (ebooklib)")
    with zipfile.ZipFile(BytesIO(export.epub(article()))) as book:
        names = book.namelist()
        package = book.read(next(name for name in names if name.endswith(".opf"))).decode()
        chapter = book.read(next(name for name in names if name.endswith("article.xhtml")))
    assert 'page-progression-direction="rtl"' in package
    assert "<dc:language>ar</dc:language>" in package
    head = chapter.decode()[:600]
    assert 'dir="rtl"' in head and 'lang="ar"' in head, head
    assert b'<pre dir="ltr">' in chapter


PRODUCT = {"title": "Trail Mug, Speckled Stoneware", "html": "<p>Thrown by hand.</p>",
           "url": "https://kiln.example/mug", "authors": [], "published": "",
           "site_name": "Kiln & Copper", "language": "en-US", "direction": "ltr",
           "price": "$34.00"}


def test_a_products_price_heads_the_front_matter_as_the_reader_shows_it():
    # the reader showed "$34.00" in its details line; the saved files left it out
    front = export.markdown(article(**PRODUCT)).split("---")[1]
    assert '\nprice: "$34.00"\nurl: "https://kiln.example/mug"\n' in front, front
    assert "price:" not in export.markdown(article(**{**PRODUCT, "price": ""})).split("---")[1]
    # a price in another language's format is kept as written, quoted
    front = export.markdown(article(**{**PRODUCT, "price": "34,00\u00a0€", "language": "de"}))
    assert 'price: "34,00\u00a0€"' in front


def test_a_products_price_stands_in_the_html_files_details_line():
    page = export.standalone_html(article(**PRODUCT))
    assert "<p><small>$34.00 · Kiln &amp; Copper</small></p>" in page, page
    dated = export.standalone_html(article(**{**PRODUCT, "published": "2024-03-14",
                                              "authors": ["Ann Lee"]}))
    assert "<small>By Ann Lee · 2024-03-14 · $34.00 · Kiln &amp; Copper</small>" in dated
    assert "$" not in export.standalone_html(article(**{**PRODUCT, "price": ""}))


def test_a_products_price_stands_in_the_epub_chapters_details_line():
    pytest.importorskip("ebooklib", reason="EPUB export needs the export extra (ebooklib)")
    with zipfile.ZipFile(BytesIO(export.epub(article(**PRODUCT)))) as book:
        chapter = book.read(next(name for name in book.namelist()
                                 if name.endswith("article.xhtml"))).decode()
    assert "<small>$34.00 · Kiln &amp; Copper</small>" in chapter, chapter


def test_a_saved_note_does_not_link_its_headline_to_the_page_itself():
    url = "https://blog.example/2008/05/walk.html"
    note = export.markdown(article(title="A Walk", url=url, html=(
        f'<h2><a href="{url}">A Walk</a></h2><p>We left at dawn.</p>')))
    body = note.split("---\n", 2)[2]
    assert body.lstrip().startswith("# A Walk\n"), note
    assert note.count(url) == 1  # the front matter's url: line only

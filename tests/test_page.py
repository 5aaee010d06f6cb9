"""The page model: parse once, map elements back to spans and stamped ids."""

from __future__ import annotations

from blocksift.page import Page, decode_html


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

"""The one-pass tag scan: offsets, skipped regions, implied ends, stamping."""

from __future__ import annotations

from blocksift.rawscan import scan, stamp


def test_start_tags_with_exact_spans():
    html = '<div id="a"><p>one</p><p>two</div>'
    tags = scan(html)
    assert tags.names == ["div", "p", "p"]
    div_start, div_end = tags.starts[0], tags.close_ends[0]
    assert html[div_start:div_end] == html
    assert html[tags.starts[1]:tags.close_ends[1]] == "<p>one</p>"
    # the second <p> is closed by </div> (implied end)
    assert html[tags.starts[2]:tags.close_ends[2]] == "<p>two"


def test_comments_scripts_and_quoted_gt_are_not_tags():
    html = ('<!-- <a href="x">c</a> --><script>var s = "<a href=y>";</script>'
            '<a title="1 > 0" href="z">ok</a><style>a>b{}</style>')
    tags = scan(html)
    assert tags.names == ["script", "a", "style"]
    a = tags.names.index("a")
    assert html[tags.starts[a]:tags.close_ends[a]] == '<a title="1 > 0" href="z">ok</a>'


def test_implied_ends_of_list_items_and_paragraphs():
    html = "<ul><li>a<li>b</ul><p>x<div>y</div>"
    tags = scan(html)
    spans = [html[s:e] for s, e in zip(tags.starts, tags.close_ends)]
    assert spans[1] == "<li>a" and spans[2] == "<li>b"
    assert spans[3] == "<p>x"


def test_ids_are_read_from_stamped_attribute():
    tags = scan("<div data-bsid='7'><span data-bsid=8>x</span><b>y</b></div>")
    assert tags.ids == ["7", "8", None]


def test_stamp_inserts_ordinals_after_tag_names():
    html = "<div class=x><br/><a href=y>z</a></div>"
    stamped = stamp(html, scan(html))
    assert stamped == ('<div data-bso="0" class=x><br data-bso="1"/>'
                       '<a data-bso="2" href=y>z</a></div>')


def test_unclosed_and_truncated_input_never_raises():
    for html in ["<a href='x", "<div><a href=x>unclosed", "<", "</", "<!--", "<script>", ""]:
        tags = scan(html)
        assert all(0 <= s <= e <= len(html) for s, e in zip(tags.starts, tags.close_ends))


def test_void_and_self_closed_elements_span_their_tag_only():
    html = '<p>a<img src="x.png">b<br/>c<span/>d</p>'
    tags = scan(html)
    spans = {name: html[s:e] for name, s, e in zip(tags.names, tags.starts, tags.close_ends)}
    assert spans["img"] == '<img src="x.png">'
    assert spans["br"] == "<br/>"
    assert spans["p"] == html


def test_tags_in_any_case_scan_as_in_lower_case():
    lower = ("<div id='a'><p>one<p>two</p><ul><li>x<li>y</ul><table><tr><td>c</table>"
             "<span>s</span><br><img src=x></div><section>t</section>")
    mixed = ("<DIV id='a'><P>one<p>two</P><Ul><LI>x<li>y</uL><TABLE><tr><Td>c</table>"
             "<SPAN>s</span><BR><Img src=x></Div><section>t</SECTION>")
    assert len(lower) == len(mixed)
    a, b = scan(lower), scan(mixed)
    assert b.names == a.names and all(name.islower() for name in b.names)
    assert list(b.starts) == list(a.starts) and list(b.close_ends) == list(a.close_ends)
    assert list(b.tag_ends) == list(a.tag_ends) and list(b.name_ends) == list(a.name_ends)
    # one string per tag name, whatever the case it was written in
    assert len({id(name) for name in b.names if name == "p"}) == 1


def test_an_end_tag_that_closes_elements_opened_inside_is_listed():
    from blocksift.rawscan import scan

    tags = scan("<div><button><div><span>menu</button></div><p>text</p><b>x</b></div>")
    assert tags.names == ["div", "button", "div", "span", "p", "b"]
    assert tags.closed_over == [1]  # </button> closed the div and span opened inside it
    assert tags.close_ends[2] == tags.close_ends[3] == tags.starts[1] + len("<button><div><span>menu")
    assert scan("<div><p>a</p><button>b</button></div>").closed_over == []

"""Markdown worth pasting into a note: golden files for the renderer, then the real command.

Golden cases live in tests/cli/markdown/<case>/: ``input.html`` (main HTML as the sanitizer
leaves it), ``title.txt`` and ``expected.md``. Re-record deliberately with
``BLOCKSIFT_UPDATE_GOLDEN=1 python3 -m pytest tests/cli/test_markdown.py`` and review the diff.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from blocksift.render_markdown import code_language, html_document, parse_fragment, to_markdown

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = sorted(p.name for p in (HERE / "markdown").iterdir() if p.is_dir())
ALGORITHMS = ("auto", "linkblocks", "linkdensity", "clustering", "farsw")


@pytest.mark.parametrize("case", CASES)
def test_markdown_golden(case):
    folder = HERE / "markdown" / case
    title = (folder / "title.txt").read_text(encoding="utf-8").strip()
    rendered = to_markdown(title, (folder / "input.html").read_text(encoding="utf-8")) + "\n"
    expected = folder / "expected.md"
    if os.environ.get("BLOCKSIFT_UPDATE_GOLDEN"):
        expected.write_text(rendered, encoding="utf-8")
    assert rendered == expected.read_text(encoding="utf-8")
    assert len(re.findall(r"^# ", rendered, flags=re.M)) == 1, "exactly one headline"


def test_data_table_is_a_markdown_table_with_its_caption():
    folder = HERE / "markdown" / "data-table-caption"
    md = to_markdown("t", (folder / "input.html").read_text(encoding="utf-8"))
    table = [line for line in md.splitlines() if line.startswith("|")]
    assert table[1] == "| --- | --- | --- |"
    assert len({line.count(" | ") for line in table}) == 1, "every row has the same width"
    assert "Table: Lights switched off" in md



def test_a_break_inside_a_table_cell_keeps_the_row_on_one_line():
    md = to_markdown("t", "<table><tr><th>Size<br>(W x L)</th><th>Price</th></tr>"
                          "<tr><td>Twin<br>small</td><td>10</td></tr></table>")
    table = [line for line in md.splitlines() if line.startswith("|")]
    assert table == ["| Size<br>(W x L) | Price |", "| --- | --- |", "| Twin<br>small | 10 |"]
    assert len(md.strip().splitlines()) == 3 + 2  # the headline, a blank line, three rows

def test_layout_tables_are_flattened_to_paragraphs():
    folder = HERE / "markdown" / "layout-table"
    md = to_markdown("t", (folder / "input.html").read_text(encoding="utf-8"))
    assert "|" not in md
    assert "\n\nWe grow eleven varieties" in md


@pytest.mark.parametrize("markup, language", [
    ('<pre><code class="language-python">x</code></pre>', "python"),
    ('<pre class="lang-js">x</pre>', "js"),
    ('<pre><code class="highlight-source-c++">x</code></pre>', "c++"),
    ('<pre class="brush: sql">x</pre>', "sql"),
    ('<pre><code class="hljs go">x</code></pre>', "go"),
    ("<pre>x</pre>", ""),
])
def test_code_language_from_the_page(markup, language):
    assert code_language(parse_fragment(markup)[0]) == language


def test_html_document_has_one_headline():
    assert html_document("Story | Site", "<h1>Story</h1><p>x</p>") == "<h1>Story</h1><p>x</p>"
    assert html_document("A & B", "<p>x</p>") == "<h1>A &amp; B</h1>\n<p>x</p>"
    # the page's other <h1> step down, as in Markdown (a page of ten <h1> printed ten)
    assert html_document("Tide tables", "<h1>Monday</h1><p>x</p><h1>Tuesday</h1><p>y</p>") == \
        "<h1>Tide tables</h1>\n<h2>Monday</h2><p>x</p><h2>Tuesday</h2><p>y</p>"
    # the text opening with a lower heading saying the title: that is the headline
    assert html_document("Story | Site", "<h2>Story</h2><p>x</p>") == "<h1>Story</h1><p>x</p>"
    # words, not letters: the heading "Two" does not say the title "T"
    assert html_document("T", "<h1>Two</h1><p>x</p>") == "<h1>T</h1>\n<h2>Two</h2><p>x</p>"


def test_a_section_heading_holding_the_title_is_no_headline():
    """A service page's text opens with a paragraph; far down, an <h2> says the title and
    more ("AI Consulting Services Tailored to Your Business" under the title "AI Consulting
    Services", wcxb-dev 0719). It was taken for the headline: '#' in the middle, no title
    on top, and in HTML no <h1> at all."""
    html = ("<p>We are a certified partner.</p><h2>What you gain</h2><p>Clarity.</p>"
            "<h2>AI Consulting Services Tailored to Your Business</h2><p>Strategy.</p>")
    md = to_markdown("AI Consulting Services", html)
    assert md.splitlines()[0] == "# AI Consulting Services"
    assert "\n## AI Consulting Services Tailored to Your Business\n" in md
    assert len(re.findall(r"^# ", md, flags=re.M)) == 1
    assert html_document("AI Consulting Services", html).startswith(
        "<h1>AI Consulting Services</h1>")
    # the text opening with it, it is the headline still ("Story" under "Story | Site")
    opening = "<h2>AI Consulting Services Tailored to You</h2><p>We are a partner.</p>"
    assert to_markdown("AI Consulting Services", opening).splitlines()[0] == \
        "# AI Consulting Services Tailored to You"


@pytest.mark.parametrize("title, heading", [
    ("10 Best Moving Companies in New York (2025 Reviews)", "New York"),
    ("Laptop vs. Desktop: How Many Watts Does a Computer Use?", "Laptop"),
])
def test_a_heading_that_is_a_piece_of_the_title_stays(title, heading):
    """Only a heading saying the whole title (or the story's part of "Story | Site") is the
    title said again; each company's "New York" line was dropped as one (wcxb-dev 0057)."""
    md = to_markdown(title, f"<p>Intro.</p><h3>{heading}</h3><p>Movers.</p>")
    assert f"### {heading}" in md, md
    assert md.splitlines()[0] == f"# {_escape(title)}"


def _escape(title: str) -> str:
    return to_markdown(title, "").removeprefix("# ")


@pytest.mark.parametrize("html, kept, dropped", [
    # a carousel's heading whose items were left out, then the next section's
    ("<h1>T</h1><p>x</p><h2>Similar Items</h2><h2>Explore</h2><p>Seller.</p>",
     ["Explore", "Seller."], ["Similar Items"]),
    ("<p>x</p><div><h2>You may also like</h2></div>", ["x"], ["You may also like"]),
    # a heading over a lower one, over a picture, or signing a quote stays
    ("<h2>A</h2><h3>B</h3><p>x</p>", ["A", "B", "x"], []),
    ("<p>x</p><h2>Map</h2><img src='https://example.org/m.png' alt='map'>", ["Map"], []),
    ("<blockquote><p>Great lanterns.</p><h4>Jane Doe</h4><h5>CEO</h5></blockquote><p>y</p>",
     ["Jane Doe", "CEO"], []),
])
def test_headings_that_head_nothing_are_left_out_as_the_reader_does(html, kept, dropped):
    """The reader drops them (extension/src/reader.js dropEmptyHeadings); `--format
    markdown` and `html` printed "## Similar Items" over the next section's text."""
    for rendered in (to_markdown("Title", html), html_document("Title", html)):
        for text in kept:
            assert text in rendered, rendered
        for text in dropped:
            assert text not in rendered, rendered


PRODUCT = """<html><head><title>Brass Ship Lantern, Hand Made | Harbour Goods</title>
<meta property="og:title" content="Brass Ship Lantern, Hand Made"></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/about">About</a></nav><main>
<div><h2>People who viewed this item also viewed</h2></div><div>
<h1>Brass Ship Lantern, Hand Made</h1>
<p>This lantern is hand made from solid brass by a small workshop on the coast, and every
one is tested in wind and rain before it leaves. It burns oil for eight hours on a filling.</p>
<p>The glass is thick and the handle folds flat, so the lantern travels well in a boat's
locker or a car's boot. Each comes with a wick, a funnel and a cloth bag.</p>
</div></main><footer><a href="/p">Privacy</a> <a href="/t">Terms</a></footer></body></html>"""


def test_markdown_and_html_carry_the_title_the_reader_shows(tmp_path):
    """The reader shows the metadata's title; the CLI printed the algorithm's, here the
    first heading of the chosen text ("# People who viewed this item also viewed")."""
    page = tmp_path / "product.html"
    page.write_text(PRODUCT, encoding="utf-8")
    markdown = _extract(str(page), "--format", "markdown")
    assert markdown.returncode == 0, markdown.stderr
    assert markdown.stdout.splitlines()[0] == "# Brass Ship Lantern, Hand Made"
    assert "People who viewed" not in markdown.stdout
    html = _extract(str(page), "--format", "html")
    assert html.stdout.count("<h1") == 1 and "<h1>Brass Ship Lantern, Hand Made</h1>" in \
        html.stdout, html.stdout[:400]


def _extract(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"))
    return subprocess.run([sys.executable, "-m", "blocksift", "extract", *args],
                          capture_output=True, text=True, timeout=120, env=env, cwd=REPO)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_prints_one_headline(algorithm):
    page = str(REPO / "examples" / "article.html")
    markdown = _extract(page, "--algo", algorithm, "--format", "markdown")
    html = _extract(page, "--algo", algorithm, "--format", "html")
    assert markdown.returncode in (0, 1) and html.returncode in (0, 1), markdown.stderr
    if markdown.stdout.strip():
        assert len(re.findall(r"^# ", markdown.stdout, flags=re.M)) == 1, markdown.stdout
    if html.stdout.strip():
        assert html.stdout.count("<h1") == 1, html.stdout[:400]


def test_a_table_laid_out_page_reads_as_paragraphs():
    page = REPO / "tests" / "golden" / "table-layout-legacy" / "source.html"
    done = _extract(str(page), "--format", "markdown")
    assert done.returncode == 0, done.stderr
    assert "|" not in done.stdout
    assert "\n\nWe grow eleven varieties of apple" in done.stdout


PERMALINK = "https://blog.example/2008/05/a-walk-in-the-hills.html"


@pytest.mark.parametrize("href", [
    PERMALINK, PERMALINK + "#more", "/2008/05/a-walk-in-the-hills.html",
    "http://www.blog.example/2008/05/a-walk-in-the-hills.html"])
def test_the_headline_links_to_the_page_itself_no_more(href):
    """A blog's post title is a permalink: the note said ``# [Title](its own address)``."""
    html = (f'<h2><a href="{href}">A Walk in the Hills</a></h2><p>We left at dawn, '
            f'<a href="{PERMALINK}">as planned</a>.</p><h2><a href="/2008/04/">April</a></h2>'
            '<p>More.</p>')
    markdown = to_markdown("A Walk in the Hills", html, PERMALINK)
    assert markdown.splitlines()[0] == "# A Walk in the Hills", markdown
    assert f"[as planned]({PERMALINK})" in markdown  # links in the text stay
    assert "## [April](/2008/04/)" in markdown  # and so do other headings' links
    document = html_document("A Walk in the Hills", html, PERMALINK)
    assert document.startswith("<h1>A Walk in the Hills</h1>"), document
    # without the page's address nothing says the link is the page's own
    assert to_markdown("A Walk in the Hills", html).startswith("# [A Walk in the Hills](")


def test_a_headline_linking_elsewhere_keeps_its_link():
    """A link blog's headline points at the story it comments on: that link is the post."""
    html = '<h1><a href="https://news.example/story">Big news</a></h1><p>Worth a read.</p>'
    assert to_markdown("Big news", html, PERMALINK).startswith(
        "# [Big news](https://news.example/story)")


BLOG = """<!doctype html><html><head><title>A Walk in the Hills | Hill Notes</title></head>
<body><div id="header"><h1><a href="https://blog.example/">Hill Notes</a></h1></div>
<div class="post"><h2 class="post-title"><a href="{permalink}">A Walk in the Hills</a></h2>
<div class="post-body"><p>We left the village at dawn, when the mist still lay in the valley
and the first birds were calling from the hedges along the lane.</p>
<p>By noon we had reached the ridge, where the wind was strong and the view opened over
three counties, their fields laid out like a quilt below the clouds.</p>
<p>The way down took longer than we thought, and we reached the inn as the lamps were lit,
tired, muddy and very glad of the fire and the soup.</p></div></div>
<div id="sidebar"><h3>Archive</h3><ul><li><a href="/2008/04/">April</a></li>
<li><a href="/2008/03/">March</a></li></ul></div></body></html>"""


def test_extract_unlinks_the_headline_with_the_pages_address(tmp_path):
    page = tmp_path / "post.html"
    page.write_text(BLOG.format(permalink=PERMALINK), encoding="utf-8")
    json_out = _extract(str(page), "--url", PERMALINK, "--format", "json")
    assert json_out.returncode == 0, json_out.stderr
    assert f'href=\\"{PERMALINK}\\"' in json_out.stdout  # the headline's link is in the main HTML
    markdown = _extract(str(page), "--url", PERMALINK, "--format", "markdown")
    assert markdown.returncode == 0, markdown.stderr
    assert markdown.stdout.splitlines()[0] == "# A Walk in the Hills", markdown.stdout
    assert PERMALINK not in markdown.stdout
    html = _extract(str(page), "--url", PERMALINK, "--format", "html")
    assert "<h1>A Walk in the Hills</h1>" in html.stdout and PERMALINK not in html.stdout, \
        html.stdout[:400]
